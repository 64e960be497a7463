//! Old-School Essentials' and Basic Fantasy's combat verbs: declarations, missiles, spells,
//! movement, morale, reactions, surprise, conditions.

use super::{Input, Menu, menu_for, no_args_for, unknown_command};
use fray_protocol::{BxCommand, CombatantId, Command};

/// The verbs bx_verb parses.
pub(super) const BX_VERBS: &[&str] = &[
    "behind",
    "bx-hold",
    "bx-morale",
    "bx-move",
    "cast",
    "condition",
    "declare",
    "reaction",
    "shoot",
    "surprise",
];

/// The Old-School Essentials and Basic Fantasy verbs.
pub(super) fn bx_verb(verb: &str, args: &[&str], menu: Option<&Menu>) -> Result<Input, String> {
    let no_args = |input: Input| no_args_for(verb, args, input);
    let need_menu = || menu_for(verb, menu);
    match verb {
        "surprise" => {
            let sides = match args {
                [w] if w.eq_ignore_ascii_case("both") => {
                    vec![fray_protocol::Side::Heroes, fray_protocol::Side::Monsters]
                }
                [w] if w.eq_ignore_ascii_case("heroes") || w.eq_ignore_ascii_case("party") => {
                    vec![fray_protocol::Side::Heroes]
                }
                [w] if w.eq_ignore_ascii_case("monsters") => vec![fray_protocol::Side::Monsters],
                [] => {
                    return Err("`surprise party|monsters|both` (GM, OSE: the d6 rolls) or `surprise WHO...` (GM: start with the listed surprised)".to_owned());
                }
                // Orcus and Five Torches Deep: `start_surprise` naming the surprised.
                _ => {
                    return Ok(Input::Game(Command::StartSurprise {
                        surprised: ids(&args.join(",")),
                    }));
                }
            };
            Ok(Input::Game(Command::Bx(BxCommand::RollSurprise { sides })))
        }
        "reaction" => match args {
            [] => Ok(Input::Game(Command::Bx(BxCommand::RollReaction {
                speaker: None,
            }))),
            [who] => Ok(Input::Game(Command::Bx(BxCommand::RollReaction {
                speaker: Some(CombatantId::new(who.to_lowercase())),
            }))),
            _ => Err("`reaction [SPEAKER]` (GM)".to_owned()),
        },
        "declare" => {
            use fray_protocol::ose::Declaration;
            let actor = need_menu()?.actor.clone();
            let declaration = match args {
                [w, spell @ ..] if w.eq_ignore_ascii_case("spell") && !spell.is_empty() => {
                    Some(Declaration::Spell {
                        spell: spell.join(" "),
                    })
                }
                [w] if w.eq_ignore_ascii_case("withdraw") => Some(Declaration::Withdraw),
                [w] if w.eq_ignore_ascii_case("retreat") => Some(Declaration::Retreat),
                [w] if w.eq_ignore_ascii_case("none") => None,
                _ => {
                    return Err(
                        "`declare spell NAME | withdraw | retreat | none` (for the next round)"
                            .to_owned(),
                    );
                }
            };
            Ok(Input::Game(Command::Bx(BxCommand::Declare {
                actor,
                declaration,
            })))
        }
        "shoot" => {
            use fray_protocol::ose::MissileRange;
            let m = need_menu()?;
            match args {
                [weapon, target, band, rest @ ..] if rest.len() <= 1 => {
                    let range = match band.to_lowercase().as_str() {
                        "short" => MissileRange::Short,
                        "medium" => MissileRange::Medium,
                        "long" => MissileRange::Long,
                        "beyond" => MissileRange::Beyond,
                        other => return Err(format!("`{other}`: short, medium, long or beyond")),
                    };
                    let modifier = match rest {
                        [n] => n.parse().map_err(|_| format!("`{n}` is not a number"))?,
                        _ => 0,
                    };
                    Ok(Input::Game(Command::Bx(BxCommand::OseAttack {
                        actor: m.actor.clone(),
                        attack: weapon.to_lowercase(),
                        target: m.anyone(target)?,
                        range: Some(range),
                        modifier,
                        behind: false,
                    })))
                }
                _ => Err("`shoot WEAPON TARGET short|medium|long [MODIFIER]`".to_owned()),
            }
        }
        "cast" => {
            let actor = need_menu()?.actor.clone();
            no_args(Input::Game(Command::Bx(BxCommand::CastSpell { actor })))
        }
        "bx-move" => {
            let actor = need_menu()?.actor.clone();
            match args {
                [feet] => Ok(Input::Game(Command::Bx(BxCommand::OseMove {
                    actor,
                    feet: feet
                        .parse()
                        .map_err(|_| format!("`{feet}` is not a number of feet"))?,
                }))),
                _ => Err("`bx-move FEET` (this round's movement)".to_owned()),
            }
        }
        "bx-hold" => {
            let actor = need_menu()?.actor.clone();
            no_args(Input::Game(Command::Bx(BxCommand::OseHold { actor })))
        }
        "bx-morale" => {
            let (adjustment, who) = match args.split_first() {
                Some((n, rest)) if n.parse::<i32>().is_ok() => (n.parse().unwrap_or(0), rest),
                _ => (0, args),
            };
            if who.is_empty() {
                return Err(
                    "`bx-morale [ADJUSTMENT] WHO...` (GM: 2d6 vs each one's rating)".to_owned(),
                );
            }
            Ok(Input::Game(Command::Bx(BxCommand::OseMorale {
                combatants: who
                    .iter()
                    .map(|w| CombatantId::new(w.to_lowercase()))
                    .collect(),
                adjustment,
            })))
        }
        "condition" => {
            use fray_protocol::ose::OseCondition;
            let usage = "`condition WHO blind|paralyzed|unstable|exhausted|cover|swimming|underwater on|off` (GM; cover: complete cover)";
            let [who, c, on] = args else {
                return Err(usage.to_owned());
            };
            let condition = match c.to_lowercase().as_str() {
                "blind" => OseCondition::Blind,
                "paralyzed" => OseCondition::Paralyzed,
                "unstable" => OseCondition::Unstable,
                "exhausted" => OseCondition::Exhausted,
                "cover" | "complete-cover" | "complete_cover" => OseCondition::CompleteCover,
                "swimming" | "swim" => OseCondition::Swimming,
                "underwater" => OseCondition::Underwater,
                _ => return Err(usage.to_owned()),
            };
            let on = match on.to_lowercase().as_str() {
                "on" => true,
                "off" => false,
                _ => return Err(usage.to_owned()),
            };
            Ok(Input::Game(Command::Bx(BxCommand::OseCondition {
                combatant: CombatantId::new(who.to_lowercase()),
                condition,
                on,
            })))
        }
        "behind" => {
            let m = need_menu()?;
            match args {
                [weapon, target] => Ok(Input::Game(Command::Bx(BxCommand::OseAttack {
                    actor: m.actor.clone(),
                    attack: weapon.to_lowercase(),
                    target: m.anyone(target)?,
                    range: None,
                    modifier: 0,
                    behind: true,
                }))),
                _ => Err("`behind WEAPON TARGET`".to_owned()),
            }
        }
        _ => Err(unknown_command(verb, menu)),
    }
}

/// A comma-separated list of combatant ids.
pub(super) fn ids(list: &str) -> Vec<CombatantId> {
    list.split(',')
        .filter(|w| !w.is_empty())
        .map(|w| CombatantId::new(w.to_lowercase()))
        .collect()
}
