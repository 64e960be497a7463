//! Tests closing the issue-4 audit's findings (`orcus-basic-rules.txt`): action points in the
//! surprise round, origin self, Stand Up, opportunity attacks, initiative ties, effects that never
//! worsen, Run, the hero XP/level table and increased weapon dice.

use super::tests::{SPREAD, arena_src, atk, end, first_bonus, mv, started, until};
use super::tests_power_effects::{OPEN, with_kael_powers};
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, current, new_engine, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::OrcusCommand;
use fray_protocol::event::{ActionKind, BonusStat, Condition, EffectKind, GameEvent};
use fray_protocol::grid::MoveMode;
use fray_protocol::ids::Side;
use fray_protocol::{Command, ErrorCode};

/// A self power: Kael drops prone (an effect on its user only).
const DROP: &str = r#"[[hero.powers]]
id = "drop"
name = "Drop"
origin = "self"
action = "swift"
effect = [{ condition = "prone", duration = "encounter" }]
"#;

fn prone(e: &Engine, who: &str) -> bool {
    cs(e, who)
        .effects
        .iter()
        .any(|f| f.kind == EffectKind::Condition(Condition::Prone))
}

fn used(ev: &[GameEvent], who: &str, action: ActionKind) -> bool {
    ev.iter().any(|x| {
        matches!(x, GameEvent::ActionUsed { combatant, action: a, .. }
            if combatant.as_str() == who && *a == action)
    })
}

/// orcus-basic-rules.txt § Action points ("not during a surprise round") and § Surprise round
/// (a single action): neither a hero nor an elite monster spends an action point in the surprise
/// round — refused `surprise_round`, nothing changes; after it the monster spends one.
#[test]
fn no_action_point_in_the_surprise_round_for_heroes_or_monsters_action_points() {
    let src = arena_src(&OPEN, "", 5, SPREAD).replace("rank = \"standard\"", "rank = \"elite\"");
    let enc = load_encounter("arena.toml", &src).unwrap();
    // Heroes surprised: the brutes act.
    let mut e = new_engine(&enc, 10);
    run(
        &mut e,
        &Command::StartSurprise {
            surprised: vec![cid("kael"), cid("lira")],
        },
    );
    let brute = current(&e);
    assert!(brute.starts_with("brute"), "{brute}");
    assert_eq!(
        refuse(
            &mut e,
            &Command::Orcus(OrcusCommand::SpendActionPoint {
                actor: cid(&brute),
                action: ActionKind::Move,
            })
        ),
        ErrorCode::SurpriseRound
    );
    // Monsters surprised: Kael acts and is refused too.
    let mut e = new_engine(&enc, 10);
    run(
        &mut e,
        &Command::StartSurprise {
            surprised: vec![cid("brute-1"), cid("brute-2")],
        },
    );
    assert_eq!(current(&e), "kael");
    assert_eq!(
        refuse(
            &mut e,
            &Command::Orcus(OrcusCommand::SpendActionPoint {
                actor: cid("kael"),
                action: ActionKind::Move,
            })
        ),
        ErrorCode::SurpriseRound
    );
    // Outside a surprise round the elite brute spends one on its turn.
    let mut e = started(&enc, 9);
    while !current(&e).starts_with("brute") {
        let who = current(&e);
        run(&mut e, &Command::EndTurn { actor: cid(&who) });
    }
    let brute = current(&e);
    run(
        &mut e,
        &Command::Orcus(OrcusCommand::SpendActionPoint {
            actor: cid(&brute),
            action: ActionKind::Move,
        }),
    );
}

/// orcus-basic-rules.txt § Origin of effect, Self ("The effect originates with you and affects
/// only you"): a `self` power is sent with `attack` naming no target or only its user and lands
/// on the user with no attack roll; naming anyone else is refused `invalid_target`.
#[test]
fn a_self_power_affects_only_its_user_origin_of_effect() {
    let enc = load_encounter("self.toml", &with_kael_powers(DROP, SPREAD)).unwrap();
    let mut e = started(&enc, 3);
    assert_eq!(
        refuse(&mut e, &atk("kael", "drop", &["brute-1"])),
        ErrorCode::InvalidTarget
    );
    assert_eq!(
        refuse(&mut e, &atk("kael", "drop", &["kael", "lira"])),
        ErrorCode::InvalidTarget
    );
    let draws = e.rng().draws();
    let ev = run(&mut e, &atk("kael", "drop", &[]));
    assert_eq!(e.rng().draws(), draws, "no attack roll");
    assert!(
        !ev.iter()
            .any(|x| matches!(x, GameEvent::AttackRolled { .. }))
    );
    assert!(used(&ev, "kael", ActionKind::Quick));
    assert!(prone(&e, "kael"));
    assert!(!prone(&e, "brute-1") && !prone(&e, "lira"));
    // Naming the user itself is the same.
    let mut e = started(&enc, 3);
    run(&mut e, &atk("kael", "drop", &["kael"]));
    assert!(prone(&e, "kael"));
}

/// orcus-basic-rules.txt § Origin of effect, Self: a self power makes no attack and has no
/// targets, range or area to give; the loader refuses them.
#[test]
fn a_self_power_with_an_attack_or_targets_is_refused_on_load_origin_of_effect() {
    for (extra, field) in [
        ("vs = \"ac\"\nbonus = 1\nhit = \"1d6\"\n", ".vs"),
        ("targets = \"one ally\"\n", ".targets"),
        ("range = [5]\n", ".range"),
        ("area = 1\n", ".area"),
    ] {
        let power = DROP.replacen("action = \"swift\"\n", extra, 1);
        let err = load_encounter("bad.toml", &with_kael_powers(&power, SPREAD))
            .unwrap_err()
            .to_string();
        assert!(err.contains(field), "{field}: {err}");
    }
}

/// orcus-basic-rules.txt § Stand Up (a move action) and § Prone ("must stand up to move"): a
/// prone creature stands up with its move action and may walk no further that turn; standing
/// up when not prone is refused and changes nothing.
#[test]
fn standing_up_spends_the_move_action_and_needs_prone_stand_up() {
    let enc = load_encounter("self.toml", &with_kael_powers(DROP, SPREAD)).unwrap();
    let mut e = started(&enc, 3);
    let stand = Command::Orcus(OrcusCommand::StandUp { actor: cid("kael") });
    assert_eq!(refuse(&mut e, &stand), ErrorCode::InvalidArgument);
    run(&mut e, &atk("kael", "drop", &[]));
    assert_eq!(
        refuse(&mut e, &mv("kael", &[(1, 1)], MoveMode::Walk)),
        ErrorCode::Prone
    );
    let ev = run(&mut e, &stand);
    assert!(used(&ev, "kael", ActionKind::Move));
    assert!(!prone(&e, "kael"));
    assert!(
        ev.iter().any(
            |x| matches!(x, GameEvent::EffectEnded { target, .. } if target.as_str() == "kael")
        )
    );
}

/// An engine on the open map with the given positions, Kael's turn first.
fn open(positions: &str, seed: u64) -> Engine {
    let enc = load_encounter("open.toml", &arena_src(&OPEN, "", 5, positions)).unwrap();
    started(&enc, seed)
}

const KAEL_NEXT_TO_BRUTE: &str = "kael = [1, 1]\nlira = [0, 5]\nbrute-1 = [2, 1]\nbrute-2 = [8, 1]";

fn opportunities(ev: &[GameEvent]) -> Vec<(String, String)> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::OpportunityTaken { attacker, target } => {
                Some((attacker.to_string(), target.to_string()))
            }
            _ => None,
        })
        .collect()
}

/// orcus-basic-rules.txt § Opportunity attacks ("Making a ranged attack or a far attack provokes
/// an opportunity attack from adjacent enemies"; one opportunity attack per turn): a ranged
/// attack next to an enemy provokes it before the shot; the same enemy makes no second one when
/// the shooter then walks away in the same turn.
#[test]
fn a_ranged_attack_next_to_an_enemy_provokes_once_per_turn_opportunity_attacks() {
    let mut e = open(KAEL_NEXT_TO_BRUTE, 5);
    let ev = run(&mut e, &atk("kael", "bow", &["brute-2"]));
    assert_eq!(
        opportunities(&ev),
        vec![("brute-1".to_owned(), "kael".to_owned())]
    );
    let taken = ev
        .iter()
        .position(|x| matches!(x, GameEvent::OpportunityTaken { .. }))
        .unwrap();
    let shot = ev
        .iter()
        .position(|x| {
            matches!(x, GameEvent::AttackRolled { attacker, .. } if attacker.as_str() == "kael")
        })
        .expect("the shot still happens");
    assert!(taken < shot, "the opportunity attack comes first");
    assert!(cs(&e, "brute-1").grid.unwrap().opportunity_used);
    // A second provocation (leaving brute-1's adjacency) in the same turn: no second attack.
    let ev = run(&mut e, &mv("kael", &[(0, 1)], MoveMode::Walk));
    assert!(opportunities(&ev).is_empty(), "{ev:?}");
    assert_eq!(square_of(&e, "kael"), (0, 1));
}

fn square_of(e: &Engine, who: &str) -> (i32, i32) {
    let s = cs(e, who).grid.unwrap().square;
    (s.x, s.y)
}

/// orcus-basic-rules.txt § Opportunity attacks ("moving to a square that is no longer adjacent"
/// provokes, "unless they step"): a step that leaves an enemy's adjacency provokes nothing, and
/// the enemy keeps its opportunity attack for a later provocation.
#[test]
fn a_step_that_leaves_adjacency_provokes_nothing_opportunity_attacks() {
    let mut e = open(KAEL_NEXT_TO_BRUTE, 5);
    let ev = run(&mut e, &mv("kael", &[(0, 0)], MoveMode::Step));
    assert_eq!(square_of(&e, "kael"), (0, 0));
    assert!(opportunities(&ev).is_empty(), "{ev:?}");
    assert!(!cs(&e, "brute-1").grid.unwrap().opportunity_used);
}

/// orcus-basic-rules.txt § Initiative (ties are the GM's call; Fray's default order, see the
/// matrix row): higher total first, then the higher bonus, then heroes before monsters, then id.
#[test]
fn initiative_ties_go_to_the_higher_bonus_then_heroes_then_id_initiative() {
    let r = |id: &str, total: i32, bonus: i32, side: Side| (cid(id), total, bonus, side);
    let order = super::commands::initiative_order(vec![
        r("brute-1", 15, 2, Side::Monsters),
        r("kael", 15, 2, Side::Heroes),
        r("lira", 15, 3, Side::Heroes),
        r("ana", 15, 2, Side::Heroes),
        r("ogre", 16, 0, Side::Monsters),
        r("aardvark", 15, 2, Side::Monsters),
    ]);
    let ids: Vec<&str> = order.iter().map(|c| c.as_str()).collect();
    assert_eq!(ids, ["ogre", "lira", "ana", "kael", "aardvark", "brute-1"]);
}

/// Kael moves twice (three squares, then four, the second paid with the standard action) in
/// `mode`, spends an action point for a standard action and swings at brute-1: the engine and the
/// sword's attack bonus.
fn two_moves_then_a_swing(mode: MoveMode) -> (Engine, i32) {
    let mut e = open(SPREAD, 9);
    run(&mut e, &mv("kael", &[(1, 0), (2, 0), (3, 0)], mode));
    run(&mut e, &mv("kael", &[(4, 0), (5, 0), (6, 0), (7, 0)], mode));
    run(
        &mut e,
        &Command::Orcus(OrcusCommand::SpendActionPoint {
            actor: cid("kael"),
            action: ActionKind::Standard,
        }),
    );
    let bonus = first_bonus(&run(&mut e, &atk("kael", "sword", &["brute-1"])));
    (e, bonus)
}

/// orcus-basic-rules.txt § Conditions ("the effects never worsen": two instances of the same
/// effect apply once) with § Run's −5: Kael runs twice in one turn, carries two −5 penalties,
/// and attacks (an action point) at −5, not −10, against the same two moves walked.
#[test]
fn two_instances_of_the_same_penalty_apply_once_conditions() {
    let (_, walked) = two_moves_then_a_swing(MoveMode::Walk);
    let (e, ran) = two_moves_then_a_swing(MoveMode::Run);
    let penalties = cs(&e, "kael")
        .effects
        .iter()
        .filter(|x| {
            x.kind
                == EffectKind::Bonus {
                    stat: BonusStat::Attack,
                    amount: -5,
                }
        })
        .count();
    assert_eq!(penalties, 2, "two instances of the run penalty");
    assert_eq!(ran, walked - 5);
}

/// orcus-basic-rules.txt § Run ("you are off-guard until the start of your next turn"): after a
/// run the runner is off-guard, so the enemy's attack gets +2 over the same attack on a walker;
/// the condition ends when its next turn starts.
#[test]
fn running_leaves_the_runner_off_guard_until_its_next_turn_run() {
    let club_bonus = |mode: MoveMode| {
        let mut e = open(SPREAD, 9);
        run(
            &mut e,
            &mv("kael", &[(1, 0), (2, 0), (3, 0), (4, 0), (5, 0)], mode),
        );
        let ran = cs(&e, "kael")
            .effects
            .iter()
            .any(|x| x.kind == EffectKind::Condition(Condition::OffGuard));
        run(&mut e, &end("kael"));
        until(&mut e, "brute-1");
        run(&mut e, &mv("brute-1", &[(7, 0), (6, 0)], MoveMode::Walk));
        let bonus = first_bonus(&run(&mut e, &atk("brute-1", "club", &["kael"])));
        run(&mut e, &end("brute-1"));
        until(&mut e, "kael");
        let still = cs(&e, "kael")
            .effects
            .iter()
            .any(|x| x.kind == EffectKind::Condition(Condition::OffGuard));
        (ran, bonus, still)
    };
    let (walk_off_guard, walked, _) = club_bonus(MoveMode::Walk);
    let (run_off_guard, ran, still) = club_bonus(MoveMode::Run);
    assert!(!walk_off_guard && run_off_guard);
    assert_eq!(ran, walked + 2);
    assert!(!still, "off-guard ends at the start of Kael's next turn");
}

/// Kael's `sword` power (`3dW+2`) with `weapon` and `weapon_die_increase = steps`: its hit and
/// Improved Critical dice, or the load error.
fn increased(weapon: &str, steps: u8) -> Result<(Option<String>, Option<String>), String> {
    let src = arena_src(&OPEN, "", 5, SPREAD)
        .replace(
            "wis = 2",
            &format!("wis = 2\nweapon = \"{weapon}\"\nweapon_die_increase = {steps}"),
        )
        .replace("hit = \"1d8+2\"", "hit = \"3dW+2\"");
    let enc = load_encounter("w.toml", &src).map_err(|e| e.to_string())?;
    let kit = enc
        .combatants
        .iter()
        .find(|c| c.id.as_str() == "kael")
        .unwrap();
    let sword = kit
        .orcus
        .as_ref()
        .unwrap()
        .powers
        .iter()
        .find(|p| p.id == "sword")
        .unwrap();
    Ok((sword.hit.clone(), sword.crit_extra.clone()))
}

/// orcus-basic-rules.txt § Increasing weapon damage dice (Table – Increased Weapon Die: 1d4 →
/// 1d6 → 1d8 → 1d10 → "2d6 or 1d12"): a hero's `weapon_die_increase` steps its weapon die
/// (`dW`, Improved Critical's extra die too); a step beyond the table is refused on load.
#[test]
fn a_heros_weapon_die_increases_along_the_table_increasing_weapon_damage_dice() {
    let some = |s: &str| Some(s.to_owned());
    assert_eq!(increased("warhammer", 0), Ok((some("3d8+2"), some("1d8"))));
    assert_eq!(
        increased("warhammer", 1),
        Ok((some("3d10+2"), some("1d10")))
    );
    // 1d10 becomes 2d6 (the first of "2d6 or 1d12": interpretation).
    assert_eq!(increased("warhammer", 2), Ok((some("6d6+2"), some("2d6"))));
    assert_eq!(increased("knife", 3), Ok((some("3d10+2"), None)));
    for (weapon, steps) in [("warhammer", 3), ("knife", 4), ("Dwarven spear-axe", 1)] {
        let err = increased(weapon, steps).unwrap_err();
        assert!(
            err.contains("weapon_die_increase"),
            "{weapon} {steps}: {err}"
        );
    }
    let err = load_encounter(
        "w.toml",
        &arena_src(&OPEN, "", 5, SPREAD).replace("wis = 2", "wis = 2\nweapon_die_increase = 1"),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("weapon_die_increase"), "{err}");
}
