//! [`LogError`]: every failure of the session log, each naming the file (and offset) involved.
//!
//! File names in messages come from [`Storage::display_name`](super::Storage::display_name): a
//! full path for [`FsStorage`](super::FsStorage), `memory:/<name>` for
//! [`MemStorage`](super::MemStorage).

use std::io;

use super::frame::FrameError;
use super::header::HeaderError;

/// Result alias for the log module.
pub type Result<T, E = LogError> = std::result::Result<T, E>;

/// An error of the session log.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The storage failed an operation.
    #[error("I/O error while {op} {file}: {source}")]
    Io {
        /// File (or directory) involved.
        file: String,
        /// What was being done, e.g. "appending to".
        op: &'static str,
        /// Underlying error.
        #[source]
        source: io::Error,
    },
    /// A segment header failed to decode or to encode.
    #[error("bad segment header in {file} (offset 0): {source}")]
    Header {
        /// Segment file.
        file: String,
        /// What is wrong with it.
        #[source]
        source: HeaderError,
    },
    /// A bad frame that is not a torn tail: in a sealed segment, or followed by a valid frame,
    /// or a well-formed frame out of sequence. Never repaired automatically: acknowledged
    /// events may follow it.
    #[error(
        "corruption in {file} (segment {segment}{sealed}) at byte {offset}, after {last_good}: {reason}",
        sealed = if *sealed { ", sealed" } else { "" },
        last_good = match last_good_seq { Some(s) => format!("last good frame seq {s}"), None => "no good frame".to_owned() }
    )]
    Corruption {
        /// Segment index.
        segment: u32,
        /// Segment file.
        file: String,
        /// Byte offset of the first bad frame.
        offset: u64,
        /// Seq of the last good frame before it, if any.
        last_good_seq: Option<u64>,
        /// Whether the segment is sealed (not the last one).
        sealed: bool,
        /// What is wrong with the frame there.
        reason: FrameError,
    },
    /// A frame inside the committed part of the log could not be read back.
    #[error("corrupt frame in {file} at offset {offset} inside the committed log: {reason}")]
    Corrupt {
        /// Segment file.
        file: String,
        /// Byte offset of the bad frame.
        offset: u64,
        /// What is wrong with it.
        reason: FrameError,
    },
    /// Segment files are not numbered 0, 1, 2, … without gaps.
    #[error("missing segment in {location}: expected segment {expected}, found segment {found}")]
    MissingSegment {
        /// Log location.
        location: String,
        /// Index expected at this position.
        expected: u32,
        /// Index found instead.
        found: u32,
    },
    /// A segment header records a different index than its file name.
    #[error("{file}: header records segment index {found}, expected {expected}")]
    SegmentIndex {
        /// Segment file.
        file: String,
        /// Index expected.
        expected: u32,
        /// Index in the header.
        found: u32,
    },
    /// A segment does not start where the previous one ended.
    #[error("{file}: segment starts at seq {found} but the log continues at seq {expected}")]
    SeqGap {
        /// Segment file.
        file: String,
        /// Seq expected.
        expected: u64,
        /// Seq in the header.
        found: u64,
    },
    /// A later segment's header describes a different session than segment 0's.
    #[error("{file}: header field `{field}` differs from segment 0")]
    HeaderMismatch {
        /// Segment file.
        file: String,
        /// First differing field.
        field: &'static str,
    },
    /// Opening a log that has no segments.
    #[error("no log segments in {location}")]
    Empty {
        /// Log location.
        location: String,
    },
    /// Creating a log where one already exists.
    #[error("a log already exists in {location}")]
    AlreadyExists {
        /// Log location.
        location: String,
    },
    /// An earlier write or sync failed; the log accepts no more appends (fail-stop).
    #[error(
        "log is poisoned by an earlier failure ({cause}); stop the session and recover from the log"
    )]
    Poisoned {
        /// Description of the first failure.
        cause: String,
    },
    /// A payload of the batch is too large for one frame. The log is not poisoned.
    #[error("payload {index} of the batch is {len} bytes, above the maximum of {max}")]
    PayloadTooLarge {
        /// Position in the batch.
        index: usize,
        /// Its length.
        len: usize,
        /// The limit.
        max: u32,
    },
    /// `append_batch` was called with no payloads. The log is not poisoned.
    #[error("empty batch")]
    EmptyBatch,
    /// A read asked for frames past the end of the log.
    #[error("requested seq {requested} is beyond the end of the log (next seq {next})")]
    SeqBeyondEnd {
        /// Requested seq.
        requested: u64,
        /// Next seq the log will assign.
        next: u64,
    },
    /// A snapshot was offered for a position the log has not reached.
    #[error("snapshot at seq {seq} is ahead of the log (next seq {next})")]
    SnapshotAhead {
        /// Snapshot seq.
        seq: u64,
        /// Next seq of the log.
        next: u64,
    },
    /// Sequence numbers or segment indices ran out.
    #[error("sequence number or segment index space exhausted")]
    Overflow,
}

impl LogError {
    /// Builds an [`LogError::Io`].
    pub(super) fn io(file: impl Into<String>, op: &'static str, source: io::Error) -> Self {
        Self::Io {
            file: file.into(),
            op,
            source,
        }
    }
}
