//! The codecs: JSON text and bincode binary, with size limits. This is the only module that
//! touches `bincode` (2.0.1, pinned; kept behind this module so it can be swapped).
//!
//! Every bincode decode uses `config::standard().with_limit::<N>()` — without a limit a few
//! hostile bytes can make bincode allocate without bound — and trailing bytes are rejected.

use serde::Serialize;
use serde::de::DeserializeOwned;
use thiserror::Error;

/// Largest frame a client may send (bytes). A larger frame closes the connection.
pub const MAX_CLIENT_FRAME: usize = 64 * 1024;
/// Largest frame the server sends (snapshots included).
pub const MAX_SERVER_FRAME: usize = 4 * 1024 * 1024;
/// Largest log record payload decoded by [`from_bincode_record`].
pub const MAX_RECORD: usize = 16 * 1024 * 1024;

/// Wire encodings, chosen by WebSocket subprotocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// `fray.v1.json`: JSON in text frames.
    Json,
    /// `fray.v1.bincode`: bincode (standard config, varint) in binary frames.
    Bincode,
}

impl Encoding {
    /// The subprotocol name.
    pub fn subprotocol(self) -> &'static str {
        match self {
            Encoding::Json => crate::message::SUBPROTOCOL_JSON,
            Encoding::Bincode => crate::message::SUBPROTOCOL_BINCODE,
        }
    }
    /// Encoding for a subprotocol name.
    pub fn from_subprotocol(name: &str) -> Option<Encoding> {
        match name {
            crate::message::SUBPROTOCOL_JSON => Some(Encoding::Json),
            crate::message::SUBPROTOCOL_BINCODE => Some(Encoding::Bincode),
            _ => None,
        }
    }
}

/// Encoding or decoding failed.
#[derive(Debug, Error)]
pub enum CodecError {
    /// Larger than allowed.
    #[error("frame of {size} bytes exceeds the limit of {limit} bytes")]
    TooLarge {
        /// Frame size.
        size: usize,
        /// Limit.
        limit: usize,
    },
    /// JSON that does not parse or has the wrong shape.
    #[error("malformed JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// Bincode that does not decode.
    #[error("malformed bincode: {0}")]
    BincodeDecode(#[from] bincode::error::DecodeError),
    /// Bincode encoding failed (should not happen for protocol types).
    #[error("bincode encoding failed: {0}")]
    BincodeEncode(#[from] bincode::error::EncodeError),
    /// Bytes left over after a complete bincode value.
    #[error("{0} trailing bytes after the message")]
    TrailingBytes(usize),
}

/// An encoded frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// A text frame (JSON).
    Text(String),
    /// A binary frame (bincode).
    Binary(Vec<u8>),
}

impl Frame {
    /// Bytes of the payload.
    pub fn len(&self) -> usize {
        match self {
            Frame::Text(s) => s.len(),
            Frame::Binary(b) => b.len(),
        }
    }
    /// Whether the payload is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Encodes a message in the given encoding.
pub fn encode<T: Serialize>(msg: &T, enc: Encoding) -> Result<Frame, CodecError> {
    Ok(match enc {
        Encoding::Json => Frame::Text(serde_json::to_string(msg)?),
        Encoding::Bincode => Frame::Binary(to_bincode(msg)?),
    })
}

/// Decodes a frame sent by a client (limit [`MAX_CLIENT_FRAME`]).
pub fn decode_client<T: DeserializeOwned>(bytes: &[u8], enc: Encoding) -> Result<T, CodecError> {
    check_size(bytes.len(), MAX_CLIENT_FRAME)?;
    match enc {
        Encoding::Json => Ok(serde_json::from_slice(bytes)?),
        Encoding::Bincode => bincode_limited::<T, MAX_CLIENT_FRAME>(bytes),
    }
}

/// Decodes a frame sent by the server (limit [`MAX_SERVER_FRAME`]).
pub fn decode_server<T: DeserializeOwned>(bytes: &[u8], enc: Encoding) -> Result<T, CodecError> {
    check_size(bytes.len(), MAX_SERVER_FRAME)?;
    match enc {
        Encoding::Json => Ok(serde_json::from_slice(bytes)?),
        Encoding::Bincode => bincode_limited::<T, MAX_SERVER_FRAME>(bytes),
    }
}

/// Bincode encoding (standard config) for frames and log records.
pub fn to_bincode<T: Serialize>(value: &T) -> Result<Vec<u8>, CodecError> {
    // Most frames and records are a few dozen bytes: one allocation instead of growing from
    // empty through 8, 16, 32 and 64 bytes.
    let mut out = Vec::with_capacity(BINCODE_START);
    bincode::serde::encode_into_std_write(value, &mut out, bincode::config::standard())?;
    Ok(out)
}

/// The first capacity of a bincode encoding's buffer.
const BINCODE_START: usize = 64;

/// Bincode encoding (standard config) written to `out` as it is produced, with no buffer of
/// the whole encoding (the state hash streams it into SHA-256).
pub fn to_bincode_writer<T: Serialize, W: std::io::Write>(
    value: &T,
    out: &mut W,
) -> Result<(), CodecError> {
    bincode::serde::encode_into_std_write(value, out, bincode::config::standard())?;
    Ok(())
}

/// Decodes a log record payload (limit [`MAX_RECORD`]), rejecting trailing bytes.
pub fn from_bincode_record<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    check_size(bytes.len(), MAX_RECORD)?;
    bincode_limited::<T, MAX_RECORD>(bytes)
}

/// Decodes the value a log record payload *starts with*, ignoring what follows (bounded like
/// [`from_bincode_record`]). Readers use it to learn a record's format version before choosing
/// how to decode the rest.
pub fn bincode_record_prefix<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    check_size(bytes.len(), MAX_RECORD)?;
    let config = bincode::config::standard().with_limit::<MAX_RECORD>();
    Ok(bincode::serde::decode_from_slice::<T, _>(bytes, config)?.0)
}

fn check_size(size: usize, limit: usize) -> Result<(), CodecError> {
    if size > limit {
        Err(CodecError::TooLarge { size, limit })
    } else {
        Ok(())
    }
}

fn bincode_limited<T: DeserializeOwned, const LIMIT: usize>(bytes: &[u8]) -> Result<T, CodecError> {
    let config = bincode::config::standard().with_limit::<LIMIT>();
    let (value, used) = bincode::serde::decode_from_slice::<T, _>(bytes, config)?;
    if used != bytes.len() {
        return Err(CodecError::TrailingBytes(bytes.len() - used));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::Command;
    use crate::ids::CombatantId;
    use crate::message::{ClientMessage, PROTOCOL_VERSION};

    fn sample() -> ClientMessage {
        ClientMessage::Command {
            id: 7,
            command: Command::Attack {
                actor: CombatantId::new("brakka"),
                attack: "melee".into(),
                targets: vec![CombatantId::new("goblin-1")],
                mode: crate::command::AttackMode::Standard,
                knock_out: false,
                forced: Vec::new(),
                weapon: None,
                secondary_target: None,
            },
        }
    }

    #[test]
    fn json_round_trip_and_shape() {
        let Ok(Frame::Text(text)) = encode(&sample(), Encoding::Json) else {
            panic!("json encodes to text");
        };
        assert_eq!(
            text,
            r#"{"command":{"id":7,"command":{"attack":{"actor":"brakka","attack":"melee","targets":["goblin-1"],"mode":"standard","knock_out":false,"forced":[],"weapon":null,"secondary_target":null}}}}"#
        );
        let back: ClientMessage = decode_client(text.as_bytes(), Encoding::Json).unwrap();
        assert_eq!(back, sample());
    }

    #[test]
    fn bincode_round_trip() {
        let hello = ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            token: "t".into(),
            resume_from: Some(3),
        };
        for msg in [sample(), hello] {
            let Ok(Frame::Binary(bytes)) = encode(&msg, Encoding::Bincode) else {
                panic!("bincode encodes to binary");
            };
            let back: ClientMessage = decode_client(&bytes, Encoding::Bincode).unwrap();
            assert_eq!(back, msg);
        }
    }

    #[test]
    fn bincode_rejects_trailing_bytes() {
        let mut bytes = to_bincode(&sample()).unwrap();
        bytes.push(0);
        let err = decode_client::<ClientMessage>(&bytes, Encoding::Bincode).unwrap_err();
        assert!(matches!(err, CodecError::TrailingBytes(1)), "{err}");
    }

    #[test]
    fn hostile_bincode_length_is_bounded() {
        // A variant index for `command`, then a huge varint length for the attack string.
        let bytes = [1u8, 7, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF];
        assert!(decode_client::<ClientMessage>(&bytes, Encoding::Bincode).is_err());
    }

    #[test]
    fn oversize_is_rejected_before_parsing() {
        let big = vec![b' '; MAX_CLIENT_FRAME + 1];
        let err = decode_client::<ClientMessage>(&big, Encoding::Json).unwrap_err();
        assert!(matches!(err, CodecError::TooLarge { .. }));
    }

    #[test]
    fn malformed_json_is_an_error() {
        let err = decode_client::<ClientMessage>(b"{\"hello\":", Encoding::Json).unwrap_err();
        assert!(matches!(err, CodecError::Json(_)));
    }
}
