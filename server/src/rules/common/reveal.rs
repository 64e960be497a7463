//! The seed reveal (DESIGN "Determinism"; `protocol/README.md`, "How a player checks the
//! dice"): once the session is over the seed and salt are published in a `seed_revealed`
//! event, exactly once. Every ruleset's turn machinery ends with this step; when the session
//! is over is the ruleset's to say.

use super::decider::Decider;
use crate::ecs::components::SeedSecret;
use fray_protocol::event::GameEvent;

/// Reveals the seed unless it was revealed already.
pub fn reveal_seed(d: &mut Decider, secret: &SeedSecret) {
    if !d.field.battle.seed_revealed {
        d.emit(GameEvent::SeedRevealed {
            seed: secret.seed,
            salt: secret.salt.clone(),
        });
    }
}

/// Whether an ended battle still waits for the GM to end the session (with `rests = true` the
/// session goes on after the battle — rests, travel, the next battle — until `end_session`).
pub fn session_goes_on(d: &Decider) -> bool {
    d.field.options.0.rests && !d.field.battle.session_over
}
