//! A read-only view of the battlefield for decide systems, with a local overlay of hit points
//! and status so that one pass can emit several dependent events (damage to the same target,
//! ongoing damage then a save) without mutating the world.

use crate::ecs::components::*;
use bevy_ecs::prelude::*;
use bevy_ecs::query::QueryData;
use bevy_ecs::system::SystemParam;
use fray_protocol::event::{Condition, EffectKind};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::state::LifeStatus;
use std::collections::BTreeMap;

/// Everything decide reads of one combatant.
#[derive(QueryData)]
pub struct Fighter {
    /// Identity.
    pub c: &'static Combatant,
    /// Hit points.
    pub hp: &'static HitPoints,
    /// Defenses.
    pub def: &'static Defenses,
    /// Initiative.
    pub init: &'static Initiative,
    /// Actions left.
    pub budget: &'static ActionBudget,
    /// Status.
    pub vit: &'static Vitality,
    /// Effects.
    pub fx: &'static Effects,
    /// PC data.
    pub hero: Option<&'static Hero>,
    /// Attacks.
    pub arsenal: &'static Arsenal,
    /// Engagement and whereabouts.
    pub pos: &'static Position,
    /// Resistances and vulnerabilities.
    pub res: &'static Resistances,
    /// Limited powers expended.
    pub used: &'static Expended,
    /// Interrupt spent until the end of its next turn.
    pub interrupt: &'static InterruptUsed,
}

/// The battlefield as decide sees it.
#[derive(SystemParam)]
pub struct Field<'w, 's> {
    /// Shared battle state.
    pub battle: Res<'w, Battle>,
    /// Optional rules.
    pub options: Res<'w, Options>,
    /// The session's later battles.
    pub later: Res<'w, LaterBattles>,
    roster: Res<'w, Roster>,
    /// The encounter's stat blocks (the GM's reinforcements are copied from them).
    pub bestiary: Option<Res<'w, Bestiary>>,
    /// Every id the log's reinforcements have had (removed ones included).
    pub added: Option<Res<'w, AddedIds>>,
    q: Query<'w, 's, Fighter>,
    /// Side and status alone, iterated in storage order: for the checks over every combatant
    /// whose answer does not depend on the order (is a side still up?), run on every pass of
    /// the turn machinery.
    vitals: Query<'w, 's, (&'static Combatant, &'static Vitality)>,
    /// Effects alone: the turn machinery looks at every combatant's effects at each turn's
    /// start and end, and a lookup of the whole `Fighter` costs a column per component.
    effects: Query<'w, 's, (&'static Combatant, &'static Effects)>,
}

impl<'w, 's> Field<'w, 's> {
    /// A combatant by id.
    pub fn get(&self, id: &CombatantId) -> Option<FighterItem<'_, 's>> {
        let e = self.roster.0.get(id)?;
        self.q.get(*e).ok()
    }

    /// Every combatant, sorted by id.
    pub fn all(&self) -> impl Iterator<Item = FighterItem<'_, 's>> {
        self.roster.0.values().filter_map(|e| self.q.get(*e).ok())
    }

    /// Every combatant's identity and status, in no particular order (only for answers that
    /// do not depend on it).
    pub fn statuses(&self) -> impl Iterator<Item = (&Combatant, LifeStatus)> {
        self.vitals.iter().map(|(c, v)| (c, v.0))
    }

    /// Every combatant's effects, sorted by id.
    pub fn all_effects(&self) -> impl Iterator<Item = (&CombatantId, &Effects)> {
        self.roster
            .0
            .values()
            .filter_map(|e| self.effects.get(*e).ok())
            .map(|(c, fx)| (&c.id, fx))
    }

    /// The ids of one side's combatants, sorted.
    pub fn ids_of(&self, side: fray_protocol::ids::Side) -> Vec<CombatantId> {
        self.all()
            .filter(|f| f.c.side == side)
            .map(|f| f.c.id.clone())
            .collect()
    }
}

/// Whether an effect list holds a condition.
pub fn has_condition(fx: &Effects, c: Condition) -> bool {
    fx.0.iter()
        .any(|e| matches!(e.kind, EffectKind::Condition(x) if x == c))
}

/// A grabber of a grabbed creature, if any (the source of its first `Grabbed` effect): for
/// "is it grabbed" and naming one in a message; a rule that holds for each creature grabbing it
/// uses [`grabbers`] or [`is_grabbed_by`].
pub fn grabbed_by(fx: &Effects) -> Option<&CombatantId> {
    grabbers(fx).next()
}

/// Every creature grabbing a creature (the sources of its `Grabbed` effects).
pub fn grabbers(fx: &Effects) -> impl Iterator<Item = &CombatantId> {
    fx.0.iter().filter_map(|e| match e.kind {
        EffectKind::Condition(Condition::Grabbed) => Some(&e.source),
        _ => None,
    })
}

/// Whether an effect list holds a grab by `grabber`.
pub fn is_grabbed_by(fx: &Effects, grabber: &CombatantId) -> bool {
    fx.0.iter().any(|e| {
        e.source == *grabber && matches!(e.kind, EffectKind::Condition(Condition::Grabbed))
    })
}

/// Hit points and status as they will be after the events emitted so far this pass.
#[derive(Debug, Clone, Copy)]
pub struct Vitals {
    /// Current hit points.
    pub current: i32,
    /// Maximum.
    pub max: i32,
    /// Temporary hit points.
    pub temp: i32,
    /// Status.
    pub status: LifeStatus,
    /// Side.
    pub side: Side,
}

/// The local overlay.
#[derive(Debug, Default)]
pub struct Overlay(BTreeMap<CombatantId, Vitals>);

impl Overlay {
    /// Vitals of a combatant, from the overlay or the world.
    pub fn vitals(&mut self, field: &Field, id: &CombatantId) -> Option<Vitals> {
        if let Some(v) = self.0.get(id) {
            return Some(*v);
        }
        let f = field.get(id)?;
        let v = Vitals {
            current: f.hp.current,
            max: f.hp.max,
            temp: f.hp.temp,
            status: f.vit.0,
            side: f.c.side,
        };
        self.0.insert(id.clone(), v);
        Some(v)
    }

    /// Records new vitals.
    pub fn set(&mut self, id: &CombatantId, v: Vitals) {
        self.0.insert(id.clone(), v);
    }

    /// Status after this pass's events so far.
    pub fn status(&mut self, field: &Field, id: &CombatantId) -> Option<LifeStatus> {
        self.vitals(field, id).map(|v| v.status)
    }
}

/// The net modifier of a stat among an effect list as named terms: the best bonus and the worst
/// penalty (bonuses don't stack with each other, nor penalties — 13th Age § Stacking Rules,
/// Orcus § Conditions), each named by the effect's source (`bonus from sela`), as an event's
/// `modifiers` list them.
pub fn effect_bonus_terms(
    fx: &[fray_protocol::event::Effect],
    stat: fray_protocol::event::BonusStat,
) -> fray_protocol::roll::Modifiers {
    let mut best: Option<(i32, &CombatantId)> = None;
    let mut worst: Option<(i32, &CombatantId)> = None;
    for e in fx {
        if let fray_protocol::event::EffectKind::Bonus { stat: s, amount } = e.kind
            && s == stat
        {
            if amount > best.map_or(0, |b| b.0) {
                best = Some((amount, &e.source));
            }
            if amount < worst.map_or(0, |w| w.0) {
                worst = Some((amount, &e.source));
            }
        }
    }
    let mut terms = fray_protocol::roll::Modifiers::new();
    if let Some((amount, source)) = best {
        terms.add_named(format!("bonus from {source}"), amount);
    }
    if let Some((amount, source)) = worst {
        terms.add_named(format!("penalty from {source}"), amount);
    }
    terms
}
