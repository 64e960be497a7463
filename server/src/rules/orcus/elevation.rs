//! Orcus elevation (`orcus-basic-rules.txt` § Special movement modes: Climb, Fly; the text has
//! no altitude rules, so the model is Fourth Edition's, an interpretation): a creature's height
//! is a whole number of squares above the ground (a column of cubes over its space). Fliers go
//! up and down with `move_aloft` (a move action, one square of fly speed per square of height);
//! a climber on or next to a climbable `^` square climbs at its climb speed, or without one at
//! half its speed with an Athletics check against the map's `climb_dc` (a failure makes no
//! progress, a failure by 5 or more is a fall). A creature aloft that can no longer stay up — a
//! flier stunned, knocked prone or down unless it hovers, a climber that left its wall or is
//! incapacitated, a rider thrown from a flying mount — falls: 1d10 per 2 full squares fallen
//! (Fourth Edition's 1d10 per 10 feet) and lands prone; `slow_fall` lands unharmed and standing.
//! Heights in the geometry (`geometry::Body`): a creature is a stack of cubes as tall as its
//! space is wide; every distance is the larger of the ground range and the height gap between
//! cubes (reach, range, adjacency, flanking); bursts and blasts are cubes; walls are full height
//! (line of sight and effect as on the ground), obscurement fills a square's column, and a
//! creature gives cover only at its own height.

use super::Board;
use super::commands::{R, deal, mode_speed, no, on_turn, pay, skill_check, space, speed};
use super::geometry::{self, Body, Space};
use super::riders::emit_effect;
use crate::dice::Placeholders;
use crate::rules::common::decider::Decider;
use crate::rules::common::field::has_condition;
use fray_protocol::ErrorCode;
use fray_protocol::OrcusEvent;
use fray_protocol::event::{
    ActionKind, Condition, DamageCause, EffectDuration, EffectKind, GameEvent,
};
use fray_protocol::grid::SpecialMode;
use fray_protocol::ids::CombatantId;
use fray_protocol::state::LifeStatus;

/// The highest a creature may go (squares).
pub const MAX_HEIGHT: i32 = 20;
/// Failing a climb by this much or more is a fall (Fourth Edition, interpretation).
const CLIMB_FALL_MARGIN: i32 = 5;

/// A creature's height, counting what this decision already changed (its own or its mount's).
pub fn height(d: &Decider, b: &Board, id: &CombatantId) -> i32 {
    let mount = super::mounts::mounted_on(b, id);
    let changed = d.events().iter().rev().find_map(|e| match e {
        GameEvent::Orcus(OrcusEvent::MovedAloft { combatant, height })
            if combatant == id || Some(combatant) == mount.as_ref() =>
        {
            Some(*height)
        }
        GameEvent::Orcus(OrcusEvent::Fell { combatant, .. })
            if combatant == id || Some(combatant) == mount.as_ref() =>
        {
            Some(0)
        }
        _ => None,
    });
    changed.unwrap_or_else(|| b.get(id).map_or(0, |(g, _)| g.0.height))
}

/// The difference in height between two creatures, in squares (mounting needs them level; the
/// distances use `geometry::distance_3d`).
pub fn gap(d: &Decider, b: &Board, a: &CombatantId, t: &CombatantId) -> i32 {
    (height(d, b, a) - height(d, b, t)).abs()
}

/// A creature's body in three dimensions (its space and height, counting this decision).
pub fn body(d: &Decider, b: &Board, id: &CombatantId) -> R<Body> {
    Ok(Body {
        space: space(d, b, id)?,
        height: height(d, b, id),
    })
}

/// A creature's body were it in the space `at` at its present height (a square of a walk).
pub fn body_at(d: &Decider, b: &Board, id: &CombatantId, at: Space) -> Body {
    Body {
        space: at,
        height: height(d, b, id),
    }
}

/// Whether a climbable square is under or next to the space.
fn at_climbable(b: &Board, sp: Space) -> bool {
    b.map.0.as_ref().is_some_and(|m| {
        m.climbable
            .iter()
            .any(|s| geometry::distance_to_square(sp, *s) <= 1)
    })
}

/// Elevation: fly or climb to `to` squares above the ground (a move action).
pub fn move_aloft(d: &mut Decider, b: &Board, actor: &CombatantId, to: i32) -> R {
    on_turn(d, actor)?;
    super::mounts::not_mounted(b, actor)?;
    super::commands::cannot_leave_space(d, actor)?;
    if !(0..=MAX_HEIGHT).contains(&to) {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("a height is 0 to {MAX_HEIGHT} squares"),
        ));
    }
    let from = height(d, b, actor);
    let change = (to - from).abs();
    if change == 0 {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("{actor} is already {to} squares up"),
        ));
    }
    let fly = mode_speed(d, b, actor, SpecialMode::Fly);
    if fly > 0 {
        if change > fly {
            return Err(no(
                ErrorCode::TooFar,
                format!("{change} squares of height; its fly speed is {fly}"),
            ));
        }
        pay(d, actor, ActionKind::Move)?;
        d.emit(GameEvent::Orcus(OrcusEvent::MovedAloft {
            combatant: actor.clone(),
            height: to,
        }));
        return Ok(());
    }
    if !at_climbable(b, space(d, b, actor)?) {
        return Err(no(
            ErrorCode::CannotClimb,
            format!("{actor} cannot fly and has no climbable surface (`^`) at hand"),
        ));
    }
    let climb = mode_speed(d, b, actor, SpecialMode::Climb);
    // § Athletics: without a climb speed, half speed and a check (interpretation, 4e).
    let allowed = if climb > 0 {
        climb
    } else {
        speed(d, b, actor) / 2
    };
    if change > allowed {
        return Err(no(
            ErrorCode::TooFar,
            format!("{change} squares of climbing; {actor} climbs {allowed} per move"),
        ));
    }
    pay(d, actor, ActionKind::Move)?;
    if climb == 0 {
        let dc = b.map.0.as_ref().map_or(15, |m| m.climb_dc);
        if !skill_check(d, b, actor, "athletics", dc, "climb") {
            let total = d.events().iter().rev().find_map(|e| match e {
                GameEvent::CheckRolled { total, .. } => Some(*total),
                _ => None,
            });
            if total.is_some_and(|t| t <= dc - CLIMB_FALL_MARGIN) && from > 0 {
                fall(d, b, actor, from);
            }
            return Ok(());
        }
    }
    d.emit(GameEvent::Orcus(OrcusEvent::MovedAloft {
        combatant: actor.clone(),
        height: to,
    }));
    Ok(())
}

/// A creature falls `from` squares: `fell`, then 1d10 per 2 full squares (a `fall` hazard)
/// and prone, unless it falls slowly.
pub fn fall(d: &mut Decider, b: &Board, who: &CombatantId, from: i32) {
    d.emit(GameEvent::Orcus(OrcusEvent::Fell {
        combatant: who.clone(),
        squares: from,
    }));
    super::aloft::land_clear(d, b, who);
    if b.get(who).is_some_and(|(_, k)| k.0.slow_fall) {
        return;
    }
    let dice = from / 2;
    if dice > 0
        && let Ok(roll) = d.roll(&format!("{dice}d10"), &Placeholders::default())
    {
        deal(
            d,
            b,
            who,
            roll.total,
            DamageCause::Hazard {
                purpose: "fall".into(),
                doubled: false,
            },
            None,
            false,
        );
    }
    if d.status(who)
        .is_some_and(|s| !matches!(s, LifeStatus::Dead | LifeStatus::Slain))
    {
        emit_effect(
            d,
            who,
            who,
            EffectKind::Condition(Condition::Prone),
            EffectDuration::EndOfBattle,
        );
    }
}

/// After each command: every creature aloft that can no longer stay up falls (see the module
/// text). Conditions gained in this same decision count.
pub fn sweep(d: &mut Decider, b: &Board) {
    let ids: Vec<CombatantId> = d.field.all().map(|f| f.c.id.clone()).collect();
    for id in ids {
        if super::mounts::mounted_on(b, &id).is_some_and(|_| {
            !d.events()
                .iter()
                .any(|e| matches!(e, GameEvent::Orcus(OrcusEvent::Dismounted { rider, .. }) if rider == &id))
        }) {
            continue; // a rider stays up with its mount
        }
        let h = height(d, b, &id);
        if h <= 0 {
            continue;
        }
        let status = d.status(&id);
        if matches!(status, Some(LifeStatus::Dead | LifeStatus::Slain) | None) {
            // The dead come down too, without further harm.
            d.emit(GameEvent::Orcus(OrcusEvent::Fell {
                combatant: id.clone(),
                squares: h,
            }));
            continue;
        }
        let gained = |c: Condition| {
            d.events().iter().any(|e| {
                matches!(e, GameEvent::EffectApplied { effect }
                    if effect.target == id && effect.kind == EffectKind::Condition(c))
            })
        };
        let down = status != Some(LifeStatus::Conscious);
        let incapacitated = down
            || [
                Condition::Prone,
                Condition::Stunned,
                Condition::Unconscious,
                Condition::Helpless,
            ]
            .into_iter()
            .any(|c| gained(c) || d.field.get(&id).is_some_and(|f| has_condition(f.fx, c)));
        let flier = b
            .get(&id)
            .is_some_and(|(_, k)| k.0.modes.speed(SpecialMode::Fly) > 0);
        let hover = b.get(&id).is_some_and(|(_, k)| k.0.hover);
        let climbing = space(d, b, &id).is_ok_and(|sp| at_climbable(b, sp));
        let held = (flier && (!incapacitated || hover)) || (climbing && !incapacitated);
        if !held {
            fall(d, b, &id, h);
        }
    }
}
