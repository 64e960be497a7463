//! § Targets, Allies and enemies, and § Attack roll, Choosing to be hit
//! (`orcus-basic-rules.txt`): declarations made before an attack.
//!
//! - `choose_allies`: the user of a power chooses who counts as its allies for its next attack
//!   or area attack; every other creature is then its enemy. Without a choice its allies are
//!   its side. Never itself ("you are not your own ally": `not_ally`).
//! - `decline_ally`: a creature that would count as the user's ally chooses to count as its
//!   enemy for that action (`not_ally` when it would not count as its ally anyway).
//! - The choices last for the user's next attack or area attack (`allies_reset` after it) and
//!   end with the battle.
//! - `choose_to_be_hit`: a creature chooses to be hit by an attacker's next attack against it,
//!   with no attack roll (`hit_by_choice` in place of `attack_rolled`).
//!
//! Interpretations: the declarations take no action and may be made at any time in a running
//! battle (the text ties them to no action); they decide only whom a power's target rules
//! take ("for the purpose of that action") — flanking, cover, opportunity attacks and the
//! off-guard rules keep the two sides; a choice to be hit is a hit, not a critical hit, and
//! holds for any attacker (the text's example is an ally's attack).

use super::Board;
use super::commands::{R, alive, fighter, is_enemy, no, running};
use crate::rules::common::decider::Decider;
use fray_protocol::ErrorCode;
use fray_protocol::OrcusEvent;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::CombatantId;

/// Whether `t` counts as `user`'s ally for `user`'s current action.
pub fn is_ally(d: &Decider, b: &Board, user: &CombatantId, t: &CombatantId) -> bool {
    if t == user {
        return false;
    }
    let Some((g, _)) = b.get(user) else {
        return !is_enemy(d, user, t);
    };
    if g.0.declined_by.contains(t) {
        return false;
    }
    match &g.0.chosen_allies {
        Some(list) => list.contains(t),
        None => !is_enemy(d, user, t),
    }
}

/// `choose_allies`.
pub fn choose_allies(d: &mut Decider, actor: &CombatantId, allies: &[CombatantId]) -> R {
    running(d)?;
    alive(d, actor)?;
    let mut seen = Vec::new();
    for a in allies {
        fighter(d, a)?;
        if a == actor {
            return Err(no(ErrorCode::NotAlly, "you are not your own ally"));
        }
        if seen.contains(a) {
            return Err(no(
                ErrorCode::InvalidArgument,
                format!("{a} is named twice"),
            ));
        }
        seen.push(a.clone());
    }
    d.emit(GameEvent::Orcus(OrcusEvent::AlliesChosen {
        combatant: actor.clone(),
        allies: seen,
    }));
    Ok(())
}

/// `decline_ally`.
pub fn decline_ally(d: &mut Decider, b: &Board, actor: &CombatantId, user: &CombatantId) -> R {
    running(d)?;
    alive(d, actor)?;
    fighter(d, user)?;
    if !is_ally(d, b, user, actor) {
        return Err(no(
            ErrorCode::NotAlly,
            format!("{actor} does not count as {user}'s ally"),
        ));
    }
    d.emit(GameEvent::Orcus(OrcusEvent::AllyDeclined {
        combatant: actor.clone(),
        user: user.clone(),
    }));
    Ok(())
}

/// `choose_to_be_hit`.
pub fn choose_to_be_hit(d: &mut Decider, actor: &CombatantId, attacker: &CombatantId) -> R {
    running(d)?;
    alive(d, actor)?;
    alive(d, attacker)?;
    if attacker == actor {
        return Err(no(
            ErrorCode::InvalidTarget,
            "a creature chooses to be hit by another's attack",
        ));
    }
    d.emit(GameEvent::Orcus(OrcusEvent::HitChosen {
        combatant: actor.clone(),
        attacker: attacker.clone(),
    }));
    Ok(())
}

/// Whether `target` chose to be hit by `attacker`'s attack (and has not been hit so yet in
/// this decision).
pub fn hit_by_choice(d: &Decider, b: &Board, attacker: &CombatantId, target: &CombatantId) -> bool {
    let used = d.events().iter().any(|e| {
        matches!(e, GameEvent::Orcus(OrcusEvent::HitByChoice { attacker: a, target: t, .. }) if a == attacker && t == target)
    });
    !used
        && b.get(attacker)
            .is_some_and(|(g, _)| g.0.hit_chosen_by.contains(target))
}

/// After `user`'s attack: its choices of allies are spent.
pub fn spent(d: &mut Decider, b: &Board, user: &CombatantId) {
    if b.get(user)
        .is_some_and(|(g, _)| g.0.chosen_allies.is_some() || !g.0.declined_by.is_empty())
    {
        d.emit(GameEvent::Orcus(OrcusEvent::AlliesReset {
            combatant: user.clone(),
        }));
    }
}
