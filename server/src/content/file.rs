//! The TOML shapes of content files (heroes, monsters, encounters) as users write them, and their
//! resolution into [`super::model`] types with errors that name the file, the field and the reason.

use super::ContentError;
use super::model::{
    Ability, AbilityMods, AttackSpec, CombatantSpec, EffectSpec, HeroKind, HeroSpec, ManeuverSpec,
    Reach, Targeting, Trigger, Triggered, Usage,
};
use fray_protocol::event::{Condition, DamageType, Defense, EffectDuration, SaveDifficulty};
use fray_protocol::grid::Size;
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::roll::Modifiers;
use fray_protocol::state::Defenses;
use serde::Deserialize;

/// A content file: any mix of heroes and monsters, plus (for encounter files) the fight itself.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContentFile {
    /// Ruleset id (required in encounter files).
    pub ruleset: Option<String>,
    /// Encounter title.
    pub title: Option<String>,
    /// Heroes joining the encounter, by id (built-in or defined in this file).
    #[serde(default)]
    pub heroes: Vec<String>,
    /// Monster groups joining the encounter.
    #[serde(default)]
    pub monsters: Vec<MonsterGroup>,
    /// Player seats.
    #[serde(default)]
    pub seats: Vec<SeatFile>,
    /// Optional rules.
    #[serde(default)]
    pub options: OptionsFile,
    /// Hero stat blocks.
    #[serde(default)]
    pub hero: Vec<HeroFile>,
    /// Monster stat blocks.
    #[serde(default)]
    pub monster: Vec<MonsterFile>,
    /// Later battles of the session (with `[options] rests = true`), in order.
    #[serde(default)]
    pub battles: Vec<BattleFile>,
}

/// `[[battles]]`: a later battle of the session — new monsters against the same heroes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleFile {
    /// Title.
    pub title: Option<String>,
    /// Monster groups coming in.
    #[serde(default)]
    pub monsters: Vec<MonsterGroup>,
}

/// `[options]`: optional rules of the ruleset.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptionsFile {
    /// 13th Age § Optional Lasting-Wound Rule.
    #[serde(default)]
    pub lasting_wounds: bool,
    /// 13th Age § Optional Meaningful Death Rule.
    #[serde(default)]
    pub meaningful_death: bool,
    /// Rests after the battle (13th Age § Rest and Recharge); the GM ends the session.
    #[serde(default)]
    pub rests: bool,
}

/// `[[monsters]]`: a template and how many.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonsterGroup {
    /// Monster template id.
    pub template: String,
    /// How many (1..=20).
    #[serde(default = "one")]
    pub count: u32,
}

fn one() -> u32 {
    1
}

/// `[[seats]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatFile {
    /// Player name.
    pub name: String,
    /// Hero ids.
    pub controls: Vec<String>,
}

/// Ability scores as written (3..=30).
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbilityScores {
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

/// `[[hero]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeroFile {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Class (descriptive).
    #[serde(default)]
    pub class: String,
    /// Level 1..=10.
    pub level: i32,
    /// Scores.
    pub abilities: AbilityScores,
    /// Maximum hit points.
    pub hp: i32,
    /// Armor Class as a number, or
    pub ac: Option<i32>,
    /// Physical Defense as a number, or
    pub pd: Option<i32>,
    /// Mental Defense as a number, or
    pub md: Option<i32>,
    /// … a base from the class and armor, to which the middle modifier of Con/Dex/Wis and the
    /// level are added (13th Age § Armor Class).
    pub ac_base: Option<i32>,
    /// Base for PD: + middle modifier of Str/Con/Dex + level (§ Physical Defense).
    pub pd_base: Option<i32>,
    /// Base for MD: + middle modifier of Int/Wis/Cha + level (§ Mental Defense).
    pub md_base: Option<i32>,
    /// Recoveries (default 8).
    #[serde(default = "eight")]
    pub recoveries: i32,
    /// Recovery die sides.
    pub recovery_die: u32,
    /// Weapon die sides for `dW`.
    pub weapon_die: Option<u32>,
    /// Resistances: `{ fire = 16 }`.
    #[serde(default)]
    pub resist: std::collections::BTreeMap<String, u32>,
    /// Vulnerabilities: `["holy"]`.
    #[serde(default)]
    pub vulnerable: Vec<String>,
    /// Fights with two weapons (rerolls a natural 2 on melee attacks).
    #[serde(default)]
    pub two_weapon: bool,
    /// Healing potions carried (each heals as a recovery; 0..=10).
    #[serde(default)]
    pub potions: u32,
    /// `pc` (default), `companion` (e.g. an animal companion) or `npc` (an NPC fighting with the
    /// party). 13th Age § Allies: powers counting allies count PCs and companions, not NPCs.
    pub kind: Option<String>,
    /// Size: tiny, small, medium (default; 13th Age's normal), large, huge or gargantuan
    /// (13th Age § Grabbed: a grabber carries a smaller creature it grabs).
    pub size: Option<String>,
    /// Magic items (13th Age § Stacking Rules: of each kind of bonus only the best counts).
    #[serde(default)]
    pub items: Vec<ItemFile>,
    /// Attacks.
    #[serde(default)]
    pub attacks: Vec<AttackFile>,
}

/// `[[hero.items]]`: a magic item and the bonuses it gives (each 0..=5; at least one).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemFile {
    /// Name (1-60 characters).
    pub name: String,
    /// Bonus to weapon attack rolls (attacks that are not spells; § Attack Bonuses: "+ magic
    /// item attack bonus").
    #[serde(default)]
    pub attack: i32,
    /// Bonus to spell attack rolls (a magical implement; § Spell Attacks).
    #[serde(default)]
    pub spell: i32,
    /// Bonus to Armor Class.
    #[serde(default)]
    pub ac: i32,
    /// Bonus to Physical Defense.
    #[serde(default)]
    pub pd: i32,
    /// Bonus to Mental Defense.
    #[serde(default)]
    pub md: i32,
    /// Bonus to saves against effects and to death saves (§ Saves: "magic items that provide
    /// small bonuses to saves").
    #[serde(default)]
    pub save: i32,
}

/// The best bonus of each kind among a hero's magic items (§ Stacking Rules: magic item
/// bonuses don't stack; only the best one counts).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ItemBonuses {
    /// Weapon attacks.
    pub attack: i32,
    /// Spell attacks.
    pub spell: i32,
    /// AC.
    pub ac: i32,
    /// PD.
    pub pd: i32,
    /// MD.
    pub md: i32,
    /// Saves.
    pub save: i32,
}

/// Validates a hero's items and keeps the best bonus of each kind.
fn resolve_items(ctx: &Ctx, owner: &str, items: &[ItemFile]) -> Result<ItemBonuses, ContentError> {
    if items.len() > 20 {
        return Err(ctx.err(
            format!("{owner}.items"),
            format!("{} items is more than 20", items.len()),
        ));
    }
    let mut best = ItemBonuses::default();
    for (i, it) in items.iter().enumerate() {
        let f = |name: &str| format!("{owner}.items[{i}].{name}");
        if it.name.trim().is_empty() || it.name.chars().count() > 60 {
            return Err(ctx.err(f("name"), "an item name is 1-60 characters"));
        }
        let kinds = [
            ("attack", it.attack, &mut best.attack),
            ("spell", it.spell, &mut best.spell),
            ("ac", it.ac, &mut best.ac),
            ("pd", it.pd, &mut best.pd),
            ("md", it.md, &mut best.md),
            ("save", it.save, &mut best.save),
        ];
        let mut any = false;
        for (name, v, slot) in kinds {
            check_range(ctx, &f(name), v, 0, 5)?;
            any |= v > 0;
            *slot = (*slot).max(v);
        }
        if !any {
            return Err(ctx.err(
                f("name"),
                format!(
                    "item '{}' gives no bonus (attack, spell, ac, pd, md or save)",
                    it.name
                ),
            ));
        }
    }
    Ok(best)
}

fn eight() -> i32 {
    8
}

/// `[[monster]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonsterFile {
    /// Template id.
    pub template: String,
    /// Name.
    pub name: String,
    /// Level.
    pub level: i32,
    /// Hit points.
    pub hp: i32,
    /// Armor Class.
    pub ac: i32,
    /// Physical Defense.
    pub pd: i32,
    /// Mental Defense.
    pub md: i32,
    /// Initiative bonus.
    pub initiative: i32,
    /// A named villain.
    #[serde(default)]
    pub villain: bool,
    /// Size: tiny, small, medium (default; 13th Age's normal), large, huge or gargantuan
    /// (13th Age § Grabbed: a grabber carries a smaller creature it grabs).
    pub size: Option<String>,
    /// Resistances: `{ fire = 16 }`.
    #[serde(default)]
    pub resist: std::collections::BTreeMap<String, u32>,
    /// Vulnerabilities: `["holy"]`.
    #[serde(default)]
    pub vulnerable: Vec<String>,
    /// Attacks.
    #[serde(default)]
    pub attacks: Vec<AttackFile>,
}

/// `[[hero.attacks]]` / `[[monster.attacks]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttackFile {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// `melee`, `ranged` or `close`.
    pub range: String,
    /// Heroes: the attack ability (`str`, `dex`, …).
    pub ability: Option<String>,
    /// Monsters: the attack bonus.
    pub bonus: Option<i32>,
    /// `ac`, `pd` or `md`.
    pub vs: String,
    /// Damage expression.
    pub damage: String,
    /// Damage type.
    pub damage_type: Option<String>,
    /// Miss damage expression.
    pub miss_damage: Option<String>,
    /// Maximum targets (default 1).
    pub targets: Option<u8>,
    /// Effects on a hit.
    #[serde(default)]
    pub on_hit: Vec<EffectFile>,
    /// A basic attack (defaults to true for ids `melee` and `ranged`).
    pub basic: Option<bool>,
    /// A spell (draws opportunity attacks from every engaged foe unless `range = "close"`).
    #[serde(default)]
    pub spell: bool,
    /// Flexible maneuvers.
    #[serde(default)]
    pub maneuvers: Vec<ManeuverFile>,
    /// Magical (default: true for spells). Non-magical energy cannot hurt a creature that
    /// resists that energy.
    pub magic: Option<bool>,
    /// `at-will` (default), `once-per-battle`, `daily`, or `recharge N+`.
    pub usage: Option<String>,
    /// The action it takes: `standard` (default) or `quick`.
    pub action: Option<String>,
    /// Only targets with at most this many current hit points.
    pub max_target_hp: Option<i32>,
    /// `1d3` (a rolled number of the named targets, e.g. "1d3 nearby enemies") or
    /// `all-engaged` (every enemy engaged with the attacker). Default: the named targets.
    pub target_rule: Option<String>,
    /// How many times the power doubles its crit damage (13th Age § Crit Effects: doubling a
    /// crit's double damage triples it, doubling that quadruples it); 0..=4.
    #[serde(default)]
    pub extra_crit_doublings: u8,
    /// How many points the power expands its crit range (13th Age § Crit Range: "Each point of
    /// improvement drops the number needed to score a critical hit by 1": 1 = 19+, 2 = 18+);
    /// 0..=5. Adds to a vulnerable target's expansion of 2. A crit in the expanded range needs a
    /// hit; a natural 20 always crits.
    #[serde(default)]
    pub expand_crit: i32,
    /// Heroes' attacks: extra damage on a hit for each ally counted (13th Age § Allies: the
    /// other PCs and companions, conscious and nearby; NPCs don't count); 1..=20.
    pub damage_per_ally: Option<i32>,
}

fn parse_usage(ctx: &Ctx, field: &str, s: Option<&str>) -> Result<Usage, ContentError> {
    let Some(s) = s else { return Ok(Usage::AtWill) };
    let t = s.trim().to_ascii_lowercase().replace('_', "-");
    match t.as_str() {
        "at-will" => Ok(Usage::AtWill),
        "once-per-battle" | "battle" => Ok(Usage::OncePerBattle),
        "daily" => Ok(Usage::Daily),
        _ => {
            let n = t
                .strip_prefix("recharge")
                .map(|r| r.trim().trim_end_matches('+'))
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|n| (2..=20).contains(n));
            n.map(Usage::Recharge).ok_or_else(|| {
                ctx.err(
                    field,
                    format!("'{s}' is not a usage (at-will, once-per-battle, daily, recharge N+)"),
                )
            })
        }
    }
}

/// `[[…attacks.maneuvers]]`: a flexible maneuver.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManeuverFile {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// `even`, `odd`, `N+` or `A-B` (natural roll).
    pub trigger: String,
    /// Applies on a miss too (default: hits only).
    #[serde(default)]
    pub on_miss_too: bool,
    /// Extra damage on a hit.
    pub bonus_damage: Option<String>,
    /// Effects on the target.
    #[serde(default)]
    pub effects: Vec<EffectFile>,
}

fn parse_trigger(ctx: &Ctx, field: &str, s: &str) -> Result<Trigger, ContentError> {
    let bad = || {
        ctx.err(
            field,
            format!("'{s}' is not a trigger (even, odd, N+ or A-B with 1..=20)"),
        )
    };
    let t = s.trim();
    let trigger = match t {
        "even" => Trigger::Even,
        "odd" => Trigger::Odd,
        _ => {
            if let Some(n) = t.strip_suffix('+') {
                let from: u32 = n.trim().parse().map_err(|_| bad())?;
                Trigger::Range { from, to: 20 }
            } else if let Some((a, b)) = t.split_once('-') {
                let from: u32 = a.trim().parse().map_err(|_| bad())?;
                let to: u32 = b.trim().parse().map_err(|_| bad())?;
                Trigger::Range { from, to }
            } else {
                let n: u32 = t.parse().map_err(|_| bad())?;
                Trigger::Range { from: n, to: n }
            }
        }
    };
    if let Trigger::Range { from, to } = trigger
        && !(1 <= from && from <= to && to <= 20)
    {
        return Err(bad());
    }
    Ok(trigger)
}

fn resolve_effects(
    ctx: &Ctx,
    path: &dyn Fn(usize, &str) -> String,
    effects: &[EffectFile],
) -> Result<Vec<Triggered>, ContentError> {
    let mut out = Vec::new();
    for (j, e) in effects.iter().enumerate() {
        let g = |name: &str| path(j, name);
        let when = match &e.when {
            Some(w) => Some(parse_trigger(ctx, &g("when"), w)?),
            None => None,
        };
        match (&e.condition, e.ongoing) {
            (Some(c), None) => {
                if e.damage_type.is_some() {
                    return Err(ctx.err(g("damage_type"), "only ongoing damage has a damage type"));
                }
                out.push(Triggered {
                    when,
                    effect: EffectSpec::Condition {
                        condition: parse_condition(ctx, &g("condition"), c)?,
                        duration: parse_duration(ctx, &g("duration"), e.duration.as_deref())?,
                    },
                });
            }
            (None, Some(amount)) => {
                check_range(ctx, &g("ongoing"), amount, 1, 500)?;
                let save = match parse_duration(ctx, &g("duration"), e.duration.as_deref())? {
                    EffectDuration::SaveEnds(d) => d,
                    _ => {
                        return Err(ctx.err(g("duration"), "ongoing damage lasts until saved: use save_ends, save_ends_easy or save_ends_hard"));
                    }
                };
                out.push(Triggered {
                    when,
                    effect: EffectSpec::Ongoing {
                        amount,
                        damage_type: damage_type(ctx, &g("damage_type"), &e.damage_type)?,
                        save,
                    },
                });
            }
            _ => {
                return Err(ctx.err(
                    g("condition"),
                    "an effect needs exactly one of 'condition' or 'ongoing'",
                ));
            }
        }
    }
    Ok(out)
}

/// `[[…attacks.on_hit]]`: a condition or ongoing damage.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EffectFile {
    /// Only on these natural rolls: `even`, `odd`, `N+`, `A-B` (13th Age triggers such as
    /// "natural even hit").
    pub when: Option<String>,
    /// Condition name.
    pub condition: Option<String>,
    /// Ongoing damage amount.
    pub ongoing: Option<i32>,
    /// Ongoing damage type.
    pub damage_type: Option<String>,
    /// `save_ends` (normal), `save_ends_easy`, `save_ends_hard`, `end_of_next_turn`,
    /// `end_of_battle`.
    pub duration: Option<String>,
}

type Defenses2 = (Vec<(DamageType, u32)>, Vec<DamageType>);

/// Resolves `resist` and `vulnerable` tables.
fn resolve_resistances(
    ctx: &Ctx,
    owner: &str,
    resist: &std::collections::BTreeMap<String, u32>,
    vulnerable: &[String],
) -> Result<Defenses2, ContentError> {
    let mut r = Vec::new();
    for (name, n) in resist {
        let t = parse_damage_type(name).ok_or_else(|| {
            ctx.err(
                format!("{owner}.resist.{name}"),
                format!("unknown damage type '{name}'"),
            )
        })?;
        if !(2..=20).contains(n) {
            return Err(ctx.err(
                format!("{owner}.resist.{name}"),
                format!("{n} is outside 2..=20 (a natural roll)"),
            ));
        }
        r.push((t, *n));
    }
    let mut v = Vec::new();
    for (i, name) in vulnerable.iter().enumerate() {
        v.push(parse_damage_type(name).ok_or_else(|| {
            ctx.err(
                format!("{owner}.vulnerable[{i}]"),
                format!("unknown damage type '{name}'"),
            )
        })?);
    }
    Ok((r, v))
}

/// 13th Age § Unarmed Attacks: every hero can punch or kick — Strength −2 vs AC; 1d6 per two
/// levels plus a d3 at odd levels (1d3 at 1st), + Strength; no damage on a miss.
fn unarmed(mods: &AbilityMods, level: i32) -> AttackSpec {
    let mut dice = Vec::new();
    if level / 2 > 0 {
        dice.push(format!("{}d6", level / 2));
    }
    if level % 2 == 1 {
        dice.push("1d3".to_owned());
    }
    AttackSpec {
        id: "unarmed".into(),
        name: "Unarmed".into(),
        reach: Reach::Melee,
        vs: fray_protocol::event::Defense::Ac,
        bonus: mods.str + level - 2,
        bonus_terms: Modifiers::new()
            .with("STR", mods.str)
            .with("level", level)
            .with("unarmed", -2)
            .into_vec(),
        damage: format!("{}+STR", dice.join("+")),
        damage_type: None,
        miss_damage: None,
        max_targets: 1,
        on_hit: Vec::new(),
        basic: false,
        spell: false,
        magic: false,
        maneuvers: Vec::new(),
        usage: Usage::AtWill,
        quick: false,
        interrupt: false,
        max_target_hp: None,
        targeting: Targeting::Named,
        extra_crit_doublings: 0,
        expand_crit: 0,
        damage_per_ally: 0,
    }
}

/// The ability modifier: (score − 10) / 2 rounded down (13th Age § Damage).
pub fn ability_mod(score: i32) -> i32 {
    (score - 10).div_euclid(2)
}

pub(crate) struct Ctx<'a> {
    pub file: &'a str,
}

impl Ctx<'_> {
    pub fn err(&self, field: impl Into<String>, reason: impl Into<String>) -> ContentError {
        ContentError::Invalid {
            file: self.file.to_owned(),
            field: field.into(),
            reason: reason.into(),
        }
    }
}

fn parse_defense(ctx: &Ctx, field: &str, s: &str) -> Result<Defense, ContentError> {
    match s.to_ascii_lowercase().as_str() {
        "ac" => Ok(Defense::Ac),
        "pd" => Ok(Defense::Pd),
        "md" => Ok(Defense::Md),
        other => Err(ctx.err(field, format!("unknown defense '{other}' (ac, pd or md)"))),
    }
}

fn parse_reach(ctx: &Ctx, field: &str, s: &str) -> Result<Reach, ContentError> {
    match s {
        "melee" => Ok(Reach::Melee),
        "ranged" => Ok(Reach::Ranged),
        "close" => Ok(Reach::Close),
        other => Err(ctx.err(
            field,
            format!("unknown range '{other}' (melee, ranged or close)"),
        )),
    }
}

fn parse_ability(ctx: &Ctx, field: &str, s: &str) -> Result<Ability, ContentError> {
    match s.to_ascii_lowercase().as_str() {
        "str" => Ok(Ability::Str),
        "con" => Ok(Ability::Con),
        "dex" => Ok(Ability::Dex),
        "int" => Ok(Ability::Int),
        "wis" => Ok(Ability::Wis),
        "cha" => Ok(Ability::Cha),
        other => Err(ctx.err(field, format!("unknown ability '{other}'"))),
    }
}

/// Parses a damage type name.
pub fn parse_damage_type(s: &str) -> Option<DamageType> {
    Some(match s {
        "acid" => DamageType::Acid,
        "cold" => DamageType::Cold,
        "fire" => DamageType::Fire,
        "force" => DamageType::Force,
        "holy" => DamageType::Holy,
        "lightning" => DamageType::Lightning,
        "negative" | "negative_energy" => DamageType::Negative,
        "poison" => DamageType::Poison,
        "psychic" => DamageType::Psychic,
        "thunder" => DamageType::Thunder,
        _ => return None,
    })
}

fn damage_type(
    ctx: &Ctx,
    field: &str,
    s: &Option<String>,
) -> Result<Option<DamageType>, ContentError> {
    match s {
        None => Ok(None),
        Some(s) => parse_damage_type(s)
            .map(Some)
            .ok_or_else(|| ctx.err(field, format!("unknown damage type '{s}'"))),
    }
}

fn parse_condition(ctx: &Ctx, field: &str, s: &str) -> Result<Condition, ContentError> {
    match s {
        "dazed" => Ok(Condition::Dazed),
        "weakened" => Ok(Condition::Weakened),
        "stunned" => Ok(Condition::Stunned),
        "vulnerable" => Ok(Condition::Vulnerable),
        "confused" => Ok(Condition::Confused),
        "fear" => Ok(Condition::Fear),
        "hampered" => Ok(Condition::Hampered),
        "helpless" => Ok(Condition::Helpless),
        "stuck" => Ok(Condition::Stuck),
                "grabbed" => Ok(Condition::Grabbed),
        "invisible" => Ok(Condition::Invisible),
        other => Err(ctx.err(
            field,
            format!(
                "unknown condition '{other}' (dazed, weakened, stunned, vulnerable, confused, fear, hampered, helpless, stuck, grabbed, invisible)"
            ),
        )),
    }
}

fn parse_duration(ctx: &Ctx, field: &str, s: Option<&str>) -> Result<EffectDuration, ContentError> {
    match s.unwrap_or("save_ends") {
        "save_ends" => Ok(EffectDuration::SaveEnds(SaveDifficulty::Normal)),
        "save_ends_easy" => Ok(EffectDuration::SaveEnds(SaveDifficulty::Easy)),
        "save_ends_hard" => Ok(EffectDuration::SaveEnds(SaveDifficulty::Hard)),
        "end_of_next_turn" => Ok(EffectDuration::UntilEndOfSourcesNextTurn),
        "end_of_battle" => Ok(EffectDuration::EndOfBattle),
        other => Err(ctx.err(
            field,
            format!(
                "unknown duration '{other}' (save_ends, save_ends_easy, save_ends_hard, end_of_next_turn, end_of_battle)"
            ),
        )),
    }
}

/// A creature's size (`size = "large"`); default `medium`, which 13th Age calls `normal`.
pub(crate) fn parse_size(ctx: &Ctx, field: &str, s: Option<&str>) -> Result<Size, ContentError> {
    Ok(match s.unwrap_or("medium") {
        "tiny" => Size::Tiny,
        "small" => Size::Small,
        "medium" | "normal" => Size::Medium,
        "large" => Size::Large,
        "huge" => Size::Huge,
        "gargantuan" => Size::Gargantuan,
        o => {
            return Err(ctx.err(
                field,
                format!(
                    "unknown size '{o}' (tiny, small, medium or normal, large, huge, gargantuan)"
                ),
            ));
        }
    })
}

fn check_range(ctx: &Ctx, field: &str, v: i32, lo: i32, hi: i32) -> Result<(), ContentError> {
    if (lo..=hi).contains(&v) {
        Ok(())
    } else {
        Err(ctx.err(field, format!("{v} is outside {lo}..={hi}")))
    }
}

fn check_id(ctx: &Ctx, field: &str, id: &str) -> Result<(), ContentError> {
    let ok = !id.is_empty()
        && id.len() <= 48
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(ctx.err(
            field,
            format!("'{id}' is not a valid id (1-48 characters: a-z, 0-9, '-', '_')"),
        ))
    }
}

fn resolve_attacks(
    ctx: &Ctx,
    owner: &str,
    attacks: &[AttackFile],
    hero: Option<(&AbilityMods, i32)>,
) -> Result<Vec<AttackSpec>, ContentError> {
    let mut out: Vec<AttackSpec> = Vec::new();
    for (i, a) in attacks.iter().enumerate() {
        let f = |name: &str| format!("{owner}.attacks[{i}].{name}");
        check_id(ctx, &f("id"), &a.id)?;
        if out.iter().any(|o| o.id == a.id) {
            return Err(ctx.err(f("id"), format!("duplicate attack id '{}'", a.id)));
        }
        let reach = parse_reach(ctx, &f("range"), &a.range)?;
        let vs = parse_defense(ctx, &f("vs"), &a.vs)?;
        let mut bonus_terms = Modifiers::new();
        let bonus = match (hero, &a.ability, a.bonus) {
            (Some((mods, level)), Some(ab), None) => {
                let ability = parse_ability(ctx, &f("ability"), ab)?;
                bonus_terms
                    .add(ability.abbrev(), mods.get(ability))
                    .add("level", level);
                mods.get(ability) + level
            }
            (Some(_), None, _) => {
                return Err(ctx.err(f("ability"), "heroes' attacks need an ability"));
            }
            (Some(_), Some(_), Some(_)) => {
                return Err(ctx.err(
                    f("bonus"),
                    "heroes' attack bonus comes from ability + level; remove 'bonus'",
                ));
            }
            (None, _, Some(b)) => {
                bonus_terms.add("attack bonus", b);
                b
            }
            (None, _, None) => return Err(ctx.err(f("bonus"), "monsters' attacks need a bonus")),
        };
        check_range(ctx, &f("bonus"), bonus, -10, 40)?;
        crate::dice::DiceExpr::parse(&a.damage).map_err(|e| {
            ctx.err(
                f("damage"),
                format!("bad dice expression '{}': {e}", a.damage),
            )
        })?;
        if let Some(m) = &a.miss_damage {
            crate::dice::DiceExpr::parse(m).map_err(|e| {
                ctx.err(f("miss_damage"), format!("bad dice expression '{m}': {e}"))
            })?;
        }
        if a.extra_crit_doublings > 4 {
            return Err(ctx.err(
                f("extra_crit_doublings"),
                format!("{} is outside 0..=4", a.extra_crit_doublings),
            ));
        }
        check_range(ctx, &f("expand_crit"), a.expand_crit, 0, 5)?;
        if let Some(n) = a.damage_per_ally {
            if hero.is_none() {
                return Err(ctx.err(
                    f("damage_per_ally"),
                    "only heroes' powers count allies (a monster's allies are NPCs, which don't count)",
                ));
            }
            check_range(ctx, &f("damage_per_ally"), n, 1, 20)?;
        }
        let max_targets = a.targets.unwrap_or(1);
        if !(1..=8).contains(&max_targets) {
            return Err(ctx.err(f("targets"), format!("{max_targets} is outside 1..=8")));
        }
        let on_hit = resolve_effects(
            ctx,
            &|j, name| format!("{owner}.attacks[{i}].on_hit[{j}].{name}"),
            &a.on_hit,
        )?;
        let mut maneuvers = Vec::new();
        for (k, m) in a.maneuvers.iter().enumerate() {
            let h = |name: &str| format!("{owner}.attacks[{i}].maneuvers[{k}].{name}");
            check_id(ctx, &h("id"), &m.id)?;
            if let Some(b) = &m.bonus_damage {
                crate::dice::DiceExpr::parse(b).map_err(|e| {
                    ctx.err(h("bonus_damage"), format!("bad dice expression '{b}': {e}"))
                })?;
            }
            maneuvers.push(ManeuverSpec {
                id: m.id.clone(),
                name: m.name.clone(),
                trigger: parse_trigger(ctx, &h("trigger"), &m.trigger)?,
                on_hit_only: !m.on_miss_too,
                bonus_damage: m.bonus_damage.clone(),
                effects: resolve_effects(
                    ctx,
                    &|j, name| format!("{owner}.attacks[{i}].maneuvers[{k}].effects[{j}].{name}"),
                    &m.effects,
                )?,
            });
        }
        out.push(AttackSpec {
            id: a.id.clone(),
            name: a.name.clone(),
            reach,
            vs,
            bonus,
            bonus_terms: bonus_terms.into_vec(),
            damage: a.damage.clone(),
            damage_type: damage_type(ctx, &f("damage_type"), &a.damage_type)?,
            miss_damage: a.miss_damage.clone(),
            max_targets,
            on_hit,
            basic: a.basic.unwrap_or(a.id == "melee" || a.id == "ranged"),
            spell: a.spell,
            magic: a.magic.unwrap_or(a.spell),
            usage: parse_usage(ctx, &f("usage"), a.usage.as_deref())?,
            max_target_hp: a.max_target_hp,
            targeting: match a.target_rule.as_deref() {
                None | Some("named") => Targeting::Named,
                Some("all-engaged") | Some("all_engaged") => Targeting::AllEngaged,
                Some("group") => Targeting::Group(None),
                Some(rule) if rule.starts_with("group ") => {
                    let expr = rule["group ".len()..].trim();
                    crate::dice::DiceExpr::parse(expr).map_err(|e| {
                        ctx.err(
                            f("target_rule"),
                            format!("'{expr}' is not a dice expression: {e}"),
                        )
                    })?;
                    Targeting::Group(Some(expr.to_owned()))
                }
                Some(expr) => {
                    let parsed = crate::dice::DiceExpr::parse(expr).map_err(|e| {
                        ctx.err(
                            f("target_rule"),
                            format!(
                                "'{expr}' is neither named, all-engaged nor a dice expression: {e}"
                            ),
                        )
                    })?;
                    let max = parsed
                        .max_total(&crate::dice::Placeholders::default())
                        .ok()
                        .flatten()
                        .unwrap_or(0);
                    if !(1..=8).contains(&max) || i32::from(max_targets) < max {
                        return Err(ctx.err(
                            f("target_rule"),
                            format!(
                                "'{expr}' can roll up to {max} targets; set targets = {max} (1..=8)"
                            ),
                        ));
                    }
                    Targeting::Rolled(expr.to_owned())
                }
            },
            extra_crit_doublings: a.extra_crit_doublings,
            expand_crit: u8::try_from(a.expand_crit).unwrap_or(0),
            damage_per_ally: a.damage_per_ally.unwrap_or(0),
            quick: a.action.as_deref() == Some("quick"),
            interrupt: match a.action.as_deref() {
                None | Some("standard") | Some("quick") => false,
                Some("interrupt") => true,
                Some(other) => {
                    return Err(ctx.err(
                        f("action"),
                        format!("'{other}' is not an attack action (standard, quick or interrupt)"),
                    ));
                }
            },
            maneuvers,
        });
    }
    if out.is_empty() {
        return Err(ctx.err(format!("{owner}.attacks"), "needs at least one attack"));
    }
    Ok(out)
}

impl HeroFile {
    pub(crate) fn resolve(&self, ctx: &Ctx) -> Result<CombatantSpec, ContentError> {
        let w = format!("hero '{}'", self.id);
        check_id(ctx, &format!("{w}.id"), &self.id)?;
        check_range(ctx, &format!("{w}.level"), self.level, 1, 10)?;
        check_range(ctx, &format!("{w}.hp"), self.hp, 1, 1000)?;
        let s = self.abilities;
        for (name, v) in [
            ("str", s.str),
            ("con", s.con),
            ("dex", s.dex),
            ("int", s.int),
            ("wis", s.wis),
            ("cha", s.cha),
        ] {
            check_range(ctx, &format!("{w}.abilities.{name}"), v, 3, 30)?;
        }
        check_range(ctx, &format!("{w}.recoveries"), self.recoveries, 0, 20)?;
        if ![4, 6, 8, 10, 12, 20].contains(&self.recovery_die) {
            return Err(ctx.err(
                format!("{w}.recovery_die"),
                format!(
                    "d{} is not a die (4, 6, 8, 10, 12 or 20)",
                    self.recovery_die
                ),
            ));
        }
        let mods = AbilityMods {
            str: ability_mod(s.str),
            con: ability_mod(s.con),
            dex: ability_mod(s.dex),
            int: ability_mod(s.int),
            wis: ability_mod(s.wis),
            cha: ability_mod(s.cha),
        };
        // § Defenses: the middle of three ability modifiers, plus level, on a class/armor base —
        // or the number the stat block gives. (The text's sentence lost "modifier"; this is the
        // reading its defense tables use.)
        let middle = |a: i32, b: i32, c: i32| a + b + c - a.max(b).max(c) - a.min(b).min(c);
        let defense =
            |name: &str, given: Option<i32>, base: Option<i32>, mid: i32| match (given, base) {
                (Some(v), None) => check_range(ctx, &format!("{w}.{name}"), v, 1, 50).map(|()| v),
                (None, Some(b)) => {
                    let v = b + mid + self.level;
                    check_range(ctx, &format!("{w}.{name}_base"), v, 1, 50).map(|()| v)
                }
                _ => Err(ctx.err(
                    format!("{w}.{name}"),
                    format!("give either {name} or {name}_base"),
                )),
            };
        let defenses = Defenses {
            ac: defense(
                "ac",
                self.ac,
                self.ac_base,
                middle(mods.con, mods.dex, mods.wis),
            )?,
            pd: defense(
                "pd",
                self.pd,
                self.pd_base,
                middle(mods.str, mods.con, mods.dex),
            )?,
            md: defense(
                "md",
                self.md,
                self.md_base,
                middle(mods.int, mods.wis, mods.cha),
            )?,
        };
        let items = resolve_items(ctx, &w, &self.items)?;
        let mut attacks = resolve_attacks(ctx, &w, &self.attacks, Some((&mods, self.level)))?;
        // § Attack Bonuses / § Spell Attacks: the best magic weapon bonus on weapon attacks, the
        // best implement bonus on spells (§ Stacking Rules: only the best one counts).
        for a in &mut attacks {
            let (item, what) = if a.spell {
                (items.spell, "magic implement")
            } else {
                (items.attack, "magic weapon")
            };
            a.bonus += item;
            let mut terms = Modifiers(std::mem::take(&mut a.bonus_terms));
            terms.add(what, item);
            a.bonus_terms = terms.into_vec();
        }
        let defenses = Defenses {
            ac: defenses.ac + items.ac,
            pd: defenses.pd + items.pd,
            md: defenses.md + items.md,
        };
        if !attacks.iter().any(|a| a.id == "unarmed") {
            attacks.push(unarmed(&mods, self.level));
        }
        let (resist, vulnerable) = resolve_resistances(ctx, &w, &self.resist, &self.vulnerable)?;
        Ok(CombatantSpec {
            id: CombatantId::new(self.id.clone()),
            name: self.name.clone(),
            side: Side::Heroes,
            template: self.id.clone(),
            level: self.level,
            size: parse_size(ctx, &format!("{w}.size"), self.size.as_deref())?,
            max_hp: self.hp,
            defenses,
            // 13th Age § Initiative Bonus: Dexterity modifier + level.
            initiative: mods.dex + self.level,
            hero: Some(HeroSpec {
                mods,
                recoveries: self.recoveries,
                recovery_die: self.recovery_die,
                weapon_die: self.weapon_die,
                two_weapon: self.two_weapon,
                potions: self.potions.min(10),
                kind: match self.kind.as_deref() {
                    None | Some("pc") => HeroKind::Pc,
                    Some("companion") => HeroKind::Companion,
                    Some("npc") => HeroKind::Npc,
                    Some(other) => {
                        return Err(ctx.err(
                            format!("{w}.kind"),
                            format!("'{other}' is not a kind (pc, companion or npc)"),
                        ));
                    }
                },
                save_bonus: items.save,
            }),
            resist,
            vulnerable,
            villain: false,
            attacks,
            orcus: None,
            ose: None,
            ftd: None,
        })
    }
}

impl MonsterFile {
    pub(crate) fn resolve(
        &self,
        ctx: &Ctx,
        id: CombatantId,
        name: String,
    ) -> Result<CombatantSpec, ContentError> {
        let w = format!("monster '{}'", self.template);
        check_id(ctx, &format!("{w}.template"), &self.template)?;
        check_range(ctx, &format!("{w}.level"), self.level, 0, 15)?;
        check_range(ctx, &format!("{w}.hp"), self.hp, 1, 5000)?;
        for (n, v) in [("ac", self.ac), ("pd", self.pd), ("md", self.md)] {
            check_range(ctx, &format!("{w}.{n}"), v, 1, 50)?;
        }
        check_range(ctx, &format!("{w}.initiative"), self.initiative, -10, 40)?;
        let attacks = resolve_attacks(ctx, &w, &self.attacks, None)?;
        let (resist, vulnerable) = resolve_resistances(ctx, &w, &self.resist, &self.vulnerable)?;
        Ok(CombatantSpec {
            id,
            name,
            side: Side::Monsters,
            template: self.template.clone(),
            level: self.level,
            size: parse_size(ctx, &format!("{w}.size"), self.size.as_deref())?,
            max_hp: self.hp,
            defenses: Defenses {
                ac: self.ac,
                pd: self.pd,
                md: self.md,
            },
            initiative: self.initiative,
            hero: None,
            resist,
            vulnerable,
            villain: self.villain,
            attacks,
            orcus: None,
            ose: None,
            ftd: None,
        })
    }
}
