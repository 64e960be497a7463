//! Position (13th-age-combat.txt § Position, § Movement and Melee, § Disengaging,
//! § Intercepting): engaging, moving away (drawing opportunity attacks), disengage checks,
//! intercepting, far away.

use super::commands::{
    able_to_act, fighter, not_your_turn_msg, provoke, ready_to_act, reject, running,
};
use crate::rules::common::decider::Decider;
use crate::rules::common::field::{grabbed_by, grabbers, has_condition, is_grabbed_by};
use fray_protocol::ThirteenthAgeEvent;
use fray_protocol::event::{
    ActionKind, Condition, EffectEndReason, EffectKind, GameEvent, Provocation, SavePurpose,
};
use fray_protocol::ids::CombatantId;
use fray_protocol::state::LifeStatus;
use fray_protocol::{ErrorCode, Rejection};

/// `grabber` lets go of every creature it grabs except those in `keep` (§ Grabbed: a grabber
/// that moves — unless it carries the creature along —, disengages or teleports lets go).
fn let_go(d: &mut Decider, grabber: &CombatantId, keep: &[CombatantId]) {
    let mut ended = Vec::new();
    for f in d.field.all() {
        if keep.contains(&f.c.id) {
            continue;
        }
        for e in &f.fx.0 {
            if e.source == *grabber && matches!(e.kind, EffectKind::Condition(Condition::Grabbed)) {
                ended.push((f.c.id.clone(), e.id));
            }
        }
    }
    for (target, effect) in ended {
        d.emit(GameEvent::EffectEnded {
            target,
            effect,
            reason: EffectEndReason::Expired,
        });
    }
}

/// The creatures `grabber` grabs, in id order.
fn held_by(d: &Decider, grabber: &CombatantId) -> Vec<CombatantId> {
    d.field
        .all()
        .filter(|f| is_grabbed_by(f.fx, grabber))
        .map(|f| f.c.id.clone())
        .collect()
}

/// The creatures a moving grabber carries along (§ Grabbed: "If you are smaller than the creature
/// that is grabbing you, it can move and carry you along with no problem. If you are the same
/// size or larger, it has to let go of you if it wants to move."): those it grabs that are
/// smaller than it and not stuck (§ Stuck: no one moves you "without teleporting"). A grabber
/// going far away carries no one: far away is two moves from the enemies, and a carried enemy
/// would be right next to it. A grabber that would rather leave a smaller creature behind lets
/// go of it first (`LetGo`, a free action).
fn carried_by(d: &Decider, grabber: &CombatantId, far_away: bool) -> Vec<CombatantId> {
    let Some(g) = d.field.get(grabber) else {
        return Vec::new();
    };
    if far_away {
        return Vec::new();
    }
    d.field
        .all()
        .filter(|f| {
            is_grabbed_by(f.fx, grabber)
                && f.c.size < g.c.size
                && !has_condition(f.fx, Condition::Stuck)
        })
        .map(|f| f.c.id.clone())
        .collect()
}

/// A carried creature is taken out of the rest of the melee: any grab on it by another creature
/// ends (it is no longer engaged with that grabber) and it lets go of the creatures it grabs.
fn leave_for_carry(d: &mut Decider, grabber: &CombatantId, carried: &CombatantId) {
    let others: Vec<u32> = d
        .field
        .get(carried)
        .map(|f| {
            f.fx.0
                .iter()
                .filter(|e| {
                    e.source != *grabber
                        && matches!(e.kind, EffectKind::Condition(Condition::Grabbed))
                })
                .map(|e| e.id)
                .collect()
        })
        .unwrap_or_default();
    for effect in others {
        d.emit(GameEvent::EffectEnded {
            target: carried.clone(),
            effect,
            reason: EffectEndReason::Expired,
        });
    }
    let_go(d, carried, &[]);
}

/// `Move`: a move action (a standard action can pay for it). Engages `engage` if given; moving
/// while engaged draws opportunity attacks from the foes left behind.
pub fn move_cmd(
    d: &mut Decider,
    actor: &CombatantId,
    engage: Option<&CombatantId>,
    far_away: bool,
) -> Result<(), Rejection> {
    // § Disengaging: after a successful disengage the actor uses its move normally (the check
    // was the move action), so that move costs nothing more.
    let popped_free = d.field.battle.popped_free.as_ref() == Some(actor);
    let payer = if popped_free {
        able_to_act(d, actor)?;
        None
    } else {
        Some(ready_to_act(d, actor, ActionKind::Move)?)
    };
    let a = fighter(d, actor)?;
    // § Stuck: no moving.
    if has_condition(a.fx, Condition::Stuck) {
        return reject(
            ErrorCode::Stuck,
            format!("{} is stuck and cannot move", a.c.name),
        );
    }
    // § Grabbed: no moving away unless you disengage (or teleport) first.
    if let Some(g) = grabbed_by(a.fx) {
        return reject(
            ErrorCode::Grabbed,
            format!("{} is grabbed by {g}: disengage first", a.c.name),
        );
    }
    if far_away && engage.is_some() {
        return reject(
            ErrorCode::InvalidArgument,
            "a move either engages an enemy or goes far away, not both",
        );
    }
    if let Some(t) = engage {
        let tf = fighter(d, t)?;
        if tf.c.side == a.c.side {
            return reject(
                ErrorCode::InvalidTarget,
                format!("{} is an ally of {}", tf.c.name, a.c.name),
            );
        }
        if tf.vit.0.is_out() {
            return reject(
                ErrorCode::InvalidTarget,
                format!("{} is out of the fight", tf.c.name),
            );
        }
        // § Far Away: two moves away; one move brings you nearby.
        if a.pos.far_away || tf.pos.far_away {
            return reject(
                ErrorCode::OutOfReach,
                format!(
                    "{} is far away from {}: move nearby first",
                    a.c.name, tf.c.name
                ),
            );
        }
    }
    // § Grabbed: a larger grabber carries the creatures it grabs along; they are not left behind.
    let carried = carried_by(d, actor, far_away);
    // § Grabbed: a grabber that let go of a creature this turn leaves it behind without an
    // opportunity attack.
    let released = &d.field.battle.released;
    let left_behind: Vec<CombatantId> = a
        .pos
        .engaged
        .iter()
        .filter(|e| {
            Some(*e) != engage
                && !carried.contains(e)
                && !released.contains(&(actor.clone(), (*e).clone()))
        })
        .cloned()
        .collect();
    if let Some(spent) = payer {
        d.emit(GameEvent::ActionUsed {
            combatant: actor.clone(),
            action: ActionKind::Move,
            spent,
        });
    }
    // § Disengaging: moving away from the foes that engage you draws an opportunity attack from
    // each of them.
    provoke(d, actor, left_behind, Provocation::MovingAway);
    let_go(d, actor, &carried);
    for c in &carried {
        leave_for_carry(d, actor, c);
    }
    d.emit(GameEvent::Moved {
        combatant: actor.clone(),
        engaged: engage.cloned(),
        far_away,
    });
    for c in carried {
        d.emit(GameEvent::ThirteenthAge(ThirteenthAgeEvent::Carried {
            grabber: actor.clone(),
            grabbed: c,
        }));
    }
    Ok(())
}

/// `LetGo`: § Grabbed — "A creature can let go of a creature it is grabbing as a free action"
/// (§ Free Actions: on its turn, or out of turn as the GM allows). It spends no action; the two
/// stay engaged.
pub fn let_go_cmd(
    d: &mut Decider,
    actor: &CombatantId,
    target: &CombatantId,
) -> Result<(), Rejection> {
    running(d)?;
    let a = fighter(d, actor)?;
    let t = fighter(d, target)?;
    if a.vit.0 != LifeStatus::Conscious
        || has_condition(a.fx, Condition::Stunned)
        || has_condition(a.fx, Condition::Helpless)
    {
        return reject(ErrorCode::CannotAct, format!("{} cannot act", a.c.name));
    }
    let grabs: Vec<u32> =
        t.fx.0
            .iter()
            .filter(|e| {
                e.source == *actor && matches!(e.kind, EffectKind::Condition(Condition::Grabbed))
            })
            .map(|e| e.id)
            .collect();
    if grabs.is_empty() {
        return reject(
            ErrorCode::InvalidTarget,
            format!("{} is not grabbing {}", a.c.name, t.c.name),
        );
    }
    d.emit(GameEvent::ThirteenthAge(ThirteenthAgeEvent::LetGo {
        grabber: actor.clone(),
        grabbed: target.clone(),
    }));
    for effect in grabs {
        d.emit(GameEvent::EffectEnded {
            target: target.clone(),
            effect,
            reason: EffectEndReason::Expired,
        });
    }
    Ok(())
}

/// `Teleport` (GM): § Teleportation — the creature moves instantly: it leaves every engagement
/// without drawing opportunity attacks ("Teleporting doesn't draw opportunity attacks"), gets
/// out of grabs (§ Grabbed: you can't move away "unless you teleport") and lets go of the
/// creatures it grabs; being stuck does not stop it (§ Stuck: no one moves you "without
/// teleporting"). It spends no action: the power that teleports is the table's.
pub fn teleport(
    d: &mut Decider,
    target: &CombatantId,
    engage: Option<&CombatantId>,
    far_away: bool,
) -> Result<(), Rejection> {
    running(d)?;
    let t = fighter(d, target)?;
    if t.vit.0.is_out() {
        return reject(
            ErrorCode::InvalidTarget,
            format!("{} is out of the fight", t.c.name),
        );
    }
    if far_away && engage.is_some() {
        return reject(
            ErrorCode::InvalidArgument,
            "a teleport either arrives next to an enemy or far away, not both",
        );
    }
    if let Some(e) = engage {
        let ef = fighter(d, e)?;
        if ef.c.side == t.c.side {
            return reject(
                ErrorCode::InvalidTarget,
                format!("{} is an ally of {}", ef.c.name, t.c.name),
            );
        }
        if ef.vit.0.is_out() {
            return reject(
                ErrorCode::InvalidTarget,
                format!("{} is out of the fight", ef.c.name),
            );
        }
        if ef.pos.far_away {
            return reject(
                ErrorCode::OutOfReach,
                format!("{} is far away from the fight", ef.c.name),
            );
        }
    }
    let held: Vec<u32> =
        t.fx.0
            .iter()
            .filter(|e| matches!(e.kind, EffectKind::Condition(Condition::Grabbed)))
            .map(|e| e.id)
            .collect();
    for effect in held {
        d.emit(GameEvent::EffectEnded {
            target: target.clone(),
            effect,
            reason: EffectEndReason::Expired,
        });
    }
    let_go(d, target, &[]);
    d.emit(GameEvent::ThirteenthAge(ThirteenthAgeEvent::Teleported {
        combatant: target.clone(),
        engaged: engage.cloned(),
        far_away,
    }));
    Ok(())
}

/// `Disengage`: a move action; a normal save (11+) with −1 per foe beyond the first (and −5
/// when grabbed, unless the grabber was hit this turn). Success frees the actor without
/// opportunity attacks; failure spends the move and keeps it engaged.
pub fn disengage(d: &mut Decider, actor: &CombatantId) -> Result<(), Rejection> {
    let payer = ready_to_act(d, actor, ActionKind::Move)?;
    let a = fighter(d, actor)?;
    if has_condition(a.fx, Condition::Stuck) {
        return reject(
            ErrorCode::Stuck,
            format!("{} is stuck and cannot disengage", a.c.name),
        );
    }
    let foes = a.pos.engaged.len() as u32;
    if foes == 0 {
        return reject(
            ErrorCode::NotEngaged,
            format!("{} is not engaged with anyone", a.c.name),
        );
    }
    let mut target = 11 + foes.saturating_sub(1);
    // § Grabbed: −5 "unless you hit the creature that is grabbing you" this turn — with several
    // grabbers, any of them not hit keeps the penalty (once: one −5, not one per grabber).
    if grabbers(a.fx).any(|g| !d.field.battle.hit_this_turn.contains(g)) {
        target += 5;
    }
    let grabs: Vec<u32> =
        a.fx.0
            .iter()
            .filter(|e| matches!(e.kind, EffectKind::Condition(Condition::Grabbed)))
            .map(|e| e.id)
            .collect();
    d.emit(GameEvent::ActionUsed {
        combatant: actor.clone(),
        action: ActionKind::Move,
        spent: payer,
    });
    let (ok, _) = d.save(actor, SavePurpose::Disengage, target);
    if ok {
        // Popped free: a grab ends with the engagement.
        for effect in grabs {
            d.emit(GameEvent::EffectEnded {
                target: actor.clone(),
                effect,
                reason: EffectEndReason::Expired,
            });
        }
        let_go(d, actor, &[]);
        d.emit(GameEvent::ThirteenthAge(ThirteenthAgeEvent::Disengaged {
            combatant: actor.clone(),
        }));
    }
    Ok(())
}

/// `Intercept`: on an enemy's turn, right after it moved, an unengaged combatant near it stops
/// it and engages it (a free action; the GM rules on what counts as moving past).
pub fn intercept(
    d: &mut Decider,
    actor: &CombatantId,
    mover: &CombatantId,
) -> Result<(), Rejection> {
    running(d)?;
    let a = fighter(d, actor)?;
    let m = fighter(d, mover)?;
    if d.field.battle.current() != Some(mover) || d.field.battle.last_mover.as_ref() != Some(mover)
    {
        return reject(
            ErrorCode::InvalidArgument,
            format!(
                "{} has not just moved on its turn; intercept a mover right after its move",
                m.c.name
            ),
        );
    }
    if d.field.battle.current() == Some(actor) {
        return reject(ErrorCode::NotYourTurn, not_your_turn_msg(d, actor));
    }
    if m.c.side == a.c.side {
        return reject(ErrorCode::InvalidTarget, format!("{} is an ally", m.c.name));
    }
    if a.vit.0 != LifeStatus::Conscious
        || has_condition(a.fx, Condition::Stunned)
        || has_condition(a.fx, Condition::Helpless)
    {
        return reject(ErrorCode::CannotAct, format!("{} cannot act", a.c.name));
    }
    if has_condition(a.fx, Condition::Stuck) {
        return reject(ErrorCode::Stuck, format!("{} is stuck", a.c.name));
    }
    // § Engaged: you can't intercept enemies while engaged.
    if !a.pos.engaged.is_empty() {
        return reject(
            ErrorCode::InvalidArgument,
            format!("{} is engaged and cannot intercept", a.c.name),
        );
    }
    if a.pos.far_away || m.pos.far_away {
        return reject(
            ErrorCode::OutOfReach,
            format!("{} is too far to intercept", a.c.name),
        );
    }
    d.emit(GameEvent::ThirteenthAge(ThirteenthAgeEvent::Intercepted {
        interceptor: actor.clone(),
        mover: mover.clone(),
    }));
    // § Grabbed: the creatures the mover carried stop with it, still grabbed and engaged with it.
    for c in held_by(d, mover) {
        d.emit(GameEvent::ThirteenthAge(ThirteenthAgeEvent::Carried {
            grabber: mover.clone(),
            grabbed: c,
        }));
    }
    Ok(())
}
