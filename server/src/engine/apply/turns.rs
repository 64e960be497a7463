//! The common events of initiative, the order of battle, turns and actions.

use crate::ecs::access::with;
use crate::ecs::components::*;
use bevy_ecs::prelude::*;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::CombatantId;
use fray_protocol::state::ActionsLeft;

/// Folds the turn events (`super::apply` routes only those here).
pub(super) fn apply(world: &mut World, event: &GameEvent) {
    match event {
        GameEvent::InitiativeRolled {
            combatants, total, ..
        } => {
            for id in combatants {
                with::<Initiative>(world, id, |i| i.result = Some(*total));
            }
        }
        GameEvent::InitiativeSet {
            combatant,
            initiative,
        } => with::<Initiative>(world, combatant, |i| i.result = Some(*initiative)),
        GameEvent::InitiativeReordered { order, turn_index } => {
            let mut b = world.resource_mut::<Battle>();
            b.order = order.clone();
            b.turn_index = turn_index.map(|i| i as usize);
        }
        GameEvent::TurnOrder { order } => {
            let mut b = world.resource_mut::<Battle>();
            b.order = order.clone();
            b.stage = Stage::BetweenTurns;
            b.turn_index = None;
            b.surprise = None;
        }
        GameEvent::SurpriseRound {
            acting,
            advance_escalation,
        } => {
            let mut b = world.resource_mut::<Battle>();
            b.order = acting.clone();
            b.stage = Stage::BetweenTurns;
            b.turn_index = None;
            b.surprise = Some(*advance_escalation);
        }
        GameEvent::RoundStarted { round } => world.resource_mut::<Battle>().round = *round,
        GameEvent::Delayed { combatant } => {
            {
                let mut b = world.resource_mut::<Battle>();
                b.stage = Stage::BetweenTurns;
                b.delayed.push(combatant.clone());
                b.opportunities
                    .retain(|(_, provoker)| provoker != combatant);
                b.last_mover = None;
                b.popped_free = None;
            }
            with::<ActionBudget>(world, combatant, |a| a.0 = ActionsLeft::NONE);
        }
        GameEvent::ReadiedActionTaken { combatant } => {
            world
                .resource_mut::<Battle>()
                .readied
                .retain(|(c, _)| c != combatant);
        }
        GameEvent::TurnStarted { combatant, .. } => turn_started(world, combatant),
        GameEvent::ActionUsed {
            combatant, spent, ..
        } => {
            with::<ActionBudget>(world, combatant, |a| a.0.spend(*spent));
            // Only a mover that has done nothing since its move may be intercepted.
            let mut b = world.resource_mut::<Battle>();
            if b.last_mover.as_ref() == Some(combatant) {
                b.last_mover = None;
            }
        }
        GameEvent::AttackRolled {
            attacker,
            target,
            outcome,
            ..
        } => {
            let mut b = world.resource_mut::<Battle>();
            if outcome.is_hit()
                && b.current() == Some(attacker)
                && !b.hit_this_turn.contains(target)
            {
                b.hit_this_turn.push(target.clone());
            }
        }
        GameEvent::InterruptUsed { combatant } => {
            with::<InterruptUsed>(world, combatant, |i| i.0 = true)
        }
        GameEvent::PowerExpended { combatant, power } => with::<Expended>(world, combatant, |u| {
            u.0.insert(power.clone());
        }),
        GameEvent::PowerRegained {
            combatant, power, ..
        } => with::<Expended>(world, combatant, |u| {
            u.0.remove(power);
        }),
        GameEvent::TurnEnded { combatant } => {
            // § Interrupt Actions: another one only after the end of your next turn.
            with::<InterruptUsed>(world, combatant, |i| i.0 = false);
            {
                let mut b = world.resource_mut::<Battle>();
                b.stage = Stage::BetweenTurns;
                b.opportunities
                    .retain(|(_, provoker)| provoker != combatant);
                b.last_mover = None;
                b.popped_free = None;
                b.released.clear();
            }
            with::<ActionBudget>(world, combatant, |a| a.0 = ActionsLeft::NONE);
        }
        _ => {}
    }
}

/// A combatant's turn starts: it acts with a full set of actions.
fn turn_started(world: &mut World, combatant: &CombatantId) {
    {
        let mut b = world.resource_mut::<Battle>();
        b.turn_index = b.order.iter().position(|c| c == combatant);
        b.stage = Stage::Acting;
        b.hit_this_turn.clear();
        b.last_mover = None;
        b.popped_free = None;
        b.released.clear();
        // Coming to one's turn ends a delay (§ Delay) and a readied action (§ Readying).
        b.delayed.retain(|c| c != combatant);
        b.readied.retain(|(c, _)| c != combatant);
        if b.undelay.as_ref() == Some(combatant) {
            b.undelay = None;
        }
    }
    with::<ActionBudget>(world, combatant, |a| a.0 = ActionsLeft::FULL);
}
