//! Reading a whole log back: validation, torn-tail detection, and the read-only entry points.
//!
//! The scan reads segments `seg-000000.log`, `seg-000001.log`, … in order and checks:
//! - segment files are numbered 0..n without gaps, and each header's `segment_index` matches;
//! - each header decodes ([`SegmentHeader::decode`]) and describes the same session as
//!   segment 0's (all fields but `segment_index`/`first_seq`);
//! - each segment's `first_seq` is where the previous segment ended (segment 0 starts at 0);
//! - frames decode ([`decode_frame`](super::frame::decode_frame)) and their seqs are gapless.
//!
//! A **torn tail** is what a crash in the middle of an append leaves: at the end of the last
//! (active) segment, a frame that runs past the end of the file, or whose checksum fails or
//! whose `len` is impossible, with **no valid frame anywhere after it** (any later offset whose
//! `seq` is at least the bad frame's and whose checksum holds counts as valid). It is reported
//! as a [`Truncation`] (and cut off by [`SessionLog::open`](super::SessionLog::open), but not
//! by [`read_log`]). Everything else is [`LogError::Corruption`], naming the segment, the byte
//! offset and the last good seq, and nothing is cut: a bad frame followed by a valid one (a
//! flipped bit in the middle of the log), a well-formed frame out of sequence, any bad frame in
//! a sealed segment, a header that does not match, a sequence gap between segments.

use std::fs;
use std::ops::ControlFlow;
use std::path::Path;

use super::error::{LogError, Result};
use super::frame::{FrameError, scan_frames, valid_frame_after};
use super::header::SegmentHeader;
use super::storage::{FsStorage, Storage, segment_file_name};

/// Distance in bytes between two entries of the seq → offset index.
pub(super) const INDEX_STRIDE: u64 = 256 * 1024;

/// What a scan of a log found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recovered {
    /// Header of the first segment (segment 0 for a log directory).
    pub header: SegmentHeader,
    /// Every good frame, as (seq, payload), in seq order.
    pub frames: Vec<(u64, Vec<u8>)>,
    /// The torn tail found at the end of the last segment, if any.
    pub truncated: Option<Truncation>,
}

impl Recovered {
    /// Seq the next frame appended after these would get.
    pub fn next_seq(&self) -> u64 {
        self.frames
            .last()
            .map_or(self.header.first_seq, |(seq, _)| seq.wrapping_add(1))
    }
}

/// A torn tail of the active segment: bytes from `offset` to the end were not a valid frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Truncation {
    /// Segment index.
    pub segment: u32,
    /// Segment file, for messages.
    pub file: String,
    /// Offset of the end of the last good frame (the new length of the file).
    pub offset: u64,
    /// Bytes after `offset`.
    pub bytes_dropped: u64,
    /// Why the bytes at `offset` are not a frame.
    pub reason: FrameError,
}

/// Where a segment starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct SegmentInfo {
    pub index: u32,
    pub first_seq: u64,
    /// Header length: offset of the first frame.
    pub header_len: u64,
}

/// One entry of [`SeqIndex`]: frame `seq` starts at `offset` of segment `segment`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct IndexEntry {
    pub seq: u64,
    pub segment: u32,
    pub offset: u64,
}

/// A sparse seq → (segment, offset) index: one entry per segment start and one at least every
/// [`INDEX_STRIDE`] bytes, so a catch-up read starts close to the frame it wants.
#[derive(Debug, Clone, Default)]
pub(super) struct SeqIndex {
    entries: Vec<IndexEntry>,
}

impl SeqIndex {
    pub(super) fn note_segment_start(&mut self, segment: u32, first_seq: u64, offset: u64) {
        self.entries.push(IndexEntry {
            seq: first_seq,
            segment,
            offset,
        });
    }

    pub(super) fn note_frame(&mut self, seq: u64, segment: u32, offset: u64) {
        let due = self.entries.last().is_none_or(|last| {
            last.segment != segment || offset.saturating_sub(last.offset) >= INDEX_STRIDE
        });
        if due {
            self.entries.push(IndexEntry {
                seq,
                segment,
                offset,
            });
        }
    }

    /// The last entry at or before `seq`.
    pub(super) fn locate(&self, seq: u64) -> Option<IndexEntry> {
        let after = self.entries.partition_point(|e| e.seq <= seq);
        after
            .checked_sub(1)
            .and_then(|i| self.entries.get(i))
            .copied()
    }
}

/// Everything a scan learns; the writer resumes from it.
#[derive(Debug)]
pub(super) struct LogScan {
    pub recovered: Recovered,
    pub segments: Vec<SegmentInfo>,
    /// Length of the last segment up to the end of its last good frame.
    pub active_len: u64,
    pub index: SeqIndex,
}

/// One segment's bytes, as read.
struct SegmentSource {
    /// Index from the file name, when the segment comes from a storage listing.
    file_index: Option<u32>,
    file: String,
    bytes: Vec<u8>,
}

/// Scans segments in order. `strict`: the log must start at segment 0, seq 0 (a log
/// directory); otherwise the first segment's header says where it starts (a lone segment file).
fn scan_sources(
    sources: impl ExactSizeIterator<Item = Result<SegmentSource>>,
    strict: bool,
) -> Result<Option<LogScan>> {
    let count = sources.len();
    let mut first_header: Option<SegmentHeader> = None;
    let mut frames = Vec::new();
    let mut segments: Vec<SegmentInfo> = Vec::with_capacity(count);
    let mut index = SeqIndex::default();
    let mut truncated = None;
    let mut active_len = 0;
    let mut expected_seq = 0u64;

    for (position, source) in sources.enumerate() {
        let SegmentSource {
            file_index,
            file,
            bytes,
        } = source?;
        let is_last = position + 1 == count;
        let (header, header_len) =
            SegmentHeader::decode(&bytes).map_err(|source| LogError::Header {
                file: file.clone(),
                source,
            })?;
        let expected_index = match (segments.last(), file_index) {
            (Some(prev), _) => prev.index.checked_add(1).ok_or(LogError::Overflow)?,
            (None, Some(index)) => index,
            (None, None) if strict => 0,
            (None, None) => header.segment_index,
        };
        if header.segment_index != expected_index {
            return Err(LogError::SegmentIndex {
                file,
                expected: expected_index,
                found: header.segment_index,
            });
        }
        match &first_header {
            None => {
                expected_seq = if strict { 0 } else { header.first_seq };
                first_header = Some(header.clone());
            }
            Some(first) => {
                if let Err(field) = first.same_session(&header) {
                    return Err(LogError::HeaderMismatch { file, field });
                }
            }
        }
        if header.first_seq != expected_seq {
            return Err(LogError::SeqGap {
                file,
                expected: expected_seq,
                found: header.first_seq,
            });
        }

        let segment = header.segment_index;
        index.note_segment_start(segment, header.first_seq, header_len as u64);
        let end = scan_frames(&bytes, header_len, expected_seq, |seq, payload, offset| {
            index.note_frame(seq, segment, offset as u64);
            frames.push((seq, payload.to_vec()));
            ControlFlow::Continue(())
        });
        if let Some(reason) = end.corruption {
            let torn = is_last
                && !matches!(reason, FrameError::SeqOutOfOrder { .. })
                && valid_frame_after(&bytes, end.end, end.next_seq).is_none();
            if !torn {
                return Err(LogError::Corruption {
                    segment,
                    file,
                    offset: end.end as u64,
                    last_good_seq: end.next_seq.checked_sub(1).filter(|_| !frames.is_empty()),
                    sealed: !is_last,
                    reason,
                });
            }
            truncated = Some(Truncation {
                segment,
                file,
                offset: end.end as u64,
                bytes_dropped: (bytes.len() - end.end) as u64,
                reason,
            });
        }
        expected_seq = end.next_seq;
        active_len = end.end as u64;
        segments.push(SegmentInfo {
            index: segment,
            first_seq: header.first_seq,
            header_len: header_len as u64,
        });
    }

    Ok(first_header.map(|header| LogScan {
        recovered: Recovered {
            header,
            frames,
            truncated,
        },
        segments,
        active_len,
        index,
    }))
}

/// Scans every segment of `storage` without changing anything.
pub(super) fn scan_storage(storage: &dyn Storage) -> Result<LogScan> {
    let location = storage.location();
    let indices = storage
        .list_segments()
        .map_err(|e| LogError::io(location.clone(), "listing segments in", e))?;
    for (position, found) in indices.iter().enumerate() {
        if u32::try_from(position).ok() != Some(*found) {
            return Err(LogError::MissingSegment {
                location,
                expected: u32::try_from(position).unwrap_or(u32::MAX),
                found: *found,
            });
        }
    }
    let sources = indices.into_iter().map(|index| {
        let file = storage.display_name(&segment_file_name(index));
        let bytes = storage
            .read_segment(index)
            .map_err(|e| LogError::io(file.clone(), "reading", e))?;
        Ok(SegmentSource {
            file_index: Some(index),
            file,
            bytes,
        })
    });
    scan_sources(sources, true)?.ok_or(LogError::Empty { location })
}

/// Reads a whole log read-only: validates it like [`SessionLog::open`](super::SessionLog::open)
/// and reports a torn tail in [`Recovered::truncated`] without cutting it off.
pub fn read_log(storage: &dyn Storage) -> Result<Recovered> {
    Ok(scan_storage(storage)?.recovered)
}

/// Reads a log named by a user, read-only: a log directory (all its segments, as [`read_log`]),
/// or a single segment file, which is read on its own (its header says where it starts; a torn
/// tail is reported, not cut).
pub fn read_log_path(path: &Path) -> Result<Recovered> {
    let display = path.display().to_string();
    let meta = fs::metadata(path).map_err(|e| LogError::io(display.clone(), "opening", e))?;
    if meta.is_dir() {
        let storage =
            FsStorage::read_only(path).map_err(|e| LogError::io(display.clone(), "opening", e))?;
        return read_log(&storage);
    }
    let bytes = fs::read(path).map_err(|e| LogError::io(display.clone(), "reading", e))?;
    let source = SegmentSource {
        file_index: None,
        file: display.clone(),
        bytes,
    };
    let scan = scan_sources(std::iter::once(Ok(source)), false)?;
    scan.map(|s| s.recovered)
        .ok_or(LogError::Empty { location: display })
}

#[cfg(test)]
mod tests {
    use super::super::frame::encode_frame;
    use super::super::header::sample_header;
    use super::super::storage::MemStorage;
    use super::super::writer::{LogConfig, SessionLog};
    use super::*;

    type TestResult = Result<(), Box<dyn std::error::Error>>;

    fn payloads(range: std::ops::Range<u64>) -> Vec<Vec<u8>> {
        range.map(|i| format!("record {i}").into_bytes()).collect()
    }

    /// A log of `n` frames, one per batch, in `MemStorage`.
    fn mem_log(n: u64, config: LogConfig) -> Result<(MemStorage, Vec<Vec<u8>>), LogError> {
        let mem = MemStorage::new();
        let mut log = SessionLog::create_with(mem.clone(), sample_header(), config)?;
        let all = payloads(0..n);
        for p in &all {
            log.append_batch(std::slice::from_ref(p))?;
        }
        Ok((mem, all))
    }

    fn seqs(frames: &[(u64, Vec<u8>)]) -> Vec<u64> {
        frames.iter().map(|(s, _)| *s).collect()
    }

    fn header_len() -> usize {
        sample_header().encoded_len()
    }

    #[test]
    fn short_write_tail_is_truncated_and_reported() -> TestResult {
        let (mem, all) = mem_log(5, LogConfig::default())?;
        let before = mem.segment_bytes(0).unwrap_or_default().len();
        let mut log = SessionLog::open(mem.clone())?.0;
        mem.short_next_write(10);
        assert!(log.append_batch(&payloads(5..6)).is_err());
        assert_eq!(mem.segment_bytes(0).unwrap_or_default().len(), before + 10);
        drop(log);

        let (log, recovered) = SessionLog::open(mem.clone())?;
        assert_eq!(recovered.frames.len(), 5);
        assert_eq!(
            recovered.frames.iter().map(|f| &f.1).collect::<Vec<_>>(),
            all.iter().collect::<Vec<_>>()
        );
        let t = recovered.truncated.ok_or("no truncation reported")?;
        assert_eq!(
            (t.segment, t.offset, t.bytes_dropped),
            (0, before as u64, 10)
        );
        assert!(matches!(t.reason, FrameError::Truncated { .. }));
        assert_eq!(mem.segment_bytes(0).unwrap_or_default().len(), before);
        assert_eq!(log.next_seq(), 5);
        Ok(())
    }

    #[test]
    fn garbage_tail_is_truncated() -> TestResult {
        let (mem, _) = mem_log(3, LogConfig::default())?;
        let mut bytes = mem.segment_bytes(0).unwrap_or_default();
        let good = bytes.len();
        bytes.extend_from_slice(&[0xAB; 40]);
        mem.set_segment_bytes(0, bytes);
        let before = read_log(&mem)?;
        assert_eq!(before.truncated.as_ref().map(|t| t.bytes_dropped), Some(40));
        assert_eq!(mem.segment_bytes(0).unwrap_or_default().len(), good + 40);

        let (_, recovered) = SessionLog::open(mem.clone())?;
        assert_eq!(seqs(&recovered.frames), vec![0, 1, 2]);
        let t = recovered.truncated.ok_or("no truncation reported")?;
        assert_eq!((t.offset, t.bytes_dropped), (good as u64, 40));
        assert!(matches!(t.reason, FrameError::Oversize { .. }));
        assert_eq!(mem.segment_bytes(0).unwrap_or_default().len(), good);
        assert_eq!(read_log(&mem)?.truncated, None);
        Ok(())
    }

    /// Offsets of the frames of segment 0 of a `mem_log`, and the segment's length.
    fn frame_offsets(n: u64) -> (Vec<usize>, usize) {
        let mut offsets = Vec::new();
        let mut at = header_len();
        for p in payloads(0..n) {
            offsets.push(at);
            at += 16 + p.len();
        }
        (offsets, at)
    }

    /// DESIGN §7 (issue 16): one flipped bit anywhere in a small log is found. In any frame but
    /// the last it is corruption naming the frame's offset and the last good seq, and neither
    /// reading nor opening the log cuts anything; in the last frame it is a torn tail that drops
    /// that frame only; in the header the log does not open.
    #[test]
    fn every_bit_flip_in_a_small_log_is_found_and_only_the_last_frame_is_a_torn_tail() -> TestResult
    {
        let n = 6;
        let (mem, _) = mem_log(n, LogConfig::default())?;
        let pristine = mem.segment_bytes(0).ok_or("no segment")?;
        let (offsets, len) = frame_offsets(n);
        assert_eq!(len, pristine.len());
        let last = *offsets.last().ok_or("no frame")?;
        for pos in 0..pristine.len() {
            let mut bytes = pristine.clone();
            bytes[pos] ^= 1 << (pos % 8);
            let copy = MemStorage::new();
            copy.set_segment_bytes(0, bytes.clone());
            let read = read_log(&copy);
            if pos < header_len() {
                assert!(read.is_err(), "a flip at header byte {pos} went unseen");
                continue;
            }
            let frame = offsets.iter().rposition(|o| *o <= pos).ok_or("no frame")?;
            if offsets[frame] == last {
                let r = read.map_err(|e| format!("byte {pos}: {e}"))?;
                let t = r.truncated.ok_or(format!("byte {pos}: no torn tail"))?;
                assert_eq!(t.offset, last as u64, "byte {pos}");
                assert_eq!(r.frames.len() as u64, n - 1, "byte {pos}");
            } else {
                match read {
                    Err(LogError::Corruption {
                        offset,
                        last_good_seq,
                        sealed: false,
                        ..
                    }) => {
                        assert_eq!(offset, offsets[frame] as u64, "byte {pos}");
                        assert_eq!(last_good_seq, (frame as u64).checked_sub(1), "byte {pos}");
                    }
                    other => return Err(format!("byte {pos}: {other:?}").into()),
                }
                assert!(SessionLog::open(copy.clone()).is_err(), "byte {pos} opened");
                assert_eq!(copy.segment_bytes(0), Some(bytes), "byte {pos}: cut");
            }
        }
        Ok(())
    }

    /// A crash in the middle of the last append: the log cut at every byte of its last frame is
    /// a torn tail that drops that frame only.
    #[test]
    fn a_cut_at_every_byte_of_the_last_frame_is_a_torn_tail() -> TestResult {
        let n = 5;
        let (mem, _) = mem_log(n, LogConfig::default())?;
        let pristine = mem.segment_bytes(0).ok_or("no segment")?;
        let (offsets, _) = frame_offsets(n);
        let last = *offsets.last().ok_or("no frame")?;
        for cut in last + 1..pristine.len() {
            let copy = MemStorage::new();
            copy.set_segment_bytes(0, pristine[..cut].to_vec());
            let (_, r) = SessionLog::open(copy.clone()).map_err(|e| format!("cut {cut}: {e}"))?;
            let t = r.truncated.ok_or(format!("cut {cut}: no torn tail"))?;
            assert_eq!(
                (t.offset, t.bytes_dropped),
                (last as u64, (cut - last) as u64)
            );
            assert_eq!(r.frames.len() as u64, n - 1);
            assert_eq!(copy.segment_bytes(0).map(|b| b.len()), Some(last));
        }
        Ok(())
    }

    /// A bit flip in a middle frame's `len` can make the frame seem to run past the end of the
    /// file, like a torn tail; the valid frames after it show that it is not.
    #[test]
    fn a_flipped_length_in_a_middle_frame_is_corruption_not_a_torn_tail() -> TestResult {
        let (mem, _) = mem_log(4, LogConfig::default())?;
        let (offsets, _) = frame_offsets(4);
        // The high byte of frame 1's len: the frame now claims ~16 MiB or more.
        assert!(mem.flip_bit(0, offsets[1] + 3, 0));
        match read_log(&mem) {
            Err(LogError::Corruption {
                offset,
                last_good_seq: Some(0),
                ..
            }) => assert_eq!(offset, offsets[1] as u64),
            other => return Err(format!("unexpected {other:?}").into()),
        }
        Ok(())
    }

    #[test]
    fn bit_flip_in_last_frame_is_truncated() -> TestResult {
        let (mem, _) = mem_log(4, LogConfig::default())?;
        let len = mem.segment_bytes(0).unwrap_or_default().len();
        assert!(mem.flip_bit(0, len - 2, 3));
        let (mut log, recovered) = SessionLog::open(mem.clone())?;
        assert_eq!(seqs(&recovered.frames), vec![0, 1, 2]);
        let t = recovered.truncated.ok_or("no truncation reported")?;
        assert!(matches!(t.reason, FrameError::BadCrc { .. }));
        assert_eq!(t.bytes_dropped, (16 + "record 3".len()) as u64);
        assert_eq!(log.append_batch(&payloads(9..10))?, 3);
        Ok(())
    }

    #[test]
    fn a_well_formed_frame_out_of_sequence_at_the_tail_is_corruption_not_a_torn_tail() -> TestResult
    {
        let (mem, _) = mem_log(2, LogConfig::default())?;
        let mut bytes = mem.segment_bytes(0).unwrap_or_default();
        let good = bytes.len();
        encode_frame(&mut bytes, 7, b"stale")?;
        mem.set_segment_bytes(0, bytes.clone());
        match SessionLog::open(mem.clone()) {
            Err(LogError::Corruption {
                offset,
                last_good_seq: Some(1),
                sealed: false,
                reason:
                    FrameError::SeqOutOfOrder {
                        expected: 2,
                        found: 7,
                    },
                ..
            }) => assert_eq!(offset, good as u64),
            other => return Err(format!("unexpected {other:?}").into()),
        }
        assert_eq!(mem.segment_bytes(0), Some(bytes), "nothing was cut");
        Ok(())
    }

    fn rotating() -> LogConfig {
        LogConfig {
            max_segment_bytes: 1,
            ..LogConfig::default()
        }
    }

    #[test]
    fn bit_flip_in_sealed_segment_is_an_error() -> TestResult {
        let (mem, _) = mem_log(3, rotating())?;
        assert_eq!(mem.list_segments()?, vec![0, 1, 2]);
        assert!(mem.flip_bit(1, header_len() + 18, 0));
        match SessionLog::open(mem.clone()) {
            Err(LogError::Corruption {
                segment: 1,
                offset,
                reason: FrameError::BadCrc { .. },
                ..
            }) => assert_eq!(offset, header_len() as u64),
            other => return Err(format!("unexpected {other:?}").into()),
        }
        assert!(matches!(read_log(&mem), Err(LogError::Corruption { .. })));
        let mut sealed = mem.segment_bytes(0).unwrap_or_default();
        sealed.truncate(sealed.len() - 1);
        mem.set_segment_bytes(0, sealed);
        assert!(matches!(
            read_log(&mem),
            Err(LogError::Corruption { segment: 0, .. })
        ));
        Ok(())
    }

    #[test]
    fn structural_errors() -> TestResult {
        assert!(matches!(
            read_log(&MemStorage::new()),
            Err(LogError::Empty { .. })
        ));

        let (mem, _) = mem_log(3, rotating())?;
        let seg1 = mem.segment_bytes(1).unwrap_or_default();
        let seg2 = mem.segment_bytes(2).unwrap_or_default();

        let gap = MemStorage::new();
        gap.set_segment_bytes(0, mem.segment_bytes(0).unwrap_or_default());
        gap.set_segment_bytes(2, seg2.clone());
        assert!(matches!(
            read_log(&gap),
            Err(LogError::MissingSegment {
                expected: 1,
                found: 2,
                ..
            })
        ));

        let swapped = MemStorage::new();
        swapped.set_segment_bytes(0, mem.segment_bytes(0).unwrap_or_default());
        swapped.set_segment_bytes(1, seg2);
        assert!(matches!(
            read_log(&swapped),
            Err(LogError::SegmentIndex {
                expected: 1,
                found: 2,
                ..
            })
        ));

        let other = SegmentHeader {
            ruleset_id: "other".to_owned(),
            ..sample_header().for_segment(1, 1)
        };
        let mut foreign = other.encode()?;
        foreign.extend_from_slice(&seg1[header_len()..]);
        let mismatch = MemStorage::new();
        mismatch.set_segment_bytes(0, mem.segment_bytes(0).unwrap_or_default());
        mismatch.set_segment_bytes(1, foreign);
        assert!(matches!(
            read_log(&mismatch),
            Err(LogError::HeaderMismatch {
                field: "ruleset_id",
                ..
            })
        ));

        let skipped = MemStorage::new();
        skipped.set_segment_bytes(0, mem.segment_bytes(0).unwrap_or_default());
        skipped.set_segment_bytes(1, sample_header().for_segment(1, 5).encode()?);
        assert!(matches!(
            read_log(&skipped),
            Err(LogError::SeqGap {
                expected: 1,
                found: 5,
                ..
            })
        ));

        let bad_header = MemStorage::new();
        bad_header.set_segment_bytes(0, b"not a log at all".to_vec());
        match read_log(&bad_header) {
            Err(e @ LogError::Header { .. }) => {
                assert!(e.to_string().contains("memory:/seg-000000.log"));
            }
            other => return Err(format!("unexpected {other:?}").into()),
        }
        Ok(())
    }

    #[test]
    fn read_log_path_directory_and_single_segment() -> TestResult {
        let dir = tempfile::tempdir()?;
        let storage = FsStorage::open(dir.path())?;
        let mut log = SessionLog::create_with(storage, sample_header(), rotating())?;
        for p in payloads(0..3) {
            log.append_batch(&[p])?;
        }
        drop(log);

        let whole = read_log_path(dir.path())?;
        assert_eq!(seqs(&whole.frames), vec![0, 1, 2]);
        assert_eq!(whole.next_seq(), 3);

        let seg1 = dir.path().join("seg-000001.log");
        let single = read_log_path(&seg1)?;
        assert_eq!(seqs(&single.frames), vec![1]);
        assert_eq!(single.header.segment_index, 1);
        assert_eq!(single.next_seq(), 2);

        let mut bytes = fs::read(&seg1)?;
        bytes.extend_from_slice(&[1, 2, 3]);
        fs::write(&seg1, &bytes)?;
        let torn = read_log_path(&seg1)?;
        assert_eq!(torn.truncated.map(|t| t.bytes_dropped), Some(3));
        assert_eq!(fs::read(&seg1)?.len(), bytes.len(), "read-only: not cut");

        assert!(matches!(
            read_log_path(&dir.path().join("missing.log")),
            Err(LogError::Io { .. })
        ));
        Ok(())
    }

    mod torn_tail_property {
        use super::*;
        use proptest::prelude::*;
        use proptest::sample::Index;

        fn run(
            batches: &[Vec<Vec<u8>>],
            max_segment_bytes: u64,
            cut: Index,
            garbage: &[u8],
        ) -> Result<(), TestCaseError> {
            let fail = |e: LogError| TestCaseError::fail(e.to_string());
            let mem = MemStorage::new();
            let config = LogConfig {
                max_segment_bytes,
                ..LogConfig::default()
            };
            let mut log =
                SessionLog::create_with(mem.clone(), sample_header(), config).map_err(fail)?;
            let mut all = Vec::new();
            for batch in batches {
                log.append_batch(batch).map_err(fail)?;
                all.extend(batch.iter().cloned());
            }
            drop(log);

            let last = mem.list_segments()?.last().copied().unwrap_or_default();
            let mut bytes = mem.segment_bytes(last).unwrap_or_default();
            let (header, header_len) =
                SegmentHeader::decode(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let keep = header_len + cut.index(bytes.len() - header_len + 1);
            // The "garbage" may begin with the very bytes the cut removed (a frame's last byte
            // cut, the same byte appended): those bytes are the log's own again.
            let restored = garbage
                .iter()
                .zip(&bytes[keep..])
                .take_while(|(g, b)| g == b)
                .count();
            let intact = keep + restored;
            bytes.truncate(keep);
            bytes.extend_from_slice(garbage);
            mem.set_segment_bytes(last, bytes);

            // Frames of the last segment wholly inside the intact bytes survive.
            let mut survivors = header.first_seq as usize;
            let mut end = header_len;
            for payload in &all[survivors..] {
                if end + 16 + payload.len() > intact {
                    break;
                }
                end += 16 + payload.len();
                survivors += 1;
            }

            let (mut log, recovered) = SessionLog::open(mem.clone()).map_err(fail)?;
            let got: Vec<Vec<u8>> = recovered.frames.iter().map(|f| f.1.clone()).collect();
            prop_assert_eq!(&got[..], &all[..survivors]);
            let seqs: Vec<u64> = recovered.frames.iter().map(|f| f.0).collect();
            prop_assert_eq!(seqs, (0..survivors as u64).collect::<Vec<_>>());
            let dropped = (keep + garbage.len() - end) as u64;
            prop_assert_eq!(
                recovered.truncated.map(|t| t.bytes_dropped),
                (dropped > 0).then_some(dropped)
            );
            prop_assert_eq!(mem.segment_bytes(last).map(|b| b.len()), Some(end));
            prop_assert_eq!(
                log.append_batch(&[b"after".to_vec()]).map_err(fail)?,
                survivors as u64
            );
            prop_assert_eq!(read_log(&mem).map_err(fail)?.frames.len(), survivors + 1);
            Ok(())
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(128))]
            #[test]
            fn torn_tail_recovers_a_prefix(
                batches in prop::collection::vec(
                    prop::collection::vec(prop::collection::vec(any::<u8>(), 0..48), 1..5),
                    1..12,
                ),
                max_segment_bytes in 120u64..800,
                cut in any::<Index>(),
                garbage in prop::collection::vec(any::<u8>(), 0..24),
            ) {
                run(&batches, max_segment_bytes, cut, &garbage)?;
            }
        }
    }

    #[test]
    fn seq_index_locates_nearest_entry() {
        let mut index = SeqIndex::default();
        index.note_segment_start(0, 0, 100);
        index.note_frame(0, 0, 100);
        index.note_frame(5, 0, 100 + INDEX_STRIDE);
        index.note_frame(6, 0, 120 + INDEX_STRIDE);
        index.note_segment_start(1, 9, 100);
        assert_eq!(index.locate(0).map(|e| e.offset), Some(100));
        assert_eq!(index.locate(4).map(|e| e.offset), Some(100));
        assert_eq!(index.locate(7).map(|e| e.seq), Some(5));
        assert_eq!(index.locate(9).map(|e| e.segment), Some(1));
    }
}
