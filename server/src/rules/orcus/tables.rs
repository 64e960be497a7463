//! Numeric tables and formulas of the Orcus ruleset.
//!
//! Source of truth: the Orcus basic rules text. Every table here cites the
//! section of the rules it reproduces. Everything is integer arithmetic and
//! every lookup that depends on a level, score or name returns `Result` or
//! `Option`; nothing in this module panics on out-of-range input.
//!
//! Where the web-converted rules text lost line breaks or left a value
//! ambiguous, the reconstruction is marked with a `// Text gap:` comment.
//! Where the text is silent and a number had to be chosen, the item is marked
//! `Interpretation:` in its documentation.

use std::fmt;

// ---------------------------------------------------------------------------
// Errors and level bounds
// ---------------------------------------------------------------------------

/// Lowest level any Orcus table covers.
pub const MIN_LEVEL: i32 = 1;

/// Highest hero level ("Experience, levels and tiers", levels table).
pub const MAX_HERO_LEVEL: i32 = 30;

/// Highest monster level with an XP value ("Monsters" > "Experience Points").
pub const MAX_MONSTER_XP_LEVEL: i32 = 30;

/// Highest monster level covered by "Table - Monster Level and Damage".
///
/// This is also the highest level [`build_monster`] accepts.
// Text gap: the damage table runs to level 35 but the Experience Points
// table stops at 30, so monsters of levels 31-35 have no XP value.
pub const MAX_MONSTER_LEVEL: i32 = 35;

/// Lowest ability score covered by "Ability scores and modifiers".
pub const MIN_ABILITY_SCORE: i32 = 1;

/// Error returned when an argument lies outside the range a table covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableError {
    /// The level is outside `min..=max` for the table that was consulted.
    LevelOutOfRange {
        /// The level that was asked for.
        level: i32,
        /// Lowest level the table covers.
        min: i32,
        /// Highest level the table covers.
        max: i32,
    },
    /// The ability score is below [`MIN_ABILITY_SCORE`].
    AbilityScoreOutOfRange {
        /// The score that was asked for.
        score: i32,
    },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::LevelOutOfRange { level, min, max } => {
                write!(f, "level {level} is outside the table range {min}..={max}")
            }
            TableError::AbilityScoreOutOfRange { score } => {
                write!(
                    f,
                    "ability score {score} is below the minimum {MIN_ABILITY_SCORE}"
                )
            }
        }
    }
}

impl std::error::Error for TableError {}

/// Checks `level` against `min..=max`.
fn check_level(level: i32, min: i32, max: i32) -> Result<(), TableError> {
    if (min..=max).contains(&level) {
        Ok(())
    } else {
        Err(TableError::LevelOutOfRange { level, min, max })
    }
}

/// Row `level` of a table whose first row is level 1 and whose last row is
/// level `max`; an error for any other level.
fn level_row<T>(table: &[T], level: i32, max: i32) -> Result<&T, TableError> {
    let out_of_range = TableError::LevelOutOfRange {
        level,
        min: MIN_LEVEL,
        max,
    };
    check_level(level, MIN_LEVEL, max)?;
    usize::try_from(level - MIN_LEVEL)
        .ok()
        .and_then(|i| table.get(i))
        .ok_or(out_of_range)
}

/// Half a level, rounded down ("Monsters" > "Ability Scores").
///
/// Defined for every level the tables cover (all positive), where integer
/// division and rounding down agree.
pub fn half_level(level: i32) -> i32 {
    level.div_euclid(2)
}

// ---------------------------------------------------------------------------
// Dice
// ---------------------------------------------------------------------------

/// A pool of identical dice, such as `2d8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dice {
    /// Number of dice rolled.
    pub count: i32,
    /// Number of sides on each die.
    pub sides: i32,
}

impl Dice {
    /// Creates `count`d`sides`.
    pub const fn new(count: i32, sides: i32) -> Self {
        Dice { count, sides }
    }

    /// Smallest possible total.
    pub const fn min(self) -> i32 {
        self.count
    }

    /// Largest possible total.
    pub const fn max(self) -> i32 {
        self.count * self.sides
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)
    }
}

/// A damage expression: optional dice plus a flat bonus, such as `2d8+4` or a
/// static `5`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DamageExpr {
    /// Dice rolled, or `None` for static damage.
    pub dice: Option<Dice>,
    /// Flat amount added to the dice (the whole damage when `dice` is `None`).
    pub bonus: i32,
}

impl DamageExpr {
    /// Dice plus a flat bonus.
    pub const fn rolled(count: i32, sides: i32, bonus: i32) -> Self {
        DamageExpr {
            dice: Some(Dice::new(count, sides)),
            bonus,
        }
    }

    /// Static damage with no dice.
    pub const fn fixed(amount: i32) -> Self {
        DamageExpr {
            dice: None,
            bonus: amount,
        }
    }

    /// The same expression with `extra` added to the flat part.
    pub const fn plus(self, extra: i32) -> Self {
        DamageExpr {
            dice: self.dice,
            bonus: self.bonus + extra,
        }
    }

    /// Smallest possible total.
    pub const fn min(self) -> i32 {
        match self.dice {
            Some(d) => d.min() + self.bonus,
            None => self.bonus,
        }
    }

    /// Largest possible total.
    pub const fn max(self) -> i32 {
        match self.dice {
            Some(d) => d.max() + self.bonus,
            None => self.bonus,
        }
    }
}

impl fmt::Display for DamageExpr {
    /// Formats as the rules print it: `2d8+4`, `1d6-1`, `1d8` or `5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.dice {
            None => write!(f, "{}", self.bonus),
            Some(d) if self.bonus > 0 => write!(f, "{d}+{}", self.bonus),
            Some(d) if self.bonus < 0 => write!(f, "{d}{}", self.bonus),
            Some(d) => write!(f, "{d}"),
        }
    }
}

// ---------------------------------------------------------------------------
// Abilities
// ---------------------------------------------------------------------------

/// The six abilities ("Abilities and skills" > "Abilities").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ability {
    /// Strength.
    Strength,
    /// Constitution.
    Constitution,
    /// Dexterity.
    Dexterity,
    /// Intelligence.
    Intelligence,
    /// Wisdom.
    Wisdom,
    /// Charisma.
    Charisma,
}

/// Ability modifier for an ability score ("Ability scores and modifiers").
///
/// The table covers scores 1 to 30; the same section also gives the rule
/// "(score − 10) / 2, rounded down", which this function applies, so scores
/// above 30 (reachable by high-level monsters, whose best score is about
/// 16 + half level) also work. Scores below 1 return an error.
pub fn ability_modifier(score: i32) -> Result<i32, TableError> {
    if score < MIN_ABILITY_SCORE {
        return Err(TableError::AbilityScoreOutOfRange { score });
    }
    Ok((score - 10).div_euclid(2))
}

// ---------------------------------------------------------------------------
// Skills
// ---------------------------------------------------------------------------

/// Skills listed in the table of "The skills".
///
/// Nature and Thievery are not included: see the text gap note below.
// Text gap: Nature and Thievery are used elsewhere in the rules (lore skills,
// skill actions) but are absent from the skills table and from the ability
// descriptions, so they have no ability here and are not listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Skill {
    /// Acrobatics.
    Acrobatics,
    /// Arcana.
    Arcana,
    /// Athletics.
    Athletics,
    /// Bluff.
    Bluff,
    /// Diplomacy.
    Diplomacy,
    /// Dungeoneering.
    Dungeoneering,
    /// Endure.
    Endure,
    /// Heal.
    Heal,
    /// History.
    History,
    /// Insight.
    Insight,
    /// Intimidate.
    Intimidate,
    /// Perception.
    Perception,
    /// Religion.
    Religion,
    /// Sleight of Hand.
    SleightOfHand,
    /// Stealth.
    Stealth,
    /// Streetwise.
    Streetwise,
}

/// One row of the skills table in "The skills".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkillInfo {
    /// The skill.
    pub skill: Skill,
    /// Name as printed in the rules.
    pub name: &'static str,
    /// Ability whose modifier the skill adds.
    pub ability: Ability,
    /// Whether the armor check penalty applies to the skill.
    pub armor_check_penalty: bool,
}

impl Skill {
    /// This skill's row of the skills table ("The skills").
    pub const fn info(self) -> SkillInfo {
        use Ability::{Charisma, Constitution, Dexterity, Intelligence, Strength, Wisdom};
        let (name, ability, armor_check_penalty) = match self {
            Skill::Acrobatics => ("Acrobatics", Dexterity, true),
            Skill::Arcana => ("Arcana", Intelligence, false),
            Skill::Athletics => ("Athletics", Strength, true),
            Skill::Bluff => ("Bluff", Charisma, false),
            Skill::Diplomacy => ("Diplomacy", Charisma, false),
            Skill::Dungeoneering => ("Dungeoneering", Wisdom, false),
            Skill::Endure => ("Endure", Constitution, true),
            Skill::Heal => ("Heal", Wisdom, false),
            Skill::History => ("History", Intelligence, false),
            Skill::Insight => ("Insight", Wisdom, false),
            Skill::Intimidate => ("Intimidate", Charisma, false),
            Skill::Perception => ("Perception", Wisdom, false),
            Skill::Religion => ("Religion", Intelligence, false),
            Skill::SleightOfHand => ("Sleight of Hand", Dexterity, true),
            Skill::Stealth => ("Stealth", Dexterity, true),
            Skill::Streetwise => ("Streetwise", Charisma, false),
        };
        SkillInfo {
            skill: self,
            name,
            ability,
            armor_check_penalty,
        }
    }

    /// Name as printed in the rules.
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// Ability whose modifier the skill adds ("The skills").
    pub const fn ability(self) -> Ability {
        self.info().ability
    }

    /// Whether the armor check penalty applies ("The skills").
    pub const fn armor_check_penalty(self) -> bool {
        self.info().armor_check_penalty
    }
}

/// Every skill of the table in "The skills", in printed order.
pub const SKILLS: [Skill; 16] = [
    Skill::Acrobatics,
    Skill::Arcana,
    Skill::Athletics,
    Skill::Bluff,
    Skill::Diplomacy,
    Skill::Dungeoneering,
    Skill::Endure,
    Skill::Heal,
    Skill::History,
    Skill::Insight,
    Skill::Intimidate,
    Skill::Perception,
    Skill::Religion,
    Skill::SleightOfHand,
    Skill::Stealth,
    Skill::Streetwise,
];

// ---------------------------------------------------------------------------
// Difficulty classes
// ---------------------------------------------------------------------------

/// Difficulty bands from "Table – Typical Difficulty Classes".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Difficulty {
    /// Easy task.
    Easy,
    /// Moderate task.
    Moderate,
    /// Hard task.
    Hard,
}

/// Typical DC for a difficulty ("Ability and skill checks").
pub const fn typical_dc(difficulty: Difficulty) -> i32 {
    match difficulty {
        Difficulty::Easy => 8,
        Difficulty::Moderate => 12,
        Difficulty::Hard => 18,
    }
}

/// Lower bound on a DC scaled to `level`
/// ("Maintaining difficulties at higher levels").
///
/// Interpretation: the rules give no DC-by-level table. They say to raise
/// DCs by about 0.5 per level, more for moderate and hard challenges, and
/// give the example of an easy DC 8 becoming DC 18 around level 21. This
/// returns `typical_dc + (level − 1) / 2` (rounded down), which reproduces
/// that example; for moderate and hard it is only a floor, because the
/// extra increase for those bands is not quantified in the text.
pub fn minimum_dc_for_level(level: i32, difficulty: Difficulty) -> Result<i32, TableError> {
    check_level(level, MIN_LEVEL, MAX_MONSTER_LEVEL)?;
    Ok(typical_dc(difficulty) + (level - 1).div_euclid(2))
}

// ---------------------------------------------------------------------------
// Hero levels and XP
// ---------------------------------------------------------------------------

/// Tiers named in "Table – Levels and Their Benefits".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tier {
    /// Levels 1–10.
    Adventurer,
    /// Levels 11–20.
    Prestige,
    /// Levels 21–30.
    Epic,
}

/// Cumulative XP needed to reach each level 1..=30
/// ("Experience, levels and tiers", "Table – Levels and Their Benefits").
// Text gap: level 1 is printed as "-"; read as 0 XP.
const HERO_CUMULATIVE_XP: [i32; 30] = [
    0, 1_000, 2_250, 3_750, 5_500, 7_500, 10_000, 13_000, 16_500, 20_500, 25_500, 31_500, 38_500,
    46_500, 56_500, 68_500, 82_500, 98_500, 118_500, 142_500, 170_500, 202_500, 242_500, 290_500,
    346_500, 410_500, 490_500, 586_500, 698_500, 826_500,
];

/// Cumulative XP a hero needs to reach `level`
/// ("Table – Levels and Their Benefits"). Level 1 needs 0.
pub fn hero_xp_for_level(level: i32) -> Result<i32, TableError> {
    level_row(&HERO_CUMULATIVE_XP, level, MAX_HERO_LEVEL).copied()
}

/// XP a hero at `level` needs to reach the next level
/// ("Table – Levels and Their Benefits"); `None` at level 30 ("N/A").
pub fn hero_xp_to_next_level(level: i32) -> Result<Option<i32>, TableError> {
    let here = hero_xp_for_level(level)?;
    Ok(hero_xp_for_level(level + 1).ok().map(|next| next - here))
}

/// Highest hero level reached with `xp` total experience points
/// ("Table – Levels and Their Benefits"). Negative XP counts as 0.
pub fn hero_level_for_xp(xp: i32) -> i32 {
    let reached = HERO_CUMULATIVE_XP
        .iter()
        .take_while(|&&needed| needed <= xp.max(0))
        .count();
    i32::try_from(reached).unwrap_or(MAX_HERO_LEVEL)
}

/// Tier of a hero level ("Experience, levels and tiers").
pub fn hero_tier(level: i32) -> Result<Tier, TableError> {
    check_level(level, MIN_LEVEL, MAX_HERO_LEVEL)?;
    Ok(match level {
        1..=10 => Tier::Adventurer,
        11..=20 => Tier::Prestige,
        _ => Tier::Epic,
    })
}

// ---------------------------------------------------------------------------
// Monsters: rank, role, size, XP
// ---------------------------------------------------------------------------

/// Monster rank ("Monsters" > "Rank").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rank {
    /// Four mooks challenge one hero of the same level.
    Mook,
    /// Challenges one hero of the same level.
    Standard,
    /// Challenges two or three heroes of the same level.
    Elite,
    /// Challenges four or five heroes of the same level.
    Boss,
}

impl Rank {
    /// Heroes of the same level this rank is a challenge for, as
    /// `(min, max)` ("Rank", challenge table). `None` for mooks, which
    /// challenge one hero four at a time.
    pub const fn heroes_challenged(self) -> Option<(i32, i32)> {
        match self {
            Rank::Mook => None,
            Rank::Standard => Some((1, 1)),
            Rank::Elite => Some((2, 3)),
            Rank::Boss => Some((4, 5)),
        }
    }

    /// Action points the monster starts an encounter with ("Action points").
    ///
    /// Interpretation: the rules say elite and boss monsters have action
    /// points, are not limited to one per encounter, and may spend at most
    /// one per round, but never say how many they start with. This returns
    /// 1 for elites and 2 for bosses (bosses are the stronger rank), 0
    /// otherwise.
    pub const fn starting_action_points(self) -> i32 {
        match self {
            Rank::Mook | Rank::Standard => 0,
            Rank::Elite => 1,
            Rank::Boss => 2,
        }
    }

    /// Most action points the monster may spend in one round
    /// ("Action points"): 1 for elites and bosses, 0 for ranks without
    /// action points.
    pub const fn max_action_points_per_round(self) -> i32 {
        match self {
            Rank::Mook | Rank::Standard => 0,
            Rank::Elite | Rank::Boss => 1,
        }
    }
}

/// Monster role ("Monsters" > "Role").
///
/// "Leader" is not a role of its own in the rules but a rider on another
/// role; see the `leader` argument of [`build_monster`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Ranged attacker.
    Archer,
    /// Hard to hit; protects allies.
    Blocker,
    /// Strikes, then hides or repositions.
    Skulker,
    /// Zones, area attacks and debuffs.
    Spoiler,
    /// Mobile attacker.
    Striker,
    /// Heavy damage dealer; adds [`wrecker_bonus`] to damage.
    Wrecker,
}

/// All roles, in rules order.
pub const ROLES: [Role; 6] = [
    Role::Archer,
    Role::Blocker,
    Role::Skulker,
    Role::Spoiler,
    Role::Striker,
    Role::Wrecker,
];

/// All ranks, weakest first.
pub const RANKS: [Rank; 4] = [Rank::Mook, Rank::Standard, Rank::Elite, Rank::Boss];

/// Level-independent constants of one role's formulas
/// ("Creating new monsters" > "Role"). Each defense is `constant + level`,
/// hit points are `hp_base + hp_per_level * level`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoleFormula {
    /// AC constant.
    pub ac: i32,
    /// Fortitude constant.
    pub fortitude: i32,
    /// Reflex constant.
    pub reflex: i32,
    /// Will constant.
    pub will: i32,
    /// Hit points at level 0 (before rank multipliers).
    pub hp_base: i32,
    /// Hit points gained per level.
    pub hp_per_level: i32,
    /// Attack bonus constant against AC.
    pub attack_vs_ac: i32,
    /// Attack bonus constant against Fortitude, Reflex or Will.
    pub attack_vs_other: i32,
}

impl Role {
    /// This role's formula constants ("Creating new monsters" > "Role").
    // Text gap: in the source the Fort/Ref/Will values of each role run
    // together on one line and each attack value sits on its own line; the
    // pairing below follows the printed order (Fort, Ref, Will; vs AC, then
    // vs F/R/W).
    pub const fn formula(self) -> RoleFormula {
        let (ac, fortitude, reflex, will, hp_base, hp_per_level) = match self {
            Role::Archer => (12, 11, 12, 12, 21, 4),
            Role::Blocker => (16, 13, 12, 12, 24, 5),
            Role::Skulker => (14, 12, 13, 11, 21, 4),
            Role::Spoiler => (14, 12, 11, 13, 24, 5),
            Role::Striker => (14, 11, 13, 12, 24, 5),
            Role::Wrecker => (12, 13, 11, 12, 27, 6),
        };
        RoleFormula {
            ac,
            fortitude,
            reflex,
            will,
            hp_base,
            hp_per_level,
            attack_vs_ac: 5,
            attack_vs_other: 3,
        }
    }
}

/// Monster size ("Size").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Size {
    /// Cat sized or smaller.
    Tiny,
    /// Dog sized.
    Small,
    /// Human sized.
    Medium,
    /// Cow sized.
    Large,
    /// Elephant sized.
    Huge,
    /// Blue whale sized or larger.
    Gargantuan,
}

impl Size {
    /// Side of the occupied space in half-squares ("Size", size categories
    /// table): Tiny is 0.5 × 0.5 squares, so 1; Medium is 1 × 1, so 2.
    pub const fn space_half_squares(self) -> i32 {
        match self {
            Size::Tiny => 1,
            Size::Small | Size::Medium => 2,
            Size::Large => 4,
            Size::Huge => 6,
            Size::Gargantuan => 8,
        }
    }
}

/// XP by monster level 1..=30, columns Mook, Standard, Elite, Boss
/// ("Monsters" > "Experience Points").
const MONSTER_XP: [[i32; 4]; 30] = [
    [25, 100, 200, 500],
    [31, 125, 250, 625],
    [38, 150, 300, 750],
    [44, 175, 350, 875],
    [50, 200, 400, 1_000],
    [63, 250, 500, 1_250],
    [75, 300, 600, 1_500],
    [88, 350, 700, 1_750],
    [100, 400, 800, 2_000],
    [125, 500, 1_000, 2_500],
    [150, 600, 1_200, 3_000],
    [175, 700, 1_400, 3_500],
    [200, 800, 1_600, 4_000],
    [250, 1_000, 2_000, 5_000],
    [300, 1_200, 2_400, 6_000],
    [350, 1_400, 2_800, 7_000],
    [400, 1_600, 3_200, 8_000],
    [500, 2_000, 4_000, 10_000],
    [600, 2_400, 4_800, 12_000],
    [700, 2_800, 5_600, 14_000],
    [800, 3_200, 6_400, 16_000],
    [1_000, 4_000, 8_000, 20_000],
    [1_200, 4_800, 9_600, 24_000],
    [1_400, 5_600, 11_200, 28_000],
    [1_600, 6_400, 12_800, 32_000],
    [2_000, 8_000, 16_000, 40_000],
    [2_400, 9_600, 19_200, 48_000],
    [2_800, 11_200, 22_400, 56_000],
    [3_200, 12_800, 25_600, 64_000],
    [4_000, 16_000, 32_000, 80_000],
];

/// XP a monster of `level` and `rank` is worth ("Monsters" >
/// "Experience Points"). Levels 1..=30.
pub fn monster_xp(level: i32, rank: Rank) -> Result<i32, TableError> {
    let row = level_row(&MONSTER_XP, level, MAX_MONSTER_XP_LEVEL)?;
    Ok(match rank {
        Rank::Mook => row[0],
        Rank::Standard => row[1],
        Rank::Elite => row[2],
        Rank::Boss => row[3],
    })
}

// ---------------------------------------------------------------------------
// Monsters: building a stat block
// ---------------------------------------------------------------------------

/// Numbers of a newly created monster ("Creating new monsters").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MonsterNumbers {
    /// Monster level.
    pub level: i32,
    /// Role.
    pub role: Role,
    /// Rank.
    pub rank: Rank,
    /// Whether the Leader rider is applied. The rules give it no numeric
    /// effect; it is carried through for the caller.
    pub leader: bool,
    /// Armor Class.
    pub ac: i32,
    /// Fortitude defense.
    pub fortitude: i32,
    /// Reflex defense.
    pub reflex: i32,
    /// Will defense.
    pub will: i32,
    /// Hit points after the rank rule (elite ×2, boss ×4, mook 1).
    pub hp: i32,
    /// Attack bonus against AC.
    pub attack_vs_ac: i32,
    /// Attack bonus against Fortitude, Reflex or Will.
    pub attack_vs_other: i32,
    /// Action points at the start of an encounter; see
    /// [`Rank::starting_action_points`] (an interpretation).
    pub action_points: i32,
    /// Most action points spendable per round ("Action points").
    pub max_action_points_per_round: i32,
    /// XP value; `None` above level 30, where the Experience Points table
    /// stops although the damage table continues to level 35.
    pub xp: Option<i32>,
}

/// Monster hit points for `level`, `role` and `rank`
/// ("Creating new monsters" > "Role", HP rule for ranks): the role formula,
/// doubled for elites, quadrupled for bosses; mooks always have 1.
pub fn monster_hp(level: i32, role: Role, rank: Rank) -> Result<i32, TableError> {
    check_level(level, MIN_LEVEL, MAX_MONSTER_LEVEL)?;
    let f = role.formula();
    let base = f.hp_base + f.hp_per_level * level;
    Ok(match rank {
        Rank::Mook => 1,
        Rank::Standard => base,
        Rank::Elite => base * 2,
        Rank::Boss => base * 4,
    })
}

/// Builds the numbers of a new monster ("Creating new monsters").
///
/// Defenses and attack bonuses follow the role formulas (they already
/// include the monster's level). Levels 1..=35 are accepted, the range of
/// "Table - Monster Level and Damage"; `xp` is `None` above 30.
pub fn build_monster(
    level: i32,
    role: Role,
    rank: Rank,
    leader: bool,
) -> Result<MonsterNumbers, TableError> {
    let hp = monster_hp(level, role, rank)?;
    let f = role.formula();
    Ok(MonsterNumbers {
        level,
        role,
        rank,
        leader,
        ac: f.ac + level,
        fortitude: f.fortitude + level,
        reflex: f.reflex + level,
        will: f.will + level,
        hp,
        attack_vs_ac: f.attack_vs_ac + level,
        attack_vs_other: f.attack_vs_other + level,
        action_points: rank.starting_action_points(),
        max_action_points_per_round: rank.max_action_points_per_round(),
        xp: monster_xp(level, rank).ok(),
    })
}

/// A monster's modifier for one ability ("Creating new monsters" >
/// "Abilities"): the base modifier for `score` plus half the level.
pub fn monster_ability_modifier(level: i32, score: i32) -> Result<i32, TableError> {
    check_level(level, MIN_LEVEL, MAX_MONSTER_LEVEL)?;
    Ok(ability_modifier(score)? + half_level(level))
}

/// A monster's initiative bonus ("Creating new monsters" > "Initiative"):
/// half its level plus its Dexterity modifier.
///
/// Interpretation: `dex_base_modifier` is the modifier from
/// [`ability_modifier`], not [`monster_ability_modifier`], so half the level
/// is counted once (the "Ability Scores" section says initiative includes
/// half level once). The result equals the monster's Dexterity modifier.
pub fn monster_initiative(level: i32, dex_base_modifier: i32) -> Result<i32, TableError> {
    check_level(level, MIN_LEVEL, MAX_MONSTER_LEVEL)?;
    Ok(half_level(level) + dex_base_modifier)
}

/// Bonus of a skill the monster is trained in ("Creating new monsters" >
/// "Skills"): 5 + half level + the ability modifier.
///
/// Interpretation: as for [`monster_initiative`], `base_modifier` is the
/// modifier from [`ability_modifier`], so half the level is counted once.
pub fn monster_trained_skill(level: i32, base_modifier: i32) -> Result<i32, TableError> {
    check_level(level, MIN_LEVEL, MAX_MONSTER_LEVEL)?;
    Ok(5 + half_level(level) + base_modifier)
}

/// Perception of a monster not trained in it ("Creating new monsters" >
/// "Skills"): half level + Wisdom modifier (`wis_base_modifier` from
/// [`ability_modifier`]).
pub fn monster_untrained_perception(level: i32, wis_base_modifier: i32) -> Result<i32, TableError> {
    check_level(level, MIN_LEVEL, MAX_MONSTER_LEVEL)?;
    Ok(half_level(level) + wis_base_modifier)
}

// ---------------------------------------------------------------------------
// Monsters: damage
// ---------------------------------------------------------------------------

/// Columns of "Table - Monster Level and Damage".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DamageKind {
    /// Static mook damage.
    Mook,
    /// At-will power, single target.
    AtWillSingle,
    /// At-will power, multiple targets.
    AtWillMulti,
    /// Surge (infrequent) power, single target.
    SurgeSingle,
    /// Surge (infrequent) power, multiple targets.
    SurgeMulti,
}

/// One row of "Table - Monster Level and Damage".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DamageRow {
    /// Monster level.
    pub level: i32,
    /// Static mook damage.
    pub mook: i32,
    /// At-will, single target.
    pub at_will_single: DamageExpr,
    /// At-will, multi-target.
    pub at_will_multi: DamageExpr,
    /// Surge, single target.
    pub surge_single: DamageExpr,
    /// Surge, multi-target.
    pub surge_multi: DamageExpr,
    /// Wrecker bonus damage.
    pub wrecker_bonus: i32,
}

impl DamageRow {
    /// The cell of this row for `kind`.
    pub const fn get(&self, kind: DamageKind) -> DamageExpr {
        match kind {
            DamageKind::Mook => DamageExpr::fixed(self.mook),
            DamageKind::AtWillSingle => self.at_will_single,
            DamageKind::AtWillMulti => self.at_will_multi,
            DamageKind::SurgeSingle => self.surge_single,
            DamageKind::SurgeMulti => self.surge_multi,
        }
    }
}

const fn d(count: i32, sides: i32, bonus: i32) -> DamageExpr {
    DamageExpr::rolled(count, sides, bonus)
}

const fn row(
    level: i32,
    mook: i32,
    at_will_single: DamageExpr,
    at_will_multi: DamageExpr,
    surge_single: DamageExpr,
    surge_multi: DamageExpr,
    wrecker_bonus: i32,
) -> DamageRow {
    DamageRow {
        level,
        mook,
        at_will_single,
        at_will_multi,
        surge_single,
        surge_multi,
        wrecker_bonus,
    }
}

/// "Table - Monster Level and Damage", levels 1..=35.
// Text gap: the column headers are split over several lines in the source;
// the column order is Mook, At-Will Single, At-Will Multi, Surge Single,
// Surge Multi, Wrecker Bonus. Level 2 surge single-target reads "2d10+2"
// (lower bonus than levels 1 and 3); kept as printed.
pub static MONSTER_DAMAGE: [DamageRow; 35] = [
    row(1, 5, d(1, 10, 3), d(1, 6, 3), d(2, 8, 3), d(1, 10, 3), 2),
    row(2, 5, d(1, 12, 3), d(1, 8, 3), d(2, 10, 2), d(1, 12, 3), 3),
    row(3, 6, d(1, 12, 4), d(1, 8, 3), d(2, 10, 3), d(1, 12, 4), 3),
    row(4, 6, d(1, 12, 5), d(1, 8, 4), d(2, 12, 3), d(1, 12, 5), 3),
    row(5, 7, d(2, 8, 4), d(1, 10, 4), d(2, 12, 4), d(2, 8, 4), 3),
    row(6, 7, d(2, 10, 3), d(1, 12, 4), d(3, 8, 5), d(2, 10, 3), 4),
    row(7, 8, d(2, 10, 4), d(1, 12, 4), d(3, 10, 3), d(2, 10, 4), 4),
    row(8, 8, d(2, 10, 5), d(1, 12, 5), d(3, 10, 5), d(2, 10, 5), 4),
    row(9, 9, d(2, 12, 4), d(1, 12, 6), d(4, 8, 5), d(2, 12, 4), 4),
    row(10, 9, d(2, 12, 5), d(2, 8, 5), d(4, 8, 6), d(2, 12, 5), 5),
    row(11, 10, d(3, 8, 5), d(2, 8, 5), d(6, 6, 4), d(3, 8, 5), 5),
    row(12, 10, d(3, 8, 6), d(2, 8, 6), d(6, 6, 6), d(3, 8, 6), 5),
    row(13, 11, d(3, 8, 7), d(2, 10, 5), d(4, 10, 6), d(3, 8, 7), 5),
    row(14, 11, d(3, 10, 5), d(2, 10, 6), d(5, 8, 6), d(3, 10, 5), 6),
    row(15, 12, d(3, 10, 6), d(2, 10, 6), d(5, 8, 7), d(3, 10, 6), 6),
    row(16, 12, d(3, 10, 7), d(2, 10, 7), d(7, 6, 7), d(3, 10, 7), 6),
    row(17, 13, d(4, 8, 7), d(2, 12, 6), d(4, 12, 7), d(4, 8, 7), 6),
    row(18, 13, d(4, 8, 8), d(2, 12, 7), d(5, 10, 7), d(4, 8, 8), 7),
    row(19, 14, d(6, 6, 6), d(2, 12, 7), d(5, 10, 8), d(6, 6, 6), 7),
    row(20, 14, d(6, 6, 7), d(2, 12, 8), d(7, 8, 6), d(6, 6, 7), 7),
    row(21, 15, d(6, 6, 8), d(3, 8, 8), d(7, 8, 7), d(6, 6, 8), 7),
    row(22, 15, d(4, 10, 8), d(3, 8, 9), d(7, 8, 8), d(4, 10, 8), 8),
    row(23, 16, d(5, 8, 8), d(3, 8, 9), d(5, 12, 8), d(5, 8, 8), 8),
    row(24, 16, d(5, 8, 9), d(3, 8, 10), d(5, 12, 10), d(5, 8, 9), 8),
    row(25, 17, d(5, 8, 10), d(3, 10, 8), d(8, 8, 8), d(5, 8, 10), 8),
    row(26, 17, d(7, 6, 9), d(3, 10, 9), d(8, 8, 9), d(7, 6, 9), 9),
    row(
        27,
        18,
        d(4, 12, 9),
        d(3, 10, 9),
        d(8, 8, 10),
        d(4, 12, 9),
        9,
    ),
    row(
        28,
        18,
        d(4, 12, 10),
        d(3, 10, 10),
        d(6, 12, 9),
        d(4, 12, 10),
        9,
    ),
    row(
        29,
        19,
        d(6, 8, 10),
        d(4, 8, 10),
        d(6, 12, 10),
        d(6, 8, 10),
        9,
    ),
    row(
        30,
        19,
        d(5, 10, 10),
        d(4, 8, 11),
        d(9, 8, 10),
        d(5, 10, 10),
        10,
    ),
    row(
        31,
        20,
        d(5, 10, 11),
        d(4, 8, 11),
        d(9, 8, 11),
        d(5, 10, 11),
        10,
    ),
    row(
        32,
        20,
        d(5, 10, 12),
        d(4, 8, 12),
        d(8, 10, 10),
        d(5, 10, 12),
        10,
    ),
    row(
        33,
        21,
        d(7, 8, 9),
        d(6, 6, 10),
        d(8, 10, 11),
        d(7, 8, 9),
        10,
    ),
    row(
        34,
        21,
        d(7, 8, 10),
        d(6, 6, 11),
        d(7, 12, 10),
        d(7, 8, 10),
        11,
    ),
    row(
        35,
        22,
        d(7, 8, 11),
        d(6, 6, 11),
        d(7, 12, 11),
        d(7, 8, 11),
        11,
    ),
];

/// The row of "Table - Monster Level and Damage" for `level` (1..=35).
pub fn monster_damage_row(level: i32) -> Result<&'static DamageRow, TableError> {
    level_row(&MONSTER_DAMAGE, level, MAX_MONSTER_LEVEL)
}

/// Damage for a power of `kind` at `level`
/// ("Table - Monster Level and Damage"), without any role bonus.
pub fn monster_damage(level: i32, kind: DamageKind) -> Result<DamageExpr, TableError> {
    Ok(monster_damage_row(level)?.get(kind))
}

/// Wrecker bonus damage at `level` ("Table - Monster Level and Damage").
pub fn wrecker_bonus(level: i32) -> Result<i32, TableError> {
    Ok(monster_damage_row(level)?.wrecker_bonus)
}

/// Bonus damage a monster of `role` and `rank` adds to every attack
/// ("Powers" > "Role"): the wrecker bonus for wreckers, halved (rounded
/// down) for wrecker mooks, 0 for other roles.
pub fn role_damage_bonus(level: i32, role: Role, rank: Rank) -> Result<i32, TableError> {
    let bonus = wrecker_bonus(level)?;
    Ok(match (role, rank) {
        (Role::Wrecker, Rank::Mook) => bonus.div_euclid(2),
        (Role::Wrecker, _) => bonus,
        _ => 0,
    })
}

/// Damage of a power of `kind` for a monster of `level`, `role` and `rank`,
/// including [`role_damage_bonus`] ("Powers").
///
/// The rules say mooks deal static damage, so callers normally pass
/// [`DamageKind::Mook`] for mooks; this is not enforced.
pub fn power_damage(
    level: i32,
    kind: DamageKind,
    role: Role,
    rank: Rank,
) -> Result<DamageExpr, TableError> {
    Ok(monster_damage(level, kind)?.plus(role_damage_bonus(level, role, rank)?))
}

// ---------------------------------------------------------------------------
// Weapons
// ---------------------------------------------------------------------------

/// Weapon proficiency category ("Weapon proficiency").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WeaponCategory {
    /// Simple weapons.
    Simple,
    /// Martial weapons.
    Martial,
    /// Exotic weapons.
    Exotic,
}

/// Melee or ranged ("Weapons").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WeaponKind {
    /// From "Table – Melee Weapons".
    Melee,
    /// From "Table – Ranged Weapons".
    Ranged,
}

/// Hands column of the weapon tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Hands {
    /// Side weapon: may be held in the off hand (the Side Weapon property).
    Side,
    /// One-handed.
    One,
    /// Two-handed (the Two-Handed property).
    Two,
}

/// Weapon groups ("Weapon groups").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WeaponGroup {
    /// Axes.
    Axes,
    /// Bows.
    Bows,
    /// Crossbows.
    Crossbows,
    /// Flails and Chains.
    FlailsAndChains,
    /// Heavy Blades.
    HeavyBlades,
    /// Light Blades.
    LightBlades,
    /// Maces and Clubs.
    MacesAndClubs,
    /// Picks and Hammers.
    PicksAndHammers,
    /// Polearms.
    Polearms,
    /// Slings.
    Slings,
    /// Spears and Lances.
    SpearsAndLances,
    /// Staffs.
    Staffs,
}

/// Weapon properties listed in the weapon tables ("Weapon properties").
///
/// Side Weapon and Two-Handed are expressed by [`Hands`] instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WeaponProperty {
    /// Extra weapon dice on a critical hit, growing at levels 11 and 21.
    ImprovedCritical,
    /// Needs ammunition; reloading takes a free action.
    LoadingFree,
    /// Needs ammunition; reloading takes a swift action.
    LoadingSwift,
    /// Adds 1 square of reach.
    Reach,
    /// Can be thrown; Dexterity for the basic ranged attack.
    ThrownLight,
    /// Can be thrown; Strength for the basic ranged attack.
    ThrownHeavy,
}

/// Short and long range of a weapon, as printed (`short/long`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WeaponRange {
    /// Normal range; beyond it attacks take −2.
    pub short: i32,
    /// Long range; attacks beyond it are impossible.
    pub long: i32,
}

/// Default range of thrown weapons ("Weapon properties" > "Thrown").
pub const THROWN_RANGE: WeaponRange = WeaponRange { short: 5, long: 10 };

/// One weapon of "Table – Melee Weapons" or "Table – Ranged Weapons".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weapon {
    /// Name as printed.
    pub name: &'static str,
    /// Simple, martial or exotic.
    pub category: WeaponCategory,
    /// Melee or ranged table.
    pub kind: WeaponKind,
    /// Hands column.
    pub hands: Hands,
    /// Proficiency bonus to attack rolls.
    pub proficiency_bonus: i32,
    /// Weapon damage die (dW).
    pub damage: Dice,
    /// Range for ranged and thrown weapons, `None` otherwise.
    pub range: Option<WeaponRange>,
    /// Cost in gold pieces.
    pub cost_gp: i32,
    /// Weight in pounds.
    pub weight_lb: i32,
    /// Properties.
    pub properties: &'static [WeaponProperty],
    /// Groups the weapon belongs to.
    pub groups: &'static [WeaponGroup],
}

impl Weapon {
    /// Whether the weapon has `property`.
    pub fn has_property(&self, property: WeaponProperty) -> bool {
        self.properties.contains(&property)
    }

    /// Whether the weapon belongs to `group`.
    pub fn in_group(&self, group: WeaponGroup) -> bool {
        self.groups.contains(&group)
    }
}

use WeaponGroup as G;
use WeaponProperty as P;

#[allow(clippy::too_many_arguments)]
const fn melee(
    name: &'static str,
    category: WeaponCategory,
    hands: Hands,
    proficiency_bonus: i32,
    damage: Dice,
    cost_gp: i32,
    weight_lb: i32,
    properties: &'static [WeaponProperty],
    groups: &'static [WeaponGroup],
) -> Weapon {
    let mut range = None;
    let mut rest = properties;
    while let [first, tail @ ..] = rest {
        if matches!(first, P::ThrownLight | P::ThrownHeavy) {
            range = Some(THROWN_RANGE);
        }
        rest = tail;
    }
    Weapon {
        name,
        category,
        kind: WeaponKind::Melee,
        hands,
        proficiency_bonus,
        damage,
        range,
        cost_gp,
        weight_lb,
        properties,
        groups,
    }
}

#[allow(clippy::too_many_arguments)]
const fn ranged(
    name: &'static str,
    category: WeaponCategory,
    hands: Hands,
    proficiency_bonus: i32,
    damage: Dice,
    range: WeaponRange,
    cost_gp: i32,
    weight_lb: i32,
    properties: &'static [WeaponProperty],
    groups: &'static [WeaponGroup],
) -> Weapon {
    Weapon {
        name,
        category,
        kind: WeaponKind::Ranged,
        hands,
        proficiency_bonus,
        damage,
        range: Some(range),
        cost_gp,
        weight_lb,
        properties,
        groups,
    }
}

const fn dw(count: i32, sides: i32) -> Dice {
    Dice::new(count, sides)
}

const fn rng(short: i32, long: i32) -> WeaponRange {
    WeaponRange { short, long }
}

use Hands::{One, Side, Two};
use WeaponCategory::{Exotic, Martial, Simple};

/// Every weapon of "Table – Melee Weapons" and "Table – Ranged Weapons", in
/// printed order.
// Text gap: the tables lost their column separators, so the boundary between
// the Properties and Group columns is inferred from the property names.
// Group labels are printed in singular, abbreviated forms ("Spear & Lance",
// "Mace & Club") and are mapped to the "Weapon groups" list. Two labels are
// not in that list: the greatclub's "Mace & Hammer" is read as Maces and
// Clubs (it is a club), and the hooked hammer's trailing "Mace" is read as
// Maces and Clubs. Melee weapons have no range column; thrown weapons get
// the default thrown range 5/10.
#[rustfmt::skip]
pub static WEAPONS: [Weapon; 41] = [
    // Simple melee
    melee("Dart", Simple, Side, 2, dw(1, 6), 2, 2, &[P::ThrownLight], &[G::SpearsAndLances]),
    melee("Knife", Simple, Side, 3, dw(1, 4), 2, 2, &[P::ThrownLight], &[G::LightBlades]),
    melee("Club", Simple, One, 2, dw(1, 10), 5, 5, &[], &[G::MacesAndClubs]),
    melee("Shortspear", Simple, One, 2, dw(1, 10), 5, 5, &[], &[G::SpearsAndLances]),
    melee("Sickle", Simple, One, 3, dw(1, 8), 5, 5, &[], &[G::LightBlades]),
    melee("Greatclub", Simple, Two, 2, dw(1, 12), 5, 10, &[], &[G::MacesAndClubs]),
    melee("Quarterstaff", Simple, Two, 2, dw(1, 12), 5, 10, &[], &[G::Staffs]),
    melee("Scythe", Simple, Two, 3, dw(1, 10), 5, 10, &[], &[G::HeavyBlades]),
    // Martial melee
    melee("Fork", Martial, Side, 2, dw(1, 8), 5, 1, &[P::ThrownHeavy], &[G::SpearsAndLances]),
    melee("Handaxe", Martial, Side, 2, dw(1, 8), 5, 1, &[P::ThrownHeavy], &[G::Axes]),
    melee("Juggling club", Martial, Side, 2, dw(1, 8), 5, 1, &[P::ThrownHeavy], &[G::MacesAndClubs]),
    melee("Light pick", Martial, Side, 2, dw(1, 6), 5, 1, &[P::ThrownHeavy, P::ImprovedCritical], &[G::PicksAndHammers]),
    melee("Shortsword", Martial, Side, 3, dw(1, 6), 5, 1, &[P::ThrownHeavy], &[G::LightBlades]),
    melee("Battleaxe", Martial, One, 2, dw(1, 10), 10, 4, &[], &[G::Axes]),
    melee("Light flail", Martial, One, 2, dw(1, 8), 10, 4, &[P::ImprovedCritical], &[G::FlailsAndChains]),
    melee("Light mace", Martial, One, 2, dw(1, 10), 10, 4, &[], &[G::MacesAndClubs]),
    melee("Longsword", Martial, One, 3, dw(1, 8), 10, 4, &[], &[G::HeavyBlades]),
    melee("Rapier", Martial, One, 3, dw(1, 8), 10, 4, &[], &[G::LightBlades]),
    melee("Warhammer", Martial, One, 2, dw(1, 8), 10, 4, &[P::ImprovedCritical], &[G::PicksAndHammers]),
    melee("Bo staff", Martial, Two, 2, dw(1, 10), 25, 8, &[P::Reach], &[G::Staffs, G::Polearms]),
    melee("Glaive", Martial, Two, 3, dw(1, 8), 25, 8, &[P::Reach], &[G::HeavyBlades, G::Polearms]),
    melee("Greataxe", Martial, Two, 2, dw(1, 12), 25, 8, &[], &[G::Axes]),
    melee("Greatsword", Martial, Two, 3, dw(1, 10), 25, 8, &[], &[G::HeavyBlades]),
    melee("Halberd", Martial, Two, 2, dw(1, 10), 25, 8, &[P::Reach], &[G::Axes, G::Polearms]),
    melee("Heavy flail", Martial, Two, 2, dw(1, 10), 25, 8, &[P::ImprovedCritical], &[G::FlailsAndChains]),
    melee("Heavy mace", Martial, Two, 2, dw(1, 12), 25, 8, &[], &[G::MacesAndClubs]),
    melee("Longspear", Martial, Two, 2, dw(1, 10), 25, 8, &[P::Reach], &[G::SpearsAndLances, G::Polearms]),
    melee("Maul", Martial, Two, 2, dw(1, 10), 25, 8, &[P::ImprovedCritical], &[G::PicksAndHammers]),
    // Exotic melee
    melee("Kukri", Exotic, Side, 4, dw(1, 6), 5, 1, &[P::ThrownHeavy], &[G::LightBlades, G::HeavyBlades]),
    melee("Nunchaku", Exotic, Side, 2, dw(1, 8), 5, 1, &[P::ThrownHeavy, P::ImprovedCritical], &[G::MacesAndClubs, G::FlailsAndChains]),
    melee("Dwarven spear-axe", Exotic, Two, 2, dw(2, 8), 25, 8, &[], &[G::Axes, G::SpearsAndLances]),
    melee("Hooked hammer", Exotic, Two, 2, dw(1, 12), 25, 8, &[P::ImprovedCritical], &[G::PicksAndHammers, G::MacesAndClubs]),
    melee("Khopesh", Exotic, One, 3, dw(1, 10), 10, 4, &[], &[G::Axes, G::HeavyBlades]),
    melee("Spiked chain", Exotic, Two, 3, dw(1, 8), 25, 8, &[P::Reach, P::ImprovedCritical], &[G::LightBlades, G::FlailsAndChains, G::Polearms]),
    melee("Two-bladed sword", Exotic, Two, 4, dw(1, 10), 25, 8, &[], &[G::HeavyBlades, G::LightBlades]),
    // Simple ranged
    ranged("Light crossbow", Simple, One, 2, dw(1, 6), rng(10, 20), 35, 4, &[P::LoadingFree], &[G::Crossbows]),
    ranged("Sling", Simple, One, 2, dw(1, 8), rng(10, 20), 10, 1, &[P::LoadingFree], &[G::Slings]),
    ranged("Heavy crossbow", Simple, Two, 2, dw(1, 8), rng(15, 30), 50, 8, &[P::LoadingSwift], &[G::Crossbows]),
    // Martial ranged
    ranged("Longbow", Martial, Two, 2, dw(1, 10), rng(20, 40), 50, 4, &[P::LoadingFree], &[G::Bows]),
    // Exotic ranged
    ranged("Composite bow", Exotic, Two, 2, dw(1, 12), rng(25, 50), 75, 6, &[P::LoadingFree], &[G::Bows]),
    ranged("Dire crossbow", Exotic, Two, 3, dw(1, 10), rng(20, 40), 100, 8, &[P::LoadingSwift], &[G::Crossbows]),
];

/// Looks up a weapon by name, ignoring ASCII case.
pub fn weapon(name: &str) -> Option<&'static Weapon> {
    WEAPONS.iter().find(|w| w.name.eq_ignore_ascii_case(name))
}

/// Damage of an improvised weapon or unarmed strike ("Improvised weapons"):
/// 1d4 one-handed, 1d8 two-handed, with no proficiency bonus.
pub const fn improvised_weapon_damage(two_handed: bool) -> Dice {
    if two_handed {
        Dice::new(1, 8)
    } else {
        Dice::new(1, 4)
    }
}

/// Result of increasing a weapon damage die by one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DieIncrease {
    /// The die becomes this.
    To(Dice),
    /// The die becomes either of these, at the chooser's option
    /// (listed in the rules' order).
    Either(Dice, Dice),
}

/// Increases a weapon damage die by one step ("Increasing weapon damage
/// dice", "Table – Increased Weapon Die").
///
/// The table covers only 1d4, 1d6, 1d8 and 1d10 (which becomes "2d6 or
/// 1d12"); any other dice, including the 1d12 and 2d8 printed in the weapon
/// tables, return `None`.
// Text gap: no step is given beyond 1d10, nor for multi-die weapons.
pub fn increase_die(dice: Dice) -> Option<DieIncrease> {
    match (dice.count, dice.sides) {
        (1, 4) => Some(DieIncrease::To(Dice::new(1, 6))),
        (1, 6) => Some(DieIncrease::To(Dice::new(1, 8))),
        (1, 8) => Some(DieIncrease::To(Dice::new(1, 10))),
        (1, 10) => Some(DieIncrease::Either(Dice::new(2, 6), Dice::new(1, 12))),
        _ => None,
    }
}

/// `dice` increased `steps` times by [`increase_die`] (§ Increasing weapon damage dice); where
/// the table offers "2d6 or 1d12" the first listed (2d6) is taken (interpretation: the writer of
/// a hero file wanting 1d12 has no other way to name it; 2d6 is the text's first choice). `None`
/// when a step leaves the table (beyond 1d10, or multi-die weapons).
pub fn increased_die(dice: Dice, steps: u8) -> Option<Dice> {
    (0..steps).try_fold(dice, |d, _| {
        increase_die(d).map(|up| match up {
            DieIncrease::To(x) | DieIncrease::Either(x, _) => x,
        })
    })
}

// ---------------------------------------------------------------------------
// Armor
// ---------------------------------------------------------------------------

/// Armor type column of "Table – Armor and Shields".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArmorType {
    /// Light armor: the wearer adds Dexterity or Intelligence to AC.
    Light,
    /// Heavy armor: no ability modifier to AC.
    Heavy,
    /// Shield: bonus to AC and Reflex.
    Shield,
}

/// One row of "Table – Armor and Shields".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Armor {
    /// Name as printed.
    pub name: &'static str,
    /// Light, heavy or shield.
    pub armor_type: ArmorType,
    /// Base AC for body armor; the shield bonus to AC and Reflex for shields.
    pub ac: i32,
    /// Armor check penalty (0 or negative).
    pub check_penalty: i32,
    /// Speed penalty (0 or negative).
    pub speed_penalty: i32,
    /// Cost in gold pieces.
    pub cost_gp: i32,
    /// Weight in pounds.
    pub weight_lb: i32,
}

const fn armor(
    name: &'static str,
    armor_type: ArmorType,
    ac: i32,
    check_penalty: i32,
    speed_penalty: i32,
    cost_gp: i32,
    weight_lb: i32,
) -> Armor {
    Armor {
        name,
        armor_type,
        ac,
        check_penalty,
        speed_penalty,
        cost_gp,
        weight_lb,
    }
}

/// "Table – Armor and Shields", in printed order.
// Text gap: empty cells vanished in conversion, so rows with a single
// penalty are ambiguous. Hide armor's lone -1 is read as an armor check
// penalty and scale armor's lone -1 as a speed penalty, so that every heavy
// armor has speed -1 like chainmail and plate. The heavy shield's -2 is read
// as an armor check penalty (the text gives shields no speed effect). Armor costs are
// printed without a unit and read as gp, like the shields.
pub static ARMORS: [Armor; 8] = [
    armor("Cloth armor", ArmorType::Light, 10, 0, 0, 1, 4),
    armor("Leather armor", ArmorType::Light, 12, 0, 0, 25, 15),
    armor("Hide armor", ArmorType::Light, 13, -1, 0, 30, 25),
    armor("Chainmail", ArmorType::Heavy, 16, -1, -1, 40, 40),
    armor("Scale armor", ArmorType::Heavy, 17, 0, -1, 45, 45),
    armor("Plate armor", ArmorType::Heavy, 18, -2, -1, 50, 50),
    armor("Light shield", ArmorType::Shield, 1, 0, 0, 5, 6),
    armor("Heavy shield", ArmorType::Shield, 2, -2, 0, 10, 15),
];

/// Looks up armor or a shield by name, ignoring ASCII case.
pub fn armor_by_name(name: &str) -> Option<&'static Armor> {
    ARMORS.iter().find(|a| a.name.eq_ignore_ascii_case(name))
}

/// Penalty to attack rolls and Reflex for wearing armor without proficiency
/// ("Armor" > "Armor Proficiency").
pub const NONPROFICIENT_ARMOR_PENALTY: i32 = -2;

#[cfg(test)]
mod tests {
    use super::*;

    /// Default location of the rules text used to cross-check the tables.
    const RULES_PATH: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/rules/orcus-basic-rules.txt"
    );

    /// Set to `1` to skip the rules-text cross-checks in a checkout without `../shared`.
    const SKIP_VAR: &str = "FRAY_SKIP_RULES_TEXT";

    /// The rules text, from `ORCUS_RULES_TEXT` or [`RULES_PATH`]. A missing
    /// text fails the cross-check tests (they would otherwise pass without
    /// checking anything) unless [`SKIP_VAR`] is `1`: then they are skipped
    /// with a message.
    fn rules_text() -> Option<String> {
        let path = std::env::var("ORCUS_RULES_TEXT").unwrap_or_else(|_| RULES_PATH.to_string());
        let skip = std::env::var(SKIP_VAR).is_ok_and(|v| v == "1");
        text_or_skip(&path, std::fs::read_to_string(&path), skip)
    }

    /// [`rules_text`]'s decision: the text, `None` (skipped) when it cannot be
    /// read and skipping is asked for, otherwise a panic naming the path and
    /// the variable.
    fn text_or_skip(path: &str, read: std::io::Result<String>, skip: bool) -> Option<String> {
        match read {
            Ok(text) => Some(text),
            Err(err) if skip => {
                eprintln!(
                    "skipping rules-text cross-check ({SKIP_VAR}=1): cannot read {path}: {err}"
                );
                None
            }
            Err(err) => panic!(
                "the rules-text cross-check cannot read {path}: {err}. Put the rules texts in \
                 ../shared/rules beside the repository (as CI does), point ORCUS_RULES_TEXT at \
                 orcus-basic-rules.txt, or set {SKIP_VAR}=1 to skip these checks"
            ),
        }
    }

    /// The cross-checks fail when the text is missing, unless skipping is asked for.
    #[test]
    fn a_missing_rules_text_fails_unless_skipped_explicitly() {
        let missing = || Err(std::io::Error::from(std::io::ErrorKind::NotFound));
        assert_eq!(text_or_skip("nowhere.txt", missing(), true), None);
        assert_eq!(
            text_or_skip("here.txt", Ok("text".to_owned()), false).as_deref(),
            Some("text")
        );
        let failed = std::panic::catch_unwind(|| text_or_skip("nowhere.txt", missing(), false));
        let message = failed
            .expect_err("a missing text must fail")
            .downcast::<String>()
            .map(|m| *m)
            .unwrap_or_default();
        assert!(message.contains("FRAY_SKIP_RULES_TEXT=1"), "{message}");
        assert!(message.contains("nowhere.txt"), "{message}");
    }

    /// Lines following the first line equal to `header`, up to (not
    /// including) the first line for which `end` returns true.
    fn section<'a>(text: &'a str, header: &str, end: impl Fn(&str) -> bool) -> Vec<&'a str> {
        let mut lines = text.lines().map(str::trim);
        assert!(
            lines.by_ref().any(|l| l == header),
            "header {header:?} not found in rules text"
        );
        lines.take_while(|l| !end(l)).collect()
    }

    fn num(token: &str) -> i32 {
        token
            .replace(',', "")
            .parse()
            .unwrap_or_else(|_| panic!("not a number: {token:?}"))
    }

    fn starts_with_digit(line: &str) -> bool {
        line.chars().next().is_some_and(|c| c.is_ascii_digit())
    }

    // --- Monsters > Experience Points -----------------------------------

    #[test]
    fn experience_points_table_matches_text_cell_by_cell() {
        let Some(text) = rules_text() else { return };
        let rows = section(&text, "Level Mook Standard Elite Boss", |l| l == "Size");
        assert_eq!(rows.len(), 30);
        for line in rows {
            let cells: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(cells.len(), 5, "{line}");
            let level = num(cells[0]);
            for (rank, cell) in RANKS.iter().zip(&cells[1..]) {
                assert_eq!(monster_xp(level, *rank), Ok(num(cell)), "{line} {rank:?}");
            }
        }
    }

    #[test]
    fn experience_points_spot_values() {
        assert_eq!(monster_xp(1, Rank::Mook), Ok(25));
        assert_eq!(monster_xp(2, Rank::Mook), Ok(31));
        assert_eq!(monster_xp(5, Rank::Boss), Ok(1_000));
        assert_eq!(monster_xp(30, Rank::Elite), Ok(32_000));
        assert_eq!(monster_xp(30, Rank::Boss), Ok(80_000));
    }

    #[test]
    fn experience_points_rank_ratios_hold_for_every_level() {
        for level in 1..=MAX_MONSTER_XP_LEVEL {
            let standard = monster_xp(level, Rank::Standard).unwrap();
            assert_eq!(monster_xp(level, Rank::Elite), Ok(standard * 2));
            assert_eq!(monster_xp(level, Rank::Boss), Ok(standard * 5));
            // Mook = standard / 4, rounded half up.
            assert_eq!(monster_xp(level, Rank::Mook), Ok((standard * 2 + 4) / 8));
        }
    }

    #[test]
    fn experience_points_out_of_range_levels_are_errors() {
        for level in [i32::MIN, -1, 0, 31, i32::MAX] {
            assert!(monster_xp(level, Rank::Standard).is_err(), "{level}");
        }
        assert_eq!(
            monster_xp(31, Rank::Boss),
            Err(TableError::LevelOutOfRange {
                level: 31,
                min: 1,
                max: 30
            })
        );
    }

    // --- Table - Monster Level and Damage -------------------------------

    #[test]
    fn monster_level_and_damage_table_matches_text_cell_by_cell() {
        let Some(text) = rules_text() else { return };
        let rows = section(&text, "Wrecker Bonus Damage", |l| !starts_with_digit(l));
        assert_eq!(rows.len(), 35);
        let kinds = [
            DamageKind::Mook,
            DamageKind::AtWillSingle,
            DamageKind::AtWillMulti,
            DamageKind::SurgeSingle,
            DamageKind::SurgeMulti,
        ];
        for line in rows {
            let cells: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(cells.len(), 7, "{line}");
            let level = num(cells[0]);
            assert_eq!(monster_damage_row(level).unwrap().level, level);
            for (kind, cell) in kinds.iter().zip(&cells[1..6]) {
                let got = monster_damage(level, *kind).unwrap().to_string();
                assert_eq!(&got, cell, "level {level} {kind:?}");
            }
            assert_eq!(format!("+{}", wrecker_bonus(level).unwrap()), cells[6]);
        }
    }

    #[test]
    fn monster_level_and_damage_spot_values() {
        assert_eq!(
            monster_damage(1, DamageKind::Mook),
            Ok(DamageExpr::fixed(5))
        );
        assert_eq!(
            monster_damage(5, DamageKind::AtWillSingle)
                .unwrap()
                .to_string(),
            "2d8+4"
        );
        assert_eq!(
            monster_damage(2, DamageKind::SurgeSingle)
                .unwrap()
                .to_string(),
            "2d10+2"
        );
        assert_eq!(
            monster_damage(35, DamageKind::SurgeSingle)
                .unwrap()
                .to_string(),
            "7d12+11"
        );
        assert_eq!(wrecker_bonus(1), Ok(2));
        assert_eq!(wrecker_bonus(35), Ok(11));
    }

    #[test]
    fn monster_level_and_damage_covers_levels_1_to_35_only() {
        for level in 1..=35 {
            assert!(monster_damage(level, DamageKind::SurgeMulti).is_ok());
            assert_eq!(monster_damage_row(level).unwrap().level, level);
        }
        for level in [i32::MIN, 0, 36, i32::MAX] {
            assert!(monster_damage(level, DamageKind::Mook).is_err());
            assert!(wrecker_bonus(level).is_err());
        }
    }

    #[test]
    fn monster_level_and_damage_surge_multi_equals_at_will_single() {
        // Observation about the printed table, guarding the transcription.
        for r in &MONSTER_DAMAGE {
            assert_eq!(r.surge_multi, r.at_will_single, "level {}", r.level);
        }
    }

    #[test]
    fn powers_role_wrecker_mook_adds_half_bonus_rounded_down() {
        assert_eq!(role_damage_bonus(1, Role::Wrecker, Rank::Mook), Ok(1));
        assert_eq!(role_damage_bonus(2, Role::Wrecker, Rank::Mook), Ok(1));
        assert_eq!(role_damage_bonus(35, Role::Wrecker, Rank::Mook), Ok(5));
        assert_eq!(role_damage_bonus(35, Role::Wrecker, Rank::Boss), Ok(11));
        assert_eq!(role_damage_bonus(10, Role::Striker, Rank::Elite), Ok(0));
        assert_eq!(
            power_damage(1, DamageKind::Mook, Role::Wrecker, Rank::Mook),
            Ok(DamageExpr::fixed(6))
        );
        assert_eq!(
            power_damage(5, DamageKind::AtWillSingle, Role::Wrecker, Rank::Standard)
                .unwrap()
                .to_string(),
            "2d8+7"
        );
        assert_eq!(
            power_damage(5, DamageKind::AtWillSingle, Role::Archer, Rank::Standard),
            monster_damage(5, DamageKind::AtWillSingle)
        );
        assert!(power_damage(36, DamageKind::Mook, Role::Wrecker, Rank::Mook).is_err());
    }

    #[test]
    fn damage_expr_formats_like_the_rules() {
        assert_eq!(DamageExpr::rolled(2, 8, 4).to_string(), "2d8+4");
        assert_eq!(DamageExpr::rolled(1, 6, -1).to_string(), "1d6-1");
        assert_eq!(DamageExpr::rolled(1, 8, 0).to_string(), "1d8");
        assert_eq!(DamageExpr::fixed(7).to_string(), "7");
        assert_eq!(DamageExpr::rolled(2, 8, 4).min(), 6);
        assert_eq!(DamageExpr::rolled(2, 8, 4).max(), 20);
    }

    // --- Experience, levels and tiers -----------------------------------

    #[test]
    fn levels_and_their_benefits_table_matches_text_cell_by_cell() {
        let Some(text) = rules_text() else { return };
        let lines = section(&text, "Level XP to Reach Next Level Cumulative XP", |l| {
            l == "Combat encounters"
        });
        let rows: Vec<&str> = lines.into_iter().filter(|l| starts_with_digit(l)).collect();
        assert_eq!(rows.len(), 30);
        for line in rows {
            let cells: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(cells.len(), 3, "{line}");
            let level = num(cells[0]);
            let to_next = match cells[1] {
                "N/A" => None,
                cell => Some(num(cell)),
            };
            let cumulative = match cells[2] {
                "-" => 0,
                cell => num(cell),
            };
            assert_eq!(hero_xp_to_next_level(level), Ok(to_next), "{line}");
            assert_eq!(hero_xp_for_level(level), Ok(cumulative), "{line}");
        }
    }

    #[test]
    fn levels_and_their_benefits_spot_values_and_bounds() {
        assert_eq!(hero_xp_for_level(1), Ok(0));
        assert_eq!(hero_xp_for_level(2), Ok(1_000));
        assert_eq!(hero_xp_for_level(30), Ok(826_500));
        assert_eq!(hero_xp_to_next_level(1), Ok(Some(1_000)));
        assert_eq!(hero_xp_to_next_level(29), Ok(Some(128_000)));
        assert_eq!(hero_xp_to_next_level(30), Ok(None));
        assert!(hero_xp_for_level(0).is_err());
        assert!(hero_xp_for_level(31).is_err());
        assert!(hero_xp_to_next_level(31).is_err());
    }

    #[test]
    fn levels_and_their_benefits_level_for_xp_and_tiers() {
        assert_eq!(hero_level_for_xp(-5), 1);
        assert_eq!(hero_level_for_xp(0), 1);
        assert_eq!(hero_level_for_xp(999), 1);
        assert_eq!(hero_level_for_xp(1_000), 2);
        assert_eq!(hero_level_for_xp(826_499), 29);
        assert_eq!(hero_level_for_xp(826_500), 30);
        assert_eq!(hero_level_for_xp(i32::MAX), 30);
        for level in 1..=30 {
            let xp = hero_xp_for_level(level).unwrap();
            assert_eq!(hero_level_for_xp(xp), level);
        }
        assert_eq!(hero_tier(10), Ok(Tier::Adventurer));
        assert_eq!(hero_tier(11), Ok(Tier::Prestige));
        assert_eq!(hero_tier(20), Ok(Tier::Prestige));
        assert_eq!(hero_tier(21), Ok(Tier::Epic));
        assert!(hero_tier(0).is_err());
        assert!(hero_tier(31).is_err());
    }

    // --- Creating new monsters > Role -----------------------------------

    /// Integers appearing in `line`, in order.
    fn integers(line: &str) -> Vec<i32> {
        line.split(|c: char| !c.is_ascii_digit())
            .filter(|t| !t.is_empty())
            .map(num)
            .collect()
    }

    #[test]
    fn creating_new_monsters_role_formulas_match_text() {
        let Some(text) = rules_text() else { return };
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let start = lines
            .iter()
            .position(|l| *l == "Creating new monsters")
            .unwrap();
        let names = [
            "Archer", "Blocker", "Skulker", "Spoiler", "Striker", "Wrecker",
        ];
        for (role, name) in ROLES.iter().zip(names) {
            let at = start
                + lines[start..]
                    .iter()
                    .position(|l| *l == name)
                    .unwrap_or_else(|| panic!("{name} block missing"));
            let f = role.formula();
            assert!(lines[at + 1].starts_with("AC"), "{name}");
            assert_eq!(integers(lines[at + 1]), vec![f.ac], "{name} AC");
            assert!(lines[at + 2].starts_with("Fort"), "{name}");
            assert_eq!(
                integers(lines[at + 2]),
                vec![f.fortitude, f.reflex, f.will],
                "{name} F/R/W"
            );
            assert!(lines[at + 3].starts_with("HP"), "{name}");
            assert_eq!(
                integers(lines[at + 3]),
                vec![f.hp_base, f.hp_per_level],
                "{name} HP"
            );
            let vs_ac = at + lines[at..].iter().position(|l| *l == "vs AC").unwrap();
            assert_eq!(integers(lines[vs_ac + 1]), vec![f.attack_vs_ac], "{name}");
            let vs_frw = at + lines[at..].iter().position(|l| *l == "vs F/R/W").unwrap();
            assert_eq!(
                integers(lines[vs_frw + 1]),
                vec![f.attack_vs_other],
                "{name}"
            );
        }
    }

    #[test]
    fn creating_new_monsters_archer_and_blocker_at_levels_1_and_10() {
        let a1 = build_monster(1, Role::Archer, Rank::Standard, false).unwrap();
        assert_eq!(
            (a1.ac, a1.fortitude, a1.reflex, a1.will, a1.hp),
            (13, 12, 13, 13, 25)
        );
        assert_eq!((a1.attack_vs_ac, a1.attack_vs_other), (6, 4));
        let a10 = build_monster(10, Role::Archer, Rank::Standard, false).unwrap();
        assert_eq!(
            (a10.ac, a10.fortitude, a10.reflex, a10.will, a10.hp),
            (22, 21, 22, 22, 61)
        );
        assert_eq!((a10.attack_vs_ac, a10.attack_vs_other), (15, 13));
        let b1 = build_monster(1, Role::Blocker, Rank::Standard, false).unwrap();
        assert_eq!(
            (b1.ac, b1.fortitude, b1.reflex, b1.will, b1.hp),
            (17, 14, 13, 13, 29)
        );
        let b10 = build_monster(10, Role::Blocker, Rank::Standard, false).unwrap();
        assert_eq!(
            (b10.ac, b10.fortitude, b10.reflex, b10.will, b10.hp),
            (26, 23, 22, 22, 74)
        );
    }

    #[test]
    fn creating_new_monsters_skulker_spoiler_striker_wrecker_at_levels_3_and_20() {
        let cases = [
            (Role::Skulker, 3, (17, 15, 16, 14, 33)),
            (Role::Skulker, 20, (34, 32, 33, 31, 101)),
            (Role::Spoiler, 3, (17, 15, 14, 16, 39)),
            (Role::Spoiler, 20, (34, 32, 31, 33, 124)),
            (Role::Striker, 3, (17, 14, 16, 15, 39)),
            (Role::Striker, 20, (34, 31, 33, 32, 124)),
            (Role::Wrecker, 3, (15, 16, 14, 15, 45)),
            (Role::Wrecker, 20, (32, 33, 31, 32, 147)),
        ];
        for (role, level, expected) in cases {
            let m = build_monster(level, role, Rank::Standard, false).unwrap();
            assert_eq!(
                (m.ac, m.fortitude, m.reflex, m.will, m.hp),
                expected,
                "{role:?} {level}"
            );
            assert_eq!(m.attack_vs_ac, 5 + level);
            assert_eq!(m.attack_vs_other, 3 + level);
        }
    }

    #[test]
    fn creating_new_monsters_hp_rank_multipliers_and_mook_hp_1() {
        for role in ROLES {
            for level in [1, 7, 30, 35] {
                let standard = monster_hp(level, role, Rank::Standard).unwrap();
                assert_eq!(monster_hp(level, role, Rank::Elite), Ok(standard * 2));
                assert_eq!(monster_hp(level, role, Rank::Boss), Ok(standard * 4));
                assert_eq!(monster_hp(level, role, Rank::Mook), Ok(1));
                let mook = build_monster(level, role, Rank::Mook, false).unwrap();
                assert_eq!(mook.hp, 1);
            }
        }
        assert_eq!(monster_hp(1, Role::Wrecker, Rank::Boss), Ok(132));
    }

    #[test]
    fn creating_new_monsters_rank_does_not_change_defenses_or_attacks() {
        let standard = build_monster(12, Role::Spoiler, Rank::Standard, false).unwrap();
        for rank in RANKS {
            let m = build_monster(12, Role::Spoiler, rank, true).unwrap();
            assert_eq!(
                (
                    m.ac,
                    m.fortitude,
                    m.reflex,
                    m.will,
                    m.attack_vs_ac,
                    m.attack_vs_other
                ),
                (
                    standard.ac,
                    standard.fortitude,
                    standard.reflex,
                    standard.will,
                    standard.attack_vs_ac,
                    standard.attack_vs_other
                )
            );
            assert!(m.leader);
            assert_eq!(m.xp, monster_xp(12, rank).ok());
        }
    }

    #[test]
    fn action_points_elite_and_boss_only_one_per_round() {
        let ap = |rank| build_monster(4, Role::Striker, rank, false).unwrap();
        assert_eq!(ap(Rank::Mook).action_points, 0);
        assert_eq!(ap(Rank::Standard).action_points, 0);
        assert_eq!(ap(Rank::Elite).action_points, 1);
        assert_eq!(ap(Rank::Boss).action_points, 2);
        assert_eq!(ap(Rank::Standard).max_action_points_per_round, 0);
        assert_eq!(ap(Rank::Elite).max_action_points_per_round, 1);
        assert_eq!(ap(Rank::Boss).max_action_points_per_round, 1);
    }

    #[test]
    fn build_monster_level_bounds_and_xp_beyond_table() {
        assert!(build_monster(0, Role::Archer, Rank::Standard, false).is_err());
        assert!(build_monster(36, Role::Archer, Rank::Standard, false).is_err());
        assert!(build_monster(i32::MIN, Role::Archer, Rank::Boss, false).is_err());
        assert!(build_monster(i32::MAX, Role::Archer, Rank::Boss, false).is_err());
        let m30 = build_monster(30, Role::Archer, Rank::Boss, false).unwrap();
        assert_eq!(m30.xp, Some(80_000));
        let m31 = build_monster(31, Role::Archer, Rank::Boss, false).unwrap();
        assert_eq!(m31.xp, None);
        assert_eq!(m31.hp, (21 + 4 * 31) * 4);
    }

    #[test]
    fn rank_challenge_table() {
        assert_eq!(Rank::Mook.heroes_challenged(), None);
        assert_eq!(Rank::Standard.heroes_challenged(), Some((1, 1)));
        assert_eq!(Rank::Elite.heroes_challenged(), Some((2, 3)));
        assert_eq!(Rank::Boss.heroes_challenged(), Some((4, 5)));
    }

    // --- Abilities, skills, initiative ----------------------------------

    #[test]
    fn ability_scores_and_modifiers_table_matches_text() {
        let Some(text) = rules_text() else { return };
        let rows = section(&text, "Score Modifier", |l| l.is_empty());
        assert_eq!(rows.len(), 16);
        let mut covered = 0;
        for line in rows {
            let cells: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(cells.len(), 2, "{line}");
            let modifier = num(cells[1]);
            let (lo, hi) = match cells[0].split_once('-') {
                Some((lo, hi)) => (num(lo), num(hi)),
                None => (num(cells[0]), num(cells[0])),
            };
            for score in lo..=hi {
                assert_eq!(ability_modifier(score), Ok(modifier), "score {score}");
                covered += 1;
            }
        }
        assert_eq!(covered, 30);
    }

    #[test]
    fn ability_scores_and_modifiers_bounds() {
        assert_eq!(ability_modifier(1), Ok(-5));
        assert_eq!(ability_modifier(10), Ok(0));
        assert_eq!(ability_modifier(11), Ok(0));
        assert_eq!(ability_modifier(30), Ok(10));
        assert_eq!(ability_modifier(33), Ok(11));
        assert_eq!(
            ability_modifier(0),
            Err(TableError::AbilityScoreOutOfRange { score: 0 })
        );
        assert!(ability_modifier(i32::MIN).is_err());
        assert_eq!(ability_modifier(i32::MAX), Ok((i32::MAX - 10) / 2));
    }

    #[test]
    fn creating_new_monsters_abilities_skills_initiative() {
        // Level 7, Str 18 (+4 base), Dex 13 (+1 base), Wis 8 (-1 base).
        assert_eq!(monster_ability_modifier(7, 18), Ok(7));
        assert_eq!(monster_ability_modifier(7, 8), Ok(2));
        assert_eq!(monster_initiative(7, 1), Ok(4));
        assert_eq!(monster_trained_skill(7, 4), Ok(12));
        assert_eq!(monster_untrained_perception(7, -1), Ok(2));
        assert_eq!(monster_initiative(1, 3), Ok(3));
        assert_eq!(monster_trained_skill(35, 0), Ok(22));
        assert!(monster_ability_modifier(0, 10).is_err());
        assert!(monster_ability_modifier(5, 0).is_err());
        assert!(monster_initiative(36, 0).is_err());
        assert!(monster_trained_skill(0, 0).is_err());
        assert!(monster_untrained_perception(36, 0).is_err());
        assert_eq!(half_level(1), 0);
        assert_eq!(half_level(35), 17);
    }

    #[test]
    fn the_skills_table_matches_text() {
        let Some(text) = rules_text() else { return };
        let rows = section(&text, "Skill Ability Armor Check Penalty", |l| l.is_empty());
        assert_eq!(rows.len(), SKILLS.len());
        for (line, skill) in rows.iter().zip(SKILLS) {
            let info = skill.info();
            let abbrev = match info.ability {
                Ability::Strength => "Str",
                Ability::Constitution => "Con",
                Ability::Dexterity => "Dex",
                Ability::Intelligence => "Int",
                Ability::Wisdom => "Wis",
                Ability::Charisma => "Cha",
            };
            let mut expected = format!("{} {abbrev}", info.name);
            if info.armor_check_penalty {
                expected.push_str(" Yes");
            }
            assert_eq!(*line, expected);
        }
    }

    #[test]
    fn the_skills_lookup() {
        for skill in SKILLS {
            assert_eq!(skill.info().skill, skill);
        }
        assert_eq!(Skill::SleightOfHand.name(), "Sleight of Hand");
        assert_eq!(Skill::Stealth.ability(), Ability::Dexterity);
        assert!(Skill::Endure.armor_check_penalty());
        assert!(!Skill::Perception.armor_check_penalty());
    }

    // --- Ability and skill checks ---------------------------------------

    #[test]
    fn typical_difficulty_classes_match_text() {
        let Some(text) = rules_text() else { return };
        let rows = section(&text, "Difficulty DC", |l| l.is_empty());
        let expected: Vec<String> = [Difficulty::Easy, Difficulty::Moderate, Difficulty::Hard]
            .iter()
            .map(|d| format!("{d:?} {}", typical_dc(*d)))
            .collect();
        assert_eq!(rows, expected);
    }

    #[test]
    fn maintaining_difficulties_at_higher_levels_example() {
        assert_eq!(minimum_dc_for_level(1, Difficulty::Easy), Ok(8));
        assert_eq!(minimum_dc_for_level(21, Difficulty::Easy), Ok(18));
        assert_eq!(minimum_dc_for_level(3, Difficulty::Hard), Ok(19));
        assert!(minimum_dc_for_level(0, Difficulty::Easy).is_err());
        assert!(minimum_dc_for_level(36, Difficulty::Hard).is_err());
    }

    // --- Weapons --------------------------------------------------------

    const PROPERTY_LABELS: [(&str, WeaponProperty); 6] = [
        ("Thrown (Light)", P::ThrownLight),
        ("Thrown (Heavy)", P::ThrownHeavy),
        ("Improved Critical", P::ImprovedCritical),
        ("Reach", P::Reach),
        ("Loading (Free)", P::LoadingFree),
        ("Loading (Swift)", P::LoadingSwift),
    ];

    fn group_label(label: &str) -> WeaponGroup {
        match label {
            "Axe" => G::Axes,
            "Bow" => G::Bows,
            "Crossbow" => G::Crossbows,
            "Flail & Chain" => G::FlailsAndChains,
            "Heavy Blade" => G::HeavyBlades,
            "Light Blade" => G::LightBlades,
            // Text gap: "Mace & Hammer" and "Mace" read as Maces and Clubs.
            "Mace & Club" | "Mace & Hammer" | "Mace" => G::MacesAndClubs,
            "Pick & Hammer" => G::PicksAndHammers,
            "Polearm" => G::Polearms,
            "Sling" => G::Slings,
            "Spear & Lance" => G::SpearsAndLances,
            "Staff" => G::Staffs,
            other => panic!("unknown group label {other:?}"),
        }
    }

    /// Splits the trailing "Properties Group" text of a weapon row.
    fn properties_and_groups(mut rest: &str) -> (Vec<WeaponProperty>, Vec<WeaponGroup>) {
        let mut properties = Vec::new();
        'outer: loop {
            rest = rest.trim_start_matches([',', ' ']);
            for (label, property) in PROPERTY_LABELS {
                if let Some(after) = rest.strip_prefix(label) {
                    properties.push(property);
                    rest = after;
                    continue 'outer;
                }
            }
            break;
        }
        let groups = rest.split(", ").map(group_label).collect();
        (properties, groups)
    }

    fn parse_dice(token: &str) -> Dice {
        let (count, sides) = token.split_once('d').unwrap();
        Dice::new(num(count), num(sides))
    }

    fn parse_weapon_row(line: &str, category: WeaponCategory, kind: WeaponKind) -> Weapon {
        let tokens: Vec<&str> = line.split(' ').collect();
        let hands_at = tokens
            .iter()
            .position(|t| matches!(*t, "Side" | "1" | "2"))
            .unwrap();
        let name = tokens[..hands_at].join(" ");
        let hands = match tokens[hands_at] {
            "Side" => Side,
            "1" => One,
            _ => Two,
        };
        let mut i = hands_at + 1;
        let proficiency_bonus = num(tokens[i]);
        let damage = parse_dice(tokens[i + 1]);
        i += 2;
        let mut range = None;
        if kind == WeaponKind::Ranged {
            let (short, long) = tokens[i].split_once('/').unwrap();
            range = Some(rng(num(short), num(long)));
            i += 1;
        }
        let cost_gp = num(tokens[i]);
        let weight_lb = num(tokens[i + 1]);
        let (properties, groups) = properties_and_groups(&tokens[i + 2..].join(" "));
        if properties.contains(&P::ThrownLight) || properties.contains(&P::ThrownHeavy) {
            range = Some(THROWN_RANGE);
        }
        Weapon {
            name: Box::leak(name.into_boxed_str()),
            category,
            kind,
            hands,
            proficiency_bonus,
            damage,
            range,
            cost_gp,
            weight_lb,
            properties: Box::leak(properties.into_boxed_slice()),
            groups: Box::leak(groups.into_boxed_slice()),
        }
    }

    #[test]
    fn weapons_tables_match_text_row_by_row() {
        let Some(text) = rules_text() else { return };
        let mut parsed = Vec::new();
        let mut kind = None;
        let mut category = Simple;
        for line in text.lines().map(str::trim) {
            if line.starts_with("Table") && line.ends_with("Melee Weapons") {
                kind = Some(WeaponKind::Melee);
                continue;
            }
            if line.starts_with("Table") && line.ends_with("Ranged Weapons") {
                kind = Some(WeaponKind::Ranged);
                continue;
            }
            let Some(k) = kind else { continue };
            if line.is_empty() {
                break;
            }
            match line {
                "Simple Weapons" | "Simple" => category = Simple,
                "Martial Weapons" | "Martial" => category = Martial,
                "Exotic Weapons" | "Exotic" => category = Exotic,
                _ if line.starts_with("Type ") || line.starts_with("Name ") => {}
                _ => parsed.push(parse_weapon_row(line, category, k)),
            }
        }
        assert_eq!(parsed.len(), WEAPONS.len());
        for (from_text, ours) in parsed.iter().zip(WEAPONS.iter()) {
            assert_eq!(from_text, ours);
        }
    }

    #[test]
    fn weapons_lookup_and_fields() {
        let longsword = weapon("longsword").unwrap();
        assert_eq!(longsword.category, Martial);
        assert_eq!(longsword.kind, WeaponKind::Melee);
        assert_eq!(longsword.proficiency_bonus, 3);
        assert_eq!(longsword.damage.to_string(), "1d8");
        assert_eq!(longsword.range, None);
        assert!(longsword.in_group(G::HeavyBlades));
        let handaxe = weapon("Handaxe").unwrap();
        assert_eq!(handaxe.range, Some(THROWN_RANGE));
        assert!(handaxe.has_property(P::ThrownHeavy));
        let longbow = weapon("Longbow").unwrap();
        assert_eq!(
            longbow.range,
            Some(WeaponRange {
                short: 20,
                long: 40
            })
        );
        assert!(longbow.has_property(P::LoadingFree));
        assert!(weapon("Vorpal sword").is_none());
        assert_eq!(improvised_weapon_damage(false), Dice::new(1, 4));
        assert_eq!(improvised_weapon_damage(true), Dice::new(1, 8));
    }

    #[test]
    fn increased_weapon_die_table_matches_text() {
        let Some(text) = rules_text() else { return };
        let rows = section(&text, "Die Increases to", |l| l.starts_with("Table"));
        assert_eq!(rows.len(), 4);
        for line in rows {
            let cells: Vec<&str> = line.split(' ').collect();
            let from = parse_dice(cells[0]);
            let expected = match cells.as_slice() {
                [_, to] => DieIncrease::To(parse_dice(to)),
                [_, a, "or", b] => DieIncrease::Either(parse_dice(a), parse_dice(b)),
                _ => panic!("unexpected row {line:?}"),
            };
            assert_eq!(increase_die(from), Some(expected), "{line}");
        }
    }

    #[test]
    fn increasing_weapon_damage_dice() {
        assert_eq!(
            increase_die(Dice::new(1, 4)),
            Some(DieIncrease::To(Dice::new(1, 6)))
        );
        assert_eq!(
            increase_die(Dice::new(1, 6)),
            Some(DieIncrease::To(Dice::new(1, 8)))
        );
        assert_eq!(
            increase_die(Dice::new(1, 8)),
            Some(DieIncrease::To(Dice::new(1, 10)))
        );
        assert_eq!(
            increase_die(Dice::new(1, 10)),
            Some(DieIncrease::Either(Dice::new(2, 6), Dice::new(1, 12)))
        );
        assert_eq!(increase_die(Dice::new(1, 12)), None);
        assert_eq!(increase_die(Dice::new(2, 8)), None);
        assert_eq!(increase_die(Dice::new(0, 0)), None);
    }

    // --- Armor ----------------------------------------------------------

    #[test]
    fn armor_and_shields_table_matches_text() {
        let Some(text) = rules_text() else { return };
        let lines = section(
            &text,
            "Name Type Base AC Armor Check Penalty Speed Penalty Cost Weight",
            |l| l.is_empty(),
        );
        let rows: Vec<&str> = lines
            .into_iter()
            .filter(|l| !l.starts_with("Name "))
            .collect();
        assert_eq!(rows.len(), ARMORS.len());
        for (line, ours) in rows.iter().zip(ARMORS.iter()) {
            let tokens: Vec<&str> = line
                .split(' ')
                .filter(|t| !matches!(*t, "gp" | "lb."))
                .collect();
            let type_at = tokens
                .iter()
                .position(|t| matches!(*t, "Light" | "Heavy" | "Shield"))
                .unwrap();
            // "Light shield" has "Light" in its name; the type follows it.
            let type_at = if tokens[type_at + 1] == "shield" {
                type_at + 2
            } else {
                type_at
            };
            assert_eq!(tokens[..type_at].join(" "), ours.name);
            let armor_type = match tokens[type_at] {
                "Light" => ArmorType::Light,
                "Heavy" => ArmorType::Heavy,
                _ => ArmorType::Shield,
            };
            assert_eq!(armor_type, ours.armor_type, "{line}");
            let numbers: Vec<i32> = tokens[type_at + 1..].iter().map(|t| num(t)).collect();
            let n = numbers.len();
            assert_eq!(numbers[0], ours.ac, "{line}");
            assert_eq!(numbers[n - 2], ours.cost_gp, "{line}");
            assert_eq!(numbers[n - 1], ours.weight_lb, "{line}");
            let ours_penalties: Vec<i32> = [ours.check_penalty, ours.speed_penalty]
                .into_iter()
                .filter(|p| *p != 0)
                .collect();
            assert_eq!(numbers[1..n - 2], ours_penalties[..], "{line}");
        }
    }

    #[test]
    fn armor_lookup_and_interpreted_penalties() {
        let plate = armor_by_name("plate armor").unwrap();
        assert_eq!(
            (plate.ac, plate.check_penalty, plate.speed_penalty),
            (18, -2, -1)
        );
        let hide = armor_by_name("Hide armor").unwrap();
        assert_eq!((hide.check_penalty, hide.speed_penalty), (-1, 0));
        let scale = armor_by_name("Scale armor").unwrap();
        assert_eq!((scale.check_penalty, scale.speed_penalty), (0, -1));
        let heavy_shield = armor_by_name("Heavy shield").unwrap();
        assert_eq!(heavy_shield.armor_type, ArmorType::Shield);
        assert_eq!((heavy_shield.ac, heavy_shield.check_penalty), (2, -2));
        assert!(armor_by_name("Mithral shirt").is_none());
    }

    // --- Size -----------------------------------------------------------

    #[test]
    fn size_categories_space_matches_text() {
        let Some(text) = rules_text() else { return };
        let rows = section(&text, "Size Categories Space Examples", |l| l.is_empty());
        let sizes = [
            Size::Tiny,
            Size::Small,
            Size::Medium,
            Size::Large,
            Size::Huge,
            Size::Gargantuan,
        ];
        assert_eq!(rows.len(), sizes.len());
        for (line, size) in rows.iter().zip(sizes) {
            let cells: Vec<&str> = line.split(' ').collect();
            assert_eq!(cells[0], format!("{size:?}"));
            assert_eq!(cells[1], cells[3], "square spaces");
            let side_half_squares = match cells[1] {
                "0.5" => 1,
                n => num(n) * 2,
            };
            assert_eq!(size.space_half_squares(), side_half_squares, "{line}");
        }
    }

    // --- The builder, table-driven ---------------------------------------

    /// The text's damage cell `cell` ("1d10+3" or "5") with `bonus` added to its modifier.
    fn plus_bonus(cell: &str, bonus: i32) -> String {
        match cell.split_once('+') {
            Some((dice, modifier)) => format!("{dice}+{}", num(modifier) + bonus),
            None => (num(cell) + bonus).to_string(),
        }
    }

    /// orcus-basic-rules.txt § Creating new monsters (Role blocks; "HP: For elites, double HP.
    /// For bosses, quadruple it. Mooks only ever have 1 HP."; § Powers: wrecker bonus, half for
    /// mooks), § Table – Monster Level and Damage, § Experience Points: for every role × level
    /// (1–35; XP to 30) × rank, with and without the leader rider, the builder's stat block and
    /// power damage equal the numbers read from the text itself.
    #[test]
    fn the_builder_reproduces_the_texts_tables_for_every_role_level_and_rank_creating_new_monsters()
    {
        let Some(text) = rules_text() else { return };
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let start = lines
            .iter()
            .position(|l| *l == "Creating new monsters")
            .unwrap();
        assert!(text.contains(
            "HP: For elites, double HP. For bosses, quadruple it. Mooks only ever have 1 HP."
        ));
        // Role blocks: [ac, fort, ref, will, hp base, hp per level, vs AC, vs F/R/W].
        let names = [
            "Archer", "Blocker", "Skulker", "Spoiler", "Striker", "Wrecker",
        ];
        let mut blocks = Vec::new();
        for name in names {
            let at = start + lines[start..].iter().position(|l| *l == name).unwrap();
            let vs_ac = at + lines[at..].iter().position(|l| *l == "vs AC").unwrap();
            let vs_frw = at + lines[at..].iter().position(|l| *l == "vs F/R/W").unwrap();
            let mut b = integers(lines[at + 1]);
            b.extend(integers(lines[at + 2]));
            b.extend(integers(lines[at + 3]));
            b.extend(integers(lines[vs_ac + 1]));
            b.extend(integers(lines[vs_frw + 1]));
            assert_eq!(b.len(), 8, "{name}: {b:?}");
            blocks.push(b);
        }
        let damage_rows = section(&text, "Wrecker Bonus Damage", |l| !starts_with_digit(l));
        assert_eq!(damage_rows.len(), 35);
        let xp_rows = section(&text, "Level Mook Standard Elite Boss", |l| l == "Size");
        assert_eq!(xp_rows.len(), 30);
        let kinds = [
            DamageKind::Mook,
            DamageKind::AtWillSingle,
            DamageKind::AtWillMulti,
            DamageKind::SurgeSingle,
            DamageKind::SurgeMulti,
        ];
        let mut checked = 0;
        for (role, b) in ROLES.iter().zip(&blocks) {
            for level in 1..=MAX_MONSTER_LEVEL {
                let damage: Vec<&str> = damage_rows[(level - 1) as usize]
                    .split_whitespace()
                    .collect();
                assert_eq!(num(damage[0]), level);
                let wrecker = num(damage[6].trim_start_matches('+'));
                let xp_cells: Option<Vec<&str>> = xp_rows
                    .get((level - 1) as usize)
                    .map(|r| r.split_whitespace().collect());
                for (column, rank) in RANKS.iter().enumerate() {
                    for leader in [false, true] {
                        let m = build_monster(level, *role, *rank, leader).unwrap();
                        let standard_hp = b[4] + b[5] * level;
                        let hp = match rank {
                            Rank::Mook => 1,
                            Rank::Standard => standard_hp,
                            Rank::Elite => standard_hp * 2,
                            Rank::Boss => standard_hp * 4,
                        };
                        assert_eq!(
                            (
                                m.ac,
                                m.fortitude,
                                m.reflex,
                                m.will,
                                m.hp,
                                m.attack_vs_ac,
                                m.attack_vs_other
                            ),
                            (
                                b[0] + level,
                                b[1] + level,
                                b[2] + level,
                                b[3] + level,
                                hp,
                                b[6] + level,
                                b[7] + level
                            ),
                            "{role:?} {level} {rank:?}"
                        );
                        assert_eq!(
                            (m.level, m.role, m.rank, m.leader),
                            (level, *role, *rank, leader)
                        );
                        let xp = xp_cells.as_ref().map(|c| num(c[column + 1]));
                        assert_eq!(m.xp, xp, "{role:?} {level} {rank:?}");
                        let bonus = match (role, rank) {
                            (Role::Wrecker, Rank::Mook) => wrecker / 2,
                            (Role::Wrecker, _) => wrecker,
                            _ => 0,
                        };
                        for (kind, cell) in kinds.iter().zip(&damage[1..6]) {
                            assert_eq!(
                                power_damage(level, *kind, *role, *rank)
                                    .unwrap()
                                    .to_string(),
                                plus_bonus(cell, bonus),
                                "{role:?} {level} {rank:?} {kind:?}"
                            );
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 6 * 35 * 4 * 2);
        // Abilities, Skills, Initiative (the sentences of § Creating new monsters): with the
        // base modifiers of Table – Ability Scores and Modifiers, every level's modifier,
        // trained skill, untrained Perception and initiative, for scores 1-30.
        for sentence in [
            "A monster\u{2019}s modifier for each ability is equal to the base ability modifier, plus half its level (rounded down).",
            "They have a bonus of 5 + half level + the relevant ability modifier.",
            "If they are not trained, the modifier is half monster level + Wisdom modifier.",
            "Half the monster's level plus its Dexterity modifier.",
        ] {
            assert!(text.contains(sentence), "{sentence}");
        }
        let mut base = Vec::new();
        for line in section(&text, "Score Modifier", |l| l.is_empty()) {
            let cells: Vec<&str> = line.split_whitespace().collect();
            let (lo, hi) = match cells[0].split_once('-') {
                Some((lo, hi)) => (num(lo), num(hi)),
                None => (num(cells[0]), num(cells[0])),
            };
            base.extend((lo..=hi).map(|score| (score, num(cells[1]))));
        }
        assert_eq!(base.len(), 30);
        for level in 1..=MAX_MONSTER_LEVEL {
            let half = level.div_euclid(2);
            for &(score, m) in &base {
                assert_eq!(monster_ability_modifier(level, score), Ok(m + half));
                assert_eq!(monster_trained_skill(level, m), Ok(5 + half + m));
                assert_eq!(monster_untrained_perception(level, m), Ok(half + m));
                assert_eq!(monster_initiative(level, m), Ok(half + m));
            }
        }
    }
}
