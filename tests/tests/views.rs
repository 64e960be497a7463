//! Views and legal actions over real sockets: a GM, a player and a spectator (bincode) `watch`;
//! the GM plays a 13th Age fight to its end sending only commands from its legal actions, every
//! one accepted; each client keeps its view from the first snapshot and the patches alone, and
//! that view equals a fresh snapshot of its audience at every check; the player's actions name
//! only its own combatants and the spectator gets none.

use anyhow::{Result, bail};
use fray_protocol::codec::Encoding;
use fray_protocol::ids::Role;
use fray_protocol::state::Phase;
use fray_protocol::{ClientMessage, Command, LegalAction, ServerMessage, SessionState};
use fray_server::demo::client::Client;
use fray_tests::{TestServer, create_session};
use serde_json::Value;
use std::time::Duration;

const T: Duration = Duration::from_secs(10);

/// A client that keeps its view and legal actions from what the server sends, folding nothing.
struct Watcher {
    c: Client,
    role: Role,
    view: Value,
    view_seq: u64,
    actions: Vec<LegalAction>,
    actions_seq: Option<u64>,
    last_event: u64,
    patches: usize,
}

impl Watcher {
    async fn join(url: &str, token: &str, enc: Encoding, actions: bool) -> Result<Watcher> {
        let mut c = Client::connect(url, enc).await?;
        c.hello(token, None).await?;
        let ServerMessage::Welcome { role, seq, .. } = recv(&mut c).await? else {
            bail!("expected welcome")
        };
        // The snapshot `hello` sends, then `watch`'s own.
        let ServerMessage::Snapshot { .. } = recv(&mut c).await? else {
            bail!("expected the hello's snapshot")
        };
        c.send(&ClientMessage::Watch {
            views: true,
            legal_actions: actions,
        })
        .await?;
        let mut w = Watcher {
            c,
            role,
            view: Value::Null,
            view_seq: u64::MAX,
            actions: Vec::new(),
            actions_seq: None,
            last_event: seq,
            patches: 0,
        };
        while w.view_seq == u64::MAX || (actions && w.actions_seq != Some(seq)) {
            let m = recv(&mut w.c).await?;
            w.take(m)?;
        }
        Ok(w)
    }

    /// Keeps what a message tells; returns the message for the caller to look at.
    fn take(&mut self, m: ServerMessage) -> Result<ServerMessage> {
        match &m {
            ServerMessage::Snapshot { seq, state } => {
                self.view = serde_json::to_value(state)?;
                self.view_seq = *seq;
            }
            ServerMessage::ViewPatch {
                from_seq,
                seq,
                patch,
            } => {
                if *from_seq != self.view_seq {
                    bail!("a patch from {from_seq} for a view at {}", self.view_seq);
                }
                if *seq != self.last_event {
                    bail!("a patch to {seq} after event {}", self.last_event);
                }
                patch.apply(&mut self.view)?;
                self.view_seq = *seq;
                self.patches += 1;
            }
            ServerMessage::LegalActions { seq, actions } => {
                self.actions = actions.clone();
                self.actions_seq = Some(*seq);
            }
            ServerMessage::Event { seq, .. } => {
                if *seq != self.last_event + 1 {
                    bail!("event {seq} after {}", self.last_event);
                }
                self.last_event = *seq;
            }
            _ => {}
        }
        Ok(m)
    }

    /// Reads until the view is at `seq`.
    async fn catch_up(&mut self, seq: u64) -> Result<()> {
        while self.view_seq != seq {
            let m = recv(&mut self.c).await?;
            self.take(m)?;
        }
        Ok(())
    }

    /// A fresh snapshot of this client's audience, as JSON (the view is current first).
    async fn fresh(&mut self) -> Result<Value> {
        self.c.send(&ClientMessage::GetSnapshot).await?;
        loop {
            let m = recv(&mut self.c).await?;
            if let ServerMessage::Snapshot { state, .. } = &m {
                return Ok(serde_json::to_value(state)?);
            }
            self.take(m)?;
        }
    }

    /// Sends a command and reads up to its answer; the view and the actions are then current.
    async fn send(&mut self, id: u64, command: Command) -> Result<()> {
        self.c.send(&ClientMessage::Command { id, command }).await?;
        loop {
            let m = recv(&mut self.c).await?;
            match self.take(m)? {
                ServerMessage::Accepted { command_id, .. } if command_id == id => return Ok(()),
                ServerMessage::Rejected {
                    command_id,
                    code,
                    message,
                } if command_id == id => bail!("a listed action was refused: {code} {message}"),
                _ => {}
            }
        }
    }
}

async fn recv(c: &mut Client) -> Result<ServerMessage> {
    Ok(tokio::time::timeout(T, c.recv()).await??)
}

/// An attack when there is one, else starting the battle, else ending the turn.
fn pick(actions: &[LegalAction], salt: usize) -> Option<Command> {
    let attacks: Vec<&LegalAction> = actions
        .iter()
        .filter(|a| matches!(a.command, Command::Attack { .. }))
        .collect();
    if !attacks.is_empty() {
        return attacks.get(salt % attacks.len()).map(|a| a.command.clone());
    }
    [
        |c: &Command| matches!(c, Command::StartBattle),
        |c: &Command| matches!(c, Command::EndTurn { .. }),
    ]
    .iter()
    .find_map(|f| actions.iter().find(|a| f(&a.command)))
    .map(|a| a.command.clone())
}

fn view_state(v: &Value) -> Result<SessionState> {
    Ok(serde_json::from_value(v.clone())?)
}

#[tokio::test]
async fn watching_clients_keep_the_view_from_patches_and_the_gm_plays_from_legal_actions()
-> Result<()> {
    let server = TestServer::start().await?;
    let created = create_session(server.addr, "goblin-ambush", 23).await?;
    let url = server.ws_url();
    let token = |p: &str| {
        created
            .pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let mut gm = Watcher::join(&url, &token("/tokens/gm"), Encoding::Json, true).await?;
    let mut alice = Watcher::join(
        &url,
        &token("/tokens/players/0/token"),
        Encoding::Json,
        true,
    )
    .await?;
    let mut spectator =
        Watcher::join(&url, &token("/tokens/spectator"), Encoding::Bincode, true).await?;
    assert!(matches!(gm.role, Role::Gm));
    assert!(spectator.actions.is_empty(), "a spectator has no actions");
    let Role::Player { controls, .. } = alice.role.clone() else {
        bail!("alice is a player")
    };

    let mut sent = 0;
    while view_state(&gm.view)?.phase != Phase::Ended {
        let Some(cmd) = pick(&gm.actions, sent) else {
            bail!("no action to pick at {}: {:?}", gm.view_seq, gm.actions)
        };
        sent += 1;
        gm.send(sent as u64, cmd).await?;
        assert!(sent < 600, "the fight does not end");
        if sent % 40 == 0 {
            let fresh = gm.fresh().await?;
            assert_eq!(gm.view, fresh, "the GM's view after {sent} commands");
        }
    }
    let last = gm.last_event;
    assert_eq!(gm.fresh().await?, gm.view, "the GM's view at the end");
    for w in [&mut alice, &mut spectator] {
        w.catch_up(last).await?;
        assert!(w.patches > 10, "{} patches", w.patches);
        assert_eq!(w.fresh().await?, w.view, "{:?}'s view", w.role);
    }
    // The public view hides the monsters' hit points; the GM's has them.
    let public = view_state(&spectator.view)?;
    let full = view_state(&gm.view)?;
    let monsters = |s: &SessionState| {
        s.combatants
            .iter()
            .filter(|c| c.side == fray_protocol::Side::Monsters)
            .map(|c| c.hp)
            .collect::<Vec<_>>()
    };
    assert!(monsters(&public).iter().all(Option::is_none));
    assert!(monsters(&full).iter().all(Option::is_some));
    // The player was told its own actions only, along the way.
    assert!(alice.actions_seq.is_some_and(|s| s > 0));
    assert!(
        alice
            .actions
            .iter()
            .all(|a| a.actor.as_ref().is_some_and(|x| controls.contains(x))
                && a.command.actor() == a.actor.as_ref()),
        "{:?}",
        alice.actions
    );
    assert!(spectator.actions.is_empty());
    server.stop().await;
    Ok(())
}

#[tokio::test]
async fn a_player_asks_for_its_legal_actions_once_and_each_is_its_own() -> Result<()> {
    let server = TestServer::start().await?;
    let created = create_session(server.addr, "goblin-ambush", 7).await?;
    let url = server.ws_url();
    let token = |p: &str| {
        created
            .pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let mut gm = Watcher::join(&url, &token("/tokens/gm"), Encoding::Json, false).await?;
    gm.send(1, Command::StartBattle).await?;
    let mut c = Client::connect(&url, Encoding::Json).await?;
    c.hello(&token("/tokens/players/1/token"), None).await?;
    let ServerMessage::Welcome {
        role: Role::Player { controls, .. },
        seq,
        ..
    } = recv(&mut c).await?
    else {
        bail!("expected a player's welcome")
    };
    c.send(&ClientMessage::GetLegalActions).await?;
    let actions = loop {
        if let ServerMessage::LegalActions { seq: at, actions } = recv(&mut c).await? {
            assert_eq!(at, seq);
            break actions;
        }
    };
    assert!(
        actions
            .iter()
            .all(|a| a.actor.as_ref().is_some_and(|x| controls.contains(x))),
        "{actions:?}"
    );
    // Whoever's turn it is, a player's seat can always ready or end a turn of its own only on
    // that combatant's turn: the list is either empty or about the current combatant (or an
    // out-of-turn option such as an interrupt).
    let current = view_state(&gm.view)?.current;
    if actions
        .iter()
        .any(|a| matches!(a.command, Command::EndTurn { .. }))
    {
        assert!(current.is_some_and(|c| controls.contains(&c)));
    }
    server.stop().await;
    Ok(())
}
