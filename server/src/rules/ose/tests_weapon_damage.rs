//! Old-School Essentials § Rolling for Damage and § Variable Weapon Damage (optional rule): the
//! session option `weapon_damage` (`weapon_damage.rs`), through the real engine.

use super::tests::{arena_text, arena_with, attack};
use crate::rules::common::testing::{cid, current, new_engine, run};
use crate::rules::load_encounter;
use fray_protocol::Command;
use fray_protocol::event::GameEvent;
use fray_protocol::ose::WeaponDamage;
use std::collections::BTreeSet;

/// The damage expressions rolled by each attacker (`attacker:expr`) over seeds 0..60: Ada
/// swings her sword (1d8) on her turn, Bram punches (unarmed, 1d2), the monsters use their
/// first attack (the boss's maul 1d8, the goons' club 1d4).
fn damage_rolled(options: &str) -> BTreeSet<String> {
    let enc = arena_with(options, 200, 9);
    let mut seen = BTreeSet::new();
    for seed in 0..60 {
        let mut e = new_engine(&enc, seed);
        run(&mut e, &Command::StartBattle);
        for _ in 0..10 {
            let me = current(&e);
            let cmd = match me.as_str() {
                "ada" => attack("ada", "sword", "goon-1"),
                "bram" => attack("bram", "unarmed", "goon-2"),
                "boss" => attack("boss", "maul", "ada"),
                goon => attack(goon, "club", "bram"),
            };
            // A hero struck down: its attacker ends its turn instead.
            let ev = match e.execute(&cmd) {
                Ok(ev) => ev,
                Err(_) => run(&mut e, &Command::EndTurn { actor: cid(&me) }),
            };
            for x in ev {
                if let GameEvent::DamageRolled { attacker, roll, .. } = x {
                    // The dice (the roll's expression also shows what Strength added).
                    let dice = roll.expr.split(['+', '-']).next().unwrap_or_default();
                    seen.insert(format!("{}:{dice}", attacker.as_str()));
                }
            }
        }
    }
    seen
}

/// ose-adventuring.txt § Rolling for Damage ("PC attacks: Inflict 1d6 damage. … Monster attacks:
/// Deal the damage indicated in the monster's description"): by default a character's weapon
/// deals 1d6 whatever the weapon; monsters keep their dice; § Unarmed Attacks keeps its 1d2.
#[test]
fn characters_deal_1d6_by_default_rolling_for_damage() {
    let seen = damage_rolled("");
    assert!(seen.contains("ada:d6"), "{seen:?}");
    assert!(!seen.iter().any(|s| s == "ada:d8"), "{seen:?}");
    assert!(seen.contains("bram:d2"), "{seen:?}");
    assert!(seen.contains("boss:d8"), "{seen:?}");
    assert!(seen.iter().any(|s| s.ends_with(":d4")), "{seen:?}");
}

/// ose-adventuring.txt § Variable Weapon Damage (Optional Rule): "PC attacks inflict the damage
/// indicated for the weapon" — with `weapon_damage = "variable"` Ada's sword rolls its 1d8.
#[test]
fn the_option_rolls_each_weapons_damage_variable_weapon_damage() {
    let seen = damage_rolled("weapon_damage = \"variable\"");
    assert!(seen.contains("ada:d8"), "{seen:?}");
    assert!(!seen.contains("ada:d6"), "{seen:?}");
    assert!(seen.contains("bram:d2"), "{seen:?}");
    assert!(seen.contains("boss:d8"), "{seen:?}");
}

/// basic-fantasy-adventures.txt has no 1d6 rule (its weapons' damage is in its equipment lists):
/// a Basic Fantasy session always uses variable weapon damage; the `ose` default is `d6`.
#[test]
fn basic_fantasy_always_uses_the_weapons_damage_variable_weapon_damage() {
    let bf =
        arena_text("weapon_damage = \"d6\"", 30, 9).replacen("\"ose\"", "\"basic-fantasy\"", 1);
    let enc = load_encounter("bf.toml", &bf).unwrap();
    let e = new_engine(&enc, 0);
    let ose = e.state().ose.unwrap();
    assert_eq!(ose.options.weapon_damage, WeaponDamage::Variable);
    let e = new_engine(&arena_with("", 30, 9), 0);
    assert_eq!(
        e.state().ose.unwrap().options.weapon_damage,
        WeaponDamage::D6
    );
}
