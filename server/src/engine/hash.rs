//! The stable state hash: lowercase hex of SHA-256 over the bincode (standard config) encoding
//! of the GM view of [`fray_protocol::SessionState`], whose combatants are sorted by id.
//! Any client holding the GM state can recompute it; `fray verify` checks the logged ones.

use fray_protocol::SessionState;
use fray_protocol::codec::to_bincode_writer;
use sha2::{Digest, Sha256};
use std::io::{BufWriter, Write};

/// Hash of a state (GM view). The encoding is streamed into the hash through a small buffer,
/// never held whole.
pub fn state_hash(state: &SessionState) -> String {
    let mut out = BufWriter::with_capacity(1024, Hasher(Sha256::new()));
    let encoded = to_bincode_writer(state, &mut out).is_ok() && out.flush().is_ok();
    match (encoded, out.into_inner()) {
        (true, Ok(Hasher(h))) => hex::encode(h.finalize()),
        // invariant: protocol types always encode and the hasher never fails; an empty hash
        // would never match a logged one.
        _ => String::new(),
    }
}

/// SHA-256 as an `io::Write`.
struct Hasher(Sha256);

impl Write for Hasher {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
