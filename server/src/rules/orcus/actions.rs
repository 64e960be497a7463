//! Orcus's candidates for the legal actions (`Ruleset::actions`; see `common::actions`).

use crate::rules::common::actions as common;
use fray_protocol::ids::CombatantId;
use fray_protocol::state::Phase;
use fray_protocol::{LegalAction, SessionState};

/// The candidates for one combatant (`Some`) or for the GM's session commands (`None`).
pub fn candidates(s: &SessionState, actor: Option<&CombatantId>) -> Vec<LegalAction> {
    let Some(id) = actor else {
        return common::session(s);
    };
    let Some(me) = s.combatant(id) else {
        return Vec::new();
    };
    if s.phase == Phase::Ended {
        return common::rests(me);
    }
    let mut out = common::attacks(s, me);
    out.extend(common::help_and_release(s, me));
    out.extend(common::turn(me));
    out
}
