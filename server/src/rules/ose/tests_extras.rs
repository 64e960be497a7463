//! Old-School Essentials hazards, checks and § Other Combat Issues through the real engine
//! (`hazards.rs`, `combat_extras.rs`), each test naming the section of `ose-adventuring.txt`.

use super::tables;
use super::tests::{arena_with, attack};
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, current, new_engine, refuse, run};
use fray_protocol::event::{DamageCause, GameEvent};
use fray_protocol::ids::Side;
use fray_protocol::ose::{
    Declaration, EncounterSetting, MissileRange, OseAbility, OseCondition, SaveCategory,
};
use fray_protocol::{BxCommand, BxEvent};
use fray_protocol::{Command, ErrorCode};

fn arena() -> crate::content::model::Encounter {
    arena_with("", 30, 9)
}

fn hp(e: &Engine, id: &str) -> i32 {
    cs(e, id).hp.unwrap()
}

fn condition(who: &str, condition: OseCondition, on: bool) -> Command {
    Command::Bx(BxCommand::OseCondition {
        combatant: cid(who),
        condition,
        on,
    })
}

/// Ends turns until it is `who`'s turn (within two rounds); false if it never comes.
fn until(e: &mut Engine, who: &str) -> bool {
    for _ in 0..12 {
        let me = current(e);
        if me == who {
            return true;
        }
        run(e, &Command::EndTurn { actor: cid(&me) });
    }
    false
}

fn attack_rolled(ev: &[GameEvent]) -> Option<(i32, i32)> {
    ev.iter().find_map(|x| match x {
        GameEvent::AttackRolled {
            bonus,
            defense_value,
            ..
        } => Some((*bonus, *defense_value)),
        _ => None,
    })
}

fn damage_roll(ev: &[GameEvent]) -> Option<fray_protocol::roll::Roll> {
    ev.iter().find_map(|x| match x {
        GameEvent::DamageRolled { roll, .. } => Some(roll.clone()),
        _ => None,
    })
}

fn damaged(ev: &[GameEvent]) -> Option<i32> {
    ev.iter().find_map(|x| match x {
        GameEvent::Damaged { amount, .. } => Some(*amount),
        _ => None,
    })
}

/// ose-adventuring.txt § Saving Throws, Successful Saves ("damage halved"): the full damage
/// on a failed save, half (rounded down, at least 1) on a success.
#[test]
fn save_for_half_halves_the_damage_on_a_success_successful_saves() {
    let (mut saved, mut failed) = (false, false);
    for seed in 0..40 {
        let mut e = new_engine(&arena(), seed);
        let ev = run(
            &mut e,
            &Command::Bx(BxCommand::SaveForHalf {
                combatant: cid("ada"),
                category: SaveCategory::Breath,
                damage: "3d6".into(),
                modifier: 0,
            }),
        );
        let Some(GameEvent::CheckRolled {
            dc, success, total, ..
        }) = ev.first()
        else {
            panic!("{ev:?}")
        };
        assert_eq!(*dc, 15, "Ada's breath save");
        assert_eq!(*success, *total >= 15);
        let full = damage_roll(&ev).unwrap().total;
        let amount = damaged(&ev).unwrap();
        if *success {
            assert_eq!(amount, tables::halved(full));
            saved = true;
        } else {
            assert_eq!(amount, full);
            failed = true;
        }
        assert_eq!(hp(&e, "ada"), 20 - amount);
        assert!(ev.iter().any(|x| matches!(
            x,
            GameEvent::Damaged {
                cause: DamageCause::Hazard { .. },
                ..
            }
        )));
    }
    assert!(saved && failed);
    let mut e = new_engine(&arena(), 1);
    let bad = Command::Bx(BxCommand::SaveForHalf {
        combatant: cid("ada"),
        category: SaveCategory::Breath,
        damage: "lots".into(),
        modifier: 0,
    });
    assert_eq!(refuse(&mut e, &bad), ErrorCode::InvalidArgument);
}

/// ose-adventuring.txt § Ability Checks (roll 1d20 at or under the ability; § Modifiers −4 …
/// +4; § 1s and 20s).
#[test]
fn ability_checks_roll_under_the_score_ability_checks() {
    let mut seen = [false; 2];
    for seed in 0..40 {
        let mut e = new_engine(&arena(), seed);
        let ev = run(
            &mut e,
            &Command::Bx(BxCommand::AbilityCheck {
                combatant: cid("ada"),
                ability: OseAbility::Str,
                modifier: 2,
            }),
        );
        let Some(GameEvent::CheckRolled {
            roll, dc, success, ..
        }) = ev.first()
        else {
            panic!("{ev:?}")
        };
        assert_eq!(*dc, 16, "Ada's STR");
        let n = roll.natural().unwrap();
        assert_eq!(*success, n == 1 || (n != 20 && n as i32 + 2 <= 16));
        seen[usize::from(*success)] = true;
    }
    assert!(seen[0] && seen[1]);
    let mut e = new_engine(&arena(), 1);
    let check = |who: &str, modifier| {
        Command::Bx(BxCommand::AbilityCheck {
            combatant: cid(who),
            ability: OseAbility::Dex,
            modifier,
        })
    };
    assert_eq!(refuse(&mut e, &check("ada", 5)), ErrorCode::InvalidArgument);
    assert_eq!(
        refuse(&mut e, &check("goon-1", 0)),
        ErrorCode::InvalidTarget
    );
}

/// ose-adventuring.txt § Falling (1d6 damage per 10′ fallen) and § Healing, Natural (1d3 hit
/// points per full day of complete rest).
#[test]
fn falls_hurt_1d6_per_ten_feet_and_rest_heals_1d3_a_day_falling_healing() {
    let mut e = new_engine(&arena(), 3);
    let ev = run(
        &mut e,
        &Command::Bx(BxCommand::Fall {
            combatant: cid("bram"),
            feet: 35,
        }),
    );
    let roll = damage_roll(&ev).unwrap();
    assert_eq!(roll.dice.len(), 3, "35' is three full 10' (3d6)");
    assert_eq!(damaged(&ev), Some(roll.total));
    let after = hp(&e, "bram");
    assert_eq!(after, 30 - roll.total);
    let ev = run(
        &mut e,
        &Command::Bx(BxCommand::NaturalHealing {
            combatant: cid("bram"),
            days: 2,
        }),
    );
    let Some(GameEvent::Healed {
        roll: Some(r),
        amount,
        ..
    }) = ev.first()
    else {
        panic!("{ev:?}")
    };
    assert_eq!(r.dice.len(), 2);
    assert!(r.dice.iter().all(|d| (1..=3).contains(&d.face)));
    assert_eq!(*amount, r.total.min(30 - after));
    assert_eq!(hp(&e, "bram"), after + amount);
    let fall = |feet| {
        Command::Bx(BxCommand::Fall {
            combatant: cid("bram"),
            feet,
        })
    };
    assert_eq!(refuse(&mut e, &fall(5)), ErrorCode::InvalidArgument);
    let heal = |days| {
        Command::Bx(BxCommand::NaturalHealing {
            combatant: cid("bram"),
            days,
        })
    };
    assert_eq!(refuse(&mut e, &heal(0)), ErrorCode::InvalidArgument);
    run(&mut e, &Command::StartBattle);
    assert_eq!(refuse(&mut e, &heal(1)), ErrorCode::BattleAlreadyStarted);
}

/// ose-adventuring.txt § Healing, Magical ("potions or spells … instantaneous"; "Magical healing
/// and natural healing can be combined"), § Death (0 hp or less is death): magic heals at once,
/// in an encounter too, never above the maximum, and never the dead.
#[test]
fn magical_healing_is_instant_capped_at_the_maximum_and_not_for_the_dead_healing() {
    let mut e = new_engine(&arena(), 6);
    run(
        &mut e,
        &Command::Bx(BxCommand::Fall {
            combatant: cid("bram"),
            feet: 40,
        }),
    );
    let hurt = hp(&e, "bram");
    assert!(hurt < 30);
    let cure = |dice: &str| {
        Command::Bx(BxCommand::MagicalHealing {
            target: cid("bram"),
            dice: dice.into(),
            source: "potion of healing".into(),
        })
    };
    run(&mut e, &Command::StartBattle);
    let ev = run(&mut e, &cure("1d6+1"));
    let Some(GameEvent::Healed {
        roll: Some(r),
        amount,
        hp_after,
        ..
    }) = ev.first()
    else {
        panic!("{ev:?}")
    };
    assert_eq!((r.dice.len(), r.modifier), (1, 1));
    assert_eq!(*amount, r.total.min(30 - hurt));
    assert_eq!(*hp_after, Some(hurt + amount));
    // Never above the maximum.
    let ev = run(&mut e, &cure("100"));
    assert!(matches!(
        ev.first(),
        Some(GameEvent::Healed {
            hp_after: Some(30),
            ..
        })
    ));
    assert_eq!(hp(&e, "bram"), 30);
    // Bad dice and a nameless source are refused.
    assert_eq!(refuse(&mut e, &cure("1d6-10")), ErrorCode::InvalidArgument);
    let nameless = Command::Bx(BxCommand::MagicalHealing {
        target: cid("bram"),
        dice: "1d4".into(),
        source: " ".into(),
    });
    assert_eq!(refuse(&mut e, &nameless), ErrorCode::InvalidArgument);
    // The dead are not healed.
    let mut dead = new_engine(&arena(), 6);
    for _ in 0..20 {
        if hp(&dead, "bram") <= 0 {
            break;
        }
        let _ = dead.execute(&Command::Bx(BxCommand::Fall {
            combatant: cid("bram"),
            feet: 200,
        }));
    }
    assert!(hp(&dead, "bram") <= 0, "bram fell to his death");
    assert_eq!(refuse(&mut dead, &cure("2d8")), ErrorCode::InvalidTarget);
}

/// ose-adventuring.txt § Encounter Distance (dungeon 2d6 × 10 feet; wilderness and waterborne
/// 4d6 × 10 yards, 1d4 × 10 yards if either side is surprised).
#[test]
fn the_encounter_distance_by_setting_encounter_distance() {
    let mut e = new_engine(&arena(), 4);
    for (setting, surprised, dice, sides, unit) in [
        (EncounterSetting::Dungeon, false, 2, 6, "feet"),
        (EncounterSetting::Dungeon, true, 2, 6, "feet"),
        (EncounterSetting::Wilderness, false, 4, 6, "yards"),
        (EncounterSetting::Waterborne, true, 1, 4, "yards"),
    ] {
        let ev = run(
            &mut e,
            &Command::Bx(BxCommand::RollEncounterDistance { setting, surprised }),
        );
        let Some(GameEvent::Bx(BxEvent::EncounterDistanceRolled {
            roll,
            distance,
            unit: u,
            ..
        })) = ev.first()
        else {
            panic!("{ev:?}")
        };
        assert_eq!(roll.dice.len(), dice);
        assert!(roll.dice.iter().all(|d| d.face <= sides));
        assert_eq!(*distance as i32, roll.total * 10);
        assert_eq!(u, unit);
    }
}

/// ose-adventuring.txt § Blindness ("unable to attack"), § Unstable Surfaces (missiles −4,
/// spells cannot be cast); the conditions are the GM's (`ose_condition`).
#[test]
fn blind_combatants_cannot_attack_and_unstable_ones_shoot_worse_blindness_unstable_surfaces() {
    let mut e = new_engine(&arena(), 5);
    run(&mut e, &condition("ada", OseCondition::Blind, true));
    assert_eq!(
        refuse(&mut e, &condition("ada", OseCondition::Blind, true)),
        ErrorCode::InvalidArgument
    );
    run(&mut e, &condition("ada", OseCondition::Unstable, true));
    run(&mut e, &condition("bram", OseCondition::Unstable, true));
    run(
        &mut e,
        &Command::Bx(BxCommand::Declare {
            actor: cid("bram"),
            declaration: Some(Declaration::Spell {
                spell: "sleep".into(),
            }),
        }),
    );
    run(&mut e, &Command::StartBattle);
    assert!(until(&mut e, "ada"));
    assert_eq!(
        refuse(&mut e, &attack("ada", "sword", "goon-1")),
        ErrorCode::Blinded
    );
    run(&mut e, &condition("ada", OseCondition::Blind, false));
    let ev = run(
        &mut e,
        &Command::Bx(BxCommand::OseAttack {
            actor: cid("ada"),
            attack: "bow".into(),
            target: cid("goon-1"),
            range: Some(MissileRange::Short),
            modifier: 0,
            behind: false,
        }),
    );
    // DEX 13 (+1) and short range (+1), −4 on the unstable surface.
    assert_eq!(attack_rolled(&ev).unwrap().0, 1 + 1 - 4);
    assert!(until(&mut e, "bram"));
    assert_eq!(
        refuse(
            &mut e,
            &Command::Bx(BxCommand::CastSpell { actor: cid("bram") })
        ),
        ErrorCode::UnstableSurface
    );
}

/// ose-adventuring.txt § Attacking from Behind (shield bonuses negated), § Unarmed Attacks
/// (1d2 modified by STR), § Running, Effects of exhaustion (−2 to attacks, damage and AC).
#[test]
fn from_behind_unarmed_and_exhausted_attacking_from_behind_unarmed_attacks_running() {
    for seed in 0..40 {
        let mut e = new_engine(&arena(), seed);
        run(&mut e, &Command::StartBattle);
        if !until(&mut e, "ada") {
            continue;
        }
        // Ada (STR 16: +2) punches: 1d2 + 2.
        let ev = run(&mut e, &attack("ada", "unarmed", "goon-1"));
        assert_eq!(attack_rolled(&ev).unwrap().0, 2);
        if let Some(r) = damage_roll(&ev) {
            assert_eq!(r.dice.len(), 1);
            assert!(r.dice[0].face <= 2);
            // The roll carries the +2 (its expression `d2+2`, its modifiers naming STR).
            assert_eq!((r.modifier, r.expr.as_str()), (2, "d2+2"));
            assert_eq!(damaged(&ev), Some(r.total));
        } else {
            continue;
        }
        // A goon attacks the exhausted Ada from behind: AC 4 + shield 1 + 2.
        run(&mut e, &condition("ada", OseCondition::Exhausted, true));
        let Some(goon) = (0..12).find_map(|_| {
            let me = current(&e);
            if cs(&e, &me).side == Side::Monsters && me != "boss" {
                return Some(me);
            }
            run(&mut e, &Command::EndTurn { actor: cid(&me) });
            None
        }) else {
            continue;
        };
        let ev = run(
            &mut e,
            &Command::Bx(BxCommand::OseAttack {
                actor: cid(&goon),
                attack: "club".into(),
                target: cid("ada"),
                range: None,
                modifier: 0,
                behind: true,
            }),
        );
        assert_eq!(attack_rolled(&ev).unwrap(), (0, 4 + 1 + 2));
        return;
    }
    panic!("no seed reached both attacks");
}

/// ose-adventuring.txt § Paralyzed Opponents: helpless opponents are hit automatically in
/// melee; only damage is rolled.
#[test]
fn paralyzed_opponents_are_hit_automatically_paralyzed_opponents() {
    let mut e = new_engine(&arena(), 6);
    run(&mut e, &condition("goon-1", OseCondition::Paralyzed, true));
    run(&mut e, &Command::StartBattle);
    assert!(until(&mut e, "bram"));
    let before = hp(&e, "goon-1");
    let ev = run(&mut e, &attack("bram", "staff", "goon-1"));
    assert!(attack_rolled(&ev).is_none(), "no attack roll: {ev:?}");
    let amount = damaged(&ev).unwrap();
    assert!(amount >= 1);
    assert_eq!(hp(&e, "goon-1"), before - amount);
}

/// ose-adventuring.txt § Individual Initiative (optional rule): a d6 per combatant, modified by
/// DEX, highest first (the session option `initiative = "individual"`).
#[test]
fn each_combatant_rolls_d6_plus_dex_individual_initiative() {
    let enc = arena_with("initiative = \"individual\"", 30, 9);
    let mut e = new_engine(&enc, 8);
    let ev = run(&mut e, &Command::StartBattle);
    let rolls: Vec<(String, i32, i32)> = ev
        .iter()
        .filter_map(|x| match x {
            GameEvent::InitiativeRolled {
                combatants,
                roll,
                bonus,
                total,
                ..
            } => {
                assert_eq!(*total, roll.natural().unwrap() as i32 + bonus);
                Some((combatants[0].to_string(), *bonus, *total))
            }
            _ => None,
        })
        .collect();
    assert_eq!(rolls.len(), 5, "one roll each: {ev:?}");
    assert!(
        !ev.iter()
            .any(|x| matches!(x, GameEvent::Bx(BxEvent::SideInitiative { .. })))
    );
    let bonus = |who: &str| rolls.iter().find(|r| r.0 == who).unwrap().1;
    assert_eq!((bonus("ada"), bonus("bram"), bonus("goon-1")), (1, 0, 0));
    let order: Vec<String> = ev
        .iter()
        .find_map(|x| match x {
            GameEvent::TurnOrder { order } => Some(order.iter().map(|c| c.to_string()).collect()),
            _ => None,
        })
        .unwrap();
    // The boss's maul is slow: last; the others by their totals, highest first.
    assert_eq!(order.last().map(String::as_str), Some("boss"));
    let total = |who: &str| rolls.iter().find(|r| r.0 == who).unwrap().2;
    assert!(order[..4].windows(2).all(|w| total(&w[0]) >= total(&w[1])));
}

fn drown(who: &str, chance: u32) -> Command {
    Command::Bx(BxCommand::DrowningCheck {
        combatant: cid(who),
        chance,
    })
}

/// ose-adventuring.txt § Drowning ("the chance of drowning — are judged by the referee"; the
/// examples 99% and 10%): the GM's chance against a d%; at or under it the character drowns
/// (`slain`); a chance outside 1..=99 or a character already out is refused.
#[test]
fn the_referees_chance_of_drowning_against_a_d100_drowning() {
    let enc = super::tests::arena_with("", 5, 9);
    let (mut drowned, mut afloat) = (0, 0);
    for seed in 0..60 {
        let mut e = new_engine(&enc, seed);
        let ev = run(&mut e, &drown("ada", 50));
        let Some((roll, went_down)) = ev.iter().find_map(|x| match x {
            GameEvent::Bx(BxEvent::DrowningRolled {
                combatant,
                chance: 50,
                roll,
                drowned,
            }) if combatant == &cid("ada") => Some((roll.natural().unwrap(), *drowned)),
            _ => None,
        }) else {
            panic!("{ev:?}")
        };
        assert!((1..=100).contains(&roll));
        assert_eq!(went_down, roll <= 50, "at or under the chance drowns");
        let slain = ev
            .iter()
            .any(|x| matches!(x, GameEvent::Slain { combatant } if combatant == &cid("ada")));
        assert_eq!(slain, went_down);
        if went_down {
            drowned += 1;
            assert_eq!(refuse(&mut e, &drown("ada", 50)), ErrorCode::InvalidTarget);
        } else {
            afloat += 1;
        }
    }
    assert!(
        drowned > 0 && afloat > 0,
        "{drowned} drowned, {afloat} afloat"
    );
    let mut e = new_engine(&enc, 1);
    assert_eq!(refuse(&mut e, &drown("ada", 0)), ErrorCode::InvalidArgument);
    assert_eq!(
        refuse(&mut e, &drown("ada", 100)),
        ErrorCode::InvalidArgument
    );
}
