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
//! - `codec`: ns per command and per event to encode and decode, JSON and bincode, over every
//!   command and event of `replays/` (all rulesets); and what the namespaced JSON decode's
//!   name lookup costs against decoding a family's command straight into its enum (`codec.rs`).
//! - `views`: what a watching connection costs the session task per accepted command, over
//!   every fight of `replays/`: each audience's view patch (state, JSON, diff) and the legal
//!   actions of the GM and of the current combatant's seat (`views.rs`).
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
//!   throughput ratio is events delivered/s unthrottled, Fray over relay. (`ws.rs`)
//! - `peers`: closed loop, as a client lives (DESIGN §9): the GM sends its next command only
//!   when fewer than W commands are incomplete, a command being complete when the GM has its
//!   `accepted` and every spectator its last event; W in `--peer-windows` (1, 32), S in
//!   `--peer-spectators` (10, 100). Latency per command = complete − send. Fray with fsync
//!   `--peer-fsync` (always, never) and the bare relay (which echoes a marker to the GM after
//!   queueing a tick's frames to every spectator), each run `--seconds`/4; then `--rate`
//!   commands/s paced (open loop) to `--spectators`, p99 command → all spectators; optionally
//!   the same against Colyseus and boardgame.io (`--peer-node`, Node drivers). (`peers.rs`)
//! - `live` (only when named, not in `all`): many live sessions on the real `fray-server`
//!   binary started as a child process: `--live-sessions` (1,000 and 5,000) sessions created
//!   over HTTP, a GM and a spectator connected to each, the server's RSS and descriptors per
//!   live session from `/proc`, then a trickle of `--live-rate` (200) commands/s spread over
//!   the sessions for `--seconds`, p50/p99 of send → `accepted` and → the spectator. (`live.rs`)
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
use fray_protocol::state::LifeStatus;
use fray_protocol::{Command, PROTOCOL_VERSION, ServerMessage};
use fray_server::content::model::Encounter;
use fray_server::content::model::Reach;
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
use fray_server::rules::{builtin_encounters, load_encounter};
use fray_server::session::record::Record;
use fray_server::session::{Session, SessionConfig};
use serde_json::{Value, json};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command as Process;
use std::time::{Duration, Instant};

mod codec;
mod live;
mod peers;
mod views;
mod ws;

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
    /// Engine scenario: stop each run after this many accepted commands instead of after its
    /// time (0: by time). A fixed amount of work, for instruction counts under
    /// `valgrind --tool=callgrind`, which are repeatable where seconds are not.
    #[arg(long, default_value_t = 0)]
    engine_commands: u64,
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
    /// Spectator counts of the peers scenario's closed-loop runs.
    #[arg(long, value_delimiter = ',', default_value = "10,100")]
    peer_spectators: Vec<usize>,
    /// Windows (commands sent but not yet complete) of the peers scenario's closed-loop runs.
    #[arg(long, value_delimiter = ',', default_value = "1,32")]
    peer_windows: Vec<u64>,
    /// Fsync policies of the Fray server in the peers scenario.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "always,never"
    )]
    peer_fsync: Vec<PeerFsync>,
    /// Where the peers scenario's servers and clients run: `split` (the default, as issue 19
    /// measures) gives the server one core and the GM and spectators another, each a one-worker
    /// tokio runtime pinned to its core; `shared` runs all of them on one two-worker runtime
    /// (the tables before session 19).
    #[arg(long, value_enum, default_value = "split")]
    peer_cores: PeerCores,
    /// Also run the peers scenario against these peers from npm (needs node, and the packages
    /// of server/benches/peers/<peer> installed with npm ci).
    #[arg(long, value_enum, value_delimiter = ',')]
    peer_node: Vec<NodePeer>,
    /// Ticks of the fight played in advance for the peers scenario (a run that uses them all
    /// ends early, with a warning).
    #[arg(long, default_value_t = 60_000)]
    peer_ticks: usize,
    /// Live-session counts of the live scenario (a fresh server for each).
    #[arg(long, value_delimiter = ',', default_value = "1000,5000")]
    live_sessions: Vec<usize>,
    /// Commands per second, over all sessions, of the live scenario's trickle load.
    #[arg(long, default_value_t = 200.0)]
    live_rate: f64,
    /// The fray-server binary the live scenario starts (default: the one beside `bench`).
    #[arg(long)]
    server_bin: Option<PathBuf>,
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
    Peers,
    Codec,
    Views,
    /// Not part of `all`: many live sessions on the real server binary (`live.rs`).
    Live,
}

/// A peer from npm for the peers scenario (`server/benches/peers/<name>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum NodePeer {
    Colyseus,
    Boardgameio,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PeerFsync {
    Always,
    Never,
}

/// Where the peers scenario's servers and clients run (`--peer-cores`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PeerCores {
    /// The server on one core, its clients on another.
    Split,
    /// Server and clients on one runtime over every core.
    Shared,
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
    /// Markdown tables printed after the metrics (not in the JSON: their figures are metrics).
    tables: Vec<String>,
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
    Ok(load_encounter(name, &encounter_text(name)?)?)
}

/// The TOML text of `--encounter`: a built-in 13th Age encounter's, or a file's.
fn encounter_text(name: &str) -> Result<String> {
    if let Some((_, text)) = builtin_encounters("13th-age")
        .iter()
        .find(|(n, _)| *n == name)
    {
        return Ok((*text).to_owned());
    }
    std::fs::read_to_string(name)
        .with_context(|| format!("'{name}' is neither a built-in encounter nor a readable file"))
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
        for (id, &entity) in roster.0.iter() {
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

fn drive_engine(
    encounter: &Encounter,
    seed: u64,
    budget: Duration,
    max_commands: u64,
) -> Result<EngineRun> {
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
                let done = if max_commands > 0 {
                    run.commands >= max_commands
                } else {
                    t2 - start >= budget
                };
                if done {
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
    drive_engine(
        &long,
        args.seed,
        Duration::from_millis(200),
        args.engine_commands / 10,
    )?;
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
        let r = drive_engine(enc, args.seed, half, args.engine_commands)?;
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
    for table in &report.tables {
        println!();
        print!("{table}");
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
    if wants(Scenario::Codec) {
        codec::scenario_codec(args.seconds, &mut report)?;
    }
    if wants(Scenario::Views) {
        views::scenario_views(&mut report)?;
    }
    if wants(Scenario::Log) {
        scenario_log(&args, root, &encounter, &mut report)?;
    }
    if wants(Scenario::Ws) {
        ws::scenario_ws(&args, root, &encounter, &mut report)?;
    }
    if wants(Scenario::Peers) {
        peers::scenario_peers(&args, root, &encounter, &mut report)?;
    }
    if args.scenario.contains(&Scenario::Live) {
        live::scenario_live(&args, root, &mut report)?;
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
                "peer_spectators": args.peer_spectators,
                "peer_windows": args.peer_windows,
                "peer_cores": format!("{:?}", args.peer_cores).to_lowercase(),
                "peer_fsync": args.peer_fsync.iter().map(|f| format!("{f:?}").to_lowercase()).collect::<Vec<_>>(),
                "peer_ticks": args.peer_ticks,
                "peer_node": args.peer_node.iter().map(|p| format!("{p:?}").to_lowercase()).collect::<Vec<_>>(),
            },
            "metrics": report.metrics.iter().map(Metric::json).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        print_table(&report);
    }
    Ok(())
}
