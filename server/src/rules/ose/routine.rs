//! `ose-adventuring.txt` § Attacks Per Round: PCs attack once per round; some monsters have
//! several attacks. A monster's attacks marked `routine` in content (e.g. claw/claw/bite) may
//! each be made once in its turn; its standard action is spent with the last of them (or when
//! it ends its turn). An attack not in the routine is its one attack of the round, as for PCs.

use super::Sheets;
use super::commands::{R, name, no, pay};
use crate::content::model::{OseAttackSpec, OseSpec};
use crate::rules::common::decider::Decider;
use fray_protocol::BxEvent;
use fray_protocol::ErrorCode;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::CombatantId;
use fray_protocol::ose::OseCombatant;

/// Spends what the attack `w` costs; refuses an attack the round's budget no longer allows.
pub(super) fn pay_attack(
    d: &mut Decider,
    s: &Sheets,
    actor: &CombatantId,
    sh: &OseCombatant,
    kit: &OseSpec,
    w: &OseAttackSpec,
) -> R {
    let routine: Vec<&str> = kit
        .attacks
        .iter()
        .filter(|a| a.routine)
        .map(|a| a.id.as_str())
        .collect();
    if !w.routine || !routine.contains(&w.id.as_str()) {
        if !sh.routine_used.is_empty() {
            return Err(no(
                ErrorCode::ActionAlreadyUsed,
                format!(
                    "{} has begun its routine of attacks this round: {} is not part of it \
                     (§ Attacks Per Round)",
                    name(d, actor),
                    w.name
                ),
            ));
        }
        return pay(d, s, actor);
    }
    if sh.routine_used.iter().any(|u| u == &w.id) {
        return Err(no(
            ErrorCode::ActionAlreadyUsed,
            format!(
                "{} has already made its {} attack this round (§ Attacks Per Round)",
                name(d, actor),
                w.name
            ),
        ));
    }
    let last = routine
        .iter()
        .all(|id| *id == w.id || sh.routine_used.iter().any(|u| u == id));
    if last {
        pay(d, s, actor)?;
    } else {
        super::commands::ready(d, s, actor)?;
    }
    d.emit(GameEvent::Bx(BxEvent::RoutineAttack {
        combatant: actor.clone(),
        attack: w.id.clone(),
    }));
    Ok(())
}
