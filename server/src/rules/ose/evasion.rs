//! Old-School Essentials (`ose-adventuring.txt`) § Evasion and Pursuit: the GM's
//! `attempt_evasion` — in the dungeon the movement comparison, on the water the Waterborne
//! Evasion Chance table, in the wilderness the Wilderness Evasion Base Chance table with its
//! surprise rules and modifiers. The pursuit itself (rounds of running, the daily catch-up roll)
//! is run by the GM.

use super::commands::{R, no};
use crate::rules::common::decider::Decider;
use fray_protocol::BxEvent;
use fray_protocol::ErrorCode;
use fray_protocol::event::GameEvent;
use fray_protocol::ose::{EncounterSetting, EvasionSurprise};
use fray_protocol::state::Phase;

/// § Waterborne, Waterborne Evasion Chance: the percentage by how much slower the fleeing side
/// is (a faster one: 80%).
pub fn waterborne_chance(fleeing_rate: u32, pursuer_rate: u32) -> u32 {
    if fleeing_rate > pursuer_rate {
        return 80;
    }
    match pursuer_rate - fleeing_rate {
        0..=30 => 50,
        31..=60 => 40,
        61..=90 => 35,
        91..=120 => 25,
        _ => 10,
    }
}

/// § In the Wilderness, Wilderness Evasion Base Chance: the percentage by the fleeing group's
/// size and the number of pursuers (both at least 1).
pub fn wilderness_base_chance(fleeing: u32, pursuers: u32) -> u32 {
    // (largest fleeing size of the row, [(largest pursuers of the column, chance)], else chance)
    let (small, mid, big) = match fleeing {
        0..=4 => ((1, 50), (3, 70), 90),
        5..=12 => ((3, 35), (8, 50), 70),
        13..=24 => ((6, 25), (16, 35), 50),
        _ => ((10, 10), (30, 25), 35),
    };
    if pursuers <= small.0 {
        small.1
    } else if pursuers <= mid.0 {
        mid.1
    } else {
        big
    }
}

/// § In the Wilderness, Evasion and Evasion Modifiers: the chance in percent (0..=100).
/// Interpretation: the 5% minimum applies to a side that was not surprised; a surprised side
/// has only the GM's environment modifier.
pub fn wilderness_chance(
    fleeing: u32,
    pursuers: u32,
    fleeing_rate: u32,
    pursuer_rate: u32,
    surprise: Option<EvasionSurprise>,
    modifier: i32,
) -> u32 {
    match surprise {
        Some(EvasionSurprise::Surprising) => 100,
        Some(EvasionSurprise::Surprised) => modifier.clamp(0, 100).unsigned_abs(),
        None => {
            let mut chance = i64::from(wilderness_base_chance(fleeing, pursuers));
            if u64::from(pursuer_rate) >= 2 * u64::from(fleeing_rate) {
                chance -= 25;
            } else if u64::from(fleeing_rate) >= 2 * u64::from(pursuer_rate) {
                chance += 25;
            }
            chance += i64::from(modifier);
            u32::try_from(chance.clamp(5, 100)).unwrap_or(5)
        }
    }
}

/// The GM's `attempt_evasion` (only before combat has begun: § Evasion).
#[allow(clippy::too_many_arguments)]
pub fn attempt(
    d: &mut Decider,
    setting: EncounterSetting,
    fleeing_rate: u32,
    pursuer_rate: u32,
    fleeing: u32,
    pursuers: u32,
    surprise: Option<EvasionSurprise>,
    modifier: i32,
) -> R {
    match d.field.battle.phase {
        Phase::Setup => {}
        Phase::Running => {
            return Err(no(
                ErrorCode::BattleAlreadyStarted,
                "evasion is only possible before combat has begun (§ Evasion)",
            ));
        }
        Phase::Ended => return Err(no(ErrorCode::BattleOver, "the session is over")),
    }
    if !(1..=10_000).contains(&fleeing_rate) || !(1..=10_000).contains(&pursuer_rate) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "movement rates are within 1..=10000",
        ));
    }
    let chance = if setting == EncounterSetting::Wilderness {
        if !(1..=100_000).contains(&fleeing) || !(1..=100_000).contains(&pursuers) {
            return Err(no(
                ErrorCode::InvalidArgument,
                "a wilderness evasion needs the fleeing group's size and the number of \
                 pursuers (1..=100000)",
            ));
        }
        if !(-100..=100).contains(&modifier) {
            return Err(no(
                ErrorCode::InvalidArgument,
                "the environment modifier is within -100..=100 percent",
            ));
        }
        wilderness_chance(
            fleeing,
            pursuers,
            fleeing_rate,
            pursuer_rate,
            surprise,
            modifier,
        )
    } else {
        if fleeing != 0 || pursuers != 0 || surprise.is_some() || modifier != 0 {
            return Err(no(
                ErrorCode::InvalidArgument,
                "group sizes, surprise and the environment modifier are for wilderness \
                 evasion only",
            ));
        }
        match setting {
            EncounterSetting::Dungeon => {
                if fleeing_rate > pursuer_rate {
                    100
                } else {
                    0
                }
            }
            _ => waterborne_chance(fleeing_rate, pursuer_rate),
        }
    };
    let (roll, evaded) = match chance {
        0 => (None, false),
        100.. => (None, true),
        _ => {
            let roll = crate::dice::notation::roll_die(d.rng, 100);
            let evaded = roll.natural().unwrap_or(100) <= chance;
            (Some(roll), evaded)
        }
    };
    d.emit(GameEvent::Bx(BxEvent::EvasionAttempted {
        setting,
        chance,
        roll,
        evaded,
    }));
    Ok(())
}
