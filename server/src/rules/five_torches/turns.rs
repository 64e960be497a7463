//! The Five Torches Deep turn machinery (`five-torches-deep-combat.txt`):
//! - between turns: the next combatant in the fixed DEX order (a new round after the last), or
//!   the next ambusher of the surprise round and then the full order; incapacitated combatants
//!   (0 hp) and those who left the battle have no turns ("unable to act");
//! - a turn that cannot go on (incapacitated, gone, out of actions) ends by itself — unless a
//!   retreat is waiting for the GM's ruling;
//! - the battle ends when a side has no one up and present;
//! - after it, PCs still incapacitated die when their minute is over: at once if a minute has
//!   passed since they fell or no ally is up to help, otherwise when the GM ends the session;
//!   then the seed is revealed.

use super::Sheets;
use super::commands::{order_by_dex, pass_time, up};
use super::rules;
use crate::ecs::components::{SeedSecret, Stage};
use crate::rules::common::decider::Decider;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::state::LifeStatus;

/// One pass of the machinery; emits nothing when there is nothing to do.
pub fn advance(d: &mut Decider, s: &Sheets, secret: &SeedSecret) {
    if super::concentration::sweep(d, s) {
        return;
    }
    match d.field.battle.stage {
        Stage::Setup => {}
        Stage::Ended => after_battle(d, s, secret),
        Stage::Acting | Stage::BetweenTurns => {
            if let Some(winner) = battle_over(d, s) {
                d.emit(GameEvent::BattleEnded { winner });
                return;
            }
            if d.field.battle.stage == Stage::BetweenTurns {
                begin_next_turn(d, s);
            } else if let Some(current) = d.field.battle.current().cloned()
                && !can_go_on(d, s, &current)
            {
                super::concentration::turn_ending(d, s, &current);
                d.emit(GameEvent::TurnEnded { combatant: current });
            }
        }
    }
}

/// `Some(winner)` when a side has no one up and present: 13th Age's `battle_over` (heroes up
/// when conscious, monsters until slain), not counting those who fled, surrendered or escaped.
fn battle_over(d: &Decider, s: &Sheets) -> Option<Option<Side>> {
    crate::rules::common::battles::battle_over_without(d, |id| {
        s.get(id).is_some_and(|(sh, _)| sh.departed.is_some())
    })
}

fn can_go_on(d: &mut Decider, s: &Sheets, id: &CombatantId) -> bool {
    if s.battle().retreat.as_ref() == Some(id) {
        return true;
    }
    let budget = d.field.get(id).map(|f| f.budget.0);
    up(d, s, id) && budget.is_some_and(|b| b.standard || b.move_action || b.quick)
}

fn begin_next_turn(d: &mut Decider, s: &Sheets) {
    let order = d.field.battle.order.clone();
    if order.is_empty() {
        return;
    }
    if d.field.battle.surprise.is_some() {
        let mut next = d.field.battle.turn_index.map_or(0, |i| i + 1);
        while let Some(id) = order.get(next) {
            if up(d, s, id) {
                d.emit(GameEvent::TurnStarted {
                    combatant: id.clone(),
                    round: 0,
                });
                return;
            }
            next += 1;
        }
        // The surprise round is over: every round now follows the full order.
        let placed = d
            .field
            .all()
            .map(|f| (f.c.id.clone(), f.init.result.unwrap_or(0), f.c.side))
            .collect();
        d.emit(GameEvent::TurnOrder {
            order: order_by_dex(placed).into_iter().map(|(id, _)| id).collect(),
        });
        return;
    }
    let mut index = d.field.battle.turn_index;
    let mut round = d.field.battle.round;
    // The dungeon clock: each round that starts is 6 seconds of game time (carried lights burn
    // down, PCs adventure on).
    let mut rounds_started = 0;
    if round == 0 {
        round = 1;
        index = None;
        d.emit(GameEvent::RoundStarted { round });
        rounds_started += 1;
    }
    for _ in 0..=order.len() {
        let next = match index {
            Some(i) if i + 1 < order.len() => i + 1,
            Some(_) => {
                round += 1;
                d.emit(GameEvent::RoundStarted { round });
                rounds_started += 1;
                0
            }
            None => 0,
        };
        index = Some(next);
        let id = order[next].clone();
        if !up(d, s, &id) {
            continue;
        }
        pass_time(d, s, rules::ROUND_SECONDS * rounds_started);
        d.emit(GameEvent::TurnStarted {
            combatant: id,
            round,
        });
        return;
    }
}

/// § Death & Injury after the fight: "dead if not stabilized within 1 minute or by the end of
/// the fight (whichever is later)".
fn after_battle(d: &mut Decider, s: &Sheets, secret: &SeedSecret) {
    if d.field.battle.seed_revealed {
        return;
    }
    let heroes: Vec<CombatantId> = d.field.ids_of(Side::Heroes);
    let helper = heroes.iter().any(|h| up(d, s, h));
    let round = d.field.battle.round;
    let over = d.field.battle.session_over;
    let mut waiting = false;
    for h in heroes {
        if d.status(&h) != Some(LifeStatus::Unconscious) {
            continue;
        }
        let fell = s.get(&h).and_then(|(sh, _)| sh.fell_round).unwrap_or(0);
        if over || !helper || rules::minute_passed(fell, round) {
            d.emit(GameEvent::Died { combatant: h });
        } else {
            waiting = true;
        }
    }
    // With `[options] rests = true` the session goes on after the battle (rests, travel, checks)
    // until the GM's `end_session` reveals the seed.
    if !waiting && (over || !d.field.options.0.rests) {
        crate::rules::common::reveal::reveal_seed(d, secret);
    }
}
