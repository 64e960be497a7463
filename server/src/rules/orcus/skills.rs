//! Orcus skill actions in combat (orcus-basic-rules.txt § Skill actions): Feint, Grant Save and
//! Rally Ally. Each is a standard action and a skill check; Escape a Grapple is in
//! `maneuvers.rs`, Stabilize in `commands.rs`. Create Diversion, Deter and Unnerve depend on
//! attitudes (friendly, unfriendly, hostile) and languages that Fray does not track: not yet.

use super::Board;
use super::commands::{
    R, alive, defense_bonus, fighter, fighter_side, is_enemy, no, on_turn, pay, skill_check,
    skill_mod, space, spend_recovery,
};
use super::geometry;
use super::riders::{self, emit_effect};
use crate::rules::thirteenth_age::decider::Decider;
use fray_protocol::ErrorCode;
use fray_protocol::command::SkillActionKind;
use fray_protocol::event::{
    ActionKind, Condition, EffectDuration, EffectEndReason, EffectKind, GameEvent, SavePurpose,
};
use fray_protocol::ids::CombatantId;
use fray_protocol::state::LifeStatus;

/// The id `feint` is expended under (§ Feint is once per encounter).
const FEINT: &str = "feint";
/// § Grant Save: Heal vs 15.
const GRANT_SAVE_DC: i32 = 15;
/// § Rally Ally: Heal vs 10.
const RALLY_ALLY_DC: i32 = 10;

/// An adjacent ally (not the actor: "you are not your own ally", § Targets).
fn adjacent_ally(d: &Decider, b: &Board, actor: &CombatantId, target: &CombatantId) -> R {
    alive(d, target)?;
    if target == actor || fighter_side(d, actor) != fighter_side(d, target) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{target} is not an ally"),
        ));
    }
    if !geometry::adjacent(space(d, b, actor)?, space(d, b, target)?) {
        return Err(no(
            ErrorCode::OutOfRange,
            format!("{target} is not adjacent (melee touch)"),
        ));
    }
    Ok(())
}

/// One skill action.
pub fn skill_action(
    d: &mut Decider,
    b: &Board,
    actor: &CombatantId,
    kind: SkillActionKind,
    target: &CombatantId,
    effect: Option<u32>,
) -> R {
    on_turn(d, actor)?;
    match kind {
        SkillActionKind::Feint => feint(d, b, actor, target),
        SkillActionKind::GrantSave => grant_save(d, b, actor, target, effect),
        SkillActionKind::RallyAlly => rally_ally(d, b, actor, target),
    }
}

/// § Feint (encounter): near burst 1, one enemy; Bluff vs its passive Insight (10 + Insight);
/// success: it is off-guard to the actor until the end of the actor's next turn.
fn feint(d: &mut Decider, b: &Board, actor: &CombatantId, target: &CombatantId) -> R {
    alive(d, target)?;
    if !is_enemy(d, actor, target) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{target} is not an enemy"),
        ));
    }
    if geometry::distance(space(d, b, actor)?, space(d, b, target)?) > 1 {
        return Err(no(
            ErrorCode::OutOfRange,
            format!("{target} is not within a near burst 1"),
        ));
    }
    if fighter(d, actor)?.used.0.contains(FEINT) {
        return Err(no(ErrorCode::PowerExpended, "Feint is once per encounter"));
    }
    pay(d, actor, ActionKind::Standard)?;
    d.emit(GameEvent::PowerExpended {
        combatant: actor.clone(),
        power: FEINT.into(),
    });
    let dc = 10 + skill_mod(b, target, "insight");
    if skill_check(d, b, actor, "bluff", dc, "feint") {
        emit_effect(
            d,
            target,
            actor,
            EffectKind::Condition(Condition::Feinted),
            EffectDuration::UntilEndOfSourcesNextTurn,
        );
    }
    Ok(())
}

/// § Grant Save: melee touch, one ally; Heal vs 15; success: it makes a saving throw at once
/// (its choice of the text's two options; Fray takes the save now) against `effect`, or its
/// oldest save-ends effect.
fn grant_save(
    d: &mut Decider,
    b: &Board,
    actor: &CombatantId,
    target: &CombatantId,
    effect: Option<u32>,
) -> R {
    adjacent_ally(d, b, actor, target)?;
    let f = fighter(d, target)?;
    let chosen =
        f.fx.0
            .iter()
            .filter(|e| matches!(e.duration, EffectDuration::SaveEnds(_)))
            .find(|e| effect.is_none_or(|id| id == e.id))
            .cloned()
            .ok_or_else(|| {
                no(
                    ErrorCode::InvalidTarget,
                    match effect {
                        Some(id) => format!("{target} has no save-ends effect #{id}"),
                        None => format!("{target} has nothing to save against"),
                    },
                )
            })?;
    let EffectDuration::SaveEnds(difficulty) = chosen.duration else {
        return Ok(());
    };
    pay(d, actor, ActionKind::Standard)?;
    if skill_check(d, b, actor, "heal", GRANT_SAVE_DC, "grant save") {
        let (ok, _) = d.save(target, SavePurpose::Effect(chosen.id), difficulty.target());
        if ok {
            riders::end(d, b, target, &chosen, EffectEndReason::Saved);
        } else {
            riders::failed_save(d, b, target, &chosen);
        }
    }
    Ok(())
}

/// § Rally Ally: melee touch, one ally with a Rally use left; Heal vs 10; success: it rallies
/// without using an action (a recovery's worth of hit points and +2 to defenses).
fn rally_ally(d: &mut Decider, b: &Board, actor: &CombatantId, target: &CombatantId) -> R {
    adjacent_ally(d, b, actor, target)?;
    let f = fighter(d, target)?;
    let name = f.c.name.clone();
    if f.hero.is_none_or(|h| h.recoveries <= 0)
        || b.get(target).is_some_and(|(g, _)| g.0.rallied)
        || f.vit.0 != LifeStatus::Conscious
    {
        return Err(no(
            ErrorCode::RallyNotAllowed,
            format!("{name} has no Rally left to use"),
        ));
    }
    pay(d, actor, ActionKind::Standard)?;
    if skill_check(d, b, actor, "heal", RALLY_ALLY_DC, "rally ally") {
        d.emit(GameEvent::Rallied {
            combatant: target.clone(),
        });
        spend_recovery(d, b, target, true)?;
        defense_bonus(d, target);
    }
    Ok(())
}
