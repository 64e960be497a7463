//! The durable side of a session, split from staging so that a group's write and fsync can run
//! off the session's task (`net::session_task`) while the next group is staged.
//!
//! [`Session::take_batch`](super::Session::take_batch) takes what is staged as a [`Batch`]: the
//! encoded records, and the snapshot due after them (encoded from the world as it is right
//! after the batch's last command). [`Batch::write`] appends the records as one group commit
//! (one write, one fsync under the default policy) and then writes the snapshot, on whatever
//! thread runs it. [`Session::commit`](super::Session::commit) is the two together, inline.
//!
//! The log is shared with the writer through a [`LogHandle`] (a mutex). Batches must be written
//! one at a time and in the order they were taken: the caller writes batch N+1 only after batch
//! N's `write` returned. The session reads the log (a resume, a rewind) only when no batch is
//! taken and not yet written: see [`Session::reads_the_log`](super::Session::reads_the_log).

use super::SessionError;
use crate::log::SessionLog;
use std::sync::{Arc, Mutex, MutexGuard};

/// A session's log, shared with the thread that writes a batch.
#[derive(Clone)]
pub struct LogHandle(Arc<Mutex<SessionLog>>);

impl LogHandle {
    pub(super) fn new(log: SessionLog) -> LogHandle {
        LogHandle(Arc::new(Mutex::new(log)))
    }

    /// The log. A writer that panicked left it in an unknown state: an error, and the session
    /// stops.
    pub(super) fn lock(&self) -> Result<MutexGuard<'_, SessionLog>, SessionError> {
        self.0
            .lock()
            .map_err(|_| SessionError::Inconsistent("a log writer panicked".into()))
    }
}

/// What one group commit writes: taken from a session by `take_batch`, written by [`Batch::write`].
pub struct Batch {
    pub(super) log: LogHandle,
    /// The group's records, encoded.
    pub(super) frames: Vec<Vec<u8>>,
    /// The snapshot due after these records, encoded (written once they are durable).
    pub(super) snapshot: Option<Vec<u8>>,
}

impl Batch {
    /// Appends the records as one batch (synced per the log's policy), then writes the
    /// snapshot, if one is due, covering every frame up to the batch's end. Blocking: disk
    /// work. On error nothing of this batch may be acknowledged, and the session must stop.
    pub fn write(self) -> Result<(), SessionError> {
        let mut log = self.log.lock()?;
        log.append_batch(&self.frames)?;
        if let Some(snapshot) = &self.snapshot {
            let at = log.next_seq();
            log.write_snapshot(at, snapshot)?;
        }
        Ok(())
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// Whether it holds no record (never, from `take_batch`).
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }
}
