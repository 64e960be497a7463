//! The GM's reinforcements: where a grid ruleset lets one appear, and the ids and names they
//! get (`add_combatant`, `rules/common/overrides.rs`).

use super::tests_more::{add, encounter, folds_alike, monster_template};
use crate::rules::common::testing::*;
use fray_protocol::grid::Square;
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::{Command, ErrorCode, GameEvent};

/// The id and name a `combatant_added` among `events` gives.
fn added(events: &[GameEvent]) -> (CombatantId, String) {
    events
        .iter()
        .find_map(|e| match e {
            GameEvent::CombatantAdded {
                combatant, name, ..
            } => Some((combatant.clone(), name.clone())),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no combatant_added in {events:?}"))
}

#[test]
fn an_orcus_reinforcement_is_refused_off_the_map_on_a_wall_and_on_a_creature_and_draws_nothing() {
    let enc = encounter("orcus");
    let mut e = new_engine(&enc, 4);
    run(&mut e, &Command::StartBattle);
    let template = monster_template(&enc);
    let state = e.state();
    let map = state.map.as_ref().expect("an Orcus encounter has a map");
    let off = Square { x: map.width, y: 0 };
    let r = refusal(&mut e, &add(&template, Some(off)));
    assert_eq!(r.code, ErrorCode::InvalidArgument);
    assert!(r.message.contains("off the map"), "{}", r.message);
    let taken = state
        .combatants
        .iter()
        .find_map(|c| c.grid.as_ref().map(|g| g.square))
        .unwrap();
    let r = refusal(&mut e, &add(&template, Some(taken)));
    assert!(r.message.contains("is taken"), "{}", r.message);
    if let Some(wall) = map.blocking.first().copied() {
        let r = refusal(&mut e, &add(&template, Some(wall)));
        assert!(r.message.contains("wall"), "{}", r.message);
    }
    let r = refusal(&mut e, &add(&template, None));
    assert!(r.message.contains("needs a square"), "{}", r.message);
}

#[test]
fn an_orcus_reinforcement_on_a_free_square_stands_there() {
    let enc = encounter("orcus");
    let mut e = new_engine(&enc, 4);
    run(&mut e, &Command::StartBattle);
    let template = monster_template(&enc);
    let free = (0..12)
        .flat_map(|y| (0..12).map(move |x| Square { x, y }))
        .find(|s| e.check(&add(&template, Some(*s))).is_ok())
        .expect("a free square");
    let (id, _) = added(&run(&mut e, &add(&template, Some(free))));
    let grid = e.state().combatant(&id).and_then(|c| c.grid.clone());
    assert_eq!(grid.map(|g| g.square), Some(free));
}

#[test]
fn a_removed_or_rewound_reinforcements_id_is_never_given_again_and_names_are_distinct() {
    let enc = encounter("13th-age");
    let mut e = new_engine(&enc, 7);
    run(&mut e, &Command::StartBattle);
    let template = monster_template(&enc);
    let before = e.state();
    let (first, first_name) = added(&run(&mut e, &add(&template, None)));
    let names: Vec<String> = before.combatants.iter().map(|c| c.name.clone()).collect();
    assert!(!names.contains(&first_name), "{first_name} in {names:?}");
    run(
        &mut e,
        &Command::RemoveCombatant {
            combatant: first.clone(),
        },
    );
    let (second, second_name) = added(&run(&mut e, &add(&template, None)));
    assert_ne!(second, first, "a removed reinforcement's id is not reused");
    let now: Vec<String> = e
        .state()
        .combatants
        .iter()
        .map(|c| c.name.clone())
        .collect();
    assert_eq!(
        now.iter().filter(|n| **n == second_name).count(),
        1,
        "{now:?}"
    );
    // A rewind to before both: the ids stay taken.
    e.restore_state(&enc, &before).unwrap();
    let (third, _) = added(&run(&mut e, &add(&template, None)));
    assert!(third != first && third != second, "{third}");
}

#[test]
fn a_session_restored_from_a_state_learns_the_ids_its_log_gave() {
    let enc = encounter("13th-age");
    let mut e = new_engine(&enc, 7);
    run(&mut e, &Command::StartBattle);
    let template = monster_template(&enc);
    let (first, _) = added(&run(&mut e, &add(&template, None)));
    run(
        &mut e,
        &Command::RemoveCombatant {
            combatant: first.clone(),
        },
    );
    let mut restored = crate::engine::Engine::restore(
        &enc,
        &e.state(),
        crate::dice::SessionRng::from_seed(7),
        secret(7),
    )
    .unwrap();
    restored.note_added_ids([&first]);
    let (next, _) = added(&run(&mut restored, &add(&template, None)));
    assert_ne!(next, first);
}

#[test]
fn a_session_reopened_from_a_snapshot_after_a_removal_gives_the_removed_id_to_no_one() {
    use crate::session::{Session, SessionConfig};
    let dir = tempfile::tempdir().unwrap();
    let config = SessionConfig {
        snapshot_every: 1,
        ..SessionConfig::default()
    };
    let mut s = crate::session::testing::session_in("13th-age", dir.path(), 7, config.clone());
    let send = |s: &mut Session, c: &Command| -> Vec<GameEvent> {
        let staged = s.stage("gm", s.tick() + 1, c).unwrap();
        s.commit().unwrap();
        staged.events.into_iter().map(|e| e.event).collect()
    };
    send(&mut s, &Command::StartBattle);
    let template = s
        .state()
        .combatants
        .iter()
        .find(|c| c.side == Side::Monsters)
        .map(|c| c.template.clone())
        .unwrap();
    let (first, _) = added(&send(&mut s, &add(&template, None)));
    send(
        &mut s,
        &Command::RemoveCombatant {
            combatant: first.clone(),
        },
    );
    // A snapshot follows every commit here: the reopened session starts from one taken after
    // the removal, whose state no longer names the removed reinforcement.
    s.flush().unwrap();
    drop(s);
    let (mut reopened, _) =
        Session::open(crate::log::FsStorage::open(dir.path()).unwrap(), config).unwrap();
    let (next, _) = added(&send(&mut reopened, &add(&template, None)));
    assert_ne!(next, first, "the removed reinforcement's id stays taken");
}

/// A free square for a reinforcement of `template` (Orcus), `None` elsewhere.
fn free_square(e: &mut crate::engine::Engine, template: &str) -> Option<Square> {
    e.state().map.as_ref()?;
    (0..16)
        .flat_map(|y| (0..16).map(move |x| Square { x, y }))
        .find(|s| e.check(&add(template, Some(*s))).is_ok())
}

#[test]
fn a_built_in_monster_no_battle_fields_joins_as_a_reinforcement_in_every_ruleset() {
    for ruleset in crate::rules::ids() {
        let enc = encounter(ruleset);
        let reserve = enc
            .reserves
            .first()
            .unwrap_or_else(|| panic!("{ruleset}: no reserves"))
            .clone();
        assert!(
            !enc.combatants
                .iter()
                .any(|c| c.template == reserve.template),
            "{ruleset}: {} is fielded",
            reserve.template
        );
        let mut e = new_engine(&enc, 9);
        let mut log = run(&mut e, &Command::StartBattle);
        let square = free_square(&mut e, &reserve.template);
        let events = run(&mut e, &add(&reserve.template, square));
        let (id, name) = added(&events);
        assert_eq!(id.as_str(), format!("{}-1", reserve.template), "{ruleset}");
        log.extend(events);
        let state = e.state();
        let c = state
            .combatant(&id)
            .expect("the reinforcement is in the fight");
        assert_eq!(
            (c.template.as_str(), c.side, c.hp, c.name.as_str()),
            (
                reserve.template.as_str(),
                Side::Monsters,
                c.max_hp,
                name.as_str()
            ),
            "{ruleset}"
        );
        // The GM is offered it where the ruleset has no squares.
        if square.is_none() {
            let offered = e.legal_actions(None).into_iter().any(|a| {
                matches!(&a.command, Command::AddCombatant { template, .. } if *template == reserve.template)
            });
            assert!(offered, "{ruleset}: {} not offered", reserve.template);
        }
        folds_alike(&enc, 9, &e, &log);
    }
}

#[test]
fn a_session_of_record_format_3_has_no_reserves_and_refuses_a_built_in_reinforcement() {
    use fray_protocol::codec::{from_bincode_record, to_bincode};
    use fray_protocol::format::in_record_format;
    let enc = encounter("13th-age");
    let reserve = enc.reserves[0].template.clone();
    let old: crate::content::model::Encounter = in_record_format(3, || {
        let bytes = to_bincode(&enc).unwrap();
        from_bincode_record(&bytes).unwrap()
    });
    assert!(old.reserves.is_empty());
    assert_eq!(old.combatants, enc.combatants);
    let mut e = new_engine(&old, 9);
    run(&mut e, &Command::StartBattle);
    let r = refusal(&mut e, &add(&reserve, None));
    assert_eq!(r.code, ErrorCode::InvalidArgument);
    assert!(r.message.contains(&monster_template(&enc)), "{}", r.message);
}
