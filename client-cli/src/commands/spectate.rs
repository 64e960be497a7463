//! `fray spectate [--token T] [--resume-from N] [--once]`: watch a session live, one narrated
//! line per event.
//!
//! Without a token the newest demo session listed by `GET /sessions` is watched, and when its
//! battle ends the next demo session is followed (unless `--once`). A lost connection is
//! re-opened with `resume_from` = the last sequence number seen, so nothing is lost or shown
//! twice; gaps and duplicates are reported. A snapshot is re-requested at each turn start to
//! keep the local state exact; the state table is printed on joining, at each round and at
//! the end.

use crate::address::Server;
use crate::commands::print_outputs;
use crate::connection::{Connection, Welcome, describe_role};
use crate::endpoints::{self, Listing};
use crate::table;
use crate::tracker::Tracker;
use anyhow::{Result, bail};
use fray_protocol::codec::Encoding;
use fray_protocol::state::Phase;
use fray_protocol::{ClientMessage, ErrorCode, GameEvent, ServerMessage};
use std::collections::BTreeSet;
use std::time::Duration;
use tokio::time::Instant;

/// How long to wait for `SeedRevealed` after `BattleEnded`.
const REVEAL_GRACE: Duration = Duration::from_secs(3);
/// How long the final table waits for the view patch that follows the seed reveal.
const PATCH_GRACE: Duration = Duration::from_secs(1);
/// How often to look for a new demo session.
const POLL: Duration = Duration::from_secs(2);

/// `fray spectate` options.
#[derive(Debug, Clone)]
pub struct Options {
    /// The server.
    pub server: Server,
    /// Wire encoding.
    pub encoding: Encoding,
    /// Token; `None` = follow demo sessions.
    pub token: Option<String>,
    /// Start after this sequence number.
    pub resume_from: Option<u64>,
    /// Stop when the battle ends.
    pub once: bool,
}

/// Runs `fray spectate`.
pub async fn run(opts: Options) -> Result<()> {
    let server = &opts.server;
    let mut watched = BTreeSet::new();
    let mut resume_from = opts.resume_from;
    loop {
        let token = match &opts.token {
            Some(t) => t.clone(),
            None => pick_demo(server, &watched).await?,
        };
        let session = watch(server, opts.encoding, &token, resume_from.take()).await?;
        watched.insert(session);
        if opts.token.is_some() || opts.once {
            return Ok(());
        }
        println!();
        println!("Looking for the next demo session (Ctrl-C to stop)...");
    }
}

/// Chooses a demo session to watch: the newest one (last listed) still in progress, or when
/// nothing was watched yet and every demo is over, the newest finished one. Sessions already
/// watched are skipped; while there is none, the list is polled.
async fn pick_demo(server: &Server, watched: &BTreeSet<String>) -> Result<String> {
    let mut said_waiting = false;
    loop {
        match endpoints::list_sessions(server).await {
            Ok(list) => {
                if let Some((listing, token)) = choose_demo(&list, watched) {
                    println!(
                        "Watching demo session {} — \"{}\" ({}, {}, {} events so far)",
                        listing.session,
                        listing.title,
                        listing.ruleset,
                        phase_name(listing.phase),
                        listing.seq
                    );
                    return Ok(token);
                }
                if watched.is_empty() {
                    bail!(
                        "the server at {} lists no demo session; pass --token to watch a session",
                        server.authority()
                    );
                }
                if !said_waiting {
                    println!("(no new demo session yet; waiting)");
                    said_waiting = true;
                }
            }
            Err(e) => {
                if watched.is_empty() {
                    return Err(e);
                }
                if !said_waiting {
                    eprintln!("(cannot list sessions: {e:#}; retrying)");
                    said_waiting = true;
                }
            }
        }
        tokio::time::sleep(POLL).await;
    }
}

/// The demo session to watch, with its spectator token (see [`pick_demo`]).
fn choose_demo<'a>(
    list: &'a [Listing],
    watched: &BTreeSet<String>,
) -> Option<(&'a Listing, String)> {
    let candidates: Vec<(&Listing, &String)> = list
        .iter()
        .filter(|l| l.demo && !watched.contains(&l.session))
        .filter_map(|l| l.spectator_token.as_ref().map(|t| (l, t)))
        .collect();
    let live = candidates
        .iter()
        .rev()
        .find(|(l, _)| l.phase != Phase::Ended);
    let chosen = match live {
        Some(c) => Some(c),
        None if watched.is_empty() => candidates.last(),
        None => None,
    };
    chosen.map(|(l, t)| (*l, (*t).clone()))
}

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Setup => "not started",
        Phase::Running => "running",
        Phase::Ended => "over",
    }
}

/// Why a connection's read loop stopped.
enum Stop {
    /// The battle is over: stop watching this session.
    Ended,
    /// The connection is gone or lagging: reconnect and resume.
    Reconnect,
}

/// Watches one session until its battle is over; returns the session id.
async fn watch(
    server: &Server,
    encoding: Encoding,
    token: &str,
    resume_from: Option<u64>,
) -> Result<String> {
    let mut tracker = Tracker::new();
    if let Some(n) = resume_from {
        tracker.set_last_seq(n);
    }
    let (mut conn, mut welcome) = Connection::open(server, encoding, token, resume_from).await?;
    println!(
        "Connected to session {} as {} (ruleset {}, {} events so far)",
        welcome.session,
        describe_role(&welcome.role),
        welcome.ruleset,
        welcome.seq
    );
    println!("Seed commitment: {}", welcome.commitment);
    loop {
        match follow(&mut conn, &welcome, &mut tracker).await? {
            Stop::Ended => {
                conn.close().await;
                return Ok(welcome.session.to_string());
            }
            Stop::Reconnect => {
                let from = tracker.last_seq();
                match from {
                    Some(n) => eprintln!("(reconnecting; resuming after event #{n})"),
                    None => eprintln!("(reconnecting)"),
                }
                (conn, welcome) = Connection::open_retrying(server, encoding, token, from).await?;
                eprintln!("(reconnected)");
            }
        }
    }
}

/// Reads one connection until the battle ends or the connection must be replaced.
async fn follow(conn: &mut Connection, welcome: &Welcome, tracker: &mut Tracker) -> Result<Stop> {
    // Follow the server's view (a snapshot, then patches): the table shows it, names come
    // from it (a resumed connection's events wait for it).
    if !send(conn, watch_views()).await {
        return Ok(Stop::Reconnect);
    }
    let mut reveal_deadline: Option<Instant> = None;
    let mut revealed = false;
    let mut table_due = tracker.state().is_none();
    loop {
        let received = match reveal_deadline {
            Some(deadline) => tokio::select! {
                m = conn.recv() => m,
                () = tokio::time::sleep_until(deadline) => {
                    if revealed {
                        print_final(tracker);
                    }
                    return Ok(Stop::Ended);
                }
            },
            None => conn.recv().await,
        };
        let message = match received {
            Ok(Some(m)) => m,
            Ok(None) => {
                eprintln!("(the server closed the connection)");
                return Ok(Stop::Reconnect);
            }
            Err(e) => {
                eprintln!("(connection lost: {e:#})");
                return Ok(Stop::Reconnect);
            }
        };
        match message {
            ServerMessage::Event { seq, event, .. } => {
                let round_started = matches!(event, GameEvent::RoundStarted { .. });
                let battle_ended = matches!(event, GameEvent::BattleEnded { .. });
                let seed_revealed = matches!(event, GameEvent::SeedRevealed { .. });
                print_outputs(&tracker.on_event(seq, event), true);
                if round_started && seq > welcome.seq {
                    table_due = true;
                }
                if seed_revealed {
                    // The final table once the view includes the reveal (its patch follows).
                    revealed = true;
                    reveal_deadline = Some(Instant::now() + PATCH_GRACE);
                } else if battle_ended {
                    reveal_deadline = Some(Instant::now() + REVEAL_GRACE);
                }
            }
            ServerMessage::ViewPatch {
                from_seq,
                seq,
                patch,
            } => {
                if let Err(stale) = tracker.on_patch(from_seq, seq, &patch) {
                    eprintln!("({}; asking for a fresh view)", stale.0);
                    if !send(conn, watch_views()).await {
                        return Ok(Stop::Reconnect);
                    }
                    continue;
                }
                if revealed && tracker.view_is_current() {
                    print_final(tracker);
                    return Ok(Stop::Ended);
                }
                if table_due
                    && tracker.view_is_current()
                    && let Some(state) = tracker.state()
                {
                    print!(
                        "{}",
                        table::render_styled(state, table::Style::for_stdout())
                    );
                    table_due = false;
                }
            }
            ServerMessage::Snapshot { seq, state } => {
                let already_over = state.phase == Phase::Ended;
                print_outputs(&tracker.on_snapshot(seq, *state), true);
                if already_over && tracker.last_seq() >= Some(seq) {
                    println!("This battle is over.");
                    print_final(tracker);
                    return Ok(Stop::Ended);
                }
                if table_due && let Some(state) = tracker.state() {
                    print!(
                        "{}",
                        table::render_styled(state, table::Style::for_stdout())
                    );
                    table_due = false;
                }
            }
            ServerMessage::Error { code, message } => {
                eprintln!("(server error {code}: {message})");
                if matches!(code, ErrorCode::Lagging | ErrorCode::SessionUnavailable) {
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    return Ok(Stop::Reconnect);
                }
            }
            ServerMessage::Welcome { .. }
            | ServerMessage::Accepted { .. }
            | ServerMessage::Rejected { .. }
            | ServerMessage::Pong { .. }
            | ServerMessage::LegalActions { .. }
            | ServerMessage::PreviewResult { .. }
            | ServerMessage::PreviewRefused { .. } => {}
        }
    }
}

/// Follow the view, not the legal actions (a spectator has none).
fn watch_views() -> ClientMessage {
    ClientMessage::Watch {
        views: true,
        legal_actions: false,
    }
}

/// Sends a message; `false` if the connection is gone.
async fn send(conn: &mut Connection, msg: ClientMessage) -> bool {
    match conn.send(&msg).await {
        Ok(()) => true,
        Err(e) => {
            eprintln!("(connection lost: {e:#})");
            false
        }
    }
}

fn print_final(tracker: &Tracker) {
    if let Some(state) = tracker.state() {
        println!();
        print!(
            "{}",
            table::render_styled(state, table::Style::for_stdout())
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(session: &str, demo: bool, phase: Phase, token: Option<&str>) -> Listing {
        Listing {
            session: session.into(),
            ruleset: "13th-age".into(),
            title: session.into(),
            demo,
            phase,
            seq: 0,
            spectator_token: token.map(str::to_owned),
        }
    }

    #[test]
    fn newest_running_demo_is_chosen() {
        let list = vec![
            listing("a", true, Phase::Running, Some("ta")),
            listing("b", false, Phase::Running, None),
            listing("c", true, Phase::Running, Some("tc")),
            listing("d", true, Phase::Ended, Some("td")),
        ];
        let none = BTreeSet::new();
        assert_eq!(choose_demo(&list, &none).map(|(_, t)| t), Some("tc".into()));
        let watched: BTreeSet<String> = ["c".to_owned()].into();
        assert_eq!(
            choose_demo(&list, &watched).map(|(_, t)| t),
            Some("ta".into())
        );
        let all: BTreeSet<String> = ["a".to_owned(), "c".to_owned()].into();
        assert_eq!(choose_demo(&list, &all).map(|(_, t)| t), None);
    }

    #[test]
    fn a_finished_demo_is_shown_when_nothing_else_exists() {
        let list = vec![listing("d", true, Phase::Ended, Some("td"))];
        assert_eq!(
            choose_demo(&list, &BTreeSet::new()).map(|(_, t)| t),
            Some("td".into())
        );
    }
}
