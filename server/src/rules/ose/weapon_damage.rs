//! Old-School Essentials (`ose-adventuring.txt`) § Rolling for Damage ("PC attacks: Inflict 1d6
//! damage"; "Monster attacks: Deal the damage indicated in the monster's description") and
//! § Variable Weapon Damage (Optional Rule): "PC attacks inflict the damage indicated for the
//! weapon in the equipment lists" — the session option `weapon_damage` (`d6` by default).

use crate::content::model::{OseAttackSpec, OseSpec};
use fray_protocol::ose::{OseOptions, WeaponDamage};

/// The damage dice of `attack` by `attacker`: a character's (content `class`) weapon attack
/// deals 1d6 unless the session uses variable weapon damage; monsters' attacks, and § Unarmed
/// Attacks ("1d2 damage", a rule of its own), keep their dice.
pub fn dice<'a>(
    options: &OseOptions,
    attacker: &OseSpec,
    attack: &'a OseAttackSpec,
    unarmed: bool,
) -> &'a str {
    let character = attacker.class.is_some();
    if character && !unarmed && options.weapon_damage == WeaponDamage::D6 {
        "1d6"
    } else {
        &attack.damage
    }
}
