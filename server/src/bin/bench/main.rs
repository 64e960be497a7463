//! `bench`: Fray's benchmark binary (the figures of DESIGN §9). Not a test: it measures and
//! prints, it asserts nothing but the correctness of what it replays.
//!
//! ```text
//! CARGO_TARGET_DIR=/work/bench-target cargo build --release -p fray-server --bin bench
//! /work/bench-target/release/bench --seconds 5 --scenario all [--json]
//! ```
//!
//! Scenarios (`--scenario`, comma-separated, or `all`):
//! - `engine`: commands/s through decide + apply + encode (every event to bincode and to JSON)
//!   on one core, in process, no log. A bot plays both sides: on each turn the current
//!   combatant attacks a conscious opponent (round robin) with its first attack, then ends its
//!   turn. Run twice: with the encounter's hit points scaled by `--hp-scale` (long fights, the
//!   headline figure) and with real hit points (short fights: a fresh engine every battle, whose
//!   construction is counted in the time). Attack commands/s is counted over the whole run
//!   (half the commands are `EndTurn`s with the turn machinery behind them) and over the time
//!   spent in attack commands alone.
//! - `fold`: records long fights through `Session` (`FsyncPolicy::Never`) into a scratch
//!   directory, reads them back with `replay::read_log`, then times `replay::fold` (events/s)
//!   and `replay::verify` (commands/s), checking both succeed. Then records the same fights
//!   without periodic state hashes or snapshots and folds them again, to show what the hash
//!   checks cost.
//! - `bytes`: bytes per event on disk (segment files / events) and per event as bincode and
//!   JSON, bare and wrapped in the `ServerMessage::Event` a client receives.
//! - `memory`: resident memory per idle session (created, battle started, then left alone),
//!   measured in a child process (`/proc/self/statm` before and after) so that memory freed by
//!   other scenarios cannot hide growth: `--sessions` (1,000) sessions on `FsStorage`, then
//!   `--engines` (10,000) bare engines and as many sessions on `MemStorage`, with creation
//!   times.
//! - `log`: group-commit throughput of `SessionLog::append_batch` on a real file, batches made
//!   of real ticks' records: `FsyncPolicy::Always` (one tick per batch, and 16 ticks per batch)
//!   versus `Never`.
//! - `ws`: end to end over loopback WebSockets, in one process: the real server (`net::serve`
//!   on 127.0.0.1:0), one session, `--spectators` (100) spectators and a GM, JSON. The fight
//!   (hp × 10 × `--hp-scale`) is played in advance on a local `Session` with the same seed, so
//!   the GM sends legal commands pipelined and each spectator knows each tick's last event.
//!   Latency = receipt of a tick's last event at a spectator − the GM's send, over every
//!   (command, spectator) pair. Fixed rate (`--rate`, 1,000 commands/s) and unthrottled (at
//!   most `--window` ticks not yet received by every spectator), each `--seconds`/2: fsync
//!   `Never`, `Never` with TCP_NODELAY on the server's sockets, `Always`; then the same against
//!   a bare tokio-tungstenite broadcast relay fed the very same spectator frames. The
//!   throughput ratio is events delivered/s unthrottled, Fray over relay.
//!
//! Scratch files live under `--dir` (default: the system temporary directory) in
//! `fray-bench-<pid>` and are removed at the end. Progress goes to stderr; the table (or, with
//! `--json`, one JSON document) goes to stdout.

use anyhow::{Context, Result, anyhow, bail};
use bevy_ecs::entity::Entity;
use clap::{Parser, ValueEnum};
use fray_protocol::codec::{Encoding, encode, to_bincode};
use fray_protocol::command::AttackMode;
use fray_protocol::event::{Condition, EffectKind};
use fray_protocol::ids::{CombatantId, SessionId, Side};
use fray_protocol::message::SUBPROTOCOL_JSON;
use fray_protocol::state::LifeStatus;
use fray_protocol::{Command, PROTOCOL_VERSION, ServerMessage};
use fray_server::content::model::Encounter;
use fray_server::content::model::Reach;
use fray_server::content::{builtin_encounters, load_encounter};
use fray_server::dice::SessionRng;
use fray_server::engine::Engine;
use fray_server::engine::components::{
    ActionBudget, Arsenal, Battle, Combatant, Effects, Position, Roster, SeedSecret, Stage,
    Vitality,
};
use fray_server::log::{
    CODEC_BINCODE, FsStorage, FsyncPolicy, LogConfig, MemStorage, SegmentHeader, SessionLog,
};
use fray_server::replay;
use fray_server::session::record::Record;
use fray_server::session::{Session, SessionConfig};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command as Process;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio::sync::mpsc::{self, error::TrySendError};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

/// Page size assumed when reading `/proc/self/statm`.
const PAGE: u64 = 4096;

#[derive(Parser, Debug)]
#[command(name = "bench", about = "Fray benchmarks (DESIGN §9)")]
struct Args {
    /// Time budget of each timed scenario, in seconds (split between its variants).
    #[arg(long, default_value_t = 6.0)]
    seconds: f64,
    /// Scenarios to run, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "all")]
    scenario: Vec<Scenario>,
    /// Print one JSON document instead of a table.
    #[arg(long)]
    json: bool,
    /// Encounter: a built-in 13th Age encounter name or a path to an encounter TOML file.
    #[arg(long, default_value = "crypt-of-ash")]
    encounter: String,
    /// Hit points of every combatant are multiplied by this for the long fights.
    #[arg(long, default_value_t = 100)]
    hp_scale: i32,
    /// Ticks (accepted commands) recorded for the fold, verify and bytes scenarios.
    #[arg(long, default_value_t = 30_000)]
    fold_ticks: u64,
    /// Idle sessions on FsStorage for the memory scenario.
    #[arg(long, default_value_t = 1_000)]
    sessions: usize,
    /// Idle engines, and idle sessions on MemStorage, for the memory scenario.
    #[arg(long, default_value_t = 10_000)]
    engines: usize,
    /// Parent of the scratch directory (default: the system temporary directory).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// First RNG seed (each fight uses the next one).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Spectators connected in the ws scenario.
    #[arg(long, default_value_t = 100)]
    spectators: usize,
    /// Commands per second sent by the GM in the ws scenario's fixed-rate runs.
    #[arg(long, default_value_t = 1000.0)]
    rate: f64,
    /// Ticks in flight (sent, not yet received in full by every spectator) in the ws
    /// scenario's unthrottled runs.
    #[arg(long, default_value_t = 32)]
    window: u64,
    /// Ticks of the fight played in advance for the ws scenario (at least rate × run time).
    #[arg(long, default_value_t = 40_000)]
    ws_ticks: usize,
    /// Internal: run one memory probe and print its result as JSON.
    #[arg(long, value_enum, hide = true)]
    probe: Option<Probe>,
    /// Internal: how many objects the probe creates.
    #[arg(long, hide = true, default_value_t = 0)]
    count: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Scenario {
    All,
    Engine,
    Fold,
    Bytes,
    Memory,
    Log,
    Ws,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Probe {
    FsSessions,
    MemSessions,
    Engines,
}

impl Probe {
    fn name(self) -> &'static str {
        match self {
            Probe::FsSessions => "fs-sessions",
            Probe::MemSessions => "mem-sessions",
            Probe::Engines => "engines",
        }
    }
}

/// A DESIGN §9 target.
#[derive(Debug, Clone, Copy)]
enum Target {
    AtLeast(f64),
    AtMost(f64),
}

/// One measured figure.
#[derive(Debug, Clone)]
struct Metric {
    scenario: &'static str,
    name: String,
    value: f64,
    unit: &'static str,
    target: Option<Target>,
}

impl Metric {
    fn json(&self) -> Value {
        let (target, kind, meets) = match self.target {
            Some(Target::AtLeast(t)) => (Some(t), Some("at_least"), Some(self.value >= t)),
            Some(Target::AtMost(t)) => (Some(t), Some("at_most"), Some(self.value <= t)),
            None => (None, None, None),
        };
        json!({
            "scenario": self.scenario,
            "name": self.name,
            "value": self.value,
            "unit": self.unit,
            "target": target,
            "target_kind": kind,
            "ratio": target.map(|t| self.value / t),
            "meets_target": meets,
        })
    }
}

#[derive(Default)]
struct Report {
    metrics: Vec<Metric>,
}

impl Report {
    fn add(
        &mut self,
        scenario: &'static str,
        name: impl Into<String>,
        value: f64,
        unit: &'static str,
    ) {
        self.push(scenario, name, value, unit, None);
    }
    fn push(
        &mut self,
        scenario: &'static str,
        name: impl Into<String>,
        value: f64,
        unit: &'static str,
        target: Option<Target>,
    ) {
        let m = Metric {
            scenario,
            name: name.into(),
            value,
            unit,
            target,
        };
        eprintln!("  {}: {} {}", m.name, fmt_num(m.value), m.unit);
        self.metrics.push(m);
    }
}

fn fmt_num(v: f64) -> String {
    if v.abs() >= 1000.0 {
        let s = format!("{:.0}", v.abs());
        let mut out = String::new();
        for (i, ch) in s.chars().enumerate() {
            if i > 0 && (s.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(ch);
        }
        if v < 0.0 { format!("-{out}") } else { out }
    } else if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// The scratch directory, removed on drop.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Err(e) = std::fs::remove_dir_all(&self.0)
            && e.kind() != std::io::ErrorKind::NotFound
        {
            eprintln!("warning: could not remove {}: {e}", self.0.display());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Content and the bot

fn load(name: &str) -> Result<Encounter> {
    if let Some((n, text)) = builtin_encounters("13th-age")
        .iter()
        .find(|(n, _)| *n == name)
    {
        return Ok(load_encounter(n, text)?);
    }
    let text = std::fs::read_to_string(name)
        .with_context(|| format!("'{name}' is neither a built-in encounter nor a readable file"))?;
    Ok(load_encounter(name, &text)?)
}

fn scaled(encounter: &Encounter, k: i32) -> Encounter {
    let mut e = encounter.clone();
    for c in &mut e.combatants {
        c.max_hp = c.max_hp.saturating_mul(k.max(1));
    }
    e
}

fn new_engine(encounter: &Encounter, seed: u64) -> Result<Engine> {
    let mut engine = Engine::new(
        encounter,
        SessionRng::from_seed(seed),
        SeedSecret {
            seed,
            salt: "00".repeat(16),
        },
    )
    .map_err(|r| anyhow!("engine: {r}"))?;
    // A session's engine has its secret stream too (`session::engine_for`).
    engine.set_secret_rng(SessionRng::from_secret_seed(!seed));
    Ok(engine)
}

struct Fighter {
    id: CombatantId,
    side: Side,
    entity: Entity,
    attack: String,
    /// The attack is melee: the bot engages its target first (a move action).
    melee: bool,
}

/// Plays both sides: attack a conscious opponent with the first attack, then end the turn.
struct Bot {
    fighters: Vec<Fighter>,
    round_robin: usize,
    end_turn_next: bool,
}

enum Next {
    Command(Command),
    /// The battle is over (or the engine is somewhere the bot cannot continue from).
    Over,
}

impl Bot {
    fn new(engine: &Engine) -> Result<Bot> {
        let w = engine.world();
        let roster = w
            .get_resource::<Roster>()
            .context("the world has no roster")?;
        let mut fighters = Vec::new();
        for (id, &entity) in &roster.0 {
            let c = w
                .get::<Combatant>(entity)
                .context("a combatant without identity")?;
            let (attack, melee) = w
                .get::<Arsenal>(entity)
                .and_then(|a| a.0.first())
                .map(|a| (a.id.clone(), a.reach == Reach::Melee))
                .with_context(|| format!("{id} has no attack"))?;
            fighters.push(Fighter {
                id: id.clone(),
                side: c.side,
                entity,
                attack,
                melee,
            });
        }
        Ok(Bot {
            fighters,
            round_robin: 0,
            end_turn_next: false,
        })
    }

    fn next(&mut self, engine: &Engine) -> Next {
        let w = engine.world();
        let Some(battle) = w.get_resource::<Battle>() else {
            return Next::Over;
        };
        match battle.stage {
            Stage::Setup => return Next::Command(Command::StartBattle),
            Stage::Ended | Stage::BetweenTurns => return Next::Over,
            Stage::Acting => {}
        }
        let Some(current) = battle.current() else {
            return Next::Over;
        };
        let Some(me) = self.fighters.iter().find(|f| &f.id == current) else {
            return Next::Over;
        };
        let end_turn = Next::Command(Command::EndTurn {
            actor: current.clone(),
        });
        if std::mem::take(&mut self.end_turn_next) {
            return end_turn;
        }
        let conscious = |e: Entity| {
            w.get::<Vitality>(e)
                .is_some_and(|v| v.0 == LifeStatus::Conscious)
        };
        let stunned = w.get::<Effects>(me.entity).is_some_and(|fx| {
            fx.0.iter()
                .any(|e| e.kind == EffectKind::Condition(Condition::Stunned))
        });
        let standard = w
            .get::<ActionBudget>(me.entity)
            .is_some_and(|b| b.0.standard);
        if !conscious(me.entity) || stunned || !standard {
            return end_turn;
        }
        let targets = self
            .fighters
            .iter()
            .filter(|f| f.side != me.side && conscious(f.entity))
            .count();
        if targets == 0 {
            return end_turn;
        }
        let pick = self.round_robin % targets;
        self.round_robin = self.round_robin.wrapping_add(1);
        let Some(target) = self
            .fighters
            .iter()
            .filter(|f| f.side != me.side && conscious(f.entity))
            .nth(pick)
        else {
            return end_turn;
        };
        // 13th Age: melee attacks need engagement; engage the target first (a move action), or
        // fight whoever is already engaged.
        let mut target_id = target.id.clone();
        if me.melee {
            let engaged: Vec<CombatantId> = w
                .get::<Position>(me.entity)
                .map(|p| p.engaged.iter().cloned().collect())
                .unwrap_or_default();
            match engaged.iter().find(|e| {
                self.fighters
                    .iter()
                    .any(|f| &f.id == *e && conscious(f.entity))
            }) {
                Some(e) => target_id = e.clone(),
                None => {
                    return Next::Command(Command::Move {
                        actor: me.id.clone(),
                        engage: Some(target_id),
                        far_away: false,
                    });
                }
            }
        }
        Next::Command(Command::Attack {
            actor: me.id.clone(),
            attack: me.attack.clone(),
            targets: vec![target_id],
            mode: AttackMode::Standard,
            knock_out: false,
            forced: Vec::new(),
            weapon: None,
            secondary_target: None,
        })
    }

    /// The engine refused the last command: end the turn instead (an `EndTurn` refusal is a bug).
    fn rejected(&mut self, command: &Command, why: &fray_protocol::Rejection) -> Result<()> {
        if matches!(command, Command::Attack { .. } | Command::Move { .. }) && !self.end_turn_next {
            self.end_turn_next = true;
            Ok(())
        } else {
            bail!("the bot's {} command was refused: {why}", command.kind())
        }
    }
}

// ---------------------------------------------------------------------------------------------
// engine

#[derive(Default)]
struct EngineRun {
    commands: u64,
    attacks: u64,
    rejected: u64,
    events: u64,
    battles: u64,
    decide_apply: Duration,
    /// Decide + apply + encode of the attack commands alone.
    attack_time: Duration,
    encoding: Duration,
    setup: Duration,
    elapsed: Duration,
}

fn drive_engine(encounter: &Encounter, seed: u64, budget: Duration) -> Result<EngineRun> {
    let mut run = EngineRun::default();
    let mut seed = seed;
    let start = Instant::now();
    let mut engine = new_engine(encounter, seed)?;
    let mut bot = Bot::new(&engine)?;
    run.setup += start.elapsed();
    loop {
        let command = match bot.next(&engine) {
            Next::Command(c) => c,
            Next::Over => {
                let t = Instant::now();
                run.battles += 1;
                seed += 1;
                engine = new_engine(encounter, seed)?;
                bot = Bot::new(&engine)?;
                run.setup += t.elapsed();
                continue;
            }
        };
        let t0 = Instant::now();
        let result = engine.execute(&command);
        let t1 = Instant::now();
        run.decide_apply += t1 - t0;
        match result {
            Ok(events) => {
                run.commands += 1;
                if matches!(command, Command::Attack { .. }) {
                    run.attacks += 1;
                }
                for e in &events {
                    let b = encode(e, Encoding::Bincode)?;
                    let j = encode(e, Encoding::Json)?;
                    black_box((b, j));
                }
                run.events += events.len() as u64;
                let t2 = Instant::now();
                run.encoding += t2 - t1;
                if matches!(command, Command::Attack { .. }) {
                    run.attack_time += t2 - t0;
                }
                if t2 - start >= budget {
                    run.elapsed = t2 - start;
                    return Ok(run);
                }
            }
            Err(r) => {
                run.rejected += 1;
                bot.rejected(&command, &r)?;
            }
        }
    }
}

fn scenario_engine(args: &Args, encounter: &Encounter, report: &mut Report) -> Result<()> {
    let s = "engine";
    let long = scaled(encounter, args.hp_scale);
    let half = Duration::from_secs_f64(args.seconds / 2.0);
    // Warm-up (lazy statics, caches) outside the timed runs.
    drive_engine(&long, args.seed, Duration::from_millis(200))?;
    let variants = [
        (
            format!("hp x{}", args.hp_scale),
            &long,
            Some(Target::AtLeast(250_000.0)),
        ),
        ("hp x1, fresh engine per battle".to_owned(), encounter, None),
    ];
    for (label, enc, target) in variants {
        eprintln!("engine ({label}): {:.1} s …", half.as_secs_f64());
        let r = drive_engine(enc, args.seed, half)?;
        let secs = r.elapsed.as_secs_f64();
        report.push(
            s,
            format!("{label}: attack commands/s"),
            r.attacks as f64 / secs,
            "cmd/s",
            target,
        );
        report.add(
            s,
            format!("{label}: attack commands per second of attack time (EndTurn excluded)"),
            r.attacks as f64 / r.attack_time.as_secs_f64(),
            "cmd/s",
        );
        report.add(
            s,
            format!("{label}: all commands/s"),
            r.commands as f64 / secs,
            "cmd/s",
        );
        report.add(
            s,
            format!("{label}: events/s"),
            r.events as f64 / secs,
            "ev/s",
        );
        report.add(
            s,
            format!("{label}: events per command"),
            r.events as f64 / r.commands.max(1) as f64,
            "ev",
        );
        report.add(
            s,
            format!("{label}: decide+apply share"),
            100.0 * r.decide_apply.as_secs_f64() / secs,
            "%",
        );
        report.add(
            s,
            format!("{label}: encode (bincode+JSON) share"),
            100.0 * r.encoding.as_secs_f64() / secs,
            "%",
        );
        report.add(
            s,
            format!("{label}: engine setup share"),
            100.0 * r.setup.as_secs_f64() / secs,
            "%",
        );
        report.add(
            s,
            format!("{label}: battles finished"),
            r.battles as f64,
            "battles",
        );
        report.add(
            s,
            format!("{label}: rejected bot commands"),
            r.rejected as f64,
            "cmd",
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Recorded fights (fold, bytes)

struct Corpus {
    fights: Vec<PathBuf>,
    ticks: u64,
    events: u64,
    record_secs: f64,
    record_cpu_secs: f64,
}

/// CPU time of the calling thread so far (`/proc/thread-self/schedstat`), in seconds.
fn thread_cpu_secs() -> Result<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat")
        .context("/proc/thread-self/schedstat")?;
    let ns: u64 = stat
        .split_whitespace()
        .next()
        .context("empty schedstat")?
        .parse()?;
    Ok(ns as f64 / 1e9)
}

/// Records `--fold-ticks` ticks of long fights through `Session` into `root/name`.
fn record_corpus(
    root: &Path,
    name: &str,
    config: &SessionConfig,
    args: &Args,
    encounter: &Encounter,
) -> Result<Corpus> {
    let long = scaled(encounter, args.hp_scale);
    let dir = root.join(name);
    let mut corpus = Corpus {
        fights: Vec::new(),
        ticks: 0,
        events: 0,
        record_secs: 0.0,
        record_cpu_secs: 0.0,
    };
    eprintln!(
        "recording {} ticks (hp x{}, fsync never, hash every {}, snapshot every {} events) …",
        args.fold_ticks, args.hp_scale, config.hash_every, config.snapshot_every
    );
    let start = Instant::now();
    let cpu = thread_cpu_secs()?;
    let mut n = 0u64;
    while corpus.ticks < args.fold_ticks {
        let path = dir.join(format!("fight-{n:03}"));
        let mut session = Session::create(
            FsStorage::open(&path)?,
            SessionId(format!("bench-{n}")),
            long.clone(),
            Some(args.seed + n),
            false,
            config.clone(),
        )?;
        let mut bot = Bot::new(session.engine())?;
        let mut id = 0u64;
        loop {
            let command = if corpus.ticks + session.tick() >= args.fold_ticks {
                Command::EndBattle
            } else {
                match bot.next(session.engine()) {
                    Next::Command(c) => c,
                    Next::Over => break,
                }
            };
            id += 1;
            match session.stage("gm", id, &command) {
                Ok(staged) => {
                    corpus.events += staged.events.len() as u64;
                    session.commit()?;
                    if matches!(command, Command::EndBattle) {
                        break;
                    }
                }
                Err(r) => bot.rejected(&command, &r)?,
            }
        }
        session.flush()?;
        corpus.ticks += session.tick();
        corpus.fights.push(path);
        n += 1;
    }
    corpus.record_secs = start.elapsed().as_secs_f64();
    corpus.record_cpu_secs = thread_cpu_secs()? - cpu;
    Ok(corpus)
}

fn dir_bytes(dir: &Path, prefix: &str) -> Result<u64> {
    let mut total = 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_name().to_string_lossy().starts_with(prefix) {
            total += entry.metadata()?.len();
        }
    }
    Ok(total)
}

fn scenario_fold(
    args: &Args,
    root: &Path,
    encounter: &Encounter,
    corpus: &Corpus,
    report: &mut Report,
) -> Result<()> {
    let s = "fold";
    report.add(s, "recorded fights", corpus.fights.len() as f64, "fights");
    report.add(s, "recorded ticks", corpus.ticks as f64, "ticks");
    report.add(s, "recorded events", corpus.events as f64, "events");
    report.add(
        s,
        "recording: Session stage+commit, fsync never (wall clock)",
        corpus.ticks as f64 / corpus.record_secs,
        "cmd/s",
    );
    report.add(
        s,
        "recording: same, per CPU second (without waits for snapshot fsyncs)",
        corpus.ticks as f64 / corpus.record_cpu_secs,
        "cmd/s",
    );
    let t = Instant::now();
    let fights = corpus
        .fights
        .iter()
        .map(|p| replay::read_log(p).map_err(|e| anyhow!("{}: {e}", p.display())))
        .collect::<Result<Vec<_>>>()?;
    report.add(
        s,
        "read_log (scan + decode records)",
        corpus.events as f64 / t.elapsed().as_secs_f64(),
        "ev/s",
    );

    let budget = Duration::from_secs_f64(args.seconds / 3.0);
    let (events, hashes) = time_fold(&fights, budget)?;
    report.push(
        s,
        "fold replay",
        events,
        "ev/s",
        Some(Target::AtLeast(2_000_000.0)),
    );
    report.add(
        s,
        "fold: stored state hashes checked per pass",
        hashes,
        "hashes",
    );

    eprintln!("verify: {:.1} s …", budget.as_secs_f64());
    let (mut commands, mut passes) = (0u64, 0u64);
    let start = Instant::now();
    while passes == 0 || start.elapsed() < budget {
        for f in &fights {
            let v = replay::verify(f)?;
            if !v.commitment_checked {
                bail!("verify did not check the seed commitment");
            }
            commands += v.commands;
        }
        passes += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    report.push(
        s,
        "verify replay",
        commands as f64 / secs,
        "cmd/s",
        Some(Target::AtLeast(250_000.0)),
    );
    drop(fights);

    // The same fights recorded without periodic state hashes (one at the end) and without
    // snapshots, to show what the hash checks cost fold.
    let bare = SessionConfig {
        fsync: FsyncPolicy::Never,
        hash_every: u64::MAX,
        snapshot_every: u64::MAX,
    };
    let corpus = record_corpus(root, "fights-nohash", &bare, args, encounter)?;
    let fights = corpus
        .fights
        .iter()
        .map(|p| replay::read_log(p).map_err(|e| anyhow!("{}: {e}", p.display())))
        .collect::<Result<Vec<_>>>()?;
    let (events, _) = time_fold(&fights, budget)?;
    report.add(
        s,
        "fold replay, final state hash only (no periodic hashes)",
        events,
        "ev/s",
    );
    report.add(
        s,
        "recording without snapshots or periodic hashes (wall clock)",
        corpus.ticks as f64 / corpus.record_secs,
        "cmd/s",
    );
    Ok(())
}

/// Folds every fight repeatedly for `budget`: (events/s, stored hashes checked per pass).
fn time_fold(fights: &[replay::RecordedFight], budget: Duration) -> Result<(f64, f64)> {
    eprintln!("fold: {:.1} s …", budget.as_secs_f64());
    let (mut events, mut hashes, mut passes) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    while passes == 0 || start.elapsed() < budget {
        for f in fights {
            let folded = replay::fold(f)?;
            events += folded.events.len() as u64;
            hashes += folded.hashes_checked;
            black_box(&folded);
        }
        passes += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    Ok((events as f64 / secs, (hashes / passes) as f64))
}

fn scenario_bytes(corpus: &Corpus, report: &mut Report) -> Result<()> {
    let s = "bytes";
    let (mut segments, mut snapshots) = (0u64, 0u64);
    let (mut bincode, mut json_bytes, mut msg_bincode, mut msg_json, mut events) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    for p in &corpus.fights {
        segments += dir_bytes(p, "seg-")?;
        snapshots += dir_bytes(p, "snap-")?;
        let fight = replay::read_log(p)?;
        for e in fight.events() {
            bincode += to_bincode(&e.event)?.len() as u64;
            json_bytes += encode(&e.event, Encoding::Json)?.len() as u64;
            let msg = ServerMessage::Event {
                seq: e.seq,
                tick: e.tick,
                event: e.event,
            };
            msg_bincode += encode(&msg, Encoding::Bincode)?.len() as u64;
            msg_json += encode(&msg, Encoding::Json)?.len() as u64;
            events += 1;
        }
    }
    let ev = events.max(1) as f64;
    report.add(
        s,
        "log segments per event (commands, events, hashes, genesis, framing)",
        segments as f64 / ev,
        "B",
    );
    report.add(
        s,
        "log segments per tick",
        segments as f64 / corpus.ticks.max(1) as f64,
        "B",
    );
    report.add(
        s,
        "snapshot files per event (kept snapshots)",
        snapshots as f64 / ev,
        "B",
    );
    report.add(s, "event as bincode", bincode as f64 / ev, "B");
    report.add(s, "event as JSON", json_bytes as f64 / ev, "B");
    report.add(
        s,
        "ServerMessage::Event as bincode",
        msg_bincode as f64 / ev,
        "B",
    );
    report.add(s, "ServerMessage::Event as JSON", msg_json as f64 / ev, "B");
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// memory

fn rss() -> Result<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").context("/proc/self/statm")?;
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .context("statm has no resident field")?
        .parse()?;
    Ok(pages * PAGE)
}

/// Creates a session and starts its battle (then it sits idle).
fn idle_session(
    storage: impl fray_server::log::Storage + 'static,
    i: usize,
    encounter: &Encounter,
    seed: u64,
) -> Result<Session> {
    let config = SessionConfig {
        fsync: FsyncPolicy::Never,
        ..SessionConfig::default()
    };
    let mut session = Session::create(
        storage,
        SessionId(format!("idle-{i}")),
        encounter.clone(),
        Some(seed),
        false,
        config,
    )?;
    session
        .stage("gm", 1, &Command::StartBattle)
        .map_err(|r| anyhow!("start: {r}"))?;
    session.commit()?;
    Ok(session)
}

/// Runs in the child process: creates `count` idle objects and prints the RSS growth.
fn run_probe(probe: Probe, args: &Args, encounter: &Encounter) -> Result<()> {
    let root = args.dir.clone().context("a probe needs --dir")?;
    let n = args.count.max(1);
    // Warm-up: one of each outside the measurement (lazy statics, first allocations).
    drop(idle_session(MemStorage::new(), usize::MAX, encounter, 0)?);
    let before = rss()?;
    let start = Instant::now();
    let mut sessions = Vec::new();
    let mut engines = Vec::new();
    for i in 0..n {
        match probe {
            Probe::FsSessions => sessions.push(idle_session(
                FsStorage::open(root.join(format!("s-{i:05}")))?,
                i,
                encounter,
                i as u64,
            )?),
            Probe::MemSessions => {
                sessions.push(idle_session(MemStorage::new(), i, encounter, i as u64)?)
            }
            Probe::Engines => {
                let mut e = new_engine(encounter, i as u64)?;
                e.execute(&Command::StartBattle)
                    .map_err(|r| anyhow!("start: {r}"))?;
                engines.push(e);
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let after = rss()?;
    black_box((&sessions, &engines));
    println!(
        "{}",
        json!({"count": n, "rss_before": before, "rss_after": after, "secs": secs})
    );
    Ok(())
}

fn scenario_memory(args: &Args, root: &Path, report: &mut Report) -> Result<()> {
    let s = "memory";
    let exe = std::env::current_exe()?;
    for (probe, n) in [
        (Probe::FsSessions, args.sessions),
        (Probe::Engines, args.engines),
        (Probe::MemSessions, args.engines),
    ] {
        eprintln!("memory: {n} {} in a child process …", probe.name());
        let dir = root.join(format!("probe-{}", probe.name()));
        let out = Process::new(&exe)
            .arg("--probe")
            .arg(probe.name())
            .arg("--count")
            .arg(n.to_string())
            .arg("--dir")
            .arg(&dir)
            .arg("--encounter")
            .arg(&args.encounter)
            .output()?;
        if !out.status.success() {
            bail!(
                "probe {} failed: {}",
                probe.name(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let v: Value = serde_json::from_slice(&out.stdout)?;
        let field = |k: &str| {
            v[k].as_f64()
                .with_context(|| format!("probe output lacks {k}"))
        };
        let per = (field("rss_after")? - field("rss_before")?) / field("count")?;
        let secs = field("secs")?;
        let _ = std::fs::remove_dir_all(&dir);
        match probe {
            Probe::FsSessions => {
                report.push(
                    s,
                    format!("RSS per idle session (FsStorage, {n})"),
                    per / 1024.0,
                    "KiB",
                    Some(Target::AtMost(64.0)),
                );
                report.add(
                    s,
                    "Session::create + start, FsStorage",
                    n as f64 / secs,
                    "sessions/s",
                );
            }
            Probe::Engines => {
                report.add(s, format!("RSS per idle engine ({n})"), per / 1024.0, "KiB");
                report.add(s, format!("time to create {n} engines + start"), secs, "s");
            }
            Probe::MemSessions => {
                report.push(
                    s,
                    format!("RSS per idle session (MemStorage, log in RAM, {n})"),
                    per / 1024.0,
                    "KiB",
                    Some(Target::AtMost(64.0)),
                );
                report.add(
                    s,
                    format!("RSS of {n} idle sessions (MemStorage)"),
                    per * n as f64 / (1024.0 * 1024.0),
                    "MiB",
                );
                report.add(
                    s,
                    format!("time to create {n} sessions + start (MemStorage)"),
                    secs,
                    "s",
                );
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// log

/// Real ticks' records (command + events, and a state hash when due), encoded as a session does.
fn real_batches(encounter: &Encounter, seed: u64, ticks: usize) -> Result<Vec<Vec<Vec<u8>>>> {
    let mut engine = new_engine(encounter, seed)?;
    let mut bot = Bot::new(&engine)?;
    let mut batches = Vec::with_capacity(ticks);
    let mut seq = 1u64;
    let mut tick = 0u64;
    while batches.len() < ticks {
        let Next::Command(command) = bot.next(&engine) else {
            bail!("the long fight ended before {ticks} ticks");
        };
        match engine.execute(&command) {
            Ok(events) => {
                tick += 1;
                let mut batch = vec![to_bincode(&Record::Command {
                    tick,
                    client: "gm".into(),
                    command_id: tick,
                    command,
                })?];
                let n = events.len() as u64;
                batch.push(to_bincode(&Record::Events {
                    tick,
                    first_seq: seq,
                    events,
                    rng_draws: engine.rng().draws(),
                    secret_draws: engine.secret_draws(),
                })?);
                seq += n;
                if tick.is_multiple_of(16) {
                    batch.push(to_bincode(&Record::StateHash {
                        tick,
                        seq: seq - 1,
                        hash: engine.state_hash(),
                    })?);
                }
                batches.push(batch);
            }
            Err(r) => bot.rejected(&command, &r)?,
        }
    }
    Ok(batches)
}

fn scenario_log(
    args: &Args,
    root: &Path,
    encounter: &Encounter,
    report: &mut Report,
) -> Result<()> {
    let s = "log";
    let ticks = real_batches(&scaled(encounter, args.hp_scale), args.seed, 4096)?;
    let tick_bytes: usize = ticks.iter().flatten().map(Vec::len).sum();
    report.add(
        s,
        "payload bytes per tick (before framing)",
        tick_bytes as f64 / ticks.len() as f64,
        "B",
    );
    let (state, stream) = SessionRng::derive_parts(args.seed);
    let header = SegmentHeader {
        codec: CODEC_BINCODE,
        protocol_version: PROTOCOL_VERSION,
        ruleset_id: encounter.ruleset.clone(),
        ruleset_version: 1,
        rng_id: "pcg64".into(),
        rng_state: state,
        rng_stream: stream,
        seed_commitment: [0; 32],
        segment_index: 0,
        first_seq: 0,
    };
    let budget = Duration::from_secs_f64(args.seconds / 3.0);
    for (label, policy, per_batch) in [
        ("fsync always, 1 tick/batch", FsyncPolicy::Always, 1usize),
        ("fsync always, 16 ticks/batch", FsyncPolicy::Always, 16),
        ("fsync never, 1 tick/batch", FsyncPolicy::Never, 1),
    ] {
        let batches: Vec<Vec<Vec<u8>>> = ticks
            .chunks(per_batch)
            .map(|c| c.iter().flatten().cloned().collect())
            .collect();
        eprintln!("log ({label}): {:.1} s …", budget.as_secs_f64());
        let dir = root.join(format!("log-{}", label.replace([' ', ',', '/'], "-")));
        let mut log = SessionLog::create_with(
            FsStorage::open(&dir)?,
            header.clone(),
            LogConfig {
                fsync: policy,
                ..LogConfig::default()
            },
        )?;
        let mut latencies = Vec::new();
        let (mut count, mut bytes) = (0usize, 0usize);
        let start = Instant::now();
        while count == 0 || start.elapsed() < budget {
            let batch = &batches[count % batches.len()];
            let t = Instant::now();
            log.append_batch(batch)?;
            latencies.push(t.elapsed());
            bytes += batch.iter().map(Vec::len).sum::<usize>();
            count += 1;
        }
        let secs = start.elapsed().as_secs_f64();
        log.flush_sync()?;
        drop(log);
        let _ = std::fs::remove_dir_all(&dir);
        latencies.sort_unstable();
        let pct =
            |p: f64| latencies[((latencies.len() - 1) as f64 * p) as usize].as_secs_f64() * 1e6;
        report.add(
            s,
            format!("{label}: batches/s"),
            count as f64 / secs,
            "batch/s",
        );
        report.add(
            s,
            format!("{label}: ticks/s"),
            (count * per_batch) as f64 / secs,
            "cmd/s",
        );
        report.add(
            s,
            format!("{label}: payload MB/s"),
            bytes as f64 / secs / 1e6,
            "MB/s",
        );
        report.add(s, format!("{label}: append p50"), pct(0.5), "µs");
        report.add(s, format!("{label}: append p99"), pct(0.99), "µs");
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// ws: end to end over loopback WebSockets, and a bare tokio-tungstenite relay as the baseline

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;
type WsSink = futures_util::stream::SplitSink<Ws, Message>;

/// The whole fight, played in advance on a local `Session` (same encounter, seed and engine as
/// the server's): per tick, the GM's command frame, the frames a spectator receives (the relay
/// forwards these very frames), and the sequence number of the tick's last event.
struct Script {
    commands: Vec<Message>,
    frames: Vec<Vec<Message>>,
    first_seq: Vec<u64>,
    last_seq: Vec<u64>,
    events: u64,
    frame_bytes: u64,
}

impl Script {
    fn len(&self) -> usize {
        self.commands.len()
    }
}

fn text(frame: fray_protocol::codec::Frame) -> Message {
    match frame {
        fray_protocol::codec::Frame::Text(s) => Message::Text(s.into()),
        fray_protocol::codec::Frame::Binary(b) => Message::Binary(b.into()),
    }
}

fn ws_script(encounter: &Encounter, seed: u64, ticks: usize) -> Result<Script> {
    let mut session = Session::create(
        MemStorage::new(),
        SessionId("ws-script".into()),
        encounter.clone(),
        Some(seed),
        false,
        SessionConfig {
            fsync: FsyncPolicy::Never,
            ..SessionConfig::default()
        },
    )?;
    let mut bot = Bot::new(session.engine())?;
    let mut script = Script {
        commands: Vec::with_capacity(ticks),
        frames: Vec::with_capacity(ticks),
        first_seq: Vec::with_capacity(ticks),
        last_seq: Vec::with_capacity(ticks),
        events: 0,
        frame_bytes: 0,
    };
    while script.len() < ticks {
        let command = match bot.next(session.engine()) {
            Next::Command(c) => c,
            Next::Over => break,
        };
        let id = script.len() as u64 + 1;
        let events = match session.stage("gm", id, &command) {
            Ok(staged) => staged.events,
            Err(r) => {
                bot.rejected(&command, &r)?;
                continue;
            }
        };
        session.commit()?;
        let (Some(first), Some(last)) = (events.first(), events.last()) else {
            bail!("tick {id} has no events");
        };
        script.first_seq.push(first.seq);
        script.last_seq.push(last.seq);
        let mut frames = Vec::with_capacity(events.len());
        for e in &events {
            let msg = ServerMessage::Event {
                seq: e.seq,
                tick: e.tick,
                event: e.event.redacted(|c| session.is_monster(c)),
            };
            let m = text(encode(&msg, Encoding::Json)?);
            script.frame_bytes += m.len() as u64;
            frames.push(m);
        }
        script.events += events.len() as u64;
        script.frames.push(frames);
        script.commands.push(text(encode(
            &fray_protocol::ClientMessage::Command { id, command },
            Encoding::Json,
        )?));
    }
    Ok(script)
}

/// `(seq, tick)` of an event frame: the prefix of `{"event":{"seq":S,"tick":T,...`, else a full
/// decode. Spectators do only this, so that their CPU (which shares the two cores with the
/// server) goes to the sockets rather than to JSON.
fn event_ids(t: &str) -> Option<(u64, u64)> {
    let fast = || -> Option<(u64, u64)> {
        let rest = t.strip_prefix(r#"{"event":{"seq":"#)?;
        let (seq, rest) = rest.split_once(',')?;
        let rest = rest.strip_prefix(r#""tick":"#)?;
        let end = rest.find(|c: char| !c.is_ascii_digit())?;
        Some((seq.parse().ok()?, rest[..end].parse().ok()?))
    };
    fast().or_else(
        || match fray_protocol::codec::decode_server(t.as_bytes(), Encoding::Json) {
            Ok(ServerMessage::Event { seq, tick, .. }) => Some((seq, tick)),
            _ => None,
        },
    )
}

/// State shared by the driver and the spectators of one run.
struct Shared {
    /// Per spectator: ticks whose last event it has received (delivery is in order).
    done: Vec<AtomicU64>,
    notify: Notify,
    /// Set when the driver has sent everything it will send.
    finished: AtomicBool,
    sent: AtomicU64,
}

impl Shared {
    fn new(n: usize) -> Shared {
        Shared {
            done: (0..n).map(|_| AtomicU64::new(0)).collect(),
            notify: Notify::new(),
            finished: AtomicBool::new(false),
            sent: AtomicU64::new(0),
        }
    }
    fn min_done(&self) -> u64 {
        self.done
            .iter()
            .map(|d| d.load(Ordering::Acquire))
            .min()
            .unwrap_or(0)
    }
}

/// What one spectator saw: per tick, when the tick's last event arrived.
struct Seen {
    at: Vec<Option<Instant>>,
    events: u64,
    /// Frames that were not events (e.g. an `error` when the server dropped it as lagging).
    other: u64,
}

async fn spectate(mut ws: Ws, script: Arc<Script>, shared: Arc<Shared>, me: usize) -> Seen {
    let mut seen = Seen {
        at: vec![None; script.len()],
        events: 0,
        other: 0,
    };
    let mut give_up: Option<Instant> = None;
    loop {
        match tokio::time::timeout(Duration::from_millis(50), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                let now = Instant::now();
                match event_ids(t.as_str()) {
                    Some((seq, tick)) if tick >= 1 && tick as usize <= script.len() => {
                        seen.events += 1;
                        let k = tick as usize - 1;
                        if seq == script.last_seq[k] {
                            seen.at[k] = Some(now);
                            shared.done[me].store(tick, Ordering::Release);
                            shared.notify.notify_one();
                        }
                    }
                    _ => seen.other += 1,
                }
            }
            Ok(Some(Ok(Message::Close(_))) | Some(Err(_)) | None) => break,
            Ok(Some(Ok(_))) | Err(_) => {}
        }
        if shared.finished.load(Ordering::Acquire) {
            if shared.done[me].load(Ordering::Acquire) >= shared.sent.load(Ordering::Acquire) {
                break;
            }
            let limit = *give_up.get_or_insert_with(|| Instant::now() + Duration::from_secs(3));
            if Instant::now() > limit {
                break;
            }
        }
    }
    let _ = ws.close(None).await;
    seen
}

#[derive(Debug, Clone, Copy)]
enum Drive {
    /// Open loop: one command every 1/rate s, whatever happens.
    Rate(f64),
    /// As fast as the slowest spectator allows: at most this many ticks sent but not yet
    /// received in full by every spectator.
    Window(u64),
}

/// Sends the script's ticks; returns the send instants (one per tick sent).
async fn drive(
    sink: &mut WsSink,
    frames: impl Fn(usize) -> Vec<Message>,
    available: usize,
    mode: Drive,
    budget: Duration,
    shared: &Shared,
) -> Result<Vec<Instant>> {
    let start = Instant::now();
    let mut sent = Vec::new();
    let limit = match mode {
        Drive::Rate(r) => available.min((r * budget.as_secs_f64()).ceil() as usize),
        Drive::Window(_) => available,
    };
    let mut next_report = start + Duration::from_secs(1);
    for i in 0..limit {
        match mode {
            Drive::Rate(r) => {
                tokio::time::sleep_until((start + Duration::from_secs_f64(i as f64 / r)).into())
                    .await;
            }
            Drive::Window(w) => {
                if start.elapsed() >= budget {
                    break;
                }
                while (i as u64).saturating_sub(shared.min_done()) >= w {
                    shared.notify.notified().await;
                }
            }
        }
        let t = Instant::now();
        for m in frames(i) {
            sink.feed(m).await?;
        }
        sink.flush().await?;
        sent.push(t);
        shared.sent.store(sent.len() as u64, Ordering::Release);
        if t >= next_report {
            eprintln!(
                "    {:.0} s: {} ticks sent, slowest spectator at {}",
                t.duration_since(start).as_secs_f64(),
                sent.len(),
                shared.min_done()
            );
            next_report += Duration::from_secs(1);
        }
    }
    shared.finished.store(true, Ordering::Release);
    Ok(sent)
}

#[derive(Default)]
struct WsRun {
    sent: u64,
    send_secs: f64,
    /// First send to the last receipt anywhere.
    span_secs: f64,
    /// Latency of each (tick, spectator) pair, µs.
    latencies: Vec<f64>,
    missing: u64,
    events: u64,
    other: u64,
    accepted: u64,
    rejected: u64,
    seq_mismatch: u64,
}

fn summarize(sent: &[Instant], seen: &[Seen]) -> WsRun {
    let mut run = WsRun {
        sent: sent.len() as u64,
        ..WsRun::default()
    };
    let (Some(&first), Some(&last)) = (sent.first(), sent.last()) else {
        return run;
    };
    run.send_secs = (last - first).as_secs_f64();
    let mut end = last;
    run.latencies.reserve(sent.len() * seen.len());
    for s in seen {
        run.events += s.events;
        run.other += s.other;
        for (t0, at) in sent.iter().zip(&s.at) {
            match at {
                Some(t) => {
                    run.latencies
                        .push(t.duration_since(*t0).as_secs_f64() * 1e6);
                    end = end.max(*t);
                }
                None => run.missing += 1,
            }
        }
    }
    run.span_secs = (end - first).as_secs_f64();
    run.latencies.sort_unstable_by(f64::total_cmp);
    run
}

async fn connect(url: &str, subprotocol: Option<&'static str>) -> Result<Ws> {
    let mut req = url.into_client_request()?;
    if let Some(p) = subprotocol {
        req.headers_mut()
            .insert("Sec-WebSocket-Protocol", HeaderValue::from_static(p));
    }
    // The bench's own sockets never wait for Nagle (the server's are as the server sets them).
    let (ws, _) = tokio_tungstenite::connect_async_with_config(req, None, true).await?;
    Ok(ws)
}

/// Hello, then wait for `welcome` and the `snapshot`.
async fn fray_hello(ws: &mut Ws, token: &str) -> Result<()> {
    let hello = fray_protocol::ClientMessage::Hello {
        protocol: PROTOCOL_VERSION,
        token: token.to_owned(),
        resume_from: None,
    };
    ws.send(text(encode(&hello, Encoding::Json)?)).await?;
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .context("no snapshot after hello")?
            .context("closed after hello")??;
        if let Message::Text(t) = m {
            match fray_protocol::codec::decode_server(t.as_bytes(), Encoding::Json)? {
                ServerMessage::Snapshot { .. } => return Ok(()),
                ServerMessage::Welcome { .. } => {}
                other => bail!("unexpected answer to hello: {other:?}"),
            }
        }
    }
}

/// One run against the real server: a fresh registry with `config`, one session, `n`
/// spectators and a GM connection.
/// A ws run: label, the Fray server's (session config, TCP_NODELAY) or `None` for the relay,
/// and how the commands are sent.
type Variant = (String, Option<(SessionConfig, bool)>, Drive);

/// Which server a Fray run starts: where its sessions live, their configuration, and whether
/// the accepted sockets get TCP_NODELAY.
struct FrayServer {
    dir: PathBuf,
    config: SessionConfig,
    nodelay: bool,
}

async fn ws_fray(
    server: FrayServer,
    encounter: &Encounter,
    seed: u64,
    script: Arc<Script>,
    n: usize,
    mode: Drive,
    budget: Duration,
) -> Result<WsRun> {
    let FrayServer {
        dir,
        config,
        nodelay,
    } = server;
    let registry = fray_server::net::Registry::new(dir, config);
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let stop = async move {
        let _ = stop_rx.await;
    };
    let server = if nodelay {
        // `net::serve` as it is, except that accepted sockets get TCP_NODELAY (axum::serve
        // leaves Nagle's algorithm on).
        let registry = registry.clone();
        tokio::spawn(async move {
            let app = fray_server::net::router(fray_server::net::AppState {
                registry: registry.clone(),
                addr,
            });
            let listener = axum::serve::ListenerExt::tap_io(listener, |s: &mut TcpStream| {
                let _ = s.set_nodelay(true);
            });
            axum::serve(listener, app)
                .with_graceful_shutdown(stop)
                .await?;
            fray_server::net::shutdown_sessions(&registry).await;
            Ok(())
        })
    } else {
        tokio::spawn(fray_server::net::serve(listener, registry.clone(), stop))
    };
    let created = registry.create(encounter.clone(), Some(seed), false)?;
    let url = format!("ws://{addr}/ws");
    let shared = Arc::new(Shared::new(n));
    let mut spectators = Vec::with_capacity(n);
    for i in 0..n {
        let mut ws = connect(&url, Some(SUBPROTOCOL_JSON)).await?;
        fray_hello(&mut ws, &created.tokens.spectator).await?;
        spectators.push(tokio::spawn(spectate(
            ws,
            script.clone(),
            shared.clone(),
            i,
        )));
    }
    let mut gm = connect(&url, Some(SUBPROTOCOL_JSON)).await?;
    fray_hello(&mut gm, &created.tokens.gm).await?;
    let (mut sink, mut stream) = gm.split();
    // The GM's own feed (acknowledgements, unredacted events) must be drained, and the
    // acknowledgements tell whether the server played the same fight as the script.
    let acks = {
        let script = script.clone();
        tokio::spawn(async move {
            let (mut accepted, mut rejected, mut mismatch) = (0u64, 0u64, 0u64);
            while let Some(Ok(m)) = stream.next().await {
                let Message::Text(t) = m else { continue };
                if t.starts_with(r#"{"event""#) {
                    continue;
                }
                match fray_protocol::codec::decode_server(t.as_bytes(), Encoding::Json) {
                    Ok(ServerMessage::Accepted {
                        command_id,
                        first_seq,
                        last_seq,
                    }) => {
                        accepted += 1;
                        let k = command_id as usize - 1;
                        if script.first_seq.get(k) != Some(&first_seq)
                            || script.last_seq.get(k) != Some(&last_seq)
                        {
                            mismatch += 1;
                        }
                    }
                    Ok(ServerMessage::Rejected { .. }) => rejected += 1,
                    _ => {}
                }
            }
            (accepted, rejected, mismatch)
        })
    };
    let sent = drive(
        &mut sink,
        |i| vec![script.commands[i].clone()],
        script.len(),
        mode,
        budget,
        &shared,
    )
    .await?;
    let mut seen = Vec::with_capacity(n);
    for s in spectators {
        seen.push(s.await?);
    }
    let _ = sink.close().await;
    let (accepted, rejected, mismatch) = tokio::time::timeout(Duration::from_secs(5), acks)
        .await
        .unwrap_or(Ok((0, 0, 0)))?;
    let _ = stop_tx.send(());
    if tokio::time::timeout(Duration::from_secs(10), server)
        .await
        .is_err()
    {
        eprintln!("    warning: the server did not shut down within 10 s");
    }
    let mut run = summarize(&sent, &seen);
    run.accepted = accepted;
    run.rejected = rejected;
    run.seq_mismatch = mismatch;
    Ok(run)
}

/// The baseline: a bare tokio-tungstenite relay. A client's first text message says `sub` or
/// `pub`; every text message from a `pub` goes to every `sub` (a bounded queue each, written
/// by its own task, flushed when the queue runs dry). No game work, no encoding.
async fn relay_serve(listener: TcpListener) {
    let subs: Arc<std::sync::Mutex<Vec<mpsc::Sender<Message>>>> = Arc::default();
    while let Ok((stream, _)) = listener.accept().await {
        let subs = subs.clone();
        tokio::spawn(async move {
            let _ = stream.set_nodelay(true);
            let Ok(mut ws) = tokio_tungstenite::accept_async(stream).await else {
                return;
            };
            let role = match ws.next().await {
                Some(Ok(Message::Text(t))) => t.to_string(),
                _ => return,
            };
            if role == "sub" {
                let (tx, mut rx) = mpsc::channel::<Message>(4096);
                if let Ok(mut s) = subs.lock() {
                    s.push(tx);
                }
                if ws.send(Message::text("ok")).await.is_err() {
                    return;
                }
                while let Some(m) = rx.recv().await {
                    if ws.feed(m).await.is_err() {
                        return;
                    }
                    while let Ok(m) = rx.try_recv() {
                        if ws.feed(m).await.is_err() {
                            return;
                        }
                    }
                    if ws.flush().await.is_err() {
                        return;
                    }
                }
            } else {
                while let Some(Ok(m)) = ws.next().await {
                    if let Message::Text(_) = m
                        && let Ok(mut s) = subs.lock()
                    {
                        s.retain(|tx| {
                            !matches!(tx.try_send(m.clone()), Err(TrySendError::Closed(_)))
                        });
                    }
                }
            }
        });
    }
}

async fn ws_relay(script: Arc<Script>, n: usize, mode: Drive, budget: Duration) -> Result<WsRun> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("ws://{}/", listener.local_addr()?);
    let relay = tokio::spawn(relay_serve(listener));
    let shared = Arc::new(Shared::new(n));
    let mut spectators = Vec::with_capacity(n);
    for i in 0..n {
        let mut ws = connect(&url, None).await?;
        ws.send(Message::text("sub")).await?;
        match tokio::time::timeout(Duration::from_secs(10), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) if t.as_str() == "ok" => {}
            other => bail!("relay subscription failed: {other:?}"),
        }
        spectators.push(tokio::spawn(spectate(
            ws,
            script.clone(),
            shared.clone(),
            i,
        )));
    }
    let mut producer = connect(&url, None).await?;
    producer.send(Message::text("pub")).await?;
    let (mut sink, _stream) = producer.split();
    let sent = drive(
        &mut sink,
        |i| script.frames[i].clone(),
        script.len(),
        mode,
        budget,
        &shared,
    )
    .await?;
    let mut seen = Vec::with_capacity(n);
    for s in spectators {
        seen.push(s.await?);
    }
    let _ = sink.close().await;
    relay.abort();
    Ok(summarize(&sent, &seen))
}

fn scenario_ws(args: &Args, root: &Path, encounter: &Encounter, report: &mut Report) -> Result<()> {
    let s = "ws";
    let n = args.spectators.max(1);
    let budget = Duration::from_secs_f64((args.seconds / 2.0).max(0.5));
    let long = scaled(encounter, args.hp_scale.saturating_mul(10));
    let want = ((args.rate * budget.as_secs_f64()) as usize).max(args.ws_ticks);
    eprintln!(
        "ws: playing the fight in advance (hp x{}, up to {want} ticks) …",
        args.hp_scale.saturating_mul(10)
    );
    let script = Arc::new(ws_script(&long, args.seed, want)?);
    if script.len() < want {
        eprintln!(
            "ws: warning: the fight ended after {} ticks (wanted {want})",
            script.len()
        );
    }
    let events_per_tick = script.events as f64 / script.len().max(1) as f64;
    report.add(s, "events per command", events_per_tick, "ev");
    report.add(
        s,
        "ServerMessage::Event JSON frame (spectator copy)",
        script.frame_bytes as f64 / script.events.max(1) as f64,
        "B",
    );
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let rate = Drive::Rate(args.rate);
    let window = Drive::Window(args.window);
    let never = SessionConfig {
        fsync: FsyncPolicy::Never,
        ..SessionConfig::default()
    };
    let always = SessionConfig::default();
    // (label, (session config, TCP_NODELAY on the server's sockets) or the relay, drive)
    let mut variants: Vec<Variant> = Vec::new();
    for (mode, how) in [
        (rate, format!("{} cmd/s", args.rate)),
        (window, format!("unthrottled (window {})", args.window)),
    ] {
        variants.push((
            format!("fray fsync never, {how}"),
            Some((never.clone(), false)),
            mode,
        ));
        variants.push((format!("relay, {how}"), None, mode));
        variants.push((
            format!("fray fsync never + TCP_NODELAY, {how}"),
            Some((never.clone(), true)),
            mode,
        ));
        variants.push((
            format!("fray fsync always, {how}"),
            Some((always.clone(), false)),
            mode,
        ));
    }
    let mut throughput = Vec::new();
    for (i, (label, fray, mode)) in variants.into_iter().enumerate() {
        eprintln!(
            "ws ({label}, {n} spectators): {:.1} s …",
            budget.as_secs_f64()
        );
        let is_fray = fray.is_some();
        let run = match fray {
            Some((config, nodelay)) => rt.block_on(ws_fray(
                FrayServer {
                    dir: root.join(format!("ws-{i}")),
                    config,
                    nodelay,
                },
                &long,
                args.seed,
                script.clone(),
                n,
                mode,
                budget,
            ))?,
            None => rt.block_on(ws_relay(script.clone(), n, mode, budget))?,
        };
        let pct = |p: f64| {
            run.latencies
                .get(((run.latencies.len().max(1) - 1) as f64 * p) as usize)
                .map_or(f64::NAN, |v| v / 1000.0)
        };
        let p99_target = match mode {
            Drive::Rate(r) if is_fray && (r - 1000.0).abs() < 0.5 && n == 100 => {
                Some(Target::AtMost(2.0))
            }
            _ => None,
        };
        let cmds = run.sent as f64 / run.send_secs.max(1e-9);
        let delivered = run.events as f64 / run.span_secs.max(1e-9);
        report.add(s, format!("{label}: commands sent"), run.sent as f64, "cmd");
        report.add(s, format!("{label}: commands/s sent"), cmds, "cmd/s");
        report.add(
            s,
            format!("{label}: events/s delivered (all spectators)"),
            delivered,
            "ev/s",
        );
        report.add(s, format!("{label}: latency p50"), pct(0.5), "ms");
        report.push(
            s,
            format!("{label}: latency p99"),
            pct(0.99),
            "ms",
            p99_target,
        );
        report.add(s, format!("{label}: latency max"), pct(1.0), "ms");
        report.add(
            s,
            format!("{label}: (command, spectator) pairs not delivered"),
            run.missing as f64,
            "pairs",
        );
        if run.other > 0 {
            report.add(
                s,
                format!("{label}: non-event frames at spectators"),
                run.other as f64,
                "frames",
            );
        }
        if is_fray {
            if run.rejected > 0 || run.seq_mismatch > 0 || run.accepted != run.sent {
                eprintln!(
                    "    warning: {} accepted, {} rejected, {} with other sequence numbers than the script, of {} sent",
                    run.accepted, run.rejected, run.seq_mismatch, run.sent
                );
            }
            report.add(
                s,
                format!("{label}: commands accepted"),
                run.accepted as f64,
                "cmd",
            );
        }
        if let Drive::Window(_) = mode {
            throughput.push(delivered);
        }
    }
    if let [fray, relay, nodelay, always] = throughput[..] {
        report.push(
            s,
            "throughput ratio fray (fsync never) / relay, events delivered/s unthrottled",
            fray / relay,
            "×",
            Some(Target::AtLeast(0.8)),
        );
        report.add(
            s,
            "throughput ratio fray (fsync never, TCP_NODELAY) / relay, events delivered/s unthrottled",
            nodelay / relay,
            "×",
        );
        report.add(
            s,
            "throughput ratio fray (fsync always) / relay, events delivered/s unthrottled",
            always / relay,
            "×",
        );
    }
    rt.shutdown_timeout(Duration::from_secs(2));
    Ok(())
}

// ---------------------------------------------------------------------------------------------

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".into())
}

fn print_table(report: &Report) {
    println!("| scenario | metric | value | unit | target | ratio |");
    println!("|---|---|---:|---|---:|---:|");
    for m in &report.metrics {
        let (target, ratio) = match m.target {
            Some(Target::AtLeast(t)) => {
                (format!("≥ {}", fmt_num(t)), format!("{:.2}×", m.value / t))
            }
            Some(Target::AtMost(t)) => {
                (format!("≤ {}", fmt_num(t)), format!("{:.2}×", m.value / t))
            }
            None => (String::new(), String::new()),
        };
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            m.scenario,
            m.name,
            fmt_num(m.value),
            m.unit,
            target,
            ratio
        );
    }
}

fn main() -> Result<()> {
    let args = Args::parse();
    let encounter = load(&args.encounter)?;
    if let Some(probe) = args.probe {
        return run_probe(probe, &args, &encounter);
    }
    let wants = |s: Scenario| args.scenario.contains(&Scenario::All) || args.scenario.contains(&s);
    let root = args
        .dir
        .clone()
        .unwrap_or_else(std::env::temp_dir)
        .join(format!("fray-bench-{}", std::process::id()));
    std::fs::create_dir_all(&root).with_context(|| format!("creating {}", root.display()))?;
    let scratch = Scratch(root);
    let root = scratch.0.as_path();
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    eprintln!(
        "fray bench: {cores} cores, {}, encounter '{}', scratch {}",
        cpu_model(),
        args.encounter,
        root.display()
    );

    let mut report = Report::default();
    // Memory first: its probes run in child processes, but keep the parent small too.
    if wants(Scenario::Memory) {
        scenario_memory(&args, root, &mut report)?;
    }
    if wants(Scenario::Engine) {
        scenario_engine(&args, &encounter, &mut report)?;
    }
    if wants(Scenario::Fold) || wants(Scenario::Bytes) {
        let config = SessionConfig {
            fsync: FsyncPolicy::Never,
            ..SessionConfig::default()
        };
        let corpus = record_corpus(root, "fights", &config, &args, &encounter)?;
        if wants(Scenario::Fold) {
            scenario_fold(&args, root, &encounter, &corpus, &mut report)?;
        }
        if wants(Scenario::Bytes) {
            scenario_bytes(&corpus, &mut report)?;
        }
    }
    if wants(Scenario::Log) {
        scenario_log(&args, root, &encounter, &mut report)?;
    }
    if wants(Scenario::Ws) {
        scenario_ws(&args, root, &encounter, &mut report)?;
    }

    if args.json {
        let doc = json!({
            "machine": {"cores": cores, "cpu": cpu_model()},
            "args": {
                "seconds": args.seconds,
                "encounter": args.encounter,
                "hp_scale": args.hp_scale,
                "fold_ticks": args.fold_ticks,
                "sessions": args.sessions,
                "engines": args.engines,
                "seed": args.seed,
                "spectators": args.spectators,
                "rate": args.rate,
                "window": args.window,
            },
            "metrics": report.metrics.iter().map(Metric::json).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        print_table(&report);
    }
    Ok(())
}
