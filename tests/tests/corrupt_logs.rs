//! A damaged log is never taken for a torn tail (issue 16): one flipped byte in the middle of a
//! recorded fight makes the server quarantine that session (not served, files untouched) while
//! it serves the others, and makes `verify`, `replay` and `export` fail naming the segment, the
//! byte offset and the last good seq.

use anyhow::{Result, anyhow};
use fray_server::net::Registry;
use fray_server::replay;
use fray_server::session::SessionConfig;
use fray_tests::copy_dir;
use std::path::{Path, PathBuf};

fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../replays")
        .join(name)
}

/// Flips one bit in the middle of the first segment; returns the flipped offset.
fn flip_middle(dir: &Path) -> Result<usize> {
    let seg = dir.join("seg-000000.log");
    let mut bytes = std::fs::read(&seg)?;
    let at = bytes.len() / 2;
    *bytes.get_mut(at).ok_or_else(|| anyhow!("empty segment"))? ^= 0x10;
    std::fs::write(&seg, bytes)?;
    Ok(at)
}

fn files(dir: &Path) -> Result<Vec<(String, Vec<u8>)>> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        out.push((
            e.file_name().to_string_lossy().into_owned(),
            std::fs::read(e.path())?,
        ));
    }
    out.sort();
    Ok(out)
}

#[test]
fn a_flipped_byte_mid_log_is_corruption_for_verify_and_names_where() -> Result<()> {
    let tmp = tempfile::tempdir()?;
    let copy = tmp.path().join("fight");
    copy_dir(&golden("13th-age/crypt-of-ash-seed-0"), &copy)?;
    let full = replay::verify(&replay::read_log(&copy)?)?;
    flip_middle(&copy)?;
    let err = replay::read_log(&copy)
        .and_then(|f| replay::verify(&f))
        .err()
        .ok_or_else(|| anyhow!("a damaged log verified"))?;
    let text = err.to_string();
    assert!(text.contains("corruption in"), "{text}");
    assert!(
        text.contains("seg-000000.log") && text.contains("at byte"),
        "{text}"
    );
    assert!(text.contains("last good frame seq"), "{text}");
    assert!(full.commands > 0);
    Ok(())
}

#[test]
fn the_server_quarantines_a_corrupt_session_and_serves_the_others() -> Result<()> {
    let data = tempfile::tempdir()?;
    let sessions = data.path().join("sessions");
    copy_dir(
        &golden("13th-age/crypt-of-ash-seed-0"),
        &sessions.join("good"),
    )?;
    copy_dir(
        &golden("13th-age/goblin-ambush-seed-111"),
        &sessions.join("bad"),
    )?;
    flip_middle(&sessions.join("bad"))?;
    let before = files(&sessions.join("bad"))?;
    let registry = Registry::new(data.path().to_path_buf(), SessionConfig::default());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let recovery = runtime.block_on(async { registry.recover_all(false) });
    assert_eq!(recovery.recovered, 1, "the good session is served");
    assert_eq!(recovery.quarantined, vec![sessions.join("bad")]);
    assert_eq!(registry.len(), 1);
    assert_eq!(
        files(&sessions.join("bad"))?,
        before,
        "the damaged files are untouched"
    );
    Ok(())
}

/// Frame start offsets of a segment file's frames.
fn frame_offsets(bytes: &[u8]) -> Result<Vec<usize>> {
    let (_, mut at) = fray_server::log::SegmentHeader::decode(bytes)?;
    let mut out = Vec::new();
    while at < bytes.len() {
        let rest = bytes.get(at..).ok_or_else(|| anyhow!("offset"))?;
        let (_, used) = fray_server::log::frame::decode_frame(rest)?;
        out.push(at);
        at += used;
    }
    Ok(out)
}

/// Issue 16, "Done when": a bit flipped in every frame of a small recorded session, one copy
/// each. `verify` fails on every copy but the one damaged in its last frame (a torn tail, which
/// drops only that frame), naming the damaged frame's offset; the server refuses to open each
/// damaged session and serves the intact one beside it.
#[test]
fn a_bit_flipped_in_any_frame_of_a_recorded_session_is_found_by_verify_and_the_server() -> Result<()>
{
    let small = golden("five-torches-deep/flooded-chapel-seed-11");
    let pristine = std::fs::read(small.join("seg-000000.log"))?;
    let offsets = frame_offsets(&pristine)?;
    assert!(offsets.len() > 20, "a few ticks at least");
    let last = *offsets.last().ok_or_else(|| anyhow!("no frame"))?;
    for (i, start) in offsets.iter().enumerate() {
        // A bit in the frame's payload (its 17th byte on), or in its checksum for an empty one.
        let pos = start + 16;
        let data = tempfile::tempdir()?;
        let sessions = data.path().join("sessions");
        copy_dir(&small, &sessions.join("damaged"))?;
        copy_dir(
            &golden("13th-age/crypt-of-ash-seed-0"),
            &sessions.join("intact"),
        )?;
        let seg = sessions.join("damaged").join("seg-000000.log");
        let mut bytes = pristine.clone();
        *bytes.get_mut(pos).ok_or_else(|| anyhow!("pos"))? ^= 0x04;
        std::fs::write(&seg, &bytes)?;
        let read = replay::read_log(&sessions.join("damaged"));
        if *start == last {
            let fight = read?;
            let torn = fight.truncated().ok_or_else(|| anyhow!("no torn tail"))?;
            assert_eq!(torn.offset, last as u64);
            continue;
        }
        let err = read
            .and_then(|f| replay::verify(&f))
            .err()
            .ok_or_else(|| anyhow!("frame {i}: a damaged log verified"))?;
        assert!(
            err.to_string().contains(&format!("at byte {start}")),
            "frame {i}: {err}"
        );
        let registry = Registry::new(data.path().to_path_buf(), SessionConfig::default());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let recovery = runtime.block_on(async { registry.recover_all(false) });
        assert_eq!(
            recovery.recovered, 1,
            "frame {i}: the intact session is served"
        );
        assert_eq!(
            recovery.quarantined,
            vec![sessions.join("damaged")],
            "frame {i}"
        );
        assert_eq!(
            std::fs::read(&seg)?,
            bytes,
            "frame {i}: the damaged log was changed"
        );
    }
    Ok(())
}
