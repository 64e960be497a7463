//! Orcus § Mounted combat (`orcus-basic-rules.txt`): mounting and dismounting (a move action
//! each), a rider sharing its mount's space and moving with it, controlled mounts (trained, the
//! rider's initiative: the rider gives up actions for the mount to take) versus independent
//! mounts (untrained or intelligent: their own turns), whom an opportunity attack provoked by
//! the mount targets, and falling off: a rider moved against its will, a rider knocked prone
//! (the `dismount` save), a mount knocked prone.

use super::Board;
use super::commands::{
    R, alive, cannot_leave_space, defense_value, fighter_side, no, occupant_at, on_turn, pay, space,
};
use super::geometry::{self, Space};
use crate::content::model::MountKind;
use crate::rules::common::decider::Decider;
use crate::rules::common::field::has_condition;
use fray_protocol::ErrorCode;
use fray_protocol::OrcusEvent;
use fray_protocol::event::{
    ActionKind, Condition, Defense, EffectEndReason, EffectKind, GameEvent, SavePurpose,
};
use fray_protocol::grid::{MoveMode, Square};
use fray_protocol::ids::CombatantId;
use fray_protocol::state::LifeStatus;

/// The save a rider knocked prone makes to stay mounted (§ Saving throws: 10+).
const DISMOUNT_SAVE: u32 = 10;

/// The mount `id` rides, if any.
pub fn mounted_on(b: &Board, id: &CombatantId) -> Option<CombatantId> {
    b.get(id).and_then(|(g, _)| g.0.mounted_on.clone())
}

/// Whether `a` and `b` are a rider and its mount (they share one space).
pub fn shares_space(b: &Board, a: &CombatantId, t: &CombatantId) -> bool {
    mounted_on(b, a).as_ref() == Some(t) || mounted_on(b, t).as_ref() == Some(a)
}

/// The rider on `mount`, if any (with whether it controls the mount).
pub fn rider_of(d: &Decider, b: &Board, mount: &CombatantId) -> Option<(CombatantId, bool)> {
    d.field.all().find_map(|f| {
        let (g, _) = b.get(&f.c.id)?;
        (g.0.mounted_on.as_ref() == Some(mount)).then(|| (f.c.id.clone(), g.0.controls_mount))
    })
}

/// Whether `mount` is controlled by its rider (§ Controlling a mount): it takes no turns of
/// its own, only the actions its rider gives up.
pub fn controlled(d: &Decider, b: &Board, mount: &CombatantId) -> bool {
    rider_of(d, b, mount).is_some_and(|(_, c)| c)
}

/// Whether `id`, outside its own turn, holds actions given up by its rider (§ Controlling a
/// mount). A combatant's actions are spent or cleared when its turn ends, so only a
/// `mount_commanded` event gives an off-turn creature an action.
pub fn commanded(d: &Decider, id: &CombatantId) -> bool {
    d.field.battle.current().is_some_and(|c| c != id)
        && d.field.get(id).is_some_and(|f| {
            let a = f.budget.0;
            a.standard || a.move_action || a.quick
        })
}

/// A mounted rider cannot move on its own (the mount moves; it can dismount).
pub fn not_mounted(b: &Board, actor: &CombatantId) -> R {
    if let Some(m) = mounted_on(b, actor) {
        return Err(no(
            ErrorCode::Mounted,
            format!("{actor} rides {m}: the mount moves (or dismount first)"),
        ));
    }
    Ok(())
}

/// § Mounting and dismounting: mount an adjacent willing creature at least one size larger.
pub fn mount(
    d: &mut Decider,
    b: &Board,
    actor: &CombatantId,
    mount: &CombatantId,
    control: bool,
) -> R {
    on_turn(d, actor)?;
    alive(d, mount)?;
    if actor == mount {
        return Err(no(
            ErrorCode::InvalidTarget,
            "a creature cannot ride itself",
        ));
    }
    if let Some(m) = mounted_on(b, actor) {
        return Err(no(
            ErrorCode::AlreadyMounted,
            format!("{actor} already rides {m}"),
        ));
    }
    if let Some((r, _)) = rider_of(d, b, mount) {
        return Err(no(
            ErrorCode::AlreadyMounted,
            format!("{mount} already bears {r}"),
        ));
    }
    if rider_of(d, b, actor).is_some() || mounted_on(b, mount).is_some() {
        return Err(no(
            ErrorCode::AlreadyMounted,
            "a mount bearing a rider cannot mount, nor can a rider be mounted",
        ));
    }
    let (Some((rg, _)), Some((mg, kit))) = (b.get(actor), b.get(mount)) else {
        return Err(no(ErrorCode::UnknownCombatant, "no such combatant"));
    };
    let Some(kind) = kit.0.mount else {
        return Err(no(
            ErrorCode::NotAMount,
            format!("{mount} cannot serve as a mount (no `mount` in its stat block)"),
        ));
    };
    // "A willing creature": interpretation, an ally is willing; an enemy is not.
    if fighter_side(d, actor) != fighter_side(d, mount) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{mount} is not willing: only an ally can be mounted"),
        ));
    }
    if mg.0.size <= rg.0.size {
        return Err(no(
            ErrorCode::MountTooSmall,
            format!("{mount} is not at least one size larger than {actor}"),
        ));
    }
    if d.status(mount) != Some(LifeStatus::Conscious) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{mount} is down and cannot bear a rider"),
        ));
    }
    if !geometry::adjacent(space(d, b, actor)?, space(d, b, mount)?)
        || super::elevation::gap(d, b, actor, mount) > 0
    {
        return Err(no(
            ErrorCode::OutOfRange,
            format!("{mount} is not adjacent to {actor}"),
        ));
    }
    if control && kind != MountKind::Trained {
        return Err(no(
            ErrorCode::MountNotControlled,
            format!("{mount} is not trained to accept a rider: it acts independently"),
        ));
    }
    cannot_leave_space(d, actor)?;
    pay(d, actor, ActionKind::Move)?;
    d.emit(GameEvent::Orcus(OrcusEvent::Mounted {
        rider: actor.clone(),
        mount: mount.clone(),
        controlled: control,
    }));
    Ok(())
}

/// § Mounting and dismounting: dismount into an adjacent, unoccupied square.
pub fn dismount(d: &mut Decider, b: &Board, actor: &CombatantId, to: Square) -> R {
    on_turn(d, actor)?;
    let Some(m) = mounted_on(b, actor) else {
        return Err(no(ErrorCode::NotMounted, format!("{actor} is not mounted")));
    };
    let m_sp = space(d, b, &m)?;
    if geometry::distance_to_square(m_sp, to) != 1 || !free(d, b, actor, to) {
        return Err(no(
            ErrorCode::IllegalPath,
            format!("{to} is not an unoccupied square adjacent to {m}"),
        ));
    }
    cannot_leave_space(d, actor)?;
    pay(d, actor, ActionKind::Move)?;
    d.emit(GameEvent::Orcus(OrcusEvent::Dismounted {
        rider: actor.clone(),
        mount: m,
        square: to,
    }));
    Ok(())
}

/// § Controlling a mount: the rider gives up an action; its controlled mount may take it.
pub fn command_mount(d: &mut Decider, b: &Board, actor: &CombatantId, action: ActionKind) -> R {
    on_turn(d, actor)?;
    let Some(m) = mounted_on(b, actor) else {
        return Err(no(ErrorCode::NotMounted, format!("{actor} is not mounted")));
    };
    if !b.get(actor).is_some_and(|(g, _)| g.0.controls_mount) {
        return Err(no(
            ErrorCode::MountNotControlled,
            format!("{m} acts independently: it cannot be commanded"),
        ));
    }
    // A dazed mount still takes one action (condition dazed, interpretation: Fourth Edition's
    // single action per turn): one command in its rider's turn.
    let dazed = d
        .field
        .get(&m)
        .is_some_and(|f| has_condition(f.fx, Condition::Dazed));
    if !commandable(d, &m) {
        return Err(no(ErrorCode::CannotAct, format!("{m} cannot act")));
    }
    if dazed && b.get(&m).is_some_and(|(g, _)| g.0.commanded) {
        return Err(no(
            ErrorCode::Dazed,
            format!("{m} is dazed: it takes a single action per turn, already commanded"),
        ));
    }
    pay(d, actor, action)?;
    d.emit(GameEvent::Orcus(OrcusEvent::MountCommanded {
        rider: actor.clone(),
        mount: m,
        action,
    }));
    Ok(())
}

/// Able to act but for being dazed: conscious, not stunned, helpless, unconscious, surprised
/// or surrendered.
fn commandable(d: &Decider, id: &CombatantId) -> bool {
    d.field.get(id).is_some_and(|f| {
        f.vit.0 == LifeStatus::Conscious
            && [
                Condition::Stunned,
                Condition::Helpless,
                Condition::Unconscious,
                Condition::Surprised,
                Condition::Surrendered,
            ]
            .into_iter()
            .all(|c| !has_condition(f.fx, c))
    })
}

/// § Controlling a mount: whose immediate action `actor`'s counter or reaction spends — "you
/// can also use an immediate action in order for the mount to ... use a counter or reaction":
/// a controlled mount's is its rider's; anyone else's is its own.
pub fn immediate_payer(d: &Decider, b: &Board, actor: &CombatantId) -> CombatantId {
    match rider_of(d, b, actor) {
        Some((rider, true)) => rider,
        _ => actor.clone(),
    }
}

/// § Controlling a mount: a controlled mount makes an opportunity attack only when its rider
/// uses its immediate action for it. Fray spends it automatically when the rider has it (not
/// used since its last turn, able to act, not its own turn) and emits `interrupt_used` for the
/// rider; returns whether the attack may go on (always for other creatures).
pub fn rider_spends_immediate(d: &mut Decider, b: &Board, attacker: &CombatantId) -> bool {
    let Some((rider, true)) = rider_of(d, b, attacker) else {
        return true;
    };
    let used = b.get(&rider).is_some_and(|(g, _)| g.0.immediate_used)
        || d.events()
            .iter()
            .any(|e| matches!(e, GameEvent::InterruptUsed { combatant } if combatant == &rider));
    let able = d.field.battle.current() != Some(&rider)
        && d.status(&rider) == Some(LifeStatus::Conscious)
        && d.field.get(&rider).is_some_and(|f| {
            [
                Condition::Dazed,
                Condition::Stunned,
                Condition::Surprised,
                Condition::Helpless,
                Condition::Unconscious,
                Condition::Surrendered,
            ]
            .into_iter()
            .all(|c| !has_condition(f.fx, c))
        });
    if used || !able {
        return false;
    }
    d.emit(GameEvent::InterruptUsed { combatant: rider });
    true
}

/// § Controlling a mount: "if the mount provokes an opportunity attack while you're on it, the
/// attacker can target you or the mount". Fray chooses for the attacker (interpretation): the
/// one with the lower AC, the mount on a tie. A rider that provokes is the only target.
pub fn opportunity_target(d: &Decider, b: &Board, provoker: &CombatantId) -> CombatantId {
    match rider_of(d, b, provoker) {
        Some((rider, _))
            if d.field.get(&rider).is_some()
                && defense_value(d, b, &rider, Defense::Ac)
                    < defense_value(d, b, provoker, Defense::Ac) =>
        {
            rider
        }
        _ => provoker.clone(),
    }
}

/// A square a creature could stand in: on the map, not a wall, nobody there (at any height:
/// `aloft::column_occupied`).
pub(super) fn free(d: &Decider, b: &Board, who: &CombatantId, s: Square) -> bool {
    b.map.0.as_ref().is_some_and(|map| {
        geometry::on_map(map, s)
            && !geometry::solid(map, s)
            && occupant_at(d, b, who, s).is_none()
            && !super::aloft::column_occupied(d, b, who, s)
    })
}

/// Whether `o`, relative to the north-west square of a mount `side` squares wide, is "a
/// space within 1 square" of it: next to its space, not in it.
fn beside(o: Square, side: i32) -> bool {
    let near = |v: i32| (-1..=side).contains(&v);
    let inside = |v: i32| (0..side).contains(&v);
    near(o.x) && near(o.y) && !(inside(o.x) && inside(o.y))
}

/// § Mounting and dismounting: the rider's standing choices, no action, any time in a running
/// battle — whether a push, pull or shunt takes its mount along ("you can choose whether it is
/// moved as well") and where it lands when it falls off ("a space within 1 square"), as a
/// square relative to the mount's north-west square (checked against its mount's size, or the
/// largest size while it rides none).
pub fn rider_choices(
    d: &mut Decider,
    b: &Board,
    actor: &CombatantId,
    move_mount: bool,
    landing: Option<Square>,
) -> R {
    super::commands::running(d)?;
    alive(d, actor)?;
    if b.get(actor).is_none() {
        return Err(no(
            ErrorCode::UnknownCombatant,
            format!("{actor} is not on the grid"),
        ));
    }
    if let Some(o) = landing {
        let side = mounted_on(b, actor)
            .and_then(|m| b.get(&m).map(|(g, _)| g.0.size.side()))
            .unwrap_or(fray_protocol::grid::Size::Gargantuan.side());
        if !beside(o, side) {
            return Err(no(
                ErrorCode::InvalidLanding,
                format!(
                    "{o} (from the mount's north-west square) is not a square within 1 of a mount {side} squares wide"
                ),
            ));
        }
    }
    d.emit(GameEvent::Orcus(OrcusEvent::RiderChoicesMade {
        rider: actor.clone(),
        move_mount,
        landing,
    }));
    Ok(())
}

/// § Mounting and dismounting: whom a push, pull or shunt of `target` moves — its mount (the
/// rider travelling with it) when `target` rides a conscious mount and chose to take it along
/// (`rider_choices`); otherwise `target`. The path was found for the rider's space, which is
/// the mount's, so it fits the mount.
pub fn forced_mover(d: &mut Decider, b: &Board, target: &CombatantId) -> CombatantId {
    let takes_it = b.get(target).is_some_and(|(g, _)| g.0.moves_mount);
    match mounted_on(b, target) {
        Some(m)
            if takes_it
                && d.status(&m) == Some(LifeStatus::Conscious)
                && !d.events().iter().any(
                    |e| matches!(e, GameEvent::Orcus(OrcusEvent::Dismounted { rider, .. }) if rider == target),
                ) =>
        {
            m
        }
        _ => target.clone(),
    }
}

/// "A space within 1 square" of the mount to land in: the rider's chosen one
/// (`rider_choices`) when free, else the first free square next to its space, north-west
/// first, row by row (a deterministic choice for the rider; interpretation).
fn landing(d: &Decider, b: &Board, rider: &CombatantId, m_sp: Space) -> Square {
    let side = m_sp.size.side();
    if let Some(o) = b.get(rider).and_then(|(g, _)| g.0.landing)
        && beside(o, side)
    {
        let s = Square::new(m_sp.at.x + o.x, m_sp.at.y + o.y);
        if free(d, b, rider, s) {
            return s;
        }
    }
    for y in m_sp.at.y - 1..=m_sp.at.y + side {
        for x in m_sp.at.x - 1..=m_sp.at.x + side {
            let s = Square::new(x, y);
            if !m_sp.covers(s) && free(d, b, rider, s) {
                return s;
            }
        }
    }
    m_sp.at
}

/// After each command: riders fall off as § Mounting and dismounting says. A rider moved
/// against its will falls off and is moved, unless it chose to take its mount along
/// (`forced_mover` then moved the mount instead); a rider knocked prone saves (`dismount`, 10+): on a failure it falls
/// prone within 1 square, on a success it is neither dismounted nor prone; a mount knocked
/// prone, or dropping, throws its rider within 1 square.
pub fn sweep(d: &mut Decider, b: &Board) {
    let events: Vec<GameEvent> = d.events().to_vec();
    let mut off: Vec<CombatantId> = Vec::new();
    for e in &events {
        if let GameEvent::Orcus(OrcusEvent::Dismounted { rider, .. }) = e {
            off.push(rider.clone());
        }
    }
    for e in events {
        match e {
            GameEvent::Orcus(OrcusEvent::GridMoved {
                combatant,
                path,
                mode: MoveMode::Unwilling,
                ..
            }) => {
                if let (Some(m), Some(last)) = (mounted_on(b, &combatant), path.last())
                    && !off.contains(&combatant)
                {
                    off.push(combatant.clone());
                    d.emit(GameEvent::Orcus(OrcusEvent::Dismounted {
                        rider: combatant,
                        mount: m,
                        square: *last,
                    }));
                }
            }
            GameEvent::EffectApplied { effect }
                if matches!(effect.kind, EffectKind::Condition(Condition::Prone)) =>
            {
                let t = effect.target.clone();
                if let Some(m) = mounted_on(b, &t)
                    && !off.contains(&t)
                {
                    let (kept, _) = d.save(&t, SavePurpose::Dismount, DISMOUNT_SAVE);
                    if kept {
                        d.emit(GameEvent::EffectEnded {
                            target: t,
                            effect: effect.id,
                            reason: EffectEndReason::Saved,
                        });
                    } else if let Ok(m_sp) = space(d, b, &m) {
                        off.push(t.clone());
                        let square = landing(d, b, &t, m_sp);
                        d.emit(GameEvent::Orcus(OrcusEvent::Dismounted {
                            rider: t,
                            mount: m,
                            square,
                        }));
                    }
                } else if let Some((rider, _)) = rider_of(d, b, &t)
                    && !off.contains(&rider)
                    && let Ok(m_sp) = space(d, b, &t)
                {
                    off.push(rider.clone());
                    let square = landing(d, b, &rider, m_sp);
                    d.emit(GameEvent::Orcus(OrcusEvent::Dismounted {
                        rider,
                        mount: t,
                        square,
                    }));
                }
            }
            _ => {}
        }
    }
    // A mount that drops (unconscious, dead or slain) throws its rider like a prone one
    // (interpretation: Fourth Edition's unconscious creatures fall prone).
    let riders: Vec<(CombatantId, CombatantId)> = d
        .field
        .all()
        .filter_map(|f| mounted_on(b, &f.c.id).map(|m| (f.c.id.clone(), m)))
        .collect();
    for (rider, m) in riders {
        if off.contains(&rider) || d.status(&m) == Some(LifeStatus::Conscious) {
            continue;
        }
        if let Ok(m_sp) = space(d, b, &m) {
            off.push(rider.clone());
            let square = landing(d, b, &rider, m_sp);
            d.emit(GameEvent::Orcus(OrcusEvent::Dismounted {
                rider,
                mount: m,
                square,
            }));
        }
    }
}

/// Where a GM's reinforcement may appear (`add_combatant`): every square of its space on the
/// map and not solid (a wall or blocking terrain), and no living creature's space overlapping
/// it (a flier's column counts: interpretation, a token cannot appear under one).
pub fn newcomer_square(
    d: &Decider,
    b: &Board,
    spec: &crate::content::model::CombatantSpec,
    at: Square,
) -> R {
    let size = spec.orcus.as_ref().map_or(spec.size, |o| o.size);
    let new = Space { at, size };
    let Some(map) = b.map.0.as_ref() else {
        return Err(no(ErrorCode::InvalidArgument, "this fight has no map"));
    };
    if let Some(s) = new.squares().find(|s| !geometry::on_map(map, *s)) {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!(
                "{s} is off the map ({} by {} squares): a {size:?} creature at {at} does not fit",
                map.width, map.height
            ),
        ));
    }
    if let Some(s) = new.squares().find(|s| geometry::solid(map, *s)) {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("{s} is a wall or blocking terrain: no creature can stand there"),
        ));
    }
    for f in d.field.all() {
        if matches!(f.vit.0, LifeStatus::Dead | LifeStatus::Slain) {
            continue;
        }
        if space(d, b, &f.c.id).is_ok_and(|sp| sp.overlaps(new)) {
            return Err(no(
                ErrorCode::InvalidArgument,
                format!("{at} is taken: {} stands there", f.c.id),
            ));
        }
    }
    Ok(())
}

/// GM override `place_token`: the token goes to a free square at once (every square of its
/// space on the map, not solid, not another creature's) — no path, no cost, no opportunity
/// attacks; a rider goes with its mount (the fold of `grid_moved`). A rider itself is refused:
/// dismount it first.
pub fn place_token(d: &mut Decider, b: &Board, who: &CombatantId, to: Square) -> R {
    let Some((g, _)) = b.get(who) else {
        return Err(no(
            ErrorCode::UnknownCombatant,
            format!("no combatant '{who}' in this fight"),
        ));
    };
    if g.0.mounted_on.is_some() {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("{who} is mounted: dismount it first, or place its mount"),
        ));
    }
    let space = Space {
        at: to,
        size: g.0.size,
    };
    if let Some(bad) = space.squares().find(|s| !free(d, b, who, *s)) {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("{bad} is not a free square on the map"),
        ));
    }
    d.emit(GameEvent::GmOverride {
        command: "place_token".into(),
        combatant: Some(who.clone()),
    });
    d.emit(GameEvent::Orcus(OrcusEvent::GridMoved {
        combatant: who.clone(),
        path: vec![to],
        cost: 0,
        mode: MoveMode::Unwilling,
    }));
    Ok(())
}
