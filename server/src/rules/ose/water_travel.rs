//! Old-School Essentials (`ose-adventuring.txt`) § Waterborne Adventuring in `pass_day` for `ose`
//! sessions (`march` `water` with its `water`): Travel on the Water (miles = base rate ÷ 5;
//! River travel: the current's 1d6+6 miles), Losing Direction (a navigator aboard 2-in-6;
//! without one, 100% on the open seas, 2-in-6 within sight of land) and Wandering Monsters
//! (2-in-6 on oceans or rivers, 3-in-6 in swamps; 4d6 × 10 yards away) — the secret d6s of
//! `wilderness.rs` (`lost_roll`, `wandering_roll`).

use super::commands::{R, no};
use crate::dice::Placeholders;
use crate::rules::common::decider::Decider;
use fray_protocol::bf::March;
use fray_protocol::ids::CombatantId;
use fray_protocol::ose::{Current, WaterDay, Waters};
use fray_protocol::roll::Roll;
use fray_protocol::{ErrorCode, Rejection};

/// The day's `water` fits its `march`: `water` exactly with `march` `water`, in `ose` sessions,
/// a rate within 1..=10000 and a current only on a river.
pub fn check(ose: bool, march: March, water: Option<&WaterDay>) -> Result<(), Rejection> {
    let Some(w) = water else {
        if march == March::Water {
            return Err(no(
                ErrorCode::InvalidArgument,
                "a day on the water needs its `water` (rate, waters)",
            ));
        }
        return Ok(());
    };
    if march != March::Water || !ose {
        return Err(no(
            ErrorCode::InvalidArgument,
            "`water` goes with `march` `water`, in an `ose` session (§ Travel on the Water)",
        ));
    }
    if !(1..=10_000).contains(&w.rate) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "a vessel's movement rate is within 1..=10000 feet per turn",
        ));
    }
    if w.current != Current::None && w.waters != Waters::River {
        return Err(no(
            ErrorCode::InvalidArgument,
            "a current is River travel's (§ Travel on the Water, Modifiers)",
        ));
    }
    Ok(())
}

/// § Travel on the Water, River travel: the current's 1d6+6 miles, rolled on a river with a
/// current.
pub fn current_roll(d: &mut Decider, w: &WaterDay) -> R<Option<Roll>> {
    if w.current == Current::None {
        return Ok(None);
    }
    Ok(Some(d.roll("1d6+6", &Placeholders::default())?))
}

/// § Travel on the Water, Miles per day: "dividing its base movement rate by five" (rounded
/// down), plus the current downstream or minus it upstream (not below 0).
pub fn miles(w: &WaterDay, current: Option<&Roll>) -> u32 {
    let base = w.rate / 5;
    let c = current.map_or(0, |r| u32::try_from(r.total).unwrap_or(0));
    match w.current {
        Current::None => base,
        Current::Downstream => base.saturating_add(c),
        Current::Upstream => base.saturating_sub(c),
    }
}

/// § Waterborne Adventuring, Losing Direction: the chance in six of getting lost — with a
/// navigator aboard 2; without one 6 (100%) on the open seas and 2 within sight of land.
/// *Interpretations*: on a river `None` (no check: the river is followed like a road, § Losing
/// Direction's "well-known landmarks"); in a swamp 3 (the wilderness table's swamp), a
/// navigator or not.
pub fn lost_chance(w: &WaterDay) -> Option<u32> {
    match (w.waters, w.navigator) {
        (Waters::River, _) => None,
        (Waters::Swamp, _) => Some(3),
        (Waters::Sea | Waters::Coast, true) | (Waters::Coast, false) => Some(2),
        (Waters::Sea, false) => Some(6),
    }
}

/// § Waterborne Adventuring, Wandering Monsters, Chance: "2-in-6 on oceans or rivers, 3-in-6 in
/// swamps".
pub fn wandering_chance(w: &WaterDay) -> u32 {
    match w.waters {
        Waters::Swamp => 3,
        Waters::Sea | Waters::Coast | Waters::River => 2,
    }
}

/// The day's secret checks on the water (§ Sequence of Play Per Day: losing direction, then
/// wandering monsters): the wilderness code's secret d6s.
pub fn checks(d: &mut Decider, w: &WaterDay, leader: Option<&CombatantId>) -> R {
    if let Some(lost_in) = lost_chance(w) {
        super::wilderness::lost_roll(d, lost_in, leader)?;
    }
    super::wilderness::wandering_roll(d, wandering_chance(w))
}
