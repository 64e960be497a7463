//! Stable identifiers. Nothing on the wire or in a log ever names an ECS `Entity`.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// A combatant's stable id, unique within a session (e.g. `brakka`, `goblin-scrapper-2`).
/// Ordering is the id's string order; the engine sorts by it before anything order-dependent.
// The text is shared (`Arc<str>`): the engine names combatants in nearly every event, and a
// clone is a count, not a copy. On the wire and in logs it is a plain string.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CombatantId(Arc<str>);

impl CombatantId {
    /// Builds an id from anything string-like.
    pub fn new(s: impl AsRef<str>) -> Self {
        Self(Arc::from(s.as_ref()))
    }
    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for CombatantId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for CombatantId {
    fn from(s: &str) -> Self {
        Self(Arc::from(s))
    }
}

/// A session's id (URL-safe text).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SessionId(pub String);

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Which side of the fight a combatant is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The player characters and their allies.
    Heroes,
    /// The GM's monsters.
    Monsters,
}

impl Side {
    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::Heroes => Side::Monsters,
            Side::Monsters => Side::Heroes,
        }
    }
}

/// A connection's role in a session, fixed by the token it presented.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The game master: may command every combatant and use GM commands; sees everything.
    Gm,
    /// A player: may command only the listed combatants.
    Player {
        /// The seat's name from the encounter file.
        name: String,
        /// The combatants this player controls.
        controls: Vec<CombatantId>,
    },
    /// Watches only; sends no game commands.
    Spectator,
}
