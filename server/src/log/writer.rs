//! [`SessionLog`]: the append side of a session log, with group commit and segment rotation.
//!
//! Each [`SessionLog::append_batch`] encodes all its payloads as consecutive frames
//! (`len u32 | crc32c u32 | seq u64 | payload`, see [`frame`](super::frame)) into one buffer,
//! hands it to the storage in one write, then syncs according to the [`FsyncPolicy`]. Under
//! [`FsyncPolicy::Always`] a batch is durable before the call returns; the caller acknowledges
//! and broadcasts only what is durable ([`SessionLog::durable_seq`]).
//!
//! Rotation: before a batch, if the active segment has reached
//! [`LogConfig::max_segment_bytes`] (and holds at least one frame), it is synced and sealed, and
//! a new segment `seg-<index+1>.log` is created (atomically) with a header recording its index
//! and first seq. A segment may thus exceed the limit by at most one batch. Sealed segments are
//! never written again; sealing always syncs, whatever the policy, so a crash cannot leave a torn
//! sealed segment.
//!
//! Fail-stop: any failed write, sync or segment creation poisons the log; every later append
//! returns [`LogError::Poisoned`]. The session must stop and be rebuilt from the log
//! ([`SessionLog::open`] truncates the torn tail the failure may have left).

use std::fmt;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use super::error::{LogError, Result};
use super::frame::{FrameError, MAX_PAYLOAD_LEN, encode_frame, encoded_len, scan_frames};
use super::header::SegmentHeader;
use super::recovery::{IndexEntry, Recovered, SegmentInfo, SeqIndex, scan_storage};
use super::snapshot;
use super::storage::{Storage, segment_file_name};

/// Default size at which the active segment is sealed: 64 MiB.
pub const DEFAULT_MAX_SEGMENT_BYTES: u64 = 64 * 1024 * 1024;
/// Bytes read per storage call when catching up.
const READ_CHUNK: usize = 1024 * 1024;
/// The batch buffer is released after a batch larger than this, to keep idle sessions small.
const KEEP_BUFFER_BYTES: usize = 64 * 1024;

/// When appended batches are made durable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FsyncPolicy {
    /// Sync after every batch, before `append_batch` returns (the default).
    Always,
    /// Sync after a batch when the last sync is at least this old. Call
    /// [`SessionLog::sync_if_due`] from a timer to bound the delay when appends stop.
    Interval(Duration),
    /// Sync after every N batches (0 counts as 1).
    EveryN(u32),
    /// Never sync batches (benchmarks); only rotation and [`SessionLog::flush_sync`] sync.
    Never,
}

/// Tunables of a [`SessionLog`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogConfig {
    /// When batches are synced.
    pub fsync: FsyncPolicy,
    /// Size at which the active segment is sealed and a new one started.
    pub max_segment_bytes: u64,
}

impl Default for LogConfig {
    fn default() -> Self {
        Self {
            fsync: FsyncPolicy::Always,
            max_segment_bytes: DEFAULT_MAX_SEGMENT_BYTES,
        }
    }
}

/// The writable log of one session. Owns its storage.
pub struct SessionLog {
    storage: Box<dyn Storage>,
    config: LogConfig,
    /// Header of segment 0; later segments copy it with their own index and first seq.
    header: SegmentHeader,
    /// Every segment, in order; the last is active. Never empty.
    segments: Vec<SegmentInfo>,
    /// Bytes in the active segment.
    active_len: u64,
    next_seq: u64,
    /// Every frame with seq < `durable_seq` has been synced.
    durable_seq: u64,
    batches_since_sync: u32,
    last_sync: Instant,
    poisoned: Option<String>,
    index: SeqIndex,
    buf: Vec<u8>,
}

impl fmt::Debug for SessionLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SessionLog")
            .field("location", &self.storage.location())
            .field("config", &self.config)
            .field("segments", &self.segments.len())
            .field("active_len", &self.active_len)
            .field("next_seq", &self.next_seq)
            .field("durable_seq", &self.durable_seq)
            .field("poisoned", &self.poisoned)
            .finish_non_exhaustive()
    }
}

impl SessionLog {
    /// Starts a new log in an empty `storage`, with the default [`LogConfig`]. The header's
    /// `segment_index` and `first_seq` are overwritten (0, 0).
    pub fn create(storage: impl Storage + 'static, header_template: SegmentHeader) -> Result<Self> {
        Self::create_with(storage, header_template, LogConfig::default())
    }

    /// [`SessionLog::create`] with a config.
    pub fn create_with(
        storage: impl Storage + 'static,
        header_template: SegmentHeader,
        config: LogConfig,
    ) -> Result<Self> {
        let mut storage: Box<dyn Storage> = Box::new(storage);
        let location = storage.location();
        let existing = storage
            .list_segments()
            .map_err(|e| LogError::io(location.clone(), "listing segments in", e))?;
        if !existing.is_empty() {
            return Err(LogError::AlreadyExists { location });
        }
        let header = header_template.for_segment(0, 0);
        let file = storage.display_name(&segment_file_name(0));
        let bytes = header.encode().map_err(|source| LogError::Header {
            file: file.clone(),
            source,
        })?;
        storage
            .create_segment(0, &bytes)
            .map_err(|e| LogError::io(file, "creating", e))?;
        let header_len = bytes.len() as u64;
        let mut index = SeqIndex::default();
        index.note_segment_start(0, 0, header_len);
        Ok(Self {
            storage,
            config,
            header,
            segments: vec![SegmentInfo {
                index: 0,
                first_seq: 0,
                header_len,
            }],
            active_len: header_len,
            next_seq: 0,
            durable_seq: 0,
            batches_since_sync: 0,
            last_sync: Instant::now(),
            poisoned: None,
            index,
            buf: Vec::new(),
        })
    }

    /// Opens an existing log with the default [`LogConfig`]: scans it (see
    /// [`recovery`](super::recovery)), cuts off a torn tail of the active segment (reported in
    /// [`Recovered::truncated`] and logged), syncs, and returns the writer positioned after the
    /// last good frame together with everything read.
    pub fn open(storage: impl Storage + 'static) -> Result<(Self, Recovered)> {
        Self::open_with(storage, LogConfig::default())
    }

    /// [`SessionLog::open`] with a config.
    pub fn open_with(
        storage: impl Storage + 'static,
        config: LogConfig,
    ) -> Result<(Self, Recovered)> {
        let mut storage: Box<dyn Storage> = Box::new(storage);
        let scan = scan_storage(storage.as_ref())?;
        let active = scan
            .segments
            .last()
            .copied()
            .ok_or_else(|| LogError::Empty {
                location: storage.location(),
            })?;
        let active_file = storage.display_name(&segment_file_name(active.index));
        if let Some(t) = &scan.recovered.truncated {
            tracing::warn!(
                file = %t.file,
                offset = t.offset,
                bytes_dropped = t.bytes_dropped,
                reason = %t.reason,
                "truncating torn tail of session log"
            );
            storage
                .truncate_segment(t.segment, t.offset)
                .map_err(|e| LogError::io(t.file.clone(), "truncating", e))?;
        }
        // Frames read back may still sit only in the page cache after a process crash.
        storage
            .sync(active.index)
            .map_err(|e| LogError::io(active_file, "syncing", e))?;
        let next_seq = scan.recovered.next_seq();
        let log = Self {
            storage,
            config,
            header: scan.recovered.header.for_segment(0, 0),
            segments: scan.segments,
            active_len: scan.active_len,
            next_seq,
            durable_seq: next_seq,
            batches_since_sync: 0,
            last_sync: Instant::now(),
            poisoned: None,
            index: scan.index,
            buf: Vec::new(),
        };
        Ok((log, scan.recovered))
    }

    /// Seq the next appended frame will get.
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }

    /// Every frame with a seq below this is durable (synced).
    pub fn durable_seq(&self) -> u64 {
        self.durable_seq
    }

    /// Header of segment 0.
    pub fn header(&self) -> &SegmentHeader {
        &self.header
    }

    /// The config in force.
    pub fn config(&self) -> &LogConfig {
        &self.config
    }

    /// Changes the config (e.g. the fsync policy) from the next batch on.
    pub fn set_config(&mut self, config: LogConfig) {
        self.config = config;
    }

    /// Whether an earlier failure stopped the log.
    pub fn is_poisoned(&self) -> bool {
        self.poisoned.is_some()
    }

    /// Number of segments (sealed + active).
    pub fn segment_count(&self) -> usize {
        self.segments.len()
    }

    /// The storage, read-only (e.g. for [`latest_snapshot`](super::latest_snapshot)).
    pub fn storage(&self) -> &dyn Storage {
        self.storage.as_ref()
    }

    fn active(&self) -> Result<SegmentInfo> {
        self.segments
            .last()
            .copied()
            .ok_or_else(|| LogError::Empty {
                location: self.storage.location(),
            })
    }

    fn check_poisoned(&self) -> Result<()> {
        match &self.poisoned {
            Some(cause) => Err(LogError::Poisoned {
                cause: cause.clone(),
            }),
            None => Ok(()),
        }
    }

    /// Records the first failure and returns the error unchanged.
    fn poison(&mut self, error: LogError) -> LogError {
        if self.poisoned.is_none() {
            tracing::error!(error = %error, "session log poisoned");
            self.poisoned = Some(error.to_string());
        }
        error
    }

    /// Appends `payloads` as consecutive frames in one write (group commit) and syncs per the
    /// policy. Returns the seq of the last frame. Errors without poisoning for an empty batch or
    /// an oversize payload; any storage failure poisons the log.
    pub fn append_batch(&mut self, payloads: &[Vec<u8>]) -> Result<u64> {
        self.check_poisoned()?;
        let count = u64::try_from(payloads.len()).map_err(|_| LogError::Overflow)?;
        let Some(last_offset) = count.checked_sub(1) else {
            return Err(LogError::EmptyBatch);
        };
        if let Some((index, p)) = payloads
            .iter()
            .enumerate()
            .find(|(_, p)| p.len() > MAX_PAYLOAD_LEN as usize)
        {
            return Err(LogError::PayloadTooLarge {
                index,
                len: p.len(),
                max: MAX_PAYLOAD_LEN,
            });
        }
        let first_seq = self.next_seq;
        let last_seq = first_seq
            .checked_add(last_offset)
            .filter(|last| *last < u64::MAX)
            .ok_or(LogError::Overflow)?;

        let active = self.active()?;
        if self.active_len >= self.config.max_segment_bytes && self.next_seq > active.first_seq {
            self.rotate()?;
        }
        let active = self.active()?;

        self.buf.clear();
        for (seq, payload) in (first_seq..).zip(payloads) {
            encode_frame(&mut self.buf, seq, payload).map_err(|_| LogError::PayloadTooLarge {
                index: (seq - first_seq) as usize,
                len: payload.len(),
                max: MAX_PAYLOAD_LEN,
            })?;
        }
        if let Err(e) = self.storage.append(active.index, &self.buf) {
            let file = self.storage.display_name(&segment_file_name(active.index));
            return Err(self.poison(LogError::io(file, "appending to", e)));
        }

        let mut offset = self.active_len;
        for (seq, payload) in (first_seq..).zip(payloads) {
            self.index.note_frame(seq, active.index, offset);
            offset += encoded_len(payload.len()) as u64;
        }
        self.active_len = offset;
        self.next_seq = last_seq + 1;
        self.batches_since_sync = self.batches_since_sync.saturating_add(1);
        if self.buf.capacity() > KEEP_BUFFER_BYTES {
            self.buf = Vec::new();
        }

        if self.sync_due() {
            self.sync_now()?;
        }
        Ok(last_seq)
    }

    fn sync_due(&self) -> bool {
        match self.config.fsync {
            FsyncPolicy::Always => true,
            FsyncPolicy::Interval(period) => self.last_sync.elapsed() >= period,
            FsyncPolicy::EveryN(n) => self.batches_since_sync >= n.max(1),
            FsyncPolicy::Never => false,
        }
    }

    fn sync_now(&mut self) -> Result<()> {
        let active = self.active()?;
        if let Err(e) = self.storage.sync(active.index) {
            let file = self.storage.display_name(&segment_file_name(active.index));
            return Err(self.poison(LogError::io(file, "syncing", e)));
        }
        self.durable_seq = self.next_seq;
        self.batches_since_sync = 0;
        self.last_sync = Instant::now();
        Ok(())
    }

    /// Whether appended frames wait for a timer to make them durable: under
    /// [`FsyncPolicy::Interval`], while some are not yet synced (the session task then ticks
    /// [`Self::sync_if_due`]; under the other policies a timer changes nothing).
    pub fn awaits_timed_sync(&self) -> bool {
        matches!(self.config.fsync, FsyncPolicy::Interval(_)) && self.durable_seq < self.next_seq
    }

    /// Syncs if frames are pending and the policy says it is time (for a periodic timer under
    /// [`FsyncPolicy::Interval`] or [`FsyncPolicy::EveryN`]). Returns whether it synced.
    pub fn sync_if_due(&mut self) -> Result<bool> {
        self.check_poisoned()?;
        if self.durable_seq < self.next_seq && self.sync_due() {
            self.sync_now()?;
            return Ok(true);
        }
        Ok(false)
    }

    /// Makes every appended frame durable (for shutdown, or before acknowledging under a lazy
    /// policy). A no-op when nothing is pending.
    pub fn flush_sync(&mut self) -> Result<()> {
        self.check_poisoned()?;
        if self.durable_seq < self.next_seq {
            self.sync_now()?;
        }
        Ok(())
    }

    /// Seals the active segment (syncing it) and starts the next one.
    fn rotate(&mut self) -> Result<()> {
        self.flush_sync()?;
        let sealed = self.active()?;
        let index = sealed.index.checked_add(1).ok_or(LogError::Overflow)?;
        let header = self.header.for_segment(index, self.next_seq);
        let file = self.storage.display_name(&segment_file_name(index));
        let bytes = header.encode().map_err(|source| LogError::Header {
            file: file.clone(),
            source,
        })?;
        if let Err(e) = self.storage.create_segment(index, &bytes) {
            return Err(self.poison(LogError::io(file, "creating", e)));
        }
        let header_len = bytes.len() as u64;
        tracing::debug!(
            segment = index,
            first_seq = self.next_seq,
            "rotated session log"
        );
        self.segments.push(SegmentInfo {
            index,
            first_seq: self.next_seq,
            header_len,
        });
        self.index
            .note_segment_start(index, self.next_seq, header_len);
        self.active_len = header_len;
        Ok(())
    }

    /// Every frame from `seq` to the end of the log, read back from storage (to catch up a
    /// lagging or resuming subscriber). Empty when `seq == next_seq()`.
    pub fn read_frames_from(&self, seq: u64) -> Result<Vec<(u64, Vec<u8>)>> {
        self.read_frames(seq, usize::MAX)
    }

    /// At most `max_frames` frames from `seq` on, read back from storage.
    pub fn read_frames(&self, from: u64, max_frames: usize) -> Result<Vec<(u64, Vec<u8>)>> {
        if from > self.next_seq {
            return Err(LogError::SeqBeyondEnd {
                requested: from,
                next: self.next_seq,
            });
        }
        let mut out = Vec::new();
        if from == self.next_seq || max_frames == 0 {
            return Ok(out);
        }
        let start = match self.index.locate(from) {
            Some(entry) => entry,
            None => {
                let first = self.segments.first().copied().ok_or(LogError::Empty {
                    location: self.storage.location(),
                })?;
                IndexEntry {
                    seq: first.first_seq,
                    segment: first.index,
                    offset: first.header_len,
                }
            }
        };
        let end_seq = self.next_seq;
        let (mut segment, mut offset, mut expected) = (start.segment, start.offset, start.seq);
        let mut chunk = READ_CHUNK;
        loop {
            let file = || self.storage.display_name(&segment_file_name(segment));
            let buf = self
                .storage
                .read_segment_range(segment, offset, chunk)
                .map_err(|e| LogError::io(file(), "reading", e))?;
            let at_eof = buf.len() < chunk;
            let scan = scan_frames(&buf, 0, expected, |seq, payload, _| {
                if seq >= from {
                    out.push((seq, payload.to_vec()));
                }
                if seq.saturating_add(1) >= end_seq || out.len() >= max_frames {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            offset += scan.end as u64;
            expected = scan.next_seq;
            if expected >= end_seq || out.len() >= max_frames {
                return Ok(out);
            }
            match scan.corruption {
                None if !at_eof => {}
                None => {
                    let next = segment.checked_add(1).ok_or(LogError::Overflow)?;
                    let Some(info) = self.segments.get(next as usize) else {
                        return Err(LogError::Corrupt {
                            file: file(),
                            offset,
                            reason: FrameError::Truncated {
                                needed: encoded_len(0) as u64,
                                available: 0,
                            },
                        });
                    };
                    (segment, offset) = (info.index, info.header_len);
                }
                Some(FrameError::Truncated { needed, .. }) if !at_eof => {
                    chunk = chunk.max(usize::try_from(needed).unwrap_or(usize::MAX));
                }
                Some(reason) => {
                    return Err(LogError::Corrupt {
                        file: file(),
                        offset,
                        reason,
                    });
                }
            }
        }
    }

    /// Writes a snapshot of the state covering every frame with seq < `seq` (normally
    /// `next_seq()`), after making those frames durable, and prunes old snapshots (see
    /// [`snapshot`]). A failure here does not poison the log.
    pub fn write_snapshot(&mut self, seq: u64, bytes: &[u8]) -> Result<()> {
        if seq > self.next_seq {
            return Err(LogError::SnapshotAhead {
                seq,
                next: self.next_seq,
            });
        }
        if self.durable_seq < seq {
            self.flush_sync()?;
        }
        snapshot::write_snapshot(self.storage.as_mut(), seq, bytes)
    }

    /// The newest valid snapshot the log can continue from (seq ≤ `next_seq()`); snapshots
    /// ahead of a truncated log are skipped.
    pub fn latest_snapshot(&self) -> Result<Option<(u64, Vec<u8>)>> {
        snapshot::latest_snapshot_at_most(self.storage.as_ref(), self.next_seq)
    }
}

#[cfg(test)]
mod tests {
    use super::super::header::sample_header;
    use super::super::recovery::read_log;
    use super::super::storage::{FsStorage, MemStorage};
    use super::*;

    type TestResult = Result<(), Box<dyn std::error::Error>>;

    fn payload(i: u64) -> Vec<u8> {
        let len = (i * 37 % 200) as usize;
        (0..len).map(|b| (b as u64 ^ i) as u8).collect()
    }

    fn config(fsync: FsyncPolicy, max_segment_bytes: u64) -> LogConfig {
        LogConfig {
            fsync,
            max_segment_bytes,
        }
    }

    #[test]
    fn append_and_reopen_on_fs() -> TestResult {
        let dir = tempfile::tempdir()?;
        let mut log = SessionLog::create(FsStorage::open(dir.path())?, sample_header())?;
        assert_eq!(log.append_batch(&[payload(0), payload(1), payload(2)])?, 2);
        assert_eq!(log.append_batch(&[payload(3)])?, 3);
        assert_eq!((log.next_seq(), log.durable_seq()), (4, 4));
        assert!(matches!(
            SessionLog::create(FsStorage::open(dir.path())?, sample_header()),
            Err(LogError::AlreadyExists { .. })
        ));
        drop(log);

        let (mut log, recovered) = SessionLog::open(FsStorage::open(dir.path())?)?;
        assert_eq!(recovered.header, sample_header());
        assert_eq!(recovered.truncated, None);
        let expected: Vec<_> = (0..4).map(|i| (i, payload(i))).collect();
        assert_eq!(recovered.frames, expected);
        assert_eq!(log.append_batch(&[payload(4)])?, 4);
        assert_eq!(
            log.read_frames_from(2)?,
            (2..5).map(|i| (i, payload(i))).collect::<Vec<_>>()
        );
        drop(log);
        let (_, recovered) = SessionLog::open(FsStorage::open(dir.path())?)?;
        assert_eq!(recovered.frames.len(), 5);
        Ok(())
    }

    #[test]
    fn empty_log_round_trip_and_empty_batch() -> TestResult {
        let mem = MemStorage::new();
        let mut log = SessionLog::create(mem.clone(), sample_header())?;
        assert!(matches!(log.append_batch(&[]), Err(LogError::EmptyBatch)));
        assert!(matches!(
            log.append_batch(&[vec![0; MAX_PAYLOAD_LEN as usize + 1]]),
            Err(LogError::PayloadTooLarge { index: 0, .. })
        ));
        assert!(!log.is_poisoned());
        assert_eq!(log.read_frames_from(0)?, vec![]);
        assert!(matches!(
            log.read_frames_from(1),
            Err(LogError::SeqBeyondEnd { .. })
        ));
        let (log, recovered) = SessionLog::open(mem)?;
        assert_eq!((log.next_seq(), recovered.frames.len()), (0, 0));
        Ok(())
    }

    #[test]
    fn rotation_keeps_seqs_gapless() -> TestResult {
        let mem = MemStorage::new();
        let mut log = SessionLog::create_with(
            mem.clone(),
            sample_header(),
            config(FsyncPolicy::Always, 600),
        )?;
        let mut seq = 0;
        for batch in 0..40u64 {
            let payloads: Vec<_> = (seq..seq + batch % 4 + 1).map(payload).collect();
            seq += payloads.len() as u64;
            assert_eq!(log.append_batch(&payloads)?, seq - 1);
        }
        assert!(log.segment_count() > 5, "{} segments", log.segment_count());
        let all: Vec<_> = (0..seq).map(|i| (i, payload(i))).collect();
        assert_eq!(log.read_frames_from(0)?, all);
        for from in [1, 17, seq / 2, seq - 1] {
            assert_eq!(log.read_frames_from(from)?, all[from as usize..].to_vec());
        }
        assert_eq!(log.read_frames(5, 3)?, all[5..8].to_vec());

        let mut first_seq = 0;
        for index in mem.list_segments()? {
            let bytes = mem.segment_bytes(index).unwrap_or_default();
            let (header, _) = SegmentHeader::decode(&bytes)?;
            assert_eq!(header.segment_index, index);
            assert!(header.first_seq >= first_seq);
            first_seq = header.first_seq;
        }
        drop(log);
        let (mut log, recovered) = SessionLog::open(mem.clone())?;
        assert_eq!(recovered.frames, all);
        assert_eq!(log.append_batch(&[payload(seq)])?, seq);
        assert_eq!(read_log(&mem)?.frames.len() as u64, seq + 1);
        Ok(())
    }

    #[test]
    fn catch_up_reads_large_frames_across_chunks() -> TestResult {
        let big = |i: u64| vec![i as u8; 700 * 1024 + i as usize];
        let mem = MemStorage::new();
        let mut log = SessionLog::create_with(
            mem.clone(),
            sample_header(),
            config(FsyncPolicy::Never, 3 * 1024 * 1024),
        )?;
        for i in 0..10 {
            log.append_batch(&[big(i), payload(i)])?;
        }
        assert!(log.segment_count() >= 2);
        let all: Vec<_> = (0..20u64)
            .map(|s| {
                (
                    s,
                    if s % 2 == 0 {
                        big(s / 2)
                    } else {
                        payload(s / 2)
                    },
                )
            })
            .collect();
        for from in [0, 1, 7, 12, 19, 20] {
            assert_eq!(log.read_frames_from(from)?, all[from as usize..].to_vec());
        }
        assert_eq!(log.read_frames(3, 2)?, all[3..5].to_vec());
        Ok(())
    }

    #[test]
    fn sealed_segments_are_not_modified() -> TestResult {
        let mem = MemStorage::new();
        let mut log =
            SessionLog::create_with(mem.clone(), sample_header(), config(FsyncPolicy::Never, 1))?;
        log.append_batch(&[payload(0)])?;
        log.append_batch(&[payload(1)])?;
        let sealed = mem.segment_bytes(0);
        log.append_batch(&[payload(2)])?;
        log.append_batch(&[payload(3)])?;
        assert_eq!(mem.segment_bytes(0), sealed);
        // Sealing synced segment 0 even under `Never`: a crash keeps it whole.
        mem.crash();
        assert_eq!(mem.segment_bytes(0), sealed);
        let (_, recovered) = SessionLog::open(mem)?;
        assert_eq!(recovered.frames.len(), 3);
        Ok(())
    }

    #[test]
    fn failed_write_poisons() -> TestResult {
        let mem = MemStorage::new();
        let mut log = SessionLog::create(mem.clone(), sample_header())?;
        log.append_batch(&[payload(0)])?;
        mem.fail_next_write();
        assert!(matches!(
            log.append_batch(&[payload(1)]),
            Err(LogError::Io { .. })
        ));
        assert!(log.is_poisoned());
        let err = log.append_batch(&[payload(1)]);
        assert!(matches!(err, Err(LogError::Poisoned { .. })), "{err:?}");
        assert!(matches!(log.flush_sync(), Err(LogError::Poisoned { .. })));
        assert_eq!(log.next_seq(), 1);
        assert_eq!(log.read_frames_from(0)?.len(), 1);
        let (mut log, recovered) = SessionLog::open(mem)?;
        assert_eq!(recovered.frames.len(), 1);
        assert_eq!(log.append_batch(&[payload(1)])?, 1);
        Ok(())
    }

    #[test]
    fn failed_sync_poisons() -> TestResult {
        let mem = MemStorage::new();
        let mut log = SessionLog::create(mem.clone(), sample_header())?;
        mem.fail_next_sync();
        assert!(matches!(
            log.append_batch(&[payload(0)]),
            Err(LogError::Io { op: "syncing", .. })
        ));
        assert_eq!(log.durable_seq(), 0);
        assert!(matches!(
            log.append_batch(&[payload(1)]),
            Err(LogError::Poisoned { .. })
        ));
        Ok(())
    }

    #[test]
    fn short_write_poisons_and_reads_stay_consistent() -> TestResult {
        let mem = MemStorage::new();
        let mut log = SessionLog::create(mem.clone(), sample_header())?;
        log.append_batch(&[payload(0), payload(1)])?;
        mem.short_next_write(20);
        assert!(log.append_batch(&[payload(2), payload(3)]).is_err());
        assert_eq!(log.read_frames_from(1)?, vec![(1, payload(1))]);
        Ok(())
    }

    fn syncs_for(policy: FsyncPolicy, batches: u64) -> Result<(u64, SessionLog), LogError> {
        let mem = MemStorage::new();
        let mut log =
            SessionLog::create_with(mem.clone(), sample_header(), config(policy, u64::MAX))?;
        for i in 0..batches {
            log.append_batch(&[payload(i)])?;
        }
        Ok((mem.sync_count(), log))
    }

    #[test]
    fn fsync_policies() -> TestResult {
        let (always, log) = syncs_for(FsyncPolicy::Always, 7)?;
        assert_eq!((always, log.durable_seq()), (7, 7));

        let (every3, mut log) = syncs_for(FsyncPolicy::EveryN(3), 7)?;
        assert_eq!((every3, log.durable_seq()), (2, 6));
        log.flush_sync()?;
        assert_eq!(log.durable_seq(), 7);

        let (never, mut log) = syncs_for(FsyncPolicy::Never, 7)?;
        assert_eq!((never, log.durable_seq()), (0, 0));
        assert!(!log.sync_if_due()?);
        log.flush_sync()?;
        assert_eq!(log.durable_seq(), 7);

        let (zero_interval, _) = syncs_for(FsyncPolicy::Interval(Duration::ZERO), 5)?;
        assert_eq!(zero_interval, 5);
        let (long_interval, log) = syncs_for(FsyncPolicy::Interval(Duration::from_secs(3600)), 5)?;
        assert_eq!((long_interval, log.durable_seq()), (0, 0));
        Ok(())
    }

    #[test]
    fn unsynced_batches_are_lost_in_a_crash_synced_ones_are_not() -> TestResult {
        let mem = MemStorage::new();
        let mut log = SessionLog::create_with(
            mem.clone(),
            sample_header(),
            config(FsyncPolicy::EveryN(2), u64::MAX),
        )?;
        for i in 0..5 {
            log.append_batch(&[payload(i)])?;
        }
        assert_eq!(log.durable_seq(), 4);
        drop(log);
        mem.crash();
        let (_, recovered) = SessionLog::open(mem)?;
        assert_eq!(recovered.frames.len(), 4);
        assert_eq!(recovered.truncated, None);
        Ok(())
    }

    #[test]
    fn snapshots_through_the_log() -> TestResult {
        let mem = MemStorage::new();
        let mut log = SessionLog::create_with(
            mem.clone(),
            sample_header(),
            config(FsyncPolicy::Never, u64::MAX),
        )?;
        log.append_batch(&[payload(0), payload(1)])?;
        assert!(matches!(
            log.write_snapshot(3, b"x"),
            Err(LogError::SnapshotAhead { .. })
        ));
        log.write_snapshot(2, b"state@2")?;
        assert_eq!(log.durable_seq(), 2, "snapshot forces its frames durable");
        assert_eq!(log.latest_snapshot()?, Some((2, b"state@2".to_vec())));
        Ok(())
    }
}
