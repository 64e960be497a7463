//! 13th Age (`13th-age-combat.txt`): the core combat loop — initiative, rounds and turns,
//! standard/move/quick actions, attacks against AC/PD/MD with crits and fumbles, miss damage,
//! the escalation die, staggered, death saves, rally and recoveries, conditions with durations,
//! ongoing damage and saves, and the end of the battle.
//!
//! Decide systems (in order, one schedule):
//! - `decide_command` — runs when a command is pending: checks legality, rolls, emits events;
//! - `advance_turns` — runs on the passes after it: the turn machinery until quiescent.

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

use crate::rules::common::decide::{DecideIo, add_decide_systems};
use bevy_ecs::prelude::*;
pub use commands::usage_name;

/// Ruleset id.
pub const ID: &str = "13th-age";
/// Ruleset version: bump when a rule change alters outcomes (old replays then fail verify
/// deliberately and visibly).
pub const VERSION: u32 = 28;

fn decide_command(mut io: DecideIo) {
    io.decide(commands::decide);
}

fn advance_turns(mut io: DecideIo) {
    io.advance(turns::advance);
}

/// Adds the ruleset's decide systems.
pub fn add_systems(schedule: &mut Schedule) {
    add_decide_systems(schedule, decide_command, advance_turns);
}
