//! The checks every ruleset's commands start with — one copy each.

use super::decider::Decider;
use super::field::FighterItem;
use fray_protocol::ids::CombatantId;
use fray_protocol::state::Phase;
use fray_protocol::{ErrorCode, Rejection};

/// What a decide step returns.
pub type R<T = ()> = Result<T, Rejection>;

/// A refusal.
pub fn no(code: ErrorCode, msg: impl Into<String>) -> Rejection {
    Rejection::new(code, msg)
}

/// A refusal, as the result of a step.
pub fn reject<T>(code: ErrorCode, msg: impl Into<String>) -> R<T> {
    Err(no(code, msg))
}

/// The battle is running (not before the GM starts it, not after it ended).
pub fn running(d: &Decider) -> R {
    match d.field.battle.phase {
        Phase::Setup => reject(
            ErrorCode::BattleNotStarted,
            "the battle has not started; the GM starts it",
        ),
        Phase::Ended => reject(ErrorCode::BattleOver, "the battle is over"),
        Phase::Running => Ok(()),
    }
}

/// The combatant `id`, or `unknown_combatant`.
pub fn fighter<'f, 's>(d: &'f Decider<'_, '_, 's>, id: &CombatantId) -> R<FighterItem<'f, 's>> {
    d.field.get(id).ok_or_else(|| {
        no(
            ErrorCode::UnknownCombatant,
            format!("no combatant '{id}' in this fight"),
        )
    })
}

/// Why it is not `actor`'s turn, naming whose it is.
pub fn not_your_turn_msg(d: &Decider, actor: &CombatantId) -> String {
    match d.field.battle.current() {
        Some(c) => format!("it is {c}'s turn, not {actor}'s"),
        None => format!("it is not {actor}'s turn"),
    }
}

/// The battle runs and it is `actor`'s turn.
pub fn on_turn(d: &Decider, actor: &CombatantId) -> R {
    running(d)?;
    fighter(d, actor)?;
    if d.field.battle.current() != Some(actor) {
        return reject(ErrorCode::NotYourTurn, not_your_turn_msg(d, actor));
    }
    Ok(())
}
