//! Old-School Essentials' and Basic Fantasy's candidates for the legal actions
//! (`Ruleset::actions`; see `common::actions`): each attack against each other combatant (a
//! missile at each range band), declarations, casting the declared spell, movement, holding,
//! the end of the turn; and the GM's surprise, reaction, morale and exploration rolls.

use crate::rules::common::actions::{self as common, act, gm};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::ose::{Declaration, MissileRange};
use fray_protocol::state::CombatantState;
use fray_protocol::{BxCommand as B, Command, LegalAction, SessionState};

/// The candidates for one combatant (`Some`) or for the GM's session commands (`None`).
pub fn candidates(s: &SessionState, actor: Option<&CombatantId>) -> Vec<LegalAction> {
    let Some(id) = actor else {
        return session(s);
    };
    let Some(me) = s.combatant(id) else {
        return Vec::new();
    };
    let b = |c: B| Command::Bx(c);
    let mut out = attacks(s, me);
    out.push(act(
        id,
        "End turn",
        "",
        Command::EndTurn { actor: id.clone() },
    ));
    out.push(act(
        id,
        "Cast the declared spell",
        "",
        b(B::CastSpell { actor: id.clone() }),
    ));
    out.push(act(id, "Hold", "", b(B::OseHold { actor: id.clone() })));
    for feet in [5, 10, 20, 40] {
        let mv = b(B::OseMove {
            actor: id.clone(),
            feet,
        });
        out.push(act(id, "Move", &format!("{feet}′"), mv));
    }
    for (declaration, label) in [
        (Some(Declaration::Withdraw), "fighting withdrawal"),
        (Some(Declaration::Retreat), "retreat"),
        (None, "nothing"),
    ] {
        let cmd = b(B::Declare {
            actor: id.clone(),
            declaration,
        });
        out.push(act(id, "Declare", label, cmd));
    }
    out
}

fn attacks(s: &SessionState, me: &CombatantState) -> Vec<LegalAction> {
    let mut out = Vec::new();
    for a in me.attacks.iter() {
        let ranges: &[(Option<MissileRange>, &str)] = if a.range == "missile" {
            &[
                (Some(MissileRange::Short), " (short range)"),
                (Some(MissileRange::Medium), " (medium range)"),
                (Some(MissileRange::Long), " (long range)"),
            ]
        } else {
            &[(None, "")]
        };
        for t in common::others(s, &me.id, false) {
            for (range, suffix) in ranges {
                let cmd = Command::Bx(B::OseAttack {
                    actor: me.id.clone(),
                    attack: a.id.clone(),
                    target: t.id.clone(),
                    range: *range,
                    modifier: 0,
                    behind: false,
                });
                out.push(act(&me.id, &format!("{}{suffix}", a.name), &t.name, cmd));
            }
        }
    }
    out
}

fn session(s: &SessionState) -> Vec<LegalAction> {
    let b = |c: B| Command::Bx(c);
    let mut out = common::session();
    let surprise = b(B::RollSurprise {
        sides: vec![Side::Heroes, Side::Monsters],
    });
    out.push(gm("Roll surprise", "both sides", surprise));
    out.push(gm(
        "Roll reaction",
        "",
        b(B::RollReaction { speaker: None }),
    ));
    let monsters: Vec<CombatantId> = s
        .combatants
        .iter()
        .filter(|c| c.side == Side::Monsters && c.status.is_up())
        .map(|c| c.id.clone())
        .collect();
    if !monsters.is_empty() {
        let morale = b(B::OseMorale {
            combatants: monsters,
            adjustment: 0,
        });
        out.push(gm("Morale check", "the monsters standing", morale));
    }
    for (rest, label) in [(false, "explore"), (true, "rest")] {
        let turn = b(B::ExplorationTurn {
            wandering: None,
            rest,
        });
        out.push(gm("Exploration turn", label, turn));
    }
    out
}
