//! Monsters played by the server (GM tools): `auto_play` hands combatants to the session's
//! ruleset's built-in policy (its registry row's `bot`, the demo bots' play) and takes them
//! back. The session keeps the set (from the log's `auto_play_set` events; it is not game state,
//! so a rewind leaves it alone). After each group of commands the session task asks
//! [`next_command`] and stages what it returns through the same decide path as the GM's, as the
//! client `auto`.

use crate::engine::Engine;
use fray_protocol::ids::Role;
use fray_protocol::{CombatantId, Command, ErrorCode, GameEvent, Rejection, SessionState};
use std::collections::BTreeSet;

/// The log's client name of the commands the server sends for handed-over combatants.
pub const CLIENT: &str = "auto";

/// Decides `auto_play` (`None` for any other command): every named combatant (and every one of
/// `side`) exists, and the ruleset has a built-in policy.
pub fn decide(engine: &Engine, command: &Command) -> Option<Result<Vec<GameEvent>, Rejection>> {
    let Command::AutoPlay {
        combatants,
        side,
        on,
    } = command
    else {
        return None;
    };
    Some(
        resolve(&engine.state(), combatants, *side).map(|combatants| {
            vec![GameEvent::AutoPlaySet {
                combatants,
                on: *on,
            }]
        }),
    )
}

fn resolve(
    state: &SessionState,
    named: &[CombatantId],
    side: Option<fray_protocol::Side>,
) -> Result<Vec<CombatantId>, Rejection> {
    if crate::rules::ruleset(&state.ruleset)
        .and_then(|r| r.bot)
        .is_none()
    {
        return Err(Rejection::new(
            ErrorCode::InvalidArgument,
            format!(
                "the server has no built-in policy to play {} combatants yet",
                state.ruleset
            ),
        ));
    }
    let mut out = BTreeSet::new();
    for id in named {
        if !state.combatants.iter().any(|c| &c.id == id) {
            return Err(Rejection::new(
                ErrorCode::UnknownCombatant,
                format!("no combatant '{id}' in this fight"),
            ));
        }
        out.insert(id.clone());
    }
    if let Some(side) = side {
        out.extend(
            state
                .combatants
                .iter()
                .filter(|c| c.side == side)
                .map(|c| c.id.clone()),
        );
    }
    if out.is_empty() {
        return Err(Rejection::new(
            ErrorCode::InvalidArgument,
            "name the combatants (or a side) to hand over or take back",
        ));
    }
    Ok(out.into_iter().collect())
}

/// Keeps the set of handed-over combatants up to date with an event.
pub fn follow(auto: &mut BTreeSet<CombatantId>, event: &GameEvent) {
    if let GameEvent::AutoPlaySet { combatants, on } = event {
        for c in combatants {
            if *on {
                auto.insert(c.clone());
            } else {
                auto.remove(c);
            }
        }
    }
}

/// The policy's next command for the handed-over combatants, if one of them may act now: an
/// open opportunity attack, or the turn of one of them. Never a command for anyone else.
pub fn next_command(
    state: &SessionState,
    auto: &BTreeSet<CombatantId>,
    salt: u64,
) -> Option<Command> {
    if auto.is_empty() || state.seed_revealed {
        return None;
    }
    let role = Role::Player {
        name: CLIENT.into(),
        controls: auto.iter().cloned().collect(),
    };
    let (_, command) = crate::demo::bot::next_for_table(state, &[role], salt)?;
    command
        .actor()
        .is_some_and(|a| auto.contains(a))
        .then_some(command)
}

#[cfg(test)]
mod tests;
