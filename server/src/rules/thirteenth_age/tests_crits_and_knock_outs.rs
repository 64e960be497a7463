//! Tests of `13th-age-combat.txt` § Crit Range (a power's expanded crit range, and how it adds
//! to § Vulnerable) and § Damage / § Unconscious (a monster knocked out instead of slain), through
//! the real engine.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use super::rules;
use super::tests::{atks, cid, cs, find_seed, next_turn_of, refusal, refuse, run, turn_started};
use crate::content::model::Encounter;
use crate::dice::SessionRng;
use crate::ecs::components::{Effects, Resistances, SeedSecret};
use crate::engine::Engine;
use crate::rules::load_encounter;
use fray_protocol::ThirteenthAgeEvent;
use fray_protocol::command::AttackMode;
use fray_protocol::event::{AttackOutcome, Condition, DamageType, EffectDuration, EffectKind};
use fray_protocol::state::{LifeStatus, Phase};
use fray_protocol::{Command, ErrorCode, GameEvent, Side};

/// Kai (Dex 30: ranged bonus 11, initiative 11, first to act) against the listed monster groups.
/// `brute`: AC 10 (Kai hits on anything but a natural 1), vulnerable to cold. `wall`: AC 50
/// (only a natural 20 hits). `goblin`: 10 hp, AC 10. `kai_extra` is appended to Kai's block (more attacks).
fn text(groups: &[(&str, u32)], kai_extra: &str) -> String {
    let groups: String = groups
        .iter()
        .map(|(t, n)| format!("[[monsters]]\ntemplate = \"{t}\"\ncount = {n}\n\n"))
        .collect();
    format!(
        r#"
ruleset = "13th-age"
heroes = ["kai"]

{groups}
[[hero]]
id = "kai"
name = "Kai"
level = 1
abilities = {{ str = 10, con = 10, dex = 30, int = 10, wis = 10, cha = 10 }}
hp = 500
ac = 40
pd = 40
md = 40
recovery_die = 8

[[hero.attacks]]
id = "plain"
name = "Plain Shot"
range = "ranged"
ability = "dex"
vs = "ac"
damage = "10"

[[hero.attacks]]
id = "keen"
name = "Keen Shot"
range = "ranged"
ability = "dex"
vs = "ac"
damage = "10"
expand_crit = 1

[[hero.attacks]]
id = "keen-frost"
name = "Keen Frost"
range = "ranged"
ability = "dex"
vs = "ac"
damage = "10"
damage_type = "cold"
magic = true
expand_crit = 1

[[hero.attacks]]
id = "cosh"
name = "Cosh"
range = "ranged"
ability = "dex"
vs = "ac"
damage = "100"
{kai_extra}

[[monster]]
template = "brute"
name = "Brute"
level = 1
hp = 5000
ac = 10
pd = 10
md = 10
initiative = -10
vulnerable = ["cold"]

[[monster.attacks]]
id = "melee"
name = "Fist"
range = "ranged"
bonus = 0
vs = "ac"
damage = "1"

[[monster]]
template = "wall"
name = "Wall"
level = 1
hp = 5000
ac = 50
pd = 50
md = 50
initiative = -10

[[monster.attacks]]
id = "melee"
name = "Slam"
range = "ranged"
bonus = 0
vs = "ac"
damage = "1"

[[monster]]
template = "goblin"
name = "Goblin"
level = 1
hp = 10
ac = 10
pd = 10
md = 10
initiative = -10

[[monster.attacks]]
id = "melee"
name = "Knife"
range = "ranged"
bonus = 0
vs = "ac"
damage = "1"
"#
    )
}

fn load(text: &str) -> Encounter {
    load_encounter("crits.toml", text).unwrap_or_else(|e| panic!("{e}"))
}

/// An engine before the battle.
fn fresh(enc: &Encounter, seed: u64) -> Engine {
    Engine::new(
        enc,
        SessionRng::from_seed(seed),
        SeedSecret {
            seed,
            salt: "00".into(),
        },
    )
    .unwrap()
}

/// An engine with the battle started; Kai's turn (d20 + 11 beats d20 − 10).
fn started(enc: &Encounter, seed: u64) -> Engine {
    let mut e = fresh(enc, seed);
    run(&mut e, &Command::StartBattle);
    assert_eq!(e.state().current, Some(cid("kai")));
    e
}

fn shot(actor: &str, attack: &str, target: &str, knock_out: bool) -> Command {
    Command::Attack {
        actor: cid(actor),
        attack: attack.into(),
        targets: vec![cid(target)],
        mode: AttackMode::Standard,
        knock_out,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    }
}

/// The natural roll, the outcome and the damage dealt by a one-target attack.
fn result(ev: &[GameEvent]) -> (u32, AttackOutcome, Option<i32>) {
    let a = atks(ev);
    assert_eq!(a.len(), 1, "{ev:?}");
    let dealt = ev.iter().find_map(|e| match e {
        GameEvent::Damaged { amount, .. } => Some(*amount),
        _ => None,
    });
    (a[0].natural, a[0].outcome, dealt)
}

/// For each seed in 0..400, Kai's first attack with `attack` against `target`: (natural,
/// outcome, damage).
fn first_attacks(
    groups: &[(&str, u32)],
    attack: &str,
    target: &str,
) -> Vec<(u32, AttackOutcome, Option<i32>)> {
    let enc = load(&text(groups, ""));
    (0..400)
        .map(|seed| {
            let mut e = started(&enc, seed);
            result(&run(&mut e, &shot("kai", attack, target, false)))
        })
        .collect()
}

// ------------------------------------------------------------------------------------------
// § Crit Range
// ------------------------------------------------------------------------------------------

/// 13th-age-combat.txt § Crit Range: "Some powers and spells expand your crit range. Each point
/// of improvement drops the number needed to score a critical hit by 1." A power with
/// `expand_crit = 1` crits on a natural 19 that hits (double damage); 18 is a plain hit; the
/// same roll with a plain attack is a hit.
#[test]
fn a_power_with_an_expanded_crit_range_crits_on_19_when_it_hits() {
    // The goblin is not vulnerable to anything: only the power expands the range.
    let keen = first_attacks(&[("goblin", 1), ("brute", 1)], "keen", "goblin-1");
    let plain = first_attacks(&[("goblin", 1), ("brute", 1)], "plain", "goblin-1");
    let mut seen = [false; 3];
    for ((natural, outcome, dealt), (pn, po, _)) in keen.into_iter().zip(plain) {
        assert_eq!(natural, pn, "same seed, same roll");
        match natural {
            20 | 19 => {
                assert_eq!((outcome, dealt), (AttackOutcome::Crit, Some(20)));
                if natural == 19 {
                    assert_eq!(po, AttackOutcome::Hit, "a plain attack hits on 19");
                    seen[0] = true;
                }
            }
            18 => {
                assert_eq!((outcome, dealt), (AttackOutcome::Hit, Some(10)));
                seen[1] = true;
            }
            1 => assert_eq!(outcome, AttackOutcome::Fumble),
            _ => {
                assert_eq!(outcome, AttackOutcome::Hit);
                seen[2] = true;
            }
        }
    }
    assert_eq!(seen, [true; 3]);
}

/// 13th-age-combat.txt § Crit Range / § Crits: a natural roll in an expanded range crits only
/// when the attack hits; a natural 20 always crits. Against AC 50 (Kai's +11 needs a 39) the
/// power's 19 misses and its 20 crits.
#[test]
fn an_expanded_crit_range_needs_a_hit_but_a_natural_20_always_crits() {
    let mut seen = [false; 2];
    for (natural, outcome, dealt) in first_attacks(&[("wall", 1)], "keen", "wall-1") {
        match natural {
            20 => {
                assert_eq!((outcome, dealt), (AttackOutcome::Crit, Some(20)));
                seen[0] = true;
            }
            19 => {
                assert_eq!((outcome, dealt), (AttackOutcome::Miss, None));
                seen[1] = true;
            }
            1 => assert_eq!(outcome, AttackOutcome::Fumble),
            _ => assert_eq!(outcome, AttackOutcome::Miss),
        }
    }
    assert_eq!(seen, [true; 2]);
}

/// 13th-age-combat.txt § Crit Range + § Vulnerable ("crit range expanded by 2"): each point of
/// improvement drops the number by 1, so a power's expansion and the target's vulnerability add
/// up (§ Stacking Rules: effects from different game elements stack). Keen Frost (`expand_crit =
/// 1`, cold) against the cold-vulnerable brute crits on 17+; 16 is a hit.
#[test]
fn a_power_expansion_adds_to_the_vulnerable_expansion() {
    let mut seen = [false; 2];
    for (natural, outcome, dealt) in first_attacks(&[("brute", 1)], "keen-frost", "brute-1") {
        match natural {
            17..=20 => {
                assert_eq!(
                    (outcome, dealt),
                    (AttackOutcome::Crit, Some(20)),
                    "{natural}"
                );
                seen[0] |= natural == 17;
            }
            16 => {
                assert_eq!((outcome, dealt), (AttackOutcome::Hit, Some(10)));
                seen[1] = true;
            }
            1 => assert_eq!(outcome, AttackOutcome::Fumble),
            _ => assert_eq!(outcome, AttackOutcome::Hit),
        }
    }
    assert_eq!(seen, [true; 2]);
    // The numbers: vulnerability (the condition or a damage-type vulnerability, which don't
    // stack with each other) is 2 points, the power's own points add to it; never below 2 (a
    // natural 1 is a fumble).
    let vulnerable = Effects(vec![fray_protocol::event::Effect {
        id: 1,
        target: cid("x"),
        source: cid("y"),
        kind: EffectKind::Condition(Condition::Vulnerable),
        duration: EffectDuration::EndOfBattle,
        armed: false,
    }]);
    let cold = Resistances {
        resist: Vec::new(),
        vulnerable: vec![DamageType::Cold],
    };
    let none = Effects::default();
    let plain = Resistances::default();
    let t = rules::crit_threshold;
    assert_eq!(t(&none, &plain, None, 0), 20);
    assert_eq!(t(&none, &plain, None, 1), 19);
    assert_eq!(t(&none, &plain, None, 5), 15);
    assert_eq!(t(&vulnerable, &plain, None, 0), 18);
    assert_eq!(t(&vulnerable, &plain, None, 2), 16);
    assert_eq!(t(&none, &cold, Some(DamageType::Cold), 1), 17);
    assert_eq!(t(&vulnerable, &cold, Some(DamageType::Cold), 1), 17);
    assert_eq!(t(&vulnerable, &cold, Some(DamageType::Cold), 5), 13);
}

/// Content checks: `expand_crit` is 0..=5; errors name the file, the field and the reason.
#[test]
fn expand_crit_is_validated() {
    for (v, want) in [
        (
            "6",
            "crits.toml: hero 'kai'.attacks[4].expand_crit: 6 is outside 0..=5",
        ),
        (
            "-1",
            "crits.toml: hero 'kai'.attacks[4].expand_crit: -1 is outside 0..=5",
        ),
    ] {
        let extra = format!(
            "\n[[hero.attacks]]\nid = \"wild\"\nname = \"Wild\"\nrange = \"ranged\"\n\
             ability = \"dex\"\nvs = \"ac\"\ndamage = \"1\"\nexpand_crit = {v}\n"
        );
        let err = load_encounter("crits.toml", &text(&[("brute", 1)], &extra))
            .unwrap_err()
            .to_string();
        assert_eq!(err, want);
    }
    let enc = load(&text(&[("brute", 1)], ""));
    let kai = enc.combatants.iter().find(|c| c.id == cid("kai")).unwrap();
    let expand: Vec<(&str, u8)> = kai
        .attacks
        .iter()
        .map(|a| (a.id.as_str(), a.expand_crit))
        .collect();
    assert_eq!(
        expand,
        [
            ("plain", 0),
            ("keen", 1),
            ("keen-frost", 1),
            ("cosh", 0),
            ("unarmed", 0)
        ]
    );
}

// ------------------------------------------------------------------------------------------
// § Damage / § Unconscious: knocking a monster out
// ------------------------------------------------------------------------------------------

/// A fight with two goblins in which Kai's first cosh hits (anything but a natural 1).
fn goblins() -> (Encounter, u64) {
    let enc = load(&text(&[("goblin", 2)], ""));
    let seed = find_seed("a first hit", |seed| {
        let mut e = started(&enc, seed);
        let ev = run(&mut e, &shot("kai", "cosh", "goblin-1", true));
        atks(&ev)[0].outcome.is_hit().then_some(seed)
    });
    (enc, seed)
}

/// 13th-age-combat.txt § Damage ("You slay enemies (or occasionally knock them out) at 0 hp")
/// and § Unconscious ("When monsters drop to 0 hp, it means they've been slain, unless the
/// characters' intent is to keep the monster alive and the attack seems like a potentially
/// humane blow that could knock the monster unconscious instead"): a hero's attack sent with
/// `knock_out` drops the goblin unconscious — knocked out, out of the fight (no target, no
/// turn) — and the battle ends when the other goblin is slain: a knocked-out monster is
/// defeated. Folding the events rebuilds the state.
#[test]
fn a_knock_out_blow_knocks_a_monster_out_instead_of_slaying_it() {
    let (enc, seed) = goblins();
    let mut e = started(&enc, seed);
    let ev = run(&mut e, &shot("kai", "cosh", "goblin-1", true));
    assert!(ev.contains(&GameEvent::KnockedOut {
        combatant: cid("goblin-1")
    }));
    assert!(
        !ev.iter().any(|x| matches!(x, GameEvent::Slain { .. })),
        "{ev:?}"
    );
    let g = cs(&e, "goblin-1");
    assert_eq!(g.status, LifeStatus::KnockedOut);
    assert_eq!(g.hp, Some(0));
    assert!(!g.staggered, "out of the fight, not shown staggered");
    assert!(g.engaged_with.is_empty() && g.effects.is_empty());
    assert_eq!(e.state().phase, Phase::Running, "goblin-2 is still up");
    // Out of the fight: its turn is skipped, and it is no target.
    let round = next_turn_of(&mut e, "kai");
    assert!(turn_started(&round, "goblin-2"));
    assert!(!turn_started(&round, "goblin-1"), "{round:?}");
    assert_eq!(
        refuse(&mut e, &shot("kai", "cosh", "goblin-1", false)),
        ErrorCode::InvalidTarget
    );
    // Slaying the last goblin ends the battle: the heroes win.
    let mut last = Vec::new();
    for _ in 0..20 {
        last = run(&mut e, &shot("kai", "cosh", "goblin-2", false));
        if e.state().phase == Phase::Ended {
            break;
        }
        next_turn_of(&mut e, "kai");
    }
    assert!(last.contains(&GameEvent::Slain {
        combatant: cid("goblin-2")
    }));
    assert!(last.contains(&GameEvent::BattleEnded {
        winner: Some(Side::Heroes)
    }));
    assert_eq!(cs(&e, "goblin-1").status, LifeStatus::KnockedOut);
}

/// Folding the events of a knock-out and of the GM's rulings rebuilds the state
/// (engine/apply/); the rulings draw no dice, so the blow comes out as without them.
#[test]
fn folding_a_knock_out_rebuilds_the_state() {
    let (enc, seed) = goblins();
    let mut live = fresh(&enc, seed);
    let mut events = run(&mut live, &Command::StartBattle);
    events.extend(run(&mut live, &Command::KnockOuts { allowed: false }));
    events.extend(run(&mut live, &Command::KnockOuts { allowed: true }));
    let blow = run(&mut live, &shot("kai", "cosh", "goblin-1", true));
    events.extend(blow.clone());
    let mut folded = fresh(&enc, seed);
    for x in &events {
        folded.apply(x);
    }
    assert_eq!(folded.state(), live.state());
    assert_eq!(folded.state_hash(), live.state_hash());
    assert_eq!(cs(&folded, "goblin-1").status, LifeStatus::KnockedOut);
    let mut plain = started(&enc, seed);
    assert_eq!(
        run(&mut plain, &shot("kai", "cosh", "goblin-1", true)),
        blow
    );
}

/// 13th-age-combat.txt § Unconscious: whether the blow "seems like a potentially humane blow"
/// is the GM's judgement. Knock-outs are allowed until the GM refuses them (`knock_outs`);
/// then a knock-out blow is refused with `knock_out_refused` and changes nothing (no die drawn),
/// while the same attack without `knock_out` slays. Ruling the same way twice is refused; the
/// GM may allow them again.
#[test]
fn the_gm_refuses_knock_outs_and_refused_blows_change_nothing() {
    let (enc, seed) = goblins();
    let mut e = started(&enc, seed);
    assert!(e.state().knock_outs_allowed, "allowed by default");
    assert_eq!(
        refuse(&mut e, &Command::KnockOuts { allowed: true }),
        ErrorCode::InvalidArgument
    );
    let ev = run(&mut e, &Command::KnockOuts { allowed: false });
    assert_eq!(
        ev,
        vec![GameEvent::ThirteenthAge(
            ThirteenthAgeEvent::KnockOutsRuled { allowed: false }
        )]
    );
    assert!(!e.state().knock_outs_allowed);
    let r = refusal(&mut e, &shot("kai", "cosh", "goblin-1", true));
    assert_eq!(r.code, ErrorCode::KnockOutRefused);
    assert!(r.message.contains("refuses knock-out blows"), "{r}");
    let ev = run(&mut e, &shot("kai", "cosh", "goblin-1", false));
    assert!(ev.contains(&GameEvent::Slain {
        combatant: cid("goblin-1")
    }));
    run(&mut e, &Command::KnockOuts { allowed: true });
    assert!(e.state().knock_outs_allowed);
}

/// 13th-age-combat.txt § Unconscious: the intent to keep a monster alive is the characters'. A
/// monster's attack sent with `knock_out` is refused and changes nothing; a hero dropped to 0
/// hp falls unconscious as always (§ Death and Dying).
#[test]
fn only_heroes_declare_knock_out_blows() {
    let (enc, seed) = goblins();
    let mut e = started(&enc, seed);
    run(&mut e, &Command::EndTurn { actor: cid("kai") });
    assert_eq!(e.state().current, Some(cid("goblin-1")));
    let r = refusal(&mut e, &shot("goblin-1", "melee", "kai", true));
    assert_eq!(r.code, ErrorCode::KnockOutRefused);
    assert!(r.message.contains("monster"), "{r}");
    run(&mut e, &shot("goblin-1", "melee", "kai", false));
}

/// A knock-out blow that does not drop the monster to 0 hp only damages it; the intent matters
/// at 0 hp only.
#[test]
fn a_knock_out_blow_that_leaves_hit_points_only_damages() {
    let enc = load(&text(&[("brute", 1)], ""));
    let seed = find_seed("a hit", |seed| {
        let mut e = started(&enc, seed);
        let ev = run(&mut e, &shot("kai", "cosh", "brute-1", true));
        (atks(&ev)[0].outcome == AttackOutcome::Hit).then_some(seed)
    });
    let mut e = started(&enc, seed);
    let ev = run(&mut e, &shot("kai", "cosh", "brute-1", true));
    assert!(
        !ev.iter()
            .any(|x| matches!(x, GameEvent::KnockedOut { .. } | GameEvent::Slain { .. }))
    );
    let b = cs(&e, "brute-1");
    assert_eq!((b.status, b.hp), (LifeStatus::Conscious, Some(4900)));
}
