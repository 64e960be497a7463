//! Old-School Essentials' and Basic Fantasy's candidates for the legal actions
//! (`Ruleset::actions`; see `common::actions`).

use crate::rules::common::actions::{self as common, act};
use fray_protocol::ids::CombatantId;
use fray_protocol::{BxCommand, Command, LegalAction, SessionState};

/// The candidates for one combatant (`Some`) or for the GM's session commands (`None`).
pub fn candidates(s: &SessionState, actor: Option<&CombatantId>) -> Vec<LegalAction> {
    let Some(id) = actor else {
        return common::session(s);
    };
    let Some(me) = s.combatant(id) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for a in &me.attacks {
        for t in common::others(s, id, false) {
            let cmd = Command::Bx(BxCommand::OseAttack {
                actor: id.clone(),
                attack: a.id.clone(),
                target: t.id.clone(),
                range: None,
                modifier: 0,
                behind: false,
            });
            out.push(act(id, &a.name, &t.name, cmd));
        }
    }
    out.extend(common::turn(me));
    out
}
