//! A WebSocket connection to a Fray session: connect offering the `fray.v1.json` or
//! `fray.v1.bincode` subprotocol, greet with `Hello`, then send and receive typed protocol
//! messages in the negotiated encoding (JSON in text frames, bincode in binary frames).
//!
//! `recv` is cancel-safe (it only awaits the stream's `next`), so callers may `select!` on it.

use crate::address::Server;
use anyhow::{Context, Result, anyhow, bail};
use fray_protocol::codec::{self, Encoding, Frame, MAX_SERVER_FRAME};
use fray_protocol::{ClientMessage, PROTOCOL_VERSION, Role, ServerMessage, SessionId};
use futures_util::{SinkExt, StreamExt};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::http::header::SEC_WEBSOCKET_PROTOCOL;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Bytes, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// What `Welcome` told us.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Welcome {
    /// Session id.
    pub session: SessionId,
    /// The role our token grants.
    pub role: Role,
    /// Last event's sequence number at the time of the greeting.
    pub seq: u64,
    /// Ruleset id.
    pub ruleset: String,
    /// Hex seed commitment.
    pub commitment: String,
}

/// An open, negotiated connection.
pub struct Connection {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    encoding: Encoding,
}

impl Connection {
    /// Opens the WebSocket at `ws://server/ws` (`wss://` over TLS, trusting the address's
    /// roots), offering the encoding's subprotocol, and checks that the server accepted it.
    pub async fn connect(server: &Server, encoding: Encoding) -> Result<Connection> {
        let url = server.ws_url();
        let mut request = url
            .as_str()
            .into_client_request()
            .with_context(|| format!("bad WebSocket URL {url}"))?;
        request.headers_mut().insert(
            SEC_WEBSOCKET_PROTOCOL,
            HeaderValue::from_static(encoding.subprotocol()),
        );
        let config = WebSocketConfig::default()
            .max_message_size(Some(MAX_SERVER_FRAME))
            .max_frame_size(Some(MAX_SERVER_FRAME));
        let (ws, response) = tokio_tungstenite::connect_async_tls_with_config(
            request,
            Some(config),
            true,
            server.ws_connector(),
        )
        .await
        .map_err(|e| {
            let refused = certificate_refused(&e);
            // tungstenite's errors repeat their source in Display: keep one copy.
            let error = crate::tls::explain(anyhow!("cannot open {url}: {e}"));
            if refused {
                error.context(CertificateRefused)
            } else {
                error
            }
        })?;
        let chosen = response
            .headers()
            .get(SEC_WEBSOCKET_PROTOCOL)
            .and_then(|v| v.to_str().ok())
            .and_then(Encoding::from_subprotocol);
        if chosen != Some(encoding) {
            bail!(
                "{url}: the server did not accept subprotocol {}",
                encoding.subprotocol()
            );
        }
        Ok(Connection { ws, encoding })
    }

    /// Sends a message.
    pub async fn send(&mut self, msg: &ClientMessage) -> Result<()> {
        let frame = codec::encode(msg, self.encoding).context("encoding a message")?;
        let message = match frame {
            Frame::Text(text) => Message::text(text),
            Frame::Binary(bytes) => Message::Binary(Bytes::from(bytes)),
        };
        self.ws
            .send(message)
            .await
            .map_err(|e| anyhow!("sending to the server: {e}"))
    }

    /// Receives the next protocol message; `Ok(None)` when the server closed the connection.
    /// Control frames are handled here (pings are answered by tungstenite).
    pub async fn recv(&mut self) -> Result<Option<ServerMessage>> {
        loop {
            let Some(message) = self.ws.next().await else {
                return Ok(None);
            };
            let message = message.map_err(|e| anyhow!("reading from the server: {e}"))?;
            let decoded = match message {
                Message::Text(text) => {
                    if self.encoding != Encoding::Json {
                        bail!("the server sent a text frame on a bincode connection");
                    }
                    codec::decode_server::<ServerMessage>(text.as_bytes(), Encoding::Json)
                }
                Message::Binary(bytes) => {
                    if self.encoding != Encoding::Bincode {
                        bail!("the server sent a binary frame on a JSON connection");
                    }
                    codec::decode_server::<ServerMessage>(&bytes, Encoding::Bincode)
                }
                Message::Close(frame) => {
                    if let Some(frame) = frame
                        && !frame.reason.is_empty()
                    {
                        eprintln!("(server closed the connection: {})", frame.reason);
                    }
                    return Ok(None);
                }
                Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => continue,
            };
            return decoded
                .map(Some)
                .map_err(|e| anyhow!("undecodable message from the server: {e}"));
        }
    }

    /// Sends `Hello` and waits for `Welcome`; an `Error` answer (unknown token, resume out of
    /// range, unsupported protocol) becomes an error naming the code.
    pub async fn hello(&mut self, token: &str, resume_from: Option<u64>) -> Result<Welcome> {
        self.send(&ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            token: token.to_owned(),
            resume_from,
        })
        .await?;
        loop {
            match self.recv().await? {
                None => bail!("the server closed the connection before welcoming us"),
                Some(ServerMessage::Welcome {
                    protocol,
                    session,
                    role,
                    seq,
                    ruleset,
                    commitment,
                }) => {
                    if protocol != PROTOCOL_VERSION {
                        bail!(
                            "the server speaks protocol {protocol}, this client {PROTOCOL_VERSION}"
                        );
                    }
                    return Ok(Welcome {
                        session,
                        role,
                        seq,
                        ruleset,
                        commitment,
                    });
                }
                Some(ServerMessage::Error { code, message }) => {
                    return Err(HelloRefused { code, message }.into());
                }
                Some(ServerMessage::Pong { .. }) => continue,
                Some(other) => bail!("expected Welcome, got {other:?}"),
            }
        }
    }

    /// Connects and greets in one go.
    pub async fn open(
        server: &Server,
        encoding: Encoding,
        token: &str,
        resume_from: Option<u64>,
    ) -> Result<(Connection, Welcome)> {
        let mut conn = Connection::connect(server, encoding).await?;
        let welcome = conn.hello(token, resume_from).await?;
        Ok((conn, welcome))
    }

    /// Like [`Connection::open`], but retries with backoff (0.5 s doubling to 10 s) while the
    /// server cannot be reached; a refusal by the server ([`HelloRefused`]: bad token, resume
    /// point out of range) or of its certificate ([`CertificateRefused`]) is returned at once.
    pub async fn open_retrying(
        server: &Server,
        encoding: Encoding,
        token: &str,
        resume_from: Option<u64>,
    ) -> Result<(Connection, Welcome)> {
        let mut delay = Duration::from_millis(500);
        loop {
            match Connection::open(server, encoding, token, resume_from).await {
                Ok(open) => return Ok(open),
                Err(e)
                    if e.downcast_ref::<HelloRefused>().is_some()
                        || e.downcast_ref::<CertificateRefused>().is_some() =>
                {
                    return Err(e);
                }
                Err(e) => {
                    eprintln!("(cannot reach the server: {e:#}; retrying in {delay:?})");
                    tokio::time::sleep(delay).await;
                    delay = (delay * 2).min(Duration::from_secs(10));
                }
            }
        }
    }

    /// Closes the connection politely (errors ignored: we are leaving anyway).
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// The TLS handshake refused the server's certificate: retrying cannot help (a proxy that
/// changed its certificate mid-session needs `--ca-cert`), so reconnection gives up at once.
#[derive(Debug)]
pub struct CertificateRefused;

impl std::fmt::Display for CertificateRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the server's certificate is not trusted")
    }
}

impl std::error::Error for CertificateRefused {}

/// Whether a WebSocket connection failed because rustls refused the server's certificate
/// (tokio-rustls reports a failed handshake as an I/O error around rustls's own).
fn certificate_refused(e: &tokio_tungstenite::tungstenite::Error) -> bool {
    use tokio_tungstenite::tungstenite::{Error, error::TlsError};
    let invalid = |r: &rustls::Error| matches!(r, rustls::Error::InvalidCertificate(_));
    match e {
        Error::Tls(TlsError::Rustls(r)) => invalid(r),
        Error::Io(io) => io
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<rustls::Error>())
            .is_some_and(invalid),
        _ => false,
    }
}

/// The server answered `Hello` with an error.
#[derive(Debug)]
pub struct HelloRefused {
    /// Reason code.
    pub code: fray_protocol::ErrorCode,
    /// Explanation.
    pub message: String,
}

impl std::fmt::Display for HelloRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the server refused us ({}): {}", self.code, self.message)
    }
}

impl std::error::Error for HelloRefused {}

/// Describes a role for humans.
pub fn describe_role(role: &Role) -> String {
    match role {
        Role::Gm => "GM".to_owned(),
        Role::Spectator => "spectator".to_owned(),
        Role::Player { name, controls } => {
            let ids: Vec<&str> = controls.iter().map(|c| c.as_str()).collect();
            format!("player {name} (controls {})", ids.join(", "))
        }
    }
}
