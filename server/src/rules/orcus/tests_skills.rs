//! Orcus skill actions Create Diversion, Deter and Unnerve (orcus-basic-rules.txt § Skill
//! actions).

use super::tests::{arena_src, atk, end, mv, started, until};
use crate::content::model::Encounter;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, refusal, refuse, run};
use fray_protocol::OrcusCommand;
use fray_protocol::command::SkillActionKind;
use fray_protocol::event::{ActionKind, Condition, EffectKind, GameEvent};
use fray_protocol::grid::MoveMode;
use fray_protocol::{Command, ErrorCode};

const OPEN: [&str; 6] = [
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
];

/// A wall down column 5: Kael on the west side cannot see east of it.
const WALL: [&str; 6] = [
    ".....#....",
    ".....#....",
    ".....#....",
    ".....#....",
    ".....#....",
    ".....#....",
];

/// Kael with the given skills, his sword dealing `sword` damage.
fn arena(rows: &[&str], skills: &str, sword: &str, positions: &str) -> Encounter {
    let src = arena_src(rows, "", 40, positions)
        .replace("wis = 2", &format!("wis = 2\nskills = {{ {skills} }}"))
        .replace("hit = \"1d8+2\"", &format!("hit = \"{sword}\""));
    crate::rules::load_encounter("skills.toml", &src).unwrap()
}

fn skill(actor: &str, action: SkillActionKind, target: &str) -> Command {
    Command::Orcus(OrcusCommand::SkillAction {
        actor: cid(actor),
        action,
        target: cid(target),
        effect: None,
        forbid: None,
        foreign: false,
        hide: false,
    })
}

fn has(e: &Engine, who: &str, c: Condition) -> bool {
    cs(e, who)
        .effects
        .iter()
        .any(|x| matches!(x.kind, EffectKind::Condition(k) if k == c))
}

fn checks(ev: &[GameEvent]) -> Vec<(String, i32, bool)> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::CheckRolled {
                purpose,
                dc,
                success,
                ..
            } => Some((purpose.clone(), *dc, *success)),
            _ => None,
        })
        .collect()
}

fn extra_standard(e: &mut Engine, who: &str) {
    run(
        e,
        &Command::Orcus(OrcusCommand::SpendActionPoint {
            actor: cid(who),
            action: ActionKind::Standard,
        }),
    );
}

#[test]
fn create_diversion_checks_bluff_against_every_enemy_in_sight_once_per_encounter_create_diversion()
{
    // orcus-basic-rules.txt § Create Diversion (encounter): near eyesight, all enemies; Bluff vs
    // each target's passive Insight (10 + Insight). Brute-2 behind the wall is out of sight.
    let enc = arena(
        &WALL,
        "bluff = 40",
        "1d8+2",
        "kael = [0, 0]\nlira = [0, 5]\nbrute-1 = [3, 0]\nbrute-2 = [8, 5]",
    );
    let mut e = started(&enc, 3);
    let ev = run(
        &mut e,
        &skill("kael", SkillActionKind::CreateDiversion, "kael"),
    );
    let c = checks(&ev);
    assert_eq!(c.len(), 1, "{c:?}");
    assert_eq!(c[0].0, "create diversion vs brute-1");
    assert_eq!(c[0].1, 10, "passive Insight 10 + 0");
    assert!(c[0].2);
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::PowerExpended { power, .. } if power == "create_diversion"
    )));
    // Once per encounter: refused with no dice drawn, even with another standard action.
    extra_standard(&mut e, "kael");
    assert_eq!(
        refuse(
            &mut e,
            &skill("kael", SkillActionKind::CreateDiversion, "kael")
        ),
        ErrorCode::PowerExpended
    );
}

#[test]
fn deter_forbids_the_chosen_action_until_the_end_of_the_targets_next_turn_deter() {
    // orcus-basic-rules.txt § Deter (at-will): Intimidate vs Will (+10: hostile); success: the
    // target cannot take the chosen action until the end of its next turn.
    let enc = arena(
        &OPEN,
        "intimidate = 40",
        "1d8+2",
        "kael = [0, 0]\nlira = [0, 5]\nbrute-1 = [1, 0]\nbrute-2 = [8, 5]",
    );
    let mut e = started(&enc, 4);
    let will = cs(&e, "brute-1").grid.unwrap().will;
    let ev = run(&mut e, &skill("kael", SkillActionKind::Deter, "brute-1"));
    assert_eq!(checks(&ev), vec![("deter".to_string(), will + 10, true)]);
    assert!(has(
        &e,
        "brute-1",
        Condition::Deterred(ActionKind::Standard)
    ));
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    assert_eq!(
        refuse(&mut e, &atk("brute-1", "club", &["kael"])),
        ErrorCode::Deterred
    );
    run(&mut e, &end("brute-1"));
    assert!(
        !has(&e, "brute-1", Condition::Deterred(ActionKind::Standard)),
        "it ends at the end of the target's next turn"
    );
    // Next round brute-1 attacks again.
    until(&mut e, "brute-1");
    run(&mut e, &atk("brute-1", "club", &["kael"]));
}

#[test]
fn a_failed_deter_makes_the_target_immune_to_the_actors_intimidation_deter() {
    // orcus-basic-rules.txt § Deter: "Failure" — the target cannot be the target of your
    // Deter or Unnerve again this encounter; the +5 for no shared language (`foreign`).
    let enc = arena(
        &OPEN,
        "intimidate = -10",
        "1d8+2",
        "kael = [0, 0]\nlira = [0, 5]\nbrute-1 = [1, 0]\nbrute-2 = [8, 5]",
    );
    let mut e = started(&enc, 4);
    let will = cs(&e, "brute-1").grid.unwrap().will;
    let ev = run(
        &mut e,
        &Command::Orcus(OrcusCommand::SkillAction {
            actor: cid("kael"),
            action: SkillActionKind::Deter,
            target: cid("brute-1"),
            effect: None,
            forbid: Some(ActionKind::Move),
            foreign: true,
            hide: false,
        }),
    );
    assert_eq!(checks(&ev), vec![("deter".to_string(), will + 15, false)]);
    assert!(has(&e, "brute-1", Condition::Unintimidated));
    assert!(!has(&e, "brute-1", Condition::Deterred(ActionKind::Move)));
    extra_standard(&mut e, "kael");
    assert_eq!(
        refuse(&mut e, &skill("kael", SkillActionKind::Deter, "brute-1")),
        ErrorCode::Deterred
    );
    // Not an enemy: refused.
    assert_eq!(
        refuse(&mut e, &skill("kael", SkillActionKind::Deter, "lira")),
        ErrorCode::InvalidTarget
    );
}

#[test]
fn unnerve_makes_staggered_enemies_in_sight_surrender_unnerve() {
    // orcus-basic-rules.txt § Unnerve (at-will): near eyesight and earshot, all staggered
    // enemies; Intimidate vs Will +10; success: the target surrenders.
    let enc = arena(
        &OPEN,
        "intimidate = 40",
        "1d1+19",
        "kael = [0, 0]\nlira = [0, 5]\nbrute-1 = [1, 0]\nbrute-2 = [8, 5]",
    );
    let mut e = started(&enc, 5);
    // Nobody staggered yet: refused, nothing drawn.
    assert_eq!(
        refuse(&mut e, &skill("kael", SkillActionKind::Unnerve, "kael")),
        ErrorCode::InvalidTarget
    );
    run(&mut e, &atk("kael", "sword", &["brute-1"]));
    assert!(cs(&e, "brute-1").staggered, "{:?}", cs(&e, "brute-1").hp);
    extra_standard(&mut e, "kael");
    let will = cs(&e, "brute-1").grid.unwrap().will;
    let ev = run(&mut e, &skill("kael", SkillActionKind::Unnerve, "kael"));
    assert_eq!(
        checks(&ev),
        vec![("unnerve brute-1".to_string(), will + 10, true)],
        "brute-2 is not staggered"
    );
    assert!(has(&e, "brute-1", Condition::Surrendered));
    // A surrendered creature takes no more actions: its turns end by themselves.
    let mut ev = run(&mut e, &end("kael"));
    ev.extend(until(&mut e, "kael"));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::TurnEnded { combatant, .. } if combatant.as_str() == "brute-1"
    )));
    assert!(has(&e, "brute-1", Condition::Surrendered));
    // Nor does it make opportunity attacks: Kael walks away from it unharmed.
    let ev = run(
        &mut e,
        &mv("kael", &[(0, 1), (0, 2), (0, 3)], MoveMode::Walk),
    );
    assert!(
        !ev.iter()
            .any(|x| matches!(x, GameEvent::AttackRolled { .. })),
        "{ev:?}"
    );
}

/// orcus-basic-rules.txt § Unnerve ("Success: The target surrenders"), interpretation: a
/// surrendered creature is out of the fight, so the battle ends once no creature of a side is
/// still able and willing to fight — here one monster surrendered and the other slain.
#[test]
fn a_side_whose_creatures_all_surrendered_or_fell_loses_the_battle_unnerve() {
    let enc = arena(
        &OPEN,
        "intimidate = 40",
        "1d1+19",
        "kael = [0, 0]\nlira = [0, 5]\nbrute-1 = [1, 0]\nbrute-2 = [1, 1]",
    );
    let mut e = started(&enc, 5);
    run(&mut e, &atk("kael", "sword", &["brute-1"]));
    assert!(cs(&e, "brute-1").staggered);
    extra_standard(&mut e, "kael");
    run(&mut e, &skill("kael", SkillActionKind::Unnerve, "kael"));
    assert!(has(&e, "brute-1", Condition::Surrendered));
    assert!(!has(&e, "brute-2", Condition::Surrendered), "not staggered");
    // Brute-2 still fights: the battle goes on.
    assert_eq!(e.state().winner, None);
    assert_eq!(e.state().phase, fray_protocol::state::Phase::Running);
    let mut events = Vec::new();
    for _ in 0..6 {
        run(&mut e, &end("kael"));
        until(&mut e, "kael");
        events.extend(run(&mut e, &atk("kael", "sword", &["brute-2"])));
        if e.state().phase != fray_protocol::state::Phase::Running {
            break;
        }
    }
    assert!(cs(&e, "brute-2").status.is_out(), "brute-2 fell");
    assert_eq!(
        cs(&e, "brute-1").status,
        fray_protocol::state::LifeStatus::Conscious,
        "brute-1 stands, surrendered"
    );
    assert!(events.contains(&GameEvent::BattleEnded {
        winner: Some(fray_protocol::ids::Side::Heroes)
    }));
    assert_eq!(e.state().winner, Some(fray_protocol::ids::Side::Heroes));
}

/// orcus-basic-rules.txt § Unnerve ("Success: The target surrenders"), interpretation: a
/// surrendered creature takes no actions, immediate ones included; the refusal has its own
/// reason, `surrendered` (not `deterred`, which is § Deter's), changes nothing and draws no dice.
#[test]
fn a_surrendered_creatures_actions_are_refused_as_surrendered_unnerve() {
    let src = arena_src(
        &OPEN,
        r#"[[monster.powers]]
id = "snap"
name = "Snap Shot"
action = "immediate reaction"
trigger = "an enemy attacks the brute"
origin = "ranged"
range = [10, 10]
vs = "ac"
bonus = 4
hit = "1"
"#,
        40,
        "kael = [0, 0]\nlira = [0, 5]\nbrute-1 = [1, 0]\nbrute-2 = [8, 5]",
    )
    .replace("wis = 2", "wis = 2\nskills = { intimidate = 40 }")
    .replace("hit = \"1d8+2\"", "hit = \"1d1+19\"");
    let enc = crate::rules::load_encounter("surrender.toml", &src).unwrap();
    let snap = |actor: &str| Command::Attack {
        actor: cid(actor),
        attack: "snap".into(),
        targets: vec![cid("kael")],
        mode: fray_protocol::command::AttackMode::Standard,
        knock_out: false,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    };
    let mut e = started(&enc, 5);
    run(&mut e, &atk("kael", "sword", &["brute-1"]));
    assert!(cs(&e, "brute-1").staggered);
    extra_standard(&mut e, "kael");
    run(&mut e, &skill("kael", SkillActionKind::Unnerve, "kael"));
    assert!(has(&e, "brute-1", Condition::Surrendered));
    let r = refusal(&mut e, &snap("brute-1"));
    assert_eq!(r.code, ErrorCode::Surrendered, "{r}");
    assert!(r.message.contains("surrendered"), "{r}");
    // Brute-2, not surrendered, takes the same reaction.
    let ev = run(&mut e, &snap("brute-2"));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::InterruptUsed { .. }))
    );
}
