//! Commands: what clients ask the server to do. Each is authorized by role, then decided by the
//! session's ruleset; an accepted command becomes logged events, a refused one a `Rejected`.

use crate::ids::CombatantId;
use serde::{Deserialize, Serialize};

/// A game command. Commands that act for a combatant name it as `actor`; a player may only name
/// combatants it controls. Commands without an actor are GM commands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
// The schema describes the flat JSON form: the family wrappers' variants become the family
// enums themselves (`crate::schema::flatten_families`).
#[cfg_attr(
    feature = "schema",
    schemars(rename = "Command", transform = crate::schema::flatten_families)
)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum Command {
    /// GM: roll initiative for everyone and begin round 1.
    StartBattle,
    /// Attack with one of the actor's attacks against the listed targets.
    Attack {
        /// Who attacks.
        actor: CombatantId,
        /// The attack's id in the actor's stat block.
        attack: String,
        /// The targets, in the order they are attacked.
        targets: Vec<CombatantId>,
        /// How the attack is made; `standard` when absent (JSON).
        #[serde(default)]
        mode: AttackMode,
        /// 13th Age § Unconscious: the attacking hero means to keep its targets alive, so a
        /// monster this attack drops to 0 hp is knocked out instead of slain (refused with
        /// `knock_out_refused` while the GM refuses knock-outs); `false` when absent (JSON).
        #[serde(default)]
        knock_out: bool,
        /// Orcus § Unwilling movement: the user's choice of the squares each pushed, pulled or
        /// shunted target is moved through (a target not named: Fray's straightest path);
        /// `[]` when absent (JSON).
        #[serde(default)]
        forced: Vec<crate::grid::ForcedPath>,
        /// Orcus § Weapon properties, Side Weapon: the weapon a Weapon power is made with —
        /// `side` for the hero's side weapon; the main weapon when absent (JSON).
        #[serde(default)]
        weapon: Option<WeaponHand>,
        /// Orcus § Secondary attacks: the creature of the user's choice a secondary attack
        /// against "one creature (or enemy) within N" of a primary target is made against —
        /// required when such a creature exists, checked before any die; absent (JSON) when the
        /// power makes no such choice.
        #[serde(default)]
        secondary_target: Option<CombatantId>,
    },
    /// Spend the move action to move: engage an enemy, or move (while engaged: away, drawing
    /// opportunity attacks), optionally far away from the fight.
    /// Five Torches Deep: the movement action — close to `engage`, far away, or (neither) at
    /// ranged distance; no opportunity attacks.
    Move {
        /// Who moves.
        actor: CombatantId,
        /// The enemy to engage, if any.
        #[serde(default)]
        engage: Option<CombatantId>,
        /// Move far away (two moves from the enemies) instead of staying nearby.
        #[serde(default)]
        far_away: bool,
    },
    /// 13th Age stabilize: a DC 10 Wisdom check (d20 + Wis + level) to stop an unconscious ally
    /// dying; a standard action, or a quick action on 25+.
    /// Five Torches Deep: an ally's WIS check (DC 11, proficiency with `medicine`) to stabilize
    /// an incapacitated PC, then its injury roll; an active action during the battle.
    Stabilize {
        /// Who helps.
        actor: CombatantId,
        /// The unconscious ally.
        target: CombatantId,
    },
    /// 13th Age § Grabbed / § Free Actions: the grabber lets go of a creature it grabs, as a free
    /// action (on its turn or, as the GM allows, out of turn). If it then moves away this turn it
    /// draws no opportunity attack from the creature it let go.
    LetGo {
        /// The grabber.
        actor: CombatantId,
        /// The creature it lets go.
        target: CombatantId,
    },
    /// 13th Age rally: a standard action spending a recovery (a later rally needs an 11+ save).
    Rally {
        /// Who rallies.
        actor: CombatantId,
    },
    /// 13th Age ready: a standard action to hold a standard or move action; before its next
    /// turn the actor may take it out of turn (any command of that kind), acting just before
    /// the combatant whose turn it is, and its place in the order moves there.
    Ready {
        /// Who readies.
        actor: CombatantId,
        /// The action held (`standard` or `move`).
        action: crate::event::ActionKind,
    },
    /// End the actor's turn (end-of-turn ongoing damage and saves follow).
    EndTurn {
        /// Whose turn ends.
        actor: CombatantId,
    },
    /// GM: end the battle now (e.g. the fight is abandoned); the seed is revealed.
    EndBattle,
    /// A hero's quick rest after the battle (13th Age § Quick Rests; sessions with the `rests`
    /// option): spend recoveries (a staggered hero must), regain once-per-battle powers, roll
    /// to recharge recharge powers. Once per hero.
    QuickRest {
        /// The hero.
        actor: CombatantId,
        /// Recoveries to spend.
        recoveries: u32,
    },
    /// GM: full heal-up (13th Age § Full Heal-ups): hit points, recoveries, powers and lasting
    /// wounds reset for every hero.
    FullHealUp,
    /// GM: end the session (with the `rests` option; the seed is revealed).
    EndSession,
    /// GM: after a battle of a session with later battles (`rests` option), the next battle's
    /// monsters come in: the last battle's monsters leave, the heroes keep their hit points,
    /// recoveries, expended powers and lasting wounds, and regain once-per-battle powers. The GM
    /// then starts it (`start_battle` or `start_ambush`).
    NextBattle,
    /// GM: the party flees (13th Age § Flee; every player agreed): the battle ends, the
    /// fallen are carried away, and the party suffers a campaign loss.
    Flee,
    /// GM (Orcus § Surprise round): start with a surprise round in which only combatants not
    /// listed act, each with a single action (a standard action, or a move or swift action in
    /// its place); then normal rounds follow.
    /// Five Torches Deep (an ambush): the unsurprised act in a surprise round with full turns.
    StartSurprise {
        /// The surprised combatants.
        surprised: Vec<CombatantId>,
    },
    /// GM (Orcus § Initiative): set the order of battle — every combatant in the order once —
    /// e.g. to settle ties differently from Fray's default rule.
    ReorderInitiative {
        /// The new order.
        order: Vec<CombatantId>,
    },
    /// GM: grant temporary hit points (13th Age § Temporary Hit Points: they don't stack; the
    /// higher amount stays).
    GrantTempHp {
        /// Who gains them.
        target: CombatantId,
        /// How many.
        amount: i32,
    },
    /// GM (13th Age § Unconscious): allow or refuse the heroes' knock-out blows (`attack` with
    /// `knock_out`) — whether "the attack seems like a potentially humane blow" is the GM's
    /// judgement. Allowed at the start of a session.
    KnockOuts {
        /// Whether knock-out blows are allowed from now on.
        allowed: bool,
    },
    /// Five Torches Deep § Stealth: an active action — a DEX check (proficiency with
    /// `stealth`) against the GM's stealth DC; success hides the actor.
    Hide {
        /// Who hides.
        actor: CombatantId,
    },
    /// GM: a hidden combatant is found (its stealth ends).
    Reveal {
        /// Who.
        combatant: CombatantId,
    },
    /// 13th Age's own commands (wire: this variant's tag, then the inner tag; JSON: the inner
    /// command alone, as if it were a variant of this enum).
    ThirteenthAge(ThirteenthAgeCommand),
    /// Orcus's own commands (wire: this variant's tag, then the inner tag; JSON: the inner
    /// command alone, as if it were a variant of this enum).
    Orcus(OrcusCommand),
    /// Five Torches Deep's own commands (wire: this variant's tag, then the inner tag; JSON: the inner
    /// command alone, as if it were a variant of this enum).
    FiveTorches(FiveTorchesCommand),
    /// Old-School Essentials and Basic Fantasy (B/X)'s own commands (wire: this variant's tag, then the inner tag; JSON: the inner
    /// command alone, as if it were a variant of this enum).
    Bx(BxCommand),
    /// GM (GM tools, rewind): set the fight back to the state it had after event `seq`, the last
    /// event of a tick (0: before the first event). The log stays append-only: a `rewound` event
    /// is appended and the state that follows is the state after `seq`. The dice do not rewind:
    /// every roll after a rewind is a new draw from where the streams stand. Refused with
    /// `invalid_argument` when `seq` is not the end of a tick before the last event, and with
    /// `already_revealed` once the seed is revealed (the later dice would be known).
    RewindTo {
        /// The event to go back to: the last event of an earlier tick, or 0.
        seq: u64,
    },
    /// The GM or a player (GM tools, table talk): a chat line — to the table, to the GM (from
    /// the GM: a note only the GM sees), or whispered to one player seat (that player, the
    /// sender and the GM read it; everyone else, the public log included, sees that a whisper
    /// was sent, not its text). At most 500 characters; not empty.
    Chat {
        /// The line.
        text: String,
        /// Who it is for; `table` when absent (JSON).
        #[serde(default)]
        to: crate::talk::ChatTo,
    },
    /// The GM or a player (GM tools, free rolls): a roll in dice notation outside the rules
    /// (`2d6+1`, `4d6kh3`, as in `protocol/README.md` § Dice notation), logged and verifiable like
    /// the rules' rolls. `public` rolls come from the session's stream; `gm` (the roller and
    /// the GM see the result) and `blind` (only the GM) from the secret stream.
    FreeRoll {
        /// The dice expression.
        dice: String,
        /// What it is for (at most 100 characters); none when absent (JSON).
        #[serde(default)]
        label: Option<String>,
        /// Who sees the result; `public` when absent (JSON).
        #[serde(default)]
        visibility: crate::talk::RollVisibility,
    },
    /// GM (GM tools, monsters played by the server): hand combatants to the ruleset's built-in
    /// policy (the demo bots' play), or take them back. While handed over, the server sends
    /// their commands itself through the same decide path as the GM's, logged as the GM's with
    /// the client `auto`. Name combatants, or a whole `side`, or both; refused with
    /// `invalid_argument` in a ruleset without a built-in policy.
    AutoPlay {
        /// The combatants; `[]` when absent (JSON).
        #[serde(default)]
        combatants: Vec<CombatantId>,
        /// Every combatant of this side too; none when absent (JSON).
        #[serde(default)]
        side: Option<crate::ids::Side>,
        /// `true` hands them to the server; `false` takes them back.
        on: bool,
    },
    /// GM (GM tools, seats): give a combatant to a player seat, which then commands it (and no
    /// other seat does), or — `seat` null — take it back, so that only the GM commands it.
    AssignCombatant {
        /// The combatant.
        combatant: CombatantId,
        /// The player seat, by name; none (JSON: absent or null) for the GM alone.
        #[serde(default)]
        seat: Option<String>,
    },
    /// GM (GM tools, seats): a new token for a player seat (a player who lost their link).
    /// The old token is revoked: its connections are closed with `token_revoked`, and a
    /// `hello` with it is refused with that code. The new token reaches the GM only, in the
    /// `token_reissued` event.
    ReissueToken {
        /// The player seat, by name.
        seat: String,
    },
    /// GM override (every ruleset): set a combatant's hit points and, if given, its temporary
    /// hit points — a correction, not damage or healing, so it changes no status. A combatant
    /// in the fight keeps 1 to its maximum; one that is down (unconscious, dying, dead) is
    /// refused (the rules' healing and revival bring it back); temporary hit points are ≥ 0.
    SetHp {
        /// Whose.
        target: CombatantId,
        /// The hit points.
        hp: i32,
        /// The temporary hit points; unchanged when absent (JSON).
        #[serde(default)]
        temp_hp: Option<i32>,
    },
    /// GM override (every ruleset that tracks conditions): `target` gains `condition` (its wire
    /// name, e.g. `dazed`, `prone`, `blind`) for `duration`; the ruleset's own rules then run it
    /// (saves, the end of a turn, the end of the battle). A condition the session's ruleset
    /// does not know is refused with `invalid_argument` naming the valid ones.
    AddCondition {
        /// Who gains it.
        target: CombatantId,
        /// The condition, by its wire name.
        condition: String,
        /// How long it lasts (13th Age and Orcus); the end of the battle when absent (JSON).
        #[serde(default)]
        duration: Option<crate::event::EffectDuration>,
        /// Who caused it (whose turn a duration counts, the marker of `marked`); the target
        /// itself when absent (JSON).
        #[serde(default)]
        source: Option<CombatantId>,
    },
    /// GM override: every instance of `condition` on `target` ends now.
    RemoveCondition {
        /// Whose.
        target: CombatantId,
        /// The condition, by its wire name.
        condition: String,
    },
    /// GM override: a combatant leaves the fight and the order of battle (removed from the
    /// session's state); when it is its turn, the turn ends and the next one begins.
    RemoveCombatant {
        /// Who leaves.
        combatant: CombatantId,
    },
    /// GM override: a combatant's initiative result becomes `initiative` and the order of
    /// battle is sorted again as the ruleset sorts it (refused where initiative is per side).
    SetInitiative {
        /// Whose.
        combatant: CombatantId,
        /// The new initiative result.
        initiative: i32,
    },
    /// GM override (reinforcements): a new combatant joins the fight, a copy of the stat block
    /// `template` of the session's encounter (any battle's), with a fresh id (`<template>-<n>`);
    /// it joins the order of battle as the ruleset says (rolling initiative where combatants
    /// roll their own). `square` is where it stands (Orcus, required there; elsewhere absent).
    AddCombatant {
        /// The stat block's content id (a combatant's `template`).
        template: String,
        /// Where its space starts (Orcus).
        #[serde(default)]
        square: Option<crate::grid::Square>,
    },
}

/// 13th Age's own commands: a command of another ruleset's family is refused with
/// `wrong_ruleset` before any ruleset sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ThirteenthAgeCommand {
    /// GM: start with an ambush (13th Age § Ambushes and Surprise): the ambushing side rolls
    /// initiative; only `ambusher` and its highest-initiative ally act in the ambush round; then
    /// the ambushed side rolls and normal rounds follow.
    StartAmbush {
        /// The nominated ambusher.
        ambusher: CombatantId,
        /// Whether the escalation die advances to 1 after the ambush round (the GM's choice).
        #[serde(default)]
        advance_escalation: bool,
    },
    /// 13th Age disengage check: a move action; on an 11+ save (−1 per foe beyond the first)
    /// the actor leaves every engagement without drawing opportunity attacks.
    Disengage {
        /// Who disengages.
        actor: CombatantId,
    },
    /// 13th Age intercept: an unengaged combatant stops an enemy that just moved this turn and
    /// engages it (a free action on the mover's turn; the GM rules on "moving past").
    Intercept {
        /// Who intercepts.
        actor: CombatantId,
        /// The enemy that moved.
        mover: CombatantId,
    },
    /// 13th Age delay: at the start of its turn, before any action, the actor steps out of the
    /// order to act later.
    Delay {
        /// Who delays.
        actor: CombatantId,
    },
    /// 13th Age delayed action: a delaying combatant acts right after the current turn; its
    /// place in the order moves there for the rest of the battle.
    Undelay {
        /// Who acts.
        actor: CombatantId,
    },
    /// 13th Age healing potion: a standard action; the drinker (the actor or an ally next to
    /// it, such as a dying one) spends a recovery and, if dying, gets back on its feet.
    UsePotion {
        /// Who gives or drinks it.
        actor: CombatantId,
        /// Who drinks it.
        target: CombatantId,
    },
    /// 13th Age fight in spirit: a PC out of the fight (unconscious or dead) inspires an ally —
    /// +1 to attacks or a defense until the end of the ally's next turn (+2 the first time in a
    /// battle); once a round per PC.
    FightInSpirit {
        /// The PC out of the fight.
        actor: CombatantId,
        /// The ally.
        ally: CombatantId,
        /// What improves.
        stat: crate::event::BonusStat,
    },
    /// GM: the escalation die (13th Age § Escalation Die): hold it when the heroes avoid the
    /// fight, resume it, or reset it to 0 when combat virtually ceases.
    Escalation {
        /// What to do.
        action: EscalationAction,
    },
    /// GM: the universal combat modifier (13th Age § Combat Modifiers): +2 for advantageous or
    /// −2 for adverse circumstances, to attacks or a defense, until the end of the target's next
    /// turn.
    SituationalModifier {
        /// Who is affected.
        target: CombatantId,
        /// What changes.
        stat: crate::event::BonusStat,
        /// +2 or −2.
        amount: i32,
    },
    /// GM: a teleport effect (13th Age § Teleportation) moves `target` at once: it leaves every
    /// engagement and draws no opportunity attacks, escapes grabs and lets go of those it grabs
    /// (stuck does not stop it), and engages `engage` or goes far away. The power that causes it
    /// (and any opportunity attacks its casting draws) is the table's.
    Teleport {
        /// Who teleports.
        target: CombatantId,
        /// The enemy it arrives next to, if any.
        #[serde(default)]
        engage: Option<CombatantId>,
        /// Arrive far away from the fight.
        #[serde(default)]
        far_away: bool,
    },
}

/// Orcus's own commands: a command of another ruleset's family is refused with
/// `wrong_ruleset` before any ruleset sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OrcusCommand {
    /// Orcus: move along a path of adjacent squares (the squares entered, in order): Walk (a
    /// move action, up to speed), Run (speed + 2; −5 to attacks and off-guard until the start of
    /// the next turn) or Step (1 square, provokes nothing).
    MoveTo {
        /// Who moves.
        actor: CombatantId,
        /// The squares entered, in order; the last is where its space ends up.
        path: Vec<crate::grid::Square>,
        /// How; `walk` when absent (JSON).
        #[serde(default)]
        mode: crate::grid::MoveMode,
        /// Orcus § Stealth: at the end of the move, try to hide (a Stealth check against the
        /// passive Perception of each enemy that can sense the mover; −5 after 3 or more
        /// squares, −10 after a run). Needs three-quarters cover or total concealment from an
        /// enemy at the path's end (`no_cover`).
        #[serde(default)]
        hide: bool,
    },
    /// Orcus Stand Up: a move action that ends prone.
    StandUp {
        /// Who stands up.
        actor: CombatantId,
    },
    /// Orcus Full Defense: a standard action; +2 to every defense until the start of the actor's
    /// next turn.
    FullDefense {
        /// Who.
        actor: CombatantId,
    },
    /// Orcus § Action points: spend an action point on the actor's turn for one more standard,
    /// move or swift (`quick`) action.
    SpendActionPoint {
        /// Who.
        actor: CombatantId,
        /// The action gained.
        action: crate::event::ActionKind,
    },
    /// Orcus: a near or far area attack. `origin` is the square the area starts from: the
    /// centre of a far burst, the north-west square of a blast; absent for a near burst (centred
    /// on the actor); `origin_height` raises a far area's origin off the ground. `targets` chooses among the creatures in the area when the power picks
    /// (one enemy, any, …); otherwise every creature it targets in the area is attacked.
    AreaAttack {
        /// Who attacks.
        actor: CombatantId,
        /// The power's id.
        attack: String,
        /// Where the area starts.
        #[serde(default)]
        origin: Option<crate::grid::Square>,
        /// Chosen targets, when the power lets the actor choose.
        #[serde(default)]
        targets: Vec<CombatantId>,
        /// § Unwilling movement: the user's choice of each target's forced path, as for
        /// `attack`; `[]` when absent (JSON).
        #[serde(default)]
        forced: Vec<crate::grid::ForcedPath>,
        /// Elevation (an interpretation): the height of a far area's origin, in squares above
        /// the ground (0 to 20; absent: on the ground). Only for far bursts and blasts.
        #[serde(default)]
        origin_height: Option<i32>,
        /// Orcus § Side Weapon: the weapon a Weapon power is made with, as for `attack`.
        #[serde(default)]
        weapon: Option<WeaponHand>,
        /// Orcus § Secondary attacks: the creature chosen for a secondary attack against "one
        /// creature (or enemy) of the user's choice within N" of a primary target, as for
        /// `attack`; absent (JSON) when the power makes no such choice.
        #[serde(default)]
        secondary_target: Option<CombatantId>,
    },
    /// Orcus § Charge: walk up to speed straight toward `target` (every square of `path` brings
    /// the charger closer), then a basic melee attack (+1 after at least 2 squares); the turn's
    /// other actions are lost.
    Charge {
        /// Who charges.
        actor: CombatantId,
        /// The enemy.
        target: CombatantId,
        /// The squares walked (may be empty when already in reach).
        #[serde(default)]
        path: Vec<crate::grid::Square>,
    },
    /// Orcus § Bull Rush: Strength vs Fortitude against an adjacent enemy; on a hit it is pushed
    /// 1 square to `push_to` (its new north-west square, farther from the attacker), and the
    /// attacker may step into the space it left (`follow`).
    BullRush {
        /// Who shoves.
        actor: CombatantId,
        /// The enemy.
        target: CombatantId,
        /// Where the target is pushed.
        push_to: crate::grid::Square,
        /// Step into the vacated square afterwards.
        #[serde(default)]
        follow: bool,
    },
    /// Orcus § Grapple: Strength vs Reflex against an adjacent enemy; on a hit it is grappled
    /// (immobilized) until it escapes, the grappler moves away or lets go (`let_go`), or the
    /// grappler fails to maintain it (a swift action each later turn, `maintain`).
    Grapple {
        /// Who grapples.
        actor: CombatantId,
        /// The enemy.
        target: CombatantId,
    },
    /// Orcus § Escape a Grapple: a move action; Acrobatics vs the grappler's Reflex or
    /// Athletics vs its Fortitude; on a success the grapple ends and the escaper may step 1
    /// square (`step_to`).
    Escape {
        /// Who escapes.
        actor: CombatantId,
        /// `acrobatics` or `athletics`.
        skill: EscapeSkill,
        /// Where to step after escaping.
        #[serde(default)]
        step_to: Option<crate::grid::Square>,
    },
    /// Orcus § Maintain: spend the action the effect asks for (a swift action for a grapple) to
    /// keep it until the end of the actor's next turn.
    Maintain {
        /// Who maintains.
        actor: CombatantId,
        /// The effect, by id.
        effect: u32,
    },
    /// Orcus skill actions (§ Skill actions): `feint` (encounter; Bluff vs the adjacent enemy's
    /// passive Insight: it is off-guard to the actor until the end of the actor's next turn),
    /// `grant_save` (Heal DC 15 on an adjacent ally: it saves at once against `effect`, or its
    /// oldest save-ends effect), `rally_ally` (Heal DC 10 on an adjacent ally: it rallies without
    /// using an action), `create_diversion` (encounter; Bluff vs every enemy's passive Insight
    /// in line of sight: the log says whom the actor diverted for a Stealth check the GM rules),
    /// `deter` (Intimidate vs the enemy's Will +10, +5 more if `foreign`: it cannot take the
    /// `forbid` action, standard by default, until the end of its next turn), `unnerve`
    /// (Intimidate vs Will +10 (+5 if `foreign`) of every staggered enemy in line of sight: it
    /// surrenders). A failed Deter or Unnerve leaves the target immune to the actor's Deter and
    /// Unnerve for the encounter. Each a standard action; `target` is ignored by the two
    /// all-enemies actions.
    SkillAction {
        /// Who acts.
        actor: CombatantId,
        /// Which skill action.
        action: SkillActionKind,
        /// The enemy or ally it is aimed at.
        target: CombatantId,
        /// For `grant_save`: the effect to save against.
        #[serde(default)]
        effect: Option<u32>,
        /// For `deter`: the action the target cannot take (default `standard`).
        #[serde(default)]
        forbid: Option<crate::event::ActionKind>,
        /// For `deter` and `unnerve`: the actor speaks no language the targets understand
        /// (+5 to their Will; the players' and GM's call, as Fray tracks no languages).
        #[serde(default)]
        foreign: bool,
        /// For `create_diversion` (§ Stealth; Create Diversion's success "you have the momentary
        /// diversion you need to attempt a Stealth check while people are aware of you"): try
        /// to hide at the end of the action without having moved; the enemies whose passive
        /// Insight beat the Bluff still see the actor.
        #[serde(default)]
        hide: bool,
    },
    /// GM (Orcus § Resting): time passes outside the battle — the session clock advances by
    /// `minutes` (1..=10080). Short and long rests advance it on their own.
    PassTime {
        /// Minutes that pass.
        minutes: u32,
    },
    /// Orcus § Mounted combat, Mounting and dismounting: a move action; the actor mounts an
    /// adjacent willing creature (a `mount` in its stat block) at least one size larger.
    /// `control`: the rider controls the mount (§ Controlling a mount; trained mounts only).
    Mount {
        /// The rider.
        actor: CombatantId,
        /// The mount.
        mount: CombatantId,
        /// Control the mount (its initiative follows the rider's) or let it act independently.
        #[serde(default)]
        control: bool,
    },
    /// Orcus § Mounting and dismounting: a move action; the rider dismounts into an adjacent,
    /// unoccupied square `to`.
    Dismount {
        /// The rider.
        actor: CombatantId,
        /// Where it lands.
        to: crate::grid::Square,
    },
    /// Orcus § Controlling a mount: the rider gives up an action so that its controlled mount
    /// takes the same action (the mount then acts with its own commands on the rider's turn).
    CommandMount {
        /// The rider.
        actor: CombatantId,
        /// The action given up and granted to the mount.
        action: crate::event::ActionKind,
    },
    /// Orcus elevation: a move action to fly (fly speed) or climb (a climbable `^` square,
    /// climb speed or an Athletics check against the map's `climb_dc`) up or down to `height`
    /// squares above the ground.
    MoveAloft {
        /// Who.
        actor: CombatantId,
        /// The new height in squares (0: the ground).
        height: i32,
    },
    /// Orcus (§ Weapon properties, Loading (swift)): reload a fired weapon power (a swift
    /// action) so that it can attack again.
    Reload {
        /// Who reloads.
        actor: CombatantId,
        /// The power (its weapon) to reload.
        power: String,
    },
    /// Orcus (§ Targets, Allies and enemies): for its next attack or area attack, exactly
    /// `allies` count as the actor's allies (every other creature as an enemy). No action.
    ChooseAllies {
        /// The power's user.
        actor: CombatantId,
        /// Who counts as its allies (never itself).
        allies: Vec<CombatantId>,
    },
    /// Orcus (§ Targets, Allies and enemies): the actor chooses not to count as `user`'s ally
    /// (so as its enemy) for `user`'s next attack or area attack. No action.
    DeclineAlly {
        /// The creature declining.
        actor: CombatantId,
        /// Whose action.
        user: CombatantId,
    },
    /// Orcus (§ Attack roll, Choosing to be hit): the actor chooses to be hit by `attacker`'s
    /// next attack against it, with no attack roll. No action.
    ChooseToBeHit {
        /// The creature choosing to be hit.
        actor: CombatantId,
        /// The attacker.
        attacker: CombatantId,
    },
    /// Orcus (§ Mounting and dismounting): the rider's standing choices for falls and pushes,
    /// kept until changed. No action.
    RiderChoices {
        /// The rider (mounted or not yet).
        actor: CombatantId,
        /// Moved against its will while mounted, it takes its mount along (the mount is moved
        /// the same way); `false`: it falls off and is moved.
        move_mount: bool,
        /// Where it lands when it falls off (a failed save when knocked prone, its mount
        /// knocked prone or dropping): a square relative to the mount's north-west square,
        /// within 1 square of the mount's space (`{"x":-1,"y":0}`: west of it); when that
        /// square is not free, or `null`, Fray chooses.
        #[serde(default)]
        landing: Option<crate::grid::Square>,
    },
    /// GM (Orcus § Ability and skill checks): a skill check — d20 + the combatant's skill
    /// modifier against a DC, the GM's number (`dc`) or read from § Table – Typical Difficulty
    /// Classes (`difficulty`, raised with the combatant's level: § Maintaining difficulties at
    /// higher levels); any time in the session (in or out of combat); takes no action.
    OrcusCheck {
        /// Who checks.
        combatant: CombatantId,
        /// The skill, by its lowercase name in § The skills (e.g. `athletics`, `heal`).
        skill: String,
        /// The DC (1..=60); exactly one of `dc` and `difficulty`.
        #[serde(default)]
        dc: Option<i32>,
        /// The DC from the table instead.
        #[serde(default)]
        difficulty: Option<CheckDifficulty>,
        /// What for (shown in the event as the check's purpose), e.g. `climb the cliff`.
        #[serde(default)]
        purpose: Option<String>,
    },
    /// Orcus § Maintain: "You can end an effect that requires maintenance at any time as a free
    /// action" — the actor ends one of its effects or zones that needs maintaining (or a grapple
    /// it holds), by id.
    EndEffect {
        /// Who ends it (its creator).
        actor: CombatantId,
        /// The effect or zone, by id.
        effect: u32,
    },
    /// Orcus § Action required ("If the action is a counter, its effects commence before the
    /// trigger is resolved"): the actor readies an immediate counter whose content names a
    /// machine-readable trigger (`counter_on`); spending nothing now, it resolves before the
    /// trigger's attack roll when the trigger happens. Lapses at the start of the actor's next
    /// turn or when its immediate action is spent.
    ReadyCounter {
        /// Who readies it.
        actor: CombatantId,
        /// The counter power, by id.
        power: String,
    },
    /// Orcus § Stealth ("any creature that actively searches on its turn for signs of your
    /// presence (does not require an action …)"), § Perception: on its turn, once per turn and
    /// without an action, the actor makes a Perception check; every creature hidden from it
    /// whose Stealth total the check meets is found (`discovered`, reason `searched`).
    Search {
        /// Who searches.
        actor: CombatantId,
    },
    /// GM override: move a token to a free square at once — no path, no cost, no opportunity
    /// attacks (a correction, like 13th Age's `teleport`).
    PlaceToken {
        /// Whose token.
        combatant: CombatantId,
        /// The north-west square of its new space.
        square: crate::grid::Square,
    },
    /// GM (Orcus § Experience Points: "XP is awarded for defeating the monster", by its level
    /// and rank; § Experience, levels and tiers): the `monsters` defeated (or neutralized, as the
    /// GM rules; each counted once) are worth their table XP, plus the GM's `bonus`, divided
    /// evenly among the `party` (heroes; the remainder is lost); a hero whose XP reaches the next
    /// level's threshold is told (`level_reached`).
    OrcusAwardXp {
        /// The monsters whose XP is awarded.
        monsters: Vec<CombatantId>,
        /// XP for anything else, as the GM rules (0..=100000).
        #[serde(default)]
        bonus: u32,
        /// The heroes who share it.
        party: Vec<CombatantId>,
    },
}

/// Five Torches Deep's own commands: a command of another ruleset's family is refused with
/// `wrong_ruleset` before any ruleset sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FiveTorchesCommand {
    /// GM (Five Torches Deep § Saves & Checks): a check — d20 + ability modifier (+ proficiency
    /// when proficient) against a DC, with advantage or disadvantage. With `damage`, a failure
    /// deals that damage to the combatant (doubled for a PC on a natural 1).
    Check {
        /// Who checks.
        combatant: CombatantId,
        /// The ability whose modifier is added.
        ability: crate::ftd::Ability,
        /// Difficulty.
        dc: i32,
        /// Adds the proficiency bonus.
        #[serde(default)]
        proficient: bool,
        /// Circumstances (combined with the GM's grant and injuries; both cancel).
        #[serde(default)]
        advantage: crate::ftd::Advantage,
        /// Damage on a failure (a dice expression), if the check guards against harm.
        #[serde(default)]
        damage: Option<String>,
        /// What for (shown in the event), e.g. `trap`.
        #[serde(default)]
        purpose: Option<String>,
        /// What the check is about, for the light rules (§ Light), e.g. `stealth`, `sight`.
        #[serde(default)]
        task: Option<crate::ftd::LightTask>,
    },
    /// GM (Five Torches Deep § Tactical Superiority): advantage or disadvantage on the
    /// combatant's next d20 roll (attack or check), e.g. for flanking; `none` withdraws it.
    GrantAdvantage {
        /// Who.
        combatant: CombatantId,
        /// What is granted.
        advantage: crate::ftd::Advantage,
    },
    /// GM (Five Torches Deep § Morale Checks): a DC 11 morale check — 1d20 + WIS modifier
    /// (+ proficiency if fitting) + the monster morale bonus. Each listed combatant rolls
    /// individually, or with `group` the monsters roll once with the first one's modifier.
    /// Failure: they flee or surrender (`on_failure`) and leave the battle.
    MoraleCheck {
        /// Who checks.
        combatants: Vec<CombatantId>,
        /// One roll for the whole group (monsters only: PCs always roll individually).
        #[serde(default)]
        group: bool,
        /// Circumstances (e.g. outnumbered).
        #[serde(default)]
        advantage: crate::ftd::Advantage,
        /// What failure does.
        #[serde(default)]
        on_failure: crate::ftd::MoraleOutcome,
    },
    /// Five Torches Deep § Retreat: the whole turn (no action taken yet); the GM then rules
    /// with `resolve_retreat`.
    Retreat {
        /// Who retreats.
        actor: CombatantId,
    },
    /// GM (Five Torches Deep § Retreat): the pending retreat's check, if any, then attacks by
    /// the listed enemies (each with its first attack); a failed check or any hit stops it,
    /// otherwise the PC escapes the battle.
    ResolveRetreat {
        /// A check to avoid danger, if the GM calls for one.
        #[serde(default)]
        check: Option<RetreatCheck>,
        /// Enemies allowed to attack the fleeing PC, in order.
        #[serde(default)]
        attackers: Vec<CombatantId>,
    },
    /// Five Torches Deep § initiative: at the start of its turn, the actor delays to a slower
    /// place — right after `after` — for the rest of the battle.
    DelayTo {
        /// Who delays.
        actor: CombatantId,
        /// The combatant it will act after (later in the order this round).
        after: CombatantId,
    },
    /// GM (Five Torches Deep § Healing From Magic & Medicine): magic or medicine heals `dice`
    /// hit points (never above the maximum); an incapacitated PC is stabilized by it (injury
    /// roll) and, if it lives, heals the roll instead of returning at 1 hp.
    Heal {
        /// Who is healed.
        target: CombatantId,
        /// The healing roll, e.g. `2d4+2`.
        dice: String,
        /// Who healed (the caster or medic), if anyone.
        #[serde(default)]
        by: Option<CombatantId>,
    },
    /// GM (Five Torches Deep § Light): sets the scene's light (`combatant` null; `light`
    /// required) or the light where one combatant is (`light` null: back to the scene's).
    SetLight {
        /// Whose light, or null for the scene.
        #[serde(default)]
        combatant: Option<CombatantId>,
        /// The level of light.
        #[serde(default)]
        light: Option<crate::ftd::LightLevel>,
    },
    /// Five Torches Deep § Light: the actor lights a fresh torch or lantern (`source`) or puts
    /// its light out (null). In battle it is a quick action on the actor's turn.
    CarryLight {
        /// Who.
        actor: CombatantId,
        /// `torch`, `lantern` or null.
        #[serde(default)]
        source: Option<crate::ftd::LightSource>,
    },
    /// GM (Five Torches Deep § Movement Actions): the load and coins a combatant carries.
    SetLoad {
        /// Who.
        combatant: CombatantId,
        /// Load besides coins.
        load: i32,
        /// Coins (500 are a load).
        #[serde(default)]
        coins: i32,
    },
    /// GM (Five Torches Deep § Travel Turns): an hour passes outside battle; the d20 threat
    /// table is rolled (with advantage if the party is cautious, disadvantage if not).
    TravelTurn {
        /// The GM's ruling on the party's caution.
        #[serde(default)]
        advantage: crate::ftd::Advantage,
    },
    /// GM (Five Torches Deep § Resilience & Exhaustion): a resilience check (1d20 + CON mod,
    /// DC 10 + hours beyond resilience) for a PC who adventured longer than its CON in hours.
    ResilienceCheck {
        /// Who.
        combatant: CombatantId,
    },
    /// GM (Five Torches Deep § Healing From Rest): the party rests `nights` nights (8 hours
    /// each), safely (1 HP per level per night; cures exhaustion) or not (1 HP per night).
    Rest {
        /// Safe rest (not in a dungeon or hostile wilderness).
        #[serde(default)]
        safe: bool,
        /// Nights (1 unless given).
        #[serde(default = "one_night")]
        nights: u32,
    },
    /// GM (Five Torches Deep § Stealth: "Stealth DCs can vary by circumstances"): the DC of
    /// hiding from now on (null: back to 11).
    SetStealthDc {
        /// The DC.
        #[serde(default)]
        dc: Option<i32>,
    },
    /// GM (Five Torches Deep § Resilience & Exhaustion: "other maladies at the GM's
    /// discretion"): the combatant becomes exhausted.
    Exhaust {
        /// Who.
        combatant: CombatantId,
    },
    /// Five Torches Deep § Quick Actions ("a readied action, such as when waiting to spring an
    /// ambush"): on its turn the actor spends its quick action and the held action (`standard`
    /// = active, or `move`) and declares a trigger; before its next turn it may take the held
    /// action once, out of turn, when the trigger happens.
    ReadyAction {
        /// Who readies.
        actor: CombatantId,
        /// The action held: `standard` (active) or `move`.
        action: crate::event::ActionKind,
        /// The declared trigger, e.g. `the first goon through the door`.
        trigger: String,
    },
    /// GM (Five Torches Deep § Rolling To Return): outside battle, each listed PC (none listed:
    /// every PC still up) rolls a check with its best ability modifier plus proficiency against
    /// DC 10 + 1 per travel turn (max 20). Failing, a `dangerous` path deals 1d6 per point under
    /// the DC, an `arduous` one drops 1 load per point under it.
    RollToReturn {
        /// The GM's ruling on the path to safety.
        path: crate::ftd::ReturnPath,
        /// Who rolls (empty: every PC still up).
        #[serde(default)]
        combatants: Vec<CombatantId>,
    },
    /// GM (Five Torches Deep § Chases): the listed PCs chase a quarry (or flee a pursuer) whose
    /// speed is `speed` feet: a check by terrain (`open`: STR, `uneven`: DEX, `overland`: CON)
    /// against DC 11 ± 1 per 5′ from 30′ (+ `dc_modifier`), each PC on its own or, with
    /// `group`, once by the one with the worst modifier.
    Chase {
        /// The PCs who roll.
        pursuers: Vec<CombatantId>,
        /// The other side's speed in feet (30 for most creatures).
        speed: i32,
        /// What the chase tests.
        terrain: crate::ftd::ChaseTerrain,
        /// One roll for the party, by the PC with the worst modifier.
        #[serde(default)]
        group: bool,
        /// Line of sight easily broken (disadvantage) or a better position (advantage).
        #[serde(default)]
        advantage: crate::ftd::Advantage,
        /// The GM's change to the DC (bow range, caltrops, false trails), −10..=10.
        #[serde(default)]
        dc_modifier: i32,
    },
    /// GM (Five Torches Deep § Corruptions): a PC not infected checks against a disease,
    /// poison or venom (`name` needed; failing, it is infected); an infected PC's stage ends
    /// (the check again; failing, 1d6 damage to the `damages` score; at 0 it dies).
    CorruptionCheck {
        /// Who.
        combatant: CombatantId,
        /// The corruption's name (only for a new infection).
        #[serde(default)]
        name: Option<String>,
        /// DC (11 unless given; only for a new infection).
        #[serde(default)]
        dc: Option<i32>,
        /// The check's ability (CON unless given; only for a new infection).
        #[serde(default)]
        check: Option<crate::ftd::Ability>,
        /// The score damaged (CON unless given; only for a new infection).
        #[serde(default)]
        damages: Option<crate::ftd::Ability>,
    },
    /// GM (Five Torches Deep § Corruptions): the infection ends (cured, or run its course).
    EndCorruption {
        /// Who.
        combatant: CombatantId,
    },
    /// GM (Five Torches Deep, the time dice): roll 1–4 time dice (d6) for the hour of day (their
    /// sum; or `start_hour` plus 1–2 dice) or for a duration in hours.
    RollTimeDice {
        /// How many dice (1..=4; 1..=2 after a starting hour).
        dice: u32,
        /// The hour of day or a duration.
        purpose: crate::ftd::TimeDicePurpose,
        /// The starting hour (0..=23) the dice count from (only for the hour of day).
        #[serde(default)]
        start_hour: Option<u32>,
    },
    /// GM (Five Torches Deep, the time dice): the time of day is `hour`:00 (0..=23).
    SetTime {
        /// The hour (0..=23).
        hour: u32,
    },
    /// Five Torches Deep (§ Movement Actions): special movement — swimming, crawling, climbing,
    /// difficult terrain — at half speed, as `move` but for the movement and the active action
    /// both (Fray's reading: half speed covers a band with two movement actions' worth).
    SpecialMove {
        /// Who moves.
        actor: CombatantId,
        /// Move close to (engage) this combatant; none to reposition.
        #[serde(default)]
        engage: Option<CombatantId>,
        /// Move far away.
        #[serde(default)]
        far_away: bool,
    },
    /// Five Torches Deep § Quick Actions ("maintaining concentration … are quick actions"): on
    /// its turn the actor spends its quick action to start concentrating on `effect` (1–80
    /// characters) or to maintain the one it holds; a turn that ends without it lapses the
    /// concentration. One at a time.
    Concentrate {
        /// Who concentrates.
        actor: CombatantId,
        /// The effect (a spell, a class feature…).
        effect: String,
    },
    /// Five Torches Deep: the actor lets its concentration go (free, at any time).
    EndConcentration {
        /// Who.
        actor: CombatantId,
    },
    /// GM (Five Torches Deep § Treasure): `looter` (a PC) takes an enemy's carried loot, worth
    /// 1d20 gp per HD, rolled: the gold as coins and as much experience. The enemy is out of
    /// the fight (or surrendered), has hit dice and has not been looted yet.
    Loot {
        /// The PC who takes it.
        looter: CombatantId,
        /// The enemy looted.
        enemy: CombatantId,
    },
    /// GM (Five Torches Deep § Treasure): a hoard found — coins to a PC, experience for their
    /// value in gold (10 cp = 1 sp, 10 sp = 1 gp), none when `unearned` (inherited or
    /// unearned treasure).
    Treasure {
        /// The PC who gets it.
        to: CombatantId,
        /// Gold pieces.
        #[serde(default)]
        gp: u32,
        /// Silver pieces.
        #[serde(default)]
        sp: u32,
        /// Copper pieces.
        #[serde(default)]
        cp: u32,
        /// Inherited or unearned: no experience.
        #[serde(default)]
        unearned: bool,
    },
    /// GM (Five Torches Deep § Treasure): a PC captures a magic item: experience equal to its
    /// fair value in gp.
    MagicItem {
        /// The PC.
        to: CombatantId,
        /// The item's name (1–40 characters).
        name: String,
        /// Fair value, gp.
        value: u32,
    },
    /// GM (Five Torches Deep § Treasure): a PC sells a magic item it holds for `gp`: coins, no
    /// experience.
    SellItem {
        /// The PC.
        seller: CombatantId,
        /// The item's name.
        name: String,
        /// The price, gp.
        gp: u32,
    },
    /// GM (Five Torches Deep § Overland Travel): outside battle the party travels `days` days
    /// on foot: 10 + STR mod miles a day for the slowest PC up (half when encumbered), halved
    /// in difficult and quartered in harsh terrain (the scene's dim light counts as difficult,
    /// darkness as harsh), a quarter less moving tactically, half stealthily. A travel turn is
    /// rolled each day, and each day's 24 hours pass (torches burn hourly).
    TravelOverland {
        /// Days of travel (1–30).
        days: u32,
        /// The ground.
        #[serde(default)]
        terrain: crate::ftd::TravelTerrain,
        /// The pace.
        #[serde(default)]
        pace: crate::ftd::TravelPace,
        /// The GM's ruling on the party's caution for the daily travel turns.
        #[serde(default)]
        advantage: crate::ftd::Advantage,
    },
    /// GM (Five Torches Deep § Overwater Travel): outside battle the party travels `hours`
    /// hours by boat (3 mph; a travel turn each full day) or ship (5 mph; a travel turn each
    /// full week), a favorable wind or current doubling the speed and an unfavorable one
    /// halving it; the hours pass (torches burn hourly).
    TravelOverwater {
        /// The vessel.
        vessel: crate::ftd::Vessel,
        /// Hours under way (1–1,344, eight weeks).
        hours: u32,
        /// The wind or current.
        #[serde(default)]
        current: crate::ftd::Current,
        /// The GM's ruling on the party's caution for the travel turns.
        #[serde(default)]
        advantage: crate::ftd::Advantage,
    },
}

/// Old-School Essentials and Basic Fantasy (B/X)'s own commands: a command of another ruleset's family is refused with
/// `wrong_ruleset` before any ruleset sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum BxCommand {
    /// GM (Old-School Essentials § Encounters, Surprise): a d6 for each side not expecting the
    /// encounter; 1–2 means it is surprised and cannot act in the first round. Before the battle.
    RollSurprise {
        /// The sides that roll (each at most once).
        sides: Vec<crate::ids::Side>,
    },
    /// GM (Old-School Essentials § Monster Reaction Roll): 2d6, with the CHA modifier of the
    /// character who speaks to the monsters, if one does.
    RollReaction {
        /// The character speaking for the party.
        #[serde(default)]
        speaker: Option<CombatantId>,
    },
    /// Old-School Essentials § Declare Spells and Melee Movement: what the actor will do in the
    /// next round (before its initiative is rolled); `null` withdraws it.
    Declare {
        /// Who declares.
        actor: CombatantId,
        /// The declaration.
        declaration: Option<crate::ose::Declaration>,
    },
    /// Old-School Essentials § Attacking: one attack with a weapon, on the actor's turn. Missile
    /// weapons take a range band (default `medium`); `modifier` is the GM's situational
    /// modifier (e.g. cover −1 to −4).
    OseAttack {
        /// Who attacks.
        actor: CombatantId,
        /// Weapon or attack id.
        attack: String,
        /// The target.
        target: CombatantId,
        /// Missile range band.
        #[serde(default)]
        range: Option<crate::ose::MissileRange>,
        /// Situational modifier (−10..=10).
        #[serde(default)]
        modifier: i32,
        /// § Attacking from Behind: the target's shield does not count.
        #[serde(default)]
        behind: bool,
    },
    /// Old-School Essentials § Spell Casting: the actor casts the spell it declared (its sole
    /// action this round).
    CastSpell {
        /// The caster.
        actor: CombatantId,
    },
    /// GM (Old-School Essentials § Morale): one 2d6 morale roll for the listed monsters, each
    /// against its own rating with the situational adjustment (−2..=2; never for 2 or 12).
    /// Those who break flee.
    OseMorale {
        /// Who checks.
        combatants: Vec<CombatantId>,
        /// Situational adjustment.
        #[serde(default)]
        adjustment: i32,
    },
    /// GM (Old-School Essentials § Saving Throws): d20 + modifier against the combatant's value
    /// in the category; success at or above.
    SavingThrow {
        /// Who saves.
        combatant: CombatantId,
        /// The category.
        category: crate::ose::SaveCategory,
        /// Modifier to the roll.
        #[serde(default)]
        modifier: i32,
    },
    /// GM (Old-School Essentials § Searching, § Listening at Doors, § Wandering Monsters): a
    /// secret d6 — success on `chance` or less (1–6, default 1: "1-in-6"). Players and
    /// spectators see that the roll was made, never its roll or result.
    SecretRoll {
        /// What for.
        check: crate::ose::SecretCheck,
        /// The character searching or listening, if any.
        #[serde(default)]
        combatant: Option<CombatantId>,
        /// The chance in six.
        #[serde(default = "one_in_six")]
        chance: u32,
        /// The area or item searched (§ Searching, "One chance": each character searches it
        /// for secret doors or traps once), if the GM names it.
        #[serde(default)]
        area: Option<String>,
    },
    /// GM (Old-School Essentials § Dungeon Adventuring, Sequence of Play Per Turn): one
    /// exploration turn (10 minutes, 60 rounds) passes — the wandering-monster check (a secret
    /// d6, when `wandering` gives its chance in six), then the end-of-turn bookkeeping: light
    /// burns down and the turns since the party's last rest count up (`rest`: this turn is the
    /// party's rest).
    ExplorationTurn {
        /// The wandering-monster chance in six this turn (`None`: no check this turn).
        #[serde(default)]
        wandering: Option<u32>,
        /// The party rests this turn (§ Resting).
        #[serde(default)]
        rest: bool,
    },
    /// GM (§ Light; Basic Fantasy § Light): a character lights a torch or a lantern's flask of
    /// oil; it burns for the duration of the session's light rule.
    LightSource {
        /// Who carries it.
        carrier: CombatantId,
        /// Torch or lantern.
        source: crate::ose::LightSource,
    },
    /// GM: a character puts out a burning torch or lantern (§ Light and Surprise: to approach
    /// unseen; it no longer burns down).
    DouseLight {
        /// Who carries it.
        carrier: CombatantId,
        /// Torch or lantern.
        source: crate::ose::LightSource,
    },
    /// GM (Old-School Essentials § Saving Throws, Successful Saves): the combatant saves in the
    /// category against damage (`damage` dice, e.g. a dragon's breath `6d6`): the full damage
    /// on a failure, half (rounded down, at least 1) on a success.
    SaveForHalf {
        /// Who saves.
        combatant: CombatantId,
        /// The category.
        category: crate::ose::SaveCategory,
        /// The damage dice.
        damage: String,
        /// Modifier to the save.
        #[serde(default)]
        modifier: i32,
    },
    /// GM (Old-School Essentials § Ability Checks): d20 + modifier (−4 easy … +4 very
    /// difficult) at or under the character's score; a natural 1 succeeds, a natural 20 fails.
    AbilityCheck {
        /// Who checks (a character with ability scores).
        combatant: CombatantId,
        /// The ability.
        ability: crate::ose::OseAbility,
        /// Difficulty modifier (−4..=4).
        #[serde(default)]
        modifier: i32,
    },
    /// GM (Old-School Essentials § Falling): 1d6 damage per full 10′ fallen.
    Fall {
        /// Who falls.
        combatant: CombatantId,
        /// Feet fallen (10–1000).
        feet: u32,
    },
    /// GM (Old-School Essentials § Healing, Natural): 1d3 hit points per full day of complete
    /// rest, outside an encounter.
    NaturalHealing {
        /// Who rests.
        combatant: CombatantId,
        /// Full days of uninterrupted rest (1–30).
        days: u32,
    },
    /// GM (Old-School Essentials § Encounter Distance): dungeon 2d6 × 10′; wilderness and
    /// waterborne 4d6 × 10 yards, or 1d4 × 10 yards when either side is surprised.
    RollEncounterDistance {
        /// Where the encounter happens.
        setting: crate::ose::EncounterSetting,
        /// Either side is surprised.
        #[serde(default)]
        surprised: bool,
    },
    /// GM (Old-School Essentials § Other Combat Issues): a combatant becomes (`on`) or stops
    /// being blind, paralyzed, on an unstable surface, or exhausted (§ Running).
    OseCondition {
        /// Who.
        combatant: CombatantId,
        /// The condition.
        condition: crate::ose::OseCondition,
        /// Set (true) or cleared (false).
        on: bool,
    },
    /// GM (Basic Fantasy § Retainers): the hiring reaction roll — 2d6 + the employer's CHA
    /// bonus + `adjustment` (the GM's, for the offer's terms) − 1 after a roll of 2 or less.
    /// Refused beyond the maximum number of retainers or the level limit.
    HireRetainer {
        /// The player character hiring.
        employer: CombatantId,
        /// The candidate (a combatant of the party).
        retainer: CombatantId,
        /// The GM's adjustment (−3..=3).
        #[serde(default)]
        adjustment: i32,
    },
    /// GM (Basic Fantasy § Retainers, Loyalty): a loyalty check — 2d6 against the retainer's
    /// loyalty, as a morale check; in combat a failure flees and a natural 2 raises loyalty by
    /// 1; after an adventure a failure leaves the employer's service.
    LoyaltyCheck {
        /// The retainer.
        retainer: CombatantId,
        /// The GM's adjustment (−2..=2).
        #[serde(default)]
        adjustment: i32,
    },
    /// GM (Basic Fantasy § Character Advancement): awards the experience of the defeated
    /// `monsters` (by hit dice, each asterisk adding the special-ability bonus) plus `bonus`,
    /// divided among `party` (retainers take half a share); no one advances more than one level.
    AwardXp {
        /// The defeated monsters (each counts once in the session).
        #[serde(default)]
        monsters: Vec<CombatantId>,
        /// Flat XP for other challenges.
        #[serde(default)]
        bonus: u32,
        /// The adventurers sharing it.
        party: Vec<CombatantId>,
    },
    /// GM (Basic Fantasy § Dungeon Survival, § Wilderness Adventures): one day passes — the
    /// party travels (or rests), those in `unfed` / `no_water` go without food or water, and
    /// `leader` (if given) makes the secret check for becoming lost.
    PassDay {
        /// Rest, normal, forced march or air.
        #[serde(default)]
        march: crate::bf::March,
        /// The terrain crossed.
        #[serde(default = "clear")]
        terrain: crate::bf::Terrain,
        /// Characters without a day's food.
        #[serde(default)]
        unfed: Vec<CombatantId>,
        /// Characters without a day's water.
        #[serde(default)]
        no_water: Vec<CombatantId>,
        /// The party leader, when the party may become lost (trackless terrain).
        #[serde(default)]
        leader: Option<CombatantId>,
        /// Old-School Essentials § Travel on the Water: the day on the water (with `march`
        /// `water`; `ose` sessions).
        #[serde(default)]
        water: Option<crate::ose::WaterDay>,
    },
    /// GM (Basic Fantasy § Movement and Encumbrance): a character's armor and load in pounds;
    /// its movement follows the table (light or heavy load by its STR and race).
    SetEncumbrance {
        /// The character.
        combatant: CombatantId,
        /// Its armor.
        armor: crate::bf::ArmorType,
        /// Its load in pounds, armor included (Old-School Essentials: in coins of weight —
        /// treasure under the `basic` option, everything carried under `detailed`).
        load: u32,
        /// Old-School Essentials, `basic` option: it carries a significant amount of treasure
        /// (the referee's judgement). Ignored elsewhere.
        #[serde(default)]
        treasure: bool,
    },
    /// GM (Basic Fantasy § Time and Scale): an effect that lasts `turns` exploration turns; it
    /// ends at the end of its last turn (`timed_effect_ended`).
    TimeEffect {
        /// What it is.
        name: String,
        /// On whom, if anyone.
        #[serde(default)]
        combatant: Option<CombatantId>,
        /// Its duration in turns (1..=1000).
        turns: u32,
    },
    /// GM (Basic Fantasy § Waterborne Travel): the day's wind — a d12 for its direction and a
    /// d% for its conditions, with the sailing and tacking multipliers.
    RollWind {},
    /// GM (Old-School Essentials § Evasion and Pursuit): before combat, one side flees and the
    /// other pursues. `dungeon`: the faster fleeing side evades; `waterborne`: the Waterborne
    /// Evasion Chance by the rates' difference; `wilderness`: the Wilderness Evasion Base Chance
    /// by the group sizes, ±25% when one side is twice as fast, the GM's `modifier`, at least 5%
    /// — unless `surprise` says the fleeing side was surprised (no chance but the `modifier`)
    /// or surprised the other (evades automatically).
    AttemptEvasion {
        /// Where.
        setting: crate::ose::EncounterSetting,
        /// The fleeing side's movement rate (feet per round or per turn; the same unit for both).
        fleeing_rate: u32,
        /// The pursuing side's movement rate.
        pursuer_rate: u32,
        /// Wilderness: the fleeing group's size.
        #[serde(default)]
        fleeing: u32,
        /// Wilderness: the number of pursuers.
        #[serde(default)]
        pursuers: u32,
        /// Wilderness: surprise at the encounter.
        #[serde(default)]
        surprise: Option<crate::ose::EvasionSurprise>,
        /// Wilderness: the GM's environment modifier in percent (−100..=100).
        #[serde(default)]
        modifier: i32,
    },
    /// GM (Old-School Essentials § Bombing): on its turn, a flying creature (content `flies`)
    /// drops a bomb from `altitude` feet (at most 300) — its attack of the round; 16 or higher on
    /// a d20 hits, one roll per target; the `damage` dice, rolled once, hit each target hit.
    Bomb {
        /// The flier.
        attacker: CombatantId,
        /// The creatures in the area (1 to 20, distinct).
        targets: Vec<CombatantId>,
        /// Damage dice, e.g. `2d6` (a bomb of a creature able to carry a human).
        damage: String,
        /// Height in feet (1..=300).
        altitude: u32,
    },
    /// Old-School Essentials § Movement Outside of Melee / § In Melee: on its turn, in the
    /// movement phase, the actor moves `feet` (yards outdoors): in all at most its encounter
    /// rate this round (a third of its base rate), half that in a declared fighting withdrawal;
    /// in melee only in a declared withdrawal or retreat. Fray tracks no positions: the feet are
    /// spent and logged (`ose_moved`).
    OseMove {
        /// Who moves.
        actor: CombatantId,
        /// How far (1..=1000).
        feet: u32,
    },
    /// Old-School Essentials § Combat Sequence Per Round: on its turn, before doing anything,
    /// the actor lets the rest of its side's group act first — it moves to the end of the
    /// group in the round's order (`turn_held`), so that the side keeps its phase order.
    OseHold {
        /// Who holds.
        actor: CombatantId,
    },
    /// GM (Old-School Essentials § Evasion and Pursuit): after a failed evasion, the pursuit
    /// begins, before combat. `dungeon`: measured in rounds, the `runners` run at their base rate
    /// (exhausted after 30 rounds); `waterborne`: in rounds, from `distance` (the encounter
    /// distance, in the rates' unit), closing by the rates' difference, at least 30 a round;
    /// `wilderness`: day by day, a 50% catch-up roll when the pursuers are faster.
    StartPursuit {
        /// Where.
        setting: crate::ose::EncounterSetting,
        /// The fleeing side's movement rate.
        fleeing_rate: u32,
        /// The pursuers' movement rate.
        pursuer_rate: u32,
        /// Dungeon: the combatants running.
        #[serde(default)]
        runners: Vec<CombatantId>,
        /// Waterborne: the distance between the sides (1..=100000).
        #[serde(default)]
        distance: Option<u32>,
    },
    /// GM (Old-School Essentials § Evasion and Pursuit): a round (a day in the wilderness) of the
    /// pursuit passes.
    PursuitRound {},
    /// GM (Old-School Essentials § Evasion and Pursuit, In the Dungeon): the characters drop
    /// treasure or food; 3-in-6 the monsters stop to collect it (the GM decides whether these
    /// monsters care).
    DropLure {
        /// Treasure or food.
        lure: crate::pursuit::Lure,
    },
    /// GM (Old-School Essentials § Evasion and Pursuit): the pursuit ends — `caught` (the
    /// fleeing side is caught or stops fleeing) or not (out of sight, an obstacle).
    EndPursuit {
        /// The fleeing side was caught.
        #[serde(default)]
        caught: bool,
    },
    /// GM (Basic Fantasy § Waterborne Travel, Gale: "apply 2d8 points of damage to any such
    /// ship, per hour sailed"): the damage to a ship exposed to a gale for `hours` (1..=24); the
    /// ship's own hull points are the GM's (the Vehicles section is not in the text).
    GaleDamage {
        /// Hours sailed in the gale.
        hours: u32,
    },
    /// GM (Old-School Essentials § Waterborne Adventuring, Near Gales; Gales and Storms): a ship
    /// meets a near gale (10% seaworthy, 20% unseaworthy: it takes on water) or a gale — a
    /// seaworthy ship drifts (d6 direction, 1 the intended one), wrecking on 75% when `land`
    /// lies on its way; an unseaworthy one sinks on 80%, unless in sight of `land` it beaches
    /// (automatic on a `clear_shore`, else a safe harbor on 2-in-6).
    GaleStrikes {
        /// A near gale rather than a gale or storm.
        #[serde(default)]
        near: bool,
        /// The ship is seaworthy.
        seaworthy: bool,
        /// Gale: land on the seaworthy ship's drift, or in sight of the unseaworthy one.
        #[serde(default)]
        land: bool,
        /// Gale, unseaworthy, beaching: the shore is clear of rocks and cliffs.
        #[serde(default)]
        clear_shore: bool,
    },
    /// GM (Basic Fantasy § Light): a character lights a taper candle `inches` high (1..=24);
    /// it burns "about 3 turns per inch of height" (`light_lit` `candle`). Refused under the
    /// `light` option `ose` (the OSE text gives no candle).
    LightCandle {
        /// Who carries it.
        carrier: CombatantId,
        /// Its height in inches.
        inches: u32,
    },
    /// GM (Old-School Essentials § Healing, Magical: "potions or spells … instantaneous"; Basic
    /// Fantasy likewise): `dice` (an expression such as `1d6+1`, or a number) hit points at once,
    /// in or out of an encounter, never above the maximum; refused for the dead (0 hp or less
    /// is death). `source` names the potion or spell for the log (1–40 characters).
    MagicalHealing {
        /// Who is healed.
        target: CombatantId,
        /// The healing: a dice expression with no negative outcome, or a number.
        dice: String,
        /// The potion or spell.
        source: String,
    },
    /// GM (Basic Fantasy § Waterborne Travel, `basic-fantasy` sessions): a day on the water.
    /// The day's wind is rolled (`wind_rolled`); the vessel's miles per 12-hour day (the Vehicles
    /// table, not in the text: the GM's or the content's numbers) under sail times the wind's
    /// sailing multiplier (tacking's when `against_wind`), doubled when a `navigator` is aboard
    /// and the ship does not stop at night (`stops_at_night`: a coastal vessel, or one with
    /// less than its minimum crew); by oar its rowing miles; the farther of the two (event
    /// `sailed`). A gale under sail rolls its 2d8 per hour sailed (`gale_damage_rolled`). Then
    /// the day passes as `pass_day` with `march` `water` (food and water by `unfed` and
    /// `no_water`).
    Sail {
        /// The vessel's miles per 12-hour day under sail (0: no sails), at most 1000.
        sailing_miles: u32,
        /// Its miles per 12-hour day by oar (0: no oars), at most 1000.
        rowing_miles: u32,
        /// A qualified navigator is aboard.
        navigator: bool,
        /// The ship stops each night (along a coast, or with less than its minimum crew).
        stops_at_night: bool,
        /// Sailing against the wind (tacking).
        against_wind: bool,
        /// Characters without a day's food.
        #[serde(default)]
        unfed: Vec<CombatantId>,
        /// Characters without a day's water.
        #[serde(default)]
        no_water: Vec<CombatantId>,
    },
    /// GM (Old-School Essentials § Drowning: "the chance of drowning … judged by the referee"):
    /// a d% for `combatant` against the referee's `chance` (1..=99 percent); at or under it the
    /// character drowns (`drowning_rolled`, then `slain`).
    DrowningCheck {
        /// Who risks drowning.
        combatant: CombatantId,
        /// The referee's chance of drowning, in percent (the text's examples: 99 in rough
        /// waters in heavy armor with a heavy load, 10 in light armor with a light load).
        chance: u32,
    },
}

/// Orcus § Table – Typical Difficulty Classes: easy, moderate, hard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CheckDifficulty {
    /// Easy (DC 8 at level 1).
    Easy,
    /// Moderate (DC 12).
    Moderate,
    /// Hard (DC 18).
    Hard,
}

fn clear() -> crate::bf::Terrain {
    crate::bf::Terrain::Clear
}

/// Orcus skill actions (§ Skill actions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SkillActionKind {
    /// § Feint.
    Feint,
    /// § Grant Save.
    GrantSave,
    /// § Rally Ally.
    RallyAlly,
    /// § Create Diversion.
    CreateDiversion,
    /// § Deter.
    Deter,
    /// § Unnerve.
    Unnerve,
}

fn one_night() -> u32 {
    1
}

fn one_in_six() -> u32 {
    1
}

/// The skill used to escape a grapple (Orcus § Escape a Grapple).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum EscapeSkill {
    /// Acrobatics vs the grappler's Reflex.
    Acrobatics,
    /// Athletics vs the grappler's Fortitude.
    Athletics,
}

/// The check the GM calls for against a retreat (Five Torches Deep § Retreat).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RetreatCheck {
    /// The ability (e.g. `dex` to break through an encirclement).
    pub ability: crate::ftd::Ability,
    /// Difficulty.
    pub dc: i32,
    /// Adds the proficiency bonus.
    #[serde(default)]
    pub proficient: bool,
}

/// The text that stands for a whisper's or note's line in the public log.
pub const REDACTED_TEXT: &str = "(private)";

impl Command {
    /// The combatant the command acts for, if any. GM commands have none.
    pub fn actor(&self) -> Option<&CombatantId> {
        match self {
            Command::Attack { actor, .. }
            | Command::Move { actor, .. }
            | Command::ThirteenthAge(ThirteenthAgeCommand::Disengage { actor })
            | Command::ThirteenthAge(ThirteenthAgeCommand::Intercept { actor, .. })
            | Command::Stabilize { actor, .. }
            | Command::Rally { actor }
            | Command::LetGo { actor, .. }
            | Command::ThirteenthAge(ThirteenthAgeCommand::Delay { actor })
            | Command::Ready { actor, .. }
            | Command::ThirteenthAge(ThirteenthAgeCommand::FightInSpirit { actor, .. })
            | Command::QuickRest { actor, .. }
            | Command::ThirteenthAge(ThirteenthAgeCommand::UsePotion { actor, .. })
            | Command::ThirteenthAge(ThirteenthAgeCommand::Undelay { actor })
            | Command::Orcus(OrcusCommand::MoveTo { actor, .. })
            | Command::Orcus(OrcusCommand::StandUp { actor })
            | Command::Orcus(OrcusCommand::FullDefense { actor })
            | Command::Orcus(OrcusCommand::SpendActionPoint { actor, .. })
            | Command::Orcus(OrcusCommand::AreaAttack { actor, .. })
            | Command::Orcus(OrcusCommand::Charge { actor, .. })
            | Command::Orcus(OrcusCommand::BullRush { actor, .. })
            | Command::Orcus(OrcusCommand::Grapple { actor, .. })
            | Command::Orcus(OrcusCommand::Escape { actor, .. })
            | Command::Orcus(OrcusCommand::Maintain { actor, .. })
            | Command::Orcus(OrcusCommand::EndEffect { actor, .. })
            | Command::Orcus(OrcusCommand::ReadyCounter { actor, .. })
            | Command::Orcus(OrcusCommand::Search { actor })
            | Command::Orcus(OrcusCommand::SkillAction { actor, .. })
            | Command::FiveTorches(FiveTorchesCommand::Retreat { actor })
            | Command::FiveTorches(FiveTorchesCommand::DelayTo { actor, .. })
            | Command::FiveTorches(FiveTorchesCommand::CarryLight { actor, .. })
            | Command::Hide { actor }
            | Command::FiveTorches(FiveTorchesCommand::ReadyAction { actor, .. })
            | Command::FiveTorches(FiveTorchesCommand::Concentrate { actor, .. })
            | Command::FiveTorches(FiveTorchesCommand::EndConcentration { actor })
            | Command::Orcus(OrcusCommand::Mount { actor, .. })
            | Command::Orcus(OrcusCommand::Dismount { actor, .. })
            | Command::Orcus(OrcusCommand::CommandMount { actor, .. })
            | Command::Orcus(OrcusCommand::MoveAloft { actor, .. })
            | Command::Bx(BxCommand::Declare { actor, .. })
            | Command::Bx(BxCommand::OseAttack { actor, .. })
            | Command::Bx(BxCommand::CastSpell { actor })
            | Command::Orcus(OrcusCommand::Reload { actor, .. })
            | Command::Orcus(OrcusCommand::ChooseAllies { actor, .. })
            | Command::Orcus(OrcusCommand::DeclineAlly { actor, .. })
            | Command::Orcus(OrcusCommand::ChooseToBeHit { actor, .. })
            | Command::Orcus(OrcusCommand::RiderChoices { actor, .. })
            | Command::FiveTorches(FiveTorchesCommand::SpecialMove { actor, .. })
            | Command::Bx(BxCommand::OseMove { actor, .. })
            | Command::Bx(BxCommand::OseHold { actor })
            | Command::EndTurn { actor } => Some(actor),
            Command::StartBattle
            | Command::ThirteenthAge(ThirteenthAgeCommand::StartAmbush { .. })
            | Command::EndBattle
            | Command::ThirteenthAge(ThirteenthAgeCommand::Escalation { .. })
            | Command::Flee
            | Command::GrantTempHp { .. }
            | Command::KnockOuts { .. }
            | Command::ThirteenthAge(ThirteenthAgeCommand::Teleport { .. })
            | Command::ThirteenthAge(ThirteenthAgeCommand::SituationalModifier { .. })
            | Command::FullHealUp
            | Command::StartSurprise { .. }
            | Command::ReorderInitiative { .. }
            | Command::NextBattle
            | Command::FiveTorches(FiveTorchesCommand::Check { .. })
            | Command::FiveTorches(FiveTorchesCommand::GrantAdvantage { .. })
            | Command::FiveTorches(FiveTorchesCommand::MoraleCheck { .. })
            | Command::FiveTorches(FiveTorchesCommand::ResolveRetreat { .. })
            | Command::FiveTorches(FiveTorchesCommand::Heal { .. })
            | Command::FiveTorches(FiveTorchesCommand::SetLight { .. })
            | Command::FiveTorches(FiveTorchesCommand::SetLoad { .. })
            | Command::FiveTorches(FiveTorchesCommand::TravelTurn { .. })
            | Command::FiveTorches(FiveTorchesCommand::ResilienceCheck { .. })
            | Command::FiveTorches(FiveTorchesCommand::Rest { .. })
            | Command::FiveTorches(FiveTorchesCommand::SetStealthDc { .. })
            | Command::Reveal { .. }
            | Command::FiveTorches(FiveTorchesCommand::Exhaust { .. })
            | Command::Bx(BxCommand::RollSurprise { .. })
            | Command::Bx(BxCommand::RollReaction { .. })
            | Command::Bx(BxCommand::OseMorale { .. })
            | Command::Bx(BxCommand::SavingThrow { .. })
            | Command::Bx(BxCommand::SecretRoll { .. })
            | Command::Bx(BxCommand::ExplorationTurn { .. })
            | Command::Bx(BxCommand::LightSource { .. })
            | Command::Bx(BxCommand::DouseLight { .. })
            | Command::FiveTorches(FiveTorchesCommand::RollToReturn { .. })
            | Command::FiveTorches(FiveTorchesCommand::Loot { .. })
            | Command::FiveTorches(FiveTorchesCommand::Treasure { .. })
            | Command::FiveTorches(FiveTorchesCommand::MagicItem { .. })
            | Command::FiveTorches(FiveTorchesCommand::SellItem { .. })
            | Command::FiveTorches(FiveTorchesCommand::TravelOverland { .. })
            | Command::FiveTorches(FiveTorchesCommand::TravelOverwater { .. })
            | Command::FiveTorches(FiveTorchesCommand::Chase { .. })
            | Command::FiveTorches(FiveTorchesCommand::CorruptionCheck { .. })
            | Command::FiveTorches(FiveTorchesCommand::EndCorruption { .. })
            | Command::FiveTorches(FiveTorchesCommand::RollTimeDice { .. })
            | Command::FiveTorches(FiveTorchesCommand::SetTime { .. })
            | Command::Orcus(OrcusCommand::PassTime { .. })
            | Command::Bx(BxCommand::SaveForHalf { .. })
            | Command::Bx(BxCommand::AbilityCheck { .. })
            | Command::Bx(BxCommand::Fall { .. })
            | Command::Bx(BxCommand::Bomb { .. })
            | Command::Bx(BxCommand::NaturalHealing { .. })
            | Command::Bx(BxCommand::MagicalHealing { .. })
            | Command::Bx(BxCommand::Sail { .. })
            | Command::Bx(BxCommand::DrowningCheck { .. })
            | Command::Bx(BxCommand::RollEncounterDistance { .. })
            | Command::Bx(BxCommand::OseCondition { .. })
            | Command::Bx(BxCommand::HireRetainer { .. })
            | Command::Bx(BxCommand::LoyaltyCheck { .. })
            | Command::Bx(BxCommand::AwardXp { .. })
            | Command::Bx(BxCommand::PassDay { .. })
            | Command::Bx(BxCommand::SetEncumbrance { .. })
            | Command::Bx(BxCommand::TimeEffect { .. })
            | Command::Bx(BxCommand::RollWind {})
            | Command::Bx(BxCommand::AttemptEvasion { .. })
            | Command::Bx(BxCommand::StartPursuit { .. })
            | Command::Bx(BxCommand::PursuitRound {})
            | Command::Bx(BxCommand::DropLure { .. })
            | Command::Bx(BxCommand::EndPursuit { .. })
            | Command::Bx(BxCommand::GaleDamage { .. })
            | Command::Bx(BxCommand::GaleStrikes { .. })
            | Command::Orcus(OrcusCommand::OrcusCheck { .. })
            | Command::Bx(BxCommand::LightCandle { .. })
            | Command::RewindTo { .. }
            | Command::Chat { .. }
            | Command::FreeRoll { .. }
            | Command::AutoPlay { .. }
            | Command::AssignCombatant { .. }
            | Command::ReissueToken { .. }
            | Command::SetHp { .. }
            | Command::AddCondition { .. }
            | Command::RemoveCondition { .. }
            | Command::RemoveCombatant { .. }
            | Command::SetInitiative { .. }
            | Command::AddCombatant { .. }
            | Command::Orcus(OrcusCommand::PlaceToken { .. })
            | Command::Orcus(OrcusCommand::OrcusAwardXp { .. })
            | Command::EndSession => None,
        }
    }

    /// The copy of this command that the public log holds: a whisper's or GM note's text
    /// becomes [`REDACTED_TEXT`] (re-deciding it gives the same public event: a line whose text
    /// the public does not see). Every other command is public as sent.
    pub fn redacted(&self) -> Command {
        match self {
            Command::Chat { to, .. } if *to != crate::talk::ChatTo::Table => Command::Chat {
                text: REDACTED_TEXT.into(),
                to: to.clone(),
            },
            other => other.clone(),
        }
    }

    /// Whether any seat with a token at the table (the GM or a player, not a spectator) may send
    /// it: chat and free rolls, which speak for the seat rather than a combatant.
    pub fn is_table_talk(&self) -> bool {
        matches!(self, Command::Chat { .. } | Command::FreeRoll { .. })
    }

    /// Short name of the command kind, for logs and messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Command::StartBattle => "start_battle",
            Command::RewindTo { .. } => "rewind_to",
            Command::Chat { .. } => "chat",
            Command::FreeRoll { .. } => "free_roll",
            Command::AutoPlay { .. } => "auto_play",
            Command::AssignCombatant { .. } => "assign_combatant",
            Command::ReissueToken { .. } => "reissue_token",
            Command::SetHp { .. } => "set_hp",
            Command::AddCondition { .. } => "add_condition",
            Command::RemoveCondition { .. } => "remove_condition",
            Command::RemoveCombatant { .. } => "remove_combatant",
            Command::SetInitiative { .. } => "set_initiative",
            Command::AddCombatant { .. } => "add_combatant",
            Command::Orcus(OrcusCommand::PlaceToken { .. }) => "place_token",
            Command::Orcus(OrcusCommand::OrcusAwardXp { .. }) => "orcus_award_xp",
            Command::Bx(BxCommand::RollSurprise { .. }) => "roll_surprise",
            Command::Bx(BxCommand::RollReaction { .. }) => "roll_reaction",
            Command::Bx(BxCommand::Declare { .. }) => "declare",
            Command::Bx(BxCommand::OseAttack { .. }) => "ose_attack",
            Command::Bx(BxCommand::CastSpell { .. }) => "cast_spell",
            Command::Bx(BxCommand::OseMorale { .. }) => "ose_morale",
            Command::Bx(BxCommand::SavingThrow { .. }) => "saving_throw",
            Command::Bx(BxCommand::SecretRoll { .. }) => "secret_roll",
            Command::Bx(BxCommand::ExplorationTurn { .. }) => "exploration_turn",
            Command::Bx(BxCommand::LightSource { .. }) => "light_source",
            Command::Bx(BxCommand::DouseLight { .. }) => "douse_light",
            Command::FiveTorches(FiveTorchesCommand::RollToReturn { .. }) => "roll_to_return",
            Command::FiveTorches(FiveTorchesCommand::Chase { .. }) => "chase",
            Command::FiveTorches(FiveTorchesCommand::CorruptionCheck { .. }) => "corruption_check",
            Command::FiveTorches(FiveTorchesCommand::EndCorruption { .. }) => "end_corruption",
            Command::FiveTorches(FiveTorchesCommand::RollTimeDice { .. }) => "roll_time_dice",
            Command::FiveTorches(FiveTorchesCommand::SetTime { .. }) => "set_time",
            Command::FiveTorches(FiveTorchesCommand::SpecialMove { .. }) => "special_move",
            Command::Orcus(OrcusCommand::PassTime { .. }) => "pass_time",
            Command::Bx(BxCommand::SaveForHalf { .. }) => "save_for_half",
            Command::Bx(BxCommand::AbilityCheck { .. }) => "ability_check",
            Command::Bx(BxCommand::Fall { .. }) => "fall",
            Command::Bx(BxCommand::Bomb { .. }) => "bomb",
            Command::Orcus(OrcusCommand::RiderChoices { .. }) => "rider_choices",
            Command::Bx(BxCommand::NaturalHealing { .. }) => "natural_healing",
            Command::Bx(BxCommand::MagicalHealing { .. }) => "magical_healing",
            Command::Bx(BxCommand::Sail { .. }) => "sail",
            Command::Bx(BxCommand::DrowningCheck { .. }) => "drowning_check",
            Command::Bx(BxCommand::RollEncounterDistance { .. }) => "roll_encounter_distance",
            Command::Bx(BxCommand::OseCondition { .. }) => "ose_condition",
            Command::Bx(BxCommand::HireRetainer { .. }) => "hire_retainer",
            Command::Bx(BxCommand::LoyaltyCheck { .. }) => "loyalty_check",
            Command::Bx(BxCommand::AwardXp { .. }) => "award_xp",
            Command::Bx(BxCommand::PassDay { .. }) => "pass_day",
            Command::Bx(BxCommand::SetEncumbrance { .. }) => "set_encumbrance",
            Command::Bx(BxCommand::TimeEffect { .. }) => "time_effect",
            Command::Bx(BxCommand::RollWind {}) => "roll_wind",
            Command::Orcus(OrcusCommand::Reload { .. }) => "reload",
            Command::Orcus(OrcusCommand::ChooseAllies { .. }) => "choose_allies",
            Command::Orcus(OrcusCommand::DeclineAlly { .. }) => "decline_ally",
            Command::Orcus(OrcusCommand::ChooseToBeHit { .. }) => "choose_to_be_hit",
            Command::Bx(BxCommand::AttemptEvasion { .. }) => "attempt_evasion",
            Command::Bx(BxCommand::StartPursuit { .. }) => "start_pursuit",
            Command::Bx(BxCommand::PursuitRound {}) => "pursuit_round",
            Command::Bx(BxCommand::DropLure { .. }) => "drop_lure",
            Command::Bx(BxCommand::EndPursuit { .. }) => "end_pursuit",
            Command::Bx(BxCommand::GaleDamage { .. }) => "gale_damage",
            Command::Bx(BxCommand::GaleStrikes { .. }) => "gale_strikes",
            Command::Orcus(OrcusCommand::OrcusCheck { .. }) => "orcus_check",
            Command::Bx(BxCommand::LightCandle { .. }) => "light_candle",
            Command::FiveTorches(FiveTorchesCommand::Concentrate { .. }) => "concentrate",
            Command::FiveTorches(FiveTorchesCommand::EndConcentration { .. }) => {
                "end_concentration"
            }
            Command::FiveTorches(FiveTorchesCommand::Loot { .. }) => "loot",
            Command::FiveTorches(FiveTorchesCommand::Treasure { .. }) => "treasure",
            Command::FiveTorches(FiveTorchesCommand::MagicItem { .. }) => "magic_item",
            Command::FiveTorches(FiveTorchesCommand::SellItem { .. }) => "sell_item",
            Command::FiveTorches(FiveTorchesCommand::TravelOverland { .. }) => "travel_overland",
            Command::FiveTorches(FiveTorchesCommand::TravelOverwater { .. }) => "travel_overwater",
            Command::ThirteenthAge(ThirteenthAgeCommand::StartAmbush { .. }) => "start_ambush",
            Command::Attack { .. } => "attack",
            Command::Move { .. } => "move",
            Command::ThirteenthAge(ThirteenthAgeCommand::Disengage { .. }) => "disengage",
            Command::ThirteenthAge(ThirteenthAgeCommand::Intercept { .. }) => "intercept",
            Command::Stabilize { .. } => "stabilize",
            Command::Rally { .. } => "rally",
            Command::LetGo { .. } => "let_go",
            Command::ThirteenthAge(ThirteenthAgeCommand::Teleport { .. }) => "teleport",
            Command::ThirteenthAge(ThirteenthAgeCommand::Delay { .. }) => "delay",
            Command::Ready { .. } => "ready",
            Command::ThirteenthAge(ThirteenthAgeCommand::FightInSpirit { .. }) => "fight_in_spirit",
            Command::ThirteenthAge(ThirteenthAgeCommand::UsePotion { .. }) => "use_potion",
            Command::ThirteenthAge(ThirteenthAgeCommand::Undelay { .. }) => "undelay",
            Command::EndTurn { .. } => "end_turn",
            Command::EndBattle => "end_battle",
            Command::QuickRest { .. } => "quick_rest",
            Command::FullHealUp => "full_heal_up",
            Command::EndSession => "end_session",
            Command::NextBattle => "next_battle",
            Command::ThirteenthAge(ThirteenthAgeCommand::Escalation { .. }) => "escalation",
            Command::Flee => "flee",
            Command::GrantTempHp { .. } => "grant_temp_hp",
            Command::ThirteenthAge(ThirteenthAgeCommand::SituationalModifier { .. }) => {
                "situational_modifier"
            }
            Command::StartSurprise { .. } => "start_surprise",
            Command::ReorderInitiative { .. } => "reorder_initiative",
            Command::Orcus(OrcusCommand::MoveTo { .. }) => "move_to",
            Command::Orcus(OrcusCommand::StandUp { .. }) => "stand_up",
            Command::Orcus(OrcusCommand::FullDefense { .. }) => "full_defense",
            Command::Orcus(OrcusCommand::SpendActionPoint { .. }) => "spend_action_point",
            Command::Orcus(OrcusCommand::AreaAttack { .. }) => "area_attack",
            Command::Orcus(OrcusCommand::Charge { .. }) => "charge",
            Command::Orcus(OrcusCommand::BullRush { .. }) => "bull_rush",
            Command::Orcus(OrcusCommand::Grapple { .. }) => "grapple",
            Command::Orcus(OrcusCommand::Escape { .. }) => "escape",
            Command::Orcus(OrcusCommand::Maintain { .. }) => "maintain",
            Command::Orcus(OrcusCommand::EndEffect { .. }) => "end_effect",
            Command::Orcus(OrcusCommand::ReadyCounter { .. }) => "ready_counter",
            Command::Orcus(OrcusCommand::Search { .. }) => "search",
            Command::Orcus(OrcusCommand::SkillAction { .. }) => "skill_action",
            Command::KnockOuts { .. } => "knock_outs",
            Command::FiveTorches(FiveTorchesCommand::Check { .. }) => "check",
            Command::FiveTorches(FiveTorchesCommand::GrantAdvantage { .. }) => "grant_advantage",
            Command::FiveTorches(FiveTorchesCommand::MoraleCheck { .. }) => "morale_check",
            Command::FiveTorches(FiveTorchesCommand::Retreat { .. }) => "retreat",
            Command::FiveTorches(FiveTorchesCommand::ResolveRetreat { .. }) => "resolve_retreat",
            Command::FiveTorches(FiveTorchesCommand::DelayTo { .. }) => "delay_to",
            Command::FiveTorches(FiveTorchesCommand::Heal { .. }) => "heal",
            Command::FiveTorches(FiveTorchesCommand::SetLight { .. }) => "set_light",
            Command::FiveTorches(FiveTorchesCommand::CarryLight { .. }) => "carry_light",
            Command::FiveTorches(FiveTorchesCommand::SetLoad { .. }) => "set_load",
            Command::FiveTorches(FiveTorchesCommand::TravelTurn { .. }) => "travel_turn",
            Command::FiveTorches(FiveTorchesCommand::ResilienceCheck { .. }) => "resilience_check",
            Command::FiveTorches(FiveTorchesCommand::Rest { .. }) => "rest",
            Command::Hide { .. } => "hide",
            Command::FiveTorches(FiveTorchesCommand::SetStealthDc { .. }) => "set_stealth_dc",
            Command::Reveal { .. } => "reveal",
            Command::FiveTorches(FiveTorchesCommand::Exhaust { .. }) => "exhaust",
            Command::FiveTorches(FiveTorchesCommand::ReadyAction { .. }) => "ready_action",
            Command::Orcus(OrcusCommand::Mount { .. }) => "mount",
            Command::Orcus(OrcusCommand::Dismount { .. }) => "dismount",
            Command::Orcus(OrcusCommand::CommandMount { .. }) => "command_mount",
            Command::Orcus(OrcusCommand::MoveAloft { .. }) => "move_aloft",
            Command::Bx(BxCommand::OseMove { .. }) => "ose_move",
            Command::Bx(BxCommand::OseHold { .. }) => "ose_hold",
        }
    }
}

/// How an attack is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum AttackMode {
    /// On the actor's turn, as a standard action (or the attack's own action type).
    #[default]
    Standard,
    /// 13th Age opportunity attack: a free basic melee attack, out of turn, against a foe that
    /// provoked it this turn (no flexible attacks).
    Opportunity,
    /// 13th Age coup de grace: against a helpless enemy the actor is engaged with; uses the
    /// standard, move and quick actions; an automatic critical hit.
    CoupDeGrace,
}

/// What the GM does with the escalation die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum EscalationAction {
    /// It stops advancing (the heroes avoid the fight).
    Hold,
    /// It advances again each round.
    Resume,
    /// Back to 0 (combat virtually ceased).
    Reset,
}

/// Orcus § Weapon properties, Side Weapon: which of the hero's weapons a Weapon power is made
/// with ("Each time you make a weapon attack (including a weapon power), you choose which
/// weapon you attack with").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WeaponHand {
    /// The main weapon.
    #[default]
    Main,
    /// The side weapon in the off hand.
    Side,
}

crate::namespace::namespaced!(
    Command,
    "command",
    command_owners,
    [
        (ThirteenthAge, ThirteenthAgeCommand),
        (Orcus, OrcusCommand),
        (FiveTorches, FiveTorchesCommand),
        (Bx, BxCommand),
    ]
);
