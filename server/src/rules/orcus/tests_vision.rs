//! § Senses (orcus-basic-rules.txt): Low-Light Vision and Darkvision against dim light and
//! darkness on the map (`,` and `;`), through § Concealment and § Stealth.

use super::tests::{arena_src, first_bonus, started, until};
use super::tests_stealth::BRUTE_POWERS;
use crate::content::model::Encounter;
use crate::rules::common::testing::{refuse, run};
use crate::rules::load_encounter;
use fray_protocol::OrcusCommand;
use fray_protocol::grid::MoveMode;
use fray_protocol::{Command, ErrorCode};

/// Kael in darkness at (1,1), Lira in dim light at (3,1); the brutes in bright light.
const LIT: [&str; 3] = [".......", ".;.,...", "......."];
const POSITIONS: &str = "kael = [1, 1]\nlira = [3, 1]\nbrute-1 = [6, 0]\nbrute-2 = [6, 2]";

/// The brutes with the given `senses` (a TOML array), a sling and a glare; Kael with Stealth 40.
fn arena(rows: &[&str], positions: &str, senses: &str) -> Encounter {
    let src = arena_src(rows, BRUTE_POWERS, 5, positions)
        .replace("dex = 0", &format!("dex = 0\nsenses = {senses}"))
        .replace("wis = 2", "wis = 2\nskills = { stealth = 40 }");
    load_encounter("vision.toml", &src).unwrap()
}

/// The bonus of brute-1's sling against `target`, brute-1 having `senses`.
fn sling_bonus(senses: &str, target: &str) -> i32 {
    let mut e = started(&arena(&LIT, POSITIONS, senses), 3);
    until(&mut e, "brute-1");
    first_bonus(&run(
        &mut e,
        &super::tests::atk("brute-1", "sling", &[target]),
    ))
}

/// orcus-basic-rules.txt § Senses ("Low-Light Vision The creature can see in dim light as if
/// it were bright light. Darkvision … can see in dim light as if it were bright light, and in
/// darkness as if it were dim light") with § Concealment: a target in darkness has total
/// concealment (−5) from a normal or low-light attacker and concealment (−2) from one with
/// darkvision; a target in dim light has concealment (−2) from a normal attacker only.
#[test]
fn darkvision_and_low_light_vision_see_through_darkness_and_dim_light_senses() {
    let normal = sling_bonus("[]", "kael");
    assert_eq!(sling_bonus(r#"["low-light vision"]"#, "kael"), normal);
    assert_eq!(sling_bonus(r#"["darkvision"]"#, "kael"), normal + 3);
    let dim = sling_bonus("[]", "lira");
    assert_eq!(sling_bonus(r#"["low-light vision"]"#, "lira"), dim + 2);
    assert_eq!(sling_bonus(r#"["darkvision"]"#, "lira"), dim + 2);
}

/// orcus-basic-rules.txt § Senses and § Stealth ("provided you are in three-quarters cover or
/// total concealment"): darkness hides from a normal-sighted enemy but not from one with
/// darkvision, to which it is only dim light.
#[test]
fn darkness_hides_from_normal_sight_but_not_from_darkvision_senses() {
    let positions = "kael = [0, 1]\nlira = [0, 0]\nbrute-1 = [6, 0]\nbrute-2 = [6, 2]";
    let hide = Command::Orcus(OrcusCommand::MoveTo {
        actor: crate::rules::common::testing::cid("kael"),
        path: vec![fray_protocol::grid::Square::new(1, 1)],
        mode: MoveMode::Step,
        hide: true,
    });
    let mut e = started(&arena(&LIT, positions, r#"["darkvision"]"#), 3);
    assert_eq!(refuse(&mut e, &hide), ErrorCode::NoCover);
    let mut e = started(&arena(&LIT, positions, "[]"), 3);
    run(&mut e, &hide);
    let g = crate::rules::common::testing::cs(&e, "kael").grid.unwrap();
    assert_eq!(g.hidden_from.len(), 2, "{g:?}");
}

/// orcus-basic-rules.txt § Senses: content names a creature's senses; an unknown or repeated
/// sense is refused on load, and the map's `,` and `;` squares are dim light and darkness.
#[test]
fn senses_and_lighting_load_from_content_senses() {
    let enc = arena(&LIT, POSITIONS, r#"["darkvision", "low-light vision"]"#);
    let brute = enc
        .combatants
        .iter()
        .find(|c| c.id.as_str() == "brute-1")
        .and_then(|c| c.orcus.as_ref())
        .unwrap();
    assert_eq!(brute.vision, crate::content::model::Vision::Darkvision);
    let map = enc.map.as_ref().unwrap();
    assert_eq!(map.darkness, vec![fray_protocol::grid::Square::new(1, 1)]);
    assert_eq!(map.dim_light, vec![fray_protocol::grid::Square::new(3, 1)]);
    for bad in [r#"["tremorsense"]"#, r#"["darkvision", "darkvision"]"#] {
        let src = arena_src(&LIT, BRUTE_POWERS, 5, POSITIONS)
            .replace("dex = 0", &format!("dex = 0\nsenses = {bad}"));
        let err = load_encounter("vision.toml", &src).unwrap_err().to_string();
        assert!(err.contains("senses"), "{err}");
    }
}
