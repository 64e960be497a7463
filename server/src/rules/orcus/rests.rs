//! Orcus rests (orcus-basic-rules.txt § Resting), for sessions whose encounter sets
//! `[options] rests = true`: after the battle the GM has heroes take short rests
//! (`quick_rest`: spend recoveries, recharge encounter powers, reset death saves, a knocked-out
//! hero comes to with 1 hp) and the party a long rest (`full_heal_up`: every hit point, recovery
//! and power, action points back to 1); `end_session` then reveals the seed. The party's rest
//! also recharges the powers of the monsters still in the session and brings knocked-out ones to
//! with 1 hp (`others_come_to`).

use super::Board;
use super::commands::{R, fighter, no, restore_hp, spend_recovery};
use crate::content::model::Frequency;
use crate::rules::common::battles::after_battle;
use crate::rules::common::decider::Decider;
use fray_protocol::ErrorCode;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::CombatantId;
use fray_protocol::state::LifeStatus;

/// § Short rest: spend `recoveries` (healing the recovery value each), recharge expended
/// encounter and recharge powers (§ Unusual recharge conditions), reset failed death saves
/// (§ Death saving throws); a knocked-out hero heals 1 hp (§ Knocking a creature out).
pub fn short_rest(d: &mut Decider, b: &Board, actor: &CombatantId, recoveries: u32) -> R {
    after_battle(d)?;
    let f = fighter(d, actor)?;
    let Some(h) = f.hero else {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("{} is not a hero", f.c.name),
        ));
    };
    if f.vit.0 == LifeStatus::Dead {
        return Err(no(ErrorCode::CannotAct, format!("{} is dead", f.c.name)));
    }
    let available = u32::try_from(h.recoveries.max(0)).unwrap_or(0);
    if recoveries > available {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("{} has {available} recoveries, not {recoveries}", f.c.name),
        ));
    }
    let expended = regained(b, actor, &f.used.0, false);
    let knocked_out = f.vit.0 == LifeStatus::KnockedOut;
    // The party rests together (interpretation): the first short rest after a battle or a
    // long rest takes the 5 minutes; the others' rests fall in the same minutes.
    if !d.field.all().any(|f| f.hero.is_some_and(|h| h.rested)) {
        super::sessions::advance(d, super::sessions::SHORT_REST_MINUTES);
        others_come_to(d, b, false);
    }
    d.emit(GameEvent::QuickRested {
        combatant: actor.clone(),
    });
    if knocked_out && let Some(mut v) = d.overlay.vitals(d.field, actor) {
        let to = v.current.max(1);
        restore_hp(d, actor, &mut v, to, false, true);
    }
    for _ in 0..recoveries {
        spend_recovery(d, b, actor, true)?;
    }
    for power in expended {
        d.emit(GameEvent::PowerRegained {
            combatant: actor.clone(),
            power,
            roll: None,
        });
    }
    Ok(())
}

/// § Long rest: every hero not dead regains all hit points, recoveries, encounter and daily
/// powers, and its action points reset to 1. It takes 6 hours of the session clock, and one
/// long rest per 24 hours (refused `long_rest_too_soon`).
pub fn long_rest(d: &mut Decider, b: &Board) -> R {
    after_battle(d)?;
    super::sessions::long_rest_allowed(d)?;
    super::sessions::advance(d, super::sessions::LONG_REST_MINUTES);
    others_come_to(d, b, true);
    d.emit(GameEvent::FullHealUp);
    Ok(())
}

/// The expended powers a rest recharges (§ Short rest: encounter powers; § Recharge X–Y and
/// § Unusual recharge conditions: recharge powers "also recharge when the monster finishes a
/// short or long rest"; § Long rest: daily powers too), with the once-per-encounter skill
/// actions Feint and Create Diversion, in the kit's order.
fn regained(
    b: &Board,
    id: &CombatantId,
    used: &std::collections::BTreeSet<String>,
    long: bool,
) -> Vec<String> {
    b.get(id)
        .map(|(_, kit)| {
            kit.0
                .powers
                .iter()
                .filter(|p| used.contains(&p.id))
                .filter(|p| {
                    matches!(
                        p.frequency,
                        Frequency::Encounter
                            | Frequency::Recharge { .. }
                            | Frequency::RechargeIf(_)
                    ) || (long && p.frequency == Frequency::Daily)
                })
                .map(|p| p.id.clone())
                .chain(
                    [super::skills::FEINT, super::skills::CREATE_DIVERSION]
                        .into_iter()
                        .filter(|s| used.contains(*s))
                        .map(str::to_owned),
                )
                .collect()
        })
        .unwrap_or_default()
}

/// The party's rest (the short rest's first 5 minutes, or a long rest) passes for the
/// creatures that are not heroes still in the session (not slain: e.g. a captive, one that
/// surrendered, or all of them when the GM ended the battle), though they take no rest
/// commands (interpretation): every expended power the rest recharges comes back
/// (`power_regained`: encounter and recharge powers, daily ones too on a long rest — § Recharge
/// X–Y, § Unusual recharge conditions, § Short rest, § Long rest), and each knocked-out one
/// comes to with 1 hp (§ Knocking a creature out: "It heals 1 HP after a short rest"). Their
/// hit points are not otherwise restored: they spend no recoveries, and § Long rest's hit
/// points are "a character's".
fn others_come_to(d: &mut Decider, b: &Board, long: bool) {
    let others: Vec<(CombatantId, Vec<String>)> = d
        .field
        .all()
        .filter(|f| f.hero.is_none() && !matches!(f.vit.0, LifeStatus::Dead | LifeStatus::Slain))
        .map(|f| (f.c.id.clone(), regained(b, &f.c.id, &f.used.0, long)))
        .collect();
    for (id, powers) in &others {
        for power in powers {
            d.emit(GameEvent::PowerRegained {
                combatant: id.clone(),
                power: power.clone(),
                roll: None,
            });
        }
    }
    let out: Vec<CombatantId> = d
        .field
        .all()
        .filter(|f| f.hero.is_none() && f.vit.0 == LifeStatus::KnockedOut)
        .map(|f| f.c.id.clone())
        .collect();
    for id in out {
        if let Some(mut v) = d.overlay.vitals(d.field, &id)
            && v.status == LifeStatus::KnockedOut
        {
            let to = v.current.max(1);
            restore_hp(d, &id, &mut v, to, false, true);
        }
    }
}

/// The GM ends the session: the seed is revealed.
pub fn end_session(d: &mut Decider) -> R {
    after_battle(d)?;
    d.emit(GameEvent::SessionEnded);
    Ok(())
}
