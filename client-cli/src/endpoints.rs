//! The server's HTTP endpoints (`POST /sessions`, `GET /sessions`, `GET /sessions/{id}/log`)
//! through the one HTTP client Fray uses (`fray_server::demo::client::request_trusting`: ureq,
//! with rustls for `https://`, trusting the address's roots: `--ca-cert`).
//!
//! The JSON shapes of those endpoints are mirrored here; they are not (yet) part of
//! `fray-protocol`.

use crate::address::Server;
use anyhow::{Context, Result, anyhow};
use fray_protocol::state::Phase;
use serde::{Deserialize, Serialize};

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
    let (status, body) = fray_server::demo::client::request_trusting(
        server.url(path),
        method,
        json_body.map(<[u8]>::to_vec),
        bearer,
        &server.http_roots(),
    )
    .await
    .map_err(|e| crate::tls::explain(anyhow!("cannot reach {}: {e}", server.authority())))?;
    Ok(Response { status, body })
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
