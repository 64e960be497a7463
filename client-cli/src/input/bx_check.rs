//! Old-School Essentials' and Basic Fantasy's checks and saves, pursuits and evasion, falls,
//! drowning, healing and cures.

use super::{Input, Menu, no_args_for, parse, unknown_command};
use fray_protocol::{BxCommand, CombatantId, Command};

/// The verbs bx_check_verb parses.
pub(super) const BX_CHECK_VERBS: &[&str] = &[
    "bomb",
    "bx-check",
    "bx-cure",
    "bx-heal",
    "distance",
    "drown",
    "end-pursuit",
    "evade",
    "fall",
    "lure",
    "pursue",
    "pursuit-round",
    "save",
    "save-half",
];

/// The Old-School Essentials and Basic Fantasy GM's checks and hazards: saves, ability checks, falls, bombs, healing, drowning, the encounter distance, evasion and pursuit.
pub(super) fn bx_check_verb(
    verb: &str,
    args: &[&str],
    menu: Option<&Menu>,
) -> Result<Input, String> {
    let no_args = |input: Input| no_args_for(verb, args, input);
    match verb {
        "pursue" => {
            use fray_protocol::ose::EncounterSetting;
            let usage = "`pursue dungeon FLEE PURSUE [RUNNER...]`, `pursue water FLEE PURSUE \
                         DISTANCE` or `pursue wilderness FLEE PURSUE` (GM)";
            let [place, fr, pr, rest @ ..] = args else {
                return Err(usage.to_owned());
            };
            let num = |n: &str| n.parse::<u32>().map_err(|_| usage.to_owned());
            let setting = match place.to_lowercase().as_str() {
                "dungeon" => EncounterSetting::Dungeon,
                "wilderness" => EncounterSetting::Wilderness,
                "water" | "waterborne" => EncounterSetting::Waterborne,
                _ => return Err(usage.to_owned()),
            };
            let (runners, distance) = match (setting, rest) {
                (EncounterSetting::Dungeon, r) => (
                    r.iter()
                        .map(|w| CombatantId::new(w.to_lowercase()))
                        .collect(),
                    None,
                ),
                (EncounterSetting::Waterborne, [d]) => (Vec::new(), Some(num(d)?)),
                (EncounterSetting::Wilderness, []) => (Vec::new(), None),
                _ => return Err(usage.to_owned()),
            };
            Ok(Input::Game(Command::Bx(BxCommand::StartPursuit {
                setting,
                fleeing_rate: num(fr)?,
                pursuer_rate: num(pr)?,
                runners,
                distance,
            })))
        }
        "pursuit-round" => no_args(Input::Game(Command::Bx(BxCommand::PursuitRound {}))),
        "lure" => {
            use fray_protocol::pursuit::Lure;
            match args {
                [l] if l.eq_ignore_ascii_case("treasure") => {
                    Ok(Input::Game(Command::Bx(BxCommand::DropLure {
                        lure: Lure::Treasure,
                    })))
                }
                [l] if l.eq_ignore_ascii_case("food") => {
                    Ok(Input::Game(Command::Bx(BxCommand::DropLure {
                        lure: Lure::Food,
                    })))
                }
                _ => Err("`lure treasure|food` (GM)".to_owned()),
            }
        }
        "end-pursuit" => match args {
            [] => Ok(Input::Game(Command::Bx(BxCommand::EndPursuit {
                caught: false,
            }))),
            [c] if c.eq_ignore_ascii_case("caught") => {
                Ok(Input::Game(Command::Bx(BxCommand::EndPursuit {
                    caught: true,
                })))
            }
            _ => Err("`end-pursuit [caught]` (GM)".to_owned()),
        },
        "save-half" => match args {
            [who, cat, dice, rest @ ..] if rest.len() <= 1 => {
                let Input::Game(Command::Bx(BxCommand::SavingThrow {
                    combatant,
                    category,
                    modifier,
                })) = parse(&format!("save {who} {cat} {}", rest.join(" ")), menu)?
                else {
                    return Err("`save-half WHO CATEGORY DICE [MODIFIER]` (GM)".to_owned());
                };
                Ok(Input::Game(Command::Bx(BxCommand::SaveForHalf {
                    combatant,
                    category,
                    damage: dice.to_lowercase(),
                    modifier,
                })))
            }
            _ => Err("`save-half WHO CATEGORY DICE [MODIFIER]` (GM)".to_owned()),
        },
        "bx-check" => {
            use fray_protocol::ose::OseAbility;
            match args {
                [who, ab, rest @ ..] if rest.len() <= 1 => {
                    let ability = match ab.to_lowercase().as_str() {
                        "str" => OseAbility::Str,
                        "int" => OseAbility::Int,
                        "wis" => OseAbility::Wis,
                        "dex" => OseAbility::Dex,
                        "con" => OseAbility::Con,
                        "cha" => OseAbility::Cha,
                        other => return Err(format!("`{other}`: str, int, wis, dex, con or cha")),
                    };
                    let modifier = match rest {
                        [n] => n.parse().map_err(|_| format!("`{n}` is not a number"))?,
                        _ => 0,
                    };
                    Ok(Input::Game(Command::Bx(BxCommand::AbilityCheck {
                        combatant: CombatantId::new(who.to_lowercase()),
                        ability,
                        modifier,
                    })))
                }
                _ => Err("`bx-check WHO str|int|wis|dex|con|cha [MODIFIER]` (GM)".to_owned()),
            }
        }
        "bomb" => match args {
            [who, alt, dice, targets @ ..] if !targets.is_empty() => {
                let altitude: u32 = alt
                    .parse()
                    .map_err(|_| format!("`{alt}` is not a number"))?;
                Ok(Input::Game(Command::Bx(BxCommand::Bomb {
                    attacker: CombatantId::new(who.to_lowercase()),
                    targets: targets
                        .iter()
                        .map(|t| CombatantId::new(t.to_lowercase()))
                        .collect(),
                    damage: (*dice).to_owned(),
                    altitude,
                })))
            }
            _ => Err("`bomb FLIER ALTITUDE DICE TARGET...` (GM)".to_owned()),
        },
        "fall" | "bx-heal" => match args {
            [who, n] => {
                let n: u32 = n.parse().map_err(|_| format!("`{n}` is not a number"))?;
                let combatant = CombatantId::new(who.to_lowercase());
                Ok(Input::Game(if verb == "fall" {
                    Command::Bx(BxCommand::Fall { combatant, feet: n })
                } else {
                    Command::Bx(BxCommand::NaturalHealing { combatant, days: n })
                }))
            }
            _ if verb == "fall" => Err("`fall WHO FEET` (GM)".to_owned()),
            _ => Err("`bx-heal WHO DAYS` (GM)".to_owned()),
        },
        "bx-cure" => match args {
            [who, dice, source @ ..] if !source.is_empty() => {
                Ok(Input::Game(Command::Bx(BxCommand::MagicalHealing {
                    target: CombatantId::new(who.to_lowercase()),
                    dice: (*dice).to_owned(),
                    source: source.join(" "),
                })))
            }
            _ => Err("`bx-cure WHO DICE SOURCE...` (GM: magical healing)".to_owned()),
        },
        "drown" => match args {
            [who, chance] => match chance.trim_end_matches('%').parse::<u32>() {
                Ok(chance) => Ok(Input::Game(Command::Bx(BxCommand::DrowningCheck {
                    combatant: CombatantId::new(who.to_lowercase()),
                    chance,
                }))),
                Err(_) => Err(format!(
                    "`{chance}` is not a percent chance; `drown WHO CHANCE` (GM)"
                )),
            },
            _ => Err("`drown WHO CHANCE` (GM: the referee's chance of drowning, 1-99)".to_owned()),
        },
        "distance" => {
            use fray_protocol::ose::EncounterSetting;
            let usage = "`distance dungeon|wilderness|water [surprised]` (GM)";
            let (place, surprised) = match args {
                [p] => (p, false),
                [p, s] if s.eq_ignore_ascii_case("surprised") => (p, true),
                _ => return Err(usage.to_owned()),
            };
            let setting = match place.to_lowercase().as_str() {
                "dungeon" => EncounterSetting::Dungeon,
                "wilderness" => EncounterSetting::Wilderness,
                "water" | "waterborne" => EncounterSetting::Waterborne,
                _ => return Err(usage.to_owned()),
            };
            Ok(Input::Game(Command::Bx(BxCommand::RollEncounterDistance {
                setting,
                surprised,
            })))
        }
        "evade" => {
            use fray_protocol::ose::{EncounterSetting, EvasionSurprise};
            let usage = "`evade dungeon|water FLEE_RATE PURSUE_RATE` or `evade wilderness \
                         FLEE_RATE PURSUE_RATE FLEEING PURSUERS [surprised|surprising] [±PCT]` (GM)";
            let num = |a: &&str| a.parse::<u32>().map_err(|_| usage.to_owned());
            let (place, rest) = args.split_first().ok_or_else(|| usage.to_owned())?;
            let setting = match place.to_lowercase().as_str() {
                "dungeon" => EncounterSetting::Dungeon,
                "wilderness" => EncounterSetting::Wilderness,
                "water" | "waterborne" => EncounterSetting::Waterborne,
                _ => return Err(usage.to_owned()),
            };
            let [fr, pr, more @ ..] = rest else {
                return Err(usage.to_owned());
            };
            let (mut fleeing, mut pursuers, mut surprise, mut modifier) = (0, 0, None, 0);
            if setting == EncounterSetting::Wilderness {
                let [f, p, opts @ ..] = more else {
                    return Err(usage.to_owned());
                };
                fleeing = num(f)?;
                pursuers = num(p)?;
                for o in opts {
                    match o.to_lowercase().as_str() {
                        "surprised" => surprise = Some(EvasionSurprise::Surprised),
                        "surprising" => surprise = Some(EvasionSurprise::Surprising),
                        m => modifier = m.parse::<i32>().map_err(|_| usage.to_owned())?,
                    }
                }
            } else if !more.is_empty() {
                return Err(usage.to_owned());
            }
            Ok(Input::Game(Command::Bx(BxCommand::AttemptEvasion {
                setting,
                fleeing_rate: num(fr)?,
                pursuer_rate: num(pr)?,
                fleeing,
                pursuers,
                surprise,
                modifier,
            })))
        }
        "save" => {
            use fray_protocol::ose::SaveCategory;
            match args {
                [who, cat, rest @ ..] if rest.len() <= 1 => {
                    let category = match cat.to_lowercase().as_str() {
                        "death" | "poison" | "d" => SaveCategory::Death,
                        "wands" | "wand" | "w" => SaveCategory::Wands,
                        "paralysis" | "petrification" | "p" => SaveCategory::Paralysis,
                        "breath" | "b" => SaveCategory::Breath,
                        "spells" | "spell" | "s" => SaveCategory::Spells,
                        other => {
                            return Err(format!(
                                "`{other}`: death, wands, paralysis, breath or spells"
                            ));
                        }
                    };
                    let modifier = match rest {
                        [n] => n.parse().map_err(|_| format!("`{n}` is not a number"))?,
                        _ => 0,
                    };
                    Ok(Input::Game(Command::Bx(BxCommand::SavingThrow {
                        combatant: CombatantId::new(who.to_lowercase()),
                        category,
                        modifier,
                    })))
                }
                _ => {
                    Err("`save WHO death|wands|paralysis|breath|spells [MODIFIER]` (GM)".to_owned())
                }
            }
        }
        _ => Err(unknown_command(verb, menu)),
    }
}
