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

use super::commands::{R, no};
use super::elevation::MAX_HEIGHT;
use super::geometry::{self, Body, Space};
use crate::content::model::{Origin, PowerSpec};
use fray_protocol::ErrorCode;
use fray_protocol::grid::Square;

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
