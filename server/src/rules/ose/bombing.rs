//! `ose-adventuring.txt` § Other Combat Issues, Bombing: a flying creature drops a rock or other
//! object from at most 300′; 16 or higher on 1d20 hits; the damage depends on the bomb (the
//! GM's `damage` dice) and strikes every creature hit in the area (the GM's `targets`).

use super::Sheets;
use super::commands::{R, deal, name, no, pay, sheet, up};
use crate::content::model::OseAttackSpec;
use crate::dice::Placeholders;
use crate::rules::common::decider::Decider;
use fray_protocol::BxEvent;
use fray_protocol::ErrorCode;
use fray_protocol::event::{AttackOutcome, DamageCause, Defense, GameEvent};
use fray_protocol::ids::CombatantId;
use std::collections::BTreeSet;

/// The d20 a bomb needs (§ Bombing, Chance to hit).
pub const TO_HIT: u32 = 16;
/// The highest altitude a bomb may be dropped from, in feet (§ Bombing, Altitude).
pub const MAX_ALTITUDE: u32 = 300;
/// The attack id in the events.
const BOMB: &str = "bomb";

/// `bomb`: on the flier's turn, its attack of the round; one d20 per target (16+ hits, no
/// modifiers); *interpretation*: the damage is rolled once for all creatures hit (the text's
/// "2d6 damage to all creatures hit").
pub fn bomb(
    d: &mut Decider,
    s: &Sheets,
    attacker: &CombatantId,
    targets: &[CombatantId],
    damage: &str,
    altitude: u32,
) -> R {
    let (sh, kit) = sheet(s, attacker)?;
    if !kit.flies {
        return Err(no(
            ErrorCode::CannotBomb,
            format!(
                "{} does not fly: only flying creatures drop bombs (§ Bombing)",
                name(d, attacker)
            ),
        ));
    }
    if altitude == 0 || altitude > MAX_ALTITUDE {
        return Err(no(
            ErrorCode::CannotBomb,
            format!("bombs are dropped from 1' to {MAX_ALTITUDE}' (§ Bombing, Altitude)"),
        ));
    }
    if targets.is_empty() || targets.len() > 20 {
        return Err(no(
            ErrorCode::WrongTargetCount,
            "a bomb falls on 1 to 20 creatures",
        ));
    }
    let mut seen = BTreeSet::new();
    for t in targets {
        sheet(s, t)?;
        if !seen.insert(t) {
            return Err(no(
                ErrorCode::InvalidArgument,
                format!("{} is listed twice", name(d, t)),
            ));
        }
        if t == attacker {
            return Err(no(ErrorCode::InvalidTarget, "a flier cannot bomb itself"));
        }
        if !up(d, s, t) {
            return Err(no(
                ErrorCode::InvalidTarget,
                format!("{} is out of the fight", name(d, t)),
            ));
        }
    }
    crate::rules::common::decide::damage_dice_ok(damage)?;
    if !sh.routine_used.is_empty() {
        return Err(no(
            ErrorCode::ActionAlreadyUsed,
            format!(
                "{} has begun its routine of attacks this round (§ Attacks Per Round)",
                name(d, attacker)
            ),
        ));
    }
    // § Combat Sequence Per Round: a bomb is dropped in the missile phase.
    super::commands::on_turn(d, attacker)?;
    super::round::enter_phase(d, s, attacker, fray_protocol::ose::OsePhase::Missiles)?;
    pay(d, s, attacker)?;
    let rock = OseAttackSpec {
        id: BOMB.into(),
        name: "Bomb".into(),
        damage: damage.into(),
        ranges: None,
        slow: false,
        kinds: Vec::new(),
        routine: false,
    };
    let mut hit = Vec::new();
    for t in targets {
        let roll = crate::dice::notation::roll_die(d.rng, 20);
        let natural = roll.natural().unwrap_or(1);
        let ok = natural >= TO_HIT;
        d.emit(GameEvent::AttackRolled {
            attacker: attacker.clone(),
            target: t.clone(),
            attack: BOMB.into(),
            roll,
            bonus: 0,
            total: super::commands::as_i32(natural),
            defense: Defense::Ac,
            defense_value: super::commands::as_i32(TO_HIT),
            outcome: if ok {
                AttackOutcome::Hit
            } else {
                AttackOutcome::Miss
            },
            modifiers: Vec::new(),
        });
        if ok {
            hit.push(t.clone());
        }
    }
    if hit.is_empty() {
        return Ok(());
    }
    let dmg = d.roll(damage, &Placeholders::default())?;
    let amount = dmg.total.max(1);
    d.emit(GameEvent::DamageRolled {
        attacker: attacker.clone(),
        attack: BOMB.into(),
        modifiers: crate::rules::common::decider::damage_terms(damage, &dmg),
        roll: dmg,
    });
    for t in hit {
        let harmed = sheet(s, &t).is_ok_and(|(_, tkit)| {
            super::invulnerability::harms(&s.battle().options, kit, &rock, tkit)
        });
        if !harmed {
            d.emit(GameEvent::Bx(BxEvent::Unharmed {
                attacker: attacker.clone(),
                target: t.clone(),
                attack: BOMB.into(),
            }));
            continue;
        }
        deal(
            d,
            s,
            &t,
            amount,
            DamageCause::Attack {
                attacker: attacker.clone(),
                attack: BOMB.into(),
            },
        );
    }
    Ok(())
}
