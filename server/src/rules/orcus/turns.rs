//! The Orcus turn machinery (`orcus-basic-rules.txt` § Your turn, § The end of your turn):
//! - between turns: the next combatant in the fixed order (a new round after the last), or the
//!   next one of the surprise round and then the full order;
//! - start of a turn: effects lasting until the start of this combatant's turn end, persistent
//!   damage (the highest of each type), regeneration (the highest source), recharge rolls;
//! - a turn that cannot go on (down, stunned, out of actions) ends by itself;
//! - end of a turn: saves against save-ends effects (one per persistent damage type), effects
//!   lasting until the end of this combatant's next turn expire, the death save;
//! - the battle ends when a side is out; then the seed is revealed.

use super::Board;
use super::commands::{self, deal, initiative_order, restore_hp, spend_recovery};
use super::{riders, rules};
use crate::content::model::Frequency;
use crate::dice;
use crate::ecs::components::{SeedSecret, Stage};
use crate::rules::common::decider::Decider;
use fray_protocol::event::{
    Condition, DamageCause, DamageType, Effect, EffectDuration, EffectEndReason, EffectKind,
    GameEvent, SavePurpose,
};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::state::LifeStatus;
use std::collections::BTreeMap;

/// One pass of the machinery; emits nothing when there is nothing to do.
pub fn advance(d: &mut Decider, b: &Board, secret: &SeedSecret) {
    match d.field.battle.stage {
        Stage::Setup => {}
        Stage::Ended => {
            if !crate::rules::common::reveal::session_goes_on(d) {
                crate::rules::common::reveal::reveal_seed(d, secret);
            }
        }
        Stage::Acting | Stage::BetweenTurns => {
            if let Some(winner) = crate::rules::common::battles::battle_over_without(d, |id| {
                super::skills::surrendered(d, id)
            }) {
                super::sessions::end_battle(d, winner);
                return;
            }
            if d.field.battle.stage == Stage::BetweenTurns {
                begin_next_turn(d, b);
            } else if let Some(current) = d.field.battle.current().cloned()
                && (!commands::can_act(d, &current) || super::mounts::controlled(d, b, &current))
            {
                end_turn(d, b, &current);
            }
        }
    }
}

fn out(d: &mut Decider, id: &CombatantId) -> bool {
    matches!(
        d.status(id),
        Some(LifeStatus::Dead | LifeStatus::Slain) | None
    )
}

fn begin_next_turn(d: &mut Decider, b: &Board) {
    let order = d.field.battle.order.clone();
    if order.is_empty() {
        return;
    }
    if d.field.battle.surprise.is_some() {
        // § Surprise round: the unsurprised act in initiative order; then everyone.
        let mut next = d.field.battle.turn_index.map_or(0, |i| i + 1);
        while let Some(id) = order.get(next) {
            if !out(d, id) {
                d.emit(GameEvent::TurnStarted {
                    combatant: id.clone(),
                    round: 0,
                });
                start_of_turn(d, b, id);
                return;
            }
            next += 1;
        }
        let mut ended = Vec::new();
        let mut placed = Vec::new();
        for f in d.field.all() {
            for e in &f.fx.0 {
                if matches!(e.kind, EffectKind::Condition(Condition::Surprised)) {
                    ended.push((f.c.id.clone(), e.id));
                }
            }
            if let Some(total) = f.init.result {
                placed.push((f.c.id.clone(), total, f.init.bonus, f.c.side));
            }
        }
        for (target, effect) in ended {
            d.emit(GameEvent::EffectEnded {
                target,
                effect,
                reason: EffectEndReason::Expired,
            });
        }
        d.emit(GameEvent::TurnOrder {
            order: initiative_order(placed),
        });
        return;
    }
    let mut index = d.field.battle.turn_index;
    let mut round = d.field.battle.round;
    for _ in 0..=order.len() {
        let next = match index {
            Some(i) if i + 1 < order.len() => i + 1,
            // The GM removed the first combatant on its turn (`combatant_removed`): the round
            // goes on from the top of the order.
            None if round > 0 => 0,
            _ => {
                round += 1;
                d.emit(GameEvent::RoundStarted { round });
                0
            }
        };
        index = Some(next);
        let id = order[next].clone();
        if out(d, &id) {
            continue;
        }
        d.emit(GameEvent::TurnStarted {
            combatant: id.clone(),
            round,
        });
        start_of_turn(d, b, &id);
        return;
    }
}

/// § Your turn: at the start, persistent damage; § Regeneration; § Unusual recharge conditions.
fn start_of_turn(d: &mut Decider, b: &Board, id: &CombatantId) {
    // Effects lasting until the start of this combatant's next turn end; those lasting until
    // the end of its next turn are armed.
    let mut ending = Vec::new();
    let mut arming = Vec::new();
    for f in d.field.all() {
        for e in &f.fx.0 {
            if &e.source != id {
                continue;
            }
            match e.duration {
                EffectDuration::UntilStartOfSourcesNextTurn => {
                    ending.push((f.c.id.clone(), e.clone()))
                }
                EffectDuration::UntilEndOfSourcesNextTurn if !e.armed => {
                    arming.push((f.c.id.clone(), e.id))
                }
                _ => {}
            }
        }
    }
    for (target, effect) in ending {
        riders::end(d, b, &target, &effect, EffectEndReason::Expired);
    }
    for (target, effect) in arming {
        d.emit(GameEvent::EffectArmed { target, effect });
    }
    super::power_effects::start_of_turn(d, b, id);
    // § Persistent damage: X of each type, only the highest of a type.
    for (ty, (effect, amount)) in persistent(d, id) {
        if out(d, id) {
            return;
        }
        deal(d, b, id, amount, DamageCause::Ongoing { effect }, ty, false);
    }
    // § Regeneration: the highest source (Fray: the stat block's value).
    if let Some((_, kit)) = b.get(id)
        && kit.0.regeneration > 0
        && !out(d, id)
        && let Some(v) = d.overlay.vitals(d.field, id)
        && v.current < v.max
    {
        let mut v = v;
        let target_hp = v.current.max(0) + kit.0.regeneration;
        restore_hp(d, id, &mut v, target_hp, false, true);
    }
    // § Recharge X–Y: a d6 for each expended recharge power at the start of a monster's turn.
    if let Some((_, kit)) = b.get(id) {
        let used = d
            .field
            .get(id)
            .map(|f| f.used.0.clone())
            .unwrap_or_default();
        for p in &kit.0.powers {
            let Frequency::Recharge { from, to } = p.frequency else {
                continue;
            };
            if !used.contains(&p.id) || out(d, id) {
                continue;
            }
            let roll = dice::roll_die(d.rng, 6);
            let natural = roll.natural().unwrap_or(0);
            if (from..=to).contains(&natural) {
                d.emit(GameEvent::PowerRegained {
                    combatant: id.clone(),
                    power: p.id.clone(),
                    roll: Some(roll),
                });
            } else {
                d.emit(GameEvent::CheckRolled {
                    combatant: id.clone(),
                    purpose: format!("recharge {}", p.id),
                    roll,
                    bonus: 0,
                    total: i32::try_from(natural).unwrap_or(0),
                    dc: i32::try_from(from).unwrap_or(6),
                    success: false,
                    modifiers: Vec::new(),
                });
            }
        }
    }
}

/// Persistent damage on a combatant: per damage type, the effect with the highest amount.
fn persistent(d: &Decider, id: &CombatantId) -> BTreeMap<Option<DamageType>, (u32, i32)> {
    let mut by_type: BTreeMap<Option<DamageType>, (u32, i32)> = BTreeMap::new();
    if let Some(f) = d.field.get(id) {
        for e in &f.fx.0 {
            if let EffectKind::OngoingDamage {
                amount,
                damage_type,
            } = e.kind
            {
                let slot = by_type.entry(damage_type).or_insert((e.id, amount));
                if amount > slot.1 {
                    *slot = (e.id, amount);
                }
            }
        }
    }
    by_type
}

/// § The end of your turn: saves (one per persistent damage type, one per other save-ends
/// effect), expiring effects, then the death save (§ Death saving throws).
pub fn end_turn(d: &mut Decider, b: &Board, id: &CombatantId) {
    let effects: Vec<Effect> = d.field.get(id).map(|f| f.fx.0.clone()).unwrap_or_default();
    let mut saved_types: BTreeMap<Option<DamageType>, bool> = BTreeMap::new();
    for e in &effects {
        if out(d, id) {
            break;
        }
        let EffectDuration::SaveEnds(difficulty) = e.duration else {
            continue;
        };
        let ok = match e.kind {
            EffectKind::OngoingDamage { damage_type, .. } => match saved_types.get(&damage_type) {
                Some(ok) => *ok,
                None => {
                    let (ok, _) = d.save(id, SavePurpose::Effect(e.id), difficulty.target());
                    saved_types.insert(damage_type, ok);
                    ok
                }
            },
            _ => d.save(id, SavePurpose::Effect(e.id), difficulty.target()).0,
        };
        if ok {
            riders::end(d, b, id, e, EffectEndReason::Saved);
        } else {
            riders::failed_save(d, b, id, e);
        }
    }
    let mut expiring = Vec::new();
    for f in d.field.all() {
        for e in &f.fx.0 {
            if &e.source == id && e.duration == EffectDuration::UntilEndOfSourcesNextTurn && e.armed
            {
                expiring.push((f.c.id.clone(), e.clone()));
            }
        }
    }
    for (target, effect) in expiring {
        if !out(d, &target) {
            riders::end(d, b, &target, &effect, EffectEndReason::Expired);
        }
    }
    super::maneuvers::lapse(d, b, id);
    super::power_effects::end_of_turn(d, b, id);
    death_save(d, b, id);
    d.emit(GameEvent::TurnEnded {
        combatant: id.clone(),
    });
}

/// § Death saving throws: ending a turn at 0 hp or below, a d20: 10+ succeeds (20+ spends a
/// recovery and wakes, still prone), otherwise a failure; the third failure kills. A stabilized
/// hero makes none (§ Stabilize).
fn death_save(d: &mut Decider, b: &Board, id: &CombatantId) {
    let Some(v) = d.overlay.vitals(d.field, id) else {
        return;
    };
    if v.side != Side::Heroes || v.status != LifeStatus::Unconscious || v.current > 0 {
        return;
    }
    let Some((failures, stabilized)) = d
        .field
        .get(id)
        .and_then(|f| f.hero.map(|h| (h.death_save_failures, h.stabilized)))
    else {
        return;
    };
    if stabilized {
        return;
    }
    let (ok, natural) = d.save(id, SavePurpose::Death, rules::DEATH_SAVE);
    if ok {
        if natural >= rules::DEATH_SAVE_REVIVE {
            revive_on_twenty(d, b, id);
        }
        return;
    }
    let failures = failures.saturating_add(1);
    d.emit(GameEvent::DeathSaveFailed {
        combatant: id.clone(),
        failures,
    });
    if failures >= rules::DEATH_SAVE_FAILURES {
        d.emit(GameEvent::Died {
            combatant: id.clone(),
        });
    }
}

/// § Rolling a 20 or higher: spend a recovery, hit points = recovery value, conscious, prone.
fn revive_on_twenty(d: &mut Decider, b: &Board, id: &CombatantId) {
    if let Ok(true) = spend_recovery(d, b, id, false) {
        let eid = d.effect_id();
        d.emit(GameEvent::EffectApplied {
            effect: Effect {
                id: eid,
                target: id.clone(),
                source: id.clone(),
                kind: EffectKind::Condition(Condition::Prone),
                duration: EffectDuration::EndOfBattle,
                armed: false,
            },
        });
    }
}
