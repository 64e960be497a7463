//! The server refuses to be filled by strangers (issue 16): creating a session needs the operator
//! key; the listing shows strangers only the demo; idle TCP sockets that never upgrade are closed
//! after the handshake deadline; a seat's connections are capped; a client that never reads is
//! dropped before its queue passes the byte bound; messages beyond the rate are dropped with
//! their own code. After each, the server still serves.

use anyhow::{Result, anyhow, bail};
use fray_protocol::codec::Encoding;
use fray_protocol::{ClientMessage, ErrorCode, PROTOCOL_VERSION, ServerMessage};
use fray_server::demo::client::{Client, http, http_as};
use fray_server::net::limits::Limits;
use fray_tests::{ADMIN_KEY, TestServer, create_session};
use futures_util::{SinkExt, StreamExt};
use std::time::Duration;
use tokio::io::AsyncReadExt;
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

const T: Duration = Duration::from_secs(20);

/// The token of a seat (`gm`, `spectator`) in a creation answer.
fn seat_token<'a>(created: &'a serde_json::Value, seat: &str) -> Result<&'a str> {
    created["tokens"][seat]
        .as_str()
        .ok_or_else(|| anyhow!("no {seat} token"))
}

fn encounter_body() -> Result<String> {
    let text = fray_server::rules::builtin_encounters("13th-age")
        .first()
        .map(|(_, t)| *t)
        .ok_or_else(|| anyhow!("no 13th Age encounter"))?;
    Ok(serde_json::json!({"encounter": text, "seed": 1}).to_string())
}

/// The server still answers `/health` and a new WebSocket.
async fn still_serves(server: &TestServer, spectator: &str) -> Result<()> {
    let (status, body) = http(server.addr, "GET", "/health", "").await?;
    assert_eq!((status, body.trim()), (200, "ok"));
    let mut c = Client::connect(&server.ws_url(), Encoding::Json).await?;
    c.hello(spectator, None).await?;
    match tokio::time::timeout(T, c.recv()).await?? {
        ServerMessage::Welcome { .. } => Ok(()),
        other => bail!("expected welcome, got {other:?}"),
    }
}

/// Reads until an `error`; returns its code (None when the connection ends without one).
async fn error_code(c: &mut Client) -> Result<Option<ErrorCode>> {
    loop {
        match tokio::time::timeout(T, c.recv()).await? {
            Ok(ServerMessage::Error { code, .. }) => return Ok(Some(code)),
            Ok(_) => {}
            Err(_) => return Ok(None),
        }
    }
}

#[tokio::test]
async fn creating_a_session_needs_the_operator_key_and_strangers_list_only_the_demo() -> Result<()>
{
    let server = TestServer::start().await?;
    let body = encounter_body()?;
    let (status, answer) = http(server.addr, "POST", "/sessions", &body).await?;
    assert_eq!(status, 401, "{answer}");
    assert!(answer.contains("\"unauthorized\""), "{answer}");
    let (status, answer) = http_as(
        server.addr,
        "POST",
        "/sessions",
        &body,
        Some("a-wrong-operator-key"),
    )
    .await?;
    assert_eq!(status, 401, "{answer}");
    assert_eq!(server.registry.len(), 0, "nothing was created");

    let (status, answer) =
        http_as(server.addr, "POST", "/sessions", &body, Some(ADMIN_KEY)).await?;
    assert_eq!(status, 201, "{answer}");
    let (_, public) = http(server.addr, "GET", "/sessions", "").await?;
    assert_eq!(public.trim(), "[]", "a stranger sees no private session");
    let (_, full) = http_as(server.addr, "GET", "/sessions", "", Some(ADMIN_KEY)).await?;
    let full: Vec<serde_json::Value> = serde_json::from_str(&full)?;
    assert_eq!(full.len(), 1, "the operator sees it");
    server.stop().await;
    Ok(())
}

#[tokio::test]
async fn session_creations_beyond_the_limits_are_refused_with_their_own_codes() -> Result<()> {
    let server = TestServer::start_with(Limits {
        creations_per_minute: 3,
        max_sessions: 2,
        ..Limits::default()
    })
    .await?;
    let body = encounter_body()?;
    let mut statuses = Vec::new();
    for _ in 0..4 {
        let (status, answer) =
            http_as(server.addr, "POST", "/sessions", &body, Some(ADMIN_KEY)).await?;
        statuses.push((status, answer));
    }
    assert_eq!(statuses[0].0, 201);
    assert_eq!(statuses[1].0, 201);
    assert_eq!(statuses[2].0, 503, "{}", statuses[2].1);
    assert!(statuses[2].1.contains("too_many_sessions"));
    assert_eq!(statuses[3].0, 429, "{}", statuses[3].1);
    assert!(statuses[3].1.contains("rate_limited"));
    assert_eq!(server.registry.len(), 2);
    server.stop().await;
    Ok(())
}

#[tokio::test]
async fn a_thousand_idle_tcp_sockets_are_closed_after_the_handshake_deadline() -> Result<()> {
    let server = TestServer::start_with(Limits {
        handshake_timeout: Duration::from_secs(2),
        max_unhello: 2_000,
        ..Limits::default()
    })
    .await?;
    let created = create_session(server.addr, "goblin-ambush", 1).await?;
    let spectator = seat_token(&created, "spectator")?.to_owned();
    let mut idle = Vec::new();
    for _ in 0..1_000 {
        idle.push(TcpStream::connect(server.addr).await?);
    }
    // Every one of them is closed by the server: a read sees the end (or a reset).
    let mut closed = 0;
    for mut s in idle {
        let mut buf = [0u8; 64];
        match tokio::time::timeout(T, s.read(&mut buf)).await? {
            Ok(0) | Err(_) => closed += 1,
            Ok(n) => bail!("an idle socket got {n} bytes"),
        }
    }
    assert_eq!(closed, 1_000);
    still_serves(&server, &spectator).await?;
    server.stop().await;
    Ok(())
}

#[tokio::test]
async fn a_connection_beyond_the_per_token_cap_is_refused() -> Result<()> {
    let server = TestServer::start_with(Limits {
        connections_per_token: 2,
        ..Limits::default()
    })
    .await?;
    let created = create_session(server.addr, "goblin-ambush", 1).await?;
    let spectator = seat_token(&created, "spectator")?;
    let mut kept = Vec::new();
    for _ in 0..2 {
        let mut c = Client::connect(&server.ws_url(), Encoding::Json).await?;
        c.hello(spectator, None).await?;
        assert!(matches!(
            tokio::time::timeout(T, c.recv()).await??,
            ServerMessage::Welcome { .. }
        ));
        kept.push(c);
    }
    let mut third = Client::connect(&server.ws_url(), Encoding::Json).await?;
    third.hello(spectator, None).await?;
    assert_eq!(
        error_code(&mut third).await?,
        Some(ErrorCode::TooManyConnections)
    );
    // Another seat of the same session is not affected.
    let gm = seat_token(&created, "gm")?;
    still_serves(&server, gm).await?;
    drop(kept);
    server.stop().await;
    Ok(())
}

#[tokio::test]
async fn a_client_that_never_reads_is_dropped_before_its_queue_passes_the_byte_bound() -> Result<()>
{
    let cap = 64 * 1024;
    let server = TestServer::start_with(Limits {
        subscriber_queue_bytes: cap,
        ..Limits::default()
    })
    .await?;
    let created = create_session(server.addr, "goblin-ambush", 1).await?;
    let spectator = seat_token(&created, "spectator")?;

    // A socket with a small receive buffer, so that the kernel holds little for it.
    let socket = TcpSocket::new_v4()?;
    socket.set_recv_buffer_size(4096)?;
    let tcp = socket.connect(server.addr).await?;
    let mut req = server.ws_url().into_client_request()?;
    req.headers_mut().insert(
        "Sec-WebSocket-Protocol",
        HeaderValue::from_static("fray.v1.json"),
    );
    let (mut ws, _) = tokio_tungstenite::client_async(req, tcp).await?;
    let text = |m: &ClientMessage| -> Result<Message> {
        Ok(Message::Text(serde_json::to_string(m)?.into()))
    };
    ws.send(text(&ClientMessage::Hello {
        protocol: PROTOCOL_VERSION,
        token: spectator.to_owned(),
        resume_from: None,
    })?)
    .await?;
    // Ask for the state many times without reading: each answer is a few KiB; together far
    // more than the kernel's buffers and the byte bound, far fewer items than the item bound.
    let asks = 1_500;
    for _ in 0..asks {
        ws.send(text(&ClientMessage::GetSnapshot)?).await?;
    }
    // Now read: some snapshots, then `lagging`, then the close.
    let mut snapshots = 0;
    let mut code = None;
    loop {
        let m = tokio::time::timeout(T, ws.next()).await;
        let m = match m {
            Ok(Some(Ok(m))) => m,
            other => {
                eprintln!("the stream ended: {other:?}");
                break;
            }
        };
        let Message::Text(t) = m else { continue };
        match serde_json::from_str::<ServerMessage>(&t)? {
            ServerMessage::Snapshot { .. } => snapshots += 1,
            ServerMessage::Error { code: c, .. } => {
                code = Some(c);
                break;
            }
            _ => {}
        }
    }
    assert_eq!(
        code,
        Some(ErrorCode::Lagging),
        "after {snapshots} snapshots"
    );
    assert!(
        snapshots < asks,
        "dropped before all {asks} answers were queued"
    );
    still_serves(&server, spectator).await?;
    server.stop().await;
    Ok(())
}

#[tokio::test]
async fn messages_beyond_the_rate_are_dropped_with_rate_limited() -> Result<()> {
    let server = TestServer::start_with(Limits {
        messages_per_second: 5,
        message_burst: 5,
        ..Limits::default()
    })
    .await?;
    let created = create_session(server.addr, "goblin-ambush", 1).await?;
    let spectator = seat_token(&created, "spectator")?;
    let mut c = Client::connect(&server.ws_url(), Encoding::Json).await?;
    c.hello(spectator, None).await?;
    for nonce in 0..10 {
        c.send(&ClientMessage::Ping { nonce }).await?;
    }
    let mut pongs = 0;
    let mut limited = 0;
    while pongs + limited < 10 {
        match tokio::time::timeout(T, c.recv()).await?? {
            ServerMessage::Pong { .. } => pongs += 1,
            ServerMessage::Error {
                code: ErrorCode::RateLimited,
                ..
            } => limited += 1,
            _ => {}
        }
    }
    assert!(pongs <= 6, "{pongs} pongs at 5 a second");
    assert!(limited >= 4, "{limited} refusals");
    server.stop().await;
    Ok(())
}

#[tokio::test]
async fn a_finished_session_nobody_watches_leaves_memory_after_the_retention_time() -> Result<()> {
    let server = TestServer::start_with(Limits {
        retention: Duration::from_millis(300),
        ..Limits::default()
    })
    .await?;
    let created = create_session(server.addr, "goblin-ambush", 1).await?;
    let gm = seat_token(&created, "gm")?;
    let session = created["session"]
        .as_str()
        .ok_or_else(|| anyhow!("no session id"))?
        .to_owned();
    let mut c = Client::connect(&server.ws_url(), Encoding::Json).await?;
    c.hello(gm, None).await?;
    for (id, command) in [
        (1, fray_protocol::Command::StartBattle),
        (2, fray_protocol::Command::EndBattle),
    ] {
        c.send(&ClientMessage::Command { id, command }).await?;
        loop {
            match tokio::time::timeout(T, c.recv()).await?? {
                ServerMessage::Accepted { command_id, .. } if command_id == id => break,
                ServerMessage::Rejected { message, .. } => bail!("refused: {message}"),
                _ => {}
            }
        }
    }
    // Watched: it stays, however long.
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(server.registry.len(), 1, "a watched session stays");
    c.close().await;
    let mut waited = Duration::ZERO;
    while !server.registry.is_empty() {
        assert!(waited < T, "the finished session is still in memory");
        tokio::time::sleep(Duration::from_millis(50)).await;
        waited += Duration::from_millis(50);
    }
    let log = server.dir.path().join("sessions").join(&session);
    assert!(log.is_dir(), "its log stays on disk");
    let mut again = Client::connect(&server.ws_url(), Encoding::Json).await?;
    again.hello(gm, None).await?;
    assert_eq!(error_code(&mut again).await?, Some(ErrorCode::UnknownToken));
    server.stop().await;
    Ok(())
}

#[tokio::test]
async fn a_sessions_log_is_served_to_its_own_tokens_public_to_players_full_to_the_gm() -> Result<()>
{
    let server = TestServer::start().await?;
    let a = create_session(server.addr, "goblin-ambush", 1).await?;
    let b = create_session(server.addr, "goblin-ambush", 2).await?;
    let id = a["session"].as_str().ok_or_else(|| anyhow!("no id"))?;
    let path = format!("/sessions/{id}/log");
    let token = |c: &serde_json::Value, seat: &str| c["tokens"][seat].as_str().map(str::to_owned);
    let (status, _) = http(server.addr, "GET", &path, "").await?;
    assert_eq!(status, 401, "no token");
    let other = token(&b, "spectator").ok_or_else(|| anyhow!("no token"))?;
    let (status, _) = http_as(server.addr, "GET", &path, "", Some(&other)).await?;
    assert_eq!(status, 401, "another session's token");
    let spectator = token(&a, "spectator").ok_or_else(|| anyhow!("no token"))?;
    let (status, public) = http_as(server.addr, "GET", &path, "", Some(&spectator)).await?;
    assert_eq!(status, 200);
    assert!(public.starts_with("{\"fray_log\":1,\"audience\":\"public\""));
    assert!(!public.contains(&spectator), "no token in the public log");
    let gm = token(&a, "gm").ok_or_else(|| anyhow!("no token"))?;
    let (status, full) = http_as(server.addr, "GET", &path, "", Some(&gm)).await?;
    assert_eq!(status, 200);
    assert!(full.starts_with("{\"fray_log\":1,\"audience\":\"gm\""));
    let (status, _) = http_as(
        server.addr,
        "GET",
        "/sessions/s-0000/log",
        "",
        Some(ADMIN_KEY),
    )
    .await?;
    assert_eq!(status, 404);
    let (status, _) = http_as(
        server.addr,
        "GET",
        "/sessions/..%2F..%2Fetc/log",
        "",
        Some(ADMIN_KEY),
    )
    .await?;
    assert_eq!(status, 404, "no path outside the data dir");
    server.stop().await;
    Ok(())
}
