//! One WebSocket connection: greets with `hello`, subscribes to its session, forwards commands,
//! and writes what the session sends. Bad frames get an `error` with a reason code and the
//! connection stays up; hostile input (an oversize frame, a flood of bad frames) closes it.
//! Messages beyond the connection's rate ([`Limits`](super::limits::Limits)) are dropped with
//! `rate_limited`; as many of those in a row as bad frames close it as a flood.

use super::limits::Bucket;
use super::listener::Handshake;
use super::registry::Registry;
use super::session_task::{Outbound, SUBSCRIBER_QUEUE, SessionHandle, SessionMsg, Subscribe};
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use fray_protocol::codec::{CodecError, Encoding, MAX_CLIENT_FRAME, decode_client, encode};
use fray_protocol::{ClientMessage, ErrorCode, PROTOCOL_VERSION, ServerMessage};
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;
use tokio::sync::{mpsc, oneshot};

/// Consecutive bad (or rate-limited) frames before the connection is closed as a flood.
const MAX_BAD_FRAMES: u32 = 16;

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

type Sink = futures_util::stream::SplitSink<WebSocket, Message>;

async fn send(sink: &mut Sink, enc: Encoding, msg: &ServerMessage) -> bool {
    let frame = match encode(msg, enc) {
        Ok(fray_protocol::codec::Frame::Text(s)) => Message::Text(s.into()),
        Ok(fray_protocol::codec::Frame::Binary(b)) => Message::Binary(b.into()),
        Err(_) => return false,
    };
    sink.send(frame).await.is_ok()
}

async fn error(
    sink: &mut Sink,
    enc: Encoding,
    code: ErrorCode,
    message: impl Into<String>,
) -> bool {
    send(
        sink,
        enc,
        &ServerMessage::Error {
            code,
            message: message.into(),
        },
    )
    .await
}

async fn close(sink: &mut Sink, reason: &str) {
    let _ = sink
        .send(Message::Close(Some(CloseFrame {
            code: 1008,
            reason: reason.to_owned().into(),
        })))
        .await;
}

fn kick_message(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::Lagging => {
            "fell too far behind; reconnect with resume_from to catch up from the log"
        }
        ErrorCode::ResumeOutOfRange => "resume_from is beyond the last event of the session",
        ErrorCode::TooManyConnections => {
            "the session, or this token, already has as many connections as the server allows"
        }
        ErrorCode::TokenRevoked => "the GM issued a new token for this seat; this one was revoked",
        _ => "the session is unavailable",
    }
}

/// Most queue items written before one flush (fairness under a steady stream).
const MAX_ITEMS_PER_FLUSH: usize = 64;

/// Writes `first` and everything else already queued, then flushes once: on a no-delay socket a
/// command's events and its `accepted` leave in one write. Returns false when the socket is gone.
async fn write_queued(sink: &mut Sink, first: Outbound, queue: &mut Queue) -> bool {
    let mut next = Some(first);
    let mut items = 0;
    while let Some(out) = next.take() {
        queue.written(&out);
        for m in out.messages() {
            // Cloning a message clones a reference to its shared bytes, not the bytes.
            if sink.feed(m.clone()).await.is_err() {
                return false;
            }
        }
        items += 1;
        if items < MAX_ITEMS_PER_FLUSH {
            next = queue.try_recv();
        }
    }
    sink.flush().await.is_ok()
}

/// How long a dropped subscriber's close handshake may take.
const CLOSE_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// After a close frame to a client that is still in good standing (lagging, a cap, the session
/// gone): reads and discards what the client still sends until its close answer, for at most
/// [`CLOSE_GRACE`]. Dropping a socket whose incoming bytes were never read makes the kernel
/// reset the connection, and a reset discards what the client had not read yet — the very
/// `error` that says why it was dropped.
async fn drain(stream: &mut futures_util::stream::SplitStream<WebSocket>) {
    let until_close = async {
        while let Some(Ok(m)) = stream.next().await {
            if matches!(m, Message::Close(_)) {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(CLOSE_GRACE, until_close).await;
}

enum Incoming {
    Msg(ClientMessage),
    Bad(ErrorCode, String),
    TooLarge(usize),
    Skip,
    Closed,
}

fn decode(msg: Message, enc: Encoding) -> Incoming {
    let bytes: &[u8] = match (&msg, enc) {
        (Message::Text(t), Encoding::Json) => t.as_bytes(),
        (Message::Binary(b), Encoding::Bincode) => b,
        (Message::Text(_), Encoding::Bincode) => {
            return Incoming::Bad(
                ErrorCode::WrongEncoding,
                "text frame on a fray.v1.bincode connection".into(),
            );
        }
        (Message::Binary(_), Encoding::Json) => {
            return Incoming::Bad(
                ErrorCode::WrongEncoding,
                "binary frame on a fray.v1.json connection".into(),
            );
        }
        (Message::Close(_), _) => return Incoming::Closed,
        _ => return Incoming::Skip,
    };
    if bytes.len() > MAX_CLIENT_FRAME {
        return Incoming::TooLarge(bytes.len());
    }
    match decode_client::<ClientMessage>(bytes, enc) {
        Ok(m) => Incoming::Msg(m),
        Err(CodecError::TooLarge { size, .. }) => Incoming::TooLarge(size),
        Err(e) => Incoming::Bad(ErrorCode::MalformedFrame, e.to_string()),
    }
}

/// The connection's message rate, and its tighter rate of table talk (chat and free rolls).
struct Rate {
    messages: Bucket,
    talk: Bucket,
}

impl Rate {
    fn new(registry: &Registry) -> Rate {
        let l = registry.limits();
        Rate {
            messages: Bucket::new(f64::from(l.messages_per_second), l.message_burst),
            talk: Bucket::new(f64::from(l.talk_per_minute) / 60.0, l.talk_burst),
        }
    }

    fn allows(&mut self) -> bool {
        self.messages.take(Instant::now())
    }

    fn allows_talk(&mut self) -> bool {
        self.talk.take(Instant::now())
    }
}

/// Serves one connection until it closes. `handshake` is the socket's guard: the deadline for
/// `hello` (counted from TCP accept) is lifted once `hello` is accepted.
pub async fn serve(
    socket: WebSocket,
    enc: Encoding,
    registry: Arc<Registry>,
    handshake: Arc<Handshake>,
) {
    let conn = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    let (mut sink, mut stream) = socket.split();
    let mut bad = 0u32;
    let rate = Rate::new(&registry);
    let hello_timeout = registry.limits().handshake_timeout;

    // 1. Hello.
    let (handle, out_rx, kick_rx, queued) = loop {
        let next = match tokio::time::timeout(hello_timeout, stream.next()).await {
            Ok(Some(Ok(m))) => m,
            Ok(_) => return,
            Err(_) => {
                let _ = error(&mut sink, enc, ErrorCode::HelloRequired, "no hello in time").await;
                close(&mut sink, "no hello").await;
                return;
            }
        };
        match decode(next, enc) {
            Incoming::Msg(ClientMessage::Hello {
                protocol,
                token,
                resume_from,
            }) => {
                if protocol != PROTOCOL_VERSION {
                    let _ = error(
                        &mut sink,
                        enc,
                        ErrorCode::UnsupportedProtocol,
                        format!("protocol {protocol} is not supported; this server speaks {PROTOCOL_VERSION}"),
                    )
                    .await;
                    close(&mut sink, "unsupported protocol").await;
                    return;
                }
                let Some((handle, role)) = registry.token(&token) else {
                    bad += 1;
                    let (code, why) = if registry.is_revoked(&token) {
                        (
                            ErrorCode::TokenRevoked,
                            "the GM issued a new token for this seat; this one was revoked",
                        )
                    } else {
                        (ErrorCode::UnknownToken, "the token names no session seat")
                    };
                    let _ = error(&mut sink, enc, code, why).await;
                    if bad >= MAX_BAD_FRAMES {
                        close(&mut sink, "flood").await;
                        return;
                    }
                    continue;
                };
                let (out_tx, out_rx) = mpsc::channel(SUBSCRIBER_QUEUE);
                let (kick_tx, kick_rx) = oneshot::channel();
                let queued = Arc::new(AtomicUsize::new(0));
                let sub = Subscribe {
                    conn,
                    token: token.clone(),
                    role,
                    encoding: enc,
                    resume_from,
                    out: out_tx,
                    kick: kick_tx,
                    queued: queued.clone(),
                };
                if handle
                    .tx
                    .send(SessionMsg::Subscribe(Box::new(sub)))
                    .await
                    .is_err()
                {
                    let _ = error(
                        &mut sink,
                        enc,
                        ErrorCode::SessionUnavailable,
                        "the session has stopped",
                    )
                    .await;
                    return;
                }
                handshake.greeted();
                break (handle, out_rx, kick_rx, queued);
            }
            Incoming::Msg(_) => {
                bad += 1;
                let _ = error(
                    &mut sink,
                    enc,
                    ErrorCode::HelloRequired,
                    "the first message must be hello",
                )
                .await;
            }
            Incoming::Bad(code, msg) => {
                bad += 1;
                let _ = error(&mut sink, enc, code, msg).await;
            }
            Incoming::TooLarge(size) => {
                let _ = error(
                    &mut sink,
                    enc,
                    ErrorCode::FrameTooLarge,
                    format!("frame of {size} bytes exceeds the limit of {MAX_CLIENT_FRAME}"),
                )
                .await;
                close(&mut sink, "frame too large").await;
                return;
            }
            Incoming::Skip => {}
            Incoming::Closed => return,
        }
        if bad >= MAX_BAD_FRAMES {
            let _ = error(&mut sink, enc, ErrorCode::Flood, "too many bad frames").await;
            close(&mut sink, "flood").await;
            return;
        }
    };

    let queue = Queue {
        rx: out_rx,
        bytes: queued,
    };
    run(conn, enc, handle, sink, stream, queue, kick_rx, rate).await;
}

/// The subscriber's queue and its byte count (shared with the session task).
struct Queue {
    rx: mpsc::Receiver<Outbound>,
    bytes: Arc<AtomicUsize>,
}

impl Queue {
    fn try_recv(&mut self) -> Option<Outbound> {
        self.rx.try_recv().ok()
    }

    /// An item left the queue.
    fn written(&self, out: &Outbound) {
        self.bytes.fetch_sub(out.bytes(), Ordering::AcqRel);
    }
}

#[allow(clippy::too_many_arguments)]
async fn run(
    conn: u64,
    enc: Encoding,
    handle: SessionHandle,
    mut sink: Sink,
    mut stream: futures_util::stream::SplitStream<WebSocket>,
    mut queue: Queue,
    mut kick_rx: oneshot::Receiver<ErrorCode>,
    mut rate: Rate,
) {
    let mut bad = 0u32;
    loop {
        tokio::select! {
            out = queue.rx.recv() => {
                let ok = match out {
                    Some(first) => write_queued(&mut sink, first, &mut queue).await,
                    None => {
                        // The session let go of this subscriber: say why, if it said.
                        let code = (&mut kick_rx).await.unwrap_or(ErrorCode::SessionUnavailable);
                        let _ = error(&mut sink, enc, code, kick_message(code)).await;
                        close(&mut sink, kick_message(code)).await;
                        drain(&mut stream).await;
                        false
                    }
                };
                if !ok { break; }
            }
            code = &mut kick_rx => {
                // Deliver what was queued before the kick, then say why.
                while let Some(out) = queue.try_recv() {
                    queue.written(&out);
                    for m in out.messages() {
                        let _ = sink.feed(m.clone()).await;
                    }
                }
                let code = code.unwrap_or(ErrorCode::SessionUnavailable);
                let msg = kick_message(code);
                let _ = error(&mut sink, enc, code, msg).await;
                close(&mut sink, msg).await;
                drain(&mut stream).await;
                break;
            }
            incoming = stream.next() => {
                let Some(Ok(m)) = incoming else { break };
                let decoded = decode(m, enc);
                if matches!(decoded, Incoming::Msg(_)) && !rate.allows() {
                    bad += 1;
                    let _ = error(&mut sink, enc, ErrorCode::RateLimited, "too many messages; this one was dropped").await;
                    if bad >= MAX_BAD_FRAMES {
                        let _ = error(&mut sink, enc, ErrorCode::Flood, "too many messages").await;
                        close(&mut sink, "flood").await;
                        break;
                    }
                    continue;
                }
                match decoded {
                    Incoming::Msg(ClientMessage::Command { id, command }) if command.is_table_talk() && !rate.allows_talk() => {
                        bad = 0;
                        let refusal = ServerMessage::Rejected {
                            command_id: id,
                            code: ErrorCode::RateLimited,
                            message: "too many chat lines and free rolls; wait a moment".into(),
                        };
                        if !send(&mut sink, enc, &refusal).await { break; }
                    }
                    Incoming::Msg(ClientMessage::Command { id, command }) => {
                        bad = 0;
                        if handle.tx.send(SessionMsg::Command { conn, id, command }).await.is_err() {
                            let _ = error(&mut sink, enc, ErrorCode::SessionUnavailable, "the session has stopped").await;
                            break;
                        }
                    }
                    Incoming::Msg(ClientMessage::GetSnapshot) => {
                        bad = 0;
                        if handle.tx.send(SessionMsg::Snapshot { conn }).await.is_err() { break; }
                    }
                    Incoming::Msg(ClientMessage::Watch { views, legal_actions }) => {
                        bad = 0;
                        if handle.tx.send(SessionMsg::Watch { conn, views, legal_actions }).await.is_err() { break; }
                    }
                    Incoming::Msg(ClientMessage::GetLegalActions) => {
                        bad = 0;
                        if handle.tx.send(SessionMsg::LegalActions { conn }).await.is_err() { break; }
                    }
                    Incoming::Msg(ClientMessage::Preview { id, command }) => {
                        bad = 0;
                        if handle.tx.send(SessionMsg::Preview { conn, id, command }).await.is_err() { break; }
                    }
                    Incoming::Msg(ClientMessage::Ping { nonce }) => {
                        bad = 0;
                        if !send(&mut sink, enc, &ServerMessage::Pong { nonce }).await { break; }
                    }
                    Incoming::Msg(ClientMessage::Hello { .. }) => {
                        bad += 1;
                        let _ = error(&mut sink, enc, ErrorCode::AlreadyGreeted, "hello was already accepted on this connection").await;
                    }
                    Incoming::Bad(code, msg) => {
                        bad += 1;
                        let _ = error(&mut sink, enc, code, msg).await;
                    }
                    Incoming::TooLarge(size) => {
                        let _ = error(&mut sink, enc, ErrorCode::FrameTooLarge,
                            format!("frame of {size} bytes exceeds the limit of {MAX_CLIENT_FRAME}")).await;
                        close(&mut sink, "frame too large").await;
                        break;
                    }
                    Incoming::Skip => {}
                    Incoming::Closed => break,
                }
                if bad >= MAX_BAD_FRAMES {
                    let _ = error(&mut sink, enc, ErrorCode::Flood, "too many bad frames").await;
                    close(&mut sink, "flood").await;
                    break;
                }
            }
        }
    }
    let _ = handle.tx.send(SessionMsg::Unsubscribe { conn }).await;
}
