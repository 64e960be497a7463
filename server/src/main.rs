//! `fray-server`: the authoritative game-state server. Thin wrapper: parse options, set up
//! logging, recover sessions from the data directory, serve, flush on Ctrl-C.

use anyhow::Context;
use clap::{Parser, ValueEnum};
use fray_server::log::FsyncPolicy;
use fray_server::net::admin::{AdminKey, KeySource};
use fray_server::net::limits::Limits;
use fray_server::net::{self, Registry};
use fray_server::session::SessionConfig;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Fsync {
    /// fsync every group commit before acknowledging (default; nothing acknowledged is lost).
    Always,
    /// fsync at most every 50 ms (an acknowledged event may be lost on power failure).
    Interval,
    /// never fsync (benchmarks only).
    Never,
}

/// Fray: an authoritative, event-sourced game-state server for tabletop RPG combat.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Args {
    /// Address to listen on (port 0 picks a free port; the chosen address is printed).
    #[arg(long, default_value = "127.0.0.1:7878", env = "FRAY_LISTEN")]
    listen: String,
    /// Directory holding the session logs (created if missing).
    #[arg(long, default_value = "fray-data", env = "FRAY_DATA_DIR")]
    data_dir: PathBuf,
    /// When the log is synced to disk.
    #[arg(long, value_enum, default_value = "always")]
    fsync: Fsync,
    /// Start a demo fight played by built-in bots, restarting when it ends.
    #[arg(long)]
    demo: bool,
    /// Milliseconds between the demo bots' actions.
    #[arg(long, default_value_t = 1200)]
    demo_pace_ms: u64,
    /// The operator key that creating sessions needs (`Authorization: Bearer <key>`), at least
    /// 16 characters. Without it the key is read from `<data dir>/admin-token`, or generated
    /// there at first start.
    #[arg(long, env = "FRAY_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
    #[command(flatten)]
    limits: LimitArgs,
}

/// The server's limits (defaults in `net/limits.rs`).
#[derive(Debug, clap::Args)]
struct LimitArgs {
    /// Live sessions at most [default: 1000].
    #[arg(long)]
    max_sessions: Option<usize>,
    /// Session creations per client address per minute [default: 30].
    #[arg(long)]
    creations_per_minute: Option<u32>,
    /// Connections of one session at most [default: 128].
    #[arg(long)]
    connections_per_session: Option<usize>,
    /// Connections of one token (seat) at most [default: 32].
    #[arg(long)]
    connections_per_token: Option<usize>,
    /// Messages per second per connection [default: 500, bursts of 2000].
    #[arg(long)]
    messages_per_second: Option<u32>,
    /// Seconds from TCP accept to the WebSocket hello [default: 10].
    #[arg(long)]
    handshake_timeout_secs: Option<u64>,
    /// Connections that have not said hello yet, at most [default: 256].
    #[arg(long)]
    max_unhello: Option<usize>,
    /// Bytes queued for one subscriber before it is dropped as lagging [default: 1048576].
    #[arg(long)]
    subscriber_queue_bytes: Option<usize>,
    /// Seconds a finished session nobody watches stays in memory and the listing [default: 900].
    #[arg(long)]
    retention_secs: Option<u64>,
    /// Seconds a session nobody is connected to keeps its world in memory before it hibernates
    /// (reopened from its log at the next connection) [default: 60].
    #[arg(long)]
    hibernate_after_secs: Option<u64>,
    /// Chat lines and free rolls per minute per connection [default: 30, bursts of 10].
    #[arg(long)]
    talk_per_minute: Option<u32>,
}

impl LimitArgs {
    fn limits(&self) -> Limits {
        let d = Limits::default();
        Limits {
            max_sessions: self.max_sessions.unwrap_or(d.max_sessions),
            creations_per_minute: self.creations_per_minute.unwrap_or(d.creations_per_minute),
            connections_per_session: self
                .connections_per_session
                .unwrap_or(d.connections_per_session),
            connections_per_token: self
                .connections_per_token
                .unwrap_or(d.connections_per_token),
            messages_per_second: self.messages_per_second.unwrap_or(d.messages_per_second),
            message_burst: self
                .messages_per_second
                .map_or(d.message_burst, |m| m.saturating_mul(4)),
            max_unhello: self.max_unhello.unwrap_or(d.max_unhello),
            handshake_timeout: self
                .handshake_timeout_secs
                .map_or(d.handshake_timeout, Duration::from_secs),
            subscriber_queue_bytes: self
                .subscriber_queue_bytes
                .unwrap_or(d.subscriber_queue_bytes),
            retention: self.retention_secs.map_or(d.retention, Duration::from_secs),
            hibernate_after: self
                .hibernate_after_secs
                .map_or(d.hibernate_after, Duration::from_secs),
            talk_per_minute: self.talk_per_minute.unwrap_or(d.talk_per_minute),
            talk_burst: self
                .talk_per_minute
                .map_or(d.talk_burst, |t| t.div_ceil(3).max(1)),
        }
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let args = Args::parse();
    std::fs::create_dir_all(&args.data_dir)
        .with_context(|| format!("cannot create data dir {}", args.data_dir.display()))?;
    let config = SessionConfig {
        fsync: match args.fsync {
            Fsync::Always => FsyncPolicy::Always,
            Fsync::Interval => FsyncPolicy::Interval(Duration::from_millis(50)),
            Fsync::Never => FsyncPolicy::Never,
        },
        ..SessionConfig::default()
    };
    let (admin, source) = AdminKey::resolve(args.admin_token.as_deref(), &args.data_dir)
        .context("cannot set up the operator key")?;
    match &source {
        KeySource::Given => tracing::info!("operator key from --admin-token / FRAY_ADMIN_TOKEN"),
        KeySource::File(p) => tracing::info!(file = %p.display(), "operator key read"),
        KeySource::Generated(p) => tracing::info!(
            file = %p.display(),
            "operator key generated: creating sessions needs `Authorization: Bearer <the key in this file>` (`fray new` reads it there)"
        ),
    }
    let registry = Registry::with_limits(args.data_dir.clone(), config, args.limits.limits());
    let recovered = {
        let r = registry.clone();
        let resume_demos = args.demo;
        tokio::task::spawn_blocking(move || r.recover_all(resume_demos)).await?
    };
    let listener = tokio::net::TcpListener::bind(&args.listen)
        .await
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    let addr = listener.local_addr()?;
    tracing::info!(%addr, data_dir = %args.data_dir.display(), recovered = recovered.recovered, quarantined = recovered.quarantined.len(), "fray-server ready");
    // One machine-readable line on stdout for scripts and tests.
    println!("fray-server listening on {addr}");
    let demo = args.demo.then(|| {
        tokio::spawn(fray_server::demo::run(
            registry.clone(),
            addr,
            Duration::from_millis(args.demo_pace_ms),
            recovered.unfinished_demos,
        ))
    });
    net::serve(listener, registry, admin, shutdown_signal()).await?;
    if let Some(d) = demo {
        d.abort();
    }
    tracing::info!("logs flushed; bye");
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("shutting down");
}
