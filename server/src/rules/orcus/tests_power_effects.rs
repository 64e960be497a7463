//! Orcus § Action descriptions (a power's Effect line; tangles: "Effect The area becomes
//! difficult terrain until the end of your next turn") and § Category (utility powers; "Some
//! actions also have effects when they miss, or regardless of whether they hit or miss").

use super::tests::{SPREAD, arena_src, atk, end, mv, started, until};
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, run};
use crate::rules::load_encounter;
use fray_protocol::Command;
use fray_protocol::event::{Condition, EffectEndReason, EffectKind, GameEvent};
use fray_protocol::grid::{MoveMode, Square, ZoneKind};
use fray_protocol::{OrcusCommand, OrcusEvent};

pub(super) const OPEN: [&str; 6] = [
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
];

/// The arena's content with `powers` added to Kael's.
pub(super) fn with_kael_powers(powers: &str, positions: &str) -> String {
    arena_src(&OPEN, "", 5, positions).replacen(
        "[[hero]]\nid = \"lira\"",
        &format!("{powers}\n[[hero]]\nid = \"lira\""),
        1,
    )
}

pub(super) const TANGLES: &str = r#"[[hero.powers]]
id = "tangles"
name = "Tangles"
origin = "far burst"
area = 1
range = [10]
vs = "fortitude"
bonus = 5
hit = "2d6+1"
effect = [{ zone = "difficult terrain", duration = "end of your next turn" }]
"#;

pub(super) fn far(actor: &str, power: &str, at: (i32, i32)) -> Command {
    Command::Orcus(OrcusCommand::AreaAttack {
        actor: cid(actor),
        attack: power.into(),
        origin: Some(Square::new(at.0, at.1)),
        targets: Vec::new(),
        forced: Vec::new(),
        weapon: None,
        origin_height: None,
        secondary_target: None,
    })
}

pub(super) fn zone_count(e: &Engine, id: &str) -> usize {
    cs(e, id).grid.expect("grid").zones.len()
}

fn moved_cost(ev: &[GameEvent]) -> i32 {
    ev.iter()
        .find_map(|x| match x {
            GameEvent::Orcus(OrcusEvent::GridMoved { cost, .. }) => Some(*cost),
            _ => None,
        })
        .expect("moved")
}

/// orcus-basic-rules.txt § Action descriptions (tangles): the far burst's area becomes
/// difficult terrain — entering its squares costs 1 extra — until the end of the user's next
/// turn; then the zone ends and the squares cost 1 again.
#[test]
fn an_area_becomes_difficult_terrain_until_the_end_of_the_users_next_turn_action_descriptions() {
    // Lira at (1,3) west of the burst centred on (3,3); the brutes far away.
    let positions = "kael = [0, 0]\nlira = [1, 3]\nbrute-1 = [9, 0]\nbrute-2 = [9, 5]";
    let enc = load_encounter("tangles.toml", &with_kael_powers(TANGLES, positions)).unwrap();
    let mut e = started(&enc, 1);
    let ev = run(&mut e, &far("kael", "tangles", (3, 3)));
    let zone = ev
        .iter()
        .find_map(|x| match x {
            GameEvent::Orcus(OrcusEvent::ZoneCreated { zone }) => Some(zone.clone()),
            _ => None,
        })
        .expect("zone created");
    assert_eq!(zone.kind, ZoneKind::DifficultTerrain);
    assert_eq!(zone.squares.len(), 9, "burst 1: 3 × 3 squares");
    assert!(zone.squares.contains(&Square::new(2, 2)) && zone.squares.contains(&Square::new(4, 4)));
    assert_eq!(cs(&e, "kael").grid.unwrap().zones, vec![zone.clone()]);
    run(&mut e, &end("kael"));
    until(&mut e, "lira");
    // Two squares of the zone: 2 each.
    let walked = run(&mut e, &mv("lira", &[(2, 3), (3, 3)], MoveMode::Walk));
    assert_eq!(moved_cost(&walked), 4, "{walked:?}");
    // The zone lasts through Kael's next turn and ends with it.
    let ev = until(&mut e, "kael");
    assert!(ev.iter().any(
        |x| matches!(x, GameEvent::Orcus(OrcusEvent::ZoneArmed { zone: z, .. }) if *z == zone.id)
    ));
    assert_eq!(zone_count(&e, "kael"), 1);
    let ev = run(&mut e, &end("kael"));
    assert!(ev.iter().any(|x| matches!(x,
        GameEvent::Orcus(OrcusEvent::ZoneEnded { zone: z, reason: EffectEndReason::Expired, .. }) if *z == zone.id)));
    assert_eq!(zone_count(&e, "kael"), 0);
    until(&mut e, "lira");
    let walked = run(&mut e, &mv("lira", &[(4, 3)], MoveMode::Walk));
    assert_eq!(moved_cost(&walked), 1, "the zone is gone");
}

/// orcus-basic-rules.txt § Category: an Effect line applies "regardless of whether they hit or
/// miss" — to a target missed as well as one hit (on a hit together with the Hit effects).
#[test]
fn the_effect_line_lands_on_each_target_hit_or_missed_action_descriptions() {
    for (bonus, hits) in [(40, true), (-40, false)] {
        let power = format!(
            r#"[[hero.powers]]
id = "snare"
name = "Snare Strike"
origin = "melee"
vs = "ac"
bonus = {bonus}
hit = "1"
on_hit = [{{ condition = "dazed", duration = "end of your next turn" }}]
effect = [{{ condition = "slowed", duration = "end of your next turn" }}]
"#
        );
        let positions = "kael = [0, 0]\nlira = [0, 5]\nbrute-1 = [1, 0]\nbrute-2 = [9, 5]";
        let enc = load_encounter("snare.toml", &with_kael_powers(&power, positions)).unwrap();
        // A seed whose d20 is neither 1 nor 20, so that the outcome follows the bonus.
        let mut done = false;
        for seed in 0..20 {
            let mut e = started(&enc, seed);
            let ev = run(&mut e, &atk("kael", "snare", &["brute-1"]));
            let hit = ev
                .iter()
                .any(|x| matches!(x, GameEvent::AttackRolled { outcome, .. } if outcome.is_hit()));
            if hit != hits {
                continue;
            }
            let fx = cs(&e, "brute-1").effects;
            let has = |c| fx.iter().any(|x| x.kind == EffectKind::Condition(c));
            assert!(has(Condition::Slowed), "the Effect line lands either way");
            assert_eq!(has(Condition::Dazed), hits, "the Hit line only on a hit");
            done = true;
            break;
        }
        assert!(done, "bonus {bonus}: no seed gave the outcome");
    }
}

/// orcus-basic-rules.txt § Category ("A utility action may affect you, an ally, the
/// environment"): a power without `vs` makes no attack roll and draws no die; its Effect line
/// lands on each target (`attack`), or its zone covers the area (`area_attack`).
#[test]
fn a_utility_power_makes_no_attack_roll_and_applies_its_effect_category() {
    let powers = r#"[[hero.powers]]
id = "hinder"
name = "Hinder"
origin = "ranged"
range = [10]
targets = "one creature"
effect = [{ condition = "slowed", duration = "end of your next turn" }]
[[hero.powers]]
id = "roots"
name = "Entangling Roots"
origin = "far burst"
area = 1
range = [10]
frequency = "encounter"
effect = [{ zone = "difficult terrain", duration = "encounter" }]
"#;
    let enc = load_encounter("utility.toml", &with_kael_powers(powers, SPREAD)).unwrap();
    let mut e = started(&enc, 3);
    let draws = e.rng().draws();
    let ev = run(&mut e, &atk("kael", "hinder", &["brute-1"]));
    assert!(
        !ev.iter()
            .any(|x| matches!(x, GameEvent::AttackRolled { .. }))
    );
    assert_eq!(e.rng().draws(), draws, "no die for a utility power");
    assert!(
        cs(&e, "brute-1")
            .effects
            .iter()
            .any(|x| x.kind == EffectKind::Condition(Condition::Slowed))
    );
    // The standard action is spent; the area power waits for the next turn.
    run(&mut e, &end("kael"));
    until(&mut e, "kael");
    let ev = run(&mut e, &far("kael", "roots", (4, 2)));
    assert!(
        !ev.iter()
            .any(|x| matches!(x, GameEvent::AttackRolled { .. }))
    );
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::Orcus(OrcusEvent::ZoneCreated { .. })))
    );
    // An encounter zone outlasts the user's next turn.
    run(&mut e, &end("kael"));
    until(&mut e, "kael");
    run(&mut e, &end("kael"));
    assert_eq!(zone_count(&e, "kael"), 1);
}

/// orcus-basic-rules.txt § Action descriptions and § Category: a zone is the area of a near or
/// far burst or blast, in the `effect` list only; a utility power (no `vs`) has no parts that
/// need an attack roll, and a power has `vs` or an `effect` line.
#[test]
fn zones_and_utility_powers_are_checked_on_load_action_descriptions() {
    let bad = [
        (
            r#"[[hero.powers]]
id = "x"
name = "X"
origin = "melee"
vs = "ac"
bonus = 1
effect = [{ zone = "difficult terrain", duration = "encounter" }]
"#,
            "effect[0].zone",
        ),
        (
            r#"[[hero.powers]]
id = "x"
name = "X"
origin = "near burst"
vs = "ac"
bonus = 1
on_hit = [{ zone = "difficult terrain", duration = "encounter" }]
"#,
            "on_hit[0].zone",
        ),
        (
            r#"[[hero.powers]]
id = "x"
name = "X"
origin = "near burst"
effect = [{ zone = "lava", duration = "encounter" }]
"#,
            "unknown zone",
        ),
        (
            r#"[[hero.powers]]
id = "x"
name = "X"
origin = "near burst"
effect = [{ zone = "difficult terrain" }]
"#,
            "effect[0].duration",
        ),
        (
            r#"[[hero.powers]]
id = "x"
name = "X"
origin = "ranged"
range = [5]
hit = "1d6"
effect = [{ condition = "slowed" }]
"#,
            ".hit",
        ),
        (
            r#"[[hero.powers]]
id = "x"
name = "X"
origin = "ranged"
range = [5]
"#,
            ".vs",
        ),
    ];
    for (power, field) in bad {
        let err = load_encounter("bad.toml", &with_kael_powers(power, SPREAD))
            .unwrap_err()
            .to_string();
        assert!(err.contains(field), "{field}: {err}");
    }
}

/// orcus-basic-rules.txt § Action descriptions and § Special movement modes: a flier ignores a
/// zone's difficult terrain as it ignores the map's (interpretation, see `commands.rs`).
#[test]
fn a_zone_costs_walkers_but_not_fliers_action_descriptions() {
    let positions = "kael = [0, 0]\nlira = [1, 3]\nbrute-1 = [9, 0]\nbrute-2 = [9, 5]";
    let src = with_kael_powers(TANGLES, positions).replacen(
        "id = \"lira\"\nname = \"Lira\"",
        "id = \"lira\"\nname = \"Lira\"\nfly = 6",
        1,
    );
    let enc = load_encounter("tangles.toml", &src).unwrap();
    let mut e = started(&enc, 1);
    run(&mut e, &far("kael", "tangles", (3, 3)));
    run(&mut e, &end("kael"));
    until(&mut e, "lira");
    let flown = run(&mut e, &mv("lira", &[(2, 3), (3, 3)], MoveMode::Fly));
    assert_eq!(moved_cost(&flown), 2);
}
