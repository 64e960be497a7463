//! The session registry: live sessions by id, and tokens to (session, role). Creating a
//! session writes its log under `<data dir>/sessions/<id>/` and starts its task; on start the
//! server recovers every session found there.

use super::limits::Limits;
use super::session_task::{self, SessionHandle, SessionInfo};
use crate::content::model::Encounter;
use crate::log::FsStorage;
use crate::session::{Session, SessionConfig, SessionError};
use fray_protocol::ids::{Role, SessionId};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, RwLock};

/// A seat's token as returned at creation.
#[derive(Debug, Clone, Serialize)]
pub struct PlayerToken {
    /// Seat name.
    pub name: String,
    /// Combatants it controls.
    pub controls: Vec<String>,
    /// The token.
    pub token: String,
}

/// Tokens as returned at creation.
#[derive(Debug, Clone, Serialize)]
pub struct CreatedTokens {
    /// GM token.
    pub gm: String,
    /// Spectator token.
    pub spectator: String,
    /// Player tokens.
    pub players: Vec<PlayerToken>,
}

/// The answer to a session creation.
#[derive(Debug, Clone, Serialize)]
pub struct Created {
    /// Session id.
    pub session: String,
    /// Ruleset id.
    pub ruleset: String,
    /// Title.
    pub title: String,
    /// Hex SHA-256(seed ‖ salt).
    pub commitment: String,
    /// WebSocket URL (filled in by the HTTP layer).
    pub ws_url: String,
    /// Tokens.
    pub tokens: CreatedTokens,
    /// Hex SHA-256(secret_seed ‖ secret_salt): the commitment to the secret stream (never
    /// opened in public; `fray verify` checks it on the full log).
    pub secret_commitment: String,
}

/// What [`Registry::recover_all`] brought back.
#[derive(Debug, Default)]
pub struct Recovery {
    /// Sessions served again.
    pub recovered: usize,
    /// Demo fights that were being played when the server stopped (served again only when the
    /// demo runs, for its bots to finish).
    pub unfinished_demos: Vec<DemoSeats>,
    /// Session folders whose logs could not be recovered (corrupt, unreadable): not served,
    /// left as they are.
    pub quarantined: Vec<PathBuf>,
}

/// The seats of a demo fight, for its bots.
#[derive(Debug, Clone)]
pub struct DemoSeats {
    /// Session id.
    pub session: SessionId,
    /// Title.
    pub title: String,
    /// The GM's token.
    pub gm: String,
    /// The players' tokens.
    pub players: Vec<String>,
}

impl DemoSeats {
    fn of(session: &Session) -> DemoSeats {
        let g = session.genesis();
        DemoSeats {
            session: g.session.clone(),
            title: g.encounter.title.clone(),
            gm: g.tokens.gm.clone(),
            players: g.tokens.players.clone(),
        }
    }
}

/// Live sessions and tokens.
pub struct Registry {
    data_dir: PathBuf,
    config: SessionConfig,
    limits: Limits,
    sessions: RwLock<BTreeMap<SessionId, SessionHandle>>,
    tokens: RwLock<HashMap<String, (SessionId, Role)>>,
    /// Tokens the GM revoked (`reissue_token`): refused with `token_revoked`.
    revoked: RwLock<HashMap<String, SessionId>>,
    registered: std::sync::atomic::AtomicU64,
}

fn new_session_id() -> Result<SessionId, SessionError> {
    let t = crate::session::new_token()?;
    Ok(SessionId(format!("s-{}", &t[..12])))
}

impl Registry {
    /// An empty registry with the default limits.
    pub fn new(data_dir: PathBuf, config: SessionConfig) -> Arc<Registry> {
        Registry::with_limits(data_dir, config, Limits::default())
    }

    /// An empty registry.
    pub fn with_limits(data_dir: PathBuf, config: SessionConfig, limits: Limits) -> Arc<Registry> {
        Arc::new(Registry {
            data_dir,
            config,
            limits,
            sessions: RwLock::new(BTreeMap::new()),
            tokens: RwLock::new(HashMap::new()),
            revoked: RwLock::new(HashMap::new()),
            registered: std::sync::atomic::AtomicU64::new(1),
        })
    }

    fn sessions_dir(&self) -> PathBuf {
        self.data_dir.join("sessions")
    }

    fn register(self: &Arc<Self>, session: Session) {
        let g = session.genesis().clone();
        let mut tokens = Vec::new();
        tokens.push((g.tokens.gm.clone(), Role::Gm));
        tokens.push((g.tokens.spectator.clone(), Role::Spectator));
        // The seats as the log has them now (`crate::seats`): controls given or taken back,
        // tokens reissued.
        let table = session.seats().clone();
        for seat in &table.seats {
            tokens.push((seat.token.clone(), seat.role()));
        }
        let number = self
            .registered
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let handle =
            session_task::spawn(session, number, Arc::downgrade(self), self.limits.clone());
        if let Ok(mut t) = self.tokens.write() {
            for (tok, role) in tokens {
                t.insert(tok, (g.session.clone(), role));
            }
        }
        if let Ok(mut r) = self.revoked.write() {
            for tok in table.revoked {
                r.insert(tok, g.session.clone());
            }
        }
        if let Ok(mut s) = self.sessions.write() {
            s.insert(g.session.clone(), handle);
        }
    }

    /// Creates a session from a resolved encounter.
    pub fn create(
        self: &Arc<Self>,
        encounter: Encounter,
        seed: Option<u64>,
        demo: bool,
    ) -> Result<Created, SessionError> {
        let id = new_session_id()?;
        let dir = self.sessions_dir().join(&id.0);
        let storage = FsStorage::open(&dir)?;
        let session = Session::create(
            storage,
            id.clone(),
            encounter,
            seed,
            demo,
            self.config.clone(),
        )?;
        let g = session.genesis().clone();
        let created = Created {
            session: id.0.clone(),
            ruleset: g.ruleset.clone(),
            title: g.encounter.title.clone(),
            commitment: g.commitment.clone(),
            secret_commitment: g.secret_commitment.clone(),
            ws_url: String::new(),
            tokens: CreatedTokens {
                gm: g.tokens.gm.clone(),
                spectator: g.tokens.spectator.clone(),
                players: g
                    .encounter
                    .seats
                    .iter()
                    .zip(&g.tokens.players)
                    .map(|(s, t)| PlayerToken {
                        name: s.name.clone(),
                        controls: s.controls.iter().map(|c| c.as_str().to_owned()).collect(),
                        token: t.clone(),
                    })
                    .collect(),
            },
        };
        self.register(session);
        tracing::info!(session = %id, ruleset = %g.ruleset, title = %g.encounter.title, demo, "session created");
        Ok(created)
    }

    /// Recovers every session under the data directory; sessions that cannot be recovered are
    /// reported and skipped. A demo fight that was still being played when the server stopped
    /// is served again only when `resume_demos` (the server runs its demo, whose bots then
    /// finish it: [`Recovery::unfinished_demos`]); otherwise it is left on disk, unlisted, so
    /// that nobody attaches to a fight no one plays.
    pub fn recover_all(self: &Arc<Self>, resume_demos: bool) -> Recovery {
        let mut out = Recovery::default();
        let Ok(entries) = std::fs::read_dir(self.sessions_dir()) else {
            return out;
        };
        let mut dirs: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        for dir in dirs {
            let storage = match FsStorage::open(&dir) {
                Ok(s) => s,
                Err(e) => {
                    tracing::error!(dir = %dir.display(), error = %e, "cannot open session log");
                    continue;
                }
            };
            match Session::open(storage, self.config.clone()) {
                Ok((session, _)) if session.genesis().demo && session.state().seed_revealed => {
                    // A finished demo fight: its log stays on disk for `fray replay`/`verify`.
                    tracing::debug!(dir = %dir.display(), "finished demo session not relisted");
                }
                Ok((session, _)) if session.genesis().demo && !resume_demos => {
                    tracing::info!(
                        session = %session.genesis().session,
                        "unfinished demo fight not served (no bots without --demo); its log stays on disk"
                    );
                }
                Ok((session, truncated)) => {
                    if let Some(t) = truncated {
                        tracing::warn!(
                            dir = %dir.display(),
                            segment = t.segment,
                            offset = t.offset,
                            bytes_dropped = t.bytes_dropped,
                            reason = %t.reason,
                            "torn tail truncated during recovery"
                        );
                    }
                    tracing::info!(session = %session.genesis().session, seq = session.last_seq(), "session recovered");
                    if session.genesis().demo {
                        out.unfinished_demos.push(DemoSeats::of(&session));
                    }
                    self.register(session);
                    out.recovered += 1;
                }
                Err(e) => {
                    // Quarantined: a damaged log is never cut or repaired here (acknowledged
                    // events may follow the damage); the other sessions are served.
                    tracing::error!(
                        dir = %dir.display(),
                        error = %e,
                        "session quarantined: its log cannot be recovered; it is not served and its files are left as they are"
                    );
                    out.quarantined.push(dir.clone());
                }
            }
        }
        out
    }

    /// The log directory of a session (whether or not it is live). `None` for an id that is
    /// not a session id (`s-` and hex digits), so that no path outside the data dir is named.
    pub fn session_dir(&self, id: &str) -> Option<PathBuf> {
        let hex = id.strip_prefix("s-")?;
        if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        Some(self.sessions_dir().join(id))
    }

    /// Opens a session of the data directory from its log (a hibernating session waking up).
    pub fn open_session(&self, id: &SessionId) -> Result<Session, SessionError> {
        let dir = self.sessions_dir().join(&id.0);
        let storage = FsStorage::open(&dir)?;
        let (session, truncated) = Session::open(storage, self.config.clone())?;
        if let Some(t) = truncated {
            tracing::warn!(session = %id, offset = t.offset, "torn tail truncated when reopening");
        }
        Ok(session)
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Live sessions.
    pub fn len(&self) -> usize {
        self.sessions.read().map(|s| s.len()).unwrap_or(0)
    }

    /// Whether no session is live.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Looks up a token.
    pub fn token(&self, token: &str) -> Option<(SessionHandle, Role)> {
        let (id, role) = self.tokens.read().ok()?.get(token).cloned()?;
        let handle = self.sessions.read().ok()?.get(&id).cloned()?;
        Some((handle, role))
    }

    /// Whether the GM revoked this token (`reissue_token`).
    pub fn is_revoked(&self, token: &str) -> bool {
        self.revoked.read().is_ok_and(|r| r.contains_key(token))
    }

    /// The player seats of a session changed (`crate::seats`): their tokens and roles become
    /// the table's, and the revoked tokens are refused from now on.
    pub fn update_seats(&self, id: &SessionId, table: &crate::seats::SeatTable) {
        if let Ok(mut t) = self.tokens.write() {
            t.retain(|_, (sid, role)| sid != id || !matches!(role, Role::Player { .. }));
            for seat in &table.seats {
                t.insert(seat.token.clone(), (id.clone(), seat.role()));
            }
        }
        if let Ok(mut r) = self.revoked.write() {
            for tok in &table.revoked {
                r.insert(tok.clone(), id.clone());
            }
        }
    }

    /// Public listing, oldest first (in order of creation or recovery).
    pub fn list(&self) -> Vec<SessionInfo> {
        let mut out: Vec<SessionInfo> = self
            .sessions
            .read()
            .map(|s| s.values().map(|h| h.info()).collect())
            .unwrap_or_default();
        out.sort_by_key(|i| i.number);
        out
    }

    /// Removes a session from memory and the listing (its log failed, or it finished and its
    /// retention time passed); its log stays on disk.
    pub fn remove(&self, id: &SessionId) {
        if let Ok(mut s) = self.sessions.write() {
            s.remove(id);
        }
        if let Ok(mut t) = self.tokens.write() {
            t.retain(|_, (sid, _)| sid != id);
        }
        if let Ok(mut r) = self.revoked.write() {
            r.retain(|_, sid| sid != id);
        }
    }

    /// Every session handle (shutdown).
    pub fn handles(&self) -> Vec<SessionHandle> {
        self.sessions
            .read()
            .map(|s| s.values().cloned().collect())
            .unwrap_or_default()
    }
}
