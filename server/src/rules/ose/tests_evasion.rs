//! Old-School Essentials § Evasion and Pursuit (`evasion.rs`): the tables cell by cell and the
//! GM's `attempt_evasion` through the real engine.

use super::evasion::{waterborne_chance, wilderness_base_chance, wilderness_chance};
use super::tests::arena_with;
use crate::rules::common::testing::{new_engine, refuse, run};
use fray_protocol::event::GameEvent;
use fray_protocol::ose::{EncounterSetting, EvasionSurprise};
use fray_protocol::{BxCommand, BxEvent};
use fray_protocol::{Command, ErrorCode};

fn evade(
    setting: EncounterSetting,
    rates: (u32, u32),
    sizes: (u32, u32),
    surprise: Option<EvasionSurprise>,
    modifier: i32,
) -> Command {
    Command::Bx(BxCommand::AttemptEvasion {
        setting,
        fleeing_rate: rates.0,
        pursuer_rate: rates.1,
        fleeing: sizes.0,
        pursuers: sizes.1,
        surprise,
        modifier,
    })
}

fn attempted(ev: &[GameEvent]) -> (u32, Option<u32>, bool) {
    match ev {
        [
            GameEvent::Bx(BxEvent::EvasionAttempted {
                chance,
                roll,
                evaded,
                ..
            }),
        ] => (*chance, roll.as_ref().and_then(|r| r.natural()), *evaded),
        _ => panic!("{ev:?}"),
    }
}

/// ose-adventuring.txt § Evasion and Pursuit, Waterborne (Waterborne Evasion Chance): every
/// row, at both edges of its band.
#[test]
fn waterborne_evasion_chance_table_waterborne() {
    assert_eq!(waterborne_chance(150, 120), 80);
    for (slower, chance) in [
        (0, 50),
        (30, 50),
        (31, 40),
        (60, 40),
        (61, 35),
        (90, 35),
        (91, 25),
        (120, 25),
        (121, 10),
        (400, 10),
    ] {
        assert_eq!(
            waterborne_chance(30, 30 + slower),
            chance,
            "{slower}′ slower"
        );
    }
}

/// ose-adventuring.txt § Evasion and Pursuit, In the Wilderness (Wilderness Evasion Base
/// Chance): every cell, at both edges of each group-size row and pursuer column.
#[test]
fn wilderness_evasion_base_chance_table_in_the_wilderness() {
    for (fleeing, cells) in [
        ([1, 4], [(1, 1, 50), (2, 3, 70), (4, 1000, 90)]),
        ([5, 12], [(1, 3, 35), (4, 8, 50), (9, 1000, 70)]),
        ([13, 24], [(1, 6, 25), (7, 16, 35), (17, 1000, 50)]),
        ([25, 500], [(1, 10, 10), (11, 30, 25), (31, 1000, 35)]),
    ] {
        for f in fleeing {
            for (lo, hi, chance) in cells {
                assert_eq!(wilderness_base_chance(f, lo), chance, "{f} vs {lo}");
                assert_eq!(wilderness_base_chance(f, hi), chance, "{f} vs {hi}");
            }
        }
    }
}

/// ose-adventuring.txt § Evasion and Pursuit, In the Wilderness (Evasion: surprise; Evasion
/// Modifiers: twice as fast ±25%, the environment, the 5% minimum).
#[test]
fn wilderness_modifiers_and_surprise_evasion_modifiers() {
    // Equal speeds: the base chance.
    assert_eq!(wilderness_chance(3, 5, 120, 120, None, 0), 90);
    // Pursuers twice as fast: −25%; fleeing side twice as fast: +25% (capped at 100).
    assert_eq!(wilderness_chance(6, 2, 60, 120, None, 0), 10);
    assert_eq!(wilderness_chance(6, 2, 120, 60, None, 0), 60);
    assert_eq!(wilderness_chance(3, 5, 240, 120, None, 0), 100);
    // Not quite twice as fast: no modifier.
    assert_eq!(wilderness_chance(6, 2, 119, 60, None, 0), 35);
    // Dense woodland +25%.
    assert_eq!(wilderness_chance(30, 5, 120, 120, None, 25), 35);
    // Minimum 5%.
    assert_eq!(wilderness_chance(30, 5, 60, 120, None, -50), 5);
    // Surprised: no chance but the GM's (e.g. dense woodland 10%); surprising: automatic.
    assert_eq!(
        wilderness_chance(3, 5, 120, 120, Some(EvasionSurprise::Surprised), 0),
        0
    );
    assert_eq!(
        wilderness_chance(3, 5, 120, 120, Some(EvasionSurprise::Surprised), 10),
        10
    );
    assert_eq!(
        wilderness_chance(30, 50, 60, 120, Some(EvasionSurprise::Surprising), -50),
        100
    );
}

/// ose-adventuring.txt § Evasion and Pursuit, In the Dungeon (Evasion: the faster fleeing side
/// evades, otherwise a pursuit occurs) and § Evasion (only before combat has begun); the
/// `attempt_evasion` command, its d% and its refusals.
#[test]
fn attempt_evasion_through_the_engine_in_the_dungeon() {
    let mut e = new_engine(&arena_with("", 30, 9), 4);
    let dungeon = EncounterSetting::Dungeon;
    let draws = e.rng().draws();
    assert_eq!(
        attempted(&run(&mut e, &evade(dungeon, (120, 90), (0, 0), None, 0))),
        (100, None, true)
    );
    assert_eq!(
        attempted(&run(&mut e, &evade(dungeon, (90, 90), (0, 0), None, 0))),
        (0, None, false)
    );
    assert_eq!(
        e.rng().draws(),
        draws,
        "the dungeon comparison rolls nothing"
    );
    // Waterborne: the d% against the chance.
    let (chance, roll, evaded) = attempted(&run(
        &mut e,
        &evade(EncounterSetting::Waterborne, (60, 120), (0, 0), None, 0),
    ));
    let roll = roll.unwrap();
    assert_eq!(chance, 40);
    assert!((1..=100).contains(&roll));
    assert_eq!(evaded, roll <= 40);
    // Wilderness: 3 fleeing 2 pursuers, 70%.
    let (chance, roll, evaded) = attempted(&run(
        &mut e,
        &evade(EncounterSetting::Wilderness, (120, 120), (3, 2), None, 0),
    ));
    assert_eq!(chance, 70);
    assert_eq!(evaded, roll.unwrap() <= 70);
    // Refusals.
    for bad in [
        evade(dungeon, (0, 90), (0, 0), None, 0),
        evade(dungeon, (90, 90), (3, 2), None, 0),
        evade(dungeon, (90, 90), (0, 0), None, 10),
        evade(EncounterSetting::Wilderness, (90, 90), (0, 2), None, 0),
        evade(EncounterSetting::Wilderness, (90, 90), (1, 2), None, 101),
    ] {
        assert_eq!(refuse(&mut e, &bad), ErrorCode::InvalidArgument, "{bad:?}");
    }
    run(&mut e, &Command::StartBattle);
    assert_eq!(
        refuse(&mut e, &evade(dungeon, (120, 90), (0, 0), None, 0)),
        ErrorCode::BattleAlreadyStarted
    );
}
