//! Forcing doors, in the open: Old-School Essentials (`ose-adventuring.txt`) § Stuck Doors
//! ("The chance of forcing open a stuck door depends on the character's Strength"; "A failed
//! attempt to force open a door eliminates any possibility of surprise … against any monsters
//! on the other side of the door") and Basic Fantasy (`basic-fantasy-adventures.txt`) § Doors
//! (stuck 1 on 1d6, locked 1d10, bars 1d20, the STR bonus added to the range). Neither text
//! makes the roll the referee's secret (Basic Fantasy says so for listening only), so
//! `secret_roll` with a door check rolls a public die (`door_forced`) from the session's stream.

use super::commands::R;
use crate::rules::common::decider::Decider;
use fray_protocol::BxEvent;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::ose::{OseBattle, SecretCheck};

/// Rolls the door check's die in the open; success on `chance` (the STR-adjusted range) or less.
/// A failure at a stuck or locked door sets `surprise_spoiled` (folded by the engine).
pub fn force(d: &mut Decider, check: SecretCheck, who: &CombatantId, chance: u32) -> R {
    let die = check.die();
    let roll = crate::dice::notation::roll_die(d.rng, die);
    let success = roll.natural().unwrap_or(die) <= chance;
    d.emit(GameEvent::Bx(BxEvent::DoorForced {
        check,
        combatant: who.clone(),
        chance,
        roll,
        success,
    }));
    Ok(())
}

/// § Stuck Doors, Surprise: after a failed attempt at a door, the monsters (behind it: the
/// session's monsters — Fray has no map of rooms) cannot be surprised by their next
/// `roll_surprise`; their die is still rolled and shown, like § Light and Surprise's.
pub fn surprise_spoiled(b: &OseBattle, side: Side) -> bool {
    b.surprise_spoiled && side == Side::Monsters
}
