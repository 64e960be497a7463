//! Basic Fantasy § Dungeon Survival and § Wilderness Adventures (`pass_day`): a day of travel
//! or rest — the wilderness movement table and the terrain, forced march (1d6 after the first
//! day, a save vs. Death Ray with the CON bonus until one fails; a day of rest restarts it),
//! travel by air, food and water (hunger after two days, 1 hp a day; thirst 1d4 a day; both
//! stop natural healing), and the secret check for becoming lost (a save, or the optional WIS
//! ability roll: the session option `lost_roll`). In `ose` sessions the terrain, forced march,
//! resting and losing direction are OSE's own (`wilderness.rs`).

use super::Sheets;
use super::commands::{as_i32, deal, name, no, sheet, side_of, up};
use crate::dice::Placeholders;
use crate::rules::common::decider::Decider;
use fray_protocol::BxEvent;
use fray_protocol::bf::{March, Terrain};
use fray_protocol::event::{DamageCause, GameEvent};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::ose::{LostRoll, SecretCheck};
use fray_protocol::state::Phase;
use fray_protocol::{ErrorCode, Rejection};
use std::collections::BTreeSet;

type R<T = ()> = Result<T, Rejection>;

/// § Wilderness Movement Rates: miles per 8-hour day by encounter movement (feet per round):
/// 10′ → 6 … 120′ → 72.
pub fn miles_per_day(rate: i32) -> u32 {
    u32::try_from(rate.max(0) * 6 / 10).unwrap_or(0)
}

/// § Overland Travel, § Traveling by Air: the day's miles (rounded down; *interpretation*).
pub fn day_miles(rate: i32, march: March, terrain: Terrain) -> u32 {
    let base = miles_per_day(rate);
    let (tn, td) = match terrain.bf_class() {
        Terrain::Jungle => (1, 3),
        Terrain::Forest => (2, 3),
        Terrain::Road => (4, 3),
        _ => (1, 1),
    };
    match march {
        March::Rest => 0,
        March::Normal => base * tn / td,
        March::Forced => base * tn * 3 / (td * 2),
        March::Air => base * 2,
        March::Water => 0,
    }
}

fn party_list(d: &Decider, s: &Sheets, list: &[CombatantId], what: &str) -> R {
    let mut seen = BTreeSet::new();
    for c in list {
        sheet(s, c)?;
        if side_of(d, c)? != Side::Heroes || !seen.insert(c.clone()) {
            return Err(no(
                ErrorCode::InvalidTarget,
                format!(
                    "{what}: {} is not of the party or is listed twice",
                    name(d, c)
                ),
            ));
        }
    }
    Ok(())
}

/// How a day of `pass_day` goes on the water, if it does.
pub enum WaterWay<'a> {
    /// Old-School Essentials § Travel on the Water: the command's `water` (none on land).
    Ose(Option<&'a fray_protocol::ose::WaterDay>),
    /// Basic Fantasy § Waterborne Travel: `sail`'s miles.
    Voyage(u32),
}

/// Days pass outside an encounter, before the session is over.
fn day_open(d: &Decider) -> R {
    match d.field.battle.phase {
        Phase::Setup => Ok(()),
        Phase::Running => Err(no(
            ErrorCode::BattleAlreadyStarted,
            "an encounter is being fought: days pass outside it",
        )),
        Phase::Ended => Err(no(ErrorCode::BattleOver, "the session is over")),
    }
}

/// `pass_day`, between encounters.
#[allow(clippy::too_many_arguments)]
pub fn pass_day(
    d: &mut Decider,
    s: &Sheets,
    march: March,
    terrain: Terrain,
    unfed: &[CombatantId],
    no_water: &[CombatantId],
    leader: Option<&CombatantId>,
    way: WaterWay,
) -> R {
    day_open(d)?;
    let ose = super::wilderness::is_ose(d);
    let (water, voyage) = match way {
        WaterWay::Ose(w) => (w, None),
        WaterWay::Voyage(miles) => (None, Some(miles)),
    };
    if voyage.is_none() {
        super::water_travel::check(ose, march, water)?;
    }
    if ose {
        super::wilderness::check_rest_owed(s, march)?;
    }
    party_list(d, s, unfed, "unfed")?;
    party_list(d, s, no_water, "no_water")?;
    let b = s.battle();
    if let Some(l) = leader {
        party_list(d, s, std::slice::from_ref(l), "leader")?;
        if !ose && b.options.lost_roll == LostRoll::Ability && sheet(s, l)?.1.scores.is_none() {
            return Err(no(
                ErrorCode::InvalidTarget,
                format!(
                    "{} has no WIS score for the ability roll (§ Becoming Lost)",
                    name(d, l)
                ),
            ));
        }
    }
    let heroes: Vec<CombatantId> = d.field.ids_of(Side::Heroes);
    let heroes: Vec<CombatantId> = heroes.into_iter().filter(|h| up(d, s, h)).collect();
    // § Wilderness Movement Rates: "any group traveling together moves at the rate of the
    // slowest member" — its `set_encumbrance` movement, else its base rate per round (a third
    // of the content's feet per turn).
    // (OSE § Optional Rule: Encumbrance: its rate by the option; over the maximum load a
    // character cannot move, and a day of travel is refused.)
    if !matches!(march, March::Rest | March::Water) {
        for h in &heroes {
            if let Some((_, k)) = s.get(h) {
                super::encumbrance::may_move(d, s, h, k)?;
            }
        }
    }
    let rate = heroes
        .iter()
        .map(|h| {
            s.get(h)
                .map(|(_, k)| super::encumbrance::per_round(s, h, k))
                .unwrap_or(40)
        })
        .min()
        .unwrap_or(40);
    // § Overland Travel, forced march: every day of it after the first (since a day of rest).
    let mut march_damage = Vec::new();
    let mut failed = Vec::new();
    // (OSE § Forced March: no save and no damage; the rest it requires is refused above.)
    if !ose && march == March::Forced && b.bf.forced_days >= 1 {
        for h in &heroes {
            let Some((sh, kit)) = s.get(h) else { continue };
            if !b.bf.march_save_failed.contains(h) {
                let roll = crate::dice::notation::roll_die(d.rng, 20);
                let total = as_i32(roll.natural().unwrap_or(1)) + kit.bf.con_bonus;
                let value = sh.saves[0];
                let success = total >= value;
                d.emit(GameEvent::CheckRolled {
                    combatant: h.clone(),
                    purpose: "save vs death ray (forced march)".into(),
                    roll,
                    bonus: kit.bf.con_bonus,
                    total,
                    dc: value,
                    success,
                    modifiers: fray_protocol::roll::Modifiers::new()
                        .with("CON", kit.bf.con_bonus)
                        .into_vec(),
                });
                if success {
                    continue;
                }
                failed.push(h.clone());
            }
            march_damage.push(h.clone());
        }
    }
    // (OSE § Travel on the Water: the vessel's rate and the river's current.)
    let current = match water {
        Some(w) => super::water_travel::current_roll(d, w)?,
        None => None,
    };
    let fed: Vec<(CombatantId, bool)> = heroes
        .iter()
        .map(|h| (h.clone(), !unfed.contains(h)))
        .collect();
    let watered: Vec<(CombatantId, bool)> = heroes
        .iter()
        .map(|h| (h.clone(), !no_water.contains(h)))
        .collect();
    d.emit(GameEvent::Bx(BxEvent::DayPassed {
        day: b.bf.day.saturating_add(1),
        march,
        terrain,
        rate: water.map_or(rate, |w| i32::try_from(w.rate / 3).unwrap_or(0)),
        miles: match (water, voyage) {
            (Some(w), _) => super::water_travel::miles(w, current.as_ref()),
            (None, Some(miles)) => miles,
            (None, None) if ose => super::wilderness::day_miles(rate, march, terrain),
            (None, None) => day_miles(rate, march, terrain),
        },
        fed,
        watered,
        march_saves_failed: failed,
        water: water.copied(),
        current,
    }));
    let hazard = |purpose: &str| DamageCause::Hazard {
        purpose: purpose.into(),
        doubled: false,
    };
    for h in &heroes {
        // OSE § Starvation: "the referee may begin to apply penalties … or even begin to
        // deduct hit points (in extreme cases)" — the referee's, so `ose` sessions only count
        // the days (`fed`, `watered`); Basic Fantasy's numbers below are its own.
        if ose {
            break;
        }
        // § Dungeon Survival: no effect for the first two days without food, then 1 hp a day.
        if unfed.contains(h) && b.bf.days_without(h, false) >= 2 {
            deal(d, s, h, 1, hazard("hunger"));
        }
        // "after a single day without adequate water, the character loses 1d4 hit points, and
        // will lose an additional 1d4 hit points per day thereafter".
        if no_water.contains(h) {
            let r = d.roll("1d4", &Placeholders::default())?;
            deal(d, s, h, r.total, hazard("thirst"));
        }
        if march_damage.contains(h) {
            let r = d.roll("1d6", &Placeholders::default())?;
            deal(d, s, h, r.total, hazard("forced march"));
        }
    }
    if let Some(w) = water {
        return super::water_travel::checks(d, w, leader);
    }
    if voyage.is_some() {
        // At sea the navigator keeps the course: § Becoming Lost is the wilderness's.
        return Ok(());
    }
    if ose {
        super::wilderness::lost_check(d, march, terrain, leader)?;
        return super::wilderness::wandering_check(d, march, terrain);
    }
    // § Becoming Lost: "Secretly roll a save vs. Death Ray, adjusted by the Wisdom of the party
    // leader"; the GM decides what being lost means.
    if let Some(l) = leader
        && let Some((sh, kit)) = s.get(l)
    {
        let (chance, roll, success) = match (b.options.lost_roll, kit.scores) {
            // "Alternately, an Ability Roll against Wisdom may be rolled, if that optional rule
            // is in use" (the shared core's § Ability Checks: d20 ≤ the score).
            (LostRoll::Ability, Some(scores)) => {
                let wis = scores[fray_protocol::ose::OseAbility::Wis.index()];
                let chance = u32::try_from(wis.clamp(1, 19)).unwrap_or(1);
                let roll = d.secret_die(20)?;
                let success = super::tables::ability_check(roll.natural().unwrap_or(20), 0, wis);
                (chance, roll, success)
            }
            _ => {
                let value = sh.saves[0] - kit.bf.wis_bonus;
                let chance = u32::try_from((21 - value).clamp(0, 20)).unwrap_or(0);
                let roll = d.secret_die(20)?;
                let success = as_i32(roll.natural().unwrap_or(1)) >= value;
                (chance, roll, success)
            }
        };
        d.emit(GameEvent::SecretRolled {
            check: SecretCheck::LostDirection,
            combatant: Some(l.clone()),
            chance,
            roll: Some(roll),
            success: Some(success),
            area: None,
            distance: None,
            turns: 0,
        });
    }
    Ok(())
}

/// § Waterborne Travel: the d12 wind direction and the d% wind conditions with their sailing and
/// tacking multipliers (the ships' own rates are the Vehicles section's: the GM applies them).
pub fn roll_wind(d: &mut Decider, s: &Sheets) -> R {
    if super::wilderness::is_ose(d) {
        // OSE § Wind Conditions: the daily 2d6 (`waterborne.rs`).
        return super::waterborne::wind(d, s);
    }
    if d.field.battle.phase == Phase::Ended {
        return Err(no(ErrorCode::BattleOver, "the session is over"));
    }
    bf_wind(d);
    Ok(())
}

/// Basic Fantasy's wind: the d12 direction and the d% conditions (`wind_rolled`).
fn bf_wind(d: &mut Decider) -> fray_protocol::bf::WindConditions {
    let direction_roll = crate::dice::notation::roll_die(d.rng, 12);
    let conditions_roll = crate::dice::notation::roll_die(d.rng, 100);
    let conditions =
        fray_protocol::bf::WindConditions::from_d100(conditions_roll.natural().unwrap_or(50));
    let (sailing, tacking) = conditions.multipliers();
    d.emit(GameEvent::Bx(BxEvent::WindRolled {
        direction: fray_protocol::bf::WindDirection::from_d12(
            direction_roll.natural().unwrap_or(12),
        ),
        direction_roll,
        conditions_roll,
        conditions,
        sailing,
        tacking,
    }));
    conditions
}

/// A vessel's day on the water (Basic Fantasy § Waterborne Travel), as the `sail` command gives
/// it.
#[derive(Debug, Clone, Copy)]
pub struct Voyage {
    /// Miles per 12-hour day under sail (0: no sails).
    pub sailing_miles: u32,
    /// Miles per 12-hour day by oar (0: no oars).
    pub rowing_miles: u32,
    /// A qualified navigator is aboard.
    pub navigator: bool,
    /// The ship stops each night.
    pub stops_at_night: bool,
    /// Sailing against the wind (tacking).
    pub against_wind: bool,
}

/// § Waterborne Travel: how far the vessel goes in `conditions` — (how, multiplier, hours,
/// miles). "Travel distances are based on a 12 hour day"; "sailed ships may travel 24 hours per
/// day (if a qualified navigator is aboard) … twice the normal distance … in addition to the
/// multiplier", not when it "stops each night"; becalmed, "Oared ships may move at the given
/// rowing movement rate". The vessel goes the farther of sail and oar (*interpretation*: the
/// text gives no rule for a ship with both).
pub fn voyage_day(
    v: &Voyage,
    conditions: fray_protocol::bf::WindConditions,
) -> (fray_protocol::bf::Propulsion, (u32, u32), u32, u32) {
    use fray_protocol::bf::Propulsion;
    let (sailing, tacking) = conditions.multipliers();
    let (n, den) = if v.against_wind { tacking } else { sailing };
    let night = v.navigator && !v.stops_at_night;
    let (hours, doubled) = if night { (24, 2) } else { (12, 1) };
    let sail = v.sailing_miles.saturating_mul(n).saturating_mul(doubled) / den.max(1);
    if v.sailing_miles > 0 && sail > 0 && sail >= v.rowing_miles {
        (Propulsion::Sail, (n, den), hours, sail)
    } else if v.rowing_miles > 0 {
        (Propulsion::Oars, (1, 1), 12, v.rowing_miles)
    } else {
        (Propulsion::Adrift, (n, den), 0, 0)
    }
}

/// `sail` (GM, `basic-fantasy` sessions): the day's wind, the vessel's miles ([`voyage_day`]),
/// a gale's 2d8 per hour under sail, then the day passes (`pass_day` with `march` `water`).
pub fn sail(
    d: &mut Decider,
    s: &Sheets,
    v: &Voyage,
    unfed: &[CombatantId],
    no_water: &[CombatantId],
) -> R {
    if super::wilderness::is_ose(d) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "an `ose` session's day on the water is `pass_day` with `march` `water` (§ Travel on the Water)",
        ));
    }
    day_open(d)?;
    party_list(d, s, unfed, "unfed")?;
    party_list(d, s, no_water, "no_water")?;
    if v.sailing_miles > 1000 || v.rowing_miles > 1000 {
        return Err(no(
            ErrorCode::InvalidArgument,
            "a vessel's miles per day are at most 1000",
        ));
    }
    if v.sailing_miles == 0 && v.rowing_miles == 0 {
        return Err(no(
            ErrorCode::InvalidArgument,
            "a vessel needs sailing or rowing miles per day",
        ));
    }
    let conditions = bf_wind(d);
    let (under, multiplier, hours, miles) = voyage_day(v, conditions);
    d.emit(GameEvent::Bx(BxEvent::Sailed {
        conditions,
        under,
        multiplier,
        hours,
        miles,
    }));
    if conditions == fray_protocol::bf::WindConditions::Gale
        && under == fray_protocol::bf::Propulsion::Sail
    {
        gale_damage(d, hours)?;
    }
    pass_day(
        d,
        s,
        March::Water,
        Terrain::Clear,
        unfed,
        no_water,
        None,
        WaterWay::Voyage(miles),
    )
}

/// § Waterborne Travel, Gale: "ships exposed to a gale may be damaged or sunk; apply 2d8 points
/// of damage to any such ship, per hour sailed" (`gale_damage`, 1..=24 hours).
pub fn gale_damage(d: &mut Decider, hours: u32) -> R {
    if d.field.battle.phase == Phase::Ended {
        return Err(no(ErrorCode::BattleOver, "the session is over"));
    }
    if !(1..=24).contains(&hours) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "a gale's damage is counted for 1..=24 hours sailed",
        ));
    }
    let mut rolls = Vec::new();
    for _ in 0..hours {
        rolls.push(d.roll("2d8", &Placeholders::default())?);
    }
    let total = rolls.iter().map(|r| r.total).sum();
    d.emit(GameEvent::Bx(BxEvent::GaleDamageRolled {
        hours,
        rolls,
        total,
    }));
    Ok(())
}
