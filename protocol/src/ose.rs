//! Old-School Essentials (`ose-adventuring.txt`, the shared B/X core): the wire types only that
//! ruleset uses — saving-throw categories and tables, reactions, missile ranges, the session
//! options, declarations, and the optional `ose` blocks of the state (null elsewhere).

use crate::ids::Side;
use serde::{Deserialize, Serialize};

/// § Saving Throws, Categories: the five categories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SaveCategory {
    /// Death or poison (D).
    Death,
    /// Wands (W).
    Wands,
    /// Paralysis or petrification (P).
    Paralysis,
    /// Breath attacks (B).
    Breath,
    /// Spells, rods or staves (S).
    Spells,
}

/// § Monster Saving Throws: the row a monster saves on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SaveTable {
    /// The normal-human row (NH).
    NormalHuman,
    /// The row of these hit dice.
    Hd(u32),
}

/// § Monster Reaction Roll: the results of 2d6 (+ the speaker's CHA modifier).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Reaction {
    /// 2 or less: hostile, attacks.
    Hostile,
    /// 3–5: unfriendly, may attack.
    Unfriendly,
    /// 6–8: neutral, uncertain.
    Neutral,
    /// 9–11: indifferent, uninterested.
    Indifferent,
    /// 12 or more: friendly, helpful.
    Friendly,
}

/// § Missile Attacks, Range Modifiers: the range band of a missile attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum MissileRange {
    /// Short range: +1.
    Short,
    /// Medium range: ±0.
    Medium,
    /// Long range: −1.
    Long,
    /// Beyond long range: not possible.
    Beyond,
}

/// § Combat, Initiative, Ties: what a tied side-initiative roll does (a session option).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TieRule {
    /// Both sides roll again (the text's first choice; Fray's default).
    #[default]
    Reroll,
    /// Actions on both sides are resolved simultaneously: combatants slain in the round still
    /// act in it, and leave when it ends.
    Simultaneous,
}

/// § Attack Rolls: how the attack roll is compared (a session option).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum AttackProcedure {
    /// The attack matrix (the text's default).
    #[default]
    Matrix,
    /// § Attack Rolls Using THAC0 (optional rule): THAC0 − AC.
    Thac0Direct,
    /// § Ascending Armor Class (optional rule): total + attack bonus ≥ AAC.
    Ascending,
}

/// The session options of the B/X core, with the text's defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OseOptions {
    /// Tied initiative.
    #[serde(default)]
    pub ties: TieRule,
    /// Attack procedure.
    #[serde(default)]
    pub attack: AttackProcedure,
    /// How long light burns.
    #[serde(default)]
    pub light: LightRule,
    /// Side or individual initiative.
    #[serde(default)]
    pub initiative: InitiativeRule,
    /// § Invulnerabilities (optional rule): monsters harmed only by some attacks are also harmed
    /// by another invulnerable monster or a monster of 5 HD or more (default: off).
    #[serde(default)]
    pub monsters_harm_invulnerable: bool,
    /// Basic Fantasy § Becoming Lost: the roll for becoming lost.
    #[serde(default)]
    pub lost_roll: LostRoll,
    /// OSE § Darkness and § Infravision, Basic Fantasy § Light and § Darkvision: the encounter
    /// is fought in darkness — while no light burns, a combatant without darkvision sees nothing
    /// and is treated as blind (§ Blindness: unable to attack). Default off (the GM's).
    #[serde(default)]
    pub dark: bool,
    /// § Rolling for Damage ("PC attacks: Inflict 1d6 damage") or § Variable Weapon Damage
    /// (optional rule: the weapon's damage). Default `d6`, the text's rule; Basic Fantasy
    /// sessions always use `variable`.
    #[serde(default)]
    pub weapon_damage: WeaponDamage,
    /// Old-School Essentials § Variable Wind Conditions (optional rule): `roll_wind` reads the
    /// detailed 2d6 table (faint breeze to gale) instead of the plain one. Default off.
    #[serde(default)]
    pub variable_wind: bool,
    /// Old-School Essentials § Optional Rule: Encumbrance: `none` (the default: the rule is
    /// optional; characters move at their base `movement`), `basic` (Option 1: by armor and
    /// treasure) or `detailed` (Option 2: by the coins of weight carried).
    #[serde(default)]
    pub encumbrance: EncumbranceRule,
    /// Old-School Essentials § Morale (Optional Rule) and § Monster Morale (Optional Rule, "See
    /// Morale"): morale checks are proposed (`morale_proposed`) and `ose_morale` rolls them.
    /// Default off (the rule is optional: "the referee decides whether monsters or NPCs
    /// surrender or run away"); Basic Fantasy sessions always use it (its text uses monsters'
    /// Morale scores: § Retainers, Loyalty).
    #[serde(default)]
    pub morale: bool,
    /// Old-School Essentials § Subduing (Optional Rule): an `attack` with `knock_out: true`
    /// deals subdual damage. Default off (the rule is optional).
    #[serde(default)]
    pub subduing: bool,
}

/// § Waterborne Adventuring, Travel on the Water: a day on the water (`pass_day` `water`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WaterDay {
    /// The vessel's (or creature's) base movement rate for the day, feet per turn (1..=10000;
    /// the wind's effect on a sailing vessel is the GM's, § Wind Conditions): miles = rate ÷ 5.
    pub rate: u32,
    /// The waters crossed.
    pub waters: Waters,
    /// River travel: the current (`river` only).
    #[serde(default)]
    pub current: Current,
    /// A navigator is aboard (§ Losing Direction).
    #[serde(default)]
    pub navigator: bool,
}

/// § Waterborne Adventuring: where the day is spent on the water.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Waters {
    /// The open seas (ocean) out of sight of land.
    Sea,
    /// At sea within sight of land.
    Coast,
    /// A river.
    River,
    /// A swamp.
    Swamp,
}

/// § Travel on the Water, River travel: the current's direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Current {
    /// No current (or not on a river).
    #[default]
    None,
    /// Downstream: 1d6+6 miles more.
    Downstream,
    /// Upstream: 1d6+6 miles less.
    Upstream,
}

/// § Optional Rule: Encumbrance: which option is in play (a session option).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum EncumbranceRule {
    /// Not in use: characters move at their base movement rate.
    #[default]
    None,
    /// Option 1: Basic Encumbrance — the movement rate by armor worn and whether a significant
    /// amount of treasure is carried (the referee's judgement); treasure is weighed only against
    /// the maximum load.
    Basic,
    /// Option 2: Detailed Encumbrance — the movement rate by the total coins of weight carried
    /// (treasure, weapons, armor; gear as 80 coins).
    Detailed,
}

/// § Rolling for Damage: how characters' weapon attacks roll damage (a session option).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WeaponDamage {
    /// "PC attacks: Inflict 1d6 damage" (the text's rule).
    #[default]
    D6,
    /// § Variable Weapon Damage (optional rule): the damage of the weapon in the equipment lists.
    Variable,
}

/// Basic Fantasy § Becoming Lost: how the leader's secret roll is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum LostRoll {
    /// A save vs. Death Ray adjusted by the leader's WIS bonus (the text's procedure).
    #[default]
    Save,
    /// "Alternately, an Ability Roll against Wisdom … if that optional rule is in use": a d20
    /// under the WIS score (§ Ability Checks of the shared core: 1 succeeds, 20 fails).
    Ability,
}

/// § Combat, Initiative: per side (the text's default) or § Individual Initiative (optional).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum InitiativeRule {
    /// A d6 per side each round.
    #[default]
    Side,
    /// A d6 per combatant each round, + its DEX modifier (monsters: none).
    Individual,
}

/// How long light sources burn (a session option; the ruleset's text by default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum LightRule {
    /// Old-School Essentials (its equipment list; the adventuring text only says to keep track
    /// of "fuel for light sources"): a torch burns 6 turns (1 hour), a flask of lantern oil 24
    /// turns (4 hours).
    #[default]
    Ose,
    /// Basic Fantasy § Light: torches 1d4+4 turns, a flask of lantern oil 18+1d6 turns.
    BasicFantasy,
}

/// A light source (§ Light).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
// Two enums are called `LightSource` (ftd, ose): one schema name each.
#[cfg_attr(feature = "schema", schemars(rename = "OseLightSource"))]
#[serde(rename_all = "snake_case")]
pub enum LightSource {
    /// A torch.
    Torch,
    /// A lantern burning a flask of oil.
    Lantern,
    /// Basic Fantasy § Light: a taper candle (`light_candle`).
    Candle,
}

impl LightSource {
    /// Its light in feet: (radius of normal light, how much further dim light reaches) — Basic
    /// Fantasy § Light: "A torch or lantern will provide light covering a 30′ radius; dim light
    /// will extend about 20′ further" (OSE § Darkness: "normal vision within a 30′ radius").
    pub fn radius(self) -> (u32, u32) {
        match self {
            LightSource::Torch | LightSource::Lantern => (30, 20),
            // "A candle will shed light over a 5′ radius, with dim light extending 5′ further".
            LightSource::Candle => (5, 5),
        }
    }
}

/// A burning light source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BurningLight {
    /// Who carries it.
    pub carrier: crate::ids::CombatantId,
    /// Torch or lantern.
    pub source: LightSource,
    /// Exploration turns left.
    pub turns_left: u32,
}

/// The exploration turn's bookkeeping (§ Dungeon Adventuring, Sequence of Play Per Turn).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OseExploration {
    /// Exploration turns passed.
    pub turn: u32,
    /// Turns since the party last rested (6 or more: −1 to attack and damage, § Resting).
    pub since_rest: u32,
    /// Burning lights.
    pub lights: Vec<BurningLight>,
    /// Secret rolls made for a character in a named area, as (check, character, area)
    /// (§ Searching, "One chance": searches for secret doors and traps are not repeated).
    pub searched: Vec<(SecretCheck, crate::ids::CombatantId, String)>,
}

/// § Combat, Declare Spells and Melee Movement: what a combatant declared for the round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Declaration {
    /// To cast a spell (§ Spell Casting: its sole action; no movement).
    Spell {
        /// The spell's name.
        spell: String,
    },
    /// A fighting withdrawal (§ In Melee).
    Withdraw,
    /// A retreat (§ In Melee: no attack; attackers +2 and ignore its shield).
    Retreat,
}

/// Why the server proposes a morale check (§ When to Check Morale).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OseMoraleTrigger {
    /// The first time one of the side is killed.
    FirstDeath,
    /// Half the side killed or otherwise incapacitated.
    HalfIncapacitated,
}

/// An Old-School Essentials combatant's own state (`ose` on a combatant).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OseCombatant {
    /// Class (characters) or `None` (monsters).
    pub class: Option<String>,
    /// Hit dice as written (monsters), e.g. `2+1`.
    pub hd: Option<String>,
    /// The attack matrix row.
    pub thac0: i32,
    /// Armour class (descending).
    pub ac: i32,
    /// AC bonus of its shield (ignored when attacked from behind or retreating).
    pub shield: i32,
    /// Saving throws: death, wands, paralysis, breath, spells.
    pub saves: [i32; 5],
    /// Morale rating 2–12 (monsters; `None`: no morale checks, e.g. PCs and retainers).
    pub morale: Option<i32>,
    /// Successful morale checks this encounter (two: it fights to the death).
    pub morale_successes: u8,
    /// Broke on morale and fled (it no longer acts or counts for the end of the battle).
    pub fled: bool,
    /// This round's declaration.
    pub declared: Option<Declaration>,
    /// The declaration for the next round (it becomes `declared` when the round starts).
    pub next: Option<Declaration>,
    /// Has taken its turn this round.
    pub acted: bool,
    /// Its declared spell was disrupted this round.
    pub disrupted: bool,
    /// Its conditions (§ Other Combat Issues; § Running, exhaustion).
    #[serde(default)]
    pub conditions: Vec<OseCondition>,
    /// § Subduing (optional rule): subdual damage taken, noted apart from actual damage.
    #[serde(default)]
    pub subdual: i32,
    /// § Attacks Per Round: the routine attacks (content `routine`) it made this round.
    #[serde(default)]
    pub routine_used: Vec<String>,
    /// § Combat Sequence Per Round: the latest phase of its own actions this round (null: none
    /// yet); its side's members act in the phase order.
    #[serde(default)]
    pub phase: Option<OsePhase>,
    /// § Movement Outside of Melee / § In Melee: feet (yards outdoors) moved this round.
    #[serde(default)]
    pub moved: u32,
    /// § In Melee: the foes it exchanged melee attacks with since it last withdrew or retreated
    /// (Fray tracks no positions: this is what "in melee" means; those out of the fight no
    /// longer count).
    #[serde(default)]
    pub engaged: Vec<crate::ids::CombatantId>,
    /// Basic Fantasy § Darkvision (OSE § Infravision): its range in feet (0: none); it sees in
    /// total darkness within it, but not while a light burns ([`OseBattle::sees_in_the_dark`]).
    #[serde(default)]
    pub darkvision: u32,
    /// § Running, Resting: the exploration turns in a row the party rested while it was
    /// exhausted (characters only; at three full turns the exhaustion ends).
    #[serde(default)]
    pub rested_turns: u32,
    /// § Movement Outside of Melee, Maximum duration: the rounds of this encounter in which it
    /// moved at its encounter rate (at most 60).
    #[serde(default)]
    pub move_rounds: u32,
}

impl OseCombatant {
    /// Whether it sees without light: it has darkvision and no light burns (Basic Fantasy
    /// § Darkvision: "totally ineffective in any light greater than moonlight"; OSE
    /// § Infravision: "Visible light … will disrupt it"). Positions are not tracked, so any
    /// light burning in the session counts.
    pub fn sees_in_the_dark(&self, battle: &OseBattle) -> bool {
        self.darkvision > 0 && battle.exploration.lights.is_empty()
    }
}

/// § Combat Sequence Per Round: the phases a side acts in, in their order (the winning side's
/// monster morale comes first and is the GM's `ose_morale`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OsePhase {
    /// Movement (`ose_move`).
    Movement,
    /// Missile attacks (and bombs).
    Missiles,
    /// Spell casting.
    Spells,
    /// Melee attacks.
    Melee,
}

/// How a combatant moved in an encounter round (`ose_moved`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OseMoveKind {
    /// § Movement Outside of Melee: up to the encounter rate (a third of the base rate).
    Encounter,
    /// § In Melee, Fighting withdrawal (declared `withdraw`): backwards, up to half the
    /// encounter rate; out of melee afterwards.
    Withdrawal,
    /// § In Melee, Retreat (declared `retreat`): up to the encounter rate; out of melee
    /// afterwards.
    Retreat,
}

/// Old-School Essentials battle state (`ose` on the session).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OseBattle {
    /// The session options.
    pub options: OseOptions,
    /// Sides that rolled for surprise.
    pub surprise_rolled: Vec<Side>,
    /// Sides found surprised (they cannot act in the first round).
    pub surprised: Vec<Side>,
    /// The monsters' reaction, once rolled.
    pub reaction: Option<Reaction>,
    /// This round's side-initiative rolls, in side order.
    pub initiative: Vec<(Side, u32)>,
    /// This round's sides are resolved simultaneously (a tie under the simultaneous option).
    pub simultaneous: bool,
    /// Sides whose first-death morale check was proposed.
    pub first_death: Vec<Side>,
    /// Sides whose half-incapacitated morale check was proposed.
    pub half_down: Vec<Side>,
    /// The exploration turn's bookkeeping.
    #[serde(default)]
    pub exploration: OseExploration,
    /// The session plays Basic Fantasy on this core (its secret-door chances by INT).
    #[serde(default)]
    pub basic_fantasy: bool,
    /// Basic Fantasy: retainers, experience, travel, encumbrance and timed effects.
    #[serde(default)]
    pub bf: crate::bf::BfState,
    /// § Evasion and Pursuit: the pursuit under way, if any.
    #[serde(default)]
    pub pursuit: Option<crate::pursuit::Pursuit>,
    /// Old-School Essentials § Stuck Doors, Surprise: "A failed attempt to force open a door
    /// eliminates any possibility of surprise … that the party may have against any monsters on
    /// the other side of the door" — set by a failed `door_forced` (a stuck or locked door), the
    /// monsters' next `roll_surprise` finds them not surprised (and clears it).
    #[serde(default)]
    pub surprise_spoiled: bool,
}

/// What a GM-only secret roll is for (§ Searching, § Listening at Doors, § Wandering Monsters:
/// "The referee should always roll … so that the player does not know if the roll failed").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SecretCheck {
    /// Searching a 10′ × 10′ area for secret doors (1-in-6).
    SecretDoor,
    /// Searching a 10′ × 10′ area for room traps (1-in-6).
    RoomTrap,
    /// Listening at a door (1-in-6).
    Listen,
    /// The wandering-monster check (usually 1-in-6).
    WanderingMonster,
    /// Basic Fantasy § Doors: forcing a stuck door — 1 on 1d6, plus the STR bonus to the range.
    /// Rolled in the open (`door_forced`; OSE § Stuck Doors and Basic Fantasy § Doors do not
    /// make it the referee's secret).
    StuckDoor,
    /// Basic Fantasy § Doors: forcing a locked door — the same range on 1d10 (in the open).
    LockedDoor,
    /// Basic Fantasy § Doors: bending metal bars — the same range on 1d20 (in the open).
    Bars,
    /// Basic Fantasy § Becoming Lost: the leader's save vs. Death Ray with the WIS bonus, on a
    /// d20; `chance` is the number of faces that keep the party on course, `success` that it
    /// is not lost.
    LostDirection,
    /// § Traps, Triggering Traps: a character (or monster) makes an action that could trigger a
    /// trap — a room trap or a treasure trap — which springs on `chance` in six ("2-in-6").
    /// Secret so that a trap that did not spring stays unknown to the players.
    TrapTrigger,
}

impl SecretCheck {
    /// The die rolled: a d6, or Basic Fantasy's d10 (locked doors) and d20 (bars).
    pub fn die(self) -> u32 {
        match self {
            SecretCheck::LockedDoor => 10,
            SecretCheck::Bars | SecretCheck::LostDirection => 20,
            _ => 6,
        }
    }

    /// Basic Fantasy § Doors: the character's STR bonus adds to the range.
    pub fn adds_strength(self) -> bool {
        matches!(
            self,
            SecretCheck::StuckDoor | SecretCheck::LockedDoor | SecretCheck::Bars
        )
    }
}

/// An ability score (§ Ability Checks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OseAbility {
    /// Strength.
    Str,
    /// Intelligence.
    Int,
    /// Wisdom.
    Wis,
    /// Dexterity.
    Dex,
    /// Constitution.
    Con,
    /// Charisma.
    Cha,
}

impl OseAbility {
    /// Its index in a character's scores (STR, INT, WIS, DEX, CON, CHA).
    pub fn index(self) -> usize {
        match self {
            OseAbility::Str => 0,
            OseAbility::Int => 1,
            OseAbility::Wis => 2,
            OseAbility::Dex => 3,
            OseAbility::Con => 4,
            OseAbility::Cha => 5,
        }
    }
}

/// Where an encounter happens (§ Encounter Distance).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum EncounterSetting {
    /// In a dungeon: 2d6 × 10 feet.
    Dungeon,
    /// In the wilderness: 4d6 × 10 yards (1d4 × 10 if either side is surprised).
    Wilderness,
    /// On the water: as the wilderness.
    Waterborne,
}

/// A combatant's condition (§ Other Combat Issues; § Evasion and Pursuit, Running).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OseCondition {
    /// § Blindness: unable to attack.
    Blind,
    /// § Paralyzed Opponents: hit automatically in melee.
    Paralyzed,
    /// § Unstable Surfaces: −4 to missile attacks, no spells.
    Unstable,
    /// § Running, Effects of exhaustion: −2 to attacks, damage and AC.
    Exhausted,
    /// § Targets Behind Cover, Complete cover: "The target cannot be hit" (attacks at it are
    /// refused while the GM keeps it set).
    CompleteCover,
    /// § Swimming: "Characters move at half their normal movement rate when swimming" (its
    /// encounter movement per round is halved while the GM keeps it set).
    Swimming,
    /// § Water: fighting beneath water — "Missile weapons: Usually do not work at all
    /// underwater" (its missile attacks are refused while the GM keeps it set; the attack and
    /// damage penalties the text leaves to the referee are `ose_attack`'s `modifier`).
    Underwater,
}

/// Surprise at a wilderness encounter, seen from the fleeing side (§ Evasion and Pursuit, In the
/// Wilderness).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum EvasionSurprise {
    /// The fleeing side was surprised: it may generally not evade (the GM's modifier may give a
    /// small chance).
    Surprised,
    /// The fleeing side surprised the other: it evades automatically.
    Surprising,
}

/// Old-School Essentials § Waterborne Adventuring, Near Gales and Gales and Storms: what befell
/// a ship.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum GaleOutcome {
    /// No harm.
    Weathered,
    /// Near gale: it takes on water (movement −⅓ until repaired at a dock).
    TakesOnWater,
    /// Gale, seaworthy: it runs with the wind at three times its speed in the drift direction.
    Drifts,
    /// Gale, seaworthy: it met land on its drift and wrecked against the shore (75%).
    Wrecked,
    /// Gale, unseaworthy: overrun with water, it sinks (80%).
    Sinks,
    /// Gale, unseaworthy, in sight of land: beached or in a safe harbor to weather the storm.
    Beached,
}

/// Old-School Essentials § Waterborne Adventuring, Wind Conditions: the day's 2d6 (the plain
/// table: 2, 3–11, 12; § Variable Wind Conditions, optional: every row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OseWind {
    /// 2: no wind — sailing impossible (variable: by oar at ⅓ rate, due to fatigue).
    NoWind,
    /// 3–11 (plain table): normal sailing.
    Normal,
    /// Variable 3: sailing ×⅓.
    FaintBreeze,
    /// Variable 4: sailing ×½.
    GentleBreeze,
    /// Variable 5: sailing ×⅔.
    ModerateBreeze,
    /// Variable 6–8: normal sailing.
    FreshBreeze,
    /// Variable 9: sailing ×1⅓.
    StrongBreeze,
    /// Variable 10: sailing ×1½.
    HighWind,
    /// Variable 11: sailing ×2 (see Near Gales: `gale_strikes` with `near`).
    NearGale,
    /// 12: gale or storm — sailing ×3 (see Gales and Storms: `gale_strikes`).
    Gale,
}

impl OseWind {
    /// The row for a 2d6 total, on the plain or the variable table.
    pub fn from_2d6(total: i32, variable: bool) -> OseWind {
        match (total, variable) {
            (..=2, _) => OseWind::NoWind,
            (12.., _) => OseWind::Gale,
            (_, false) => OseWind::Normal,
            (3, true) => OseWind::FaintBreeze,
            (4, true) => OseWind::GentleBreeze,
            (5, true) => OseWind::ModerateBreeze,
            (6..=8, true) => OseWind::FreshBreeze,
            (9, true) => OseWind::StrongBreeze,
            (10, true) => OseWind::HighWind,
            (_, true) => OseWind::NearGale,
        }
    }

    /// The sailing movement multiplier as (numerator, denominator); 0: sailing impossible.
    pub fn sailing(self) -> (u32, u32) {
        match self {
            OseWind::NoWind => (0, 1),
            OseWind::Normal | OseWind::FreshBreeze => (1, 1),
            OseWind::FaintBreeze => (1, 3),
            OseWind::GentleBreeze => (1, 2),
            OseWind::ModerateBreeze => (2, 3),
            OseWind::StrongBreeze => (4, 3),
            OseWind::HighWind => (3, 2),
            OseWind::NearGale => (2, 1),
            OseWind::Gale => (3, 1),
        }
    }
}
