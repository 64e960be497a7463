//! Old-School Essentials (`ose-adventuring.txt`) § Other Combat Issues, Subduing (Optional
//! Rule): an `attack` with `knock_out: true` announces the intent not to kill; its damage is
//! subdual damage, noted apart (`OseCombatant::subdual`); at the target's hit points it
//! surrenders and leaves the fight.

use super::commands::{R, no};
use crate::content::model::{OseAttackSpec, OseSpec};
use crate::rules::common::decider::Decider;
use fray_protocol::BxEvent;
use fray_protocol::ErrorCode;
use fray_protocol::event::GameEvent;
use fray_protocol::ftd::Departure;
use fray_protocol::ids::CombatantId;
use fray_protocol::ose::OseCombatant;

/// § Subduing: only "an intelligent opponent" (content `unintelligent` marks the others);
/// "Blunt blows": only bludgeoning attacks, or bladed melee weapons used with the flat of the
/// blade — *interpretation*: any melee attack may subdue, a missile may not.
pub fn may_subdue(subdue: bool, w: &OseAttackSpec, target: &OseSpec) -> R {
    if subdue && target.unintelligent {
        return Err(no(
            ErrorCode::CannotSubdue,
            "only an intelligent opponent can be subdued (§ Subduing)",
        ));
    }
    if subdue && w.ranges.is_some() {
        return Err(no(
            ErrorCode::CannotSubdue,
            format!(
                "{} is a missile attack: only blunt melee blows may subdue (§ Subduing)",
                w.name
            ),
        ));
    }
    Ok(())
}

/// § Subduing, "Subdual damage" and "Effect at 0 hp": notes the damage apart; the target
/// surrenders when its subdual damage reaches its remaining hit points.
pub fn subdue(
    d: &mut Decider,
    tsh: &OseCombatant,
    actor: &CombatantId,
    attack: &str,
    target: &CombatantId,
    amount: i32,
) {
    let subdual = tsh.subdual.saturating_add(amount.max(0));
    d.emit(GameEvent::Bx(BxEvent::Subdued {
        attacker: actor.clone(),
        target: target.clone(),
        attack: attack.to_owned(),
        amount: amount.max(0),
        subdual,
    }));
    let hp = d.overlay.vitals(d.field, target).map_or(0, |v| v.current);
    if subdual >= hp {
        d.emit(GameEvent::LeftBattle {
            combatant: target.clone(),
            how: Departure::Surrendered,
        });
    }
}
