//! The one decide wrapper every ruleset uses (engine tick, steps 2–3): a pending command is
//! decided with the ruleset's `decide`; a refusal restores both dice streams and emits nothing.

use super::decider::Decider;
use super::field::Field;
use crate::ecs::components::{CheckOnly, Dice, Outbox, Pending, SecretDice, SeedSecret};
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::Schedule;
use bevy_ecs::system::{ScheduleSystem, SystemParam};
use fray_protocol::{Command, Rejection};

/// What every ruleset's two decide systems read and write: the battlefield, the pending command,
/// both dice streams, the outbox, and the seed secret (for the reveal). A ruleset's system takes
/// it beside its own read-only views and hands its `decide` or `advance` to it.
#[derive(SystemParam)]
pub struct DecideIo<'w, 's> {
    field: Field<'w, 's>,
    pending: Res<'w, Pending>,
    dice: ResMut<'w, Dice>,
    secret_dice: ResMut<'w, SecretDice>,
    out: ResMut<'w, Outbox>,
    seed: Res<'w, SeedSecret>,
    check_only: Option<Res<'w, CheckOnly>>,
}

impl DecideIo<'_, '_> {
    /// Whether this pass only asks if the pending command would be accepted (`Engine::check`,
    /// for the legal actions): nothing it decides is kept, so what cannot refuse the command —
    /// a ruleset's sweeps after it — may be left out.
    pub fn checking(&self) -> bool {
        self.check_only.as_ref().is_some_and(|c| c.0)
    }

    /// Decides the pending command with the ruleset's `decide` ([`decide_pending`]).
    pub fn decide(&mut self, decide: impl FnOnce(&mut Decider, &Command) -> Result<(), Rejection>) {
        decide_pending(
            &self.field,
            &self.pending,
            &mut self.dice,
            &mut self.secret_dice,
            &mut self.out,
            decide,
        );
    }

    /// One pass of the ruleset's turn machinery ([`advance_pass`]); `advance` gets the seed
    /// secret, which it reveals when the session is over (`common::reveal`).
    pub fn advance(&mut self, advance: impl FnOnce(&mut Decider, &SeedSecret)) {
        let seed = &*self.seed;
        advance_pass(
            &self.field,
            &mut self.dice,
            &mut self.secret_dice,
            &mut self.out,
            |d| advance(d, seed),
        );
    }
}

/// Adds a ruleset's two decide systems, in every ruleset's order: `decide` while a command is
/// pending, then `advance` on the passes after it (the turn machinery, until quiescent).
pub fn add_decide_systems<M1, M2>(
    schedule: &mut Schedule,
    decide: impl IntoScheduleConfigs<ScheduleSystem, M1>,
    advance: impl IntoScheduleConfigs<ScheduleSystem, M2>,
) {
    schedule.add_systems(
        (
            decide.run_if(command_pending),
            advance.run_if(not(command_pending)),
        )
            .chain(),
    );
}

/// Run condition of every ruleset's `decide_command` system: a command is pending.
pub(crate) fn command_pending(p: Res<Pending>) -> bool {
    p.0.is_some()
}

/// Decides the pending command with a ruleset's `decide`. A refused command leaves the RNG where
/// it was (engine tick, step 3), even when the refusal is found after rolling began, and emits
/// nothing.
fn decide_pending(
    field: &Field,
    pending: &Pending,
    dice: &mut Dice,
    secret: &mut SecretDice,
    out: &mut Outbox,
    decide: impl FnOnce(&mut Decider, &fray_protocol::Command) -> Result<(), Rejection>,
) {
    let Some(cmd) = &pending.0 else { return };
    let before = (dice.0.clone(), secret.0.clone());
    let decided = {
        let mut d = Decider::new(field, &mut dice.0).with_secret(secret.0.as_mut());
        // The GM's overrides, the same in every ruleset, come before the ruleset's decide.
        super::overrides::decide(&mut d, cmd)
            .unwrap_or_else(|| decide(&mut d, cmd))
            .map(|()| d.into_events())
    };
    match decided {
        Ok(events) => out.events = events,
        Err(r) => {
            (dice.0, secret.0) = before;
            out.rejection = Some(r);
        }
    }
}

/// One pass of a ruleset's turn machinery (`advance`), its events into the outbox.
fn advance_pass(
    field: &Field,
    dice: &mut Dice,
    secret: &mut SecretDice,
    out: &mut Outbox,
    advance: impl FnOnce(&mut Decider),
) {
    let mut d = Decider::new(field, &mut dice.0).with_secret(secret.0.as_mut());
    advance(&mut d);
    out.events = d.into_events();
}

/// A damage dice expression a GM command names (a trap's, a fall's, a bomb's): it must parse
/// and can never roll below 0. Shared by the rulesets' GM damage commands.
pub(crate) fn damage_dice_ok(expr: &str) -> Result<(), Rejection> {
    use crate::dice::{DiceExpr, Placeholders};
    use fray_protocol::ErrorCode;
    let bad = |e: String| {
        Rejection::new(
            ErrorCode::InvalidArgument,
            format!("dice expression '{expr}': {e}"),
        )
    };
    let parsed = DiceExpr::parse(expr).map_err(|e| bad(e.to_string()))?;
    let (lo, _) = parsed
        .bounds(&Placeholders::default())
        .map_err(|e| bad(e.to_string()))?;
    if lo.is_some_and(|l| l < 0) {
        return Err(Rejection::new(
            ErrorCode::InvalidArgument,
            format!("dice expression '{expr}' can be negative"),
        ));
    }
    Ok(())
}
