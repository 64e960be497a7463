//! Shared harness for Fray's end-to-end tests: a real server on port 0 in a temp dir, a tiny
//! HTTP client for session creation, an in-process fight driver (the demo bots' policy) for
//! recording replays, and helpers to tamper with logs.

use anyhow::{Result, anyhow};
use fray_protocol::Command;
use fray_protocol::ids::Role;
use fray_protocol::state::Phase;
use fray_server::demo::bot::next_for_table;
use fray_server::net::{self, Registry};
use fray_server::session::{Session, SessionConfig};
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

/// A server running in this process.
pub struct TestServer {
    /// Its address.
    pub addr: SocketAddr,
    /// Its registry.
    pub registry: Arc<Registry>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
    /// Keeps the data dir alive.
    pub dir: tempfile::TempDir,
}

impl TestServer {
    /// Starts a server on 127.0.0.1:0 with a fresh data dir.
    pub async fn start() -> Result<TestServer> {
        let dir = tempfile::tempdir()?;
        let registry = Registry::new(dir.path().to_path_buf(), SessionConfig::default());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let reg = registry.clone();
        let task = tokio::spawn(async move {
            let _ = net::serve(listener, reg, async {
                let _ = rx.await;
            })
            .await;
        });
        Ok(TestServer {
            addr,
            registry,
            stop: Some(tx),
            task,
            dir,
        })
    }

    /// The WebSocket URL.
    pub fn ws_url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// Stops the server and flushes its logs.
    pub async fn stop(mut self) -> tempfile::TempDir {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        let _ = self.task.await;
        self.dir
    }
}

/// Creates a session over HTTP from a built-in encounter; returns the creation JSON.
pub async fn create_session(
    addr: SocketAddr,
    encounter: &str,
    seed: u64,
) -> Result<serde_json::Value> {
    let text = fray_server::content::builtin_encounters("13th-age")
        .iter()
        .find(|(n, _)| *n == encounter)
        .map(|(_, t)| *t)
        .ok_or_else(|| anyhow!("no built-in encounter {encounter}"))?;
    Ok(fray_server::demo::client::create_session(addr, encounter, text, Some(seed)).await?)
}

/// The roles of a session's seats, GM first.
pub fn roles(encounter: &fray_server::content::model::Encounter) -> Vec<Role> {
    let mut roles = vec![Role::Gm];
    roles.extend(encounter.seats.iter().map(|s| Role::Player {
        name: s.name.clone(),
        controls: s.controls.clone(),
    }));
    roles
}

/// Plays a session to its end in process with the bots' policy; returns the commands sent.
pub fn play_in_process(session: &mut Session, max_ticks: u64) -> Result<Vec<Command>> {
    let roles = roles(&session.genesis().encounter);
    let mut sent = Vec::new();
    for tick in 0..max_ticks {
        let state = session.state();
        if state.phase == Phase::Ended && state.seed_revealed {
            return Ok(sent);
        }
        let (role, cmd) = next_for_table(&state, &roles, tick)
            .ok_or_else(|| anyhow!("no move at tick {tick}"))?;
        let label = match &role {
            Role::Player { name, .. } => format!("player:{name}"),
            _ => "gm".into(),
        };
        session
            .stage(&label, tick + 1, &cmd)
            .map_err(|r| anyhow!("rejected at tick {tick}: {cmd:?}: {r}"))?;
        session.commit()?;
        sent.push(cmd);
    }
    Err(anyhow!("fight did not end in {max_ticks} ticks"))
}

/// Copies every file of a directory (flat).
pub fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        if e.path().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name()))?;
        }
    }
    Ok(())
}
