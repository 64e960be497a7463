//! The Old-School Essentials round (`ose-adventuring.txt` § Combat Sequence Per Round):
//! - each round: the declarations made for it take effect, each acting side rolls a d6
//!   (§ Initiative; ties rerolled or resolved simultaneously, the session's option); the
//!   winning side's combatants act, then the other side's (in id order; a member may hold to act
//!   later within its side, `round.rs`), and combatants whose
//!   attacks are all slow act last (§ Slow Weapons); in the first round a surprised side does
//!   not act (§ Effects of Surprise: unless both are);
//! - a turn ends by itself when its attack or spell is spent or its combatant cannot act;
//! - at the end of a simultaneous round those at 0 hit points die;
//! - the battle ends when a side has no one in the fight (slain or fled); then the seed is
//!   revealed.

use super::Sheets;
use super::commands::{slay, up};
use super::tables;
use crate::ecs::components::{SeedSecret, Stage};
use crate::rules::common::decider::Decider;
use fray_protocol::BxEvent;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::ose::TieRule;
use fray_protocol::state::LifeStatus;

/// One pass of the machinery; emits nothing when there is nothing to do.
pub fn advance(d: &mut Decider, s: &Sheets, secret: &SeedSecret) {
    match d.field.battle.stage {
        Stage::Setup => {}
        Stage::Ended => crate::rules::common::reveal::reveal_seed(d, secret),
        Stage::Acting | Stage::BetweenTurns => {
            if let Some(winner) = crate::rules::common::battles::battle_over_without(d, |id| {
                s.get(id).is_some_and(|(sh, _)| sh.fled)
            }) {
                d.emit(GameEvent::BattleEnded { winner });
                return;
            }
            if d.field.battle.stage == Stage::BetweenTurns {
                begin_next_turn(d, s);
            } else if let Some(current) = d.field.battle.current().cloned()
                && !can_go_on(d, s, &current)
            {
                d.emit(GameEvent::TurnEnded { combatant: current });
            }
        }
    }
}

fn can_go_on(d: &mut Decider, s: &Sheets, id: &CombatantId) -> bool {
    let budget = d.field.get(id).map(|f| f.budget.0);
    up(d, s, id) && budget.is_some_and(|b| b.standard)
}

fn begin_next_turn(d: &mut Decider, s: &Sheets) {
    let round = d.field.battle.round;
    if round == 0 {
        new_round(d, s, 1);
        return;
    }
    let order = d.field.battle.order.clone();
    let mut next = d.field.battle.turn_index.map_or(0, |i| i + 1);
    while let Some(id) = order.get(next) {
        if up(d, s, id) {
            d.emit(GameEvent::TurnStarted {
                combatant: id.clone(),
                round,
            });
            return;
        }
        next += 1;
    }
    // The round is over. § Initiative, Ties (simultaneous): the deadly blows land now.
    if s.battle().simultaneous {
        let dying: Vec<CombatantId> = d
            .field
            .all()
            .filter(|f| f.vit.0 == LifeStatus::Conscious && f.hp.current <= 0)
            .map(|f| f.c.id.clone())
            .collect();
        if !dying.is_empty() {
            for id in dying {
                slay(d, s, &id);
            }
            return;
        }
    }
    new_round(d, s, round + 1);
}

/// § Combat, Initiative: a d6 per acting side; the order of battle for the round.
pub fn new_round(d: &mut Decider, s: &Sheets, round: u32) {
    d.emit(GameEvent::RoundStarted { round });
    let b = s.battle();
    let both = [Side::Heroes, Side::Monsters];
    let acting: Vec<Side> = if round == 1 && b.surprised.len() == 1 {
        both.into_iter()
            .filter(|x| !b.surprised.contains(x))
            .collect()
    } else {
        both.to_vec()
    };
    if b.options.initiative == fray_protocol::ose::InitiativeRule::Individual {
        super::initiative::individual(d, s, &acting);
        return;
    }
    let mut rolls = Vec::new();
    let mut order = acting.clone();
    let mut simultaneous = false;
    if acting.len() > 1 {
        // Ties under `reroll`: roll again (bounded; a run of 100 ties is resolved
        // simultaneously rather than looping).
        for attempt in 0..100 {
            let pair: Vec<(Side, u32)> = acting
                .iter()
                .map(|side| {
                    let r = crate::dice::notation::roll_die(d.rng, 6);
                    let n = r.natural().unwrap_or(1);
                    rolls.push((*side, r));
                    (*side, n)
                })
                .collect();
            let (sides, tie) = tables::side_order(&pair);
            order = sides;
            if !tie {
                break;
            }
            if b.options.ties == TieRule::Simultaneous || attempt == 99 {
                simultaneous = true;
                order = acting.clone();
                break;
            }
        }
    }
    d.emit(GameEvent::Bx(BxEvent::SideInitiative {
        rolls,
        order: order.clone(),
        simultaneous,
    }));
    let ids: Vec<CombatantId> = order
        .iter()
        .flat_map(|side| {
            d.field
                .all()
                .filter(|f| f.c.side == *side)
                .map(|f| f.c.id.clone())
                .collect::<Vec<_>>()
        })
        .collect();
    emit_order(d, s, ids);
}

/// § Slow Weapons: combatants whose attacks are all slow act last; the order of the round.
pub fn emit_order(d: &mut Decider, s: &Sheets, ids: Vec<CombatantId>) {
    let mut first = Vec::new();
    let mut slow = Vec::new();
    for id in ids {
        if super::round::slow_only(s, &id) {
            slow.push(id);
        } else {
            first.push(id);
        }
    }
    first.extend(slow);
    d.emit(GameEvent::TurnOrder { order: first });
}
