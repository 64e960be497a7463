//! Commands: what clients ask the server to do. Each is authorized by role, then decided by the
//! session's ruleset; an accepted command becomes logged events, a refused one a `Rejected`.

use crate::ids::CombatantId;
use serde::{Deserialize, Serialize};

/// A game command. Commands that act for a combatant name it as `actor`; a player may only name
/// combatants it controls. Commands without an actor are GM commands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Command {
    /// GM: roll initiative for everyone and begin round 1.
    StartBattle,
    /// Attack with one of the actor's attacks (`melee`/`ranged` basic attacks or a named attack
    /// from its stat block) against the listed targets.
    Attack {
        /// Who attacks.
        actor: CombatantId,
        /// The attack's id in the actor's stat block.
        attack: String,
        /// The targets, in the order they are attacked.
        targets: Vec<CombatantId>,
    },
    /// Spend the move action (repositioning; engagement arrives with the full position rules).
    Move {
        /// Who moves.
        actor: CombatantId,
    },
    /// 13th Age rally: a standard action spending a recovery (a later rally needs an 11+ save).
    Rally {
        /// Who rallies.
        actor: CombatantId,
    },
    /// End the actor's turn (end-of-turn ongoing damage and saves follow).
    EndTurn {
        /// Whose turn ends.
        actor: CombatantId,
    },
    /// GM: end the battle now (e.g. the fight is abandoned); the seed is revealed.
    EndBattle,
}

impl Command {
    /// The combatant the command acts for, if any. GM commands have none.
    pub fn actor(&self) -> Option<&CombatantId> {
        match self {
            Command::Attack { actor, .. }
            | Command::Move { actor }
            | Command::Rally { actor }
            | Command::EndTurn { actor } => Some(actor),
            Command::StartBattle | Command::EndBattle => None,
        }
    }

    /// Short name of the command kind, for logs and messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Command::StartBattle => "start_battle",
            Command::Attack { .. } => "attack",
            Command::Move { .. } => "move",
            Command::Rally { .. } => "rally",
            Command::EndTurn { .. } => "end_turn",
            Command::EndBattle => "end_battle",
        }
    }
}
