//! Old-School Essentials' and Basic Fantasy's built-in policy (the demo bots; the server
//! playing monsters): simple and legal under side initiative and the round's phases
//! (`round.rs`). The GM starts the battle; on its turn a combatant with its action unused attacks
//! the first enemy still in the fight (conscious, not fled) — with a melee weapon when it has
//! one, else a missile at short range, unless its group has passed the missile phase — and
//! otherwise ends its turn. After the battle the GM goes on or ends the session.

use crate::rules::common::policy::{my_turn, outside_battle};
use fray_protocol::ids::Role;
use fray_protocol::ose::{MissileRange, OsePhase};
use fray_protocol::state::{AttackSummary, CombatantState, LifeStatus};
use fray_protocol::{BxCommand, Command, SessionState};

/// An enemy still in the fight: conscious and not fled.
fn in_fight(c: &CombatantState) -> bool {
    c.status == LifeStatus::Conscious && c.ose.as_ref().is_none_or(|o| !o.fled)
}

/// The latest phase any member of `me`'s group acted in this round: the run of the order's
/// combatants of its side around it (§ Combat Sequence Per Round; a slow-weapon group counts
/// with its side here, which only makes the policy more careful).
fn group_phase(s: &SessionState, me: &CombatantState) -> Option<OsePhase> {
    let at = s.order.iter().position(|c| *c == me.id)?;
    let same = |i: usize| {
        s.order
            .get(i)
            .and_then(|id| s.combatant(id))
            .filter(|c| c.side == me.side)
    };
    let before = (0..at).rev().map_while(same);
    let after = (at..s.order.len()).map_while(same);
    before
        .chain(after)
        .filter_map(|c| c.ose.as_ref().and_then(|o| o.phase))
        .max()
}

/// The weapon to use: a melee one first, else a missile one while the group may still shoot.
fn weapon<'a>(s: &SessionState, me: &'a CombatantState) -> Option<&'a AttackSummary> {
    let usable = |a: &&AttackSummary| !a.spell;
    if let Some(a) = me
        .attacks
        .iter()
        .filter(usable)
        .find(|a| a.range != "missile")
    {
        return Some(a);
    }
    let shooting = group_phase(s, me).is_none_or(|p| p <= OsePhase::Missiles);
    me.attacks
        .iter()
        .filter(usable)
        .find(|a| a.range == "missile")
        .filter(|_| shooting)
}

/// The policy's next command for `role`, if any.
pub fn choose(role: &Role, s: &SessionState, _salt: u64) -> Option<Command> {
    if let Some(outside) = outside_battle(role, s) {
        return outside;
    }
    let me = my_turn(role, s)?;
    let end = Command::EndTurn {
        actor: me.id.clone(),
    };
    if !me.actions.standard {
        return Some(end);
    }
    let foe = s
        .combatants
        .iter()
        .find(|c| c.side != me.side && in_fight(c));
    let (Some(foe), Some(a)) = (foe, weapon(s, me)) else {
        return Some(end);
    };
    let range = (a.range == "missile").then_some(MissileRange::Short);
    Some(Command::Bx(BxCommand::OseAttack {
        actor: me.id.clone(),
        attack: a.id.clone(),
        target: foe.id.clone(),
        range,
        modifier: 0,
        behind: false,
    }))
}
