//! Property tests of every decoder a peer can reach (issue 16): arbitrary bytes and mutated
//! real messages, in both encodings, never panic; they decode to a typed error or to a message
//! that encodes and decodes back to itself. (The same decoders are fuzzed with `cargo fuzz`,
//! README "Fuzzing".)

use fray_protocol::codec::{Encoding, Frame, decode_client, decode_server, encode};
use fray_protocol::{ClientMessage, ServerMessage};
use proptest::prelude::*;

/// Real client messages (as the protocol document writes them).
const CLIENT: &[&str] = &[
    r#"{"hello":{"protocol":1,"token":"41ec102fad06350afa94bdab4e9631d4","resume_from":null}}"#,
    r#"{"hello":{"protocol":1,"token":"abc","resume_from":12}}"#,
    r#"{"command":{"id":1,"command":"start_battle"}}"#,
    r#"{"command":{"id":7,"command":{"attack":{"actor":"brakka","attack":"melee","targets":["goblin-scrapper-1"],"mode":"standard"}}}}"#,
    r#"{"command":{"id":9,"command":{"move":{"actor":"vex","engage":"goblin-archer-1","far_away":false}}}}"#,
    r#"{"command":{"id":3,"command":{"end_turn":{"actor":"vex"}}}}"#,
    r#""get_snapshot""#,
    r#"{"ping":{"nonce":5}}"#,
];

/// Real server messages.
const SERVER: &[&str] = &[
    r#"{"accepted":{"command_id":7,"first_seq":11,"last_seq":19}}"#,
    r#"{"rejected":{"command_id":8,"code":"not_your_turn","message":"not Vex's turn"}}"#,
    r#"{"error":{"code":"malformed_frame","message":"expected value"}}"#,
    r#"{"pong":{"nonce":5}}"#,
    r#"{"event":{"seq":1,"tick":1,"event":"battle_started"}}"#,
    r#"{"event":{"seq":2,"tick":1,"event":{"initiative_rolled":{"combatants":["brakka"],"roll":{"expr":"d20","dice":[{"sides":20,"face":15,"kept":true}],"modifier":0,"total":15},"bonus":3,"total":18}}}}"#,
];

fn encodings<T: serde::de::DeserializeOwned + serde::Serialize>(json: &[&str]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for text in json {
        let value: T = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => panic!("a sample does not decode: {e}: {text}"),
        };
        for enc in [Encoding::Json, Encoding::Bincode] {
            match encode(&value, enc) {
                Ok(Frame::Text(s)) => out.push(s.into_bytes()),
                Ok(Frame::Binary(b)) => out.push(b),
                Err(e) => panic!("a sample does not encode: {e}"),
            }
        }
    }
    out
}

/// One change to a byte string.
#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Truncate(usize),
    Set(usize, u8),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 0u8..8).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, v)| Mutation::Insert(i, v)),
        any::<usize>().prop_map(Mutation::Delete),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), any::<u8>()).prop_map(|(i, v)| Mutation::Set(i, v)),
    ]
}

fn mutate(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        let n = bytes.len();
        match *m {
            Mutation::Flip(i, b) if n > 0 => bytes[i % n] ^= 1 << b,
            Mutation::Insert(i, v) => bytes.insert(i % (n + 1), v),
            Mutation::Delete(i) if n > 0 => {
                bytes.remove(i % n);
            }
            Mutation::Truncate(i) => bytes.truncate(i % (n + 1)),
            Mutation::Set(i, v) if n > 0 => bytes[i % n] = v,
            _ => {}
        }
    }
    bytes
}

/// Decodes with `decode`; a success must survive an encode/decode round trip unchanged.
fn check<T>(
    bytes: &[u8],
    enc: Encoding,
    decode: fn(&[u8], Encoding) -> Result<T, fray_protocol::codec::CodecError>,
) -> Result<(), TestCaseError>
where
    T: serde::Serialize + PartialEq + std::fmt::Debug,
{
    if let Ok(value) = decode(bytes, enc) {
        let again = match encode(&value, enc) {
            Ok(Frame::Text(s)) => decode(s.as_bytes(), enc),
            Ok(Frame::Binary(b)) => decode(&b, enc),
            Err(e) => return Err(TestCaseError::fail(format!("re-encoding failed: {e}"))),
        };
        prop_assert_eq!(again.ok(), Some(value));
    }
    Ok(())
}

const BOTH: [Encoding; 2] = [Encoding::Json, Encoding::Bincode];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic_a_client_or_server_decoder(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        for enc in BOTH {
            check::<ClientMessage>(&bytes, enc, decode_client)?;
            check::<ServerMessage>(&bytes, enc, decode_server)?;
        }
    }

    #[test]
    fn mutated_client_messages_decode_to_an_error_or_a_message_that_round_trips(
        pick in any::<usize>(),
        mutations in proptest::collection::vec(mutation(), 1..6),
    ) {
        let samples = encodings::<ClientMessage>(CLIENT);
        let i = pick % samples.len();
        // Samples alternate JSON, bincode.
        let enc = BOTH[i % 2];
        let bytes = mutate(samples[i].clone(), &mutations);
        check::<ClientMessage>(&bytes, enc, decode_client)?;
    }

    #[test]
    fn mutated_server_messages_decode_to_an_error_or_a_message_that_round_trips(
        pick in any::<usize>(),
        mutations in proptest::collection::vec(mutation(), 1..6),
    ) {
        let samples = encodings::<ServerMessage>(SERVER);
        let i = pick % samples.len();
        let enc = BOTH[i % 2];
        let bytes = mutate(samples[i].clone(), &mutations);
        check::<ServerMessage>(&bytes, enc, decode_server)?;
    }
}

#[test]
fn a_bincode_message_with_trailing_bytes_is_refused() {
    let samples = encodings::<ClientMessage>(CLIENT);
    let mut bytes = samples[1].clone();
    bytes.push(0);
    assert!(decode_client::<ClientMessage>(&bytes, Encoding::Bincode).is_err());
}
