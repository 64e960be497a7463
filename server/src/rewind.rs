//! Rewind (GM tools): `rewind_to {seq}` sets the fight back to the state after event `seq`.
//!
//! The log stays append-only. A rewind appends one `rewound {to_seq, to_tick}` event, and the
//! state after it is the state that folding the log's events up to `to_seq` gives. The events in
//! between stay in the log (players and spectators saw them and see that they were undone).
//!
//! The dice do not rewind. Both streams keep their draw counts, so every roll after a rewind is
//! a new draw, and `verify` re-decides the rolls from there. A GM cannot rewind to fish for a
//! better roll: a log whose post-rewind roll repeats the pre-rewind one fails verification.
//!
//! A rewind needs the events before it, which the world alone does not hold. So every fold of
//! a log goes through [`apply`], given the events before the one it folds (each caller holds
//! them already): recovery (`Session::open`), `replay::fold` and the replay viewer's views.
//! [`execute`] is the decide step of the command, shared by the live session and `verify`.
//!
//! Where a rewind may land (checked before anything changes):
//! - the end of a tick: the last event of a tick, or 0 for the start;
//! - strictly before the last event;
//! - only while the seed is unrevealed. After the reveal every later die is known.

use crate::engine::Engine;
use crate::engine::components::Battle;
use crate::replay::{LoggedEvent, Numbered};
use crate::session::record::Genesis;
use fray_protocol::{ErrorCode, GameEvent, Rejection, SessionState};

/// Folds one event into `engine`, following a rewind: a `rewound` event replaces the state with
/// the fold of the events up to its `to_seq`. `before` holds every event of the log before this
/// one, in order (the caller's own list: nothing is copied).
pub fn apply<E: Numbered>(
    engine: &mut Engine,
    genesis: &Genesis,
    event: &GameEvent,
    before: &[E],
) -> Result<(), Rejection> {
    if let GameEvent::Rewound { to_seq, .. } = event {
        let state = state_at(genesis, before, *to_seq)?;
        engine.restore_state(&genesis.encounter, &state)
    } else {
        engine.apply(event);
        Ok(())
    }
}

/// The state after event `seq`: the events up to it folded from the genesis (rewinds among
/// them followed).
pub fn state_at<E: Numbered>(
    genesis: &Genesis,
    events: &[E],
    seq: u64,
) -> Result<SessionState, Rejection> {
    let mut engine = crate::session::engine_for(genesis)
        .map_err(|e| Rejection::new(ErrorCode::InvalidArgument, e.to_string()))?;
    let upto = events.iter().take_while(|e| e.seq() <= seq).count();
    for (i, e) in events[..upto].iter().enumerate() {
        apply(&mut engine, genesis, e.event(), &events[..i])?;
    }
    Ok(engine.state())
}

/// Where a rewind to `seq` lands: the `rewound` event, or why it may not. `events` are every
/// event of the log so far.
pub fn decide(engine: &Engine, events: &[LoggedEvent], seq: u64) -> Result<GameEvent, Rejection> {
    if engine
        .world()
        .get_resource::<Battle>()
        .is_some_and(|b| b.seed_revealed)
    {
        return Err(Rejection::new(
            ErrorCode::AlreadyRevealed,
            "the seed is revealed: every later die is known, so the fight can no longer be rewound",
        ));
    }
    let last = events.last().map_or(0, |e| e.seq);
    if seq >= last {
        return Err(Rejection::new(
            ErrorCode::InvalidArgument,
            format!("nothing to rewind: event {seq} is not before the last event ({last})"),
        ));
    }
    if seq == 0 {
        return Ok(GameEvent::Rewound {
            to_seq: 0,
            to_tick: 0,
        });
    }
    let Some(i) = events.iter().position(|e| e.seq == seq) else {
        return Err(Rejection::new(
            ErrorCode::InvalidArgument,
            format!("event {seq} is not in this session's log"),
        ));
    };
    let tick = events[i].tick;
    if let Some(next) = events.get(i + 1).filter(|n| n.tick == tick) {
        let end = events[i..]
            .iter()
            .take_while(|e| e.tick == tick)
            .last()
            .map_or(next.seq, |e| e.seq);
        return Err(Rejection::new(
            ErrorCode::InvalidArgument,
            format!(
                "event {seq} is in the middle of tick {tick}, whose events end at {end}: \
                 rewind to the end of a tick"
            ),
        ));
    }
    Ok(GameEvent::Rewound {
        to_seq: seq,
        to_tick: tick,
    })
}

/// Decides and carries out a rewind on a live engine: the `rewound` event, with the engine's
/// state now the state after `seq` and its dice untouched.
pub fn execute(
    engine: &mut Engine,
    genesis: &Genesis,
    events: &[LoggedEvent],
    seq: u64,
) -> Result<Vec<GameEvent>, Rejection> {
    if let Some(why) = engine.broken() {
        return Err(Rejection::new(
            ErrorCode::SessionUnavailable,
            format!("{why}: the session stops and is rebuilt from its log"),
        ));
    }
    let event = decide(engine, events, seq)?;
    let state = state_at(genesis, events, seq)?;
    engine.restore_state(&genesis.encounter, &state)?;
    Ok(vec![event])
}

#[cfg(test)]
mod tests;
