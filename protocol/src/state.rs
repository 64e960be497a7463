//! The state of a session as clients see it (`Snapshot`) and as the state hash covers it.
//! The GM's view holds every value; the public view hides a monster's exact hit points.

use crate::event::{ActionKind, Defense, Effect};
use crate::ids::{CombatantId, Side};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::sync::Arc;

/// Where the battle stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Waiting for the GM to start the battle.
    Setup,
    /// Rounds and turns are running.
    Running,
    /// Over.
    Ended,
}

/// Whether a combatant is in the fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum LifeStatus {
    /// Up and acting.
    Conscious,
    /// A PC at 0 hp or below, making death saves.
    Unconscious,
    /// A dead PC.
    Dead,
    /// A monster at 0 hp.
    Slain,
    /// 13th Age: a monster dropped to 0 hp by a blow meant to keep it alive (§ Unconscious):
    /// unconscious, out of the fight for the rest of the battle, defeated.
    KnockedOut,
}

impl LifeStatus {
    /// Still able to take part (conscious).
    pub fn is_up(self) -> bool {
        matches!(self, LifeStatus::Conscious)
    }

    /// Out of the battle for good: dead, slain or knocked out (an unconscious PC is still in
    /// it: it makes death saves and can be healed).
    pub fn is_out(self) -> bool {
        matches!(
            self,
            LifeStatus::Dead | LifeStatus::Slain | LifeStatus::KnockedOut
        )
    }
}

/// The three defenses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Defenses {
    /// Armor Class.
    pub ac: i32,
    /// Physical Defense.
    pub pd: i32,
    /// Mental Defense.
    pub md: i32,
}

/// Which actions remain this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ActionsLeft {
    /// Standard action available.
    pub standard: bool,
    /// Move action available.
    pub move_action: bool,
    /// Quick action available.
    pub quick: bool,
}

impl ActionsLeft {
    /// A fresh turn's actions.
    pub const FULL: ActionsLeft = ActionsLeft {
        standard: true,
        move_action: true,
        quick: true,
    };
    /// No actions.
    pub const NONE: ActionsLeft = ActionsLeft {
        standard: false,
        move_action: false,
        quick: false,
    };

    /// Which action would pay for `needed`, trading down a bigger one if the exact one is spent
    /// (13th Age § Regular Actions: a standard can pay for a move or quick action, a move for a
    /// quick action). Prefers the exact action.
    pub fn payer(&self, needed: ActionKind) -> Option<ActionKind> {
        let has = |k: ActionKind| match k {
            ActionKind::Standard => self.standard,
            ActionKind::Move => self.move_action,
            ActionKind::Quick => self.quick,
        };
        let candidates: &[ActionKind] = match needed {
            ActionKind::Standard => &[ActionKind::Standard],
            ActionKind::Move => &[ActionKind::Move, ActionKind::Standard],
            ActionKind::Quick => &[ActionKind::Quick, ActionKind::Move, ActionKind::Standard],
        };
        candidates.iter().copied().find(|k| has(*k))
    }

    /// Marks an action spent.
    pub fn spend(&mut self, k: ActionKind) {
        match k {
            ActionKind::Standard => self.standard = false,
            ActionKind::Move => self.move_action = false,
            ActionKind::Quick => self.quick = false,
        }
    }
}

/// What a client needs to know to offer an attack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AttackSummary {
    /// Id to use in `Command::Attack`.
    pub id: String,
    /// Display name.
    pub name: String,
    // This and the other fixed words are `Cow`s so that reading the state, on every tick for
    // every audience's view and every state hash, need not allocate them; on the wire they
    // are plain strings.
    /// `melee`, `ranged` or `close`.
    pub range: Cow<'static, str>,
    /// Defense it targets.
    pub vs: Defense,
    /// How many targets it takes at most.
    pub max_targets: u8,
    /// A basic attack (the one opportunity attacks use when melee).
    pub basic: bool,
    /// A spell (draws opportunity attacks from every engaged foe unless close-quarters).
    pub spell: bool,
    /// A flexible attack: its maneuvers (ids) trigger on the natural roll.
    pub maneuvers: Vec<String>,
    /// `at-will`, `once per battle`, `daily` or `recharge N+`.
    pub usage: Cow<'static, str>,
    /// The action it takes: `standard`, `quick` or `interrupt`.
    pub action: Cow<'static, str>,
    /// Orcus § Action descriptions, Category: `attack` or `utility` (other rulesets: `attack`).
    #[serde(default)]
    pub category: Cow<'static, str>,
    /// Orcus § Action descriptions, Tags and Traditions (`weapon`, `fire`, `arcane`, …); empty
    /// in other rulesets.
    #[serde(default)]
    pub tags: Vec<String>,
}

/// One combatant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CombatantState {
    /// Stable id.
    pub id: CombatantId,
    /// Display name.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Content template (monsters of one template share initiative).
    pub template: String,
    /// Level.
    pub level: i32,
    /// Size (13th Age § Grabbed: a grabber carries a smaller creature it grabs when it moves;
    /// grid rulesets: the same as `grid.size`). `medium` is 13th Age's normal size.
    pub size: crate::grid::Size,
    /// Current hit points (hidden from players for monsters).
    pub hp: Option<i32>,
    /// Maximum hit points (hidden from players for monsters).
    pub max_hp: Option<i32>,
    /// Temporary hit points.
    pub temp_hp: i32,
    /// At half hit points or fewer.
    pub staggered: bool,
    /// In the fight or not.
    pub status: LifeStatus,
    /// Base defenses (before condition penalties).
    pub defenses: Defenses,
    /// Initiative result once rolled.
    pub initiative: Option<i32>,
    /// Actions left in the current turn.
    pub actions: ActionsLeft,
    /// Effects on this combatant, by id.
    pub effects: Vec<Effect>,
    /// Recoveries left (PCs).
    pub recoveries: i32,
    /// Stacking −1 penalty from recoveries used without having one.
    pub recovery_penalty: i32,
    /// Failed death saves this battle.
    pub death_save_failures: u8,
    /// Rallies made this battle.
    pub rallies: u32,
    /// The round in which a failed rally save bars rallying.
    pub rally_barred_round: Option<u32>,
    /// The attacks it can make.
    // Shared: a combatant's attacks never change, and the state is read for every audience's
    // view after every tick and for every state hash; on the wire a plain list.
    pub attacks: Arc<[AttackSummary]>,
    /// Enemies it is engaged with, sorted by id.
    pub engaged_with: Vec<CombatantId>,
    /// Far away from the fight (two moves from the enemies).
    pub far_away: bool,
    /// Stabilized while unconscious (failed death saves are ignored).
    pub stabilized: bool,
    /// Limited powers used and not yet regained.
    pub expended: Vec<String>,
    /// An interrupt action was used; none until the end of its next turn.
    pub interrupt_used: bool,
    /// Healing potions left (PCs).
    pub potions: u32,
    /// Dropped to 0 hp or below during this battle (PCs).
    pub dropped: bool,
    /// Lasting wounds taken (optional rule; PCs).
    pub lasting_wounds: u32,
    /// In a coma (optional meaningful-death rule): out of the fight, no death saves.
    pub coma: bool,
    /// Took its quick rest after the battle.
    pub rested: bool,
    /// Grid rulesets (Orcus): place, size, speed, the other defenses, action points.
    pub grid: Option<crate::grid::GridState>,
    /// Five Torches Deep: ability scores, proficiency, HD, morale, grants, injuries, departure.
    pub ftd: Option<crate::ftd::FtdCombatant>,
    /// Old-School Essentials: THAC0, AC, saves, morale, declaration, flight.
    pub ose: Option<crate::ose::OseCombatant>,
}

/// The whole session state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SessionState {
    /// Ruleset id.
    pub ruleset: String,
    /// Battle phase.
    pub phase: Phase,
    /// Which battle of the session this is, from 1 (sessions with later battles).
    pub battle: u32,
    /// How many battles the session has.
    pub battles: u32,
    /// Current round (0 before the battle).
    pub round: u32,
    /// Escalation die.
    pub escalation: u8,
    /// The GM holds the escalation die (it does not advance).
    pub escalation_held: bool,
    /// 13th Age § Unconscious: whether the GM lets the heroes' blows meant to keep a monster
    /// alive knock it out instead of slaying it (`knock_outs`; allowed until the GM refuses).
    pub knock_outs_allowed: bool,
    /// The party fled the battle (a campaign loss).
    pub fled: bool,
    /// During an ambush round: `Some(advance the escalation die after it)`.
    pub surprise: Option<bool>,
    /// Someone has fought in spirit this battle (later ones grant +1, not +2).
    pub spirit_used: bool,
    /// Who fought in spirit, and in which round (once a round each).
    pub spirit_rounds: Vec<(CombatantId, u32)>,
    /// The GM ended the session (with the `rests` option the session goes on after the battle
    /// until then).
    pub session_over: bool,
    /// Readied actions held: (combatant, action), until each one's next turn.
    pub readied: Vec<(CombatantId, crate::event::ActionKind)>,
    /// Combatants delaying (13th Age § Delay), in the order they delayed.
    pub delayed: Vec<CombatantId>,
    /// A delaying combatant that acts right after the current turn.
    pub undelay: Option<CombatantId>,
    /// Order of battle.
    pub order: Vec<CombatantId>,
    /// Whose turn it is.
    pub current: Option<CombatantId>,
    /// Index in `order` of the current turn, or of the last one between turns.
    pub turn_index: Option<u32>,
    /// Next effect id to assign.
    pub next_effect_id: u32,
    /// The winner once the battle is over.
    pub winner: Option<Side>,
    /// Whether the seed has been revealed.
    pub seed_revealed: bool,
    /// Open opportunity attacks: (attacker, provoker), until the end of the provoker's turn.
    pub opportunities: Vec<(CombatantId, CombatantId)>,
    /// The combatant that moved this turn (it may be intercepted).
    pub last_mover: Option<CombatantId>,
    /// Enemies the current combatant hit this turn (13th Age: a grabbed creature that hit its
    /// grabber disengages without the −5).
    pub hit_this_turn: Vec<CombatantId>,
    /// The current combatant disengaged this turn: its disengage was its move action, so its
    /// next move this turn costs nothing ("popped free at the start of your move").
    pub popped_free: Option<CombatantId>,
    /// Grid rulesets (Orcus): the battle map.
    pub map: Option<Box<crate::grid::MapState>>,
    /// Grabs let go this turn, as (grabber, grabbed): a grabber that let go and moves away draws
    /// no opportunity attack from the creature it let go (13th Age § Grabbed).
    pub released: Vec<(CombatantId, CombatantId)>,
    /// Five Torches Deep: a pending retreat and the morale checks proposed.
    pub ftd: Option<crate::ftd::FtdBattle>,
    /// Old-School Essentials: options, surprise, reaction, side initiative, morale proposals.
    pub ose: Option<crate::ose::OseBattle>,
    /// Combatants sorted by id.
    pub combatants: Vec<CombatantState>,
    /// Orcus § Resting: the session clock, in minutes since the session began.
    #[serde(default)]
    pub clock: u32,
    /// Orcus § Resting: the clock when the last long rest ended (one long rest per 24 hours).
    #[serde(default)]
    pub last_long_rest: Option<u32>,
    /// Orcus § Action points: encounters (battles ended) since the last long rest.
    #[serde(default)]
    pub encounters_since_long_rest: u32,
}

impl SessionState {
    /// The state of a session before its battle starts.
    pub fn new(ruleset: impl Into<String>, combatants: Vec<CombatantState>) -> SessionState {
        SessionState {
            ruleset: ruleset.into(),
            phase: Phase::Setup,
            battle: 1,
            battles: 1,
            round: 0,
            escalation: 0,
            escalation_held: false,
            knock_outs_allowed: true,
            fled: false,
            session_over: false,
            readied: Vec::new(),
            surprise: None,
            spirit_used: false,
            spirit_rounds: Vec::new(),
            delayed: Vec::new(),
            undelay: None,
            order: Vec::new(),
            current: None,
            turn_index: None,
            next_effect_id: 1,
            winner: None,
            seed_revealed: false,
            opportunities: Vec::new(),
            last_mover: None,
            hit_this_turn: Vec::new(),
            popped_free: None,
            map: None,
            released: Vec::new(),
            ftd: None,
            ose: None,
            combatants,
            clock: 0,
            last_long_rest: None,
            encounters_since_long_rest: 0,
        }
    }

    /// A combatant by id.
    pub fn combatant(&self, id: &CombatantId) -> Option<&CombatantState> {
        self.combatants.iter().find(|c| &c.id == id)
    }

    /// The public view: monsters' exact hit points hidden.
    pub fn redacted(&self) -> SessionState {
        let mut s = self.clone();
        for c in &mut s.combatants {
            if c.side == Side::Monsters {
                c.hp = None;
                c.max_hp = None;
            }
        }
        s
    }
}
