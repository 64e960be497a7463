//! Old-School Essentials (`ose-adventuring.txt`), the shared B/X core — first increment: surprise
//! (a d6 per unaware side), the monster reaction roll with the speaker's CHA, side initiative
//! (a d6 per side each round; ties rerolled or simultaneous, a session option), declarations of
//! spells and retreats, attacks by the attack matrix (or the THAC0-direct and ascending-AC
//! options) with STR and DEX, missile ranges and the GM's situational modifier, natural 20s
//! and 1s, minimum 1 damage and death at 0, spell casting and its disruption, saving throws in
//! the five categories, morale (proposed at the first death and at half incapacitated; 2d6 over
//! the rating breaks and the monster flees; two successes: fights to the death). The matrix of
//! rule → code → test is `docs/rules/ose.md`. The exploration turn (second increment): the
//! GM passes 10-minute turns with the secret wandering-monster check (and its distance), light
//! burning down (OSE or Basic Fantasy durations), rest every sixth turn or −1 to attack and
//! damage, light preventing surprise; searches with their time and one chance per area; Basic
//! Fantasy's doors (d6/d10/d20 + STR) and secret-door chances. The `basic-fantasy` ruleset runs
//! these same systems (`rules::basic_fantasy`).
//!
//! The decide system `decide_pass`, one per pass of the schedule, as in the other rulesets:
//! - with a command pending: checks legality, rolls, emits events;
//! - on the passes after it: rounds, side initiative, turns, the end.
//!
//! Shared machinery: the 13th Age `Field` (read-only battlefield) and `Decider` (session RNG,
//! overlay of hit points and status, events); the engine's `apply` folds the events.

/// The wire names of the conditions the GM sets (`OseCondition`, § Other Combat Issues).
pub const GM_CONDITIONS: &[&str] = &[
    "blind",
    "paralyzed",
    "unstable",
    "exhausted",
    "complete_cover",
    "swimming",
    "underwater",
];

pub mod actions;
pub mod apply;
mod bombing;
pub mod bot;
mod candles;
mod combat_extras;
mod commands;
pub mod components;
pub mod content;
mod darkness;
mod doors;
mod durations;
mod encumbrance;
mod evasion;
mod exhaustion;
mod experience;
mod hazards;
mod initiative;
mod invulnerability;
mod optional_rules;
mod pursuit;
mod retainers;
mod round;
mod routine;
mod subdual;
pub mod tables;
mod terrain;
mod travel;
mod turns;
mod water_travel;
mod waterborne;
mod weapon_damage;
mod wilderness;
pub(crate) mod world;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_bf;
#[cfg(test)]
mod tests_candles;
#[cfg(test)]
mod tests_cover;
#[cfg(test)]
mod tests_darkness;
#[cfg(test)]
mod tests_doors;
#[cfg(test)]
mod tests_encumbrance;
#[cfg(test)]
mod tests_evasion;
#[cfg(test)]
mod tests_exhaustion;
#[cfg(test)]
mod tests_extras;
#[cfg(test)]
mod tests_invulnerable;
#[cfg(test)]
mod tests_optional_rules;
#[cfg(test)]
mod tests_pursuit;
#[cfg(test)]
mod tests_round;
#[cfg(test)]
mod tests_routine;
#[cfg(test)]
mod tests_starvation;
#[cfg(test)]
mod tests_subdual;
#[cfg(test)]
mod tests_tables;
#[cfg(test)]
mod tests_terrain;
#[cfg(test)]
mod tests_traps;
#[cfg(test)]
mod tests_water_travel;
#[cfg(test)]
mod tests_waterborne;
#[cfg(test)]
mod tests_weapon_damage;
#[cfg(test)]
mod tests_wilderness;

use crate::content::model::OseSpec;
use crate::ecs::components::Roster;
use crate::rules::common::decide::{DecideIo, add_decide_system};
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use components::{OseField, OseKit, OseSheet};
use fray_protocol::event::Defense;
use fray_protocol::ids::CombatantId;
use fray_protocol::ose::{OseBattle, OseCombatant};
use fray_protocol::state::AttackSummary;

/// Ruleset id.
pub const ID: &str = "ose";
/// Ruleset version: bump when a rule change alters outcomes.
/// v9 (issue 21): a hit's damage roll shows what Strength, the rest penalty and exhaustion
/// add (`d8+2`), so its events differ from v8's (Basic Fantasy's v7 likewise).
pub const VERSION: u32 = 9;

/// The rulesets played on this B/X core: `ose` and `basic-fantasy`.
pub fn is_bx(ruleset: &str) -> bool {
    ruleset == ID || ruleset == crate::rules::basic_fantasy::ID
}

/// What decide reads beyond the shared battlefield: each combatant's sheet and stat block, and
/// the battle's Old-School Essentials state.
#[derive(SystemParam)]
pub struct Sheets<'w, 's> {
    field: Res<'w, OseField>,
    roster: Res<'w, Roster>,
    q: Query<'w, 's, (&'static OseSheet, &'static OseKit)>,
}

impl Sheets<'_, '_> {
    /// A combatant's sheet and stat block.
    pub fn get(&self, id: &CombatantId) -> Option<(&OseCombatant, &OseSpec)> {
        let e = self.roster.0.get(id)?;
        self.q.get(*e).ok().map(|(s, k)| (&s.0, &k.0))
    }

    /// The battle state (always present in this ruleset's worlds).
    pub fn battle(&self) -> OseBattle {
        self.field.0.clone().unwrap_or_default()
    }

    /// Basic Fantasy § Dungeon Survival: whether a combatant still heals naturally (not after
    /// two days without food, nor once thirst has cost it hit points); for natural healing.
    /// In `ose` sessions always (OSE § Starvation leaves its effects to the referee).
    pub fn heals_naturally(&self, id: &CombatantId) -> bool {
        self.field
            .0
            .as_ref()
            .is_none_or(|b| !b.basic_fantasy || b.bf.heals_naturally(id))
    }
}

/// The ruleset's decide system: the pending command, or a pass of the turn machinery.
fn decide_pass(mut io: DecideIo, sheets: Sheets) {
    io.pass(
        |d, cmd| commands::decide(d, &sheets, cmd),
        |d, secret| turns::advance(d, &sheets, secret),
    );
}

/// Adds the ruleset's decide system.
pub fn add_systems(schedule: &mut Schedule) {
    add_decide_system(schedule, decide_pass);
}

/// What a client needs to offer an Old-School Essentials combatant's attacks.
pub fn summaries(kit: &OseSpec) -> Vec<AttackSummary> {
    kit.attacks
        .iter()
        .map(|a| AttackSummary {
            id: a.id.clone(),
            name: a.name.clone(),
            range: if a.ranges.is_some() {
                "missile"
            } else {
                "melee"
            }
            .into(),
            vs: Defense::Ac,
            max_targets: 1,
            basic: false,
            spell: false,
            maneuvers: Vec::new(),
            usage: "at-will".into(),
            action: "attack".into(),
            category: "attack".into(),
            tags: Vec::new(),
        })
        .collect()
}
