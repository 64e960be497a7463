//! Orcus sessions of several battles and the session clock (orcus-basic-rules.txt
//! § Action points, § Resting): an encounter file's `[[battles]]` come in one after another
//! with the GM's `next_battle` (the lookup 13th Age uses, shared); every second encounter
//! between long rests gives each hero an action point; the clock counts the minutes of short
//! rests (5), long rests (6 hours, one per 24 hours) and the GM's `pass_time`.

use super::commands::{R, no};
use crate::rules::common::decider::Decider;
use fray_protocol::ErrorCode;
use fray_protocol::OrcusEvent;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::Side;
use fray_protocol::state::{LifeStatus, Phase};

/// Minutes of a short rest (§ Short rest: "at least 5 minutes").
pub const SHORT_REST_MINUTES: u32 = 5;
/// Minutes of a long rest (§ Long rest: "at least 6 hours").
pub const LONG_REST_MINUTES: u32 = 6 * 60;
/// A character benefits from one long rest in 24 hours (§ Long rest).
pub const LONG_REST_EVERY: u32 = 24 * 60;
/// The most the GM's `pass_time` advances the clock at once (a week).
pub const MAX_PASS_MINUTES: u32 = 7 * 24 * 60;

/// The battle ends; § Action points: "an additional action point after every second
/// encounter they have between long rests" — each hero not dead gains one when the
/// encounters since the last long rest reach an even count.
pub fn end_battle(d: &mut Decider, winner: Option<Side>) {
    d.emit(GameEvent::BattleEnded { winner });
    let encounters = d.field.battle.encounters_since_long_rest.saturating_add(1);
    if !encounters.is_multiple_of(2) {
        return;
    }
    let heroes: Vec<_> = d
        .field
        .all()
        .filter(|f| f.c.side == Side::Heroes && f.hero.is_some() && f.vit.0 != LifeStatus::Dead)
        .map(|f| f.c.id.clone())
        .collect();
    for combatant in heroes {
        d.emit(GameEvent::Orcus(OrcusEvent::ActionPointGained {
            combatant,
        }));
    }
}

/// Advances the session clock by `minutes`.
pub fn advance(d: &mut Decider, minutes: u32) {
    let clock = d.field.battle.clock.saturating_add(minutes);
    d.emit(GameEvent::Orcus(OrcusEvent::ClockAdvanced {
        minutes,
        clock,
    }));
}

/// The GM's `pass_time`: outside a running battle, 1..=10080 minutes pass.
pub fn pass_time(d: &mut Decider, minutes: u32) -> R {
    if d.field.battle.phase == Phase::Running {
        return Err(no(
            ErrorCode::InvalidArgument,
            "time passes outside the battle: a round is 6 seconds of the battle itself",
        ));
    }
    if d.field.battle.session_over {
        return Err(no(ErrorCode::BattleOver, "the session is over"));
    }
    if !(1..=MAX_PASS_MINUTES).contains(&minutes) {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("{minutes} minutes is outside 1..={MAX_PASS_MINUTES}"),
        ));
    }
    advance(d, minutes);
    Ok(())
}

/// § Long rest: "cannot benefit from more than one long rest in a 24-hour period". Fray's
/// reading (interpretation): a long rest may end no sooner than 24 hours after the last one
/// ended.
pub fn long_rest_allowed(d: &Decider) -> R {
    if let Some(last) = d.field.battle.last_long_rest {
        let ends = d.field.battle.clock.saturating_add(LONG_REST_MINUTES);
        let ready = last.saturating_add(LONG_REST_EVERY);
        if ends < ready {
            return Err(no(
                ErrorCode::LongRestTooSoon,
                format!(
                    "one long rest per 24 hours: the last ended at minute {last}; pass {} more \
                     minutes first",
                    ready - ends
                ),
            ));
        }
    }
    Ok(())
}
