//! Old-School Essentials (`ose-adventuring.txt`) § Evasion and Pursuit, Running: "The penalties
//! for exhaustion last until characters have rested for three full turns." The party rests in an
//! `exploration_turn` with `rest`; each exhausted character counts those turns in a row
//! (`OseCombatant::rested_turns`, folded from `exploration_turn_passed`), and with the third the
//! server clears its `exhausted` condition (`ose_condition_changed`). A turn without rest starts
//! the count again (*interpretation*: "three full turns" of rest taken together). Monsters do not
//! rest with the party: their exhaustion stays the GM's (`ose_condition`).

use super::Sheets;
use crate::rules::common::decider::Decider;
use fray_protocol::BxEvent;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::ose::OseCondition;

/// Turns of rest that end exhaustion (§ Running, Resting).
pub const REST_TURNS: u32 = 3;

/// At the end of an exploration turn the party rested: the characters whose third full turn of
/// rest this was are no longer exhausted.
pub fn rest(d: &mut Decider, s: &Sheets, rested: bool) {
    if !rested {
        return;
    }
    let heroes: Vec<CombatantId> = d.field.ids_of(Side::Heroes);
    for id in heroes {
        let Some((sh, _)) = s.get(&id) else { continue };
        if sh.conditions.contains(&OseCondition::Exhausted)
            && sh.rested_turns.saturating_add(1) >= REST_TURNS
        {
            d.emit(GameEvent::Bx(BxEvent::OseConditionChanged {
                combatant: id,
                condition: OseCondition::Exhausted,
                on: false,
            }));
        }
    }
}
