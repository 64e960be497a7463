//! Orcus's verbs outside the grid's (`grid_input`): allies, riders, reloading, searching, passing
//! time, readied counters; the GM's `skill-check` and the `skill` actions.

use super::{Input, Menu, menu_for, unknown_command};
use fray_protocol::{CombatantId, Command, OrcusCommand};

/// The verbs orcus_verb parses.
pub(super) const ORCUS_VERBS: &[&str] = &[
    "allies",
    "be-hit",
    "choose-allies",
    "choose-to-be-hit",
    "decline-ally",
    "pass-time",
    "passtime",
    "ready-counter",
    "reload",
    "rider",
    "rider-choices",
    "search",
];

/// The Orcus verbs outside the grid's (`grid_input`): allies, mounts' riders, reloading, searching …
pub(super) fn orcus_verb(verb: &str, args: &[&str], menu: Option<&Menu>) -> Result<Input, String> {
    let need_menu = || menu_for(verb, menu);
    match verb {
        "allies" | "choose-allies" => match args {
            [who, rest @ ..] => Ok(Input::Game(Command::Orcus(OrcusCommand::ChooseAllies {
                actor: CombatantId::new(who.to_lowercase()),
                allies: rest
                    .iter()
                    .map(|a| CombatantId::new(a.to_lowercase()))
                    .collect(),
            }))),
            _ => Err("usage: allies WHO [ALLY...]".into()),
        },
        "decline-ally" => match args {
            [who, user] => Ok(Input::Game(Command::Orcus(OrcusCommand::DeclineAlly {
                actor: CombatantId::new(who.to_lowercase()),
                user: CombatantId::new(user.to_lowercase()),
            }))),
            _ => Err("usage: decline-ally WHO USER".into()),
        },
        "be-hit" | "choose-to-be-hit" => match args {
            [who, attacker] => Ok(Input::Game(Command::Orcus(OrcusCommand::ChooseToBeHit {
                actor: CombatantId::new(who.to_lowercase()),
                attacker: CombatantId::new(attacker.to_lowercase()),
            }))),
            _ => Err("usage: be-hit WHO ATTACKER".into()),
        },
        "rider" | "rider-choices" => {
            let usage = || "usage: rider WHO take|fall [DX,DY]".to_owned();
            let (who, how, landing) = match args {
                [who, how] => (who, how, None),
                [who, how, at] => (who, how, Some(crate::grid_input::square(at)?)),
                _ => return Err(usage()),
            };
            let move_mount = match how.to_ascii_lowercase().as_str() {
                "take" => true,
                "fall" => false,
                _ => return Err(usage()),
            };
            Ok(Input::Game(Command::Orcus(OrcusCommand::RiderChoices {
                actor: CombatantId::new(who.to_lowercase()),
                move_mount,
                landing,
            })))
        }
        "reload" => match args {
            [who, power] => Ok(Input::Game(Command::Orcus(OrcusCommand::Reload {
                actor: CombatantId::new(who.to_lowercase()),
                power: power.to_lowercase(),
            }))),
            _ => Err("usage: reload WHO POWER".into()),
        },
        "search" => match args {
            [] => Ok(Input::Game(Command::Orcus(OrcusCommand::Search {
                actor: need_menu()?.actor.clone(),
            }))),
            [who] => Ok(Input::Game(Command::Orcus(OrcusCommand::Search {
                actor: CombatantId::new(who.to_lowercase()),
            }))),
            _ => Err("usage: search [WHO]".into()),
        },
        "ready-counter" => match args {
            [who, power] => Ok(Input::Game(Command::Orcus(OrcusCommand::ReadyCounter {
                actor: CombatantId::new(who.to_lowercase()),
                power: power.to_lowercase(),
            }))),
            _ => Err("usage: ready-counter WHO POWER".into()),
        },
        "pass-time" | "passtime" => match args {
            [m] => Ok(Input::Game(Command::Orcus(OrcusCommand::PassTime {
                minutes: m.parse().map_err(|_| format!("`{m}` is not a number"))?,
            }))),
            _ => Err("usage: pass-time MINUTES".into()),
        },
        _ => Err(unknown_command(verb, menu)),
    }
}

/// `skill-check WHO SKILL DC|easy|moderate|hard [PURPOSE...]`: the GM's Orcus skill check
/// (`orcus_check`).
pub(super) fn orcus_check(args: &[&str]) -> Result<Input, String> {
    use fray_protocol::command::CheckDifficulty;
    const USAGE: &str =
        "`skill-check WHO SKILL DC|easy|moderate|hard [PURPOSE...]` (GM; SKILL e.g. athletics)";
    let [who, skill, against, purpose @ ..] = args else {
        return Err(USAGE.into());
    };
    let (dc, difficulty) = match against.to_lowercase().as_str() {
        "easy" => (None, Some(CheckDifficulty::Easy)),
        "moderate" => (None, Some(CheckDifficulty::Moderate)),
        "hard" => (None, Some(CheckDifficulty::Hard)),
        other => match other.strip_prefix("dc").unwrap_or(other).parse::<i32>() {
            Ok(n) => (Some(n), None),
            Err(_) => {
                return Err(format!(
                    "`{against}` is not a DC or easy, moderate or hard; {USAGE}"
                ));
            }
        },
    };
    Ok(Input::Game(Command::Orcus(OrcusCommand::OrcusCheck {
        combatant: CombatantId::new(who.to_lowercase()),
        skill: skill.to_lowercase(),
        dc,
        difficulty,
        purpose: (!purpose.is_empty()).then(|| purpose.join(" ")),
    })))
}

/// `skill WHO KIND [TARGET] [standard|move|swift] [foreign] [EFFECT]`: an Orcus skill action.
pub(super) fn skill_action(args: &[&str]) -> Result<Input, String> {
    use fray_protocol::command::SkillActionKind as K;
    const USAGE: &str = "usage: skill WHO feint|grant-save|rally-ally|create-diversion|deter|unnerve [TARGET] [standard|move|swift] [foreign] [hide] [EFFECT]";
    let [who, kind, rest @ ..] = args else {
        return Err(USAGE.into());
    };
    let action = match kind.to_lowercase().replace('_', "-").as_str() {
        "feint" => K::Feint,
        "grant-save" => K::GrantSave,
        "rally-ally" => K::RallyAlly,
        "create-diversion" | "diversion" => K::CreateDiversion,
        "deter" => K::Deter,
        "unnerve" => K::Unnerve,
        _ => return Err(USAGE.into()),
    };
    let actor = CombatantId::new(who.to_lowercase());
    let mut target = actor.clone();
    let (mut effect, mut forbid, mut foreign, mut hide) = (None, None, false, false);
    for (i, a) in rest.iter().enumerate() {
        match a.to_lowercase().as_str() {
            "hide" => hide = true,
            "standard" => forbid = Some(fray_protocol::event::ActionKind::Standard),
            "move" => forbid = Some(fray_protocol::event::ActionKind::Move),
            "swift" | "quick" => forbid = Some(fray_protocol::event::ActionKind::Quick),
            "foreign" => foreign = true,
            other => match other.parse::<u32>() {
                Ok(n) => effect = Some(n),
                Err(_) if i == 0 => target = CombatantId::new(other),
                Err(_) => return Err(USAGE.into()),
            },
        }
    }
    Ok(Input::Game(Command::Orcus(OrcusCommand::SkillAction {
        actor,
        action,
        target,
        effect,
        forbid,
        foreign,
        hide,
    })))
}
