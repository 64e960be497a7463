//! 13th Age content: the shapes of `content::file` (heroes, monster templates, encounters)
//! resolved into an [`Encounter`], and the built-in party, bestiary and encounters.

use crate::content::ContentError;
use crate::content::file::{ContentFile, Ctx, HeroFile, MonsterFile};
use crate::content::model::Encounter;
use fray_protocol::ids::CombatantId;
use std::collections::BTreeMap;

/// The built-in party and bestiary: (file name, TOML text).
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "builtin:13th-age/party.toml",
        include_str!("../../../content/13th-age/party.toml"),
    ),
    (
        "builtin:13th-age/bestiary.toml",
        include_str!("../../../content/13th-age/bestiary.toml"),
    ),
];

/// The built-in encounters: (name, TOML text).
pub const ENCOUNTERS: &[(&str, &str)] = &[
    (
        "goblin-ambush",
        include_str!("../../../content/13th-age/encounters/goblin-ambush.toml"),
    ),
    (
        "crypt-of-ash",
        include_str!("../../../content/13th-age/encounters/crypt-of-ash.toml"),
    ),
    (
        "mire-of-whispers",
        include_str!("../../../content/13th-age/encounters/mire-of-whispers.toml"),
    ),
    (
        "goblin-gauntlet",
        include_str!("../../../content/13th-age/encounters/goblin-gauntlet.toml"),
    ),
];

fn parse_file(name: &str, text: &str) -> Result<ContentFile, ContentError> {
    crate::content::parse_toml(name, text)
}

struct Catalog {
    heroes: BTreeMap<String, (String, HeroFile)>,
    monsters: BTreeMap<String, (String, MonsterFile)>,
}

impl Catalog {
    fn add(&mut self, name: &str, f: &ContentFile) {
        for h in &f.hero {
            self.heroes
                .insert(h.id.clone(), (name.to_owned(), h.clone()));
        }
        for m in &f.monster {
            self.monsters
                .insert(m.template.clone(), (name.to_owned(), m.clone()));
        }
    }
}

/// Loads a 13th Age encounter from TOML text (`content::load_encounter` chose this loader by
/// the file's `ruleset`). `name` names the file in error messages.
pub fn load_encounter(name: &str, text: &str) -> Result<Encounter, ContentError> {
    let enc = parse_file(name, text)?;
    let ctx = Ctx { file: name };
    let ruleset = enc.ruleset.clone().ok_or_else(|| {
        ctx.err(
            "ruleset",
            "an encounter names its ruleset (e.g. ruleset = \"13th-age\")",
        )
    })?;
    let mut catalog = Catalog {
        heroes: BTreeMap::new(),
        monsters: BTreeMap::new(),
    };
    for (file, text) in BUILTIN {
        catalog.add(file, &parse_file(file, text)?);
    }
    catalog.add(name, &enc);

    let mut combatants = Vec::new();
    if enc.heroes.is_empty() {
        return Err(ctx.err("heroes", "an encounter needs at least one hero"));
    }
    for (i, id) in enc.heroes.iter().enumerate() {
        let (file, hero) = catalog
            .heroes
            .get(id)
            .ok_or_else(|| ctx.err(format!("heroes[{i}]"), format!("no hero with id '{id}'")))?;
        combatants.push(hero.resolve(&Ctx { file })?);
    }
    if enc.monsters.is_empty() {
        return Err(ctx.err("monsters", "an encounter needs at least one monster group"));
    }
    let mut numbered: BTreeMap<String, usize> = BTreeMap::new();
    combatants.extend(monsters(
        &ctx,
        &catalog,
        &enc.monsters,
        "monsters",
        &mut numbered,
    )?);
    // Later battles: their monsters' ids continue each template's numbering, so that every id
    // is unique in the session.
    crate::content::later_battles_allowed(&ctx, enc.battles.len(), enc.options.rests)?;
    let mut battles = Vec::new();
    for (b, battle) in enc.battles.iter().enumerate() {
        if battle.monsters.is_empty() {
            return Err(ctx.err(
                format!("battles[{b}].monsters"),
                "a battle needs at least one monster group",
            ));
        }
        let mut ms = monsters(
            &ctx,
            &catalog,
            &battle.monsters,
            &format!("battles[{b}].monsters"),
            &mut numbered,
        )?;
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
    combatants.sort_by(|a, b| a.id.cmp(&b.id));
    for later in battles.iter().flat_map(|b| &b.monsters) {
        if combatants.iter().any(|c| c.id == later.id) {
            return Err(ctx.err(
                "battles",
                format!("combatant id '{}' appears twice", later.id),
            ));
        }
    }
    for w in combatants.windows(2) {
        if w[0].id == w[1].id {
            return Err(ctx.err(
                "heroes",
                format!("combatant id '{}' appears twice", w[0].id),
            ));
        }
    }

    let seats = crate::content::resolve_seats(&ctx, &enc.seats, &combatants)?;
    let fielded = combatants
        .iter()
        .chain(battles.iter().flat_map(|b| &b.monsters));
    let reserves = crate::content::reserves(&catalog.monsters, fielded, |ctx, m| {
        m.resolve(ctx, CombatantId::new(m.template.clone()), m.name.clone())
    })?;
    Ok(Encounter {
        ruleset,
        title: enc
            .title
            .clone()
            .unwrap_or_else(|| "Untitled encounter".into()),
        combatants,
        seats,
        options: crate::content::model::SessionOptions {
            lasting_wounds: enc.options.lasting_wounds,
            meaningful_death: enc.options.meaningful_death,
            rests: enc.options.rests,
            ose: Default::default(),
        },
        map: None,
        battles,
        reserves,
    })
}

/// Resolves monster groups; `numbered` counts each template's monsters so far (ids go on from
/// there: `goblin-scrapper-4` after three).
fn monsters(
    ctx: &Ctx,
    catalog: &Catalog,
    groups: &[crate::content::file::MonsterGroup],
    field: &str,
    numbered: &mut BTreeMap<String, usize>,
) -> Result<Vec<crate::content::model::CombatantSpec>, ContentError> {
    let mut out = Vec::new();
    for (i, group) in groups.iter().enumerate() {
        let (file, monster) = catalog.monsters.get(&group.template).ok_or_else(|| {
            ctx.err(
                format!("{field}[{i}].template"),
                format!("no monster template '{}'", group.template),
            )
        })?;
        if !(1..=20).contains(&group.count) {
            return Err(ctx.err(
                format!("{field}[{i}].count"),
                format!("{} is outside 1..=20", group.count),
            ));
        }
        let already = numbered.entry(group.template.clone()).or_insert(0);
        for _ in 0..group.count {
            *already += 1;
            let k = *already;
            let id = CombatantId::new(format!("{}-{k}", group.template));
            let display = format!("{} {k}", monster.name);
            out.push(monster.resolve(&Ctx { file }, id, display)?);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::file::Ctx;
    use crate::rules::load_encounter;
    use fray_protocol::ids::CombatantId;

    #[test]
    fn builtin_encounters_load() {
        for (name, text) in ENCOUNTERS {
            let e = load_encounter(name, text).unwrap_or_else(|e| panic!("{e}"));
            assert!(e.combatants.len() >= 4, "{name}");
        }
    }

    #[test]
    fn builtin_content_validates_every_block() {
        // Every hero and monster of the built-in files resolves, not only those used by encounters.
        for (file, text) in BUILTIN {
            let f = parse_file(file, text).unwrap();
            let ctx = Ctx { file };
            for h in &f.hero {
                h.resolve(&ctx).unwrap();
            }
            for m in &f.monster {
                m.resolve(&ctx, CombatantId::new("x"), "x".into()).unwrap();
            }
        }
    }

    #[test]
    fn errors_name_file_field_and_reason() {
        let text =
            "ruleset = \"13th-age\"\nheroes = [\"brakka\"]\n[[monsters]]\ntemplate = \"nope\"\n";
        let err = load_encounter("my.toml", text).unwrap_err();
        assert_eq!(
            err.to_string(),
            "my.toml: monsters[0].template: no monster template 'nope'"
        );
        let err = load_encounter("x.toml", "ruleset = 3").unwrap_err();
        assert!(err.to_string().starts_with("x.toml: "), "{err}");
        let text = "ruleset = \"13th-age\"\nheroes = [\"zed\"]\n[[monsters]]\ntemplate = \"goblin-scrapper\"\n[[hero]]\nid = \"zed\"\nname = \"Zed\"\nlevel = 2\nabilities = { str = 10, con = 10, dex = 10, int = 10, wis = 10, cha = 10 }\nhp = 20\nac = 15\npd = 12\nmd = 12\nrecovery_die = 7\n[[hero.attacks]]\nid = \"melee\"\nname = \"Fist\"\nrange = \"melee\"\nability = \"str\"\nvs = \"ac\"\ndamage = \"1d4\"\n";
        let err = load_encounter("zed.toml", text).unwrap_err();
        assert_eq!(
            err.to_string(),
            "zed.toml: hero 'zed'.recovery_die: d7 is not a die (4, 6, 8, 10, 12 or 20)"
        );
    }

    /// The GM's reinforcements (issue 20): the built-in monsters and the file's own blocks
    /// that no battle fields are the encounter's reserves, and an unused block is still checked.
    #[test]
    fn the_blocks_no_battle_fields_are_reserves_and_are_checked_too() {
        let file = |hp: i32| {
            format!(
                "ruleset = \"13th-age\"\nheroes = [\"brakka\"]\n[[monsters]]\ntemplate = \"goblin-scrapper\"\n[[monster]]\ntemplate = \"bog-hound\"\nname = \"Bog Hound\"\nlevel = 2\nhp = {hp}\nac = 16\npd = 14\nmd = 10\ninitiative = 4\n[[monster.attacks]]\nid = \"bite\"\nname = \"Bite\"\nrange = \"melee\"\nbonus = 7\nvs = \"ac\"\ndamage = \"1d8\"\n"
            )
        };
        let e = load_encounter("hound.toml", &file(30)).unwrap();
        let reserves: Vec<&str> = e.reserves.iter().map(|c| c.template.as_str()).collect();
        assert!(reserves.contains(&"bog-hound"), "{reserves:?}");
        assert!(reserves.contains(&"goblin-archer"), "{reserves:?}");
        assert!(
            !reserves.contains(&"goblin-scrapper"),
            "fielded: {reserves:?}"
        );
        assert!(
            reserves.windows(2).all(|w| w[0] < w[1]),
            "sorted: {reserves:?}"
        );
        let hound = e
            .reserves
            .iter()
            .find(|c| c.template == "bog-hound")
            .unwrap();
        assert_eq!((hound.id.as_str(), hound.max_hp), ("bog-hound", 30));
        let err = load_encounter("hound.toml", &file(0))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("hound.toml: monster 'bog-hound'.hp"),
            "{err}"
        );
    }

    #[test]
    fn unknown_ruleset_and_fields_are_refused() {
        let err = load_encounter("a.toml", "ruleset = \"chess\"").unwrap_err();
        assert!(err.to_string().contains("unknown ruleset 'chess'"));
        let err = load_encounter("b.toml", "ruleset = \"13th-age\"\nbogus = 1").unwrap_err();
        assert!(err.to_string().contains("bogus"), "{err}");
    }

    /// 13th-age-combat.txt § Defenses: a base plus the middle of three ability modifiers plus
    /// level (AC: Con/Dex/Wis, PD: Str/Con/Dex, MD: Int/Wis/Cha), or a given number.
    #[test]
    fn defenses_from_ability_scores() {
        let hero = |defs: &str| {
            format!(
                "ruleset = \"13th-age\"\nheroes = [\"zed\"]\n[[monsters]]\ntemplate = \"goblin-scrapper\"\n[[hero]]\nid = \"zed\"\nname = \"Zed\"\nlevel = 2\nabilities = {{ str = 16, con = 14, dex = 12, int = 8, wis = 10, cha = 18 }}\nhp = 20\n{defs}\nrecovery_die = 8\n[[hero.attacks]]\nid = \"melee\"\nname = \"Fist\"\nrange = \"melee\"\nability = \"str\"\nvs = \"ac\"\ndamage = \"1d4\"\n"
            )
        };
        let e = load_encounter(
            "zed.toml",
            &hero("ac_base = 12\npd_base = 10\nmd_base = 10"),
        )
        .unwrap();
        let zed = e
            .combatants
            .iter()
            .find(|c| c.id.as_str() == "zed")
            .unwrap();
        // Mods: str +3, con +2, dex +1, int −1, wis 0, cha +4.
        assert_eq!(
            zed.defenses.ac,
            12 + 1 + 2,
            "middle of con +2, dex +1, wis 0 is +1"
        );
        assert_eq!(
            zed.defenses.pd,
            10 + 2 + 2,
            "middle of str +3, con +2, dex +1 is +2"
        );
        assert_eq!(
            zed.defenses.md,
            10 + 2,
            "middle of int −1, wis 0, cha +4 is 0; + level 2"
        );
        let e = load_encounter("zed.toml", &hero("ac = 15\npd = 14\nmd = 12")).unwrap();
        assert_eq!(
            e.combatants
                .iter()
                .find(|c| c.id.as_str() == "zed")
                .unwrap()
                .defenses
                .ac,
            15
        );
        let err = load_encounter("zed.toml", &hero("ac = 15\nac_base = 12\npd = 14\nmd = 12"))
            .unwrap_err();
        assert!(
            err.to_string().contains("give either ac or ac_base"),
            "{err}"
        );
    }

    /// 13th-age-combat.txt § Stacking Rules ("Magic item bonuses don't stack. Only the best one
    /// counts."), § Attack Bonuses (+ magic item attack bonus), § Spell Attacks (+ magical
    /// implement bonus) and § Saves (magic items "that provide small bonuses to saves"): weapon
    /// attacks get the best weapon bonus, spells the best implement bonus, each defense and saves
    /// the best item bonus to them; unarmed attacks get none.
    #[test]
    fn magic_item_bonuses_do_not_stack_only_the_best_counts() {
        let hero = |items: &str| {
            format!(
                "ruleset = \"13th-age\"\nheroes = [\"zed\"]\n[[monsters]]\ntemplate = \"goblin-scrapper\"\n[[hero]]\nid = \"zed\"\nname = \"Zed\"\nlevel = 2\nabilities = {{ str = 16, con = 10, dex = 10, int = 16, wis = 10, cha = 10 }}\nhp = 20\nac = 15\npd = 12\nmd = 11\nrecovery_die = 8\n{items}\n[[hero.attacks]]\nid = \"melee\"\nname = \"Sword\"\nrange = \"melee\"\nability = \"str\"\nvs = \"ac\"\ndamage = \"1d8\"\n[[hero.attacks]]\nid = \"bolt\"\nname = \"Bolt\"\nrange = \"ranged\"\nability = \"int\"\nvs = \"pd\"\ndamage = \"1d6\"\nspell = true\n"
            )
        };
        let zed = |items: &str| {
            let e = load_encounter("zed.toml", &hero(items)).unwrap_or_else(|e| panic!("{e}"));
            e.combatants
                .into_iter()
                .find(|c| c.id.as_str() == "zed")
                .unwrap()
        };
        let bonus = |z: &crate::content::model::CombatantSpec, id: &str| {
            z.attacks.iter().find(|a| a.id == id).unwrap().bonus
        };
        let plain = zed("");
        // Str +3 and Int +3, level 2.
        assert_eq!((bonus(&plain, "melee"), bonus(&plain, "bolt")), (5, 5));
        let z = zed(
            "items = [\n  { name = \"Sword +1\", attack = 1 },\n  { name = \"Axe +2\", attack = 2 },\n  { name = \"Wand +1\", spell = 1 },\n  { name = \"Chain +2\", ac = 2 },\n  { name = \"Ring +1\", ac = 1, pd = 1, md = 1 },\n  { name = \"Cloak +2\", md = 2, save = 2 },\n  { name = \"Amulet +1\", save = 1 },\n]",
        );
        assert_eq!(bonus(&z, "melee"), 5 + 2, "the +2 axe, not +1 +2");
        assert_eq!(bonus(&z, "bolt"), 5 + 1, "the implement, not the weapons");
        assert_eq!(bonus(&z, "unarmed"), bonus(&plain, "unarmed"));
        assert_eq!(
            (z.defenses.ac, z.defenses.pd, z.defenses.md),
            (15 + 2, 12 + 1, 11 + 2),
            "best of armor +2 and ring +1; ring +1; best of ring +1 and cloak +2"
        );
        // § Saves: magic items may give small bonuses to saves; the best counts.
        let save_bonus =
            |z: &crate::content::model::CombatantSpec| z.hero.as_ref().unwrap().save_bonus;
        assert_eq!((save_bonus(&plain), save_bonus(&z)), (0, 2));
        // `[[hero.items]]` tables work as well; bad items are named with their field.
        let z = zed("[[hero.items]]\nname = \"Staff +3\"\nspell = 3\n");
        assert_eq!(bonus(&z, "bolt"), 8);
        for (items, want) in [
            (
                "items = [{ name = \"Odd\", attack = 6 }]",
                "zed.toml: hero 'zed'.items[0].attack: 6 is outside 0..=5",
            ),
            (
                "items = [{ name = \"Ward\", save = 6 }]",
                "zed.toml: hero 'zed'.items[0].save: 6 is outside 0..=5",
            ),
            (
                "items = [{ name = \"Dud\" }]",
                "zed.toml: hero 'zed'.items[0].name: item 'Dud' gives no bonus (attack, spell, ac, pd, md or save)",
            ),
            (
                "items = [{ name = \"\", ac = 1 }]",
                "zed.toml: hero 'zed'.items[0].name: an item name is 1-60 characters",
            ),
        ] {
            let err = load_encounter("zed.toml", &hero(items)).unwrap_err();
            assert_eq!(err.to_string(), want);
        }
    }

    /// 13th-age-combat.txt § Grabbed (a grabber carries a smaller creature along): heroes and
    /// monsters have an optional size, medium (13th Age's normal) by default; a bad size is named
    /// with its file and field.
    #[test]
    fn sizes_default_to_medium_and_are_validated() {
        use fray_protocol::grid::Size;
        let text = |hero_size: &str, monster_size: &str| {
            format!(
                "ruleset = \"13th-age\"\nheroes = [\"zed\"]\n[[monsters]]\ntemplate = \"ogre\"\n[[hero]]\nid = \"zed\"\nname = \"Zed\"\nlevel = 2\nabilities = {{ str = 16, con = 10, dex = 10, int = 16, wis = 10, cha = 10 }}\nhp = 20\nac = 15\npd = 12\nmd = 11\nrecovery_die = 8\n{hero_size}\n[[hero.attacks]]\nid = \"melee\"\nname = \"Sword\"\nrange = \"melee\"\nability = \"str\"\nvs = \"ac\"\ndamage = \"1d8\"\n[[monster]]\ntemplate = \"ogre\"\nname = \"Ogre\"\nlevel = 3\nhp = 50\nac = 17\npd = 16\nmd = 12\ninitiative = 4\n{monster_size}\n[[monster.attacks]]\nid = \"melee\"\nname = \"Club\"\nrange = \"melee\"\nbonus = 8\nvs = \"ac\"\ndamage = \"2d8\"\n"
            )
        };
        let sizes = |h: &str, m: &str| {
            let e = load_encounter("sizes.toml", &text(h, m)).unwrap_or_else(|e| panic!("{e}"));
            let size = |id: &str| {
                e.combatants
                    .iter()
                    .find(|c| c.id.as_str() == id)
                    .unwrap()
                    .size
            };
            (size("zed"), size("ogre-1"))
        };
        assert_eq!(sizes("", ""), (Size::Medium, Size::Medium));
        assert_eq!(
            sizes("size = \"small\"", "size = \"large\""),
            (Size::Small, Size::Large)
        );
        assert_eq!(
            sizes("size = \"normal\"", "size = \"huge\""),
            (Size::Medium, Size::Huge)
        );
        for (h, m, want) in [
            (
                "size = \"big\"",
                "",
                "sizes.toml: hero 'zed'.size: unknown size 'big' (tiny, small, medium or normal, large, huge, gargantuan)",
            ),
            (
                "",
                "size = \"Large\"",
                "sizes.toml: monster 'ogre'.size: unknown size 'Large' (tiny, small, medium or normal, large, huge, gargantuan)",
            ),
        ] {
            let err = load_encounter("sizes.toml", &text(h, m)).unwrap_err();
            assert_eq!(err.to_string(), want);
        }
    }

    #[test]
    fn ability_modifier_rounds_down() {
        // 13th-age-combat.txt § Damage: subtract 10, halve, round down.
        assert_eq!(crate::content::file::ability_mod(18), 4);
        assert_eq!(crate::content::file::ability_mod(11), 0);
        assert_eq!(crate::content::file::ability_mod(9), -1);
        assert_eq!(crate::content::file::ability_mod(8), -1);
        assert_eq!(crate::content::file::ability_mod(7), -2);
    }
}
