//! Dice results as they travel inside events: every face the server rolled, which were kept,
//! and the total. The server's `dice` module produces these; clients only display and verify them.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;

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
    /// Adds a constant to the roll after the dice: the expression shows it (`d8+2`), the
    /// modifier and the total include it. Nothing changes for 0.
    pub fn plus(&mut self, bonus: i32) {
        if bonus != 0 {
            self.expr = format!("{}{bonus:+}", self.expr);
            self.modifier += bonus;
            self.total += bonus;
        }
    }

    /// The first kept face: the "natural" roll of a single-die check such as a d20 attack.
    pub fn natural(&self) -> Option<u32> {
        self.dice.iter().find(|d| d.kept).map(|d| d.face)
    }
}

/// One named term of a roll's bonus — "every number explained" (issue 21): where it comes from
/// and what it adds. An attack, check, save or damage event lists its terms in `modifiers`, and
/// they sum to the bonus the event applied (`protocol/README.md`, "Modifiers").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Modifier {
    /// What it comes from, for people: `STR`, `level`, `escalation die`, `flanking`, `cover`,
    /// `dazed`, `GM`, an item or power's name…
    pub source: Cow<'static, str>,
    /// What it adds (negative for a penalty); never 0.
    pub value: i32,
}

impl Modifier {
    /// A term named by a fixed word.
    pub fn new(source: &'static str, value: i32) -> Modifier {
        Modifier {
            source: Cow::Borrowed(source),
            value,
        }
    }

    /// A term named at run time (an item's or a power's name).
    pub fn named(source: impl Into<String>, value: i32) -> Modifier {
        Modifier {
            source: Cow::Owned(source.into()),
            value,
        }
    }
}

/// The terms of a bonus, built as a rule adds them; terms of 0 are left out, so the list names
/// only what changed the roll.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Modifiers(pub Vec<Modifier>);

impl Modifiers {
    /// No terms yet.
    pub fn new() -> Modifiers {
        Modifiers(Vec::new())
    }

    /// Adds a term named by a fixed word (nothing when `value` is 0).
    pub fn add(&mut self, source: &'static str, value: i32) -> &mut Modifiers {
        if value != 0 {
            self.0.push(Modifier::new(source, value));
        }
        self
    }

    /// This list with one more term named by a fixed word (none when `value` is 0).
    pub fn with(mut self, source: &'static str, value: i32) -> Modifiers {
        self.add(source, value);
        self
    }

    /// Adds a term named at run time (nothing when `value` is 0).
    pub fn add_named(&mut self, source: impl Into<String>, value: i32) -> &mut Modifiers {
        if value != 0 {
            self.0.push(Modifier::named(source, value));
        }
        self
    }

    /// This list with one more term named at run time (none when `value` is 0).
    pub fn named_term(mut self, source: impl Into<String>, value: i32) -> Modifiers {
        self.add_named(source, value);
        self
    }

    /// This list followed by every term of `other`.
    pub fn extended(mut self, other: Modifiers) -> Modifiers {
        self.0.extend(other.0);
        self
    }

    /// Appends every term of `other`.
    pub fn extend(&mut self, other: Modifiers) -> &mut Modifiers {
        self.0.extend(other.0);
        self
    }

    /// The sum of the terms: the bonus they explain.
    pub fn total(&self) -> i32 {
        self.0.iter().map(|m| m.value).sum()
    }

    /// The list an event carries.
    pub fn into_vec(self) -> Vec<Modifier> {
        self.0
    }
}
