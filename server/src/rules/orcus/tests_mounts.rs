//! Orcus mounted combat (orcus-basic-rules.txt § Mounted combat: § Mounting and dismounting,
//! § Controlling a mount).

use super::tests::{arena_src, atk, end, mv, square, started, until};
use crate::content::model::Encounter;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, current, refuse, run};
use fray_protocol::event::{ActionKind, Condition, EffectKind, GameEvent, SavePurpose};
use fray_protocol::grid::{MoveMode, Square};
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{OrcusCommand, OrcusEvent};

/// Kael next to Lira, who is here a large horse-like hero with `lira_extra` (e.g. its `mount`).
fn stable(lira_extra: &str, positions: &str, monster_powers: &str) -> Encounter {
    let src = arena_src(
        &[
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
        ],
        monster_powers,
        5,
        positions,
    )
    .replace(
        "recoveries = 1\n",
        &format!("recoveries = 1\n{lira_extra}\n"),
    );
    crate::rules::load_encounter("stable.toml", &src).unwrap()
}

const HORSE: &str = "size = \"large\"\nmount = \"trained\"";
const AT_THE_HORSE: &str = "kael = [0, 3]\nlira = [1, 3]\nbrute-1 = [8, 0]\nbrute-2 = [8, 5]";

fn mount(actor: &str, m: &str, control: bool) -> Command {
    Command::Orcus(OrcusCommand::Mount {
        actor: cid(actor),
        mount: cid(m),
        control,
    })
}

fn command(actor: &str, action: ActionKind) -> Command {
    Command::Orcus(OrcusCommand::CommandMount {
        actor: cid(actor),
        action,
    })
}

fn rides(e: &Engine, id: &str) -> Option<String> {
    cs(e, id)
        .grid
        .and_then(|g| g.mounted_on.map(|m| m.as_str().to_owned()))
}

fn prone(e: &Engine, id: &str) -> bool {
    cs(e, id)
        .effects
        .iter()
        .any(|x| x.kind == EffectKind::Condition(Condition::Prone))
}

#[test]
fn mounting_is_a_move_action_and_the_rider_moves_with_its_mount_mounting_and_dismounting() {
    // orcus-basic-rules.txt § Mounting and dismounting: mount an adjacent creature or dismount
    // into an adjacent unoccupied space, a move action each; § Controlling a mount: the rider
    // gives up actions for the mount to take them.
    let enc = stable(HORSE, AT_THE_HORSE, "");
    let mut e = started(&enc, 1);
    assert_eq!(
        refuse(&mut e, &mount("kael", "brute-1", false)),
        ErrorCode::NotAMount
    );
    assert_eq!(
        refuse(&mut e, &command("kael", ActionKind::Move)),
        ErrorCode::NotMounted
    );
    let ev = run(&mut e, &mount("kael", "lira", true));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::ActionUsed {
            action: ActionKind::Move,
            ..
        }
    )));
    assert_eq!(rides(&e, "kael").as_deref(), Some("lira"));
    assert_eq!(square(&e, "kael"), Square::new(1, 3));
    assert_eq!(
        refuse(&mut e, &mount("kael", "lira", true)),
        ErrorCode::AlreadyMounted
    );
    // A rider does not walk on its own: the mount moves.
    assert_eq!(
        refuse(&mut e, &mv("kael", &[(0, 2)], MoveMode::Walk)),
        ErrorCode::Mounted
    );
    // The mount acts only with what the rider gives up.
    assert_eq!(
        refuse(&mut e, &mv("lira", &[(2, 2)], MoveMode::Walk)),
        ErrorCode::NotYourTurn
    );
    run(&mut e, &command("kael", ActionKind::Standard));
    // The commanded mount acts within the rider's turn: it cannot end it.
    assert_eq!(refuse(&mut e, &end("lira")), ErrorCode::NotYourTurn);
    run(&mut e, &mv("lira", &[(2, 2), (3, 2)], MoveMode::Walk));
    assert_eq!(square(&e, "lira"), Square::new(3, 2));
    assert_eq!(
        square(&e, "kael"),
        Square::new(3, 2),
        "the rider moves with it"
    );
    // Both move actions are spent: no dismounting this turn.
    assert_eq!(
        refuse(
            &mut e,
            &Command::Orcus(OrcusCommand::Dismount {
                actor: cid("kael"),
                to: Square::new(2, 2)
            })
        ),
        ErrorCode::ActionAlreadyUsed
    );
    // A controlled mount's own turns end at once (its initiative is the rider's).
    let mut ev = run(&mut e, &end("kael"));
    ev.extend(until(&mut e, "kael"));
    let started = ev.iter().position(
        |x| matches!(x, GameEvent::TurnStarted { combatant, .. } if combatant.as_str() == "lira"),
    );
    let ended = ev.iter().position(
        |x| matches!(x, GameEvent::TurnEnded { combatant } if combatant.as_str() == "lira"),
    );
    assert!(started.is_some() && ended.is_some(), "{ev:?}");
    assert_eq!(current(&e), "kael");
    // Dismount into an adjacent free square (not a far one).
    let far = Command::Orcus(OrcusCommand::Dismount {
        actor: cid("kael"),
        to: Square::new(7, 2),
    });
    assert_eq!(refuse(&mut e, &far), ErrorCode::IllegalPath);
    run(
        &mut e,
        &Command::Orcus(OrcusCommand::Dismount {
            actor: cid("kael"),
            to: Square::new(2, 2),
        }),
    );
    assert_eq!(rides(&e, "kael"), None);
    assert_eq!(square(&e, "kael"), Square::new(2, 2));
}

#[test]
fn a_mount_is_larger_and_only_a_trained_one_is_controlled_controlling_a_mount() {
    // orcus-basic-rules.txt § Mounted combat: a mount is at least one size larger; § Controlling
    // a mount: only a mount trained to accept a rider can be controlled, others act
    // independently on their own turns.
    let small = stable(
        "mount = \"trained\"",
        "kael = [0, 3]\nlira = [1, 3]\nbrute-1 = [8, 0]\nbrute-2 = [8, 5]",
        "",
    );
    let mut e = started(&small, 1);
    assert_eq!(
        refuse(&mut e, &mount("kael", "lira", false)),
        ErrorCode::MountTooSmall
    );
    let wild = stable("size = \"large\"\nmount = \"untrained\"", AT_THE_HORSE, "");
    let mut e = started(&wild, 1);
    assert_eq!(
        refuse(&mut e, &mount("kael", "lira", true)),
        ErrorCode::MountNotControlled
    );
    run(&mut e, &mount("kael", "lira", false));
    assert_eq!(
        refuse(&mut e, &command("kael", ActionKind::Standard)),
        ErrorCode::MountNotControlled
    );
    // The independent mount keeps its own turn and carries the rider along.
    until(&mut e, "lira");
    run(&mut e, &mv("lira", &[(2, 2)], MoveMode::Walk));
    assert_eq!(square(&e, "kael"), Square::new(2, 2));
}

#[test]
fn a_mount_that_provokes_exposes_the_one_with_the_lower_ac_controlling_a_mount() {
    // orcus-basic-rules.txt § Controlling a mount: when the mount provokes an opportunity
    // attack, the attacker can target the rider or the mount (Fray: the lower AC, Lira's 15
    // against Kael's 16 — interpretation).
    let enc = stable(
        HORSE,
        "kael = [0, 3]\nlira = [1, 3]\nbrute-1 = [3, 3]\nbrute-2 = [8, 0]",
        "",
    );
    let mut e = started(&enc, 1);
    run(&mut e, &mount("kael", "lira", true));
    run(&mut e, &command("kael", ActionKind::Standard));
    let ev = run(&mut e, &mv("lira", &[(0, 2), (0, 1)], MoveMode::Walk));
    let target = ev.iter().find_map(|x| match x {
        GameEvent::OpportunityTaken { target, .. } => Some(target.as_str().to_owned()),
        _ => None,
    });
    assert_eq!(target.as_deref(), Some("lira"), "{ev:?}");
}

const TRIP: &str = r#"[[monster.powers]]
id = "trip"
name = "Trip"
origin = "melee"
vs = "ac"
bonus = 40
hit = "1"
on_hit = [{ condition = "prone" }]
"#;

#[test]
fn a_rider_knocked_prone_saves_or_falls_off_mounting_and_dismounting() {
    // orcus-basic-rules.txt § Mounting and dismounting: a rider knocked prone saves at once; a
    // failure dismounts it prone within 1 square, a success keeps it mounted and standing.
    let mut saw = [false, false];
    for seed in 1..40 {
        let enc = stable(
            HORSE,
            "kael = [0, 3]\nlira = [1, 3]\nbrute-1 = [3, 3]\nbrute-2 = [8, 0]",
            TRIP,
        );
        let mut e = started(&enc, seed);
        run(&mut e, &mount("kael", "lira", true));
        run(&mut e, &end("kael"));
        until(&mut e, "brute-1");
        let ev = run(&mut e, &atk("brute-1", "trip", &["kael"]));
        let saved = ev.iter().find_map(|x| match x {
            GameEvent::SaveRolled {
                purpose: SavePurpose::Dismount,
                success,
                ..
            } => Some(*success),
            _ => None,
        });
        let Some(saved) = saved else {
            panic!("no dismount save: {ev:?}");
        };
        if saved {
            assert_eq!(rides(&e, "kael").as_deref(), Some("lira"));
            assert!(!prone(&e, "kael"));
        } else {
            assert_eq!(rides(&e, "kael"), None);
            assert!(prone(&e, "kael"));
            let at = square(&e, "kael");
            assert!(at != Square::new(1, 3) && (0..=3).contains(&at.x) && (2..=5).contains(&at.y));
        }
        saw[usize::from(saved)] = true;
        if saw == [true, true] {
            return;
        }
    }
    panic!("both outcomes expected over the seeds: {saw:?}");
}

#[test]
fn a_mount_knocked_prone_throws_its_rider_mounting_and_dismounting() {
    // orcus-basic-rules.txt § Mounting and dismounting: if the mount is knocked prone, the
    // rider is dismounted and lands within 1 square (no save).
    let enc = stable(
        HORSE,
        "kael = [0, 3]\nlira = [1, 3]\nbrute-1 = [3, 3]\nbrute-2 = [8, 0]",
        TRIP,
    );
    let mut e = started(&enc, 3);
    run(&mut e, &mount("kael", "lira", true));
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    let ev = run(&mut e, &atk("brute-1", "trip", &["lira"]));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::Orcus(OrcusEvent::Dismounted { rider, .. }) if rider.as_str() == "kael"))
    );
    assert!(!ev.iter().any(|x| matches!(x, GameEvent::SaveRolled { .. })));
    assert_eq!(rides(&e, "kael"), None);
    assert!(prone(&e, "lira") && !prone(&e, "kael"));
    // North-west first: (0, 2) is the first free square around the horse.
    assert_eq!(square(&e, "kael"), Square::new(0, 2));
}

#[test]
fn a_mount_kind_must_be_known_mounted_combat() {
    // orcus-basic-rules.txt § Mounted combat: `mount` is trained, untrained or intelligent.
    let src = arena_src(
        &[".........."],
        "",
        5,
        "kael = [0, 0]\nlira = [1, 0]\nbrute-1 = [8, 0]\nbrute-2 = [9, 0]",
    )
    .replace("recoveries = 1\n", "recoveries = 1\nmount = \"tame\"\n");
    assert!(crate::rules::load_encounter("bad.toml", &src).is_err());
}

#[test]
fn a_rider_moved_against_its_will_falls_off_and_is_moved_mounting_and_dismounting() {
    // orcus-basic-rules.txt § Mounting and dismounting: a rider moved against its will may fall
    // off and be moved (Fray's choice for the rider, an interpretation); its mount stays.
    let shove = r#"[[monster.powers]]
id = "shove"
name = "Shove"
origin = "melee"
vs = "ac"
bonus = 40
hit = "1"
push = 2
"#;
    let enc = stable(
        HORSE,
        "kael = [0, 3]\nlira = [4, 3]\nbrute-1 = [6, 3]\nbrute-2 = [9, 0]",
        shove,
    );
    let mut e = started(&enc, 1);
    run(
        &mut e,
        &mv("kael", &[(1, 3), (2, 3), (3, 3)], MoveMode::Walk),
    );
    run(&mut e, &mount("kael", "lira", true));
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    let ev = run(&mut e, &atk("brute-1", "shove", &["kael"]));
    let pushed_to = ev.iter().find_map(|x| match x {
        GameEvent::Orcus(OrcusEvent::GridMoved {
            combatant,
            path,
            mode: MoveMode::Unwilling,
            ..
        }) if combatant.as_str() == "kael" => path.last().copied(),
        _ => None,
    });
    let pushed_to = pushed_to.expect("kael is pushed");
    assert!(ev.iter().any(|x| matches!(x,
        GameEvent::Orcus(OrcusEvent::Dismounted { rider, square, .. }) if rider.as_str() == "kael" && *square == pushed_to)));
    assert_eq!(rides(&e, "kael"), None);
    assert_eq!(square(&e, "kael"), pushed_to);
    assert_eq!(square(&e, "lira"), Square::new(4, 3), "the mount stays");
}

#[test]
fn a_controlled_mount_attacks_by_its_riders_immediate_action_controlling_a_mount() {
    // orcus-basic-rules.txt § Controlling a mount: the rider uses an immediate action for the
    // controlled mount to make an opportunity attack (Fray spends it automatically).
    let enc = stable(
        &format!(
            "{HORSE}\n[[hero.powers]]\nid = \"kick\"\nname = \"Kick\"\norigin = \"melee\"\nvs = \"ac\"\nbonus = 5\nhit = \"1d6\"\nbasic = true"
        ),
        "kael = [0, 3]\nlira = [1, 3]\nbrute-1 = [3, 3]\nbrute-2 = [3, 4]",
        "",
    );
    let mut e = started(&enc, 1);
    run(&mut e, &mount("kael", "lira", true));
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    // Brute 1 walks away from the horse and its rider: Kael's sword and Lira's kick could
    // both answer; the horse's costs Kael's immediate action.
    let ev = run(&mut e, &mv("brute-1", &[(4, 3), (5, 3)], MoveMode::Walk));
    let takers: Vec<&str> = ev
        .iter()
        .filter_map(|x| match x {
            GameEvent::OpportunityTaken { attacker, .. } => Some(attacker.as_str()),
            _ => None,
        })
        .collect();
    assert!(takers.contains(&"lira"), "{ev:?}");
    assert!(ev.iter().any(|x| matches!(x,
        GameEvent::InterruptUsed { combatant } if combatant.as_str() == "kael")));
    assert!(cs(&e, "kael").grid.unwrap().immediate_used);
    // Brute 2 leaves too: the rider's immediate action is spent, so the horse does not attack.
    until(&mut e, "brute-2");
    let ev = run(&mut e, &mv("brute-2", &[(4, 4), (5, 4)], MoveMode::Walk));
    assert!(
        !ev.iter().any(|x| matches!(x,
        GameEvent::OpportunityTaken { attacker, .. } if attacker.as_str() == "lira")),
        "{ev:?}"
    );
}

#[test]
fn a_mount_that_drops_throws_its_rider_mounting_and_dismounting() {
    // orcus-basic-rules.txt § Mounting and dismounting (a mount knocked prone throws its rider);
    // interpretation: a mount that drops unconscious falls prone, so its rider lands within
    // 1 square too.
    let enc = stable(
        HORSE,
        "kael = [0, 3]\nlira = [1, 3]\nbrute-1 = [3, 3]\nbrute-2 = [8, 0]",
        &super::tests::smash(100),
    );
    let mut e = started(&enc, 1);
    run(&mut e, &mount("kael", "lira", true));
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    let ev = run(&mut e, &atk("brute-1", "smash", &["lira"]));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::Orcus(OrcusEvent::Dismounted { rider, .. }) if rider.as_str() == "kael")),
        "{ev:?}"
    );
    assert_eq!(rides(&e, "kael"), None);
    assert_eq!(square(&e, "kael"), Square::new(0, 2));
}

#[test]
fn a_controlled_mount_uses_a_reaction_by_its_riders_immediate_action_controlling_a_mount() {
    // orcus-basic-rules.txt § Controlling a mount: "You can also use an immediate action in
    // order for the mount to make an opportunity attack or use a counter or reaction"; an
    // independent mount uses its own (§ Immediate actions: one between one's turns).
    let buck = format!(
        "{HORSE}\n[[hero.powers]]\nid = \"buck\"\nname = \"Buck\"\naction = \"immediate reaction\"\ntrigger = \"an enemy hits the rider\"\norigin = \"melee\"\nvs = \"ac\"\nbonus = 5\nhit = \"1d6\""
    );
    let near = "kael = [0, 3]\nlira = [1, 3]\nbrute-1 = [3, 3]\nbrute-2 = [8, 0]";
    let kick = |actor: &str| Command::Attack {
        actor: cid(actor),
        attack: "buck".into(),
        targets: vec![cid("brute-1")],
        mode: fray_protocol::command::AttackMode::Standard,
        knock_out: false,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    };
    let spent_by = |ev: &[GameEvent]| -> Vec<String> {
        ev.iter()
            .filter_map(|x| match x {
                GameEvent::InterruptUsed { combatant } => Some(combatant.as_str().to_owned()),
                _ => None,
            })
            .collect()
    };
    let enc = stable(&buck, near, "");
    let mut e = started(&enc, 1);
    run(&mut e, &mount("kael", "lira", true));
    // Not on the rider's own turn: its immediate action is for other creatures' turns.
    assert_eq!(refuse(&mut e, &kick("lira")), ErrorCode::NotYourTurn);
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    let ev = run(&mut e, &kick("lira"));
    assert_eq!(spent_by(&ev), vec!["kael".to_owned()], "{ev:?}");
    assert!(ev.iter().any(|x| matches!(x,
        GameEvent::AttackRolled { attacker, .. } if attacker.as_str() == "lira")));
    assert!(cs(&e, "kael").grid.unwrap().immediate_used);
    assert!(!cs(&e, "lira").grid.unwrap().immediate_used);
    // The rider's immediate action is gone: no second reaction before its next turn.
    assert_eq!(refuse(&mut e, &kick("lira")), ErrorCode::ImmediateUsed);
    // An independent mount reacts with its own immediate action.
    let wild = buck.replace("mount = \"trained\"", "mount = \"untrained\"");
    let enc = stable(&wild, near, "");
    let mut e = started(&enc, 1);
    run(&mut e, &mount("kael", "lira", false));
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    let ev = run(&mut e, &kick("lira"));
    assert_eq!(spent_by(&ev), vec!["lira".to_owned()], "{ev:?}");
    assert!(!cs(&e, "kael").grid.unwrap().immediate_used);
}

fn choices(actor: &str, move_mount: bool, landing: Option<(i32, i32)>) -> Command {
    Command::Orcus(OrcusCommand::RiderChoices {
        actor: cid(actor),
        move_mount,
        landing: landing.map(|(x, y)| Square::new(x, y)),
    })
}

#[test]
fn a_rider_moved_against_its_will_may_take_its_mount_along_mounting_and_dismounting() {
    // orcus-basic-rules.txt § Mounting and dismounting: "If an effect moves you against your
    // will while mounted, you can choose whether it is moved as well, or whether you fall off
    // it and are moved." Kael chooses beforehand (no action) to take the horse along.
    let shove = r#"[[monster.powers]]
id = "shove"
name = "Shove"
origin = "melee"
vs = "ac"
bonus = 40
hit = "1"
push = 2
"#;
    let enc = stable(
        HORSE,
        "kael = [0, 3]\nlira = [4, 3]\nbrute-1 = [6, 3]\nbrute-2 = [9, 0]",
        shove,
    );
    for seed in 1..20 {
        let mut e = started(&enc, seed);
        run(
            &mut e,
            &mv("kael", &[(1, 3), (2, 3), (3, 3)], MoveMode::Walk),
        );
        run(&mut e, &mount("kael", "lira", true));
        let ev = run(&mut e, &choices("kael", true, None));
        assert!(
            !ev.iter().any(|x| matches!(x, GameEvent::ActionUsed { .. })),
            "no action: {ev:?}"
        );
        assert!(cs(&e, "kael").grid.unwrap().moves_mount);
        run(&mut e, &end("kael"));
        until(&mut e, "brute-1");
        let ev = run(&mut e, &atk("brute-1", "shove", &["kael"]));
        let moved = ev.iter().find_map(|x| match x {
            GameEvent::Orcus(OrcusEvent::GridMoved {
                combatant,
                path,
                mode: MoveMode::Unwilling,
                ..
            }) => Some((combatant.as_str().to_owned(), path.last().copied())),
            _ => None,
        });
        let Some((who, Some(to))) = moved else {
            continue; // a natural 1
        };
        assert_eq!(who, "lira", "the mount is moved: {ev:?}");
        assert!(
            !ev.iter()
                .any(|x| matches!(x, GameEvent::Orcus(OrcusEvent::Dismounted { .. })))
        );
        assert_eq!(rides(&e, "kael").as_deref(), Some("lira"));
        assert_eq!(square(&e, "lira"), to);
        assert_eq!(square(&e, "kael"), to, "the rider travels with it");
        assert!(to.x < 4, "pushed away from brute-1 (west): {to}");
        return;
    }
    panic!("no hit over the seeds");
}

#[test]
fn a_thrown_rider_lands_in_the_square_it_chose_mounting_and_dismounting() {
    // orcus-basic-rules.txt § Mounting and dismounting: a rider whose mount is knocked prone
    // lands "in a space within 1 square"; Kael chose beforehand the square south-west of the
    // horse, (−1, 1) from its north-west square (Fray's own choice is (0, 2), north-west first).
    let enc = stable(
        HORSE,
        "kael = [0, 3]\nlira = [1, 3]\nbrute-1 = [3, 3]\nbrute-2 = [8, 0]",
        TRIP,
    );
    let mut e = started(&enc, 3);
    run(&mut e, &mount("kael", "lira", true));
    // Inside the horse's space, or 2 squares from it: refused.
    assert_eq!(
        refuse(&mut e, &choices("kael", false, Some((1, 1)))),
        ErrorCode::InvalidLanding
    );
    assert_eq!(
        refuse(&mut e, &choices("kael", false, Some((3, 0)))),
        ErrorCode::InvalidLanding
    );
    run(&mut e, &choices("kael", false, Some((-1, 1))));
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    let ev = run(&mut e, &atk("brute-1", "trip", &["lira"]));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::Orcus(OrcusEvent::Dismounted { rider, .. }) if rider.as_str() == "kael"))
    );
    assert_eq!(square(&e, "kael"), Square::new(0, 4));
}

const DAZE: &str = r#"[[monster.powers]]
id = "daze"
name = "Daze"
origin = "ranged"
range = [10, 10]
targets = "one creature"
vs = "will"
bonus = 40
on_hit = [{ condition = "dazed", duration = "encounter" }]
"#;

/// orcus-basic-rules.txt § Controlling a mount with § Conditions, Dazed (interpretation, Fourth
/// Edition: a single action per turn): a dazed controlled mount still takes the one action its
/// rider commands; a second command in the same turn is refused `dazed` (nothing changes, no
/// dice); the next turn it may be commanded again.
#[test]
fn a_dazed_controlled_mount_takes_one_commanded_action_per_turn_controlling_a_mount() {
    let enc = stable(
        HORSE,
        "kael = [0, 3]\nlira = [1, 3]\nbrute-1 = [8, 0]\nbrute-2 = [8, 5]",
        DAZE,
    );
    let mut e = started(&enc, 1);
    run(&mut e, &mount("kael", "lira", true));
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    run(&mut e, &atk("brute-1", "daze", &["lira"]));
    let dazed = |e: &Engine| {
        cs(e, "lira")
            .effects
            .iter()
            .any(|x| x.kind == EffectKind::Condition(Condition::Dazed))
    };
    assert!(dazed(&e));
    until(&mut e, "kael");
    assert!(dazed(&e), "still dazed on its rider's turn");
    let ev = run(&mut e, &command("kael", ActionKind::Standard));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::Orcus(OrcusEvent::MountCommanded { .. })))
    );
    run(&mut e, &mv("lira", &[(2, 2), (3, 2)], MoveMode::Walk));
    assert_eq!(square(&e, "lira"), Square::new(3, 2));
    assert_eq!(square(&e, "kael"), Square::new(3, 2));
    assert_eq!(
        refuse(&mut e, &command("kael", ActionKind::Move)),
        ErrorCode::Dazed
    );
    // The next turn, still dazed, it takes a commanded action again.
    run(&mut e, &end("kael"));
    until(&mut e, "kael");
    assert!(dazed(&e));
    run(&mut e, &command("kael", ActionKind::Move));
    run(&mut e, &mv("lira", &[(4, 2)], MoveMode::Walk));
    assert_eq!(square(&e, "lira"), Square::new(4, 2));
}
