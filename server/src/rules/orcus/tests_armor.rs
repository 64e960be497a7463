//! § Armor and shields (`armor.rs`, hero content `armor`, `shield`, `armor_proficiency`),
//! naming the section of `orcus-basic-rules.txt`.

use super::tests::arena_src;
use crate::content::model::CombatantSpec;
use crate::rules::load_encounter;

/// Everyone on one row.
const ROW: &str = "kael = [0, 0]\nlira = [1, 0]\nbrute-1 = [8, 0]\nbrute-2 = [9, 0]";

fn kael(src: &str) -> CombatantSpec {
    let enc = load_encounter("armor.toml", src).unwrap();
    enc.combatants
        .into_iter()
        .find(|c| c.id.as_str() == "kael")
        .unwrap()
}

fn err(src: &str) -> String {
    load_encounter("armor.toml", src)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default()
}

/// orcus-basic-rules.txt § Armor and shields (Table – Armor and Shields; Armor Proficiency;
/// Armor Check Penalty; Speed Penalty): chainmail (heavy, base 16, −1 check, −1 speed) and a
/// heavy shield (+2, −2 check) worn without proficiency in the chainmail: AC 16 + 0 (half of
/// level 1) + 2, no Dexterity; Reflex 13 + 2 − 2; speed 5 − 1 (fly 4 − 1); Athletics −3,
/// Perception unchanged; attacks −2.
#[test]
fn worn_armor_and_a_shield_set_the_stat_block_at_load_armor_and_shields() {
    let src = arena_src(&[".........."], "", 5, ROW)
        .replace("ac = 16\n", "")
        .replace(
            "wis = 2\n",
            "wis = 2\ndex = 3\nfly = 4\narmor = \"chainmail\"\nshield = \"heavy\"\n\
             armor_proficiency = [\"light shield\", \"heavy shield\"]\n",
        );
    let k = kael(&src);
    let o = k.orcus.as_ref().unwrap();
    assert_eq!(k.defenses.ac, 18);
    assert_eq!(o.reflex, 13);
    assert_eq!((o.speed, o.modes.fly), (4, 3));
    assert_eq!(o.skills["athletics"], -3);
    assert_eq!(o.skills["acrobatics"], 3 - 3);
    assert_eq!(o.skills["perception"], 2);
    assert_eq!(o.powers[0].bonus, 3);
    assert_eq!(o.str_attack, -2);
    // Proficient (by default: with what it wears), light leather: AC 12 + Dex 3, Reflex as
    // given, no penalties.
    let src2 = src
        .replace("armor = \"chainmail\"", "armor = \"leather\"")
        .replace("shield = \"heavy\"\n", "")
        .replace(
            "armor_proficiency = [\"light shield\", \"heavy shield\"]\n",
            "",
        );
    let k = kael(&src2);
    let o = k.orcus.as_ref().unwrap();
    assert_eq!((k.defenses.ac, o.reflex, o.speed), (15, 13, 5));
    assert_eq!((o.skills["athletics"], o.powers[0].bonus), (0, 5));
}

/// orcus-basic-rules.txt § Armor and shields: only the table's armor and shields; the AC
/// comes from the sheet (`ac`) or from the armor, not both.
#[test]
fn unknown_armor_and_a_doubled_ac_are_refused_on_load_armor_and_shields() {
    let base = arena_src(
        &[".........."],
        "",
        5,
        "kael = [0, 0]\nlira = [1, 0]\nbrute-1 = [8, 0]\nbrute-2 = [9, 0]",
    );
    let no_ac = base.replace("ac = 16\n", "");
    let e = err(&no_ac.replace("wis = 2\n", "wis = 2\narmor = \"mithral\"\n"));
    assert!(e.contains("hero.kael.armor"), "{e}");
    let e = err(&no_ac.replace("wis = 2\n", "wis = 2\narmor = \"heavy shield\"\n"));
    assert!(e.contains("hero.kael.armor"), "{e}");
    let e = err(&no_ac.replace("wis = 2\n", "wis = 2\nshield = \"tower\"\n"));
    assert!(e.contains("hero.kael.shield"), "{e}");
    let e = err(&no_ac.replace(
        "wis = 2\n",
        "wis = 2\narmor = \"plate\"\narmor_proficiency = [\"robes\"]\n",
    ));
    assert!(e.contains("hero.kael.armor_proficiency[0]"), "{e}");
    let e = err(&base.replace("wis = 2\n", "wis = 2\narmor = \"plate\"\n"));
    assert!(e.contains("hero.kael.ac"), "{e}");
    let e = err(&no_ac);
    assert!(e.contains("hero.kael.ac"), "{e}");
}
