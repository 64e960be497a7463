//! The public log (`log_lines`, audience `public`): every recorded fight in `replays/` written
//! as the public would get it verifies without the secret seed; it holds no token, no secret
//! seed or salt; one public die changed, or a die skipped, fails; before the seed is revealed it
//! cannot be checked and says so; the GM's JSON-lines log verifies like the segment files.

use super::*;

fn goldens() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../replays");
    let mut out = Vec::new();
    for ruleset in std::fs::read_dir(&root).unwrap() {
        for fight in std::fs::read_dir(ruleset.unwrap().path()).unwrap() {
            out.push(fight.unwrap().path());
        }
    }
    out.sort();
    assert!(out.len() >= 10, "the goldens are there: {out:?}");
    out
}

/// Applies `f` to the first die (`{"sides":…,"face":…}`) found in an event line, depth first.
fn change_first_die(v: &mut serde_json::Value) -> bool {
    match v {
        serde_json::Value::Object(m) => {
            if let (Some(sides), Some(face)) = (
                m.get("sides").and_then(|s| s.as_u64()),
                m.get("face").and_then(|f| f.as_u64()),
            ) {
                m.insert("face".into(), (face % sides + 1).into());
                return true;
            }
            m.values_mut().any(change_first_die)
        }
        serde_json::Value::Array(a) => a.iter_mut().any(change_first_die),
        _ => false,
    }
}

fn edit_events(text: &str, mut f: impl FnMut(&mut serde_json::Value) -> bool) -> String {
    let mut done = false;
    let mut out = String::new();
    for l in text.lines() {
        let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
        if !done && v.get("events").is_some() {
            done = f(&mut v);
        }
        out.push_str(&serde_json::to_string(&v).unwrap());
        out.push('\n');
    }
    assert!(done, "nothing to change");
    out
}

#[test]
fn every_recorded_fight_verifies_from_its_public_log_without_the_secret_seed() {
    for path in goldens() {
        let fight = read_log(&path).unwrap();
        let text = log_lines::write(&fight, Audience::Public).unwrap();
        let g = fight.genesis();
        for secret in [&g.tokens.gm, &g.tokens.spectator, &g.secret_salt] {
            assert!(
                !text.contains(secret.as_str()),
                "{}: a secret",
                path.display()
            );
        }
        assert!(!text.contains("\"secret_seed\""));
        let public = log_lines::read(&text).unwrap();
        let report = verify(&public).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let full = verify(&fight).unwrap();
        assert_eq!(report.audience, Audience::Public);
        assert_eq!(
            (report.commands, report.events, report.hashes),
            (full.commands, full.events, full.hashes),
            "{}",
            path.display()
        );
        assert_eq!(report.draw_counts, report.commands);
        assert!(report.commitment_checked && !report.secret_commitment_checked);
    }
}

#[test]
fn one_public_die_changed_in_a_public_log_fails_verification() {
    let path = goldens()[0].clone();
    let fight = read_log(&path).unwrap();
    let text = log_lines::write(&fight, Audience::Public).unwrap();
    let forged = edit_events(&text, change_first_die);
    assert_ne!(forged, text);
    let err = verify(&log_lines::read(&forged).unwrap()).unwrap_err();
    assert!(matches!(err, ReplayError::EventMismatch { .. }), "{err}");
}

#[test]
fn a_draw_count_that_skips_a_die_fails_verification() {
    let path = goldens()[0].clone();
    let fight = read_log(&path).unwrap();
    let text = log_lines::write(&fight, Audience::Public).unwrap();
    let forged = edit_events(&text, |v| {
        let n = v["events"]["rng_draws"].as_u64().unwrap();
        v["events"]["rng_draws"] = (n + 1).into();
        true
    });
    let err = verify(&log_lines::read(&forged).unwrap()).unwrap_err();
    assert!(matches!(err, ReplayError::Fairness(_)), "{err}");
}

#[test]
fn a_public_log_before_the_reveal_names_why_it_cannot_be_checked() {
    let path = goldens()[0].clone();
    let mut fight = read_log(&path).unwrap();
    // The fight up to its first state hash: the seed is not revealed yet.
    let cut = fight
        .records
        .iter()
        .position(|r| matches!(r, Record::StateHash { .. }))
        .unwrap();
    fight.records.truncate(cut + 1);
    assert!(fight.revealed().is_none());
    let text = log_lines::write(&fight, Audience::Public).unwrap();
    assert!(!text.contains(&format!("\"salt\":\"{}\"", fight.genesis().salt)));
    let err = verify(&log_lines::read(&text).unwrap()).unwrap_err();
    assert!(matches!(err, ReplayError::NotRevealed), "{err}");
}

#[test]
fn the_gms_json_lines_log_verifies_like_the_segment_files_secrets_included() {
    for path in goldens() {
        let fight = read_log(&path).unwrap();
        let text = log_lines::write(&fight, Audience::Gm).unwrap();
        let again = log_lines::read(&text).unwrap();
        assert_eq!(again.audience(), Audience::Gm);
        let report = verify(&again).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(report.secret_commitment_checked);
        // A public log stays public: it cannot be written out as a GM's.
        let public = log_lines::read(&log_lines::write(&fight, Audience::Public).unwrap()).unwrap();
        let text = log_lines::write(&public, Audience::Gm).unwrap();
        assert!(text.starts_with("{\"fray_log\":1,\"audience\":\"public\""));
    }
}

#[test]
fn a_json_lines_file_is_read_by_read_log() {
    let dir = tempfile::tempdir().unwrap();
    let path = goldens()[0].clone();
    let fight = read_log(&path).unwrap();
    let file = dir.path().join("public.jsonl");
    std::fs::write(&file, log_lines::write(&fight, Audience::Public).unwrap()).unwrap();
    let read = read_log(&file).unwrap();
    assert_eq!(read.audience(), Audience::Public);
    assert!(fold(&read).is_err(), "a public log does not fold");
}

/// The server writes every event through the borrowed `EventMessage` (no clone per GM copy):
/// its bytes are those of the owned `ServerMessage::Event`, for every event of every recorded
/// fight, in both encodings.
#[test]
fn every_recorded_event_encodes_alike_borrowed_and_owned() {
    use fray_protocol::codec::{Encoding, encode};
    use fray_protocol::{EventMessage, ServerMessage};
    for path in goldens() {
        for e in read_log(&path).unwrap().events() {
            for enc in [Encoding::Json, Encoding::Bincode] {
                let owned = encode(
                    &ServerMessage::Event {
                        seq: e.seq,
                        tick: e.tick,
                        event: e.event.clone(),
                    },
                    enc,
                )
                .unwrap();
                let borrowed = encode(
                    &EventMessage {
                        seq: e.seq,
                        tick: e.tick,
                        event: &e.event,
                    },
                    enc,
                )
                .unwrap();
                assert_eq!(owned, borrowed, "{} seq {}", path.display(), e.seq);
            }
        }
    }
}
