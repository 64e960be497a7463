//! Dice notation: parsing, canonical printing and rolling.
//!
//! # Grammar (case-insensitive; whitespace allowed around `+` and `-`)
//!
//! ```text
//! expr     := sign? term (('+' | '-') term)*           at most 32 terms, 256 characters
//! term     := count? dice suffix* | value
//! count    := number | value                           0..=1000 dice
//! dice     := 'd' (number | 'W') | '[W]'               1..=10000 sides; W = weapon die
//! value    := number | 'LVL' | 'LEVEL' | 'STR' | 'DEX' | 'CON' | 'INT' | 'WIS' | 'CHA'
//!           | '[' name ']'                             e.g. [level], [str]
//! suffix   := ('kh' | 'k' | 'kl' | 'dh' | 'dl') number?   keep/drop highest/lowest (default 1)
//!           | 'adv' | 'dis'                            one die: roll two, keep higher/lower
//!           | 'r<' number                              reroll once if below the number
//!           | 'rr<' number                             reroll while below (≤ 100 rerolls)
//!           | '!'                                      explode: a max face adds another die
//! ```
//!
//! Examples: `4d6kh3`, `d20adv+STR`, `2dW+STR-1`, `LVLd8`, `[level]d6`, `2[W]`,
//! `2d6r<3`, `d6!`.
//!
//! # Semantics
//!
//! Terms are rolled left to right and every face is recorded in draw order. For each die:
//! the first face is drawn; a reroll (`r<V` once, `rr<V` repeatedly, at most
//! [`MAX_REROLLS_PER_DIE`] times) replaces a face below `V`, the replaced face being
//! recorded with `kept = false`; then, if exploding, each maximum face adds another face
//! (at most [`MAX_EXPLOSIONS_PER_DIE`] per die; explosion faces are not rerolled). A die's
//! value is its final face plus its explosions. Keep/drop selects among die values: ties
//! are broken by draw order (the earlier die counts as the higher for `kh`/`dh` and as the
//! lower for `kl`/`dl`), and all faces of a dropped die are recorded with `kept = false`.
//! Keep/drop counts larger than the number of dice are clamped. `adv`/`dis` behave as
//! `2dMkh1`/`2dMkl1` and apply to a single die only.
//!
//! A roll either succeeds or leaves the RNG untouched: it is computed on a copy of the
//! [`SessionRng`] which replaces the original only on success.
//!
//! # Limits against hostile input
//!
//! [`MAX_EXPR_CHARS`], [`MAX_TERMS`], [`MAX_DICE_PER_TERM`], [`MAX_SIDES`],
//! [`MAX_DICE_PER_ROLL`] (every face drawn, rerolls and explosions included),
//! [`MAX_CONSTANT`].

use std::fmt;
use std::str::FromStr;

use fray_protocol::roll::{DieResult, Roll};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

use super::rng::SessionRng;

/// Longest accepted expression, in characters.
pub const MAX_EXPR_CHARS: usize = 256;
/// Most terms in one expression.
pub const MAX_TERMS: usize = 32;
/// Most dice in one term (before rerolls and explosions).
pub const MAX_DICE_PER_TERM: u32 = 1000;
/// Most sides on one die.
pub const MAX_SIDES: u32 = 10_000;
/// Most faces drawn by one roll, rerolls and explosions included.
pub const MAX_DICE_PER_ROLL: u32 = 10_000;
/// Most extra faces one exploding die may add.
pub const MAX_EXPLOSIONS_PER_DIE: u32 = 100;
/// Most rerolls of one die under `rr<V`.
pub const MAX_REROLLS_PER_DIE: u32 = 100;
/// Largest literal constant term. (Reroll thresholds are limited to [`MAX_SIDES`].)
pub const MAX_CONSTANT: u32 = 1_000_000;

/// What is wrong with a dice expression, or why it could not be rolled.
///
/// Columns are 1-based character positions in the expression text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DiceError {
    /// The expression has no terms.
    #[error("empty dice expression")]
    Empty,
    /// The expression is longer than [`MAX_EXPR_CHARS`].
    #[error("dice expression is longer than the limit of {limit} characters")]
    TooLong {
        /// The limit.
        limit: usize,
    },
    /// A character that cannot appear here.
    #[error("unexpected '{found}' at column {column}")]
    Unexpected {
        /// The offending character.
        found: char,
        /// Where it is.
        column: usize,
    },
    /// Something specific was expected but another character was found.
    #[error("expected {expected} at column {column}, found '{found}'")]
    Expected {
        /// What would have been valid.
        expected: &'static str,
        /// The character found instead.
        found: char,
        /// Where it is.
        column: usize,
    },
    /// The expression ended where more was required.
    #[error("expected {expected} at column {column}, found the end of the expression")]
    UnexpectedEnd {
        /// What would have been valid.
        expected: &'static str,
        /// Column just past the end.
        column: usize,
    },
    /// A number above its limit (constants, keep/drop counts, reroll thresholds).
    #[error("number {value} at column {column} exceeds the limit of {limit}")]
    NumberTooLarge {
        /// The number as written (saturated).
        value: u64,
        /// The limit.
        limit: u64,
        /// Where it starts.
        column: usize,
    },
    /// More than [`MAX_TERMS`] terms.
    #[error("more than {limit} terms in a dice expression")]
    TooManyTerms {
        /// The limit.
        limit: usize,
    },
    /// A term asks for more than [`MAX_DICE_PER_TERM`] dice.
    #[error("dice count {count} exceeds the limit of {limit} (column {column})")]
    TooManyDice {
        /// The count asked for.
        count: i64,
        /// The limit.
        limit: u32,
        /// Where the term starts.
        column: usize,
    },
    /// A placeholder dice count resolved to a negative number.
    #[error("dice count {count} is negative (column {column})")]
    NegativeDiceCount {
        /// The count.
        count: i64,
        /// Where the term starts.
        column: usize,
    },
    /// A die with no sides.
    #[error("die with 0 sides at column {column}")]
    ZeroSides {
        /// Where the sides are written.
        column: usize,
    },
    /// A die with more than [`MAX_SIDES`] sides.
    #[error("die with {sides} sides exceeds the limit of {limit} (column {column})")]
    TooManySides {
        /// The sides asked for (saturated).
        sides: u64,
        /// The limit.
        limit: u32,
        /// Where the sides are written.
        column: usize,
    },
    /// A word that is not a known placeholder.
    #[error("unknown placeholder '{name}' at column {column}")]
    UnknownPlaceholder {
        /// The word, upper-cased.
        name: String,
        /// Where it starts.
        column: usize,
    },
    /// A placeholder with no value in the [`Placeholders`] given.
    #[error("placeholder '{name}' at column {column} has no value")]
    UnresolvedPlaceholder {
        /// Canonical placeholder name (`W`, `LVL`, `STR`, ...).
        name: &'static str,
        /// Where it is written.
        column: usize,
    },
    /// The same modifier twice on one term.
    #[error("{modifier} given twice on one term (column {column})")]
    DuplicateModifier {
        /// Which modifier.
        modifier: &'static str,
        /// Where the second one is.
        column: usize,
    },
    /// Two of keep/drop/adv/dis on one term.
    #[error("only one of keep, drop, 'adv' or 'dis' may be used on a term (column {column})")]
    ConflictingSelection {
        /// Where the second selection is.
        column: usize,
    },
    /// `adv`/`dis` on a term that is not a single die.
    #[error("'adv' and 'dis' apply to a single die (column {column})")]
    AdvantageNeedsOneDie {
        /// Where the modifier is.
        column: usize,
    },
    /// A keep/drop count of zero.
    #[error("keep/drop count must be at least 1 (column {column})")]
    ZeroKeep {
        /// Where the count is.
        column: usize,
    },
    /// `rr<V` where every face is below `V`.
    #[error("rerolling every face below {below} on a d{sides} never stops (column {column})")]
    RerollNeverStops {
        /// The threshold.
        below: u32,
        /// The die.
        sides: u32,
        /// Where the modifier is.
        column: usize,
    },
    /// `!` on a one-sided die.
    #[error("an exploding d1 never stops (column {column})")]
    ExplodeNeverStops {
        /// Where the modifier is.
        column: usize,
    },
    /// The roll would draw more than [`MAX_DICE_PER_ROLL`] faces.
    #[error("the roll needs more than {limit} dice")]
    TooManyDiceRolled {
        /// The limit.
        limit: u32,
    },
    /// A total or bound does not fit in an `i32`.
    #[error("the total does not fit in a 32-bit integer")]
    OutOfRange,
}

/// One of the six ability modifiers a ruleset may supply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ability {
    /// Strength.
    Str,
    /// Dexterity.
    Dex,
    /// Constitution.
    Con,
    /// Intelligence.
    Int,
    /// Wisdom.
    Wis,
    /// Charisma.
    Cha,
}

impl Ability {
    /// All abilities, in the order of [`Placeholders::abilities`].
    pub const ALL: [Ability; 6] = [
        Ability::Str,
        Ability::Dex,
        Ability::Con,
        Ability::Int,
        Ability::Wis,
        Ability::Cha,
    ];

    /// Upper-case name as written in notation (`STR`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Ability::Str => "STR",
            Ability::Dex => "DEX",
            Ability::Con => "CON",
            Ability::Int => "INT",
            Ability::Wis => "WIS",
            Ability::Cha => "CHA",
        }
    }

    /// Index into [`Placeholders::abilities`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Values for the placeholders of an expression, supplied by the caller at roll time.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Placeholders {
    /// Sides of the weapon die (`dW`, `[W]`).
    pub weapon_die: Option<u32>,
    /// Character level (`LVL`, `LEVEL`, `[level]`).
    pub level: Option<i32>,
    /// Ability modifiers, indexed by [`Ability::index`].
    pub abilities: [Option<i32>; 6],
}

impl Placeholders {
    /// The modifier for `ability`, if supplied.
    pub fn ability(&self, ability: Ability) -> Option<i32> {
        self.abilities.get(ability.index()).copied().flatten()
    }

    /// Sets the weapon die.
    pub fn with_weapon_die(mut self, sides: u32) -> Self {
        self.weapon_die = Some(sides);
        self
    }

    /// Sets the level.
    pub fn with_level(mut self, level: i32) -> Self {
        self.level = Some(level);
        self
    }

    /// Sets one ability modifier.
    pub fn with_ability(mut self, ability: Ability, modifier: i32) -> Self {
        if let Some(slot) = self.abilities.get_mut(ability.index()) {
            *slot = Some(modifier);
        }
        self
    }
}

/// A parsed dice expression. Parse with [`DiceExpr::parse`] (or `str::parse`), print the
/// canonical form with `Display`, roll with [`DiceExpr::roll`]. Serialises as its
/// canonical text; two expressions are equal when their canonical texts are.
#[derive(Debug, Clone)]
pub struct DiceExpr {
    terms: Vec<Term>,
}

impl PartialEq for DiceExpr {
    fn eq(&self, other: &Self) -> bool {
        self.to_string() == other.to_string()
    }
}

impl Eq for DiceExpr {}

/// One signed term.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Term {
    negative: bool,
    column: usize,
    kind: TermKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum TermKind {
    Constant(Value),
    Dice(DiceTerm),
}

/// An integer: literal or placeholder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Value {
    Literal(u32),
    Level,
    Ability(Ability),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sides {
    Literal(u32),
    Weapon,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct DiceTerm {
    count: Value,
    sides: Sides,
    sides_column: usize,
    reroll: Option<Reroll>,
    explode: Option<usize>,
    select: Option<(Select, usize)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Reroll {
    below: u32,
    repeat: bool,
    column: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Select {
    Keep { highest: bool, n: u32 },
    Drop { highest: bool, n: u32 },
    Advantage,
    Disadvantage,
}

/// A dice term with every placeholder replaced by its value and validated.
#[derive(Debug, Clone, Copy)]
struct ResolvedDice {
    negative: bool,
    count: u32,
    sides: u32,
    reroll: Option<(u32, bool)>,
    explode: bool,
    select: Option<Select>,
}

#[derive(Debug, Clone, Copy)]
enum Resolved {
    /// A constant, sign applied.
    Constant(i64),
    Dice(ResolvedDice),
}

impl DiceExpr {
    /// Parses dice notation (see the module docs for the grammar).
    pub fn parse(text: &str) -> Result<DiceExpr, DiceError> {
        if text.chars().take(MAX_EXPR_CHARS + 1).count() > MAX_EXPR_CHARS {
            return Err(DiceError::TooLong {
                limit: MAX_EXPR_CHARS,
            });
        }
        Parser {
            chars: text.chars().collect(),
            pos: 0,
        }
        .expr()
    }

    /// Rolls the expression with the session RNG. On error the RNG is left untouched.
    pub fn roll(&self, rng: &mut SessionRng, ph: &Placeholders) -> Result<Roll, DiceError> {
        let resolved = self.resolve(ph)?;
        let mut work = rng.clone();
        let mut dice = Vec::new();
        let mut budget = MAX_DICE_PER_ROLL;
        let mut modifier: i64 = 0;
        let mut dice_sum: i64 = 0;
        for term in &resolved {
            match term {
                Resolved::Constant(v) => modifier += v,
                Resolved::Dice(d) => {
                    let sum = roll_dice_term(d, &mut work, &mut dice, &mut budget)?;
                    dice_sum += if d.negative { -sum } else { sum };
                }
            }
        }
        let total = i32::try_from(dice_sum + modifier).map_err(|_| DiceError::OutOfRange)?;
        let modifier = i32::try_from(modifier).map_err(|_| DiceError::OutOfRange)?;
        *rng = work;
        Ok(Roll {
            expr: resolved_text(&resolved),
            dice,
            modifier,
            total,
        })
    }

    /// The constant terms of the expression with `ph`, named — a placeholder by its name
    /// (`STR`, `level`), a number by `literal` — and summing to the `modifier` of the
    /// [`Roll`] it gives: the `modifiers` of a damage event (`protocol/README.md`).
    pub fn constant_terms(
        &self,
        ph: &Placeholders,
        literal: &'static str,
    ) -> Result<fray_protocol::roll::Modifiers, DiceError> {
        let mut terms = fray_protocol::roll::Modifiers::new();
        for term in &self.terms {
            if let TermKind::Constant(v) = term.kind {
                let value = resolve_value(v, ph, term.column)?;
                let value = if term.negative { -value } else { value };
                match v {
                    Value::Literal(_) => terms.add(literal, value),
                    Value::Level => terms.add("level", value),
                    Value::Ability(a) => terms.add(a.name(), value),
                };
            }
        }
        Ok(terms)
    }

    /// The expression as it would be rolled with `ph`: placeholders replaced by numbers
    /// (the `expr` of the resulting [`Roll`]).
    pub fn resolved_text(&self, ph: &Placeholders) -> Result<String, DiceError> {
        Ok(resolved_text(&self.resolve(ph)?))
    }

    /// The smallest total the expression can roll with `ph`; `None` if unbounded
    /// (a subtracted exploding term).
    pub fn min_total(&self, ph: &Placeholders) -> Result<Option<i32>, DiceError> {
        Ok(self.bounds(ph)?.0)
    }

    /// The largest total the expression can roll with `ph` (e.g. for "a critical hit
    /// deals maximum damage"); `None` if unbounded (an exploding term).
    pub fn max_total(&self, ph: &Placeholders) -> Result<Option<i32>, DiceError> {
        Ok(self.bounds(ph)?.1)
    }

    /// `(min_total, max_total)` in one pass.
    pub fn bounds(&self, ph: &Placeholders) -> Result<(Option<i32>, Option<i32>), DiceError> {
        let mut lo: Option<i64> = Some(0);
        let mut hi: Option<i64> = Some(0);
        for term in self.resolve(ph)? {
            let (t_lo, t_hi) = match term {
                Resolved::Constant(v) => (Some(v), Some(v)),
                Resolved::Dice(d) => {
                    let kept = i64::from(kept_dice(&d));
                    let min = kept; // every kept die shows at least 1
                    let max = (!d.explode).then(|| kept * i64::from(d.sides));
                    if d.negative {
                        (max.map(|m| -m), Some(-min))
                    } else {
                        (Some(min), max)
                    }
                }
            };
            lo = lo.zip(t_lo).map(|(a, b)| a + b);
            hi = hi.zip(t_hi).map(|(a, b)| a + b);
        }
        let narrow = |v: Option<i64>| -> Result<Option<i32>, DiceError> {
            v.map(|v| i32::try_from(v).map_err(|_| DiceError::OutOfRange))
                .transpose()
        };
        Ok((narrow(lo)?, narrow(hi)?))
    }

    /// Replaces placeholders and checks every limit that depends on them.
    fn resolve(&self, ph: &Placeholders) -> Result<Vec<Resolved>, DiceError> {
        let mut out = Vec::with_capacity(self.terms.len());
        let mut base_dice: u64 = 0;
        for term in &self.terms {
            match &term.kind {
                TermKind::Constant(v) => {
                    let v = i64::from(resolve_value(*v, ph, term.column)?);
                    out.push(Resolved::Constant(if term.negative { -v } else { v }));
                }
                TermKind::Dice(d) => {
                    let count = resolve_count(d.count, ph, term.column)?;
                    let sides = match d.sides {
                        Sides::Literal(s) => s,
                        Sides::Weapon => {
                            let s = ph.weapon_die.ok_or(DiceError::UnresolvedPlaceholder {
                                name: "W",
                                column: d.sides_column,
                            })?;
                            check_sides(u64::from(s), d.sides_column)?
                        }
                    };
                    check_dice_modifiers(d, sides)?;
                    let resolved = ResolvedDice {
                        negative: term.negative,
                        count,
                        sides,
                        reroll: d.reroll.map(|r| (r.below, r.repeat)),
                        explode: d.explode.is_some(),
                        select: d.select.map(|(s, _)| s),
                    };
                    base_dice += u64::from(rolled_dice(&resolved));
                    out.push(Resolved::Dice(resolved));
                }
            }
        }
        if base_dice > u64::from(MAX_DICE_PER_ROLL) {
            return Err(DiceError::TooManyDiceRolled {
                limit: MAX_DICE_PER_ROLL,
            });
        }
        Ok(out)
    }
}

/// Rolls a single d20 (for checks and attacks).
pub fn roll_d20(rng: &mut SessionRng) -> Roll {
    roll_die(rng, 20)
}

/// Rolls one die with `sides` faces. `sides == 0` yields an empty roll with total 0 and
/// draws nothing.
pub fn roll_die(rng: &mut SessionRng, sides: u32) -> Roll {
    let mut dice = Vec::new();
    let mut total = 0;
    if sides > 0 {
        let face = rng.die(sides);
        total = i32::try_from(face).unwrap_or(i32::MAX);
        dice.push(DieResult {
            sides,
            face,
            kept: true,
        });
    }
    Roll {
        expr: format!("d{sides}"),
        dice,
        modifier: 0,
        total,
    }
}

/// Number of dice a term starts with (before rerolls/explosions).
fn rolled_dice(d: &ResolvedDice) -> u32 {
    match d.select {
        Some(Select::Advantage | Select::Disadvantage) => 2,
        _ => d.count,
    }
}

/// Number of dice whose values count toward the total.
fn kept_dice(d: &ResolvedDice) -> u32 {
    let n = rolled_dice(d);
    match d.select {
        None => n,
        Some(Select::Keep { n: k, .. }) => k.min(n),
        Some(Select::Drop { n: k, .. }) => n - k.min(n),
        Some(Select::Advantage | Select::Disadvantage) => 1,
    }
}

/// Draws one face, records it, and charges the roll's dice budget.
fn draw(
    rng: &mut SessionRng,
    sides: u32,
    dice: &mut Vec<DieResult>,
    budget: &mut u32,
) -> Result<u32, DiceError> {
    *budget = budget.checked_sub(1).ok_or(DiceError::TooManyDiceRolled {
        limit: MAX_DICE_PER_ROLL,
    })?;
    let face = rng.die(sides);
    dice.push(DieResult {
        sides,
        face,
        kept: true,
    });
    Ok(face)
}

/// Marks the most recently drawn face as not counting.
fn discard_last(dice: &mut [DieResult]) {
    if let Some(last) = dice.last_mut() {
        last.kept = false;
    }
}

/// Rolls one resolved dice term, appending its faces; returns the unsigned sum kept.
fn roll_dice_term(
    d: &ResolvedDice,
    rng: &mut SessionRng,
    dice: &mut Vec<DieResult>,
    budget: &mut u32,
) -> Result<i64, DiceError> {
    // (value, first face index, one past the last face index) per die.
    let mut groups: Vec<(i64, usize, usize)> = Vec::new();
    for _ in 0..rolled_dice(d) {
        let start = dice.len();
        let mut face = draw(rng, d.sides, dice, budget)?;
        if let Some((below, repeat)) = d.reroll {
            let limit = if repeat { MAX_REROLLS_PER_DIE } else { 1 };
            let mut rerolls = 0;
            while face < below && rerolls < limit {
                discard_last(dice);
                face = draw(rng, d.sides, dice, budget)?;
                rerolls += 1;
            }
        }
        let mut value = i64::from(face);
        if d.explode {
            let mut explosions = 0;
            while face == d.sides && explosions < MAX_EXPLOSIONS_PER_DIE {
                face = draw(rng, d.sides, dice, budget)?;
                value += i64::from(face);
                explosions += 1;
            }
        }
        groups.push((value, start, dice.len()));
    }

    let mut counts = vec![true; groups.len()];
    if let Some(select) = d.select {
        let (highest, n, keep) = match select {
            Select::Keep { highest, n } => (highest, n, true),
            Select::Drop { highest, n } => (highest, n, false),
            Select::Advantage => (true, 1, true),
            Select::Disadvantage => (false, 1, true),
        };
        // Rank dice best-first for the requested end; ties go to the earlier die.
        let mut order: Vec<(i64, usize)> =
            groups.iter().enumerate().map(|(i, g)| (g.0, i)).collect();
        order.sort_by(|a, b| {
            let by_value = if highest {
                b.0.cmp(&a.0)
            } else {
                a.0.cmp(&b.0)
            };
            by_value.then(a.1.cmp(&b.1))
        });
        let chosen = usize::try_from(n).unwrap_or(usize::MAX);
        for (rank, (_, i)) in order.iter().enumerate() {
            let in_chosen = rank < chosen;
            if let Some(c) = counts.get_mut(*i) {
                *c = in_chosen == keep;
            }
        }
    }

    let mut sum = 0;
    for (&(value, start, end), &counted) in groups.iter().zip(&counts) {
        if counted {
            sum += value;
        } else if let Some(faces) = dice.get_mut(start..end) {
            for f in faces {
                f.kept = false;
            }
        }
    }
    Ok(sum)
}

/// Value of an integer placeholder or literal.
fn resolve_value(v: Value, ph: &Placeholders, column: usize) -> Result<i32, DiceError> {
    match v {
        // Literals are at most MAX_CONSTANT or MAX_DICE_PER_TERM, far below i32::MAX.
        Value::Literal(n) => i32::try_from(n).map_err(|_| DiceError::OutOfRange),
        Value::Level => ph.level.ok_or(DiceError::UnresolvedPlaceholder {
            name: "LVL",
            column,
        }),
        Value::Ability(a) => ph.ability(a).ok_or(DiceError::UnresolvedPlaceholder {
            name: a.name(),
            column,
        }),
    }
}

/// A dice count, resolved and checked against its limits.
fn resolve_count(v: Value, ph: &Placeholders, column: usize) -> Result<u32, DiceError> {
    let n = i64::from(resolve_value(v, ph, column)?);
    check_count(n, column)
}

fn check_count(n: i64, column: usize) -> Result<u32, DiceError> {
    if n < 0 {
        return Err(DiceError::NegativeDiceCount { count: n, column });
    }
    match u32::try_from(n) {
        Ok(c) if c <= MAX_DICE_PER_TERM => Ok(c),
        _ => Err(DiceError::TooManyDice {
            count: n,
            limit: MAX_DICE_PER_TERM,
            column,
        }),
    }
}

fn check_sides(sides: u64, column: usize) -> Result<u32, DiceError> {
    if sides == 0 {
        return Err(DiceError::ZeroSides { column });
    }
    match u32::try_from(sides) {
        Ok(s) if s <= MAX_SIDES => Ok(s),
        _ => Err(DiceError::TooManySides {
            sides,
            limit: MAX_SIDES,
            column,
        }),
    }
}

/// Checks the modifiers that depend on the number of sides.
fn check_dice_modifiers(d: &DiceTerm, sides: u32) -> Result<(), DiceError> {
    if let Some(r) = d.reroll
        && r.repeat
        && r.below > sides
    {
        return Err(DiceError::RerollNeverStops {
            below: r.below,
            sides,
            column: r.column,
        });
    }
    if let Some(column) = d.explode
        && sides == 1
    {
        return Err(DiceError::ExplodeNeverStops { column });
    }
    Ok(())
}

/// Canonical text of a resolved expression.
fn resolved_text(terms: &[Resolved]) -> String {
    let mut out = String::new();
    for (i, term) in terms.iter().enumerate() {
        let first = i == 0;
        match term {
            Resolved::Constant(v) => {
                if *v < 0 {
                    out.push('-');
                } else if !first {
                    out.push('+');
                }
                out.push_str(&v.unsigned_abs().to_string());
            }
            Resolved::Dice(d) => {
                if d.negative {
                    out.push('-');
                } else if !first {
                    out.push('+');
                }
                if d.count != 1 {
                    out.push_str(&d.count.to_string());
                }
                out.push('d');
                out.push_str(&d.sides.to_string());
                push_modifiers(&mut out, d.reroll, d.explode, d.select);
            }
        }
    }
    out
}

/// Appends modifiers in canonical order: reroll, explode, selection.
fn push_modifiers(
    out: &mut String,
    reroll: Option<(u32, bool)>,
    explode: bool,
    select: Option<Select>,
) {
    if let Some((below, repeat)) = reroll {
        out.push_str(if repeat { "rr<" } else { "r<" });
        out.push_str(&below.to_string());
    }
    if explode {
        out.push('!');
    }
    match select {
        None => {}
        Some(Select::Keep { highest, n }) => {
            out.push_str(if highest { "kh" } else { "kl" });
            out.push_str(&n.to_string());
        }
        Some(Select::Drop { highest, n }) => {
            out.push_str(if highest { "dh" } else { "dl" });
            out.push_str(&n.to_string());
        }
        Some(Select::Advantage) => out.push_str("adv"),
        Some(Select::Disadvantage) => out.push_str("dis"),
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Literal(n) => write!(f, "{n}"),
            Value::Level => f.write_str("LVL"),
            Value::Ability(a) => f.write_str(a.name()),
        }
    }
}

impl fmt::Display for DiceExpr {
    /// Canonical form: no spaces, upper-case placeholders, count 1 omitted, modifiers in
    /// the order reroll, explode, keep/drop/adv/dis, keep/drop counts always written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, term) in self.terms.iter().enumerate() {
            if term.negative {
                f.write_str("-")?;
            } else if i > 0 {
                f.write_str("+")?;
            }
            match &term.kind {
                TermKind::Constant(v) => write!(f, "{v}")?,
                TermKind::Dice(d) => {
                    if d.count != Value::Literal(1) {
                        write!(f, "{}", d.count)?;
                    }
                    match d.sides {
                        Sides::Literal(s) => write!(f, "d{s}")?,
                        Sides::Weapon => f.write_str("dW")?,
                    }
                    let mut mods = String::new();
                    push_modifiers(
                        &mut mods,
                        d.reroll.map(|r| (r.below, r.repeat)),
                        d.explode.is_some(),
                        d.select.map(|(s, _)| s),
                    );
                    f.write_str(&mods)?;
                }
            }
        }
        Ok(())
    }
}

impl FromStr for DiceExpr {
    type Err = DiceError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DiceExpr::parse(s)
    }
}

impl Serialize for DiceExpr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for DiceExpr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        DiceExpr::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// Integer placeholder names, matched case-insensitively as whole words.
const VALUE_NAMES: [(&str, Value); 8] = [
    ("LEVEL", Value::Level),
    ("LVL", Value::Level),
    ("STR", Value::Ability(Ability::Str)),
    ("DEX", Value::Ability(Ability::Dex)),
    ("CON", Value::Ability(Ability::Con)),
    ("INT", Value::Ability(Ability::Int)),
    ("WIS", Value::Ability(Ability::Wis)),
    ("CHA", Value::Ability(Ability::Cha)),
];

/// Recursive-descent parser over the characters of the expression.
struct Parser {
    chars: Vec<char>,
    pos: usize,
}

/// What the parser found at the start of a term.
enum Start {
    /// A literal number (saturated), as written.
    Number(u64),
    /// An integer placeholder.
    Value(Value),
    /// A die without a count (`d6`, `dW`, `[W]`): count 1.
    Dice,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    /// Lower-cased current character.
    fn peek_lower(&self) -> Option<char> {
        self.peek().map(|c| c.to_ascii_lowercase())
    }

    fn column(&self) -> usize {
        self.pos + 1
    }

    fn bump(&mut self) {
        self.pos += 1;
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    /// Error for "expected X here".
    fn expected(&self, expected: &'static str) -> DiceError {
        match self.peek() {
            Some(found) => DiceError::Expected {
                expected,
                found,
                column: self.column(),
            },
            None => DiceError::UnexpectedEnd {
                expected,
                column: self.column(),
            },
        }
    }

    /// Consumes `word` (lower-case ASCII) case-insensitively, or reports what was expected.
    fn expect_word(&mut self, word: &str, expected: &'static str) -> Result<(), DiceError> {
        for w in word.chars() {
            if self.peek_lower() != Some(w) {
                return Err(self.expected(expected));
            }
            self.bump();
        }
        Ok(())
    }

    /// A run of decimal digits (saturating), with the column it starts at.
    fn number(&mut self) -> Option<(u64, usize)> {
        let column = self.column();
        let mut value: u64 = 0;
        let mut any = false;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            value = value.saturating_mul(10).saturating_add(u64::from(d));
            any = true;
            self.bump();
        }
        any.then_some((value, column))
    }

    /// A number that must be present and at most `limit`.
    fn bounded_number(&mut self, limit: u32, expected: &'static str) -> Result<u32, DiceError> {
        let (value, column) = self.number().ok_or_else(|| self.expected(expected))?;
        match u32::try_from(value) {
            Ok(v) if v <= limit => Ok(v),
            _ => Err(DiceError::NumberTooLarge {
                value,
                limit: u64::from(limit),
                column,
            }),
        }
    }

    fn expr(mut self) -> Result<DiceExpr, DiceError> {
        self.skip_ws();
        if self.peek().is_none() {
            return Err(DiceError::Empty);
        }
        let mut terms = Vec::new();
        let mut negative = false;
        if let Some(sign @ ('+' | '-')) = self.peek() {
            negative = sign == '-';
            self.bump();
            self.skip_ws();
        }
        loop {
            if terms.len() == MAX_TERMS {
                return Err(DiceError::TooManyTerms { limit: MAX_TERMS });
            }
            terms.push(self.term(negative)?);
            self.skip_ws();
            match self.peek() {
                None => break,
                Some('+') => negative = false,
                Some('-') => negative = true,
                Some(found) => {
                    return Err(DiceError::Unexpected {
                        found,
                        column: self.column(),
                    });
                }
            }
            self.bump();
            self.skip_ws();
        }
        Ok(DiceExpr { terms })
    }

    fn term(&mut self, negative: bool) -> Result<Term, DiceError> {
        let column = self.column();
        let start = self.term_start()?;
        let count = match start {
            Start::Dice => Value::Literal(1),
            Start::Number(n) if self.at_dice() => {
                Value::Literal(check_count(i64::try_from(n).unwrap_or(i64::MAX), column)?)
            }
            Start::Number(n) => {
                let v = u32::try_from(n).ok().filter(|v| *v <= MAX_CONSTANT).ok_or(
                    DiceError::NumberTooLarge {
                        value: n,
                        limit: u64::from(MAX_CONSTANT),
                        column,
                    },
                )?;
                return Ok(Term {
                    negative,
                    column,
                    kind: TermKind::Constant(Value::Literal(v)),
                });
            }
            Start::Value(v) if self.at_dice() => v,
            Start::Value(v) => {
                return Ok(Term {
                    negative,
                    column,
                    kind: TermKind::Constant(v),
                });
            }
        };
        let dice = self.dice(count)?;
        Ok(Term {
            negative,
            column,
            kind: TermKind::Dice(dice),
        })
    }

    /// Whether a die (`d…`, `[W]` or `[weapon]`) starts here.
    fn at_dice(&self) -> bool {
        self.peek_lower() == Some('d') || self.at_weapon_bracket()
    }

    /// Whether `[W]` or `[weapon]` (any case) starts here.
    fn at_weapon_bracket(&self) -> bool {
        ["[w]", "[weapon]"].iter().any(|word| {
            word.chars()
                .enumerate()
                .all(|(i, w)| self.peek_at(i).map(|c| c.to_ascii_lowercase()) == Some(w))
        })
    }

    /// Reads what a term starts with: a number, a placeholder, or a count-less die.
    fn term_start(&mut self) -> Result<Start, DiceError> {
        let column = self.column();
        let Some(c) = self.peek() else {
            return Err(DiceError::UnexpectedEnd {
                expected: "a term",
                column,
            });
        };
        if c.is_ascii_digit() {
            let (value, _) = self.number().ok_or_else(|| self.expected("a number"))?;
            return Ok(Start::Number(value));
        }
        if self.at_weapon_bracket() {
            return Ok(Start::Dice);
        }
        if c == '[' {
            return self.bracket_start();
        }
        if c.is_ascii_alphabetic() {
            let next = self.peek_at(1);
            if c.eq_ignore_ascii_case(&'d')
                && !next.is_some_and(|n| n.is_ascii_alphabetic() && !n.eq_ignore_ascii_case(&'w'))
            {
                return Ok(Start::Dice);
            }
            return self.word_start();
        }
        Err(DiceError::Unexpected { found: c, column })
    }

    /// `[name]` holding an integer placeholder (`[level]`, `[str]`, ...).
    fn bracket_start(&mut self) -> Result<Start, DiceError> {
        let column = self.column();
        self.bump();
        let name: String = self.letters().to_ascii_uppercase();
        if self.peek() != Some(']') {
            return Err(self.expected("']'"));
        }
        self.bump();
        VALUE_NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| Start::Value(*v))
            .ok_or(DiceError::UnknownPlaceholder { name, column })
    }

    /// Consumes a run of ASCII letters.
    fn letters(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek().filter(char::is_ascii_alphabetic) {
            s.push(c);
            self.bump();
        }
        s
    }

    /// A bare placeholder word, possibly directly followed by `d…` (e.g. `LVLd8`).
    fn word_start(&mut self) -> Result<Start, DiceError> {
        let column = self.column();
        let start = self.pos;
        let word = self.letters().to_ascii_uppercase();
        for (name, value) in VALUE_NAMES {
            let Some(rest) = word.strip_prefix(name) else {
                continue;
            };
            if rest.is_empty() {
                return Ok(Start::Value(value));
            }
            // `LVLd8` / `STRdW`: the letter run swallowed the `d` (and maybe `W…`).
            let mut rest_chars = rest.chars();
            if rest_chars.next() == Some('D') {
                let dice_follows = match rest_chars.next() {
                    Some(c) => c == 'W',
                    None => self.peek().is_some_and(|c| c.is_ascii_digit()),
                };
                if dice_follows {
                    self.pos = start + name.len();
                    return Ok(Start::Value(value));
                }
            }
        }
        Err(DiceError::UnknownPlaceholder { name: word, column })
    }

    /// The die (`dN`, `dW`, `[W]`, `[weapon]`) and its suffixes.
    fn dice(&mut self, count: Value) -> Result<DiceTerm, DiceError> {
        let sides_column;
        let sides = if self.at_weapon_bracket() {
            sides_column = self.column();
            self.bump();
            self.letters();
            self.bump();
            Sides::Weapon
        } else {
            self.expect_word("d", "a die")?;
            sides_column = self.column();
            if self.peek_lower() == Some('w') {
                self.bump();
                Sides::Weapon
            } else {
                let (value, column) = self
                    .number()
                    .ok_or_else(|| self.expected("the number of sides or 'W'"))?;
                Sides::Literal(check_sides(value, column)?)
            }
        };
        let mut term = DiceTerm {
            count,
            sides,
            sides_column,
            reroll: None,
            explode: None,
            select: None,
        };
        self.suffixes(&mut term)?;
        if let Some((Select::Advantage | Select::Disadvantage, column)) = term.select
            && count != Value::Literal(1)
        {
            return Err(DiceError::AdvantageNeedsOneDie { column });
        }
        if let Sides::Literal(s) = sides {
            check_dice_modifiers(&term, s)?;
        }
        Ok(term)
    }

    /// Modifiers after the die, in any order, each at most once.
    fn suffixes(&mut self, term: &mut DiceTerm) -> Result<(), DiceError> {
        loop {
            let column = self.column();
            let select = match self.peek_lower() {
                Some('k') => {
                    self.bump();
                    let highest = match self.peek_lower() {
                        Some('h') => {
                            self.bump();
                            true
                        }
                        Some('l') => {
                            self.bump();
                            false
                        }
                        _ => true,
                    };
                    Select::Keep {
                        highest,
                        n: self.keep_count()?,
                    }
                }
                Some('d') => {
                    self.bump();
                    match self.peek_lower() {
                        Some('h') => {
                            self.bump();
                            Select::Drop {
                                highest: true,
                                n: self.keep_count()?,
                            }
                        }
                        Some('l') => {
                            self.bump();
                            Select::Drop {
                                highest: false,
                                n: self.keep_count()?,
                            }
                        }
                        Some('i') => {
                            self.expect_word("is", "'dis'")?;
                            Select::Disadvantage
                        }
                        _ => return Err(self.expected("'dh', 'dl' or 'dis'")),
                    }
                }
                Some('a') => {
                    self.expect_word("adv", "'adv'")?;
                    Select::Advantage
                }
                Some('r') => {
                    self.bump();
                    let repeat = self.peek_lower() == Some('r');
                    if repeat {
                        self.bump();
                    }
                    if self.peek() != Some('<') {
                        return Err(self.expected("'<' after 'r'"));
                    }
                    self.bump();
                    let below = self.bounded_number(MAX_SIDES, "a reroll threshold")?;
                    if term.reroll.is_some() {
                        return Err(DiceError::DuplicateModifier {
                            modifier: "reroll",
                            column,
                        });
                    }
                    term.reroll = Some(Reroll {
                        below,
                        repeat,
                        column,
                    });
                    continue;
                }
                Some('!') => {
                    self.bump();
                    if term.explode.is_some() {
                        return Err(DiceError::DuplicateModifier {
                            modifier: "'!'",
                            column,
                        });
                    }
                    term.explode = Some(column);
                    continue;
                }
                _ => return Ok(()),
            };
            if term.select.is_some() {
                return Err(DiceError::ConflictingSelection { column });
            }
            term.select = Some((select, column));
        }
    }

    /// Optional keep/drop count (default 1), 1..=MAX_DICE_PER_TERM.
    fn keep_count(&mut self) -> Result<u32, DiceError> {
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Ok(1);
        }
        let column = self.column();
        let n = self.bounded_number(MAX_DICE_PER_TERM, "a count")?;
        if n == 0 {
            return Err(DiceError::ZeroKeep { column });
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests;
