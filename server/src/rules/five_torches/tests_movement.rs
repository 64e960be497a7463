//! Five Torches Deep, through the real engine: special movement at half speed
//! (`commands.rs::special_move`; `five-torches-deep-combat.txt` § Movement Actions).

use super::tests::{arena, attack, close_to, end, started, turn_of};
use crate::rules::common::testing::{cid, cs, current, refusal, refuse, run};
use fray_protocol::FiveTorchesCommand;
use fray_protocol::event::{ActionKind, GameEvent};
use fray_protocol::{Command, ErrorCode};

fn special(actor: &str, engage: Option<&str>) -> Command {
    Command::FiveTorches(FiveTorchesCommand::SpecialMove {
        actor: cid(actor),
        engage: engage.map(cid),
        far_away: false,
    })
}

/// five-torches-deep-combat.txt § Movement Actions: special movement (swimming, crawling,
/// climbing, difficult terrain) is at half speed — Fray's interpretation: a band's move takes
/// the movement action and the active action traded down, so no attack follows; without both
/// it is refused (`action_already_used`) and nothing changes.
#[test]
fn special_movement_takes_both_actions_movement_actions() {
    let enc = arena(14, 1, "1d6");
    let mut e = started(&enc, 1);
    turn_of(&mut e, "ada");
    let ev = run(&mut e, &special("ada", Some("goon-1")));
    assert!(ev.contains(&GameEvent::ActionUsed {
        combatant: cid("ada"),
        action: ActionKind::Move,
        spent: ActionKind::Standard,
    }));
    assert!(ev.contains(&GameEvent::ActionUsed {
        combatant: cid("ada"),
        action: ActionKind::Move,
        spent: ActionKind::Move,
    }));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::Moved { combatant, engaged: Some(t), .. } if *combatant == cid("ada") && *t == cid("goon-1")
    )));
    let a = cs(&e, "ada").actions;
    assert!(!a.standard && !a.move_action && a.quick);
    assert_eq!(
        refuse(&mut e, &attack("ada", "sword", "goon-1")),
        ErrorCode::ActionAlreadyUsed
    );
    run(&mut e, &end("ada"));
    // After an ordinary move only the active action is left: not enough.
    turn_of(&mut e, "ada");
    run(&mut e, &close_to("ada", "goon-2"));
    let r = refusal(&mut e, &special("ada", Some("goon-1")));
    assert_eq!(r.code, ErrorCode::ActionAlreadyUsed);
    assert!(r.message.contains("special movement"), "{}", r.message);
    // Not on its turn.
    assert_ne!(current(&e), "bram");
    assert_eq!(
        refuse(&mut e, &special("bram", None)),
        ErrorCode::NotYourTurn
    );
}
