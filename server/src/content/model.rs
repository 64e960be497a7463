//! The resolved content of a session: every combatant's full stat block, ready to spawn.
//! This is what the log's genesis record stores, so a recorded fight replays without the
//! content files it was created from.

use fray_protocol::event::{Condition, DamageType, Defense, EffectDuration, SaveDifficulty};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::state::Defenses;
use serde::{Deserialize, Serialize};

/// Ability scores' modifiers (13th Age § Damage: (score − 10) / 2, rounded down).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbilityMods {
    /// Strength.
    pub str: i32,
    /// Constitution.
    pub con: i32,
    /// Dexterity.
    pub dex: i32,
    /// Intelligence.
    pub int: i32,
    /// Wisdom.
    pub wis: i32,
    /// Charisma.
    pub cha: i32,
}

impl Ability {
    /// The ability's abbreviation as the texts print it (`STR`).
    pub fn abbrev(self) -> &'static str {
        match self {
            Ability::Str => "STR",
            Ability::Con => "CON",
            Ability::Dex => "DEX",
            Ability::Int => "INT",
            Ability::Wis => "WIS",
            Ability::Cha => "CHA",
        }
    }
}

impl AbilityMods {
    /// Modifier of one ability.
    pub fn get(&self, a: Ability) -> i32 {
        match a {
            Ability::Str => self.str,
            Ability::Con => self.con,
            Ability::Dex => self.dex,
            Ability::Int => self.int,
            Ability::Wis => self.wis,
            Ability::Cha => self.cha,
        }
    }
}

/// An ability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    /// Strength.
    Str,
    /// Constitution.
    Con,
    /// Dexterity.
    Dex,
    /// Intelligence.
    Int,
    /// Wisdom.
    Wis,
    /// Charisma.
    Cha,
}

/// How an attack reaches its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reach {
    /// Melee.
    Melee,
    /// Ranged.
    Ranged,
    /// Close-quarters.
    Close,
}

impl Reach {
    /// Wire name.
    pub fn name(self) -> &'static str {
        match self {
            Reach::Melee => "melee",
            Reach::Ranged => "ranged",
            Reach::Close => "close",
        }
    }
}

/// What a hit does besides damage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectSpec {
    /// Apply a condition.
    Condition {
        /// Which.
        condition: Condition,
        /// For how long.
        duration: EffectDuration,
    },
    /// Apply ongoing damage (save ends).
    Ongoing {
        /// Damage per turn.
        amount: i32,
        /// Damage type.
        damage_type: Option<DamageType>,
        /// The save that ends it.
        save: SaveDifficulty,
    },
}

/// A damage type's name as written in content files.
pub fn damage_type_name(t: DamageType) -> String {
    serde_json::to_value(t)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{t:?}").to_lowercase())
}

impl EffectSpec {
    /// When the effect ends.
    pub fn duration(&self) -> EffectDuration {
        match self {
            EffectSpec::Condition { duration, .. } => duration.clone(),
            EffectSpec::Ongoing { save, .. } => EffectDuration::SaveEnds(*save),
        }
    }
}

/// A resolved attack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackSpec {
    /// Id used in commands.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Melee, ranged or close.
    pub reach: Reach,
    /// Defense targeted.
    pub vs: Defense,
    /// Attack bonus before escalation and conditions (ability + level for PCs).
    pub bonus: i32,
    /// Damage on a hit, a dice expression with placeholders resolved at roll time.
    pub damage: String,
    /// Damage type.
    pub damage_type: Option<DamageType>,
    /// Damage on a miss (not on a fumble), if any.
    pub miss_damage: Option<String>,
    /// Maximum number of targets.
    pub max_targets: u8,
    /// Effects on a hit (each possibly limited to some natural rolls).
    pub on_hit: Vec<Triggered>,
    /// A basic attack (13th Age: opportunity attacks are basic melee attacks; hampered
    /// creatures make only basic attacks). Defaults to true for the ids `melee` and `ranged`.
    pub basic: bool,
    /// A spell: while engaged it draws opportunity attacks from every engaged foe unless it is
    /// close-quarters.
    pub spell: bool,
    /// Magical (spells are): gets past energy resistance's immunity to normal energy.
    pub magic: bool,
    /// How often it can be used.
    pub usage: Usage,
    /// A quick action instead of a standard action.
    pub quick: bool,
    /// An interrupt action (13th Age § Interrupt Actions): used when it is not your turn, one
    /// until the end of your next turn.
    pub interrupt: bool,
    /// Only targets with at most this many current hit points (13th Age § Target Hit Points).
    pub max_target_hp: Option<i32>,
    /// How its targets are chosen.
    pub targeting: Targeting,
    /// Flexible maneuvers (13th Age § Flexible Attacks): when non-empty the attack is flexible
    /// and the first maneuver whose trigger matches the natural roll applies.
    pub maneuvers: Vec<ManeuverSpec>,
    /// How many times the power doubles its crit damage beyond the crit's own doubling
    /// (13th Age § Crit Effects: a doubled double is triple damage, and so on).
    pub extra_crit_doublings: u8,
    /// How many points the power expands its crit range by (13th Age § Crit Range: each point
    /// drops the natural roll needed to crit by 1; 1 = 19+); 0..=5.
    pub expand_crit: u8,
    /// Extra damage on a hit per ally counted (13th Age § Allies); 0 = none.
    pub damage_per_ally: i32,
    /// The terms of `bonus`, named (ability, level, magic item; a monster's stat block): the
    /// start of an attack's `modifiers`. Empty in a genesis of record format 1, where the
    /// attack names `bonus` as one term.
    #[serde(default, with = "fray_protocol::format::since_2")]
    pub bonus_terms: Vec<fray_protocol::roll::Modifier>,
}

impl PowerSpec {
    /// The terms of `bonus` (one unnamed term where the stat block predates the lists).
    pub fn bonus_modifiers(&self) -> fray_protocol::roll::Modifiers {
        let mut m = fray_protocol::roll::Modifiers(self.bonus_terms.clone());
        m.add("attack bonus", self.bonus - m.total());
        m
    }
}

impl AttackSpec {
    /// The terms of `bonus` (one unnamed term where the stat block predates the lists).
    pub fn bonus_modifiers(&self) -> fray_protocol::roll::Modifiers {
        let mut m = fray_protocol::roll::Modifiers(self.bonus_terms.clone());
        m.add("attack bonus", self.bonus - m.total());
        m
    }
}

/// Which natural rolls trigger a maneuver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    /// Even natural roll.
    Even,
    /// Odd natural roll.
    Odd,
    /// Natural roll in `from..=to`.
    Range {
        /// Lowest.
        from: u32,
        /// Highest.
        to: u32,
    },
}

impl Trigger {
    /// Whether a natural roll triggers it.
    pub fn matches(self, natural: u32) -> bool {
        match self {
            Trigger::Even => natural.is_multiple_of(2),
            Trigger::Odd => !natural.is_multiple_of(2),
            Trigger::Range { from, to } => (from..=to).contains(&natural),
        }
    }
}

/// A flexible attack's maneuver.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManeuverSpec {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Natural rolls that trigger it.
    pub trigger: Trigger,
    /// Whether it needs the attack to hit (otherwise it also applies on a miss, not a fumble).
    pub on_hit_only: bool,
    /// Extra damage on a hit (a dice expression).
    pub bonus_damage: Option<String>,
    /// Effects on the target.
    pub effects: Vec<Triggered>,
}

/// How an attack's targets are chosen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Targeting {
    /// The attacker names up to `max_targets` targets.
    Named,
    /// A rolled number of the named targets (e.g. "1d3 nearby enemies"): the attacker names up
    /// to the maximum and the first N of them are attacked.
    Rolled(String),
    /// Every enemy engaged with the attacker (the named list is ignored).
    AllEngaged,
    /// A group of nearby enemies that cannot be skipped (13th Age § Targeting): the attacker
    /// names the first; the rest follow in the order of battle, up to the maximum (or a rolled
    /// number).
    Group(Option<String>),
}

/// An effect that applies only on some natural rolls (`when`), or always.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Triggered {
    /// Natural rolls that trigger it; `None` = every hit.
    pub when: Option<Trigger>,
    /// The effect.
    pub effect: EffectSpec,
}

/// How often an attack or power can be used (13th Age powers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Usage {
    /// Any number of times.
    AtWill,
    /// Once per battle.
    OncePerBattle,
    /// Once per full heal-up.
    Daily,
    /// Once, then regained on a d20 of `n`+ at a quick rest after the battle.
    Recharge(u32),
}

/// Player-character-only numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeroSpec {
    /// Ability modifiers.
    pub mods: AbilityMods,
    /// Recoveries at the start of the adventure.
    pub recoveries: i32,
    /// Sides of the recovery die.
    pub recovery_die: u32,
    /// Sides of the weapon die (`dW` in damage expressions).
    pub weapon_die: Option<u32>,
    /// Fights with two weapons: a natural 2 on a melee attack is rerolled once.
    pub two_weapon: bool,
    /// Healing potions carried.
    pub potions: u32,
    /// A PC, a companion or an NPC fighting with the party (13th Age § Allies).
    pub kind: HeroKind,
    /// Bonus to saves against effects and to death saves: the best magic item bonus to saves
    /// (13th Age § Saves, § Stacking Rules).
    pub save_bonus: i32,
}

/// What a hero-side combatant is, for powers that count allies (13th Age § Allies: "a
/// character's allies are the other PCs in the party with a possible addition for an animal
/// companion"; NPCs don't count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HeroKind {
    /// A player character.
    Pc,
    /// A companion (e.g. an animal companion): counts as an ally.
    Companion,
    /// An NPC on the party's side: not an ally for powers that count allies.
    Npc,
}

impl HeroKind {
    /// Counts as an ally for powers that count allies.
    pub fn counts_as_ally(self) -> bool {
        matches!(self, HeroKind::Pc | HeroKind::Companion)
    }
}

/// A combatant ready to spawn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatantSpec {
    /// Stable id.
    pub id: CombatantId,
    /// Display name.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Content template id (monsters of one template share initiative).
    pub template: String,
    /// Level.
    pub level: i32,
    /// Size (13th Age § Grabbed: a larger grabber carries the creature it grabs; Orcus: the
    /// size of its space, as in `orcus.size`).
    pub size: fray_protocol::grid::Size,
    /// Maximum hit points.
    pub max_hp: i32,
    /// Defenses.
    pub defenses: Defenses,
    /// Initiative bonus (Dex modifier + level for PCs).
    pub initiative: i32,
    /// PC numbers; `None` for monsters.
    pub hero: Option<HeroSpec>,
    /// Resistances: damage type and the natural roll needed to deal full damage.
    pub resist: Vec<(DamageType, u32)>,
    /// Damage types the combatant is vulnerable to (attacks of those types crit 2 lower).
    pub vulnerable: Vec<DamageType>,
    /// A named villain (the optional meaningful-death rule lets only these slay PCs).
    pub villain: bool,
    /// Attacks.
    pub attacks: Vec<AttackSpec>,
    /// Orcus numbers and powers; `None` in other rulesets.
    pub orcus: Option<OrcusSpec>,
    /// Five Torches Deep numbers and attacks; `None` in other rulesets.
    pub ftd: Option<FtdSpec>,
    /// Old-School Essentials numbers and attacks; `None` in other rulesets.
    pub ose: Option<OseSpec>,
}

/// A player's seat: a name and the combatants it controls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// Player name.
    pub name: String,
    /// Controlled combatants.
    pub controls: Vec<CombatantId>,
}

/// A resolved encounter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Encounter {
    /// Ruleset id.
    pub ruleset: String,
    /// Title.
    pub title: String,
    /// Combatants, sorted by id.
    pub combatants: Vec<CombatantSpec>,
    /// Player seats.
    pub seats: Vec<Seat>,
    /// Optional rules chosen for this session.
    pub options: SessionOptions,
    /// The battle map (grid rulesets).
    pub map: Option<fray_protocol::grid::MapState>,
    /// The session's later battles, in order (sessions with the `rests` option): the GM brings
    /// each one in with `next_battle` after the previous battle ended.
    pub battles: Vec<BattleSpec>,
    /// Stat blocks no battle fields that the GM may call in as reinforcements
    /// (`add_combatant`): the ruleset's built-in monsters and the encounter file's own unused
    /// `[[monster]]` blocks, one per template (its id is the template), sorted by template. The
    /// genesis carries them, so a fold and `verify` rebuild a reinforcement from the log alone.
    /// Absent from record formats 1–3 (those sessions call in only their battles' blocks).
    #[serde(default, with = "fray_protocol::format::since_4")]
    pub reserves: Vec<CombatantSpec>,
}

/// A later battle of the session: the monsters that come in (the heroes stay).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleSpec {
    /// Title.
    pub title: String,
    /// Its monsters, sorted by id (ids unique in the whole session).
    pub monsters: Vec<CombatantSpec>,
    /// Grid rulesets (Orcus): where each hero stands when this battle begins.
    #[serde(default)]
    pub placements: Vec<(CombatantId, fray_protocol::grid::Square)>,
}

/// Optional rules (13th Age § Optional Lasting-Wound Rule, …), off by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionOptions {
    /// A PC dropped to 0 hp or below during a fight takes a lasting wound (−(2 + level) max hp)
    /// when the battle ends.
    pub lasting_wounds: bool,
    /// Only named villains can fully slay a PC; a fourth failed death save (or a non-villain's
    /// killing blow) puts it in a coma instead.
    pub meaningful_death: bool,
    /// The session goes on after the battle for rests (quick rest, full heal-up); the seed is
    /// revealed when the GM ends the session.
    pub rests: bool,
    /// Old-School Essentials options (ties, attack procedure), the text's defaults elsewhere.
    #[serde(default)]
    pub ose: fray_protocol::ose::OseOptions,
}

/// Special movement speeds (Orcus § Special movement modes); 0 for a mode it lacks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrcusModes {
    /// Climb speed.
    pub climb: i32,
    /// Fly speed.
    pub fly: i32,
    /// Swim speed.
    pub swim: i32,
    /// Burrow speed.
    pub burrow: i32,
}

impl OrcusModes {
    /// The speed of `mode` (0: it lacks the mode).
    pub fn speed(self, mode: fray_protocol::grid::SpecialMode) -> i32 {
        use fray_protocol::grid::SpecialMode;
        match mode {
            SpecialMode::Climb => self.climb,
            SpecialMode::Fly => self.fly,
            SpecialMode::Swim => self.swim,
            SpecialMode::Burrow => self.burrow,
        }
    }
}

/// An Orcus combatant's numbers beyond the shared ones (Orcus rules text, `orcus-basic-rules.txt`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrcusSpec {
    /// Where its space starts (north-west square).
    pub square: fray_protocol::grid::Square,
    /// Size.
    pub size: fray_protocol::grid::Size,
    /// Speed in squares.
    pub speed: i32,
    /// Fortitude.
    pub fortitude: i32,
    /// Reflex.
    pub reflex: i32,
    /// Will.
    pub will: i32,
    /// `hero`, `mook`, `standard`, `elite` or `boss`.
    pub rank: String,
    /// Action points at the start of the encounter (§ Action points).
    pub action_points: i32,
    /// Recoveries (heroes).
    pub recoveries: i32,
    /// Hit points healed by one recovery.
    pub recovery_value: i32,
    /// Regeneration at the start of its turns (§ Regeneration), 0 for none.
    pub regeneration: i32,
    /// § Incorporeal: takes half damage from all attacks.
    #[serde(default)]
    pub incorporeal: bool,
    /// § Special movement modes: its climb, fly, swim and burrow speeds.
    #[serde(default)]
    pub modes: OrcusModes,
    /// The Aquatic tag (§ Underwater combat).
    #[serde(default)]
    pub aquatic: bool,
    /// Pieces of ammunition carried (§ Attacks with ammunition); `None` when not tracked.
    #[serde(default)]
    pub ammunition: Option<i32>,
    /// Skill modifiers by lowercase skill name (every skill of § The skills).
    pub skills: std::collections::BTreeMap<String, i32>,
    /// Attack bonus of Strength attacks (Bull Rush vs Fortitude, Grapple vs Reflex).
    pub str_attack: i32,
    /// Resist N per damage type (§ Immunities, resistances and weaknesses).
    pub resist: Vec<(DamageType, i32)>,
    /// Weak N per damage type.
    pub weak: Vec<(DamageType, i32)>,
    /// Immune damage types.
    pub immune: Vec<DamageType>,
    /// Powers (including the universal Basic Attack when the stat block gives a weapon).
    pub powers: Vec<PowerSpec>,
    /// § Mounted combat: it can serve as a mount, and how.
    #[serde(default)]
    pub mount: Option<MountKind>,
    /// Elevation: it hovers (does not fall when it cannot fly on).
    #[serde(default)]
    pub hover: bool,
    /// Elevation: it falls slowly and lands unharmed.
    #[serde(default)]
    pub slow_fall: bool,
    /// § Grapple, "Requirements You have one or more hands free": false when a hero's weapon,
    /// side weapon and shield fill both hands (monsters: their stat blocks say nothing, so they
    /// have a hand free).
    #[serde(default)]
    pub no_free_hand: bool,
    /// § Senses: how it sees in dim light and darkness (content `senses`).
    #[serde(default)]
    pub vision: Vision,
}

/// Orcus § Senses: "If none are identified, assume the creature can sense things about as well
/// as a human can"; Low-Light Vision sees in dim light as if it were bright light; Darkvision
/// sees in dim light as if it were bright light, and in darkness as if it were dim light.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Vision {
    /// As well as a human.
    #[default]
    Normal,
    /// Low-Light Vision.
    LowLight,
    /// Darkvision.
    Darkvision,
}

/// Orcus § Mounted combat: what kind of mount a creature is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MountKind {
    /// Trained to accept a rider: it can be controlled (§ Controlling a mount).
    Trained,
    /// A willing but untrained creature: it always acts independently.
    Untrained,
    /// An intelligent creature (a dragon): it always acts independently.
    Intelligent,
}

/// A secondary attack (Orcus § Secondary attacks).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecondaryAttack {
    /// When it takes place.
    pub on: SecondaryOn,
    /// The attack (the primary's origin, targeting and action; its own roll and damage).
    pub power: PowerSpec,
    /// Whom it attacks: the primary's target (default) or creatures around it.
    pub targets: SecondaryTargets,
}

/// Whom a secondary attack targets (Orcus § Secondary attacks, "unless otherwise specified").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SecondaryTargets {
    /// The primary attack's target.
    #[default]
    Primary,
    /// Each creature adjacent to the primary target (not the primary target, not the user).
    CreaturesAdjacentToPrimary,
    /// Each enemy of the user adjacent to the primary target.
    EnemiesAdjacentToPrimary,
    /// Each creature within `within` squares of the primary target (not the primary target, not
    /// the user); content `creatures_within_N_of_primary`.
    CreaturesWithinOfPrimary {
        /// The range from the primary target, in squares (§ Range).
        within: u32,
    },
    /// Each enemy of the user within `within` squares of the primary target; content
    /// `enemies_within_N_of_primary`.
    EnemiesWithinOfPrimary {
        /// The range from the primary target, in squares (§ Range).
        within: u32,
    },
    /// The creature nearest the primary target (§ Targets, Nearest), not the primary target nor
    /// the user; content `nearest_creature_to_primary`.
    NearestCreatureToPrimary,
    /// The enemy of the user nearest the primary target; content `nearest_enemy_to_primary`.
    NearestEnemyToPrimary,
    /// One creature of the user's choice within `within` squares of the primary target (not the
    /// primary target, not the user), named by the command's `secondary_target`; content
    /// `one_creature_within_N_of_primary`.
    OneCreatureWithinOfPrimary {
        /// The range from the primary target, in squares (§ Range).
        within: u32,
    },
    /// One enemy of the user's choice within `within` squares of the primary target; content
    /// `one_enemy_within_N_of_primary`.
    OneEnemyWithinOfPrimary {
        /// The range from the primary target, in squares (§ Range).
        within: u32,
    },
}

/// When a secondary attack takes place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SecondaryOn {
    /// Listed under Hit: only on a hit.
    Hit,
    /// Listed under Miss: only on a miss.
    Miss,
    /// Listed under Effect: either way.
    Effect,
}

/// Unwilling movement a power causes on a hit (Orcus § Unwilling movement).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForcedSpec {
    /// Push, pull or shunt.
    pub kind: ForcedKindSpec,
    /// How many squares.
    pub squares: u32,
}

/// The kinds of unwilling movement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForcedKindSpec {
    /// Each square farther from the source.
    Push,
    /// Each square closer to the source.
    Pull,
    /// Any direction.
    Shunt,
}

/// An Orcus effect clause with its saving-throw riders (§ Special saving throw riders).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrcusEffect {
    /// The effect.
    pub effect: EffectSpec,
    /// Applied when it ends by a save or by running out.
    pub aftereffect: Option<EffectSpec>,
    /// What it turns into the first time its bearer fails a save against it.
    pub first_failed_save: Option<EffectSpec>,
    /// An aftereffect that deals damage once instead of applying an effect.
    #[serde(default)]
    pub aftereffect_damage: Option<fray_protocol::grid::RiderDamage>,
    /// § Maintain: the effect lasts only while its user maintains it (content duration
    /// `maintain`).
    #[serde(default)]
    pub maintained: bool,
}

/// Where an Orcus power reaches (§ Origin of effect, § Areas of effect, § Range).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// Melee with a reach in squares.
    Melee {
        /// Reach (1 = adjacent).
        reach: i32,
    },
    /// Ranged, short/long range in squares (−2 at long range).
    Ranged {
        /// Short range.
        short: i32,
        /// Long range.
        long: i32,
    },
    /// Near burst N: every square within N of the user's space.
    NearBurst {
        /// Size.
        size: i32,
    },
    /// Near blast N: an N×N block adjacent to the user's space.
    NearBlast {
        /// Size.
        size: i32,
    },
    /// Far burst N within `range`.
    FarBurst {
        /// Size.
        size: i32,
        /// Range to the centre square.
        range: i32,
    },
    /// Far blast N within `range`.
    FarBlast {
        /// Size.
        size: i32,
        /// Range to the nearest square of the block.
        range: i32,
    },
    /// Only the user.
    Personal,
    /// Near eyesight: every creature the user has line of sight to (§ Areas of effect).
    NearEyesight,
    /// Near earshot: every creature that can hear the user (§ Areas of effect).
    NearEarshot,
    /// Near eyesight or earshot: every creature the user sees or that hears the user.
    NearEyesightOrEarshot,
    /// Near eyesight and earshot: every creature the user sees and that hears the user.
    NearEyesightAndEarshot,
}

impl Origin {
    /// Wire summary, e.g. `melee 1`, `ranged 10/20`, `near burst 1`, `far burst 1 within 10`.
    pub fn describe(self) -> String {
        match self {
            Origin::Melee { reach } => format!("melee {reach}"),
            Origin::Ranged { short, long } => format!("ranged {short}/{long}"),
            Origin::NearBurst { size } => format!("near burst {size}"),
            Origin::NearBlast { size } => format!("near blast {size}"),
            Origin::FarBurst { size, range } => format!("far burst {size} within {range}"),
            Origin::FarBlast { size, range } => format!("far blast {size} within {range}"),
            Origin::Personal => "self".into(),
            Origin::NearEyesight => "near eyesight".into(),
            Origin::NearEarshot => "near earshot".into(),
            Origin::NearEyesightOrEarshot => "near eyesight or earshot".into(),
            Origin::NearEyesightAndEarshot => "near eyesight and earshot".into(),
        }
    }

    /// Reads back what [`Origin::describe`] writes (clients see powers this way).
    pub fn parse(s: &str) -> Option<Origin> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let n = |w: &str| w.parse::<i32>().ok();
        match words.as_slice() {
            ["melee", r] => Some(Origin::Melee { reach: n(r)? }),
            ["ranged", r] => {
                let (a, b) = r.split_once('/')?;
                Some(Origin::Ranged {
                    short: n(a)?,
                    long: n(b)?,
                })
            }
            ["near", "burst", k] => Some(Origin::NearBurst { size: n(k)? }),
            ["near", "blast", k] => Some(Origin::NearBlast { size: n(k)? }),
            ["far", "burst", k, "within", r] => Some(Origin::FarBurst {
                size: n(k)?,
                range: n(r)?,
            }),
            ["far", "blast", k, "within", r] => Some(Origin::FarBlast {
                size: n(k)?,
                range: n(r)?,
            }),
            ["self"] => Some(Origin::Personal),
            ["near", "eyesight"] => Some(Origin::NearEyesight),
            ["near", "earshot"] => Some(Origin::NearEarshot),
            ["near", "eyesight", "or", "earshot"] => Some(Origin::NearEyesightOrEarshot),
            ["near", "eyesight", "and", "earshot"] => Some(Origin::NearEyesightAndEarshot),
            _ => None,
        }
    }

    /// A near or far area.
    pub fn is_area(self) -> bool {
        matches!(
            self,
            Origin::NearBurst { .. }
                | Origin::NearBlast { .. }
                | Origin::FarBurst { .. }
                | Origin::FarBlast { .. }
                | Origin::NearEyesight
                | Origin::NearEarshot
                | Origin::NearEyesightOrEarshot
                | Origin::NearEyesightAndEarshot
        )
    }

    /// The senses of an eyesight/earshot area: `(sight, hearing, both needed)`, or `None` for
    /// any other origin (§ Areas of effect, special sizes).
    pub fn senses(self) -> Option<(bool, bool, bool)> {
        match self {
            Origin::NearEyesight => Some((true, false, false)),
            Origin::NearEarshot => Some((false, true, false)),
            Origin::NearEyesightOrEarshot => Some((true, true, false)),
            Origin::NearEyesightAndEarshot => Some((true, true, true)),
            _ => None,
        }
    }
}

/// Whom an Orcus power affects (§ Targets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetRule {
    /// One enemy (melee and ranged default).
    OneEnemy,
    /// One creature of the user's choice.
    OneCreature,
    /// Every creature in the area (area default).
    AllCreatures,
    /// Only the enemies in the area.
    AllEnemies,
    /// The nearest enemy in the area (ties: the user's choice).
    NearestEnemy,
    /// Only the allies in the area (never the user: "you are not your own ally").
    AllAllies,
    /// One ally of the user's choice.
    OneAlly,
    /// The nearest ally in the area.
    NearestAlly,
    /// One or more creatures of the user's choice in the area.
    Any,
}

impl TargetRule {
    /// Whether the rule picks among allies (true), enemies (false) or anyone (`None`).
    pub fn allies(self) -> Option<bool> {
        match self {
            TargetRule::OneEnemy | TargetRule::AllEnemies | TargetRule::NearestEnemy => Some(false),
            TargetRule::AllAllies | TargetRule::OneAlly | TargetRule::NearestAlly => Some(true),
            TargetRule::OneCreature | TargetRule::AllCreatures | TargetRule::Any => None,
        }
    }
}

/// How often an Orcus power can be used (§ Action recharge, § Unusual recharge conditions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Frequency {
    /// Any number of times.
    AtWill,
    /// Once per encounter (regained by a short rest).
    Encounter,
    /// Once per day (regained by a long rest).
    Daily,
    /// Recharge X–Y: a d6 at the start of each of the monster's turns regains it on X..=Y.
    Recharge {
        /// Lowest d6 result that recharges.
        from: u32,
        /// Highest.
        to: u32,
    },
    /// § Unusual recharge conditions, "Recharge if …": regained each time the condition occurs
    /// (and on a short or long rest).
    RechargeIf(RechargeCondition),
}

/// The conditions Fray can check for "recharge if" (Orcus § Unusual recharge conditions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RechargeCondition {
    /// "the creature takes X damage": damage of this type gets through.
    TakesDamage(DamageType),
    /// "the creature is staggered": it becomes staggered.
    Staggered,
}

impl Frequency {
    /// Wire name.
    pub fn describe(self) -> String {
        match self {
            Frequency::AtWill => "at-will".into(),
            Frequency::Encounter => "encounter".into(),
            Frequency::Daily => "daily".into(),
            Frequency::Recharge { from, to } if from == to => format!("recharge {from}"),
            Frequency::Recharge { from, to } => format!("recharge {from}-{to}"),
            Frequency::RechargeIf(RechargeCondition::Staggered) => "recharge if staggered".into(),
            Frequency::RechargeIf(RechargeCondition::TakesDamage(t)) => {
                format!("recharge if it takes {} damage", damage_type_name(t))
            }
        }
    }
}

/// Deepest nesting of powers inside a power (through `secondary` and `side`) a decoder accepts.
/// Content nests at most two deep (a side weapon's power with a secondary attack).
pub const MAX_POWER_NESTING: usize = 8;

/// Bounds the recursion of decoding a [`PowerSpec`]: bincode has no depth limit, so a genesis
/// record nesting powers a hundred thousand deep (6 MB, under the 16 MiB record limit) overflowed
/// the decoder's stack and aborted the process. Every `secondary` and `side` field passes
/// through [`deserialize`](power_nesting::deserialize), which counts the depth on this thread:
/// the fields of a power nested more than [`MAX_POWER_NESTING`] deep are refused.
mod power_nesting {
    use super::MAX_POWER_NESTING;
    use serde::{Deserialize, Deserializer, de::Error};
    use std::cell::Cell;

    thread_local! {
        static DEPTH: Cell<usize> = const { Cell::new(0) };
    }

    /// Leaves one level when dropped, also when decoding fails or unwinds.
    struct Level;

    impl Drop for Level {
        fn drop(&mut self) {
            DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
        }
    }

    pub(super) fn deserialize<'de, D, T>(deserializer: D) -> Result<T, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        let depth = DEPTH.with(|d| d.get());
        if depth > MAX_POWER_NESTING {
            return Err(D::Error::custom(format!(
                "powers nested more than {MAX_POWER_NESTING} deep"
            )));
        }
        DEPTH.with(|d| d.set(depth + 1));
        let _level = Level;
        T::deserialize(deserializer)
    }
}

/// A resolved Orcus power: an attack (or an automatic effect) with its targeting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PowerSpec {
    /// Id used in commands.
    pub id: String,
    /// § Attacks with ammunition: the power uses one piece per target.
    #[serde(default)]
    pub uses_ammunition: bool,
    /// § Underwater combat: a weapon attack with a weapon outside the Spears & Lances and
    /// Crossbows groups (−2 underwater).
    #[serde(default)]
    pub underwater_penalty: bool,
    /// § Secondary attacks: an attack against the same target, contingent on this one.
    #[serde(default, deserialize_with = "power_nesting::deserialize")]
    pub secondary: Option<Box<SecondaryAttack>>,
    /// § Unwilling movement on a hit: push, pull or shunt so many squares.
    #[serde(default)]
    pub forced: Option<ForcedSpec>,
    /// The trigger of an immediate action (§ Action required), as the table reads it.
    #[serde(default)]
    pub trigger: Option<String>,
    /// Display name.
    pub name: String,
    /// Standard, move or swift (`quick`).
    pub action: crate::content::model::ActionCost,
    /// How often.
    pub frequency: Frequency,
    /// Reach, range or area.
    pub origin: Origin,
    /// Whom it affects.
    pub targets: TargetRule,
    /// Maximum targets for melee and ranged powers (1 unless it says otherwise).
    pub max_targets: u8,
    /// Defense attacked.
    pub vs: Defense,
    /// Attack bonus (all included).
    pub bonus: i32,
    /// A basic attack (used for opportunity attacks and charges when melee).
    pub basic: bool,
    /// Damage on a hit (dice expression), if any.
    pub hit: Option<String>,
    /// Damage type.
    pub damage_type: Option<DamageType>,
    /// Damage on a miss, if any (rolled once like hit damage).
    pub miss: Option<String>,
    /// Extra dice rolled on a critical hit (§ Weapon properties: Improved Critical).
    #[serde(default)]
    pub crit_extra: Option<String>,
    /// Effects on a hit.
    pub on_hit: Vec<OrcusEffect>,
    /// Effects on a miss.
    pub on_miss: Vec<OrcusEffect>,
    /// § Weapon properties, Loading (swift): after an attack with it, a swift action reloads it
    /// before it attacks again.
    #[serde(default)]
    pub loading_swift: bool,
    /// § Action descriptions, the Effect line: effects on each target, hit or missed
    /// ("regardless of whether they hit or miss"), or on each target of a utility power.
    #[serde(default)]
    pub effect: Vec<OrcusEffect>,
    /// § Action descriptions (tangles): the area power's squares become a zone.
    #[serde(default)]
    pub zone: Option<ZoneSpec>,
    /// § Category, utility: a power with no attack roll (no `vs`); its Effect line applies to
    /// each target.
    #[serde(default)]
    pub utility: bool,
    /// § Maintain: the action that keeps its `maintain`-duration effects and zone going.
    #[serde(default)]
    pub maintain: Option<fray_protocol::event::ActionKind>,
    /// § Action descriptions, Category: an attack or a utility action.
    #[serde(default)]
    pub category: PowerCategory,
    /// § Action descriptions, Tags and Traditions: the power's tags, lowercase, from the
    /// vocabulary of `rules/orcus/tags.rs` (`weapon`, `focus`, `fire`, `arcane`, `zone`, …).
    #[serde(default)]
    pub tags: Vec<String>,
    /// The terms of `bonus`, named (the sheet's or stat block's attack bonus, proficiency, the
    /// ability of a basic attack, armor non-proficiency): the start of an attack's
    /// `modifiers`. Empty in a genesis of record format 1.
    #[serde(default, with = "fray_protocol::format::since_2")]
    pub bonus_terms: Vec<fray_protocol::roll::Modifier>,
    /// § Weapon properties, Side Weapon: this Weapon power made with the hero's side weapon
    /// (its dice, Improved Critical, reach or range and proficiency), chosen by the `attack`
    /// command's `weapon = "side"`.
    #[serde(default, deserialize_with = "power_nesting::deserialize")]
    pub side: Option<Box<PowerSpec>>,
    /// § Action required: an immediate counter's machine-readable trigger, which lets
    /// `ready_counter` ready it to resolve before that trigger (`rules/orcus/counters.rs`).
    #[serde(default)]
    pub counter_on: Option<CounterTrigger>,
}

/// The triggers a readied counter answers (§ Action required; content `counter_on`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CounterTrigger {
    /// `attacked`: an enemy's `attack` or `area_attack` targets the user.
    Attacked,
}

/// A zone an area power's Effect line creates over its area (§ Action descriptions).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneSpec {
    /// What it does to its squares.
    pub kind: fray_protocol::grid::ZoneKind,
    /// `until_end_of_sources_next_turn` or `end_of_battle`.
    pub duration: EffectDuration,
    /// It lasts only while maintained (§ Maintain).
    pub maintained: bool,
}

/// An Orcus power's category (§ Action descriptions, Category).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PowerCategory {
    /// Directed against one or more targets, with an attack roll.
    #[default]
    Attack,
    /// Affects the user, an ally or the environment, typically not an enemy.
    Utility,
}

impl PowerCategory {
    /// The wire name (`attack`, `utility`).
    pub fn name(self) -> &'static str {
        match self {
            PowerCategory::Attack => "attack",
            PowerCategory::Utility => "utility",
        }
    }
}

/// The action an Orcus power costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionCost {
    /// Standard action.
    Standard,
    /// Move action.
    Move,
    /// Swift action (the `quick` slot of the turn).
    Swift,
    /// § Immediate actions: a counter (resolves before its trigger), out of turn.
    ImmediateCounter,
    /// § Immediate actions: a reaction (resolves after its trigger), out of turn.
    ImmediateReaction,
    /// § Free actions: costs nothing; any number on the user's turn, and outside it when the
    /// power has a trigger (§ Outside of your turn).
    Free,
}

/// A Five Torches Deep combatant's numbers beyond the shared ones
/// (`five-torches-deep-combat.txt`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FtdSpec {
    /// Ability scores (initiative is the DEX score).
    pub abilities: fray_protocol::ftd::AbilityScores,
    /// Proficiency bonus.
    pub proficiency: i32,
    /// What it is proficient in (heroes: `medicine` helps stabilizing, `morale` morale checks).
    pub proficiencies: Vec<String>,
    /// Class (heroes).
    pub class: Option<String>,
    /// Hit dice (monsters).
    pub hd: Option<i32>,
    /// Morale bonus (monsters: by HD unless the stat block sets it).
    pub morale_bonus: i32,
    /// Adds proficiency to morale checks.
    pub morale_proficient: bool,
    /// A leader or expert (its death proposes a morale check).
    pub leader: bool,
    /// Attacks.
    pub attacks: Vec<FtdAttackSpec>,
    /// Load carried besides coins.
    pub load: i32,
    /// Coins carried.
    pub coins: i32,
    /// Speed in feet (30 unless given).
    pub speed: i32,
    /// Sees in darkness.
    pub darksight: bool,
    /// A retainer or NPC following this PC (its retreat calls for a morale check).
    pub follows: Option<fray_protocol::ids::CombatantId>,
}

/// A Five Torches Deep attack: a weapon or spell (heroes) or a monster's attack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FtdAttackSpec {
    /// Id used in commands.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Melee, ranged, arcane or divine.
    pub kind: AttackKind,
    /// A ranged attack (disadvantage in close range); melee attacks need close range.
    pub ranged: bool,
    /// The ability whose (current) modifier is added to the attack and damage (heroes); `None`
    /// for monsters, whose `bonus` is all.
    pub ability: Option<fray_protocol::ftd::Ability>,
    /// Adds the proficiency bonus (heroes proficient with it).
    pub proficient: bool,
    /// Fixed attack bonus (monsters; 0 for heroes).
    pub bonus: i32,
    /// Damage dice (heroes: the ability modifier is added at roll time).
    pub damage: String,
}

/// An Old-School Essentials combatant's numbers (`ose-adventuring.txt`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OseSpec {
    /// Class (characters).
    pub class: Option<String>,
    /// Hit dice as written (monsters).
    pub hd: Option<String>,
    /// THAC0 (characters: the class's; monsters: by HD).
    pub thac0: i32,
    /// Armour class (descending), shield included.
    pub ac: i32,
    /// The shield's part of the AC.
    pub shield: i32,
    /// Saves: death, wands, paralysis, breath, spells.
    pub saves: [i32; 5],
    /// Morale rating (monsters).
    pub morale: Option<i32>,
    /// Base movement rate (feet per turn).
    pub movement: i32,
    /// STR modifier to melee attack and damage.
    pub str_mod: i32,
    /// DEX modifier to missile attacks.
    pub dex_mod: i32,
    /// NPC reactions modifier (CHA).
    pub cha_mod: i32,
    /// Weapons and attacks.
    pub attacks: Vec<OseAttackSpec>,
    /// INT score (characters; Basic Fantasy § Secret Doors: 15 or higher finds them on 1–2).
    pub int: Option<i32>,
    /// The ability scores STR, INT, WIS, DEX, CON, CHA (characters; § Ability Checks).
    pub scores: Option<[i32; 6]>,
    /// Basic Fantasy: what its retainers, experience, travel and encumbrance rules read.
    pub bf: BfSpec,
    /// § Invulnerabilities: when not empty, only attacks of one of these kinds harm it.
    #[serde(default)]
    pub invulnerable: Vec<String>,
    /// § Subduing: not intelligent (content `unintelligent`): it cannot be subdued.
    #[serde(default)]
    pub unintelligent: bool,
    /// § Bombing: it flies (content `flies`) and may drop bombs.
    #[serde(default)]
    pub flies: bool,
    /// Basic Fantasy § Darkvision (OSE § Infravision): its range in feet (0: none).
    #[serde(default)]
    pub darkvision: u32,
    /// OSE § Optional Rule: Encumbrance: what a character wears and carries at the start
    /// (content `armor`, `load`, `treasure`), read when the session option is in play.
    #[serde(default)]
    pub load: OseLoad,
}

/// OSE § Optional Rule: Encumbrance: a character's armor and load at the start of the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OseLoad {
    /// Armor worn: `none` (unarmored), `leather` (light) or `metal` (heavy).
    pub armor: fray_protocol::bf::ArmorType,
    /// Coins of weight carried (treasure under the `basic` option, everything under `detailed`).
    pub coins: u32,
    /// A significant amount of treasure (the `basic` option).
    pub treasure: bool,
}

impl Default for OseLoad {
    fn default() -> Self {
        OseLoad {
            armor: fray_protocol::bf::ArmorType::None,
            coins: 0,
            treasure: false,
        }
    }
}

/// Basic Fantasy (`basic-fantasy-adventures.txt`): a combatant's scores and advancement.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BfSpec {
    /// STR score (characters; 0 for monsters).
    pub str: i32,
    /// CHA bonus (the B/X ability modifier; § Retainers).
    pub cha_bonus: i32,
    /// CON bonus (§ Overland Travel: the forced-march save).
    pub con_bonus: i32,
    /// WIS bonus (§ Becoming Lost).
    pub wis_bonus: i32,
    /// A halfling (§ Carrying Capacity): content `race = "halfling"` or class `halfling`.
    pub halfling: bool,
    /// The employer of a retainer (content `retainer_of`).
    pub retainer_of: Option<fray_protocol::ids::CombatantId>,
    /// Experience points before the adventure (content `xp`).
    pub xp: u32,
    /// XP needed for levels 2, 3, … (content `xp_table`; empty: no level limit is applied).
    pub xp_table: Vec<u32>,
    /// Asterisks after the hit dice (monsters; § Character Advancement: each adds the special
    /// ability bonus).
    pub stars: u32,
    /// § Movement and Encumbrance: the pounds of the content's `gear`, the character's load
    /// until the GM's `set_encumbrance` (`None`: no gear listed). Absent from stat blocks of
    /// record formats 1 and 2.
    #[serde(default, with = "fray_protocol::format::since_3")]
    pub gear_pounds: Option<u32>,
}

/// An Old-School Essentials weapon or monster attack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OseAttackSpec {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Damage dice.
    pub damage: String,
    /// Missile ranges (short, medium, long) in feet; `None` for melee.
    pub ranges: Option<[i32; 3]>,
    /// A slow weapon (acts last).
    pub slow: bool,
    /// What the attack is (§ Invulnerabilities), e.g. `silver`, `magic`.
    #[serde(default)]
    pub kinds: Vec<String>,
    /// § Attacks Per Round: one of a monster's several attacks per round (content `routine`);
    /// each routine attack may be made once in its turn.
    #[serde(default)]
    pub routine: bool,
}

/// Five Torches Deep: the kinds of attack (§ PC Attacks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    /// A melee weapon (STR; close range only).
    Melee,
    /// A ranged weapon (DEX; disadvantage in close range).
    Ranged,
    /// An arcane spell (INT).
    Arcane,
    /// A divine spell (WIS).
    Divine,
}
