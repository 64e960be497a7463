//! Seats (GM tools): which combatants each player seat commands, and its token. They start as
//! the genesis says. `assign_combatant` gives a combatant to a seat (or back to the GM alone),
//! and `reissue_token` gives a seat a new token and revokes the old one. Both are logged
//! events, so the seat table is rebuilt from the log at recovery (`SeatTable::follow`). The
//! registry's token map and the session task's connections follow it.
//!
//! A new token must be re-decided by `verify` like every event, so it is derived, not drawn:
//! the lowercase hex of the first 16 bytes of SHA-256(`"fray-token-v1"` ‖ secret seed, 8 bytes
//! little-endian ‖ secret salt, hex text ‖ seat name ‖ tick, 8 bytes little-endian). The secret
//! seed and salt are never revealed, so nobody else can compute it.

use crate::engine::Engine;
use crate::session::record::Genesis;
use fray_protocol::{CombatantId, Command, ErrorCode, GameEvent, Rejection, Role};
use sha2::{Digest, Sha256};

/// The domain of token derivation.
const TOKEN_DOMAIN: &[u8] = b"fray-token-v1";

/// One player seat now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatNow {
    /// Its name.
    pub name: String,
    /// Its token.
    pub token: String,
    /// The combatants it commands.
    pub controls: Vec<CombatantId>,
}

impl SeatNow {
    /// The role its token gives.
    pub fn role(&self) -> Role {
        Role::Player {
            name: self.name.clone(),
            controls: self.controls.clone(),
        }
    }
}

/// Every player seat now, and the tokens revoked so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeatTable {
    /// The seats, in the genesis's order.
    pub seats: Vec<SeatNow>,
    /// Revoked tokens.
    pub revoked: Vec<String>,
}

impl SeatTable {
    /// The seats as the genesis made them.
    pub fn from_genesis(g: &Genesis) -> SeatTable {
        let seats = g
            .encounter
            .seats
            .iter()
            .zip(&g.tokens.players)
            .map(|(seat, token)| SeatNow {
                name: seat.name.clone(),
                token: token.clone(),
                controls: seat.controls.clone(),
            })
            .collect();
        SeatTable {
            seats,
            revoked: Vec::new(),
        }
    }

    /// Follows a seat event (the GM's copy: a reissued token is in it). Returns whether the
    /// table changed.
    pub fn follow(&mut self, event: &GameEvent) -> bool {
        match event {
            GameEvent::CombatantAssigned { combatant, seat } => {
                for s in &mut self.seats {
                    s.controls.retain(|c| c != combatant);
                    if seat.as_ref() == Some(&s.name) {
                        s.controls.push(combatant.clone());
                    }
                }
                true
            }
            GameEvent::TokenReissued {
                seat,
                token: Some(token),
            } => {
                if let Some(s) = self.seats.iter_mut().find(|s| &s.name == seat) {
                    let old = std::mem::replace(&mut s.token, token.clone());
                    self.revoked.push(old);
                }
                true
            }
            _ => false,
        }
    }
}

/// A new token for `seat`, decided at `tick` (see the module's derivation).
pub fn token_for(g: &Genesis, seat: &str, tick: u64) -> String {
    let mut h = Sha256::new();
    h.update(TOKEN_DOMAIN);
    h.update(g.secret_seed.to_le_bytes());
    h.update(g.secret_salt.as_bytes());
    h.update(seat.as_bytes());
    h.update(tick.to_le_bytes());
    hex::encode(&h.finalize()[..16])
}

fn no_seat(seat: &str) -> Rejection {
    Rejection::new(
        ErrorCode::InvalidArgument,
        format!("no player seat is named '{seat}'"),
    )
}

/// Decides `assign_combatant` and `reissue_token` at `tick` (`None` for any other command).
pub fn decide(
    engine: &Engine,
    g: &Genesis,
    tick: u64,
    command: &Command,
) -> Option<Result<Vec<GameEvent>, Rejection>> {
    let has_seat = |name: &str| g.encounter.seats.iter().any(|s| s.name == name);
    Some(match command {
        Command::AssignCombatant { combatant, seat } => {
            if !engine.state().combatants.iter().any(|c| &c.id == combatant) {
                Err(Rejection::new(
                    ErrorCode::UnknownCombatant,
                    format!("no combatant '{combatant}' in this fight"),
                ))
            } else if let Some(s) = seat.as_deref().filter(|s| !has_seat(s)) {
                Err(no_seat(s))
            } else {
                Ok(vec![GameEvent::CombatantAssigned {
                    combatant: combatant.clone(),
                    seat: seat.clone(),
                }])
            }
        }
        Command::ReissueToken { seat } if has_seat(seat) => Ok(vec![GameEvent::TokenReissued {
            seat: seat.clone(),
            token: Some(token_for(g, seat, tick)),
        }]),
        Command::ReissueToken { seat } => Err(no_seat(seat)),
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
