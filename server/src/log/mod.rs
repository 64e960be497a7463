//! The session log: a durable, append-only sequence of opaque records for one session.
//!
//! A log is a directory (or any [`Storage`]) of *segment files* `seg-000000.log`,
//! `seg-000001.log`, … Each segment starts with a [`SegmentHeader`] (see [`header`]) and
//! continues with *frames* (see [`frame`]):
//!
//! ```text
//! segment  = header frame*
//! frame    = len u32 | crc32c u32 | seq u64 | payload[len]        (little-endian)
//!            crc32c covers seq bytes ‖ payload; len ≤ MAX_PAYLOAD_LEN (16 MiB)
//! ```
//!
//! Frame sequence numbers are gapless: the first frame of the log has seq 0 and every later frame
//! has the previous seq + 1, across segment boundaries. Only the last segment (the *active* one)
//! is ever appended to; a segment is *sealed* (never modified again) once the writer rotates to a
//! new one. Snapshots (`snap-<seq:020>.bin`, see [`snapshot`]) live next to the segments.
//!
//! - [`writer::SessionLog`] appends batches with group commit under an [`FsyncPolicy`], rotates
//!   segments, fails stop (poisons itself) on any write or sync error, and serves catch-up reads.
//! - [`recovery`] scans a log on open: a torn tail (a short, checksum-failing or oversize last
//!   frame of the active segment with no valid frame after it) is truncated and reported;
//!   anything else — a bad frame followed by a valid one, an out-of-order seq, a bad frame in a
//!   sealed segment — is corruption ([`LogError::Corruption`]), and nothing is cut. [`read_log`] / [`read_log_path`] do the same
//!   scan read-only, for `verify`/`replay` tools.
//! - [`storage`] holds the [`Storage`] trait, [`FsStorage`] and the fault-injecting
//!   [`MemStorage`].
//!
//! Architecture invariant: this module knows nothing about game types, codecs or the rest of the
//! server. Payloads are opaque bytes; the session layer encodes its records (bincode) and decides
//! what a snapshot means. No code path reachable from file contents panics: corrupt input yields
//! a [`LogError`] naming the file and offset.

pub mod error;
pub mod frame;
pub mod header;
pub mod recovery;
pub mod snapshot;
pub mod storage;
pub mod writer;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
pub(crate) mod tests_decoder_props;

pub use error::{LogError, Result};
pub use frame::{FrameError, MAX_PAYLOAD_LEN};
pub use header::{CODEC_BINCODE, HeaderError, SegmentHeader};
pub use recovery::{Recovered, Truncation, read_log, read_log_path};
pub use snapshot::{SnapshotError, latest_snapshot, latest_snapshot_at_most, write_snapshot};
pub use storage::{FsStorage, MemStorage, Storage, segment_file_name};
pub use writer::{DEFAULT_MAX_SEGMENT_BYTES, FsyncPolicy, LogConfig, SessionLog};
