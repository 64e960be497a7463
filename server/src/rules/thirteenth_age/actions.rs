//! 13th Age's candidates for the legal actions (`Ruleset::actions`; see `common::actions`):
//! the common attacks, moves and turn commands, and its own — disengage, intercept, delay,
//! potions, fighting in spirit — and the GM's escalation die and knock-out ruling.

use crate::rules::common::actions::{self as common, act, gm};
use fray_protocol::command::EscalationAction;
use fray_protocol::event::BonusStat;
use fray_protocol::ids::CombatantId;
use fray_protocol::state::{LifeStatus, Phase};
use fray_protocol::{Command, LegalAction, SessionState, ThirteenthAgeCommand as T};

/// The candidates for one combatant (`Some`) or for the GM's session commands (`None`).
pub fn candidates(s: &SessionState, actor: Option<&CombatantId>) -> Vec<LegalAction> {
    match actor {
        None => session(s),
        Some(id) => combatant(s, id),
    }
}

fn session(s: &SessionState) -> Vec<LegalAction> {
    let mut out = common::session();
    let esc = |action| Command::ThirteenthAge(T::Escalation { action });
    out.push(gm("Escalation die", "hold", esc(EscalationAction::Hold)));
    out.push(gm(
        "Escalation die",
        "resume",
        esc(EscalationAction::Resume),
    ));
    out.push(gm("Escalation die", "reset", esc(EscalationAction::Reset)));
    let allowed = !s.knock_outs_allowed;
    let label = if allowed { "allow" } else { "refuse" };
    out.push(gm("Knock-out blows", label, Command::KnockOuts { allowed }));
    out
}

fn combatant(s: &SessionState, id: &CombatantId) -> Vec<LegalAction> {
    let Some(me) = s.combatant(id) else {
        return Vec::new();
    };
    if s.phase == Phase::Ended {
        return common::rests(me);
    }
    let mut out = common::attacks(s, me);
    out.extend(common::moves(s, me));
    out.extend(common::help_and_release(s, me));
    out.extend(common::turn(me));
    let own = |c: T| Command::ThirteenthAge(c);
    out.push(act(
        id,
        "Disengage",
        "",
        own(T::Disengage { actor: id.clone() }),
    ));
    out.push(act(id, "Delay", "", own(T::Delay { actor: id.clone() })));
    out.push(act(
        id,
        "Act now",
        "",
        own(T::Undelay { actor: id.clone() }),
    ));
    if let Some(mover) = s.last_mover.as_ref().and_then(|m| s.combatant(m)) {
        let cmd = own(T::Intercept {
            actor: id.clone(),
            mover: mover.id.clone(),
        });
        out.push(act(id, "Intercept", &mover.name, cmd));
    }
    for ally in s.combatants.iter().filter(|c| c.side == me.side) {
        if me.potions > 0 {
            let cmd = own(T::UsePotion {
                actor: id.clone(),
                target: ally.id.clone(),
            });
            out.push(act(id, "Healing potion", &ally.name, cmd));
        }
        if ally.id != *id && me.status != LifeStatus::Conscious {
            for (stat, name) in [
                (BonusStat::Attack, "attack"),
                (BonusStat::Ac, "AC"),
                (BonusStat::Pd, "PD"),
                (BonusStat::Md, "MD"),
            ] {
                let cmd = own(T::FightInSpirit {
                    actor: id.clone(),
                    ally: ally.id.clone(),
                    stat,
                });
                out.push(act(
                    id,
                    "Fight in spirit",
                    &format!("{}: {name}", ally.name),
                    cmd,
                ));
            }
        }
    }
    out
}
