//! Machine-readable reason codes for rejected commands and protocol errors.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a command was refused or a frame was not accepted. Serialized as a snake_case string
/// (e.g. `"not_your_turn"`); the list is part of the protocol and only grows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    // --- frames and connection ---
    /// The frame could not be decoded (bad JSON / bincode, wrong shape).
    MalformedFrame,
    /// The frame exceeded the size limit; the connection is closed.
    FrameTooLarge,
    /// A text frame on a bincode connection or vice versa.
    WrongEncoding,
    /// The first message must be `hello`.
    HelloRequired,
    /// A second `hello` on the same connection.
    AlreadyGreeted,
    /// The protocol version in `hello` is not supported.
    UnsupportedProtocol,
    /// The token names no session seat.
    UnknownToken,
    /// `resume_from` is beyond the session's last event.
    ResumeOutOfRange,
    /// The client fell too far behind the broadcast and was dropped; reconnect with `resume_from`.
    Lagging,
    /// Too many bad frames; the connection is closed.
    Flood,
    /// The session has stopped (its log failed or the server is shutting down).
    SessionUnavailable,
    // --- authorization ---
    /// Spectators send no game commands.
    SpectatorCannotCommand,
    /// A player commanded a combatant it does not control.
    NotYourCombatant,
    /// Only the GM may send this command.
    GmOnly,
    // --- game legality (shared) ---
    /// The command names a combatant that is not in the fight.
    UnknownCombatant,
    /// The battle has not started yet (the GM starts it).
    BattleNotStarted,
    /// The battle has already started.
    BattleAlreadyStarted,
    /// The battle is over.
    BattleOver,
    /// It is not this combatant's turn.
    NotYourTurn,
    /// The action of that type was already used this turn.
    ActionAlreadyUsed,
    /// The combatant has no such attack or power.
    UnknownAttack,
    /// The target is not a legal target for this attack.
    InvalidTarget,
    /// The wrong number of targets for this attack.
    WrongTargetCount,
    /// The combatant is unconscious, dead or slain and cannot act.
    CannotAct,
    /// The combatant is stunned and can take no actions.
    Stunned,
    /// The combatant cannot rally now (already failed this round, or not allowed).
    RallyNotAllowed,
    /// A condition or value outside what the ruleset allows (e.g. unknown condition name).
    InvalidArgument,
    /// The seed was already revealed.
    AlreadyRevealed,
    /// A melee attack (or coup de grace, or stabilize) needs engagement the actor lacks.
    NotEngaged,
    /// The actor is stuck and cannot move or disengage.
    Stuck,
    /// The actor is grabbed and cannot use ranged attacks.
    Grabbed,
    /// The actor is hampered and can only make basic attacks.
    Hampered,
    /// No opportunity attack is open for this attacker against this target.
    NoOpportunity,
    /// Flexible attacks cannot be opportunity attacks.
    FlexibleOnOpportunity,
    /// An opportunity attack must be the basic melee attack.
    NotBasicMelee,
    /// The target is not helpless.
    NotHelpless,
    /// Far away: move nearby first.
    OutOfReach,
    /// The target is not an unconscious ally.
    NotDying,
    /// A limited power already used (until a rest or recharge).
    PowerExpended,
    // --- grid rulesets (Orcus) ---
    /// The path is not a line of adjacent, open squares on the map, or it ends in an occupied
    /// space.
    IllegalPath,
    /// The path costs more squares of movement than the move allows.
    TooFar,
    /// Immobilized, restrained or grappled: no moving from its space.
    Immobilized,
    /// Prone: stand up first.
    Prone,
    /// The target is beyond the power's range or reach.
    OutOfRange,
    /// A wall blocks the line of effect.
    NoLineOfEffect,
    /// No action point to spend, or one already spent (heroes: once per encounter; monsters:
    /// once per round).
    NoActionPoint,
    /// In the surprise round a combatant takes a single action (and spends no action point).
    SurpriseRound,
    /// Orcus: escaping, letting go or maintaining needs a grapple that is not there.
    NotGrappled,
    /// Orcus: a second immediate action before the actor's next turn.
    ImmediateUsed,
    /// Orcus: not enough ammunition for every target of the attack.
    NoAmmunition,
    /// 13th Age: a knock-out blow (`knock_out`) while the GM refuses knock-outs, or by a
    /// monster (only the characters' intent keeps a monster alive, § Unconscious).
    KnockOutRefused,
    /// Five Torches Deep: moving at 0′ speed (completely encumbered, or exhausted).
    NoSpeed,
    /// Five Torches Deep § Stealth: the target is in stealth and cannot be targeted directly.
    TargetHidden,
    /// Orcus § Resting: a second long rest within 24 hours of the last one.
    LongRestTooSoon,
    /// Orcus § Mounted combat: the creature is not a mount (no `mount` in its stat block).
    NotAMount,
    /// Orcus § Mounted combat: a mount is at least one size larger than its rider.
    MountTooSmall,
    /// Orcus § Mounted combat: the rider is already mounted, or the mount already bears a rider.
    AlreadyMounted,
    /// Orcus § Mounted combat: the actor is not mounted.
    NotMounted,
    /// Orcus § Controlling a mount: the mount is not controlled (untrained, intelligent, or the
    /// rider let it act independently).
    MountNotControlled,
    /// Orcus § Mounted combat: a mounted rider moves with its mount, not on its own.
    Mounted,
    /// Orcus elevation: the creature can neither fly nor climb here.
    CannotClimb,
    /// Old-School Essentials § Blindness: a blind character is unable to attack.
    Blinded,
    /// Old-School Essentials § Unstable Surfaces: spells cannot be cast.
    UnstableSurface,
    /// Basic Fantasy § Retainers: the employer has the most retainers allowed (4 ± CHA bonus)
    /// or the candidate is above half the employer's level.
    RetainerLimit,
    /// Basic Fantasy § Retainers: the combatant is no one's retainer.
    NotARetainer,
    /// Basic Fantasy § Carrying Capacity: the load is above the heavy-load capacity.
    Overloaded,
    /// Orcus § Weapon properties, Loading (swift): attacking with a weapon not reloaded since
    /// its last attack.
    NotLoaded,
    /// Orcus § Targets, Allies and enemies: naming oneself as one's own ally, or declining to
    /// be the ally of a creature one is not an ally of.
    NotAlly,
    /// Old-School Essentials § Subduing: only melee (blunt) blows may subdue.
    CannotSubdue,
    /// Orcus § Deter: the actor was deterred from this kind of action until the end of its next
    /// turn; or, as the target of Deter or Unnerve, it already resisted this actor's
    /// intimidation this encounter.
    Deterred,
    /// Five Torches Deep § Quick Actions: the actor already concentrates on another effect
    /// (end it first), or already maintained its concentration this turn.
    AlreadyConcentrating,
    /// Five Torches Deep: the actor concentrates on nothing.
    NotConcentrating,
    /// Old-School Essentials § Bombing: the bomber does not fly (content `flies`), or is
    /// higher than 300′.
    CannotBomb,
    /// Old-School Essentials § Combat Sequence Per Round: an action of a phase its side has
    /// already passed this round (movement, missiles, spells, melee).
    PhasePassed,
    /// Old-School Essentials § In Melee: moving while in melee without a declared fighting
    /// withdrawal or retreat.
    InMelee,
    /// Old-School Essentials § Spell Casting, No movement: casting after moving this round, or
    /// moving after casting.
    NoMoveAndCast,
    /// Old-School Essentials: `ose_hold` after acting this turn, or with no one of its group
    /// left to act after it.
    CannotHold,
    /// Orcus, condition dazed: a dazed creature takes a single action on its turn (a second one
    /// is refused) and no immediate actions.
    Dazed,
    /// Orcus § Unwilling movement: a chosen forced path that the power does not allow (no
    /// push, pull or shunt; a creature not among the targets; too many squares; a step not to
    /// an adjacent square, not farther (push, shunt) or closer (pull), off the map, into a wall
    /// or a creature).
    InvalidForcedPath,
    /// Orcus § Mounting and dismounting: a `rider_choices` landing square not within 1 square
    /// of the mount's space (or inside it).
    InvalidLanding,
    /// Old-School Essentials § Evasion and Pursuit: no pursuit is under way.
    NoPursuit,
    /// Old-School Essentials § Evasion and Pursuit: a pursuit is already under way.
    PursuitUnderWay,
    /// Old-School Essentials § Movement Outside of Melee, Maximum duration: a combatant that
    /// moved at its encounter rate in 60 rounds of the encounter moves no further at that rate.
    MaxDuration,
    /// Orcus § Unnerve: the actor has surrendered and takes no actions (nor immediate actions)
    /// until the battle ends.
    Surrendered,
    /// Old-School Essentials § Missile Attacks: "possible when opponents are more than 5′ from
    /// one another" — a missile attack by a combatant in melee.
    MissileInMelee,
    /// Old-School Essentials § Targets Behind Cover: an attack at a target the GM put behind
    /// complete cover ("the target cannot be hit").
    CompleteCover,
    /// Old-School Essentials § Wilderness Adventuring, Forced March: "After a forced march,
    /// characters must rest for a full day" — a day of travel before that day of rest.
    RestRequired,
    /// Orcus § Maintain: "You cannot maintain an effect that has ended" — `maintain` or
    /// `end_effect` naming an effect or zone that is over.
    EffectEnded,
    /// Orcus § Weapon properties, Side Weapon: an attack made with the side weapon by a hero
    /// without one, or with a power without the Weapon tag.
    NoSideWeapon,
    /// Old-School Essentials § Optional Rule: Encumbrance, Maximum load: "Characters carrying
    /// more than this [1,600 coins] cannot move" — an `ose_move`, or a day of travel, by such a
    /// character.
    CannotMove,
    /// Old-School Essentials § Optional Rule: Encumbrance: `set_encumbrance` in an `ose` session
    /// whose option `encumbrance` is `none` (the rule is not in use).
    EncumbranceOff,
    /// Old-School Essentials: a command of an optional rule the session has not adopted — an
    /// `ose_morale` while the option `morale` is off (§ Morale (Optional Rule)), an `attack`
    /// with `knock_out: true` while `subduing` is off (§ Subduing (Optional Rule)).
    OptionOff,
    /// Orcus § Secondary attacks: an attack with a power whose secondary attack targets "one
    /// creature (or enemy) of the user's choice within N" of the primary target, without
    /// `secondary_target` while such a creature exists.
    SecondaryTargetRequired,
    /// Orcus § Secondary attacks: a `secondary_target` the power does not allow — it makes no
    /// such choice, or the creature is the user, a primary target, out of the fight, not an
    /// enemy (for "one enemy") or farther than N squares from every primary target.
    InvalidSecondaryTarget,
    /// Orcus § Grapple, "Requirements You have one or more hands free": a hero whose weapon,
    /// side weapon and shield fill both hands.
    NoFreeHand,
    /// Orcus § Stealth: hiding needs three-quarters cover or total concealment from an enemy
    /// that can sense the hider (at the end of its move), and an enemy to hide from.
    NoCover,
    /// Orcus § Stealth: a creature searches actively once per turn.
    AlreadySearched,
    // --- the server's guards (HTTP and WebSocket) ---
    /// `POST /sessions` without the operator key (`Authorization: Bearer <key>`), or with a
    /// wrong one (HTTP 401).
    Unauthorized,
    /// Too many requests or messages in too short a time: session creations per client
    /// address (HTTP 429), or messages per second on a connection (the message is dropped).
    RateLimited,
    /// The server holds as many live sessions as it is allowed to (HTTP 503).
    TooManySessions,
    /// The session, or the token, already has as many connections as it is allowed to
    /// (connection closed).
    TooManyConnections,
    // --- rulesets ---
    /// A command of another ruleset's family (an Orcus command in a 13th Age session, say):
    /// refused by one check before any ruleset sees it.
    WrongRuleset,
    // --- GM tools ---
    /// The token was revoked: the GM issued a new one for its seat (`reissue_token`). Its
    /// connections are closed with this code, and a `hello` with it is refused.
    TokenRevoked,
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::String(s)) => f.write_str(&s),
            _ => write!(f, "{self:?}"),
        }
    }
}

/// A refusal with its code and a human-readable reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Rejection {
    /// Machine-readable reason.
    pub code: ErrorCode,
    /// Human-readable explanation naming the rule or input at fault.
    pub message: String,
}

impl Rejection {
    /// Builds a rejection.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}
