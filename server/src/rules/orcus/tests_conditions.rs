//! Orcus conditions, one test each: what a condition does to the creature that has it and to
//! attacks against it — each test naming the section of `orcus-basic-rules.txt` it checks
//! (§ Conditions; the definitions missing from the text are the interpretations listed in
//! `docs/rules/orcus.md`).

use super::tests::{arena_src, atk, end, first_bonus, mv, started, until};
use crate::content::model::Encounter;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, current, refusal, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::ErrorCode;
use fray_protocol::event::{Condition, EffectKind, GameEvent};
use fray_protocol::grid::MoveMode;
use fray_protocol::state::LifeStatus;

const OPEN: [&str; 6] = [
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
];

/// Nobody adjacent to anybody, no one in the lines between Kael, Lira and brute-1.
const APART: &str = r#"kael = [0, 0]
lira = [0, 5]
brute-1 = [4, 2]
brute-2 = [9, 5]"#;

/// A ranged power of Kael's that puts `condition` on its target unless the die shows a 1.
fn hex(id: &str, action: &str, condition: &str, duration: &str) -> String {
    format!(
        r#"[[hero.powers]]
id = "{id}"
name = "{id}"
action = "{action}"
origin = "ranged"
range = [10, 10]
targets = "one creature"
vs = "will"
bonus = 40
on_hit = [{{ condition = "{condition}", duration = "{duration}" }}]
"#
    )
}

/// The brute's ranged attack (+4), so that its bonus shows against either hero.
const SLING: &str = r#"[[monster.powers]]
id = "sling"
name = "Sling"
origin = "ranged"
range = [10, 10]
vs = "ac"
bonus = 4
hit = "1"
"#;

/// The arena on an open map with Kael's extra `powers`, the brutes' sling, heroes at +5.
fn encounter(powers: &str) -> Encounter {
    let src = arena_src(&OPEN, SLING, 5, APART).replace(
        "[[hero]]\nid = \"lira\"",
        &format!("{powers}\n[[hero]]\nid = \"lira\""),
    );
    load_encounter("arena.toml", &src).unwrap()
}

fn has(e: &Engine, who: &str, c: Condition) -> bool {
    cs(e, who)
        .effects
        .iter()
        .any(|x| x.kind == EffectKind::Condition(c))
}

/// Kael's first turn, on the first seed on which his `hexes` (power ids, in order) all put
/// their condition on `target`.
fn hexed(enc: &Encounter, hexes: &[&str], target: &str) -> Engine {
    'seeds: for seed in 0..60 {
        let mut e = started(enc, seed);
        for h in hexes {
            let ev = run(&mut e, &atk("kael", h, &[target]));
            if !ev
                .iter()
                .any(|x| matches!(x, GameEvent::EffectApplied { .. }))
            {
                continue 'seeds;
            }
        }
        return e;
    }
    panic!("no seed hexed {target} with {hexes:?}");
}

/// Kael puts `condition` (until the end of his next turn) on brute-1, swift action.
fn with(condition: &str) -> Engine {
    let enc = encounter(&hex("hex", "swift", condition, "end of your next turn"));
    hexed(&enc, &["hex"], "brute-1")
}

/// Kael's bow bonus against brute-1 (3 squares away, no cover): 5, +2 when off-guard.
fn bow_bonus(e: &mut Engine) -> i32 {
    first_bonus(&run(e, &atk("kael", "bow", &["brute-1"])))
}

#[test]
fn a_dazed_creature_takes_one_action_and_is_off_guard_conditions() {
    // orcus-basic-rules.txt § Conditions, Dazed (no definition in the text: interpretation,
    // Fourth Edition): a single action on its turn, and off-guard (§ Off-guard, +2).
    let mut e = with("dazed");
    assert!(has(&e, "brute-1", Condition::Dazed));
    assert_eq!(bow_bonus(&mut e), 5 + 2);
    until(&mut e, "brute-1");
    run(&mut e, &mv("brute-1", &[(5, 2)], MoveMode::Walk));
    assert_ne!(
        current(&e),
        "brute-1",
        "its single action spent, its turn passed"
    );
    // Undazed, the same creature moves and attacks in one turn.
    let enc = encounter("");
    let mut e = started(&enc, 0);
    until(&mut e, "brute-1");
    run(&mut e, &mv("brute-1", &[(5, 2)], MoveMode::Walk));
    assert_eq!(current(&e), "brute-1");
    run(&mut e, &atk("brute-1", "sling", &["kael"]));
}

#[test]
fn an_immobilized_creature_cannot_move_conditions() {
    // orcus-basic-rules.txt § Conditions, Immobilized (interpretation, Fourth Edition): it
    // cannot leave its space, but may still attack, and is not off-guard.
    let mut e = with("immobilized");
    assert_eq!(bow_bonus(&mut e), 5, "not off-guard");
    until(&mut e, "brute-1");
    assert_eq!(
        refuse(&mut e, &mv("brute-1", &[(5, 2)], MoveMode::Walk)),
        ErrorCode::Immobilized
    );
    let ev = run(&mut e, &atk("brute-1", "sling", &["kael"]));
    assert_eq!(first_bonus(&ev), 4, "its attacks are unchanged");
}

#[test]
fn a_marked_creature_takes_minus_2_against_all_but_the_marker_conditions() {
    // orcus-basic-rules.txt § Conditions, Marked (interpretation, Fourth Edition): −2 to attack
    // rolls of attacks that do not include the marker.
    let mut e = with("marked");
    let mut e2 = with("marked");
    until(&mut e, "brute-1");
    let ev = run(&mut e, &atk("brute-1", "sling", &["lira"]));
    assert_eq!(first_bonus(&ev), 4 - 2, "Lira is not the marker");
    until(&mut e2, "brute-1");
    let ev = run(&mut e2, &atk("brute-1", "sling", &["kael"]));
    assert_eq!(first_bonus(&ev), 4, "Kael marked it");
}

#[test]
fn a_restrained_creature_cannot_move_takes_minus_2_and_is_off_guard_conditions() {
    // orcus-basic-rules.txt § Conditions, Restrained (interpretation, Fourth Edition): no
    // moving, −2 to its attack rolls, off-guard (§ Off-guard, +2).
    let mut e = with("restrained");
    assert_eq!(bow_bonus(&mut e), 5 + 2);
    until(&mut e, "brute-1");
    assert_eq!(
        refuse(&mut e, &mv("brute-1", &[(5, 2)], MoveMode::Walk)),
        ErrorCode::Immobilized
    );
    let ev = run(&mut e, &atk("brute-1", "sling", &["kael"]));
    assert_eq!(first_bonus(&ev), 4 - 2);
}

#[test]
fn a_slowed_creature_has_speed_2_conditions() {
    // orcus-basic-rules.txt § Conditions, Slowed (interpretation, Fourth Edition): speed 2
    // (the brute's is 6).
    let mut e = with("slowed");
    assert_eq!(bow_bonus(&mut e), 5, "not off-guard");
    until(&mut e, "brute-1");
    let three = [(5, 2), (6, 2), (7, 2)];
    assert_eq!(
        refuse(&mut e, &mv("brute-1", &three, MoveMode::Walk)),
        ErrorCode::TooFar,
        "three squares are beyond speed 2"
    );
    assert_eq!(cs(&e, "brute-1").grid.unwrap().square.x, 4, "did not move");
    run(&mut e, &mv("brute-1", &three[..2], MoveMode::Walk));
    assert_eq!(cs(&e, "brute-1").grid.unwrap().square.x, 6);
    // Unslowed, three squares are fine.
    let enc = encounter("");
    let mut e = started(&enc, 0);
    until(&mut e, "brute-1");
    run(&mut e, &mv("brute-1", &three, MoveMode::Walk));
}

#[test]
fn an_unconscious_creature_is_off_guard_and_takes_no_actions_conditions() {
    // orcus-basic-rules.txt § Conditions, Unconscious (no definition in the text:
    // interpretation, Fourth Edition — helpless) and § 0 hit points (a hero dropped to 0 falls
    // unconscious, dying): off-guard (§ Off-guard, +2) and its turn passes without actions.
    // Content cannot impose the condition itself, so the dying hero carries the test.
    let fell = r#"[[monster.powers]]
id = "fell"
name = "Fell"
action = "swift"
origin = "melee"
vs = "ac"
bonus = 40
hit = "24"
"#;
    let at = "kael = [0, 0]\nlira = [0, 5]\nbrute-1 = [1, 5]\nbrute-2 = [9, 0]";
    let enc = load_encounter("arena.toml", &arena_src(&OPEN, fell, 5, at)).unwrap();
    for seed in 0..40 {
        let mut e = started(&enc, seed);
        until(&mut e, "brute-1");
        let ev = run(&mut e, &atk("brute-1", "fell", &["lira"]));
        if cs(&e, "lira").status != LifeStatus::Unconscious {
            assert!(!ev.iter().any(|x| matches!(x, GameEvent::Damaged { .. })));
            continue;
        }
        let ev = run(&mut e, &atk("brute-1", "club", &["lira"]));
        assert_eq!(first_bonus(&ev), 4 + 2, "off-guard");
        let mut turns = Vec::new();
        let mut events = run(&mut e, &end("brute-1"));
        while current(&e) != "brute-1" {
            let c = current(&e);
            turns.push(c.clone());
            events.extend(run(&mut e, &end(&c)));
        }
        if cs(&e, "lira").status != LifeStatus::Unconscious {
            continue;
        }
        assert!(!turns.contains(&"lira".to_string()), "{turns:?}");
        assert!(events.iter().any(|x| matches!(x,
            GameEvent::TurnStarted { combatant, .. } if combatant.as_str() == "lira")));
        return;
    }
    panic!("no seed left Lira unconscious");
}

#[test]
fn a_blinded_creature_takes_minus_5_and_is_off_guard_conditions() {
    // orcus-basic-rules.txt § Conditions, Blinded (interpretation, Fourth Edition): everything
    // has total concealment from it (−5 to its melee and ranged attacks, § Concealment), and it
    // is off-guard (§ Off-guard, +2).
    let mut e = with("blinded");
    assert_eq!(bow_bonus(&mut e), 5 + 2);
    until(&mut e, "brute-1");
    let ev = run(&mut e, &atk("brute-1", "sling", &["kael"]));
    assert_eq!(first_bonus(&ev), 4 - 5);
}

#[test]
fn each_instance_of_a_condition_keeps_its_own_duration_conditions() {
    // orcus-basic-rules.txt § Conditions: each instance of a condition runs for its own
    // duration; the creature has the condition until the last instance ends.
    let enc = encounter(&format!(
        "{}{}",
        hex("short", "swift", "slowed", "start of your next turn"),
        hex("long", "standard", "slowed", "end of your next turn"),
    ));
    let mut e = hexed(&enc, &["short", "long"], "brute-1");
    let slowed = |e: &Engine| {
        cs(e, "brute-1")
            .effects
            .iter()
            .filter(|x| x.kind == EffectKind::Condition(Condition::Slowed))
            .count()
    };
    assert_eq!(slowed(&e), 2);
    run(&mut e, &end("kael"));
    until(&mut e, "kael");
    assert_eq!(
        slowed(&e),
        1,
        "the short one ended at the start of Kael's turn"
    );
    run(&mut e, &end("kael"));
    assert_eq!(slowed(&e), 0, "the long one at its end");
    // With one instance left it was still slowed on its turn between: shown by the count above
    // and by its speed on the next turn, which is back to 6.
    until(&mut e, "brute-1");
    run(
        &mut e,
        &mv("brute-1", &[(5, 2), (6, 2), (7, 2)], MoveMode::Walk),
    );
}

#[test]
fn a_stunned_creature_is_off_guard_and_takes_no_actions_conditions() {
    // orcus-basic-rules.txt § Conditions, Stunned (interpretation, Fourth Edition): off-guard
    // (§ Off-guard, +2) and no actions: its turn passes at once.
    let mut e = with("stunned");
    assert_eq!(bow_bonus(&mut e), 5 + 2);
    let mut turns = Vec::new();
    let mut events = run(&mut e, &end("kael"));
    while current(&e) != "kael" {
        let c = current(&e);
        turns.push(c.clone());
        events.extend(run(&mut e, &end(&c)));
    }
    assert!(!turns.contains(&"brute-1".to_string()), "{turns:?}");
    assert!(events.iter().any(|x| matches!(x,
        GameEvent::TurnStarted { combatant, .. } if combatant.as_str() == "brute-1")));
}

#[test]
fn a_prone_creature_takes_minus_2_is_harder_to_shoot_and_must_stand_to_move_conditions() {
    // orcus-basic-rules.txt § Conditions, Prone (interpretation, Fourth Edition) and the
    // § Attack roll circumstances: −2 to its attack rolls, −2 to ranged attacks against it,
    // and it must stand up before it moves.
    let mut e = with("prone");
    assert_eq!(bow_bonus(&mut e), 5 - 2, "a ranged attack against it");
    until(&mut e, "brute-1");
    assert_eq!(
        refuse(&mut e, &mv("brute-1", &[(5, 2)], MoveMode::Walk)),
        ErrorCode::Prone
    );
    let ev = run(&mut e, &atk("brute-1", "sling", &["kael"]));
    assert_eq!(first_bonus(&ev), 4 - 2);
    // Off-guard to melee attacks: Kael walks up and swings.
    let mut e = with("prone");
    run(
        &mut e,
        &mv("kael", &[(1, 1), (2, 1), (3, 1)], MoveMode::Walk),
    );
    let ev = run(&mut e, &atk("kael", "sword", &["brute-1"]));
    assert_eq!(first_bonus(&ev), 5 + 2, "a melee attack against it");
}

/// The brute's ranged immediate reaction.
const SNAP: &str = r#"[[monster.powers]]
id = "snap"
name = "Snap Shot"
action = "immediate reaction"
trigger = "an enemy attacks the brute"
origin = "ranged"
range = [10, 10]
vs = "ac"
bonus = 4
hit = "1"
"#;

fn snap() -> fray_protocol::Command {
    fray_protocol::Command::Attack {
        actor: cid("brute-1"),
        attack: "snap".into(),
        targets: vec![cid("kael")],
        mode: fray_protocol::command::AttackMode::Standard,
        knock_out: false,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    }
}

/// orcus-basic-rules.txt § Conditions, Dazed (interpretation, Fourth Edition: one action on its
/// turn and no immediate actions): the refusal has its own reason, `dazed` (not the surprise
/// round's); a stunned creature's immediate action is refused `stunned`; an undazed one's goes.
#[test]
fn a_dazed_creatures_immediate_action_is_refused_as_dazed_conditions() {
    let src = arena_src(&OPEN, &format!("{SLING}\n{SNAP}"), 5, APART);
    for (condition, code) in [("dazed", ErrorCode::Dazed), ("stunned", ErrorCode::Stunned)] {
        let with_hex = src.replace(
            "[[hero]]\nid = \"lira\"",
            &format!(
                "{}\n[[hero]]\nid = \"lira\"",
                hex("hex", "swift", condition, "end of your next turn")
            ),
        );
        let enc = load_encounter("snap.toml", &with_hex).unwrap();
        let mut e = hexed(&enc, &["hex"], "brute-1");
        let r = refusal(&mut e, &snap());
        assert_eq!(r.code, code, "{condition}: {r}");
        assert!(r.message.contains(condition), "{r}");
    }
    // Without the condition the same reaction is taken.
    let mut e = started(&load_encounter("snap.toml", &src).unwrap(), 0);
    let ev = run(&mut e, &snap());
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::InterruptUsed { .. }))
    );
}
