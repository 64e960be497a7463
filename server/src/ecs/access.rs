//! Reaching a combatant's components from `apply`: by stable id through the `Roster`. Shared by
//! the common fold (`engine::apply`) and every ruleset's own (`rules/<ruleset>/apply.rs`).
//! Every step changes nothing when the combatant or the component is missing (decide never
//! names one that is).

use crate::ecs::components::{Combatant, Position, Roster};
use bevy_ecs::component::Mutable;
use bevy_ecs::prelude::*;
use fray_protocol::ids::{CombatantId, Side};

/// The entity of a combatant.
pub(crate) fn entity(world: &World, id: &CombatantId) -> Option<Entity> {
    world.resource::<Roster>().0.get(id).copied()
}

/// Whether any entity of this world could have a `C`: a component type never registered (the
/// other rulesets' components) needs no roster lookup.
pub(crate) fn known<C: Component>(world: &World) -> bool {
    world.component_id::<C>().is_some()
}

/// Changes component `C` of one combatant, if it has one.
pub(crate) fn with<C: Component<Mutability = Mutable>>(
    world: &mut World,
    id: &CombatantId,
    f: impl FnOnce(&mut C),
) {
    if known::<C>(world)
        && let Some(e) = entity(world, id)
        && let Some(mut c) = world.get_mut::<C>(e)
    {
        f(&mut c);
    }
}

/// Changes component `C` of every combatant that has one. Walks the roster's entities (every
/// combatant entity is in it) rather than building a `QueryState`, which scans the archetypes
/// on every call and cost a fifth of fold time when run for each `turn_started` and
/// `effect_ended` (nor `resource_scope`, which in bevy 0.20 moves the resource's entity between
/// archetypes). The closures are order-independent resets.
pub(crate) fn for_all<C: Component<Mutability = Mutable>>(
    world: &mut World,
    mut f: impl FnMut(&mut C),
) {
    if !known::<C>(world) {
        return;
    }
    let entities: Vec<Entity> = world.resource::<Roster>().0.values().copied().collect();
    for e in entities {
        if let Some(mut c) = world.get_mut::<C>(e) {
            f(&mut c);
        }
    }
}

/// Whether a combatant has component `C`.
pub(crate) fn has<C: Component>(world: &World, id: &CombatantId) -> bool {
    known::<C>(world) && entity(world, id).is_some_and(|e| world.get::<C>(e).is_some())
}

/// Whether a combatant is on `side`.
pub(crate) fn is_side(world: &World, id: &CombatantId, side: Side) -> bool {
    side_of(world, id) == Some(side)
}

/// A combatant's side.
pub(crate) fn side_of(world: &World, id: &CombatantId) -> Option<Side> {
    entity(world, id)
        .and_then(|e| world.get::<Combatant>(e))
        .map(|c| c.side)
}

// --- folds several rulesets share ----------------------------------------------------------

/// Ends every engagement of `id`, on both sides.
pub(crate) fn disengage_all(world: &mut World, id: &CombatantId) {
    let mut others = Vec::new();
    with::<Position>(world, id, |p| {
        others = std::mem::take(&mut p.engaged).into_iter().collect()
    });
    for o in others {
        with::<Position>(world, &o, |p| {
            p.engaged.remove(id);
        });
    }
}

/// Engages two combatants with each other.
pub(crate) fn engage(world: &mut World, a: &CombatantId, b: &CombatantId) {
    with::<Position>(world, a, |p| {
        p.engaged.insert(b.clone());
        p.far_away = false;
    });
    with::<Position>(world, b, |p| {
        p.engaged.insert(a.clone());
        p.far_away = false;
    });
}
