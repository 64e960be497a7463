//! The one decide wrapper every ruleset uses (engine tick, steps 2–3 and 5): each ruleset has
//! one decide system, which hands a pass to [`DecideIo::pass`]; a pending command is decided
//! with the ruleset's `decide` (a refusal restores both dice streams and emits nothing), and with
//! none pending its `advance` runs one pass of the turn machinery.

use super::decider::Decider;
use super::field::Field;
use crate::ecs::components::{CheckOnly, Dice, Outbox, Pending, SecretDice, SeedSecret};
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::Schedule;
use bevy_ecs::system::{ScheduleSystem, SystemParam};
use fray_protocol::{Command, Rejection};

/// What every ruleset's decide system reads and writes: the battlefield, the pending command,
/// both dice streams, the outbox, and the seed secret (for the reveal). A ruleset's system takes
/// it beside its own read-only views and hands its `decide` and `advance` to [`Self::pass`].
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

    /// One pass of the decide schedule: with a command pending, decides it with the ruleset's
    /// `decide` ([`decide_pending`]); with none, runs one pass of the ruleset's turn machinery
    /// ([`advance_pass`]), whose `advance` gets the seed secret, which it reveals when the
    /// session is over (`common::reveal`).
    ///
    /// One system that dispatches itself, rather than two systems behind run conditions: the
    /// schedule then fetches its parameters and runs a system once per pass, not three times.
    pub fn pass(
        &mut self,
        decide: impl FnOnce(&mut Decider, &Command) -> Result<(), Rejection>,
        advance: impl FnOnce(&mut Decider, &SeedSecret),
    ) {
        match &self.pending.0 {
            Some(cmd) => decide_pending(
                &self.field,
                cmd,
                &mut self.dice,
                &mut self.secret_dice,
                &mut self.out,
                decide,
            ),
            None => {
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
    }
}

/// Adds a ruleset's decide system (one per ruleset; it calls [`DecideIo::pass`]).
pub fn add_decide_system<M>(
    schedule: &mut Schedule,
    system: impl IntoScheduleConfigs<ScheduleSystem, M>,
) {
    schedule.add_systems(system);
}

/// Decides the pending command with a ruleset's `decide`. A refused command leaves the RNG where
/// it was (engine tick, step 3), even when the refusal is found after rolling began, and emits
/// nothing.
fn decide_pending(
    field: &Field,
    cmd: &Command,
    dice: &mut Dice,
    secret: &mut SecretDice,
    out: &mut Outbox,
    decide: impl FnOnce(&mut Decider, &Command) -> Result<(), Rejection>,
) {
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
