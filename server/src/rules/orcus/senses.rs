//! Eyesight and earshot areas (`orcus-basic-rules.txt` § Areas of effect, the special sizes
//! "eyesight" and "earshot"): the area is every creature the user can see, or every creature
//! that can hear the user, rather than a burst or blast of squares.
//!
//! - Eyesight: § Line of sight from the user's space to some part of the creature's space
//!   (opaque obstacles block it, transparent ones do not). A blinded user sees nothing, so its
//!   eyesight area is empty (interpretation of § Blinded).
//! - Earshot: the text gives no range and Orcus has no deafness or noise rules, so by default
//!   every creature on the map hears the user, walls or not (interpretation: an encounter map is
//!   within shouting distance; sound carries around obstacles). A map may set `[map] earshot =
//!   N`: then only creatures within N squares (§ Range from the user's space, walls ignored)
//!   hear it (`hears`).
//! - `or` / `and` combine the two (the skill actions' "Near eyesight or earshot" and "Near
//!   eyesight and earshot").

use super::geometry::{Geo, Space};
use fray_protocol::grid::{MapState, Square};
use std::collections::BTreeSet;

/// The squares of the creatures (`others`: each space, and whether the user could see it at
/// all — false for a creature hidden from it, § Stealth) inside an eyesight/earshot area of a
/// user at `user`; `senses` is [`crate::content::model::Origin::senses`]: `(sight, hearing,
/// both needed)`. A hidden creature still hears the user.
pub fn sensed(
    g: &Geo,
    map: Option<&MapState>,
    user: Space,
    blinded: bool,
    senses: (bool, bool, bool),
    others: impl IntoIterator<Item = (Space, bool)>,
) -> BTreeSet<Square> {
    let (sight, hearing, both) = senses;
    let mut out = BTreeSet::new();
    for (s, visible) in others {
        let seen = sight && visible && sees(Some(g), user, blinded, s);
        let heard = hearing && hears(map, user, s);
        let inside = if both { seen && heard } else { seen || heard };
        if inside {
            out.extend(s.squares());
        }
    }
    out
}

/// Whether a user at `user` sees a creature at `other` (§ Line of sight; a blinded user sees
/// nothing; without a battle map everyone is in sight). Eyesight areas and the skill actions
/// that work in eyesight (Create Diversion, Unnerve) share it.
pub fn sees(g: Option<&Geo>, user: Space, blinded: bool, other: Space) -> bool {
    !blinded && g.is_none_or(|g| g.line_of_sight(user, other))
}

/// Whether a creature at `other` hears a user at `user`: within the map's `earshot` radius
/// (§ Range, walls ignored), or anywhere when the map sets none (or there is no map). Earshot
/// areas and the skill actions that work in earshot (Deter, Unnerve) share it.
pub fn hears(map: Option<&MapState>, user: Space, other: Space) -> bool {
    map.and_then(|m| m.earshot)
        .is_none_or(|r| super::geometry::distance(user, other) <= r)
}
