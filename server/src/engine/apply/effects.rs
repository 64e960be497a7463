//! The common events of effects (conditions, ongoing damage): applied, armed, ended.

use crate::ecs::access::with;
use crate::ecs::components::*;
use bevy_ecs::prelude::*;
use fray_protocol::event::GameEvent;

/// Folds the effect events (`super::apply` routes only those here).
pub(super) fn apply(world: &mut World, event: &GameEvent) {
    match event {
        GameEvent::EffectApplied { effect } => {
            {
                let mut b = world.resource_mut::<Battle>();
                b.next_effect_id = b.next_effect_id.max(effect.id + 1);
            }
            with::<Effects>(world, &effect.target, |fx| fx.0.push(effect.clone()));
        }
        GameEvent::EffectArmed { target, effect } => with::<Effects>(world, target, |fx| {
            for e in fx.0.iter_mut().filter(|e| e.id == *effect) {
                e.armed = true;
            }
        }),
        GameEvent::EffectEnded { target, effect, .. } => {
            with::<Effects>(world, target, |fx| fx.0.retain(|e| e.id != *effect))
        }
        _ => {}
    }
}
