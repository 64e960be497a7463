//! The stable state hash: lowercase hex of SHA-256 over the bincode (standard config) encoding
//! of the GM view of [`fray_protocol::SessionState`], whose combatants are sorted by id.
//! Any client holding the GM state can recompute it; `fray verify` checks the logged ones.

use fray_protocol::SessionState;
use fray_protocol::codec::to_bincode;
use sha2::{Digest, Sha256};

/// Hash of a state (GM view).
pub fn state_hash(state: &SessionState) -> String {
    match to_bincode(state) {
        Ok(bytes) => hex::encode(Sha256::digest(&bytes)),
        // invariant: protocol types always encode; an empty hash would never match a logged one.
        Err(_) => String::new(),
    }
}
