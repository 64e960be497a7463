//! Orcus heights beyond the text (`aloft.rs`; orcus-basic-rules.txt has no altitude rules, so
//! these extend its sections with Fourth Edition's 3-D reading, an interpretation): far areas
//! centred aloft, flying over creatures, forced movement aloft.

use super::tests::{atk, end, mv, square, started, until};
use super::tests_elevation::{STUN, aloft, attacked, height, open_field, prone};
use crate::rules::common::testing::{cid, refusal, refuse, run};
use fray_protocol::event::GameEvent;
use fray_protocol::grid::{MoveMode, Square};
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{OrcusCommand, OrcusEvent};

fn area_at(actor: &str, attack: &str, origin: (i32, i32), up: Option<i32>) -> Command {
    Command::Orcus(OrcusCommand::AreaAttack {
        actor: cid(actor),
        attack: attack.into(),
        origin: Some(Square::new(origin.0, origin.1)),
        targets: vec![],
        forced: Vec::new(),
        origin_height: up,
        weapon: None,
        secondary_target: None,
    })
}

const FAR_AREAS: &str = r#"[[monster.powers]]
id = "hurl"
name = "Hurl"
origin = "far burst"
area = 1
range = [10]
targets = "all enemies"
vs = "reflex"
bonus = 4
hit = "1d6"
[[monster.powers]]
id = "quake"
name = "Quake"
origin = "far burst"
area = 2
range = [10]
targets = "all enemies"
vs = "reflex"
bonus = 4
hit = "1d6"
[[monster.powers]]
id = "gout"
name = "Gout"
origin = "far blast"
area = 2
range = [10]
targets = "all enemies"
vs = "reflex"
bonus = 4
hit = "1d6"
"#;

/// Kael flies 4 up over (6, 4), Lira stands next to that square on the ground, and the brute
/// throws from afar; a battle on the brute's turn.
fn brute_throws() -> crate::engine::Engine {
    let pos = "kael = [6, 4]\nlira = [5, 4]\nbrute-1 = [9, 0]\nbrute-2 = [0, 0]";
    let enc = open_field("fly = 4", "", "", pos, FAR_AREAS);
    let mut e = started(&enc, 5);
    run(&mut e, &aloft("kael", 4));
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    e
}

/// orcus-basic-rules.txt § Areas of effect (far burst, far blast), extended aloft
/// (interpretation, `aloft.rs`): `origin_height` lifts a far area's origin square; a burst n
/// spans that height ± n, so a burst 1 at 4 up (heights 3–5) takes Kael 4 up and misses Lira on
/// the ground, while the same burst on the ground (0–1), or at 1 up (0–2), takes Lira only; a
/// blast 2 whose origin is 3 up hangs from it (heights 2–3) and takes Kael, not Lira below.
#[test]
fn a_far_area_centred_aloft_spans_its_origin_height_areas_of_effect() {
    for (power, origin, up, want) in [
        ("hurl", (6, 4), Some(4), vec!["kael"]),
        ("hurl", (6, 4), None, vec!["lira"]),
        ("hurl", (6, 4), Some(0), vec!["lira"]),
        ("hurl", (6, 4), Some(1), vec!["lira"]),
        ("hurl", (6, 4), Some(3), vec!["kael"]),
        ("gout", (5, 4), Some(4), vec!["kael"]),
        ("gout", (5, 4), Some(3), vec![]),
        ("gout", (5, 4), None, vec!["lira"]),
    ] {
        let mut e = brute_throws();
        let ev = run(&mut e, &area_at("brute-1", power, origin, up));
        let want: Vec<String> = want.into_iter().map(String::from).collect();
        assert_eq!(attacked(&ev), want, "{power} at {up:?}");
    }
}

/// orcus-basic-rules.txt § Range and § Areas of effect (a far area's origin within its range),
/// extended aloft (interpretation, `aloft.rs`): the range to an origin aloft counts the height
/// as every distance does; 11 up is 11 squares from the brute (range 10), refused; heights
/// outside 0–20, and an `origin_height` on a near area, are refused as invalid. Each refusal
/// changes nothing and draws no dice.
#[test]
fn an_origin_aloft_beyond_range_or_height_is_refused_range() {
    let mut e = brute_throws();
    let r = refusal(&mut e, &area_at("brute-1", "hurl", (6, 4), Some(11)));
    assert_eq!(r.code, ErrorCode::OutOfRange, "{r}");
    assert!(r.message.contains("counting height"), "{r}");
    let r = refusal(&mut e, &area_at("brute-1", "gout", (5, 4), Some(11)));
    assert_eq!(r.code, ErrorCode::OutOfRange, "{r}");
    for h in [-1, 21] {
        let r = refusal(&mut e, &area_at("brute-1", "hurl", (6, 4), Some(h)));
        assert_eq!(r.code, ErrorCode::InvalidArgument, "{r}");
    }
    // 10 up is in range (and misses everyone: Kael's cube is 4 up).
    let ev = run(&mut e, &area_at("brute-1", "hurl", (6, 4), Some(10)));
    assert!(attacked(&ev).is_empty(), "{ev:?}");
    until(&mut e, "kael");
    let near = Command::Orcus(OrcusCommand::AreaAttack {
        actor: cid("kael"),
        attack: "burst".into(),
        origin: None,
        targets: vec![],
        forced: Vec::new(),
        origin_height: Some(1),
        weapon: None,
        secondary_target: None,
    });
    let r = refusal(&mut e, &near);
    assert_eq!(r.code, ErrorCode::InvalidArgument, "{r}");
}

// ---- Flying over creatures (§ Moving; occupied squares extended aloft, `aloft::level_with`).

/// orcus-basic-rules.txt § Walk / Fly through occupied squares (an enemy's square cannot be
/// entered), extended aloft (interpretation, `aloft.rs`): Kael flying 1 up passes over the
/// brute on the ground (their cubes do not meet) and may stop right above it; on the ground the
/// same path is refused, and the refusal changes nothing.
#[test]
fn a_flier_passes_over_an_enemy_and_may_stop_above_it_flying_over_creatures() {
    let pos = "kael = [6, 4]\nlira = [0, 5]\nbrute-1 = [7, 4]\nbrute-2 = [9, 0]";
    for up in [0, 1] {
        let enc = open_field("fly = 4", "", "", pos, "");
        let mut e = started(&enc, 5);
        if up > 0 {
            run(&mut e, &aloft("kael", up));
            run(&mut e, &end("kael"));
            until(&mut e, "kael");
        }
        let over = mv("kael", &[(7, 4), (8, 4)], MoveMode::Fly);
        let stop = mv("kael", &[(7, 4)], MoveMode::Fly);
        if up == 0 {
            assert_eq!(refuse(&mut e, &over), ErrorCode::IllegalPath);
            assert_eq!(refuse(&mut e, &stop), ErrorCode::IllegalPath);
            continue;
        }
        let ev = run(&mut e, &stop);
        assert!(
            ev.iter()
                .any(|x| matches!(x, GameEvent::Orcus(OrcusEvent::GridMoved { .. }))),
            "{ev:?}"
        );
        assert_eq!(square(&e, "kael"), Square::new(7, 4));
        assert_eq!(height(&e, "kael"), 1);
    }
}

/// orcus-basic-rules.txt § Walk through occupied squares, extended aloft (interpretation,
/// `aloft.rs`): the brute walks under Kael flying 1 up (an enemy, but their cubes do not meet)
/// and may stop under him; adjacency for opportunity attacks still counts height, so staying
/// next to him (under him, then beside him) provokes nothing.
#[test]
fn a_walker_passes_under_a_flier_flying_over_creatures() {
    let pos = "kael = [7, 4]\nlira = [0, 5]\nbrute-1 = [8, 4]\nbrute-2 = [9, 0]";
    for (up, ok) in [(0, false), (1, true)] {
        let enc = open_field("fly = 4", "", "", pos, "");
        let mut e = started(&enc, 5);
        if up > 0 {
            run(&mut e, &aloft("kael", up));
        }
        run(&mut e, &end("kael"));
        until(&mut e, "brute-1");
        let under = mv("brute-1", &[(7, 4), (6, 4)], MoveMode::Walk);
        if !ok {
            assert_eq!(refuse(&mut e, &under), ErrorCode::IllegalPath);
            continue;
        }
        let ev = run(&mut e, &under);
        assert!(
            !ev.iter()
                .any(|x| matches!(x, GameEvent::OpportunityTaken { .. })),
            "{ev:?}"
        );
        assert_eq!(square(&e, "brute-1"), Square::new(6, 4));
    }
}

/// orcus-basic-rules.txt § Fly through occupied squares, extended aloft (interpretation,
/// `aloft.rs`): at the same height as a flying enemy its square is occupied as on the ground:
/// Kael 1 up can neither pass through nor stop in the brute's square when the brute is 1 up
/// too (their cubes meet); once the brute is 2 up, he passes under it.
#[test]
fn a_flier_is_stopped_by_a_flier_whose_cubes_it_meets_flying_over_creatures() {
    let pos = "kael = [6, 4]\nlira = [0, 5]\nbrute-1 = [7, 4]\nbrute-2 = [9, 0]";
    for (brute_up, ok) in [(1, false), (2, true)] {
        let enc = open_field("fly = 4", "", "fly = 4", pos, "");
        let mut e = started(&enc, 5);
        run(&mut e, &aloft("kael", 1));
        run(&mut e, &end("kael"));
        until(&mut e, "brute-1");
        run(&mut e, &aloft("brute-1", brute_up));
        until(&mut e, "kael");
        let through = mv("kael", &[(7, 4), (8, 4)], MoveMode::Fly);
        if ok {
            run(&mut e, &through);
            assert_eq!(square(&e, "kael"), Square::new(8, 4));
        } else {
            assert_eq!(refuse(&mut e, &through), ErrorCode::IllegalPath);
            let stop = mv("kael", &[(7, 4)], MoveMode::Fly);
            assert_eq!(refuse(&mut e, &stop), ErrorCode::IllegalPath);
        }
    }
}

/// orcus-basic-rules.txt § Special movement modes (Fly) and falling (interpretation, see
/// `elevation.rs`), extended (`aloft::land_clear`): Kael hovering 1 up above the brute is
/// stunned by it and falls; he lands prone in the nearest unoccupied space, not in the brute's.
#[test]
fn a_flier_falling_onto_a_creature_lands_beside_it_flying_over_creatures() {
    let pos = "kael = [6, 4]\nlira = [0, 5]\nbrute-1 = [7, 4]\nbrute-2 = [9, 0]";
    let enc = open_field("fly = 4", "", "", pos, STUN);
    let mut e = started(&enc, 5);
    run(&mut e, &aloft("kael", 1));
    run(&mut e, &end("kael"));
    until(&mut e, "kael");
    run(&mut e, &mv("kael", &[(7, 4)], MoveMode::Fly));
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    let ev = run(&mut e, &atk("brute-1", "stun", &["kael"]));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::Orcus(OrcusEvent::Fell { squares: 1, .. }))),
        "{ev:?}"
    );
    assert!(
        ev.iter().any(|x| matches!(x,
            GameEvent::Orcus(OrcusEvent::GridMoved { combatant, mode: MoveMode::Unwilling, .. })
                if combatant.as_str() == "kael")),
        "{ev:?}"
    );
    assert_eq!(height(&e, "kael"), 0);
    assert_eq!(square(&e, "kael"), Square::new(6, 3));
    assert_eq!(square(&e, "brute-1"), Square::new(7, 4));
    assert!(prone(&e, "kael"));
}

// ---- Forced movement aloft (§ Unwilling movement extended aloft, `forced.rs::obstacles`).

const SHOVE: &str = r#"[[hero.powers]]
id = "shove"
name = "Shove"
origin = "melee"
vs = "fortitude"
bonus = 40
hit = "1"
push = 2
"#;

fn shove(forced: Vec<(&str, &[(i32, i32)])>) -> Command {
    Command::Attack {
        actor: cid("kael"),
        attack: "shove".into(),
        targets: vec![cid("brute-1")],
        mode: fray_protocol::command::AttackMode::Standard,
        knock_out: false,
        forced: forced
            .into_iter()
            .map(|(t, p)| fray_protocol::grid::ForcedPath {
                target: cid(t),
                path: p.iter().map(|(x, y)| Square::new(*x, *y)).collect(),
            })
            .collect(),
        weapon: None,
        secondary_target: None,
    }
}

/// A battle on Kael's second turn, the brutes (fliers) having risen to `up1` and `up2`.
fn shove_field(up1: i32, up2: i32) -> crate::engine::Engine {
    let pos = "kael = [6, 4]\nlira = [0, 5]\nbrute-1 = [7, 4]\nbrute-2 = [8, 4]";
    let enc = open_field(&format!("fly = 4\n{SHOVE}"), "", "fly = 4", pos, "");
    let mut e = started(&enc, 5);
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    if up1 > 0 {
        run(&mut e, &aloft("brute-1", up1));
    }
    until(&mut e, "brute-2");
    if up2 > 0 {
        run(&mut e, &aloft("brute-2", up2));
    }
    until(&mut e, "kael");
    e
}

/// orcus-basic-rules.txt § Unwilling movement (a push; another creature's space stops it),
/// extended aloft (interpretation, `forced.rs::obstacles`): Kael pushes the brute flying 1 up
/// two squares east, over brute-2 on the ground (their cubes do not meet); it keeps its height.
/// On the ground the same chosen path is refused before any die (`invalid_forced_path`), and
/// so it is when brute-2 flies 1 up too (level with it).
#[test]
fn a_creature_pushed_aloft_keeps_its_height_and_passes_over_others_unwilling_movement() {
    let over: &[(i32, i32)] = &[(8, 4), (9, 4)];
    let mut e = shove_field(1, 0);
    let ev = run(&mut e, &shove(vec![("brute-1", over)]));
    assert!(
        ev.iter().any(|x| matches!(x,
            GameEvent::Orcus(OrcusEvent::GridMoved { combatant, mode: MoveMode::Unwilling, path, .. })
                if combatant.as_str() == "brute-1" && path.last() == Some(&Square::new(9, 4)))),
        "{ev:?}"
    );
    assert_eq!(square(&e, "brute-1"), Square::new(9, 4));
    assert_eq!(height(&e, "brute-1"), 1);
    assert_eq!(square(&e, "brute-2"), Square::new(8, 4));
    for (up1, up2) in [(0, 0), (1, 1)] {
        let mut e = shove_field(up1, up2);
        assert_eq!(
            refuse(&mut e, &shove(vec![("brute-1", over)])),
            ErrorCode::InvalidForcedPath,
            "brute-1 {up1} up, brute-2 {up2} up"
        );
    }
}

/// orcus-basic-rules.txt § Unwilling movement, Fray's own path when the user names none
/// (`geometry::Geo::forced_path`: straight away from the source), extended aloft: the brute 1
/// up is pushed straight east over brute-2 on the ground to (9, 4); level with a flying
/// brute-2 it goes around it instead (by (8, 3) to (9, 2)), still 1 up.
#[test]
fn fray_s_push_path_aloft_ignores_creatures_below_unwilling_movement() {
    for (up2, to) in [(0, Square::new(9, 4)), (1, Square::new(9, 2))] {
        let mut e = shove_field(1, up2);
        run(&mut e, &shove(vec![]));
        assert_eq!(height(&e, "brute-1"), 1);
        assert_eq!(square(&e, "brute-1"), to, "brute-2 {up2} up");
    }
}

/// orcus-basic-rules.txt § Unwilling movement and § Special movement modes (Climb), extended
/// aloft (interpretation, `forced.rs::obstacles`, `elevation::sweep`): a climber pushed while
/// aloft keeps its height, so pushed away from its wall (`^`) it falls after the attack: the
/// brute climbing 2 up beside the cliff square is shoved one square off it and falls 2 squares.
#[test]
fn a_climber_pushed_off_its_wall_falls_unwilling_movement() {
    let rows = [
        "..........",
        "..........",
        "..........",
        "...^......",
        "..........",
        "..........",
    ];
    let pos = "kael = [4, 2]\nlira = [0, 5]\nbrute-1 = [4, 3]\nbrute-2 = [9, 0]";
    let src = super::tests::arena_src(&rows, "", 5, pos)
        .replace("wis = 2", &format!("wis = 2\nfly = 4\n{SHOVE}"))
        .replace("dex = 0", "dex = 0\nclimb = 3");
    let enc = crate::rules::load_encounter("cliff.toml", &src).unwrap();
    let mut e = started(&enc, 5);
    run(&mut e, &aloft("kael", 2));
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    run(&mut e, &aloft("brute-1", 2));
    until(&mut e, "kael");
    let ev = run(&mut e, &shove(vec![("brute-1", &[(5, 4)])]));
    let moved = ev.iter().position(
        |x| matches!(x, GameEvent::Orcus(OrcusEvent::GridMoved { combatant, .. }) if combatant.as_str() == "brute-1"),
    );
    let fell = ev.iter().position(|x| {
        matches!(x, GameEvent::Orcus(OrcusEvent::Fell { combatant, squares: 2 }) if combatant.as_str() == "brute-1")
    });
    assert!(moved.is_some() && fell > moved, "{ev:?}");
    assert_eq!(square(&e, "brute-1"), Square::new(5, 4));
    assert_eq!(height(&e, "brute-1"), 0);
    assert!(prone(&e, "brute-1"));
}

/// orcus-basic-rules.txt § Mounting and dismounting ("an adjacent unoccupied space"), with
/// heights (interpretation, `aloft::column_occupied`): a landing square from a mount keeps the
/// ground rule, its whole column clear, as the rider may come down there. Kael riding Lira
/// (a Large flier) 2 up cannot dismount over the brute on the ground, and can beside it.
#[test]
fn a_rider_aloft_dismounts_only_where_the_column_is_clear_mounting_and_dismounting() {
    let pos = "kael = [0, 3]\nlira = [1, 3]\nbrute-1 = [0, 2]\nbrute-2 = [9, 0]";
    let horse = "size = \"large\"\nmount = \"trained\"\nfly = 4";
    let enc = open_field("fly = 4", horse, "", pos, "");
    let mut e = started(&enc, 5);
    run(&mut e, &aloft("kael", 2));
    run(&mut e, &end("kael"));
    until(&mut e, "lira");
    run(&mut e, &aloft("lira", 2));
    until(&mut e, "kael");
    run(
        &mut e,
        &Command::Orcus(OrcusCommand::Mount {
            actor: cid("kael"),
            mount: cid("lira"),
            control: false,
        }),
    );
    run(&mut e, &end("kael"));
    until(&mut e, "kael");
    let off = |x, y| {
        Command::Orcus(OrcusCommand::Dismount {
            actor: cid("kael"),
            to: Square::new(x, y),
        })
    };
    assert_eq!(refuse(&mut e, &off(0, 2)), ErrorCode::IllegalPath);
    run(&mut e, &off(0, 4));
    assert_eq!(square(&e, "kael"), Square::new(0, 4));
    assert_eq!(height(&e, "kael"), 2);
}

/// orcus-basic-rules.txt § Cover (an area's cover is judged from its origin square) with
/// heights (interpretation, `geometry::in_the_way_at_height`, `aloft.rs`): from a far burst's
/// origin 2 up, Lira on the ground between it and Kael 2 up is below the shot and gives him no
/// cover; from the same origin on the ground, the shot climbs through her height and she does
/// (−2).
#[test]
fn cover_from_an_origin_aloft_counts_only_creatures_at_the_shot_s_heights_cover() {
    let pos = "kael = [7, 4]\nlira = [6, 4]\nbrute-1 = [9, 0]\nbrute-2 = [0, 0]";
    let kael_bonus = |up: Option<i32>| {
        let enc = open_field("fly = 4", "", "", pos, FAR_AREAS);
        let mut e = started(&enc, 5);
        run(&mut e, &aloft("kael", 2));
        run(&mut e, &end("kael"));
        until(&mut e, "brute-1");
        let ev = run(&mut e, &area_at("brute-1", "quake", (5, 4), up));
        assert_eq!(attacked(&ev), vec!["kael".to_owned(), "lira".to_owned()]);
        ev.iter()
            .find_map(|x| match x {
                GameEvent::AttackRolled { target, bonus, .. } if target.as_str() == "kael" => {
                    Some(*bonus)
                }
                _ => None,
            })
            .expect("Kael attacked")
    };
    assert_eq!(kael_bonus(Some(2)), 4);
    assert_eq!(kael_bonus(None), 4 - 2);
}
