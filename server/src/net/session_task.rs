//! The session task: the single owner of a session's world. Connections talk to it over a
//! bounded channel; it authorizes and stages commands, commits them to the log in groups (one
//! append per group), then acknowledges and broadcasts. Nothing else touches the world.
//!
//! A group's write and fsync run off the task, on tokio's blocking pool, while the task stages
//! the next group; the group's answers, events, view patches and legal actions are computed when
//! its write starts and sent when it returns (`pipeline`). Nothing is sent before it is durable.
//!
//! Fan-out is non-blocking: each subscriber has a queue of pre-encoded messages bounded in
//! items and in bytes ([`Limits::subscriber_queue_bytes`]); a subscriber whose queue is full is
//! dropped with the reason `lagging` and may reconnect with `resume_from` to catch up from the
//! log. A session admits [`Limits::connections_per_session`] subscribers, and
//! [`Limits::connections_per_token`] per seat. A finished session (seed revealed) that nobody
//! has watched for [`Limits::retention`] leaves the registry; its log stays on disk.

use super::auth::authorize;
use super::limits::Limits;
use super::registry::Registry;
use super::views::{Views, view_of};
use crate::replay::LoggedEvent;
use crate::session::Session;
use axum::extract::ws::Message;
use fray_protocol::codec::{Encoding, Frame, encode};
use fray_protocol::ids::{Role, SessionId};
use fray_protocol::state::Phase;
use fray_protocol::{
    Command, ErrorCode, EventMessage, LegalAction, PROTOCOL_VERSION, ServerMessage,
};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

mod pipeline;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
mod tests;

/// Queue length of the session's inbox.
const INBOX: usize = 1024;
/// Most commands committed in one group.
const MAX_GROUP: usize = 256;
/// Commands the server's own play (`crate::auto`) stages per turn of the loop at most.
const MAX_AUTO: usize = 32;
/// The connection id of the server's own commands: no connection, so no answer is sent.
const NO_CONNECTION: u64 = u64::MAX;
/// How often a session whose log holds unsynced frames (the interval policy) checks whether
/// the sync is due.
const SYNC_TICK: Duration = Duration::from_millis(50);
/// How often a session nobody is connected to checks its retention (its hibernation has its
/// own deadline).
const UNWATCHED_TICK: Duration = Duration::from_secs(1);
/// Queue length of each subscriber, in items (its bytes are bounded too: [`Limits`]).
pub const SUBSCRIBER_QUEUE: usize = 4096;

/// One piece of what a connection writes: its own message, or messages shared by every
/// subscriber of one audience and encoding (encoded once, never copied per subscriber).
#[derive(Debug, Clone)]
pub enum Part {
    /// A message for this connection alone (`welcome`, `accepted`, `rejected`, …).
    One(Message),
    /// A tick's events, shared.
    Shared(Arc<[Message]>),
}

/// What a connection receives from the session in one queue item: messages written in order
/// and then flushed together, so that a command's events and its `accepted` leave in one write.
#[derive(Debug, Default)]
pub struct Outbound {
    /// The pieces, in order.
    pub parts: Vec<Part>,
}

fn message_len(m: &Message) -> usize {
    match m {
        Message::Text(t) => t.len(),
        Message::Binary(b) => b.len(),
        _ => 0,
    }
}

impl Outbound {
    /// Payload bytes of every message (what the subscriber's byte bound counts).
    pub fn bytes(&self) -> usize {
        self.messages().map(message_len).sum()
    }

    /// Every message, in order.
    pub fn messages(&self) -> impl Iterator<Item = &Message> {
        self.parts.iter().flat_map(|p| match p {
            Part::One(m) => std::slice::from_ref(m),
            Part::Shared(ms) => ms,
        })
    }
}

/// Listing entry.
#[derive(Debug, Clone, Serialize)]
pub struct SessionInfo {
    /// Position in the listing: sessions are numbered in order of creation (or recovery at
    /// start), from 1.
    pub number: u64,
    /// Session id.
    pub session: String,
    /// Ruleset.
    pub ruleset: String,
    /// Title.
    pub title: String,
    /// Built-in demo.
    pub demo: bool,
    /// Phase.
    pub phase: Phase,
    /// Last event sequence number.
    pub seq: u64,
    /// Spectator token (demo sessions only).
    pub spectator_token: Option<String>,
}

/// A connection's subscription request.
pub struct Subscribe {
    /// Connection id.
    pub conn: u64,
    /// The token it said `hello` with.
    pub token: String,
    /// Role from the token.
    pub role: Role,
    /// Encoding of the connection.
    pub encoding: Encoding,
    /// Resume point.
    pub resume_from: Option<u64>,
    /// Where to send messages.
    pub out: mpsc::Sender<Outbound>,
    /// Fired with a reason when the session drops the subscriber.
    pub kick: oneshot::Sender<ErrorCode>,
    /// Bytes queued and not yet written: the session adds, the connection subtracts.
    pub queued: Arc<AtomicUsize>,
}

/// Messages to the session task.
pub enum SessionMsg {
    /// Subscribe a connection (sends `Welcome` and the snapshot or the backlog).
    Subscribe(Box<Subscribe>),
    /// A command from a subscribed connection.
    Command {
        /// Connection id.
        conn: u64,
        /// Client command id.
        id: u64,
        /// The command.
        command: Command,
    },
    /// Send the current state to a connection.
    Snapshot {
        /// Connection id.
        conn: u64,
    },
    /// Follow (or stop following) the view and the legal actions.
    Watch {
        /// Connection id.
        conn: u64,
        /// Follow the view.
        views: bool,
        /// Follow the legal actions.
        legal_actions: bool,
    },
    /// Send the seat's legal actions once.
    LegalActions {
        /// Connection id.
        conn: u64,
    },
    /// What a command would cover (`preview`), answered to the connection alone.
    Preview {
        /// Connection id.
        conn: u64,
        /// The client's preview id.
        id: u64,
        /// The command to preview.
        command: Command,
    },
    /// A connection closed.
    Unsubscribe {
        /// Connection id.
        conn: u64,
    },
    /// Flush the log and stop.
    Shutdown(oneshot::Sender<()>),
}

/// A handle to a session task.
#[derive(Clone)]
pub struct SessionHandle {
    /// Inbox.
    pub tx: mpsc::Sender<SessionMsg>,
    info: Arc<Mutex<SessionInfo>>,
}

impl SessionHandle {
    /// Listing entry.
    pub fn info(&self) -> SessionInfo {
        match self.info.lock() {
            Ok(i) => i.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }
}

struct Subscriber {
    token: String,
    role: Role,
    encoding: Encoding,
    out: mpsc::Sender<Outbound>,
    kick: Option<oneshot::Sender<ErrorCode>>,
    queued: Arc<AtomicUsize>,
    /// Follows the view (`watch`).
    views: bool,
    /// Follows the legal actions (`watch`): the last ones sent.
    actions: Option<Vec<LegalAction>>,
    /// Its token was revoked by a group not yet durable: its commands are refused, and it is
    /// closed once it has that group's events.
    revoked: bool,
}

impl Subscriber {
    fn is_gm(&self) -> bool {
        matches!(self.role, Role::Gm)
    }
    fn client_label(&self) -> String {
        match &self.role {
            Role::Gm => "gm".into(),
            Role::Player { name, .. } => format!("player:{name}"),
            Role::Spectator => "spectator".into(),
        }
    }
}

/// Whose copy of a batch of events a connection gets: the GM's, the public one, or — only when
/// the batch holds a whisper or roll for that player — the player's own.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Reader {
    Gm,
    Public,
    Player(String),
}

impl Reader {
    fn of(role: &Role, events: &[LoggedEvent]) -> Reader {
        match role {
            Role::Gm => Reader::Gm,
            Role::Player { name, .. } if events.iter().any(|e| e.event.addressed_to(name)) => {
                Reader::Player(name.clone())
            }
            _ => Reader::Public,
        }
    }
}

/// One event as an `event` message in `enc`; `None` (logged) if it cannot be encoded.
fn encode_event(
    e: &LoggedEvent,
    event: &fray_protocol::GameEvent,
    enc: Encoding,
) -> Option<Message> {
    let frame = EventMessage {
        seq: e.seq,
        tick: e.tick,
        event,
    };
    match encode(&frame, enc) {
        Ok(f) => Some(to_message(f)),
        Err(e) => {
            tracing::error!(error = %e, "cannot encode an event");
            None
        }
    }
}

/// The GM's copy of a batch's events in one encoding, each encoded when a reader first needs
/// it (the GM, or an audience whose copy of that event is the same) and shared after.
#[derive(Default)]
struct GmCopies(Vec<Option<Option<Message>>>);

impl GmCopies {
    /// Event `i` of the batch (`e`) as the GM sees it, encoded in `enc` once.
    fn get(&mut self, i: usize, e: &LoggedEvent, enc: Encoding) -> Option<Message> {
        if self.0.len() <= i {
            self.0.resize(i + 1, None);
        }
        match self.0.get_mut(i) {
            Some(Some(done)) => done.clone(),
            Some(slot) => slot.insert(encode_event(e, &e.event, enc)).clone(),
            None => encode_event(e, &e.event, enc),
        }
    }
}

fn to_message(frame: Frame) -> Message {
    match frame {
        Frame::Text(s) => Message::Text(s.into()),
        Frame::Binary(b) => Message::Binary(b.into()),
    }
}

fn message(msg: &ServerMessage, enc: Encoding) -> Option<Message> {
    match encode(msg, enc) {
        Ok(f) => Some(to_message(f)),
        Err(e) => {
            tracing::error!(error = %e, "cannot encode a server message");
            None
        }
    }
}

/// Runs disk work the session task must wait for (a resume's read of the log, the idle sync,
/// the flush before hibernating, reopening a hibernated session) so that it does not hold up the
/// other tasks of this worker thread: on the multi-threaded runtime the worker hands its other
/// tasks to another thread first (`block_in_place`); on a current-thread runtime (tests) it just
/// runs. A group's write and fsync do not come here: they run on the blocking pool (`pipeline`).
fn off_worker<T>(work: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(tokio::runtime::RuntimeFlavor::MultiThread) => tokio::task::block_in_place(work),
        _ => work(),
    }
}

/// Starts the task of a session.
pub fn spawn(
    session: Session,
    number: u64,
    registry: Weak<Registry>,
    limits: Limits,
) -> SessionHandle {
    let (tx, rx) = mpsc::channel(INBOX);
    let g = session.genesis();
    let info = Arc::new(Mutex::new(SessionInfo {
        number,
        session: g.session.0.clone(),
        ruleset: g.ruleset.clone(),
        title: g.encounter.title.clone(),
        demo: g.demo,
        phase: session.status().0,
        seq: session.last_seq(),
        spectator_token: g.demo.then(|| g.tokens.spectator.clone()),
    }));
    let task = Task {
        session,
        subscribers: BTreeMap::new(),
        info: info.clone(),
        registry,
        limits,
        unwatched_since: None,
        views: Views::default(),
        auto_more: false,
        writing: None,
    };
    tokio::spawn(lifecycle(task, rx));
    SessionHandle { tx, info }
}

/// Why [`Task::run`] returned.
enum Exit {
    /// The session stopped (shutdown, its log failed, it left memory, or every handle is gone).
    Stopped,
    /// Nobody has been connected for [`Limits::hibernate_after`]: the world and the log's file
    /// are let go; the task waits for the next message to reopen the session from its log.
    Hibernate,
}

/// A session task's life: run while awake; while hibernating hold only the inbox, the listing
/// entry and the registry's handle (no world, no open file), and reopen the session from its log
/// (its latest snapshot and the tail, as at a restart) when a connection subscribes.
async fn lifecycle(mut task: Task, mut rx: mpsc::Receiver<SessionMsg>) {
    let mut first = None;
    loop {
        if let Exit::Stopped = task.run(&mut rx, first.take()).await {
            return;
        }
        let id = task.session.genesis().session.clone();
        let finished = task.session.status().1;
        let Task {
            session,
            subscribers: _,
            info,
            registry,
            limits,
            unwatched_since,
            views: _,
            auto_more: _,
            writing: _,
        } = task;
        drop(session);
        tracing::debug!(session = %id, "session hibernating");
        let asleep = Instant::now();
        let since = unwatched_since.unwrap_or(asleep);
        let msg = loop {
            let wait = if finished {
                limits.retention.saturating_sub(since.elapsed())
            } else {
                std::time::Duration::MAX
            };
            match tokio::time::timeout(wait, rx.recv()).await {
                Ok(Some(SessionMsg::Unsubscribe { .. })) => {}
                Ok(Some(SessionMsg::Shutdown(done))) => {
                    let _ = done.send(());
                    return;
                }
                Ok(Some(m)) => break m,
                Ok(None) => return,
                Err(_) => {
                    tracing::info!(session = %id, "finished session left memory (its log stays on disk)");
                    if let Some(r) = registry.upgrade() {
                        r.remove(&id);
                    }
                    return;
                }
            }
        };
        let reopened = match registry.upgrade() {
            Some(r) => off_worker(|| r.open_session(&id)),
            None => return,
        };
        let session = match reopened {
            Ok(s) => s,
            Err(e) => {
                tracing::error!(session = %id, error = %e, "cannot reopen a hibernating session; it stops");
                if let SessionMsg::Subscribe(s) = msg {
                    let _ = s.kick.send(ErrorCode::SessionUnavailable);
                }
                if let Some(r) = registry.upgrade() {
                    r.remove(&id);
                }
                return;
            }
        };
        tracing::debug!(session = %id, slept_ms = asleep.elapsed().as_millis() as u64, "session woke up");
        task = Task {
            session,
            subscribers: BTreeMap::new(),
            info,
            registry,
            limits,
            unwatched_since: finished.then_some(since),
            views: Views::default(),
            auto_more: false,
            writing: None,
        };
        first = Some(msg);
    }
}

struct Task {
    session: Session,
    subscribers: BTreeMap<u64, Subscriber>,
    info: Arc<Mutex<SessionInfo>>,
    registry: Weak<Registry>,
    limits: Limits,
    /// Since when the session has been over with nobody connected.
    unwatched_since: Option<Instant>,
    /// The views kept for watching connections.
    views: Views,
    /// The server's own play (`crate::auto`) stopped at its per-wake bound with more to do.
    auto_more: bool,
    /// The group being written off the task, with what it sends once durable (`pipeline`).
    writing: Option<pipeline::InFlight>,
}

impl Task {
    /// Whether nobody is connected and nothing happened for the hibernation time.
    fn may_hibernate(&self, idle_since: Instant) -> bool {
        self.subscribers.is_empty() && idle_since.elapsed() >= self.limits.hibernate_after
    }
}

/// Output of a group, held until it is durable.
enum Pending {
    Accepted {
        conn: u64,
        id: u64,
        events: Vec<LoggedEvent>,
    },
    Rejected {
        conn: u64,
        id: u64,
        code: ErrorCode,
        message: String,
    },
}

/// What the task waits for between groups.
enum Next {
    /// The write in progress returned.
    Written(pipeline::Written),
    /// A message, or `None` when every handle is gone.
    Message(Option<SessionMsg>),
    /// Nothing for [`SYNC_TICK`], with nothing being written.
    Idle,
}

impl Task {
    async fn run(&mut self, rx: &mut mpsc::Receiver<SessionMsg>, wake: Option<SessionMsg>) -> Exit {
        let id = self.session.genesis().session.clone();
        let mut wake = wake;
        let mut idle_since = Instant::now();
        // The group being staged: sealed (written, and answered once durable) when the write
        // before it has returned.
        let mut group: Vec<Pending> = Vec::new();
        // Messages were handled since the server's own play last ran.
        let mut auto_due = false;
        loop {
            if self.writing.is_none() {
                if (auto_due || self.auto_more) && !self.play_auto(&mut group, &id).await {
                    return Exit::Stopped;
                }
                auto_due = false;
                if !self.seal(&mut group, &id).await {
                    return Exit::Stopped;
                }
            }
            let next = match wake.take() {
                Some(m) => Next::Message(Some(m)),
                None => self.next(rx, group.len() < MAX_GROUP, idle_since).await,
            };
            match next {
                Next::Written(result) => {
                    if !self.finish(result, &id) {
                        return Exit::Stopped;
                    }
                }
                Next::Message(Some(first)) => {
                    idle_since = Instant::now();
                    auto_due = true;
                    if !self.take_messages(first, rx, &mut group, &id).await {
                        return Exit::Stopped;
                    }
                }
                Next::Message(None) => break,
                Next::Idle => {
                    if let Some(exit) = self.idle(&id, idle_since) {
                        return exit;
                    }
                }
            }
        }
        if self.settle(&mut group, &id).await {
            let _ = off_worker(|| self.session.flush());
        }
        Exit::Stopped
    }

    /// Waits for the write in progress to return, for a message (while the staged group has
    /// room), or for the idle work's next moment ([`Self::idle_wait`], when nothing is being
    /// written).
    async fn next(
        &mut self,
        rx: &mut mpsc::Receiver<SessionMsg>,
        room: bool,
        idle_since: Instant,
    ) -> Next {
        let wait = match self.writing {
            None => self.idle_wait(idle_since),
            Some(_) => None,
        };
        tokio::select! {
            biased;
            done = pipeline::written(self.writing.as_mut()) => Next::Written(done),
            msg = rx.recv(), if room => Next::Message(msg),
            _ = tokio::time::sleep(wait.unwrap_or_default()), if wait.is_some() => Next::Idle,
            else => Next::Idle,
        }
    }

    /// When [`Self::idle`] has something to do, if nothing happens before: the interval
    /// policy's sync tick while the log holds unsynced frames, and — while nobody is connected
    /// — the hibernation deadline, checked at least every [`UNWATCHED_TICK`] (retention).
    /// `None` (no timer at all) for a session with connections and nothing to sync, so a live
    /// session that nobody sends to costs nothing (`bench --scenario live`).
    fn idle_wait(&self, idle_since: Instant) -> Option<Duration> {
        let sync = self.session.awaits_timed_sync().then_some(SYNC_TICK);
        if !self.subscribers.is_empty() {
            return sync;
        }
        let hibernate = self
            .limits
            .hibernate_after
            .saturating_sub(idle_since.elapsed());
        let unwatched = hibernate.min(self.limits.retention).min(UNWATCHED_TICK);
        Some(sync.map_or(unwatched, |s| s.min(unwatched)))
    }

    /// Handles `first` and the messages already waiting after it: commands are staged into the
    /// group; anything else first waits until everything staged is durable and answered, and
    /// then sees the world. Returns false when the session must stop.
    async fn take_messages(
        &mut self,
        first: SessionMsg,
        rx: &mut mpsc::Receiver<SessionMsg>,
        group: &mut Vec<Pending>,
        id: &SessionId,
    ) -> bool {
        let mut next = Some(first);
        while let Some(msg) = next.take() {
            match msg {
                SessionMsg::Command {
                    conn,
                    id: command_id,
                    command,
                } => {
                    if Session::reads_the_log(&command) && !self.await_written(id).await {
                        return false;
                    }
                    group.push(self.stage(conn, command_id, &command));
                    if self.session.engine().broken().is_some() {
                        // Fail-stop: the commands staged before the break are sound and are
                        // committed and answered; this one was answered `session_unavailable`;
                        // the session is rebuilt from its log.
                        let _ = self.settle(group, id).await;
                        self.stop(id);
                        return false;
                    }
                }
                // Reads nothing: what is sealed for the connection is dropped at its release.
                SessionMsg::Unsubscribe { conn } => {
                    self.unsubscribe(conn);
                }
                other => {
                    if !self.settle(group, id).await || !self.handle_other(other) {
                        return false;
                    }
                }
            }
            if group.len() < MAX_GROUP {
                next = rx.try_recv().ok();
            }
        }
        true
    }

    /// Nothing happened for [`SYNC_TICK`] and nothing is being written: sync under the
    /// interval policy, leave memory when retention is over, hibernate when nobody is
    /// connected. Returns how the task ends, if it does.
    fn idle(&mut self, id: &SessionId, idle_since: Instant) -> Option<Exit> {
        if let Err(e) = off_worker(|| self.session.sync_if_due()) {
            tracing::error!(session = %id, error = %e, "log sync failed; the session stops");
            self.stop(id);
            return Some(Exit::Stopped);
        }
        if self.retention_over() {
            let _ = self.session.flush();
            tracing::info!(session = %id, "finished session left memory (its log stays on disk)");
            self.stop(id);
            return Some(Exit::Stopped);
        }
        if self.may_hibernate(idle_since) {
            return match off_worker(|| self.session.flush()) {
                Ok(()) => Some(Exit::Hibernate),
                Err(e) => {
                    tracing::error!(session = %id, error = %e, "log flush failed; the session stops");
                    self.stop(id);
                    Some(Exit::Stopped)
                }
            };
        }
        None
    }

    /// The server's own play (`crate::auto`): while a handed-over combatant may act, the
    /// policy's commands are staged into the group as the client `auto`, at most [`MAX_AUTO`]
    /// per call (a fight the server plays alone goes on once this group is written, so
    /// connections are still served). A refused command stops it until the next message.
    /// Called only when nothing is being written. Returns false when the session must stop.
    async fn play_auto(&mut self, group: &mut Vec<Pending>, id: &SessionId) -> bool {
        self.auto_more = false;
        if self.session.auto().is_empty() {
            return true;
        }
        for _ in 0..MAX_AUTO {
            let state = self.session.state();
            let Some(command) =
                crate::auto::next_command(&state, self.session.auto(), self.session.tick())
            else {
                return true;
            };
            match self.session.stage(crate::auto::CLIENT, 0, &command) {
                Ok(staged) => group.push(Pending::Accepted {
                    conn: NO_CONNECTION,
                    id: 0,
                    events: staged.events,
                }),
                Err(r) => {
                    tracing::warn!(session = %id, command = command.kind(), code = %r.code, message = %r.message, "the server's own play was refused; it waits for the next command");
                    return true;
                }
            }
            if self.session.engine().broken().is_some() {
                let _ = self.settle(group, id).await;
                self.stop(id);
                return false;
            }
        }
        self.auto_more = true;
        true
    }

    /// Whether the session is over, nobody has been connected for the retention time, and so
    /// it may leave memory.
    fn retention_over(&mut self) -> bool {
        let over = self.session.status().1;
        if !over || !self.subscribers.is_empty() {
            self.unwatched_since = None;
            return false;
        }
        let since = *self.unwatched_since.get_or_insert_with(Instant::now);
        since.elapsed() >= self.limits.retention
    }

    fn stage(&mut self, conn: u64, id: u64, command: &Command) -> Pending {
        let Some(sub) = self.subscribers.get(&conn) else {
            return Pending::Rejected {
                conn,
                id,
                code: ErrorCode::HelloRequired,
                message: "not subscribed".into(),
            };
        };
        if sub.revoked {
            return Pending::Rejected {
                conn,
                id,
                code: ErrorCode::TokenRevoked,
                message: "this seat's token was revoked".into(),
            };
        }
        if let Err(r) = authorize(&sub.role, command) {
            return Pending::Rejected {
                conn,
                id,
                code: r.code,
                message: r.message,
            };
        }
        let label = sub.client_label();
        match self.session.stage(&label, id, command) {
            Ok(staged) => Pending::Accepted {
                conn,
                id,
                events: staged.events,
            },
            Err(r) => Pending::Rejected {
                conn,
                id,
                code: r.code,
                message: r.message,
            },
        }
    }

    /// Fail-stop: tell every subscriber and leave the registry.
    fn stop(&mut self, id: &SessionId) {
        for sub in self.subscribers.values_mut() {
            if let Some(k) = sub.kick.take() {
                let _ = k.send(ErrorCode::SessionUnavailable);
            }
        }
        if let Some(r) = self.registry.upgrade() {
            r.remove(id);
        }
    }

    fn send_to(&mut self, conn: u64, msg: &ServerMessage) {
        let mut out = BTreeMap::new();
        self.queue_to(&mut out, conn, msg);
        for (conn, o) in out {
            self.push(conn, o);
        }
    }

    /// Adds a message for one connection, encoded in its encoding, to what the group sends.
    fn queue_to(&self, out: &mut BTreeMap<u64, Outbound>, conn: u64, msg: &ServerMessage) {
        let Some(sub) = self.subscribers.get(&conn) else {
            return;
        };
        if let Some(m) = message(msg, sub.encoding) {
            out.entry(conn).or_default().parts.push(Part::One(m));
        }
    }

    /// Queues without waiting; a full queue (in items, or in bytes: an item that would take a
    /// non-empty queue past the byte bound) drops the subscriber with `lagging`.
    fn push(&mut self, conn: u64, out: Outbound) {
        let cap = self.limits.subscriber_queue_bytes;
        let result = match self.subscribers.get(&conn) {
            Some(sub) => {
                let bytes = out.bytes();
                let queued = sub.queued.load(Ordering::Acquire);
                if queued > 0 && queued.saturating_add(bytes) > cap {
                    Err(mpsc::error::TrySendError::Full(out))
                } else {
                    sub.queued.fetch_add(bytes, Ordering::AcqRel);
                    sub.out.try_send(out).inspect_err(|_| {
                        sub.queued.fetch_sub(bytes, Ordering::AcqRel);
                    })
                }
            }
            None => return,
        };
        match result {
            Ok(()) => {}
            Err(mpsc::error::TrySendError::Closed(_)) => {
                self.unsubscribe(conn);
            }
            Err(mpsc::error::TrySendError::Full(_)) => {
                if let Some(mut sub) = self.unsubscribe(conn) {
                    tracing::warn!(conn, "subscriber lagging; dropped");
                    if let Some(k) = sub.kick.take() {
                        let _ = k.send(ErrorCode::Lagging);
                    }
                }
            }
        }
    }

    /// Encodes the events once per encoding and audience and adds the shared bytes to what
    /// every subscriber receives.
    fn queue_events(&self, out: &mut BTreeMap<u64, Outbound>, events: &[LoggedEvent]) {
        let mut cache: BTreeMap<(Reader, bool), Arc<[Message]>> = BTreeMap::new();
        // The GM's copy of each event per encoding (JSON, bincode), encoded when first needed.
        let mut gm: [GmCopies; 2] = Default::default();
        for (conn, sub) in &self.subscribers {
            let reader = Reader::of(&sub.role, events);
            let bincode = sub.encoding == Encoding::Bincode;
            let copies = &mut gm[usize::from(bincode)];
            let shared = cache
                .entry((reader.clone(), bincode))
                .or_insert_with(|| {
                    self.encode_events(events, &reader, sub.encoding, copies)
                        .into()
                })
                .clone();
            out.entry(*conn)
                .or_default()
                .parts
                .push(Part::Shared(shared));
        }
    }

    /// Each event as its reader sees it, encoded once: the GM's copy straight from the
    /// logged event (no clone), the public copy redacted, a player's with its own whispers. A
    /// copy that its redaction leaves equal to the GM's (most events: nothing in them is
    /// secret) shares the GM's encoded bytes, `gm`, instead of being encoded again.
    fn encode_events(
        &self,
        events: &[LoggedEvent],
        reader: &Reader,
        enc: Encoding,
        gm: &mut GmCopies,
    ) -> Vec<Message> {
        let monster = |id: &fray_protocol::CombatantId| self.session.is_monster(id);
        events
            .iter()
            .enumerate()
            .filter_map(|(i, e)| {
                let redacted = match reader {
                    Reader::Gm => None,
                    Reader::Public => Some(e.event.redacted(monster)),
                    Reader::Player(name) => Some(e.event.for_player(name, monster)),
                };
                match redacted {
                    Some(r) if r != e.event => encode_event(e, &r, enc),
                    _ => gm.get(i, e, enc),
                }
            })
            .collect()
    }

    fn handle_other(&mut self, msg: SessionMsg) -> bool {
        match msg {
            SessionMsg::Subscribe(s) => self.subscribe(*s),
            SessionMsg::Snapshot { conn } => {
                if let Some(sub) = self.subscribers.get(&conn) {
                    let state = view_of(&self.session, sub.is_gm());
                    let msg = ServerMessage::Snapshot {
                        seq: self.session.last_seq(),
                        state: Box::new(state),
                    };
                    self.send_to(conn, &msg);
                }
            }
            SessionMsg::Watch {
                conn,
                views,
                legal_actions,
            } => self.watch(conn, views, legal_actions),
            SessionMsg::LegalActions { conn } => {
                if let Some(role) = self.subscribers.get(&conn).map(|s| s.role.clone()) {
                    let msg = ServerMessage::LegalActions {
                        seq: self.session.last_seq(),
                        actions: self.legal_actions(&role),
                    };
                    self.send_to(conn, &msg);
                }
            }
            SessionMsg::Preview { conn, id, command } => self.preview(conn, id, &command),
            SessionMsg::Unsubscribe { conn } => {
                self.unsubscribe(conn);
            }
            SessionMsg::Command { .. } => {}
            SessionMsg::Shutdown(done) => {
                if let Err(e) = self.session.flush() {
                    tracing::error!(error = %e, "flush at shutdown failed");
                }
                let _ = done.send(());
                return false;
            }
        }
        true
    }

    fn subscribe(&mut self, mut s: Subscribe) {
        // The seat as the log has it now: a token revoked, or controls changed, since the
        // connection looked it up.
        let table = self.session.seats();
        if table.revoked.contains(&s.token) {
            let _ = s.kick.send(ErrorCode::TokenRevoked);
            return;
        }
        if let Some(seat) = table.seats.iter().find(|x| x.token == s.token) {
            s.role = seat.role();
        }
        let last = self.session.last_seq();
        let g = self.session.genesis();
        let welcome = ServerMessage::Welcome {
            protocol: PROTOCOL_VERSION,
            session: g.session.clone(),
            role: s.role.clone(),
            seq: last,
            ruleset: g.ruleset.clone(),
            commitment: g.commitment.clone(),
        };
        if let Some(from) = s.resume_from
            && from > last
        {
            let _ = s.kick.send(ErrorCode::ResumeOutOfRange);
            return;
        }
        if self.subscribers.len() >= self.limits.connections_per_session {
            let _ = s.kick.send(ErrorCode::TooManyConnections);
            return;
        }
        let same_seat = self
            .subscribers
            .values()
            .filter(|x| x.role == s.role)
            .count();
        if same_seat >= self.limits.connections_per_token {
            let _ = s.kick.send(ErrorCode::TooManyConnections);
            return;
        }
        let gm = matches!(s.role, Role::Gm);
        let mut first: Vec<Part> = message(&welcome, s.encoding)
            .into_iter()
            .map(Part::One)
            .collect();
        match s.resume_from {
            None => {
                let state = view_of(&self.session, gm);
                first.extend(
                    message(
                        &ServerMessage::Snapshot {
                            seq: last,
                            state: Box::new(state),
                        },
                        s.encoding,
                    )
                    .map(Part::One),
                );
            }
            Some(from) => match off_worker(|| self.session.events_after(from)) {
                Ok(events) => first.push(Part::Shared(
                    self.encode_events(
                        &events,
                        &Reader::of(&s.role, &events),
                        s.encoding,
                        &mut GmCopies::default(),
                    )
                    .into(),
                )),
                Err(e) => {
                    tracing::error!(error = %e, "cannot read the log for a resume");
                    let _ = s.kick.send(ErrorCode::SessionUnavailable);
                    return;
                }
            },
        }
        self.subscribers.insert(
            s.conn,
            Subscriber {
                token: s.token,
                role: s.role,
                encoding: s.encoding,
                out: s.out,
                kick: Some(s.kick),
                queued: s.queued,
                views: false,
                actions: None,
                revoked: false,
            },
        );
        self.push(s.conn, Outbound { parts: first });
    }
}

/// Watching connections (`watch`): views and legal actions.
impl Task {
    /// The seat's legal actions, each also one its role may send (`auth::authorize`).
    fn legal_actions(&mut self, role: &fray_protocol::Role) -> Vec<LegalAction> {
        let mut actions = self.session.legal_actions(role);
        actions.retain(|a| authorize(role, &a.command).is_ok());
        actions
    }

    /// Answers a `preview`: the seat must be one that may send the command (`authorize`), then
    /// the ruleset says what it would cover. Nothing is staged, logged or drawn.
    fn preview(&mut self, conn: u64, id: u64, command: &Command) {
        let Some(role) = self.subscribers.get(&conn).map(|s| s.role.clone()) else {
            return;
        };
        let answer = authorize(&role, command).and_then(|()| self.session.preview(command));
        let msg = match answer {
            Ok(preview) => ServerMessage::PreviewResult {
                id,
                seq: self.session.last_seq(),
                preview,
            },
            Err(r) => ServerMessage::PreviewRefused {
                id,
                code: r.code,
                message: r.message,
            },
        };
        self.send_to(conn, &msg);
    }

    /// Starts or stops following the view and the legal actions for a connection, sending the
    /// full view and the legal actions at once when they start.
    fn watch(&mut self, conn: u64, views: bool, legal_actions: bool) {
        let Some(sub) = self.subscribers.get_mut(&conn) else {
            return;
        };
        let (gm, role, was) = (sub.is_gm(), sub.role.clone(), sub.views);
        sub.views = views;
        let mut first = BTreeMap::new();
        if views {
            let (seq, state) = self.views.start(&self.session, gm);
            let msg = ServerMessage::Snapshot {
                seq,
                state: Box::new(state),
            };
            self.queue_to(&mut first, conn, &msg);
        } else if was {
            self.forget_unwatched_views();
        }
        let actions = legal_actions.then(|| self.legal_actions(&role));
        if let Some(actions) = &actions {
            let msg = ServerMessage::LegalActions {
                seq: self.session.last_seq(),
                actions: actions.clone(),
            };
            self.queue_to(&mut first, conn, &msg);
        }
        if let Some(sub) = self.subscribers.get_mut(&conn) {
            sub.actions = actions;
        }
        for (conn, o) in first {
            self.push(conn, o);
        }
    }

    /// Removes a subscriber, and the kept view of an audience nobody watches any more.
    fn unsubscribe(&mut self, conn: u64) -> Option<Subscriber> {
        let sub = self.subscribers.remove(&conn);
        if sub.as_ref().is_some_and(|s| s.views) {
            self.forget_unwatched_views();
        }
        sub
    }

    fn forget_unwatched_views(&mut self) {
        for gm in [true, false] {
            let watched = self
                .subscribers
                .values()
                .any(|s| s.views && s.is_gm() == gm);
            if !watched {
                self.views.forget(gm);
            }
        }
    }

    /// After a group: each watcher's view patch (one diff per audience, encoded once per
    /// audience and encoding) and its legal actions when they changed (computed once per seat).
    fn queue_watched(&mut self, out: &mut BTreeMap<u64, Outbound>) {
        let seq = self.session.last_seq();
        // One state read for both audiences; the public view is redacted from it, the GM's
        // takes it as it is.
        let mut patch_of: BTreeMap<bool, ServerMessage> = BTreeMap::new();
        if self.views.any() {
            let state = self.session.state();
            let public = self.views.keeps(false).then(|| state.redacted());
            for (gm, view) in [(false, public), (true, Some(state))] {
                if let Some(p) = view.and_then(|v| self.views.advance(v, seq, gm)) {
                    let msg = ServerMessage::ViewPatch {
                        from_seq: p.from_seq,
                        seq: p.seq,
                        patch: p.patch,
                    };
                    patch_of.insert(gm, msg);
                }
            }
        }
        // Each patch encoded once per audience and encoding, when a watcher needs it.
        let mut patches: BTreeMap<(bool, bool), Arc<[Message]>> = BTreeMap::new();
        let mut by_seat: Vec<(fray_protocol::Role, Vec<LegalAction>)> = Vec::new();
        let conns: Vec<u64> = self.subscribers.keys().copied().collect();
        for conn in conns {
            let Some(sub) = self.subscribers.get(&conn) else {
                continue;
            };
            if sub.views
                && let Some(msg) = patch_of.get(&sub.is_gm())
            {
                let key = (sub.is_gm(), sub.encoding == Encoding::Bincode);
                let shared = patches
                    .entry(key)
                    .or_insert_with(|| message(msg, sub.encoding).into_iter().collect())
                    .clone();
                out.entry(conn)
                    .or_default()
                    .parts
                    .push(Part::Shared(shared));
            }
            if sub.actions.is_none() {
                continue;
            }
            let role = sub.role.clone();
            let now = match by_seat.iter().find(|(r, _)| *r == role) {
                Some((_, a)) => a.clone(),
                None => {
                    let a = self.legal_actions(&role);
                    by_seat.push((role, a.clone()));
                    a
                }
            };
            let Some(sub) = self.subscribers.get_mut(&conn) else {
                continue;
            };
            if sub.actions.as_ref() != Some(&now) {
                sub.actions = Some(now.clone());
                let msg = ServerMessage::LegalActions { seq, actions: now };
                self.queue_to(out, conn, &msg);
            }
        }
    }
}
