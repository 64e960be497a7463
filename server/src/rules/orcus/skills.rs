//! Orcus skill actions in combat (orcus-basic-rules.txt § Skill actions): Feint, Grant Save,
//! Rally Ally, Create Diversion, Deter and Unnerve. Each is a standard action and a skill check;
//! Escape a Grapple is in `maneuvers.rs`, Stabilize in `commands.rs`. Fray tracks no attitudes
//! nor languages: a creature in a fight is hostile (the +10 of § Deter; Deter makes it hostile
//! anyway), and a missing common language is the command's `foreign` flag (interpretations).

use super::Board;
use super::commands::{
    R, alive, defense_bonus, defense_value, fighter, fighter_side, is_enemy, no, on_turn, pay,
    skill_check, skill_mod, space, spend_recovery,
};
use super::elevation::body;
use super::geometry;
use super::riders::{self, emit_effect};
use super::rules;
use crate::rules::common::decider::Decider;
use crate::rules::common::field::has_condition;
use fray_protocol::ErrorCode;
use fray_protocol::command::SkillActionKind;
use fray_protocol::event::{
    ActionKind, Condition, Defense, EffectDuration, EffectEndReason, EffectKind, GameEvent,
    SavePurpose,
};
use fray_protocol::ids::CombatantId;
use fray_protocol::state::LifeStatus;

/// The id `feint` is expended under (§ Feint is once per encounter).
pub(super) const FEINT: &str = "feint";
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
    if !geometry::adjacent_3d(body(d, b, actor)?, body(d, b, target)?) {
        return Err(no(
            ErrorCode::OutOfRange,
            format!("{target} is not adjacent (melee touch)"),
        ));
    }
    Ok(())
}

/// One skill action.
#[allow(clippy::too_many_arguments)]
pub fn skill_action(
    d: &mut Decider,
    b: &Board,
    actor: &CombatantId,
    kind: SkillActionKind,
    target: &CombatantId,
    effect: Option<u32>,
    forbid: Option<ActionKind>,
    foreign: bool,
    hide: bool,
) -> R {
    on_turn(d, actor)?;
    if hide && kind != SkillActionKind::CreateDiversion {
        return Err(no(
            ErrorCode::InvalidArgument,
            "`hide` goes with create_diversion only (§ Stealth: other hides end a move)",
        ));
    }
    match kind {
        SkillActionKind::Feint => feint(d, b, actor, target),
        SkillActionKind::GrantSave => grant_save(d, b, actor, target, effect),
        SkillActionKind::RallyAlly => rally_ally(d, b, actor, target),
        SkillActionKind::CreateDiversion => create_diversion(d, b, actor, hide),
        SkillActionKind::Deter => deter(d, b, actor, target, forbid, foreign),
        SkillActionKind::Unnerve => unnerve(d, b, actor, foreign),
    }
}

/// The id Create Diversion is expended under (§ Create Diversion is once per encounter).
pub(super) const CREATE_DIVERSION: &str = "create_diversion";
/// § Deter: a hostile target's Will bonus (a creature in a fight is hostile: interpretation).
const HOSTILE_WILL: i32 = 10;
/// § Deter, § Unnerve: the Will bonus when the actor speaks no language the target understands.
const FOREIGN_WILL: i32 = 5;

/// Whether `target` is in the actor's eyesight and/or earshot (`both`), per `senses.rs`.
fn sensed_by(
    d: &Decider,
    b: &Board,
    actor: &CombatantId,
    target: &CombatantId,
    both: bool,
) -> Result<bool, fray_protocol::Rejection> {
    let (from, to) = (space(d, b, actor)?, space(d, b, target)?);
    let g = b.map.0.as_ref().and_then(geometry::Geo::new);
    let blinded = d
        .field
        .get(actor)
        .is_some_and(|f| has_condition(f.fx, Condition::Blinded));
    // § Stealth: a target hidden from the actor is not seen (it still hears the actor).
    let seen = super::senses::sees(g.as_ref(), from, blinded, to)
        && !super::stealth::unseen(d, b, target, actor);
    let heard = super::senses::hears(b.map.0.as_ref(), from, to);
    Ok(if both { seen && heard } else { seen || heard })
}

/// The living enemies of `actor` it sees (§ Areas of effect, eyesight: `senses::sees`; a
/// blinded actor sees none; without a battle map, all of them).
fn enemies_in_eyesight(
    d: &Decider,
    b: &Board,
    actor: &CombatantId,
) -> Result<Vec<CombatantId>, fray_protocol::Rejection> {
    let from = space(d, b, actor)?;
    let g = b.map.0.as_ref().and_then(geometry::Geo::new);
    let blinded = d
        .field
        .get(actor)
        .is_some_and(|f| has_condition(f.fx, Condition::Blinded));
    let mut out = Vec::new();
    for f in d.field.all() {
        let id = f.c.id.clone();
        if f.vit.0 == LifeStatus::Dead || !is_enemy(d, actor, &id) {
            continue;
        }
        let Ok(to) = space(d, b, &id) else { continue };
        if super::senses::sees(g.as_ref(), from, blinded, to)
            && !super::stealth::unseen(d, b, &id, actor)
        {
            out.push(id);
        }
    }
    Ok(out)
}

/// Whether `target` resisted `actor`'s Deter or Unnerve this encounter.
fn unintimidated(d: &Decider, actor: &CombatantId, target: &CombatantId) -> bool {
    d.field.get(target).is_some_and(|f| {
        f.fx.0.iter().any(|e| {
            matches!(e.kind, EffectKind::Condition(Condition::Unintimidated)) && &e.source == actor
        })
    })
}

/// § Deter, § Unnerve: Intimidate vs the target's Will plus `plus`; a failure leaves it immune to
/// the actor's Deter and Unnerve until the end of the encounter.
fn intimidate(
    d: &mut Decider,
    b: &Board,
    actor: &CombatantId,
    target: &CombatantId,
    plus: i32,
    purpose: &str,
) -> bool {
    let dc = defense_value(d, b, target, Defense::Will) + plus;
    let ok = skill_check(d, b, actor, "intimidate", dc, purpose);
    if !ok {
        emit_effect(
            d,
            target,
            actor,
            EffectKind::Condition(Condition::Unintimidated),
            EffectDuration::EndOfBattle,
        );
    }
    ok
}

/// § Create Diversion (encounter): near eyesight, all enemies; Bluff vs each one's passive
/// Insight. A success is the diversion the actor needs to attempt a Stealth check while that
/// enemy is aware of it; Fray tracks no hiding, so the checks in the log are the GM's to rule on
/// (interpretation).
fn create_diversion(d: &mut Decider, b: &Board, actor: &CombatantId, hide: bool) -> R {
    if fighter(d, actor)?.used.0.contains(CREATE_DIVERSION) {
        return Err(no(
            ErrorCode::PowerExpended,
            "Create Diversion is once per encounter",
        ));
    }
    let targets = enemies_in_eyesight(d, b, actor)?;
    if targets.is_empty() {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{actor} sees no enemy to divert"),
        ));
    }
    if hide {
        super::stealth::check_cover(d, b, actor, body(d, b, actor)?)?;
    }
    pay(d, actor, ActionKind::Standard)?;
    d.emit(GameEvent::PowerExpended {
        combatant: actor.clone(),
        power: CREATE_DIVERSION.into(),
    });
    let mut undiverted = Vec::new();
    for t in targets {
        let dc = rules::PASSIVE_BASE + skill_mod(b, &t, "insight");
        if !skill_check(
            d,
            b,
            actor,
            "bluff",
            dc,
            &format!("create diversion vs {t}"),
        ) {
            undiverted.push(t);
        }
    }
    // § Create Diversion, Success: "the momentary diversion you need to attempt a Stealth
    // check while people are aware of you" — the hide needs no movement; the enemies the
    // Bluff did not divert keep watching the actor.
    if hide {
        super::stealth::hide(d, b, actor, 0, &undiverted);
    }
    Ok(())
}

/// § Deter (at-will): near eyesight or earshot, one enemy (every creature on the map hears the
/// actor unless the map sets an `earshot` radius: `senses::hears`); Intimidate vs Will +10 (hostile) +5 if `foreign`; success: the target
/// cannot take the `forbid` action (standard unless chosen) until the end of its next turn.
fn deter(
    d: &mut Decider,
    b: &Board,
    actor: &CombatantId,
    target: &CombatantId,
    forbid: Option<ActionKind>,
    foreign: bool,
) -> R {
    alive(d, target)?;
    if !is_enemy(d, actor, target) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{target} is not an enemy"),
        ));
    }
    if unintimidated(d, actor, target) {
        return Err(no(
            ErrorCode::Deterred,
            format!("{target} resisted {actor}'s Deter or Unnerve this encounter"),
        ));
    }
    if !sensed_by(d, b, actor, target, false)? {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{target} neither sees nor hears {actor} (§ Deter: near eyesight or earshot)"),
        ));
    }
    pay(d, actor, ActionKind::Standard)?;
    let plus = HOSTILE_WILL + if foreign { FOREIGN_WILL } else { 0 };
    if intimidate(d, b, actor, target, plus, "deter") {
        // "until the end of their next turn": the target is the effect's source, so it ends
        // at the end of the target's next turn.
        emit_effect(
            d,
            target,
            target,
            EffectKind::Condition(Condition::Deterred(forbid.unwrap_or(ActionKind::Standard))),
            EffectDuration::UntilEndOfSourcesNextTurn,
        );
    }
    Ok(())
}

/// § Unnerve (at-will): near eyesight and earshot, all staggered enemies (the ones in line of
/// sight and within the map's earshot, `senses::hears`, not immune to the actor's intimidation); Intimidate vs Will +10 (+5 if `foreign`), one
/// check per target; success: it surrenders (takes no more actions this encounter).
fn unnerve(d: &mut Decider, b: &Board, actor: &CombatantId, foreign: bool) -> R {
    let from = space(d, b, actor)?;
    let map = b.map.0.as_ref();
    let in_earshot: Vec<CombatantId> = enemies_in_eyesight(d, b, actor)?
        .into_iter()
        .filter(|t| space(d, b, t).is_ok_and(|to| super::senses::hears(map, from, to)))
        .collect();
    let targets: Vec<CombatantId> = in_earshot
        .into_iter()
        .filter(|t| {
            d.overlay
                .vitals(d.field, t)
                .is_some_and(|v| v.current * 2 <= v.max)
                && !unintimidated(d, actor, t)
                && d.field
                    .get(t)
                    .is_some_and(|f| !has_condition(f.fx, Condition::Surrendered))
        })
        .collect();
    if targets.is_empty() {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{actor} sees no staggered enemy to unnerve"),
        ));
    }
    pay(d, actor, ActionKind::Standard)?;
    let plus = HOSTILE_WILL + if foreign { FOREIGN_WILL } else { 0 };
    for t in targets {
        if intimidate(d, b, actor, &t, plus, &format!("unnerve {t}")) {
            emit_effect(
                d,
                &t,
                actor,
                EffectKind::Condition(Condition::Surrendered),
                EffectDuration::EndOfBattle,
            );
        }
    }
    Ok(())
}

/// § Unnerve: whether the creature has surrendered. Interpretation (the text says only "the
/// target surrenders"): it takes no more actions this encounter and is out of the fight, so a
/// side with no creature left able and willing to fight (every one surrendered, down or dead)
/// has lost the battle (`turns.rs::advance`).
pub fn surrendered(d: &Decider, id: &CombatantId) -> bool {
    d.field
        .get(id)
        .is_some_and(|f| has_condition(f.fx, Condition::Surrendered))
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
    if geometry::distance_3d(body(d, b, actor)?, body(d, b, target)?) > 1 {
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
    let dc = rules::PASSIVE_BASE + skill_mod(b, target, "insight");
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
