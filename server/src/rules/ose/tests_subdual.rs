//! Old-School Essentials § Subduing (optional rule) (`subdual.rs`) through the real engine.

use super::tests::arena_with;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, current, new_engine, refuse, run};
use fray_protocol::BxEvent;
use fray_protocol::command::AttackMode;
use fray_protocol::event::{AttackOutcome, GameEvent};
use fray_protocol::ftd::Departure;
use fray_protocol::state::LifeStatus;
use fray_protocol::{Command, ErrorCode};

fn subdue(actor: &str, attack: &str, target: &str) -> Command {
    Command::Attack {
        actor: cid(actor),
        attack: attack.into(),
        targets: vec![cid(target)],
        mode: AttackMode::Standard,
        knock_out: true,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    }
}

/// A started fight with monsters of `hp` hit points, on Ada's turn.
fn on_adas_turn(hp: i32, seed: u64) -> Option<Engine> {
    let mut e = new_engine(&arena_with("subduing = true", hp, 9), seed);
    run(&mut e, &Command::StartBattle);
    for _ in 0..6 {
        let me = current(&e);
        if me == "ada" {
            return Some(e);
        }
        run(&mut e, &Command::EndTurn { actor: cid(&me) });
    }
    None
}

fn hit(ev: &[GameEvent]) -> bool {
    ev.iter().any(|x| {
        matches!(
            x,
            GameEvent::AttackRolled {
                outcome: AttackOutcome::Hit,
                ..
            }
        )
    })
}

fn subdual(e: &Engine, id: &str) -> i32 {
    cs(e, id).ose.map_or(-1, |o| o.subdual)
}

/// ose-adventuring.txt § Subduing (Optional Rule), "Subdual damage": combat and damage as
/// usual, noted separately — the hit points stay, the subdual damage adds up.
#[test]
fn subdual_damage_is_noted_apart_subduing() {
    for seed in 0..200 {
        let Some(mut e) = on_adas_turn(30, seed) else {
            continue;
        };
        let ev = run(&mut e, &subdue("ada", "sword", "boss"));
        if !hit(&ev) {
            continue;
        }
        let amount = ev
            .iter()
            .find_map(|x| match x {
                GameEvent::Bx(BxEvent::Subdued {
                    amount, subdual, ..
                }) => {
                    assert_eq!(amount, subdual);
                    Some(*amount)
                }
                _ => None,
            })
            .unwrap();
        assert!((3..=10).contains(&amount), "1d8 + 2 (STR 16)");
        assert!(!ev.iter().any(|x| matches!(x, GameEvent::Damaged { .. })));
        assert!(!ev.iter().any(|x| matches!(x, GameEvent::LeftBattle { .. })));
        assert_eq!(cs(&e, "boss").hp, Some(30));
        assert_eq!(subdual(&e, "boss"), amount);
        return;
    }
    panic!("no hit in 200 seeds");
}

/// ose-adventuring.txt § Subduing (Optional Rule), "Effect at 0 hp": subdual damage reaching
/// the hit points makes the creature surrender — it leaves the fight, not slain.
#[test]
fn at_zero_the_creature_surrenders_subduing() {
    for seed in 0..200 {
        let Some(mut e) = on_adas_turn(3, seed) else {
            continue;
        };
        let ev = run(&mut e, &subdue("ada", "sword", "goon-1"));
        if !hit(&ev) {
            continue;
        }
        assert!(
            ev.iter().any(|x| matches!(
                x,
                GameEvent::LeftBattle { combatant, how: Departure::Surrendered }
                    if combatant.as_str() == "goon-1"
            )),
            "{ev:?}"
        );
        assert!(!ev.iter().any(|x| matches!(x, GameEvent::Slain { .. })));
        let goon = cs(&e, "goon-1");
        assert_eq!(goon.hp, Some(3));
        assert_eq!(goon.status, LifeStatus::Conscious);
        assert!(goon.ose.is_some_and(|o| o.fled));
        return;
    }
    panic!("no hit in 200 seeds");
}

/// ose-adventuring.txt § Subduing (Optional Rule): "an intelligent opponent" only, and
/// "Blunt blows": a missile cannot subdue (interpretation: any melee blow can, with the flat
/// of a blade).
#[test]
fn missiles_and_unintelligent_targets_cannot_subdue_subduing() {
    let mut e = (0..50).find_map(|s| on_adas_turn(30, s)).unwrap();
    assert_eq!(
        refuse(&mut e, &subdue("ada", "bow", "boss")),
        ErrorCode::CannotSubdue
    );
    let text = super::tests::arena_text("subduing = true", 30, 9).replace(
        "[[monster.attacks]]\nid = \"maul\"",
        "unintelligent = true\n[[monster.attacks]]\nid = \"maul\"",
    );
    let enc = crate::rules::load_encounter("mindless.toml", &text).unwrap();
    let mut e = new_engine(&enc, 1);
    run(&mut e, &Command::StartBattle);
    for _ in 0..6 {
        let me = current(&e);
        if me == "ada" {
            break;
        }
        run(&mut e, &Command::EndTurn { actor: cid(&me) });
    }
    assert_eq!(current(&e), "ada");
    assert_eq!(
        refuse(&mut e, &subdue("ada", "sword", "boss")),
        ErrorCode::CannotSubdue
    );
    run(&mut e, &subdue("ada", "sword", "goon-1"));
}
