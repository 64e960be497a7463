//! Orcus rules outside the attack roll — regeneration, recharge, immunities, the universal
//! actions (Full Defense, Rally, Coup De Grace, Stabilize), the death save on a 20 and damage
//! never below 0 — each test naming the section of `orcus-basic-rules.txt` it checks.

use super::tests::{NEXT_TO_LIRA, SPREAD, arena_src, atk, end, mv, smash, started, until};
use crate::content::model::Encounter;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, current, refusal, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::OrcusCommand;
use fray_protocol::command::AttackMode;
use fray_protocol::event::{
    ActionKind, BonusStat, Condition, DamageCause, Effect, EffectDuration, EffectKind, GameEvent,
    SavePurpose,
};
use fray_protocol::grid::MoveMode;
use fray_protocol::state::LifeStatus;
use fray_protocol::{Command, ErrorCode};

const OPEN: [&str; 6] = [
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
];

/// The arena's content on an open map: `kael_powers` are added to Kael's powers, `traits` to
/// the brute's stat block, `monster_powers` to the brute's powers.
fn src(kael_powers: &str, traits: &str, monster_powers: &str, positions: &str) -> String {
    arena_src(&OPEN, monster_powers, 5, positions)
        .replace(
            "[[hero]]\nid = \"lira\"",
            &format!("{kael_powers}\n[[hero]]\nid = \"lira\""),
        )
        .replace(
            "role = \"wrecker\"",
            &format!("role = \"wrecker\"\n{traits}"),
        )
}

fn load(src: &str) -> Encounter {
    load_encounter("arena.toml", src).unwrap()
}

fn encounter(kael_powers: &str, traits: &str, monster_powers: &str, positions: &str) -> Encounter {
    load(&src(kael_powers, traits, monster_powers, positions))
}

/// A ranged power of Kael's that hits unless the die shows a natural 1.
fn shot(id: &str, hit: &str, damage_type: &str, on_hit: &str) -> String {
    let ty = if damage_type.is_empty() {
        String::new()
    } else {
        format!("damage_type = \"{damage_type}\"\n")
    };
    let on_hit = if on_hit.is_empty() {
        String::new()
    } else {
        format!("on_hit = {on_hit}\n")
    };
    format!(
        r#"[[hero.powers]]
id = "{id}"
name = "{id}"
origin = "ranged"
range = [10, 10]
vs = "ac"
bonus = 40
hit = "{hit}"
{ty}{on_hit}"#
    )
}

fn hp(e: &Engine, id: &str) -> i32 {
    cs(e, id).hp.expect("hit points")
}

/// Whether `attacker` hit with an attack roll among `ev`.
fn hit(ev: &[GameEvent], attacker: &str) -> bool {
    ev.iter().any(|x| {
        matches!(x, GameEvent::AttackRolled { attacker: a, outcome, .. }
            if a.as_str() == attacker && outcome.is_hit())
    })
}

/// The damage `who` took among `ev`.
fn damaged(ev: &[GameEvent], who: &str) -> Vec<i32> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::Damaged { target, amount, .. } if target.as_str() == who => Some(*amount),
            _ => None,
        })
        .collect()
}

/// `(amount, hp_after)` of the healing `who` received among `ev`.
fn heals(ev: &[GameEvent], who: &str) -> Vec<(i32, Option<i32>)> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::Healed {
                target,
                amount,
                hp_after,
                ..
            } if target.as_str() == who => Some((*amount, *hp_after)),
            _ => None,
        })
        .collect()
}

/// The events from the start of `who`'s turn on.
fn from_turn_start<'a>(ev: &'a [GameEvent], who: &str) -> &'a [GameEvent] {
    let at = ev
        .iter()
        .position(
            |x| matches!(x, GameEvent::TurnStarted { combatant, .. } if combatant.as_str() == who),
        )
        .unwrap_or_else(|| panic!("{who}'s turn did not start: {ev:?}"));
    &ev[at..]
}

/// The effects applied among `ev`.
fn applied(ev: &[GameEvent]) -> Vec<Effect> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::EffectApplied { effect } => Some(effect.clone()),
            _ => None,
        })
        .collect()
}

fn ended(ev: &[GameEvent], who: &str, effect: u32) -> bool {
    ev.iter().any(|x| {
        matches!(x, GameEvent::EffectEnded { target, effect: id, .. }
            if target.as_str() == who && *id == effect)
    })
}

/// Ends turns until `who`'s turn has ended (by a command or by itself); returns the events.
fn through_turn_of(e: &mut Engine, who: &str) -> Vec<GameEvent> {
    let mut all = Vec::new();
    for _ in 0..20 {
        let c = current(e);
        all.extend(run(e, &end(&c)));
        if all
            .iter()
            .any(|x| matches!(x, GameEvent::TurnEnded { combatant } if combatant.as_str() == who))
        {
            return all;
        }
    }
    panic!("{who}'s turn never ended");
}

/// The death saves `who` rolled among `ev`: naturals.
fn death_saves(ev: &[GameEvent], who: &str) -> Vec<u32> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::SaveRolled {
                combatant,
                purpose: SavePurpose::Death,
                roll,
                ..
            } if combatant.as_str() == who => roll.natural(),
            _ => None,
        })
        .collect()
}

fn coup_de_grace(actor: &str, power: &str, target: &str) -> Command {
    Command::Attack {
        actor: cid(actor),
        attack: power.into(),
        targets: vec![cid(target)],
        mode: AttackMode::CoupDeGrace,
        knock_out: false,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    }
}

fn full_defense(actor: &str) -> Command {
    Command::Orcus(OrcusCommand::FullDefense { actor: cid(actor) })
}

fn rally(actor: &str) -> Command {
    Command::Rally { actor: cid(actor) }
}

fn stabilize(actor: &str, target: &str) -> Command {
    Command::Stabilize {
        actor: cid(actor),
        target: cid(target),
    }
}

// --- § Regeneration --------------------------------------------------------------------------

#[test]
fn a_regenerating_monster_heals_at_the_start_of_its_turn_up_to_its_maximum_regeneration() {
    // orcus-basic-rules.txt § Regeneration: "heals the specified amount of damage at the
    // beginning of each of their turns"; healing never exceeds the maximum (§ Healing). A stat
    // block has one regeneration value, so the highest source is that one.
    let kael = [shot("jab", "3", "", ""), shot("gash", "12", "", "")].concat();
    let enc = encounter(&kael, "hp = 30\nregeneration = 5", "", SPREAD);
    for seed in 0..40 {
        let mut e = started(&enc, seed);
        let ev = run(&mut e, &atk("kael", "jab", &["brute-1"]));
        if !hit(&ev, "kael") {
            continue;
        }
        assert_eq!(hp(&e, "brute-1"), 27);
        let ev = until(&mut e, "brute-1");
        assert_eq!(
            heals(from_turn_start(&ev, "brute-1"), "brute-1"),
            vec![(3, Some(30))],
            "5 to heal, 3 missing: capped at the maximum"
        );
        assert_eq!(hp(&e, "brute-1"), 30);
        // At full hit points there is nothing to heal (brute-2 was never hurt).
        let ev = until(&mut e, "kael");
        assert!(heals(&ev, "brute-2").is_empty(), "{ev:?}");
        let ev = run(&mut e, &atk("kael", "gash", &["brute-1"]));
        if !hit(&ev, "kael") {
            continue;
        }
        assert_eq!(hp(&e, "brute-1"), 18);
        let ev = until(&mut e, "brute-1");
        let turn = from_turn_start(&ev, "brute-1");
        assert_eq!(heals(turn, "brute-1"), vec![(5, Some(23))]);
        assert!(
            matches!(turn.get(1), Some(GameEvent::Healed { .. })),
            "the heal comes at the start of the turn: {turn:?}"
        );
        assert_eq!(hp(&e, "brute-1"), 23);
        return;
    }
    panic!("no seed hit twice");
}

// --- § Unusual recharge conditions: Recharge X–Y ----------------------------------------------

/// `(natural, regained)` of the recharge rolls `who` made among `ev`.
fn recharge_rolls(ev: &[GameEvent], who: &str) -> Vec<(u32, bool)> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::PowerRegained {
                combatant,
                roll: Some(roll),
                ..
            } if combatant.as_str() == who => Some((roll.natural()?, true)),
            GameEvent::CheckRolled {
                combatant,
                purpose,
                roll,
                success,
                ..
            } if combatant.as_str() == who && purpose.starts_with("recharge") => {
                assert!(!success, "a recharge roll that succeeds regains the power");
                Some((roll.natural()?, false))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn a_recharge_power_is_expended_until_a_d6_at_the_start_of_the_monsters_turn_recharges_it_recharge()
{
    // orcus-basic-rules.txt § Unusual recharge conditions, "Recharge X–Y": used once; at the
    // start of each of the monster's turns a d6, and on one of the numbers it regains the power.
    let breath = r#"[[monster.powers]]
id = "breath"
name = "Frost Breath"
frequency = "recharge 5-6"
origin = "ranged"
range = [10, 10]
vs = "reflex"
bonus = 40
hit = "1"
"#;
    let enc = encounter("", "", breath, SPREAD);
    let (mut regained, mut kept) = (false, false);
    for seed in 0..40 {
        let mut e = started(&enc, seed);
        let ev = until(&mut e, "brute-1");
        assert!(
            recharge_rolls(&ev, "brute-1").is_empty(),
            "nothing to recharge"
        );
        let ev = run(&mut e, &atk("brute-1", "breath", &["kael"]));
        assert!(ev.iter().any(|x| matches!(x,
            GameEvent::PowerExpended { combatant, power }
                if combatant.as_str() == "brute-1" && power == "breath")));
        assert_eq!(cs(&e, "brute-1").expended, vec!["breath".to_string()]);
        assert_eq!(
            refuse(&mut e, &atk("brute-1", "breath", &["kael"])),
            ErrorCode::PowerExpended
        );
        for _ in 0..30 {
            let ev = until(&mut e, "kael");
            assert!(
                recharge_rolls(&ev, "brute-2").is_empty(),
                "brute-2 expended nothing"
            );
            let ev = until(&mut e, "brute-1");
            let rolls = recharge_rolls(from_turn_start(&ev, "brute-1"), "brute-1");
            assert_eq!(rolls.len(), 1, "one d6 per turn: {ev:?}");
            let (natural, ok) = rolls[0];
            assert!((1..=6).contains(&natural));
            assert_eq!(ok, (5..=6).contains(&natural), "recharge 5-6 on {natural}");
            if ok {
                assert!(cs(&e, "brute-1").expended.is_empty());
                let ev = run(&mut e, &atk("brute-1", "breath", &["kael"]));
                assert!(
                    ev.iter()
                        .any(|x| matches!(x, GameEvent::AttackRolled { .. }))
                );
                regained = true;
                break;
            }
            // A failed roll keeps it expended: still refused this turn.
            assert_eq!(cs(&e, "brute-1").expended, vec!["breath".to_string()]);
            assert_eq!(
                refuse(&mut e, &atk("brute-1", "breath", &["kael"])),
                ErrorCode::PowerExpended
            );
            kept = true;
        }
        if regained && kept {
            return;
        }
    }
    panic!("regained {regained}, kept {kept}");
}

// --- § Immunities, resistances and weaknesses ----------------------------------------------

/// The first seed on which Kael hits brute-1 with `power`: the engine and the events.
fn first_hit(enc: &Encounter, power: &str) -> (Engine, Vec<GameEvent>) {
    for seed in 0..40 {
        let mut e = started(enc, seed);
        let ev = run(&mut e, &atk("kael", power, &["brute-1"]));
        if hit(&ev, "kael") {
            return (e, ev);
        }
    }
    panic!("{power} never hit");
}

#[test]
fn resistance_subtracts_weakness_adds_and_immunity_cancels_damage_immunities_resistances_and_weaknesses()
 {
    // orcus-basic-rules.txt § Immunities, resistances and weaknesses: immune → no damage;
    // resist N subtracts N (minimum 0); weak N adds N. § Persistent damage applies them "as
    // normal".
    let powers = [
        shot("scorch", "8", "fire", ""),
        shot("singe", "3", "fire", ""),
        shot("smite", "4", "radiant", ""),
        shot("venom", "9", "poison", ""),
        shot("thump", "6", "", ""),
        shot(
            "ember",
            "1",
            "radiant",
            r#"[{ persistent = 4, damage_type = "fire" }, { persistent = 2, damage_type = "radiant" }]"#,
        ),
    ]
    .concat();
    let tough = "hp = 40\nresist = { fire = 5 }\nweak = { radiant = 3 }\nimmune = [\"poison\"]";
    let enc = encounter(&powers, tough, "", SPREAD);
    for (power, taken) in [
        ("scorch", 8 - 5),
        ("singe", 0),
        ("smite", 4 + 3),
        ("venom", 0),
        ("thump", 6),
    ] {
        let (e, ev) = first_hit(&enc, power);
        assert_eq!(damaged(&ev, "brute-1"), vec![taken], "{power}: {ev:?}");
        assert_eq!(hp(&e, "brute-1"), 40 - taken, "{power}");
    }
    let (mut e, ev) = first_hit(&enc, "ember");
    assert_eq!(damaged(&ev, "brute-1"), vec![1 + 3]);
    let ev = until(&mut e, "brute-1");
    let mut ongoing: Vec<i32> = from_turn_start(&ev, "brute-1")
        .iter()
        .filter_map(|x| match x {
            GameEvent::Damaged {
                target,
                amount,
                cause: DamageCause::Ongoing { .. },
                ..
            } if target.as_str() == "brute-1" => Some(*amount),
            _ => None,
        })
        .collect();
    ongoing.sort_unstable();
    assert_eq!(ongoing, vec![0, 2 + 3], "fire 4 − 5 → 0; radiant 2 + 3");
    assert_eq!(hp(&e, "brute-1"), 40 - 4 - 5);
}

// --- § Damage rolls ------------------------------------------------------------------------

#[test]
fn a_damage_roll_below_zero_deals_no_damage_damage_rolls() {
    // orcus-basic-rules.txt § Damage rolls: "With a penalty, it is possible to deal 0 damage,
    // but never negative damage" — on a rolled hit and on a critical hit (maximum −6).
    let enc = encounter(&shot("feeble", "1d4-10", "", ""), "hp = 40", "", SPREAD);
    let (mut rolled, mut crit) = (false, false);
    for seed in 0..300 {
        let mut e = started(&enc, seed);
        let ev = run(&mut e, &atk("kael", "feeble", &["brute-1"]));
        if !hit(&ev, "kael") {
            continue;
        }
        assert_eq!(damaged(&ev, "brute-1"), vec![0], "{ev:?}");
        assert_eq!(hp(&e, "brute-1"), 40, "no healing from negative damage");
        match ev.iter().find_map(|x| match x {
            GameEvent::DamageRolled { roll, .. } => Some(roll.total),
            _ => None,
        }) {
            Some(total) => {
                assert!(total < 0, "1d4−10 rolls below 0: {total}");
                rolled = true;
            }
            None => crit = true,
        }
        if rolled && crit {
            return;
        }
    }
    panic!("rolled hit {rolled}, critical hit {crit}");
}

// --- § Full Defense, § Rally -----------------------------------------------------------------

/// Brute powers that only show the defense they target.
const PROBES: &str = r#"[[monster.powers]]
id = "probe-ac"
name = "Probe AC"
origin = "melee"
vs = "ac"
bonus = 0
[[monster.powers]]
id = "probe-fort"
name = "Probe Fortitude"
action = "swift"
origin = "melee"
vs = "fortitude"
bonus = 0
[[monster.powers]]
id = "probe-will"
name = "Probe Will"
action = "swift"
origin = "melee"
vs = "will"
bonus = 0
"#;

const ADJACENT: &str = r#"kael = [1, 0]
lira = [0, 5]
brute-1 = [2, 0]
brute-2 = [9, 5]"#;

/// Kael's AC, Fortitude and Will as brute-1's attacks see them (its whole turn).
fn kaels_defenses(e: &mut Engine) -> Vec<i32> {
    assert_eq!(current(e), "brute-1");
    let mut seen = Vec::new();
    for p in ["probe-ac", "probe-fort", "probe-will"] {
        let ev = run(e, &atk("brute-1", p, &["kael"]));
        seen.extend(ev.iter().filter_map(|x| match x {
            GameEvent::AttackRolled { defense_value, .. } => Some(*defense_value),
            _ => None,
        }));
    }
    seen
}

/// The +2 defenses effect on `who` among `ev`.
fn defense_bonus(ev: &[GameEvent], who: &str) -> Effect {
    let fx: Vec<Effect> = applied(ev)
        .into_iter()
        .filter(|f| f.target.as_str() == who)
        .collect();
    assert_eq!(fx.len(), 1, "{ev:?}");
    assert_eq!(
        fx[0].kind,
        EffectKind::Bonus {
            stat: BonusStat::Defenses,
            amount: 2
        }
    );
    assert_eq!(fx[0].duration, EffectDuration::UntilStartOfSourcesNextTurn);
    fx[0].clone()
}

#[test]
fn full_defense_adds_two_to_every_defense_until_the_start_of_the_next_turn_full_defense() {
    // orcus-basic-rules.txt § Full Defense (at-will, standard action): "Until the start of your
    // next turn, add +2 to your defenses."
    let enc = encounter("", "", PROBES, ADJACENT);
    let mut e = started(&enc, 11);
    assert_eq!(
        refuse(&mut e, &full_defense("lira")),
        ErrorCode::NotYourTurn
    );
    let ev = run(&mut e, &full_defense("kael"));
    assert!(ev.iter().any(|x| matches!(x,
        GameEvent::ActionUsed { combatant, action: ActionKind::Standard, .. }
            if combatant.as_str() == "kael")));
    let bonus = defense_bonus(&ev, "kael");
    // The standard action is spent.
    assert_eq!(
        refuse(&mut e, &atk("kael", "sword", &["brute-1"])),
        ErrorCode::ActionAlreadyUsed
    );
    assert_eq!(
        refuse(&mut e, &full_defense("kael")),
        ErrorCode::ActionAlreadyUsed
    );
    until(&mut e, "brute-1");
    assert_eq!(kaels_defenses(&mut e), vec![16 + 2, 14 + 2, 12 + 2]);
    let ev = until(&mut e, "kael");
    assert!(ended(from_turn_start(&ev, "kael"), "kael", bonus.id));
    assert!(cs(&e, "kael").effects.is_empty());
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    assert_eq!(kaels_defenses(&mut e), vec![16, 14, 12]);
}

#[test]
fn rally_spends_a_recovery_heals_its_value_and_adds_two_to_defenses_once_per_encounter_rally() {
    // orcus-basic-rules.txt § Rally (encounter, standard action): "Spend a recovery and heal
    // your recovery value. Until the start of your next turn, add +2 to your defenses." Kael:
    // 30 hp, recovery value 7 (a quarter, the interpretation in rules.rs), 2 recoveries.
    let wallop = r#"[[monster.powers]]
id = "wallop"
name = "Wallop"
action = "swift"
origin = "melee"
vs = "ac"
bonus = 40
hit = "10"
"#;
    let text = src("", "", &format!("{PROBES}{wallop}"), ADJACENT);
    let enc = load(&text);
    let mut done = false;
    for seed in 0..40 {
        let mut e = started(&enc, seed);
        until(&mut e, "brute-1");
        let ev = run(&mut e, &atk("brute-1", "wallop", &["kael"]));
        if !hit(&ev, "brute-1") {
            continue;
        }
        assert_eq!(hp(&e, "kael"), 20);
        until(&mut e, "kael");
        assert_eq!(cs(&e, "kael").grid.expect("grid").recovery_value, 7);
        let ev = run(&mut e, &rally("kael"));
        assert!(ev.iter().any(
            |x| matches!(x, GameEvent::Rallied { combatant } if combatant.as_str() == "kael")
        ));
        assert!(ev.iter().any(|x| matches!(x,
            GameEvent::Healed { target, amount: 7, recovery_used: true, hp_after: Some(27), .. }
                if target.as_str() == "kael")));
        let bonus = defense_bonus(&ev, "kael");
        let k = cs(&e, "kael");
        assert_eq!(k.hp, Some(27));
        assert_eq!(k.recoveries, 1);
        assert!(k.grid.expect("grid").rallied);
        // A standard action.
        assert_eq!(
            refuse(&mut e, &atk("kael", "sword", &["brute-1"])),
            ErrorCode::ActionAlreadyUsed
        );
        run(&mut e, &end("kael"));
        until(&mut e, "brute-1");
        assert_eq!(kaels_defenses(&mut e), vec![16 + 2, 14 + 2, 12 + 2]);
        let ev = until(&mut e, "kael");
        assert!(ended(from_turn_start(&ev, "kael"), "kael", bonus.id));
        // Once per encounter, though a recovery is left.
        let r = refusal(&mut e, &rally("kael"));
        assert_eq!(r.code, ErrorCode::RallyNotAllowed);
        assert!(r.message.contains("rallied this encounter"), "{r}");
        done = true;
        break;
    }
    assert!(done, "no seed hit Kael");
    // Without a recovery to spend, no rally.
    let enc = load(&text.replace("recoveries = 1", "recoveries = 0"));
    let mut e = started(&enc, 1);
    until(&mut e, "lira");
    let r = refusal(&mut e, &rally("lira"));
    assert_eq!(r.code, ErrorCode::RallyNotAllowed);
    assert!(r.message.contains("no recovery"), "{r}");
}

// --- § Coup De Grace -------------------------------------------------------------------------

/// Kael's powers for coup de grace tests: `hex` makes one creature within 2 squares helpless
/// (a swift action); melee powers of known maxima.
const CDG_POWERS: &str = r#"[[hero.powers]]
id = "hex"
name = "Hex"
action = "swift"
origin = "melee"
reach = 2
targets = "one creature"
vs = "will"
bonus = 40
on_hit = [{ condition = "helpless" }]
[[hero.powers]]
id = "knife"
name = "Knife"
origin = "melee"
vs = "ac"
bonus = 5
hit = "1d4"
[[hero.powers]]
id = "flame"
name = "Flame Blade"
origin = "melee"
vs = "ac"
bonus = 5
hit = "1d6+6"
damage_type = "fire"
[[hero.powers]]
id = "touch"
name = "Touch"
origin = "melee"
targets = "one creature"
vs = "ac"
bonus = 5
hit = "1"
"#;

/// Brute-1 next to Kael, brute-2 two squares away, Lira next to Kael.
const CDG_AT: &str = r#"kael = [1, 1]
lira = [0, 1]
brute-1 = [2, 1]
brute-2 = [1, 3]"#;

/// Brutes of 20 hp (staggered value 10) resisting fire 5.
fn cdg_encounter() -> Encounter {
    encounter(CDG_POWERS, "hp = 20\nresist = { fire = 5 }", "", CDG_AT)
}

/// Kael's first turn on the first seed on which his hexes make each of `targets` helpless.
fn hexed(enc: &Encounter, targets: &[&str]) -> Engine {
    'seeds: for seed in 0..60 {
        let mut e = started(enc, seed);
        for t in targets {
            let ev = run(&mut e, &atk("kael", "hex", &[t]));
            if !applied(&ev)
                .iter()
                .any(|f| f.kind == EffectKind::Condition(Condition::Helpless))
            {
                continue 'seeds;
            }
        }
        return e;
    }
    panic!("no seed hexed {targets:?}");
}

#[test]
fn a_coup_de_grace_is_an_automatic_critical_hit_that_kills_at_the_staggered_value_coup_de_grace() {
    // orcus-basic-rules.txt § Coup De Grace: "Requirements You are adjacent to a helpless
    // enemy." The attack automatically hits and is a critical hit (maximum damage, § Critical
    // hits); "If the target takes damage equal to or greater than its staggered value, it
    // dies."
    let enc = cdg_encounter();
    let mut e = started(&enc, 0);
    assert_eq!(
        refuse(&mut e, &coup_de_grace("kael", "sword", "brute-1")),
        ErrorCode::NotHelpless,
        "brute-1 is adjacent but not helpless"
    );
    let mut e = hexed(&enc, &["brute-1", "brute-2"]);
    // brute-2 is helpless but two squares away: out of the sword's reach, and not adjacent for
    // a ranged power either.
    assert_eq!(
        refuse(&mut e, &coup_de_grace("kael", "sword", "brute-2")),
        ErrorCode::OutOfRange
    );
    let r = refusal(&mut e, &coup_de_grace("kael", "bow", "brute-2"));
    assert_eq!(r.code, ErrorCode::OutOfRange);
    assert!(r.message.contains("adjacent"), "{r}");
    // 1d8+2: a critical hit deals 10, the staggered value of 20 hp: brute-1 dies at 10 hp.
    let ev = run(&mut e, &coup_de_grace("kael", "sword", "brute-1"));
    assert!(ev.iter().any(|x| matches!(x,
        GameEvent::CoupDeGrace { attacker, target, attack }
            if attacker.as_str() == "kael" && target.as_str() == "brute-1" && attack == "sword")));
    assert!(
        !ev.iter().any(|x| matches!(
            x,
            GameEvent::AttackRolled { .. } | GameEvent::DamageRolled { .. }
        )),
        "no attack roll, no damage roll: {ev:?}"
    );
    assert_eq!(damaged(&ev, "brute-1"), vec![10]);
    assert!(
        ev.iter().any(
            |x| matches!(x, GameEvent::Slain { combatant } if combatant.as_str() == "brute-1")
        )
    );
    assert_eq!(cs(&e, "brute-1").status, LifeStatus::Slain);
}

#[test]
fn a_coup_de_grace_taking_less_than_the_staggered_value_only_wounds_coup_de_grace() {
    // orcus-basic-rules.txt § Coup De Grace: it is the damage the target *takes* that is
    // compared with its staggered value — after § Immunities, resistances and weaknesses.
    let enc = cdg_encounter();
    let mut e = hexed(&enc, &["brute-1"]);
    let ev = run(&mut e, &coup_de_grace("kael", "knife", "brute-1"));
    assert_eq!(damaged(&ev, "brute-1"), vec![4], "1d4 at its maximum");
    let b = cs(&e, "brute-1");
    assert_eq!((b.status, b.hp), (LifeStatus::Conscious, Some(16)));
    assert!(
        b.effects
            .iter()
            .any(|f| f.kind == EffectKind::Condition(Condition::Helpless))
    );
    // 1d6+6 fire at its maximum is 12, but resist fire 5 leaves 7 taken: below 10.
    let mut e = hexed(&enc, &["brute-1"]);
    let ev = run(&mut e, &coup_de_grace("kael", "flame", "brute-1"));
    assert_eq!(damaged(&ev, "brute-1"), vec![12 - 5]);
    let b = cs(&e, "brute-1");
    assert_eq!(
        (b.status, b.hp),
        (LifeStatus::Conscious, Some(13)),
        "{ev:?}"
    );
}

#[test]
fn a_coup_de_grace_needs_an_enemy_coup_de_grace() {
    // orcus-basic-rules.txt § Coup De Grace: "adjacent to a helpless enemy" — not an ally, even
    // with a power that may target any creature.
    let enc = cdg_encounter();
    let mut e = hexed(&enc, &["lira"]);
    assert_eq!(
        refuse(&mut e, &coup_de_grace("kael", "touch", "lira")),
        ErrorCode::InvalidTarget
    );
}

#[test]
fn a_dying_hero_is_helpless_against_a_coup_de_grace_coup_de_grace() {
    // orcus-basic-rules.txt § Coup De Grace against a dying (unconscious, § 0 hit points) hero:
    // the club's maximum, 13, is above Lira's staggered value (12).
    let fell = r#"[[monster.powers]]
id = "fell"
name = "Fell"
action = "swift"
origin = "melee"
vs = "ac"
bonus = 40
hit = "24"
"#;
    let enc = encounter("", "", fell, NEXT_TO_LIRA);
    for seed in 0..40 {
        let mut e = started(&enc, seed);
        until(&mut e, "brute-1");
        assert_eq!(
            refuse(&mut e, &coup_de_grace("brute-1", "club", "lira")),
            ErrorCode::NotHelpless
        );
        let ev = run(&mut e, &atk("brute-1", "fell", &["lira"]));
        if !hit(&ev, "brute-1") {
            continue;
        }
        assert_eq!(cs(&e, "lira").status, LifeStatus::Unconscious);
        let ev = run(&mut e, &coup_de_grace("brute-1", "club", "lira"));
        assert!(
            ev.iter()
                .any(|x| matches!(x, GameEvent::CoupDeGrace { .. }))
        );
        assert_eq!(damaged(&ev, "lira"), vec![13]);
        assert!(
            ev.iter().any(
                |x| matches!(x, GameEvent::Died { combatant } if combatant.as_str() == "lira")
            )
        );
        assert_eq!(cs(&e, "lira").status, LifeStatus::Dead);
        return;
    }
    panic!("no seed hit Lira");
}

// --- § Stabilize -----------------------------------------------------------------------------

/// A brute next to Lira with a 26-damage smash and a 1-damage tap; Kael next to Lira.
fn stabilize_encounter(positions: &str) -> Encounter {
    let tap = r#"[[monster.powers]]
id = "tap"
name = "Tap"
action = "swift"
origin = "melee"
vs = "ac"
bonus = 40
hit = "1"
"#;
    encounter("", "", &format!("{}{tap}", smash(26)), positions)
}

const BESIDE_LIRA: &str = r#"kael = [0, 4]
lira = [0, 5]
brute-1 = [1, 5]
brute-2 = [9, 0]"#;

/// The first seed on which brute-1 smashes Lira to −2 and she is still dying at the start of
/// Kael's next turn; the seed after `after`.
fn lira_dying(enc: &Encounter, after: u64) -> (u64, Engine) {
    for seed in after..after + 60 {
        let mut e = started(enc, seed);
        until(&mut e, "brute-1");
        let ev = run(&mut e, &atk("brute-1", "smash", &["lira"]));
        if !hit(&ev, "brute-1") {
            continue;
        }
        assert_eq!(cs(&e, "lira").hp, Some(-2));
        until(&mut e, "kael");
        if cs(&e, "lira").status == LifeStatus::Unconscious {
            return (seed, e);
        }
    }
    panic!("Lira never lay dying");
}

#[test]
fn stabilize_is_a_dc_15_heal_check_and_stops_death_saves_until_next_damaged_stabilize() {
    // orcus-basic-rules.txt § Stabilize (standard action, melee touch, one dying ally; DC Heal
    // vs 15): "stabilized and stops making death saving throws until it is next damaged".
    // Kael's untrained Heal: half his level (0) + Wisdom 2.
    let enc = stabilize_encounter(BESIDE_LIRA);
    let mut e = started(&enc, 0);
    assert_eq!(
        refuse(&mut e, &stabilize("kael", "lira")),
        ErrorCode::NotDying,
        "Lira is not dying"
    );
    assert_eq!(
        refuse(&mut e, &stabilize("kael", "brute-1")),
        ErrorCode::NotDying,
        "an enemy, and not dying"
    );
    let (mut succeeded, mut failed) = (false, false);
    let mut seed = 0;
    while !(succeeded && failed) {
        assert!(seed < 300, "succeeded {succeeded}, failed {failed}");
        let (s, mut e) = lira_dying(&enc, seed);
        seed = s + 1;
        let ev = run(&mut e, &stabilize("kael", "lira"));
        let (bonus, total, dc, success) = ev
            .iter()
            .find_map(|x| match x {
                GameEvent::CheckRolled {
                    purpose,
                    bonus,
                    total,
                    dc,
                    success,
                    ..
                } if purpose == "stabilize" => Some((*bonus, *total, *dc, *success)),
                _ => None,
            })
            .expect("a Heal check");
        assert_eq!((bonus, dc), (2, 15));
        assert_eq!(success, total >= 15);
        let stabilized = ev.iter().any(|x| {
            matches!(x,
            GameEvent::Stabilized { combatant, by }
                if combatant.as_str() == "lira" && by.as_str() == "kael")
        });
        assert_eq!(stabilized, success);
        assert_eq!(cs(&e, "lira").stabilized, success);
        if !success {
            failed = true;
            continue;
        }
        succeeded = true;
        assert_eq!(
            refuse(&mut e, &stabilize("kael", "lira")),
            ErrorCode::NotDying,
            "already stabilized"
        );
        // Lira's next turn ends without a death save.
        let failures = cs(&e, "lira").death_save_failures;
        let ev = through_turn_of(&mut e, "lira");
        assert!(death_saves(&ev, "lira").is_empty(), "{ev:?}");
        assert_eq!(cs(&e, "lira").death_save_failures, failures);
        // Damage ends it: her next turn ends with a death save again.
        until(&mut e, "brute-1");
        let ev = run(&mut e, &atk("brute-1", "tap", &["lira"]));
        if !hit(&ev, "brute-1") {
            continue;
        }
        assert!(!cs(&e, "lira").stabilized, "damaged: no longer stabilized");
        let ev = through_turn_of(&mut e, "lira");
        assert_eq!(death_saves(&ev, "lira").len(), 1, "{ev:?}");
    }
    // Melee touch: the dying ally must be adjacent.
    let far = r#"kael = [0, 2]
lira = [0, 5]
brute-1 = [1, 5]
brute-2 = [9, 0]"#;
    let (_, mut e) = lira_dying(&stabilize_encounter(far), 0);
    assert_eq!(
        refuse(&mut e, &stabilize("kael", "lira")),
        ErrorCode::OutOfRange
    );
}

// --- § Death saving throws: rolling a 20 -----------------------------------------------------

/// The first death save of 20 Lira rolls after brute-1 smashes her to −2: the engine and the
/// events of the turn it ended.
fn lira_rolls_a_twenty(enc: &Encounter) -> (Engine, Vec<GameEvent>) {
    for seed in 0..200 {
        let mut e = started(enc, seed);
        until(&mut e, "brute-1");
        let ev = run(&mut e, &atk("brute-1", "smash", &["lira"]));
        if !hit(&ev, "brute-1") {
            continue;
        }
        for _ in 0..8 {
            let ev = through_turn_of(&mut e, "lira");
            let saves = death_saves(&ev, "lira");
            assert_eq!(saves.len(), 1, "{ev:?}");
            if saves[0] == 20 {
                return (e, ev);
            }
            if cs(&e, "lira").status != LifeStatus::Unconscious {
                break;
            }
        }
    }
    panic!("Lira never rolled a 20");
}

#[test]
fn a_death_save_of_20_spends_a_recovery_and_wakes_the_hero_prone_death_saving_throws() {
    // orcus-basic-rules.txt § Death saving throws, "Rolling a 20 or higher": spend a recovery;
    // hit points = the recovery value (Lira: 24 / 4 = 6); conscious, still prone.
    let text = src("", "", &smash(26), NEXT_TO_LIRA);
    let (e, ev) = lira_rolls_a_twenty(&load(&text));
    assert!(ev.iter().any(|x| matches!(x,
        GameEvent::Healed { target, amount: 6, recovery_used: true, hp_after: Some(6), .. }
            if target.as_str() == "lira")));
    assert!(ev.iter().any(|x| matches!(x,
        GameEvent::Revived { combatant, .. } if combatant.as_str() == "lira")));
    let l = cs(&e, "lira");
    assert_eq!(
        (l.status, l.hp, l.recoveries),
        (LifeStatus::Conscious, Some(6), 0)
    );
    assert!(
        l.effects
            .iter()
            .any(|f| f.kind == EffectKind::Condition(Condition::Prone))
    );
    // § Healing with no recoveries: the hit points are set to 1 instead.
    let (e, ev) = lira_rolls_a_twenty(&load(&text.replace("recoveries = 1", "recoveries = 0")));
    assert_eq!(heals(&ev, "lira"), vec![(1, Some(1))], "from −2 to 1");
    let l = cs(&e, "lira");
    assert_eq!((l.status, l.hp), (LifeStatus::Conscious, Some(1)));
}

#[test]
fn short_and_long_rests_after_the_battle_then_the_session_ends_resting() {
    // orcus-basic-rules.txt § Resting (short rest: recoveries, encounter powers; long rest:
    // everything, action points to 1), § Death saving throws (failures reset on a rest).
    let src = arena_src(
        &[
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
        ],
        &smash(30),
        5,
        NEXT_TO_LIRA,
    )
    .replace("[map]", "[options]\nrests = true\n[map]");
    let enc = load_encounter("rest.toml", &src).unwrap();
    let mut e = started(&enc, 4);
    // Rests come after the battle.
    assert_eq!(
        refuse(
            &mut e,
            &Command::QuickRest {
                actor: cid("kael"),
                recoveries: 1
            }
        ),
        ErrorCode::BattleNotStarted
    );
    run(
        &mut e,
        &Command::Orcus(OrcusCommand::SpendActionPoint {
            actor: cid("kael"),
            action: fray_protocol::event::ActionKind::Standard,
        }),
    );
    until(&mut e, "brute-1");
    run(&mut e, &atk("brute-1", "smash", &["lira"]));
    run(&mut e, &Command::EndBattle);
    let s = e.state();
    assert!(
        !s.seed_revealed,
        "with rests the session goes on after the battle"
    );
    // A short rest: Lira (dying or not) spends a recovery.
    let before = cs(&e, "lira");
    run(
        &mut e,
        &Command::QuickRest {
            actor: cid("lira"),
            recoveries: 1,
        },
    );
    let lira = cs(&e, "lira");
    assert_eq!(lira.recoveries, before.recoveries - 1);
    assert_eq!(lira.death_save_failures, 0);
    assert_eq!(lira.status, LifeStatus::Conscious);
    assert!(lira.hp.unwrap() >= 1);
    // A long rest: everything back, action points to 1.
    assert_eq!(cs(&e, "kael").grid.unwrap().action_points, 0);
    run(&mut e, &Command::FullHealUp);
    for hero in ["kael", "lira"] {
        let h = cs(&e, hero);
        assert_eq!(h.hp, h.max_hp, "{hero} at full hit points");
        assert_eq!(h.grid.unwrap().action_points, 1);
        assert_eq!(h.status, LifeStatus::Conscious);
    }
    run(&mut e, &Command::EndSession);
    assert!(e.state().seed_revealed);
    assert_eq!(refuse(&mut e, &Command::FullHealUp), ErrorCode::BattleOver);
}

#[test]
fn without_the_rests_option_the_session_ends_with_the_battle_resting() {
    // orcus-basic-rules.txt § Resting: a one-battle session has no rests.
    let enc = super::tests::arena("", 5, SPREAD);
    let mut e = started(&enc, 1);
    run(&mut e, &Command::EndBattle);
    assert!(e.state().seed_revealed);
    assert_eq!(
        refuse(&mut e, &Command::FullHealUp),
        ErrorCode::InvalidArgument
    );
}

#[test]
fn a_recharge_if_power_returns_when_its_condition_occurs_unusual_recharge_conditions() {
    // orcus-basic-rules.txt § Unusual recharge conditions: "Recharge if the creature takes
    // lightning damage" — here fire, and "recharge if staggered".
    let powers = r#"[[monster.powers]]
id = "spark"
name = "Spark"
frequency = "recharge if it takes fire damage"
origin = "ranged"
range = [10, 10]
vs = "reflex"
bonus = 40
hit = "1"
[[monster.powers]]
id = "flame"
name = "Flame"
origin = "ranged"
range = [10, 10]
targets = "one creature"
vs = "reflex"
bonus = 40
hit = "2"
damage_type = "fire"
"#;
    let src = arena_src(
        &[
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
        ],
        powers,
        5,
        SPREAD,
    );
    let enc = load_encounter("recharge.toml", &src).unwrap();
    let spark = |who: &str| Command::Attack {
        actor: cid(who),
        attack: "spark".into(),
        targets: vec![cid("kael")],
        mode: AttackMode::Standard,
        knock_out: false,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    };
    let mut e = started(&enc, 3);
    until(&mut e, "brute-1");
    run(&mut e, &spark("brute-1"));
    assert!(cs(&e, "brute-1").expended.contains(&"spark".to_owned()));
    // brute-2 burns brute-1 (an ally: the power targets one creature): spark comes back.
    until(&mut e, "brute-2");
    let ev = run(
        &mut e,
        &Command::Attack {
            actor: cid("brute-2"),
            attack: "flame".into(),
            targets: vec![cid("brute-1")],
            mode: AttackMode::Standard,
            knock_out: false,
            forced: Vec::new(),
            weapon: None,
            secondary_target: None,
        },
    );
    assert!(ev.iter().any(
        |x| matches!(x, GameEvent::Damaged { target, amount, .. } if target.as_str() == "brute-1" && *amount > 0)
    ));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::PowerRegained { combatant, power, .. } if combatant.as_str() == "brute-1" && power == "spark"
    )));
    assert!(!cs(&e, "brute-1").expended.contains(&"spark".to_owned()));
    // The frequency shows in the power list.
    assert!(
        cs(&e, "brute-1")
            .attacks
            .iter()
            .any(|a| a.usage == "recharge if it takes fire damage")
    );
}

#[test]
fn a_recharge_if_staggered_power_returns_when_the_monster_is_staggered_unusual_recharge_conditions()
{
    // orcus-basic-rules.txt § Unusual recharge conditions ("recharge if staggered").
    let rage = r#"[[monster.powers]]
id = "rage"
name = "Bloody Rage"
frequency = "recharge if staggered"
origin = "ranged"
range = [10, 10]
vs = "reflex"
bonus = 40
hit = "1"
"#;
    let src = arena_src(
        &[
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
        ],
        rage,
        40,
        SPREAD,
    );
    let enc = load_encounter("rage.toml", &src).unwrap();
    let mut e = started(&enc, 5);
    until(&mut e, "brute-1");
    run(
        &mut e,
        &Command::Attack {
            actor: cid("brute-1"),
            attack: "rage".into(),
            targets: vec![cid("kael")],
            mode: AttackMode::Standard,
            knock_out: false,
            forced: Vec::new(),
            weapon: None,
            secondary_target: None,
        },
    );
    assert!(cs(&e, "brute-1").expended.contains(&"rage".to_owned()));
    let mut regained = false;
    for _ in 0..20 {
        until(&mut e, "kael");
        let ev = run(&mut e, &atk("kael", "bow", &["brute-1"]));
        regained |= ev.iter().any(|x| matches!(
            x,
            GameEvent::PowerRegained { combatant, power, .. } if combatant.as_str() == "brute-1" && power == "rage"
        ));
        if cs(&e, "brute-1").staggered || cs(&e, "brute-1").status != LifeStatus::Conscious {
            break;
        }
        run(&mut e, &end("kael"));
    }
    assert!(cs(&e, "brute-1").staggered);
    assert!(regained, "staggering it recharged the power");
}

// --- § Knocking a creature out, § Helpless -------------------------------------------------

#[test]
fn a_knocked_out_hero_heals_1_hp_after_a_short_rest_knocking_a_creature_out() {
    // orcus-basic-rules.txt § Knocking a creature out: "It heals 1 HP after a short rest"
    // (§ Resting: the short rest comes after the battle, with the `rests` option).
    let src = arena_src(&OPEN, &smash(40), 5, NEXT_TO_LIRA)
        .replace("[map]", "[options]\nrests = true\n[map]");
    let enc = load_encounter("rest.toml", &src).unwrap();
    for seed in 0..20 {
        let mut e = started(&enc, seed);
        until(&mut e, "brute-1");
        run(
            &mut e,
            &Command::Attack {
                actor: cid("brute-1"),
                attack: "smash".into(),
                targets: vec![cid("lira")],
                mode: AttackMode::Standard,
                knock_out: true,
                forced: Vec::new(),
                weapon: None,
                secondary_target: None,
            },
        );
        if cs(&e, "lira").status != LifeStatus::KnockedOut {
            continue;
        }
        assert!(cs(&e, "lira").hp.unwrap() < 0);
        run(&mut e, &Command::EndBattle);
        let recoveries = cs(&e, "lira").recoveries;
        run(
            &mut e,
            &Command::QuickRest {
                actor: cid("lira"),
                recoveries: 0,
            },
        );
        let l = cs(&e, "lira");
        assert_eq!((l.status, l.hp), (LifeStatus::Conscious, Some(1)));
        assert_eq!(l.recoveries, recoveries, "the 1 hp costs no recovery");
        return;
    }
    panic!("no knock-out in 20 seeds");
}

/// The helpless tests' positions: Lira two squares east of Kael, brute-1 between them.
const HELPLESS_AT: &str = r#"kael = [1, 1]
lira = [3, 1]
brute-1 = [2, 1]
brute-2 = [1, 4]"#;

fn knife_bonus(ev: &[GameEvent]) -> Option<i32> {
    ev.iter().find_map(|x| match x {
        GameEvent::AttackRolled { bonus, .. } => Some(*bonus),
        _ => None,
    })
}

#[test]
fn a_helpless_creature_is_off_guard_and_takes_no_turn_helpless() {
    // orcus-basic-rules.txt § Conditions, Helpless (the definitions are lost from the text:
    // interpretation, Fourth Edition) and § Coup De Grace: a helpless creature is off-guard
    // (+2, § Off-guard) and acts not at all: its turn passes at once (it still saves at its end).
    let enc = encounter(CDG_POWERS, "hp = 20", "", HELPLESS_AT);
    let mut e = hexed(&enc, &["brute-1"]);
    // Flanked by Lira as well: off-guard once, not twice (+2).
    let ev = run(&mut e, &atk("kael", "knife", &["brute-1"]));
    assert_eq!(knife_bonus(&ev), Some(5 + 2));
    let mut turns = Vec::new();
    let mut events = run(&mut e, &end("kael"));
    while current(&e) != "kael" {
        let c = current(&e);
        turns.push(c.clone());
        events.extend(run(&mut e, &end(&c)));
    }
    assert!(!turns.contains(&"brute-1".to_string()), "{turns:?}");
    assert!(events.iter().any(|x| matches!(x,
        GameEvent::TurnStarted { combatant, .. } if combatant.as_str() == "brute-1")));
    assert!(events.iter().any(|x| matches!(x,
        GameEvent::SaveRolled { combatant, .. } if combatant.as_str() == "brute-1")));
}

#[test]
fn a_helpless_ally_does_not_flank_helpless() {
    // orcus-basic-rules.txt § Flanking: "a helpless creature … does not contribute to a flank".
    let enc = encounter(CDG_POWERS, "hp = 20", "", HELPLESS_AT);
    let mut e = started(&enc, 1);
    let ev = run(&mut e, &atk("kael", "knife", &["brute-1"]));
    assert_eq!(
        knife_bonus(&ev),
        Some(5 + 2),
        "Lira flanks brute-1 with Kael"
    );
    let mut e = hexed(&enc, &["lira"]);
    let ev = run(&mut e, &atk("kael", "knife", &["brute-1"]));
    assert_eq!(knife_bonus(&ev), Some(5), "a helpless Lira does not");
}

#[test]
fn a_hostile_helpless_creatures_space_can_be_moved_through_helpless() {
    // orcus-basic-rules.txt § Occupied spaces: "through a hostile creature's space if it is
    // helpless", but no willing end of a move in it unless it is prone.
    let at = "kael = [1, 1]\nlira = [0, 5]\nbrute-1 = [2, 1]\nbrute-2 = [9, 5]";
    let enc = encounter(CDG_POWERS, "hp = 20", "", at);
    let mut e = started(&enc, 1);
    assert_eq!(
        refuse(&mut e, &mv("kael", &[(2, 1), (3, 1)], MoveMode::Walk)),
        ErrorCode::IllegalPath,
        "a standing enemy blocks"
    );
    let mut e = hexed(&enc, &["brute-1"]);
    assert_eq!(
        refuse(&mut e, &mv("kael", &[(2, 1)], MoveMode::Walk)),
        ErrorCode::IllegalPath,
        "no ending the move in its space"
    );
    run(&mut e, &mv("kael", &[(2, 1), (3, 1)], MoveMode::Walk));
    assert_eq!(
        cs(&e, "kael").grid.unwrap().square,
        fray_protocol::grid::Square::new(3, 1)
    );
}

/// orcus-basic-rules.txt § Knocking a creature out ("The creature falls unconscious") and
/// § Coup De Grace: a knocked-out creature is as helpless as a dying one, so an adjacent enemy
/// may give it a coup de grace.
#[test]
fn a_knocked_out_creature_is_helpless_to_a_coup_de_grace_knocking_a_creature_out() {
    let enc = cdg_encounter();
    let mut e = started(&enc, 0);
    let ko = Command::Attack {
        actor: cid("kael"),
        attack: "sword".into(),
        targets: vec![cid("brute-1")],
        mode: AttackMode::Standard,
        knock_out: true,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    };
    for _ in 0..40 {
        if cs(&e, "brute-1").status != LifeStatus::Conscious {
            break;
        }
        if current(&e) != "kael" {
            until(&mut e, "kael");
        }
        run(&mut e, &ko);
        if current(&e) == "kael" {
            run(&mut e, &end("kael"));
        }
    }
    assert_eq!(cs(&e, "brute-1").status, LifeStatus::KnockedOut);
    if current(&e) != "kael" {
        until(&mut e, "kael");
    }
    let ev = run(&mut e, &coup_de_grace("kael", "sword", "brute-1"));
    assert!(
        ev.iter().any(|x| matches!(x,
            GameEvent::CoupDeGrace { target, .. } if target.as_str() == "brute-1")),
        "{ev:?}"
    );
}

/// orcus-basic-rules.txt § Knocking a creature out ("It heals 1 HP after a short rest") and
/// § Resting: monsters take no rest commands, but the party's short rest (or long rest) passes
/// for them too — a knocked-out monster still in the session comes to with 1 hp; a slain one
/// stays slain (interpretation).
#[test]
fn a_knocked_out_monster_comes_to_with_1_hp_after_the_partys_rest_knocking_a_creature_out() {
    let src = arena_src(
        &OPEN,
        "",
        40,
        "kael = [1, 1]\nlira = [0, 5]\nbrute-1 = [2, 1]\nbrute-2 = [1, 2]",
    )
    .replace("hit = \"1d8+2\"", "hit = \"1d1+80\"")
    .replace("[map]", "[options]\nrests = true\n[map]");
    let enc = load_encounter("captive.toml", &src).unwrap();
    for long in [false, true] {
        let mut e = started(&enc, 3);
        run(
            &mut e,
            &Command::Attack {
                actor: cid("kael"),
                attack: "sword".into(),
                targets: vec![cid("brute-1")],
                mode: AttackMode::Standard,
                knock_out: true,
                forced: Vec::new(),
                weapon: None,
                secondary_target: None,
            },
        );
        assert_eq!(cs(&e, "brute-1").status, LifeStatus::KnockedOut);
        run(
            &mut e,
            &Command::Orcus(OrcusCommand::SpendActionPoint {
                actor: cid("kael"),
                action: fray_protocol::event::ActionKind::Standard,
            }),
        );
        let ev = run(&mut e, &atk("kael", "sword", &["brute-2"]));
        assert!(cs(&e, "brute-2").status.is_out());
        assert!(
            ev.iter()
                .any(|x| matches!(x, GameEvent::BattleEnded { .. }))
        );
        let rest = if long {
            Command::FullHealUp
        } else {
            Command::QuickRest {
                actor: cid("lira"),
                recoveries: 0,
            }
        };
        let ev = run(&mut e, &rest);
        assert!(ev.contains(&GameEvent::Revived {
            combatant: cid("brute-1"),
            can_act: true
        }));
        let b = cs(&e, "brute-1");
        assert_eq!((b.status, b.hp), (LifeStatus::Conscious, Some(1)), "{long}");
        assert_ne!(cs(&e, "brute-2").status, LifeStatus::Conscious, "slain");
        // A second short rest in the same minutes heals it no further.
        if !long {
            run(
                &mut e,
                &Command::QuickRest {
                    actor: cid("kael"),
                    recoveries: 0,
                },
            );
            assert_eq!(cs(&e, "brute-1").hp, Some(1));
        }
    }
}

/// The brute's encounter, recharge and daily powers, one per action so that one turn spends all.
const THREE_POWERS: &str = r#"[[monster.powers]]
id = "roar"
name = "Roar"
frequency = "encounter"
origin = "ranged"
range = [10, 10]
vs = "ac"
bonus = 4
hit = "1"
[[monster.powers]]
id = "spit"
name = "Spit"
action = "move"
frequency = "recharge 6"
origin = "ranged"
range = [10, 10]
vs = "ac"
bonus = 4
hit = "1"
[[monster.powers]]
id = "howl"
name = "Howl"
action = "swift"
frequency = "daily"
origin = "ranged"
range = [10, 10]
vs = "ac"
bonus = 4
hit = "1"
"#;

fn regained(ev: &[GameEvent], who: &str) -> Vec<String> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::PowerRegained {
                combatant, power, ..
            } if combatant.as_str() == who => Some(power.clone()),
            _ => None,
        })
        .collect()
}

/// orcus-basic-rules.txt § Resting (§ Short rest: encounter powers; § Long rest: encounter and
/// daily powers), § Recharge X–Y ("The power also recharges when the monster finishes a short
/// or long rest"): the party's rest passes for a monster still in the session (here a
/// knocked-out captive, interpretation), so its expended encounter and recharge powers come
/// back with the first short rest and its daily one with the long rest; a hero's short rest
/// recharges its once-per-encounter skill action Create Diversion too.
#[test]
fn a_rest_recharges_the_expended_powers_of_monsters_still_in_the_session_resting() {
    let src = arena_src(
        &OPEN,
        THREE_POWERS,
        40,
        "kael = [1, 1]\nlira = [0, 5]\nbrute-1 = [4, 1]\nbrute-2 = [4, 2]",
    )
    .replace("hit = \"1d8+2\"", "hit = \"1d1+80\"")
    .replace("wis = 2", "wis = 2\nskills = { bluff = 40 }")
    .replace("[map]", "[options]\nrests = true\n[map]");
    let enc = load_encounter("captive.toml", &src).unwrap();
    let mut e = started(&enc, 3);
    run(
        &mut e,
        &Command::Orcus(OrcusCommand::SkillAction {
            actor: cid("kael"),
            action: fray_protocol::command::SkillActionKind::CreateDiversion,
            target: cid("kael"),
            effect: None,
            forbid: None,
            foreign: false,
            hide: false,
        }),
    );
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    for power in ["roar", "spit", "howl"] {
        run(&mut e, &atk("brute-1", power, &["lira"]));
    }
    until(&mut e, "kael");
    let used = cs(&e, "brute-1").expended;
    for power in ["roar", "spit", "howl"] {
        assert!(used.iter().any(|u| u == power), "{power}: {used:?}");
    }
    run(&mut e, &mv("kael", &[(2, 1), (3, 1)], MoveMode::Walk));
    run(
        &mut e,
        &Command::Attack {
            actor: cid("kael"),
            attack: "sword".into(),
            targets: vec![cid("brute-1")],
            mode: AttackMode::Standard,
            knock_out: true,
            forced: Vec::new(),
            weapon: None,
            secondary_target: None,
        },
    );
    assert_eq!(cs(&e, "brute-1").status, LifeStatus::KnockedOut);
    run(
        &mut e,
        &Command::Orcus(OrcusCommand::SpendActionPoint {
            actor: cid("kael"),
            action: fray_protocol::event::ActionKind::Standard,
        }),
    );
    run(&mut e, &atk("kael", "sword", &["brute-2"]));
    assert_eq!(e.state().phase, fray_protocol::state::Phase::Ended);
    let ev = run(
        &mut e,
        &Command::QuickRest {
            actor: cid("kael"),
            recoveries: 0,
        },
    );
    assert_eq!(regained(&ev, "brute-1"), ["roar", "spit"]);
    assert_eq!(regained(&ev, "kael"), ["create_diversion"]);
    assert!(regained(&ev, "brute-2").is_empty(), "slain");
    assert_eq!(cs(&e, "brute-1").expended, ["howl"]);
    let ev = run(&mut e, &Command::FullHealUp);
    assert_eq!(regained(&ev, "brute-1"), ["howl"]);
    assert!(cs(&e, "brute-1").expended.is_empty());
}

/// orcus-basic-rules.txt § Healing: "A creature that is healed while it is on negative hit
/// points has its current hit points set to the value of the healing" (Lira at −6 spends a
/// recovery on a short rest: 6 hp, her recovery value, not 0), and "A creature that has died
/// can't regain hit points" (dead at −16, at or below −12, § Negative HP: her short rest is
/// refused with nothing changed and no dice, and the long rest leaves her dead as she was).
#[test]
fn healing_on_negative_hit_points_sets_them_to_the_healing_and_the_dead_regain_none_healing() {
    for (damage, dies) in [(30, false), (40, true)] {
        let src = arena_src(&OPEN, &smash(damage), 5, NEXT_TO_LIRA)
            .replace("[map]", "[options]\nrests = true\n[map]");
        let enc = load_encounter("heal.toml", &src).unwrap();
        let mut e = started(&enc, 4);
        until(&mut e, "brute-1");
        run(&mut e, &atk("brute-1", "smash", &["lira"]));
        assert_eq!(cs(&e, "lira").hp, Some(24 - damage));
        run(&mut e, &Command::EndBattle);
        let rest = Command::QuickRest {
            actor: cid("lira"),
            recoveries: 1,
        };
        if !dies {
            let ev = run(&mut e, &rest);
            assert!(ev.iter().any(|x| matches!(x,
                GameEvent::Healed { target, amount: 6, hp_after: Some(6), .. }
                    if target.as_str() == "lira")));
            let l = cs(&e, "lira");
            assert_eq!((l.status, l.hp), (LifeStatus::Conscious, Some(6)));
            continue;
        }
        assert_eq!(cs(&e, "lira").status, LifeStatus::Dead);
        assert_eq!(refuse(&mut e, &rest), ErrorCode::CannotAct);
        let ev = run(&mut e, &Command::FullHealUp);
        assert!(!ev.iter().any(|x| matches!(x,
            GameEvent::Healed { target, .. } if target.as_str() == "lira")));
        let l = cs(&e, "lira");
        assert_eq!((l.status, l.hp), (LifeStatus::Dead, Some(-16)));
    }
}
