//! Snapshots: an opaque state blob stored next to the segments so that recovery and late joins
//! need not fold from seq 0.
//!
//! File name `snap-<seq:020>.bin` (e.g. `snap-00000000000000001000.bin`), written atomically
//! ([`Storage::write_file_atomic`]: temp file, fsync, rename, fsync directory). Layout:
//!
//! ```text
//! offset  size  field
//! 0       8     magic     b"FRAYSNP\0"
//! 8       2     version   u16 LE (SNAPSHOT_VERSION = 1)
//! 10      8     seq       u64 LE  the snapshot covers every frame with seq < this
//! 18      8     len       u64 LE  payload length
//! 26      4     crc32c    u32 LE over bytes 8..26 ‖ payload
//! 30      len   payload
//! ```
//!
//! [`latest_snapshot`] returns the newest valid one, skipping (with a `tracing` warning) files
//! that are corrupt or unreadable. After each write only the newest [`KEEP_SNAPSHOTS`] are kept.

use super::error::{LogError, Result};
use super::header::Reader;
use super::storage::Storage;

/// Magic at the start of a snapshot file.
pub const SNAPSHOT_MAGIC: [u8; 8] = *b"FRAYSNP\0";
/// Snapshot format version written and accepted.
pub const SNAPSHOT_VERSION: u16 = 1;
/// Bytes before the payload.
pub const SNAPSHOT_HEADER_LEN: usize = 30;
/// Offset where the crc coverage starts (after the magic).
const CRC_FROM: usize = 8;
/// Offset of the crc field.
const CRC_AT: usize = 26;
/// Snapshots kept after a write.
pub const KEEP_SNAPSHOTS: usize = 2;

const PREFIX: &str = "snap-";
const SUFFIX: &str = ".bin";

/// Why a snapshot file is not valid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SnapshotError {
    /// The file ends inside its header.
    #[error("truncated snapshot: needs {needed} bytes, {available} available")]
    Truncated {
        /// Bytes needed.
        needed: usize,
        /// Bytes present.
        available: usize,
    },
    /// Not a snapshot file.
    #[error("bad snapshot magic at offset 0")]
    BadMagic,
    /// A version this build does not read.
    #[error("unsupported snapshot version {found} at offset 8")]
    UnsupportedVersion {
        /// Version found.
        found: u16,
    },
    /// `len` disagrees with the file size.
    #[error("snapshot declares {declared} payload bytes at offset 18, file holds {actual}")]
    LengthMismatch {
        /// Declared length.
        declared: u64,
        /// Actual payload bytes.
        actual: u64,
    },
    /// The checksum does not match.
    #[error("snapshot checksum mismatch: stored {stored:#010x}, computed {computed:#010x}")]
    BadCrc {
        /// Stored crc.
        stored: u32,
        /// Computed crc.
        computed: u32,
    },
    /// The seq inside differs from the one in the file name.
    #[error("snapshot holds seq {stored} but is named for seq {named}")]
    SeqMismatch {
        /// Seq in the name.
        named: u64,
        /// Seq in the file.
        stored: u64,
    },
}

/// File name of the snapshot at `seq`.
pub fn snapshot_file_name(seq: u64) -> String {
    format!("{PREFIX}{seq:020}{SUFFIX}")
}

/// The seq a snapshot file name denotes.
pub fn parse_snapshot_file_name(name: &str) -> Option<u64> {
    let digits = name.strip_prefix(PREFIX)?.strip_suffix(SUFFIX)?;
    if digits.len() != 20 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Encodes a snapshot file.
pub fn encode_snapshot(seq: u64, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(SNAPSHOT_HEADER_LEN + payload.len());
    out.extend_from_slice(&SNAPSHOT_MAGIC);
    out.extend_from_slice(&SNAPSHOT_VERSION.to_le_bytes());
    out.extend_from_slice(&seq.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    let crc = crc32c::crc32c_append(
        crc32c::crc32c(out.get(CRC_FROM..).unwrap_or_default()),
        payload,
    );
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// Decodes a snapshot file into (seq, payload).
pub fn decode_snapshot(bytes: &[u8]) -> Result<(u64, &[u8]), SnapshotError> {
    let truncated = |needed| SnapshotError::Truncated {
        needed,
        available: bytes.len(),
    };
    let mut r = Reader::new(bytes);
    if r.array::<8>().map_err(truncated)? != SNAPSHOT_MAGIC {
        return Err(SnapshotError::BadMagic);
    }
    let version = r.u16().map_err(truncated)?;
    if version != SNAPSHOT_VERSION {
        return Err(SnapshotError::UnsupportedVersion { found: version });
    }
    let seq = r.u64().map_err(truncated)?;
    let declared = r.u64().map_err(truncated)?;
    let stored = r.u32().map_err(truncated)?;
    let payload = bytes.get(SNAPSHOT_HEADER_LEN..).unwrap_or_default();
    if declared != payload.len() as u64 {
        return Err(SnapshotError::LengthMismatch {
            declared,
            actual: payload.len() as u64,
        });
    }
    let computed = crc32c::crc32c_append(
        crc32c::crc32c(bytes.get(CRC_FROM..CRC_AT).unwrap_or_default()),
        payload,
    );
    if stored != computed {
        return Err(SnapshotError::BadCrc { stored, computed });
    }
    Ok((seq, payload))
}

/// Snapshot seqs present in `storage`, newest first.
fn list_snapshots(storage: &dyn Storage) -> Result<Vec<u64>> {
    let names = storage
        .list_files()
        .map_err(|e| LogError::io(storage.location(), "listing snapshots in", e))?;
    let mut seqs: Vec<u64> = names
        .iter()
        .filter_map(|n| parse_snapshot_file_name(n))
        .collect();
    seqs.sort_unstable_by(|a, b| b.cmp(a));
    Ok(seqs)
}

/// Writes the snapshot at `seq` atomically, then removes all but the newest
/// [`KEEP_SNAPSHOTS`] snapshots (a failed removal is only logged).
pub fn write_snapshot(storage: &mut dyn Storage, seq: u64, bytes: &[u8]) -> Result<()> {
    let name = snapshot_file_name(seq);
    storage
        .write_file_atomic(&name, &encode_snapshot(seq, bytes))
        .map_err(|e| LogError::io(storage.display_name(&name), "writing snapshot", e))?;
    for old in list_snapshots(storage)?.into_iter().skip(KEEP_SNAPSHOTS) {
        let old_name = snapshot_file_name(old);
        if let Err(e) = storage.remove_file(&old_name) {
            let file = storage.display_name(&old_name);
            tracing::warn!(file = %file, error = %e, "could not remove old snapshot");
        }
    }
    Ok(())
}

/// The newest valid snapshot as (seq, payload), skipping corrupt ones; `None` if there is none.
pub fn latest_snapshot(storage: &dyn Storage) -> Result<Option<(u64, Vec<u8>)>> {
    latest_snapshot_at_most(storage, u64::MAX)
}

/// [`latest_snapshot`] among snapshots with seq ≤ `max_seq` (e.g. the log's next seq, so a
/// snapshot ahead of a truncated log is not used).
pub fn latest_snapshot_at_most(
    storage: &dyn Storage,
    max_seq: u64,
) -> Result<Option<(u64, Vec<u8>)>> {
    for seq in list_snapshots(storage)? {
        let name = snapshot_file_name(seq);
        let file = storage.display_name(&name);
        if seq > max_seq {
            tracing::warn!(file = %file, max_seq, "skipping snapshot ahead of the log");
            continue;
        }
        let bytes = match storage.read_file(&name) {
            Ok(bytes) => bytes,
            Err(e) => {
                tracing::warn!(file = %file, error = %e, "skipping unreadable snapshot");
                continue;
            }
        };
        match decode_snapshot(&bytes) {
            Ok((stored, _)) if stored != seq => {
                let e = SnapshotError::SeqMismatch { named: seq, stored };
                tracing::warn!(file = %file, error = %e, "skipping corrupt snapshot");
            }
            Ok((_, payload)) => return Ok(Some((seq, payload.to_vec()))),
            Err(e) => tracing::warn!(file = %file, error = %e, "skipping corrupt snapshot"),
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::super::storage::{FsStorage, MemStorage};
    use super::*;

    type TestResult = Result<(), Box<dyn std::error::Error>>;

    #[test]
    fn encode_decode_and_layout() -> TestResult {
        let bytes = encode_snapshot(42, b"state");
        assert_eq!(&bytes[..8], b"FRAYSNP\0");
        assert_eq!(&bytes[8..10], &[1, 0]);
        assert_eq!(&bytes[10..18], &42u64.to_le_bytes());
        assert_eq!(&bytes[18..26], &5u64.to_le_bytes());
        let mut covered = bytes[8..26].to_vec();
        covered.extend_from_slice(b"state");
        assert_eq!(&bytes[26..30], &crc32c::crc32c(&covered).to_le_bytes());
        assert_eq!(&bytes[30..], b"state");
        assert_eq!(decode_snapshot(&bytes)?, (42, &b"state"[..]));

        assert!(matches!(
            decode_snapshot(&bytes[..12]),
            Err(SnapshotError::Truncated { .. })
        ));
        assert!(matches!(
            decode_snapshot(&bytes[..33]),
            Err(SnapshotError::LengthMismatch { .. })
        ));
        let mut flipped = bytes.clone();
        flipped[31] ^= 4;
        assert!(matches!(
            decode_snapshot(&flipped),
            Err(SnapshotError::BadCrc { .. })
        ));
        let mut magic = bytes.clone();
        magic[0] = b'X';
        assert_eq!(decode_snapshot(&magic), Err(SnapshotError::BadMagic));
        assert_eq!(snapshot_file_name(7), "snap-00000000000000000007.bin");
        assert_eq!(
            parse_snapshot_file_name("snap-00000000000000000007.bin"),
            Some(7)
        );
        assert_eq!(parse_snapshot_file_name("snap-7.bin"), None);
        Ok(())
    }

    #[test]
    fn atomic_write_latest_and_pruning_on_fs() -> TestResult {
        let dir = tempfile::tempdir()?;
        let mut storage = FsStorage::open(dir.path())?;
        assert_eq!(latest_snapshot(&storage)?, None);
        for seq in [10, 20, 30, 40] {
            write_snapshot(&mut storage, seq, format!("state@{seq}").as_bytes())?;
        }
        assert_eq!(latest_snapshot(&storage)?, Some((40, b"state@40".to_vec())));
        let mut names: Vec<_> = std::fs::read_dir(dir.path())?
            .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
            .collect::<Result<_, _>>()?;
        names.sort();
        assert_eq!(names, vec![snapshot_file_name(30), snapshot_file_name(40)]);
        write_snapshot(&mut storage, 40, b"replaced")?;
        assert_eq!(latest_snapshot(&storage)?, Some((40, b"replaced".to_vec())));
        assert_eq!(
            latest_snapshot_at_most(&storage, 39)?,
            Some((30, b"state@30".to_vec()))
        );
        Ok(())
    }

    #[test]
    fn corrupt_snapshot_falls_back_to_older() -> TestResult {
        let mem = MemStorage::new();
        let mut storage = mem.clone();
        write_snapshot(&mut storage, 5, b"five")?;
        write_snapshot(&mut storage, 9, b"nine")?;
        assert!(mem.flip_file_bit(&snapshot_file_name(9), 32, 1));
        assert_eq!(latest_snapshot(&mem)?, Some((5, b"five".to_vec())));

        mem.set_file_bytes(&snapshot_file_name(5), encode_snapshot(4, b"misnamed"));
        assert_eq!(latest_snapshot(&mem)?, None);

        mem.fail_next_write();
        assert!(write_snapshot(&mut storage, 12, b"twelve").is_err());
        assert_eq!(mem.file_bytes(&snapshot_file_name(12)), None);
        Ok(())
    }
}
