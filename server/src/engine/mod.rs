//! The engine: one `bevy_ecs` `World` per session and the tick that runs a command through it.
//!
//! The tick, step by step (see `Engine::execute`):
//! 1. put the command in the `Pending` resource;
//! 2. run the ruleset's decide schedule: its systems read the world, check legality, draw dice
//!    from the `Dice` resource and write events to the `Outbox` — or a rejection. Decide never
//!    changes components;
//!    A command of another ruleset family's namespace is refused before this step
//!    (`wrong_ruleset`), by the one check every ruleset shares;
//! 3. a rejection ends the tick: nothing was drawn, nothing changed;
//! 4. otherwise `apply` folds each event into the world;
//! 5. with no command pending, the decide schedule runs again for the turn machinery
//!    (end-of-turn ongoing damage and saves, the next turn, death saves, escalation die, battle
//!    end); its events are applied too; repeat until a pass produces no event (quiescent).
//!
//! Fail-stop: once an event is applied the tick cannot be refused any more. If the turn
//! machinery then refuses or does not settle, the engine is *broken*: `execute` answers
//! `session_unavailable`, every later call too, and the session stops and is rebuilt from its
//! log (the world no longer matches the log). It never answers a rejection after a partial apply.
//!
//! The caller (the session) appends the command and all its events to the log, durably, before
//! anyone sees them; if that fails the session is discarded and rebuilt from its log.

pub mod apply;
/// The shared components and resources (`crate::ecs::components`), for callers that reach them
/// through the engine.
pub use crate::ecs::components;
pub mod hash;
pub mod world;

use crate::content::model::Encounter;
use crate::dice::SessionRng;
use crate::rules;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{LogLevel, ScheduleBuildSettings, SingleThreadedExecutor};
use components::{AddedIds, CheckOnly, Dice, Outbox, Pending, SecretDice, SeedSecret};
use fray_protocol::ids::CombatantId;
use fray_protocol::{
    Command, CommandPreview, ErrorCode, Family, GameEvent, Rejection, SessionState,
};

/// A bound on turn-machinery passes in one tick; reaching it is a ruleset bug that breaks the
/// engine (fail-stop) rather than hanging it.
const MAX_PASSES: usize = 10_000;

/// The decide schedule label.
#[derive(bevy_ecs::schedule::ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct Decide;

/// A session's world and its decide schedule.
pub struct Engine {
    world: World,
    decide: Schedule,
    family: Family,
    /// Why the world stopped matching the log, once it has (fail-stop).
    broken: Option<String>,
    /// The record format of the session's log (`fray_protocol::format`): its state hashes
    /// are computed in that format, so a log of an older format keeps matching them.
    record_format: u32,
}

/// Builds a schedule with Fray's settings: single-threaded, ambiguities are errors.
pub fn new_schedule() -> Schedule {
    let mut schedule = Schedule::new(Decide);
    schedule.set_executor(SingleThreadedExecutor::new());
    schedule.set_build_settings(ScheduleBuildSettings {
        ambiguity_detection: LogLevel::Error,
        ..Default::default()
    });
    schedule
}

impl Engine {
    /// A fresh engine for an encounter.
    pub fn new(
        encounter: &Encounter,
        rng: SessionRng,
        secret: SeedSecret,
    ) -> Result<Engine, Rejection> {
        let world = world::build_world(encounter, rng, secret);
        Self::with_world(&encounter.ruleset, world)
    }

    /// An engine restored from a snapshot.
    pub fn restore(
        encounter: &Encounter,
        state: &SessionState,
        rng: SessionRng,
        secret: SeedSecret,
    ) -> Result<Engine, Rejection> {
        let world = world::restore_world(encounter, state, rng, secret).ok_or_else(|| {
            Rejection::new(
                ErrorCode::InvalidArgument,
                "snapshot does not fit its encounter",
            )
        })?;
        Self::with_world(&encounter.ruleset, world)
    }

    fn with_world(ruleset: &str, world: World) -> Result<Engine, Rejection> {
        let row = rules::ruleset(ruleset).ok_or_else(|| {
            Rejection::new(
                ErrorCode::InvalidArgument,
                format!("unknown ruleset '{ruleset}'"),
            )
        })?;
        Ok(Self::with_systems(world, row.family, row.add_systems))
    }

    /// An engine over a world with the given decide systems (tests use it to run a ruleset of
    /// their own).
    pub fn with_systems(world: World, family: Family, add_systems: fn(&mut Schedule)) -> Engine {
        let mut decide = new_schedule();
        add_systems(&mut decide);
        Engine {
            world,
            decide,
            family,
            broken: None,
            record_format: fray_protocol::format::LATEST,
        }
    }

    /// Runs one command through decide → apply → turn machinery until quiescent.
    /// Returns every event produced, in order, or the rejection (then nothing changed). A
    /// broken engine (see the module's "Fail-stop") answers `session_unavailable`.
    pub fn execute(&mut self, command: &Command) -> Result<Vec<GameEvent>, Rejection> {
        self.may_decide(command)?;
        self.world.resource_mut::<Pending>().0 = Some(command.clone());
        let first = self.decide_pass();
        self.world.resource_mut::<Pending>().0 = None;
        first?;
        // Every pass's events are moved from the outbox into `all`, which the outbox's own
        // buffer outlives: no buffer is allocated per pass.
        let mut all = Vec::new();
        let mut applied = 0;
        let mut passes = 0;
        self.take_outbox(&mut all);
        while applied < all.len() {
            for e in &all[applied..] {
                apply::apply(&mut self.world, e);
            }
            applied = all.len();
            passes += 1;
            if passes > MAX_PASSES {
                return Err(self.break_down(format!(
                    "the turn machinery did not settle after {MAX_PASSES} passes"
                )));
            }
            if let Err(r) = self.decide_pass() {
                return Err(self.break_down(format!(
                    "the turn machinery refused after events were applied ({r})"
                )));
            }
            self.take_outbox(&mut all);
        }
        Ok(all)
    }

    /// What every command passes before decide: the engine works, and the command is of the
    /// session's family (the one `wrong_ruleset` check).
    fn may_decide(&self, command: &Command) -> Result<(), Rejection> {
        if let Some(why) = &self.broken {
            return Err(Self::unavailable(why));
        }
        if let Some(family) = command.family()
            && family != self.family
        {
            return Err(Rejection::new(
                ErrorCode::WrongRuleset,
                format!(
                    "'{}' is not a command of this session's rules ({}): it belongs to {}",
                    command.kind(),
                    self.family.title(),
                    family.title()
                ),
            ));
        }
        Ok(())
    }

    /// Whether `execute` would accept the command now: steps 1–3 of the tick, then both dice
    /// streams are put back and the events dropped, so the world is as it was (decide changes
    /// no component). The answer is `execute`'s, rejection and all.
    pub fn check(&mut self, command: &Command) -> Result<(), Rejection> {
        self.check_with(command, CheckOnly(true))
    }

    /// [`Self::check`], telling the ruleset whether only the answer matters (`CheckOnly`: its
    /// sweeps may be left out); the tests compare both.
    fn check_with(&mut self, command: &Command, only: CheckOnly) -> Result<(), Rejection> {
        self.may_decide(command)?;
        let dice = self.world.resource::<Dice>().0.clone();
        let secret = self.world.resource::<SecretDice>().0.clone();
        self.world.resource_mut::<Pending>().0 = Some(command.clone());
        self.world.insert_resource(only);
        let decided = self.decide_pass();
        self.world.resource_mut::<Outbox>().events.clear();
        self.world.insert_resource(CheckOnly(false));
        self.world.resource_mut::<Pending>().0 = None;
        self.world.resource_mut::<Dice>().0 = dice;
        self.world.resource_mut::<SecretDice>().0 = secret;
        decided.map(|_| ())
    }

    /// What the command would cover now — its area's squares, its path, whom it affects — as
    /// the session ruleset's `preview` computes it with its own decide code. Nothing is decided:
    /// no die is drawn from either stream, no event is made and no component changes (the
    /// ruleset reads the world). A command of another family is refused as `execute` refuses
    /// it; a ruleset without previews answers `invalid_argument`.
    pub fn preview(&mut self, command: &Command) -> Result<CommandPreview, Rejection> {
        self.may_decide(command)?;
        let Some(row) = self.world.get_resource::<SessionRuleset>().map(|r| r.0) else {
            return Err(Rejection::new(
                ErrorCode::InvalidArgument,
                "this session has no ruleset to preview with",
            ));
        };
        let Some(preview) = row.preview else {
            return Err(Rejection::new(
                ErrorCode::InvalidArgument,
                format!(
                    "{} has no previews: its commands cover nothing on a map",
                    row.id
                ),
            ));
        };
        preview(&mut self.world, command)
    }

    /// The commands that `execute` would accept now: for these combatants (`Some`), or for the
    /// GM (`None`: every combatant, then the session's own commands). They are the session
    /// ruleset's candidates (`Ruleset::actions`), each kept only when [`Self::check`] accepts it.
    pub fn legal_actions(
        &mut self,
        actors: Option<&[fray_protocol::CombatantId]>,
    ) -> Vec<fray_protocol::LegalAction> {
        let mut candidates = self.candidates(actors);
        candidates.retain(|a| self.check(&a.command).is_ok());
        candidates
    }

    /// The ruleset's candidates for [`Self::legal_actions`], before they are checked.
    fn candidates(
        &self,
        actors: Option<&[fray_protocol::CombatantId]>,
    ) -> Vec<fray_protocol::LegalAction> {
        let Some(row) = self.world.get_resource::<SessionRuleset>().map(|r| r.0) else {
            return Vec::new();
        };
        let state = self.state();
        let mut candidates = Vec::new();
        match actors {
            Some(actors) => {
                for actor in actors {
                    candidates.extend((row.actions)(&state, Some(actor)));
                }
            }
            None => {
                for c in &state.combatants {
                    candidates.extend((row.actions)(&state, Some(&c.id)));
                }
                candidates.extend((row.actions)(&state, None));
                // The GM's overrides, with the session's stat blocks for reinforcements.
                let mut templates: Vec<String> = self
                    .world
                    .get_resource::<components::Bestiary>()
                    .map(|b| {
                        b.0.iter()
                            .filter(|s| s.side == fray_protocol::Side::Monsters)
                            .map(|s| s.template.clone())
                            .collect()
                    })
                    .unwrap_or_default();
                templates.sort();
                templates.dedup();
                candidates.extend(rules::common::actions::overrides(&state, row, &templates));
            }
        }
        candidates
    }

    /// Marks the engine broken (fail-stop) and returns the answer for the command.
    fn break_down(&mut self, why: String) -> Rejection {
        tracing::error!(reason = %why, "the engine broke mid-tick; the session stops");
        let r = Self::unavailable(&why);
        self.broken = Some(why);
        r
    }

    fn unavailable(why: &str) -> Rejection {
        Rejection::new(
            ErrorCode::SessionUnavailable,
            format!("{why}: the session stops and is rebuilt from its log"),
        )
    }

    /// Why the engine is broken (fail-stop), if it is: its world no longer matches the log.
    pub fn broken(&self) -> Option<&str> {
        self.broken.as_deref()
    }

    /// Runs the decide schedule once. Its events stay in the outbox (`take_outbox`); a
    /// rejection empties it.
    fn decide_pass(&mut self) -> Result<(), Rejection> {
        self.decide.run(&mut self.world);
        let mut outbox = self.world.resource_mut::<Outbox>();
        if let Some(r) = outbox.rejection.take() {
            outbox.events.clear();
            return Err(r);
        }
        Ok(())
    }

    /// Moves the outbox's events to the end of `into`; the outbox keeps its buffer.
    fn take_outbox(&mut self, into: &mut Vec<GameEvent>) {
        into.append(&mut self.world.resource_mut::<Outbox>().events);
    }

    /// Replaces the world's state with `state` (a rewind: `crate::rewind`), keeping both dice
    /// streams where they stand — a rewind never rewinds the dice.
    pub fn restore_state(
        &mut self,
        encounter: &Encounter,
        state: &SessionState,
    ) -> Result<(), Rejection> {
        let rng = self.rng().clone();
        let secret_rng = self.secret_rng().cloned();
        let seed = self.world.resource::<SeedSecret>().clone();
        let world = world::restore_world(encounter, state, rng, seed).ok_or_else(|| {
            Rejection::new(
                ErrorCode::InvalidArgument,
                "the earlier state does not fit the encounter",
            )
        })?;
        // The reinforcements' ids stay taken: a rewind does not give an id back.
        let added = self.world.get_resource::<AddedIds>().cloned();
        // The decide schedule belongs to the world it was built for: build both anew.
        let mut fresh = Self::with_world(&encounter.ruleset, world)?;
        if let Some(added) = added {
            fresh.world.insert_resource(added);
        }
        self.world = fresh.world;
        self.decide = fresh.decide;
        if let Some(secret) = secret_rng {
            self.set_secret_rng(secret);
        }
        Ok(())
    }

    /// Notes ids the log's `combatant_added` events gave (a session restored from a snapshot
    /// learns those of the events before it), so that no later reinforcement takes one.
    pub fn note_added_ids<'a>(&mut self, ids: impl IntoIterator<Item = &'a CombatantId>) {
        if let Some(mut set) = self.world.get_resource_mut::<AddedIds>() {
            set.0.extend(ids.into_iter().cloned());
        }
    }

    /// Rolls a free dice expression (`free_roll`) from the session's stream or, with `secret`,
    /// from the secret stream. On error (a bad expression, no secret stream) nothing is drawn.
    pub fn roll_free(
        &mut self,
        expr: &crate::dice::DiceExpr,
        secret: bool,
    ) -> Result<fray_protocol::roll::Roll, Rejection> {
        let ph = crate::dice::Placeholders::default();
        let bad = |e: crate::dice::DiceError| {
            Rejection::new(ErrorCode::InvalidArgument, format!("dice expression: {e}"))
        };
        if !secret {
            return expr
                .roll(&mut self.world.resource_mut::<Dice>().0, &ph)
                .map_err(bad);
        }
        let mut dice = self.world.resource_mut::<SecretDice>();
        let Some(rng) = dice.0.as_mut() else {
            return Err(Rejection::new(
                ErrorCode::SessionUnavailable,
                "this session has no secret stream",
            ));
        };
        expr.roll(rng, &ph).map_err(bad)
    }

    /// Folds a stored event (replay, recovery).
    pub fn apply(&mut self, event: &GameEvent) {
        apply::apply(&mut self.world, event);
    }

    /// The canonical state (GM view).
    pub fn state(&self) -> SessionState {
        world::read_state(&self.world)
    }

    /// The stable state hash, in the session's record format.
    pub fn state_hash(&self) -> String {
        let state = self.state();
        fray_protocol::format::in_record_format(self.record_format, || hash::state_hash(&state))
    }

    /// Sets the record format of the session's log (from its genesis).
    pub fn set_record_format(&mut self, format: u32) {
        self.record_format = format;
    }

    /// The record format of the session's log.
    pub fn record_format(&self) -> u32 {
        self.record_format
    }

    /// The RNG as it stands (for snapshots).
    pub fn rng(&self) -> &SessionRng {
        &self.world.resource::<Dice>().0
    }

    /// Replaces the RNG (recovery: folding does not draw, so the RNG is resumed from the log).
    pub fn set_rng(&mut self, rng: SessionRng) {
        self.world.resource_mut::<Dice>().0 = rng;
    }

    /// The secret stream as it stands (`None` if this engine has none).
    pub fn secret_rng(&self) -> Option<&SessionRng> {
        self.world.resource::<SecretDice>().0.as_ref()
    }

    /// Sets the secret stream (creation, recovery: like [`Self::set_rng`]).
    pub fn set_secret_rng(&mut self, rng: SessionRng) {
        self.world.resource_mut::<SecretDice>().0 = Some(rng);
    }

    /// Draws consumed from the secret stream so far (0 without one).
    pub fn secret_draws(&self) -> u64 {
        self.secret_rng().map_or(0, SessionRng::draws)
    }

    /// Read access to the world (tests, bots).
    pub fn world(&self) -> &World {
        &self.world
    }
}

/// The session's ruleset: its row in the registry (`rules::RULESETS`), through which the shared
/// code reaches the ruleset's own parts of the world and of `apply`. Absent only from a world
/// built for a ruleset this build does not play (which no engine accepts).
#[derive(Resource, Debug, Clone, Copy)]
pub struct SessionRuleset(pub &'static crate::rules::Ruleset);

#[cfg(test)]
mod tests_fail_stop;
#[cfg(test)]
mod tests_legal_actions;
