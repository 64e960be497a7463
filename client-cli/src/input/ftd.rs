//! Five Torches Deep's combat verbs (checks, resolve, morale, concentration, retreat, …) and its
//! treasure and travel.

use super::{Input, Menu, menu_for, no_args_for, unknown_command};
use fray_protocol::{CombatantId, Command, FiveTorchesCommand};

/// The verbs ftd_verb parses.
pub(super) const FTD_VERBS: &[&str] = &[
    "check",
    "concentrate",
    "crawl",
    "delay-to",
    "delayto",
    "grant",
    "heal",
    "morale",
    "ready-for",
    "resolve",
    "retreat",
    "unconcentrate",
];

/// The Five Torches Deep verbs (besides treasure and travel, `ftd_treasure_and_travel`).
pub(super) fn ftd_verb(verb: &str, args: &[&str], menu: Option<&Menu>) -> Result<Input, String> {
    let no_args = |input: Input| no_args_for(verb, args, input);
    let need_menu = || menu_for(verb, menu);
    match verb {
        "crawl" => {
            // Five Torches Deep § Movement Actions: special movement at half speed.
            let m = need_menu()?;
            let actor = m.actor.clone();
            let (engage, far_away) = match args {
                [] => (None, false),
                [w] if w.eq_ignore_ascii_case("far") => (None, true),
                [w] => (Some(m.target(w)?), false),
                _ => {
                    return Err(
                        "`crawl`, `crawl TARGET` or `crawl far` (special movement: both actions)"
                            .to_owned(),
                    );
                }
            };
            Ok(Input::Game(Command::FiveTorches(FiveTorchesCommand::SpecialMove {
                actor,
                engage,
                far_away,
            })))
        }
        "ready-for" => {
            let actor = need_menu()?.actor.clone();
            let (action, trigger) = match args.split_first() {
                Some((w, rest)) if w.eq_ignore_ascii_case("move") => {
                    (fray_protocol::event::ActionKind::Move, rest)
                }
                Some((w, rest)) if w.eq_ignore_ascii_case("active") => {
                    (fray_protocol::event::ActionKind::Standard, rest)
                }
                _ => return Err("`ready-for active|move TRIGGER...`".to_owned()),
            };
            if trigger.is_empty() {
                return Err("`ready-for active|move TRIGGER...`: declare the trigger".to_owned());
            }
            Ok(Input::Game(Command::FiveTorches(FiveTorchesCommand::ReadyAction {
                actor,
                action,
                trigger: trigger.join(" "),
            })))
        }
        "retreat" => {
            let actor = need_menu()?.actor.clone();
            no_args(Input::Game(Command::FiveTorches(FiveTorchesCommand::Retreat { actor })))
        }
        "delay-to" | "delayto" => {
            let m = need_menu()?;
            match args {
                [w] => Ok(Input::Game(Command::FiveTorches(FiveTorchesCommand::DelayTo {
                    actor: m.actor.clone(),
                    after: m.anyone(w)?,
                }))),
                _ => Err("`delay-to WHO`: act right after WHO from now on".to_owned()),
            }
        }
        "grant" => match args {
            [who, adv] => Ok(Input::Game(Command::FiveTorches(FiveTorchesCommand::GrantAdvantage {
                combatant: CombatantId::new(who.to_lowercase()),
                advantage: advantage(adv)?,
            }))),
            _ => Err("`grant WHO adv|dis|none` (GM)".to_owned()),
        },
        "check" => match args {
            [who, ability, dc, rest @ ..] => {
                let mut proficient = false;
                let mut adv = fray_protocol::ftd::Advantage::None;
                let mut damage = None;
                let mut task = None;
                for w in rest {
                    match w.to_lowercase().as_str() {
                        "prof" | "proficient" => proficient = true,
                        "adv" | "dis" | "none" => adv = advantage(w)?,
                        t => match light_task(t) {
                            Some(k) => task = Some(k),
                            None => damage = Some(t.to_owned()),
                        },
                    }
                }
                Ok(Input::Game(Command::FiveTorches(FiveTorchesCommand::Check {
                    combatant: CombatantId::new(who.to_lowercase()),
                    ability: ability_word(ability)?,
                    dc: dc.parse().map_err(|_| format!("`{dc}` is not a number"))?,
                    proficient,
                    advantage: adv,
                    damage,
                    purpose: None,
                    task,
                })))
            }
            _ => Err(
                "`check WHO ABILITY DC [prof] [adv|dis] [TASK] [DAMAGE]` (GM; TASK: stealth, listening, sight, defense, danger, finesse, tracking, movement)"
                    .to_owned(),
            ),
        },
        "morale" => {
            let (group, who) = match args.split_first() {
                Some((g, rest)) if g.eq_ignore_ascii_case("group") => (true, rest),
                _ => (false, args),
            };
            if who.is_empty() {
                return Err("`morale [group] WHO...` (GM)".to_owned());
            }
            Ok(Input::Game(Command::FiveTorches(FiveTorchesCommand::MoraleCheck {
                combatants: who
                    .iter()
                    .map(|w| CombatantId::new(w.to_lowercase()))
                    .collect(),
                group,
                advantage: fray_protocol::ftd::Advantage::None,
                on_failure: fray_protocol::ftd::MoraleOutcome::Flee,
            })))
        }
        "heal" => match args {
            [who, dice] => Ok(Input::Game(Command::FiveTorches(FiveTorchesCommand::Heal {
                target: CombatantId::new(who.to_lowercase()),
                dice: dice.to_lowercase(),
                by: None,
            }))),
            _ => Err("`heal WHO DICE` (GM: magic or medicine)".to_owned()),
        },
        "resolve" => {
            let (check, attackers) = match args {
                [ability, dc, rest @ ..] if ability_word(ability).is_ok() => (
                    Some(fray_protocol::command::RetreatCheck {
                        ability: ability_word(ability)?,
                        dc: dc.parse().map_err(|_| format!("`{dc}` is not a number"))?,
                        proficient: false,
                    }),
                    rest,
                ),
                rest => (None, rest),
            };
            Ok(Input::Game(Command::FiveTorches(FiveTorchesCommand::ResolveRetreat {
                check,
                attackers: attackers
                    .iter()
                    .map(|w| CombatantId::new(w.to_lowercase()))
                    .collect(),
            })))
        }
        "concentrate" => {
            let actor = need_menu()?.actor.clone();
            if args.is_empty() {
                return Err("`concentrate EFFECT...`: name the effect".to_owned());
            }
            Ok(Input::Game(Command::FiveTorches(FiveTorchesCommand::Concentrate {
                actor,
                effect: args.join(" "),
            })))
        }
        "unconcentrate" => {
            let actor = need_menu()?.actor.clone();
            no_args(Input::Game(Command::FiveTorches(FiveTorchesCommand::EndConcentration { actor })))
        }
        _ => Err(unknown_command(verb, menu)),
    }
}

fn light_task(w: &str) -> Option<fray_protocol::ftd::LightTask> {
    use fray_protocol::ftd::LightTask;
    match w {
        "stealth" => Some(LightTask::Stealth),
        "listening" | "listen" => Some(LightTask::Listening),
        "sight" => Some(LightTask::Sight),
        "defense" => Some(LightTask::Defense),
        "danger" => Some(LightTask::Danger),
        "finesse" => Some(LightTask::Finesse),
        "tracking" => Some(LightTask::Tracking),
        "movement" => Some(LightTask::Movement),
        _ => None,
    }
}

/// Five Torches Deep § Treasure, § Overland Travel and § Overwater Travel: `loot`, `treasure`,
/// `magic-item`, `sell`, `journey`, `voyage` (`None` for any other verb).
pub(super) fn ftd_treasure_and_travel(verb: &str, args: &[&str]) -> Option<Result<Input, String>> {
    let parsed = match (verb, args) {
        ("loot", [who, enemy]) => ftd(FiveTorchesCommand::Loot {
            looter: lower_id(who),
            enemy: lower_id(enemy),
        }),
        ("loot", _) => Err("`loot WHO ENEMY` (GM)".to_owned()),
        ("treasure", [who, rest @ ..]) if !rest.is_empty() => treasure(who, rest),
        ("treasure", _) => Err("`treasure WHO GP [SP [CP]] [unearned]` (GM)".to_owned()),
        ("magic-item", [who, value, name @ ..]) if !name.is_empty() => {
            number(value).and_then(|value| {
                ftd(FiveTorchesCommand::MagicItem {
                    to: lower_id(who),
                    name: name.join(" "),
                    value,
                })
            })
        }
        ("magic-item", _) => Err("`magic-item WHO VALUE NAME...` (GM)".to_owned()),
        ("sell", [who, gp, name @ ..]) if !name.is_empty() => number(gp).and_then(|gp| {
            ftd(FiveTorchesCommand::SellItem {
                seller: lower_id(who),
                name: name.join(" "),
                gp,
            })
        }),
        ("sell", _) => Err("`sell WHO GP NAME...` (GM)".to_owned()),
        ("journey", [days, rest @ ..]) => journey(days, rest),
        ("journey", _) => Err(
            "`journey DAYS [open|difficult|harsh] [normal|tactical|stealthy] [adv|dis]` (GM)"
                .to_owned(),
        ),
        ("voyage", [vessel, hours, rest @ ..]) => voyage(vessel, hours, rest),
        ("voyage", _) => {
            Err("`voyage boat|ship HOURS [favorable|unfavorable] [adv|dis]` (GM)".to_owned())
        }
        _ => return None,
    };
    Some(parsed)
}

fn lower_id(w: &str) -> CombatantId {
    CombatantId::new(w.to_lowercase())
}

fn number(w: &str) -> Result<u32, String> {
    w.parse::<u32>()
        .map_err(|_| format!("`{w}` is not a number"))
}

fn ftd(c: FiveTorchesCommand) -> Result<Input, String> {
    Ok(Input::Game(Command::FiveTorches(c)))
}

/// `treasure WHO GP [SP [CP]] [unearned]`.
fn treasure(who: &str, rest: &[&str]) -> Result<Input, String> {
    let unearned = rest
        .last()
        .is_some_and(|w| w.eq_ignore_ascii_case("unearned"));
    let coins = if unearned {
        &rest[..rest.len() - 1]
    } else {
        rest
    };
    let [gp, sp, cp] = match coins {
        [gp] => [number(gp)?, 0, 0],
        [gp, sp] => [number(gp)?, number(sp)?, 0],
        [gp, sp, cp] => [number(gp)?, number(sp)?, number(cp)?],
        _ => return Err("`treasure WHO GP [SP [CP]] [unearned]` (GM)".to_owned()),
    };
    ftd(FiveTorchesCommand::Treasure {
        to: lower_id(who),
        gp,
        sp,
        cp,
        unearned,
    })
}

/// `journey DAYS [open|difficult|harsh] [normal|tactical|stealthy] [adv|dis]`.
fn journey(days: &str, rest: &[&str]) -> Result<Input, String> {
    use fray_protocol::ftd::{TravelPace, TravelTerrain};
    let (mut terrain, mut pace) = (TravelTerrain::Open, TravelPace::Normal);
    let mut adv = fray_protocol::ftd::Advantage::None;
    for w in rest {
        match w.to_lowercase().as_str() {
            "open" => terrain = TravelTerrain::Open,
            "difficult" => terrain = TravelTerrain::Difficult,
            "harsh" => terrain = TravelTerrain::Harsh,
            "normal" => pace = TravelPace::Normal,
            "tactical" => pace = TravelPace::Tactical,
            "stealthy" => pace = TravelPace::Stealthy,
            other => adv = advantage(other)?,
        }
    }
    ftd(FiveTorchesCommand::TravelOverland {
        days: number(days)?,
        terrain,
        pace,
        advantage: adv,
    })
}

/// `voyage boat|ship HOURS [favorable|unfavorable] [adv|dis]`.
fn voyage(vessel: &str, hours: &str, rest: &[&str]) -> Result<Input, String> {
    use fray_protocol::ftd::{Current, Vessel};
    let vessel = match vessel.to_lowercase().as_str() {
        "boat" => Vessel::Boat,
        "ship" => Vessel::Ship,
        other => return Err(format!("`{other}`: boat or ship")),
    };
    let mut current = Current::Neutral;
    let mut adv = fray_protocol::ftd::Advantage::None;
    for w in rest {
        match w.to_lowercase().as_str() {
            "favorable" => current = Current::Favorable,
            "unfavorable" => current = Current::Unfavorable,
            other => adv = advantage(other)?,
        }
    }
    ftd(FiveTorchesCommand::TravelOverwater {
        vessel,
        hours: number(hours)?,
        current,
        advantage: adv,
    })
}

pub(super) fn advantage(w: &str) -> Result<fray_protocol::ftd::Advantage, String> {
    use fray_protocol::ftd::Advantage;
    match w.to_lowercase().as_str() {
        "adv" | "advantage" => Ok(Advantage::Advantage),
        "dis" | "disadvantage" => Ok(Advantage::Disadvantage),
        "none" => Ok(Advantage::None),
        other => Err(format!("`{other}` is not adv, dis or none")),
    }
}

fn ability_word(w: &str) -> Result<fray_protocol::ftd::Ability, String> {
    use fray_protocol::ftd::Ability;
    match w.to_lowercase().as_str() {
        "str" => Ok(Ability::Str),
        "dex" => Ok(Ability::Dex),
        "con" => Ok(Ability::Con),
        "int" => Ok(Ability::Int),
        "wis" => Ok(Ability::Wis),
        "cha" => Ok(Ability::Cha),
        other => Err(format!("`{other}` is not str, dex, con, int, wis or cha")),
    }
}
