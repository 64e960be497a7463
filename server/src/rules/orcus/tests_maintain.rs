//! Orcus § Maintain on powers (orcus-basic-rules.txt § Maintain; § The end of your turn: "Any
//! effects that require an action to maintain concentration, which you have not spent, end
//! now").

use super::tests::{SPREAD, end, started, until};
use super::tests_power_effects::{far, with_kael_powers, zone_count};
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::event::{ActionKind, Condition, EffectEndReason, EffectKind, GameEvent};
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{OrcusCommand, OrcusEvent};

/// A zone kept by a swift action, and a ranged utility power whose slow lasts while maintained
/// by a move action.
const POWERS: &str = r#"[[hero.powers]]
id = "tentacles"
name = "Black Tentacles"
origin = "far burst"
area = 1
range = [10]
maintain = "swift"
effect = [{ zone = "difficult terrain", duration = "maintain" }]
[[hero.powers]]
id = "hold"
name = "Hold Person"
origin = "ranged"
range = [10]
targets = "one creature"
maintain = "move"
effect = [{ condition = "slowed", duration = "maintain" }]
"#;

fn maintain(actor: &str, effect: u32) -> Command {
    Command::Orcus(OrcusCommand::Maintain {
        actor: cid(actor),
        effect,
    })
}

fn end_effect(actor: &str, effect: u32) -> Command {
    Command::Orcus(OrcusCommand::EndEffect {
        actor: cid(actor),
        effect,
    })
}

fn engine() -> Engine {
    let enc = load_encounter("maintain.toml", &with_kael_powers(POWERS, SPREAD)).unwrap();
    started(&enc, 2)
}

fn zone_id(ev: &[GameEvent]) -> u32 {
    ev.iter()
        .find_map(|x| match x {
            GameEvent::Orcus(OrcusEvent::ZoneCreated { zone }) => Some(zone.id),
            _ => None,
        })
        .expect("zone")
}

fn slowed(e: &Engine, who: &str) -> Option<u32> {
    cs(e, who)
        .effects
        .iter()
        .find(|x| x.kind == EffectKind::Condition(Condition::Slowed))
        .map(|x| x.id)
}

/// orcus-basic-rules.txt § Maintain (black tentacles, "Maintain Swift": "the zone disappears at
/// the end of your turn unless you take a swift action on your turn to maintain it until the
/// end of your next turn"): the turn it is made counts as maintained; a later turn keeps it
/// with a swift action; a turn without one ends it.
#[test]
fn a_maintained_zone_ends_with_the_first_turn_it_is_not_maintained_maintain() {
    let mut e = engine();
    let ev = run(&mut e, &far("kael", "tentacles", (4, 2)));
    let zone = zone_id(&ev);
    assert!(ev.iter().any(
        |x| matches!(x, GameEvent::Orcus(OrcusEvent::MaintenanceNeeded { effect, .. })
        if effect.effect == zone && effect.action == ActionKind::Quick && effect.target.is_none())
    ));
    assert!(ev.iter().any(
        |x| matches!(x, GameEvent::Orcus(OrcusEvent::Maintained { effect, .. }) if *effect == zone)
    ));
    run(&mut e, &end("kael"));
    assert_eq!(
        zone_count(&e, "kael"),
        1,
        "the turn it was made counts as paid"
    );
    until(&mut e, "kael");
    let ev = run(&mut e, &maintain("kael", zone));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::ActionUsed {
            action: ActionKind::Quick,
            ..
        }
    )));
    assert_eq!(
        refuse(&mut e, &maintain("kael", zone)),
        ErrorCode::ActionAlreadyUsed,
        "once a turn"
    );
    run(&mut e, &end("kael"));
    assert_eq!(zone_count(&e, "kael"), 1);
    until(&mut e, "kael");
    let ev = run(&mut e, &end("kael"));
    assert!(ev.iter().any(|x| matches!(x,
        GameEvent::Orcus(OrcusEvent::ZoneEnded { zone: z, reason: EffectEndReason::Expired, .. }) if *z == zone)));
    assert_eq!(zone_count(&e, "kael"), 0);
    assert!(cs(&e, "kael").grid.unwrap().maintain_needed.is_empty());
}

/// orcus-basic-rules.txt § Maintain: "You cannot maintain an effect that has ended" —
/// `maintain` (and `end_effect`) naming it are refused with `effect_ended`, changing nothing.
#[test]
fn maintaining_an_ended_effect_is_refused_maintain() {
    let mut e = engine();
    let zone = zone_id(&run(&mut e, &far("kael", "tentacles", (4, 2))));
    run(&mut e, &end("kael"));
    until(&mut e, "kael");
    run(&mut e, &end("kael"));
    until(&mut e, "kael");
    assert_eq!(zone_count(&e, "kael"), 0);
    assert_eq!(
        refuse(&mut e, &maintain("kael", zone)),
        ErrorCode::EffectEnded
    );
    assert_eq!(
        refuse(&mut e, &end_effect("kael", zone)),
        ErrorCode::EffectEnded
    );
    // An id never issued is not an ended effect.
    assert_eq!(
        refuse(&mut e, &maintain("kael", 999)),
        ErrorCode::NotGrappled
    );
}

/// orcus-basic-rules.txt § Maintain: "You can maintain any number of effects, provided you have
/// the actions to do so" — each paid with its power's action (a move action for Hold Person; a
/// swift one for the tentacles, here traded down from the standard action).
#[test]
fn several_effects_are_maintained_each_with_its_action_maintain() {
    let mut e = engine();
    run(&mut e, &super::tests::atk("kael", "hold", &["brute-1"]));
    let hold = slowed(&e, "brute-1").expect("slowed while maintained");
    run(&mut e, &end("kael"));
    until(&mut e, "kael");
    let zone = zone_id(&run(&mut e, &far("kael", "tentacles", (4, 2))));
    let ev = run(&mut e, &maintain("kael", hold));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::ActionUsed {
            action: ActionKind::Move,
            ..
        }
    )));
    // The standard action went on the tentacles and the move action on Hold Person: nothing
    // is left to pay for the tentacles again (they are maintained this turn anyway).
    assert_eq!(
        refuse(&mut e, &maintain("kael", zone)),
        ErrorCode::ActionAlreadyUsed
    );
    run(&mut e, &end("kael"));
    assert_eq!(slowed(&e, "brute-1"), Some(hold));
    assert_eq!(zone_count(&e, "kael"), 1);
    until(&mut e, "kael");
    // Both again: a move action for the hold, the swift action for the zone.
    run(&mut e, &maintain("kael", hold));
    run(&mut e, &maintain("kael", zone));
    assert_eq!(
        refuse(&mut e, &maintain("kael", hold)),
        ErrorCode::ActionAlreadyUsed
    );
    run(&mut e, &end("kael"));
    assert_eq!(slowed(&e, "brute-1"), Some(hold));
    assert_eq!(zone_count(&e, "kael"), 1);
    // Kael stops maintaining the hold: it ends with his turn; the zone he keeps.
    until(&mut e, "kael");
    run(&mut e, &maintain("kael", zone));
    let ev = run(&mut e, &end("kael"));
    assert!(ev.iter().any(|x| matches!(x,
        GameEvent::EffectEnded { effect, reason: EffectEndReason::Expired, .. } if *effect == hold)));
    assert_eq!(slowed(&e, "brute-1"), None);
    assert_eq!(zone_count(&e, "kael"), 1);
}

/// orcus-basic-rules.txt § Maintain: "You can end an effect that requires maintenance at any
/// time as a free action" — on another creature's turn too, spending nothing.
#[test]
fn the_user_ends_a_maintained_effect_at_any_time_as_a_free_action_maintain() {
    let mut e = engine();
    run(&mut e, &super::tests::atk("kael", "hold", &["brute-1"]));
    let hold = slowed(&e, "brute-1").expect("slowed");
    run(&mut e, &end("kael"));
    until(&mut e, "kael");
    run(&mut e, &maintain("kael", hold));
    let zone = zone_id(&run(&mut e, &far("kael", "tentacles", (4, 2))));
    let actions = cs(&e, "kael").actions;
    let ev = run(&mut e, &end_effect("kael", zone));
    assert!(ev.iter().any(|x| matches!(x,
        GameEvent::Orcus(OrcusEvent::ZoneEnded { zone: z, reason: EffectEndReason::Released, .. }) if *z == zone)));
    assert_eq!(cs(&e, "kael").actions, actions, "a free action");
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    let ev = run(&mut e, &end_effect("kael", hold));
    assert!(ev.iter().any(|x| matches!(x,
        GameEvent::EffectEnded { effect, reason: EffectEndReason::Released, .. } if *effect == hold)));
    assert_eq!(slowed(&e, "brute-1"), None);
    assert!(cs(&e, "kael").grid.unwrap().maintain_needed.is_empty());
    // Only its creator ends it, and only an effect that needs maintaining.
    run(&mut e, &end("brute-1"));
    until(&mut e, "kael");
    run(&mut e, &super::tests::atk("kael", "hold", &["brute-1"]));
    let again = slowed(&e, "brute-1").expect("slowed");
    assert_eq!(
        refuse(&mut e, &end_effect("lira", again)),
        ErrorCode::InvalidArgument
    );
}

/// orcus-basic-rules.txt § Maintain and § Category: `maintain` needs a power with something of
/// the `maintain` duration, and that duration needs the power's `maintain` action; checked on
/// load.
#[test]
fn maintain_is_checked_on_load_maintain() {
    let bad = [
        (
            r#"[[hero.powers]]
id = "x"
name = "X"
origin = "near burst"
effect = [{ zone = "difficult terrain", duration = "maintain" }]
"#,
            "effect[0].duration",
        ),
        (
            r#"[[hero.powers]]
id = "x"
name = "X"
origin = "near burst"
maintain = "swift"
effect = [{ zone = "difficult terrain", duration = "encounter" }]
"#,
            ".maintain",
        ),
        (
            r#"[[hero.powers]]
id = "x"
name = "X"
origin = "near burst"
maintain = "free"
effect = [{ zone = "difficult terrain", duration = "maintain" }]
"#,
            ".maintain",
        ),
        (
            r#"[[hero.powers]]
id = "x"
name = "X"
origin = "melee"
vs = "ac"
bonus = 2
on_hit = [{ condition = "dazed", duration = "maintain" }]
"#,
            "on_hit[0].duration",
        ),
    ];
    for (power, field) in bad {
        let err = load_encounter("bad.toml", &with_kael_powers(power, SPREAD))
            .unwrap_err()
            .to_string();
        assert!(err.contains(field), "{field}: {err}");
    }
}

/// orcus-basic-rules.txt § Maintain: a creature out of the fight takes no more turns to keep
/// what it maintains; its zones and maintained effects end (`cleared`; interpretation).
#[test]
fn a_dead_users_maintained_zone_ends_maintain() {
    let positions = "kael = [0, 0]\nlira = [0, 5]\nbrute-1 = [9, 0]\nbrute-2 = [9, 5]";
    let src = with_kael_powers(POWERS, positions) + &super::tests::smash(60);
    let enc = load_encounter("maintain.toml", &src).unwrap();
    for seed in 0..40 {
        let mut e = started(&enc, seed);
        let zone = zone_id(&run(&mut e, &far("kael", "tentacles", (4, 2))));
        run(&mut e, &end("kael"));
        until(&mut e, "brute-1");
        run(
            &mut e,
            &super::tests::mv(
                "brute-1",
                &[(8, 0), (7, 0), (6, 0), (5, 0), (4, 0), (3, 0)],
                fray_protocol::grid::MoveMode::Walk,
            ),
        );
        run(&mut e, &end("brute-1"));
        until(&mut e, "kael");
        run(&mut e, &maintain("kael", zone));
        run(&mut e, &end("kael"));
        until(&mut e, "brute-1");
        run(
            &mut e,
            &super::tests::mv(
                "brute-1",
                &[(2, 0), (1, 0)],
                fray_protocol::grid::MoveMode::Walk,
            ),
        );
        let ev = run(&mut e, &super::tests::atk("brute-1", "smash", &["kael"]));
        if cs(&e, "kael").status != fray_protocol::state::LifeStatus::Dead {
            continue;
        }
        assert!(
            ev.iter().any(|x| matches!(x,
            GameEvent::Orcus(OrcusEvent::ZoneEnded { zone: z, reason: EffectEndReason::Cleared, .. }) if *z == zone)),
            "{ev:?}"
        );
        assert_eq!(zone_count(&e, "kael"), 0);
        return;
    }
    panic!("no seed killed Kael");
}
