//! Messages on the WebSocket: what clients send and what the server sends back.

use crate::command::Command;
use crate::error::ErrorCode;
use crate::event::GameEvent;
use crate::ids::{Role, SessionId};
use crate::state::SessionState;
use crate::view::{CommandPreview, JsonPatch, LegalAction};
use serde::{Deserialize, Serialize};

/// The protocol version this crate speaks. `Hello` with another version is refused.
pub const PROTOCOL_VERSION: u32 = 1;

/// WebSocket subprotocol for JSON text frames.
pub const SUBPROTOCOL_JSON: &str = "fray.v1.json";
/// WebSocket subprotocol for bincode binary frames.
pub const SUBPROTOCOL_BINCODE: &str = "fray.v1.bincode";

/// Client → server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// Follow the view and/or the legal actions: answered at once by a `Snapshot` (views) and
    /// `LegalActions` (legal actions), then after every batch of events by a `ViewPatch` and,
    /// when they changed, `LegalActions`. Both `false` stops following.
    Watch {
        /// Receive the view: a `Snapshot`, then `ViewPatch`es.
        views: bool,
        /// Receive the seat's legal actions whenever they change.
        legal_actions: bool,
    },
    /// Ask once for the commands this connection's seat may send now (`LegalActions`).
    GetLegalActions,
    /// Ask what a command would cover — its area's squares, its path, the creatures it would
    /// affect — without sending it: answered by `PreviewResult` or `PreviewRefused` carrying
    /// `id`. Nothing is decided, drawn or logged. The seat must be one that may send the
    /// command.
    Preview {
        /// Client-chosen id, echoed in the answer.
        id: u64,
        /// The command to preview.
        command: Command,
    },
}

/// A borrowed `ServerMessage::Event`: serializes to exactly the bytes of
/// `ServerMessage::Event { seq, tick, event: event.clone() }` in both encodings, without the
/// clone (the server encodes the GM's copy of every event this way).
#[derive(Debug, Clone, Copy)]
pub struct EventMessage<'a> {
    /// Gapless sequence number.
    pub seq: u64,
    /// The tick that produced it.
    pub tick: u64,
    /// The event.
    pub event: &'a GameEvent,
}

/// Index of `Event` among `ServerMessage`'s variants (bincode encodes the index).
const EVENT_VARIANT: u32 = 1;

impl Serialize for EventMessage<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStructVariant;
        let mut v =
            serializer.serialize_struct_variant("ServerMessage", EVENT_VARIANT, "event", 3)?;
        v.serialize_field("seq", &self.seq)?;
        v.serialize_field("tick", &self.tick)?;
        v.serialize_field("event", self.event)?;
        v.end()
    }
}

/// Server → client.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ServerMessage {
    /// Answer to `Hello`. (Variant order is the bincode encoding: `Event` stays second,
    /// see `EventMessage`.)
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
    /// A watching connection's view brought from the state at `from_seq` to the state at `seq`
    /// (redacted for players and spectators): an RFC 6902 patch of the view's JSON.
    ViewPatch {
        /// The view the patch applies to: the last `Snapshot`'s or `ViewPatch`'s `seq`.
        from_seq: u64,
        /// The view it makes: every event up to this one is folded in.
        seq: u64,
        /// The operations.
        patch: JsonPatch,
    },
    /// The commands the connection's seat may send now, as of the state at `seq`.
    LegalActions {
        /// Last event folded into the state they were computed from.
        seq: u64,
        /// Each a complete command the ruleset accepts now.
        actions: Vec<LegalAction>,
    },
    /// Answer to `Preview`: what the command would cover in the state at `seq`.
    PreviewResult {
        /// The `Preview`'s id.
        id: u64,
        /// Last event folded into the state the preview was computed from.
        seq: u64,
        /// What the command would cover.
        preview: CommandPreview,
    },
    /// Answer to `Preview`: the command cannot be previewed (its seat may not send it, the
    /// ruleset has no preview for it, or the command itself is impossible: no line of effect
    /// to the origin, out of range, …).
    PreviewRefused {
        /// The `Preview`'s id.
        id: u64,
        /// Reason code.
        code: ErrorCode,
        /// Explanation.
        message: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{Encoding, encode};

    #[test]
    fn an_event_message_encodes_exactly_as_the_owned_server_message() {
        for json in [
            r#""battle_started""#,
            r#"{"round_started":{"round":2}}"#,
            r#"{"initiative_rolled":{"combatants":["brakka"],"roll":{"expr":"d20","dice":[{"sides":20,"face":15,"kept":true}],"modifier":0,"total":15},"bonus":3,"total":18}}"#,
        ] {
            let event: GameEvent = serde_json::from_str(json).unwrap_or(GameEvent::BattleStarted);
            for enc in [Encoding::Json, Encoding::Bincode] {
                let owned = encode(
                    &ServerMessage::Event {
                        seq: 300,
                        tick: 7,
                        event: event.clone(),
                    },
                    enc,
                );
                let borrowed = encode(
                    &EventMessage {
                        seq: 300,
                        tick: 7,
                        event: &event,
                    },
                    enc,
                );
                assert_eq!(owned.ok(), borrowed.ok(), "{json} in {enc:?}");
            }
        }
    }
}
