//! ose-adventuring.txt § Waterborne Adventuring in `pass_day` (`march` `water`,
//! `water_travel.rs`): Travel on the Water, Losing Direction and Wandering Monsters.

use super::tests::{arena_text, arena_with};
use super::water_travel::{lost_chance, miles, wandering_chance};
use crate::engine::Engine;
use crate::rules::common::testing::{cid, new_engine, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::bf::{March, Terrain};
use fray_protocol::event::GameEvent;
use fray_protocol::ose::{Current, SecretCheck, WaterDay, Waters};
use fray_protocol::{BxCommand, BxEvent};
use fray_protocol::{Command, ErrorCode};

fn water(rate: u32, waters: Waters, current: Current, navigator: bool) -> WaterDay {
    WaterDay {
        rate,
        waters,
        current,
        navigator,
    }
}

fn day(march: March, w: Option<WaterDay>) -> Command {
    Command::Bx(BxCommand::PassDay {
        march,
        terrain: Terrain::Clear,
        unfed: Vec::new(),
        no_water: Vec::new(),
        leader: Some(cid("ada")),
        water: w,
    })
}

fn engine() -> Engine {
    new_engine(&arena_with("", 9, 9), 1)
}

/// (miles, current roll total) of the day.
fn travelled(ev: &[GameEvent]) -> (u32, Option<i32>) {
    ev.iter()
        .find_map(|x| match x {
            GameEvent::Bx(BxEvent::DayPassed {
                march: March::Water,
                miles,
                current,
                water: Some(_),
                ..
            }) => Some((*miles, current.as_ref().map(|r| r.total))),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{ev:?}"))
}

/// The day's secret checks: (check, chance, success, distance rolled).
fn secrets(ev: &[GameEvent]) -> Vec<(SecretCheck, u32, Option<bool>, bool)> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::SecretRolled {
                check,
                chance,
                success,
                distance,
                ..
            } => Some((*check, *chance, *success, distance.is_some())),
            _ => None,
        })
        .collect()
}

/// ose-adventuring.txt § Waterborne Adventuring, Travel on the Water: "dividing its base
/// movement rate by five" (360′ → 72 miles) and River travel: the current "may increase
/// (when moving downstream) or decrease (when moving upstream) the distance traveled by 1d6+6
/// miles per day".
#[test]
fn miles_are_the_rate_over_five_and_a_current_adds_or_takes_1d6_plus_6_travel_on_the_water() {
    let mut e = engine();
    let ev = run(
        &mut e,
        &day(
            March::Water,
            Some(water(360, Waters::Sea, Current::None, true)),
        ),
    );
    assert_eq!(travelled(&ev), (72, None));
    let mut downstream = 0;
    let mut upstream = 0;
    for seed in 0..20 {
        for (current, sign) in [(Current::Downstream, 1), (Current::Upstream, -1)] {
            let mut e = new_engine(&arena_with("", 9, 9), seed);
            let w = water(360, Waters::River, current, false);
            let (m, roll) = travelled(&run(&mut e, &day(March::Water, Some(w))));
            let roll = roll.unwrap();
            assert!((7..=12).contains(&roll), "{roll}");
            assert_eq!(i64::from(m), 72 + sign * i64::from(roll));
            if sign > 0 {
                downstream += 1;
            } else {
                upstream += 1;
            }
        }
    }
    assert_eq!((downstream, upstream), (20, 20));
    // Upstream never below 0 miles; the rate is rounded down.
    let slow = water(30, Waters::River, Current::Upstream, false);
    assert_eq!(
        miles(&water(34, Waters::Sea, Current::None, false), None),
        6
    );
    assert_eq!(
        miles(
            &slow,
            Some(&fray_protocol::roll::Roll {
                expr: "1d6+6".into(),
                dice: Vec::new(),
                modifier: 6,
                total: 12,
            })
        ),
        0
    );
}

/// ose-adventuring.txt § Waterborne Adventuring, Losing Direction ("With a navigator aboard:
/// 2-in-6"; "Without a navigator aboard: … 100% on the open seas and 2-in-6 within sight of
/// land") and Wandering Monsters ("2-in-6 on oceans or rivers, 3-in-6 in swamps"; 4d6 × 10
/// yards away): the secret d6s of the wilderness, on rivers without a lost check.
#[test]
fn the_waters_and_a_navigator_set_the_secret_checks_waterborne_losing_direction() {
    let cases = [
        (Waters::Sea, true, Some(2), 2),
        (Waters::Sea, false, Some(6), 2),
        (Waters::Coast, false, Some(2), 2),
        (Waters::Coast, true, Some(2), 2),
        (Waters::River, true, None, 2),
        (Waters::River, false, None, 2),
        (Waters::Swamp, false, Some(3), 3),
    ];
    for (waters, navigator, lost, wandering) in cases {
        let w = water(120, waters, Current::None, navigator);
        assert_eq!(lost_chance(&w), lost, "{waters:?}");
        assert_eq!(wandering_chance(&w), wandering, "{waters:?}");
        let mut e = engine();
        let got = secrets(&run(&mut e, &day(March::Water, Some(w))));
        let (last, first) = got.split_last().unwrap();
        assert_eq!(last.0, SecretCheck::WanderingMonster);
        assert_eq!(last.1, wandering);
        assert_eq!(
            last.2 == Some(true),
            last.3,
            "the distance comes with an encounter"
        );
        match lost {
            None => assert!(first.is_empty(), "{first:?}"),
            Some(l) => {
                assert_eq!(first.len(), 1);
                assert_eq!(first[0].0, SecretCheck::LostDirection);
                assert_eq!(first[0].1, 6 - l);
            }
        }
    }
    // Without a navigator on the open seas the party is always lost.
    for seed in 0..10 {
        let mut e = new_engine(&arena_with("", 9, 9), seed);
        let w = water(120, Waters::Sea, Current::None, false);
        let got = secrets(&run(&mut e, &day(March::Water, Some(w))));
        assert_eq!(got[0].2, Some(false));
    }
    // Encounters come up, each with its 4d6 distance.
    let mut met = 0;
    for seed in 0..40 {
        let mut e = new_engine(&arena_with("", 9, 9), seed);
        let w = water(120, Waters::Swamp, Current::None, true);
        let ev = run(&mut e, &day(March::Water, Some(w)));
        for x in &ev {
            if let GameEvent::SecretRolled {
                check: SecretCheck::WanderingMonster,
                success: Some(true),
                distance: Some(r),
                ..
            } = x
            {
                assert!((4..=24).contains(&r.total));
                met += 1;
            }
        }
    }
    assert!(met > 0);
}

/// ose-adventuring.txt § Travel on the Water: a day on the water needs its `water` and `march`
/// `water` together, a current only on a river, a rate within 1..=10000, and an `ose` session
/// (Basic Fantasy keeps its own waterborne rules); refusals change nothing.
#[test]
fn a_day_on_the_water_is_checked_before_any_die_travel_on_the_water() {
    let mut e = engine();
    let sea = water(120, Waters::Sea, Current::None, true);
    for cmd in [
        day(March::Water, None),
        day(March::Normal, Some(sea)),
        day(March::Rest, Some(sea)),
        day(
            March::Water,
            Some(water(120, Waters::Sea, Current::Downstream, true)),
        ),
        day(
            March::Water,
            Some(water(0, Waters::Sea, Current::None, true)),
        ),
        day(
            March::Water,
            Some(water(10_001, Waters::Sea, Current::None, true)),
        ),
    ] {
        assert_eq!(refuse(&mut e, &cmd), ErrorCode::InvalidArgument, "{cmd:?}");
    }
    let text = arena_text("", 9, 9).replace("ruleset = \"ose\"", "ruleset = \"basic-fantasy\"");
    let mut e = new_engine(&load_encounter("bf.toml", &text).unwrap(), 1);
    assert_eq!(
        refuse(&mut e, &day(March::Water, Some(sea))),
        ErrorCode::InvalidArgument
    );
}
