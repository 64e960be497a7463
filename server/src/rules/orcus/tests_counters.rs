//! Orcus § Action required ("If the action is a counter, its effects commence before the
//! trigger is resolved, and may prevent the trigger from taking place"; a reaction's "after
//! the trigger is fully resolved") and § Immediate actions: readied counters (`counters.rs`).

use super::tests::{atk, end, started, until};
use super::tests_power_effects::with_kael_powers;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::event::GameEvent;
use fray_protocol::state::LifeStatus;
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{OrcusCommand, OrcusEvent};

/// Kael next to brute-1; brute-2 far away.
const CLOSE: &str = r#"kael = [0, 0]
lira = [0, 5]
brute-1 = [1, 0]
brute-2 = [9, 5]"#;

/// A melee counter dealing `hit` and an immediate reaction.
fn powers(hit: &str) -> String {
    format!(
        r#"[[hero.powers]]
id = "riposte"
name = "Riposte"
action = "immediate counter"
trigger = "An enemy attacks you"
counter_on = "attacked"
origin = "melee"
vs = "ac"
bonus = 40
hit = "{hit}"
[[hero.powers]]
id = "retort"
name = "Retort"
action = "immediate reaction"
trigger = "An enemy hits you"
origin = "melee"
vs = "ac"
bonus = 40
hit = "1"
"#
    )
}

fn engine(hit: &str, seed: u64) -> Engine {
    let enc = load_encounter("counters.toml", &with_kael_powers(&powers(hit), CLOSE)).unwrap();
    started(&enc, seed)
}

fn ready(actor: &str, power: &str) -> Command {
    Command::Orcus(OrcusCommand::ReadyCounter {
        actor: cid(actor),
        power: power.into(),
    })
}

fn readied(e: &Engine, who: &str) -> Option<String> {
    cs(e, who).grid.expect("grid").readied_counter
}

/// Where the first attack roll by `attacker` is in `ev`.
fn roll_by(ev: &[GameEvent], attacker: &str) -> Option<usize> {
    ev.iter().position(
        |x| matches!(x, GameEvent::AttackRolled { attacker: a, .. } if a.as_str() == attacker),
    )
}

/// orcus-basic-rules.txt § Action required ("If the action is a counter, its effects commence
/// before the trigger is resolved"): Kael readies Riposte (no action spent: `counter_readied`
/// only); when brute-1 attacks him, Riposte spends Kael's immediate action and its attack roll
/// on brute-1 comes before brute-1's first attack die; brute-1's attack then goes on.
#[test]
fn a_readied_counter_attacks_the_attacker_before_its_roll_action_required() {
    let mut e = engine("1", 3);
    let ev = run(&mut e, &ready("kael", "riposte"));
    assert_eq!(
        ev,
        vec![GameEvent::Orcus(OrcusEvent::CounterReadied {
            combatant: cid("kael"),
            power: "riposte".into(),
        })]
    );
    assert_eq!(readied(&e, "kael").as_deref(), Some("riposte"));
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    let ev = run(&mut e, &atk("brute-1", "club", &["kael"]));
    let spent = ev
        .iter()
        .position(
            |x| matches!(x, GameEvent::InterruptUsed { combatant } if combatant.as_str() == "kael"),
        )
        .expect("kael's immediate action");
    let counter = roll_by(&ev, "kael").expect("riposte rolled");
    let trigger = roll_by(&ev, "brute-1").expect("the club still attacks");
    assert!(spent < counter && counter < trigger, "{ev:?}");
    assert!(matches!(
        &ev[counter],
        GameEvent::AttackRolled { target, .. } if target.as_str() == "brute-1"
    ));
    assert_eq!(readied(&e, "kael"), None);
    assert!(cs(&e, "kael").grid.unwrap().immediate_used);
}

/// orcus-basic-rules.txt § Action required (a counter "may prevent the trigger from taking
/// place"): a readied counter that drops brute-1 stops its attack — no attack roll by it — while
/// the action it spent on the attack stays spent (interpretation).
#[test]
fn a_counter_that_drops_the_attacker_prevents_the_attack_action_required() {
    for seed in 0..40 {
        let mut e = engine("100", seed);
        run(&mut e, &ready("kael", "riposte"));
        run(&mut e, &end("kael"));
        until(&mut e, "brute-1");
        let ev = run(&mut e, &atk("brute-1", "club", &["kael"]));
        if cs(&e, "brute-1").status == LifeStatus::Conscious {
            continue; // Riposte rolled a natural 1.
        }
        assert!(roll_by(&ev, "kael").is_some());
        assert_eq!(roll_by(&ev, "brute-1"), None, "{ev:?}");
        assert!(ev.iter().any(
            |x| matches!(x, GameEvent::ActionUsed { combatant, .. } if combatant.as_str() == "brute-1")
        ));
        assert_eq!(cs(&e, "kael").hp, Some(30));
        return;
    }
    panic!("no seed where the riposte hit");
}

/// orcus-basic-rules.txt § Action required and § Immediate actions ("only one immediate action
/// between each of your turns"): refusals change nothing and draw no dice — a power that is
/// not a counter with a `counter_on` trigger (`invalid_argument`), an unknown power
/// (`unknown_attack`), a creature whose immediate action is spent (`immediate_used`). The
/// readiness lapses when its user's next turn starts, and a used counter is no longer readied.
#[test]
fn ready_counter_refusals_change_nothing_and_the_readiness_lapses_action_required() {
    let mut e = engine("1", 3);
    assert_eq!(
        refuse(&mut e, &ready("kael", "sword")),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        refuse(&mut e, &ready("kael", "retort")),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        refuse(&mut e, &ready("kael", "nope")),
        ErrorCode::UnknownAttack
    );
    // Readied, then lapsed at the start of Kael's next turn.
    run(&mut e, &ready("kael", "riposte"));
    run(&mut e, &end("kael"));
    until(&mut e, "kael");
    assert_eq!(readied(&e, "kael"), None);
    // Readied again and used against brute-1: spent until Kael's next turn.
    run(&mut e, &ready("kael", "riposte"));
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    run(&mut e, &atk("brute-1", "club", &["kael"]));
    assert_eq!(
        refuse(&mut e, &ready("kael", "riposte")),
        ErrorCode::ImmediateUsed
    );
    assert_eq!(readied(&e, "kael"), None);
}

/// orcus-basic-rules.txt § Action required ("If the action is a reaction, its effects commence
/// after the trigger is fully resolved"): nothing changes for reactions — with no counter
/// readied, brute-1's attack resolves alone and Kael's Retort, sent after it, resolves then.
/// `counter_on` is refused on load for anything but an immediate counter, and an unknown
/// trigger is refused.
#[test]
fn a_reaction_still_resolves_after_its_trigger_action_required() {
    let mut e = engine("1", 3);
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    let ev = run(&mut e, &atk("brute-1", "club", &["kael"]));
    assert_eq!(roll_by(&ev, "kael"), None);
    assert!(roll_by(&ev, "brute-1").is_some());
    let ev = run(&mut e, &atk("kael", "retort", &["brute-1"]));
    assert!(roll_by(&ev, "kael").is_some());
    assert!(ev.iter().any(
        |x| matches!(x, GameEvent::InterruptUsed { combatant } if combatant.as_str() == "kael")
    ));
    for bad in [
        powers("1").replacen(
            "action = \"immediate counter\"",
            "action = \"immediate reaction\"",
            1,
        ),
        powers("1").replacen("counter_on = \"attacked\"", "counter_on = \"moved\"", 1),
    ] {
        let err = load_encounter("bad.toml", &with_kael_powers(&bad, CLOSE))
            .unwrap_err()
            .to_string();
        assert!(err.contains("counter_on"), "{err}");
    }
}

/// orcus-basic-rules.txt § Action required: an enemy's `area_attack` that takes the readied
/// creature among its targets triggers the counter too, before the area's first attack die;
/// a counter that drops the attacker leaves the area without any attack roll.
#[test]
fn an_area_attack_triggers_a_readied_counter_first_action_required() {
    const STOMP: &str = r#"
[[monster.powers]]
id = "stomp"
name = "Stomp"
origin = "near burst"
area = 1
targets = "all enemies"
vs = "reflex"
bonus = 4
hit = "1"
"#;
    let src = with_kael_powers(&powers("100"), CLOSE) + STOMP;
    let enc = load_encounter("counters.toml", &src).unwrap();
    let stomp = Command::Orcus(OrcusCommand::AreaAttack {
        actor: cid("brute-1"),
        attack: "stomp".into(),
        origin: None,
        targets: Vec::new(),
        forced: Vec::new(),
        origin_height: None,
        weapon: None,
        secondary_target: None,
    });
    for seed in 0..40 {
        let mut e = started(&enc, seed);
        run(&mut e, &ready("kael", "riposte"));
        run(&mut e, &end("kael"));
        until(&mut e, "brute-1");
        let ev = run(&mut e, &stomp);
        assert!(roll_by(&ev, "kael").is_some(), "{ev:?}");
        if cs(&e, "brute-1").status == LifeStatus::Conscious {
            continue;
        }
        assert_eq!(roll_by(&ev, "brute-1"), None, "{ev:?}");
        return;
    }
    panic!("no seed where the riposte hit");
}
