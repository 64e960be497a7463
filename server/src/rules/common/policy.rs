//! What every ruleset's built-in policy (the demo bots; the server playing monsters) shares.

use fray_protocol::ids::{CombatantId, Role, Side};
use fray_protocol::state::LifeStatus;
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
