//! ose-adventuring.txt § Starvation in `ose` sessions' `pass_day`: the referee's, so days
//! without food or water are counted but cost nothing by themselves (Basic Fantasy's § Dungeon
//! Survival stays in `basic-fantasy` sessions: `tests_bf.rs::hunger_and_thirst_dungeon_survival`).

use super::tests::arena_with;
use crate::rules::common::testing::{cid, new_engine, run};
use fray_protocol::Command;
use fray_protocol::bf::{March, Terrain};
use fray_protocol::event::GameEvent;
use fray_protocol::{BxCommand, BxEvent};

/// ose-adventuring.txt § Starvation: "If characters go for a full day or more without food or
/// water, the referee may begin to apply penalties … or even begin to deduct hit points (in
/// extreme cases)" — no automatic hit-point loss and no stop to natural healing (§ Healing) in
/// an `ose` session; the days without are still counted for the referee (`bf.unfed`,
/// `bf.thirsty`).
#[test]
fn days_without_food_or_water_are_the_referees_starvation() {
    let mut e = new_engine(&arena_with("", 9, 9), 5);
    let starve = Command::Bx(BxCommand::PassDay {
        march: March::Normal,
        terrain: Terrain::Clear,
        unfed: vec![cid("ada")],
        no_water: vec![cid("bram")],
        leader: None,
        water: None,
    });
    for n in 1..=4 {
        let ev = run(&mut e, &starve);
        assert!(
            !ev.iter().any(|x| matches!(x, GameEvent::Damaged { .. })),
            "{ev:?}"
        );
        let fed = ev
            .iter()
            .find_map(|x| match x {
                GameEvent::Bx(BxEvent::DayPassed { fed, watered, .. }) => {
                    Some((fed.clone(), watered.clone()))
                }
                _ => None,
            })
            .unwrap();
        assert!(fed.0.contains(&(cid("ada"), false)) && fed.1.contains(&(cid("bram"), false)));
        let st = e.state().ose.unwrap().bf;
        assert_eq!(st.days_without(&cid("ada"), false), n);
        assert_eq!(st.days_without(&cid("bram"), true), n);
    }
    for who in ["ada", "bram"] {
        let ev = run(
            &mut e,
            &Command::Bx(BxCommand::NaturalHealing {
                combatant: cid(who),
                days: 1,
            }),
        );
        assert!(
            matches!(ev.as_slice(), [GameEvent::Healed { .. }]),
            "{ev:?}"
        );
    }
}
