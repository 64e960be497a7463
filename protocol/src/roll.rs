//! Dice results as they travel inside events: every face the server rolled, which were kept,
//! and the total. The server's `dice` module produces these; clients only display and verify them.

use serde::{Deserialize, Serialize};

/// One die as rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DieResult {
    /// Number of sides of the die (e.g. 20 for a d20).
    pub sides: u32,
    /// The face that came up, 1..=sides.
    pub face: u32,
    /// Whether the face counts toward the total (false when dropped by keep/drop,
    /// or replaced by a reroll).
    pub kept: bool,
}

/// The result of rolling one dice expression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Roll {
    /// The expression as rolled, with placeholders resolved (e.g. `2d8+4`).
    pub expr: String,
    /// Every die rolled, in the order drawn from the session RNG.
    pub dice: Vec<DieResult>,
    /// Sum of the constant terms of the expression.
    pub modifier: i32,
    /// Kept faces plus the modifier.
    pub total: i32,
}

impl Roll {
    /// The first kept face: the "natural" roll of a single-die check such as a d20 attack.
    pub fn natural(&self) -> Option<u32> {
        self.dice.iter().find(|d| d.kept).map(|d| d.face)
    }
}
