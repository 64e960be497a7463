//! The tick's guards: the one `wrong_ruleset` check and fail-stop (`engine/mod.rs`, the tick's
//! steps 2 and "Fail-stop"). A test ruleset of a few lines plays the broken rules.

use super::{Engine, world};
use crate::dice::SessionRng;
use crate::ecs::components::{Outbox, Pending, SeedSecret};
use crate::rules::{builtin_encounters, load_encounter};
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::Schedule;
use fray_protocol::{Command, ErrorCode, Family, GameEvent, OrcusCommand, ThirteenthAgeCommand};

fn secret() -> SeedSecret {
    SeedSecret {
        seed: 7,
        salt: "00".repeat(16),
    }
}

fn thirteenth_age_engine() -> Engine {
    let (name, text) = builtin_encounters("13th-age")[0];
    let enc = load_encounter(name, text).expect("built-in content loads");
    Engine::new(&enc, SessionRng::from_seed(7), secret()).expect("13th Age engine")
}

/// An engine over a 13th Age world whose decide systems are `add`.
fn engine_with(add: fn(&mut Schedule)) -> Engine {
    let (name, text) = builtin_encounters("13th-age")[0];
    let enc = load_encounter(name, text).expect("built-in content loads");
    let world = world::build_world(&enc, SessionRng::from_seed(7), secret());
    Engine::with_systems(world, Family::ThirteenthAge, add)
}

fn pending(p: Res<Pending>) -> bool {
    p.0.is_some()
}

fn accept_with_one_event(mut out: ResMut<Outbox>) {
    out.events.push(GameEvent::BattleStarted);
}

fn never_settle(mut out: ResMut<Outbox>) {
    out.events.push(GameEvent::BattleStarted);
}

fn refuse_after_apply(mut out: ResMut<Outbox>, mut refused: Local<bool>) {
    if !*refused {
        *refused = true;
        out.rejection = Some(fray_protocol::Rejection::new(
            ErrorCode::InvalidArgument,
            "a turn pass that refuses",
        ));
    }
}

#[test]
fn another_familys_command_is_refused_with_wrong_ruleset_before_any_die() {
    let mut e = thirteenth_age_engine();
    let draws = e.rng().draws();
    let before = e.state_hash();
    let cmd = Command::Orcus(OrcusCommand::Search {
        actor: fray_protocol::CombatantId::new("brakka"),
    });
    let r = e
        .execute(&cmd)
        .expect_err("an Orcus command in a 13th Age session");
    assert_eq!(r.code, ErrorCode::WrongRuleset);
    assert!(r.message.contains("'search'"), "{}", r.message);
    assert!(
        r.message.contains("13th Age") && r.message.contains("Orcus"),
        "{}",
        r.message
    );
    assert_eq!(e.rng().draws(), draws);
    assert_eq!(e.state_hash(), before);
    assert!(e.broken().is_none());
    // The session's own family and the common part are decided as before.
    let own = Command::ThirteenthAge(ThirteenthAgeCommand::Escalation {
        action: fray_protocol::command::EscalationAction::Hold,
    });
    assert_ne!(
        e.execute(&own).map_err(|r| r.code),
        Err(ErrorCode::WrongRuleset)
    );
    assert!(e.execute(&Command::StartBattle).is_ok());
}

#[test]
fn turn_machinery_that_never_settles_breaks_the_engine_instead_of_refusing() {
    let mut e = engine_with(|s| {
        s.add_systems(
            (
                accept_with_one_event.run_if(pending),
                never_settle.run_if(not(pending)),
            )
                .chain(),
        );
    });
    let r = e.execute(&Command::StartBattle).expect_err("never settles");
    assert_eq!(r.code, ErrorCode::SessionUnavailable);
    assert!(r.message.contains("did not settle"), "{}", r.message);
    assert!(e.broken().is_some_and(|w| w.contains("did not settle")));
    // Broken stays broken: nothing more is decided on a world that differs from the log.
    let again = e.execute(&Command::EndBattle).expect_err("broken");
    assert_eq!(again.code, ErrorCode::SessionUnavailable);
}

#[test]
fn a_turn_pass_that_refuses_after_events_were_applied_breaks_the_engine() {
    let mut e = engine_with(|s| {
        s.add_systems(
            (
                accept_with_one_event.run_if(pending),
                refuse_after_apply.run_if(not(pending)),
            )
                .chain(),
        );
    });
    let r = e
        .execute(&Command::StartBattle)
        .expect_err("refused after apply");
    assert_eq!(r.code, ErrorCode::SessionUnavailable);
    assert!(
        e.broken()
            .is_some_and(|w| w.contains("a turn pass that refuses"))
    );
}

#[test]
fn a_refusal_before_any_event_leaves_the_engine_sound() {
    let mut e = engine_with(|s| {
        s.add_systems(refuse_after_apply.run_if(pending));
    });
    let r = e.execute(&Command::StartBattle).expect_err("refused");
    assert_eq!(r.code, ErrorCode::InvalidArgument);
    assert!(e.broken().is_none());
}
