//! Battles in a session: the end of a battle, rests after it, the next battle of the encounter,
//! and temporary hit points.

use super::decider::Decider;
use super::guards::{R, fighter, reject};
use crate::content::model::Usage;
use fray_protocol::ErrorCode;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::state::{LifeStatus, Phase};

/// `Some(winner)` when one side is out: every monster slain or knocked out (§ Unconscious), or
/// every hero unconscious or dead.
/// `Some(None)` if both are out at once.
pub fn battle_over(d: &Decider) -> Option<Option<Side>> {
    battle_over_without(d, |_| false)
}

/// [`battle_over`], not counting the combatants `gone` says have left the battle (Five Torches
/// Deep: fled, surrendered or escaped).
pub fn battle_over_without(
    d: &Decider,
    gone: impl Fn(&CombatantId) -> bool,
) -> Option<Option<Side>> {
    let mut heroes_up = false;
    let mut monsters_up = false;
    for (c, status) in d.field.statuses() {
        if gone(&c.id) {
            continue;
        }
        match (c.side, status) {
            (Side::Heroes, LifeStatus::Conscious) => heroes_up = true,
            (Side::Monsters, s) if !s.is_out() => monsters_up = true,
            _ => {}
        }
        if heroes_up && monsters_up {
            break;
        }
    }
    match (heroes_up, monsters_up) {
        (true, true) => None,
        (true, false) => Some(Some(Side::Heroes)),
        (false, true) => Some(Some(Side::Monsters)),
        (false, false) => Some(None),
    }
}

/// Rests happen after the battle, in sessions with the `rests` option, until the GM ends the
/// session.
pub fn after_battle(d: &Decider) -> R {
    if !d.field.options.0.rests {
        return reject(
            ErrorCode::InvalidArgument,
            "this session ends with its battle; rests need the encounter option `rests = true`",
        );
    }
    if d.field.battle.phase != Phase::Ended {
        return reject(
            ErrorCode::BattleNotStarted,
            "rests come after the battle is over",
        );
    }
    if d.field.battle.session_over {
        return reject(ErrorCode::BattleOver, "the session is over");
    }
    Ok(())
}

/// Several battles in one session (§ Rest and Recharge: "After each battle, you can use a quick
/// rest to get ready for the next battle"): the next battle of the encounter comes in. Heroes
/// keep what lasts between battles — hit points, recoveries, expended daily and recharge powers,
/// lasting wounds; once-per-battle powers are theirs again (they are used once *per battle*),
/// and the per-battle counts (death saves, rallies) start afresh.
pub fn next_battle(d: &mut Decider) -> R {
    after_battle(d)?;
    let number = d.field.battle.battle + 1;
    let Some(spec) = usize::try_from(number)
        .ok()
        .and_then(|n| n.checked_sub(2))
        .and_then(|i| d.field.later.0.get(i))
    else {
        return reject(
            ErrorCode::InvalidArgument,
            "this session's encounter has no more battles; end the session",
        );
    };
    if !d
        .field
        .all()
        .any(|f| f.c.side == Side::Heroes && f.vit.0 == LifeStatus::Conscious)
    {
        return reject(
            ErrorCode::InvalidArgument,
            "no hero is conscious: a quick rest (a recovery) gets a hero back on its feet first",
        );
    }
    let title = spec.title.clone();
    let monsters: Vec<CombatantId> = spec.monsters.iter().map(|m| m.id.clone()).collect();
    let mut regained = Vec::new();
    for f in d.field.all() {
        if f.hero.is_none() {
            continue;
        }
        for a in &f.arsenal.0 {
            if a.usage == Usage::OncePerBattle && f.used.0.contains(&a.id) {
                regained.push((f.c.id.clone(), a.id.clone()));
            }
        }
    }
    for (combatant, power) in regained {
        d.emit(GameEvent::PowerRegained {
            combatant,
            power,
            roll: None,
        });
    }
    d.emit(GameEvent::NewBattle {
        battle: number,
        title,
        monsters,
    });
    Ok(())
}

/// GM: temporary hit points (13th Age § Temporary Hit Points; Orcus § Temporary hit points):
/// they don't stack, the higher amount stays; they can exceed the maximum; they don't wake or
/// stabilize a creature at 0 hp.
pub fn grant_temp_hp(d: &mut Decider, target: &CombatantId, amount: i32) -> R {
    if d.field.battle.phase == Phase::Ended {
        return reject(ErrorCode::BattleOver, "the battle is over");
    }
    let f = fighter(d, target)?;
    if !(1..=1000).contains(&amount) {
        return reject(
            ErrorCode::InvalidArgument,
            format!("{amount} temporary hit points is outside 1..=1000"),
        );
    }
    if f.vit.0.is_out() {
        return reject(
            ErrorCode::InvalidTarget,
            format!("{} is out of the fight", f.c.name),
        );
    }
    let temp_after = f.hp.temp.max(amount);
    d.emit(GameEvent::TempHpGained {
        target: target.clone(),
        amount,
        temp_after,
    });
    Ok(())
}
