//! A session: one fight's engine bound to its durable log.
//!
//! `stage` runs a command through the engine and queues its log records; `commit` appends
//! everything queued as one batch (one write, one fsync under the default policy). Only after
//! `commit` succeeds may the staged events be acknowledged or broadcast. If `commit` fails the
//! session must be dropped (fail-stop): its world may be ahead of its log, and it is rebuilt from
//! the log on the next start.

pub mod durable;
pub mod event_index;
pub mod record;
#[cfg(test)]
pub(crate) mod testing;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
mod tests_decoder_props;

use crate::content::model::Encounter;
use crate::dice::{SessionRng, commitment};
use crate::ecs::components::SeedSecret;
use crate::engine::Engine;
use crate::log::{
    FsyncPolicy, LogConfig, LogError, SegmentHeader, SessionLog, Storage, Truncation,
};
use crate::replay::LoggedEvent;
use durable::{Batch, LogHandle};
use fray_protocol::codec::{from_bincode_record, to_bincode};
use fray_protocol::format::in_record_format;
use fray_protocol::ids::{CombatantId, SessionId, Side};
use fray_protocol::{Command, PROTOCOL_VERSION, Rejection, SessionState};
use record::{Genesis, RECORD_VERSION, Record, Tokens};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use thiserror::Error;

/// Session failures (not rule refusals: those are [`Rejection`]s).
#[derive(Debug, Error)]
pub enum SessionError {
    /// The log failed.
    #[error("log: {0}")]
    Log(#[from] LogError),
    /// A file operation failed.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
    /// A record could not be encoded or decoded.
    #[error("record {index}: {reason}")]
    Record {
        /// Frame index.
        index: u64,
        /// What is wrong.
        reason: String,
    },
    /// The log's content is inconsistent.
    #[error("inconsistent log: {0}")]
    Inconsistent(String),
    /// The encounter or ruleset cannot be run.
    #[error("{0}")]
    Setup(String),
    /// The log's record format is not one this build reads.
    #[error("{0}")]
    Format(#[from] record::FormatError),
}

/// Tunables.
#[derive(Debug, Clone)]
pub struct SessionConfig {
    /// When the log is synced.
    pub fsync: FsyncPolicy,
    /// A state hash is recorded every this many ticks (and when the battle ends).
    pub hash_every: u64,
    /// A snapshot is written after this many events since the last one.
    pub snapshot_every: u64,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            fsync: FsyncPolicy::Always,
            hash_every: 16,
            snapshot_every: 4096,
        }
    }
}

/// Snapshot payload.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Snapshot {
    tick: u64,
    last_seq: u64,
    rng_draws: u64,
    state: SessionState,
    secret_draws: u64,
}

/// What a staged command produced.
#[derive(Debug, Clone)]
pub struct Staged {
    /// Tick number.
    pub tick: u64,
    /// Its events with their sequence numbers.
    pub events: Vec<LoggedEvent>,
}

/// A live session.
pub struct Session {
    genesis: Genesis,
    engine: Engine,
    log: LogHandle,
    config: SessionConfig,
    last_seq: u64,
    tick: u64,
    queued: Vec<Vec<u8>>,
    /// The frame seq the next staged record gets: after every frame appended, taken in a
    /// batch not yet written, or queued.
    next_frame: u64,
    events_since_snapshot: u64,
    monsters: BTreeSet<CombatantId>,
    /// Event seq → frame of its tick, for resumes.
    event_index: event_index::EventIndex,
    /// The combatants handed to the server's built-in policy (`crate::auto`).
    auto: BTreeSet<CombatantId>,
    /// The player seats now: controls and tokens (`crate::seats`).
    seats: crate::seats::SeatTable,
}

fn random_bytes<const N: usize>() -> Result<[u8; N], SessionError> {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).map_err(|e| SessionError::Setup(format!("no OS randomness: {e}")))?;
    Ok(b)
}

/// A session's secrets: the seed and salt of the commitment, the access tokens, and the secret
/// stream's seed and salt (never revealed).
#[derive(Debug, Clone)]
pub struct Secrets {
    /// RNG seed.
    pub seed: u64,
    /// Commitment salt.
    pub salt: [u8; 16],
    /// GM token.
    pub gm: String,
    /// Spectator token.
    pub spectator: String,
    /// One token per seat.
    pub players: Vec<String>,
    /// The secret stream's seed (`dice::rng`, "The secret stream").
    pub secret_seed: u64,
    /// The secret stream's commitment salt.
    pub secret_salt: [u8; 16],
}

impl Secrets {
    /// Random secrets (the seed may be given; the secret seed is always random, so a chosen
    /// seed tells nothing about the secret rolls).
    pub fn random(seed: Option<u64>, seats: usize) -> Result<Secrets, SessionError> {
        Ok(Secrets {
            seed: match seed {
                Some(s) => s,
                None => u64::from_le_bytes(random_bytes::<8>()?),
            },
            salt: random_bytes::<16>()?,
            gm: new_token()?,
            spectator: new_token()?,
            players: (0..seats).map(|_| new_token()).collect::<Result<_, _>>()?,
            secret_seed: u64::from_le_bytes(random_bytes::<8>()?),
            secret_salt: random_bytes::<16>()?,
        })
    }
}

/// A fresh random token (128 bits, hex).
pub fn new_token() -> Result<String, SessionError> {
    Ok(hex::encode(random_bytes::<16>()?))
}

fn header_for(genesis: &Genesis) -> Result<SegmentHeader, SessionError> {
    let (state, stream) = SessionRng::derive_parts(genesis.seed);
    let commitment: [u8; 32] = hex::decode(&genesis.commitment)
        .ok()
        .and_then(|v| v.try_into().ok())
        .ok_or_else(|| SessionError::Setup("bad commitment".into()))?;
    Ok(SegmentHeader {
        codec: crate::log::CODEC_BINCODE,
        protocol_version: PROTOCOL_VERSION,
        ruleset_id: genesis.ruleset.clone(),
        ruleset_version: genesis.ruleset_version,
        rng_id: "pcg64".into(),
        rng_state: state,
        rng_stream: stream,
        seed_commitment: commitment,
        segment_index: 0,
        first_seq: 0,
    })
}

/// Encodes a record in the log's record format.
fn encode(record: &Record, format: u32) -> Result<Vec<u8>, SessionError> {
    in_record_format(format, || to_bincode(record)).map_err(|e| SessionError::Record {
        index: 0,
        reason: e.to_string(),
    })
}

/// Decodes frames into records. Frames from the log's start are read in the log's record
/// format (named by its genesis, frame 0; a format this build does not read is
/// [`SessionError::Format`]); any other range in the newest format — a range of a log already
/// opened is read with [`decode_frames_as`] and the log's format instead.
pub fn decode_frames(frames: &[(u64, Vec<u8>)]) -> Result<Vec<Record>, SessionError> {
    let format = match frames.first() {
        Some((0, first)) => record::reader_for(first)?,
        _ => RECORD_VERSION,
    };
    decode_frames_as(frames, format)
}

/// Decodes frames of a log whose record format is known (its genesis').
pub fn decode_frames_as(
    frames: &[(u64, Vec<u8>)],
    format: u32,
) -> Result<Vec<Record>, SessionError> {
    in_record_format(format, || {
        frames
            .iter()
            .map(|(seq, bytes)| {
                from_bincode_record::<Record>(bytes).map_err(|e| SessionError::Record {
                    index: *seq,
                    reason: e.to_string(),
                })
            })
            .collect()
    })
}

/// Builds the engine a genesis describes, before any command: the main stream from the seed,
/// the secret stream from the secret seed.
/// Decides the commands that the session, not the ruleset, decides for the sending seat
/// (`client`, as the log's command record names it) at `tick`: table talk (`crate::talk`),
/// handing combatants to the server (`crate::auto`) and the seats (`crate::seats`). `None` for
/// every other command. `rewind_to`,
/// which needs the log's events, is decided by `crate::rewind`. Shared with `replay::verify`.
pub fn decide_outside_rules(
    engine: &mut Engine,
    genesis: &Genesis,
    client: &str,
    tick: u64,
    command: &Command,
) -> Option<Result<Vec<fray_protocol::GameEvent>, Rejection>> {
    crate::talk::decide(engine, genesis, client, command)
        .or_else(|| crate::auto::decide(engine, command))
        .or_else(|| crate::seats::decide(engine, genesis, tick, command))
}

/// Whether a record holds a `rewound` event.
fn rewinds(r: &Record) -> bool {
    matches!(r, Record::Events { events, .. }
        if events.iter().any(|e| matches!(e, fray_protocol::GameEvent::Rewound { .. })))
}

/// The ids a record's `combatant_added` events give.
fn added_ids(r: &Record) -> impl Iterator<Item = &fray_protocol::ids::CombatantId> {
    let events = match r {
        Record::Events { events, .. } => events.as_slice(),
        _ => &[],
    };
    events.iter().filter_map(|e| match e {
        fray_protocol::GameEvent::CombatantAdded { combatant, .. } => Some(combatant),
        _ => None,
    })
}

/// How many events a record holds.
fn event_count(r: &Record) -> usize {
    match r {
        Record::Events { events, .. } => events.len(),
        _ => 0,
    }
}

/// The events of these records, numbered and ticked.
pub(crate) fn logged_events<'a>(records: impl Iterator<Item = &'a Record>) -> Vec<LoggedEvent> {
    let mut out = Vec::new();
    for r in records {
        if let Record::Events {
            tick,
            first_seq,
            events,
            ..
        } = r
        {
            out.extend(events.iter().enumerate().map(|(k, e)| LoggedEvent {
                seq: first_seq + k as u64,
                tick: *tick,
                event: e.clone(),
            }));
        }
    }
    out
}

pub fn engine_for(genesis: &Genesis) -> Result<Engine, SessionError> {
    let mut engine = Engine::new(
        &genesis.encounter,
        SessionRng::from_seed(genesis.seed),
        SeedSecret {
            seed: genesis.seed,
            salt: genesis.salt.clone(),
        },
    )
    .map_err(|r| SessionError::Setup(r.message))?;
    engine.set_secret_rng(SessionRng::from_secret_seed(genesis.secret_seed));
    engine.set_record_format(genesis.record_version);
    Ok(engine)
}

impl Session {
    /// Creates a session and its log. `seed` defaults to OS randomness; the salt and the
    /// tokens always come from OS randomness.
    pub fn create(
        storage: impl Storage + 'static,
        id: SessionId,
        encounter: Encounter,
        seed: Option<u64>,
        demo: bool,
        config: SessionConfig,
    ) -> Result<Session, SessionError> {
        let secrets = Secrets::random(seed, encounter.seats.len())?;
        Session::create_with(storage, id, encounter, secrets, demo, config)
    }

    /// Creates a session with given secrets (recorded replays, determinism tests).
    pub fn create_with(
        storage: impl Storage + 'static,
        id: SessionId,
        encounter: Encounter,
        secrets: Secrets,
        demo: bool,
        config: SessionConfig,
    ) -> Result<Session, SessionError> {
        let ruleset_version = crate::rules::version(&encounter.ruleset).ok_or_else(|| {
            SessionError::Setup(format!("unknown ruleset '{}'", encounter.ruleset))
        })?;
        if secrets.players.len() != encounter.seats.len() {
            return Err(SessionError::Setup(
                "one player token per seat is needed".into(),
            ));
        }
        let genesis = Genesis {
            record_version: RECORD_VERSION,
            session: id,
            ruleset: encounter.ruleset.clone(),
            ruleset_version,
            demo,
            commitment: hex::encode(commitment(secrets.seed, &secrets.salt)),
            seed: secrets.seed,
            salt: hex::encode(secrets.salt),
            tokens: Tokens {
                gm: secrets.gm,
                spectator: secrets.spectator,
                players: secrets.players,
            },
            hash_every: config.hash_every.max(1),
            encounter,
            secret_commitment: hex::encode(commitment(secrets.secret_seed, &secrets.secret_salt)),
            secret_seed: secrets.secret_seed,
            secret_salt: hex::encode(secrets.secret_salt),
        };
        let engine = engine_for(&genesis)?;
        let mut log = SessionLog::create_with(
            storage,
            header_for(&genesis)?,
            LogConfig {
                fsync: config.fsync,
                ..LogConfig::default()
            },
        )?;
        log.append_batch(&[encode(
            &Record::Genesis(Box::new(genesis.clone())),
            genesis.record_version,
        )?])?;
        Ok(Session::assemble(genesis, engine, log, config))
    }

    fn assemble(
        genesis: Genesis,
        engine: Engine,
        log: SessionLog,
        config: SessionConfig,
    ) -> Session {
        let monsters = genesis
            .encounter
            .combatants
            .iter()
            .filter(|c| c.side == Side::Monsters)
            .map(|c| c.id.clone())
            .collect();
        let seats = crate::seats::SeatTable::from_genesis(&genesis);
        let next_frame = log.next_seq();
        Session {
            genesis,
            engine,
            log: LogHandle::new(log),
            config,
            last_seq: 0,
            tick: 0,
            queued: Vec::new(),
            next_frame,
            events_since_snapshot: 0,
            monsters,
            event_index: event_index::EventIndex::default(),
            auto: BTreeSet::new(),
            seats,
        }
    }

    /// Reopens a session from its log: truncates a torn tail (reported), restores the newest
    /// snapshot if any, and folds the events after it.
    pub fn open(
        storage: impl Storage + 'static,
        config: SessionConfig,
    ) -> Result<(Session, Option<Truncation>), SessionError> {
        let (log, recovered) = SessionLog::open_with(
            storage,
            LogConfig {
                fsync: config.fsync,
                ..LogConfig::default()
            },
        )?;
        let records = decode_frames(&recovered.frames)?;
        let Some(Record::Genesis(genesis)) = records.first() else {
            return Err(SessionError::Inconsistent(
                "the first record is not a genesis".into(),
            ));
        };
        let genesis = (**genesis).clone();
        let snapshot = match log.latest_snapshot() {
            Ok(Some((frame_seq, bytes))) => in_record_format(genesis.record_version, || {
                from_bincode_record::<Snapshot>(&bytes)
            })
            .ok()
            .map(|s| (frame_seq, s)),
            _ => None,
        };
        let secret = SeedSecret {
            seed: genesis.seed,
            salt: genesis.salt.clone(),
        };
        let (state, stream) = SessionRng::derive_parts(genesis.seed);
        let (secret_state, secret_stream) = SessionRng::derive_secret_parts(genesis.secret_seed);
        let (mut engine, skip_frames, mut tick, mut last_seq, mut draws, mut secret_draws) =
            match snapshot {
                Some((frame_seq, snap)) => match Engine::restore(
                    &genesis.encounter,
                    &snap.state,
                    SessionRng::resume(state, stream, snap.rng_draws),
                    secret,
                ) {
                    Ok(engine) => (
                        engine,
                        frame_seq,
                        snap.tick,
                        snap.last_seq,
                        snap.rng_draws,
                        snap.secret_draws,
                    ),
                    Err(_) => (engine_for(&genesis)?, 1, 0, 0, 0, 0),
                },
                None => (engine_for(&genesis)?, 1, 0, 0, 0, 0),
            };
        // Its state hashes are the log's format's (a snapshot's engine starts at the newest).
        engine.set_record_format(genesis.record_version);
        // Each tick's events follow its command: index the command's frame by the first event.
        let mut index = event_index::EventIndex::default();
        for (i, rec) in records.iter().enumerate() {
            let command_frame = i.checked_sub(1).and_then(|j| recovered.frames.get(j));
            if let (Record::Events { first_seq, .. }, Some((frame, _))) = (rec, command_frame) {
                index.note(*first_seq, *frame);
            }
        }
        // A rewind after the snapshot folds the events before it again: only then is every
        // event of the log numbered and kept (`crate::rewind::apply`).
        let skip = skip_frames as usize;
        let history = if records.iter().skip(skip).any(rewinds) {
            logged_events(records.iter())
        } else {
            Vec::new()
        };
        // The reinforcements' ids before the snapshot stay taken (`AddedIds`).
        engine.note_added_ids(records.iter().take(skip).flat_map(added_ids));
        let mut folded = records.iter().take(skip).map(event_count).sum::<usize>();
        for (i, rec) in records.iter().enumerate().skip(skip_frames as usize) {
            match rec {
                Record::Events {
                    tick: t,
                    first_seq,
                    events,
                    rng_draws,
                    secret_draws: secret_at,
                } => {
                    if *first_seq != last_seq + 1 {
                        return Err(SessionError::Inconsistent(format!(
                            "frame {i}: events start at seq {first_seq}, expected {}",
                            last_seq + 1
                        )));
                    }
                    for e in events {
                        let before = history.get(..folded).unwrap_or_default();
                        crate::rewind::apply(&mut engine, &genesis, e, before).map_err(|r| {
                            SessionError::Inconsistent(format!("frame {i}: {}", r.message))
                        })?;
                        folded += 1;
                    }
                    last_seq += events.len() as u64;
                    tick = *t;
                    draws = *rng_draws;
                    secret_draws = *secret_at;
                }
                Record::Command { .. } | Record::StateHash { .. } => {}
                Record::Genesis(_) => {
                    return Err(SessionError::Inconsistent(format!(
                        "frame {i}: a second genesis"
                    )));
                }
            }
        }
        let mut auto = BTreeSet::new();
        let mut seats = crate::seats::SeatTable::from_genesis(&genesis);
        for rec in &records {
            if let Record::Events { events, .. } = rec {
                for e in events {
                    crate::auto::follow(&mut auto, e);
                    seats.follow(e);
                }
            }
        }
        // The RNG and the secret stream continue where the last folded tick left them.
        engine.set_rng(SessionRng::resume(state, stream, draws));
        engine.set_secret_rng(SessionRng::resume(
            secret_state,
            secret_stream,
            secret_draws,
        ));
        let mut s = Session::assemble(genesis, engine, log, config);
        s.tick = tick;
        s.last_seq = last_seq;
        s.event_index = index;
        s.auto = auto;
        s.seats = seats;
        Ok((s, recovered.truncated))
    }

    /// Runs a command and queues its records. Nothing is durable or visible until [`commit`].
    ///
    /// [`commit`]: Session::commit
    pub fn stage(
        &mut self,
        client: &str,
        command_id: u64,
        command: &Command,
    ) -> Result<Staged, Rejection> {
        let rewind = match command {
            Command::RewindTo { seq } => Some(*seq),
            _ => None,
        };
        let events = match rewind {
            Some(seq) => self.rewind(seq)?,
            None => match decide_outside_rules(
                &mut self.engine,
                &self.genesis,
                client,
                self.tick + 1,
                command,
            ) {
                Some(decided) => decided?,
                None => self.engine.execute(command)?,
            },
        };
        for e in &events {
            crate::auto::follow(&mut self.auto, e);
            self.seats.follow(e);
        }
        self.tick += 1;
        let tick = self.tick;
        let first_seq = self.last_seq + 1;
        self.last_seq += events.len() as u64;
        self.events_since_snapshot += events.len() as u64;
        let ended = events.iter().any(|e| {
            matches!(
                e,
                fray_protocol::GameEvent::BattleEnded { .. }
                    | fray_protocol::GameEvent::SeedRevealed { .. }
            )
        });
        // The command's frame: after what is appended, being written and queued before it.
        let frame = self.next_frame;
        if !events.is_empty() {
            self.event_index.note(first_seq, frame);
        }
        let mut records = vec![
            Record::Command {
                tick,
                client: client.to_owned(),
                command_id,
                command: command.clone(),
            },
            Record::Events {
                tick,
                first_seq,
                events,
                rng_draws: self.engine.rng().draws(),
                secret_draws: self.engine.secret_draws(),
            },
        ];
        if tick.is_multiple_of(self.genesis.hash_every) || ended || rewind.is_some() {
            records.push(Record::StateHash {
                tick,
                seq: self.last_seq,
                hash: self.engine.state_hash(),
            });
        }
        for r in &records {
            match encode(r, self.genesis.record_version) {
                Ok(bytes) => self.queued.push(bytes),
                // invariant: protocol types always encode; if not, commit fails and the session stops.
                Err(_) => self.queued.push(Vec::new()),
            }
        }
        self.next_frame += records.len() as u64;
        // The events move out of their record, now encoded, into what the caller broadcasts.
        let events = records
            .into_iter()
            .find_map(|r| match r {
                Record::Events { events, .. } => Some(events),
                _ => None,
            })
            .unwrap_or_default();
        let logged = events
            .into_iter()
            .enumerate()
            .map(|(i, event)| LoggedEvent {
                seq: first_seq + i as u64,
                tick,
                event,
            })
            .collect();
        Ok(Staged {
            tick,
            events: logged,
        })
    }

    /// Decides and carries out `rewind_to` (`crate::rewind`), from every event so far: the log's
    /// and those staged in this group but not yet appended.
    fn rewind(&mut self, seq: u64) -> Result<Vec<fray_protocol::GameEvent>, Rejection> {
        let unavailable = |e: SessionError| {
            Rejection::new(
                fray_protocol::ErrorCode::SessionUnavailable,
                format!("reading the log for the rewind: {e}"),
            )
        };
        // Every frame before the queued ones must be in the log: no batch may be in flight
        // (the caller waits for it: `reads_the_log`).
        let written = self.log.lock().map_err(unavailable)?.next_seq();
        if written + self.queued.len() as u64 != self.next_frame {
            return Err(unavailable(SessionError::Inconsistent(
                "a group is still being written".into(),
            )));
        }
        let mut events = self.events_after(0).map_err(unavailable)?;
        let staged: Vec<(u64, Vec<u8>)> = self.queued.iter().map(|b| (0, b.clone())).collect();
        let staged = decode_frames_as(&staged, self.genesis.record_version).map_err(unavailable)?;
        events.extend(logged_events(staged.iter()));
        crate::rewind::execute(&mut self.engine, &self.genesis, &events, seq)
    }

    /// Appends everything staged as one batch, and writes a snapshot if one is due. On error
    /// the session must be dropped. The same as [`Session::take_batch`] and [`Batch::write`].
    pub fn commit(&mut self) -> Result<(), SessionError> {
        match self.take_batch()? {
            Some(batch) => batch.write(),
            None => Ok(()),
        }
    }

    /// Takes everything staged as one batch to write ([`Batch::write`], on any thread), with
    /// the snapshot due after it, encoded now from the world as the batch leaves it. `None`
    /// when nothing is staged. Batches are written one at a time, in the order they were
    /// taken; until a batch is written nothing of it may be acknowledged. On error the
    /// session must be dropped.
    pub fn take_batch(&mut self) -> Result<Option<Batch>, SessionError> {
        if self.queued.is_empty() {
            return Ok(None);
        }
        if self.queued.iter().any(|q| q.is_empty()) {
            return Err(SessionError::Record {
                index: self.next_frame,
                reason: "a record failed to encode".into(),
            });
        }
        let snapshot = if self.events_since_snapshot >= self.config.snapshot_every {
            let bytes = self.snapshot_bytes()?;
            self.events_since_snapshot = 0;
            Some(bytes)
        } else {
            None
        };
        Ok(Some(Batch {
            log: self.log.clone(),
            frames: std::mem::take(&mut self.queued),
            snapshot,
        }))
    }

    /// Whether staging this command reads the log (`rewind_to` reads every event so far): the
    /// caller must let the batches it took be written first.
    pub fn reads_the_log(command: &Command) -> bool {
        matches!(command, Command::RewindTo { .. })
    }

    /// The snapshot of the world now, encoded.
    fn snapshot_bytes(&self) -> Result<Vec<u8>, SessionError> {
        let snap = Snapshot {
            tick: self.tick,
            last_seq: self.last_seq,
            rng_draws: self.engine.rng().draws(),
            state: self.engine.state(),
            secret_draws: self.engine.secret_draws(),
        };
        in_record_format(self.genesis.record_version, || to_bincode(&snap))
            .map_err(|e| SessionError::Setup(e.to_string()))
    }

    /// Whether the log holds frames that only a timer's [`Self::sync_if_due`] makes durable
    /// (the interval policy). A log that cannot be read says yes, so the timer finds its error.
    pub fn awaits_timed_sync(&self) -> bool {
        self.log.lock().map_or(true, |l| l.awaits_timed_sync())
    }

    /// Syncs the log if its policy says it is due (a periodic timer under the interval policy).
    pub fn sync_if_due(&mut self) -> Result<bool, SessionError> {
        Ok(self.log.lock()?.sync_if_due()?)
    }

    /// Makes everything appended durable (shutdown).
    pub fn flush(&mut self) -> Result<(), SessionError> {
        Ok(self.log.lock()?.flush_sync()?)
    }

    /// Every logged event with a sequence number greater than `after`, from the log.
    pub fn events_after(&self, after: u64) -> Result<Vec<LoggedEvent>, SessionError> {
        // Only the tail: from the tick that holds event `after + 1` (the sparse index).
        let from = self.event_index.frame_for_events_after(after).unwrap_or(1);
        let frames = self.log.lock()?.read_frames_from(from)?;
        let mut out = Vec::new();
        for rec in decode_frames_as(&frames, self.genesis.record_version)? {
            if let Record::Events {
                tick,
                first_seq,
                events,
                ..
            } = rec
            {
                for (i, event) in events.into_iter().enumerate() {
                    let seq = first_seq + i as u64;
                    if seq > after {
                        out.push(LoggedEvent { seq, tick, event });
                    }
                }
            }
        }
        Ok(out)
    }

    /// The genesis record.
    pub fn genesis(&self) -> &Genesis {
        &self.genesis
    }
    /// The state (GM view).
    pub fn state(&self) -> SessionState {
        self.engine.state()
    }
    /// The phase and whether the seed is revealed (the session is over), read without building
    /// the whole state.
    pub fn status(&self) -> (fray_protocol::state::Phase, bool) {
        self.engine
            .world()
            .get_resource::<crate::ecs::components::Battle>()
            .map_or((fray_protocol::state::Phase::Setup, false), |b| {
                (b.phase, b.seed_revealed)
            })
    }
    /// The state hash.
    pub fn state_hash(&self) -> String {
        self.engine.state_hash()
    }
    /// Sequence number of the last event (0 when none).
    pub fn last_seq(&self) -> u64 {
        self.last_seq
    }
    /// Ticks so far.
    pub fn tick(&self) -> u64 {
        self.tick
    }
    /// Whether a combatant is one of the GM's monsters (for redaction).
    pub fn is_monster(&self, id: &CombatantId) -> bool {
        self.monsters.contains(id)
    }
    /// The commands a seat may send now (`legal_actions`): the GM's for every combatant and the
    /// session; a player's for the combatants it controls; none for a spectator. The caller
    /// still authorizes what it sends (`net::auth`).
    pub fn legal_actions(&mut self, role: &fray_protocol::Role) -> Vec<fray_protocol::LegalAction> {
        use fray_protocol::Role;
        match role {
            Role::Gm => self.engine.legal_actions(None),
            Role::Player { controls, .. } => self.engine.legal_actions(Some(controls)),
            Role::Spectator => Vec::new(),
        }
    }

    /// What a command would cover now (`Engine::preview`): nothing is staged, logged or drawn.
    /// The caller authorizes the seat first (`net::auth`), as for a command.
    pub fn preview(
        &mut self,
        command: &Command,
    ) -> Result<fray_protocol::CommandPreview, fray_protocol::Rejection> {
        self.engine.preview(command)
    }

    /// The player seats now (`assign_combatant`, `reissue_token`).
    pub fn seats(&self) -> &crate::seats::SeatTable {
        &self.seats
    }

    /// The combatants handed to the server's built-in policy (`auto_play`).
    pub fn auto(&self) -> &BTreeSet<CombatantId> {
        &self.auto
    }

    /// The engine (read-only).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::MemStorage;
    use crate::rules::{builtin_encounters, load_encounter};
    use fray_protocol::BxCommand;

    fn session(storage: MemStorage) -> Session {
        let (name, text) = builtin_encounters("13th-age")[0];
        let enc = load_encounter(name, text).unwrap();
        let secrets = Secrets {
            seed: 9,
            salt: [1; 16],
            gm: "g".into(),
            spectator: "s".into(),
            players: vec!["a".into(), "b".into()],
            secret_seed: 90,
            secret_salt: [4; 16],
        };
        Session::create_with(
            storage,
            SessionId("t".into()),
            enc,
            secrets,
            false,
            SessionConfig::default(),
        )
        .unwrap()
    }

    /// Every event of the log, read from its first frame (what `events_after` did before it had
    /// an index).
    fn all_events(s: &Session) -> Vec<LoggedEvent> {
        let frames = s.log.lock().unwrap().read_frames_from(1).unwrap();
        let mut out = Vec::new();
        for rec in decode_frames(&frames).unwrap() {
            if let Record::Events {
                tick,
                first_seq,
                events,
                ..
            } = rec
            {
                for (i, event) in events.into_iter().enumerate() {
                    out.push(LoggedEvent {
                        seq: first_seq + i as u64,
                        tick,
                        event,
                    });
                }
            }
        }
        out
    }

    #[test]
    fn a_resume_reads_the_same_events_from_the_index_as_from_the_first_frame() {
        let storage = MemStorage::new();
        let mut s = session(storage.clone());
        // A dense index, so that a short fight has many entries to choose from.
        s.event_index = event_index::EventIndex::with_stride(8);
        let roles = vec![
            fray_protocol::Role::Gm,
            fray_protocol::Role::Player {
                name: "alice".into(),
                controls: s.genesis().encounter.seats[0].controls.clone(),
            },
            fray_protocol::Role::Player {
                name: "bob".into(),
                controls: s.genesis().encounter.seats[1].controls.clone(),
            },
        ];
        for tick in 0..400 {
            let state = s.state();
            if state.seed_revealed {
                break;
            }
            let Some((_, cmd)) = crate::demo::bot::next_for_table(&state, &roles, tick) else {
                break;
            };
            s.stage("gm", tick + 1, &cmd).unwrap();
            s.commit().unwrap();
        }
        let all = all_events(&s);
        let last = s.last_seq();
        assert!(last > 100, "a long enough fight: {last} events");
        let check = |s: &Session| {
            for after in [0, 1, 2, 7, 8, 9, 50, last / 2, last - 1, last] {
                let expected: Vec<&LoggedEvent> = all.iter().filter(|e| e.seq > after).collect();
                let got = s.events_after(after).unwrap();
                assert_eq!(got.iter().collect::<Vec<_>>(), expected, "after {after}");
            }
        };
        check(&s);
        drop(s);
        let (reopened, _) = Session::open(storage, SessionConfig::default()).unwrap();
        check(&reopened);
    }

    #[test]
    fn a_failed_append_stops_and_the_log_keeps_only_what_was_acknowledged() {
        let storage = MemStorage::new();
        let mut s = session(storage.clone());
        s.stage("gm", 1, &Command::StartBattle).unwrap();
        s.commit().unwrap();
        let acknowledged = s.state_hash();
        let acked_seq = s.last_seq();
        // The next append is torn: half written, then an error.
        let current = s.state().current.unwrap();
        s.stage("gm", 2, &Command::EndTurn { actor: current })
            .unwrap();
        storage.short_next_write(7);
        assert!(s.commit().is_err(), "a failed write must surface");
        // Further commits refuse (the log is poisoned): fail-stop.
        assert!(s.commit().is_err() || s.queued.is_empty());
        drop(s);
        // The 7 bytes of the torn batch are still in the file (no crash dropped them).
        let (reopened, truncated) = Session::open(storage, SessionConfig::default()).unwrap();
        assert!(truncated.is_some(), "the torn batch is reported");
        assert_eq!(reopened.last_seq(), acked_seq);
        assert_eq!(reopened.state_hash(), acknowledged);
    }

    /// A Five Torches Deep session goes through the log like the others: its genesis (with the
    /// `ftd` stat blocks) and events reopen to the same state, and the RNG resumes.
    #[test]
    fn a_five_torches_deep_session_reopens_from_its_log() {
        let (name, text) = builtin_encounters("five-torches-deep")[0];
        let enc = load_encounter(name, text).unwrap();
        let make = |storage: MemStorage| {
            Session::create_with(
                storage,
                SessionId("ftd".into()),
                enc.clone(),
                Secrets {
                    seed: 5,
                    salt: [2; 16],
                    gm: "g".into(),
                    spectator: "s".into(),
                    players: vec!["a".into(), "b".into()],
                    secret_seed: 50,
                    secret_salt: [5; 16],
                },
                false,
                SessionConfig::default(),
            )
            .unwrap()
        };
        let storage = MemStorage::new();
        let mut a = make(storage.clone());
        let mut id = 0;
        let mut send = |s: &mut Session, c: Command| {
            id += 1;
            let _ = s.stage("gm", id, &c);
            s.commit().unwrap();
        };
        send(&mut a, Command::StartBattle);
        for _ in 0..12 {
            let state = a.state();
            let Some(cur) = state.current.clone() else {
                break;
            };
            let me = state.combatant(&cur).unwrap().clone();
            if let Some(foe) = state
                .combatants
                .iter()
                .find(|c| c.side != me.side && c.status.is_up())
            {
                send(
                    &mut a,
                    Command::Move {
                        actor: cur.clone(),
                        engage: Some(foe.id.clone()),
                        far_away: false,
                    },
                );
                send(
                    &mut a,
                    Command::Attack {
                        actor: cur.clone(),
                        attack: me.attacks[0].id.clone(),
                        targets: vec![foe.id.clone()],
                        mode: Default::default(),
                        knock_out: false,
                        forced: Vec::new(),
                        weapon: None,
                        secondary_target: None,
                    },
                );
            }
            if a.state().current.as_ref() == Some(&cur) {
                send(&mut a, Command::EndTurn { actor: cur });
            }
        }
        let hash = a.state_hash();
        let draws = a.engine().rng().draws();
        assert!(draws > 0);
        drop(a);
        let (reopened, _) = Session::open(storage, SessionConfig::default()).unwrap();
        assert_eq!(reopened.state_hash(), hash);
        assert_eq!(reopened.engine().rng().draws(), draws);
        assert_eq!(reopened.state().ruleset, "five-torches-deep");
        assert!(reopened.state().combatants.iter().all(|c| c.ftd.is_some()));
    }

    /// An Old-School Essentials session reopens from its log: the `ose` blocks (surprise,
    /// reaction, declarations, side initiative, morale) fold back to the same state.
    #[test]
    fn an_old_school_essentials_session_reopens_from_its_log() {
        let (name, text) = builtin_encounters("ose")[0];
        let enc = load_encounter(name, text).unwrap();
        let storage = MemStorage::new();
        let mut a = Session::create_with(
            storage.clone(),
            SessionId("ose".into()),
            enc,
            Secrets {
                seed: 7,
                salt: [3; 16],
                gm: "g".into(),
                spectator: "s".into(),
                players: vec!["a".into(), "b".into()],
                secret_seed: 70,
                secret_salt: [6; 16],
            },
            false,
            SessionConfig::default(),
        )
        .unwrap();
        let mut id = 0;
        let mut send = |s: &mut Session, c: Command| {
            id += 1;
            let _ = s.stage("gm", id, &c);
            s.commit().unwrap();
        };
        send(
            &mut a,
            Command::Bx(BxCommand::RollSurprise {
                sides: vec![fray_protocol::Side::Monsters],
            }),
        );
        send(
            &mut a,
            Command::Bx(BxCommand::RollReaction { speaker: None }),
        );
        send(
            &mut a,
            Command::Bx(BxCommand::Declare {
                actor: "pell".into(),
                declaration: Some(fray_protocol::ose::Declaration::Spell {
                    spell: "Sleep".into(),
                }),
            }),
        );
        send(&mut a, Command::StartBattle);
        for _ in 0..30 {
            let state = a.state();
            let Some(cur) = state.current.clone() else {
                break;
            };
            let me = state.combatant(&cur).unwrap().clone();
            if let Some(foe) = state
                .combatants
                .iter()
                .find(|c| c.side != me.side && c.status.is_up())
            {
                send(
                    &mut a,
                    Command::Bx(BxCommand::OseAttack {
                        actor: cur.clone(),
                        attack: me.attacks[0].id.clone(),
                        target: foe.id.clone(),
                        range: None,
                        modifier: 0,
                        behind: false,
                    }),
                );
            }
            if a.state().current.as_ref() == Some(&cur) {
                send(&mut a, Command::EndTurn { actor: cur });
            }
        }
        let hash = a.state_hash();
        let draws = a.engine().rng().draws();
        assert!(draws > 0);
        let before = a.state();
        drop(a);
        let (reopened, _) = Session::open(storage, SessionConfig::default()).unwrap();
        assert_eq!(reopened.state_hash(), hash);
        assert_eq!(reopened.engine().rng().draws(), draws);
        assert_eq!(reopened.state(), before);
        assert_eq!(reopened.state().ruleset, "ose");
        assert!(reopened.state().ose.is_some());
        assert!(reopened.state().combatants.iter().all(|c| c.ose.is_some()));
    }

    #[test]
    fn reopening_resumes_the_rng_where_it_stopped() {
        let storage = MemStorage::new();
        let mut a = session(storage.clone());
        a.stage("gm", 1, &Command::StartBattle).unwrap();
        a.commit().unwrap();
        drop(a);
        let (mut reopened, _) = Session::open(storage, SessionConfig::default()).unwrap();
        let mut twin = session(MemStorage::new());
        twin.stage("gm", 1, &Command::StartBattle).unwrap();
        twin.commit().unwrap();
        // The same next command gives the same events in the reopened and the live session.
        for s in [&mut reopened, &mut twin] {
            let cur = s.state().current.unwrap();
            let _ = s.stage("gm", 2, &Command::EndTurn { actor: cur });
        }
        assert_eq!(reopened.engine().rng().draws(), twin.engine().rng().draws());
        assert_eq!(reopened.state_hash(), twin.state_hash());
    }
}
