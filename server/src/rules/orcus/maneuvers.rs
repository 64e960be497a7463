//! Orcus universal maneuvers (orcus-basic-rules.txt § Universal actions): Charge, Bull Rush,
//! Grapple with Escape a Grapple, maintaining and ending a grapple, and the sweep that frees
//! grappled creatures whose grappler moved away or can no longer make opportunity attacks.
//!
//! A grapple is a `grappled` condition on the target whose source is the grappler. The Grapple
//! action's grapple lasts `end_of_battle` and ends by the events below; a power's "grappled
//! (save ends)" is the same condition with a save, and ends the same ways too.

use super::Board;
use super::commands::{
    Delivery, R, Way, alive, can_threaten, cannot_leave_space, fighter, is_enemy, no, occupant_at,
    on_turn, path_cost, pay, resolve, skill_check, space, speed, walk,
};
use super::elevation::{body, body_at};
use super::geometry::{self, Space};
use super::riders::emit_effect;
use crate::content::model::{ActionCost, Frequency, Origin, PowerSpec, TargetRule};
use crate::rules::common::decider::Decider;
use crate::rules::common::field::has_condition;
use fray_protocol::ErrorCode;
use fray_protocol::OrcusEvent;
use fray_protocol::command::EscapeSkill;
use fray_protocol::event::{
    ActionKind, Condition, Defense, Effect, EffectDuration, EffectEndReason, EffectKind, GameEvent,
};
use fray_protocol::grid::{MoveMode, Square};
use fray_protocol::ids::CombatantId;
use fray_protocol::state::LifeStatus;

/// An enemy the actor can lay hands on: alive, an enemy, adjacent.
fn adjacent_enemy(d: &Decider, b: &Board, actor: &CombatantId, target: &CombatantId) -> R {
    alive(d, target)?;
    if !is_enemy(d, actor, target) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{target} is not an enemy"),
        ));
    }
    if !geometry::adjacent_3d(body(d, b, actor)?, body(d, b, target)?) {
        return Err(no(
            ErrorCode::OutOfRange,
            format!("{target} is not adjacent (melee touch)"),
        ));
    }
    Ok(())
}

/// A Strength attack of a universal action (Bull Rush, Grapple) as a power without damage.
fn strength_attack(b: &Board, actor: &CombatantId, id: &str, name: &str, vs: Defense) -> PowerSpec {
    PowerSpec {
        id: id.into(),
        uses_ammunition: false,
        underwater_penalty: false,
        secondary: None,
        forced: None,
        trigger: None,
        name: name.into(),
        action: ActionCost::Standard,
        frequency: Frequency::AtWill,
        origin: Origin::Melee { reach: 1 },
        targets: TargetRule::OneEnemy,
        max_targets: 1,
        vs,
        bonus: b.get(actor).map_or(0, |(_, k)| k.0.str_attack),
        bonus_terms: fray_protocol::roll::Modifiers::new()
            .with(
                "Strength attack",
                b.get(actor).map_or(0, |(_, k)| k.0.str_attack),
            )
            .into_vec(),
        basic: false,
        hit: None,
        damage_type: None,
        miss: None,
        crit_extra: None,
        on_hit: Vec::new(),
        on_miss: Vec::new(),
        loading_swift: false,
        effect: Vec::new(),
        zone: None,
        utility: false,
        maintain: None,
        category: crate::content::model::PowerCategory::Attack,
        tags: Vec::new(),
        side: None,
        counter_on: None,
    }
}

/// Whether the last attack roll of this decision against `target` hit.
fn hit(d: &Decider, target: &CombatantId) -> bool {
    d.events().iter().rev().find_map(|e| match e {
        GameEvent::AttackRolled {
            target: t, outcome, ..
        } if t == target => Some(outcome.is_hit()),
        _ => None,
    }) == Some(true)
}

/// Whether a space can be entered by `mover` as the end of a one-square shift: on the map, not
/// solid, not occupied by anyone else (a prone creature's square included: a shove or a step
/// cannot end there).
fn free_space(d: &Decider, b: &Board, mover: &CombatantId, sp: Space) -> R {
    let map = b
        .map
        .0
        .as_ref()
        .ok_or_else(|| no(ErrorCode::InvalidArgument, "this session has no map"))?;
    for s in sp.squares() {
        if !geometry::on_map(map, s) {
            return Err(no(ErrorCode::IllegalPath, format!("{s} is off the map")));
        }
        if geometry::solid(map, s) {
            return Err(no(ErrorCode::IllegalPath, format!("{s} is a wall")));
        }
        if occupant_at(d, b, mover, s).is_some() {
            return Err(no(ErrorCode::IllegalPath, format!("{s} is occupied")));
        }
    }
    Ok(())
}

fn one_square(from: Square, to: Square) -> bool {
    (from.x - to.x).abs() <= 1 && (from.y - to.y).abs() <= 1 && from != to
}

/// § Charge: a standard action; walk up to speed, every square bringing the charger closer to
/// the enemy, then a basic melee attack (+1 after at least 2 squares); then no actions are left.
pub fn charge(
    d: &mut Decider,
    b: &Board,
    actor: &CombatantId,
    target: &CombatantId,
    path: &[Square],
) -> R {
    on_turn(d, actor)?;
    super::mounts::not_mounted(b, actor)?;
    let p = charge_course(d, b, actor, target, path)?;
    let budget = fighter(d, actor)?.budget.0;
    pay(d, actor, ActionKind::Standard)?;
    if !path.is_empty() && !walk(d, b, actor, path, MoveMode::Walk)? {
        return Ok(());
    }
    let way = if path.len() >= 2 {
        Way::Charge
    } else {
        Way::Turn
    };
    resolve(
        d,
        b,
        actor,
        &p,
        std::slice::from_ref(target),
        way,
        Delivery::default(),
    )?;
    // § Charge: "you lose all remaining actions in your turn".
    for (left, kind) in [
        (budget.move_action, ActionKind::Move),
        (budget.quick, ActionKind::Quick),
    ] {
        if left {
            d.emit(GameEvent::ActionUsed {
                combatant: actor.clone(),
                action: kind,
                spent: kind,
            });
        }
    }
    Ok(())
}

/// § Charge, the course: `target` is a living enemy, the charger has a basic melee attack, and
/// `path` is a walk within its speed whose every square brings it closer to the target, ending
/// within that attack's reach. Returns the attack. Checked before any die by the decide of
/// `charge`, and by the preview of a charge (`preview.rs`).
pub(super) fn charge_course(
    d: &Decider,
    b: &Board,
    actor: &CombatantId,
    target: &CombatantId,
    path: &[Square],
) -> R<PowerSpec> {
    alive(d, target)?;
    if !is_enemy(d, actor, target) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{target} is not an enemy"),
        ));
    }
    let p = b
        .get(actor)
        .and_then(|(_, kit)| {
            kit.0
                .powers
                .iter()
                .find(|p| p.basic && matches!(p.origin, Origin::Melee { .. }))
                .cloned()
        })
        .ok_or_else(|| {
            no(
                ErrorCode::NotBasicMelee,
                format!("{actor} has no basic melee attack to charge with"),
            )
        })?;
    let Origin::Melee { reach } = p.origin else {
        return Err(no(
            ErrorCode::NotBasicMelee,
            "a charge ends in a melee attack",
        ));
    };
    let start = space(d, b, actor)?;
    let t_sp = space(d, b, target)?;
    if !path.is_empty() {
        cannot_leave_space(d, actor)?;
        let cost = path_cost(d, b, actor, path, MoveMode::Walk)?;
        let allowed = speed(d, b, actor);
        if cost > allowed {
            return Err(no(
                ErrorCode::TooFar,
                format!("the charge costs {cost} squares of movement; speed is {allowed}"),
            ));
        }
        // Interpretation: "directly towards" — every square entered is closer to the target.
        let mut at = start;
        for (i, step) in path.iter().enumerate() {
            let next = Space {
                at: *step,
                size: start.size,
            };
            if geometry::distance(next, t_sp) >= geometry::distance(at, t_sp) {
                return Err(no(
                    ErrorCode::IllegalPath,
                    format!("path[{i}] {step} does not bring the charge closer to {target}"),
                ));
            }
            at = next;
        }
    }
    let end = Space {
        at: path.last().copied().unwrap_or(start.at),
        size: start.size,
    };
    // Elevation: the height gap counts.
    if geometry::distance_3d(body_at(d, b, actor, end), body(d, b, target)?) > reach {
        return Err(no(
            ErrorCode::OutOfRange,
            format!("the charge ends out of {}'s reach of {target}", p.name),
        ));
    }
    Ok(p)
}

/// § Bull Rush: Strength vs Fortitude against an adjacent enemy; a hit pushes it 1 square to
/// `push_to` (farther from the attacker); the attacker may step into the space it left.
pub fn bull_rush(
    d: &mut Decider,
    b: &Board,
    actor: &CombatantId,
    target: &CombatantId,
    push_to: Square,
    follow: bool,
) -> R {
    on_turn(d, actor)?;
    adjacent_enemy(d, b, actor, target)?;
    let a_sp = space(d, b, actor)?;
    let t_sp = space(d, b, target)?;
    let pushed = Space {
        at: push_to,
        size: t_sp.size,
    };
    // The destination is checked before the roll, so that a bad one changes nothing.
    if !one_square(t_sp.at, push_to) {
        return Err(no(
            ErrorCode::IllegalPath,
            format!("{push_to} is not 1 square from {target}"),
        ));
    }
    if geometry::distance(a_sp, pushed) <= geometry::distance(a_sp, t_sp) {
        return Err(no(
            ErrorCode::IllegalPath,
            format!("a push moves {target} farther away; {push_to} is not"),
        ));
    }
    free_space(d, b, target, pushed)?;
    let follow_to = if follow {
        // Interpretation: the attacker steps into the square the target left; only for
        // one-square creatures (larger spaces would need a choice of squares).
        if a_sp.size.side() != 1 || t_sp.size.side() != 1 {
            return Err(no(
                ErrorCode::InvalidArgument,
                "following a bull rush is for creatures of one square",
            ));
        }
        cannot_leave_space(d, actor)?;
        Some(t_sp.at)
    } else {
        None
    };
    pay(d, actor, ActionKind::Standard)?;
    let p = strength_attack(b, actor, "bull-rush", "Bull Rush", Defense::Fortitude);
    resolve(
        d,
        b,
        actor,
        &p,
        std::slice::from_ref(target),
        Way::Turn,
        Delivery::default(),
    )?;
    let in_fight = matches!(
        d.status(target),
        Some(LifeStatus::Conscious | LifeStatus::Unconscious)
    );
    if !hit(d, target) || !in_fight {
        return Ok(());
    }
    let moved = super::mounts::forced_mover(d, b, target);
    d.emit(GameEvent::Orcus(OrcusEvent::GridMoved {
        combatant: moved,
        path: vec![push_to],
        cost: 0,
        mode: MoveMode::Unwilling,
    }));
    if let Some(to) = follow_to
        && d.status(actor) == Some(LifeStatus::Conscious)
    {
        d.emit(GameEvent::Orcus(OrcusEvent::GridMoved {
            combatant: actor.clone(),
            path: vec![to],
            cost: 1,
            mode: MoveMode::Step,
        }));
    }
    Ok(())
}

/// § Grapple: Strength vs Reflex against an adjacent enemy; a hit grapples it (it cannot move)
/// from now on, maintained this turn.
pub fn grapple(d: &mut Decider, b: &Board, actor: &CombatantId, target: &CombatantId) -> R {
    on_turn(d, actor)?;
    adjacent_enemy(d, b, actor, target)?;
    if !can_threaten(d, actor) {
        return Err(no(
            ErrorCode::CannotAct,
            format!("{actor} cannot make opportunity attacks, so it cannot grapple"),
        ));
    }
    if b.get(actor).is_some_and(|(_, k)| k.0.no_free_hand) {
        return Err(no(
            ErrorCode::NoFreeHand,
            format!("{actor} has no hand free to grapple with (§ Grapple, Requirements)"),
        ));
    }
    pay(d, actor, ActionKind::Standard)?;
    let p = strength_attack(b, actor, "grapple", "Grapple", Defense::Reflex);
    resolve(
        d,
        b,
        actor,
        &p,
        std::slice::from_ref(target),
        Way::Turn,
        Delivery::default(),
    )?;
    if !hit(d, target) || d.status(target) != Some(LifeStatus::Conscious) {
        return Ok(());
    }
    let effect = emit_effect(
        d,
        target,
        actor,
        EffectKind::Condition(Condition::Grappled),
        EffectDuration::EndOfBattle,
    );
    d.emit(GameEvent::Orcus(OrcusEvent::Maintained {
        combatant: actor.clone(),
        effect,
    }));
    Ok(())
}

/// Grapples on `target` (its `grappled` effects and their grapplers), as of this decision.
fn grapples_on(d: &Decider, target: &CombatantId) -> Vec<Effect> {
    let ended: Vec<u32> = d
        .events()
        .iter()
        .filter_map(|e| match e {
            GameEvent::EffectEnded { effect, .. } => Some(*effect),
            _ => None,
        })
        .collect();
    d.field
        .get(target)
        .map(|f| {
            f.fx.0
                .iter()
                .filter(|e| matches!(e.kind, EffectKind::Condition(Condition::Grappled)))
                .filter(|e| e.source != *target && !ended.contains(&e.id))
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

pub(super) fn release(d: &mut Decider, target: &CombatantId, effect: u32) {
    d.emit(GameEvent::EffectEnded {
        target: target.clone(),
        effect,
        reason: EffectEndReason::Released,
    });
}

/// § Escape a Grapple: a move action; Acrobatics vs Reflex or Athletics vs Fortitude of the
/// grappler. Interpretation: held by several grapplers, one check against the highest such
/// defense frees it from all. On a success it may step 1 square.
pub fn escape(
    d: &mut Decider,
    b: &Board,
    actor: &CombatantId,
    skill: EscapeSkill,
    step_to: Option<Square>,
) -> R {
    on_turn(d, actor)?;
    let held = grapples_on(d, actor);
    if held.is_empty() {
        return Err(no(
            ErrorCode::NotGrappled,
            format!("{actor} is not grappled"),
        ));
    }
    let me = space(d, b, actor)?;
    if let Some(to) = step_to {
        if !one_square(me.at, to) {
            return Err(no(
                ErrorCode::IllegalPath,
                format!("{to} is not 1 square away"),
            ));
        }
        free_space(
            d,
            b,
            actor,
            Space {
                at: to,
                size: me.size,
            },
        )?;
        // The escaper must otherwise be free to move.
        let f = fighter(d, actor)?;
        for c in [
            Condition::Immobilized,
            Condition::Restrained,
            Condition::Prone,
        ] {
            if has_condition(f.fx, c) {
                return Err(no(
                    ErrorCode::Immobilized,
                    format!("{actor} cannot step while {c:?}"),
                ));
            }
        }
    }
    let (name, vs) = match skill {
        EscapeSkill::Acrobatics => ("acrobatics", Defense::Reflex),
        EscapeSkill::Athletics => ("athletics", Defense::Fortitude),
    };
    let dc = held
        .iter()
        .map(|e| super::commands::defense_value(d, b, &e.source, vs))
        .max()
        .unwrap_or(0);
    pay(d, actor, ActionKind::Move)?;
    if skill_check(d, b, actor, name, dc, &format!("escape ({name})")) {
        for e in &held {
            release(d, actor, e.id);
        }
        if let Some(to) = step_to {
            d.emit(GameEvent::Orcus(OrcusEvent::GridMoved {
                combatant: actor.clone(),
                path: vec![to],
                cost: 1,
                mode: MoveMode::Step,
            }));
        }
    }
    Ok(())
}

/// A grapple the actor holds, by effect id: (target, effect).
pub(super) fn held_by(
    d: &Decider,
    actor: &CombatantId,
    effect: u32,
) -> Option<(CombatantId, Effect)> {
    d.field.all().find_map(|f| {
        grapples_on(d, &f.c.id)
            .into_iter()
            .find(|e| e.id == effect && &e.source == actor)
            .map(|e| (f.c.id.clone(), e))
    })
}

/// § Maintain (Grapple: "Maintain Swift"): a swift action keeps the grapple through the end of
/// the grappler's next turn.
pub fn maintain(d: &mut Decider, b: &Board, actor: &CombatantId, effect: u32) -> R {
    on_turn(d, actor)?;
    let Some((_, e)) = held_by(d, actor, effect) else {
        return Err(no(
            ErrorCode::NotGrappled,
            format!("{actor} holds no grapple #{effect} to maintain"),
        ));
    };
    if e.duration != EffectDuration::EndOfBattle {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("effect #{effect} needs no maintaining"),
        ));
    }
    if b.get(actor).is_some_and(|(g, _)| g.0.maintained.contains(&effect))
        || d.events().iter().any(|x| {
            matches!(x, GameEvent::Orcus(OrcusEvent::Maintained { combatant, effect: m }) if combatant == actor && *m == effect)
        })
    {
        return Err(no(
            ErrorCode::ActionAlreadyUsed,
            format!("effect #{effect} is already maintained this turn"),
        ));
    }
    pay(d, actor, ActionKind::Quick)?;
    d.emit(GameEvent::Orcus(OrcusEvent::Maintained {
        combatant: actor.clone(),
        effect,
    }));
    Ok(())
}

/// § Grapple, Special: the grappler ends a grapple as a free action.
pub fn let_go(d: &mut Decider, actor: &CombatantId, target: &CombatantId) -> R {
    on_turn(d, actor)?;
    let mine: Vec<u32> = grapples_on(d, target)
        .into_iter()
        .filter(|e| &e.source == actor)
        .map(|e| e.id)
        .collect();
    if mine.is_empty() {
        return Err(no(
            ErrorCode::NotGrappled,
            format!("{actor} is not grappling {target}"),
        ));
    }
    for id in mine {
        release(d, target, id);
    }
    Ok(())
}

/// Grapples that end by themselves after a decision (§ Grapple): the grappler is no longer
/// adjacent (it moved away, or the target was moved away), or cannot make opportunity attacks
/// (down, stunned, dazed, helpless, surprised). Conditions gained in this same decision count
/// from the next one.
pub fn sweep(d: &mut Decider, b: &Board) {
    let mut ending = Vec::new();
    for f in d.field.all() {
        for e in grapples_on(d, &f.c.id) {
            let gone = d.status(&e.source) != Some(LifeStatus::Conscious)
                || !can_threaten(d, &e.source)
                || match (body(d, b, &e.source), body(d, b, &f.c.id)) {
                    (Ok(a), Ok(t)) => !geometry::adjacent_3d(a, t),
                    _ => true,
                };
            if gone {
                ending.push((f.c.id.clone(), e.id));
            }
        }
    }
    for (target, effect) in ending {
        release(d, &target, effect);
    }
}

/// End of the grappler's turn: a Grapple action's grapple it did not maintain this turn ends.
pub fn lapse(d: &mut Decider, b: &Board, grappler: &CombatantId) {
    let kept: Vec<u32> = b
        .get(grappler)
        .map(|(g, _)| g.0.maintained.clone())
        .unwrap_or_default();
    let mut ending = Vec::new();
    for f in d.field.all() {
        for e in grapples_on(d, &f.c.id) {
            let maintained_now = d.events().iter().any(|x| {
                matches!(x, GameEvent::Orcus(OrcusEvent::Maintained { combatant, effect }) if combatant == grappler && *effect == e.id)
            });
            if &e.source == grappler
                && e.duration == EffectDuration::EndOfBattle
                && !kept.contains(&e.id)
                && !maintained_now
            {
                ending.push((f.c.id.clone(), e.id));
            }
        }
    }
    for (target, effect) in ending {
        release(d, &target, effect);
    }
}
