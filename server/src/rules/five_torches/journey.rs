//! § Overland Travel and § Overwater Travel (`five-torches-deep-combat.txt`): journeys of days
//! (on foot) or hours (by water), with travel turns rolled daily overland or on a river or
//! lake and weekly at sea, while torches still burn hourly (the time passes as it does for a
//! travel turn). Distances are whole hundredths of a mile, rounded down once at the end.

use super::Sheets;
use super::commands::{R, name, no, outside_battle_with_no_one_dying, travel_turn_of, up};
use super::rules;
use crate::rules::common::decider::Decider;
use fray_protocol::event::GameEvent;
use fray_protocol::ftd::{
    Advantage, Current, FtdCombatant, Journey, LightLevel, TravelPace, TravelTerrain, Vessel,
};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::{ErrorCode, FiveTorchesEvent};

const HOUR: u32 = 3600;
const DAY_HOURS: u32 = 24;
const WEEK_HOURS: u32 = 7 * 24;
/// The longest journey one command takes: 30 days on foot, eight weeks on water.
const MAX_DAYS: u32 = 30;
const MAX_HOURS: u32 = 8 * WEEK_HOURS;

/// A fraction (numerator, denominator).
type Fraction = (u64, u64);

/// "Difficult terrain halves this; harsh terrain quarters it."
fn terrain_factor(t: TravelTerrain) -> Fraction {
    match t {
        TravelTerrain::Open => (1, 1),
        TravelTerrain::Difficult => (1, 2),
        TravelTerrain::Harsh => (1, 4),
    }
}

/// "Moving tactically reduces speed by one quarter, stealthily reduces it by half."
fn pace_factor(p: TravelPace) -> Fraction {
    match p {
        TravelPace::Normal => (1, 1),
        TravelPace::Tactical => (3, 4),
        TravelPace::Stealthy => (1, 2),
    }
}

/// "Dim light counts as difficult terrain; darkness as harsh terrain": the worse of the two.
pub fn terrain_in(ground: TravelTerrain, light: LightLevel) -> TravelTerrain {
    let by_light = match light {
        LightLevel::Darkness => TravelTerrain::Harsh,
        LightLevel::Dim => TravelTerrain::Difficult,
        LightLevel::WellLit | LightLevel::Brilliant => TravelTerrain::Open,
    };
    ground.max(by_light)
}

/// A PC's miles a day on open ground × 100: 10 + STR mod, halved when encumbered (a load
/// above its STR), none at 0′ speed (completely encumbered or exhausted).
pub fn pc_miles_x100(sh: &FtdCombatant) -> u64 {
    if sh.speed <= 0 {
        return 0;
    }
    let miles = u64::try_from(10 + rules::ability_mod(sh.abilities.str)).unwrap_or(0) * 100;
    if sh.over_load > 0 { miles / 2 } else { miles }
}

/// Miles a day × 100 for a party whose slowest PC makes `slowest_x100` on open ground.
pub fn party_miles_x100(slowest_x100: u64, terrain: TravelTerrain, pace: TravelPace) -> u64 {
    let (tn, td) = terrain_factor(terrain);
    let (pn, pd) = pace_factor(pace);
    slowest_x100 * tn * pn / (td * pd)
}

fn as_u32(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// The PCs still up, and the slowest of them with its miles a day.
fn slowest(d: &mut Decider, s: &Sheets) -> R<(CombatantId, u64)> {
    let heroes: Vec<CombatantId> = d.field.ids_of(Side::Heroes);
    let mut best: Option<(CombatantId, u64)> = None;
    for h in heroes {
        if !up(d, s, &h) {
            continue;
        }
        let Some((sh, _)) = s.get(&h) else { continue };
        let miles = pc_miles_x100(sh);
        if best.as_ref().is_none_or(|(_, m)| miles < *m) {
            best = Some((h, miles));
        }
    }
    best.ok_or_else(|| no(ErrorCode::InvalidArgument, "no PC is up to travel"))
}

/// `travel_overland`: `days` days on foot at the slowest PC's pace, a travel turn each day.
pub fn overland(
    d: &mut Decider,
    s: &Sheets,
    days: u32,
    ground: TravelTerrain,
    pace: TravelPace,
    adv: Advantage,
) -> R {
    outside_battle_with_no_one_dying(d, "in battle the party does not travel")?;
    if !(1..=MAX_DAYS).contains(&days) {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("a journey is 1-{MAX_DAYS} days"),
        ));
    }
    let (who, open_x100) = slowest(d, s)?;
    if open_x100 == 0 {
        return Err(no(
            ErrorCode::CannotAct,
            format!(
                "{} cannot travel: 0′ speed (completely encumbered or exhausted)",
                name(d, &who)
            ),
        ));
    }
    let terrain = terrain_in(ground, s.battle().light);
    let per_day = party_miles_x100(open_x100, terrain, pace);
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::Traveled {
        journey: Journey::Overland {
            terrain,
            pace,
            slowest: who,
        },
        hours: days * DAY_HOURS,
        miles_x100: as_u32(party_miles_x100(open_x100 * u64::from(days), terrain, pace)),
        speed_x100: as_u32(per_day),
    }));
    for day in 0..days {
        travel_turn_of(d, s, adv, DAY_HOURS * HOUR, day)?;
    }
    Ok(())
}

/// Miles an hour × 100: a boat 3, a ship 5; doubled with a favorable wind or current, halved
/// against an unfavorable one.
pub fn vessel_mph_x100(vessel: Vessel, current: Current) -> u64 {
    let mph = match vessel {
        Vessel::Boat => 300,
        Vessel::Ship => 500,
    };
    match current {
        Current::Neutral => mph,
        Current::Favorable => mph * 2,
        Current::Unfavorable => mph / 2,
    }
}

/// `travel_overwater`: `hours` under way; a travel turn each full day by boat, each full week
/// by ship, the rest of the hours passing after them.
pub fn overwater(
    d: &mut Decider,
    s: &Sheets,
    vessel: Vessel,
    hours: u32,
    current: Current,
    adv: Advantage,
) -> R {
    outside_battle_with_no_one_dying(d, "in battle the party does not travel")?;
    if !(1..=MAX_HOURS).contains(&hours) {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("a voyage is 1-{MAX_HOURS} hours"),
        ));
    }
    let mph = vessel_mph_x100(vessel, current);
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::Traveled {
        journey: Journey::Overwater { vessel, current },
        hours,
        miles_x100: as_u32(mph * u64::from(hours)),
        speed_x100: as_u32(mph),
    }));
    let unit = match vessel {
        Vessel::Boat => DAY_HOURS,
        Vessel::Ship => WEEK_HOURS,
    };
    for k in 0..hours / unit {
        travel_turn_of(d, s, adv, unit * HOUR, k)?;
    }
    super::commands::pass_time(d, s, (hours % unit) * HOUR);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    // five-torches-deep-combat.txt § Overland Travel: "a +2 STR mod PC can travel 12 miles in
    // open terrain, 6 miles in difficult terrain, or 3 miles in harsh terrain".
    #[test]
    fn the_texts_example_12_6_and_3_miles_overland_travel() {
        let open = 1200;
        assert_eq!(
            party_miles_x100(open, TravelTerrain::Open, TravelPace::Normal),
            1200
        );
        assert_eq!(
            party_miles_x100(open, TravelTerrain::Difficult, TravelPace::Normal),
            600
        );
        assert_eq!(
            party_miles_x100(open, TravelTerrain::Harsh, TravelPace::Normal),
            300
        );
        // "Moving tactically reduces speed by one quarter, stealthily reduces it by half."
        assert_eq!(
            party_miles_x100(open, TravelTerrain::Open, TravelPace::Tactical),
            900
        );
        assert_eq!(
            party_miles_x100(open, TravelTerrain::Open, TravelPace::Stealthy),
            600
        );
        // Fractions are kept to the hundredth: 11 miles, harsh, tactical = 2.0625 → 2.06.
        assert_eq!(
            party_miles_x100(1100, TravelTerrain::Harsh, TravelPace::Tactical),
            206
        );
    }

    // § Overland Travel: "Dim light counts as difficult terrain; darkness as harsh terrain."
    #[test]
    fn dim_light_is_difficult_and_darkness_harsh_terrain_overland_travel() {
        assert_eq!(
            terrain_in(TravelTerrain::Open, LightLevel::Dim),
            TravelTerrain::Difficult
        );
        assert_eq!(
            terrain_in(TravelTerrain::Open, LightLevel::Darkness),
            TravelTerrain::Harsh
        );
        assert_eq!(
            terrain_in(TravelTerrain::Harsh, LightLevel::WellLit),
            TravelTerrain::Harsh
        );
        assert_eq!(
            terrain_in(TravelTerrain::Difficult, LightLevel::Brilliant),
            TravelTerrain::Difficult
        );
    }

    // § Overwater Travel: "A boat on smooth water travels 3 miles an hour … A ship … moves 5
    // miles an hour … an unfavorable wind or current halves this speed … a favorable wind or
    // current doubles it."
    #[test]
    fn boats_make_3_and_ships_5_miles_an_hour_wind_doubling_or_halving_overwater_travel() {
        assert_eq!(vessel_mph_x100(Vessel::Boat, Current::Neutral), 300);
        assert_eq!(vessel_mph_x100(Vessel::Ship, Current::Neutral), 500);
        assert_eq!(vessel_mph_x100(Vessel::Ship, Current::Favorable), 1000);
        assert_eq!(vessel_mph_x100(Vessel::Boat, Current::Unfavorable), 150);
    }
}
