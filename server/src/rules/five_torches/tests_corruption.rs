//! Five Torches Deep, through the real engine: corruption (`corruption.rs`), naming the section
//! of `five-torches-deep-combat.txt`.

use super::tests::arena;
use crate::rules::common::testing::{cid, cs, new_engine, refuse, run};
use fray_protocol::event::GameEvent;
use fray_protocol::ftd::Ability;
use fray_protocol::state::LifeStatus;
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{FiveTorchesCommand, FiveTorchesEvent};

fn infect(who: &str, name: Option<&str>, dc: Option<i32>) -> Command {
    Command::FiveTorches(FiveTorchesCommand::CorruptionCheck {
        combatant: cid(who),
        name: name.map(Into::into),
        dc,
        check: None,
        damages: None,
    })
}

/// five-torches-deep-combat.txt § Corruptions: a failed CON check infects; at the end of each
/// stage a failed check deals 1d6 to the damaged score (CON unless given); at 0 the PC dies.
/// DC 40 makes every check fail.
#[test]
fn stages_damage_an_ability_until_death_corruptions() {
    let enc = arena(14, 12, "1d6");
    let mut e = new_engine(&enc, 5);
    let ev = run(&mut e, &infect("cleo", Some("marsh fever"), Some(40)));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::CheckRolled { purpose, dc: 40, success: false, bonus: 1, .. } if purpose == "corruption"
    )));
    let c = cs(&e, "cleo").ftd.unwrap().corruption.unwrap();
    assert_eq!(
        (c.name.as_str(), c.check, c.dc, c.damages, c.stage),
        ("marsh fever", Ability::Con, 40, Ability::Con, 0)
    );
    let mut con = 12;
    for stage in 1..=12 {
        let ev = run(&mut e, &infect("cleo", None, None));
        let (amount, after) = ev
            .iter()
            .find_map(|x| match x {
                GameEvent::FiveTorches(FiveTorchesEvent::AbilityDamaged {
                    ability: Ability::Con,
                    roll,
                    score_after,
                    ..
                }) => Some((roll.total, *score_after)),
                _ => None,
            })
            .unwrap();
        assert!((1..=6).contains(&amount));
        assert_eq!(after, (con - amount).max(0));
        con = after;
        let f = cs(&e, "cleo").ftd.unwrap();
        assert_eq!(f.abilities.con, con);
        assert_eq!(f.corruption.unwrap().stage, stage);
        if con == 0 {
            assert!(ev.contains(&GameEvent::Died {
                combatant: cid("cleo")
            }));
            assert_eq!(cs(&e, "cleo").status, LifeStatus::Dead);
            // The dead check no more.
            assert_eq!(
                refuse(&mut e, &infect("cleo", None, None)),
                ErrorCode::CannotAct
            );
            return;
        }
    }
    panic!("CON 12 outlived 12 stages of 1d6");
}

/// five-torches-deep-combat.txt § Corruptions: a passed check does not infect (DC 1); the GM
/// ends an infection; refusals change nothing and draw no dice.
#[test]
fn passing_curing_and_refusals_corruptions() {
    let enc = arena(14, 12, "1d6");
    let mut e = new_engine(&enc, 5);
    run(&mut e, &infect("ada", Some("snake venom"), Some(1)));
    assert!(cs(&e, "ada").ftd.unwrap().corruption.is_none());
    assert_eq!(
        refuse(&mut e, &infect("ada", None, Some(11))),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        refuse(&mut e, &infect("boss-1", Some("rot"), None)),
        ErrorCode::InvalidTarget
    );
    assert_eq!(
        refuse(
            &mut e,
            &Command::FiveTorches(FiveTorchesCommand::EndCorruption {
                combatant: cid("ada")
            })
        ),
        ErrorCode::InvalidArgument
    );
    run(&mut e, &infect("ada", Some("snake venom"), Some(40)));
    assert!(cs(&e, "ada").ftd.unwrap().corruption.is_some());
    assert_eq!(
        refuse(&mut e, &infect("ada", Some("rot"), None)),
        ErrorCode::InvalidArgument
    );
    run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::EndCorruption {
            combatant: cid("ada"),
        }),
    );
    assert!(cs(&e, "ada").ftd.unwrap().corruption.is_none());
}
