//! A tiny HTTP/1.1 client for the server's two HTTP endpoints (`POST /sessions`,
//! `GET /sessions`), hand-rolled over a tokio `TcpStream`: one request per connection
//! (`Connection: close`), bodies sized by `Content-Length` or chunked, no TLS, no redirects.
//!
//! The JSON shapes of those endpoints are mirrored here; they are not (yet) part of
//! `fray-protocol`.

use anyhow::{Context, Result, anyhow, bail};
use fray_protocol::state::Phase;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// How long one HTTP exchange may take.
const TIMEOUT: Duration = Duration::from_secs(30);
/// Largest response body accepted.
const MAX_RESPONSE: usize = 16 * 1024 * 1024;

/// A server address, normalised to `host:port`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Server {
    authority: String,
}

impl Server {
    /// Parses `host:port`, `host` (port 7878), or either with an `http://`/`ws://` prefix and a
    /// trailing path (ignored).
    pub fn parse(text: &str) -> Result<Server> {
        let mut rest = text.trim();
        for scheme in ["http://", "ws://"] {
            if let Some(stripped) = rest.strip_prefix(scheme) {
                rest = stripped;
            }
        }
        if rest.starts_with("https://") || rest.starts_with("wss://") {
            bail!("`{text}`: TLS (https/wss) is not supported by this client");
        }
        let authority = rest.split('/').next().unwrap_or_default();
        if authority.is_empty() {
            bail!("`{text}` is not a server address (expected host:port, e.g. 127.0.0.1:7878)");
        }
        let has_port = if let Some(v6) = authority.strip_prefix('[') {
            v6.split_once(']')
                .map(|(_, after)| after.starts_with(':'))
                .ok_or_else(|| anyhow!("`{text}`: unterminated IPv6 address"))?
        } else {
            authority.contains(':')
        };
        let authority = if has_port {
            let port = authority.rsplit(':').next().unwrap_or_default();
            port.parse::<u16>()
                .map_err(|_| anyhow!("`{text}`: `{port}` is not a port number"))?;
            authority.to_owned()
        } else {
            format!("{authority}:7878")
        };
        Ok(Server { authority })
    }

    /// `host:port`.
    pub fn authority(&self) -> &str {
        &self.authority
    }

    /// The WebSocket endpoint.
    pub fn ws_url(&self) -> String {
        format!("ws://{}/ws", self.authority)
    }
}

/// A response: status code and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// HTTP status code.
    pub status: u16,
    /// The body, de-chunked.
    pub body: Vec<u8>,
}

impl Response {
    /// Whether the status is 2xx.
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The body as (lossy) text, for error messages.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Sends one request and reads the whole response.
pub async fn request(
    server: &Server,
    method: &str,
    path: &str,
    json_body: Option<&[u8]>,
) -> Result<Response> {
    request_as(server, method, path, json_body, None).await
}

/// [`request`] with `Authorization: Bearer <bearer>` when given (the operator key).
pub async fn request_as(
    server: &Server,
    method: &str,
    path: &str,
    json_body: Option<&[u8]>,
    bearer: Option<&str>,
) -> Result<Response> {
    let exchange = async {
        let mut stream = TcpStream::connect(server.authority())
            .await
            .with_context(|| format!("cannot connect to {}", server.authority()))?;
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nUser-Agent: fray-cli/{}\r\n\
             Accept: application/json\r\nConnection: close\r\n",
            server.authority(),
            env!("CARGO_PKG_VERSION"),
        );
        if let Some(key) = bearer {
            head.push_str(&format!("Authorization: Bearer {key}\r\n"));
        }
        if let Some(body) = json_body {
            head.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).await?;
        if let Some(body) = json_body {
            stream.write_all(body).await?;
        }
        stream.flush().await?;
        let mut raw = Vec::new();
        (&mut stream)
            .take(MAX_RESPONSE as u64 + 64 * 1024)
            .read_to_end(&mut raw)
            .await?;
        parse_response(&raw)
    };
    tokio::time::timeout(TIMEOUT, exchange)
        .await
        .map_err(|_| {
            anyhow!(
                "{method} {path}: no answer from {} within {TIMEOUT:?}",
                server.authority()
            )
        })?
        .with_context(|| format!("{method} {path} on {}", server.authority()))
}

/// Parses a complete HTTP/1.1 response (status line, headers, body).
pub fn parse_response(raw: &[u8]) -> Result<Response> {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| anyhow!("incomplete HTTP response ({} bytes)", raw.len()))?;
    let head = std::str::from_utf8(&raw[..split]).context("HTTP headers are not UTF-8")?;
    let rest = &raw[split + 4..];
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let mut parts = status_line.split_whitespace();
    let version = parts.next().unwrap_or_default();
    if !version.starts_with("HTTP/1.") {
        bail!("not an HTTP/1.x response: `{status_line}`");
    }
    let status: u16 = parts
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| anyhow!("bad HTTP status line: `{status_line}`"))?;
    let mut content_length = None;
    let mut chunked = false;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            content_length = Some(
                value
                    .parse::<usize>()
                    .map_err(|_| anyhow!("bad Content-Length `{value}`"))?,
            );
        } else if name.eq_ignore_ascii_case("transfer-encoding")
            && value.to_ascii_lowercase().contains("chunked")
        {
            chunked = true;
        }
    }
    let body = if chunked {
        dechunk(rest)?
    } else if let Some(len) = content_length {
        if rest.len() < len {
            bail!("response body truncated: {} of {len} bytes", rest.len());
        }
        rest[..len].to_vec()
    } else {
        rest.to_vec()
    };
    if body.len() > MAX_RESPONSE {
        bail!("response body of {} bytes is too large", body.len());
    }
    Ok(Response { status, body })
}

/// Decodes a chunked body.
fn dechunk(mut data: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let line_end = data
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or_else(|| anyhow!("chunked body truncated (no chunk size line)"))?;
        let size_text = std::str::from_utf8(&data[..line_end]).context("bad chunk size line")?;
        let size_hex = size_text.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size_hex, 16)
            .map_err(|_| anyhow!("bad chunk size `{size_hex}`"))?;
        data = &data[line_end + 2..];
        if size == 0 {
            return Ok(out);
        }
        if data.len() < size + 2 {
            bail!("chunked body truncated");
        }
        out.extend_from_slice(&data[..size]);
        data = &data[size + 2..];
    }
}

/// `POST /sessions` request body.
#[derive(Debug, Serialize)]
struct CreateRequest<'a> {
    encounter: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
}

/// `POST /sessions` answer.
#[derive(Debug, Clone, Deserialize)]
pub struct Created {
    /// Session id.
    pub session: String,
    /// Ruleset id.
    pub ruleset: String,
    /// Encounter title.
    pub title: String,
    /// Hex SHA-256(seed ‖ salt).
    pub commitment: String,
    /// Where to connect.
    pub ws_url: String,
    /// The seats' tokens.
    pub tokens: Tokens,
}

/// The tokens of a new session.
#[derive(Debug, Clone, Deserialize)]
pub struct Tokens {
    /// The GM's token.
    pub gm: String,
    /// The spectators' token.
    pub spectator: String,
    /// One per player seat.
    pub players: Vec<PlayerSeat>,
}

/// A player seat.
#[derive(Debug, Clone, Deserialize)]
pub struct PlayerSeat {
    /// Seat name from the encounter file.
    pub name: String,
    /// Combatant ids the seat controls.
    pub controls: Vec<String>,
    /// The seat's token.
    pub token: String,
}

/// One entry of `GET /sessions`.
#[derive(Debug, Clone, Deserialize)]
pub struct Listing {
    /// Session id.
    pub session: String,
    /// Ruleset id.
    pub ruleset: String,
    /// Encounter title.
    pub title: String,
    /// Whether it is a server-run demo session.
    pub demo: bool,
    /// Battle phase.
    pub phase: Phase,
    /// Last event sequence number.
    pub seq: u64,
    /// Spectator token (demo sessions only).
    pub spectator_token: Option<String>,
}

/// An error body `{code, message}`.
#[derive(Debug, Clone, Deserialize)]
struct ApiError {
    code: String,
    message: String,
}

/// Turns a non-2xx response into an error naming the server's code and message.
fn refusal(what: &str, resp: &Response) -> anyhow::Error {
    match serde_json::from_slice::<ApiError>(&resp.body) {
        Ok(e) => anyhow!("{what}: the server refused ({}): {}", e.code, e.message),
        Err(_) => {
            let text = resp.text();
            let text = text.trim();
            if text.is_empty() {
                anyhow!("{what}: HTTP {}", resp.status)
            } else {
                anyhow!("{what}: HTTP {}: {text}", resp.status)
            }
        }
    }
}

/// `POST /sessions` with the operator key: creates a session from encounter text.
pub async fn create_session(
    server: &Server,
    admin: &str,
    encounter: &str,
    seed: Option<u64>,
) -> Result<Created> {
    let body = serde_json::to_vec(&CreateRequest { encounter, seed })?;
    let resp = request_as(server, "POST", "/sessions", Some(&body), Some(admin)).await?;
    if !resp.is_success() {
        return Err(refusal("creating the session", &resp));
    }
    serde_json::from_slice(&resp.body)
        .with_context(|| format!("unexpected answer to POST /sessions: {}", resp.text()))
}

/// `GET /sessions/{id}/log` with a token of the session: its log as JSON lines (public, or the
/// full log for the GM's token).
pub async fn session_log(server: &Server, session: &str, token: &str) -> Result<Vec<u8>> {
    let path = format!("/sessions/{session}/log");
    let resp = request_as(server, "GET", &path, None, Some(token)).await?;
    if !resp.is_success() {
        return Err(refusal("downloading the log", &resp));
    }
    Ok(resp.body)
}

/// `GET /sessions`: lists sessions.
pub async fn list_sessions(server: &Server) -> Result<Vec<Listing>> {
    let resp = request(server, "GET", "/sessions", None).await?;
    if !resp.is_success() {
        return Err(refusal("listing sessions", &resp));
    }
    serde_json::from_slice(&resp.body)
        .with_context(|| format!("unexpected answer to GET /sessions: {}", resp.text()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_addresses_normalise() {
        let p = |s: &str| Server::parse(s).map(|s| s.authority().to_owned());
        assert_eq!(p("127.0.0.1:7878").ok().as_deref(), Some("127.0.0.1:7878"));
        assert_eq!(p("localhost").ok().as_deref(), Some("localhost:7878"));
        assert_eq!(p("http://h:80/").ok().as_deref(), Some("h:80"));
        assert_eq!(p("ws://h:9/ws").ok().as_deref(), Some("h:9"));
        assert_eq!(p("[::1]:7000").ok().as_deref(), Some("[::1]:7000"));
        assert_eq!(p("[::1]").ok().as_deref(), Some("[::1]:7878"));
        assert!(p("h:notaport").is_err());
        assert!(p("https://h").is_err());
        assert!(p("").is_err());
    }

    #[test]
    fn parses_content_length_response() {
        let raw = b"HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
        let r = parse_response(raw).expect("parses");
        assert_eq!(r.status, 201);
        assert_eq!(r.body, b"{}");
    }

    #[test]
    fn parses_chunked_response() {
        let raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n[1,\r\n2\r\n2]\r\n0\r\n\r\n";
        let r = parse_response(raw).expect("parses");
        assert_eq!(r.body, b"[1,2]");
    }

    #[test]
    fn truncated_responses_are_errors() {
        assert!(parse_response(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}").is_err());
        assert!(parse_response(b"HTTP/1.1 200 OK\r\n").is_err());
        assert!(parse_response(b"SSH-2.0\r\n\r\n").is_err());
    }

    #[test]
    fn refusals_name_code_and_message() {
        let resp = Response {
            status: 400,
            body: br#"{"code":"invalid_encounter","message":"goblins.toml: combatants[1].hp: must be positive"}"#
                .to_vec(),
        };
        let msg = refusal("creating the session", &resp).to_string();
        assert!(msg.contains("invalid_encounter"), "{msg}");
        assert!(msg.contains("must be positive"), "{msg}");
        let plain = Response {
            status: 500,
            body: b"oops".to_vec(),
        };
        assert_eq!(
            refusal("x", &plain).to_string(),
            "x: HTTP 500: oops".to_owned()
        );
    }

    #[test]
    fn listing_decodes() {
        let json = r#"[{"session":"s1","ruleset":"13th-age","title":"Demo","demo":true,
            "phase":"running","seq":12,"spectator_token":"tok"},
            {"session":"s2","ruleset":"13th-age","title":"Private","demo":false,
            "phase":"setup","seq":0,"spectator_token":null}]"#;
        let list: Vec<Listing> = serde_json::from_str(json).expect("decodes");
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].phase, Phase::Running);
        assert_eq!(list[1].spectator_token, None);
    }
}
