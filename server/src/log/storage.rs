//! Where a log's bytes live: the [`Storage`] trait and its two implementations.
//!
//! A storage is one directory-like namespace holding:
//! - segment files, addressed by index `u32` and named `seg-<index:06>.log`
//!   ([`segment_file_name`]), e.g. `seg-000000.log`; and
//! - other whole files (snapshots), addressed by name and only ever replaced atomically.
//!
//! [`FsStorage`] is a real directory. [`MemStorage`] keeps everything in memory behind a
//! cloneable handle and injects faults (failed writes, short writes, bit flips, failed syncs,
//! crashes that drop unsynced bytes) for tests.
//!
//! Architecture invariant: storages move bytes; they know nothing of frames or headers. A
//! distributed backend only has to implement [`Storage`].

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// File-name prefix of segment files.
pub const SEGMENT_PREFIX: &str = "seg-";
/// File-name suffix of segment files.
pub const SEGMENT_SUFFIX: &str = ".log";
/// Suffix of temporary files written before an atomic rename.
pub const TEMP_SUFFIX: &str = ".tmp";

/// Name of segment `index`: `seg-000000.log`, `seg-000001.log`, …
pub fn segment_file_name(index: u32) -> String {
    format!("{SEGMENT_PREFIX}{index:06}{SEGMENT_SUFFIX}")
}

/// The segment index a file name denotes, if it is a segment file name.
pub fn parse_segment_file_name(name: &str) -> Option<u32> {
    let digits = name
        .strip_prefix(SEGMENT_PREFIX)?
        .strip_suffix(SEGMENT_SUFFIX)?;
    if digits.len() < 6 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Byte storage of one log. Object-safe; every method maps to one durable-storage operation.
pub trait Storage: Send {
    /// Where the storage is, for messages (a directory path, `memory:`).
    fn location(&self) -> String;

    /// A file of this storage, for messages (a full path, `memory:/seg-000000.log`).
    fn display_name(&self, file: &str) -> String;

    /// Indices of the segments present, ascending.
    fn list_segments(&self) -> io::Result<Vec<u32>>;

    /// Creates segment `index` holding `initial` (its header), atomically and durably: after
    /// success the file exists with exactly these bytes, synced; after failure it does not exist.
    /// Fails with `AlreadyExists` if it exists.
    fn create_segment(&mut self, index: u32, initial: &[u8]) -> io::Result<()>;

    /// Appends `bytes` at the end of segment `index` (one write; not synced).
    fn append(&mut self, index: u32, bytes: &[u8]) -> io::Result<()>;

    /// Makes the appended data of segment `index` durable (fdatasync).
    fn sync(&mut self, index: u32) -> io::Result<()>;

    /// The whole content of segment `index`.
    fn read_segment(&self, index: u32) -> io::Result<Vec<u8>>;

    /// Up to `max_len` bytes of segment `index` from `offset`; fewer only at the end of the file.
    fn read_segment_range(&self, index: u32, offset: u64, max_len: usize) -> io::Result<Vec<u8>>;

    /// Cuts segment `index` to `len` bytes, durably.
    fn truncate_segment(&mut self, index: u32, len: u64) -> io::Result<()>;

    /// Removes segment `index`.
    fn remove_segment(&mut self, index: u32) -> io::Result<()>;

    /// Names of the non-segment files (snapshots), any order.
    fn list_files(&self) -> io::Result<Vec<String>>;

    /// The content of file `name`.
    fn read_file(&self, name: &str) -> io::Result<Vec<u8>>;

    /// Replaces file `name` with `bytes` atomically and durably (temp file, fsync, rename, fsync
    /// directory): readers see the old content or the new, never a mix.
    fn write_file_atomic(&mut self, name: &str, bytes: &[u8]) -> io::Result<()>;

    /// Removes file `name`.
    fn remove_file(&mut self, name: &str) -> io::Result<()>;
}

impl<S: Storage + ?Sized> Storage for Box<S> {
    fn location(&self) -> String {
        (**self).location()
    }
    fn display_name(&self, file: &str) -> String {
        (**self).display_name(file)
    }
    fn list_segments(&self) -> io::Result<Vec<u32>> {
        (**self).list_segments()
    }
    fn create_segment(&mut self, index: u32, initial: &[u8]) -> io::Result<()> {
        (**self).create_segment(index, initial)
    }
    fn append(&mut self, index: u32, bytes: &[u8]) -> io::Result<()> {
        (**self).append(index, bytes)
    }
    fn sync(&mut self, index: u32) -> io::Result<()> {
        (**self).sync(index)
    }
    fn read_segment(&self, index: u32) -> io::Result<Vec<u8>> {
        (**self).read_segment(index)
    }
    fn read_segment_range(&self, index: u32, offset: u64, max_len: usize) -> io::Result<Vec<u8>> {
        (**self).read_segment_range(index, offset, max_len)
    }
    fn truncate_segment(&mut self, index: u32, len: u64) -> io::Result<()> {
        (**self).truncate_segment(index, len)
    }
    fn remove_segment(&mut self, index: u32) -> io::Result<()> {
        (**self).remove_segment(index)
    }
    fn list_files(&self) -> io::Result<Vec<String>> {
        (**self).list_files()
    }
    fn read_file(&self, name: &str) -> io::Result<Vec<u8>> {
        (**self).read_file(name)
    }
    fn write_file_atomic(&mut self, name: &str, bytes: &[u8]) -> io::Result<()> {
        (**self).write_file_atomic(name, bytes)
    }
    fn remove_file(&mut self, name: &str) -> io::Result<()> {
        (**self).remove_file(name)
    }
}

fn check_file_name(name: &str) -> io::Result<()> {
    let bad = name.is_empty()
        || name == "."
        || name == ".."
        || name.contains(['/', '\\', '\0'])
        || name.ends_with(TEMP_SUFFIX)
        || parse_segment_file_name(name).is_some();
    if bad {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("invalid storage file name {name:?}"),
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// FsStorage

/// A log directory on the local file system.
#[derive(Debug)]
pub struct FsStorage {
    dir: PathBuf,
    read_only: bool,
    /// Open append handle of the segment last appended to.
    active: Option<(u32, File)>,
}

fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

impl FsStorage {
    /// Opens (creating it if missing) a log directory for reading and writing, and removes
    /// temporary files left by an interrupted atomic write.
    pub fn open(dir: impl Into<PathBuf>) -> io::Result<Self> {
        let dir = dir.into();
        fs::create_dir_all(&dir)?;
        for entry in fs::read_dir(&dir)? {
            let entry = entry?;
            if entry.file_name().to_string_lossy().ends_with(TEMP_SUFFIX)
                && entry.file_type()?.is_file()
            {
                fs::remove_file(entry.path())?;
            }
        }
        Ok(Self {
            dir,
            read_only: false,
            active: None,
        })
    }

    /// Opens an existing log directory read-only: no file is created, changed or removed;
    /// mutating methods fail with `PermissionDenied`.
    pub fn read_only(dir: impl Into<PathBuf>) -> io::Result<Self> {
        let dir = dir.into();
        if !fs::metadata(&dir)?.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("{} is not a directory", dir.display()),
            ));
        }
        Ok(Self {
            dir,
            read_only: true,
            active: None,
        })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn segment_path(&self, index: u32) -> PathBuf {
        self.path(&segment_file_name(index))
    }

    fn writable(&self) -> io::Result<()> {
        if self.read_only {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!("{} was opened read-only", self.dir.display()),
            ));
        }
        Ok(())
    }

    /// Writes `bytes` to `name.tmp`, syncs it, renames it to `name` and syncs the directory.
    fn write_atomic(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        let target = self.path(name);
        let temp = self.path(&format!("{name}{TEMP_SUFFIX}"));
        let result = (|| {
            let mut file = OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(&temp)?;
            file.write_all(bytes)?;
            file.sync_all()?;
            fs::rename(&temp, &target)?;
            sync_dir(&self.dir)
        })();
        if result.is_err() {
            let _ = fs::remove_file(&temp);
        }
        result
    }

    fn append_handle(&mut self, index: u32) -> io::Result<&mut File> {
        if self.active.as_ref().is_none_or(|(i, _)| *i != index) {
            let file = OpenOptions::new()
                .append(true)
                .open(self.segment_path(index))?;
            self.active = Some((index, file));
        }
        match &mut self.active {
            Some((_, file)) => Ok(file),
            None => Err(io::Error::other("no open segment")),
        }
    }

    fn drop_handle(&mut self, index: u32) {
        if self.active.as_ref().is_some_and(|(i, _)| *i == index) {
            self.active = None;
        }
    }
}

impl Storage for FsStorage {
    fn location(&self) -> String {
        self.dir.display().to_string()
    }

    fn display_name(&self, file: &str) -> String {
        self.path(file).display().to_string()
    }

    fn list_segments(&self) -> io::Result<Vec<u32>> {
        let mut out = Vec::new();
        for entry in fs::read_dir(&self.dir)? {
            let entry = entry?;
            if let Some(index) = entry.file_name().to_str().and_then(parse_segment_file_name)
                && entry.file_type()?.is_file()
            {
                out.push(index);
            }
        }
        out.sort_unstable();
        Ok(out)
    }

    fn create_segment(&mut self, index: u32, initial: &[u8]) -> io::Result<()> {
        self.writable()?;
        let path = self.segment_path(index);
        if fs::exists(&path)? {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{} already exists", path.display()),
            ));
        }
        self.write_atomic(&segment_file_name(index), initial)?;
        self.append_handle(index)?;
        Ok(())
    }

    fn append(&mut self, index: u32, bytes: &[u8]) -> io::Result<()> {
        self.writable()?;
        self.append_handle(index)?.write_all(bytes)
    }

    fn sync(&mut self, index: u32) -> io::Result<()> {
        self.writable()?;
        self.append_handle(index)?.sync_data()
    }

    fn read_segment(&self, index: u32) -> io::Result<Vec<u8>> {
        fs::read(self.segment_path(index))
    }

    fn read_segment_range(&self, index: u32, offset: u64, max_len: usize) -> io::Result<Vec<u8>> {
        let mut file = File::open(self.segment_path(index))?;
        file.seek(SeekFrom::Start(offset))?;
        let mut out = Vec::new();
        file.take(max_len as u64).read_to_end(&mut out)?;
        Ok(out)
    }

    fn truncate_segment(&mut self, index: u32, len: u64) -> io::Result<()> {
        self.writable()?;
        let file = OpenOptions::new()
            .write(true)
            .open(self.segment_path(index))?;
        file.set_len(len)?;
        file.sync_all()
    }

    fn remove_segment(&mut self, index: u32) -> io::Result<()> {
        self.writable()?;
        self.drop_handle(index);
        fs::remove_file(self.segment_path(index))?;
        sync_dir(&self.dir)
    }

    fn list_files(&self) -> io::Result<Vec<String>> {
        let mut out = Vec::new();
        for entry in fs::read_dir(&self.dir)? {
            let entry = entry?;
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            if check_file_name(&name).is_ok() && entry.file_type()?.is_file() {
                out.push(name);
            }
        }
        Ok(out)
    }

    fn read_file(&self, name: &str) -> io::Result<Vec<u8>> {
        check_file_name(name)?;
        fs::read(self.path(name))
    }

    fn write_file_atomic(&mut self, name: &str, bytes: &[u8]) -> io::Result<()> {
        self.writable()?;
        check_file_name(name)?;
        self.write_atomic(name, bytes)
    }

    fn remove_file(&mut self, name: &str) -> io::Result<()> {
        self.writable()?;
        check_file_name(name)?;
        fs::remove_file(self.path(name))?;
        sync_dir(&self.dir)
    }
}

// ---------------------------------------------------------------------------------------------
// MemStorage

/// An in-memory storage for tests. Clones share the same state, so a test keeps one handle to
/// inject faults and inspect bytes while the log owns another.
///
/// Durability is modelled: each segment remembers how many bytes were synced, and
/// [`MemStorage::crash`] drops everything after that, as a power loss would.
#[derive(Debug, Clone, Default)]
pub struct MemStorage {
    inner: Arc<Mutex<MemState>>,
    gate: Arc<SyncGate>,
}

/// Holds `sync` calls back while a test says so ([`MemStorage::hold_syncs`]): a slow disk.
#[derive(Debug, Default)]
struct SyncGate {
    state: Mutex<GateState>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct GateState {
    held: bool,
    /// `sync` calls waiting at the gate now.
    waiting: u64,
}

impl SyncGate {
    fn state(&self) -> MutexGuard<'_, GateState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits while the gate is held.
    fn pass(&self) {
        let mut state = self.state();
        if !state.held {
            return;
        }
        state.waiting += 1;
        self.changed.notify_all();
        while state.held {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.waiting -= 1;
    }
}

#[derive(Debug, Default)]
struct MemSegment {
    data: Vec<u8>,
    synced: usize,
}

#[derive(Debug, Default)]
struct MemState {
    segments: BTreeMap<u32, MemSegment>,
    files: BTreeMap<String, Vec<u8>>,
    fail_next_write: bool,
    short_next_write: Option<usize>,
    fail_next_sync: bool,
    syncs: u64,
    writes: u64,
}

fn not_found(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, format!("{what} does not exist"))
}

impl MemState {
    /// Applies a pending write fault to a write of `len` bytes: `Ok(len)` to write it all,
    /// `Err((k, error))` to write only the first `k` bytes and then fail.
    fn write_fault(&mut self, len: usize) -> Result<usize, (usize, io::Error)> {
        self.writes += 1;
        if std::mem::take(&mut self.fail_next_write) {
            return Err((0, io::Error::other("injected write failure")));
        }
        if let Some(k) = self.short_next_write.take() {
            return Err((
                k.min(len),
                io::Error::new(io::ErrorKind::WriteZero, "injected short write"),
            ));
        }
        Ok(len)
    }

    fn segment(&mut self, index: u32) -> io::Result<&mut MemSegment> {
        self.segments
            .get_mut(&index)
            .ok_or_else(|| not_found(segment_file_name(index)))
    }
}

impl MemStorage {
    /// An empty storage.
    pub fn new() -> Self {
        Self::default()
    }

    fn state(&self) -> MutexGuard<'_, MemState> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes the next write (append, segment creation or atomic file write) fail having
    /// written nothing.
    pub fn fail_next_write(&self) {
        self.state().fail_next_write = true;
    }

    /// Makes the next write store only its first `k` bytes and then fail. (Segment creation and
    /// atomic file writes are atomic: they store nothing.)
    pub fn short_next_write(&self, k: usize) {
        self.state().short_next_write = Some(k);
    }

    /// Makes the next `sync` fail.
    pub fn fail_next_sync(&self) {
        self.state().fail_next_sync = true;
    }

    /// Makes every `sync` wait, before it does anything, until [`MemStorage::release_syncs`]: a
    /// disk whose fsync takes as long as the test wants.
    pub fn hold_syncs(&self) {
        self.gate.state().held = true;
    }

    /// Lets the held `sync` calls (and later ones) go on.
    pub fn release_syncs(&self) {
        self.gate.state().held = false;
        self.gate.changed.notify_all();
    }

    /// Waits until a `sync` is held at the gate, at most `timeout`; whether one is.
    pub fn wait_for_held_sync(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut state = self.gate.state();
        while state.waiting == 0 {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            state = match self.gate.changed.wait_timeout(state, left) {
                Ok((s, _)) => s,
                Err(e) => e.into_inner().0,
            };
        }
        true
    }

    /// Flips bit `bit` (0–7) of byte `offset` of segment `index`; false if out of range.
    pub fn flip_bit(&self, index: u32, offset: usize, bit: u8) -> bool {
        let mut state = self.state();
        match state
            .segments
            .get_mut(&index)
            .and_then(|s| s.data.get_mut(offset))
        {
            Some(byte) => {
                *byte ^= 1u8.wrapping_shl(u32::from(bit));
                true
            }
            None => false,
        }
    }

    /// Flips bit `bit` of byte `offset` of file `name`; false if out of range.
    pub fn flip_file_bit(&self, name: &str, offset: usize, bit: u8) -> bool {
        let mut state = self.state();
        match state.files.get_mut(name).and_then(|f| f.get_mut(offset)) {
            Some(byte) => {
                *byte ^= 1u8.wrapping_shl(u32::from(bit));
                true
            }
            None => false,
        }
    }

    /// A copy of segment `index`.
    pub fn segment_bytes(&self, index: u32) -> Option<Vec<u8>> {
        self.state().segments.get(&index).map(|s| s.data.clone())
    }

    /// Replaces segment `index` (creating it), all of it counted as synced.
    pub fn set_segment_bytes(&self, index: u32, bytes: Vec<u8>) {
        let synced = bytes.len();
        self.state().segments.insert(
            index,
            MemSegment {
                data: bytes,
                synced,
            },
        );
    }

    /// A copy of file `name`.
    pub fn file_bytes(&self, name: &str) -> Option<Vec<u8>> {
        self.state().files.get(name).cloned()
    }

    /// Replaces file `name` (creating it).
    pub fn set_file_bytes(&self, name: &str, bytes: Vec<u8>) {
        self.state().files.insert(name.to_owned(), bytes);
    }

    /// Successful and failed `sync` calls so far.
    pub fn sync_count(&self) -> u64 {
        self.state().syncs
    }

    /// Write calls so far (appends, segment creations, atomic file writes).
    pub fn write_count(&self) -> u64 {
        self.state().writes
    }

    /// Simulates a power loss: every segment loses the bytes appended since its last sync.
    pub fn crash(&self) {
        for segment in self.state().segments.values_mut() {
            segment.data.truncate(segment.synced);
        }
    }
}

impl Storage for MemStorage {
    fn location(&self) -> String {
        "memory:".to_owned()
    }

    fn display_name(&self, file: &str) -> String {
        format!("memory:/{file}")
    }

    fn list_segments(&self) -> io::Result<Vec<u32>> {
        Ok(self.state().segments.keys().copied().collect())
    }

    fn create_segment(&mut self, index: u32, initial: &[u8]) -> io::Result<()> {
        let mut state = self.state();
        if state.segments.contains_key(&index) {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{} already exists", segment_file_name(index)),
            ));
        }
        state.write_fault(initial.len()).map_err(|(_, e)| e)?;
        state.segments.insert(
            index,
            MemSegment {
                data: initial.to_vec(),
                synced: initial.len(),
            },
        );
        Ok(())
    }

    fn append(&mut self, index: u32, bytes: &[u8]) -> io::Result<()> {
        let mut state = self.state();
        state.segment(index)?;
        let (written, result) = match state.write_fault(bytes.len()) {
            Ok(n) => (n, Ok(())),
            Err((k, e)) => (k, Err(e)),
        };
        state
            .segment(index)?
            .data
            .extend_from_slice(bytes.get(..written).unwrap_or_default());
        result
    }

    fn sync(&mut self, index: u32) -> io::Result<()> {
        self.gate.pass();
        let mut state = self.state();
        state.syncs += 1;
        if std::mem::take(&mut state.fail_next_sync) {
            return Err(io::Error::other("injected sync failure"));
        }
        let segment = state.segment(index)?;
        segment.synced = segment.data.len();
        Ok(())
    }

    fn read_segment(&self, index: u32) -> io::Result<Vec<u8>> {
        self.segment_bytes(index)
            .ok_or_else(|| not_found(segment_file_name(index)))
    }

    fn read_segment_range(&self, index: u32, offset: u64, max_len: usize) -> io::Result<Vec<u8>> {
        let state = self.state();
        let data = &state
            .segments
            .get(&index)
            .ok_or_else(|| not_found(segment_file_name(index)))?
            .data;
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(data.len());
        let end = start.saturating_add(max_len).min(data.len());
        Ok(data.get(start..end).unwrap_or_default().to_vec())
    }

    fn truncate_segment(&mut self, index: u32, len: u64) -> io::Result<()> {
        let mut state = self.state();
        let segment = state.segment(index)?;
        // Only ever shrinks (the log never extends a segment this way).
        segment
            .data
            .truncate(usize::try_from(len).unwrap_or(usize::MAX));
        segment.synced = segment.data.len();
        Ok(())
    }

    fn remove_segment(&mut self, index: u32) -> io::Result<()> {
        self.state()
            .segments
            .remove(&index)
            .map(drop)
            .ok_or_else(|| not_found(segment_file_name(index)))
    }

    fn list_files(&self) -> io::Result<Vec<String>> {
        Ok(self.state().files.keys().cloned().collect())
    }

    fn read_file(&self, name: &str) -> io::Result<Vec<u8>> {
        self.file_bytes(name)
            .ok_or_else(|| not_found(name.to_owned()))
    }

    fn write_file_atomic(&mut self, name: &str, bytes: &[u8]) -> io::Result<()> {
        check_file_name(name)?;
        let mut state = self.state();
        state.write_fault(bytes.len()).map_err(|(_, e)| e)?;
        state.files.insert(name.to_owned(), bytes.to_vec());
        Ok(())
    }

    fn remove_file(&mut self, name: &str) -> io::Result<()> {
        self.state()
            .files
            .remove(name)
            .map(drop)
            .ok_or_else(|| not_found(name.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type TestResult = Result<(), Box<dyn std::error::Error>>;

    fn exercise(storage: &mut dyn Storage) -> TestResult {
        assert_eq!(storage.list_segments()?, Vec::<u32>::new());
        storage.create_segment(0, b"HEAD")?;
        assert_eq!(
            storage.create_segment(0, b"HEAD").map_err(|e| e.kind()),
            Err(io::ErrorKind::AlreadyExists)
        );
        storage.append(0, b"abc")?;
        storage.append(0, b"def")?;
        storage.sync(0)?;
        storage.create_segment(1, b"H1")?;
        storage.append(1, b"xyz")?;
        assert_eq!(storage.list_segments()?, vec![0, 1]);
        assert_eq!(storage.read_segment(0)?, b"HEADabcdef");
        assert_eq!(storage.read_segment_range(0, 4, 4)?, b"abcd");
        assert_eq!(storage.read_segment_range(0, 8, 100)?, b"ef");
        assert_eq!(storage.read_segment_range(0, 80, 100)?, b"");
        storage.truncate_segment(0, 5)?;
        assert_eq!(storage.read_segment(0)?, b"HEADa");
        storage.remove_segment(1)?;
        assert_eq!(storage.list_segments()?, vec![0]);

        storage.write_file_atomic("snap-1.bin", b"one")?;
        storage.write_file_atomic("snap-1.bin", b"uno")?;
        storage.write_file_atomic("other", b"two")?;
        let mut files = storage.list_files()?;
        files.sort();
        assert_eq!(files, vec!["other".to_owned(), "snap-1.bin".to_owned()]);
        assert_eq!(storage.read_file("snap-1.bin")?, b"uno");
        storage.remove_file("other")?;
        assert_eq!(storage.list_files()?, vec!["snap-1.bin".to_owned()]);
        assert!(storage.write_file_atomic("../escape", b"x").is_err());
        assert!(storage.write_file_atomic("seg-000003.log", b"x").is_err());
        Ok(())
    }

    #[test]
    fn fs_storage_operations() -> TestResult {
        let dir = tempfile::tempdir()?;
        let mut storage = FsStorage::open(dir.path().join("log"))?;
        exercise(&mut storage)?;
        assert!(dir.path().join("log/seg-000000.log").is_file());
        let read_only = FsStorage::read_only(dir.path().join("log"))?;
        assert_eq!(read_only.read_segment(0)?, b"HEADa");
        let mut read_only = read_only;
        assert_eq!(
            read_only.append(0, b"x").map_err(|e| e.kind()),
            Err(io::ErrorKind::PermissionDenied)
        );
        Ok(())
    }

    #[test]
    fn fs_storage_removes_stale_temp_files() -> TestResult {
        let dir = tempfile::tempdir()?;
        fs::write(dir.path().join("snap-x.bin.tmp"), b"half")?;
        let storage = FsStorage::open(dir.path())?;
        assert!(!dir.path().join("snap-x.bin.tmp").exists());
        assert_eq!(storage.list_files()?, Vec::<String>::new());
        Ok(())
    }

    #[test]
    fn mem_storage_operations() -> TestResult {
        exercise(&mut MemStorage::new())
    }

    #[test]
    fn mem_storage_faults() -> TestResult {
        let handle = MemStorage::new();
        let mut storage = handle.clone();
        storage.create_segment(0, b"H")?;
        handle.fail_next_write();
        assert!(storage.append(0, b"abc").is_err());
        handle.short_next_write(2);
        assert!(storage.append(0, b"abc").is_err());
        assert_eq!(handle.segment_bytes(0), Some(b"Hab".to_vec()));
        storage.append(0, b"cd")?;
        assert!(handle.flip_bit(0, 1, 0));
        assert_eq!(handle.segment_bytes(0), Some(b"H`bcd".to_vec()));
        assert!(!handle.flip_bit(0, 99, 0));
        handle.fail_next_sync();
        assert!(storage.sync(0).is_err());
        storage.sync(0)?;
        assert_eq!(handle.sync_count(), 2);
        storage.append(0, b"lost")?;
        handle.crash();
        assert_eq!(handle.segment_bytes(0), Some(b"H`bcd".to_vec()));
        handle.fail_next_write();
        assert!(storage.create_segment(1, b"H").is_err());
        assert_eq!(storage.list_segments()?, vec![0]);
        Ok(())
    }

    #[test]
    fn a_held_sync_waits_until_it_is_released() -> TestResult {
        let handle = MemStorage::new();
        let mut storage = handle.clone();
        storage.create_segment(0, b"H")?;
        storage.append(0, b"abc")?;
        handle.hold_syncs();
        assert!(!handle.wait_for_held_sync(Duration::from_millis(10)));
        let syncing = std::thread::spawn(move || storage.sync(0));
        assert!(handle.wait_for_held_sync(Duration::from_secs(10)));
        assert_eq!(handle.sync_count(), 0, "held before it does anything");
        handle.release_syncs();
        syncing.join().map_err(|_| "the sync panicked")??;
        assert_eq!(handle.sync_count(), 1);
        handle.crash();
        assert_eq!(handle.segment_bytes(0), Some(b"Habc".to_vec()));
        Ok(())
    }

    #[test]
    fn segment_names() {
        assert_eq!(segment_file_name(0), "seg-000000.log");
        assert_eq!(segment_file_name(1_234_567), "seg-1234567.log");
        assert_eq!(parse_segment_file_name("seg-000042.log"), Some(42));
        assert_eq!(parse_segment_file_name("seg-1234567.log"), Some(1_234_567));
        assert_eq!(parse_segment_file_name("seg-42.log"), None);
        assert_eq!(parse_segment_file_name("seg-000042.log.tmp"), None);
        assert_eq!(parse_segment_file_name("seg-00004x.log"), None);
    }
}
