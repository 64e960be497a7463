//! Rulesets. Each is a self-contained module that adds its decide systems to a session's
//! schedule; shared machinery (components, apply, dice, the tick) lives in `engine` and `dice`.

pub mod five_torches;
pub mod orcus;
pub mod ose;
pub mod thirteenth_age;

use bevy_ecs::schedule::Schedule;

/// Ruleset ids with their versions (recorded in log headers).
pub const RULESETS: &[(&str, u32)] = &[
    (thirteenth_age::ID, thirteenth_age::VERSION),
    (orcus::ID, orcus::VERSION),
    (five_torches::ID, five_torches::VERSION),
    (ose::ID, ose::VERSION),
];

/// The version of a ruleset.
pub fn version(ruleset: &str) -> Option<u32> {
    RULESETS
        .iter()
        .find(|(id, _)| *id == ruleset)
        .map(|(_, v)| *v)
}

/// Adds a ruleset's decide systems; `None` for an unknown ruleset.
pub fn add_decide_systems(ruleset: &str, schedule: &mut Schedule) -> Option<()> {
    match ruleset {
        thirteenth_age::ID => {
            thirteenth_age::add_systems(schedule);
            Some(())
        }
        orcus::ID => {
            orcus::add_systems(schedule);
            Some(())
        }
        five_torches::ID => {
            five_torches::add_systems(schedule);
            Some(())
        }
        ose::ID => {
            ose::add_systems(schedule);
            Some(())
        }
        _ => None,
    }
}
