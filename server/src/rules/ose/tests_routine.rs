//! Old-School Essentials § Attacks Per Round (`routine.rs`) and § Bombing (`bombing.rs`)
//! through the real engine.

use super::tests::{arena_text, attack};
use crate::content::ose::load_encounter;
use crate::engine::Engine;
use crate::rules::thirteenth_age::tests::{cid, current, new_engine, refuse, run};
use fray_protocol::event::{ActionKind, GameEvent};
use fray_protocol::{Command, ErrorCode};

/// The arena's boss with a claw/claw/bite routine besides its maul.
fn routine_arena() -> String {
    arena_text("", 30, 9).replace(
        "slow = true\n",
        "slow = true\n[[monster.attacks]]\nid = \"claw-1\"\nname = \"Claw\"\ndamage = \"1d3\"\n\
         routine = true\n[[monster.attacks]]\nid = \"claw-2\"\nname = \"Claw\"\ndamage = \"1d3\"\n\
         routine = true\n[[monster.attacks]]\nid = \"bite\"\nname = \"Bite\"\ndamage = \"1d6\"\n\
         routine = true\n",
    )
}

/// A started fight on `who`'s first turn.
fn on_turn_of(text: &str, who: &str, seed: u64) -> Option<Engine> {
    let mut e = new_engine(&load_encounter("arena.toml", text).ok()?, seed);
    run(&mut e, &Command::StartBattle);
    for _ in 0..6 {
        let me = current(&e);
        if me == who {
            return Some(e);
        }
        run(&mut e, &Command::EndTurn { actor: cid(&me) });
    }
    None
}

fn spent(ev: &[GameEvent]) -> bool {
    ev.iter().any(|x| {
        matches!(
            x,
            GameEvent::ActionUsed {
                action: ActionKind::Standard,
                ..
            }
        )
    })
}

/// ose-adventuring.txt § Combat, Attacks Per Round: a monster's several attacks (content
/// `routine`) are each made once in its turn — a second claw of the same id, or an attack
/// outside the routine once it began, is refused; the turn ends with the last of them.
#[test]
fn a_monsters_routine_attacks_once_each_attacks_per_round() {
    let text = routine_arena();
    let mut e = (0..50)
        .find_map(|seed| on_turn_of(&text, "boss", seed))
        .expect("the boss gets a turn");
    let ev = run(&mut e, &attack("boss", "claw-1", "ada"));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::RoutineAttack { attack, .. } if attack == "claw-1"))
    );
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::AttackRolled { .. }))
    );
    assert!(!spent(&ev), "the routine goes on");
    assert_eq!(current(&e), "boss");
    assert_eq!(
        refuse(&mut e, &attack("boss", "claw-1", "ada")),
        ErrorCode::ActionAlreadyUsed
    );
    assert_eq!(
        refuse(&mut e, &attack("boss", "maul", "ada")),
        ErrorCode::ActionAlreadyUsed,
        "the maul is not part of the routine"
    );
    let ev = run(&mut e, &attack("boss", "claw-2", "ada"));
    assert!(!spent(&ev));
    assert_eq!(current(&e), "boss");
    let ev = run(&mut e, &attack("boss", "bite", "ada"));
    assert!(
        spent(&ev),
        "the last routine attack spends the round's attack"
    );
    assert_ne!(current(&e), "boss", "its turn ended");
    assert_eq!(
        e.state()
            .combatant(&cid("boss"))
            .and_then(|c| c.ose.clone())
            .map(|o| o.routine_used.len()),
        Some(3)
    );
}

/// ose-adventuring.txt § Combat, Attacks Per Round: an attack outside the routine is the
/// monster's one attack of the round (then its turn ends); PCs attack once per round.
#[test]
fn pcs_and_non_routine_attacks_once_attacks_per_round() {
    let text = routine_arena();
    let mut e = (0..50)
        .find_map(|seed| on_turn_of(&text, "boss", seed))
        .expect("the boss gets a turn");
    let ev = run(&mut e, &attack("boss", "maul", "ada"));
    assert!(spent(&ev));
    assert_ne!(current(&e), "boss");
    assert_eq!(
        refuse(&mut e, &attack("boss", "claw-1", "ada")),
        ErrorCode::NotYourTurn
    );
    let mut e = (0..50)
        .find_map(|seed| on_turn_of(&text, "ada", seed))
        .expect("Ada gets a turn");
    let ev = run(&mut e, &attack("ada", "sword", "goon-1"));
    assert!(spent(&ev));
    assert_ne!(
        refuse(&mut e, &attack("ada", "sword", "goon-2")),
        ErrorCode::InvalidArgument
    );
    // A character's weapon cannot be part of a routine.
    let bad = text.replacen(
        "damage = \"1d8\"\n",
        "damage = \"1d8\"\nroutine = true\n",
        1,
    );
    let err = load_encounter("arena.toml", &bad).unwrap_err().to_string();
    assert!(err.contains("routine"), "{err}");
}
