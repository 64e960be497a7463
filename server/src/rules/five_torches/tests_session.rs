//! Five Torches Deep sessions beyond one battle (`[options] rests = true`) and the GM's checks
//! outside battle, through the real engine.

use super::tests::arena;
use crate::rules::common::testing::{cid, new_engine, refuse, run};
use fray_protocol::event::GameEvent;
use fray_protocol::ftd::{Ability, Advantage};
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{FiveTorchesCommand, FiveTorchesEvent};

fn check(who: &str) -> Command {
    Command::FiveTorches(FiveTorchesCommand::Check {
        combatant: cid(who),
        ability: Ability::Dex,
        dc: 12,
        proficient: false,
        advantage: Advantage::None,
        damage: Some("1d4".into()),
        purpose: Some("trap".into()),
        task: None,
    })
}

fn revealed(ev: &[GameEvent]) -> bool {
    ev.iter()
        .any(|x| matches!(x, GameEvent::SeedRevealed { .. }))
}

/// five-torches-deep-combat.txt § Saves & Checks ("traps, spell effects, environmental
/// threats"), § Traps ("treated like any other dangerous check"), § Healing From Rest, § Travel
/// Turns: with `[options] rests = true` the session goes on after the battle — the GM's checks,
/// rests and travel turns — until `end_session` reveals the seed; a check is the GM's before the
/// battle too.
#[test]
fn a_session_goes_on_after_the_battle_with_rests_saves_checks() {
    let mut enc = arena(14, 12, "1d6");
    enc.options.rests = true;
    let mut e = new_engine(&enc, 6);
    let ev = run(&mut e, &check("ada"));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::CheckRolled { purpose, .. } if purpose == "trap"))
    );
    run(&mut e, &Command::StartBattle);
    let ev = run(&mut e, &Command::EndBattle);
    assert!(!revealed(&ev), "with rests the seed stays secret");
    run(&mut e, &check("bram"));
    run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::TravelTurn {
            advantage: Advantage::None,
        }),
    );
    let ev = run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::Rest {
            safe: true,
            nights: 1,
        }),
    );
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::FiveTorches(FiveTorchesEvent::Rested { safe: true, .. })
    )));
    let ev = run(&mut e, &Command::EndSession);
    assert!(revealed(&ev));
    assert_eq!(refuse(&mut e, &check("ada")), ErrorCode::BattleOver);
}

/// Without the option the seed is revealed when the battle ends (nobody dying) and no dice are
/// rolled after it (five-torches-deep-combat.txt § Saves & Checks).
#[test]
fn without_rests_the_battle_ends_the_dice_saves_checks() {
    let enc = arena(14, 12, "1d6");
    let mut e = new_engine(&enc, 6);
    run(&mut e, &Command::StartBattle);
    let ev = run(&mut e, &Command::EndBattle);
    assert!(revealed(&ev));
    assert_eq!(refuse(&mut e, &check("ada")), ErrorCode::BattleOver);
}

/// five-torches-deep-combat.txt § Stabilizing & Injuries, § Death & Injury: a PC dropped to 0
/// before the battle (a trap's damage) is stabilized or healed before it, with no action; until
/// then no travel turn passes.
#[test]
fn a_pc_falling_before_the_battle_is_healed_before_it_stabilizing_injuries() {
    let enc = arena(14, 12, "1d6");
    let mut e = new_engine(&enc, 6);
    let fall = Command::FiveTorches(FiveTorchesCommand::Check {
        combatant: cid("cleo"),
        ability: Ability::Dex,
        dc: 40,
        proficient: false,
        advantage: Advantage::None,
        damage: Some("30".into()),
        purpose: Some("pit".into()),
        task: None,
    });
    let ev = run(&mut e, &fall);
    assert!(ev.contains(&GameEvent::FellUnconscious {
        combatant: cid("cleo")
    }));
    let travel = Command::FiveTorches(FiveTorchesCommand::TravelTurn {
        advantage: Advantage::None,
    });
    assert_eq!(refuse(&mut e, &travel), ErrorCode::InvalidArgument);
    let ev = run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::Heal {
            target: cid("cleo"),
            dice: "1d4".into(),
            by: Some(cid("ada")),
        }),
    );
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::FiveTorches(FiveTorchesEvent::InjuryRolled { .. })
    )));
    run(&mut e, &travel);
}
