//! ose-adventuring.txt § Traps, Triggering Traps (the 2-in-6 chance of a trap being sprung) as
//! the GM's secret roll (`commands.rs::secret`, `trap_trigger`), through the real engine.

use super::tests::arena_with;
use crate::rules::common::testing::{cid, new_engine, refuse, run};
use fray_protocol::BxCommand;
use fray_protocol::event::GameEvent;
use fray_protocol::ose::SecretCheck;
use fray_protocol::{Command, ErrorCode};

fn trigger(who: Option<&str>, chance: u32) -> Command {
    Command::Bx(BxCommand::SecretRoll {
        check: SecretCheck::TrapTrigger,
        combatant: who.map(cid),
        chance,
        area: Some("crypt-hall".into()),
    })
}

/// ose-adventuring.txt § Traps, Triggering Traps ("Chance of triggering: Every time a character
/// makes an action that could trigger a trap, there is a 2-in-6 chance of the trap being
/// sprung"; "Monsters: Monsters may be able to bypass traps without risk, if the referee
/// wishes"): a d6, sprung on 1–2, every time (no "one chance" as for searches), for a character
/// or a monster; the roll and the result are the GM's alone (a trap that did not spring stays
/// unknown); a chance outside 1–6 is refused and changes nothing.
#[test]
fn a_trap_springs_on_two_in_six_each_time_in_secret_triggering_traps() {
    let mut e = new_engine(&arena_with("", 30, 9), 7);
    let mut sprung = 0;
    for i in 0..36 {
        let who = if i % 3 == 0 { "goon-1" } else { "ada" };
        let ev = run(&mut e, &trigger(Some(who), 2));
        let [
            event @ GameEvent::SecretRolled {
                check: SecretCheck::TrapTrigger,
                chance: 2,
                roll: Some(roll),
                success: Some(success),
                distance: None,
                turns: 0,
                ..
            },
        ] = ev.as_slice()
        else {
            panic!("{ev:?}")
        };
        assert_eq!(roll.dice.len(), 1);
        assert_eq!(roll.dice[0].sides, 6);
        assert_eq!(*success, roll.natural().unwrap() <= 2);
        sprung += usize::from(*success);
        assert!(event.has_secret(|_| false));
        assert_eq!(
            event.redacted(|_| false),
            GameEvent::SecretRolled {
                check: SecretCheck::TrapTrigger,
                combatant: Some(cid(who)),
                chance: 2,
                roll: None,
                success: None,
                area: Some("crypt-hall".into()),
                distance: None,
                turns: 0,
            }
        );
    }
    assert!(sprung > 3 && sprung < 24, "{sprung} of 36");
    // Without a character (the GM's own action), and the refusals.
    assert_eq!(run(&mut e, &trigger(None, 2)).len(), 1);
    for bad in [0, 7] {
        assert_eq!(
            refuse(&mut e, &trigger(Some("ada"), bad)),
            ErrorCode::InvalidArgument
        );
    }
}
