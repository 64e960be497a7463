//! Free actions (`orcus-basic-rules.txt` § Free actions: "There are also some powers that
//! require a free action"; § Outside of your turn: "free actions that have a trigger that is met
//! outside of your turn"; § Action required: a free action's effects "commence after the
//! trigger is fully resolved").
//!
//! A power with `action = "free"` is sent with its usual command (`attack` or `area_attack`);
//! it spends no action, so it may be used any number of times on the user's turn (its
//! frequency still limits it). Outside the user's turn only a power with a trigger may be used,
//! and whether the trigger happened is the table's call, as for immediate actions. The user must
//! be able to act: not down, stunned, unconscious, helpless, surprised or surrendered
//! (interpretation: Fourth Edition's "can't take actions"; a dazed creature still takes free
//! actions).

use super::commands::{R, fighter, no, running};
use crate::content::model::PowerSpec;
use crate::rules::common::decider::Decider;
use crate::rules::common::field::has_condition;
use fray_protocol::ErrorCode;
use fray_protocol::event::Condition;
use fray_protocol::ids::CombatantId;
use fray_protocol::state::LifeStatus;

/// Whether `actor` may take a free action now: on its turn (or a commanded mount's rider's
/// turn), or outside it for a power with a trigger.
pub(super) fn check(d: &Decider, actor: &CombatantId, p: &PowerSpec) -> R {
    running(d)?;
    let own_turn = d.field.battle.current() == Some(actor) || super::mounts::commanded(d, actor);
    if !own_turn && p.trigger.is_none() {
        return Err(no(
            ErrorCode::NotYourTurn,
            format!(
                "{} is a free action without a trigger: it is used on its user's turn",
                p.name
            ),
        ));
    }
    able(d, actor)
}

/// The actor can take actions (free ones included).
pub(super) fn able(d: &Decider, actor: &CombatantId) -> R {
    incapable(d, actor, false, "actions")
}

/// Refuses an actor that cannot take `what` (free actions: `actions`; immediate actions, which
/// a dazed creature cannot take too: `dazed_too`): down, stunned, surprised, helpless,
/// unconscious or surrendered — each with its own code where it has one.
pub(super) fn incapable(d: &Decider, actor: &CombatantId, dazed_too: bool, what: &str) -> R {
    let f = fighter(d, actor)?;
    if f.vit.0 != LifeStatus::Conscious {
        return Err(no(ErrorCode::CannotAct, format!("{} is down", f.c.name)));
    }
    let dazed = dazed_too.then_some(Condition::Dazed);
    for c in dazed.into_iter().chain([
        Condition::Stunned,
        Condition::Surprised,
        Condition::Helpless,
        Condition::Unconscious,
        Condition::Surrendered,
    ]) {
        if has_condition(f.fx, c) {
            let code = match c {
                Condition::Dazed => ErrorCode::Dazed,
                Condition::Stunned => ErrorCode::Stunned,
                Condition::Surrendered => ErrorCode::Surrendered,
                _ => ErrorCode::CannotAct,
            };
            return Err(no(
                code,
                format!(
                    "{} is {} and takes no {what}",
                    f.c.name,
                    super::commands::condition_name(c)
                ),
            ));
        }
    }
    Ok(())
}
