//! Orcus's parts of a session world (its registry row's `parts`): each combatant's grid state
//! and powers, and the battle map — built from the encounter, read into the state, restored
//! from a snapshot.

use super::components::{BattleMap, Grid, OrcusKit};
use crate::content::model::{CombatantSpec, Encounter};
use crate::rules::registry::Parts;
use bevy_ecs::prelude::*;
use fray_protocol::grid::GridState;
use fray_protocol::state::{AttackSummary, CombatantState, SessionState};

/// Orcus's row entry.
pub(crate) const PARTS: Parts = Parts {
    insert_resources,
    spawn,
    attacks,
    read,
    read_session,
    restore,
    restore_session: |_, _| {},
    place: Some(place),
};

/// A reinforcement's square (the GM's `add_combatant`).
fn place(spec: &mut CombatantSpec, square: fray_protocol::grid::Square) {
    if let Some(o) = spec.orcus.as_mut() {
        o.square = square;
    }
}

/// The encounter's map (the map is not part of a snapshot: it comes from the encounter).
fn insert_resources(world: &mut World, encounter: &Encounter) {
    world.insert_resource(BattleMap(encounter.map.clone()));
}

/// A combatant's grid state as the battle begins, and its powers.
fn spawn(e: &mut EntityWorldMut<'_>, spec: &CombatantSpec) {
    let Some(o) = &spec.orcus else { return };
    e.insert((
        Grid(GridState {
            square: o.square,
            size: o.size,
            speed: o.speed,
            fortitude: o.fortitude,
            reflex: o.reflex,
            will: o.will,
            rank: o.rank.clone(),
            action_points: o.action_points,
            action_point_round: None,
            opportunity_used: false,
            immediate_used: false,
            recovery_value: o.recovery_value,
            rallied: false,
            riders: Vec::new(),
            maintained: Vec::new(),
            ammunition: o.ammunition,
            mounted_on: None,
            controls_mount: false,
            height: 0,
            unloaded: Vec::new(),
            chosen_allies: None,
            declined_by: Vec::new(),
            hit_chosen_by: Vec::new(),
            moves_mount: false,
            landing: None,
            commanded: false,
            zones: Vec::new(),
            maintain_needed: Vec::new(),
            readied_counter: None,
            hidden_from: Vec::new(),
            stealth: None,
            searched: false,
            xp: 0,
            xp_awarded: false,
        }),
        OrcusKit(o.clone()),
    ));
}

/// A combatant's attacks (`Parts::attacks`).
fn attacks(e: &EntityRef<'_>) -> Vec<AttackSummary> {
    e.get::<OrcusKit>()
        .map(|k| super::summaries(&k.0))
        .unwrap_or_default()
}

/// A combatant's `grid` block.
fn read(e: &EntityRef<'_>, state: &mut CombatantState) {
    state.grid = e.get::<Grid>().map(|g| g.0.clone());
}

/// The session's `map`.
fn read_session(world: &World, state: &mut SessionState) {
    state.map = world
        .get_resource::<BattleMap>()
        .and_then(|m| m.0.clone())
        .map(Box::new);
}

/// A combatant's grid state, when the snapshot has one.
fn restore(e: &mut EntityWorldMut<'_>, state: &CombatantState) -> Option<()> {
    if let Some(g) = &state.grid {
        e.get_mut::<Grid>()?.0 = g.clone();
    }
    Some(())
}
