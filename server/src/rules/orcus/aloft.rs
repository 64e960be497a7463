//! Orcus heights beyond the text (`orcus-basic-rules.txt` has no altitude rules; Fourth
//! Edition's 3-D reading, an interpretation that extends `elevation.rs`):
//! - **far areas centred aloft** (§ Areas of effect): `area_attack`'s `origin_height` lifts a far
//!   burst's or far blast's origin square off the ground. The range to the origin counts the
//!   height as [`geometry::distance_3d`] does (the larger of the ground range and the height gap
//!   between the user's cubes and the origin's cube); a far burst n then spans the origin
//!   height ± n (clamped at the ground), a far blast hangs from the origin's cube down
//!   ([`geometry::blast_heights`]). Line of effect to the origin square is judged on the ground
//!   plane as for every other line (walls are full height); cover is judged from the origin
//!   cube at its height.
//! - **flying over creatures** (§ Moving, occupied squares): a mover passes over or under a
//!   creature whose cubes do not overlap its own ([`level_with`]), and may end its move there;
//!   a creature whose column overlaps the mover's heights is an occupant as on the ground.
//! - **forced movement aloft** (§ Unwilling movement): a creature pushed, pulled or shunted
//!   while aloft keeps its height and moves horizontally at it; only creatures whose cubes
//!   overlap its own stop it.

use super::Board;
use super::commands::{R, no, occupant_among, occupants, space};
use super::elevation::{self, MAX_HEIGHT};
use super::geometry::{self, Body, Space};
use crate::content::model::{Origin, PowerSpec};
use crate::rules::common::decider::Decider;
use fray_protocol::ErrorCode;
use fray_protocol::OrcusEvent;
use fray_protocol::event::GameEvent;
use fray_protocol::grid::{MoveMode, Square};
use fray_protocol::ids::CombatantId;

/// Checks `area_attack`'s `origin_height` before anything else is decided: only a far burst or
/// far blast has an origin off the user (`invalid_argument` otherwise), and a height is 0 to
/// [`MAX_HEIGHT`] squares, as for a creature (`invalid_argument`).
pub(super) fn check_origin_height(p: &PowerSpec, h: Option<i32>) -> R {
    let Some(h) = h else {
        return Ok(());
    };
    if !matches!(p.origin, Origin::FarBurst { .. } | Origin::FarBlast { .. }) {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!(
                "{} is not a far area: only a far burst or blast takes an origin_height",
                p.name
            ),
        ));
    }
    if !(0..=MAX_HEIGHT).contains(&h) {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("origin_height {h}: a height is 0 to {MAX_HEIGHT} squares"),
        ));
    }
    Ok(())
}

/// A far area's origin: the square `o` at `h` squares up (the ground when absent), within the
/// power's `range` of `user` counting the height (`out_of_range` otherwise; the ground range
/// was already checked by the grid library).
pub(super) fn far_origin(p: &PowerSpec, user: Body, o: Square, h: Option<i32>) -> R<Body> {
    let origin = Body {
        space: Space::single(o),
        height: h.unwrap_or(0),
    };
    let range = match p.origin {
        Origin::FarBurst { range, .. } | Origin::FarBlast { range, .. } => range,
        _ => return Ok(origin),
    };
    let dist = geometry::distance_3d(user, origin);
    if dist > range {
        return Err(no(
            ErrorCode::OutOfRange,
            format!(
                "{}: the origin {o} {} squares up is {dist} squares away counting height; its range is {range}",
                p.name, origin.height
            ),
        ));
    }
    Ok(origin)
}
/// Whether the columns of `mover` (at its present height, in a space of its size) and `other`
/// share a height: only then does `other` occupy the squares of its space for `mover`'s
/// movement (everyone on the ground: always).
pub(super) fn level_with(d: &Decider, b: &Board, mover: &CombatantId, other: &CombatantId) -> bool {
    let (Ok(m), Ok(o)) = (elevation::body(d, b, mover), elevation::body(d, b, other)) else {
        return true;
    };
    m.heights().overlaps(o.heights())
}

/// After a fall: a creature that comes down onto another's space (it hovered over it, or was
/// moved over it while aloft) lands in the nearest unoccupied space instead — the space nearest
/// its own, then the first in row order — moved there unwillingly (`grid_moved`, mode
/// `unwilling`: it provokes nothing). Interpretation: the text has no falls; two creatures never
/// share a space at one height.
pub(super) fn land_clear(d: &mut Decider, b: &Board, who: &CombatantId) {
    let (Ok(mut sp), Some(map)) = (space(d, b, who), b.map.0.as_ref()) else {
        return;
    };
    // A rider thrown or dismounted in this decision stands in its landing square.
    if let Some(at) = d.events().iter().rev().find_map(|e| match e {
        GameEvent::Orcus(OrcusEvent::Dismounted { rider, square, .. }) if rider == who => {
            Some(Some(*square))
        }
        GameEvent::Orcus(OrcusEvent::GridMoved { combatant, .. }) if combatant == who => Some(None),
        _ => None,
    }) && let Some(at) = at
    {
        sp.at = at;
    }
    // The search changes nothing: the occupants are gathered once for every square tried.
    let occupied = occupants(d, b, who);
    let free = |at: Space| {
        at.squares().all(|s| {
            geometry::on_map(map, s)
                && !geometry::solid(map, s)
                && occupant_among(&occupied, s).is_none()
        })
    };
    if free(sp) {
        return;
    }
    let best = (0..map.height)
        .flat_map(|y| (0..map.width).map(move |x| Square::new(x, y)))
        .map(|at| Space { at, size: sp.size })
        .filter(|c| free(*c))
        .min_by_key(|c| (geometry::distance(sp, *c), c.at.y, c.at.x));
    if let Some(to) = best {
        d.emit(GameEvent::Orcus(OrcusEvent::GridMoved {
            combatant: who.clone(),
            path: vec![to.at],
            cost: 0,
            mode: MoveMode::Unwilling,
        }));
    }
}

/// Whether another creature in the fight (`who`'s mount or rider aside) has a space covering
/// `s` at any height: a square to land in from a mount must have its whole column clear, as
/// the rider may come down to the ground there (so mounting and dismounting keep the ground
/// rule).
pub(super) fn column_occupied(d: &Decider, b: &Board, who: &CombatantId, s: Square) -> bool {
    d.field.all().any(|f| {
        &f.c.id != who
            && !matches!(
                f.vit.0,
                fray_protocol::state::LifeStatus::Dead | fray_protocol::state::LifeStatus::Slain
            )
            && !super::mounts::shares_space(b, &f.c.id, who)
            && space(d, b, &f.c.id).is_ok_and(|sp| sp.covers(s))
    })
}
