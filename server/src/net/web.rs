//! The browser client: the page at `/` and its assets, embedded in the binary (no Node, no files
//! needed at run time), `GET /encounters`, the built-in encounters the lobby offers, and the
//! replay viewer's endpoints:
//!
//! - `GET /replays`: the recorded fights of the repository's `replays/` folder (when the server
//!   runs from the repository, or [`serve_replays_from`] / `FRAY_REPLAYS_DIR` names one), and
//!   `GET /replays/{ruleset}/{fight}`: one of them as a public JSON-lines log (`fray export`'s).
//! - `POST /replay/views` with a JSON-lines log: the view after each of its events, folded by
//!   the server's engine (the page never folds events) — the view before the first event and one
//!   RFC 6902 patch per event, checked against the log's state hashes.
//! - `POST /replay/verify` with a JSON-lines log: `fray verify`'s check (re-deciding every
//!   command from the revealed seed) and what it checked, or the first difference.
//!
//! Posted logs are at most [`MAX_LOG_BYTES`]; [`REPLAY_JOBS`] are worked on at once (more are
//! refused with 503), on the blocking pool.
//!
//! The page's sources are TypeScript in `server/web/src/` and `sdk/src/client.ts`; the built
//! JavaScript in `server/web/dist/` is committed (`npm run build` in `sdk/` rebuilds it, and CI
//! fails when the committed files differ from a fresh build).

use crate::replay::{self, Audience, LoggedEvent, ReplayError, log_lines};
use axum::Router;
use axum::body::Body;
use axum::extract::Path as UrlPath;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use fray_protocol::{JsonPatch, SessionState};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, OnceLock};
use tokio::sync::Semaphore;

/// One embedded file: its URL path, content type and bytes.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    body: &'static str,
}

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// Every file the page loads. `/` is `index.html`; the modules import each other by these
/// names (`./client.js`), so the page works from any origin the server answers on.
const ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        content_type: HTML,
        body: include_str!("../../web/index.html"),
    },
    Asset {
        path: "/app.css",
        content_type: CSS,
        body: include_str!("../../web/app.css"),
    },
    Asset {
        path: "/app.js",
        content_type: JS,
        body: include_str!("../../web/dist/app.js"),
    },
    Asset {
        path: "/lobby.js",
        content_type: JS,
        body: include_str!("../../web/dist/lobby.js"),
    },
    Asset {
        path: "/table.js",
        content_type: JS,
        body: include_str!("../../web/dist/table.js"),
    },
    Asset {
        path: "/narrate.js",
        content_type: JS,
        body: include_str!("../../web/dist/narrate.js"),
    },
    Asset {
        path: "/replay.js",
        content_type: JS,
        body: include_str!("../../web/dist/replay.js"),
    },
    Asset {
        path: "/gmtools.js",
        content_type: JS,
        body: include_str!("../../web/dist/gmtools.js"),
    },
    Asset {
        path: "/chat.js",
        content_type: JS,
        body: include_str!("../../web/dist/chat.js"),
    },
    Asset {
        path: "/rewind.js",
        content_type: JS,
        body: include_str!("../../web/dist/rewind.js"),
    },
    Asset {
        path: "/map.js",
        content_type: JS,
        body: include_str!("../../web/dist/map.js"),
    },
    Asset {
        path: "/preview.js",
        content_type: JS,
        body: include_str!("../../web/dist/preview.js"),
    },
    Asset {
        path: "/positions.js",
        content_type: JS,
        body: include_str!("../../web/dist/positions.js"),
    },
    Asset {
        path: "/dom.js",
        content_type: JS,
        body: include_str!("../../web/dist/dom.js"),
    },
    Asset {
        path: "/client.js",
        content_type: JS,
        body: include_str!("../../web/dist/client.js"),
    },
];

/// The page may load only its own scripts and styles and talk only to its own server.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'";

fn serve(asset: &'static Asset) -> Response {
    (
        [
            (header::CONTENT_TYPE, asset.content_type),
            // The assets change with the binary: revalidate rather than keep a stale page.
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CONTENT_SECURITY_POLICY, CSP),
        ],
        asset.body,
    )
        .into_response()
}

/// A built-in encounter as the lobby lists it.
#[derive(Debug, Clone, Serialize)]
pub struct EncounterEntry {
    /// The file's name (`goblin-ambush`), as `fray new` takes it.
    pub name: &'static str,
    /// The ruleset id.
    pub ruleset: &'static str,
    /// The encounter's title, or the name when it does not load (it always should).
    pub title: String,
    /// The TOML text, to send back in `POST /sessions`.
    pub toml: &'static str,
}

/// Every built-in encounter of every ruleset, in the registry's order (loaded once, for titles).
pub fn encounters() -> &'static [EncounterEntry] {
    static LIST: LazyLock<Vec<EncounterEntry>> = LazyLock::new(|| {
        crate::rules::ids()
            .into_iter()
            .flat_map(|ruleset| {
                crate::rules::builtin_encounters(ruleset)
                    .iter()
                    .map(move |&(name, toml)| EncounterEntry {
                        name,
                        ruleset,
                        title: crate::rules::load_encounter(name, toml)
                            .map_or_else(|_| name.to_string(), |e| e.title),
                        toml,
                    })
            })
            .collect()
    });
    &LIST
}

async fn list_encounters() -> Response {
    axum::Json(encounters()).into_response()
}

/// The page's routes: its assets, `GET /encounters` and the replay viewer's endpoints.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let mut router = Router::new()
        .route("/encounters", get(list_encounters))
        .route("/replays", get(list_replays))
        .route("/replays/{ruleset}/{fight}", get(replay_log))
        .route("/replay/views", post(post_views))
        .route("/replay/verify", post(post_verify));
    for asset in ASSETS {
        router = router.route(asset.path, get(move || async move { serve(asset) }));
    }
    router
}

// ----- the replay viewer -----

/// The most a log posted to `/replay/views` or `/replay/verify` may weigh.
pub const MAX_LOG_BYTES: usize = 16 * 1024 * 1024;

/// Posted logs worked on at once; more are refused with 503 `replays_busy`.
pub const REPLAY_JOBS: usize = 2;

static JOBS: Semaphore = Semaphore::const_new(REPLAY_JOBS);

static REPLAYS_DIR: OnceLock<PathBuf> = OnceLock::new();

/// Serves the recorded fights of `dir` (a `replays/` folder: `<ruleset>/<fight>/seg-*.log`) at
/// `GET /replays`, for this process. Without it the server serves `FRAY_REPLAYS_DIR`, else
/// `./replays` when it runs from the repository, else none. The first call wins; returns
/// whether this one did.
pub fn serve_replays_from(dir: PathBuf) -> bool {
    REPLAYS_DIR.set(dir).is_ok()
}

fn replays_dir() -> Option<PathBuf> {
    let dir = REPLAYS_DIR.get().cloned().unwrap_or_else(|| {
        std::env::var_os("FRAY_REPLAYS_DIR").map_or_else(|| PathBuf::from("replays"), PathBuf::from)
    });
    dir.is_dir().then_some(dir)
}

/// A folder name the listing serves: lowercase letters, digits and dashes (no dots, so no
/// path can leave the folder).
fn plain_name(s: &str) -> bool {
    (1..=100).contains(&s.len())
        && !s.starts_with('-')
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn error(status: StatusCode, code: &str, message: impl Into<String>) -> Response {
    super::json_error(status, code, message)
}

/// A recorded fight of the replays folder, as `GET /replays` lists it.
#[derive(Debug, Clone, Serialize)]
pub struct ReplayEntry {
    /// The ruleset's folder (its id).
    pub ruleset: String,
    /// The fight's folder (`goblin-ambush-seed-111`).
    pub fight: String,
    /// The encounter's title.
    pub title: String,
    /// How many events it holds.
    pub events: u64,
}

/// The recorded fights under `dir`, by ruleset then fight; folders that are not a readable log
/// are left out.
pub fn replays_in(dir: &Path) -> Vec<ReplayEntry> {
    let names = |d: &Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .map(|it| {
                it.filter_map(Result::ok)
                    .filter(|e| e.path().is_dir())
                    .filter_map(|e| e.file_name().into_string().ok())
                    .filter(|n| plain_name(n))
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    };
    let mut out = Vec::new();
    for ruleset in names(dir) {
        for fight in names(&dir.join(&ruleset)) {
            if let Ok(f) = replay::read_log(&dir.join(&ruleset).join(&fight)) {
                out.push(ReplayEntry {
                    title: f.title().to_string(),
                    events: f.events().len() as u64,
                    ruleset: ruleset.clone(),
                    fight,
                });
            }
        }
    }
    out
}

async fn list_replays() -> Response {
    let Some(dir) = replays_dir() else {
        return axum::Json(Vec::<ReplayEntry>::new()).into_response();
    };
    match tokio::task::spawn_blocking(move || replays_in(&dir)).await {
        Ok(list) => axum::Json(list).into_response(),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()),
    }
}

async fn replay_log(UrlPath((ruleset, fight)): UrlPath<(String, String)>) -> Response {
    let not_found = || {
        error(
            StatusCode::NOT_FOUND,
            "no_replay",
            format!("no recorded fight {ruleset}/{fight} on this server"),
        )
    };
    if !plain_name(&ruleset) || !plain_name(&fight) {
        return not_found();
    }
    let Some(dir) = replays_dir().map(|d| d.join(&ruleset).join(&fight)) else {
        return not_found();
    };
    if !dir.is_dir() {
        return not_found();
    }
    let lines = tokio::task::spawn_blocking(move || {
        replay::read_log(&dir).and_then(|f| log_lines::write(&f, Audience::Public))
    })
    .await;
    match lines {
        Ok(Ok(text)) => ([(header::CONTENT_TYPE, "application/x-ndjson")], text).into_response(),
        Ok(Err(e)) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "invalid_log",
            e.to_string(),
        ),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()),
    }
}

/// Reads a posted log: UTF-8 text of at most [`MAX_LOG_BYTES`].
async fn log_text(body: Body) -> Result<String, Response> {
    let bytes = axum::body::to_bytes(body, MAX_LOG_BYTES)
        .await
        .map_err(|_| {
            error(
                StatusCode::PAYLOAD_TOO_LARGE,
                "log_too_large",
                format!("a posted log may be at most {MAX_LOG_BYTES} bytes"),
            )
        })?;
    String::from_utf8(bytes.to_vec()).map_err(|_| {
        error(
            StatusCode::BAD_REQUEST,
            "invalid_log",
            "the log is not UTF-8 text: post a JSON-lines log (GET /sessions/{id}/log, fray export)",
        )
    })
}

/// Runs `job` on the blocking pool when a job slot is free: its answer, 503 when none is, 500
/// when it panicked.
async fn replay_job<T: Send + 'static>(
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Response> {
    let Ok(_slot) = JOBS.try_acquire() else {
        return Err(error(
            StatusCode::SERVICE_UNAVAILABLE,
            "replays_busy",
            "the server is working on other replays: try again in a moment",
        ));
    };
    tokio::task::spawn_blocking(job).await.map_err(|e| {
        error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the replay failed: {e}"),
        )
    })
}

/// The views of a recorded fight, event by event (`POST /replay/views`).
#[derive(Debug, Clone, Serialize)]
pub struct ReplayViews {
    /// The ruleset id.
    pub ruleset: String,
    /// The encounter's title.
    pub title: String,
    /// The log's audience: a public log gives the public view, the GM's the GM's.
    pub audience: Audience,
    /// The published seed commitment.
    pub commitment: String,
    /// Whether the log reveals the seed (the fight ended).
    pub seed_revealed: bool,
    /// The log's state hashes the folded state was checked against.
    pub hashes_checked: u64,
    /// Every event, as the log holds it.
    pub events: Vec<LoggedEvent>,
    /// The view before the first event.
    pub initial: SessionState,
    /// `patches[i]` brings the view after event `i` (0: `initial`) to the view after event
    /// `i + 1`.
    pub patches: Vec<JsonPatch>,
    /// `rounds[i]`: the round of the view after event `i + 1`.
    pub rounds: Vec<u32>,
}

/// Why a posted log gives no views.
#[derive(Debug, thiserror::Error)]
pub enum ViewsError {
    /// Not a log this server reads.
    #[error("{0}")]
    Unreadable(#[from] ReplayError),
    /// The events do not fold into the state the log recorded.
    #[error(
        "after event {seq} the folded state's hash is {computed}, the log recorded {stored}: these events do not fold into the state the server had (rules of another version, or an edited log)"
    )]
    Differs {
        /// The last event folded.
        seq: u64,
        /// The hash the log holds.
        stored: String,
        /// The folded state's hash.
        computed: String,
    },
}

/// The state hashes a JSON-lines log records, by the `seq` of the last event before each.
fn stored_hashes(text: &str) -> BTreeMap<u64, Vec<String>> {
    let mut out: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for line in text.lines().skip(1) {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let h = &v["state_hash"];
        if let (Some(seq), Some(hash)) = (h["seq"].as_u64(), h["hash"].as_str()) {
            out.entry(seq).or_default().push(hash.to_string());
        }
    }
    out
}

/// Folds a JSON-lines log's events with the server's engine, one at a time, into the view of
/// the log's audience after each (a monster's hit points, for one, stay hidden in a public
/// log's views), checking every state hash the log recorded on the way (they hash the GM's
/// state: a public log's redacted events fold into it too, since what redaction removes — the
/// `hp_after` of damage and healing, a secret roll's dice and result — is not what they fold).
pub fn replay_views(text: &str) -> Result<ReplayViews, ViewsError> {
    let fight = log_lines::read(text)?;
    let public = fight.audience() == Audience::Public;
    let mut hashes = stored_hashes(text);
    let mut engine = crate::session::engine_for(fight.genesis())
        .map_err(|e| ReplayError::Invalid(e.to_string()))?;
    let mut hashes_checked = 0u64;
    let mut check = |engine: &crate::engine::Engine, seq: u64| -> Result<(), ViewsError> {
        let Some(stored) = hashes.remove(&seq) else {
            return Ok(());
        };
        let computed = engine.state_hash();
        for stored in stored {
            if stored != computed {
                return Err(ViewsError::Differs {
                    seq,
                    stored,
                    computed,
                });
            }
            hashes_checked += 1;
        }
        Ok(())
    };
    let view = |engine: &crate::engine::Engine| {
        let s = engine.state();
        if public { s.redacted() } else { s }
    };
    check(&engine, 0)?;
    let events = fight.events();
    let initial = view(&engine);
    let mut before = initial.clone();
    let mut patches = Vec::with_capacity(events.len());
    let mut rounds = Vec::with_capacity(events.len());
    for (i, e) in events.iter().enumerate() {
        if e.seq != i as u64 + 1 {
            return Err(ReplayError::Invalid(format!(
                "event {} is numbered {}: the events are not gapless from 1",
                i + 1,
                e.seq
            ))
            .into());
        }
        crate::rewind::apply(&mut engine, fight.genesis(), &e.event, &events[..i]).map_err(
            |r| ReplayError::Invalid(format!("event {} cannot be folded: {}", e.seq, r.message)),
        )?;
        check(&engine, e.seq)?;
        let mut after = view(&engine);
        patches.push(super::views::patch(&mut before, &mut after));
        rounds.push(after.round);
        before = after;
    }
    Ok(ReplayViews {
        ruleset: fight.ruleset().to_string(),
        title: fight.title().to_string(),
        audience: fight.audience(),
        commitment: fight.commitment().to_string(),
        seed_revealed: fight.revealed().is_some(),
        hashes_checked,
        events,
        initial,
        patches,
        rounds,
    })
}

async fn post_views(body: Body) -> Response {
    let text = match log_text(body).await {
        Ok(t) => t,
        Err(r) => return r,
    };
    match replay_job(move || replay_views(&text)).await {
        Ok(Ok(v)) => axum::Json(v).into_response(),
        Ok(Err(ViewsError::Unreadable(e))) => {
            error(StatusCode::BAD_REQUEST, "invalid_log", e.to_string())
        }
        Ok(Err(e @ ViewsError::Differs { .. })) => error(
            StatusCode::UNPROCESSABLE_ENTITY,
            "state_differs",
            e.to_string(),
        ),
        Err(r) => r,
    }
}

/// What `POST /replay/verify` answers: what was checked, or the first difference.
#[derive(Debug, Clone, Serialize)]
pub struct VerifyAnswer {
    /// Whether every check passed.
    pub verified: bool,
    /// The log's audience: a public log's events are compared redacted, its secret rolls'
    /// dice are not checked.
    pub audience: Audience,
    /// The ruleset id.
    pub ruleset: String,
    /// The encounter's title.
    pub title: String,
    /// What was checked (when verified).
    pub checked: Option<Checked>,
    /// The first difference or why nothing could be checked (when not verified).
    pub problem: Option<Problem>,
}

/// The counts of `fray verify`'s report.
#[derive(Debug, Clone, Serialize)]
pub struct Checked {
    /// Commands re-decided from the seed.
    pub commands: u64,
    /// Events compared with the log's.
    pub events: u64,
    /// State hashes compared.
    pub hashes: u64,
    /// Ticks whose main-stream draw count matched (no die skipped or drawn again).
    pub draw_counts: u64,
    /// The revealed seed and salt hash to the published commitment.
    pub commitment_checked: bool,
    /// The secret seed opens the secret commitment (the GM's log only).
    pub secret_commitment_checked: bool,
    /// Secret rolls in the log (their dice are checked only on the GM's log).
    pub secret_rolls: u64,
}

/// Why a log did not verify.
#[derive(Debug, Clone, Serialize)]
pub struct Problem {
    /// `event_mismatch`, `hash_mismatch`, `fairness`, `rules_changed`, `not_revealed` or
    /// `invalid`.
    pub kind: &'static str,
    /// The explanation, as `fray verify` gives it.
    pub message: String,
    /// The event that differs, when one does.
    pub seq: Option<u64>,
    /// Its tick.
    pub tick: Option<u64>,
}

/// Verifies a JSON-lines log as `fray verify` does; `Err` when it is not a log at all.
pub fn verify_log(text: &str) -> Result<VerifyAnswer, ReplayError> {
    let fight = log_lines::read(text)?;
    let (checked, problem) = match replay::verify(&fight) {
        Ok(r) => (
            Some(Checked {
                commands: r.commands,
                events: r.events,
                hashes: r.hashes,
                draw_counts: r.draw_counts,
                commitment_checked: r.commitment_checked,
                secret_commitment_checked: r.secret_commitment_checked,
                secret_rolls: r.secret_rolls,
            }),
            None,
        ),
        Err(e) => {
            let (kind, seq, tick) = match &e {
                ReplayError::EventMismatch { seq, tick, .. } => {
                    ("event_mismatch", Some(*seq), Some(*tick))
                }
                ReplayError::HashMismatch { seq, tick, .. } => {
                    ("hash_mismatch", Some(*seq), Some(*tick))
                }
                ReplayError::Fairness(_) => ("fairness", None, None),
                ReplayError::RulesChanged { .. } => ("rules_changed", None, None),
                ReplayError::NotRevealed => ("not_revealed", None, None),
                ReplayError::Read(_) | ReplayError::Invalid(_) => ("invalid", None, None),
            };
            let message = e.to_string();
            (
                None,
                Some(Problem {
                    kind,
                    message,
                    seq,
                    tick,
                }),
            )
        }
    };
    Ok(VerifyAnswer {
        verified: problem.is_none(),
        audience: fight.audience(),
        ruleset: fight.ruleset().to_string(),
        title: fight.title().to_string(),
        checked,
        problem,
    })
}

async fn post_verify(body: Body) -> Response {
    let text = match log_text(body).await {
        Ok(t) => t,
        Err(r) => return r,
    };
    match replay_job(move || verify_log(&text)).await {
        Ok(Ok(answer)) => axum::Json(answer).into_response(),
        Ok(Err(e)) => error(StatusCode::BAD_REQUEST, "invalid_log", e.to_string()),
        Err(r) => r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_asset_is_non_empty_and_the_page_loads_its_modules() {
        for a in ASSETS {
            assert!(!a.body.trim().is_empty(), "{} is empty", a.path);
        }
        let index = ASSETS.iter().find(|a| a.path == "/").map(|a| a.body);
        let index = index.unwrap_or_default();
        assert!(index.contains("/app.js"), "index.html loads /app.js");
        assert!(index.contains("/app.css"), "index.html loads /app.css");
        // Every module a built file imports is served.
        for a in ASSETS.iter().filter(|a| a.content_type == JS) {
            for line in a.body.lines() {
                if let Some(rest) = line.split(" from \"./").nth(1)
                    && let Some(name) = rest.split('"').next()
                {
                    let path = format!("/{name}");
                    assert!(
                        ASSETS.iter().any(|b| b.path == path),
                        "{} imports {path}, which is not served",
                        a.path
                    );
                }
            }
        }
    }

    #[test]
    fn the_encounters_list_every_builtin_encounter_with_its_title() {
        let list = encounters();
        assert!(list.iter().any(|e| e.name == "goblin-ambush"
            && e.ruleset == "13th-age"
            && e.title != e.name
            && e.toml.contains("ruleset")));
        for ruleset in crate::rules::ids() {
            assert!(
                list.iter().any(|e| e.ruleset == ruleset),
                "no encounter of {ruleset}"
            );
        }
    }

    type TestResult = Result<(), Box<dyn std::error::Error>>;

    /// A golden's name, its public and GM JSON-lines logs, and its GM fold's final state.
    type Golden = (String, String, String, SessionState);

    fn goldens() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../replays")
    }

    /// Every golden of `replays/` as a public and as a GM JSON-lines log, with its GM fold.
    fn golden_logs() -> Result<Vec<Golden>, Box<dyn std::error::Error>> {
        let list = replays_in(&goldens());
        assert!(list.len() >= 5, "only {} goldens listed", list.len());
        let mut out = Vec::new();
        for e in list {
            let fight = replay::read_log(&goldens().join(&e.ruleset).join(&e.fight))?;
            let state = replay::fold(&fight)?.state;
            out.push((
                format!("{}/{}", e.ruleset, e.fight),
                log_lines::write(&fight, Audience::Public)?,
                log_lines::write(&fight, Audience::Gm)?,
                state,
            ));
        }
        Ok(out)
    }

    /// The view after the last event, from the initial view and every patch.
    fn last_view(v: &ReplayViews) -> Result<serde_json::Value, Box<dyn std::error::Error>> {
        let mut doc = serde_json::to_value(&v.initial)?;
        for p in &v.patches {
            json_patch::patch(&mut doc, &p.0)?;
        }
        Ok(doc)
    }

    #[test]
    fn the_views_of_every_golden_end_in_the_folded_state_for_each_audience() -> TestResult {
        let mut secret_rolls = 0;
        for (name, public, gm, state) in golden_logs()? {
            let v = replay_views(&public)?;
            assert_eq!(v.audience, Audience::Public, "{name}");
            assert_eq!(v.patches.len(), v.events.len(), "{name}");
            assert_eq!(v.rounds.len(), v.events.len(), "{name}");
            assert!(v.hashes_checked > 0, "{name}: no state hash checked");
            assert!(v.seed_revealed, "{name}");
            // The public views end in the public view of the real fold: monsters' hit points
            // hidden; the GM's in the GM's state.
            assert_eq!(
                last_view(&v)?,
                serde_json::to_value(state.redacted())?,
                "{name}"
            );
            assert!(
                v.initial.combatants.iter().any(|c| c.hp.is_none()),
                "{name}: a monster's hit points in the public view"
            );
            let g = replay_views(&gm)?;
            assert_eq!(g.audience, Audience::Gm, "{name}");
            assert_eq!(g.hashes_checked, v.hashes_checked, "{name}");
            assert_eq!(last_view(&g)?, serde_json::to_value(&state)?, "{name}");
            secret_rolls += v
                .events
                .iter()
                .filter(|e| {
                    matches!(
                        e.event,
                        fray_protocol::GameEvent::SecretRolled { roll: None, .. }
                    )
                })
                .count();
        }
        // The public logs' secret rolls were redacted and still folded to the recorded hashes.
        assert!(secret_rolls > 0, "no golden has a secret roll");
        Ok(())
    }

    /// The first line holding `needle`, changed by `edit`.
    fn edited(text: &str, needle: &str, edit: impl Fn(&str) -> String) -> Option<String> {
        let i = text.lines().position(|l| l.contains(needle))?;
        Some(
            text.lines()
                .enumerate()
                .map(|(k, l)| if k == i { edit(l) } else { l.to_string() })
                .collect::<Vec<_>>()
                .join("\n"),
        )
    }

    #[test]
    fn an_edited_log_gives_no_views_and_does_not_verify() -> TestResult {
        let (name, public, _, _) = golden_logs()?
            .into_iter()
            .find(|(n, ..)| n.starts_with("13th-age/goblin-ambush"))
            .ok_or("no goblin-ambush golden")?;
        // More damage than was dealt: the fold no longer reaches the recorded state.
        let more = edited(&public, "\"damaged\"", |l| {
            l.replacen("\"amount\":", "\"amount\":1", 1)
        })
        .ok_or("no damage")?;
        match replay_views(&more) {
            Err(ViewsError::Differs { seq, .. }) => assert!(seq > 0),
            other => panic!("{name}: an edited damage gave {other:?}"),
        }
        let answer = verify_log(&more)?;
        assert!(!answer.verified, "{name}: an edited log verified");
        let problem = answer.problem.ok_or("no problem named")?;
        assert_eq!(problem.kind, "event_mismatch", "{}", problem.message);
        assert!(problem.seq.is_some() && problem.tick.is_some());
        // The unedited one verifies, and says what it checked.
        let answer = verify_log(&public)?;
        assert!(answer.verified, "{name}: {:?}", answer.problem);
        let checked = answer.checked.ok_or("nothing checked")?;
        assert!(checked.commands > 0 && checked.events > checked.commands && checked.hashes > 0);
        assert!(checked.commitment_checked && !checked.secret_commitment_checked);
        assert_eq!(checked.draw_counts, checked.commands);
        Ok(())
    }

    #[test]
    fn a_log_that_is_not_one_is_refused_with_its_reason() {
        for text in [
            "",
            "not json",
            "{\"fray_log\":1}",
            "{\"fray_log\":9,\"audience\":\"public\",\"genesis\":{}}",
            "{\"fray_log\":1,\"audience\":\"public\",\"genesis\":{\"session\":1}}",
            "[1,2,3]",
        ] {
            assert!(replay_views(text).is_err(), "{text:?} gave views");
            assert!(verify_log(text).is_err(), "{text:?} was verified");
        }
    }

    #[test]
    fn only_plain_folder_names_are_served() {
        for ok in ["13th-age", "goblin-ambush-seed-111", "ose"] {
            assert!(plain_name(ok), "{ok}");
        }
        for bad in [
            "",
            "..",
            ".",
            "a/b",
            "a\\b",
            "Ose",
            "-x",
            "a.log",
            "%2e%2e",
            &"a".repeat(101),
        ] {
            assert!(!plain_name(bad), "{bad}");
        }
    }

    #[tokio::test]
    async fn a_posted_log_over_the_limit_or_not_text_is_refused() {
        let too_big = Body::from(vec![b' '; MAX_LOG_BYTES + 1]);
        let status = log_text(too_big).await.err().map(|r| r.status());
        assert_eq!(status, Some(StatusCode::PAYLOAD_TOO_LARGE));
        let binary = Body::from(vec![0xff, 0xfe, b'{']);
        let status = log_text(binary).await.err().map(|r| r.status());
        assert_eq!(status, Some(StatusCode::BAD_REQUEST));
        let at_limit = Body::from(vec![b' '; MAX_LOG_BYTES]);
        assert!(log_text(at_limit).await.is_ok());
    }
}
