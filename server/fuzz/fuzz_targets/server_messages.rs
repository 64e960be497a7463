//! What a server sends, as the CLI decodes it, in both encodings: never a panic; what decodes
//! re-encodes to the same message.
#![no_main]

use fray_protocol::ServerMessage;
use fray_protocol::codec::{Encoding, decode_server, encode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for enc in [Encoding::Json, Encoding::Bincode] {
        if let Ok(msg) = decode_server::<ServerMessage>(data, enc) {
            let frame = encode(&msg, enc).expect("a decoded message encodes");
            let bytes = match &frame {
                fray_protocol::codec::Frame::Text(text) => text.as_bytes(),
                fray_protocol::codec::Frame::Binary(bytes) => bytes.as_slice(),
            };
            let again = decode_server::<ServerMessage>(bytes, enc);
            assert_eq!(again.ok(), Some(msg), "{enc:?} re-encoding round-trips");
        }
    }
});
