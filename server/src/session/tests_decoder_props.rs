//! Property tests for the decoding of a frame's payload: a log [`Record`] (`decode_frames`,
//! `from_bincode_record`) and a snapshot's [`Snapshot`] payload.
//!
//! Inputs are arbitrary bytes and *mutated* real payloads: every frame of the recorded fights
//! in `replays/`, and snapshots of those fights as a session writes them. A decoder must never
//! panic (nor overflow its stack); it returns a typed error or a value that re-encodes to the
//! same value. DESIGN.md §6: a strict prefix never decodes and trailing bytes are rejected. The
//! cargo-fuzz target `record` (`server/fuzz/`) runs the same checks for longer.

use super::*;
use crate::content::model::{MAX_POWER_NESTING, PowerSpec};
use crate::log::tests_decoder_props::{SEGMENTS, mutate, mutations};
use crate::log::{MemStorage, read_log_path};
use fray_protocol::codec::CodecError;
use fray_protocol::format::in_record_format;
use proptest::prelude::*;
use std::path::Path;
use std::sync::LazyLock;

/// The recorded fights' directories.
fn fights() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../replays");
    let mut out = Vec::new();
    for ruleset in std::fs::read_dir(&root).unwrap() {
        for fight in std::fs::read_dir(ruleset.unwrap().path()).unwrap() {
            out.push(fight.unwrap().path());
        }
    }
    out.sort();
    out
}

/// Every frame payload of every recorded fight — a genesis, commands, events, state hashes —
/// with the record format its fight's genesis names (each is decoded in it, as a session does).
static RECORDS: LazyLock<Vec<(u32, Vec<u8>)>> = LazyLock::new(|| {
    let mut out = Vec::new();
    for fight in fights() {
        let frames = read_log_path(&fight).unwrap().frames;
        let format = record::reader_for(&frames[0].1).unwrap();
        out.extend(frames.into_iter().map(|(_, p)| (format, p)));
    }
    assert!(out.len() > 100, "{} records", out.len());
    out
});

/// [`check_record`] in record format `format`.
fn check_record_in(format: u32, bytes: &[u8]) -> Result<Record, CodecError> {
    in_record_format(format, || check_record(bytes))
}

/// A snapshot payload of each recorded fight, as the session writes it after its last frame.
static SNAPSHOTS: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| {
    SEGMENTS
        .iter()
        .map(|segment| {
            let storage = MemStorage::new();
            storage.set_segment_bytes(0, segment.clone());
            let (s, _) = Session::open(storage, SessionConfig::default()).unwrap();
            let snap = Snapshot {
                tick: s.tick,
                last_seq: s.last_seq,
                rng_draws: s.engine.rng().draws(),
                state: s.state(),
                secret_draws: s.engine.secret_draws(),
            };
            to_bincode(&snap).unwrap()
        })
        .collect()
});

/// A record decodes to an error, or to a record whose encoding decodes to it again.
fn check_record(bytes: &[u8]) -> Result<Record, CodecError> {
    let record = from_bincode_record::<Record>(bytes)?;
    let again = to_bincode(&record).unwrap();
    assert!(again.len() <= bytes.len());
    assert_eq!(from_bincode_record::<Record>(&again).unwrap(), record);
    Ok(record)
}

/// A snapshot payload decodes to an error, or to one whose encoding is a fixed point.
fn check_snapshot_payload(bytes: &[u8]) {
    if let Ok(snap) = from_bincode_record::<Snapshot>(bytes) {
        let again = to_bincode(&snap).unwrap();
        let back = from_bincode_record::<Snapshot>(&again).unwrap();
        assert_eq!(to_bincode(&back).unwrap(), again);
        assert_eq!(back.state, snap.state);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic_the_record_or_snapshot_decoder(
        bytes in prop::collection::vec(any::<u8>(), 0..512),
    ) {
        let _ = check_record(&bytes);
        check_snapshot_payload(&bytes);
    }

    #[test]
    fn a_mutated_real_record_decodes_to_an_error_or_a_consistent_record(
        pick in any::<prop::sample::Index>(),
        edits in mutations(),
    ) {
        let (format, bytes) = pick.get(&RECORDS);
        let _ = check_record_in(*format, &mutate(bytes.clone(), &edits));
    }

    #[test]
    fn a_mutated_real_snapshot_payload_decodes_to_an_error_or_a_consistent_snapshot(
        pick in any::<prop::sample::Index>(),
        edits in prop::collection::vec(mutations(), 1..4),
    ) {
        let mut bytes = pick.get(&SNAPSHOTS).clone();
        for round in &edits {
            bytes = mutate(bytes, round);
        }
        check_snapshot_payload(&bytes);
    }

    #[test]
    fn a_strict_prefix_of_a_real_record_never_decodes_and_a_longer_one_is_trailing(
        pick in any::<prop::sample::Index>(),
        cut in any::<prop::sample::Index>(),
        tail in prop::collection::vec(any::<u8>(), 1..32),
    ) {
        let (format, bytes) = pick.get(&RECORDS);
        prop_assert!(check_record_in(*format, &bytes[..cut.index(bytes.len())]).is_err());
        let mut longer = bytes.clone();
        longer.extend_from_slice(&tail);
        let err = check_record_in(*format, &longer);
        prop_assert!(matches!(err, Err(CodecError::TrailingBytes(n)) if n == tail.len()), "{err:?}");
    }

    #[test]
    fn decode_frames_names_the_first_frame_that_does_not_decode(
        fight in any::<prop::sample::Index>(),
        victim in any::<prop::sample::Index>(),
        edits in mutations(),
    ) {
        let fights = fights();
        let mut frames = read_log_path(&fights[fight.index(fights.len())]).unwrap().frames;
        let victim = victim.index(frames.len());
        let (seq, payload) = &mut frames[victim];
        let seq = *seq;
        *payload = mutate(std::mem::take(payload), &edits);
        match decode_frames(&frames) {
            Ok(records) => prop_assert_eq!(records.len(), frames.len()),
            Err(SessionError::Record { index, .. }) => prop_assert_eq!(index, seq),
            Err(other) => prop_assert!(false, "unexpected error {}", other),
        }
    }
}

#[test]
fn every_recorded_frame_and_snapshot_decodes_and_re_encodes_to_its_bytes() {
    for (format, bytes) in RECORDS.iter() {
        let record = check_record_in(*format, bytes).unwrap();
        assert_eq!(
            &in_record_format(*format, || to_bincode(&record)).unwrap(),
            bytes
        );
    }
    for bytes in SNAPSHOTS.iter() {
        check_snapshot_payload(bytes);
        assert!(from_bincode_record::<Snapshot>(bytes).is_ok());
    }
}

/// A real power with nothing nested in it: the first power of the first Orcus genesis.
fn real_power() -> PowerSpec {
    for (format, bytes) in RECORDS.iter() {
        if let Ok(Record::Genesis(genesis)) =
            in_record_format(*format, || from_bincode_record::<Record>(bytes))
        {
            let orcus = genesis
                .encounter
                .combatants
                .iter()
                .find_map(|c| c.orcus.as_ref());
            if let Some(power) = orcus.and_then(|o| o.powers.first()) {
                return PowerSpec {
                    secondary: None,
                    side: None,
                    counter_on: None,
                    ..power.clone()
                };
            }
        }
    }
    panic!("an Orcus fight is recorded");
}

/// The bincode of `power` with `depth` copies of itself nested through `side`, built from
/// bytes (encoding, or dropping, such a value would recurse as deep itself).
fn nested_side_powers(power: &PowerSpec, depth: usize) -> Vec<u8> {
    // `side` and `counter_on` are the last two fields: each `None` is one 0 byte.
    let flat = to_bincode(power).unwrap();
    assert_eq!(&flat[flat.len() - 2..], &[0, 0]);
    let before_side = &flat[..flat.len() - 2];
    let mut out = Vec::with_capacity((before_side.len() + 2) * (depth + 1));
    for _ in 0..depth {
        out.extend_from_slice(before_side);
        out.push(1); // side: Some(…
    }
    out.extend_from_slice(&flat);
    out.extend(std::iter::repeat_n(0u8, depth)); // …, counter_on: None)
    out
}

/// The bincode of `power` with `depth` copies of itself nested as secondary attacks (on a hit,
/// against the primary target), built from bytes like [`nested_side_powers`].
fn nested_secondary_powers(power: &PowerSpec, depth: usize) -> Vec<u8> {
    // `id`, `uses_ammunition`, `underwater_penalty`, then the `secondary` option's tag.
    let flat = to_bincode(power).unwrap();
    let at = to_bincode(&power.id).unwrap().len() + 2;
    assert_eq!(flat[at], 0);
    let mut out = Vec::new();
    for _ in 0..depth {
        out.extend_from_slice(&flat[..at]);
        out.extend_from_slice(&[1, 0]); // secondary: Some(SecondaryAttack { on: Hit, power: …
    }
    out.extend_from_slice(&flat);
    for _ in 0..depth {
        out.push(0); // …, targets: Primary }), the outer power's other fields
        out.extend_from_slice(&flat[at + 1..]);
    }
    out
}

#[test]
fn powers_nested_through_secondary_attacks_are_bounded_like_side_weapons() {
    let power = real_power();
    let ok = from_bincode_record::<PowerSpec>(&nested_secondary_powers(&power, MAX_POWER_NESTING));
    let mut inner = ok.unwrap();
    for _ in 0..MAX_POWER_NESTING {
        let secondary = inner.secondary.take().unwrap();
        inner = secondary.power;
    }
    assert_eq!(inner, power);
    for depth in [MAX_POWER_NESTING + 1, 100_000] {
        let err =
            from_bincode_record::<PowerSpec>(&nested_secondary_powers(&power, depth)).unwrap_err();
        assert!(err.to_string().contains("nested"), "{err}");
    }
}

#[test]
fn a_record_nesting_powers_a_hundred_thousand_deep_is_an_error_not_a_stack_overflow() {
    let power = real_power();
    let shallow = nested_side_powers(&power, 2);
    let decoded = from_bincode_record::<PowerSpec>(&shallow).unwrap();
    assert_eq!(
        decoded.side.and_then(|s| s.side).map(|s| *s),
        Some(power.clone())
    );

    let deep = nested_side_powers(&power, 100_000);
    assert!(deep.len() < fray_protocol::codec::MAX_RECORD);
    let err = from_bincode_record::<PowerSpec>(&deep).unwrap_err();
    assert!(err.to_string().contains("nested"), "{err}");
    // The depth count is back to zero after the refusal.
    assert!(from_bincode_record::<PowerSpec>(&shallow).is_ok());
    let err = from_bincode_record::<PowerSpec>(&nested_side_powers(&power, MAX_POWER_NESTING + 1))
        .unwrap_err();
    assert!(err.to_string().contains("nested"), "{err}");
    assert!(
        from_bincode_record::<PowerSpec>(&nested_side_powers(&power, MAX_POWER_NESTING)).is_ok()
    );

    // The same power inside a genesis, where a log's first frame would carry it.
    let (format, genesis_bytes) = RECORDS
        .iter()
        .find(|(format, bytes)| {
            matches!(in_record_format(*format, || from_bincode_record::<Record>(bytes)), Ok(Record::Genesis(g))
                if g.encounter.combatants.iter().any(|c| c.orcus.is_some()))
        })
        .unwrap();
    let format = *format;
    let Ok(Record::Genesis(mut genesis)) =
        in_record_format(format, || from_bincode_record::<Record>(genesis_bytes))
    else {
        unreachable!()
    };
    let orcus = genesis
        .encounter
        .combatants
        .iter_mut()
        .find_map(|c| c.orcus.as_mut())
        .unwrap();
    orcus.powers[0] = power.clone();
    let flat = in_record_format(format, || to_bincode(&Record::Genesis(genesis))).unwrap();
    let power_bytes = in_record_format(format, || to_bincode(&power)).unwrap();
    let at = flat
        .windows(power_bytes.len())
        .position(|w| w == power_bytes)
        .unwrap();
    let mut hostile = flat[..at].to_vec();
    hostile.extend_from_slice(&deep);
    hostile.extend_from_slice(&flat[at + power_bytes.len()..]);
    let err = decode_frames(&[(0, hostile)]).unwrap_err();
    assert!(err.to_string().contains("nested"), "{err}");
}

/// Writes the seed corpora of the cargo-fuzz targets `segment_header`, `frame`, `snapshot` and
/// `record` under `$FRAY_FUZZ_SEEDS/<target>/`, from the recorded fights:
/// `FRAY_FUZZ_SEEDS=server/fuzz/corpus cargo test -p fray-server --lib write_fuzz_seeds -- --ignored`.
#[test]
#[ignore = "writes files; run by hand to seed the fuzz corpora"]
fn write_fuzz_seeds() {
    use crate::log::SegmentHeader;
    use crate::log::snapshot::encode_snapshot;
    let Some(root) = std::env::var_os("FRAY_FUZZ_SEEDS") else {
        return;
    };
    let root = std::path::PathBuf::from(root);
    let write = |target: &str, name: String, bytes: &[u8]| {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), bytes).unwrap();
    };
    for (i, segment) in SEGMENTS.iter().enumerate() {
        let (_, start) = SegmentHeader::decode(segment).unwrap();
        write(
            "segment_header",
            format!("header-{i:02}"),
            &segment[..start],
        );
        // The body's first frames (a genesis, a command, its events): small enough to mutate.
        let body = &segment[start..];
        write(
            "frame",
            format!("body-{i:02}"),
            &body[..body.len().min(4096)],
        );
    }
    for (i, payload) in SNAPSHOTS.iter().enumerate() {
        write("record", format!("snapshot-{i:02}"), payload);
        write(
            "snapshot",
            format!("snap-{i:02}"),
            &encode_snapshot(i as u64 * 7, payload),
        );
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, (_, payload)) in RECORDS.iter().enumerate() {
        // One seed per record kind and length, at most 400, so the corpus stays small.
        let kind = payload.first().copied();
        if seen.len() < 400 && seen.insert((kind, payload.len())) {
            write("record", format!("record-{i:04}"), payload);
        }
    }
}
