//! The common events of hit points and life: temporary hit points, damage and healing,
//! stabilizing, dropping, reviving, dying and being slain or knocked out, death saves, rallies.

use crate::ecs::access::disengage_all;
use crate::ecs::access::{is_side, with};
use crate::ecs::components::*;
use bevy_ecs::prelude::*;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::state::{ActionsLeft, LifeStatus};

/// Folds the vitals events (`super::apply` routes only those here).
pub(super) fn apply(world: &mut World, event: &GameEvent) {
    match event {
        GameEvent::TempHpGained {
            target, temp_after, ..
        } => with::<HitPoints>(world, target, |hp| hp.temp = *temp_after),
        // A GM override: the change and the temporary hit points, both public.
        GameEvent::HpOverridden {
            target,
            change,
            temp_after,
            ..
        } => with::<HitPoints>(world, target, |hp| {
            hp.current += change;
            hp.temp = *temp_after;
        }),
        GameEvent::Damaged {
            target,
            amount,
            temp_absorbed,
            ..
        } => {
            // A monster's hit points never drop below 0 (a ruleset may floor its heroes' too,
            // in its `after_apply`).
            let floor = is_side(world, target, Side::Monsters);
            with::<HitPoints>(world, target, |hp| {
                hp.temp = (hp.temp - temp_absorbed).max(0);
                hp.current -= amount - temp_absorbed;
                if floor {
                    hp.current = hp.current.max(0);
                }
            });
        }
        GameEvent::Healed {
            target,
            amount,
            recovery_used,
            ..
        } => {
            with::<HitPoints>(world, target, |hp| {
                // 13th Age § Death and Dying: healing while dying starts from 0.
                hp.current = (hp.current.max(0) + amount).min(hp.max);
            });
            if *recovery_used {
                with::<Hero>(world, target, |h| {
                    if h.recoveries > 0 {
                        h.recoveries -= 1;
                    } else {
                        h.recovery_penalty += 1;
                    }
                });
            }
        }
        GameEvent::Stabilized { combatant, .. } => {
            with::<Hero>(world, combatant, |h| h.stabilized = true)
        }
        GameEvent::FellUnconscious { combatant } => {
            with::<Hero>(world, combatant, |h| h.dropped = true);
            with::<Vitality>(world, combatant, |v| v.0 = LifeStatus::Unconscious);
            with::<ActionBudget>(world, combatant, |a| a.0 = ActionsLeft::NONE);
        }
        GameEvent::Revived { combatant, can_act } => {
            with::<Vitality>(world, combatant, |v| v.0 = LifeStatus::Conscious);
            with::<Hero>(world, combatant, |h| h.stabilized = false);
            if !can_act {
                with::<ActionBudget>(world, combatant, |a| a.0 = ActionsLeft::NONE);
            }
        }
        GameEvent::Died { combatant } => out_of_fight(world, combatant, LifeStatus::Dead),
        GameEvent::Slain { combatant } => out_of_fight(world, combatant, LifeStatus::Slain),
        GameEvent::KnockedOut { combatant } => {
            out_of_fight(world, combatant, LifeStatus::KnockedOut)
        }
        GameEvent::DeathSaveFailed {
            combatant,
            failures,
        } => with::<Hero>(world, combatant, |h| h.death_save_failures = *failures),
        GameEvent::Rallied { combatant } => with::<Hero>(world, combatant, |h| h.rallies += 1),
        GameEvent::FellIntoComa { combatant } => with::<Hero>(world, combatant, |h| h.coma = true),
        _ => {}
    }
}

/// A combatant leaves the fight for good (dead, slain, knocked out): no engagement, no
/// opportunity attack by or against it, no effect on it, no action left.
fn out_of_fight(world: &mut World, id: &CombatantId, status: LifeStatus) {
    disengage_all(world, id);
    world
        .resource_mut::<Battle>()
        .opportunities
        .retain(|(a, t)| a != id && t != id);
    with::<Vitality>(world, id, |v| v.0 = status);
    with::<Effects>(world, id, |fx| fx.0.clear());
    with::<ActionBudget>(world, id, |a| a.0 = ActionsLeft::NONE);
}
