//! Five Torches Deep content: hero and monster stat blocks and encounters, as TOML (see
//! `docs/content.md`, section "Five Torches Deep"). Validated on load; errors name the file, the
//! field and the reason.

use super::rules::{self, AttackKind};
use crate::content::file::{Ctx, SeatFile};
use crate::content::model::{
    AbilityMods, CombatantSpec, Encounter, FtdAttackSpec, FtdSpec, HeroSpec,
};
use crate::content::{ContentError, resolve_seats};
use crate::dice::DiceExpr;
use fray_protocol::ftd::AbilityScores;
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::state::Defenses;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The built-in encounters: (name, TOML text).
pub const ENCOUNTERS: &[(&str, &str)] = &[
    (
        "flooded-chapel",
        include_str!("../../../content/five-torches-deep/encounters/flooded-chapel.toml"),
    ),
    (
        "toll-road",
        include_str!("../../../content/five-torches-deep/encounters/toll-road.toml"),
    ),
    (
        "drowned-crypt",
        include_str!("../../../content/five-torches-deep/encounters/drowned-crypt.toml"),
    ),
];

/// The built-in party and bestiary.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "builtin:five-torches-deep/party.toml",
        include_str!("../../../content/five-torches-deep/party.toml"),
    ),
    (
        "builtin:five-torches-deep/bestiary.toml",
        include_str!("../../../content/five-torches-deep/bestiary.toml"),
    ),
];

/// A Five Torches Deep content file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FtdFile {
    /// Ruleset id (`five-torches-deep`; required in encounter files).
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
    /// Hero stat blocks.
    #[serde(default)]
    pub hero: Vec<HeroFile>,
    /// Monster stat blocks.
    #[serde(default)]
    pub monster: Vec<MonsterFile>,
    /// Session options.
    #[serde(default)]
    pub options: FtdOptionsFile,
    /// Later battles of the session (with `[options] rests = true`), in order; the GM brings
    /// each in with `next_battle`.
    #[serde(default)]
    pub battles: Vec<FtdBattleFile>,
}

/// `[[battles]]` of a Five Torches Deep encounter: a later battle — new monsters against the
/// same heroes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FtdBattleFile {
    /// Title (`Battle N` unless given).
    pub title: Option<String>,
    /// Monster groups coming in.
    #[serde(default)]
    pub monsters: Vec<GroupFile>,
}

/// `[options]` of a Five Torches Deep encounter.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FtdOptionsFile {
    /// The session goes on after the battle (the GM's checks, travel, treasure, rests) until
    /// the GM ends it.
    #[serde(default)]
    pub rests: bool,
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

/// Ability scores as written.
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

impl Default for ScoresFile {
    fn default() -> Self {
        ScoresFile {
            str: 10,
            dex: 10,
            con: 10,
            int: 10,
            wis: 10,
            cha: 10,
        }
    }
}

/// `[[hero]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeroFile {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Class (e.g. `warrior`, `cleric`).
    pub class: String,
    /// Level (1..=20).
    pub level: i32,
    /// Ability scores (1..=30).
    pub abilities: ScoresFile,
    /// Armor class (1..=30).
    pub ac: i32,
    /// Maximum hit points (1..=999).
    pub hp: i32,
    /// Proficiency bonus (default: by level).
    pub proficiency: Option<i32>,
    /// What the hero is proficient in, from class and archetype (`medicine`, `morale`, …).
    #[serde(default)]
    pub proficiencies: Vec<String>,
    /// Load carried besides coins (0..=60; each load above STR costs 5′ of speed).
    #[serde(default)]
    pub load: i32,
    /// Coins carried (500 are a load).
    #[serde(default)]
    pub coins: i32,
    /// Speed in feet (default 30).
    pub speed: Option<i32>,
    /// Sees in darkness (§ Darksight).
    #[serde(default)]
    pub darksight: bool,
    /// A retainer or NPC on the party's side following this PC (by id): when the PC retreats
    /// it must check morale at disadvantage.
    pub follows: Option<String>,
    /// Weapons and attack spells.
    #[serde(default)]
    pub attacks: Vec<AttackFile>,
}

/// `[[monster]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonsterFile {
    /// Template id.
    pub template: String,
    /// Name.
    pub name: String,
    /// Hit dice (0..=30).
    pub hd: i32,
    /// Armor class (1..=30).
    pub ac: i32,
    /// Hit points (1..=999).
    pub hp: i32,
    /// Ability scores (default 10 each; DEX places it in the order, WIS adds to morale).
    #[serde(default)]
    pub abilities: ScoresFile,
    /// Morale bonus (default: by HD).
    pub morale: Option<i32>,
    /// Adds its proficiency bonus (by HD) to morale checks (a brave or disciplined type).
    #[serde(default)]
    pub morale_proficient: bool,
    /// A leader or expert: its death proposes a morale check to its side.
    #[serde(default)]
    pub leader: bool,
    /// Load carried besides coins (0..=60; each load above STR costs 5′ of speed).
    #[serde(default)]
    pub load: i32,
    /// Coins carried (500 are a load).
    #[serde(default)]
    pub coins: i32,
    /// Speed in feet (default 30).
    pub speed: Option<i32>,
    /// Sees in darkness (§ Darksight).
    #[serde(default)]
    pub darksight: bool,
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
    /// `melee` (STR), `ranged` (DEX), `arcane` (INT) or `divine` (WIS).
    pub kind: String,
    /// For spells: `close` (a touch or melee spell) or `ranged` (the default).
    pub range: Option<String>,
    /// Damage dice, e.g. `1d8` (heroes: the ability modifier is added; monsters: written in
    /// full, e.g. `1d6+1`).
    pub damage: String,
    /// Heroes: proficient with it (default true).
    pub proficient: Option<bool>,
    /// Monsters: the attack modifier (required for monsters, not allowed for heroes).
    pub bonus: Option<i32>,
}

fn parse(name: &str, text: &str) -> Result<FtdFile, ContentError> {
    crate::content::parse_toml(name, text)
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

fn scores(ctx: &Ctx, field: &str, s: &ScoresFile) -> Result<AbilityScores, ContentError> {
    for (n, v) in [
        ("str", s.str),
        ("dex", s.dex),
        ("con", s.con),
        ("int", s.int),
        ("wis", s.wis),
        ("cha", s.cha),
    ] {
        in_range(ctx, format!("{field}.{n}"), v, 1, 30)?;
    }
    Ok(AbilityScores {
        str: s.str,
        dex: s.dex,
        con: s.con,
        int: s.int,
        wis: s.wis,
        cha: s.cha,
    })
}

fn mods(a: &AbilityScores) -> AbilityMods {
    AbilityMods {
        str: rules::ability_mod(a.str),
        con: rules::ability_mod(a.con),
        dex: rules::ability_mod(a.dex),
        int: rules::ability_mod(a.int),
        wis: rules::ability_mod(a.wis),
        cha: rules::ability_mod(a.cha),
    }
}

impl AttackFile {
    fn resolve(&self, ctx: &Ctx, field: &str, hero: bool) -> Result<FtdAttackSpec, ContentError> {
        let f = |n: &str| format!("{field}.{n}");
        id_ok(ctx, f("id"), &self.id)?;
        if self.name.trim().is_empty() || self.name.len() > 60 {
            return Err(ctx.err(f("name"), "a name is 1-60 characters"));
        }
        let kind = match self.kind.as_str() {
            "melee" => AttackKind::Melee,
            "ranged" => AttackKind::Ranged,
            "arcane" => AttackKind::Arcane,
            "divine" => AttackKind::Divine,
            other => {
                return Err(ctx.err(
                    f("kind"),
                    format!("'{other}' is not melee, ranged, arcane or divine"),
                ));
            }
        };
        let ranged = match (kind, self.range.as_deref()) {
            (AttackKind::Melee, None | Some("close")) => false,
            (AttackKind::Ranged, None | Some("ranged")) => true,
            (AttackKind::Arcane | AttackKind::Divine, None | Some("ranged")) => true,
            (AttackKind::Arcane | AttackKind::Divine, Some("close")) => false,
            (_, Some(other)) => {
                return Err(ctx.err(
                    f("range"),
                    format!(
                        "'{other}' does not fit a {} attack (melee weapons are close, ranged \
                         weapons ranged; spells are close or ranged)",
                        self.kind
                    ),
                ));
            }
        };
        let expr = DiceExpr::parse(&self.damage)
            .map_err(|e| ctx.err(f("damage"), format!("'{}': {e}", self.damage)))?;
        let ph = crate::dice::Placeholders::default();
        let (lo, _) = expr.bounds(&ph).map_err(|e| {
            ctx.err(
                f("damage"),
                format!(
                    "'{}': {e} (no placeholders in Five Torches Deep)",
                    self.damage
                ),
            )
        })?;
        if lo.is_some_and(|l| l < 0) {
            return Err(ctx.err(f("damage"), "damage cannot be negative"));
        }
        let bonus = match (hero, self.bonus) {
            (true, Some(_)) => {
                return Err(ctx.err(
                    f("bonus"),
                    "a hero's attack bonus comes from its ability and proficiency",
                ));
            }
            (true, None) => 0,
            (false, None) => {
                return Err(ctx.err(f("bonus"), "a monster attack needs its attack modifier"));
            }
            (false, Some(b)) => {
                in_range(ctx, f("bonus"), b, -5, 30)?;
                b
            }
        };
        if !hero && self.proficient.is_some() {
            return Err(ctx.err(
                f("proficient"),
                "a monster's bonus already includes everything",
            ));
        }
        Ok(FtdAttackSpec {
            id: self.id.clone(),
            name: self.name.clone(),
            kind,
            ranged,
            ability: hero.then(|| rules::attack_ability(kind)),
            proficient: hero && self.proficient.unwrap_or(true),
            bonus,
            damage: self.damage.clone(),
        })
    }
}

fn attacks(
    ctx: &Ctx,
    field: &str,
    list: &[AttackFile],
    hero: bool,
) -> Result<Vec<FtdAttackSpec>, ContentError> {
    if list.is_empty() {
        return Err(ctx.err(format!("{field}.attacks"), "at least one attack"));
    }
    let mut out: Vec<FtdAttackSpec> = Vec::new();
    for (i, a) in list.iter().enumerate() {
        let r = a.resolve(ctx, &format!("{field}.attacks[{i}]"), hero)?;
        if out.iter().any(|x| x.id == r.id) {
            return Err(ctx.err(
                format!("{field}.attacks[{i}].id"),
                format!("duplicate attack id '{}'", r.id),
            ));
        }
        out.push(r);
    }
    Ok(out)
}

/// Load, coins and speed as written, validated (§ Movement Actions: 30′ base speed).
fn carrying(
    ctx: &Ctx,
    field: &str,
    load: i32,
    coins: i32,
    speed: Option<i32>,
) -> Result<(i32, i32, i32), ContentError> {
    in_range(ctx, format!("{field}.load"), load, 0, 60)?;
    in_range(ctx, format!("{field}.coins"), coins, 0, 100_000)?;
    let speed = speed.unwrap_or(30);
    in_range(ctx, format!("{field}.speed"), speed, 0, 120)?;
    if speed % 5 != 0 {
        return Err(ctx.err(
            format!("{field}.speed"),
            format!("{speed} is not a multiple of 5′"),
        ));
    }
    Ok((load, coins, speed))
}

impl HeroFile {
    fn resolve(&self, ctx: &Ctx) -> Result<CombatantSpec, ContentError> {
        let field = format!("hero.{}", self.id);
        let f = |n: &str| format!("{field}.{n}");
        id_ok(ctx, f("id"), &self.id)?;
        if self.name.trim().is_empty() || self.name.len() > 60 {
            return Err(ctx.err(f("name"), "a name is 1-60 characters"));
        }
        in_range(ctx, f("level"), self.level, 1, 20)?;
        in_range(ctx, f("ac"), self.ac, 1, 30)?;
        in_range(ctx, f("hp"), self.hp, 1, 999)?;
        let abilities = scores(ctx, &f("abilities"), &self.abilities)?;
        let proficiency = self
            .proficiency
            .unwrap_or_else(|| rules::proficiency_bonus(self.level));
        in_range(ctx, f("proficiency"), proficiency, 0, 10)?;
        for (i, p) in self.proficiencies.iter().enumerate() {
            id_ok(ctx, format!("{field}.proficiencies[{i}]"), p)?;
        }
        let attacks = attacks(ctx, &field, &self.attacks, true)?;
        let (load, coins, speed) = carrying(ctx, &field, self.load, self.coins, self.speed)?;
        Ok(CombatantSpec {
            id: CombatantId::new(self.id.clone()),
            name: self.name.clone(),
            side: Side::Heroes,
            template: self.id.clone(),
            level: self.level,
            max_hp: self.hp,
            defenses: Defenses {
                ac: self.ac,
                pd: 0,
                md: 0,
            },
            initiative: abilities.dex,
            size: fray_protocol::grid::Size::Medium,
            hero: Some(HeroSpec {
                mods: mods(&abilities),
                recoveries: 0,
                recovery_die: 0,
                weapon_die: None,
                two_weapon: false,
                potions: 0,
                save_bonus: 0,
                kind: if self.follows.is_some() {
                    crate::content::model::HeroKind::Npc
                } else {
                    crate::content::model::HeroKind::Pc
                },
            }),
            resist: Vec::new(),
            vulnerable: Vec::new(),
            villain: false,
            attacks: Vec::new(),
            orcus: None,
            ose: None,
            ftd: Some(FtdSpec {
                abilities,
                proficiency,
                proficiencies: self.proficiencies.clone(),
                class: Some(self.class.clone()),
                hd: None,
                morale_bonus: 0,
                morale_proficient: self.proficiencies.iter().any(|p| p == "morale"),
                leader: false,
                attacks,
                load,
                coins,
                speed,
                darksight: self.darksight,
                follows: self.follows.clone().map(CombatantId::new),
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
    ) -> Result<CombatantSpec, ContentError> {
        let field = format!("monster.{}", self.template);
        let f = |n: &str| format!("{field}.{n}");
        in_range(ctx, f("hd"), self.hd, 0, 30)?;
        in_range(ctx, f("ac"), self.ac, 1, 30)?;
        in_range(ctx, f("hp"), self.hp, 1, 999)?;
        let abilities = scores(ctx, &f("abilities"), &self.abilities)?;
        let morale_bonus = self.morale.unwrap_or_else(|| rules::morale_bonus(self.hd));
        in_range(ctx, f("morale"), morale_bonus, -10, 20)?;
        let attacks = attacks(ctx, &field, &self.attacks, false)?;
        let (load, coins, speed) = carrying(ctx, &field, self.load, self.coins, self.speed)?;
        Ok(CombatantSpec {
            id,
            name,
            side: Side::Monsters,
            template: self.template.clone(),
            level: self.hd,
            max_hp: self.hp,
            defenses: Defenses {
                ac: self.ac,
                pd: 0,
                md: 0,
            },
            initiative: abilities.dex,
            size: fray_protocol::grid::Size::Medium,
            hero: None,
            resist: Vec::new(),
            vulnerable: Vec::new(),
            villain: false,
            attacks: Vec::new(),
            orcus: None,
            ose: None,
            ftd: Some(FtdSpec {
                abilities,
                proficiency: rules::proficiency_bonus(self.hd),
                proficiencies: Vec::new(),
                class: None,
                hd: Some(self.hd),
                morale_bonus,
                morale_proficient: self.morale_proficient,
                leader: self.leader,
                attacks,
                load,
                coins,
                speed,
                darksight: self.darksight,
                follows: None,
            }),
        })
    }
}

/// Validates a monster template on its own (ids, names) before it is numbered.
fn template_ok(ctx: &Ctx, m: &MonsterFile) -> Result<(), ContentError> {
    let field = format!("monster.{}", m.template);
    id_ok(ctx, format!("{field}.template"), &m.template)?;
    if m.name.trim().is_empty() || m.name.len() > 50 {
        return Err(ctx.err(format!("{field}.name"), "a name is 1-50 characters"));
    }
    Ok(())
}

/// Loads a Five Torches Deep encounter.
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
    if enc.heroes.is_empty() {
        return Err(ctx.err("heroes", "an encounter needs at least one hero"));
    }
    let mut combatants = Vec::new();
    for (i, id) in enc.heroes.iter().enumerate() {
        let (file, h) = heroes
            .get(id)
            .ok_or_else(|| ctx.err(format!("heroes[{i}]"), format!("no hero with id '{id}'")))?;
        combatants.push(h.resolve(&Ctx { file })?);
    }
    if enc.monsters.is_empty() {
        return Err(ctx.err("monsters", "an encounter needs at least one monster group"));
    }
    // Monster ids number on per template through the session's battles, so every id is
    // unique in the session.
    let mut numbered: BTreeMap<String, u32> = BTreeMap::new();
    combatants.extend(monster_groups(
        &ctx,
        &monsters,
        &enc.monsters,
        "monsters",
        &mut numbered,
    )?);
    crate::content::later_battles_allowed(&ctx, enc.battles.len(), enc.options.rests)?;
    let mut battles = Vec::new();
    for (b, battle) in enc.battles.iter().enumerate() {
        let field = format!("battles[{b}].monsters");
        if battle.monsters.is_empty() {
            return Err(ctx.err(field, "a battle needs at least one monster group"));
        }
        let mut ms = monster_groups(&ctx, &monsters, &battle.monsters, &field, &mut numbered)?;
        ms.sort_by(|a, b| a.id.cmp(&b.id));
        battles.push(crate::content::model::BattleSpec {
            title: battle
                .title
                .clone()
                .unwrap_or_else(|| format!("Battle {}", b + 2)),
            monsters: ms,
            placements: Vec::new(),
        });
    }
    for (i, c) in combatants.iter().enumerate() {
        if let Some(f) = c.ftd.as_ref().and_then(|k| k.follows.as_ref())
            && (f == &c.id
                || !combatants
                    .iter()
                    .any(|o| &o.id == f && o.side == Side::Heroes))
        {
            return Err(ctx.err(
                format!("heroes[{i}]"),
                format!(
                    "'{}' follows '{f}', who is not another hero of the encounter",
                    c.id
                ),
            ));
        }
    }
    combatants.sort_by(|a, b| a.id.cmp(&b.id));
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
    let reserves = crate::content::reserves(&monsters, fielded, |ctx, m| {
        m.resolve(ctx, CombatantId::new(m.template.clone()), m.name.clone())
    })?;
    Ok(Encounter {
        ruleset: super::ID.to_owned(),
        title: enc
            .title
            .clone()
            .unwrap_or_else(|| "Untitled encounter".into()),
        combatants,
        seats,
        options: crate::content::model::SessionOptions {
            rests: enc.options.rests,
            ..Default::default()
        },
        map: None,
        battles,
        reserves,
    })
}

/// The monsters of `groups` (`field` names them in errors), numbered on per template from
/// `numbered` (which they advance).
fn monster_groups(
    ctx: &Ctx,
    templates: &BTreeMap<String, (String, MonsterFile)>,
    groups: &[GroupFile],
    field: &str,
    numbered: &mut BTreeMap<String, u32>,
) -> Result<Vec<CombatantSpec>, ContentError> {
    let mut out = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        let (file, m) = templates.get(&g.template).ok_or_else(|| {
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
        let mctx = Ctx { file };
        template_ok(&mctx, m)?;
        let first = numbered.get(&g.template).copied().unwrap_or(0);
        for k in first + 1..=first + g.count {
            out.push(m.resolve(
                &mctx,
                CombatantId::new(format!("{}-{k}", g.template)),
                format!("{} {k}", m.name),
            )?);
        }
        numbered.insert(g.template.clone(), first + g.count);
    }
    Ok(out)
}

/// Every built-in template and hero resolves (used by tests and docs).
pub fn check_builtin() -> Result<(usize, usize), ContentError> {
    let mut h = 0;
    let mut m = 0;
    for (file, t) in BUILTIN {
        let f = parse(file, t)?;
        let ctx = Ctx { file };
        for hero in &f.hero {
            hero.resolve(&ctx)?;
            h += 1;
        }
        for mon in &f.monster {
            template_ok(&ctx, mon)?;
            mon.resolve(
                &ctx,
                CombatantId::new(format!("{}-1", mon.template)),
                mon.name.clone(),
            )?;
            m += 1;
        }
    }
    Ok((h, m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        load_encounter("t.toml", text).unwrap_err().to_string()
    }

    #[test]
    fn builtin_content_loads() {
        let (h, m) = check_builtin().unwrap();
        assert!(h >= 4, "{h} heroes");
        assert!(m >= 8, "{m} monsters");
        for (n, t) in ENCOUNTERS {
            let e = load_encounter(n, t).unwrap();
            assert_eq!(e.ruleset, "five-torches-deep");
            assert!(e.combatants.iter().all(|c| c.ftd.is_some()));
        }
    }

    #[test]
    fn errors_name_file_field_and_reason() {
        let base = "ruleset = \"five-torches-deep\"\nheroes = [\"zed\"]\n[[monsters]]\ntemplate = \"cave-rat\"\n";
        let hero = |extra: &str, attack: &str| {
            format!(
                "{base}[[hero]]\nid = \"zed\"\nname = \"Zed\"\nclass = \"warrior\"\nlevel = 1\nabilities = {{ str = 14, dex = 12, con = 12, int = 10, wis = 10, cha = 10 }}\nac = 14\nhp = 10\n{extra}\n[[hero.attacks]]\nid = \"axe\"\nname = \"Axe\"\n{attack}\n"
            )
        };
        let e = err(&hero("", "kind = \"melee\"\ndamage = \"1d8\""));
        assert!(
            e.contains("t.toml: monsters[0].template: no monster template 'cave-rat'"),
            "{e}"
        );
        let e = err(&hero("", "kind = \"stab\"\ndamage = \"1d8\""));
        assert!(
            e.contains("t.toml: hero.zed.attacks[0].kind: 'stab' is not melee"),
            "{e}"
        );
        let e = err(&hero("", "kind = \"melee\"\ndamage = \"1d8+STR\""));
        assert!(e.contains("hero.zed.attacks[0].damage"), "{e}");
        let e = err(&hero("", "kind = \"melee\"\ndamage = \"1d8\"\nbonus = 3"));
        assert!(e.contains("hero.zed.attacks[0].bonus"), "{e}");
        let e = err(&hero(
            "",
            "kind = \"melee\"\nrange = \"ranged\"\ndamage = \"1d8\"",
        ));
        assert!(e.contains("hero.zed.attacks[0].range"), "{e}");
        let e =
            err(&hero("ac = 44", "kind = \"melee\"\ndamage = \"1d8\"").replace("ac = 14\n", ""));
        assert!(e.contains("hero.zed.ac: 44 is outside 1..=30"), "{e}");
        let e = err(&hero("", "kind = \"melee\"\ndamage = \"1d8\"").replace("str = 14", "str = 0"));
        assert!(
            e.contains("hero.zed.abilities.str: 0 is outside 1..=30"),
            "{e}"
        );
        let e = err(&format!(
            "{}[[monster]]\ntemplate = \"cave-rat\"\nname = \"Rat\"\nhd = 1\nac = 12\nhp = 3\n[[monster.attacks]]\nid = \"bite\"\nname = \"Bite\"\nkind = \"melee\"\ndamage = \"1d3\"\n",
            hero("", "kind = \"melee\"\ndamage = \"1d8\"")
        ));
        assert!(
            e.contains(
                "monster.cave-rat.attacks[0].bonus: a monster attack needs its attack modifier"
            ),
            "{e}"
        );
        let e = err(&format!(
            "{}[[monster]]\ntemplate = \"cave-rat\"\nname = \"Rat\"\nhd = 1\nac = 12\nhp = 3\n",
            hero("", "kind = \"melee\"\ndamage = \"1d8\"")
        ));
        assert!(
            e.contains("monster.cave-rat.attacks: at least one attack"),
            "{e}"
        );
        let e = err("ruleset = \"five-torches-deep\"\nbogus = 1\n");
        assert!(e.contains("t.toml") && e.contains("bogus"), "{e}");
    }
}
