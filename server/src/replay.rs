//! Replaying recorded fights, in the two modes of the design:
//! - **fold** applies the stored events (fast, independent of later rule changes) and checks
//!   every stored state hash against the folded state;
//! - **verify** re-runs decide from the seed and the stored commands and checks that it
//!   reproduces every stored event and state hash byte for byte, that the RNG in the log header
//!   derives from the seed, and, once revealed, that the seed and salt match the commitment;
//!   it needs the full log (the GM's: its genesis holds the secret stream's seed, checked against
//!   `secret_commitment`, from which the secret rolls are re-decided). The public export has no
//!   secret seed: its secret rolls are redacted and taken as recorded.

use crate::dice::{SessionRng, verify_commitment};
use crate::engine::Engine;
use crate::log::{SegmentHeader, Truncation, read_log_path};
use crate::session::record::{Genesis, Record};
use crate::session::{decode_frames, engine_for};
use fray_protocol::codec::to_bincode;
use fray_protocol::ids::Side;
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

/// A recorded fight read from a log directory or segment file.
#[derive(Debug, Clone)]
pub struct RecordedFight {
    header: SegmentHeader,
    genesis: Genesis,
    records: Vec<Record>,
    truncated: Option<Truncation>,
}

impl RecordedFight {
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
    /// A torn tail found at the end of the log (reported, not repaired: this is read-only).
    pub fn truncated(&self) -> Option<&Truncation> {
        self.truncated.as_ref()
    }
    /// Every stored event in order.
    pub fn events(&self) -> Vec<LoggedEvent> {
        let mut out = Vec::new();
        for r in &self.records {
            if let Record::Events {
                tick,
                first_seq,
                events,
                ..
            } = r
            {
                for (i, e) in events.iter().enumerate() {
                    out.push(LoggedEvent {
                        seq: first_seq + i as u64,
                        tick: *tick,
                        event: e.clone(),
                    });
                }
            }
        }
        out
    }
}

/// Result of folding.
#[derive(Debug, Clone)]
pub struct Folded {
    /// Every event in order.
    pub events: Vec<LoggedEvent>,
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
    /// a log that verifies: the full log holds them).
    pub secret_commitment_checked: bool,
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
}

/// Reads a log (a session directory or a single segment file).
pub fn read_log(path: &Path) -> Result<RecordedFight, ReplayError> {
    let recovered = read_log_path(path).map_err(|e| ReplayError::Read(e.to_string()))?;
    let records =
        decode_frames(&recovered.frames).map_err(|e| ReplayError::Invalid(e.to_string()))?;
    let Some(Record::Genesis(genesis)) = records.first() else {
        return Err(ReplayError::Invalid(
            "the first record is not a genesis".into(),
        ));
    };
    Ok(RecordedFight {
        header: recovered.header,
        genesis: (**genesis).clone(),
        records: records[1..].to_vec(),
        truncated: recovered.truncated,
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
pub fn fold(fight: &RecordedFight) -> Result<Folded, ReplayError> {
    let mut engine = engine_for(&fight.genesis).map_err(|e| ReplayError::Invalid(e.to_string()))?;
    let mut last = 0u64;
    let mut events = Vec::new();
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
                    engine.apply(e);
                    events.push(LoggedEvent {
                        seq: first_seq + i as u64,
                        tick: *tick,
                        event: e.clone(),
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
    let g = &fight.genesis;
    let (state, stream) = SessionRng::derive_parts(g.seed);
    if (state, stream) != (fight.header.rng_state, fight.header.rng_stream) {
        return Err(ReplayError::Fairness(
            "the RNG state in the log header does not derive from the seed".into(),
        ));
    }
    if hex::encode(fight.header.seed_commitment) != g.commitment {
        return Err(ReplayError::Fairness(
            "the commitment in the header differs from the genesis record".into(),
        ));
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
    check_secret_commitment(g)?;
    let mut engine = engine_for(g).map_err(|e| ReplayError::Invalid(e.to_string()))?;
    let mut report = VerifyReport {
        commands: 0,
        events: 0,
        hashes: 0,
        commitment_checked,
        secret_commitment_checked: true,
    };
    let mut last = 0u64;
    let mut i = 0;
    while i < fight.records.len() {
        match &fight.records[i] {
            Record::Command { tick, command, .. } => {
                let Some(Record::Events {
                    first_seq,
                    events: stored,
                    ..
                }) = fight.records.get(i + 1)
                else {
                    // A command whose events never reached the log was never acknowledged.
                    i += 1;
                    continue;
                };
                let decided = engine
                    .execute(command)
                    .map_err(|r| ReplayError::EventMismatch {
                        seq: *first_seq,
                        tick: *tick,
                        stored: stored.first().map(json).unwrap_or_default(),
                        decided: format!("the command was rejected: {r}"),
                    })?;
                for (k, s) in stored.iter().enumerate() {
                    let seq = first_seq + k as u64;
                    let same = decided
                        .get(k)
                        .is_some_and(|d| to_bincode(d).ok() == to_bincode(s).ok());
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

/// The public export: what players and spectators may see.
#[derive(Debug, Serialize)]
struct PublicExport<'a> {
    format: &'static str,
    session: &'a str,
    ruleset: &'a str,
    ruleset_version: u32,
    title: &'a str,
    commitment: &'a str,
    revealed: Option<(u64, String)>,
    combatants: Vec<serde_json::Value>,
    events: Vec<LoggedEvent>,
    final_state: SessionState,
    secret_commitment: &'a str,
}

/// The public (redacted) export as pretty JSON: no tokens, no seed before it is revealed,
/// no exact monster hit points, and never the secret stream's seed or salt (only its
/// `secret_commitment`), so the redacted secret rolls stay secret after the seed is revealed.
pub fn export_public_json(fight: &RecordedFight) -> Result<String, ReplayError> {
    let folded = fold(fight)?;
    let g = &fight.genesis;
    let is_monster = |id: &fray_protocol::CombatantId| {
        g.encounter
            .combatants
            .iter()
            .any(|c| &c.id == id && c.side == Side::Monsters)
    };
    let combatants = g
        .encounter
        .combatants
        .iter()
        .map(|c| {
            serde_json::json!({
                "id": c.id,
                "name": c.name,
                "side": c.side,
                "template": c.template,
                "level": c.level,
                "max_hp": if c.side == Side::Monsters { None } else { Some(c.max_hp) },
            })
        })
        .collect();
    let export = PublicExport {
        format: "fray-public-export-v1",
        session: &g.session.0,
        ruleset: &g.ruleset,
        ruleset_version: g.ruleset_version,
        title: &g.encounter.title,
        commitment: &g.commitment,
        revealed: fight.revealed(),
        combatants,
        events: folded
            .events
            .iter()
            .map(|e| LoggedEvent {
                seq: e.seq,
                tick: e.tick,
                event: e.event.redacted(is_monster),
            })
            .collect(),
        final_state: folded.state.redacted(),
        secret_commitment: &g.secret_commitment,
    };
    serde_json::to_string_pretty(&export).map_err(|e| ReplayError::Invalid(e.to_string()))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
mod tests_secrets;
