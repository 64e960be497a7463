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
