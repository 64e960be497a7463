//! Segment headers: never a panic; a header that decodes re-encodes to exactly its bytes.
#![no_main]

use fray_server::log::SegmentHeader;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok((header, len)) = SegmentHeader::decode(data) {
        assert_eq!(len, header.encoded_len());
        let again = header.encode().expect("a decoded header encodes");
        assert_eq!(
            again.as_slice(),
            &data[..len],
            "a header re-encodes to its bytes"
        );
    }
});
