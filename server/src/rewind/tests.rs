//! Rewind through the real session, log, recovery and verify: the state after a rewind is the
//! state of the tick it names, the dice go on, and a log that repeats an undone roll fails
//! verification.

use super::*;
use crate::log::FsStorage;
use crate::replay::{ReplayError, read_log, verify};
use crate::session::{Session, SessionConfig};
use fray_protocol::{Command, Role};

/// What the session looked like after a tick.
#[derive(Debug, Clone, PartialEq)]
struct Mark {
    tick: u64,
    last_seq: u64,
    hash: String,
}

fn session(dir: &std::path::Path, config: SessionConfig) -> Session {
    session_of("13th-age", dir, config)
}

fn session_of(ruleset: &str, dir: &std::path::Path, config: SessionConfig) -> Session {
    crate::session::testing::session_in(ruleset, dir, 21, config)
}

fn roles(s: &Session) -> Vec<Role> {
    let mut roles = vec![Role::Gm];
    for (i, seat) in s.genesis().encounter.seats.iter().enumerate() {
        roles.push(Role::Player {
            name: format!("p{i}"),
            controls: seat.controls.clone(),
        });
    }
    roles
}

fn send(s: &mut Session, c: &Command) -> Result<Vec<GameEvent>, Rejection> {
    let staged = s.stage("gm", s.tick() + 1, c)?;
    s.commit().unwrap();
    Ok(staged.events.into_iter().map(|e| e.event).collect())
}

fn mark(s: &Session) -> Mark {
    Mark {
        tick: s.tick(),
        last_seq: s.last_seq(),
        hash: s.state_hash(),
    }
}

/// Plays the demo policy's next command; returns it and its events.
fn play_one(s: &mut Session) -> (Command, Vec<GameEvent>) {
    let roles = roles(s);
    let (_, cmd) = crate::demo::bot::next_for_table(&s.state(), &roles, s.tick()).unwrap();
    let events = send(s, &cmd).unwrap();
    (cmd, events)
}

fn rolls_an_attack(events: &[GameEvent]) -> bool {
    events
        .iter()
        .any(|e| matches!(e, GameEvent::AttackRolled { .. }))
}

/// A fight played until an attack at tick 5 or later, then two ticks more: the marks after
/// every tick, the attacking tick and its command.
fn fight_with_an_attack(s: &mut Session) -> (Vec<Mark>, u64, Command, Vec<GameEvent>) {
    let mut marks = vec![mark(s)];
    let (attack_tick, command, events) = loop {
        let (cmd, events) = play_one(s);
        marks.push(mark(s));
        if s.tick() >= 5 && rolls_an_attack(&events) {
            break (s.tick(), cmd, events);
        }
        assert!(s.tick() < 300, "no attack in 300 ticks");
    };
    play_one(s);
    marks.push(mark(s));
    play_one(s);
    marks.push(mark(s));
    (marks, attack_tick, command, events)
}

#[test]
fn a_rewind_gives_back_the_state_of_the_tick_it_names_and_the_dice_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session(dir.path(), SessionConfig::default());
    let (marks, attack_tick, command, undone) = fight_with_an_attack(&mut s);
    let before = &marks[(attack_tick - 1) as usize];
    let draws = s.engine().rng().draws();
    let rewound = send(
        &mut s,
        &Command::RewindTo {
            seq: before.last_seq,
        },
    )
    .unwrap();
    assert_eq!(
        rewound,
        vec![GameEvent::Rewound {
            to_seq: before.last_seq,
            to_tick: before.tick
        }]
    );
    assert_eq!(
        s.state_hash(),
        before.hash,
        "the state of tick {}",
        before.tick
    );
    assert_eq!(s.engine().rng().draws(), draws, "the dice do not rewind");
    // The same command again is legal (same state) but rolls new dice.
    let again = send(&mut s, &command).unwrap();
    assert!(rolls_an_attack(&again));
    assert_ne!(again, undone, "the attack after the rewind draws new dice");
    assert!(s.engine().rng().draws() > draws);
}

#[test]
fn a_rewound_session_reopens_folds_and_verifies_to_the_same_state() {
    for ruleset in ["13th-age", "orcus"] {
        a_rewound_session_of(ruleset);
    }
}

fn a_rewound_session_of(ruleset: &str) {
    let dir = tempfile::tempdir().unwrap();
    // A snapshot every few events: recovery starts from one taken before the rewind.
    let config = SessionConfig {
        snapshot_every: 7,
        ..SessionConfig::default()
    };
    let mut s = session_of(ruleset, dir.path(), config.clone());
    let (marks, attack_tick, command, _) = fight_with_an_attack(&mut s);
    let to = &marks[(attack_tick - 1) as usize];
    send(&mut s, &Command::RewindTo { seq: to.last_seq }).unwrap();
    assert_eq!(s.state_hash(), to.hash, "{ruleset}");
    send(&mut s, &command).unwrap();
    play_one(&mut s);
    let end = mark(&s);
    s.flush().unwrap();
    drop(s);
    let (reopened, _) = Session::open(FsStorage::open(dir.path()).unwrap(), config).unwrap();
    assert_eq!(
        mark(&reopened),
        end,
        "{ruleset}: recovery follows the rewind"
    );
    drop(reopened);
    let fight = read_log(dir.path()).unwrap();
    let folded = crate::replay::fold(&fight).unwrap();
    assert_eq!(folded.state_hash, end.hash);
    let report = verify(&fight).unwrap();
    assert!(report.hashes >= 1, "the rewind's tick records a state hash");
}

#[test]
fn a_log_whose_roll_after_a_rewind_repeats_the_undone_roll_fails_verification() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session(dir.path(), SessionConfig::default());
    let (marks, attack_tick, command, _) = fight_with_an_attack(&mut s);
    let to = &marks[(attack_tick - 1) as usize];
    send(&mut s, &Command::RewindTo { seq: to.last_seq }).unwrap();
    send(&mut s, &command).unwrap();
    let retried_tick = s.tick();
    s.flush().unwrap();
    drop(s);
    let fight = read_log(dir.path()).unwrap();
    verify(&fight).unwrap();
    // The GM's log with the retried attack's events replaced by the undone attack's.
    let text =
        crate::replay::log_lines::write(&fight, crate::replay::log_lines::Audience::Gm).unwrap();
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let events_of = |lines: &[serde_json::Value], tick: u64| {
        lines
            .iter()
            .position(|l| l["events"]["tick"] == tick)
            .unwrap()
    };
    let undone = events_of(&lines, attack_tick);
    let retried = events_of(&lines, retried_tick);
    lines[retried]["events"]["events"] = lines[undone]["events"]["events"].clone();
    let forged: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let forged = crate::replay::log_lines::read(&forged).unwrap();
    match verify(&forged) {
        Err(ReplayError::EventMismatch { tick, .. }) => assert_eq!(tick, retried_tick),
        other => panic!("the forged log must fail at tick {retried_tick}: {other:?}"),
    }
}

#[test]
fn a_rewind_into_the_middle_of_a_tick_or_not_before_the_end_is_refused_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session(dir.path(), SessionConfig::default());
    let (marks, _, _, _) = fight_with_an_attack(&mut s);
    let now = mark(&s);
    // A tick with several events: one of its inner events.
    let tick = marks
        .windows(2)
        .find(|w| w[1].last_seq >= w[0].last_seq + 2)
        .unwrap();
    let inner = tick[0].last_seq + 1;
    for (seq, says) in [
        (inner, "in the middle of tick"),
        (now.last_seq, "nothing to rewind"),
        (now.last_seq + 10, "nothing to rewind"),
    ] {
        let r = s.stage("gm", 99, &Command::RewindTo { seq }).err().unwrap();
        assert_eq!(r.code, ErrorCode::InvalidArgument, "{seq}");
        assert!(r.message.contains(says), "{seq}: {}", r.message);
        assert_eq!(mark(&s), now, "a refused rewind changes nothing");
    }
}

#[test]
fn a_rewind_to_before_an_earlier_rewind_folds_through_both() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session(dir.path(), SessionConfig::default());
    let (marks, _, _, _) = fight_with_an_attack(&mut s);
    let second = &marks[marks.len() - 2];
    let first = &marks[2];
    send(
        &mut s,
        &Command::RewindTo {
            seq: second.last_seq,
        },
    )
    .unwrap();
    play_one(&mut s);
    send(
        &mut s,
        &Command::RewindTo {
            seq: first.last_seq,
        },
    )
    .unwrap();
    assert_eq!(s.state_hash(), first.hash);
    // To the start of the fight (before the first event).
    send(&mut s, &Command::RewindTo { seq: 0 }).unwrap();
    assert_eq!(s.state_hash(), marks[0].hash);
    play_one(&mut s);
    let end = mark(&s);
    s.flush().unwrap();
    drop(s);
    let fight = read_log(dir.path()).unwrap();
    assert_eq!(crate::replay::fold(&fight).unwrap().state_hash, end.hash);
    verify(&fight).unwrap();
}

#[test]
fn no_rewind_once_the_seed_is_revealed() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session(dir.path(), SessionConfig::default());
    send(&mut s, &Command::StartBattle).unwrap();
    send(&mut s, &Command::EndBattle).unwrap();
    assert!(s.state().seed_revealed);
    let r = s
        .stage("gm", 9, &Command::RewindTo { seq: 0 })
        .err()
        .unwrap();
    assert_eq!(r.code, ErrorCode::AlreadyRevealed);
}
