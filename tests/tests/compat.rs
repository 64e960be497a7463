//! Recordings survive upgrades (issue 17; `ARCHITECTURE.md`, "Recordings that survive
//! upgrades"): the frozen recordings of `tests/compat/` are read, replayed, exported and
//! verified by this build; a recording of an older ruleset version names the difference; a
//! record of a later format is refused with a clear message.

use anyhow::Result;
use fray_server::replay::{self, Audience, ReplayError};
use fray_server::session::record::RECORD_VERSION;
use fray_tests::rewrite_genesis;
use std::path::{Path, PathBuf};

/// (recording, ruleset id, commands, events) — as frozen; see `tests/compat/README.md`.
const FROZEN: &[(&str, &str, u64, u64)] = &[
    ("13th-age/crypt-of-ash-seed-0", "13th-age", 116, 477),
    ("orcus/bridge-of-bones-seed-5", "orcus", 85, 344),
    (
        "five-torches-deep/flooded-chapel-seed-11",
        "five-torches-deep",
        81,
        222,
    ),
    ("ose/barrow-of-the-hollow-king-seed-24", "ose", 88, 425),
    (
        "basic-fantasy/the-sunken-door-seed-1",
        "basic-fantasy",
        41,
        123,
    ),
    // Record format 2 (every roll's modifiers), frozen when format 3 came.
    (
        "13th-age/crypt-of-ash-seed-0-format-2",
        "13th-age",
        116,
        477,
    ),
    ("orcus/bridge-of-bones-seed-5-format-2", "orcus", 85, 344),
    (
        "five-torches-deep/toll-road-seed-5-format-2",
        "five-torches-deep",
        87,
        229,
    ),
    (
        "ose/barrow-of-the-hollow-king-seed-24-format-2",
        "ose",
        88,
        425,
    ),
    (
        "basic-fantasy/the-sunken-door-seed-1-format-2",
        "basic-fantasy",
        41,
        123,
    ),
    // Record format 3 (Orcus experience, Basic Fantasy gear weights), frozen when format 4 came.
    (
        "13th-age/crypt-of-ash-seed-0-format-3",
        "13th-age",
        116,
        477,
    ),
    ("orcus/bridge-of-bones-seed-5-format-3", "orcus", 85, 344),
    (
        "five-torches-deep/toll-road-seed-5-format-3",
        "five-torches-deep",
        87,
        229,
    ),
    (
        "ose/barrow-of-the-hollow-king-seed-24-format-3",
        "ose",
        88,
        425,
    ),
    (
        "basic-fantasy/the-sunken-door-seed-1-format-3",
        "basic-fantasy",
        41,
        123,
    ),
];

/// Each frozen recording's record format: `-format-N` in its name, else 1.
fn format_of(name: &str) -> u32 {
    name.rsplit_once("-format-")
        .and_then(|(_, n)| n.parse().ok())
        .unwrap_or(1)
}

/// The frozen recordings are of the formats their names say, every released format is among
/// them, and this build writes a newer one than any of them but reads them all.
#[test]
fn the_frozen_recordings_cover_every_released_record_format() -> Result<()> {
    let mut formats = std::collections::BTreeSet::new();
    for (name, ..) in FROZEN {
        let fight = replay::read_log(&frozen(name))?;
        assert_eq!(fight.genesis().record_version, format_of(name), "{name}");
        formats.insert(format_of(name));
    }
    let released: std::collections::BTreeSet<u32> = (1..RECORD_VERSION).collect();
    assert_eq!(formats, released, "a frozen recording per released format");
    Ok(())
}

fn frozen(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("compat")
        .join(name)
}

/// Verify's answer on a frozen recording: re-decided, or the named rules difference.
fn verified_or_rules_changed(
    r: Result<replay::VerifyReport, ReplayError>,
    name: &str,
    commands: u64,
) -> Result<()> {
    match r {
        Ok(report) => {
            assert_eq!(report.commands, commands, "{name}: commands re-decided");
            Ok(())
        }
        Err(ReplayError::RulesChanged { .. }) => Ok(()),
        Err(e) => Err(anyhow::anyhow!("{name}: verify failed: {e}")),
    }
}

#[test]
fn every_frozen_recording_replays_exports_and_verifies_with_this_build() -> Result<()> {
    for (name, ruleset, commands, events) in FROZEN {
        let fight = replay::read_log(&frozen(name))?;
        assert_eq!(&fight.genesis().ruleset, ruleset, "{name}");
        let folded = replay::fold(&fight)?;
        assert_eq!(folded.events.len() as u64, *events, "{name}: events");
        assert!(folded.hashes_checked > 0, "{name}: no state hash checked");
        verified_or_rules_changed(replay::verify(&fight), name, *commands)?;
        // The public export reads back and verifies like the full log.
        let public = replay::log_lines::write(&fight, Audience::Public)?;
        let read_back = replay::log_lines::read(&public)?;
        assert_eq!(read_back.audience(), Audience::Public);
        verified_or_rules_changed(replay::verify(&read_back), name, *commands)?;
    }
    Ok(())
}

#[test]
fn a_recording_of_an_older_ruleset_version_is_not_re_decided_and_says_why() -> Result<()> {
    let tmp = tempfile::tempdir()?;
    let to = tmp.path().join("older");
    let mut recorded = 0;
    rewrite_genesis(&frozen(FROZEN[1].0), &to, |header, genesis| {
        genesis.ruleset_version -= 1;
        header.ruleset_version = genesis.ruleset_version;
        recorded = genesis.ruleset_version;
    })?;
    let fight = replay::read_log(&to)?;
    // Replay still folds it: the events are facts, whatever rules decided them.
    assert_eq!(replay::fold(&fight)?.events.len() as u64, FROZEN[1].3);
    match replay::verify(&fight) {
        Err(e @ ReplayError::RulesChanged { .. }) => {
            let ReplayError::RulesChanged {
                ruleset,
                recorded: r,
                current,
                commitment_checked,
                hashes_checked,
            } = &e
            else {
                unreachable!()
            };
            assert_eq!((ruleset.as_str(), *r), ("orcus", recorded));
            assert_eq!(*current, fray_server::rules::version("orcus"));
            assert_eq!(
                *current,
                Some(recorded + 1),
                "the frozen Orcus recording is current"
            );
            assert!(*commitment_checked && *hashes_checked > 0);
            let text = e.to_string();
            assert!(
                text.contains(&format!(
                    "recorded under orcus rules v{recorded}; this build implements v{}",
                    recorded + 1
                )),
                "{text}"
            );
        }
        other => panic!("expected RulesChanged, got {other:?}"),
    }
    Ok(())
}

#[test]
fn a_record_of_the_next_format_version_is_refused_with_a_clear_message() -> Result<()> {
    let tmp = tempfile::tempdir()?;
    let to = tmp.path().join("next");
    rewrite_genesis(&frozen(FROZEN[0].0), &to, |_, genesis| {
        genesis.record_version = RECORD_VERSION + 1;
    })?;
    let err = replay::read_log(&to).expect_err("a later record format");
    let text = err.to_string();
    assert!(
        text.contains(&format!("record format v{}", RECORD_VERSION + 1))
            && text.contains("later Fray build")
            && text.contains(&format!("up to v{RECORD_VERSION}")),
        "{text}"
    );
    Ok(())
}

/// A session whose log began in record format 1, reopened by this build, goes on appending
/// format-1 records (`fray_protocol::format`; `protocol/README.md`, "The session's log"): its
/// live events carry modifier lists, its log holds them empty, and the whole log still decodes,
/// folds with every state hash checked, and verifies.
#[test]
fn a_format_1_session_reopened_by_this_build_goes_on_in_format_1_and_still_verifies() -> Result<()>
{
    use fray_protocol::format::in_record_format;
    use fray_server::log::{FsStorage, SessionLog, read_log_path};
    use fray_server::session::record::Record;
    use fray_server::session::{Session, SessionConfig};

    // The frozen Orcus fight (its rules are this build's), cut before a command mid-fight.
    let (name, ruleset, ..) = FROZEN[1];
    let recovered = read_log_path(&frozen(name))?;
    let records: Vec<Record> = in_record_format(1, || {
        recovered
            .frames
            .iter()
            .map(|(_, b)| fray_protocol::codec::from_bincode_record::<Record>(b))
            .collect::<Result<_, _>>()
    })?;
    let cut = records
        .iter()
        .enumerate()
        .filter(|(_, r)| matches!(r, Record::Command { .. }))
        .map(|(i, _)| i)
        .nth(40)
        .expect("a long fight");
    let tmp = tempfile::tempdir()?;
    let dir = tmp.path().join("cut");
    let mut log = SessionLog::create(FsStorage::open(&dir)?, recovered.header.clone())?;
    let frames: Vec<Vec<u8>> = recovered.frames[..cut]
        .iter()
        .map(|(_, b)| b.clone())
        .collect();
    log.append_batch(&frames)?;
    log.flush_sync()?;
    drop(log);

    let (mut session, _) = Session::open(FsStorage::open(&dir)?, SessionConfig::default())?;
    assert_eq!(session.genesis().record_version, 1);
    let bot = fray_server::rules::ruleset(ruleset)
        .and_then(|r| r.bot)
        .expect("the Orcus policy");
    let (mut played, mut live_named) = (0, false);
    for salt in 0..200u64 {
        let Some(command) = bot(&fray_protocol::ids::Role::Gm, &session.state(), salt) else {
            break;
        };
        if let Ok(staged) = session.stage("gm", 10_000 + salt, &command) {
            live_named |= staged
                .events
                .iter()
                .any(|e| e.event.modifiers().is_some_and(|m| !m.is_empty()));
            session.commit()?;
            played += 1;
        }
        if live_named && played >= 5 {
            break;
        }
    }
    assert!(
        live_named,
        "no roll with named modifiers in {played} commands"
    );
    drop(session);

    let fight = replay::read_log(&dir)?;
    assert_eq!(fight.genesis().record_version, 1);
    let folded = replay::fold(&fight)?;
    assert!(folded.hashes_checked > 0);
    assert!(
        folded
            .events
            .iter()
            .all(|e| e.event.modifiers().is_none_or(<[_]>::is_empty)),
        "a format-1 log holds no modifier lists"
    );
    let report = replay::verify(&fight)?;
    assert!(report.commands > 40);
    Ok(())
}
