//! The turn machinery: what happens between commands without anyone asking — the end of a
//! turn (ongoing damage, saves, expiring effects), the next turn (new rounds, the escalation die,
//! death saves), automatic ends of turns for combatants that cannot act, the end of the battle
//! and the reveal of the seed.

use super::rules;
use crate::ecs::components::{SeedSecret, Stage};
use crate::rules::common::battles::battle_over;
use crate::rules::common::decider::Decider;
use crate::rules::common::field::has_condition;
use fray_protocol::ThirteenthAgeEvent;
use fray_protocol::event::{
    Condition, DamageCause, EffectDuration, EffectEndReason, EffectKind, GameEvent, SavePurpose,
};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::state::LifeStatus;

/// One pass of the machinery. Emits nothing when there is nothing to do (quiescent).
pub fn advance(d: &mut Decider, secret: &SeedSecret) {
    match d.field.battle.stage {
        Stage::Setup => {}
        Stage::Ended => {
            if !crate::rules::common::reveal::session_goes_on(d) {
                crate::rules::common::reveal::reveal_seed(d, secret);
            }
        }
        Stage::Acting | Stage::BetweenTurns => {
            if let Some(winner) = battle_over(d) {
                end_battle(d, winner);
                return;
            }
            if d.field.battle.stage == Stage::BetweenTurns {
                begin_next_turn(d);
            } else if let Some(current) = d.field.battle.current().cloned()
                && !can_act(d, &current)
            {
                end_turn(d, &current);
            }
        }
    }
}

/// Ends the battle: lasting wounds first (optional rule), then `BattleEnded`.
pub fn end_battle(d: &mut Decider, winner: Option<Side>) {
    // § Optional Lasting-Wound Rule: dropped to 0 hp or below one or more times during the
    // fight → max hp −(2 + level), cumulative.
    if d.field.options.0.lasting_wounds {
        let wounded: Vec<(CombatantId, i32)> = d
            .field
            .all()
            .filter(|f| f.hero.is_some_and(|h| h.dropped) && f.vit.0 != LifeStatus::Dead)
            .map(|f| (f.c.id.clone(), (f.hp.max - (2 + f.c.level)).max(1)))
            .collect();
        for (combatant, max_hp_after) in wounded {
            d.emit(GameEvent::ThirteenthAge(ThirteenthAgeEvent::LastingWound {
                combatant,
                max_hp_after,
            }));
        }
    }
    d.emit(GameEvent::BattleEnded { winner });
}

/// A turn ends by itself when its combatant cannot act: down, stunned, or out of actions.
fn can_act(d: &Decider, id: &CombatantId) -> bool {
    d.field.get(id).is_some_and(|f| {
        f.vit.0 == LifeStatus::Conscious
            && !has_condition(f.fx, Condition::Stunned)
            && !has_condition(f.fx, Condition::Helpless)
            && (f.budget.0.standard || f.budget.0.move_action || f.budget.0.quick)
    })
}

/// § Make Saves Last / § Ongoing Damage: at the end of the turn, ongoing damage, then its save;
/// then saves against save-ends conditions; then effects lasting until the end of this
/// combatant's next turn expire.
pub fn end_turn(d: &mut Decider, id: &CombatantId) {
    let effects = d.field.get(id).map(|f| f.fx.0.clone()).unwrap_or_default();
    for e in effects
        .iter()
        .filter(|e| matches!(e.kind, EffectKind::OngoingDamage { .. }))
    {
        if d.status(id).is_none_or(LifeStatus::is_out) {
            break;
        }
        if let EffectKind::OngoingDamage {
            amount,
            damage_type,
        } = e.kind
        {
            d.damage(
                id,
                amount,
                DamageCause::Ongoing { effect: e.id },
                damage_type,
            );
        }
        save_against(d, id, e);
    }
    for e in effects
        .iter()
        .filter(|e| matches!(e.kind, EffectKind::Condition(_)))
    {
        save_against(d, id, e);
    }
    let mut expiring = Vec::new();
    for (target, fx) in d.field.all_effects() {
        for e in &fx.0 {
            if e.source == *id && e.duration == EffectDuration::UntilEndOfSourcesNextTurn && e.armed
            {
                expiring.push((target.clone(), e.id));
            }
        }
    }
    for (target, effect) in expiring {
        if !d.status(&target).is_none_or(LifeStatus::is_out) {
            d.emit(GameEvent::EffectEnded {
                target,
                effect,
                reason: EffectEndReason::Expired,
            });
        }
    }
    d.emit(GameEvent::TurnEnded {
        combatant: id.clone(),
    });
}

/// A combatant's bonus to saves against effects and to death saves (§ Saves: "magic items that
/// provide small bonuses to saves"; the best item counts, § Stacking Rules). Disengage checks and
/// rally saves don't get it (see docs/rules/13th-age.md, interpretations).
fn save_bonus(d: &Decider, id: &CombatantId) -> fray_protocol::roll::Modifiers {
    let bonus = d
        .field
        .get(id)
        .and_then(|f| f.hero.map(|h| h.spec.save_bonus))
        .unwrap_or(0);
    fray_protocol::roll::Modifiers::new().with("magic item", bonus)
}

fn save_against(d: &mut Decider, id: &CombatantId, e: &fray_protocol::event::Effect) {
    let EffectDuration::SaveEnds(difficulty) = e.duration else {
        return;
    };
    if d.status(id).is_none_or(LifeStatus::is_out) {
        return;
    }
    let bonus = save_bonus(d, id);
    let (ok, _) = d.save_with_bonus(id, SavePurpose::Effect(e.id), difficulty.target(), bonus);
    if ok {
        d.emit(GameEvent::EffectEnded {
            target: id.clone(),
            effect: e.id,
            reason: EffectEndReason::Saved,
        });
    }
}

/// Arms (at the start of the source's next turn) or, for a source whose turn is skipped because
/// it is out of the fight, also expires its `until the end of its next turn` effects.
fn source_turn_effects(d: &mut Decider, source: &CombatantId, skipped: bool) {
    let mut arm = Vec::new();
    let mut expire = Vec::new();
    for (target, fx) in d.field.all_effects() {
        for e in &fx.0 {
            if e.source == *source && e.duration == EffectDuration::UntilEndOfSourcesNextTurn {
                if e.armed || skipped {
                    expire.push((target.clone(), e.id));
                } else {
                    arm.push((target.clone(), e.id));
                }
            }
        }
    }
    for (target, effect) in arm {
        d.emit(GameEvent::EffectArmed { target, effect });
    }
    for (target, effect) in expire {
        d.emit(GameEvent::EffectEnded {
            target,
            effect,
            reason: EffectEndReason::Expired,
        });
    }
}

/// Starts the next turn in the order of battle, starting new rounds as needed and skipping
/// combatants that are out of the fight.
fn begin_next_turn(d: &mut Decider) {
    let order = d.field.battle.order.clone();
    if order.is_empty() {
        return;
    }
    // § Delay: a delaying combatant acting now takes this place in the order for the rest of
    // the battle (its initiative becomes this count).
    if let (Some(actor), Some(last)) = (d.field.battle.undelay.clone(), d.field.battle.turn_index)
        && let Some(last_id) = order.get(last).cloned()
        && d.status(&actor).is_some_and(|s| !s.is_out())
    {
        let mut new_order: Vec<CombatantId> =
            order.iter().filter(|c| **c != actor).cloned().collect();
        let at = new_order
            .iter()
            .position(|c| *c == last_id)
            .map_or(0, |i| i + 1);
        new_order.insert(at, actor.clone());
        d.emit(GameEvent::ThirteenthAge(ThirteenthAgeEvent::OrderChanged {
            order: new_order,
            turn_index: u32::try_from(at.saturating_sub(1)).unwrap_or(0),
        }));
        d.emit(GameEvent::TurnStarted {
            combatant: actor.clone(),
            round: d.field.battle.round,
        });
        source_turn_effects(d, &actor, false);
        if d.status(&actor) == Some(LifeStatus::Unconscious) {
            death_save(d, &actor);
        }
        return;
    }
    if let Some(advance) = d.field.battle.surprise {
        surprise_round(d, &order, advance);
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
                let esc = rules::escalation_next(
                    d.field.battle.escalation,
                    round,
                    d.field.battle.escalation_held,
                );
                if esc != d.field.battle.escalation {
                    d.emit(GameEvent::ThirteenthAge(
                        ThirteenthAgeEvent::EscalationDie { value: esc },
                    ));
                }
                0
            }
        };
        index = Some(next);
        let id = order[next].clone();
        match d.status(&id) {
            Some(LifeStatus::Dead | LifeStatus::Slain | LifeStatus::KnockedOut) | None => {
                source_turn_effects(d, &id, true);
                continue;
            }
            Some(status) => {
                d.emit(GameEvent::TurnStarted {
                    combatant: id.clone(),
                    round,
                });
                source_turn_effects(d, &id, false);
                if status == LifeStatus::Unconscious {
                    death_save(d, &id);
                }
                return;
            }
        }
    }
}

/// § Ambushes and Surprise: the ambush round's turns (round 0), then initiative for the
/// ambushed side and the full order of battle; the escalation die goes to 1 if the GM chose so.
fn surprise_round(d: &mut Decider, order: &[CombatantId], advance: bool) {
    let mut next = d.field.battle.turn_index.map_or(0, |i| i + 1);
    while let Some(id) = order.get(next) {
        if matches!(
            d.status(id),
            Some(LifeStatus::Conscious | LifeStatus::Unconscious)
        ) {
            d.emit(GameEvent::TurnStarted {
                combatant: id.clone(),
                round: 0,
            });
            source_turn_effects(d, id, false);
            return;
        }
        next += 1;
    }
    let Some(ambushers) = order.first().and_then(|a| d.field.get(a)).map(|f| f.c.side) else {
        return;
    };
    let mut placed = super::commands::roll_initiative(d, Some(ambushers.opponent()));
    for f in d.field.all() {
        if f.c.side == ambushers
            && let Some(total) = f.init.result
        {
            placed.push((total, f.init.bonus, f.c.side, f.c.id.clone()));
        }
    }
    super::commands::sort_order(&mut placed);
    d.emit(GameEvent::TurnOrder {
        order: placed.into_iter().map(|p| p.3).collect(),
    });
    if advance {
        d.emit(GameEvent::ThirteenthAge(
            ThirteenthAgeEvent::EscalationDie { value: 1 },
        ));
    }
}

/// § Death saves: d20 at the start of the turn; 16+ spends a recovery and wakes (a natural 20
/// also acts this turn); otherwise one more failure, and the fourth kills.
fn death_save(d: &mut Decider, id: &CombatantId) {
    let Some((failures, stabilized, coma)) = d.field.get(id).and_then(|f| {
        f.hero
            .map(|h| (h.death_save_failures, h.stabilized, h.coma))
    }) else {
        return;
    };
    // § Optional Meaningful Death Rule: a PC in a coma makes no more death saves.
    if coma {
        return;
    }
    let bonus = save_bonus(d, id);
    let (ok, natural) = d.save_with_bonus(id, SavePurpose::Death, rules::DEATH_SAVE_TARGET, bonus);
    if ok {
        // Content is validated on load; a recovery roll cannot fail for a loaded hero.
        let _ = d.spend_recovery(id, natural == 20);
    } else if stabilized {
        // § Stabilizing: a stabilized character ignores failed death saves.
    } else {
        let failures = failures.saturating_add(1);
        d.emit(GameEvent::DeathSaveFailed {
            combatant: id.clone(),
            failures,
        });
        if failures >= rules::DEATH_SAVE_FAILURES_TO_DIE {
            if d.field.options.0.meaningful_death {
                d.emit(GameEvent::FellIntoComa {
                    combatant: id.clone(),
                });
            } else {
                d.emit(GameEvent::Died {
                    combatant: id.clone(),
                });
            }
        }
    }
}
