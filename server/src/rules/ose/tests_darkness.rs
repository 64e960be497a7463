//! Darkness under the session option `dark` (`darkness.rs`): ose-adventuring.txt § Darkness,
//! § Infravision and § Blindness; basic-fantasy-adventures.txt § Light and § Darkvision.

use super::tests::{arena_text, attack};
use crate::engine::Engine;
use crate::rules::common::testing::{cid, current, new_engine, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::BxCommand;
use fray_protocol::event::GameEvent;
use fray_protocol::ose::LightSource;
use fray_protocol::{Command, ErrorCode};

/// The arena with `options`, Bram given 60′ of darkvision, an optional torch lit by Ada before
/// the battle; started at Ada's turn.
fn dark_arena(options: &str, torch: bool) -> Engine {
    let text =
        arena_text(options, 200, 9).replace("name = \"Bram\"", "name = \"Bram\"\ndarkvision = 60");
    let enc = load_encounter("arena.toml", &text).unwrap();
    for seed in 0..100 {
        let mut e = new_engine(&enc, seed);
        if torch {
            run(
                &mut e,
                &Command::Bx(BxCommand::LightSource {
                    carrier: cid("ada"),
                    source: LightSource::Torch,
                }),
            );
        }
        run(&mut e, &Command::StartBattle);
        if current(&e) == "ada" {
            return e;
        }
    }
    panic!("no seed where Ada acts first");
}

/// Ends turns until it is `who`'s; whether it came (at most 12 turns).
fn reach(e: &mut Engine, who: &str) -> bool {
    for _ in 0..12 {
        if current(e) == who {
            return true;
        }
        let me = current(e);
        run(e, &Command::EndTurn { actor: cid(&me) });
    }
    false
}

fn attacked(ev: &[GameEvent], who: &str) -> bool {
    ev.iter()
        .any(|x| matches!(x, GameEvent::AttackRolled { attacker, .. } if attacker.as_str() == who))
}

/// ose-adventuring.txt § Darkness ("Characters will usually want to bring a source of light"),
/// § Infravision ("allows them to see in the dark"; monsters 60′ unless specified) and
/// § Blindness ("A blind character is unable to attack"); basic-fantasy-adventures.txt
/// § Darkvision: under `dark = true`, with no light burning, Ada (no darkvision) is refused
/// (`blinded`, nothing changes, no dice), Bram (darkvision) and the goons attack.
#[test]
fn without_light_or_darkvision_no_attack_in_the_dark_darkness_infravision() {
    let mut e = dark_arena("dark = true", false);
    assert_eq!(
        refuse(&mut e, &attack("ada", "sword", "goon-1")),
        ErrorCode::Blinded
    );
    run(&mut e, &Command::EndTurn { actor: cid("ada") });
    assert!(reach(&mut e, "bram"));
    let ev = run(&mut e, &attack("bram", "staff", "goon-1"));
    assert!(attacked(&ev, "bram"), "{ev:?}");
    assert!(reach(&mut e, "goon-1"));
    let ev = run(&mut e, &attack("goon-1", "club", "ada"));
    assert!(attacked(&ev, "goon-1"), "{ev:?}");
}

/// ose-adventuring.txt § Darkness ("Typical light sources enable normal vision") and
/// § Infravision (Disruption: light disrupts it); basic-fantasy-adventures.txt § Light: a torch
/// burning (anywhere: no positions) lets everyone attack in a dark encounter; without the
/// option (the default) the dark is the GM's and Ada attacks.
#[test]
fn a_burning_light_or_the_default_lets_everyone_attack_darkness_light() {
    let mut e = dark_arena("dark = true", true);
    let ev = run(&mut e, &attack("ada", "sword", "goon-1"));
    assert!(attacked(&ev, "ada"), "{ev:?}");
    assert!(reach(&mut e, "goon-1"));
    let ev = run(&mut e, &attack("goon-1", "club", "ada"));
    assert!(attacked(&ev, "goon-1"), "{ev:?}");

    let mut e = dark_arena("", false);
    let ev = run(&mut e, &attack("ada", "sword", "goon-1"));
    assert!(attacked(&ev, "ada"), "{ev:?}");
}
