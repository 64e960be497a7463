//! The battle map of grid rulesets (Orcus): squares, creature sizes, the map's terrain, and the
//! grid part of a combatant's state.

use crate::event::{DamageType, EffectDuration, EffectKind};
use serde::{Deserialize, Serialize};

/// A square of the map; `x` grows to the east, `y` to the south; (0, 0) is the north-west corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Square {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
}

/// Orcus § Unwilling movement: the squares the user of a power chooses to move one target
/// through by its push, pull or shunt — each the north-west square of the target's space after
/// one step, at most the power's number of squares (fewer, or none, stops early).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ForcedPath {
    /// The creature moved (one of the attack's targets).
    pub target: crate::ids::CombatantId,
    /// The squares, in order.
    pub path: Vec<Square>,
}

impl Square {
    /// A square.
    pub const fn new(x: i32, y: i32) -> Square {
        Square { x, y }
    }
}

impl std::fmt::Display for Square {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// A creature's size, smallest first (Orcus § Size; 13th Age § Grabbed, where `medium` is a
/// normal-sized creature). On a grid a creature's space is a square block of `side()` squares
/// whose north-west corner is its `square`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Size {
    /// Half a square; Fray places it in one square of its own.
    Tiny,
    /// 1 × 1.
    Small,
    /// 1 × 1.
    Medium,
    /// 2 × 2.
    Large,
    /// 3 × 3.
    Huge,
    /// 4 × 4.
    Gargantuan,
}

impl Size {
    /// Side of the space in squares.
    pub fn side(self) -> i32 {
        match self {
            Size::Tiny | Size::Small | Size::Medium => 1,
            Size::Large => 2,
            Size::Huge => 3,
            Size::Gargantuan => 4,
        }
    }
}

/// The map: its extent and its terrain. Squares outside `0..width × 0..height` do not exist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MapState {
    /// Columns.
    pub width: i32,
    /// Rows.
    pub height: i32,
    /// Walls and other solid, opaque obstacles: impassable, block line of sight and of effect.
    pub blocking: Vec<Square>,
    /// Difficult terrain: entering costs 1 extra square of movement.
    pub difficult: Vec<Square>,
    /// Solid but transparent obstacles (glass, ice): impassable, block line of effect but not
    /// line of sight.
    #[serde(default)]
    pub transparent: Vec<Square>,
    /// Lightly obscured squares (dim light, light fog, foliage): concealment.
    #[serde(default)]
    pub lightly_obscured: Vec<Square>,
    /// Heavily obscured squares (heavy fog, smoke): concealment against adjacent attackers,
    /// total concealment otherwise.
    #[serde(default)]
    pub heavily_obscured: Vec<Square>,
    /// Totally obscured squares (darkness): total concealment.
    #[serde(default)]
    pub totally_obscured: Vec<Square>,
    /// Deep water (§ Special movement modes, § Underwater combat): swimming without a swim
    /// speed costs 1 extra square; creatures in it fight underwater.
    #[serde(default)]
    pub water: Vec<Square>,
    /// Climbable surfaces (`^`: cliffs, trees, ladders): a creature on or next to one can climb
    /// up them (Orcus elevation).
    #[serde(default)]
    pub climbable: Vec<Square>,
    /// The Athletics DC to climb (`[map] climb_dc`, default 15).
    #[serde(default = "default_climb_dc")]
    pub climb_dc: i32,
    /// Orcus earshot areas (§ Areas of effect, "earshot"): how far, in squares (§ Range), a
    /// creature is heard (`[map] earshot`); `None` (the default): every creature on the map
    /// hears it.
    #[serde(default)]
    pub earshot: Option<i32>,
    /// Orcus § Athletics, swimming: the DC of the Athletics check a creature without a swim
    /// speed makes when it starts swimming (`[map] swim_dc`, the GM's; default 10).
    #[serde(default = "default_swim_dc")]
    pub swim_dc: i32,
    /// Orcus § Senses, lighting: squares in dim light (`,`): lightly obscured to a creature
    /// with normal vision, clear to one with low-light vision or darkvision.
    #[serde(default)]
    pub dim_light: Vec<Square>,
    /// Orcus § Senses, lighting: squares in darkness (`;`): totally obscured to a creature with
    /// normal or low-light vision, lightly obscured (as dim light) to one with darkvision.
    #[serde(default)]
    pub darkness: Vec<Square>,
}

fn default_climb_dc() -> i32 {
    15
}

fn default_swim_dc() -> i32 {
    10
}

/// The grid part of a combatant's state (Orcus).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GridState {
    /// North-west square of its space.
    pub square: Square,
    /// Size.
    pub size: Size,
    /// Speed in squares.
    pub speed: i32,
    /// Fortitude defense.
    pub fortitude: i32,
    /// Reflex defense.
    pub reflex: i32,
    /// Will defense.
    pub will: i32,
    /// Rank (`hero`, `mook`, `standard`, `elite`, `boss`).
    pub rank: String,
    /// Action points left.
    pub action_points: i32,
    /// The round in which it last spent an action point (one per round at most).
    pub action_point_round: Option<u32>,
    /// It has made its opportunity attack this turn (one per turn).
    pub opportunity_used: bool,
    /// It has used its immediate action since its last turn.
    pub immediate_used: bool,
    /// Recovery value (hit points healed per recovery).
    pub recovery_value: i32,
    /// It has used its Rally this encounter.
    pub rallied: bool,
    /// Saving-throw riders on effects it bears (§ Special saving throw riders).
    #[serde(default)]
    pub riders: Vec<Rider>,
    /// Effects (ids) it has maintained this turn (§ Maintain); cleared when its turn ends.
    #[serde(default)]
    pub maintained: Vec<u32>,
    /// Pieces of ammunition left (§ Attacks with ammunition); `None` when not tracked.
    #[serde(default)]
    pub ammunition: Option<i32>,
    /// The mount it rides (§ Mounted combat); it shares the mount's space.
    #[serde(default)]
    pub mounted_on: Option<crate::ids::CombatantId>,
    /// It controls the mount it rides (§ Controlling a mount).
    #[serde(default)]
    pub controls_mount: bool,
    /// Its height above the ground in squares (elevation: 4e-style cubes).
    #[serde(default)]
    pub height: i32,
    /// Loading (swift) powers fired and not yet reloaded (§ Weapon properties, Loading).
    #[serde(default)]
    pub unloaded: Vec<String>,
    /// § Targets, Allies and enemies: its allies for its next attack (`choose_allies`);
    /// `None`: its side.
    #[serde(default)]
    pub chosen_allies: Option<Vec<crate::ids::CombatantId>>,
    /// Creatures that declined to count as its allies for its next attack.
    #[serde(default)]
    pub declined_by: Vec<crate::ids::CombatantId>,
    /// § Choosing to be hit: creatures its next attack hits with no roll.
    #[serde(default)]
    pub hit_chosen_by: Vec<crate::ids::CombatantId>,
    /// § Mounting and dismounting (`rider_choices`): moved against its will while mounted, it
    /// takes its mount along.
    #[serde(default)]
    pub moves_mount: bool,
    /// § Mounting and dismounting (`rider_choices`): where it lands when it falls off, relative
    /// to its mount's north-west square (`None`: Fray chooses).
    #[serde(default)]
    pub landing: Option<Square>,
    /// § Controlling a mount: a controlled mount its rider commanded during the rider's current
    /// turn (cleared when a turn ends); a dazed one takes no second commanded action.
    #[serde(default)]
    pub commanded: bool,
    /// Zones it created with a power's Effect line (§ Action descriptions), until they end.
    #[serde(default)]
    pub zones: Vec<Zone>,
    /// § Maintain: the effects of its powers that last only while it maintains them.
    #[serde(default)]
    pub maintain_needed: Vec<MaintainedEffect>,
    /// § Action required: the immediate counter it readied (`ready_counter`), by power id,
    /// until it resolves, its immediate action is spent or its next turn starts.
    #[serde(default)]
    pub readied_counter: Option<String>,
    /// § Stealth: the enemies it is hidden from ("silent and invisible against those enemies").
    #[serde(default)]
    pub hidden_from: Vec<crate::ids::CombatantId>,
    /// § Stealth: the total of the Stealth check that hid it, while it is hidden from anyone.
    #[serde(default)]
    pub stealth: Option<i32>,
    /// § Stealth: it has searched actively this turn (`search`; once per turn).
    #[serde(default)]
    pub searched: bool,
    /// § Experience, levels and tiers (heroes): experience points earned in this session
    /// (`orcus_award_xp`), on top of what its level already took. Absent in states of record formats
    /// 1 and 2 (`protocol/README.md`, "The session's log").
    #[serde(default, with = "crate::format::since_3")]
    #[cfg_attr(feature = "schema", schemars(with = "u32"))]
    pub xp: u32,
    /// § Experience Points (monsters): its XP was awarded (`orcus_award_xp` counts each monster once).
    /// Absent in states of record formats 1 and 2.
    #[serde(default, with = "crate::format::since_3")]
    #[cfg_attr(feature = "schema", schemars(with = "bool"))]
    pub xp_awarded: bool,
}

/// A zone: squares a power's Effect line changed (Orcus § Action descriptions, tangles: "The
/// area becomes difficult terrain until the end of your next turn"). It belongs to its creator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Zone {
    /// Its id, from the effects' numbering (`maintain` and `end_effect` name it).
    pub id: u32,
    /// Who created it.
    pub source: crate::ids::CombatantId,
    /// The power that created it.
    pub power: String,
    /// What it does to its squares.
    pub kind: ZoneKind,
    /// The squares.
    pub squares: Vec<Square>,
    /// How long it lasts: `until_end_of_sources_next_turn`, or `end_of_battle` (also a zone kept
    /// by § Maintain, which ends sooner when not maintained).
    pub duration: crate::event::EffectDuration,
    /// An `until_end_of_sources_next_turn` zone whose creator's next turn has started.
    pub armed: bool,
}

/// What a zone does to its squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ZoneKind {
    /// Difficult terrain: entering a square costs 1 extra square of movement (fliers ignore it).
    DifficultTerrain,
}

/// Orcus § Maintain: an effect (on a creature) or a zone that ends at the end of its creator's
/// turn unless the creator spent `action` on `maintain` for it in that turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MaintainedEffect {
    /// The effect or zone, by id.
    pub effect: u32,
    /// The creature bearing the effect; `None` for a zone.
    pub target: Option<crate::ids::CombatantId>,
    /// The power it comes from.
    pub power: String,
    /// The action that maintains it (`quick` is the swift action).
    pub action: crate::event::ActionKind,
}

/// Saving-throw riders attached to one effect (Orcus § Special saving throw riders).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Rider {
    /// The effect (by id) the riders belong to.
    pub effect: u32,
    /// Applied when the effect ends by a save or by running out (an aftereffect).
    pub aftereffect: Option<RiderEffect>,
    /// Replaces the effect the first time its bearer fails a save against it.
    pub first_failed_save: Option<RiderEffect>,
    /// An aftereffect that deals damage once, from the effect's source, when the effect ends
    /// by a save or by running out ("Aftereffect: the target takes damage …").
    #[serde(default)]
    pub aftereffect_damage: Option<RiderDamage>,
}

/// Damage an aftereffect deals once (Orcus § Special saving throw riders).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RiderDamage {
    /// How much.
    pub amount: i32,
    /// Its type, if any.
    pub damage_type: Option<DamageType>,
}

/// What a rider applies: an effect kind and its duration (same source as the effect it rides).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RiderEffect {
    /// What it does.
    pub kind: EffectKind,
    /// When it ends.
    pub duration: EffectDuration,
}

/// How a combatant moves on the grid (Orcus § Move actions, § Unwilling movement).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum MoveMode {
    /// Walk: up to its speed; leaving an enemy's adjacency provokes an opportunity attack.
    #[default]
    Walk,
    /// Run: up to speed + 2; then −5 to attacks and off-guard until the start of its next turn.
    Run,
    /// Step: 1 square; provokes nothing.
    Step,
    /// Pushed, pulled or shunted by someone else; provokes nothing.
    Unwilling,
    /// Fly (§ Special movement modes): up to its fly speed; ignores difficult terrain and water.
    Fly,
    /// Climb: up to its climb speed.
    Climb,
    /// Swim: up to its swim speed, through water squares only, at no extra cost.
    Swim,
    /// Burrow: up to its burrow speed.
    Burrow,
    /// Run while flying (§ Run: the mode's speed + 2, then −5 to attacks and off-guard).
    RunFly,
    /// Run while climbing.
    RunClimb,
    /// Run while swimming.
    RunSwim,
    /// Run while burrowing.
    RunBurrow,
}

impl MoveMode {
    /// A run (§ Run: +2 squares, then −5 to attacks and off-guard), in any movement mode.
    pub fn is_run(self) -> bool {
        matches!(
            self,
            MoveMode::Run
                | MoveMode::RunFly
                | MoveMode::RunClimb
                | MoveMode::RunSwim
                | MoveMode::RunBurrow
        )
    }

    /// The special movement mode it uses (§ Special movement modes), `None` on foot.
    pub fn special(self) -> Option<SpecialMode> {
        match self {
            MoveMode::Fly | MoveMode::RunFly => Some(SpecialMode::Fly),
            MoveMode::Climb | MoveMode::RunClimb => Some(SpecialMode::Climb),
            MoveMode::Swim | MoveMode::RunSwim => Some(SpecialMode::Swim),
            MoveMode::Burrow | MoveMode::RunBurrow => Some(SpecialMode::Burrow),
            MoveMode::Walk | MoveMode::Run | MoveMode::Step | MoveMode::Unwilling => None,
        }
    }
}

/// A special movement mode with its own speed (Orcus § Special movement modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SpecialMode {
    /// Fly.
    Fly,
    /// Climb.
    Climb,
    /// Swim.
    Swim,
    /// Burrow.
    Burrow,
}
