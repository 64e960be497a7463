//! Effects and their saving-throw riders (orcus-basic-rules.txt § Special saving throw riders):
//! an aftereffect follows the effect when it ends by a save or by running out; a first failed
//! save turns the effect into another one, once. Riders travel in `RiderAttached` events and
//! live in the bearer's `grid.riders` until their effect ends.

use super::Board;
use crate::content::model::{EffectSpec, OrcusEffect};
use crate::rules::common::decider::Decider;
use fray_protocol::OrcusEvent;
use fray_protocol::event::{
    DamageCause, Effect, EffectDuration, EffectEndReason, EffectKind, GameEvent,
};
use fray_protocol::grid::{Rider, RiderEffect};
use fray_protocol::ids::CombatantId;
use fray_protocol::state::LifeStatus;

/// The kind and duration an effect clause applies.
fn parts(e: &EffectSpec) -> RiderEffect {
    match e {
        EffectSpec::Condition {
            condition,
            duration,
        } => RiderEffect {
            kind: EffectKind::Condition(*condition),
            duration: duration.clone(),
        },
        EffectSpec::Ongoing {
            amount,
            damage_type,
            save,
        } => RiderEffect {
            kind: EffectKind::OngoingDamage {
                amount: *amount,
                damage_type: *damage_type,
            },
            duration: EffectDuration::SaveEnds(*save),
        },
    }
}

/// Applies an effect from `source` to `target`; returns its id.
pub fn emit_effect(
    d: &mut Decider,
    target: &CombatantId,
    source: &CombatantId,
    kind: EffectKind,
    duration: EffectDuration,
) -> u32 {
    let id = d.effect_id();
    d.emit(GameEvent::EffectApplied {
        effect: Effect {
            id,
            target: target.clone(),
            source: source.clone(),
            kind,
            duration,
            armed: false,
        },
    });
    id
}

/// Applies an effect clause and attaches its riders; returns the effect's id.
pub fn apply(d: &mut Decider, source: &CombatantId, target: &CombatantId, e: &OrcusEffect) -> u32 {
    let main = parts(&e.effect);
    let id = emit_effect(d, target, source, main.kind, main.duration);
    attach(
        d,
        target,
        Rider {
            effect: id,
            aftereffect: e.aftereffect.as_ref().map(parts),
            first_failed_save: e.first_failed_save.as_ref().map(parts),
            aftereffect_damage: e.aftereffect_damage,
        },
    );
    id
}

fn attach(d: &mut Decider, target: &CombatantId, rider: Rider) {
    if rider.aftereffect.is_some()
        || rider.first_failed_save.is_some()
        || rider.aftereffect_damage.is_some()
    {
        d.emit(GameEvent::Orcus(OrcusEvent::RiderAttached {
            target: target.clone(),
            rider,
        }));
    }
}

/// The riders of an effect: from the state, or attached earlier in this same command.
fn rider(d: &Decider, b: &Board, target: &CombatantId, effect: u32) -> Option<Rider> {
    let in_pass = d.events().iter().rev().find_map(|e| match e {
        GameEvent::Orcus(OrcusEvent::RiderAttached { target: t, rider })
            if t == target && rider.effect == effect =>
        {
            Some(rider.clone())
        }
        _ => None,
    });
    in_pass.or_else(|| {
        b.get(target)
            .and_then(|(g, _)| g.0.riders.iter().find(|r| r.effect == effect).cloned())
    })
}

/// Ends an effect; one that ends by a save or by running out brings on its aftereffect, from
/// the same source.
pub fn end(
    d: &mut Decider,
    b: &Board,
    target: &CombatantId,
    effect: &Effect,
    reason: EffectEndReason,
) {
    let (after, damage) = match reason {
        EffectEndReason::Saved | EffectEndReason::Expired => rider(d, b, target, effect.id)
            .map(|r| (r.aftereffect, r.aftereffect_damage))
            .unwrap_or_default(),
        EffectEndReason::Cleared | EffectEndReason::Replaced | EffectEndReason::Released => {
            (None, None)
        }
    };
    d.emit(GameEvent::EffectEnded {
        target: target.clone(),
        effect: effect.id,
        reason,
    });
    if let Some(a) = after {
        emit_effect(d, target, &effect.source, a.kind, a.duration);
    }
    // A damage aftereffect: dealt once, named after the effect it follows (interpretation:
    // the cause is that effect's, as persistent damage's is).
    if let Some(x) = damage
        && !matches!(
            d.status(target),
            Some(LifeStatus::Dead | LifeStatus::Slain) | None
        )
    {
        super::commands::deal(
            d,
            b,
            target,
            x.amount,
            DamageCause::Ongoing { effect: effect.id },
            x.damage_type,
            false,
        );
    }
}

/// A failed save against `effect`: if it has a first-failed-save rider, the effect is replaced
/// by the rider's effect, which keeps the original aftereffect (interpretation: the
/// aftereffect follows whatever the effect became). Returns whether it was replaced.
pub fn failed_save(d: &mut Decider, b: &Board, target: &CombatantId, effect: &Effect) -> bool {
    let Some(r) = rider(d, b, target, effect.id) else {
        return false;
    };
    let Some(instead) = r.first_failed_save else {
        return false;
    };
    d.emit(GameEvent::EffectEnded {
        target: target.clone(),
        effect: effect.id,
        reason: EffectEndReason::Replaced,
    });
    let id = emit_effect(d, target, &effect.source, instead.kind, instead.duration);
    attach(
        d,
        target,
        Rider {
            effect: id,
            aftereffect: r.aftereffect,
            first_failed_save: None,
            aftereffect_damage: r.aftereffect_damage,
        },
    );
    true
}
