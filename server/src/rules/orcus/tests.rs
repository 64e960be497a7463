//! Orcus rules, each test naming the section of `orcus-basic-rules.txt` it checks.

use crate::content::model::Encounter;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, current, new_engine, refuse, run};
use crate::rules::{builtin_encounters, load_encounter};
use fray_protocol::command::AttackMode;
use fray_protocol::event::{ActionKind, AttackOutcome, Condition, EffectKind, GameEvent};
use fray_protocol::grid::{MoveMode, Square};
use fray_protocol::state::LifeStatus;
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{OrcusCommand, OrcusEvent};

/// A small arena: `#` walls, `~` difficult terrain. Heroes and monsters are defined inline so
/// that numbers are known.
pub(super) fn arena(extra_monster_powers: &str, hero_bonus: i32, positions: &str) -> Encounter {
    arena_on(
        &[
            "..........",
            "..........",
            "....#.....",
            "....#.....",
            "..~~......",
            "..........",
        ],
        extra_monster_powers,
        hero_bonus,
        positions,
    )
}

/// The arena on another map (rows as in content files).
pub(super) fn arena_on(
    rows: &[&str],
    extra_monster_powers: &str,
    hero_bonus: i32,
    positions: &str,
) -> Encounter {
    load_encounter(
        "arena.toml",
        &arena_src(rows, extra_monster_powers, hero_bonus, positions),
    )
    .unwrap()
}

/// The arena's content file.
pub(super) fn arena_src(
    rows: &[&str],
    extra_monster_powers: &str,
    hero_bonus: i32,
    positions: &str,
) -> String {
    let rows = rows
        .iter()
        .map(|r| format!("  \"{r}\","))
        .collect::<Vec<_>>()
        .join("\n");
    format!(
        r#"
ruleset = "orcus"
heroes = ["kael", "lira"]
[[monsters]]
template = "brute"
count = 2
[map]
rows = [
{rows}
]
[positions]
{positions}
[[hero]]
id = "kael"
name = "Kael"
level = 1
hp = 30
ac = 16
fortitude = 14
reflex = 13
will = 12
initiative = 20
speed = 5
recoveries = 2
wis = 2
[[hero.powers]]
id = "sword"
name = "Sword"
origin = "melee"
vs = "ac"
bonus = {hero_bonus}
hit = "1d8+2"
basic = true
[[hero.powers]]
id = "bow"
name = "Bow"
origin = "ranged"
range = [5, 10]
vs = "ac"
bonus = {hero_bonus}
hit = "1d8"
[[hero.powers]]
id = "burst"
name = "Burst"
origin = "near burst"
area = 1
targets = "all enemies"
vs = "reflex"
bonus = {hero_bonus}
hit = "1d6"
[[hero]]
id = "lira"
name = "Lira"
level = 1
hp = 24
ac = 15
fortitude = 12
reflex = 14
will = 14
initiative = -10
speed = 6
recoveries = 1
[[hero.powers]]
id = "dagger"
name = "Dagger"
origin = "melee"
vs = "ac"
bonus = {hero_bonus}
hit = "1d4+2"
basic = true
[[monster]]
template = "brute"
name = "Brute"
level = 1
role = "wrecker"
rank = "standard"
speed = 6
dex = 0
[[monster.powers]]
id = "club"
name = "Club"
origin = "melee"
vs = "ac"
bonus = 4
hit = "1d10+3"
basic = true
{extra_monster_powers}
"#
    )
}

pub(super) const SPREAD: &str = r#"kael = [0, 0]
lira = [0, 5]
brute-1 = [8, 0]
brute-2 = [8, 5]"#;

pub(super) fn mv(actor: &str, path: &[(i32, i32)], mode: MoveMode) -> Command {
    Command::Orcus(OrcusCommand::MoveTo {
        actor: cid(actor),
        path: path.iter().map(|(x, y)| Square::new(*x, *y)).collect(),
        mode,
        hide: false,
    })
}

pub(super) fn atk(actor: &str, attack: &str, targets: &[&str]) -> Command {
    Command::Attack {
        actor: cid(actor),
        attack: attack.into(),
        targets: targets.iter().map(|t| cid(t)).collect(),
        mode: AttackMode::Standard,
        knock_out: false,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    }
}

pub(super) fn end(actor: &str) -> Command {
    Command::EndTurn { actor: cid(actor) }
}

/// A started battle whose first turn is Kael's (initiative 20 + d20 beats the rest).
pub(super) fn started(enc: &Encounter, seed: u64) -> Engine {
    let mut e = new_engine(enc, seed);
    run(&mut e, &Command::StartBattle);
    assert_eq!(current(&e), "kael");
    e
}

pub(super) fn square(e: &Engine, id: &str) -> Square {
    cs(e, id).grid.expect("grid").square
}

#[test]
fn identical_creatures_share_one_initiative_roll_initiative() {
    // orcus-basic-rules.txt § Initiative: one roll for a group of identical creatures; the
    // order stays the same from round to round.
    let enc = arena("", 5, SPREAD);
    let mut e = new_engine(&enc, 1);
    let ev = run(&mut e, &Command::StartBattle);
    let rolls: Vec<&GameEvent> = ev
        .iter()
        .filter(|x| matches!(x, GameEvent::InitiativeRolled { .. }))
        .collect();
    assert_eq!(rolls.len(), 3, "kael, lira, and one roll for both brutes");
    assert!(rolls.iter().any(|x| matches!(x,
        GameEvent::InitiativeRolled { combatants, .. } if combatants.len() == 2)));
    let order = e.state().order;
    assert_eq!(order.len(), 4);
    let b1 = order.iter().position(|c| c.as_str() == "brute-1").unwrap();
    let b2 = order.iter().position(|c| c.as_str() == "brute-2").unwrap();
    assert_eq!(b1 + 1, b2, "tied brutes act together, by id");
}

#[test]
fn the_gm_reorders_the_initiative_initiative() {
    // orcus-basic-rules.txt § Initiative: ties are the GM's call; `reorder_initiative`.
    let enc = arena("", 5, SPREAD);
    let mut e = started(&enc, 2);
    let mut order = e.state().order;
    order.reverse();
    assert_eq!(
        refuse(
            &mut e,
            &Command::ReorderInitiative {
                order: order[1..].to_vec()
            }
        ),
        ErrorCode::InvalidArgument
    );
    run(
        &mut e,
        &Command::ReorderInitiative {
            order: order.clone(),
        },
    );
    assert_eq!(e.state().order, order);
    assert_eq!(current(&e), "kael", "the current turn goes on");
}

#[test]
fn an_attacker_may_knock_out_instead_of_killing_knocking_a_creature_out() {
    // orcus-basic-rules.txt § Knocking a creature out: the attacker's choice when it drops a
    // creature to 0 hp or below: it falls unconscious (knocked out), neither slain nor dying.
    // The GM's `knock_outs` ruling is 13th Age's (§ Unconscious): refused here.
    let enc = arena(&smash(40), 40, SPREAD);
    let mut e = started(&enc, 2);
    assert_eq!(
        refuse(&mut e, &Command::KnockOuts { allowed: false }),
        ErrorCode::InvalidArgument
    );
    let mut ko = atk("kael", "bow", &["brute-1"]);
    if let Command::Attack { knock_out, .. } = &mut ko {
        *knock_out = true;
    }
    // Wear brute-1 down with knock-out shots until one drops it.
    for _ in 0..30 {
        if cs(&e, "brute-1").status != LifeStatus::Conscious {
            break;
        }
        if current(&e) != "kael" {
            until(&mut e, "kael");
        }
        run(&mut e, &ko);
        if current(&e) == "kael" {
            run(&mut e, &end("kael"));
        }
    }
    assert_eq!(cs(&e, "brute-1").status, LifeStatus::KnockedOut);
    // A hero knocked out makes no death saves: Lira, smashed by brute-1 for 40 with intent.
    let enc = arena(&smash(40), 5, NEXT_TO_LIRA);
    let mut e = started(&enc, 4);
    until(&mut e, "brute-1");
    let ev = run(
        &mut e,
        &Command::Attack {
            actor: cid("brute-1"),
            attack: "smash".into(),
            targets: vec![cid("lira")],
            mode: AttackMode::Standard,
            knock_out: true,
            forced: Vec::new(),
            weapon: None,
            secondary_target: None,
        },
    );
    if ev.iter().any(|x| matches!(x, GameEvent::KnockedOut { .. })) {
        assert_eq!(cs(&e, "lira").status, LifeStatus::KnockedOut);
        let ev = until(&mut e, "brute-1");
        assert!(
            !ev.iter().any(|x| matches!(x, GameEvent::SaveRolled { combatant, .. } if combatant.as_str() == "lira")),
            "no death saves while knocked out"
        );
    } else {
        // A natural 1 missed: the blow never landed.
        assert!(ev.iter().any(|x| matches!(
            x,
            GameEvent::AttackRolled {
                outcome: AttackOutcome::Fumble,
                ..
            }
        )));
    }
}

#[test]
fn walking_costs_squares_and_difficult_terrain_costs_double_walk_difficult_terrain() {
    // orcus-basic-rules.txt § Walk (up to speed), § Difficult terrain (+1 per square).
    let enc = arena(
        "",
        5,
        r#"kael = [1, 4]
lira = [0, 0]
brute-1 = [9, 0]
brute-2 = [9, 5]"#,
    );
    let mut e = started(&enc, 3);
    // Through two difficult squares: 2 + 2 + 1 = 5 (speed 5).
    let ev = run(
        &mut e,
        &mv("kael", &[(2, 4), (3, 4), (4, 4)], MoveMode::Walk),
    );
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::Orcus(OrcusEvent::GridMoved { cost: 5, .. })))
    );
    assert_eq!(square(&e, "kael"), Square::new(4, 4));
    // The move action is spent; a second walk takes the standard action (trading down).
    run(&mut e, &mv("kael", &[(5, 4)], MoveMode::Walk));
    assert_eq!(
        refuse(&mut e, &mv("kael", &[(6, 4)], MoveMode::Walk)),
        ErrorCode::ActionAlreadyUsed
    );
}

#[test]
fn illegal_paths_are_refused_and_change_nothing_movement_and_positioning() {
    // orcus-basic-rules.txt § Walk, § Occupied spaces, § Speed; walls block.
    let enc = arena(
        "",
        5,
        r#"kael = [3, 2]
lira = [3, 3]
brute-1 = [3, 1]
brute-2 = [9, 5]"#,
    );
    let mut e = started(&enc, 4);
    // Into a wall.
    assert_eq!(
        refuse(&mut e, &mv("kael", &[(4, 2)], MoveMode::Walk)),
        ErrorCode::IllegalPath
    );
    // Not adjacent.
    assert_eq!(
        refuse(&mut e, &mv("kael", &[(3, 0)], MoveMode::Walk)),
        ErrorCode::IllegalPath
    );
    // Through an enemy.
    assert_eq!(
        refuse(&mut e, &mv("kael", &[(3, 1), (3, 0)], MoveMode::Walk)),
        ErrorCode::IllegalPath
    );
    // Ending on an ally (passing through is fine).
    assert_eq!(
        refuse(&mut e, &mv("kael", &[(3, 3)], MoveMode::Walk)),
        ErrorCode::IllegalPath
    );
    // Too far: 6 squares at speed 5; a step is one square.
    let long = [(2, 3), (2, 4), (2, 5), (1, 5), (0, 5), (0, 4)];
    assert_eq!(
        refuse(&mut e, &mv("kael", &long, MoveMode::Walk)),
        ErrorCode::TooFar
    );
    assert_eq!(
        refuse(&mut e, &mv("kael", &[(2, 3), (2, 4)], MoveMode::Step)),
        ErrorCode::TooFar
    );
    // Off the map.
    assert_eq!(
        refuse(&mut e, &mv("kael", &[(3, 2), (-1, 2)], MoveMode::Walk)),
        ErrorCode::IllegalPath
    );
    // Passing through the ally to the square beyond is legal.
    run(&mut e, &mv("kael", &[(3, 3), (3, 4)], MoveMode::Walk));
    assert_eq!(square(&e, "kael"), Square::new(3, 4));
}

#[test]
fn leaving_an_enemy_provokes_an_opportunity_attack_but_stepping_does_not_opportunity_attacks() {
    // orcus-basic-rules.txt § Opportunity attacks: moving to no longer be adjacent provokes;
    // stepping does not; one opportunity attack per turn.
    let enc = arena(
        "",
        5,
        r#"kael = [1, 1]
lira = [0, 5]
brute-1 = [2, 1]
brute-2 = [9, 5]"#,
    );
    let mut e = started(&enc, 5);
    // A step that leaves adjacency would not provoke either; this one stays adjacent.
    let ev = run(&mut e, &mv("kael", &[(1, 0)], MoveMode::Step));
    assert!(
        !ev.iter()
            .any(|x| matches!(x, GameEvent::OpportunityTaken { .. }))
    );
    let ev = run(&mut e, &mv("kael", &[(0, 1), (0, 2)], MoveMode::Walk));
    let taken: Vec<&GameEvent> = ev
        .iter()
        .filter(|x| matches!(x, GameEvent::OpportunityTaken { .. }))
        .collect();
    // (1,0) → (0,1): no longer adjacent to (2,1): provokes before the first step.
    assert_eq!(taken.len(), 1, "{ev:?}");
    let at = ev
        .iter()
        .position(|x| matches!(x, GameEvent::OpportunityTaken { .. }))
        .unwrap();
    let moved = ev
        .iter()
        .position(|x| matches!(x, GameEvent::Orcus(OrcusEvent::GridMoved { .. })))
        .unwrap();
    assert!(
        at < moved,
        "the attack comes before the creature leaves the square"
    );
    assert!(ev.iter().any(|x| matches!(x,
        GameEvent::AttackRolled { attacker, .. } if attacker.as_str() == "brute-1")));
    assert!(cs(&e, "brute-1").grid.unwrap().opportunity_used);
}

#[test]
fn melee_needs_reach_and_walls_block_ranged_attacks_range_line_of_effect() {
    // orcus-basic-rules.txt § Range, § Line of effect.
    let enc = arena(
        "",
        5,
        r#"kael = [3, 3]
lira = [0, 5]
brute-1 = [5, 2]
brute-2 = [9, 5]"#,
    );
    let mut e = started(&enc, 6);
    assert_eq!(
        refuse(&mut e, &atk("kael", "sword", &["brute-1"])),
        ErrorCode::OutOfRange
    );
    assert_eq!(
        refuse(&mut e, &atk("kael", "bow", &["brute-1"])),
        ErrorCode::NoLineOfEffect
    );
    assert_eq!(
        refuse(&mut e, &atk("kael", "sword", &["lira"])),
        ErrorCode::InvalidTarget
    );
    // Long range: brute-2 is 6 squares away (short 5): −2.
    let ev = run(&mut e, &atk("kael", "bow", &["brute-2"]));
    let bonus = ev.iter().find_map(|x| match x {
        GameEvent::AttackRolled { bonus, .. } => Some(*bonus),
        _ => None,
    });
    assert_eq!(bonus, Some(5 - 2));
}

#[test]
fn flanking_makes_the_target_off_guard_flanking_off_guard() {
    // orcus-basic-rules.txt § Flanking, § Off-guard (+2).
    let enc = arena(
        "",
        5,
        r#"kael = [6, 1]
lira = [8, 1]
brute-1 = [7, 1]
brute-2 = [9, 5]"#,
    );
    let mut e = started(&enc, 7);
    let ev = run(&mut e, &atk("kael", "sword", &["brute-1"]));
    let bonus = ev.iter().find_map(|x| match x {
        GameEvent::AttackRolled { bonus, .. } => Some(*bonus),
        _ => None,
    });
    assert_eq!(bonus, Some(5 + 2));
}

#[test]
fn a_natural_20_hits_for_maximum_damage_and_a_natural_1_misses_critical_hits_and_fumbles() {
    // orcus-basic-rules.txt § Critical hits and fumbles.
    let mut seen = (false, false);
    for seed in 0..400 {
        let enc = arena(
            "",
            -30,
            r#"kael = [6, 1]
lira = [0, 5]
brute-1 = [7, 1]
brute-2 = [9, 5]"#,
        );
        let mut e = started(&enc, seed);
        let ev = run(&mut e, &atk("kael", "sword", &["brute-1"]));
        let Some((natural, outcome)) = ev.iter().find_map(|x| match x {
            GameEvent::AttackRolled { roll, outcome, .. } => {
                Some((roll.natural().unwrap(), *outcome))
            }
            _ => None,
        }) else {
            continue;
        };
        if natural == 20 {
            assert_eq!(
                outcome,
                AttackOutcome::Crit,
                "a natural 20 hits even at −30"
            );
            assert!(
                ev.iter()
                    .any(|x| matches!(x, GameEvent::Damaged { amount: 10, .. })),
                "1d8+2 max"
            );
            assert!(
                !ev.iter()
                    .any(|x| matches!(x, GameEvent::DamageRolled { .. })),
                "no roll"
            );
            seen.0 = true;
        } else {
            assert_eq!(
                outcome,
                if natural == 1 {
                    AttackOutcome::Fumble
                } else {
                    AttackOutcome::Miss
                }
            );
            seen.1 |= natural == 1;
        }
        if seen.0 && seen.1 {
            return;
        }
    }
    panic!("no seed gave both a natural 20 and a natural 1: {seen:?}");
}

#[test]
fn a_near_burst_attacks_each_enemy_in_it_and_rolls_damage_once_areas_of_effect() {
    // orcus-basic-rules.txt § Areas of effect: one attack roll per target, damage rolled once.
    let enc = arena(
        "",
        30,
        r#"kael = [6, 1]
lira = [5, 1]
brute-1 = [7, 1]
brute-2 = [7, 2]"#,
    );
    let mut e = started(&enc, 8);
    let ev = run(
        &mut e,
        &Command::Orcus(OrcusCommand::AreaAttack {
            actor: cid("kael"),
            attack: "burst".into(),
            origin: None,
            targets: vec![],
            forced: Vec::new(),
            origin_height: None,
            weapon: None,
            secondary_target: None,
        }),
    );
    let rolled: Vec<String> = ev
        .iter()
        .filter_map(|x| match x {
            GameEvent::AttackRolled { target, .. } => Some(target.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(rolled, vec!["brute-1", "brute-2"], "enemies only, not Lira");
    let damage_rolls = ev
        .iter()
        .filter(|x| matches!(x, GameEvent::DamageRolled { .. }))
        .count();
    assert!(damage_rolls <= 1);
}

#[test]
fn persistent_damage_at_the_start_of_the_turn_and_a_save_at_its_end_persistent_damage() {
    // orcus-basic-rules.txt § Persistent damage: only the highest of a type; one save per type.
    let extra = r#"[[monster.powers]]
id = "acid"
name = "Acid Spit"
origin = "ranged"
range = [10, 10]
vs = "reflex"
bonus = 40
hit = "1"
on_hit = [{ persistent = 3, damage_type = "acid" }, { persistent = 5, damage_type = "acid" }]
"#;
    let enc = arena(
        extra,
        5,
        r#"kael = [0, 0]
lira = [0, 5]
brute-1 = [8, 0]
brute-2 = [9, 5]"#,
    );
    for seed in 0..50 {
        let mut e = started(&enc, seed);
        run(&mut e, &end("kael"));
        // Skip to brute-1's turn.
        while current(&e) != "brute-1" {
            let c = current(&e);
            run(&mut e, &end(&c));
        }
        let ev = run(&mut e, &atk("brute-1", "acid", &["kael"]));
        if !ev
            .iter()
            .any(|x| matches!(x, GameEvent::AttackRolled { outcome, .. } if outcome.is_hit()))
        {
            continue;
        }
        while current(&e) != "kael" {
            let c = current(&e);
            run(&mut e, &end(&c));
        }
        let hp = cs(&e, "kael").hp.unwrap();
        assert_eq!(
            hp,
            30 - 1 - 5,
            "only the highest acid (5) at the start of the turn"
        );
        let ev = run(&mut e, &end("kael"));
        let saves = ev
            .iter()
            .filter(|x| matches!(x, GameEvent::SaveRolled { combatant, .. } if combatant.as_str() == "kael"))
            .count();
        assert_eq!(saves, 1, "one save per damage type");
        return;
    }
    panic!("no seed hit");
}

pub(super) fn smash(hit: i32) -> String {
    format!(
        r#"[[monster.powers]]
id = "smash"
name = "Smash"
origin = "melee"
vs = "ac"
bonus = 40
hit = "{hit}"
"#
    )
}

pub(super) const NEXT_TO_LIRA: &str = r#"kael = [0, 0]
lira = [0, 5]
brute-1 = [1, 5]
brute-2 = [9, 0]"#;

/// Ends turns until it is `who`'s.
pub(super) fn until(e: &mut Engine, who: &str) -> Vec<GameEvent> {
    let mut all = Vec::new();
    while current(e) != who {
        let c = current(e);
        all.extend(run(e, &end(&c)));
    }
    all
}

#[test]
fn a_hero_at_negative_staggered_value_dies_negative_hp() {
    // orcus-basic-rules.txt § Negative HP: Lira (24 hp, staggered value 12) at −16 dies.
    let enc = arena(&smash(40), 5, NEXT_TO_LIRA);
    for seed in 0..40 {
        let mut e = started(&enc, seed);
        until(&mut e, "brute-1");
        let ev = run(&mut e, &atk("brute-1", "smash", &["lira"]));
        if !ev
            .iter()
            .any(|x| matches!(x, GameEvent::AttackRolled { outcome, .. } if outcome.is_hit()))
        {
            continue;
        }
        assert_eq!(cs(&e, "lira").status, LifeStatus::Dead, "{ev:?}");
        return;
    }
    panic!("no seed hit");
}

#[test]
fn dying_heroes_make_death_saves_at_the_end_of_their_turn_death_saving_throws() {
    // orcus-basic-rules.txt § 0 hit points or below (unconscious), § Death saving throws (end of
    // turn, 10+, third failure kills).
    let enc = arena(&smash(26), 5, NEXT_TO_LIRA);
    let mut saw_failure = false;
    let mut saw_death = false;
    for seed in 0..60 {
        let mut e = started(&enc, seed);
        until(&mut e, "brute-1");
        let ev = run(&mut e, &atk("brute-1", "smash", &["lira"]));
        if !ev
            .iter()
            .any(|x| matches!(x, GameEvent::AttackRolled { outcome, .. } if outcome.is_hit()))
        {
            continue;
        }
        assert_eq!(cs(&e, "lira").status, LifeStatus::Unconscious);
        assert_eq!(cs(&e, "lira").hp, Some(-2));
        // Lira cannot act: her turn ends by itself with a death save.
        for _ in 0..6 {
            let ev = until(&mut e, "kael");
            for x in &ev {
                if let GameEvent::SaveRolled {
                    combatant,
                    roll,
                    success,
                    ..
                } = x
                    && combatant.as_str() == "lira"
                {
                    assert_eq!(*success, roll.natural().unwrap() >= 10);
                    saw_failure |= !success;
                }
            }
            if cs(&e, "lira").status == LifeStatus::Dead {
                assert_eq!(cs(&e, "lira").death_save_failures, 3);
                saw_death = true;
                break;
            }
            if cs(&e, "lira").status != LifeStatus::Unconscious
                || e.state().phase != fray_protocol::state::Phase::Running
            {
                break;
            }
            run(&mut e, &end("kael"));
        }
        if saw_failure && saw_death {
            return;
        }
    }
    panic!("failure seen: {saw_failure}, death seen: {saw_death}");
}

#[test]
fn action_points_once_per_encounter_for_heroes_action_points() {
    // orcus-basic-rules.txt § Action points.
    let enc = arena("", 5, SPREAD);
    let mut e = started(&enc, 9);
    run(&mut e, &mv("kael", &[(1, 1)], MoveMode::Walk));
    run(&mut e, &mv("kael", &[(2, 2)], MoveMode::Walk));
    assert_eq!(
        refuse(&mut e, &mv("kael", &[(3, 3)], MoveMode::Walk)),
        ErrorCode::ActionAlreadyUsed
    );
    run(
        &mut e,
        &Command::Orcus(OrcusCommand::SpendActionPoint {
            actor: cid("kael"),
            action: ActionKind::Move,
        }),
    );
    run(&mut e, &mv("kael", &[(3, 3)], MoveMode::Walk));
    assert_eq!(
        refuse(
            &mut e,
            &Command::Orcus(OrcusCommand::SpendActionPoint {
                actor: cid("kael"),
                action: ActionKind::Standard
            })
        ),
        ErrorCode::NoActionPoint
    );
}

#[test]
fn in_a_surprise_round_only_the_aware_act_with_a_single_action_surprise_round() {
    // orcus-basic-rules.txt § Surprise round.
    let enc = arena("", 5, SPREAD);
    let mut e = new_engine(&enc, 10);
    let ev = run(
        &mut e,
        &Command::StartSurprise {
            surprised: vec![cid("brute-1"), cid("brute-2")],
        },
    );
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::SurpriseRound { acting, .. } if acting.len() == 2))
    );
    assert!(
        cs(&e, "brute-1")
            .effects
            .iter()
            .any(|f| f.kind == EffectKind::Condition(Condition::Surprised))
    );
    assert_eq!(current(&e), "kael");
    assert_eq!(
        refuse(
            &mut e,
            &Command::Orcus(OrcusCommand::SpendActionPoint {
                actor: cid("kael"),
                action: ActionKind::Move
            })
        ),
        ErrorCode::SurpriseRound
    );
    // One action, then the turn passes by itself.
    let ev = run(&mut e, &mv("kael", &[(1, 1)], MoveMode::Walk));
    assert!(
        ev.iter().any(
            |x| matches!(x, GameEvent::TurnEnded { combatant } if combatant.as_str() == "kael")
        )
    );
    assert_eq!(current(&e), "lira");
    run(&mut e, &end("lira"));
    // The surprise round is over: everyone in the order, no one surprised.
    assert_eq!(e.state().order.len(), 4);
    assert!(
        !cs(&e, "brute-1")
            .effects
            .iter()
            .any(|f| f.kind == EffectKind::Condition(Condition::Surprised))
    );
    assert_eq!(cs(&e, "brute-1").status, LifeStatus::Conscious);
}

#[test]
fn the_builtin_encounter_loads_with_builder_numbers_creating_new_monsters() {
    // orcus-basic-rules.txt § Creating new monsters: blocker level 1 → AC 17, HP 29.
    let (_, text) = builtin_encounters("orcus")[0];
    let enc = load_encounter("bridge-of-bones", text).unwrap();
    let rattler = enc
        .combatants
        .iter()
        .find(|c| c.id.as_str() == "bone-rattler-1")
        .unwrap();
    assert_eq!(rattler.defenses.ac, 17);
    assert_eq!(rattler.max_hp, 29);
    let rat = enc
        .combatants
        .iter()
        .find(|c| c.id.as_str() == "gutter-rat-1")
        .unwrap();
    assert_eq!(rat.max_hp, 1, "mooks have 1 hp");
}

/// The bonus of the first attack roll among `ev`.
pub(super) fn first_bonus(ev: &[GameEvent]) -> i32 {
    ev.iter()
        .find_map(|x| match x {
            GameEvent::AttackRolled { bonus, .. } => Some(*bonus),
            _ => None,
        })
        .expect("an attack roll")
}

#[test]
fn a_targets_ally_in_the_way_gives_cover_cover() {
    // orcus-basic-rules.txt § Combat statuses, Cover: lines through one of the target's allies;
    // 2 of 4 lines blocked is cover, −2 to the attack roll.
    let open = ["..........", "..........", "..........", ".........."];
    let enc = arena_on(
        &open,
        "",
        5,
        "kael = [0, 2]\nlira = [0, 0]\nbrute-1 = [3, 2]\nbrute-2 = [5, 2]",
    );
    let mut e = started(&enc, 3);
    let ev = run(&mut e, &atk("kael", "bow", &["brute-2"]));
    assert_eq!(first_bonus(&ev), 5 - 2);
    // With nobody in the way, no cover.
    let enc = arena_on(
        &open,
        "",
        5,
        "kael = [0, 2]\nlira = [0, 0]\nbrute-1 = [3, 0]\nbrute-2 = [5, 2]",
    );
    let mut e = started(&enc, 3);
    let ev = run(&mut e, &atk("kael", "bow", &["brute-2"]));
    assert_eq!(first_bonus(&ev), 5);
}

#[test]
fn obscured_squares_conceal_from_melee_and_ranged_but_not_areas_concealment() {
    // orcus-basic-rules.txt § Combat statuses, Concealment: −2 (concealment) or −5 (total)
    // against melee and ranged attacks only; obscured squares per the Fourth Edition list
    // (interpretation, text gap): lightly → concealment, heavily → total beyond adjacency.
    let rows = ["..........", ".....:....", "..........", ".....%...."];
    let pos = "kael = [0, 1]\nlira = [0, 3]\nbrute-1 = [5, 1]\nbrute-2 = [5, 3]";
    let enc = arena_on(&rows, "", 5, pos);
    let mut e = started(&enc, 4);
    let ev = run(&mut e, &atk("kael", "bow", &["brute-1"]));
    assert_eq!(first_bonus(&ev), 5 - 2, "lightly obscured: concealment");
    let enc = arena_on(&rows, "", 5, pos);
    let mut e = started(&enc, 4);
    let ev = run(&mut e, &atk("kael", "bow", &["brute-2"]));
    assert_eq!(
        first_bonus(&ev),
        5 - 5,
        "heavily obscured at range: total concealment"
    );
    // A near burst ignores concealment.
    let pos = "kael = [4, 1]\nlira = [0, 3]\nbrute-1 = [5, 1]\nbrute-2 = [9, 3]";
    let enc = arena_on(&rows, "", 5, pos);
    let mut e = started(&enc, 4);
    let ev = run(
        &mut e,
        &Command::Orcus(OrcusCommand::AreaAttack {
            actor: cid("kael"),
            attack: "burst".into(),
            origin: None,
            targets: vec![],
            forced: Vec::new(),
            origin_height: None,
            weapon: None,
            secondary_target: None,
        }),
    );
    assert_eq!(first_bonus(&ev), 5);
}

#[test]
fn an_aftereffect_follows_a_save_and_a_first_failed_save_replaces_the_effect_saving_throw_riders() {
    // orcus-basic-rules.txt § Special saving throw riders: "weakened (save ends); Aftereffect:
    // dazed (save ends); First Failed Save: stunned (save ends) instead".
    let extra = r#"[[monster.powers]]
id = "glare"
name = "Withering Glare"
origin = "ranged"
range = [10, 10]
vs = "will"
bonus = 40
hit = "1"
on_hit = [{ condition = "weakened", aftereffect = { condition = "dazed" }, first_failed_save = { condition = "stunned" } }]
"#;
    let enc = arena(extra, 5, SPREAD);
    let (mut saved, mut failed) = (false, false);
    for seed in 0..80 {
        let mut e = started(&enc, seed);
        until(&mut e, "brute-1");
        let ev = run(&mut e, &atk("brute-1", "glare", &["kael"]));
        let Some(weak) = ev.iter().find_map(|x| match x {
            GameEvent::EffectApplied { effect } => Some(effect.id),
            _ => None,
        }) else {
            continue;
        };
        let riders = cs(&e, "kael").grid.expect("grid").riders;
        assert_eq!(riders.len(), 1);
        assert_eq!(riders[0].effect, weak);
        until(&mut e, "kael");
        let ev = run(&mut e, &end("kael"));
        let success = ev
            .iter()
            .find_map(|x| match x {
                GameEvent::SaveRolled {
                    purpose: fray_protocol::event::SavePurpose::Effect(id),
                    success,
                    ..
                } if *id == weak => Some(*success),
                _ => None,
            })
            .expect("a save against weakened");
        let conditions: Vec<Condition> = cs(&e, "kael")
            .effects
            .iter()
            .filter_map(|x| match x.kind {
                EffectKind::Condition(c) => Some(c),
                _ => None,
            })
            .collect();
        let riders = cs(&e, "kael").grid.expect("grid").riders;
        if success {
            // The weakness ends; the aftereffect (dazed, save ends) begins; no riders remain.
            assert_eq!(conditions, vec![Condition::Dazed]);
            assert!(riders.is_empty());
            saved = true;
        } else {
            // Weakened becomes stunned, which keeps the aftereffect but no second
            // first-failed-save.
            assert_eq!(conditions, vec![Condition::Stunned]);
            assert_eq!(riders.len(), 1);
            assert!(riders[0].first_failed_save.is_none());
            assert!(riders[0].aftereffect.is_some());
            assert!(ev.iter().any(|x| matches!(
                x,
                GameEvent::EffectEnded {
                    reason: fray_protocol::event::EffectEndReason::Replaced,
                    ..
                }
            )));
            failed = true;
        }
        if saved && failed {
            return;
        }
    }
    panic!("both outcomes should occur within 80 seeds (saved {saved}, failed {failed})");
}

#[test]
fn a_rider_on_a_rider_is_refused_on_load_saving_throw_riders() {
    // orcus-basic-rules.txt § Special saving throw riders; content errors name the field.
    let bad = r#"[[monster.powers]]
id = "glare"
name = "Glare"
origin = "ranged"
range = [10, 10]
vs = "will"
hit = "1"
on_hit = [{ condition = "weakened", aftereffect = { condition = "dazed", aftereffect = { condition = "prone" } } }]
"#;
    let err = load_encounter(
        "arena.toml",
        &arena_src(&["..........", ".........."], bad, 5, SPREAD),
    )
    .expect_err("nested riders are refused");
    let msg = err.to_string();
    assert!(
        msg.contains("on_hit[0].aftereffect") && msg.contains("cannot carry riders"),
        "{msg}"
    );
}

/// `(rolled, dealt)` for the first hit (not a critical hit) among `ev`.
fn rolled_and_dealt(ev: &[GameEvent]) -> Option<(i32, i32)> {
    let hit = ev.iter().any(|x| {
        matches!(
            x,
            GameEvent::AttackRolled {
                outcome: AttackOutcome::Hit,
                ..
            }
        )
    });
    let rolled = ev.iter().find_map(|x| match x {
        GameEvent::DamageRolled { roll, .. } => Some(roll.total),
        _ => None,
    })?;
    let dealt = ev.iter().find_map(|x| match x {
        GameEvent::Damaged { amount, .. } => Some(*amount),
        _ => None,
    })?;
    hit.then_some((rolled, dealt))
}

#[test]
fn a_weakened_attacker_deals_half_and_an_incorporeal_target_takes_half_weakened_incorporeal() {
    // orcus-basic-rules.txt § Conditions, Weakened (no definition: Fourth Edition's half
    // damage, an interpretation) and § Combat statuses, Incorporeal (half damage from all
    // attacks); rounded down.
    let sap = r#"[[monster.powers]]
id = "sap"
name = "Sapping Touch"
origin = "ranged"
range = [10, 10]
vs = "fortitude"
bonus = 40
hit = "1"
on_hit = [{ condition = "weakened", duration = "end of your next turn" }]
"#;
    let enc = arena(sap, 40, SPREAD);
    let mut checked = 0;
    for seed in 0..60 {
        let mut e = started(&enc, seed);
        // Unweakened: full damage.
        let ev = run(&mut e, &atk("kael", "bow", &["brute-1"]));
        if let Some((rolled, dealt)) = rolled_and_dealt(&ev) {
            assert_eq!(dealt, rolled);
        }
        until(&mut e, "brute-1");
        let ev = run(&mut e, &atk("brute-1", "sap", &["kael"]));
        if !ev
            .iter()
            .any(|x| matches!(x, GameEvent::EffectApplied { .. }))
        {
            continue;
        }
        until(&mut e, "kael");
        let ev = run(&mut e, &atk("kael", "bow", &["brute-1"]));
        if let Some((rolled, dealt)) = rolled_and_dealt(&ev) {
            assert_eq!(dealt, rolled / 2, "weakened: half damage, rounded down");
            checked += 1;
            break;
        }
    }
    assert_eq!(checked, 1, "some seed shows a weakened hit");
    let src = arena_src(
        &["..........", "..........", ".........."],
        "",
        40,
        "kael = [0, 0]\nlira = [0, 2]\nbrute-1 = [8, 0]\nbrute-2 = [8, 2]",
    )
    .replace(
        "role = \"wrecker\"",
        "role = \"wrecker\"\nincorporeal = true",
    );
    let enc = load_encounter("ghosts.toml", &src).unwrap();
    for seed in 0..60 {
        let mut e = started(&enc, seed);
        let ev = run(&mut e, &atk("kael", "bow", &["brute-1"]));
        if let Some((rolled, dealt)) = rolled_and_dealt(&ev) {
            assert_eq!(dealt, rolled / 2, "incorporeal: half damage, rounded down");
            return;
        }
    }
    panic!("no seed hit the incorporeal brute");
}

#[test]
fn temporary_hit_points_do_not_stack_absorb_first_and_do_not_revive_temporary_hit_points() {
    // orcus-basic-rules.txt § Temporary hit points.
    let enc = arena(&smash(30), 5, NEXT_TO_LIRA);
    let mut e = started(&enc, 4);
    let grant = |who: &str, amount: i32| Command::GrantTempHp {
        target: cid(who),
        amount,
    };
    run(&mut e, &grant("kael", 10));
    run(&mut e, &grant("kael", 6));
    assert_eq!(cs(&e, "kael").temp_hp, 10, "the higher amount stays");
    assert_eq!(cs(&e, "kael").hp, Some(30), "they may exceed the maximum");
    // Lira, smashed to 0 or below, is dying; temporary hit points do not wake her.
    until(&mut e, "brute-1");
    let ev = run(&mut e, &atk("brute-1", "smash", &["lira"]));
    if !ev
        .iter()
        .any(|x| matches!(x, GameEvent::FellUnconscious { .. }))
    {
        return; // a natural 1
    }
    // 24 - 30 = -6: dying, not dead (the staggered value is 12).
    assert_eq!(cs(&e, "lira").status, LifeStatus::Unconscious);
    run(&mut e, &grant("lira", 8));
    assert_eq!(cs(&e, "lira").status, LifeStatus::Unconscious);
    assert_eq!(cs(&e, "lira").temp_hp, 8);
}

/// The modifiers of the first attack roll among `ev`, as (source, value).
fn first_modifiers(ev: &[GameEvent]) -> Vec<(String, i32)> {
    ev.iter()
        .find_map(|x| match x {
            GameEvent::AttackRolled { modifiers, .. } => Some(
                modifiers
                    .iter()
                    .map(|m| (m.source.to_string(), m.value))
                    .collect(),
            ),
            _ => None,
        })
        .expect("an attack roll")
}

#[test]
fn flanking_and_cover_are_named_among_an_attacks_modifiers_flanking_cover() {
    // orcus-basic-rules.txt § Flanking and § Off-guard (+2); § Combat statuses, Cover (−2, a
    // line through one of the target's allies). Each event lists its terms by name, and they
    // sum to its bonus (issue 21, "every number explained"). One roll cannot have both here:
    // flanking needs the attacker adjacent to its target, and from an adjacent space the
    // attacker's best corner always has clear lines (§ Cover: "the attacker chooses a corner").
    let enc = arena(
        "",
        5,
        "kael = [6, 1]\nlira = [8, 1]\nbrute-1 = [7, 1]\nbrute-2 = [9, 5]",
    );
    let mut e = started(&enc, 7);
    let ev = run(&mut e, &atk("kael", "sword", &["brute-1"]));
    let terms = first_modifiers(&ev);
    assert_eq!(
        terms,
        vec![("attack bonus".to_owned(), 5), ("flanking".to_owned(), 2)]
    );
    assert_eq!(first_bonus(&ev), 7);
    let open = ["..........", "..........", "..........", ".........."];
    let enc = arena_on(
        &open,
        "",
        5,
        "kael = [0, 2]\nlira = [0, 0]\nbrute-1 = [3, 2]\nbrute-2 = [5, 2]",
    );
    let mut e = started(&enc, 3);
    let ev = run(&mut e, &atk("kael", "bow", &["brute-2"]));
    let terms = first_modifiers(&ev);
    assert_eq!(
        terms,
        vec![("attack bonus".to_owned(), 5), ("cover".to_owned(), -2)]
    );
    assert_eq!(first_bonus(&ev), 3);
}
