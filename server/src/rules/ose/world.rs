//! The B/X core's parts of a session world (the `ose` and `basic-fantasy` rows' `parts`): each
//! combatant's sheet and stat block, and the battle state — built from the encounter, read into
//! the state, restored from a snapshot.

use super::components::{OseField, OseKit, OseSheet};
use crate::content::model::{CombatantSpec, Encounter};
use crate::rules::registry::Parts;
use bevy_ecs::prelude::*;
use fray_protocol::ose::{OseBattle, OseCombatant};
use fray_protocol::state::{AttackSummary, CombatantState, SessionState};

/// The `ose` and `basic-fantasy` rows' entry.
pub(crate) const PARTS: Parts = Parts {
    insert_resources,
    spawn,
    attacks,
    read,
    read_session,
    restore,
    restore_session,
    place: None,
};

/// The battle state, fresh: the session's options, and whether it plays Basic Fantasy.
fn insert_resources(world: &mut World, encounter: &Encounter) {
    world.insert_resource(OseField(Some(OseBattle {
        options: encounter.options.ose,
        basic_fantasy: encounter.ruleset == crate::rules::basic_fantasy::ID,
        ..Default::default()
    })));
}

/// A combatant's sheet as the session begins, and its stat block.
fn spawn(e: &mut EntityWorldMut<'_>, spec: &CombatantSpec) {
    let Some(k) = &spec.ose else { return };
    e.insert((
        OseSheet(OseCombatant {
            class: k.class.clone(),
            hd: k.hd.clone(),
            thac0: k.thac0,
            ac: k.ac,
            shield: k.shield,
            saves: k.saves,
            morale: k.morale,
            morale_successes: 0,
            fled: false,
            declared: None,
            next: None,
            acted: false,
            disrupted: false,
            conditions: Vec::new(),
            subdual: 0,
            routine_used: Vec::new(),
            phase: None,
            moved: 0,
            engaged: Vec::new(),
            darkvision: k.darkvision,
            rested_turns: 0,
            move_rounds: 0,
        }),
        OseKit(k.clone()),
    ));
}

/// A combatant's attacks (`Parts::attacks`).
fn attacks(e: &EntityRef<'_>) -> Vec<AttackSummary> {
    e.get::<OseKit>()
        .map(|k| super::summaries(&k.0))
        .unwrap_or_default()
}

/// A combatant's `ose` block.
fn read(e: &EntityRef<'_>, state: &mut CombatantState) {
    state.ose = e.get::<OseSheet>().map(|s| s.0.clone());
}

/// The session's `ose` block.
fn read_session(world: &World, state: &mut SessionState) {
    state.ose = world.get_resource::<OseField>().and_then(|f| f.0.clone());
}

/// A combatant's sheet, when the snapshot has one.
fn restore(e: &mut EntityWorldMut<'_>, state: &CombatantState) -> Option<()> {
    if let Some(f) = &state.ose {
        e.get_mut::<OseSheet>()?.0 = f.clone();
    }
    Some(())
}

/// The battle state, when the snapshot has one.
fn restore_session(world: &mut World, state: &SessionState) {
    if state.ose.is_some()
        && let Some(mut f) = world.get_resource_mut::<OseField>()
    {
        f.0 = state.ose.clone();
    }
}
