//! Five Torches Deep, through the real engine: the time dice (`time.rs`; the paragraphs of
//! `five-torches-deep-combat.txt` after § Rolling To Return, "The GM is responsible for keeping
//! track of time").

use super::tests::arena;
use crate::rules::common::testing::{new_engine, refusal, run};
use fray_protocol::event::GameEvent;
use fray_protocol::ftd::{Advantage, TimeDicePurpose, time_dice};
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{FiveTorchesCommand, FiveTorchesEvent};

fn roll(dice: u32, purpose: TimeDicePurpose, start_hour: Option<u32>) -> Command {
    Command::FiveTorches(FiveTorchesCommand::RollTimeDice {
        dice,
        purpose,
        start_hour,
    })
}

fn time_of_day(e: &crate::engine::Engine) -> Option<u32> {
    e.state().ftd.and_then(|f| f.time_of_day)
}

fn rolled(ev: &[GameEvent]) -> (Vec<u32>, u32) {
    ev.iter()
        .find_map(|x| match x {
            GameEvent::FiveTorches(FiveTorchesEvent::TimeDiceRolled { roll, hours, .. }) => {
                Some((roll.dice.iter().map(|d| d.face).collect(), *hours))
            }
            _ => None,
        })
        .unwrap()
}

/// five-torches-deep-combat.txt, the time dice: the GM rolls 2d6 and their sum is the hour
/// ("(3, 2). It is 05:00h"); the time of day then moves with the game clock — travel turns
/// (an hour each), a rest's night and battle rounds — and wraps at 24:00h.
#[test]
fn the_sum_is_the_hour_and_the_clock_moves_it_time_dice() {
    let enc = arena(14, 12, "1d6");
    let mut e = new_engine(&enc, 5);
    assert_eq!(time_of_day(&e), None);
    let ev = run(&mut e, &roll(2, TimeDicePurpose::TimeOfDay, None));
    let (faces, hour) = rolled(&ev);
    assert_eq!(faces.len(), 2);
    assert_eq!(hour, faces.iter().sum::<u32>() % 24);
    assert_eq!(time_of_day(&e), Some(hour * 3600));
    run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::TravelTurn {
            advantage: Advantage::None,
        }),
    );
    assert_eq!(time_of_day(&e), Some((hour + 1) % 24 * 3600));
    run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::Rest {
            safe: true,
            nights: 2,
        }),
    );
    // Two nights of 8 hours each.
    assert_eq!(time_of_day(&e), Some((hour + 17) % 24 * 3600));
    run(&mut e, &Command::StartBattle);
    assert_eq!(time_of_day(&e), Some((hour + 17) % 24 * 3600 + 6));
}

/// five-torches-deep-combat.txt, the time dice: the worked example — one die set to 5, a travel
/// turn turns it to 6, another brings out a second die at 1 (07:00h); a starting hour plus 1 or
/// 2 dice; a duration leaves the time of day alone.
#[test]
fn a_set_hour_advances_and_dice_count_from_it_time_dice() {
    let enc = arena(14, 12, "1d6");
    let mut e = new_engine(&enc, 9);
    let travel = Command::FiveTorches(FiveTorchesCommand::TravelTurn {
        advantage: Advantage::None,
    });
    assert_eq!(
        run(
            &mut e,
            &Command::FiveTorches(FiveTorchesCommand::SetTime { hour: 5 })
        ),
        vec![GameEvent::FiveTorches(FiveTorchesEvent::TimeSet {
            hour: 5
        })]
    );
    run(&mut e, &travel);
    assert_eq!(time_of_day(&e), Some(6 * 3600));
    assert_eq!(time_dice(6), vec![6]);
    run(&mut e, &travel);
    assert_eq!(time_of_day(&e), Some(7 * 3600));
    assert_eq!(time_dice(7), vec![6, 1]);
    // A starting hour of 22 and two dice wrap past midnight.
    let ev = run(&mut e, &roll(2, TimeDicePurpose::TimeOfDay, Some(22)));
    let (faces, hour) = rolled(&ev);
    assert_eq!(hour, (22 + faces.iter().sum::<u32>()) % 24);
    assert_eq!(time_of_day(&e), Some(hour * 3600));
    // A duration: the sum of the dice in hours; the time of day stays.
    let ev = run(&mut e, &roll(4, TimeDicePurpose::Duration, None));
    let (faces, hours) = rolled(&ev);
    assert_eq!((faces.len() as u32, hours), (4, faces.iter().sum::<u32>()));
    assert_eq!(time_of_day(&e), Some(hour * 3600));
}

/// five-torches-deep-combat.txt, the time dice: "1-4 time dice", "1 or 2" after a starting hour;
/// anything else is refused (`invalid_argument`), changing nothing and drawing no dice.
#[test]
fn refusals_time_dice() {
    let enc = arena(14, 12, "1d6");
    let mut e = new_engine(&enc, 5);
    for (cmd, says) in [
        (roll(0, TimeDicePurpose::TimeOfDay, None), "1 to 4"),
        (roll(5, TimeDicePurpose::Duration, None), "1 to 4"),
        (roll(3, TimeDicePurpose::TimeOfDay, Some(6)), "1 or 2"),
        (roll(1, TimeDicePurpose::TimeOfDay, Some(24)), "0..=23"),
        (
            roll(1, TimeDicePurpose::Duration, Some(6)),
            "no starting hour",
        ),
        (
            Command::FiveTorches(FiveTorchesCommand::SetTime { hour: 24 }),
            "0..=23",
        ),
    ] {
        let r = refusal(&mut e, &cmd);
        assert_eq!(r.code, ErrorCode::InvalidArgument);
        assert!(r.message.contains(says), "{}", r.message);
    }
    assert_eq!(time_of_day(&e), None);
}
