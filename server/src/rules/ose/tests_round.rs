//! Old-School Essentials § Combat (`ose-adventuring.txt`): the phase order within a side, holding
//! a turn, encounter movement, fighting withdrawal and retreat (`round.rs`), through the real
//! engine.

use super::tests::{arena_with, attack};
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, current, new_engine, refuse, run};
use fray_protocol::event::GameEvent;
use fray_protocol::ids::CombatantId;
use fray_protocol::ose::{Declaration, MissileRange, OseMoveKind, OsePhase};
use fray_protocol::{BxCommand, BxEvent};
use fray_protocol::{Command, ErrorCode};

fn mv(actor: &str, feet: u32) -> Command {
    Command::Bx(BxCommand::OseMove {
        actor: cid(actor),
        feet,
    })
}

fn hold(actor: &str) -> Command {
    Command::Bx(BxCommand::OseHold { actor: cid(actor) })
}

fn declare(actor: &str, what: Option<Declaration>) -> Command {
    Command::Bx(BxCommand::Declare {
        actor: cid(actor),
        declaration: what,
    })
}

fn shoot(actor: &str, target: &str) -> Command {
    Command::Bx(BxCommand::OseAttack {
        actor: cid(actor),
        attack: "bow".into(),
        target: cid(target),
        range: Some(MissileRange::Short),
        modifier: 0,
        behind: false,
    })
}

fn order(e: &Engine) -> Vec<String> {
    e.state().order.iter().map(|c| c.to_string()).collect()
}

/// Ends turns until it is `who`'s (at most 12 turns); whether it came.
fn reach(e: &mut Engine, who: &str) -> bool {
    for _ in 0..12 {
        if e.state().current.as_ref().map(CombatantId::as_str) == Some(who) {
            return true;
        }
        let me = current(e);
        run(e, &Command::EndTurn { actor: cid(&me) });
    }
    false
}

/// A started arena (with `options` and Bram's declaration for round 1) where the heroes won
/// round 1's initiative: Ada's turn, then Bram's, then the goons, the slow boss last.
fn heroes_first(options: &str, bram: Option<Declaration>) -> Engine {
    let enc = arena_with(options, 30, 9);
    for seed in 0..200 {
        let mut e = new_engine(&enc, seed);
        if let Some(d) = bram.clone() {
            run(&mut e, &declare("bram", Some(d)));
        }
        run(&mut e, &Command::StartBattle);
        if order(&e) == ["ada", "bram", "goon-1", "goon-2", "boss"] && current(&e) == "ada" {
            return e;
        }
    }
    panic!("no seed where the heroes win round 1");
}

fn sleep() -> Option<Declaration> {
    Some(Declaration::Spell {
        spell: "Sleep".into(),
    })
}

/// ose-adventuring.txt § Combat Sequence Per Round (3. the winning side acts: movement,
/// missiles, spells, melee): once a side's member attacked in melee, another member's spell,
/// missile or move this round is refused (`phase_passed`, nothing changes); `ose_hold` lets the
/// melee fighter wait so that the caster goes first, and then the fighter may no longer shoot
/// (spells come after missiles) but still strikes in melee.
#[test]
fn a_sides_phases_only_go_forward_and_hold_lets_members_act_first_combat_sequence_per_round() {
    // Without holding: Ada strikes first, Bram can no longer cast or move.
    let mut e = heroes_first("", sleep());
    let ev = run(&mut e, &attack("ada", "sword", "goon-1"));
    assert!(ev.iter().any(|x| matches!(x,
        GameEvent::Bx(BxEvent::PhaseReached { combatant, phase: OsePhase::Melee }) if combatant.as_str() == "ada")));
    assert_eq!(current(&e), "bram");
    assert_eq!(
        refuse(
            &mut e,
            &Command::Bx(BxCommand::CastSpell { actor: cid("bram") })
        ),
        ErrorCode::PhasePassed
    );
    assert_eq!(refuse(&mut e, &mv("bram", 10)), ErrorCode::PhasePassed);

    // Holding: Ada lets Bram act first.
    let mut e = heroes_first("", sleep());
    let ev = run(&mut e, &hold("ada"));
    assert!(ev.iter().any(|x| matches!(x,
        GameEvent::Bx(BxEvent::TurnHeld { combatant, .. }) if combatant.as_str() == "ada")));
    assert_eq!(order(&e), ["bram", "ada", "goon-1", "goon-2", "boss"]);
    assert_eq!(current(&e), "bram");
    assert!(
        !cs(&e, "ada").ose.unwrap().acted,
        "Ada has not had her turn"
    );
    let ev = run(
        &mut e,
        &Command::Bx(BxCommand::CastSpell { actor: cid("bram") }),
    );
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::Bx(BxEvent::SpellCast { .. })))
    );
    assert_eq!(current(&e), "ada");
    assert_eq!(
        cs(&e, "bram").ose.unwrap().phase,
        Some(OsePhase::Spells),
        "the party is in the spell phase"
    );
    assert_eq!(
        refuse(&mut e, &shoot("ada", "goon-1")),
        ErrorCode::PhasePassed
    );
    assert_eq!(refuse(&mut e, &mv("ada", 10)), ErrorCode::PhasePassed);
    // Ada is the last of her group: nobody to hold for.
    assert_eq!(refuse(&mut e, &hold("ada")), ErrorCode::CannotHold);
    run(&mut e, &attack("ada", "sword", "goon-1"));
    // The monsters' phases are their own: a goon (not in melee) may move after the party's
    // melee.
    assert_eq!(current(&e), "goon-1");
    run(&mut e, &hold("goon-1"));
    let ev = run(&mut e, &mv("goon-2", 10));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::Bx(BxEvent::OseMoved { .. })))
    );
    // A new round starts every side's phases afresh.
    assert!(reach(&mut e, "ada"));
    assert_eq!(cs(&e, "ada").ose.unwrap().phase, None);
    assert_eq!(cs(&e, "bram").ose.unwrap().phase, None);
}

/// ose-adventuring.txt § Combat Sequence Per Round and § Slow Weapons ("always act last in the
/// round"): holding keeps a combatant within its group — a goon holding goes after the other
/// goon, still before the slow boss, whose group is its own (its phases start afresh); one that
/// already acted cannot hold.
#[test]
fn holding_stays_within_the_group_and_slow_weapons_still_act_last_slow_weapons() {
    let mut e = heroes_first("", None);
    assert!(reach(&mut e, "goon-1"));
    let ev = run(&mut e, &hold("goon-1"));
    assert!(ev.iter().any(
        |x| matches!(x, GameEvent::TurnStarted { combatant, .. } if combatant.as_str() == "goon-2")
    ));
    assert_eq!(order(&e), ["ada", "bram", "goon-2", "goon-1", "boss"]);
    run(&mut e, &attack("goon-2", "club", "ada"));
    assert_eq!(current(&e), "goon-1");
    assert_eq!(refuse(&mut e, &mv("goon-1", 10)), ErrorCode::PhasePassed);
    assert_eq!(
        refuse(&mut e, &hold("goon-1")),
        ErrorCode::CannotHold,
        "the boss acts last, in a group of its own"
    );
    run(&mut e, &attack("goon-1", "club", "ada"));
    assert_eq!(current(&e), "boss");
    // The slow group's phases are its own: the boss may still move.
    run(&mut e, &mv("boss", 10));
    assert_eq!(refuse(&mut e, &hold("boss")), ErrorCode::CannotHold);
    // One that moved cannot hold any more (Bram: Ada is in melee with the goons).
    assert!(reach(&mut e, "bram"));
    assert!(reach(&mut e, "ada"));
    run(&mut e, &hold("ada"));
    run(&mut e, &mv("bram", 10));
    assert_eq!(refuse(&mut e, &hold("bram")), ErrorCode::CannotHold);
}

/// ose-adventuring.txt § Movement Outside of Melee ("up to their encounter movement rate each
/// round") with § Encounters, Movement ("one third of their base movement rate per round"):
/// Ada (base 120′) moves 40′ a round in all; further feet are refused (`too_far`), the next
/// round she may move again. § Spell Casting, No movement: Bram (who went first while Ada
/// held) moved, so he cannot cast.
#[test]
fn encounter_movement_is_a_third_of_the_base_rate_movement_outside_of_melee() {
    let mut e = heroes_first("", sleep());
    run(&mut e, &hold("ada"));
    run(&mut e, &mv("bram", 10));
    assert_eq!(
        refuse(
            &mut e,
            &Command::Bx(BxCommand::CastSpell { actor: cid("bram") })
        ),
        ErrorCode::NoMoveAndCast
    );
    assert_eq!(
        refuse(&mut e, &mv("goon-1", 10)),
        ErrorCode::NotYourTurn,
        "only on its turn"
    );
    run(&mut e, &Command::EndTurn { actor: cid("bram") });
    assert_eq!(current(&e), "ada");
    let ev = run(&mut e, &mv("ada", 30));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::Bx(BxEvent::OseMoved {
            feet: 30,
            kind: OseMoveKind::Encounter,
            total: 30,
            allowed: 40,
            ..
        })
    )));
    assert_eq!(current(&e), "ada", "moving does not end the turn");
    assert_eq!(refuse(&mut e, &mv("ada", 11)), ErrorCode::TooFar);
    assert_eq!(refuse(&mut e, &mv("ada", 0)), ErrorCode::InvalidArgument);
    run(&mut e, &mv("ada", 10));
    assert_eq!(cs(&e, "ada").ose.unwrap().moved, 40);
    // Missiles come after movement: she may still shoot.
    run(&mut e, &shoot("ada", "goon-1"));
    assert_eq!(current(&e), "goon-1");
    assert!(reach(&mut e, "ada"));
    assert_eq!(cs(&e, "ada").ose.unwrap().moved, 0);
    run(&mut e, &mv("ada", 40));
}

/// ose-adventuring.txt § In Melee: a combatant in melee moves only by a fighting withdrawal (up
/// to half its encounter rate) or a retreat (up to its full encounter rate); Fray's "in melee":
/// it exchanged a melee attack with a foe still in the fight. Either move takes it out of melee,
/// after which it moves freely again.
#[test]
fn in_melee_only_a_withdrawal_or_a_retreat_moves_in_melee() {
    let mut e = heroes_first("", None);
    let ev = run(&mut e, &attack("ada", "sword", "goon-1"));
    assert!(ev.iter().any(|x| matches!(x,
        GameEvent::Bx(BxEvent::MeleeEngaged { attacker, target }) if attacker.as_str() == "ada" && target.as_str() == "goon-1")));
    assert_eq!(cs(&e, "ada").ose.unwrap().engaged, [cid("goon-1")]);
    assert_eq!(cs(&e, "goon-1").ose.unwrap().engaged, [cid("ada")]);
    // Declared during round 1, for round 2.
    run(&mut e, &declare("ada", Some(Declaration::Withdraw)));
    run(&mut e, &attack("bram", "staff", "goon-2"));
    assert!(reach(&mut e, "goon-2"));
    assert_eq!(refuse(&mut e, &mv("goon-2", 10)), ErrorCode::InMelee);
    assert!(reach(&mut e, "ada"));
    assert_eq!(refuse(&mut e, &mv("ada", 21)), ErrorCode::TooFar);
    let ev = run(&mut e, &mv("ada", 20));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::Bx(BxEvent::OseMoved {
            kind: OseMoveKind::Withdrawal,
            total: 20,
            allowed: 20,
            ..
        })
    )));
    assert!(cs(&e, "ada").ose.unwrap().engaged.is_empty());
    assert!(cs(&e, "goon-1").ose.unwrap().engaged.is_empty());
    run(&mut e, &Command::EndTurn { actor: cid("ada") });
    // Bram, in melee with goon-2, retreats (declared now, for round 3) at the full rate.
    run(&mut e, &declare("bram", Some(Declaration::Retreat)));
    assert!(reach(&mut e, "bram"));
    assert!(reach(&mut e, "ada"));
    // Out of melee: Ada moves at her encounter rate again.
    run(&mut e, &mv("ada", 40));
    assert!(reach(&mut e, "bram"));
    let ev = run(&mut e, &mv("bram", 40));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::Bx(BxEvent::OseMoved {
            kind: OseMoveKind::Retreat,
            total: 40,
            allowed: 40,
            ..
        })
    )));
    assert!(cs(&e, "bram").ose.unwrap().engaged.is_empty());
    assert!(cs(&e, "goon-2").ose.unwrap().engaged.is_empty());
}

/// ose-adventuring.txt § Individual Initiative (optional rule): each combatant acts for itself,
/// so the phase order holds for its own actions only — Bram may move after Ada struck in melee,
/// and nobody holds (there is no group to wait for).
#[test]
fn under_individual_initiative_phases_are_per_combatant_individual_initiative() {
    let enc = arena_with("initiative = \"individual\"", 30, 9);
    let mut e = (0..200)
        .find_map(|seed| {
            let mut e = new_engine(&enc, seed);
            run(&mut e, &Command::StartBattle);
            let o = order(&e);
            let at = |who: &str| o.iter().position(|c| c == who);
            (at("ada")? < at("bram")?).then_some(e)
        })
        .expect("a round where Ada acts before Bram");
    assert!(reach(&mut e, "ada"));
    assert_eq!(refuse(&mut e, &hold("ada")), ErrorCode::CannotHold);
    run(&mut e, &attack("ada", "sword", "goon-1"));
    assert!(reach(&mut e, "bram"));
    assert_eq!(e.state().round, 1, "the same round");
    run(&mut e, &mv("bram", 10));
    run(&mut e, &attack("bram", "staff", "goon-2"));
}

/// basic-fantasy-adventures.txt § Movement and Encumbrance ("the number of feet it can move
/// per combat round"; metal armor and a heavy load: 10′) on this core: `ose_move` allows the
/// rate per round that `set_encumbrance` set; without one, a third of the base rate (40′).
#[test]
fn basic_fantasy_encumbrance_sets_the_rate_per_round_movement_and_encumbrance() {
    let text = r#"
ruleset = "basic-fantasy"
characters = ["ada", "bram"]
[[monsters]]
template = "goon"
[[monster]]
template = "goon"
name = "Goon"
hd = "1"
ac = 9
hp = 5
morale = 7
[[monster.attacks]]
id = "club"
name = "Club"
damage = "1d4"
[[character]]
id = "ada"
name = "Ada"
class = "fighter"
level = 1
abilities = { str = 16, dex = 10, con = 10, int = 10, wis = 10, cha = 10 }
thac0 = 19
ac = 4
hp = 20
saves = { death = 12, wands = 13, paralysis = 14, breath = 15, spells = 16 }
[[character.weapons]]
id = "sword"
name = "Sword"
damage = "1d8"
[[character]]
id = "bram"
name = "Bram"
class = "fighter"
level = 1
abilities = { str = 10, dex = 10, con = 10, int = 10, wis = 10, cha = 10 }
thac0 = 19
ac = 9
hp = 20
saves = { death = 12, wands = 13, paralysis = 14, breath = 15, spells = 16 }
[[character.weapons]]
id = "sword"
name = "Sword"
damage = "1d8"
"#;
    let enc = crate::rules::load_encounter("bf.toml", text).unwrap();
    let mut e = new_engine(&enc, 1);
    run(
        &mut e,
        &Command::Bx(BxCommand::SetEncumbrance {
            combatant: cid("ada"),
            armor: fray_protocol::bf::ArmorType::Metal,
            load: 100,
            treasure: false,
        }),
    );
    run(&mut e, &Command::StartBattle);
    assert!(reach(&mut e, "ada"));
    assert_eq!(refuse(&mut e, &mv("ada", 11)), ErrorCode::TooFar);
    let ev = run(&mut e, &mv("ada", 10));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::Bx(BxEvent::OseMoved { allowed: 10, .. })))
    );
    run(&mut e, &Command::EndTurn { actor: cid("ada") });
    assert!(reach(&mut e, "bram"));
    let ev = run(&mut e, &mv("bram", 40));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::Bx(BxEvent::OseMoved { allowed: 40, .. })))
    );
}

/// ose-adventuring.txt § Movement Outside of Melee ("Maximum duration: Combatants may move at
/// this rate for at most 60 rounds"): the rounds Ada moved at her encounter rate are counted
/// (twice in a round counts once); in the 61st round a move at that rate is refused
/// (`max_duration`, nothing changes), while a declared fighting withdrawal (§ In Melee) still
/// moves her.
#[test]
fn sixty_rounds_of_encounter_movement_at_most_movement_outside_of_melee() {
    let mut e = heroes_first("", None);
    for round in 1..=60u32 {
        assert!(reach(&mut e, "ada"), "round {round}");
        run(&mut e, &mv("ada", 10));
        if round == 1 {
            run(&mut e, &mv("ada", 10));
        }
        assert_eq!(cs(&e, "ada").ose.unwrap().move_rounds, round);
        run(&mut e, &Command::EndTurn { actor: cid("ada") });
    }
    assert!(reach(&mut e, "ada"));
    assert_eq!(refuse(&mut e, &mv("ada", 10)), ErrorCode::MaxDuration);
    // Bram moved in none of them: he still may.
    run(&mut e, &declare("ada", Some(Declaration::Withdraw)));
    run(&mut e, &Command::EndTurn { actor: cid("ada") });
    assert!(reach(&mut e, "bram"));
    run(&mut e, &mv("bram", 10));
    assert!(reach(&mut e, "ada"));
    let ev = run(&mut e, &mv("ada", 10));
    assert!(
        ev.iter().any(|x| matches!(
            x,
            GameEvent::Bx(BxEvent::OseMoved {
                kind: OseMoveKind::Withdrawal,
                ..
            })
        )),
        "{ev:?}"
    );
    assert_eq!(cs(&e, "ada").ose.unwrap().move_rounds, 60);
}

/// ose-adventuring.txt § Missile Attacks: "possible when opponents are more than 5′ from one
/// another". A combatant in melee (it exchanged a melee attack with a foe still in the fight)
/// may not shoot — at that foe or any other (`missile_in_melee`, nothing changes, no dice); its
/// foe may not shoot it either; after a fighting withdrawal takes it out of melee it shoots again.
#[test]
fn no_missile_attack_while_in_melee_missile_attacks() {
    let mut e = heroes_first("", None);
    run(&mut e, &attack("ada", "sword", "goon-1"));
    run(&mut e, &declare("ada", Some(Declaration::Withdraw)));
    run(&mut e, &attack("bram", "staff", "goon-2"));
    assert!(reach(&mut e, "ada"));
    assert_eq!(cs(&e, "ada").ose.unwrap().engaged, [cid("goon-1")]);
    assert_eq!(
        refuse(&mut e, &shoot("ada", "goon-1")),
        ErrorCode::MissileInMelee
    );
    assert_eq!(
        refuse(&mut e, &shoot("ada", "boss")),
        ErrorCode::MissileInMelee
    );
    run(&mut e, &mv("ada", 20));
    assert!(cs(&e, "ada").ose.unwrap().engaged.is_empty());
    let ev = run(&mut e, &shoot("ada", "goon-1"));
    assert!(ev.iter().any(|x| matches!(x,
        GameEvent::AttackRolled { attacker, .. } if attacker.as_str() == "ada")));
}

fn swimming(who: &str, on: bool) -> Command {
    Command::Bx(BxCommand::OseCondition {
        combatant: cid(who),
        condition: fray_protocol::ose::OseCondition::Swimming,
        on,
    })
}

/// ose-adventuring.txt § Swimming ("Characters move at half their normal movement rate when
/// swimming"): while the GM keeps Ada `swimming` her 40′ encounter rate is 20′ (a fighting
/// withdrawal half of that); out of the water she has her 40′ again.
#[test]
fn a_swimmer_moves_at_half_rate_swimming() {
    let mut e = heroes_first("", sleep());
    run(&mut e, &swimming("ada", true));
    assert!(
        cs(&e, "ada")
            .ose
            .unwrap()
            .conditions
            .contains(&fray_protocol::ose::OseCondition::Swimming)
    );
    run(&mut e, &hold("ada"));
    run(&mut e, &Command::EndTurn { actor: cid("bram") });
    assert_eq!(current(&e), "ada");
    let ev = run(&mut e, &mv("ada", 20));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::Bx(BxEvent::OseMoved {
            total: 20,
            allowed: 20,
            ..
        })
    )));
    assert_eq!(refuse(&mut e, &mv("ada", 5)), ErrorCode::TooFar);
    run(&mut e, &swimming("ada", false));
    run(&mut e, &mv("ada", 20));
    assert_eq!(cs(&e, "ada").ose.unwrap().moved, 40);
}

/// ose-adventuring.txt § Water ("Missile weapons: Usually do not work at all underwater"):
/// while the GM keeps Ada `underwater` her bow is refused with the section named; out of the
/// water she shoots.
#[test]
fn missiles_do_not_work_underwater_water() {
    let mut e = heroes_first("", sleep());
    let underwater = |on| {
        Command::Bx(BxCommand::OseCondition {
            combatant: cid("ada"),
            condition: fray_protocol::ose::OseCondition::Underwater,
            on,
        })
    };
    run(&mut e, &underwater(true));
    run(&mut e, &hold("ada"));
    run(&mut e, &Command::EndTurn { actor: cid("bram") });
    assert_eq!(current(&e), "ada");
    let r = crate::rules::common::testing::refusal(&mut e, &shoot("ada", "goon-1"));
    assert_eq!(r.code, ErrorCode::InvalidArgument);
    assert!(r.message.contains("§ Water"), "{r}");
    run(&mut e, &underwater(false));
    run(&mut e, &shoot("ada", "goon-1"));
}
