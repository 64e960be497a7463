//! Darkness (`ose-adventuring.txt` § Darkness, § Infravision; `basic-fantasy-adventures.txt`
//! § Light, § Darkvision) under the session option `dark = true` (the encounter is in
//! darkness; default off, when sight is the GM's `ose_condition` `blind`).
//!
//! *Interpretation*: Fray tracks no positions, so — as for `OseCombatant::sees_in_the_dark` —
//! any light burning in the session (`light_source`, until it burns out or is doused) lights
//! everyone, and while one burns darkvision does not work (§ Infravision, Disruption: "Visible
//! light … will disrupt it"; § Darkvision: "ineffective in any light greater than
//! moonlight"). With no light, a combatant with darkvision (content `darkvision` > 0) sees; one
//! without is treated as § Blindness: "A blind character is unable to attack" (refusal
//! `blinded`). Ranges (30′ light, 60′ darkvision) are the GM's.

use super::Sheets;
use super::commands::{R, name, no};
use crate::rules::common::decider::Decider;
use fray_protocol::ErrorCode;
use fray_protocol::ids::CombatantId;
use fray_protocol::ose::OseCombatant;

/// Whether the combatant sees nothing: the encounter is dark, no light burns, and it has no
/// darkvision.
pub fn in_the_dark(s: &Sheets, sh: &OseCombatant) -> bool {
    let b = s.battle();
    b.options.dark && b.exploration.lights.is_empty() && !sh.sees_in_the_dark(&b)
}

/// § Blindness, in the dark: unable to attack.
pub fn may_attack(d: &Decider, s: &Sheets, sh: &OseCombatant, actor: &CombatantId) -> R {
    if in_the_dark(s, sh) {
        return Err(no(
            ErrorCode::Blinded,
            format!(
                "{} sees nothing in the dark (no light burns and it has no darkvision) and is \
                 unable to attack (§ Darkness; § Blindness)",
                name(d, actor)
            ),
        ));
    }
    Ok(())
}
