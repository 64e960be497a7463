//! Determinism and verification: the same seed and commands give byte-identical logs; `verify`
//! accepts them; a copy with one die value altered (checksums fixed) is rejected, naming the
//! event; a torn tail is truncated and reported on recovery.

use anyhow::{Result, anyhow};
use fray_protocol::GameEvent;
use fray_protocol::codec::{from_bincode_record, to_bincode};
use fray_protocol::ids::SessionId;
use fray_server::log::{FsStorage, SessionLog, read_log_path};
use fray_server::replay::{self, ReplayError};
use fray_server::rules::{builtin_encounters, load_encounter};
use fray_server::session::record::Record;
use fray_server::session::{Secrets, Session, SessionConfig};
use fray_tests::{copy_dir, play_in_process};
use std::path::Path;

fn secrets(seed: u64) -> Secrets {
    Secrets {
        seed,
        salt: [7; 16],
        gm: "gm-token".into(),
        spectator: "spectator-token".into(),
        players: vec!["alice-token".into(), "bob-token".into()],
        secret_seed: !seed,
        secret_salt: [8; 16],
    }
}

fn record(dir: &Path, encounter: &str, seed: u64) -> Result<Vec<fray_protocol::Command>> {
    let (name, text) = builtin_encounters("13th-age")
        .iter()
        .find(|(n, _)| *n == encounter)
        .ok_or_else(|| anyhow!("no encounter"))?;
    let enc = load_encounter(name, text)?;
    let mut s = Session::create_with(
        FsStorage::open(dir)?,
        SessionId("s-test".into()),
        enc,
        secrets(seed),
        false,
        SessionConfig::default(),
    )?;
    let cmds = play_in_process(&mut s, 5000)?;
    s.flush()?;
    Ok(cmds)
}

fn segment(dir: &Path) -> Result<Vec<u8>> {
    Ok(std::fs::read(dir.join("seg-000000.log"))?)
}

#[test]
fn same_seed_and_commands_give_byte_identical_logs_and_verify() -> Result<()> {
    let a = tempfile::tempdir()?;
    let b = tempfile::tempdir()?;
    let ca = record(a.path(), "crypt-of-ash", 99)?;
    let cb = record(b.path(), "crypt-of-ash", 99)?;
    assert_eq!(ca, cb);
    assert_eq!(segment(a.path())?, segment(b.path())?, "logs differ");
    let fight = replay::read_log(a.path())?;
    let report = replay::verify(&fight)?;
    assert_eq!(report.commands as usize, ca.len());
    assert!(report.hashes > 0);
    assert!(report.commitment_checked);
    let folded = replay::fold(&fight)?;
    assert_eq!(folded.events.len() as u64, report.events);
    // A different seed gives a different fight.
    let c = tempfile::tempdir()?;
    record(c.path(), "crypt-of-ash", 100)?;
    assert_ne!(segment(a.path())?, segment(c.path())?);
    Ok(())
}

/// Rewrites a log with one record changed, through the real log writer (so every checksum is
/// valid).
fn rewrite(from: &Path, to: &Path, edit: impl Fn(&mut Record) -> bool) -> Result<bool> {
    let rec = read_log_path(from)?;
    let mut log = SessionLog::create(FsStorage::open(to)?, rec.header.clone())?;
    let mut edited = false;
    for (_, payload) in &rec.frames {
        let mut r: Record = from_bincode_record(payload)?;
        if !edited && edit(&mut r) {
            edited = true;
        }
        log.append_batch(&[to_bincode(&r)?])?;
    }
    log.flush_sync()?;
    Ok(edited)
}

#[test]
fn a_log_with_one_die_altered_is_rejected_naming_the_event() -> Result<()> {
    let a = tempfile::tempdir()?;
    record(a.path(), "goblin-ambush", 5)?;
    let b = tempfile::tempdir()?;
    let edited = rewrite(a.path(), b.path(), |r| {
        if let Record::Events { events, .. } = r {
            for e in events.iter_mut() {
                if let GameEvent::AttackRolled { roll, .. } = e
                    && let Some(d) = roll.dice.first_mut()
                {
                    d.face = if d.face == 20 { 19 } else { d.face + 1 };
                    roll.total = d.face as i32;
                    return true;
                }
            }
        }
        false
    })?;
    assert!(edited);
    // Untouched copy verifies; the altered one does not, and the error names the event.
    replay::verify(&replay::read_log(a.path())?)?;
    let err = replay::verify(&replay::read_log(b.path())?).unwrap_err();
    match &err {
        ReplayError::EventMismatch { seq, stored, .. } => {
            assert!(*seq > 0);
            assert!(stored.contains("attack_rolled"), "{err}");
        }
        other => panic!("expected an event mismatch, got {other}"),
    }
    assert!(err.to_string().contains("mismatch at event seq"), "{err}");
    Ok(())
}

#[test]
fn a_torn_tail_is_truncated_and_reported_and_the_rest_recovers() -> Result<()> {
    let a = tempfile::tempdir()?;
    record(a.path(), "goblin-ambush", 8)?;
    let original_fight = replay::read_log(a.path())?;
    let original = replay::fold(&original_fight)?;
    let b = tempfile::tempdir()?;
    copy_dir(a.path(), b.path())?;
    // Half a frame of garbage at the end, as a crash mid-write would leave.
    let seg = b.path().join("seg-000000.log");
    let mut bytes = std::fs::read(&seg)?;
    let good_len = bytes.len();
    bytes.extend_from_slice(&[0x40, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef, 1, 2, 3]);
    std::fs::write(&seg, &bytes)?;
    let (session, truncated) = Session::open(FsStorage::open(b.path())?, SessionConfig::default())?;
    let t = truncated.ok_or_else(|| anyhow!("the torn tail was not reported"))?;
    assert_eq!(t.bytes_dropped, 11);
    assert_eq!(std::fs::metadata(&seg)?.len() as usize, good_len);
    assert_eq!(session.state_hash(), original.state_hash);
    assert_eq!(session.last_seq(), original.events.len() as u64);
    Ok(())
}

#[test]
fn recovery_from_a_snapshot_equals_the_full_fold() -> Result<()> {
    let a = tempfile::tempdir()?;
    let (name, text) = builtin_encounters("13th-age")[1];
    let enc = load_encounter(name, text)?;
    let config = SessionConfig {
        snapshot_every: 20,
        ..SessionConfig::default()
    };
    let mut s = Session::create_with(
        FsStorage::open(a.path())?,
        SessionId("s-snap".into()),
        enc,
        secrets(3),
        false,
        config.clone(),
    )?;
    play_in_process(&mut s, 5000)?;
    let live_hash = s.state_hash();
    drop(s);
    assert!(
        std::fs::read_dir(a.path())?
            .any(|e| e.is_ok_and(|e| e.file_name().to_string_lossy().starts_with("snap-"))),
        "no snapshot written"
    );
    let (reopened, _) = Session::open(FsStorage::open(a.path())?, config)?;
    assert_eq!(reopened.state_hash(), live_hash);
    assert_eq!(
        replay::fold(&replay::read_log(a.path())?)?.state_hash,
        live_hash
    );
    Ok(())
}

/// A session of several battles (13th Age § Rest and Recharge; `next_battle`): the later
/// battle's monsters come from the genesis encounter, so the log verifies byte for byte, and a
/// session reopened from a snapshot taken during the later battle equals the full fold.
#[test]
fn a_session_of_several_battles_verifies_and_recovers_from_a_later_battles_snapshot() -> Result<()>
{
    several_battles_recover("13th-age", "goblin-gauntlet", 2, |s| {
        play_in_process(s, 5000)
    })
}

/// The same for Five Torches Deep's `[[battles]]` (three battles in the drowned crypt): its own
/// components (sheets, the battle state) come back from a snapshot taken in a later battle.
#[test]
fn a_five_torches_deep_session_of_several_battles_recovers_from_a_later_battles_snapshot()
-> Result<()> {
    several_battles_recover("five-torches-deep", "drowned-crypt", 3, |s| {
        fray_tests::play_ftd_in_process(s, 5000)
    })
}

/// Plays `encounter` to its end with snapshots every 16 events, checks that it went through
/// `battles` battles, verifies the log and reopens the session from its last snapshot.
fn several_battles_recover(
    ruleset: &str,
    encounter: &str,
    battles: u32,
    play: impl Fn(&mut Session) -> Result<Vec<fray_protocol::Command>>,
) -> Result<()> {
    let a = tempfile::tempdir()?;
    let (name, text) = builtin_encounters(ruleset)
        .iter()
        .find(|(n, _)| *n == encounter)
        .ok_or_else(|| anyhow!("no encounter"))?;
    let config = SessionConfig {
        snapshot_every: 16,
        ..SessionConfig::default()
    };
    let mut s = Session::create_with(
        FsStorage::open(a.path())?,
        SessionId(format!("s-{encounter}")),
        load_encounter(name, text)?,
        secrets(5),
        false,
        config.clone(),
    )?;
    let cmds = play(&mut s)?;
    assert!(cmds.contains(&fray_protocol::Command::NextBattle));
    let state = s.state();
    assert_eq!((state.battle, state.battles), (battles, battles));
    assert!(state.session_over && state.seed_revealed);
    let live_hash = s.state_hash();
    drop(s);
    let fight = replay::read_log(a.path())?;
    replay::verify(&fight)?;
    assert_eq!(replay::fold(&fight)?.state_hash, live_hash);
    let (reopened, _) = Session::open(FsStorage::open(a.path())?, config)?;
    assert_eq!(reopened.state_hash(), live_hash);
    Ok(())
}
