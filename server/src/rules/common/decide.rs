//! The one decide wrapper every ruleset uses (engine tick, steps 2–3): a pending command is
//! decided with the ruleset's `decide`; a refusal restores both dice streams and emits nothing.

use super::decider::Decider;
use super::field::Field;
use crate::ecs::components::{Dice, Outbox, Pending, SecretDice};
use bevy_ecs::prelude::Res;
use fray_protocol::Rejection;

/// Run condition of every ruleset's `decide_command` system: a command is pending.
pub(crate) fn command_pending(p: Res<Pending>) -> bool {
    p.0.is_some()
}

/// Decides the pending command with a ruleset's `decide`. A refused command leaves the RNG where
/// it was (engine tick, step 3), even when the refusal is found after rolling began, and emits
/// nothing.
pub(crate) fn decide_pending(
    field: &Field,
    pending: &Pending,
    dice: &mut Dice,
    secret: &mut SecretDice,
    out: &mut Outbox,
    decide: impl FnOnce(&mut Decider, &fray_protocol::Command) -> Result<(), Rejection>,
) {
    let Some(cmd) = &pending.0 else { return };
    let before = (dice.0.clone(), secret.0.clone());
    let decided = {
        let mut d = Decider::new(field, &mut dice.0).with_secret(secret.0.as_mut());
        decide(&mut d, cmd).map(|()| d.into_events())
    };
    match decided {
        Ok(events) => out.events = events,
        Err(r) => {
            (dice.0, secret.0) = before;
            out.rejection = Some(r);
        }
    }
}

/// One pass of a ruleset's turn machinery (`advance`), its events into the outbox.
pub(crate) fn advance_pass(
    field: &Field,
    dice: &mut Dice,
    secret: &mut SecretDice,
    out: &mut Outbox,
    advance: impl FnOnce(&mut Decider),
) {
    let mut d = Decider::new(field, &mut dice.0).with_secret(secret.0.as_mut());
    advance(&mut d);
    out.events = d.into_events();
}

/// A damage dice expression a GM command names (a trap's, a fall's, a bomb's): it must parse
/// and can never roll below 0. Shared by the rulesets' GM damage commands.
pub(crate) fn damage_dice_ok(expr: &str) -> Result<(), Rejection> {
    use crate::dice::{DiceExpr, Placeholders};
    use fray_protocol::ErrorCode;
    let bad = |e: String| {
        Rejection::new(
            ErrorCode::InvalidArgument,
            format!("dice expression '{expr}': {e}"),
        )
    };
    let parsed = DiceExpr::parse(expr).map_err(|e| bad(e.to_string()))?;
    let (lo, _) = parsed
        .bounds(&Placeholders::default())
        .map_err(|e| bad(e.to_string()))?;
    if lo.is_some_and(|l| l < 0) {
        return Err(Rejection::new(
            ErrorCode::InvalidArgument,
            format!("dice expression '{expr}' can be negative"),
        ));
    }
    Ok(())
}
