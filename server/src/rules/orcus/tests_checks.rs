//! Orcus skill checks called by the GM (orcus-basic-rules.txt § Ability and skill checks,
//! § Table – Typical Difficulty Classes, § Maintaining difficulties at higher levels).

use super::tests::{NEXT_TO_LIRA, arena_src, atk, smash, started, until};
use crate::rules::common::testing::{cid, cs, new_engine, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::OrcusCommand;
use fray_protocol::command::CheckDifficulty;
use fray_protocol::event::GameEvent;
use fray_protocol::{Command, ErrorCode};

const OPEN: [&str; 6] = [
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
];

fn check(
    who: &str,
    skill: &str,
    dc: Option<i32>,
    difficulty: Option<CheckDifficulty>,
    purpose: Option<&str>,
) -> Command {
    Command::Orcus(OrcusCommand::OrcusCheck {
        combatant: cid(who),
        skill: skill.into(),
        dc,
        difficulty,
        purpose: purpose.map(str::to_owned),
    })
}

/// (purpose, bonus, dc, success) of the checks rolled.
fn rolled(ev: &[GameEvent]) -> Vec<(String, i32, i32, bool)> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::CheckRolled {
                purpose,
                bonus,
                dc,
                success,
                ..
            } => Some((purpose.clone(), *bonus, *dc, *success)),
            _ => None,
        })
        .collect()
}

/// orcus-basic-rules.txt § Ability and skill checks: the GM chooses the skill and the DC; a d20
/// plus the skill modifier against it, in or out of combat (before the battle, during it without
/// spending an action, after it); a DC from § Table – Typical Difficulty Classes (easy 8,
/// moderate 12, hard 18) grows with the checker's level (§ Maintaining difficulties at higher
/// levels, interpretation: plus (level − 1) / 2).
#[test]
fn the_gm_calls_a_skill_check_against_a_dc_or_a_table_difficulty_ability_and_skill_checks() {
    let src = arena_src(&OPEN, "", 5, NEXT_TO_LIRA)
        .replace("wis = 2", "wis = 2\nskills = { athletics = 40 }")
        .replace("[map]", "[options]\nrests = true\n[map]");
    let enc = load_encounter("checks.toml", &src).unwrap();
    // Out of combat, before the battle.
    let mut e = new_engine(&enc, 2);
    let ev = run(
        &mut e,
        &check("kael", "Athletics", Some(20), None, Some("climb the cliff")),
    );
    assert_eq!(
        rolled(&ev),
        [("athletics: climb the cliff".to_string(), 40, 20, true)]
    );
    // In combat: no action spent.
    let mut e = started(&enc, 2);
    let before = cs(&e, "kael").actions;
    let ev = run(
        &mut e,
        &check(
            "kael",
            "perception",
            None,
            Some(CheckDifficulty::Moderate),
            None,
        ),
    );
    let r = rolled(&ev);
    assert_eq!(r.len(), 1);
    assert_eq!((r[0].0.as_str(), r[0].2), ("perception", 12), "level 1");
    assert_eq!(cs(&e, "kael").actions, before);
    let level = cs(&e, "brute-1").level;
    let ev = run(
        &mut e,
        &check(
            "brute-1",
            "stealth",
            None,
            Some(CheckDifficulty::Hard),
            None,
        ),
    );
    assert_eq!(rolled(&ev)[0].2, 18 + (level - 1) / 2);
    // After the battle too.
    run(&mut e, &Command::EndBattle);
    let ev = run(&mut e, &check("lira", "heal", Some(10), None, None));
    assert_eq!(rolled(&ev).len(), 1);
}

/// orcus-basic-rules.txt § Ability and skill checks: refusals draw no dice and change nothing —
/// a skill not in § The skills, neither or both of a DC and a difficulty, a DC out of 1..=60
/// (`invalid_argument`), a checker that is not conscious (`cannot_act`: Lira dying).
#[test]
fn a_bad_skill_check_is_refused_before_any_die_ability_and_skill_checks() {
    let enc = load_encounter(
        "checks.toml",
        &arena_src(&OPEN, &smash(30), 5, NEXT_TO_LIRA),
    )
    .unwrap();
    let mut e = started(&enc, 2);
    for bad in [
        check("kael", "juggling", Some(10), None, None),
        check("kael", "athletics", None, None, None),
        check(
            "kael",
            "athletics",
            Some(10),
            Some(CheckDifficulty::Easy),
            None,
        ),
        check("kael", "athletics", Some(0), None, None),
        check("kael", "athletics", Some(61), None, None),
    ] {
        assert_eq!(refuse(&mut e, &bad), ErrorCode::InvalidArgument, "{bad:?}");
    }
    until(&mut e, "brute-1");
    run(&mut e, &atk("brute-1", "smash", &["lira"]));
    assert_eq!(
        refuse(&mut e, &check("lira", "heal", Some(10), None, None)),
        ErrorCode::CannotAct
    );
}
