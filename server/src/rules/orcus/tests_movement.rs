//! Orcus special movement modes and underwater combat (orcus-basic-rules.txt § Special movement
//! modes, § Walk, § Run, § Underwater combat).

use super::tests::{arena_src, mv, square, started, until};
use crate::content::model::Encounter;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, refuse, run};
use fray_protocol::OrcusEvent;
use fray_protocol::command::AttackMode;
use fray_protocol::event::{BonusStat, EffectKind, GameEvent};
use fray_protocol::grid::{MoveMode, Square};
use fray_protocol::{Command, ErrorCode};

/// Difficult squares at (2..=3, 1); a pool of deep water at (2..=5, 2..=3); a wall at (7, 0..=5).
const POOL: [&str; 6] = [
    ".......#..",
    "..~~...#..",
    "..wwww.#..",
    "..wwww.#..",
    ".......#..",
    ".......#..",
];

/// The arena around the pool; `kael_extra` and `brute_extra` are stat-block lines.
fn pool(positions: &str, kael_extra: &str, brute_extra: &str, powers: &str) -> Encounter {
    let src = arena_src(&POOL, powers, 5, positions)
        .replace("wis = 2", &format!("wis = 2\n{kael_extra}"))
        .replace("dex = 0", &format!("dex = 0\n{brute_extra}"));
    crate::rules::load_encounter("pool.toml", &src).unwrap()
}

const FAR: &str = "kael = [1, 2]\nlira = [0, 5]\nbrute-1 = [9, 0]\nbrute-2 = [9, 5]";

fn cost(ev: &[GameEvent]) -> Vec<(i32, MoveMode)> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::Orcus(OrcusEvent::GridMoved { cost, mode, .. }) => Some((*cost, *mode)),
            _ => None,
        })
        .collect()
}

fn bonus(ev: &[GameEvent]) -> Option<i32> {
    ev.iter().find_map(|x| match x {
        GameEvent::AttackRolled { bonus, .. } => Some(*bonus),
        _ => None,
    })
}

#[test]
fn a_mode_needs_its_speed_and_is_limited_by_it_special_movement_modes() {
    // orcus-basic-rules.txt § Special movement modes; § Walk: "you can move the number of
    // squares specified for that mode instead".
    let enc = pool(FAR, "fly = 3\nswim = 4", "", "");
    let mut e = started(&enc, 1);
    let before = cs(&e, "kael");
    // No climb or burrow speed.
    assert_eq!(
        refuse(&mut e, &mv("kael", &[(1, 3)], MoveMode::Climb)),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        refuse(&mut e, &mv("kael", &[(1, 3)], MoveMode::Burrow)),
        ErrorCode::InvalidArgument
    );
    // Fly 3: four squares are too far, even though Kael walks 5.
    assert_eq!(
        refuse(
            &mut e,
            &mv("kael", &[(1, 1), (2, 0), (3, 0), (4, 0)], MoveMode::Fly)
        ),
        ErrorCode::TooFar
    );
    // A swim stays in the water.
    assert_eq!(
        refuse(&mut e, &mv("kael", &[(2, 2), (1, 1)], MoveMode::Swim)),
        ErrorCode::IllegalPath
    );
    // Lira has no modes at all.
    until(&mut e, "lira");
    assert_eq!(
        refuse(&mut e, &mv("lira", &[(0, 4)], MoveMode::Fly)),
        ErrorCode::InvalidArgument
    );
    assert_eq!(cs(&e, "kael").grid, before.grid, "refusals change nothing");
}

#[test]
fn swimming_costs_nothing_extra_with_a_swim_speed_and_one_extra_without_special_movement_modes() {
    // orcus-basic-rules.txt § Swim: no extra movement with a swimming speed; § Athletics:
    // swimming without one costs 1 extra square per square (with a swim speed no check).
    let enc = pool(FAR, "swim = 4", "", "");
    let mut e = started(&enc, 2);
    let ev = run(
        &mut e,
        &mv("kael", &[(2, 2), (3, 2), (4, 2), (5, 2)], MoveMode::Swim),
    );
    assert_eq!(cost(&ev), vec![(4, MoveMode::Swim)]);
    assert_eq!(square(&e, "kael"), Square::new(5, 2));
    // Walking (wading) through the pool: 2 per water square.
    let mut e = started(&enc, 2);
    assert_eq!(
        refuse(
            &mut e,
            &mv("kael", &[(2, 2), (3, 2), (4, 2)], MoveMode::Walk)
        ),
        ErrorCode::TooFar
    );
    let ev = run(&mut e, &mv("kael", &[(2, 2), (3, 2)], MoveMode::Walk));
    assert_eq!(cost(&ev), vec![(4, MoveMode::Walk)]);
}

#[test]
fn flying_ignores_difficult_terrain_and_water_but_not_walls_special_movement_modes() {
    // orcus-basic-rules.txt § Fly (interpretation: Fourth Edition's fliers ignore the ground's
    // difficult terrain; the text is silent).
    let enc = pool(
        "kael = [1, 1]\nlira = [0, 5]\nbrute-1 = [9, 0]\nbrute-2 = [9, 5]",
        "fly = 4",
        "",
        "",
    );
    let mut e = started(&enc, 3);
    assert_eq!(
        refuse(
            &mut e,
            &mv(
                "kael",
                &[(2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1)],
                MoveMode::RunFly
            )
        ),
        ErrorCode::IllegalPath,
        "walls stop fliers"
    );
    let ev = run(
        &mut e,
        &mv("kael", &[(2, 1), (3, 1), (4, 2), (5, 3)], MoveMode::Fly),
    );
    assert_eq!(cost(&ev), vec![(4, MoveMode::Fly)]);
}

#[test]
fn running_in_a_mode_adds_two_squares_and_the_run_penalties_run() {
    // orcus-basic-rules.txt § Run: "the number of squares specified for that mode +2", then −5
    // to attacks and off-guard.
    let enc = pool(FAR, "burrow = 2", "", "");
    let mut e = started(&enc, 4);
    let path = [(1, 3), (1, 4), (2, 4), (3, 4), (4, 4)];
    assert_eq!(
        refuse(&mut e, &mv("kael", &path, MoveMode::RunBurrow)),
        ErrorCode::TooFar
    );
    assert_eq!(
        refuse(&mut e, &mv("kael", &path[..3], MoveMode::Burrow)),
        ErrorCode::TooFar
    );
    let ev = run(&mut e, &mv("kael", &path[..4], MoveMode::RunBurrow));
    assert_eq!(cost(&ev), vec![(4, MoveMode::RunBurrow)]);
    assert!(cs(&e, "kael").effects.iter().any(|x| matches!(
        x.kind,
        EffectKind::Bonus {
            stat: BonusStat::Attack,
            amount: -5
        }
    )));
}

#[test]
fn burrowing_does_not_pass_solid_rock_special_movement_modes() {
    // orcus-basic-rules.txt § Burrow: "can't burrow through solid rock" (walls, `#`).
    let enc = pool(
        "kael = [6, 0]\nlira = [0, 5]\nbrute-1 = [9, 0]\nbrute-2 = [9, 5]",
        "burrow = 6",
        "",
        "",
    );
    let mut e = started(&enc, 5);
    assert_eq!(
        refuse(&mut e, &mv("kael", &[(7, 0), (8, 0)], MoveMode::Burrow)),
        ErrorCode::IllegalPath
    );
    run(&mut e, &mv("kael", &[(6, 1)], MoveMode::Burrow));
    assert_eq!(square(&e, "kael"), Square::new(6, 1));
}

fn attack(actor: &str, power: &str, target: &str) -> Command {
    Command::Attack {
        actor: cid(actor),
        attack: power.into(),
        targets: vec![cid(target)],
        mode: AttackMode::Standard,
        knock_out: false,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    }
}

fn kael_swings(e: &mut Engine) -> Option<i32> {
    bonus(&run(e, &attack("kael", "sword", "brute-1")))
}

#[test]
fn weapon_attacks_take_minus_2_underwater_except_spears_and_crossbows_underwater_combat() {
    // orcus-basic-rules.txt § Underwater combat: −2 to weapon attacks unless the weapon is in
    // the Spears & Lances or Crossbows groups.
    let wet = "kael = [2, 2]\nlira = [0, 5]\nbrute-1 = [3, 2]\nbrute-2 = [9, 5]";
    let dry = "kael = [1, 4]\nlira = [0, 5]\nbrute-1 = [2, 4]\nbrute-2 = [9, 5]";
    let sword = |at: &str, weapon: &str| {
        // The brutes swim (§ Swim: not off-guard for swimming), so only the weapon counts.
        let src = arena_src(&POOL, "", 5, at)
            .replace("wis = 2", &format!("wis = 2\nweapon = \"{weapon}\""))
            .replace("dex = 0", "dex = 0\nswim = 4")
            .replace("hit = \"1d8+2\"", "hit = \"1dW+2\"");
        crate::rules::load_encounter("pool.toml", &src).unwrap()
    };
    assert_eq!(
        kael_swings(&mut started(&sword(dry, "longsword"), 6)),
        Some(5)
    );
    assert_eq!(
        kael_swings(&mut started(&sword(wet, "longsword"), 6)),
        Some(3)
    );
    assert_eq!(
        kael_swings(&mut started(&sword(wet, "shortspear"), 6)),
        Some(5)
    );
    // A power without the weapon's dice is not a weapon attack.
    assert_eq!(
        kael_swings(&mut started(&pool(wet, "", "swim = 4", ""), 6)),
        Some(5)
    );
}

#[test]
fn fire_powers_take_minus_2_and_aquatic_creatures_get_plus_2_underwater_combat() {
    // orcus-basic-rules.txt § Underwater combat: −2 to powers with the Fire tag (Fray: fire
    // damage); +2 for an Aquatic creature against one without the tag.
    let wet = "kael = [2, 2]\nlira = [0, 5]\nbrute-1 = [3, 2]\nbrute-2 = [9, 5]";
    let dry = "kael = [1, 4]\nlira = [0, 5]\nbrute-1 = [2, 4]\nbrute-2 = [9, 5]";
    let flame = "[[monster.powers]]\nid = \"flame\"\nname = \"Flame\"\norigin = \"melee\"\nvs = \"ac\"\nbonus = 4\nhit = \"1d6\"\ndamage_type = \"fire\"";
    let brute = |enc: &Encounter, power: &str| {
        let mut e = started(enc, 7);
        until(&mut e, "brute-1");
        bonus(&run(&mut e, &attack("brute-1", power, "kael")))
    };
    // Kael swims (§ Swim: not off-guard for swimming), so only the underwater rules count.
    let plain = pool(wet, "swim = 4", "", flame);
    assert_eq!(brute(&plain, "club"), Some(4));
    assert_eq!(brute(&plain, "flame"), Some(2));
    let aquatic = pool(wet, "swim = 4", "aquatic = true", flame);
    assert_eq!(brute(&aquatic, "club"), Some(6));
    assert_eq!(brute(&aquatic, "flame"), Some(4));
    // Out of the water nothing applies; nor against an Aquatic target.
    assert_eq!(
        brute(&pool(dry, "", "aquatic = true", flame), "flame"),
        Some(4)
    );
    assert_eq!(
        brute(
            &pool(wet, "aquatic = true\nswim = 4", "aquatic = true", flame),
            "club"
        ),
        Some(4)
    );
}

#[test]
fn a_mode_speed_out_of_range_is_refused_on_load_special_movement_modes() {
    // orcus-basic-rules.txt § Special movement modes: speeds in squares, like `speed` (0..=20).
    let src = arena_src(&POOL, "", 5, FAR).replace("wis = 2", "wis = 2\nfly = 30");
    let err = crate::rules::load_encounter("pool.toml", &src)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("hero.kael.fly"), "{err}");
    let src = arena_src(&POOL, "", 5, FAR).replace("dex = 0", "dex = 0\nswim = -1");
    let err = crate::rules::load_encounter("pool.toml", &src)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("monster.brute.swim"), "{err}");
}

/// orcus-basic-rules.txt § Athletics ("While swimming, you are off-guard") and § Swim ("A
/// creature that has a swimming speed … doesn't become off-guard just because it is
/// swimming"): a brute in the (deep) water without a swim speed is off-guard, +2 to Kael's
/// attack; one with a swim speed is not; on dry land neither is.
#[test]
fn a_creature_swimming_without_a_swim_speed_is_off_guard_swim() {
    let wet = "kael = [2, 2]\nlira = [0, 5]\nbrute-1 = [3, 2]\nbrute-2 = [9, 5]";
    let dry = "kael = [1, 4]\nlira = [0, 5]\nbrute-1 = [2, 4]\nbrute-2 = [9, 5]";
    let swing =
        |at: &str, brute_extra: &str| kael_swings(&mut started(&pool(at, "", brute_extra, ""), 6));
    assert_eq!(swing(dry, ""), Some(5));
    assert_eq!(swing(wet, ""), Some(7));
    assert_eq!(swing(wet, "swim = 4"), Some(5));
}

/// orcus-basic-rules.txt § Athletics, swimming ("When you start swimming as part of your
/// movement, make an Athletics check against a DC chosen by the GM. If you fail by 4 or less,
/// your action ends and you stay in place"): a walker without a swim speed checks against the
/// map's `swim_dc` on its first water square — failing, it stops at the edge (its move action
/// spent); succeeding, it swims on; a swimmer makes no check.
#[test]
fn starting_to_swim_without_a_swim_speed_takes_an_athletics_check_swim() {
    let wade = |dc: i32, kael_extra: &str| {
        let src = arena_src(&POOL, "", 5, FAR)
            .replace("wis = 2", &format!("wis = 2\n{kael_extra}"))
            .replace("[map]\n", &format!("[map]\nswim_dc = {dc}\n"));
        let mut e = started(&crate::rules::load_encounter("pool.toml", &src).unwrap(), 2);
        let ev = run(&mut e, &mv("kael", &[(1, 3), (2, 3)], MoveMode::Walk));
        let checks: Vec<bool> = ev
            .iter()
            .filter_map(|x| match x {
                GameEvent::CheckRolled {
                    purpose, success, ..
                } if purpose == "swim" => Some(*success),
                _ => None,
            })
            .collect();
        (checks, square(&e, "kael"))
    };
    // DC 60: the check fails; Kael stays at the water's edge.
    assert_eq!(wade(60, ""), (vec![false], Square::new(1, 3)));
    // DC 1: he swims in.
    assert_eq!(wade(1, ""), (vec![true], Square::new(2, 3)));
    // A swim speed: no check.
    assert_eq!(wade(60, "swim = 4"), (vec![], Square::new(2, 3)));
    // A bad DC is refused on load.
    let src = arena_src(&POOL, "", 5, FAR).replace("[map]\n", "[map]\nswim_dc = 0\n");
    let err = crate::rules::load_encounter("pool.toml", &src)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("map.swim_dc"), "{err}");
}

fn place(who: &str, x: i32, y: i32) -> Command {
    Command::Orcus(fray_protocol::OrcusCommand::PlaceToken {
        combatant: cid(who),
        square: Square::new(x, y),
    })
}

#[test]
fn the_gms_place_token_moves_a_token_to_a_free_square_without_cost_or_opportunity_attacks() {
    // kael starts next to brute-1: a walk away would provoke; the GM's placement does not.
    let enc = pool(
        "kael = [8, 1]\nlira = [0, 5]\nbrute-1 = [9, 0]\nbrute-2 = [9, 5]",
        "",
        "",
        "",
    );
    let mut e = started(&enc, 1);
    let budget = cs(&e, "kael").actions;
    let ev = run(&mut e, &place("kael", 0, 0));
    assert!(
        matches!(
            &ev[..],
            [
                GameEvent::GmOverride { .. },
                GameEvent::Orcus(OrcusEvent::GridMoved {
                    cost: 0,
                    mode: MoveMode::Unwilling,
                    ..
                })
            ]
        ),
        "{ev:?}"
    );
    assert_eq!(square(&e, "kael"), Square::new(0, 0));
    assert_eq!(cs(&e, "kael").actions, budget, "nothing is spent");
    // A wall, another creature's square, off the map: refused, nothing drawn or changed.
    for (x, y) in [(7, 0), (9, 5), (0, 6), (-1, 0)] {
        assert_eq!(
            refuse(&mut e, &place("kael", x, y)),
            ErrorCode::InvalidArgument
        );
    }
    assert_eq!(
        refuse(&mut e, &place("nobody", 1, 1)),
        ErrorCode::UnknownCombatant
    );
}
