//! A frame's payload as the session decodes it: a log record, or the state inside a snapshot.
//! Never a panic (nor a stack overflow); what decodes re-encodes to the same value.
#![no_main]

use fray_protocol::SessionState;
use fray_protocol::codec::{from_bincode_record, to_bincode};
use fray_server::session::record::Record;
use libfuzzer_sys::fuzz_target;

type SnapshotPayload = (u64, u64, u64, SessionState, u64);

fuzz_target!(|data: &[u8]| {
    if let Ok(record) = from_bincode_record::<Record>(data) {
        let bytes = to_bincode(&record).expect("a decoded record encodes");
        assert_eq!(from_bincode_record::<Record>(&bytes).ok(), Some(record));
    }
    // A snapshot's payload (`session::Snapshot`, private): tick, last_seq, rng_draws, state,
    // secret_draws. Bincode encodes a struct as the tuple of its fields.
    if let Ok(snapshot) = from_bincode_record::<SnapshotPayload>(data) {
        let bytes = to_bincode(&snapshot).expect("a decoded snapshot encodes");
        assert_eq!(
            from_bincode_record::<SnapshotPayload>(&bytes).ok(),
            Some(snapshot)
        );
    }
});
