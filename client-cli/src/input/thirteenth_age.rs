//! 13th Age's own verbs.

use super::{Input, Menu, menu_for, no_args_for, unknown_command};
use fray_protocol::{CombatantId, Command, ThirteenthAgeCommand};

/// The verbs thirteenth_age_verb parses.
pub(super) const THIRTEENTH_AGE_VERBS: &[&str] = &[
    "act",
    "ambush",
    "d",
    "delay",
    "disengage",
    "escalation",
    "intercept",
    "mod",
    "modifier",
    "potion",
    "spirit",
    "teleport",
    "undelay",
];

/// The 13th Age verbs: fighting in spirit, ambushes, the escalation die, situational modifiers, potions, knock-outs, intercepts and teleports.
pub(super) fn thirteenth_age_verb(
    verb: &str,
    args: &[&str],
    menu: Option<&Menu>,
) -> Result<Input, String> {
    let no_args = |input: Input| no_args_for(verb, args, input);
    let need_menu = || menu_for(verb, menu);
    match verb {
        "spirit" => match args {
            [who, ally, stat] => {
                use fray_protocol::event::BonusStat;
                let stat = match stat.to_lowercase().as_str() {
                    "attack" | "attacks" => BonusStat::Attack,
                    "ac" => BonusStat::Ac,
                    "pd" => BonusStat::Pd,
                    "md" => BonusStat::Md,
                    other => return Err(format!("`{other}`: attack, ac, pd or md")),
                };
                Ok(Input::Game(Command::ThirteenthAge(
                    ThirteenthAgeCommand::FightInSpirit {
                        actor: CombatantId::new(who.to_lowercase()),
                        ally: CombatantId::new(ally.to_lowercase()),
                        stat,
                    },
                )))
            }
            _ => Err(
                "`spirit WHO ALLY attack|ac|pd|md`: fight in spirit (a PC out of the fight)"
                    .to_owned(),
            ),
        },
        "ambush" => match args {
            [who] | [who, _] => Ok(Input::Game(Command::ThirteenthAge(
                ThirteenthAgeCommand::StartAmbush {
                    ambusher: CombatantId::new(who.to_lowercase()),
                    advance_escalation: args
                        .get(1)
                        .is_some_and(|w| w.eq_ignore_ascii_case("escalate")),
                },
            ))),
            _ => Err("`ambush WHO [escalate]` (GM): start with an ambush round".to_owned()),
        },
        "escalation" => match args {
            [w] => {
                let action = match w.to_lowercase().as_str() {
                    "hold" => fray_protocol::command::EscalationAction::Hold,
                    "resume" => fray_protocol::command::EscalationAction::Resume,
                    "reset" => fray_protocol::command::EscalationAction::Reset,
                    _ => return Err("`escalation hold|resume|reset` (GM)".to_owned()),
                };
                Ok(Input::Game(Command::ThirteenthAge(
                    ThirteenthAgeCommand::Escalation { action },
                )))
            }
            _ => Err("`escalation hold|resume|reset` (GM)".to_owned()),
        },
        "modifier" | "mod" => match args {
            [who, stat, n] => {
                use fray_protocol::event::BonusStat;
                let stat = match stat.to_lowercase().as_str() {
                    "attack" | "attacks" => BonusStat::Attack,
                    "ac" => BonusStat::Ac,
                    "pd" => BonusStat::Pd,
                    "md" => BonusStat::Md,
                    other => return Err(format!("`{other}`: attack, ac, pd or md")),
                };
                Ok(Input::Game(Command::ThirteenthAge(
                    ThirteenthAgeCommand::SituationalModifier {
                        target: CombatantId::new(who.to_lowercase()),
                        stat,
                        amount: n.parse().map_err(|_| format!("`{n}` is not a number"))?,
                    },
                )))
            }
            _ => Err("`modifier WHO attack|ac|pd|md +2|-2` (GM)".to_owned()),
        },
        "delay" => {
            let actor = need_menu()?.actor.clone();
            no_args(Input::Game(Command::ThirteenthAge(
                ThirteenthAgeCommand::Delay { actor },
            )))
        }
        "undelay" | "act" => match args {
            [who] => Ok(Input::Game(Command::ThirteenthAge(
                ThirteenthAgeCommand::Undelay {
                    actor: CombatantId::new(who.to_lowercase()),
                },
            ))),
            _ => Err("`act WHO`: a delaying combatant acts after the current turn".to_owned()),
        },
        "disengage" | "d" => {
            let actor = need_menu()?.actor.clone();
            no_args(Input::Game(Command::ThirteenthAge(
                ThirteenthAgeCommand::Disengage { actor },
            )))
        }
        "potion" => {
            let m = need_menu()?;
            match args {
                [] => Ok(Input::Game(Command::ThirteenthAge(
                    ThirteenthAgeCommand::UsePotion {
                        actor: m.actor.clone(),
                        target: m.actor.clone(),
                    },
                ))),
                [w] => Ok(Input::Game(Command::ThirteenthAge(
                    ThirteenthAgeCommand::UsePotion {
                        actor: m.actor.clone(),
                        target: m.anyone(w)?,
                    },
                ))),
                _ => Err("`potion` (drink) or `potion ALLY` (feed a dying ally)".to_owned()),
            }
        }
        "intercept" => match args {
            [actor, mover] => Ok(Input::Game(Command::ThirteenthAge(
                ThirteenthAgeCommand::Intercept {
                    actor: CombatantId::new(actor.to_lowercase()),
                    mover: CombatantId::new(mover.to_lowercase()),
                },
            ))),
            _ => Err("`intercept INTERCEPTOR MOVER`".to_owned()),
        },
        "teleport" => match args {
            [who] => Ok(Input::Game(Command::ThirteenthAge(
                ThirteenthAgeCommand::Teleport {
                    target: CombatantId::new(who.to_lowercase()),
                    engage: None,
                    far_away: false,
                },
            ))),
            [who, w] => Ok(Input::Game(Command::ThirteenthAge(
                ThirteenthAgeCommand::Teleport {
                    target: CombatantId::new(who.to_lowercase()),
                    engage: (!w.eq_ignore_ascii_case("far"))
                        .then(|| CombatantId::new(w.to_lowercase())),
                    far_away: w.eq_ignore_ascii_case("far"),
                },
            ))),
            _ => Err("`teleport WHO [ENEMY|far]` (GM)".to_owned()),
        },
        _ => Err(unknown_command(verb, menu)),
    }
}
