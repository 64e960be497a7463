//! Five Torches Deep rules through the real engine, each test naming the section of
//! `five-torches-deep-combat.txt` it checks.

use crate::content::model::Encounter;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, current, new_engine, refuse, run};
use crate::rules::{builtin_encounters, load_encounter};
use fray_protocol::command::RetreatCheck;
use fray_protocol::event::{ActionKind, AttackOutcome, DamageCause, GameEvent};
use fray_protocol::ftd::{Ability, Advantage, Departure, Injury, MoraleOutcome, MoraleTrigger};
use fray_protocol::ids::Side;
use fray_protocol::state::{LifeStatus, Phase};
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{FiveTorchesCommand, FiveTorchesEvent};

/// Three heroes and three monsters with known numbers. `hero_ac` and `monster_ac` force hits or
/// misses; `club` is the goons' damage.
pub(super) fn arena(hero_ac: i32, monster_ac: i32, club: &str) -> Encounter {
    load_encounter("arena.toml", &arena_toml(hero_ac, monster_ac, club)).unwrap()
}

/// The TOML text of [`arena`], for tests that add to it.
pub(super) fn arena_toml(hero_ac: i32, monster_ac: i32, club: &str) -> String {
    format!(
        r#"
ruleset = "five-torches-deep"
heroes = ["ada", "bram", "cleo"]
[[monsters]]
template = "boss"
[[monsters]]
template = "goon"
count = 2
[[hero]]
id = "ada"
name = "Ada"
class = "warrior"
level = 1
abilities = {{ str = 16, dex = 14, con = 12, int = 10, wis = 10, cha = 10 }}
ac = {hero_ac}
hp = 10
proficiencies = ["morale"]
[[hero.attacks]]
id = "sword"
name = "Sword"
kind = "melee"
damage = "1d8"
[[hero.attacks]]
id = "bow"
name = "Bow"
kind = "ranged"
damage = "1d6"
proficient = false
[[hero]]
id = "bram"
name = "Bram"
class = "mage"
level = 5
abilities = {{ str = 8, dex = 14, con = 10, int = 18, wis = 10, cha = 10 }}
ac = {hero_ac}
hp = 8
[[hero.attacks]]
id = "bolt"
name = "Bolt"
kind = "arcane"
damage = "1d10"
[[hero]]
id = "cleo"
name = "Cleo"
class = "cleric"
level = 1
abilities = {{ str = 12, dex = 8, con = 12, int = 10, wis = 16, cha = 10 }}
ac = {hero_ac}
hp = 9
proficiencies = ["medicine"]
[[hero.attacks]]
id = "smite"
name = "Smite"
kind = "divine"
range = "close"
damage = "1d6"
[[monster]]
template = "boss"
name = "Boss"
hd = 4
ac = {monster_ac}
hp = 12
abilities = {{ str = 12, dex = 16, con = 12, int = 10, wis = 12, cha = 10 }}
leader = true
morale_proficient = true
[[monster.attacks]]
id = "axe"
name = "Axe"
kind = "melee"
bonus = 4
damage = "1d8+1"
[[monster]]
template = "goon"
name = "Goon"
hd = 1
ac = {monster_ac}
hp = 4
abilities = {{ str = 10, dex = 14, con = 10, int = 8, wis = 8, cha = 8 }}
[[monster.attacks]]
id = "club"
name = "Club"
kind = "melee"
bonus = 3
damage = "{club}"
[[monster.attacks]]
id = "sling"
name = "Sling"
kind = "ranged"
bonus = 3
damage = "1d4"
"#
    )
}

pub(super) fn started(enc: &Encounter, seed: u64) -> Engine {
    let mut e = new_engine(enc, seed);
    run(&mut e, &Command::StartBattle);
    e
}

pub(super) fn attack(actor: &str, attack: &str, target: &str) -> Command {
    Command::Attack {
        actor: cid(actor),
        attack: attack.into(),
        targets: vec![cid(target)],
        mode: fray_protocol::command::AttackMode::Standard,
        knock_out: false,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    }
}

pub(super) fn close_to(actor: &str, target: &str) -> Command {
    Command::Move {
        actor: cid(actor),
        engage: Some(cid(target)),
        far_away: false,
    }
}

pub(super) fn end(actor: &str) -> Command {
    Command::EndTurn { actor: cid(actor) }
}

/// Ends turns until it is `who`'s turn.
pub(super) fn turn_of(e: &mut Engine, who: &str) {
    for _ in 0..50 {
        if current(e) == who {
            return;
        }
        let c = current(e);
        run(e, &end(&c));
    }
    panic!("{who} never got a turn");
}

fn grant(who: &str, a: Advantage) -> Command {
    Command::FiveTorches(FiveTorchesCommand::GrantAdvantage {
        combatant: cid(who),
        advantage: a,
    })
}

fn attack_rolled(ev: &[GameEvent]) -> (u32, usize, i32, AttackOutcome) {
    ev.iter()
        .find_map(|x| match x {
            GameEvent::AttackRolled {
                roll,
                bonus,
                outcome,
                ..
            } => Some((roll.natural().unwrap(), roll.dice.len(), *bonus, *outcome)),
            _ => None,
        })
        .expect("an attack roll")
}

pub(super) fn damaged(ev: &[GameEvent]) -> Vec<(String, i32, Option<i32>)> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::Damaged {
                target,
                amount,
                hp_after,
                ..
            } => Some((target.to_string(), *amount, *hp_after)),
            _ => None,
        })
        .collect()
}

/// Drops `who` (a hero) to 0 hp: a goon with a 20-damage club hits it (hero AC 1).
fn drop_hero(e: &mut Engine, who: &str) -> Vec<GameEvent> {
    turn_of(e, "goon-1");
    run(e, &close_to("goon-1", who));
    run(e, &attack("goon-1", "club", who))
}

// five-torches-deep-combat.txt § initiative ("Your DEX score (not modifier) determines your
// place in initiative … It is always the same round to round")
#[test]
fn initiative_is_the_dex_score_and_the_same_every_round() {
    let enc = arena(14, 12, "1d6");
    let mut e = new_engine(&enc, 1);
    let ev = run(&mut e, &Command::StartBattle);
    assert!(ev.iter().any(
        |x| matches!(x, GameEvent::FiveTorches(FiveTorchesEvent::InitiativeScores { scores })
        if scores[0] == (cid("boss-1"), 16) && scores.last() == Some(&(cid("cleo"), 8)))
    ));
    // Ties on DEX 14: PCs before monsters, then by id (Fray's documented rule).
    let order: Vec<String> = e.state().order.iter().map(|c| c.to_string()).collect();
    assert_eq!(order, ["boss-1", "ada", "bram", "goon-1", "goon-2", "cleo"]);
    assert_eq!(cs(&e, "ada").initiative, Some(14));
    assert_eq!(current(&e), "boss-1");
    let mut seen = Vec::new();
    for _ in 0..12 {
        let c = current(&e);
        seen.push(c.clone());
        run(&mut e, &end(&c));
    }
    assert_eq!(seen[..6], seen[6..]);
    assert_eq!(e.state().round, 3);
    // No die was drawn for initiative.
    assert_eq!(Engine::rng(&new_engine(&enc, 1)).draws(), 0);
}

// five-torches-deep-combat.txt § initiative (the GM settles ties and order: reorder command)
#[test]
fn the_gm_reorders_initiative() {
    let enc = arena(14, 12, "1d6");
    let mut e = started(&enc, 1);
    let order = ["cleo", "boss-1", "ada", "bram", "goon-1", "goon-2"]
        .map(cid)
        .to_vec();
    assert_eq!(
        refuse(
            &mut e,
            &Command::ReorderInitiative {
                order: order[..5].to_vec()
            }
        ),
        ErrorCode::InvalidArgument
    );
    run(
        &mut e,
        &Command::ReorderInitiative {
            order: order.clone(),
        },
    );
    assert_eq!(e.state().order, order);
    assert_eq!(current(&e), "boss-1", "the current turn goes on");
    run(&mut e, &end("boss-1"));
    assert_eq!(current(&e), "ada");
}

// five-torches-deep-combat.txt § initiative ("Combatants can choose to delay to a slower
// initiative")
#[test]
fn delaying_moves_to_a_slower_place_for_good() {
    let enc = arena(14, 12, "1d6");
    let mut e = started(&enc, 1);
    let delay = |a: &str, b: &str| {
        Command::FiveTorches(FiveTorchesCommand::DelayTo {
            actor: cid(a),
            after: cid(b),
        })
    };
    // Only to a slower place, and before acting.
    assert_eq!(
        refuse(&mut e, &delay("boss-1", "boss-1")),
        ErrorCode::InvalidTarget
    );
    run(&mut e, &end("boss-1"));
    assert_eq!(
        refuse(&mut e, &delay("ada", "boss-1")),
        ErrorCode::InvalidTarget
    );
    run(&mut e, &close_to("ada", "goon-1"));
    assert_eq!(
        refuse(&mut e, &delay("ada", "goon-1")),
        ErrorCode::ActionAlreadyUsed
    );
    run(&mut e, &end("ada"));
    assert_eq!(current(&e), "bram");
    let ev = run(&mut e, &delay("bram", "goon-2"));
    assert!(ev.iter().any(|x| matches!(x, GameEvent::Delayed { .. })));
    assert_eq!(current(&e), "goon-1");
    run(&mut e, &end("goon-1"));
    run(&mut e, &end("goon-2"));
    assert_eq!(current(&e), "bram", "bram acts after goon-2");
    let order: Vec<String> = e.state().order.iter().map(|c| c.to_string()).collect();
    assert_eq!(order, ["boss-1", "ada", "goon-1", "goon-2", "bram", "cleo"]);
    run(&mut e, &end("bram"));
    run(&mut e, &end("cleo"));
    assert_eq!(current(&e), "boss-1");
    assert_eq!(e.state().round, 2);
    // The first in the order can delay too.
    let ev = run(&mut e, &delay("boss-1", "ada"));
    assert!(ev.iter().any(
        |x| matches!(x, GameEvent::TurnStarted { combatant, round: 2 } if combatant.as_str() == "ada")
    ));
    run(&mut e, &end("ada"));
    assert_eq!(current(&e), "boss-1");
}

// five-torches-deep-combat.txt § initiative ("unless there's an ambush")
#[test]
fn an_ambush_gives_the_ambushers_a_surprise_round() {
    let enc = arena(14, 12, "1d6");
    let mut e = new_engine(&enc, 1);
    run(
        &mut e,
        &Command::StartSurprise {
            surprised: ["boss-1", "goon-1", "goon-2"].map(cid).to_vec(),
        },
    );
    assert_eq!(current(&e), "ada");
    assert_eq!(e.state().round, 0);
    run(&mut e, &end("ada"));
    run(&mut e, &end("bram"));
    run(&mut e, &end("cleo"));
    assert_eq!(e.state().round, 1);
    assert_eq!(current(&e), "boss-1", "then the full DEX order");
    assert_eq!(e.state().order.len(), 6);
}

// five-torches-deep-combat.txt § Types of Actions, § Active Actions, § Movement Actions
#[test]
fn one_action_of_each_type_and_trading_down() {
    let enc = arena(14, 1, "1d6");
    let mut e = started(&enc, 1);
    turn_of(&mut e, "ada");
    run(&mut e, &close_to("ada", "goon-1"));
    // A second movement takes the active action (traded down).
    let ev = run(&mut e, &close_to("ada", "goon-2"));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::ActionUsed {
            action: ActionKind::Move,
            spent: ActionKind::Standard,
            ..
        }
    )));
    assert_eq!(
        refuse(&mut e, &attack("ada", "sword", "goon-2")),
        ErrorCode::ActionAlreadyUsed
    );
    assert_eq!(
        refuse(&mut e, &close_to("ada", "goon-1")),
        ErrorCode::ActionAlreadyUsed,
        "a quick action cannot pay for a movement"
    );
    // Not one's turn.
    assert_eq!(
        refuse(&mut e, &attack("bram", "bolt", "goon-2")),
        ErrorCode::NotYourTurn
    );
}

// five-torches-deep-combat.txt § Range, § Range & Attacks
#[test]
fn range_bands_limit_and_hinder_attacks() {
    let enc = arena(14, 1, "1d6");
    let mut e = started(&enc, 1);
    turn_of(&mut e, "ada");
    assert_eq!(
        refuse(&mut e, &attack("ada", "sword", "goon-1")),
        ErrorCode::NotEngaged,
        "melee only in close range"
    );
    let ev = run(&mut e, &attack("ada", "bow", "goon-1"));
    assert_eq!(attack_rolled(&ev).1, 1, "a ranged attack at range: one d20");
    run(&mut e, &end("ada"));
    turn_of(&mut e, "ada");
    run(&mut e, &close_to("ada", "goon-1"));
    let ev = run(&mut e, &attack("ada", "bow", "goon-2"));
    assert_eq!(
        attack_rolled(&ev).1,
        2,
        "a ranged attack in melee: disadvantage"
    );
    run(&mut e, &end("ada"));
    turn_of(&mut e, "bram");
    run(
        &mut e,
        &Command::Move {
            actor: cid("bram"),
            engage: None,
            far_away: true,
        },
    );
    assert_eq!(
        refuse(&mut e, &attack("bram", "bolt", "goon-1")),
        ErrorCode::OutOfRange,
        "far is beyond weapons and spells"
    );
}

// five-torches-deep-combat.txt § PC Attacks ("A melee attack uses STR mod while ranged uses DEX
// mod. Arcane spells use INT mod, divine use WIS mod … proficiency bonus … if proficient"),
// § NPC Attacks, § Dealing Damage
#[test]
fn attack_bonuses_by_kind_and_proficiency() {
    let enc = arena(1, 30, "1d6");
    let mut e = started(&enc, 3);
    // Boss (monster): its stat block's modifier.
    run(&mut e, &close_to("boss-1", "ada"));
    let ev = run(&mut e, &attack("boss-1", "axe", "ada"));
    assert_eq!(attack_rolled(&ev).2, 4);
    run(&mut e, &end("boss-1"));
    // Ada: STR 16 (+3) + proficiency 2 with the sword; DEX 14 (+2), no proficiency, bow.
    run(&mut e, &close_to("ada", "boss-1"));
    let ev = run(&mut e, &attack("ada", "sword", "boss-1"));
    assert_eq!(attack_rolled(&ev).2, 5);
    run(&mut e, &end("ada"));
    // Bram: INT 18 (+4) + proficiency 3 (level 5).
    let ev = run(&mut e, &attack("bram", "bolt", "boss-1"));
    assert_eq!(attack_rolled(&ev).2, 7);
    run(&mut e, &end("bram"));
    turn_of(&mut e, "cleo");
    run(&mut e, &close_to("cleo", "goon-1"));
    let ev = run(&mut e, &attack("cleo", "smite", "goon-1"));
    assert_eq!(attack_rolled(&ev).2, 5, "WIS 16 (+3) + 2");
    // A hit's damage is the dice plus the ability modifier.
    let enc = arena(14, 1, "1d6");
    let mut e = started(&enc, 3);
    turn_of(&mut e, "ada");
    run(&mut e, &close_to("ada", "boss-1"));
    let ev = run(&mut e, &attack("ada", "sword", "boss-1"));
    let roll = ev
        .iter()
        .find_map(|x| match x {
            GameEvent::DamageRolled { roll, .. } => Some(roll.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(roll.expr, "d8+3");
}

// five-torches-deep-combat.txt § Critical Hits ("Damage is doubled on any critical hit; an
// attack that rolled a natural 20 … for both PCs and NPCs")
#[test]
fn a_natural_20_hits_and_doubles_damage() {
    let enc = arena(14, 30, "1d6");
    for seed in 0..400 {
        let mut e = started(&enc, seed);
        turn_of(&mut e, "bram");
        let ev = run(&mut e, &attack("bram", "bolt", "boss-1"));
        let (nat, _, _, outcome) = attack_rolled(&ev);
        if nat != 20 {
            assert_eq!(outcome, AttackOutcome::Miss, "AC 30 needs a natural 20");
            continue;
        }
        assert_eq!(outcome, AttackOutcome::Crit);
        let rolled = ev
            .iter()
            .find_map(|x| match x {
                GameEvent::DamageRolled { roll, .. } => Some(roll.total),
                _ => None,
            })
            .unwrap();
        assert_eq!(damaged(&ev)[0].1, rolled * 2);
        return;
    }
    panic!("no natural 20 in 400 seeds");
}

// five-torches-deep-combat.txt § Tactical Superiority, § PC Attacks ("advantage or
// disadvantage per GM discretion"), § Saves & Checks (advantage and disadvantage cancel)
#[test]
fn the_gm_grants_advantage_for_the_next_roll() {
    let enc = arena(14, 12, "1d6");
    let mut e = started(&enc, 5);
    turn_of(&mut e, "ada");
    run(&mut e, &close_to("ada", "boss-1"));
    // Advantage and disadvantage cancel: a ranged attack in melee with a grant → one d20.
    run(&mut e, &grant("ada", Advantage::Advantage));
    assert_eq!(cs(&e, "ada").ftd.unwrap().granted, Advantage::Advantage);
    let ev = run(&mut e, &attack("ada", "bow", "goon-2"));
    assert_eq!(attack_rolled(&ev).1, 1);
    assert_eq!(
        cs(&e, "ada").ftd.unwrap().granted,
        Advantage::None,
        "used up"
    );
    run(&mut e, &end("ada"));
    turn_of(&mut e, "ada");
    run(&mut e, &grant("ada", Advantage::Advantage));
    let ev = run(&mut e, &attack("ada", "sword", "boss-1"));
    let dice = ev
        .iter()
        .find_map(|x| match x {
            GameEvent::AttackRolled { roll, .. } => Some(roll.dice.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(dice.len(), 2);
    let kept: Vec<u32> = dice.iter().filter(|d| d.kept).map(|d| d.face).collect();
    assert_eq!(kept, [dice.iter().map(|d| d.face).max().unwrap()]);
}

// five-torches-deep-combat.txt § Saves & Checks, § Skills & Proficiency, § Critical Failure
// ("Rolling a natural 1 on a check that damages a PC doubles the damage the PC suffers")
#[test]
fn checks_and_a_natural_1_doubling_harm_to_a_pc() {
    let enc = arena(14, 12, "1d6");
    let check = |who: &str, dc: i32| {
        Command::FiveTorches(FiveTorchesCommand::Check {
            combatant: cid(who),
            ability: Ability::Dex,
            dc,
            proficient: true,
            advantage: Advantage::None,
            damage: Some("2d4".into()),
            purpose: Some("trap".into()),
            task: None,
        })
    };
    let mut e = started(&enc, 1);
    let ev = run(&mut e, &check("ada", 2));
    let (bonus, success) = ev
        .iter()
        .find_map(|x| match x {
            GameEvent::CheckRolled { bonus, success, .. } => Some((*bonus, *success)),
            _ => None,
        })
        .unwrap();
    assert_eq!(bonus, 4, "DEX 14 (+2) + proficiency 2");
    let _ = success;
    let mut doubled_seen = false;
    let mut plain_seen = false;
    for seed in 0..300 {
        let mut e = started(&enc, seed);
        let ev = run(&mut e, &check("ada", 25));
        let natural = ev
            .iter()
            .find_map(|x| match x {
                GameEvent::CheckRolled { roll, .. } => roll.natural(),
                _ => None,
            })
            .unwrap();
        let rolled = ev
            .iter()
            .find_map(|x| match x {
                GameEvent::DamageRolled { roll, .. } => Some(roll.total),
                _ => None,
            })
            .unwrap();
        let (amount, doubled) = ev
            .iter()
            .find_map(|x| match x {
                GameEvent::Damaged {
                    amount,
                    cause: DamageCause::Hazard { doubled, .. },
                    ..
                } => Some((*amount, *doubled)),
                _ => None,
            })
            .unwrap();
        if natural == 1 {
            assert!(doubled);
            assert_eq!(amount, rolled * 2);
            doubled_seen = true;
        } else {
            assert!(!doubled);
            assert_eq!(amount, rolled);
            plain_seen = true;
        }
        if doubled_seen && plain_seen {
            // A monster's natural 1 does not double (PCs only).
            for seed in 0..300 {
                let mut e = started(&enc, seed);
                let ev = run(&mut e, &check("goon-1", 25));
                if let Some(GameEvent::Damaged {
                    cause: DamageCause::Hazard { doubled, .. },
                    ..
                }) = ev.iter().find(|x| matches!(x, GameEvent::Damaged { .. }))
                {
                    assert!(!doubled);
                }
            }
            return;
        }
    }
    panic!("no natural 1 in 300 seeds");
}

// five-torches-deep-combat.txt § Death & Injury ("reaches 0 hit points is incapacitated and
// unable to act"), § Healing & HP ("never go below zero HP")
#[test]
fn zero_hp_incapacitates_and_never_goes_below() {
    let enc = arena(1, 12, "20");
    let mut e = started(&enc, 1);
    let ev = drop_hero(&mut e, "ada");
    assert_eq!(damaged(&ev), [("ada".into(), 20, Some(0))]);
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::FellUnconscious { .. }))
    );
    let ada = cs(&e, "ada");
    assert_eq!(ada.hp, Some(0));
    assert_eq!(ada.status, LifeStatus::Unconscious);
    assert_eq!(ada.ftd.unwrap().fell_round, Some(1));
    // No more attacks on her; her turns are skipped.
    run(&mut e, &end("goon-1"));
    run(&mut e, &end("goon-2"));
    run(&mut e, &end("cleo"));
    run(&mut e, &end("boss-1"));
    assert_eq!(current(&e), "bram", "ada's turn is skipped");
    // A monster at 0 hp is slain, and hit points stay at 0.
    let enc = arena(14, 1, "1d6");
    let mut e = started(&enc, 2);
    turn_of(&mut e, "ada");
    run(&mut e, &close_to("ada", "goon-1"));
    let ev = run(&mut e, &attack("ada", "sword", "goon-1"));
    assert!(ev.iter().any(|x| matches!(x, GameEvent::Slain { .. })));
    assert_eq!(cs(&e, "goon-1").hp, Some(0));
}

// five-torches-deep-combat.txt § Stabilizing & Injuries, § Injury Table
#[test]
fn an_ally_stabilizes_and_the_injury_table_is_rolled() {
    let enc = arena(1, 12, "20");
    let mut found = std::collections::BTreeSet::new();
    for seed in 0..300 {
        let mut e = started(&enc, seed);
        drop_hero(&mut e, "ada");
        turn_of(&mut e, "cleo");
        assert_eq!(
            refuse(
                &mut e,
                &Command::Stabilize {
                    actor: cid("cleo"),
                    target: cid("bram")
                }
            ),
            ErrorCode::NotDying
        );
        let ev = run(
            &mut e,
            &Command::Stabilize {
                actor: cid("cleo"),
                target: cid("ada"),
            },
        );
        let (bonus, success) = ev
            .iter()
            .find_map(|x| match x {
                GameEvent::CheckRolled { bonus, success, .. } => Some((*bonus, *success)),
                _ => None,
            })
            .unwrap();
        assert_eq!(bonus, 5, "WIS 16 (+3) + proficiency (medicine)");
        if !success {
            assert_eq!(cs(&e, "ada").status, LifeStatus::Unconscious);
            continue;
        }
        let injury = ev
            .iter()
            .find_map(|x| match x {
                GameEvent::FiveTorches(FiveTorchesEvent::InjuryRolled { injury, .. }) => {
                    Some(injury.clone())
                }
                _ => None,
            })
            .unwrap();
        let ada = cs(&e, "ada");
        match &injury {
            Injury::Dead => {
                assert_eq!(ada.status, LifeStatus::Dead);
                found.insert("dead");
            }
            Injury::AbilityLoss { ability, amount } => {
                assert_eq!(ada.hp, Some(1));
                let before = [16, 14, 12, 10, 10, 10];
                let idx = Ability::ALL.iter().position(|a| a == ability).unwrap();
                let now = ada.ftd.as_ref().unwrap().abilities.get(*ability);
                assert_eq!(now, before[idx] - amount);
                assert!((1..=6).contains(amount));
                found.insert("loss");
            }
            Injury::BodyPart => {
                assert_eq!(ada.hp, Some(1));
                found.insert("part");
            }
            Injury::DisadvantageUntilRest => {
                assert_eq!(ada.hp, Some(1));
                assert!(ada.ftd.as_ref().unwrap().disadvantage_until_rest);
                found.insert("dis");
            }
            Injury::Standing { healed } => {
                assert_eq!(ada.hp, Some((1 + healed).min(10)));
                found.insert("standing");
            }
        }
        if injury != Injury::Dead {
            assert_eq!(ada.status, LifeStatus::Conscious);
            assert_eq!(
                ada.ftd.as_ref().unwrap().injuries,
                std::slice::from_ref(&injury)
            );
        }
        if found.len() == 5 {
            return;
        }
    }
    panic!("not every injury row seen: {found:?}");
}

// five-torches-deep-combat.txt § Injury Table (14-19: "Disadvantage all checks until rest")
#[test]
fn an_injury_disadvantage_applies_to_every_check() {
    let enc = arena(1, 12, "20");
    for seed in 0..400 {
        let mut e = started(&enc, seed);
        drop_hero(&mut e, "ada");
        turn_of(&mut e, "cleo");
        run(
            &mut e,
            &Command::Stabilize {
                actor: cid("cleo"),
                target: cid("ada"),
            },
        );
        if !cs(&e, "ada").ftd.unwrap().disadvantage_until_rest {
            continue;
        }
        let ev = run(
            &mut e,
            &Command::FiveTorches(FiveTorchesCommand::Check {
                combatant: cid("ada"),
                ability: Ability::Str,
                dc: 10,
                proficient: false,
                advantage: Advantage::None,
                damage: None,
                purpose: None,
                task: None,
            }),
        );
        let dice = ev
            .iter()
            .find_map(|x| match x {
                GameEvent::CheckRolled { roll, .. } => Some(roll.dice.clone()),
                _ => None,
            })
            .unwrap();
        assert_eq!(dice.len(), 2);
        let kept: Vec<u32> = dice.iter().filter(|d| d.kept).map(|d| d.face).collect();
        assert_eq!(kept, [dice.iter().map(|d| d.face).min().unwrap()]);
        return;
    }
    panic!("no 14-19 injury found");
}

// five-torches-deep-combat.txt § Stabilizing & Injuries ("cast a spell, or otherwise heal …
// or roll for healing"), § Healing From Magic & Medicine, § Healing & HP (never above max)
#[test]
fn healing_stabilizes_and_never_exceeds_the_maximum() {
    let enc = arena(1, 12, "20");
    let mut e = started(&enc, 4);
    drop_hero(&mut e, "ada");
    let heal = |t: &str, dice: &str| {
        Command::FiveTorches(FiveTorchesCommand::Heal {
            target: cid(t),
            dice: dice.into(),
            by: Some(cid("cleo")),
        })
    };
    assert_eq!(
        refuse(&mut e, &heal("ada", "2d")),
        ErrorCode::InvalidArgument
    );
    let ev = run(&mut e, &heal("ada", "6"));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::Stabilized { by, .. } if by.as_str() == "cleo"))
    );
    let injury = ev
        .iter()
        .find_map(|x| match x {
            GameEvent::FiveTorches(FiveTorchesEvent::InjuryRolled { injury, .. }) => {
                Some(injury.clone())
            }
            _ => None,
        })
        .unwrap();
    let ada = cs(&e, "ada");
    match injury {
        Injury::Dead => assert_eq!(ada.status, LifeStatus::Dead),
        Injury::Standing { healed } => assert_eq!(ada.hp, Some((6 + healed).min(10))),
        _ => assert_eq!(ada.hp, Some(6), "the healing rolled instead of 1 hp"),
    }
    // Healing a conscious combatant stops at the maximum.
    let ev = run(&mut e, &heal("bram", "50"));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::Healed {
            hp_after: Some(8),
            ..
        }
    )));
    assert_eq!(cs(&e, "bram").hp, Some(8));
}

// five-torches-deep-combat.txt § Death & Injury ("dead if not stabilized within 1 minute or by
// the end of the fight (whichever is later)")
#[test]
fn the_incapacitated_die_when_the_fight_and_the_minute_are_over() {
    // The fight ends with ada down and allies up: they have the rest of the minute.
    let enc = arena(1, 12, "20");
    let mut e = started(&enc, 1);
    drop_hero(&mut e, "ada");
    run(&mut e, &Command::EndBattle);
    let s = e.state();
    assert_eq!(s.phase, Phase::Ended);
    assert!(
        !s.seed_revealed,
        "the seed waits while a PC may still be saved"
    );
    assert_eq!(cs(&e, "ada").status, LifeStatus::Unconscious);
    // Stabilizing after the fight needs no action.
    let mut saved = false;
    for seed in 0..50 {
        let mut e = started(&enc, seed);
        drop_hero(&mut e, "ada");
        run(&mut e, &Command::EndBattle);
        let ev = run(
            &mut e,
            &Command::Stabilize {
                actor: cid("cleo"),
                target: cid("ada"),
            },
        );
        if ev.iter().any(|x| matches!(x, GameEvent::Revived { .. })) {
            assert!(
                ev.iter()
                    .any(|x| matches!(x, GameEvent::SeedRevealed { .. }))
            );
            saved = true;
            break;
        }
    }
    assert!(saved);
    // The GM ends the session: the minute is over.
    let ev = run(&mut e, &Command::EndSession);
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::Died { combatant } if combatant.as_str() == "ada"))
    );
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::SeedRevealed { .. }))
    );
    assert_eq!(
        refuse(
            &mut e,
            &Command::Stabilize {
                actor: cid("cleo"),
                target: cid("ada")
            }
        ),
        ErrorCode::BattleOver
    );
    // No one left up to help: they die when the fight ends.
    let mut e = started(&enc, 1);
    for h in ["ada", "bram", "cleo"] {
        drop_hero(&mut e, h);
        if e.state().phase == Phase::Running {
            let c = current(&e);
            run(&mut e, &end(&c));
        }
    }
    let s = e.state();
    assert_eq!(s.phase, Phase::Ended);
    assert_eq!(s.winner, Some(Side::Monsters));
    assert!(s.seed_revealed);
    assert!(
        s.combatants
            .iter()
            .filter(|c| c.side == Side::Heroes)
            .all(|c| c.status == LifeStatus::Dead)
    );
}

// five-torches-deep-combat.txt § Morale Checks ("DC 11 … 1d20 + WIS mod + Proficiency bonus (if
// fitting) + Monster morale bonus (based off HD)"), § Side, Group, or Individual
#[test]
fn morale_checks_and_their_failure() {
    let enc = arena(14, 12, "1d6");
    let mut e = new_engine(&enc, 1);
    let ev = run(&mut e, &Command::StartBattle);
    assert!(ev.iter().any(|x| matches!(x, GameEvent::MoraleProposed { trigger: MoraleTrigger::BattleStart, combatants } if combatants.len() == 3)));
    let morale = |who: &[&str], group: bool| {
        Command::FiveTorches(FiveTorchesCommand::MoraleCheck {
            combatants: who.iter().map(|w| cid(w)).collect(),
            group,
            advantage: Advantage::None,
            on_failure: MoraleOutcome::Surrender,
        })
    };
    assert_eq!(
        refuse(&mut e, &morale(&["ada", "goon-1"], true)),
        ErrorCode::InvalidArgument,
        "PCs always roll individually"
    );
    // Boss: WIS 12 (+1) + proficiency 2 (HD 4) + morale bonus 2 (HD 4); goon: WIS 8 (-1) + 0.
    let ev = run(&mut e, &morale(&["boss-1", "goon-1"], false));
    let rolls: Vec<(i32, bool)> = ev
        .iter()
        .filter_map(|x| match x {
            GameEvent::FiveTorches(FiveTorchesEvent::MoraleChecked {
                bonus,
                success,
                dc: 11,
                ..
            }) => Some((*bonus, *success)),
            _ => None,
        })
        .collect();
    assert_eq!(rolls.iter().map(|r| r.0).collect::<Vec<_>>(), [5, -1]);
    // Ada: WIS 10 (+0) + proficiency 2 ("morale").
    let ev = run(&mut e, &morale(&["ada"], false));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::FiveTorches(FiveTorchesEvent::MoraleChecked { bonus: 2, .. })
    )));
    // A group rolls once.
    let mut failed = false;
    for seed in 0..100 {
        let mut e = started(&enc, seed);
        let ev = run(&mut e, &morale(&["goon-1", "goon-2"], true));
        let checks = ev
            .iter()
            .filter(|x| {
                matches!(
                    x,
                    GameEvent::FiveTorches(FiveTorchesEvent::MoraleChecked { .. })
                )
            })
            .count();
        assert_eq!(checks, 1);
        if ev.iter().any(|x| {
            matches!(
                x,
                GameEvent::FiveTorches(FiveTorchesEvent::MoraleChecked { success: false, .. })
            )
        }) {
            for g in ["goon-1", "goon-2"] {
                assert_eq!(
                    cs(&e, g).ftd.unwrap().departed,
                    Some(Departure::Surrendered)
                );
            }
            // They no longer act.
            for _ in 0..8 {
                let c = current(&e);
                assert!(!c.starts_with("goon"));
                run(&mut e, &end(&c));
            }
            failed = true;
            break;
        }
    }
    assert!(failed);
}

// five-torches-deep-combat.txt § When To Check Morale ("the first combatant is killed", "the
// leader or expert is killed")
#[test]
fn kills_propose_morale_checks() {
    let enc = arena(14, 1, "1d6");
    let mut e = started(&enc, 1);
    turn_of(&mut e, "ada");
    run(&mut e, &close_to("ada", "goon-1"));
    let ev = run(&mut e, &attack("ada", "sword", "goon-1"));
    assert!(
        ev.iter().any(|x| matches!(x, GameEvent::Slain { .. })),
        "4 hp, 1d8+3"
    );
    assert!(ev.iter().any(|x| matches!(x, GameEvent::MoraleProposed { trigger: MoraleTrigger::FirstKill, combatants } if combatants == &vec![cid("boss-1"), cid("goon-2")])));
    assert!(e.state().ftd.unwrap().kill_proposed);
    run(&mut e, &end("ada"));
    // Killing the leader proposes again; the first kill only once.
    let mut e2 = started(&arena(14, 1, "1d6"), 1);
    run(&mut e2, &end("boss-1"));
    run(&mut e2, &close_to("ada", "goon-2"));
    run(&mut e2, &attack("ada", "sword", "goon-2"));
    run(&mut e2, &end("ada"));
    let mut killed_boss = false;
    for _ in 0..30 {
        let c = current(&e2);
        if c == "bram" {
            let ev = run(&mut e2, &attack("bram", "bolt", "boss-1"));
            if ev.iter().any(|x| matches!(x, GameEvent::Slain { .. })) {
                assert!(ev.iter().any(|x| matches!(
                    x,
                    GameEvent::MoraleProposed {
                        trigger: MoraleTrigger::LeaderKilled,
                        ..
                    }
                )));
                assert!(!ev.iter().any(|x| matches!(
                    x,
                    GameEvent::MoraleProposed {
                        trigger: MoraleTrigger::FirstKill,
                        ..
                    }
                )));
                killed_boss = true;
                break;
            }
        }
        if e2.state().phase != Phase::Running {
            break;
        }
        let c = current(&e2);
        run(&mut e2, &end(&c));
    }
    assert!(killed_boss);
}

// five-torches-deep-combat.txt § Retreat ("takes up the PC's entire turn … If the retreating PC
// fails their check or is successfully hit by an attack … their retreat attempt has failed …
// If successful, the retreating PC manages to escape")
#[test]
fn retreat_takes_the_turn_and_the_gm_rules() {
    let enc = arena(1, 12, "1");
    let mut e = started(&enc, 1);
    turn_of(&mut e, "ada");
    run(&mut e, &close_to("ada", "goon-1"));
    assert_eq!(
        refuse(
            &mut e,
            &Command::FiveTorches(FiveTorchesCommand::Retreat { actor: cid("ada") })
        ),
        ErrorCode::ActionAlreadyUsed
    );
    run(&mut e, &end("ada"));
    turn_of(&mut e, "ada");
    let resolve = |check: Option<RetreatCheck>, attackers: &[&str]| {
        Command::FiveTorches(FiveTorchesCommand::ResolveRetreat {
            check,
            attackers: attackers.iter().map(|a| cid(a)).collect(),
        })
    };
    assert_eq!(
        refuse(&mut e, &resolve(None, &[])),
        ErrorCode::InvalidArgument
    );
    run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::Retreat { actor: cid("ada") }),
    );
    assert_eq!(e.state().ftd.unwrap().retreat, Some(cid("ada")));
    assert_eq!(current(&e), "ada", "the turn waits for the GM");
    assert_eq!(refuse(&mut e, &end("ada")), ErrorCode::InvalidArgument);
    // An enemy attack that hits (hero AC 1) stops the retreat.
    let ev = run(&mut e, &resolve(None, &["goon-1", "goon-2"]));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::FiveTorches(FiveTorchesEvent::RetreatFailed { .. })
    )));
    assert_eq!(
        ev.iter()
            .filter(|x| matches!(x, GameEvent::AttackRolled { .. }))
            .count(),
        1,
        "no more attacks once it failed"
    );
    assert_eq!(cs(&e, "ada").ftd.unwrap().departed, None);
    assert_ne!(current(&e), "ada", "the turn is over");
    // Next time: no check, no attacks: she escapes and leaves the initiative.
    turn_of(&mut e, "ada");
    run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::Retreat { actor: cid("ada") }),
    );
    let ev = run(&mut e, &resolve(None, &[]));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::LeftBattle {
            how: Departure::Escaped,
            ..
        }
    )));
    assert_eq!(
        cs(&e, "ada").ftd.unwrap().departed,
        Some(Departure::Escaped)
    );
    for _ in 0..8 {
        let c = current(&e);
        assert_ne!(c, "ada");
        run(&mut e, &end(&c));
    }
    // A failed check stops it too.
    for seed in 0..100 {
        let mut e = started(&enc, seed);
        turn_of(&mut e, "bram");
        run(
            &mut e,
            &Command::FiveTorches(FiveTorchesCommand::Retreat { actor: cid("bram") }),
        );
        let ev = run(
            &mut e,
            &resolve(
                Some(RetreatCheck {
                    ability: Ability::Dex,
                    dc: 15,
                    proficient: false,
                }),
                &[],
            ),
        );
        if ev
            .iter()
            .any(|x| matches!(x, GameEvent::CheckRolled { success: false, .. }))
        {
            assert!(ev.iter().any(|x| matches!(
                x,
                GameEvent::FiveTorches(FiveTorchesEvent::RetreatFailed { .. })
            )));
            return;
        }
    }
    panic!("no failed retreat check");
}

// Fray invariant: a refused command changes nothing and draws no dice (engine tick, step 3).
#[test]
fn refusals_change_nothing() {
    let enc = arena(14, 12, "1d6");
    let mut e = new_engine(&enc, 1);
    assert_eq!(
        refuse(&mut e, &attack("boss-1", "axe", "ada")),
        ErrorCode::BattleNotStarted
    );
    run(&mut e, &Command::StartBattle);
    assert_eq!(
        refuse(&mut e, &Command::StartBattle),
        ErrorCode::BattleAlreadyStarted
    );
    assert_eq!(
        refuse(&mut e, &attack("boss-1", "nope", "ada")),
        ErrorCode::UnknownAttack
    );
    assert_eq!(
        refuse(&mut e, &attack("boss-1", "axe", "goon-1")),
        ErrorCode::InvalidTarget
    );
    assert_eq!(
        refuse(
            &mut e,
            &Command::Attack {
                actor: cid("boss-1"),
                attack: "axe".into(),
                targets: vec![cid("ada"), cid("bram")],
                mode: Default::default(),
                knock_out: false,
                forced: Vec::new(),
                weapon: None,
                secondary_target: None,
            }
        ),
        ErrorCode::WrongTargetCount
    );
    assert_eq!(
        refuse(
            &mut e,
            &Command::Rally {
                actor: cid("boss-1")
            }
        ),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        refuse(
            &mut e,
            &Command::FiveTorches(FiveTorchesCommand::Check {
                combatant: cid("ada"),
                ability: Ability::Str,
                dc: 10,
                proficient: false,
                advantage: Advantage::None,
                damage: Some("1d6+STR".into()),
                purpose: None,
                task: None,
            })
        ),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        refuse(&mut e, &Command::EndSession),
        ErrorCode::InvalidArgument
    );
}

// Fray invariant (server/src/engine/apply/mod.rs): folding the events rebuilds the state — a whole
// fight of the built-in encounter, each side attacking until one is out.
#[test]
fn a_whole_fight_folds_back_to_the_same_state() {
    let (name, text) = builtin_encounters("five-torches-deep")[0];
    let enc = load_encounter(name, text).unwrap();
    for seed in 0..6 {
        let mut live = new_engine(&enc, seed);
        let mut log = run(&mut live, &Command::StartBattle);
        for _ in 0..400 {
            let s = live.state();
            if s.phase != Phase::Running {
                break;
            }
            let me = current(&live);
            let mine = s.combatant(&cid(&me)).unwrap().clone();
            let foe = s
                .combatants
                .iter()
                .find(|c| {
                    c.side != mine.side
                        && c.status == LifeStatus::Conscious
                        && c.ftd.as_ref().is_some_and(|f| f.departed.is_none())
                })
                .unwrap()
                .id
                .clone();
            let a = &mine.attacks[0];
            if a.range == "close" && !mine.engaged_with.contains(&foe) {
                log.extend(run(&mut live, &close_to(&me, foe.as_str())));
            }
            if let Ok(ev) = live.execute(&attack(&me, &a.id, foe.as_str())) {
                log.extend(ev);
            }
            if live.state().phase == Phase::Running && current(&live) == me {
                log.extend(run(&mut live, &end(&me)));
            }
        }
        if live.state().phase == Phase::Ended && !live.state().seed_revealed {
            log.extend(run(&mut live, &Command::EndSession));
        }
        assert!(live.state().seed_revealed, "seed {seed}: the fight ended");
        let mut folded = new_engine(&enc, seed);
        for x in &log {
            folded.apply(x);
        }
        assert_eq!(folded.state(), live.state(), "seed {seed}");
        assert_eq!(folded.state_hash(), live.state_hash());
    }
}
