//! Orcus § Free actions ("There are also some powers that require a free action") and § Outside
//! of your turn ("free actions that have a trigger that is met outside of your turn").

use super::tests::{SPREAD, atk, end, started, until};
use super::tests_power_effects::with_kael_powers;
use crate::engine::Engine;
use crate::rules::common::testing::{cs, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::ErrorCode;
use fray_protocol::event::{Condition, EffectKind, GameEvent};

const POWERS: &str = r#"[[hero.powers]]
id = "taunt"
name = "Taunt"
action = "free"
origin = "ranged"
range = [10]
targets = "one creature"
effect = [{ condition = "marked", duration = "end of your next turn" }]
[[hero.powers]]
id = "warning"
name = "Warning Cry"
action = "free"
trigger = "An enemy moves"
origin = "ranged"
range = [10]
targets = "one creature"
effect = [{ condition = "marked", duration = "end of your next turn" }]
"#;

fn engine() -> Engine {
    let enc = load_encounter("free.toml", &with_kael_powers(POWERS, SPREAD)).unwrap();
    started(&enc, 4)
}

fn marks(e: &Engine, who: &str) -> usize {
    cs(e, who)
        .effects
        .iter()
        .filter(|x| x.kind == EffectKind::Condition(Condition::Marked))
        .count()
}

/// orcus-basic-rules.txt § Free actions: a power that requires a free action spends no action,
/// so the user may use it any number of times in its turn (an at-will one), keeping its
/// standard, move and swift actions; the power's summary says `free`.
#[test]
fn a_free_action_costs_nothing_and_may_be_used_any_number_of_times_free_actions() {
    let mut e = engine();
    let actions = cs(&e, "kael").actions;
    for n in 1..=3 {
        let ev = run(&mut e, &atk("kael", "taunt", &["brute-1"]));
        assert!(!ev.iter().any(|x| matches!(
            x,
            GameEvent::ActionUsed { .. } | GameEvent::InterruptUsed { .. }
        )));
        assert_eq!(marks(&e, "brute-1"), n);
    }
    assert_eq!(cs(&e, "kael").actions, actions);
    let summary = cs(&e, "kael")
        .attacks
        .iter()
        .find(|a| a.id == "taunt")
        .cloned()
        .expect("taunt");
    assert_eq!(summary.action, "free");
}

/// orcus-basic-rules.txt § Outside of your turn and § Action required ("You can only use such
/// actions if the trigger is satisfied"): a free action with a trigger may be used on another
/// creature's turn (the trigger is the table's call, as for immediate actions), costing no
/// immediate action, as often as it is triggered; one without a trigger waits for the user's
/// turn (`not_your_turn`).
#[test]
fn a_free_action_with_a_trigger_is_used_outside_the_users_turn_free_actions() {
    let mut e = engine();
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    assert_eq!(
        refuse(&mut e, &atk("kael", "taunt", &["brute-1"])),
        ErrorCode::NotYourTurn
    );
    for n in 1..=2 {
        let ev = run(&mut e, &atk("kael", "warning", &["brute-1"]));
        assert!(
            !ev.iter()
                .any(|x| matches!(x, GameEvent::InterruptUsed { .. }))
        );
        assert_eq!(marks(&e, "brute-1"), n);
    }
    assert!(!cs(&e, "kael").grid.unwrap().immediate_used);
}

/// orcus-basic-rules.txt § Action required: a trigger belongs to immediate and free actions;
/// another action with one is refused on load, and `free` is a known action.
#[test]
fn only_immediate_and_free_actions_have_a_trigger_free_actions() {
    let bad = POWERS.replacen(
        "action = \"free\"\ntrigger",
        "action = \"swift\"\ntrigger",
        1,
    );
    let err = load_encounter("bad.toml", &with_kael_powers(&bad, SPREAD))
        .unwrap_err()
        .to_string();
    assert!(err.contains("trigger"), "{err}");
    let bad = POWERS.replacen("action = \"free\"", "action = \"gratis\"", 1);
    let err = load_encounter("bad.toml", &with_kael_powers(&bad, SPREAD))
        .unwrap_err()
        .to_string();
    assert!(err.contains("free)"), "{err}");
}

/// orcus-basic-rules.txt § Free actions and § Surprise round (the surprised take no actions;
/// interpretation: Fourth Edition's "can't take actions" covers free ones): a surprised creature's
/// triggered free action is refused (`cannot_act`) and changes nothing.
#[test]
fn a_surprised_creature_takes_no_free_actions_free_actions() {
    use crate::rules::common::testing::{cid, new_engine};
    let enc = load_encounter("free.toml", &with_kael_powers(POWERS, SPREAD)).unwrap();
    let mut e = new_engine(&enc, 4);
    run(
        &mut e,
        &fray_protocol::Command::StartSurprise {
            surprised: vec![cid("kael")],
        },
    );
    assert_ne!(crate::rules::common::testing::current(&e), "kael");
    assert_eq!(
        refuse(&mut e, &atk("kael", "warning", &["brute-1"])),
        ErrorCode::CannotAct
    );
}
