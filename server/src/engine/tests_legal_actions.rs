//! The legal actions (`Engine::legal_actions`, `Engine::check`): checking decides without
//! changing anything, every listed action is accepted when sent, and a fight can be played to
//! its end from the listed actions alone, in every ruleset.

use super::Engine;
use crate::rules::common::testing::new_engine;
use crate::rules::{builtin_encounters, ids, load_encounter, ruleset};
use fray_protocol::state::Phase;
use fray_protocol::{BxCommand, CombatantId, Command, LegalAction};

fn everyone(e: &Engine) -> Vec<CombatantId> {
    e.state().combatants.into_iter().map(|c| c.id).collect()
}

fn gm_actions(e: &mut Engine) -> Vec<LegalAction> {
    e.legal_actions(None)
}

/// The action a test player picks: an attack when there is one (so that fights end), else
/// anything but ending the battle, the session or fleeing, else the end of a turn; `salt` varies
/// the pick among equals.
fn pick(actions: &[LegalAction], salt: usize) -> Option<&LegalAction> {
    let is_attack = |a: &&LegalAction| {
        matches!(
            a.command,
            Command::Attack { .. } | Command::Bx(BxCommand::OseAttack { .. })
        )
    };
    let quitting = |a: &&LegalAction| {
        matches!(
            a.command,
            Command::EndBattle | Command::EndSession | Command::Flee | Command::EndTurn { .. }
        )
    };
    let attacks: Vec<&LegalAction> = actions.iter().filter(is_attack).collect();
    if !attacks.is_empty() {
        return attacks.get(salt % attacks.len()).copied();
    }
    let start = actions
        .iter()
        .find(|a| matches!(a.command, Command::StartBattle));
    if start.is_some() {
        return start;
    }
    let ends = actions
        .iter()
        .find(|a| matches!(a.command, Command::EndTurn { .. }));
    ends.or_else(|| actions.iter().find(|a| !quitting(a)))
}

#[test]
fn listing_the_legal_actions_changes_nothing_and_draws_no_die() {
    let (name, text) = builtin_encounters("13th-age")[0];
    let enc = load_encounter(name, text).unwrap();
    let mut e = new_engine(&enc, 5);
    e.execute(&Command::StartBattle).unwrap();
    let (hash, draws) = (e.state_hash(), e.rng().draws());
    let actions = gm_actions(&mut e);
    assert!(actions.len() > 3, "{actions:?}");
    assert_eq!((e.state_hash(), e.rng().draws()), (hash, draws));
}

#[test]
fn check_answers_what_execute_answers() {
    let (name, text) = builtin_encounters("13th-age")[0];
    let enc = load_encounter(name, text).unwrap();
    let mut e = new_engine(&enc, 5);
    let early = Command::EndTurn {
        actor: everyone(&e)[0].clone(),
    };
    let refused = e.check(&early).unwrap_err();
    assert_eq!(e.execute(&early).unwrap_err(), refused);
    assert_eq!(e.check(&Command::StartBattle), Ok(()));
    assert!(!e.execute(&Command::StartBattle).unwrap().is_empty());
}

/// Plays a session from the GM's legal actions alone; every pick must be accepted. `pick`
/// chooses among the listed actions.
fn play_from_legal_actions(
    ruleset_id: &str,
    name: &str,
    text: &str,
    max_ticks: usize,
    pick: fn(&[LegalAction], usize) -> Option<&LegalAction>,
) -> Phase {
    let enc = load_encounter(name, text).unwrap();
    let mut e = new_engine(&enc, 11);
    for tick in 0..max_ticks {
        let s = e.state();
        if s.phase == Phase::Ended {
            return s.phase;
        }
        let actions = gm_actions(&mut e);
        let Some(a) = pick(&actions, tick) else {
            panic!(
                "{ruleset_id}/{name}: no legal action at tick {tick} ({:?})",
                s.phase
            );
        };
        if let Err(r) = e.execute(&a.command) {
            panic!("{ruleset_id}/{name}: the listed action {a:?} was refused: {r}");
        }
    }
    e.state().phase
}

/// Any listed action but those that end the battle or the session.
fn any(actions: &[LegalAction], salt: usize) -> Option<&LegalAction> {
    let going_on: Vec<&LegalAction> = actions
        .iter()
        .filter(|a| {
            !matches!(
                a.command,
                Command::EndBattle | Command::EndSession | Command::Flee
            )
        })
        .collect();
    let n = going_on.len().max(1);
    going_on.get(salt.wrapping_mul(7919) % n).copied()
}

#[test]
fn a_13th_age_fight_played_from_the_legal_actions_alone_reaches_its_end() {
    for (name, text) in builtin_encounters("13th-age") {
        let phase = play_from_legal_actions("13th-age", name, text, 600, pick);
        assert_eq!(phase, Phase::Ended, "13th-age/{name}");
    }
}

#[test]
fn a_listed_action_picked_at_random_is_always_accepted_in_every_ruleset() {
    for id in ids() {
        assert!(ruleset(id).is_some());
        for (name, text) in builtin_encounters(id) {
            play_from_legal_actions(id, name, text, 60, any);
            play_from_legal_actions(id, name, text, 30, pick);
        }
    }
}

/// Orcus from the listed actions: an attack when one is listed, else the walk that ends nearest
/// an enemy, else the end of the turn.
fn orcus_pick(e: &mut Engine, salt: usize) -> Option<Command> {
    use fray_protocol::OrcusCommand;
    let s = e.state();
    let actions = gm_actions(e);
    let attacks: Vec<&LegalAction> = actions
        .iter()
        .filter(|a| {
            matches!(
                a.command,
                Command::Attack { .. } | Command::Orcus(OrcusCommand::AreaAttack { .. })
            )
        })
        .collect();
    if !attacks.is_empty() {
        return attacks.get(salt % attacks.len()).map(|a| a.command.clone());
    }
    if let Some(a) = actions
        .iter()
        .find(|a| matches!(a.command, Command::StartBattle))
    {
        return Some(a.command.clone());
    }
    let current = s.current.as_ref().and_then(|c| s.combatant(c))?;
    let foes: Vec<_> = s
        .combatants
        .iter()
        .filter(|c| c.side != current.side && !c.status.is_out())
        .filter_map(|c| c.grid.as_ref().map(|g| g.square))
        .collect();
    let gap = |q: fray_protocol::grid::Square| {
        foes.iter()
            .map(|f| (f.x - q.x).abs().max((f.y - q.y).abs()))
            .min()
            .unwrap_or(i32::MAX)
    };
    let here = current.grid.as_ref().map_or(i32::MAX, |g| gap(g.square));
    let walk = actions
        .iter()
        .filter_map(|a| match &a.command {
            Command::Orcus(OrcusCommand::MoveTo { path, .. }) if a.group == "Walk" => {
                path.last().map(|q| (gap(*q), a))
            }
            _ => None,
        })
        .filter(|(d, _)| *d < here)
        .min_by_key(|(d, _)| *d);
    if let Some((_, a)) = walk {
        return Some(a.command.clone());
    }
    actions
        .iter()
        .find(|a| matches!(a.command, Command::EndTurn { .. }))
        .map(|a| a.command.clone())
}

#[test]
fn an_orcus_fight_played_from_the_legal_actions_alone_reaches_its_end() {
    let (name, text) = builtin_encounters("orcus")[0];
    let enc = load_encounter(name, text).unwrap();
    let mut e = new_engine(&enc, 3);
    for tick in 0..1500 {
        if e.state().phase == Phase::Ended {
            return;
        }
        let Some(cmd) = orcus_pick(&mut e, tick) else {
            panic!("orcus/{name}: nothing to pick at tick {tick}");
        };
        if let Err(r) = e.execute(&cmd) {
            panic!("orcus/{name}: the listed {cmd:?} was refused: {r}");
        }
    }
    panic!("orcus/{name}: the fight did not end in 1,500 commands");
}

// Issue 20: the GM's overrides are among its legal actions, each ruleset's as its registry row
// says (its conditions, per-combatant initiative, squares).
#[test]
fn the_gm_is_offered_its_overrides_as_each_ruleset_allows_them() {
    use crate::rules::registry::InitiativeRule;
    for id in ids() {
        let row = ruleset(id).unwrap();
        let (name, text) = builtin_encounters(id)[0];
        let enc = load_encounter(name, text).unwrap();
        let mut e = new_engine(&enc, 5);
        e.execute(&Command::StartBattle).unwrap();
        let hero = everyone(&e)
            .into_iter()
            .find(|c| {
                e.state()
                    .combatant(c)
                    .is_some_and(|s| s.side == fray_protocol::Side::Heroes)
            })
            .unwrap();
        e.execute(&Command::SetHp {
            target: hero.clone(),
            hp: 1,
            temp_hp: None,
        })
        .unwrap();
        let actions = gm_actions(&mut e);
        let has = |f: &dyn Fn(&Command) -> bool| actions.iter().any(|a| f(&a.command));
        assert!(
            has(&|c| matches!(c, Command::SetHp { target, .. } if *target == hero)),
            "{id}"
        );
        assert!(
            has(&|c| matches!(c, Command::RemoveCombatant { .. })),
            "{id}"
        );
        assert!(has(&|c| matches!(c, Command::AddCombatant { .. })), "{id}");
        let conditions = row.conditions.names();
        assert_eq!(
            has(
                &|c| matches!(c, Command::AddCondition { condition, .. } if conditions.contains(condition))
            ),
            !conditions.is_empty(),
            "{id}"
        );
        assert_eq!(
            has(&|c| matches!(c, Command::SetInitiative { .. })),
            row.initiative != InitiativeRule::PerSide,
            "{id}"
        );
        let on_grid = row.parts.place.is_some();
        assert_eq!(
            has(&|c| matches!(
                c,
                Command::Orcus(fray_protocol::OrcusCommand::PlaceToken { .. })
            )),
            on_grid,
            "{id}"
        );
        assert_eq!(
            has(&|c| matches!(
                c,
                Command::AddCombatant {
                    square: Some(_),
                    ..
                }
            )),
            on_grid,
            "{id}"
        );
        // In 13th Age a condition is offered for removal where it is.
        if id == "13th-age" {
            let dazed = |target: &CombatantId| Command::RemoveCondition {
                target: target.clone(),
                condition: "dazed".into(),
            };
            assert!(!actions.iter().any(|a| a.command == dazed(&hero)));
            e.execute(&Command::AddCondition {
                target: hero.clone(),
                condition: "dazed".into(),
                duration: None,
                source: None,
            })
            .unwrap();
            let now = gm_actions(&mut e);
            assert!(now.iter().any(|a| a.command == dazed(&hero)));
        }
        // Each listed override is accepted when sent.
        for a in actions.iter().filter(|a| a.actor.is_none()).take(40) {
            let mut fresh = new_engine(&enc, 5);
            fresh.execute(&Command::StartBattle).unwrap();
            fresh
                .execute(&Command::SetHp {
                    target: hero.clone(),
                    hp: 1,
                    temp_hp: None,
                })
                .unwrap();
            assert!(fresh.execute(&a.command).is_ok(), "{id}: {a:?}");
        }
    }
}

/// `Engine::check` tells the ruleset that only the answer matters, and Orcus then leaves out its
/// sweeps (they follow a decided command and cannot refuse it). Over the steps of the Orcus
/// goldens, every candidate of the GM's legal actions — accepted or not — gets the same answer
/// as a full decide with the sweeps.
#[test]
fn a_check_without_the_sweeps_answers_as_a_full_decide_at_every_step_of_the_orcus_goldens() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../replays/orcus");
    let mut fights: Vec<_> = std::fs::read_dir(&dir)
        .expect("replays/orcus")
        .map(|e| e.expect("entry").path())
        .collect();
    fights.sort();
    let (mut compared, mut refused) = (0usize, 0usize);
    for path in fights {
        let fight = crate::replay::read_log(&path).expect("the golden reads");
        let mut e = crate::session::engine_for(fight.genesis()).expect("an engine");
        // Every eighth step (each check is a whole decide; all steps take a minute unoptimized).
        for (step, command) in fight.commands().enumerate() {
            let sampled = if step % 8 == 0 {
                e.candidates(None)
            } else {
                Vec::new()
            };
            for candidate in sampled {
                let quick = e.check(&candidate.command).map_err(|r| r.code);
                let full = e
                    .check_with(&candidate.command, super::CheckOnly(false))
                    .map_err(|r| r.code);
                assert_eq!(quick, full, "{}: {:?}", path.display(), candidate.command);
                compared += 1;
                refused += usize::from(full.is_err());
            }
            e.execute(command)
                .expect("the recorded command is accepted");
        }
    }
    assert!(
        compared > 1000 && refused > 0,
        "{compared} compared, {refused} refused"
    );
}
