//! The common events of position: moving (engaging and disengaging) and opportunity attacks
//! taken; and the engagement steps the rulesets' own folds use.

use super::access::with;
use crate::engine::components::*;
use bevy_ecs::prelude::*;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::CombatantId;

/// Folds the position events (`super::apply` routes only those here).
pub(super) fn apply(world: &mut World, event: &GameEvent) {
    match event {
        GameEvent::Moved {
            combatant,
            engaged,
            far_away,
        } => {
            disengage_all(world, combatant);
            with::<Position>(world, combatant, |p| p.far_away = *far_away);
            if let Some(t) = engaged {
                engage(world, combatant, t);
            }
            let mut b = world.resource_mut::<Battle>();
            b.last_mover = Some(combatant.clone());
            if b.popped_free.as_ref() == Some(combatant) {
                b.popped_free = None;
            }
        }
        GameEvent::OpportunityTaken { attacker, target } => {
            world
                .resource_mut::<Battle>()
                .opportunities
                .retain(|(a, t)| !(a == attacker && t == target));
        }
        _ => {}
    }
}

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
