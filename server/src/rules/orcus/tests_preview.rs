//! Previews (`preview.rs`): what an area power or a charge would cover, computed by the decide
//! code — so an area behind a wall shows no square the power cannot reach (§ Line of effect,
//! § Areas of effect), and the preview is exactly what the command then hits; a charge's
//! course (§ Charge) is the one the legal actions offer. A preview draws no die and changes
//! nothing.

use super::tests::{arena_src, started};
use super::tests_power_effects::far;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, new_engine, run};
use crate::rules::{builtin_encounters, load_encounter};
use fray_protocol::event::GameEvent;
use fray_protocol::grid::Square;
use fray_protocol::{Command, ErrorCode, OrcusCommand, OrcusEvent};

/// A wall three squares high at x = 4, Kael in the north-west corner.
const WALLED: [&str; 6] = [
    "..........",
    "..........",
    "....#.....",
    "....#.....",
    "....#.....",
    "..........",
];

/// A far burst 2 that turns its area into difficult terrain: the zone is the area it used.
const SNARE: &str = r#"[[hero.powers]]
id = "snare"
name = "Snare"
origin = "far burst"
area = 2
range = [10]
targets = "all creatures"
vs = "fortitude"
bonus = 5
hit = "1d6"
effect = [{ zone = "difficult terrain", duration = "end of your next turn" }]
"#;

/// Brute 1 just behind the wall (inside the burst's shape, no line of effect from its centre),
/// brute 2 in the open part of the burst.
fn walled() -> Engine {
    let positions = "kael = [0, 0]\nlira = [0, 5]\nbrute-1 = [5, 3]\nbrute-2 = [2, 2]";
    let src = arena_src(&WALLED, "", 5, positions).replacen(
        "[[hero]]\nid = \"lira\"",
        &format!("{SNARE}\n[[hero]]\nid = \"lira\""),
        1,
    );
    started(&load_encounter("walled.toml", &src).unwrap(), 3)
}

#[test]
fn the_preview_of_an_area_behind_a_wall_leaves_out_the_walled_squares_and_is_what_the_cast_hits() {
    let mut e = walled();
    let cast = far("kael", "snare", (3, 3));
    let (hash, draws) = (e.state_hash(), e.rng().draws());
    let preview = e.preview(&cast).expect("an area can be previewed");
    assert_eq!(
        (e.state_hash(), e.rng().draws()),
        (hash, draws),
        "a preview changes nothing and draws no die"
    );
    let has = |x, y| preview.squares.contains(&Square::new(x, y));
    // The burst's shape is x 1..=5, y 1..=5: the wall's squares and those behind it are cut.
    assert!(
        has(1, 1) && has(3, 3) && has(2, 2) && has(1, 5),
        "{preview:?}"
    );
    assert!(
        !has(4, 2) && !has(4, 3) && !has(4, 4),
        "no wall square: {preview:?}"
    );
    assert!(!has(5, 3), "behind the wall: {preview:?}");
    assert!(preview.squares.len() < 25, "{preview:?}");
    assert!(preview.path.is_empty());
    assert_eq!(
        preview.targets,
        vec![cid("brute-2")],
        "not the brute behind the wall"
    );
    let ev = run(&mut e, &cast);
    let attacked: Vec<_> = ev
        .iter()
        .filter_map(|x| match x {
            GameEvent::AttackRolled { target, .. } => Some(target.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        attacked, preview.targets,
        "the preview's creatures are the ones attacked"
    );
    let zone = ev
        .iter()
        .find_map(|x| match x {
            GameEvent::Orcus(OrcusEvent::ZoneCreated { zone }) => Some(zone.clone()),
            _ => None,
        })
        .expect("the area became a zone");
    let mut used = zone.squares.clone();
    used.sort();
    assert_eq!(
        used, preview.squares,
        "the preview's squares are the area the cast used"
    );
}

#[test]
fn a_preview_refuses_what_the_command_would_refuse_and_commands_with_nothing_to_show() {
    let mut e = walled();
    // Every origin on the map and around it: the preview refuses exactly where the cast is
    // refused, with its code (behind the wall from Kael: no line of effect; off the map).
    let mut codes = Vec::new();
    for y in -1..=6 {
        for x in -1..=11 {
            let cast = far("kael", "snare", (x, y));
            let (preview, check) = (e.preview(&cast), e.check(&cast));
            assert_eq!(
                preview.as_ref().err().map(|r| r.code),
                check.as_ref().err().map(|r| r.code),
                "origin ({x}, {y}): {preview:?} / {check:?}"
            );
            codes.extend(preview.err().map(|r| r.code));
        }
    }
    assert!(codes.contains(&ErrorCode::NoLineOfEffect), "{codes:?}");
    assert!(codes.contains(&ErrorCode::InvalidArgument), "{codes:?}");
    assert_eq!(
        e.preview(&far("kael", "nothing", (3, 3))).unwrap_err().code,
        ErrorCode::UnknownAttack
    );
    let end = Command::EndTurn { actor: cid("kael") };
    assert_eq!(
        e.preview(&end).unwrap_err().code,
        ErrorCode::InvalidArgument
    );
    // Another family's command is refused as `execute` refuses it.
    let other =
        Command::ThirteenthAge(fray_protocol::ThirteenthAgeCommand::Delay { actor: cid("kael") });
    assert_eq!(e.preview(&other).unwrap_err().code, ErrorCode::WrongRuleset);
}

#[test]
fn a_ruleset_without_a_map_answers_a_preview_with_a_clear_refusal() {
    let (name, text) = builtin_encounters("13th-age")[0];
    let mut e = new_engine(&load_encounter(name, text).unwrap(), 1);
    let refused = e.preview(&Command::StartBattle).unwrap_err();
    assert_eq!(refused.code, ErrorCode::InvalidArgument);
    assert!(refused.message.contains("no previews"), "{refused:?}");
}

/// Kael (speed 5) at (0, 5) in the open, brute 2 at `brute_2`: the engine, and the charge at
/// brute 2 the legal actions offer Kael.
fn offered_charge(brute_2: (i32, i32)) -> (Engine, Command) {
    let positions = format!(
        "kael = [0, 5]\nlira = [0, 0]\nbrute-1 = [9, 0]\nbrute-2 = [{}, {}]",
        brute_2.0, brute_2.1
    );
    let src = arena_src(&super::tests_power_effects::OPEN, "", 5, &positions);
    let mut e = started(&load_encounter("open.toml", &src).unwrap(), 3);
    let charge = e
        .legal_actions(Some(&[cid("kael")]))
        .into_iter()
        .find(|a| {
            matches!(&a.command, Command::Orcus(OrcusCommand::Charge { target, .. })
                if target.as_str() == "brute-2")
        })
        .expect("a charge at brute 2 is offered");
    (e, charge.command)
}

#[test]
fn the_legal_actions_offer_a_charge_along_a_course_and_its_preview_is_that_path() {
    // Kael (speed 5) 5 squares west of brute 2 in the open: the charge walks 4 squares to the
    // square next to it, each closer (§ Charge: "directly towards").
    let (mut e, charge) = offered_charge((6, 5));
    let Command::Orcus(OrcusCommand::Charge { path, .. }) = &charge else {
        unreachable!()
    };
    // Straight along the row to the square next to brute 2, not zig-zagging between the
    // squares of equal cost.
    let row: Vec<Square> = (1..=5).map(|x| Square::new(x, 5)).collect();
    assert_eq!(path, &row);
    let preview = e.preview(&charge).expect("a charge can be previewed");
    assert_eq!(&preview.path, path);
    assert_eq!(preview.targets, vec![cid("brute-2")]);
    assert!(preview.squares.is_empty());
    // A course that does not close in is refused by the preview as by the charge.
    let astray = Command::Orcus(OrcusCommand::Charge {
        actor: cid("kael"),
        target: cid("brute-2"),
        path: vec![Square::new(1, 4), Square::new(1, 5)],
    });
    assert_eq!(e.preview(&astray).unwrap_err().code, ErrorCode::IllegalPath);
    assert_eq!(e.check(&astray).unwrap_err().code, ErrorCode::IllegalPath);
    let ev = run(&mut e, &charge);
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::AttackRolled { .. }))
    );
}

#[test]
fn a_charge_at_a_slant_is_offered_along_a_course_without_zig_zags() {
    // Kael at (0, 5), brute 2 three rows up and six columns east: the cheapest ends next to it
    // cost 5; the course ends at the one nearest Kael and never turns back on itself.
    let (mut e, charge) = offered_charge((6, 2));
    let Command::Orcus(OrcusCommand::Charge { path, .. }) = &charge else {
        unreachable!()
    };
    assert_eq!(path.last(), Some(&Square::new(5, 3)), "{path:?}");
    let mut at = Square::new(0, 5);
    for q in path {
        assert!(
            q.x == at.x + 1 && (q.y == at.y || q.y == at.y - 1),
            "each step east or north-east: {path:?}"
        );
        at = *q;
    }
    let ev = run(&mut e, &charge);
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::AttackRolled { .. }))
    );
}
