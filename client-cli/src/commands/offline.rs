//! The offline subcommands on a recorded fight (a session log directory, a segment file, or a
//! JSON-lines log as the server serves it): `replay` narrates it, `verify` re-runs it from its
//! seed, `export` writes the public log (JSON lines, `fray-log-v1`).
//! They call `fray_server::replay` directly; no server needs to run.
//!
//! Exit codes: 0 success, 1 a failure of the fight itself (verification mismatch, a fold or
//! export error, an unwritable output), 2 a log that cannot be read.

use crate::narrate::{Roster, narrate};
use crate::table;
use fray_protocol::GameEvent;
use fray_server::replay::{self, Folded, RecordedFight};
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

/// Exit code for an unreadable log.
const UNREADABLE: u8 = 2;
/// Exit code of `fray verify` for a log recorded under another version of its rules: it was
/// read and its integrity checked, but its commands cannot be re-decided by this build.
const RULES_CHANGED: u8 = 3;

/// Reads a log, or reports why not. A torn tail (an append cut short by a crash, never
/// acknowledged) is left out and said on stderr.
fn read(path: &Path) -> Result<RecordedFight, ExitCode> {
    let fight = replay::read_log(path).map_err(|e| {
        eprintln!("error: cannot read the log {}: {e}", path.display());
        ExitCode::from(UNREADABLE)
    })?;
    if let Some(t) = fight.truncated() {
        eprintln!(
            "note: {}: a torn tail of {} bytes at byte {} (an append cut short by a crash, never acknowledged) is left out: {}",
            t.file, t.bytes_dropped, t.offset, t.reason
        );
    }
    Ok(fight)
}

fn fail(what: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {what}");
    ExitCode::FAILURE
}

/// Which part of a recorded fight `fray replay` shows, and how.
#[derive(Debug, Clone, Copy, Default)]
pub struct Window {
    /// One event at a time: the next one after each Enter (`q` quits).
    pub step: bool,
    /// Start at the first start of this round.
    pub round: Option<u32>,
    /// Stop after the event with this sequence number, and show the state there.
    pub to: Option<u64>,
}

impl Window {
    fn whole(&self) -> bool {
        !self.step && self.round.is_none() && self.to.is_none()
    }
}

/// `fray replay FILE [--step] [--round N] [--to SEQ]`.
pub fn replay(path: &Path, window: Window) -> ExitCode {
    let fight = match read(path) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let folded = match replay::fold(&fight) {
        Ok(f) => f,
        Err(e) => return fail(format!("cannot fold {}: {e}", path.display())),
    };
    let result = if window.whole() {
        let text = render_replay(&fight, &folded);
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes()).and_then(|()| out.flush())
    } else {
        match replay_window(&fight, &folded, window) {
            Ok(r) => r,
            Err(why) => return fail(why),
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`fray replay x | head`) is not worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => fail(format!("writing to stdout: {e}")),
    }
}

/// The index of the first event of the window and of its last one, or why there is none.
fn bounds(folded: &Folded, window: Window) -> Result<(usize, usize), String> {
    let events = &folded.events;
    let last_seq = events.last().map_or(0, |e| e.seq);
    let first = match window.round {
        None => 0,
        Some(n) => events
            .iter()
            .position(|e| matches!(e.event, GameEvent::RoundStarted { round } if *round == n))
            .ok_or_else(|| {
                let most = events
                    .iter()
                    .filter_map(|e| match e.event {
                        GameEvent::RoundStarted { round } => Some(*round),
                        _ => None,
                    })
                    .max()
                    .unwrap_or(0);
                format!("the fight has no round {n} (its rounds go up to {most})")
            })?,
    };
    let end = match window.to {
        None => events.len().saturating_sub(1),
        Some(seq) if seq >= 1 && seq <= last_seq => {
            events.iter().rposition(|e| e.seq <= seq).unwrap_or(0)
        }
        Some(seq) => return Err(format!("--to {seq}: the log's events are 1 to {last_seq}")),
    };
    if first > end {
        return Err(format!(
            "round {} starts after event {}",
            window.round.unwrap_or(0),
            events[end].seq
        ));
    }
    Ok((first, end))
}

/// Part of the narrative, folding as it goes so that the state at each point is known: the map
/// (a grid ruleset's) at every turn start, and the table and state hash where it stops.
fn replay_window(
    fight: &RecordedFight,
    folded: &Folded,
    window: Window,
) -> Result<std::io::Result<()>, String> {
    let (first, end) = bounds(folded, window)?;
    let mut engine = fray_server::session::engine_for(fight.genesis())
        .map_err(|e| format!("cannot rebuild the fight: {e}"))?;
    let mut roster = Roster::from_state(&folded.state);
    let width = folded.events[end].seq.to_string().len();
    let interactive = window.step && std::io::stdin().is_terminal();
    let mut keys = std::io::stdin().lock().lines();
    let mut out = std::io::stdout().lock();
    let write = |out: &mut std::io::StdoutLock, text: &str| -> std::io::Result<()> {
        out.write_all(text.as_bytes())?;
        out.flush()
    };
    if let Err(e) = write(
        &mut out,
        &format!("{} (ruleset {})\n\n", fight.title(), fight.ruleset()),
    ) {
        return Ok(Err(e));
    }
    for (i, e) in folded.events[..=end].iter().enumerate() {
        fray_server::rewind::apply(&mut engine, fight.genesis(), e.event, &folded.events[..i])
            .map_err(|r| format!("event {} cannot be folded: {}", e.seq, r.message))?;
        if i < first {
            roster.observe(e.event);
            continue;
        }
        if window.step && i > first {
            if interactive {
                eprint!("-- Enter: next event, q: quit --");
            }
            match keys.next() {
                Some(Ok(k)) if k.trim() != "q" => {}
                _ => return Ok(Ok(())),
            }
        }
        let mut text = String::new();
        if matches!(e.event, GameEvent::RoundStarted { .. }) {
            text.push('\n');
        }
        text.push_str(&format!(
            "{:>width$}  {}\n",
            e.seq,
            narrate(e.event, &roster)
        ));
        roster.observe(e.event);
        if matches!(e.event, GameEvent::TurnStarted { .. }) {
            text.push_str(&table::grid_map(&engine.state()));
        }
        if let Err(err) = write(&mut out, &text) {
            return Ok(Err(err));
        }
    }
    let state = engine.state();
    let text = format!(
        "\nState after event {}:\n{}\nState hash: {}\n",
        folded.events[end].seq,
        table::render_styled(&state, table::Style::for_stdout()),
        engine.state_hash()
    );
    Ok(write(&mut out, &text))
}

/// The whole narrative: a heading, one line per event, the final table and the state hash.
fn render_replay(fight: &RecordedFight, folded: &Folded) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{} (ruleset {})\nSeed commitment: {}\n",
        fight.title(),
        fight.ruleset(),
        fight.commitment()
    ));
    match fight.revealed() {
        Some((seed, salt)) => out.push_str(&format!("Seed: {seed} (salt {salt})\n")),
        None => out.push_str("Seed: not revealed\n"),
    }
    out.push_str(&format!(
        "Secret stream commitment: {} (its seed is never revealed)\n",
        fight.genesis().secret_commitment
    ));
    out.push('\n');
    out.push_str(&narrative(
        folded.events.iter().map(|e| (e.seq, e.event)),
        Roster::from_state(&folded.state),
    ));
    out.push_str(&format!(
        "\nFinal state after {} events:\n{}\nState hash: {}\n",
        folded.events.len(),
        table::render_styled(&folded.state, table::Style::for_stdout()),
        folded.state_hash
    ));
    out
}

/// One line per event, `seq  text`, with a blank line before each round.
fn narrative<'a>(
    events: impl Iterator<Item = (u64, &'a GameEvent)> + Clone,
    mut roster: Roster,
) -> String {
    let width = events
        .clone()
        .map(|(seq, _)| seq)
        .max()
        .unwrap_or(0)
        .to_string()
        .len();
    let mut out = String::new();
    for (seq, event) in events {
        if matches!(event, GameEvent::RoundStarted { .. }) {
            out.push('\n');
        }
        out.push_str(&format!("{seq:>width$}  {}\n", narrate(event, &roster)));
        roster.observe(event);
    }
    out
}

/// `fray verify FILE`.
pub fn verify(path: &Path) -> ExitCode {
    let fight = match read(path) {
        Ok(f) => f,
        Err(code) => return code,
    };
    match replay::verify(&fight) {
        Ok(report) => {
            println!(
                "OK: {} verified — {} commands re-decided, {} events and {} state hashes match",
                path.display(),
                report.commands,
                report.events,
                report.hashes
            );
            if report.commitment_checked {
                println!(
                    "The revealed seed matches the published commitment {}",
                    fight.commitment()
                );
            } else {
                println!(
                    "The seed was not revealed in this log: commitment {} not checked",
                    fight.commitment()
                );
            }
            if report.secret_commitment_checked {
                println!(
                    "The secret stream's seed in this log matches its commitment {}",
                    fight.genesis().secret_commitment
                );
            }
            if report.audience == replay::Audience::Public {
                println!(
                    "Public log: every public die is the next draw of the committed seed's stream ({} draw counts match: none skipped, none drawn again)",
                    report.draw_counts
                );
                println!(
                    "Not checked without the secret seed: the dice of the {} GM-only secret rolls (committed to by {}; the GM's full log verifies them)",
                    report.secret_rolls,
                    fight.genesis().secret_commitment
                );
            }
            ExitCode::SUCCESS
        }
        Err(e @ replay::ReplayError::RulesChanged { .. }) => {
            println!("NOT RE-DECIDED: {}: {e}", path.display());
            ExitCode::from(RULES_CHANGED)
        }
        Err(e) => {
            println!("MISMATCH: {} does not replay: {e}", path.display());
            ExitCode::FAILURE
        }
    }
}

/// `fray export FILE [-o OUT]`: the public log, JSON lines (`--json` is accepted: it is the
/// format).
pub fn export(path: &Path, output: Option<&Path>) -> ExitCode {
    let fight = match read(path) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let mut text = match replay::log_lines::write(&fight, replay::Audience::Public) {
        Ok(t) => t,
        Err(e) => return fail(format!("cannot export {}: {e}", path.display())),
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    match output {
        Some(out) => match std::fs::write(out, text) {
            Ok(()) => {
                eprintln!("wrote {}", out.display());
                ExitCode::SUCCESS
            }
            Err(e) => fail(format!("cannot write {}: {e}", out.display())),
        },
        None => {
            let mut stdout = std::io::stdout().lock();
            match stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => fail(format!("writing to stdout: {e}")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fray_protocol::CombatantId;

    #[test]
    fn narrative_numbers_lines_and_spaces_rounds() {
        let events = [
            (9u64, GameEvent::BattleStarted),
            (10, GameEvent::RoundStarted { round: 1 }),
            (
                11,
                GameEvent::Slain {
                    combatant: CombatantId::new("ogre"),
                },
            ),
        ];
        let text = narrative(events.iter().map(|(s, e)| (*s, e)), Roster::default());
        assert_eq!(
            text,
            " 9  The battle begins!\n\n10  === Round 1 ===\n11  ogre is slain!\n"
        );
    }

    #[test]
    fn unreadable_logs_exit_2() {
        let missing = Path::new("/nonexistent/fray/log");
        assert_eq!(verify(missing), ExitCode::from(UNREADABLE));
    }
}
