//! Old-School Essentials (`ose-adventuring.txt`) § Other Combat Issues: conditions the GM sets
//! (`ose_condition`: blind, paralyzed, on an unstable surface, exhausted from running) and what
//! they do to attacks and spells, attacking from behind, and unarmed attacks. `attack_cmd` in
//! `commands.rs` asks these helpers.

use super::Sheets;
use super::commands::{R, name, no, sheet};
use crate::content::model::{OseAttackSpec, OseSpec};
use crate::rules::common::decider::Decider;
use fray_protocol::BxEvent;
use fray_protocol::ErrorCode;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::CombatantId;
use fray_protocol::ose::{OseCombatant, OseCondition};
use fray_protocol::roll::Modifiers;
use fray_protocol::state::Phase;

/// Whether a combatant has a condition.
pub fn has(sh: &OseCombatant, c: OseCondition) -> bool {
    sh.conditions.contains(&c)
}

/// GM: sets or clears a condition; refused when nothing would change.
pub fn condition(
    d: &mut Decider,
    s: &Sheets,
    who: &CombatantId,
    cond: OseCondition,
    on: bool,
) -> R {
    if d.field.battle.phase == Phase::Ended {
        return Err(no(ErrorCode::BattleOver, "the battle is over"));
    }
    let (sh, _) = sheet(s, who)?;
    if has(sh, cond) == on {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!(
                "{} is {}{cond:?}",
                name(d, who),
                if on { "already " } else { "not " }
            )
            .to_lowercase(),
        ));
    }
    d.emit(GameEvent::Bx(BxEvent::OseConditionChanged {
        combatant: who.clone(),
        condition: cond,
        on,
    }));
    Ok(())
}

/// The GM's condition overrides (`add_condition`, `remove_condition`): the conditions of
/// § Other Combat Issues by their wire names; they last until cleared (no duration). The
/// `gm_override` marker comes first, then `ose_condition_changed`.
pub fn gm_override(
    d: &mut Decider,
    s: &Sheets,
    who: &CombatantId,
    name: &str,
    timed: bool,
    on: bool,
) -> R {
    let Some(cond) = super::GM_CONDITIONS
        .iter()
        .position(|n| *n == name)
        .and_then(|i| ALL.get(i).copied())
    else {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!(
                "'{name}' is not a condition of this ruleset (valid: {})",
                super::GM_CONDITIONS.join(", ")
            ),
        ));
    };
    if timed {
        return Err(no(
            ErrorCode::InvalidArgument,
            "these conditions last until the GM clears them: send no duration",
        ));
    }
    // A refusal below discards the marker with every event of the pass.
    d.emit(GameEvent::GmOverride {
        command: if on {
            "add_condition"
        } else {
            "remove_condition"
        }
        .into(),
        combatant: Some(who.clone()),
    });
    condition(d, s, who, cond, on)
}

/// The conditions of `GM_CONDITIONS`, in its order.
const ALL: [OseCondition; 7] = [
    OseCondition::Blind,
    OseCondition::Paralyzed,
    OseCondition::Unstable,
    OseCondition::Exhausted,
    OseCondition::CompleteCover,
    OseCondition::Swimming,
    OseCondition::Underwater,
];

/// § Unarmed Attacks: "1d2 damage, modified by STR", handled as melee — the attack id
/// `unarmed`, for anyone whose stat block has no attack of that id.
pub fn unarmed(kit: &OseSpec, attack: &str) -> Option<OseAttackSpec> {
    (attack == "unarmed" && !kit.attacks.iter().any(|a| a.id == attack)).then(|| OseAttackSpec {
        id: "unarmed".into(),
        name: "Unarmed".into(),
        damage: "1d2".into(),
        ranges: None,
        slow: false,
        kinds: Vec::new(),
        routine: false,
    })
}

/// § Targets Behind Cover, Complete cover: "The target cannot be hit" — the GM's condition
/// `complete_cover` on the target (Fray tracks no positions: cover is the GM's ruling).
pub fn may_be_attacked(d: &Decider, target: &OseCombatant, id: &CombatantId) -> R {
    if has(target, OseCondition::CompleteCover) {
        return Err(no(
            ErrorCode::CompleteCover,
            format!(
                "{} is behind complete cover: the target cannot be hit (§ Targets Behind Cover)",
                name(d, id)
            ),
        ));
    }
    Ok(())
}

/// § Blindness: "A blind character is unable to attack."
pub fn may_attack(d: &Decider, sh: &OseCombatant, actor: &CombatantId) -> R {
    if has(sh, OseCondition::Blind) {
        return Err(no(
            ErrorCode::Blinded,
            format!(
                "{} is blind and unable to attack (§ Blindness)",
                name(d, actor)
            ),
        ));
    }
    Ok(())
}

/// § Water: "Missile weapons: Usually do not work at all underwater" — refused while the GM
/// keeps the attacker `underwater` (the GM clears it for the unusual case).
pub fn may_shoot(d: &Decider, sh: &OseCombatant, actor: &CombatantId, missile: bool) -> R {
    if missile && has(sh, OseCondition::Underwater) {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!(
                "{} is underwater: missile weapons do not work there (§ Water)",
                name(d, actor)
            ),
        ));
    }
    Ok(())
}

/// § Unstable Surfaces: "Spells: Cannot be cast."
pub fn may_cast(d: &Decider, sh: &OseCombatant, actor: &CombatantId) -> R {
    if has(sh, OseCondition::Unstable) {
        return Err(no(
            ErrorCode::UnstableSurface,
            format!(
                "{} is on an unstable surface: spells cannot be cast (§ Unstable Surfaces)",
                name(d, actor)
            ),
        ));
    }
    Ok(())
}

/// What the conditions and the attacker's position change in an attack.
pub struct Circumstances {
    /// Added to the attack roll, term by term.
    pub to_hit: Modifiers,
    /// Added to the damage, term by term.
    pub damage: Modifiers,
    /// Added to the target's (descending) AC.
    pub ac: i32,
    /// § Paralyzed Opponents: a melee attack hits without a roll.
    pub automatic: bool,
}

/// § Attacking from Behind (the shield does not count), § Paralyzed Opponents (melee hits
/// automatically), § Unstable Surfaces (missiles −4), § Running, Effects of exhaustion (−2 to
/// attacks, damage and AC). `shield_gone`: the shield is already ignored (a retreating target).
pub fn circumstances(
    attacker: &OseCombatant,
    target: &OseCombatant,
    missile: bool,
    behind: bool,
    shield_gone: bool,
) -> Circumstances {
    let tired = has(attacker, OseCondition::Exhausted);
    let unstable = missile && has(attacker, OseCondition::Unstable);
    Circumstances {
        to_hit: Modifiers::new()
            .with("exhausted", -2 * i32::from(tired))
            .with("unstable surface", -4 * i32::from(unstable)),
        damage: Modifiers::new().with("exhausted", -2 * i32::from(tired)),
        ac: if behind && !shield_gone {
            target.shield
        } else {
            0
        } + 2 * i32::from(has(target, OseCondition::Exhausted)),
        automatic: !missile && has(target, OseCondition::Paralyzed),
    }
}
