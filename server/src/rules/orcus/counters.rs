//! § Action required (`orcus-basic-rules.txt`): "If the action is a counter, its effects
//! commence before the trigger is resolved, and may prevent the trigger from taking place";
//! § Immediate actions (one between each of your turns).
//!
//! Fray cannot hold an enemy's command half-resolved while it waits for a client, so a counter
//! that must come before its trigger is *readied*: `ready_counter` names an `immediate counter`
//! power whose content gives a machine-readable trigger (`counter_on = "attacked"`), spending
//! nothing (`counter_readied`, `grid.readied_counter`). When an enemy's `attack` or
//! `area_attack` targets the creature, after that attack's costs and before its first attack
//! die the counter resolves: it spends the counterer's immediate action (`interrupt_used`,
//! which also clears the readiness) and attacks the triggering attacker (a self utility power:
//! its effect on its user). If the attacker can then no longer act (down, dead, stunned,
//! unconscious, helpless or surrendered) its attack does not take place; its action stays
//! spent (interpretation: the action was taken, its effect prevented). Otherwise the attack
//! proceeds as before. The readiness lapses at the start of the counterer's next turn.
//! A counter that cannot be made when the trigger comes (the counterer cannot act, its
//! immediate action is spent, the attacker is out of reach or line of effect, the power is
//! expended or unloaded, it would need a choice of path or secondary target) is skipped and
//! stays readied.

use super::Board;
use super::commands::{
    Delivery, R, Way, alive, ammunition_needed, check_frequency, check_timing, expend, fighter,
    geo, immediate_able, is_enemy, no, power, provoke_ranged, resolve, space, spend_for,
    use_ammunition,
};
use super::{elevation, geometry};
use crate::content::model::{CounterTrigger, Origin, PowerSpec};
use crate::rules::common::decider::Decider;
use crate::rules::common::field::has_condition;
use fray_protocol::ErrorCode;
use fray_protocol::OrcusEvent;
use fray_protocol::event::{Condition, EffectKind, GameEvent};
use fray_protocol::ids::CombatantId;
use fray_protocol::state::LifeStatus;

/// `ready_counter`: readies `power_id`, an immediate counter with a `counter_on` trigger, while
/// the actor could take it (able to act, immediate action unspent, power not expended); on its
/// own turn too, as it answers later triggers. No action is spent.
pub(super) fn ready(d: &mut Decider, b: &Board, actor: &CombatantId, power_id: &str) -> R {
    super::commands::running(d)?;
    let p = power(b, actor, power_id)?;
    if p.counter_on.is_none() {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!(
                "{} is not an immediate counter with a trigger Fray can watch (content \
                 `counter_on`)",
                p.name
            ),
        ));
    }
    immediate_able(d, b, actor, p, true)?;
    check_frequency(d, actor, p)?;
    d.emit(GameEvent::Orcus(OrcusEvent::CounterReadied {
        combatant: actor.clone(),
        power: p.id.clone(),
    }));
    Ok(())
}

/// Before the first attack die of `attacker`'s attack with `p` on `targets` (its costs paid):
/// the readied counters of the targets it attacks resolve, in target order. Returns whether
/// the attack still takes place.
pub(super) fn before_attack(
    d: &mut Decider,
    b: &Board,
    attacker: &CombatantId,
    p: &PowerSpec,
    targets: &[CombatantId],
) -> R<bool> {
    if p.utility {
        // § Category: a utility power makes no attack.
        return Ok(true);
    }
    for t in targets {
        if !still_able(d, attacker) {
            return Ok(false);
        }
        let Some(id) = b.get(t).and_then(|(g, _)| g.0.readied_counter.clone()) else {
            continue;
        };
        if t == attacker || !is_enemy(d, attacker, t) {
            continue;
        }
        let Ok(counter) = power(b, t, &id).cloned() else {
            continue;
        };
        if counter.counter_on != Some(CounterTrigger::Attacked) {
            continue;
        }
        let Some((aimed, ammo)) = aim(d, b, t, attacker, &counter) else {
            continue;
        };
        spend_for(d, b, t, &counter)?;
        use_ammunition(d, t, ammo);
        super::loading::fired(d, t, &counter);
        super::targets::spent(d, b, t);
        expend(d, t, &counter);
        if matches!(counter.origin, Origin::Ranged { .. }) && !provoke_ranged(d, b, t)? {
            continue;
        }
        resolve(d, b, t, &counter, &aimed, Way::Turn, Delivery::default())?;
    }
    Ok(still_able(d, attacker))
}

/// Everything that could refuse the counter, before any event or die: its targets (the
/// attacker, or its user for a self power) and ammunition, or `None` when it cannot be made.
fn aim(
    d: &Decider,
    b: &Board,
    user: &CombatantId,
    attacker: &CombatantId,
    p: &PowerSpec,
) -> Option<(Vec<CombatantId>, Option<i32>)> {
    check_timing(d, b, user, p).ok()?;
    check_frequency(d, user, p).ok()?;
    let targets = if p.origin == Origin::Personal {
        vec![user.clone()]
    } else {
        alive(d, attacker).ok()?;
        if p.targets.allies() == Some(true) {
            return None;
        }
        let dist = geometry::distance_3d(
            elevation::body(d, b, user).ok()?,
            elevation::body(d, b, attacker).ok()?,
        );
        let limit = match p.origin {
            Origin::Melee { reach } => reach,
            Origin::Ranged { long, .. } => long,
            _ => return None,
        };
        if dist > limit {
            return None;
        }
        let (u_sp, a_sp) = (space(d, b, user).ok()?, space(d, b, attacker).ok()?);
        if let Some(g) = geo(b)
            && !g.line_of_effect(u_sp, a_sp)
        {
            return None;
        }
        vec![attacker.clone()]
    };
    let g = geo(b);
    let from = space(d, b, user).ok()?;
    super::forced::check(d, b, g.as_ref(), p, from, &targets, &[]).ok()?;
    super::secondary::check(d, b, user, p, &targets, None).ok()?;
    let ammo = ammunition_needed(b, user, p, targets.len()).ok()?;
    Some((targets, ammo))
}

/// Whether the triggering attacker can still carry out its attack: conscious and not stunned,
/// unconscious, helpless or surrendered — by its state or by an effect this command applied.
/// A dazed attacker goes on (the attack is the single action it already took).
fn still_able(d: &mut Decider, attacker: &CombatantId) -> bool {
    const BARS: [Condition; 4] = [
        Condition::Stunned,
        Condition::Unconscious,
        Condition::Helpless,
        Condition::Surrendered,
    ];
    if d.status(attacker) != Some(LifeStatus::Conscious) {
        return false;
    }
    if fighter(d, attacker).is_ok_and(|f| BARS.iter().any(|c| has_condition(f.fx, *c))) {
        return false;
    }
    !d.events().iter().any(|e| {
        matches!(e, GameEvent::EffectApplied { effect }
            if &effect.target == attacker
                && matches!(effect.kind, EffectKind::Condition(c) if BARS.contains(&c)))
    })
}
