//! Five Torches Deep's candidates for the legal actions (`Ruleset::actions`; see
//! `common::actions`): the common attacks, moves and turn commands, and its own — retreat,
//! delaying after another combatant, special movement, ending a concentration — and the GM's
//! travel turn, rests and the resolution of a retreat.

use crate::rules::common::actions::{self as common, act, gm};
use fray_protocol::ftd::Advantage;
use fray_protocol::ids::CombatantId;
use fray_protocol::{Command, FiveTorchesCommand as F, LegalAction, SessionState};

/// The candidates for one combatant (`Some`) or for the GM's session commands (`None`).
pub fn candidates(s: &SessionState, actor: Option<&CombatantId>) -> Vec<LegalAction> {
    let Some(id) = actor else {
        return session();
    };
    let Some(me) = s.combatant(id) else {
        return Vec::new();
    };
    let f = |c: F| Command::FiveTorches(c);
    let mut out = common::attacks(s, me);
    out.extend(common::moves(s, me));
    out.extend(common::help_and_release(s, me));
    out.extend(common::turn(me));
    out.push(act(id, "Retreat", "", f(F::Retreat { actor: id.clone() })));
    let stop = f(F::EndConcentration { actor: id.clone() });
    out.push(act(id, "End concentration", "", stop));
    for other in common::others(s, id, false) {
        let delay = f(F::DelayTo {
            actor: id.clone(),
            after: other.id.clone(),
        });
        out.push(act(id, "Delay", &format!("after {}", other.name), delay));
        let special = f(F::SpecialMove {
            actor: id.clone(),
            engage: Some(other.id.clone()),
            far_away: false,
        });
        out.push(act(id, "Special move", &other.name, special));
    }
    out
}

fn session() -> Vec<LegalAction> {
    let f = |c: F| Command::FiveTorches(c);
    let mut out = common::session();
    let resolve = f(F::ResolveRetreat {
        check: None,
        attackers: Vec::new(),
    });
    out.push(gm("Resolve the retreat", "", resolve));
    let travel = f(F::TravelTurn {
        advantage: Advantage::None,
    });
    out.push(gm("Travel turn", "", travel));
    for (safe, label) in [(true, "safe"), (false, "unsafe")] {
        let rest = f(F::Rest { safe, nights: 1 });
        out.push(gm("Rest a night", label, rest));
    }
    out
}
