//! Property tests of every decoder a disk can reach (issue 16): frames, segment headers,
//! snapshot files, log records and a whole session log with a damaged snapshot. Arbitrary and
//! mutated real bytes never panic; they give a typed error (or a value that re-encodes to a
//! valid frame). The real bytes come from the recorded fights in `replays/`.

use fray_protocol::codec::{from_bincode_record, to_bincode};
use fray_server::log::frame::decode_frame;
use fray_server::log::snapshot::{decode_snapshot, encode_snapshot};
use fray_server::log::{MemStorage, SegmentHeader};
use fray_server::session::record::Record;
use fray_server::session::{Session, SessionConfig};
use proptest::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

/// The first segment of a recorded fight, its header length and its frames' (offset, length).
struct Golden {
    bytes: Vec<u8>,
    header_len: usize,
    frames: Vec<(usize, usize)>,
}

fn golden() -> &'static Golden {
    static G: OnceLock<Golden> = OnceLock::new();
    G.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../replays/ose/barrow-of-the-hollow-king-seed-24/seg-000000.log");
        let bytes = std::fs::read(path).expect("the golden segment");
        let (_, header_len) = SegmentHeader::decode(&bytes).expect("its header");
        let mut frames = Vec::new();
        let mut at = header_len;
        while at < bytes.len() {
            let (_, used) = decode_frame(&bytes[at..]).expect("its frames");
            frames.push((at, used));
            at += used;
        }
        Golden {
            bytes,
            header_len,
            frames,
        }
    })
}

fn flip(mut bytes: Vec<u8>, flips: &[(usize, u8)]) -> Vec<u8> {
    let n = bytes.len();
    for (i, b) in flips {
        if n > 0 {
            bytes[i % n] ^= 1 << b;
        }
    }
    bytes
}

fn flips() -> impl Strategy<Value = Vec<(usize, u8)>> {
    proptest::collection::vec((any::<usize>(), 0u8..8), 1..4)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic_the_frame_header_snapshot_or_record_decoders(
        bytes in proptest::collection::vec(any::<u8>(), 0..600),
    ) {
        let _ = decode_frame(&bytes);
        let _ = SegmentHeader::decode(&bytes);
        let _ = decode_snapshot(&bytes);
        if let Ok(record) = from_bincode_record::<Record>(&bytes) {
            prop_assert!(to_bincode(&record).is_ok());
        }
    }

    #[test]
    fn a_mutated_real_frame_is_refused_or_still_checks(pick in any::<usize>(), f in flips(), cut in any::<usize>()) {
        let g = golden();
        let (at, len) = g.frames[pick % g.frames.len()];
        let mut bytes = flip(g.bytes[at..at + len].to_vec(), &f);
        bytes.truncate(cut % (len + 1) + 1);
        if let Ok((frame, used)) = decode_frame(&bytes) {
            // Whatever decodes passed the checksum: it is the frame as written.
            prop_assert!(used <= bytes.len());
            prop_assert_eq!(fray_server::log::frame::frame_crc(frame.seq, frame.payload), u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]));
        }
    }

    #[test]
    fn a_mutated_real_record_payload_is_refused_or_decodes_to_a_record(pick in any::<usize>(), f in flips()) {
        let g = golden();
        let (at, len) = g.frames[pick % g.frames.len()];
        let payload = flip(g.bytes[at + 16..at + len].to_vec(), &f);
        if let Ok(record) = from_bincode_record::<Record>(&payload) {
            prop_assert!(to_bincode(&record).is_ok());
        }
    }

    #[test]
    fn a_mutated_real_segment_header_is_refused_or_decodes(f in flips()) {
        let g = golden();
        let header = flip(g.bytes[..g.header_len].to_vec(), &f);
        let _ = SegmentHeader::decode(&header);
    }

    #[test]
    fn a_mutated_snapshot_file_is_refused_or_decodes_to_its_bytes(seq in any::<u64>(), f in flips(), cut in any::<usize>()) {
        let g = golden();
        let (at, len) = g.frames[1];
        let file = encode_snapshot(seq, &g.bytes[at + 16..at + len]);
        let mut bytes = flip(file.clone(), &f);
        bytes.truncate(cut % (file.len() + 1));
        if let Ok((s, payload)) = decode_snapshot(&bytes) {
            prop_assert_eq!(s, seq);
            prop_assert!(payload.len() <= bytes.len());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A session whose snapshot file is damaged opens from its log (or refuses with an error);
    /// it never panics and never trusts a snapshot whose checksum fails.
    #[test]
    fn a_session_with_a_damaged_snapshot_opens_or_refuses_without_panicking(f in flips(), cut in any::<usize>()) {
        let g = golden();
        let storage = MemStorage::new();
        storage.set_segment_bytes(0, g.bytes.clone());
        let config = SessionConfig { snapshot_every: 1, ..SessionConfig::default() };
        let reference = Session::open(storage.clone(), config.clone())
            .map(|(s, _)| s.state_hash())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        // Write a snapshot by hand from a real record payload (not a snapshot: decoding it as
        // one must fail cleanly), damaged.
        let (at, len) = g.frames[2];
        let mut snap = flip(encode_snapshot(3, &g.bytes[at + 16..at + len]), &f);
        let keep = cut % (snap.len() + 1);
        snap.truncate(keep);
        storage.set_file_bytes(&fray_server::log::snapshot::snapshot_file_name(3), snap);
        if let Ok((s, _)) = Session::open(storage, config) {
            prop_assert_eq!(s.state_hash(), reference);
        }
    }
}
