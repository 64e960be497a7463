//! Five Torches Deep's parts of a session world (its registry row's `parts`): each combatant's
//! sheet and stat block, and the battle state — built from the encounter, read into the state,
//! restored from a snapshot.

use super::components::{FtdField, FtdKit, FtdSheet};
use crate::content::model::{CombatantSpec, Encounter};
use crate::rules::registry::Parts;
use bevy_ecs::prelude::*;
use fray_protocol::ftd::{Advantage, FtdBattle, FtdCombatant};
use fray_protocol::state::{AttackSummary, CombatantState, SessionState};

/// Five Torches Deep's row entry.
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

/// The battle state, fresh.
fn insert_resources(world: &mut World, _: &Encounter) {
    world.insert_resource(FtdField(Some(FtdBattle::default())));
}

/// A combatant's sheet as the session begins (its speed by its load), and its stat block.
fn spawn(e: &mut EntityWorldMut<'_>, spec: &CombatantSpec) {
    let Some(k) = &spec.ftd else { return };
    let mut sheet = FtdCombatant {
        abilities: k.abilities,
        proficiency: k.proficiency,
        class: k.class.clone(),
        hd: k.hd,
        morale_bonus: k.morale_bonus,
        morale_proficient: k.morale_proficient,
        leader: k.leader,
        granted: Advantage::None,
        disadvantage_until_rest: false,
        injuries: Vec::new(),
        fell_round: None,
        departed: None,
        load: k.load,
        coins: k.coins,
        base_speed: k.speed,
        speed: k.speed,
        over_load: 0,
        darksight: k.darksight,
        light: None,
        carried: None,
        hidden: false,
        exhausted: false,
        adventured: 0,
        corruption: None,
        concentration: None,
        xp: 0,
        magic_items: Vec::new(),
        looted: false,
    };
    sheet.refresh_encumbrance();
    e.insert((FtdSheet(sheet), FtdKit(k.clone())));
}

/// A combatant's attacks (`Parts::attacks`).
fn attacks(e: &EntityRef<'_>) -> Vec<AttackSummary> {
    e.get::<FtdKit>()
        .map(|k| super::summaries(&k.0))
        .unwrap_or_default()
}

/// A combatant's `ftd` block.
fn read(e: &EntityRef<'_>, state: &mut CombatantState) {
    state.ftd = e.get::<FtdSheet>().map(|s| s.0.clone());
}

/// The session's `ftd` block.
fn read_session(world: &World, state: &mut SessionState) {
    state.ftd = world.get_resource::<FtdField>().and_then(|f| f.0.clone());
}

/// A combatant's sheet, when the snapshot has one.
fn restore(e: &mut EntityWorldMut<'_>, state: &CombatantState) -> Option<()> {
    if let Some(f) = &state.ftd {
        e.get_mut::<FtdSheet>()?.0 = f.clone();
    }
    Some(())
}

/// The battle state, when the snapshot has one.
fn restore_session(world: &mut World, state: &SessionState) {
    if state.ftd.is_some()
        && let Some(mut f) = world.get_resource_mut::<FtdField>()
    {
        f.0 = state.ftd.clone();
    }
}
