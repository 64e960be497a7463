//! Authorization: the one place that decides whether a role may send a command.
//!
//! Architecture invariant: this knows roles and command actors, nothing of the rules. Rule
//! legality (whose turn, which actions) is decided by the ruleset afterwards.

use fray_protocol::{Command, ErrorCode, Rejection, Role};

/// Whether `role` may send `command`.
pub fn authorize(role: &Role, command: &Command) -> Result<(), Rejection> {
    match role {
        Role::Gm => Ok(()),
        Role::Spectator => Err(Rejection::new(
            ErrorCode::SpectatorCannotCommand,
            "spectators watch; they send no game commands",
        )),
        Role::Player { name, controls } => match command.actor() {
            Some(actor) if controls.contains(actor) => Ok(()),
            Some(actor) => Err(Rejection::new(
                ErrorCode::NotYourCombatant,
                format!("player '{name}' does not control {actor}"),
            )),
            // Chat and free rolls speak for the seat, not a combatant.
            None if command.is_table_talk() => Ok(()),
            None => Err(Rejection::new(
                ErrorCode::GmOnly,
                format!("only the GM may send {}", command.kind()),
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fray_protocol::CombatantId;

    #[test]
    fn roles_are_enforced() {
        let alice = Role::Player {
            name: "alice".into(),
            controls: vec![CombatantId::new("brakka")],
        };
        let own = Command::EndTurn {
            actor: CombatantId::new("brakka"),
        };
        let other = Command::EndTurn {
            actor: CombatantId::new("vex"),
        };
        assert!(authorize(&alice, &own).is_ok());
        assert_eq!(
            authorize(&alice, &other).unwrap_err().code,
            ErrorCode::NotYourCombatant
        );
        assert_eq!(
            authorize(&alice, &Command::StartBattle).unwrap_err().code,
            ErrorCode::GmOnly
        );
        assert_eq!(
            authorize(&Role::Spectator, &own).unwrap_err().code,
            ErrorCode::SpectatorCannotCommand
        );
        assert!(authorize(&Role::Gm, &other).is_ok());
        let chat = Command::Chat {
            text: "hi".into(),
            to: Default::default(),
        };
        assert!(authorize(&alice, &chat).is_ok(), "players talk");
        assert_eq!(
            authorize(&Role::Spectator, &chat).unwrap_err().code,
            ErrorCode::SpectatorCannotCommand
        );
        assert_eq!(
            authorize(&alice, &Command::RewindTo { seq: 1 })
                .unwrap_err()
                .code,
            ErrorCode::GmOnly
        );
        assert!(authorize(&Role::Gm, &Command::StartBattle).is_ok());
    }
}
