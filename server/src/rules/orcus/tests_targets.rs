//! § Targets, Allies and enemies and § Attack roll, Choosing to be hit (`targets.rs`), naming
//! the sections of `orcus-basic-rules.txt`.

use super::tests::{arena, atk, started};
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, refuse, run};
use fray_protocol::event::{ActionKind, GameEvent};
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{OrcusCommand, OrcusEvent};

/// Kael with Lira at his side and a brute next to him.
const CLOSE: &str = r#"kael = [0, 0]
lira = [1, 0]
brute-1 = [0, 1]
brute-2 = [8, 5]"#;

fn burst(e: &mut Engine) -> Vec<String> {
    let ev = run(
        e,
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
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::AttackRolled { target, .. } => Some(target.to_string()),
            _ => None,
        })
        .collect()
}

fn allies(actor: &str, list: &[&str]) -> Command {
    Command::Orcus(OrcusCommand::ChooseAllies {
        actor: cid(actor),
        allies: list.iter().map(|a| cid(a)).collect(),
    })
}

fn action_point(e: &mut Engine) {
    run(
        e,
        &Command::Orcus(OrcusCommand::SpendActionPoint {
            actor: cid("kael"),
            action: ActionKind::Standard,
        }),
    );
}

/// orcus-basic-rules.txt § Targets, Allies and enemies: the user chooses its allies for the
/// action, everyone else is an enemy; a creature may choose not to count as an ally; they are
/// allies again afterwards; you are not your own ally.
#[test]
fn the_user_chooses_its_allies_and_an_ally_may_decline_allies_and_enemies() {
    let enc = arena("", 5, CLOSE);
    let mut e = started(&enc, 4);
    // Kael is never his own ally; the brute is not Kael's ally, so it cannot decline.
    assert_eq!(
        refuse(&mut e, &allies("kael", &["kael"])),
        ErrorCode::NotAlly
    );
    let decline = |who: &str| {
        Command::Orcus(OrcusCommand::DeclineAlly {
            actor: cid(who),
            user: cid("kael"),
        })
    };
    assert_eq!(refuse(&mut e, &decline("brute-1")), ErrorCode::NotAlly);
    // Kael counts the brute as his ally and Lira as not: his "all enemies" burst takes Lira.
    run(&mut e, &allies("kael", &["brute-1"]));
    assert_eq!(burst(&mut e), vec!["lira".to_owned()]);
    // Afterwards they are his side again.
    let g = cs(&e, "kael").grid.unwrap();
    assert_eq!((g.chosen_allies, g.declined_by), (None, vec![]));
    // Lira declines to count as Kael's ally for his next action: the burst takes her and
    // the brute.
    run(&mut e, &decline("lira"));
    action_point(&mut e);
    let mut hit = burst(&mut e);
    hit.sort();
    assert_eq!(hit, vec!["brute-1".to_owned(), "lira".to_owned()]);
    assert_eq!(cs(&e, "kael").grid.unwrap().declined_by, vec![]);
}

/// orcus-basic-rules.txt § Targets, Allies and enemies: an "one enemy" power may take a
/// creature of the user's side that it did not choose as an ally, for that action only.
#[test]
fn a_side_member_not_chosen_is_an_enemy_for_that_action_allies_and_enemies() {
    let enc = arena("", 5, CLOSE);
    let mut e = started(&enc, 4);
    assert_eq!(
        refuse(&mut e, &atk("kael", "sword", &["lira"])),
        ErrorCode::InvalidTarget
    );
    run(&mut e, &allies("kael", &[]));
    let ev = run(&mut e, &atk("kael", "sword", &["lira"]));
    assert!(
        ev.iter().any(
            |x| matches!(x, GameEvent::AttackRolled { target, .. } if target.as_str() == "lira")
        )
    );
    action_point(&mut e);
    assert_eq!(
        refuse(&mut e, &atk("kael", "sword", &["lira"])),
        ErrorCode::InvalidTarget
    );
}

/// orcus-basic-rules.txt § Attack roll, Choosing to be hit: a target may choose to be hit
/// instead of the attacker making an attack roll; it holds for that attacker's next attack on
/// it.
#[test]
fn a_target_that_chooses_to_be_hit_is_hit_without_a_roll_choosing_to_be_hit() {
    let enc = arena("", 5, CLOSE);
    let mut e = started(&enc, 4);
    let be_hit = |who: &str, by: &str| {
        Command::Orcus(OrcusCommand::ChooseToBeHit {
            actor: cid(who),
            attacker: cid(by),
        })
    };
    assert_eq!(
        refuse(&mut e, &be_hit("kael", "kael")),
        ErrorCode::InvalidTarget
    );
    run(&mut e, &be_hit("brute-1", "kael"));
    assert_eq!(
        cs(&e, "kael").grid.unwrap().hit_chosen_by,
        vec![cid("brute-1")]
    );
    let hp = cs(&e, "brute-1").hp;
    let ev = run(&mut e, &atk("kael", "sword", &["brute-1"]));
    assert!(ev.contains(&GameEvent::Orcus(OrcusEvent::HitByChoice {
        attacker: cid("kael"),
        target: cid("brute-1"),
        attack: "sword".into(),
    })));
    assert!(
        !ev.iter()
            .any(|x| matches!(x, GameEvent::AttackRolled { .. }))
    );
    assert!(cs(&e, "brute-1").hp < hp);
    assert_eq!(cs(&e, "kael").grid.unwrap().hit_chosen_by, vec![]);
    // The next attack rolls again.
    action_point(&mut e);
    let ev = run(&mut e, &atk("kael", "sword", &["brute-1"]));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::AttackRolled { .. }))
    );
}
