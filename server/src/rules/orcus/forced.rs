//! Orcus § Unwilling movement (`orcus-basic-rules.txt`): a power's push, pull or shunt moves a
//! target it hits. The user chooses the path (the `forced` field of `attack` and
//! `area_attack`), checked before any die is rolled; without a choice Fray takes the
//! straightest free path (`geometry.rs::Geo::forced_path`). Aloft (elevation, an interpretation):
//! the target keeps its height; only creatures whose cubes meet its own stop it.

use super::Board;
use super::commands::{R, no, space};
use super::geometry::{self, Geo, Space};
use crate::content::model::{ForcedKindSpec, ForcedSpec, PowerSpec};
use crate::rules::common::decider::Decider;
use fray_protocol::ErrorCode;
use fray_protocol::OrcusEvent;
use fray_protocol::event::GameEvent;
use fray_protocol::grid::{ForcedPath, MoveMode, Square};
use fray_protocol::ids::CombatantId;
use fray_protocol::state::LifeStatus;

fn kind(f: ForcedSpec) -> geometry::ForcedKind {
    match f.kind {
        ForcedKindSpec::Push => geometry::ForcedKind::Push,
        ForcedKindSpec::Pull => geometry::ForcedKind::Pull,
        ForcedKindSpec::Shunt => geometry::ForcedKind::Shunt,
    }
}

/// The spaces that stop `target`'s forced movement: every other creature still in the fight
/// (its rider or mount, sharing its space, aside) whose cubes meet the target's. Elevation (an
/// interpretation, `aloft.rs`): a creature moved while aloft keeps its height and moves
/// horizontally at it, so only creatures level with it stop it; it can be pushed over (or
/// under) the others. A climber moved off its wall falls after the command
/// (`elevation::sweep`); a flier stays up.
fn obstacles(d: &Decider, b: &Board, target: &CombatantId) -> Vec<Space> {
    d.field
        .all()
        .filter(|c| &c.c.id != target && !matches!(c.vit.0, LifeStatus::Dead | LifeStatus::Slain))
        .filter(|c| !super::mounts::shares_space(b, &c.c.id, target))
        .filter(|c| super::aloft::level_with(d, b, target, &c.c.id))
        .filter_map(|c| space(d, b, &c.c.id).ok())
        .collect()
}

fn bad(msg: String) -> fray_protocol::Rejection {
    no(ErrorCode::InvalidForcedPath, msg)
}

/// Checks the user's chosen paths before any die is drawn: the power moves its targets, each
/// named creature is one of `targets` and named once, and each path is one the movement allows
/// from `source` on the board as it stands (`invalid_forced_path` otherwise).
pub(super) fn check(
    d: &Decider,
    b: &Board,
    g: Option<&Geo>,
    p: &PowerSpec,
    source: Space,
    targets: &[CombatantId],
    chosen: &[ForcedPath],
) -> R {
    if chosen.is_empty() {
        return Ok(());
    }
    let Some(f) = p.forced else {
        return Err(bad(format!(
            "{} moves no one (it has no push, pull or shunt)",
            p.name
        )));
    };
    let Some(g) = g else {
        return Err(bad("this session has no map".into()));
    };
    for (i, c) in chosen.iter().enumerate() {
        if !targets.contains(&c.target) {
            return Err(bad(format!("{} is not a target of {}", c.target, p.name)));
        }
        if chosen[..i].iter().any(|o| o.target == c.target) {
            return Err(bad(format!("{}'s path is given twice", c.target)));
        }
        let t_sp = space(d, b, &c.target)?;
        let occ = obstacles(d, b, &c.target);
        if let Err((_, why)) = g.chosen_forced_path(kind(f), source, t_sp, f.squares, &c.path, &occ)
        {
            return Err(bad(format!("{}'s path: {why}", c.target)));
        }
    }
    Ok(())
}

/// Moves a target the power hit: along the user's chosen path when there is one (stopping
/// before a square a creature moved earlier in this attack now fills), else along Fray's
/// straightest free path. It provokes nothing (`grid_moved` in mode `unwilling`).
pub(super) fn apply(
    d: &mut Decider,
    b: &Board,
    g: Option<&Geo>,
    source: Space,
    target: &CombatantId,
    f: ForcedSpec,
    chosen: &[ForcedPath],
) {
    let (Some(g), Ok(t_sp)) = (g, space(d, b, target)) else {
        return;
    };
    let occ = obstacles(d, b, target);
    let path: Vec<Square> = match chosen.iter().find(|c| &c.target == target) {
        Some(c) => match g.chosen_forced_path(kind(f), source, t_sp, f.squares, &c.path, &occ) {
            Ok(p) | Err((p, _)) => p,
        },
        None => g.forced_path(kind(f), source, t_sp, f.squares, &occ),
    };
    if !path.is_empty() {
        let combatant = super::mounts::forced_mover(d, b, target);
        d.emit(GameEvent::Orcus(OrcusEvent::GridMoved {
            combatant,
            path,
            cost: 0,
            mode: MoveMode::Unwilling,
        }));
    }
}
