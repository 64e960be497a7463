//! Old-School Essentials § Wilderness Adventuring in `pass_day` for `ose` sessions
//! (`wilderness.rs`) through the real engine; the `basic-fantasy` ruleset keeps its own rules.

use super::tests::{arena_text, arena_with, attack};
use super::wilderness::{day_miles, lost_chance, wandering_chance};
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, current, new_engine, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::bf::{March, Terrain};
use fray_protocol::event::GameEvent;
use fray_protocol::ids::Side;
use fray_protocol::ose::SecretCheck;
use fray_protocol::state::Phase;
use fray_protocol::{BxCommand, BxEvent};
use fray_protocol::{Command, ErrorCode};
use std::collections::BTreeSet;

const TERRAINS: [Terrain; 4] = [
    Terrain::Clear,
    Terrain::Road,
    Terrain::Forest,
    Terrain::Jungle,
];

fn day(march: March, terrain: Terrain) -> Command {
    Command::Bx(BxCommand::PassDay {
        march,
        terrain,
        unfed: Vec::new(),
        no_water: Vec::new(),
        leader: None,
        water: None,
    })
}

fn miles(ev: &[GameEvent]) -> (i32, u32) {
    ev.iter()
        .find_map(|x| match x {
            GameEvent::Bx(BxEvent::DayPassed { rate, miles, .. }) => Some((*rate, *miles)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{ev:?}"))
}

/// The arena party in a `basic-fantasy` session (for the unchanged Basic Fantasy rules).
fn bf_arena() -> crate::content::model::Encounter {
    let text = arena_text("", 200, 9).replace("ruleset = \"ose\"", "ruleset = \"basic-fantasy\"");
    load_encounter("arena.toml", &text).unwrap()
}

/// ose-adventuring.txt § Wilderness Adventuring, Overland Travel ("dividing their base movement
/// rate by five": 120′ → 24 miles), Terrain Modifiers (broken lands, desert, forest, hills "33%
/// slower"; jungle, mountains, swamp "50% slower"; maintained roads "50% faster"), Forced March
/// ("increased by 50%"), Flying ("double", terrain ignored).
#[test]
fn ose_terrain_slows_by_a_third_or_half_and_roads_speed_by_half_terrain_modifiers() {
    let table = [
        (Terrain::Clear, 24, 36),
        (Terrain::Road, 36, 54),
        (Terrain::Forest, 16, 24),
        (Terrain::Jungle, 12, 18),
    ];
    for (terrain, normal, forced) in table {
        assert_eq!(day_miles(40, March::Normal, terrain), normal, "{terrain:?}");
        assert_eq!(day_miles(40, March::Forced, terrain), forced, "{terrain:?}");
        assert_eq!(day_miles(40, March::Air, terrain), 48);
        assert_eq!(day_miles(40, March::Rest, terrain), 0);
    }
    // Through the engine: an `ose` session plays OSE's factors, a `basic-fantasy` one its own
    // (jungle ×⅓, road ×1⅓).
    for (terrain, ose, bf) in [(Terrain::Jungle, 12, 8), (Terrain::Road, 36, 32)] {
        let mut e = new_engine(&arena_with("", 200, 9), 1);
        assert_eq!(miles(&run(&mut e, &day(March::Normal, terrain))), (40, ose));
        let mut e = new_engine(&bf_arena(), 1);
        assert_eq!(miles(&run(&mut e, &day(March::Normal, terrain))), (40, bf));
    }
}

/// ose-adventuring.txt § Wilderness Adventuring, Forced March ("Rest: After a forced march,
/// characters must rest for a full day"): no save and no damage; any day but a day of rest is
/// refused (`rest_required`) until the party has rested. Basic Fantasy's second forced day is
/// still allowed (its save and 1d6).
#[test]
fn a_forced_march_requires_a_full_day_of_rest_forced_march() {
    let mut e = new_engine(&arena_with("", 200, 9), 2);
    let ev = run(&mut e, &day(March::Forced, Terrain::Clear));
    assert_eq!(miles(&ev), (40, 36));
    assert!(
        !ev.iter()
            .any(|x| matches!(x, GameEvent::CheckRolled { .. } | GameEvent::Damaged { .. })),
        "{ev:?}"
    );
    for march in [March::Forced, March::Normal, March::Air] {
        assert_eq!(
            refuse(&mut e, &day(march, Terrain::Clear)),
            ErrorCode::RestRequired
        );
    }
    let ev = run(&mut e, &day(March::Rest, Terrain::Clear));
    assert_eq!(miles(&ev), (40, 0));
    let ev = run(&mut e, &day(March::Forced, Terrain::Clear));
    assert_eq!(miles(&ev), (40, 36));
    // Basic Fantasy: the second forced day is marched, with its saves.
    let mut e = new_engine(&bf_arena(), 2);
    run(&mut e, &day(March::Forced, Terrain::Clear));
    let ev = run(&mut e, &day(March::Forced, Terrain::Clear));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::CheckRolled { purpose, .. } if purpose.contains("forced march"))),
        "{ev:?}"
    );
}

/// Ada's attack bonuses in a fight started now (every attack roll she makes in a few turns).
fn ada_bonuses(e: &mut Engine) -> Vec<i32> {
    run(e, &Command::StartBattle);
    let mut seen = Vec::new();
    for _ in 0..8 {
        if e.state().phase != Phase::Running {
            break;
        }
        let me = current(e);
        let weapon = cs(e, &me).attacks[0].id.clone();
        let target = if cs(e, &me).side == Side::Heroes {
            "goon-1"
        } else {
            "bram"
        };
        let ev = run(e, &attack(&me, &weapon, target));
        for x in &ev {
            if let GameEvent::AttackRolled {
                attacker, bonus, ..
            } = x
                && attacker.as_str() == "ada"
            {
                seen.push(*bonus);
            }
        }
    }
    seen
}

/// ose-adventuring.txt § Wilderness Adventuring, Resting ("Characters must rest for one day per
/// six days of travel … a penalty of -1 to hit and damage rolls until they have rested for one
/// full day"): after six days of travel without a day of rest the party fights at −1; a day of
/// rest ends it. Basic Fantasy has no such rule.
#[test]
fn six_days_of_travel_without_rest_cost_one_to_hit_resting() {
    let enc = arena_with("", 200, 9);
    for (days, rest_last, penalty) in [(5, false, 0), (6, false, 1), (7, true, 0)] {
        let mut checked = 0;
        for seed in 0..10 {
            let mut e = new_engine(&enc, seed);
            for i in 1..=days {
                let march = if rest_last && i == days {
                    March::Rest
                } else {
                    March::Normal
                };
                run(&mut e, &day(march, Terrain::Clear));
            }
            let expect_days = if rest_last { 0 } else { days };
            assert_eq!(e.state().ose.unwrap().bf.travel_days, expect_days);
            for bonus in ada_bonuses(&mut e) {
                // STR 16: +2 (§ Ability Scores).
                assert_eq!(bonus, 2 - penalty, "{days} days");
                checked += 1;
            }
        }
        assert!(checked > 3);
    }
    let mut e = new_engine(&bf_arena(), 3);
    for _ in 0..7 {
        run(&mut e, &day(March::Normal, Terrain::Clear));
    }
    assert!(ada_bonuses(&mut e).iter().all(|b| *b == 2));
}

/// ose-adventuring.txt § Wilderness Adventuring, Losing Direction ("At the start of each day of
/// travel, the referee should roll … Clear, grasslands: 1-in-6. Barren lands, hills, mountains,
/// woods: 2-in-6. Desert, jungle, swamp: 3-in-6"): the GM's secret d6 on every day of travel
/// (`chance`: the faces that keep the party on course), none on a day of rest.
#[test]
fn losing_direction_is_a_secret_d6_by_terrain_losing_direction() {
    let enc = arena_with("", 200, 9);
    let mut outcomes = BTreeSet::new();
    for seed in 0..40 {
        let terrain = TERRAINS[usize::try_from(seed % 4).unwrap()];
        let mut e = new_engine(&enc, seed);
        let mut cmd = day(March::Normal, terrain);
        if seed % 2 == 0
            && let Command::Bx(BxCommand::PassDay { leader, .. }) = &mut cmd
        {
            *leader = Some(cid("ada"));
        }
        let ev = run(&mut e, &cmd);
        let lost = ev
            .iter()
            .find(|x| {
                matches!(
                    x,
                    GameEvent::SecretRolled {
                        check: SecretCheck::LostDirection,
                        ..
                    }
                )
            })
            .unwrap();
        let GameEvent::SecretRolled {
            check: SecretCheck::LostDirection,
            combatant,
            roll: Some(roll),
            success: Some(success),
            chance,
            ..
        } = lost
        else {
            panic!("{ev:?}")
        };
        assert_eq!(combatant.is_some(), seed % 2 == 0);
        assert_eq!(roll.dice[0].sides, 6);
        let lost_in = lost_chance(terrain);
        assert_eq!(*chance, 6 - lost_in);
        assert_eq!(*success, roll.natural().unwrap() > lost_in);
        outcomes.insert((terrain == Terrain::Jungle, *success));
        assert!(matches!(
            lost.redacted(|_| false),
            GameEvent::SecretRolled {
                roll: None,
                success: None,
                ..
            }
        ));
    }
    assert_eq!(outcomes.len(), 4);
    assert_eq!(
        TERRAINS.map(lost_chance),
        [1, 1, 2, 3],
        "clear, road, forest, jungle"
    );
    let mut e = new_engine(&enc, 1);
    let ev = run(&mut e, &day(March::Rest, Terrain::Jungle));
    assert!(
        !ev.iter().any(|x| matches!(
            x,
            GameEvent::SecretRolled {
                check: SecretCheck::LostDirection,
                ..
            }
        )),
        "{ev:?}"
    );
}

/// ose-adventuring.txt § Wilderness Adventuring, Wandering Monsters ("A check is typically
/// rolled once per day"; "Distance: … 4d6 × 10 yards away"), Chance by Terrain ("City, clear,
/// grasslands, settled lands: 1-in-6. Aerial, barren, desert, forest, hills: 2-in-6. Jungle,
/// mountains, swamp: 3-in-6"): the day's secret d6, the 4d6 of the distance on an encounter.
#[test]
fn the_days_wandering_check_is_a_secret_d6_by_terrain_chance_by_terrain() {
    let enc = arena_with("", 200, 9);
    let mut outcomes = BTreeSet::new();
    for seed in 0..60 {
        let terrain = TERRAINS[usize::try_from(seed % 4).unwrap()];
        let march = [March::Normal, March::Rest, March::Air][usize::try_from(seed % 3).unwrap()];
        let mut e = new_engine(&enc, seed);
        let ev = run(&mut e, &day(march, terrain));
        let Some(
            w @ GameEvent::SecretRolled {
                check: SecretCheck::WanderingMonster,
                roll: Some(roll),
                success: Some(success),
                chance,
                distance,
                ..
            },
        ) = ev.last()
        else {
            panic!("{ev:?}")
        };
        assert_eq!(*chance, wandering_chance(march, terrain));
        assert_eq!(*success, roll.natural().unwrap() <= *chance);
        assert_eq!(
            distance.as_ref().map(|r| (r.dice.len(), r.dice[0].sides)),
            success.then_some((4, 6))
        );
        outcomes.insert(*success);
        assert!(matches!(
            w.redacted(|_| false),
            GameEvent::SecretRolled {
                roll: None,
                success: None,
                distance: None,
                ..
            }
        ));
    }
    assert_eq!(outcomes.len(), 2);
    assert_eq!(
        TERRAINS.map(|t| wandering_chance(March::Normal, t)),
        [1, 1, 2, 3]
    );
    assert_eq!(wandering_chance(March::Air, Terrain::Jungle), 2);
}
