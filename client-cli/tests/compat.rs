//! The `fray` binary on recordings of other versions (`tests/compat/`): a recording decided
//! under an older version of its rules is replayed and exported, and `verify` names the
//! difference with exit code 3; a record of a later format is unreadable (exit 2) and says why.

use fray_tests::rewrite_genesis;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fray(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(args)
        .output()
        .expect("the fray binary runs")
}

fn frozen(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/compat")
        .join(name)
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn verify_names_an_older_rules_version_with_exit_3_and_replay_and_export_still_work() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("older");
    let mut recorded = 0;
    rewrite_genesis(
        &frozen("13th-age/crypt-of-ash-seed-0"),
        &dir,
        |header, genesis| {
            genesis.ruleset_version -= 2;
            header.ruleset_version = genesis.ruleset_version;
            recorded = genesis.ruleset_version;
        },
    )
    .expect("rewrite");
    let d = dir.to_str().expect("utf-8 path");
    let out = fray(&["verify", d]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    let says = text(&out);
    assert!(says.contains("NOT RE-DECIDED"), "{says}");
    assert!(
        says.contains(&format!(
            "recorded under 13th-age rules v{recorded}; this build implements v{}",
            fray_server::rules::version("13th-age").expect("13th Age is played")
        )),
        "{says}"
    );
    assert!(
        says.contains("the seed commitment") && says.contains("state hashes"),
        "{says}"
    );

    let replayed = fray(&["replay", d]);
    assert_eq!(replayed.status.code(), Some(0), "{}", text(&replayed));
    let public = tmp.path().join("public.jsonl");
    let exported = fray(&["export", d, "-o", public.to_str().expect("utf-8")]);
    assert_eq!(exported.status.code(), Some(0), "{}", text(&exported));
    let out = fray(&["verify", public.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
}

#[test]
fn every_frozen_recording_verifies_with_the_binary() {
    for name in [
        "13th-age/crypt-of-ash-seed-0",
        "orcus/bridge-of-bones-seed-5",
        "five-torches-deep/flooded-chapel-seed-11",
        "ose/barrow-of-the-hollow-king-seed-24",
        "basic-fantasy/the-sunken-door-seed-1",
    ] {
        let out = fray(&["verify", frozen(name).to_str().expect("utf-8")]);
        // 0: re-decided; 3: decided under rules this build no longer implements (named).
        assert!(
            matches!(out.status.code(), Some(0 | 3)),
            "{name}: {}",
            text(&out)
        );
    }
}

#[test]
fn a_log_of_a_later_record_format_is_unreadable_and_says_so() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("next");
    rewrite_genesis(
        &frozen("orcus/bridge-of-bones-seed-5"),
        &dir,
        |_, genesis| {
            genesis.record_version = fray_server::session::record::RECORD_VERSION + 1;
        },
    )
    .expect("rewrite");
    for cmd in ["verify", "replay", "export"] {
        let out = fray(&[cmd, dir.to_str().expect("utf-8")]);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {}", text(&out));
        assert!(
            text(&out).contains("later Fray build"),
            "{cmd}: {}",
            text(&out)
        );
    }
}
