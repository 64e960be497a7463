//! The GM's tools over real sockets: a rewind after a misclick that every client sees (their
//! views from patches come back to the earlier state) while the fight goes on; chat lines,
//! whispers, notes and free rolls reaching exactly their readers on every socket (JSON and
//! bincode) and in the public export; talk's rate limit.

use anyhow::{Result, bail};
use fray_protocol::codec::Encoding;
use fray_protocol::talk::{ChatTo, RollVisibility, Seat};
use fray_protocol::{ClientMessage, Command, ErrorCode, GameEvent, ServerMessage};
use fray_server::demo::client::Client;
use fray_tests::{TestServer, create_session};
use serde_json::Value;
use std::time::Duration;

const T: Duration = Duration::from_secs(10);

/// A connection that keeps the events it was sent and its view from the patches.
struct Conn {
    c: Client,
    events: Vec<(u64, GameEvent)>,
    view: Value,
    view_seq: u64,
}

async fn recv(c: &mut Client) -> Result<ServerMessage> {
    Ok(tokio::time::timeout(T, c.recv()).await??)
}

impl Conn {
    async fn join(url: &str, token: &str, enc: Encoding) -> Result<Conn> {
        let mut c = Client::connect(url, enc).await?;
        c.hello(token, None).await?;
        c.send(&ClientMessage::Watch {
            views: true,
            legal_actions: false,
        })
        .await?;
        let mut s = Conn {
            c,
            events: Vec::new(),
            view: Value::Null,
            view_seq: u64::MAX,
        };
        // The hello's snapshot, then watch's.
        let mut snapshots = 0;
        while snapshots < 2 {
            if let ServerMessage::Snapshot { .. } = s.read().await? {
                snapshots += 1;
            }
        }
        Ok(s)
    }

    async fn read(&mut self) -> Result<ServerMessage> {
        let m = recv(&mut self.c).await?;
        match &m {
            ServerMessage::Event { seq, event, .. } => self.events.push((*seq, event.clone())),
            ServerMessage::Snapshot { seq, state } => {
                self.view = serde_json::to_value(state)?;
                self.view_seq = *seq;
            }
            ServerMessage::ViewPatch { seq, patch, .. } => {
                patch.apply(&mut self.view)?;
                self.view_seq = *seq;
            }
            _ => {}
        }
        Ok(m)
    }

    /// Sends a command; the answer (`Ok(last_seq)` or the refusal's code).
    async fn send(&mut self, id: u64, command: Command) -> Result<Result<u64, ErrorCode>> {
        self.c.send(&ClientMessage::Command { id, command }).await?;
        loop {
            match self.read().await? {
                ServerMessage::Accepted {
                    command_id,
                    last_seq,
                    ..
                } if command_id == id => return Ok(Ok(last_seq)),
                ServerMessage::Rejected {
                    command_id, code, ..
                } if command_id == id => return Ok(Err(code)),
                _ => {}
            }
        }
    }

    /// Sends a command that must be accepted; its last event's seq.
    async fn ok(&mut self, id: u64, command: Command) -> Result<u64> {
        match self.send(id, command).await? {
            Ok(seq) => Ok(seq),
            Err(code) => bail!("command {id} refused: {code}"),
        }
    }

    async fn catch_up(&mut self, seq: u64) -> Result<()> {
        while self.view_seq != seq {
            self.read().await?;
        }
        Ok(())
    }

    /// A fresh snapshot of this seat's view.
    async fn fresh(&mut self) -> Result<Value> {
        self.c.send(&ClientMessage::GetSnapshot).await?;
        loop {
            let m = recv(&mut self.c).await?;
            if let ServerMessage::Snapshot { state, .. } = m {
                return Ok(serde_json::to_value(state)?);
            }
        }
    }

    fn event(&self, seq: u64) -> Option<&GameEvent> {
        self.events.iter().find(|(s, _)| *s == seq).map(|(_, e)| e)
    }
}

struct Table {
    server: TestServer,
    id: String,
    gm: Conn,
    alice: Conn,
    bob: Conn,
    spectator: Conn,
    names: (String, String),
    gm_token: String,
    spectator_token: String,
    bob_token: String,
}

async fn table(seed: u64) -> Result<Table> {
    let server = TestServer::start().await?;
    let created = create_session(server.addr, "goblin-ambush", seed).await?;
    let url = server.ws_url();
    let s = |p: &str| {
        created
            .pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    Ok(Table {
        id: s("/session"),
        gm: Conn::join(&url, &s("/tokens/gm"), Encoding::Json).await?,
        alice: Conn::join(&url, &s("/tokens/players/0/token"), Encoding::Json).await?,
        bob: Conn::join(&url, &s("/tokens/players/1/token"), Encoding::Json).await?,
        spectator: Conn::join(&url, &s("/tokens/spectator"), Encoding::Bincode).await?,
        names: (s("/tokens/players/0/name"), s("/tokens/players/1/name")),
        gm_token: s("/tokens/gm"),
        spectator_token: s("/tokens/spectator"),
        bob_token: s("/tokens/players/1/token"),
        server,
    })
}

impl Table {
    /// The session's log as this token's audience gets it (`GET /sessions/{id}/log`).
    async fn log(&self, token: &str) -> Result<String> {
        let (status, log) = fray_server::demo::client::http_as(
            self.server.addr,
            "GET",
            &format!("/sessions/{}/log", self.id),
            "",
            Some(token),
        )
        .await?;
        if status != 200 {
            bail!("the log: {status} {log}");
        }
        Ok(log)
    }
}

/// The GM's current combatant's end of turn (always legal on its turn).
fn end_turn(view: &Value) -> Result<Command> {
    let Some(actor) = view["current"].as_str() else {
        bail!("no current combatant: {view}")
    };
    Ok(Command::EndTurn {
        actor: fray_protocol::CombatantId::new(actor),
    })
}

#[tokio::test]
async fn a_rewind_after_a_misclick_reaches_every_client_and_the_fight_goes_on() -> Result<()> {
    let mut t = table(5).await?;
    let mut marks = vec![t.gm.ok(1, Command::StartBattle).await?];
    for id in 2..=5 {
        let cmd = end_turn(&t.gm.view)?;
        marks.push(t.gm.ok(id, cmd).await?);
    }
    // The state three ticks back, as each audience saw it then: its view at that seq.
    let back = marks[1];
    let before = {
        let mut spectator_view = None;
        let mut alice_view = None;
        for (w, out) in [
            (&mut t.spectator, &mut spectator_view),
            (&mut t.alice, &mut alice_view),
        ] {
            w.catch_up(back).await?;
            *out = Some(w.view.clone());
        }
        (alice_view, spectator_view)
    };
    let rewound = t.gm.ok(6, Command::RewindTo { seq: back }).await?;
    for w in [&mut t.alice, &mut t.bob, &mut t.spectator] {
        w.catch_up(rewound).await?;
        match w.event(rewound) {
            Some(GameEvent::Rewound { to_seq, .. }) => assert_eq!(*to_seq, back),
            other => bail!("no rewound event at {rewound}: {other:?}"),
        }
        assert_eq!(w.fresh().await?, w.view, "the view from patches is current");
    }
    let strip = |v: &Option<Value>| v.clone().unwrap_or(Value::Null);
    assert_eq!(t.alice.view, strip(&before.0), "alice is back three ticks");
    assert_eq!(t.spectator.view, strip(&before.1), "the spectator too");
    // A player may not rewind; the fight goes on from the earlier state.
    assert_eq!(
        t.alice.send(1, Command::RewindTo { seq: 0 }).await?,
        Err(ErrorCode::GmOnly)
    );
    for id in 7..=9 {
        let cmd = end_turn(&t.gm.view)?;
        t.gm.ok(id, cmd).await?;
    }
    // The GM's log verifies with the rewind in it.
    let log = t.log(&t.gm_token).await?;
    let fight = fray_server::replay::log_lines::read(&log)?;
    let report = fray_server::replay::verify(&fight)?;
    assert!(report.commands >= 9);
    t.server.stop().await;
    Ok(())
}

/// What one connection got of the line or roll at `seq`.
fn chat_text(w: &Conn, seq: u64) -> Option<String> {
    match w.event(seq) {
        Some(GameEvent::Chatted { text, .. }) => text.clone(),
        other => panic!("no chat line at {seq}: {other:?}"),
    }
}

fn roll_seen(w: &Conn, seq: u64) -> bool {
    match w.event(seq) {
        Some(GameEvent::FreeRolled { roll, .. }) => roll.is_some(),
        other => panic!("no free roll at {seq}: {other:?}"),
    }
}

async fn everyone_at(t: &mut Table, seq: u64) -> Result<()> {
    for w in [&mut t.gm, &mut t.alice, &mut t.bob, &mut t.spectator] {
        w.catch_up(seq).await?;
    }
    Ok(())
}

fn chat(text: &str, to: ChatTo) -> Command {
    Command::Chat {
        text: text.into(),
        to,
    }
}

fn roll(visibility: RollVisibility) -> Command {
    Command::FreeRoll {
        dice: "3d6".into(),
        label: None,
        visibility,
    }
}

#[tokio::test]
async fn chat_whispers_notes_and_rolls_reach_exactly_their_readers() -> Result<()> {
    let mut t = table(9).await?;
    let (alice, bob) = t.names.clone();
    let table_line = t.alice.ok(1, chat("hello table", ChatTo::Table)).await?;
    let whisper = t
        .alice
        .ok(2, chat("psst bob", ChatTo::Player(bob.clone())))
        .await?;
    let to_gm = t.bob.ok(1, chat("for the GM", ChatTo::Gm)).await?;
    let note = t.gm.ok(1, chat("GM note", ChatTo::Gm)).await?;
    let public_roll = t.bob.ok(2, roll(RollVisibility::Public)).await?;
    let gm_roll = t.alice.ok(3, roll(RollVisibility::Gm)).await?;
    let blind = t.alice.ok(4, roll(RollVisibility::Blind)).await?;
    everyone_at(&mut t, blind).await?;
    let text = Some;
    // The table's line: everyone.
    for w in [&t.gm, &t.alice, &t.bob, &t.spectator] {
        assert_eq!(chat_text(w, table_line), text("hello table".into()));
        assert!(roll_seen(w, public_roll));
    }
    // The whisper: alice, bob and the GM; not the spectator.
    for w in [&t.gm, &t.alice, &t.bob] {
        assert_eq!(chat_text(w, whisper), text("psst bob".into()));
    }
    assert_eq!(chat_text(&t.spectator, whisper), None);
    // bob's line to the GM: bob and the GM.
    assert_eq!(chat_text(&t.gm, to_gm), text("for the GM".into()));
    assert_eq!(chat_text(&t.bob, to_gm), text("for the GM".into()));
    assert_eq!(chat_text(&t.alice, to_gm), None);
    assert_eq!(chat_text(&t.spectator, to_gm), None);
    // The GM's note: the GM only.
    assert_eq!(chat_text(&t.gm, note), text("GM note".into()));
    for w in [&t.alice, &t.bob, &t.spectator] {
        assert_eq!(chat_text(w, note), None);
    }
    // alice's GM roll: alice and the GM; her blind roll: the GM only.
    assert!(roll_seen(&t.gm, gm_roll) && roll_seen(&t.alice, gm_roll));
    assert!(!roll_seen(&t.bob, gm_roll) && !roll_seen(&t.spectator, gm_roll));
    assert!(roll_seen(&t.gm, blind));
    for w in [&t.alice, &t.bob, &t.spectator] {
        assert!(!roll_seen(w, blind));
    }
    let Some(GameEvent::Chatted { from, .. }) = t.bob.event(whisper) else {
        bail!("the whisper")
    };
    assert_eq!(*from, Seat::Player(alice));
    // The public export: the table's line and the public roll, no private text or result.
    let public = t.log(&t.spectator_token).await?;
    assert!(public.contains("hello table"));
    for secret in ["psst bob", "for the GM", "GM note"] {
        assert!(!public.contains(secret), "{secret} is in the public log");
    }
    let rolls: Vec<Value> = public
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|l| l.pointer("/events/events/0/free_rolled").cloned())
        .collect();
    assert_eq!(rolls.len(), 3);
    for r in &rolls {
        assert_eq!(r["roll"].is_null(), r["visibility"] != "public", "{r}");
    }
    // Spectators may not talk.
    assert_eq!(
        t.spectator.send(1, chat("hi", ChatTo::Table)).await?,
        Err(ErrorCode::SpectatorCannotCommand)
    );
    t.server.stop().await;
    Ok(())
}

#[tokio::test]
async fn talk_beyond_its_rate_is_refused_and_not_logged() -> Result<()> {
    let limits = fray_server::net::limits::Limits {
        talk_per_minute: 1,
        talk_burst: 3,
        ..Default::default()
    };
    let server = TestServer::start_with(limits).await?;
    let created = create_session(server.addr, "goblin-ambush", 3).await?;
    let token = created
        .pointer("/tokens/players/0/token")
        .and_then(Value::as_str)
        .unwrap_or("");
    let mut alice = Conn::join(&server.ws_url(), token, Encoding::Json).await?;
    for id in 1..=3 {
        alice.ok(id, chat("hi", ChatTo::Table)).await?;
    }
    assert_eq!(
        alice.send(4, chat("hi", ChatTo::Table)).await?,
        Err(ErrorCode::RateLimited)
    );
    assert_eq!(
        alice.send(5, roll(RollVisibility::Public)).await?,
        Err(ErrorCode::RateLimited)
    );
    // Other commands are not talk: still answered as before (here: not hers to send).
    assert_eq!(
        alice.send(6, Command::StartBattle).await?,
        Err(ErrorCode::GmOnly)
    );
    let logged = alice
        .events
        .iter()
        .filter(|(_, e)| matches!(e, GameEvent::Chatted { .. } | GameEvent::FreeRolled { .. }))
        .count();
    assert_eq!(logged, 3, "the refused lines and roll were not logged");
    server.stop().await;
    Ok(())
}

fn phase(view: &Value) -> &str {
    view["phase"].as_str().unwrap_or("")
}

/// Whether the combatant whose turn it is belongs to `side`.
fn current_side(view: &Value) -> Option<&str> {
    let current = view["current"].as_str()?;
    view["combatants"]
        .as_array()?
        .iter()
        .find(|c| c["id"] == current)
        .and_then(|c| c["side"].as_str())
}

fn hand(side: fray_protocol::Side) -> Command {
    Command::AutoPlay {
        combatants: Vec::new(),
        side: Some(side),
        on: true,
    }
}

#[tokio::test]
async fn the_server_plays_the_monsters_while_the_gm_plays_the_heroes_to_the_end() -> Result<()> {
    let mut t = table(17).await?;
    t.gm.ok(1, hand(fray_protocol::Side::Monsters)).await?;
    t.gm.ok(2, Command::StartBattle).await?;
    let mut id = 3;
    while phase(&t.gm.view) != "ended" {
        if current_side(&t.gm.view) == Some("heroes") {
            let cmd = end_turn(&t.gm.view)?;
            t.gm.ok(id, cmd).await?;
            id += 1;
        } else {
            // A monster's turn: the server plays it; wait for what it does.
            t.gm.read().await?;
        }
        assert!(id < 500, "the fight does not end");
    }
    // The GM sent only end-of-turns for heroes: every attack was the server's, by a monster.
    let attacks: Vec<String> =
        t.gm.events
            .iter()
            .filter_map(|(_, e)| match e {
                GameEvent::AttackRolled { attacker, .. } => Some(attacker.to_string()),
                _ => None,
            })
            .collect();
    assert!(attacks.len() > 3, "{attacks:?}");
    assert!(
        attacks.iter().all(|a| a.starts_with("goblin")),
        "{attacks:?}"
    );
    // Every command in the log is the GM's or the server's own (`auto`), and it verifies.
    let log = t.log(&t.gm_token).await?;
    let fight = fray_server::replay::log_lines::read(&log)?;
    fray_server::replay::verify(&fight)?;
    assert!(
        log.contains("\"client\":\"auto\""),
        "the server's commands are marked auto"
    );
    t.server.stop().await;
    Ok(())
}

#[tokio::test]
async fn a_gm_lets_the_server_play_a_whole_fight() -> Result<()> {
    let mut t = table(29).await?;
    t.gm.ok(1, hand(fray_protocol::Side::Monsters)).await?;
    t.gm.ok(2, hand(fray_protocol::Side::Heroes)).await?;
    t.gm.ok(3, Command::StartBattle).await?;
    while phase(&t.spectator.view) != "ended" {
        t.spectator.read().await?;
    }
    assert_eq!(t.spectator.fresh().await?, t.spectator.view);
    // A spectator joining now gets the events with their ticks, and tells the server's own
    // commands from the public log, whose command lines name the client `auto`.
    let url = t.server.ws_url();
    let late = Conn::join(&url, &t.spectator_token, Encoding::Json).await?;
    assert_eq!(late.view, t.spectator.view);
    let public = t.log(&t.spectator_token).await?;
    let auto_ticks: Vec<u64> = public
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|l| l["command"]["client"] == "auto")
        .filter_map(|l| l["command"]["tick"].as_u64())
        .collect();
    assert!(auto_ticks.len() > 5, "{auto_ticks:?}");
    let events = t.spectator.events.len();
    assert!(events > auto_ticks.len());
    t.server.stop().await;
    Ok(())
}

/// The first error a connection gets (reading past everything else).
async fn error_code(c: &mut Client) -> Result<ErrorCode> {
    loop {
        if let ServerMessage::Error { code, .. } = recv(c).await? {
            return Ok(code);
        }
    }
}

#[tokio::test]
async fn the_gm_hands_a_combatant_to_a_seat_and_reissues_a_lost_token() -> Result<()> {
    let mut t = table(41).await?;
    let (alice, bob) = t.names.clone();
    let goblin = fray_protocol::CombatantId::new("goblin-archer-1");
    let for_goblin = || Command::Stabilize {
        actor: goblin.clone(),
        target: fray_protocol::CombatantId::new("brakka"),
    };
    // Not alice's: refused by authorization.
    assert_eq!(
        t.alice.send(1, for_goblin()).await?,
        Err(ErrorCode::NotYourCombatant)
    );
    let give = Command::AssignCombatant {
        combatant: goblin.clone(),
        seat: Some(alice.clone()),
    };
    let given = t.gm.ok(1, give).await?;
    t.alice.catch_up(given).await?;
    // Now hers: authorized, and refused only by the rules (the battle has not started).
    assert_eq!(
        t.alice.send(2, for_goblin()).await?,
        Err(ErrorCode::BattleNotStarted)
    );
    let back = Command::AssignCombatant {
        combatant: goblin.clone(),
        seat: None,
    };
    t.gm.ok(2, back).await?;
    assert_eq!(
        t.alice.send(3, for_goblin()).await?,
        Err(ErrorCode::NotYourCombatant)
    );
    // The GM corrects a monster's hit points: the spectator sees the change, not the total.
    let set =
        t.gm.ok(
            5,
            Command::SetHp {
                target: goblin.clone(),
                hp: 5,
                temp_hp: None,
            },
        )
        .await?;
    t.spectator.catch_up(set).await?;
    match (t.gm.event(set), t.spectator.event(set)) {
        (
            Some(GameEvent::HpOverridden {
                hp_after: Some(5), ..
            }),
            Some(GameEvent::HpOverridden { hp_after: None, .. }),
        ) => {}
        other => bail!("the override as each audience sees it: {other:?}"),
    }
    // Players may do none of the GM's overrides.
    for c in [
        Command::SetHp {
            target: goblin.clone(),
            hp: 1,
            temp_hp: None,
        },
        Command::RewindTo { seq: 0 },
        hand(fray_protocol::Side::Monsters),
        Command::ReissueToken { seat: bob.clone() },
        Command::AssignCombatant {
            combatant: goblin.clone(),
            seat: Some(alice.clone()),
        },
    ] {
        assert_eq!(t.alice.send(4, c).await?, Err(ErrorCode::GmOnly));
    }
    // bob lost his link: a new token; his connection is closed, the old token refused.
    let old = t.bob_token.clone();
    let reissued =
        t.gm.ok(3, Command::ReissueToken { seat: bob.clone() })
            .await?;
    let new = match t.gm.event(reissued) {
        Some(GameEvent::TokenReissued {
            token: Some(token), ..
        }) => token.clone(),
        other => bail!("the GM gets the new token: {other:?}"),
    };
    assert_eq!(error_code(&mut t.bob.c).await?, ErrorCode::TokenRevoked);
    t.alice.catch_up(reissued).await?;
    assert_eq!(
        t.alice.event(reissued),
        Some(&GameEvent::TokenReissued {
            seat: bob.clone(),
            token: None
        }),
        "the other players see that it happened, not the token"
    );
    let url = t.server.ws_url();
    let mut again = Client::connect(&url, Encoding::Json).await?;
    again.hello(&old, None).await?;
    assert_eq!(error_code(&mut again).await?, ErrorCode::TokenRevoked);
    let mut bob_again = Client::connect(&url, Encoding::Json).await?;
    bob_again.hello(&new, None).await?;
    match recv(&mut bob_again).await? {
        ServerMessage::Welcome {
            role: fray_protocol::Role::Player { name, .. },
            ..
        } => assert_eq!(name, bob),
        other => bail!("bob is welcomed back: {other:?}"),
    }
    t.server.stop().await;
    Ok(())
}

/// The seq of the `combatant_added` event among a connection's events, and the new id.
fn added(w: &Conn) -> Option<(u64, fray_protocol::CombatantId)> {
    w.events.iter().find_map(|(s, e)| match e {
        GameEvent::CombatantAdded { combatant, .. } => Some((*s, combatant.clone())),
        _ => None,
    })
}

#[tokio::test]
async fn the_gm_sets_hp_and_a_reinforcement_takes_its_turn_in_the_right_place() -> Result<()> {
    let mut t = table(11).await?;
    t.gm.ok(1, Command::StartBattle).await?;
    let hero = fray_protocol::CombatantId::new(
        t.gm.view["combatants"]
            .as_array()
            .and_then(|cs| cs.iter().find(|c| c["side"] == "heroes"))
            .and_then(|c| c["id"].as_str())
            .unwrap_or(""),
    );
    t.gm.ok(
        2,
        Command::SetHp {
            target: hero.clone(),
            hp: 7,
            temp_hp: None,
        },
    )
    .await?;
    let template = t.gm.view["combatants"]
        .as_array()
        .and_then(|cs| cs.iter().find(|c| c["side"] == "monsters"))
        .and_then(|c| c["template"].as_str())
        .unwrap_or("")
        .to_string();
    let reinforce = Command::AddCombatant {
        template: template.clone(),
        square: None,
    };
    // Players and spectators may not.
    assert_eq!(
        t.alice.send(1, reinforce.clone()).await?,
        Err(ErrorCode::GmOnly)
    );
    for c in [
        Command::RemoveCombatant {
            combatant: hero.clone(),
        },
        Command::SetInitiative {
            combatant: hero.clone(),
            initiative: 30,
        },
        Command::AddCondition {
            target: hero.clone(),
            condition: "dazed".into(),
            duration: None,
            source: None,
        },
    ] {
        assert_eq!(t.alice.send(2, c).await?, Err(ErrorCode::GmOnly));
    }
    assert_eq!(
        t.spectator.send(1, reinforce.clone()).await?,
        Err(ErrorCode::SpectatorCannotCommand)
    );
    let joined = t.gm.ok(3, reinforce).await?;
    let Some((seq, id)) = added(&t.gm) else {
        bail!("no combatant_added")
    };
    assert!(seq <= joined);
    // Everyone sees the override, marked, and the new combatant in the order.
    for w in [&mut t.alice, &mut t.spectator] {
        w.catch_up(joined).await?;
        assert!(
            matches!(w.event(seq - 1), Some(GameEvent::GmOverride { command, .. }) if command == "add_combatant")
        );
        assert_eq!(added(w).map(|a| a.1), Some(id.clone()));
        assert_eq!(w.fresh().await?, w.view, "the view from patches is current");
    }
    let order: Vec<String> = t.gm.view["order"]
        .as_array()
        .map(|o| {
            o.iter()
                .filter_map(|c| c.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let at = order
        .iter()
        .position(|c| *c == id.as_str())
        .ok_or_else(|| anyhow::anyhow!("{id} not in the order {order:?}"))?;
    // The turns go round until the reinforcement's: the turn before it is its predecessor's
    // in the order (every combatant stands at this point of the fight).
    let mut before = t.gm.view["current"].as_str().unwrap_or("").to_string();
    let mut next_id = 10;
    while t.gm.view["current"].as_str() != Some(id.as_str()) {
        before = t.gm.view["current"].as_str().unwrap_or("").to_string();
        let cmd = end_turn(&t.gm.view)?;
        t.gm.ok(next_id, cmd).await?;
        next_id += 1;
        if next_id > 40 {
            bail!("{id} never acted");
        }
    }
    let expected = if at == 0 {
        order.last()
    } else {
        order.get(at - 1)
    };
    assert_eq!(Some(&before), expected, "{order:?}");
    t.gm.ok(next_id, end_turn(&t.gm.view)?).await?;
    // The GM removes every monster: the battle, and this one-battle session, end.
    let monsters: Vec<String> = t.gm.view["combatants"]
        .as_array()
        .map(|cs| {
            cs.iter()
                .filter(|c| c["side"] == "monsters")
                .filter_map(|c| c["id"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let mut last = 0;
    for (i, m) in monsters.into_iter().enumerate() {
        let remove = Command::RemoveCombatant {
            combatant: fray_protocol::CombatantId::new(m),
        };
        last = t.gm.ok(100 + i as u64, remove).await?;
    }
    assert_eq!(phase(&t.gm.view), "ended");
    assert_eq!(
        t.gm.view["seed_revealed"], true,
        "a one-battle session is over"
    );
    t.spectator.catch_up(last).await?;
    assert_eq!(t.spectator.fresh().await?, t.spectator.view);
    // The GM's log and the public one verify.
    let log = t.log(&t.gm_token).await?;
    let fight = fray_server::replay::log_lines::read(&log)?;
    fray_server::replay::verify(&fight)?;
    let public = t.log(&t.spectator_token).await?;
    let fight = fray_server::replay::log_lines::read(&public)?;
    fray_server::replay::verify(&fight)?;
    t.server.stop().await;
    Ok(())
}

/// Who sent a command, for the done-when test's script.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Who {
    Gm,
    Alice,
    Bob,
}

impl Table {
    fn conn(&mut self, who: Who) -> &mut Conn {
        match who {
            Who::Gm => &mut self.gm,
            Who::Alice => &mut self.alice,
            Who::Bob => &mut self.bob,
        }
    }

    /// Sends an accepted command as `who` and brings every connection up to its last event.
    async fn play(&mut self, who: Who, id: u64, command: Command) -> Result<u64> {
        let seq = self.conn(who).ok(id, command).await?;
        everyone_at(self, seq).await?;
        Ok(seq)
    }
}

/// The seat whose combatant `id` is (in goblin-ambush: alice has brakka and sela, bob orin
/// and vex), or the GM's.
fn seat_of(id: &str) -> Who {
    match id {
        "brakka" | "sela" => Who::Alice,
        "orin" | "vex" => Who::Bob,
        _ => Who::Gm,
    }
}

/// Whether a tick's events (the log line's) roll an attack.
fn rolls_an_attack(line: &Value) -> bool {
    line["events"]["events"]
        .as_array()
        .is_some_and(|es| es.iter().any(|e| e.get("attack_rolled").is_some()))
}

// Issue 20, done when: over real sockets a GM sets hit points, adds a reinforcement that takes a
// turn in the right place of the initiative, a player misclicks, the GM rewinds three ticks and
// the fight goes on; players and spectators see each override and the rewind; verify accepts
// the log and rejects a copy whose post-rewind roll is the undone one.
#[tokio::test]
async fn overrides_a_reinforcement_a_misclick_and_a_rewind_reach_everyone_and_verify() -> Result<()>
{
    let mut t = table(23).await?;
    t.play(Who::Gm, 1, Command::StartBattle).await?;
    let hp = t
        .play(
            Who::Gm,
            2,
            Command::SetHp {
                target: fray_protocol::CombatantId::new("brakka"),
                hp: 7,
                temp_hp: None,
            },
        )
        .await?;
    let template = t.gm.view["combatants"]
        .as_array()
        .and_then(|cs| cs.iter().find(|c| c["side"] == "monsters"))
        .and_then(|c| c["template"].as_str())
        .unwrap_or("")
        .to_string();
    let reinforce = Command::AddCombatant {
        template,
        square: None,
    };
    let joined = t.play(Who::Gm, 3, reinforce).await?;
    let Some((added_at, newcomer)) = added(&t.gm) else {
        bail!("no combatant_added")
    };
    for w in [&t.alice, &t.bob, &t.spectator] {
        assert!(matches!(w.event(hp), Some(GameEvent::HpOverridden { .. })));
        assert!(
            matches!(w.event(added_at - 1), Some(GameEvent::GmOverride { command, .. }) if command == "add_combatant")
        );
        assert_eq!(added(w).map(|a| a.1), Some(newcomer.clone()));
        assert!(w.view_seq >= joined);
    }
    let order: Vec<String> = t.gm.view["order"]
        .as_array()
        .map(|o| {
            o.iter()
                .filter_map(|c| c.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let at = order
        .iter()
        .position(|c| *c == newcomer.as_str())
        .ok_or_else(|| anyhow::anyhow!("{newcomer} not in the order {order:?}"))?;
    let predecessor = if at == 0 {
        order.last()
    } else {
        order.get(at - 1)
    }
    .cloned();
    // Turns go round (everyone ends their turn) until the reinforcement has had its turn, right
    // after its predecessor, and then until one of alice's heroes is up.
    let mut script: Vec<(Who, Command, u64)> = Vec::new();
    let mut before = String::new();
    let mut newcomer_acted = false;
    let mut id = 10;
    loop {
        let current = t.gm.view["current"].as_str().unwrap_or("").to_string();
        if current == newcomer.as_str() {
            assert_eq!(Some(&before), predecessor.as_ref(), "{order:?}");
            newcomer_acted = true;
        } else if newcomer_acted && seat_of(&current) == Who::Alice {
            break;
        }
        let who = seat_of(&current);
        let cmd = end_turn(&t.gm.view)?;
        let seq = t.play(who, id, cmd.clone()).await?;
        script.push((who, cmd, seq));
        before = current;
        id += 1;
        if id > 60 {
            bail!("the turns never came round: {order:?}");
        }
    }
    // Alice misclicks: a legal attack she did not mean (the demo policy's choice for her hero),
    // until one rolls.
    let alice = fray_protocol::Role::Player {
        name: t.names.0.clone(),
        controls: vec![
            fray_protocol::CombatantId::new("brakka"),
            fray_protocol::CombatantId::new("sela"),
        ],
    };
    let misclick = loop {
        let state: fray_protocol::SessionState = serde_json::from_value(t.alice.view.clone())?;
        let Some(cmd) = fray_server::demo::bot::choose(&alice, &state, 0) else {
            bail!("alice has nothing to do")
        };
        let seq = t.play(Who::Alice, id, cmd.clone()).await?;
        id += 1;
        script.push((Who::Alice, cmd.clone(), seq));
        if matches!(cmd, Command::Attack { .. }) {
            break seq;
        }
    };
    let undone_roll = t.gm.events.iter().rev().find_map(|(s, e)| match e {
        GameEvent::AttackRolled { .. } if *s <= misclick => Some(e.clone()),
        _ => None,
    });
    assert!(undone_roll.is_some(), "the misclick rolled");
    // The GM rewinds three ticks: to the end of the tick before the last three.
    let n = script.len();
    let back = script[n - 4].2;
    let rewound = t.play(Who::Gm, id, Command::RewindTo { seq: back }).await?;
    id += 1;
    for w in [&mut t.alice, &mut t.bob, &mut t.spectator] {
        match w.event(rewound) {
            Some(GameEvent::Rewound { to_seq, .. }) => assert_eq!(*to_seq, back),
            other => bail!("no rewound event at {rewound}: {other:?}"),
        }
        assert_eq!(w.fresh().await?, w.view, "the view from patches is current");
    }
    // The fight goes on: the two undone ticks again, then alice's meant action, then more turns.
    for (who, cmd, _) in script[n - 3..n - 1].iter().cloned() {
        t.play(who, id, cmd).await?;
        id += 1;
    }
    let retried = t.play(Who::Alice, id, script[n - 1].1.clone()).await?;
    id += 1;
    for _ in 0..3 {
        if phase(&t.gm.view) != "running" {
            break;
        }
        let current = t.gm.view["current"].as_str().unwrap_or("").to_string();
        t.play(seat_of(&current), id, end_turn(&t.gm.view)?).await?;
        id += 1;
    }
    assert!(t.spectator.events.iter().any(|(s, _)| *s == retried));
    // The GM's downloaded log verifies; with the retried attack's events replaced by the undone
    // one's (the pre-rewind roll kept), it does not.
    let log = t.log(&t.gm_token).await?;
    let fight = fray_server::replay::log_lines::read(&log)?;
    fray_server::replay::verify(&fight)?;
    let mut lines: Vec<Value> = log
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()?;
    let rewind_line = lines
        .iter()
        .position(|l| l.to_string().contains("\"rewound\""))
        .ok_or_else(|| anyhow::anyhow!("no rewound line"))?;
    let undone = lines[..rewind_line]
        .iter()
        .rposition(rolls_an_attack)
        .ok_or_else(|| anyhow::anyhow!("no undone attack"))?;
    let retried_line = rewind_line
        + lines[rewind_line..]
            .iter()
            .position(rolls_an_attack)
            .ok_or_else(|| anyhow::anyhow!("no retried attack"))?;
    lines[retried_line]["events"]["events"] = lines[undone]["events"]["events"].clone();
    let forged: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let forged = fray_server::replay::log_lines::read(&forged)?;
    assert!(
        fray_server::replay::verify(&forged).is_err(),
        "a post-rewind roll replaced by the undone one is rejected"
    );
    t.server.stop().await;
    Ok(())
}

/// The templates of the genesis encounter's `reserves`, from the first line of a log.
fn reserves_of(log: &str) -> Result<Vec<String>> {
    let header: Value = serde_json::from_str(log.lines().next().unwrap_or(""))?;
    let Some(reserves) = header
        .pointer("/genesis/encounter/reserves")
        .and_then(Value::as_array)
    else {
        bail!("no genesis.encounter.reserves in {header}")
    };
    Ok(reserves
        .iter()
        .filter_map(|r| r["template"].as_str().map(String::from))
        .collect())
}

#[tokio::test]
async fn a_built_in_monster_outside_the_encounter_joins_over_sockets_and_the_log_verifies()
-> Result<()> {
    let mut t = table(29).await?;
    t.play(Who::Gm, 1, Command::StartBattle).await?;
    // The public log names the reserves: the built-in monsters goblin-ambush does not field.
    let reserves = reserves_of(&t.log(&t.spectator_token).await?)?;
    let fielded: Vec<&str> = t.gm.view["combatants"]
        .as_array()
        .map(|cs| cs.iter().filter_map(|c| c["template"].as_str()).collect())
        .unwrap_or_default();
    let Some(reserve) = reserves.iter().find(|r| !fielded.contains(&r.as_str())) else {
        bail!("no reserve outside {fielded:?}: {reserves:?}")
    };
    let reinforce = Command::AddCombatant {
        template: reserve.clone(),
        square: None,
    };
    assert_eq!(
        t.alice.send(3, reinforce.clone()).await?,
        Err(ErrorCode::GmOnly)
    );
    let joined = t.play(Who::Gm, 2, reinforce).await?;
    t.spectator.catch_up(joined).await?;
    let Some((_, id)) = added(&t.spectator) else {
        bail!("the spectator saw no combatant_added")
    };
    assert_eq!(id.as_str(), format!("{reserve}-1"));
    let newcomer = t.spectator.view["combatants"]
        .as_array()
        .and_then(|cs| cs.iter().find(|c| c["id"] == id.as_str()))
        .cloned()
        .unwrap_or(Value::Null);
    assert_eq!(newcomer["template"], reserve.as_str(), "{newcomer}");
    assert_eq!(newcomer["side"], "monsters", "{newcomer}");
    let in_order = t.gm.view["order"]
        .as_array()
        .is_some_and(|o| o.iter().any(|c| c == id.as_str()));
    assert!(in_order, "{id} joins the order: {}", t.gm.view["order"]);
    // A late spectator rebuilds it from the log, and the GM's log re-decides to the same events.
    let mut late = Conn::join(&t.server.ws_url(), &t.spectator_token, Encoding::Json).await?;
    assert_eq!(late.fresh().await?, t.spectator.view);
    let fight = fray_server::replay::log_lines::read(&t.log(&t.gm_token).await?)?;
    let report = fray_server::replay::verify(&fight)?;
    assert_eq!(report.commands, 2);
    // An unknown template is refused, naming the reserves among the valid ones.
    let wrong = Command::AddCombatant {
        template: "no-such-monster".into(),
        square: None,
    };
    t.gm.c
        .send(&ClientMessage::Command {
            id: 9,
            command: wrong,
        })
        .await?;
    loop {
        if let ServerMessage::Rejected { code, message, .. } = t.gm.read().await? {
            assert_eq!(code, ErrorCode::InvalidArgument);
            assert!(message.contains(reserve.as_str()), "{message}");
            break;
        }
    }
    t.server.stop().await;
    Ok(())
}
