//! Messages on the WebSocket: what clients send and what the server sends back.

use crate::command::Command;
use crate::error::ErrorCode;
use crate::event::GameEvent;
use crate::ids::{Role, SessionId};
use crate::state::SessionState;
use serde::{Deserialize, Serialize};

/// The protocol version this crate speaks. `Hello` with another version is refused.
pub const PROTOCOL_VERSION: u32 = 1;

/// WebSocket subprotocol for JSON text frames.
pub const SUBPROTOCOL_JSON: &str = "fray.v1.json";
/// WebSocket subprotocol for bincode binary frames.
pub const SUBPROTOCOL_BINCODE: &str = "fray.v1.bincode";

/// Client → server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientMessage {
    /// First message on a connection: present a token; optionally resume after a sequence number.
    Hello {
        /// Must equal [`PROTOCOL_VERSION`].
        protocol: u32,
        /// A GM, player or spectator token from session creation.
        token: String,
        /// Receive every event with a sequence number greater than this, then live events.
        /// `None` = live events only (a `Snapshot` is sent first).
        resume_from: Option<u64>,
    },
    /// A game command; `id` is the client's own and comes back in `Accepted`/`Rejected`.
    Command {
        /// Client-chosen id.
        id: u64,
        /// The command.
        command: Command,
    },
    /// Ask for the current state.
    GetSnapshot,
    /// Keep-alive; answered by `Pong`.
    Ping {
        /// Echoed back.
        nonce: u64,
    },
}

/// Server → client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ServerMessage {
    /// Answer to `Hello`.
    Welcome {
        /// Protocol version.
        protocol: u32,
        /// Session id.
        session: SessionId,
        /// The role the token grants.
        role: Role,
        /// Sequence number of the last event so far (0 when none).
        seq: u64,
        /// Ruleset id.
        ruleset: String,
        /// Hex SHA-256(seed ‖ salt), published at creation.
        commitment: String,
    },
    /// A game event.
    Event {
        /// Gapless sequence number, from 1.
        seq: u64,
        /// The tick (accepted command number, from 1) that produced it.
        tick: u64,
        /// The event (redacted for players and spectators).
        event: GameEvent,
    },
    /// The command was accepted; its events have sequence numbers `first_seq..=last_seq`.
    Accepted {
        /// The client's command id.
        command_id: u64,
        /// First event of the command.
        first_seq: u64,
        /// Last event of the command.
        last_seq: u64,
    },
    /// The command was refused and changed nothing.
    Rejected {
        /// The client's command id.
        command_id: u64,
        /// Reason code.
        code: ErrorCode,
        /// Explanation.
        message: String,
    },
    /// The state as of `seq` (redacted for players and spectators).
    Snapshot {
        /// Last event folded into this state.
        seq: u64,
        /// The state.
        state: Box<SessionState>,
    },
    /// A protocol error not tied to a command.
    Error {
        /// Reason code.
        code: ErrorCode,
        /// Explanation.
        message: String,
    },
    /// Answer to `Ping`.
    Pong {
        /// The ping's nonce.
        nonce: u64,
    },
}
