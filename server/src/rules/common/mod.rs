//! What every ruleset shares to decide, naming no ruleset: the decide wrapper (`decide`), the
//! decide context with its dice, damage, healing and saves (`decider`), the read-only view of
//! the battlefield (`field`), the guards every command starts with (`guards`), the end of a
//! battle, later battles and temporary hit points (`battles`), and the seed reveal (`reveal`).
//! A ruleset imports from here and never from another ruleset.

pub mod actions;
pub mod battles;
pub mod decide;
pub mod decider;
pub mod field;
pub mod guards;
pub mod overrides;
pub mod policy;
pub mod reveal;
pub mod secret;
#[cfg(test)]
pub(crate) mod testing;
