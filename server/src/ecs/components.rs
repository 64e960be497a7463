//! Components and resources of a session world. Combatants are entities; the battle's shared
//! state lives in resources. Nothing here is persisted as-is: the state view
//! ([`fray_protocol::SessionState`]) is the canonical, id-sorted form.

use crate::content::model::{AttackSpec, HeroSpec};
use crate::dice::SessionRng;
use bevy_ecs::prelude::*;
use fray_protocol::event::{Effect, GameEvent};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::state::{
    ActionsLeft, AttackSummary, Defenses as DefenseValues, LifeStatus, Phase,
};
use fray_protocol::{Command, Rejection};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Who a combatant is: fixed for the whole session.
#[derive(Component, Debug, Clone)]
pub struct Combatant {
    /// A named villain (meaningful-death rule).
    pub villain: bool,
    /// Stable id.
    pub id: CombatantId,
    /// Display name.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Content template.
    pub template: String,
    /// Level.
    pub level: i32,
    /// Size (13th Age § Grabbed: a larger grabber carries the creature it grabs along).
    pub size: fray_protocol::grid::Size,
}

/// Hit points, with temporary hit points tracked separately (13th Age § Temporary Hit Points).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HitPoints {
    /// Current (PCs may go negative).
    pub current: i32,
    /// Maximum.
    pub max: i32,
    /// Temporary hit points.
    pub temp: i32,
}

impl HitPoints {
    /// At half hit points or fewer (13th Age § Staggered).
    pub fn staggered(&self) -> bool {
        self.current * 2 <= self.max
    }
}

/// Base defenses.
#[derive(Component, Debug, Clone, Copy)]
pub struct Defenses(pub DefenseValues);

/// Initiative bonus and, once rolled, the result.
#[derive(Component, Debug, Clone, Copy)]
pub struct Initiative {
    /// Bonus added to the d20.
    pub bonus: i32,
    /// Result once rolled.
    pub result: Option<i32>,
}

/// Actions left this turn.
#[derive(Component, Debug, Clone, Copy)]
pub struct ActionBudget(pub ActionsLeft);

/// In the fight or not.
#[derive(Component, Debug, Clone, Copy)]
pub struct Vitality(pub LifeStatus);

/// Effects (conditions, ongoing damage) on the combatant, in id order.
#[derive(Component, Debug, Clone, Default)]
pub struct Effects(pub Vec<Effect>);

/// A player character's recoveries and dying state.
#[derive(Component, Debug, Clone)]
pub struct Hero {
    /// The PC's fixed numbers.
    pub spec: HeroSpec,
    /// Recoveries left.
    pub recoveries: i32,
    /// Stacking −1 penalty from recoveries used without having one.
    pub recovery_penalty: i32,
    /// Failed death saves this battle.
    pub death_save_failures: u8,
    /// Rallies this battle.
    pub rallies: u32,
    /// Round in which a failed rally save bars rallying.
    pub rally_barred_round: Option<u32>,
    /// Stabilized while unconscious (failed death saves are ignored).
    pub stabilized: bool,
    /// Healing potions left.
    pub potions: u32,
    /// Dropped to 0 hp or below during this battle.
    pub dropped: bool,
    /// Lasting wounds taken.
    pub lasting_wounds: u32,
    /// In a coma (optional meaningful-death rule): out of the fight, no death saves.
    pub coma: bool,
    /// Took its quick rest after the battle.
    pub rested: bool,
    /// Maximum hit points without lasting wounds (from the stat block).
    pub base_max_hp: i32,
}

/// The session's optional rules.
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct Options(pub crate::content::model::SessionOptions);

/// Where a combatant is (13th Age § Position): the enemies it is engaged with (symmetric) and
/// whether it is far away.
#[derive(Component, Debug, Clone, Default)]
pub struct Position {
    /// Enemies engaged with it.
    pub engaged: std::collections::BTreeSet<CombatantId>,
    /// Far away from the fight.
    pub far_away: bool,
}

/// Resistances and damage-type vulnerabilities (13th Age § Resistance, § Other Damage Types).
#[derive(Component, Debug, Clone, Default)]
pub struct Resistances {
    /// Damage type and the natural roll needed for full damage.
    pub resist: Vec<(fray_protocol::event::DamageType, u32)>,
    /// Damage types whose attacks crit 2 lower.
    pub vulnerable: Vec<fray_protocol::event::DamageType>,
}

/// Limited powers used and not regained, by id.
#[derive(Component, Debug, Clone, Default)]
pub struct Expended(pub std::collections::BTreeSet<String>);

/// An interrupt action was used and none may be used until the end of the user's next turn.
#[derive(Component, Debug, Clone, Copy, Default)]
pub struct InterruptUsed(pub bool);

/// The attacks a combatant can make.
#[derive(Component, Debug, Clone)]
pub struct Arsenal(pub Vec<AttackSpec>);

/// A combatant's attacks as its state shows them, summarized by its ruleset (`Parts::attacks`)
/// once, when it is spawned: they never change, and the state is read after every tick for
/// every audience's view and for every state hash.
#[derive(Component, Debug, Clone)]
pub struct AttackList(pub Arc<[AttackSummary]>);

/// Stage of the turn machinery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Before the battle.
    Setup,
    /// A combatant's turn is under way, waiting for its commands.
    Acting,
    /// Between turns: the next turn must be started.
    BetweenTurns,
    /// The battle is over.
    Ended,
}

/// The battle's shared state.
#[derive(Resource, Debug, Clone)]
pub struct Battle {
    /// Ruleset id.
    pub ruleset: String,
    /// Phase.
    pub phase: Phase,
    /// Which battle of the session, from 1.
    pub battle: u32,
    /// Turn machinery stage.
    pub stage: Stage,
    /// Round (0 before round 1).
    pub round: u32,
    /// Escalation die.
    pub escalation: u8,
    /// Held by the GM.
    pub escalation_held: bool,
    /// 13th Age § Unconscious: the GM lets heroes' blows knock monsters out (session-wide).
    pub knock_outs_allowed: bool,
    /// The party fled.
    pub fled: bool,
    /// During an ambush round: whether the escalation die advances after it.
    pub surprise: Option<bool>,
    /// Someone has fought in spirit this battle.
    pub spirit_used: bool,
    /// (who, round) of each fight in spirit.
    pub spirit_rounds: Vec<(CombatantId, u32)>,
    /// The GM ended the session (rests are over; the seed is revealed).
    pub session_over: bool,
    /// Readied actions held until each one's next turn.
    pub readied: Vec<(CombatantId, fray_protocol::event::ActionKind)>,
    /// Delaying combatants.
    pub delayed: Vec<CombatantId>,
    /// Acts right after the current turn.
    pub undelay: Option<CombatantId>,
    /// Order of battle.
    pub order: Vec<CombatantId>,
    /// Index in `order` of the current (or last) turn.
    pub turn_index: Option<usize>,
    /// Next effect id.
    pub next_effect_id: u32,
    /// Winner.
    pub winner: Option<Side>,
    /// Seed revealed.
    pub seed_revealed: bool,
    /// Open opportunity attacks (attacker, provoker) until the end of the provoker's turn.
    pub opportunities: Vec<(CombatantId, CombatantId)>,
    /// Who moved this turn (may be intercepted).
    pub last_mover: Option<CombatantId>,
    /// Enemies the current combatant hit this turn.
    pub hit_this_turn: Vec<CombatantId>,
    /// Disengaged this turn: its next move is free.
    pub popped_free: Option<CombatantId>,
    /// Grabs let go this turn (grabber, grabbed).
    pub released: Vec<(CombatantId, CombatantId)>,
    /// Orcus § Resting: the session clock, in minutes.
    pub clock: u32,
    /// Orcus § Resting: the clock when the last long rest ended.
    pub last_long_rest: Option<u32>,
    /// Orcus § Action points: battles ended since the last long rest.
    pub encounters_since_long_rest: u32,
}

impl Battle {
    /// Whose turn it is (while acting).
    pub fn current(&self) -> Option<&CombatantId> {
        match self.stage {
            Stage::Acting => self.turn_index.and_then(|i| self.order.get(i)),
            _ => None,
        }
    }

    /// The order of the round without `who`, to put it back elsewhere (a readied action taken,
    /// an OSE member holding its turn).
    pub fn order_without(&self, who: &CombatantId) -> Vec<CombatantId> {
        self.order.iter().filter(|c| *c != who).cloned().collect()
    }
}

/// The session's later battles (from its encounter), in order.
#[derive(Resource, Debug, Clone, Default)]
pub struct LaterBattles(pub Vec<crate::content::model::BattleSpec>);

/// The stat blocks of the session's encounter (every battle's combatants), from which the GM's
/// reinforcements (`combatant_added`) are copied by template. Built from the genesis encounter,
/// so every fold, restore and verify finds the same blocks; not part of the state.
#[derive(Resource, Debug, Clone, Default)]
pub struct Bestiary(pub Vec<crate::content::model::CombatantSpec>);

impl Bestiary {
    /// The session's stat blocks: the first battle's combatants, then the later battles', then
    /// the reserves (built-in blocks no battle fields).
    pub fn of(encounter: &crate::content::model::Encounter) -> Bestiary {
        let later = encounter.battles.iter().flat_map(|b| b.monsters.iter());
        let all = encounter.combatants.iter().chain(later);
        Bestiary(all.chain(encounter.reserves.iter()).cloned().collect())
    }

    /// The first stat block of a template.
    pub fn block(&self, template: &str) -> Option<&crate::content::model::CombatantSpec> {
        self.0.iter().find(|s| s.template == template)
    }
}

/// Every id a GM's reinforcement (`combatant_added`) has had in this session's log, kept when
/// it is removed and across a rewind, so that a later reinforcement never takes an id the log
/// already gave another (clients and narrations key combatants by id). Not part of the state:
/// the fold adds each id, a rewind keeps the set (`Engine::restore_state`), and a session
/// restored from a snapshot scans its log's records for them (`Session::open`).
#[derive(Resource, Debug, Clone, Default)]
pub struct AddedIds(pub std::collections::BTreeSet<CombatantId>);

/// Stable id → entity, sorted by id.
#[derive(Resource, Debug, Clone, Default)]
pub struct Roster(pub RosterMap);

/// The roster's map: iterated in id order (a `BTreeMap`), looked up through a hashed index.
/// A fold looks a combatant up by id several times per event; the ordered map's search costs a
/// string comparison per key it passes (an eighth of fold time), the index one hash and one
/// comparison.
#[derive(Debug, Clone, Default)]
pub struct RosterMap {
    sorted: BTreeMap<CombatantId, Entity>,
    index: rustc_hash::FxHashMap<CombatantId, Entity>,
}

impl RosterMap {
    /// The entity of a combatant.
    pub fn get(&self, id: &CombatantId) -> Option<&Entity> {
        self.index.get(id)
    }
    /// Adds (or replaces) a combatant's entity.
    pub fn insert(&mut self, id: CombatantId, entity: Entity) -> Option<Entity> {
        self.index.insert(id.clone(), entity);
        self.sorted.insert(id, entity)
    }
    /// Removes a combatant.
    pub fn remove(&mut self, id: &CombatantId) -> Option<Entity> {
        self.index.remove(id);
        self.sorted.remove(id)
    }
    /// Whether a combatant is in the roster.
    pub fn contains_key(&self, id: &CombatantId) -> bool {
        self.index.contains_key(id)
    }
    /// How many combatants.
    pub fn len(&self) -> usize {
        self.sorted.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }
    /// The entities, in id order.
    pub fn values(&self) -> impl Iterator<Item = &Entity> {
        self.sorted.values()
    }
    /// The ids, in order.
    pub fn keys(&self) -> impl Iterator<Item = &CombatantId> {
        self.sorted.keys()
    }
    /// (id, entity), in id order.
    pub fn iter(&self) -> impl Iterator<Item = (&CombatantId, &Entity)> {
        self.sorted.iter()
    }
}

/// Set while `Engine::check` asks whether a command would be accepted (the legal actions): a
/// ruleset may leave out what follows a decided command without deciding its acceptance (its
/// sweeps). Absent or `false` when a command is executed.
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct CheckOnly(pub bool);

/// The command being decided this pass (none on turn-machinery passes).
#[derive(Resource, Debug, Clone, Default)]
pub struct Pending(pub Option<Command>);

/// What decide produced this pass: events to append and apply, or a rejection.
#[derive(Resource, Debug, Clone, Default)]
pub struct Outbox {
    /// Events in order.
    pub events: Vec<GameEvent>,
    /// Set when the command is refused (then `events` is empty).
    pub rejection: Option<Rejection>,
}

/// The session's source of randomness (the main stream; its seed is revealed at the end).
#[derive(Resource, Debug, Clone)]
pub struct Dice(pub SessionRng);

/// The session's secret stream (`dice::rng`, "The secret stream"): the dice of the referee's
/// secret rolls only, from a seed that is never revealed. `None` in an engine built without one
/// (`Engine::new` alone, as unit tests do): a secret roll is then refused rather than drawn from
/// the main stream. Sessions always set it (`session::engine_for`).
#[derive(Resource, Debug, Clone, Default)]
pub struct SecretDice(pub Option<SessionRng>);

/// The seed and salt, revealed in a `SeedRevealed` event when the battle ends.
#[derive(Resource, Debug, Clone)]
pub struct SeedSecret {
    /// The seed.
    pub seed: u64,
    /// The salt, hex.
    pub salt: String,
}
