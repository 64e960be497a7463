//! Regenerates the example session of `protocol/README.md` from a real server: starts one in
//! process, plays a scripted exchange (GM and a late-joining player), and replaces the text
//! between the `example-session` markers with the frames as sent and received.
//! Run from the repository root: `cargo run -p fray-tests --bin capture-protocol-examples`.

use anyhow::{Context, Result, anyhow};
use fray_protocol::codec::{Encoding, Frame, encode};
use fray_protocol::command::AttackMode;
use fray_protocol::{ClientMessage, Command, ServerMessage, Side};
use fray_server::demo::client::Client;
use fray_tests::{TestServer, create_session};
use std::fmt::Write as _;
use tokio_tungstenite::tungstenite::Message;

const START: &str = "<!-- example-session:start -->";
const END: &str = "<!-- example-session:end -->";
const WATCH_START: &str = "<!-- example-watch:start -->";
const WATCH_END: &str = "<!-- example-watch:end -->";

fn json(m: &impl serde::Serialize) -> Result<String> {
    match encode(m, Encoding::Json)? {
        Frame::Text(t) => Ok(t),
        Frame::Binary(_) => Err(anyhow!("json encodes to text")),
    }
}

struct Transcript(String);

impl Transcript {
    fn line(&mut self, dir: &str, text: &str) {
        let _ = writeln!(self.0, "{dir} {text}");
    }
    async fn send(&mut self, c: &mut Client, m: &ClientMessage) -> Result<()> {
        self.line("C", &json(m)?);
        c.send(m).await?;
        Ok(())
    }
    /// Receives until `stop` matches, recording every frame.
    async fn until(
        &mut self,
        c: &mut Client,
        stop: impl Fn(&ServerMessage) -> bool,
    ) -> Result<ServerMessage> {
        loop {
            let m = c.recv().await?;
            self.line("S", &json(&m)?);
            if stop(&m) {
                return Ok(m);
            }
        }
    }
}

fn answer(m: &ServerMessage) -> bool {
    matches!(
        m,
        ServerMessage::Accepted { .. } | ServerMessage::Rejected { .. }
    )
}

#[tokio::main]
async fn main() -> Result<()> {
    let server = TestServer::start().await?;
    let created = create_session(server.addr, "goblin-ambush", 42).await?;
    let gm_token = created["tokens"]["gm"]
        .as_str()
        .context("gm token")?
        .to_owned();
    let alice = created["tokens"]["players"][0]["token"]
        .as_str()
        .context("alice")?
        .to_owned();
    let url = server.ws_url();

    let mut gm_part = Transcript(String::new());
    let mut gm = Client::connect(&url, Encoding::Json).await?;
    gm_part
        .send(
            &mut gm,
            &ClientMessage::Hello {
                protocol: 1,
                token: gm_token,
                resume_from: None,
            },
        )
        .await?;
    gm_part
        .until(&mut gm, |m| matches!(m, ServerMessage::Welcome { .. }))
        .await?;
    let ServerMessage::Snapshot { .. } = gm_part.until(&mut gm, |_| true).await? else {
        return Err(anyhow!("expected a snapshot"));
    };
    gm_part
        .send(
            &mut gm,
            &ClientMessage::Command {
                id: 1,
                command: Command::StartBattle,
            },
        )
        .await?;
    gm_part.until(&mut gm, answer).await?;
    // Find whose turn it is and a foe, quietly.
    gm.send(&ClientMessage::GetSnapshot).await?;
    let state = loop {
        if let ServerMessage::Snapshot { state, .. } = gm.recv().await? {
            break state;
        }
    };
    let actor = state.current.clone().context("someone's turn")?;
    let me = state.combatant(&actor).context("actor")?;
    let foe = state
        .combatants
        .iter()
        .find(|c| c.side != me.side && (me.side == Side::Monsters) == (c.side == Side::Heroes))
        .context("a foe")?
        .id
        .clone();
    let melee = me
        .attacks
        .iter()
        .find(|a| a.range == "melee")
        .context("melee")?
        .id
        .clone();
    let attack = Command::Attack {
        actor: actor.clone(),
        attack: melee,
        targets: vec![foe.clone()],
        mode: AttackMode::Standard,
        knock_out: false,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    };
    let script = [
        (2, attack.clone()),
        (
            3,
            Command::Move {
                actor: actor.clone(),
                engage: Some(foe.clone()),
                far_away: false,
            },
        ),
        (4, attack.clone()),
        (5, attack),
        (
            6,
            Command::EndTurn {
                actor: actor.clone(),
            },
        ),
    ];
    let mut resume_at = 0;
    for (id, cmd) in script {
        gm_part
            .send(&mut gm, &ClientMessage::Command { id, command: cmd })
            .await?;
        if let ServerMessage::Accepted { last_seq, .. } = gm_part.until(&mut gm, answer).await?
            && id == 4
        {
            resume_at = last_seq;
        }
    }

    let mut alice_part = Transcript(String::new());
    let mut a = Client::connect(&url, Encoding::Json).await?;
    alice_part
        .send(
            &mut a,
            &ClientMessage::Hello {
                protocol: 1,
                token: alice,
                resume_from: Some(resume_at),
            },
        )
        .await?;
    let cmd = ClientMessage::Command {
        id: 9,
        command: Command::EndTurn {
            actor: "vex".into(),
        },
    };
    alice_part.send(&mut a, &cmd).await?;
    alice_part.until(&mut a, answer).await?;
    alice_part
        .send(&mut a, &ClientMessage::Ping { nonce: 5 })
        .await?;
    alice_part
        .until(&mut a, |m| matches!(m, ServerMessage::Pong { .. }))
        .await?;
    let cmd = ClientMessage::Command {
        id: 10,
        command: Command::EndTurn {
            actor: "brakka".into(),
        },
    };
    alice_part.send(&mut a, &cmd).await?;
    alice_part.until(&mut a, answer).await?;
    let broken = "{\"command\":{\"id\":11,";
    alice_part.line("C", broken);
    a.send_raw(Message::Text(broken.into())).await?;
    alice_part
        .until(&mut a, |m| matches!(m, ServerMessage::Error { .. }))
        .await?;

    let bob = created["tokens"]["players"][1]["token"]
        .as_str()
        .context("bob")?
        .to_owned();
    let watch_part = capture_watch(&url, &mut gm, &bob).await?;

    let section = format!(
        "{START}\n`C` is the client, `S` the server; every frame below was captured from a real server\n\
         (goblin ambush, seed 42) by `cargo run -p fray-tests --bin capture-protocol-examples`.\n\
         The GM joins and starts the battle; the first combatant tries a melee attack without being\n\
         engaged (refused), engages, attacks, tries a second standard action (refused), and ends its turn:\n\n\
         ```text\n{}```\n\n\
         Alice (a player controlling `brakka` and `sela`) joins late, resuming after `seq` {resume_at};\n\
         she commands Bob's hero, pings, acts out of turn, and sends a broken frame (the connection\n\
         stays up). Answers come in order per connection:\n\n```text\n{}```\n{END}",
        gm_part.0, alice_part.0
    );
    let path = "protocol/README.md";
    let readme = std::fs::read_to_string(path)?;
    let (Some(s), Some(e)) = (readme.find(START), readme.find(END)) else {
        return Err(anyhow!("{path} has no {START} … {END} markers"));
    };
    let updated = format!("{}{}{}", &readme[..s], section, &readme[e + END.len()..]);
    let watch = format!(
        "{WATCH_START}\nBob (controlling `orin` and `vex`) joins after the turn above and watches; the GM ends three\n\
         turns (its frames are not shown), and Bob's view follows by patches until it is Vex's turn,\n\
         when his legal actions change (captured like the session above):\n\n```text\n{watch_part}```\n{WATCH_END}"
    );
    let (Some(s), Some(e)) = (updated.find(WATCH_START), updated.find(WATCH_END)) else {
        return Err(anyhow!("{path} has no {WATCH_START} … {WATCH_END} markers"));
    };
    let updated = format!(
        "{}{}{}",
        &updated[..s],
        watch,
        &updated[e + WATCH_END.len()..]
    );
    std::fs::write(path, updated)?;
    eprintln!("{path}: example session regenerated");
    server.stop().await;
    Ok(())
}

/// Bob joins after the session's last event and watches; the GM (not recorded) ends turns until
/// it is one of Bob's heroes' turn.
async fn capture_watch(url: &str, gm: &mut Client, bob: &str) -> Result<String> {
    gm.send(&ClientMessage::GetSnapshot).await?;
    let last = loop {
        if let ServerMessage::Snapshot { seq, .. } = gm.recv().await? {
            break seq;
        }
    };
    let mut part = Transcript(String::new());
    let mut b = Client::connect(url, Encoding::Json).await?;
    let hello = ClientMessage::Hello {
        protocol: 1,
        token: bob.to_owned(),
        resume_from: Some(last),
    };
    part.send(&mut b, &hello).await?;
    part.until(&mut b, |m| matches!(m, ServerMessage::Welcome { .. }))
        .await?;
    let watch = ClientMessage::Watch {
        views: true,
        legal_actions: true,
    };
    part.send(&mut b, &watch).await?;
    part.until(&mut b, |m| matches!(m, ServerMessage::LegalActions { .. }))
        .await?;
    let mut id = 100;
    loop {
        gm.send(&ClientMessage::GetSnapshot).await?;
        let state = loop {
            if let ServerMessage::Snapshot { state, .. } = gm.recv().await? {
                break state;
            }
        };
        let current = state.current.clone().context("someone's turn")?;
        if current.as_str() == "orin" || current.as_str() == "vex" {
            break;
        }
        id += 1;
        let end = ClientMessage::Command {
            id,
            command: Command::EndTurn { actor: current },
        };
        gm.send(&end).await?;
        while !answer(&gm.recv().await?) {}
        let turn_of_bob = |m: &ServerMessage| match m {
            ServerMessage::LegalActions { actions, .. } => !actions.is_empty(),
            ServerMessage::ViewPatch { .. } => true,
            _ => false,
        };
        part.until(&mut b, turn_of_bob).await?;
    }
    part.until(&mut b, |m| matches!(m, ServerMessage::LegalActions { .. }))
        .await?;
    Ok(part.0)
}
