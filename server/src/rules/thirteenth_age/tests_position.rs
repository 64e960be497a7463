//! Tests of position and the mechanics built on it against
//! `/work/shared/rules/13th-age-combat.txt` (cited as `13th-age-combat.txt § Section`):
//! engagement and far away, opportunity attacks, ranged and spell provocation, disengaging,
//! intercepting, coup de grace, stabilizing, flexible attacks, and the conditions confused, fear,
//! hampered, helpless, stuck and grabbed.
//!
//! Same method as `tests.rs` (whose content and driving helpers this file uses): every test drives
//! a real [`Engine`] built from a small inline encounter; dice are never hard-coded — a test that
//! needs a roll searches seeds for it ([`find_seed`]) or uses extreme numbers (the brutes' attack
//! bonus of 40 hits anything but a natural 1). Every refusal goes through [`refuse`] /
//! [`refusal`], which also check that it changed nothing.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use super::tests::{
    Hero, Monster, ann, applied, atks, bo, cid, conditions, cs, current, damage_rolls, damaged,
    encounter, end_turn, find_seed, has, mv, new_engine, next_turn_of, refusal, refuse, run, saves,
    start, the_atk, until_turn_of,
};
use crate::engine::Engine;
use fray_protocol::command::AttackMode;
use fray_protocol::event::{
    ActionKind, AttackOutcome, Condition, EffectEndReason, EffectKind, Provocation, SavePurpose,
};
use fray_protocol::grid::Size;
use fray_protocol::state::LifeStatus;
use fray_protocol::{Command, ErrorCode, GameEvent};
use fray_protocol::{ThirteenthAgeCommand, ThirteenthAgeEvent};

// ------------------------------------------------------------------------------------------
// Content
// ------------------------------------------------------------------------------------------

/// An `on_hit` (or maneuver `effects`) condition lasting until the end of the battle; `table` is
/// the TOML array-of-tables path, e.g. `monster.attacks.on_hit`.
fn effect(table: &str, condition: &str) -> String {
    format!("[[{table}]]\ncondition = \"{condition}\"\nduration = \"end_of_battle\"\n")
}

/// A `[[monster.attacks]]` block against AC; `more` holds extra keys first, then sub-tables.
fn mattack(id: &str, range: &str, bonus: i32, damage: &str, more: &str) -> String {
    format!(
        "\n[[monster.attacks]]\nid = \"{id}\"\nname = \"{id}\"\nrange = \"{range}\"\n\
         bonus = {bonus}\nvs = \"ac\"\ndamage = \"{damage}\"\n{more}"
    )
}

/// A `[[hero.attacks]]` block; `more` holds extra keys first, then sub-tables.
fn hattack(id: &str, range: &str, ability: &str, vs: &str, damage: &str, more: &str) -> String {
    format!(
        "\n[[hero.attacks]]\nid = \"{id}\"\nname = \"{id}\"\nrange = \"{range}\"\n\
         ability = \"{ability}\"\nvs = \"{vs}\"\ndamage = \"{damage}\"\n{more}"
    )
}

/// A brute: acts first (initiative 40), hits anything but a natural 1 (bonus 40), PD = AC + 2,
/// MD 12. Its attacks:
/// - `claw` basic melee, 1 damage; `club` basic melee, `2d6`; `bite` melee, not basic;
/// - `spit` basic ranged; `flurry` a flexible basic melee attack; `maul` melee, 35 damage;
/// - `rake` close, two targets; `lasso` close, grabs;
/// - `terror`, `daze`, `hamper`, `snare` ranged: fear, dazed, hampered, stuck.
fn brute(hp: i32, ac: i32) -> Monster {
    let hit = |c: &str| effect("monster.attacks.on_hit", c);
    let flurry = "basic = true\n[[monster.attacks.maneuvers]]\nid = \"twist\"\nname = \"twist\"\n\
                  trigger = \"even\"\nbonus_damage = \"1\"\n";
    let attacks = [
        mattack("claw", "melee", 40, "1", "basic = true\n"),
        mattack("club", "melee", 40, "2d6", "basic = true\n"),
        mattack("bite", "melee", 40, "1", ""),
        mattack("spit", "ranged", 40, "1", "basic = true\n"),
        mattack("flurry", "melee", 40, "1", flurry),
        mattack("maul", "melee", 40, "35", ""),
        mattack("rake", "close", 40, "1", "targets = 2\n"),
        mattack("lasso", "close", 40, "1", &hit("grabbed")),
        mattack("terror", "ranged", 40, "1", &hit("fear")),
        mattack("daze", "ranged", 40, "1", &hit("dazed")),
        mattack("hamper", "ranged", 40, "1", &hit("hampered")),
        mattack("snare", "ranged", 40, "1", &hit("stuck")),
    ];
    Monster {
        template: "brute",
        hp,
        ac,
        pd: ac + 2,
        initiative: 40,
        attacks: attacks.concat(),
    }
}

/// A target for flexible attacks: acts last, AC 15, never goes down.
fn dummy() -> Monster {
    Monster {
        template: "dummy",
        hp: 1000,
        ac: 15,
        pd: 15,
        initiative: -10,
        attacks: mattack("claw", "melee", 0, "1", "basic = true\n"),
    }
}

/// The heroes' extra attacks (on top of `tests.rs`'s `melee`, `ranged` and `sweep`; `ranged` is a
/// basic ranged attack, `sweep` a close non-basic one against PD with three targets):
/// - `blade` basic melee (`LVLdW+STR`); `mind` ranged against MD;
/// - `bolt` ranged spell; `burst` close-quarters spell, three targets;
/// - `flex` melee flexible attack: `finisher` on 16+ (+7 damage, vulnerable), `evens` on an even
///   roll (+3 damage), `graze` on 1–7, on a miss too (dazed);
/// - `sleep`, `stun`, `confuse` ranged (helpless, stunned, confused); `wrestle` melee and
///   `noose` close, both grab.
fn pc_attacks() -> String {
    let hit = |c: &str| effect("hero.attacks.on_hit", c);
    let maneuver = |id: &str, trigger: &str, more: &str| {
        format!(
            "[[hero.attacks.maneuvers]]\nid = \"{id}\"\nname = \"{id}\"\ntrigger = \"{trigger}\"\n{more}"
        )
    };
    let flex = [
        maneuver("finisher", "16+", "bonus_damage = \"7\"\n"),
        effect("hero.attacks.maneuvers.effects", "vulnerable"),
        maneuver("evens", "even", "bonus_damage = \"3\"\n"),
        maneuver("graze", "1-7", "on_miss_too = true\n"),
        effect("hero.attacks.maneuvers.effects", "dazed"),
    ]
    .concat();
    [
        hattack("blade", "melee", "str", "ac", "LVLdW+STR", "basic = true\n"),
        hattack("mind", "ranged", "dex", "md", "1", ""),
        hattack("bolt", "ranged", "dex", "ac", "LVLd6", "spell = true\n"),
        hattack(
            "burst",
            "close",
            "dex",
            "ac",
            "LVLd6",
            "spell = true\ntargets = 3\n",
        ),
        hattack("flex", "melee", "str", "ac", "LVLdW+STR", &flex),
        hattack("sleep", "ranged", "dex", "ac", "1", &hit("helpless")),
        hattack("stun", "ranged", "dex", "ac", "1", &hit("stunned")),
        hattack("confuse", "ranged", "dex", "ac", "1", &hit("confused")),
        hattack("wrestle", "melee", "str", "ac", "1", &hit("grabbed")),
        hattack("noose", "close", "str", "ac", "1", &hit("grabbed")),
    ]
    .concat()
}

/// `ann` with the extra attacks: `blade` +5 (Str +3, level 2), `ranged`/`bolt`/`mind` +4.
fn ann_pc() -> Hero {
    Hero {
        extra: pc_attacks(),
        ..ann()
    }
}

/// `bo` with the extra attacks and Wis 20: stabilize bonus 7 (Wis +5, level 2); `blade` +5,
/// `ranged`/`sleep`/… +1 (Dex −1, level 2).
fn bo_pc() -> Hero {
    Hero {
        wis: 20,
        extra: pc_attacks(),
        ..bo()
    }
}

/// `ann` and `bo` against `n` brutes (100 hp, `ac`), started: `brute-1` has the first turn and
/// the brutes act in id order.
fn fight(n: u32, ac: i32, seed: u64) -> Engine {
    fight_hp(n, 100, ac, seed)
}

fn fight_hp(n: u32, hp: i32, ac: i32, seed: u64) -> Engine {
    let (e, _) = start(
        &encounter(&[ann_pc(), bo_pc()], &[(brute(hp, ac), n)]),
        seed,
    );
    assert_eq!(current(&e), "brute-1");
    e
}

/// [`fight`] where each brute engages `ann` on its first turn; returns at `ann`'s first turn.
fn ann_engaged_by(n: u32, ac: i32, seed: u64) -> Engine {
    let mut e = fight(n, ac, seed);
    for i in 1..=n {
        let b = format!("brute-{i}");
        assert_eq!(current(&e), b);
        run(&mut e, &engage(&b, "ann"));
        run(&mut e, &end_turn(&b));
    }
    until_turn_of(&mut e, "ann");
    assert_eq!(engaged(&e, "ann").len(), n as usize);
    e
}

// ------------------------------------------------------------------------------------------
// Commands and events
// ------------------------------------------------------------------------------------------

fn engage(actor: &str, target: &str) -> Command {
    Command::Move {
        actor: cid(actor),
        engage: Some(cid(target)),
        far_away: false,
    }
}

fn far(actor: &str) -> Command {
    Command::Move {
        actor: cid(actor),
        engage: None,
        far_away: true,
    }
}

fn disengage(actor: &str) -> Command {
    Command::ThirteenthAge(ThirteenthAgeCommand::Disengage { actor: cid(actor) })
}

fn intercept(actor: &str, mover: &str) -> Command {
    Command::ThirteenthAge(ThirteenthAgeCommand::Intercept {
        actor: cid(actor),
        mover: cid(mover),
    })
}

fn stabilize(actor: &str, target: &str) -> Command {
    Command::Stabilize {
        actor: cid(actor),
        target: cid(target),
    }
}

fn attack_as(mode: AttackMode, actor: &str, attack: &str, targets: &[&str]) -> Command {
    Command::Attack {
        actor: cid(actor),
        attack: attack.into(),
        targets: targets.iter().map(|t| cid(t)).collect(),
        mode,
        knock_out: false,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    }
}

fn attack(actor: &str, attack: &str, targets: &[&str]) -> Command {
    attack_as(AttackMode::Standard, actor, attack, targets)
}

fn oa(actor: &str, attack: &str, target: &str) -> Command {
    attack_as(AttackMode::Opportunity, actor, attack, &[target])
}

fn cdg(actor: &str, attack: &str, target: &str) -> Command {
    attack_as(AttackMode::CoupDeGrace, actor, attack, &[target])
}

/// Runs a one-target attack; `None` unless it hit (a crit counts).
fn hits(e: &mut Engine, actor: &str, atk: &str, target: &str) -> Option<Vec<GameEvent>> {
    let ev = run(e, &attack(actor, atk, &[target]));
    the_atk(&ev).outcome.is_hit().then_some(ev)
}

/// Ids `who` is engaged with (state).
fn engaged(e: &Engine, who: &str) -> Vec<String> {
    cs(e, who)
        .engaged_with
        .iter()
        .map(|c| c.to_string())
        .collect()
}

/// `(provoker, attackers, reason)` of each `OpportunityOpened`.
fn opened(ev: &[GameEvent]) -> Vec<(String, Vec<String>, Provocation)> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::ThirteenthAge(ThirteenthAgeEvent::OpportunityOpened {
                provoker,
                attackers,
                reason,
            }) => Some((
                provoker.to_string(),
                attackers.iter().map(|a| a.to_string()).collect(),
                *reason,
            )),
            _ => None,
        })
        .collect()
}

fn opened_one(
    provoker: &str,
    attackers: &[&str],
    reason: Provocation,
) -> Vec<(String, Vec<String>, Provocation)> {
    vec![(
        provoker.to_owned(),
        attackers.iter().map(|a| a.to_string()).collect(),
        reason,
    )]
}

/// `(action, spent)` of each `ActionUsed` by `who`.
fn spent(ev: &[GameEvent], who: &str) -> Vec<(ActionKind, ActionKind)> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::ActionUsed {
                combatant,
                action,
                spent,
            } if combatant.as_str() == who => Some((*action, *spent)),
            _ => None,
        })
        .collect()
}

fn index(ev: &[GameEvent], pred: impl Fn(&GameEvent) -> bool) -> usize {
    ev.iter()
        .position(pred)
        .unwrap_or_else(|| panic!("event missing: {ev:?}"))
}

fn any(ev: &[GameEvent], pred: impl Fn(&GameEvent) -> bool) -> bool {
    ev.iter().any(pred)
}

/// The id of the one `Grabbed` effect on `who`.
fn grab_on(e: &Engine, who: &str) -> u32 {
    let c = cs(e, who);
    let ids: Vec<u32> = c
        .effects
        .iter()
        .filter(|x| x.kind == EffectKind::Condition(Condition::Grabbed))
        .map(|x| x.id)
        .collect();
    assert_eq!(ids.len(), 1, "{who}: {:?}", c.effects);
    ids[0]
}

// ------------------------------------------------------------------------------------------
// Engagement and far away
// ------------------------------------------------------------------------------------------

/// 13th-age-combat.txt § Engaged/Next to, § Movement and Melee ("Unengaged creatures … can't use
/// melee attacks until engaged"; "You can engage enemies by moving into melee with them";
/// engaged creatures "can use melee attacks … against the creatures they engage").
#[test]
fn melee_attacks_need_an_engagement_and_a_move_engages_both_sides() {
    let mut e = fight(2, 10, 0);
    assert_eq!(
        refuse(&mut e, &attack("brute-1", "claw", &["ann"])),
        ErrorCode::NotEngaged
    );
    // Engaging is with enemies only.
    assert_eq!(
        refuse(&mut e, &engage("brute-1", "brute-2")),
        ErrorCode::InvalidTarget
    );
    let ev = run(&mut e, &engage("brute-1", "ann"));
    assert_eq!(
        spent(&ev, "brute-1"),
        [(ActionKind::Move, ActionKind::Move)]
    );
    assert!(has(
        &ev,
        &GameEvent::Moved {
            combatant: cid("brute-1"),
            engaged: Some(cid("ann")),
            far_away: false,
        }
    ));
    assert!(opened(&ev).is_empty(), "an unengaged mover draws nothing");
    assert_eq!(engaged(&e, "brute-1"), ["ann"]);
    assert_eq!(engaged(&e, "ann"), ["brute-1"]);
    assert!(engaged(&e, "bo").is_empty());
    // Melee only against the creatures it engages.
    assert_eq!(
        refuse(&mut e, &attack("brute-1", "claw", &["bo"])),
        ErrorCode::NotEngaged
    );
    let ev = run(&mut e, &attack("brute-1", "claw", &["ann"]));
    assert_eq!(the_atk(&ev).target, "ann");
    assert_eq!(
        spent(&ev, "brute-1"),
        [(ActionKind::Standard, ActionKind::Standard)]
    );
}

/// 13th-age-combat.txt § Far Away ("two moves away from the enemies"; a single move reaches
/// anyone nearby) and § Engaged/Next to (close attacks are for enemies in melee reach; ranged
/// attacks reach far).
#[test]
fn far_away_is_out_of_reach_of_engaging_and_of_close_attacks() {
    let mut e = fight(1, 10, 0);
    until_turn_of(&mut e, "ann");
    let ev = run(&mut e, &far("ann"));
    assert!(has(
        &ev,
        &GameEvent::Moved {
            combatant: cid("ann"),
            engaged: None,
            far_away: true,
        }
    ));
    assert!(cs(&e, "ann").far_away);
    // The standard action could pay for a second move: the refusal is about reach.
    assert!(cs(&e, "ann").actions.standard);
    assert_eq!(
        refuse(&mut e, &engage("ann", "brute-1")),
        ErrorCode::OutOfReach
    );
    assert_eq!(
        refuse(&mut e, &attack("ann", "sweep", &["brute-1"])),
        ErrorCode::OutOfReach
    );
    // A ranged attack reaches.
    let ev = run(&mut e, &attack("ann", "ranged", &["brute-1"]));
    assert_eq!(atks(&ev).len(), 1);

    // From the other side: the brute cannot engage or close-attack far-away ann.
    next_turn_of(&mut e, "brute-1");
    assert!(cs(&e, "ann").far_away);
    assert_eq!(
        refuse(&mut e, &engage("brute-1", "ann")),
        ErrorCode::OutOfReach
    );
    assert_eq!(
        refuse(&mut e, &attack("brute-1", "lasso", &["ann"])),
        ErrorCode::OutOfReach
    );
    run(&mut e, &attack("brute-1", "spit", &["ann"]));

    // One move brings ann back nearby, a second engages.
    next_turn_of(&mut e, "ann");
    let ev = run(&mut e, &mv("ann"));
    assert!(has(
        &ev,
        &GameEvent::Moved {
            combatant: cid("ann"),
            engaged: None,
            far_away: false,
        }
    ));
    assert!(!cs(&e, "ann").far_away);
    let ev = run(&mut e, &engage("ann", "brute-1"));
    assert_eq!(
        spent(&ev, "ann"),
        [(ActionKind::Move, ActionKind::Standard)]
    );
    assert_eq!(engaged(&e, "ann"), ["brute-1"]);
}

// ------------------------------------------------------------------------------------------
// Opportunity attacks
// ------------------------------------------------------------------------------------------

/// 13th-age-combat.txt § Disengaging ("You can move away from the foes that engage you, but you
/// draw an opportunity attack from each of those enemies"; "it can make a basic melee attack
/// against that foe as a free action during the turn of the creature that is provoking").
#[test]
fn moving_away_while_engaged_opens_an_opportunity_attack_for_each_engager() {
    let mut e = ann_engaged_by(2, 10, 0);
    // Nothing provoked yet.
    assert_eq!(
        refuse(&mut e, &oa("brute-1", "claw", "ann")),
        ErrorCode::NoOpportunity
    );
    let ev = run(&mut e, &mv("ann"));
    assert_eq!(
        opened(&ev),
        opened_one("ann", &["brute-1", "brute-2"], Provocation::MovingAway)
    );
    assert!(
        index(&ev, |x| matches!(
            x,
            GameEvent::ThirteenthAge(ThirteenthAgeEvent::OpportunityOpened { .. })
        )) < index(&ev, |x| matches!(x, GameEvent::Moved { .. }))
    );
    assert!(engaged(&e, "ann").is_empty());
    assert!(engaged(&e, "brute-1").is_empty());
    assert!(engaged(&e, "brute-2").is_empty());

    // brute-1 attacks out of its turn, as a free action.
    let actions = cs(&e, "brute-1").actions;
    let ev = run(&mut e, &oa("brute-1", "claw", "ann"));
    assert_eq!(
        ev[0],
        GameEvent::OpportunityTaken {
            attacker: cid("brute-1"),
            target: cid("ann"),
        }
    );
    assert!(matches!(
        &ev[1],
        GameEvent::AttackRolled { attacker, target, attack, .. }
            if attacker.as_str() == "brute-1" && target.as_str() == "ann" && attack == "claw"
    ));
    let a = the_atk(&ev);
    assert_eq!(a.bonus, 40);
    if a.outcome.is_hit() {
        assert_eq!(
            damaged(&ev, "ann")[0].0,
            if a.outcome == AttackOutcome::Crit {
                2
            } else {
                1
            }
        );
    }
    assert!(!any(&ev, |x| matches!(x, GameEvent::ActionUsed { .. })));
    assert_eq!(cs(&e, "brute-1").actions, actions, "no action spent");
    assert_eq!(current(&e), "ann", "still ann's turn");
    // One opportunity attack per provocation.
    assert_eq!(
        refuse(&mut e, &oa("brute-1", "claw", "ann")),
        ErrorCode::NoOpportunity
    );
    // brute-2's is its own.
    let ev = run(&mut e, &oa("brute-2", "claw", "ann"));
    assert!(has(
        &ev,
        &GameEvent::OpportunityTaken {
            attacker: cid("brute-2"),
            target: cid("ann"),
        }
    ));
}

/// 13th-age-combat.txt § Disengaging ("You can only use a basic melee attack") and § Flexible
/// Attacks ("You can't use a flexible attack when you make an opportunity attack").
#[test]
fn opportunity_attacks_are_basic_melee_attacks_and_never_flexible() {
    let mut e = ann_engaged_by(1, 10, 0);
    run(&mut e, &mv("ann"));
    for (atk, code) in [
        ("bite", ErrorCode::NotBasicMelee),  // melee, not basic
        ("maul", ErrorCode::NotBasicMelee),  // melee, not basic
        ("spit", ErrorCode::NotBasicMelee),  // basic, ranged
        ("lasso", ErrorCode::NotBasicMelee), // close
        ("flurry", ErrorCode::FlexibleOnOpportunity),
    ] {
        assert_eq!(refuse(&mut e, &oa("brute-1", atk, "ann")), code, "{atk}");
    }
    // The window is still open for a basic melee attack.
    let ev = run(&mut e, &oa("brute-1", "claw", "ann"));
    assert!(!any(&ev, |x| matches!(
        x,
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::ManeuverTriggered { .. })
    )));
    assert_eq!(atks(&ev).len(), 1);
}

/// 13th-age-combat.txt § Disengaging (the opportunity attack is made "during the turn of the
/// creature that is provoking").
#[test]
fn the_opportunity_window_closes_at_the_end_of_the_provokers_turn() {
    let mut e = ann_engaged_by(2, 10, 0);
    run(&mut e, &mv("ann"));
    run(&mut e, &oa("brute-1", "claw", "ann"));
    run(&mut e, &end_turn("ann"));
    assert_ne!(current(&e), "ann");
    for b in ["brute-1", "brute-2"] {
        assert_eq!(
            refuse(&mut e, &oa(b, "claw", "ann")),
            ErrorCode::NoOpportunity,
            "{b}"
        );
    }
}

/// 13th-age-combat.txt § Confused ("You can't make opportunity attacks"), § Grabbed ("Grabbed
/// creatures can't make opportunity attacks"), § Stunned ("can't take any actions"), § Helpless
/// (unconscious or asleep): such engagers are not offered an opportunity attack; an able one is.
/// Also § Grabbed: a grabber that moves away leaves the grabbed creature behind.
#[test]
fn confused_grabbed_stunned_or_helpless_engagers_get_no_opportunity_attack() {
    find_seed("every condition lands", |seed| {
        // AC 2: the heroes' attacks miss only on a natural 1.
        let mut e = ann_engaged_by(5, 2, seed);
        until_turn_of(&mut e, "bo");
        hits(&mut e, "bo", "confuse", "brute-1")?;
        next_turn_of(&mut e, "bo");
        hits(&mut e, "bo", "stun", "brute-2")?;
        next_turn_of(&mut e, "bo");
        hits(&mut e, "bo", "sleep", "brute-4")?;
        next_turn_of(&mut e, "ann");
        hits(&mut e, "ann", "wrestle", "brute-3")?;
        assert_eq!(conditions(&cs(&e, "brute-1")), [Condition::Confused]);
        assert_eq!(conditions(&cs(&e, "brute-2")), [Condition::Stunned]);
        assert_eq!(conditions(&cs(&e, "brute-3")), [Condition::Grabbed]);
        assert_eq!(conditions(&cs(&e, "brute-4")), [Condition::Helpless]);
        assert!(conditions(&cs(&e, "brute-5")).is_empty());
        assert_eq!(engaged(&e, "ann").len(), 5);
        let grab = grab_on(&e, "brute-3");

        let ev = run(&mut e, &mv("ann"));
        assert_eq!(
            opened(&ev),
            opened_one("ann", &["brute-5"], Provocation::MovingAway)
        );
        // ann (the grabber) let go of brute-3 by moving away.
        assert!(has(
            &ev,
            &GameEvent::EffectEnded {
                target: cid("brute-3"),
                effect: grab,
                reason: EffectEndReason::Expired,
            }
        ));
        for b in ["brute-1", "brute-2", "brute-3", "brute-4"] {
            assert_eq!(
                refuse(&mut e, &oa(b, "claw", "ann")),
                ErrorCode::NoOpportunity,
                "{b}"
            );
        }
        run(&mut e, &oa("brute-5", "claw", "ann"));
        Some(())
    });
}

/// 13th-age-combat.txt § Confused, § Stunned, § Helpless, § Grabbed: an engager that becomes
/// unable after the provocation (still during the provoker's turn) cannot take the opportunity
/// attack it was offered.
#[test]
fn an_engager_impaired_after_the_provocation_cannot_take_its_opportunity_attack() {
    for (atk, condition, code) in [
        ("stun", Condition::Stunned, ErrorCode::Stunned),
        ("confuse", Condition::Confused, ErrorCode::CannotAct),
        ("sleep", Condition::Helpless, ErrorCode::CannotAct),
        ("noose", Condition::Grabbed, ErrorCode::Grabbed),
    ] {
        find_seed(atk, |seed| {
            let mut e = ann_engaged_by(1, 2, seed);
            let ev = run(&mut e, &mv("ann"));
            assert_eq!(opened(&ev).len(), 1);
            // Unengaged now: ann's ranged or close attack provokes nothing.
            let ev = hits(&mut e, "ann", atk, "brute-1")?;
            assert!(opened(&ev).is_empty());
            assert_eq!(conditions(&cs(&e, "brute-1")), [condition]);
            assert_eq!(refuse(&mut e, &oa("brute-1", "claw", "ann")), code, "{atk}");
            Some(())
        });
    }
}

// ------------------------------------------------------------------------------------------
// Ranged attacks and spells while engaged
// ------------------------------------------------------------------------------------------

/// 13th-age-combat.txt § Ranged Attacks ("Any ranged attack … draws opportunity attacks from
/// enemies engaged with you that you don't target with the attack").
#[test]
fn a_ranged_attack_while_engaged_provokes_the_foes_not_targeted() {
    let mut e = ann_engaged_by(2, 10, 0);
    let ev = run(&mut e, &attack("ann", "ranged", &["brute-1"]));
    assert_eq!(
        opened(&ev),
        opened_one("ann", &["brute-2"], Provocation::RangedAttack)
    );
    assert!(
        index(&ev, |x| matches!(
            x,
            GameEvent::ThirteenthAge(ThirteenthAgeEvent::OpportunityOpened { .. })
        )) < index(&ev, |x| matches!(x, GameEvent::AttackRolled { .. }))
    );
    // Attacking does not move: still engaged with both.
    assert_eq!(engaged(&e, "ann"), ["brute-1", "brute-2"]);
    assert_eq!(
        refuse(&mut e, &oa("brute-1", "claw", "ann")),
        ErrorCode::NoOpportunity
    );
    let ev = run(&mut e, &oa("brute-2", "claw", "ann"));
    assert_eq!(atks(&ev).len(), 1);
}

/// 13th-age-combat.txt § Spell Attacks ("Most spells draw opportunity attacks from enemies
/// engaged with you, even the enemies you target with the spell. Close-quarters spells are the
/// exception") and § Engaged/Next to (melee and close attacks draw none; unengaged casters cast
/// freely).
#[test]
fn spells_provoke_every_engaged_foe_but_close_quarters_spells_and_melee_do_not() {
    let mut e = ann_engaged_by(2, 10, 0);
    let ev = run(&mut e, &attack("ann", "bolt", &["brute-1"]));
    assert_eq!(
        opened(&ev),
        opened_one("ann", &["brute-1", "brute-2"], Provocation::Spell)
    );
    run(&mut e, &oa("brute-1", "claw", "ann"));

    for (atk, targets) in [
        ("burst", &["brute-1", "brute-2"][..]),
        ("sweep", &["brute-1", "brute-2"][..]),
        ("blade", &["brute-1"][..]),
    ] {
        let mut e = ann_engaged_by(2, 10, 0);
        let ev = run(&mut e, &attack("ann", atk, targets));
        assert_eq!(atks(&ev).len(), targets.len(), "{atk}");
        assert!(opened(&ev).is_empty(), "{atk}: {ev:?}");
        assert_eq!(
            refuse(&mut e, &oa("brute-1", "claw", "ann")),
            ErrorCode::NoOpportunity
        );
    }

    // bo is not engaged: his spell provokes nothing.
    let mut e = ann_engaged_by(2, 10, 0);
    until_turn_of(&mut e, "bo");
    let ev = run(&mut e, &attack("bo", "bolt", &["brute-1"]));
    assert!(opened(&ev).is_empty());
}

// ------------------------------------------------------------------------------------------
// Disengaging
// ------------------------------------------------------------------------------------------

/// 13th-age-combat.txt § Disengaging (you disengage from "the foes that engage you").
#[test]
fn disengaging_needs_an_engagement() {
    let mut e = fight(1, 10, 0);
    until_turn_of(&mut e, "ann");
    assert_eq!(refuse(&mut e, &disengage("ann")), ErrorCode::NotEngaged);
}

/// 13th-age-combat.txt § Disengaging ("roll a normal save (11+)"; "your roll takes a –1 penalty
/// for each foe beyond the first"; "Disengaging uses a move action").
#[test]
fn the_disengage_save_is_11_plus_one_per_extra_foe() {
    for n in 1..=3u32 {
        let mut e = ann_engaged_by(n, 10, u64::from(n));
        let ev = run(&mut e, &disengage("ann"));
        assert_eq!(spent(&ev, "ann"), [(ActionKind::Move, ActionKind::Move)]);
        let s = saves(&ev, "ann");
        assert_eq!(s.len(), 1);
        let (purpose, natural, target, success) = s[0].clone();
        assert_eq!(purpose, SavePurpose::Disengage);
        assert_eq!(target, 10 + n, "{n} foes");
        assert_eq!(success, natural >= target);
    }
}

/// 13th-age-combat.txt § Disengaging ("If the disengage check succeeds, you can move without
/// drawing opportunity attacks from the foes you were engaged with").
#[test]
fn a_successful_disengage_frees_without_opportunity_attacks() {
    let (mut e, ev) = find_seed("a successful disengage", |seed| {
        let mut e = ann_engaged_by(2, 10, seed);
        let ev = run(&mut e, &disengage("ann"));
        saves(&ev, "ann")[0].3.then_some((e, ev))
    });
    assert!(has(
        &ev,
        &GameEvent::ThirteenthAge(ThirteenthAgeEvent::Disengaged {
            combatant: cid("ann")
        })
    ));
    assert!(opened(&ev).is_empty());
    for who in ["ann", "brute-1", "brute-2"] {
        assert!(engaged(&e, who).is_empty(), "{who}");
    }
    assert_eq!(
        refuse(&mut e, &oa("brute-1", "claw", "ann")),
        ErrorCode::NoOpportunity
    );
    // "Use your move normally": the disengage was the move action, so moving now costs
    // nothing more, draws nothing, and leaves the standard action for an attack.
    let ev = run(&mut e, &far("ann"));
    assert_eq!(spent(&ev, "ann"), []);
    assert!(opened(&ev).is_empty());
    assert!(cs(&e, "ann").far_away);
    assert!(cs(&e, "ann").actions.standard);
    // Only one free move.
    let ev = run(&mut e, &far("ann"));
    assert_eq!(
        spent(&ev, "ann"),
        [(ActionKind::Move, ActionKind::Standard)]
    );
}

/// 13th-age-combat.txt § Disengaging ("If you fail the disengage check, you don't move, lose your
/// move action for that turn, and remain engaged. You don't take any opportunity attacks.").
#[test]
fn a_failed_disengage_spends_the_move_and_stays_engaged() {
    let (mut e, ev) = find_seed("a failed disengage", |seed| {
        let mut e = ann_engaged_by(2, 10, seed);
        let ev = run(&mut e, &disengage("ann"));
        (!saves(&ev, "ann")[0].3).then_some((e, ev))
    });
    assert!(!any(&ev, |x| matches!(
        x,
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::Disengaged { .. })
    )));
    assert!(opened(&ev).is_empty());
    assert_eq!(engaged(&e, "ann"), ["brute-1", "brute-2"]);
    let actions = cs(&e, "ann").actions;
    assert!(!actions.move_action);
    assert!(actions.standard);
    assert_eq!(
        refuse(&mut e, &oa("brute-1", "claw", "ann")),
        ErrorCode::NoOpportunity
    );
    // Still engaged: moving away now provokes both.
    let ev = run(&mut e, &mv("ann"));
    assert_eq!(
        opened(&ev),
        opened_one("ann", &["brute-1", "brute-2"], Provocation::MovingAway)
    );
}

/// 13th-age-combat.txt § Grabbed ("Disengage checks take a –5 penalty unless you hit the
/// creature that is grabbing you the same turn"); a successful disengage pops the creature free
/// of the grab.
#[test]
fn a_grabbed_disengage_takes_minus_5_unless_the_grabber_was_hit_this_turn() {
    // Grabbed by brute-1 on its turn; returns at ann's turn.
    let grabbed = |seed: u64| {
        let mut e = fight(1, 10, seed);
        hits(&mut e, "brute-1", "lasso", "ann")?;
        until_turn_of(&mut e, "ann");
        Some(e)
    };
    // No attack: 11 + 5.
    let mut e = find_seed("a grab", grabbed);
    let s = saves(&run(&mut e, &disengage("ann")), "ann");
    assert_eq!((s[0].0.clone(), s[0].2), (SavePurpose::Disengage, 16));
    // Missing the grabber does not help.
    let mut e = find_seed("a grab, then a miss", |seed| {
        let mut e = grabbed(seed)?;
        let ev = run(&mut e, &attack("ann", "blade", &["brute-1"]));
        (!the_atk(&ev).outcome.is_hit()).then_some(e)
    });
    assert_eq!(saves(&run(&mut e, &disengage("ann")), "ann")[0].2, 16);
    // Hitting it this turn: 11, and a success ends the grab.
    let (e, ev, grab) = find_seed("a grab, a hit, a successful disengage", |seed| {
        let mut e = grabbed(seed)?;
        let grab = grab_on(&e, "ann");
        hits(&mut e, "ann", "blade", "brute-1")?;
        let ev = run(&mut e, &disengage("ann"));
        let s = saves(&ev, "ann");
        assert_eq!(s[0].2, 11);
        s[0].3.then_some((e, ev, grab))
    });
    assert!(has(
        &ev,
        &GameEvent::EffectEnded {
            target: cid("ann"),
            effect: grab,
            reason: EffectEndReason::Expired,
        }
    ));
    assert!(has(
        &ev,
        &GameEvent::ThirteenthAge(ThirteenthAgeEvent::Disengaged {
            combatant: cid("ann")
        })
    ));
    assert!(conditions(&cs(&e, "ann")).is_empty());
    assert!(engaged(&e, "ann").is_empty());
}

// ------------------------------------------------------------------------------------------
// Intercepting
// ------------------------------------------------------------------------------------------

/// 13th-age-combat.txt § Intercepting ("If you move past someone who is not already engaged,
/// they have the option to engage you and make you stop where they are") and § Engaged/Next to
/// ("You can engage an enemy moving past you").
#[test]
fn an_unengaged_combatant_intercepts_an_enemy_that_just_moved() {
    let mut e = fight(1, 10, 0);
    run(&mut e, &engage("brute-1", "bo"));
    assert_eq!(engaged(&e, "bo"), ["brute-1"]);
    let ev = run(&mut e, &intercept("ann", "brute-1"));
    assert_eq!(
        ev,
        [GameEvent::ThirteenthAge(ThirteenthAgeEvent::Intercepted {
            interceptor: cid("ann"),
            mover: cid("brute-1"),
        })]
    );
    assert_eq!(engaged(&e, "brute-1"), ["ann"]);
    assert_eq!(engaged(&e, "ann"), ["brute-1"]);
    assert!(engaged(&e, "bo").is_empty());
    // The brute was stopped short of bo.
    assert_eq!(
        refuse(&mut e, &attack("brute-1", "claw", &["bo"])),
        ErrorCode::NotEngaged
    );
    run(&mut e, &attack("brute-1", "claw", &["ann"]));
    // One interception per move.
    assert_eq!(
        refuse(&mut e, &intercept("bo", "brute-1")),
        ErrorCode::InvalidArgument
    );
}

/// 13th-age-combat.txt § Engaged/Next to ("You can't intercept enemies" when engaged),
/// § Intercepting (a creature moving past; "You must be near the enemy"), § Far Away.
#[test]
fn intercepting_needs_a_free_interceptor_and_a_mover_that_just_moved() {
    let mut e = fight(2, 10, 0);
    let r = refusal(&mut e, &intercept("ann", "brute-1"));
    assert_eq!(r.code, ErrorCode::InvalidArgument);
    assert!(r.message.contains("has not just moved"), "{r}");
    run(&mut e, &engage("brute-1", "ann"));
    run(&mut e, &end_turn("brute-1"));
    run(&mut e, &engage("brute-2", "bo"));
    // ann is engaged with brute-1; bo with brute-2 (the mover itself).
    for who in ["ann", "bo"] {
        let r = refusal(&mut e, &intercept(who, "brute-2"));
        assert_eq!(r.code, ErrorCode::InvalidArgument, "{who}");
        assert!(r.message.contains("engaged"), "{who}: {r}");
    }
    assert_eq!(
        refuse(&mut e, &intercept("brute-1", "brute-2")),
        ErrorCode::InvalidTarget
    );
    assert_eq!(
        refuse(&mut e, &intercept("brute-2", "brute-2")),
        ErrorCode::NotYourTurn
    );
    // Not a mover any more once its turn is over.
    run(&mut e, &end_turn("brute-2"));
    let r = refusal(&mut e, &intercept("ann", "brute-2"));
    assert!(r.message.contains("has not just moved"), "{r}");

    // Far away is too far.
    let mut e = fight(1, 10, 0);
    until_turn_of(&mut e, "ann");
    run(&mut e, &far("ann"));
    next_turn_of(&mut e, "brute-1");
    run(&mut e, &engage("brute-1", "bo"));
    assert_eq!(
        refuse(&mut e, &intercept("ann", "brute-1")),
        ErrorCode::OutOfReach
    );
}

// ------------------------------------------------------------------------------------------
// Coup de grace
// ------------------------------------------------------------------------------------------

/// brute-1 engages ann and drops her with `maul` (35 against 30 hp, a plain hit: −5); `None`
/// unless she is still unconscious (failed death save) at brute-1's second turn.
fn ann_down(seed: u64) -> Option<Engine> {
    let mut e = fight(1, 10, seed);
    run(&mut e, &engage("brute-1", "ann"));
    let ev = run(&mut e, &attack("brute-1", "maul", &["ann"]));
    if the_atk(&ev).outcome != AttackOutcome::Hit {
        return None;
    }
    assert_eq!(cs(&e, "ann").status, LifeStatus::Unconscious);
    next_turn_of(&mut e, "brute-1");
    (cs(&e, "ann").status == LifeStatus::Unconscious).then_some(e)
}

/// 13th-age-combat.txt § Coup de Grace ("When you attack a helpless enemy you're engaged with,
/// you score an automatic critical hit if you … skip your move action and your quick action"),
/// § Helpless ("If you're unconscious … you're helpless"), § Crits (double damage).
#[test]
fn coup_de_grace_on_an_unconscious_pc_doubles_the_damage_roll() {
    let seed = find_seed("ann down", |seed| ann_down(seed).map(|_| seed));
    let mut e = ann_down(seed).unwrap();
    assert_eq!(engaged(&e, "brute-1"), ["ann"]);
    assert_eq!(
        refuse(&mut e, &cdg("brute-1", "club", "bo")),
        ErrorCode::NotHelpless
    );
    let hp = cs(&e, "ann").hp.unwrap();
    let ev = run(&mut e, &cdg("brute-1", "club", "ann"));
    assert_eq!(
        spent(&ev, "brute-1"),
        [
            (ActionKind::Standard, ActionKind::Standard),
            (ActionKind::Move, ActionKind::Move),
            (ActionKind::Quick, ActionKind::Quick),
        ]
    );
    assert!(atks(&ev).is_empty(), "no attack roll");
    let at = index(&ev, |x| {
        *x == GameEvent::CoupDeGrace {
            attacker: cid("brute-1"),
            target: cid("ann"),
            attack: "club".into(),
        }
    });
    assert!(at < index(&ev, |x| matches!(x, GameEvent::DamageRolled { .. })));
    let rolls = damage_rolls(&ev);
    assert_eq!(rolls.len(), 1);
    assert_eq!(rolls[0].dice.len(), 2, "club is 2d6");
    let d = damaged(&ev, "ann");
    assert_eq!(d[0], (2 * rolls[0].total, Some(hp - 2 * rolls[0].total)));

    // A move first spends what a coup de grace must skip.
    let mut e = ann_down(seed).unwrap();
    run(&mut e, &engage("brute-1", "ann"));
    assert_eq!(engaged(&e, "brute-1"), ["ann"]);
    assert_eq!(
        refuse(&mut e, &cdg("brute-1", "club", "ann")),
        ErrorCode::ActionAlreadyUsed
    );
}

/// 13th-age-combat.txt § Coup de Grace (the helpless enemy "you're engaged with"; skip the move
/// and quick actions) and § Helpless (a `helpless` condition, e.g. asleep).
#[test]
fn coup_de_grace_on_a_helpless_monster_needs_an_engagement_and_an_unused_turn() {
    let mut e = find_seed("brute-1 asleep", |seed| {
        let mut e = fight(2, 10, seed);
        until_turn_of(&mut e, "bo");
        hits(&mut e, "bo", "sleep", "brute-1")?;
        Some(e)
    });
    assert_eq!(conditions(&cs(&e, "brute-1")), [Condition::Helpless]);
    next_turn_of(&mut e, "ann");
    assert_eq!(
        refuse(&mut e, &cdg("ann", "blade", "brute-1")),
        ErrorCode::NotEngaged
    );
    assert_eq!(
        refuse(&mut e, &cdg("ann", "blade", "bo")),
        ErrorCode::InvalidTarget
    );
    run(&mut e, &engage("ann", "brute-1"));
    assert_eq!(
        refuse(&mut e, &cdg("ann", "blade", "brute-1")),
        ErrorCode::ActionAlreadyUsed
    );
    // brute-2 engages ann on its next turn; it is not helpless.
    next_turn_of(&mut e, "brute-2");
    run(&mut e, &engage("brute-2", "ann"));
    next_turn_of(&mut e, "ann");
    assert_eq!(engaged(&e, "ann"), ["brute-1", "brute-2"]);
    assert_eq!(
        refuse(&mut e, &cdg("ann", "blade", "brute-2")),
        ErrorCode::NotHelpless
    );
    let hp = cs(&e, "brute-1").hp.unwrap();
    let ev = run(&mut e, &cdg("ann", "blade", "brute-1"));
    assert!(has(
        &ev,
        &GameEvent::CoupDeGrace {
            attacker: cid("ann"),
            target: cid("brute-1"),
            attack: "blade".into(),
        }
    ));
    assert!(atks(&ev).is_empty());
    let roll = &damage_rolls(&ev)[0];
    assert_eq!(
        damaged(&ev, "brute-1"),
        [(2 * roll.total, Some(hp - 2 * roll.total))],
        "2 × (2d8+3)"
    );
    assert!(
        opened(&ev).is_empty(),
        "a melee coup de grace provokes nothing"
    );
}

/// 13th-age-combat.txt § Coup de Grace ("Make a standard action attack") with § Ranged Attacks
/// ("Any ranged attack … draws opportunity attacks from enemies engaged with you that you don't
/// target"): a coup de grace made with a ranged attack provokes like any ranged attack.
#[test]
fn a_ranged_coup_de_grace_provokes_the_other_engaged_foes() {
    let mut e = find_seed("brute-1 asleep", |seed| {
        let mut e = ann_engaged_by(2, 10, seed);
        until_turn_of(&mut e, "bo");
        hits(&mut e, "bo", "sleep", "brute-1")?;
        Some(e)
    });
    until_turn_of(&mut e, "ann");
    assert_eq!(engaged(&e, "ann"), ["brute-1", "brute-2"]);
    let ev = run(&mut e, &cdg("ann", "ranged", "brute-1"));
    assert!(any(&ev, |x| matches!(x, GameEvent::CoupDeGrace { .. })));
    assert_eq!(
        opened(&ev),
        opened_one("ann", &["brute-2"], Provocation::RangedAttack)
    );
}

// ------------------------------------------------------------------------------------------
// Stabilizing
// ------------------------------------------------------------------------------------------

/// brute-1 drops ann (−5, a plain hit); returns at bo's next turn, `None` unless ann is still
/// unconscious then.
fn ann_dying(seed: u64) -> Option<Engine> {
    let mut e = fight(1, 10, seed);
    run(&mut e, &engage("brute-1", "ann"));
    let ev = run(&mut e, &attack("brute-1", "maul", &["ann"]));
    if the_atk(&ev).outcome != AttackOutcome::Hit {
        return None;
    }
    until_turn_of(&mut e, "bo");
    (cs(&e, "ann").status == LifeStatus::Unconscious).then_some(e)
}

/// `(natural, bonus, total, dc, success)` of the one stabilize check.
fn check(ev: &[GameEvent]) -> (u32, i32, i32, i32, bool) {
    let c: Vec<_> = ev
        .iter()
        .filter_map(|x| match x {
            GameEvent::CheckRolled {
                combatant,
                purpose,
                roll,
                bonus,
                total,
                dc,
                success,
                ..
            } if combatant.as_str() == "bo" && purpose == "stabilize" => {
                Some((roll.natural().unwrap(), *bonus, *total, *dc, *success))
            }
            _ => None,
        })
        .collect();
    assert_eq!(c.len(), 1, "{ev:?}");
    c[0]
}

/// bo stabilizes ann in a fresh [`ann_dying`]; `None` unless the natural roll is in `range`.
fn stabilized_with(
    range: std::ops::RangeInclusive<u32>,
) -> (Engine, Vec<GameEvent>, (u32, i32, i32, i32, bool)) {
    find_seed(&format!("a natural {range:?}"), |seed| {
        let mut e = ann_dying(seed)?;
        let ev = run(&mut e, &stabilize("bo", "ann"));
        let c = check(&ev);
        range.contains(&c.0).then_some((e, ev, c))
    })
}

/// 13th-age-combat.txt § Stabilizing ("make a DC 10 healing skill check using Wisdom as a
/// standard action. Failure wastes your standard action … Success stabilizes your ally. If your
/// stabilization check is 25+ … it only takes a quick action"). A check is d20 + ability
/// modifier + level (§ Dicey Moves).
#[test]
fn stabilizing_is_a_dc_10_wisdom_check_and_25_plus_takes_only_a_quick_action() {
    let stabilized = GameEvent::Stabilized {
        combatant: cid("ann"),
        by: cid("bo"),
    };
    // bo: Wis 20 (+5), level 2: bonus 7. Naturals 1–2 fail (8, 9).
    let (e, ev, (natural, bonus, total, dc, success)) = stabilized_with(1..=2);
    assert_eq!(
        (bonus, total, dc, success),
        (7, natural as i32 + 7, 10, false)
    );
    assert!(!has(&ev, &stabilized));
    assert_eq!(
        spent(&ev, "bo"),
        [(ActionKind::Standard, ActionKind::Standard)]
    );
    assert!(!cs(&e, "ann").stabilized);

    // 3–17: 10 to 24, a success for a standard action.
    let (e, ev, (natural, _, total, _, success)) = stabilized_with(3..=17);
    assert_eq!((total, success), (natural as i32 + 7, true));
    assert!(
        index(&ev, |x| matches!(x, GameEvent::CheckRolled { .. }))
            < index(&ev, |x| *x == stabilized)
    );
    assert_eq!(
        spent(&ev, "bo"),
        [(ActionKind::Standard, ActionKind::Standard)]
    );
    assert!(cs(&e, "ann").stabilized);
    assert_eq!(cs(&e, "ann").status, LifeStatus::Unconscious);

    // 18–20: 25+, only the quick action; the standard action is still there.
    let (mut e, ev, (_, _, total, _, success)) = stabilized_with(18..=20);
    assert!(total >= 25 && success);
    assert!(has(&ev, &stabilized));
    assert_eq!(spent(&ev, "bo"), [(ActionKind::Quick, ActionKind::Quick)]);
    let actions = cs(&e, "bo").actions;
    assert!(actions.standard && actions.move_action && !actions.quick);
    run(&mut e, &attack("bo", "ranged", &["brute-1"]));
}

/// 13th-age-combat.txt § Stabilizing ("A stabilized character is still unconscious, rolling death
/// saves on their turn, but failed death saves no longer take them a step closer to death").
#[test]
fn a_stabilized_pc_ignores_failed_death_saves() {
    let (e, ev) = find_seed("stabilized, then a failed death save", |seed| {
        let mut e = ann_dying(seed)?;
        if !check(&run(&mut e, &stabilize("bo", "ann"))).4 {
            return None;
        }
        let failures = cs(&e, "ann").death_save_failures;
        let ev = next_turn_of(&mut e, "ann");
        let s = saves(&ev, "ann");
        assert_eq!(s[0].0, SavePurpose::Death);
        assert_eq!(cs(&e, "ann").death_save_failures, failures);
        (!s[0].3).then_some((e, ev))
    });
    assert!(!any(&ev, |x| matches!(
        x,
        GameEvent::DeathSaveFailed { .. }
    )));
    let ann = cs(&e, "ann");
    assert_eq!(ann.status, LifeStatus::Unconscious);
    assert!(ann.stabilized);

    // Control: without stabilizing, the same kind of roll is a step toward the grave.
    let ev = find_seed("a failed death save", |seed| {
        let mut e = ann_dying(seed)?;
        let ev = next_turn_of(&mut e, "ann");
        (!saves(&ev, "ann")[0].3).then_some(ev)
    });
    assert!(any(&ev, |x| matches!(
        x,
        GameEvent::DeathSaveFailed { combatant, .. } if combatant.as_str() == "ann"
    )));
}

/// 13th-age-combat.txt § Stabilizing ("If one of your allies is unconscious"; "Get next to
/// them").
#[test]
fn only_an_unconscious_ally_nearby_can_be_stabilized() {
    let mut e = find_seed("ann dying", ann_dying);
    assert_eq!(refuse(&mut e, &stabilize("bo", "bo")), ErrorCode::NotDying);
    assert_eq!(
        refuse(&mut e, &stabilize("bo", "brute-1")),
        ErrorCode::NotDying
    );
    run(&mut e, &far("bo"));
    assert_eq!(
        refuse(&mut e, &stabilize("bo", "ann")),
        ErrorCode::OutOfReach
    );

    // A conscious ally is not dying.
    let mut e = fight(1, 10, 0);
    until_turn_of(&mut e, "bo");
    assert_eq!(refuse(&mut e, &stabilize("bo", "ann")), ErrorCode::NotDying);
}

// ------------------------------------------------------------------------------------------
// Flexible attacks
// ------------------------------------------------------------------------------------------

/// ann engages the dummy and attacks it with `atk` on her first turn.
fn ann_strikes_dummy(seed: u64, atk: &str) -> (Engine, Vec<GameEvent>) {
    let (mut e, _) = start(&encounter(&[ann_pc()], &[(dummy(), 1)]), seed);
    until_turn_of(&mut e, "ann");
    assert_eq!(e.state().escalation, 0);
    run(&mut e, &engage("ann", "dummy-1"));
    let ev = run(&mut e, &attack("ann", atk, &["dummy-1"]));
    (e, ev)
}

/// 13th-age-combat.txt § Flexible Attacks ("use the natural unmodified die result to determine
/// which of your eligible flexible attacks to use. You still use the modified roll to determine
/// whether or not you hit"; "You can only use one flexible attack at a time"), § Fumbles (a
/// natural 1 has no effect), § Crits.
#[test]
fn flexible_attacks_trigger_the_first_maneuver_matching_the_natural_roll() {
    // ann +5 against AC 15: a natural 10+ hits. Maneuvers, in order: finisher 16+ (+7,
    // vulnerable), evens even (+3), graze 1–7 also on a miss (dazed).
    let expected = |n: u32| -> Option<&'static str> {
        match n {
            1 => None,
            16..=20 => Some("finisher"),
            10..=15 if n.is_multiple_of(2) => Some("evens"),
            2..=7 => Some("graze"),
            _ => None,
        }
    };
    let mut seen = [false; 21];
    for seed in 0..3000 {
        if seen[1..].iter().all(|s| *s) {
            break;
        }
        let (e, ev) = ann_strikes_dummy(seed, "flex");
        let a = the_atk(&ev);
        let n = a.natural;
        if seen[n as usize] {
            continue;
        }
        seen[n as usize] = true;
        assert_eq!(a.outcome.is_hit(), n >= 10, "natural {n}");
        let triggered: Vec<(String, u32)> = ev
            .iter()
            .filter_map(|x| match x {
                GameEvent::ThirteenthAge(ThirteenthAgeEvent::ManeuverTriggered {
                    attacker,
                    target,
                    maneuver,
                    natural,
                }) => {
                    assert_eq!((attacker.as_str(), target.as_str()), ("ann", "dummy-1"));
                    Some((maneuver.clone(), *natural))
                }
                _ => None,
            })
            .collect();
        let want = expected(n);
        assert_eq!(
            triggered,
            want.map(|m| (m.to_owned(), n))
                .into_iter()
                .collect::<Vec<_>>(),
            "natural {n}"
        );
        let rolled: Vec<(String, i32)> = ev
            .iter()
            .filter_map(|x| match x {
                GameEvent::DamageRolled { attack, roll, .. } => Some((attack.clone(), roll.total)),
                _ => None,
            })
            .collect();
        let dmg = damaged(&ev, "dummy-1");
        let fx: Vec<Condition> = applied(&ev)
            .iter()
            .map(|x| {
                assert_eq!((x.source.as_str(), x.target.as_str()), ("ann", "dummy-1"));
                match x.kind {
                    EffectKind::Condition(c) => c,
                    _ => panic!("{x:?}"),
                }
            })
            .collect();
        match want {
            Some(m @ ("finisher" | "evens")) => {
                let bonus = if m == "finisher" { 7 } else { 3 };
                assert_eq!(rolled.len(), 2, "{rolled:?}");
                assert_eq!(rolled[0].0, "flex");
                assert_eq!(rolled[1], (m.to_owned(), bonus));
                let mult = if a.outcome == AttackOutcome::Crit {
                    2
                } else {
                    1
                };
                assert_eq!(dmg.len(), 1);
                assert_eq!(dmg[0].0, mult * (rolled[0].1 + bonus), "natural {n}");
                let want_fx: &[Condition] = if m == "finisher" {
                    &[Condition::Vulnerable]
                } else {
                    &[]
                };
                assert_eq!(fx, want_fx);
            }
            Some(_) => {
                // graze on a miss: its effect, no damage (the attack has no miss damage).
                assert!(!a.outcome.is_hit());
                assert!(rolled.is_empty() && dmg.is_empty());
                assert_eq!(fx, [Condition::Dazed]);
                assert_eq!(conditions(&cs(&e, "dummy-1")), [Condition::Dazed]);
            }
            None => {
                assert!(fx.is_empty(), "natural {n}");
                if a.outcome.is_hit() {
                    assert_eq!(rolled.len(), 1);
                    assert_eq!(dmg[0].0, rolled[0].1);
                } else {
                    assert!(dmg.is_empty());
                }
            }
        }
    }
    assert!(seen[1..].iter().all(|s| *s), "every natural roll: {seen:?}");
}

/// 13th-age-combat.txt § Flexible Attacks ("declare whether you are making a flexible attack or a
/// specific non-flexible attack"): a non-flexible attack never triggers a maneuver.
#[test]
fn non_flexible_attacks_never_trigger_maneuvers() {
    let mut naturals = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let (_, ev) = ann_strikes_dummy(seed, "blade");
        naturals.insert(the_atk(&ev).natural);
        assert!(!any(&ev, |x| matches!(
            x,
            GameEvent::ThirteenthAge(ThirteenthAgeEvent::ManeuverTriggered { .. })
        )));
        assert!(applied(&ev).is_empty());
        assert!(damage_rolls(&ev).len() <= 1);
    }
    assert_eq!(naturals.len(), 20, "every natural roll came up");
}

// ------------------------------------------------------------------------------------------
// Conditions
// ------------------------------------------------------------------------------------------

/// brute-1 uses `atk` on ann (it must hit); returns ann's attack roll with `ranged` (+4) on
/// brute-1 in round 2 (escalation 1), and the engine.
fn ann_attacks_in_round_2_after(atk: &str) -> (super::tests::Atk, Engine) {
    find_seed(atk, |seed| {
        let mut e = fight(1, 10, seed);
        hits(&mut e, "brute-1", atk, "ann")?;
        until_turn_of(&mut e, "ann");
        next_turn_of(&mut e, "ann");
        assert_eq!((e.state().round, e.state().escalation), (2, 1));
        let a = the_atk(&run(&mut e, &attack("ann", "ranged", &["brute-1"])));
        Some((a, e))
    })
}

/// 13th-age-combat.txt § Fear ("Fear dazes you and prevents you from using the escalation die"),
/// § Dazed (−4 to attacks), § Escalation Die.
#[test]
fn fear_is_minus_4_to_attacks_and_no_escalation_die() {
    // ann's `ranged`: Dex +2, level 2.
    const RANGED: i32 = 4;
    let (feared, e) = ann_attacks_in_round_2_after("terror");
    assert_eq!(conditions(&cs(&e, "ann")), [Condition::Fear]);
    assert_eq!(feared.bonus, RANGED - 4, "fear −4, no escalation die");
    assert_eq!(feared.total, feared.natural as i32 + feared.bonus);
    // Dazed alone keeps the escalation die.
    let (dazed, e) = ann_attacks_in_round_2_after("daze");
    assert_eq!(conditions(&cs(&e, "ann")), [Condition::Dazed]);
    assert_eq!(dazed.bonus, RANGED - 4 + 1, "dazed −4, escalation die 1");
    // And bo, unafraid, in the same fight: Dex −1, level 2, escalation die.
    let (_, mut e) = ann_attacks_in_round_2_after("terror");
    until_turn_of(&mut e, "bo");
    let esc = i32::from(e.state().escalation);
    assert!(esc >= 1);
    let b = the_atk(&run(&mut e, &attack("bo", "ranged", &["brute-1"])));
    assert_eq!(b.bonus, 1 + esc);
}

/// 13th-age-combat.txt § Hampered ("You can only make basic attacks. You can still move
/// normally").
#[test]
fn hampered_allows_only_basic_attacks_and_moving() {
    let mut e = find_seed("hampered", |seed| {
        let mut e = fight(1, 10, seed);
        hits(&mut e, "brute-1", "hamper", "ann")?;
        until_turn_of(&mut e, "ann");
        Some(e)
    });
    assert_eq!(conditions(&cs(&e, "ann")), [Condition::Hampered]);
    for (atk, target) in [
        ("sweep", "brute-1"),
        ("bolt", "brute-1"),
        ("flex", "brute-1"),
    ] {
        assert_eq!(
            refuse(&mut e, &attack("ann", atk, &[target])),
            ErrorCode::Hampered,
            "{atk}"
        );
    }
    run(&mut e, &engage("ann", "brute-1"));
    assert_eq!(engaged(&e, "ann"), ["brute-1"]);
    let ev = run(&mut e, &attack("ann", "blade", &["brute-1"]));
    assert_eq!(atks(&ev).len(), 1);

    // A basic ranged attack too.
    let mut e = find_seed("hampered", |seed| {
        let mut e = fight(1, 10, seed);
        hits(&mut e, "brute-1", "hamper", "ann")?;
        until_turn_of(&mut e, "ann");
        Some(e)
    });
    run(&mut e, &attack("ann", "ranged", &["brute-1"]));
}

/// 13th-age-combat.txt § Stuck ("You can't move, disengage, pop free, change your position").
#[test]
fn stuck_prevents_moving_and_disengaging() {
    let mut e = find_seed("stuck", |seed| {
        let mut e = fight(2, 10, seed);
        run(&mut e, &engage("brute-1", "ann"));
        hits(&mut e, "brute-1", "snare", "ann")?;
        until_turn_of(&mut e, "ann");
        Some(e)
    });
    assert_eq!(conditions(&cs(&e, "ann")), [Condition::Stuck]);
    for cmd in [
        mv("ann"),
        far("ann"),
        engage("ann", "brute-2"),
        engage("ann", "brute-1"),
        disengage("ann"),
    ] {
        assert_eq!(refuse(&mut e, &cmd), ErrorCode::Stuck, "{cmd:?}");
    }
    // Fighting in place is fine.
    let ev = run(&mut e, &attack("ann", "blade", &["brute-1"]));
    assert_eq!(atks(&ev).len(), 1);
    assert_eq!(engaged(&e, "ann"), ["brute-1"]);
}

/// 13th-age-combat.txt § Helpless ("While helpless, you take a –4 penalty to all defenses").
#[test]
fn helpless_is_minus_4_to_all_defenses() {
    // Brutes: AC 10, PD 12, MD 12.
    let mut e = find_seed("brute-1 asleep", |seed| {
        let mut e = fight(2, 10, seed);
        until_turn_of(&mut e, "bo");
        hits(&mut e, "bo", "sleep", "brute-1")?;
        Some(e)
    });
    next_turn_of(&mut e, "ann");
    let pd: Vec<(String, i32)> = atks(&run(
        &mut e,
        &attack("ann", "sweep", &["brute-1", "brute-2"]),
    ))
    .into_iter()
    .map(|a| (a.target, a.defense))
    .collect();
    assert_eq!(
        pd,
        [("brute-1".to_owned(), 12 - 4), ("brute-2".to_owned(), 12)]
    );
    next_turn_of(&mut e, "ann");
    let ac = the_atk(&run(&mut e, &attack("ann", "ranged", &["brute-1"])));
    assert_eq!(ac.defense, 10 - 4);
    next_turn_of(&mut e, "ann");
    let md = the_atk(&run(&mut e, &attack("ann", "mind", &["brute-1"])));
    assert_eq!(md.defense, 12 - 4);
    next_turn_of(&mut e, "ann");
    let control = the_atk(&run(&mut e, &attack("ann", "mind", &["brute-2"])));
    assert_eq!(control.defense, 12);
}

/// brute-1 grabs ann with `lasso` (close, no engagement needed) on its first turn.
fn ann_lassoed(n: u32, hp: i32, seed: u64) -> Option<(Engine, Vec<GameEvent>)> {
    let mut e = fight_hp(n, hp, 10, seed);
    let ev = hits(&mut e, "brute-1", "lasso", "ann")?;
    Some((e, ev))
}

/// 13th-age-combat.txt § Grabbed ("When you're grabbed you are engaged with the creature grabbing
/// you and you can't move away unless you … successfully disengage"; "Grabbed creatures can't use
/// ranged attacks, although melee and close attacks are fine"; "The creature grabbing you gets a
/// +4 attack bonus against you").
#[test]
fn a_grab_engages_and_blocks_moving_and_ranged_attacks_and_the_grabber_gets_plus_4() {
    let (mut e, ev) = find_seed("a grab", |seed| ann_lassoed(1, 100, seed));
    let fx = applied(&ev);
    assert_eq!(fx.len(), 1);
    assert_eq!(fx[0].kind, EffectKind::Condition(Condition::Grabbed));
    assert_eq!(
        (fx[0].source.as_str(), fx[0].target.as_str()),
        ("brute-1", "ann")
    );
    assert!(has(
        &ev,
        &GameEvent::ThirteenthAge(ThirteenthAgeEvent::Engaged {
            combatant: cid("ann"),
            with: cid("brute-1"),
        })
    ));
    assert_eq!(engaged(&e, "ann"), ["brute-1"]);
    assert_eq!(engaged(&e, "brute-1"), ["ann"]);

    until_turn_of(&mut e, "ann");
    for cmd in [mv("ann"), far("ann"), engage("ann", "brute-1")] {
        assert_eq!(refuse(&mut e, &cmd), ErrorCode::Grabbed, "{cmd:?}");
    }
    for atk in ["ranged", "bolt"] {
        assert_eq!(
            refuse(&mut e, &attack("ann", atk, &["brute-1"])),
            ErrorCode::Grabbed,
            "{atk}"
        );
    }
    let ev = run(&mut e, &attack("ann", "blade", &["brute-1"]));
    assert_eq!(atks(&ev).len(), 1);

    // The grabber's +4 applies against ann only.
    next_turn_of(&mut e, "brute-1");
    let rolls = atks(&run(&mut e, &attack("brute-1", "rake", &["ann", "bo"])));
    let bonuses: Vec<(String, i32)> = rolls.into_iter().map(|a| (a.target, a.bonus)).collect();
    assert_eq!(bonuses, [("ann".to_owned(), 44), ("bo".to_owned(), 40)]);
    // Close attacks are fine while grabbed.
    next_turn_of(&mut e, "ann");
    run(&mut e, &attack("ann", "sweep", &["brute-1"]));
}

/// 13th-age-combat.txt § Grabbed (the grab lasts while the grabber holds on; a slain grabber holds
/// no one — § Damage: monsters are slain at 0 hp).
#[test]
fn a_slain_grabber_releases_the_grab() {
    // 5 hp: any hit of ann's blade (2d8+3) slays it. brute-2 keeps the battle going.
    let (mut e, grab) = find_seed("a grab, then a killing blow", |seed| {
        let (mut e, _) = ann_lassoed(2, 5, seed)?;
        let grab = grab_on(&e, "ann");
        until_turn_of(&mut e, "ann");
        let ev = hits(&mut e, "ann", "blade", "brute-1")?;
        assert!(has(
            &ev,
            &GameEvent::Slain {
                combatant: cid("brute-1")
            }
        ));
        assert!(has(
            &ev,
            &GameEvent::EffectEnded {
                target: cid("ann"),
                effect: grab,
                reason: EffectEndReason::Cleared,
            }
        ));
        Some((e, grab))
    });
    assert!(cs(&e, "ann").effects.iter().all(|x| x.id != grab));
    assert!(conditions(&cs(&e, "ann")).is_empty());
    assert!(engaged(&e, "ann").is_empty());
    // Free to move again.
    run(&mut e, &mv("ann"));
}

/// 13th-age-combat.txt § Grabbed ("That also applies if the creature grabbing you decides to let
/// go and move away from you; it doesn't have to disengage or take an opportunity attack from
/// you").
#[test]
fn a_grabber_that_moves_away_lets_go_and_draws_no_opportunity_attack() {
    let (mut e, _) = find_seed("a grab", |seed| ann_lassoed(1, 100, seed));
    let grab = grab_on(&e, "ann");
    let ev = run(&mut e, &mv("brute-1"));
    assert!(opened(&ev).is_empty());
    assert!(has(
        &ev,
        &GameEvent::EffectEnded {
            target: cid("ann"),
            effect: grab,
            reason: EffectEndReason::Expired,
        }
    ));
    assert!(conditions(&cs(&e, "ann")).is_empty());
    assert!(engaged(&e, "ann").is_empty());
    assert_eq!(
        refuse(&mut e, &oa("ann", "blade", "brute-1")),
        ErrorCode::NoOpportunity
    );
}

fn let_go(actor: &str, target: &str) -> Command {
    Command::LetGo {
        actor: cid(actor),
        target: cid(target),
    }
}

fn teleport(target: &str, engage: Option<&str>, far_away: bool) -> Command {
    Command::ThirteenthAge(ThirteenthAgeCommand::Teleport {
        target: cid(target),
        engage: engage.map(cid),
        far_away,
    })
}

/// 13th-age-combat.txt § Grabbed ("A creature can let go of a creature it is grabbing as a free
/// action"; a grabber that "decides to let go and move away from you … doesn't have to disengage
/// or take an opportunity attack from you") and § Free Actions: letting go spends no action and
/// leaves the two engaged; moving away that turn draws no opportunity attack from the creature
/// let go, while on a later turn it would.
#[test]
fn a_grabber_lets_go_as_a_free_action_and_moves_away_without_an_opportunity_attack() {
    let fresh = || find_seed("a grab", |seed| ann_lassoed(1, 100, seed)).0;
    let mut e = fresh();
    let grab = grab_on(&e, "ann");
    let before = cs(&e, "brute-1").actions;
    assert_eq!(
        refuse(&mut e, &let_go("brute-1", "bo")),
        ErrorCode::InvalidTarget,
        "bo is not grabbed"
    );
    assert_eq!(
        refuse(&mut e, &let_go("ann", "brute-1")),
        ErrorCode::InvalidTarget,
        "ann grabs no one"
    );
    let ev = run(&mut e, &let_go("brute-1", "ann"));
    assert_eq!(
        ev,
        [
            GameEvent::ThirteenthAge(ThirteenthAgeEvent::LetGo {
                grabber: cid("brute-1"),
                grabbed: cid("ann"),
            }),
            GameEvent::EffectEnded {
                target: cid("ann"),
                effect: grab,
                reason: EffectEndReason::Expired,
            }
        ]
    );
    assert_eq!(cs(&e, "brute-1").actions, before, "a free action");
    assert!(conditions(&cs(&e, "ann")).is_empty());
    assert_eq!(engaged(&e, "ann"), ["brute-1"], "still engaged");
    let ev = run(&mut e, &mv("brute-1"));
    assert!(opened(&ev).is_empty(), "{ev:?}");
    assert!(engaged(&e, "ann").is_empty());

    // Control: let go on one turn, move away on the next — ann, no longer grabbed, may attack.
    let mut e = fresh();
    run(&mut e, &let_go("brute-1", "ann"));
    next_turn_of(&mut e, "brute-1");
    let ev = run(&mut e, &mv("brute-1"));
    assert_eq!(
        opened(&ev),
        opened_one("brute-1", &["ann"], Provocation::MovingAway)
    );

    // Out of turn, as the GM allows: on ann's turn the brute lets go, and ann moves freely.
    let mut e = fresh();
    until_turn_of(&mut e, "ann");
    assert_eq!(refuse(&mut e, &mv("ann")), ErrorCode::Grabbed);
    run(&mut e, &let_go("brute-1", "ann"));
    let ev = run(&mut e, &mv("ann"));
    assert_eq!(
        opened(&ev),
        opened_one("ann", &["brute-1"], Provocation::MovingAway)
    );
}

/// 13th-age-combat.txt § Teleportation ("Teleporting doesn't draw opportunity attacks"), § Grabbed
/// (a grabbed creature can't move away "unless you teleport") and § Stuck (no one moves you
/// "without teleporting"): a teleport leaves every engagement without opening opportunity
/// attacks, ends the grab, works while stuck, spends no action, and may arrive next to an enemy.
#[test]
fn a_teleport_leaves_engagements_without_opportunity_attacks_even_when_grabbed_or_stuck() {
    // brute-1 grabs ann, then brute-2 snares her (stuck).
    let mut e = find_seed("a grab and a snare", |seed| {
        let (mut e, _) = ann_lassoed(2, 100, seed)?;
        until_turn_of(&mut e, "brute-2");
        hits(&mut e, "brute-2", "snare", "ann")?;
        Some(e)
    });
    let grab = grab_on(&e, "ann");
    assert!(conditions(&cs(&e, "ann")).contains(&Condition::Stuck));
    until_turn_of(&mut e, "ann");
    assert_eq!(refuse(&mut e, &mv("ann")), ErrorCode::Stuck);
    let before = cs(&e, "ann").actions;
    assert_eq!(
        refuse(&mut e, &teleport("ann", Some("bo"), false)),
        ErrorCode::InvalidTarget
    );
    assert_eq!(
        refuse(&mut e, &teleport("ann", Some("brute-2"), true)),
        ErrorCode::InvalidArgument
    );
    let ev = run(&mut e, &teleport("ann", None, false));
    assert!(opened(&ev).is_empty(), "{ev:?}");
    assert!(has(
        &ev,
        &GameEvent::EffectEnded {
            target: cid("ann"),
            effect: grab,
            reason: EffectEndReason::Expired,
        }
    ));
    assert!(has(
        &ev,
        &GameEvent::ThirteenthAge(ThirteenthAgeEvent::Teleported {
            combatant: cid("ann"),
            engaged: None,
            far_away: false,
        })
    ));
    assert!(engaged(&e, "ann").is_empty() && engaged(&e, "brute-1").is_empty());
    assert!(!conditions(&cs(&e, "ann")).contains(&Condition::Grabbed));
    assert_eq!(cs(&e, "ann").actions, before, "no action spent");
    // Nobody can intercept a teleport (it is not a move).
    assert_eq!(
        refuse(&mut e, &intercept("bo", "ann")),
        ErrorCode::InvalidArgument
    );
    run(&mut e, &teleport("ann", Some("brute-2"), false));
    assert_eq!(engaged(&e, "ann"), ["brute-2"]);
    let ev = run(&mut e, &teleport("ann", None, true));
    assert!(opened(&ev).is_empty());
    assert!(cs(&e, "ann").far_away && engaged(&e, "ann").is_empty());
}

// ------------------------------------------------------------------------------------------
// Sizes: carrying a grabbed creature along
// ------------------------------------------------------------------------------------------

/// A monster of another size (`size` goes in the `[[monster]]` table, before its attacks).
fn sized(m: Monster, size: &str) -> Monster {
    Monster {
        attacks: format!("size = \"{size}\"\n{}", m.attacks),
        ..m
    }
}

/// `ann` and `bo` (medium) against `n` brutes of `size` (100 hp, AC 2: the heroes' attacks miss
/// only on a natural 1).
fn sized_fight(size: &str, n: u32) -> crate::content::model::Encounter {
    encounter(&[ann_pc(), bo_pc()], &[(sized(brute(100, 2), size), n)])
}

/// [`sized_fight`], started, with brute-1 lassoing ann on its first turn; every event so far.
fn lassoed_by(size: &str, n: u32, seed: u64) -> Option<(Engine, Vec<GameEvent>)> {
    let (mut e, mut all) = start(&sized_fight(size, n), seed);
    all.extend(hits(&mut e, "brute-1", "lasso", "ann")?);
    Some((e, all))
}

fn carried(grabber: &str, grabbed: &str) -> GameEvent {
    GameEvent::ThirteenthAge(ThirteenthAgeEvent::Carried {
        grabber: cid(grabber),
        grabbed: cid(grabbed),
    })
}

/// 13th-age-combat.txt § Grabbed ("If you are smaller than the creature that is grabbing you, it
/// can move and carry you along with no problem"): a large grabber that moves keeps its grab and
/// carries the medium creature along. The carried creature stays engaged with the grabber only:
/// it leaves its other engagements without drawing opportunity attacks (it does not move away
/// itself) and lets go of the creature it was grabbing; it is still grabbed, so it still cannot
/// move away. Folding the events rebuilds the state.
#[test]
fn a_larger_grabber_carries_the_creature_it_grabs_along() {
    let (mut e, mut all, seed) = find_seed("a grab, then ann grabs brute-2", |seed| {
        let (mut e, mut all) = lassoed_by("large", 2, seed)?;
        all.extend(run(&mut e, &end_turn("brute-1")));
        assert_eq!(current(&e), "brute-2");
        all.extend(run(&mut e, &engage("brute-2", "ann")));
        all.extend(until_turn_of(&mut e, "ann"));
        all.extend(hits(&mut e, "ann", "wrestle", "brute-2")?);
        Some((e, all, seed))
    });
    let grab = grab_on(&e, "ann");
    let anns_grab = grab_on(&e, "brute-2");
    assert_eq!(engaged(&e, "ann"), ["brute-1", "brute-2"]);
    assert_eq!(cs(&e, "brute-1").size, Size::Large);
    assert_eq!(cs(&e, "ann").size, Size::Medium);
    all.extend(next_turn_of(&mut e, "brute-1"));

    let ev = run(&mut e, &engage("brute-1", "bo"));
    all.extend(ev.clone());
    assert!(opened(&ev).is_empty(), "no opportunity attacks: {ev:?}");
    let moved = index(&ev, |x| matches!(x, GameEvent::Moved { .. }));
    let carry = index(&ev, |x| *x == carried("brute-1", "ann"));
    assert!(moved < carry, "carried right after the move: {ev:?}");
    assert!(has(
        &ev,
        &GameEvent::EffectEnded {
            target: cid("brute-2"),
            effect: anns_grab,
            reason: EffectEndReason::Expired,
        }
    ));
    assert!(
        !any(
            &ev,
            |x| matches!(x, GameEvent::EffectEnded { effect, .. } if *effect == grab)
        ),
        "the grab holds: {ev:?}"
    );
    assert_eq!(grab_on(&e, "ann"), grab);
    assert_eq!(engaged(&e, "ann"), ["brute-1"]);
    assert_eq!(engaged(&e, "brute-1"), ["ann", "bo"]);
    assert_eq!(engaged(&e, "bo"), ["brute-1"]);
    assert!(engaged(&e, "brute-2").is_empty());
    assert!(conditions(&cs(&e, "brute-2")).is_empty());
    assert!(!cs(&e, "ann").far_away);

    let mut folded = new_engine(&sized_fight("large", 2), seed);
    for x in &all {
        folded.apply(x);
    }
    assert_eq!(folded.state(), e.state());
    assert_eq!(folded.state_hash(), e.state_hash());

    // Still grabbed: moving away is refused and changes nothing; the grabber's +4 still applies.
    all.extend(next_turn_of(&mut e, "ann"));
    assert_eq!(refuse(&mut e, &mv("ann")), ErrorCode::Grabbed);
    next_turn_of(&mut e, "brute-1");
    let rolls = atks(&run(&mut e, &attack("brute-1", "rake", &["ann", "bo"])));
    let bonuses: Vec<(String, i32)> = rolls.into_iter().map(|a| (a.target, a.bonus)).collect();
    assert_eq!(bonuses, [("ann".to_owned(), 44), ("bo".to_owned(), 40)]);
}

/// 13th-age-combat.txt § Grabbed ("If you are the same size or larger, it has to let go of you if
/// it wants to move"; "A creature can let go of a creature it is grabbing as a free action"),
/// § Stuck (no one moves you "without teleporting") and § Far Away (two moves from the enemies):
/// a grabber lets go when it moves unless the creature is smaller, not stuck, and the move stays
/// nearby; a larger grabber may also let go first and leave the creature behind.
#[test]
fn a_grabber_carries_only_smaller_unstuck_creatures_and_not_far_away() {
    let grab_ended = |ev: &[GameEvent], grab: u32| {
        any(
            ev,
            |x| matches!(x, GameEvent::EffectEnded { target, effect, .. } if target.as_str() == "ann" && *effect == grab),
        )
    };
    // (grabber size, move, carried?)
    for (size, cmd, carries) in [
        ("medium", engage("brute-1", "bo"), false),
        ("large", engage("brute-1", "bo"), true),
        ("huge", mv("brute-1"), true),
        ("large", far("brute-1"), false),
    ] {
        let (mut e, _) = find_seed("a grab", |seed| lassoed_by(size, 1, seed));
        let grab = grab_on(&e, "ann");
        let ev = run(&mut e, &cmd);
        assert!(opened(&ev).is_empty(), "{size} {cmd:?}: {ev:?}");
        assert_eq!(
            has(&ev, &carried("brute-1", "ann")),
            carries,
            "{size} {cmd:?}"
        );
        assert_eq!(grab_ended(&ev, grab), !carries, "{size} {cmd:?}");
        assert_eq!(
            conditions(&cs(&e, "ann")).contains(&Condition::Grabbed),
            carries
        );
        let with_brute: &[&str] = if carries { &["brute-1"] } else { &[] };
        assert_eq!(engaged(&e, "ann"), with_brute, "{size} {cmd:?}");
    }

    // A stuck creature cannot be carried: the large grabber lets go.
    let mut e = find_seed("a grab and a snare", |seed| {
        let (mut e, _) = lassoed_by("large", 2, seed)?;
        until_turn_of(&mut e, "brute-2");
        hits(&mut e, "brute-2", "snare", "ann")?;
        Some(e)
    });
    let grab = grab_on(&e, "ann");
    next_turn_of(&mut e, "brute-1");
    let ev = run(&mut e, &engage("brute-1", "bo"));
    assert!(!has(&ev, &carried("brute-1", "ann")));
    assert!(grab_ended(&ev, grab));
    assert!(engaged(&e, "ann").is_empty());

    // Letting go first leaves the smaller creature behind, without an opportunity attack.
    let (mut e, _) = find_seed("a grab", |seed| lassoed_by("large", 1, seed));
    run(&mut e, &let_go("brute-1", "ann"));
    let ev = run(&mut e, &mv("brute-1"));
    assert!(opened(&ev).is_empty() && !has(&ev, &carried("brute-1", "ann")));
    assert!(engaged(&e, "ann").is_empty());
}

/// 13th-age-combat.txt § Grabbed and § Intercepting ("they have the option to engage you and make
/// you stop where they are"): a grabber intercepted while carrying a creature stops with it —
/// the creature stays grabbed and engaged with the grabber, the interceptor engages the grabber.
#[test]
fn an_intercepted_grabber_keeps_the_creature_it_carries() {
    let (mut e, mut all) = find_seed("a grab", |seed| lassoed_by("large", 1, seed));
    let grab = grab_on(&e, "ann");
    all.extend(run(&mut e, &mv("brute-1")));
    assert_eq!(engaged(&e, "ann"), ["brute-1"]);
    let ev = run(&mut e, &intercept("bo", "brute-1"));
    assert_eq!(
        ev,
        [
            GameEvent::ThirteenthAge(ThirteenthAgeEvent::Intercepted {
                interceptor: cid("bo"),
                mover: cid("brute-1"),
            }),
            carried("brute-1", "ann"),
        ]
    );
    assert_eq!(engaged(&e, "brute-1"), ["ann", "bo"]);
    assert_eq!(engaged(&e, "ann"), ["brute-1"]);
    assert_eq!(engaged(&e, "bo"), ["brute-1"]);
    assert_eq!(grab_on(&e, "ann"), grab);
}

/// 13th-age-combat.txt § Grabbed ("The creature grabbing you gets a +4 attack bonus against
/// you"; "Disengage checks take a –5 penalty unless you hit the creature that is grabbing you
/// the same turn"), with two creatures grabbing `ann`: each gets the +4, and hitting one of them
/// leaves the other's −5 on the disengage check (one −5, not one per grabber).
#[test]
fn every_creature_grabbing_you_gets_plus_4_and_hitting_one_leaves_the_others_disengage_penalty() {
    let grabbed_twice = |seed: u64| {
        let mut e = fight_hp(2, 100, 10, seed);
        hits(&mut e, "brute-1", "lasso", "ann")?;
        run(&mut e, &end_turn("brute-1"));
        hits(&mut e, "brute-2", "lasso", "ann")?;
        run(&mut e, &end_turn("brute-2"));
        until_turn_of(&mut e, "ann");
        Some(e)
    };
    let e = find_seed("two grabs", grabbed_twice);
    let sources: Vec<String> = cs(&e, "ann")
        .effects
        .iter()
        .filter(|x| x.kind == EffectKind::Condition(Condition::Grabbed))
        .map(|x| x.source.to_string())
        .collect();
    assert_eq!(sources, ["brute-1", "brute-2"]);
    // Neither grabber hit: 11 + 1 (a second foe) + 5.
    let mut plain = e;
    assert_eq!(saves(&run(&mut plain, &disengage("ann")), "ann")[0].2, 17);
    // The second grabber hit, not the first: the first's −5 stays.
    for hit in ["brute-1", "brute-2"] {
        let mut e = find_seed("two grabs, then a hit", |seed| {
            let mut e = grabbed_twice(seed)?;
            hits(&mut e, "ann", "blade", hit)?;
            Some(e)
        });
        let s = saves(&run(&mut e, &disengage("ann")), "ann");
        assert_eq!(s[0].2, 17, "{hit} hit: the other grabber's penalty stays");
    }
    // Each grabber's +4 against ann, and only against ann.
    let mut e = find_seed("two grabs", grabbed_twice);
    for brute in ["brute-1", "brute-2"] {
        next_turn_of(&mut e, brute);
        let rolls = atks(&run(&mut e, &attack(brute, "rake", &["ann", "bo"])));
        let bonuses: Vec<(String, i32)> = rolls.into_iter().map(|a| (a.target, a.bonus)).collect();
        assert_eq!(
            bonuses,
            [("ann".to_owned(), 44), ("bo".to_owned(), 40)],
            "{brute}"
        );
    }
}
