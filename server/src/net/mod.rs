//! The network front end: HTTP for creating and listing sessions, WebSocket for play.
//!
//! - `POST /sessions` — create a session from an encounter (TOML text) and an optional seed;
//!   returns the tokens and the seed commitment. Needs the operator key (`admin.rs`).
//! - `GET /sessions` — list sessions: the demo sessions to anyone, every session to the
//!   operator (spectator tokens only for demo sessions).
//! - `GET /sessions/{id}/log` — the session's log as JSON lines (`replay::log_lines`): the
//!   public log to any token of the session, the full log to its GM's token or the operator.
//! - `GET /ws` — the WebSocket endpoint (subprotocols `fray.v1.json`, `fray.v1.bincode`).
//! - `GET /health` — liveness.
//! - `GET /`, `/app.js`, … — the browser client; `GET /encounters` — its lobby's encounters (`web.rs`).

pub mod admin;
pub mod auth;
pub mod connection;
pub mod limits;
pub mod listener;
pub mod registry;
pub mod session_task;
pub mod views;
pub mod web;

use crate::content::ContentError;
use crate::rules::load_encounter;
use admin::AdminKey;
use axum::extract::{ConnectInfo, Path, State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use fray_protocol::ErrorCode;
use fray_protocol::codec::Encoding;
use fray_protocol::message::{SUBPROTOCOL_BINCODE, SUBPROTOCOL_JSON};
use limits::PerAddress;
use listener::{FrayListener, Peer};
pub use registry::{DemoSeats, Recovery, Registry};
use serde::Deserialize;
use session_task::SessionMsg;
use std::net::SocketAddr;
use std::sync::Arc;

/// Shared state of the HTTP handlers.
#[derive(Clone)]
pub struct AppState {
    /// Sessions and tokens.
    pub registry: Arc<Registry>,
    /// The address clients reach (for `ws_url`).
    pub addr: SocketAddr,
    /// The operator key.
    pub admin: AdminKey,
    /// Session creations per client address.
    pub creations: Arc<PerAddress>,
}

/// Body of `POST /sessions`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// Encounter file text (TOML).
    pub encounter: String,
    /// Seed; random when absent.
    pub seed: Option<u64>,
    /// File name for error messages.
    #[serde(default)]
    pub name: Option<String>,
}

fn refuse(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> Response {
    json_error(status, &code.to_string(), message)
}

/// The `Authorization` header's value, if it is text.
fn authorization(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
}

fn is_operator(app: &AppState, headers: &HeaderMap) -> bool {
    app.admin.admits(authorization(headers))
}

fn json_error(status: StatusCode, code: &str, message: impl Into<String>) -> Response {
    (
        status,
        Json(serde_json::json!({"code": code, "message": message.into()})),
    )
        .into_response()
}

async fn create_session(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<Peer>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    if !is_operator(&app, &headers) {
        return refuse(
            StatusCode::UNAUTHORIZED,
            ErrorCode::Unauthorized,
            "creating a session needs the operator key: Authorization: Bearer <key> (see the server's admin-token file)",
        );
    }
    if !app.creations.allow(peer.addr.ip()) {
        return refuse(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::RateLimited,
            format!(
                "more than {} session creations a minute from {}",
                app.registry.limits().creations_per_minute,
                peer.addr.ip()
            ),
        );
    }
    let max = app.registry.limits().max_sessions;
    if app.registry.len() >= max {
        return refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::TooManySessions,
            format!("the server already holds {max} live sessions"),
        );
    }
    if body.len() > 256 * 1024 {
        return json_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            "frame_too_large",
            "encounter request over 256 KiB",
        );
    }
    let req: CreateRequest = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => {
            return json_error(
                StatusCode::BAD_REQUEST,
                "malformed_frame",
                format!("bad request body: {e}"),
            );
        }
    };
    let name = req.name.unwrap_or_else(|| "encounter".into());
    let encounter = match load_encounter(&name, &req.encounter) {
        Ok(e) => e,
        Err(e @ (ContentError::Syntax { .. } | ContentError::Invalid { .. })) => {
            return json_error(StatusCode::BAD_REQUEST, "invalid_encounter", e.to_string());
        }
    };
    let registry = app.registry.clone();
    let seed = req.seed;
    let result = tokio::task::spawn_blocking(move || registry.create(encounter, seed, false)).await;
    match result {
        Ok(Ok(mut created)) => {
            created.ws_url = format!("ws://{}/ws", app.addr);
            (StatusCode::CREATED, Json(created)).into_response()
        }
        Ok(Err(e)) => json_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "session_unavailable",
            e.to_string(),
        ),
        Err(e) => json_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "session_unavailable",
            e.to_string(),
        ),
    }
}

async fn list_sessions(State(app): State<AppState>, headers: HeaderMap) -> Response {
    let mut list = app.registry.list();
    if !is_operator(&app, &headers) {
        list.retain(|s| s.demo);
    }
    Json(list).into_response()
}

/// `GET /sessions/{id}/log`: the log as JSON lines for the bearer's audience.
async fn session_log(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let bearer = admin::bearer(authorization(&headers));
    let audience = if is_operator(&app, &headers) {
        Some(crate::replay::Audience::Gm)
    } else {
        bearer
            .and_then(|t| app.registry.token(t))
            .filter(|(handle, _)| handle.info().session == id)
            .map(|(_, role)| match role {
                fray_protocol::Role::Gm => crate::replay::Audience::Gm,
                _ => crate::replay::Audience::Public,
            })
    };
    let Some(audience) = audience else {
        return refuse(
            StatusCode::UNAUTHORIZED,
            ErrorCode::Unauthorized,
            "a session's log needs one of its tokens (or the operator key): Authorization: Bearer <token>",
        );
    };
    let Some(dir) = app.registry.session_dir(&id).filter(|d| d.is_dir()) else {
        return refuse(
            StatusCode::NOT_FOUND,
            ErrorCode::SessionUnavailable,
            format!("no session {id}"),
        );
    };
    let lines = tokio::task::spawn_blocking(move || {
        crate::replay::read_log(&dir)
            .and_then(|fight| crate::replay::log_lines::write(&fight, audience))
    })
    .await;
    match lines {
        Ok(Ok(text)) => ([(header::CONTENT_TYPE, "application/x-ndjson")], text).into_response(),
        Ok(Err(e)) => refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::SessionUnavailable,
            format!("cannot read the log of {id}: {e}"),
        ),
        Err(e) => refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::SessionUnavailable,
            e.to_string(),
        ),
    }
}

/// The read buffer of a WebSocket connection: larger frames are still read, in several reads.
const READ_BUFFER: usize = 8 * 1024;

async fn ws_handler(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<Peer>,
    ws: WebSocketUpgrade,
) -> Response {
    let ws = ws
        .protocols([SUBPROTOCOL_JSON, SUBPROTOCOL_BINCODE])
        // Frames up to 1 MiB are read so that an oversize one gets a `frame_too_large` answer;
        // Fray's own limit (64 KiB) is checked by the connection.
        .max_message_size(1024 * 1024)
        .max_frame_size(1024 * 1024)
        // Clients send small frames: a read buffer of tungstenite's default 128 KiB per
        // connection was a fifth of a live session's memory (BENCHMARKS.md, "Live sessions").
        .read_buffer_size(READ_BUFFER);
    let enc = ws
        .selected_protocol()
        .and_then(|p| p.to_str().ok())
        .and_then(Encoding::from_subprotocol)
        .unwrap_or(Encoding::Json);
    let registry = app.registry.clone();
    ws.on_upgrade(move |socket| connection::serve(socket, enc, registry, peer.handshake))
}

/// The router.
pub fn router(app: AppState) -> Router {
    Router::new()
        .route("/sessions", post(create_session).get(list_sessions))
        .route("/sessions/{id}/log", get(session_log))
        .route("/ws", get(ws_handler))
        .route("/health", get(|| async { "ok" }))
        .merge(web::router())
        .with_state(app)
}

/// Serves until `shutdown` resolves, then flushes every session's log. `admin` is the operator
/// key that creating sessions needs; the limits are the registry's.
pub async fn serve(
    listener: tokio::net::TcpListener,
    registry: Arc<Registry>,
    admin: AdminKey,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let addr = listener.local_addr()?;
    let limits = registry.limits().clone();
    let app = AppState {
        registry: registry.clone(),
        addr,
        admin,
        creations: Arc::new(PerAddress::new(limits.creations_per_minute)),
    };
    let listener = FrayListener::new(listener, &limits);
    axum::serve(
        listener,
        router(app).into_make_service_with_connect_info::<Peer>(),
    )
    .with_graceful_shutdown(shutdown)
    .await?;
    shutdown_sessions(&registry).await;
    Ok(())
}

/// Asks every session task to flush its log and stop, and waits for them.
pub async fn shutdown_sessions(registry: &Registry) {
    for h in registry.handles() {
        let (tx, rx) = tokio::sync::oneshot::channel();
        if h.tx.send(SessionMsg::Shutdown(tx)).await.is_ok() {
            let _ = rx.await;
        }
    }
}
