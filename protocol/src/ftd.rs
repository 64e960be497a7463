//! Five Torches Deep (`five-torches-deep-combat.txt`): the wire types only that ruleset uses —
//! ability scores, advantage, the injury table's results, morale and leaving the battle, and the
//! optional `ftd` blocks of the state (null in the other rulesets).

use crate::ids::CombatantId;
use serde::{Deserialize, Serialize};

/// One of the six abilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

impl Ability {
    /// Every ability, in the texts' order.
    pub const ALL: [Ability; 6] = [
        Ability::Str,
        Ability::Dex,
        Ability::Con,
        Ability::Int,
        Ability::Wis,
        Ability::Cha,
    ];

    /// The abbreviation the texts print (`STR`): how a roll's modifiers name the ability.
    pub fn abbrev(self) -> &'static str {
        match self {
            Ability::Str => "STR",
            Ability::Dex => "DEX",
            Ability::Con => "CON",
            Ability::Int => "INT",
            Ability::Wis => "WIS",
            Ability::Cha => "CHA",
        }
    }
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum MoraleTrigger {
    /// The battle begins.
    BattleStart,
    /// The first combatant was killed.
    FirstKill,
    /// A leader (or expert) was killed.
    LeaderKilled,
    /// The PC they follow retreats (§ Retreat: "Any retainers or NPCs following a PC who
    /// retreats must immediately make a morale check at disadvantage").
    PcRetreated,
    /// Old-School Essentials § When to Check Morale: half the side killed or incapacitated
    /// (the first death of a side is `first_kill`).
    HalfIncapacitated,
}

/// A Five Torches Deep combatant's own state (`ftd` on a combatant).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// Load carried besides coins (§ Movement Actions).
    pub load: i32,
    /// Coins carried (500 coins are a load).
    pub coins: i32,
    /// Speed in feet before load and exhaustion (usually 30).
    pub base_speed: i32,
    /// Current speed in feet: 5′ less per load above STR; 0′ when exhausted.
    pub speed: i32,
    /// Loads above the STR score (disadvantage on all checks while above 0).
    pub over_load: i32,
    /// Sees in darkness (§ Darksight): darkness's disadvantages are its advantages.
    pub darksight: bool,
    /// The light the GM set where this combatant is, overriding the scene's.
    pub light: Option<LightLevel>,
    /// The lit torch or lantern it carries.
    pub carried: Option<CarriedLight>,
    /// In stealth: cannot be targeted directly; ends when it attacks.
    pub hidden: bool,
    /// Exhausted: disadvantage on all checks and 0′ speed, until a safe rest.
    pub exhausted: bool,
    /// Game seconds adventured since the last rest (resilience is the CON score in hours).
    pub adventured: u32,
    /// The disease, poison or venom it is infected by (§ Corruptions).
    #[serde(default)]
    pub corruption: Option<Corruption>,
    /// The effect it concentrates on (§ Quick Actions: maintaining concentration is a quick
    /// action; § Retreat: a retreat halts it).
    #[serde(default)]
    pub concentration: Option<Concentration>,
    /// § Treasure: experience earned (gold and captured magic items at fair value). Absent in
    /// states of record format 1 (`protocol/README.md`, "The session's log").
    #[serde(default, with = "crate::format::since_2")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub xp: u32,
    /// § Treasure: the captured magic items it holds, with their fair value (selling one
    /// brings gold but no experience).
    #[serde(default, with = "crate::format::since_2")]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<MagicItem>"))]
    pub magic_items: Vec<MagicItem>,
    /// § Treasure: its carried loot was taken (an enemy is looted once).
    #[serde(default, with = "crate::format::since_2")]
    #[cfg_attr(feature = "schema", schemars(with = "bool"))]
    pub looted: bool,
}

/// § Treasure: a captured magic item and its fair value in gold pieces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MagicItem {
    /// Its name (1–40 characters).
    pub name: String,
    /// Fair value, gp.
    pub value: u32,
}

/// § Treasure: where treasure came from, which decides the experience it gives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TreasureSource {
    /// An enemy's carried loot, 1d20 gp per HD (rolled): gold, and as much experience.
    Loot {
        /// The enemy looted.
        enemy: CombatantId,
    },
    /// A hoard the GM gives (chests, piles, altars): its coins, and experience for its gold
    /// value.
    Hoard,
    /// Inherited or unearned treasure: coins, no experience.
    Unearned,
    /// A captured magic item: experience equal to its fair value, no coins.
    MagicItem {
        /// The item.
        item: MagicItem,
    },
    /// A magic item sold: gold, no experience ("not counted toward the PCs' XP").
    Sale {
        /// The item's name.
        name: String,
    },
}

/// § Overland Travel: the ground, which sets the miles a day (dim light counts as difficult
/// and darkness as harsh).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TravelTerrain {
    /// Open terrain: the full distance.
    #[default]
    Open,
    /// Difficult terrain (also harsh weather, snow or heat, as the GM rules): half.
    Difficult,
    /// Harsh terrain: a quarter.
    Harsh,
}

/// § Overland Travel: how the party moves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TravelPace {
    /// The full distance.
    #[default]
    Normal,
    /// Moving tactically: a quarter less.
    Tactical,
    /// Moving stealthily: half.
    Stealthy,
}

/// § Overwater Travel: the vessel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Vessel {
    /// A boat on smooth water (a river or lake): 3 miles an hour; travel turns daily.
    Boat,
    /// A ship at sea: 5 miles an hour; travel turns weekly.
    Ship,
}

/// § Overwater Travel: the wind or current.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "FtdCurrent"))]
#[serde(rename_all = "snake_case")]
pub enum Current {
    /// Neither helps nor hinders.
    #[default]
    Neutral,
    /// A favorable wind or current: double speed.
    Favorable,
    /// An unfavorable wind or current: half speed.
    Unfavorable,
}

/// How the party traveled (`traveled`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Journey {
    /// § Overland Travel, on foot.
    Overland {
        /// The terrain as it counts: the worse of the ground and the light.
        terrain: TravelTerrain,
        /// The pace.
        pace: TravelPace,
        /// The slowest PC, whose pace the party keeps.
        slowest: CombatantId,
    },
    /// § Overwater Travel.
    Overwater {
        /// The vessel.
        vessel: Vessel,
        /// The wind or current.
        current: Current,
    },
}

/// A concentration a combatant holds (`concentration` on `ftd`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Concentration {
    /// The effect, as the player named it.
    pub effect: String,
    /// Its quick action maintained it this turn (started or kept); unmaintained at the end of
    /// its turn, it lapses.
    pub maintained: bool,
}

/// Why a concentration ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ConcentrationEnd {
    /// § Retreat: "Concentration effects immediately halt once the PC retreats".
    Retreat,
    /// § Quick Actions: the turn ended without the quick action maintaining it.
    Lapsed,
    /// The combatant let it go (`end_concentration`).
    Dropped,
    /// Incapacitated or dead (0 hp: "unable to act" — Fray's interpretation).
    Incapacitated,
    /// Fled or surrendered (left the battle; Fray's interpretation).
    LeftBattle,
}

/// Coins per load (§ Treasure: "500 coins per load"); fewer than 500 coins weigh nothing
/// (Fray's reading: only whole loads count).
pub const COINS_PER_LOAD: i32 = 500;

impl FtdCombatant {
    /// Total load: items plus a load per 500 coins.
    pub fn total_load(&self) -> i32 {
        self.load.max(0) + self.coins.max(0) / COINS_PER_LOAD
    }

    /// Recomputes `over_load` and `speed` (§ Movement Actions: "Each load you carry above your
    /// STR score reduces your speed by 5′ and forces disadvantage on all checks"; § Exhaustion:
    /// "their movement speed becomes 0′"). Called whenever STR, load, coins or exhaustion change.
    pub fn refresh_encumbrance(&mut self) {
        self.over_load = (self.total_load() - self.abilities.str).max(0);
        self.speed = if self.exhausted {
            0
        } else {
            (self.base_speed - 5 * self.over_load).max(0)
        };
    }

    /// Disadvantage on all checks from load above STR, exhaustion or an injury until rest.
    pub fn hindered(&self) -> bool {
        self.over_load > 0 || self.exhausted || self.disadvantage_until_rest
    }
}

/// Five Torches Deep battle state (`ftd` on the session).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FtdBattle {
    /// A PC retreating, waiting for the GM's ruling (`resolve_retreat`).
    pub retreat: Option<CombatantId>,
    /// The first kill's morale check was proposed.
    pub kill_proposed: bool,
    /// The scene's light (the GM's `set_light`; well lit unless set).
    pub light: LightLevel,
    /// Game time since the session began, in seconds (a round is 6, a travel turn 3600).
    pub clock: u32,
    /// Travel turns rolled so far.
    pub travel_turns: u32,
    /// The stealth DC the GM set (11 unless set).
    pub stealth_dc: Option<i32>,
    /// The time of day in seconds after midnight, once the GM rolled or set it (§ the time
    /// dice: `roll_time_dice`, `set_time`); game time advances it and it wraps at 24 hours.
    /// [`time_dice`] turns its hour into the dice faces the text describes.
    #[serde(default)]
    pub time_of_day: Option<u32>,
}

/// Seconds in a day: the time of day wraps at this.
pub const DAY_SECONDS: u32 = 24 * 3600;

/// The time of day `seconds` after `time_of_day` (both in seconds), wrapping at midnight.
pub fn later_in_day(time_of_day: u32, seconds: u32) -> u32 {
    (time_of_day % DAY_SECONDS + seconds % DAY_SECONDS) % DAY_SECONDS
}

/// What the GM rolls the time dice for (§ the time dice: "to randomly determine the hour of day
/// or the duration of an effect").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TimeDicePurpose {
    /// The hour of day: the sum of 1–4 dice, or a starting hour plus 1–2 dice.
    TimeOfDay,
    /// A duration in hours (the sum of 1–4 dice); the time of day does not change.
    Duration,
}

/// The time dice turned to show an hour (0–23; 0 is 24:00h): one die per quarter of the day,
/// each full quarter a 6 and the last die the hours into its quarter ("6, 1 is 07:00h, while
/// 6, 6, 6, 2 is 20:00h").
pub fn time_dice(hour: u32) -> Vec<u32> {
    let mut left = match hour % 24 {
        0 => 24,
        h => h,
    };
    let mut faces = Vec::new();
    while left > 6 {
        faces.push(6);
        left -= 6;
    }
    faces.push(left);
    faces
}

/// The quarter of the day an hour falls in, one per time die: `pre-dawn` (01–06h), `morning`
/// (07–12h), `afternoon` (13–18h) and `night` (19–24h).
pub fn day_quarter(hour: u32) -> &'static str {
    match time_dice(hour).len() {
        1 => "pre-dawn",
        2 => "morning",
        3 => "afternoon",
        _ => "night",
    }
}

/// § Light: the four levels of light.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum LightLevel {
    /// Black as pitch: no creature sees without darksight.
    Darkness,
    /// 30′ around a torch or a lantern; moonlight.
    Dim,
    /// Typical daylight; the default.
    #[default]
    WellLit,
    /// Blindingly bright.
    Brilliant,
}

/// A carried light source (§ Light: torches last 1 hour, lanterns 3; both cast 30′ of dim light).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
// Two enums are called `LightSource` (ftd, ose): one schema name each.
#[cfg_attr(feature = "schema", schemars(rename = "FtdLightSource"))]
#[serde(rename_all = "snake_case")]
pub enum LightSource {
    /// Burns 1 hour.
    Torch,
    /// Burns 3 hours.
    Lantern,
}

/// A lit light source a combatant carries, and how long it still burns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CarriedLight {
    /// Torch or lantern.
    pub source: LightSource,
    /// Game seconds it still burns.
    pub seconds_left: u32,
}

/// What a check is about, for the light rules (§ Light: the lists of what each level of light
/// favours or hinders).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum LightTask {
    /// Stealth, hiding.
    Stealth,
    /// Listening checks.
    Listening,
    /// Sight checks (impossible in darkness: rolled at disadvantage).
    Sight,
    /// A defense check.
    Defense,
    /// Predicting danger.
    Danger,
    /// Finesse, precision.
    Finesse,
    /// Tracking, trails.
    Tracking,
    /// Seeing movement.
    Movement,
}

/// § Travel Turn Table: the threat a travel turn's d20 gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Threat {
    /// 1: a terrible, immediate threat.
    Terrible,
    /// 2–10: something bad happens soon.
    Soon,
    /// 11–19: a threat worsens or draws near.
    Worsens,
    /// 20: nothing bad, maybe even good.
    Nothing,
}

/// § Rolling To Return: the GM's ruling on the path back to safety.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReturnPath {
    /// 1d6 damage per point under the DC.
    Dangerous,
    /// 1 load of equipment lost per point under the DC.
    Arduous,
}

/// § Chases: what the chase tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ChaseTerrain {
    /// Flat and open terrain: STR.
    Open,
    /// Uneven terrain: DEX.
    Uneven,
    /// Overland, over hours or days, where endurance matters: CON.
    Overland,
}

/// § Corruptions: an infection by a disease, poison or venom.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Corruption {
    /// What it is (the GM's name, e.g. `marsh fever`).
    pub name: String,
    /// The ability of its checks (usually CON).
    pub check: Ability,
    /// Their DC (usually 11).
    pub dc: i32,
    /// The ability score it damages by 1d6 a failed stage.
    pub damages: Ability,
    /// Stages ended so far.
    pub stage: u32,
}
