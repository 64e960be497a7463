//! Old-School Essentials § Waterborne Adventuring, Near Gales and Gales and Storms
//! (`waterborne.rs`) through the real engine.

use super::tests::arena_with;
use crate::rules::common::testing::{new_engine, refuse, run};
use fray_protocol::event::GameEvent;
use fray_protocol::ose::GaleOutcome;
use fray_protocol::{BxCommand, BxEvent};
use fray_protocol::{Command, ErrorCode};
use std::collections::BTreeSet;

fn gale(near: bool, seaworthy: bool, land: bool, clear_shore: bool) -> Command {
    Command::Bx(BxCommand::GaleStrikes {
        near,
        seaworthy,
        land,
        clear_shore,
    })
}

type Struck = (Option<u32>, Option<u32>, Option<u32>, GaleOutcome);

fn struck(ev: &[GameEvent]) -> Struck {
    let face = |r: &Option<fray_protocol::roll::Roll>| r.as_ref().and_then(|r| r.natural());
    match ev {
        [
            GameEvent::Bx(BxEvent::GaleStruck {
                roll,
                drift,
                harbor,
                outcome,
                ..
            }),
        ] => (face(roll), face(drift), face(harbor), *outcome),
        _ => panic!("{ev:?}"),
    }
}

/// ose-adventuring.txt § Waterborne Adventuring, Near Gales ("Seaworthy vessels: Have a 10%
/// chance of taking on water. Unseaworthy vessels: Have a 20% chance"): the d% against 10 or 20.
#[test]
fn near_gales_take_on_water_on_10_or_20_percent_near_gales() {
    let enc = arena_with("", 30, 9);
    let mut seen = BTreeSet::new();
    for seed in 0..80 {
        let mut e = new_engine(&enc, seed);
        let seaworthy = seed % 2 == 0;
        let (roll, drift, harbor, outcome) =
            struck(&run(&mut e, &gale(true, seaworthy, false, false)));
        let roll = roll.unwrap();
        assert_eq!((drift, harbor), (None, None));
        let water = roll <= if seaworthy { 10 } else { 20 };
        assert_eq!(
            outcome,
            if water {
                GaleOutcome::TakesOnWater
            } else {
                GaleOutcome::Weathered
            }
        );
        seen.insert((seaworthy, water));
    }
    assert_eq!(seen.len(), 4);
}

/// ose-adventuring.txt § Waterborne Adventuring, Gales and Storms: a seaworthy ship drifts in a
/// d6 direction and wrecks on 75% when it meets land; an unseaworthy one sinks on 80%, unless in
/// sight of land it beaches (automatic on a clear shore, else a safe harbor on 2-in-6).
#[test]
fn gales_drift_wreck_sink_or_beach_gales_and_storms() {
    let enc = arena_with("", 30, 9);
    let mut seen = BTreeSet::new();
    for seed in 0..60 {
        // Seaworthy, open sea: a drift, no d%.
        let mut e = new_engine(&enc, seed);
        let (roll, drift, _, outcome) = struck(&run(&mut e, &gale(false, true, false, false)));
        assert!((1..=6).contains(&drift.unwrap()));
        assert_eq!((roll, outcome), (None, GaleOutcome::Drifts));
        // Seaworthy, land on the way: 75% wreck.
        let (roll, drift, _, outcome) = struck(&run(&mut e, &gale(false, true, true, false)));
        assert!(drift.is_some());
        let wrecked = roll.unwrap() <= 75;
        assert_eq!(outcome == GaleOutcome::Wrecked, wrecked);
        assert_eq!(outcome == GaleOutcome::Drifts, !wrecked);
        seen.insert(format!("{outcome:?}"));
        // Unseaworthy, open sea: 80% sinking.
        let (roll, drift, harbor, outcome) =
            struck(&run(&mut e, &gale(false, false, false, false)));
        assert_eq!((drift, harbor), (None, None));
        let sinks = roll.unwrap() <= 80;
        assert_eq!(
            outcome,
            if sinks {
                GaleOutcome::Sinks
            } else {
                GaleOutcome::Weathered
            }
        );
        seen.insert(format!("{outcome:?}"));
        // Unseaworthy, a clear shore in sight: beached without a roll.
        assert_eq!(
            struck(&run(&mut e, &gale(false, false, true, true))),
            (None, None, None, GaleOutcome::Beached)
        );
        // A dangerous shore: a safe harbor on 1–2, else the 80% sinking roll.
        let (roll, _, harbor, outcome) = struck(&run(&mut e, &gale(false, false, true, false)));
        if harbor.unwrap() <= 2 {
            assert_eq!((roll, outcome), (None, GaleOutcome::Beached));
        } else {
            assert_ne!(outcome, GaleOutcome::Beached);
            assert_eq!(outcome == GaleOutcome::Sinks, roll.unwrap() <= 80);
        }
    }
    assert_eq!(seen.len(), 4, "{seen:?}");
    let mut e = new_engine(&enc, 1);
    for bad in [
        gale(true, true, true, false),
        gale(false, true, true, true),
        gale(false, false, false, true),
    ] {
        assert_eq!(refuse(&mut e, &bad), ErrorCode::InvalidArgument, "{bad:?}");
    }
}

/// The day's wind: the 2d6 total, its row, the sailing and oar multipliers.
type Wind = (
    i32,
    fray_protocol::ose::OseWind,
    (u32, u32),
    Option<(u32, u32)>,
);

fn wind(ev: &[GameEvent]) -> Wind {
    match ev {
        [
            GameEvent::Bx(BxEvent::OseWindRolled {
                roll,
                wind,
                sailing,
                oars,
            }),
        ] => (roll.total, *wind, *sailing, *oars),
        _ => panic!("{ev:?}"),
    }
}

/// ose-adventuring.txt § Waterborne Adventuring, Wind Conditions ("rolling 2d6: 2: No wind;
/// sailing is not possible. 3-11: Normal sailing is possible. 12: Gale or storm; sailing vessels’
/// speed tripled"): `roll_wind` in an `ose` session rolls the 2d6, not Basic Fantasy's d12 and
/// d%; on the plain table only the three rows.
#[test]
fn the_daily_wind_is_a_2d6_on_the_plain_table_wind_conditions() {
    use fray_protocol::ose::OseWind;
    let enc = arena_with("", 30, 9);
    let mut seen = BTreeSet::new();
    for seed in 0..120 {
        let mut e = new_engine(&enc, seed);
        let (total, w, sailing, oars) = wind(&run(&mut e, &Command::Bx(BxCommand::RollWind {})));
        let expect = match total {
            2 => (OseWind::NoWind, (0, 1)),
            12 => (OseWind::Gale, (3, 1)),
            _ => (OseWind::Normal, (1, 1)),
        };
        assert!((2..=12).contains(&total));
        assert_eq!((w, sailing, oars), (expect.0, expect.1, None));
        seen.insert(w == OseWind::Normal);
    }
    assert_eq!(seen.len(), 2, "both the normal row and a 2 or 12 came up");
    for (t, w) in [
        (2, OseWind::NoWind),
        (7, OseWind::Normal),
        (12, OseWind::Gale),
    ] {
        assert_eq!(OseWind::from_2d6(t, false), w);
    }
    let mut e = new_engine(&enc, 1);
    run(&mut e, &Command::StartBattle);
    run(&mut e, &Command::EndBattle);
    assert_eq!(
        refuse(&mut e, &Command::Bx(BxCommand::RollWind {})),
        ErrorCode::BattleOver
    );
}

/// ose-adventuring.txt § Variable Wind Conditions (optional rule; the table: 2 no wind, oars at
/// 1/3; 3 ×1/3; 4 ×1/2; 5 ×2/3; 6-8 normal; 9 ×1⅓; 10 ×1½; 11 near gale ×2; 12 gale ×3): the
/// session option `variable_wind`.
#[test]
fn the_variable_table_details_every_2d6_row_variable_wind_conditions() {
    use fray_protocol::ose::OseWind;
    let table = [
        (2, OseWind::NoWind, (0, 1)),
        (3, OseWind::FaintBreeze, (1, 3)),
        (4, OseWind::GentleBreeze, (1, 2)),
        (5, OseWind::ModerateBreeze, (2, 3)),
        (6, OseWind::FreshBreeze, (1, 1)),
        (8, OseWind::FreshBreeze, (1, 1)),
        (9, OseWind::StrongBreeze, (4, 3)),
        (10, OseWind::HighWind, (3, 2)),
        (11, OseWind::NearGale, (2, 1)),
        (12, OseWind::Gale, (3, 1)),
    ];
    for (t, w, sailing) in table {
        assert_eq!(OseWind::from_2d6(t, true), w, "{t}");
        assert_eq!(w.sailing(), sailing, "{t}");
    }
    let enc = arena_with("variable_wind = true", 30, 9);
    let mut seen = BTreeSet::new();
    for seed in 0..60 {
        let mut e = new_engine(&enc, seed);
        let (total, w, sailing, oars) = wind(&run(&mut e, &Command::Bx(BxCommand::RollWind {})));
        assert_eq!(w, OseWind::from_2d6(total, true));
        assert_eq!(sailing, w.sailing());
        assert_eq!(oars, (total == 2).then_some((1, 3)));
        seen.insert(total);
    }
    assert!(seen.len() >= 8, "{seen:?}");
}
