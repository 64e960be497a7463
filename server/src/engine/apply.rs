//! `apply`: the only code that changes game state. One handler per event kind; it cannot fail.
//! An event that names an unknown combatant changes nothing (decide never emits one).
//!
//! Architecture invariant: apply knows nothing of dice, legality or the log. Given the same
//! state and event it always produces the same state, so folding a log rebuilds the world.

use super::components::*;
use crate::rules::five_torches::components::{FtdField, FtdSheet};
use crate::rules::orcus::components::Grid;
use crate::rules::ose::components::{OseField, OseSheet};
use bevy_ecs::prelude::*;
use fray_protocol::event::{ActionKind, GameEvent};
use fray_protocol::ftd::{
    Advantage, CarriedLight, Injury, MoraleTrigger, TimeDicePurpose, later_in_day,
};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::state::{ActionsLeft, LifeStatus, Phase};
use fray_protocol::{BxEvent, FiveTorchesEvent, OrcusEvent, ThirteenthAgeEvent};

fn entity(world: &World, id: &CombatantId) -> Option<Entity> {
    world.resource::<Roster>().0.get(id).copied()
}

/// Whether any entity of this world could have a `C`: a component type never registered (the
/// other rulesets' components) needs no roster lookup.
fn known<C: Component>(world: &World) -> bool {
    world.component_id::<C>().is_some()
}

fn with<C: Component<Mutability = bevy_ecs::component::Mutable>>(
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
fn for_all<C: Component<Mutability = bevy_ecs::component::Mutable>>(
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

/// Changes the grid state of every rider mounted on `mount` (Orcus § Mounted combat).
fn riders_of(
    world: &mut World,
    mount: &CombatantId,
    mut f: impl FnMut(&mut fray_protocol::grid::GridState),
) {
    for_all::<Grid>(world, |g| {
        if g.0.mounted_on.as_ref() == Some(mount) {
            f(&mut g.0);
        }
    });
}

/// The Five Torches Deep battle state, in a world that has it.
fn ftd_field(world: &mut World) -> Option<&mut fray_protocol::ftd::FtdBattle> {
    world
        .get_resource_mut::<FtdField>()
        .and_then(|f| f.into_inner().0.as_mut())
}

/// The Old-School Essentials battle state, in a world that has it.
fn ose_field(world: &mut World) -> Option<&mut fray_protocol::ose::OseBattle> {
    world
        .get_resource_mut::<OseField>()
        .and_then(|f| f.into_inner().0.as_mut())
}

/// Folds one event into the world.
pub fn apply(world: &mut World, event: &GameEvent) {
    // Basic Fantasy's bookkeeping (retainers, experience, days, timed effects) folds itself.
    if let Some(f) = ose_field(world) {
        f.bf.fold(event);
        fray_protocol::pursuit::fold(&mut f.pursuit, event);
    }
    match event {
        GameEvent::Orcus(OrcusEvent::GridMoved {
            combatant, path, ..
        }) => {
            if let Some(last) = path.last() {
                with::<Grid>(world, combatant, |g| g.0.square = *last);
                // Orcus § Mounted combat: a rider travels with its mount.
                riders_of(world, combatant, |g| g.square = *last);
            }
        }
        GameEvent::Orcus(OrcusEvent::Mounted {
            rider,
            mount,
            controlled,
        }) => {
            let at = entity(world, mount)
                .and_then(|e| world.get::<Grid>(e))
                .map(|g| (g.0.square, g.0.height));
            with::<Grid>(world, rider, |g| {
                g.0.mounted_on = Some(mount.clone());
                g.0.controls_mount = *controlled;
                if let Some((square, height)) = at {
                    g.0.square = square;
                    g.0.height = height;
                }
            });
            if *controlled {
                // § Controlling a mount: it acts only through the actions its rider gives up.
                with::<ActionBudget>(world, mount, |a| a.0 = ActionsLeft::NONE);
            }
        }
        GameEvent::Orcus(OrcusEvent::Dismounted { rider, square, .. }) => {
            with::<Grid>(world, rider, |g| {
                g.0.mounted_on = None;
                g.0.controls_mount = false;
                g.0.square = *square;
            });
        }
        GameEvent::Orcus(OrcusEvent::MountCommanded { mount, action, .. }) => {
            with::<ActionBudget>(world, mount, |a| match action {
                ActionKind::Standard => a.0.standard = true,
                ActionKind::Move => a.0.move_action = true,
                ActionKind::Quick => a.0.quick = true,
            });
            with::<Grid>(world, mount, |g| g.0.commanded = true);
        }
        GameEvent::Orcus(OrcusEvent::MovedAloft { combatant, height }) => {
            with::<Grid>(world, combatant, |g| g.0.height = *height);
            riders_of(world, combatant, |g| g.height = *height);
        }
        GameEvent::Orcus(OrcusEvent::Fell { combatant, .. }) => {
            with::<Grid>(world, combatant, |g| g.0.height = 0);
            riders_of(world, combatant, |g| g.height = 0);
        }
        GameEvent::Orcus(OrcusEvent::ActionPointSpent { combatant, action }) => {
            let round = world.resource::<Battle>().round;
            with::<Grid>(world, combatant, |g| {
                g.0.action_points -= 1;
                g.0.action_point_round = Some(round);
            });
            with::<ActionBudget>(world, combatant, |a| match action {
                ActionKind::Standard => a.0.standard = true,
                ActionKind::Move => a.0.move_action = true,
                ActionKind::Quick => a.0.quick = true,
            });
        }
        GameEvent::Orcus(OrcusEvent::AmmunitionUsed { combatant, count }) => {
            with::<Grid>(world, combatant, |g| {
                if let Some(a) = &mut g.0.ammunition {
                    *a -= count;
                }
            });
        }
        GameEvent::Orcus(OrcusEvent::Maintained { combatant, effect }) => {
            with::<Grid>(world, combatant, |g| g.0.maintained.push(*effect));
        }
        GameEvent::Orcus(OrcusEvent::RiderAttached { target, rider }) => {
            with::<Grid>(world, target, |g| g.0.riders.push(rider.clone()));
        }
        GameEvent::InitiativeReordered { order, turn_index } => {
            let mut b = world.resource_mut::<Battle>();
            b.order = order.clone();
            b.turn_index = turn_index.map(|i| i as usize);
        }
        GameEvent::BattleStarted => {
            world.resource_mut::<Battle>().phase = Phase::Running;
            // 13th Age § Temporary Hit Points: they drop to 0 when you roll initiative.
            for_all::<HitPoints>(world, |hp| hp.temp = 0);
        }
        GameEvent::InitiativeRolled {
            combatants, total, ..
        } => {
            for id in combatants {
                with::<Initiative>(world, id, |i| i.result = Some(*total));
            }
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
        GameEvent::RoundStarted { round } => {
            world.resource_mut::<Battle>().round = *round;
            // Old-School Essentials § Declare Spells and Melee Movement: the round's declarations.
            for_all::<OseSheet>(world, |s| {
                s.0.declared = s.0.next.take();
                s.0.acted = false;
                s.0.disrupted = false;
                s.0.routine_used.clear();
                s.0.phase = None;
                s.0.moved = 0;
            });
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::EscalationDie { value }) => {
            world.resource_mut::<Battle>().escalation = *value
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::EscalationHeld { held }) => {
            world.resource_mut::<Battle>().escalation_held = *held
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::PartyFled) => {
            world.resource_mut::<Battle>().fled = true
        }
        GameEvent::QuickRested { combatant } => {
            // Orcus § Death saving throws: the failure count resets on a short rest.
            let grid = entity(world, combatant).is_some_and(|e| world.get::<Grid>(e).is_some());
            with::<Hero>(world, combatant, |h| {
                h.rested = true;
                if grid {
                    h.death_save_failures = 0;
                }
            });
        }
        GameEvent::SessionEnded => world.resource_mut::<Battle>().session_over = true,
        GameEvent::NewBattle { battle, .. } => enter_battle(world, *battle),
        GameEvent::FullHealUp => {
            let mut q = world.query::<(&mut Hero, &mut HitPoints, &mut Expended, &Vitality)>();
            for (mut h, mut hp, mut used, vit) in q.iter_mut(world) {
                if vit.0 == LifeStatus::Dead {
                    continue;
                }
                hp.max = h.base_max_hp;
                hp.current = hp.max;
                h.recoveries = h.spec.recoveries;
                h.recovery_penalty = 0;
                h.lasting_wounds = 0;
                h.death_save_failures = 0;
                h.rested = false;
                used.0.clear();
            }
            // Orcus § Long rest: action points reset to 1, and every living hero is up.
            let mut q = world.query::<(&Hero, &mut Grid, &mut Vitality)>();
            for (_, mut g, mut vit) in q.iter_mut(world) {
                if vit.0 != LifeStatus::Dead {
                    g.0.action_points = 1;
                    vit.0 = LifeStatus::Conscious;
                }
            }
            // Orcus § Resting: the long rest ends now (one per 24 hours); the encounters
            // counted for action points start afresh.
            let mut b = world.resource_mut::<Battle>();
            b.last_long_rest = Some(b.clock);
            b.encounters_since_long_rest = 0;
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::PotionUsed { by, .. }) => {
            with::<Hero>(world, by, |h| h.potions = h.potions.saturating_sub(1))
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::FoughtInSpirit { combatant, .. }) => {
            let mut b = world.resource_mut::<Battle>();
            b.spirit_used = true;
            let round = b.round;
            b.spirit_rounds.push((combatant.clone(), round));
        }
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
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::Readied { combatant, action }) => {
            world
                .resource_mut::<Battle>()
                .readied
                .push((combatant.clone(), *action));
        }
        GameEvent::ReadiedActionTaken { combatant } => {
            world
                .resource_mut::<Battle>()
                .readied
                .retain(|(c, _)| c != combatant);
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::DelayEnding { combatant }) => {
            world.resource_mut::<Battle>().undelay = Some(combatant.clone())
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::OrderChanged { order, turn_index }) => {
            let mut b = world.resource_mut::<Battle>();
            b.order = order.clone();
            b.turn_index = Some(*turn_index as usize);
        }
        GameEvent::TempHpGained {
            target, temp_after, ..
        } => with::<HitPoints>(world, target, |hp| hp.temp = *temp_after),
        GameEvent::TurnStarted { combatant, .. } => {
            with::<OseSheet>(world, combatant, |s| s.0.acted = true);
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
            // Five Torches Deep § Quick Actions: each turn's quick action maintains a
            // concentration anew.
            with::<FtdSheet>(world, combatant, |s| {
                if let Some(c) = s.0.concentration.as_mut() {
                    c.maintained = false;
                }
            });
            // Orcus § Opportunity attacks: one per turn (every creature's turn);
            // § Immediate actions: one between each of your turns.
            for_all::<Grid>(world, |g| g.0.opportunity_used = false);
            with::<Grid>(world, combatant, |g| {
                g.0.immediate_used = false;
                // § Action required: a readied counter lapses when its user's turn starts.
                g.0.readied_counter = None;
                // § Stealth: one active search per turn.
                g.0.searched = false;
            });
        }
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
            // Five Torches Deep: the GM's grant is used up by the next d20 roll.
            with::<FtdSheet>(world, attacker, |s| s.0.granted = Advantage::None);
            let mut b = world.resource_mut::<Battle>();
            if outcome.is_hit()
                && b.current() == Some(attacker)
                && !b.hit_this_turn.contains(target)
            {
                b.hit_this_turn.push(target.clone());
            }
        }
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
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::Disengaged { combatant }) => {
            disengage_all(world, combatant);
            let mut b = world.resource_mut::<Battle>();
            if b.current() == Some(combatant) {
                b.popped_free = Some(combatant.clone());
            }
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::Engaged { combatant, with }) => {
            engage(world, combatant, with)
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::LetGo { grabber, grabbed }) => {
            let pair = (grabber.clone(), grabbed.clone());
            let mut b = world.resource_mut::<Battle>();
            if !b.released.contains(&pair) {
                b.released.push(pair);
            }
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::Carried { grabber, grabbed }) => {
            // 13th Age § Grabbed: the carried creature is where its grabber went — engaged with
            // it only (the grabber never carries anyone far away).
            disengage_all(world, grabbed);
            engage(world, grabbed, grabber);
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::Teleported {
            combatant,
            engaged,
            far_away,
        }) => {
            // § Teleportation: no move — nothing to intercept, no popped-free move spent.
            disengage_all(world, combatant);
            with::<Position>(world, combatant, |p| p.far_away = *far_away);
            if let Some(t) = engaged {
                engage(world, combatant, t);
            }
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::Intercepted { interceptor, mover }) => {
            disengage_all(world, mover);
            engage(world, mover, interceptor);
            world.resource_mut::<Battle>().last_mover = None;
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::OpportunityOpened {
            provoker,
            attackers,
            ..
        }) => {
            let mut b = world.resource_mut::<Battle>();
            for a in attackers {
                let pair = (a.clone(), provoker.clone());
                if !b.opportunities.contains(&pair) {
                    b.opportunities.push(pair);
                }
            }
        }
        GameEvent::OpportunityTaken { attacker, target } => {
            world
                .resource_mut::<Battle>()
                .opportunities
                .retain(|(a, t)| !(a == attacker && t == target));
            with::<Grid>(world, attacker, |g| g.0.opportunity_used = true);
        }
        GameEvent::Stabilized { combatant, .. } => {
            with::<Hero>(world, combatant, |h| h.stabilized = true)
        }
        GameEvent::Orcus(OrcusEvent::StabilizationEnded { combatant }) => {
            with::<Hero>(world, combatant, |h| h.stabilized = false)
        }
        GameEvent::PowerExpended { combatant, power } => with::<Expended>(world, combatant, |u| {
            u.0.insert(power.clone());
        }),
        GameEvent::PowerRegained {
            combatant, power, ..
        } => with::<Expended>(world, combatant, |u| {
            u.0.remove(power);
        }),
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::ConfusedAttack { .. })
        | GameEvent::ThirteenthAge(ThirteenthAgeEvent::MissChance { .. })
        | GameEvent::ThirteenthAge(ThirteenthAgeEvent::ShotIntoMelee { .. })
        | GameEvent::ThirteenthAge(ThirteenthAgeEvent::TargetsRolled { .. }) => {}
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::Resisted { .. })
        | GameEvent::CoupDeGrace { .. }
        | GameEvent::ThirteenthAge(ThirteenthAgeEvent::ManeuverTriggered { .. }) => {}
        GameEvent::CheckRolled { combatant, .. } => {
            with::<FtdSheet>(world, combatant, |s| s.0.granted = Advantage::None)
        }
        GameEvent::DamageRolled { .. }
        | GameEvent::ThirteenthAge(ThirteenthAgeEvent::AlliesCounted { .. })
        | GameEvent::SaveRolled { .. }
        | GameEvent::Staggered { .. } => {}
        GameEvent::Damaged {
            target,
            amount,
            temp_absorbed,
            ..
        } => {
            // Five Torches Deep § Healing & HP: never below zero, for anyone.
            let floor = is_side(world, target, Side::Monsters)
                || has::<FtdSheet>(world, target)
                || has::<OseSheet>(world, target);
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
        GameEvent::InterruptUsed { combatant } => {
            with::<InterruptUsed>(world, combatant, |i| i.0 = true);
            // Orcus § Immediate actions: one between each of its turns.
            with::<Grid>(world, combatant, |g| {
                g.0.immediate_used = true;
                // A readied counter is used (or can no longer be) once it is spent.
                g.0.readied_counter = None;
            });
        }
        GameEvent::Orcus(OrcusEvent::CounterReadied { combatant, power }) => {
            with::<Grid>(world, combatant, |g| {
                g.0.readied_counter = Some(power.clone())
            })
        }
        // Orcus § Stealth.
        GameEvent::Orcus(OrcusEvent::HideChecked {
            combatant,
            total,
            hidden_from,
            ..
        }) => with::<Grid>(world, combatant, |g| {
            g.0.hidden_from = hidden_from.clone();
            g.0.stealth = (!hidden_from.is_empty()).then_some(*total);
        }),
        GameEvent::Orcus(OrcusEvent::Discovered { combatant, by, .. }) => {
            with::<Grid>(world, combatant, |g| {
                g.0.hidden_from.retain(|e| !by.contains(e));
                if g.0.hidden_from.is_empty() {
                    g.0.stealth = None;
                }
            })
        }
        GameEvent::Orcus(OrcusEvent::Searched { combatant, .. }) => {
            with::<Grid>(world, combatant, |g| g.0.searched = true)
        }
        GameEvent::FellIntoComa { combatant } => with::<Hero>(world, combatant, |h| h.coma = true),
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::LastingWound {
            combatant,
            max_hp_after,
        }) => {
            with::<Hero>(world, combatant, |h| h.lasting_wounds += 1);
            with::<HitPoints>(world, combatant, |hp| {
                hp.max = *max_hp_after;
                hp.current = hp.current.min(hp.max);
            });
        }
        GameEvent::FellUnconscious { combatant } => {
            let round = world.resource::<Battle>().round;
            with::<FtdSheet>(world, combatant, |s| s.0.fell_round = Some(round));
            with::<Hero>(world, combatant, |h| h.dropped = true);
            with::<Vitality>(world, combatant, |v| v.0 = LifeStatus::Unconscious);
            with::<ActionBudget>(world, combatant, |a| a.0 = ActionsLeft::NONE);
        }
        GameEvent::Revived { combatant, can_act } => {
            with::<FtdSheet>(world, combatant, |s| s.0.fell_round = None);
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
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::KnockOutsRuled { allowed }) => {
            world.resource_mut::<Battle>().knock_outs_allowed = *allowed
        }
        GameEvent::DeathSaveFailed {
            combatant,
            failures,
        } => with::<Hero>(world, combatant, |h| h.death_save_failures = *failures),
        GameEvent::Rallied { combatant } => {
            with::<Hero>(world, combatant, |h| h.rallies += 1);
            with::<Grid>(world, combatant, |g| g.0.rallied = true);
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::RallyFailed { combatant, round }) => {
            with::<Hero>(world, combatant, |h| h.rally_barred_round = Some(*round))
        }
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
            with::<Effects>(world, target, |fx| fx.0.retain(|e| e.id != *effect));
            with::<Grid>(world, target, |g| {
                g.0.riders.retain(|r| r.effect != *effect)
            });
            // Orcus § Maintain: an ended effect needs no more maintaining.
            for_all::<Grid>(world, |g| {
                g.0.maintain_needed.retain(|m| m.effect != *effect)
            });
        }
        GameEvent::Orcus(OrcusEvent::ZoneCreated { zone }) => {
            {
                let mut b = world.resource_mut::<Battle>();
                b.next_effect_id = b.next_effect_id.max(zone.id + 1);
            }
            with::<Grid>(world, &zone.source, |g| g.0.zones.push(zone.clone()));
        }
        GameEvent::Orcus(OrcusEvent::ZoneArmed { source, zone }) => {
            with::<Grid>(world, source, |g| {
                for z in g.0.zones.iter_mut().filter(|z| z.id == *zone) {
                    z.armed = true;
                }
            })
        }
        GameEvent::Orcus(OrcusEvent::ZoneEnded { source, zone, .. }) => {
            with::<Grid>(world, source, |g| {
                g.0.zones.retain(|z| z.id != *zone);
                g.0.maintain_needed.retain(|m| m.effect != *zone);
            })
        }
        GameEvent::Orcus(OrcusEvent::MaintenanceNeeded { combatant, effect }) => {
            with::<Grid>(world, combatant, |g| {
                g.0.maintain_needed.push(effect.clone())
            })
        }
        GameEvent::TurnEnded { combatant } => {
            // § Interrupt Actions: another one only after the end of your next turn.
            with::<InterruptUsed>(world, combatant, |i| i.0 = false);
            // Orcus § Maintain: what was maintained lasts until the end of its next turn.
            with::<Grid>(world, combatant, |g| g.0.maintained.clear());
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
            // Orcus § Controlling a mount: what the rider gave up lapses with its turn.
            let mount = entity(world, combatant)
                .and_then(|e| world.get::<Grid>(e))
                .filter(|g| g.0.controls_mount)
                .and_then(|g| g.0.mounted_on.clone());
            if let Some(m) = mount {
                with::<ActionBudget>(world, &m, |a| a.0 = ActionsLeft::NONE);
            }
            for_all::<Grid>(world, |g| g.0.commanded = false);
        }
        GameEvent::BattleEnded { winner } => {
            {
                let mut b = world.resource_mut::<Battle>();
                b.phase = Phase::Ended;
                b.stage = Stage::Ended;
                b.winner = *winner;
            }
            // Effects end with the battle; temporary hit points reset to 0 after a battle.
            for_all::<Effects>(world, |fx| fx.0.clear());
            for_all::<Grid>(world, |g| {
                g.0.riders.clear();
                g.0.zones.clear();
                g.0.maintain_needed.clear();
            });
            for_all::<Position>(world, |p| p.engaged.clear());
            {
                let mut b = world.resource_mut::<Battle>();
                b.opportunities.clear();
                b.released.clear();
            }
            for_all::<HitPoints>(world, |hp| hp.temp = 0);
            for_all::<ActionBudget>(world, |a| a.0 = ActionsLeft::NONE);
            // Orcus § Action points: one more encounter since the last long rest.
            let mut b = world.resource_mut::<Battle>();
            b.encounters_since_long_rest = b.encounters_since_long_rest.saturating_add(1);
        }
        GameEvent::Orcus(OrcusEvent::ClockAdvanced { clock, .. }) => {
            world.resource_mut::<Battle>().clock = *clock
        }
        GameEvent::Orcus(OrcusEvent::ReloadNeeded { combatant, power }) => {
            with::<Grid>(world, combatant, |g| {
                if !g.0.unloaded.contains(power) {
                    g.0.unloaded.push(power.clone())
                }
            })
        }
        GameEvent::Orcus(OrcusEvent::Reloaded { combatant, power }) => {
            with::<Grid>(world, combatant, |g| g.0.unloaded.retain(|p| p != power))
        }
        GameEvent::Orcus(OrcusEvent::AlliesChosen { combatant, allies }) => {
            with::<Grid>(world, combatant, |g| {
                g.0.chosen_allies = Some(allies.clone())
            })
        }
        GameEvent::Orcus(OrcusEvent::AllyDeclined { combatant, user }) => {
            with::<Grid>(world, user, |g| {
                if !g.0.declined_by.contains(combatant) {
                    g.0.declined_by.push(combatant.clone())
                }
            })
        }
        GameEvent::Orcus(OrcusEvent::AlliesReset { combatant }) => {
            with::<Grid>(world, combatant, |g| {
                g.0.chosen_allies = None;
                g.0.declined_by.clear();
            })
        }
        GameEvent::Orcus(OrcusEvent::HitChosen {
            combatant,
            attacker,
        }) => with::<Grid>(world, attacker, |g| {
            if !g.0.hit_chosen_by.contains(combatant) {
                g.0.hit_chosen_by.push(combatant.clone())
            }
        }),
        GameEvent::Orcus(OrcusEvent::RiderChoicesMade {
            rider,
            move_mount,
            landing,
        }) => with::<Grid>(world, rider, |g| {
            g.0.moves_mount = *move_mount;
            g.0.landing = *landing;
        }),
        GameEvent::Orcus(OrcusEvent::HitByChoice {
            attacker, target, ..
        }) => with::<Grid>(world, attacker, |g| {
            g.0.hit_chosen_by.retain(|c| c != target)
        }),
        GameEvent::Orcus(OrcusEvent::ActionPointGained { combatant }) => {
            with::<Grid>(world, combatant, |g| {
                g.0.action_points = g.0.action_points.saturating_add(1)
            })
        }
        GameEvent::SeedRevealed { .. } => world.resource_mut::<Battle>().seed_revealed = true,
        GameEvent::FiveTorches(FiveTorchesEvent::InitiativeScores { scores }) => {
            for (id, dex) in scores {
                with::<Initiative>(world, id, |i| i.result = Some(*dex));
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::AdvantageGranted {
            combatant,
            advantage,
        }) => with::<FtdSheet>(world, combatant, |s| s.0.granted = *advantage),
        GameEvent::FiveTorches(FiveTorchesEvent::InjuryRolled {
            combatant, injury, ..
        }) => with::<FtdSheet>(world, combatant, |s| {
            match injury {
                Injury::AbilityLoss { ability, amount } => {
                    let score = s.0.abilities.get_mut(*ability);
                    *score = (*score - amount).max(0);
                    s.0.refresh_encumbrance();
                }
                Injury::DisadvantageUntilRest => s.0.disadvantage_until_rest = true,
                Injury::Dead | Injury::BodyPart | Injury::Standing { .. } => {}
            }
            s.0.injuries.push(injury.clone());
        }),
        GameEvent::FiveTorches(FiveTorchesEvent::CorruptionChanged {
            combatant,
            corruption,
        }) => with::<FtdSheet>(world, combatant, |s| s.0.corruption = corruption.clone()),
        GameEvent::FiveTorches(FiveTorchesEvent::AbilityDamaged {
            combatant,
            ability,
            score_after,
            ..
        }) => with::<FtdSheet>(world, combatant, |s| {
            *s.0.abilities.get_mut(*ability) = (*score_after).max(0);
            s.0.refresh_encumbrance();
        }),
        GameEvent::MoraleProposed {
            trigger,
            combatants,
        } => {
            if *trigger == MoraleTrigger::FirstKill
                && let Some(f) = ftd_field(world)
            {
                f.kill_proposed = true;
            }
            let side = combatants.first().and_then(|c| {
                entity(world, c)
                    .and_then(|e| world.get::<Combatant>(e))
                    .map(|c| c.side)
            });
            if let Some(side) = side
                && let Some(f) = ose_field(world)
            {
                match trigger {
                    MoraleTrigger::FirstKill => f.first_death.push(side),
                    MoraleTrigger::HalfIncapacitated => f.half_down.push(side),
                    _ => {}
                }
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::MoraleChecked { combatants, .. }) => {
            for c in combatants {
                with::<FtdSheet>(world, c, |s| s.0.granted = Advantage::None);
            }
        }
        GameEvent::LeftBattle { combatant, how } => {
            disengage_all(world, combatant);
            with::<FtdSheet>(world, combatant, |s| s.0.departed = Some(*how));
            with::<OseSheet>(world, combatant, |s| s.0.fled = true);
            with::<ActionBudget>(world, combatant, |a| a.0 = ActionsLeft::NONE);
            with::<Effects>(world, combatant, |fx| fx.0.clear());
            if let Some(f) = ftd_field(world)
                && f.retreat.as_ref() == Some(combatant)
            {
                f.retreat = None;
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::RetreatStarted { combatant }) => {
            if let Some(f) = ftd_field(world) {
                f.retreat = Some(combatant.clone());
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::RetreatFailed { combatant }) => {
            if let Some(f) = ftd_field(world)
                && f.retreat.as_ref() == Some(combatant)
            {
                f.retreat = None;
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::LightSet { combatant, light }) => {
            match combatant {
                Some(c) => with::<FtdSheet>(world, c, |s| s.0.light = *light),
                None => {
                    if let (Some(f), Some(l)) = (ftd_field(world), light) {
                        f.light = *l;
                    }
                }
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::LightCarried {
            combatant,
            source,
            seconds,
        }) => with::<FtdSheet>(world, combatant, |s| {
            s.0.carried = source.map(|source| CarriedLight {
                source,
                seconds_left: *seconds,
            })
        }),
        GameEvent::FiveTorches(FiveTorchesEvent::LightWentOut { combatant, .. }) => {
            with::<FtdSheet>(world, combatant, |s| s.0.carried = None)
        }
        GameEvent::FiveTorches(FiveTorchesEvent::TimePassed { seconds }) => {
            if let Some(f) = ftd_field(world) {
                f.clock = f.clock.saturating_add(*seconds);
                f.time_of_day = f.time_of_day.map(|t| later_in_day(t, *seconds));
            }
            for_all::<FtdSheet>(world, |s| {
                if let Some(l) = &mut s.0.carried {
                    l.seconds_left = l.seconds_left.saturating_sub(*seconds);
                }
                s.0.adventured = s.0.adventured.saturating_add(*seconds);
            });
        }
        GameEvent::FiveTorches(FiveTorchesEvent::TimeDiceRolled {
            purpose: TimeDicePurpose::TimeOfDay,
            hours,
            ..
        })
        | GameEvent::FiveTorches(FiveTorchesEvent::TimeSet { hour: hours }) => {
            if let Some(f) = ftd_field(world) {
                f.time_of_day = Some(hours % 24 * 3600);
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::TimeDiceRolled { .. }) => {}
        GameEvent::FiveTorches(FiveTorchesEvent::TravelTurnRolled { number, .. }) => {
            if let Some(f) = ftd_field(world) {
                f.travel_turns = *number;
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::LoadSet {
            combatant,
            load,
            coins,
        }) => with::<FtdSheet>(world, combatant, |s| {
            s.0.load = *load;
            s.0.coins = *coins;
            s.0.refresh_encumbrance();
        }),
        GameEvent::FiveTorches(FiveTorchesEvent::ExhaustionChanged {
            combatant,
            exhausted,
        }) => with::<FtdSheet>(world, combatant, |s| {
            s.0.exhausted = *exhausted;
            s.0.refresh_encumbrance();
        }),
        GameEvent::FiveTorches(FiveTorchesEvent::Rested { .. }) => {
            for_all::<FtdSheet>(world, |s| {
                s.0.disadvantage_until_rest = false;
                s.0.adventured = 0;
            })
        }
        GameEvent::FiveTorches(FiveTorchesEvent::StealthChanged { combatant, hidden }) => {
            with::<FtdSheet>(world, combatant, |s| s.0.hidden = *hidden)
        }
        GameEvent::FiveTorches(FiveTorchesEvent::Concentrating {
            combatant, effect, ..
        }) => with::<FtdSheet>(world, combatant, |s| {
            s.0.concentration = Some(fray_protocol::ftd::Concentration {
                effect: effect.clone(),
                maintained: true,
            })
        }),
        GameEvent::FiveTorches(FiveTorchesEvent::ConcentrationEnded { combatant, .. }) => {
            with::<FtdSheet>(world, combatant, |s| s.0.concentration = None)
        }
        GameEvent::FiveTorches(FiveTorchesEvent::ReadyDeclared {
            combatant, action, ..
        }) => {
            world
                .resource_mut::<Battle>()
                .readied
                .push((combatant.clone(), *action));
        }
        GameEvent::FiveTorches(FiveTorchesEvent::StealthDcSet { dc }) => {
            if let Some(f) = ftd_field(world) {
                f.stealth_dc = *dc;
            }
        }
        GameEvent::Bx(BxEvent::SurpriseRolled {
            side, surprised, ..
        }) => {
            if let Some(f) = ose_field(world) {
                f.surprise_rolled.push(*side);
                if *side == Side::Monsters {
                    f.surprise_spoiled = false;
                }
                if *surprised {
                    f.surprised.push(*side);
                }
            }
        }
        GameEvent::Bx(BxEvent::ReactionRolled { reaction, .. }) => {
            if let Some(f) = ose_field(world) {
                f.reaction = Some(*reaction);
            }
        }
        GameEvent::Bx(BxEvent::SideInitiative {
            rolls,
            simultaneous,
            ..
        }) => {
            if let Some(f) = ose_field(world) {
                f.initiative = rolls
                    .iter()
                    .map(|(side, r)| (*side, r.natural().unwrap_or(0)))
                    .collect();
                f.simultaneous = *simultaneous;
            }
        }
        GameEvent::Bx(BxEvent::Declared {
            combatant,
            declaration,
        }) => with::<OseSheet>(world, combatant, |s| s.0.next = declaration.clone()),
        GameEvent::Bx(BxEvent::SpellDisrupted { combatant }) => {
            with::<OseSheet>(world, combatant, |s| s.0.disrupted = true)
        }
        GameEvent::Bx(BxEvent::SpellCast { .. }) => {}
        GameEvent::Bx(BxEvent::DoorForced { check, success, .. }) => {
            if !success
                && *check != fray_protocol::ose::SecretCheck::Bars
                && let Some(f) = ose_field(world)
            {
                f.surprise_spoiled = true;
            }
        }
        GameEvent::SecretRolled {
            check,
            combatant,
            area,
            ..
        } => {
            if let (Some(c), Some(a)) = (combatant, area)
                && let Some(f) = ose_field(world)
            {
                f.exploration.searched.push((*check, c.clone(), a.clone()));
            }
        }
        GameEvent::Bx(BxEvent::ExplorationTurnPassed {
            turn,
            since_rest,
            rested,
        }) => {
            if let Some(f) = ose_field(world) {
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
                if c.side == Side::Heroes
                    && s.0
                        .conditions
                        .contains(&fray_protocol::ose::OseCondition::Exhausted)
                {
                    s.0.rested_turns = if *rested { s.0.rested_turns + 1 } else { 0 };
                }
            }
        }
        GameEvent::Bx(BxEvent::LightLit {
            carrier,
            source,
            turns,
            ..
        }) => {
            if let Some(f) = ose_field(world) {
                f.exploration.lights.push(fray_protocol::ose::BurningLight {
                    carrier: carrier.clone(),
                    source: *source,
                    turns_left: *turns,
                });
            }
        }
        GameEvent::Bx(BxEvent::EncounterDistanceRolled { .. }) => {}
        GameEvent::Bx(BxEvent::OseConditionChanged {
            combatant,
            condition,
            on,
        }) => with::<OseSheet>(world, combatant, |s| {
            if *condition == fray_protocol::ose::OseCondition::Exhausted {
                s.0.rested_turns = 0;
            }
            s.0.conditions.retain(|c| c != condition);
            if *on {
                s.0.conditions.push(*condition);
                s.0.conditions.sort();
            }
        }),
        GameEvent::Bx(BxEvent::LightBurnedOut { carrier, source })
        | GameEvent::Bx(BxEvent::LightDoused { carrier, source }) => {
            if let Some(f) = ose_field(world) {
                f.exploration
                    .lights
                    .retain(|l| !(&l.carrier == carrier && l.source == *source));
            }
        }
        GameEvent::Bx(BxEvent::RetainerHireRolled { .. })
        | GameEvent::Bx(BxEvent::LoyaltyChecked { .. })
        | GameEvent::Bx(BxEvent::XpAwarded { .. })
        | GameEvent::Bx(BxEvent::EncumbranceSet { .. })
        | GameEvent::Bx(BxEvent::EffectTimed { .. })
        | GameEvent::Bx(BxEvent::TimedEffectEnded { .. })
        | GameEvent::Bx(BxEvent::DayPassed { .. })
        | GameEvent::Bx(BxEvent::WindRolled { .. })
        | GameEvent::Bx(BxEvent::EvasionAttempted { .. })
        | GameEvent::Bx(BxEvent::PursuitStarted { .. })
        | GameEvent::Bx(BxEvent::PursuitRoundPassed { .. })
        | GameEvent::Bx(BxEvent::LureDropped { .. })
        | GameEvent::Bx(BxEvent::PursuitEnded { .. })
        | GameEvent::Bx(BxEvent::GaleDamageRolled { .. })
        | GameEvent::Bx(BxEvent::GaleStruck { .. })
        | GameEvent::Bx(BxEvent::OseWindRolled { .. })
        | GameEvent::Bx(BxEvent::Unharmed { .. }) => {}
        GameEvent::Bx(BxEvent::LevelRaised {
            combatant, level, ..
        }) => with::<Combatant>(world, combatant, |c| c.level = *level),
        GameEvent::Bx(BxEvent::Subdued {
            target, subdual, ..
        }) => with::<OseSheet>(world, target, |s| s.0.subdual = *subdual),
        GameEvent::Bx(BxEvent::RoutineAttack { combatant, attack }) => {
            with::<OseSheet>(world, combatant, |s| s.0.routine_used.push(attack.clone()))
        }
        GameEvent::Bx(BxEvent::PhaseReached { combatant, phase }) => {
            with::<OseSheet>(world, combatant, |s| s.0.phase = Some(*phase))
        }
        GameEvent::Bx(BxEvent::OseMoved {
            combatant,
            kind,
            total,
            ..
        }) => {
            with::<OseSheet>(world, combatant, |s| {
                // § Movement Outside of Melee, Maximum duration: a round moved at the encounter
                // rate (counted with its first move).
                if *kind == fray_protocol::ose::OseMoveKind::Encounter && s.0.moved == 0 {
                    s.0.move_rounds = s.0.move_rounds.saturating_add(1);
                }
                s.0.moved = *total;
            });
            // § In Melee: a fighting withdrawal or a retreat leaves the melee.
            if *kind != fray_protocol::ose::OseMoveKind::Encounter {
                for_all::<OseSheet>(world, |s| {
                    if s.0.engaged.contains(combatant) {
                        s.0.engaged.retain(|c| c != combatant);
                    }
                });
                with::<OseSheet>(world, combatant, |s| s.0.engaged.clear());
            }
        }
        GameEvent::Bx(BxEvent::MeleeEngaged { attacker, target }) => {
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
        GameEvent::Bx(BxEvent::TurnHeld { combatant, order }) => {
            {
                let mut b = world.resource_mut::<Battle>();
                b.order = order.clone();
                b.turn_index = b.turn_index.and_then(|i| i.checked_sub(1));
                b.stage = Stage::BetweenTurns;
            }
            with::<ActionBudget>(world, combatant, |a| a.0 = ActionsLeft::NONE);
            with::<OseSheet>(world, combatant, |s| s.0.acted = false);
        }
        GameEvent::Bx(BxEvent::MoraleRolled { results, .. }) => {
            for (c, _, holds) in results {
                if *holds {
                    with::<OseSheet>(world, c, |s| {
                        s.0.morale_successes = s.0.morale_successes.saturating_add(1)
                    });
                }
            }
        }
    }
}

/// Sets up battle `number` (from 1) of the session: the monsters on the field leave, that
/// battle's monsters (from the `LaterBattles` resource) come in, and everything that lasts one
/// battle starts afresh — the round, the escalation die, the order of battle, initiative,
/// heroes' death saves, rallies, drops and quick rests. Heroes keep hit points, recoveries,
/// expended powers, lasting wounds and comas. (Also used to restore a snapshot of a later
/// battle.)
pub fn enter_battle(world: &mut World, number: u32) {
    let monsters: Vec<CombatantId> = {
        let mut q = world.query::<&Combatant>();
        q.iter(world)
            .filter(|c| c.side == Side::Monsters)
            .map(|c| c.id.clone())
            .collect()
    };
    for id in monsters {
        if let Some(e) = world.resource_mut::<Roster>().0.remove(&id) {
            world.despawn(e);
        }
    }
    let specs = usize::try_from(number)
        .ok()
        .and_then(|n| n.checked_sub(2))
        .and_then(|i| world.resource::<LaterBattles>().0.get(i).cloned());
    let rules = world.get_resource::<SessionRuleset>().map(|r| r.0);
    for spec in specs.map(|b| b.monsters).unwrap_or_default() {
        let e = super::world::spawn(world, rules, &spec);
        world.resource_mut::<Roster>().0.insert(spec.id.clone(), e);
    }
    {
        let mut b = world.resource_mut::<Battle>();
        b.battle = number;
        b.phase = Phase::Setup;
        b.stage = Stage::Setup;
        b.round = 0;
        b.escalation = 0;
        b.escalation_held = false;
        b.fled = false;
        b.surprise = None;
        b.spirit_used = false;
        b.spirit_rounds.clear();
        b.readied.clear();
        b.delayed.clear();
        b.undelay = None;
        b.order.clear();
        b.turn_index = None;
        b.winner = None;
        b.opportunities.clear();
        b.last_mover = None;
        b.hit_this_turn.clear();
        b.popped_free = None;
        b.released.clear();
    }
    for_all::<Initiative>(world, |i| i.result = None);
    for_all::<InterruptUsed>(world, |i| i.0 = false);
    for_all::<Position>(world, |p| {
        p.engaged.clear();
        p.far_away = false;
    });
    for_all::<Hero>(world, |h| {
        h.death_save_failures = 0;
        h.rallies = 0;
        h.rally_barred_round = None;
        h.dropped = false;
        h.rested = false;
    });
    // Grid rulesets (Orcus): what lasts one encounter starts afresh, and the heroes stand
    // where the battle places them.
    for_all::<Grid>(world, |g| {
        g.0.action_point_round = None;
        g.0.opportunity_used = false;
        g.0.immediate_used = false;
        g.0.commanded = false;
        g.0.rallied = false;
        g.0.maintained.clear();
        g.0.unloaded.clear();
        g.0.chosen_allies = None;
        g.0.declined_by.clear();
        g.0.hit_chosen_by.clear();
        g.0.readied_counter = None;
        g.0.hidden_from.clear();
        g.0.stealth = None;
        g.0.searched = false;
    });
    let placements = usize::try_from(number)
        .ok()
        .and_then(|n| n.checked_sub(2))
        .and_then(|i| world.resource::<LaterBattles>().0.get(i).cloned())
        .map(|b| b.placements)
        .unwrap_or_default();
    for (id, square) in placements {
        with::<Grid>(world, &id, |g| g.0.square = square);
    }
}

fn has<C: Component>(world: &World, id: &CombatantId) -> bool {
    known::<C>(world) && entity(world, id).is_some_and(|e| world.get::<C>(e).is_some())
}

fn is_side(world: &World, id: &CombatantId, side: Side) -> bool {
    entity(world, id)
        .and_then(|e| world.get::<Combatant>(e))
        .is_some_and(|c| c.side == side)
}

/// Ends every engagement of `id`, on both sides.
fn disengage_all(world: &mut World, id: &CombatantId) {
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
fn engage(world: &mut World, a: &CombatantId, b: &CombatantId) {
    with::<Position>(world, a, |p| {
        p.engaged.insert(b.clone());
        p.far_away = false;
    });
    with::<Position>(world, b, |p| {
        p.engaged.insert(a.clone());
        p.far_away = false;
    });
}

fn out_of_fight(world: &mut World, id: &CombatantId, status: LifeStatus) {
    disengage_all(world, id);
    world
        .resource_mut::<Battle>()
        .opportunities
        .retain(|(a, t)| a != id && t != id);
    with::<Vitality>(world, id, |v| v.0 = status);
    with::<Effects>(world, id, |fx| fx.0.clear());
    with::<Grid>(world, id, |g| g.0.riders.clear());
    // Orcus § Maintain: effects it bore need no more maintaining (its own zones and maintained
    // effects end by events, `maintain::sweep`).
    for_all::<Grid>(world, |g| {
        g.0.maintain_needed
            .retain(|m| m.target.as_ref() != Some(id))
    });
    with::<ActionBudget>(world, id, |a| a.0 = ActionsLeft::NONE);
}
