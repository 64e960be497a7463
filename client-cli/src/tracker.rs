//! Following a live session: the last snapshot plus the events after it, the sequence-number
//! bookkeeping (gaps and duplicates are reported, duplicates dropped), and narration.
//!
//! The local state is kept cheaply: [`apply`] folds what an event says plainly (hit points,
//! status, whose turn, actions spent, effects) into the snapshot. It is not the rules engine;
//! clients re-request a snapshot at each turn start, which corrects anything it misses. A
//! snapshot older than events already seen has those events re-applied on top.
//!
//! Until the first snapshot arrives (a connection resumed with `resume_from` gets no snapshot,
//! so the client asks for one) events are held back, so that they can be narrated with names.

use crate::narrate::{Roster, narrate};
use fray_protocol::event::ActionKind;
use fray_protocol::state::{ActionsLeft, LifeStatus, Phase};
use fray_protocol::{BxEvent, FiveTorchesEvent, OrcusEvent, ThirteenthAgeEvent};
use fray_protocol::{CombatantId, GameEvent, SessionState};
use std::collections::VecDeque;

/// How many recent events are kept for re-applying on top of an older snapshot.
const RECENT: usize = 1024;
/// How many events are held back waiting for the first snapshot before narrating with ids.
const HOLD_BACK: usize = 4096;

/// Something to show the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// A narrated event.
    Line {
        /// Its sequence number.
        seq: u64,
        /// The narration.
        text: String,
    },
    /// A sequence anomaly.
    Warning(String),
}

/// Session follower.
#[derive(Debug, Default)]
pub struct Tracker {
    state: Option<SessionState>,
    state_seq: u64,
    last_seq: Option<u64>,
    roster: Roster,
    recent: VecDeque<(u64, GameEvent)>,
    held: Vec<(u64, GameEvent)>,
}

impl Tracker {
    /// An empty tracker.
    pub fn new() -> Tracker {
        Tracker::default()
    }

    /// The local state, once a snapshot arrived.
    pub fn state(&self) -> Option<&SessionState> {
        self.state.as_ref()
    }

    /// The last event sequence number seen (or the resume point).
    pub fn last_seq(&self) -> Option<u64> {
        self.last_seq
    }

    /// Starts counting after `seq` (e.g. `--resume-from`).
    pub fn set_last_seq(&mut self, seq: u64) {
        self.last_seq = Some(seq);
    }

    /// Takes a snapshot as of `seq`; returns the narration of any events held back for it.
    pub fn on_snapshot(&mut self, seq: u64, state: SessionState) -> Vec<Output> {
        let mut state = state;
        let mut state_seq = seq;
        for (s, e) in &self.recent {
            if *s > state_seq {
                apply(&mut state, e);
                state_seq = *s;
            }
        }
        self.roster.refresh(&state);
        self.state = Some(state);
        self.state_seq = state_seq;
        if self.last_seq.is_none() {
            self.last_seq = Some(seq);
        }
        std::mem::take(&mut self.held)
            .into_iter()
            .map(|(seq, event)| self.narrate_and_apply(seq, &event))
            .collect()
    }

    /// Takes an event; returns what to show (possibly nothing while waiting for a snapshot).
    pub fn on_event(&mut self, seq: u64, event: GameEvent) -> Vec<Output> {
        let mut out = Vec::new();
        if let Some(last) = self.last_seq {
            if seq <= last {
                out.push(Output::Warning(format!(
                    "duplicate event #{seq} ignored (already saw up to #{last})"
                )));
                return out;
            }
            if seq != last + 1 {
                out.push(Output::Warning(format!(
                    "gap: expected event #{}, got #{seq} ({} missing)",
                    last + 1,
                    seq - last - 1
                )));
            }
        }
        self.last_seq = Some(seq);
        if self.state.is_none() && self.held.len() < HOLD_BACK {
            self.held.push((seq, event));
            return out;
        }
        out.push(self.narrate_and_apply(seq, &event));
        out
    }

    fn narrate_and_apply(&mut self, seq: u64, event: &GameEvent) -> Output {
        let text = narrate(event, &self.roster);
        self.roster.observe(event);
        if let Some(state) = &mut self.state
            && seq > self.state_seq
        {
            apply(state, event);
            self.state_seq = seq;
        }
        self.recent.push_back((seq, event.clone()));
        if self.recent.len() > RECENT {
            self.recent.pop_front();
        }
        Output::Line { seq, text }
    }
}

/// Folds the plainly stated consequences of an event into a client-side state.
pub fn apply(state: &mut SessionState, event: &GameEvent) {
    let find = |state: &mut SessionState, id: &fray_protocol::CombatantId| {
        state.combatants.iter_mut().position(|c| &c.id == id)
    };
    // Old-School Essentials § Evasion and Pursuit: the pursuit folds itself.
    if let Some(b) = &mut state.ose {
        fray_protocol::pursuit::fold(&mut b.pursuit, event);
    }
    match event {
        GameEvent::BattleStarted => {
            state.phase = Phase::Running;
            for c in &mut state.combatants {
                c.temp_hp = 0;
            }
        }
        GameEvent::InitiativeRolled {
            combatants, total, ..
        } => {
            for c in &mut state.combatants {
                if combatants.contains(&c.id) {
                    c.initiative = Some(*total);
                }
            }
        }
        GameEvent::TurnOrder { order } => state.order = order.clone(),
        GameEvent::RoundStarted { round } => {
            state.round = *round;
            for c in &mut state.combatants {
                if let Some(o) = &mut c.ose {
                    o.declared = o.next.take();
                    o.acted = false;
                    o.disrupted = false;
                    o.routine_used.clear();
                    o.phase = None;
                    o.moved = 0;
                }
            }
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::EscalationDie { value }) => {
            state.escalation = *value
        }
        GameEvent::TurnStarted { combatant, round } => {
            if let Some(i) = find(state, combatant)
                && let Some(o) = &mut state.combatants[i].ose
            {
                o.acted = true;
            }
            if let Some(i) = find(state, combatant)
                && let Some(c) = state.combatants[i]
                    .ftd
                    .as_mut()
                    .and_then(|f| f.concentration.as_mut())
            {
                c.maintained = false;
            }
            state.current = Some(combatant.clone());
            state.round = *round;
            state.turn_index = state
                .order
                .iter()
                .position(|c| c == combatant)
                .and_then(|i| u32::try_from(i).ok());
            // Orcus § Opportunity attacks: one per turn (every creature's turn).
            for c in &mut state.combatants {
                if let Some(g) = &mut c.grid {
                    g.opportunity_used = false;
                }
            }
            if let Some(i) = find(state, combatant) {
                state.combatants[i].actions = ActionsLeft::FULL;
                if let Some(g) = &mut state.combatants[i].grid {
                    // § Immediate actions: one between each of its turns.
                    g.immediate_used = false;
                    // § Action required: a readied counter lapses when its turn starts.
                    g.readied_counter = None;
                    // § Stealth: one active search per turn.
                    g.searched = false;
                }
            }
        }
        GameEvent::ActionUsed {
            combatant, spent, ..
        } => {
            if let Some(i) = find(state, combatant) {
                state.combatants[i].actions.spend(*spent);
            }
        }
        GameEvent::Damaged {
            target,
            temp_absorbed,
            hp_after,
            ..
        } => {
            if let Some(i) = find(state, target) {
                let c = &mut state.combatants[i];
                c.temp_hp = (c.temp_hp - temp_absorbed).max(0);
                if hp_after.is_some() {
                    c.hp = *hp_after;
                }
            }
        }
        GameEvent::Healed {
            target, hp_after, ..
        } => {
            if let Some(i) = find(state, target) {
                let c = &mut state.combatants[i];
                if hp_after.is_some() {
                    c.hp = *hp_after;
                }
                if let (Some(hp), Some(max)) = (c.hp, c.max_hp) {
                    c.staggered = hp * 2 <= max;
                }
            }
        }
        GameEvent::Staggered { combatant } => {
            if let Some(i) = find(state, combatant) {
                state.combatants[i].staggered = true;
            }
        }
        GameEvent::FellUnconscious { combatant } => {
            set_status(state, combatant, LifeStatus::Unconscious)
        }
        GameEvent::Revived { combatant, .. } => set_status(state, combatant, LifeStatus::Conscious),
        GameEvent::Died { combatant } => set_status(state, combatant, LifeStatus::Dead),
        GameEvent::FiveTorches(FiveTorchesEvent::InitiativeScores { scores }) => {
            for (id, dex) in scores {
                if let Some(i) = find(state, id) {
                    state.combatants[i].initiative = Some(*dex);
                }
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::AdvantageGranted {
            combatant,
            advantage,
        }) => {
            if let Some(i) = find(state, combatant)
                && let Some(f) = &mut state.combatants[i].ftd
            {
                f.granted = *advantage;
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::InjuryRolled {
            combatant, injury, ..
        }) => {
            if let Some(i) = find(state, combatant)
                && let Some(f) = &mut state.combatants[i].ftd
            {
                match injury {
                    fray_protocol::ftd::Injury::AbilityLoss { ability, amount } => {
                        let score = f.abilities.get_mut(*ability);
                        *score = (*score - amount).max(0);
                        f.refresh_encumbrance();
                    }
                    fray_protocol::ftd::Injury::DisadvantageUntilRest => {
                        f.disadvantage_until_rest = true
                    }
                    _ => {}
                }
                f.injuries.push(injury.clone());
            }
        }
        GameEvent::MoraleProposed {
            trigger,
            combatants,
        } => {
            if *trigger == fray_protocol::ftd::MoraleTrigger::FirstKill
                && let Some(f) = &mut state.ftd
            {
                f.kill_proposed = true;
            }
            let side = combatants
                .first()
                .and_then(|c| find(state, c))
                .map(|i| state.combatants[i].side);
            if let Some(side) = side
                && let Some(f) = &mut state.ose
            {
                match trigger {
                    fray_protocol::ftd::MoraleTrigger::FirstKill => f.first_death.push(side),
                    fray_protocol::ftd::MoraleTrigger::HalfIncapacitated => f.half_down.push(side),
                    _ => {}
                }
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::MoraleChecked { .. }) => {}
        GameEvent::LeftBattle { combatant, how } => {
            unlink(state, combatant);
            if let Some(i) = find(state, combatant) {
                let c = &mut state.combatants[i];
                c.actions = ActionsLeft::NONE;
                if let Some(f) = &mut c.ftd {
                    f.departed = Some(*how);
                }
                if let Some(o) = &mut c.ose {
                    o.fled = true;
                }
            }
            if let Some(f) = &mut state.ftd
                && f.retreat.as_ref() == Some(combatant)
            {
                f.retreat = None;
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::RetreatStarted { combatant }) => {
            if let Some(f) = &mut state.ftd {
                f.retreat = Some(combatant.clone());
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::RetreatFailed { .. }) => {
            if let Some(f) = &mut state.ftd {
                f.retreat = None;
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::LightSet { combatant, light }) => {
            match combatant {
                Some(c) => {
                    if let Some(i) = find(state, c)
                        && let Some(f) = &mut state.combatants[i].ftd
                    {
                        f.light = *light;
                    }
                }
                None => {
                    if let (Some(f), Some(l)) = (&mut state.ftd, light) {
                        f.light = *l;
                    }
                }
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::LightCarried {
            combatant,
            source,
            seconds,
        }) => {
            if let Some(i) = find(state, combatant)
                && let Some(f) = &mut state.combatants[i].ftd
            {
                f.carried = source.map(|source| fray_protocol::ftd::CarriedLight {
                    source,
                    seconds_left: *seconds,
                });
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::LightWentOut { combatant, .. }) => {
            if let Some(i) = find(state, combatant)
                && let Some(f) = &mut state.combatants[i].ftd
            {
                f.carried = None;
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::TimePassed { seconds }) => {
            if let Some(f) = &mut state.ftd {
                f.clock = f.clock.saturating_add(*seconds);
                f.time_of_day = f
                    .time_of_day
                    .map(|t| fray_protocol::ftd::later_in_day(t, *seconds));
            }
            for c in &mut state.combatants {
                if let Some(f) = &mut c.ftd {
                    if let Some(l) = &mut f.carried {
                        l.seconds_left = l.seconds_left.saturating_sub(*seconds);
                    }
                    f.adventured = f.adventured.saturating_add(*seconds);
                }
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::TravelTurnRolled { number, .. }) => {
            if let Some(f) = &mut state.ftd {
                f.travel_turns = *number;
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::LoadSet {
            combatant,
            load,
            coins,
        }) => {
            if let Some(i) = find(state, combatant)
                && let Some(f) = &mut state.combatants[i].ftd
            {
                f.load = *load;
                f.coins = *coins;
                f.refresh_encumbrance();
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::TimeDiceRolled {
            purpose: fray_protocol::ftd::TimeDicePurpose::TimeOfDay,
            hours,
            ..
        })
        | GameEvent::FiveTorches(FiveTorchesEvent::TimeSet { hour: hours }) => {
            if let Some(f) = &mut state.ftd {
                f.time_of_day = Some(hours % 24 * 3600);
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::TimeDiceRolled { .. }) => {}
        GameEvent::FiveTorches(FiveTorchesEvent::CorruptionChanged {
            combatant,
            corruption,
        }) => {
            if let Some(i) = find(state, combatant)
                && let Some(f) = &mut state.combatants[i].ftd
            {
                f.corruption = corruption.clone();
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::AbilityDamaged {
            combatant,
            ability,
            score_after,
            ..
        }) => {
            if let Some(i) = find(state, combatant)
                && let Some(f) = &mut state.combatants[i].ftd
            {
                *f.abilities.get_mut(*ability) = (*score_after).max(0);
                f.refresh_encumbrance();
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::ExhaustionChanged {
            combatant,
            exhausted,
        }) => {
            if let Some(i) = find(state, combatant)
                && let Some(f) = &mut state.combatants[i].ftd
            {
                f.exhausted = *exhausted;
                f.refresh_encumbrance();
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::Rested { .. }) => {
            for c in &mut state.combatants {
                if let Some(f) = &mut c.ftd {
                    f.disadvantage_until_rest = false;
                    f.adventured = 0;
                }
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::StealthChanged { combatant, hidden }) => {
            if let Some(i) = find(state, combatant)
                && let Some(f) = &mut state.combatants[i].ftd
            {
                f.hidden = *hidden;
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::Concentrating {
            combatant, effect, ..
        }) => {
            if let Some(i) = find(state, combatant)
                && let Some(f) = &mut state.combatants[i].ftd
            {
                f.concentration = Some(fray_protocol::ftd::Concentration {
                    effect: effect.clone(),
                    maintained: true,
                });
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::ConcentrationEnded { combatant, .. }) => {
            if let Some(i) = find(state, combatant)
                && let Some(f) = &mut state.combatants[i].ftd
            {
                f.concentration = None;
            }
        }
        GameEvent::FiveTorches(FiveTorchesEvent::StealthDcSet { dc }) => {
            if let Some(f) = &mut state.ftd {
                f.stealth_dc = *dc;
            }
        }
        GameEvent::Bx(BxEvent::SurpriseRolled {
            side, surprised, ..
        }) => {
            if let Some(f) = &mut state.ose {
                f.surprise_rolled.push(*side);
                if *side == fray_protocol::Side::Monsters {
                    f.surprise_spoiled = false;
                }
                if *surprised {
                    f.surprised.push(*side);
                }
            }
        }
        GameEvent::Bx(BxEvent::ReactionRolled { reaction, .. }) => {
            if let Some(f) = &mut state.ose {
                f.reaction = Some(*reaction);
            }
        }
        GameEvent::Bx(BxEvent::SideInitiative {
            rolls,
            simultaneous,
            ..
        }) => {
            if let Some(f) = &mut state.ose {
                f.initiative = rolls
                    .iter()
                    .map(|(s, r)| (*s, r.natural().unwrap_or(0)))
                    .collect();
                f.simultaneous = *simultaneous;
            }
        }
        GameEvent::Bx(BxEvent::Declared {
            combatant,
            declaration,
        }) => {
            if let Some(i) = find(state, combatant)
                && let Some(o) = &mut state.combatants[i].ose
            {
                o.next = declaration.clone();
            }
        }
        GameEvent::Bx(BxEvent::SpellDisrupted { combatant }) => {
            if let Some(i) = find(state, combatant)
                && let Some(o) = &mut state.combatants[i].ose
            {
                o.disrupted = true;
            }
        }
        GameEvent::Bx(BxEvent::SpellCast { .. })
        | GameEvent::Bx(BxEvent::EncounterDistanceRolled { .. })
        | GameEvent::Bx(BxEvent::EvasionAttempted { .. })
        | GameEvent::Bx(BxEvent::PursuitStarted { .. })
        | GameEvent::Bx(BxEvent::PursuitRoundPassed { .. })
        | GameEvent::Bx(BxEvent::LureDropped { .. })
        | GameEvent::Bx(BxEvent::PursuitEnded { .. })
        | GameEvent::Bx(BxEvent::GaleDamageRolled { .. })
        | GameEvent::Bx(BxEvent::GaleStruck { .. })
        | GameEvent::Bx(BxEvent::OseWindRolled { .. })
        | GameEvent::Bx(BxEvent::Unharmed { .. }) => {}
        // Old-School Essentials § Subduing: the target's subdual damage in all.
        GameEvent::Bx(BxEvent::Subdued {
            target, subdual, ..
        }) => {
            if let Some(i) = find(state, target)
                && let Some(o) = &mut state.combatants[i].ose
            {
                o.subdual = *subdual;
            }
        }
        // Old-School Essentials § Attacks Per Round: a routine attack made this round.
        GameEvent::Bx(BxEvent::RoutineAttack { combatant, attack }) => {
            if let Some(i) = find(state, combatant)
                && let Some(o) = &mut state.combatants[i].ose
            {
                o.routine_used.push(attack.clone());
            }
        }
        GameEvent::Bx(BxEvent::PhaseReached { combatant, phase }) => {
            if let Some(i) = find(state, combatant)
                && let Some(o) = &mut state.combatants[i].ose
            {
                o.phase = Some(*phase);
            }
        }
        GameEvent::Bx(BxEvent::OseMoved {
            combatant,
            kind,
            total,
            ..
        }) => {
            if let Some(i) = find(state, combatant)
                && let Some(o) = &mut state.combatants[i].ose
            {
                o.moved = *total;
            }
            if *kind != fray_protocol::ose::OseMoveKind::Encounter {
                for c in &mut state.combatants {
                    if let Some(o) = &mut c.ose {
                        if c.id == *combatant {
                            o.engaged.clear();
                        } else {
                            o.engaged.retain(|e| e != combatant);
                        }
                    }
                }
            }
        }
        GameEvent::Bx(BxEvent::MeleeEngaged { attacker, target }) => {
            for (me, foe) in [(attacker, target), (target, attacker)] {
                if let Some(i) = find(state, me)
                    && let Some(o) = &mut state.combatants[i].ose
                    && !o.engaged.contains(foe)
                {
                    o.engaged.push(foe.clone());
                }
            }
        }
        GameEvent::Bx(BxEvent::TurnHeld { combatant, order }) => {
            state.order = order.clone();
            state.turn_index = state.turn_index.and_then(|i| i.checked_sub(1));
            state.current = None;
            if let Some(i) = find(state, combatant)
                && let Some(o) = &mut state.combatants[i].ose
            {
                o.acted = false;
            }
        }
        GameEvent::Bx(BxEvent::OseConditionChanged {
            combatant,
            condition,
            on,
        }) => {
            if let Some(i) = find(state, combatant)
                && let Some(o) = &mut state.combatants[i].ose
            {
                o.conditions.retain(|c| c != condition);
                if *on {
                    o.conditions.push(*condition);
                    o.conditions.sort();
                }
            }
        }
        GameEvent::Bx(BxEvent::DoorForced { check, success, .. }) => {
            if !success
                && *check != fray_protocol::ose::SecretCheck::Bars
                && let Some(b) = &mut state.ose
            {
                b.surprise_spoiled = true;
            }
        }
        GameEvent::SecretRolled {
            check,
            combatant,
            area,
            ..
        } => {
            if let (Some(c), Some(a)) = (combatant, area)
                && let Some(b) = &mut state.ose
            {
                b.exploration.searched.push((*check, c.clone(), a.clone()));
            }
        }
        GameEvent::Bx(BxEvent::ExplorationTurnPassed {
            turn, since_rest, ..
        }) => {
            if let Some(b) = &mut state.ose {
                b.bf.fold(event);
                b.exploration.turn = *turn;
                b.exploration.since_rest = *since_rest;
                for l in &mut b.exploration.lights {
                    l.turns_left = l.turns_left.saturating_sub(1);
                }
            }
        }
        GameEvent::Bx(BxEvent::LightLit {
            carrier,
            source,
            turns,
            ..
        }) => {
            if let Some(b) = &mut state.ose {
                b.exploration.lights.push(fray_protocol::ose::BurningLight {
                    carrier: carrier.clone(),
                    source: *source,
                    turns_left: *turns,
                });
            }
        }
        GameEvent::Bx(BxEvent::LightBurnedOut { carrier, source })
        | GameEvent::Bx(BxEvent::LightDoused { carrier, source }) => {
            if let Some(b) = &mut state.ose {
                b.exploration
                    .lights
                    .retain(|l| !(&l.carrier == carrier && l.source == *source));
            }
        }
        GameEvent::Orcus(OrcusEvent::ClockAdvanced { clock, .. }) => state.clock = *clock,
        GameEvent::Orcus(OrcusEvent::ReloadNeeded { combatant, power }) => {
            if let Some(i) = find(state, combatant)
                && let Some(g) = state.combatants[i].grid.as_mut()
                && !g.unloaded.contains(power)
            {
                g.unloaded.push(power.clone());
            }
        }
        GameEvent::Orcus(OrcusEvent::AlliesChosen { combatant, allies }) => {
            if let Some(i) = find(state, combatant)
                && let Some(g) = state.combatants[i].grid.as_mut()
            {
                g.chosen_allies = Some(allies.clone());
            }
        }
        GameEvent::Orcus(OrcusEvent::AllyDeclined { combatant, user }) => {
            if let Some(i) = find(state, user)
                && let Some(g) = state.combatants[i].grid.as_mut()
                && !g.declined_by.contains(combatant)
            {
                g.declined_by.push(combatant.clone());
            }
        }
        GameEvent::Orcus(OrcusEvent::AlliesReset { combatant }) => {
            if let Some(i) = find(state, combatant)
                && let Some(g) = state.combatants[i].grid.as_mut()
            {
                g.chosen_allies = None;
                g.declined_by.clear();
            }
        }
        GameEvent::Orcus(OrcusEvent::HitChosen {
            combatant,
            attacker,
        }) => {
            if let Some(i) = find(state, attacker)
                && let Some(g) = state.combatants[i].grid.as_mut()
                && !g.hit_chosen_by.contains(combatant)
            {
                g.hit_chosen_by.push(combatant.clone());
            }
        }
        GameEvent::Orcus(OrcusEvent::RiderChoicesMade {
            rider,
            move_mount,
            landing,
        }) => {
            if let Some(i) = find(state, rider)
                && let Some(g) = state.combatants[i].grid.as_mut()
            {
                g.moves_mount = *move_mount;
                g.landing = *landing;
            }
        }
        GameEvent::Orcus(OrcusEvent::HitByChoice {
            attacker, target, ..
        }) => {
            if let Some(i) = find(state, attacker)
                && let Some(g) = state.combatants[i].grid.as_mut()
            {
                g.hit_chosen_by.retain(|c| c != target);
            }
        }
        GameEvent::Orcus(OrcusEvent::Reloaded { combatant, power }) => {
            if let Some(i) = find(state, combatant)
                && let Some(g) = state.combatants[i].grid.as_mut()
            {
                g.unloaded.retain(|p| p != power);
            }
        }
        GameEvent::Orcus(OrcusEvent::ActionPointGained { combatant }) => {
            if let Some(i) = find(state, combatant)
                && let Some(g) = state.combatants[i].grid.as_mut()
            {
                g.action_points += 1;
            }
        }
        GameEvent::Orcus(OrcusEvent::ZoneCreated { zone }) => {
            if let Some(i) = find(state, &zone.source)
                && let Some(g) = state.combatants[i].grid.as_mut()
            {
                g.zones.push(zone.clone());
            }
        }
        GameEvent::Orcus(OrcusEvent::ZoneArmed { source, zone }) => {
            if let Some(i) = find(state, source)
                && let Some(g) = state.combatants[i].grid.as_mut()
            {
                for z in g.zones.iter_mut().filter(|z| z.id == *zone) {
                    z.armed = true;
                }
            }
        }
        GameEvent::Orcus(OrcusEvent::ZoneEnded { source, zone, .. }) => {
            if let Some(i) = find(state, source)
                && let Some(g) = state.combatants[i].grid.as_mut()
            {
                g.zones.retain(|z| z.id != *zone);
                g.maintain_needed.retain(|m| m.effect != *zone);
            }
        }
        GameEvent::Orcus(OrcusEvent::MaintenanceNeeded { combatant, effect }) => {
            if let Some(i) = find(state, combatant)
                && let Some(g) = state.combatants[i].grid.as_mut()
            {
                g.maintain_needed.push(effect.clone());
            }
        }
        GameEvent::Bx(BxEvent::RetainerHireRolled { .. })
        | GameEvent::Bx(BxEvent::LoyaltyChecked { .. })
        | GameEvent::Bx(BxEvent::XpAwarded { .. })
        | GameEvent::Bx(BxEvent::EncumbranceSet { .. })
        | GameEvent::Bx(BxEvent::EffectTimed { .. })
        | GameEvent::Bx(BxEvent::TimedEffectEnded { .. })
        | GameEvent::Bx(BxEvent::DayPassed { .. })
        | GameEvent::Bx(BxEvent::WindRolled { .. }) => {
            if let Some(b) = &mut state.ose {
                b.bf.fold(event);
            }
        }
        GameEvent::Bx(BxEvent::LevelRaised {
            combatant, level, ..
        }) => {
            if let Some(b) = &mut state.ose {
                b.bf.fold(event);
            }
            if let Some(i) = find(state, combatant) {
                state.combatants[i].level = *level;
            }
        }
        GameEvent::Bx(BxEvent::MoraleRolled { results, .. }) => {
            for (c, _, holds) in results {
                if *holds
                    && let Some(i) = find(state, c)
                    && let Some(o) = &mut state.combatants[i].ose
                {
                    o.morale_successes = o.morale_successes.saturating_add(1);
                }
            }
        }
        GameEvent::Slain { combatant } => set_status(state, combatant, LifeStatus::Slain),
        // Out of the fight like a slain monster (engine/apply/vitals.rs::out_of_fight): engagements,
        // opportunities and effects end with it.
        GameEvent::KnockedOut { combatant } => {
            set_status(state, combatant, LifeStatus::KnockedOut);
            unlink(state, combatant);
            state
                .opportunities
                .retain(|(a, t)| a != combatant && t != combatant);
            if let Some(i) = find(state, combatant) {
                state.combatants[i].effects.clear();
            }
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::KnockOutsRuled { allowed }) => {
            state.knock_outs_allowed = *allowed
        }
        GameEvent::DeathSaveFailed {
            combatant,
            failures,
        } => {
            if let Some(i) = find(state, combatant) {
                state.combatants[i].death_save_failures = *failures;
            }
        }
        GameEvent::Rallied { combatant } => {
            if let Some(i) = find(state, combatant) {
                state.combatants[i].rallies += 1;
            }
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::RallyFailed { combatant, round }) => {
            if let Some(i) = find(state, combatant) {
                state.combatants[i].rally_barred_round = Some(*round);
            }
        }
        GameEvent::EffectApplied { effect } => {
            state.next_effect_id = state.next_effect_id.max(effect.id.saturating_add(1));
            if let Some(i) = find(state, &effect.target) {
                let effects = &mut state.combatants[i].effects;
                effects.retain(|e| e.id != effect.id);
                effects.push(effect.clone());
            }
        }
        GameEvent::EffectArmed { target, effect } => {
            if let Some(i) = find(state, target) {
                for e in &mut state.combatants[i].effects {
                    if e.id == *effect {
                        e.armed = true;
                    }
                }
            }
        }
        GameEvent::EffectEnded { target, effect, .. } => {
            if let Some(i) = find(state, target) {
                state.combatants[i].effects.retain(|e| e.id != *effect);
                if let Some(g) = &mut state.combatants[i].grid {
                    g.riders.retain(|r| r.effect != *effect);
                }
            }
            for c in &mut state.combatants {
                if let Some(g) = &mut c.grid {
                    g.maintain_needed.retain(|m| m.effect != *effect);
                }
            }
        }
        GameEvent::Orcus(OrcusEvent::AmmunitionUsed { combatant, count }) => {
            if let Some(i) = find(state, combatant)
                && let Some(g) = &mut state.combatants[i].grid
                && let Some(a) = &mut g.ammunition
            {
                *a -= count;
            }
        }
        GameEvent::Orcus(OrcusEvent::Maintained { combatant, effect }) => {
            if let Some(i) = find(state, combatant)
                && let Some(g) = &mut state.combatants[i].grid
            {
                g.maintained.push(*effect);
            }
        }
        GameEvent::Orcus(OrcusEvent::RiderAttached { target, rider }) => {
            if let Some(i) = find(state, target)
                && let Some(g) = &mut state.combatants[i].grid
            {
                g.riders.push(rider.clone());
            }
        }
        GameEvent::TurnEnded { combatant } => {
            if state.current.as_ref() == Some(combatant) {
                state.current = None;
            }
            if let Some(i) = find(state, combatant)
                && let Some(g) = &mut state.combatants[i].grid
            {
                g.maintained.clear();
            }
            // Orcus § Controlling a mount: what the rider gave up lapses with its turn.
            let mount = find(state, combatant)
                .and_then(|i| state.combatants[i].grid.as_ref())
                .filter(|g| g.controls_mount)
                .and_then(|g| g.mounted_on.clone());
            if let Some(i) = mount.and_then(|m| find(state, &m)) {
                let a = &mut state.combatants[i].actions;
                a.standard = false;
                a.move_action = false;
                a.quick = false;
            }
        }
        GameEvent::BattleEnded { winner } => {
            state.phase = Phase::Ended;
            state.winner = *winner;
            state.current = None;
        }
        GameEvent::SeedRevealed { .. } => state.seed_revealed = true,
        GameEvent::Orcus(OrcusEvent::GridMoved {
            combatant, path, ..
        }) => {
            if let (Some(i), Some(to)) = (find(state, combatant), path.last())
                && let Some(g) = state.combatants[i].grid.as_mut()
            {
                g.square = *to;
            }
            // Orcus § Mounted combat: a rider travels with its mount.
            if let Some(to) = path.last() {
                for c in &mut state.combatants {
                    if let Some(g) = c.grid.as_mut()
                        && g.mounted_on.as_ref() == Some(combatant)
                    {
                        g.square = *to;
                    }
                }
            }
        }
        GameEvent::Orcus(OrcusEvent::Mounted {
            rider,
            mount,
            controlled,
        }) => {
            let at = find(state, mount)
                .and_then(|i| state.combatants[i].grid.as_ref())
                .map(|g| (g.square, g.height));
            if let Some(i) = find(state, rider)
                && let Some(g) = state.combatants[i].grid.as_mut()
            {
                g.mounted_on = Some(mount.clone());
                g.controls_mount = *controlled;
                if let Some((square, height)) = at {
                    g.square = square;
                    g.height = height;
                }
            }
        }
        GameEvent::Orcus(OrcusEvent::Dismounted { rider, square, .. }) => {
            if let Some(i) = find(state, rider)
                && let Some(g) = state.combatants[i].grid.as_mut()
            {
                g.mounted_on = None;
                g.controls_mount = false;
                g.square = *square;
            }
        }
        GameEvent::Orcus(OrcusEvent::MountCommanded { mount, action, .. }) => {
            if let Some(i) = find(state, mount) {
                let a = &mut state.combatants[i].actions;
                match action {
                    ActionKind::Standard => a.standard = true,
                    ActionKind::Move => a.move_action = true,
                    ActionKind::Quick => a.quick = true,
                }
            }
        }
        GameEvent::Orcus(OrcusEvent::MovedAloft { combatant, height }) => {
            for c in &mut state.combatants {
                let mover = &c.id == combatant;
                if let Some(g) = c.grid.as_mut()
                    && (mover || g.mounted_on.as_ref() == Some(combatant))
                {
                    g.height = *height;
                }
            }
        }
        GameEvent::Orcus(OrcusEvent::Fell { combatant, .. }) => {
            for c in &mut state.combatants {
                let mover = &c.id == combatant;
                if let Some(g) = c.grid.as_mut()
                    && (mover || g.mounted_on.as_ref() == Some(combatant))
                {
                    g.height = 0;
                }
            }
        }
        GameEvent::Orcus(OrcusEvent::ActionPointSpent { combatant, action }) => {
            let round = state.round;
            if let Some(i) = find(state, combatant) {
                let c = &mut state.combatants[i];
                if let Some(g) = c.grid.as_mut() {
                    g.action_points -= 1;
                    g.action_point_round = Some(round);
                }
                match action {
                    ActionKind::Standard => c.actions.standard = true,
                    ActionKind::Move => c.actions.move_action = true,
                    ActionKind::Quick => c.actions.quick = true,
                }
            }
        }
        GameEvent::InitiativeReordered { order, turn_index } => {
            state.order = order.clone();
            state.turn_index = *turn_index;
        }
        GameEvent::Moved {
            combatant,
            engaged,
            far_away,
        } => {
            unlink(state, combatant);
            if let Some(i) = find(state, combatant) {
                state.combatants[i].far_away = *far_away;
            }
            if let Some(t) = engaged {
                link(state, combatant, t);
            }
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::Disengaged { combatant }) => {
            unlink(state, combatant)
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::LetGo { grabber, grabbed }) => {
            let pair = (grabber.clone(), grabbed.clone());
            if !state.released.contains(&pair) {
                state.released.push(pair);
            }
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::Teleported {
            combatant,
            engaged,
            far_away,
        }) => {
            unlink(state, combatant);
            if let Some(i) = find(state, combatant) {
                state.combatants[i].far_away = *far_away;
            }
            if let Some(t) = engaged {
                link(state, combatant, t);
            }
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::Engaged { combatant, with }) => {
            link(state, combatant, with)
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::Carried { grabber, grabbed }) => {
            unlink(state, grabbed);
            if let Some(i) = find(state, grabbed) {
                state.combatants[i].far_away = false;
            }
            link(state, grabbed, grabber);
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::Intercepted { interceptor, mover }) => {
            unlink(state, mover);
            link(state, mover, interceptor);
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::OpportunityOpened {
            provoker,
            attackers,
            ..
        }) => {
            for a in attackers {
                let pair = (a.clone(), provoker.clone());
                if !state.opportunities.contains(&pair) {
                    state.opportunities.push(pair);
                }
            }
        }
        GameEvent::OpportunityTaken { attacker, target } => state
            .opportunities
            .retain(|(a, t)| !(a == attacker && t == target)),
        GameEvent::Stabilized { combatant, .. } => {
            if let Some(i) = find(state, combatant) {
                state.combatants[i].stabilized = true;
            }
        }
        GameEvent::Orcus(OrcusEvent::StabilizationEnded { combatant }) => {
            if let Some(i) = find(state, combatant) {
                state.combatants[i].stabilized = false;
            }
        }
        GameEvent::PowerExpended { combatant, power } => {
            if let Some(i) = find(state, combatant) {
                state.combatants[i].expended.push(power.clone());
            }
        }
        GameEvent::PowerRegained {
            combatant, power, ..
        } => {
            if let Some(i) = find(state, combatant) {
                state.combatants[i].expended.retain(|p| p != power);
            }
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::ConfusedAttack { .. })
        | GameEvent::ThirteenthAge(ThirteenthAgeEvent::MissChance { .. })
        | GameEvent::ThirteenthAge(ThirteenthAgeEvent::ShotIntoMelee { .. })
        | GameEvent::ThirteenthAge(ThirteenthAgeEvent::TargetsRolled { .. }) => {}
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::EscalationHeld { held }) => {
            state.escalation_held = *held
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::PartyFled) => state.fled = true,
        GameEvent::QuickRested { combatant } => {
            if let Some(i) = find(state, combatant) {
                state.combatants[i].rested = true;
            }
        }
        GameEvent::SessionEnded => state.session_over = true,
        GameEvent::NewBattle { battle, .. } => {
            // The new monsters arrive with the next snapshot (clients ask for one).
            state
                .combatants
                .retain(|c| c.side != fray_protocol::Side::Monsters);
            state.battle = *battle;
            state.phase = Phase::Setup;
            state.round = 0;
            state.escalation = 0;
            state.order.clear();
            state.current = None;
            state.turn_index = None;
            state.winner = None;
            state.opportunities.clear();
            for c in &mut state.combatants {
                c.initiative = None;
                c.death_save_failures = 0;
                c.rallies = 0;
                c.rested = false;
                c.dropped = false;
                c.engaged_with.clear();
                c.far_away = false;
            }
        }
        // A full heal-up changes much; the next snapshot brings it.
        GameEvent::FullHealUp => {}
        GameEvent::InterruptUsed { combatant } => {
            if let Some(i) = find(state, combatant) {
                state.combatants[i].interrupt_used = true;
                if let Some(g) = &mut state.combatants[i].grid {
                    g.immediate_used = true;
                    g.readied_counter = None;
                }
            }
        }
        // Orcus § Stealth.
        GameEvent::Orcus(OrcusEvent::HideChecked {
            combatant,
            total,
            hidden_from,
            ..
        }) => {
            if let Some(i) = find(state, combatant)
                && let Some(g) = state.combatants[i].grid.as_mut()
            {
                g.hidden_from.clone_from(hidden_from);
                g.stealth = (!hidden_from.is_empty()).then_some(*total);
            }
        }
        GameEvent::Orcus(OrcusEvent::Discovered { combatant, by, .. }) => {
            if let Some(i) = find(state, combatant)
                && let Some(g) = state.combatants[i].grid.as_mut()
            {
                g.hidden_from.retain(|e| !by.contains(e));
                if g.hidden_from.is_empty() {
                    g.stealth = None;
                }
            }
        }
        GameEvent::Orcus(OrcusEvent::Searched { combatant, .. }) => {
            if let Some(i) = find(state, combatant)
                && let Some(g) = state.combatants[i].grid.as_mut()
            {
                g.searched = true;
            }
        }
        GameEvent::Orcus(OrcusEvent::CounterReadied { combatant, power }) => {
            if let Some(i) = find(state, combatant)
                && let Some(g) = state.combatants[i].grid.as_mut()
            {
                g.readied_counter = Some(power.clone());
            }
        }
        GameEvent::FellIntoComa { combatant } => {
            if let Some(i) = find(state, combatant) {
                state.combatants[i].coma = true;
            }
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::LastingWound {
            combatant,
            max_hp_after,
        }) => {
            if let Some(i) = find(state, combatant) {
                let c = &mut state.combatants[i];
                c.lasting_wounds += 1;
                c.max_hp = Some(*max_hp_after);
                if let Some(hp) = c.hp {
                    c.hp = Some(hp.min(*max_hp_after));
                }
            }
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::PotionUsed { by, .. }) => {
            if let Some(i) = find(state, by) {
                state.combatants[i].potions = state.combatants[i].potions.saturating_sub(1);
            }
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::FoughtInSpirit { combatant, .. }) => {
            state.spirit_used = true;
            state.spirit_rounds.push((combatant.clone(), state.round));
        }
        GameEvent::SurpriseRound {
            acting,
            advance_escalation,
        } => {
            state.phase = Phase::Running;
            state.order = acting.clone();
            state.surprise = Some(*advance_escalation);
        }
        GameEvent::Delayed { combatant } => {
            state.delayed.push(combatant.clone());
            if state.current.as_ref() == Some(combatant) {
                state.current = None;
            }
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::Readied { combatant, action })
        | GameEvent::FiveTorches(FiveTorchesEvent::ReadyDeclared {
            combatant, action, ..
        }) => state.readied.push((combatant.clone(), *action)),
        GameEvent::ReadiedActionTaken { combatant } => {
            state.readied.retain(|(c, _)| c != combatant)
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::DelayEnding { combatant }) => {
            state.undelay = Some(combatant.clone())
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::OrderChanged { order, turn_index }) => {
            state.order = order.clone();
            state.turn_index = Some(*turn_index);
        }
        GameEvent::TempHpGained {
            target, temp_after, ..
        } => {
            if let Some(i) = find(state, target) {
                state.combatants[i].temp_hp = *temp_after;
            }
        }
        GameEvent::ThirteenthAge(ThirteenthAgeEvent::Resisted { .. })
        | GameEvent::CoupDeGrace { .. }
        | GameEvent::ThirteenthAge(ThirteenthAgeEvent::ManeuverTriggered { .. })
        | GameEvent::CheckRolled { .. } => {}
        GameEvent::AttackRolled { .. }
        | GameEvent::ThirteenthAge(ThirteenthAgeEvent::AlliesCounted { .. })
        | GameEvent::DamageRolled { .. }
        | GameEvent::SaveRolled { .. } => {}
    }
}

fn set_status(state: &mut SessionState, id: &fray_protocol::CombatantId, status: LifeStatus) {
    if let Some(c) = state.combatants.iter_mut().find(|c| &c.id == id) {
        c.status = status;
        if status != LifeStatus::Conscious {
            c.actions = ActionsLeft::NONE;
        }
    }
}

/// Ends every engagement of `id` (both sides).
fn unlink(state: &mut SessionState, id: &CombatantId) {
    for c in &mut state.combatants {
        if &c.id == id {
            c.engaged_with.clear();
        } else {
            c.engaged_with.retain(|e| e != id);
        }
    }
}

/// Engages two combatants.
fn link(state: &mut SessionState, a: &CombatantId, b: &CombatantId) {
    for (x, y) in [(a, b), (b, a)] {
        if let Some(i) = state.combatants.iter().position(|c| &c.id == x)
            && !state.combatants[i].engaged_with.contains(y)
        {
            state.combatants[i].engaged_with.push(y.clone());
            state.combatants[i].engaged_with.sort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fray_protocol::CombatantId;
    use fray_protocol::Side;
    use fray_protocol::event::ActionKind;
    use fray_protocol::state::{CombatantState, Defenses};

    fn state() -> SessionState {
        SessionState {
            phase: Phase::Running,
            round: 1,
            ..SessionState::new(
                "13th-age",
                vec![CombatantState {
                    size: fray_protocol::grid::Size::Medium,
                    engaged_with: Vec::new(),
                    far_away: false,
                    stabilized: false,
                    expended: Vec::new(),
                    interrupt_used: false,
                    potions: 0,
                    dropped: false,
                    lasting_wounds: 0,
                    coma: false,
                    rested: false,
                    grid: None,
                    ftd: None,
                    ose: None,
                    id: CombatantId::new("brakka"),
                    name: "Brakka".into(),
                    side: Side::Heroes,
                    template: "fighter".into(),
                    level: 1,
                    hp: Some(30),
                    max_hp: Some(30),
                    temp_hp: 0,
                    staggered: false,
                    status: LifeStatus::Conscious,
                    defenses: Defenses {
                        ac: 17,
                        pd: 13,
                        md: 11,
                    },
                    initiative: None,
                    actions: ActionsLeft::NONE,
                    effects: vec![],
                    recoveries: 8,
                    recovery_penalty: 0,
                    death_save_failures: 0,
                    rallies: 0,
                    rally_barred_round: None,
                    attacks: vec![],
                }],
            )
        }
    }

    fn turn(round: u32) -> GameEvent {
        GameEvent::TurnStarted {
            combatant: CombatantId::new("brakka"),
            round,
        }
    }

    fn lines(out: &[Output]) -> Vec<&str> {
        out.iter()
            .map(|o| match o {
                Output::Line { text, .. } => text.as_str(),
                Output::Warning(w) => w.as_str(),
            })
            .collect()
    }

    /// 13th Age § Grabbed: a carried creature ends up engaged with its grabber only.
    #[test]
    fn a_carried_creature_is_engaged_with_its_grabber_only() {
        let mut s = state();
        let hero = s.combatants[0].clone();
        let id = CombatantId::new;
        for (name, side) in [("goblin", Side::Monsters), ("ogre", Side::Monsters)] {
            s.combatants.push(CombatantState {
                id: id(name),
                side,
                ..hero.clone()
            });
        }
        s.combatants[0].engaged_with = vec![id("goblin"), id("ogre")];
        s.combatants[1].engaged_with = vec![id("brakka")];
        s.combatants[2].engaged_with = vec![id("brakka")];
        apply(
            &mut s,
            &GameEvent::Moved {
                combatant: id("ogre"),
                engaged: None,
                far_away: false,
            },
        );
        apply(
            &mut s,
            &GameEvent::ThirteenthAge(ThirteenthAgeEvent::Carried {
                grabber: id("ogre"),
                grabbed: id("brakka"),
            }),
        );
        let engaged: Vec<Vec<CombatantId>> = s
            .combatants
            .iter()
            .map(|c| c.engaged_with.clone())
            .collect();
        assert_eq!(
            engaged,
            [vec![id("ogre")], vec![], vec![id("brakka")]],
            "brakka, goblin, ogre"
        );
    }

    #[test]
    fn gaps_and_duplicates_are_reported() {
        let mut t = Tracker::new();
        t.on_snapshot(5, state());
        assert_eq!(t.on_event(6, turn(1)).len(), 1);
        let dup = t.on_event(6, turn(1));
        assert!(matches!(&dup[..], [Output::Warning(w)] if w.contains("duplicate")));
        let gap = t.on_event(9, turn(2));
        assert!(matches!(&gap[0], Output::Warning(w) if w.contains("expected event #7")));
        assert!(matches!(&gap[1], Output::Line { seq: 9, .. }));
        assert_eq!(t.last_seq(), Some(9));
    }

    #[test]
    fn events_wait_for_names() {
        let mut t = Tracker::new();
        t.set_last_seq(3);
        assert!(t.on_event(4, turn(1)).is_empty());
        // A snapshot newer than the held event: it is narrated but not applied again.
        let mut s = state();
        s.round = 7;
        let out = t.on_snapshot(10, s);
        assert_eq!(lines(&out), vec!["--- Brakka's turn (round 1) ---"]);
        assert_eq!(t.state().map(|s| s.round), Some(7));
        assert_eq!(t.last_seq(), Some(4));
    }

    #[test]
    fn older_snapshots_get_newer_events_reapplied() {
        let mut t = Tracker::new();
        t.on_snapshot(1, state());
        t.on_event(2, turn(1));
        t.on_event(
            3,
            GameEvent::ActionUsed {
                combatant: CombatantId::new("brakka"),
                action: ActionKind::Standard,
                spent: ActionKind::Standard,
            },
        );
        // A snapshot taken at seq 2 arrives late; the action spent at seq 3 must survive.
        let mut at2 = state();
        at2.current = Some(CombatantId::new("brakka"));
        at2.combatants[0].actions = ActionsLeft::FULL;
        t.on_snapshot(2, at2);
        let c = &t.state().expect("state").combatants[0];
        assert!(!c.actions.standard);
        assert!(c.actions.move_action);
    }

    #[test]
    fn apply_tracks_hp_and_status() {
        let mut s = state();
        apply(
            &mut s,
            &GameEvent::Damaged {
                target: CombatantId::new("brakka"),
                cause: fray_protocol::event::DamageCause::Ongoing { effect: 1 },
                amount: 40,
                damage_type: None,
                temp_absorbed: 0,
                hp_after: Some(-10),
            },
        );
        apply(
            &mut s,
            &GameEvent::FellUnconscious {
                combatant: CombatantId::new("brakka"),
            },
        );
        assert_eq!(s.combatants[0].hp, Some(-10));
        assert_eq!(s.combatants[0].status, LifeStatus::Unconscious);
    }

    /// 13th Age § Unconscious (`13th-age-combat.txt`): a knocked-out monster leaves the fight —
    /// the tracker folds `knocked_out` as the engine does (status, engagements, effects), and
    /// `knock_outs_ruled` into the state.
    #[test]
    fn a_knocked_out_monster_leaves_the_fight() {
        let mut s = state();
        let brakka = s.combatants[0].id.clone();
        let goblin = CombatantId::new("goblin");
        let hero = s.combatants[0].clone();
        s.combatants.push(CombatantState {
            id: goblin.clone(),
            side: Side::Monsters,
            ..hero
        });
        apply(
            &mut s,
            &GameEvent::ThirteenthAge(ThirteenthAgeEvent::Engaged {
                combatant: brakka.clone(),
                with: goblin.clone(),
            }),
        );
        assert_eq!(s.combatants[0].engaged_with, vec![goblin.clone()]);
        apply(
            &mut s,
            &GameEvent::KnockedOut {
                combatant: goblin.clone(),
            },
        );
        assert_eq!(s.combatants[1].status, LifeStatus::KnockedOut);
        assert!(s.combatants[0].engaged_with.is_empty());
        assert!(s.combatants[1].engaged_with.is_empty());
        assert!(s.knock_outs_allowed);
        apply(
            &mut s,
            &GameEvent::ThirteenthAge(ThirteenthAgeEvent::KnockOutsRuled { allowed: false }),
        );
        assert!(!s.knock_outs_allowed);
    }

    /// ose-adventuring.txt § Attacks Per Round (a monster's routine attacks, once each per
    /// round) and § Subduing (Optional Rule) (subdual damage noted apart): the tracker folds
    /// `routine_attack` and `subdued` into the combatant's `ose` state as the engine does, and a
    /// new round clears the routine.
    #[test]
    fn routine_attacks_and_subdual_are_tracked_attacks_per_round_subduing() {
        let mut s = state();
        let ose: fray_protocol::ose::OseCombatant = serde_json::from_value(serde_json::json!({
            "class": null, "hd": "2", "thac0": 18, "ac": 7, "shield": 0,
            "saves": [12, 13, 14, 15, 16], "morale": 8, "morale_successes": 0, "fled": false,
            "declared": null, "next": null, "acted": false, "disrupted": false
        }))
        .expect("an OSE combatant");
        s.combatants[0].ose = Some(ose);
        let brakka = CombatantId::new("brakka");
        for attack in ["claw-1", "claw-2"] {
            apply(
                &mut s,
                &GameEvent::Bx(BxEvent::RoutineAttack {
                    combatant: brakka.clone(),
                    attack: attack.into(),
                }),
            );
        }
        apply(
            &mut s,
            &GameEvent::Bx(BxEvent::Subdued {
                attacker: CombatantId::new("odo"),
                target: brakka.clone(),
                attack: "club".into(),
                amount: 3,
                subdual: 5,
            }),
        );
        let o = s.combatants[0].ose.clone().expect("ose");
        assert_eq!(o.routine_used, ["claw-1", "claw-2"]);
        assert_eq!(o.subdual, 5);
        apply(&mut s, &GameEvent::RoundStarted { round: 2 });
        let o = s.combatants[0].ose.clone().expect("ose");
        assert!(o.routine_used.is_empty());
        assert_eq!(o.subdual, 5, "subdual damage outlasts the round");
    }
}

/// Orcus § Action descriptions (zones) and § Maintain: the tracker folds a power's zones and
/// maintained effects as the server does.
#[cfg(test)]
mod orcus_effects_fold {
    use super::apply;
    use fray_protocol::{CombatantId, Command, OrcusCommand};
    use fray_server::engine::Engine;
    use fray_server::engine::components::SeedSecret;

    const ENCOUNTER: &str = r#"
ruleset = "orcus"
heroes = ["kael"]
[[monsters]]
template = "brute"
count = 1
[map]
rows = ["........", "........", "........", "........"]
[positions]
kael = [0, 0]
brute-1 = [7, 3]
[[hero]]
id = "kael"
name = "Kael"
level = 1
hp = 30
ac = 16
fortitude = 14
reflex = 13
will = 12
initiative = 30
speed = 5
recoveries = 2
[[hero.powers]]
id = "tentacles"
name = "Black Tentacles"
origin = "far burst"
area = 1
range = [10]
maintain = "swift"
effect = [{ zone = "difficult terrain", duration = "maintain" }]
[[hero.powers]]
id = "hold"
name = "Hold"
action = "free"
origin = "ranged"
range = [10]
targets = "one creature"
maintain = "move"
effect = [{ condition = "slowed", duration = "maintain" }]
[[monster]]
template = "brute"
name = "Brute"
level = 1
role = "wrecker"
rank = "standard"
[[monster.powers]]
id = "club"
name = "Club"
origin = "melee"
vs = "ac"
hit = "1d10+3"
basic = true
"#;

    #[test]
    fn zones_and_maintained_effects_fold_like_the_server() {
        let enc = fray_server::rules::load_encounter("fold.toml", ENCOUNTER).unwrap();
        let secret = SeedSecret {
            seed: 3,
            salt: "salt".into(),
        };
        let mut e = Engine::new(&enc, fray_server::dice::SessionRng::from_seed(3), secret).unwrap();
        let mut tracked = e.state();
        let kael = CombatantId::new("kael");
        let mut cmds = vec![
            Command::StartBattle,
            Command::Orcus(OrcusCommand::AreaAttack {
                actor: kael.clone(),
                attack: "tentacles".into(),
                origin: Some(fray_protocol::grid::Square::new(3, 1)),
                targets: Vec::new(),
                forced: Vec::new(),
                origin_height: None,
                weapon: None,
                secondary_target: None,
            }),
            Command::Attack {
                actor: kael.clone(),
                attack: "hold".into(),
                targets: vec![CombatantId::new("brute-1")],
                mode: fray_protocol::command::AttackMode::Standard,
                knock_out: false,
                forced: Vec::new(),
                weapon: None,
                secondary_target: None,
            },
        ];
        let mut checks = 0;
        while let Some(cmd) = cmds.first().cloned() {
            cmds.remove(0);
            for ev in e.execute(&cmd).unwrap() {
                apply(&mut tracked, &ev);
            }
            let grid = |s: &fray_protocol::state::SessionState| {
                s.combatant(&kael).and_then(|c| c.grid.clone()).unwrap()
            };
            let (mine, theirs) = (grid(&tracked), grid(&e.state()));
            assert_eq!(mine.zones, theirs.zones, "after {cmd:?}");
            assert_eq!(
                mine.maintain_needed, theirs.maintain_needed,
                "after {cmd:?}"
            );
            assert_eq!(mine.maintained, theirs.maintained, "after {cmd:?}");
            checks += usize::from(!theirs.maintain_needed.is_empty());
            // After the two powers: Kael maintains the zone only, then ends his turn (the hold
            // lapses), and ends the zone early on his next one.
            if cmds.is_empty() && checks == 2 {
                let zone = theirs.zones[0].id;
                cmds.push(Command::EndTurn {
                    actor: kael.clone(),
                });
                cmds.push(Command::EndTurn {
                    actor: CombatantId::new("brute-1"),
                });
                cmds.push(Command::Orcus(OrcusCommand::Maintain {
                    actor: kael.clone(),
                    effect: zone,
                }));
                cmds.push(Command::EndTurn {
                    actor: kael.clone(),
                });
                cmds.push(Command::EndTurn {
                    actor: CombatantId::new("brute-1"),
                });
                cmds.push(Command::Orcus(OrcusCommand::EndEffect {
                    actor: kael.clone(),
                    effect: zone,
                }));
            }
        }
        let end = e.state();
        let g = end.combatant(&kael).and_then(|c| c.grid.clone()).unwrap();
        assert!(g.zones.is_empty() && g.maintain_needed.is_empty());
        assert_eq!(
            tracked
                .combatant(&CombatantId::new("brute-1"))
                .unwrap()
                .effects,
            end.combatant(&CombatantId::new("brute-1")).unwrap().effects
        );
    }

    /// Orcus § Stealth and the per-turn resets: after every command the tracker's grid state of
    /// each combatant equals the server's (hiding, a search, an exposure, immediate and
    /// opportunity use at `turn_started`).
    #[test]
    fn hiding_and_turn_resets_fold_like_the_server() {
        let src = ENCOUNTER
            .replace(
                r#"rows = ["........", "........", "........", "........"]"#,
                r#"rows = [".......", ".......", "..#....", ".......", "......."]"#,
            )
            .replace(
                "kael = [0, 0]\nbrute-1 = [7, 3]",
                "kael = [6, 1]\nbrute-1 = [0, 3]",
            )
            .replace(
                "recoveries = 2",
                "recoveries = 2\nskills = { stealth = 40 }",
            );
        let enc = fray_server::rules::load_encounter("hide.toml", &src).unwrap();
        let secret = SeedSecret {
            seed: 5,
            salt: "salt".into(),
        };
        let mut e = Engine::new(&enc, fray_server::dice::SessionRng::from_seed(5), secret).unwrap();
        let mut tracked = e.state();
        let (kael, brute) = (CombatantId::new("kael"), CombatantId::new("brute-1"));
        let sq = fray_protocol::grid::Square::new;
        let cmds = [
            Command::StartBattle,
            Command::Orcus(OrcusCommand::MoveTo {
                actor: kael.clone(),
                path: vec![sq(5, 1), sq(4, 1)],
                mode: fray_protocol::grid::MoveMode::Walk,
                hide: true,
            }),
            Command::EndTurn {
                actor: kael.clone(),
            },
            Command::Orcus(OrcusCommand::Search {
                actor: brute.clone(),
            }),
            Command::Orcus(OrcusCommand::MoveTo {
                actor: brute.clone(),
                path: vec![sq(0, 2), sq(0, 1)],
                mode: fray_protocol::grid::MoveMode::Walk,
                hide: false,
            }),
            Command::EndTurn {
                actor: brute.clone(),
            },
        ];
        let mut hidden_seen = false;
        for cmd in &cmds {
            for ev in e.execute(cmd).unwrap() {
                apply(&mut tracked, &ev);
            }
            let server = e.state();
            for id in [&kael, &brute] {
                assert_eq!(
                    grid_of(&tracked, id),
                    grid_of(&server, id),
                    "{id} after {cmd:?}"
                );
            }
            hidden_seen |= !grid_of(&server, &kael).hidden_from.is_empty();
        }
        assert!(hidden_seen, "Kael hid at some point");
        assert!(grid_of(&e.state(), &kael).hidden_from.is_empty());
    }

    fn grid_of(
        s: &fray_protocol::state::SessionState,
        id: &CombatantId,
    ) -> fray_protocol::grid::GridState {
        s.combatant(id).and_then(|c| c.grid.clone()).unwrap()
    }
}
