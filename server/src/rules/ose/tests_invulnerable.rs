//! Old-School Essentials § Invulnerabilities (`invulnerability.rs`) through the real engine.

use super::invulnerability::harms;
use super::tests::{arena_text, attack};
use crate::content::model::{Encounter, OseAttackSpec, OseSpec};
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, current, new_engine, run};
use crate::rules::load_encounter;
use fray_protocol::BxEvent;
use fray_protocol::Command;
use fray_protocol::event::{AttackOutcome, GameEvent};
use fray_protocol::ose::OseOptions;

/// The arena with the boss harmed only by silver or magic, and Ada carrying a silver sword.
fn haunted() -> Encounter {
    let text = arena_text("", 30, 9)
        .replace(
            "[[monster.attacks]]\nid = \"maul\"",
            "invulnerable = [\"silver\", \"magic\"]\n[[monster.attacks]]\nid = \"maul\"",
        )
        .replace(
            "[[character.weapons]]\nid = \"bow\"",
            "[[character.weapons]]\nid = \"silver-sword\"\nname = \"Silver sword\"\n\
             damage = \"1d8\"\nkinds = [\"silver\"]\n[[character.weapons]]\nid = \"bow\"",
        );
    assert!(text.contains("invulnerable") && text.contains("silver-sword"));
    load_encounter("haunted.toml", &text).unwrap()
}

/// A started fight, on Ada's turn.
fn on_adas_turn(seed: u64) -> Option<Engine> {
    let mut e = new_engine(&haunted(), seed);
    run(&mut e, &Command::StartBattle);
    for _ in 0..6 {
        let me = current(&e);
        if me == "ada" {
            return Some(e);
        }
        run(&mut e, &Command::EndTurn { actor: cid(&me) });
    }
    None
}

fn hit(ev: &[GameEvent]) -> bool {
    ev.iter().any(|x| {
        matches!(
            x,
            GameEvent::AttackRolled {
                outcome: AttackOutcome::Hit,
                ..
            }
        )
    })
}

/// ose-adventuring.txt § Combat, Invulnerabilities ("even if an attack hits, damage is not
/// rolled"): an ordinary sword hits the boss and leaves it unharmed, a silver one harms it.
#[test]
fn only_silver_or_magic_harms_an_invulnerable_monster_invulnerabilities() {
    let (mut plain, mut silver) = (false, false);
    for seed in 0..200 {
        let Some(mut e) = on_adas_turn(seed) else {
            continue;
        };
        let weapon = if plain { "silver-sword" } else { "sword" };
        let before = cs(&e, "boss").hp;
        let ev = run(&mut e, &attack("ada", weapon, "boss"));
        if !hit(&ev) {
            continue;
        }
        let rolled = ev
            .iter()
            .any(|x| matches!(x, GameEvent::DamageRolled { .. }));
        if weapon == "sword" {
            assert!(!rolled, "{ev:?}");
            assert!(ev.iter().any(|x| matches!(
                x,
                GameEvent::Bx(BxEvent::Unharmed { target, attack, .. })
                    if target.as_str() == "boss" && attack == "sword"
            )));
            assert_eq!(cs(&e, "boss").hp, before);
            plain = true;
        } else {
            assert!(rolled, "{ev:?}");
            assert!(cs(&e, "boss").hp < before);
            silver = true;
            break;
        }
    }
    assert!(plain && silver);
}

fn spec(class: Option<&str>, hd: Option<&str>, invulnerable: &[&str]) -> OseSpec {
    let mut s = haunted().combatants[0].ose.clone().unwrap();
    s.class = class.map(str::to_owned);
    s.hd = hd.map(str::to_owned);
    s.invulnerable = invulnerable.iter().map(|k| (*k).to_owned()).collect();
    s
}

fn claw(kinds: &[&str]) -> OseAttackSpec {
    OseAttackSpec {
        id: "claw".into(),
        name: "Claw".into(),
        damage: "1d4".into(),
        ranges: None,
        slow: false,
        kinds: kinds.iter().map(|k| (*k).to_owned()).collect(),
        routine: false,
    }
}

/// ose-adventuring.txt § Other Combat Issues, Invulnerabilities (Optional Rule): with the
/// session option, another invulnerable monster or one of 5 HD or more also harms; off by
/// default, and never a character's ordinary weapon.
#[test]
fn the_optional_rule_lets_big_or_invulnerable_monsters_harm_invulnerabilities_optional_rule() {
    let wight = spec(None, Some("3"), &["silver", "magic"]);
    let ogre = spec(None, Some("5"), &[]);
    let orc = spec(None, Some("4+1"), &[]);
    let hero = spec(Some("fighter"), None, &[]);
    let off = OseOptions::default();
    let on = OseOptions {
        monsters_harm_invulnerable: true,
        ..OseOptions::default()
    };
    assert!(!off.monsters_harm_invulnerable);
    for (attacker, kinds, target, opts, harmed) in [
        (&hero, &[][..], &wight, &off, false),
        (&hero, &["silver"][..], &wight, &off, true),
        (&hero, &["magic"][..], &wight, &off, true),
        (&hero, &[][..], &ogre, &off, true),
        (&ogre, &[][..], &wight, &off, false),
        (&ogre, &[][..], &wight, &on, true),
        (&wight, &[][..], &wight, &off, false),
        (&wight, &[][..], &wight, &on, true),
        (&orc, &[][..], &wight, &on, false),
        (&hero, &[][..], &wight, &on, false),
    ] {
        assert_eq!(harms(opts, attacker, &claw(kinds), target), harmed);
    }
}
