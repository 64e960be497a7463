//! The group commit off the session task, through the real task, session and log, on a
//! storage whose fsync the test holds (`MemStorage::hold_syncs`): nothing here is timed.

use super::*;
use crate::log::MemStorage;
use crate::rules::{builtin_encounters, load_encounter};
use crate::session::{Secrets, SessionConfig};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);
const GM: &str = "g";
const SPECTATOR: &str = "s";

fn secrets() -> Secrets {
    Secrets {
        seed: 11,
        salt: [1; 16],
        gm: GM.into(),
        spectator: SPECTATOR.into(),
        players: vec!["a".into(), "b".into()],
        secret_seed: 110,
        secret_salt: [2; 16],
    }
}

fn new_session(storage: MemStorage) -> Session {
    new_session_with(storage, SessionConfig::default())
}

/// A session of the first built-in 13th Age encounter on `storage`, under `config`.
fn new_session_with(storage: MemStorage, config: SessionConfig) -> Session {
    let (name, text) = builtin_encounters("13th-age")[0];
    let encounter = load_encounter(name, text).expect("a built-in encounter");
    Session::create_with(
        storage,
        SessionId("pipeline".into()),
        encounter,
        secrets(),
        false,
        config,
    )
    .expect("a session")
}

/// A fight's first `n` commands (each accepted), played on a twin session, with the last
/// event seq of each and the GM's legal actions after each.
fn script(n: usize) -> Vec<(Command, u64, Vec<LegalAction>)> {
    let mut twin = new_session(MemStorage::new());
    // The bots play every seat; the GM sends every command.
    let seats = &twin.genesis().encounter.seats;
    let mut roles = vec![Role::Gm];
    roles.extend(seats.iter().map(|s| Role::Player {
        name: s.name.clone(),
        controls: s.controls.clone(),
    }));
    let mut out = Vec::new();
    let mut tick = 0;
    while out.len() < n {
        let state = twin.state();
        let command = if tick == 0 {
            Command::StartBattle
        } else {
            match crate::demo::bot::next_for_table(&state, &roles, tick) {
                Some((_, c)) => c,
                None => break,
            }
        };
        tick += 1;
        if twin.stage("gm", tick, &command).is_err() {
            continue;
        }
        twin.commit().expect("commit");
        let mut actions = twin.legal_actions(&Role::Gm);
        actions.retain(|a| authorize(&Role::Gm, &a.command).is_ok());
        out.push((command, twin.last_seq(), actions));
    }
    assert_eq!(out.len(), n, "the twin's fight lasts long enough");
    out
}

struct Client {
    conn: u64,
    out: mpsc::Receiver<Outbound>,
    kick: oneshot::Receiver<ErrorCode>,
}

impl Client {
    /// The next queue item's messages.
    async fn item(&mut self) -> Vec<ServerMessage> {
        let item = tokio::time::timeout(WAIT, self.out.recv())
            .await
            .expect("a message in time")
            .expect("the session still sends");
        decode(&item)
    }

    /// Whether nothing is queued for the client now.
    fn nothing_queued(&mut self) -> bool {
        matches!(
            self.out.try_recv(),
            Err(mpsc::error::TryRecvError::Empty | mpsc::error::TryRecvError::Disconnected)
        )
    }

    /// Messages until (and with) the `accepted` of `command_id`.
    async fn until_accepted(&mut self, command_id: u64) -> Vec<ServerMessage> {
        let mut got = Vec::new();
        loop {
            let item = self.item().await;
            let done = item.iter().any(
                |m| matches!(m, ServerMessage::Accepted { command_id: c, .. } if *c == command_id),
            );
            got.extend(item);
            if done {
                return got;
            }
        }
    }
}

fn decode(item: &Outbound) -> Vec<ServerMessage> {
    item.messages()
        .filter_map(|m| match m {
            Message::Text(t) => Some(serde_json::from_str(t).expect("a server message")),
            _ => None,
        })
        .collect()
}

async fn subscribe(handle: &SessionHandle, conn: u64, token: &str, role: Role) -> Client {
    let (out_tx, out) = mpsc::channel(SUBSCRIBER_QUEUE);
    let (kick_tx, kick) = oneshot::channel();
    let sub = Subscribe {
        conn,
        token: token.into(),
        role,
        encoding: Encoding::Json,
        resume_from: None,
        out: out_tx,
        kick: kick_tx,
        queued: Arc::new(AtomicUsize::new(0)),
    };
    send(handle, SessionMsg::Subscribe(Box::new(sub))).await;
    Client { conn, out, kick }
}

async fn send(handle: &SessionHandle, msg: SessionMsg) {
    if handle.tx.send(msg).await.is_err() {
        panic!("the session task is gone");
    }
}

async fn command(handle: &SessionHandle, client: &Client, id: u64, command: &Command) {
    let msg = SessionMsg::Command {
        conn: client.conn,
        id,
        command: command.clone(),
    };
    send(handle, msg).await;
}

/// Waits until a `sync` is held at the storage's gate.
async fn fsync_held(storage: &MemStorage) {
    let s = storage.clone();
    let held = tokio::task::spawn_blocking(move || s.wait_for_held_sync(WAIT))
        .await
        .expect("the waiter");
    assert!(held, "a group's fsync reached the disk");
}

/// Waits until the task has taken every message from its inbox: it is not stuck in an fsync.
async fn inbox_read(handle: &SessionHandle) {
    let deadline = Instant::now() + WAIT;
    while handle.tx.capacity() < INBOX {
        assert!(
            Instant::now() < deadline,
            "the session task reads its inbox"
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

/// A started session task on a storage the test holds, with a subscribed GM (its welcome and
/// snapshot read).
async fn started() -> (MemStorage, SessionHandle, Client) {
    let storage = MemStorage::new();
    let handle = spawn(
        new_session(storage.clone()),
        1,
        Weak::new(),
        Limits::default(),
    );
    let mut gm = subscribe(&handle, 1, GM, Role::Gm).await;
    let first = gm.item().await;
    assert!(matches!(first.first(), Some(ServerMessage::Welcome { .. })));
    (storage, handle, gm)
}

fn accepted(messages: &[ServerMessage]) -> Vec<(u64, u64, u64)> {
    messages
        .iter()
        .filter_map(|m| match m {
            ServerMessage::Accepted {
                command_id,
                first_seq,
                last_seq,
            } => Some((*command_id, *first_seq, *last_seq)),
            _ => None,
        })
        .collect()
}

fn event_seqs(messages: &[ServerMessage]) -> Vec<u64> {
    messages
        .iter()
        .filter_map(|m| match m {
            ServerMessage::Event { seq, .. } => Some(*seq),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_sent_while_a_groups_fsync_is_held_are_read_and_staged_as_the_next_group() {
    let steps = script(3);
    let (storage, handle, mut gm) = started().await;
    let syncs_before = storage.sync_count();
    storage.hold_syncs();
    command(&handle, &gm, 1, &steps[0].0).await;
    fsync_held(&storage).await;
    command(&handle, &gm, 2, &steps[1].0).await;
    command(&handle, &gm, 3, &steps[2].0).await;
    inbox_read(&handle).await;
    assert!(gm.nothing_queued(), "nothing answered before the fsync");
    storage.release_syncs();
    let got = gm.until_accepted(3).await;
    let ids: Vec<u64> = accepted(&got).iter().map(|a| a.0).collect();
    assert_eq!(ids, [1, 2, 3]);
    assert_eq!(accepted(&got)[2].2, steps[2].1);
    // Commands 2 and 3 were staged during the first fsync and written together: two fsyncs.
    assert_eq!(storage.sync_count() - syncs_before, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_accepted_and_no_event_reaches_any_client_before_its_groups_fsync_returns() {
    let steps = script(1);
    let (storage, handle, mut gm) = started().await;
    let mut spectator = subscribe(&handle, 2, SPECTATOR, Role::Spectator).await;
    spectator.item().await;
    storage.hold_syncs();
    command(&handle, &gm, 1, &steps[0].0).await;
    fsync_held(&storage).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(gm.nothing_queued(), "the GM has nothing before the fsync");
    assert!(
        spectator.nothing_queued(),
        "the spectator has nothing before the fsync"
    );
    storage.release_syncs();
    let gm_got = gm.item().await;
    assert_eq!(accepted(&gm_got), [(1, 1, steps[0].1)]);
    let seqs: Vec<u64> = (1..=steps[0].1).collect();
    assert_eq!(event_seqs(&gm_got), seqs);
    assert_eq!(event_seqs(&spectator.item().await), seqs);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledgements_and_events_arrive_in_command_order_across_groups() {
    let steps = script(8);
    let (storage, handle, mut gm) = started().await;
    storage.hold_syncs();
    command(&handle, &gm, 1, &steps[0].0).await;
    fsync_held(&storage).await;
    for (i, (c, _, _)) in steps.iter().enumerate().skip(1).take(3) {
        command(&handle, &gm, i as u64 + 1, c).await;
    }
    inbox_read(&handle).await;
    storage.release_syncs();
    for (i, (c, _, _)) in steps.iter().enumerate().skip(4) {
        command(&handle, &gm, i as u64 + 1, c).await;
    }
    let got = gm.until_accepted(8).await;
    let acks = accepted(&got);
    let ids: Vec<u64> = acks.iter().map(|a| a.0).collect();
    assert_eq!(ids, (1..=8).collect::<Vec<_>>());
    for (k, (_, first, last)) in acks.iter().enumerate() {
        let before = if k == 0 { 0 } else { steps[k - 1].1 };
        assert_eq!(
            (*first, *last),
            (before + 1, steps[k].1),
            "command {}",
            k + 1
        );
    }
    assert_eq!(event_seqs(&got), (1..=steps[7].1).collect::<Vec<_>>());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_fsync_acknowledges_nothing_of_its_group_nor_of_any_later_group() {
    let steps = script(3);
    let (storage, handle, mut gm) = started().await;
    storage.hold_syncs();
    command(&handle, &gm, 1, &steps[0].0).await;
    fsync_held(&storage).await;
    command(&handle, &gm, 2, &steps[1].0).await;
    command(&handle, &gm, 3, &steps[2].0).await;
    inbox_read(&handle).await;
    storage.fail_next_sync();
    storage.release_syncs();
    let kick = tokio::time::timeout(WAIT, &mut gm.kick).await;
    assert!(matches!(kick, Ok(Ok(ErrorCode::SessionUnavailable))));
    // Everything the session ever queued after the welcome, until it let the connection go.
    let mut after = Vec::new();
    while let Ok(Some(item)) = tokio::time::timeout(WAIT, gm.out.recv()).await {
        after.extend(decode(&item));
    }
    assert!(
        after.iter().all(|m| !matches!(
            m,
            ServerMessage::Accepted { .. } | ServerMessage::Event { .. }
        )),
        "nothing acknowledged: {after:?}"
    );
    // On the disk as a power loss leaves it, the log holds none of the three commands.
    storage.crash();
    let (reopened, _) = Session::open(storage, SessionConfig::default()).expect("the log reopens");
    assert_eq!(reopened.last_seq(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_query_or_hello_during_a_held_fsync_is_answered_after_it_from_the_durable_point() {
    let steps = script(1);
    let (storage, handle, mut gm) = started().await;
    storage.hold_syncs();
    command(&handle, &gm, 1, &steps[0].0).await;
    fsync_held(&storage).await;
    send(&handle, SessionMsg::Snapshot { conn: gm.conn }).await;
    let mut late = subscribe(&handle, 2, SPECTATOR, Role::Spectator).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(gm.nothing_queued() && late.nothing_queued());
    storage.release_syncs();
    let first = gm.item().await;
    assert_eq!(accepted(&first), [(1, 1, steps[0].1)]);
    let second = gm.item().await;
    assert!(
        matches!(second.as_slice(), [ServerMessage::Snapshot { seq, .. }] if *seq == steps[0].1),
        "{second:?}"
    );
    let welcome = late.item().await;
    assert!(
        matches!(welcome.first(), Some(ServerMessage::Welcome { seq, .. }) if *seq == steps[0].1),
        "{welcome:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_view_patch_and_legal_actions_sent_with_a_group_show_the_world_that_group_left() {
    let steps = script(3);
    let (storage, handle, mut gm) = started().await;
    let watch = SessionMsg::Watch {
        conn: gm.conn,
        views: true,
        legal_actions: true,
    };
    send(&handle, watch).await;
    gm.item().await;
    storage.hold_syncs();
    command(&handle, &gm, 1, &steps[0].0).await;
    fsync_held(&storage).await;
    command(&handle, &gm, 2, &steps[1].0).await;
    command(&handle, &gm, 3, &steps[2].0).await;
    inbox_read(&handle).await;
    storage.release_syncs();
    let mut from = 0;
    let mut before = None;
    for (k, id) in [(0, 1), (2, 3)] {
        let item = gm.until_accepted(id).await;
        let last = steps[k].1;
        let patch = item.iter().find_map(|m| match m {
            ServerMessage::ViewPatch { from_seq, seq, .. } => Some((*from_seq, *seq)),
            _ => None,
        });
        assert_eq!(patch, Some((from, last)), "the patch of the group to {id}");
        let actions = item.iter().find_map(|m| match m {
            ServerMessage::LegalActions { seq, actions } => Some((*seq, actions.clone())),
            _ => None,
        });
        // Sent when they changed; when they did not, they are those the group before left.
        let expected = (last, steps[k].2.clone());
        match actions {
            Some(actions) => assert_eq!(actions, expected, "actions after {id}"),
            None => assert_eq!(Some(&steps[k].2), before.as_ref(), "actions after {id}"),
        }
        before = Some(steps[k].2.clone());
        from = last;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rewind_sent_while_a_group_is_being_written_sees_that_group() {
    let steps = script(2);
    let (storage, handle, mut gm) = started().await;
    storage.hold_syncs();
    command(&handle, &gm, 1, &steps[0].0).await;
    fsync_held(&storage).await;
    command(&handle, &gm, 2, &steps[1].0).await;
    let back = Command::RewindTo { seq: steps[0].1 };
    command(&handle, &gm, 3, &back).await;
    inbox_read(&handle).await;
    storage.release_syncs();
    let got = gm.until_accepted(3).await;
    assert_eq!(accepted(&got).len(), 3, "{got:?}");
    let rewound = got.iter().any(|m| {
        matches!(m, ServerMessage::Event { event: fray_protocol::GameEvent::Rewound { to_seq, .. }, .. }
            if *to_seq == steps[0].1)
    });
    assert!(rewound, "{got:?}");
}

/// A task for `session`, not running, with `subscribers` connections (`Task::idle_wait`).
fn task_with(session: Session, subscribers: u64) -> Task {
    let mut subs = BTreeMap::new();
    for conn in 0..subscribers {
        let (out, _) = mpsc::channel(1);
        subs.insert(
            conn,
            Subscriber {
                token: GM.into(),
                role: Role::Gm,
                encoding: Encoding::Json,
                out,
                kick: None,
                queued: Arc::new(AtomicUsize::new(0)),
                views: false,
                actions: None,
                revoked: false,
            },
        );
    }
    let info = Arc::new(Mutex::new(SessionInfo {
        number: 1,
        session: session.genesis().session.0.clone(),
        ruleset: session.genesis().ruleset.clone(),
        title: String::new(),
        demo: false,
        phase: session.status().0,
        seq: 0,
        spectator_token: None,
    }));
    Task {
        session,
        subscribers: subs,
        info,
        registry: Weak::new(),
        limits: Limits::default(),
        unwatched_since: None,
        views: Views::default(),
        auto_more: false,
        writing: None,
    }
}

#[test]
fn a_connected_session_with_nothing_to_sync_sets_no_idle_timer_and_an_unwatched_one_does() {
    let connected = task_with(new_session(MemStorage::new()), 2);
    assert_eq!(connected.idle_wait(Instant::now()), None, "no timer at all");
    let alone = task_with(new_session(MemStorage::new()), 0);
    let wait = alone.idle_wait(Instant::now());
    assert_eq!(wait, Some(UNWATCHED_TICK), "retention is checked");
    let long_ago = Instant::now() - Limits::default().hibernate_after;
    assert_eq!(
        alone.idle_wait(long_ago),
        Some(Duration::ZERO),
        "hibernation is due"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_the_interval_policy_a_group_left_unsynced_is_synced_by_the_idle_timer() {
    let config = SessionConfig {
        fsync: crate::log::FsyncPolicy::Interval(Duration::from_secs(2)),
        ..SessionConfig::default()
    };
    let storage = MemStorage::new();
    let session = new_session_with(storage.clone(), config);
    let handle = spawn(session, 1, Weak::new(), Limits::default());
    let mut gm = subscribe(&handle, 1, GM, Role::Gm).await;
    gm.item().await;
    // Two groups within the interval: the second is appended without a sync.
    let steps = script(2);
    for (i, (c, ..)) in steps.iter().enumerate() {
        let id = i as u64 + 1;
        command(&handle, &gm, id, c).await;
        gm.until_accepted(id).await;
    }
    let before = storage.sync_count();
    let deadline = Instant::now() + WAIT;
    while storage.sync_count() == before {
        assert!(Instant::now() < deadline, "the idle timer synced the log");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
