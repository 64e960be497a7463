//! Test-only: a real session on disk for the tests of the commands the session decides
//! (rewind, talk, the server's own play, seats).

use super::{Secrets, Session, SessionConfig};
use crate::log::FsStorage;
use crate::rules::{builtin_encounters, load_encounter};
use fray_protocol::ids::SessionId;

/// A session of the ruleset's first built-in encounter, in `dir`, with fixed secrets: the seed
/// `seed`, the secret seed `seed + 1`.
pub(crate) fn session_in(
    ruleset: &str,
    dir: &std::path::Path,
    seed: u64,
    config: SessionConfig,
) -> Session {
    let (name, text) = builtin_encounters(ruleset)[0];
    let enc = load_encounter(name, text).unwrap();
    let secrets = Secrets {
        seed,
        salt: [5; 16],
        gm: "g".into(),
        spectator: "s".into(),
        players: vec!["a".into(), "b".into()],
        secret_seed: seed + 1,
        secret_salt: [6; 16],
    };
    let id = SessionId(format!("{ruleset}-{seed}"));
    Session::create_with(
        FsStorage::open(dir).unwrap(),
        id,
        enc,
        secrets,
        false,
        config,
    )
    .unwrap()
}
