//! § Action descriptions (orcus-basic-rules.txt): a power's Category (attack or utility), its
//! Tags and its Tradition, as data. The vocabulary is Fray's: the text names the Weapon and
//! Focus tags (§ Tags), the traditions Arcane, Divine, Martial and Spirit (§ Traditions; Primal
//! in § Focuses), the Fire tag (§ Underwater combat: damage types are tags), Spell (the
//! example power "tangles") and Conjuration, Summons and Zone (§ Arcana, Identify Persistent
//! Power); the rest are Fourth Edition's usual effect keywords, accepted so content can say
//! them. Only `weapon` (`weapons.rs`) and `fire` (§ Underwater combat) change outcomes.

use crate::content::model::{PowerCategory, PowerSpec};
use fray_protocol::event::DamageType;

/// The traditions (§ Traditions: "The main four are Arcane, Divine, Martial and Spirit";
/// § Focuses names primal powers). A power has at most one (interpretation: it is the power's
/// source).
pub const TRADITIONS: &[&str] = &["arcane", "divine", "martial", "primal", "spirit"];

/// The ten damage types, as tags (§ Tags: "powers with the Fire tag").
pub const DAMAGE_TAGS: &[&str] = &[
    "acid",
    "cold",
    "fire",
    "force",
    "lightning",
    "necrotic",
    "poison",
    "psychic",
    "radiant",
    "thunder",
];

/// The other tags: what the power uses and what it does.
pub const OTHER_TAGS: &[&str] = &[
    "weapon",
    "focus",
    "spell",
    "aura",
    "charm",
    "conjuration",
    "fear",
    "healing",
    "illusion",
    "polymorph",
    "reliable",
    "sleep",
    "stance",
    "summons",
    "teleportation",
    "zone",
];

/// Every accepted tag, for error messages.
fn vocabulary() -> String {
    [OTHER_TAGS, TRADITIONS, DAMAGE_TAGS].concat().join(", ")
}

/// A power file's `category`: `attack` or `utility` (§ Action descriptions, Category). Absent:
/// an attack when the power attacks a defense (`vs`), a utility power when it has no attack
/// roll. An attack without `vs` is refused; a utility power may still make an attack roll (the
/// text's utility actions such as Identify Persistent Power do).
pub fn category(given: Option<&str>, attacks: bool) -> Result<PowerCategory, String> {
    match (given, attacks) {
        (None, true) | (Some("attack"), true) => Ok(PowerCategory::Attack),
        (None, false) | (Some("utility"), _) => Ok(PowerCategory::Utility),
        (Some("attack"), false) => {
            Err("an attack power attacks a defense: give it `vs`, or make it `utility`".to_owned())
        }
        (Some(o), _) => Err(format!("unknown category '{o}' (attack, utility)")),
    }
}

/// A power file's `tags`, checked: each from the vocabulary (any case; kept lowercase), none
/// twice, at most one tradition. The error names the offending index.
pub fn tags(given: &[String]) -> Result<Vec<String>, (Option<usize>, String)> {
    let mut out: Vec<String> = Vec::new();
    for (i, t) in given.iter().enumerate() {
        let t = t.trim().to_ascii_lowercase();
        if ![OTHER_TAGS, TRADITIONS, DAMAGE_TAGS]
            .iter()
            .any(|list| list.contains(&t.as_str()))
        {
            return Err((Some(i), format!("unknown tag '{t}' ({})", vocabulary())));
        }
        if out.contains(&t) {
            return Err((Some(i), format!("tag '{t}' appears twice")));
        }
        out.push(t);
    }
    let traditions: Vec<&String> = out
        .iter()
        .filter(|t| TRADITIONS.contains(&t.as_str()))
        .collect();
    if traditions.len() > 1 {
        return Err((
            None,
            format!(
                "a power has one tradition (its power source), not {}",
                traditions
                    .iter()
                    .map(|t| t.as_str())
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
        ));
    }
    Ok(out)
}

/// Whether the power has `tag`.
pub fn has(p: &PowerSpec, tag: &str) -> bool {
    p.tags.iter().any(|t| t == tag)
}

/// § Underwater combat, "Powers with the Fire tag have a −2 penalty on attack rolls": the Fire
/// tag, or (interpretation, as before tags existed) fire damage.
pub fn fire(p: &PowerSpec) -> bool {
    has(p, "fire") || p.damage_type == Some(DamageType::Fire)
}
