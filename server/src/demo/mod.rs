//! The built-in demo: a session whose both sides are played by bots at a watchable pace, with a
//! new fight when one ends, so that a newcomer can spectate at once (`fray spectate`).

pub mod bot;
pub mod client;
pub mod orcus_bot;

use crate::content::{builtin_encounters, load_encounter};
use crate::net::Registry;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// Finished demo sessions kept in the listing.
const KEEP_FINISHED: usize = 3;

/// Runs demo fights forever (until the task is dropped).
pub async fn run(registry: Arc<Registry>, addr: SocketAddr, pace: Duration) {
    let url = format!("ws://{addr}/ws");
    // The built-in encounters of the rulesets the bots can play, in turn (13th Age, then Orcus
    // on its grid; Five Torches Deep needs a GM's rulings the bots do not make yet).
    let encounters: Vec<(&str, &str)> = [crate::rules::thirteenth_age::ID, crate::rules::orcus::ID]
        .iter()
        .flat_map(|r| builtin_encounters(r).iter().copied())
        .collect();
    let mut n = 0usize;
    // Finished demo fights stay listed for a while (to be replayed or verified), then leave the
    // registry; their logs stay on disk.
    let mut finished: std::collections::VecDeque<fray_protocol::SessionId> = Default::default();
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
        let mut bots = Vec::new();
        for p in &created.tokens.players {
            bots.push(tokio::spawn(bot::play(url.clone(), p.token.clone(), pace)));
        }
        let gm = bot::play(url.clone(), created.tokens.gm.clone(), pace).await;
        if let Err(e) = gm {
            tracing::warn!(error = %e, "demo GM bot stopped");
        }
        for b in bots {
            let _ = b.await;
        }
        finished.push_back(fray_protocol::SessionId(created.session.clone()));
        while finished.len() > KEEP_FINISHED {
            if let Some(old) = finished.pop_front() {
                registry.remove(&old);
            }
        }
        tokio::time::sleep(pace * 4).await;
    }
}
