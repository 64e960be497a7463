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
];

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
