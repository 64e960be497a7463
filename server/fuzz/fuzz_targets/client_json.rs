//! A client's JSON text frame: never a panic; what decodes re-encodes to the same message.
#![no_main]

use fray_protocol::ClientMessage;
use fray_protocol::codec::{Encoding, Frame, decode_client, encode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(msg) = decode_client::<ClientMessage>(data, Encoding::Json) {
        let Ok(Frame::Text(text)) = encode(&msg, Encoding::Json) else {
            panic!("a decoded message encodes to JSON text");
        };
        let again = decode_client::<ClientMessage>(text.as_bytes(), Encoding::Json);
        assert_eq!(again.ok(), Some(msg), "JSON re-encoding round-trips");
    }
});
