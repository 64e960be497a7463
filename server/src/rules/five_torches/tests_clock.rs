//! Five Torches Deep, second increment, through the real engine: load and speed, light and
//! darksight, torches and lanterns on the dungeon clock, travel turns, resilience and
//! exhaustion, rest, stealth. Each test names the section of `five-torches-deep-combat.txt`.

use super::tests::{arena, attack, close_to, end, started, turn_of};
use crate::engine::Engine;
use crate::rules::common::testing::{cid, cs, current, new_engine, refuse, run};
use fray_protocol::event::GameEvent;
use fray_protocol::ftd::{Ability, Advantage, LightLevel, LightSource, LightTask, Threat};
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{FiveTorchesCommand, FiveTorchesEvent};

fn set_load(who: &str, load: i32, coins: i32) -> Command {
    Command::FiveTorches(FiveTorchesCommand::SetLoad {
        combatant: cid(who),
        load,
        coins,
    })
}

fn check(who: &str, task: Option<LightTask>) -> Command {
    Command::FiveTorches(FiveTorchesCommand::Check {
        combatant: cid(who),
        ability: Ability::Wis,
        dc: 10,
        proficient: false,
        advantage: Advantage::None,
        damage: None,
        purpose: None,
        task,
    })
}

fn hurt(who: &str, dice: &str) -> Command {
    Command::FiveTorches(FiveTorchesCommand::Check {
        combatant: cid(who),
        ability: Ability::Str,
        dc: 40,
        proficient: false,
        advantage: Advantage::None,
        damage: Some(dice.into()),
        purpose: Some("falling rocks".into()),
        task: None,
    })
}

fn scene(light: LightLevel) -> Command {
    Command::FiveTorches(FiveTorchesCommand::SetLight {
        combatant: None,
        light: Some(light),
    })
}

fn carry(who: &str, source: Option<LightSource>) -> Command {
    Command::FiveTorches(FiveTorchesCommand::CarryLight {
        actor: cid(who),
        source,
    })
}

fn travel() -> Command {
    Command::FiveTorches(FiveTorchesCommand::TravelTurn {
        advantage: Advantage::None,
    })
}

/// How the d20 of the first attack or check in `ev` was rolled: `None` (one die),
/// `Advantage` or `Disadvantage` (two, the higher or lower kept).
fn d20_mode(ev: &[GameEvent]) -> Advantage {
    let roll = ev
        .iter()
        .find_map(|x| match x {
            GameEvent::AttackRolled { roll, .. }
            | GameEvent::CheckRolled { roll, .. }
            | GameEvent::FiveTorches(FiveTorchesEvent::MoraleChecked { roll, .. }) => {
                Some(roll.clone())
            }
            _ => None,
        })
        .expect("a d20 roll");
    if roll.dice.len() == 1 {
        return Advantage::None;
    }
    let faces: Vec<u32> = roll.dice.iter().map(|d| d.face).collect();
    let kept = roll.natural().unwrap();
    let (lo, hi) = (*faces.iter().min().unwrap(), *faces.iter().max().unwrap());
    if lo == hi {
        // Equal faces cannot tell; callers use seeds where they differ.
        return Advantage::None;
    }
    if kept == hi {
        Advantage::Advantage
    } else {
        Advantage::Disadvantage
    }
}

/// The d20 mode of `cmd` over seeds whose two dice differ.
fn mode_of(setup: impl Fn(u64) -> Engine, cmd: impl Fn(&Engine) -> Command) -> Advantage {
    for seed in 0..40 {
        let mut e = setup(seed);
        let c = cmd(&e);
        let ev = run(&mut e, &c);
        let roll_dice = ev.iter().find_map(|x| match x {
            GameEvent::AttackRolled { roll, .. }
            | GameEvent::CheckRolled { roll, .. }
            | GameEvent::FiveTorches(FiveTorchesEvent::MoraleChecked { roll, .. }) => {
                Some(roll.dice.clone())
            }
            _ => None,
        });
        match roll_dice {
            Some(d) if d.len() == 2 && d[0].face == d[1].face => continue,
            _ => return d20_mode(&ev),
        }
    }
    panic!("no seed told the dice apart");
}

// five-torches-deep-combat.txt § Movement Actions ("Each load you carry above your STR score
// reduces your speed by 5′ and forces disadvantage on all checks … A PC at 0′ speed is
// completely encumbered and can't move at all") and § Treasure ("500 coins per load")
#[test]
fn load_above_str_slows_hinders_and_can_stop_movement() {
    let enc = arena(14, 12, "1d6");
    let mut e = started(&enc, 1);
    assert_eq!(cs(&e, "ada").ftd.unwrap().speed, 30);
    run(&mut e, &set_load("ada", 16, 499));
    let f = cs(&e, "ada").ftd.unwrap();
    assert_eq!((f.speed, f.over_load), (30, 0));
    run(&mut e, &set_load("ada", 16, 500));
    let f = cs(&e, "ada").ftd.unwrap();
    assert_eq!((f.speed, f.over_load), (25, 1));
    // Every check and attack at disadvantage.
    let setup = |seed| {
        let mut e = started(&enc, seed);
        run(&mut e, &set_load("ada", 17, 0));
        e
    };
    assert_eq!(
        mode_of(setup, |_| check("ada", None)),
        Advantage::Disadvantage
    );
    let setup_attack = |seed| {
        let mut e = setup(seed);
        turn_of(&mut e, "ada");
        run(&mut e, &close_to("ada", "goon-1"));
        e
    };
    assert_eq!(
        mode_of(setup_attack, |_| attack("ada", "sword", "goon-1")),
        Advantage::Disadvantage
    );
    // Bram (STR 8) with 14 load: 6 over, 0′ speed.
    run(&mut e, &set_load("bram", 14, 0));
    assert_eq!(cs(&e, "bram").ftd.unwrap().speed, 0);
    turn_of(&mut e, "bram");
    assert_eq!(
        refuse(&mut e, &close_to("bram", "goon-1")),
        ErrorCode::NoSpeed
    );
    assert_eq!(
        refuse(
            &mut e,
            &Command::FiveTorches(FiveTorchesCommand::Retreat { actor: cid("bram") })
        ),
        ErrorCode::NoSpeed
    );
    assert_eq!(
        refuse(&mut e, &set_load("bram", -1, 0)),
        ErrorCode::InvalidArgument
    );
    // Dropping the load frees it.
    run(&mut e, &set_load("bram", 8, 0));
    run(&mut e, &close_to("bram", "goon-1"));
}

// five-torches-deep-combat.txt § Light (darkness, dim, well lit, brilliant: the lists of
// advantages and disadvantages; "They cast 30′ of dim light") and § Darksight
#[test]
fn light_levels_and_darksight_change_the_rolls() {
    let enc = arena(14, 12, "1d6");
    let dark = |seed| {
        let mut e = started(&enc, seed);
        run(&mut e, &scene(LightLevel::Darkness));
        turn_of(&mut e, "ada");
        run(&mut e, &close_to("ada", "goon-1"));
        e
    };
    // Darkness: all attacks at disadvantage.
    assert_eq!(
        mode_of(dark, |_| attack("ada", "sword", "goon-1")),
        Advantage::Disadvantage
    );
    // Stealth and listening at advantage, sight at disadvantage.
    assert_eq!(
        mode_of(dark, |_| check("ada", Some(LightTask::Listening))),
        Advantage::Advantage
    );
    assert_eq!(
        mode_of(dark, |_| check("ada", Some(LightTask::Sight))),
        Advantage::Disadvantage
    );
    assert_eq!(mode_of(dark, |_| check("ada", None)), Advantage::None);
    // A torch (a quick action) makes it dim around Ada and those close to her: melee is fine,
    // sight still hindered.
    let torch = |seed| {
        let mut e = dark(seed);
        run(&mut e, &carry("ada", Some(LightSource::Torch)));
        e
    };
    assert_eq!(
        mode_of(torch, |_| attack("ada", "sword", "goon-1")),
        Advantage::None
    );
    assert_eq!(
        mode_of(torch, |_| check("ada", Some(LightTask::Sight))),
        Advantage::Disadvantage
    );
    let mut e = torch(3);
    assert!(!cs(&e, "ada").actions.quick);
    // Dim light: ranged attacks at disadvantage (Bram's bolt at a goon not close to him).
    let dim = |seed| {
        let mut e = started(&enc, seed);
        run(&mut e, &scene(LightLevel::Dim));
        turn_of(&mut e, "bram");
        e
    };
    assert_eq!(
        mode_of(dim, |_| attack("bram", "bolt", "goon-2")),
        Advantage::Disadvantage
    );
    // Brilliant: tracking at advantage, stealth at disadvantage.
    let bright = |seed| {
        let mut e = started(&enc, seed);
        run(&mut e, &scene(LightLevel::Brilliant));
        e
    };
    assert_eq!(
        mode_of(bright, |_| check("ada", Some(LightTask::Tracking))),
        Advantage::Advantage
    );
    assert_eq!(
        mode_of(bright, |_| check("ada", Some(LightTask::Stealth))),
        Advantage::Disadvantage
    );
    // The GM's light for one combatant overrides the scene's.
    let lit_ada = |seed| {
        let mut e = dark(seed);
        run(
            &mut e,
            &Command::FiveTorches(FiveTorchesCommand::SetLight {
                combatant: Some(cid("goon-1")),
                light: Some(LightLevel::WellLit),
            }),
        );
        e
    };
    assert_eq!(
        mode_of(lit_ada, |_| attack("ada", "sword", "goon-1")),
        Advantage::None
    );
    // Darksight: darkness's disadvantages are advantages (a goon with darksight attacks).
    let mut seeing = enc.clone();
    for c in &mut seeing.combatants {
        if let Some(f) = &mut c.ftd {
            f.darksight = c.id.as_str() == "goon-1";
        }
    }
    let goon = |seed| {
        let mut e = started(&seeing, seed);
        run(&mut e, &scene(LightLevel::Darkness));
        turn_of(&mut e, "goon-1");
        run(&mut e, &close_to("goon-1", "ada"));
        e
    };
    assert_eq!(
        mode_of(goon, |_| attack("goon-1", "club", "ada")),
        Advantage::Advantage
    );
    // Morale in darkness: disadvantage for surfacers, advantage with darksight.
    let morale = |who: &str| {
        Command::FiveTorches(FiveTorchesCommand::MoraleCheck {
            combatants: vec![cid(who)],
            group: false,
            advantage: Advantage::None,
            on_failure: Default::default(),
        })
    };
    assert_eq!(mode_of(goon, |_| morale("goon-2")), Advantage::Disadvantage);
    assert_eq!(mode_of(goon, |_| morale("goon-1")), Advantage::Advantage);
    // Refusals.
    assert_eq!(
        refuse(
            &mut e,
            &Command::FiveTorches(FiveTorchesCommand::SetLight {
                combatant: None,
                light: None
            })
        ),
        ErrorCode::InvalidArgument
    );
    assert_eq!(refuse(&mut e, &carry("bram", None)), ErrorCode::NotYourTurn);
    let mut e = new_engine(&enc, 3);
    assert_eq!(
        refuse(&mut e, &carry("bram", None)),
        ErrorCode::InvalidArgument
    );
}

// five-torches-deep-combat.txt § Travel Turns ("A travel turn occurs every hour … Torches
// typically last an hour, lanterns three hours"), § Travel Turn Table, § Light
#[test]
fn torches_and_lanterns_burn_down_with_travel_turns_and_rounds() {
    let enc = arena(14, 12, "1d6");
    let mut e = new_engine(&enc, 4);
    // Outside battle lighting takes no action.
    run(&mut e, &carry("ada", Some(LightSource::Torch)));
    run(&mut e, &carry("bram", Some(LightSource::Lantern)));
    assert_eq!(
        cs(&e, "bram").ftd.unwrap().carried.unwrap().seconds_left,
        3 * 3600
    );
    let ev = run(&mut e, &travel());
    let (number, face, threat) = ev
        .iter()
        .find_map(|x| match x {
            GameEvent::FiveTorches(FiveTorchesEvent::TravelTurnRolled {
                number,
                roll,
                threat,
            }) => Some((*number, roll.natural().unwrap(), *threat)),
            _ => None,
        })
        .unwrap();
    assert_eq!(number, 1);
    assert_eq!(threat, super::rules::threat(face));
    assert!(
        ev.contains(&GameEvent::FiveTorches(FiveTorchesEvent::TimePassed {
            seconds: 3600
        }))
    );
    assert!(
        ev.contains(&GameEvent::FiveTorches(FiveTorchesEvent::LightWentOut {
            combatant: cid("ada"),
            source: LightSource::Torch
        }))
    );
    assert!(cs(&e, "ada").ftd.unwrap().carried.is_none());
    assert_eq!(
        cs(&e, "bram").ftd.unwrap().carried.unwrap().seconds_left,
        2 * 3600
    );
    run(&mut e, &travel());
    let ev = run(&mut e, &travel());
    assert!(
        ev.contains(&GameEvent::FiveTorches(FiveTorchesEvent::LightWentOut {
            combatant: cid("bram"),
            source: LightSource::Lantern
        }))
    );
    let s = e.state();
    assert_eq!(s.ftd.as_ref().unwrap().travel_turns, 3);
    assert_eq!(s.ftd.as_ref().unwrap().clock, 3 * 3600);
    // In battle each round is 6 seconds; no travel turns.
    run(&mut e, &carry("ada", Some(LightSource::Torch)));
    run(&mut e, &Command::StartBattle);
    let clock = e.state().ftd.unwrap().clock;
    assert_eq!(clock, 3 * 3600 + 6);
    let first = current(&e);
    let mut ev = Vec::new();
    for _ in 0..6 {
        let c = current(&e);
        ev.extend(run(&mut e, &end(&c)));
        if current(&e) == first {
            break;
        }
    }
    assert!(
        ev.contains(&GameEvent::FiveTorches(FiveTorchesEvent::TimePassed {
            seconds: 6
        }))
    );
    assert_eq!(e.state().ftd.unwrap().clock, clock + 6);
    assert_eq!(
        cs(&e, "ada").ftd.unwrap().carried.unwrap().seconds_left,
        3600 - 12
    );
    assert_eq!(refuse(&mut e, &travel()), ErrorCode::InvalidArgument);
    // The cautious party's roll: advantage (two dice).
    let mut e = new_engine(&enc, 4);
    let ev = run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::TravelTurn {
            advantage: Advantage::Advantage,
        }),
    );
    assert!(ev.iter().any(
        |x| matches!(x, GameEvent::FiveTorches(FiveTorchesEvent::TravelTurnRolled { roll, threat, .. }) if roll.dice.len() == 2 && (*threat == Threat::Terrible) == (roll.natural() == Some(1)))
    ));
}

// five-torches-deep-combat.txt § Resilience & Exhaustion ("resilience equal to their CON
// score … a resilience check (1d20 + CON mod) once the PC has adventured for more hours than
// their resilience. The DC is 10 + the number of hours beyond … exhausted … disadvantage on all
// checks and their movement speed becomes 0′ … only safe rest will")
#[test]
fn resilience_checks_exhaust_and_only_safe_rest_cures() {
    let enc = arena(14, 12, "1d6");
    for seed in 0..60 {
        let mut e = new_engine(&enc, seed);
        let resilience = Command::FiveTorches(FiveTorchesCommand::ResilienceCheck {
            combatant: cid("ada"),
        });
        // Ada: CON 12 — twelve hours are within her resilience.
        for _ in 0..12 {
            run(&mut e, &travel());
        }
        assert_eq!(refuse(&mut e, &resilience), ErrorCode::InvalidArgument);
        run(&mut e, &travel());
        let ev = run(&mut e, &resilience);
        let (dc, success) = ev
            .iter()
            .find_map(|x| match x {
                GameEvent::CheckRolled {
                    dc,
                    success,
                    purpose,
                    ..
                } if purpose == "resilience" => Some((*dc, *success)),
                _ => None,
            })
            .unwrap();
        assert_eq!(dc, 11);
        if success {
            continue;
        }
        let f = cs(&e, "ada").ftd.unwrap();
        assert!(f.exhausted && f.speed == 0 && f.hindered());
        assert_eq!(refuse(&mut e, &resilience), ErrorCode::InvalidArgument);
        // Unsafe rest: the hours start again, exhaustion stays.
        run(
            &mut e,
            &Command::FiveTorches(FiveTorchesCommand::Rest {
                safe: false,
                nights: 1,
            }),
        );
        let f = cs(&e, "ada").ftd.unwrap();
        assert!(f.exhausted);
        assert_eq!(f.adventured, 0);
        // In battle she cannot move.
        run(&mut e, &Command::StartBattle);
        turn_of(&mut e, "ada");
        assert_eq!(
            refuse(&mut e, &close_to("ada", "goon-1")),
            ErrorCode::NoSpeed
        );
        assert_eq!(
            refuse(
                &mut e,
                &Command::FiveTorches(FiveTorchesCommand::Rest {
                    safe: true,
                    nights: 1
                })
            ),
            ErrorCode::InvalidArgument
        );
        run(&mut e, &Command::EndBattle);
        let ev = run(
            &mut e,
            &Command::FiveTorches(FiveTorchesCommand::Rest {
                safe: true,
                nights: 1,
            }),
        );
        assert!(ev.contains(&GameEvent::FiveTorches(
            FiveTorchesEvent::ExhaustionChanged {
                combatant: cid("ada"),
                exhausted: false
            }
        )));
        let f = cs(&e, "ada").ftd.unwrap();
        assert!(!f.exhausted && f.speed == 30);
        return;
    }
    panic!("no failed resilience check");
}

// five-torches-deep-combat.txt § Healing From Rest ("1 HP per level per night of safe rest …
// 1 HP per night of unsafe rest") and § Injury Table ("Disadvantage all checks until rest")
#[test]
fn rest_heals_by_level_and_ends_disadvantage_until_rest() {
    let enc = arena(14, 12, "1d6");
    let mut e = started(&enc, 2);
    run(&mut e, &hurt("bram", "6"));
    run(&mut e, &hurt("ada", "6"));
    assert_eq!(cs(&e, "bram").hp, Some(2));
    run(&mut e, &Command::EndBattle);
    run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::Rest {
            safe: false,
            nights: 2,
        }),
    );
    assert_eq!(cs(&e, "bram").hp, Some(4));
    assert_eq!(cs(&e, "ada").hp, Some(6));
    run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::Rest {
            safe: true,
            nights: 1,
        }),
    );
    // Bram is level 5, Ada level 1; never above the maximum.
    assert_eq!(cs(&e, "bram").hp, Some(8));
    assert_eq!(cs(&e, "ada").hp, Some(7));
    assert_eq!(
        refuse(
            &mut e,
            &Command::FiveTorches(FiveTorchesCommand::Rest {
                safe: true,
                nights: 0
            })
        ),
        ErrorCode::InvalidArgument
    );
    // An injury's disadvantage lasts until the next rest.
    let enc = arena(1, 12, "20");
    for seed in 0..400 {
        let mut e = started(&enc, seed);
        turn_of(&mut e, "goon-1");
        run(&mut e, &close_to("goon-1", "ada"));
        run(&mut e, &attack("goon-1", "club", "ada"));
        turn_of(&mut e, "cleo");
        run(
            &mut e,
            &Command::Stabilize {
                actor: cid("cleo"),
                target: cid("ada"),
            },
        );
        if !cs(&e, "ada").ftd.unwrap().disadvantage_until_rest {
            continue;
        }
        run(&mut e, &Command::EndBattle);
        run(
            &mut e,
            &Command::FiveTorches(FiveTorchesCommand::Rest {
                safe: false,
                nights: 1,
            }),
        );
        assert!(!cs(&e, "ada").ftd.unwrap().disadvantage_until_rest);
        return;
    }
    panic!("no 14-19 injury found");
}

// five-torches-deep-combat.txt § Stealth ("a character successfully in stealth can't be
// directly targeted. Once they attack their stealth ends. Stealth DCs can vary by
// circumstances") and § Active Actions (stealth is an active action with a check)
#[test]
fn stealth_hides_from_attacks_until_the_hidden_one_attacks() {
    let enc = arena(14, 12, "1d6");
    let mut e = started(&enc, 5);
    assert_eq!(
        refuse(
            &mut e,
            &Command::FiveTorches(FiveTorchesCommand::SetStealthDc { dc: Some(41) })
        ),
        ErrorCode::InvalidArgument
    );
    run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::SetStealthDc { dc: Some(1) }),
    );
    turn_of(&mut e, "ada");
    let ev = run(&mut e, &Command::Hide { actor: cid("ada") });
    assert!(ev.iter().any(
        |x| matches!(x, GameEvent::CheckRolled { dc: 1, purpose, .. } if purpose == "stealth")
    ));
    assert!(cs(&e, "ada").ftd.unwrap().hidden);
    assert!(!cs(&e, "ada").actions.standard);
    run(&mut e, &end("ada"));
    turn_of(&mut e, "goon-1");
    run(&mut e, &close_to("goon-1", "ada"));
    assert_eq!(
        refuse(&mut e, &attack("goon-1", "club", "ada")),
        ErrorCode::TargetHidden
    );
    run(&mut e, &end("goon-1"));
    turn_of(&mut e, "ada");
    let ev = run(&mut e, &attack("ada", "sword", "goon-1"));
    assert!(matches!(ev.first(), Some(GameEvent::ActionUsed { .. })));
    assert!(
        ev.contains(&GameEvent::FiveTorches(FiveTorchesEvent::StealthChanged {
            combatant: cid("ada"),
            hidden: false
        }))
    );
    assert!(!cs(&e, "ada").ftd.unwrap().hidden);
    assert_eq!(
        refuse(
            &mut e,
            &Command::Reveal {
                combatant: cid("ada")
            }
        ),
        ErrorCode::InvalidTarget
    );
    // The GM's DC: an impossible one (40) is never met.
    run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::SetStealthDc { dc: Some(40) }),
    );
    turn_of(&mut e, "bram");
    run(&mut e, &Command::Hide { actor: cid("bram") });
    assert!(!cs(&e, "bram").ftd.unwrap().hidden);
}

// Fray invariant (server/src/engine/apply/mod.rs): folding the events rebuilds the state — with
// the clock, lights, load, exhaustion, rests and stealth.
#[test]
fn the_dungeon_clock_folds_back_to_the_same_state() {
    let enc = arena(14, 12, "1d6");
    let mut live = new_engine(&enc, 9);
    let mut log = Vec::new();
    for cmd in [
        carry("ada", Some(LightSource::Torch)),
        carry("bram", Some(LightSource::Lantern)),
        scene(LightLevel::Darkness),
        set_load("cleo", 14, 1200),
        travel(),
        Command::FiveTorches(FiveTorchesCommand::Exhaust {
            combatant: cid("bram"),
        }),
        Command::FiveTorches(FiveTorchesCommand::SetStealthDc { dc: Some(2) }),
        Command::StartBattle,
    ] {
        log.extend(run(&mut live, &cmd));
    }
    log.extend(run(&mut live, &end("boss-1")));
    assert_eq!(current(&live), "ada");
    log.extend(run(&mut live, &Command::Hide { actor: cid("ada") }));
    log.extend(run(&mut live, &Command::EndBattle));
    log.extend(run(
        &mut live,
        &Command::FiveTorches(FiveTorchesCommand::Rest {
            safe: true,
            nights: 1,
        }),
    ));
    let mut folded = new_engine(&enc, 9);
    for x in &log {
        folded.apply(x);
    }
    assert_eq!(folded.state(), live.state());
}

// five-torches-deep-combat.txt § Quick Actions ("The most common form of quick action is a
// readied action, such as when waiting to spring an ambush") and § Types of Actions ("Quick:
// … actions triggered off others")
#[test]
fn a_readied_action_fires_out_of_turn_on_its_trigger() {
    use fray_protocol::event::ActionKind;
    let enc = arena(14, 1, "1d6");
    let mut e = started(&enc, 6);
    turn_of(&mut e, "ada");
    let ready = |action, trigger: &str| {
        Command::FiveTorches(FiveTorchesCommand::ReadyAction {
            actor: cid("ada"),
            action,
            trigger: trigger.into(),
        })
    };
    assert_eq!(
        refuse(&mut e, &ready(ActionKind::Quick, "a goon comes")),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        refuse(&mut e, &ready(ActionKind::Standard, " ")),
        ErrorCode::InvalidArgument
    );
    let ev = run(&mut e, &ready(ActionKind::Standard, "a goon comes close"));
    assert!(
        ev.contains(&GameEvent::FiveTorches(FiveTorchesEvent::ReadyDeclared {
            combatant: cid("ada"),
            action: ActionKind::Standard,
            trigger: "a goon comes close".into()
        }))
    );
    let a = cs(&e, "ada").actions;
    assert!(!a.quick && !a.standard && a.move_action);
    assert_eq!(
        refuse(&mut e, &ready(ActionKind::Move, "again")),
        ErrorCode::InvalidArgument
    );
    // Not yet fired on its own turn: the attack needs an active action it spent.
    assert_eq!(
        refuse(&mut e, &attack("ada", "sword", "goon-1")),
        ErrorCode::ActionAlreadyUsed
    );
    run(&mut e, &end("ada"));
    turn_of(&mut e, "goon-1");
    run(&mut e, &close_to("goon-1", "ada"));
    // The trigger: Ada strikes out of turn, once.
    let ev = run(&mut e, &attack("ada", "sword", "goon-1"));
    assert_eq!(
        ev.first(),
        Some(&GameEvent::ReadiedActionTaken {
            combatant: cid("ada")
        })
    );
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::AttackRolled { .. }))
    );
    assert!(e.state().readied.is_empty());
    assert_ne!(current(&e), "ada");
    assert_eq!(
        refuse(&mut e, &attack("ada", "sword", "goon-2")),
        ErrorCode::NotYourTurn
    );
    // An untaken readied action lapses at the readier's next turn.
    turn_of(&mut e, "bram");
    run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::ReadyAction {
            actor: cid("bram"),
            action: ActionKind::Move,
            trigger: "the boss moves".into(),
        }),
    );
    assert_eq!(e.state().readied.len(), 1);
    run(&mut e, &end("bram"));
    assert_eq!(e.state().readied.len(), 1);
    turn_of(&mut e, "bram");
    assert!(e.state().readied.is_empty());
}

// five-torches-deep-combat.txt § Retreat ("Any retainers or NPCs following a PC who retreats
// must immediately make a morale check at disadvantage. If they fail, they rout and try to
// flee")
#[test]
fn followers_of_a_retreating_pc_check_morale_at_disadvantage() {
    use fray_protocol::ftd::MoraleTrigger;
    let mut enc = arena(14, 12, "1d6");
    for c in &mut enc.combatants {
        if c.id.as_str() == "cleo"
            && let Some(f) = &mut c.ftd
        {
            f.follows = Some(cid("bram"));
        }
    }
    let mut e = started(&enc, 7);
    turn_of(&mut e, "bram");
    let ev = run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::Retreat { actor: cid("bram") }),
    );
    assert!(ev.contains(&GameEvent::MoraleProposed {
        trigger: MoraleTrigger::PcRetreated,
        combatants: vec![cid("cleo")]
    }));
    let ev = run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::MoraleCheck {
            combatants: vec![cid("cleo")],
            group: false,
            advantage: Advantage::Disadvantage,
            on_failure: Default::default(),
        }),
    );
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::FiveTorches(FiveTorchesEvent::MoraleChecked { roll, .. }) if roll.dice.len() == 2))
    );
    // No followers, no proposal.
    let mut e = started(&enc, 7);
    turn_of(&mut e, "ada");
    let ev = run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::Retreat { actor: cid("ada") }),
    );
    assert!(
        !ev.iter()
            .any(|x| matches!(x, GameEvent::MoraleProposed { .. }))
    );
    // Content: a follower names another hero of the encounter.
    let text = r#"
ruleset = "five-torches-deep"
heroes = ["hesk", "zed"]
[[monsters]]
template = "bilge-rat"
[[hero]]
id = "zed"
name = "Zed the torchbearer"
class = "retainer"
level = 1
abilities = { str = 10, dex = 10, con = 10, int = 10, wis = 10, cha = 10 }
ac = 11
hp = 4
follows = "nobody"
[[hero.attacks]]
id = "club"
name = "Club"
kind = "melee"
damage = "1d4"
"#;
    let err = crate::rules::load_encounter("t.toml", text)
        .unwrap_err()
        .to_string();
    assert!(err.contains("'zed' follows 'nobody'"), "{err}");
    let ok = crate::rules::load_encounter("t.toml", &text.replace("nobody", "hesk")).unwrap();
    assert!(ok.combatants.iter().any(|c| {
        c.ftd
            .as_ref()
            .is_some_and(|f| f.follows == Some(cid("hesk")))
    }));
}
