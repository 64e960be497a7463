//! The `peers` scenario: closed loop, as a client lives (DESIGN §9, issue 19).
//!
//! One GM plays the fight that `ws::ws_script` played in advance (hit points × 100 ×
//! `--hp-scale`, so that it does not end; `--peer-ticks` ticks: a run that uses them all ends
//! early with a warning) while S spectators watch. The GM sends its next command only when
//! fewer than W commands are *incomplete*; a command is complete when the GM has its
//! acknowledgement (Fray's `accepted`, the relay's echoed marker) **and** every spectator has
//! received the command's last event. With W = 1 the GM therefore waits for each `accepted`
//! before the next command (and for the spectators, which a server that broadcasts before it
//! acknowledges has already served); with W = 32 it pipelines. Gating on the spectators too
//! keeps a server that is faster than its spectators from queueing without bound (Fray drops a
//! spectator 4,096 ticks behind; the relay would drop frames), so the latency stays the
//! latency of a command rather than of a queue.
//!
//! Latency of a command = the instant it is complete − the instant just before the GM sent
//! it. Per run: commands/s and deliveries/s (events received by the spectators, summed over
//! them) from the first send to the last completion; p50/p99/max latency; the p50/p99 of the
//! GM's acknowledgement alone (where a per-write stall such as Nagle's shows); and, for Fray,
//! the ratio to the relay run with the same S and W. The relay is the bare tokio-tungstenite
//! relay of `ws` (TCP_NODELAY on its sockets) fed the very spectator frames Fray sends.
//!
//! Then the open-rate figure: `--rate` (1,000) commands/s paced regardless of answers to
//! `--spectators` (100), fsync always, p99 of command → all spectators (and the GM).
//!
//! With `--peer-node colyseus,boardgameio`, the same runs against peers from npm
//! (`server/benches/peers/`): Colyseus 0.16 (a room that does no game work, broadcasting as many
//! messages of the same size per command as Fray's frames, then acknowledging to the GM) and
//! boardgame.io 0.50 (a game whose one move stores that many strings of that size, which
//! boardgame.io sends to every client as its state update; W = 1 only: it rejects a move made
//! on a stale state, so one client cannot pipeline). Each is measured by a Node driver of the
//! same closed loop (`closed-loop.js`, the peer's own client library) that prints the same
//! fields as JSON. Its clients run in one Node process and its server in another.
//!
//! Cores (`--peer-cores`): by default, as issue 19 measures, the server and its clients have a
//! core each — Fray or the relay on a one-worker tokio runtime pinned to the first core the
//! process may use (its blocking threads, which write the log, too), and the GM and the
//! spectators on another one-worker runtime pinned to the second (with the main thread, which
//! drives the GM). The Node peers' two processes may use both cores. `shared` puts servers and
//! clients on one two-worker runtime, as the tables before session 19 were measured.

use crate::ws::{Drive, FrayServer, Raw, Script, ws_fray, ws_relay, ws_script};
use crate::{Args, NodePeer, PeerCores, PeerFsync, Report, Target, fmt_num, scaled};
use anyhow::{Context, Result, bail};
use fray_server::content::model::Encounter;
use fray_server::log::FsyncPolicy;
use fray_server::session::SessionConfig;
use nix::sched::{CpuSet, sched_getaffinity, sched_setaffinity};
use nix::unistd::Pid;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command as Process;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::runtime::{Builder, Handle, Runtime};

/// Pins the calling thread to one core.
fn pin(cpu: usize) -> nix::Result<()> {
    let mut set = CpuSet::new();
    set.set(cpu)?;
    sched_setaffinity(Pid::from_raw(0), &set)
}

/// A one-worker runtime whose threads (its worker and its blocking threads) are pinned to `cpu`.
fn pinned_runtime(name: &str, cpu: usize) -> Result<Runtime> {
    let thread = name.to_string();
    Ok(Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name(name)
        .on_thread_start(move || {
            if let Err(e) = pin(cpu) {
                eprintln!("    warning: {thread} thread not pinned to CPU {cpu}: {e}");
            }
        })
        .enable_all()
        .build()?)
}

/// The main thread's cores before the scenario pinned it; given back when dropped, so that the
/// scenarios after this one have every core again.
struct MainAffinity(CpuSet);

impl Drop for MainAffinity {
    fn drop(&mut self) {
        let _ = sched_setaffinity(Pid::from_raw(0), &self.0);
    }
}

/// Where the servers and the clients run (`--peer-cores`).
struct Runtimes {
    /// The GM's and the spectators' runtime (every runtime when shared).
    clients: Runtime,
    /// The servers' own runtime, when split.
    server: Option<Runtime>,
    /// The cores the main thread may use, given back to it while a Node peer's processes
    /// start (they inherit its mask) and when the scenario ends.
    main: MainAffinity,
    /// For the report.
    label: String,
}

impl Runtimes {
    fn new(cores: PeerCores) -> Result<Runtimes> {
        let all = sched_getaffinity(Pid::from_raw(0))?;
        let allowed: Vec<usize> = (0..CpuSet::count())
            .filter(|&c| all.is_set(c).unwrap_or(false))
            .collect();
        let shared = |label: String| -> Result<Runtimes> {
            Ok(Runtimes {
                clients: Builder::new_multi_thread().enable_all().build()?,
                server: None,
                main: MainAffinity(all),
                label,
            })
        };
        let (server_cpu, client_cpu) = match (cores, allowed.as_slice()) {
            (PeerCores::Split, [s, c, ..]) => (*s, *c),
            (PeerCores::Split, _) => {
                eprintln!("peers: fewer than two cores to use; server and clients share them");
                return shared("shared (fewer than two cores)".into());
            }
            (PeerCores::Shared, _) => {
                return shared(format!(
                    "shared: servers and clients on one runtime over CPUs {allowed:?}"
                ));
            }
        };
        // The main thread drives the GM (`block_on`): it is a client.
        let main = MainAffinity(all);
        pin(client_cpu)?;
        Ok(Runtimes {
            clients: pinned_runtime("peers-clients", client_cpu)?,
            server: Some(pinned_runtime("peers-server", server_cpu)?),
            main,
            label: format!(
                "split: server on CPU {server_cpu}, GM and spectators on CPU {client_cpu}"
            ),
        })
    }

    /// The runtime the servers run on.
    fn server(&self) -> &Handle {
        self.server.as_ref().unwrap_or(&self.clients).handle()
    }

    /// Runs `f` with the main thread allowed on every core again (a Node peer's processes
    /// inherit its mask), then pins it back.
    fn unpinned<T>(&self, f: impl FnOnce() -> T) -> T {
        let before = sched_getaffinity(Pid::from_raw(0)).ok();
        let _ = sched_setaffinity(Pid::from_raw(0), &self.main.0);
        let out = f();
        if let Some(b) = before {
            let _ = sched_setaffinity(Pid::from_raw(0), &b);
        }
        out
    }

    fn shutdown(self) {
        self.clients.shutdown_timeout(Duration::from_secs(2));
        if let Some(s) = self.server {
            s.shutdown_timeout(Duration::from_secs(2));
        }
    }
}

/// Which server a run talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Server {
    Relay,
    Fray(PeerFsync),
    Node(NodePeer),
}

impl Server {
    fn label(self) -> &'static str {
        match self {
            Server::Relay => "relay",
            Server::Fray(PeerFsync::Always) => "fray fsync always",
            Server::Fray(PeerFsync::Never) => "fray fsync never",
            Server::Node(NodePeer::Colyseus) => "colyseus 0.16",
            Server::Node(NodePeer::Boardgameio) => "boardgame.io 0.50",
        }
    }
}

/// The figures of one run.
#[derive(Debug, Default, Clone)]
struct Closed {
    sent: u64,
    complete: u64,
    /// First send to the last completion.
    span_secs: f64,
    commands_per_sec: f64,
    deliveries_per_sec: f64,
    /// Command → GM and every spectator, ms.
    p50: f64,
    p99: f64,
    max: f64,
    /// Command → the GM's acknowledgement alone, ms.
    ack_p50: f64,
    ack_p99: f64,
    accepted: u64,
    rejected: u64,
    mismatch: u64,
    /// Frames at spectators that were not events (e.g. Fray's `lagging` error).
    other: u64,
}

fn pct(sorted: &[f64], p: f64) -> f64 {
    sorted
        .get(((sorted.len().max(1) - 1) as f64 * p).round() as usize)
        .copied()
        .unwrap_or(f64::NAN)
}

fn closed(raw: &Raw) -> Closed {
    let mut c = Closed {
        sent: raw.sent.len() as u64,
        accepted: raw.acks.accepted,
        rejected: raw.acks.rejected,
        mismatch: raw.acks.mismatch,
        ..Closed::default()
    };
    let Some(&first) = raw.sent.first() else {
        return c;
    };
    let (mut latencies, mut ack_latencies) = (Vec::new(), Vec::new());
    let mut end = first;
    for (k, t0) in raw.sent.iter().enumerate() {
        let ack = raw.acks.at.get(k).copied().flatten();
        if let Some(a) = ack {
            ack_latencies.push(a.duration_since(*t0).as_secs_f64() * 1e3);
        }
        let mut done: Option<Instant> = ack;
        for s in &raw.seen {
            done = match (done, s.at.get(k).copied().flatten()) {
                (Some(d), Some(t)) => Some(d.max(t)),
                _ => None,
            };
        }
        if let Some(d) = done {
            c.complete += 1;
            end = end.max(d);
            latencies.push(d.duration_since(*t0).as_secs_f64() * 1e3);
        }
    }
    let events: u64 = raw.seen.iter().map(|s| s.events).sum();
    c.other = raw.seen.iter().map(|s| s.other).sum();
    c.span_secs = (end - first).as_secs_f64();
    c.commands_per_sec = c.complete as f64 / c.span_secs.max(1e-9);
    c.deliveries_per_sec = events as f64 / c.span_secs.max(1e-9);
    latencies.sort_unstable_by(f64::total_cmp);
    ack_latencies.sort_unstable_by(f64::total_cmp);
    c.p50 = pct(&latencies, 0.5);
    c.p99 = pct(&latencies, 0.99);
    c.max = pct(&latencies, 1.0);
    c.ack_p50 = pct(&ack_latencies, 0.5);
    c.ack_p99 = pct(&ack_latencies, 0.99);
    c
}

impl NodePeer {
    /// Where the peer lives (`npm ci --omit=optional --ignore-scripts` there first).
    fn dir(self) -> PathBuf {
        let name = match self {
            NodePeer::Colyseus => "colyseus",
            NodePeer::Boardgameio => "boardgameio",
        };
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("benches/peers")
            .join(name)
    }
    /// A package that `npm ci` installs.
    fn package(self) -> &'static str {
        match self {
            NodePeer::Colyseus => "node_modules/@colyseus/core",
            NodePeer::Boardgameio => "node_modules/boardgame.io",
        }
    }
    /// Whether one client may have several commands in flight.
    fn pipelines(self) -> bool {
        self == NodePeer::Colyseus
    }
    /// Whether the peer can run: `node` answers and the packages are installed.
    fn ready(self) -> bool {
        self.dir().join(self.package()).is_dir()
            && Process::new("node")
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
    }
}

/// One run of a Node peer: its driver (`bench.js`, which starts the peer's server `server.js`
/// on 127.0.0.1) measures the same closed loop and prints the same fields as JSON.
fn run_node(
    peer: NodePeer,
    n: usize,
    mode: Drive,
    budget: Duration,
    events: u64,
    bytes: u64,
) -> Result<Closed> {
    let (window, rate) = match mode {
        Drive::Window(w) => (w, 0.0),
        Drive::Rate(r) => (1, r),
    };
    let script = peer.dir().join("bench.js");
    let mut child = Process::new("node")
        .arg(&script)
        .args(["--spectators", &n.to_string()])
        .args(["--window", &window.to_string()])
        .args(["--rate", &rate.to_string()])
        .args(["--seconds", &budget.as_secs_f64().to_string()])
        .args(["--events", &events.to_string()])
        .args(["--bytes", &bytes.to_string()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .spawn()
        .with_context(|| format!("running node {}", script.display()))?;
    // The driver stops by itself (its run, then at most 3 s of waiting); a minute more is
    // for connecting the clients. After that it is stopped.
    let deadline = Instant::now() + budget + Duration::from_secs(60);
    while child.try_wait()?.is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            bail!(
                "the {peer:?} driver did not finish within {:?}",
                budget + Duration::from_secs(60)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output()?;
    if !out.status.success() {
        bail!("the {peer:?} driver failed ({})", out.status);
    }
    let v: Value = serde_json::from_slice(&out.stdout)
        .with_context(|| format!("the {peer:?} driver's JSON"))?;
    let f = |k: &str| v.get(k).and_then(Value::as_f64).unwrap_or(f64::NAN);
    let u = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0);
    let c = Closed {
        sent: u("sent"),
        complete: u("complete"),
        accepted: u("acknowledged"),
        commands_per_sec: f("commands_per_sec"),
        deliveries_per_sec: f("deliveries_per_sec"),
        p50: f("p50_ms"),
        p99: f("p99_ms"),
        max: f("max_ms"),
        ack_p50: f("ack_p50_ms"),
        ack_p99: f("ack_p99_ms"),
        ..Closed::default()
    };
    if c.complete < c.sent {
        eprintln!(
            "    warning: {} of {} commands complete",
            c.complete, c.sent
        );
    }
    Ok(c)
}

/// Runs one (server, spectators, drive) on the runtime.
#[allow(clippy::too_many_arguments)]
fn run(
    rt: &Runtimes,
    server: Server,
    dir: &Path,
    long: &Encounter,
    seed: u64,
    script: &Arc<Script>,
    n: usize,
    mode: Drive,
    budget: Duration,
) -> Result<Closed> {
    let raw = match server {
        Server::Node(peer) => {
            let events = (script.events as f64 / script.len().max(1) as f64).round() as u64;
            let bytes = script.frame_bytes / script.events.max(1);
            return rt.unpinned(|| run_node(peer, n, mode, budget, events, bytes));
        }
        Server::Relay => {
            rt.clients
                .block_on(ws_relay(rt.server(), script.clone(), n, mode, budget, true))?
        }
        Server::Fray(f) => {
            let config = SessionConfig {
                fsync: match f {
                    PeerFsync::Always => FsyncPolicy::Always,
                    PeerFsync::Never => FsyncPolicy::Never,
                },
                ..SessionConfig::default()
            };
            rt.clients.block_on(ws_fray(
                rt.server(),
                FrayServer {
                    dir: dir.to_path_buf(),
                    config,
                    nodelay: false,
                },
                long,
                seed,
                script.clone(),
                n,
                mode,
                budget,
                true,
            ))?
        }
    };
    let c = closed(&raw);
    if c.sent as usize >= script.len() {
        eprintln!(
            "    warning: the run used all {} ticks of the script and ended early (raise --peer-ticks)",
            script.len()
        );
    }
    if c.complete < c.sent || c.accepted < c.sent || c.rejected > 0 || c.mismatch > 0 {
        eprintln!(
            "    warning: {} of {} commands complete; {} acknowledged, {} rejected, {} with other sequence numbers than the script; {} non-event frames at spectators",
            c.complete, c.sent, c.accepted, c.rejected, c.mismatch, c.other
        );
    }
    Ok(c)
}

/// Adds one run's figures to the report and a row to the table.
fn record(
    report: &mut Report,
    table: &mut String,
    label: &str,
    c: &Closed,
    relay: Option<&Closed>,
    p99_target: Option<Target>,
) {
    let s = "peers";
    report.add(s, format!("{label}: commands sent"), c.sent as f64, "cmd");
    report.add(
        s,
        format!("{label}: commands not complete"),
        c.sent.saturating_sub(c.complete) as f64,
        "cmd",
    );
    report.add(
        s,
        format!("{label}: commands/s"),
        c.commands_per_sec,
        "cmd/s",
    );
    report.add(
        s,
        format!("{label}: deliveries/s (events × spectators)"),
        c.deliveries_per_sec,
        "ev/s",
    );
    let (p50, p99, max) = (c.p50, c.p99, c.max);
    report.add(s, format!("{label}: latency p50"), p50, "ms");
    report.push(s, format!("{label}: latency p99"), p99, "ms", p99_target);
    report.add(s, format!("{label}: latency max"), max, "ms");
    let (a50, a99) = (c.ack_p50, c.ack_p99);
    report.add(s, format!("{label}: GM acknowledgement p50"), a50, "ms");
    report.add(s, format!("{label}: GM acknowledgement p99"), a99, "ms");
    let (ratio_cmds, ratio_p99) = match relay {
        Some(r) => {
            let rc = c.commands_per_sec / r.commands_per_sec.max(1e-9);
            let rp = p99 / r.p99;
            report.add(s, format!("{label}: commands/s / relay's"), rc, "×");
            report.add(s, format!("{label}: latency p99 / relay's"), rp, "×");
            (format!("{rc:.2}×"), format!("{rp:.1}×"))
        }
        None => (String::new(), String::new()),
    };
    let _ = writeln!(
        table,
        "| {label} | {} | {} | {} | {p50:.2} | {p99:.2} | {a50:.2} / {a99:.2} | {ratio_cmds} | {ratio_p99} |",
        c.sent,
        fmt_num(c.commands_per_sec),
        fmt_num(c.deliveries_per_sec),
    );
}

pub(crate) fn scenario_peers(
    args: &Args,
    root: &Path,
    encounter: &Encounter,
    report: &mut Report,
) -> Result<()> {
    let budget = Duration::from_secs_f64((args.seconds / 4.0).max(0.5));
    let hp = args.hp_scale.saturating_mul(100);
    let long = scaled(encounter, hp);
    let want = ((args.rate * budget.as_secs_f64()) as usize + 1).max(args.peer_ticks);
    eprintln!("peers: playing the fight in advance (hp x{hp}, up to {want} ticks) …");
    let script = Arc::new(ws_script(&long, args.seed, want)?);
    if script.len() < want {
        eprintln!(
            "peers: warning: the fight ended after {} ticks (wanted {want})",
            script.len()
        );
    }
    report.add(
        "peers",
        "events per command",
        script.events as f64 / script.len().max(1) as f64,
        "ev",
    );
    report.add(
        "peers",
        "ServerMessage::Event JSON frame (spectator copy)",
        script.frame_bytes as f64 / script.events.max(1) as f64,
        "B",
    );
    let rt = Runtimes::new(args.peer_cores)?;
    eprintln!("peers: {}", rt.label);
    let mut servers = vec![Server::Relay];
    for f in &args.peer_fsync {
        if !servers.contains(&Server::Fray(*f)) {
            servers.push(Server::Fray(*f));
        }
    }
    for &peer in &args.peer_node {
        if peer.ready() {
            if !servers.contains(&Server::Node(peer)) {
                servers.push(Server::Node(peer));
            }
        } else {
            eprintln!(
                "peers: {peer:?} skipped (needs node and `npm ci --omit=optional --ignore-scripts` in {})",
                peer.dir().display()
            );
        }
    }
    let mut table = String::from(
        "| peers run | commands | commands/s | deliveries/s | p50 ms | p99 ms | GM ack p50 / p99 ms | commands/s vs relay | p99 vs relay |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut runs = 0usize;
    for &n in &args.peer_spectators {
        let n = n.max(1);
        for &w in &args.peer_windows {
            let w = w.max(1);
            let mut relay: Option<Closed> = None;
            for &server in &servers {
                if let Server::Node(peer) = server
                    && w > 1
                    && !peer.pipelines()
                {
                    continue;
                }
                let label = format!("S={n} W={w} {}", server.label());
                eprintln!("peers ({label}): {:.1} s …", budget.as_secs_f64());
                runs += 1;
                let c = match run(
                    &rt,
                    server,
                    &root.join(format!("peers-{runs}")),
                    &long,
                    args.seed,
                    &script,
                    n,
                    Drive::Window(w),
                    budget,
                ) {
                    Ok(c) => c,
                    // A peer from npm that fails is left out of the table, not the scenario.
                    Err(e) if matches!(server, Server::Node(_)) => {
                        eprintln!("    warning: {e:#}; left out");
                        continue;
                    }
                    Err(e) => return Err(e),
                };
                record(report, &mut table, &label, &c, relay.as_ref(), None);
                if server == Server::Relay {
                    relay = Some(c);
                }
            }
        }
    }
    // The open-rate figure of DESIGN §9: paced, fsync always, to `--spectators`.
    let n = args.spectators.max(1);
    let mut relay: Option<Closed> = None;
    let mut paced = vec![Server::Relay, Server::Fray(PeerFsync::Always)];
    for &server in &servers {
        if let Server::Node(peer) = server
            && peer.pipelines()
        {
            paced.push(server);
        }
    }
    for server in paced {
        let label = format!("S={n} {} cmd/s paced {}", args.rate, server.label());
        eprintln!("peers ({label}): {:.1} s …", budget.as_secs_f64());
        runs += 1;
        let target =
            (matches!(server, Server::Fray(_)) && (args.rate - 1000.0).abs() < 0.5 && n == 100)
                .then_some(Target::AtMost(2.0));
        let c = match run(
            &rt,
            server,
            &root.join(format!("peers-{runs}")),
            &long,
            args.seed,
            &script,
            n,
            Drive::Rate(args.rate),
            budget,
        ) {
            Ok(c) => c,
            // A peer from npm that fails is left out of the table, not the scenario.
            Err(e) if matches!(server, Server::Node(_)) => {
                eprintln!("    warning: {e:#}; left out");
                continue;
            }
            Err(e) => return Err(e),
        };
        record(report, &mut table, &label, &c, relay.as_ref(), target);
        if server == Server::Relay {
            relay = Some(c);
        }
    }
    table.push_str(&format!("\nCores: {}.\n", rt.label));
    report.tables.push(table);
    rt.shutdown();
    Ok(())
}
