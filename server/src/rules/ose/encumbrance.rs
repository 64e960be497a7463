//! Basic Fantasy § Movement and Encumbrance and § Carrying Capacity: a character's load (armor
//! included) is light or heavy by its STR and race; its movement per round follows the armor
//! and load table (`set_encumbrance`).

use super::Sheets;
use super::commands::{name, no, sheet, side_of};
use crate::rules::thirteenth_age::decider::Decider;
use fray_protocol::bf::ArmorType;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::state::Phase;
use fray_protocol::{ErrorCode, Rejection};

/// § Movement and Encumbrance: feet per round by armor and load.
pub fn movement(armor: ArmorType, heavy: bool) -> i32 {
    match (armor, heavy) {
        (ArmorType::None, false) => 40,
        (ArmorType::None, true) | (ArmorType::Leather, false) => 30,
        (ArmorType::Leather, true) | (ArmorType::Metal, false) => 20,
        (ArmorType::Metal, true) => 10,
    }
}

/// `set_encumbrance`: refused for a monster, or a load above the heavy-load capacity.
pub fn set(
    d: &mut Decider,
    s: &Sheets,
    who: &CombatantId,
    armor: ArmorType,
    load: u32,
) -> Result<(), Rejection> {
    if d.field.battle.phase == Phase::Ended {
        return Err(no(ErrorCode::BattleOver, "the session is over"));
    }
    let (_, kit) = sheet(s, who)?;
    if side_of(d, who)? != Side::Heroes || kit.bf.str == 0 {
        return Err(no(
            ErrorCode::InvalidTarget,
            "encumbrance is tracked for characters of the party",
        ));
    }
    let (light, heavy) = super::tables::bf_carrying_capacity(kit.bf.str, kit.bf.halfling);
    let load_i = i32::try_from(load).unwrap_or(i32::MAX);
    if load_i > heavy {
        return Err(no(
            ErrorCode::Overloaded,
            format!(
                "{} can carry at most {heavy} lb (§ Carrying Capacity)",
                name(d, who)
            ),
        ));
    }
    let heavy_load = load_i > light;
    d.emit(GameEvent::EncumbranceSet {
        combatant: who.clone(),
        armor,
        load,
        heavy: heavy_load,
        movement: movement(armor, heavy_load),
    });
    Ok(())
}
