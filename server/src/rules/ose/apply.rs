//! The B/X core's part of `apply` (the `ose` and `basic-fantasy` rows' `apply` and
//! `after_apply`): the B/X family's events — the encounter (surprise, reaction, side
//! initiative, morale, doors), the round (declarations, spells, phases, movement and melee,
//! held turns, conditions, subdual, levels), exploration (turns, light) — and, for every event,
//! the bookkeeping that folds itself (Basic Fantasy's retainers, experience, days and timed
//! effects; the pursuit) and what the common events change in the sheets and the battle state
//! (`after_apply`, after the shared fold).

use super::components::{OseField, OseSheet};
use crate::ecs::access::{for_all, has, side_of, with};
use crate::ecs::components::*;
use bevy_ecs::prelude::*;
use fray_protocol::ftd::MoraleTrigger;
use fray_protocol::ids::Side;
use fray_protocol::ose::{BurningLight, OseBattle, OseCondition, OseMoveKind, SecretCheck};
use fray_protocol::state::ActionsLeft;
use fray_protocol::{BxEvent, GameEvent};

/// The rows' `apply`: a B/X event (any other is not this family's).
pub(crate) fn apply_event(world: &mut World, event: &GameEvent) {
    if let GameEvent::Bx(e) = event {
        apply(world, e);
    }
}

/// The battle state, in a world that has it.
fn field(world: &mut World) -> Option<&mut OseBattle> {
    world
        .get_resource_mut::<OseField>()
        .and_then(|f| f.into_inner().0.as_mut())
}

/// Folds one B/X event.
pub fn apply(world: &mut World, event: &BxEvent) {
    use BxEvent as E;
    match event {
        E::SurpriseRolled { .. }
        | E::ReactionRolled { .. }
        | E::SideInitiative { .. }
        | E::MoraleRolled { .. }
        | E::DoorForced { .. } => encounter(world, event),
        E::Declared { .. }
        | E::SpellDisrupted { .. }
        | E::PhaseReached { .. }
        | E::RoutineAttack { .. }
        | E::OseMoved { .. }
        | E::MeleeEngaged { .. }
        | E::TurnHeld { .. }
        | E::OseConditionChanged { .. }
        | E::Subdued { .. }
        | E::LevelRaised { .. } => round(world, event),
        E::ExplorationTurnPassed { .. }
        | E::LightLit { .. }
        | E::LightBurnedOut { .. }
        | E::LightDoused { .. } => exploration(world, event),
        // Kept by the bookkeeping that folds itself (`after_apply`), or in no state.
        E::SpellCast { .. }
        | E::EncounterDistanceRolled { .. }
        | E::RetainerHireRolled { .. }
        | E::LoyaltyChecked { .. }
        | E::XpAwarded { .. }
        | E::EncumbranceSet { .. }
        | E::EffectTimed { .. }
        | E::TimedEffectEnded { .. }
        | E::DayPassed { .. }
        | E::WindRolled { .. }
        | E::Sailed { .. }
        | E::DrowningRolled { .. }
        | E::EvasionAttempted { .. }
        | E::PursuitStarted { .. }
        | E::PursuitRoundPassed { .. }
        | E::LureDropped { .. }
        | E::PursuitEnded { .. }
        | E::GaleDamageRolled { .. }
        | E::GaleStruck { .. }
        | E::OseWindRolled { .. }
        | E::Unharmed { .. } => {}
    }
}

/// The encounter: surprise, reaction, side initiative, morale, forced doors.
fn encounter(world: &mut World, event: &BxEvent) {
    match event {
        BxEvent::SurpriseRolled {
            side, surprised, ..
        } => {
            if let Some(f) = field(world) {
                f.surprise_rolled.push(*side);
                if *side == Side::Monsters {
                    f.surprise_spoiled = false;
                }
                if *surprised {
                    f.surprised.push(*side);
                }
            }
        }
        BxEvent::ReactionRolled { reaction, .. } => {
            if let Some(f) = field(world) {
                f.reaction = Some(*reaction);
            }
        }
        BxEvent::SideInitiative {
            rolls,
            simultaneous,
            ..
        } => {
            if let Some(f) = field(world) {
                f.initiative = rolls
                    .iter()
                    .map(|(side, r)| (*side, r.natural().unwrap_or(0)))
                    .collect();
                f.simultaneous = *simultaneous;
            }
        }
        BxEvent::MoraleRolled { results, .. } => {
            for (c, _, holds) in results {
                if *holds {
                    with::<OseSheet>(world, c, |s| {
                        s.0.morale_successes = s.0.morale_successes.saturating_add(1)
                    });
                }
            }
        }
        BxEvent::DoorForced { check, success, .. } => {
            if !success
                && *check != SecretCheck::Bars
                && let Some(f) = field(world)
            {
                f.surprise_spoiled = true;
            }
        }
        _ => {}
    }
}

/// The round: what each combatant declared and did, its movement and melee, its conditions.
fn round(world: &mut World, event: &BxEvent) {
    match event {
        BxEvent::Declared {
            combatant,
            declaration,
        } => with::<OseSheet>(world, combatant, |s| s.0.next = declaration.clone()),
        BxEvent::SpellDisrupted { combatant } => {
            with::<OseSheet>(world, combatant, |s| s.0.disrupted = true)
        }
        BxEvent::PhaseReached { combatant, phase } => {
            with::<OseSheet>(world, combatant, |s| s.0.phase = Some(*phase))
        }
        BxEvent::RoutineAttack { combatant, attack } => {
            with::<OseSheet>(world, combatant, |s| s.0.routine_used.push(attack.clone()))
        }
        BxEvent::OseMoved {
            combatant,
            kind,
            total,
            ..
        } => {
            with::<OseSheet>(world, combatant, |s| {
                // § Movement Outside of Melee, Maximum duration: a round moved at the encounter
                // rate (counted with its first move).
                if *kind == OseMoveKind::Encounter && s.0.moved == 0 {
                    s.0.move_rounds = s.0.move_rounds.saturating_add(1);
                }
                s.0.moved = *total;
            });
            // § In Melee: a fighting withdrawal or a retreat leaves the melee.
            if *kind != OseMoveKind::Encounter {
                for_all::<OseSheet>(world, |s| {
                    if s.0.engaged.contains(combatant) {
                        s.0.engaged.retain(|c| c != combatant);
                    }
                });
                with::<OseSheet>(world, combatant, |s| s.0.engaged.clear());
            }
        }
        BxEvent::MeleeEngaged { attacker, target } => {
            with::<OseSheet>(world, attacker, |s| {
                if !s.0.engaged.contains(target) {
                    s.0.engaged.push(target.clone());
                }
            });
            with::<OseSheet>(world, target, |s| {
                if !s.0.engaged.contains(attacker) {
                    s.0.engaged.push(attacker.clone());
                }
            });
        }
        BxEvent::TurnHeld { combatant, order } => {
            {
                let mut b = world.resource_mut::<Battle>();
                b.order = order.clone();
                b.turn_index = b.turn_index.and_then(|i| i.checked_sub(1));
                b.stage = Stage::BetweenTurns;
            }
            with::<ActionBudget>(world, combatant, |a| a.0 = ActionsLeft::NONE);
            with::<OseSheet>(world, combatant, |s| s.0.acted = false);
        }
        BxEvent::OseConditionChanged {
            combatant,
            condition,
            on,
        } => with::<OseSheet>(world, combatant, |s| {
            if *condition == OseCondition::Exhausted {
                s.0.rested_turns = 0;
            }
            s.0.conditions.retain(|c| c != condition);
            if *on {
                s.0.conditions.push(*condition);
                s.0.conditions.sort();
            }
        }),
        BxEvent::Subdued {
            target, subdual, ..
        } => with::<OseSheet>(world, target, |s| s.0.subdual = *subdual),
        BxEvent::LevelRaised {
            combatant, level, ..
        } => with::<Combatant>(world, combatant, |c| c.level = *level),
        _ => {}
    }
}

/// Exploration: the turn passing, and the lights burning.
fn exploration(world: &mut World, event: &BxEvent) {
    match event {
        BxEvent::ExplorationTurnPassed {
            turn,
            since_rest,
            rested,
        } => {
            if let Some(f) = field(world) {
                let ex = &mut f.exploration;
                ex.turn = *turn;
                ex.since_rest = *since_rest;
                for l in &mut ex.lights {
                    l.turns_left = l.turns_left.saturating_sub(1);
                }
            }
            // § Running, Resting: the party's exhausted characters count their turns of rest.
            let mut q = world.query::<(&Combatant, &mut OseSheet)>();
            for (c, mut s) in q.iter_mut(world) {
                if c.side == Side::Heroes && s.0.conditions.contains(&OseCondition::Exhausted) {
                    s.0.rested_turns = if *rested { s.0.rested_turns + 1 } else { 0 };
                }
            }
        }
        BxEvent::LightLit {
            carrier,
            source,
            turns,
            ..
        } => {
            if let Some(f) = field(world) {
                f.exploration.lights.push(BurningLight {
                    carrier: carrier.clone(),
                    source: *source,
                    turns_left: *turns,
                });
            }
        }
        BxEvent::LightBurnedOut { carrier, source } | BxEvent::LightDoused { carrier, source } => {
            if let Some(f) = field(world) {
                f.exploration
                    .lights
                    .retain(|l| !(&l.carrier == carrier && l.source == *source));
            }
        }
        _ => {}
    }
}

/// The rows' `after_apply`: for every event, the bookkeeping that folds itself; then what the
/// common events change in the sheets and the battle state, after the shared fold.
pub(crate) fn after_apply(world: &mut World, event: &GameEvent) {
    // Basic Fantasy's bookkeeping (retainers, experience, days, timed effects) folds itself.
    if let Some(f) = field(world) {
        f.bf.fold(event);
        fray_protocol::pursuit::fold(&mut f.pursuit, event);
    }
    match event {
        GameEvent::RoundStarted { .. } => {
            // Old-School Essentials § Declare Spells and Melee Movement: the round's
            // declarations.
            for_all::<OseSheet>(world, |s| {
                s.0.declared = s.0.next.take();
                s.0.acted = false;
                s.0.disrupted = false;
                s.0.routine_used.clear();
                s.0.phase = None;
                s.0.moved = 0;
            });
        }
        GameEvent::TurnStarted { combatant, .. } => {
            with::<OseSheet>(world, combatant, |s| s.0.acted = true)
        }
        // Hit points stop at zero, for anyone: B/X has death at 0, no negative hit points.
        GameEvent::Damaged { target, .. } if has::<OseSheet>(world, target) => {
            with::<HitPoints>(world, target, |hp| hp.current = hp.current.max(0));
        }
        GameEvent::MoraleProposed {
            trigger,
            combatants,
        } => {
            let side = combatants.first().and_then(|c| side_of(world, c));
            if let Some(side) = side
                && let Some(f) = field(world)
            {
                match trigger {
                    MoraleTrigger::FirstKill => f.first_death.push(side),
                    MoraleTrigger::HalfIncapacitated => f.half_down.push(side),
                    _ => {}
                }
            }
        }
        GameEvent::LeftBattle { combatant, .. } => {
            with::<OseSheet>(world, combatant, |s| s.0.fled = true)
        }
        GameEvent::SecretRolled {
            check,
            combatant,
            area,
            ..
        } => {
            if let (Some(c), Some(a)) = (combatant, area)
                && let Some(f) = field(world)
            {
                f.exploration.searched.push((*check, c.clone(), a.clone()));
            }
        }
        _ => {}
    }
}
