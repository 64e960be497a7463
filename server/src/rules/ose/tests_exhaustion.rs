//! Old-School Essentials § Evasion and Pursuit, Running ("Resting: The penalties for exhaustion
//! last until characters have rested for three full turns"), `exhaustion.rs`, through the real
//! engine.

use super::tests::arena_with;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, new_engine, run};
use fray_protocol::Command;
use fray_protocol::event::GameEvent;
use fray_protocol::ose::OseCondition;
use fray_protocol::{BxCommand, BxEvent};

fn sheet(e: &Engine, who: &str) -> fray_protocol::ose::OseCombatant {
    e.state()
        .combatants
        .iter()
        .find(|c| c.id == cid(who))
        .and_then(|c| c.ose.clone())
        .unwrap()
}

fn exhausted(e: &Engine, who: &str) -> bool {
    sheet(e, who).conditions.contains(&OseCondition::Exhausted)
}

fn exhaust(e: &mut Engine, who: &str) {
    run(
        e,
        &Command::Bx(BxCommand::OseCondition {
            combatant: cid(who),
            condition: OseCondition::Exhausted,
            on: true,
        }),
    );
}

fn pass(e: &mut Engine, rest: bool) -> Vec<GameEvent> {
    run(
        e,
        &Command::Bx(BxCommand::ExplorationTurn {
            wandering: None,
            rest,
        }),
    )
}

fn cleared(who: &str) -> GameEvent {
    GameEvent::Bx(BxEvent::OseConditionChanged {
        combatant: cid(who),
        condition: OseCondition::Exhausted,
        on: false,
    })
}

/// ose-adventuring.txt § Evasion and Pursuit, Running (Resting: "three full turns"): the third
/// exploration turn of rest in a row clears the party's exhaustion, by itself and drawing no
/// dice; a turn without rest starts the count again; an exhausted monster keeps its condition
/// (the party rests, not the monsters: the GM's).
#[test]
fn three_turns_of_rest_end_exhaustion_running_resting() {
    let mut e = new_engine(&arena_with("", 30, 9), 4);
    exhaust(&mut e, "ada");
    exhaust(&mut e, "goon-1");
    let draws = e.rng().draws();
    // Two turns of rest, then one without: the count starts again.
    for (rest, count) in [(true, 1), (true, 2), (false, 0), (true, 1), (true, 2)] {
        let ev = pass(&mut e, rest);
        assert_eq!(ev.len(), 1, "{ev:?}");
        assert!(exhausted(&e, "ada"));
        assert_eq!(sheet(&e, "ada").rested_turns, count);
        assert_eq!(sheet(&e, "goon-1").rested_turns, 0, "monsters do not rest");
    }
    // Bram becomes exhausted now: his count starts at 0 while Ada's third turn comes.
    exhaust(&mut e, "bram");
    let ev = pass(&mut e, true);
    assert!(
        matches!(
            ev.as_slice(),
            [GameEvent::Bx(BxEvent::ExplorationTurnPassed { rested: true, .. }), c] if *c == cleared("ada")
        ),
        "{ev:?}"
    );
    assert!(!exhausted(&e, "ada"));
    assert_eq!(sheet(&e, "ada").rested_turns, 0);
    assert!(exhausted(&e, "bram"));
    assert_eq!(sheet(&e, "bram").rested_turns, 1);
    assert!(exhausted(&e, "goon-1"));
    // Two more turns of rest: Bram's third.
    assert_eq!(pass(&mut e, true).len(), 1);
    let ev = pass(&mut e, true);
    assert_eq!(ev.last(), Some(&cleared("bram")), "{ev:?}");
    assert!(!exhausted(&e, "bram"));
    // Nobody exhausted among the party: a rest changes nothing else.
    assert_eq!(pass(&mut e, true).len(), 1);
    assert!(exhausted(&e, "goon-1"));
    assert_eq!(e.rng().draws(), draws, "resting rolls nothing");
}
