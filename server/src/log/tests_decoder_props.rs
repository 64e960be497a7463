//! Property tests for the decoders a disk reaches: frames (`decode_frame`, `scan_frames`),
//! segment headers (`SegmentHeader::decode`) and snapshot files (`decode_snapshot`).
//!
//! Inputs are arbitrary bytes and *mutated* real data: the segment files of the recorded
//! fights in `replays/` and snapshots of their frames' payloads, with bits flipped, bytes set,
//! inserted or deleted, the end cut off. A decoder must never panic; it returns a typed error,
//! or a value that re-encodes to exactly the bytes it was read from. The cargo-fuzz targets
//! `frame`, `segment_header` and `snapshot` (`server/fuzz/`) run the same checks for longer.

use super::frame::{FRAME_HEADER_LEN, decode_frame, encode_frame, scan_frames, valid_frame_after};
use super::header::{HeaderError, SegmentHeader};
use super::snapshot::{SNAPSHOT_HEADER_LEN, SnapshotError, decode_snapshot, encode_snapshot};
use proptest::prelude::*;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::LazyLock;

/// The segment files of every recorded fight in `replays/`.
pub(crate) static SEGMENTS: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../replays");
    let mut paths = Vec::new();
    for ruleset in std::fs::read_dir(&root).unwrap() {
        for fight in std::fs::read_dir(ruleset.unwrap().path()).unwrap() {
            for file in std::fs::read_dir(fight.unwrap().path()).unwrap() {
                paths.push(file.unwrap().path());
            }
        }
    }
    paths.sort();
    assert!(
        paths.len() >= 10,
        "the recorded fights are there: {paths:?}"
    );
    paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
});

/// One edit of a byte string; positions are taken modulo its length.
#[derive(Debug, Clone)]
pub(crate) enum Mutation {
    FlipBit { at: usize, bit: u8 },
    Set { at: usize, byte: u8 },
    Insert { at: usize, byte: u8 },
    Delete { at: usize },
    Truncate { at: usize },
}

pub(crate) fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    let one = prop_oneof![
        3 => (any::<usize>(), 0u8..8).prop_map(|(at, bit)| Mutation::FlipBit { at, bit }),
        3 => (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Set { at, byte }),
        2 => (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Insert { at, byte }),
        2 => any::<usize>().prop_map(|at| Mutation::Delete { at }),
        1 => any::<usize>().prop_map(|at| Mutation::Truncate { at }),
    ];
    prop::collection::vec(one, 1..6)
}

pub(crate) fn mutate(mut bytes: Vec<u8>, edits: &[Mutation]) -> Vec<u8> {
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

/// A header decodes to an error, or to a header that re-encodes to exactly its bytes.
fn check_header(bytes: &[u8]) -> Option<usize> {
    let (header, len) = SegmentHeader::decode(bytes).ok()?;
    assert_eq!(len, header.encoded_len());
    assert_eq!(header.encode().unwrap(), &bytes[..len]);
    Some(len)
}

/// Walks the frames after a header as recovery does; every frame it accepts re-encodes to its
/// bytes, and it stops inside `bytes`.
fn check_scan(bytes: &[u8], start: usize, first_seq: u64) {
    let mut next_offset = start;
    let end = scan_frames(bytes, start, first_seq, |seq, payload, offset| {
        assert_eq!(offset, next_offset);
        let mut again = Vec::new();
        encode_frame(&mut again, seq, payload).unwrap();
        assert_eq!(again, &bytes[offset..offset + again.len()]);
        next_offset = offset + again.len();
        ControlFlow::Continue(())
    });
    assert_eq!(end.end, next_offset);
    assert!(end.end <= bytes.len());
    if end.corruption.is_none() {
        assert_eq!(
            end.end,
            bytes.len(),
            "a scan stops early only at corruption"
        );
    }
}

/// A snapshot file decodes to an error, or to a snapshot that re-encodes to the whole file.
fn check_snapshot(bytes: &[u8]) -> bool {
    match decode_snapshot(bytes) {
        Ok((seq, payload)) => {
            assert_eq!(encode_snapshot(seq, payload), bytes);
            true
        }
        Err(_) => false,
    }
}

/// A snapshot file around the payload of some real frame.
fn real_snapshot(segment: &prop::sample::Index, frame: &prop::sample::Index) -> Vec<u8> {
    let bytes = segment.get(&SEGMENTS);
    let (header, start) = SegmentHeader::decode(bytes).unwrap();
    let mut payloads = Vec::new();
    scan_frames(bytes, start, header.first_seq, |_, payload, _| {
        payloads.push(payload.to_vec());
        ControlFlow::Continue(())
    });
    encode_snapshot(
        header.first_seq + 40,
        &payloads[frame.index(payloads.len())],
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic_a_disk_decoder(
        bytes in prop::collection::vec(any::<u8>(), 0..512),
        first_seq in prop_oneof![Just(0u64), any::<u64>()],
    ) {
        check_header(&bytes);
        check_scan(&bytes, 0, first_seq);
        check_snapshot(&bytes);
        if let Ok((frame, used)) = decode_frame(&bytes) {
            prop_assert!((FRAME_HEADER_LEN..=bytes.len()).contains(&used));
            prop_assert_eq!(frame.payload.len(), used - FRAME_HEADER_LEN);
        }
    }

    #[test]
    fn a_mutated_segment_file_reads_as_far_as_it_is_intact_and_never_panics(
        segment in any::<prop::sample::Index>(),
        edits in mutations(),
    ) {
        let bytes = mutate(segment.get(&SEGMENTS).clone(), &edits);
        if let Some(start) = check_header(&bytes) {
            let first_seq = SegmentHeader::decode(&bytes).unwrap().0.first_seq;
            check_scan(&bytes, start, first_seq);
        }
    }

    #[test]
    fn a_mutated_segment_body_is_scanned_without_panic_from_any_offset(
        segment in any::<prop::sample::Index>(),
        edits in mutations(),
        start in any::<prop::sample::Index>(),
        first_seq in 0u64..4,
    ) {
        let bytes = mutate(segment.get(&SEGMENTS).clone(), &edits);
        check_scan(&bytes, start.index(bytes.len() + 1), first_seq);
    }

    #[test]
    fn a_mutated_snapshot_decodes_to_an_error_or_to_exactly_its_file(
        segment in any::<prop::sample::Index>(),
        frame in any::<prop::sample::Index>(),
        edits in mutations(),
    ) {
        check_snapshot(&mutate(real_snapshot(&segment, &frame), &edits));
    }

    #[test]
    fn one_flipped_bit_anywhere_in_a_snapshot_file_is_always_detected(
        segment in any::<prop::sample::Index>(),
        frame in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        bit in 0u8..8,
    ) {
        let mut bytes = real_snapshot(&segment, &frame);
        let at = at.index(bytes.len());
        bytes[at] ^= 1 << bit;
        let err = decode_snapshot(&bytes);
        prop_assert!(err.is_err(), "bit {} of byte {} flipped: {:?}", bit, at, err);
    }

    #[test]
    fn one_flipped_bit_in_a_frames_seq_crc_or_payload_is_always_detected(
        segment in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        bit in 0u8..8,
    ) {
        let bytes = segment.get(&SEGMENTS);
        let (_, start) = SegmentHeader::decode(bytes).unwrap();
        let (_, used) = decode_frame(&bytes[start..]).unwrap();
        let mut frame = bytes[start..start + used].to_vec();
        // Any byte but the length field (a shorter length is a different, shorter frame).
        let at = 4 + at.index(frame.len() - 4);
        frame[at] ^= 1 << bit;
        let err = decode_frame(&frame);
        prop_assert!(err.is_err(), "bit {} of byte {} flipped: {:?}", bit, at, err);
    }
}

#[test]
fn every_recorded_segment_decodes_completely_and_re_encodes_to_its_bytes() {
    for bytes in SEGMENTS.iter() {
        let start = check_header(bytes).unwrap();
        let (header, _) = SegmentHeader::decode(bytes).unwrap();
        check_scan(bytes, start, header.first_seq);
    }
}

#[test]
fn a_snapshot_declaring_more_bytes_than_the_address_space_is_a_length_error() {
    let mut bytes = encode_snapshot(3, b"state");
    bytes[18..26].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(
        decode_snapshot(&bytes),
        Err(SnapshotError::LengthMismatch {
            declared: u64::MAX,
            actual: 5
        })
    ));
    assert!(matches!(
        decode_snapshot(&bytes[..SNAPSHOT_HEADER_LEN - 1]),
        Err(SnapshotError::Truncated { .. })
    ));
}

#[test]
fn a_header_that_only_starts_like_the_magic_is_truncated_or_bad_magic_never_a_panic() {
    for len in 0..8 {
        let err = SegmentHeader::decode(&b"FRAYLOG\0"[..len]);
        assert!(matches!(err, Err(HeaderError::Truncated { .. })), "{err:?}");
        let err = SegmentHeader::decode(&b"FRAYLOX\0"[..len]);
        assert!(err.is_err(), "{err:?}");
    }
}

#[test]
fn a_frame_declaring_the_largest_payload_with_none_present_is_truncated_without_allocating() {
    let mut bytes = Vec::new();
    encode_frame(&mut bytes, 0, b"x").unwrap();
    bytes[0..4].copy_from_slice(&super::MAX_PAYLOAD_LEN.to_le_bytes());
    assert!(matches!(
        decode_frame(&bytes),
        Err(super::FrameError::Truncated { .. })
    ));
}

#[test]
fn a_tail_of_blocks_that_only_look_like_frames_is_judged_quickly_and_as_corruption() {
    // Frame 0, then 4 MiB of 16-byte blocks each claiming to be frame 1 with a 2 MiB payload
    // and a wrong checksum: every one of the first 128 Ki offsets would be checksummed over
    // 2 MiB (256 GiB in all, minutes) without the search's budget.
    let mut bytes = super::header::sample_header().encode().unwrap();
    let start = bytes.len();
    encode_frame(&mut bytes, 0, b"genesis").unwrap();
    let damaged = bytes.len();
    let mut block = (2u32 << 20).to_le_bytes().to_vec();
    block.extend_from_slice(&[0; 4]);
    block.extend_from_slice(&1u64.to_le_bytes());
    while bytes.len() < damaged + (4 << 20) {
        bytes.extend_from_slice(&block);
    }
    let t = std::time::Instant::now();
    let end = scan_frames(&bytes, start, 0, |_, _, _| ControlFlow::Continue(()));
    assert_eq!((end.end, end.next_seq), (damaged, 1));
    assert!(
        valid_frame_after(&bytes, damaged, 1).is_some(),
        "gives up: not a torn tail"
    );
    let mem = super::MemStorage::new();
    mem.set_segment_bytes(0, bytes);
    let err = super::read_log(&mem).map(|r| r.frames.len());
    assert!(
        matches!(err, Err(super::LogError::Corruption { .. })),
        "{err:?}"
    );
    assert!(
        t.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        t.elapsed()
    );
}
