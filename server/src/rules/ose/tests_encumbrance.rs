//! ose-adventuring.txt § Optional Rule: Encumbrance in play (session option `encumbrance`):
//! Option 1 (armor and treasure), Option 2 (coins of weight), the maximum load, the Treasure
//! Encumbrance table; the rate feeds `ose_move` and `pass_day`.

use super::tables::treasure_coins;
use super::tests::{arena_text, arena_with};
use crate::content::model::Encounter;
use crate::engine::Engine;
use crate::rules::common::testing::{cid, current, new_engine, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::bf::{ArmorType, March, Terrain};
use fray_protocol::event::GameEvent;
use fray_protocol::ids::CombatantId;
use fray_protocol::{BxCommand, BxEvent};
use fray_protocol::{Command, ErrorCode};

/// The arena with the `encumbrance` option and Ada's content `armor`, `load`, `treasure`.
fn arena(rule: &str, ada: &str) -> Encounter {
    let text = arena_text(&format!("encumbrance = \"{rule}\""), 9, 9)
        .replace("hp = 20\nsaves", &format!("hp = 20\n{ada}\nsaves"));
    load_encounter("arena.toml", &text).unwrap()
}

fn day(march: March) -> Command {
    Command::Bx(BxCommand::PassDay {
        march,
        terrain: Terrain::Clear,
        unfed: Vec::new(),
        no_water: Vec::new(),
        leader: None,
        water: None,
    })
}

/// The party's rate per round and miles of a day on clear land.
fn travel(e: &mut Engine) -> (i32, u32) {
    run(e, &day(March::Normal))
        .iter()
        .find_map(|x| match x {
            GameEvent::Bx(BxEvent::DayPassed { rate, miles, .. }) => Some((*rate, *miles)),
            _ => None,
        })
        .unwrap()
}

fn load(who: &str, armor: ArmorType, coins: u32, treasure: bool) -> Command {
    Command::Bx(BxCommand::SetEncumbrance {
        combatant: cid(who),
        armor,
        load: coins,
        treasure,
    })
}

fn mv(actor: &str, feet: u32) -> Command {
    Command::Bx(BxCommand::OseMove {
        actor: cid(actor),
        feet,
    })
}

/// Starts the battle and ends turns until it is `who`'s.
fn battle_until(e: &mut Engine, who: &str) {
    run(e, &Command::StartBattle);
    for _ in 0..12 {
        if e.state().current.as_ref().map(CombatantId::as_str) == Some(who) {
            return;
        }
        let me = current(e);
        run(e, &Command::EndTurn { actor: cid(&me) });
    }
    panic!("never {who}'s turn");
}

/// ose-adventuring.txt § Optional Rule: Encumbrance, Tracking Encumbrance: the Treasure
/// Encumbrance table (coin 1, gem 1, jewelry 10, potion 10, rod 20, scroll 1, staff 40, wand
/// 10); other treasure is the referee's.
#[test]
fn treasure_weighs_by_the_table_tracking_encumbrance() {
    for (item, coins) in [
        ("coin", 1),
        ("gem", 1),
        ("jewelry", 10),
        ("potion", 10),
        ("rod", 20),
        ("scroll", 1),
        ("staff", 40),
        ("wand", 10),
    ] {
        assert_eq!(treasure_coins(item), Some(coins), "{item}");
    }
    assert_eq!(treasure_coins("statue"), None);
}

/// ose-adventuring.txt § Optional Rule: Encumbrance ("Some groups may wish to use"): off by
/// default — the content's load is ignored, every character moves at its base rate, and
/// `set_encumbrance` is refused (`encumbrance_off`), changing nothing.
#[test]
fn without_the_option_characters_move_at_their_base_rate_optional_rule_encumbrance() {
    let enc = arena("none", "armor = \"heavy\"\nload = 2000\ntreasure = true");
    let mut e = new_engine(&enc, 1);
    assert_eq!(
        refuse(&mut e, &load("ada", ArmorType::Metal, 10, true)),
        ErrorCode::EncumbranceOff
    );
    assert_eq!(travel(&mut e), (40, 24));
    // The default options are `none` too.
    let mut e = new_engine(&arena_with("", 9, 9), 1);
    assert_eq!(travel(&mut e), (40, 24));
}

/// ose-adventuring.txt § Option 1: Basic Encumbrance: the Basic Encumbrance Movement Rate table
/// by armor worn and whether a significant amount of treasure is carried (the referee's
/// `treasure`), from the content and then from `set_encumbrance`; the party moves at its
/// slowest (§ Wilderness Movement: miles = base ÷ 5); monsters carry no load.
#[test]
fn armor_and_treasure_set_the_rate_option_1_basic_encumbrance() {
    let enc = arena("basic", "armor = \"heavy\"\nload = 300\ntreasure = true");
    let mut e = new_engine(&enc, 1);
    // Heavy armor with treasure: 30′ (10′); Bram unarmored: 120′ (40′).
    assert_eq!(travel(&mut e), (10, 6));
    for (armor, treasure, movement) in [
        (ArmorType::None, false, 40),
        (ArmorType::None, true, 30),
        (ArmorType::Leather, false, 30),
        (ArmorType::Leather, true, 20),
        (ArmorType::Metal, false, 20),
        (ArmorType::Metal, true, 10),
    ] {
        let ev = run(&mut e, &load("ada", armor, 500, treasure));
        assert_eq!(
            ev,
            vec![GameEvent::Bx(BxEvent::EncumbranceSet {
                combatant: cid("ada"),
                armor,
                load: 500,
                heavy: false,
                movement,
                treasure,
            })]
        );
        assert_eq!(travel(&mut e).0, movement);
    }
    assert_eq!(
        refuse(&mut e, &load("goon-1", ArmorType::None, 0, false)),
        ErrorCode::InvalidTarget
    );
    // The treasure's weight counts only against the maximum load: over 1,600 coins, no move.
    let ev = run(&mut e, &load("ada", ArmorType::None, 1601, false));
    assert!(matches!(
        ev.as_slice(),
        [GameEvent::Bx(BxEvent::EncumbranceSet {
            heavy: true,
            movement: 0,
            ..
        })]
    ));
    assert_eq!(refuse(&mut e, &day(March::Normal)), ErrorCode::CannotMove);
}

/// ose-adventuring.txt § Option 2: Detailed Encumbrance (up to 400 coins 120′, 600 90′, 800 60′,
/// 1,600 30′) and Maximum load ("Characters carrying more than this cannot move"): the
/// content's load sets the rate in the encounter (`ose_move`'s allowance); over 1,600 coins
/// `ose_move` and a day of travel are refused (`cannot_move`) — a day of rest is not.
#[test]
fn coins_of_weight_set_the_rate_and_over_1600_nothing_moves_option_2_detailed_encumbrance() {
    let enc = arena("detailed", "load = 700");
    let mut e = new_engine(&enc, 1);
    assert_eq!(travel(&mut e), (20, 12));
    // Every row of the table at both of its edges.
    for (coins, movement) in [
        (0, 40),
        (400, 40),
        (401, 30),
        (600, 30),
        (601, 20),
        (800, 20),
        (801, 10),
        (1600, 10),
    ] {
        let ev = run(&mut e, &load("ada", ArmorType::Metal, coins, true));
        assert!(
            matches!(ev.as_slice(), [GameEvent::Bx(BxEvent::EncumbranceSet { movement: m, heavy: false, .. })] if *m == movement),
            "{coins}: {ev:?}"
        );
    }
    run(&mut e, &load("ada", ArmorType::None, 1601, false));
    assert_eq!(refuse(&mut e, &day(March::Normal)), ErrorCode::CannotMove);
    run(&mut e, &day(March::Rest));
    battle_until(&mut e, "ada");
    assert_eq!(refuse(&mut e, &mv("ada", 1)), ErrorCode::CannotMove);

    // In the encounter the content's 700 coins give 60′ (20′ a round).
    let mut e = new_engine(&enc, 1);
    battle_until(&mut e, "ada");
    assert_eq!(refuse(&mut e, &mv("ada", 21)), ErrorCode::TooFar);
    run(&mut e, &mv("ada", 20));
}
