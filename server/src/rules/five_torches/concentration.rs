//! Five Torches Deep concentration (`five-torches-deep-combat.txt`):
//! - § Quick Actions: "maintaining concentration" is a quick action — `concentrate` spends the
//!   actor's quick action (traded down from a bigger one as any quick action) to start
//!   concentrating on a named effect or to maintain the one it holds; a turn that ends without
//!   it (`maintained` still false) lapses the concentration (Fray's reading: starting it is the
//!   turn's maintenance; one concentration at a time);
//! - § Retreat: "Concentration effects immediately halt once the PC retreats";
//! - interpretation (the text is silent): incapacitation (0 hp, "unable to act") or death ends
//!   it, and so does leaving the battle (fled, surrendered); the combatant may drop it freely.

use super::Sheets;
use super::commands::{R, fighter, name, no, pay, sheet, up};
use crate::rules::common::decider::Decider;
use fray_protocol::ErrorCode;
use fray_protocol::FiveTorchesEvent;
use fray_protocol::event::{ActionKind, GameEvent};
use fray_protocol::ftd::ConcentrationEnd;
use fray_protocol::ids::CombatantId;

/// The effect `id` concentrates on, unless it ended earlier in this decision.
fn held(d: &Decider, s: &Sheets, id: &CombatantId) -> Option<(String, bool)> {
    let c = s.get(id)?.0.concentration.clone()?;
    let ended = d
        .events()
        .iter()
        .any(|e| matches!(e, GameEvent::FiveTorches(FiveTorchesEvent::ConcentrationEnded { combatant, .. }) if combatant == id));
    (!ended).then_some((c.effect, c.maintained))
}

fn end(d: &mut Decider, s: &Sheets, id: &CombatantId, reason: ConcentrationEnd) {
    if let Some((effect, _)) = held(d, s, id) {
        d.emit(GameEvent::FiveTorches(
            FiveTorchesEvent::ConcentrationEnded {
                combatant: id.clone(),
                effect,
                reason,
            },
        ));
    }
}

/// § Quick Actions: start or maintain a concentration (the quick action).
pub fn concentrate(d: &mut Decider, s: &Sheets, actor: &CombatantId, effect: &str) -> R {
    let effect = effect.trim();
    if effect.is_empty() || effect.len() > 80 {
        return Err(no(
            ErrorCode::InvalidArgument,
            "name the effect in 1-80 characters",
        ));
    }
    fighter(d, actor)?;
    let maintained = match held(d, s, actor) {
        Some((held, _)) if held != effect => {
            return Err(no(
                ErrorCode::AlreadyConcentrating,
                format!(
                    "{} already concentrates on {held} (end_concentration first)",
                    name(d, actor)
                ),
            ));
        }
        Some((_, true)) => {
            return Err(no(
                ErrorCode::AlreadyConcentrating,
                format!(
                    "{} already maintained the concentration this turn",
                    name(d, actor)
                ),
            ));
        }
        Some(_) => true,
        None => false,
    };
    pay(d, s, actor, ActionKind::Quick)?;
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::Concentrating {
        combatant: actor.clone(),
        effect: effect.to_owned(),
        maintained,
    }));
    Ok(())
}

/// The combatant lets its concentration go (free, at any time).
pub fn drop(d: &mut Decider, s: &Sheets, actor: &CombatantId) -> R {
    fighter(d, actor)?;
    sheet(s, actor)?;
    if held(d, s, actor).is_none() {
        return Err(no(
            ErrorCode::NotConcentrating,
            format!("{} concentrates on nothing", name(d, actor)),
        ));
    }
    end(d, s, actor, ConcentrationEnd::Dropped);
    Ok(())
}

/// § Retreat: the retreating PC's concentration halts at once.
pub fn retreated(d: &mut Decider, s: &Sheets, actor: &CombatantId) {
    end(d, s, actor, ConcentrationEnd::Retreat);
}

/// § Quick Actions: at the end of its turn, a concentration its quick action did not maintain
/// lapses.
pub fn turn_ending(d: &mut Decider, s: &Sheets, actor: &CombatantId) {
    if held(d, s, actor).is_some_and(|(_, maintained)| !maintained) {
        end(d, s, actor, ConcentrationEnd::Lapsed);
    }
}

/// Interpretation: those no longer up (incapacitated, dead, fled, surrendered) concentrate on
/// nothing. `true` when it ended some (the pass emits only that).
pub fn sweep(d: &mut Decider, s: &Sheets) -> bool {
    let ids: Vec<CombatantId> = d.field.all().map(|f| f.c.id.clone()).collect();
    let mut any = false;
    for id in ids {
        if held(d, s, &id).is_none() || up(d, s, &id) {
            continue;
        }
        let gone = s.get(&id).is_some_and(|(sh, _)| sh.departed.is_some());
        let reason = if gone {
            ConcentrationEnd::LeftBattle
        } else {
            ConcentrationEnd::Incapacitated
        };
        end(d, s, &id, reason);
        any = true;
    }
    any
}
