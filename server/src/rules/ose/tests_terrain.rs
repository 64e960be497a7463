//! ose-adventuring.txt § Wilderness Adventuring by OSE's own terrain names (`terrain.rs`), and
//! Basic Fantasy's reading of them by class.

use super::tests::{arena_text, arena_with};
use super::wilderness::{day_miles, lost_chance, wandering_chance};
use crate::rules::common::testing::new_engine;
use crate::rules::common::testing::run;
use crate::rules::load_encounter;
use fray_protocol::Command;
use fray_protocol::bf::{March, Terrain};
use fray_protocol::event::GameEvent;
use fray_protocol::ose::SecretCheck;
use fray_protocol::{BxCommand, BxEvent};

fn day(terrain: Terrain) -> Command {
    Command::Bx(BxCommand::PassDay {
        march: March::Normal,
        terrain,
        unfed: Vec::new(),
        no_water: Vec::new(),
        leader: None,
        water: None,
    })
}

/// ose-adventuring.txt § Wilderness Adventuring: Terrain Modifiers (broken lands, desert,
/// forest, hills 33% slower; jungle, mountains, swamp 50% slower; maintained roads 50% faster),
/// Losing Direction (clear, grasslands 1-in-6; barren lands, hills, mountains, woods 2; desert,
/// jungle, swamp 3) and Chance by Terrain (city, clear, grasslands, settled lands 1; barren,
/// desert, forest, hills 2; jungle, mountains, swamp 3): every terrain of the text in its own
/// row (24 miles a day at 120′).
#[test]
fn each_ose_terrain_has_its_own_speed_lost_and_wandering_chances_terrain_modifiers() {
    let table = [
        (Terrain::Clear, 24, 1, 1),
        (Terrain::Grasslands, 24, 1, 1),
        (Terrain::Settled, 24, 1, 1),
        (Terrain::Road, 36, 1, 1),
        (Terrain::Barren, 16, 2, 2),
        (Terrain::Hills, 16, 2, 2),
        (Terrain::Forest, 16, 2, 2),
        (Terrain::Desert, 16, 3, 2),
        (Terrain::Mountains, 12, 2, 3),
        (Terrain::Jungle, 12, 3, 3),
        (Terrain::Swamp, 12, 3, 3),
    ];
    for (t, miles, lost, wandering) in table {
        assert_eq!(day_miles(40, March::Normal, t), miles, "{t:?}");
        assert_eq!(lost_chance(t), lost, "{t:?}");
        assert_eq!(wandering_chance(March::Normal, t), wandering, "{t:?}");
        assert_eq!(wandering_chance(March::Air, t), 2, "aerial");
    }
    // Through the engine: the mountains slow by half and lose the party on 1–2 (chance 4 of
    // staying on course), with a 3-in-6 wandering check.
    let mut e = new_engine(&arena_with("", 9, 9), 1);
    let ev = run(&mut e, &day(Terrain::Mountains));
    let miles = ev.iter().find_map(|x| match x {
        GameEvent::Bx(BxEvent::DayPassed { miles, .. }) => Some(*miles),
        _ => None,
    });
    assert_eq!(miles, Some(12));
    let chances: Vec<(SecretCheck, u32)> = ev
        .iter()
        .filter_map(|x| match x {
            GameEvent::SecretRolled { check, chance, .. } => Some((*check, *chance)),
            _ => None,
        })
        .collect();
    assert_eq!(
        chances,
        [
            (SecretCheck::LostDirection, 4),
            (SecretCheck::WanderingMonster, 3)
        ]
    );
}

/// basic-fantasy-adventures.txt § Overland Travel (jungle, mountains, swamp ×⅓; desert,
/// forest, hills ×⅔; clear, plains, trail ×1; road ×1⅓): a `basic-fantasy` session reads OSE's
/// terrain names by their class.
#[test]
fn basic_fantasy_reads_the_terrain_names_by_class_overland_travel() {
    let text = arena_text("", 9, 9).replace("ruleset = \"ose\"", "ruleset = \"basic-fantasy\"");
    let enc = load_encounter("bf.toml", &text).unwrap();
    for (t, miles) in [
        (Terrain::Mountains, 8),
        (Terrain::Swamp, 8),
        (Terrain::Desert, 16),
        (Terrain::Hills, 16),
        (Terrain::Barren, 16),
        (Terrain::Grasslands, 24),
        (Terrain::Settled, 24),
    ] {
        let mut e = new_engine(&enc, 1);
        let ev = run(&mut e, &day(t));
        let got = ev.iter().find_map(|x| match x {
            GameEvent::Bx(BxEvent::DayPassed { miles, .. }) => Some(*miles),
            _ => None,
        });
        assert_eq!(got, Some(miles), "{t:?}");
    }
}
