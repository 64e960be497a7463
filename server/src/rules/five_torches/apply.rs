//! Five Torches Deep's part of `apply` (its registry row's `apply` and `after_apply`): the
//! family's events — the sheet (advantage, injuries, corruption, ability damage, load,
//! exhaustion, stealth, concentration, rest), the battle and the dungeon (initiative scores,
//! morale, retreat, light, time, travel turns) — and what the common events change in the
//! sheets and the battle state (`after_apply`, after the shared fold).

use super::components::{FtdField, FtdSheet};
use crate::ecs::access::{for_all, has, with};
use crate::ecs::components::*;
use bevy_ecs::prelude::*;
use fray_protocol::ftd::{
    Advantage, CarriedLight, Concentration, FtdBattle, Injury, MoraleTrigger, TimeDicePurpose,
    TreasureSource, later_in_day,
};
use fray_protocol::{FiveTorchesEvent, GameEvent};

/// The row's `apply`: a Five Torches Deep event (any other is not this family's).
pub(crate) fn apply_event(world: &mut World, event: &GameEvent) {
    if let GameEvent::FiveTorches(e) = event {
        apply(world, e);
    }
}

/// § Treasure: coins (their weight), experience, magic items held or sold, an enemy looted.
fn treasure(world: &mut World, event: &FiveTorchesEvent) {
    let FiveTorchesEvent::TreasureGained {
        combatant,
        coins,
        xp,
        source,
        ..
    } = event
    else {
        return;
    };
    with::<FtdSheet>(world, combatant, |s| {
        s.0.coins = s.0.coins.saturating_add(*coins);
        s.0.xp = s.0.xp.saturating_add(*xp);
        match source {
            TreasureSource::MagicItem { item } => s.0.magic_items.push(item.clone()),
            TreasureSource::Sale { name } => {
                if let Some(i) = s.0.magic_items.iter().position(|m| &m.name == name) {
                    s.0.magic_items.remove(i);
                }
            }
            _ => {}
        }
        s.0.refresh_encumbrance();
    });
    if let TreasureSource::Loot { enemy } = source {
        with::<FtdSheet>(world, enemy, |s| s.0.looted = true);
    }
}

/// The battle state, in a world that has it.
fn field(world: &mut World) -> Option<&mut FtdBattle> {
    world
        .get_resource_mut::<FtdField>()
        .and_then(|f| f.into_inner().0.as_mut())
}

/// Folds one Five Torches Deep event.
pub fn apply(world: &mut World, event: &FiveTorchesEvent) {
    use FiveTorchesEvent as E;
    match event {
        E::AdvantageGranted { .. }
        | E::InjuryRolled { .. }
        | E::CorruptionChanged { .. }
        | E::AbilityDamaged { .. }
        | E::LoadSet { .. }
        | E::ExhaustionChanged { .. }
        | E::StealthChanged { .. }
        | E::Concentrating { .. }
        | E::ConcentrationEnded { .. }
        | E::Rested { .. } => sheet(world, event),
        E::TreasureGained { .. } => treasure(world, event),
        // The days' travel turns and time passing follow as their own events.
        E::Traveled { .. } => {}
        E::InitiativeScores { .. }
        | E::ReadyDeclared { .. }
        | E::MoraleChecked { .. }
        | E::RetreatStarted { .. }
        | E::RetreatFailed { .. }
        | E::StealthDcSet { .. } => battle(world, event),
        E::LightSet { .. }
        | E::LightCarried { .. }
        | E::LightWentOut { .. }
        | E::TimePassed { .. }
        | E::TimeDiceRolled { .. }
        | E::TimeSet { .. }
        | E::TravelTurnRolled { .. } => dungeon(world, event),
    }
}

/// A combatant's sheet.
fn sheet(world: &mut World, event: &FiveTorchesEvent) {
    match event {
        FiveTorchesEvent::AdvantageGranted {
            combatant,
            advantage,
        } => with::<FtdSheet>(world, combatant, |s| s.0.granted = *advantage),
        FiveTorchesEvent::InjuryRolled {
            combatant, injury, ..
        } => with::<FtdSheet>(world, combatant, |s| {
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
        FiveTorchesEvent::CorruptionChanged {
            combatant,
            corruption,
        } => with::<FtdSheet>(world, combatant, |s| s.0.corruption = corruption.clone()),
        FiveTorchesEvent::AbilityDamaged {
            combatant,
            ability,
            score_after,
            ..
        } => with::<FtdSheet>(world, combatant, |s| {
            *s.0.abilities.get_mut(*ability) = (*score_after).max(0);
            s.0.refresh_encumbrance();
        }),
        FiveTorchesEvent::LoadSet {
            combatant,
            load,
            coins,
        } => with::<FtdSheet>(world, combatant, |s| {
            s.0.load = *load;
            s.0.coins = *coins;
            s.0.refresh_encumbrance();
        }),
        FiveTorchesEvent::ExhaustionChanged {
            combatant,
            exhausted,
        } => with::<FtdSheet>(world, combatant, |s| {
            s.0.exhausted = *exhausted;
            s.0.refresh_encumbrance();
        }),
        FiveTorchesEvent::StealthChanged { combatant, hidden } => {
            with::<FtdSheet>(world, combatant, |s| s.0.hidden = *hidden)
        }
        FiveTorchesEvent::Concentrating {
            combatant, effect, ..
        } => with::<FtdSheet>(world, combatant, |s| {
            s.0.concentration = Some(Concentration {
                effect: effect.clone(),
                maintained: true,
            })
        }),
        FiveTorchesEvent::ConcentrationEnded { combatant, .. } => {
            with::<FtdSheet>(world, combatant, |s| s.0.concentration = None)
        }
        FiveTorchesEvent::Rested { .. } => for_all::<FtdSheet>(world, |s| {
            s.0.disadvantage_until_rest = false;
            s.0.adventured = 0;
        }),
        _ => {}
    }
}

/// The battle: initiative scores, readied actions, morale, retreat, the stealth DC.
fn battle(world: &mut World, event: &FiveTorchesEvent) {
    match event {
        FiveTorchesEvent::InitiativeScores { scores } => {
            for (id, dex) in scores {
                with::<Initiative>(world, id, |i| i.result = Some(*dex));
            }
        }
        FiveTorchesEvent::ReadyDeclared {
            combatant, action, ..
        } => {
            world
                .resource_mut::<Battle>()
                .readied
                .push((combatant.clone(), *action));
        }
        FiveTorchesEvent::MoraleChecked { combatants, .. } => {
            for c in combatants {
                with::<FtdSheet>(world, c, |s| s.0.granted = Advantage::None);
            }
        }
        FiveTorchesEvent::RetreatStarted { combatant } => {
            if let Some(f) = field(world) {
                f.retreat = Some(combatant.clone());
            }
        }
        FiveTorchesEvent::RetreatFailed { combatant } => {
            if let Some(f) = field(world)
                && f.retreat.as_ref() == Some(combatant)
            {
                f.retreat = None;
            }
        }
        FiveTorchesEvent::StealthDcSet { dc } => {
            if let Some(f) = field(world) {
                f.stealth_dc = *dc;
            }
        }
        _ => {}
    }
}

/// The dungeon: light, time, travel turns.
fn dungeon(world: &mut World, event: &FiveTorchesEvent) {
    match event {
        FiveTorchesEvent::LightSet { combatant, light } => match combatant {
            Some(c) => with::<FtdSheet>(world, c, |s| s.0.light = *light),
            None => {
                if let (Some(f), Some(l)) = (field(world), light) {
                    f.light = *l;
                }
            }
        },
        FiveTorchesEvent::LightCarried {
            combatant,
            source,
            seconds,
        } => with::<FtdSheet>(world, combatant, |s| {
            s.0.carried = source.map(|source| CarriedLight {
                source,
                seconds_left: *seconds,
            })
        }),
        FiveTorchesEvent::LightWentOut { combatant, .. } => {
            with::<FtdSheet>(world, combatant, |s| s.0.carried = None)
        }
        FiveTorchesEvent::TimePassed { seconds } => {
            if let Some(f) = field(world) {
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
        FiveTorchesEvent::TimeDiceRolled {
            purpose: TimeDicePurpose::TimeOfDay,
            hours,
            ..
        }
        | FiveTorchesEvent::TimeSet { hour: hours } => {
            if let Some(f) = field(world) {
                f.time_of_day = Some(hours % 24 * 3600);
            }
        }
        FiveTorchesEvent::TravelTurnRolled { number, .. } => {
            if let Some(f) = field(world) {
                f.travel_turns = *number;
            }
        }
        _ => {}
    }
}

/// The row's `after_apply`: what the common events change in the sheets and the battle state,
/// after the shared fold.
pub(crate) fn after_apply(world: &mut World, event: &GameEvent) {
    match event {
        GameEvent::TurnStarted { combatant, .. } => {
            // Five Torches Deep § Quick Actions: each turn's quick action maintains a
            // concentration anew.
            with::<FtdSheet>(world, combatant, |s| {
                if let Some(c) = s.0.concentration.as_mut() {
                    c.maintained = false;
                }
            });
        }
        GameEvent::AttackRolled { attacker, .. } => {
            // Five Torches Deep: the GM's grant is used up by the next d20 roll.
            with::<FtdSheet>(world, attacker, |s| s.0.granted = Advantage::None)
        }
        GameEvent::CheckRolled { combatant, .. } => {
            with::<FtdSheet>(world, combatant, |s| s.0.granted = Advantage::None)
        }
        // Five Torches Deep § Healing & HP: never below zero, for anyone.
        GameEvent::Damaged { target, .. } if has::<FtdSheet>(world, target) => {
            with::<HitPoints>(world, target, |hp| hp.current = hp.current.max(0));
        }
        GameEvent::FellUnconscious { combatant } => {
            let round = world.resource::<Battle>().round;
            with::<FtdSheet>(world, combatant, |s| s.0.fell_round = Some(round));
        }
        GameEvent::Revived { combatant, .. } => {
            with::<FtdSheet>(world, combatant, |s| s.0.fell_round = None)
        }
        GameEvent::MoraleProposed { trigger, .. } => {
            if *trigger == MoraleTrigger::FirstKill
                && let Some(f) = field(world)
            {
                f.kill_proposed = true;
            }
        }
        GameEvent::NewBattle { .. } => new_battle(world),
        GameEvent::LeftBattle { combatant, how } => {
            with::<FtdSheet>(world, combatant, |s| s.0.departed = Some(*how));
            if let Some(f) = field(world)
                && f.retreat.as_ref() == Some(combatant)
            {
                f.retreat = None;
            }
        }
        _ => {}
    }
}

/// A later battle begins (after the shared `enter_battle`): what lasted the last battle's scene
/// ends — a PC who fled, surrendered or escaped is with the party again, stealth ends (the new
/// foes are the GM's to place; an ambush is `start_battle`'s surprised list), no retreat waits
/// and the first kill's morale check is the new battle's to propose.
fn new_battle(world: &mut World) {
    for_all::<FtdSheet>(world, |s| {
        s.0.departed = None;
        s.0.hidden = false;
        s.0.fell_round = None;
    });
    if let Some(f) = field(world) {
        f.retreat = None;
        f.kill_proposed = false;
    }
}
