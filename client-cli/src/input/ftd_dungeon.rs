//! Five Torches Deep's dungeon verbs: light and torches, time dice, travel, camping, loads,
//! stealth, exhaustion, corruption.

use super::ftd::advantage;
use super::{Input, Menu, menu_for, unknown_command};
use fray_protocol::ftd::TimeDicePurpose;
use fray_protocol::{CombatantId, Command, FiveTorchesCommand};

/// The verbs ftd_dungeon_verb parses.
pub(super) const FTD_DUNGEON_VERBS: &[&str] = &[
    "camp",
    "chase",
    "corrupt",
    "cure",
    "douse",
    "exhaust",
    "lantern",
    "light",
    "load",
    "resilience",
    "return",
    "set-time",
    "stealth-dc",
    "time-dice",
    "torch",
    "travel",
];

/// The Five Torches Deep verbs of the dungeon and the road: light, load, travel turns, resilience, rolling to return, chases, corruption, the time dice, rests, stealth.
pub(super) fn ftd_dungeon_verb(
    verb: &str,
    args: &[&str],
    menu: Option<&Menu>,
) -> Result<Input, String> {
    let need_menu = || menu_for(verb, menu);
    match verb {
        "light" => {
            let (who, level) = match args {
                [level] => (None, *level),
                [who, level] => (Some(CombatantId::new(who.to_lowercase())), *level),
                _ => return Err(LIGHT_HELP.to_owned()),
            };
            let light = match level.to_lowercase().as_str() {
                "scene" if who.is_some() => None,
                w => Some(light_level(w).ok_or_else(|| LIGHT_HELP.to_owned())?),
            };
            Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::SetLight {
                    combatant: who,
                    light,
                },
            )))
        }
        "torch" | "lantern" | "douse" => {
            use fray_protocol::ftd::LightSource;
            let actor = match args {
                [w] => CombatantId::new(w.to_lowercase()),
                [] => need_menu()?.actor.clone(),
                _ => {
                    return Err(
                        "`torch|lantern|douse [WHO]`: light a fresh one, or put it out".to_owned(),
                    );
                }
            };
            Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::CarryLight {
                    actor,
                    source: match verb {
                        "torch" => Some(LightSource::Torch),
                        "lantern" => Some(LightSource::Lantern),
                        _ => None,
                    },
                },
            )))
        }
        "load" => match args {
            [who, load, rest @ ..] if rest.len() <= 1 => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::SetLoad {
                    combatant: CombatantId::new(who.to_lowercase()),
                    load: load
                        .parse()
                        .map_err(|_| format!("`{load}` is not a number"))?,
                    coins: match rest.first() {
                        Some(c) => c.parse().map_err(|_| format!("`{c}` is not a number"))?,
                        None => 0,
                    },
                },
            ))),
            _ => Err("`load WHO LOAD [COINS]` (GM)".to_owned()),
        },
        "travel" => match args {
            [] => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::TravelTurn {
                    advantage: fray_protocol::ftd::Advantage::None,
                },
            ))),
            [adv] => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::TravelTurn {
                    advantage: advantage(adv)?,
                },
            ))),
            _ => Err("`travel [adv|dis]` (GM: a travel turn)".to_owned()),
        },
        "resilience" => match args {
            [who] => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::ResilienceCheck {
                    combatant: CombatantId::new(who.to_lowercase()),
                },
            ))),
            _ => Err("`resilience WHO` (GM)".to_owned()),
        },
        "return" => {
            let path = match args.first().map(|w| w.to_lowercase()) {
                Some(w) if w == "dangerous" => fray_protocol::ftd::ReturnPath::Dangerous,
                Some(w) if w == "arduous" => fray_protocol::ftd::ReturnPath::Arduous,
                _ => {
                    return Err(
                        "`return dangerous|arduous [WHO..]` (GM: roll to return)".to_owned()
                    );
                }
            };
            Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::RollToReturn {
                    path,
                    combatants: args
                        .iter()
                        .skip(1)
                        .map(|w| CombatantId::new(w.to_lowercase()))
                        .collect(),
                },
            )))
        }
        "chase" => {
            let usage = "`chase open|uneven|overland SPEED WHO.. [group] [adv|dis] [dc=N]` (GM)";
            let (Some(terrain), Some(speed)) = (args.first(), args.get(1)) else {
                return Err(usage.to_owned());
            };
            let terrain = match terrain.to_lowercase().as_str() {
                "open" => fray_protocol::ftd::ChaseTerrain::Open,
                "uneven" => fray_protocol::ftd::ChaseTerrain::Uneven,
                "overland" => fray_protocol::ftd::ChaseTerrain::Overland,
                _ => return Err(usage.to_owned()),
            };
            let speed = speed
                .parse()
                .map_err(|_| format!("`{speed}` is not a speed in feet"))?;
            let (mut group, mut adv, mut dc_modifier) =
                (false, fray_protocol::ftd::Advantage::None, 0);
            let mut pursuers = Vec::new();
            for w in args.iter().skip(2) {
                let lw = w.to_lowercase();
                if lw == "group" {
                    group = true;
                } else if lw == "adv" || lw == "dis" {
                    adv = advantage(&lw)?;
                } else if let Some(n) = lw.strip_prefix("dc=") {
                    dc_modifier = n.parse().map_err(|_| format!("`{n}` is not a number"))?;
                } else {
                    pursuers.push(CombatantId::new(lw));
                }
            }
            Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::Chase {
                    pursuers,
                    speed,
                    terrain,
                    group,
                    advantage: adv,
                    dc_modifier,
                },
            )))
        }
        "corrupt" => match args {
            [who, rest @ ..] if rest.len() <= 2 => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::CorruptionCheck {
                    combatant: CombatantId::new(who.to_lowercase()),
                    name: rest.first().map(|w| w.replace('_', " ")),
                    dc: match rest.get(1) {
                        Some(dc) => Some(dc.parse().map_err(|_| format!("`{dc}` is not a DC"))?),
                        None => None,
                    },
                    check: None,
                    damages: None,
                },
            ))),
            _ => Err("`corrupt WHO [NAME [DC]]` (GM; NAME with _ for spaces)".to_owned()),
        },
        "time-dice" => {
            let usage = "`time-dice N [duration|from HOUR]` (GM: N is 1-4, or 1-2 from HOUR)";
            let num = |w: &str| w.parse::<u32>().map_err(|_| usage.to_owned());
            match args {
                [n] => Ok(Input::Game(Command::FiveTorches(
                    FiveTorchesCommand::RollTimeDice {
                        dice: num(n)?,
                        purpose: TimeDicePurpose::TimeOfDay,
                        start_hour: None,
                    },
                ))),
                [n, d] if d.eq_ignore_ascii_case("duration") => Ok(Input::Game(
                    Command::FiveTorches(FiveTorchesCommand::RollTimeDice {
                        dice: num(n)?,
                        purpose: TimeDicePurpose::Duration,
                        start_hour: None,
                    }),
                )),
                [n, f, h] if f.eq_ignore_ascii_case("from") => Ok(Input::Game(
                    Command::FiveTorches(FiveTorchesCommand::RollTimeDice {
                        dice: num(n)?,
                        purpose: TimeDicePurpose::TimeOfDay,
                        start_hour: Some(num(h)?),
                    }),
                )),
                _ => Err(usage.to_owned()),
            }
        }
        "set-time" => match args {
            [h] => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::SetTime {
                    hour: h
                        .parse()
                        .map_err(|_| format!("`{h}` is not an hour (0-23)"))?,
                },
            ))),
            _ => Err("`set-time HOUR` (GM: 0-23)".to_owned()),
        },
        "cure" => match args {
            [who] => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::EndCorruption {
                    combatant: CombatantId::new(who.to_lowercase()),
                },
            ))),
            _ => Err("`cure WHO` (GM: the corruption ends)".to_owned()),
        },
        "exhaust" => match args {
            [who] => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::Exhaust {
                    combatant: CombatantId::new(who.to_lowercase()),
                },
            ))),
            _ => Err("`exhaust WHO` (GM)".to_owned()),
        },
        "camp" => {
            let safe = match args.first().map(|w| w.to_lowercase()) {
                Some(w) if w == "safe" => true,
                Some(w) if w == "unsafe" => false,
                _ => return Err("`camp safe|unsafe [NIGHTS]` (GM: the party rests)".to_owned()),
            };
            let nights = match args.get(1) {
                Some(n) => n.parse().map_err(|_| format!("`{n}` is not a number"))?,
                None => 1,
            };
            Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::Rest { safe, nights },
            )))
        }
        "stealth-dc" => match args {
            [w] if w.eq_ignore_ascii_case("default") => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::SetStealthDc { dc: None },
            ))),
            [w] => Ok(Input::Game(Command::FiveTorches(
                FiveTorchesCommand::SetStealthDc {
                    dc: Some(w.parse().map_err(|_| format!("`{w}` is not a number"))?),
                },
            ))),
            _ => Err("`stealth-dc N|default` (GM)".to_owned()),
        },
        _ => Err(unknown_command(verb, menu)),
    }
}

const LIGHT_HELP: &str =
    "`light [WHO] dark|dim|lit|brilliant` (GM; `light WHO scene`: back to the scene's light)";

fn light_level(w: &str) -> Option<fray_protocol::ftd::LightLevel> {
    use fray_protocol::ftd::LightLevel;
    match w {
        "dark" | "darkness" => Some(LightLevel::Darkness),
        "dim" => Some(LightLevel::Dim),
        "lit" | "well-lit" | "well_lit" => Some(LightLevel::WellLit),
        "brilliant" | "bright" => Some(LightLevel::Brilliant),
        _ => None,
    }
}
