//! Tests closing the issue-4 audit's findings (`orcus-basic-rules.txt`): action points in the
//! surprise round, origin self, Stand Up, opportunity attacks, initiative ties, effects that never
//! worsen, Run, the hero XP/level table and increased weapon dice.

use super::tests::{SPREAD, arena_src, atk, end, started};
use super::tests_power_effects::with_kael_powers;
use crate::content::load_encounter;
use crate::engine::Engine;
use crate::rules::thirteenth_age::tests::{cid, cs, current, new_engine, refuse, run};
use fray_protocol::event::{ActionKind, Condition, EffectKind, GameEvent};
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
    let src = arena_src(&super::tests_power_effects::OPEN, "", 5, SPREAD)
        .replace("rank = \"standard\"", "rank = \"elite\"");
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
            &Command::SpendActionPoint {
                actor: cid(&brute),
                action: ActionKind::Move,
            }
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
            &Command::SpendActionPoint {
                actor: cid("kael"),
                action: ActionKind::Move,
            }
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
        &Command::SpendActionPoint {
            actor: cid(&brute),
            action: ActionKind::Move,
        },
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
    let stand = Command::StandUp { actor: cid("kael") };
    assert_eq!(refuse(&mut e, &stand), ErrorCode::InvalidArgument);
    run(&mut e, &atk("kael", "drop", &[]));
    assert_eq!(
        refuse(
            &mut e,
            &super::tests::mv("kael", &[(1, 1)], fray_protocol::grid::MoveMode::Walk)
        ),
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
    // The move action is gone (the standard one could still pay for a walk: trade down).
    run(&mut e, &end("kael"));
}
