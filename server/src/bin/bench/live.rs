//! The `live` scenario: many live sessions on one real server (DESIGN §9, issue 19 item 6).
//!
//! Starts the real `fray-server` binary (`--server-bin`, default: the `fray-server` beside this
//! `bench` binary) as a child process on 127.0.0.1:0 with fsync always, so that its memory and
//! its descriptors are its own (`/proc/<pid>`), not this driver's. For each count N of
//! `--live-sessions` (a fresh server each time) it:
//! 1. creates N sessions of `--encounter` over HTTP (`POST /sessions`, as an operator would);
//! 2. connects a GM and a spectator to each over WebSockets (JSON, `hello`), so every session
//!    is awake with two subscribers;
//! 3. reads the server's resident memory and open descriptors, against its figures before the
//!    sessions existed: **RSS and descriptors per live session**;
//! 4. runs a trickle load for `--seconds`: `--live-rate` commands/s in all, spread evenly over
//!    the sessions (each session's GM sends one command every N / rate seconds, at a random
//!    phase). A command is the GM's `set_hp` of its first hero, alternately one below its
//!    maximum and back — a real command through decide, the log's group commit with fsync, the
//!    views and the broadcast. Its latency is the send → the GM's `accepted`, and the send →
//!    the spectator's receipt of its last event.
//!
//! Reported: sessions, creation and connection times, RSS and descriptors per live session,
//! commands sent/accepted/refused/failed, and p50/p99/max of both latencies.

use crate::{Args, Report, Target, fmt_num};
use anyhow::{Context, Result, anyhow, bail};
use fray_protocol::codec::Encoding;
use fray_protocol::{ClientMessage, Command, ServerMessage};
use fray_server::demo::client::{Client, create_session};
use serde_json::Value;
use std::io::BufRead;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

const ADMIN: &str = "live-bench-operator-key";
const T: Duration = Duration::from_secs(30);

/// The server under test: a child process, killed on drop.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start(bin: &Path, data: &Path, sessions: usize) -> Result<Server> {
        let n = (sessions * 2 + 64).to_string();
        let mut child = Process::new(bin)
            .args([
                "--listen",
                "127.0.0.1:0",
                "--fsync",
                "always",
                "--admin-token",
                ADMIN,
            ])
            .arg("--data-dir")
            .arg(data)
            .args(["--creations-per-minute", "100000000"])
            .args(["--max-sessions", &n, "--max-unhello", &n])
            .args(["--hibernate-after-secs", "3600"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {}", bin.display()))?;
        let out = child.stdout.take().ok_or_else(|| anyhow!("no stdout"))?;
        let mut line = String::new();
        std::io::BufReader::new(out).read_line(&mut line)?;
        let addr = line
            .split_whitespace()
            .last()
            .and_then(|a| a.parse().ok())
            .ok_or_else(|| anyhow!("the server said {line:?}, not its address"))?;
        Ok(Server { child, addr })
    }

    /// (resident KiB, open descriptors) from `/proc/<pid>`.
    fn usage(&self) -> Result<(u64, usize)> {
        let pid = self.child.id();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
        let rss = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| anyhow!("no VmRSS for {pid}"))?;
        let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))?.count();
        Ok((rss, fds))
    }
}

/// One session's two connections and what the GM sends.
struct Table {
    gm: Client,
    spectator: Client,
    hero: fray_protocol::CombatantId,
    max_hp: i32,
}

/// What one session's trickle saw.
#[derive(Default)]
struct Seen {
    accepted_ms: Vec<f64>,
    delivered_ms: Vec<f64>,
    refused: u64,
    failed: u64,
}

async fn recv(c: &mut Client) -> Result<ServerMessage> {
    Ok(tokio::time::timeout(T, c.recv()).await??)
}

/// Connects a seat and reads its `welcome` and first snapshot (the view it starts from).
async fn join(url: &str, token: &str) -> Result<(Client, Value)> {
    let mut c = Client::connect(url, Encoding::Json).await?;
    c.hello(token, None).await?;
    loop {
        match recv(&mut c).await? {
            ServerMessage::Snapshot { state, .. } => return Ok((c, serde_json::to_value(state)?)),
            ServerMessage::Error { code, message } => bail!("hello refused: {code}: {message}"),
            _ => {}
        }
    }
}

/// Creates session `k`: its GM's and its spectator's tokens.
async fn create(addr: SocketAddr, encounter: &str, k: usize) -> Result<(String, String)> {
    let created = create_session(addr, ADMIN, &format!("live-{k}"), encounter, Some(k as u64))
        .await
        .map_err(|e| anyhow!("creating session {k}: {e}"))?;
    let token = |p: &str| {
        created
            .pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    Ok((token("/tokens/gm"), token("/tokens/spectator")))
}

/// Connects a session's GM and spectator.
async fn open_table(addr: SocketAddr, gm: &str, spectator: &str, k: usize) -> Result<Table> {
    let url = format!("ws://{addr}/ws");
    let (gm, view) = join(&url, gm).await?;
    let (spectator, _) = join(&url, spectator).await?;
    let hero = view["combatants"]
        .as_array()
        .and_then(|cs| cs.iter().find(|c| c["side"] == "heroes"))
        .ok_or_else(|| anyhow!("no hero in session {k}"))?;
    Ok(Table {
        gm,
        spectator,
        hero: fray_protocol::CombatantId::new(hero["id"].as_str().unwrap_or("")),
        max_hp: hero["max_hp"].as_i64().unwrap_or(2) as i32,
    })
}

/// Runs `f(k)` for k in 0..n, 32 at a time, in order of k.
async fn each<T, F, Fut>(n: usize, what: &str, f: F) -> Result<Vec<T>>
where
    T: Send + 'static,
    F: Fn(usize) -> Fut,
    Fut: std::future::Future<Output = Result<T>> + Send + 'static,
{
    let gate = Arc::new(Semaphore::new(32));
    let mut handles = Vec::with_capacity(n);
    for k in 0..n {
        let (gate, work) = (gate.clone(), f(k));
        handles.push(tokio::spawn(async move {
            let _permit = gate.acquire_owned().await?;
            work.await
        }));
    }
    let mut out = Vec::with_capacity(n);
    for (k, h) in handles.into_iter().enumerate() {
        out.push(h.await??);
        if (k + 1) % 1000 == 0 {
            eprintln!("  {} {what}", k + 1);
        }
    }
    Ok(out)
}

/// One command of the trickle: its latencies, or why it did not complete.
async fn one(t: &mut Table, id: u64, seen: &mut Seen) -> Result<()> {
    let hp = if id % 2 == 1 { t.max_hp - 1 } else { t.max_hp };
    let command = Command::SetHp {
        target: t.hero.clone(),
        hp: hp.max(1),
        temp_hp: None,
    };
    let sent = Instant::now();
    t.gm.send(&ClientMessage::Command { id, command }).await?;
    let last = loop {
        match recv(&mut t.gm).await? {
            ServerMessage::Accepted {
                command_id,
                last_seq,
                ..
            } if command_id == id => break last_seq,
            ServerMessage::Rejected { command_id, .. } if command_id == id => {
                seen.refused += 1;
                return Ok(());
            }
            _ => {}
        }
    };
    seen.accepted_ms.push(sent.elapsed().as_secs_f64() * 1e3);
    loop {
        if let ServerMessage::Event { seq, .. } = recv(&mut t.spectator).await?
            && seq >= last
        {
            break;
        }
    }
    seen.delivered_ms.push(sent.elapsed().as_secs_f64() * 1e3);
    Ok(())
}

/// Session `k`'s trickle: one command every `every`, from `phase`, until `end`.
async fn trickle(mut t: Table, phase: Duration, every: Duration, end: Instant) -> Seen {
    let mut seen = Seen::default();
    let mut at = tokio::time::Instant::now() + phase;
    let mut id = 1;
    while Instant::now() + phase.min(every) < end {
        tokio::time::sleep_until(at).await;
        if Instant::now() >= end {
            break;
        }
        if one(&mut t, id, &mut seen).await.is_err() {
            seen.failed += 1;
            break;
        }
        id += 1;
        at += every;
    }
    seen
}

fn pct(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// The server binary: `--server-bin`, or `fray-server` beside this `bench`.
fn server_bin(args: &Args) -> Result<PathBuf> {
    let bin = match &args.server_bin {
        Some(b) => b.clone(),
        None => std::env::current_exe()?.with_file_name("fray-server"),
    };
    if !bin.exists() {
        bail!(
            "{} does not exist: build it (cargo build --release -p fray-server --bins) or pass --server-bin",
            bin.display()
        );
    }
    Ok(bin)
}

pub(crate) fn scenario_live(args: &Args, root: &Path, report: &mut Report) -> Result<()> {
    let bin = server_bin(args)?;
    let encounter = crate::encounter_text(&args.encounter)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let mut table = String::from(
        "| live sessions | create s | connect s | RSS KiB per live session (session + 2 connections) | descriptors per live session | commands accepted | refused/failed | accepted p50/p99/max ms | spectator p50/p99/max ms |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for &n in &args.live_sessions {
        let data = root.join(format!("live-{n}"));
        std::fs::create_dir_all(&data)?;
        let row = rt.block_on(run(args, &bin, &data, &encounter, n, report))?;
        table.push_str(&row);
        std::fs::remove_dir_all(&data).ok();
    }
    report.tables.push(table);
    Ok(())
}

async fn run(
    args: &Args,
    bin: &Path,
    data: &Path,
    encounter: &str,
    n: usize,
    report: &mut Report,
) -> Result<String> {
    eprintln!("live: {n} sessions, a GM and a spectator each");
    let server = Server::start(bin, data, n)?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (rss0, fds0) = server.usage()?;
    let started = Instant::now();
    let encounter: Arc<str> = Arc::from(encounter);
    let addr = server.addr;
    let tokens = each(n, "sessions created", |k| {
        let encounter = encounter.clone();
        async move { create(addr, &encounter, k).await }
    })
    .await?;
    let created = started.elapsed().as_secs_f64();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (rss1, fds1) = server.usage()?;
    let started = Instant::now();
    let tokens = Arc::new(tokens);
    let tables = each(n, "sessions connected", |k| {
        let tokens = tokens.clone();
        async move { open_table(addr, &tokens[k].0, &tokens[k].1, k).await }
    })
    .await?;
    let connected = started.elapsed().as_secs_f64();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (rss2, fds2) = server.usage()?;
    let per = |a: u64, b: u64| b.saturating_sub(a) as f64 / n as f64;
    let (awake_kib, conn_kib, per_kib) = (per(rss0, rss1), per(rss1, rss2), per(rss0, rss2));
    let per_fd = per(fds0 as u64, fds2 as u64);
    eprintln!(
        "  created in {created:.1} s, connected in {connected:.1} s; RSS {rss0} → {rss1} → {rss2} KiB, descriptors {fds0} → {fds1} → {fds2}"
    );

    let every = Duration::from_secs_f64(n as f64 / args.live_rate);
    let end = Instant::now() + Duration::from_secs_f64(args.seconds);
    let mut running = Vec::with_capacity(n);
    for (k, t) in tables.into_iter().enumerate() {
        let phase = every.mul_f64(k as f64 / n as f64);
        running.push(tokio::spawn(trickle(t, phase, every, end)));
    }
    let mut all = Seen::default();
    for h in running {
        let s = h.await?;
        all.accepted_ms.extend(s.accepted_ms);
        all.delivered_ms.extend(s.delivered_ms);
        all.refused += s.refused;
        all.failed += s.failed;
    }
    all.accepted_ms.sort_by(f64::total_cmp);
    all.delivered_ms.sort_by(f64::total_cmp);
    let (a, d) = (&all.accepted_ms, &all.delivered_ms);
    let s = "live";
    report.add(s, format!("{n} live: RSS per live session"), per_kib, "KiB");
    report.add(
        s,
        format!("{n} live: of which the awake session"),
        awake_kib,
        "KiB",
    );
    report.add(
        s,
        format!("{n} live: of which its two connections"),
        conn_kib,
        "KiB",
    );
    report.add(
        s,
        format!("{n} live: descriptors per live session"),
        per_fd,
        "fds",
    );
    report.add(
        s,
        format!("{n} live: commands accepted"),
        a.len() as f64,
        "commands",
    );
    report.add(
        s,
        format!("{n} live: refused or failed"),
        (all.refused + all.failed) as f64,
        "commands",
    );
    report.add(s, format!("{n} live: accepted p50"), pct(a, 0.5), "ms");
    report.push(
        s,
        format!("{n} live: accepted p99"),
        pct(a, 0.99),
        "ms",
        Some(Target::AtMost(10.0)),
    );
    report.add(s, format!("{n} live: spectator p99"), pct(d, 0.99), "ms");
    Ok(format!(
        "| {n} | {created:.1} | {connected:.1} | {} ({} + {}) | {:.2} | {} | {}/{} | {:.2} / {:.2} / {:.2} | {:.2} / {:.2} / {:.2} |\n",
        fmt_num(per_kib),
        fmt_num(awake_kib),
        fmt_num(conn_kib),
        per_fd,
        a.len(),
        all.refused,
        all.failed,
        pct(a, 0.5),
        pct(a, 0.99),
        a.last().copied().unwrap_or(f64::NAN),
        pct(d, 0.5),
        pct(d, 0.99),
        d.last().copied().unwrap_or(f64::NAN),
    ))
}
