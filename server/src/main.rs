//! `fray-server`: the authoritative game-state server. Thin wrapper: parse options, set up
//! logging, recover sessions from the data directory, serve, flush on Ctrl-C.

use anyhow::Context;
use clap::{Parser, ValueEnum};
use fray_server::log::FsyncPolicy;
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
    let registry = Registry::new(args.data_dir.clone(), config);
    let recovered = {
        let r = registry.clone();
        tokio::task::spawn_blocking(move || r.recover_all()).await?
    };
    let listener = tokio::net::TcpListener::bind(&args.listen)
        .await
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    let addr = listener.local_addr()?;
    tracing::info!(%addr, data_dir = %args.data_dir.display(), recovered, "fray-server ready");
    // One machine-readable line on stdout for scripts and tests.
    println!("fray-server listening on {addr}");
    let demo = args.demo.then(|| {
        tokio::spawn(fray_server::demo::run(
            registry.clone(),
            addr,
            Duration::from_millis(args.demo_pace_ms),
        ))
    });
    net::serve(listener, registry, shutdown_signal()).await?;
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
