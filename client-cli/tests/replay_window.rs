//! `fray replay` on part of a fight, through the real binary: `--round N` starts at a round,
//! `--to SEQ` stops at an event with the state and its hash there, and `--step` shows one event
//! per line of input (Enter), an Orcus map at every turn start, and `q` quits.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn golden() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../replays/orcus/bridge-of-bones-seed-13")
}

fn fray(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the fray binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("input written");
    child.wait_with_output().expect("fray ends")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The numbered event lines of a narrative (`  12  text`).
fn event_lines(text: &str) -> Vec<u64> {
    text.lines()
        .filter_map(|l| l.split_whitespace().next()?.parse::<u64>().ok())
        .collect()
}

#[test]
fn replay_to_a_sequence_number_stops_there_with_the_state_hash_of_that_point() {
    let path = golden();
    let p = path.to_str().expect("utf-8 path");
    let whole = stdout(&fray(&["replay", p], ""));
    let part = fray(&["replay", p, "--to", "40"], "");
    assert_eq!(part.status.code(), Some(0), "{}", stdout(&part));
    let text = stdout(&part);
    assert_eq!(event_lines(&text), (1..=40).collect::<Vec<u64>>());
    assert!(text.contains("State after event 40:"), "{text}");
    let hash = |t: &str| {
        t.lines()
            .find_map(|l| l.strip_prefix("State hash: ").map(str::to_owned))
            .expect("a state hash")
    };
    assert_ne!(
        hash(&text),
        hash(&whole),
        "the state at event 40 is not the final one"
    );
    // The same point reached again gives the same hash.
    assert_eq!(
        hash(&stdout(&fray(&["replay", p, "--to", "40"], ""))),
        hash(&text)
    );
}

#[test]
fn replay_from_a_round_starts_at_that_round_and_names_a_missing_one() {
    let path = golden();
    let p = path.to_str().expect("utf-8 path");
    let text = stdout(&fray(&["replay", p, "--round", "2"], ""));
    let first = text
        .lines()
        .find(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<u64>().is_ok())
        })
        .expect("an event line");
    assert!(first.contains("Round 2"), "{first}");
    let missing = fray(&["replay", p, "--round", "999"], "");
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("no round 999"),
        "{}",
        String::from_utf8_lossy(&missing.stderr)
    );
    let past = fray(&["replay", p, "--to", "999999"], "");
    assert_eq!(past.status.code(), Some(1));
}

#[test]
fn stepping_shows_one_event_per_enter_with_the_map_at_turn_starts_and_q_quits() {
    let path = golden();
    let p = path.to_str().expect("utf-8 path");
    // Round 1 starts with its heading, then the first turn; two Enters, then q.
    let out = fray(&["replay", p, "--step", "--round", "1"], "\n\nq\nmore\n");
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let lines = event_lines(&text);
    assert_eq!(lines.len(), 3, "three events for two Enters: {text}");
    assert!(
        text.contains("'s turn") && text.contains('#'),
        "the map is drawn at the turn start: {text}"
    );
    assert!(
        !text.contains("State after event"),
        "q quits before the end: {text}"
    );
}
