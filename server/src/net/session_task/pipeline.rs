//! The group commit off the session task: a group is *sealed* when its write starts — its
//! batch is taken from the session and written on tokio's blocking pool (`spawn_blocking`:
//! the append, the fsync under the default policy, and a snapshot when one is due) — and
//! everything it sends (answers, events per audience, view patches, legal actions) is computed
//! then, from the world as the group left it. The task meanwhile stages the next group. When
//! the write returns the group is *released*: its messages are queued to the connections.
//!
//! - At most one group is being written ([`Task::writing`]) and one is being staged; the
//!   staged one is sealed when the write before it ends, so it gathers every command that
//!   arrived during that fsync (up to `MAX_GROUP`, then the task waits for the write).
//! - Groups are written and released in the order they were staged.
//! - Nothing of a group is sent before its write returned; a failed write stops the session
//!   (fail-stop) and nothing of that group nor of any later one is sent.
//! - A message that reads the world (`hello`, `resume`, a state or legal-actions query,
//!   `watch`), and a command that reads the log (`rewind_to`), waits until everything staged
//!   before it is durable and released ([`Task::settle`], [`Task::await_written`]): it is
//!   answered from a durable point.

use super::{Outbound, Pending, ServerMessage, Task};
use crate::session::SessionError;
use fray_protocol::ErrorCode;
use fray_protocol::ids::SessionId;
use fray_protocol::state::Phase;
use std::collections::BTreeMap;
use tokio::task::{JoinError, JoinHandle};

/// What a write returned (or that its thread panicked).
pub(super) type Written = Result<Result<(), SessionError>, JoinError>;

/// A group whose batch is being written, with what it sends once durable.
pub(super) struct InFlight {
    write: JoinHandle<Result<(), SessionError>>,
    release: Release,
}

/// What a sealed group does once it is durable; computed when it was sealed.
pub(super) struct Release {
    /// One queue item per connection: its events, then (watching) its view patch and legal
    /// actions, then its answers — one write.
    out: BTreeMap<u64, Outbound>,
    /// The listing's last sequence number and phase after the group.
    seq: u64,
    phase: Phase,
    /// The seat table after the group, when the group changed it (the registry's tokens follow).
    seats: Option<crate::seats::SeatTable>,
    /// Connections of a revoked token, closed once they have the group's events.
    revoked: Vec<u64>,
}

/// Waits for a write, or forever when there is none (a branch of the task's `select!`).
pub(super) async fn written(writing: Option<&mut InFlight>) -> Written {
    match writing {
        Some(w) => (&mut w.write).await,
        None => std::future::pending().await,
    }
}

impl Task {
    /// Seals the staged group: waits for the write in progress (and releases it), takes the
    /// group's batch and starts writing it off the task, and computes what the group sends. A
    /// group with nothing to write (only refusals) is released at once. Returns false when
    /// the session must stop.
    pub(super) async fn seal(&mut self, group: &mut Vec<Pending>, id: &SessionId) -> bool {
        if group.is_empty() {
            return true;
        }
        if !self.await_written(id).await {
            return false;
        }
        let batch = match self.session.take_batch() {
            Ok(b) => b,
            Err(e) => {
                tracing::error!(session = %id, error = %e, "log append failed; the session stops and will be rebuilt from its log");
                self.stop(id);
                return false;
            }
        };
        let write = batch.map(|b| tokio::task::spawn_blocking(move || b.write()));
        let release = self.outgoing(group);
        match write {
            Some(write) => self.writing = Some(InFlight { write, release }),
            None => self.release(release, id),
        }
        true
    }

    /// Waits for the write in progress, if any, and releases its group. Returns false when
    /// the session must stop (the write failed).
    pub(super) async fn await_written(&mut self, id: &SessionId) -> bool {
        let Some(w) = self.writing.as_mut() else {
            return true;
        };
        let result = (&mut w.write).await;
        self.finish(result, id)
    }

    /// Makes everything staged durable and released: the write in progress, then the staged
    /// group. Returns false when the session must stop.
    pub(super) async fn settle(&mut self, group: &mut Vec<Pending>, id: &SessionId) -> bool {
        self.seal(group, id).await && self.await_written(id).await
    }

    /// The write in progress returned: on success its group is released; on failure the
    /// session stops and nothing more is sent. Returns false when the session must stop.
    pub(super) fn finish(&mut self, result: Written, id: &SessionId) -> bool {
        let Some(w) = self.writing.take() else {
            return true;
        };
        match result {
            Ok(Ok(())) => {
                self.release(w.release, id);
                true
            }
            Ok(Err(e)) => {
                tracing::error!(session = %id, error = %e, "log append failed; the session stops and will be rebuilt from its log");
                self.stop(id);
                false
            }
            Err(e) => {
                tracing::error!(session = %id, error = %e, "the log writer panicked; the session stops");
                self.stop(id);
                false
            }
        }
    }

    /// Queues a durable group's messages, updates the listing and the registry's tokens, and
    /// closes the connections of revoked tokens.
    fn release(&mut self, r: Release, id: &SessionId) {
        if let (Some(table), Some(registry)) = (&r.seats, self.registry.upgrade()) {
            registry.update_seats(id, table);
        }
        for (conn, o) in r.out {
            if !o.parts.is_empty() {
                self.push(conn, o);
            }
        }
        if let Ok(mut info) = self.info.lock() {
            info.seq = r.seq;
            info.phase = r.phase;
        }
        for conn in r.revoked {
            if let Some(mut sub) = self.subscribers.remove(&conn)
                && let Some(k) = sub.kick.take()
            {
                let _ = k.send(ErrorCode::TokenRevoked);
            }
        }
    }

    /// Everything a group sends, computed from the world as the group left it: per connection
    /// its events (encoded once per audience), then, for a watching connection, its view patch
    /// and legal actions, then its answers.
    fn outgoing(&mut self, group: &mut Vec<Pending>) -> Release {
        let mut out: BTreeMap<u64, Outbound> = BTreeMap::new();
        let mut answers: BTreeMap<u64, Outbound> = BTreeMap::new();
        let mut seats_changed = false;
        for p in group.drain(..) {
            match p {
                Pending::Rejected {
                    conn,
                    id,
                    code,
                    message,
                } => {
                    let msg = ServerMessage::Rejected {
                        command_id: id,
                        code,
                        message,
                    };
                    self.queue_to(&mut answers, conn, &msg);
                }
                Pending::Accepted { conn, id, events } => {
                    seats_changed |= events.iter().any(|e| {
                        matches!(
                            e.event,
                            fray_protocol::GameEvent::CombatantAssigned { .. }
                                | fray_protocol::GameEvent::TokenReissued { .. }
                        )
                    });
                    self.queue_events(&mut out, &events);
                    if let (Some(first), Some(last)) = (events.first(), events.last()) {
                        let msg = ServerMessage::Accepted {
                            command_id: id,
                            first_seq: first.seq,
                            last_seq: last.seq,
                        };
                        self.queue_to(&mut answers, conn, &msg);
                    }
                }
            }
        }
        let (seats, revoked) = if seats_changed {
            let (table, revoked) = self.follow_seats();
            (Some(table), revoked)
        } else {
            (None, Vec::new())
        };
        if self
            .subscribers
            .values()
            .any(|s| s.views || s.actions.is_some())
        {
            let mut watched = BTreeMap::new();
            self.queue_watched(&mut watched);
            for (conn, w) in watched {
                out.entry(conn).or_default().parts.extend(w.parts);
            }
        }
        for (conn, a) in answers {
            out.entry(conn).or_default().parts.extend(a.parts);
        }
        Release {
            out,
            seq: self.session.last_seq(),
            phase: self.session.status().0,
            seats,
            revoked,
        }
    }

    /// The seats changed (`crate::seats`): every connection's role follows the table now
    /// (before the legal actions are computed and the next group is authorized), and the
    /// connections of a revoked token send nothing more. Returns the table, which the
    /// registry's tokens follow once the group is durable, and the revoked connections, which
    /// are closed with `token_revoked` once they have this group's events.
    fn follow_seats(&mut self) -> (crate::seats::SeatTable, Vec<u64>) {
        let table = self.session.seats().clone();
        let mut revoked = Vec::new();
        for (conn, sub) in self.subscribers.iter_mut() {
            if let Some(seat) = table.seats.iter().find(|x| x.token == sub.token) {
                sub.role = seat.role();
            }
            if table.revoked.contains(&sub.token) {
                sub.revoked = true;
                revoked.push(*conn);
            }
        }
        (table, revoked)
    }
}
