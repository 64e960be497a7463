//! basic-fantasy-adventures.txt § Light: candles (`light_candle`, `candles.rs`).

use super::candles::candle_turns;
use super::tests::{arena_text, arena_with};
use crate::rules::common::testing::{cid, new_engine, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::event::GameEvent;
use fray_protocol::ose::LightSource;
use fray_protocol::{BxCommand, BxEvent};
use fray_protocol::{Command, ErrorCode};

fn candle(who: &str, inches: u32) -> Command {
    Command::Bx(BxCommand::LightCandle {
        carrier: cid(who),
        inches,
    })
}

/// basic-fantasy-adventures.txt § Light: "A candle will shed light over a 5′ radius, with dim
/// light extending 5′ further … taper candles … will burn about 3 turns per inch of height" —
/// a 2-inch candle burns 6 exploration turns and goes out at the end of the sixth; no die is
/// rolled. Refused (changing nothing) for 0 or more than 24 inches, a second candle, and under
/// the `light` option `ose` (the OSE text gives no candle).
#[test]
fn a_candle_burns_three_turns_an_inch_light() {
    assert_eq!(LightSource::Candle.radius(), (5, 5));
    assert_eq!(candle_turns(1), 3);
    let text = arena_text("", 9, 9).replace("ruleset = \"ose\"", "ruleset = \"basic-fantasy\"");
    let mut e = new_engine(&load_encounter("bf.toml", &text).unwrap(), 1);
    for bad in [candle("ada", 0), candle("ada", 25)] {
        assert_eq!(refuse(&mut e, &bad), ErrorCode::InvalidArgument);
    }
    let ev = run(&mut e, &candle("ada", 2));
    assert_eq!(
        ev,
        vec![GameEvent::Bx(BxEvent::LightLit {
            carrier: cid("ada"),
            source: LightSource::Candle,
            roll: None,
            turns: 6,
        })]
    );
    assert_eq!(
        refuse(&mut e, &candle("ada", 1)),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        refuse(
            &mut e,
            &Command::Bx(BxCommand::LightSource {
                carrier: cid("bram"),
                source: LightSource::Candle,
            })
        ),
        ErrorCode::InvalidArgument
    );
    for turn in 1..=6 {
        let ev = run(
            &mut e,
            &Command::Bx(BxCommand::ExplorationTurn {
                wandering: None,
                rest: false,
            }),
        );
        let out = ev.iter().any(|x| {
            matches!(
                x,
                GameEvent::Bx(BxEvent::LightBurnedOut {
                    source: LightSource::Candle,
                    ..
                })
            )
        });
        assert_eq!(out, turn == 6, "turn {turn}");
    }
    assert!(e.state().ose.unwrap().exploration.lights.is_empty());
    // Under OSE's light rule: refused.
    let mut e = new_engine(&arena_with("", 9, 9), 1);
    assert_eq!(
        refuse(&mut e, &candle("ada", 2)),
        ErrorCode::InvalidArgument
    );
}
