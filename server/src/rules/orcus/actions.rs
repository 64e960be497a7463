//! Orcus's candidates for the legal actions (`Ruleset::actions`; see `common::actions`): the
//! common attacks and turn commands, and on its own turn a combatant's walks to every square it
//! can reach (`walks.rs`), a step to each neighbouring square, area powers at each origin worth
//! naming, charges, standing up, full defense and action points.

use super::geometry::{self, Space};
use super::walks::Walks;
use crate::content::model::Origin;
use crate::rules::common::actions::{self as common, act};
use fray_protocol::event::ActionKind;
use fray_protocol::grid::{MoveMode, Square};
use fray_protocol::ids::CombatantId;
use fray_protocol::state::{CombatantState, Phase};
use fray_protocol::{Command, LegalAction, OrcusCommand as O, SessionState};

/// The candidates for one combatant (`Some`) or for the GM's session commands (`None`).
pub fn candidates(s: &SessionState, actor: Option<&CombatantId>) -> Vec<LegalAction> {
    let Some(id) = actor else {
        let mut out = common::session();
        out.extend(gm_tokens(s));
        return out;
    };
    let Some(me) = s.combatant(id) else {
        return Vec::new();
    };
    if s.phase == Phase::Ended {
        return common::rests(me);
    }
    let single = |a: &fray_protocol::state::AttackSummary| {
        !Origin::parse(&a.range).is_some_and(|o| o.is_area())
    };
    let mut out = common::attacks_of(s, me, single);
    out.extend(common::help_and_release(s, me));
    out.extend(common::turn(me));
    if s.current.as_ref() == Some(id) {
        out.extend(own_turn(s, me));
    }
    out
}

fn space(c: &CombatantState) -> Option<Space> {
    c.grid.as_ref().map(|g| Space {
        at: g.square,
        size: g.size,
    })
}

fn square_label(q: Square) -> String {
    format!("({}, {})", q.x, q.y)
}

/// What a combatant can do only on its own turn.
fn own_turn(s: &SessionState, me: &CombatantState) -> Vec<LegalAction> {
    let id = &me.id;
    let o = |c: O| Command::Orcus(c);
    let mut out = vec![
        act(id, "Stand up", "", o(O::StandUp { actor: id.clone() })),
        act(
            id,
            "Full defense",
            "",
            o(O::FullDefense { actor: id.clone() }),
        ),
    ];
    for (kind, label) in [
        (ActionKind::Standard, "standard action"),
        (ActionKind::Move, "move action"),
    ] {
        let cmd = o(O::SpendActionPoint {
            actor: id.clone(),
            action: kind,
        });
        out.push(act(id, "Action point", label, cmd));
    }
    let (Some(start), Some(map), Some(g)) = (space(me), s.map.as_deref(), me.grid.as_ref()) else {
        return out;
    };
    let walks = Walks::new(s, me, map, start, g.speed);
    for (square, _) in walks.ends() {
        let path = walks.path(square);
        let step = path.len() == 1;
        let walk = o(O::MoveTo {
            actor: id.clone(),
            path: path.clone(),
            mode: MoveMode::Walk,
            hide: false,
        });
        out.push(act(id, "Walk", &square_label(square), walk));
        if step {
            let cmd = o(O::MoveTo {
                actor: id.clone(),
                path,
                mode: MoveMode::Step,
                hide: false,
            });
            out.push(act(id, "Shift", &square_label(square), cmd));
        }
    }
    for t in common::others(s, id, false).filter(|t| t.side != me.side) {
        let cmd = o(O::Charge {
            actor: id.clone(),
            target: t.id.clone(),
            path: charge_path(s, me, map, (start, g.speed), t).unwrap_or_default(),
        });
        out.push(act(id, "Charge", &t.name, cmd));
    }
    out.extend(areas(s, me, start));
    out
}

/// § Charge: the course toward `t` ending nearest the charger from which its basic melee
/// attack reaches `t` (the cheapest such square; of equals, the nearest as the crow flies, then
/// in square order), keeping to the straight line (`Walks::straight_path`): empty when `t` is
/// already in reach; `None` without a basic melee attack or a course. The rules decide the
/// charge (`maneuvers.rs`); the legal actions keep this candidate only if they accept it.
fn charge_path(
    s: &SessionState,
    me: &CombatantState,
    map: &fray_protocol::grid::MapState,
    (start, speed): (Space, i32),
    t: &CombatantState,
) -> Option<Vec<Square>> {
    let reach = me
        .attacks
        .iter()
        .find_map(|a| match Origin::parse(&a.range) {
            Some(Origin::Melee { reach }) if a.basic => Some(reach),
            _ => None,
        })?;
    let target = space(t)?;
    if geometry::distance(start, target) <= reach {
        return Some(Vec::new());
    }
    let courses = Walks::toward(s, me, map, (start, speed), target);
    let (end, _) = courses
        .ends()
        .filter(|(q, _)| {
            let at = Space {
                at: *q,
                size: start.size,
            };
            geometry::distance(at, target) <= reach
        })
        .min_by_key(|(q, cost)| {
            let (dx, dy) = (q.x - start.at.x, q.y - start.at.y);
            (*cost, dx * dx + dy * dy, *q)
        })?;
    Some(courses.straight_path(end))
}

/// Each area power at each origin worth naming: none for a near burst; each side of the user
/// for a near blast; each other combatant's square for a far burst or blast.
fn areas(s: &SessionState, me: &CombatantState, at: Space) -> Vec<LegalAction> {
    let mut out = Vec::new();
    let others: Vec<(&CombatantState, Space)> = common::others(s, &me.id, false)
        .filter_map(|c| space(c).map(|sp| (c, sp)))
        .collect();
    for a in me.attacks.iter() {
        let Some(origin) = Origin::parse(&a.range) else {
            continue;
        };
        let origins: Vec<(Option<Square>, String)> = match origin {
            Origin::NearBurst { .. } => vec![(None, "around you".into())],
            Origin::NearBlast { size } => {
                let n = at.size.side();
                let (x, y) = (at.at.x, at.at.y);
                vec![
                    (Some(Square::new(x + n, y)), "east".into()),
                    (Some(Square::new(x - size, y)), "west".into()),
                    (Some(Square::new(x, y + n)), "south".into()),
                    (Some(Square::new(x, y - size)), "north".into()),
                ]
            }
            Origin::FarBurst { .. } | Origin::FarBlast { .. } => others
                .iter()
                .map(|(c, sp)| (Some(sp.at), format!("at {}", c.name)))
                .collect(),
            _ => continue,
        };
        for (origin, label) in origins {
            let cmd = Command::Orcus(O::AreaAttack {
                actor: me.id.clone(),
                attack: a.id.clone(),
                origin,
                targets: Vec::new(),
                forced: Vec::new(),
                origin_height: None,
                weapon: None,
                secondary_target: None,
            });
            out.push(act(&me.id, &a.name, &label, cmd));
        }
    }
    out
}

/// The squares around a space (a ring one square out), in a fixed order.
fn ring(at: Square, side: i32) -> impl Iterator<Item = Square> {
    let side = side.max(1);
    (-1..=side).flat_map(move |dy| {
        (-1..=side)
            .filter(move |dx| !((0..side).contains(dx) && (0..side).contains(&dy)))
            .map(move |dx| Square {
                x: at.x + dx,
                y: at.y + dy,
            })
    })
}

/// The GM's grid overrides: each token placed on a square next to it (`place_token`), and a
/// reinforcement of each monster template in the fight on a square next to the first of its
/// kind (`add_combatant`). The engine keeps the free squares (decide checks them).
fn gm_tokens(s: &SessionState) -> Vec<LegalAction> {
    let mut out = Vec::new();
    let mut templates: Vec<&str> = Vec::new();
    for c in &s.combatants {
        let Some(g) = &c.grid else { continue };
        let side = g.size.side();
        for to in ring(g.square, side) {
            let place = Command::Orcus(O::PlaceToken {
                combatant: c.id.clone(),
                square: to,
            });
            out.push(common::gm(
                "Place token",
                &format!("{}: {to}", c.name),
                place,
            ));
        }
        if c.side == fray_protocol::Side::Monsters && !templates.contains(&c.template.as_str()) {
            templates.push(&c.template);
            for to in ring(g.square, side) {
                let add = Command::AddCombatant {
                    template: c.template.clone(),
                    square: Some(to),
                };
                out.push(common::gm(
                    "Add combatant",
                    &format!("{}: {to}", c.template),
                    add,
                ));
            }
        }
    }
    out
}
