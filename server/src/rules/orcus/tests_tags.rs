//! § Action descriptions (Category, Tags, Traditions) and the Fire tag of § Underwater combat
//! (`tags.rs`), naming the section of `orcus-basic-rules.txt`.

use super::tests::{arena_src, started};
use crate::content::model::{CombatantSpec, PowerCategory};
use crate::rules::common::testing::{cid, cs, run};
use crate::rules::load_encounter;
use fray_protocol::Command;
use fray_protocol::command::AttackMode;
use fray_protocol::event::GameEvent;

const ROW: &str = "kael = [0, 0]\nlira = [1, 0]\nbrute-1 = [8, 0]\nbrute-2 = [9, 0]";

fn kael(src: &str) -> CombatantSpec {
    load_encounter("tags.toml", src)
        .unwrap()
        .combatants
        .into_iter()
        .find(|c| c.id.as_str() == "kael")
        .unwrap()
}

fn err(src: &str) -> String {
    load_encounter("tags.toml", src)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default()
}

/// Kael's burst with these extra lines.
fn burst_with(lines: &str) -> String {
    arena_src(&[".........."], "", 5, ROW)
        .replace("id = \"burst\"", &format!("id = \"burst\"\n{lines}"))
}

/// orcus-basic-rules.txt § Action descriptions, Category and Tags ("An action's tags tell you
/// various information about it"), § Traditions: a power's category and tags are carried in
/// its stat block (any case, kept lowercase; absent: an attack with no tags), its secondary
/// attack has the same tags (§ Secondary attacks), and the client sees both in the
/// combatant's `attacks`.
#[test]
fn a_powers_category_and_tags_are_data_shown_to_clients_action_descriptions() {
    let src = burst_with(
        "category = \"utility\"\ntags = [\"Arcane\", \"fire\", \"zone\"]\n\
         secondary = { hit = \"1d4\" }",
    );
    let k = kael(&src);
    let o = k.orcus.as_ref().unwrap();
    let burst = o.powers.iter().find(|p| p.id == "burst").unwrap();
    assert_eq!(burst.category, PowerCategory::Utility);
    assert_eq!(burst.tags, ["arcane", "fire", "zone"]);
    let sec = &burst.secondary.as_ref().unwrap().power;
    assert_eq!(
        (sec.category, sec.tags.clone()),
        (PowerCategory::Utility, burst.tags.clone())
    );
    let sword = &o.powers[0];
    assert_eq!(
        (sword.category, sword.tags.len()),
        (PowerCategory::Attack, 0)
    );
    let e = started(&load_encounter("tags.toml", &src).unwrap(), 1);
    let attacks = cs(&e, "kael").attacks;
    let b = attacks.iter().find(|a| a.id == "burst").unwrap();
    assert_eq!(b.category, "utility");
    assert_eq!(b.tags, ["arcane", "fire", "zone"]);
    let s = attacks.iter().find(|a| a.id == "sword").unwrap();
    assert_eq!((&*s.category, s.tags.len()), ("attack", 0));
}

/// orcus-basic-rules.txt § Action descriptions, Category, Tags and Traditions: an unknown
/// category or tag, a tag given twice and two traditions (the power source) are refused on
/// load, naming the field.
#[test]
fn unknown_duplicate_and_conflicting_tags_are_refused_on_load_tags() {
    let e = err(&burst_with("tags = [\"fire\", \"flaming\"]"));
    assert!(
        e.contains("hero.kael.powers[2].tags[1]") && e.contains("unknown tag 'flaming'"),
        "{e}"
    );
    let e = err(&burst_with("tags = [\"fire\", \"FIRE\"]"));
    assert!(
        e.contains("powers[2].tags[1]") && e.contains("appears twice"),
        "{e}"
    );
    let e = err(&burst_with("tags = [\"arcane\", \"divine\"]"));
    assert!(
        e.contains("powers[2].tags") && e.contains("one tradition"),
        "{e}"
    );
    let e = err(&burst_with("category = \"feature\""));
    assert!(
        e.contains("powers[2].category") && e.contains("unknown category"),
        "{e}"
    );
    // Monsters' powers are checked alike.
    let src = arena_src(&[".........."], "", 5, ROW)
        .replace("id = \"club\"", "id = \"club\"\ntags = [\"sharp\"]");
    assert!(err(&src).contains("monster.brute.powers[0].tags[0]"));
}

/// orcus-basic-rules.txt § Underwater combat: "Powers with the Fire tag have a -2 penalty on
/// attack rolls" — a power tagged `fire` takes it though it deals no fire damage; untagged
/// cold damage does not.
#[test]
fn a_fire_tagged_power_takes_minus_2_underwater_underwater_combat() {
    let pool = ["..........", "..wwww....", "..wwww....", ".........."];
    let wet = "kael = [2, 1]\nlira = [0, 3]\nbrute-1 = [3, 1]\nbrute-2 = [9, 3]";
    let bonus = |tags: &str| {
        // The brutes swim (§ Swim: not off-guard for swimming), so only the tag counts.
        let src = arena_src(&pool, "", 5, wet)
            .replace("dex = 0", "dex = 0\nswim = 4")
            .replace(
                "id = \"sword\"",
                &format!("id = \"sword\"\ndamage_type = \"cold\"\ntags = [{tags}]"),
            );
        let mut e = started(&load_encounter("pool.toml", &src).unwrap(), 3);
        let ev = run(
            &mut e,
            &Command::Attack {
                actor: cid("kael"),
                attack: "sword".into(),
                targets: vec![cid("brute-1")],
                mode: AttackMode::Standard,
                knock_out: false,
                forced: Vec::new(),
                weapon: None,
                secondary_target: None,
            },
        );
        ev.iter().find_map(|x| match x {
            GameEvent::AttackRolled { bonus, .. } => Some(*bonus),
            _ => None,
        })
    };
    assert_eq!(bonus(""), Some(5));
    assert_eq!(bonus("\"fire\""), Some(3));
    assert_eq!(bonus("\"cold\", \"spell\""), Some(5));
}

/// orcus-basic-rules.txt § Underwater combat ("When making a weapon attack, a creature has -2
/// on the attack roll unless the weapon is in the Spears & Lances or Crossbows weapon
/// groups"): a monster's power with the Weapon tag is a weapon attack, and a monster names no
/// weapon, so it takes the −2 in water; its untagged club does not.
#[test]
fn a_monsters_weapon_power_is_a_weapon_attack_underwater_underwater_combat() {
    let pool = ["..........", "..wwww....", "..wwww....", ".........."];
    let wet = "kael = [1, 1]\nlira = [0, 3]\nbrute-1 = [2, 1]\nbrute-2 = [9, 3]";
    let bonus = |tags: &str| {
        let src = arena_src(&pool, "", 5, wet)
            .replace("id = \"club\"", &format!("id = \"club\"\ntags = [{tags}]"));
        let mut e = started(&load_encounter("pool.toml", &src).unwrap(), 7);
        super::tests::until(&mut e, "brute-1");
        let ev = run(
            &mut e,
            &Command::Attack {
                actor: cid("brute-1"),
                attack: "club".into(),
                targets: vec![cid("kael")],
                mode: AttackMode::Standard,
                knock_out: false,
                forced: Vec::new(),
                weapon: None,
                secondary_target: None,
            },
        );
        ev.iter().find_map(|x| match x {
            GameEvent::AttackRolled { bonus, .. } => Some(*bonus),
            _ => None,
        })
    };
    assert_eq!(bonus(""), Some(4));
    assert_eq!(bonus("\"weapon\""), Some(2));
}

/// orcus-basic-rules.txt § Action descriptions, Category ("An attack action … usually involves
/// an attack roll"; "A utility action may affect you, an ally, the environment"): a power with
/// no attack roll (no `vs`) is a utility power without saying so; calling it an attack is
/// refused on load; a utility power may still attack a defense.
#[test]
fn a_power_without_an_attack_roll_is_a_utility_power_category() {
    let hinder = |extra: &str, vs: &str| {
        burst_with("").replace(
            "[[hero]]\nid = \"lira\"",
            &format!(
                "[[hero.powers]]\nid = \"hinder\"\nname = \"Hinder\"\norigin = \"ranged\"\n\
                 range = [10]\n{vs}{extra}effect = [{{ condition = \"slowed\", duration = \"end of your next turn\" }}]\n\
                 [[hero]]\nid = \"lira\""
            ),
        )
    };
    let power = |src: &str| {
        kael(src)
            .orcus
            .map(|o| o.powers)
            .unwrap_or_default()
            .into_iter()
            .find(|p| p.id == "hinder")
            .map(|p| p.category)
    };
    assert_eq!(power(&hinder("", "")), Some(PowerCategory::Utility));
    // A utility power may attack a defense (and then rolls).
    assert_eq!(
        power(&hinder(
            "category = \"utility\"\nbonus = 4\n",
            "vs = \"will\"\n"
        )),
        Some(PowerCategory::Utility)
    );
    assert_eq!(
        power(&hinder("bonus = 4\n", "vs = \"will\"\n")),
        Some(PowerCategory::Attack)
    );
    let e = err(&hinder("category = \"attack\"\n", ""));
    assert!(
        e.contains("powers[3].category") && e.contains("give it `vs`"),
        "{e}"
    );
}
