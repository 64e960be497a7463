//! § Treasure (`five-torches-deep-combat.txt`): gold is the primary source of experience. An
//! enemy's carried loot is worth 1d20 gp per HD (rolled, once per enemy); hoards are the GM's;
//! every coin weighs the same (500 to a load: the sheet's encumbrance counts them); a captured
//! magic item gives experience equal to its fair value, and the gold it later sells for gives
//! none; inherited or unearned treasure gives none.
//!
//! *Interpretation* (the text says gold is "the primary source of XP" without a rate): 1 gp of
//! treasure is 1 XP, and silver and copper count at their gold value (10 cp = 1 sp, 10 sp = 1
//! gp), rounded down.

use super::Sheets;
use super::commands::{R, dice_open, fighter, name, no, session_open, sheet};
use crate::dice::Placeholders;
use crate::rules::common::decider::Decider;
use fray_protocol::event::GameEvent;
use fray_protocol::ftd::{Departure, MagicItem, TreasureSource};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::state::LifeStatus;
use fray_protocol::{ErrorCode, FiveTorchesEvent};

/// The most coins a combatant may carry (as `set_load` allows).
const MAX_COINS: i64 = 100_000;
/// The largest single treasure or price, in gp (and a magic item's value).
const MAX_GP: u32 = 1_000_000;

/// The gold value of coins, rounded down to whole gp.
pub fn gold_value(gp: u32, sp: u32, cp: u32) -> u32 {
    let copper = u64::from(gp) * 100 + u64::from(sp) * 10 + u64::from(cp);
    u32::try_from(copper / 100).unwrap_or(u32::MAX)
}

/// A PC who receives treasure: a hero of this session.
fn pc(d: &Decider, s: &Sheets, who: &CombatantId) -> R {
    session_open(d)?;
    if fighter(d, who)?.c.side != Side::Heroes {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{} is not a PC: treasure goes to PCs", name(d, who)),
        ));
    }
    sheet(s, who).map(|_| ())
}

/// `coins` more stay within what a combatant may carry.
fn room_for(d: &Decider, s: &Sheets, who: &CombatantId, coins: u64) -> R {
    let held = i64::from(sheet(s, who)?.coins);
    if held + i64::try_from(coins).unwrap_or(i64::MAX) > MAX_COINS {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!(
                "{} would carry more than {MAX_COINS} coins ({held} now)",
                name(d, who)
            ),
        ));
    }
    Ok(())
}

fn gained(
    d: &mut Decider,
    who: &CombatantId,
    coins: u64,
    xp: u32,
    source: TreasureSource,
    roll: Option<fray_protocol::roll::Roll>,
) {
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::TreasureGained {
        combatant: who.clone(),
        coins: i32::try_from(coins).unwrap_or(i32::MAX),
        xp,
        source,
        roll,
    }));
}

/// `loot`: 1d20 gp per HD of an enemy that is out of the fight or surrendered, once.
pub fn loot(d: &mut Decider, s: &Sheets, looter: &CombatantId, enemy: &CombatantId) -> R {
    pc(d, s, looter)?;
    dice_open(d)?;
    if fighter(d, enemy)?.c.side != Side::Monsters {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{} is not an enemy", name(d, enemy)),
        ));
    }
    let e = sheet(s, enemy)?;
    let out = d
        .status(enemy)
        .is_some_and(|st| st.is_out() || st == LifeStatus::Unconscious)
        || e.departed == Some(Departure::Surrendered);
    if !out {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!(
                "{} still carries its loot: it is not down or surrendered",
                name(d, enemy)
            ),
        ));
    }
    if e.looted {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{} has been looted already", name(d, enemy)),
        ));
    }
    let Some(hd) = e.hd.filter(|hd| *hd > 0) else {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{} has no hit dice to value its loot by", name(d, enemy)),
        ));
    };
    // The most it can be: every die a 20.
    room_for(d, s, looter, u64::try_from(hd).unwrap_or(0) * 20)?;
    let roll = d.roll(&format!("{hd}d20"), &Placeholders::default())?;
    let gp = u32::try_from(roll.total).unwrap_or(0);
    gained(
        d,
        looter,
        u64::from(gp),
        gp,
        TreasureSource::Loot {
            enemy: enemy.clone(),
        },
        Some(roll),
    );
    Ok(())
}

/// `treasure`: a hoard's coins, and experience for their gold value unless unearned.
pub fn hoard(
    d: &mut Decider,
    s: &Sheets,
    to: &CombatantId,
    coins: (u32, u32, u32),
    unearned: bool,
) -> R {
    pc(d, s, to)?;
    let (gp, sp, cp) = coins;
    if gp > MAX_GP || sp > MAX_GP || cp > MAX_GP {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("at most {MAX_GP} of each coin"),
        ));
    }
    let count = u64::from(gp) + u64::from(sp) + u64::from(cp);
    if count == 0 {
        return Err(no(ErrorCode::InvalidArgument, "a treasure of no coins"));
    }
    room_for(d, s, to, count)?;
    let (xp, source) = if unearned {
        (0, TreasureSource::Unearned)
    } else {
        (gold_value(gp, sp, cp), TreasureSource::Hoard)
    };
    gained(d, to, count, xp, source, None);
    Ok(())
}

fn item_name(name: &str) -> R {
    if name.trim().is_empty() || name.chars().count() > 40 {
        return Err(no(
            ErrorCode::InvalidArgument,
            "a magic item's name is 1-40 characters",
        ));
    }
    Ok(())
}

/// `magic_item`: a captured magic item: experience equal to its fair value.
pub fn magic_item(d: &mut Decider, s: &Sheets, to: &CombatantId, item: &str, value: u32) -> R {
    pc(d, s, to)?;
    item_name(item)?;
    if value > MAX_GP {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("a fair value is at most {MAX_GP} gp"),
        ));
    }
    let item = MagicItem {
        name: item.trim().to_owned(),
        value,
    };
    gained(d, to, 0, value, TreasureSource::MagicItem { item }, None);
    Ok(())
}

/// `sell_item`: a held magic item sold: its price in coins, no experience.
pub fn sell(d: &mut Decider, s: &Sheets, seller: &CombatantId, item: &str, gp: u32) -> R {
    pc(d, s, seller)?;
    let held = sheet(s, seller)?;
    let Some(found) = held.magic_items.iter().find(|m| m.name == item.trim()) else {
        let names: Vec<&str> = held.magic_items.iter().map(|m| m.name.as_str()).collect();
        return Err(no(
            ErrorCode::InvalidArgument,
            format!(
                "{} holds no magic item '{item}' (holds: {})",
                name(d, seller),
                if names.is_empty() {
                    "none".to_owned()
                } else {
                    names.join(", ")
                }
            ),
        ));
    };
    let sold = found.name.clone();
    if gp > MAX_GP {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("a price is at most {MAX_GP} gp"),
        ));
    }
    room_for(d, s, seller, u64::from(gp))?;
    gained(
        d,
        seller,
        u64::from(gp),
        0,
        TreasureSource::Sale { name: sold },
        None,
    );
    Ok(())
}
