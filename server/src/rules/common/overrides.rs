//! GM overrides decided the same way in every ruleset, by the one decide wrapper
//! (`decide::DecideIo::decide`) before the ruleset's own decide: corrections of the numbers
//! that change no status, so no ruleset's rule is bypassed.
//!
//! - `set_hp`: a combatant in the fight gets 1 to its maximum hit points and temporary hit
//!   points ≥ 0; a combatant that is down is refused (the rules' healing and revival bring it
//!   back). The event carries the change, so a public fold (a monster's `hp_after` hidden)
//!   gives the same state.

use super::decider::Decider;
use super::guards::R;
use fray_protocol::{Command, ErrorCode, GameEvent, Rejection};

/// Decides an override (`None` for any other command).
pub fn decide(d: &mut Decider, command: &Command) -> Option<R> {
    match command {
        Command::SetHp {
            target,
            hp,
            temp_hp,
        } => Some(set_hp(d, target, *hp, *temp_hp)),
        _ => None,
    }
}

fn bad(message: String) -> Rejection {
    Rejection::new(ErrorCode::InvalidArgument, message)
}

fn set_hp(
    d: &mut Decider,
    target: &fray_protocol::CombatantId,
    hp: i32,
    temp_hp: Option<i32>,
) -> R {
    let Some(f) = d.field.get(target) else {
        return Err(Rejection::new(
            ErrorCode::UnknownCombatant,
            format!("no combatant '{target}' in this fight"),
        ));
    };
    let (current, max, temp) = (f.hp.current, f.hp.max, f.hp.temp);
    if !f.vit.0.is_up() {
        return Err(bad(format!(
            "{target} is down ({:?}): an override does not revive; heal or revive it by the rules",
            f.vit.0
        )));
    }
    if !(1..=max).contains(&hp) {
        return Err(bad(format!(
            "{target}'s hit points can be set from 1 to its maximum {max} (an override drops no one: deal damage by the rules)"
        )));
    }
    let temp_after = temp_hp.unwrap_or(temp);
    if temp_after < 0 {
        return Err(bad("temporary hit points cannot be negative".into()));
    }
    d.emit(GameEvent::HpOverridden {
        target: target.clone(),
        change: hp - current,
        hp_after: Some(hp),
        temp_after,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::common::testing::*;
    use fray_protocol::CombatantId;

    fn set(target: &str, hp: i32, temp_hp: Option<i32>) -> Command {
        Command::SetHp {
            target: CombatantId::new(target),
            hp,
            temp_hp,
        }
    }

    #[test]
    fn set_hp_changes_the_numbers_in_every_ruleset_and_nothing_else() {
        for ruleset in crate::rules::ids() {
            let (name, text) = crate::rules::builtin_encounters(ruleset)[0];
            let enc = crate::rules::load_encounter(name, text).unwrap();
            let mut e = new_engine(&enc, 5);
            let state = e.state();
            let c = &state.combatants[0];
            let (max, id) = (c.max_hp.unwrap_or(1), c.id.to_string());
            let events = run(&mut e, &set(&id, 1, Some(3)));
            assert!(
                matches!(&events[..], [GameEvent::HpOverridden { change, .. }] if *change == 1 - c.hp.unwrap_or(0)),
                "{ruleset}: {events:?}"
            );
            let after = e.state();
            let a = after.combatants.iter().find(|x| x.id == c.id).unwrap();
            assert_eq!(
                (a.hp, a.temp_hp, a.status),
                (Some(1), 3, c.status),
                "{ruleset}"
            );
            for (hp, temp) in [(0, None), (max + 1, None), (1, Some(-1))] {
                let r = refusal(&mut e, &set(&id, hp, temp));
                assert_eq!(
                    r.code,
                    ErrorCode::InvalidArgument,
                    "{ruleset} {hp} {temp:?}"
                );
            }
            assert_eq!(
                refusal(&mut e, &set("nobody", 1, None)).code,
                ErrorCode::UnknownCombatant
            );
        }
    }
}
