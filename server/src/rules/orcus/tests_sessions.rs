//! Orcus sessions of several battles and the session clock (`sessions.rs`), each test naming
//! the section of `orcus-basic-rules.txt` it checks.

use super::tests::{SPREAD, arena_src, started};
use crate::content::model::Encounter;
use crate::rules::common::testing::{cid, cs, current, refusal, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::event::{ActionKind, GameEvent};
use fray_protocol::grid::Square;
use fray_protocol::state::Phase;
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{OrcusCommand, OrcusEvent};

const ROWS: &[&str] = &[
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
];

const LATER: &str = r#"
[[battles]]
title = "The second wave"
monsters = [{ template = "brute", count = 1 }]
positions = { kael = [1, 1], lira = [1, 4], brute-3 = [7, 2] }
"#;

/// The arena with rests and, when `later`, a second battle.
fn session(later: bool) -> Encounter {
    let src = arena_src(ROWS, "", 5, SPREAD).replace("[map]", "[options]\nrests = true\n[map]");
    let src = if later { src + LATER } else { src };
    load_encounter("session.toml", &src).unwrap()
}

fn gained(ev: &[GameEvent]) -> Vec<String> {
    ev.iter()
        .filter_map(|e| match e {
            GameEvent::Orcus(OrcusEvent::ActionPointGained { combatant }) => {
                Some(combatant.to_string())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn a_second_battle_comes_in_and_every_second_encounter_gives_an_action_point_action_points() {
    // orcus-basic-rules.txt § Action points: heroes spend one per encounter; "an additional
    // action point after every second encounter they have between long rests"; § Resting.
    let enc = session(true);
    assert_eq!(enc.battles.len(), 1);
    let mut e = started(&enc, 4);
    assert_eq!(e.state().battles, 2);
    run(
        &mut e,
        &Command::Orcus(OrcusCommand::SpendActionPoint {
            actor: cid("kael"),
            action: ActionKind::Standard,
        }),
    );
    // The next battle waits for this one's end.
    assert_eq!(
        refuse(&mut e, &Command::NextBattle),
        ErrorCode::BattleNotStarted
    );
    let ev = run(&mut e, &Command::EndBattle);
    assert!(gained(&ev).is_empty(), "one encounter is not two");
    assert_eq!(e.state().encounters_since_long_rest, 1);
    let ev = run(&mut e, &Command::NextBattle);
    assert!(ev.iter().any(
        |x| matches!(x, GameEvent::NewBattle { battle: 2, monsters, .. }
        if monsters == &vec![cid("brute-3")])
    ));
    let s = e.state();
    assert_eq!((s.battle, s.phase), (2, Phase::Setup));
    assert!(
        s.combatant(&cid("brute-1")).is_none(),
        "the first wave left"
    );
    assert_eq!(cs(&e, "brute-3").grid.unwrap().square, Square::new(7, 2));
    assert_eq!(cs(&e, "kael").grid.unwrap().square, Square::new(1, 1));
    assert_eq!(cs(&e, "lira").grid.unwrap().square, Square::new(1, 4));
    assert_eq!(cs(&e, "kael").grid.unwrap().action_points, 0);
    run(&mut e, &Command::StartBattle);
    assert_eq!(current(&e), "kael");
    // Kael has no point left this encounter; the encounter count is not reset by a battle.
    assert_eq!(
        refuse(
            &mut e,
            &Command::Orcus(OrcusCommand::SpendActionPoint {
                actor: cid("kael"),
                action: ActionKind::Standard,
            }),
        ),
        ErrorCode::NoActionPoint
    );
    let ev = run(&mut e, &Command::EndBattle);
    assert_eq!(gained(&ev), vec!["kael".to_owned(), "lira".to_owned()]);
    assert_eq!(cs(&e, "kael").grid.unwrap().action_points, 1);
    assert_eq!(cs(&e, "lira").grid.unwrap().action_points, 2);
    // No third battle.
    assert_eq!(
        refuse(&mut e, &Command::NextBattle),
        ErrorCode::InvalidArgument
    );
    // A long rest resets the points to 1 and the encounter count to 0.
    run(&mut e, &Command::FullHealUp);
    assert_eq!(cs(&e, "lira").grid.unwrap().action_points, 1);
    assert_eq!(e.state().encounters_since_long_rest, 0);
}

#[test]
fn later_battles_need_the_rests_option_and_squares_for_everyone_action_points() {
    // orcus-basic-rules.txt § Action points / § Resting: later battles come after rests.
    let src = arena_src(ROWS, "", 5, SPREAD) + LATER;
    assert!(load_encounter("no-rests.toml", &src).is_err());
    let src = arena_src(ROWS, "", 5, SPREAD).replace("[map]", "[options]\nrests = true\n[map]")
        + &LATER.replace("lira = [1, 4], ", "");
    let err = load_encounter("no-lira.toml", &src)
        .unwrap_err()
        .to_string();
    assert!(err.contains("battles[0].positions.lira"), "{err}");
    let src = arena_src(ROWS, "", 5, SPREAD).replace("[map]", "[options]\nrests = true\n[map]")
        + &LATER.replace("brute-3 = [7, 2]", "brute-3 = [1, 1]");
    let err = load_encounter("overlap.toml", &src)
        .unwrap_err()
        .to_string();
    assert!(err.contains("already taken"), "{err}");
}

#[test]
fn rests_take_time_and_one_long_rest_per_24_hours_resting() {
    // orcus-basic-rules.txt § Resting: a short rest is at least 5 minutes, a long rest at
    // least 6 hours, and no more than one long rest in a 24-hour period.
    let mut e = started(&session(false), 4);
    assert_eq!(
        refuse(
            &mut e,
            &Command::Orcus(OrcusCommand::PassTime { minutes: 10 })
        ),
        ErrorCode::InvalidArgument,
        "time passes outside the battle"
    );
    run(&mut e, &Command::EndBattle);
    let ev = run(
        &mut e,
        &Command::QuickRest {
            actor: cid("kael"),
            recoveries: 0,
        },
    );
    assert!(ev.contains(&GameEvent::Orcus(OrcusEvent::ClockAdvanced {
        minutes: 5,
        clock: 5
    })));
    // Lira rests in the same five minutes.
    run(
        &mut e,
        &Command::QuickRest {
            actor: cid("lira"),
            recoveries: 0,
        },
    );
    assert_eq!(e.state().clock, 5);
    let ev = run(&mut e, &Command::FullHealUp);
    assert_eq!(
        ev.first(),
        Some(&GameEvent::Orcus(OrcusEvent::ClockAdvanced {
            minutes: 360,
            clock: 365
        }))
    );
    assert_eq!(e.state().last_long_rest, Some(365));
    // A second long rest would end 6 hours later: too soon.
    let r = refusal(&mut e, &Command::FullHealUp);
    assert_eq!(r.code, ErrorCode::LongRestTooSoon);
    assert!(r.message.contains("1080 more minutes"), "{}", r.message);
    assert_eq!(
        refuse(
            &mut e,
            &Command::Orcus(OrcusCommand::PassTime { minutes: 0 })
        ),
        ErrorCode::InvalidArgument
    );
    run(
        &mut e,
        &Command::Orcus(OrcusCommand::PassTime { minutes: 1079 }),
    );
    assert_eq!(
        refuse(&mut e, &Command::FullHealUp),
        ErrorCode::LongRestTooSoon
    );
    run(
        &mut e,
        &Command::Orcus(OrcusCommand::PassTime { minutes: 1 }),
    );
    run(&mut e, &Command::FullHealUp);
    assert_eq!(e.state().clock, 365 + 1080 + 360);
    assert_eq!(e.state().last_long_rest, Some(1805));
}

fn award(monsters: &[&str], bonus: u32, party: &[&str]) -> Command {
    Command::Orcus(OrcusCommand::OrcusAwardXp {
        monsters: monsters.iter().map(|m| cid(m)).collect(),
        bonus,
        party: party.iter().map(|h| cid(h)).collect(),
    })
}

fn reached(ev: &[GameEvent]) -> Vec<(String, i32, u32)> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::Orcus(OrcusEvent::LevelReached {
                combatant,
                level,
                xp,
            }) => Some((combatant.to_string(), *level, *xp)),
            _ => None,
        })
        .collect()
}

/// orcus-basic-rules.txt § Experience Points ("based on its level and rank … awarded for
/// defeating the monster": a level 1 standard monster is worth 100) and § Experience, levels
/// and tiers (level 2 at 1,000 cumulative XP, level 3 at 2,250): the GM's `orcus_award_xp` divides
/// the monsters' XP and a bonus evenly among the party, counts each monster once, and tells a
/// hero who reaches a level.
#[test]
fn defeated_monsters_give_their_table_xp_shared_by_the_party_experience_points() {
    let enc = session(false);
    let mut e = started(&enc, 4);
    let ev = run(
        &mut e,
        &award(&["brute-1", "brute-2"], 0, &["kael", "lira"]),
    );
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::Orcus(OrcusEvent::OrcusXpAwarded { total: 200, share: 100, shares, .. })
            if shares == &vec![(cid("kael"), 100, 100), (cid("lira"), 100, 100)]
    )));
    assert!(reached(&ev).is_empty());
    assert_eq!(cs(&e, "kael").grid.unwrap().xp, 100);
    assert!(cs(&e, "brute-1").grid.unwrap().xp_awarded);
    assert_eq!(
        refuse(&mut e, &award(&["brute-1"], 0, &["kael"])),
        ErrorCode::InvalidTarget,
        "counted once"
    );
    let ev = run(&mut e, &award(&[], 1800, &["kael"]));
    assert_eq!(reached(&ev), vec![("kael".to_owned(), 2, 1900)]);
    let ev = run(&mut e, &award(&[], 400, &["kael"]));
    assert_eq!(reached(&ev), vec![("kael".to_owned(), 3, 2300)]);
    let ev = run(&mut e, &award(&[], 5, &["kael", "lira"]));
    assert!(reached(&ev).is_empty(), "no new level");
    assert_eq!(cs(&e, "kael").grid.unwrap().xp, 2302);
    assert_eq!(cs(&e, "lira").grid.unwrap().xp, 102);
    assert_eq!(
        refuse(&mut e, &award(&["kael"], 0, &["lira"])),
        ErrorCode::InvalidTarget
    );
    assert_eq!(
        refuse(&mut e, &award(&["brute-2"], 0, &["brute-1"])),
        ErrorCode::InvalidTarget
    );
    assert_eq!(
        refuse(&mut e, &award(&[], 10, &[])),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        refuse(&mut e, &award(&[], 100_001, &["kael"])),
        ErrorCode::InvalidArgument
    );
}
