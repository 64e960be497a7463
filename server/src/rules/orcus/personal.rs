//! § Origin of effect, Self (`orcus-basic-rules.txt`): "The effect originates with you and
//! affects only you." A power with content `origin = "self"` (`Origin::Personal`) is sent with
//! `attack` naming no target or only its user; it targets its user, who is always within range
//! of itself. The loader allows it only as a utility power (no `vs`: no attack roll).

use super::commands::{R, no};
use crate::content::model::{Origin, PowerSpec};
use fray_protocol::ErrorCode;
use fray_protocol::ids::CombatantId;

/// The targets an `attack` with power `p` takes: for a self power the user alone (`[]` or
/// `[actor]`; anything else is refused `invalid_target`), otherwise those sent.
pub(super) fn targets<'a>(
    p: &PowerSpec,
    actor: &'a CombatantId,
    sent: &'a [CombatantId],
) -> R<&'a [CombatantId]> {
    if p.origin != Origin::Personal {
        return Ok(sent);
    }
    match sent {
        [] => Ok(std::slice::from_ref(actor)),
        [t] if t == actor => Ok(sent),
        _ => Err(no(
            ErrorCode::InvalidTarget,
            format!("{} affects only its user ({actor})", p.name),
        )),
    }
}
