//! Old-School Essentials (`ose-adventuring.txt`) § Waterborne Adventuring, Wind Conditions
//! (`roll_wind` in `ose` sessions: the daily 2d6, plain or variable), Near Gales and Gales
//! and Storms (`gale_strikes`): taking on water in a near gale, and in a gale a seaworthy ship's
//! drift and wreck or an unseaworthy ship's sinking and beaching. Ships are not combatants: the
//! event tells the GM what befell the ship.

use super::commands::{R, no};
use crate::rules::common::decider::Decider;
use fray_protocol::BxEvent;
use fray_protocol::ErrorCode;
use fray_protocol::event::GameEvent;
use fray_protocol::ose::{GaleOutcome, OseWind};
use fray_protocol::state::Phase;

fn d(dec: &mut Decider, sides: u32) -> fray_protocol::roll::Roll {
    crate::dice::notation::roll_die(dec.rng, sides)
}

fn face(r: &fray_protocol::roll::Roll) -> u32 {
    r.natural().unwrap_or(u32::MAX)
}

/// `gale_strikes`.
pub fn gale(dec: &mut Decider, near: bool, seaworthy: bool, land: bool, clear_shore: bool) -> R {
    if dec.field.battle.phase == Phase::Ended {
        return Err(no(ErrorCode::BattleOver, "the session is over"));
    }
    let misplaced = if near {
        land || clear_shore
    } else if seaworthy {
        clear_shore
    } else {
        clear_shore && !land
    };
    if misplaced {
        return Err(no(
            ErrorCode::InvalidArgument,
            "land and a clear shore matter in a gale only: land on a seaworthy ship's drift, \
             or in sight of an unseaworthy one (clear_shore: beaching it)",
        ));
    }
    let (mut roll, mut drift, mut harbor) = (None, None, None);
    let outcome = if near {
        // § Near Gales: "Seaworthy vessels: Have a 10% chance of taking on water. Unseaworthy
        // vessels: Have a 20% chance".
        let r = d(dec, 100);
        let water = face(&r) <= if seaworthy { 10 } else { 20 };
        roll = Some(r);
        if water {
            GaleOutcome::TakesOnWater
        } else {
            GaleOutcome::Weathered
        }
    } else if seaworthy {
        // § Gales and Storms, seaworthy: three times its speed in a random direction (1d6);
        // "If the ship encounters land during this travel, there is a 75% chance of it wrecking".
        drift = Some(d(dec, 6));
        if land {
            let r = d(dec, 100);
            let wrecked = face(&r) <= 75;
            roll = Some(r);
            if wrecked {
                GaleOutcome::Wrecked
            } else {
                GaleOutcome::Drifts
            }
        } else {
            GaleOutcome::Drifts
        }
    } else {
        // § Gales and Storms, unseaworthy: beaching in sight of land (automatic on a clear shore,
        // else a 2-in-6 chance of a safe harbor); otherwise "an 80% chance of the vessel being
        // overrun with water and sinking" (*interpretation*: also after a failed search).
        let beached = if land && clear_shore {
            true
        } else if land {
            let h = d(dec, 6);
            let safe = face(&h) <= 2;
            harbor = Some(h);
            safe
        } else {
            false
        };
        if beached {
            GaleOutcome::Beached
        } else {
            let r = d(dec, 100);
            let sinks = face(&r) <= 80;
            roll = Some(r);
            if sinks {
                GaleOutcome::Sinks
            } else {
                GaleOutcome::Weathered
            }
        }
    };
    dec.emit(GameEvent::Bx(BxEvent::GaleStruck {
        near,
        seaworthy,
        roll,
        drift,
        harbor,
        outcome,
    }));
    Ok(())
}

/// `roll_wind` in an `ose` session: § Wind Conditions, "The referee should check the wind
/// conditions at the start of each day, rolling 2d6" — 2 no wind, 3–11 normal sailing, 12 gale
/// (speed tripled); under the session option `variable_wind` § Variable Wind Conditions
/// (optional rule): ×⅓ … ×3, and with no wind "Movement by oar at 1/3 rate".
pub fn wind(dec: &mut Decider, s: &super::Sheets) -> R {
    if dec.field.battle.phase == Phase::Ended {
        return Err(no(ErrorCode::BattleOver, "the session is over"));
    }
    let variable = s.battle().options.variable_wind;
    let roll = dec.roll("2d6", &crate::dice::Placeholders::default())?;
    let wind = OseWind::from_2d6(roll.total, variable);
    let oars = (variable && wind == OseWind::NoWind).then_some((1, 3));
    dec.emit(GameEvent::Bx(BxEvent::OseWindRolled {
        roll,
        sailing: wind.sailing(),
        wind,
        oars,
    }));
    Ok(())
}
