//! Property tests for the decoders a peer reaches: `decode_client` (what a server decodes from
//! clients) and `decode_server` (what the CLI decodes from servers), in both encodings.
//!
//! Inputs are arbitrary bytes and *mutated* valid encodings of real messages (every example
//! frame, command and event of `protocol/README.md`, plus a few built here): bits flipped,
//! bytes set, inserted or deleted, the end cut off. A decoder must never panic; it returns a
//! typed [`CodecError`] or a message that re-encodes to the same message. DESIGN.md §6: bincode
//! never accepts trailing bytes, and a strict prefix of a valid bincode frame never decodes.
//!
//! The cargo-fuzz targets in `server/fuzz/` run the same checks for much longer; the ignored
//! test `write_fuzz_seeds` writes their seed corpora (see README.md, "Fuzzing").

use fray_protocol::codec::{
    CodecError, Encoding, Frame, MAX_CLIENT_FRAME, decode_client, decode_server, encode,
};
use fray_protocol::{ClientMessage, Command, GameEvent, PROTOCOL_VERSION, ServerMessage};
use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;
use std::sync::LazyLock;

const README: &str = include_str!("../README.md");
const ROLL: &str = r#"{"expr":"2d8+4","dice":[{"sides":8,"face":6,"kept":true},{"sides":8,"face":3,"kept":true}],"modifier":4,"total":13}"#;

/// Every JSON cell of the README's tables, `<Roll>` filled in.
fn table_cells() -> Vec<String> {
    README
        .lines()
        .filter(|l| l.starts_with('|'))
        .flat_map(|l| l.split('|'))
        .filter_map(|cell| {
            let json = cell.trim().strip_prefix('`')?.strip_suffix('`')?;
            (json.starts_with('{') || json.starts_with('"')).then(|| json.replace("<Roll>", ROLL))
        })
        .collect()
}

/// Real client messages: the README's example session, every command of its tables sent as a
/// `command`, and the other messages.
static CLIENT: LazyLock<Vec<ClientMessage>> = LazyLock::new(|| {
    let mut out: Vec<ClientMessage> = README
        .lines()
        .filter_map(|l| l.strip_prefix("C "))
        .filter_map(|json| serde_json::from_str(json).ok())
        .collect();
    let commands: Vec<Command> = table_cells()
        .iter()
        .filter_map(|json| serde_json::from_str(json).ok())
        .collect();
    assert!(commands.len() > 100, "{} commands", commands.len());
    out.extend(
        commands
            .into_iter()
            .enumerate()
            .map(|(i, command)| ClientMessage::Command {
                id: i as u64 * 977,
                command,
            }),
    );
    out.extend([
        ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            token: "caae42ebb563b37428e31b2a903ead1c".into(),
            resume_from: Some(u64::MAX),
        },
        ClientMessage::GetSnapshot,
        ClientMessage::Ping { nonce: 0 },
        ClientMessage::Ping { nonce: u64::MAX },
    ]);
    out
});

/// Real server messages: the README's example session (a snapshot with a full state among
/// them) and every event of its tables.
static SERVER: LazyLock<Vec<ServerMessage>> = LazyLock::new(|| {
    let mut out: Vec<ServerMessage> = README
        .lines()
        .filter_map(|l| l.strip_prefix("S "))
        .filter_map(|json| serde_json::from_str(json).ok())
        .collect();
    assert!(
        out.iter()
            .any(|m| matches!(m, ServerMessage::Snapshot { .. })),
        "the example session has a snapshot"
    );
    let events: Vec<GameEvent> = table_cells()
        .iter()
        .filter_map(|json| serde_json::from_str(json).ok())
        .collect();
    assert!(events.len() > 100, "{} events", events.len());
    out.extend(
        events
            .into_iter()
            .enumerate()
            .map(|(i, event)| ServerMessage::Event {
                seq: i as u64 + 1,
                tick: i as u64 / 3 + 1,
                event,
            }),
    );
    out
});

fn bytes_of(msg: &impl Serialize, enc: Encoding) -> Vec<u8> {
    match encode(msg, enc).expect("protocol types encode") {
        Frame::Text(text) => text.into_bytes(),
        Frame::Binary(bytes) => bytes,
    }
}

/// One edit of a byte string; positions are taken modulo its length.
#[derive(Debug, Clone)]
enum Mutation {
    FlipBit { at: usize, bit: u8 },
    Set { at: usize, byte: u8 },
    Insert { at: usize, byte: u8 },
    Delete { at: usize },
    Truncate { at: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (any::<usize>(), 0u8..8).prop_map(|(at, bit)| Mutation::FlipBit { at, bit }),
        3 => (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Set { at, byte }),
        2 => (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Insert { at, byte }),
        2 => any::<usize>().prop_map(|at| Mutation::Delete { at }),
        1 => any::<usize>().prop_map(|at| Mutation::Truncate { at }),
    ]
}

fn mutate(mut bytes: Vec<u8>, edits: &[Mutation]) -> Vec<u8> {
    for edit in edits {
        let len = bytes.len();
        match *edit {
            Mutation::Insert { at, byte } => bytes.insert(at % (len + 1), byte),
            _ if len == 0 => {}
            Mutation::FlipBit { at, bit } => bytes[at % len] ^= 1 << bit,
            Mutation::Set { at, byte } => bytes[at % len] = byte,
            Mutation::Delete { at } => {
                bytes.remove(at % len);
            }
            Mutation::Truncate { at } => bytes.truncate(at % len),
        }
    }
    bytes
}

type Decoder<T> = fn(&[u8], Encoding) -> Result<T, CodecError>;

/// The decoder does not panic, and what it accepts re-encodes to a frame that decodes to the
/// same value (bincode: never a longer one).
fn decodes_consistently<T>(decode: Decoder<T>, bytes: &[u8], enc: Encoding)
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    if let Ok(value) = decode(bytes, enc) {
        let again = bytes_of(&value, enc);
        if enc == Encoding::Bincode {
            assert!(again.len() <= bytes.len(), "{value:?}");
        }
        let back = decode(&again, enc).expect("a re-encoded value decodes");
        assert_eq!(back, value);
    }
}

fn encodings() -> impl Strategy<Value = Encoding> {
    prop_oneof![Just(Encoding::Json), Just(Encoding::Bincode)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic_either_decoder(
        bytes in prop::collection::vec(any::<u8>(), 0..512),
        enc in encodings(),
    ) {
        decodes_consistently::<ClientMessage>(decode_client, &bytes, enc);
        decodes_consistently::<ServerMessage>(decode_server, &bytes, enc);
    }

    #[test]
    fn mutated_client_messages_decode_to_an_error_or_a_consistent_message(
        pick in any::<prop::sample::Index>(),
        enc in encodings(),
        edits in prop::collection::vec(mutation(), 1..6),
    ) {
        let msg = pick.get(&CLIENT);
        let bytes = mutate(bytes_of(msg, enc), &edits);
        decodes_consistently::<ClientMessage>(decode_client, &bytes, enc);
    }

    #[test]
    fn mutated_server_messages_decode_to_an_error_or_a_consistent_message(
        pick in any::<prop::sample::Index>(),
        enc in encodings(),
        edits in prop::collection::vec(mutation(), 1..6),
    ) {
        let msg = pick.get(&SERVER);
        let bytes = mutate(bytes_of(msg, enc), &edits);
        decodes_consistently::<ServerMessage>(decode_server, &bytes, enc);
    }

    #[test]
    fn a_strict_prefix_of_a_bincode_message_is_always_an_error(
        pick in any::<prop::sample::Index>(),
        cut in any::<prop::sample::Index>(),
    ) {
        let bytes = bytes_of(pick.get(&CLIENT), Encoding::Bincode);
        let cut = cut.index(bytes.len());
        prop_assert!(decode_client::<ClientMessage>(&bytes[..cut], Encoding::Bincode).is_err());
    }

    #[test]
    fn bytes_after_a_bincode_message_are_always_rejected_as_trailing(
        pick in any::<prop::sample::Index>(),
        tail in prop::collection::vec(any::<u8>(), 1..64),
    ) {
        let msg = pick.get(&SERVER);
        let mut bytes = bytes_of(msg, Encoding::Bincode);
        bytes.extend_from_slice(&tail);
        let err = decode_server::<ServerMessage>(&bytes, Encoding::Bincode);
        prop_assert!(matches!(err, Err(CodecError::TrailingBytes(n)) if n == tail.len()), "{err:?}");
    }
}

#[test]
fn every_real_message_round_trips_in_both_encodings() {
    for enc in [Encoding::Json, Encoding::Bincode] {
        for msg in CLIENT.iter() {
            let back: ClientMessage = decode_client(&bytes_of(msg, enc), enc).expect("decodes");
            assert_eq!(&back, msg);
        }
        for msg in SERVER.iter() {
            let back: ServerMessage = decode_server(&bytes_of(msg, enc), enc).expect("decodes");
            assert_eq!(&back, msg);
        }
    }
}

#[test]
fn a_huge_declared_length_in_a_client_frame_is_a_limit_error_not_an_allocation() {
    // `command`, id 1, `attack`, then a string length of 2^64 - 1 (a u64 varint) for the actor.
    let mut bytes = vec![1u8, 1, 2, 253];
    bytes.extend_from_slice(&[0xFF; 8]);
    let err = decode_client::<ClientMessage>(&bytes, Encoding::Bincode);
    assert!(matches!(err, Err(CodecError::BincodeDecode(_))), "{err:?}");
    // A length just under the frame limit but longer than the frame is refused too.
    let mut bytes = vec![0u8, 1, 0xFC];
    bytes.extend_from_slice(&(MAX_CLIENT_FRAME as u32 - 1).to_le_bytes());
    assert!(decode_client::<ClientMessage>(&bytes, Encoding::Bincode).is_err());
}

/// Writes the seed corpora of the cargo-fuzz targets `client_json`, `client_bincode` and
/// `server_messages` under `$FRAY_FUZZ_SEEDS/<target>/`:
/// `FRAY_FUZZ_SEEDS=server/fuzz/corpus cargo test -p fray-protocol --test decoder_props -- --ignored`.
#[test]
#[ignore = "writes files; run by hand to seed the fuzz corpora"]
fn write_fuzz_seeds() {
    let Some(root) = std::env::var_os("FRAY_FUZZ_SEEDS") else {
        return;
    };
    let root = std::path::PathBuf::from(root);
    let write = |target: &str, i: usize, bytes: &[u8]| {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir).expect("corpus directory");
        std::fs::write(dir.join(format!("seed-{i:04}")), bytes).expect("seed file");
    };
    for (i, msg) in CLIENT.iter().enumerate() {
        write("client_json", i, &bytes_of(msg, Encoding::Json));
        write("client_bincode", i, &bytes_of(msg, Encoding::Bincode));
    }
    for (i, msg) in SERVER.iter().enumerate() {
        write("server_messages", 2 * i, &bytes_of(msg, Encoding::Json));
        write(
            "server_messages",
            2 * i + 1,
            &bytes_of(msg, Encoding::Bincode),
        );
    }
}
