//! Old-School Essentials (`ose-adventuring.txt`) § Evasion and Pursuit: the pursuit after a
//! failed evasion — the GM's `start_pursuit`, `pursuit_round`, `drop_lure` and `end_pursuit`.
//! In the dungeon it is measured in rounds, the runners running at their base rate and becoming
//! exhausted after 30 rounds (§ Running: the `exhausted` condition is set for them), and
//! dropped treasure or food stops the monsters on 1–3 of a d6; on the water the distance
//! closes by the rates' difference each round, at least 30; in the wilderness, day by day,
//! faster pursuers catch up on 50% (another `attempt_evasion` that succeeds ends the pursuit).
//! The state is `OseBattle::pursuit`, folded by `fray_protocol::pursuit::fold`.

use super::Sheets;
use super::combat_extras::has;
use super::commands::{R, name, no, sheet};
use crate::rules::common::decider::Decider;
use fray_protocol::BxEvent;
use fray_protocol::ErrorCode;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::CombatantId;
use fray_protocol::ose::{EncounterSetting, OseCondition};
use fray_protocol::pursuit::{EXHAUSTING_ROUNDS, Lure, Pursuit, PursuitEnd};
use fray_protocol::state::{LifeStatus, Phase};
use std::collections::BTreeSet;

/// § Waterborne, Pursuit, Closing in: "The distance between the two sides decreases by the
/// difference between their two movement rates each round (a minimum of 30′ per round)."
pub fn closing(fleeing_rate: u32, pursuer_rate: u32) -> u32 {
    pursuer_rate.saturating_sub(fleeing_rate).max(30)
}

fn before_combat(d: &Decider) -> R {
    match d.field.battle.phase {
        Phase::Setup => Ok(()),
        Phase::Running => Err(no(
            ErrorCode::BattleAlreadyStarted,
            "a pursuit happens before combat (§ Evasion and Pursuit)",
        )),
        Phase::Ended => Err(no(ErrorCode::BattleOver, "the session is over")),
    }
}

fn under_way(d: &Decider, s: &Sheets) -> R<Pursuit> {
    before_combat(d)?;
    s.battle()
        .pursuit
        .ok_or_else(|| no(ErrorCode::NoPursuit, "no pursuit is under way"))
}

/// `start_pursuit`.
pub fn start(
    d: &mut Decider,
    s: &Sheets,
    setting: EncounterSetting,
    fleeing_rate: u32,
    pursuer_rate: u32,
    runners: &[CombatantId],
    distance: Option<u32>,
) -> R {
    before_combat(d)?;
    if s.battle().pursuit.is_some() {
        return Err(no(
            ErrorCode::PursuitUnderWay,
            "a pursuit is already under way (end_pursuit first)",
        ));
    }
    if !(1..=10_000).contains(&fleeing_rate) || !(1..=10_000).contains(&pursuer_rate) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "movement rates are within 1..=10000",
        ));
    }
    if setting != EncounterSetting::Dungeon && !runners.is_empty() {
        return Err(no(
            ErrorCode::InvalidArgument,
            "runners (§ Running, exhaustion after 30 rounds) are for a dungeon pursuit",
        ));
    }
    let distance_ok = match (setting, distance) {
        (EncounterSetting::Waterborne, Some(n)) => (1..=100_000).contains(&n),
        (EncounterSetting::Waterborne, None) => false,
        (_, other) => other.is_none(),
    };
    if !distance_ok {
        return Err(no(
            ErrorCode::InvalidArgument,
            "a waterborne pursuit starts at the encounter distance (1..=100000); the others \
             take no distance",
        ));
    }
    let mut seen = BTreeSet::new();
    for r in runners {
        sheet(s, r)?;
        let out = d.status(r).is_some_and(|st| st != LifeStatus::Conscious);
        if !seen.insert(r.clone()) || out {
            return Err(no(
                ErrorCode::InvalidTarget,
                format!(
                    "{} cannot run (listed twice or out of the fight)",
                    name(d, r)
                ),
            ));
        }
    }
    d.emit(GameEvent::Bx(BxEvent::PursuitStarted {
        setting,
        fleeing_rate,
        pursuer_rate,
        runners: runners.to_vec(),
        distance,
    }));
    Ok(())
}

/// `pursuit_round`: a round (a day in the wilderness) passes.
pub fn round(d: &mut Decider, s: &Sheets) -> R {
    let p = under_way(d, s)?;
    let round = p.rounds.saturating_add(1);
    let (mut closed, mut distance, mut roll, mut caught) = (None, p.distance, None, false);
    match p.setting {
        EncounterSetting::Dungeon => {}
        EncounterSetting::Waterborne => {
            let c = closing(p.fleeing_rate, p.pursuer_rate);
            let left = p.distance.unwrap_or(0).saturating_sub(c);
            closed = Some(c);
            distance = Some(left);
            caught = left == 0;
        }
        // § In the Wilderness, Pursuit: "If the pursuing side's movement rate is greater than
        // that of the fleeing side, there is a 50% chance of it catching up."
        EncounterSetting::Wilderness => {
            if p.pursuer_rate > p.fleeing_rate {
                let r = crate::dice::notation::roll_die(d.rng, 100);
                caught = r.natural().unwrap_or(100) <= 50;
                roll = Some(r);
            }
        }
    }
    d.emit(GameEvent::Bx(BxEvent::PursuitRoundPassed {
        round,
        closed,
        distance,
        roll,
        caught,
    }));
    // § Running, Exhaustion: "Characters become exhausted after running for 30 rounds."
    if round >= EXHAUSTING_ROUNDS {
        for r in &p.runners {
            let Some((sh, _)) = s.get(r) else { continue };
            let up = d.status(r).is_none_or(|st| st == LifeStatus::Conscious);
            if up && !has(sh, OseCondition::Exhausted) {
                d.emit(GameEvent::Bx(BxEvent::OseConditionChanged {
                    combatant: r.clone(),
                    condition: OseCondition::Exhausted,
                    on: true,
                }));
            }
        }
    }
    if caught {
        d.emit(GameEvent::Bx(BxEvent::PursuitEnded {
            how: PursuitEnd::Caught,
        }));
    }
    Ok(())
}

/// `drop_lure`: 3-in-6 the monsters stop the pursuit.
pub fn drop_lure(d: &mut Decider, s: &Sheets, lure: Lure) -> R {
    let p = under_way(d, s)?;
    if p.setting != EncounterSetting::Dungeon {
        return Err(no(
            ErrorCode::InvalidArgument,
            "dropping treasure or food stops a dungeon pursuit (§ In the Dungeon, Pursuit)",
        ));
    }
    let roll = crate::dice::notation::roll_die(d.rng, 6);
    let stopped = roll.natural().unwrap_or(6) <= 3;
    d.emit(GameEvent::Bx(BxEvent::LureDropped {
        lure,
        roll,
        stopped,
    }));
    if stopped {
        d.emit(GameEvent::Bx(BxEvent::PursuitEnded {
            how: PursuitEnd::Lured,
        }));
    }
    Ok(())
}

/// `end_pursuit`: the GM ends it.
pub fn end(d: &mut Decider, s: &Sheets, caught: bool) -> R {
    under_way(d, s)?;
    d.emit(GameEvent::Bx(BxEvent::PursuitEnded {
        how: if caught {
            PursuitEnd::Caught
        } else {
            PursuitEnd::Escaped
        },
    }));
    Ok(())
}
