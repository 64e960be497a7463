//! The server's own play through the real session and log, as the session task drives it: the
//! policy acts only for handed-over combatants, scripted players play the rest, the GM takes
//! a monster back mid-fight, and the log (commands from the client `auto`) verifies.

use super::*;
use crate::log::FsStorage;
use crate::replay::{read_log, verify};
use crate::session::{Session, SessionConfig};
use fray_protocol::state::Phase;
use fray_protocol::{CombatantId, Side};

fn session(ruleset: &str, dir: &std::path::Path) -> Session {
    crate::session::testing::session_in(ruleset, dir, 12, SessionConfig::default())
}

fn send(s: &mut Session, client: &str, c: &Command) -> Vec<GameEvent> {
    let staged = s.stage(client, s.tick() + 1, c).unwrap();
    s.commit().unwrap();
    staged.events.into_iter().map(|e| e.event).collect()
}

fn hand(s: &mut Session, side: Side, on: bool) -> Vec<GameEvent> {
    let c = Command::AutoPlay {
        combatants: Vec::new(),
        side: Some(side),
        on,
    };
    send(s, "gm", &c)
}

/// What the session task does after each group: the server's commands while it has one.
fn play_auto(s: &mut Session, sent: &mut Vec<Command>) {
    for _ in 0..64 {
        let Some(c) = next_command(&s.state(), s.auto(), s.tick()) else {
            return;
        };
        send(s, CLIENT, &c);
        sent.push(c);
    }
}

/// The scripted players: the demo policy for the heroes (a seat of everyone not handed over).
fn heroes_command(s: &Session) -> Option<Command> {
    let state = s.state();
    let heroes = Role::Player {
        name: "table".into(),
        controls: state
            .combatants
            .iter()
            .filter(|c| !s.auto().contains(&c.id))
            .map(|c| c.id.clone())
            .collect(),
    };
    crate::demo::bot::next_for_table(&state, &[heroes], s.tick()).map(|(_, c)| c)
}

fn monsters(s: &Session) -> Vec<CombatantId> {
    s.state()
        .combatants
        .iter()
        .filter(|c| c.side == Side::Monsters)
        .map(|c| c.id.clone())
        .collect()
}

#[test]
fn the_server_plays_every_monster_against_scripted_players_to_the_end() {
    for ruleset in crate::rules::ids() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(ruleset, dir.path());
        let set = hand(&mut s, Side::Monsters, true);
        assert_eq!(
            set,
            vec![GameEvent::AutoPlaySet {
                combatants: monsters(&s),
                on: true
            }]
        );
        send(&mut s, "gm", &Command::StartBattle);
        let mut by_server = Vec::new();
        for _ in 0..2_000 {
            play_auto(&mut s, &mut by_server);
            if s.state().phase == Phase::Ended {
                break;
            }
            let c = heroes_command(&s).expect("the heroes have a command");
            send(&mut s, "gm", &c);
        }
        assert_eq!(s.state().phase, Phase::Ended, "{ruleset}: the fight ends");
        assert!(
            by_server.len() > 5,
            "{ruleset}: {} server commands",
            by_server.len()
        );
        let mine = monsters(&s);
        assert!(
            by_server
                .iter()
                .all(|c| c.actor().is_some_and(|a| mine.contains(a))),
            "{ruleset}: the server commands only the monsters"
        );
        s.flush().unwrap();
        drop(s);
        let fight = read_log(dir.path()).unwrap();
        verify(&fight).unwrap();
        let auto_commands = fight
            .records()
            .iter()
            .filter(|r| matches!(r, crate::session::record::Record::Command { client, .. } if client == CLIENT))
            .count();
        assert_eq!(
            auto_commands,
            by_server.len(),
            "{ruleset}: logged as `auto`"
        );
    }
}

#[test]
fn a_monster_taken_back_mid_fight_waits_for_the_gm() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session("13th-age", dir.path());
    hand(&mut s, Side::Monsters, true);
    send(&mut s, "gm", &Command::StartBattle);
    let mut by_server = Vec::new();
    play_auto(&mut s, &mut by_server);
    let before = by_server.len();
    // Taken back: the first monster is the GM's again.
    let back = monsters(&s)[0].clone();
    let taken = send(
        &mut s,
        "gm",
        &Command::AutoPlay {
            combatants: vec![back.clone()],
            side: None,
            on: false,
        },
    );
    assert_eq!(
        taken,
        vec![GameEvent::AutoPlaySet {
            combatants: vec![back.clone()],
            on: false
        }]
    );
    assert!(!s.auto().contains(&back));
    let mut waited = false;
    for _ in 0..400 {
        play_auto(&mut s, &mut by_server);
        let state = s.state();
        if state.phase == Phase::Ended {
            break;
        }
        if state.current.as_ref() == Some(&back) {
            // Its turn: the server does not act for it; the GM does.
            assert_eq!(next_command(&state, s.auto(), s.tick()), None);
            waited = true;
            send(
                &mut s,
                "gm",
                &Command::EndTurn {
                    actor: back.clone(),
                },
            );
            continue;
        }
        let c = heroes_command(&s).expect("a command");
        send(&mut s, "gm", &c);
    }
    assert!(waited, "the taken-back monster had a turn");
    assert!(
        by_server[before..].iter().all(|c| c.actor() != Some(&back)),
        "the server never acted for it after it was taken back"
    );
}

#[test]
fn handing_over_names_real_combatants_in_a_ruleset_with_a_policy() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session("13th-age", dir.path());
    let nobody = Command::AutoPlay {
        combatants: vec![CombatantId::new("nobody")],
        side: None,
        on: true,
    };
    assert_eq!(
        s.stage("gm", 1, &nobody).err().unwrap().code,
        ErrorCode::UnknownCombatant
    );
    let empty = Command::AutoPlay {
        combatants: Vec::new(),
        side: None,
        on: true,
    };
    assert_eq!(
        s.stage("gm", 1, &empty).err().unwrap().code,
        ErrorCode::InvalidArgument
    );
}

#[test]
fn the_handed_over_set_survives_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session("13th-age", dir.path());
    hand(&mut s, Side::Monsters, true);
    let set = s.auto().clone();
    s.flush().unwrap();
    drop(s);
    let (reopened, _) = Session::open(
        FsStorage::open(dir.path()).unwrap(),
        SessionConfig::default(),
    )
    .unwrap();
    assert_eq!(reopened.auto(), &set);
    assert!(!set.is_empty());
}
