//! Weapons in play (orcus-basic-rules.txt § Tags: the Weapon tag; § Range; § Weapons: Weapon
//! proficiency, Weapon properties Reach, Thrown, Two-Handed, Side Weapon; § Improvised weapons).
//!
//! At load (`content/orcus.rs` calls [`hands`] for a hero and [`weapon_power`] for each of its
//! Weapon powers): a hero wields a main weapon from the weapon tables, an unarmed strike or an
//! improvised weapon, and perhaps a side weapon in its off hand; a power with the Weapon tag
//! uses the wielded weapon — its proficiency bonus is added to the power's stated `bonus` when
//! the hero is proficient, and its reach or range is the power's unless the power gives one.
//! A Weapon power is precomputed with the side weapon too (`PowerSpec::side`), and the
//! `attack` command's `weapon = "side"` chooses that variant ([`choose`]).

use super::commands::{R, no};
use super::tables::{self, Hands, Weapon, WeaponCategory, WeaponKind, WeaponProperty};
use crate::content::model::PowerSpec;
use crate::rules::orcus::content::PowerFile;
use fray_protocol::ErrorCode;
use fray_protocol::command::WeaponHand;

/// An improvised weapon or unarmed strike (§ Improvised weapons): 1d4 one-handed, 1d8
/// two-handed, "with no proficiency bonus on the attack" (proficiency bonus 0); no group, no
/// property (so underwater it is a weapon attack outside the Spears & Lances and Crossbows
/// groups).
const fn improvised(name: &'static str, hands: Hands) -> Weapon {
    Weapon {
        name,
        category: WeaponCategory::Simple,
        kind: WeaponKind::Melee,
        hands,
        proficiency_bonus: 0,
        damage: tables::improvised_weapon_damage(matches!(hands, Hands::Two)),
        range: None,
        cost_gp: 0,
        weight_lb: 0,
        properties: &[],
        groups: &[],
    }
}

/// A one-handed unarmed strike (a hand full, or kicking and headbutting).
pub static UNARMED_ONE: Weapon = improvised("unarmed strike", Hands::One);
/// A two-handed unarmed strike (both hands free).
pub static UNARMED_TWO: Weapon = improvised("unarmed strike", Hands::Two);
/// An improvised weapon in one hand.
pub static IMPROVISED_ONE: Weapon = improvised("improvised weapon", Hands::One);
/// An improvised weapon in both hands.
pub static IMPROVISED_TWO: Weapon = improvised("improvised weapon", Hands::Two);

/// Whether `w` is an unarmed strike or an improvised weapon (not from the weapon tables).
pub fn is_improvised(w: &Weapon) -> bool {
    w.proficiency_bonus == 0 && w.groups.is_empty()
}

/// What a hero holds, with its proficiency in each (§ Weapon proficiency).
#[derive(Debug, Clone, Copy)]
pub struct Wielded {
    /// The main weapon (a table weapon, an unarmed strike or an improvised weapon).
    pub main: Option<&'static Weapon>,
    /// Proficient with the main weapon.
    pub main_proficient: bool,
    /// § Weapon properties, Side Weapon: the side weapon in the off hand, and proficiency.
    pub side: Option<(&'static Weapon, bool)>,
}

impl Wielded {
    /// § Grapple, "Requirements You have one or more hands free": whether both hands hold
    /// something — the main weapon (a table or improvised weapon, in one or two hands; an unarmed
    /// strike holds nothing), a side weapon, a shield.
    pub fn hands_full(&self, shield: bool) -> bool {
        let main = match self.main {
            None => 0,
            Some(w) if std::ptr::eq(w, &UNARMED_ONE) || std::ptr::eq(w, &UNARMED_TWO) => 0,
            Some(w) if w.hands == Hands::Two => 2,
            Some(_) => 1,
        };
        main + usize::from(shield) + usize::from(self.side.is_some()) >= 2
    }
}

/// A load error: the hero field (`weapon`, `side_weapon`, …) and the message.
pub type LoadError = (String, String);

fn table_weapon(field: &str, name: &str) -> Result<&'static Weapon, LoadError> {
    tables::weapon(name).ok_or_else(|| {
        (
            field.to_owned(),
            format!(
                "unknown weapon '{name}' (a name from the weapon tables, e.g. longsword; or \
                 \"unarmed\" or \"improvised\")"
            ),
        )
    })
}

/// § Weapon proficiency: `list` names weapons and/or the categories `simple`, `martial`,
/// `exotic`; absent, the hero is proficient with the weapons it carries (as for armor).
fn proficient(list: Option<&[String]>, w: &Weapon) -> Result<bool, LoadError> {
    let Some(list) = list else { return Ok(true) };
    let mut yes = false;
    for (i, n) in list.iter().enumerate() {
        let category = match n.to_ascii_lowercase().as_str() {
            "simple" => Some(WeaponCategory::Simple),
            "martial" => Some(WeaponCategory::Martial),
            "exotic" => Some(WeaponCategory::Exotic),
            _ => None,
        };
        match category {
            Some(c) => yes |= c == w.category,
            None => yes |= table_weapon(&format!("weapon_proficiency[{i}]"), n)?.name == w.name,
        }
    }
    Ok(yes)
}

/// A hero's hands at load: `weapon` (a table name, `unarmed` or `improvised`),
/// `improvised_hands` (1 or 2, for `unarmed`/`improvised` only; default: an unarmed strike is
/// two-handed when both hands are free, an improvised weapon one-handed), `side_weapon` (a
/// table weapon with the Side property, beside a one-handed main weapon), whether it carries a
/// shield, and `weapon_proficiency`. Refused: a Two-Handed weapon (or a two-handed strike) with
/// a shield or a side weapon; a side weapon beside a shield, without a one-handed table weapon
/// in the main hand, or without the Side property.
pub fn hands(
    weapon: Option<&str>,
    improvised_hands: Option<u8>,
    side_weapon: Option<&str>,
    shield: bool,
    proficiency: Option<&[String]>,
) -> Result<Wielded, LoadError> {
    let err = |f: &str, m: String| Err((f.to_owned(), m));
    let side = match side_weapon {
        Some(n) => Some(table_weapon("side_weapon", n)?),
        None => None,
    };
    let off_hand_full = shield || side.is_some();
    let main = match (
        weapon.map(str::to_ascii_lowercase).as_deref(),
        improvised_hands,
    ) {
        (None, None) => None,
        (Some(kind @ ("unarmed" | "improvised")), h) => {
            let two = match h {
                None => kind == "unarmed" && !off_hand_full,
                Some(1) => false,
                Some(2) => true,
                Some(n) => {
                    return err(
                        "improvised_hands",
                        format!("{n} hands: an improvised weapon is held in 1 or 2"),
                    );
                }
            };
            if two && off_hand_full {
                return err(
                    "improvised_hands",
                    format!(
                        "a hero with a {} cannot strike two-handed (§ Improvised weapons)",
                        if shield { "shield" } else { "side weapon" }
                    ),
                );
            }
            Some(match (kind, two) {
                ("unarmed", false) => &UNARMED_ONE,
                ("unarmed", true) => &UNARMED_TWO,
                (_, false) => &IMPROVISED_ONE,
                (_, true) => &IMPROVISED_TWO,
            })
        }
        (_, Some(_)) => {
            return err(
                "improvised_hands",
                "only for weapon = \"unarmed\" or \"improvised\"".into(),
            );
        }
        (Some(_), None) => Some(table_weapon("weapon", weapon.unwrap_or_default())?),
    };
    if let Some(w) = main.filter(|w| w.hands == Hands::Two && !is_improvised(w)) {
        if shield {
            return err(
                "weapon",
                format!(
                    "the {} is Two-Handed: it cannot be wielded with a shield (§ Weapon \
                     properties, Two-Handed)",
                    w.name
                ),
            );
        }
        if side.is_some() {
            return err(
                "side_weapon",
                format!(
                    "the {} is Two-Handed: no hand is left for a side weapon (§ Weapon \
                     properties, Two-Handed)",
                    w.name
                ),
            );
        }
    }
    if let Some(s) = side {
        if s.hands != Hands::Side {
            return err(
                "side_weapon",
                format!(
                    "the {} has no Side Weapon property (side weapons: dart, knife, fork, \
                     handaxe, juggling club, light pick, shortsword, kukri, nunchaku)",
                    s.name
                ),
            );
        }
        if shield {
            return err(
                "side_weapon",
                "the shield is in the off hand: no side weapon beside it".into(),
            );
        }
        match main {
            Some(m) if !is_improvised(m) && matches!(m.hands, Hands::One | Hands::Side) => {}
            _ => {
                return err(
                    "side_weapon",
                    "a side weapon is wielded beside a one-handed weapon from the tables \
                     (§ Weapon properties, Side Weapon): give weapon = \"...\""
                        .into(),
                );
            }
        }
    }
    let main_proficient = match main {
        Some(w) => proficient(proficiency, w)?,
        None => {
            // Still check the list's names.
            if let Some(list) = proficiency {
                proficient(Some(list), &UNARMED_ONE)?;
            }
            false
        }
    };
    let side = match side {
        Some(s) => Some((s, proficient(proficiency, s)?)),
        None => None,
    };
    Ok(Wielded {
        main,
        main_proficient,
        side,
    })
}

/// Whether a power file has the Weapon tag (any case, as `tags.rs` accepts it).
pub fn has_weapon_tag(p: &PowerFile) -> bool {
    p.tags
        .iter()
        .any(|t| t.trim().eq_ignore_ascii_case("weapon"))
}

/// A hero's Weapon power with `weapon` (§ Tags, the Weapon tag; § Range): the power file with
/// the weapon's reach or range filled in where the power gives none, and the proficiency bonus
/// to add to its stated `bonus` (0 without proficiency, and always for an unarmed strike or an
/// improvised weapon). `None` for a power without the tag. The error names the power's field.
///
/// Melee: reach 1, +1 with the Reach property; a ranged weapon makes no melee Weapon attack.
/// Ranged and far: the weapon's short and long range (a far area: its short range), a thrown
/// melee weapon's 5/10; a melee weapon without Thrown (and an unarmed strike or improvised
/// weapon) makes no ranged Weapon attack. Near areas take no reach or range.
pub fn weapon_power(
    p: &PowerFile,
    weapon: Option<&'static Weapon>,
    proficient: bool,
) -> Result<Option<(PowerFile, i32)>, LoadError> {
    if !has_weapon_tag(p) {
        return Ok(None);
    }
    let Some(w) = weapon else {
        return Err((
            "tags".into(),
            "a Weapon power needs a weapon (§ Tags): give the hero weapon = \"...\", or \
             \"unarmed\" or \"improvised\""
                .into(),
        ));
    };
    let mut q = p.clone();
    match p.origin.as_str() {
        "melee" => {
            if w.kind == WeaponKind::Ranged {
                return Err((
                    "origin".into(),
                    format!(
                        "the {} is a ranged weapon: no melee Weapon attack with it",
                        w.name
                    ),
                ));
            }
            if q.reach.is_none() {
                q.reach = Some(1 + i32::from(w.has_property(WeaponProperty::Reach)));
            }
        }
        "ranged" | "far burst" | "far blast" => {
            let Some(r) = w.range else {
                return Err((
                    "origin".into(),
                    format!(
                        "the {} is a melee weapon without the Thrown property: no ranged \
                         Weapon attack with it",
                        w.name
                    ),
                ));
            };
            if q.range.is_empty() {
                q.range = if p.origin == "ranged" {
                    vec![r.short, r.long]
                } else {
                    vec![r.short]
                };
            }
        }
        _ => {}
    }
    let bonus = if proficient { w.proficiency_bonus } else { 0 };
    Ok(Some((q, bonus)))
}

/// The `attack` command's weapon choice (§ Weapon properties, Side Weapon: "Each time you make
/// a weapon attack (including a weapon power), you choose which weapon you attack with"): the
/// main weapon's power or its side-weapon variant. Refused `no_side_weapon` for a power without
/// the Weapon tag or a hero without a side weapon.
pub fn choose(p: &PowerSpec, hand: Option<WeaponHand>) -> R<&PowerSpec> {
    match (hand, &p.side) {
        (None | Some(WeaponHand::Main), _) => Ok(p),
        (Some(WeaponHand::Side), Some(side)) => Ok(side),
        (Some(WeaponHand::Side), None) if super::tags::has(p, "weapon") => Err(no(
            ErrorCode::NoSideWeapon,
            format!("no side weapon to make {} with", p.name),
        )),
        (Some(WeaponHand::Side), None) => Err(no(
            ErrorCode::NoSideWeapon,
            format!(
                "{} has no Weapon tag: only a Weapon power is made with a side weapon",
                p.name
            ),
        )),
    }
}

/// A basic Weapon attack's ability modifier (content `ability = "auto"`; § Weapon properties,
/// Thrown (light): "Use Dexterity for attack and damage rolls when you make a basic ranged
/// attack", Thrown (heavy): "Use Strength instead of Dexterity"; § Strength, § Dexterity,
/// Attack Rolls and Damage: Strength for a basic attack with a melee weapon or a heavy thrown
/// weapon, Dexterity with a ranged weapon or a light thrown one): a melee power takes Strength;
/// a ranged power Strength with a Thrown (heavy) weapon, Dexterity otherwise. `weapon` is the
/// hero's weapon for the power and its Strength and Dexterity modifiers. Refused (the error
/// names the field): another value, a power that is not a hero's basic Weapon attack with a
/// melee or ranged origin.
pub fn basic_ability(
    p: &PowerFile,
    value: &str,
    weapon: Option<(&'static Weapon, (i32, i32))>,
) -> Result<i32, LoadError> {
    let err = |m: &str| Err(("ability".to_owned(), m.to_owned()));
    if value != "auto" {
        return err("the only value is \"auto\" (the ability the weapon calls for)");
    }
    if !p.basic || !has_weapon_tag(p) {
        return err("\"auto\" is for a basic attack with the Weapon tag (basic = true)");
    }
    let Some((w, (str_mod, dex_mod))) = weapon else {
        return err("\"auto\" is for a hero's basic attack with a weapon");
    };
    match p.origin.as_str() {
        "melee" => Ok(str_mod),
        "ranged" if w.has_property(WeaponProperty::ThrownHeavy) => Ok(str_mod),
        "ranged" => Ok(dex_mod),
        _ => err("\"auto\" is for a melee or ranged basic attack"),
    }
}
