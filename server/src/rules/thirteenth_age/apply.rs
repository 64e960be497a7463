//! 13th Age's part of `apply` (its registry row's `apply` and `after_apply`): the 13th Age
//! family's events. They change only shared components and the battle (its state is all
//! shared), so nothing follows a common event.

use crate::ecs::access::with;
use crate::ecs::access::{disengage_all, engage};
use crate::ecs::components::*;
use bevy_ecs::prelude::*;
use fray_protocol::{GameEvent, ThirteenthAgeEvent};

/// The row's `apply`: a 13th Age event (any other is not this family's).
pub(crate) fn apply_event(world: &mut World, event: &GameEvent) {
    if let GameEvent::ThirteenthAge(e) = event {
        apply(world, e);
    }
}

/// The row's `after_apply`: nothing of 13th Age's own follows an event.
pub(crate) fn after_apply(_: &mut World, _: &GameEvent) {}

/// Folds one 13th Age event.
pub fn apply(world: &mut World, event: &ThirteenthAgeEvent) {
    use ThirteenthAgeEvent as E;
    match event {
        E::Disengaged { .. }
        | E::Engaged { .. }
        | E::LetGo { .. }
        | E::Carried { .. }
        | E::Teleported { .. }
        | E::Intercepted { .. }
        | E::OpportunityOpened { .. } => position(world, event),
        E::EscalationDie { value } => world.resource_mut::<Battle>().escalation = *value,
        E::EscalationHeld { held } => world.resource_mut::<Battle>().escalation_held = *held,
        E::PartyFled => world.resource_mut::<Battle>().fled = true,
        E::PotionUsed { by, .. } => {
            with::<Hero>(world, by, |h| h.potions = h.potions.saturating_sub(1))
        }
        E::FoughtInSpirit { combatant, .. } => {
            let mut b = world.resource_mut::<Battle>();
            b.spirit_used = true;
            let round = b.round;
            b.spirit_rounds.push((combatant.clone(), round));
        }
        E::Readied { combatant, action } => {
            world
                .resource_mut::<Battle>()
                .readied
                .push((combatant.clone(), *action));
        }
        E::DelayEnding { combatant } => {
            world.resource_mut::<Battle>().undelay = Some(combatant.clone())
        }
        E::OrderChanged { order, turn_index } => {
            let mut b = world.resource_mut::<Battle>();
            b.order = order.clone();
            b.turn_index = Some(*turn_index as usize);
        }
        E::LastingWound {
            combatant,
            max_hp_after,
        } => {
            with::<Hero>(world, combatant, |h| h.lasting_wounds += 1);
            with::<HitPoints>(world, combatant, |hp| {
                hp.max = *max_hp_after;
                hp.current = hp.current.min(hp.max);
            });
        }
        E::KnockOutsRuled { allowed } => {
            world.resource_mut::<Battle>().knock_outs_allowed = *allowed
        }
        E::RallyFailed { combatant, round } => {
            with::<Hero>(world, combatant, |h| h.rally_barred_round = Some(*round))
        }
        E::ConfusedAttack { .. }
        | E::MissChance { .. }
        | E::ShotIntoMelee { .. }
        | E::TargetsRolled { .. }
        | E::Resisted { .. }
        | E::ManeuverTriggered { .. }
        | E::AlliesCounted { .. } => {}
    }
}

/// § Position: engagement, popping free, grabs, teleporting, intercepts and opportunity
/// attacks (`apply` routes only those here).
fn position(world: &mut World, event: &ThirteenthAgeEvent) {
    match event {
        ThirteenthAgeEvent::Disengaged { combatant } => {
            disengage_all(world, combatant);
            let mut b = world.resource_mut::<Battle>();
            if b.current() == Some(combatant) {
                b.popped_free = Some(combatant.clone());
            }
        }
        ThirteenthAgeEvent::Engaged { combatant, with } => engage(world, combatant, with),
        ThirteenthAgeEvent::LetGo { grabber, grabbed } => {
            let pair = (grabber.clone(), grabbed.clone());
            let mut b = world.resource_mut::<Battle>();
            if !b.released.contains(&pair) {
                b.released.push(pair);
            }
        }
        ThirteenthAgeEvent::Carried { grabber, grabbed } => {
            // 13th Age § Grabbed: the carried creature is where its grabber went — engaged with
            // it only (the grabber never carries anyone far away).
            disengage_all(world, grabbed);
            engage(world, grabbed, grabber);
        }
        ThirteenthAgeEvent::Teleported {
            combatant,
            engaged,
            far_away,
        } => {
            // § Teleportation: no move — nothing to intercept, no popped-free move spent.
            disengage_all(world, combatant);
            with::<Position>(world, combatant, |p| p.far_away = *far_away);
            if let Some(t) = engaged {
                engage(world, combatant, t);
            }
        }
        ThirteenthAgeEvent::Intercepted { interceptor, mover } => {
            disengage_all(world, mover);
            engage(world, mover, interceptor);
            world.resource_mut::<Battle>().last_mover = None;
        }
        ThirteenthAgeEvent::OpportunityOpened {
            provoker,
            attackers,
            ..
        } => {
            let mut b = world.resource_mut::<Battle>();
            for a in attackers {
                let pair = (a.clone(), provoker.clone());
                if !b.opportunities.contains(&pair) {
                    b.opportunities.push(pair);
                }
            }
        }
        _ => {}
    }
}
