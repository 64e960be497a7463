//! A GM waiting for its `accepted` must not wait for Nagle's algorithm: the server writes a
//! command's events and its `accepted` together, in one write on a no-delay socket, so the
//! client receives them in one read. (Before, the events went out in one write and the
//! `accepted` in a second small one, which Nagle held back until the client's delayed ACK:
//! ~44 ms per command.) Nothing here is timed: the test looks at which bytes arrived together.

use anyhow::{Result, anyhow, bail};
use fray_protocol::ids::Role;
use fray_protocol::{ClientMessage, PROTOCOL_VERSION, ServerMessage};
use fray_server::demo::bot::next_for_table;
use fray_tests::{TestServer, create_session};
use futures_util::{SinkExt, StreamExt};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

/// A TCP stream that reads the socket in large gulps and remembers each gulp: one entry per
/// `recv` from the kernel, whatever size the WebSocket parser asks for.
struct Recording {
    tcp: TcpStream,
    buffered: Vec<u8>,
    reads: Arc<Mutex<Vec<Vec<u8>>>>,
}

impl AsyncRead for Recording {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        if self.buffered.is_empty() {
            let mut chunk = vec![0u8; 1 << 20];
            let mut rb = ReadBuf::new(&mut chunk);
            match Pin::new(&mut self.tcp).poll_read(cx, &mut rb) {
                Poll::Ready(Ok(())) => {
                    let got = rb.filled().to_vec();
                    if let Ok(mut reads) = self.reads.lock() {
                        reads.push(got.clone());
                    }
                    self.buffered = got;
                }
                other => return other,
            }
        }
        let n = self.buffered.len().min(buf.remaining());
        buf.put_slice(&self.buffered[..n]);
        self.buffered.drain(..n);
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Recording {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

async fn next_message(
    ws: &mut tokio_tungstenite::WebSocketStream<Recording>,
) -> Result<ServerMessage> {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await?
            .ok_or_else(|| anyhow!("closed"))??;
        if let Message::Text(t) = m {
            return Ok(serde_json::from_str(&t)?);
        }
    }
}

#[tokio::test]
async fn a_commands_events_and_its_accepted_arrive_in_one_read() -> Result<()> {
    let server = TestServer::start().await?;
    let created = create_session(server.addr, "goblin-ambush", 7).await?;
    let gm_token = created["tokens"]["gm"]
        .as_str()
        .ok_or_else(|| anyhow!("no gm token"))?;

    let reads = Arc::new(Mutex::new(Vec::new()));
    let tcp = TcpStream::connect(server.addr).await?;
    let stream = Recording {
        tcp,
        buffered: Vec::new(),
        reads: reads.clone(),
    };
    let mut req = server.ws_url().into_client_request()?;
    req.headers_mut().insert(
        "Sec-WebSocket-Protocol",
        HeaderValue::from_static("fray.v1.json"),
    );
    let (mut ws, _) = tokio_tungstenite::client_async(req, stream).await?;
    let hello = ClientMessage::Hello {
        protocol: PROTOCOL_VERSION,
        token: gm_token.to_owned(),
        resume_from: None,
    };
    ws.send(Message::Text(serde_json::to_string(&hello)?.into()))
        .await?;

    let mut state = None;
    while state.is_none() {
        if let ServerMessage::Snapshot { state: s, .. } = next_message(&mut ws).await? {
            state = Some(*s);
        }
    }
    let state = state.ok_or_else(|| anyhow!("no snapshot"))?;

    // The GM's first move (starting the fight: initiative for everyone, several events).
    let (role, command) =
        next_for_table(&state, &[Role::Gm], 0).ok_or_else(|| anyhow!("no move"))?;
    assert_eq!(role, Role::Gm);
    let sent = ClientMessage::Command { id: 1, command };
    ws.send(Message::Text(serde_json::to_string(&sent)?.into()))
        .await?;
    let (first_seq, last_seq) = loop {
        match next_message(&mut ws).await? {
            ServerMessage::Accepted {
                command_id: 1,
                first_seq,
                last_seq,
            } => break (first_seq, last_seq),
            ServerMessage::Rejected { message, .. } => {
                bail!("the first move was refused: {message}")
            }
            _ => {}
        }
    };
    assert!(
        last_seq > first_seq,
        "starting the fight gives several events"
    );

    let reads = reads.lock().map_err(|_| anyhow!("poisoned"))?.clone();
    let with_accepted: Vec<&Vec<u8>> = reads
        .iter()
        .filter(|r| contains(r, "{\"accepted\":{\"command_id\":1,"))
        .collect();
    assert_eq!(with_accepted.len(), 1, "the accepted arrives once");
    let read = with_accepted[0];
    for seq in first_seq..=last_seq {
        assert!(
            contains(read, &format!("{{\"event\":{{\"seq\":{seq},")),
            "event {seq} of the command arrived in another read than its accepted"
        );
    }
    server.stop().await;
    Ok(())
}
