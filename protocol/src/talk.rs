//! Table talk (GM tools): chat lines, whispers, the GM's notes and free rolls. Each is a logged
//! event like the rules' own, so replay, verify, resume and redaction hold for them. A chat or
//! free roll is decided by the server with the sender's seat, never the ruleset.

use serde::{Deserialize, Serialize};

/// A seat at the table: the GM or a player (by the seat's name).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    /// The GM.
    Gm,
    /// A player seat, by its name.
    Player(String),
}

/// Who a chat line is for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ChatTo {
    /// Everyone: the GM, the players, the spectators and the public log.
    #[default]
    Table,
    /// The GM only: a player's whisper to the GM, or (sent by the GM) the GM's own note.
    Gm,
    /// A whisper to one player seat, by name: that player, the sender and the GM.
    Player(String),
}

/// Who sees a free roll's result. Everyone sees that it was rolled, by whom and what.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RollVisibility {
    /// Everyone (drawn from the session's public stream, checkable once the seed is revealed).
    #[default]
    Public,
    /// The roller and the GM (drawn from the secret stream).
    Gm,
    /// The GM only; the roller sees that it was rolled, not the result (secret stream).
    Blind,
}

/// The longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 500;
/// The longest free roll label, in characters.
pub const MAX_LABEL_CHARS: usize = 100;
