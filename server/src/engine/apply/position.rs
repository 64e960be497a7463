//! The common events of position: moving (engaging and disengaging) and opportunity attacks
//! taken (the engagement steps the rulesets' own folds use too are in `ecs::access`).

use crate::ecs::access::{disengage_all, engage, with};
use crate::ecs::components::*;
use bevy_ecs::prelude::*;
use fray_protocol::event::GameEvent;

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
