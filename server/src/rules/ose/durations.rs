//! Timed effects counted in exploration turns (basic-fantasy-adventures.txt § Time and Scale:
//! "Time in the dungeon is measured in game turns"; ose-adventuring.txt § Sequence of Play Per
//! Turn, 4. End of turn: "durations"). The GM starts one with `time_effect`; at the end of each
//! exploration turn one turn comes off every effect, and those at their last turn end
//! (`timed_effect_ended`).

use super::Sheets;
use super::commands::{no, sheet};
use crate::rules::common::decider::Decider;
use fray_protocol::BxEvent;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::CombatantId;
use fray_protocol::state::Phase;
use fray_protocol::{ErrorCode, Rejection};

/// `time_effect`: refused for an empty or overlong name, a duration outside 1..=1000 turns, an
/// unknown combatant, or once the session is over.
pub fn time_effect(
    d: &mut Decider,
    s: &Sheets,
    name: &str,
    who: Option<&CombatantId>,
    turns: u32,
) -> Result<(), Rejection> {
    if d.field.battle.phase == Phase::Ended {
        return Err(no(ErrorCode::BattleOver, "the session is over"));
    }
    if name.trim().is_empty() || name.len() > 60 {
        return Err(no(
            ErrorCode::InvalidArgument,
            "an effect's name is 1-60 characters",
        ));
    }
    if !(1..=1000).contains(&turns) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "a timed effect lasts 1 to 1000 turns",
        ));
    }
    if let Some(id) = who {
        sheet(s, id)?;
    }
    let id = s.battle().bf.next_effect.max(1);
    d.emit(GameEvent::Bx(BxEvent::EffectTimed {
        id,
        name: name.trim().to_owned(),
        combatant: who.cloned(),
        turns,
    }));
    Ok(())
}

/// The end of an exploration turn (after `exploration_turn_passed`): effects at their last turn
/// end.
pub fn end_of_turn(d: &mut Decider, s: &Sheets) {
    for t in s.battle().bf.effects.iter().filter(|t| t.turns_left <= 1) {
        d.emit(GameEvent::Bx(BxEvent::TimedEffectEnded {
            id: t.id,
            name: t.name.clone(),
            combatant: t.combatant.clone(),
        }));
    }
}
