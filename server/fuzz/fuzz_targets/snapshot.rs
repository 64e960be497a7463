//! Snapshot files: never a panic; a snapshot that decodes re-encodes to exactly the file.
#![no_main]

use fray_server::log::snapshot::{decode_snapshot, encode_snapshot};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok((seq, payload)) = decode_snapshot(data) {
        assert_eq!(
            encode_snapshot(seq, payload),
            data,
            "a snapshot re-encodes to its file"
        );
    }
});
