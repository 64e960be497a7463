//! 13th Age (`13th-age-combat.txt`): the core combat loop — initiative, rounds and turns,
//! standard/move/quick actions, attacks against AC/PD/MD with crits and fumbles, miss damage,
//! the escalation die, staggered, death saves, rally and recoveries, conditions with durations,
//! ongoing damage and saves, and the end of the battle.
//!
//! The decide system `decide_pass`, one per pass of the schedule:
//! - with a command pending: checks legality, rolls, emits events;
//! - on the passes after it: the turn machinery until quiescent.

pub mod actions;
pub mod apply;
pub mod bot;
pub(crate) mod commands;
pub mod content;
mod position;
pub mod rules;
pub(crate) mod turns;
pub(crate) mod world;

#[cfg(test)]
pub(crate) mod tests;
#[cfg(test)]
mod tests_attacks;
#[cfg(test)]
mod tests_battles;
#[cfg(test)]
mod tests_crits_and_knock_outs;
#[cfg(test)]
mod tests_damage;
#[cfg(test)]
mod tests_position;

use crate::rules::common::decide::{DecideIo, add_decide_system};
use bevy_ecs::prelude::*;
pub use commands::usage_name;

/// Ruleset id.
pub const ID: &str = "13th-age";
/// Ruleset version: bump when a rule change alters outcomes (old replays then fail verify
/// deliberately and visibly).
pub const VERSION: u32 = 28;

/// The ruleset's decide system: the pending command, or a pass of the turn machinery.
fn decide_pass(mut io: DecideIo) {
    io.pass(commands::decide, turns::advance);
}

/// Adds the ruleset's decide system.
pub fn add_systems(schedule: &mut Schedule) {
    add_decide_system(schedule, decide_pass);
}
