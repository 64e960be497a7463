//! § Armor and shields (`orcus-basic-rules.txt`, "Armor" and "Table – Armor and Shields"): what
//! a hero's worn armor and shield do to its stat block, computed when the content loads.
//!
//! - AC: the armor's base AC (no armor: 10, interpretation — cloth's base, "regular clothes")
//!   plus half the level (§ Creating new monsters: heroes, like monsters, add half their level to
//!   defenses), plus the higher of Dexterity and Intelligence in light or no armor (§ Dexterity,
//!   Armor Class and Reflex Defense), plus the shield bonus;
//! - Reflex: plus the shield bonus ("A shield's bonus applies to Armor Class and Reflex");
//! - armor check penalty (armor and shield together) to the skills the skills table marks;
//! - speed penalty to the speed and every other movement mode;
//! - Armor Proficiency: wearing armor (interpretation: or a shield) without proficiency is −2
//!   to attack rolls and Reflex (once, not per item).

use super::tables::{self, Armor, ArmorType};

/// What the worn armor and shield change in a stat block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outfit {
    /// Armor Class.
    pub ac: i32,
    /// Added to Reflex (shield bonus, non-proficiency penalty).
    pub reflex: i32,
    /// Added to attack rolls (non-proficiency penalty).
    pub attack: i32,
    /// Added to the skills with an armor check penalty.
    pub check: i32,
    /// Added to every speed.
    pub speed: i32,
}

/// Finds body armor by its table name, case-insensitive, with or without " armor"
/// (`plate`, `Plate armor`, `chainmail`).
pub fn body_armor(name: &str) -> Option<&'static Armor> {
    let n = name.trim();
    tables::armor_by_name(n)
        .or_else(|| tables::armor_by_name(&format!("{n} armor")))
        .filter(|a| a.armor_type != ArmorType::Shield)
}

/// Finds a shield by its table name, case-insensitive, with or without " shield" (`heavy`).
pub fn shield(name: &str) -> Option<&'static Armor> {
    let n = name.trim();
    tables::armor_by_name(n)
        .or_else(|| tables::armor_by_name(&format!("{n} shield")))
        .filter(|a| a.armor_type == ArmorType::Shield)
}

/// The outfit of a hero of `level` with Dexterity and Intelligence modifiers `dex`, `int`,
/// wearing `armor` and `shield`, `proficient` or not with what it wears.
pub fn outfit(
    level: i32,
    dex: i32,
    int: i32,
    armor: Option<&Armor>,
    shield: Option<&Armor>,
    proficient: bool,
) -> Outfit {
    let heavy = armor.is_some_and(|a| a.armor_type == ArmorType::Heavy);
    let base = armor.map_or(10, |a| a.ac);
    let ability = if heavy { 0 } else { dex.max(int) };
    let shield_bonus = shield.map_or(0, |s| s.ac);
    let worn = armor.is_some() || shield.is_some();
    let penalty = if worn && !proficient {
        tables::NONPROFICIENT_ARMOR_PENALTY
    } else {
        0
    };
    let both = [armor, shield];
    Outfit {
        ac: base + level / 2 + ability + shield_bonus,
        reflex: shield_bonus + penalty,
        attack: penalty,
        check: both.iter().flatten().map(|a| a.check_penalty).sum(),
        speed: both.iter().flatten().map(|a| a.speed_penalty).sum(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `orcus-basic-rules.txt` § Armor and shields (Table – Armor and Shields): each armor's base
    /// AC, penalties; light armor adds the better of Dex and Int, heavy armor none; half the
    /// level; the shield adds to AC and Reflex; non-proficiency is −2 to attacks and Reflex.
    #[test]
    fn the_armor_table_sets_ac_reflex_penalties_and_speed_armor_and_shields() {
        let rows = [
            ("cloth", 10 + 2 + 3, 0, 0),
            ("leather", 12 + 2 + 3, 0, 0),
            ("hide", 13 + 2 + 3, -1, 0),
            ("chainmail", 16 + 2, -1, -1),
            ("scale", 17 + 2, 0, -1),
            ("plate", 18 + 2, -2, -1),
        ];
        for (name, ac, check, speed) in rows {
            let a = body_armor(name).unwrap();
            let o = outfit(5, 1, 3, Some(a), None, true);
            assert_eq!((o.ac, o.check, o.speed), (ac, check, speed), "{name}");
            assert_eq!((o.reflex, o.attack), (0, 0), "{name}");
        }
        let none = outfit(5, 1, 3, None, None, false);
        assert_eq!((none.ac, none.reflex, none.attack), (15, 0, 0));
        let heavy = shield("heavy").unwrap();
        let o = outfit(4, 0, 0, body_armor("Plate armor"), Some(heavy), true);
        assert_eq!((o.ac, o.reflex, o.check, o.speed), (18 + 2 + 2, 2, -4, -1));
        let light = shield("Light shield").unwrap();
        let o = outfit(4, 0, 0, body_armor("leather"), Some(light), false);
        assert_eq!((o.ac, o.reflex, o.attack), (12 + 2 + 1, 1 - 2, -2));
        assert!(body_armor("heavy shield").is_none());
        assert!(shield("plate").is_none());
        assert!(body_armor("mithral").is_none());
    }
}
