//! Basic Fantasy (`basic-fantasy-adventures.txt`): its own ruleset id sharing the B/X core of
//! `rules::ose`. The text covers exploration only (time and scale, light, doors, listening,
//! traps, secret doors, the wilderness, retainers, experience); where it is silent — the combat
//! round, saves, morale — the session plays the shared core. What differs is chosen when the
//! encounter loads: the light durations (`LightRule::BasicFantasy`: torches 1d4+4 turns, oil
//! 18+1d6). Doors (d6/d10/d20 plus STR) are secret checks both rulesets offer. The matrix of
//! rule → code → test is `docs/rules/basic-fantasy.md`.

use bevy_ecs::schedule::Schedule;

/// Ruleset id.
pub const ID: &str = "basic-fantasy";
/// Ruleset version: bump when a rule change alters outcomes.
/// v7 (issue 21): a melee hit's damage roll shows what Strength adds (see `ose::VERSION`).
pub const VERSION: u32 = 7;

/// Adds the ruleset's decide systems: the shared B/X core's.
pub fn add_systems(schedule: &mut Schedule) {
    super::ose::add_systems(schedule);
}
