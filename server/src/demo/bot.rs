//! A demo bot: an in-process client that plays its combatants through the real protocol.
//! The GM bot starts the battle and plays the monsters; a player bot plays its seat's heroes.
//! Choices are simple and deterministic: rally when staggered (once), otherwise attack the
//! weakest-looking enemy with the attack that fits, then end the turn.

use super::client::{Client, ClientError};
use fray_protocol::codec::Encoding;
use fray_protocol::ids::{CombatantId, Role, Side};
use fray_protocol::state::{LifeStatus, Phase};
use fray_protocol::{ClientMessage, Command, GameEvent, ServerMessage, SessionState};
use std::time::Duration;

/// Plays until the battle is over and the seed revealed (or the connection ends).
pub async fn play(url: String, token: String, pace: Duration) -> Result<(), ClientError> {
    let mut c = Client::connect(&url, Encoding::Json).await?;
    c.hello(&token, None).await?;
    let mut role = Role::Spectator;
    let mut state: Option<SessionState> = None;
    let mut waiting = false;
    let mut next_id = 1u64;
    let mut turn_counter = 0u64;
    loop {
        match c.recv().await? {
            ServerMessage::Welcome { role: r, .. } => role = r,
            ServerMessage::Snapshot { state: s, .. } => {
                state = Some(s);
                waiting = false;
            }
            ServerMessage::Event { event, .. } => match event {
                GameEvent::SeedRevealed { .. } => {
                    c.close().await;
                    return Ok(());
                }
                GameEvent::TurnStarted { .. } | GameEvent::TurnOrder { .. } => {
                    turn_counter += 1;
                    c.send(&ClientMessage::GetSnapshot).await?;
                    waiting = true;
                }
                _ => {}
            },
            ServerMessage::Accepted { .. } | ServerMessage::Rejected { .. } => {
                c.send(&ClientMessage::GetSnapshot).await?;
                waiting = true;
            }
            ServerMessage::Error { code, message } => {
                tracing::debug!(%code, %message, "bot got an error");
            }
            ServerMessage::Pong { .. } => {}
        }
        if waiting {
            continue;
        }
        let Some(s) = &state else { continue };
        if let Some(cmd) = choose(&role, s, turn_counter) {
            tokio::time::sleep(pace).await;
            c.send(&ClientMessage::Command {
                id: next_id,
                command: cmd,
            })
            .await?;
            next_id += 1;
            waiting = true;
        }
    }
}

fn controls(role: &Role, s: &SessionState, id: &CombatantId) -> bool {
    match role {
        Role::Gm => s.combatant(id).is_some_and(|c| c.side == Side::Monsters),
        Role::Player { controls, .. } => controls.contains(id),
        Role::Spectator => false,
    }
}

/// The bot's next command, if it is its move.
pub fn choose(role: &Role, s: &SessionState, salt: u64) -> Option<Command> {
    match s.phase {
        Phase::Setup if matches!(role, Role::Gm) => return Some(Command::StartBattle),
        Phase::Running => {}
        _ => return None,
    }
    let id = s.current.as_ref()?;
    if !controls(role, s, id) {
        return None;
    }
    let me = s.combatant(id)?;
    let end = Command::EndTurn { actor: id.clone() };
    if !me.actions.standard {
        return Some(end);
    }
    if me.side == Side::Heroes && me.staggered && me.rallies == 0 && me.recoveries > 0 {
        return Some(Command::Rally { actor: id.clone() });
    }
    let mut enemies: Vec<_> = s
        .combatants
        .iter()
        .filter(|c| {
            c.side != me.side && c.status != LifeStatus::Dead && c.status != LifeStatus::Slain
        })
        .collect();
    if enemies.is_empty() {
        return Some(end);
    }
    // Prefer conscious enemies; among them the staggered ones, then by id.
    enemies.sort_by_key(|c| {
        (
            c.status != LifeStatus::Conscious,
            !c.staggered,
            c.id.clone(),
        )
    });
    let attack = &me.attacks[(salt as usize) % me.attacks.len().max(1)];
    let n = (attack.max_targets as usize).min(enemies.len()).max(1);
    let first = (salt as usize) % enemies.len().min(2);
    let targets: Vec<CombatantId> = enemies
        .iter()
        .cycle()
        .skip(first)
        .take(n)
        .map(|c| c.id.clone())
        .collect();
    Some(Command::Attack {
        actor: id.clone(),
        attack: attack.id.clone(),
        targets,
    })
}
