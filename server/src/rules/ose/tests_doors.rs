//! Forcing doors in the open (`doors.rs`) through the real engine: ose-adventuring.txt
//! § Stuck Doors (Forcing; Surprise), basic-fantasy-adventures.txt § Doors.

use super::tests::arena_with;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, new_engine, refuse, run};
use fray_protocol::event::GameEvent;
use fray_protocol::ids::Side;
use fray_protocol::ose::SecretCheck;
use fray_protocol::{BxCommand, BxEvent};
use fray_protocol::{Command, ErrorCode};

fn force(check: SecretCheck, who: &str) -> Command {
    Command::Bx(BxCommand::SecretRoll {
        check,
        combatant: Some(cid(who)),
        chance: 1,
        area: None,
    })
}

fn surprise(side: Side) -> Command {
    Command::Bx(BxCommand::RollSurprise { sides: vec![side] })
}

fn spoiled(e: &Engine) -> bool {
    e.state().ose.is_some_and(|o| o.surprise_spoiled)
}

/// The monsters' surprise roll: (the d6, surprised).
fn monsters_surprise(e: &mut Engine) -> (u32, bool) {
    let ev = run(e, &surprise(Side::Monsters));
    let [
        GameEvent::Bx(BxEvent::SurpriseRolled {
            side: Side::Monsters,
            roll,
            surprised,
        }),
    ] = ev.as_slice()
    else {
        panic!("{ev:?}")
    };
    (roll.natural().unwrap_or(0), *surprised)
}

/// ose-adventuring.txt § Stuck Doors, Forcing ("depends on the character's Strength"), and
/// basic-fantasy-adventures.txt § Doors (1 on 1d6 plus the STR bonus; "the GM rolls" is said of
/// listening only): neither text makes forcing a door the referee's secret, so the roll is the
/// public `door_forced` — players and spectators see it whole — drawn from the session's own
/// stream (the secret stream is untouched).
#[test]
fn forcing_a_door_is_rolled_in_the_open_stuck_doors() {
    let mut e = new_engine(&arena_with("", 30, 9), 3);
    for check in [
        SecretCheck::StuckDoor,
        SecretCheck::LockedDoor,
        SecretCheck::Bars,
    ] {
        let secret = e.secret_draws();
        let public = e.rng().draws();
        let ev = run(&mut e, &force(check, "ada"));
        let [x @ GameEvent::Bx(BxEvent::DoorForced { combatant, .. })] = ev.as_slice() else {
            panic!("{ev:?}")
        };
        assert_eq!(combatant, &cid("ada"));
        assert!(!x.has_secret(|_| false));
        assert_eq!(&x.redacted(|_| true), x);
        assert_eq!(e.secret_draws(), secret);
        assert!(e.rng().draws() > public);
    }
    // Still only the party's characters force doors (refused, nothing drawn).
    assert_eq!(
        refuse(&mut e, &force(SecretCheck::StuckDoor, "boss")),
        ErrorCode::InvalidTarget
    );
}

/// ose-adventuring.txt § Stuck Doors, Surprise: "A failed attempt to force open a door
/// eliminates any possibility of surprise … that the party may have against any monsters on the
/// other side of the door" — after a failed attempt (Bram, STR 5: no chance) the monsters'
/// next `roll_surprise` never finds them surprised, whatever the d6; the party's own roll is
/// unaffected; the monsters' roll uses the spoiled surprise up. Without a failed attempt (or
/// after one at bars, not a door) a 1 or 2 surprises them as usual (§ Surprise Checks).
#[test]
fn a_failed_attempt_at_a_door_spoils_surprise_stuck_doors() {
    let (mut low_spoiled, mut low_clean, mut low_bars) = (false, false, false);
    for seed in 0..80 {
        // A failed attempt at a stuck door.
        let mut e = new_engine(&arena_with("", 30, 9), seed);
        let ev = run(&mut e, &force(SecretCheck::StuckDoor, "bram"));
        assert!(matches!(
            ev.as_slice(),
            [GameEvent::Bx(BxEvent::DoorForced {
                success: false,
                chance: 0,
                ..
            })]
        ));
        assert!(spoiled(&e));
        run(&mut e, &surprise(Side::Heroes));
        assert!(spoiled(&e), "the party's own roll leaves it");
        let (d6, surprised) = monsters_surprise(&mut e);
        assert!(!surprised, "seed {seed}: d6 {d6}");
        low_spoiled |= d6 <= 2;
        assert!(!spoiled(&e), "used up by the monsters' roll");
        // No attempt: the d6 decides.
        let mut e = new_engine(&arena_with("", 30, 9), seed);
        let (d6, surprised) = monsters_surprise(&mut e);
        assert_eq!(surprised, d6 <= 2);
        low_clean |= d6 <= 2;
        // Bent bars that held are not a door.
        let mut e = new_engine(&arena_with("", 30, 9), seed);
        run(&mut e, &force(SecretCheck::Bars, "bram"));
        assert!(!spoiled(&e));
        let (d6, surprised) = monsters_surprise(&mut e);
        assert_eq!(surprised, d6 <= 2);
        low_bars |= d6 <= 2;
    }
    assert!(low_spoiled && low_clean && low_bars);
}

/// ose-adventuring.txt § Stuck Doors, Surprise: a door forced open at once gives nothing away —
/// a success (Ada, STR 16: 1–3 on the d6) leaves the monsters' surprise to their d6; a locked
/// door that holds (Basic Fantasy § Doors: "forced by rolling the same range") spoils it.
#[test]
fn a_door_forced_at_once_keeps_surprise_stuck_doors() {
    let (mut opened, mut held) = (false, false);
    for seed in 0..40 {
        let mut e = new_engine(&arena_with("", 30, 9), seed);
        let ev = run(&mut e, &force(SecretCheck::StuckDoor, "ada"));
        let [GameEvent::Bx(BxEvent::DoorForced { success, roll, .. })] = ev.as_slice() else {
            panic!("{ev:?}")
        };
        assert_eq!(*success, roll.natural().unwrap() <= 3);
        assert_eq!(spoiled(&e), !success);
        opened |= *success;
        let ev = run(&mut e, &force(SecretCheck::LockedDoor, "ada"));
        let [
            GameEvent::Bx(BxEvent::DoorForced {
                success: locked, ..
            }),
        ] = ev.as_slice()
        else {
            panic!("{ev:?}")
        };
        if !locked {
            held = true;
            assert!(spoiled(&e));
        }
    }
    assert!(opened && held);
}
