//! Orcus unwilling movement chosen by the power's user (orcus-basic-rules.txt § Unwilling
//! movement).

use super::tests::{arena_src, started};
use crate::content::model::Encounter;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, refuse, run};
use fray_protocol::command::AttackMode;
use fray_protocol::event::GameEvent;
use fray_protocol::grid::{ForcedPath, MoveMode, Square};
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{OrcusCommand, OrcusEvent};

/// Kael's powers that move their targets (bonus 40: only a natural 1 misses).
const MOVERS: &str = r#"[[hero.powers]]
id = "shove"
name = "Shove"
origin = "melee"
vs = "fortitude"
bonus = 40
hit = "1"
push = 2
[[hero.powers]]
id = "hook"
name = "Chain Hook"
origin = "ranged"
range = [10, 10]
vs = "reflex"
bonus = 40
hit = "1"
pull = 2
[[hero.powers]]
id = "gust"
name = "Gust"
origin = "near burst"
area = 1
targets = "all enemies"
vs = "fortitude"
bonus = 40
hit = "1"
push = 1
"#;

/// Kael at (4, 2) with brute-1 east of him, a wall at (6, 3).
fn yard(positions: &str) -> Encounter {
    let rows = [
        "..........",
        "..........",
        "..........",
        "......#...",
        "..........",
        "..........",
    ];
    let src = arena_src(&rows, "", 5, positions).replace(
        "[[hero]]\nid = \"lira\"",
        &format!("{MOVERS}[[hero]]\nid = \"lira\""),
    );
    crate::rules::load_encounter("yard.toml", &src).unwrap()
}

const EAST: &str = "kael = [4, 2]\nlira = [6, 1]\nbrute-1 = [5, 2]\nbrute-2 = [8, 4]";

fn path(target: &str, squares: &[(i32, i32)]) -> ForcedPath {
    ForcedPath {
        target: cid(target),
        path: squares.iter().map(|(x, y)| Square::new(*x, *y)).collect(),
    }
}

fn hit(actor: &str, power: &str, targets: &[&str], forced: Vec<ForcedPath>) -> Command {
    Command::Attack {
        actor: cid(actor),
        attack: power.into(),
        targets: targets.iter().map(|t| cid(t)).collect(),
        mode: AttackMode::Standard,
        knock_out: false,
        forced,
        weapon: None,
        secondary_target: None,
    }
}

fn square(e: &Engine, id: &str) -> Square {
    super::tests::square(e, id)
}

fn hits(ev: &[GameEvent]) -> usize {
    ev.iter()
        .filter(|x| matches!(x, GameEvent::AttackRolled { outcome, .. } if outcome.is_hit()))
        .count()
}

fn moved(ev: &[GameEvent], who: &str) -> Option<Vec<Square>> {
    ev.iter().find_map(|x| match x {
        GameEvent::Orcus(OrcusEvent::GridMoved {
            combatant,
            path,
            mode: MoveMode::Unwilling,
            ..
        }) if combatant.as_str() == who => Some(path.clone()),
        _ => None,
    })
}

#[test]
fn the_user_chooses_the_squares_of_a_push_unwilling_movement() {
    // orcus-basic-rules.txt § Unwilling movement: the power's user moves the target (Fourth
    // Edition's forced movement, an interpretation): Kael pushes brute-1 north-east, each
    // square farther from him, instead of Fray's straight line east.
    let enc = yard(EAST);
    let mut checked = false;
    for seed in 0..10 {
        let mut e = started(&enc, seed);
        let ev = run(
            &mut e,
            &hit(
                "kael",
                "shove",
                &["brute-1"],
                vec![path("brute-1", &[(6, 2), (7, 1)])],
            ),
        );
        if hits(&ev) == 0 {
            assert_eq!(
                square(&e, "brute-1"),
                Square::new(5, 2),
                "a miss moves no one"
            );
            continue;
        }
        assert_eq!(
            moved(&ev, "brute-1"),
            Some(vec![Square::new(6, 2), Square::new(7, 1)])
        );
        assert_eq!(square(&e, "brute-1"), Square::new(7, 1));
        assert!(
            !ev.iter()
                .any(|x| matches!(x, GameEvent::OpportunityTaken { .. }))
        );
        checked = true;
        break;
    }
    assert!(checked, "no hit over the seeds");
}

#[test]
fn a_pull_may_stop_short_or_not_move_at_all_unwilling_movement() {
    // orcus-basic-rules.txt § Unwilling movement (pull: each square closer; interpretation,
    // Fourth Edition: "up to" the number of squares, so the user may stop early).
    let enc = yard(EAST);
    let mut seen = 0;
    for seed in 0..20 {
        let mut e = started(&enc, seed);
        let ev = run(
            &mut e,
            &hit(
                "kael",
                "hook",
                &["brute-2"],
                vec![path("brute-2", &[(7, 3)])],
            ),
        );
        if hits(&ev) == 0 {
            continue;
        }
        assert_eq!(
            square(&e, "brute-2"),
            Square::new(7, 3),
            "one square of two"
        );
        seen += 1;
        break;
    }
    for seed in 0..20 {
        let mut e = started(&enc, seed);
        let ev = run(
            &mut e,
            &hit("kael", "hook", &["brute-2"], vec![path("brute-2", &[])]),
        );
        if hits(&ev) == 0 {
            continue;
        }
        assert_eq!(
            moved(&ev, "brute-2"),
            None,
            "an empty path moves it not at all"
        );
        assert_eq!(square(&e, "brute-2"), Square::new(8, 4));
        seen += 1;
        break;
    }
    assert_eq!(seen, 2, "no hit over the seeds");
}

#[test]
fn a_forced_path_the_movement_does_not_allow_is_refused_before_any_die_unwilling_movement() {
    // orcus-basic-rules.txt § Unwilling movement: push farther, pull closer, at most the
    // power's squares; walls, the map's edge and creatures stop it (interpretation) — a chosen
    // path through them is refused with nothing rolled or changed.
    let enc = yard(EAST);
    let mut e = started(&enc, 1);
    let bad = |e: &mut Engine, power: &str, target: &str, forced: Vec<ForcedPath>| {
        refuse(e, &hit("kael", power, &[target], forced))
    };
    let cases: Vec<(&str, &str, Vec<ForcedPath>)> = vec![
        // Not farther from Kael: (5, 1) is still adjacent to him.
        ("shove", "brute-1", vec![path("brute-1", &[(5, 1)])]),
        // Three squares of a push 2.
        (
            "shove",
            "brute-1",
            vec![path("brute-1", &[(6, 2), (7, 2), (8, 2)])],
        ),
        // Not an adjacent square.
        ("shove", "brute-1", vec![path("brute-1", &[(7, 2)])]),
        // Into the wall at (6, 3).
        ("shove", "brute-1", vec![path("brute-1", &[(6, 3)])]),
        // Into Lira's square.
        ("shove", "brute-1", vec![path("brute-1", &[(6, 1)])]),
        // A creature the attack does not target.
        ("shove", "brute-1", vec![path("brute-2", &[(9, 4)])]),
        // The same target twice.
        (
            "shove",
            "brute-1",
            vec![path("brute-1", &[(6, 2)]), path("brute-1", &[(6, 2)])],
        ),
        // A pull step that goes away.
        ("hook", "brute-2", vec![path("brute-2", &[(9, 5)])]),
        // A power that moves no one.
        ("sword", "brute-1", vec![path("brute-1", &[(6, 2)])]),
    ];
    for (power, target, forced) in cases {
        assert_eq!(
            bad(&mut e, power, target, forced.clone()),
            ErrorCode::InvalidForcedPath,
            "{power} {forced:?}"
        );
    }
    // Off the map: brute-1 on the bottom row pushed south.
    let enc = yard("kael = [4, 4]\nlira = [0, 0]\nbrute-1 = [4, 5]\nbrute-2 = [8, 0]");
    let mut e = started(&enc, 1);
    assert_eq!(
        bad(&mut e, "shove", "brute-1", vec![path("brute-1", &[(4, 6)])]),
        ErrorCode::InvalidForcedPath
    );
}

#[test]
fn an_area_attack_takes_the_chosen_paths_and_an_earlier_push_can_block_a_later_one_unwilling_movement()
 {
    // orcus-basic-rules.txt § Unwilling movement and § Areas of effect: each target of the
    // burst is pushed along its chosen path; both paths end on (6, 2), which brute-1 takes
    // first, so brute-2's push stops before it (interpretation: a creature stops it).
    let enc = yard("kael = [4, 2]\nlira = [0, 0]\nbrute-1 = [5, 2]\nbrute-2 = [5, 3]");
    let area = |forced: Vec<ForcedPath>| {
        Command::Orcus(OrcusCommand::AreaAttack {
            actor: cid("kael"),
            attack: "gust".into(),
            origin: None,
            targets: Vec::new(),
            forced,
            origin_height: None,
            weapon: None,
            secondary_target: None,
        })
    };
    let mut e = started(&enc, 1);
    assert_eq!(
        refuse(&mut e, &area(vec![path("lira", &[(0, 1)])])),
        ErrorCode::InvalidForcedPath,
        "Lira is not in the burst's targets"
    );
    for seed in 0..20 {
        let mut e = started(&enc, seed);
        let ev = run(
            &mut e,
            &area(vec![path("brute-1", &[(6, 2)]), path("brute-2", &[(6, 2)])]),
        );
        if hits(&ev) < 2 {
            continue;
        }
        assert_eq!(square(&e, "brute-1"), Square::new(6, 2));
        assert_eq!(moved(&ev, "brute-2"), None, "{ev:?}");
        assert_eq!(square(&e, "brute-2"), Square::new(5, 3));
        return;
    }
    panic!("no double hit over the seeds");
}
