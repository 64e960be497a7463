//! Five Torches Deep (`five-torches-deep-combat.txt`): the wire types only that ruleset uses —
//! ability scores, advantage, the injury table's results, morale and leaving the battle, and the
//! optional `ftd` blocks of the state (null in the other rulesets).

use crate::ids::CombatantId;
use serde::{Deserialize, Serialize};

/// One of the six abilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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

/// The six ability scores (not modifiers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbilityScores {
    /// Strength.
    pub str: i32,
    /// Dexterity.
    pub dex: i32,
    /// Constitution.
    pub con: i32,
    /// Intelligence.
    pub int: i32,
    /// Wisdom.
    pub wis: i32,
    /// Charisma.
    pub cha: i32,
}

impl AbilityScores {
    /// The score of one ability.
    pub fn get(&self, a: Ability) -> i32 {
        match a {
            Ability::Str => self.str,
            Ability::Dex => self.dex,
            Ability::Con => self.con,
            Ability::Int => self.int,
            Ability::Wis => self.wis,
            Ability::Cha => self.cha,
        }
    }

    /// The score of one ability, mutably.
    pub fn get_mut(&mut self, a: Ability) -> &mut i32 {
        match a {
            Ability::Str => &mut self.str,
            Ability::Dex => &mut self.dex,
            Ability::Con => &mut self.con,
            Ability::Int => &mut self.int,
            Ability::Wis => &mut self.wis,
            Ability::Cha => &mut self.cha,
        }
    }
}

/// Advantage on a check: roll two d20s and keep the higher (advantage) or the lower
/// (disadvantage); both at once cancel out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Advantage {
    /// A single d20.
    #[default]
    None,
    /// Two d20s, the higher counts.
    Advantage,
    /// Two d20s, the lower counts.
    Disadvantage,
}

/// A result of the injury table (1d20 when an incapacitated PC is stabilized).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Injury {
    /// 1: a false hope, the PC is dead.
    Dead,
    /// 2–7: the PC loses 1d6 points of an ability score (the amount rolled).
    AbilityLoss {
        /// Which score.
        ability: Ability,
        /// Points lost (1d6).
        amount: i32,
    },
    /// 8–13: the PC loses a body part (the GM's choice, narrated).
    BodyPart,
    /// 14–19: disadvantage on all checks until rest.
    DisadvantageUntilRest,
    /// 20: standing — the PC instantly heals 1d8 hit points.
    Standing {
        /// Hit points healed (1d8).
        healed: i32,
    },
}

/// How a combatant left the battle (it no longer acts or counts for the end of the battle).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Departure {
    /// Failed morale and fled.
    Fled,
    /// Failed morale and surrendered.
    Surrendered,
    /// Retreated successfully (a PC's retreat action).
    Escaped,
}

/// What a failed morale check does (the GM's choice): flee or surrender.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoraleOutcome {
    /// They flee.
    #[default]
    Flee,
    /// They surrender.
    Surrender,
}

/// Why the server proposes a morale check to the GM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoraleTrigger {
    /// The battle begins.
    BattleStart,
    /// The first combatant was killed.
    FirstKill,
    /// A leader (or expert) was killed.
    LeaderKilled,
    /// Old-School Essentials § When to Check Morale: half the side killed or incapacitated
    /// (the first death of a side is `first_kill`).
    HalfIncapacitated,
}

/// A Five Torches Deep combatant's own state (`ftd` on a combatant).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FtdCombatant {
    /// Current ability scores (injuries lower them).
    pub abilities: AbilityScores,
    /// Proficiency bonus.
    pub proficiency: i32,
    /// Class (heroes).
    pub class: Option<String>,
    /// Hit dice (monsters).
    pub hd: Option<i32>,
    /// Morale bonus (monsters: by HD).
    pub morale_bonus: i32,
    /// Adds its proficiency bonus to morale checks.
    pub morale_proficient: bool,
    /// A leader or expert: its death proposes a morale check to its side.
    pub leader: bool,
    /// Advantage the GM granted to its next d20 roll (attack or check).
    pub granted: Advantage,
    /// Disadvantage on all checks until rest (injury 14–19).
    pub disadvantage_until_rest: bool,
    /// Injuries taken (the injury table's results).
    pub injuries: Vec<Injury>,
    /// The round in which it was incapacitated (0 hp), while it is.
    pub fell_round: Option<u32>,
    /// Left the battle: fled, surrendered or escaped.
    pub departed: Option<Departure>,
}

/// Five Torches Deep battle state (`ftd` on the session).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FtdBattle {
    /// A PC retreating, waiting for the GM's ruling (`resolve_retreat`).
    pub retreat: Option<CombatantId>,
    /// The first kill's morale check was proposed.
    pub kill_proposed: bool,
}
