//! Orcus experience (orcus-basic-rules.txt § Experience Points, § Experience, levels and tiers):
//! the GM's `orcus_award_xp` counts each defeated monster once at its table XP by level and rank,
//! adds the GM's bonus, divides the total evenly among the heroes who share it, and tells each
//! hero whose experience reaches the next level's threshold (`level_reached`). A hero's
//! experience is what its level took (the table's cumulative XP) plus what it earned in the
//! session (`grid.xp`).

use super::Board;
use super::commands::{R, no};
use super::tables::{self, Rank};
use crate::rules::common::decider::Decider;
use fray_protocol::ErrorCode;
use fray_protocol::OrcusEvent;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::{CombatantId, Side};
use std::collections::BTreeSet;

/// The most XP the GM's bonus adds at once.
pub const MAX_BONUS: u32 = 100_000;

/// A monster's rank as its stat block names it (`None` for heroes and unknown words).
pub fn rank_of(word: &str) -> Option<Rank> {
    match word {
        "mook" => Some(Rank::Mook),
        "standard" => Some(Rank::Standard),
        "elite" => Some(Rank::Elite),
        "boss" => Some(Rank::Boss),
        _ => None,
    }
}

/// `total` divided evenly among `heroes` heroes, rounded down (*interpretation*: the text gives
/// a monster's worth, not how the party shares it; the even split keeps the table's pace of a
/// level every few encounters of the party's level).
pub fn share(total: u32, heroes: usize) -> u32 {
    u32::try_from(heroes).map_or(0, |n| total.checked_div(n).unwrap_or(0))
}

/// `orcus_award_xp` (GM): see the module's documentation.
pub fn award(
    d: &mut Decider,
    b: &Board,
    monsters: &[CombatantId],
    bonus: u32,
    party: &[CombatantId],
) -> R {
    if d.field.battle.session_over || d.field.battle.seed_revealed {
        return Err(no(ErrorCode::BattleOver, "the session is over"));
    }
    if bonus > MAX_BONUS {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("a bonus is at most {MAX_BONUS} XP"),
        ));
    }
    let total = monsters_xp(d, b, monsters)?.saturating_add(bonus);
    let heroes = heroes_of(d, party)?;
    let each = share(total, heroes.len());
    let mut shares = Vec::new();
    let mut reached = Vec::new();
    for (hero, level) in heroes {
        let earned = b.get(&hero).map_or(0, |(g, _)| g.0.xp);
        let after = earned.saturating_add(each);
        let base = tables::hero_xp_for_level(level).unwrap_or(0);
        let before_level = tables::hero_level_for_xp(base.saturating_add(as_i32(earned)));
        let now = base.saturating_add(as_i32(after));
        let new_level = tables::hero_level_for_xp(now);
        if new_level > before_level.max(level) {
            reached.push((hero.clone(), new_level, u32::try_from(now).unwrap_or(0)));
        }
        shares.push((hero, each, after));
    }
    d.emit(GameEvent::Orcus(OrcusEvent::OrcusXpAwarded {
        monsters: monsters.to_vec(),
        total,
        share: each,
        shares,
    }));
    for (combatant, level, xp) in reached {
        d.emit(GameEvent::Orcus(OrcusEvent::LevelReached {
            combatant,
            level,
            xp,
        }));
    }
    Ok(())
}

fn as_i32(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// The monsters' table XP: each a monster of the session, listed once, not counted before.
fn monsters_xp(d: &Decider, b: &Board, monsters: &[CombatantId]) -> R<u32> {
    let mut seen = BTreeSet::new();
    let mut total: u32 = 0;
    for id in monsters {
        let Some(f) = d.field.get(id) else {
            return Err(no(
                ErrorCode::UnknownCombatant,
                format!("no combatant '{id}' in this session"),
            ));
        };
        if f.c.side != Side::Monsters || !seen.insert(id.clone()) {
            return Err(no(
                ErrorCode::InvalidTarget,
                format!("{}: not a monster, or listed twice", f.c.name),
            ));
        }
        let Some((g, kit)) = b.get(id) else {
            return Err(no(
                ErrorCode::UnknownCombatant,
                format!("no combatant '{id}'"),
            ));
        };
        if g.0.xp_awarded {
            return Err(no(
                ErrorCode::InvalidTarget,
                format!("{}'s XP was awarded already", f.c.name),
            ));
        }
        let xp = rank_of(&kit.0.rank)
            .and_then(|rank| tables::monster_xp(f.c.level, rank).ok())
            .ok_or_else(|| {
                no(
                    ErrorCode::InvalidTarget,
                    format!(
                        "{} has no XP in the table (level {}, rank {})",
                        f.c.name, f.c.level, kit.0.rank
                    ),
                )
            })?;
        total = total.saturating_add(u32::try_from(xp).unwrap_or(0));
    }
    Ok(total)
}

/// The heroes sharing the XP, with their levels: at least one, heroes of the session, each
/// once.
fn heroes_of(d: &Decider, party: &[CombatantId]) -> R<Vec<(CombatantId, i32)>> {
    if party.is_empty() {
        return Err(no(
            ErrorCode::InvalidArgument,
            "name the heroes who share the XP (party)",
        ));
    }
    let mut out: Vec<(CombatantId, i32)> = Vec::new();
    for id in party {
        let Some(f) = d.field.get(id) else {
            return Err(no(
                ErrorCode::UnknownCombatant,
                format!("no combatant '{id}' in this session"),
            ));
        };
        if f.c.side != Side::Heroes || out.iter().any(|(h, _)| h == id) {
            return Err(no(
                ErrorCode::InvalidTarget,
                format!("{}: not a hero, or listed twice", f.c.name),
            ));
        }
        out.push((id.clone(), f.c.level));
    }
    Ok(out)
}
