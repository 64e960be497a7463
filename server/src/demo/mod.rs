//! The built-in demo: a session whose both sides are played by bots at a watchable pace, with a
//! new fight when one ends, so that a newcomer can spectate at once (`fray spectate`).

pub mod bot;
pub mod client;

use crate::net::{DemoSeats, Registry};
use crate::rules::load_encounter;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// Finished demo sessions kept in the listing.
const KEEP_FINISHED: usize = 3;

/// Plays one fight with bots on every seat until its seed is revealed.
async fn play_fight(url: &str, gm: String, players: &[String], pace: Duration) {
    let mut bots = Vec::new();
    for p in players {
        bots.push(tokio::spawn(bot::play(url.to_owned(), p.clone(), pace)));
    }
    if let Err(e) = bot::play(url.to_owned(), gm, pace).await {
        tracing::warn!(error = %e, "demo GM bot stopped");
    }
    for b in bots {
        let _ = b.await;
    }
}

/// Runs demo fights forever (until the task is dropped): first the bots finish the demo fights
/// that were being played when the server last stopped (`resume`), then new ones.
pub async fn run(
    registry: Arc<Registry>,
    addr: SocketAddr,
    pace: Duration,
    resume: Vec<DemoSeats>,
) {
    let url = format!("ws://{addr}/ws");
    let mut finished: std::collections::VecDeque<fray_protocol::SessionId> = Default::default();
    for fight in resume {
        tracing::info!(session = %fight.session, "demo fight '{}' resumed: its bots finish it", fight.title);
        play_fight(&url, fight.gm, &fight.players, pace).await;
        finished.push_back(fight.session);
    }
    // The built-in encounters of the rulesets whose row has a bot policy, in table order.
    let encounters: Vec<(&str, &str)> = crate::rules::RULESETS
        .iter()
        .filter(|r| r.bot.is_some())
        .flat_map(|r| r.builtin_encounters.iter().copied())
        .collect();
    let mut n = 0usize;
    // Finished demo fights stay listed for a while (to be replayed or verified), then leave the
    // registry; their logs stay on disk.
    loop {
        let Some((name, text)) = encounters.get(n % encounters.len().max(1)) else {
            return;
        };
        n += 1;
        let encounter = match load_encounter(name, text) {
            Ok(e) => e,
            Err(e) => {
                tracing::error!(error = %e, "demo encounter does not load");
                return;
            }
        };
        let reg = registry.clone();
        let created =
            match tokio::task::spawn_blocking(move || reg.create(encounter, None, true)).await {
                Ok(Ok(c)) => c,
                Ok(Err(e)) => {
                    tracing::error!(error = %e, "cannot create the demo session");
                    return;
                }
                Err(_) => return,
            };
        tracing::info!(
            session = %created.session,
            spectator = %created.tokens.spectator,
            "demo fight '{}' started: watch it with `fray spectate`",
            created.title
        );
        let players: Vec<String> = created
            .tokens
            .players
            .iter()
            .map(|p| p.token.clone())
            .collect();
        play_fight(&url, created.tokens.gm.clone(), &players, pace).await;
        finished.push_back(fray_protocol::SessionId(created.session.clone()));
        while finished.len() > KEEP_FINISHED {
            if let Some(old) = finished.pop_front() {
                registry.remove(&old);
            }
        }
        tokio::time::sleep(pace * 4).await;
    }
}
