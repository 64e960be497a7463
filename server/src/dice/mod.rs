//! Dice: the session RNG, dice notation, and seed commit–reveal.
//!
//! - [`rng`]: [`SessionRng`], the per-session PCG64 generator with a documented seed
//!   derivation and Fray's own unbiased bounded sampler.
//! - [`notation`]: [`DiceExpr`], a parser and roller for dice notation (`4d6kh3`,
//!   `d20adv+STR`, `LVLdW`, …) producing [`fray_protocol::roll::Roll`]s.
//! - [`commit`]: the `SHA-256(seed ‖ salt)` commitment published when a session starts.
//!
//! This module depends on no other module of the server.

pub mod commit;
pub mod notation;
pub mod rng;

pub use commit::{commitment, verify_commitment};
pub use notation::{Ability, DiceError, DiceExpr, Placeholders, roll_d20, roll_die};
pub use rng::SessionRng;
