//! The common events of a battle's life and the session's: the start and the end of a battle,
//! entering the next one, rests, leaving the battle, the end of the session, the seed revealed.

use crate::ecs::access::disengage_all;
use crate::ecs::access::{for_all, with};
use crate::ecs::components::*;
use crate::engine::SessionRuleset;
use bevy_ecs::prelude::*;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::state::{ActionsLeft, LifeStatus, Phase};

/// Folds the battle events (`super::apply` routes only those here).
pub(super) fn apply(world: &mut World, event: &GameEvent) {
    match event {
        GameEvent::BattleStarted => {
            world.resource_mut::<Battle>().phase = Phase::Running;
            // 13th Age § Temporary Hit Points: they drop to 0 when you roll initiative.
            for_all::<HitPoints>(world, |hp| hp.temp = 0);
        }
        GameEvent::BattleEnded { winner } => battle_ended(world, *winner),
        GameEvent::NewBattle { battle, .. } => enter_battle(world, *battle),
        GameEvent::QuickRested { combatant } => with::<Hero>(world, combatant, |h| h.rested = true),
        GameEvent::FullHealUp => full_heal_up(world),
        GameEvent::LeftBattle { combatant, .. } => {
            disengage_all(world, combatant);
            with::<ActionBudget>(world, combatant, |a| a.0 = ActionsLeft::NONE);
            with::<Effects>(world, combatant, |fx| fx.0.clear());
        }
        GameEvent::CombatantAdded {
            combatant,
            template,
            name,
            square,
        } => add_combatant(world, combatant, template, name, *square),
        GameEvent::CombatantRemoved { combatant } => remove_combatant(world, combatant),
        GameEvent::SessionEnded => world.resource_mut::<Battle>().session_over = true,
        GameEvent::SeedRevealed { .. } => world.resource_mut::<Battle>().seed_revealed = true,
        _ => {}
    }
}

/// A GM's reinforcement: a copy of its template's stat block (the encounter's, `Bestiary`)
/// under its own id and name, at `square` where the ruleset has squares (its row's
/// `parts.place`). Its place in the order comes with later events. Its id stays taken
/// (`AddedIds`), even once it is removed.
fn add_combatant(
    world: &mut World,
    id: &CombatantId,
    template: &str,
    name: &str,
    square: Option<fray_protocol::grid::Square>,
) {
    if let Some(mut ids) = world.get_resource_mut::<AddedIds>() {
        ids.0.insert(id.clone());
    }
    let Some(mut spec) = world.resource::<Bestiary>().block(template).cloned() else {
        return;
    };
    if world.resource::<Roster>().0.contains_key(id) {
        return;
    }
    spec.id = id.clone();
    spec.name = name.to_string();
    let rules = world.get_resource::<SessionRuleset>().map(|r| r.0);
    if let (Some(place), Some(sq)) = (rules.and_then(|r| r.parts.place), square) {
        place(&mut spec, sq);
    }
    let e = crate::engine::world::spawn(world, rules, &spec);
    world.resource_mut::<Roster>().0.insert(id.clone(), e);
}

/// A combatant the GM removed leaves the world and the order of battle; when it was its turn,
/// the turn is over (the next one begins) and the order's index points at the turn before.
fn remove_combatant(world: &mut World, id: &CombatantId) {
    disengage_all(world, id);
    {
        let mut b = world.resource_mut::<Battle>();
        if let Some(at) = b.order.iter().position(|c| c == id) {
            let current = b.current() == Some(id);
            b.order.remove(at);
            if let Some(t) = b.turn_index
                && at <= t
            {
                b.turn_index = t.checked_sub(1);
            }
            if current {
                b.stage = Stage::BetweenTurns;
                b.last_mover = None;
                b.popped_free = None;
                b.hit_this_turn.clear();
            }
        }
        b.delayed.retain(|c| c != id);
        b.readied.retain(|(c, _)| c != id);
        if b.undelay.as_ref() == Some(id) {
            b.undelay = None;
        }
        b.opportunities.retain(|(a, p)| a != id && p != id);
        b.hit_this_turn.retain(|c| c != id);
        b.released.retain(|(a, g)| a != id && g != id);
        if b.last_mover.as_ref() == Some(id) {
            b.last_mover = None;
        }
        if b.popped_free.as_ref() == Some(id) {
            b.popped_free = None;
        }
    }
    if let Some(e) = world.resource_mut::<Roster>().0.remove(id) {
        world.despawn(e);
    }
}

/// The battle is over: who won; effects end with the battle; temporary hit points reset to 0
/// after a battle.
fn battle_ended(world: &mut World, winner: Option<Side>) {
    {
        let mut b = world.resource_mut::<Battle>();
        b.phase = Phase::Ended;
        b.stage = Stage::Ended;
        b.winner = winner;
    }
    for_all::<Effects>(world, |fx| fx.0.clear());
    for_all::<Position>(world, |p| p.engaged.clear());
    {
        let mut b = world.resource_mut::<Battle>();
        b.opportunities.clear();
        b.released.clear();
    }
    for_all::<HitPoints>(world, |hp| hp.temp = 0);
    for_all::<ActionBudget>(world, |a| a.0 = ActionsLeft::NONE);
    // Orcus § Action points: one more encounter since the last long rest.
    let mut b = world.resource_mut::<Battle>();
    b.encounters_since_long_rest = b.encounters_since_long_rest.saturating_add(1);
}

/// A full heal-up (13th Age) or a long rest (Orcus): every living hero back to full, its
/// recoveries and powers back.
fn full_heal_up(world: &mut World) {
    let mut q = world.query::<(&mut Hero, &mut HitPoints, &mut Expended, &Vitality)>();
    for (mut h, mut hp, mut used, vit) in q.iter_mut(world) {
        if vit.0 == LifeStatus::Dead {
            continue;
        }
        hp.max = h.base_max_hp;
        hp.current = hp.max;
        h.recoveries = h.spec.recoveries;
        h.recovery_penalty = 0;
        h.lasting_wounds = 0;
        h.death_save_failures = 0;
        h.rested = false;
        used.0.clear();
    }
    // Orcus § Resting: the long rest ends now (one per 24 hours); the encounters counted for
    // action points start afresh.
    let mut b = world.resource_mut::<Battle>();
    b.last_long_rest = Some(b.clock);
    b.encounters_since_long_rest = 0;
}

/// Sets up battle `number` (from 1) of the session: the monsters on the field leave, that
/// battle's monsters (from the `LaterBattles` resource) come in, and everything that lasts one
/// battle starts afresh — the round, the escalation die, the order of battle, initiative,
/// heroes' death saves, rallies, drops and quick rests. Heroes keep hit points, recoveries,
/// expended powers, lasting wounds and comas. (Also used to restore a snapshot of a later
/// battle.) What the session's ruleset keeps for one battle in its own components starts
/// afresh in its `after_apply` of `NewBattle` (a snapshot restores it with the rest).
pub fn enter_battle(world: &mut World, number: u32) {
    let monsters: Vec<CombatantId> = {
        let mut q = world.query::<&Combatant>();
        q.iter(world)
            .filter(|c| c.side == Side::Monsters)
            .map(|c| c.id.clone())
            .collect()
    };
    for id in monsters {
        if let Some(e) = world.resource_mut::<Roster>().0.remove(&id) {
            world.despawn(e);
        }
    }
    let specs = usize::try_from(number)
        .ok()
        .and_then(|n| n.checked_sub(2))
        .and_then(|i| world.resource::<LaterBattles>().0.get(i).cloned());
    let rules = world.get_resource::<SessionRuleset>().map(|r| r.0);
    for spec in specs.map(|b| b.monsters).unwrap_or_default() {
        let e = crate::engine::world::spawn(world, rules, &spec);
        world.resource_mut::<Roster>().0.insert(spec.id.clone(), e);
    }
    {
        let mut b = world.resource_mut::<Battle>();
        b.battle = number;
        b.phase = Phase::Setup;
        b.stage = Stage::Setup;
        b.round = 0;
        b.escalation = 0;
        b.escalation_held = false;
        b.fled = false;
        b.surprise = None;
        b.spirit_used = false;
        b.spirit_rounds.clear();
        b.readied.clear();
        b.delayed.clear();
        b.undelay = None;
        b.order.clear();
        b.turn_index = None;
        b.winner = None;
        b.opportunities.clear();
        b.last_mover = None;
        b.hit_this_turn.clear();
        b.popped_free = None;
        b.released.clear();
    }
    for_all::<Initiative>(world, |i| i.result = None);
    for_all::<InterruptUsed>(world, |i| i.0 = false);
    for_all::<Position>(world, |p| {
        p.engaged.clear();
        p.far_away = false;
    });
    for_all::<Hero>(world, |h| {
        h.death_save_failures = 0;
        h.rallies = 0;
        h.rally_barred_round = None;
        h.dropped = false;
        h.rested = false;
    });
}
