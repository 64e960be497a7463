//! § Weapon properties, Loading (orcus-basic-rules.txt): a Loading (swift) weapon needs a swift
//! action to reload after each attack before it attacks again (`reload`; refused `not_loaded`
//! otherwise). Loading (free) costs nothing and is not tracked. A multi-target attack reloads
//! freely between its targets (§ Attacks with ammunition): one reload after the attack.
//! Interpretation: a weapon is loaded when each battle of the session begins. A hero power using
//! its weapon's dice (`dW`) takes the weapon table's Loading at load (`content/orcus.rs::loading`).

use super::Board;
use super::commands::{R, no, on_turn, pay};
use crate::content::model::PowerSpec;
use crate::rules::common::decider::Decider;
use fray_protocol::ErrorCode;
use fray_protocol::OrcusEvent;
use fray_protocol::event::{ActionKind, GameEvent};
use fray_protocol::ids::CombatantId;

fn unloaded(d: &Decider, b: &Board, actor: &CombatantId, power: &str) -> bool {
    // A `reload_needed` or `reloaded` earlier in this same decision counts.
    let pending = d.events().iter().rev().find_map(|e| match e {
        GameEvent::Orcus(OrcusEvent::ReloadNeeded {
            combatant,
            power: p,
        }) if combatant == actor && p == power => Some(true),
        GameEvent::Orcus(OrcusEvent::Reloaded {
            combatant,
            power: p,
        }) if combatant == actor && p == power => Some(false),
        _ => None,
    });
    pending.unwrap_or_else(|| {
        b.get(actor)
            .is_some_and(|(g, _)| g.0.unloaded.iter().any(|p| p == power))
    })
}

/// Refuses an attack with a Loading (swift) power that was not reloaded.
pub fn loaded(b: &Board, actor: &CombatantId, p: &PowerSpec) -> R {
    if p.loading_swift
        && b.get(actor)
            .is_some_and(|(g, _)| g.0.unloaded.iter().any(|u| u == &p.id))
    {
        return Err(no(
            ErrorCode::NotLoaded,
            format!("{} must be reloaded first (a swift action: reload)", p.name),
        ));
    }
    Ok(())
}

/// After an attack with a Loading (swift) power: it needs reloading.
pub fn fired(d: &mut Decider, actor: &CombatantId, p: &PowerSpec) {
    if p.loading_swift {
        d.emit(GameEvent::Orcus(OrcusEvent::ReloadNeeded {
            combatant: actor.clone(),
            power: p.id.clone(),
        }));
    }
}

/// `reload`: a swift action on the actor's turn reloads a fired Loading (swift) power.
pub fn reload(d: &mut Decider, b: &Board, actor: &CombatantId, power: &str) -> R {
    on_turn(d, actor)?;
    let (_, kit) = b.get(actor).ok_or_else(|| {
        no(
            ErrorCode::UnknownCombatant,
            format!("no combatant '{actor}'"),
        )
    })?;
    let Some(p) = kit.0.powers.iter().find(|p| p.id == power) else {
        return Err(no(
            ErrorCode::UnknownAttack,
            format!("{actor} has no power '{power}'"),
        ));
    };
    if !p.loading_swift {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("{} needs no reloading action", p.name),
        ));
    }
    if !unloaded(d, b, actor, power) {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("{} is already loaded", p.name),
        ));
    }
    pay(d, actor, ActionKind::Quick)?;
    d.emit(GameEvent::Orcus(OrcusEvent::Reloaded {
        combatant: actor.clone(),
        power: power.to_owned(),
    }));
    Ok(())
}
