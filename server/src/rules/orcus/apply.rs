//! Orcus's part of `apply` (its registry row's `apply` and `after_apply`): the Orcus family's
//! events — on the grid, mounts and heights; action points, ammunition and counters; riders,
//! zones and maintained effects; allies and stealth — and what the common events change in
//! the grid state (`after_apply`, after the shared fold).

use super::components::Grid;
use crate::ecs::access::{entity, for_all, has, with};
use crate::ecs::components::*;
use bevy_ecs::prelude::*;
use fray_protocol::event::ActionKind;
use fray_protocol::grid::GridState;
use fray_protocol::ids::CombatantId;
use fray_protocol::state::{ActionsLeft, LifeStatus};
use fray_protocol::{GameEvent, OrcusEvent};

/// The row's `apply`: an Orcus event (any other is not this family's).
pub(crate) fn apply_event(world: &mut World, event: &GameEvent) {
    if let GameEvent::Orcus(e) = event {
        apply(world, e);
    }
}

/// Folds one Orcus event.
pub fn apply(world: &mut World, event: &OrcusEvent) {
    use OrcusEvent as E;
    match event {
        E::GridMoved { .. }
        | E::Mounted { .. }
        | E::Dismounted { .. }
        | E::MountCommanded { .. }
        | E::RiderChoicesMade { .. }
        | E::MovedAloft { .. }
        | E::Fell { .. } => movement(world, event),
        E::ActionPointSpent { .. }
        | E::ActionPointGained { .. }
        | E::AmmunitionUsed { .. }
        | E::ReloadNeeded { .. }
        | E::Reloaded { .. }
        | E::CounterReadied { .. }
        | E::StabilizationEnded { .. }
        | E::ClockAdvanced { .. } => resources(world, event),
        E::RiderAttached { .. }
        | E::Maintained { .. }
        | E::MaintenanceNeeded { .. }
        | E::ZoneCreated { .. }
        | E::ZoneArmed { .. }
        | E::ZoneEnded { .. } => effects(world, event),
        E::AlliesChosen { .. }
        | E::AllyDeclined { .. }
        | E::AlliesReset { .. }
        | E::HitChosen { .. }
        | E::HitByChoice { .. }
        | E::HideChecked { .. }
        | E::Discovered { .. }
        | E::Searched { .. } => choices(world, event),
        E::OrcusXpAwarded {
            monsters, shares, ..
        } => {
            for m in monsters {
                with::<Grid>(world, m, |g| g.0.xp_awarded = true);
            }
            for (hero, _, after) in shares {
                with::<Grid>(world, hero, |g| g.0.xp = *after);
            }
        }
        E::LevelReached { .. } => {}
    }
}

/// Changes the grid state of every rider mounted on `mount` (Orcus § Mounted combat).
fn riders_of(world: &mut World, mount: &CombatantId, mut f: impl FnMut(&mut GridState)) {
    for_all::<Grid>(world, |g| {
        if g.0.mounted_on.as_ref() == Some(mount) {
            f(&mut g.0);
        }
    });
}

/// Moving on the grid, mounts and their riders, heights.
fn movement(world: &mut World, event: &OrcusEvent) {
    match event {
        OrcusEvent::GridMoved {
            combatant, path, ..
        } => {
            if let Some(last) = path.last() {
                with::<Grid>(world, combatant, |g| g.0.square = *last);
                // Orcus § Mounted combat: a rider travels with its mount.
                riders_of(world, combatant, |g| g.square = *last);
            }
        }
        OrcusEvent::Mounted {
            rider,
            mount,
            controlled,
        } => {
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
        OrcusEvent::Dismounted { rider, square, .. } => {
            with::<Grid>(world, rider, |g| {
                g.0.mounted_on = None;
                g.0.controls_mount = false;
                g.0.square = *square;
            });
        }
        OrcusEvent::MountCommanded { mount, action, .. } => {
            with::<ActionBudget>(world, mount, |a| match action {
                ActionKind::Standard => a.0.standard = true,
                ActionKind::Move => a.0.move_action = true,
                ActionKind::Quick => a.0.quick = true,
            });
            with::<Grid>(world, mount, |g| g.0.commanded = true);
        }
        OrcusEvent::RiderChoicesMade {
            rider,
            move_mount,
            landing,
        } => with::<Grid>(world, rider, |g| {
            g.0.moves_mount = *move_mount;
            g.0.landing = *landing;
        }),
        OrcusEvent::MovedAloft { combatant, height } => {
            with::<Grid>(world, combatant, |g| g.0.height = *height);
            riders_of(world, combatant, |g| g.height = *height);
        }
        OrcusEvent::Fell { combatant, .. } => {
            with::<Grid>(world, combatant, |g| g.0.height = 0);
            riders_of(world, combatant, |g| g.height = 0);
        }
        _ => {}
    }
}

/// Action points, ammunition and reloading, readied counters, stabilization, the clock.
fn resources(world: &mut World, event: &OrcusEvent) {
    match event {
        OrcusEvent::ActionPointSpent { combatant, action } => {
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
        OrcusEvent::ActionPointGained { combatant } => with::<Grid>(world, combatant, |g| {
            g.0.action_points = g.0.action_points.saturating_add(1)
        }),
        OrcusEvent::AmmunitionUsed { combatant, count } => {
            with::<Grid>(world, combatant, |g| {
                if let Some(a) = &mut g.0.ammunition {
                    *a -= count;
                }
            });
        }
        OrcusEvent::ReloadNeeded { combatant, power } => with::<Grid>(world, combatant, |g| {
            if !g.0.unloaded.contains(power) {
                g.0.unloaded.push(power.clone())
            }
        }),
        OrcusEvent::Reloaded { combatant, power } => {
            with::<Grid>(world, combatant, |g| g.0.unloaded.retain(|p| p != power))
        }
        OrcusEvent::CounterReadied { combatant, power } => with::<Grid>(world, combatant, |g| {
            g.0.readied_counter = Some(power.clone())
        }),
        OrcusEvent::StabilizationEnded { combatant } => {
            with::<Hero>(world, combatant, |h| h.stabilized = false)
        }
        OrcusEvent::ClockAdvanced { clock, .. } => world.resource_mut::<Battle>().clock = *clock,
        _ => {}
    }
}

/// Saving-throw riders, maintained effects, zones.
fn effects(world: &mut World, event: &OrcusEvent) {
    match event {
        OrcusEvent::RiderAttached { target, rider } => {
            with::<Grid>(world, target, |g| g.0.riders.push(rider.clone()));
        }
        OrcusEvent::Maintained { combatant, effect } => {
            with::<Grid>(world, combatant, |g| g.0.maintained.push(*effect));
        }
        OrcusEvent::MaintenanceNeeded { combatant, effect } => {
            with::<Grid>(world, combatant, |g| {
                g.0.maintain_needed.push(effect.clone())
            })
        }
        OrcusEvent::ZoneCreated { zone } => {
            {
                let mut b = world.resource_mut::<Battle>();
                b.next_effect_id = b.next_effect_id.max(zone.id + 1);
            }
            with::<Grid>(world, &zone.source, |g| g.0.zones.push(zone.clone()));
        }
        OrcusEvent::ZoneArmed { source, zone } => with::<Grid>(world, source, |g| {
            for z in g.0.zones.iter_mut().filter(|z| z.id == *zone) {
                z.armed = true;
            }
        }),
        OrcusEvent::ZoneEnded { source, zone, .. } => with::<Grid>(world, source, |g| {
            g.0.zones.retain(|z| z.id != *zone);
            g.0.maintain_needed.retain(|m| m.effect != *zone);
        }),
        _ => {}
    }
}

/// Choosing allies and being hit by choice; § Stealth.
fn choices(world: &mut World, event: &OrcusEvent) {
    match event {
        OrcusEvent::AlliesChosen { combatant, allies } => with::<Grid>(world, combatant, |g| {
            g.0.chosen_allies = Some(allies.clone())
        }),
        OrcusEvent::AllyDeclined { combatant, user } => with::<Grid>(world, user, |g| {
            if !g.0.declined_by.contains(combatant) {
                g.0.declined_by.push(combatant.clone())
            }
        }),
        OrcusEvent::AlliesReset { combatant } => with::<Grid>(world, combatant, |g| {
            g.0.chosen_allies = None;
            g.0.declined_by.clear();
        }),
        OrcusEvent::HitChosen {
            combatant,
            attacker,
        } => with::<Grid>(world, attacker, |g| {
            if !g.0.hit_chosen_by.contains(combatant) {
                g.0.hit_chosen_by.push(combatant.clone())
            }
        }),
        OrcusEvent::HitByChoice {
            attacker, target, ..
        } => with::<Grid>(world, attacker, |g| {
            g.0.hit_chosen_by.retain(|c| c != target)
        }),
        // Orcus § Stealth.
        OrcusEvent::HideChecked {
            combatant,
            total,
            hidden_from,
            ..
        } => with::<Grid>(world, combatant, |g| {
            g.0.hidden_from = hidden_from.clone();
            g.0.stealth = (!hidden_from.is_empty()).then_some(*total);
        }),
        OrcusEvent::Discovered { combatant, by, .. } => with::<Grid>(world, combatant, |g| {
            g.0.hidden_from.retain(|e| !by.contains(e));
            if g.0.hidden_from.is_empty() {
                g.0.stealth = None;
            }
        }),
        OrcusEvent::Searched { combatant, .. } => {
            with::<Grid>(world, combatant, |g| g.0.searched = true)
        }
        _ => {}
    }
}

/// The row's `after_apply`: what the common events change in the grid state, after the shared
/// fold.
pub(crate) fn after_apply(world: &mut World, event: &GameEvent) {
    match event {
        GameEvent::TurnStarted { combatant, .. } => {
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
        GameEvent::TurnEnded { combatant } => turn_ended(world, combatant),
        // A combatant the GM removed: no one rides it or hides from it any more.
        GameEvent::CombatantRemoved { combatant } => for_all::<Grid>(world, |g| {
            if g.0.mounted_on.as_ref() == Some(combatant) {
                g.0.mounted_on = None;
                g.0.controls_mount = false;
            }
            g.0.hidden_from.retain(|c| c != combatant);
        }),
        GameEvent::OpportunityTaken { attacker, .. } => {
            with::<Grid>(world, attacker, |g| g.0.opportunity_used = true)
        }
        GameEvent::InterruptUsed { combatant } => {
            // Orcus § Immediate actions: one between each of its turns.
            with::<Grid>(world, combatant, |g| {
                g.0.immediate_used = true;
                // A readied counter is used (or can no longer be) once it is spent.
                g.0.readied_counter = None;
            });
        }
        GameEvent::Rallied { combatant } => with::<Grid>(world, combatant, |g| g.0.rallied = true),
        GameEvent::Died { combatant }
        | GameEvent::Slain { combatant }
        | GameEvent::KnockedOut { combatant } => {
            with::<Grid>(world, combatant, |g| g.0.riders.clear());
            // Orcus § Maintain: effects it bore need no more maintaining (its own zones and
            // maintained effects end by events, `maintain::sweep`).
            for_all::<Grid>(world, |g| {
                g.0.maintain_needed
                    .retain(|m| m.target.as_ref() != Some(combatant))
            });
        }
        GameEvent::EffectEnded { target, effect, .. } => {
            with::<Grid>(world, target, |g| {
                g.0.riders.retain(|r| r.effect != *effect)
            });
            // Orcus § Maintain: an ended effect needs no more maintaining.
            for_all::<Grid>(world, |g| {
                g.0.maintain_needed.retain(|m| m.effect != *effect)
            });
        }
        // Orcus § Death saving throws: the failure count resets on a short rest.
        GameEvent::QuickRested { combatant } if has::<Grid>(world, combatant) => {
            with::<Hero>(world, combatant, |h| h.death_save_failures = 0);
        }
        GameEvent::FullHealUp => {
            // Orcus § Long rest: action points reset to 1, and every living hero is up.
            let mut q = world.query::<(&Hero, &mut Grid, &mut Vitality)>();
            for (_, mut g, mut vit) in q.iter_mut(world) {
                if vit.0 != LifeStatus::Dead {
                    g.0.action_points = 1;
                    vit.0 = LifeStatus::Conscious;
                }
            }
        }
        GameEvent::BattleEnded { .. } => for_all::<Grid>(world, |g| {
            g.0.riders.clear();
            g.0.zones.clear();
            g.0.maintain_needed.clear();
        }),
        GameEvent::NewBattle { battle, .. } => new_battle(world, *battle),
        _ => {}
    }
}

/// A turn ends: what was maintained lasts until the end of its user's next turn (§ Maintain);
/// a controlled mount's actions lapse with its rider's turn (§ Controlling a mount).
fn turn_ended(world: &mut World, combatant: &CombatantId) {
    // Orcus § Maintain: what was maintained lasts until the end of its next turn.
    with::<Grid>(world, combatant, |g| g.0.maintained.clear());
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

/// Battle `number` begins (after the shared `enter_battle`): what lasts one encounter starts
/// afresh, and the heroes stand where the battle places them.
fn new_battle(world: &mut World, number: u32) {
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
