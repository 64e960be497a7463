//! Game events: the facts the server appends to the log and broadcasts. Folding them in order
//! rebuilds the state; every die they used is inside them.

use crate::ids::{CombatantId, Side};
use crate::roll::Roll;
use serde::{Deserialize, Serialize};

/// The action types of a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// Standard action (attacks, rally).
    Standard,
    /// Move action.
    Move,
    /// Quick action.
    Quick,
}

/// The three 13th Age defenses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Defense {
    /// Armor Class.
    Ac,
    /// Physical Defense.
    Pd,
    /// Mental Defense.
    Md,
    /// Orcus Fortitude.
    Fortitude,
    /// Orcus Reflex.
    Reflex,
    /// Orcus Will.
    Will,
}

/// How an attack roll came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum AttackOutcome {
    /// Total met the defense.
    Hit,
    /// A critical hit (natural roll within the crit range).
    Crit,
    /// Total below the defense.
    Miss,
    /// Natural 1: no effect at all, not even miss damage.
    Fumble,
}

impl AttackOutcome {
    /// Hit or crit.
    pub fn is_hit(self) -> bool {
        matches!(self, AttackOutcome::Hit | AttackOutcome::Crit)
    }
}

/// Damage types (13th Age § Other Damage Types). Untyped damage has none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DamageType {
    /// Acid.
    Acid,
    /// Cold.
    Cold,
    /// Fire.
    Fire,
    /// Force.
    Force,
    /// Holy.
    Holy,
    /// Lightning.
    Lightning,
    /// Negative energy.
    Negative,
    /// Poison.
    Poison,
    /// Psychic.
    Psychic,
    /// Thunder.
    Thunder,
    /// Necrotic (Orcus).
    Necrotic,
    /// Radiant (Orcus).
    Radiant,
}

/// Conditions (13th Age § Conditions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// −4 to attacks.
    Dazed,
    /// −4 to attacks and to defenses.
    Weakened,
    /// −4 to defenses and no actions.
    Stunned,
    /// Attacks against you crit on 18+ (crit range expanded by 2).
    Vulnerable,
    /// No opportunity attacks (the random-ally targeting of the text is left to the GM).
    Confused,
    /// Dazed (−4 to attacks) and no escalation die.
    Fear,
    /// Only basic attacks.
    Hampered,
    /// −4 to defenses; can be the target of a coup de grace.
    Helpless,
    /// Cannot move, disengage or be moved (except by teleporting).
    Stuck,
    /// Engaged with the grabber (the effect's source): −5 to disengage unless it was hit this
    /// turn, no ranged attacks, no opportunity attacks; the grabber gets +4 to attack it.
    Grabbed,
    /// Attacks against it miss completely half the time, before the attack roll.
    Invisible,
    /// Orcus: cannot see: it is off-guard, and every target has total concealment from it
    /// (−5 to its melee and ranged attacks); it cannot flank.
    Blinded,
    /// Orcus: cannot move from its space (it can still be moved unwillingly).
    Immobilized,
    /// Orcus: −2 to attacks that do not target the marking creature (the effect's source).
    Marked,
    /// Orcus: lying down: −2 to its attacks; off-guard to melee attackers; Stand Up ends it.
    Prone,
    /// Orcus: immobilized, off-guard, −2 to its attacks.
    Restrained,
    /// Orcus: speed 2 at most.
    Slowed,
    /// Orcus: surprised: no actions, off-guard (the surprise round).
    Surprised,
    /// Orcus: unconscious: helpless, prone, no actions.
    Unconscious,
    /// Orcus: attackers get +2 against it.
    OffGuard,
    /// Orcus: grappled by the effect's source: immobilized until it escapes or the grapple ends.
    Grappled,
    /// Orcus § Feint: off-guard to the effect's source only.
    Feinted,
    /// Orcus § Deter: cannot take this kind of action.
    Deterred(ActionKind),
    /// Orcus § Unnerve: has surrendered: takes no actions for the rest of the encounter.
    Surrendered,
    /// Orcus § Deter, § Unnerve: resisted the source's intimidation: the source cannot Deter or
    /// Unnerve it again this encounter.
    Unintimidated,
}

/// How hard a save is (13th Age § Saves): easy 6+, normal 11+, hard 16+.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SaveDifficulty {
    /// 6+.
    Easy,
    /// 11+.
    Normal,
    /// 16+.
    Hard,
    /// 10+ (Orcus § Saving throws).
    TenPlus,
}

impl SaveDifficulty {
    /// The d20 result needed.
    pub fn target(self) -> u32 {
        match self {
            SaveDifficulty::Easy => 6,
            SaveDifficulty::Normal => 11,
            SaveDifficulty::Hard => 16,
            SaveDifficulty::TenPlus => 10,
        }
    }
}

/// When an effect ends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum EffectDuration {
    /// A save at the end of each of the target's turns ends it.
    SaveEnds(SaveDifficulty),
    /// Ends at the end of the source's next turn.
    UntilEndOfSourcesNextTurn,
    /// Ends at the start of the source's next turn (Orcus Full Defense, Rally).
    UntilStartOfSourcesNextTurn,
    /// Lasts until the battle ends.
    EndOfBattle,
}

/// What an ongoing effect does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum EffectKind {
    /// A condition.
    Condition(Condition),
    /// Ongoing damage at the end of each of the target's turns, before its save.
    OngoingDamage {
        /// Damage per turn.
        amount: i32,
        /// Its type, if any.
        damage_type: Option<DamageType>,
    },
    /// A bonus to attacks or a defense (e.g. from an ally fighting in spirit); bonuses from the
    /// same source kind don't stack — the best one counts.
    Bonus {
        /// What it improves.
        stat: BonusStat,
        /// By how much.
        amount: i32,
    },
}

/// What a bonus improves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum BonusStat {
    /// Attack rolls.
    Attack,
    /// Armor Class.
    Ac,
    /// Physical Defense.
    Pd,
    /// Mental Defense.
    Md,
    /// Every defense (Orcus).
    Defenses,
}

/// An effect instance on a combatant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Effect {
    /// Session-unique effect id.
    pub id: u32,
    /// Who bears it.
    pub target: CombatantId,
    /// Who caused it.
    pub source: CombatantId,
    /// What it does.
    pub kind: EffectKind,
    /// When it ends.
    pub duration: EffectDuration,
    /// For `UntilEndOfSourcesNextTurn`: whether the source's "next turn" has begun.
    pub armed: bool,
}

/// Why a save was rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SavePurpose {
    /// A death save at the start of the turn (16+).
    Death,
    /// A save against an effect (by effect id).
    Effect(u32),
    /// The save needed to rally again in the same battle (11+).
    Rally,
    /// A disengage check (11+, −1 per foe beyond the first, −5 when grabbed).
    Disengage,
    /// Orcus § Mounting and dismounting: a rider knocked prone saves to stay mounted.
    Dismount,
}

/// Why opportunity attacks were provoked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Provocation {
    /// Moving away from engaged foes without disengaging.
    MovingAway,
    /// A ranged attack while engaged (foes not targeted may attack).
    RangedAttack,
    /// A spell (not close-quarters) while engaged (every engaged foe may attack).
    Spell,
}

/// Why damage was dealt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DamageCause {
    /// An attack's hit (or miss) damage.
    Attack {
        /// Who attacked.
        attacker: CombatantId,
        /// With what.
        attack: String,
    },
    /// Ongoing damage from an effect.
    Ongoing {
        /// The effect's id.
        effect: u32,
    },
    /// Five Torches Deep: a failed check against harm (a trap, a fall…); `doubled` when the
    /// PC rolled a natural 1 (§ Critical Failure).
    Hazard {
        /// The check's purpose.
        purpose: String,
        /// The damage was doubled by a natural 1.
        doubled: bool,
    },
}

/// Why an effect ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum EffectEndReason {
    /// A successful save.
    Saved,
    /// Its duration ran out.
    Expired,
    /// Orcus: a first failed save turned it into another effect (§ Special saving throw
    /// riders).
    Replaced,
    /// Orcus: a grapple ended because the grappled creature escaped, the grappler moved away,
    /// let go, stopped maintaining it or can no longer make opportunity attacks.
    Released,
    /// The bearer died or was slain, or the battle ended.
    Cleared,
}

/// A fact of the fight. Events are ordered by their sequence number; folding them rebuilds the
/// state. Hidden values (a monster's exact hit points) are `None` in the public view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
// The schema describes the flat JSON form: the family wrappers' variants become the family
// enums themselves (`crate::schema::flatten_families`).
#[cfg_attr(
    feature = "schema",
    schemars(rename = "GameEvent", transform = crate::schema::flatten_families)
)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum GameEvent {
    /// The GM started the battle; temporary hit points drop to 0.
    BattleStarted,
    /// The GM set the initiative order (Orcus § Initiative: ties are the GM's and players'
    /// choice); turns go on from the same place.
    InitiativeReordered {
        /// The new order.
        order: Vec<CombatantId>,
        /// Index of the current (or last) turn in the new order.
        turn_index: Option<u32>,
    },
    /// An initiative roll, shared by all the listed combatants (monsters of one type share).
    InitiativeRolled {
        /// Who this roll is for.
        combatants: Vec<CombatantId>,
        /// The d20.
        roll: Roll,
        /// The initiative bonus added.
        bonus: i32,
        /// d20 + bonus.
        total: i32,
        /// The terms of the initiative bonus, named (`protocol/README.md`, "Modifiers"): they sum to `bonus`.
        /// Empty in logs of record format 1 (`protocol/README.md`, "The session's log").
        #[serde(default, with = "crate::format::since_2")]
        #[cfg_attr(feature = "schema", schemars(with = "Vec<crate::roll::Modifier>"))]
        modifiers: Vec<crate::roll::Modifier>,
    },
    /// The ambush round: only these combatants act, in this order; then the ambushed side rolls
    /// initiative and a `turn_order` starts normal rounds.
    SurpriseRound {
        /// Who acts, in order.
        acting: Vec<CombatantId>,
        /// Whether the escalation die advances to 1 after the ambush round.
        advance_escalation: bool,
    },
    /// The fixed order of battle after initiative.
    TurnOrder {
        /// First to last.
        order: Vec<CombatantId>,
    },
    /// A new round.
    RoundStarted {
        /// 1-based.
        round: u32,
    },
    /// An interrupt action is being used out of turn (its attack follows).
    InterruptUsed {
        /// Who.
        combatant: CombatantId,
    },
    /// A readied action is taken now, out of turn (the order of battle changes with an
    /// `order_changed` event that follows).
    ReadiedActionTaken {
        /// Who.
        combatant: CombatantId,
    },
    /// A hero took its quick rest (healing and recharge events follow).
    QuickRested {
        /// Who.
        combatant: CombatantId,
    },
    /// Full heal-up: every hero's hit points, recoveries, powers and lasting wounds reset.
    FullHealUp,
    /// The GM ended the session (the seed is revealed next).
    SessionEnded,
    /// The next battle of the session is set up: the last battle's monsters leave, these
    /// monsters (stat blocks from the session's encounter) come in, the heroes stay; the battle
    /// waits for the GM to start it.
    NewBattle {
        /// Which battle, from 1.
        battle: u32,
        /// Its title.
        title: String,
        /// The monsters coming in, by id.
        monsters: Vec<CombatantId>,
    },
    /// A combatant delayed: its turn passes without end-of-turn effects; it may act later.
    Delayed {
        /// Who.
        combatant: CombatantId,
    },
    /// Temporary hit points gained (the higher of old and new stays; they don't stack).
    TempHpGained {
        /// Who.
        target: CombatantId,
        /// Granted.
        amount: i32,
        /// Temporary hit points now.
        temp_after: i32,
    },
    /// A combatant's turn begins; its actions refresh.
    TurnStarted {
        /// Whose turn.
        combatant: CombatantId,
        /// The round.
        round: u32,
    },
    /// An action of the turn was spent (`spent` may be a traded-down bigger action).
    ActionUsed {
        /// Who.
        combatant: CombatantId,
        /// The action the command needed.
        action: ActionKind,
        /// The action actually spent (a standard action can pay for a move or quick one).
        spent: ActionKind,
    },
    /// An attack roll against one target.
    AttackRolled {
        /// Who attacks.
        attacker: CombatantId,
        /// Target of this roll.
        target: CombatantId,
        /// Attack id.
        attack: String,
        /// The d20.
        roll: Roll,
        /// Everything added to the d20 (ability, level, escalation, conditions).
        bonus: i32,
        /// d20 + bonus.
        total: i32,
        /// Defense attacked.
        defense: Defense,
        /// Its value at the time (with condition penalties).
        defense_value: i32,
        /// Result.
        outcome: AttackOutcome,
        /// The terms of the attack bonus, named (`protocol/README.md`, "Modifiers"): they sum to `bonus`.
        /// Empty in logs of record format 1 (`protocol/README.md`, "The session's log").
        #[serde(default, with = "crate::format::since_2")]
        #[cfg_attr(feature = "schema", schemars(with = "Vec<crate::roll::Modifier>"))]
        modifiers: Vec<crate::roll::Modifier>,
    },
    /// Damage dice rolled once for an attack (shared by every target it hits).
    DamageRolled {
        /// Who rolled.
        attacker: CombatantId,
        /// Attack id.
        attack: String,
        /// The roll.
        roll: Roll,
        /// The terms of the roll's constant part, named (`protocol/README.md`, "Modifiers"): they sum to `roll.modifier`.
        /// Empty in logs of record format 1 (`protocol/README.md`, "The session's log").
        #[serde(default, with = "crate::format::since_2")]
        #[cfg_attr(feature = "schema", schemars(with = "Vec<crate::roll::Modifier>"))]
        modifiers: Vec<crate::roll::Modifier>,
    },
    /// Damage taken.
    Damaged {
        /// Who takes it.
        target: CombatantId,
        /// Why.
        cause: DamageCause,
        /// Damage after multipliers, before temporary hit points.
        amount: i32,
        /// Type, if any.
        damage_type: Option<DamageType>,
        /// How much temporary hit points absorbed.
        temp_absorbed: i32,
        /// Hit points after the damage (hidden from players for monsters).
        hp_after: Option<i32>,
    },
    /// Hit points regained.
    Healed {
        /// Who heals.
        target: CombatantId,
        /// The recovery roll, if one was used.
        roll: Option<Roll>,
        /// Hit points regained (after the no-recovery halving).
        amount: i32,
        /// Whether a recovery was spent (or, with none left, the −1 penalty taken).
        recovery_used: bool,
        /// Hit points after healing (negative hit points count from 0 first).
        hp_after: Option<i32>,
    },
    /// Crossed to half hit points or fewer.
    Staggered {
        /// Who.
        combatant: CombatantId,
    },
    /// Optional meaningful-death rule: instead of dying, the PC falls into a coma (out of the
    /// fight, no more death saves; conscious again only once out of danger).
    FellIntoComa {
        /// Who.
        combatant: CombatantId,
    },
    /// A PC dropped to 0 hp or below.
    FellUnconscious {
        /// Who.
        combatant: CombatantId,
    },
    /// A PC regained consciousness.
    Revived {
        /// Who.
        combatant: CombatantId,
        /// Whether it may still act this turn (a natural 20 death save); otherwise its actions
        /// this turn are gone.
        can_act: bool,
    },
    /// A PC died (fourth failed death save, or negative half maximum hit points).
    Died {
        /// Who.
        combatant: CombatantId,
    },
    /// A monster dropped to 0 hp.
    Slain {
        /// Who.
        combatant: CombatantId,
    },
    /// A save of any kind.
    SaveRolled {
        /// Who saves.
        combatant: CombatantId,
        /// Why.
        purpose: SavePurpose,
        /// The d20.
        roll: Roll,
        /// Needed.
        target: u32,
        /// Whether it succeeded.
        success: bool,
        /// The terms of the save's bonus, named (`protocol/README.md`, "Modifiers"): they sum to `roll.modifier`.
        /// Empty in logs of record format 1 (`protocol/README.md`, "The session's log").
        #[serde(default, with = "crate::format::since_2")]
        #[cfg_attr(feature = "schema", schemars(with = "Vec<crate::roll::Modifier>"))]
        modifiers: Vec<crate::roll::Modifier>,
    },
    /// A failed death save counted.
    DeathSaveFailed {
        /// Who.
        combatant: CombatantId,
        /// Failures so far this battle.
        failures: u8,
    },
    /// A rally happened (healing follows in a `Healed` event).
    Rallied {
        /// Who.
        combatant: CombatantId,
    },
    /// An effect began.
    EffectApplied {
        /// The effect.
        effect: Effect,
    },
    /// The source of an `UntilEndOfSourcesNextTurn` effect started its next turn.
    EffectArmed {
        /// Who bears it.
        target: CombatantId,
        /// Effect id.
        effect: u32,
    },
    /// An effect ended.
    EffectEnded {
        /// Who bore it.
        target: CombatantId,
        /// Effect id.
        effect: u32,
        /// Why.
        reason: EffectEndReason,
    },
    /// A turn ended.
    TurnEnded {
        /// Whose.
        combatant: CombatantId,
    },
    /// A move: the combatant leaves every engagement, then engages `engaged` if any.
    Moved {
        /// Who moved.
        combatant: CombatantId,
        /// The enemy it engaged.
        engaged: Option<CombatantId>,
        /// Whether it is now far away.
        far_away: bool,
    },
    /// A limited power (once per battle, daily, recharge) was used and is expended.
    PowerExpended {
        /// Who.
        combatant: CombatantId,
        /// The attack or power id.
        power: String,
    },
    /// An expended power is available again (a rest, or a successful recharge roll).
    PowerRegained {
        /// Who.
        combatant: CombatantId,
        /// The attack or power id.
        power: String,
        /// The recharge roll, if one was needed.
        roll: Option<Roll>,
    },
    /// An opportunity attack is being made (its roll follows).
    OpportunityTaken {
        /// Who attacks.
        attacker: CombatantId,
        /// The provoker.
        target: CombatantId,
    },
    /// A coup de grace: an automatic critical hit (damage follows).
    CoupDeGrace {
        /// Who attacks.
        attacker: CombatantId,
        /// The helpless target.
        target: CombatantId,
        /// With what.
        attack: String,
    },
    /// A skill check (d20 + ability + level against a DC).
    CheckRolled {
        /// Who checks.
        combatant: CombatantId,
        /// What for (e.g. `stabilize`).
        purpose: String,
        /// The d20.
        roll: Roll,
        /// Ability modifier + level.
        bonus: i32,
        /// d20 + bonus.
        total: i32,
        /// Difficulty.
        dc: i32,
        /// Whether it succeeded.
        success: bool,
        /// The terms of the check bonus, named (`protocol/README.md`, "Modifiers"): they sum to `bonus`.
        /// Empty in logs of record format 1 (`protocol/README.md`, "The session's log").
        #[serde(default, with = "crate::format::since_2")]
        #[cfg_attr(feature = "schema", schemars(with = "Vec<crate::roll::Modifier>"))]
        modifiers: Vec<crate::roll::Modifier>,
    },
    /// An unconscious PC was stabilized: failed death saves no longer count.
    Stabilized {
        /// Who.
        combatant: CombatantId,
        /// By whom.
        by: CombatantId,
    },
    /// The battle is over.
    BattleEnded {
        /// The side left standing, if any (none when the GM ended it).
        winner: Option<Side>,
    },
    /// Commit–reveal: the seed and salt whose SHA-256 was published at creation.
    SeedRevealed {
        /// The session seed.
        seed: u64,
        /// The salt, 32 hex digits.
        salt: String,
    },
    /// 13th Age § Unconscious: a monster dropped to 0 hp by a hero's blow meant to keep it alive
    /// is knocked out instead of slain: unconscious, out of the fight, defeated.
    KnockedOut {
        /// Who.
        combatant: CombatantId,
    },
    /// Five Torches Deep § When To Check Morale: the server proposes a morale check to the GM
    /// (the battle begins, the first kill, a leader killed); nothing is rolled.
    MoraleProposed {
        /// Why.
        trigger: crate::ftd::MoraleTrigger,
        /// Who might check (those still in the fight on the side concerned).
        combatants: Vec<CombatantId>,
    },
    /// Five Torches Deep: a combatant left the battle — fled or surrendered (failed morale) or
    /// escaped (a successful retreat). It no longer acts or counts for the end of the battle.
    LeftBattle {
        /// Who.
        combatant: CombatantId,
        /// How.
        how: crate::ftd::Departure,
    },
    /// Old-School Essentials: a GM-only secret roll (search, listen, wandering monsters).
    /// Players and spectators (and the public export) get it with `roll` and `success` null:
    /// they see that the roll was made, never its result.
    SecretRolled {
        /// What for.
        check: crate::ose::SecretCheck,
        /// The character searching or listening, if any.
        combatant: Option<CombatantId>,
        /// The chance in six.
        chance: u32,
        /// The d6 (GM only).
        roll: Option<Roll>,
        /// Found, heard, or a monster comes (GM only).
        success: Option<bool>,
        /// The area or item searched, if named.
        area: Option<String>,
        /// A wandering monster comes: its distance, 2d6 × 10′ (§ Wandering Monsters, Distance;
        /// GM only).
        distance: Option<Roll>,
        /// Exploration turns the search takes (§ Searching, "Time: Searching takes one turn";
        /// Basic Fantasy § Secret Doors: the third searcher of an area two, later ones an hour);
        /// 0 for listening, doors and the wandering check. Public.
        turns: u32,
    },
    /// 13th Age's own events (wire: this variant's tag, then the inner tag; JSON: the inner
    /// event alone, as if it were a variant of this enum).
    ThirteenthAge(ThirteenthAgeEvent),
    /// Orcus's own events (wire: this variant's tag, then the inner tag; JSON: the inner
    /// event alone, as if it were a variant of this enum).
    Orcus(OrcusEvent),
    /// Five Torches Deep's own events (wire: this variant's tag, then the inner tag; JSON: the inner
    /// event alone, as if it were a variant of this enum).
    FiveTorches(FiveTorchesEvent),
    /// Old-School Essentials and Basic Fantasy (B/X)'s own events (wire: this variant's tag, then the inner tag; JSON: the inner
    /// event alone, as if it were a variant of this enum).
    Bx(BxEvent),
    /// The GM rewound the fight (`rewind_to`): from this event on, the state is the state after
    /// event `to_seq`, the last event of tick `to_tick` (0 and 0: before the first event). The
    /// events in between stay in the log; the dice streams did not rewind. A fold restores the
    /// state by folding the events up to `to_seq` again.
    Rewound {
        /// The event the state goes back to.
        to_seq: u64,
        /// The tick that event ended.
        to_tick: u64,
    },
    /// A chat line (`chat`). Whispers and notes reach their readers whole; everyone else (the
    /// public log too) gets them with `text` null.
    Chatted {
        /// The seat that wrote it.
        from: crate::talk::Seat,
        /// Who it is for.
        to: crate::talk::ChatTo,
        /// The line (null for those it is not for).
        text: Option<String>,
    },
    /// A free roll (`free_roll`). A `gm` roll reaches the roller and the GM whole, a `blind` one
    /// the GM only; everyone else (the public log too) gets it with `roll` null.
    FreeRolled {
        /// The seat that rolled.
        by: crate::talk::Seat,
        /// The dice expression as sent.
        dice: String,
        /// What it is for.
        label: Option<String>,
        /// Who sees the result.
        visibility: crate::talk::RollVisibility,
        /// The dice and total (null for those who may not see them).
        roll: Option<Roll>,
    },
    /// The GM handed combatants to the server's built-in policy (`on`) or took them back
    /// (`auto_play`). While handed over, their commands come from the server (client `auto` in
    /// the log).
    AutoPlaySet {
        /// The combatants, each named once.
        combatants: Vec<CombatantId>,
        /// Handed over (`true`) or taken back.
        on: bool,
    },
    /// A combatant was given to a player seat (`seat`), or taken back by the GM (`seat`
    /// null) (`assign_combatant`).
    CombatantAssigned {
        /// The combatant.
        combatant: CombatantId,
        /// The seat that now commands it, if any.
        seat: Option<String>,
    },
    /// A player seat has a new token and its old one is revoked (`reissue_token`). `token` is
    /// the new token for the GM, null for everyone else (the public log too).
    TokenReissued {
        /// The player seat.
        seat: String,
        /// The new token (the GM's copy only).
        token: Option<String>,
    },
    /// GM override (`set_hp`): a combatant's hit points changed by `change` (to `hp_after`) and
    /// its temporary hit points set to `temp_after`. Players and spectators get a monster's
    /// with `hp_after` null, as for damage.
    HpOverridden {
        /// Whose.
        target: CombatantId,
        /// Hit points added (negative: taken away).
        change: i32,
        /// Hit points now (hidden from players for monsters).
        hp_after: Option<i32>,
        /// Temporary hit points now.
        temp_after: i32,
    },
    /// A GM override begins: the events that follow in the same tick are its outcome (the
    /// rules' own events — `effect_applied`, `effect_ended`, `ose_condition_changed`,
    /// `grid_moved`, `initiative_reordered`, … — or the override events below), so every
    /// client can show them as the GM's correction, not the rules' play.
    GmOverride {
        /// The override command's name (`add_condition`, `remove_combatant`, …).
        command: String,
        /// The combatant it concerns, if any.
        combatant: Option<CombatantId>,
    },
    /// GM override (`remove_combatant`): the combatant left the fight and the order of battle;
    /// it is no longer in the session's state.
    CombatantRemoved {
        /// Who left.
        combatant: CombatantId,
    },
    /// GM override (`add_combatant`): a new combatant, a copy of the encounter's stat block
    /// `template` (the session's encounter names it, so every fold rebuilds it), with its own
    /// id and name, at `square` (Orcus). Its place in the order follows
    /// (`initiative_rolled`/`initiative_set`, `initiative_reordered`).
    CombatantAdded {
        /// Its new id.
        combatant: CombatantId,
        /// The stat block's content id.
        template: String,
        /// Its display name.
        name: String,
        /// Where its space starts (Orcus).
        square: Option<crate::grid::Square>,
    },
    /// GM override (`set_initiative`): a combatant's initiative result is now `initiative`
    /// (the new order follows as `initiative_reordered`).
    InitiativeSet {
        /// Whose.
        combatant: CombatantId,
        /// The new result.
        initiative: i32,
    },
}

/// 13th Age's own events, folded by that ruleset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ThirteenthAgeEvent {
    /// The escalation die's new value.
    EscalationDie {
        /// 0..=6.
        value: u8,
    },
    /// The number of targets of a "1d3 nearby enemies" attack was rolled; the first `count`
    /// named targets are attacked.
    TargetsRolled {
        /// Who attacks.
        attacker: CombatantId,
        /// The roll.
        roll: Roll,
        /// Targets attacked.
        count: u32,
    },
    /// Optional lasting-wound rule: a PC dropped during the fight loses 2 + level maximum hit
    /// points when the battle ends.
    LastingWound {
        /// Who.
        combatant: CombatantId,
        /// Maximum hit points now.
        max_hp_after: i32,
    },
    /// A confused attacker's attack goes against a random nearby ally (the roll picks it among
    /// the allies in id order).
    ConfusedAttack {
        /// Who attacks.
        attacker: CombatantId,
        /// The ally attacked instead.
        ally: CombatantId,
        /// The die that picked it.
        roll: Roll,
    },
    /// A healing potion was used (healing follows, spending the drinker's recovery).
    PotionUsed {
        /// Who gave it.
        by: CombatantId,
        /// Who drank it.
        target: CombatantId,
    },
    /// A combatant out of the fight fights in spirit (13th Age § Fight in Spirit); a `Bonus`
    /// effect on the ally follows.
    FoughtInSpirit {
        /// Who, from out of the fight.
        combatant: CombatantId,
        /// The ally encouraged.
        ally: CombatantId,
    },
    /// A combatant readied an action (held until before its next turn).
    Readied {
        /// Who.
        combatant: CombatantId,
        /// The action held.
        action: ActionKind,
    },
    /// A delaying combatant will act right after the current turn.
    DelayEnding {
        /// Who.
        combatant: CombatantId,
    },
    /// The order of battle changed (a delayed action moved a combatant); `turn_index` is the
    /// index, in the new order, of the turn that just ended.
    OrderChanged {
        /// The new order.
        order: Vec<CombatantId>,
        /// Index of the last turn in the new order.
        turn_index: u32,
    },
    /// The GM held or resumed the escalation die.
    EscalationHeld {
        /// Whether it is held (does not advance).
        held: bool,
    },
    /// The party fled: a campaign loss (the battle-ended event follows).
    PartyFled,
    /// A power counting allies (13th Age § Allies: the other PCs and companions, conscious and
    /// nearby; NPCs don't count) adds damage per ally to its hit damage.
    AlliesCounted {
        /// Who attacks.
        attacker: CombatantId,
        /// The allies counted, by id.
        allies: Vec<CombatantId>,
        /// The damage added to the hit damage roll.
        bonus: i32,
    },
    /// A later rally's save failed: no rally this round, the standard action is kept.
    RallyFailed {
        /// Who.
        combatant: CombatantId,
        /// The round in which rallying is barred.
        round: u32,
    },
    /// A grabber let go of a creature (a free action; the grab's `effect_ended` follows).
    LetGo {
        /// The grabber.
        grabber: CombatantId,
        /// The creature let go.
        grabbed: CombatantId,
    },
    /// A grabber larger than the creature it grabs carried it along (13th Age § Grabbed), right
    /// after the grabber's `moved` (or `intercepted`): the grabbed creature leaves its other
    /// engagements without drawing opportunity attacks and is engaged with the grabber only,
    /// still grabbed.
    Carried {
        /// The grabber.
        grabber: CombatantId,
        /// The creature carried along.
        grabbed: CombatantId,
    },
    /// A teleport (13th Age § Teleportation): the combatant leaves every engagement without
    /// drawing opportunity attacks, then engages `engaged` if any.
    Teleported {
        /// Who teleported.
        combatant: CombatantId,
        /// The enemy it arrived next to.
        engaged: Option<CombatantId>,
        /// Whether it is now far away.
        far_away: bool,
    },
    /// Two combatants became engaged without a move (e.g. a grab engages the grabbed creature
    /// with its grabber).
    Engaged {
        /// One side.
        combatant: CombatantId,
        /// The other.
        with: CombatantId,
    },
    /// Resistance (13th Age § Resistance): the natural roll was below the target's resistance to
    /// the damage type, so the damage is halved — or, for non-magical energy, stopped.
    Resisted {
        /// Who resists.
        target: CombatantId,
        /// The damage type.
        damage_type: DamageType,
        /// The attack's natural roll.
        natural: u32,
        /// The resistance number.
        resistance: u32,
        /// Immune: non-magical energy against energy resistance.
        immune: bool,
    },
    /// The 50 % miss chance against an invisible target (d20: 1–10 misses), before the roll.
    MissChance {
        /// Who attacks.
        attacker: CombatantId,
        /// The invisible target.
        target: CombatantId,
        /// The d20.
        roll: Roll,
        /// Whether the attack missed completely.
        missed: bool,
    },
    /// A fumbled ranged attack into melee is rerolled against an ally engaged with the target.
    ShotIntoMelee {
        /// Who shot.
        attacker: CombatantId,
        /// The intended target.
        target: CombatantId,
        /// The ally now attacked.
        ally: CombatantId,
    },
    /// A successful disengage: the combatant is free of every engagement.
    Disengaged {
        /// Who.
        combatant: CombatantId,
    },
    /// An unengaged combatant stopped a mover: the mover's engagement is replaced by one with
    /// the interceptor.
    Intercepted {
        /// Who intercepts.
        interceptor: CombatantId,
        /// Who was stopped.
        mover: CombatantId,
    },
    /// Opportunity attacks are open against `provoker` until the end of its turn.
    OpportunityOpened {
        /// Who provoked.
        provoker: CombatantId,
        /// Who may attack it.
        attackers: Vec<CombatantId>,
        /// Why.
        reason: Provocation,
    },
    /// A flexible attack's natural roll triggered a maneuver.
    ManeuverTriggered {
        /// Who attacked.
        attacker: CombatantId,
        /// The target of the roll.
        target: CombatantId,
        /// The maneuver's id.
        maneuver: String,
        /// The natural roll.
        natural: u32,
    },
    /// The GM allowed or refused the heroes' knock-out blows (13th Age § Unconscious).
    KnockOutsRuled {
        /// Whether they are allowed from now on.
        allowed: bool,
    },
}

/// Orcus's own events, folded by that ruleset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OrcusEvent {
    /// Orcus: a combatant moved along a path of squares (`path` ends on its new square).
    GridMoved {
        /// Who moved.
        combatant: CombatantId,
        /// The squares entered, in order.
        path: Vec<crate::grid::Square>,
        /// Squares of movement spent.
        cost: i32,
        /// Walk, run, step or unwilling movement.
        mode: crate::grid::MoveMode,
    },
    /// Orcus: an action point was spent for one more action this turn.
    ActionPointSpent {
        /// Who.
        combatant: CombatantId,
        /// The action gained.
        action: ActionKind,
    },
    /// Orcus: saving-throw riders were attached to an effect just applied (§ Special saving
    /// throw riders): an aftereffect and/or what the effect becomes on the first failed save.
    RiderAttached {
        /// Who bears the effect.
        target: CombatantId,
        /// The riders.
        rider: crate::grid::Rider,
    },
    /// Orcus § Maintain: an effect was kept going this turn (a grapple is maintained in the turn
    /// it begins, and by a swift action in each later turn of the grappler).
    Maintained {
        /// Who maintains it.
        combatant: CombatantId,
        /// The effect, by id.
        effect: u32,
    },
    /// Orcus: a stabilized dying hero took damage and makes death saving throws again
    /// (§ Stabilize: "until it is next damaged").
    StabilizationEnded {
        /// The hero.
        combatant: CombatantId,
    },
    /// Orcus § Attacks with ammunition: pieces used by an attack (one per target).
    AmmunitionUsed {
        /// Who shot.
        combatant: CombatantId,
        /// How many pieces.
        count: i32,
    },
    /// Orcus (§ Resting): the session clock advanced — a short rest (5 minutes), a long rest
    /// (6 hours) or the GM's `pass_time`.
    ClockAdvanced {
        /// Minutes that passed.
        minutes: u32,
        /// The session clock now, in minutes since the session began.
        clock: u32,
    },
    /// Orcus (§ Action points): a hero gained an action point — after every second encounter
    /// between long rests.
    ActionPointGained {
        /// The hero.
        combatant: CombatantId,
    },
    /// Orcus § Mounted combat: a rider mounted a creature; it shares the mount's space.
    Mounted {
        /// The rider.
        rider: CombatantId,
        /// The mount.
        mount: CombatantId,
        /// The rider controls the mount (§ Controlling a mount).
        controlled: bool,
    },
    /// Orcus § Mounting and dismounting: a rider left (or fell off) its mount.
    Dismounted {
        /// The rider.
        rider: CombatantId,
        /// The mount.
        mount: CombatantId,
        /// Where the rider lands.
        square: crate::grid::Square,
    },
    /// Orcus § Controlling a mount: the rider gave up an action; the mount may take it.
    MountCommanded {
        /// The rider.
        rider: CombatantId,
        /// The mount.
        mount: CombatantId,
        /// The action granted.
        action: ActionKind,
    },
    /// Orcus elevation: a creature flew or climbed to a new height (squares above the ground).
    MovedAloft {
        /// Who.
        combatant: CombatantId,
        /// The new height.
        height: i32,
    },
    /// Orcus elevation: a creature fell to the ground from `squares` up (damage follows as a
    /// `hazard` with purpose `fall`).
    Fell {
        /// Who.
        combatant: CombatantId,
        /// The height it fell from.
        squares: i32,
    },
    /// Orcus (§ Weapon properties, Loading (swift)): a power with such a weapon attacked; it
    /// must be reloaded before it attacks again.
    ReloadNeeded {
        /// Who fired.
        combatant: CombatantId,
        /// The power.
        power: String,
    },
    /// Orcus: a weapon power was reloaded (a swift action).
    Reloaded {
        /// Who reloaded.
        combatant: CombatantId,
        /// The power.
        power: String,
    },
    /// Orcus (§ Targets, Allies and enemies): for its next attack, exactly `allies` count as
    /// `combatant`'s allies.
    AlliesChosen {
        /// The power's user.
        combatant: CombatantId,
        /// Its allies for that action.
        allies: Vec<CombatantId>,
    },
    /// Orcus: `combatant` counts as `user`'s enemy for `user`'s next attack.
    AllyDeclined {
        /// The creature declining.
        combatant: CombatantId,
        /// Whose action.
        user: CombatantId,
    },
    /// Orcus: `combatant`'s attack is over: its allies are its side again.
    AlliesReset {
        /// The power's user.
        combatant: CombatantId,
    },
    /// Orcus (§ Attack roll, Choosing to be hit): `combatant` will be hit by `attacker`'s next
    /// attack against it, with no attack roll.
    HitChosen {
        /// Who chose to be hit.
        combatant: CombatantId,
        /// By whom.
        attacker: CombatantId,
    },
    /// Orcus: an attack hit a target that chose to be hit, with no roll (in place of
    /// `attack_rolled`).
    HitByChoice {
        /// Who attacks.
        attacker: CombatantId,
        /// The target.
        target: CombatantId,
        /// Attack id.
        attack: String,
    },
    /// Orcus (§ Mounting and dismounting): the rider's standing choices (`rider_choices`):
    /// whether a push, pull or shunt takes its mount along, and where it lands relative to its
    /// mount when it falls off.
    RiderChoicesMade {
        /// The rider.
        rider: CombatantId,
        /// It takes its mount along when moved against its will.
        move_mount: bool,
        /// Its landing square relative to the mount's north-west square, if chosen.
        landing: Option<crate::grid::Square>,
    },
    /// Orcus § Action descriptions (a power's Effect line, e.g. tangles): a zone was created
    /// over an area's squares; it is listed in its creator's `grid.zones`.
    ZoneCreated {
        /// The zone.
        zone: crate::grid::Zone,
    },
    /// Orcus: the creator of a zone lasting until the end of its next turn started that turn.
    ZoneArmed {
        /// The creator.
        source: CombatantId,
        /// The zone, by id.
        zone: u32,
    },
    /// Orcus: a zone ended (its duration ran out: `expired`; not maintained: `expired`; ended by
    /// its creator with `end_effect`: `released`; its creator out of the fight or the battle
    /// over: `cleared`).
    ZoneEnded {
        /// The creator.
        source: CombatantId,
        /// The zone, by id.
        zone: u32,
        /// Why.
        reason: EffectEndReason,
    },
    /// Orcus § Maintain: an effect or zone just created lasts only while `combatant` maintains
    /// it (listed in its `grid.maintain_needed` until it ends).
    MaintenanceNeeded {
        /// The creator, who maintains it.
        combatant: CombatantId,
        /// The effect and the action that maintains it.
        effect: crate::grid::MaintainedEffect,
    },
    /// Orcus § Action required: `combatant` readied its immediate counter `power`
    /// (`ready_counter`); it resolves before the attack roll of an enemy's attack that targets
    /// it (`grid.readied_counter`, cleared at the start of its next turn or when its immediate
    /// action is spent).
    CounterReadied {
        /// Who readied it.
        combatant: CombatantId,
        /// The counter power, by id.
        power: String,
    },
    /// Orcus § Stealth: `combatant` made a Stealth check to hide (`move_to` or
    /// `create_diversion` with `hide`), or again after moving 3 or more squares while hidden.
    /// It is now hidden from `hidden_from` (those that sensed it, in three-quarters cover or
    /// total concealment from them, whose passive Perception `total` met) and seen by
    /// `seen_by`; `grid.hidden_from` and `grid.stealth` (= `total`) become these.
    HideChecked {
        /// Who hides.
        combatant: CombatantId,
        /// The d20.
        roll: Roll,
        /// Its Stealth modifier.
        bonus: i32,
        /// −5 after moving 3 or more squares, −10 after a run, else 0.
        penalty: i32,
        /// d20 + bonus + penalty: what searches contest while it stays hidden.
        total: i32,
        /// The enemies it is hidden from.
        hidden_from: Vec<CombatantId>,
        /// The enemies that sense it and still see it.
        seen_by: Vec<CombatantId>,
        /// The terms of the Stealth bonus and the movement penalty, named (`protocol/README.md`, "Modifiers"): they sum to `bonus` + `penalty`.
        /// Empty in logs of record format 1 (`protocol/README.md`, "The session's log").
        #[serde(default, with = "crate::format::since_2")]
        #[cfg_attr(feature = "schema", schemars(with = "Vec<crate::roll::Modifier>"))]
        modifiers: Vec<crate::roll::Modifier>,
    },
    /// Orcus § Stealth: `by` no longer lose track of `combatant` (removed from its
    /// `grid.hidden_from`).
    Discovered {
        /// Who was hidden.
        combatant: CombatantId,
        /// The enemies that now perceive it.
        by: Vec<CombatantId>,
        /// Why.
        reason: DiscoveryReason,
    },
    /// Orcus § Stealth, § Perception: `combatant` searched actively (`search`); every creature
    /// hidden from it whose Stealth total `total` met is in `found` (each then `discovered`).
    Searched {
        /// Who searches.
        combatant: CombatantId,
        /// The d20.
        roll: Roll,
        /// Its Perception modifier.
        bonus: i32,
        /// d20 + bonus.
        total: i32,
        /// The hidden creatures it found.
        found: Vec<CombatantId>,
        /// The terms of the Perception bonus, named (`protocol/README.md`, "Modifiers"): they sum to `bonus`.
        /// Empty in logs of record format 1 (`protocol/README.md`, "The session's log").
        #[serde(default, with = "crate::format::since_2")]
        #[cfg_attr(feature = "schema", schemars(with = "Vec<crate::roll::Modifier>"))]
        modifiers: Vec<crate::roll::Modifier>,
    },
    /// § Experience Points (`award_xp`): the monsters' XP by level and rank plus the GM's bonus
    /// (`total`), divided evenly (`share` each) among the party; `shares` lists (hero, XP gained,
    /// XP earned in the session after).
    OrcusXpAwarded {
        /// The monsters counted.
        monsters: Vec<CombatantId>,
        /// Their XP plus the bonus.
        total: u32,
        /// Each hero's share (the total divided by the party, rounded down).
        share: u32,
        /// (hero, gained, the session's XP after).
        shares: Vec<(CombatantId, u32, u32)>,
    },
    /// § Experience, levels and tiers: a hero's experience (what its level took plus the XP
    /// earned in the session) reached `level`'s cumulative XP. The hero's numbers stay its stat
    /// block's until the GM gives it the new level's (the benefits are the class's).
    LevelReached {
        /// The hero.
        combatant: CombatantId,
        /// The level reached.
        level: i32,
        /// Its experience now (cumulative).
        xp: u32,
    },
}

/// Five Torches Deep's own events, folded by that ruleset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FiveTorchesEvent {
    /// Five Torches Deep § initiative: each combatant's place is its DEX score (not modifier),
    /// fixed for the battle; a `turn_order` follows.
    InitiativeScores {
        /// (combatant, DEX score), in the order of battle.
        scores: Vec<(CombatantId, i32)>,
    },
    /// Five Torches Deep: the GM granted advantage or disadvantage to the combatant's next d20
    /// roll (`none` withdraws it); the next attack or check by it uses it up.
    AdvantageGranted {
        /// Who.
        combatant: CombatantId,
        /// What.
        advantage: crate::ftd::Advantage,
    },
    /// Five Torches Deep § Stabilizing & Injuries: the stabilized PC's roll on the injury table
    /// (`effect_roll` is the 1d6 of an ability loss or the 1d8 of standing).
    InjuryRolled {
        /// Who.
        combatant: CombatantId,
        /// The d20.
        roll: Roll,
        /// The result.
        injury: crate::ftd::Injury,
        /// The 1d6 or 1d8 the result rolled, if any.
        effect_roll: Option<Roll>,
    },
    /// Five Torches Deep § Morale Checks: one morale roll (DC 11) for the listed combatants.
    MoraleChecked {
        /// Who this roll is for.
        combatants: Vec<CombatantId>,
        /// The d20 (two with advantage or disadvantage).
        roll: Roll,
        /// WIS modifier + proficiency if fitting + morale bonus.
        bonus: i32,
        /// d20 + bonus.
        total: i32,
        /// Difficulty (11).
        dc: i32,
        /// They stand and fight.
        success: bool,
        /// The terms of the morale bonus, named (`protocol/README.md`, "Modifiers"): they sum to `bonus`.
        /// Empty in logs of record format 1 (`protocol/README.md`, "The session's log").
        #[serde(default, with = "crate::format::since_2")]
        #[cfg_attr(feature = "schema", schemars(with = "Vec<crate::roll::Modifier>"))]
        modifiers: Vec<crate::roll::Modifier>,
    },
    /// Five Torches Deep § Retreat: a PC spends its whole turn retreating; the GM rules next.
    RetreatStarted {
        /// Who.
        combatant: CombatantId,
    },
    /// Five Torches Deep § Retreat: the retreat failed (a failed check or a hit): the PC stops
    /// moving and stays in the battle.
    RetreatFailed {
        /// Who.
        combatant: CombatantId,
    },
    /// Five Torches Deep § Light: the GM set the scene's light (`combatant` null) or the light
    /// where one combatant is (`light` null: the scene's again).
    LightSet {
        /// Whose light, or null for the scene.
        combatant: Option<CombatantId>,
        /// The level.
        light: Option<crate::ftd::LightLevel>,
    },
    /// Five Torches Deep § Light: a combatant lit a fresh torch or lantern burning `seconds`
    /// of game time (`source` null: it put its light out).
    LightCarried {
        /// Who.
        combatant: CombatantId,
        /// Torch, lantern, or null.
        source: Option<crate::ftd::LightSource>,
        /// How long it burns.
        seconds: u32,
    },
    /// Five Torches Deep § Light: a carried torch or lantern burned out.
    LightWentOut {
        /// Who carried it.
        combatant: CombatantId,
        /// What burned out.
        source: crate::ftd::LightSource,
    },
    /// Five Torches Deep: game time passed (a round: 6 seconds; a travel turn: an hour; a
    /// night's rest: 8 hours). Carried lights burn down and PCs adventure on.
    TimePassed {
        /// How long.
        seconds: u32,
    },
    /// Five Torches Deep § Travel Turns: the GM's d20 on the travel turn table.
    TravelTurnRolled {
        /// Which travel turn (from 1).
        number: u32,
        /// The d20 (two with advantage or disadvantage).
        roll: Roll,
        /// What the table says.
        threat: crate::ftd::Threat,
    },
    /// Five Torches Deep § Movement Actions: what a combatant carries changed.
    LoadSet {
        /// Who.
        combatant: CombatantId,
        /// Load besides coins.
        load: i32,
        /// Coins.
        coins: i32,
    },
    /// Five Torches Deep § Resilience & Exhaustion: a combatant became exhausted (or a safe
    /// rest cured it).
    ExhaustionChanged {
        /// Who.
        combatant: CombatantId,
        /// Exhausted now.
        exhausted: bool,
    },
    /// Five Torches Deep § Healing From Rest: the party rested (injuries lasting "until rest"
    /// end; the hours adventured start again).
    Rested {
        /// A safe rest.
        safe: bool,
        /// Nights.
        nights: u32,
    },
    /// Five Torches Deep § Stealth: a combatant hid (or its stealth ended).
    StealthChanged {
        /// Who.
        combatant: CombatantId,
        /// In stealth now.
        hidden: bool,
    },
    /// Five Torches Deep § Stealth: the GM set the stealth DC (null: 11).
    StealthDcSet {
        /// The DC.
        dc: Option<i32>,
    },
    /// Five Torches Deep § Quick Actions: a readied action with its declared trigger (held
    /// until the combatant takes it, out of turn, or its next turn begins).
    ReadyDeclared {
        /// Who.
        combatant: CombatantId,
        /// The action held.
        action: ActionKind,
        /// The declared trigger.
        trigger: String,
    },
    /// Five Torches Deep § Corruptions: a PC became infected by a disease, poison or venom, its
    /// infection reached a new stage, or it ended (`corruption` null).
    CorruptionChanged {
        /// Who.
        combatant: CombatantId,
        /// The infection now.
        corruption: Option<crate::ftd::Corruption>,
    },
    /// Five Torches Deep § Corruptions: ability score damage (at 0 the PC dies).
    AbilityDamaged {
        /// Who.
        combatant: CombatantId,
        /// Which score.
        ability: crate::ftd::Ability,
        /// The damage roll (1d6 per stage).
        roll: Roll,
        /// The score after it (never below 0).
        score_after: i32,
    },
    /// Five Torches Deep, the time dice: the GM rolled them. For the hour of day `hours` is the
    /// new hour (0..=23: the sum, or `start_hour` plus it, wrapping at 24) and the time of day
    /// becomes `hours`:00; for a duration `hours` is the sum and nothing else changes.
    TimeDiceRolled {
        /// The hour of day or a duration.
        purpose: crate::ftd::TimeDicePurpose,
        /// The starting hour the dice counted from, if any.
        start_hour: Option<u32>,
        /// The dice (`Nd6`).
        roll: Roll,
        /// The hour of day, or the duration in hours.
        hours: u32,
    },
    /// Five Torches Deep, the time dice: the GM set the time of day to `hour`:00.
    TimeSet {
        /// The hour (0..=23).
        hour: u32,
    },
    /// Five Torches Deep § Quick Actions: a combatant spent its quick action concentrating on
    /// `effect` — starting it (`maintained` false) or maintaining it this turn (true).
    Concentrating {
        /// Who.
        combatant: CombatantId,
        /// The effect.
        effect: String,
        /// Kept from an earlier turn.
        maintained: bool,
    },
    /// Five Torches Deep § Retreat / § Quick Actions: a concentration ended — halted by a
    /// retreat, lapsed (a turn without the quick action for it), dropped, incapacitated, or
    /// left the battle.
    ConcentrationEnded {
        /// Who.
        combatant: CombatantId,
        /// The effect.
        effect: String,
        /// Why.
        reason: crate::ftd::ConcentrationEnd,
    },
    /// Five Torches Deep § Treasure: a PC gained treasure: `coins` more coins (all weigh the
    /// same: 500 are a load) and `xp` more experience, for the reason `source` says; the roll
    /// of a looted enemy's 1d20 gp per HD.
    TreasureGained {
        /// The PC.
        combatant: CombatantId,
        /// Coins added (gp, sp and cp alike).
        coins: i32,
        /// Experience added.
        xp: u32,
        /// Where it came from.
        source: crate::ftd::TreasureSource,
        /// The loot roll (`Nd20`), for loot.
        roll: Option<Roll>,
    },
    /// Five Torches Deep § Overland Travel, § Overwater Travel: the party traveled (the days'
    /// travel turns and the time passing follow).
    Traveled {
        /// On foot or by water, and how.
        journey: crate::ftd::Journey,
        /// Hours of travel.
        hours: u32,
        /// Miles covered × 100 (hundredths of a mile, rounded down).
        miles_x100: u32,
        /// The pace: miles a day (overland) or an hour (overwater) × 100.
        speed_x100: u32,
    },
}

/// Old-School Essentials and Basic Fantasy (B/X)'s own events, folded by that ruleset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum BxEvent {
    /// Old-School Essentials § Surprise Checks: a side's d6; 1–2 means it is surprised.
    SurpriseRolled {
        /// The side.
        side: Side,
        /// The d6.
        roll: Roll,
        /// Surprised.
        surprised: bool,
    },
    /// Old-School Essentials § Monster Reaction Roll.
    ReactionRolled {
        /// The character who spoke, if any.
        speaker: Option<CombatantId>,
        /// The 2d6.
        roll: Roll,
        /// The speaker's CHA modifier.
        modifier: i32,
        /// 2d6 + modifier.
        total: i32,
        /// The result.
        reaction: crate::ose::Reaction,
        /// The terms of the modifier, named (`protocol/README.md`, "Modifiers"): they sum to `modifier`.
        /// Empty in logs of record format 1 (`protocol/README.md`, "The session's log").
        #[serde(default, with = "crate::format::since_2")]
        #[cfg_attr(feature = "schema", schemars(with = "Vec<crate::roll::Modifier>"))]
        modifiers: Vec<crate::roll::Modifier>,
    },
    /// Old-School Essentials § Combat, Initiative: each acting side's d6 this round (rerolled on
    /// a tie under the `reroll` option, so a side may appear more than once) and the order of
    /// the sides; `simultaneous` when a tie is resolved simultaneously. A `turn_order` follows.
    SideInitiative {
        /// (side, d6), in the order rolled.
        rolls: Vec<(Side, Roll)>,
        /// The sides in acting order.
        order: Vec<Side>,
        /// The round is resolved simultaneously (slain combatants act, then fall at its end).
        simultaneous: bool,
    },
    /// Old-School Essentials § Declare Spells and Melee Movement: a declaration for the next
    /// round (`null`: withdrawn).
    Declared {
        /// Who.
        combatant: CombatantId,
        /// What.
        declaration: Option<crate::ose::Declaration>,
    },
    /// Old-School Essentials § Disrupting Spells: the caster lost initiative and was hit (or
    /// failed a save) before its turn; the spell fails and is lost.
    SpellDisrupted {
        /// The caster.
        combatant: CombatantId,
    },
    /// Old-School Essentials § Spell Casting: the declared spell is cast (its effects are the
    /// GM's to apply in this increment).
    SpellCast {
        /// The caster.
        combatant: CombatantId,
        /// The spell.
        spell: String,
    },
    /// Old-School Essentials § Morale Checks: one 2d6 for the listed monsters, each against its
    /// own rating; those whose check fails flee (`left_battle` follows).
    MoraleRolled {
        /// The 2d6.
        roll: Roll,
        /// The situational adjustment asked for.
        adjustment: i32,
        /// (combatant, its rating, it holds).
        results: Vec<(CombatantId, i32, bool)>,
    },
    /// Old-School Essentials (§ Sequence of Play Per Turn): an exploration turn passed.
    ExplorationTurnPassed {
        /// The exploration turn just ended (1, 2, …).
        turn: u32,
        /// The party rested this turn.
        rested: bool,
        /// Turns since the last rest, this one included (6 or more: −1 to attack and damage,
        /// § Resting).
        since_rest: u32,
    },
    /// Old-School Essentials (§ Light; Basic Fantasy § Light): a light source was lit.
    LightLit {
        /// Who carries it.
        carrier: CombatantId,
        /// Torch or lantern.
        source: crate::ose::LightSource,
        /// The roll of its duration (Basic Fantasy), if any.
        roll: Option<Roll>,
        /// How many exploration turns it burns.
        turns: u32,
    },
    /// Old-School Essentials: a light source burned out at the end of an exploration turn.
    LightBurnedOut {
        /// Who carried it.
        carrier: CombatantId,
        /// Torch or lantern.
        source: crate::ose::LightSource,
    },
    /// Old-School Essentials: a light source was put out before it burned down.
    LightDoused {
        /// Who carried it.
        carrier: CombatantId,
        /// Torch or lantern.
        source: crate::ose::LightSource,
    },
    /// Old-School Essentials § Encounter Distance: how far away the encounter begins.
    EncounterDistanceRolled {
        /// Dungeon, wilderness or waterborne.
        setting: crate::ose::EncounterSetting,
        /// Either side was surprised (wilderness and waterborne: 1d4 × 10 yards).
        surprised: bool,
        /// The dice.
        roll: Roll,
        /// The distance: the roll × 10.
        distance: u32,
        /// `feet` (dungeon) or `yards`.
        unit: String,
    },
    /// Old-School Essentials § Other Combat Issues: a condition set or cleared by the GM.
    OseConditionChanged {
        /// Who.
        combatant: CombatantId,
        /// The condition.
        condition: crate::ose::OseCondition,
        /// Set (true) or cleared (false).
        on: bool,
    },
    /// Basic Fantasy § Retainers: the hiring reaction roll.
    RetainerHireRolled {
        /// The employer.
        employer: CombatantId,
        /// The candidate.
        retainer: CombatantId,
        /// The 2d6.
        roll: Roll,
        /// CHA bonus + the GM's adjustment − the region's penalty.
        modifier: i32,
        /// Roll + modifier.
        total: i32,
        /// The table's result.
        result: crate::bf::Hiring,
        /// Hired: the retainer's loyalty.
        loyalty: Option<i32>,
        /// The terms of the modifier, named (`protocol/README.md`, "Modifiers"): they sum to `modifier`.
        /// Empty in logs of record format 1 (`protocol/README.md`, "The session's log").
        #[serde(default, with = "crate::format::since_2")]
        #[cfg_attr(feature = "schema", schemars(with = "Vec<crate::roll::Modifier>"))]
        modifiers: Vec<crate::roll::Modifier>,
    },
    /// Basic Fantasy § Retainers, Loyalty: a loyalty check (2d6 ≤ loyalty holds).
    LoyaltyChecked {
        /// The retainer.
        retainer: CombatantId,
        /// Its employer.
        employer: CombatantId,
        /// The 2d6.
        roll: Roll,
        /// The GM's adjustment.
        adjustment: i32,
        /// Loyalty before the check.
        loyalty: i32,
        /// The check held.
        holds: bool,
        /// Loyalty after it (+1 on a natural 2 in combat).
        loyalty_after: i32,
        /// Out of combat, a failed check: the retainer leaves the employer's service.
        leaves: bool,
        /// The terms of the `adjustment`, named (`protocol/README.md`, "Modifiers"): they sum
        /// to it. Empty in logs of record formats 1 and 2.
        #[serde(default, with = "crate::format::since_3")]
        #[cfg_attr(feature = "schema", schemars(with = "Vec<crate::roll::Modifier>"))]
        modifiers: Vec<crate::roll::Modifier>,
    },
    /// Basic Fantasy § Character Advancement: experience awarded.
    XpAwarded {
        /// The monsters counted.
        monsters: Vec<CombatantId>,
        /// Total XP to divide.
        total: u32,
        /// One full share.
        share: u32,
        /// (character, XP gained, XP after — capped one short of a second level).
        shares: Vec<(CombatantId, u32, u32)>,
    },
    /// Basic Fantasy § Movement and Encumbrance: a character's armor and load.
    EncumbranceSet {
        /// The character.
        combatant: CombatantId,
        /// Its armor.
        armor: crate::bf::ArmorType,
        /// Its load in pounds (Old-School Essentials: coins of weight).
        load: u32,
        /// Heavily loaded (Old-School Essentials: over the maximum load of 1,600 coins — it
        /// cannot move).
        heavy: bool,
        /// Movement in feet per round.
        movement: i32,
        /// Old-School Essentials, `basic` option: carrying a significant amount of treasure.
        #[serde(default)]
        treasure: bool,
    },
    /// Basic Fantasy § Time and Scale: a timed effect started.
    EffectTimed {
        /// Its id.
        id: u32,
        /// What it is.
        name: String,
        /// On whom.
        combatant: Option<CombatantId>,
        /// Its duration in exploration turns.
        turns: u32,
    },
    /// A timed effect ended at the end of its last exploration turn.
    TimedEffectEnded {
        /// Its id.
        id: u32,
        /// What it was.
        name: String,
        /// On whom.
        combatant: Option<CombatantId>,
    },
    /// Basic Fantasy § Wilderness Adventures, § Dungeon Survival: a day passed.
    DayPassed {
        /// The day just ended (1, 2, …).
        day: u32,
        /// How it was spent.
        march: crate::bf::March,
        /// The terrain.
        terrain: crate::bf::Terrain,
        /// The party's slowest movement per round (feet).
        rate: i32,
        /// Miles covered.
        miles: u32,
        /// (character, had a day's food).
        fed: Vec<(CombatantId, bool)>,
        /// (character, had a day's water).
        watered: Vec<(CombatantId, bool)>,
        /// Forced-march saves failed this day (no more saves until a day of rest).
        march_saves_failed: Vec<CombatantId>,
        /// Old-School Essentials § Travel on the Water: the day on the water, when by water.
        #[serde(default)]
        water: Option<crate::ose::WaterDay>,
        /// § Travel on the Water, River travel: the current's 1d6+6 miles (added downstream,
        /// taken away upstream), when rolled.
        #[serde(default)]
        current: Option<Roll>,
    },
    /// Basic Fantasy § Waterborne Travel: the wind.
    WindRolled {
        /// The d12.
        direction_roll: Roll,
        /// Its direction.
        direction: crate::bf::WindDirection,
        /// The d%.
        conditions_roll: Roll,
        /// Its conditions.
        conditions: crate::bf::WindConditions,
        /// Sailing with the wind: the ships' rate × numerator / denominator.
        sailing: (u32, u32),
        /// Tacking against it (0: not possible).
        tacking: (u32, u32),
    },
    /// Old-School Essentials § Evasion and Pursuit: an evasion attempt. `chance` is the
    /// percentage (0: no chance, 100: automatic); `roll` is the d% when one was needed; on
    /// failure a pursuit occurs.
    EvasionAttempted {
        /// Where.
        setting: crate::ose::EncounterSetting,
        /// The chance of evasion in percent.
        chance: u32,
        /// The d%, if rolled.
        roll: Option<Roll>,
        /// Whether the fleeing side evaded.
        evaded: bool,
    },
    /// Old-School Essentials § Invulnerabilities: the attack hit but cannot harm the target
    /// (damage is not rolled).
    Unharmed {
        /// Who attacked.
        attacker: CombatantId,
        /// The target.
        target: CombatantId,
        /// The attack.
        attack: String,
    },
    /// Old-School Essentials § Subduing (optional rule): an attack without the intent to kill
    /// dealt subdual damage, noted apart from actual damage; when `subdual` reaches the
    /// target's hit points it surrenders (`left_battle` with `how` `surrendered`).
    Subdued {
        /// Who attacked.
        attacker: CombatantId,
        /// The target.
        target: CombatantId,
        /// The attack.
        attack: String,
        /// Subdual damage dealt.
        amount: i32,
        /// The target's subdual damage in all.
        subdual: i32,
    },
    /// Old-School Essentials § Attacks Per Round: a monster made one of its routine attacks
    /// (content `routine`); each may be made once per round, and its standard action is spent
    /// (`action_used`) with the last of them.
    RoutineAttack {
        /// The monster.
        combatant: CombatantId,
        /// The attack.
        attack: String,
    },
    /// Old-School Essentials § Combat Sequence Per Round: a combatant acted in a later phase
    /// than before this round (its side may no longer act in an earlier one).
    PhaseReached {
        /// Who.
        combatant: CombatantId,
        /// The phase.
        phase: crate::ose::OsePhase,
    },
    /// Old-School Essentials § Movement Outside of Melee / § In Melee: a combatant moved.
    OseMoved {
        /// Who.
        combatant: CombatantId,
        /// How far (feet; yards outdoors).
        feet: u32,
        /// Encounter movement, fighting withdrawal or retreat.
        kind: crate::ose::OseMoveKind,
        /// Moved this round in all.
        total: u32,
        /// What it may move this round in all (by `kind`).
        allowed: u32,
    },
    /// Old-School Essentials § In Melee: two foes exchanged a melee attack and are in melee
    /// (until one withdraws or retreats).
    MeleeEngaged {
        /// The attacker.
        attacker: CombatantId,
        /// Its target.
        target: CombatantId,
    },
    /// Old-School Essentials § Combat Sequence Per Round: the current combatant let the rest of
    /// its group act first; `order` is the round's new order (it is now at the end of its
    /// group) and its turn is over without its having acted.
    TurnHeld {
        /// Who.
        combatant: CombatantId,
        /// The round's order from now on.
        order: Vec<CombatantId>,
    },
    /// Old-School Essentials § Evasion and Pursuit: a pursuit began.
    PursuitStarted {
        /// Where.
        setting: crate::ose::EncounterSetting,
        /// The fleeing side's movement rate.
        fleeing_rate: u32,
        /// The pursuers' movement rate.
        pursuer_rate: u32,
        /// Dungeon: the combatants running.
        runners: Vec<CombatantId>,
        /// Waterborne: the distance between the sides.
        distance: Option<u32>,
    },
    /// Old-School Essentials § Evasion and Pursuit: a round (a day in the wilderness) of the
    /// pursuit passed. `closed`: how much the distance shrank (waterborne); `roll`: the
    /// wilderness catch-up d% (50% when the pursuers are faster); `caught`: the pursuit ends
    /// with the fleeing side caught (`pursuit_ended` follows).
    PursuitRoundPassed {
        /// The round (day) just passed: 1, 2, …
        round: u32,
        /// Waterborne: the distance closed this round.
        closed: Option<u32>,
        /// Waterborne: the distance left.
        distance: Option<u32>,
        /// Wilderness: the catch-up d%.
        roll: Option<Roll>,
        /// The fleeing side was caught.
        caught: bool,
    },
    /// Old-School Essentials § Evasion and Pursuit, In the Dungeon: treasure or food dropped;
    /// on 1–3 of the d6 the monsters stop to collect it.
    LureDropped {
        /// Treasure or food.
        lure: crate::pursuit::Lure,
        /// The d6.
        roll: Roll,
        /// The monsters stop (`pursuit_ended` `lured` follows).
        stopped: bool,
    },
    /// Old-School Essentials § Evasion and Pursuit: the pursuit ended.
    PursuitEnded {
        /// How.
        how: crate::pursuit::PursuitEnd,
    },
    /// Basic Fantasy § Character Advancement: a character's experience reached its next level
    /// (by its content `xp_table`); at most one level per adventure (the session).
    LevelRaised {
        /// The character.
        combatant: CombatantId,
        /// Its new level.
        level: i32,
        /// Its experience points now.
        xp: u32,
    },
    /// Basic Fantasy § Waterborne Travel, Gale: the damage to a ship exposed to a gale, 2d8 per
    /// hour sailed.
    GaleDamageRolled {
        /// Hours sailed in the gale.
        hours: u32,
        /// One 2d8 per hour.
        rolls: Vec<Roll>,
        /// Their sum.
        total: i32,
    },
    /// Old-School Essentials § Waterborne Adventuring, Near Gales; Gales and Storms: what a
    /// (near) gale did to a ship.
    GaleStruck {
        /// A near gale.
        near: bool,
        /// The ship is seaworthy.
        seaworthy: bool,
        /// The d% (taking on water, wrecking or sinking), when rolled.
        roll: Option<Roll>,
        /// Gale, seaworthy: the d6 drift direction (1 intended, 2 60° right, 3 120° right, …).
        drift: Option<Roll>,
        /// Gale, unseaworthy, beaching on a dangerous shore: the d6 for a safe harbor (1–2).
        harbor: Option<Roll>,
        /// What befell the ship.
        outcome: crate::ose::GaleOutcome,
    },
    /// Old-School Essentials § Waterborne Adventuring, Wind Conditions (`roll_wind` in an `ose`
    /// session): the day's 2d6 and its row, on the plain table or (the session option
    /// `variable_wind`) § Variable Wind Conditions.
    OseWindRolled {
        /// The 2d6.
        roll: Roll,
        /// Its row.
        wind: crate::ose::OseWind,
        /// The sailing movement multiplier (numerator, denominator); (0, 1): no sailing.
        sailing: (u32, u32),
        /// Movement by oar (variable table, no wind: ⅓ "due to fatigue"); else null (the oars'
        /// rate is unchanged).
        oars: Option<(u32, u32)>,
    },
    /// Old-School Essentials § Stuck Doors, Basic Fantasy § Doors: a character tried to force a
    /// door open (`stuck_door`, `locked_door`) or bend bars (`bars`) — a public roll (neither
    /// text makes it the referee's secret): success on `chance` or less of the die
    /// (`SecretCheck::die`). A failed attempt at a door spoils the party's surprise
    /// (`ose.surprise_spoiled`).
    DoorForced {
        /// Which door check.
        check: crate::ose::SecretCheck,
        /// The character.
        combatant: CombatantId,
        /// The range that succeeds (1 plus the STR bonus, 0 to the die).
        chance: u32,
        /// The die.
        roll: Roll,
        /// Forced open (bent).
        success: bool,
    },
    /// Basic Fantasy § Waterborne Travel (`sail`): a day on the water after the day's wind
    /// (`wind_rolled` just before): under sail the vessel goes its sailing miles times the wind's
    /// multiplier (tacking's when `against_wind`), doubled for a sailed ship that sails through
    /// the night (24 hours: a navigator aboard, not stopping at night); by oar its rowing miles
    /// in the 12-hour day; it goes the farther of the two. A `day_passed` (`march` `water`)
    /// follows.
    Sailed {
        /// The day's wind conditions.
        conditions: crate::bf::WindConditions,
        /// How the vessel went.
        under: crate::bf::Propulsion,
        /// The wind's multiplier applied (numerator, denominator); 1/1 by oar or adrift.
        multiplier: (u32, u32),
        /// Hours under way: 24 through the night under sail, else 12 (0 adrift).
        hours: u32,
        /// Miles covered (rounded down).
        miles: u32,
    },
    /// Old-School Essentials § Drowning (`drowning_check`): the d% against the referee's
    /// chance; `drowned` at or under it (a `slain` follows).
    DrowningRolled {
        /// Who.
        combatant: CombatantId,
        /// The referee's chance, in percent.
        chance: u32,
        /// The d%.
        roll: Roll,
        /// Drowned.
        drowned: bool,
    },
}

/// Why a hidden creature was discovered (Orcus § Stealth).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DiscoveryReason {
    /// It made an attack (its hiding ends at the end of that action).
    Attacked,
    /// It is no longer in three-quarters cover or total concealment from them.
    Exposed,
    /// Their active Perception check met its Stealth total.
    Searched,
    /// The GM revealed it (`reveal`: excessive noise, or the GM's ruling).
    Revealed,
}

/// The events that carry a `modifiers` list (`protocol/README.md`, "Modifiers"), as one
/// pattern binding the list to `$m`: the single place that names them.
macro_rules! with_modifiers {
    ($m:ident) => {
        GameEvent::AttackRolled { modifiers: $m, .. }
            | GameEvent::DamageRolled { modifiers: $m, .. }
            | GameEvent::SaveRolled { modifiers: $m, .. }
            | GameEvent::CheckRolled { modifiers: $m, .. }
            | GameEvent::InitiativeRolled { modifiers: $m, .. }
            | GameEvent::Orcus(OrcusEvent::HideChecked { modifiers: $m, .. })
            | GameEvent::Orcus(OrcusEvent::Searched { modifiers: $m, .. })
            | GameEvent::FiveTorches(FiveTorchesEvent::MoraleChecked { modifiers: $m, .. })
            | GameEvent::Bx(BxEvent::ReactionRolled { modifiers: $m, .. })
            | GameEvent::Bx(BxEvent::RetainerHireRolled { modifiers: $m, .. })
            | GameEvent::Bx(BxEvent::LoyaltyChecked { modifiers: $m, .. })
    };
}

impl GameEvent {
    /// The terms of this event's bonus (`protocol/README.md`, "Modifiers"), for the events that
    /// carry them: attack, damage, save, check and initiative rolls, and the rulesets' checks.
    pub fn modifiers(&self) -> Option<&[crate::roll::Modifier]> {
        match self {
            with_modifiers!(m) => Some(m),
            _ => None,
        }
    }

    /// This event as a record of format 1 holds it: without modifier lists (`crate::format`).
    /// `verify` compares re-decided events so with a log of that format.
    pub fn without_modifiers(mut self) -> GameEvent {
        if let with_modifiers!(m) = &mut self {
            m.clear();
        }
        self
    }

    /// This event as a log of record `format` holds it (`crate::format`): the lists a later
    /// format added are empty — every modifier list before format 2, the loyalty check's before
    /// format 3.
    pub fn in_record_format(mut self, format: u32) -> GameEvent {
        if format < 2 {
            return self.without_modifiers();
        }
        if format < 3
            && let GameEvent::Bx(BxEvent::LoyaltyChecked { modifiers, .. }) = &mut self
        {
            modifiers.clear();
        }
        self
    }

    /// The copy of this event that players and spectators may see: a monster's exact hit points
    /// are removed. `is_monster` tells whether a combatant is one of the GM's monsters.
    pub fn redacted(&self, is_monster: impl Fn(&CombatantId) -> bool) -> GameEvent {
        match self {
            GameEvent::Damaged {
                target,
                cause,
                amount,
                damage_type,
                temp_absorbed,
                hp_after: Some(_),
            } if is_monster(target) => GameEvent::Damaged {
                target: target.clone(),
                cause: cause.clone(),
                amount: *amount,
                damage_type: *damage_type,
                temp_absorbed: *temp_absorbed,
                hp_after: None,
            },
            GameEvent::Healed {
                target,
                roll,
                amount,
                recovery_used,
                hp_after: Some(_),
            } if is_monster(target) => GameEvent::Healed {
                target: target.clone(),
                roll: roll.clone(),
                amount: *amount,
                recovery_used: *recovery_used,
                hp_after: None,
            },
            GameEvent::SecretRolled {
                check,
                combatant,
                chance,
                area,
                turns,
                ..
            } => GameEvent::SecretRolled {
                check: *check,
                combatant: combatant.clone(),
                chance: *chance,
                roll: None,
                success: None,
                area: area.clone(),
                distance: None,
                turns: *turns,
            },
            GameEvent::Chatted { from, to, text: _ } if *to != crate::talk::ChatTo::Table => {
                GameEvent::Chatted {
                    from: from.clone(),
                    to: to.clone(),
                    text: None,
                }
            }
            GameEvent::FreeRolled {
                by,
                dice,
                label,
                visibility,
                roll: _,
            } if *visibility != crate::talk::RollVisibility::Public => GameEvent::FreeRolled {
                by: by.clone(),
                dice: dice.clone(),
                label: label.clone(),
                visibility: *visibility,
                roll: None,
            },
            GameEvent::HpOverridden {
                target,
                change,
                hp_after: Some(_),
                temp_after,
            } if is_monster(target) => GameEvent::HpOverridden {
                target: target.clone(),
                change: *change,
                hp_after: None,
                temp_after: *temp_after,
            },
            GameEvent::TokenReissued { seat, token: _ } => GameEvent::TokenReissued {
                seat: seat.clone(),
                token: None,
            },
            other => other.clone(),
        }
    }

    /// The copy of this event that one player seat sees: whole when it is a whisper to or
    /// from that player, or that player's own `gm` roll; otherwise the public copy.
    pub fn for_player(&self, player: &str, is_monster: impl Fn(&CombatantId) -> bool) -> GameEvent {
        if self.addressed_to(player) {
            self.clone()
        } else {
            self.redacted(is_monster)
        }
    }

    /// Whether a private line or roll is for this player seat (so it sees more than the public).
    pub fn addressed_to(&self, player: &str) -> bool {
        use crate::talk::{ChatTo, RollVisibility, Seat};
        let me = |s: &Seat| matches!(s, Seat::Player(p) if p == player);
        match self {
            GameEvent::Chatted { from, to, .. } => {
                *to != ChatTo::Table && (me(from) || matches!(to, ChatTo::Player(p) if p == player))
            }
            GameEvent::FreeRolled { by, visibility, .. } => {
                *visibility == RollVisibility::Gm && me(by)
            }
            _ => false,
        }
    }

    /// Whether redaction changes this event for the public audience.
    pub fn has_secret(&self, is_monster: impl Fn(&CombatantId) -> bool) -> bool {
        match self {
            GameEvent::Damaged {
                target,
                hp_after: Some(_),
                ..
            }
            | GameEvent::Healed {
                target,
                hp_after: Some(_),
                ..
            } => is_monster(target),
            GameEvent::SecretRolled {
                roll,
                success,
                distance,
                ..
            } => roll.is_some() || success.is_some() || distance.is_some(),
            GameEvent::Chatted { to, text, .. } => {
                *to != crate::talk::ChatTo::Table && text.is_some()
            }
            GameEvent::FreeRolled {
                visibility, roll, ..
            } => *visibility != crate::talk::RollVisibility::Public && roll.is_some(),
            GameEvent::TokenReissued { token, .. } => token.is_some(),
            GameEvent::HpOverridden {
                target,
                hp_after: Some(_),
                ..
            } => is_monster(target),
            _ => false,
        }
    }
}

crate::namespace::namespaced!(
    GameEvent,
    "event",
    event_owners,
    [
        (ThirteenthAge, ThirteenthAgeEvent),
        (Orcus, OrcusEvent),
        (FiveTorches, FiveTorchesEvent),
        (Bx, BxEvent),
    ]
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roll::{Modifiers, Roll};

    fn two_d6(total: i32) -> Roll {
        Roll {
            expr: "2d6".into(),
            dice: Vec::new(),
            modifier: 0,
            total,
        }
    }

    fn loyalty() -> GameEvent {
        GameEvent::Bx(BxEvent::LoyaltyChecked {
            retainer: CombatantId::new("dora"),
            employer: CombatantId::new("eve"),
            roll: two_d6(7),
            adjustment: 1,
            loyalty: 7,
            holds: true,
            loyalty_after: 7,
            leaves: false,
            modifiers: Modifiers::new().with("situational", 1).into_vec(),
        })
    }

    /// An event as each record format holds it: format 1 has no lists, format 2 no loyalty
    /// list, format 3 everything; a list another format already had is kept.
    #[test]
    fn an_event_in_an_older_record_format_has_the_lists_of_that_format_only() {
        let listed = |e: &GameEvent| e.modifiers().map_or(0, <[_]>::len);
        assert_eq!(listed(&loyalty().in_record_format(3)), 1);
        assert_eq!(listed(&loyalty().in_record_format(2)), 0);
        assert_eq!(listed(&loyalty().in_record_format(1)), 0);
        let reaction = GameEvent::Bx(BxEvent::ReactionRolled {
            roll: two_d6(8),
            modifier: 1,
            total: 9,
            reaction: crate::ose::Reaction::Indifferent,
            speaker: None,
            modifiers: Modifiers::new().with("CHA", 1).into_vec(),
        });
        assert_eq!(listed(&reaction.clone().in_record_format(2)), 1);
        assert_eq!(listed(&reaction.in_record_format(1)), 0);
    }
}
