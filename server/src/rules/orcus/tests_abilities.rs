//! Orcus heroes' defenses from their ability modifiers (orcus-basic-rules.txt § Abilities:
//! Fortitude, Reflex and Will Defense).

use super::tests::arena_src;
use crate::rules::load_encounter;

const ROW: &str = "kael = [0, 0]\nlira = [1, 0]\nbrute-1 = [8, 0]\nbrute-2 = [9, 0]";

/// orcus-basic-rules.txt § Abilities (Strength, Constitution: "Add either your Strength modifier
/// or your Constitution modifier (whichever is higher) to your Fortitude defense"; Dexterity,
/// Intelligence: Reflex; Wisdom, Charisma: Will): a hero whose file states no defenses gets 10 +
/// half level (interpretation, Fourth Edition's base) + the higher modifier of each pair — level
/// 4, Str 3 / Con 1, Dex 2 / Int 4, Wis 0 / Cha 1: Fortitude 15, Reflex 16, Will 13; a hero
/// that states them keeps the sheet's numbers.
#[test]
fn defenses_add_the_higher_of_two_ability_modifiers_fortitude_reflex_will_defense() {
    let src = arena_src(&[".........."], "", 5, ROW)
        .replace("level = 1\nhp = 30", "level = 4\nhp = 30")
        .replace("fortitude = 14\nreflex = 13\nwill = 12\n", "")
        .replace(
            "wis = 2\n",
            "wis = 0\nstr = 3\ncon = 1\ndex = 2\nint = 4\ncha = 1\n",
        );
    assert!(!src.contains("fortitude = 14"));
    let enc = load_encounter("abilities.toml", &src).unwrap();
    let spec = |id: &str| {
        enc.combatants
            .iter()
            .find(|c| c.id.as_str() == id)
            .unwrap()
            .clone()
    };
    let k = spec("kael");
    let o = k.orcus.as_ref().unwrap();
    assert_eq!((o.fortitude, o.reflex, o.will), (15, 16, 13));
    assert_eq!((k.defenses.pd, k.defenses.md), (15, 13));
    // Lira's file states hers: kept as written.
    let l = spec("lira");
    let o = l.orcus.as_ref().unwrap();
    assert!(src.contains(&format!("fortitude = {}", o.fortitude)));
    assert!(src.contains(&format!("will = {}", o.will)));
}
