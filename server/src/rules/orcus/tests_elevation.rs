//! Orcus elevation (orcus-basic-rules.txt § Special movement modes: Climb, Fly; falling and
//! heights are Fourth Edition interpretations, see `elevation.rs`).

use super::tests::{arena_src, atk, end, mv, started, until};
use crate::content::model::Encounter;
use crate::engine::Engine;
use crate::rules::thirteenth_age::tests::{cid, cs, refuse, run};
use fray_protocol::event::{Condition, DamageCause, EffectKind, GameEvent};
use fray_protocol::grid::MoveMode;
use fray_protocol::{Command, ErrorCode};

/// A cliff (`^`) along column 3, rows 0..=3.
const CLIFF: [&str; 6] = [
    "...^......",
    "...^......",
    "...^......",
    "...^......",
    "..........",
    "..........",
];

fn field(kael_extra: &str, climb_dc: i32, positions: &str, powers: &str) -> Encounter {
    let src = arena_src(&CLIFF, powers, 5, positions)
        .replace("wis = 2", &format!("wis = 2\n{kael_extra}"))
        .replace("[map]\n", &format!("[map]\nclimb_dc = {climb_dc}\n"));
    crate::content::load_encounter("cliff.toml", &src).unwrap()
}

fn aloft(actor: &str, height: i32) -> Command {
    Command::MoveAloft {
        actor: cid(actor),
        height,
    }
}

fn height(e: &Engine, id: &str) -> i32 {
    cs(e, id).grid.map_or(0, |g| g.height)
}

fn prone(e: &Engine, id: &str) -> bool {
    cs(e, id)
        .effects
        .iter()
        .any(|x| x.kind == EffectKind::Condition(Condition::Prone))
}

#[test]
fn a_flier_rises_out_of_reach_and_melee_counts_height_fly() {
    // orcus-basic-rules.txt § Special movement modes (Fly): a flier moves up at its fly speed;
    // melee reach counts the height difference (interpretation).
    let enc = field(
        "fly = 4",
        15,
        "kael = [6, 4]\nlira = [0, 5]\nbrute-1 = [7, 4]\nbrute-2 = [9, 0]",
        "",
    );
    let mut e = started(&enc, 1);
    assert_eq!(refuse(&mut e, &aloft("kael", 5)), ErrorCode::TooFar);
    assert_eq!(
        refuse(&mut e, &aloft("kael", 0)),
        ErrorCode::InvalidArgument
    );
    let ev = run(&mut e, &aloft("kael", 2));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::MovedAloft { height: 2, .. }))
    );
    assert_eq!(height(&e, "kael"), 2);
    // Two squares up: the brute's reach-1 club does not reach, nor Kael's sword.
    assert_eq!(
        refuse(&mut e, &atk("kael", "sword", &["brute-1"])),
        ErrorCode::OutOfRange
    );
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    assert_eq!(
        refuse(&mut e, &atk("brute-1", "club", &["kael"])),
        ErrorCode::OutOfRange
    );
    // Lira cannot fly and has no wall at hand.
    until(&mut e, "lira");
    assert_eq!(refuse(&mut e, &aloft("lira", 1)), ErrorCode::CannotClimb);
}

#[test]
fn climbing_takes_an_athletics_check_and_leaving_the_wall_is_a_fall_climb() {
    // orcus-basic-rules.txt § Special movement modes (Climb) and § Athletics: without a climb
    // speed, a check against the map's climb DC at half speed; a climber that leaves its wall
    // falls, 1d10 per 2 squares, and lands prone (interpretation: Fourth Edition).
    let enc = field(
        "",
        1,
        "kael = [2, 1]\nlira = [0, 5]\nbrute-1 = [9, 5]\nbrute-2 = [9, 0]",
        "",
    );
    let mut e = started(&enc, 1);
    // Kael walks 5: climbs at most 2.
    assert_eq!(refuse(&mut e, &aloft("kael", 3)), ErrorCode::TooFar);
    let ev = run(&mut e, &aloft("kael", 2));
    assert!(ev.iter().any(
        |x| matches!(x, GameEvent::CheckRolled { purpose, success: true, .. } if purpose == "climb")
    ));
    assert_eq!(height(&e, "kael"), 2);
    let hp = cs(&e, "kael").hp;
    // Walking off, away from the cliff: Kael falls 2 squares.
    let ev = run(&mut e, &mv("kael", &[(1, 1), (0, 1)], MoveMode::Walk));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::Fell { squares: 2, .. })),
        "{ev:?}"
    );
    let dealt = ev.iter().find_map(|x| match x {
        GameEvent::Damaged {
            amount,
            cause: DamageCause::Hazard { purpose, .. },
            ..
        } if purpose == "fall" => Some(*amount),
        _ => None,
    });
    let dealt = dealt.expect("fall damage");
    assert!((1..=10).contains(&dealt));
    assert_eq!(cs(&e, "kael").hp, hp.map(|h| h - dealt));
    assert_eq!(height(&e, "kael"), 0);
    assert!(prone(&e, "kael"));
}

#[test]
fn a_failed_climb_makes_no_progress_and_slow_fall_lands_unharmed_climb() {
    // orcus-basic-rules.txt § Athletics (Climb): a failed check makes no progress (DC 40 here);
    // `slow_fall` lands without damage and standing (interpretation).
    let enc = field(
        "slow_fall = true\nclimb = 3",
        40,
        "kael = [2, 1]\nlira = [0, 5]\nbrute-1 = [9, 5]\nbrute-2 = [9, 0]",
        "",
    );
    let mut e = started(&enc, 1);
    // A climb speed needs no check.
    let ev = run(&mut e, &aloft("kael", 3));
    assert!(
        !ev.iter()
            .any(|x| matches!(x, GameEvent::CheckRolled { .. }))
    );
    let hp = cs(&e, "kael").hp;
    let ev = run(&mut e, &mv("kael", &[(1, 1), (0, 1)], MoveMode::Climb));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::Fell { squares: 3, .. }))
    );
    assert_eq!(cs(&e, "kael").hp, hp);
    assert!(!prone(&e, "kael"));
    // Lira without a climb speed fails against DC 40 from the ground: no progress, no fall.
    until(&mut e, "lira");
    run(&mut e, &mv("lira", &[(1, 4), (2, 3)], MoveMode::Walk));
    let ev = run(&mut e, &aloft("lira", 1));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::CheckRolled { success: false, .. }))
    );
    assert!(
        !ev.iter()
            .any(|x| matches!(x, GameEvent::MovedAloft { .. } | GameEvent::Fell { .. }))
    );
    assert_eq!(height(&e, "lira"), 0);
}

const STUN: &str = r#"[[monster.powers]]
id = "stun"
name = "Stun"
origin = "melee"
vs = "ac"
bonus = 40
hit = "1"
on_hit = [{ condition = "stunned", duration = "end of your next turn" }]
"#;

#[test]
fn a_stunned_flier_falls_unless_it_hovers_fly() {
    // orcus-basic-rules.txt § Special movement modes (Fly); interpretation (Fourth Edition): a
    // flier that is stunned falls unless it can hover.
    for (extra, falls) in [("fly = 4", true), ("fly = 4\nhover = true", false)] {
        let enc = field(
            extra,
            15,
            "kael = [6, 4]\nlira = [0, 5]\nbrute-1 = [7, 4]\nbrute-2 = [9, 0]",
            STUN,
        );
        let mut e = started(&enc, 1);
        run(&mut e, &aloft("kael", 1));
        run(&mut e, &end("kael"));
        until(&mut e, "brute-1");
        let ev = run(&mut e, &atk("brute-1", "stun", &["kael"]));
        assert_eq!(
            ev.iter()
                .any(|x| matches!(x, GameEvent::Fell { squares: 1, .. })),
            falls,
            "{extra}: {ev:?}"
        );
        assert_eq!(height(&e, "kael"), if falls { 0 } else { 1 });
    }
}
