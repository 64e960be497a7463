//! The ruleset registry: one row per ruleset, the only place that lists them. Shared code (the
//! engine, the session, content loading) asks a ruleset's row and never matches on its id.

use super::{basic_fantasy, five_torches, orcus, ose, thirteenth_age};
use bevy_ecs::schedule::Schedule;
use fray_protocol::Family;

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
