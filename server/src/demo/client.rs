//! A small client of the Fray protocol (HTTP session creation and a typed WebSocket), used by the demo bots (and by the
//! end-to-end tests). It speaks the real protocol over a real socket, in either encoding.

use fray_protocol::codec::{Encoding, Frame, decode_server, encode};
use fray_protocol::{ClientMessage, PROTOCOL_VERSION, ServerMessage};
use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use thiserror::Error;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Client errors.
#[derive(Debug, Error)]
pub enum ClientError {
    /// WebSocket failure.
    #[error("websocket: {0}")]
    Ws(#[from] tokio_tungstenite::tungstenite::Error),
    /// Codec failure.
    #[error("codec: {0}")]
    Codec(#[from] fray_protocol::codec::CodecError),
    /// The server closed the connection.
    #[error("connection closed")]
    Closed,
    /// An HTTP exchange failed.
    #[error("http: {0}")]
    Http(String),
    /// Socket failure.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
}

/// A plain HTTP/1.1 request (`Connection: close`); returns (status, body).
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
) -> Result<(u16, String), ClientError> {
    http_as(addr, method, path, body, None).await
}

/// [`http`] with `Authorization: Bearer <bearer>` when given (the operator key).
pub async fn http_as(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
    bearer: Option<&str>,
) -> Result<(u16, String), ClientError> {
    let mut s = TcpStream::connect(addr).await?;
    let auth = bearer.map_or(String::new(), |k| format!("Authorization: Bearer {k}\r\n"));
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await?;
    let text = String::from_utf8_lossy(&buf).to_string();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| ClientError::Http("no header end".into()))?;
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| ClientError::Http("no status".into()))?;
    if !head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        return Ok((status, body.to_owned()));
    }
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16)
            .map_err(|_| ClientError::Http("bad chunk".into()))?;
        if n == 0 || tail.len() < n {
            break;
        }
        out.push_str(&tail[..n]);
        rest = tail[n..].trim_start_matches("\r\n");
    }
    Ok((status, out))
}

/// `POST /sessions` with the operator key: creates a session from encounter TOML; returns the
/// creation JSON.
pub async fn create_session(
    addr: SocketAddr,
    admin: &str,
    name: &str,
    encounter_toml: &str,
    seed: Option<u64>,
) -> Result<serde_json::Value, ClientError> {
    let body =
        serde_json::json!({"encounter": encounter_toml, "seed": seed, "name": name}).to_string();
    let (status, body) = http_as(addr, "POST", "/sessions", &body, Some(admin)).await?;
    if status != 201 {
        return Err(ClientError::Http(format!("{status}: {body}")));
    }
    serde_json::from_str(&body).map_err(|e| ClientError::Http(e.to_string()))
}

/// A connected client.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The negotiated encoding.
    pub encoding: Encoding,
}

impl Client {
    /// Connects to `ws://addr/ws` offering the encoding's subprotocol.
    pub async fn connect(url: &str, encoding: Encoding) -> Result<Client, ClientError> {
        let mut req = url.into_client_request()?;
        req.headers_mut().insert(
            "Sec-WebSocket-Protocol",
            HeaderValue::from_static(encoding.subprotocol()),
        );
        let (ws, _) = tokio_tungstenite::connect_async(req).await?;
        Ok(Client { ws, encoding })
    }

    /// Sends a message.
    pub async fn send(&mut self, msg: &ClientMessage) -> Result<(), ClientError> {
        let m = match encode(msg, self.encoding)? {
            Frame::Text(s) => Message::Text(s.into()),
            Frame::Binary(b) => Message::Binary(b.into()),
        };
        self.ws.send(m).await?;
        Ok(())
    }

    /// Sends raw bytes as a frame (tests of bad input).
    pub async fn send_raw(&mut self, msg: Message) -> Result<(), ClientError> {
        self.ws.send(msg).await?;
        Ok(())
    }

    /// Sends `hello`.
    pub async fn hello(
        &mut self,
        token: &str,
        resume_from: Option<u64>,
    ) -> Result<(), ClientError> {
        self.send(&ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            token: token.to_owned(),
            resume_from,
        })
        .await
    }

    /// Receives the next server message (skipping pings).
    pub async fn recv(&mut self) -> Result<ServerMessage, ClientError> {
        loop {
            let Some(m) = self.ws.next().await else {
                return Err(ClientError::Closed);
            };
            let bytes: Vec<u8> = match m? {
                Message::Text(t) => t.as_bytes().to_vec(),
                Message::Binary(b) => b.to_vec(),
                Message::Close(_) => return Err(ClientError::Closed),
                _ => continue,
            };
            return Ok(decode_server(&bytes, self.encoding)?);
        }
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}
