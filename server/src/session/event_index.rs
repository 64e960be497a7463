//! Where a session's events are in its log: a sparse index from an event's sequence number to
//! the frame of the tick that holds it, so that a subscriber resuming from event `n` reads only
//! the log's tail (`Session::events_after`), not the log from its first frame.

/// Events between two entries at least (the index holds about one entry per this many events).
pub const STRIDE: u64 = 256;

/// Ticks, each noted as (its first event's seq, the frame seq of its `Command` record),
/// ascending, sparse.
#[derive(Debug, Clone)]
pub struct EventIndex {
    entries: Vec<(u64, u64)>,
    stride: u64,
}

impl Default for EventIndex {
    fn default() -> Self {
        EventIndex::with_stride(STRIDE)
    }
}

impl EventIndex {
    /// An empty index noting a tick every `stride` events at most.
    pub fn with_stride(stride: u64) -> EventIndex {
        EventIndex {
            entries: Vec::new(),
            stride: stride.max(1),
        }
    }

    /// A tick whose events start at `first_seq` begins at frame `frame`.
    pub fn note(&mut self, first_seq: u64, frame: u64) {
        let due = self
            .entries
            .last()
            .is_none_or(|(seq, _)| first_seq >= seq.saturating_add(self.stride));
        if due {
            self.entries.push((first_seq, frame));
        }
    }

    /// The frame to read from so that every event with a seq greater than `after` is read:
    /// the start of the last noted tick whose first event is at most `after + 1`, or `None`
    /// when no noted tick is that early (read from the first frame).
    pub fn frame_for_events_after(&self, after: u64) -> Option<u64> {
        let wanted = after.saturating_add(1);
        let n = self.entries.partition_point(|(seq, _)| *seq <= wanted);
        n.checked_sub(1)
            .and_then(|i| self.entries.get(i))
            .map(|(_, frame)| *frame)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_points_at_the_latest_noted_tick_that_holds_the_next_event() {
        let mut index = EventIndex::default();
        // Ticks of 100 events from seq 1, each tick 2 frames from frame 1.
        for t in 0..10u64 {
            index.note(1 + 100 * t, 1 + 2 * t);
        }
        // Noted: seq 1 (frame 1), 301 (frame 7), 601 (frame 13), 901 (frame 19).
        assert_eq!(index.frame_for_events_after(0), Some(1));
        assert_eq!(index.frame_for_events_after(299), Some(1));
        assert_eq!(index.frame_for_events_after(300), Some(7));
        assert_eq!(index.frame_for_events_after(650), Some(13));
        assert_eq!(index.frame_for_events_after(5_000), Some(19));
        assert_eq!(EventIndex::default().frame_for_events_after(7), None);
    }

    #[test]
    fn a_late_first_entry_sends_earlier_resumes_to_the_first_frame() {
        let mut index = EventIndex::default();
        index.note(500, 40);
        assert_eq!(index.frame_for_events_after(10), None);
        assert_eq!(index.frame_for_events_after(499), Some(40));
    }
}
