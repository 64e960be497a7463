//! Log records: what a session appends, one bincode payload per frame. A command and the events
//! it produced (and, periodically, a state hash) are appended as one batch.

use crate::content::model::Encounter;
use fray_protocol::ids::SessionId;
use fray_protocol::{Command, GameEvent};
use serde::{Deserialize, Serialize};

/// Record format version (inside the payloads; the segment header has its own): the newest,
/// which new sessions are written in. A field added to a logged type is tagged with the format
/// that added it (`fray_protocol::format`), and a log is read and appended to in the format its
/// genesis names ([`reader_for`]). Format 2 added the roll events' modifier lists.
pub const RECORD_VERSION: u32 = fray_protocol::format::LATEST;

/// The oldest record format this build reads: every released one, for ever.
pub const OLDEST_RECORD_VERSION: u32 = 1;

/// The record format version a log's first frame (its genesis) was written in, read before
/// anything else: `Record::Genesis` is tag 0 and `record_version` is the genesis' first field,
/// in every version.
pub fn record_version_of(genesis_frame: &[u8]) -> Option<u32> {
    match fray_protocol::codec::bincode_record_prefix::<(u32, u32)>(genesis_frame) {
        Ok((0, version)) => Some(version),
        _ => None,
    }
}

/// Why a log's records cannot be read by this build.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// The first frame is not a genesis.
    #[error("the first record is not a genesis")]
    NoGenesis,
    /// Written by a later build in a record format this one does not know.
    #[error(
        "written in record format v{found} by a later Fray build; this build reads record formats up to v{RECORD_VERSION}: read it with that build or a later one"
    )]
    Newer {
        /// The log's record format.
        found: u32,
    },
    /// A format older than any reader this build keeps (never for a released format).
    #[error("record format v{found} has no reader in this build")]
    Unknown {
        /// The log's record format.
        found: u32,
    },
}

/// The record format of a log, from its first frame, if this build reads it: every released
/// one, for ever (`tests/compat/`). Records of an older format are decoded inside
/// `fray_protocol::format::in_record_format`.
pub fn reader_for(first_frame: &[u8]) -> Result<u32, FormatError> {
    let found = record_version_of(first_frame).ok_or(FormatError::NoGenesis)?;
    match found {
        OLDEST_RECORD_VERSION..=RECORD_VERSION => Ok(found),
        v if v > RECORD_VERSION => Err(FormatError::Newer { found: v }),
        v => Err(FormatError::Unknown { found: v }),
    }
}

/// Access tokens of a session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    /// The GM's token.
    pub gm: String,
    /// The spectators' token.
    pub spectator: String,
    /// One token per seat, in seat order.
    pub players: Vec<String>,
}

/// The first record of every log: everything needed to rebuild the session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Genesis {
    /// Record format version.
    pub record_version: u32,
    /// Session id.
    pub session: SessionId,
    /// Ruleset id.
    pub ruleset: String,
    /// Ruleset version.
    pub ruleset_version: u32,
    /// The resolved encounter.
    pub encounter: Encounter,
    /// Whether this is a built-in demo session (listed with its spectator token).
    pub demo: bool,
    /// Hex SHA-256(seed ‖ salt).
    pub commitment: String,
    /// The seed (secret until revealed; removed from public exports before that).
    pub seed: u64,
    /// The salt, hex (secret until revealed).
    pub salt: String,
    /// Access tokens (never exported).
    pub tokens: Tokens,
    /// A state hash is recorded after every this many ticks (and at the end).
    pub hash_every: u64,
    /// Hex SHA-256(secret_seed ‖ secret_salt): the public commitment to the secret stream
    /// (`dice::rng`, "The secret stream"), in the public export.
    pub secret_commitment: String,
    /// The secret stream's seed: never revealed, never exported (the GM's, in this log only).
    pub secret_seed: u64,
    /// The secret stream's salt, hex (never revealed, never exported).
    pub secret_salt: String,
}

impl Genesis {
    /// Whether a combatant is one of the GM's monsters (redaction hides their exact hit
    /// points).
    pub fn is_monster(&self, id: &fray_protocol::CombatantId) -> bool {
        self.encounter
            .combatants
            .iter()
            .any(|c| &c.id == id && c.side == fray_protocol::ids::Side::Monsters)
    }
}

/// A log record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Record {
    /// The session's genesis (first frame).
    Genesis(Box<Genesis>),
    /// An accepted command.
    Command {
        /// Tick number, from 1.
        tick: u64,
        /// Who sent it (`gm`, `player:<seat>`, `bot:<…>`).
        client: String,
        /// The client's command id.
        command_id: u64,
        /// The command.
        command: Command,
    },
    /// The events the command produced.
    Events {
        /// Tick number.
        tick: u64,
        /// Sequence number of the first event.
        first_seq: u64,
        /// The events, in order.
        events: Vec<GameEvent>,
        /// 64-bit draws consumed from the session RNG after this tick (restores the RNG when
        /// folding instead of re-deciding).
        rng_draws: u64,
        /// 64-bit draws consumed from the secret stream after this tick (restores it like
        /// `rng_draws`).
        secret_draws: u64,
    },
    /// The state hash after a tick.
    StateHash {
        /// Tick number.
        tick: u64,
        /// Last event sequence number folded into the state.
        seq: u64,
        /// Hex hash (see `engine::hash`).
        hash: String,
    },
}
