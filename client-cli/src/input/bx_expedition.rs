//! Old-School Essentials' and Basic Fantasy's verbs between encounters: secret rolls,
//! exploration turns, light, retainers, experience, days of travel, loads, the sea.

use super::bx::ids;
use super::{Input, Menu, unknown_command};
use fray_protocol::{BxCommand, CombatantId, Command};

/// The verbs bx_expedition_verb parses.
pub(super) const BX_EXPEDITION_VERBS: &[&str] = &[
    "bx-candle",
    "bx-day",
    "bx-douse",
    "bx-effect",
    "bx-gale",
    "bx-hire",
    "bx-light",
    "bx-load",
    "bx-loyalty",
    "bx-sail",
    "bx-turn",
    "bx-voyage",
    "bx-wind",
    "bx-xp",
    "gale",
    "secret",
    "xturn",
];

/// The Old-School Essentials and Basic Fantasy verbs between encounters: secret rolls, exploration turns, light, retainers, experience, days of travel, the sea.
pub(super) fn bx_expedition_verb(
    verb: &str,
    args: &[&str],
    menu: Option<&Menu>,
) -> Result<Input, String> {
    match verb {
        "secret" => secret_roll(args),
        "bx-turn" | "xturn" => {
            let mut wandering = None;
            let mut rest = false;
            for w in args {
                match w.parse::<u32>() {
                    Ok(n) => wandering = Some(n),
                    Err(_) if w.eq_ignore_ascii_case("rest") => rest = true,
                    Err(_) => {
                        return Err(
                            "`bx-turn [CHANCE] [rest]`: an exploration turn passes (GM)".to_owned()
                        );
                    }
                }
            }
            Ok(Input::Game(Command::Bx(BxCommand::ExplorationTurn {
                wandering,
                rest,
            })))
        }
        "bx-hire" | "bx-loyalty" => {
            let adj = |w: Option<&&str>| -> Result<i32, String> {
                w.map_or(Ok(0), |w| {
                    w.parse::<i32>().map_err(|_| format!("`{w}`: a number"))
                })
            };
            match (verb, args) {
                ("bx-hire", [who, cand, rest @ ..]) if rest.len() <= 1 => {
                    Ok(Input::Game(Command::Bx(BxCommand::HireRetainer {
                        employer: CombatantId::new(who.to_lowercase()),
                        retainer: CombatantId::new(cand.to_lowercase()),
                        adjustment: adj(rest.first())?,
                    })))
                }
                ("bx-loyalty", [who, rest @ ..]) if rest.len() <= 1 => {
                    Ok(Input::Game(Command::Bx(BxCommand::LoyaltyCheck {
                        retainer: CombatantId::new(who.to_lowercase()),
                        adjustment: adj(rest.first())?,
                    })))
                }
                _ => Err("`bx-hire WHO CANDIDATE [ADJ]` / `bx-loyalty WHO [ADJ]` (GM)".to_owned()),
            }
        }
        "bx-xp" => {
            let Some((who, rest)) = args.split_first() else {
                return Err("`bx-xp A,B,.. [BONUS] [MONSTER..]` (GM)".to_owned());
            };
            let party = ids(who);
            let mut bonus = 0;
            let mut monsters = Vec::new();
            for w in rest {
                match w.parse::<u32>() {
                    Ok(n) => bonus = n,
                    Err(_) => monsters.push(CombatantId::new(w.to_lowercase())),
                }
            }
            Ok(Input::Game(Command::Bx(BxCommand::AwardXp {
                monsters,
                bonus,
                party,
            })))
        }
        "bx-sail" => water_day(args),
        "bx-day"
            if args
                .first()
                .is_some_and(|w| w.eq_ignore_ascii_case("water")) =>
        {
            water_day(&args[1..])
        }
        "bx-candle" => match args {
            [who, inches] => Ok(Input::Game(Command::Bx(BxCommand::LightCandle {
                carrier: CombatantId::new(who.to_lowercase()),
                inches: inches
                    .trim_end_matches('"')
                    .parse()
                    .map_err(|_| format!("`{inches}` is not a height in inches (1-24)"))?,
            }))),
            _ => Err("`bx-candle WHO INCHES` (GM: a taper candle, 1-24 inches high)".to_owned()),
        },
        "bx-day" => {
            use fray_protocol::bf::{March, Terrain};
            let mut march = March::Normal;
            let mut terrain = Terrain::Clear;
            let (mut unfed, mut no_water, mut leader) = (Vec::new(), Vec::new(), None);
            for w in args {
                let w = w.to_lowercase();
                if let Some(v) = w.strip_prefix("unfed=") {
                    unfed = ids(v);
                } else if let Some(v) = w.strip_prefix("nowater=") {
                    no_water = ids(v);
                } else if let Some(v) = w.strip_prefix("leader=") {
                    leader = Some(CombatantId::new(v));
                } else {
                    match w.as_str() {
                        "rest" => march = March::Rest,
                        "normal" => march = March::Normal,
                        "forced" => march = March::Forced,
                        "air" => march = March::Air,
                        "jungle" => terrain = Terrain::Jungle,
                        "mountains" => terrain = Terrain::Mountains,
                        "swamp" => terrain = Terrain::Swamp,
                        "desert" => terrain = Terrain::Desert,
                        "forest" | "woods" => terrain = Terrain::Forest,
                        "hills" => terrain = Terrain::Hills,
                        "barren" | "broken" => terrain = Terrain::Barren,
                        "clear" | "plains" | "trail" => terrain = Terrain::Clear,
                        "grasslands" => terrain = Terrain::Grasslands,
                        "settled" | "city" => terrain = Terrain::Settled,
                        "road" => terrain = Terrain::Road,
                        other => {
                            return Err(format!(
                                "`{other}`: rest|normal|forced|air, a terrain, unfed=, nowater= or leader="
                            ));
                        }
                    }
                }
            }
            Ok(Input::Game(Command::Bx(BxCommand::PassDay {
                march,
                terrain,
                unfed,
                no_water,
                leader,
                water: None,
            })))
        }
        "bx-load" => match args {
            [who, armor, lb, rest @ ..]
                if rest.is_empty() || matches!(rest, [t] if t.eq_ignore_ascii_case("treasure")) =>
            {
                use fray_protocol::bf::ArmorType;
                let armor = match armor.to_lowercase().as_str() {
                    "none" | "unarmored" => ArmorType::None,
                    "leather" | "light" => ArmorType::Leather,
                    "metal" | "heavy" => ArmorType::Metal,
                    other => {
                        return Err(format!(
                            "`{other}`: none, leather or metal (OSE: unarmored, light, heavy)"
                        ));
                    }
                };
                let load = lb
                    .parse::<u32>()
                    .map_err(|_| format!("`{lb}`: pounds (OSE: coins of weight)"))?;
                Ok(Input::Game(Command::Bx(BxCommand::SetEncumbrance {
                    combatant: CombatantId::new(who.to_lowercase()),
                    armor,
                    load,
                    treasure: !rest.is_empty(),
                })))
            }
            _ => Err("`bx-load WHO none|leather|metal LOAD [treasure]` (GM)".to_owned()),
        },
        "bx-wind" => Ok(Input::Game(Command::Bx(BxCommand::RollWind {}))),
        "bx-gale" => match args {
            [h] => Ok(Input::Game(Command::Bx(BxCommand::GaleDamage {
                hours: h.parse().map_err(|_| format!("`{h}` is not a number"))?,
            }))),
            _ => Err("`bx-gale HOURS` (GM)".to_owned()),
        },
        "gale" => {
            let usage = "`gale near|full seaworthy|unseaworthy [land] [clear]` (GM)";
            let [kind, ship, rest @ ..] = args else {
                return Err(usage.to_owned());
            };
            let near = match kind.to_lowercase().as_str() {
                "near" => true,
                "full" => false,
                _ => return Err(usage.to_owned()),
            };
            let seaworthy = match ship.to_lowercase().as_str() {
                "seaworthy" => true,
                "unseaworthy" => false,
                _ => return Err(usage.to_owned()),
            };
            let (mut land, mut clear_shore) = (false, false);
            for w in rest {
                match w.to_lowercase().as_str() {
                    "land" => land = true,
                    "clear" => clear_shore = true,
                    _ => return Err(usage.to_owned()),
                }
            }
            Ok(Input::Game(Command::Bx(BxCommand::GaleStrikes {
                near,
                seaworthy,
                land,
                clear_shore,
            })))
        }
        "bx-effect" => {
            let Some((turns, rest)) = args.split_first() else {
                return Err("`bx-effect TURNS [@WHO] NAME` (GM)".to_owned());
            };
            let turns = turns
                .parse::<u32>()
                .map_err(|_| format!("`{turns}`: a number of turns"))?;
            let mut combatant = None;
            let mut name = Vec::new();
            for w in rest {
                match w.strip_prefix('@') {
                    Some(c) => combatant = Some(CombatantId::new(c.to_lowercase())),
                    None => name.push(*w),
                }
            }
            Ok(Input::Game(Command::Bx(BxCommand::TimeEffect {
                name: name.join(" "),
                combatant,
                turns,
            })))
        }
        "bx-light" | "bx-douse" => {
            use fray_protocol::ose::LightSource;
            match args {
                [who, src] => {
                    let carrier = CombatantId::new(who.to_lowercase());
                    let source = match src.to_lowercase().as_str() {
                        "torch" => LightSource::Torch,
                        "lantern" | "oil" => LightSource::Lantern,
                        // A candle is lit with `bx-candle` (its height); it is doused here.
                        "candle" if verb == "bx-douse" => LightSource::Candle,
                        other if verb == "bx-douse" => {
                            return Err(format!("`{other}`: torch, lantern or candle"));
                        }
                        other => {
                            return Err(format!(
                                "`{other}`: torch or lantern (a candle: `bx-candle WHO INCHES`)"
                            ));
                        }
                    };
                    Ok(Input::Game(if verb == "bx-light" {
                        Command::Bx(BxCommand::LightSource { carrier, source })
                    } else {
                        Command::Bx(BxCommand::DouseLight { carrier, source })
                    }))
                }
                _ if verb == "bx-douse" => {
                    Err("`bx-douse WHO torch|lantern|candle` (GM)".to_owned())
                }
                _ => Err(format!("`{verb} WHO torch|lantern` (GM)")),
            }
        }
        "bx-voyage" => bf_voyage(args),
        _ => Err(unknown_command(verb, menu)),
    }
}

/// `secret KIND [WHO] [CHANCE] [@AREA]` (GM): a roll the players do not see (OSE § Secret
/// rolls: searching, traps, listening, wandering monsters, doors).
fn secret_roll(args: &[&str]) -> Result<Input, String> {
    use fray_protocol::ose::SecretCheck;
    let Some((what, rest)) = args.split_first() else {
        return Err(
            "`secret search|traps|listen|wandering|stuck|locked|bars|trigger [WHO] [CHANCE] [@AREA]` (GM)"
                .to_owned(),
        );
    };
    let check = match what.to_lowercase().as_str() {
        "search" | "door" | "doors" => SecretCheck::SecretDoor,
        "traps" | "trap" => SecretCheck::RoomTrap,
        "listen" => SecretCheck::Listen,
        "wandering" | "wander" => SecretCheck::WanderingMonster,
        "stuck" => SecretCheck::StuckDoor,
        "locked" => SecretCheck::LockedDoor,
        "bars" | "bar" => SecretCheck::Bars,
        "trigger" | "springs" => SecretCheck::TrapTrigger,
        other => {
            return Err(format!(
                "`{other}`: search, traps, listen, wandering, stuck, locked, bars or trigger"
            ));
        }
    };
    let mut combatant = None;
    // ose § Traps, Triggering Traps: "a 2-in-6 chance of the trap being sprung".
    let mut chance = if check == SecretCheck::TrapTrigger {
        2
    } else {
        1
    };
    let mut area = None;
    for w in rest {
        if let Some(a) = w.strip_prefix('@') {
            area = Some(a.to_lowercase());
            continue;
        }
        match w.parse::<u32>() {
            Ok(n) => chance = n,
            Err(_) => combatant = Some(CombatantId::new(w.to_lowercase())),
        }
    }
    Ok(Input::Game(Command::Bx(BxCommand::SecretRoll {
        check,
        combatant,
        chance,
        area,
    })))
}
/// `bx-voyage SAIL ROW [navigator] [coastal] [tacking] [unfed=A,B] [nowater=A,B]` (Basic
/// Fantasy's `sail`).
fn bf_voyage(args: &[&str]) -> Result<Input, String> {
    const USAGE: &str = "`bx-voyage SAIL ROW [navigator] [coastal] [tacking] [unfed=A,B] [nowater=A,B]` (GM; SAIL, ROW: miles per 12-hour day, 0 for none)";
    let [sail, row, rest @ ..] = args else {
        return Err(USAGE.into());
    };
    let (Ok(sailing_miles), Ok(rowing_miles)) = (sail.parse::<u32>(), row.parse::<u32>()) else {
        return Err(format!("SAIL and ROW are miles per day; {USAGE}"));
    };
    let (mut navigator, mut stops_at_night, mut against_wind) = (false, false, false);
    let (mut unfed, mut no_water) = (Vec::new(), Vec::new());
    for w in rest {
        let w = w.to_lowercase();
        if let Some(v) = w.strip_prefix("unfed=") {
            unfed = ids(v);
        } else if let Some(v) = w.strip_prefix("nowater=") {
            no_water = ids(v);
        } else {
            match w.as_str() {
                "navigator" => navigator = true,
                "coastal" => stops_at_night = true,
                "tacking" => against_wind = true,
                other => return Err(format!("`{other}`: {USAGE}")),
            }
        }
    }
    Ok(Input::Game(Command::Bx(BxCommand::Sail {
        sailing_miles,
        rowing_miles,
        navigator,
        stops_at_night,
        against_wind,
        unfed,
        no_water,
    })))
}

/// `bx-sail RATE sea|coast|river|swamp [downstream|upstream] [navigator] [unfed=A,B]
/// [nowater=A,B] [leader=X]`: a day on the water (`pass_day` `march` `water`, OSE § Waterborne
/// Adventuring, Travel on the Water).
fn water_day(args: &[&str]) -> Result<Input, String> {
    use fray_protocol::bf::{March, Terrain};
    use fray_protocol::ose::{Current, WaterDay, Waters};
    const USAGE: &str = "`bx-sail RATE sea|coast|river|swamp [downstream|upstream] [navigator] [unfed=A,B] [nowater=A,B] [leader=X]` (GM; RATE: the vessel's feet per turn)";
    let [rate, rest @ ..] = args else {
        return Err(USAGE.into());
    };
    let rate = rate
        .parse::<u32>()
        .map_err(|_| format!("`{rate}` is not a rate in feet per turn; {USAGE}"))?;
    let (mut waters, mut current, mut navigator) = (None, Current::None, false);
    let (mut unfed, mut no_water, mut leader) = (Vec::new(), Vec::new(), None);
    for w in rest {
        let w = w.to_lowercase();
        if let Some(v) = w.strip_prefix("unfed=") {
            unfed = ids(v);
        } else if let Some(v) = w.strip_prefix("nowater=") {
            no_water = ids(v);
        } else if let Some(v) = w.strip_prefix("leader=") {
            leader = Some(CombatantId::new(v));
        } else {
            match w.as_str() {
                "sea" | "ocean" => waters = Some(Waters::Sea),
                "coast" => waters = Some(Waters::Coast),
                "river" => waters = Some(Waters::River),
                "swamp" => waters = Some(Waters::Swamp),
                "downstream" => current = Current::Downstream,
                "upstream" => current = Current::Upstream,
                "navigator" => navigator = true,
                other => return Err(format!("`{other}`: {USAGE}")),
            }
        }
    }
    let Some(waters) = waters else {
        return Err(format!("which waters: sea, coast, river or swamp? {USAGE}"));
    };
    Ok(Input::Game(Command::Bx(BxCommand::PassDay {
        march: March::Water,
        terrain: Terrain::Clear,
        unfed,
        no_water,
        leader,
        water: Some(WaterDay {
            rate,
            waters,
            current,
            navigator,
        }),
    })))
}
