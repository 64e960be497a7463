//! A client's bincode binary frame: never a panic; what decodes re-encodes to the same message.
#![no_main]

use fray_protocol::ClientMessage;
use fray_protocol::codec::{Encoding, Frame, decode_client, encode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(msg) = decode_client::<ClientMessage>(data, Encoding::Bincode) {
        let Ok(Frame::Binary(bytes)) = encode(&msg, Encoding::Bincode) else {
            panic!("a decoded message encodes to bincode");
        };
        assert!(bytes.len() <= data.len(), "re-encoding is never longer");
        let again = decode_client::<ClientMessage>(&bytes, Encoding::Bincode);
        assert_eq!(again.ok(), Some(msg), "bincode re-encoding round-trips");
    }
});
