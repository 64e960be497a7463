//! Orcus § Secondary attacks (`orcus-basic-rules.txt`): a secondary attack against "one
//! creature (or enemy) of the user's choice within N" of the primary target (content `targets`
//! `one_creature_within_N_of_primary` / `one_enemy_within_N_of_primary`). The user names the
//! creature in the `attack`/`area_attack` field `secondary_target`, checked before any die is
//! drawn (`secondary_target_required`, `invalid_secondary_target`); the other target rules
//! around the primary target are Fray's to pick (`commands.rs::adjacent_to_primaries`).

use super::Board;
use super::commands::{R, adjacent_to_primaries, is_enemy, no};
use super::elevation;
use super::geometry;
use crate::content::model::{PowerSpec, SecondaryAttack, SecondaryTargets};
use crate::rules::common::decider::Decider;
use fray_protocol::ErrorCode;
use fray_protocol::ids::CombatantId;
use fray_protocol::state::LifeStatus;

/// The choice a secondary target rule asks for: `(within, enemies only)`, or `None` when Fray
/// picks the secondary targets.
fn choice(rule: SecondaryTargets) -> Option<(u32, bool)> {
    match rule {
        SecondaryTargets::OneCreatureWithinOfPrimary { within } => Some((within, false)),
        SecondaryTargets::OneEnemyWithinOfPrimary { within } => Some((within, true)),
        _ => None,
    }
}

/// Why `c` may not be the chosen secondary target around `anchors`, or `None` when it may:
/// it must be in the fight, neither the user nor a primary target, an enemy of the user for
/// "one enemy", and within `within` squares of an anchor (§ Range, counting height as every
/// Orcus distance does).
fn unfit(
    d: &Decider,
    b: &Board,
    attacker: &CombatantId,
    primaries: &[CombatantId],
    anchors: &[CombatantId],
    (within, enemies_only): (u32, bool),
    c: &CombatantId,
) -> Option<String> {
    let Some(f) = d.field.get(c) else {
        return Some(format!("{c} is not in this battle"));
    };
    if c == attacker {
        return Some("the user is never its own secondary target".into());
    }
    if primaries.contains(c) {
        return Some(format!("{} is a primary target", f.c.name));
    }
    if matches!(f.vit.0, LifeStatus::Dead | LifeStatus::Slain) {
        return Some(format!("{} is out of the fight", f.c.name));
    }
    if enemies_only && !is_enemy(d, attacker, c) {
        return Some(format!(
            "the secondary attack targets one enemy; {} is not",
            f.c.name
        ));
    }
    let Ok(at) = elevation::body(d, b, c) else {
        return Some(format!("{} is not on the map", f.c.name));
    };
    let near = anchors.iter().any(|a| {
        elevation::body(d, b, a)
            .is_ok_and(|s| i64::from(geometry::distance_3d(s, at)) <= i64::from(within))
    });
    if !near {
        return Some(format!(
            "{} is not within {within} squares of a primary target",
            f.c.name
        ));
    }
    None
}

/// Checks the user's `secondary_target` before any die is drawn: named only for a power whose
/// secondary attack takes one creature (or enemy) of the user's choice, and then required while
/// such a creature is within N squares of a primary target (none: the attack goes on without
/// one). A refusal changes nothing.
pub(super) fn check(
    d: &Decider,
    b: &Board,
    attacker: &CombatantId,
    p: &PowerSpec,
    primaries: &[CombatantId],
    chosen: Option<&CombatantId>,
) -> R {
    let Some(rule) = p.secondary.as_ref().and_then(|s| choice(s.targets)) else {
        return match chosen {
            None => Ok(()),
            Some(c) => Err(no(
                ErrorCode::InvalidSecondaryTarget,
                format!(
                    "{} has no secondary attack against a creature of the user's choice; leave \
                     secondary_target out (not {c})",
                    p.name
                ),
            )),
        };
    };
    match chosen {
        Some(c) => match unfit(d, b, attacker, primaries, primaries, rule, c) {
            None => Ok(()),
            Some(why) => Err(no(
                ErrorCode::InvalidSecondaryTarget,
                format!("{}: {why}", p.name),
            )),
        },
        None => {
            let open: Vec<String> = d
                .field
                .all()
                .filter(|f| unfit(d, b, attacker, primaries, primaries, rule, &f.c.id).is_none())
                .map(|f| f.c.id.to_string())
                .collect();
            if open.is_empty() {
                Ok(())
            } else {
                let (within, enemies) = rule;
                let who = if enemies { "enemy" } else { "creature" };
                Err(no(
                    ErrorCode::SecondaryTargetRequired,
                    format!(
                        "{}'s secondary attack takes one {who} of your choice within {within} \
                         squares of the primary target: name it in secondary_target (one of {})",
                        p.name,
                        open.join(", ")
                    ),
                ))
            }
        }
    }
}

/// The secondary attack's targets after the primary attack: for a rule of the user's choice,
/// the chosen creature if it still qualifies around `anchors` (the primary targets for which
/// the secondary attack takes place, where they stand now; nobody otherwise, and nobody
/// without a choice — an attack made outside the `attack`/`area_attack` commands); for the
/// other rules, Fray's pick.
pub(super) fn targets(
    d: &Decider,
    b: &Board,
    attacker: &CombatantId,
    primaries: &[CombatantId],
    anchors: &[CombatantId],
    sec: &SecondaryAttack,
    chosen: Option<&CombatantId>,
) -> Vec<CombatantId> {
    match choice(sec.targets) {
        None => adjacent_to_primaries(d, b, attacker, primaries, anchors, sec.targets),
        Some(rule) => chosen
            .filter(|c| unfit(d, b, attacker, primaries, anchors, rule, c).is_none())
            .map(|c| vec![c.clone()])
            .unwrap_or_default(),
    }
}
