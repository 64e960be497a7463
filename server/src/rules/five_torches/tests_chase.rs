//! Five Torches Deep, through the real engine: chases (`chase.rs`), naming the section of
//! `five-torches-deep-combat.txt`.

use super::tests::arena;
use crate::rules::common::testing::{cid, new_engine, refuse, run};
use fray_protocol::FiveTorchesCommand;
use fray_protocol::event::GameEvent;
use fray_protocol::ftd::{Advantage, ChaseTerrain};
use fray_protocol::{Command, ErrorCode};

fn chase(who: &[&str], speed: i32, terrain: ChaseTerrain, group: bool) -> Command {
    Command::FiveTorches(FiveTorchesCommand::Chase {
        pursuers: who.iter().map(|w| cid(w)).collect(),
        speed,
        terrain,
        group,
        advantage: Advantage::None,
        dc_modifier: 0,
    })
}

/// (who, bonus, dc, dice) of each chase check.
fn rolls(ev: &[GameEvent]) -> Vec<(String, i32, i32, usize)> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::CheckRolled {
                combatant,
                purpose,
                bonus,
                dc,
                roll,
                ..
            } if purpose == "chase" => Some((combatant.to_string(), *bonus, *dc, roll.dice.len())),
            _ => None,
        })
        .collect()
}

/// five-torches-deep-combat.txt § Chases: each PC rolls the terrain's ability (open: STR —
/// Ada 16 +3, Bram 8 −1) against DC 11 ± 1 per 5′ from 30′; as a group only the worst
/// modifier rolls (Bram); uneven terrain uses DEX; the GM's advantage and DC change apply.
#[test]
fn each_pc_or_the_worst_rolls_by_terrain_and_speed_chases() {
    let enc = arena(14, 12, "1d6");
    let mut e = new_engine(&enc, 8);
    let ev = run(
        &mut e,
        &chase(&["ada", "bram"], 40, ChaseTerrain::Open, false),
    );
    assert_eq!(
        rolls(&ev),
        vec![("ada".into(), 3, 13, 1), ("bram".into(), -1, 13, 1)]
    );
    let ev = run(
        &mut e,
        &chase(&["ada", "bram"], 20, ChaseTerrain::Open, true),
    );
    assert_eq!(rolls(&ev), vec![("bram".into(), -1, 9, 1)]);
    let ev = run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::Chase {
            pursuers: vec![cid("cleo")],
            speed: 30,
            terrain: ChaseTerrain::Uneven,
            group: false,
            advantage: Advantage::Disadvantage,
            dc_modifier: -2,
        }),
    );
    // Cleo's DEX 8 (−1), DC 11 − 2, two dice (disadvantage).
    assert_eq!(rolls(&ev), vec![("cleo".into(), -1, 9, 2)]);
}

/// five-torches-deep-combat.txt § Chases: the players roll (no monster), each PC once, within
/// bounds; a refusal changes nothing and draws no dice.
#[test]
fn refusals_chases() {
    let enc = arena(14, 12, "1d6");
    let mut e = new_engine(&enc, 8);
    assert_eq!(
        refuse(&mut e, &chase(&["boss-1"], 30, ChaseTerrain::Open, false)),
        ErrorCode::InvalidTarget
    );
    assert_eq!(
        refuse(
            &mut e,
            &chase(&["ada", "ada"], 30, ChaseTerrain::Open, false)
        ),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        refuse(&mut e, &chase(&[], 30, ChaseTerrain::Open, false)),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        refuse(&mut e, &chase(&["ada"], 400, ChaseTerrain::Open, false)),
        ErrorCode::InvalidArgument
    );
}
