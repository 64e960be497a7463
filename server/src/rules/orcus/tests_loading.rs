//! § Weapon properties, Loading (`loading.rs`), naming the section of `orcus-basic-rules.txt`.

use super::tests::{SPREAD, arena, arena_src, atk, started};
use crate::rules::common::testing::{cid, cs, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::event::{ActionKind, GameEvent};
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{OrcusCommand, OrcusEvent};

const ROWS: &[&str] = &[
    "..........",
    "..........",
    "....#.....",
    "....#.....",
    "..~~......",
    "..........",
];

fn reload(actor: &str, power: &str) -> Command {
    Command::Orcus(OrcusCommand::Reload {
        actor: cid(actor),
        power: power.into(),
    })
}

#[test]
fn a_loading_swift_weapon_needs_a_swift_action_between_attacks_loading() {
    // orcus-basic-rules.txt § Weapon properties, Loading (swift): after an attack with the
    // weapon a swift action reloads it before it attacks again.
    let src =
        arena_src(ROWS, "", 5, SPREAD).replace("id = \"bow\"", "id = \"bow\"\nloading = \"swift\"");
    let enc = load_encounter("crossbow.toml", &src).unwrap();
    let mut e = started(&enc, 4);
    // Loaded at the start: nothing to reload.
    assert_eq!(
        refuse(&mut e, &reload("kael", "bow")),
        ErrorCode::InvalidArgument
    );
    let ev = run(&mut e, &atk("kael", "bow", &["brute-1"]));
    assert!(ev.contains(&GameEvent::Orcus(OrcusEvent::ReloadNeeded {
        combatant: cid("kael"),
        power: "bow".into()
    })));
    assert_eq!(
        cs(&e, "kael").grid.unwrap().unloaded,
        vec!["bow".to_owned()]
    );
    run(
        &mut e,
        &Command::Orcus(OrcusCommand::SpendActionPoint {
            actor: cid("kael"),
            action: ActionKind::Standard,
        }),
    );
    assert_eq!(
        refuse(&mut e, &atk("kael", "bow", &["brute-1"])),
        ErrorCode::NotLoaded
    );
    // A swift action reloads it; then it attacks again.
    let ev = run(&mut e, &reload("kael", "bow"));
    assert!(ev.contains(&GameEvent::Orcus(OrcusEvent::Reloaded {
        combatant: cid("kael"),
        power: "bow".into()
    })));
    assert!(!cs(&e, "kael").actions.quick, "the swift action is spent");
    run(&mut e, &atk("kael", "bow", &["brute-1"]));
    // The next reload takes the move action in the swift action's place.
    let ev = run(&mut e, &reload("kael", "bow"));
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::ActionUsed {
            action: ActionKind::Quick,
            spent: ActionKind::Move,
            ..
        }
    )));
}

#[test]
fn other_powers_need_no_reload_and_bad_loading_is_refused_loading() {
    // orcus-basic-rules.txt § Weapon properties, Loading (free): reloading costs nothing.
    let mut e = started(&arena("", 5, SPREAD), 4);
    run(&mut e, &atk("kael", "bow", &["brute-1"]));
    assert!(cs(&e, "kael").grid.unwrap().unloaded.is_empty());
    assert_eq!(
        refuse(&mut e, &reload("kael", "bow")),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        refuse(&mut e, &reload("kael", "axe")),
        ErrorCode::UnknownAttack
    );
    let src =
        arena_src(ROWS, "", 5, SPREAD).replace("id = \"bow\"", "id = \"bow\"\nloading = \"magic\"");
    let err = load_encounter("bad.toml", &src).unwrap_err().to_string();
    assert!(err.contains("loading"), "{err}");
}

/// The arena with Kael wielding `weapon` and his bow power using its dice (`1dW`), with an
/// optional explicit `loading` on the bow.
fn wielding(weapon: &str, loading: &str) -> String {
    let loading = if loading.is_empty() {
        String::new()
    } else {
        format!("\nloading = \"{loading}\"")
    };
    arena_src(ROWS, "", 5, SPREAD)
        .replace("wis = 2", &format!("wis = 2\nweapon = \"{weapon}\""))
        .replace("id = \"bow\"", &format!("id = \"bow\"{loading}"))
        .replace("hit = \"1d8\"", "hit = \"1dW\"")
}

/// orcus-basic-rules.txt § Weapon properties, Loading (swift), and the ranged weapons table: a
/// heavy crossbow is Loading (swift), so a power using its dice needs a reload without saying
/// so; a power that does not use the weapon's dice is not an attack with it.
#[test]
fn a_dw_power_takes_the_weapons_loading_from_the_table_weapon_properties_loading() {
    let enc = load_encounter("heavy.toml", &wielding("heavy crossbow", "")).unwrap();
    let mut e = started(&enc, 4);
    let ev = run(&mut e, &atk("kael", "bow", &["brute-1"]));
    assert!(ev.contains(&GameEvent::Orcus(OrcusEvent::ReloadNeeded {
        combatant: cid("kael"),
        power: "bow".into()
    })));
    run(
        &mut e,
        &Command::Orcus(OrcusCommand::SpendActionPoint {
            actor: cid("kael"),
            action: ActionKind::Standard,
        }),
    );
    assert_eq!(
        refuse(&mut e, &atk("kael", "bow", &["brute-1"])),
        ErrorCode::NotLoaded
    );
    // The burst does not use the weapon's dice: no reload for it.
    assert_eq!(
        refuse(&mut e, &reload("kael", "burst")),
        ErrorCode::InvalidArgument
    );
    run(&mut e, &reload("kael", "bow"));
    run(&mut e, &atk("kael", "bow", &["brute-1"]));

    // A longbow is Loading (free): nothing to track.
    let enc = load_encounter("long.toml", &wielding("longbow", "")).unwrap();
    let mut e = started(&enc, 4);
    let ev = run(&mut e, &atk("kael", "bow", &["brute-1"]));
    assert!(
        !ev.iter()
            .any(|x| matches!(x, GameEvent::Orcus(OrcusEvent::ReloadNeeded { .. })))
    );
    assert!(cs(&e, "kael").grid.unwrap().unloaded.is_empty());
}

/// orcus-basic-rules.txt § Weapon properties, Loading: the weapon table says how a weapon
/// reloads, so a `dW` power's explicit `loading` that contradicts its weapon is refused on load;
/// one that agrees is accepted.
#[test]
fn a_loading_that_contradicts_the_weapon_is_refused_on_load_weapon_properties_loading() {
    for (weapon, loading) in [
        ("heavy crossbow", "free"),
        ("longbow", "swift"),
        ("longsword", "swift"),
        ("longsword", "free"),
    ] {
        let err = load_encounter("bad.toml", &wielding(weapon, loading))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("loading") && err.contains("contradicts the weapon"),
            "{weapon} {loading}: {err}"
        );
    }
    for (weapon, loading) in [("heavy crossbow", "swift"), ("longbow", "free")] {
        assert!(
            load_encounter("good.toml", &wielding(weapon, loading)).is_ok(),
            "{weapon} {loading}"
        );
    }
    // A power without `dW` still says its loading by hand, whatever the weapon.
    let src = wielding("longsword", "swift").replace("hit = \"1dW\"", "hit = \"1d8\"");
    assert!(load_encounter("hand.toml", &src).is_ok());
}

/// orcus-basic-rules.txt § Weapon properties, Loading: "Each time you attack with the weapon,
/// you expend one piece of ammunition" — a `dW` power with a Loading weapon uses the hero's
/// ammunition without saying so; saying `ammunition = false` for it is refused on load; a
/// weapon without Loading uses none.
#[test]
fn a_loading_weapons_dw_power_uses_ammunition_weapon_properties_loading() {
    let src = wielding("longbow", "").replace("wis = 2", "wis = 2\nammunition = 3");
    let mut e = started(&load_encounter("quiver.toml", &src).unwrap(), 4);
    let ev = run(&mut e, &atk("kael", "bow", &["brute-1"]));
    assert!(ev.contains(&GameEvent::Orcus(OrcusEvent::AmmunitionUsed {
        combatant: cid("kael"),
        count: 1
    })));
    assert_eq!(cs(&e, "kael").grid.unwrap().ammunition, Some(2));
    // A thrown handaxe has no Loading: its dW power uses no ammunition.
    let src = wielding("handaxe", "").replace("wis = 2", "wis = 2\nammunition = 3");
    let mut e = started(&load_encounter("axe.toml", &src).unwrap(), 4);
    let ev = run(&mut e, &atk("kael", "bow", &["brute-1"]));
    assert!(
        !ev.iter()
            .any(|x| matches!(x, GameEvent::Orcus(OrcusEvent::AmmunitionUsed { .. })))
    );
    // Refusing the weapon's ammunition contradicts the table.
    let src = wielding("heavy crossbow", "")
        .replace("hit = \"1dW\"", "hit = \"1dW\"\nammunition = false");
    let err = load_encounter("bad.toml", &src).unwrap_err().to_string();
    assert!(
        err.contains("ammunition") && err.contains("contradicts the weapon"),
        "{err}"
    );
}
