//! Old-School Essentials § Attacks Per Round (`routine.rs`) and § Bombing (`bombing.rs`)
//! through the real engine.

use super::tests::{arena_text, attack};
use crate::engine::Engine;
use crate::rules::common::testing::{cid, current, new_engine, refuse, run};
use crate::rules::ose::content::load_encounter;
use fray_protocol::event::{ActionKind, GameEvent};
use fray_protocol::{BxCommand, BxEvent};
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
    assert!(ev.iter().any(
        |x| matches!(x, GameEvent::Bx(BxEvent::RoutineAttack { attack, .. }) if attack == "claw-1")
    ));
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

fn bomb(attacker: &str, targets: &[&str], altitude: u32) -> Command {
    Command::Bx(BxCommand::Bomb {
        attacker: cid(attacker),
        targets: targets.iter().map(|t| cid(t)).collect(),
        damage: "2d6".into(),
        altitude,
    })
}

/// ose-adventuring.txt § Other Combat Issues, Bombing: only flying creatures, from at most
/// 300′; 16 or higher on 1d20 hits, a roll per target; the bomb's damage to every creature
/// hit (*interpretation*: one damage roll for all); it is the flier's attack of the round.
#[test]
fn a_flier_bombs_from_300_feet_hitting_on_16_bombing() {
    let text = arena_text("", 30, 9).replacen("morale = 8\n", "morale = 8\nflies = true\n", 1);
    let mut mixed = false;
    for seed in 0..300 {
        let Some(mut e) = on_turn_of(&text, "boss", seed) else {
            continue;
        };
        assert_eq!(
            refuse(&mut e, &bomb("boss", &["ada"], 301)),
            ErrorCode::CannotBomb
        );
        assert_eq!(
            refuse(&mut e, &bomb("goon-1", &["ada"], 100)),
            ErrorCode::CannotBomb
        );
        assert_eq!(
            refuse(&mut e, &bomb("boss", &["ada", "ada"], 100)),
            ErrorCode::InvalidArgument
        );
        let hp = |e: &Engine, id: &str| e.state().combatant(&cid(id)).and_then(|c| c.hp);
        let before = [hp(&e, "ada"), hp(&e, "bram")];
        let ev = run(&mut e, &bomb("boss", &["ada", "bram"], 300));
        assert!(spent(&ev), "the bomb is its attack of the round");
        let rolls: Vec<(String, u32, bool)> = ev
            .iter()
            .filter_map(|x| match x {
                GameEvent::AttackRolled {
                    target,
                    roll,
                    defense_value,
                    outcome,
                    ..
                } => {
                    assert_eq!(*defense_value, 16);
                    Some((
                        target.to_string(),
                        roll.natural().unwrap_or(0),
                        *outcome == fray_protocol::event::AttackOutcome::Hit,
                    ))
                }
                _ => None,
            })
            .collect();
        assert_eq!(rolls.len(), 2, "one d20 per target");
        for (_, natural, hit) in &rolls {
            assert_eq!(*hit, *natural >= 16);
        }
        let damage = ev.iter().find_map(|x| match x {
            GameEvent::DamageRolled { roll, .. } => Some(roll.total),
            _ => None,
        });
        let rolled = ev
            .iter()
            .filter(|x| matches!(x, GameEvent::DamageRolled { .. }))
            .count();
        assert_eq!(
            rolled,
            usize::from(rolls.iter().any(|r| r.2)),
            "damage rolled once"
        );
        for (i, (id, _, hit)) in rolls.iter().enumerate() {
            let lost = before[i].unwrap_or(0) - hp(&e, id).unwrap_or(0);
            assert_eq!(lost, if *hit { damage.unwrap_or(0) } else { 0 }, "{id}");
        }
        if rolls[0].2 != rolls[1].2 {
            mixed = true;
            break;
        }
    }
    assert!(mixed, "a seed where one target is hit and the other missed");
}
