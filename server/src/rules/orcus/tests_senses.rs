//! § Areas of effect, the special sizes "eyesight" and "earshot" (`senses.rs`), naming the
//! section of `orcus-basic-rules.txt`.

use super::tests::{arena_src, started};
use crate::engine::Engine;
use crate::rules::common::testing::{cid, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::OrcusCommand;
use fray_protocol::event::{ActionKind, GameEvent};
use fray_protocol::{Command, ErrorCode};

/// A wall down the middle with a glass pane in it: Kael sees brute-2 through the glass but
/// not brute-1 behind the stone; both hear him.
const ROWS: &[&str] = &[
    "....#.....",
    "....#.....",
    "....#.....",
    "....#.....",
    "....=.....",
    "....#.....",
];

const POSITIONS: &str = r#"kael = [0, 4]
lira = [0, 0]
brute-1 = [8, 1]
brute-2 = [8, 4]"#;

/// Kael's extra powers, one per eyesight/earshot origin.
const POWERS: &str = r#"[[hero.powers]]
id = "glare"
name = "Glare"
origin = "near eyesight"
targets = "all enemies"
vs = "will"
bonus = 5
hit = "1d6"
[[hero.powers]]
id = "roar"
name = "Roar"
origin = "near earshot"
targets = "all enemies"
vs = "will"
bonus = 5
hit = "1d6"
[[hero.powers]]
id = "either"
name = "Either"
origin = "near eyesight or earshot"
targets = "all enemies"
vs = "will"
bonus = 5
hit = "1d6"
[[hero.powers]]
id = "both"
name = "Both"
origin = "near eyesight and earshot"
targets = "all enemies"
vs = "will"
bonus = 5
hit = "1d6"
[[hero.powers]]
id = "stare"
name = "Stare"
origin = "near eyesight"
targets = "one enemy"
vs = "will"
bonus = 5
hit = "1d6"
"#;

fn src(powers: &str) -> String {
    arena_src(ROWS, "", 5, POSITIONS).replacen(
        "[[hero]]\nid = \"lira\"",
        &format!("{powers}[[hero]]\nid = \"lira\""),
        1,
    )
}

fn engine() -> Engine {
    let enc = load_encounter("arena.toml", &src(POWERS)).unwrap();
    started(&enc, 4)
}

/// The creatures an area power of Kael's rolls against, sorted.
fn area(e: &mut Engine, attack: &str) -> Vec<String> {
    let ev = run(
        e,
        &Command::Orcus(OrcusCommand::AreaAttack {
            actor: cid("kael"),
            attack: attack.into(),
            origin: None,
            targets: vec![],
            forced: Vec::new(),
            origin_height: None,
            weapon: None,
            secondary_target: None,
        }),
    );
    let mut hit: Vec<String> = ev
        .iter()
        .filter_map(|x| match x {
            GameEvent::AttackRolled { target, .. } => Some(target.to_string()),
            _ => None,
        })
        .collect();
    hit.sort();
    hit
}

fn action_point(e: &mut Engine) {
    run(
        e,
        &Command::Orcus(OrcusCommand::SpendActionPoint {
            actor: cid("kael"),
            action: ActionKind::Standard,
        }),
    );
}

/// orcus-basic-rules.txt § Areas of effect (special sizes): eyesight reaches every creature
/// the user has line of sight to — through glass, not through stone, at any distance.
#[test]
fn eyesight_takes_every_creature_in_line_of_sight_areas_of_effect() {
    let mut e = engine();
    assert_eq!(area(&mut e, "glare"), vec!["brute-2".to_owned()]);
}

/// orcus-basic-rules.txt § Areas of effect (special sizes): earshot reaches every creature
/// that can hear the user — behind the wall too (interpretation: the whole map hears).
#[test]
fn earshot_takes_every_creature_that_hears_areas_of_effect() {
    let mut e = engine();
    assert_eq!(
        area(&mut e, "roar"),
        vec!["brute-1".to_owned(), "brute-2".to_owned()]
    );
}

/// orcus-basic-rules.txt § Areas of effect (special sizes) as the skill actions combine them
/// ("near eyesight or earshot", "near eyesight and earshot"): either sense, or both.
#[test]
fn eyesight_or_and_earshot_combine_the_senses_areas_of_effect() {
    let mut e = engine();
    assert_eq!(
        area(&mut e, "either"),
        vec!["brute-1".to_owned(), "brute-2".to_owned()]
    );
    action_point(&mut e);
    assert_eq!(area(&mut e, "both"), vec!["brute-2".to_owned()]);
}

/// orcus-basic-rules.txt § Areas of effect (special sizes): eyesight and earshot are the
/// area's size, so a power giving them cannot also give `area`; the origin reads back.
#[test]
fn an_eyesight_power_takes_no_area_size_areas_of_effect() {
    let bad = src(POWERS).replacen(
        "origin = \"near eyesight\"",
        "origin = \"near eyesight\"\narea = 3",
        1,
    );
    let err = load_encounter("arena.toml", &bad).unwrap_err().to_string();
    assert!(err.contains("area"), "{err}");
    use crate::content::model::Origin;
    for o in [
        Origin::NearEyesight,
        Origin::NearEarshot,
        Origin::NearEyesightOrEarshot,
        Origin::NearEyesightAndEarshot,
    ] {
        assert_eq!(Origin::parse(&o.describe()), Some(o));
        assert!(o.is_area());
    }
}

/// orcus-basic-rules.txt § Areas of effect (special sizes) with § Blinded: a blinded user
/// sees nothing, so its eyesight area is empty while its earshot area is not
/// (interpretation).
#[test]
fn a_blinded_user_has_no_eyesight_area_areas_of_effect() {
    use super::geometry::{Geo, Space};
    use super::senses::sensed;
    use fray_protocol::grid::{Size, Square};
    let enc = load_encounter("arena.toml", &src(POWERS)).unwrap();
    let g = Geo::new(enc.map.as_ref().unwrap()).unwrap();
    let at = |x, y| Space {
        at: Square::new(x, y),
        size: Size::Medium,
    };
    let (kael, others) = (at(0, 4), [(at(8, 1), true), (at(8, 4), true)]);
    let sight = (true, false, false);
    assert_eq!(sensed(&g, None, kael, false, sight, others).len(), 1);
    assert!(sensed(&g, None, kael, true, sight, others).is_empty());
    assert_eq!(
        sensed(&g, None, kael, true, (false, true, false), others).len(),
        2
    );
    assert!(sensed(&g, None, kael, true, (true, true, true), others).is_empty());
}

/// orcus-basic-rules.txt § Areas of effect (special sizes): a one-target eyesight power (as
/// Deter) may only name a creature the user sees; naming one behind the wall is refused and
/// changes nothing.
#[test]
fn a_one_target_eyesight_power_refuses_an_unseen_creature_areas_of_effect() {
    let mut e = engine();
    let stare = |t: &str| {
        Command::Orcus(OrcusCommand::AreaAttack {
            actor: cid("kael"),
            attack: "stare".into(),
            origin: None,
            targets: vec![cid(t)],
            forced: Vec::new(),
            origin_height: None,
            weapon: None,
            secondary_target: None,
        })
    };
    assert_eq!(refuse(&mut e, &stare("brute-1")), ErrorCode::InvalidTarget);
    let ev = run(&mut e, &stare("brute-2"));
    assert!(ev.iter().any(
        |x| matches!(x, GameEvent::AttackRolled { target, .. } if target.as_str() == "brute-2")
    ));
}

/// Kael 6 squares from brute-2 (in sight through the glass) and 8 from brute-1 (behind the
/// stone), on a map whose `earshot` is `radius` squares (none: the whole map).
fn earshot_engine(radius: Option<i32>) -> Engine {
    let positions = "kael = [0, 4]\nlira = [0, 0]\nbrute-1 = [8, 1]\nbrute-2 = [6, 4]";
    let mut text = arena_src(ROWS, "", 5, positions).replacen(
        "[[hero]]\nid = \"lira\"",
        &format!("{POWERS}[[hero]]\nid = \"lira\""),
        1,
    );
    if let Some(r) = radius {
        text = text.replace("[map]\n", &format!("[map]\nearshot = {r}\n"));
    }
    started(&load_encounter("earshot.toml", &text).unwrap(), 4)
}

/// orcus-basic-rules.txt § Areas of effect (special sizes): "Earshot means the target(s) can be
/// any creature that can hear the user" — a map may set how far that is (`[map] earshot`, § Range
/// from the user, walls ignored); without it the whole map hears (interpretation).
#[test]
fn a_map_earshot_radius_limits_who_hears_the_user_areas_of_effect() {
    let both = vec!["brute-1".to_owned(), "brute-2".to_owned()];
    assert_eq!(area(&mut earshot_engine(None), "roar"), both);
    assert_eq!(area(&mut earshot_engine(Some(8)), "roar"), both);
    assert_eq!(
        area(&mut earshot_engine(Some(7)), "roar"),
        vec!["brute-2".to_owned()],
        "brute-1 is 8 squares away"
    );
    let mut e = earshot_engine(Some(7));
    assert_eq!(e.state().map.unwrap().earshot, Some(7));
    // "Or": brute-2 is seen, brute-1 neither seen nor heard.
    assert_eq!(area(&mut e, "either"), vec!["brute-2".to_owned()]);
}

/// orcus-basic-rules.txt § Deter ("Near eyesight or earshot (one enemy)"): with an earshot
/// radius, an enemy out of sight and out of earshot cannot be deterred (refused, nothing drawn);
/// within earshot it can.
#[test]
fn deter_needs_the_target_in_eyesight_or_earshot_deter() {
    let deter = Command::Orcus(OrcusCommand::SkillAction {
        actor: cid("kael"),
        action: fray_protocol::command::SkillActionKind::Deter,
        target: cid("brute-1"),
        effect: None,
        forbid: None,
        foreign: false,
        hide: false,
    });
    let mut e = earshot_engine(Some(7));
    assert_eq!(refuse(&mut e, &deter), ErrorCode::InvalidTarget);
    let ev = run(&mut earshot_engine(Some(8)), &deter);
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::CheckRolled { .. })),
        "{ev:?}"
    );
}

/// orcus-basic-rules.txt § Areas of effect (special sizes): an earshot radius is a number of
/// squares; 0 or a negative one is refused on load.
#[test]
fn a_bad_earshot_radius_is_refused_on_load_areas_of_effect() {
    for bad in [0, -3, 500] {
        let text = arena_src(ROWS, "", 5, POSITIONS)
            .replace("[map]\n", &format!("[map]\nearshot = {bad}\n"));
        let err = load_encounter("bad.toml", &text).unwrap_err().to_string();
        assert!(err.contains("map.earshot"), "{bad}: {err}");
    }
}
