//! Old-School Essentials § Targets Behind Cover (`ose-adventuring.txt`): complete cover, the
//! GM's condition `complete_cover` (`combat_extras.rs::may_be_attacked`), through the real engine.

use super::tests::{arena_with, attack, started};
use crate::rules::common::testing::{cid, current, refusal, run};
use fray_protocol::event::GameEvent;
use fray_protocol::ose::OseCondition;
use fray_protocol::{BxCommand, BxEvent};
use fray_protocol::{Command, ErrorCode};

fn cover(who: &str, on: bool) -> Command {
    Command::Bx(BxCommand::OseCondition {
        combatant: cid(who),
        condition: OseCondition::CompleteCover,
        on,
    })
}

/// ose-adventuring.txt § Targets Behind Cover, "Complete cover: The target cannot be hit": an
/// attack at a target the GM put behind complete cover is refused (`complete_cover`, nothing
/// changes, no dice); once the GM clears it, the same attack is rolled.
#[test]
fn a_target_behind_complete_cover_cannot_be_attacked_targets_behind_cover() {
    let enc = arena_with("", 30, 9);
    let (mut e, _) = started(&enc, 3);
    let ev = run(&mut e, &cover("goon-1", true));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::Bx(BxEvent::OseConditionChanged { .. })))
    );
    run(&mut e, &cover("ada", true));
    let me = current(&e);
    let cmd = match me.as_str() {
        "ada" => attack("ada", "sword", "goon-1"),
        "bram" => attack("bram", "staff", "goon-1"),
        "boss" => attack("boss", "maul", "ada"),
        goon => attack(goon, "club", "ada"),
    };
    let r = refusal(&mut e, &cmd);
    assert_eq!(r.code, ErrorCode::CompleteCover);
    assert!(r.message.contains("Targets Behind Cover"), "{}", r.message);
    run(&mut e, &cover("goon-1", false));
    run(&mut e, &cover("ada", false));
    let ev = run(&mut e, &cmd);
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::AttackRolled { .. }))
    );
}
