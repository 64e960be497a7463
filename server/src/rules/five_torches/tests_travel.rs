//! Five Torches Deep, through the real engine: rolling to return (`travel.rs`). Each test names
//! the section of `five-torches-deep-combat.txt`.

use super::tests::arena;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, new_engine, refuse, run};
use fray_protocol::FiveTorchesCommand;
use fray_protocol::event::{DamageCause, GameEvent};
use fray_protocol::ftd::{Advantage, ReturnPath};
use fray_protocol::{Command, ErrorCode};

fn back(path: ReturnPath, who: &[&str]) -> Command {
    Command::FiveTorches(FiveTorchesCommand::RollToReturn {
        path,
        combatants: who.iter().map(|w| cid(w)).collect(),
    })
}

fn travel(e: &mut Engine, turns: u32) {
    for _ in 0..turns {
        run(
            e,
            &Command::FiveTorches(FiveTorchesCommand::TravelTurn {
                advantage: Advantage::None,
            }),
        );
    }
}

/// (who, bonus, total, dc, success) of each `check_rolled`.
fn checks(ev: &[GameEvent]) -> Vec<(String, i32, i32, i32, bool)> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::CheckRolled {
                combatant,
                purpose,
                bonus,
                total,
                dc,
                success,
                ..
            } if purpose == "return" => {
                Some((combatant.to_string(), *bonus, *total, *dc, *success))
            }
            _ => None,
        })
        .collect()
}

/// five-torches-deep-combat.txt § Rolling To Return: every PC rolls with its best modifier
/// including proficiency (Ada STR +3 and +2, Bram INT +4 and +3 at level 5, Cleo WIS +3 and
/// +2) against DC 10 + 1 per travel turn; on an arduous path a failure drops 1 load per point
/// under the DC.
#[test]
fn each_pc_rolls_its_best_modifier_and_an_arduous_path_costs_load_rolling_to_return() {
    let enc = arena(14, 12, "1d6");
    let mut seen_fail = false;
    let mut seen_pass = false;
    for seed in 1..40 {
        let mut e = new_engine(&enc, seed);
        for h in ["ada", "bram", "cleo"] {
            run(
                &mut e,
                &Command::FiveTorches(FiveTorchesCommand::SetLoad {
                    combatant: cid(h),
                    load: 3,
                    coins: 600,
                }),
            );
        }
        travel(&mut e, 6);
        let ev = run(&mut e, &back(ReturnPath::Arduous, &[]));
        let rolled = checks(&ev);
        let bonuses: Vec<(String, i32, i32)> =
            rolled.iter().map(|r| (r.0.clone(), r.1, r.3)).collect();
        assert_eq!(
            bonuses,
            vec![
                ("ada".into(), 5, 16),
                ("bram".into(), 7, 16),
                ("cleo".into(), 5, 16)
            ]
        );
        for (who, _, total, dc, success) in rolled {
            let f = cs(&e, &who).ftd.unwrap();
            if success {
                seen_pass = true;
                assert_eq!((f.load, f.coins), (3, 600));
            } else {
                seen_fail = true;
                let (load, coins) = super::travel::after_losing(3, 600, dc - total);
                assert_eq!((f.load, f.coins), (load, coins));
                assert!(f.load < 3);
            }
        }
        if seen_fail && seen_pass {
            return;
        }
    }
    panic!("no seed gave both a success and a failure");
}

/// five-torches-deep-combat.txt § Rolling To Return: on a dangerous path a failure deals 1d6 per
/// point under the DC (never below 0 HP: the PC is left incapacitated); the DC is capped at 20.
#[test]
fn a_dangerous_path_deals_a_d6_per_point_under_rolling_to_return() {
    let enc = arena(14, 12, "1d6");
    for seed in 1..40 {
        let mut e = new_engine(&enc, seed);
        travel(&mut e, 12);
        let ev = run(&mut e, &back(ReturnPath::Dangerous, &["cleo"]));
        let (_, _, total, dc, success) = checks(&ev)[0].clone();
        assert_eq!(dc, 20);
        if success {
            continue;
        }
        let dice = ev
            .iter()
            .find_map(|x| match x {
                GameEvent::DamageRolled { roll, .. } => Some(roll.dice.len()),
                _ => None,
            })
            .unwrap();
        assert_eq!(dice, usize::try_from(dc - total).unwrap());
        assert!(ev.iter().any(|x| matches!(
            x,
            GameEvent::Damaged {
                cause: DamageCause::Hazard { purpose, .. },
                ..
            } if purpose == "return"
        )));
        assert!(cs(&e, "cleo").hp.unwrap() < 9);
        return;
    }
    panic!("no seed failed at DC 20");
}

/// five-torches-deep-combat.txt § Rolling To Return: outside battle, PCs only, each once; a
/// refusal changes nothing and draws no dice.
#[test]
fn refusals_rolling_to_return() {
    let enc = arena(14, 12, "1d6");
    let mut e = new_engine(&enc, 3);
    assert_eq!(
        refuse(&mut e, &back(ReturnPath::Arduous, &["boss-1"])),
        ErrorCode::InvalidTarget
    );
    assert_eq!(
        refuse(&mut e, &back(ReturnPath::Arduous, &["ada", "ada"])),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        refuse(&mut e, &back(ReturnPath::Arduous, &["nobody"])),
        ErrorCode::UnknownCombatant
    );
    run(&mut e, &Command::StartBattle);
    assert_eq!(
        refuse(&mut e, &back(ReturnPath::Dangerous, &[])),
        ErrorCode::InvalidArgument
    );
}
