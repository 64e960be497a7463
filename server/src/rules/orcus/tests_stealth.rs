//! Hiding (orcus-basic-rules.txt § Stealth, with § Perception and § Passive skills):
//! `stealth.rs`.

use super::tests::{arena_src, atk, end, first_bonus, mv, started, until};
use crate::content::model::Encounter;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, refusal, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::command::SkillActionKind;
use fray_protocol::event::{ActionKind, DiscoveryReason, GameEvent};
use fray_protocol::grid::MoveMode;
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{OrcusCommand, OrcusEvent};

/// A pillar at (2,2): from brute-1 at (0,3), Kael at (4,1) has three-quarters cover with line
/// of effect (the geometry of `grid.rs`'s cover test); brute-2 at (6,4) sees him in the open.
const PILLAR: [&str; 5] = [".......", ".......", "..#....", ".......", "......."];
const BY_PILLAR: &str = "kael = [6, 1]\nlira = [3, 4]\nbrute-1 = [0, 3]\nbrute-2 = [6, 4]";

/// A totally obscured square (3,1) next to brute-1 at (4,1).
const DARK: [&str; 3] = [".......", "...@...", "......."];
const BY_DARK: &str = "kael = [1, 1]\nlira = [0, 2]\nbrute-1 = [4, 1]\nbrute-2 = [6, 2]";

/// The brutes' extra powers: a sling and an eyesight glare.
pub(super) const BRUTE_POWERS: &str = r#"[[monster.powers]]
id = "sling"
name = "Sling"
origin = "ranged"
range = [10, 20]
vs = "ac"
bonus = 4
hit = "1d4"
[[monster.powers]]
id = "glare"
name = "Glare"
origin = "near eyesight"
targets = "all enemies"
vs = "will"
bonus = 4
hit = "1d4"
"#;

/// Kael with Stealth and Bluff modifiers; the brutes trained in Perception and Insight (5:
/// passive 15) when asked (untrained: 0, so passive values of 10).
fn arena(rows: &[&str], positions: &str, stealth: i32, bluff: i32, trained: bool) -> Encounter {
    let mut src = arena_src(rows, BRUTE_POWERS, 5, positions).replace(
        "wis = 2",
        &format!("wis = 2\nskills = {{ stealth = {stealth}, bluff = {bluff} }}"),
    );
    if trained {
        src = src.replace(
            "dex = 0",
            "dex = 0\ntrained = [\"perception\", \"insight\"]",
        );
    }
    load_encounter("stealth.toml", &src).unwrap()
}

fn hide_mv(actor: &str, path: &[(i32, i32)], mode: MoveMode) -> Command {
    moving(true, actor, path, mode)
}

/// A `move_to`, hiding at its end or not.
fn moving(hiding: bool, actor: &str, path: &[(i32, i32)], mode: MoveMode) -> Command {
    let mut c = mv(actor, path, mode);
    if let Command::Orcus(OrcusCommand::MoveTo { hide, .. }) = &mut c {
        *hide = hiding;
    }
    c
}

/// (penalty, total, hidden from, seen by) of each hide check among `ev`.
type Check = (i32, i32, Vec<String>, Vec<String>);

fn hide_checks(ev: &[GameEvent]) -> Vec<Check> {
    let names = |v: &[fray_protocol::CombatantId]| v.iter().map(|c| c.to_string()).collect();
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::Orcus(OrcusEvent::HideChecked {
                penalty,
                total,
                hidden_from,
                seen_by,
                ..
            }) => Some((*penalty, *total, names(hidden_from), names(seen_by))),
            _ => None,
        })
        .collect()
}

fn discoveries(ev: &[GameEvent]) -> Vec<(String, Vec<String>, DiscoveryReason)> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::Orcus(OrcusEvent::Discovered {
                combatant,
                by,
                reason,
            }) => Some((
                combatant.to_string(),
                by.iter().map(|c| c.to_string()).collect(),
                *reason,
            )),
            _ => None,
        })
        .collect()
}

fn hidden_from(e: &Engine, who: &str) -> Vec<String> {
    cs(e, who)
        .grid
        .expect("grid")
        .hidden_from
        .iter()
        .map(|c| c.to_string())
        .collect()
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

fn skill(actor: &str, action: SkillActionKind, hide: bool) -> Command {
    Command::Orcus(OrcusCommand::SkillAction {
        actor: cid(actor),
        action,
        target: cid(actor),
        effect: None,
        forbid: None,
        foreign: false,
        hide,
    })
}

fn area(actor: &str, attack: &str) -> Command {
    Command::Orcus(OrcusCommand::AreaAttack {
        actor: cid(actor),
        attack: attack.into(),
        origin: None,
        targets: vec![],
        forced: Vec::new(),
        origin_height: None,
        weapon: None,
        secondary_target: None,
    })
}

fn extra(e: &mut Engine, who: &str, action: ActionKind) {
    run(
        e,
        &Command::Orcus(OrcusCommand::SpendActionPoint {
            actor: cid(who),
            action,
        }),
    );
}

/// orcus-basic-rules.txt § Stealth: "You can hide at the end of any action where you moved,
/// provided you are in three-quarters cover or total concealment"; the Stealth check is opposed
/// by the passive Perception (§ Passive skills: 10 + Perception, the DC) "of any enemy that can
/// sense you"; Movement: −5 after 3 squares or more, −10 after a Run.
#[test]
fn hiding_at_the_end_of_a_move_beats_each_enemys_passive_perception_stealth() {
    let enc = arena(&PILLAR, BY_PILLAR, 40, 0, false);
    for (path, mode, penalty) in [
        (&[(5, 1), (4, 1)][..], MoveMode::Walk, 0),
        (&[(6, 0), (5, 0), (4, 1)][..], MoveMode::Walk, -5),
        (&[(5, 1), (4, 1)][..], MoveMode::Run, -10),
    ] {
        let mut e = started(&enc, 3);
        let ev = run(&mut e, &hide_mv("kael", path, mode));
        let checks = hide_checks(&ev);
        assert_eq!(checks.len(), 1, "{ev:?}");
        let (p, total, from, seen) = &checks[0];
        assert_eq!(*p, penalty, "{mode:?} over {} squares", path.len());
        assert!(*total >= 40 + 1 + penalty);
        // Three-quarters cover from brute-1 behind the pillar; brute-2 sees Kael in the open
        // whatever the roll.
        assert_eq!(from, &strs(&["brute-1"]));
        assert_eq!(seen, &strs(&["brute-2"]));
        assert_eq!(hidden_from(&e, "kael"), strs(&["brute-1"]));
        assert_eq!(cs(&e, "kael").grid.unwrap().stealth, Some(*total));
    }
}

/// orcus-basic-rules.txt § Stealth: a Stealth check that does not meet an enemy's passive
/// Perception leaves Kael seen by it.
#[test]
fn a_stealth_check_below_passive_perception_hides_nothing_stealth() {
    // −10 + d20 never meets a passive Perception of 15.
    let enc = arena(&PILLAR, BY_PILLAR, -10, 0, true);
    let mut e = started(&enc, 3);
    let ev = run(&mut e, &hide_mv("kael", &[(5, 1), (4, 1)], MoveMode::Walk));
    let checks = hide_checks(&ev);
    assert_eq!(checks.len(), 1);
    assert!(checks[0].2.is_empty());
    assert_eq!(checks[0].3, strs(&["brute-1", "brute-2"]));
    assert!(hidden_from(&e, "kael").is_empty());
    assert_eq!(cs(&e, "kael").grid.unwrap().stealth, None);
}

/// orcus-basic-rules.txt § Stealth: "provided you are in three-quarters cover or total
/// concealment" — a move ending in the open with `hide` is refused before any die, and
/// changes nothing.
#[test]
fn hiding_in_the_open_is_refused_before_the_move_stealth() {
    let enc = arena(&PILLAR, BY_PILLAR, 40, 0, false);
    let mut e = started(&enc, 3);
    let r = refusal(&mut e, &hide_mv("kael", &[(6, 2), (6, 3)], MoveMode::Walk));
    assert_eq!(r.code, ErrorCode::NoCover, "{r}");
    assert!(r.message.contains("three-quarters cover"), "{r}");
    // Without `hide` the same move is legal.
    run(&mut e, &mv("kael", &[(6, 2), (6, 3)], MoveMode::Walk));
}

/// orcus-basic-rules.txt § Stealth ("silent and invisible against those enemies"), §
/// Concealment ("An invisible target also has total concealment": −5 to melee and ranged
/// attacks), § Off-guard ("Attackers that can see an off-guard creature receive a +2 bonus"):
/// brute-1's sling against Kael hidden after a Run (off-guard) loses the +2 and takes −5.
#[test]
fn attacks_against_a_hidden_creature_take_total_concealment_and_no_off_guard_bonus_stealth() {
    let enc = arena(&PILLAR, BY_PILLAR, 40, 0, false);
    let mut bonus = Vec::new();
    for hide in [false, true] {
        let mut e = started(&enc, 3);
        let path = [(5, 1), (4, 1)];
        let cmd = moving(hide, "kael", &path, MoveMode::Run);
        run(&mut e, &cmd);
        until(&mut e, "brute-1");
        let ev = run(&mut e, &atk("brute-1", "sling", &["kael"]));
        bonus.push(first_bonus(&ev));
        // Being attacked does not end the hiding.
        assert_eq!(hidden_from(&e, "kael").is_empty(), !hide);
    }
    assert_eq!(bonus[1], bonus[0] - 2 - 5, "{bonus:?}");
}

/// orcus-basic-rules.txt § Stealth: the hidden creature is invisible to brute-1, which is
/// therefore off-guard to it (interpretation, as a blinded creature is off-guard: +2); "you do
/// not make an attack" — its hiding ends at the end of the attack (§ Effects of Hidden).
#[test]
fn a_hidden_attacker_has_the_target_off_guard_and_its_attack_ends_the_hiding_stealth() {
    let enc = arena(&PILLAR, BY_PILLAR, 40, 0, false);
    let mut bonus = Vec::new();
    for hide in [false, true] {
        let mut e = started(&enc, 3);
        let path = [(5, 1), (4, 1)];
        let cmd = moving(hide, "kael", &path, MoveMode::Walk);
        run(&mut e, &cmd);
        let ev = run(&mut e, &atk("kael", "bow", &["brute-1"]));
        bonus.push(first_bonus(&ev));
        if hide {
            assert_eq!(
                discoveries(&ev),
                vec![(
                    "kael".to_owned(),
                    strs(&["brute-1"]),
                    DiscoveryReason::Attacked
                )]
            );
        }
        assert!(hidden_from(&e, "kael").is_empty());
    }
    assert_eq!(bonus[1], bonus[0] + 2, "{bonus:?}");
}

/// orcus-basic-rules.txt § Stealth: "While hidden, if you move 3 squares or more, you must make
/// another Stealth check vs passive Perception score with a -5 penalty"; shorter moves keep
/// the hiding without a check.
#[test]
fn moving_three_squares_while_hidden_makes_another_check_stealth() {
    let enc = arena(&PILLAR, BY_PILLAR, 40, 0, false);
    let mut e = started(&enc, 3);
    run(&mut e, &hide_mv("kael", &[(5, 1), (4, 1)], MoveMode::Walk));
    // Two squares (the standard action paying for a move): no check, still hidden.
    let ev = run(&mut e, &mv("kael", &[(5, 1), (4, 1)], MoveMode::Walk));
    assert!(hide_checks(&ev).is_empty(), "{ev:?}");
    assert_eq!(hidden_from(&e, "kael"), strs(&["brute-1"]));
    // Three squares: a new check at −5, against the enemies it is hidden from only.
    extra(&mut e, "kael", ActionKind::Move);
    let ev = run(
        &mut e,
        &mv("kael", &[(5, 1), (5, 0), (4, 1)], MoveMode::Walk),
    );
    let checks = hide_checks(&ev);
    assert_eq!(checks.len(), 1, "{ev:?}");
    assert_eq!(checks[0].0, -5);
    assert_eq!(checks[0].2, strs(&["brute-1"]));
    assert!(checks[0].3.is_empty());
    assert_eq!(
        cs(&e, "kael").grid.unwrap().stealth,
        Some(checks[0].1),
        "the new total is the one searches contest"
    );
}

/// orcus-basic-rules.txt § Stealth: the hider stays hidden only while it stays "in
/// three-quarters cover/total concealment" — brute-1 walking to where the pillar no longer
/// covers Kael perceives him (brute-1 only).
#[test]
fn an_enemy_that_gets_a_clear_view_discovers_the_hider_stealth() {
    let enc = arena(&PILLAR, BY_PILLAR, 40, 0, false);
    let mut e = started(&enc, 3);
    run(&mut e, &hide_mv("kael", &[(5, 1), (4, 1)], MoveMode::Walk));
    until(&mut e, "brute-1");
    let ev = run(&mut e, &mv("brute-1", &[(0, 2), (0, 1)], MoveMode::Walk));
    assert_eq!(
        discoveries(&ev),
        vec![(
            "kael".to_owned(),
            strs(&["brute-1"]),
            DiscoveryReason::Exposed
        )]
    );
    assert!(hidden_from(&e, "kael").is_empty());
}

/// orcus-basic-rules.txt § Stealth: the check's total "is contested by the Perception check of
/// any creature that actively searches on its turn for signs of your presence (does not
/// require an action …)"; § Perception. Fray: once per turn, on the searcher's turn.
#[test]
fn an_active_search_meets_the_stealth_total_once_per_turn_stealth() {
    // Kael's Stealth 10 against a passive Perception of 15; brute-1's search is d20 + 5.
    let enc = arena(&PILLAR, BY_PILLAR, 10, 0, true);
    let (mut found, mut missed) = (false, false);
    for seed in 0..80 {
        let mut e = started(&enc, seed);
        let ev = run(&mut e, &hide_mv("kael", &[(5, 1), (4, 1)], MoveMode::Walk));
        let Some((_, stealth, from, _)) = hide_checks(&ev).pop() else {
            panic!("no hide check");
        };
        if from.is_empty() {
            assert!(stealth < 15);
            continue;
        }
        assert!(stealth >= 15);
        until(&mut e, "brute-1");
        assert_eq!(
            refuse(
                &mut e,
                &Command::Orcus(OrcusCommand::Search { actor: cid("kael") })
            ),
            ErrorCode::NotYourTurn
        );
        let ev = run(
            &mut e,
            &Command::Orcus(OrcusCommand::Search {
                actor: cid("brute-1"),
            }),
        );
        let (total, hit) = ev
            .iter()
            .find_map(|x| match x {
                GameEvent::Orcus(OrcusEvent::Searched { total, found, .. }) => {
                    Some((*total, found.clone()))
                }
                _ => None,
            })
            .expect("a search");
        assert_eq!(hit.contains(&cid("kael")), total >= stealth, "{ev:?}");
        if total >= stealth {
            found = true;
            assert_eq!(
                discoveries(&ev),
                vec![(
                    "kael".to_owned(),
                    strs(&["brute-1"]),
                    DiscoveryReason::Searched
                )]
            );
            assert!(hidden_from(&e, "kael").is_empty());
        } else {
            missed = true;
            assert_eq!(hidden_from(&e, "kael"), strs(&["brute-1"]));
        }
        // It took no action, and there is one search per turn.
        assert!(cs(&e, "brute-1").actions.standard);
        assert_eq!(
            refuse(
                &mut e,
                &Command::Orcus(OrcusCommand::Search {
                    actor: cid("brute-1")
                })
            ),
            ErrorCode::AlreadySearched
        );
        if found && missed {
            return;
        }
    }
    panic!("found: {found}, missed: {missed}");
}

/// orcus-basic-rules.txt § Stealth: hidden "provided you … do not make excessive noise" — the
/// GM's call (`reveal`).
#[test]
fn the_gm_reveals_a_noisy_hider_stealth() {
    let enc = arena(&PILLAR, BY_PILLAR, 40, 0, false);
    let mut e = started(&enc, 3);
    run(&mut e, &hide_mv("kael", &[(5, 1), (4, 1)], MoveMode::Walk));
    let reveal = Command::Reveal {
        combatant: cid("kael"),
    };
    let ev = run(&mut e, &reveal);
    assert_eq!(
        discoveries(&ev),
        vec![(
            "kael".to_owned(),
            strs(&["brute-1"]),
            DiscoveryReason::Revealed
        )]
    );
    assert_eq!(refuse(&mut e, &reveal), ErrorCode::InvalidTarget);
}

/// orcus-basic-rules.txt § Stealth ("silent and invisible"), § Opportunity attacks ("an
/// adjacent hostile creature that you can see moves …"): Kael hidden in darkness next to brute-1 walks away without
/// an opportunity attack — then, out of the darkness, is discovered.
#[test]
fn a_hidden_creature_leaves_adjacency_without_an_opportunity_attack_stealth() {
    let enc = arena(&DARK, BY_DARK, 40, 0, false);
    for hide in [false, true] {
        let mut e = started(&enc, 3);
        let path = [(2, 1), (3, 1)];
        let cmd = moving(hide, "kael", &path, MoveMode::Walk);
        let ev = run(&mut e, &cmd);
        if hide {
            // Totally obscured: total concealment from both brutes.
            assert_eq!(hide_checks(&ev)[0].2, strs(&["brute-1", "brute-2"]));
        }
        let ev = run(&mut e, &mv("kael", &[(2, 1), (1, 1)], MoveMode::Walk));
        let provoked = ev
            .iter()
            .any(|x| matches!(x, GameEvent::OpportunityTaken { .. }));
        assert_eq!(provoked, !hide, "{ev:?}");
        if hide {
            assert_eq!(
                discoveries(&ev),
                vec![(
                    "kael".to_owned(),
                    strs(&["brute-1", "brute-2"]),
                    DiscoveryReason::Exposed
                )]
            );
        }
    }
}

/// orcus-basic-rules.txt § Stealth ("invisible against those enemies"), § Areas of effect
/// (eyesight: the creatures the user can see): brute-1's eyesight glare leaves out the hidden
/// Kael.
#[test]
fn a_hidden_creature_is_not_in_an_enemys_eyesight_stealth() {
    let enc = arena(&DARK, BY_DARK, 40, 0, false);
    for hide in [false, true] {
        let mut e = started(&enc, 3);
        let path = [(2, 1), (3, 1)];
        let cmd = moving(hide, "kael", &path, MoveMode::Walk);
        run(&mut e, &cmd);
        until(&mut e, "brute-1");
        let ev = run(&mut e, &area("brute-1", "glare"));
        let mut targets: Vec<String> = ev
            .iter()
            .filter_map(|x| match x {
                GameEvent::AttackRolled { target, .. } => Some(target.to_string()),
                _ => None,
            })
            .collect();
        targets.sort();
        let want: &[&str] = if hide { &["lira"] } else { &["kael", "lira"] };
        assert_eq!(targets, strs(want));
    }
}

/// orcus-basic-rules.txt § Create Diversion ("Success You have the momentary diversion you need
/// to attempt a Stealth check while people are aware of you"), § Stealth: Kael hides in the
/// darkness without moving; an enemy the Bluff did not divert keeps seeing him; in the open the
/// hide is refused before any die; `hide` goes with Create Diversion only.
#[test]
fn create_diversion_lets_the_actor_hide_without_moving_stealth() {
    let at_dark = "kael = [3, 1]\nlira = [0, 2]\nbrute-1 = [5, 0]\nbrute-2 = [6, 2]";
    // Bluff −10 + d20 never meets a passive Insight of 15.
    for (bluff, hidden) in [(40, vec!["brute-1", "brute-2"]), (-10, vec![])] {
        let enc = arena(&DARK, at_dark, 40, bluff, true);
        let mut e = started(&enc, 3);
        let ev = run(
            &mut e,
            &skill("kael", SkillActionKind::CreateDiversion, true),
        );
        let checks = hide_checks(&ev);
        assert_eq!(checks.len(), 1, "{ev:?}");
        assert_eq!(checks[0].0, 0, "no movement, no penalty");
        assert_eq!(checks[0].2, strs(&hidden));
        assert_eq!(hidden_from(&e, "kael"), strs(&hidden));
    }
    let in_the_open = "kael = [1, 1]\nlira = [0, 2]\nbrute-1 = [5, 0]\nbrute-2 = [6, 2]";
    let mut e = started(&arena(&DARK, in_the_open, 40, 40, false), 3);
    assert_eq!(
        refuse(
            &mut e,
            &skill("kael", SkillActionKind::CreateDiversion, true)
        ),
        ErrorCode::NoCover
    );
    assert_eq!(
        refuse(&mut e, &skill("kael", SkillActionKind::Feint, true)),
        ErrorCode::InvalidArgument
    );
    // Five Torches Deep's `hide` is not an Orcus command: the refusal says where hiding is.
    let r = refusal(&mut e, &Command::Hide { actor: cid("kael") });
    assert!(r.message.contains("move_to"), "{r}");
    run(&mut e, &end("kael"));
}
