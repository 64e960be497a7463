//! Tests of `13th-age-combat.txt` § Rest and Recharge (§ Quick Rests, § Full Heal-ups), limited
//! powers, § Standard, Move, and Quick Actions (quick attacks), § Optional Meaningful Death Rule
//! (the fourth failed death save), and several battles in one session.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use super::tests::{cid, cs, find_seed, refusal, refuse, run, saves};
use crate::content::model::Encounter;
use crate::dice::SessionRng;
use crate::ecs::components::SeedSecret;
use crate::engine::Engine;
use crate::rules::load_encounter;
use fray_protocol::ThirteenthAgeEvent;
use fray_protocol::event::{ActionKind, SavePurpose};
use fray_protocol::state::{LifeStatus, Phase, SessionState};
use fray_protocol::{Command, ErrorCode, GameEvent};

/// Two heroes (`kai` acts first: Dex 30) against a sturdy brute that acts last. `extra_kai` is
/// appended to kai's block (more attacks), `tail` to the file (options, more blocks).
fn text(extra_kai: &str, tail: &str) -> String {
    format!(
        r#"
ruleset = "13th-age"
heroes = ["kai", "lia"]

[[monsters]]
template = "brute"
count = 1

[[hero]]
id = "kai"
name = "Kai"
level = 1
abilities = {{ str = 10, con = 10, dex = 30, int = 10, wis = 10, cha = 10 }}
hp = 40
ac = 40
pd = 40
md = 40
recoveries = 8
recovery_die = 8

[[hero.attacks]]
id = "ranged"
name = "Sling"
range = "ranged"
ability = "dex"
vs = "ac"
damage = "1"
{extra_kai}

[[hero]]
id = "lia"
name = "Lia"
level = 1
abilities = {{ str = 10, con = 10, dex = 20, int = 10, wis = 10, cha = 10 }}
hp = 40
ac = 40
pd = 40
md = 40
recovery_die = 8

[[hero.attacks]]
id = "ranged"
name = "Bow"
range = "ranged"
ability = "dex"
vs = "ac"
damage = "1"

[[monster]]
template = "brute"
name = "Brute"
level = 1
hp = 500
ac = 10
pd = 10
md = 10
initiative = -10

[[monster.attacks]]
id = "melee"
name = "Fist"
range = "melee"
bonus = 0
vs = "ac"
damage = "1"
{tail}"#
    )
}

fn load(text: &str) -> Encounter {
    load_encounter("battles.toml", text).unwrap_or_else(|e| panic!("{e}"))
}

fn secret(seed: u64) -> SeedSecret {
    SeedSecret {
        seed,
        salt: "00".into(),
    }
}

fn engine(enc: &Encounter, seed: u64) -> Engine {
    Engine::new(enc, SessionRng::from_seed(seed), secret(seed)).unwrap()
}

/// The engine rebuilt from its own state after `edit` (as if the edit had come about in play),
/// with the RNG where it was.
fn edited(e: &Engine, enc: &Encounter, seed: u64, edit: impl FnOnce(&mut SessionState)) -> Engine {
    let mut state = e.state();
    edit(&mut state);
    let (s, st) = SessionRng::from_seed(seed).initial_parts();
    let rng = SessionRng::resume(s, st, e.rng().draws());
    Engine::restore(enc, &state, rng, secret(seed)).unwrap()
}

fn hero<'a>(s: &'a mut SessionState, id: &str) -> &'a mut fray_protocol::state::CombatantState {
    s.combatants
        .iter_mut()
        .find(|c| c.id.as_str() == id)
        .unwrap()
}

/// Ends turns until it is `who`'s turn (at most two rounds).
fn to_turn_of(e: &mut Engine, who: &str) -> Vec<GameEvent> {
    let mut all = Vec::new();
    for _ in 0..8 {
        let cur = e.state().current.unwrap();
        if cur.as_str() == who {
            return all;
        }
        all.extend(run(e, &Command::EndTurn { actor: cur }));
    }
    panic!("{who} never got a turn");
}

fn attack(actor: &str, attack: &str, target: &str) -> Command {
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

fn rest(actor: &str, recoveries: u32) -> Command {
    Command::QuickRest {
        actor: cid(actor),
        recoveries,
    }
}

const RESTS: &str = "\n[options]\nrests = true\n";

/// 13th-age-combat.txt § Quick Rests: "If you are staggered when you take a quick rest, you must
/// try to heal yourself" — a staggered hero with recoveries is refused a rest that spends none;
/// a hero above half its hit points may rest without healing.
#[test]
fn a_staggered_hero_must_heal_at_a_quick_rest() {
    let enc = load(&text("", RESTS));
    let mut e = engine(&enc, 1);
    run(&mut e, &Command::StartBattle);
    run(&mut e, &Command::EndBattle);
    let mut e = edited(&e, &enc, 1, |s| {
        hero(s, "kai").hp = Some(20); // exactly half: staggered
        hero(s, "lia").hp = Some(21);
    });
    assert!(cs(&e, "kai").staggered);
    let r = refusal(&mut e, &rest("kai", 0));
    assert_eq!(r.code, ErrorCode::InvalidArgument);
    assert!(r.message.contains("staggered"), "{}", r.message);
    let ev = run(&mut e, &rest("lia", 0));
    assert!(!ev.iter().any(|x| matches!(x, GameEvent::Healed { .. })));
    let ev = run(&mut e, &rest("kai", 1));
    assert_eq!(
        ev.iter()
            .filter(|x| matches!(x, GameEvent::Healed { target, .. } if target.as_str() == "kai"))
            .count(),
        1
    );
    assert_eq!(cs(&e, "kai").recoveries, 7);
}

/// 13th-age-combat.txt § Quick Rests: a recharge power is kept only on a d20 of its recharge
/// value or higher; on a lower roll it stays expended (the failed roll is reported). A daily
/// power is not regained by a quick rest, only by a full heal-up (§ Full Heal-ups).
#[test]
fn a_failed_recharge_roll_keeps_the_power_expended() {
    let extra = r#"
[[hero.attacks]]
id = "blast"
name = "Blast"
range = "ranged"
ability = "dex"
vs = "ac"
damage = "1"
usage = "recharge 16+"

[[hero.attacks]]
id = "nova"
name = "Nova"
range = "ranged"
ability = "dex"
vs = "ac"
damage = "1"
usage = "daily"
"#;
    let enc = load(&text(extra, RESTS));
    let mut outcomes = [false, false];
    for seed in 0..200 {
        let mut e = engine(&enc, seed);
        run(&mut e, &Command::StartBattle);
        run(&mut e, &Command::EndBattle);
        let mut e = edited(&e, &enc, seed, |s| {
            hero(s, "kai").expended = vec!["blast".into(), "nova".into()];
        });
        let ev = run(&mut e, &rest("kai", 0));
        let regained = ev
            .iter()
            .any(|x| matches!(x, GameEvent::PowerRegained { power, roll: Some(r), .. } if power == "blast" && r.natural().unwrap() >= 16));
        let failed = ev.iter().find_map(|x| match x {
            GameEvent::CheckRolled {
                purpose,
                roll,
                dc: 16,
                success: false,
                ..
            } if purpose == "recharge blast" => roll.natural(),
            _ => None,
        });
        assert!(regained != failed.is_some(), "{ev:?}");
        if let Some(n) = failed {
            assert!(n < 16);
        }
        let expended = cs(&e, "kai").expended;
        assert_eq!(expended.contains(&"blast".to_owned()), !regained);
        assert!(
            expended.contains(&"nova".to_owned()),
            "daily stays expended"
        );
        outcomes[usize::from(regained)] = true;
        if outcomes == [true, true] {
            run(&mut e, &Command::FullHealUp);
            assert!(cs(&e, "kai").expended.is_empty());
            return;
        }
    }
    panic!("both recharge outcomes were not seen: {outcomes:?}");
}

/// 13th-age-combat.txt § Optional Meaningful Death Rule: "PCs who fail four death checks fall into
/// a coma" instead of dying (§ Death saves: the fourth failure would kill); a PC in a coma makes
/// no more death saves.
#[test]
fn four_failed_death_saves_mean_a_coma_under_meaningful_death() {
    let enc = load(&text("", "\n[options]\nmeaningful_death = true\n"));
    find_seed("a fourth failed death save", |seed| {
        let mut e = engine(&enc, seed);
        run(&mut e, &Command::StartBattle);
        // Kai lies dying with three failures; Lia keeps the battle going.
        let mut e = edited(&e, &enc, seed, |s| {
            let k = hero(s, "kai");
            k.status = LifeStatus::Unconscious;
            k.hp = Some(-1);
            k.death_save_failures = 3;
        });
        let ev = {
            let cur = e.state().current.unwrap();
            let mut ev = run(&mut e, &Command::EndTurn { actor: cur });
            ev.extend(to_turn_of(&mut e, "lia"));
            ev
        };
        let s = saves(&ev, "kai");
        if s.len() != 1 || s[0].3 {
            return None;
        }
        assert_eq!(s[0].0, SavePurpose::Death);
        assert!(ev.contains(&GameEvent::DeathSaveFailed {
            combatant: cid("kai"),
            failures: 4
        }));
        assert!(ev.contains(&GameEvent::FellIntoComa {
            combatant: cid("kai")
        }));
        assert!(!ev.iter().any(|x| matches!(x, GameEvent::Died { .. })));
        let k = cs(&e, "kai");
        assert_eq!((k.status, k.coma), (LifeStatus::Unconscious, true));
        // Two more rounds: no death save for a PC in a coma.
        let mut later = Vec::new();
        for _ in 0..2 {
            let cur = e.state().current.unwrap();
            later.extend(run(&mut e, &Command::EndTurn { actor: cur }));
            later.extend(to_turn_of(&mut e, "lia"));
        }
        assert!(saves(&later, "kai").is_empty(), "{later:?}");
        assert_eq!(e.state().phase, Phase::Running);
        Some(())
    });
}

/// 13th-age-combat.txt § Standard, Move, and Quick Actions (one of each a turn) and § Regular
/// Actions (a move action can pay for a quick one): a quick attack spends the quick action and
/// leaves the standard action; a second quick attack trades down the move action; a third has
/// nothing left to pay with.
#[test]
fn quick_action_attacks_spend_the_quick_action() {
    let extra = r#"
[[hero.attacks]]
id = "jab"
name = "Jab"
range = "ranged"
ability = "dex"
vs = "ac"
damage = "1"
action = "quick"
"#;
    let enc = load(&text(extra, ""));
    let mut e = engine(&enc, 3);
    run(&mut e, &Command::StartBattle);
    to_turn_of(&mut e, "kai");
    let used = |ev: &[GameEvent]| {
        ev.iter()
            .find_map(|x| match x {
                GameEvent::ActionUsed { action, spent, .. } => Some((*action, *spent)),
                _ => None,
            })
            .unwrap()
    };
    let ev = run(&mut e, &attack("kai", "jab", "brute-1"));
    assert_eq!(used(&ev), (ActionKind::Quick, ActionKind::Quick));
    let a = cs(&e, "kai").actions;
    assert!(a.standard && a.move_action && !a.quick);
    let ev = run(&mut e, &attack("kai", "ranged", "brute-1"));
    assert_eq!(used(&ev), (ActionKind::Standard, ActionKind::Standard));
    let ev = run(&mut e, &attack("kai", "jab", "brute-1"));
    assert_eq!(used(&ev), (ActionKind::Quick, ActionKind::Move));
    // Every action is spent: the turn ended by itself.
    assert_ne!(e.state().current, Some(cid("kai")));
    assert_eq!(
        refuse(&mut e, &attack("kai", "jab", "brute-1")),
        ErrorCode::NotYourTurn
    );
}

/// Limited powers (once per battle, daily): used once, then refused with `power_expended` until a
/// rest regains them; the refusal changes nothing and draws no dice.
#[test]
fn a_used_limited_power_is_refused_with_power_expended() {
    let extra = r#"
[[hero.attacks]]
id = "smite"
name = "Smite"
range = "ranged"
ability = "dex"
vs = "ac"
damage = "1"
usage = "once-per-battle"

[[hero.attacks]]
id = "doom"
name = "Doom"
range = "ranged"
ability = "dex"
vs = "ac"
damage = "1"
usage = "daily"
"#;
    let enc = load(&text(extra, ""));
    let mut e = engine(&enc, 5);
    run(&mut e, &Command::StartBattle);
    to_turn_of(&mut e, "kai");
    let ev = run(&mut e, &attack("kai", "smite", "brute-1"));
    assert!(ev.contains(&GameEvent::PowerExpended {
        combatant: cid("kai"),
        power: "smite".into()
    }));
    run(&mut e, &Command::EndTurn { actor: cid("kai") });
    to_turn_of(&mut e, "kai");
    let r = refusal(&mut e, &attack("kai", "smite", "brute-1"));
    assert_eq!(r.code, ErrorCode::PowerExpended);
    assert!(r.message.contains("once per battle"), "{}", r.message);
    run(&mut e, &attack("kai", "doom", "brute-1"));
    run(&mut e, &Command::EndTurn { actor: cid("kai") });
    to_turn_of(&mut e, "kai");
    assert_eq!(
        refuse(&mut e, &attack("kai", "doom", "brute-1")),
        ErrorCode::PowerExpended
    );
    // At-will attacks are never expended.
    run(&mut e, &attack("kai", "ranged", "brute-1"));
    assert_eq!(cs(&e, "kai").expended, ["doom", "smite"]);
}

/// 13th-age-combat.txt § Attack Bonuses ("+ magic item attack bonus") and § Stacking Rules (only
/// the best magic item bonus counts): the roll's bonus and the defense carry the best item.
#[test]
fn magic_item_bonuses_reach_the_attack_roll_and_the_defenses() {
    let items = "items = [{ name = \"Sling +1\", attack = 1 }, { name = \"Sling +2\", attack = 2 }, { name = \"Leathers +1\", ac = 1 }]";
    let enc =
        load(&text("", "").replace("recoveries = 8\n", &format!("recoveries = 8\n{items}\n")));
    let mut e = engine(&enc, 2);
    run(&mut e, &Command::StartBattle);
    to_turn_of(&mut e, "kai");
    let ev = run(&mut e, &attack("kai", "ranged", "brute-1"));
    let bonus = ev
        .iter()
        .find_map(|x| match x {
            GameEvent::AttackRolled { bonus, .. } => Some(*bonus),
            _ => None,
        })
        .unwrap();
    // Dex 30 (+10) + level 1 + the best sling (+2).
    assert_eq!(bonus, 13);
    assert_eq!(cs(&e, "kai").defenses.ac, 41);
    assert_eq!(cs(&e, "lia").defenses.ac, 40);
}

/// 13th-age-combat.txt § Crit Effects: "If you manage to double your crit damage …, triple it
/// instead. If you manage to double your triple damage, bump it up to quadruple, and so on."
#[test]
fn crit_multiplier_adds_one_multiple_per_doubling() {
    use super::rules::crit_multiplier;
    assert_eq!(
        [0, 1, 2, 3].map(crit_multiplier),
        [2, 3, 4, 5],
        "a crit doubles; doubling a double triples; doubling a triple quadruples"
    );
}

/// 13th-age-combat.txt § Crit Effects: a power that doubles crit damage deals triple damage on a
/// crit (quadruple with two doublings); a plain attack's crit is double (§ Crits) and its hit
/// single.
#[test]
fn a_power_doubling_crit_damage_triples_it() {
    let extra = r#"
[[hero.attacks]]
id = "keen"
name = "Keen Shot"
range = "ranged"
ability = "dex"
vs = "ac"
damage = "1d6+10"
extra_crit_doublings = 1

[[hero.attacks]]
id = "keener"
name = "Keener Shot"
range = "ranged"
ability = "dex"
vs = "ac"
damage = "1d6+10"
extra_crit_doublings = 2

[[hero.attacks]]
id = "plain"
name = "Plain Shot"
range = "ranged"
ability = "dex"
vs = "ac"
damage = "1d6+10"
"#;
    let enc = load(&text(extra, ""));
    for (atk, mult) in [("keen", 3), ("keener", 4), ("plain", 2)] {
        let mut seen = [false, false];
        for seed in 0..400 {
            let mut e = engine(&enc, seed);
            run(&mut e, &Command::StartBattle);
            to_turn_of(&mut e, "kai");
            let ev = run(&mut e, &attack("kai", atk, "brute-1"));
            let outcome = ev.iter().find_map(|x| match x {
                GameEvent::AttackRolled { outcome, .. } => Some(*outcome),
                _ => None,
            });
            let rolled = ev.iter().find_map(|x| match x {
                GameEvent::DamageRolled { roll, .. } => Some(roll.total),
                _ => None,
            });
            let dealt = ev.iter().find_map(|x| match x {
                GameEvent::Damaged { amount, .. } => Some(*amount),
                _ => None,
            });
            match outcome {
                Some(fray_protocol::event::AttackOutcome::Crit) => {
                    assert_eq!(dealt, rolled.map(|r| r * mult), "{atk}");
                    seen[0] = true;
                }
                Some(fray_protocol::event::AttackOutcome::Hit) => {
                    assert_eq!(dealt, rolled, "{atk}: a hit is not multiplied");
                    seen[1] = true;
                }
                _ => {}
            }
            if seen == [true, true] {
                break;
            }
        }
        assert_eq!(seen, [true, true], "{atk}: a crit and a hit");
    }
}

/// 13th-age-combat.txt § Allies: "a character's allies are the other PCs in the party with a
/// possible addition for an animal companion. NPCs don't count as allies for abilities that are
/// counting the number of allies". A power adding damage per ally counts the other conscious,
/// nearby PCs and the companion — not the NPC fighting with the party, nor the attacker.
#[test]
fn powers_counting_allies_count_pcs_and_companions_not_npcs() {
    let extra = r#"
[[hero.attacks]]
id = "rally-cry"
name = "Rallying Strike"
range = "ranged"
ability = "dex"
vs = "ac"
damage = "1"
damage_per_ally = 3
"#;
    let more = |id: &str, kind: &str| {
        format!(
            "\n[[hero]]\nid = \"{id}\"\nname = \"{id}\"\nkind = \"{kind}\"\nlevel = 1\nabilities = {{ str = 10, con = 10, dex = 10, int = 10, wis = 10, cha = 10 }}\nhp = 40\nac = 40\npd = 40\nmd = 40\nrecovery_die = 8\n[[hero.attacks]]\nid = \"melee\"\nname = \"Bite\"\nrange = \"melee\"\nability = \"str\"\nvs = \"ac\"\ndamage = \"1\"\n"
        )
    };
    let enc = load(
        &text(extra, &(more("wolf", "companion") + &more("guide", "npc"))).replace(
            "heroes = [\"kai\", \"lia\"]",
            "heroes = [\"kai\", \"lia\", \"wolf\", \"guide\"]",
        ),
    );
    let hit = |e: &mut Engine| {
        let ev = run(e, &attack("kai", "rally-cry", "brute-1"));
        let hit = ev.iter().any(|x| {
            matches!(x, GameEvent::AttackRolled { outcome, .. } if *outcome == fray_protocol::event::AttackOutcome::Hit)
        });
        hit.then_some(ev)
    };
    let ev = find_seed("a plain hit", |seed| {
        let mut e = engine(&enc, seed);
        run(&mut e, &Command::StartBattle);
        to_turn_of(&mut e, "kai");
        hit(&mut e)
    });
    assert!(ev.contains(&GameEvent::ThirteenthAge(
        ThirteenthAgeEvent::AlliesCounted {
            attacker: cid("kai"),
            allies: vec![cid("lia"), cid("wolf")],
            bonus: 6
        }
    )));
    let dealt = ev.iter().find_map(|x| match x {
        GameEvent::Damaged { amount, .. } => Some(*amount),
        _ => None,
    });
    assert_eq!(dealt, Some(1 + 6));
    // An unconscious PC and a companion far away don't count either.
    let ev = find_seed("a plain hit with fewer allies", |seed| {
        let mut e = engine(&enc, seed);
        run(&mut e, &Command::StartBattle);
        to_turn_of(&mut e, "kai");
        let mut e = edited(&e, &enc, seed, |s| {
            let l = hero(s, "lia");
            l.status = LifeStatus::Unconscious;
            l.hp = Some(0);
            hero(s, "wolf").far_away = true;
        });
        hit(&mut e)
    });
    assert!(ev.contains(&GameEvent::ThirteenthAge(
        ThirteenthAgeEvent::AlliesCounted {
            attacker: cid("kai"),
            allies: vec![],
            bonus: 0
        }
    )));
}

/// Content checks of the clauses above: errors name the file, the field and the reason.
#[test]
fn crit_doubling_ally_and_kind_fields_are_validated() {
    let bad = |t: String, want: &str| {
        let err = load_encounter("battles.toml", &t).unwrap_err().to_string();
        assert_eq!(err, want);
    };
    bad(
        text("extra_crit_doublings = 5", ""),
        "battles.toml: hero 'kai'.attacks[0].extra_crit_doublings: 5 is outside 0..=4",
    );
    bad(
        text("damage_per_ally = 0", ""),
        "battles.toml: hero 'kai'.attacks[0].damage_per_ally: 0 is outside 1..=20",
    );
    bad(
        text("", "damage_per_ally = 2"),
        "battles.toml: monster 'brute'.attacks[0].damage_per_ally: only heroes' powers count allies (a monster's allies are NPCs, which don't count)",
    );
    bad(
        text("", "").replace("name = \"Lia\"", "name = \"Lia\"\nkind = \"pet\""),
        "battles.toml: hero 'lia'.kind: 'pet' is not a kind (pc, companion or npc)",
    );
}

/// Several battles in one session (13th-age-combat.txt § Rest and Recharge: "After each battle,
/// you can use a quick rest to get ready for the next battle"): `next_battle` replaces the last
/// battle's monsters with the next battle's; heroes keep hit points, recoveries, expended daily
/// and unrecharged recharge powers (§ Quick Rests) and lasting wounds (§ Optional Lasting-Wound
/// Rule), regain once-per-battle powers, and start the battle's counts afresh (§ Death saves: "in
/// a single battle"; § Rally: once a battle). The seed waits for `end_session`. Folding the
/// events and restoring a snapshot of the later battle give the same state.
#[test]
fn a_session_goes_on_to_its_next_battle() {
    let extra = r#"
[[hero.attacks]]
id = "smite"
name = "Smite"
range = "ranged"
ability = "dex"
vs = "ac"
damage = "1"
usage = "once-per-battle"

[[hero.attacks]]
id = "doom"
name = "Doom"
range = "ranged"
ability = "dex"
vs = "ac"
damage = "1"
usage = "daily"
"#;
    let tail = "\n[options]\nrests = true\nlasting_wounds = true\n\n[[battles]]\ntitle = \"Second wave\"\nmonsters = [{ template = \"brute\", count = 2 }]\n";
    let enc = load(&text(extra, tail));
    assert_eq!(enc.battles.len(), 1);
    let ids: Vec<&str> = enc.battles[0]
        .monsters
        .iter()
        .map(|m| m.id.as_str())
        .collect();
    assert_eq!(
        ids,
        ["brute-2", "brute-3"],
        "ids go on from the first battle"
    );

    let seed = 4;
    let mut e = engine(&enc, seed);
    assert_eq!((e.state().battle, e.state().battles), (1, 2));
    run(&mut e, &Command::StartBattle);
    assert_eq!(
        refuse(&mut e, &Command::NextBattle),
        ErrorCode::BattleNotStarted
    );
    to_turn_of(&mut e, "kai");
    run(&mut e, &attack("kai", "smite", "brute-1"));
    let ev = run(&mut e, &Command::EndBattle);
    assert!(
        !ev.iter()
            .any(|x| matches!(x, GameEvent::SeedRevealed { .. }))
    );
    // What the first battle left behind (as if it had come about in play).
    let mut e = edited(&e, &enc, seed, |s| {
        let k = hero(s, "kai");
        k.hp = Some(25);
        k.max_hp = Some(37);
        k.lasting_wounds = 1;
        k.recoveries = 5;
        k.expended = vec!["doom".into(), "smite".into()];
        k.death_save_failures = 2;
        k.rallies = 1;
        k.dropped = true;
    });
    run(&mut e, &rest("lia", 0));
    let at_edit = e.state();
    let draws = e.rng().draws();
    let ev = run(&mut e, &Command::NextBattle);
    assert_eq!(
        ev,
        [
            GameEvent::PowerRegained {
                combatant: cid("kai"),
                power: "smite".into(),
                roll: None
            },
            GameEvent::NewBattle {
                battle: 2,
                title: "Second wave".into(),
                monsters: vec![cid("brute-2"), cid("brute-3")]
            }
        ]
    );
    assert_eq!(e.rng().draws(), draws, "nothing rolled");
    let s = e.state();
    assert_eq!(
        (s.battle, s.phase, s.round, s.winner),
        (2, Phase::Setup, 0, None)
    );
    let ids: Vec<&str> = s.combatants.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["brute-2", "brute-3", "kai", "lia"]);
    let k = cs(&e, "kai");
    assert_eq!(
        (k.hp, k.max_hp, k.lasting_wounds, k.recoveries),
        (Some(25), Some(37), 1, 5)
    );
    assert_eq!(k.expended, ["doom"], "the daily power stays expended");
    assert_eq!((k.death_save_failures, k.rallies, k.dropped), (0, 0, false));
    assert!(
        !cs(&e, "lia").rested,
        "a quick rest again after this battle"
    );
    assert_eq!(
        refuse(&mut e, &Command::NextBattle),
        ErrorCode::BattleNotStarted
    );
    assert_eq!(refuse(&mut e, &rest("kai", 0)), ErrorCode::BattleNotStarted);

    let ev = run(&mut e, &Command::StartBattle);
    let order = ev
        .iter()
        .find_map(|x| match x {
            GameEvent::TurnOrder { order } => Some(order.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(order.len(), 4);
    assert!(order.contains(&cid("brute-2")) && !order.contains(&cid("brute-1")));
    to_turn_of(&mut e, "kai");
    assert_eq!(
        refuse(&mut e, &attack("kai", "smite", "brute-1")),
        ErrorCode::UnknownCombatant
    );
    run(&mut e, &attack("kai", "smite", "brute-2"));

    // A snapshot of the later battle restores to the same state, and play goes on alike.
    let snap = e.state();
    let mut restored = edited(&e, &enc, seed, |_| {});
    assert_eq!(restored.state(), snap);
    assert_eq!(
        run(&mut restored, &Command::EndTurn { actor: cid("kai") }),
        run(&mut e, &Command::EndTurn { actor: cid("kai") })
    );

    let ev = run(&mut e, &Command::EndBattle);
    assert!(
        !ev.iter()
            .any(|x| matches!(x, GameEvent::SeedRevealed { .. }))
    );
    let r = refusal(&mut e, &Command::NextBattle);
    assert_eq!(r.code, ErrorCode::InvalidArgument);
    assert!(r.message.contains("no more battles"), "{}", r.message);
    let ev = run(&mut e, &Command::EndSession);
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::SeedRevealed { .. }))
    );

    // Folding every event since the edit onto that state rebuilds the final state.
    let mut all = Vec::new();
    let mut replay = {
        let (s0, st) = SessionRng::from_seed(seed).initial_parts();
        Engine::restore(
            &enc,
            &at_edit,
            SessionRng::resume(s0, st, draws),
            secret(seed),
        )
        .unwrap()
    };
    let mut live = {
        let (s0, st) = SessionRng::from_seed(seed).initial_parts();
        Engine::restore(
            &enc,
            &at_edit,
            SessionRng::resume(s0, st, draws),
            secret(seed),
        )
        .unwrap()
    };
    for cmd in [
        Command::NextBattle,
        Command::StartBattle,
        Command::EndBattle,
        Command::EndSession,
    ] {
        all.extend(run(&mut live, &cmd));
    }
    for ev in &all {
        replay.apply(ev);
    }
    assert_eq!(replay.state(), live.state());
    assert_eq!(replay.state_hash(), live.state_hash());
}

/// Later battles need rests between them; their content is validated like the first battle's.
#[test]
fn later_battles_are_validated_on_load() {
    let bad = |tail: &str, want: &str| {
        let err = load_encounter("battles.toml", &text("", tail))
            .unwrap_err()
            .to_string();
        assert_eq!(err, want);
    };
    bad(
        "\n[[battles]]\nmonsters = [{ template = \"brute\" }]\n",
        "battles.toml: battles: later battles come after rests: set [options] rests = true",
    );
    bad(
        "\n[options]\nrests = true\n[[battles]]\nmonsters = [{ template = \"dragon\" }]\n",
        "battles.toml: battles[0].monsters[0].template: no monster template 'dragon'",
    );
    bad(
        "\n[options]\nrests = true\n[[battles]]\ntitle = \"Empty\"\n",
        "battles.toml: battles[0].monsters: a battle needs at least one monster group",
    );
    // Without later battles, next_battle is refused.
    let enc = load(&text("", RESTS));
    let mut e = engine(&enc, 1);
    run(&mut e, &Command::StartBattle);
    run(&mut e, &Command::EndBattle);
    assert_eq!(
        refuse(&mut e, &Command::NextBattle),
        ErrorCode::InvalidArgument
    );
}
