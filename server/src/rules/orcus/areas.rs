//! An area power's area as a command places it (§ Areas of effect): its squares after line of
//! effect and the map's edges, the square it originates from, the creatures inside, and whom
//! of them the power takes (§ Targets). The one computation the decide of `area_attack`
//! (`commands.rs`) and the preview (`preview.rs`) share, so a preview shows exactly what the
//! command would hit.

use super::Board;
use super::commands::{R, geo, no, space};
use super::elevation;
use super::geometry::{self, AreaError, Body, Geo, Space};
use crate::content::model::{Origin, PowerSpec, TargetRule};
use crate::rules::common::decider::Decider;
use crate::rules::common::field::has_condition;
use fray_protocol::ErrorCode;
use fray_protocol::event::Condition;
use fray_protocol::grid::Square;
use fray_protocol::ids::CombatantId;
use fray_protocol::state::LifeStatus;
use std::collections::BTreeSet;

/// An area placed by a command.
pub(super) struct Area {
    /// The map's geometry it was computed on.
    pub geo: Geo,
    /// Its squares: on the map, each with line of effect from its origin.
    pub squares: BTreeSet<Square>,
    /// Where it originates (cover is judged from it): the user, or a far area's origin square.
    pub from: Body,
    /// The creatures inside (not the user, not the dead), each once, with its distance from
    /// the user.
    pub inside: Vec<(CombatantId, i32)>,
}

/// The area of power `p` used by `actor` at `origin` (a far area's origin square lifted by
/// `origin_height`); refused as the command is (no map, no line of effect to the origin, out
/// of range, no origin, not an area power).
pub(super) fn area_of(
    d: &Decider,
    b: &Board,
    actor: &CombatantId,
    p: &PowerSpec,
    (origin, origin_height): (Option<Square>, Option<i32>),
) -> R<Area> {
    let me = space(d, b, actor)?;
    let my_body = elevation::body(d, b, actor)?;
    let g = geo(b).ok_or_else(|| no(ErrorCode::InvalidArgument, "this session has no map"))?;
    let area_err = |e: AreaError| match e {
        AreaError::NoLineOfEffect => no(
            ErrorCode::NoLineOfEffect,
            format!("{}: no line of effect to the origin square", p.name),
        ),
        AreaError::OriginOffMap(_) | AreaError::EmptyBlast | AreaError::UserOffMap(_) => {
            no(ErrorCode::InvalidArgument, format!("{}: {e}", p.name))
        }
        _ => no(ErrorCode::OutOfRange, format!("{}: {e}", p.name)),
    };
    // The area and the square it originates from (§ Areas of effect; cover is judged from it),
    // then the heights it fills (elevation: bursts and blasts are cubes; eyesight and earshot
    // have none, walls being full height). A far area's origin square is on the ground unless
    // `origin_height` lifts it (`aloft.rs`).
    let (squares, from) = match (p.origin, origin) {
        // § Areas of effect, special sizes: the creatures the user sees and/or that hear it.
        (o, _) if o.senses().is_some() => {
            let blinded = d
                .field
                .get(actor)
                .is_some_and(|f| has_condition(f.fx, Condition::Blinded));
            let others: Vec<(Space, bool)> = d
                .field
                .all()
                .filter(|f| &f.c.id != actor)
                .filter_map(|f| {
                    // § Stealth: a creature hidden from the user is out of its eyesight.
                    let seen = !super::stealth::unseen(d, b, &f.c.id, actor);
                    space(d, b, &f.c.id).ok().map(|s| (s, seen))
                })
                .collect();
            let senses = o.senses().unwrap_or_default();
            let map = b.map.0.as_ref();
            (
                super::senses::sensed(&g, map, me, blinded, senses, others),
                my_body,
            )
        }
        (Origin::NearBurst { size }, _) => (g.near_burst(me, size).map_err(area_err)?, my_body),
        (Origin::NearBlast { size }, Some(o)) => {
            (g.near_blast(me, o, size).map_err(area_err)?, my_body)
        }
        (Origin::FarBurst { size, range }, Some(o)) => (
            g.far_burst(me, o, size, range).map_err(area_err)?,
            super::aloft::far_origin(p, my_body, o, origin_height)?,
        ),
        (Origin::FarBlast { size, range }, Some(o)) => {
            let (o, area) = g.far_blast(me, o, size, range).map_err(area_err)?;
            (
                area,
                super::aloft::far_origin(p, my_body, o, origin_height)?,
            )
        }
        (Origin::NearBlast { .. } | Origin::FarBurst { .. } | Origin::FarBlast { .. }, None) => {
            return Err(no(
                ErrorCode::InvalidArgument,
                format!("{} needs an origin square", p.name),
            ));
        }
        _ => {
            return Err(no(
                ErrorCode::InvalidArgument,
                format!("{} is not an area power: use attack", p.name),
            ));
        }
    };
    let heights = match p.origin {
        Origin::NearBurst { size } | Origin::FarBurst { size, .. } => {
            Some(geometry::burst_heights(from.heights(), size))
        }
        Origin::NearBlast { size } | Origin::FarBlast { size, .. } => {
            Some(geometry::blast_heights(from.heights(), size))
        }
        _ => None,
    };
    // Creatures in the area, each once however many of its squares (or cubes) are inside
    // (§ Areas of effect); the area's squares all have line of effect from its origin.
    let mut inside: Vec<(CombatantId, i32)> = Vec::new();
    for f in d.field.all() {
        if &f.c.id == actor || matches!(f.vit.0, LifeStatus::Dead | LifeStatus::Slain) {
            continue;
        }
        let Ok(s) = elevation::body(d, b, &f.c.id) else {
            continue;
        };
        if s.space.squares().any(|q| squares.contains(&q))
            && heights.is_none_or(|h| h.overlaps(s.heights()))
        {
            inside.push((f.c.id.clone(), geometry::distance_3d(my_body, s)));
        }
    }

    Ok(Area {
        geo: g,
        squares,
        from,
        inside,
    })
}

/// Whom in the area the power takes (§ Targets): every creature its rule takes, or the
/// creatures the command chose (`chosen`), checked against the rule.
pub(super) fn targets(
    d: &Decider,
    b: &Board,
    actor: &CombatantId,
    p: &PowerSpec,
    inside: &[(CombatantId, i32)],
    chosen: &[CombatantId],
) -> R<Vec<CombatantId>> {
    let fits = |c: &CombatantId| fits(d, b, actor, p, c);
    Ok(match p.targets {
        TargetRule::AllCreatures | TargetRule::AllEnemies | TargetRule::AllAllies => inside
            .iter()
            .filter(|(c, _)| fits(c))
            .map(|(c, _)| c.clone())
            .collect(),
        TargetRule::Any => {
            if chosen.is_empty() {
                return Err(no(
                    ErrorCode::WrongTargetCount,
                    format!(
                        "{} targets creatures of your choice in the area: name them",
                        p.name
                    ),
                ));
            }
            let mut picked: Vec<CombatantId> = Vec::new();
            for c in chosen {
                if !inside.iter().any(|(i, _)| i == c) {
                    return Err(no(
                        ErrorCode::InvalidTarget,
                        format!("{c} is not in the area"),
                    ));
                }
                if picked.contains(c) {
                    return Err(no(ErrorCode::InvalidTarget, format!("{c} is named twice")));
                }
                picked.push(c.clone());
            }
            picked
        }
        TargetRule::OneEnemy
        | TargetRule::OneCreature
        | TargetRule::NearestEnemy
        | TargetRule::OneAlly
        | TargetRule::NearestAlly => {
            if chosen.len() != 1 {
                return Err(no(
                    ErrorCode::WrongTargetCount,
                    format!("{} targets one creature in the area: name it", p.name),
                ));
            }
            let Some((c, dist)) = inside.iter().find(|(c, _)| *c == chosen[0]) else {
                return Err(no(
                    ErrorCode::InvalidTarget,
                    format!("{} is not in the area", chosen[0]),
                ));
            };
            if !fits(c) {
                let who = if p.targets.allies() == Some(true) {
                    "allies"
                } else {
                    "enemies"
                };
                return Err(no(
                    ErrorCode::InvalidTarget,
                    format!("{} targets {who} only", p.name),
                ));
            }
            if matches!(
                p.targets,
                TargetRule::NearestEnemy | TargetRule::NearestAlly
            ) && inside.iter().any(|(o, od)| fits(o) && od < dist)
            {
                return Err(no(
                    ErrorCode::InvalidTarget,
                    format!("{c} is not the nearest such creature in the area"),
                ));
            }
            vec![c.clone()]
        }
    })
}

/// The creatures in the area a power whose targets the user chooses could be given (§ Targets):
/// for `any`, everyone inside; for one creature, those its rule allows; for the nearest, the
/// allowed ones at the least distance. Empty for a power that takes its targets itself.
pub(super) fn choosable(
    d: &Decider,
    b: &Board,
    actor: &CombatantId,
    p: &PowerSpec,
    inside: &[(CombatantId, i32)],
) -> Vec<CombatantId> {
    let allowed: Vec<&(CombatantId, i32)> = match p.targets {
        TargetRule::AllCreatures | TargetRule::AllEnemies | TargetRule::AllAllies => Vec::new(),
        TargetRule::Any => inside.iter().collect(),
        TargetRule::OneEnemy
        | TargetRule::OneCreature
        | TargetRule::NearestEnemy
        | TargetRule::OneAlly
        | TargetRule::NearestAlly => inside
            .iter()
            .filter(|(c, _)| fits(d, b, actor, p, c))
            .collect(),
    };
    let nearest = matches!(
        p.targets,
        TargetRule::NearestEnemy | TargetRule::NearestAlly
    );
    let least = allowed.iter().map(|(_, dist)| *dist).min();
    allowed
        .into_iter()
        .filter(|(_, dist)| !nearest || Some(*dist) == least)
        .map(|(c, _)| c.clone())
        .collect()
}

/// Whether the power's rule takes `c` (§ Targets: allies are the user's side, never itself).
fn fits(d: &Decider, b: &Board, actor: &CombatantId, p: &PowerSpec, c: &CombatantId) -> bool {
    match p.targets.allies() {
        Some(true) => super::targets::is_ally(d, b, actor, c),
        Some(false) => !super::targets::is_ally(d, b, actor, c),
        None => true,
    }
}
