//! Old-School Essentials (`ose-adventuring.txt`) § Evasion and Pursuit: the wire types of a
//! pursuit after a failed evasion and its state (`OseBattle::pursuit`), folded from the events by
//! [`fold`] in both the server's apply and the CLI tracker.

use crate::BxEvent;
use crate::event::GameEvent;
use crate::ids::CombatantId;
use crate::ose::EncounterSetting;
use serde::{Deserialize, Serialize};

/// What the characters drop to stop a dungeon pursuit (§ In the Dungeon, Pursuit: 3-in-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Lure {
    /// Treasure ("if the monsters enjoy treasure").
    Treasure,
    /// Food ("hungry or less intelligent monsters").
    Food,
}

/// How a pursuit ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum PursuitEnd {
    /// The pursuers caught the fleeing side (the distance closed on the water, the daily 50% in
    /// the wilderness, or the GM's ruling; or the fleeing side stopped fleeing).
    Caught,
    /// The pursuers stopped for the dropped treasure or food.
    Lured,
    /// The pursuers gave up: out of their sight, an obstacle, the GM's ruling.
    Escaped,
}

/// A pursuit under way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Pursuit {
    /// Where: rounds in the dungeon and on the water, days in the wilderness.
    pub setting: EncounterSetting,
    /// The fleeing side's movement rate.
    pub fleeing_rate: u32,
    /// The pursuers' movement rate.
    pub pursuer_rate: u32,
    /// Rounds (days in the wilderness) passed.
    pub rounds: u32,
    /// Dungeon: those running (exhausted after 30 rounds of running).
    pub runners: Vec<CombatantId>,
    /// Waterborne: the distance between the sides (in the rates' unit).
    pub distance: Option<u32>,
}

/// § Running, Exhaustion: "Characters become exhausted after running for 30 rounds."
pub const EXHAUSTING_ROUNDS: u32 = 30;

/// Folds one event into the session's pursuit; events of other rules change nothing.
pub fn fold(pursuit: &mut Option<Pursuit>, e: &GameEvent) {
    match e {
        GameEvent::Bx(BxEvent::PursuitStarted {
            setting,
            fleeing_rate,
            pursuer_rate,
            runners,
            distance,
        }) => {
            *pursuit = Some(Pursuit {
                setting: *setting,
                fleeing_rate: *fleeing_rate,
                pursuer_rate: *pursuer_rate,
                rounds: 0,
                runners: runners.clone(),
                distance: *distance,
            });
        }
        GameEvent::Bx(BxEvent::PursuitRoundPassed {
            round, distance, ..
        }) => {
            if let Some(p) = pursuit {
                p.rounds = *round;
                p.distance = *distance;
            }
        }
        // A new evasion that succeeds ends the pursuit (§ In the Wilderness, Pursuit: "it may
        // make another evasion attempt"); so do its end and the start of combat.
        GameEvent::Bx(BxEvent::EvasionAttempted { evaded: true, .. })
        | GameEvent::Bx(BxEvent::PursuitEnded { .. })
        | GameEvent::BattleStarted => *pursuit = None,
        _ => {}
    }
}
