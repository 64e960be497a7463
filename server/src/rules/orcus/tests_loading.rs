//! § Weapon properties, Loading (`loading.rs`), naming the section of `orcus-basic-rules.txt`.

use super::tests::{SPREAD, arena, arena_src, atk, started};
use crate::content::load_encounter;
use crate::rules::thirteenth_age::tests::{cid, cs, refuse, run};
use fray_protocol::event::{ActionKind, GameEvent};
use fray_protocol::{Command, ErrorCode};

const ROWS: &[&str] = &[
    "..........",
    "..........",
    "....#.....",
    "....#.....",
    "..~~......",
    "..........",
];

fn reload(actor: &str, power: &str) -> Command {
    Command::Reload {
        actor: cid(actor),
        power: power.into(),
    }
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
    assert!(ev.contains(&GameEvent::ReloadNeeded {
        combatant: cid("kael"),
        power: "bow".into()
    }));
    assert_eq!(
        cs(&e, "kael").grid.unwrap().unloaded,
        vec!["bow".to_owned()]
    );
    run(
        &mut e,
        &Command::SpendActionPoint {
            actor: cid("kael"),
            action: ActionKind::Standard,
        },
    );
    assert_eq!(
        refuse(&mut e, &atk("kael", "bow", &["brute-1"])),
        ErrorCode::NotLoaded
    );
    // A swift action reloads it; then it attacks again.
    let ev = run(&mut e, &reload("kael", "bow"));
    assert!(ev.contains(&GameEvent::Reloaded {
        combatant: cid("kael"),
        power: "bow".into()
    }));
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
