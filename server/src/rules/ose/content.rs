//! Old-School Essentials content (the shared B/X core): character and monster stat blocks and
//! encounters, as TOML (see `docs/content.md`, section "Old-School Essentials"). Validated on
//! load; errors name the file, the field and the reason.

use super::tables::{self, HitDice};
use crate::content::file::{Ctx, SeatFile};
use crate::content::model::{
    BfSpec, CombatantSpec, Encounter, HeroSpec, OseAttackSpec, OseSpec, SessionOptions,
};
use crate::content::{ContentError, resolve_seats};
use crate::dice::DiceExpr;
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::ose::{OseOptions, SaveTable};
use fray_protocol::state::Defenses;
use serde::Deserialize;
use std::collections::BTreeMap;

/// Ruleset id of these files.
pub const RULESET: &str = super::ID;

/// The built-in party and bestiary.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "builtin:ose/party.toml",
        include_str!("../../../content/ose/party.toml"),
    ),
    (
        "builtin:ose/bestiary.toml",
        include_str!("../../../content/ose/bestiary.toml"),
    ),
];

/// Built-in encounters: (name, TOML text).
pub const ENCOUNTERS: &[(&str, &str)] = &[(
    "barrow-of-the-hollow-king",
    include_str!("../../../content/ose/encounters/barrow-of-the-hollow-king.toml"),
)];

/// Built-in Basic Fantasy encounters (on the shared B/X party and bestiary).
pub const BASIC_FANTASY_ENCOUNTERS: &[(&str, &str)] = &[(
    "the-sunken-door",
    include_str!("../../../content/basic-fantasy/encounters/the-sunken-door.toml"),
)];

/// An Old-School Essentials content file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OseFile {
    /// Ruleset id (`ose`; required in encounter files).
    pub ruleset: Option<String>,
    /// Encounter title.
    pub title: Option<String>,
    /// Characters joining the encounter, by id.
    #[serde(default)]
    pub characters: Vec<String>,
    /// Monster groups.
    #[serde(default)]
    pub monsters: Vec<GroupFile>,
    /// Player seats.
    #[serde(default)]
    pub seats: Vec<SeatFile>,
    /// Session options (`ties`, `attack`), the text's defaults when absent.
    #[serde(default)]
    pub options: OseOptions,
    /// Character stat blocks.
    #[serde(default)]
    pub character: Vec<CharacterFile>,
    /// Monster stat blocks.
    #[serde(default)]
    pub monster: Vec<MonsterFile>,
    /// The party's animals (mounts, pack animals): monster stat blocks on the heroes' side
    /// (Basic Fantasy § Overland Travel: a forced march hurts "their animals, if any").
    #[serde(default)]
    pub animals: Vec<GroupFile>,
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

/// Ability scores as written (3..=18).
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoresFile {
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

/// Saving throws as written.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavesFile {
    /// Death or poison.
    pub death: i32,
    /// Wands.
    pub wands: i32,
    /// Paralysis or petrification.
    pub paralysis: i32,
    /// Breath attacks.
    pub breath: i32,
    /// Spells, rods or staves.
    pub spells: i32,
}

/// `[[character]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterFile {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Class (e.g. `fighter`, `magic-user`).
    pub class: String,
    /// Level (1..=14).
    pub level: i32,
    /// Ability scores.
    pub abilities: ScoresFile,
    /// THAC0 (from the class table; 5..=20).
    pub thac0: i32,
    /// Armour class, descending (−10..=9), shield included.
    pub ac: i32,
    /// The part of the AC from a shield (0..=3; § Attacking from Behind, § Retreat).
    #[serde(default)]
    pub shield: i32,
    /// Hit points (1..=999).
    pub hp: i32,
    /// Saving throws from the class table (2..=20).
    pub saves: SavesFile,
    /// Base movement rate in feet per turn (default 120; multiple of 3, 3..=240).
    #[serde(default = "base_move")]
    pub movement: i32,
    /// Weapons.
    #[serde(default)]
    pub weapons: Vec<WeaponFile>,
    /// Basic Fantasy § Retainers: the id of the character this one serves.
    #[serde(default)]
    pub retainer_of: Option<String>,
    /// Basic Fantasy § Character Advancement: experience points so far.
    #[serde(default)]
    pub xp: u32,
    /// Basic Fantasy § Character Advancement: XP needed for levels 2, 3, … (increasing).
    #[serde(default)]
    pub xp_table: Vec<u32>,
    /// Basic Fantasy § Carrying Capacity: the race (`halfling` carries less).
    #[serde(default)]
    pub race: Option<String>,
    /// Basic Fantasy § Darkvision (OSE § Infravision): its range in feet (0: none; 0..=240).
    #[serde(default)]
    pub darkvision: u32,
    /// OSE § Optional Rule: Encumbrance: armor worn — `none`/`unarmored`, `leather`/`light`
    /// or `metal`/`heavy` (default none).
    #[serde(default)]
    pub armor: Option<fray_protocol::bf::ArmorType>,
    /// OSE § Optional Rule: Encumbrance: the coins of weight carried at the start (0..=100000;
    /// treasure under the `basic` option, everything carried under `detailed`).
    #[serde(default)]
    pub load: u32,
    /// OSE § Optional Rule: Encumbrance, Option 1: carrying a significant amount of treasure.
    #[serde(default)]
    pub treasure: bool,
    /// Basic Fantasy § Movement and Encumbrance: the equipment carried, each with its weight in
    /// pounds; its sum is the character's load until the GM's `set_encumbrance` (armor from
    /// `armor`). Not read in `ose` sessions (their load is `load`, in coins).
    #[serde(default)]
    pub gear: Vec<GearFile>,
}

/// `[[character.gear]]`: an item and its weight (Basic Fantasy; the text gives no weights).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GearFile {
    /// What it is.
    pub name: String,
    /// Its weight in pounds (0..=1000).
    pub pounds: u32,
}

/// The weight of `gear` (at most 100 items), checked against the character's heavy-load
/// capacity (Basic Fantasy § Carrying Capacity); `None` when the content lists no gear.
fn gear_pounds(
    ctx: &Ctx,
    field: &str,
    gear: &[GearFile],
    strength: i32,
    halfling: bool,
) -> Result<Option<u32>, ContentError> {
    if gear.is_empty() {
        return Ok(None);
    }
    if gear.len() > 100 {
        return Err(ctx.err(field.to_owned(), "at most 100 items of gear"));
    }
    let mut total: u32 = 0;
    for (i, g) in gear.iter().enumerate() {
        name_ok(ctx, format!("{field}[{i}].name"), &g.name)?;
        in_range(
            ctx,
            format!("{field}[{i}].pounds"),
            as_i32(g.pounds),
            0,
            1000,
        )?;
        total = total.saturating_add(g.pounds);
    }
    let (_, heavy) = tables::bf_carrying_capacity(strength, halfling);
    if as_i32(total) > heavy {
        return Err(ctx.err(
            field.to_owned(),
            format!(
                "{total} lb is more than this character can carry ({heavy} lb, § Carrying Capacity)"
            ),
        ));
    }
    Ok(Some(total))
}

fn as_i32(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

fn base_move() -> i32 {
    120
}

/// `[[monster]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonsterFile {
    /// Template id.
    pub template: String,
    /// Name.
    pub name: String,
    /// Hit dice as written: `2`, `2+1`, `1-1`, `1/2`.
    pub hd: String,
    /// Armour class, descending (−10..=9).
    pub ac: i32,
    /// Hit points (1..=999; fixed, so that fights replay from the content).
    pub hp: i32,
    /// Morale rating (2..=12).
    pub morale: i32,
    /// The saving-throw row: `nh` or `hd N` (default: its hit dice' row).
    pub save_as: Option<String>,
    /// Base movement rate in feet per turn (default 120).
    #[serde(default = "base_move")]
    pub movement: i32,
    /// Attacks: one per round, or each of those marked `routine` once per round.
    #[serde(default)]
    pub attacks: Vec<WeaponFile>,
    /// The attack-matrix row: `nh` for the normal-human row (THAC0 20, § Normal Humans); by
    /// default its hit dice' row.
    #[serde(default)]
    pub attack_as: Option<String>,
    /// Mercenaries (§ Mercenary Morale): the troop type — `untrained` or `militia` (6),
    /// `barbarian` (7), `trained` (8), followed by `mounted` and/or `elite` (+1 each); it sets
    /// the morale rating (the hiring character's CHA has no influence).
    #[serde(default)]
    pub troop: Option<String>,
    /// § Invulnerabilities: harmed only by attacks of these kinds, e.g. `["silver", "magic"]`.
    #[serde(default)]
    pub invulnerable: Vec<String>,
    /// § Subduing: a creature without intelligence (it cannot be subdued).
    #[serde(default)]
    pub unintelligent: bool,
    /// § Bombing: a flying creature (it may drop bombs, `bomb`).
    #[serde(default)]
    pub flies: bool,
    /// Basic Fantasy § Darkvision (OSE § Infravision): its range in feet (0..=240); absent:
    /// 60 ("if not given for a particular creature, assume the 60′ range").
    #[serde(default)]
    pub darkvision: Option<u32>,
}

/// `[[character.weapons]]` / `[[monster.attacks]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponFile {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Damage dice, e.g. `1d8` (characters: STR is added in melee when rolled).
    pub damage: String,
    /// A missile weapon: its short, medium and long ranges in feet, increasing.
    pub ranges: Option<[i32; 3]>,
    /// A slow weapon (two-handed; § Slow Weapons: acts last in the round).
    #[serde(default)]
    pub slow: bool,
    /// What it is (§ Invulnerabilities), e.g. `["silver"]` or `["magic"]`.
    #[serde(default)]
    pub kinds: Vec<String>,
    /// § Attacks Per Round: a monster's attack that belongs to its routine of several attacks
    /// per round (e.g. claw/claw/bite): each routine attack may be made once per round.
    /// Characters attack once per round: refused on their weapons.
    #[serde(default)]
    pub routine: bool,
}

fn in_range(ctx: &Ctx, field: String, v: i32, lo: i32, hi: i32) -> Result<(), ContentError> {
    if (lo..=hi).contains(&v) {
        Ok(())
    } else {
        Err(ctx.err(field, format!("{v} is outside {lo}..={hi}")))
    }
}

fn id_ok(ctx: &Ctx, field: String, id: &str) -> Result<(), ContentError> {
    if id.is_empty()
        || id.len() > 40
        || !id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Err(ctx.err(
            field,
            format!("'{id}' must be 1-40 characters of a-z, 0-9 and '-'"),
        ));
    }
    Ok(())
}

fn name_ok(ctx: &Ctx, field: String, name: &str) -> Result<(), ContentError> {
    if name.trim().is_empty() || name.len() > 60 {
        return Err(ctx.err(field, "a name is 1-60 characters"));
    }
    Ok(())
}

fn movement_ok(ctx: &Ctx, field: String, m: i32) -> Result<(), ContentError> {
    in_range(ctx, field.clone(), m, 3, 240)?;
    if m % 3 != 0 {
        return Err(ctx.err(
            field,
            format!("{m} is not a multiple of 3 (the encounter rate is a third of it)"),
        ));
    }
    Ok(())
}

/// A list of kinds (§ Invulnerabilities): ids, each once, at most 8.
fn kinds(ctx: &Ctx, field: String, list: &[String]) -> Result<Vec<String>, ContentError> {
    if list.len() > 8 {
        return Err(ctx.err(field, "at most 8 kinds"));
    }
    for (i, k) in list.iter().enumerate() {
        id_ok(ctx, format!("{field}[{i}]"), k)?;
        if list[..i].contains(k) {
            return Err(ctx.err(field, format!("'{k}' appears twice")));
        }
    }
    Ok(list.to_vec())
}

fn weapons(
    ctx: &Ctx,
    field: &str,
    list: &[WeaponFile],
) -> Result<Vec<OseAttackSpec>, ContentError> {
    if list.is_empty() {
        return Err(ctx.err(field.to_owned(), "at least one attack"));
    }
    let mut out: Vec<OseAttackSpec> = Vec::new();
    for (i, w) in list.iter().enumerate() {
        let f = |n: &str| format!("{field}[{i}].{n}");
        id_ok(ctx, f("id"), &w.id)?;
        if out.iter().any(|o| o.id == w.id) {
            return Err(ctx.err(f("id"), format!("'{}' appears twice", w.id)));
        }
        name_ok(ctx, f("name"), &w.name)?;
        let expr = DiceExpr::parse(&w.damage)
            .map_err(|e| ctx.err(f("damage"), format!("'{}': {e}", w.damage)))?;
        let (lo, _) = expr
            .bounds(&crate::dice::Placeholders::default())
            .map_err(|e| ctx.err(f("damage"), format!("'{}': {e}", w.damage)))?;
        if lo.is_some_and(|l| l < 0) {
            return Err(ctx.err(f("damage"), "damage cannot be negative"));
        }
        if let Some([s, m, l]) = w.ranges
            && !(0 < s && s < m && m < l && l <= 1000)
        {
            return Err(ctx.err(
                f("ranges"),
                format!("[{s}, {m}, {l}] must increase, within 1..=1000 feet"),
            ));
        }
        out.push(OseAttackSpec {
            id: w.id.clone(),
            name: w.name.clone(),
            damage: w.damage.clone(),
            ranges: w.ranges,
            slow: w.slow,
            kinds: kinds(ctx, f("kinds"), &w.kinds)?,
            routine: w.routine,
        });
    }
    Ok(out)
}

fn character(ctx: &Ctx, c: &CharacterFile) -> Result<CombatantSpec, ContentError> {
    let field = format!("character '{}'", c.id);
    let f = |n: &str| format!("{field}.{n}");
    id_ok(ctx, f("id"), &c.id)?;
    name_ok(ctx, f("name"), &c.name)?;
    id_ok(ctx, f("class"), &c.class)?;
    in_range(ctx, f("level"), c.level, 1, 14)?;
    let a = c.abilities;
    for (n, v) in [
        ("str", a.str),
        ("dex", a.dex),
        ("con", a.con),
        ("int", a.int),
        ("wis", a.wis),
        ("cha", a.cha),
    ] {
        in_range(ctx, f(&format!("abilities.{n}")), v, 3, 18)?;
    }
    in_range(ctx, f("thac0"), c.thac0, 5, 20)?;
    in_range(ctx, f("ac"), c.ac, -10, 9)?;
    in_range(ctx, f("shield"), c.shield, 0, 3)?;
    in_range(ctx, f("hp"), c.hp, 1, 999)?;
    let s = c.saves;
    let saves = [s.death, s.wands, s.paralysis, s.breath, s.spells];
    for (n, v) in ["death", "wands", "paralysis", "breath", "spells"]
        .iter()
        .zip(saves)
    {
        in_range(ctx, f(&format!("saves.{n}")), v, 2, 20)?;
    }
    movement_ok(ctx, f("movement"), c.movement)?;
    let halfling = [Some(c.class.as_str()), c.race.as_deref()]
        .into_iter()
        .flatten()
        .any(|r| r.eq_ignore_ascii_case("halfling"));
    let mods = crate::content::model::AbilityMods {
        str: tables::ability_mod(a.str),
        con: tables::ability_mod(a.con),
        dex: tables::ability_mod(a.dex),
        int: tables::ability_mod(a.int),
        wis: tables::ability_mod(a.wis),
        cha: tables::ability_mod(a.cha),
    };
    Ok(combatant(
        CombatantId::new(c.id.clone()),
        c.name.clone(),
        Side::Heroes,
        c.id.clone(),
        c.level,
        c.hp,
        Some(HeroSpec {
            mods,
            recoveries: 0,
            recovery_die: 0,
            weapon_die: None,
            two_weapon: false,
            potions: 0,
            save_bonus: 0,
            kind: crate::content::model::HeroKind::Pc,
        }),
        OseSpec {
            class: Some(c.class.clone()),
            hd: None,
            thac0: c.thac0,
            ac: c.ac,
            shield: c.shield,
            saves,
            morale: None,
            movement: c.movement,
            str_mod: tables::ability_mod(a.str),
            dex_mod: tables::ability_mod(a.dex),
            cha_mod: tables::cha_reaction_mod(a.cha),
            attacks: {
                if let Some(i) = c.weapons.iter().position(|w| w.routine) {
                    return Err(ctx.err(
                        format!("{}[{i}].routine", f("weapons")),
                        "characters attack once per round (§ Attacks Per Round)",
                    ));
                }
                weapons(ctx, &f("weapons"), &c.weapons)?
            },
            int: Some(a.int),
            scores: Some([a.str, a.int, a.wis, a.dex, a.con, a.cha]),
            bf: BfSpec {
                str: a.str,
                cha_bonus: tables::ability_mod(a.cha),
                con_bonus: tables::ability_mod(a.con),
                wis_bonus: tables::ability_mod(a.wis),
                halfling,
                gear_pounds: gear_pounds(ctx, &f("gear"), &c.gear, a.str, halfling)?,
                retainer_of: match &c.retainer_of {
                    Some(e) => {
                        id_ok(ctx, f("retainer_of"), e)?;
                        if *e == c.id {
                            return Err(
                                ctx.err(f("retainer_of"), "a character cannot serve itself")
                            );
                        }
                        Some(CombatantId::new(e.clone()))
                    }
                    None => None,
                },
                xp: c.xp,
                xp_table: {
                    if c.xp_table.windows(2).any(|w| w[0] >= w[1]) || c.xp_table.len() > 40 {
                        return Err(ctx.err(f("xp_table"), "at most 40 increasing XP totals"));
                    }
                    c.xp_table.clone()
                },
                stars: 0,
            },
            invulnerable: Vec::new(),
            unintelligent: false,
            flies: false,
            darkvision: {
                in_range(ctx, f("darkvision"), as_i32(c.darkvision), 0, 240)?;
                c.darkvision
            },
            load: {
                in_range(ctx, f("load"), as_i32(c.load), 0, 100_000)?;
                crate::content::model::OseLoad {
                    armor: c.armor.unwrap_or(fray_protocol::bf::ArmorType::None),
                    coins: c.load,
                    treasure: c.treasure,
                }
            },
        },
    ))
}

#[allow(clippy::too_many_arguments)]
fn combatant(
    id: CombatantId,
    name: String,
    side: Side,
    template: String,
    level: i32,
    hp: i32,
    hero: Option<HeroSpec>,
    ose: OseSpec,
) -> CombatantSpec {
    CombatantSpec {
        id,
        name,
        side,
        template,
        level,
        max_hp: hp,
        defenses: Defenses {
            ac: ose.ac,
            pd: 0,
            md: 0,
        },
        initiative: 0,
        size: fray_protocol::grid::Size::Medium,
        hero,
        resist: Vec::new(),
        vulnerable: Vec::new(),
        villain: false,
        attacks: Vec::new(),
        orcus: None,
        ftd: None,
        ose: Some(ose),
    }
}

/// § Mercenary Morale: the troop type's rating (untrained or militia 6, barbarian horde 7,
/// trained warriors 8; mounted +1, elite +1, fanatics or berserkers +2), each modifier once.
pub fn troop_morale(troop: &str) -> Option<i32> {
    let mut words = troop.split_whitespace().map(str::to_lowercase);
    let mut rating = match words.next()?.as_str() {
        "untrained" | "militia" => 6,
        "barbarian" => 7,
        "trained" => 8,
        _ => return None,
    };
    let mut seen = Vec::new();
    for w in words {
        // The table's rows: "Fanatics, berserkers +2" is one row (either word, once).
        let (row, bonus) = match w.as_str() {
            "mounted" => ("mounted", 1),
            "elite" => ("elite", 1),
            "fanatic" | "fanatics" | "berserker" | "berserkers" => ("fanatic", 2),
            _ => return None,
        };
        if seen.contains(&row) {
            return None;
        }
        rating += bonus;
        seen.push(row);
    }
    Some(rating)
}

fn save_table(
    ctx: &Ctx,
    field: String,
    s: Option<&str>,
    hd: HitDice,
) -> Result<SaveTable, ContentError> {
    match s.map(str::trim) {
        None => Ok(SaveTable::Hd(hd.dice)),
        Some("nh") => Ok(SaveTable::NormalHuman),
        Some(other) => other
            .strip_prefix("hd ")
            .and_then(|n| n.trim().parse::<u32>().ok())
            .filter(|n| (1..=40).contains(n))
            .map(SaveTable::Hd)
            .ok_or_else(|| ctx.err(field, format!("'{other}' is not 'nh' or 'hd N' (1..=40)"))),
    }
}

fn monster(ctx: &Ctx, m: &MonsterFile, n: u32, count: u32) -> Result<CombatantSpec, ContentError> {
    let field = format!("monster '{}'", m.template);
    let f = |x: &str| format!("{field}.{x}");
    id_ok(ctx, f("template"), &m.template)?;
    name_ok(ctx, f("name"), &m.name)?;
    // Basic Fantasy § Character Advancement: "2**" — each asterisk adds the special-ability
    // bonus to the XP value.
    let bare = m.hd.trim().trim_end_matches('*');
    let stars = u32::try_from(m.hd.trim().len() - bare.len()).unwrap_or(0);
    let hd = HitDice::parse(bare).ok_or_else(|| {
        ctx.err(
            f("hd"),
            format!("'{}' is not hit dice (N, N+B, N-B or 1/2)", m.hd),
        )
    })?;
    if hd.dice > 40 {
        return Err(ctx.err(f("hd"), "at most 40 hit dice"));
    }
    in_range(ctx, f("ac"), m.ac, -10, 9)?;
    in_range(ctx, f("hp"), m.hp, 1, 999)?;
    in_range(ctx, f("morale"), m.morale, 2, 12)?;
    let morale = match &m.troop {
        None => m.morale,
        Some(t) => troop_morale(t).ok_or_else(|| {
            ctx.err(
                f("troop"),
                "untrained, militia, barbarian or trained, then mounted and/or elite",
            )
        })?,
    };
    movement_ok(ctx, f("movement"), m.movement)?;
    let table = save_table(ctx, f("save_as"), m.save_as.as_deref(), hd)?;
    let thac0 = match m.attack_as.as_deref().map(str::trim) {
        None | Some("hd") => tables::monster_thac0(hd),
        Some(s) if s.eq_ignore_ascii_case("nh") => tables::NORMAL_HUMAN_THAC0,
        Some(_) => return Err(ctx.err(f("attack_as"), "\"nh\" or \"hd\"")),
    };
    let (id, name) = if count == 1 {
        (m.template.clone(), m.name.clone())
    } else {
        (format!("{}-{n}", m.template), format!("{} {n}", m.name))
    };
    Ok(combatant(
        CombatantId::new(id),
        name,
        Side::Monsters,
        m.template.clone(),
        i32::try_from(hd.dice).unwrap_or(40),
        m.hp,
        None,
        OseSpec {
            class: None,
            hd: Some(bare.to_owned()),
            thac0,
            ac: m.ac,
            shield: 0,
            saves: tables::monster_saves(table),
            morale: Some(morale),
            movement: m.movement,
            str_mod: 0,
            dex_mod: 0,
            cha_mod: 0,
            attacks: weapons(ctx, &f("attacks"), &m.attacks)?,
            int: None,
            scores: None,
            bf: BfSpec {
                stars,
                ..BfSpec::default()
            },
            invulnerable: kinds(ctx, f("invulnerable"), &m.invulnerable)?,
            unintelligent: m.unintelligent,
            flies: m.flies,
            darkvision: {
                let feet = m.darkvision.unwrap_or(60);
                in_range(ctx, f("darkvision"), as_i32(feet), 0, 240)?;
                feet
            },
            load: crate::content::model::OseLoad::default(),
        },
    ))
}

/// Loads an encounter: its file (which may hold stat blocks too) over the built-in party and
/// bestiary. `name` names the file in error messages.
pub fn load_encounter(name: &str, text: &str) -> Result<Encounter, ContentError> {
    let enc: OseFile = crate::content::parse_toml(name, text)?;
    let ctx = Ctx { file: name };
    let ruleset = match enc.ruleset.as_deref() {
        Some(r) if super::is_bx(r) => r.to_owned(),
        _ => {
            return Err(ctx.err(
                "ruleset",
                "an Old-School Essentials encounter says ruleset = \"ose\" (or \"basic-fantasy\")",
            ));
        }
    };
    let mut options = enc.options;
    if ruleset == crate::rules::basic_fantasy::ID {
        // basic-fantasy-adventures.txt § Light: its own durations.
        options.light = fray_protocol::ose::LightRule::BasicFantasy;
        // Basic Fantasy rolls each weapon's own damage (its equipment lists; the provided text
        // has no 1d6 rule): variable weapon damage always.
        options.weapon_damage = fray_protocol::ose::WeaponDamage::Variable;
        // Basic Fantasy § Retainers, Loyalty: "used just as the Morale score of monsters or
        // mercenaries is used" — its text takes monster morale as in play, not optional (OSE's
        // § Morale (Optional Rule) is an option there): morale always.
        options.morale = true;
    }
    let mut chars: BTreeMap<String, (String, CharacterFile)> = BTreeMap::new();
    let mut mons: BTreeMap<String, (String, MonsterFile)> = BTreeMap::new();
    let mut files = Vec::new();
    for (file, text) in BUILTIN {
        files.push((
            file.to_string(),
            crate::content::parse_toml::<OseFile>(file, text)?,
        ));
    }
    for (file, f) in &files {
        for c in &f.character {
            chars.insert(c.id.clone(), (file.clone(), c.clone()));
        }
        for m in &f.monster {
            mons.insert(m.template.clone(), (file.clone(), m.clone()));
        }
    }
    for c in &enc.character {
        chars.insert(c.id.clone(), (name.to_owned(), c.clone()));
    }
    for m in &enc.monster {
        mons.insert(m.template.clone(), (name.to_owned(), m.clone()));
    }
    if enc.characters.is_empty() {
        return Err(ctx.err("characters", "an encounter needs at least one character"));
    }
    if enc.monsters.is_empty() {
        return Err(ctx.err("monsters", "an encounter needs at least one monster group"));
    }
    let mut combatants = Vec::new();
    for (i, id) in enc.characters.iter().enumerate() {
        let (file, c) = chars
            .get(id)
            .ok_or_else(|| ctx.err(format!("characters[{i}]"), format!("no character '{id}'")))?;
        combatants.push(character(&Ctx { file }, c)?);
    }
    for (i, g) in enc.monsters.iter().enumerate() {
        in_range(
            &ctx,
            format!("monsters[{i}].count"),
            i32::try_from(g.count).unwrap_or(i32::MAX),
            1,
            20,
        )?;
        let (file, m) = mons.get(&g.template).ok_or_else(|| {
            ctx.err(
                format!("monsters[{i}].template"),
                format!("no monster '{}'", g.template),
            )
        })?;
        for n in 1..=g.count {
            combatants.push(monster(&Ctx { file }, m, n, g.count)?);
        }
    }
    for (i, g) in enc.animals.iter().enumerate() {
        in_range(
            &ctx,
            format!("animals[{i}].count"),
            i32::try_from(g.count).unwrap_or(i32::MAX),
            1,
            20,
        )?;
        let (file, m) = mons.get(&g.template).ok_or_else(|| {
            ctx.err(
                format!("animals[{i}].template"),
                format!("no monster '{}'", g.template),
            )
        })?;
        for n in 1..=g.count {
            let mut animal = monster(&Ctx { file }, m, n, g.count)?;
            animal.side = Side::Heroes;
            combatants.push(animal);
        }
    }
    combatants.sort_by(|a, b| a.id.cmp(&b.id));
    for w in combatants.windows(2) {
        if w[0].id == w[1].id {
            return Err(ctx.err(
                "characters",
                format!("combatant id '{}' appears twice", w[0].id),
            ));
        }
    }
    // Basic Fantasy § Retainers: a retainer serves a character of the party.
    for c in &combatants {
        if let Some(e) = c.ose.as_ref().and_then(|o| o.bf.retainer_of.as_ref())
            && !combatants
                .iter()
                .any(|x| &x.id == e && x.side == Side::Heroes)
        {
            return Err(ctx.err(
                format!("character '{}'.retainer_of", c.id),
                format!("no character '{e}' in the encounter"),
            ));
        }
    }
    let seats = resolve_seats(&ctx, &enc.seats, &combatants)?;
    let reserves = crate::content::reserves(&mons, &combatants, |ctx, m| monster(ctx, m, 1, 1))?;
    Ok(Encounter {
        ruleset,
        title: enc.title.unwrap_or_else(|| "Untitled encounter".into()),
        combatants,
        seats,
        options: SessionOptions {
            ose: options,
            ..SessionOptions::default()
        },
        map: None,
        battles: Vec::new(),
        reserves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fray_protocol::ose::{AttackProcedure, TieRule};

    fn err(text: &str) -> String {
        load_encounter("test.toml", text).unwrap_err().to_string()
    }

    const HEAD: &str =
        "ruleset = \"ose\"\ncharacters = [\"odo\"]\n[[monsters]]\ntemplate = \"grave-rat\"\n";

    #[test]
    fn the_builtin_encounter_loads_with_the_texts_defaults() {
        let (name, text) = ENCOUNTERS[0];
        let e = load_encounter(name, text).unwrap();
        assert_eq!(e.options.ose.ties, TieRule::Reroll);
        assert_eq!(e.options.ose.attack, AttackProcedure::Matrix);
        assert!(e.combatants.iter().any(|c| c.side == Side::Heroes));
        assert!(
            e.combatants
                .iter()
                .filter(|c| c.side == Side::Monsters)
                .count()
                >= 3
        );
        // The whole bestiary (≥ 8 monsters) validates.
        let bestiary: OseFile = crate::content::parse_toml(BUILTIN[1].0, BUILTIN[1].1).unwrap();
        assert!(bestiary.monster.len() >= 8);
        for m in &bestiary.monster {
            monster(&Ctx { file: BUILTIN[1].0 }, m, 1, 1).unwrap();
        }
        let party: OseFile = crate::content::parse_toml(BUILTIN[0].0, BUILTIN[0].1).unwrap();
        for c in &party.character {
            character(&Ctx { file: BUILTIN[0].0 }, c).unwrap();
        }
    }

    // ose-adventuring.txt § Attack Matrix (monsters by HD) and § Monster Saving Throws.
    #[test]
    fn monsters_get_their_thac0_and_saves_from_hit_dice() {
        let text = format!(
            "{HEAD}count = 2\n[[monster]]\ntemplate = \"grave-rat\"\nname = \"Grave rat\"\nhd = \"2+1\"\nac = 7\nhp = 9\nmorale = 8\n[[monster.attacks]]\nid = \"bite\"\nname = \"Bite\"\ndamage = \"1d4\"\n"
        );
        let e = load_encounter("test.toml", &text).unwrap();
        let rat = e
            .combatants
            .iter()
            .find(|c| c.id.as_str() == "grave-rat-2")
            .unwrap();
        assert_eq!(rat.name, "Grave rat 2");
        let k = rat.ose.as_ref().unwrap();
        assert_eq!(k.thac0, 17);
        assert_eq!(k.saves, [12, 13, 14, 15, 16]);
        let nh = text.replace("morale = 8", "morale = 8\nsave_as = \"nh\"");
        let e = load_encounter("test.toml", &nh).unwrap();
        assert_eq!(
            e.combatants
                .iter()
                .find(|c| c.id.as_str() == "grave-rat-1")
                .unwrap()
                .ose
                .as_ref()
                .unwrap()
                .saves,
            [14, 15, 16, 17, 18]
        );
        // § Normal Humans: the NH attack row (THAC0 20) with `attack_as = "nh"`.
        let nh = text.replace("morale = 8", "morale = 8\nattack_as = \"nh\"");
        let e = load_encounter("test.toml", &nh).unwrap();
        let rat = e.combatants.iter().find(|c| c.id.as_str() == "grave-rat-1");
        assert_eq!(rat.and_then(|c| c.ose.as_ref()).map(|k| k.thac0), Some(20));
        let bad = text.replace("morale = 8", "morale = 8\nattack_as = \"elf\"");
        assert!(load_encounter("test.toml", &bad).is_err());
    }

    /// ose-adventuring.txt § Mercenary Morale, the Troop Type Morale table's last row:
    /// "Fanatics, berserkers +2" (either word, singular or plural, counted once).
    #[test]
    fn fanatics_and_berserkers_add_two_mercenary_morale() {
        assert_eq!(troop_morale("barbarian berserkers"), Some(9));
        assert_eq!(troop_morale("militia fanatic"), Some(8));
        assert_eq!(troop_morale("trained mounted elite fanatics"), Some(12));
        assert_eq!(troop_morale("Trained Berserker"), Some(10));
        assert_eq!(troop_morale("trained fanatic berserker"), None);
        assert_eq!(
            troop_morale("fanatic"),
            None,
            "a modifier is not a troop type"
        );
        let text = format!(
            "{HEAD}[[monster]]\ntemplate = \"grave-rat\"\nname = \"Berserker\"\nhd = \"1\"\nac = 7\nhp = 5\nmorale = 8\ntroop = \"barbarian berserker\"\n[[monster.attacks]]\nid = \"axe\"\nname = \"Axe\"\ndamage = \"1d8\"\n"
        );
        let e = load_encounter("test.toml", &text).unwrap();
        let m = e
            .combatants
            .iter()
            .find(|c| c.id.as_str() == "grave-rat")
            .unwrap();
        assert_eq!(m.ose.as_ref().unwrap().morale, Some(9));
    }

    // ose-adventuring.txt § Mercenary Morale: the rating by troop type (the Mercenary Morale
    // table: militia 6, barbarian horde 7, trained warriors 8, mounted +1, elite +1).
    #[test]
    fn mercenaries_take_their_troop_types_rating_mercenary_morale() {
        assert_eq!(troop_morale("militia"), Some(6));
        assert_eq!(troop_morale("untrained"), Some(6));
        assert_eq!(troop_morale("barbarian"), Some(7));
        assert_eq!(troop_morale("trained"), Some(8));
        assert_eq!(troop_morale("trained mounted elite"), Some(10));
        assert_eq!(troop_morale("Barbarian Mounted"), Some(8));
        assert_eq!(troop_morale("trained elite elite"), None);
        assert_eq!(troop_morale("heroic"), None);
        let text = format!(
            "{HEAD}[[monster]]\ntemplate = \"grave-rat\"\nname = \"Spearman\"\nhd = \"1\"\nac = 7\nhp = 5\nmorale = 8\ntroop = \"militia elite\"\n[[monster.attacks]]\nid = \"spear\"\nname = \"Spear\"\ndamage = \"1d6\"\n"
        );
        let e = load_encounter("test.toml", &text).unwrap();
        let m = e
            .combatants
            .iter()
            .find(|c| c.id.as_str() == "grave-rat")
            .unwrap();
        assert_eq!(m.ose.as_ref().unwrap().morale, Some(7));
    }

    #[test]
    fn errors_name_file_field_and_reason() {
        let bad = format!(
            "{HEAD}[[monster]]\ntemplate = \"grave-rat\"\nname = \"Grave rat\"\nhd = \"two\"\nac = 7\nhp = 9\nmorale = 8\n[[monster.attacks]]\nid = \"bite\"\nname = \"Bite\"\ndamage = \"1d4\"\n"
        );
        assert_eq!(
            err(&bad),
            "test.toml: monster 'grave-rat'.hd: 'two' is not hit dice (N, N+B, N-B or 1/2)"
        );
        let morale = bad
            .replace("\"two\"", "\"1\"")
            .replace("morale = 8", "morale = 13");
        assert_eq!(
            err(&morale),
            "test.toml: monster 'grave-rat'.morale: 13 is outside 2..=12"
        );
        let dmg = bad.replace("\"two\"", "\"1\"").replace("1d4", "1q4");
        assert!(err(&dmg).starts_with("test.toml: monster 'grave-rat'.attacks[0].damage: '1q4'"));
        let ranges = bad.replace("\"two\"", "\"1\"").replace(
            "damage = \"1d4\"",
            "damage = \"1d4\"\nranges = [50, 40, 150]",
        );
        assert_eq!(
            err(&ranges),
            "test.toml: monster 'grave-rat'.attacks[0].ranges: [50, 40, 150] must increase, within 1..=1000 feet"
        );
        assert_eq!(
            err("ruleset = \"ose\"\ncharacters = [\"nobody\"]\n[[monsters]]\ntemplate = \"x\"\n"),
            "test.toml: characters[0]: no character 'nobody'"
        );
        assert!(err("ruleset = \"ose\"\n[options]\nties = \"coin\"\n").starts_with("test.toml:"));
    }
}
