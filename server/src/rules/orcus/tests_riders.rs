//! Orcus saving-throw riders beyond aftereffects and first failed saves
//! (orcus-basic-rules.txt § Special saving throw riders): "grappled (save ends)".

use super::tests::{arena, atk, end, mv, started, until};
use crate::engine::Engine;
use crate::rules::common::testing::{cs, refuse, run};
use fray_protocol::ErrorCode;
use fray_protocol::event::{Condition, EffectDuration, EffectKind, GameEvent, SavePurpose};
use fray_protocol::grid::MoveMode;

/// A brute power whose hit grapples its target (save ends).
const CLUTCH: &str = r#"[[monster.powers]]
id = "clutch"
name = "Crushing Clutch"
origin = "melee"
range = [1, 1]
vs = "reflex"
bonus = 40
hit = "1"
on_hit = [{ condition = "grappled" }]
"#;

/// Kael at [0, 0], brute-1 next to him.
const CLOSE: &str = "kael = [0, 0]\nlira = [0, 5]\nbrute-1 = [1, 0]\nbrute-2 = [8, 5]";

/// The grapple on `who`: (effect id, grappler, duration).
fn grapple_on(e: &Engine, who: &str) -> Option<(u32, String, EffectDuration)> {
    cs(e, who).effects.iter().find_map(|x| match x.kind {
        EffectKind::Condition(Condition::Grappled) => {
            Some((x.id, x.source.to_string(), x.duration.clone()))
        }
        _ => None,
    })
}

/// A battle where brute-1's clutch has grappled Kael.
fn clutched(seed: u64) -> Option<Engine> {
    let mut e = started(&arena(CLUTCH, 5, CLOSE), seed);
    until(&mut e, "brute-1");
    run(&mut e, &atk("brute-1", "clutch", &["kael"]));
    grapple_on(&e, "kael").is_some().then_some(e)
}

#[test]
fn a_powers_grapple_save_ends_holds_like_a_grapple_and_breaks_on_a_save_special_saving_throw_riders()
 {
    // orcus-basic-rules.txt § Special saving throw riders ("Grappled (save ends)") and § Grapple:
    // the target is grappled by the power's user (it cannot move), and also saves at the end
    // of each of its turns, breaking the grapple on a success. No maintaining is needed.
    let (mut saved, mut failed) = (false, false);
    for seed in 0..60 {
        let Some(mut e) = clutched(seed) else {
            continue;
        };
        let (id, source, duration) = grapple_on(&e, "kael").expect("grappled");
        assert_eq!(source, "brute-1", "the user is the grappler");
        assert!(matches!(duration, EffectDuration::SaveEnds(_)));
        // The brute's turn ends: a power's grapple does not lapse unmaintained.
        until(&mut e, "kael");
        assert_eq!(grapple_on(&e, "kael").map(|g| g.0), Some(id));
        assert_eq!(
            refuse(&mut e, &mv("kael", &[(0, 1)], MoveMode::Walk)),
            ErrorCode::Immobilized
        );
        let ev = run(&mut e, &end("kael"));
        let success = ev
            .iter()
            .find_map(|x| match x {
                GameEvent::SaveRolled {
                    purpose: SavePurpose::Effect(s),
                    success,
                    ..
                } if *s == id => Some(*success),
                _ => None,
            })
            .expect("a save against the grapple at the end of Kael's turn");
        if success {
            assert_eq!(grapple_on(&e, "kael"), None, "a save breaks the grapple");
            saved = true;
        } else {
            assert_eq!(grapple_on(&e, "kael").map(|g| g.0), Some(id));
            failed = true;
        }
        if saved && failed {
            return;
        }
    }
    panic!("both outcomes should occur within 60 seeds (saved {saved}, failed {failed})");
}

#[test]
fn a_powers_grapple_save_ends_also_ends_as_a_grapple_does_special_saving_throw_riders() {
    // orcus-basic-rules.txt § Special saving throw riders: "as well as those methods to end the
    // grapple" — § Grapple: the grappler moves away, or lets go.
    let mut e = (0..60).find_map(clutched).expect("a clutch hit");
    run(&mut e, &mv("brute-1", &[(2, 0)], MoveMode::Step));
    assert_eq!(grapple_on(&e, "kael"), None, "moving away frees it");
    let mut e = (0..60).find_map(clutched).expect("a clutch hit");
    run(
        &mut e,
        &fray_protocol::Command::LetGo {
            actor: crate::rules::common::testing::cid("brute-1"),
            target: crate::rules::common::testing::cid("kael"),
        },
    );
    assert_eq!(grapple_on(&e, "kael"), None, "letting go frees it");
}

/// A brute power: dazed until the end of its user's next turn; Aftereffect: 3 fire damage.
const DAZZLE: &str = r#"[[monster.powers]]
id = "dazzle"
name = "Searing Dazzle"
origin = "ranged"
range = [10, 10]
vs = "will"
bonus = 40
hit = "1"
on_hit = [{ condition = "dazed", duration = "end of your next turn", aftereffect = { damage = 3, damage_type = "fire" } }]
"#;

#[test]
fn an_aftereffect_may_deal_damage_once_special_saving_throw_riders() {
    // orcus-basic-rules.txt § Special saving throw riders, the second Aftereffect example:
    // dazed until the end of the user's next turn, then the daze stops but the target takes
    // damage (here a fixed 3 fire).
    let enc = arena(DAZZLE, 5, super::tests::SPREAD);
    for seed in 0..40 {
        let mut e = started(&enc, seed);
        until(&mut e, "brute-1");
        run(&mut e, &atk("brute-1", "dazzle", &["kael"]));
        let Some(id) = cs(&e, "kael")
            .effects
            .iter()
            .find_map(|x| (x.kind == EffectKind::Condition(Condition::Dazed)).then_some(x.id))
        else {
            continue;
        };
        assert!(!cs(&e, "kael").grid.expect("grid").riders.is_empty());
        let hp = cs(&e, "kael").hp.expect("hp");
        // Still dazed through brute-1's current turn and Kael's next one; no damage yet.
        run(&mut e, &end("brute-1"));
        until(&mut e, "brute-1");
        assert!(cs(&e, "kael").effects.iter().any(|x| x.id == id));
        assert_eq!(cs(&e, "kael").hp, Some(hp));
        let ev = run(&mut e, &end("brute-1"));
        assert!(ev.iter().any(|x| matches!(x,
            GameEvent::Damaged { target, amount: 3, .. } if target.as_str() == "kael")));
        let k = cs(&e, "kael");
        assert_eq!(k.hp, Some(hp - 3));
        assert!(k.effects.iter().all(|x| x.id != id), "the daze is over");
        assert!(k.grid.expect("grid").riders.is_empty());
        return;
    }
    panic!("no dazzle hit in 40 seeds");
}

#[test]
fn damage_belongs_to_an_aftereffect_only_special_saving_throw_riders() {
    // orcus-basic-rules.txt § Special saving throw riders: only an aftereffect deals damage
    // once; content errors name the field.
    let load = |on_hit: &str| {
        let power = DAZZLE.replace(
            "on_hit = [{ condition = \"dazed\", duration = \"end of your next turn\", aftereffect = { damage = 3, damage_type = \"fire\" } }]",
            on_hit,
        );
        crate::rules::load_encounter(
            "arena.toml",
            &super::tests::arena_src(
                &["..........", ".........."],
                &power,
                5,
                super::tests::SPREAD,
            ),
        )
        .expect_err("refused")
        .to_string()
    };
    let msg = load("on_hit = [{ condition = \"dazed\", damage = 3 }]");
    assert!(msg.contains("on_hit[0].damage"), "{msg}");
    let msg = load(
        "on_hit = [{ condition = \"dazed\", aftereffect = { damage = 3, condition = \"prone\" } }]",
    );
    assert!(msg.contains("on_hit[0].aftereffect"), "{msg}");
    let msg = load("on_hit = [{ condition = \"dazed\", aftereffect = { damage = 0 } }]");
    assert!(msg.contains("aftereffect.damage"), "{msg}");
}
