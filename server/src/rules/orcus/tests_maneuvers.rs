//! Orcus universal maneuvers (orcus-basic-rules.txt § Universal actions): Charge, Bull Rush,
//! Grapple, Escape a Grapple, maintaining and ending a grapple.

use super::tests::{end, mv, square, started, until};
use crate::content::model::Encounter;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, current, refuse, run};
use fray_protocol::command::EscapeSkill;
use fray_protocol::event::{
    ActionKind, AttackOutcome, Condition, EffectEndReason, EffectKind, GameEvent,
};
use fray_protocol::grid::{MoveMode, Square};
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{OrcusCommand, OrcusEvent};

const OPEN: [&str; 6] = [
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
];

/// The arena on an open map, Kael strong (Strength +20: his Strength attacks miss only on a
/// natural 1) and trained in Athletics for the brutes.
fn ring(positions: &str) -> Encounter {
    let src = super::tests::arena_src(&OPEN, "", 5, positions)
        .replace("wis = 2", "wis = 2\nstr = 20")
        .replace("dex = 0", "dex = 0\nstr = 30\ntrained = [\"athletics\"]");
    crate::rules::load_encounter("ring.toml", &src).unwrap()
}

fn rolled(ev: &[GameEvent]) -> Option<(i32, AttackOutcome)> {
    ev.iter().find_map(|x| match x {
        GameEvent::AttackRolled { bonus, outcome, .. } => Some((*bonus, *outcome)),
        _ => None,
    })
}

fn grappled(e: &Engine, who: &str) -> Option<u32> {
    cs(e, who).effects.iter().find_map(|x| match x.kind {
        EffectKind::Condition(Condition::Grappled) => Some(x.id),
        _ => None,
    })
}

#[test]
fn a_charge_walks_straight_in_attacks_at_plus_1_and_ends_the_turns_actions_charge() {
    // orcus-basic-rules.txt § Charge.
    let enc = ring("kael = [0, 0]\nlira = [0, 5]\nbrute-1 = [4, 0]\nbrute-2 = [9, 5]");
    let mut e = started(&enc, 1);
    let charge = |path: &[(i32, i32)]| {
        Command::Orcus(OrcusCommand::Charge {
            actor: cid("kael"),
            target: cid("brute-1"),
            path: path.iter().map(|(x, y)| Square::new(*x, *y)).collect(),
        })
    };
    // Sideways squares do not bring the charge closer; stopping short is out of reach.
    assert_eq!(
        refuse(&mut e, &charge(&[(1, 1), (1, 0), (2, 0), (3, 0)])),
        ErrorCode::IllegalPath
    );
    assert_eq!(
        refuse(&mut e, &charge(&[(1, 0), (2, 0)])),
        ErrorCode::OutOfRange
    );
    let ev = run(&mut e, &charge(&[(1, 0), (2, 0), (3, 0)]));
    assert_eq!(square(&e, "kael"), Square::new(3, 0));
    let (bonus, _) = rolled(&ev).expect("an attack roll");
    assert_eq!(bonus, 5 + 1, "the sword's +5 and the charge's +1");
    // Every action of the turn is gone, so the turn is over.
    for kind in [ActionKind::Move, ActionKind::Quick] {
        assert!(ev.iter().any(|x| matches!(
            x,
            GameEvent::ActionUsed { combatant, action, .. } if combatant.as_str() == "kael" && *action == kind
        )));
    }
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::TurnEnded { combatant } if combatant.as_str() == "kael"
    )));
    assert_ne!(current(&e), "kael");
}

#[test]
fn a_one_square_charge_gets_no_bonus_charge() {
    // orcus-basic-rules.txt § Charge: "If you move at least 2 squares, you get a +1 bonus".
    let enc = ring("kael = [2, 0]\nlira = [0, 5]\nbrute-1 = [4, 0]\nbrute-2 = [9, 5]");
    let mut e = started(&enc, 2);
    let ev = run(
        &mut e,
        &Command::Orcus(OrcusCommand::Charge {
            actor: cid("kael"),
            target: cid("brute-1"),
            path: vec![Square::new(3, 0)],
        }),
    );
    assert_eq!(rolled(&ev).expect("an attack roll").0, 5);
}

#[test]
fn a_bull_rush_pushes_the_target_a_square_away_and_the_attacker_may_follow_bull_rush() {
    // orcus-basic-rules.txt § Bull Rush: Strength vs Fortitude; push 1 square; step in.
    let enc = ring("kael = [3, 0]\nlira = [0, 5]\nbrute-1 = [4, 0]\nbrute-2 = [9, 5]");
    let rush = |to: (i32, i32)| {
        Command::Orcus(OrcusCommand::BullRush {
            actor: cid("kael"),
            target: cid("brute-1"),
            push_to: Square::new(to.0, to.1),
            follow: true,
        })
    };
    let mut e = started(&enc, 3);
    // (4, 1) is no farther from Kael; (6, 0) is 2 squares away.
    assert_eq!(refuse(&mut e, &rush((4, 1))), ErrorCode::IllegalPath);
    assert_eq!(refuse(&mut e, &rush((6, 0))), ErrorCode::IllegalPath);
    for seed in 3..30 {
        let mut e = started(&enc, seed);
        let ev = run(&mut e, &rush((5, 0)));
        let (_, outcome) = rolled(&ev).expect("a Strength attack");
        assert!(ev.iter().any(|x| matches!(
            x,
            GameEvent::AttackRolled {
                defense: fray_protocol::event::Defense::Fortitude,
                ..
            }
        )));
        if outcome.is_hit() {
            assert_eq!(square(&e, "brute-1"), Square::new(5, 0));
            assert_eq!(square(&e, "kael"), Square::new(4, 0), "Kael follows");
            // Unwilling movement and the step provoke nothing.
            assert!(
                !ev.iter()
                    .any(|x| matches!(x, GameEvent::OpportunityTaken { .. }))
            );
            return;
        }
        assert_eq!(square(&e, "brute-1"), Square::new(4, 0));
    }
    panic!("no bull rush hit");
}

/// A started ring where Kael, next to brute-1, has grappled it.
fn grappling(seed_from: u64) -> (Engine, u32) {
    let enc = ring("kael = [3, 0]\nlira = [0, 5]\nbrute-1 = [4, 0]\nbrute-2 = [9, 5]");
    for seed in seed_from..seed_from + 40 {
        let mut e = started(&enc, seed);
        run(
            &mut e,
            &Command::Orcus(OrcusCommand::Grapple {
                actor: cid("kael"),
                target: cid("brute-1"),
            }),
        );
        if let Some(id) = grappled(&e, "brute-1") {
            return (e, id);
        }
    }
    panic!("no grapple hit");
}

#[test]
fn a_grappled_creature_cannot_move_and_the_grapple_lapses_unless_maintained_grapple() {
    // orcus-basic-rules.txt § Grapple: immobilized; Maintain Swift after the first turn.
    let (mut e, id) = grappling(0);
    assert_eq!(cs(&e, "kael").grid.unwrap().maintained, vec![id]);
    until(&mut e, "brute-1");
    assert_eq!(
        refuse(&mut e, &mv("brute-1", &[(5, 0)], MoveMode::Walk)),
        ErrorCode::Immobilized
    );
    until(&mut e, "kael");
    // Maintained this turn (a swift action): it holds past the end of the turn.
    run(
        &mut e,
        &Command::Orcus(OrcusCommand::Maintain {
            actor: cid("kael"),
            effect: id,
        }),
    );
    assert_eq!(
        refuse(
            &mut e,
            &Command::Orcus(OrcusCommand::Maintain {
                actor: cid("kael"),
                effect: id,
            })
        ),
        ErrorCode::ActionAlreadyUsed
    );
    run(&mut e, &end("kael"));
    assert_eq!(grappled(&e, "brute-1"), Some(id));
    // Not maintained: it ends with Kael's turn.
    until(&mut e, "kael");
    let ev = run(&mut e, &end("kael"));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::EffectEnded {
            reason: EffectEndReason::Released,
            ..
        }
    )));
    assert_eq!(grappled(&e, "brute-1"), None);
}

#[test]
fn a_grapple_ends_when_the_grappler_moves_away_or_lets_go_grapple() {
    // orcus-basic-rules.txt § Grapple: "you move away from it … or you choose to end the
    // grapple" (a free action).
    let (mut e, _) = grappling(0);
    run(&mut e, &mv("kael", &[(2, 0)], MoveMode::Step));
    assert_eq!(grappled(&e, "brute-1"), None, "moving away frees it");
    let (mut e, _) = grappling(0);
    assert_eq!(
        refuse(
            &mut e,
            &Command::LetGo {
                actor: cid("kael"),
                target: cid("lira"),
            }
        ),
        ErrorCode::NotGrappled
    );
    run(
        &mut e,
        &Command::LetGo {
            actor: cid("kael"),
            target: cid("brute-1"),
        },
    );
    assert_eq!(grappled(&e, "brute-1"), None);
}

#[test]
fn escaping_a_grapple_is_athletics_vs_fortitude_and_may_step_escape_a_grapple() {
    // orcus-basic-rules.txt § Escape a Grapple: a move action; Acrobatics vs Reflex or
    // Athletics vs Fortitude; success: escape and step 1 square.
    let (mut e, _) = grappling(0);
    until(&mut e, "brute-1");
    let ev = run(
        &mut e,
        &Command::Orcus(OrcusCommand::Escape {
            actor: cid("brute-1"),
            skill: EscapeSkill::Athletics,
            step_to: Some(Square::new(5, 1)),
        }),
    );
    let (bonus, dc, success) = ev
        .iter()
        .find_map(|x| match x {
            GameEvent::CheckRolled {
                bonus, dc, success, ..
            } => Some((*bonus, *dc, *success)),
            _ => None,
        })
        .expect("an escape check");
    // Trained: 5 + half level (0) + Strength 30.
    assert_eq!(bonus, 35);
    assert_eq!(dc, 14, "Kael's Fortitude");
    assert!(success);
    assert_eq!(grappled(&e, "brute-1"), None);
    assert_eq!(square(&e, "brute-1"), Square::new(5, 1));
    // It was a move action.
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::ActionUsed {
            action: ActionKind::Move,
            ..
        }
    )));
    // Not grappled any more: nothing to escape.
    until(&mut e, "kael");
    assert_eq!(
        refuse(
            &mut e,
            &Command::Orcus(OrcusCommand::Escape {
                actor: cid("kael"),
                skill: EscapeSkill::Acrobatics,
                step_to: None,
            })
        ),
        ErrorCode::NotGrappled
    );
}

#[test]
fn one_immediate_action_between_turns_and_never_on_ones_own_turn_immediate_actions() {
    // orcus-basic-rules.txt § Immediate actions: "It must occur on someone else's turn, and you
    // can only take one immediate action between each of your turns."
    let lash = r#"[[monster.powers]]
id = "lash"
name = "Spiteful Lash"
action = "immediate reaction"
trigger = "an adjacent enemy hits the brute"
origin = "melee"
vs = "ac"
bonus = 4
hit = "1d6"
"#;
    let src = super::tests::arena_src(
        &OPEN,
        lash,
        5,
        "kael = [3, 0]\nlira = [0, 5]\nbrute-1 = [4, 0]\nbrute-2 = [9, 5]",
    );
    let enc = crate::rules::load_encounter("lash.toml", &src).unwrap();
    let mut e = started(&enc, 5);
    let lash = |actor: &str| Command::Attack {
        actor: cid(actor),
        attack: "lash".into(),
        targets: vec![cid("kael")],
        mode: fray_protocol::command::AttackMode::Standard,
        knock_out: false,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    };
    let ev = run(&mut e, &lash("brute-1"));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::InterruptUsed { combatant } if combatant.as_str() == "brute-1"
    )));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::AttackRolled { .. }))
    );
    assert!(cs(&e, "brute-1").grid.unwrap().immediate_used);
    // A second one before its next turn: refused with its own reason.
    assert_eq!(refuse(&mut e, &lash("brute-1")), ErrorCode::ImmediateUsed);
    // Not on its own turn.
    until(&mut e, "brute-1");
    assert!(
        !cs(&e, "brute-1").grid.unwrap().immediate_used,
        "its turn resets it"
    );
    assert_eq!(refuse(&mut e, &lash("brute-1")), ErrorCode::NotYourTurn);
    // After its turn, usable again.
    until(&mut e, "kael");
    run(&mut e, &lash("brute-1"));
}

#[test]
fn an_immediate_power_names_its_trigger_action_required() {
    // orcus-basic-rules.txt § Action required: actions with a trigger; content errors name the
    // field.
    let bad = r#"[[monster.powers]]
id = "lash"
name = "Spiteful Lash"
action = "immediate reaction"
origin = "melee"
vs = "ac"
hit = "1d6"
"#;
    let err = crate::rules::load_encounter(
        "lash.toml",
        &super::tests::arena_src(&OPEN, bad, 5, super::tests::SPREAD),
    )
    .expect_err("an immediate action without a trigger");
    assert!(err.to_string().contains("powers[1].trigger"), "{err}");
}

#[test]
fn a_push_moves_the_target_straight_away_and_a_pull_straight_in_unwilling_movement() {
    // orcus-basic-rules.txt § Unwilling movement (push: each square farther; pull: closer;
    // interpretation: the straightest free path; no opportunity attacks).
    let powers = r#"[[monster.powers]]
id = "shove"
name = "Shove"
origin = "melee"
vs = "fortitude"
bonus = 40
hit = "1"
push = 2
[[monster.powers]]
id = "hook"
name = "Chain Hook"
origin = "ranged"
range = [10, 10]
vs = "reflex"
bonus = 40
hit = "1"
pull = 2
"#;
    let rows = [
        "..........",
        "..........",
        "..........",
        "#.........",
        "..........",
        "..........",
    ];
    let src = super::tests::arena_src(
        &rows,
        powers,
        5,
        "kael = [2, 0]\nlira = [0, 4]\nbrute-1 = [3, 0]\nbrute-2 = [8, 4]",
    );
    let enc = crate::rules::load_encounter("shove.toml", &src).unwrap();
    for seed in 0..20 {
        let mut e = started(&enc, seed);
        until(&mut e, "brute-1");
        let ev = run(
            &mut e,
            &Command::Attack {
                actor: cid("brute-1"),
                attack: "shove".into(),
                targets: vec![cid("kael")],
                mode: fray_protocol::command::AttackMode::Standard,
                knock_out: false,
                forced: Vec::new(),
                weapon: None,
                secondary_target: None,
            },
        );
        if !rolled(&ev).is_some_and(|(_, o)| o.is_hit()) {
            continue;
        }
        assert_eq!(
            square(&e, "kael"),
            Square::new(0, 0),
            "pushed 2 squares west"
        );
        assert!(ev.iter().any(|x| matches!(
            x,
            GameEvent::Orcus(OrcusEvent::GridMoved {
                mode: MoveMode::Unwilling,
                ..
            })
        )));
        // Lira is pulled 2 squares toward brute-2 (east): (2, 4).
        until(&mut e, "brute-2");
        let ev = run(
            &mut e,
            &Command::Attack {
                actor: cid("brute-2"),
                attack: "hook".into(),
                targets: vec![cid("lira")],
                mode: fray_protocol::command::AttackMode::Standard,
                knock_out: false,
                forced: Vec::new(),
                weapon: None,
                secondary_target: None,
            },
        );
        if rolled(&ev).is_some_and(|(_, o)| o.is_hit()) {
            assert_eq!(square(&e, "lira"), Square::new(2, 4));
        }
        return;
    }
    panic!("no shove hit");
}

#[test]
fn a_power_moves_its_target_one_way_only_unwilling_movement() {
    // Content errors name the field: push and pull together are refused.
    let bad = r#"[[monster.powers]]
id = "shove"
name = "Shove"
origin = "melee"
vs = "fortitude"
hit = "1"
push = 2
pull = 1
"#;
    let err = crate::rules::load_encounter(
        "shove.toml",
        &super::tests::arena_src(&OPEN, bad, 5, super::tests::SPREAD),
    )
    .expect_err("push and pull");
    assert!(err.to_string().contains("not more than one"), "{err}");
}

fn skill(actor: &str, action: fray_protocol::command::SkillActionKind, target: &str) -> Command {
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

#[test]
fn a_feint_leaves_the_enemy_off_guard_to_the_feinter_only_feint() {
    // orcus-basic-rules.txt § Feint (encounter): Bluff vs passive Insight; off-guard to you
    // until the end of your next turn.
    use fray_protocol::command::SkillActionKind;
    let src = super::tests::arena_src(
        &OPEN,
        "",
        5,
        "kael = [3, 0]\nlira = [5, 1]\nbrute-1 = [4, 0]\nbrute-2 = [9, 5]",
    )
    .replace("wis = 2", "wis = 2\nskills = { bluff = 40 }");
    let enc = crate::rules::load_encounter("feint.toml", &src).unwrap();
    let mut e = started(&enc, 6);
    let ev = run(&mut e, &skill("kael", SkillActionKind::Feint, "brute-1"));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::CheckRolled { purpose, success: true, .. } if purpose == "feint"
    )));
    assert!(
        cs(&e, "brute-1")
            .effects
            .iter()
            .any(|x| matches!(x.kind, EffectKind::Condition(Condition::Feinted)))
    );
    // Kael's attack gets the off-guard +2 (the feint cost his standard action, so he spends
    // his action point for another).
    run(
        &mut e,
        &Command::Orcus(OrcusCommand::SpendActionPoint {
            actor: cid("kael"),
            action: ActionKind::Standard,
        }),
    );
    let ev = run(&mut e, &super::tests::atk("kael", "sword", &["brute-1"]));
    assert_eq!(rolled(&ev).unwrap().0, 5 + 2);
    run(&mut e, &end("kael"));
    // Lira is not the feinter: no bonus for her (she is not flanking either).
    until(&mut e, "lira");
    let ev = run(&mut e, &super::tests::atk("lira", "dagger", &["brute-1"]));
    assert_eq!(rolled(&ev).unwrap().0, 5);
    // Once per encounter.
    until(&mut e, "kael");
    assert_eq!(
        refuse(&mut e, &skill("kael", SkillActionKind::Feint, "brute-1")),
        ErrorCode::PowerExpended
    );
}

#[test]
fn grant_save_and_rally_ally_help_an_adjacent_ally_grant_save_rally_ally() {
    // orcus-basic-rules.txt § Grant Save (Heal vs 15: a save at once), § Rally Ally (Heal vs
    // 10: the ally rallies without an action).
    use fray_protocol::command::SkillActionKind;
    let glare = r#"[[monster.powers]]
id = "glare"
name = "Glare"
origin = "ranged"
range = [10, 10]
vs = "will"
bonus = 40
hit = "1"
on_hit = [{ condition = "weakened" }]
"#;
    let src = super::tests::arena_src(
        &OPEN,
        glare,
        5,
        "kael = [0, 0]\nlira = [1, 0]\nbrute-1 = [8, 0]\nbrute-2 = [9, 5]",
    )
    .replace(
        "speed = 6\nrecoveries = 1",
        "speed = 6\nrecoveries = 1\nskills = { heal = 40 }",
    );
    let enc = crate::rules::load_encounter("help.toml", &src).unwrap();
    // Nothing to save against yet: refused, nothing changes.
    let mut e = started(&enc, 7);
    until(&mut e, "lira");
    assert_eq!(
        refuse(&mut e, &skill("lira", SkillActionKind::GrantSave, "kael")),
        ErrorCode::InvalidTarget
    );
    assert_eq!(
        refuse(&mut e, &skill("lira", SkillActionKind::GrantSave, "lira")),
        ErrorCode::InvalidTarget,
        "you are not your own ally"
    );
    for seed in 7..40 {
        let mut e = started(&enc, seed);
        until(&mut e, "brute-1");
        run(
            &mut e,
            &Command::Attack {
                actor: cid("brute-1"),
                attack: "glare".into(),
                targets: vec![cid("kael")],
                mode: fray_protocol::command::AttackMode::Standard,
                knock_out: false,
                forced: Vec::new(),
                weapon: None,
                secondary_target: None,
            },
        );
        if !cs(&e, "kael")
            .effects
            .iter()
            .any(|x| matches!(x.kind, EffectKind::Condition(Condition::Weakened)))
        {
            continue;
        }
        until(&mut e, "lira");
        let ev = run(&mut e, &skill("lira", SkillActionKind::GrantSave, "kael"));
        assert!(ev.iter().any(|x| matches!(
            x,
            GameEvent::SaveRolled { combatant, .. } if combatant.as_str() == "kael"
        )));
        run(&mut e, &end("lira"));
        // Rally Ally next turn: Kael rallies without acting.
        until(&mut e, "lira");
        let ev = run(&mut e, &skill("lira", SkillActionKind::RallyAlly, "kael"));
        assert!(ev.iter().any(|x| matches!(
            x,
            GameEvent::Rallied { combatant } if combatant.as_str() == "kael"
        )));
        assert!(cs(&e, "kael").grid.unwrap().rallied);
        return;
    }
    panic!("no glare hit");
}

#[test]
fn weapon_dice_multiply_and_improved_critical_adds_a_weapon_die_weapon_dice() {
    // orcus-basic-rules.txt § Weapon dice ("dW": a 2d8 weapon's 3dW is 6d8) and § Weapon
    // properties, Improved Critical (+1dW on a critical hit at level 1).
    let src = |weapon: &str| {
        super::tests::arena_src(&OPEN, "", 5, super::tests::SPREAD)
            .replace("wis = 2", &format!("wis = 2\nweapon = \"{weapon}\""))
            .replace("hit = \"1d8+2\"", "hit = \"3dW+2\"")
    };
    let enc = crate::rules::load_encounter("w.toml", &src("Dwarven spear-axe")).unwrap();
    let kit = enc
        .combatants
        .iter()
        .find(|c| c.id.as_str() == "kael")
        .unwrap();
    let sword = kit
        .orcus
        .as_ref()
        .unwrap()
        .powers
        .iter()
        .find(|p| p.id == "sword")
        .unwrap();
    assert_eq!(sword.hit.as_deref(), Some("6d8+2"));
    assert_eq!(sword.crit_extra, None, "no Improved Critical");
    let enc = crate::rules::load_encounter("w.toml", &src("warhammer")).unwrap();
    let kit = enc
        .combatants
        .iter()
        .find(|c| c.id.as_str() == "kael")
        .unwrap();
    let sword = kit
        .orcus
        .as_ref()
        .unwrap()
        .powers
        .iter()
        .find(|p| p.id == "sword")
        .unwrap();
    assert_eq!(sword.hit.as_deref(), Some("3d8+2"));
    assert_eq!(sword.crit_extra.as_deref(), Some("1d8"));
    // Without a weapon, dW is refused, naming the field.
    let no_weapon = super::tests::arena_src(&OPEN, "", 5, super::tests::SPREAD)
        .replace("hit = \"1d8+2\"", "hit = \"3dW+2\"");
    let err = crate::rules::load_encounter("w.toml", &no_weapon).expect_err("dW without a weapon");
    assert!(err.to_string().contains("powers[0].hit"), "{err}");
    // A critical hit with the warhammer: maximum damage (3×8+2 = 26) plus a rolled 1d8.
    let enc = crate::rules::load_encounter("w.toml", &src("warhammer")).unwrap();
    for seed in 0..200 {
        let mut e = started(&enc, seed);
        run(
            &mut e,
            &mv(
                "kael",
                &[(1, 0), (2, 0), (3, 0), (4, 0), (5, 0)],
                MoveMode::Walk,
            ),
        );
        run(&mut e, &mv("kael", &[(6, 0), (7, 0)], MoveMode::Walk));
        if current(&e) != "kael" {
            continue;
        }
        run(&mut e, &end("kael"));
        until(&mut e, "kael");
        if current(&e) != "kael" || !cs(&e, "kael").actions.standard {
            continue;
        }
        let ev = run(&mut e, &super::tests::atk("kael", "sword", &["brute-1"]));
        if rolled(&ev).is_some_and(|(_, o)| o == AttackOutcome::Crit) {
            let extra = ev
                .iter()
                .find_map(|x| match x {
                    GameEvent::DamageRolled { roll, .. } => Some(roll.total),
                    _ => None,
                })
                .expect("the Improved Critical die");
            let dealt = ev
                .iter()
                .find_map(|x| match x {
                    GameEvent::Damaged { amount, .. } => Some(*amount),
                    _ => None,
                })
                .expect("damage");
            assert!((1..=8).contains(&extra));
            assert_eq!(dealt, 26 + extra);
            return;
        }
    }
    panic!("no critical hit in 200 seeds");
}

#[test]
fn a_level_21_hero_uses_the_powers_level_21_damage_action_descriptions() {
    // orcus-basic-rules.txt § Universal actions (Basic Attack: "Level 21: 3dW + level damage").
    let src = |level: i32| {
        super::tests::arena_src(&OPEN, "", 5, super::tests::SPREAD)
            .replace("level = 1\nhp = 30", &format!("level = {level}\nhp = 30"))
            .replace("wis = 2", "wis = 2\nweapon = \"longsword\"")
            .replace(
                "hit = \"1d8+2\"",
                "hit = \"2dW+1\"\nlevel21_hit = \"3dW+21\"",
            )
    };
    let sword = |level: i32| {
        let enc = crate::rules::load_encounter("l21.toml", &src(level)).unwrap();
        enc.combatants
            .iter()
            .find(|c| c.id.as_str() == "kael")
            .and_then(|c| c.orcus.as_ref())
            .and_then(|o| o.powers.iter().find(|p| p.id == "sword"))
            .and_then(|p| p.hit.clone())
            .unwrap()
    };
    assert_eq!(sword(20), "2d8+1", "a longsword is 1d8");
    assert_eq!(sword(21), "3d8+21");
}

#[test]
fn a_secondary_attack_follows_a_hit_against_the_same_target_secondary_attacks() {
    // orcus-basic-rules.txt § Secondary attacks: listed under Hit, it takes place only on a
    // hit, with the same range and (unless specified) defense; its own roll and damage.
    let power = r#"[[monster.powers]]
id = "lunge"
name = "Lunge and Rake"
origin = "melee"
vs = "ac"
bonus = 40
hit = "1"
[monster.powers.secondary]
vs = "reflex"
hit = "2"
on_hit = [{ condition = "slowed", duration = "end of your next turn" }]
"#;
    let src = super::tests::arena_src(
        &OPEN,
        power,
        5,
        "kael = [3, 0]\nlira = [0, 5]\nbrute-1 = [4, 0]\nbrute-2 = [9, 5]",
    );
    let enc = crate::rules::load_encounter("lunge.toml", &src).unwrap();
    for seed in 0..20 {
        let mut e = started(&enc, seed);
        until(&mut e, "brute-1");
        let ev = run(
            &mut e,
            &Command::Attack {
                actor: cid("brute-1"),
                attack: "lunge".into(),
                targets: vec![cid("kael")],
                mode: fray_protocol::command::AttackMode::Standard,
                knock_out: false,
                forced: Vec::new(),
                weapon: None,
                secondary_target: None,
            },
        );
        let rolls: Vec<(&str, fray_protocol::event::Defense, AttackOutcome)> = ev
            .iter()
            .filter_map(|x| match x {
                GameEvent::AttackRolled {
                    attack,
                    defense,
                    outcome,
                    ..
                } => Some((attack.as_str(), *defense, *outcome)),
                _ => None,
            })
            .collect();
        if !rolls[0].2.is_hit() {
            assert_eq!(rolls.len(), 1, "no secondary attack after a miss");
            continue;
        }
        assert_eq!(rolls.len(), 2);
        assert_eq!(rolls[1].0, "lunge-secondary");
        assert_eq!(rolls[1].1, fray_protocol::event::Defense::Reflex);
        return;
    }
    panic!("no primary hit");
}

/// The Lunge and Rake arena with a secondary attack against `targets`: Kael the primary
/// target, Lira (his ally) and Brute 2 (the attacker's ally) next to him, the attacker too.
fn rake(targets: &str) -> Encounter {
    let power = format!(
        r#"[[monster.powers]]
id = "lunge"
name = "Lunge and Rake"
origin = "melee"
vs = "ac"
bonus = 40
hit = "1"
[monster.powers.secondary]
targets = "{targets}"
vs = "reflex"
hit = "1d6+2"
"#
    );
    let src = super::tests::arena_src(
        &OPEN,
        &power,
        5,
        "kael = [3, 0]\nlira = [3, 1]\nbrute-1 = [4, 0]\nbrute-2 = [2, 0]",
    );
    crate::rules::load_encounter("rake.toml", &src).unwrap()
}

/// What Brute 1's Lunge and Rake at Kael did: whether the primary hit, the secondary
/// attack's rolls (target, outcome), the damage each creature takes from it, and how many
/// times its damage was rolled.
type Rake = (
    bool,
    Vec<(String, AttackOutcome)>,
    Vec<(String, i32)>,
    usize,
);

fn rake_at_kael(enc: &Encounter, seed: u64) -> Rake {
    let mut e = started(enc, seed);
    until(&mut e, "brute-1");
    let ev = run(
        &mut e,
        &Command::Attack {
            actor: cid("brute-1"),
            attack: "lunge".into(),
            targets: vec![cid("kael")],
            mode: fray_protocol::command::AttackMode::Standard,
            knock_out: false,
            forced: Vec::new(),
            weapon: None,
            secondary_target: None,
        },
    );
    let primary_hit = ev.iter().any(|x| {
        matches!(x, GameEvent::AttackRolled { attack, outcome, .. }
            if attack == "lunge" && outcome.is_hit())
    });
    let rolls = ev
        .iter()
        .filter_map(|x| match x {
            GameEvent::AttackRolled {
                attack,
                target,
                outcome,
                ..
            } if attack == "lunge-secondary" => Some((target.as_str().to_string(), *outcome)),
            _ => None,
        })
        .collect();
    let damage = ev
        .iter()
        .filter_map(|x| match x {
            GameEvent::Damaged {
                target,
                amount,
                cause: fray_protocol::event::DamageCause::Attack { attack, .. },
                ..
            } if attack == "lunge-secondary" => Some((target.as_str().to_string(), *amount)),
            _ => None,
        })
        .collect();
    let damage_rolls = ev
        .iter()
        .filter(
            |x| matches!(x, GameEvent::DamageRolled { attack, .. } if attack == "lunge-secondary"),
        )
        .count();
    (primary_hit, rolls, damage, damage_rolls)
}

#[test]
fn a_secondary_attack_against_the_creatures_adjacent_to_the_primary_target_secondary_attacks() {
    // orcus-basic-rules.txt § Secondary attacks ("unless otherwise specified": here each
    // creature adjacent to the primary target) and § Damage (damage to more than one target
    // at the same time is rolled once): one attack roll per creature next to Kael, never
    // Kael again nor the attacker; one damage roll, the same damage to each creature hit.
    let enc = rake("creatures_adjacent_to_primary");
    for seed in 0..30 {
        let (hit, rolls, damage, damage_rolls) = rake_at_kael(&enc, seed);
        if !hit {
            assert!(rolls.is_empty(), "no secondary attack after a miss");
            continue;
        }
        let who: Vec<&str> = rolls.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            who,
            ["brute-2", "lira"],
            "one roll per adjacent creature, in id order"
        );
        if !rolls.iter().all(|(_, o)| *o == AttackOutcome::Hit) {
            continue;
        }
        assert_eq!(damage_rolls, 1, "the damage is rolled once for both");
        assert_eq!(damage.len(), 2);
        assert_eq!(damage[0].1, damage[1].1, "the same damage to each");
        assert!((3..=8).contains(&damage[0].1));
        // Enemies only: Brute 2 (the attacker's ally) is spared.
        let (_, rolls, _, _) = rake_at_kael(&rake("enemies_adjacent_to_primary"), seed);
        let who: Vec<&str> = rolls.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(who, ["lira"]);
        return;
    }
    panic!("no seed where the primary and both secondary attacks hit");
}

#[test]
fn an_unknown_secondary_target_rule_is_refused_secondary_attacks() {
    // orcus-basic-rules.txt § Secondary attacks: the content names whom it attacks.
    let src = super::tests::arena_src(
        &OPEN,
        "[[monster.powers]]\nid = \"x\"\nname = \"X\"\norigin = \"melee\"\nvs = \"ac\"\nhit = \"1\"\n[monster.powers.secondary]\ntargets = \"everyone\"\nhit = \"1\"\n",
        5,
        "kael = [3, 0]\nlira = [3, 1]\nbrute-1 = [4, 0]\nbrute-2 = [2, 0]",
    );
    let err = crate::rules::load_encounter("bad.toml", &src).unwrap_err();
    assert!(err.to_string().contains("secondary.targets"), "{err}");
}

#[test]
fn ally_target_rules_pick_allies_and_never_the_user_targets() {
    // orcus-basic-rules.txt § Targets: all allies, one ally; "A power that targets an ally or
    // allies does not target you; you are not your own ally."
    let powers = r#"[[monster.powers]]
id = "rally-cry"
name = "Rally Cry"
origin = "near burst"
area = 2
targets = "all allies"
vs = "will"
bonus = 40
hit = "0"
[[monster.powers]]
id = "mend"
name = "Mend"
origin = "ranged"
range = [5, 5]
targets = "one ally"
vs = "will"
bonus = 40
hit = "0"
"#;
    let src = super::tests::arena_src(
        &OPEN,
        powers,
        5,
        "kael = [3, 1]\nlira = [0, 5]\nbrute-1 = [4, 1]\nbrute-2 = [5, 2]",
    );
    let enc = crate::rules::load_encounter("allies.toml", &src).unwrap();
    let mut e = started(&enc, 2);
    until(&mut e, "brute-1");
    let ev = run(
        &mut e,
        &Command::Orcus(OrcusCommand::AreaAttack {
            actor: cid("brute-1"),
            attack: "rally-cry".into(),
            origin: None,
            targets: vec![],
            forced: Vec::new(),
            origin_height: None,
            weapon: None,
            secondary_target: None,
        }),
    );
    let targets: Vec<&str> = ev
        .iter()
        .filter_map(|x| match x {
            GameEvent::AttackRolled { target, .. } => Some(target.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        targets,
        vec!["brute-2"],
        "Kael is an enemy; brute-1 is the user"
    );
    let mend = |target: &str| Command::Attack {
        actor: cid("brute-1"),
        attack: "mend".into(),
        targets: vec![cid(target)],
        mode: fray_protocol::command::AttackMode::Standard,
        knock_out: false,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    };
    assert_eq!(refuse(&mut e, &mend("kael")), ErrorCode::InvalidTarget);
    assert_eq!(refuse(&mut e, &mend("brute-1")), ErrorCode::InvalidTarget);
}

#[test]
fn a_large_creature_in_an_area_is_attacked_once_areas_of_effect() {
    // orcus-basic-rules.txt § Areas of effect: "If a creature that is Large or larger is
    // affected by an area of effect power it is only affected once, even if more than one of
    // its squares is within the area of effect."
    let src = super::tests::arena_src(
        &OPEN,
        "",
        5,
        "kael = [3, 1]\nlira = [0, 5]\nbrute-1 = [4, 1]\nbrute-2 = [8, 4]",
    )
    .replace("role = \"wrecker\"", "role = \"wrecker\"\nsize = \"large\"");
    let enc = crate::rules::load_encounter("large.toml", &src).unwrap();
    let mut e = started(&enc, 3);
    // Kael's near burst 1 covers two of brute-1's four squares.
    let ev = run(
        &mut e,
        &Command::Orcus(OrcusCommand::AreaAttack {
            actor: cid("kael"),
            attack: "burst".into(),
            origin: None,
            targets: vec![],
            forced: Vec::new(),
            origin_height: None,
            weapon: None,
            secondary_target: None,
        }),
    );
    let rolls = ev
        .iter()
        .filter(
            |x| matches!(x, GameEvent::AttackRolled { target, .. } if target.as_str() == "brute-1"),
        )
        .count();
    assert_eq!(rolls, 1);
}

#[test]
fn each_target_uses_a_piece_of_ammunition_attacks_with_ammunition() {
    // orcus-basic-rules.txt § Attacks with ammunition: one piece per attack.
    let src = super::tests::arena_src(&OPEN, "", 40, super::tests::SPREAD)
        .replace("wis = 2", "wis = 2\nammunition = 1")
        .replace(
            "hit = \"1d8\"\n[[hero.powers]]\nid = \"burst\"",
            "hit = \"1d8\"\nammunition = true\n[[hero.powers]]\nid = \"burst\"",
        );
    let enc = crate::rules::load_encounter("ammo.toml", &src).unwrap();
    let mut e = started(&enc, 3);
    assert_eq!(cs(&e, "kael").grid.unwrap().ammunition, Some(1));
    let ev = run(&mut e, &super::tests::atk("kael", "bow", &["brute-1"]));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::Orcus(OrcusEvent::AmmunitionUsed { count: 1, .. })
    )));
    assert_eq!(cs(&e, "kael").grid.unwrap().ammunition, Some(0));
    run(&mut e, &end("kael"));
    until(&mut e, "kael");
    assert_eq!(
        refuse(&mut e, &super::tests::atk("kael", "bow", &["brute-1"])),
        ErrorCode::NoAmmunition
    );
}

/// orcus-basic-rules.txt § Grapple ("Requirements You have one or more hands free"): a hero
/// with a one-handed weapon and a shield has no hand free and is refused `no_free_hand`; with
/// the weapon alone it grapples (the Strength attack is rolled). Monsters' stat blocks say
/// nothing of hands: they may grapple (the brutes do in the other tests).
#[test]
fn a_hero_with_both_hands_full_cannot_grapple_grapple() {
    let positions = "kael = [3, 0]\nlira = [0, 5]\nbrute-1 = [4, 0]\nbrute-2 = [9, 5]";
    let armed = |gear: &str| {
        let src = super::tests::arena_src(&OPEN, "", 5, positions).replacen(
            "ac = 16\n",
            &format!("{gear}\n"),
            1,
        );
        crate::rules::load_encounter("hands.toml", &src).unwrap()
    };
    let grapple = Command::Orcus(OrcusCommand::Grapple {
        actor: cid("kael"),
        target: cid("brute-1"),
    });
    let mut e = started(
        &armed("weapon = \"longsword\"\nshield = \"light shield\""),
        1,
    );
    assert_eq!(refuse(&mut e, &grapple), ErrorCode::NoFreeHand);
    let mut e = started(&armed("weapon = \"longsword\"\nac = 16"), 1);
    let ev = run(&mut e, &grapple);
    assert!(rolled(&ev).is_some(), "{ev:?}");
    // An unarmed hero holds nothing, even with a shield.
    let mut e = started(&armed("weapon = \"unarmed\"\nshield = \"light shield\""), 1);
    assert!(rolled(&run(&mut e, &grapple)).is_some());
}
