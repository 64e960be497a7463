//! The GM tools that are not a ruleset's: rewind, chat lines, whispers, notes and free rolls —
//! the verbs that send them and the lines that narrate them.
//!
//! Verbs (a leading `/` is accepted, as in Roll20 and Foundry):
//! - `say TEXT` — to the table; `whisper SEAT TEXT` (`w`) — to one player seat;
//!   `note TEXT` — to the GM (from the GM: a private note);
//! - `roll DICE [LABEL]` (`/r`) — a public roll; `gmroll` — the roller and the GM see it;
//!   `blindroll` — only the GM sees it;
//! - `rewind SEQ` — GM: back to the state after event SEQ (the end of a tick);
//! - `auto on|off WHO...` — GM: hand combatants (ids, `monsters`, `heroes`) to the server's
//!   built-in play, or take them back;
//! - `give COMBATANT SEAT|gm`, `reissue SEAT` — GM: the seats;
//! - `sethp`, `addcond`, `delcond`, `remove`, `setinit`, `reinforce`, `place` — GM
//!   overrides.

use fray_protocol::talk::{ChatTo, RollVisibility, Seat};
use fray_protocol::{Command, GameEvent};

/// The help lines of these verbs.
pub const HELP: &str = "\
  say TEXT                  chat to the table (everyone)
  whisper SEAT TEXT         whisper to one player seat (it, you and the GM read it)
  note TEXT                 a line to the GM only (the GM's own: a private note)
  roll DICE [LABEL]         a free public roll, e.g. `roll 2d6+1 haggling` (also /roll, /r)
  gmroll DICE [LABEL]       a free roll only you and the GM see
  blindroll DICE [LABEL]    a free roll only the GM sees
  rewind SEQ                GM: back to the state after event SEQ, the end of a tick
  auto on|off WHO...        GM: the server plays WHO (ids, `monsters` or `heroes`), or stops
  give COMBATANT SEAT|gm    GM: a player seat commands COMBATANT from now on (`gm`: take it back)
  reissue SEAT              GM: a new token for a player seat (the old one is revoked)
  sethp WHO HP [TEMP]       GM override: set hit points (and temporary hit points)
  addcond WHO NAME [save easy|normal|hard|10|end-of-battle|end-next|start-next] [BY]
                            GM override: add a condition (default: to the end of the battle)
  delcond WHO NAME          GM override: remove a condition
  remove WHO                GM override: WHO leaves the fight and the order
  setinit WHO N             GM override: WHO's initiative result becomes N
  reinforce TEMPLATE [X Y]  GM override: TEMPLATE (the encounter's or built-in) joins (X Y: Orcus)
  place WHO X Y             GM override (Orcus): WHO's token to square X,Y";

/// Parses a table-talk line: `None` when the verb is not one of these.
pub fn parse(line: &str) -> Option<Result<Command, String>> {
    let line = line.trim_start();
    let (verb, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    let slashed = verb.starts_with('/');
    let verb = verb.strip_prefix('/').unwrap_or(verb).to_lowercase();
    let chat = |to: ChatTo, text: &str| {
        if text.is_empty() {
            Err(format!("`{verb}` needs the line to send"))
        } else {
            Ok(Command::Chat {
                text: text.to_owned(),
                to,
            })
        }
    };
    Some(match verb.as_str() {
        "say" => chat(ChatTo::Table, rest),
        "note" => chat(ChatTo::Gm, rest),
        "whisper" | "w" => match rest.split_once(char::is_whitespace) {
            Some((seat, text)) => chat(ChatTo::Player(seat.to_owned()), text.trim()),
            None => Err("`whisper SEAT TEXT`: the player seat's name, then the line".into()),
        },
        // `r` alone is `rally`; `/r` is a roll, as in Roll20.
        "roll" => roll(rest, RollVisibility::Public),
        "r" if slashed => roll(rest, RollVisibility::Public),
        "gmroll" => roll(rest, RollVisibility::Gm),
        "blindroll" | "broll" => roll(rest, RollVisibility::Blind),
        "rewind" => match rest.parse::<u64>() {
            Ok(seq) => Ok(Command::RewindTo { seq }),
            Err(_) => Err("`rewind SEQ`: the number of the event to go back to".into()),
        },
        "auto" => auto(rest),
        "give" => match rest.split_whitespace().collect::<Vec<_>>()[..] {
            [who, seat] => Ok(Command::AssignCombatant {
                combatant: fray_protocol::CombatantId::new(who.to_lowercase()),
                seat: (!seat.eq_ignore_ascii_case("gm")).then(|| seat.to_owned()),
            }),
            _ => Err("`give COMBATANT SEAT` (or `gm` to take it back)".into()),
        },
        "sethp" | "set-hp" => match rest.split_whitespace().collect::<Vec<_>>()[..] {
            [who, hp] => set_hp(who, hp, None),
            [who, hp, temp] => set_hp(who, hp, Some(temp)),
            _ => Err("`sethp WHO HP [TEMP]` (GM override)".into()),
        },
        "addcond" => condition(rest),
        "delcond" => match rest.split_whitespace().collect::<Vec<_>>()[..] {
            [who, name] => Ok(Command::RemoveCondition {
                target: id(who),
                condition: name.to_lowercase(),
            }),
            _ => Err("`delcond WHO NAME` (GM override)".into()),
        },
        "remove" => match rest.split_whitespace().collect::<Vec<_>>()[..] {
            [who] => Ok(Command::RemoveCombatant { combatant: id(who) }),
            _ => Err("`remove WHO` (GM override)".into()),
        },
        "setinit" => match rest.split_whitespace().collect::<Vec<_>>()[..] {
            [who, n] => number(n).map(|initiative| Command::SetInitiative {
                combatant: id(who),
                initiative,
            }),
            _ => Err("`setinit WHO N` (GM override)".into()),
        },
        "reinforce" => match rest.split_whitespace().collect::<Vec<_>>()[..] {
            [template] => Ok(Command::AddCombatant {
                template: template.to_lowercase(),
                square: None,
            }),
            [template, x, y] => square(x, y).map(|s| Command::AddCombatant {
                template: template.to_lowercase(),
                square: Some(s),
            }),
            _ => Err("`reinforce TEMPLATE [X Y]` (GM override)".into()),
        },
        "place" => match rest.split_whitespace().collect::<Vec<_>>()[..] {
            [who, x, y] => square(x, y).map(|square| {
                Command::Orcus(fray_protocol::OrcusCommand::PlaceToken {
                    combatant: id(who),
                    square,
                })
            }),
            _ => Err("`place WHO X Y` (GM override, Orcus)".into()),
        },
        "reissue" => match rest.split_whitespace().collect::<Vec<_>>()[..] {
            [seat] => Ok(Command::ReissueToken {
                seat: seat.to_owned(),
            }),
            _ => Err("`reissue SEAT`: the player seat that needs a new token".into()),
        },
        _ => return None,
    })
}

fn auto(rest: &str) -> Result<Command, String> {
    let usage = || "`auto on|off WHO...`: combatant ids, `monsters` or `heroes`".to_owned();
    let mut words = rest.split_whitespace();
    let on = match words.next() {
        Some("on") => true,
        Some("off") => false,
        _ => return Err(usage()),
    };
    let mut combatants = Vec::new();
    let mut side = None;
    for w in words {
        match w.to_lowercase().as_str() {
            "monsters" => side = Some(fray_protocol::Side::Monsters),
            "heroes" => side = Some(fray_protocol::Side::Heroes),
            id => combatants.push(fray_protocol::CombatantId::new(id)),
        }
    }
    if combatants.is_empty() && side.is_none() {
        return Err(usage());
    }
    Ok(Command::AutoPlay {
        combatants,
        side,
        on,
    })
}

fn id(who: &str) -> fray_protocol::CombatantId {
    fray_protocol::CombatantId::new(who.to_lowercase())
}

fn number(s: &str) -> Result<i32, String> {
    s.parse::<i32>()
        .map_err(|_| format!("`{s}` is not a number"))
}

fn square(x: &str, y: &str) -> Result<fray_protocol::grid::Square, String> {
    Ok(fray_protocol::grid::Square {
        x: number(x)?,
        y: number(y)?,
    })
}

/// `addcond WHO NAME [DURATION] [BY]`.
fn condition(rest: &str) -> Result<Command, String> {
    use fray_protocol::event::{EffectDuration as D, SaveDifficulty as S};
    let words: Vec<&str> = rest.split_whitespace().collect();
    let usage = || {
        "`addcond WHO NAME [save easy|normal|hard|10|end-of-battle|end-next|start-next] [BY]`"
            .to_owned()
    };
    let (who, name, mut more) = match &words[..] {
        [who, name, more @ ..] => (*who, *name, more),
        _ => return Err(usage()),
    };
    let duration = match more {
        ["save", level, tail @ ..] => {
            more = tail;
            Some(D::SaveEnds(match *level {
                "easy" => S::Easy,
                "normal" => S::Normal,
                "hard" => S::Hard,
                "10" => S::TenPlus,
                _ => return Err(usage()),
            }))
        }
        [d @ ("end-of-battle" | "end-next" | "start-next"), tail @ ..] => {
            more = tail;
            Some(match *d {
                "end-next" => D::UntilEndOfSourcesNextTurn,
                "start-next" => D::UntilStartOfSourcesNextTurn,
                _ => D::EndOfBattle,
            })
        }
        _ => None,
    };
    let source = match more {
        [] => None,
        [by] => Some(id(by)),
        _ => return Err(usage()),
    };
    Ok(Command::AddCondition {
        target: id(who),
        condition: name.to_lowercase(),
        duration,
        source,
    })
}

fn set_hp(who: &str, hp: &str, temp: Option<&str>) -> Result<Command, String> {
    let number = |s: &str| {
        s.parse::<i32>()
            .map_err(|_| format!("`{s}` is not a number"))
    };
    Ok(Command::SetHp {
        target: fray_protocol::CombatantId::new(who.to_lowercase()),
        hp: number(hp)?,
        temp_hp: temp.map(number).transpose()?,
    })
}

fn roll(rest: &str, visibility: RollVisibility) -> Result<Command, String> {
    let (dice, label) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    if dice.is_empty() {
        return Err("a roll needs its dice, e.g. `roll 2d6+1`".into());
    }
    let label = label.trim();
    Ok(Command::FreeRoll {
        dice: dice.to_owned(),
        label: (!label.is_empty()).then(|| label.to_owned()),
        visibility,
    })
}

fn seat(s: &Seat) -> String {
    match s {
        Seat::Gm => "the GM".into(),
        Seat::Player(name) => name.clone(),
    }
}

/// One line for a rewind, chat line or free roll (`None` for any other event).
pub fn narrate(event: &GameEvent) -> Option<String> {
    Some(match event {
        GameEvent::Rewound { to_seq, to_tick } => format!(
            "GM override: the fight is rewound to event {to_seq} (the end of tick {to_tick}); \
             what followed is undone (the dice are not)."
        ),
        GameEvent::Chatted { from, to, text } => {
            let to = match to {
                ChatTo::Table => String::new(),
                ChatTo::Gm if *from == Seat::Gm => " (note)".into(),
                ChatTo::Gm => " → the GM".into(),
                ChatTo::Player(p) => format!(" → {p}"),
            };
            match text {
                Some(t) => format!("[{}{to}] {t}", seat(from)),
                None => format!("[{}{to}] (a private line)", seat(from)),
            }
        }
        GameEvent::FreeRolled {
            by,
            dice,
            label,
            visibility,
            roll,
        } => {
            let label = label
                .as_ref()
                .map(|l| format!(" ({l})"))
                .unwrap_or_default();
            let how = match visibility {
                RollVisibility::Public => "",
                RollVisibility::Gm => " for the GM",
                RollVisibility::Blind => " blind",
            };
            match roll {
                Some(r) => format!(
                    "{} rolls{how}{label} {}",
                    seat(by),
                    crate::narrate::roll_text(r)
                ),
                None => format!("{} rolls {dice}{how}{label}: hidden.", seat(by)),
            }
        }
        GameEvent::AutoPlaySet { combatants, on } => {
            let who: Vec<String> = combatants.iter().map(|c| c.to_string()).collect();
            if *on {
                format!("GM: the server now plays {}.", who.join(", "))
            } else {
                format!("GM: the server no longer plays {}.", who.join(", "))
            }
        }
        GameEvent::HpOverridden {
            target,
            change,
            hp_after,
            temp_after,
        } => match hp_after {
            Some(hp) => format!(
                "GM override: {target}'s hit points set to {hp} ({change:+}), temporary {temp_after}."
            ),
            None => format!("GM override: {target}'s hit points changed by {change:+}."),
        },
        GameEvent::GmOverride { command, combatant } => match combatant {
            Some(c) => format!("GM override ({command}) on {c}:"),
            None => format!("GM override ({command}):"),
        },
        GameEvent::CombatantRemoved { combatant } => {
            format!("GM override: {combatant} leaves the fight.")
        }
        GameEvent::CombatantAdded {
            combatant,
            name,
            square,
            ..
        } => match square {
            Some(s) => format!("GM override: {name} ({combatant}) joins the fight at {s}."),
            None => format!("GM override: {name} ({combatant}) joins the fight."),
        },
        GameEvent::InitiativeSet {
            combatant,
            initiative,
        } => format!("GM override: {combatant}'s initiative is now {initiative}."),
        GameEvent::CombatantAssigned { combatant, seat } => match seat {
            Some(seat) => format!("GM: {seat} now commands {combatant}."),
            None => format!("GM: {combatant} is the GM's again."),
        },
        GameEvent::TokenReissued { seat, token } => match token {
            Some(token) => format!("GM: a new token for {seat}: {token} (the old one is revoked)."),
            None => format!("GM: {seat} has a new token (the old one is revoked)."),
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn talk_verbs_parse_with_or_without_a_slash() {
        assert_eq!(
            parse("say  hello there ").unwrap().unwrap(),
            Command::Chat {
                text: "hello there".into(),
                to: ChatTo::Table
            }
        );
        assert_eq!(
            parse("/w alice the idol is fake").unwrap().unwrap(),
            Command::Chat {
                text: "the idol is fake".into(),
                to: ChatTo::Player("alice".into())
            }
        );
        assert_eq!(
            parse("/roll 2d6+1 haggling hard").unwrap().unwrap(),
            Command::FreeRoll {
                dice: "2d6+1".into(),
                label: Some("haggling hard".into()),
                visibility: RollVisibility::Public
            }
        );
        assert_eq!(
            parse("blindroll d100").unwrap().unwrap(),
            Command::FreeRoll {
                dice: "d100".into(),
                label: None,
                visibility: RollVisibility::Blind
            }
        );
        assert_eq!(
            parse("rewind 41").unwrap().unwrap(),
            Command::RewindTo { seq: 41 }
        );
        assert!(parse("say").unwrap().is_err());
        assert!(parse("whisper alice").unwrap().is_err());
        assert!(parse("rewind back").unwrap().is_err());
        assert!(parse("attack goblin").is_none());
        assert!(parse("r").is_none(), "`r` is rally");
        assert_eq!(
            parse("auto on monsters goblin-archer-1").unwrap().unwrap(),
            Command::AutoPlay {
                combatants: vec![fray_protocol::CombatantId::new("goblin-archer-1")],
                side: Some(fray_protocol::Side::Monsters),
                on: true
            }
        );
        assert!(parse("auto maybe").unwrap().is_err());
        assert_eq!(
            parse("give goblin-archer-1 gm").unwrap().unwrap(),
            Command::AssignCombatant {
                combatant: fray_protocol::CombatantId::new("goblin-archer-1"),
                seat: None
            }
        );
        assert_eq!(
            parse("sethp brakka 12 3").unwrap().unwrap(),
            Command::SetHp {
                target: fray_protocol::CombatantId::new("brakka"),
                hp: 12,
                temp_hp: Some(3)
            }
        );
        assert!(parse("sethp brakka lots").unwrap().is_err());
        assert_eq!(
            parse("addcond Brakka dazed save normal goblin-1")
                .unwrap()
                .unwrap(),
            Command::AddCondition {
                target: fray_protocol::CombatantId::new("brakka"),
                condition: "dazed".into(),
                duration: Some(fray_protocol::event::EffectDuration::SaveEnds(
                    fray_protocol::event::SaveDifficulty::Normal
                )),
                source: Some(fray_protocol::CombatantId::new("goblin-1")),
            }
        );
        assert_eq!(
            parse("reinforce goblin-archer").unwrap().unwrap(),
            Command::AddCombatant {
                template: "goblin-archer".into(),
                square: None
            }
        );
        assert!(matches!(
            parse("place brenna 3 4").unwrap().unwrap(),
            Command::Orcus(fray_protocol::OrcusCommand::PlaceToken { .. })
        ));
        assert!(parse("setinit vex high").unwrap().is_err());
        assert!(parse("remove").unwrap().is_err());
        assert_eq!(
            parse("reissue bob").unwrap().unwrap(),
            Command::ReissueToken { seat: "bob".into() }
        );
        assert!(matches!(
            parse("/r d20"),
            Some(Ok(Command::FreeRoll { .. }))
        ));
    }

    #[test]
    fn private_lines_and_hidden_rolls_are_narrated_without_their_secret() {
        let hidden = GameEvent::Chatted {
            from: Seat::Player("bob".into()),
            to: ChatTo::Player("alice".into()),
            text: None,
        };
        assert_eq!(narrate(&hidden).unwrap(), "[bob → alice] (a private line)");
        let blind = GameEvent::FreeRolled {
            by: Seat::Gm,
            dice: "d100".into(),
            label: None,
            visibility: RollVisibility::Blind,
            roll: None,
        };
        assert_eq!(narrate(&blind).unwrap(), "the GM rolls d100 blind: hidden.");
        let rewound = GameEvent::Rewound {
            to_seq: 41,
            to_tick: 9,
        };
        assert!(narrate(&rewound).unwrap().contains("GM override"));
    }
}
