//! Fray wire protocol: ids, commands, game events, state views, client/server messages and the
//! JSON and bincode codecs. No tokio, no bevy: any client can depend on it.
//!
//! The protocol is documented with a complete example session in `protocol/README.md`.

pub mod bf;
pub mod codec;
pub mod command;
pub mod error;
pub mod event;
pub mod format;
pub mod ftd;
pub mod grid;
pub mod ids;
pub mod message;
pub mod namespace;
pub mod ose;
pub mod pursuit;
pub mod roll;
#[cfg(feature = "schema")]
pub mod schema;
pub mod state;
pub mod talk;
pub mod view;

pub use command::{BxCommand, Command, FiveTorchesCommand, OrcusCommand, ThirteenthAgeCommand};
pub use error::{ErrorCode, Rejection};
pub use event::{BxEvent, FiveTorchesEvent, GameEvent, OrcusEvent, ThirteenthAgeEvent};
pub use ids::{CombatantId, Role, SessionId, Side};
pub use message::{ClientMessage, EventMessage, PROTOCOL_VERSION, ServerMessage};
pub use namespace::Family;
pub use state::SessionState;
pub use view::{CommandPreview, JsonPatch, LegalAction};
