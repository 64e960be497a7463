//! Orcus elevation (orcus-basic-rules.txt § Special movement modes: Climb, Fly; falling and
//! heights are Fourth Edition interpretations, see `elevation.rs`).

use super::tests::{arena_src, atk, end, first_bonus, mv, started, until};
use crate::content::model::Encounter;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, refuse, run};
use fray_protocol::event::{Condition, DamageCause, EffectKind, GameEvent};
use fray_protocol::grid::MoveMode;
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{OrcusCommand, OrcusEvent};

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
    crate::rules::load_encounter("cliff.toml", &src).unwrap()
}

pub(super) fn aloft(actor: &str, height: i32) -> Command {
    Command::Orcus(OrcusCommand::MoveAloft {
        actor: cid(actor),
        height,
    })
}

pub(super) fn height(e: &Engine, id: &str) -> i32 {
    cs(e, id).grid.map_or(0, |g| g.height)
}

pub(super) fn prone(e: &Engine, id: &str) -> bool {
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
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::Orcus(OrcusEvent::MovedAloft { height: 2, .. })
    )));
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
            .any(|x| matches!(x, GameEvent::Orcus(OrcusEvent::Fell { squares: 2, .. }))),
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
            .any(|x| matches!(x, GameEvent::Orcus(OrcusEvent::Fell { squares: 3, .. })))
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
    assert!(!ev.iter().any(|x| matches!(
        x,
        GameEvent::Orcus(OrcusEvent::MovedAloft { .. }) | GameEvent::Orcus(OrcusEvent::Fell { .. })
    )));
    assert_eq!(height(&e, "lira"), 0);
}

pub(super) const STUN: &str = r#"[[monster.powers]]
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
                .any(|x| matches!(x, GameEvent::Orcus(OrcusEvent::Fell { squares: 1, .. }))),
            falls,
            "{extra}: {ev:?}"
        );
        assert_eq!(height(&e, "kael"), if falls { 0 } else { 1 });
    }
}

// ---- Heights in the geometry (interpretation, Fourth Edition's 3-D reading; see
// `geometry::Body`): distance is the larger of the ground range and the height gap between
// cubes everywhere; bursts and blasts are cubes; flanking and cover count height. ----

const OPEN: [&str; 6] = [
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
];

/// An open arena; `kael`, `lira` and `brute` are added to each one's stat block (before its
/// powers), `powers` to the brutes' powers.
pub(super) fn open_field(
    kael: &str,
    lira: &str,
    brute: &str,
    positions: &str,
    powers: &str,
) -> Encounter {
    let src = arena_src(&OPEN, powers, 5, positions)
        .replace("wis = 2", &format!("wis = 2\n{kael}"))
        .replace("recoveries = 1", &format!("recoveries = 1\n{lira}"))
        .replace("dex = 0", &format!("dex = 0\n{brute}"));
    crate::rules::load_encounter("open.toml", &src).unwrap()
}

fn area(actor: &str, attack: &str, origin: Option<(i32, i32)>) -> Command {
    Command::Orcus(OrcusCommand::AreaAttack {
        actor: cid(actor),
        attack: attack.into(),
        origin: origin.map(|(x, y)| fray_protocol::grid::Square::new(x, y)),
        targets: vec![],
        forced: Vec::new(),
        origin_height: None,
        weapon: None,
        secondary_target: None,
    })
}

pub(super) fn attacked(ev: &[GameEvent]) -> Vec<String> {
    let mut v: Vec<String> = ev
        .iter()
        .filter_map(|x| match x {
            GameEvent::AttackRolled { target, .. } => Some(target.to_string()),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

const BIG_BURST: &str = r#"fly = 4
[[hero.powers]]
id = "big"
name = "Big Burst"
origin = "near burst"
area = 2
targets = "all enemies"
vs = "reflex"
bonus = 5
hit = "1d6"
"#;

#[test]
fn an_aloft_user_s_burst_is_a_cube_so_a_flat_one_misses_the_ground_areas_of_effect() {
    // orcus-basic-rules.txt § Areas of effect (bursts; interpretation, Fourth Edition's 3-D
    // reading): a near burst n is the user's cubes and n more every way, so a creature is in it
    // when one of its cubes is. Kael 2 up: his burst 1 (heights 1–3) misses the brute on the
    // ground next to him, his burst 2 (0–4) takes it; 1 up, burst 1 (0–2) takes it.
    let pos = "kael = [6, 4]\nlira = [0, 5]\nbrute-1 = [7, 4]\nbrute-2 = [9, 0]";
    for (up, power, hit) in [(2, "burst", false), (2, "big", true), (1, "burst", true)] {
        let enc = open_field(BIG_BURST, "", "", pos, "");
        let mut e = started(&enc, 5);
        run(&mut e, &aloft("kael", up));
        let ev = run(&mut e, &area("kael", power, None));
        let want: Vec<String> = if hit { vec!["brute-1".into()] } else { vec![] };
        assert_eq!(attacked(&ev), want, "{up} up, {power}");
    }
}

const FAR_BURSTS: &str = r#"[[monster.powers]]
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
"#;

#[test]
fn a_far_burst_rises_from_the_ground_as_high_as_its_size_areas_of_effect() {
    // orcus-basic-rules.txt § Areas of effect (far burst; interpretation): the origin square is
    // on the ground (the command names no height), so a far burst n fills heights 0 to n. Kael
    // 2 up over the origin square is out of a burst 1 and in a burst 2; the adjacent brute does
    // not provoke him with the far power, as he is 2 up and so not adjacent.
    let pos = "kael = [6, 4]\nlira = [0, 5]\nbrute-1 = [7, 4]\nbrute-2 = [9, 0]";
    for (power, hit) in [("hurl", false), ("quake", true)] {
        let enc = open_field("fly = 4", "", "", pos, FAR_BURSTS);
        let mut e = started(&enc, 5);
        run(&mut e, &aloft("kael", 2));
        run(&mut e, &end("kael"));
        until(&mut e, "brute-1");
        let ev = run(&mut e, &area("brute-1", power, Some((6, 4))));
        assert!(
            !ev.iter()
                .any(|x| matches!(x, GameEvent::OpportunityTaken { .. })),
            "{ev:?}"
        );
        let want: Vec<String> = if hit { vec!["kael".into()] } else { vec![] };
        assert_eq!(attacked(&ev), want, "{power}");
    }
}

#[test]
fn a_flier_two_up_is_not_adjacent_so_leaving_it_does_not_provoke_opportunity_attacks() {
    // orcus-basic-rules.txt § Opportunity attacks: leaving an adjacent enemy provokes;
    // adjacency counts height (interpretation). Kael 2 up over the square next to the brute is
    // not adjacent to it, so the brute walks off freely; 1 up he is, and it provokes.
    let pos = "kael = [6, 4]\nlira = [0, 5]\nbrute-1 = [7, 4]\nbrute-2 = [9, 0]";
    for (up, provokes) in [(2, false), (1, true)] {
        let enc = open_field("fly = 4", "", "", pos, "");
        let mut e = started(&enc, 5);
        run(&mut e, &aloft("kael", up));
        run(&mut e, &end("kael"));
        until(&mut e, "brute-1");
        let ev = run(&mut e, &mv("brute-1", &[(8, 4), (9, 4)], MoveMode::Walk));
        assert_eq!(
            ev.iter().any(|x| matches!(x,
                GameEvent::OpportunityTaken { attacker, .. } if attacker.as_str() == "kael")),
            provokes,
            "{up} up: {ev:?}"
        );
    }
}

#[test]
fn no_flank_with_a_flier_above_the_target_flanking() {
    // orcus-basic-rules.txt § Flanking (opposite sides; height per the interpretation in
    // `geometry::flanking_3d`): Kael on the ground opposite Lira flanks the brute (+2, off-guard);
    // 1 up he is adjacent but above it, not opposite Lira, so no flank; 2 up, not adjacent.
    let pos = "kael = [6, 4]\nlira = [8, 4]\nbrute-1 = [7, 4]\nbrute-2 = [9, 0]";
    for (up, bonus) in [(0, 5 + 2), (1, 5), (2, 5)] {
        let enc = open_field("fly = 4", "", "", pos, "");
        let mut e = started(&enc, 5);
        if up > 0 {
            run(&mut e, &aloft("kael", up));
        }
        run(&mut e, &end("kael"));
        until(&mut e, "lira");
        let ev = run(&mut e, &atk("lira", "dagger", &["brute-1"]));
        assert_eq!(first_bonus(&ev), bonus, "Kael {up} up");
    }
}

#[test]
fn fliers_flank_a_flier_from_opposite_sides_at_its_height_flanking() {
    // orcus-basic-rules.txt § Flanking (height: interpretation, `geometry::flanking_3d`): with
    // the brute 1 up, Kael and Lira 1 up on either side flank it; Kael on the ground below one
    // side does not (he is adjacent but not opposite Lira).
    let pos = "kael = [6, 4]\nlira = [8, 4]\nbrute-1 = [7, 4]\nbrute-2 = [9, 0]";
    for (kael_up, bonus) in [(1, 5 + 2), (0, 5)] {
        let enc = open_field("fly = 4", "fly = 4", "fly = 4", pos, "");
        let mut e = started(&enc, 5);
        if kael_up > 0 {
            run(&mut e, &aloft("kael", kael_up));
        }
        run(&mut e, &end("kael"));
        until(&mut e, "brute-1");
        run(&mut e, &aloft("brute-1", 1));
        until(&mut e, "lira");
        run(&mut e, &aloft("lira", 1));
        let ev = run(&mut e, &atk("lira", "dagger", &["brute-1"]));
        assert_eq!(first_bonus(&ev), bonus, "Kael {kael_up} up");
    }
}

#[test]
fn a_creature_in_the_way_gives_cover_only_at_its_own_height_cover() {
    // orcus-basic-rules.txt § Combat statuses, Cover (height: interpretation, see
    // `geometry::in_the_way_at_height`): the target's ally between gives cover (−2) when it is
    // within the heights the shot passes through: on the ground, yes; 2 up over a ground shot,
    // no; 2 up with Kael also 2 up, yes again.
    let pos = "kael = [0, 2]\nlira = [0, 0]\nbrute-1 = [3, 2]\nbrute-2 = [5, 2]";
    for (brute_up, kael_up, bonus) in [(0, 0, 5 - 2), (2, 0, 5), (2, 2, 5 - 2)] {
        let enc = open_field("fly = 4", "", "fly = 4", pos, "");
        let mut e = started(&enc, 5);
        run(&mut e, &end("kael"));
        until(&mut e, "brute-1");
        if brute_up > 0 {
            run(&mut e, &aloft("brute-1", brute_up));
        }
        until(&mut e, "kael");
        if kael_up > 0 {
            run(&mut e, &aloft("kael", kael_up));
        }
        let ev = run(&mut e, &atk("kael", "bow", &["brute-2"]));
        assert_eq!(
            first_bonus(&ev),
            bonus,
            "brute {brute_up} up, Kael {kael_up} up"
        );
    }
}

#[test]
fn touch_actions_and_a_charge_count_height_range() {
    // orcus-basic-rules.txt § Grapple (an adjacent enemy), § Charge (ends in melee reach);
    // adjacency and reach count height (interpretation). Kael 2 up over the square next to the
    // brute: his grapple is refused, and so is the brute's charge at him; nothing changes.
    let pos = "kael = [7, 4]\nlira = [0, 5]\nbrute-1 = [8, 4]\nbrute-2 = [9, 0]";
    let enc = open_field("fly = 4", "", "", pos, "");
    let mut e = started(&enc, 5);
    run(&mut e, &aloft("kael", 2));
    let grapple = Command::Orcus(OrcusCommand::Grapple {
        actor: cid("kael"),
        target: cid("brute-1"),
    });
    assert_eq!(refuse(&mut e, &grapple), ErrorCode::OutOfRange);
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    let charge = Command::Orcus(OrcusCommand::Charge {
        actor: cid("brute-1"),
        target: cid("kael"),
        path: vec![],
    });
    assert_eq!(refuse(&mut e, &charge), ErrorCode::OutOfRange);
}

#[test]
fn long_range_counts_the_height_gap_range() {
    // orcus-basic-rules.txt § Range (short/long: −2 beyond short range); the distance is the
    // larger of the ground range and the height gap (interpretation). The brute is 1 square off
    // on the ground; Kael 8 up shoots it at long range (bow 5/10).
    let pos = "kael = [0, 2]\nlira = [0, 0]\nbrute-1 = [1, 2]\nbrute-2 = [9, 5]";
    let enc = open_field("fly = 8", "", "", pos, "");
    let mut e = started(&enc, 5);
    run(&mut e, &aloft("kael", 4));
    run(&mut e, &end("kael"));
    until(&mut e, "kael");
    run(&mut e, &aloft("kael", 8));
    let ev = run(&mut e, &atk("kael", "bow", &["brute-1"]));
    assert_eq!(first_bonus(&ev), 5 - 2);
}

#[test]
fn a_flier_s_blast_hangs_down_from_its_height_areas_of_effect() {
    // orcus-basic-rules.txt § Areas of effect (blasts; interpretation, see
    // `geometry::blast_heights`): a blast 2 is a 2-cube touching the user, hung from its highest
    // cube down. Kael 1 up: heights 0–1, the brute on the ground is in it; 3 up: 2–3, it is not.
    let blast = r#"fly = 4
[[hero.powers]]
id = "cone"
name = "Cone"
origin = "near blast"
area = 2
targets = "all enemies"
vs = "reflex"
bonus = 5
hit = "1d6"
"#;
    let pos = "kael = [6, 4]\nlira = [0, 5]\nbrute-1 = [7, 4]\nbrute-2 = [9, 0]";
    for (up, hit) in [(1, true), (3, false)] {
        let enc = open_field(blast, "", "", pos, "");
        let mut e = started(&enc, 5);
        run(&mut e, &aloft("kael", up));
        let ev = run(&mut e, &area("kael", "cone", Some((7, 4))));
        let want: Vec<String> = if hit { vec!["brute-1".into()] } else { vec![] };
        assert_eq!(attacked(&ev), want, "{up} up");
    }
}

/// Falling (interpretation, Fourth Edition; orcus-basic-rules.txt § Special movement modes,
/// Fly, and § Persistent damage): a flier that persistent damage drops at the start of its turn
/// falls at once, in the same tick as the damage — 1d10 for 2 squares, landing prone — not at
/// the next command.
#[test]
fn a_flier_dropped_by_persistent_damage_falls_at_once_falling() {
    let acid = r#"[[monster.powers]]
id = "acid"
name = "Acid Spit"
origin = "ranged"
range = [10, 10]
vs = "reflex"
bonus = 40
hit = "28"
on_hit = [{ persistent = 5, damage_type = "acid" }]
"#;
    let enc = field(
        "fly = 4",
        15,
        "kael = [0, 4]\nlira = [0, 5]\nbrute-1 = [8, 4]\nbrute-2 = [9, 0]",
        acid,
    );
    for seed in 0..30 {
        let mut e = started(&enc, seed);
        run(&mut e, &aloft("kael", 2));
        run(&mut e, &end("kael"));
        until(&mut e, "brute-1");
        let ev = run(&mut e, &atk("brute-1", "acid", &["kael"]));
        if !ev
            .iter()
            .any(|x| matches!(x, GameEvent::AttackRolled { outcome, .. } if outcome.is_hit()))
        {
            continue;
        }
        assert_eq!(cs(&e, "kael").hp, Some(2));
        // End turns up to the one in which Kael's turn starts (and the acid drops him).
        let ev = loop {
            let c = crate::rules::common::testing::current(&e);
            let ev = run(&mut e, &end(&c));
            if ev.iter().any(
                |x| matches!(x, GameEvent::TurnStarted { combatant, .. } if combatant.as_str() == "kael"),
            ) {
                break ev;
            }
        };
        let dropped = ev.iter().position(
            |x| matches!(x, GameEvent::Damaged { target, .. } if target.as_str() == "kael"),
        );
        let fell = ev
            .iter()
            .position(|x| matches!(x, GameEvent::Orcus(OrcusEvent::Fell { combatant, squares: 2 }) if combatant.as_str() == "kael"));
        assert!(
            dropped.is_some() && fell.is_some() && dropped < fell,
            "the acid drops Kael, then he falls: {ev:?}"
        );
        assert!(
            ev.iter().any(|x| matches!(x, GameEvent::Damaged {
                target,
                cause: DamageCause::Hazard { purpose, .. },
                ..
            } if target.as_str() == "kael" && purpose == "fall")),
            "1d10 for the fall: {ev:?}"
        );
        assert_eq!(height(&e, "kael"), 0);
        assert!(prone(&e, "kael"));
        assert_ne!(
            cs(&e, "kael").status,
            fray_protocol::state::LifeStatus::Conscious
        );
        return;
    }
    panic!("the acid never hit");
}
