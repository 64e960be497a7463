//! Building a session world from an encounter, reading its canonical state, and restoring a world
//! from a snapshot of that state. The shared components and resources are built, read and
//! restored here; the session's ruleset's own through its registry row's `parts`
//! (`rules/<ruleset>/world.rs`), which the world keeps as its `SessionRuleset` resource.
//!
//! Architecture invariant: this module names no ruleset and none of a ruleset's components.

use super::SessionRuleset;
use crate::content::model::{CombatantSpec, Encounter};
use crate::dice::SessionRng;
use crate::ecs::components::*;
use crate::rules::Ruleset;
use bevy_ecs::prelude::*;
use fray_protocol::state::{ActionsLeft, CombatantState, LifeStatus, Phase, SessionState};

/// Spawns one combatant: the shared components, then its ruleset's.
pub(super) fn spawn(
    world: &mut World,
    rules: Option<&'static Ruleset>,
    spec: &CombatantSpec,
) -> Entity {
    let mut e = world.spawn((
        Combatant {
            villain: spec.villain,
            id: spec.id.clone(),
            name: spec.name.clone(),
            side: spec.side,
            template: spec.template.clone(),
            level: spec.level,
            size: spec.size,
        },
        HitPoints {
            current: spec.max_hp,
            max: spec.max_hp,
            temp: 0,
        },
        Defenses(spec.defenses),
        Initiative {
            bonus: spec.initiative,
            result: None,
        },
        ActionBudget(ActionsLeft::NONE),
        Vitality(LifeStatus::Conscious),
        Effects::default(),
        Arsenal(spec.attacks.clone()),
        Position::default(),
        Resistances {
            resist: spec.resist.clone(),
            vulnerable: spec.vulnerable.clone(),
        },
        Expended::default(),
        InterruptUsed::default(),
    ));
    if let Some(rules) = rules {
        (rules.parts.spawn)(&mut e, spec);
        let attacks = (rules.parts.attacks)(&e.as_readonly());
        e.insert(AttackList(attacks.into()));
    }
    if let Some(h) = &spec.hero {
        e.insert(Hero {
            spec: h.clone(),
            recoveries: h.recoveries,
            recovery_penalty: 0,
            death_save_failures: 0,
            rallies: 0,
            rally_barred_round: None,
            stabilized: false,
            potions: h.potions,
            dropped: false,
            lasting_wounds: 0,
            coma: false,
            rested: false,
            base_max_hp: spec.max_hp,
        });
    }
    e.id()
}

/// A fresh world for an encounter, before the battle starts.
pub fn build_world(encounter: &Encounter, rng: SessionRng, secret: SeedSecret) -> World {
    let mut world = World::new();
    let rules = crate::rules::ruleset(&encounter.ruleset);
    let mut roster = Roster::default();
    for spec in &encounter.combatants {
        let e = spawn(&mut world, rules, spec);
        roster.0.insert(spec.id.clone(), e);
    }
    world.insert_resource(roster);
    world.insert_resource(battle_from(&SessionState::new(
        encounter.ruleset.clone(),
        Vec::new(),
    )));
    world.insert_resource(Pending::default());
    world.insert_resource(Outbox::default());
    world.insert_resource(Dice(rng));
    world.insert_resource(SecretDice::default());
    world.insert_resource(Options(encounter.options));
    world.insert_resource(LaterBattles(encounter.battles.clone()));
    world.insert_resource(Bestiary::of(encounter));
    world.insert_resource(AddedIds::default());
    world.insert_resource(secret);
    if let Some(rules) = rules {
        world.insert_resource(SessionRuleset(rules));
        (rules.parts.insert_resources)(&mut world, encounter);
    }
    world
}

/// The canonical state (GM view), combatants sorted by id.
pub fn read_state(world: &World) -> SessionState {
    let (Some(battle), Some(roster)) = (
        world.get_resource::<Battle>(),
        world.get_resource::<Roster>(),
    ) else {
        // invariant: every session world is built by `build_world`, which inserts both.
        return empty_state();
    };
    let rules = world.get_resource::<SessionRuleset>().map(|r| r.0);
    let mut combatants = Vec::with_capacity(roster.0.len());
    for e in roster.0.values() {
        let Ok(er) = world.get_entity(*e) else {
            continue;
        };
        let (
            Some(c),
            Some(hp),
            Some(def),
            Some(init),
            Some(budget),
            Some(vit),
            Some(fx),
            Some(_),
            Some(pos),
            Some(used),
            Some(interrupt),
        ) = (
            er.get::<Combatant>(),
            er.get::<HitPoints>(),
            er.get::<Defenses>(),
            er.get::<Initiative>(),
            er.get::<ActionBudget>(),
            er.get::<Vitality>(),
            er.get::<Effects>(),
            er.get::<Arsenal>(),
            er.get::<Position>(),
            er.get::<Expended>(),
            er.get::<InterruptUsed>(),
        )
        else {
            continue;
        };
        let hero = er.get::<Hero>();
        let mut state = CombatantState {
            id: c.id.clone(),
            name: c.name.clone(),
            side: c.side,
            template: c.template.clone(),
            level: c.level,
            size: c.size,
            hp: Some(hp.current),
            max_hp: Some(hp.max),
            temp_hp: hp.temp,
            staggered: hp.staggered() && !vit.0.is_out(),
            status: vit.0,
            defenses: def.0,
            initiative: init.result,
            actions: budget.0,
            effects: fx.0.clone(),
            recoveries: hero.map_or(0, |h| h.recoveries),
            recovery_penalty: hero.map_or(0, |h| h.recovery_penalty),
            death_save_failures: hero.map_or(0, |h| h.death_save_failures),
            rallies: hero.map_or(0, |h| h.rallies),
            rally_barred_round: hero.and_then(|h| h.rally_barred_round),
            // Summarized once, at spawn (`Parts::attacks`); the ruleset's own blocks below.
            attacks: er
                .get::<AttackList>()
                .map(|l| l.0.clone())
                .unwrap_or_default(),
            ose: None,
            ftd: None,
            grid: None,
            engaged_with: pos.engaged.iter().cloned().collect(),
            far_away: pos.far_away,
            stabilized: hero.is_some_and(|h| h.stabilized),
            expended: used.0.iter().cloned().collect(),
            interrupt_used: interrupt.0,
            potions: hero.map_or(0, |h| h.potions),
            dropped: hero.is_some_and(|h| h.dropped),
            lasting_wounds: hero.map_or(0, |h| h.lasting_wounds),
            coma: hero.is_some_and(|h| h.coma),
            rested: hero.is_some_and(|h| h.rested),
        };
        if let Some(rules) = rules {
            (rules.parts.read)(&er, &mut state);
        }
        combatants.push(state);
    }
    let battles = world
        .get_resource::<LaterBattles>()
        .map_or(0, |l| l.0.len());
    let mut state = SessionState {
        ruleset: battle.ruleset.clone(),
        phase: battle.phase,
        battle: battle.battle,
        battles: u32::try_from(battles + 1).unwrap_or(u32::MAX),
        round: battle.round,
        escalation: battle.escalation,
        escalation_held: battle.escalation_held,
        knock_outs_allowed: battle.knock_outs_allowed,
        fled: battle.fled,
        delayed: battle.delayed.clone(),
        readied: battle.readied.clone(),
        session_over: battle.session_over,
        surprise: battle.surprise,
        spirit_used: battle.spirit_used,
        spirit_rounds: battle.spirit_rounds.clone(),
        undelay: battle.undelay.clone(),
        order: battle.order.clone(),
        current: battle.current().cloned(),
        turn_index: battle.turn_index.and_then(|i| u32::try_from(i).ok()),
        next_effect_id: battle.next_effect_id,
        winner: battle.winner,
        seed_revealed: battle.seed_revealed,
        opportunities: battle.opportunities.clone(),
        last_mover: battle.last_mover.clone(),
        hit_this_turn: battle.hit_this_turn.clone(),
        popped_free: battle.popped_free.clone(),
        // The ruleset's parts (below).
        map: None,
        released: battle.released.clone(),
        ftd: None,
        ose: None,
        combatants,
        clock: battle.clock,
        last_long_rest: battle.last_long_rest,
        encounters_since_long_rest: battle.encounters_since_long_rest,
    };
    if let Some(rules) = rules {
        (rules.parts.read_session)(world, &mut state);
    }
    state
}

/// The battle resource for a state (the state view is its canonical form).
fn battle_from(state: &SessionState) -> Battle {
    Battle {
        ruleset: state.ruleset.clone(),
        phase: state.phase,
        battle: state.battle,
        stage: match (state.phase, &state.current) {
            (Phase::Setup, _) => Stage::Setup,
            (Phase::Ended, _) => Stage::Ended,
            (Phase::Running, Some(_)) => Stage::Acting,
            (Phase::Running, None) => Stage::BetweenTurns,
        },
        round: state.round,
        escalation: state.escalation,
        escalation_held: state.escalation_held,
        knock_outs_allowed: state.knock_outs_allowed,
        fled: state.fled,
        delayed: state.delayed.clone(),
        undelay: state.undelay.clone(),
        readied: state.readied.clone(),
        session_over: state.session_over,
        surprise: state.surprise,
        spirit_used: state.spirit_used,
        spirit_rounds: state.spirit_rounds.clone(),
        order: state.order.clone(),
        turn_index: state.turn_index.map(|i| i as usize),
        next_effect_id: state.next_effect_id,
        winner: state.winner,
        seed_revealed: state.seed_revealed,
        opportunities: state.opportunities.clone(),
        last_mover: state.last_mover.clone(),
        hit_this_turn: state.hit_this_turn.clone(),
        popped_free: state.popped_free.clone(),
        released: state.released.clone(),
        clock: state.clock,
        last_long_rest: state.last_long_rest,
        encounters_since_long_rest: state.encounters_since_long_rest,
    }
}

fn empty_state() -> SessionState {
    SessionState::new(String::new(), Vec::new())
}

/// Rebuilds a world from its encounter and a state snapshot (GM view) plus the RNG as it was.
/// Returns `None` if the snapshot does not fit the encounter.
pub fn restore_world(
    encounter: &Encounter,
    state: &SessionState,
    rng: SessionRng,
    secret: SeedSecret,
) -> Option<World> {
    let mut world = build_world(encounter, rng, secret);
    let rules = world.get_resource::<SessionRuleset>().map(|r| r.0);
    // A later battle: its monsters replace the first battle's.
    if state.battle > 1 {
        super::apply::enter_battle(&mut world, state.battle);
    }
    fit_roster(&mut world, rules, state)?;
    let roster = world.resource::<Roster>().0.clone();
    for cs in &state.combatants {
        let e = *roster.get(&cs.id)?;
        let mut em = world.get_entity_mut(e).ok()?;
        {
            let mut hp = em.get_mut::<HitPoints>()?;
            hp.current = cs.hp?;
            hp.max = cs.max_hp?;
            hp.temp = cs.temp_hp;
        }
        em.get_mut::<Initiative>()?.result = cs.initiative;
        em.get_mut::<ActionBudget>()?.0 = cs.actions;
        em.get_mut::<Vitality>()?.0 = cs.status;
        em.get_mut::<Effects>()?.0 = cs.effects.clone();
        if let Some(mut h) = em.get_mut::<Hero>() {
            h.recoveries = cs.recoveries;
            h.recovery_penalty = cs.recovery_penalty;
            h.death_save_failures = cs.death_save_failures;
            h.rallies = cs.rallies;
            h.rally_barred_round = cs.rally_barred_round;
            h.stabilized = cs.stabilized;
            h.potions = cs.potions;
            h.dropped = cs.dropped;
            h.lasting_wounds = cs.lasting_wounds;
            h.coma = cs.coma;
            h.rested = cs.rested;
        }
        em.get_mut::<Expended>()?.0 = cs.expended.iter().cloned().collect();
        em.get_mut::<InterruptUsed>()?.0 = cs.interrupt_used;
        if let Some(rules) = rules {
            (rules.parts.restore)(&mut em, cs)?;
        }
        {
            let mut pos = em.get_mut::<Position>()?;
            pos.engaged = cs.engaged_with.iter().cloned().collect();
            pos.far_away = cs.far_away;
        }
    }
    *world.resource_mut::<Battle>() = battle_from(state);
    if let Some(rules) = rules {
        (rules.parts.restore_session)(&mut world, state);
    }
    Some(world)
}

/// Makes the roster hold exactly the state's combatants: those the GM removed leave, the GM's
/// reinforcements are spawned from their template's stat block (`Bestiary`) under their own
/// id and name (and square, which the ruleset's restore sets). `None` when a reinforcement's
/// template is not in the encounter.
fn fit_roster(
    world: &mut World,
    rules: Option<&'static Ruleset>,
    state: &SessionState,
) -> Option<()> {
    let gone: Vec<_> = world
        .resource::<Roster>()
        .0
        .keys()
        .filter(|id| !state.combatants.iter().any(|c| &c.id == *id))
        .cloned()
        .collect();
    for id in gone {
        if let Some(e) = world.resource_mut::<Roster>().0.remove(&id) {
            world.despawn(e);
        }
    }
    for cs in &state.combatants {
        if world.resource::<Roster>().0.contains_key(&cs.id) {
            continue;
        }
        let mut spec = world.resource::<Bestiary>().block(&cs.template)?.clone();
        spec.id = cs.id.clone();
        spec.name = cs.name.clone();
        let e = spawn(world, rules, &spec);
        world.resource_mut::<Roster>().0.insert(cs.id.clone(), e);
    }
    (state.combatants.len() == world.resource::<Roster>().0.len()).then_some(())
}
