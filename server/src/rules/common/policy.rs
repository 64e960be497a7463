//! What every ruleset's built-in policy (the demo bots; the server playing monsters) shares.

use fray_protocol::ids::{CombatantId, Role, Side};
use fray_protocol::state::{CombatantState, LifeStatus, Phase};
use fray_protocol::{Command, SessionState};

/// Whether `role` plays `id`: the GM the monsters, a player its seat's heroes.
pub fn controls(role: &Role, s: &SessionState, id: &CombatantId) -> bool {
    match role {
        Role::Gm => s.combatant(id).is_some_and(|c| c.side == Side::Monsters),
        Role::Player { controls, .. } => controls.contains(id),
        Role::Spectator => false,
    }
}

/// After a battle of a session with rests (every ruleset with rests): the GM has every hero
/// take a quick (short) rest, healing with one recovery when staggered, then brings in the next
/// battle when there is one and a hero is up, or ends the session.
pub fn between_battles(s: &SessionState) -> Option<Command> {
    let resting = s
        .combatants
        .iter()
        .find(|c| c.side == Side::Heroes && !c.rested && c.status != LifeStatus::Dead);
    Some(match resting {
        Some(h) => Command::QuickRest {
            actor: h.id.clone(),
            recoveries: u32::from(h.staggered && h.recoveries > 0),
        },
        None if s.battle < s.battles
            && s.combatants
                .iter()
                .any(|c| c.side == Side::Heroes && c.status == LifeStatus::Conscious) =>
        {
            Command::NextBattle
        }
        None => Command::EndSession,
    })
}

/// The phases every simple policy handles alike: the GM starts a battle being set up, and after
/// a battle brings in the next one (a hero still standing) or ends the session; `None` while
/// the battle runs (the policy plays it) or when there is nothing left to do.
pub fn outside_battle(role: &Role, s: &SessionState) -> Option<Option<Command>> {
    let gm = matches!(role, Role::Gm);
    match s.phase {
        Phase::Running => None,
        Phase::Setup if gm => Some(Some(Command::StartBattle)),
        Phase::Ended if gm && !s.seed_revealed && !s.session_over => {
            let hero_up = s
                .combatants
                .iter()
                .any(|c| c.side == Side::Heroes && c.status == LifeStatus::Conscious);
            Some(Some(if s.battle < s.battles && hero_up {
                Command::NextBattle
            } else {
                Command::EndSession
            }))
        }
        _ => Some(None),
    }
}

/// The combatant whose turn it is, when `role` plays it.
pub fn my_turn<'a>(role: &Role, s: &'a SessionState) -> Option<&'a CombatantState> {
    let id = s.current.as_ref()?;
    if !controls(role, s, id) {
        return None;
    }
    s.combatant(id)
}

#[cfg(test)]
mod tests {
    use crate::rules::common::testing::new_engine;
    use crate::rules::{builtin_encounters, load_encounter, ruleset};
    use fray_protocol::ids::Role;
    use fray_protocol::state::Phase;

    /// Every built-in encounter of every ruleset: the policy plays the GM and every hero until
    /// the session is over, and every command it chooses is accepted.
    #[test]
    fn every_rulesets_policy_plays_each_built_in_encounter_to_its_end_with_legal_commands() {
        for row in crate::rules::RULESETS {
            let bot = ruleset(row.id).and_then(|r| r.bot).expect("a policy");
            for (name, text) in builtin_encounters(row.id) {
                let enc = load_encounter(name, text).unwrap();
                let mut e = new_engine(&enc, 11);
                for salt in 0..3_000u64 {
                    let s = e.state();
                    let heroes = Role::Player {
                        name: "table".into(),
                        controls: s
                            .combatants
                            .iter()
                            .filter(|c| c.side == fray_protocol::Side::Heroes)
                            .map(|c| c.id.clone())
                            .collect(),
                    };
                    let Some(cmd) = bot(&Role::Gm, &s, salt).or_else(|| bot(&heroes, &s, salt))
                    else {
                        break;
                    };
                    if let Err(r) = e.execute(&cmd) {
                        panic!("{} {name}: {cmd:?} refused: {r}", row.id);
                    }
                }
                let s = e.state();
                assert_eq!(
                    s.phase,
                    Phase::Ended,
                    "{} {name}: the fight ends: current {:?} round {} order {:?} {:?}",
                    row.id,
                    s.current,
                    s.round,
                    s.order,
                    s.combatants
                        .iter()
                        .map(|c| (
                            &c.id,
                            c.side,
                            c.status,
                            c.ose.as_ref().map(|o| (o.fled, o.acted))
                        ))
                        .collect::<Vec<_>>()
                );
                assert!(
                    s.seed_revealed || s.session_over,
                    "{} {name}: the session is over",
                    row.id
                );
            }
        }
    }
}
