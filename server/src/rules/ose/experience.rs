//! Basic Fantasy § Character Advancement: experience by the monsters' hit dice (each asterisk
//! adds the special-ability bonus), divided among the adventurers (retainers take half a
//! share), and no more than one level from a single adventure (`award_xp`); a character whose
//! XP reaches its next level (content `xp_table`) has its level raised (`level_raised`), which
//! Fray's level-dependent rules then use (the retainers' level limit).

use super::Sheets;
use super::commands::{name, no, sheet, side_of};
use super::tables::HitDice;
use crate::rules::common::decider::Decider;
use fray_protocol::BxEvent;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::state::{LifeStatus, Phase};
use fray_protocol::{ErrorCode, Rejection};
use std::collections::BTreeSet;

/// § Experience Points (XP), the monster table: (XP value, special ability bonus) for hit dice
/// 1..=25 (index 0: less than 1).
const XP_TABLE: [(u32, u32); 26] = [
    (10, 3),
    (25, 12),
    (75, 25),
    (145, 30),
    (240, 40),
    (360, 45),
    (500, 55),
    (670, 65),
    (875, 70),
    (1_075, 75),
    (1_300, 90),
    (1_575, 95),
    (1_875, 100),
    (2_175, 110),
    (2_500, 115),
    (2_850, 125),
    (3_250, 135),
    (3_600, 145),
    (4_000, 160),
    (4_500, 175),
    (5_250, 200),
    (6_000, 225),
    (6_750, 250),
    (7_500, 275),
    (8_250, 300),
    (9_000, 325),
];

/// A monster's XP by its hit dice and asterisks: the table's row ("less than 1" for ½ HD and
/// `1-N`; *interpretation*: `N+B` counts as N), beyond 25 HD +750 XP and +25 bonus per die.
pub fn monster_xp(hd: HitDice, stars: u32) -> u32 {
    let row = if hd.dice == 0 || (hd.dice == 1 && hd.bonus < 0) {
        0
    } else {
        hd.dice
    };
    let (base, bonus) = match XP_TABLE.get(row as usize) {
        Some(v) => *v,
        None => {
            let extra = row - 25;
            (9_000 + 750 * extra, 325 + 25 * extra)
        }
    };
    base.saturating_add(bonus.saturating_mul(stars))
}

/// The highest XP total a character may reach this adventure: one short of two levels above
/// its level at the adventure's start (by its `xp_table`); no limit without a table.
pub fn cap(start_xp: u32, table: &[u32]) -> u32 {
    let level_index = table.iter().filter(|t| **t <= start_xp).count();
    table
        .get(level_index + 1)
        .map_or(u32::MAX, |t| t.saturating_sub(1))
}

/// `award_xp`: refused during a fight, for monsters not defeated or already counted, and for
/// a party that is empty, repeats itself or holds a monster.
pub fn award(
    d: &mut Decider,
    s: &Sheets,
    monsters: &[CombatantId],
    bonus: u32,
    party: &[CombatantId],
) -> Result<(), Rejection> {
    if d.field.battle.phase == Phase::Running {
        return Err(no(
            ErrorCode::BattleAlreadyStarted,
            "experience is awarded after the fight",
        ));
    }
    let b = s.battle();
    let mut total: u32 = bonus;
    let mut seen = BTreeSet::new();
    for m in monsters {
        let (sh, kit) = sheet(s, m)?;
        if side_of(d, m)? != Side::Monsters || !seen.insert(m.clone()) {
            return Err(no(
                ErrorCode::InvalidTarget,
                format!("{} is not a monster listed once", name(d, m)),
            ));
        }
        let defeated = sh.fled || d.status(m).is_some_and(|st| st != LifeStatus::Conscious);
        if !defeated || b.bf.xp_counted.contains(m) {
            return Err(no(
                ErrorCode::InvalidTarget,
                format!(
                    "{} is not defeated, or its experience was already awarded",
                    name(d, m)
                ),
            ));
        }
        let hd = kit
            .hd
            .as_deref()
            .and_then(HitDice::parse)
            .unwrap_or(HitDice { dice: 0, bonus: 0 });
        total = total.saturating_add(monster_xp(hd, kit.bf.stars));
    }
    if party.is_empty() {
        return Err(no(ErrorCode::InvalidArgument, "name the adventurers"));
    }
    let mut seen = BTreeSet::new();
    let mut half_shares: u32 = 0;
    for c in party {
        sheet(s, c)?;
        if side_of(d, c)? != Side::Heroes || !seen.insert(c.clone()) {
            return Err(no(
                ErrorCode::InvalidTarget,
                format!("{} is not an adventurer listed once", name(d, c)),
            ));
        }
        half_shares += if is_retainer(s, c) { 1 } else { 2 };
    }
    // "a group with four player characters and a retainer is counted as having 4½ members".
    let share = u32::try_from(u64::from(total) * 2 / u64::from(half_shares)).unwrap_or(u32::MAX);
    let shares: Vec<(CombatantId, u32, u32)> = party
        .iter()
        .map(|c| {
            let own = if is_retainer(s, c) { share / 2 } else { share };
            let (start, table) = s
                .get(c)
                .map_or((0, Vec::new()), |(_, k)| (k.bf.xp, k.bf.xp_table.clone()));
            let before = start.saturating_add(b.bf.gained(c));
            let after = before
                .saturating_add(own)
                .min(cap(start, &table).max(before));
            (c.clone(), after - before, after)
        })
        .collect();
    // § Character Advancement: the levels reached ("he advances to 2,499 XP … and starts his
    // next adventure at 2nd level" — one level at most, the cap above keeps the XP short of a
    // second).
    let raised: Vec<(CombatantId, i32, u32)> = shares
        .iter()
        .filter(|(c, _, _)| !b.bf.levels_raised.contains(c))
        .filter_map(|(c, _, after)| {
            let table = &s.get(c)?.1.bf.xp_table;
            let level = d.field.get(c)?.c.level;
            (level_for(*after, table) > level).then(|| (c.clone(), level.saturating_add(1), *after))
        })
        .collect();
    d.emit(GameEvent::Bx(BxEvent::XpAwarded {
        monsters: monsters.to_vec(),
        total,
        share,
        shares,
    }));
    for (combatant, level, xp) in raised {
        d.emit(GameEvent::Bx(BxEvent::LevelRaised {
            combatant,
            level,
            xp,
        }));
    }
    Ok(())
}

/// The level an XP total reaches by an `xp_table` (the XP for levels 2, 3, …): 1 plus the
/// thresholds reached; 0 without a table (no level is raised).
pub fn level_for(xp: u32, table: &[u32]) -> i32 {
    if table.is_empty() {
        return 0;
    }
    let reached = table.iter().filter(|t| **t <= xp).count();
    i32::try_from(reached).map_or(i32::MAX, |n| n.saturating_add(1))
}

fn is_retainer(s: &Sheets, id: &CombatantId) -> bool {
    super::retainers::retainer(s, id).is_some_and(|r| !r.left)
}
