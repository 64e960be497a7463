//! `fray monster`: the Orcus monster builder (orcus-basic-rules.txt § Creating new monsters) —
//! a full stat block's numbers from level, role and rank, ready to paste into a bestiary file.

use anyhow::{Result, bail};
use fray_server::rules::orcus::tables::{self, DamageKind, Rank, Role};

/// The role named `s`.
pub fn role(s: &str) -> Result<Role> {
    Ok(match s.to_lowercase().as_str() {
        "archer" => Role::Archer,
        "blocker" => Role::Blocker,
        "skulker" => Role::Skulker,
        "spoiler" => Role::Spoiler,
        "striker" => Role::Striker,
        "wrecker" => Role::Wrecker,
        o => bail!("unknown role `{o}` (archer, blocker, skulker, spoiler, striker, wrecker)"),
    })
}

/// The rank named `s`.
pub fn rank(s: &str) -> Result<Rank> {
    Ok(match s.to_lowercase().as_str() {
        "mook" => Rank::Mook,
        "standard" => Rank::Standard,
        "elite" => Rank::Elite,
        "boss" => Rank::Boss,
        o => bail!("unknown rank `{o}` (mook, standard, elite, boss)"),
    })
}

/// The stat block as text.
pub fn render(level: i32, role_name: &str, rank_name: &str, leader: bool) -> Result<String> {
    let (ro, ra) = (role(role_name)?, rank(rank_name)?);
    let n = tables::build_monster(level, ro, ra, leader).map_err(|e| anyhow::anyhow!("{e}"))?;
    let dmg = |k: DamageKind| -> Result<String> {
        Ok(tables::power_damage(level, k, ro, ra)
            .map_err(|e| anyhow::anyhow!("{e}"))?
            .to_string())
    };
    let mut out = format!(
        "Level {level} {} {}{}\n",
        rank_name.to_lowercase(),
        role_name.to_lowercase(),
        if leader { " (leader)" } else { "" }
    );
    out.push_str(&format!("HP {}\n", n.hp));
    out.push_str(&format!(
        "AC {}, Fortitude {}, Reflex {}, Will {}\n",
        n.ac, n.fortitude, n.reflex, n.will
    ));
    out.push_str(&format!(
        "Attack +{} vs AC, +{} vs other defenses\n",
        n.attack_vs_ac, n.attack_vs_other
    ));
    if ra == Rank::Mook {
        out.push_str(&format!(
            "Damage {} (mook, static)\n",
            dmg(DamageKind::Mook)?
        ));
    } else {
        out.push_str(&format!(
            "Damage: at-will {} (multi-target {}), surge {} (multi-target {})\n",
            dmg(DamageKind::AtWillSingle)?,
            dmg(DamageKind::AtWillMulti)?,
            dmg(DamageKind::SurgeSingle)?,
            dmg(DamageKind::SurgeMulti)?
        ));
    }
    out.push_str(&format!(
        "Action points {} (at most {} per round)\n",
        n.action_points, n.max_action_points_per_round
    ));
    out.push_str(&match n.xp {
        Some(xp) => format!("XP {xp}\n"),
        None => "XP — (the XP table stops at level 30)\n".to_owned(),
    });
    out.push_str(&abilities(level)?);
    Ok(out)
}

/// § Creating new monsters, Abilities / Skills / Initiative: for ability scores from 8 up to the
/// highest (about 16 + half level), the monster's modifier, its initiative with that Dexterity,
/// a trained skill's bonus and its untrained Perception with that Wisdom.
fn abilities(level: i32) -> Result<String> {
    let err = |e: tables::TableError| anyhow::anyhow!("{e}");
    let highest = 16 + tables::half_level(level);
    let mut out = format!(
        "Highest ability score about {highest}\n\
         Score  Modifier  Initiative (Dex)  Trained skill  Perception untrained (Wis)\n"
    );
    let mut scores: Vec<i32> = (8..=highest).step_by(2).collect();
    if scores.last() != Some(&highest) {
        scores.push(highest);
    }
    for score in scores {
        let base = tables::ability_modifier(score).map_err(err)?;
        let modifier = tables::monster_ability_modifier(level, score).map_err(err)?;
        let initiative = tables::monster_initiative(level, base).map_err(err)?;
        let trained = tables::monster_trained_skill(level, base).map_err(err)?;
        let perception = tables::monster_untrained_perception(level, base).map_err(err)?;
        out.push_str(&format!(
            "{score:>5}  {modifier:>+8}  {initiative:>+16}  {trained:>+13}  {perception:>+26}\n"
        ));
    }
    Ok(out)
}

/// `fray orcus-levels`: the hero XP/level table (orcus-basic-rules.txt "Table – Levels and
/// Their Benefits") — per level the total XP needed, the XP to the next level and the tier; with
/// `xp`, the level a hero with that many XP has reached.
pub fn hero_levels(xp: Option<i32>) -> Result<String> {
    let err = |e: tables::TableError| anyhow::anyhow!("{e}");
    if let Some(xp) = xp {
        if xp < 0 {
            bail!("XP is never negative (got {xp})");
        }
        let level = tables::hero_level_for_xp(xp);
        let next = match tables::hero_xp_for_level(level + 1) {
            Ok(n) => format!("; level {} at {n} XP ({} more)", level + 1, n - xp),
            Err(_) => "; the highest level".to_owned(),
        };
        return Ok(format!("{xp} XP: level {level}{next}\n"));
    }
    let mut out = String::from("Level  XP total  XP to next  Tier\n");
    for level in 1..=30 {
        let total = tables::hero_xp_for_level(level).map_err(err)?;
        let next = match tables::hero_xp_to_next_level(level).map_err(err)? {
            Some(n) => n.to_string(),
            None => "-".to_owned(),
        };
        let tier = match tables::hero_tier(level).map_err(err)? {
            tables::Tier::Adventurer => "adventurer",
            tables::Tier::Prestige => "prestige",
            tables::Tier::Epic => "epic",
        };
        out.push_str(&format!("{level:>5}  {total:>8}  {next:>10}  {tier}\n"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_5_elite_striker_has_the_builders_numbers() {
        // orcus-basic-rules.txt § Creating new monsters: elite hit points are doubled.
        let text = render(5, "striker", "elite", false).unwrap();
        let standard = tables::build_monster(5, Role::Striker, Rank::Standard, false).unwrap();
        assert!(
            text.contains(&format!("HP {}\n", standard.hp * 2)),
            "{text}"
        );
        assert!(text.contains("Level 5 elite striker"), "{text}");
        // § Abilities, Skills, Initiative: numbers, not a formula (level 5: half level +2;
        // highest score 18).
        assert!(text.contains("Highest ability score about 18\n"), "{text}");
        let row = |score: &str| {
            text.lines()
                .find(|l| l.split_whitespace().next() == Some(score))
                .map(|l| l.split_whitespace().collect::<Vec<_>>())
        };
        assert_eq!(row("10"), Some(vec!["10", "+2", "+2", "+7", "+2"]));
        assert_eq!(row("18"), Some(vec!["18", "+6", "+6", "+11", "+6"]));
        assert_eq!(row("8"), Some(vec!["8", "+1", "+1", "+6", "+1"]));
        assert!(!text.contains("half level ("), "{text}");
        assert!(render(5, "dancer", "elite", false).is_err());
        assert!(render(0, "striker", "elite", false).is_err());
        assert!(
            render(3, "wrecker", "mook", false)
                .unwrap()
                .contains("mook, static")
        );
    }

    /// orcus-basic-rules.txt "Table – Levels and Their Benefits": `fray orcus-levels` prints
    /// every level's total XP, XP to the next level and tier, and the level for a given XP.
    #[test]
    fn the_hero_xp_table_is_printed_levels_and_their_benefits() {
        let text = hero_levels(None).unwrap();
        let rows: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(rows.len(), 30);
        let cells = |i: usize| rows[i].split_whitespace().collect::<Vec<_>>();
        assert_eq!(cells(0), ["1", "0", "1000", "adventurer"]);
        assert_eq!(cells(1), ["2", "1000", "1250", "adventurer"]);
        assert_eq!(cells(10), ["11", "25500", "6000", "prestige"]);
        assert_eq!(cells(29), ["30", "826500", "-", "epic"]);
        assert_eq!(
            hero_levels(Some(2_249)).unwrap(),
            "2249 XP: level 2; level 3 at 2250 XP (1 more)\n"
        );
        assert_eq!(
            hero_levels(Some(1_000_000)).unwrap(),
            "1000000 XP: level 30; the highest level\n"
        );
        assert!(hero_levels(Some(-1)).is_err());
    }
}
