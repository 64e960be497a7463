//! Hiding (`orcus-basic-rules.txt` § Stealth, with § Perception and § Passive skills).
//!
//! - Hiding: at the end of an action in which the creature moved (`move_to` with `hide`), or
//!   after a successful Create Diversion (`skill_action` with `hide`, no movement needed), it
//!   makes one Stealth check (−5 after moving 3 or more squares, −10 after a Run) against the
//!   passive Perception (10 + Perception) of each enemy that can sense it (sees it or hears it:
//!   `senses.rs`). It is hidden from each such enemy it is in three-quarters cover or total
//!   concealment from and whose passive Perception the total meets (§ Passive skills: the
//!   passive value is the DC). With no such cover from any of them the action is refused before
//!   any die (`no_cover`).
//! - Hidden ("silent and invisible against those enemies"): an enemy it is hidden from does not
//!   see it — its melee and ranged attacks against it take total concealment's −5 (§
//!   Concealment: "An invisible target also has total concealment"), it gets no off-guard bonus
//!   against it (§ Off-guard: only attackers that can see), it is not in that enemy's eyesight
//!   (§ Areas of effect) and gets no opportunity attack from it (§ Opportunity attacks: "an
//!   adjacent hostile creature that you can see"). Interpretation (as for Blinded, which is off-guard to everyone): an enemy that
//!   cannot see the hider is off-guard to it.
//! - It stays hidden from an enemy until it attacks (its hiding ends at the end of that
//!   action, § Effects of Hidden), is no longer in three-quarters cover or total concealment
//!   from that enemy (checked after every command: `sweep`), that enemy's active search meets
//!   its Stealth total (`search`, on the searcher's turn, no action, once per turn), or the GM
//!   rules it made excessive noise (`reveal`). Moving 3 or more squares while hidden makes a
//!   new Stealth check against the same enemies (−5, −10 running).
//!
//! The state is `grid.hidden_from` (the enemies) and `grid.stealth` (the total), changed by
//! `hide_checked` and `discovered` events.

use super::Board;
use super::commands::{R, fighter, fighter_side, no, on_turn, skill_mod};
use super::elevation;
use super::geometry::{AttackKind, Body, Geo};
use super::rules;
use crate::rules::common::decider::Decider;
use crate::rules::common::field::has_condition;
use fray_protocol::ErrorCode;
use fray_protocol::OrcusEvent;
use fray_protocol::event::{Condition, DiscoveryReason, GameEvent};
use fray_protocol::ids::CombatantId;
use fray_protocol::state::LifeStatus;

/// The enemies `id` is hidden from and its Stealth total: its grid state with this decision's
/// `hide_checked` and `discovered` events folded in.
fn hiding(d: &Decider, b: &Board, id: &CombatantId) -> (Vec<CombatantId>, Option<i32>) {
    let (mut from, mut total) = b
        .get(id)
        .map(|(g, _)| (g.0.hidden_from.clone(), g.0.stealth))
        .unwrap_or_default();
    for e in d.events() {
        match e {
            GameEvent::Orcus(OrcusEvent::HideChecked {
                combatant,
                total: t,
                hidden_from,
                ..
            }) if combatant == id => {
                from.clone_from(hidden_from);
                total = (!from.is_empty()).then_some(*t);
            }
            GameEvent::Orcus(OrcusEvent::Discovered { combatant, by, .. }) if combatant == id => {
                from.retain(|e| !by.contains(e));
                if from.is_empty() {
                    total = None;
                }
            }
            _ => {}
        }
    }
    (from, total)
}

/// Whether `id` may be hidden from anyone (a cheap test before folding the events).
fn may_hide(d: &Decider, b: &Board, id: &CombatantId) -> bool {
    b.get(id).is_some_and(|(g, _)| !g.0.hidden_from.is_empty())
        || d.events()
            .iter()
            .any(|e| matches!(e, GameEvent::Orcus(OrcusEvent::HideChecked { combatant, .. }) if combatant == id))
}

/// Whether `hider` is hidden from `by` (so `by` does not see it).
pub(super) fn unseen(d: &Decider, b: &Board, hider: &CombatantId, by: &CombatantId) -> bool {
    may_hide(d, b, hider) && hiding(d, b, hider).0.contains(by)
}

/// § Passive skills: 10 + the Perception modifier.
fn passive_perception(b: &Board, id: &CombatantId) -> i32 {
    rules::PASSIVE_BASE + skill_mod(b, id, "perception")
}

/// A creature able to notice anything: conscious, not unconscious or helpless.
fn aware(d: &Decider, id: &CombatantId) -> bool {
    d.field.get(id).is_some_and(|f| {
        f.vit.0 == LifeStatus::Conscious
            && !has_condition(f.fx, Condition::Unconscious)
            && !has_condition(f.fx, Condition::Helpless)
    })
}

fn blinded(d: &Decider, id: &CombatantId) -> bool {
    d.field
        .get(id)
        .is_some_and(|f| has_condition(f.fx, Condition::Blinded))
}

/// Whether `enemy` senses a hider whose body is `h`: it sees it (§ Line of sight, not
/// blinded) or hears it (`senses::hears`).
fn senses(d: &Decider, b: &Board, g: &Geo, enemy: &CombatantId, h: Body) -> bool {
    let Ok(e) = elevation::body(d, b, enemy) else {
        return false;
    };
    aware(d, enemy)
        && (super::senses::sees(Some(g), e.space, blinded(d, enemy), h.space)
            || super::senses::hears(b.map.0.as_ref(), h.space, e.space))
}

/// Whether a hider whose body is `h` is in three-quarters cover or total concealment from
/// `enemy`: out of its line of sight, the enemy blinded, totally concealed from it (§
/// Concealment: obscured squares, and darkness unless the enemy has darkvision, § Senses), or
/// three-quarters cover against it (§ Cover, the hider's allies counting as obstacles).
fn covered(
    d: &Decider,
    b: &Board,
    g: &Geo,
    hider: &CombatantId,
    enemy: &CombatantId,
    h: Body,
) -> bool {
    let Ok(e) = elevation::body(d, b, enemy) else {
        return false;
    };
    blinded(d, enemy)
        || !g.line_of_sight(e.space, h.space)
        || g.concealment(
            e.space,
            h.space,
            AttackKind::Ranged,
            super::commands::vision(b, enemy),
        ) <= rules::TOTAL_CONCEALMENT
        || super::commands::cover_at(d, b, g, e, hider, h) <= rules::THREE_QUARTERS_COVER
}

/// The living enemies of `hider`, in the field's order.
fn enemies(d: &Decider, hider: &CombatantId) -> Vec<CombatantId> {
    let side = fighter_side(d, hider);
    d.field
        .all()
        .filter(|f| f.c.side != side)
        .filter(|f| !matches!(f.vit.0, LifeStatus::Dead | LifeStatus::Slain))
        .map(|f| f.c.id.clone())
        .collect()
}

fn geo_for_hiding(b: &Board) -> R<Geo> {
    super::commands::geo(b).ok_or_else(|| {
        no(
            ErrorCode::NoCover,
            "hiding needs the battle map's cover and concealment; this session has no map",
        )
    })
}

/// Refuses a hide attempt, before any die, when a hider at `h` would have no enemy to hide
/// from or no three-quarters cover or total concealment from any enemy that senses it.
pub(super) fn check_cover(d: &Decider, b: &Board, hider: &CombatantId, h: Body) -> R {
    let g = geo_for_hiding(b)?;
    let name = fighter(d, hider)?.c.name.clone();
    let sensing: Vec<CombatantId> = enemies(d, hider)
        .into_iter()
        .filter(|e| senses(d, b, &g, e, h))
        .collect();
    if sensing.is_empty() {
        return Err(no(
            ErrorCode::NoCover,
            format!("no enemy can sense {name} there: there is nobody to hide from"),
        ));
    }
    if !sensing.iter().any(|e| covered(d, b, &g, hider, e, h)) {
        return Err(no(
            ErrorCode::NoCover,
            format!(
                "{name} would have neither three-quarters cover nor total concealment from any enemy (§ Stealth)"
            ),
        ));
    }
    Ok(())
}

/// The Stealth check to hide where the hider stands now; `penalty` is 0, −5 or −10; `aware`
/// are enemies that see it whatever the roll (those a Create Diversion did not divert).
/// Enemies it was hidden from that no longer sense it stay so.
pub(super) fn hide(
    d: &mut Decider,
    b: &Board,
    hider: &CombatantId,
    penalty: i32,
    aware: &[CombatantId],
) {
    let (Some(g), Ok(h)) = (super::commands::geo(b), elevation::body(d, b, hider)) else {
        return;
    };
    let before = hiding(d, b, hider).0;
    let against = enemies(d, hider)
        .into_iter()
        .filter(|e| before.contains(e) || senses(d, b, &g, e, h))
        .collect();
    stealth_check(d, b, (&g, h), hider, penalty, against, aware);
}

/// One Stealth check (d20 + Stealth + `penalty`) by `hider` at `h` against `against`: each
/// stays or becomes hidden from when it does not sense the hider, or when it is not `aware`,
/// the hider is in three-quarters cover or total concealment from it and the total meets its
/// passive Perception; the others see it.
fn stealth_check(
    d: &mut Decider,
    b: &Board,
    (g, h): (&Geo, Body),
    hider: &CombatantId,
    penalty: i32,
    against: Vec<CombatantId>,
    aware: &[CombatantId],
) {
    let bonus = skill_mod(b, hider, "stealth");
    let roll = d.d20();
    let total = roll.total + bonus + penalty;
    let (hidden_from, seen_by) = against.into_iter().partition(|e| {
        !senses(d, b, g, e, h)
            || (!aware.contains(e)
                && covered(d, b, g, hider, e, h)
                && total >= passive_perception(b, e))
    });
    d.emit(GameEvent::Orcus(OrcusEvent::HideChecked {
        combatant: hider.clone(),
        roll,
        bonus,
        penalty,
        total,
        hidden_from,
        seen_by,
        modifiers: fray_protocol::roll::Modifiers::new()
            .with("stealth", bonus)
            .with("moved", penalty)
            .into_vec(),
    }));
}

/// § Stealth, Movement: the penalty to hide after moving `squares` (running or not).
pub(super) fn movement_penalty(squares: usize, ran: bool) -> i32 {
    if ran {
        rules::HIDE_RUN_PENALTY
    } else if squares >= rules::HIDE_MOVE_SQUARES {
        rules::HIDE_MOVE_PENALTY
    } else {
        0
    }
}

/// After `hider`'s own move of `squares` squares (`ran`: a Run): the hide it asked for, or,
/// while hidden, "another Stealth check vs passive Perception" after 3 or more squares,
/// against the enemies it is hidden from (those that no longer sense it stay hidden from).
pub(super) fn after_move(
    d: &mut Decider,
    b: &Board,
    hider: &CombatantId,
    squares: usize,
    ran: bool,
    hide_now: bool,
) {
    if squares == 0 {
        return;
    }
    let penalty = movement_penalty(squares, ran);
    if hide_now {
        hide(d, b, hider, penalty, &[]);
        return;
    }
    let before = hiding(d, b, hider).0;
    if before.is_empty() || squares < rules::HIDE_MOVE_SQUARES {
        return;
    }
    let (Some(g), Ok(h)) = (super::commands::geo(b), elevation::body(d, b, hider)) else {
        return;
    };
    stealth_check(d, b, (&g, h), hider, penalty, before, &[]);
}

/// § Stealth, active search (`search`): on the actor's turn, no action, once per turn; one
/// Perception check against the Stealth total of every creature hidden from it. The check is
/// made even when nothing is hidden from it (the searcher cannot know).
pub(super) fn search(d: &mut Decider, b: &Board, actor: &CombatantId) -> R {
    on_turn(d, actor)?;
    super::free::incapable(d, actor, false, "a search")?;
    let (g, _) = b.get(actor).ok_or_else(|| {
        no(
            ErrorCode::UnknownCombatant,
            format!("no combatant '{actor}'"),
        )
    })?;
    let again = d
        .events()
        .iter()
        .any(|e| matches!(e, GameEvent::Orcus(OrcusEvent::Searched { combatant, .. }) if combatant == actor));
    if g.0.searched || again {
        return Err(no(
            ErrorCode::AlreadySearched,
            format!(
                "{} has searched this turn (once per turn)",
                fighter(d, actor)?.c.name
            ),
        ));
    }
    let bonus = skill_mod(b, actor, "perception");
    let roll = d.d20();
    let total = roll.total + bonus;
    let hiders: Vec<CombatantId> = d.field.all().map(|f| f.c.id.clone()).collect();
    let found: Vec<CombatantId> = hiders
        .into_iter()
        .filter(|h| {
            let (from, stealth) = hiding(d, b, h);
            from.contains(actor) && stealth.is_some_and(|s| total >= s)
        })
        .collect();
    d.emit(GameEvent::Orcus(OrcusEvent::Searched {
        combatant: actor.clone(),
        roll,
        bonus,
        total,
        found: found.clone(),
        modifiers: fray_protocol::roll::Modifiers::new()
            .with("perception", bonus)
            .into_vec(),
    }));
    for h in found {
        d.emit(GameEvent::Orcus(OrcusEvent::Discovered {
            combatant: h,
            by: vec![actor.clone()],
            reason: DiscoveryReason::Searched,
        }));
    }
    Ok(())
}

/// GM (`reveal`): the hider made excessive noise, or the GM rules it found — every enemy
/// perceives it again.
pub(super) fn reveal(d: &mut Decider, b: &Board, who: &CombatantId) -> R {
    super::commands::running(d)?;
    let name = fighter(d, who)?.c.name.clone();
    let from = hiding(d, b, who).0;
    if from.is_empty() {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{name} is not hidden from anyone"),
        ));
    }
    d.emit(GameEvent::Orcus(OrcusEvent::Discovered {
        combatant: who.clone(),
        by: from,
        reason: DiscoveryReason::Revealed,
    }));
    Ok(())
}

/// Whether `who` made an attack after its last hide check in this decision.
fn attacked(d: &Decider, who: &CombatantId) -> bool {
    d.events()
        .iter()
        .rev()
        .take_while(|e| !matches!(e, GameEvent::Orcus(OrcusEvent::HideChecked { combatant, .. }) if combatant == who))
        .any(|e| match e {
            GameEvent::AttackRolled { attacker, .. }
            | GameEvent::Orcus(OrcusEvent::HitByChoice { attacker, .. })
            | GameEvent::CoupDeGrace { attacker, .. } => attacker == who,
            _ => false,
        })
}

/// After every command (and turn-machinery pass that changed something): a hider that
/// attacked is discovered by all (§ Effects of Hidden: at the end of that action); otherwise
/// each enemy it is no longer in three-quarters cover or total concealment from perceives it.
pub(super) fn sweep(d: &mut Decider, b: &Board) {
    let hiders: Vec<CombatantId> = d
        .field
        .all()
        .map(|f| f.c.id.clone())
        .filter(|id| may_hide(d, b, id))
        .collect();
    if hiders.is_empty() {
        return;
    }
    let Some(g) = super::commands::geo(b) else {
        return;
    };
    for h in hiders {
        let from = hiding(d, b, &h).0;
        if from.is_empty() {
            continue;
        }
        if attacked(d, &h) {
            d.emit(GameEvent::Orcus(OrcusEvent::Discovered {
                combatant: h,
                by: from,
                reason: DiscoveryReason::Attacked,
            }));
            continue;
        }
        let Ok(body) = elevation::body(d, b, &h) else {
            continue;
        };
        let exposed: Vec<CombatantId> = from
            .into_iter()
            .filter(|e| !covered(d, b, &g, &h, e, body))
            .collect();
        if !exposed.is_empty() {
            d.emit(GameEvent::Orcus(OrcusEvent::Discovered {
                combatant: h,
                by: exposed,
                reason: DiscoveryReason::Exposed,
            }));
        }
    }
}
