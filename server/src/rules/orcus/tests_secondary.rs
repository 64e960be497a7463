//! Orcus § Secondary attacks (orcus-basic-rules.txt): target rules around the primary target
//! ("the same tags, attack, defense and range as the original attack, unless otherwise
//! specified"), content `targets` of `[…powers.secondary]`.

use super::tests::{started, until};
use crate::rules::common::testing::{cid, refusal, run};
use crate::rules::load_encounter;
use fray_protocol::OrcusCommand;
use fray_protocol::event::GameEvent;
use fray_protocol::{Command, ErrorCode};

const OPEN: [&str; 6] = [
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
];

fn src(targets: &str, positions: &str) -> String {
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
    super::tests::arena_src(&OPEN, &power, 5, positions)
}

/// The creatures the secondary attack rolled against after Brute 1's Lunge hit Kael, on the
/// first seed on which the primary attack hits.
fn secondary_targets(targets: &str, positions: &str) -> Vec<String> {
    let enc = load_encounter("rake.toml", &src(targets, positions)).unwrap();
    for seed in 0..30 {
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
        let hit = ev.iter().any(|x| {
            matches!(x, GameEvent::AttackRolled { attack, outcome, .. }
                if attack == "lunge" && outcome.is_hit())
        });
        if !hit {
            continue;
        }
        return ev
            .iter()
            .filter_map(|x| match x {
                GameEvent::AttackRolled { attack, target, .. } if attack == "lunge-secondary" => {
                    Some(target.as_str().to_owned())
                }
                _ => None,
            })
            .collect();
    }
    panic!("the lunge never hit");
}

/// Kael the primary target at (3,0) next to Brute 1; Lira 2 squares from Kael, Brute 2
/// 3 squares from him.
const AROUND: &str = "kael = [3, 0]\nlira = [3, 2]\nbrute-1 = [4, 0]\nbrute-2 = [6, 0]";

/// orcus-basic-rules.txt § Secondary attacks ("unless otherwise specified") and § Range: a
/// secondary attack against each creature (or each enemy) within N squares of the primary
/// target — never the primary target nor the user, in id order, one roll each.
#[test]
fn a_secondary_attack_against_each_creature_within_n_of_the_primary_target_secondary_attacks() {
    assert_eq!(
        secondary_targets("creatures_within_2_of_primary", AROUND),
        ["lira"]
    );
    assert_eq!(
        secondary_targets("creatures_within_3_of_primary", AROUND),
        ["brute-2", "lira"]
    );
    assert_eq!(
        secondary_targets("enemies_within_3_of_primary", AROUND),
        ["lira"],
        "Brute 2 is the attacker's ally"
    );
    assert!(secondary_targets("creatures_within_1_of_primary", AROUND).is_empty());
}

/// orcus-basic-rules.txt § Secondary attacks and § Targets, Nearest ("the one at the shortest
/// range"): the creature (or enemy) nearest the primary target.
#[test]
fn a_secondary_attack_against_the_nearest_to_the_primary_target_secondary_attacks() {
    assert_eq!(
        secondary_targets("nearest_creature_to_primary", AROUND),
        ["lira"]
    );
    let closer = "kael = [3, 0]\nlira = [3, 2]\nbrute-1 = [4, 0]\nbrute-2 = [2, 1]";
    assert_eq!(
        secondary_targets("nearest_creature_to_primary", closer),
        ["brute-2"]
    );
    assert_eq!(
        secondary_targets("nearest_enemy_to_primary", closer),
        ["lira"]
    );
}

/// orcus-basic-rules.txt § Secondary attacks: a range around the primary target must be a
/// number of squares (1–20); other target rules stay refused on load.
#[test]
fn a_bad_range_around_the_primary_target_is_refused_secondary_attacks() {
    for bad in [
        "creatures_within_0_of_primary",
        "creatures_within_21_of_primary",
        "enemies_within_x_of_primary",
        "allies_within_2_of_primary",
        "nearest_ally_to_primary",
    ] {
        let err = load_encounter("bad.toml", &src(bad, AROUND))
            .unwrap_err()
            .to_string();
        assert!(err.contains("secondary.targets"), "{bad}: {err}");
    }
}

/// Brute 1's Lunge at Kael naming `chosen` as the secondary target.
fn lunge_at_kael(chosen: Option<&str>) -> Command {
    Command::Attack {
        actor: cid("brute-1"),
        attack: "lunge".into(),
        targets: vec![cid("kael")],
        mode: fray_protocol::command::AttackMode::Standard,
        knock_out: false,
        forced: Vec::new(),
        weapon: None,
        secondary_target: chosen.map(cid),
    }
}

/// The targets the secondary attack rolled against when Brute 1's Lunge (rule `targets`)
/// hits Kael with `chosen` named, on the first seed on which the primary attack hits.
fn chosen_secondary(targets: &str, positions: &str, chosen: Option<&str>) -> Vec<String> {
    let enc = load_encounter("rake.toml", &src(targets, positions)).unwrap();
    for seed in 0..30 {
        let mut e = started(&enc, seed);
        until(&mut e, "brute-1");
        let ev = run(&mut e, &lunge_at_kael(chosen));
        if !ev.iter().any(|x| {
            matches!(x, GameEvent::AttackRolled { attack, outcome, .. }
                if attack == "lunge" && outcome.is_hit())
        }) {
            continue;
        }
        return ev
            .iter()
            .filter_map(|x| match x {
                GameEvent::AttackRolled { attack, target, .. } if attack == "lunge-secondary" => {
                    Some(target.as_str().to_owned())
                }
                _ => None,
            })
            .collect();
    }
    panic!("the lunge never hit");
}

/// orcus-basic-rules.txt § Secondary attacks ("unless otherwise specified") and § Targets
/// ("one creature of the user's choice"): a secondary attack against one creature (or enemy)
/// of the user's choice within N squares of the primary target goes against the creature the
/// `attack` names in `secondary_target`, and only it.
#[test]
fn the_secondary_attack_goes_to_the_creature_the_user_chooses_within_n_secondary_attacks() {
    assert_eq!(
        chosen_secondary("one_creature_within_3_of_primary", AROUND, Some("brute-2")),
        ["brute-2"]
    );
    assert_eq!(
        chosen_secondary("one_creature_within_3_of_primary", AROUND, Some("lira")),
        ["lira"]
    );
    assert_eq!(
        chosen_secondary("one_enemy_within_2_of_primary", AROUND, Some("lira")),
        ["lira"]
    );
    // Nobody within 1 square of Kael but the user: no choice to make, no secondary attack.
    assert!(chosen_secondary("one_creature_within_1_of_primary", AROUND, None).is_empty());
}

/// orcus-basic-rules.txt § Secondary attacks and § Targets: the user's choice is checked before
/// any die — without one while a creature qualifies (`secondary_target_required`), or naming the
/// user, the primary target, a creature too far, an ally for "one enemy", or a choice for a
/// power that takes none (`invalid_secondary_target`); each refusal changes nothing and draws no
/// dice.
#[test]
fn a_missing_or_unfit_secondary_choice_is_refused_before_any_die_secondary_attacks() {
    let cases = [
        ("one_creature_within_3_of_primary", None, "name it"),
        (
            "one_creature_within_2_of_primary",
            Some("brute-2"),
            "within 2",
        ),
        ("one_creature_within_3_of_primary", Some("kael"), "primary"),
        ("one_creature_within_3_of_primary", Some("brute-1"), "user"),
        (
            "one_creature_within_3_of_primary",
            Some("nobody"),
            "not in this",
        ),
        (
            "one_enemy_within_3_of_primary",
            Some("brute-2"),
            "one enemy",
        ),
        (
            "creatures_within_3_of_primary",
            Some("lira"),
            "no secondary attack",
        ),
        ("primary", Some("lira"), "no secondary attack"),
    ];
    for (rule, chosen, says) in cases {
        let enc = load_encounter("rake.toml", &src(rule, AROUND)).unwrap();
        let mut e = started(&enc, 1);
        until(&mut e, "brute-1");
        let r = refusal(&mut e, &lunge_at_kael(chosen));
        let code = if chosen.is_none() {
            ErrorCode::SecondaryTargetRequired
        } else {
            ErrorCode::InvalidSecondaryTarget
        };
        assert_eq!(r.code, code, "{rule} {chosen:?}: {}", r.message);
        assert!(r.message.contains(says), "{rule} {chosen:?}: {}", r.message);
    }
}

/// orcus-basic-rules.txt § Secondary attacks: the choice is for the attack as a whole
/// (`area_attack` takes `secondary_target` too) and is refused by the rulesets without the
/// field; a bad range in `one_creature_within_N_of_primary` is refused on load.
#[test]
fn the_choice_is_an_orcus_option_and_its_range_is_checked_on_load_secondary_attacks() {
    for bad in [
        "one_creature_within_0_of_primary",
        "one_enemy_within_21_of_primary",
        "one_ally_within_2_of_primary",
    ] {
        let err = load_encounter("bad.toml", &src(bad, AROUND))
            .unwrap_err()
            .to_string();
        assert!(err.contains("secondary.targets"), "{bad}: {err}");
    }
    for ruleset in ["13th-age", "five-torches-deep", "ose"] {
        let (name, text) = crate::rules::builtin_encounters(ruleset)[0];
        let enc = load_encounter(name, text).unwrap();
        let mut e = crate::rules::common::testing::new_engine(&enc, 1);
        let cmd = Command::Attack {
            actor: enc.combatants[0].id.clone(),
            attack: "melee".into(),
            targets: vec![enc.combatants[enc.combatants.len() - 1].id.clone()],
            mode: fray_protocol::command::AttackMode::Standard,
            knock_out: false,
            forced: Vec::new(),
            weapon: None,
            secondary_target: Some(enc.combatants[1].id.clone()),
        };
        let r = refusal(&mut e, &cmd);
        assert_eq!(
            r.code,
            ErrorCode::InvalidArgument,
            "{ruleset}: {}",
            r.message
        );
    }
}

/// orcus-basic-rules.txt § Secondary attacks and § Areas of effect: an area power's secondary
/// attack of the user's choice takes `secondary_target` on `area_attack` as on `attack` —
/// required while a creature qualifies, then made against the chosen one.
#[test]
fn an_area_attack_names_its_secondary_target_too_secondary_attacks() {
    let src = src("one_creature_within_3_of_primary", AROUND).replace(
        "origin = \"melee\"\nvs = \"ac\"",
        "origin = \"near burst\"\narea = 1\ntargets = \"all enemies\"\nvs = \"ac\"",
    );
    assert!(src.contains("near burst"));
    let enc = load_encounter("burst.toml", &src).unwrap();
    let burst = |chosen: Option<&str>| {
        Command::Orcus(OrcusCommand::AreaAttack {
            actor: cid("brute-1"),
            attack: "lunge".into(),
            origin: None,
            targets: Vec::new(),
            forced: Vec::new(),
            origin_height: None,
            weapon: None,
            secondary_target: chosen.map(cid),
        })
    };
    for seed in 0..30 {
        let mut e = started(&enc, seed);
        until(&mut e, "brute-1");
        assert_eq!(
            refusal(&mut e, &burst(None)).code,
            ErrorCode::SecondaryTargetRequired
        );
        let ev = run(&mut e, &burst(Some("lira")));
        if !ev.iter().any(|x| {
            matches!(x, GameEvent::AttackRolled { attack, outcome, .. }
                if attack == "lunge" && outcome.is_hit())
        }) {
            continue;
        }
        let secondary: Vec<&str> = ev
            .iter()
            .filter_map(|x| match x {
                GameEvent::AttackRolled { attack, target, .. } if attack == "lunge-secondary" => {
                    Some(target.as_str())
                }
                _ => None,
            })
            .collect();
        assert_eq!(secondary, ["lira"]);
        return;
    }
    panic!("the burst never hit");
}
