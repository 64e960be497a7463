//! Old-School Essentials (`ose-adventuring.txt` § Combat): the order of a side's round and
//! movement in it.
//!
//! - § Combat Sequence Per Round: a side acts in phases — (monster morale,) movement, missile
//!   attacks, spell casting, melee attacks. Fray keeps one turn per combatant, and the side's
//!   phases only go forward: a member's action of a phase its **group** has passed is refused
//!   (`phase_passed`). A group is the run of the round's order made of one side's combatants
//!   acting together — the side, with its slow-weapon users apart as their own group at the end
//!   of the round (§ Slow Weapons: "as if they had lost initiative"); under § Individual
//!   Initiative (optional) each combatant is its own group (its own actions keep the phase
//!   order). Monster morale is the GM's `ose_morale`, at any time.
//! - Because the text has a side's members act together, any order among them is fair:
//!   `ose_hold` lets the current combatant, before it does anything, move to the end of its
//!   group (`turn_held`); the next member takes the turn, and the holder's comes back after the
//!   group's last. Nobody left to act after it: `cannot_hold`.
//! - § Movement Outside of Melee (`ose_move`): up to the encounter rate per round in all — a third
//!   of the base rate (§ Encounters, Movement; Basic Fantasy: the rate per round `set_encumbrance`
//!   gave, if any). § In Melee: a combatant in melee moves only in a declared fighting withdrawal
//!   (half the encounter rate) or retreat (the encounter rate); either takes it out of melee.
//!   "In melee" is Fray's record, as it tracks no positions: the foes a combatant exchanged a
//!   melee attack with (`melee_engaged`) since it last withdrew or retreated, while they are in
//!   the fight. § Spell Casting, No movement: a caster who moved this round cannot cast, one who
//!   cast cannot move (`no_move_and_cast`).
//! - § Movement Outside of Melee, "Maximum duration: Combatants may move at this rate for at
//!   most 60 rounds": the rounds of the encounter in which a combatant moved at its encounter
//!   rate are counted (`move_rounds`, with the round's first move); once it has 60, a move at
//!   that rate in a new round is refused (`max_duration`). *Interpretation*: the text names no
//!   consequence beyond the limit, so the movement stops (the GM may rule exhaustion with
//!   `ose_condition`); a fighting withdrawal or retreat is § In Melee's movement, not counted
//!   and not refused; a round's further moves within its allowance are not refused either.

use super::Sheets;
use super::commands::{R, name, no, on_turn, sheet, side_of, up};
use crate::content::model::OseSpec;
use crate::rules::common::decider::Decider;
use fray_protocol::BxEvent;
use fray_protocol::ErrorCode;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::ose::{Declaration, InitiativeRule, OseCondition, OseMoveKind, OsePhase};

/// The longest single move accepted (feet), a bound on input only.
const MAX_FEET: u32 = 1000;

/// § Movement Outside of Melee, "Maximum duration: Combatants may move at this rate for at most
/// 60 rounds."
pub const MAX_ROUNDS: u32 = 60;

/// § Slow Weapons: a combatant whose attacks are all slow (it acts last).
pub fn slow_only(s: &Sheets, id: &CombatantId) -> bool {
    s.get(id)
        .is_some_and(|(_, k)| !k.attacks.is_empty() && k.attacks.iter().all(|a| a.slow))
}

fn phase_name(p: OsePhase) -> &'static str {
    match p {
        OsePhase::Movement => "movement",
        OsePhase::Missiles => "missile",
        OsePhase::Spells => "spell-casting",
        OsePhase::Melee => "melee",
    }
}

/// The actor's group in the round's order (see the module's doc), the actor included.
fn group(d: &Decider, s: &Sheets, actor: &CombatantId) -> Vec<CombatantId> {
    let order = &d.field.battle.order;
    let Some(at) = order.iter().position(|c| c == actor) else {
        return vec![actor.clone()];
    };
    if s.battle().options.initiative == InitiativeRule::Individual {
        return vec![actor.clone()];
    }
    let key = |id: &CombatantId| (d.field.get(id).map(|f| f.c.side), slow_only(s, id));
    let mine = key(actor);
    let mut start = at;
    while start > 0 && key(&order[start - 1]) == mine {
        start -= 1;
    }
    let mut end = at + 1;
    while end < order.len() && key(&order[end]) == mine {
        end += 1;
    }
    order[start..end].to_vec()
}

/// The phase the actor's group has reached this round.
fn group_phase(d: &Decider, s: &Sheets, actor: &CombatantId) -> Option<OsePhase> {
    group(d, s, actor)
        .iter()
        .filter_map(|id| s.get(id).and_then(|(sh, _)| sh.phase))
        .max()
}

/// § Combat Sequence Per Round: the actor acts in `phase` — refused when its group has passed
/// it; records the phase when it is later than the actor's own.
pub(super) fn enter_phase(d: &mut Decider, s: &Sheets, actor: &CombatantId, phase: OsePhase) -> R {
    if let Some(reached) = group_phase(d, s, actor)
        && reached > phase
    {
        let side = match side_of(d, actor)? {
            Side::Heroes => "the party",
            Side::Monsters => "the monsters",
        };
        return Err(no(
            ErrorCode::PhasePassed,
            format!(
                "{side} reached the {} phase this round: {}'s {} comes before it (§ Combat \
                 Sequence Per Round: movement, missiles, spells, melee; ose_hold lets others \
                 act first)",
                phase_name(reached),
                name(d, actor),
                phase_name(phase)
            ),
        ));
    }
    let own = s.get(actor).and_then(|(sh, _)| sh.phase);
    if own < Some(phase) {
        d.emit(GameEvent::Bx(BxEvent::PhaseReached {
            combatant: actor.clone(),
            phase,
        }));
    }
    Ok(())
}

/// The foes the combatant is in melee with (still in the fight).
pub(super) fn melee_foes(d: &mut Decider, s: &Sheets, id: &CombatantId) -> Vec<CombatantId> {
    let engaged = s
        .get(id)
        .map(|(sh, _)| sh.engaged.clone())
        .unwrap_or_default();
    engaged.into_iter().filter(|f| up(d, s, f)).collect()
}

/// § In Melee: a melee attack puts attacker and target in melee.
pub(super) fn engage(d: &mut Decider, s: &Sheets, attacker: &CombatantId, target: &CombatantId) {
    let already = s
        .get(attacker)
        .is_some_and(|(sh, _)| sh.engaged.contains(target));
    if !already {
        d.emit(GameEvent::Bx(BxEvent::MeleeEngaged {
            attacker: attacker.clone(),
            target: target.clone(),
        }));
    }
}

/// § Encounters, Movement: the encounter rate per round — a third of the base rate; Basic
/// Fantasy's `set_encumbrance` gives a rate per round, used as it is.
fn encounter_rate(s: &Sheets, id: &CombatantId, kit: &OseSpec) -> u32 {
    u32::try_from(super::encumbrance::per_round(s, id, kit)).unwrap_or(0)
}

/// § Spell Casting, No movement: a caster that moved this round cannot cast.
pub(super) fn may_cast(d: &Decider, s: &Sheets, actor: &CombatantId) -> R {
    let moved = s.get(actor).map_or(0, |(sh, _)| sh.moved);
    if moved > 0 {
        return Err(no(
            ErrorCode::NoMoveAndCast,
            format!(
                "{} moved {moved}′ this round and cannot cast (§ Spell Casting, No movement)",
                name(d, actor)
            ),
        ));
    }
    Ok(())
}

/// `ose_move`: on its turn, in the movement phase, within the round's allowance.
pub fn move_cmd(d: &mut Decider, s: &Sheets, actor: &CombatantId, feet: u32) -> R {
    on_turn(d, actor)?;
    let (sh, kit) = sheet(s, actor)?;
    if !up(d, s, actor) || sh.conditions.contains(&OseCondition::Paralyzed) {
        return Err(no(
            ErrorCode::CannotAct,
            format!("{} cannot move", name(d, actor)),
        ));
    }
    if feet == 0 || feet > MAX_FEET {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("a move is 1 to {MAX_FEET} feet"),
        ));
    }
    if sh.phase == Some(OsePhase::Spells) {
        return Err(no(
            ErrorCode::NoMoveAndCast,
            format!(
                "{} cast a spell this round and cannot move (§ Spell Casting, No movement)",
                name(d, actor)
            ),
        ));
    }
    let kind = match sh.declared {
        Some(Declaration::Withdraw) => OseMoveKind::Withdrawal,
        Some(Declaration::Retreat) => OseMoveKind::Retreat,
        _ => OseMoveKind::Encounter,
    };
    if kind == OseMoveKind::Encounter {
        let foes = melee_foes(d, s, actor);
        if let Some(foe) = foes.first() {
            return Err(no(
                ErrorCode::InMelee,
                format!(
                    "{} is in melee with {}: only a declared fighting withdrawal or retreat \
                     moves it (§ In Melee)",
                    name(d, actor),
                    name(d, foe)
                ),
            ));
        }
    }
    if kind == OseMoveKind::Encounter && sh.moved == 0 && sh.move_rounds >= MAX_ROUNDS {
        return Err(no(
            ErrorCode::MaxDuration,
            format!(
                "{} has moved at its encounter rate in {MAX_ROUNDS} rounds of this encounter \
                 and may move no further at that rate (§ Movement Outside of Melee, Maximum \
                 duration)",
                name(d, actor)
            ),
        ));
    }
    super::encumbrance::may_move(d, s, actor, kit)?;
    let mut rate = encounter_rate(s, actor, kit);
    // § Swimming: "Characters move at half their normal movement rate when swimming".
    if sh.conditions.contains(&OseCondition::Swimming) {
        rate /= 2;
    }
    let allowed = match kind {
        // § In Melee, Fighting withdrawal: "up to half their encounter movement rate".
        OseMoveKind::Withdrawal => rate / 2,
        OseMoveKind::Encounter | OseMoveKind::Retreat => rate,
    };
    let total = sh.moved.saturating_add(feet);
    if total > allowed {
        return Err(no(
            ErrorCode::TooFar,
            format!(
                "{} may move {allowed}′ this round ({}′ moved already; {})",
                name(d, actor),
                sh.moved,
                match kind {
                    OseMoveKind::Withdrawal =>
                        "§ In Melee: a fighting withdrawal is half the encounter rate",
                    OseMoveKind::Retreat => "§ In Melee: a retreat is the encounter rate",
                    OseMoveKind::Encounter => "§ Movement Outside of Melee: the encounter rate",
                }
            ),
        ));
    }
    enter_phase(d, s, actor, OsePhase::Movement)?;
    d.emit(GameEvent::Bx(BxEvent::OseMoved {
        combatant: actor.clone(),
        feet,
        kind,
        total,
        allowed,
    }));
    Ok(())
}

/// `ose_hold`: before doing anything on its turn, the actor goes to the end of its group.
pub fn hold(d: &mut Decider, s: &Sheets, actor: &CombatantId) -> R {
    on_turn(d, actor)?;
    let (sh, _) = sheet(s, actor)?;
    if sh.phase.is_some() || sh.moved > 0 || !sh.routine_used.is_empty() {
        return Err(no(
            ErrorCode::CannotHold,
            format!("{} has already acted this turn", name(d, actor)),
        ));
    }
    let members = group(d, s, actor);
    let at = members.iter().position(|c| c == actor).unwrap_or(0);
    let later: Vec<CombatantId> = members[at + 1..].to_vec();
    if !later.iter().any(|c| up(d, s, c)) {
        return Err(no(
            ErrorCode::CannotHold,
            format!(
                "no one of {}'s group is left to act after it this round",
                name(d, actor)
            ),
        ));
    }
    let Some(last) = members.last() else {
        return Err(no(ErrorCode::CannotHold, "no group"));
    };
    let mut order = d.field.battle.order_without(actor);
    let after = order
        .iter()
        .position(|c| c == last)
        .map_or(order.len(), |i| i + 1);
    order.insert(after, actor.clone());
    d.emit(GameEvent::Bx(BxEvent::TurnHeld {
        combatant: actor.clone(),
        order,
    }));
    Ok(())
}
