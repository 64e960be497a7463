//! Building a session world from an encounter, reading its canonical state, and restoring a world
//! from a snapshot of that state.

use super::components::*;
use crate::content::model::{CombatantSpec, Encounter};
use crate::dice::SessionRng;
use crate::rules::five_torches::components::{FtdField, FtdKit, FtdSheet};
use crate::rules::orcus::components::{BattleMap, Grid, OrcusKit};
use crate::rules::ose::components::{OseField, OseKit, OseSheet};
use bevy_ecs::prelude::*;
use fray_protocol::state::{
    ActionsLeft, AttackSummary, CombatantState, LifeStatus, Phase, SessionState,
};

/// Spawns one combatant.
pub(super) fn spawn(world: &mut World, spec: &CombatantSpec) -> Entity {
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
    if let Some(o) = &spec.orcus {
        e.insert((
            Grid(fray_protocol::grid::GridState {
                square: o.square,
                size: o.size,
                speed: o.speed,
                fortitude: o.fortitude,
                reflex: o.reflex,
                will: o.will,
                rank: o.rank.clone(),
                action_points: o.action_points,
                action_point_round: None,
                opportunity_used: false,
                immediate_used: false,
                recovery_value: o.recovery_value,
                rallied: false,
                riders: Vec::new(),
                maintained: Vec::new(),
                ammunition: o.ammunition,
                mounted_on: None,
                controls_mount: false,
                height: 0,
                unloaded: Vec::new(),
                chosen_allies: None,
                declined_by: Vec::new(),
                hit_chosen_by: Vec::new(),
                moves_mount: false,
                landing: None,
                commanded: false,
                zones: Vec::new(),
                maintain_needed: Vec::new(),
                readied_counter: None,
                hidden_from: Vec::new(),
                stealth: None,
                searched: false,
            }),
            OrcusKit(o.clone()),
        ));
    }
    if let Some(k) = &spec.ftd {
        let mut sheet = fray_protocol::ftd::FtdCombatant {
            abilities: k.abilities,
            proficiency: k.proficiency,
            class: k.class.clone(),
            hd: k.hd,
            morale_bonus: k.morale_bonus,
            morale_proficient: k.morale_proficient,
            leader: k.leader,
            granted: fray_protocol::ftd::Advantage::None,
            disadvantage_until_rest: false,
            injuries: Vec::new(),
            fell_round: None,
            departed: None,
            load: k.load,
            coins: k.coins,
            base_speed: k.speed,
            speed: k.speed,
            over_load: 0,
            darksight: k.darksight,
            light: None,
            carried: None,
            hidden: false,
            exhausted: false,
            adventured: 0,
            corruption: None,
            concentration: None,
        };
        sheet.refresh_encumbrance();
        e.insert((FtdSheet(sheet), FtdKit(k.clone())));
    }
    if let Some(k) = &spec.ose {
        e.insert((
            OseSheet(fray_protocol::ose::OseCombatant {
                class: k.class.clone(),
                hd: k.hd.clone(),
                thac0: k.thac0,
                ac: k.ac,
                shield: k.shield,
                saves: k.saves,
                morale: k.morale,
                morale_successes: 0,
                fled: false,
                declared: None,
                next: None,
                acted: false,
                disrupted: false,
                conditions: Vec::new(),
                subdual: 0,
                routine_used: Vec::new(),
                phase: None,
                moved: 0,
                engaged: Vec::new(),
                darkvision: k.darkvision,
                rested_turns: 0,
                move_rounds: 0,
            }),
            OseKit(k.clone()),
        ));
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
    let mut roster = Roster::default();
    for spec in &encounter.combatants {
        let e = spawn(&mut world, spec);
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
    world.insert_resource(secret);
    world.insert_resource(BattleMap(encounter.map.clone()));
    world.insert_resource(FtdField(
        (encounter.ruleset == crate::rules::five_torches::ID)
            .then(fray_protocol::ftd::FtdBattle::default),
    ));
    world.insert_resource(OseField(crate::rules::ose::is_bx(&encounter.ruleset).then(
        || fray_protocol::ose::OseBattle {
            options: encounter.options.ose,
            basic_fantasy: encounter.ruleset == crate::rules::basic_fantasy::ID,
            ..Default::default()
        },
    )));
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
            Some(ars),
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
        let grid = er.get::<Grid>();
        let kit = er.get::<OrcusKit>();
        let ftd_kit = er.get::<FtdKit>();
        let ose_kit = er.get::<OseKit>();
        combatants.push(CombatantState {
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
            attacks: match (kit, ftd_kit, ose_kit) {
                (Some(k), _, _) => crate::rules::orcus::summaries(&k.0),
                (None, Some(k), _) => crate::rules::five_torches::summaries(&k.0),
                (None, None, Some(k)) => crate::rules::ose::summaries(&k.0),
                (None, None, None) => summaries(&ars.0),
            },
            ose: er.get::<OseSheet>().map(|s| s.0.clone()),
            ftd: er.get::<FtdSheet>().map(|s| s.0.clone()),
            grid: grid.map(|g| g.0.clone()),
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
        });
    }
    let battles = world
        .get_resource::<LaterBattles>()
        .map_or(0, |l| l.0.len());
    SessionState {
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
        map: world
            .get_resource::<BattleMap>()
            .and_then(|m| m.0.clone())
            .map(Box::new),
        released: battle.released.clone(),
        ftd: world.get_resource::<FtdField>().and_then(|f| f.0.clone()),
        ose: world.get_resource::<OseField>().and_then(|f| f.0.clone()),
        combatants,
        clock: battle.clock,
        last_long_rest: battle.last_long_rest,
        encounters_since_long_rest: battle.encounters_since_long_rest,
    }
}

/// What a client needs to offer a 13th Age combatant's attacks.
fn summaries(attacks: &[crate::content::model::AttackSpec]) -> Vec<AttackSummary> {
    attacks
        .iter()
        .map(|a| AttackSummary {
            id: a.id.clone(),
            name: a.name.clone(),
            range: a.reach.name().to_owned(),
            vs: a.vs,
            max_targets: a.max_targets,
            basic: a.basic,
            spell: a.spell,
            maneuvers: a.maneuvers.iter().map(|m| m.id.clone()).collect(),
            usage: crate::rules::thirteenth_age::usage_name(a.usage),
            action: if a.interrupt {
                "interrupt"
            } else if a.quick {
                "quick"
            } else {
                "standard"
            }
            .into(),
            category: "attack".into(),
            tags: Vec::new(),
        })
        .collect()
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
    // A later battle: its monsters replace the first battle's.
    if state.battle > 1 {
        super::apply::enter_battle(&mut world, state.battle);
    }
    if state.combatants.len() != world.resource::<Roster>().0.len() {
        return None;
    }
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
        if let Some(g) = &cs.grid {
            em.get_mut::<Grid>()?.0 = g.clone();
        }
        if let Some(f) = &cs.ftd {
            em.get_mut::<FtdSheet>()?.0 = f.clone();
        }
        if let Some(f) = &cs.ose {
            em.get_mut::<OseSheet>()?.0 = f.clone();
        }
        {
            let mut pos = em.get_mut::<Position>()?;
            pos.engaged = cs.engaged_with.iter().cloned().collect();
            pos.far_away = cs.far_away;
        }
    }
    *world.resource_mut::<Battle>() = battle_from(state);
    if state.ftd.is_some() {
        world.resource_mut::<FtdField>().0 = state.ftd.clone();
    }
    if state.ose.is_some() {
        world.resource_mut::<OseField>().0 = state.ose.clone();
    }
    Some(world)
}
