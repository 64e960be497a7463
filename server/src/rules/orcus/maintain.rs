//! § Maintain on powers (`orcus-basic-rules.txt` § Maintain, § The end of your turn): a power
//! with `maintain = "swift" | "move" | "standard"` makes effects (duration `maintain`) and a zone
//! that last only while its user pays that action with `maintain` on each of its turns; the
//! turn the effect was created counts as paid (the text's black tentacles example). Unpaid, the
//! effect ends at the end of the user's turn ("Any effects that require an action to maintain
//! concentration, which you have not spent, end now"). Several may be maintained, each paid for.
//! `end_effect` ends one early, as a free action at any time. Maintaining (or ending) an effect
//! that has ended is refused with `effect_ended`.
//!
//! The bookkeeping is the Grapple's (`maneuvers.rs`): a `maintained` event lists the effect in
//! the user's `grid.maintained` until its turn ends; the effects that need it are listed in the
//! user's `grid.maintain_needed` (`maintenance_needed` events). A Grapple action's grapple keeps
//! its own rules (`maneuvers::maintain`, `lapse`).

use super::Board;
use super::commands::{R, no, on_turn, pay, running};
use super::power_effects;
use super::riders;
use crate::content::model::PowerSpec;
use crate::rules::common::decider::Decider;
use fray_protocol::ErrorCode;
use fray_protocol::OrcusEvent;
use fray_protocol::event::{Effect, EffectEndReason, GameEvent};
use fray_protocol::grid::MaintainedEffect;
use fray_protocol::ids::CombatantId;
use fray_protocol::state::LifeStatus;

/// Records that effect `effect` of power `p` (on `target`, or a zone) lasts while `user`
/// maintains it; the turn it is created counts as maintained.
pub(super) fn needed(
    d: &mut Decider,
    user: &CombatantId,
    p: &PowerSpec,
    effect: u32,
    target: Option<&CombatantId>,
) {
    let Some(action) = p.maintain else {
        return;
    };
    d.emit(GameEvent::Orcus(OrcusEvent::MaintenanceNeeded {
        combatant: user.clone(),
        effect: MaintainedEffect {
            effect,
            target: target.cloned(),
            power: p.id.clone(),
            action,
        },
    }));
    d.emit(GameEvent::Orcus(OrcusEvent::Maintained {
        combatant: user.clone(),
        effect,
    }));
}

/// The effects `user` must maintain that are still going, as of this decision.
fn records(d: &mut Decider, b: &Board, user: &CombatantId) -> Vec<MaintainedEffect> {
    let mut out: Vec<MaintainedEffect> = b
        .get(user)
        .map(|(g, _)| g.0.maintain_needed.clone())
        .unwrap_or_default();
    out.extend(d.events().iter().filter_map(|e| match e {
        GameEvent::Orcus(OrcusEvent::MaintenanceNeeded { combatant, effect })
            if combatant == user =>
        {
            Some(effect.clone())
        }
        _ => None,
    }));
    out.retain(|m| going(d, b, m).is_some());
    out
}

/// What a maintained effect is now: `Some(Some(effect))` on a creature, `Some(None)` a zone;
/// `None` when it has ended.
fn going(d: &mut Decider, b: &Board, m: &MaintainedEffect) -> Option<Option<Effect>> {
    let ended_now = d.events().iter().any(|e| match e {
        GameEvent::EffectEnded { effect, .. } => *effect == m.effect,
        GameEvent::Orcus(OrcusEvent::ZoneEnded { zone, .. }) => *zone == m.effect,
        _ => false,
    });
    if ended_now {
        return None;
    }
    match &m.target {
        None => power_effects::zones(d, b)
            .iter()
            .any(|z| z.id == m.effect)
            .then_some(None),
        Some(t) => {
            if matches!(
                d.status(t),
                Some(LifeStatus::Dead | LifeStatus::Slain) | None
            ) {
                return None;
            }
            let now = d
                .field
                .get(t)
                .and_then(|f| f.fx.0.iter().find(|e| e.id == m.effect).cloned());
            let applied = || {
                d.events().iter().find_map(|e| match e {
                    GameEvent::EffectApplied { effect } if effect.id == m.effect => {
                        Some(effect.clone())
                    }
                    _ => None,
                })
            };
            now.or_else(applied).map(Some)
        }
    }
}

/// Whether `effect` names an effect or zone that existed and is over (ids are never reused).
fn ended(d: &Decider, b: &Board, effect: u32) -> bool {
    let issued = effect < d.field.battle.next_effect_id
        || d.events().iter().any(|e| match e {
            GameEvent::EffectApplied { effect: x } => x.id >= effect,
            GameEvent::Orcus(OrcusEvent::ZoneCreated { zone }) => zone.id >= effect,
            _ => false,
        });
    if !issued {
        return false;
    }
    let on_someone = d.field.all().any(|f| f.fx.0.iter().any(|e| e.id == effect))
        || d.events()
            .iter()
            .any(|e| matches!(e, GameEvent::EffectApplied { effect: x } if x.id == effect));
    let ended_now = d.events().iter().any(|e| match e {
        GameEvent::EffectEnded { effect: x, .. } => *x == effect,
        GameEvent::Orcus(OrcusEvent::ZoneEnded { zone, .. }) => *zone == effect,
        _ => false,
    });
    ended_now || (!on_someone && !power_effects::zones(d, b).iter().any(|z| z.id == effect))
}

fn ended_refusal(effect: u32) -> fray_protocol::Rejection {
    no(
        ErrorCode::EffectEnded,
        format!("effect #{effect} has ended: it cannot be maintained or ended (§ Maintain)"),
    )
}

/// § Maintain: the actor pays the power's maintain action for one of its effects or zones this
/// turn; other ids go to the Grapple's maintain.
pub fn maintain(d: &mut Decider, b: &Board, actor: &CombatantId, effect: u32) -> R {
    on_turn(d, actor)?;
    let Some(m) = records(d, b, actor)
        .into_iter()
        .find(|m| m.effect == effect)
    else {
        if ended(d, b, effect) {
            return Err(ended_refusal(effect));
        }
        return super::maneuvers::maintain(d, b, actor, effect);
    };
    let done = b
        .get(actor)
        .is_some_and(|(g, _)| g.0.maintained.contains(&effect))
        || d.events().iter().any(|x| {
            matches!(x, GameEvent::Orcus(OrcusEvent::Maintained { combatant, effect: e }) if combatant == actor && *e == effect)
        });
    if done {
        return Err(no(
            ErrorCode::ActionAlreadyUsed,
            format!("effect #{effect} is already maintained this turn"),
        ));
    }
    pay(d, actor, m.action)?;
    d.emit(GameEvent::Orcus(OrcusEvent::Maintained {
        combatant: actor.clone(),
        effect,
    }));
    Ok(())
}

/// § Maintain: "You can end an effect that requires maintenance at any time as a free action" —
/// one of the actor's maintained effects or zones, or a grapple it holds (§ Grapple, Maintain
/// Swift). Interpretation: at any time in a running battle, by a creature able to act.
pub fn end_effect(d: &mut Decider, b: &Board, actor: &CombatantId, effect: u32) -> R {
    running(d)?;
    super::free::able(d, actor)?;
    if let Some(m) = records(d, b, actor)
        .into_iter()
        .find(|m| m.effect == effect)
    {
        stop(d, b, actor, &m, EffectEndReason::Released);
        return Ok(());
    }
    if let Some((target, _)) = super::maneuvers::held_by(d, actor, effect) {
        super::maneuvers::release(d, &target, effect);
        return Ok(());
    }
    if ended(d, b, effect) {
        return Err(ended_refusal(effect));
    }
    Err(no(
        ErrorCode::InvalidArgument,
        format!("effect #{effect} is not an effect {actor} maintains"),
    ))
}

/// Ends a maintained effect or zone.
fn stop(
    d: &mut Decider,
    b: &Board,
    user: &CombatantId,
    m: &MaintainedEffect,
    why: EffectEndReason,
) {
    match (going(d, b, m), &m.target) {
        (Some(Some(e)), Some(t)) => riders::end(d, b, t, &e, why),
        (Some(None), None) => power_effects::end_zone(d, user, m.effect, why),
        _ => {}
    }
}

/// § The end of your turn: what `user` had to maintain and did not this turn ends (it runs
/// out: an aftereffect follows, § Special saving throw riders).
pub(super) fn lapse(d: &mut Decider, b: &Board, user: &CombatantId) {
    let kept: Vec<u32> = b
        .get(user)
        .map(|(g, _)| g.0.maintained.clone())
        .unwrap_or_default();
    for m in records(d, b, user) {
        let now = d.events().iter().any(|x| {
            matches!(x, GameEvent::Orcus(OrcusEvent::Maintained { combatant, effect }) if combatant == user && *effect == m.effect)
        });
        if !kept.contains(&m.effect) && !now {
            stop(d, b, user, &m, EffectEndReason::Expired);
        }
    }
}

/// After every command: a creature out of the fight (dead or slain) takes no more turns, so
/// its zones and the effects it maintains end (interpretation: nobody is left to keep them).
pub(super) fn sweep(d: &mut Decider, b: &Board) {
    let gone: Vec<CombatantId> = d
        .field
        .all()
        .map(|f| f.c.id.clone())
        .collect::<Vec<_>>()
        .into_iter()
        .filter(|id| matches!(d.status(id), Some(LifeStatus::Dead | LifeStatus::Slain)))
        .collect();
    for id in gone {
        for m in records(d, b, &id) {
            stop(d, b, &id, &m, EffectEndReason::Cleared);
        }
        let zones: Vec<u32> = power_effects::zones(d, b)
            .into_iter()
            .filter(|z| z.source == id)
            .map(|z| z.id)
            .collect();
        for z in zones {
            power_effects::end_zone(d, &id, z, EffectEndReason::Cleared);
        }
    }
}
