//! Orcus content: hero and monster stat blocks with powers, and encounters with a map, as TOML
//! (see `docs/content.md`). Monsters are built from level, role and rank by the monster builder
//! (`orcus-basic-rules.txt` § Creating new monsters); any number can be overridden.

use super::{armor, rules, tables};
use crate::content::file::{Ctx, SeatFile, parse_size};
use crate::content::model::{
    AbilityMods, ActionCost, CombatantSpec, CounterTrigger, EffectSpec, Encounter, Frequency,
    HeroSpec, MountKind, OrcusEffect, OrcusSpec, Origin, PowerSpec, RechargeCondition,
    SecondaryAttack, SecondaryOn, SecondaryTargets, SessionOptions, TargetRule, Vision,
};
use crate::content::{ContentError, resolve_seats};
use fray_protocol::event::{Condition, DamageType, Defense, EffectDuration, SaveDifficulty};
use fray_protocol::grid::{MapState, Square};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::roll::Modifiers;
use fray_protocol::state::Defenses;
use serde::Deserialize;
use std::collections::BTreeMap;

mod effects;

/// `[options]` of an Orcus encounter.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrcusOptionsFile {
    /// Rests after the battle (§ Resting); the GM ends the session.
    #[serde(default)]
    pub rests: bool,
}

/// An Orcus content file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrcusFile {
    /// Ruleset id (`orcus`; required in encounter files).
    pub ruleset: Option<String>,
    /// Encounter title.
    pub title: Option<String>,
    /// Heroes joining the encounter, by id.
    #[serde(default)]
    pub heroes: Vec<String>,
    /// Monster groups.
    #[serde(default)]
    pub monsters: Vec<GroupFile>,
    /// Player seats.
    #[serde(default)]
    pub seats: Vec<SeatFile>,
    /// The map.
    pub map: Option<MapFile>,
    /// Session options.
    #[serde(default)]
    pub options: OrcusOptionsFile,
    /// Starting squares by combatant id (north-west square of its space).
    #[serde(default)]
    pub positions: BTreeMap<String, [i32; 2]>,
    /// Hero stat blocks.
    #[serde(default)]
    pub hero: Vec<HeroFile>,
    /// Monster stat blocks.
    #[serde(default)]
    pub monster: Vec<MonsterFile>,
    /// Later battles of the session (with `[options] rests = true`), in order; the GM brings
    /// each in with `next_battle`.
    #[serde(default)]
    pub battles: Vec<OrcusBattleFile>,
}

/// `[[battles]]` of an Orcus encounter: a later battle — new monsters against the same heroes.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrcusBattleFile {
    /// Title (default "Battle N").
    pub title: Option<String>,
    /// Monster groups coming in; ids continue each template's numbering.
    #[serde(default)]
    pub monsters: Vec<GroupFile>,
    /// Starting squares of this battle's monsters and of every hero.
    #[serde(default)]
    pub positions: BTreeMap<String, [i32; 2]>,
}

/// `[[monsters]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupFile {
    /// Template id.
    pub template: String,
    /// How many (1..=20).
    #[serde(default = "one")]
    pub count: u32,
}

fn one() -> u32 {
    1
}

/// `[map]`: rows of characters — `.` floor, `#` wall, `~` difficult terrain, `=` transparent
/// wall (glass, ice), `:` lightly, `%` heavily, `@` totally obscured, `w` water, `^` climbable.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    /// Rows, north to south.
    pub rows: Vec<String>,
    /// The Athletics DC to climb a `^` square (elevation; default 15).
    #[serde(default)]
    pub climb_dc: Option<i32>,
    /// The earshot radius in squares (§ Areas of effect, "earshot"; default: the whole map).
    #[serde(default)]
    pub earshot: Option<i32>,
    /// § Athletics, swimming: the DC to start swimming without a swim speed (default 10).
    #[serde(default)]
    pub swim_dc: Option<i32>,
}

/// `[[hero]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeroFile {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Level (1..=30).
    pub level: i32,
    /// Maximum hit points.
    pub hp: i32,
    /// AC as on the sheet; computed from `armor`/`shield` when either is given (then absent).
    pub ac: Option<i32>,
    /// Fortitude as on the sheet; absent: 10 + half level + the higher of the Strength and
    /// Constitution modifiers (`HeroFile::defenses`).
    #[serde(default)]
    pub fortitude: Option<i32>,
    /// Reflex (before the shield bonus and the non-proficiency penalty); absent: 10 + half
    /// level + the higher of the Dexterity and Intelligence modifiers.
    #[serde(default)]
    pub reflex: Option<i32>,
    /// Will; absent: 10 + half level + the higher of the Wisdom and Charisma modifiers.
    #[serde(default)]
    pub will: Option<i32>,
    /// Initiative bonus.
    pub initiative: i32,
    /// Speed in squares.
    #[serde(default = "six")]
    pub speed: i32,
    /// Size.
    #[serde(default)]
    pub size: Option<String>,
    /// Recoveries.
    pub recoveries: i32,
    /// Hit points per recovery (default: a quarter of the maximum).
    pub recovery_value: Option<i32>,
    /// Ability modifiers (untrained skill checks add them to half the level).
    #[serde(default)]
    pub str: i32,
    /// Constitution modifier.
    #[serde(default)]
    pub con: i32,
    /// Dexterity modifier.
    #[serde(default)]
    pub dex: i32,
    /// Intelligence modifier.
    #[serde(default)]
    pub int: i32,
    /// Wisdom modifier.
    #[serde(default)]
    pub wis: i32,
    /// Charisma modifier.
    #[serde(default)]
    pub cha: i32,
    /// Skill modifiers as on the character sheet (`{ athletics = 7 }`); a skill not listed
    /// uses half the level plus its ability modifier.
    #[serde(default)]
    pub skills: BTreeMap<String, i32>,
    /// The weapon of its `dW` powers, by its name in § Weapons (e.g. `longsword`).
    pub weapon: Option<String>,
    /// Pieces of ammunition carried (arrows, bolts, bullets), for powers with `ammunition`.
    pub ammunition: Option<i32>,
    /// § Special movement modes: climb, fly, swim and burrow speeds (0: none).
    #[serde(default)]
    pub climb: i32,
    /// Fly speed.
    #[serde(default)]
    pub fly: i32,
    /// Swim speed.
    #[serde(default)]
    pub swim: i32,
    /// Burrow speed.
    #[serde(default)]
    pub burrow: i32,
    /// The Aquatic tag (§ Underwater combat: +2 to attacks against creatures without it).
    #[serde(default)]
    pub aquatic: bool,
    /// § Senses: `"low-light vision"` and/or `"darkvision"` (none: as well as a human).
    #[serde(default)]
    pub senses: Vec<String>,
    /// § Mounted combat: it can serve as a mount (`trained`, `untrained` or `intelligent`).
    #[serde(default)]
    pub mount: Option<MountKind>,
    /// Elevation: it can hover (it does not fall when stunned or knocked prone aloft).
    #[serde(default)]
    pub hover: bool,
    /// Elevation: it falls slowly and lands unharmed.
    #[serde(default)]
    pub slow_fall: bool,
    /// Powers.
    #[serde(default)]
    pub powers: Vec<PowerFile>,
    /// § Armor and shields: body armor worn, by its table name (`leather`, `plate armor`).
    #[serde(default)]
    pub armor: Option<String>,
    /// § Armor and shields: the shield carried (`light shield`, `heavy`).
    #[serde(default)]
    pub shield: Option<String>,
    /// § Armor Proficiency: armor and shields the hero is proficient with (default: what it
    /// wears).
    #[serde(default)]
    pub armor_proficiency: Option<Vec<String>>,
    /// § Weapon proficiency: weapons (table names) and categories (`simple`, `martial`,
    /// `exotic`) the hero is proficient with (default: the weapons it carries).
    #[serde(default)]
    pub weapon_proficiency: Option<Vec<String>>,
    /// § Improvised weapons: with `weapon = "unarmed"` or `"improvised"`, strikes in 1 or 2
    /// hands (default: unarmed two-handed when both hands are free, improvised one-handed).
    #[serde(default)]
    pub improvised_hands: Option<u8>,
    /// § Increasing weapon damage dice: steps (0..=3) by which the hero's weapon die (`dW`,
    /// main and side weapon) is increased along "Table – Increased Weapon Die".
    #[serde(default)]
    pub weapon_die_increase: u8,
    /// § Weapon properties, Side Weapon: the side weapon in the off hand (table name).
    #[serde(default)]
    pub side_weapon: Option<String>,
}

/// § Special movement modes: the climb, fly, swim and burrow speeds, each 0..=20 (0: none).
fn modes(
    ctx: &Ctx,
    f: &dyn Fn(&str) -> String,
    speeds: [i32; 4],
) -> Result<crate::content::model::OrcusModes, ContentError> {
    for (name, n) in ["climb", "fly", "swim", "burrow"].iter().zip(speeds) {
        if !(0..=20).contains(&n) {
            return Err(ctx.err(f(name), format!("{n} is outside 0..=20")));
        }
    }
    let [climb, fly, swim, burrow] = speeds;
    Ok(crate::content::model::OrcusModes {
        climb,
        fly,
        swim,
        burrow,
    })
}

fn six() -> i32 {
    6
}

/// `[[monster]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonsterFile {
    /// Template id.
    pub template: String,
    /// Name.
    pub name: String,
    /// Level (1..=35).
    pub level: i32,
    /// `archer`, `blocker`, `skulker`, `spoiler`, `striker` or `wrecker`.
    pub role: String,
    /// `mook`, `standard`, `elite` or `boss`.
    #[serde(default = "standard")]
    pub rank: String,
    /// Size.
    #[serde(default)]
    pub size: Option<String>,
    /// Speed (6 for human speed).
    #[serde(default = "six")]
    pub speed: i32,
    /// Dexterity modifier before half level (initiative = half level + this).
    #[serde(default)]
    pub dex: i32,
    /// Strength modifier before half level.
    #[serde(default)]
    pub str: i32,
    /// Constitution modifier before half level.
    #[serde(default)]
    pub con: i32,
    /// Intelligence modifier before half level.
    #[serde(default)]
    pub int: i32,
    /// Wisdom modifier before half level.
    #[serde(default)]
    pub wis: i32,
    /// Charisma modifier before half level.
    #[serde(default)]
    pub cha: i32,
    /// Skills it is trained in (5 + half level + the ability modifier).
    #[serde(default)]
    pub trained: Vec<String>,
    /// Overrides of the builder's numbers.
    pub ac: Option<i32>,
    /// Override.
    pub fortitude: Option<i32>,
    /// Override.
    pub reflex: Option<i32>,
    /// Override.
    pub will: Option<i32>,
    /// Override.
    pub hp: Option<i32>,
    /// Regeneration.
    #[serde(default)]
    pub regeneration: i32,
    /// § Incorporeal: half damage from all attacks.
    #[serde(default)]
    pub incorporeal: bool,
    /// § Special movement modes: climb, fly, swim and burrow speeds (0: none).
    #[serde(default)]
    pub climb: i32,
    /// Fly speed.
    #[serde(default)]
    pub fly: i32,
    /// Swim speed.
    #[serde(default)]
    pub swim: i32,
    /// Burrow speed.
    #[serde(default)]
    pub burrow: i32,
    /// The Aquatic tag (§ Underwater combat: +2 to attacks against creatures without it).
    #[serde(default)]
    pub aquatic: bool,
    /// § Senses: `"low-light vision"` and/or `"darkvision"` (none: as well as a human).
    #[serde(default)]
    pub senses: Vec<String>,
    /// § Mounted combat: it can serve as a mount (`trained`, `untrained` or `intelligent`).
    #[serde(default)]
    pub mount: Option<MountKind>,
    /// Elevation: it can hover (it does not fall when stunned or knocked prone aloft).
    #[serde(default)]
    pub hover: bool,
    /// Elevation: it falls slowly and lands unharmed.
    #[serde(default)]
    pub slow_fall: bool,
    /// `{ fire = 5 }`.
    #[serde(default)]
    pub resist: BTreeMap<String, i32>,
    /// `{ radiant = 5 }`.
    #[serde(default)]
    pub weak: BTreeMap<String, i32>,
    /// `["poison"]`.
    #[serde(default)]
    pub immune: Vec<String>,
    /// Powers.
    #[serde(default)]
    pub powers: Vec<PowerFile>,
}

fn standard() -> String {
    "standard".into()
}

/// `[[hero.powers]]` / `[[monster.powers]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerFile {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// `standard`, `move`, `swift`, `immediate counter`, `immediate reaction` or `free`.
    #[serde(default = "standard")]
    pub action: String,
    /// The trigger of an immediate action (or of a free action usable outside the user's turn).
    pub trigger: Option<String>,
    /// On a hit, push the target this many squares (§ Unwilling movement).
    pub push: Option<u32>,
    /// On a hit, pull the target this many squares.
    pub pull: Option<u32>,
    /// On a hit, shunt the target this many squares.
    pub shunt: Option<u32>,
    /// `at-will`, `encounter`, `daily`, `recharge 5-6`.
    #[serde(default)]
    pub frequency: Option<String>,
    /// `melee`, `ranged`, `near burst`, `near blast`, `far burst`, `far blast`, `near eyesight`,
    /// `near earshot`, `near eyesight or earshot`, `near eyesight and earshot` (no `area`).
    pub origin: String,
    /// Melee reach (default 1).
    pub reach: Option<i32>,
    /// Ranged: `[short, long]`; far: `[range]`.
    #[serde(default)]
    pub range: Vec<i32>,
    /// Area size.
    pub area: Option<i32>,
    /// `one enemy`, `one creature`, `all creatures`, `all enemies`, `nearest enemy`.
    pub targets: Option<String>,
    /// Maximum targets (melee/ranged).
    pub max_targets: Option<u8>,
    /// `ac`, `fortitude`, `reflex`, `will`; none for a utility power (no attack roll: its
    /// `effect` applies to each target).
    pub vs: Option<String>,
    /// Attack bonus (monsters: defaults to the builder's).
    pub bonus: Option<i32>,
    /// Hit damage: a dice expression, or (monsters) `table:at-will`, `table:at-will-multi`,
    /// `table:surge`, `table:surge-multi`, `table:mook`.
    pub hit: Option<String>,
    /// Damage type.
    pub damage_type: Option<String>,
    /// Miss damage.
    pub miss: Option<String>,
    /// Hit damage from level 21 (a power's "Level 21:" line), for heroes of level 21 or more.
    pub level21_hit: Option<String>,
    /// A basic attack.
    #[serde(default)]
    pub basic: bool,
    /// Effects on a hit.
    #[serde(default)]
    pub on_hit: Vec<EffectFile>,
    /// Effects on a miss.
    #[serde(default)]
    pub on_miss: Vec<EffectFile>,
    /// § Secondary attacks: an attack against the same target (or, per its `targets`, the
    /// creatures next to it) when this one hits (or misses, or always, per `on`).
    pub secondary: Option<Box<SecondaryFile>>,
    /// § Attacks with ammunition: each target uses one piece of the hero's ammunition. Default:
    /// a power dealing its weapon's dice (`dW`) with a Loading weapon does (§ Weapon properties,
    /// Loading: "Each time you attack with the weapon, you expend one piece of ammunition");
    /// other powers do not.
    #[serde(default)]
    pub ammunition: Option<bool>,
    /// § Weapon properties, Loading: `"free"` (reloading costs nothing) or `"swift"` (a swift
    /// action, `reload`, before the next attack with it).
    #[serde(default)]
    pub loading: Option<String>,
    /// § Action descriptions, the Effect line: effect clauses on each target, hit or missed (or
    /// each target of a utility power); an area power may add one zone clause
    /// (`{ zone = "difficult terrain", duration = "end of your next turn" }`).
    #[serde(default)]
    pub effect: Vec<EffectFile>,
    /// § Maintain: `swift`, `move` or `standard` — the action that keeps the power's
    /// `maintain`-duration effects and zone going.
    pub maintain: Option<String>,
    /// § Action descriptions, Category: `attack` (default) or `utility`.
    #[serde(default)]
    pub category: Option<String>,
    /// § Action descriptions, Tags and Traditions (`rules/orcus/tags.rs`): e.g.
    /// `["weapon", "martial"]`, `["arcane", "fire", "zone"]`.
    #[serde(default)]
    pub tags: Vec<String>,
    /// `"auto"`: a hero's basic Weapon attack adds the ability modifier its weapon calls for to
    /// the attack and damage rolls (§ Weapon properties, Thrown (light)/(heavy); § Strength and
    /// § Dexterity, Attack Rolls and Damage; `rules/orcus/weapons.rs::basic_ability`).
    #[serde(default)]
    pub ability: Option<String>,
    /// § Action required: an `immediate counter`'s machine-readable trigger, `"attacked"` (an
    /// enemy's attack targets the user), so that `ready_counter` can ready it to resolve before
    /// its trigger. A melee or ranged attack power, or a self utility power.
    #[serde(default)]
    pub counter_on: Option<String>,
}

/// `[…powers.secondary]`: what differs from the primary attack (§ Secondary attacks: "the same
/// tags, attack, defense and range as the original attack, unless otherwise specified").
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecondaryFile {
    /// `hit` (default), `miss` or `effect` (either way): when it takes place.
    pub on: Option<String>,
    /// Whom it attacks: `primary` (default: the primary attack's target),
    /// `creatures_adjacent_to_primary`, `enemies_adjacent_to_primary`,
    /// `creatures_within_N_of_primary`, `enemies_within_N_of_primary` (N squares, 1–20),
    /// `nearest_creature_to_primary` or `nearest_enemy_to_primary`.
    pub targets: Option<String>,
    /// Defense (default: the primary's).
    pub vs: Option<String>,
    /// Attack bonus (default: the primary's).
    pub bonus: Option<i32>,
    /// Hit damage.
    pub hit: Option<String>,
    /// Damage type (default: the primary's).
    pub damage_type: Option<String>,
    /// Miss damage.
    pub miss: Option<String>,
    /// Effects on a hit.
    #[serde(default)]
    pub on_hit: Vec<EffectFile>,
    /// Effects on a miss.
    #[serde(default)]
    pub on_miss: Vec<EffectFile>,
}

/// An effect clause: `{ condition = "dazed", duration = "save ends" }` or
/// `{ persistent = 5, damage_type = "fire" }`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EffectFile {
    /// A condition.
    pub condition: Option<String>,
    /// `save ends` (default), `end of your next turn`, `encounter`.
    pub duration: Option<String>,
    /// Persistent damage per turn (save ends).
    pub persistent: Option<i32>,
    /// Its type.
    pub damage_type: Option<String>,
    /// § Special saving throw riders: an effect applied when this one ends by a save or by
    /// running out.
    pub aftereffect: Option<Box<EffectFile>>,
    /// § Special saving throw riders: what this effect becomes the first time its bearer fails
    /// a save against it.
    pub first_failed_save: Option<Box<EffectFile>>,
    /// In an aftereffect only: damage dealt once (`{ damage = 3, damage_type = "fire" }`).
    pub damage: Option<i32>,
    /// In a power's `effect` only, for an area power: its area becomes a zone
    /// (`difficult terrain`).
    pub zone: Option<String>,
}

fn damage_type(ctx: &Ctx, field: &str, s: &str) -> Result<DamageType, ContentError> {
    Ok(match s {
        "acid" => DamageType::Acid,
        "cold" => DamageType::Cold,
        "fire" => DamageType::Fire,
        "force" => DamageType::Force,
        "lightning" => DamageType::Lightning,
        "necrotic" => DamageType::Necrotic,
        "poison" => DamageType::Poison,
        "psychic" => DamageType::Psychic,
        "radiant" => DamageType::Radiant,
        "thunder" => DamageType::Thunder,
        o => {
            return Err(ctx.err(
                field,
                format!(
                    "unknown damage type '{o}' (acid, cold, fire, force, lightning, necrotic, poison, psychic, radiant, thunder)"
                ),
            ));
        }
    })
}

const CONDITIONS: &[(&str, Condition)] = &[
    ("blinded", Condition::Blinded),
    ("dazed", Condition::Dazed),
    ("helpless", Condition::Helpless),
    ("immobilized", Condition::Immobilized),
    ("marked", Condition::Marked),
    ("prone", Condition::Prone),
    ("restrained", Condition::Restrained),
    ("slowed", Condition::Slowed),
    ("stunned", Condition::Stunned),
    ("weakened", Condition::Weakened),
    ("off-guard", Condition::OffGuard),
    ("grappled", Condition::Grappled),
];

/// `push`, `pull` or `shunt` (at most one, 1–10 squares).
fn forced(
    ctx: &Ctx,
    field: &str,
    p: &PowerFile,
) -> Result<Option<crate::content::model::ForcedSpec>, ContentError> {
    use crate::content::model::{ForcedKindSpec, ForcedSpec};
    let given: Vec<(ForcedKindSpec, &str, u32)> = [
        (ForcedKindSpec::Push, "push", p.push),
        (ForcedKindSpec::Pull, "pull", p.pull),
        (ForcedKindSpec::Shunt, "shunt", p.shunt),
    ]
    .into_iter()
    .filter_map(|(k, n, v)| v.map(|v| (k, n, v)))
    .collect();
    match given.as_slice() {
        [] => Ok(None),
        [(kind, name, squares)] => {
            if !(1..=10).contains(squares) {
                return Err(ctx.err(
                    format!("{field}.{name}"),
                    format!("{squares} squares is outside 1..=10"),
                ));
            }
            Ok(Some(ForcedSpec {
                kind: *kind,
                squares: *squares,
            }))
        }
        _ => Err(ctx.err(
            field,
            "a power pushes, pulls or shunts, not more than one of them",
        )),
    }
}

/// An effect clause with its riders; a rider's own effect carries no riders.
fn orcus_effect(ctx: &Ctx, field: &str, e: &EffectFile) -> Result<OrcusEffect, ContentError> {
    let rider = |name: &str, r: &Option<Box<EffectFile>>| -> Result<_, ContentError> {
        let Some(r) = r else { return Ok(None) };
        let f = format!("{field}.{name}");
        if r.aftereffect.is_some() || r.first_failed_save.is_some() {
            return Err(ctx.err(f, "a rider's effect cannot carry riders of its own"));
        }
        effect(ctx, &f, r).map(Some)
    };
    let first_failed_save = rider("first_failed_save", &e.first_failed_save)?;
    let main = effect(ctx, field, e)?;
    // An aftereffect may deal damage instead (§ Special saving throw riders, second example).
    let (aftereffect, aftereffect_damage) = match &e.aftereffect {
        Some(a) if a.damage.is_some() => (None, Some(after_damage(ctx, field, a)?)),
        _ => (rider("aftereffect", &e.aftereffect)?, None),
    };
    if first_failed_save.is_some() && !matches!(main.duration(), EffectDuration::SaveEnds(_)) {
        return Err(ctx.err(
            format!("{field}.first_failed_save"),
            "only a save-ends effect has a first failed save",
        ));
    }
    Ok(OrcusEffect {
        effect: main,
        aftereffect,
        first_failed_save,
        aftereffect_damage,
        maintained: false,
    })
}

/// An aftereffect's damage: `damage` (1–100) and an optional `damage_type`, nothing else.
fn after_damage(
    ctx: &Ctx,
    field: &str,
    a: &EffectFile,
) -> Result<fray_protocol::grid::RiderDamage, ContentError> {
    let f = format!("{field}.aftereffect");
    if a.condition.is_some()
        || a.persistent.is_some()
        || a.duration.is_some()
        || a.aftereffect.is_some()
        || a.first_failed_save.is_some()
    {
        return Err(ctx.err(
            f,
            "a damage aftereffect has only `damage` and `damage_type`",
        ));
    }
    let amount = a.damage.unwrap_or(0);
    if !(1..=100).contains(&amount) {
        return Err(ctx.err(
            format!("{f}.damage"),
            format!("{amount} is outside 1..=100"),
        ));
    }
    Ok(fray_protocol::grid::RiderDamage {
        amount,
        damage_type: match &a.damage_type {
            Some(t) => Some(damage_type(ctx, &format!("{f}.damage_type"), t)?),
            None => None,
        },
    })
}

fn effect(ctx: &Ctx, field: &str, e: &EffectFile) -> Result<EffectSpec, ContentError> {
    if e.zone.is_some() {
        return Err(ctx.err(
            format!("{field}.zone"),
            "a zone belongs in an area power's `effect` list, as a clause of its own",
        ));
    }
    if e.damage.is_some() {
        return Err(ctx.err(
            format!("{field}.damage"),
            "only an aftereffect deals damage once (`aftereffect = { damage = 3 }`)",
        ));
    }
    let duration = match e.duration.as_deref().unwrap_or("save ends") {
        "save ends" => EffectDuration::SaveEnds(SaveDifficulty::TenPlus),
        "end of your next turn" => EffectDuration::UntilEndOfSourcesNextTurn,
        "start of your next turn" => EffectDuration::UntilStartOfSourcesNextTurn,
        "encounter" => EffectDuration::EndOfBattle,
        o => {
            return Err(ctx.err(
                format!("{field}.duration"),
                format!(
                    "unknown duration '{o}' (save ends, end of your next turn, start of your next turn, encounter)"
                ),
            ));
        }
    };
    match (&e.condition, e.persistent) {
        (Some(c), None) => {
            let Some((_, condition)) = CONDITIONS.iter().find(|(n, _)| n == c) else {
                let names: Vec<&str> = CONDITIONS.iter().map(|(n, _)| *n).collect();
                return Err(ctx.err(
                    format!("{field}.condition"),
                    format!("unknown condition '{c}' ({})", names.join(", ")),
                ));
            };
            // Prone lasts until the creature stands up (§ Stand Up).
            let duration = if *condition == Condition::Prone && e.duration.is_none() {
                EffectDuration::EndOfBattle
            } else {
                duration
            };
            Ok(EffectSpec::Condition {
                condition: *condition,
                duration,
            })
        }
        (None, Some(amount)) if (1..=100).contains(&amount) => Ok(EffectSpec::Ongoing {
            amount,
            damage_type: match &e.damage_type {
                Some(t) => Some(damage_type(ctx, &format!("{field}.damage_type"), t)?),
                None => None,
            },
            save: SaveDifficulty::TenPlus,
        }),
        (None, Some(a)) => Err(ctx.err(
            format!("{field}.persistent"),
            format!("{a} is outside 1..=100"),
        )),
        _ => Err(ctx.err(
            field,
            "an effect is either a condition or persistent damage",
        )),
    }
}

fn check_dice(ctx: &Ctx, field: &str, e: &str) -> Result<(), ContentError> {
    crate::dice::DiceExpr::parse(e)
        .map(|_| ())
        .map_err(|err| ctx.err(field, format!("dice expression '{e}': {err}")))
}

struct Builder {
    level: i32,
    role: tables::Role,
    rank: tables::Rank,
    vs_ac: i32,
    vs_other: i32,
}

/// A hero's weapon (§ Weapons) and level, for `dW` damage and Improved Critical; whether it
/// is proficient with the weapon (§ Weapon proficiency, for Weapon powers).
#[derive(Clone, Copy)]
struct Gear {
    weapon: Option<&'static tables::Weapon>,
    level: i32,
    proficient: bool,
    /// § Side Weapon: the side weapon and proficiency with it.
    side: Option<(&'static tables::Weapon, bool)>,
    /// § Increasing weapon damage dice: steps on the weapon die (checked on load).
    die_steps: u8,
    /// The hero's Strength and Dexterity modifiers (for `ability = "auto"`).
    str_dex: (i32, i32),
}

impl Gear {
    /// The weapon's damage die after the hero's increases (§ Increasing weapon damage dice).
    fn die(&self, w: &tables::Weapon) -> tables::Dice {
        tables::increased_die(w.damage, self.die_steps).unwrap_or(w.damage)
    }
}

/// Replaces every `NdW` (N weapon dice; `dW` is one) with the weapon's dice times N (§ Weapon
/// dice: a 2d6 weapon's 3dW is 6d6). Returns the expression and whether it used `dW`.
fn expand_dw(
    ctx: &Ctx,
    field: &str,
    expr: &str,
    gear: Option<Gear>,
) -> Result<(String, bool), ContentError> {
    if !expr.contains("dW") {
        return Ok((expr.to_owned(), false));
    }
    let Some((w, g)) = gear.and_then(|g| g.weapon.map(|w| (w, g))) else {
        return Err(ctx.err(
            field,
            "`dW` needs a weapon: give the hero `weapon = \"...\"` (monsters use dice or table:)",
        ));
    };
    let mut out = String::new();
    let mut rest = expr;
    while let Some(i) = rest.find("dW") {
        let (before, after) = rest.split_at(i);
        let digits: String = before
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_digit())
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let head = &before[..before.len() - digits.len()];
        let n: i32 = if digits.is_empty() {
            1
        } else {
            digits
                .parse()
                .map_err(|_| ctx.err(field, format!("`{digits}dW` is not a number of dice")))?
        };
        if !(1..=10).contains(&n) {
            return Err(ctx.err(field, format!("{n}dW is outside 1..=10 weapon dice")));
        }
        out.push_str(head);
        let die = g.die(w);
        out.push_str(&format!("{}d{}", n * die.count, die.sides));
        rest = &after[2..];
    }
    out.push_str(rest);
    Ok((out, true))
}

fn power(
    ctx: &Ctx,
    field: &str,
    p: &PowerFile,
    monster: Option<&Builder>,
    gear: Option<Gear>,
) -> Result<PowerSpec, ContentError> {
    // § Tags, the Weapon tag: a hero's Weapon power takes its weapon's reach or range and adds
    // its proficiency bonus (`rules/orcus/weapons.rs`).
    let weapon_power = match gear {
        Some(g) => super::weapons::weapon_power(p, g.weapon, g.proficient)
            .map_err(|(f, e)| ctx.err(format!("{field}.{f}"), e))?,
        None => None,
    };
    // § Side Weapon: the same power made with the side weapon, precomputed.
    let side = match gear {
        Some(Gear {
            side: Some((w, proficient)),
            level,
            die_steps,
            str_dex,
            ..
        }) if weapon_power.is_some() => Some(Box::new(power(
            ctx,
            field,
            p,
            monster,
            Some(Gear {
                weapon: Some(w),
                level,
                proficient,
                side: None,
                die_steps,
                str_dex,
            }),
        )?)),
        _ => None,
    };
    let (p, proficiency) = match &weapon_power {
        Some((q, bonus)) => (q, *bonus),
        None => (p, 0),
    };
    if p.id.is_empty() || p.id.len() > 40 {
        return Err(ctx.err(format!("{field}.id"), "an id is 1-40 characters"));
    }
    let action = action_cost(ctx, field, p)?;
    check_trigger(ctx, field, p, action)?;
    let frequency = frequency(ctx, field, p)?;
    let origin = origin(ctx, field, p)?;
    let targets = target_rule(ctx, field, p, origin)?;
    // § Category: a utility power makes no attack roll.
    let utility = p.vs.is_none();
    if utility {
        effects::check_utility(ctx, field, p)?;
    }
    let vs = defense(ctx, field, p)?;
    // § Weapon properties, Thrown (light)/(heavy); § Strength, § Dexterity: a basic Weapon
    // attack's ability modifier, to the attack and damage rolls (`ability = "auto"`).
    let ability = match p.ability.as_deref() {
        None => 0,
        Some(a) => {
            super::weapons::basic_ability(p, a, gear.and_then(|g| g.weapon.map(|w| (w, g.str_dex))))
                .map_err(|(f, e)| ctx.err(format!("{field}.{f}"), e))?
        }
    };
    let bonus = match (p.bonus, monster) {
        (Some(b), _) => b + proficiency + ability,
        (None, Some(m)) if vs == Defense::Ac => m.vs_ac,
        (None, Some(m)) => m.vs_other,
        (None, None) if utility => 0,
        (None, None) => {
            return Err(ctx.err(format!("{field}.bonus"), "a hero's power gives its bonus"));
        }
    };
    let ability_name = match p.ability.as_deref().map(str::to_ascii_lowercase).as_deref() {
        Some("str") => "STR",
        Some("dex") => "DEX",
        _ => "ability",
    };
    let bonus_terms = Modifiers::new()
        .with("attack bonus", bonus - proficiency - ability)
        .with("proficiency", proficiency)
        .with(ability_name, ability)
        .into_vec();
    let Damage {
        hit,
        miss,
        crit_extra,
        uses_dw,
    } = damage(
        ctx,
        field,
        p,
        monster,
        gear,
        ability,
        weapon_power.is_some(),
    )?;
    let mut on_hit = Vec::new();
    for (i, e) in p.on_hit.iter().enumerate() {
        on_hit.push(effects::clause(ctx, &format!("{field}.on_hit[{i}]"), e, p)?);
    }
    let mut on_miss = Vec::new();
    for (i, e) in p.on_miss.iter().enumerate() {
        on_miss.push(effects::clause(
            ctx,
            &format!("{field}.on_miss[{i}]"),
            e,
            p,
        )?);
    }
    let secondary = secondary_attack(ctx, field, p, monster, gear, ability)?;
    let tags = super::tags::tags(&p.tags).map_err(|(i, e)| match i {
        Some(i) => ctx.err(format!("{field}.tags[{i}]"), e),
        None => ctx.err(format!("{field}.tags"), e),
    })?;
    if p.ammunition == Some(true) && monster.is_some() {
        return Err(ctx.err(
            format!("{field}.ammunition"),
            "ammunition is counted for heroes only",
        ));
    }
    let maintain = effects::maintain(ctx, field, p)?;
    let (effect, zone) = effects::effect_line(ctx, field, p, &origin, maintain)?;
    let counter_on = counter_on(ctx, field, p, action, origin, utility)?;
    Ok(PowerSpec {
        id: p.id.clone(),
        // A Weapon power attacks with the weapon, as a `dW` power does.
        uses_ammunition: ammunition(ctx, field, p, uses_dw || weapon_power.is_some(), gear)?,
        // § Underwater combat: weapon attacks (powers using the weapon's dice) take −2 unless
        // the weapon is a spear, lance or crossbow.
        // A Weapon power is a weapon attack too; a monster's names no weapon, so it takes it.
        underwater_penalty: match gear.and_then(|g| g.weapon) {
            Some(w) => {
                (uses_dw || tags.iter().any(|t| t == "weapon"))
                    && !w.in_group(tables::WeaponGroup::SpearsAndLances)
                    && !w.in_group(tables::WeaponGroup::Crossbows)
            }
            None => tags.iter().any(|t| t == "weapon"),
        },
        secondary,
        forced: forced(ctx, field, p)?,
        trigger: p.trigger.clone(),
        name: p.name.clone(),
        action,
        frequency,
        origin,
        targets,
        max_targets: p.max_targets.unwrap_or(1).clamp(1, 8),
        vs,
        bonus,
        bonus_terms,
        basic: p.basic,
        hit,
        damage_type: match &p.damage_type {
            Some(t) => Some(damage_type(ctx, &format!("{field}.damage_type"), t)?),
            None => None,
        },
        miss,
        crit_extra,
        on_hit,
        on_miss,
        effect,
        zone,
        utility,
        maintain,
        loading_swift: loading(ctx, field, p, uses_dw || weapon_power.is_some(), gear)?,
        category: super::tags::category(p.category.as_deref(), !utility)
            .map_err(|e| ctx.err(format!("{field}.category"), e))?,
        tags,
        side,
        counter_on,
    })
}

/// § Action types: the power's action.
fn action_cost(ctx: &Ctx, field: &str, p: &PowerFile) -> Result<ActionCost, ContentError> {
    Ok(match p.action.as_str() {
        "standard" => ActionCost::Standard,
        "move" => ActionCost::Move,
        "swift" => ActionCost::Swift,
        "immediate counter" => ActionCost::ImmediateCounter,
        "immediate reaction" => ActionCost::ImmediateReaction,
        "free" => ActionCost::Free,
        o => {
            return Err(ctx.err(
                format!("{field}.action"),
                format!(
                    "unknown action '{o}' (standard, move, swift, immediate counter, immediate reaction, free)"
                ),
            ));
        }
    })
}

/// § Outside of your turn: immediate actions name their trigger; free actions may.
fn check_trigger(
    ctx: &Ctx,
    field: &str,
    p: &PowerFile,
    action: ActionCost,
) -> Result<(), ContentError> {
    let immediate = matches!(
        action,
        ActionCost::ImmediateCounter | ActionCost::ImmediateReaction
    );
    // § Outside of your turn: free actions may have a trigger too.
    let may_trigger = immediate || action == ActionCost::Free;
    match (&p.trigger, immediate) {
        (None, true) => {
            return Err(ctx.err(
                format!("{field}.trigger"),
                "an immediate action names its trigger",
            ));
        }
        (Some(_), false) if !may_trigger => {
            return Err(ctx.err(
                format!("{field}.trigger"),
                "only immediate and free actions have a trigger",
            ));
        }
        (Some(t), _) if t.trim().is_empty() || t.chars().count() > 200 => {
            return Err(ctx.err(format!("{field}.trigger"), "a trigger is 1-200 characters"));
        }
        _ => {}
    }
    Ok(())
}

/// § Frequency: at-will, encounter, daily or a recharge.
fn frequency(ctx: &Ctx, field: &str, p: &PowerFile) -> Result<Frequency, ContentError> {
    Ok(match p.frequency.as_deref().unwrap_or("at-will") {
        "at-will" => Frequency::AtWill,
        "encounter" => Frequency::Encounter,
        "daily" => Frequency::Daily,
        "recharge if staggered" => Frequency::RechargeIf(RechargeCondition::Staggered),
        r if r.starts_with("recharge if it takes ") && r.ends_with(" damage") => {
            let ty = &r["recharge if it takes ".len()..r.len() - " damage".len()];
            Frequency::RechargeIf(RechargeCondition::TakesDamage(damage_type(
                ctx,
                &format!("{field}.frequency"),
                ty,
            )?))
        }
        r if r.starts_with("recharge ") => {
            let spec = &r["recharge ".len()..];
            let (a, b) = spec.split_once('-').unwrap_or((spec, spec));
            match (a.trim().parse::<u32>(), b.trim().parse::<u32>()) {
                (Ok(from), Ok(to)) if (1..=6).contains(&from) && from <= to && to <= 6 => {
                    Frequency::Recharge { from, to }
                }
                _ => {
                    return Err(ctx.err(
                        format!("{field}.frequency"),
                        format!("'{r}': recharge X-Y with 1 <= X <= Y <= 6"),
                    ));
                }
            }
        }
        o => {
            return Err(ctx.err(
                format!("{field}.frequency"),
                format!(
                    "unknown frequency '{o}' (at-will, encounter, daily, recharge X-Y, recharge if staggered, recharge if it takes TYPE damage)"
                ),
            ));
        }
    })
}

/// § Origin of effect: melee, ranged, near and far areas, eyesight and earshot, self — with
/// their reach, range and size.
fn origin(ctx: &Ctx, field: &str, p: &PowerFile) -> Result<Origin, ContentError> {
    let size = p.area.unwrap_or(1);
    if !(1..=10).contains(&size) {
        return Err(ctx.err(format!("{field}.area"), format!("{size} is outside 1..=10")));
    }
    if p.origin.starts_with("near e") && p.area.is_some() {
        return Err(ctx.err(
            format!("{field}.area"),
            "eyesight and earshot are the area's size: give no area",
        ));
    }
    let range_at = |i: usize| p.range.get(i).copied();
    let origin = match p.origin.as_str() {
        "melee" => Origin::Melee {
            reach: p.reach.unwrap_or(1),
        },
        "ranged" => match (range_at(0), range_at(1)) {
            (Some(short), long) => Origin::Ranged {
                short,
                long: long.unwrap_or(short),
            },
            _ => {
                return Err(ctx.err(
                    format!("{field}.range"),
                    "a ranged power gives range = [short, long]",
                ));
            }
        },
        "near burst" => Origin::NearBurst { size },
        "near blast" => Origin::NearBlast { size },
        "near eyesight" => Origin::NearEyesight,
        "near earshot" => Origin::NearEarshot,
        "near eyesight or earshot" => Origin::NearEyesightOrEarshot,
        "near eyesight and earshot" => Origin::NearEyesightAndEarshot,
        "self" => Origin::Personal,
        "far burst" | "far blast" => {
            let Some(range) = range_at(0) else {
                return Err(ctx.err(
                    format!("{field}.range"),
                    "a far power gives range = [squares]",
                ));
            };
            if p.origin == "far burst" {
                Origin::FarBurst { size, range }
            } else {
                Origin::FarBlast { size, range }
            }
        }
        o => {
            return Err(ctx.err(
                format!("{field}.origin"),
                format!(
                    "unknown origin '{o}' (melee, ranged, near burst, near blast, far burst, far blast, near eyesight, near earshot, near eyesight or earshot, near eyesight and earshot, self)"
                ),
            ));
        }
    };
    for (i, r) in p.range.iter().enumerate() {
        if !(1..=100).contains(r) {
            return Err(ctx.err(
                format!("{field}.range[{i}]"),
                format!("{r} is outside 1..=100"),
            ));
        }
    }
    if let Origin::Melee { reach } = origin
        && !(1..=5).contains(&reach)
    {
        return Err(ctx.err(
            format!("{field}.reach"),
            format!("{reach} is outside 1..=5"),
        ));
    }
    // § Origin of effect, Self: affects only its user, with no attack roll.
    if origin == Origin::Personal
        && let Some(f) = [
            ("vs", p.vs.is_some()),
            ("targets", p.targets.is_some()),
            ("range", !p.range.is_empty()),
            ("reach", p.reach.is_some()),
            ("area", p.area.is_some()),
        ]
        .iter()
        .find_map(|(f, given)| given.then_some(*f))
    {
        return Err(ctx.err(
            format!("{field}.{f}"),
            "a self power affects only its user (no attack roll): give no vs, targets, range, reach or area",
        ));
    }
    Ok(origin)
}

/// § Targets: who the power may target (areas: all creatures unless it says).
fn target_rule(
    ctx: &Ctx,
    field: &str,
    p: &PowerFile,
    origin: Origin,
) -> Result<TargetRule, ContentError> {
    Ok(match p.targets.as_deref() {
        None if origin == Origin::Personal => TargetRule::Any,
        None if origin.is_area() => TargetRule::AllCreatures,
        None | Some("one enemy") => TargetRule::OneEnemy,
        Some("one creature") => TargetRule::OneCreature,
        Some("all creatures") => TargetRule::AllCreatures,
        Some("all enemies") => TargetRule::AllEnemies,
        Some("nearest enemy") => TargetRule::NearestEnemy,
        Some("all allies") => TargetRule::AllAllies,
        Some("one ally") => TargetRule::OneAlly,
        Some("nearest ally") => TargetRule::NearestAlly,
        Some("any") => TargetRule::Any,
        Some(o) => {
            return Err(ctx.err(
                format!("{field}.targets"),
                format!(
                    "unknown targets '{o}' (one enemy, one creature, all creatures, all enemies, nearest enemy, all allies, one ally, nearest ally, any)"
                ),
            ));
        }
    })
}

/// The defense the power attacks (`ac` when absent).
fn defense(ctx: &Ctx, field: &str, p: &PowerFile) -> Result<Defense, ContentError> {
    Ok(match p.vs.as_deref().unwrap_or("ac") {
        "ac" => Defense::Ac,
        "fortitude" => Defense::Fortitude,
        "reflex" => Defense::Reflex,
        "will" => Defense::Will,
        o => {
            return Err(ctx.err(
                format!("{field}.vs"),
                format!("unknown defense '{o}' (ac, fortitude, reflex, will)"),
            ));
        }
    })
}

/// A power's damage expressions, resolved for its user.
struct Damage {
    hit: Option<String>,
    miss: Option<String>,
    crit_extra: Option<String>,
    /// Whether they use the weapon's dice (`dW`).
    uses_dw: bool,
}

/// The hit and miss damage (the monster builder's tables, weapon dice, the ability modifier,
/// the level-21 upgrade) and Improved Critical's extra dice.
fn damage(
    ctx: &Ctx,
    field: &str,
    p: &PowerFile,
    monster: Option<&Builder>,
    gear: Option<Gear>,
    ability: i32,
    weapon_power: bool,
) -> Result<Damage, ContentError> {
    let mut uses_dw = false;
    // The "Level 21:" upgrade replaces the hit damage of heroes of level 21 and above.
    let hit_text = match (&p.level21_hit, gear) {
        (Some(h), Some(g)) if g.level >= 21 => Some(h.clone()),
        (Some(_), None) => {
            return Err(ctx.err(
                format!("{field}.level21_hit"),
                "level-21 upgrades are for heroes' powers",
            ));
        }
        (Some(h), Some(_)) => {
            // Checked even below level 21, so that a bad upgrade is found at once.
            let (h, _) = expand_dw(ctx, &format!("{field}.level21_hit"), h, gear)?;
            check_dice(ctx, &format!("{field}.level21_hit"), &h)?;
            p.hit.clone()
        }
        _ => p.hit.clone(),
    };
    let hit = match (&hit_text, monster) {
        (Some(h), Some(m)) if h.starts_with("table:") => {
            let kind = match &h["table:".len()..] {
                "mook" => tables::DamageKind::Mook,
                "at-will" => tables::DamageKind::AtWillSingle,
                "at-will-multi" => tables::DamageKind::AtWillMulti,
                "surge" => tables::DamageKind::SurgeSingle,
                "surge-multi" => tables::DamageKind::SurgeMulti,
                o => {
                    return Err(ctx.err(
                        format!("{field}.hit"),
                        format!(
                            "unknown damage column '{o}' (mook, at-will, at-will-multi, surge, surge-multi)"
                        ),
                    ));
                }
            };
            let d = tables::power_damage(m.level, kind, m.role, m.rank)
                .map_err(|e| ctx.err(format!("{field}.hit"), e.to_string()))?;
            Some(d.to_string())
        }
        (Some(h), _) => {
            let (h, dw) = expand_dw(ctx, &format!("{field}.hit"), h, gear)?;
            uses_dw |= dw;
            let h = match ability {
                0 => h,
                m if m > 0 => format!("{h}+{m}"),
                m => format!("{h}-{}", -m),
            };
            check_dice(ctx, &format!("{field}.hit"), &h)?;
            Some(h)
        }
        (None, _) => None,
    };
    let miss = match &p.miss {
        Some(m) => {
            let (m, dw) = expand_dw(ctx, &format!("{field}.miss"), m, gear)?;
            uses_dw |= dw;
            check_dice(ctx, &format!("{field}.miss"), &m)?;
            Some(m)
        }
        None => None,
    };
    // § Weapon properties, Improved Critical: +1dW on a critical hit (2dW from level 11, 3dW
    // from 21), for powers that use the weapon's dice.
    let crit_extra = match gear {
        Some(
            g @ Gear {
                weapon: Some(w),
                level,
                ..
            },
        ) if (uses_dw || weapon_power)
            && w.has_property(tables::WeaponProperty::ImprovedCritical) =>
        {
            let n = if level >= 21 {
                3
            } else if level >= 11 {
                2
            } else {
                1
            };
            let die = g.die(w);
            Some(format!("{}d{}", n * die.count, die.sides))
        }
        _ => None,
    };
    Ok(Damage {
        hit,
        miss,
        crit_extra,
        uses_dw,
    })
}

/// § Secondary attacks: the secondary attack, a power of its own made with the primary's
/// origin, tags and (unless it says) defense and bonus.
fn secondary_attack(
    ctx: &Ctx,
    field: &str,
    p: &PowerFile,
    monster: Option<&Builder>,
    gear: Option<Gear>,
    ability: i32,
) -> Result<Option<Box<SecondaryAttack>>, ContentError> {
    Ok(match &p.secondary {
        Some(sec) => {
            let on = match sec.on.as_deref().unwrap_or("hit") {
                "hit" => SecondaryOn::Hit,
                "miss" => SecondaryOn::Miss,
                "effect" => SecondaryOn::Effect,
                o => {
                    return Err(ctx.err(
                        format!("{field}.secondary.on"),
                        format!("unknown '{o}' (hit, miss, effect)"),
                    ));
                }
            };
            let sec_targets = secondary_targets(sec.targets.as_deref().unwrap_or("primary"))
                .ok_or_else(|| {
                    ctx.err(
                        format!("{field}.secondary.targets"),
                        format!(
                            "unknown '{}' (primary, creatures_adjacent_to_primary, \
                             enemies_adjacent_to_primary, creatures_within_N_of_primary, \
                             enemies_within_N_of_primary with N in 1..=20, \
                             nearest_creature_to_primary, nearest_enemy_to_primary)",
                            sec.targets.as_deref().unwrap_or_default()
                        ),
                    )
                })?;
            let merged = PowerFile {
                id: format!("{}-secondary", p.id),
                name: format!("{} (secondary)", p.name),
                action: p.action.clone(),
                trigger: p.trigger.clone(),
                push: None,
                pull: None,
                shunt: None,
                frequency: None,
                origin: p.origin.clone(),
                reach: p.reach,
                range: p.range.clone(),
                area: p.area,
                targets: p.targets.clone(),
                max_targets: p.max_targets,
                vs: sec.vs.clone().or_else(|| p.vs.clone()),
                // (the primary's ability modifier, `ability = "auto"`, stays in the attack)
                bonus: sec.bonus.or(p.bonus.map(|b| b + ability)),
                hit: sec.hit.clone(),
                damage_type: sec.damage_type.clone().or_else(|| p.damage_type.clone()),
                miss: sec.miss.clone(),
                level21_hit: None,
                basic: false,
                on_hit: sec.on_hit.clone(),
                on_miss: sec.on_miss.clone(),
                secondary: None,
                ammunition: None,
                loading: None,
                effect: Vec::new(),
                maintain: None,
                // § Secondary attacks: "the same tags … as the original attack".
                category: p.category.clone(),
                tags: p.tags.clone(),
                ability: None,
                counter_on: None,
            };
            let spec = power(ctx, &format!("{field}.secondary"), &merged, monster, gear)?;
            Some(Box::new(SecondaryAttack {
                on,
                power: spec,
                targets: sec_targets,
            }))
        }
        None => None,
    })
}

/// § Action required: `counter_on` names the trigger a readied counter answers
/// (`rules/orcus/counters.rs`): only `"attacked"`, only on an `immediate counter`, and only on
/// a power Fray can aim at the attacker (melee or ranged) or a self utility power.
fn counter_on(
    ctx: &Ctx,
    field: &str,
    p: &PowerFile,
    action: ActionCost,
    origin: Origin,
    utility: bool,
) -> Result<Option<CounterTrigger>, ContentError> {
    let Some(on) = &p.counter_on else {
        return Ok(None);
    };
    let f = format!("{field}.counter_on");
    let trigger = match on.as_str() {
        "attacked" => CounterTrigger::Attacked,
        o => return Err(ctx.err(f, format!("unknown trigger '{o}' (attacked)"))),
    };
    if action != ActionCost::ImmediateCounter {
        return Err(ctx.err(f, "only an `immediate counter` is readied"));
    }
    let aimed = matches!(origin, Origin::Melee { .. } | Origin::Ranged { .. })
        || (origin == Origin::Personal && utility);
    if !aimed {
        return Err(ctx.err(
            f,
            "a readied counter is a melee or ranged power (aimed at the attacker) or a self              utility power",
        ));
    }
    Ok(Some(trigger))
}

/// § Weapon properties, Loading: "Each time you attack with the weapon, you expend one piece of
/// ammunition" — a power using the dice (`dW`) of a Loading weapon (free or swift) uses
/// ammunition unless it says otherwise, and saying `ammunition = false` for it is refused (a hero
/// without an `ammunition` count is not tracked anyway). Other powers use it only when they say
/// `ammunition = true` (e.g. thrown weapons in an area, § Attacks with ammunition).
fn ammunition(
    ctx: &Ctx,
    field: &str,
    p: &PowerFile,
    uses_dw: bool,
    gear: Option<Gear>,
) -> Result<bool, ContentError> {
    let loading_weapon = gear.and_then(|g| g.weapon).filter(|w| {
        uses_dw
            && (w.has_property(tables::WeaponProperty::LoadingFree)
                || w.has_property(tables::WeaponProperty::LoadingSwift))
    });
    match (p.ammunition, loading_weapon) {
        (Some(false), Some(w)) => Err(ctx.err(
            format!("{field}.ammunition"),
            format!(
                "contradicts the weapon: the {} has the Loading property, so each attack with \
                 it (its dice dW, or the Weapon tag) uses a piece of ammunition; leave \
                 `ammunition` out (a hero without an `ammunition` count is not tracked)",
                w.name
            ),
        )),
        (Some(stated), _) => Ok(stated),
        (None, w) => Ok(w.is_some()),
    }
}

/// § Weapon properties, Loading: whether the power needs a swift action to reload after each
/// attack. A power using its weapon's dice (`dW`) takes the weapon table's Loading (free or
/// swift); an explicit `loading` must then agree with the weapon's. Other powers say it by hand.
fn loading(
    ctx: &Ctx,
    field: &str,
    p: &PowerFile,
    uses_dw: bool,
    gear: Option<Gear>,
) -> Result<bool, ContentError> {
    let stated = match p.loading.as_deref() {
        None => None,
        Some("free") => Some(false),
        Some("swift") => Some(true),
        Some(other) => {
            return Err(ctx.err(
                format!("{field}.loading"),
                format!("unknown loading '{other}' (free or swift)"),
            ));
        }
    };
    let weapon = gear.and_then(|g| g.weapon).filter(|_| uses_dw);
    let Some(w) = weapon else {
        return Ok(stated.unwrap_or(false));
    };
    let table = if w.has_property(tables::WeaponProperty::LoadingSwift) {
        Some(true)
    } else if w.has_property(tables::WeaponProperty::LoadingFree) {
        Some(false)
    } else {
        None
    };
    match (stated, table) {
        (Some(s), t) if t != Some(s) => {
            let has = match t {
                Some(true) => "Loading (swift)",
                Some(false) => "Loading (free)",
                None => "no Loading property",
            };
            Err(ctx.err(
                format!("{field}.loading"),
                format!(
                    "contradicts the weapon: this power attacks with the {} (its dice dW, or the \
                     Weapon tag) and the {} has {has}; leave `loading` out (the weapon table \
                     decides)",
                    w.name, w.name
                ),
            ))
        }
        _ => Ok(table.unwrap_or(false)),
    }
}

/// § Secondary attacks ("unless otherwise specified"): a secondary attack's `targets`.
fn secondary_targets(text: &str) -> Option<SecondaryTargets> {
    let within = |kind: &str| {
        text.strip_prefix(kind)?
            .strip_suffix("_of_primary")?
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=20).contains(n))
    };
    Some(match text {
        "primary" => SecondaryTargets::Primary,
        "creatures_adjacent_to_primary" => SecondaryTargets::CreaturesAdjacentToPrimary,
        "enemies_adjacent_to_primary" => SecondaryTargets::EnemiesAdjacentToPrimary,
        "nearest_creature_to_primary" => SecondaryTargets::NearestCreatureToPrimary,
        "nearest_enemy_to_primary" => SecondaryTargets::NearestEnemyToPrimary,
        _ => {
            if let Some(n) = within("creatures_within_") {
                SecondaryTargets::CreaturesWithinOfPrimary { within: n }
            } else if let Some(n) = within("enemies_within_") {
                SecondaryTargets::EnemiesWithinOfPrimary { within: n }
            } else if let Some(n) = within("one_creature_within_") {
                SecondaryTargets::OneCreatureWithinOfPrimary { within: n }
            } else if let Some(n) = within("one_enemy_within_") {
                SecondaryTargets::OneEnemyWithinOfPrimary { within: n }
            } else {
                return None;
            }
        }
    })
}

fn check_powers(ctx: &Ctx, field: &str, powers: &[PowerSpec]) -> Result<(), ContentError> {
    if powers.is_empty() {
        return Err(ctx.err(field, "a combatant needs at least one power"));
    }
    for (i, p) in powers.iter().enumerate() {
        if powers[..i].iter().any(|q| q.id == p.id) {
            return Err(ctx.err(
                format!("{field}[{i}].id"),
                format!("power id '{}' appears twice", p.id),
            ));
        }
    }
    Ok(())
}

/// The ability modifier a skill adds.
fn ability_mod(m: &AbilityMods, a: tables::Ability) -> i32 {
    match a {
        tables::Ability::Strength => m.str,
        tables::Ability::Constitution => m.con,
        tables::Ability::Dexterity => m.dex,
        tables::Ability::Intelligence => m.int,
        tables::Ability::Wisdom => m.wis,
        tables::Ability::Charisma => m.cha,
    }
}

/// The skill named `name` (as printed, any case).
fn skill(ctx: &Ctx, field: &str, name: &str) -> Result<tables::Skill, ContentError> {
    tables::SKILLS
        .iter()
        .copied()
        .find(|s| s.name().eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            let names: Vec<String> = tables::SKILLS
                .iter()
                .map(|s| s.name().to_ascii_lowercase())
                .collect();
            ctx.err(
                field,
                format!("unknown skill '{name}' ({})", names.join(", ")),
            )
        })
}

/// Every skill's modifier, keyed by its lowercase name: `given` where listed, otherwise
/// `untrained(skill)`.
fn skill_table(
    given: &BTreeMap<tables::Skill, i32>,
    untrained: impl Fn(tables::Skill) -> i32,
) -> BTreeMap<String, i32> {
    tables::SKILLS
        .iter()
        .map(|s| {
            (
                s.name().to_ascii_lowercase(),
                given.get(s).copied().unwrap_or_else(|| untrained(*s)),
            )
        })
        .collect()
}

/// § Armor Proficiency: every attack of a power (its secondary attacks too) takes `penalty`.
fn with_attack_penalty(p: &mut PowerSpec, penalty: i32) {
    p.bonus += penalty;
    let mut terms = Modifiers(std::mem::take(&mut p.bonus_terms));
    terms.add("armor not proficient", penalty);
    p.bonus_terms = terms.into_vec();
    if let Some(sec) = p.secondary.as_mut() {
        with_attack_penalty(&mut sec.power, penalty);
    }
    if let Some(side) = p.side.as_mut() {
        with_attack_penalty(side, penalty);
    }
}

impl HeroFile {
    /// § Armor and shields: the AC (computed when `armor` or `shield` is given, otherwise the
    /// sheet's `ac`) and what the worn armor and shield change (`rules/orcus/armor.rs`).
    fn outfit(
        &self,
        ctx: &Ctx,
        f: &dyn Fn(&str) -> String,
    ) -> Result<(i32, armor::Outfit), ContentError> {
        let body = match &self.armor {
            Some(n) => Some(armor::body_armor(n).ok_or_else(|| {
                ctx.err(
                    f("armor"),
                    format!("unknown armor '{n}' (cloth, leather, hide, chainmail, scale, plate)"),
                )
            })?),
            None => None,
        };
        let shield = match &self.shield {
            Some(n) => Some(armor::shield(n).ok_or_else(|| {
                ctx.err(
                    f("shield"),
                    format!("unknown shield '{n}' (light shield, heavy shield)"),
                )
            })?),
            None => None,
        };
        let proficient = match &self.armor_proficiency {
            None => true,
            Some(list) => {
                let mut known = Vec::new();
                for (i, n) in list.iter().enumerate() {
                    let a = armor::body_armor(n)
                        .or_else(|| armor::shield(n))
                        .ok_or_else(|| {
                            ctx.err(
                                f(&format!("armor_proficiency[{i}]")),
                                format!("unknown armor or shield '{n}'"),
                            )
                        })?;
                    known.push(a.name);
                }
                [body, shield]
                    .iter()
                    .flatten()
                    .all(|a| known.contains(&a.name))
            }
        };
        let o = armor::outfit(self.level, self.dex, self.int, body, shield, proficient);
        match (self.ac, body.is_some() || shield.is_some()) {
            (Some(_), true) => Err(ctx.err(
                f("ac"),
                "give either ac or armor/shield (the AC is then computed)".to_string(),
            )),
            (Some(ac), false) => Ok((ac, o)),
            (None, true) => Ok((o.ac, o)),
            (None, false) => Err(ctx.err(
                f("ac"),
                "missing: give ac, or armor/shield to compute it".to_string(),
            )),
        }
    }

    fn mods(&self) -> AbilityMods {
        AbilityMods {
            str: self.str,
            con: self.con,
            dex: self.dex,
            int: self.int,
            wis: self.wis,
            cha: self.cha,
        }
    }

    /// Fortitude, Reflex (before the shield) and Will: the sheet's, or (§ Abilities, Fortitude
    /// / Reflex / Will Defense: "add either your Strength modifier or your Constitution modifier
    /// (whichever is higher)", Dexterity or Intelligence, Wisdom or Charisma) 10 + half level +
    /// the higher modifier. Interpretation: the base 10 + half level is Fourth Edition's (the
    /// text gives only the modifier); class and race bonuses are not in the text, so a hero
    /// with them states its defenses.
    fn defenses(&self) -> (i32, i32, i32) {
        let base = 10 + self.level / 2;
        (
            self.fortitude.unwrap_or(base + self.str.max(self.con)),
            self.reflex.unwrap_or(base + self.dex.max(self.int)),
            self.will.unwrap_or(base + self.wis.max(self.cha)),
        )
    }

    fn resolve(&self, ctx: &Ctx, at: Square) -> Result<CombatantSpec, ContentError> {
        let f = |n: &str| format!("hero.{}.{n}", self.id);
        let (fortitude, reflex, will) = self.defenses();
        if !(1..=30).contains(&self.level) {
            return Err(ctx.err(f("level"), format!("{} is outside 1..=30", self.level)));
        }
        if !(1..=2000).contains(&self.hp) {
            return Err(ctx.err(f("hp"), format!("{} is outside 1..=2000", self.hp)));
        }
        if !(0..=20).contains(&self.speed) {
            return Err(ctx.err(f("speed"), format!("{} is outside 0..=20", self.speed)));
        }
        let wielded = super::weapons::hands(
            self.weapon.as_deref(),
            self.improvised_hands,
            self.side_weapon.as_deref(),
            self.shield.is_some(),
            self.weapon_proficiency.as_deref(),
        )
        .map_err(|(field, e)| ctx.err(f(&field), e))?;
        let weapon = wielded.main;
        // § Increasing weapon damage dice: at most three steps (1d4 to 1d10), within the table.
        let steps = self.weapon_die_increase;
        if steps > 0 {
            let dice = [weapon, wielded.side.map(|(w, _)| w)];
            let Some(w) = weapon else {
                return Err(ctx.err(
                    f("weapon_die_increase"),
                    "an increased weapon die needs a table weapon (`weapon`)",
                ));
            };
            if steps > 3
                || dice
                    .iter()
                    .flatten()
                    .any(|w| tables::increased_die(w.damage, steps).is_none())
            {
                return Err(ctx.err(
                    f("weapon_die_increase"),
                    format!(
                        "{steps} steps on {}'s {}d{} leave Table – Increased Weapon Die (1d4, 1d6, 1d8, 1d10; at most 3)",
                        w.name, w.damage.count, w.damage.sides
                    ),
                ));
            }
        }
        let (ac, outfit) = self.outfit(ctx, &f)?;
        let mut powers = Vec::new();
        for (i, p) in self.powers.iter().enumerate() {
            let mut p = power(
                ctx,
                &f(&format!("powers[{i}]")),
                p,
                None,
                Some(Gear {
                    weapon,
                    level: self.level,
                    proficient: wielded.main_proficient,
                    side: wielded.side,
                    die_steps: self.weapon_die_increase,
                    str_dex: (self.str, self.dex),
                }),
            )?;
            with_attack_penalty(&mut p, outfit.attack);
            powers.push(p);
        }
        check_powers(ctx, &f("powers"), &powers)?;
        let recovery_value = self
            .recovery_value
            .unwrap_or_else(|| rules::default_recovery_value(self.hp));
        let mods = self.mods();
        let mut given = BTreeMap::new();
        for (name, v) in &self.skills {
            let s = skill(ctx, &f(&format!("skills.{name}")), name)?;
            if !(-10..=60).contains(v) {
                return Err(ctx.err(
                    f(&format!("skills.{name}")),
                    format!("{v} is outside -10..=60"),
                ));
            }
            given.insert(s, *v);
        }
        let mut skills = skill_table(&given, |s| {
            rules::untrained_check(self.level, ability_mod(&mods, s.ability()))
        });
        // § Armor check penalty: to the skills the skills table marks, listed or not.
        for s in tables::SKILLS.iter().filter(|s| s.armor_check_penalty()) {
            if let Some(v) = skills.get_mut(&s.name().to_ascii_lowercase()) {
                *v += outfit.check;
            }
        }
        // Interpretation: a Strength attack (Bull Rush, Grapple) is half level + Strength.
        let str_attack = self.level / 2 + self.str + outfit.attack;
        let speed = (self.speed + outfit.speed).max(0);
        let worn_modes = [self.climb, self.fly, self.swim, self.burrow]
            .map(|n| if n > 0 { (n + outfit.speed).max(0) } else { n });
        let size = parse_size(ctx, &f("size"), self.size.as_deref())?;
        Ok(CombatantSpec {
            id: CombatantId::new(self.id.clone()),
            name: self.name.clone(),
            side: Side::Heroes,
            template: self.id.clone(),
            level: self.level,
            size,
            max_hp: self.hp,
            defenses: Defenses {
                ac,
                pd: fortitude,
                md: will,
            },
            initiative: self.initiative,
            hero: Some(HeroSpec {
                mods: self.mods(),
                recoveries: self.recoveries.max(0),
                recovery_die: 0,
                weapon_die: None,
                two_weapon: false,
                potions: 0,
                kind: crate::content::model::HeroKind::Pc,
                save_bonus: 0,
            }),
            resist: Vec::new(),
            vulnerable: Vec::new(),
            villain: false,
            attacks: Vec::new(),
            ose: None,
            ftd: None,
            orcus: Some(OrcusSpec {
                square: at,
                size,
                speed,
                fortitude,
                reflex: reflex + outfit.reflex,
                will,
                rank: "hero".into(),
                action_points: 1,
                recoveries: self.recoveries.max(0),
                recovery_value,
                ammunition: match self.ammunition {
                    Some(n) if !(0..=999).contains(&n) => {
                        return Err(ctx.err(f("ammunition"), format!("{n} is outside 0..=999")));
                    }
                    n => n,
                },
                regeneration: 0,
                incorporeal: false,
                modes: modes(ctx, &f, worn_modes)?,
                aquatic: self.aquatic,
                mount: self.mount,
                hover: self.hover,
                slow_fall: self.slow_fall,
                skills,
                str_attack,
                resist: Vec::new(),
                weak: Vec::new(),
                immune: Vec::new(),
                powers,
                no_free_hand: wielded.hands_full(self.shield.is_some()),
                vision: vision(ctx, &f("senses"), &self.senses)?,
            }),
        })
    }
}

impl MonsterFile {
    fn resolve(
        &self,
        ctx: &Ctx,
        id: CombatantId,
        name: String,
        at: Square,
    ) -> Result<CombatantSpec, ContentError> {
        let f = |n: &str| format!("monster.{}.{n}", self.template);
        let role = match self.role.as_str() {
            "archer" => tables::Role::Archer,
            "blocker" => tables::Role::Blocker,
            "skulker" => tables::Role::Skulker,
            "spoiler" => tables::Role::Spoiler,
            "striker" => tables::Role::Striker,
            "wrecker" => tables::Role::Wrecker,
            o => {
                return Err(ctx.err(
                    f("role"),
                    format!(
                        "unknown role '{o}' (archer, blocker, skulker, spoiler, striker, wrecker)"
                    ),
                ));
            }
        };
        let rank = match self.rank.as_str() {
            "mook" => tables::Rank::Mook,
            "standard" => tables::Rank::Standard,
            "elite" => tables::Rank::Elite,
            "boss" => tables::Rank::Boss,
            o => {
                return Err(ctx.err(
                    f("rank"),
                    format!("unknown rank '{o}' (mook, standard, elite, boss)"),
                ));
            }
        };
        let n = tables::build_monster(self.level, role, rank, false)
            .map_err(|e| ctx.err(f("level"), e.to_string()))?;
        let b = Builder {
            level: self.level,
            role,
            rank,
            vs_ac: n.attack_vs_ac,
            vs_other: n.attack_vs_other,
        };
        let mut powers = Vec::new();
        for (i, p) in self.powers.iter().enumerate() {
            powers.push(power(ctx, &f(&format!("powers[{i}]")), p, Some(&b), None)?);
        }
        check_powers(ctx, &f("powers"), &powers)?;
        let mut resist = Vec::new();
        for (k, v) in &self.resist {
            resist.push((damage_type(ctx, &f("resist"), k)?, *v));
        }
        let mut weak = Vec::new();
        for (k, v) in &self.weak {
            weak.push((damage_type(ctx, &f("weak"), k)?, *v));
        }
        let mut immune = Vec::new();
        for k in &self.immune {
            immune.push(damage_type(ctx, &f("immune"), k)?);
        }
        let hp = self.hp.unwrap_or(n.hp);
        let initiative = tables::monster_initiative(self.level, self.dex)
            .map_err(|e| ctx.err(f("level"), e.to_string()))?;
        // § Creating new monsters: trained skills are 5 + half level + the ability modifier,
        // others half level + the ability modifier.
        let mods = AbilityMods {
            str: self.str,
            con: self.con,
            dex: self.dex,
            int: self.int,
            wis: self.wis,
            cha: self.cha,
        };
        let mut given = BTreeMap::new();
        for (i, name) in self.trained.iter().enumerate() {
            let s = skill(ctx, &f(&format!("trained[{i}]")), name)?;
            let v = tables::monster_trained_skill(self.level, ability_mod(&mods, s.ability()))
                .map_err(|e| ctx.err(f("level"), e.to_string()))?;
            given.insert(s, v);
        }
        let skills = skill_table(&given, |s| {
            rules::untrained_check(self.level, ability_mod(&mods, s.ability()))
        });
        let fortitude = self.fortitude.unwrap_or(n.fortitude);
        let will = self.will.unwrap_or(n.will);
        let size = parse_size(ctx, &f("size"), self.size.as_deref())?;
        Ok(CombatantSpec {
            id,
            name,
            side: Side::Monsters,
            template: self.template.clone(),
            level: self.level,
            size,
            max_hp: hp,
            defenses: Defenses {
                ac: self.ac.unwrap_or(n.ac),
                pd: fortitude,
                md: will,
            },
            initiative,
            hero: None,
            resist: Vec::new(),
            vulnerable: Vec::new(),
            villain: false,
            attacks: Vec::new(),
            ose: None,
            ftd: None,
            orcus: Some(OrcusSpec {
                square: at,
                size,
                speed: self.speed,
                fortitude,
                reflex: self.reflex.unwrap_or(n.reflex),
                will,
                rank: self.rank.clone(),
                action_points: n.action_points,
                recoveries: 0,
                recovery_value: 0,
                ammunition: None,
                regeneration: self.regeneration.max(0),
                incorporeal: self.incorporeal,
                modes: modes(ctx, &f, [self.climb, self.fly, self.swim, self.burrow])?,
                aquatic: self.aquatic,
                mount: self.mount,
                hover: self.hover,
                slow_fall: self.slow_fall,
                skills,
                str_attack: n.attack_vs_other,
                resist,
                weak,
                immune,
                powers,
                no_free_hand: false,
                vision: vision(ctx, &f("senses"), &self.senses)?,
            }),
        })
    }
}

fn parse(name: &str, text: &str) -> Result<OrcusFile, ContentError> {
    crate::content::parse_toml(name, text)
}

/// § Senses: the creature's vision from its `senses` list (darkvision includes low-light
/// vision's benefit); an unknown or repeated sense is refused.
fn vision(ctx: &Ctx, field: &str, senses: &[String]) -> Result<Vision, ContentError> {
    let mut v = Vision::Normal;
    let mut seen = std::collections::BTreeSet::new();
    for (i, name) in senses.iter().enumerate() {
        let key = name.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        let this = match key.as_str() {
            "low-light-vision" | "low-light" => Vision::LowLight,
            "darkvision" => Vision::Darkvision,
            _ => {
                return Err(ctx.err(
                    format!("{field}[{i}]"),
                    format!("unknown sense '{name}' (low-light vision, darkvision)"),
                ));
            }
        };
        if !seen.insert(key) {
            return Err(ctx.err(format!("{field}[{i}]"), format!("'{name}' is listed twice")));
        }
        if this == Vision::Darkvision || v == Vision::Normal {
            v = this;
        }
    }
    Ok(v)
}

fn map(ctx: &Ctx, m: &MapFile) -> Result<MapState, ContentError> {
    let height = m.rows.len();
    if !(1..=64).contains(&height) {
        return Err(ctx.err("map.rows", "a map has 1 to 64 rows"));
    }
    let width = m.rows.first().map_or(0, |r| r.chars().count());
    let mut state = MapState {
        width: i32::try_from(width).unwrap_or(0),
        height: i32::try_from(height).unwrap_or(0),
        blocking: Vec::new(),
        difficult: Vec::new(),
        transparent: Vec::new(),
        lightly_obscured: Vec::new(),
        heavily_obscured: Vec::new(),
        totally_obscured: Vec::new(),
        water: Vec::new(),
        climbable: Vec::new(),
        climb_dc: m.climb_dc.unwrap_or(15),
        earshot: m.earshot,
        swim_dc: m.swim_dc.unwrap_or(10),
        dim_light: Vec::new(),
        darkness: Vec::new(),
    };
    if !(1..=60).contains(&state.climb_dc) {
        return Err(ctx.err("map.climb_dc", "a climb DC is 1 to 60"));
    }
    if !(1..=60).contains(&state.swim_dc) {
        return Err(ctx.err("map.swim_dc", "a swim DC is 1 to 60"));
    }
    if state.earshot.is_some_and(|r| !(1..=128).contains(&r)) {
        return Err(ctx.err(
            "map.earshot",
            "an earshot radius is 1 to 128 squares (leave it out: the whole map hears)",
        ));
    }
    if !(1..=64).contains(&width) {
        return Err(ctx.err("map.rows", "a map has 1 to 64 columns"));
    }
    for (y, row) in m.rows.iter().enumerate() {
        if row.chars().count() != width {
            return Err(ctx.err(
                format!("map.rows[{y}]"),
                format!("every row has {width} squares"),
            ));
        }
        for (x, c) in row.chars().enumerate() {
            let s = Square::new(x as i32, y as i32);
            match c {
                '.' => {}
                '#' => state.blocking.push(s),
                '~' => state.difficult.push(s),
                '=' => state.transparent.push(s),
                ':' => state.lightly_obscured.push(s),
                '%' => state.heavily_obscured.push(s),
                '@' => state.totally_obscured.push(s),
                'w' => state.water.push(s),
                '^' => state.climbable.push(s),
                ',' => state.dim_light.push(s),
                ';' => state.darkness.push(s),
                o => {
                    return Err(ctx.err(
                        format!("map.rows[{y}]"),
                        format!(
                            "unknown square '{o}' at column {x} (. floor, # wall, ~ difficult, \
                             = transparent wall, : lightly, % heavily, @ totally obscured, , dim light, ; darkness, \
                             w water, ^ climbable)"
                        ),
                    ));
                }
            }
        }
    }
    Ok(state)
}

/// The built-in encounters: (name, TOML text).
pub const ENCOUNTERS: &[(&str, &str)] = &[
    (
        "bridge-of-bones",
        include_str!("../../../content/orcus/encounters/bridge-of-bones.toml"),
    ),
    (
        "two-crossings",
        include_str!("../../../content/orcus/encounters/two-crossings.toml"),
    ),
];

/// The built-in Orcus content files.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "builtin:orcus/party.toml",
        include_str!("../../../content/orcus/party.toml"),
    ),
    (
        "builtin:orcus/bestiary.toml",
        include_str!("../../../content/orcus/bestiary.toml"),
    ),
];

/// Loads an Orcus encounter.
pub fn load_encounter(name: &str, text: &str) -> Result<Encounter, ContentError> {
    let enc = parse(name, text)?;
    let ctx = Ctx { file: name };
    let mut heroes: BTreeMap<String, (String, HeroFile)> = BTreeMap::new();
    let mut monsters: BTreeMap<String, (String, MonsterFile)> = BTreeMap::new();
    for (file, t) in BUILTIN {
        let f = parse(file, t)?;
        for h in f.hero {
            heroes.insert(h.id.clone(), ((*file).to_owned(), h));
        }
        for m in f.monster {
            monsters.insert(m.template.clone(), ((*file).to_owned(), m));
        }
    }
    for h in &enc.hero {
        heroes.insert(h.id.clone(), (name.to_owned(), h.clone()));
    }
    for m in &enc.monster {
        monsters.insert(m.template.clone(), (name.to_owned(), m.clone()));
    }
    let Some(map_file) = &enc.map else {
        return Err(ctx.err("map", "an Orcus encounter has a [map]"));
    };
    let map = map(&ctx, map_file)?;
    let place_in = |positions: &BTreeMap<String, [i32; 2]>,
                    field: &str,
                    id: &str|
     -> Result<Square, ContentError> {
        let [x, y] = positions.get(id).copied().ok_or_else(|| {
            ctx.err(
                format!("{field}.{id}"),
                "every combatant needs a starting square",
            )
        })?;
        Ok(Square::new(x, y))
    };
    if enc.heroes.is_empty() {
        return Err(ctx.err("heroes", "an encounter needs at least one hero"));
    }
    let mut combatants = Vec::new();
    for (i, id) in enc.heroes.iter().enumerate() {
        let (file, h) = heroes
            .get(id)
            .ok_or_else(|| ctx.err(format!("heroes[{i}]"), format!("no hero with id '{id}'")))?;
        combatants.push(h.resolve(&Ctx { file }, place_in(&enc.positions, "positions", id)?)?);
    }
    if enc.monsters.is_empty() {
        return Err(ctx.err("monsters", "an encounter needs at least one monster group"));
    }
    // Monster ids number on per template through the session's battles, so every id is
    // unique in the session.
    let mut numbered: BTreeMap<String, u32> = BTreeMap::new();
    let mut groups = |groups: &[GroupFile],
                      field: &str,
                      positions: &BTreeMap<String, [i32; 2]>,
                      pos_field: &str|
     -> Result<Vec<CombatantSpec>, ContentError> {
        let mut out = Vec::new();
        for (i, g) in groups.iter().enumerate() {
            let (file, m) = monsters.get(&g.template).ok_or_else(|| {
                ctx.err(
                    format!("{field}[{i}].template"),
                    format!("no monster template '{}'", g.template),
                )
            })?;
            if !(1..=20).contains(&g.count) {
                return Err(ctx.err(
                    format!("{field}[{i}].count"),
                    format!("{} is outside 1..=20", g.count),
                ));
            }
            let first = numbered.get(&g.template).copied().unwrap_or(0);
            for k in first + 1..=first + g.count {
                let id = format!("{}-{k}", g.template);
                out.push(m.resolve(
                    &Ctx { file },
                    CombatantId::new(id.clone()),
                    format!("{} {k}", m.name),
                    place_in(positions, pos_field, &id)?,
                )?);
            }
            numbered.insert(g.template.clone(), first + g.count);
        }
        Ok(out)
    };
    combatants.extend(groups(
        &enc.monsters,
        "monsters",
        &enc.positions,
        "positions",
    )?);
    combatants.sort_by(|a, b| a.id.cmp(&b.id));
    check_spaces(&ctx, &map, &combatants, "positions")?;
    crate::content::later_battles_allowed(&ctx, enc.battles.len(), enc.options.rests)?;
    let mut battles = Vec::new();
    for (b, battle) in enc.battles.iter().enumerate() {
        let field = format!("battles[{b}].monsters");
        let pos_field = format!("battles[{b}].positions");
        if battle.monsters.is_empty() {
            return Err(ctx.err(field, "a battle needs at least one monster group"));
        }
        let mut ms = groups(&battle.monsters, &field, &battle.positions, &pos_field)?;
        ms.sort_by(|a, b| a.id.cmp(&b.id));
        // The heroes stand where the battle places them.
        let mut placements = Vec::new();
        let mut present = ms.clone();
        for c in combatants.iter().filter(|c| c.side == Side::Heroes) {
            let square = place_in(&battle.positions, &pos_field, c.id.as_str())?;
            placements.push((c.id.clone(), square));
            let mut placed = c.clone();
            if let Some(o) = &mut placed.orcus {
                o.square = square;
            }
            present.push(placed);
        }
        check_spaces(&ctx, &map, &present, &pos_field)?;
        battles.push(crate::content::model::BattleSpec {
            title: battle
                .title
                .clone()
                .unwrap_or_else(|| format!("Battle {}", b + 2)),
            monsters: ms,
            placements,
        });
    }
    for w in combatants.windows(2) {
        if w[0].id == w[1].id {
            return Err(ctx.err(
                "heroes",
                format!("combatant id '{}' appears twice", w[0].id),
            ));
        }
    }
    let seats = resolve_seats(&ctx, &enc.seats, &combatants)?;
    let fielded = combatants
        .iter()
        .chain(battles.iter().flat_map(|b| &b.monsters));
    // A reserve has no square until the GM's `add_combatant` gives it one.
    let reserves = crate::content::reserves(&monsters, fielded, |ctx, m| {
        let id = CombatantId::new(m.template.clone());
        m.resolve(ctx, id, m.name.clone(), Square::new(0, 0))
    })?;
    Ok(Encounter {
        ruleset: super::ID.into(),
        title: enc
            .title
            .clone()
            .unwrap_or_else(|| "Untitled encounter".into()),
        combatants,
        seats,
        options: SessionOptions {
            rests: enc.options.rests,
            ..SessionOptions::default()
        },
        map: Some(map),
        battles,
        reserves,
    })
}

/// Spaces on the map, not on walls, not overlapping.
fn check_spaces(
    ctx: &Ctx,
    map: &fray_protocol::grid::MapState,
    combatants: &[CombatantSpec],
    field: &str,
) -> Result<(), ContentError> {
    let mut taken: BTreeMap<Square, CombatantId> = BTreeMap::new();
    for c in combatants {
        let Some(o) = &c.orcus else { continue };
        let sp = super::geometry::Space {
            at: o.square,
            size: o.size,
        };
        for s in sp.squares() {
            let field = format!("{field}.{}", c.id);
            if !super::geometry::on_map(map, s) {
                return Err(ctx.err(field, format!("{s} is off the map")));
            }
            if super::geometry::solid(map, s) {
                return Err(ctx.err(field, format!("{s} is a wall")));
            }
            if let Some(other) = taken.insert(s, c.id.clone()) {
                return Err(ctx.err(field, format!("{s} is already taken by {other}")));
            }
        }
    }
    Ok(())
}
