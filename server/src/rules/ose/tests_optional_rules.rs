//! Old-School Essentials' optional rules as session options (`optional_rules.rs`) through the
//! real engine: § Morale (Optional Rule), § Monster Morale (Optional Rule), § Subduing
//! (Optional Rule) — off unless the encounter's `[options]` adopt them; Basic Fantasy always
//! uses morale.

use super::tests::{arena_text, arena_with, attack, started};
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, current, new_engine, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::command::AttackMode;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::Side;
use fray_protocol::state::{LifeStatus, Phase};
use fray_protocol::{BxCommand, BxEvent};
use fray_protocol::{Command, ErrorCode};

/// Plays the arena (monsters of 1 hp) with the heroes attacking and the monsters passing until
/// a monster is slain; returns the engine and every event so far.
fn until_a_monster_dies(options: &str, seed: u64) -> Option<(Engine, Vec<GameEvent>)> {
    let (mut e, mut all) = started(&arena_with(options, 1, 9), seed);
    for _ in 0..30 {
        if e.state().phase != Phase::Running {
            return None;
        }
        let me = current(&e);
        let ev = if cs(&e, &me).side == Side::Heroes {
            let target = e
                .state()
                .combatants
                .iter()
                .find(|c| c.side == Side::Monsters && c.status == LifeStatus::Conscious)
                .map(|c| c.id.to_string())?;
            let weapon = cs(&e, &me).attacks[0].id.clone();
            run(&mut e, &attack(&me, &weapon, &target))
        } else {
            run(&mut e, &Command::EndTurn { actor: cid(&me) })
        };
        let slain = ev.iter().any(|x| matches!(x, GameEvent::Slain { .. }));
        all.extend(ev);
        if slain {
            return Some((e, all));
        }
    }
    None
}

fn morale_check(id: &str) -> Command {
    Command::Bx(BxCommand::OseMorale {
        combatants: vec![cid(id)],
        adjustment: 0,
    })
}

fn proposed(ev: &[GameEvent]) -> bool {
    ev.iter()
        .any(|x| matches!(x, GameEvent::MoraleProposed { .. }))
}

/// ose-adventuring.txt § Morale (Optional Rule) ("In combat, the referee decides whether
/// monsters or NPCs surrender or run away. The following system may be utilized") and § Monster
/// Morale (Optional Rule): off by default — a death proposes no check and `ose_morale` is
/// refused (`option_off`), changing nothing and drawing no dice; with `morale = true` the first
/// death proposes one and the check is rolled.
#[test]
fn morale_checks_only_when_the_session_adopts_the_option_morale_optional_rule() {
    let mut off = false;
    let mut on = false;
    for seed in 0..40 {
        if let Some((mut e, ev)) = until_a_monster_dies("", seed) {
            assert!(
                !proposed(&ev),
                "no morale check is proposed without the option"
            );
            assert!(!e.state().ose.unwrap().options.morale);
            let alive = e
                .state()
                .combatants
                .iter()
                .find(|c| c.side == Side::Monsters && c.status == LifeStatus::Conscious)
                .map(|c| c.id.to_string());
            if let Some(m) = alive {
                assert_eq!(refuse(&mut e, &morale_check(&m)), ErrorCode::OptionOff);
                off = true;
            }
        }
        if let Some((mut e, ev)) = until_a_monster_dies("morale = true", seed) {
            assert!(
                proposed(&ev),
                "the first death proposes a check (§ When to Check Morale)"
            );
            let alive = e
                .state()
                .combatants
                .iter()
                .find(|c| {
                    c.side == Side::Monsters
                        && c.status == LifeStatus::Conscious
                        && !c.ose.as_ref().is_some_and(|o| o.fled)
                })
                .map(|c| c.id.to_string());
            if let Some(m) = alive {
                let ev = run(&mut e, &morale_check(&m));
                assert!(matches!(
                    ev.first(),
                    Some(GameEvent::Bx(BxEvent::MoraleRolled { .. }))
                ));
                on = true;
            }
        }
        if off && on {
            return;
        }
    }
    panic!("no seed showed both (off {off}, on {on})");
}

fn subdue(actor: &str, attack: &str, target: &str) -> Command {
    Command::Attack {
        actor: cid(actor),
        attack: attack.into(),
        targets: vec![cid(target)],
        mode: AttackMode::Standard,
        knock_out: true,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    }
}

/// ose-adventuring.txt § Subduing (Optional Rule): off by default — an attack announced without
/// the intent to kill (`knock_out: true`) is refused (`option_off`), changing nothing and
/// drawing no dice, while the same attack to kill is made; with `subduing = true` the subdual
/// attack is made (its damage noted apart: `subdued`).
#[test]
fn subdual_attacks_only_when_the_session_adopts_the_option_subduing_optional_rule() {
    for (options, allowed) in [("", false), ("subduing = true", true)] {
        let mut done = false;
        for seed in 0..20 {
            let (mut e, _) = started(&arena_with(options, 30, 9), seed);
            if current(&e) != "ada" {
                continue;
            }
            if allowed {
                let ev = run(&mut e, &subdue("ada", "sword", "goon-1"));
                assert!(
                    ev.iter()
                        .any(|x| matches!(x, GameEvent::AttackRolled { .. }))
                );
                assert!(!ev.iter().any(|x| matches!(x, GameEvent::Damaged { .. })));
            } else {
                assert_eq!(
                    refuse(&mut e, &subdue("ada", "sword", "goon-1")),
                    ErrorCode::OptionOff
                );
                let ev = run(&mut e, &attack("ada", "sword", "goon-1"));
                assert!(
                    ev.iter()
                        .any(|x| matches!(x, GameEvent::AttackRolled { .. }))
                );
            }
            done = true;
            break;
        }
        assert!(done, "Ada never acted first ({options:?})");
    }
}

/// basic-fantasy-adventures.txt § Retainers, Loyalty ("The Loyalty score is used just as the
/// Morale score of monsters or mercenaries is used"): Basic Fantasy takes monster morale as in
/// play, so a `basic-fantasy` session always uses it, whatever the file says; subduing keeps the
/// shared core's default (off: its text has no subdual rule).
#[test]
fn basic_fantasy_always_uses_morale_retainers_loyalty() {
    let bf = arena_text("morale = false", 30, 9).replacen("\"ose\"", "\"basic-fantasy\"", 1);
    let e = new_engine(&load_encounter("bf.toml", &bf).unwrap(), 0);
    let options = e.state().ose.unwrap().options;
    assert!(options.morale);
    assert!(!options.subduing);
    let o = new_engine(&arena_with("", 30, 9), 0)
        .state()
        .ose
        .unwrap()
        .options;
    assert!(!o.morale && !o.subduing, "the ose defaults: both off");
}
