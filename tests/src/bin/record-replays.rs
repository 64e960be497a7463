//! Records the golden fights in `replays/13th-age/` (run from the repository root:
//! `cargo run -p fray-tests --bin record-replays`). Each fight is played in process by the demo
//! bots' policy with fixed secrets, so re-recording without a rule change reproduces the same
//! bytes. Re-record only deliberately: the replays test verifies them byte for byte.

use anyhow::{Context, Result};
use fray_protocol::ids::SessionId;
use fray_server::content::{builtin_encounters, load_encounter};
use fray_server::log::FsStorage;
use fray_server::session::{Secrets, Session, SessionConfig};
use fray_tests::play_in_process;
use std::path::Path;

/// (directory name, built-in encounter, seed).
/// Between them these exercise every 13th Age condition, ongoing damage and saves, flexible
/// maneuvers, opportunity attacks, disengaging, rallies, death saves, stabilizing and coups de
/// grace (checked by `tests/tests/replays.rs`).
const FIGHTS: &[(&str, &str, u64)] = &[
    ("goblin-ambush-seed-150", "goblin-ambush", 150),
    ("crypt-of-ash-seed-77", "crypt-of-ash", 77),
    ("mire-of-whispers-seed-104", "mire-of-whispers", 104),
];

fn main() -> Result<()> {
    let root = Path::new("replays/13th-age");
    if root.exists() {
        std::fs::remove_dir_all(root)?;
    }
    for (dir, encounter, seed) in FIGHTS {
        let (name, text) = builtin_encounters("13th-age")
            .iter()
            .find(|(n, _)| n == encounter)
            .context("unknown encounter")?;
        let path = root.join(dir);
        if path.exists() {
            std::fs::remove_dir_all(&path)?;
        }
        let mut session = Session::create_with(
            FsStorage::open(&path)?,
            SessionId(format!("replay-{dir}")),
            load_encounter(name, text)?,
            Secrets {
                seed: *seed,
                salt: seed.to_le_bytes().repeat(2).try_into().unwrap_or([0; 16]),
                gm: "replay-gm".into(),
                spectator: "replay-spectator".into(),
                players: vec!["replay-alice".into(), "replay-bob".into()],
            },
            false,
            SessionConfig {
                snapshot_every: u64::MAX,
                ..SessionConfig::default()
            },
        )?;
        let commands = play_in_process(&mut session, 10_000)?;
        session.flush()?;
        eprintln!(
            "{dir}: {} commands, {} events",
            commands.len(),
            session.last_seq()
        );
    }
    Ok(())
}
