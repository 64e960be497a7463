//! Rulesets. Each is a self-contained module that adds its decide systems to a session's
//! schedule; shared machinery (components, apply, dice, the tick) lives in `engine` and `dice`.

pub mod basic_fantasy;
pub mod five_torches;
pub mod orcus;
pub mod ose;
pub mod secret;
pub mod thirteenth_age;

use crate::engine::components::{Dice, Outbox, Pending};
use bevy_ecs::prelude::Res;
use bevy_ecs::schedule::Schedule;
use fray_protocol::{Family, Rejection};
use thirteenth_age::decider::Decider;
use thirteenth_age::field::Field;

/// One row per ruleset: what the shared code needs to know of it. The engine and the session
/// consult this table and never match on a ruleset id.
#[derive(Debug, Clone, Copy)]
pub struct Ruleset {
    /// The id content files and log headers name (`ruleset = "orcus"`).
    pub id: &'static str,
    /// The rules version, recorded in every log's genesis: bumped when a rule change alters
    /// outcomes, so that `fray verify` can say which rules a recording was decided under.
    pub version: u32,
    /// The family whose own commands and events the ruleset plays (the protocol's namespace).
    pub family: Family,
    /// Adds the ruleset's decide systems to a session's schedule.
    pub add_systems: fn(&mut Schedule),
}

/// The rulesets this build plays.
pub const RULESETS: &[Ruleset] = &[
    Ruleset {
        id: thirteenth_age::ID,
        version: thirteenth_age::VERSION,
        family: Family::ThirteenthAge,
        add_systems: thirteenth_age::add_systems,
    },
    Ruleset {
        id: orcus::ID,
        version: orcus::VERSION,
        family: Family::Orcus,
        add_systems: orcus::add_systems,
    },
    Ruleset {
        id: five_torches::ID,
        version: five_torches::VERSION,
        family: Family::FiveTorches,
        add_systems: five_torches::add_systems,
    },
    Ruleset {
        id: ose::ID,
        version: ose::VERSION,
        family: Family::Bx,
        add_systems: ose::add_systems,
    },
    Ruleset {
        id: basic_fantasy::ID,
        version: basic_fantasy::VERSION,
        family: Family::Bx,
        add_systems: basic_fantasy::add_systems,
    },
];

/// The row of a ruleset id; `None` for an id this build does not play.
pub fn ruleset(id: &str) -> Option<&'static Ruleset> {
    RULESETS.iter().find(|r| r.id == id)
}

/// The version of a ruleset.
pub fn version(id: &str) -> Option<u32> {
    ruleset(id).map(|r| r.version)
}

/// Run condition of every ruleset's `decide_command` system: a command is pending.
pub(crate) fn command_pending(p: Res<Pending>) -> bool {
    p.0.is_some()
}

/// Decides the pending command with a ruleset's `decide`. A refused command leaves the RNG where
/// it was (engine tick, step 3), even when the refusal is found after rolling began, and emits
/// nothing.
pub(crate) fn decide_pending(
    field: &Field,
    pending: &Pending,
    dice: &mut Dice,
    out: &mut Outbox,
    decide: impl FnOnce(&mut Decider, &fray_protocol::Command) -> Result<(), Rejection>,
) {
    let Some(cmd) = &pending.0 else { return };
    let before = dice.0.clone();
    let decided = {
        let mut d = Decider::new(field, &mut dice.0);
        decide(&mut d, cmd).map(|()| d.into_events())
    };
    match decided {
        Ok(events) => out.events = events,
        Err(r) => {
            dice.0 = before;
            out.rejection = Some(r);
        }
    }
}

/// One pass of a ruleset's turn machinery (`advance`), its events into the outbox.
pub(crate) fn advance_pass(
    field: &Field,
    dice: &mut Dice,
    out: &mut Outbox,
    advance: impl FnOnce(&mut Decider),
) {
    let mut d = Decider::new(field, &mut dice.0);
    advance(&mut d);
    out.events = d.into_events();
}

/// A damage dice expression a GM command names (a trap's, a fall's, a bomb's): it must parse
/// and can never roll below 0. Shared by the rulesets' GM damage commands.
pub(crate) fn damage_dice_ok(expr: &str) -> Result<(), Rejection> {
    use crate::dice::{DiceExpr, Placeholders};
    use fray_protocol::ErrorCode;
    let bad = |e: String| {
        Rejection::new(
            ErrorCode::InvalidArgument,
            format!("dice expression '{expr}': {e}"),
        )
    };
    let parsed = DiceExpr::parse(expr).map_err(|e| bad(e.to_string()))?;
    let (lo, _) = parsed
        .bounds(&Placeholders::default())
        .map_err(|e| bad(e.to_string()))?;
    if lo.is_some_and(|l| l < 0) {
        return Err(Rejection::new(
            ErrorCode::InvalidArgument,
            format!("dice expression '{expr}' can be negative"),
        ));
    }
    Ok(())
}
