//! Old-School Essentials (`ose-adventuring.txt`) § Wilderness Adventuring in `pass_day` for `ose`
//! sessions (the `basic-fantasy` ruleset keeps its own rules in `travel.rs`): Terrain Modifiers
//! (33% / 50% slower, roads 50% faster), Forced March (+50%, then a full day of rest:
//! `rest_required`), Resting (a day per six days of travel, else −1 to hit and damage) and
//! Losing Direction (the referee's secret d6 by terrain), Wandering Monsters (the day's secret
//! d6 by terrain, Chance by Terrain).

use super::Sheets;
use super::commands::{R, no};
use super::travel::miles_per_day;
use crate::rules::common::decider::Decider;
use fray_protocol::ErrorCode;
use fray_protocol::bf::{March, Terrain};
use fray_protocol::event::GameEvent;
use fray_protocol::ids::CombatantId;
use fray_protocol::ose::SecretCheck;

/// Whether the session plays OSE's own wilderness rules (the `ose` ruleset).
pub fn is_ose(d: &Decider) -> bool {
    d.field.battle.ruleset == super::ID
}

/// § Overland Travel (miles = base rate ÷ 5 = the per-round rate × 6 ÷ 10), § Terrain Modifiers
/// (`terrain.rs::speed`), § Forced March ("increased by 50%"), § Flying ("double", terrain
/// ignored). Miles rounded down (*interpretation*).
pub fn day_miles(rate: i32, march: March, terrain: Terrain) -> u32 {
    let base = miles_per_day(rate);
    let (tn, td) = super::terrain::speed(terrain);
    match march {
        March::Rest => 0,
        March::Normal => base * tn / td,
        March::Forced => base * tn * 3 / (td * 2),
        March::Air => base * 2,
        March::Water => 0,
    }
}

/// § Forced March: "After a forced march, characters must rest for a full day" — any day but a
/// day of rest is refused until then (a forced march counts since the last day of rest).
pub fn check_rest_owed(s: &Sheets, march: March) -> R {
    if march != March::Rest && s.battle().bf.forced_days >= 1 {
        return Err(no(
            ErrorCode::RestRequired,
            "after a forced march the party must rest for a full day (§ Forced March)",
        ));
    }
    Ok(())
}

/// § Resting: "Characters must rest for one day per six days of travel … a penalty of -1 to hit
/// and damage rolls until they have rested for one full day" — after six days of travel without
/// a day of rest (*interpretation*: counted like the dungeon's six turns, `tired`), in `ose`
/// sessions only.
pub fn weary(d: &Decider, s: &Sheets) -> bool {
    is_ose(d) && s.battle().bf.travel_days >= 6
}

/// § Losing Direction: the chance in six of losing direction by terrain (`terrain.rs::lost`).
pub fn lost_chance(terrain: Terrain) -> u32 {
    super::terrain::lost(terrain)
}

/// § Losing Direction: "At the start of each day of travel, the referee should roll" — the
/// secret d6 (`secret_rolled` `lost_direction`, GM only), on every day of travel (not a day of
/// rest; by air the terrain below counts, *interpretation*). As with Basic Fantasy's check,
/// `chance` is the faces that keep the party on course and `success` that it is not lost;
/// `combatant` is the `leader` if one is named (OSE adjusts nothing by it).
pub fn lost_check(
    d: &mut Decider,
    march: March,
    terrain: Terrain,
    leader: Option<&CombatantId>,
) -> R {
    if march == March::Rest {
        return Ok(());
    }
    lost_roll(d, lost_chance(terrain), leader)
}

/// The secret d6 of § Losing Direction, lost on 1..=`lost_in` (6: always lost) — wilderness
/// and waterborne (`water_travel.rs`); from the secret stream.
pub fn lost_roll(d: &mut Decider, lost_in: u32, leader: Option<&CombatantId>) -> R {
    let roll = d.secret_die(6)?;
    let success = roll.natural().unwrap_or(1) > lost_in;
    d.emit(GameEvent::SecretRolled {
        check: SecretCheck::LostDirection,
        combatant: leader.cloned(),
        chance: 6 - lost_in,
        roll: Some(roll),
        success: Some(success),
        area: None,
        distance: None,
        turns: 0,
    });
    Ok(())
}

/// § Wandering Monsters, Chance by Terrain (`terrain.rs::wandering`), by air 2 (aerial).
pub fn wandering_chance(march: March, terrain: Terrain) -> u32 {
    if march == March::Air {
        return 2;
    }
    super::terrain::wandering(terrain)
}

/// § Wandering Monsters: "A check is typically rolled once per day" — the secret d6
/// (`secret_rolled` `wandering_monster`, GM only) every day, a day of rest included
/// (*interpretation*; further checks, "up to three or four per day", are the GM's
/// `secret_roll`); on an encounter `distance` is the 4d6 of "4d6 × 10 yards away" (the GM
/// reduces it to 1d4 × 10 if either side is surprised).
pub fn wandering_check(d: &mut Decider, march: March, terrain: Terrain) -> R {
    wandering_roll(d, wandering_chance(march, terrain))
}

/// The day's secret wandering-monster d6 at `chance` in six, with the 4d6 of the distance on an
/// encounter — wilderness and waterborne (`water_travel.rs`; both 4d6 × 10 yards); from the
/// secret stream.
pub fn wandering_roll(d: &mut Decider, chance: u32) -> R {
    let roll = d.secret_die(6)?;
    let success = roll.natural().unwrap_or(6) <= chance;
    let distance = if success {
        Some(d.secret_roll("4d6")?)
    } else {
        None
    };
    d.emit(GameEvent::SecretRolled {
        check: SecretCheck::WanderingMonster,
        combatant: None,
        chance,
        roll: Some(roll),
        success: Some(success),
        area: None,
        distance,
        turns: 0,
    });
    Ok(())
}
