//! Five Torches Deep concentration through the real engine: started and maintained by the
//! quick action, lapsing, dropped, halted by a retreat, ended by incapacitation.

use super::tests::{arena, end, started, turn_of};
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, current, refuse, run};
use fray_protocol::event::GameEvent;
use fray_protocol::ftd::{Ability, Advantage, Concentration, ConcentrationEnd};
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{FiveTorchesCommand, FiveTorchesEvent};

fn concentrate(who: &str, effect: &str) -> Command {
    Command::FiveTorches(FiveTorchesCommand::Concentrate {
        actor: cid(who),
        effect: effect.into(),
    })
}

fn held(e: &Engine, who: &str) -> Option<Concentration> {
    cs(e, who).ftd.and_then(|f| f.concentration)
}

fn ended(ev: &[GameEvent]) -> Vec<(String, ConcentrationEnd)> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::FiveTorches(FiveTorchesEvent::ConcentrationEnded {
                combatant,
                reason,
                ..
            }) => Some((combatant.to_string(), *reason)),
            _ => None,
        })
        .collect()
}

/// five-torches-deep-combat.txt § Quick Actions ("maintaining concentration … are quick
/// actions"): starting spends the quick action, each later turn's quick action maintains it,
/// and a turn without it lapses the concentration; refusals draw nothing.
#[test]
fn concentration_is_maintained_by_the_quick_action_quick_actions() {
    let enc = arena(14, 14, "1d6");
    let mut e = started(&enc, 6);
    assert_eq!(
        refuse(&mut e, &concentrate("ada", "bless")),
        ErrorCode::NotYourTurn
    );
    turn_of(&mut e, "ada");
    assert_eq!(
        refuse(&mut e, &concentrate("ada", " ")),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        refuse(
            &mut e,
            &Command::FiveTorches(FiveTorchesCommand::EndConcentration { actor: cid("ada") })
        ),
        ErrorCode::NotConcentrating
    );
    let ev = run(&mut e, &concentrate("ada", "bless"));
    assert!(
        ev.contains(&GameEvent::FiveTorches(FiveTorchesEvent::Concentrating {
            combatant: cid("ada"),
            effect: "bless".into(),
            maintained: false
        }))
    );
    assert!(!cs(&e, "ada").actions.quick);
    assert_eq!(
        held(&e, "ada"),
        Some(Concentration {
            effect: "bless".into(),
            maintained: true
        })
    );
    assert_eq!(
        refuse(&mut e, &concentrate("ada", "bless")),
        ErrorCode::AlreadyConcentrating
    );
    assert_eq!(
        refuse(&mut e, &concentrate("ada", "shield")),
        ErrorCode::AlreadyConcentrating
    );
    // Started this turn: ending the turn keeps it.
    let ev = run(&mut e, &end("ada"));
    assert!(ended(&ev).is_empty());
    // Next turn: maintained (the quick action again).
    turn_of(&mut e, "ada");
    assert!(!held(&e, "ada").is_some_and(|c| c.maintained));
    let ev = run(&mut e, &concentrate("ada", "bless"));
    assert!(
        ev.contains(&GameEvent::FiveTorches(FiveTorchesEvent::Concentrating {
            combatant: cid("ada"),
            effect: "bless".into(),
            maintained: true
        }))
    );
    run(&mut e, &end("ada"));
    assert!(held(&e, "ada").is_some());
    // A turn without it: lapses at the end of the turn.
    turn_of(&mut e, "ada");
    let ev = run(&mut e, &end("ada"));
    assert_eq!(ended(&ev), vec![("ada".into(), ConcentrationEnd::Lapsed)]);
    let at = |x: fn(&GameEvent) -> bool| ev.iter().position(x);
    assert!(
        at(|x| matches!(
            x,
            GameEvent::FiveTorches(FiveTorchesEvent::ConcentrationEnded { .. })
        )) < at(|x| matches!(x, GameEvent::TurnEnded { .. }))
    );
    assert_eq!(held(&e, "ada"), None);
    // Dropped freely, even out of turn.
    turn_of(&mut e, "ada");
    run(&mut e, &concentrate("ada", "light"));
    run(&mut e, &end("ada"));
    assert_ne!(current(&e), "ada");
    let ev = run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::EndConcentration { actor: cid("ada") }),
    );
    assert_eq!(ended(&ev), vec![("ada".into(), ConcentrationEnd::Dropped)]);
    assert_eq!(held(&e, "ada"), None);
}

/// five-torches-deep-combat.txt § Retreat ("Concentration effects immediately halt once the
/// PC retreats").
#[test]
fn a_retreat_halts_concentration_retreat() {
    let enc = arena(1, 12, "1");
    let mut e = started(&enc, 1);
    turn_of(&mut e, "ada");
    run(&mut e, &concentrate("ada", "bless"));
    run(&mut e, &end("ada"));
    turn_of(&mut e, "ada");
    let ev = run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::Retreat { actor: cid("ada") }),
    );
    assert_eq!(ended(&ev), vec![("ada".into(), ConcentrationEnd::Retreat)]);
    assert_eq!(held(&e, "ada"), None);
    // The retreat took the whole turn: nothing left to maintain a concentration with.
    assert_eq!(
        refuse(&mut e, &concentrate("ada", "bless")),
        ErrorCode::ActionAlreadyUsed
    );
}

/// five-torches-deep-combat.txt § Death & Injury ("incapacitated and unable to act") with
/// § Quick Actions: an incapacitated combatant cannot maintain a concentration — it ends
/// (interpretation).
#[test]
fn incapacitation_ends_concentration_quick_actions() {
    let enc = arena(14, 14, "1d6");
    let mut e = started(&enc, 3);
    turn_of(&mut e, "ada");
    run(&mut e, &concentrate("ada", "bless"));
    run(&mut e, &end("ada"));
    // Falling rocks (the GM's check against harm, DC 40: it fails) drop her to 0 hp.
    let ev = run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::Check {
            combatant: cid("ada"),
            ability: Ability::Str,
            dc: 40,
            proficient: false,
            advantage: Advantage::None,
            damage: Some("30".into()),
            purpose: Some("falling rocks".into()),
            task: None,
        }),
    );
    let fell = ev
        .iter()
        .position(|x| matches!(x, GameEvent::FellUnconscious { .. }));
    let over = ev.iter().position(|x| {
        matches!(
            x,
            GameEvent::FiveTorches(FiveTorchesEvent::ConcentrationEnded { .. })
        )
    });
    assert!(fell.is_some() && fell < over, "{ev:?}");
    assert_eq!(
        ended(&ev),
        vec![("ada".into(), ConcentrationEnd::Incapacitated)]
    );
    assert_eq!(held(&e, "ada"), None);
}

/// five-torches-deep-combat.txt § Quick Actions: a turn whose quick action went elsewhere (a
/// readied action, then the movement action that could be traded down) cannot maintain the concentration — it lapses; § Morale: a combatant that
/// flees leaves the battle and its concentration with it (interpretation).
#[test]
fn a_spent_quick_action_or_a_rout_ends_concentration_quick_actions() {
    use fray_protocol::event::ActionKind;
    use fray_protocol::ftd::MoraleOutcome;
    let enc = arena(14, 14, "1d6");
    let mut e = started(&enc, 6);
    turn_of(&mut e, "ada");
    run(&mut e, &concentrate("ada", "bless"));
    run(&mut e, &end("ada"));
    turn_of(&mut e, "ada");
    run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::ReadyAction {
            actor: cid("ada"),
            action: ActionKind::Standard,
            trigger: "a goon comes close".into(),
        }),
    );
    // The movement action could still pay for it (traded down): spent on moving, the turn
    // ends by itself (nothing left) and the concentration lapses before it does.
    let ev = run(&mut e, &super::tests::close_to("ada", "goon-1"));
    assert_eq!(ended(&ev), vec![("ada".into(), ConcentrationEnd::Lapsed)]);
    assert!(ev.iter().any(|x| matches!(x, GameEvent::TurnEnded { .. })));
    assert_eq!(held(&e, "ada"), None);
    // A goon concentrating breaks and flees.
    let mut routed = false;
    for seed in 0..60 {
        let mut e = started(&enc, seed);
        turn_of(&mut e, "goon-1");
        run(&mut e, &concentrate("goon-1", "hex"));
        let ev = run(
            &mut e,
            &Command::FiveTorches(FiveTorchesCommand::MoraleCheck {
                combatants: vec![cid("goon-1")],
                group: false,
                advantage: Advantage::None,
                on_failure: MoraleOutcome::Flee,
            }),
        );
        if ev.iter().any(|x| matches!(x, GameEvent::LeftBattle { .. })) {
            assert_eq!(
                ended(&ev),
                vec![("goon-1".into(), ConcentrationEnd::LeftBattle)]
            );
            assert_eq!(held(&e, "goon-1"), None);
            routed = true;
            break;
        }
        assert!(held(&e, "goon-1").is_some());
    }
    assert!(routed, "no seed routed the goon");
}
