//! Old-School Essentials § Evasion and Pursuit, the pursuit (`pursuit.rs`), through the real
//! engine: rounds in the dungeon with exhaustion after 30 rounds of running and dropped lures,
//! the closing distance on the water, the daily catch-up roll in the wilderness.

use super::pursuit::closing;
use super::tests::arena_with;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, new_engine, refuse, run};
use fray_protocol::event::GameEvent;
use fray_protocol::ose::{EncounterSetting, OseCondition};
use fray_protocol::pursuit::{Lure, Pursuit, PursuitEnd};
use fray_protocol::{BxCommand, BxEvent};
use fray_protocol::{Command, ErrorCode};

fn start(
    setting: EncounterSetting,
    rates: (u32, u32),
    runners: &[&str],
    distance: Option<u32>,
) -> Command {
    Command::Bx(BxCommand::StartPursuit {
        setting,
        fleeing_rate: rates.0,
        pursuer_rate: rates.1,
        runners: runners.iter().map(|r| cid(r)).collect(),
        distance,
    })
}

fn pursuit(e: &Engine) -> Option<Pursuit> {
    e.state().ose.and_then(|b| b.pursuit)
}

fn exhausted(e: &Engine, who: &str) -> bool {
    e.state()
        .combatants
        .iter()
        .find(|c| c.id == cid(who))
        .and_then(|c| c.ose.as_ref())
        .is_some_and(|o| o.conditions.contains(&OseCondition::Exhausted))
}

/// ose-adventuring.txt § Evasion and Pursuit, In the Dungeon (Pursuit: time in rounds) and
/// § Running (Exhaustion: "Characters become exhausted after running for 30 rounds"; Effects of
/// exhaustion are the `exhausted` condition's): the runners become exhausted with the 30th round,
/// no dice are drawn, and the GM ends the pursuit.
#[test]
fn runners_are_exhausted_after_thirty_rounds_running() {
    let mut e = new_engine(&arena_with("", 30, 9), 3);
    let draws = e.rng().draws();
    let ev = run(
        &mut e,
        &start(EncounterSetting::Dungeon, (90, 120), &["ada", "bram"], None),
    );
    assert!(
        matches!(
            ev.as_slice(),
            [GameEvent::Bx(BxEvent::PursuitStarted { .. })]
        ),
        "{ev:?}"
    );
    for round in 1..30 {
        let ev = run(&mut e, &Command::Bx(BxCommand::PursuitRound {}));
        assert_eq!(
            ev,
            vec![GameEvent::Bx(BxEvent::PursuitRoundPassed {
                round,
                closed: None,
                distance: None,
                roll: None,
                caught: false
            })]
        );
        assert!(!exhausted(&e, "ada"));
    }
    let ev = run(&mut e, &Command::Bx(BxCommand::PursuitRound {}));
    assert_eq!(ev.len(), 3, "{ev:?}");
    for who in ["ada", "bram"] {
        assert!(ev.contains(&GameEvent::Bx(BxEvent::OseConditionChanged {
            combatant: cid(who),
            condition: OseCondition::Exhausted,
            on: true
        })));
        assert!(exhausted(&e, who));
    }
    assert_eq!(pursuit(&e).map(|p| p.rounds), Some(30));
    // Already exhausted: nothing more to set.
    assert_eq!(
        run(&mut e, &Command::Bx(BxCommand::PursuitRound {})).len(),
        1
    );
    assert_eq!(e.rng().draws(), draws, "a dungeon round rolls nothing");
    assert_eq!(
        run(&mut e, &Command::Bx(BxCommand::EndPursuit { caught: true })),
        vec![GameEvent::Bx(BxEvent::PursuitEnded {
            how: PursuitEnd::Caught
        })]
    );
    assert_eq!(pursuit(&e), None);
    // The exhaustion outlasts the pursuit (§ Running, Resting: three full turns of rest,
    // `tests_exhaustion.rs`).
    assert!(exhausted(&e, "ada"));
}

/// ose-adventuring.txt § Evasion and Pursuit, In the Dungeon (Pursuit: "Dropping treasure …
/// a 3-in-6 probability that they will stop pursuit"; "Dropping food … (3-in-6 chance)").
#[test]
fn dropped_treasure_or_food_stops_the_monsters_on_three_in_six_in_the_dungeon() {
    let enc = arena_with("", 30, 9);
    let mut seen = [false; 2];
    for seed in 0..40 {
        let mut e = new_engine(&enc, seed);
        run(
            &mut e,
            &start(EncounterSetting::Dungeon, (90, 90), &[], None),
        );
        let lure = if seed % 2 == 0 {
            Lure::Treasure
        } else {
            Lure::Food
        };
        let ev = run(&mut e, &Command::Bx(BxCommand::DropLure { lure }));
        let GameEvent::Bx(BxEvent::LureDropped {
            lure: l,
            roll,
            stopped,
        }) = &ev[0]
        else {
            panic!("{ev:?}")
        };
        assert_eq!(*l, lure);
        let face = roll.natural().unwrap();
        assert_eq!(*stopped, face <= 3, "{face}");
        seen[usize::from(*stopped)] = true;
        if *stopped {
            assert_eq!(
                ev[1..],
                [GameEvent::Bx(BxEvent::PursuitEnded {
                    how: PursuitEnd::Lured
                })]
            );
            assert_eq!(pursuit(&e), None);
        } else {
            assert_eq!(ev.len(), 1);
            assert!(pursuit(&e).is_some());
        }
    }
    assert_eq!(seen, [true, true]);
}

/// ose-adventuring.txt § Evasion and Pursuit, Waterborne (Pursuit: "Initial distance … normal
/// encounter distance"; "Closing in: The distance … decreases by the difference between their
/// two movement rates each round (a minimum of 30′ per round)").
#[test]
fn the_distance_closes_by_the_rates_difference_at_least_thirty_waterborne() {
    assert_eq!(closing(90, 150), 60);
    assert_eq!(closing(120, 130), 30);
    assert_eq!(closing(150, 90), 30);
    let mut e = new_engine(&arena_with("", 30, 9), 5);
    let draws = e.rng().draws();
    run(
        &mut e,
        &start(EncounterSetting::Waterborne, (90, 150), &[], Some(150)),
    );
    for (round, left) in [(1, 90), (2, 30)] {
        assert_eq!(
            run(&mut e, &Command::Bx(BxCommand::PursuitRound {})),
            vec![GameEvent::Bx(BxEvent::PursuitRoundPassed {
                round,
                closed: Some(60),
                distance: Some(left),
                roll: None,
                caught: false
            })]
        );
        assert_eq!(pursuit(&e).and_then(|p| p.distance), Some(left));
    }
    assert_eq!(
        run(&mut e, &Command::Bx(BxCommand::PursuitRound {})),
        vec![
            GameEvent::Bx(BxEvent::PursuitRoundPassed {
                round: 3,
                closed: Some(60),
                distance: Some(0),
                roll: None,
                caught: true
            }),
            GameEvent::Bx(BxEvent::PursuitEnded {
                how: PursuitEnd::Caught
            })
        ]
    );
    assert_eq!(pursuit(&e), None);
    assert_eq!(e.rng().draws(), draws);
}

/// ose-adventuring.txt § Evasion and Pursuit, In the Wilderness (Pursuit: day by day; "If the
/// pursuing side's movement rate is greater … a 50% chance of it catching up"; otherwise "it may
/// make another evasion attempt"): the d% only for faster pursuers, caught on 50 or less; a
/// successful `attempt_evasion` ends the pursuit.
#[test]
fn faster_pursuers_catch_up_on_fifty_percent_each_day_in_the_wilderness() {
    let enc = arena_with("", 30, 9);
    let mut seen = [false; 2];
    for seed in 0..30 {
        let mut e = new_engine(&enc, seed);
        run(
            &mut e,
            &start(EncounterSetting::Wilderness, (120, 240), &[], None),
        );
        let ev = run(&mut e, &Command::Bx(BxCommand::PursuitRound {}));
        let GameEvent::Bx(BxEvent::PursuitRoundPassed {
            round: 1,
            roll: Some(roll),
            caught,
            ..
        }) = &ev[0]
        else {
            panic!("{ev:?}")
        };
        assert_eq!(*caught, roll.natural().unwrap() <= 50);
        seen[usize::from(*caught)] = true;
        assert_eq!(pursuit(&e).is_none(), *caught);
    }
    assert_eq!(seen, [true, true]);
    // Pursuers not faster: no roll, not caught; a new evasion that succeeds ends the pursuit.
    let mut e = new_engine(&enc, 1);
    run(
        &mut e,
        &start(EncounterSetting::Wilderness, (120, 120), &[], None),
    );
    let draws = e.rng().draws();
    assert!(matches!(
        run(&mut e, &Command::Bx(BxCommand::PursuitRound {})).as_slice(),
        [GameEvent::Bx(BxEvent::PursuitRoundPassed {
            roll: None,
            caught: false,
            ..
        })]
    ));
    assert_eq!(e.rng().draws(), draws);
    let ev = run(
        &mut e,
        &Command::Bx(BxCommand::AttemptEvasion {
            setting: EncounterSetting::Wilderness,
            fleeing_rate: 120,
            pursuer_rate: 120,
            fleeing: 1,
            pursuers: 1,
            surprise: Some(fray_protocol::ose::EvasionSurprise::Surprising),
            modifier: 0,
        }),
    );
    assert!(matches!(
        ev.as_slice(),
        [GameEvent::Bx(BxEvent::EvasionAttempted {
            evaded: true,
            ..
        })]
    ));
    assert_eq!(pursuit(&e), None);
}

/// ose-adventuring.txt § Evasion and Pursuit (Evasion "is only possible before combat has
/// begun"; the pursuit follows a failed evasion): refusals change nothing and draw no dice.
#[test]
fn pursuit_refusals_change_nothing_evasion_and_pursuit() {
    let mut e = new_engine(&arena_with("", 30, 9), 2);
    let dungeon = EncounterSetting::Dungeon;
    for cmd in [
        Command::Bx(BxCommand::PursuitRound {}),
        Command::Bx(BxCommand::DropLure { lure: Lure::Food }),
        Command::Bx(BxCommand::EndPursuit { caught: false }),
    ] {
        assert_eq!(refuse(&mut e, &cmd), ErrorCode::NoPursuit, "{cmd:?}");
    }
    for bad in [
        start(dungeon, (0, 90), &[], None),
        start(dungeon, (90, 90), &[], Some(100)),
        start(EncounterSetting::Waterborne, (90, 90), &[], None),
        start(EncounterSetting::Waterborne, (90, 90), &[], Some(0)),
        start(EncounterSetting::Wilderness, (90, 90), &["ada"], None),
    ] {
        assert_eq!(refuse(&mut e, &bad), ErrorCode::InvalidArgument, "{bad:?}");
    }
    assert_eq!(
        refuse(&mut e, &start(dungeon, (90, 90), &["ada", "ada"], None)),
        ErrorCode::InvalidTarget
    );
    assert_eq!(
        refuse(&mut e, &start(dungeon, (90, 90), &["nobody"], None)),
        ErrorCode::UnknownCombatant
    );
    run(
        &mut e,
        &start(EncounterSetting::Waterborne, (90, 90), &[], Some(300)),
    );
    assert_eq!(
        refuse(&mut e, &start(dungeon, (90, 90), &[], None)),
        ErrorCode::PursuitUnderWay
    );
    assert_eq!(
        refuse(
            &mut e,
            &Command::Bx(BxCommand::DropLure {
                lure: Lure::Treasure
            })
        ),
        ErrorCode::InvalidArgument
    );
    // Caught: combat begins, and the pursuit is over.
    run(&mut e, &Command::StartBattle);
    assert_eq!(pursuit(&e), None);
    assert_eq!(
        refuse(&mut e, &start(dungeon, (90, 90), &[], None)),
        ErrorCode::BattleAlreadyStarted
    );
    assert_eq!(
        refuse(&mut e, &Command::Bx(BxCommand::PursuitRound {})),
        ErrorCode::BattleAlreadyStarted
    );
}
