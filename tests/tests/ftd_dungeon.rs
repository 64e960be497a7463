//! Five Torches Deep over real sockets: the dungeon clock (darkness, a torch lit and burning out
//! in a travel turn, a lantern outlasting it), a load that stops movement, and stealth — with
//! the refusals' own reason codes (`gm_only`, `no_speed`, `target_hidden`).

use anyhow::{Result, bail};
use fray_protocol::codec::Encoding;
use fray_protocol::ftd::{Advantage, LightLevel, LightSource};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::{ClientMessage, Command, ErrorCode, GameEvent, ServerMessage, SessionState};
use fray_server::demo::client::Client;
use fray_tests::{TestServer, create_session};
use std::time::Duration;

const T: Duration = Duration::from_secs(10);

async fn recv(c: &mut Client) -> Result<ServerMessage> {
    Ok(tokio::time::timeout(T, c.recv()).await??)
}

async fn join(url: &str, token: &str) -> Result<(Client, SessionState)> {
    let mut c = Client::connect(url, Encoding::Json).await?;
    c.hello(token, None).await?;
    let ServerMessage::Welcome { .. } = recv(&mut c).await? else {
        bail!("expected welcome")
    };
    let ServerMessage::Snapshot { state, .. } = recv(&mut c).await? else {
        bail!("expected snapshot")
    };
    Ok((c, *state))
}

/// Sends a command; returns the events it produced, or the rejection code.
async fn command(
    c: &mut Client,
    id: u64,
    cmd: Command,
) -> Result<std::result::Result<Vec<GameEvent>, ErrorCode>> {
    c.send(&ClientMessage::Command { id, command: cmd }).await?;
    let mut events = Vec::new();
    loop {
        match recv(c).await? {
            ServerMessage::Event { event, .. } => events.push(event),
            ServerMessage::Accepted { command_id, .. } if command_id == id => {
                // The events of an accepted command arrive with or right after it.
                c.send(&ClientMessage::GetSnapshot).await?;
                loop {
                    match recv(c).await? {
                        ServerMessage::Event { event, .. } => events.push(event),
                        ServerMessage::Snapshot { .. } => return Ok(Ok(events)),
                        _ => {}
                    }
                }
            }
            ServerMessage::Rejected {
                command_id, code, ..
            } if command_id == id => return Ok(Err(code)),
            _ => {}
        }
    }
}

async fn snapshot(c: &mut Client) -> Result<SessionState> {
    c.send(&ClientMessage::GetSnapshot).await?;
    loop {
        if let ServerMessage::Snapshot { state, .. } = recv(c).await? {
            return Ok(*state);
        }
    }
}

fn id(s: &str) -> CombatantId {
    CombatantId::new(s)
}

// five-torches-deep-combat.txt § Travel Turns, § Light, § Movement Actions, § Stealth
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dungeon_session_over_real_sockets_burns_a_torch_and_refuses_what_it_must() -> Result<()>
{
    let server = TestServer::start().await?;
    let created = create_session(server.addr, "flooded-chapel", 3).await?;
    assert_eq!(created["ruleset"], "five-torches-deep");
    let url = server.ws_url();
    let gm_tok = created["tokens"]["gm"].as_str().unwrap_or_default();
    let bob_tok = created["tokens"]["players"][1]["token"]
        .as_str()
        .unwrap_or_default();
    let (mut gm, _) = join(&url, gm_tok).await?;
    let (mut bob, _) = join(&url, bob_tok).await?;
    let mut n = 0;
    let mut next = || {
        n += 1;
        n
    };
    // The GM's light; a player may not set it.
    let dark = Command::SetLight {
        combatant: None,
        light: Some(LightLevel::Darkness),
    };
    assert_eq!(
        command(&mut bob, next(), dark.clone()).await?,
        Err(ErrorCode::GmOnly)
    );
    assert!(command(&mut gm, next(), dark).await?.is_ok());
    // Hesk's torch (alice's), Ilsabet's lantern (bob's own player lights it).
    let torch = Command::CarryLight {
        actor: id("hesk"),
        source: Some(LightSource::Torch),
    };
    assert!(command(&mut gm, next(), torch).await?.is_ok());
    let lantern = Command::CarryLight {
        actor: id("ilsabet"),
        source: Some(LightSource::Lantern),
    };
    assert!(command(&mut bob, next(), lantern).await?.is_ok());
    // A travel turn: an hour; the torch burns out, the lantern goes on.
    let Ok(events) = command(
        &mut gm,
        next(),
        Command::TravelTurn {
            advantage: Advantage::None,
        },
    )
    .await?
    else {
        bail!("travel turn refused")
    };
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GameEvent::TravelTurnRolled { number: 1, .. }))
    );
    assert!(events.contains(&GameEvent::TimePassed { seconds: 3600 }));
    assert!(events.contains(&GameEvent::LightWentOut {
        combatant: id("hesk"),
        source: LightSource::Torch
    }));
    let s = snapshot(&mut gm).await?;
    let ftd = |c: &str| s.combatant(&id(c)).and_then(|c| c.ftd.clone());
    assert!(ftd("hesk").is_some_and(|f| f.carried.is_none()));
    assert!(ftd("ilsabet").is_some_and(|f| f.carried.is_some_and(|l| l.seconds_left == 7200)));
    assert_eq!(s.ftd.as_ref().map(|f| f.clock), Some(3600));
    // Within resilience: no check.
    assert_eq!(
        command(
            &mut gm,
            next(),
            Command::ResilienceCheck {
                combatant: id("hesk")
            }
        )
        .await?,
        Err(ErrorCode::InvalidArgument)
    );
    // The battle: Mirelle (DEX 17) acts first; under 40 load she cannot move.
    assert!(
        command(&mut gm, next(), Command::StartBattle)
            .await?
            .is_ok()
    );
    let s = snapshot(&mut gm).await?;
    assert_eq!(s.current, Some(id("mirelle")));
    assert!(
        command(
            &mut gm,
            next(),
            Command::SetLoad {
                combatant: id("mirelle"),
                load: 40,
                coins: 0
            }
        )
        .await?
        .is_ok()
    );
    assert_eq!(
        command(
            &mut gm,
            next(),
            Command::Move {
                actor: id("mirelle"),
                engage: Some(id("bilge-rat-1")),
                far_away: false,
            }
        )
        .await?,
        Err(ErrorCode::NoSpeed)
    );
    // Stealth at the GM's DC 1: she hides; no enemy may target her.
    assert!(
        command(&mut gm, next(), Command::SetStealthDc { dc: Some(1) })
            .await?
            .is_ok()
    );
    let Ok(events) = command(
        &mut gm,
        next(),
        Command::Hide {
            actor: id("mirelle"),
        },
    )
    .await?
    else {
        bail!("hide refused")
    };
    assert!(events.contains(&GameEvent::StealthChanged {
        combatant: id("mirelle"),
        hidden: true
    }));
    assert!(
        command(
            &mut gm,
            next(),
            Command::EndTurn {
                actor: id("mirelle")
            }
        )
        .await?
        .is_ok()
    );
    for _ in 0..12 {
        let s = snapshot(&mut gm).await?;
        let Some(cur) = s.current.clone() else {
            bail!("no one's turn")
        };
        let me = s.combatant(&cur).cloned();
        if let Some(m) = me.filter(|m| m.side == Side::Monsters)
            && let Some(a) = m.attacks.first()
        {
            let attack = Command::Attack {
                actor: cur.clone(),
                attack: a.id.clone(),
                targets: vec![id("mirelle")],
                mode: Default::default(),
                knock_out: false,
            };
            assert_eq!(
                command(&mut gm, next(), attack).await?,
                Err(ErrorCode::TargetHidden)
            );
            // Nothing was spent by the refusal.
            let after = snapshot(&mut gm).await?;
            assert_eq!(
                after.combatant(&cur).map(|c| c.actions.standard),
                Some(true)
            );
            server.stop().await;
            return Ok(());
        }
        command(&mut gm, next(), Command::EndTurn { actor: cur })
            .await?
            .ok();
    }
    bail!("no monster's turn came")
}
