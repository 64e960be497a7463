//! A demo bot: an in-process client that plays its combatants through the real protocol.
//! The GM bot starts the battle and plays the monsters; a player bot plays its seat's heroes.
//! The choices are the session's ruleset's built-in policy (its registry row's `bot`:
//! `rules/<ruleset>/bot.rs`), simple and deterministic.

use super::client::{Client, ClientError};
use fray_protocol::codec::Encoding;
use fray_protocol::command::AttackMode;
use fray_protocol::ids::Role;
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
                state = Some(*s);
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
            ServerMessage::Pong { .. }
            | ServerMessage::ViewPatch { .. }
            | ServerMessage::LegalActions { .. }
            | ServerMessage::PreviewResult { .. }
            | ServerMessage::PreviewRefused { .. } => {}
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

/// The bot's next command for `role`, by the policy of the session's ruleset (its registry row;
/// `None` for a ruleset the bots do not play).
pub fn choose(role: &Role, s: &SessionState, salt: u64) -> Option<Command> {
    crate::rules::ruleset(&s.ruleset)
        .and_then(|r| r.bot)
        .and_then(|bot| bot(role, s, salt))
}

/// For a driver that plays every seat at once (tests, benchmarks, recorded replays): the next
/// (role, command). Open opportunity attacks are taken first, by whichever role controls the
/// attacker; otherwise the role of the combatant whose turn it is moves.
pub fn next_for_table(s: &SessionState, roles: &[Role], salt: u64) -> Option<(Role, Command)> {
    for role in roles {
        if let Some(
            cmd @ Command::Attack {
                mode: AttackMode::Opportunity,
                ..
            },
        ) = choose(role, s, salt)
        {
            return Some((role.clone(), cmd));
        }
    }
    let role = match &s.current {
        Some(id) => roles
            .iter()
            .find(|r| match r {
                Role::Player { controls, .. } => controls.contains(id),
                _ => false,
            })
            .cloned()
            .unwrap_or(Role::Gm),
        None => Role::Gm,
    };
    choose(&role, s, salt).map(|c| (role, c))
}
