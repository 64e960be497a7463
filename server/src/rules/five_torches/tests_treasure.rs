//! Five Torches Deep, through the real engine: treasure and experience (`treasure.rs`),
//! overland and overwater travel (`journey.rs`). Each test names the section of
//! `five-torches-deep-combat.txt`.

use super::tests::{arena, attack, close_to, started, turn_of};
use crate::engine::Engine;
use crate::rules::common::testing::{cid, new_engine, refuse, run};
use fray_protocol::event::GameEvent;
use fray_protocol::ftd::{
    Advantage, Current, FtdCombatant, Journey, LightLevel, TravelPace, TravelTerrain,
    TreasureSource, Vessel,
};
use fray_protocol::{Command, ErrorCode, FiveTorchesCommand, FiveTorchesEvent};

fn ftd(c: FiveTorchesCommand) -> Command {
    Command::FiveTorches(c)
}

/// The refusal of `cmd` (the state unchanged, as `refuse` checks).
fn refusal(e: &mut Engine, cmd: &Command) -> fray_protocol::Rejection {
    let code = refuse(e, cmd);
    let r = e.execute(cmd).expect_err("refused again");
    assert_eq!(r.code, code);
    r
}

fn sheet(e: &Engine, who: &str) -> FtdCombatant {
    e.state()
        .combatants
        .iter()
        .find(|c| c.id.as_str() == who)
        .and_then(|c| c.ftd.clone())
        .expect("an ftd sheet")
}

fn treasure(to: &str, gp: u32, sp: u32, cp: u32, unearned: bool) -> Command {
    ftd(FiveTorchesCommand::Treasure {
        to: cid(to),
        gp,
        sp,
        cp,
        unearned,
    })
}

/// Ada slays goon-1 (4 hp, AC 1) on her first turn.
fn goon_slain(seed: u64) -> Engine {
    let mut e = started(&arena(14, 1, "1d6"), seed);
    turn_of(&mut e, "ada");
    run(&mut e, &close_to("ada", "goon-1"));
    let ev = run(&mut e, &attack("ada", "sword", "goon-1"));
    assert!(ev.iter().any(|x| matches!(x, GameEvent::Slain { .. })));
    e
}

/// § Treasure: "An enemy's carried loot is worth 1d20gp per HD": the goon (1 HD) and the boss
/// (4 HD, alive: refused) — the gold as coins, as much experience, once per enemy.
#[test]
fn an_enemys_loot_is_1d20_gp_per_hd_rolled_once_treasure() {
    let mut e = goon_slain(1);
    let before = sheet(&e, "bram");
    let ev = run(
        &mut e,
        &ftd(FiveTorchesCommand::Loot {
            looter: cid("bram"),
            enemy: cid("goon-1"),
        }),
    );
    let Some(GameEvent::FiveTorches(FiveTorchesEvent::TreasureGained {
        coins,
        xp,
        source,
        roll: Some(roll),
        ..
    })) = ev.first()
    else {
        panic!("{ev:?}")
    };
    assert_eq!((roll.expr.as_str(), roll.dice.len()), ("d20", 1));
    assert!((1..=20).contains(&roll.total));
    assert_eq!(
        (*coins, *xp),
        (roll.total, u32::try_from(roll.total).unwrap())
    );
    assert_eq!(
        source,
        &TreasureSource::Loot {
            enemy: cid("goon-1")
        }
    );
    let after = sheet(&e, "bram");
    assert_eq!(after.coins, before.coins + roll.total);
    assert_eq!(after.xp, before.xp + *xp);
    assert!(sheet(&e, "goon-1").looted);
    // Once per enemy; a standing enemy keeps its loot; a PC is not an enemy.
    let again = ftd(FiveTorchesCommand::Loot {
        looter: cid("ada"),
        enemy: cid("goon-1"),
    });
    assert!(refusal(&mut e, &again).message.contains("looted already"));
    let boss = ftd(FiveTorchesCommand::Loot {
        looter: cid("ada"),
        enemy: cid("boss-1"),
    });
    assert_eq!(refuse(&mut e, &boss), ErrorCode::InvalidTarget);
    let pc = ftd(FiveTorchesCommand::Loot {
        looter: cid("ada"),
        enemy: cid("cleo"),
    });
    assert_eq!(refuse(&mut e, &pc), ErrorCode::InvalidTarget);
}

/// § Treasure: coins weigh the same whatever the metal ("500 coins per load"), a hoard gives
/// experience for its gold value (10 cp = 1 sp, 10 sp = 1 gp), unearned treasure none.
#[test]
fn hoards_give_xp_for_their_gold_value_and_unearned_treasure_none_treasure() {
    let mut e = started(&arena(14, 12, "1d6"), 3);
    let ev = run(&mut e, &treasure("cleo", 120, 35, 9, false));
    assert!(matches!(
        ev.as_slice(),
        [GameEvent::FiveTorches(FiveTorchesEvent::TreasureGained {
            coins: 164,
            xp: 123,
            source: TreasureSource::Hoard,
            roll: None,
            ..
        })]
    ));
    run(&mut e, &treasure("cleo", 400, 0, 0, true));
    let c = sheet(&e, "cleo");
    assert_eq!((c.coins, c.xp), (564, 123), "unearned: coins, no XP");
    // 564 coins are a load more than none: 1 load (500 coins) above... the sheet counts them.
    let light = sheet(&e, "bram");
    assert!(c.coins / 500 == 1 && light.coins == 0);
    // A treasure goes to a PC, and is some coins.
    assert_eq!(
        refuse(&mut e, &treasure("goon-1", 5, 0, 0, false)),
        ErrorCode::InvalidTarget
    );
    assert_eq!(
        refuse(&mut e, &treasure("cleo", 0, 0, 0, false)),
        ErrorCode::InvalidArgument
    );
}

/// § Treasure: "Captured magical items grant XP to the PCs equal to their fair value. If the
/// magic item is later sold, the gold earned for that item is not counted toward the PCs' XP."
#[test]
fn a_magic_item_gives_its_fair_value_in_xp_and_its_sale_gold_without_xp_treasure() {
    let mut e = started(&arena(14, 12, "1d6"), 3);
    run(
        &mut e,
        &ftd(FiveTorchesCommand::MagicItem {
            to: cid("ada"),
            name: "Ring of Warmth".into(),
            value: 300,
        }),
    );
    let a = sheet(&e, "ada");
    assert_eq!((a.xp, a.coins, a.magic_items.len()), (300, 0, 1));
    let sell = |name: &str| {
        ftd(FiveTorchesCommand::SellItem {
            seller: cid("ada"),
            name: name.into(),
            gp: 250,
        })
    };
    assert!(
        refusal(&mut e, &sell("Cloak"))
            .message
            .contains("Ring of Warmth")
    );
    run(&mut e, &sell("Ring of Warmth"));
    let a = sheet(&e, "ada");
    assert_eq!((a.xp, a.coins, a.magic_items.len()), (300, 250, 0));
    assert_eq!(
        refuse(&mut e, &sell("Ring of Warmth")),
        ErrorCode::InvalidArgument
    );
}

fn overland(days: u32, terrain: TravelTerrain, pace: TravelPace) -> Command {
    ftd(FiveTorchesCommand::TravelOverland {
        days,
        terrain,
        pace,
        advantage: Advantage::None,
    })
}

/// The `traveled` event of `ev`: (journey, hours, miles × 100, speed × 100).
fn traveled(ev: &[GameEvent]) -> (Journey, u32, u32, u32) {
    ev.iter()
        .find_map(|x| match x {
            GameEvent::FiveTorches(FiveTorchesEvent::Traveled {
                journey,
                hours,
                miles_x100,
                speed_x100,
            }) => Some((journey.clone(), *hours, *miles_x100, *speed_x100)),
            _ => None,
        })
        .expect("traveled")
}

fn travel_turns(ev: &[GameEvent]) -> Vec<u32> {
    ev.iter()
        .filter_map(|x| match x {
            GameEvent::FiveTorches(FiveTorchesEvent::TravelTurnRolled { number, .. }) => {
                Some(*number)
            }
            _ => None,
        })
        .collect()
}

/// § Overland Travel: 10 + STR mod miles a day at the slowest PC's pace (Bram, STR 8: 9), halved
/// in difficult terrain, a quarter less moving tactically; an encumbered PC at half; dim light
/// as difficult terrain; a travel turn each day while a day passes (torches burn hourly).
#[test]
fn the_party_travels_at_its_slowest_pcs_miles_a_day_with_a_travel_turn_daily_overland_travel() {
    // Before the battle (phase setup): outside battle, the dice open.
    let mut e = new_engine(&arena(14, 12, "1d6"), 5);
    let ev = run(
        &mut e,
        &overland(2, TravelTerrain::Difficult, TravelPace::Tactical),
    );
    let (journey, hours, miles, speed) = traveled(&ev);
    assert_eq!(
        journey,
        Journey::Overland {
            terrain: TravelTerrain::Difficult,
            pace: TravelPace::Tactical,
            slowest: cid("bram")
        }
    );
    // 9 miles × 1/2 × 3/4 = 3.375 a day.
    assert_eq!((hours, speed, miles), (48, 337, 675));
    assert_eq!(travel_turns(&ev), vec![1, 2], "one a day");
    assert_eq!(e.state().ftd.unwrap().travel_turns, 2);
    // Encumbered (a load above STR), Bram makes half; dim light counts as difficult terrain.
    run(
        &mut e,
        &ftd(FiveTorchesCommand::SetLoad {
            combatant: cid("bram"),
            load: 9,
            coins: 0,
        }),
    );
    run(
        &mut e,
        &ftd(FiveTorchesCommand::SetLight {
            combatant: None,
            light: Some(LightLevel::Dim),
        }),
    );
    let ev = run(
        &mut e,
        &overland(1, TravelTerrain::Open, TravelPace::Normal),
    );
    let (journey, _, miles, _) = traveled(&ev);
    assert!(matches!(
        journey,
        Journey::Overland {
            terrain: TravelTerrain::Difficult,
            ..
        }
    ));
    assert_eq!(miles, 225, "9 ÷ 2 (encumbered) ÷ 2 (dim light)");
    assert_eq!(travel_turns(&ev), vec![3]);
    // Not in battle, and 1-30 days.
    assert_eq!(
        refuse(
            &mut e,
            &overland(31, TravelTerrain::Open, TravelPace::Normal)
        ),
        ErrorCode::InvalidArgument
    );
    let mut fighting = started(&arena(14, 12, "1d6"), 5);
    assert_eq!(
        refuse(
            &mut fighting,
            &overland(1, TravelTerrain::Open, TravelPace::Normal)
        ),
        ErrorCode::InvalidArgument
    );
}

/// § Overwater Travel: a boat 3 mph with a travel turn each day, a ship 5 mph with one each
/// week; a favorable wind doubles, an unfavorable one halves.
#[test]
fn boats_roll_travel_turns_daily_and_ships_weekly_overwater_travel() {
    // Before the battle (phase setup): outside battle, the dice open.
    let mut e = new_engine(&arena(14, 12, "1d6"), 5);
    let voyage = |vessel, hours, current| {
        ftd(FiveTorchesCommand::TravelOverwater {
            vessel,
            hours,
            current,
            advantage: Advantage::None,
        })
    };
    let ev = run(&mut e, &voyage(Vessel::Boat, 50, Current::Unfavorable));
    let (_, hours, miles, speed) = traveled(&ev);
    assert_eq!((hours, speed, miles), (50, 150, 7500));
    assert_eq!(travel_turns(&ev).len(), 2, "two full days");
    let ev = run(&mut e, &voyage(Vessel::Ship, 24 * 10, Current::Favorable));
    let (journey, _, miles, speed) = traveled(&ev);
    assert_eq!(
        journey,
        Journey::Overwater {
            vessel: Vessel::Ship,
            current: Current::Favorable
        }
    );
    assert_eq!((speed, miles), (1000, 240_000));
    assert_eq!(travel_turns(&ev).len(), 1, "one full week");
    let seconds: u32 = ev
        .iter()
        .filter_map(|x| match x {
            GameEvent::FiveTorches(FiveTorchesEvent::TimePassed { seconds }) => Some(*seconds),
            _ => None,
        })
        .sum();
    assert_eq!(seconds, 240 * 3600, "every hour passes");
}
