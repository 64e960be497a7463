//! Orcus (`orcus-basic-rules.txt`): a tactical ruleset on a square grid — initiative with
//! shared rolls for identical creatures, a surprise round, standard/move/swift actions with
//! action points, movement along paths with opportunity attacks, melee, ranged and area attacks
//! with the circumstance modifiers (off-guard, flanking, prone, long range, …), critical hits
//! for maximum damage, persistent damage and saves (10+), dying and death saves, rally and
//! stabilize. The matrix of rule → code → test is `docs/rules/orcus.md`.
//!
//! The decide system `decide_pass`, one per pass of the schedule:
//! - with a command pending: checks legality, rolls, emits events, then the sweeps over what
//!   the command changed (grapples, mounts, falls, maintained effects, hiding:
//!   `stealth::sweep`);
//! - on the passes after it: the turn machinery until quiescent (falls and hiding swept after
//!   a pass that changed something).

pub mod actions;
pub mod aloft;
pub mod apply;
mod areas;
pub mod armor;
pub mod bot;
pub mod checks;
mod commands;
pub mod components;
pub mod content;
mod counters;
pub mod elevation;
pub mod experience;
mod forced;
mod free;
pub mod geometry;
pub mod grid;
pub mod loading;
mod maintain;
pub mod maneuvers;
pub mod mounts;
mod personal;
mod power_effects;
pub mod preview;
pub mod rests;
pub mod riders;
pub mod rules;
mod secondary;
pub mod senses;
pub mod sessions;
pub mod skills;
mod stealth;
pub mod tables;
pub mod tags;
pub mod targets;
mod turns;
mod walks;
pub mod weapons;
pub(crate) mod world;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_abilities;
#[cfg(test)]
mod tests_aloft;
#[cfg(test)]
mod tests_armor;
#[cfg(test)]
mod tests_audit;
#[cfg(test)]
mod tests_checks;
#[cfg(test)]
mod tests_conditions;
#[cfg(test)]
mod tests_counters;
#[cfg(test)]
mod tests_elevation;
#[cfg(test)]
mod tests_forced;
#[cfg(test)]
mod tests_free_actions;
#[cfg(test)]
mod tests_loading;
#[cfg(test)]
mod tests_maintain;
#[cfg(test)]
mod tests_maneuvers;
#[cfg(test)]
mod tests_mounts;
#[cfg(test)]
mod tests_movement;
#[cfg(test)]
mod tests_power_effects;
#[cfg(test)]
mod tests_preview;
#[cfg(test)]
mod tests_riders;
#[cfg(test)]
mod tests_secondary;
#[cfg(test)]
mod tests_senses;
#[cfg(test)]
mod tests_sessions;
#[cfg(test)]
mod tests_skills;
#[cfg(test)]
mod tests_stealth;
#[cfg(test)]
mod tests_tags;
#[cfg(test)]
mod tests_targets;
#[cfg(test)]
mod tests_universal;
#[cfg(test)]
mod tests_vision;
#[cfg(test)]
mod tests_weapons;

use crate::content::model::OrcusSpec;
use crate::ecs::components::Roster;
use crate::rules::common::decide::{DecideIo, add_decide_system};
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use components::{BattleMap, Grid, OrcusKit};
use fray_protocol::ids::CombatantId;
use fray_protocol::state::AttackSummary;

/// Ruleset id.
pub const ID: &str = "orcus";
/// Ruleset version: bump when a rule change alters outcomes.
pub const VERSION: u32 = 27;

/// What decide reads beyond the shared battlefield: the grid part of each combatant, its
/// powers, and the map.
#[derive(SystemParam)]
pub struct Board<'w, 's> {
    /// The map.
    pub map: Res<'w, BattleMap>,
    roster: Res<'w, Roster>,
    q: Query<'w, 's, (&'static Grid, &'static OrcusKit)>,
}

impl Board<'_, '_> {
    /// A combatant's grid state and kit.
    pub fn get(&self, id: &CombatantId) -> Option<(&Grid, &OrcusKit)> {
        let e = self.roster.0.get(id)?;
        self.q.get(*e).ok()
    }
}

/// The ruleset's decide system: the pending command, then the sweeps after it; or a pass of
/// the turn machinery.
fn decide_pass(mut io: DecideIo, board: Board) {
    // The sweeps cannot refuse a command: a check (the legal actions) leaves them out.
    let checking = io.checking();
    io.pass(
        |d, cmd| {
            commands::decide(d, &board, cmd)?;
            if checking {
                return Ok(());
            }
            maneuvers::sweep(d, &board);
            mounts::sweep(d, &board);
            elevation::sweep(d, &board);
            maintain::sweep(d, &board);
            stealth::sweep(d, &board);
            Ok(())
        },
        |d, secret| {
            turns::advance(d, &board, secret);
            // Falling: a creature the turn machinery leaves unable to stay up (dropped by
            // persistent damage, say) falls in the same pass, as after a command.
            if !d.events().is_empty() {
                elevation::sweep(d, &board);
                stealth::sweep(d, &board);
            }
        },
    );
}

/// Adds the ruleset's decide system.
pub fn add_systems(schedule: &mut Schedule) {
    add_decide_system(schedule, decide_pass);
}

/// What a client needs to offer an Orcus combatant's powers.
pub fn summaries(kit: &OrcusSpec) -> Vec<AttackSummary> {
    kit.powers
        .iter()
        .map(|p| AttackSummary {
            id: p.id.clone(),
            name: p.name.clone(),
            range: p.origin.describe().into(),
            vs: p.vs,
            max_targets: p.max_targets,
            basic: p.basic,
            spell: false,
            maneuvers: Vec::new(),
            usage: p.frequency.describe().into(),
            action: match p.action {
                crate::content::model::ActionCost::Standard => "standard",
                crate::content::model::ActionCost::Move => "move",
                crate::content::model::ActionCost::Swift => "swift",
                crate::content::model::ActionCost::ImmediateCounter => "immediate counter",
                crate::content::model::ActionCost::ImmediateReaction => "immediate reaction",
                crate::content::model::ActionCost::Free => "free",
            }
            .into(),
            category: p.category.name().into(),
            tags: p.tags.clone(),
        })
        .collect()
}
