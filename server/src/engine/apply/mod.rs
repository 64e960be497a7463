//! `apply`: the only code that changes game state. One handler per event kind; it cannot fail.
//! An event that names an unknown combatant changes nothing (decide never emits one).
//!
//! Who folds what:
//! - the common events (variants directly on `GameEvent`), here, one file per concept:
//!   `turns` (initiative, the order, turns and actions), `vitals` (hit points, dropping, dying,
//!   rallying), `effects`, `position` (engagement, opportunity attacks), `battle` (a battle's
//!   start and end, the next battle, rests, leaving the battle, the session's end);
//! - a family's own events (`GameEvent::Orcus(..)`, …), by the ruleset that owns the family
//!   (`rules/<ruleset>/apply.rs`), reached through its registry row's `apply` — whatever the
//!   session's ruleset, as a fold does not depend on it (the shared decide code emits a few 13th
//!   Age events in every ruleset);
//! - then, for every event, what it changes in the session ruleset's own components and
//!   resources (Orcus's grid when a turn starts, …): the row's `after_apply`, which runs after
//!   the shared fold and touches only the ruleset's own state.
//!
//! `access` holds the steps every fold uses (a combatant's component by stable id, every
//! combatant's).
//!
//! Architecture invariant: apply knows nothing of dice, legality or the log. Given the same
//! state and event it always produces the same state, so folding a log rebuilds the world. This
//! module names no ruleset: it learns of them from the registry.

mod battle;
mod effects;
mod position;
mod turns;
mod vitals;

use super::SessionRuleset;
use bevy_ecs::prelude::*;
use fray_protocol::event::GameEvent;

pub use battle::enter_battle;

/// Folds one event into the world.
pub fn apply(world: &mut World, event: &GameEvent) {
    use GameEvent as E;
    match event {
        E::BattleStarted
        | E::BattleEnded { .. }
        | E::NewBattle { .. }
        | E::QuickRested { .. }
        | E::FullHealUp
        | E::LeftBattle { .. }
        | E::SessionEnded
        | E::SeedRevealed { .. }
        | E::CombatantAdded { .. }
        | E::CombatantRemoved { .. } => battle::apply(world, event),
        E::InitiativeRolled { .. }
        | E::InitiativeReordered { .. }
        | E::TurnOrder { .. }
        | E::SurpriseRound { .. }
        | E::RoundStarted { .. }
        | E::Delayed { .. }
        | E::ReadiedActionTaken { .. }
        | E::TurnStarted { .. }
        | E::ActionUsed { .. }
        | E::AttackRolled { .. }
        | E::InterruptUsed { .. }
        | E::PowerExpended { .. }
        | E::PowerRegained { .. }
        | E::TurnEnded { .. }
        | E::InitiativeSet { .. } => turns::apply(world, event),
        E::TempHpGained { .. }
        | E::Damaged { .. }
        | E::Healed { .. }
        | E::Stabilized { .. }
        | E::FellUnconscious { .. }
        | E::Revived { .. }
        | E::Died { .. }
        | E::Slain { .. }
        | E::KnockedOut { .. }
        | E::DeathSaveFailed { .. }
        | E::Rallied { .. }
        | E::FellIntoComa { .. }
        | E::HpOverridden { .. } => vitals::apply(world, event),
        E::EffectApplied { .. } | E::EffectArmed { .. } | E::EffectEnded { .. } => {
            effects::apply(world, event)
        }
        E::Moved { .. } | E::OpportunityTaken { .. } => position::apply(world, event),
        // Rolls and proposals that change no shared state (a ruleset may keep some of them in
        // its own, in `after_apply`).
        E::DamageRolled { .. }
        | E::SaveRolled { .. }
        | E::CoupDeGrace { .. }
        | E::CheckRolled { .. }
        | E::MoraleProposed { .. }
        | E::SecretRolled { .. }
        | E::Staggered { .. } => {}
        // A rewind replaces the whole state with an earlier one, which only a fold over the
        // log's earlier events can rebuild: `crate::rewind::apply` does it (every fold of a log
        // goes through it); the world alone cannot.
        E::Rewound { .. } => {}
        // Table talk changes no game state.
        // Table talk and who plays or commands a combatant change no game state (the session
        // keeps the combatants handed to the server, `crate::auto`, and the seats,
        // and the seats (`crate::seats`).
        E::Chatted { .. }
        | E::FreeRolled { .. }
        | E::AutoPlaySet { .. }
        | E::CombatantAssigned { .. }
        | E::TokenReissued { .. } => {}
        // Marks the GM override whose events follow; they change the state.
        E::GmOverride { .. } => {}
        E::ThirteenthAge(_) | E::Orcus(_) | E::FiveTorches(_) | E::Bx(_) => {
            if let Some(owner) = event.family().and_then(crate::rules::registry::owner) {
                (owner.apply)(world, event);
            }
        }
    }
    if let Some(rules) = world.get_resource::<SessionRuleset>().map(|r| r.0) {
        (rules.after_apply)(world, event);
    }
}
