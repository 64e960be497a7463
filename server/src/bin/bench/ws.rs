//! The `ws` scenario (end to end over loopback WebSockets, open loop) and the pieces that the
//! `peers` scenario (closed loop, `peers.rs`) shares with it: the fight played in advance
//! (`Script`), the spectators, the GM's driver, the Fray server run and the bare
//! tokio-tungstenite relay.

use crate::{Args, Bot, Next, Report, Target, scaled};
use anyhow::{Context, Result, bail};
use fray_protocol::codec::{Encoding, encode};
use fray_protocol::ids::SessionId;
use fray_protocol::message::SUBPROTOCOL_JSON;
use fray_protocol::{PROTOCOL_VERSION, ServerMessage};
use fray_server::content::model::Encounter;
use fray_server::log::{FsyncPolicy, MemStorage};
use fray_server::session::{Session, SessionConfig};
use futures_util::{SinkExt, StreamExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::net::{TcpListener, TcpStream};
use tokio::runtime::Handle;
use tokio::sync::Notify;
use tokio::sync::mpsc::{self, error::TrySendError};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

pub(crate) type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;
pub(crate) type WsSink = futures_util::stream::SplitSink<Ws, Message>;

/// The whole fight, played in advance on a local `Session` (same encounter, seed and engine as
/// the server's): per tick, the GM's command frame, the frames a spectator receives (the relay
/// forwards these very frames), and the sequence number of the tick's last event.
pub(crate) struct Script {
    pub(crate) commands: Vec<Message>,
    pub(crate) frames: Vec<Vec<Message>>,
    pub(crate) first_seq: Vec<u64>,
    pub(crate) last_seq: Vec<u64>,
    pub(crate) events: u64,
    pub(crate) frame_bytes: u64,
}

impl Script {
    pub(crate) fn len(&self) -> usize {
        self.commands.len()
    }
}

pub(crate) fn text(frame: fray_protocol::codec::Frame) -> Message {
    match frame {
        fray_protocol::codec::Frame::Text(s) => Message::Text(s.into()),
        fray_protocol::codec::Frame::Binary(b) => Message::Binary(b.into()),
    }
}

pub(crate) fn ws_script(encounter: &Encounter, seed: u64, ticks: usize) -> Result<Script> {
    let mut session = Session::create(
        MemStorage::new(),
        SessionId("ws-script".into()),
        encounter.clone(),
        Some(seed),
        false,
        SessionConfig {
            fsync: FsyncPolicy::Never,
            ..SessionConfig::default()
        },
    )?;
    let mut bot = Bot::new(session.engine())?;
    let mut script = Script {
        commands: Vec::with_capacity(ticks),
        frames: Vec::with_capacity(ticks),
        first_seq: Vec::with_capacity(ticks),
        last_seq: Vec::with_capacity(ticks),
        events: 0,
        frame_bytes: 0,
    };
    while script.len() < ticks {
        let command = match bot.next(session.engine()) {
            Next::Command(c) => c,
            Next::Over => break,
        };
        let id = script.len() as u64 + 1;
        let events = match session.stage("gm", id, &command) {
            Ok(staged) => staged.events,
            Err(r) => {
                bot.rejected(&command, &r)?;
                continue;
            }
        };
        session.commit()?;
        let (Some(first), Some(last)) = (events.first(), events.last()) else {
            bail!("tick {id} has no events");
        };
        script.first_seq.push(first.seq);
        script.last_seq.push(last.seq);
        let mut frames = Vec::with_capacity(events.len());
        for e in &events {
            let msg = ServerMessage::Event {
                seq: e.seq,
                tick: e.tick,
                event: e.event.redacted(|c| session.is_monster(c)),
            };
            let m = text(encode(&msg, Encoding::Json)?);
            script.frame_bytes += m.len() as u64;
            frames.push(m);
        }
        script.events += events.len() as u64;
        script.frames.push(frames);
        script.commands.push(text(encode(
            &fray_protocol::ClientMessage::Command { id, command },
            Encoding::Json,
        )?));
    }
    Ok(script)
}

/// `(seq, tick)` of an event frame: the prefix of `{"event":{"seq":S,"tick":T,...`, else a full
/// decode. Spectators do only this, so that their CPU (which shares the two cores with the
/// server) goes to the sockets rather than to JSON.
pub(crate) fn event_ids(t: &str) -> Option<(u64, u64)> {
    let fast = || -> Option<(u64, u64)> {
        let rest = t.strip_prefix(r#"{"event":{"seq":"#)?;
        let (seq, rest) = rest.split_once(',')?;
        let rest = rest.strip_prefix(r#""tick":"#)?;
        let end = rest.find(|c: char| !c.is_ascii_digit())?;
        Some((seq.parse().ok()?, rest[..end].parse().ok()?))
    };
    fast().or_else(
        || match fray_protocol::codec::decode_server(t.as_bytes(), Encoding::Json) {
            Ok(ServerMessage::Event { seq, tick, .. }) => Some((seq, tick)),
            _ => None,
        },
    )
}

/// State shared by the driver and the spectators of one run.
pub(crate) struct Shared {
    /// Per spectator: ticks whose last event it has received (delivery is in order).
    done: Vec<AtomicU64>,
    notify: Notify,
    /// Set when the driver has sent everything it will send.
    finished: AtomicBool,
    sent: AtomicU64,
    /// Ticks acknowledged to the GM (`accepted`, or the relay's ack; in order).
    acked: AtomicU64,
    /// Whether a tick leaves the driver's window only once the GM also has its
    /// acknowledgement (the closed loop of `peers`), not only every spectator its last event.
    wait_ack: bool,
}

impl Shared {
    pub(crate) fn new(n: usize, wait_ack: bool) -> Shared {
        Shared {
            done: (0..n).map(|_| AtomicU64::new(0)).collect(),
            notify: Notify::new(),
            finished: AtomicBool::new(false),
            sent: AtomicU64::new(0),
            acked: AtomicU64::new(0),
            wait_ack,
        }
    }
    /// Ticks complete: received in full by every spectator and, with `wait_ack`, acknowledged
    /// to the GM.
    fn progress(&self) -> u64 {
        let done = self.min_done();
        if self.wait_ack {
            done.min(self.acked.load(Ordering::Acquire))
        } else {
            done
        }
    }
    fn min_done(&self) -> u64 {
        self.done
            .iter()
            .map(|d| d.load(Ordering::Acquire))
            .min()
            .unwrap_or(0)
    }
}

/// What one spectator saw: per tick, when the tick's last event arrived.
pub(crate) struct Seen {
    pub(crate) at: Vec<Option<Instant>>,
    pub(crate) events: u64,
    /// Frames that were not events (e.g. an `error` when the server dropped it as lagging).
    pub(crate) other: u64,
}

pub(crate) async fn spectate(
    mut ws: Ws,
    script: Arc<Script>,
    shared: Arc<Shared>,
    me: usize,
) -> Seen {
    let mut seen = Seen {
        at: vec![None; script.len()],
        events: 0,
        other: 0,
    };
    let mut give_up: Option<Instant> = None;
    loop {
        match tokio::time::timeout(Duration::from_millis(50), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                let now = Instant::now();
                match event_ids(t.as_str()) {
                    Some((seq, tick)) if tick >= 1 && tick as usize <= script.len() => {
                        seen.events += 1;
                        let k = tick as usize - 1;
                        if seq == script.last_seq[k] {
                            seen.at[k] = Some(now);
                            shared.done[me].store(tick, Ordering::Release);
                            shared.notify.notify_one();
                        }
                    }
                    _ => seen.other += 1,
                }
            }
            Ok(Some(Ok(Message::Close(_))) | Some(Err(_)) | None) => break,
            Ok(Some(Ok(_))) | Err(_) => {}
        }
        if shared.finished.load(Ordering::Acquire) {
            if shared.done[me].load(Ordering::Acquire) >= shared.sent.load(Ordering::Acquire) {
                break;
            }
            let limit = *give_up.get_or_insert_with(|| Instant::now() + Duration::from_secs(3));
            if Instant::now() > limit {
                break;
            }
        }
    }
    let _ = ws.close(None).await;
    seen
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum Drive {
    /// Open loop: one command every 1/rate s, whatever happens.
    Rate(f64),
    /// As fast as the slowest spectator allows: at most this many ticks sent but not yet
    /// received in full by every spectator (and, when `Shared::wait_ack`, acknowledged to the
    /// GM).
    Window(u64),
}

/// Sends the script's ticks; returns the send instants (one per tick sent).
pub(crate) async fn drive(
    sink: &mut WsSink,
    frames: impl Fn(usize) -> Vec<Message>,
    available: usize,
    mode: Drive,
    budget: Duration,
    shared: &Shared,
) -> Result<Vec<Instant>> {
    let start = Instant::now();
    let mut sent = Vec::new();
    let limit = match mode {
        Drive::Rate(r) => available.min((r * budget.as_secs_f64()).ceil() as usize),
        Drive::Window(_) => available,
    };
    let mut next_report = start + Duration::from_secs(1);
    for i in 0..limit {
        match mode {
            Drive::Rate(r) => {
                tokio::time::sleep_until((start + Duration::from_secs_f64(i as f64 / r)).into())
                    .await;
            }
            Drive::Window(w) => {
                if start.elapsed() >= budget {
                    break;
                }
                // The window may never open (a spectator dropped, a command rejected): the
                // run still ends with its budget.
                let deadline = tokio::time::Instant::from_std(start + budget);
                let waiting = Instant::now();
                let mut out_of_time = false;
                while (i as u64).saturating_sub(shared.progress()) >= w {
                    let woken = tokio::time::timeout_at(deadline, shared.notify.notified()).await;
                    if woken.is_err() {
                        out_of_time = true;
                        break;
                    }
                }
                if out_of_time {
                    // Usually the end of the run in the middle of a wait; a long wait is not.
                    if waiting.elapsed() > Duration::from_secs(1) {
                        eprintln!(
                            "    warning: the window stayed full for the last {:.1} s of the run ({} ticks sent, {} complete)",
                            waiting.elapsed().as_secs_f64(),
                            sent.len(),
                            shared.progress()
                        );
                    }
                    break;
                }
            }
        }
        let t = Instant::now();
        for m in frames(i) {
            sink.feed(m).await?;
        }
        sink.flush().await?;
        sent.push(t);
        shared.sent.store(sent.len() as u64, Ordering::Release);
        if t >= next_report {
            eprintln!(
                "    {:.0} s: {} ticks sent, slowest spectator at {}",
                t.duration_since(start).as_secs_f64(),
                sent.len(),
                shared.min_done()
            );
            next_report += Duration::from_secs(1);
        }
    }
    shared.finished.store(true, Ordering::Release);
    Ok(sent)
}

#[derive(Default)]
struct WsRun {
    sent: u64,
    send_secs: f64,
    /// First send to the last receipt anywhere.
    span_secs: f64,
    /// Latency of each (tick, spectator) pair, µs.
    latencies: Vec<f64>,
    missing: u64,
    events: u64,
    other: u64,
    accepted: u64,
    rejected: u64,
    seq_mismatch: u64,
}

fn summarize(sent: &[Instant], seen: &[Seen]) -> WsRun {
    let mut run = WsRun {
        sent: sent.len() as u64,
        ..WsRun::default()
    };
    let (Some(&first), Some(&last)) = (sent.first(), sent.last()) else {
        return run;
    };
    run.send_secs = (last - first).as_secs_f64();
    let mut end = last;
    run.latencies.reserve(sent.len() * seen.len());
    for s in seen {
        run.events += s.events;
        run.other += s.other;
        for (t0, at) in sent.iter().zip(&s.at) {
            match at {
                Some(t) => {
                    run.latencies
                        .push(t.duration_since(*t0).as_secs_f64() * 1e6);
                    end = end.max(*t);
                }
                None => run.missing += 1,
            }
        }
    }
    run.span_secs = (end - first).as_secs_f64();
    run.latencies.sort_unstable_by(f64::total_cmp);
    run
}

pub(crate) async fn connect(url: &str, subprotocol: Option<&'static str>) -> Result<Ws> {
    let mut req = url.into_client_request()?;
    if let Some(p) = subprotocol {
        req.headers_mut()
            .insert("Sec-WebSocket-Protocol", HeaderValue::from_static(p));
    }
    // The bench's own sockets never wait for Nagle (the server's are as the server sets them).
    let (ws, _) = tokio_tungstenite::connect_async_with_config(req, None, true).await?;
    Ok(ws)
}

/// Hello, then wait for `welcome` and the `snapshot`.
pub(crate) async fn fray_hello(ws: &mut Ws, token: &str) -> Result<()> {
    let hello = fray_protocol::ClientMessage::Hello {
        protocol: PROTOCOL_VERSION,
        token: token.to_owned(),
        resume_from: None,
    };
    ws.send(text(encode(&hello, Encoding::Json)?)).await?;
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .context("no snapshot after hello")?
            .context("closed after hello")??;
        if let Message::Text(t) = m {
            match fray_protocol::codec::decode_server(t.as_bytes(), Encoding::Json)? {
                ServerMessage::Snapshot { .. } => return Ok(()),
                ServerMessage::Welcome { .. } => {}
                other => bail!("unexpected answer to hello: {other:?}"),
            }
        }
    }
}

/// A ws run: label, the Fray server's (session config, TCP_NODELAY) or `None` for the relay,
/// and how the commands are sent.
type Variant = (String, Option<(SessionConfig, bool)>, Drive);

/// Which server a Fray run starts: where its sessions live, their configuration, and whether
/// the accepted sockets get TCP_NODELAY.
pub(crate) struct FrayServer {
    pub(crate) dir: PathBuf,
    pub(crate) config: SessionConfig,
    pub(crate) nodelay: bool,
}

/// What the GM's connection received: acknowledgements (`accepted` from Fray, the echoed
/// marker from the relay), checked against the script, and when each arrived.
#[derive(Default)]
pub(crate) struct Acks {
    pub(crate) accepted: u64,
    pub(crate) rejected: u64,
    /// `accepted` whose sequence numbers differ from the script's (another fight).
    pub(crate) mismatch: u64,
    /// Per tick: when its acknowledgement arrived.
    pub(crate) at: Vec<Option<Instant>>,
}

/// Everything a run observed, before any statistics.
pub(crate) struct Raw {
    /// The instant just before each tick was sent.
    pub(crate) sent: Vec<Instant>,
    /// One per spectator.
    pub(crate) seen: Vec<Seen>,
    pub(crate) acks: Acks,
}

/// Drains the GM's feed (its unredacted events, which must be read anyway) and records the
/// acknowledgements: `accepted`/`rejected` text frames from Fray, or the relay's echo of the
/// binary marker (the tick number, 8 bytes little-endian) that follows a tick's frames.
async fn read_acks(
    mut stream: futures_util::stream::SplitStream<Ws>,
    script: Arc<Script>,
    shared: Arc<Shared>,
) -> Acks {
    let mut acks = Acks {
        at: vec![None; script.len()],
        ..Acks::default()
    };
    let ack = |tick: u64, now: Instant, acks: &mut Acks| {
        if let Some(slot) = (tick as usize)
            .checked_sub(1)
            .and_then(|k| acks.at.get_mut(k))
        {
            *slot = Some(now);
        }
        shared.acked.fetch_max(tick, Ordering::AcqRel);
        shared.notify.notify_one();
    };
    while let Some(Ok(m)) = stream.next().await {
        let now = Instant::now();
        match m {
            Message::Text(t) => {
                if t.starts_with(r#"{"event""#) {
                    continue;
                }
                match fray_protocol::codec::decode_server(t.as_bytes(), Encoding::Json) {
                    Ok(ServerMessage::Accepted {
                        command_id,
                        first_seq,
                        last_seq,
                    }) => {
                        acks.accepted += 1;
                        let k = (command_id as usize).wrapping_sub(1);
                        if script.first_seq.get(k) != Some(&first_seq)
                            || script.last_seq.get(k) != Some(&last_seq)
                        {
                            acks.mismatch += 1;
                        }
                        ack(command_id, now, &mut acks);
                    }
                    Ok(ServerMessage::Rejected { .. }) => acks.rejected += 1,
                    _ => {}
                }
            }
            Message::Binary(b) => {
                if let Ok(bytes) = <[u8; 8]>::try_from(&b[..]) {
                    acks.accepted += 1;
                    ack(u64::from_le_bytes(bytes), now, &mut acks);
                }
            }
            _ => {}
        }
    }
    acks
}

/// With `wait_ack`, waits (at most 3 s) until the GM has every acknowledgement, so that closing
/// its connection cannot lose the last ones.
async fn await_acks(shared: &Shared, sent: usize) {
    if !shared.wait_ack {
        return;
    }
    let _ = tokio::time::timeout(Duration::from_secs(3), async {
        while shared.acked.load(Ordering::Acquire) < sent as u64 {
            shared.notify.notified().await;
        }
    })
    .await;
}

/// A listening socket on a free loopback port, registered with the server's runtime (`host`),
/// so that its accepts and connections are driven there whatever runtime calls this.
fn bind_on(host: &Handle) -> Result<(TcpListener, std::net::SocketAddr)> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    listener.set_nonblocking(true)?;
    let addr = listener.local_addr()?;
    let _on_host = host.enter();
    Ok((TcpListener::from_std(listener)?, addr))
}

/// One run against the real server: a fresh registry with `config`, one session, `n`
/// spectators and a GM connection. With `wait_ack` the driver's window also waits for the
/// GM's `accepted` (closed loop).
#[allow(clippy::too_many_arguments)]
pub(crate) async fn ws_fray(
    host: &Handle,
    server: FrayServer,
    encounter: &Encounter,
    seed: u64,
    script: Arc<Script>,
    n: usize,
    mode: Drive,
    budget: Duration,
    wait_ack: bool,
) -> Result<Raw> {
    let FrayServer {
        dir,
        config,
        nodelay,
    } = server;
    // The bench's GM and spectators are the server's own clients: no rate or connection cap.
    let limits = fray_server::net::limits::Limits {
        messages_per_second: u32::MAX / 2,
        message_burst: u32::MAX / 2,
        connections_per_session: n + 8,
        connections_per_token: n + 8,
        ..Default::default()
    };
    let registry = fray_server::net::Registry::with_limits(dir, config, limits);
    let (listener, addr) = bind_on(host)?;
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let stop = async move {
        let _ = stop_rx.await;
    };
    // `net::serve` sets TCP_NODELAY on every socket since issue 19: the `nodelay` variant is
    // the same server now (kept so that old and new tables line up).
    let _ = nodelay;
    let admin = fray_server::net::admin::AdminKey::new("bench-operator-key-000000");
    // The server, its connections and its session task run on `host`'s runtime.
    let server = host.spawn(fray_server::net::serve(
        listener,
        registry.clone(),
        admin,
        stop,
    ));
    let created = {
        let _on_host = host.enter();
        registry.create(encounter.clone(), Some(seed), false)?
    };
    let url = format!("ws://{addr}/ws");
    let shared = Arc::new(Shared::new(n, wait_ack));
    let mut spectators = Vec::with_capacity(n);
    for i in 0..n {
        let mut ws = connect(&url, Some(SUBPROTOCOL_JSON)).await?;
        fray_hello(&mut ws, &created.tokens.spectator).await?;
        spectators.push(tokio::spawn(spectate(
            ws,
            script.clone(),
            shared.clone(),
            i,
        )));
    }
    let mut gm = connect(&url, Some(SUBPROTOCOL_JSON)).await?;
    fray_hello(&mut gm, &created.tokens.gm).await?;
    let (mut sink, stream) = gm.split();
    // The GM's own feed (acknowledgements, unredacted events) must be drained, and the
    // acknowledgements tell whether the server played the same fight as the script.
    let acks = tokio::spawn(read_acks(stream, script.clone(), shared.clone()));
    let sent = drive(
        &mut sink,
        |i| vec![script.commands[i].clone()],
        script.len(),
        mode,
        budget,
        &shared,
    )
    .await?;
    let mut seen = Vec::with_capacity(n);
    for s in spectators {
        seen.push(s.await?);
    }
    await_acks(&shared, sent.len()).await;
    let _ = sink.close().await;
    let acks = tokio::time::timeout(Duration::from_secs(5), acks)
        .await
        .unwrap_or(Ok(Acks::default()))?;
    let _ = stop_tx.send(());
    if tokio::time::timeout(Duration::from_secs(10), server)
        .await
        .is_err()
    {
        eprintln!("    warning: the server did not shut down within 10 s");
    }
    Ok(Raw { sent, seen, acks })
}

/// The baseline: a bare tokio-tungstenite relay. A client's first text message says `sub` or
/// `pub`; every text message from a `pub` goes to every `sub` (a bounded queue each, written
/// by its own task, flushed when the queue runs dry). No game work, no encoding. A binary
/// message from a `pub` is not relayed: it is echoed back to the `pub` once the text messages
/// before it are queued to every `sub` — the acknowledgement of the closed loop (`peers`).
pub(crate) async fn relay_serve(listener: TcpListener) {
    let subs: Arc<std::sync::Mutex<Vec<mpsc::Sender<Message>>>> = Arc::default();
    while let Ok((stream, _)) = listener.accept().await {
        let subs = subs.clone();
        tokio::spawn(async move {
            let _ = stream.set_nodelay(true);
            let Ok(mut ws) = tokio_tungstenite::accept_async(stream).await else {
                return;
            };
            let role = match ws.next().await {
                Some(Ok(Message::Text(t))) => t.to_string(),
                _ => return,
            };
            if role == "sub" {
                let (tx, mut rx) = mpsc::channel::<Message>(4096);
                if let Ok(mut s) = subs.lock() {
                    s.push(tx);
                }
                if ws.send(Message::text("ok")).await.is_err() {
                    return;
                }
                while let Some(m) = rx.recv().await {
                    if ws.feed(m).await.is_err() {
                        return;
                    }
                    while let Ok(m) = rx.try_recv() {
                        if ws.feed(m).await.is_err() {
                            return;
                        }
                    }
                    if ws.flush().await.is_err() {
                        return;
                    }
                }
            } else {
                while let Some(Ok(m)) = ws.next().await {
                    match m {
                        Message::Text(_) => {
                            if let Ok(mut s) = subs.lock() {
                                s.retain(|tx| {
                                    !matches!(tx.try_send(m.clone()), Err(TrySendError::Closed(_)))
                                });
                            }
                        }
                        Message::Binary(b) => {
                            // The closed loop's acknowledgement (after the frames before it).
                            let echoed = ws.send(Message::Binary(b)).await;
                            if echoed.is_err() {
                                return;
                            }
                        }
                        _ => {}
                    }
                }
            }
        });
    }
}

/// One run against the relay, fed the script's spectator frames. With `wait_ack` each tick's
/// frames are followed by the binary marker that the relay echoes, and the driver's window
/// also waits for that acknowledgement (closed loop).
pub(crate) async fn ws_relay(
    host: &Handle,
    script: Arc<Script>,
    n: usize,
    mode: Drive,
    budget: Duration,
    wait_ack: bool,
) -> Result<Raw> {
    let (listener, addr) = bind_on(host)?;
    let url = format!("ws://{addr}/");
    // The relay and its connections run on `host`'s runtime.
    let relay = host.spawn(relay_serve(listener));
    let shared = Arc::new(Shared::new(n, wait_ack));
    let mut spectators = Vec::with_capacity(n);
    for i in 0..n {
        let mut ws = connect(&url, None).await?;
        ws.send(Message::text("sub")).await?;
        match tokio::time::timeout(Duration::from_secs(10), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) if t.as_str() == "ok" => {}
            other => bail!("relay subscription failed: {other:?}"),
        }
        spectators.push(tokio::spawn(spectate(
            ws,
            script.clone(),
            shared.clone(),
            i,
        )));
    }
    let mut producer = connect(&url, None).await?;
    producer.send(Message::text("pub")).await?;
    let (mut sink, stream) = producer.split();
    let acks = tokio::spawn(read_acks(stream, script.clone(), shared.clone()));
    let sent = drive(
        &mut sink,
        |i| {
            let mut frames = script.frames[i].clone();
            if wait_ack {
                let tick = i as u64 + 1;
                frames.push(Message::Binary(tick.to_le_bytes().to_vec().into()));
            }
            frames
        },
        script.len(),
        mode,
        budget,
        &shared,
    )
    .await?;
    let mut seen = Vec::with_capacity(n);
    for s in spectators {
        seen.push(s.await?);
    }
    await_acks(&shared, sent.len()).await;
    let _ = sink.close().await;
    relay.abort();
    let acks = tokio::time::timeout(Duration::from_secs(2), acks)
        .await
        .unwrap_or(Ok(Acks::default()))?;
    Ok(Raw { sent, seen, acks })
}

pub(crate) fn scenario_ws(
    args: &Args,
    root: &Path,
    encounter: &Encounter,
    report: &mut Report,
) -> Result<()> {
    let s = "ws";
    let n = args.spectators.max(1);
    let budget = Duration::from_secs_f64((args.seconds / 2.0).max(0.5));
    let long = scaled(encounter, args.hp_scale.saturating_mul(10));
    let want = ((args.rate * budget.as_secs_f64()) as usize).max(args.ws_ticks);
    eprintln!(
        "ws: playing the fight in advance (hp x{}, up to {want} ticks) …",
        args.hp_scale.saturating_mul(10)
    );
    let script = Arc::new(ws_script(&long, args.seed, want)?);
    if script.len() < want {
        eprintln!(
            "ws: warning: the fight ended after {} ticks (wanted {want})",
            script.len()
        );
    }
    let events_per_tick = script.events as f64 / script.len().max(1) as f64;
    report.add(s, "events per command", events_per_tick, "ev");
    report.add(
        s,
        "ServerMessage::Event JSON frame (spectator copy)",
        script.frame_bytes as f64 / script.events.max(1) as f64,
        "B",
    );
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let rate = Drive::Rate(args.rate);
    let window = Drive::Window(args.window);
    let never = SessionConfig {
        fsync: FsyncPolicy::Never,
        ..SessionConfig::default()
    };
    let always = SessionConfig::default();
    // (label, (session config, TCP_NODELAY on the server's sockets) or the relay, drive)
    let mut variants: Vec<Variant> = Vec::new();
    for (mode, how) in [
        (rate, format!("{} cmd/s", args.rate)),
        (window, format!("unthrottled (window {})", args.window)),
    ] {
        variants.push((
            format!("fray fsync never, {how}"),
            Some((never.clone(), false)),
            mode,
        ));
        variants.push((format!("relay, {how}"), None, mode));
        variants.push((
            format!("fray fsync never + TCP_NODELAY, {how}"),
            Some((never.clone(), true)),
            mode,
        ));
        variants.push((
            format!("fray fsync always, {how}"),
            Some((always.clone(), false)),
            mode,
        ));
    }
    let mut throughput = Vec::new();
    for (i, (label, fray, mode)) in variants.into_iter().enumerate() {
        eprintln!(
            "ws ({label}, {n} spectators): {:.1} s …",
            budget.as_secs_f64()
        );
        let is_fray = fray.is_some();
        let raw = match fray {
            Some((config, nodelay)) => rt.block_on(ws_fray(
                rt.handle(),
                FrayServer {
                    dir: root.join(format!("ws-{i}")),
                    config,
                    nodelay,
                },
                &long,
                args.seed,
                script.clone(),
                n,
                mode,
                budget,
                false,
            ))?,
            None => rt.block_on(ws_relay(
                rt.handle(),
                script.clone(),
                n,
                mode,
                budget,
                false,
            ))?,
        };
        let mut run = summarize(&raw.sent, &raw.seen);
        run.accepted = raw.acks.accepted;
        run.rejected = raw.acks.rejected;
        run.seq_mismatch = raw.acks.mismatch;
        let pct = |p: f64| {
            run.latencies
                .get(((run.latencies.len().max(1) - 1) as f64 * p) as usize)
                .map_or(f64::NAN, |v| v / 1000.0)
        };
        let p99_target = match mode {
            Drive::Rate(r) if is_fray && (r - 1000.0).abs() < 0.5 && n == 100 => {
                Some(Target::AtMost(2.0))
            }
            _ => None,
        };
        let cmds = run.sent as f64 / run.send_secs.max(1e-9);
        let delivered = run.events as f64 / run.span_secs.max(1e-9);
        report.add(s, format!("{label}: commands sent"), run.sent as f64, "cmd");
        report.add(s, format!("{label}: commands/s sent"), cmds, "cmd/s");
        report.add(
            s,
            format!("{label}: events/s delivered (all spectators)"),
            delivered,
            "ev/s",
        );
        report.add(s, format!("{label}: latency p50"), pct(0.5), "ms");
        report.push(
            s,
            format!("{label}: latency p99"),
            pct(0.99),
            "ms",
            p99_target,
        );
        report.add(s, format!("{label}: latency max"), pct(1.0), "ms");
        report.add(
            s,
            format!("{label}: (command, spectator) pairs not delivered"),
            run.missing as f64,
            "pairs",
        );
        if run.other > 0 {
            report.add(
                s,
                format!("{label}: non-event frames at spectators"),
                run.other as f64,
                "frames",
            );
        }
        if is_fray {
            if run.rejected > 0 || run.seq_mismatch > 0 || run.accepted != run.sent {
                eprintln!(
                    "    warning: {} accepted, {} rejected, {} with other sequence numbers than the script, of {} sent",
                    run.accepted, run.rejected, run.seq_mismatch, run.sent
                );
            }
            report.add(
                s,
                format!("{label}: commands accepted"),
                run.accepted as f64,
                "cmd",
            );
        }
        if let Drive::Window(_) = mode {
            throughput.push(delivered);
        }
    }
    if let [fray, relay, nodelay, always] = throughput[..] {
        report.push(
            s,
            "throughput ratio fray (fsync never) / relay, events delivered/s unthrottled",
            fray / relay,
            "×",
            Some(Target::AtLeast(0.8)),
        );
        report.add(
            s,
            "throughput ratio fray (fsync never, TCP_NODELAY) / relay, events delivered/s unthrottled",
            nodelay / relay,
            "×",
        );
        report.add(
            s,
            "throughput ratio fray (fsync always) / relay, events delivered/s unthrottled",
            always / relay,
            "×",
        );
    }
    rt.shutdown_timeout(Duration::from_secs(2));
    Ok(())
}
