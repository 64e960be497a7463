//! A small client of the Fray protocol (HTTP session creation and a typed WebSocket), used by the demo bots (and by the
//! end-to-end tests). It speaks the real protocol over a real socket, in either encoding.

use fray_protocol::codec::{Encoding, Frame, decode_server, encode};
use fray_protocol::{ClientMessage, PROTOCOL_VERSION, ServerMessage};
use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::sync::Arc;
use thiserror::Error;
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

/// How long one HTTP exchange may take.
const HTTP_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);
/// Largest HTTP response body read (a session's log can be large).
const MAX_HTTP_BODY: u64 = 256 * 1024 * 1024;

/// The root certificates an `https://` request trusts: the web's (webpki-roots), unless the
/// caller names the complete set (the `fray` command line's `--ca-cert` passes the web's roots
/// and its file's certificates).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TlsRoots(Option<Arc<[Vec<u8>]>>);

impl TlsRoots {
    /// The web's root certificates (the default).
    pub fn web() -> TlsRoots {
        TlsRoots(None)
    }

    /// Exactly these root certificates (DER).
    pub fn only(der: Vec<Vec<u8>>) -> TlsRoots {
        TlsRoots(Some(der.into()))
    }

    /// ureq's form of these roots.
    fn root_certs(&self) -> ureq::tls::RootCerts {
        match &self.0 {
            None => ureq::tls::RootCerts::WebPki,
            Some(der) => ureq::tls::RootCerts::new_with_certs(
                &der.iter()
                    .map(|c| ureq::tls::Certificate::from_der(c).to_owned())
                    .collect::<Vec<_>>(),
            ),
        }
    }
}

/// One HTTP request to `url` (`http://` or `https://`, TLS by rustls with the web's root
/// certificates), with `Authorization: Bearer <bearer>` when given and a JSON body when given;
/// returns (status, body). A 4xx or 5xx status is an answer, not an error. The request runs on
/// tokio's blocking pool (ureq is a blocking client). The one HTTP client of the demo, the
/// tests and the `fray` command line.
pub async fn request(
    url: String,
    method: &str,
    body: Option<Vec<u8>>,
    bearer: Option<&str>,
) -> Result<(u16, Vec<u8>), ClientError> {
    request_trusting(url, method, body, bearer, &TlsRoots::web()).await
}

/// [`request`], trusting `roots` over TLS.
pub async fn request_trusting(
    url: String,
    method: &str,
    body: Option<Vec<u8>>,
    bearer: Option<&str>,
    roots: &TlsRoots,
) -> Result<(u16, Vec<u8>), ClientError> {
    let method = method.to_owned();
    let bearer = bearer.map(str::to_owned);
    let tls = ureq::tls::TlsConfig::builder()
        .root_certs(roots.root_certs())
        .build();
    tokio::task::spawn_blocking(move || {
        let failed = |e: &dyn std::fmt::Display| ClientError::Http(format!("{method} {url}: {e}"));
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(HTTP_TIMEOUT))
            .user_agent(concat!("fray/", env!("CARGO_PKG_VERSION")))
            .tls_config(tls)
            .build()
            .into();
        let mut builder = ureq::http::Request::builder()
            .method(method.as_str())
            .uri(url.as_str())
            .header("Accept", "application/json");
        if let Some(key) = &bearer {
            builder = builder.header("Authorization", format!("Bearer {key}"));
        }
        let answer = match body {
            Some(bytes) => builder
                .header("Content-Type", "application/json")
                .body(bytes)
                .map_err(|e| failed(&e))
                .and_then(|r| agent.run(r).map_err(|e| failed(&e))),
            None => builder
                .body(())
                .map_err(|e| failed(&e))
                .and_then(|r| agent.run(r).map_err(|e| failed(&e))),
        }?;
        let status = answer.status().as_u16();
        let bytes = answer
            .into_body()
            .with_config()
            .limit(MAX_HTTP_BODY)
            .read_to_vec()
            .map_err(|e| failed(&e))?;
        Ok((status, bytes))
    })
    .await
    .map_err(|e| ClientError::Http(format!("the request's thread failed: {e}")))?
}

/// A plain HTTP request to the server at `addr`; returns (status, body).
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
    let body = (!body.is_empty()).then(|| body.as_bytes().to_vec());
    let (status, bytes) = request(format!("http://{addr}{path}"), method, body, bearer).await?;
    Ok((status, String::from_utf8_lossy(&bytes).into_owned()))
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
