//! Replaying recorded fights: `fold` (apply the stored events) and `verify` (re-decide from the
//! seed and the stored commands and compare every event and state hash byte for byte).

use fray_protocol::{GameEvent, SessionState};
use std::path::Path;
use thiserror::Error;

/// An event as stored in a log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedEvent {
    /// Gapless sequence number from 1.
    pub seq: u64,
    /// The tick (accepted command number) that produced it.
    pub tick: u64,
    /// The event.
    pub event: GameEvent,
}

/// A recorded fight read from a log file or directory.
#[derive(Debug, Clone)]
pub struct RecordedFight {
    _private: (),
}

impl RecordedFight {
    /// Ruleset id.
    pub fn ruleset(&self) -> &str {
        ""
    }
    /// Hex commitment published at creation.
    pub fn commitment(&self) -> &str {
        ""
    }
    /// Seed and salt (hex) if revealed in the log.
    pub fn revealed(&self) -> Option<(u64, String)> {
        None
    }
    /// Title of the encounter.
    pub fn title(&self) -> &str {
        ""
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
}

/// Replay failures.
#[derive(Debug, Error)]
pub enum ReplayError {
    /// Not implemented yet.
    #[error("not implemented yet")]
    Unimplemented,
}

/// Reads a log (a session directory or a single segment file).
pub fn read_log(_path: &Path) -> Result<RecordedFight, ReplayError> {
    Err(ReplayError::Unimplemented)
}

/// Folds the stored events.
pub fn fold(_fight: &RecordedFight) -> Result<Folded, ReplayError> {
    Err(ReplayError::Unimplemented)
}

/// Re-decides every command from the seed and compares.
pub fn verify(_fight: &RecordedFight) -> Result<VerifyReport, ReplayError> {
    Err(ReplayError::Unimplemented)
}

/// The public (redacted) export as pretty JSON.
pub fn export_public_json(_fight: &RecordedFight) -> Result<String, ReplayError> {
    Err(ReplayError::Unimplemented)
}
