//! The time dice (`five-torches-deep-combat.txt`, the paragraphs after § Rolling To Return: "The
//! GM is responsible for keeping track of time"). The GM rolls 1–4 d6 for the hour of day (their
//! sum: "3, 2 … It is 05:00h"), or a starting hour plus 1–2 dice, or a duration in hours; or sets
//! the hour. The time of day (`ftd.time_of_day`) then moves with the game clock (rounds, travel
//! turns, rests) and wraps at 24:00h; `fray_protocol::ftd::time_dice` shows it as the dice faces.

use super::commands::{R, dice_open, no, session_open};
use crate::dice::Placeholders;
use crate::rules::common::decider::Decider;
use fray_protocol::ErrorCode;
use fray_protocol::FiveTorchesEvent;
use fray_protocol::event::GameEvent;
use fray_protocol::ftd::TimeDicePurpose;

/// "The GM can roll 1-4 time dice".
pub const MAX_TIME_DICE: u32 = 4;

/// "The GM can instead set a starting hour and roll 1 or 2 time dice".
pub const MAX_DICE_FROM_START: u32 = 2;

/// The hour of day the dice give: their sum after `start` (if any), wrapping at 24 (4d6 of
/// 24 is 24:00h, i.e. hour 0).
pub fn hour_of_day(start: Option<u32>, sum: u32) -> u32 {
    (start.unwrap_or(0) + sum) % 24
}

/// GM: roll the time dice.
pub fn roll(d: &mut Decider, dice: u32, purpose: TimeDicePurpose, start: Option<u32>) -> R {
    dice_open(d)?;
    if let Some(h) = start {
        if purpose == TimeDicePurpose::Duration {
            return Err(no(
                ErrorCode::InvalidArgument,
                "a duration has no starting hour: roll 1-4 time dice alone",
            ));
        }
        if h > 23 {
            return Err(no(
                ErrorCode::InvalidArgument,
                format!("starting hour {h} is outside 0..=23"),
            ));
        }
    }
    let max = if start.is_some() {
        MAX_DICE_FROM_START
    } else {
        MAX_TIME_DICE
    };
    if !(1..=max).contains(&dice) {
        return Err(no(
            ErrorCode::InvalidArgument,
            if start.is_some() {
                format!("{dice} time dice: after a starting hour the GM rolls 1 or 2")
            } else {
                format!("{dice} time dice: the GM rolls 1 to 4")
            },
        ));
    }
    let roll = d.roll(&format!("{dice}d6"), &Placeholders::default())?;
    let sum = u32::try_from(roll.total).unwrap_or(0);
    let hours = match purpose {
        TimeDicePurpose::TimeOfDay => hour_of_day(start, sum),
        TimeDicePurpose::Duration => sum,
    };
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::TimeDiceRolled {
        purpose,
        start_hour: start,
        roll,
        hours,
    }));
    Ok(())
}

/// GM: set the time of day (the time dice turned by hand: "The GM sets one time die out to 5").
pub fn set(d: &mut Decider, hour: u32) -> R {
    session_open(d)?;
    if hour > 23 {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("hour {hour} is outside 0..=23"),
        ));
    }
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::TimeSet { hour }));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use fray_protocol::ftd::{day_quarter, time_dice};

    /// five-torches-deep-combat.txt, the time dice (after § Rolling To Return): the dice's sum is
    /// the hour (3, 2 is 05:00h), after a starting hour if set, wrapping at 24; the faces show
    /// it one die per quarter (6, 1 is 07:00h; 6, 6, 6, 2 is 20:00h; 5 is pre-dawn).
    #[test]
    fn the_dice_show_the_hour_by_quarters_time_dice() {
        assert_eq!(hour_of_day(None, 3 + 2), 5);
        assert_eq!(hour_of_day(None, 24), 0);
        assert_eq!(hour_of_day(Some(22), 5), 3);
        assert_eq!(time_dice(7), vec![6, 1]);
        assert_eq!(time_dice(20), vec![6, 6, 6, 2]);
        assert_eq!(time_dice(5), vec![5]);
        assert_eq!(time_dice(6), vec![6]);
        assert_eq!(time_dice(0), vec![6, 6, 6, 6]);
        assert_eq!(day_quarter(5), "pre-dawn");
        assert_eq!(day_quarter(7), "morning");
        assert_eq!(day_quarter(13), "afternoon");
        assert_eq!(day_quarter(0), "night");
    }
}
