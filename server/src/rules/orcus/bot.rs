//! The demo bots' policy for Orcus: simple, deterministic and legal by construction (it asks
//! the same grid geometry the rules use, so the commands it sends are accepted). On its turn a
//! combatant stands up, rallies when staggered, stabilizes a dying ally, finishes a helpless
//! enemy, uses an area power on two or more enemies, attacks in reach or range, spends a hero's
//! action point for a second attack, walks toward the nearest enemy, and ends the turn. After
//! a battle of a session with rests the GM rests the heroes and goes on to the next battle.

use super::geometry::{self, Geo, Space};
use super::walks::Walks;
use crate::content::model::Origin;
use crate::rules::common::actions::attack;
use crate::rules::common::policy::controls;
use fray_protocol::OrcusCommand;
use fray_protocol::command::AttackMode;
use fray_protocol::event::{ActionKind, Condition, EffectKind};
use fray_protocol::grid::{MapState, MoveMode, Square};
use fray_protocol::ids::{CombatantId, Role, Side};
use fray_protocol::state::{AttackSummary, CombatantState, LifeStatus, Phase};
use fray_protocol::{Command, SessionState};

fn space(c: &CombatantState) -> Option<Space> {
    c.grid.as_ref().map(|g| Space {
        at: g.square,
        size: g.size,
    })
}

fn has(c: &CombatantState, cond: Condition) -> bool {
    c.effects
        .iter()
        .any(|e| matches!(e.kind, EffectKind::Condition(x) if x == cond))
}

fn in_fight(c: &CombatantState) -> bool {
    !matches!(c.status, LifeStatus::Dead | LifeStatus::Slain)
}

/// Usable powers of `me` this turn (turn actions only, not expended).
fn powers(me: &CombatantState) -> Vec<(&AttackSummary, Origin)> {
    me.attacks
        .iter()
        .filter(|a| !a.action.starts_with("immediate") && !me.expended.contains(&a.id))
        .filter(|a| a.action != "move" && a.action != "swift")
        .filter_map(|a| Origin::parse(&a.range).map(|o| (a, o)))
        .collect()
}

/// The next command for `role`, if it has one.
pub fn choose(role: &Role, s: &SessionState, salt: u64) -> Option<Command> {
    match s.phase {
        Phase::Setup if matches!(role, Role::Gm) => return Some(Command::StartBattle),
        Phase::Running => {}
        // Sessions with rests: short rests, then the next battle or the end of the session.
        Phase::Ended if matches!(role, Role::Gm) && !s.seed_revealed && !s.session_over => {
            return crate::rules::common::policy::between_battles(s);
        }
        _ => return None,
    }
    let id = s.current.as_ref()?;
    if !controls(role, s, id) {
        return None;
    }
    let me = s.combatant(id)?;
    let end = Some(Command::EndTurn { actor: id.clone() });
    let (Some(g), Some(map)) = (me.grid.as_ref(), s.map.as_deref()) else {
        return end;
    };
    if me.status != LifeStatus::Conscious || has(me, Condition::Stunned) {
        return end;
    }
    let a = me.actions;
    let fresh = a.standard && a.move_action && a.quick;
    if !fresh && (s.surprise.is_some() || has(me, Condition::Dazed)) {
        return end;
    }
    let geo = Geo::new(map)?;
    let my_sp = space(me)?;
    let enemies: Vec<&CombatantState> = s
        .combatants
        .iter()
        .filter(|c| c.side != me.side && in_fight(c))
        .collect();
    if enemies.is_empty() {
        return end;
    }
    if has(me, Condition::Prone) && a.move_action {
        return Some(Command::Orcus(OrcusCommand::StandUp { actor: id.clone() }));
    }
    if a.standard {
        if let Some(cmd) = standard_action(s, me, &geo, my_sp, &enemies, salt) {
            return Some(cmd);
        }
    } else if me.side == Side::Heroes
        && g.action_points > 0
        && g.action_point_round.is_none()
        && s.surprise.is_none()
        && salt.is_multiple_of(3)
        && in_reach_or_range(me, &geo, my_sp, &enemies)
    {
        // § Action points: one more standard action, once per encounter.
        return Some(Command::Orcus(OrcusCommand::SpendActionPoint {
            actor: id.clone(),
            action: ActionKind::Standard,
        }));
    }
    let stuck = [
        Condition::Immobilized,
        Condition::Restrained,
        Condition::Grappled,
        Condition::Prone,
    ]
    .iter()
    .any(|c| has(me, *c));
    if (a.move_action || a.standard) && !stuck && !in_reach_or_range(me, &geo, my_sp, &enemies) {
        let speed = if has(me, Condition::Slowed) {
            g.speed.min(2)
        } else {
            g.speed
        };
        if let Some(path) = path_toward(s, me, map, my_sp, speed, &enemies)
            && !path.is_empty()
        {
            if a.standard
                && salt.is_multiple_of(2)
                && let Some(target) = charge_target(me, my_sp, &path, &enemies)
            {
                return Some(Command::Orcus(OrcusCommand::Charge {
                    actor: id.clone(),
                    target,
                    path,
                }));
            }
            return Some(Command::Orcus(OrcusCommand::MoveTo {
                actor: id.clone(),
                path,
                mode: MoveMode::Walk,
                hide: false,
            }));
        }
    }
    end
}

/// Whether some power reaches an enemy from where `me` stands.
fn in_reach_or_range(
    me: &CombatantState,
    geo: &Geo,
    my_sp: Space,
    enemies: &[&CombatantState],
) -> bool {
    powers(me).iter().any(|(_, o)| {
        enemies.iter().filter_map(|e| space(e)).any(|t| match o {
            Origin::Melee { reach } => geometry::distance(my_sp, t) <= *reach,
            Origin::Ranged { long, .. } => {
                geometry::distance(my_sp, t) <= *long && geo.line_of_effect(my_sp, t)
            }
            _ => false,
        })
    })
}

fn standard_action(
    s: &SessionState,
    me: &CombatantState,
    geo: &Geo,
    my_sp: Space,
    enemies: &[&CombatantState],
    salt: u64,
) -> Option<Command> {
    let id = &me.id;
    let g = me.grid.as_ref()?;
    // § Rally once when staggered.
    if me.side == Side::Heroes && me.staggered && !g.rallied && me.recoveries > 0 {
        return Some(Command::Rally { actor: id.clone() });
    }
    // § Stabilize an adjacent dying ally, now and then.
    if me.side == Side::Heroes && salt.is_multiple_of(2) {
        let dying = s.combatants.iter().find(|c| {
            c.side == me.side
                && c.id != me.id
                && c.status == LifeStatus::Unconscious
                && !c.stabilized
                && space(c).is_some_and(|sp| geometry::adjacent(sp, my_sp))
        });
        if let Some(d) = dying {
            return Some(Command::Stabilize {
                actor: id.clone(),
                target: d.id.clone(),
            });
        }
    }
    let usable = powers(me);
    let basic_melee = usable
        .iter()
        .find(|(a, o)| a.basic && matches!(o, Origin::Melee { .. }));
    // § Coup de grace on an adjacent helpless enemy, now and then.
    if let Some((p, _)) = basic_melee
        && salt.is_multiple_of(3)
        && let Some(h) = enemies.iter().find(|e| {
            e.status == LifeStatus::Unconscious
                && space(e).is_some_and(|sp| geometry::adjacent(sp, my_sp))
        })
    {
        return Some(attack(id, &p.id, &h.id, AttackMode::CoupDeGrace));
    }
    // Conscious enemies first, then by id.
    let mut targets: Vec<&CombatantState> = enemies.to_vec();
    targets.sort_by_key(|c| (c.status != LifeStatus::Conscious, c.id.clone()));
    let live: Vec<(&CombatantState, Space)> = targets
        .iter()
        .filter_map(|c| space(c).map(|sp| (*c, sp)))
        .collect();
    // An area power catching two or more enemies (and no ally of ours, for "all creatures").
    for (p, o) in usable.iter().filter(|(_, o)| o.is_area()) {
        if let Some(cmd) = area(s, me, geo, my_sp, &live, p, *o) {
            return Some(cmd);
        }
    }
    // A melee power on an enemy in reach; otherwise a ranged one on an enemy in range.
    let mut choices: Vec<Command> = Vec::new();
    for (p, o) in &usable {
        for (t, sp) in &live {
            let d = geometry::distance(my_sp, *sp);
            let ok = match o {
                Origin::Melee { reach } => d <= *reach,
                Origin::Ranged { long, .. } => d <= *long && geo.line_of_effect(my_sp, *sp),
                _ => false,
            };
            if ok {
                choices.push(attack(id, &p.id, &t.id, AttackMode::Standard));
            }
        }
    }
    if choices.is_empty() {
        return None;
    }
    let n = choices.len();
    choices.into_iter().nth((salt as usize) % n)
}

/// An area attack worth making: the squares the power would cover (as the rules compute them)
/// hold at least two enemies.
fn area(
    s: &SessionState,
    me: &CombatantState,
    geo: &Geo,
    my_sp: Space,
    live: &[(&CombatantState, Space)],
    p: &AttackSummary,
    o: Origin,
) -> Option<Command> {
    let origins: Vec<Option<Square>> = match o {
        Origin::NearBurst { .. } => vec![None],
        Origin::FarBurst { .. } => live.iter().map(|(_, sp)| Some(sp.at)).collect(),
        Origin::NearBlast { size } => {
            // Blasts whose corner puts them beside the user, on each side.
            let n = my_sp.size.side();
            let (x, y) = (my_sp.at.x, my_sp.at.y);
            vec![
                Some(Square::new(x + n, y)),
                Some(Square::new(x - size, y)),
                Some(Square::new(x, y + n)),
                Some(Square::new(x, y - size)),
            ]
        }
        Origin::FarBlast { .. } => live.iter().map(|(_, sp)| Some(sp.at)).collect(),
        _ => return None,
    };
    for origin in origins {
        let squares = match (o, origin) {
            (Origin::NearBurst { size }, _) => geo.near_burst(my_sp, size).ok(),
            (Origin::NearBlast { size }, Some(c)) => geo.near_blast(my_sp, c, size).ok(),
            (Origin::FarBurst { size, range }, Some(c)) => {
                geo.far_burst(my_sp, c, size, range).ok()
            }
            (Origin::FarBlast { size, range }, Some(c)) => {
                geo.far_blast(my_sp, c, size, range).ok().map(|(_, a)| a)
            }
            _ => None,
        };
        let Some(squares) = squares else { continue };
        let caught = |c: &CombatantState| {
            space(c).is_some_and(|sp| sp.squares().any(|q| squares.contains(&q)))
        };
        let hit: Vec<&(&CombatantState, Space)> = live.iter().filter(|(c, _)| caught(c)).collect();
        let allies = s
            .combatants
            .iter()
            .any(|c| c.side == me.side && c.id != me.id && in_fight(c) && caught(c));
        if hit.len() >= 2 && !allies {
            // Name the nearest enemy caught, for powers that pick one (ignored by the others).
            let nearest = hit
                .iter()
                .min_by_key(|(c, sp)| (geometry::distance(my_sp, *sp), c.id.clone()))?;
            return Some(Command::Orcus(OrcusCommand::AreaAttack {
                actor: me.id.clone(),
                attack: p.id.clone(),
                origin,
                targets: vec![nearest.0.id.clone()],
                forced: Vec::new(),
                origin_height: None,
                weapon: None,
                secondary_target: None,
            }));
        }
    }
    None
}

/// A walk of at most `speed` squares of movement toward the nearest enemy: to a square next to
/// it when one is in reach of the walk, otherwise as close as the walk gets (never farther).
fn path_toward(
    s: &SessionState,
    me: &CombatantState,
    map: &MapState,
    start: Space,
    speed: i32,
    enemies: &[&CombatantState],
) -> Option<Vec<Square>> {
    let targets: Vec<Space> = enemies.iter().filter_map(|e| space(e)).collect();
    let closest = |sp: Space| {
        targets
            .iter()
            .map(|t| geometry::distance(sp, *t))
            .min()
            .unwrap_or(i32::MAX)
    };
    let walks = Walks::new(s, me, map, start, speed);
    // Allies standing next to an enemy, for flanking (§ Flanking).
    let allies: Vec<Space> = s
        .combatants
        .iter()
        .filter(|c| c.side == me.side && c.id != me.id && c.status == LifeStatus::Conscious)
        .filter_map(space)
        .collect();
    let flanks = |sp: Space| {
        targets.iter().any(|t| {
            geometry::adjacent(sp, *t) && allies.iter().any(|a| geometry::flanking(*t, sp, *a))
        })
    };
    // The best place to end: free, then nearest an enemy, then flanking one, then cheapest,
    // then square order.
    let here = closest(start);
    let goal = walks
        .ends()
        .map(|(sq, c)| {
            let sp = Space {
                at: sq,
                size: start.size,
            };
            (closest(sp), !flanks(sp), c, sq)
        })
        .filter(|(d, _, _, _)| *d < here)
        .min()?;
    Some(walks.path(goal.3))
}

/// § Charge: the enemy a walk along `path` charges, if every square brings `me` closer to it
/// and the walk ends within its basic melee attack's reach.
fn charge_target(
    me: &CombatantState,
    start: Space,
    path: &[Square],
    enemies: &[&CombatantState],
) -> Option<CombatantId> {
    let reach = powers(me).iter().find_map(|(p, o)| match o {
        Origin::Melee { reach } if p.basic => Some(*reach),
        _ => None,
    })?;
    let at = |sq: Square| Space {
        at: sq,
        size: start.size,
    };
    let end = at(*path.last()?);
    enemies.iter().find_map(|e| {
        let t = space(e)?;
        let mut prev = start;
        for sq in path {
            let next = at(*sq);
            if geometry::distance(next, t) >= geometry::distance(prev, t) {
                return None;
            }
            prev = next;
        }
        (e.status == LifeStatus::Conscious && geometry::distance(end, t) <= reach)
            .then(|| e.id.clone())
    })
}
