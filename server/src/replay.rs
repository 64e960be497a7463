//! Replaying recorded fights, in the two modes of the design:
//! - **fold** applies the stored events (fast, independent of later rule changes) and checks
//!   every stored state hash against the folded state;
//! - **verify** re-runs decide from the seed and the stored commands and checks that it
//!   reproduces every stored event and state hash byte for byte, that the RNG in the log header
//!   derives from the seed, and, once revealed, that the seed and salt match the commitment;
//!   it needs the full log (the GM's: its genesis holds the secret stream's seed, checked against
//!   `secret_commitment`, from which the secret rolls are re-decided). A public log
//!   ([`log_lines`], audience `public`) has no secret seed: its events are compared redacted,
//!   so every public die is checked and the secret rolls' dice are not (they are not in it).

use crate::dice::{SessionRng, verify_commitment};
use crate::engine::Engine;
use crate::log::{SegmentHeader, Truncation, read_log_path};
use crate::session::record::{Genesis, Record};
use crate::session::{decode_frames, engine_for};
use fray_protocol::{GameEvent, SessionState};
use serde::Serialize;
use std::path::Path;
use thiserror::Error;

/// An event as stored in a log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LoggedEvent {
    /// Gapless sequence number from 1.
    pub seq: u64,
    /// The tick (accepted command number) that produced it.
    pub tick: u64,
    /// The event.
    pub event: GameEvent,
}

/// An event of a read log, borrowed from its records (a fold copies no event).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct EventRef<'a> {
    /// Gapless sequence number from 1.
    pub seq: u64,
    /// The tick (accepted command number) that produced it.
    pub tick: u64,
    /// The event.
    pub event: &'a GameEvent,
}

/// A numbered event of a log, owned or borrowed: what a fold that follows rewinds needs of the
/// events before the one it folds.
pub trait Numbered {
    /// Its sequence number.
    fn seq(&self) -> u64;
    /// The event.
    fn event(&self) -> &GameEvent;
}

impl Numbered for LoggedEvent {
    fn seq(&self) -> u64 {
        self.seq
    }
    fn event(&self) -> &GameEvent {
        &self.event
    }
}

impl Numbered for EventRef<'_> {
    fn seq(&self) -> u64 {
        self.seq
    }
    fn event(&self) -> &GameEvent {
        self.event
    }
}

pub mod log_lines;

pub use log_lines::Audience;

/// A recorded fight read from a log directory, a segment file, or a JSON-lines log.
#[derive(Debug, Clone)]
pub struct RecordedFight {
    /// The segment header (segment logs only).
    header: Option<SegmentHeader>,
    genesis: Genesis,
    records: Vec<Record>,
    truncated: Option<Truncation>,
    /// The GM's full log, or a public one (JSON lines only).
    audience: Audience,
}

impl RecordedFight {
    /// Every record after the genesis, in log order.
    pub fn records(&self) -> &[Record] {
        &self.records
    }
    /// Ruleset id.
    pub fn ruleset(&self) -> &str {
        &self.genesis.ruleset
    }
    /// Hex commitment published at creation.
    pub fn commitment(&self) -> &str {
        &self.genesis.commitment
    }
    /// Seed and salt (hex) if revealed in the log.
    pub fn revealed(&self) -> Option<(u64, String)> {
        self.records.iter().rev().find_map(|r| match r {
            Record::Events { events, .. } => events.iter().find_map(|e| match e {
                GameEvent::SeedRevealed { seed, salt } => Some((*seed, salt.clone())),
                _ => None,
            }),
            _ => None,
        })
    }
    /// Title of the encounter.
    pub fn title(&self) -> &str {
        &self.genesis.encounter.title
    }
    /// The genesis record.
    pub fn genesis(&self) -> &Genesis {
        &self.genesis
    }
    /// Whether this is the full log or a public one.
    pub fn audience(&self) -> Audience {
        self.audience
    }
    /// A torn tail found at the end of the log (reported, not repaired: this is read-only).
    pub fn truncated(&self) -> Option<&Truncation> {
        self.truncated.as_ref()
    }
    /// Every recorded command in order.
    pub fn commands(&self) -> impl Iterator<Item = &fray_protocol::Command> {
        self.records.iter().filter_map(|r| match r {
            Record::Command { command, .. } => Some(command),
            _ => None,
        })
    }
    /// Every stored event in order, copied.
    pub fn events(&self) -> Vec<LoggedEvent> {
        self.event_refs()
            .map(|e| LoggedEvent {
                seq: e.seq,
                tick: e.tick,
                event: e.event.clone(),
            })
            .collect()
    }
    /// Every stored event in order, borrowed.
    pub fn event_refs(&self) -> impl Iterator<Item = EventRef<'_>> {
        self.records.iter().flat_map(|r| {
            let (tick, first_seq, events): (u64, u64, &[GameEvent]) = match r {
                Record::Events {
                    tick,
                    first_seq,
                    events,
                    ..
                } => (*tick, *first_seq, events),
                _ => (0, 0, &[]),
            };
            events.iter().enumerate().map(move |(i, event)| EventRef {
                seq: first_seq + i as u64,
                tick,
                event,
            })
        })
    }
}

/// Result of folding.
#[derive(Debug, Clone)]
pub struct Folded<'a> {
    /// Every event in order, borrowed from the fight.
    pub events: Vec<EventRef<'a>>,
    /// Final state (GM view).
    pub state: SessionState,
    /// Hex state hash of the final state.
    pub state_hash: String,
    /// Stored state hashes that were checked.
    pub hashes_checked: u64,
}

/// Result of a successful verification.
#[derive(Debug, Clone)]
pub struct VerifyReport {
    /// Commands re-decided.
    pub commands: u64,
    /// Events compared.
    pub events: u64,
    /// State hashes compared.
    pub hashes: u64,
    /// Whether the seed was revealed and matched the commitment.
    pub commitment_checked: bool,
    /// Whether the genesis's secret seed and salt matched its `secret_commitment` (always, for
    /// a full log that verifies; never for a public log, which has no secret seed).
    pub secret_commitment_checked: bool,
    /// The log's audience: a public log's events were compared redacted.
    pub audience: Audience,
    /// Ticks whose main-stream draw count matched (every die the next draw, none skipped).
    pub draw_counts: u64,
    /// Secret rolls in the log (their dice are checked only on the full log).
    pub secret_rolls: u64,
}

/// Replay failures. Mismatches name the first event or hash that differs.
#[derive(Debug, Error)]
pub enum ReplayError {
    /// The log cannot be read.
    #[error("cannot read the log: {0}")]
    Read(String),
    /// The log is not a Fray session log.
    #[error("not a valid session log: {0}")]
    Invalid(String),
    /// A stored event differs from the re-decided one.
    #[error("mismatch at event seq {seq} (tick {tick}): stored {stored}, re-decided {decided}")]
    EventMismatch {
        /// Sequence number.
        seq: u64,
        /// Tick.
        tick: u64,
        /// Stored event (JSON).
        stored: String,
        /// Re-decided event (JSON), or a description.
        decided: String,
    },
    /// A stored state hash differs.
    #[error(
        "state hash mismatch after tick {tick} (seq {seq}): stored {stored}, computed {computed}"
    )]
    HashMismatch {
        /// Tick.
        tick: u64,
        /// Seq.
        seq: u64,
        /// Stored hash.
        stored: String,
        /// Computed hash.
        computed: String,
    },
    /// Seed, salt, RNG state or commitment disagree.
    #[error("fairness check failed: {0}")]
    Fairness(String),
    /// Recorded under another version of its rules than this build implements: the commands
    /// cannot be re-decided (the dice would be read by other rules). What could be checked
    /// without the rules was: every frame's CRC (on reading), the seed commitment and, for a
    /// full log, every stored state hash by folding the recorded events.
    #[error(
        "recorded under {ruleset} rules v{recorded}; this build implements {}: the commands cannot be re-decided (checked instead: every frame's CRC, {}, and {hashes_checked} state hashes by folding the recorded events)",
        current.map_or_else(|| format!("no {ruleset} rules"), |v| format!("v{v}")),
        if *commitment_checked { "the seed commitment" } else { "not the seed commitment (the seed is not revealed)" }
    )]
    RulesChanged {
        /// The ruleset id.
        ruleset: String,
        /// The rules version the log was decided under.
        recorded: u32,
        /// The version this build implements (`None`: it does not play this ruleset).
        current: Option<u32>,
        /// Whether the revealed seed matched its commitment.
        commitment_checked: bool,
        /// State hashes that matched when folding the recorded events.
        hashes_checked: u64,
    },
    /// A public log whose seed is not revealed yet cannot be re-decided.
    #[error(
        "the seed is not revealed in this public log yet (it is revealed when the session ends): the dice cannot be checked before"
    )]
    NotRevealed,
}

/// Reads a log: a session directory, a single segment file, or a JSON-lines log
/// ([`log_lines`]: what the server serves and `fray export` writes).
pub fn read_log(path: &Path) -> Result<RecordedFight, ReplayError> {
    if path.is_file() {
        let bytes = std::fs::read(path).map_err(|e| ReplayError::Read(e.to_string()))?;
        if log_lines::looks_like_lines(&bytes) {
            let text = std::str::from_utf8(&bytes)
                .map_err(|e| ReplayError::Invalid(format!("not UTF-8 JSON lines: {e}")))?;
            return log_lines::read(text);
        }
    }
    let recovered = read_log_path(path).map_err(|e| ReplayError::Read(e.to_string()))?;
    let records =
        decode_frames(&recovered.frames).map_err(|e| ReplayError::Invalid(e.to_string()))?;
    let Some(Record::Genesis(genesis)) = records.first() else {
        return Err(ReplayError::Invalid(
            "the first record is not a genesis".into(),
        ));
    };
    Ok(RecordedFight {
        header: Some(recovered.header),
        genesis: (**genesis).clone(),
        records: records[1..].to_vec(),
        truncated: recovered.truncated,
        audience: Audience::Gm,
    })
}

fn json(e: &GameEvent) -> String {
    serde_json::to_string(e).unwrap_or_else(|_| format!("{e:?}"))
}

fn check_hash(engine: &Engine, tick: u64, seq: u64, stored: &str) -> Result<(), ReplayError> {
    let computed = engine.state_hash();
    if computed != stored {
        return Err(ReplayError::HashMismatch {
            tick,
            seq,
            stored: stored.to_owned(),
            computed,
        });
    }
    Ok(())
}

/// Folds the stored events, checking stored state hashes.
pub fn fold(fight: &RecordedFight) -> Result<Folded<'_>, ReplayError> {
    if fight.audience == Audience::Public {
        return Err(ReplayError::Invalid(
            "a public log holds the events as players saw them (redacted), which do not fold into the full state: `fray verify` checks it; replaying needs the full log".into(),
        ));
    }
    let mut engine = engine_for(&fight.genesis).map_err(|e| ReplayError::Invalid(e.to_string()))?;
    let mut last = 0u64;
    let mut events: Vec<EventRef<'_>> = Vec::with_capacity(fight.records.len() * 2);
    let mut hashes_checked = 0;
    for r in &fight.records {
        match r {
            Record::Events {
                tick,
                first_seq,
                events: evs,
                ..
            } => {
                if *first_seq != last + 1 {
                    return Err(ReplayError::Invalid(format!(
                        "events of tick {tick} start at seq {first_seq}, expected {}",
                        last + 1
                    )));
                }
                for (i, e) in evs.iter().enumerate() {
                    let seq = first_seq + i as u64;
                    crate::rewind::apply(&mut engine, &fight.genesis, e, &events).map_err(|r| {
                        ReplayError::Invalid(format!("event {seq} cannot be folded: {}", r.message))
                    })?;
                    events.push(EventRef {
                        seq,
                        tick: *tick,
                        event: e,
                    });
                }
                last += evs.len() as u64;
            }
            Record::StateHash { tick, seq, hash } => {
                check_hash(&engine, *tick, *seq, hash)?;
                hashes_checked += 1;
            }
            Record::Command { .. } => {}
            Record::Genesis(_) => return Err(ReplayError::Invalid("a second genesis".into())),
        }
    }
    Ok(Folded {
        events,
        state_hash: engine.state_hash(),
        state: engine.state(),
        hashes_checked,
    })
}

/// Re-decides every command from the seed and compares events and hashes byte for byte.
pub fn verify(fight: &RecordedFight) -> Result<VerifyReport, ReplayError> {
    let public = fight.audience == Audience::Public;
    if public && fight.revealed().is_none() {
        return Err(ReplayError::NotRevealed);
    }
    let g = &fight.genesis;
    if let Some(header) = &fight.header {
        check_header(header, g)?;
    }
    let mut commitment_checked = false;
    if let Some((seed, salt)) = fight.revealed() {
        let salt_bytes: [u8; 16] = hex::decode(&salt)
            .ok()
            .and_then(|v| v.try_into().ok())
            .ok_or_else(|| {
                ReplayError::Fairness(format!("revealed salt '{salt}' is not 32 hex digits"))
            })?;
        let commitment: [u8; 32] = hex::decode(&g.commitment)
            .ok()
            .and_then(|v| v.try_into().ok())
            .ok_or_else(|| ReplayError::Fairness("the commitment is not 64 hex digits".into()))?;
        if seed != g.seed || !verify_commitment(&commitment, seed, &salt_bytes) {
            return Err(ReplayError::Fairness(
                "SHA-256(seed ‖ salt) of the revealed seed does not equal the published commitment"
                    .into(),
            ));
        }
        commitment_checked = true;
    }
    if !public {
        check_secret_commitment(g)?;
    }
    let current = crate::rules::version(&g.ruleset);
    if current != Some(g.ruleset_version) {
        let hashes_checked = if public {
            0
        } else {
            fold(fight)?.hashes_checked
        };
        return Err(ReplayError::RulesChanged {
            ruleset: g.ruleset.clone(),
            recorded: g.ruleset_version,
            current,
            commitment_checked,
            hashes_checked,
        });
    }
    let mut engine = engine_for(g).map_err(|e| ReplayError::Invalid(e.to_string()))?;
    let mut report = VerifyReport {
        commands: 0,
        events: 0,
        hashes: 0,
        commitment_checked,
        secret_commitment_checked: !public,
        audience: fight.audience,
        draw_counts: 0,
        secret_rolls: 0,
    };
    let mut last = 0u64;
    let mut i = 0;
    while i < fight.records.len() {
        match &fight.records[i] {
            Record::Command {
                tick,
                command,
                client,
                ..
            } => {
                let Some(Record::Events {
                    first_seq,
                    events: stored,
                    rng_draws,
                    ..
                }) = fight.records.get(i + 1)
                else {
                    // A command whose events never reached the log was never acknowledged.
                    i += 1;
                    continue;
                };
                let decided = match command {
                    // The events so far, only for a rewind (which folds them again).
                    fray_protocol::Command::RewindTo { seq } => {
                        let so_far = crate::session::logged_events(fight.records[..i].iter());
                        crate::rewind::execute(&mut engine, g, &so_far, *seq)
                    }
                    _ => {
                        crate::session::decide_outside_rules(&mut engine, g, client, *tick, command)
                            .unwrap_or_else(|| engine.execute(command))
                    }
                };
                let decided = decided.map_err(|r| ReplayError::EventMismatch {
                    seq: *first_seq,
                    tick: *tick,
                    stored: stored.first().map(json).unwrap_or_default(),
                    decided: format!("the command was rejected: {r}"),
                })?;
                // A public log holds the events as players saw them: compare them so.
                let decided: Vec<GameEvent> = if public {
                    decided
                        .iter()
                        .map(|e| e.redacted(|id| g.is_monster(id)))
                        .collect()
                } else {
                    decided
                };
                // A log of an older record format holds the lists later formats added empty
                // (`fray_protocol::format`).
                let decided: Vec<GameEvent> = if g.record_version < fray_protocol::format::LATEST {
                    decided
                        .into_iter()
                        .map(|e| e.in_record_format(g.record_version))
                        .collect()
                } else {
                    decided
                };
                report.secret_rolls += stored
                    .iter()
                    .filter(|e| matches!(e, GameEvent::SecretRolled { .. }))
                    .count() as u64;
                for (k, s) in stored.iter().enumerate() {
                    let seq = first_seq + k as u64;
                    // Derived equality on plain data (no floats, ordered maps) is equality of
                    // the bincode bytes, without encoding both.
                    let same = decided.get(k).is_some_and(|d| d == s);
                    if !same {
                        return Err(ReplayError::EventMismatch {
                            seq,
                            tick: *tick,
                            stored: json(s),
                            decided: decided
                                .get(k)
                                .map(json)
                                .unwrap_or_else(|| "no event".into()),
                        });
                    }
                }
                if decided.len() > stored.len() {
                    return Err(ReplayError::EventMismatch {
                        seq: first_seq + stored.len() as u64,
                        tick: *tick,
                        stored: "no event".into(),
                        decided: json(&decided[stored.len()]),
                    });
                }
                if *first_seq != last + 1 {
                    return Err(ReplayError::Invalid(format!(
                        "events of tick {tick} start at seq {first_seq}, expected {}",
                        last + 1
                    )));
                }
                let draws = engine.rng().draws();
                if draws != *rng_draws {
                    return Err(ReplayError::Fairness(format!(
                        "after tick {tick} the main stream had made {draws} draws, the log says {rng_draws}: a die was skipped or drawn again"
                    )));
                }
                report.draw_counts += 1;
                last += stored.len() as u64;
                report.commands += 1;
                report.events += stored.len() as u64;
                i += 2;
            }
            Record::StateHash { tick, seq, hash } => {
                check_hash(&engine, *tick, *seq, hash)?;
                report.hashes += 1;
                i += 1;
            }
            Record::Events { tick, .. } => {
                return Err(ReplayError::Invalid(format!(
                    "events of tick {tick} without a command"
                )));
            }
            Record::Genesis(_) => return Err(ReplayError::Invalid("a second genesis".into())),
        }
    }
    Ok(report)
}

/// The segment header's RNG state derives from the seed, and its commitment is the genesis's.
fn check_header(header: &SegmentHeader, g: &Genesis) -> Result<(), ReplayError> {
    let (state, stream) = SessionRng::derive_parts(g.seed);
    if (state, stream) != (header.rng_state, header.rng_stream) {
        return Err(ReplayError::Fairness(
            "the RNG state in the log header does not derive from the seed".into(),
        ));
    }
    if hex::encode(header.seed_commitment) != g.commitment {
        return Err(ReplayError::Fairness(
            "the commitment in the header differs from the genesis record".into(),
        ));
    }
    Ok(())
}

/// The secret stream's seed and salt in the genesis open its published `secret_commitment`
/// (the secret rolls are then re-decided from that seed by `verify`).
fn check_secret_commitment(g: &Genesis) -> Result<(), ReplayError> {
    let salt: [u8; 16] = hex::decode(&g.secret_salt)
        .ok()
        .and_then(|v| v.try_into().ok())
        .ok_or_else(|| ReplayError::Fairness("the secret salt is not 32 hex digits".into()))?;
    let commitment: [u8; 32] = hex::decode(&g.secret_commitment)
        .ok()
        .and_then(|v| v.try_into().ok())
        .ok_or_else(|| {
            ReplayError::Fairness("the secret commitment is not 64 hex digits".into())
        })?;
    if !verify_commitment(&commitment, g.secret_seed, &salt) {
        return Err(ReplayError::Fairness(
            "SHA-256(secret seed ‖ secret salt) does not equal the published secret commitment"
                .into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
mod tests_secrets;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
mod tests_public_log;
