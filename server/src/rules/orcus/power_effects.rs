//! A power's Effect line (`orcus-basic-rules.txt` § Action descriptions: tangles, "Effect The
//! area becomes difficult terrain until the end of your next turn"; § Category: "Some actions
//! also have effects when they miss, or regardless of whether they hit or miss"):
//! - content `effect = [...]` clauses land on every target of the power, hit or missed;
//! - a utility power (no `vs`, § Category) makes no attack roll: its Effect line lands on each
//!   target (sent with `attack` or `area_attack` like any power);
//! - a near or far burst or blast may turn its area into a zone (difficult terrain) that lasts
//!   until the end of the user's next turn, the encounter, or while maintained (§ Maintain,
//!   `maintain.rs`). Zones live in their creator's `grid.zones`; movement costs read them
//!   (`extra_cost`).

use super::Board;
use super::geometry::Space;
use super::maintain;
use super::riders;
use crate::content::model::{OrcusEffect, PowerSpec};
use crate::rules::common::decider::Decider;
use fray_protocol::OrcusEvent;
use fray_protocol::event::{EffectDuration, EffectEndReason, GameEvent};
use fray_protocol::grid::{MoveMode, SpecialMode, Square, Zone, ZoneKind};
use fray_protocol::ids::CombatantId;
use fray_protocol::state::LifeStatus;
use std::collections::BTreeSet;

/// Applies one effect clause of a power to `target`; a `maintain`-duration clause is recorded
/// as needing maintenance by the user (§ Maintain).
pub(super) fn apply_clause(
    d: &mut Decider,
    user: &CombatantId,
    p: &PowerSpec,
    target: &CombatantId,
    e: &OrcusEffect,
) {
    let id = riders::apply(d, user, target, e);
    if e.maintained {
        maintain::needed(d, user, p, id, Some(target));
    }
}

/// § Category, utility: no attack roll; the Effect line lands on each target still in the fight.
pub(super) fn utility(d: &mut Decider, user: &CombatantId, p: &PowerSpec, targets: &[CombatantId]) {
    for t in targets {
        if matches!(
            d.status(t),
            Some(LifeStatus::Dead | LifeStatus::Slain) | None
        ) {
            continue;
        }
        for e in &p.effect {
            apply_clause(d, user, p, t, e);
        }
    }
}

/// § Action descriptions (tangles): the area's squares become the power's zone.
pub(super) fn zone(d: &mut Decider, user: &CombatantId, p: &PowerSpec, area: &BTreeSet<Square>) {
    let Some(spec) = &p.zone else {
        return;
    };
    let id = d.effect_id();
    d.emit(GameEvent::Orcus(OrcusEvent::ZoneCreated {
        zone: Zone {
            id,
            source: user.clone(),
            power: p.id.clone(),
            kind: spec.kind,
            squares: area.iter().copied().collect(),
            duration: spec.duration.clone(),
            armed: false,
        },
    }));
    if spec.maintained {
        maintain::needed(d, user, p, id, None);
    }
}

/// The zones of every creature as of this decision (created in it included, ended in it not).
pub(super) fn zones(d: &Decider, b: &Board) -> Vec<Zone> {
    let ended: Vec<u32> = d
        .events()
        .iter()
        .filter_map(|e| match e {
            GameEvent::Orcus(OrcusEvent::ZoneEnded { zone, .. }) => Some(*zone),
            _ => None,
        })
        .collect();
    let mut out: Vec<Zone> = d
        .field
        .all()
        .filter_map(|f| b.get(&f.c.id))
        .flat_map(|(g, _)| g.0.zones.iter().cloned())
        .collect();
    out.extend(d.events().iter().filter_map(|e| match e {
        GameEvent::Orcus(OrcusEvent::ZoneCreated { zone }) => Some(zone.clone()),
        _ => None,
    }));
    out.retain(|z| !ended.contains(&z.id));
    out
}

/// The extra movement zones add to entering `sp` in `mode`: difficult terrain +1 (once, like the
/// map's; fliers ignore it as they ignore the map's difficult terrain).
pub(super) fn extra_cost(d: &Decider, b: &Board, sp: Space, mode: MoveMode) -> i32 {
    if mode.special() == Some(SpecialMode::Fly) {
        return 0;
    }
    extra_cost_among(&zones(d, b), sp, mode)
}

/// [`extra_cost`] among zones gathered once ([`zones`]), for a path checked square by square
/// in one state.
pub(super) fn extra_cost_among(zones: &[Zone], sp: Space, mode: MoveMode) -> i32 {
    if mode.special() == Some(SpecialMode::Fly) {
        return 0;
    }
    let difficult = zones.iter().any(|z| {
        z.kind == ZoneKind::DifficultTerrain && sp.squares().any(|s| z.squares.contains(&s))
    });
    i32::from(difficult)
}

/// Start of `id`'s turn: its zones lasting until the end of its next turn are armed.
pub(super) fn start_of_turn(d: &mut Decider, b: &Board, id: &CombatantId) {
    let arming: Vec<u32> = zones(d, b)
        .into_iter()
        .filter(|z| {
            &z.source == id && z.duration == EffectDuration::UntilEndOfSourcesNextTurn && !z.armed
        })
        .map(|z| z.id)
        .collect();
    for zone in arming {
        d.emit(GameEvent::Orcus(OrcusEvent::ZoneArmed {
            source: id.clone(),
            zone,
        }));
    }
}

/// End of `id`'s turn: its armed zones end ("until the end of your next turn"), then what it
/// did not maintain this turn (§ The end of your turn, § Maintain).
pub(super) fn end_of_turn(d: &mut Decider, b: &Board, id: &CombatantId) {
    let armed_now: Vec<u32> = d
        .events()
        .iter()
        .filter_map(|e| match e {
            GameEvent::Orcus(OrcusEvent::ZoneArmed { source, zone }) if source == id => Some(*zone),
            _ => None,
        })
        .collect();
    let expiring: Vec<u32> = zones(d, b)
        .into_iter()
        .filter(|z| {
            &z.source == id
                && z.duration == EffectDuration::UntilEndOfSourcesNextTurn
                && (z.armed || armed_now.contains(&z.id))
        })
        .map(|z| z.id)
        .collect();
    for zone in expiring {
        end_zone(d, id, zone, EffectEndReason::Expired);
    }
    maintain::lapse(d, b, id);
}

/// Ends a zone.
pub(super) fn end_zone(d: &mut Decider, source: &CombatantId, zone: u32, reason: EffectEndReason) {
    d.emit(GameEvent::Orcus(OrcusEvent::ZoneEnded {
        source: source.clone(),
        zone,
        reason,
    }));
}
