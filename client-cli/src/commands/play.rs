//! `fray play --token T`: play interactively, one command per stdin line (typed or piped).
//!
//! After joining it shows whose turn it is; when one of the player's combatants is up (the GM
//! commands everyone) it lists that combatant's hit points, actions left, attacks with their
//! legal targets, and `move` / `rally` / `end`. Events are narrated as they arrive; `Rejected`
//! answers are printed verbatim (code and message).
//!
//! The client follows the server's view (`watch`: a snapshot, then a patch after every batch of
//! events) and the seat's legal actions, which the menu lists for `do N`. Lines are taken one at
//! a time: the next line is read only when the previous command has been answered and the view
//! includes its events, so piped scripts behave like a patient typist. At the end of piped input the client
//! leaves once everything sent has been answered. A lost connection is resumed after the last
//! event seen.

use crate::address::Server;
use crate::commands::print_outputs;
use crate::connection::{Connection, describe_role};
use crate::input::{self, Input, Menu};
use crate::line_editor;
use crate::narrate::{action_name, defense_name};
use crate::table;
use crate::tracker::Tracker;
use anyhow::Result;
use fray_protocol::codec::Encoding;
use fray_protocol::event::ActionKind;
use fray_protocol::state::{CombatantState, Phase};
use fray_protocol::{
    ClientMessage, CombatantId, Command, ErrorCode, GameEvent, LegalAction, Role, ServerMessage,
};
use std::io::{BufRead, IsTerminal};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// How long input waits for the server before it is taken anyway.
const STALL: Duration = Duration::from_secs(10);

/// How long after a view patch the seat's legal actions are awaited before they are taken as
/// unchanged (the server sends them only when they changed, in the same write as the patch).
const ACTIONS_GRACE: Duration = Duration::from_millis(150);

/// Runs `fray play`.
pub async fn run(server: &Server, encoding: Encoding, token: &str) -> Result<()> {
    let (mut conn, welcome) = Connection::open(server, encoding, token, None).await?;
    watch(&mut conn).await?;
    println!(
        "Joined session {} as {} (ruleset {}, {} events so far)",
        welcome.session,
        describe_role(&welcome.role),
        welcome.ruleset,
        welcome.seq
    );
    println!("Seed commitment: {}", welcome.commitment);
    println!("Type `help` for the commands.");
    if welcome.role == Role::Spectator {
        println!("(This is a spectator token: you can watch but not act.)");
    }
    // At a terminal, the line editor (history, Tab completion); piped input is echoed.
    let words = line_editor::Words::default();
    let terminal = std::io::stdin().is_terminal();
    let echo = !terminal;
    let mut lines = terminal
        .then(|| line_editor::spawn(words.clone()))
        .flatten()
        .unwrap_or_else(spawn_stdin);
    let mut game = Game::new(welcome.role.clone(), welcome.seq, words, terminal);
    let mut stdin_open = true;
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    loop {
        let ready = game.ready();
        if !stdin_open && ready {
            break;
        }
        tokio::select! {
            received = conn.recv() => {
                let reconnect = match received {
                    Ok(Some(msg)) => game.on_message(msg, &mut conn).await,
                    Ok(None) => {
                        eprintln!("(the server closed the connection)");
                        true
                    }
                    Err(e) => {
                        eprintln!("(connection lost: {e:#})");
                        true
                    }
                };
                if reconnect {
                    let from = game.tracker.last_seq();
                    eprintln!("(reconnecting; resuming after event #{})", from.unwrap_or(0));
                    let (c, w) = Connection::open_retrying(server, encoding, token, from).await?;
                    conn = c;
                    game.reconnected(w.seq);
                    eprintln!("(reconnected)");
                    if let Err(e) = watch(&mut conn).await {
                        eprintln!("(could not ask for the view: {e:#})");
                    }
                }
            }
            line = lines.recv(), if ready && stdin_open => match line {
                None => stdin_open = false,
                Some(line) => {
                    if echo {
                        println!("> {line}");
                    }
                    match game.on_line(&line) {
                        LineOutcome::Quit => break,
                        LineOutcome::Nothing => {}
                        LineOutcome::Send(command) => {
                            if let Err(e) = game.send_command(&mut conn, command).await {
                                eprintln!("(could not send: {e:#})");
                            }
                        }
                    }
                }
            },
            _ = tick.tick(), if !ready => game.check_stall(),
            _ = tokio::time::sleep_until(game.actions_due.unwrap_or_else(Instant::now)),
                if game.actions_due.is_some() => game.actions_unchanged(),
        }
    }
    conn.close().await;
    Ok(())
}

/// What Tab completes: the verbs of the session's ruleset, every combatant id and attack id.
fn completion_words(state: &fray_protocol::SessionState) -> Vec<String> {
    let verbs = crate::help::entries()
        .iter()
        .filter(|e| e.rulesets().contains(&state.ruleset.as_str()))
        .flat_map(|e| e.verbs.iter().map(|v| (*v).to_owned()));
    let ids = state.combatants.iter().map(|c| c.id.to_string());
    let attacks = state
        .combatants
        .iter()
        .flat_map(|c| c.attacks.iter().map(|a| a.id.clone()));
    verbs.chain(ids).chain(attacks).collect()
}

/// Follows the view and the legal actions.
async fn watch(conn: &mut Connection) -> Result<()> {
    conn.send(&ClientMessage::Watch {
        views: true,
        legal_actions: true,
    })
    .await
}

/// Reads stdin lines on a plain thread (blocking reads do not belong on the runtime); the
/// channel closes at end of input.
fn spawn_stdin() -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel(64);
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.blocking_send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// What to do with a typed line.
enum LineOutcome {
    Quit,
    Nothing,
    Send(Command),
}

/// The client's view of the game and of its own pending requests.
struct Game {
    role: Role,
    tracker: Tracker,
    /// Events up to this sequence number were already in the log when we joined.
    joined_at: u64,
    next_id: u64,
    /// The command awaiting `Accepted`/`Rejected`.
    outstanding: Option<u64>,
    /// Show the turn once events up to this sequence number have arrived.
    prompt_after: Option<u64>,
    /// Print the state table once the view is current.
    table_next: bool,
    /// The seat's legal actions, as the server last sent them.
    actions: Vec<LegalAction>,
    /// The legal actions are known to be current as of this sequence number: the `seq` of the
    /// last `legal_actions`, the view's at an `accepted` (changed legal actions come before it),
    /// or the view's once `ACTIONS_GRACE` passed without any (they did not change).
    actions_at: u64,
    /// When the legal actions are taken as unchanged, while the view is past `actions_at`.
    actions_due: Option<Instant>,
    /// The view's sequence number at which the legal actions were last taken as unchanged.
    assumed_at: Option<u64>,
    /// Since when input has been held back.
    waiting_since: Option<Instant>,
    /// What Tab completes at the terminal, refreshed with every view.
    words: line_editor::Words,
    /// Input comes from a person at a terminal (not a script).
    interactive: bool,
    /// The combatant whose `end` was answered with "actions left": the next `end` ends it.
    end_warned: Option<CombatantId>,
}

impl Game {
    fn new(role: Role, joined_at: u64, words: line_editor::Words, interactive: bool) -> Game {
        Game {
            words,
            interactive,
            end_warned: None,
            role,
            tracker: Tracker::new(),
            joined_at,
            next_id: 1,
            outstanding: None,
            prompt_after: None,
            table_next: true,
            actions: Vec::new(),
            actions_at: 0,
            actions_due: None,
            assumed_at: None,
            waiting_since: Some(Instant::now()),
        }
    }

    /// Whether the next input line may be taken.
    fn ready(&self) -> bool {
        self.tracker.view_is_current()
            && self.actions_current()
            && self.outstanding.is_none()
            && self.prompt_after.is_none()
    }

    /// Whether the legal actions held are those of the view (a spectator has none to wait for).
    fn actions_current(&self) -> bool {
        self.role == Role::Spectator
            || self
                .tracker
                .view_seq()
                .is_none_or(|view| view <= self.actions_at)
    }

    /// After the view moved: wait a moment for legal actions that the same write may carry.
    fn await_actions(&mut self) {
        if self.actions_current() {
            self.actions_due = None;
        } else if self.actions_due.is_none() {
            self.actions_due = Some(Instant::now() + ACTIONS_GRACE);
        }
    }

    /// No legal actions came with the view: they did not change.
    fn actions_unchanged(&mut self) {
        self.actions_due = None;
        if let Some(view) = self.tracker.view_seq()
            && view > self.actions_at
        {
            self.actions_at = view;
            self.assumed_at = Some(view);
        }
        self.maybe_prompt();
    }

    /// Stops waiting for answers that do not come.
    fn check_stall(&mut self) {
        let since = *self.waiting_since.get_or_insert_with(Instant::now);
        if since.elapsed() >= STALL && self.tracker.state().is_some() {
            eprintln!("(no answer from the server for {STALL:?}; taking input anyway)");
            self.outstanding = None;
            self.prompt_after = None;
            self.waiting_since = None;
        }
    }

    fn controls(&self, id: &CombatantId) -> bool {
        match &self.role {
            Role::Gm => true,
            Role::Player { controls, .. } => controls.contains(id),
            Role::Spectator => false,
        }
    }

    /// The combatant a command would be for: the one whose turn it is if we control it, or
    /// else a player's only combatant (the server then says whose turn it is).
    fn acting(&self) -> Option<CombatantId> {
        let state = self.tracker.state()?;
        if let Some(current) = &state.current
            && state.phase == Phase::Running
            && self.controls(current)
        {
            // Orcus § Controlling a mount: once the rider gave up an action, its mount (when
            // this seat controls it too) acts with it.
            if let Some(mount) = state
                .combatant(current)
                .and_then(|c| c.grid.as_ref())
                .filter(|g| g.controls_mount)
                .and_then(|g| g.mounted_on.clone())
                && self.controls(&mount)
                && state
                    .combatant(&mount)
                    .is_some_and(|m| m.actions.standard || m.actions.move_action || m.actions.quick)
            {
                return Some(mount);
            }
            return Some(current.clone());
        }
        // Out of turn: a controlled combatant holding a readied action acts with it.
        if state.phase == Phase::Running
            && let Some((ready, _)) = state.readied.iter().find(|(c, _)| self.controls(c))
        {
            return Some(ready.clone());
        }
        match &self.role {
            Role::Player { controls, .. } if controls.len() == 1 => controls.first().cloned(),
            _ => None,
        }
    }

    fn note_waiting(&mut self) {
        if self.waiting_since.is_none() {
            self.waiting_since = Some(Instant::now());
        }
    }

    async fn send_command(&mut self, conn: &mut Connection, command: Command) -> Result<()> {
        let id = self.next_id;
        self.next_id += 1;
        conn.send(&ClientMessage::Command { id, command }).await?;
        self.outstanding = Some(id);
        self.note_waiting();
        Ok(())
    }

    fn reconnected(&mut self, seq: u64) {
        if let Some(id) = self.outstanding.take() {
            println!(
                "(the answer to command #{id} was lost with the connection; \
                 its events will show if it was accepted)"
            );
        }
        self.prompt_after = None;
        self.joined_at = seq;
        self.table_next = false;
    }

    /// Handles a server message; `true` if the connection should be replaced.
    async fn on_message(&mut self, msg: ServerMessage, conn: &mut Connection) -> bool {
        match msg {
            ServerMessage::Event { seq, event, .. } => {
                let battle_ended = matches!(event, GameEvent::BattleEnded { .. })
                    || matches!(event, GameEvent::NewBattle { .. });
                print_outputs(&self.tracker.on_event(seq, event), false);
                if battle_ended && seq > self.joined_at {
                    self.table_next = true;
                }
                self.note_waiting();
            }
            ServerMessage::Snapshot { seq, state } => {
                print_outputs(&self.tracker.on_snapshot(seq, *state), false);
                self.view_updated();
            }
            ServerMessage::ViewPatch {
                from_seq,
                seq,
                patch,
            } => {
                if let Err(stale) = self.tracker.on_patch(from_seq, seq, &patch) {
                    eprintln!("({}; asking for a fresh view)", stale.0);
                    if watch(conn).await.is_err() {
                        return true;
                    }
                }
                self.view_updated();
            }
            ServerMessage::LegalActions { seq, actions } => {
                for prompt in self.legal_actions(actions) {
                    println!("{prompt}");
                }
                self.actions_at = self.actions_at.max(seq);
                self.await_actions();
                if self.assumed_at.take().is_some_and(|at| at >= seq) {
                    // The turn was shown before these arrived, taken as unchanged: show it
                    // again with the actions the server offers.
                    self.show_turn();
                } else {
                    self.maybe_prompt();
                }
            }
            ServerMessage::Accepted {
                command_id,
                last_seq,
                ..
            } => {
                if self.outstanding == Some(command_id) {
                    self.outstanding = None;
                    self.prompt_after = Some(last_seq);
                }
                // The batch's legal actions, if they changed, came before its answers.
                if let Some(view) = self.tracker.view_seq() {
                    self.actions_at = self.actions_at.max(view);
                }
                self.await_actions();
                self.maybe_prompt();
            }
            ServerMessage::Rejected {
                command_id,
                code,
                message,
            } => {
                println!("Rejected: {code}: {message}");
                if self.outstanding == Some(command_id) {
                    self.outstanding = None;
                    self.waiting_since = None;
                }
            }
            ServerMessage::Error { code, message } => {
                println!("Server error: {code}: {message}");
                if matches!(code, ErrorCode::Lagging | ErrorCode::SessionUnavailable) {
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    return true;
                }
            }
            // `play` sends no `preview` (the page does).
            ServerMessage::Welcome { .. }
            | ServerMessage::Pong { .. }
            | ServerMessage::PreviewResult { .. }
            | ServerMessage::PreviewRefused { .. } => {}
        }
        false
    }

    /// After the view changed: the table when one is due, then the turn when nothing more is
    /// expected.
    fn view_updated(&mut self) {
        if let Some(state) = self.tracker.state() {
            self.words.set(completion_words(state));
        }
        self.await_actions();
        if self.table_next
            && self.tracker.view_is_current()
            && let Some(state) = self.tracker.state()
        {
            self.table_next = false;
            println!();
            print!(
                "{}",
                table::render_styled(state, table::Style::for_stdout())
            );
        }
        self.maybe_prompt();
    }

    /// Shows the turn once nothing more is expected from the server.
    fn maybe_prompt(&mut self) {
        if let Some(after) = self.prompt_after
            && self.tracker.last_seq().is_some_and(|last| last >= after)
        {
            self.prompt_after = None;
        }
        if self.prompt_after.is_none()
            && self.tracker.view_is_current()
            && self.actions_current()
            && self.outstanding.is_none()
            && self.waiting_since.is_some()
        {
            self.waiting_since = None;
            self.show_turn();
        }
    }

    /// The legal actions the menu shows, numbered from 1 for `do N`: the acting combatant's
    /// and the GM's session commands, then what this seat's other combatants may do out of
    /// turn (opportunity attacks, intercepts, readied actions).
    fn shown_actions(&self) -> Vec<&LegalAction> {
        let acting = self.acting();
        let (now, out_of_turn): (Vec<&LegalAction>, Vec<&LegalAction>) = self
            .actions
            .iter()
            .partition(|a| a.actor.is_none() || a.actor == acting);
        now.into_iter().chain(out_of_turn).collect()
    }

    /// New legal actions: a prompt for each out-of-turn option that just opened, with the
    /// number to take it (the GM is not otherwise told that an opportunity attack is open).
    fn legal_actions(&mut self, actions: Vec<LegalAction>) -> Vec<String> {
        let before = std::mem::replace(&mut self.actions, actions);
        let acting = self.acting();
        let shown = self.shown_actions();
        let mut prompts = Vec::new();
        for (i, a) in shown.iter().enumerate() {
            let opened = a.actor.is_some()
                && a.actor != acting
                && !before.iter().any(|b| b.command == a.command);
            if opened {
                let who = a.actor.as_ref().map(|c| c.to_string()).unwrap_or_default();
                let label = if a.label.is_empty() {
                    String::new()
                } else {
                    format!(": {}", a.label)
                };
                prompts.push(format!(
                    "Out of turn, {who} may now: {}{label} (`do {}`)",
                    a.group,
                    i + 1
                ));
            }
        }
        prompts
    }

    /// At a terminal, ending a turn whose standard action is unused asks to be typed twice.
    fn confirm_end(&mut self, command: &Command) -> bool {
        let Command::EndTurn { actor } = command else {
            self.end_warned = None;
            return true;
        };
        if !self.interactive || self.end_warned.as_ref() == Some(actor) {
            self.end_warned = None;
            return true;
        }
        let unused = self
            .tracker
            .state()
            .and_then(|s| s.combatant(actor))
            .filter(|c| c.actions.standard);
        match unused {
            Some(c) => {
                println!(
                    "{} has not used its standard action this turn; `end` again ends the turn anyway.",
                    c.name
                );
                self.end_warned = Some(actor.clone());
                false
            }
            None => true,
        }
    }

    fn on_line(&mut self, line: &str) -> LineOutcome {
        if let Some(n) = line.trim().strip_prefix("do ") {
            let shown = self.shown_actions();
            return match n
                .trim()
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
            {
                Some(i) if i < shown.len() => LineOutcome::Send(shown[i].command.clone()),
                _ => {
                    println!(
                        "`do N` takes the number of a listed action, 1 to {}",
                        shown.len()
                    );
                    LineOutcome::Nothing
                }
            };
        }
        let Some(state) = self.tracker.state() else {
            return LineOutcome::Nothing;
        };
        let menu = self
            .acting()
            .and_then(|actor| Menu::for_actor(state, &actor, &self.actions));
        let parsed = match input::parse(line, menu.as_ref()) {
            // A commanded mount acts within its rider's turn: `end` ends the rider's turn.
            Ok(Input::Game(Command::EndTurn { actor }))
                if state
                    .current
                    .as_ref()
                    .and_then(|c| state.combatant(c))
                    .and_then(|c| c.grid.as_ref())
                    .is_some_and(|g| g.controls_mount && g.mounted_on.as_ref() == Some(&actor)) =>
            {
                Ok(Input::Game(Command::EndTurn {
                    actor: state.current.clone().unwrap_or(actor),
                }))
            }
            other => other,
        };
        match parsed {
            Err(msg) => {
                println!("{msg}");
                LineOutcome::Nothing
            }
            Ok(Input::Empty) => LineOutcome::Nothing,
            Ok(Input::Help(verb)) => {
                match verb {
                    None => println!("{}", crate::help::for_ruleset(&state.ruleset)),
                    Some(v) => println!("{}", crate::help::for_verb(&state.ruleset, &v)),
                }
                LineOutcome::Nothing
            }
            Ok(Input::Quit) => LineOutcome::Quit,
            Ok(Input::State) => {
                print!(
                    "{}",
                    table::render_styled(state, table::Style::for_stdout())
                );
                LineOutcome::Nothing
            }
            Ok(Input::Menu) => {
                self.show_turn();
                LineOutcome::Nothing
            }
            Ok(Input::Game(command)) => {
                if self.role == Role::Spectator {
                    println!("Spectators cannot send commands.");
                    LineOutcome::Nothing
                } else if self.confirm_end(&command) {
                    LineOutcome::Send(command)
                } else {
                    LineOutcome::Nothing
                }
            }
        }
    }

    /// Prints whose turn it is, and the menu when it is ours.
    fn show_turn(&self) {
        let Some(state) = self.tracker.state() else {
            return;
        };
        println!();
        match state.phase {
            Phase::Setup => {
                if self.role == Role::Gm {
                    println!("The battle has not started. Type `start` to roll initiative.");
                } else {
                    println!("Waiting for the GM to start the battle.");
                }
            }
            Phase::Ended => println!("{}. Type `quit` to leave.", table::header(state)),
            Phase::Running => match &state.current {
                Some(current) if self.controls(current) => match state.combatant(current) {
                    Some(me) => print!("{}", render_menu(state, me, &self.actions)),
                    None => println!("{}", table::header(state)),
                },
                _ => println!("{} — waiting.", table::header(state)),
            },
        }
        print!("{}", render_actions(&self.shown_actions()));
    }
}

/// The legal actions, one line per group, numbered for `do N`.
fn render_actions(actions: &[&LegalAction]) -> String {
    if actions.is_empty() {
        return String::new();
    }
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (i, a) in actions.iter().enumerate() {
        let who = match &a.actor {
            Some(actor) => format!("{actor}: {}", a.group),
            None => a.group.clone(),
        };
        let choice = if a.label.is_empty() {
            format!("{}", i + 1)
        } else {
            format!("{} {}", i + 1, a.label)
        };
        match groups.iter_mut().find(|(g, _)| *g == who) {
            Some((_, choices)) => choices.push(choice),
            None => groups.push((who, vec![choice])),
        }
    }
    let mut out = String::from("Legal actions (type `do N`):\n");
    for (group, choices) in groups {
        out.push_str(&format!("  {group}: {}\n", choices.join(" · ")));
    }
    out
}

/// The menu for our combatant whose turn it is; its targets are those the seat's legal
/// actions offer.
fn render_menu(
    state: &fray_protocol::SessionState,
    me: &CombatantState,
    actions: &[LegalAction],
) -> String {
    let mut out = format!("{} — your turn\n", table::header(state));
    let hp = match (me.hp, me.max_hp) {
        (Some(hp), Some(max)) => format!("{hp}/{max} hp"),
        (Some(hp), None) => format!("{hp} hp"),
        (None, _) => "hp hidden".to_owned(),
    };
    let temp = if me.temp_hp > 0 {
        format!(" (+{} temporary)", me.temp_hp)
    } else {
        String::new()
    };
    let left: Vec<&str> = [
        (me.actions.standard, ActionKind::Standard),
        (me.actions.move_action, ActionKind::Move),
        (me.actions.quick, ActionKind::Quick),
    ]
    .iter()
    .filter(|(has, _)| *has)
    .map(|(_, k)| action_name(*k))
    .collect();
    let left = if left.is_empty() {
        "none".to_owned()
    } else {
        left.join(", ")
    };
    if me.ftd.is_some() {
        // Five Torches Deep: active / movement / quick, no recoveries.
        out.push_str(&format!(
            "{}: {hp}{temp} · {} · actions left: {left} (standard = the active action)\n",
            me.name,
            table::status_cell(me)
        ));
    } else {
        out.push_str(&format!(
            "{}: {hp}{temp} · {} · recoveries {} · actions left: {left}\n",
            me.name,
            table::status_cell(me),
            me.recoveries
        ));
    }
    let Some(menu) = Menu::for_actor(state, &me.id, actions) else {
        return out;
    };
    let standard = me.actions.payer(ActionKind::Standard).is_some();
    // Each attack's legal target numbers, for its line and the example.
    let legal: Vec<Vec<usize>> = menu
        .attacks
        .iter()
        .map(|a| menu.targets_of(&a.id, actions))
        .collect();
    if menu.attacks.is_empty() {
        out.push_str("No attacks.\n");
    } else {
        out.push_str(if standard {
            "Attacks (standard action):\n"
        } else {
            "Attacks (standard action — already used this turn):\n"
        });
        let id_w = menu.attacks.iter().map(|a| a.id.len()).max().unwrap_or(0);
        let name_w = menu.attacks.iter().map(|a| a.name.len()).max().unwrap_or(0);
        for ((i, a), legal) in menu.attacks.iter().enumerate().zip(&legal) {
            let expended = me.expended.contains(&a.id);
            let mut notes = Vec::new();
            if a.usage != "at-will" {
                notes.push(a.usage.to_string());
            }
            if a.action != "standard" {
                notes.push(format!("{} action", a.action));
            }
            if !a.maneuvers.is_empty() {
                notes.push("flexible".to_owned());
            }
            if expended {
                notes.push("EXPENDED".to_owned());
            }
            if !legal.is_empty() {
                let numbers: Vec<String> = legal.iter().map(usize::to_string).collect();
                let word = if legal.len() == 1 {
                    "target"
                } else {
                    "targets"
                };
                notes.push(format!("{word} {}", numbers.join(", ")));
            } else if standard && !expended {
                notes.push("no legal target now".to_owned());
            }
            let notes = if notes.is_empty() {
                String::new()
            } else {
                format!(" [{}]", notes.join(", "))
            };
            out.push_str(&format!(
                "  {}. {:id_w$}  {:name_w$}  {} vs {}, up to {} target{}{notes}\n",
                i + 1,
                a.id,
                a.name,
                a.range,
                defense_name(a.vs),
                a.max_targets,
                if a.max_targets == 1 { "" } else { "s" }
            ));
        }
    }
    if menu.targets.is_empty() {
        out.push_str("No legal target now.\n");
    } else {
        out.push_str("Targets:\n");
        let id_w = menu
            .targets
            .iter()
            .map(|t| t.id.as_str().len())
            .max()
            .unwrap_or(0);
        for (i, t) in menu.targets.iter().enumerate() {
            let extra = state
                .combatant(&t.id)
                .map(|c| {
                    let mut bits = Vec::new();
                    if let (Some(hp), Some(max)) = (c.hp, c.max_hp) {
                        bits.push(format!("{hp}/{max} hp"));
                    }
                    if c.staggered {
                        bits.push("staggered".to_owned());
                    }
                    if me.engaged_with.contains(&c.id) {
                        bits.push("engaged with you".to_owned());
                    }
                    if c.far_away {
                        bits.push("far away".to_owned());
                    }
                    if bits.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", bits.join(", "))
                    }
                })
                .unwrap_or_default();
            out.push_str(&format!(
                "  {}. {:id_w$}  {}{extra}\n",
                i + 1,
                t.id.as_str(),
                t.name
            ));
        }
    }
    // The verbs to type, as this session's ruleset names them.
    let has = |verb: &str| crate::help::has_verb(&state.ruleset, verb);
    let mut also = Vec::new();
    if me.actions.payer(ActionKind::Move).is_some() {
        for (verb, hint) in [
            ("move", "move TARGET (engage)"),
            ("walk", "walk X,Y..."),
            ("bx-move", "bx-move FEET"),
        ] {
            if has(verb) {
                also.push(hint);
            }
        }
        if !me.engaged_with.is_empty() && has("disengage") {
            also.push("disengage");
        }
    }
    if me.ftd.is_some() {
        if me.actions == fray_protocol::state::ActionsLeft::FULL {
            also.push("retreat");
            also.push("delay-to WHO");
        }
        if standard {
            also.push("stabilize ALLY");
        }
    } else if standard && me.side == fray_protocol::Side::Heroes && has("rally") {
        also.push("rally");
    }
    also.push("end");
    // An example the server would take: the first attack that has a legal target.
    let example = menu
        .attacks
        .iter()
        .zip(&legal)
        .enumerate()
        .find_map(|(i, (a, legal))| {
            let t = *legal.first()?;
            let target = &menu.targets.get(t - 1)?.id;
            Some(format!(
                " — e.g. `attack {} {target}` or `a {} {t}`",
                a.id,
                i + 1
            ))
        })
        .unwrap_or_default();
    out.push_str(&format!("Also: {}{example}\n", also.join(", ")));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fray_protocol::command::AttackMode;

    fn opportunity(by: &str, on: &str) -> LegalAction {
        LegalAction {
            group: "Spear (opportunity attack)".into(),
            ..attack_on(by, "spear", on, AttackMode::Opportunity)
        }
    }

    fn session_command() -> LegalAction {
        LegalAction {
            actor: None,
            group: "End battle".into(),
            label: String::new(),
            command: Command::EndBattle,
        }
    }

    /// A hero's menu at the start of its turn, in the final state of a recorded fight.
    fn menu_of(golden: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../replays")
            .join(golden);
        let fight = fray_server::replay::read_log(&path).expect("the golden reads");
        let mut state = fray_server::replay::fold(&fight).expect("folds").state;
        let me = state
            .combatants
            .iter_mut()
            .find(|c| c.side == fray_protocol::Side::Heroes && c.status.is_up())
            .expect("a hero standing");
        me.actions = fray_protocol::state::ActionsLeft::FULL;
        let me = me.clone();
        render_menu(&state, &me, &[])
    }

    /// A listed attack of `by` on `on`, grouped under the attack's id.
    fn attack_on(by: &str, attack: &str, on: &str, mode: AttackMode) -> LegalAction {
        LegalAction {
            actor: Some(CombatantId::new(by)),
            group: attack.into(),
            label: on.into(),
            command: Command::Attack {
                actor: CombatantId::new(by),
                attack: attack.into(),
                targets: vec![CombatantId::new(on)],
                mode,
                knock_out: false,
                forced: Vec::new(),
                weapon: None,
                secondary_target: None,
            },
        }
    }

    #[test]
    fn the_menu_numbers_the_targets_of_the_legal_actions_and_says_which_each_attack_may_hit() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../replays/13th-age/crypt-of-ash-seed-0");
        let fight = fray_server::replay::read_log(&path).expect("the golden reads");
        let state = fray_server::replay::fold(&fight).expect("folds").state;
        let me = state
            .combatants
            .iter()
            .find(|c| c.side == fray_protocol::Side::Heroes && c.attacks.len() >= 2)
            .expect("a hero with two attacks")
            .clone();
        let foes: Vec<&CombatantState> = state
            .combatants
            .iter()
            .filter(|c| c.side != me.side)
            .collect();
        assert!(foes.len() >= 2, "two foes in the golden");
        let (melee, ranged) = (&me.attacks[0].id, &me.attacks[1].id);
        let mut me = me.clone();
        me.actions = fray_protocol::state::ActionsLeft::FULL;
        me.expended.clear();
        // The first attack may hit the second foe only; the second attack both, first foe first.
        let standard = AttackMode::Standard;
        let actions = vec![
            attack_on(me.id.as_str(), melee, foes[1].id.as_str(), standard),
            attack_on(me.id.as_str(), ranged, foes[0].id.as_str(), standard),
            attack_on(me.id.as_str(), ranged, foes[1].id.as_str(), standard),
        ];
        let menu = render_menu(&state, &me, &actions);
        let targets = menu.split("Targets:").nth(1).expect("a target list");
        assert!(
            targets.contains(&format!("1. {}", foes[1].id))
                && targets.contains(&format!("2. {}", foes[0].id)),
            "{menu}"
        );
        assert!(!targets.contains("3. "), "only the offered targets: {menu}");
        assert!(line_of(&menu, melee).contains("[target 1]"), "{menu}");
        assert!(line_of(&menu, ranged).contains("targets 1, 2]"), "{menu}");
        assert!(
            menu.contains(&format!("e.g. `attack {melee} {}` or `a 1 1`", foes[1].id)),
            "{menu}"
        );
        // With no legal actions, no target is offered and the attacks say so.
        let bare = render_menu(&state, &me, &[]);
        assert!(bare.contains("No legal target now."), "{bare}");
        assert!(
            line_of(&bare, melee).contains("no legal target now"),
            "{bare}"
        );
    }

    /// The menu's line of an attack.
    fn line_of(menu: &str, attack: &str) -> String {
        menu.lines()
            .find(|l| l.contains(&format!(". {attack} ")))
            .unwrap_or_else(|| panic!("{attack} in {menu}"))
            .to_owned()
    }

    #[test]
    fn the_menu_hints_the_verbs_of_the_session_ruleset() {
        let orcus = menu_of("orcus/bridge-of-bones-seed-13");
        assert!(orcus.contains("walk X,Y"), "{orcus}");
        assert!(!orcus.contains("move TARGET"), "{orcus}");
        let age = menu_of("13th-age/crypt-of-ash-seed-0");
        assert!(age.contains("move TARGET (engage)"), "{age}");
        assert!(age.contains("rally"), "{age}");
        assert!(!age.contains("walk X,Y"), "{age}");
    }

    #[test]
    fn an_opened_opportunity_attack_is_announced_once_with_its_number() {
        let mut game = Game::new(Role::Gm, 0, line_editor::Words::default(), false);
        assert!(game.legal_actions(vec![session_command()]).is_empty());
        let prompts =
            game.legal_actions(vec![session_command(), opportunity("goblin-1", "brakka")]);
        assert_eq!(
            prompts,
            vec!["Out of turn, goblin-1 may now: Spear (opportunity attack): brakka (`do 2`)"]
        );
        // Still open at the next update: not announced again.
        assert!(
            game.legal_actions(vec![session_command(), opportunity("goblin-1", "brakka")])
                .is_empty()
        );
        // And `do 2` takes it.
        match game.on_line("do 2") {
            LineOutcome::Send(Command::Attack { mode, .. }) => {
                assert_eq!(mode, AttackMode::Opportunity)
            }
            _ => panic!("`do 2` sends the opportunity attack"),
        }
    }
}
