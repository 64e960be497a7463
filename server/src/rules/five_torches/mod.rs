//! Five Torches Deep (`five-torches-deep-combat.txt`), first increment: fixed initiative by DEX
//! score with a surprise round for ambushes, delaying and the GM's reordering; active, movement
//! and quick actions (traded down); checks with advantage and disadvantage and proficiency;
//! attacks against AC by ability and kind, in three range bands; critical hits and critical
//! failures doubling damage; 0 hp incapacitation, stabilizing (an ally's check, or healing)
//! with the injury table, and death when a minute and the fight are over; morale; retreat.
//! The second increment adds light, exhaustion, load, torches and the dungeon clock; the third
//! rolling to return (`travel.rs`), chases (`chase.rs`), corruption (`corruption.rs`) and
//! sessions that go on after the battle (`[options] rests = true`). The matrix of rule → code
//! → test is `docs/rules/five-torches-deep.md`.
//!
//! The decide system `decide_pass`, one per pass of the schedule, as in the other rulesets:
//! - with a command pending: checks legality, rolls, emits events;
//! - on the passes after it: the turn machinery until quiescent.
//!
//! Shared machinery: the 13th Age `Field` (read-only battlefield) and `Decider` (session RNG,
//! overlay of hit points and status, events); the engine's `apply` folds the events.

pub mod actions;
pub mod apply;
pub mod bot;
mod chase;
mod commands;
pub mod components;
mod concentration;
pub mod content;
mod corruption;
mod journey;
pub mod rules;
mod time;
mod travel;
mod treasure;
mod turns;
pub(crate) mod world;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_battles;
#[cfg(test)]
mod tests_chase;
#[cfg(test)]
mod tests_clock;
#[cfg(test)]
mod tests_concentration;
#[cfg(test)]
mod tests_corruption;
#[cfg(test)]
mod tests_movement;
#[cfg(test)]
mod tests_session;
#[cfg(test)]
mod tests_time;
#[cfg(test)]
mod tests_travel;
#[cfg(test)]
mod tests_treasure;

use crate::content::model::FtdSpec;
use crate::ecs::components::Roster;
use crate::rules::common::decide::{DecideIo, add_decide_system};
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use components::{FtdField, FtdKit, FtdSheet};
use fray_protocol::event::Defense;
use fray_protocol::ftd::{FtdBattle, FtdCombatant};
use fray_protocol::ids::CombatantId;
use fray_protocol::state::AttackSummary;

/// Ruleset id.
pub const ID: &str = "five-torches-deep";
/// Ruleset version: bump when a rule change alters outcomes.
pub const VERSION: u32 = 7;

/// What decide reads beyond the shared battlefield: each combatant's sheet and stat block, and
/// the battle's Five Torches Deep state.
#[derive(SystemParam)]
pub struct Sheets<'w, 's> {
    field: Res<'w, FtdField>,
    roster: Res<'w, Roster>,
    q: Query<'w, 's, (&'static FtdSheet, &'static FtdKit)>,
}

impl Sheets<'_, '_> {
    /// A combatant's sheet and stat block.
    pub fn get(&self, id: &CombatantId) -> Option<(&FtdCombatant, &FtdSpec)> {
        let e = self.roster.0.get(id)?;
        self.q.get(*e).ok().map(|(s, k)| (&s.0, &k.0))
    }

    /// The battle state (always present in this ruleset's worlds).
    pub fn battle(&self) -> FtdBattle {
        self.field.0.clone().unwrap_or_default()
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

/// What a client needs to offer a Five Torches Deep combatant's attacks.
pub fn summaries(kit: &FtdSpec) -> Vec<AttackSummary> {
    kit.attacks
        .iter()
        .map(|a| AttackSummary {
            id: a.id.clone(),
            name: a.name.clone(),
            range: if a.ranged { "ranged" } else { "close" }.into(),
            vs: Defense::Ac,
            max_targets: 1,
            basic: false,
            spell: matches!(
                a.kind,
                rules::AttackKind::Arcane | rules::AttackKind::Divine
            ),
            maneuvers: Vec::new(),
            usage: "at-will".into(),
            action: "active".into(),
            category: "attack".into(),
            tags: Vec::new(),
        })
        .collect()
}
