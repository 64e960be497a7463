//! Basic Fantasy § Retainers: hiring (the reaction table with the employer's CHA bonus, the
//! maximum number and the level limit), loyalty (7 + the employer's CHA bonus, +1 on a hiring
//! roll of 12 or more) and loyalty checks (as morale; a natural 2 in combat raises loyalty).
//! Retainers take half an XP share (`experience.rs`).

use super::Sheets;
use super::commands::{name, no, sheet, side_of, up};
use crate::dice::Placeholders;
use crate::rules::common::decider::Decider;
use fray_protocol::BxEvent;
use fray_protocol::bf::{Hiring, Retainer};
use fray_protocol::event::GameEvent;
use fray_protocol::ftd::Departure;
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::state::Phase;
use fray_protocol::{ErrorCode, Rejection};

type R<T = ()> = Result<T, Rejection>;

/// § Retainers: the hiring table by adjusted roll.
pub fn hiring(total: i32) -> Hiring {
    match total {
        i32::MIN..=2 => Hiring::RefusalWithPenalty,
        3..=5 => Hiring::Refusal,
        6..=8 => Hiring::TryAgain,
        9..=11 => Hiring::Acceptance,
        _ => Hiring::AcceptanceLoyal,
    }
}

/// A combatant's service as a retainer: the session's record, else the content's
/// `retainer_of` with loyalty 7 + the employer's CHA bonus.
pub fn retainer(s: &Sheets, id: &CombatantId) -> Option<Retainer> {
    if let Some(r) = s.battle().bf.retainer(id) {
        return Some(r.clone());
    }
    let (_, kit) = s.get(id)?;
    let employer = kit.bf.retainer_of.clone()?;
    let cha = s.get(&employer).map_or(0, |(_, k)| k.bf.cha_bonus);
    Some(Retainer {
        retainer: id.clone(),
        employer,
        loyalty: 7 + cha,
        left: false,
    })
}

/// The retainers in an employer's service.
fn serving(d: &Decider, s: &Sheets, employer: &CombatantId) -> usize {
    d.field
        .all()
        .filter_map(|f| retainer(s, &f.c.id))
        .filter(|r| &r.employer == employer && !r.left)
        .count()
}

/// `hire_retainer`, between encounters.
pub fn hire(
    d: &mut Decider,
    s: &Sheets,
    employer: &CombatantId,
    candidate: &CombatantId,
    adjustment: i32,
) -> R {
    if d.field.battle.phase != Phase::Setup {
        return Err(no(
            ErrorCode::BattleAlreadyStarted,
            "retainers are hired between encounters",
        ));
    }
    let (_, ek) = sheet(s, employer)?;
    sheet(s, candidate)?;
    if side_of(d, employer)? != Side::Heroes || side_of(d, candidate)? != Side::Heroes {
        return Err(no(
            ErrorCode::InvalidTarget,
            "employer and candidate are of the party",
        ));
    }
    if employer == candidate || retainer(s, employer).is_some_and(|r| !r.left) {
        return Err(no(
            ErrorCode::InvalidTarget,
            "the employer is a player character, not a retainer",
        ));
    }
    if retainer(s, candidate).is_some_and(|r| !r.left) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{} already serves", name(d, candidate)),
        ));
    }
    if !(-3..=3).contains(&adjustment) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "the GM's adjustment is -3..=3",
        ));
    }
    let level = |id: &CombatantId| d.field.get(id).map_or(0, |f| f.c.level);
    let max_level = super::tables::bf_max_retainer_level(level(employer));
    if level(candidate) > max_level {
        return Err(no(
            ErrorCode::RetainerLimit,
            format!(
                "{} may hire retainers of level {max_level} at most (§ Level of Retainers)",
                name(d, employer)
            ),
        ));
    }
    let max = (4 + ek.bf.cha_bonus).max(0);
    if i32::try_from(serving(d, s, employer)).unwrap_or(i32::MAX) >= max {
        return Err(no(
            ErrorCode::RetainerLimit,
            format!(
                "{} already has {max} retainers: further attempts are refused (§ Maximum \
                 Number of Retainers)",
                name(d, employer)
            ),
        ));
    }
    let penalty = i32::from(s.battle().bf.hiring_penalty.contains(employer));
    let terms = fray_protocol::roll::Modifiers::new()
        .with("CHA", ek.bf.cha_bonus)
        .with("situational", adjustment)
        .with("earlier refusal (2 or less)", -penalty);
    let modifier = terms.total();
    let loyalty_base = 7 + ek.bf.cha_bonus;
    let roll = d.roll("2d6", &Placeholders::default())?;
    let total = roll.total + modifier;
    let result = hiring(total);
    let loyalty = result
        .hired()
        .then_some(loyalty_base + i32::from(result == Hiring::AcceptanceLoyal));
    d.emit(GameEvent::Bx(BxEvent::RetainerHireRolled {
        employer: employer.clone(),
        retainer: candidate.clone(),
        roll,
        modifier,
        total,
        result,
        loyalty,
        modifiers: terms.into_vec(),
    }));
    Ok(())
}

/// `loyalty_check`: 2d6 at or under loyalty + the GM's adjustment holds. In combat a failure
/// flees and a natural 2 raises loyalty by 1 (to 12 at most); out of combat ("at the end of
/// each adventure") a failure leaves the employer's service.
pub fn loyalty_check(d: &mut Decider, s: &Sheets, who: &CombatantId, adjustment: i32) -> R {
    if d.field.battle.phase == Phase::Ended {
        return Err(no(ErrorCode::BattleOver, "the session is over"));
    }
    sheet(s, who)?;
    let Some(r) = retainer(s, who).filter(|r| !r.left) else {
        return Err(no(
            ErrorCode::NotARetainer,
            format!("{} is no one's retainer", name(d, who)),
        ));
    };
    if !(-2..=2).contains(&adjustment) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "the GM's adjustment is -2..=2",
        ));
    }
    let combat = d.field.battle.phase == Phase::Running;
    if combat && !up(d, s, who) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{} is out of the fight", name(d, who)),
        ));
    }
    let roll = d.roll("2d6", &Placeholders::default())?;
    let holds = roll.total <= r.loyalty + adjustment;
    let raised = combat && roll.total == 2;
    let loyalty_after = if raised {
        (r.loyalty + 1).min(12)
    } else {
        r.loyalty
    };
    d.emit(GameEvent::Bx(BxEvent::LoyaltyChecked {
        retainer: who.clone(),
        employer: r.employer,
        roll,
        adjustment,
        loyalty: r.loyalty,
        holds,
        loyalty_after,
        leaves: !holds && !combat,
        modifiers: fray_protocol::roll::Modifiers::new()
            .with("situational", adjustment)
            .into_vec(),
    }));
    if !holds && combat {
        d.emit(GameEvent::LeftBattle {
            combatant: who.clone(),
            how: Departure::Fled,
        });
    }
    Ok(())
}
