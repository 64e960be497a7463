//! Previews (`Ruleset::preview`, the protocol's `preview`): what an Orcus command would cover,
//! computed by the decide code itself — `areas.rs` for an area power, the charge's course check
//! of `maneuvers.rs` — so the page draws exactly what the command would hit, never a copy of
//! the rules. Nothing is decided: the world is only read, no die is drawn (the decide code gets
//! a copy of the dice stream, dropped unused) and no event is made.

use super::Board;
use super::commands::{R, no, power};
use crate::content::model::TargetRule;
use crate::ecs::components::Dice;
use crate::rules::common::decider::Decider;
use crate::rules::common::field::Field;
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemState;
use fray_protocol::{Command, CommandPreview, ErrorCode, OrcusCommand};

/// What `cmd` would cover in an Orcus session's world (the registry row's `preview`).
pub fn preview(world: &mut World, cmd: &Command) -> R<CommandPreview> {
    let mut params: SystemState<(Field, Board, Res<Dice>)> = SystemState::new(world);
    let (field, board, dice) = params.get(world).map_err(|e| {
        no(
            ErrorCode::SessionUnavailable,
            format!("the session's world cannot be read for a preview: {e}"),
        )
    })?;
    let mut unused = dice.0.clone();
    let d = Decider::new(&field, &mut unused);
    of(&d, &board, cmd)
}

/// The preview of one command: an area power's squares and the creatures it would take (or
/// could be given), a charge's path and target; other commands cover nothing on the map.
pub(super) fn of(d: &Decider, b: &Board, cmd: &Command) -> R<CommandPreview> {
    match cmd {
        Command::Orcus(OrcusCommand::AreaAttack {
            actor,
            attack,
            origin,
            targets,
            origin_height,
            weapon,
            ..
        }) => {
            // As `area_attack` decides it: the power (with the chosen weapon), then its area.
            let p = super::weapons::choose(power(b, actor, attack)?, *weapon)?;
            super::aloft::check_origin_height(p, *origin_height)?;
            let area = super::areas::area_of(d, b, actor, p, (*origin, *origin_height))?;
            // A power whose targets the user names, named none yet: whom it could name.
            let chooses = !matches!(
                p.targets,
                TargetRule::AllCreatures | TargetRule::AllEnemies | TargetRule::AllAllies
            );
            let mut affected = if chooses && targets.is_empty() {
                super::areas::choosable(d, b, actor, p, &area.inside)
            } else {
                super::areas::targets(d, b, actor, p, &area.inside, targets)?
            };
            affected.sort();
            Ok(CommandPreview {
                squares: area.squares.into_iter().collect(),
                path: Vec::new(),
                targets: affected,
            })
        }
        Command::Orcus(OrcusCommand::Charge {
            actor,
            target,
            path,
        }) => {
            super::maneuvers::charge_course(d, b, actor, target, path)?;
            Ok(CommandPreview {
                squares: Vec::new(),
                path: path.clone(),
                targets: vec![target.clone()],
            })
        }
        other => Err(no(
            ErrorCode::InvalidArgument,
            format!(
                "'{}' covers nothing on the map to preview (previews: area_attack, charge)",
                other.kind()
            ),
        )),
    }
}
