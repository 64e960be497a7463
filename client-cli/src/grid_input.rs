//! `fray play` verbs for grid rulesets (Orcus): moving along squares, area attacks, action
//! points and the universal maneuvers. Squares are written `X,Y` (column, row from the
//! north-west corner, as in the state's `grid.square`).

use crate::input::{Input, Menu};
use fray_protocol::OrcusCommand;
use fray_protocol::command::{EscapeSkill, WeaponHand};
use fray_protocol::event::ActionKind;
use fray_protocol::grid::{ForcedPath, MoveMode, Square};
use fray_protocol::{CombatantId, Command};

/// The help for these verbs.
pub const HELP: &str = "\
Grid commands (Orcus; squares are X,Y):
  walk X,Y X,Y...           walk along adjacent squares (a move action, up to speed)
  run X,Y...                run: speed + 2, then -5 to attacks and off-guard
  step X,Y                  step one square (provokes no opportunity attack)
  fly|climb|swim|burrow X,Y...  move with that speed (swim: through water only)
  run-fly|run-climb|run-swim|run-burrow X,Y...  run in that mode (its speed + 2)
  (any move) ... hide       try to hide at the end of the move (Stealth vs each enemy's
                            passive Perception; needs three-quarters cover or total concealment)
  stand                     stand up from prone (a move action)
  defend                    full defense: +2 to all defenses (a standard action)
  ap standard|move|swift    spend an action point for one more action
  area ATTACK [X,Y] [TARGET] [height=N] [side]  a near or far area power; X,Y is the far
                            burst's centre or the blast's north-west square; TARGET when the
                            power picks one; height=N lifts a far area's origin N squares
                            (0-20); side: a Weapon power made with the side weapon;
                            WHO>X,Y>X,Y: the squares a target hit is pushed, pulled or
                            shunted through (WHO>: not moved)
  charge TARGET X,Y...      walk straight at TARGET and make a basic melee attack (+1 after 2
                            squares); the turn's other actions are lost
  bullrush TARGET X,Y [follow]  push an adjacent enemy to X,Y; follow steps into its square
  grapple TARGET            grapple an adjacent enemy
  escape acrobatics|athletics [X,Y]  escape a grapple, then maybe step to X,Y
  maintain [WHO] EFFECT     maintain a grapple (a swift action) or a power's effect or zone
                            (its maintain action), by its #number
  end-effect [WHO] EFFECT   end an effect, zone or grapple WHO maintains (a free action, any
                            turn); WHO: the creator, when it is not the one acting now
  letgo GRAPPLER TARGET     end a grapple (a free action)
  mount MOUNT [control]     mount an adjacent larger ally (a move action); control: a trained
                            mount that acts with the actions you give up
  dismount X,Y              dismount into an adjacent free square (a move action)
  command-mount standard|move|swift  give up an action for your controlled mount to take
                            (your next verbs act for the mount until it has used it)
  aloft N                   fly (or climb a ^ square) to N squares above the ground
  surprise WHO...           GM: start with a surprise round; WHO are the surprised
  reorder WHO...            GM: set the initiative order (every combatant once)
  orcus-xp A,B,.. [BONUS] [MONSTER..]  GM: award the monsters' XP (by level and rank) and a
                            bonus, shared evenly by the heroes A, B, ..";

/// A square written `X,Y`.
pub(crate) fn square(word: &str) -> Result<Square, String> {
    let (x, y) = word
        .split_once(',')
        .ok_or_else(|| format!("`{word}` is not a square; write X,Y (e.g. 4,2)"))?;
    let n = |s: &str| {
        s.trim()
            .parse::<i32>()
            .map_err(|_| format!("`{word}` is not a square; write X,Y (e.g. 4,2)"))
    };
    Ok(Square::new(n(x)?, n(y)?))
}

fn squares(words: &[&str]) -> Result<Vec<Square>, String> {
    words.iter().map(|w| square(w)).collect()
}

fn ids(words: &[&str]) -> Vec<CombatantId> {
    words
        .iter()
        .map(|w| CombatantId::new(w.to_lowercase()))
        .collect()
}

/// An action named `standard`, `move` or `swift`.
fn action_word(w: &str) -> Option<ActionKind> {
    match w.to_ascii_lowercase().as_str() {
        "standard" => Some(ActionKind::Standard),
        "move" => Some(ActionKind::Move),
        "swift" | "quick" => Some(ActionKind::Quick),
        _ => None,
    }
}

/// Parses a grid verb; `None` when `verb` is not one of them.
pub fn parse(verb: &str, args: &[&str], menu: Option<&Menu>) -> Option<Result<Input, String>> {
    let need = || {
        menu.ok_or_else(|| {
            format!("none of your combatants can act now, so `{verb}` has no one to act for")
        })
    };
    let game = |c: Command| Ok(Input::Game(c));
    let result = match verb {
        "walk" | "run" | "step" | "fly" | "climb" | "swim" | "burrow" | "run-fly" | "run-climb"
        | "run-swim" | "run-burrow" => (|| {
            let m = need()?;
            // § Stealth: a trailing `hide` tries to hide at the end of the move.
            let (args, hide) = match args.split_last() {
                Some((last, rest)) if last.eq_ignore_ascii_case("hide") => (rest, true),
                _ => (args, false),
            };
            if args.is_empty() {
                return Err(format!(
                    "`{verb} X,Y... [hide]`: the squares to enter, in order"
                ));
            }
            let mode = match verb {
                "walk" => MoveMode::Walk,
                "run" => MoveMode::Run,
                "fly" => MoveMode::Fly,
                "climb" => MoveMode::Climb,
                "swim" => MoveMode::Swim,
                "burrow" => MoveMode::Burrow,
                "run-fly" => MoveMode::RunFly,
                "run-climb" => MoveMode::RunClimb,
                "run-swim" => MoveMode::RunSwim,
                "run-burrow" => MoveMode::RunBurrow,
                _ => MoveMode::Step,
            };
            game(Command::Orcus(OrcusCommand::MoveTo {
                actor: m.actor.clone(),
                path: squares(args)?,
                mode,
                hide,
            }))
        })(),
        "stand" | "stand-up" => need().and_then(|m| {
            game(Command::Orcus(OrcusCommand::StandUp {
                actor: m.actor.clone(),
            }))
        }),
        "defend" | "full-defense" => need().and_then(|m| {
            game(Command::Orcus(OrcusCommand::FullDefense {
                actor: m.actor.clone(),
            }))
        }),
        "ap" => (|| {
            let m = need()?;
            let action = match args {
                [w] if w.eq_ignore_ascii_case("standard") => ActionKind::Standard,
                [w] if w.eq_ignore_ascii_case("move") => ActionKind::Move,
                [w] if w.eq_ignore_ascii_case("swift") || w.eq_ignore_ascii_case("quick") => {
                    ActionKind::Quick
                }
                _ => return Err("`ap standard|move|swift`".to_owned()),
            };
            game(Command::Orcus(OrcusCommand::SpendActionPoint {
                actor: m.actor.clone(),
                action,
            }))
        })(),
        "mount" => (|| {
            let m = need()?;
            let (mount, control) = match args {
                [w] => (w, false),
                [w, c] if c.eq_ignore_ascii_case("control") => (w, true),
                _ => return Err("`mount MOUNT [control]`".to_owned()),
            };
            game(Command::Orcus(OrcusCommand::Mount {
                actor: m.actor.clone(),
                mount: CombatantId::new(mount.to_lowercase()),
                control,
            }))
        })(),
        "dismount" => (|| {
            let m = need()?;
            let [to] = args else {
                return Err("`dismount X,Y`: the adjacent square to land in".to_owned());
            };
            game(Command::Orcus(OrcusCommand::Dismount {
                actor: m.actor.clone(),
                to: square(to)?,
            }))
        })(),
        "command-mount" => (|| {
            let m = need()?;
            let action = match args {
                [w] => action_word(w).ok_or("`command-mount standard|move|swift`")?,
                _ => return Err("`command-mount standard|move|swift`".to_owned()),
            };
            game(Command::Orcus(OrcusCommand::CommandMount {
                actor: m.actor.clone(),
                action,
            }))
        })(),
        "aloft" => (|| {
            let m = need()?;
            let height = match args {
                [w] => w
                    .parse::<i32>()
                    .map_err(|_| format!("`aloft N`: `{w}` is not a height in squares"))?,
                _ => return Err("`aloft N`: the height in squares (0: the ground)".to_owned()),
            };
            game(Command::Orcus(OrcusCommand::MoveAloft {
                actor: m.actor.clone(),
                height,
            }))
        })(),
        "area" => (|| {
            let m = need()?;
            let Some((attack, rest)) = args.split_first() else {
                return Err("`area ATTACK [X,Y] [TARGET]`".to_owned());
            };
            let mut origin = None;
            let mut targets = Vec::new();
            let (mut origin_height, mut weapon, mut forced) = (None, None, Vec::new());
            for w in rest {
                let lw = w.to_lowercase();
                if let Some(h) = lw.strip_prefix("height=").or_else(|| lw.strip_prefix("h=")) {
                    let h = h
                        .parse::<i32>()
                        .map_err(|_| format!("`{w}`: height=N, the origin's height in squares"))?;
                    origin_height = Some(h);
                } else if lw == "side" {
                    weapon = Some(WeaponHand::Side);
                } else if lw == "main" {
                    weapon = Some(WeaponHand::Main);
                } else if let Some((who, path)) = lw.split_once('>') {
                    // § Unwilling movement: WHO>X,Y>X,Y… the squares a target hit is moved
                    // through (`WHO>`: it is not moved).
                    forced.push(ForcedPath {
                        target: CombatantId::new(who),
                        path: squares(
                            &path
                                .split('>')
                                .filter(|p| !p.is_empty())
                                .collect::<Vec<_>>(),
                        )?,
                    });
                } else if w.contains(',') {
                    origin = Some(square(w)?);
                } else {
                    targets.push(CombatantId::new(lw));
                }
            }
            game(Command::Orcus(OrcusCommand::AreaAttack {
                actor: m.actor.clone(),
                attack: attack.to_lowercase(),
                origin,
                targets,
                forced,
                origin_height,
                weapon,
                secondary_target: None,
            }))
        })(),
        "charge" => (|| {
            let m = need()?;
            let Some((target, path)) = args.split_first() else {
                return Err("`charge TARGET X,Y...`".to_owned());
            };
            game(Command::Orcus(OrcusCommand::Charge {
                actor: m.actor.clone(),
                target: CombatantId::new(target.to_lowercase()),
                path: squares(path)?,
            }))
        })(),
        "bullrush" | "bull-rush" => (|| {
            let m = need()?;
            let (target, to, follow) = match args {
                [t, sq] => (t, sq, false),
                [t, sq, f] if f.eq_ignore_ascii_case("follow") => (t, sq, true),
                _ => return Err("`bullrush TARGET X,Y [follow]`".to_owned()),
            };
            game(Command::Orcus(OrcusCommand::BullRush {
                actor: m.actor.clone(),
                target: CombatantId::new(target.to_lowercase()),
                push_to: square(to)?,
                follow,
            }))
        })(),
        "grapple" => (|| {
            let m = need()?;
            let [target] = args else {
                return Err("`grapple TARGET`".to_owned());
            };
            game(Command::Orcus(OrcusCommand::Grapple {
                actor: m.actor.clone(),
                target: CombatantId::new(target.to_lowercase()),
            }))
        })(),
        "escape" => (|| {
            let m = need()?;
            let (skill, step) = match args {
                [s] => (s, None),
                [s, sq] => (s, Some(square(sq)?)),
                _ => return Err("`escape acrobatics|athletics [X,Y]`".to_owned()),
            };
            let skill = match skill.to_lowercase().as_str() {
                "acrobatics" => EscapeSkill::Acrobatics,
                "athletics" => EscapeSkill::Athletics,
                other => return Err(format!("`{other}`: acrobatics or athletics")),
            };
            game(Command::Orcus(OrcusCommand::Escape {
                actor: m.actor.clone(),
                skill,
                step_to: step,
            }))
        })(),
        "maintain" | "end-effect" | "release" => (|| {
            let usage = if verb == "maintain" {
                "`maintain [WHO] EFFECT` (the effect's or zone's number)"
            } else {
                "`end-effect [WHO] EFFECT` (the effect's or zone's number)"
            };
            let (actor, n) = match args {
                [n] => (need()?.actor.clone(), n),
                [who, n] => (CombatantId::new(who.to_lowercase()), n),
                _ => return Err(usage.to_owned()),
            };
            let effect = n
                .trim_start_matches('#')
                .parse::<u32>()
                .map_err(|_| format!("`{n}` is not an effect number; {usage}"))?;
            game(if verb == "maintain" {
                Command::Orcus(OrcusCommand::Maintain { actor, effect })
            } else {
                Command::Orcus(OrcusCommand::EndEffect { actor, effect })
            })
        })(),
        "surprise" => game(Command::StartSurprise {
            surprised: ids(args),
        }),
        "orcus-xp" => match args.split_first() {
            Some((party, rest)) => {
                let mut bonus = 0;
                let mut monsters = Vec::new();
                for w in rest {
                    match w.parse::<u32>() {
                        Ok(n) => bonus = n,
                        Err(_) => monsters.push(CombatantId::new(w.to_lowercase())),
                    }
                }
                game(Command::Orcus(OrcusCommand::OrcusAwardXp {
                    monsters,
                    bonus,
                    party: ids(&party.split(',').collect::<Vec<_>>()),
                }))
            }
            None => Err("`orcus-xp A,B,.. [BONUS] [MONSTER..]` (GM)".to_owned()),
        },
        "reorder" => {
            if args.is_empty() {
                Err("`reorder WHO...` (GM): every combatant once, in order".to_owned())
            } else {
                game(Command::ReorderInitiative { order: ids(args) })
            }
        }
        _ => return None,
    };
    Some(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn menu() -> Menu {
        Menu {
            actor: CombatantId::new("brenna"),
            attacks: vec![],
            targets: vec![],
            everyone: vec![],
        }
    }

    fn game(line: &str) -> Command {
        let words: Vec<&str> = line.split_whitespace().collect();
        match parse(words[0], &words[1..], Some(&menu())) {
            Some(Ok(Input::Game(c))) => c,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn grid_verbs_become_orcus_commands() {
        assert_eq!(
            game("walk 4,4 5,3"),
            Command::Orcus(OrcusCommand::MoveTo {
                actor: CombatantId::new("brenna"),
                path: vec![Square::new(4, 4), Square::new(5, 3)],
                mode: MoveMode::Walk,
                hide: false,
            })
        );
        // § Stealth: a trailing `hide` hides at the end of the move.
        assert_eq!(
            game("run 4,4 5,3 hide"),
            Command::Orcus(OrcusCommand::MoveTo {
                actor: CombatantId::new("brenna"),
                path: vec![Square::new(4, 4), Square::new(5, 3)],
                mode: MoveMode::Run,
                hide: true,
            })
        );
        assert_eq!(
            game("run-swim 4,4"),
            Command::Orcus(OrcusCommand::MoveTo {
                actor: CombatantId::new("brenna"),
                path: vec![Square::new(4, 4)],
                mode: MoveMode::RunSwim,
                hide: false,
            })
        );
        assert_eq!(
            game("fly 4,4"),
            Command::Orcus(OrcusCommand::MoveTo {
                actor: CombatantId::new("brenna"),
                path: vec![Square::new(4, 4)],
                mode: MoveMode::Fly,
                hide: false,
            })
        );
        assert_eq!(
            game("area frost-bloom 6,2"),
            Command::Orcus(OrcusCommand::AreaAttack {
                actor: CombatantId::new("brenna"),
                attack: "frost-bloom".into(),
                origin: Some(Square::new(6, 2)),
                targets: vec![],
                forced: Vec::new(),
                origin_height: None,
                weapon: None,
                secondary_target: None,
            })
        );
        assert_eq!(
            game("bullrush gutter-rat-1 1,2 follow"),
            Command::Orcus(OrcusCommand::BullRush {
                actor: CombatantId::new("brenna"),
                target: CombatantId::new("gutter-rat-1"),
                push_to: Square::new(1, 2),
                follow: true,
            })
        );
        assert_eq!(
            game("escape athletics 1,1"),
            Command::Orcus(OrcusCommand::Escape {
                actor: CombatantId::new("brenna"),
                skill: EscapeSkill::Athletics,
                step_to: Some(Square::new(1, 1)),
            })
        );
        assert_eq!(
            game("mount warhorse control"),
            Command::Orcus(OrcusCommand::Mount {
                actor: CombatantId::new("brenna"),
                mount: CombatantId::new("warhorse"),
                control: true,
            })
        );
        assert_eq!(
            game("dismount 2,3"),
            Command::Orcus(OrcusCommand::Dismount {
                actor: CombatantId::new("brenna"),
                to: Square::new(2, 3),
            })
        );
        assert_eq!(
            game("command-mount move"),
            Command::Orcus(OrcusCommand::CommandMount {
                actor: CombatantId::new("brenna"),
                action: ActionKind::Move,
            })
        );
        assert_eq!(
            game("aloft 3"),
            Command::Orcus(OrcusCommand::MoveAloft {
                actor: CombatantId::new("brenna"),
                height: 3,
            })
        );
        assert_eq!(
            game("ap swift"),
            Command::Orcus(OrcusCommand::SpendActionPoint {
                actor: CombatantId::new("brenna"),
                action: ActionKind::Quick,
            })
        );
    }

    /// orcus-basic-rules.txt § Areas of effect (far areas centred aloft: `origin_height`) and
    /// § Weapon properties, Side Weapon: `area` takes `height=N` and `side` (or `main`).
    #[test]
    fn area_takes_an_origin_height_and_the_side_weapon_side_weapon() {
        assert_eq!(
            game("area frost-bloom 6,2 height=2"),
            Command::Orcus(OrcusCommand::AreaAttack {
                actor: CombatantId::new("brenna"),
                attack: "frost-bloom".into(),
                origin: Some(Square::new(6, 2)),
                targets: vec![],
                forced: Vec::new(),
                origin_height: Some(2),
                weapon: None,
                secondary_target: None,
            })
        );
        assert_eq!(
            game("area Sweep SIDE"),
            Command::Orcus(OrcusCommand::AreaAttack {
                actor: CombatantId::new("brenna"),
                attack: "sweep".into(),
                origin: None,
                targets: vec![],
                forced: Vec::new(),
                origin_height: None,
                weapon: Some(WeaponHand::Side),
                secondary_target: None,
            })
        );
        assert_eq!(
            game("area volley 3,3 gutter-rat-1 h=0 main"),
            Command::Orcus(OrcusCommand::AreaAttack {
                actor: CombatantId::new("brenna"),
                attack: "volley".into(),
                origin: Some(Square::new(3, 3)),
                targets: vec![CombatantId::new("gutter-rat-1")],
                forced: Vec::new(),
                origin_height: Some(0),
                weapon: Some(WeaponHand::Main),
                secondary_target: None,
            })
        );
    }

    /// orcus-basic-rules.txt § Unwilling movement (the user chooses where each target goes):
    /// `area … WHO>X,Y>X,Y` gives a target's forced path, `WHO>` none.
    #[test]
    fn area_takes_forced_paths_unwilling_movement() {
        assert_eq!(
            game("area tide 2,2 Rat-1>5,3>6,3 rat-2>"),
            Command::Orcus(OrcusCommand::AreaAttack {
                actor: CombatantId::new("brenna"),
                attack: "tide".into(),
                origin: Some(Square::new(2, 2)),
                targets: vec![],
                forced: vec![
                    ForcedPath {
                        target: CombatantId::new("rat-1"),
                        path: vec![Square::new(5, 3), Square::new(6, 3)],
                    },
                    ForcedPath {
                        target: CombatantId::new("rat-2"),
                        path: vec![],
                    },
                ],
                origin_height: None,
                weapon: None,
                secondary_target: None,
            })
        );
    }

    /// orcus-basic-rules.txt § Experience Points: `orcus-xp` names the party (commas), a bonus
    /// and the monsters, in any order after the party.
    #[test]
    fn orcus_xp_names_the_party_a_bonus_and_the_monsters_experience_points() {
        assert_eq!(
            game("orcus-xp Kael,lira brute-1 50 Brute-2"),
            Command::Orcus(OrcusCommand::OrcusAwardXp {
                monsters: vec![CombatantId::new("brute-1"), CombatantId::new("brute-2")],
                bonus: 50,
                party: vec![CombatantId::new("kael"), CombatantId::new("lira")],
            })
        );
    }

    /// orcus-basic-rules.txt § Maintain ("You can end an effect that requires maintenance at
    /// any time as a free action"): `maintain` and `end-effect` take the effect's or zone's
    /// number, for the acting combatant or a named one (out of its turn).
    #[test]
    fn maintain_and_end_effect_name_the_effect_maintain() {
        assert_eq!(
            game("maintain #12"),
            Command::Orcus(OrcusCommand::Maintain {
                actor: CombatantId::new("brenna"),
                effect: 12,
            })
        );
        assert_eq!(
            game("end-effect 14"),
            Command::Orcus(OrcusCommand::EndEffect {
                actor: CombatantId::new("brenna"),
                effect: 14,
            })
        );
        assert_eq!(
            game("release Orin #14"),
            Command::Orcus(OrcusCommand::EndEffect {
                actor: CombatantId::new("orin"),
                effect: 14,
            })
        );
        // Naming the creator needs no combatant acting now.
        assert_eq!(
            parse("end-effect", &["orin", "3"], None),
            Some(Ok(Input::Game(Command::Orcus(OrcusCommand::EndEffect {
                actor: CombatantId::new("orin"),
                effect: 3,
            }))))
        );
    }

    #[test]
    fn bad_grid_input_says_what_is_accepted() {
        let err = |line: &str| {
            let words: Vec<&str> = line.split_whitespace().collect();
            match parse(words[0], &words[1..], Some(&menu())) {
                Some(Err(e)) => e,
                other => panic!("{line}: {other:?}"),
            }
        };
        assert!(err("walk 4-4").contains("X,Y"));
        assert!(err("escape swimming").contains("acrobatics or athletics"));
        assert!(err("ap twice").contains("standard|move|swift"));
        assert!(err("end-effect").contains("end-effect [WHO] EFFECT"));
        assert!(err("end-effect zone").contains("not an effect number"));
        assert!(err("area burst height=up").contains("height=N"));
        assert!(err("area burst rat>5;3").contains("X,Y"));
        assert!(matches!(parse("end-effect", &["4"], None), Some(Err(_))));
        assert!(parse("dance", &[], Some(&menu())).is_none());
        // Without a combatant to act for.
        assert!(matches!(parse("stand", &[], None), Some(Err(_))));
    }
}
