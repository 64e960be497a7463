//! Log frames as a reader walks a segment's body: never a panic; every frame that decodes
//! re-encodes to exactly the bytes it was read from.
#![no_main]

use fray_server::log::frame::{FRAME_HEADER_LEN, decode_frame, encode_frame};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut rest = data;
    while let Ok((frame, used)) = decode_frame(rest) {
        assert!(used >= FRAME_HEADER_LEN && used <= rest.len());
        let mut again = Vec::new();
        encode_frame(&mut again, frame.seq, frame.payload).expect("a decoded frame encodes");
        assert_eq!(
            again.as_slice(),
            &rest[..used],
            "a frame re-encodes to its bytes"
        );
        rest = &rest[used..];
    }
});
