//! Old-School Essentials (`ose-adventuring.txt`) hazards and checks outside the attack: saving
//! throws for half damage (§ Saving Throws, Successful Saves), ability checks (§ Ability
//! Checks), falling (§ Falling), natural healing (§ Healing, Natural) and the encounter distance
//! (§ Encounter Distance). All GM commands; events are the shared `check_rolled`,
//! `damage_rolled`, `damaged` (cause `hazard`) and `healed`, and `encounter_distance_rolled`.

use super::Sheets;
use super::commands::{R, as_i32, deal, name, no, sheet, up};
use super::tables;
use crate::dice::Placeholders;
use crate::rules::common::decider::Decider;
use fray_protocol::BxEvent;
use fray_protocol::ErrorCode;
use fray_protocol::event::{DamageCause, GameEvent};
use fray_protocol::ids::CombatantId;
use fray_protocol::ose::{EncounterSetting, OseAbility, SaveCategory};
use fray_protocol::roll::Modifiers;
use fray_protocol::state::{LifeStatus, Phase};

fn not_over(d: &Decider) -> R {
    if d.field.battle.phase == Phase::Ended {
        return Err(no(ErrorCode::BattleOver, "the session is over"));
    }
    Ok(())
}

fn in_fight(d: &mut Decider, s: &Sheets, who: &CombatantId) -> R {
    sheet(s, who)?;
    if !up(d, s, who) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{} is out of the fight", name(d, who)),
        ));
    }
    Ok(())
}

/// The category's name in a check's purpose.
pub fn category_name(cat: SaveCategory) -> &'static str {
    match cat {
        SaveCategory::Death => "death",
        SaveCategory::Wands => "wands",
        SaveCategory::Paralysis => "paralysis",
        SaveCategory::Breath => "breath",
        SaveCategory::Spells => "spells",
    }
}

/// § Saving Throws, Rolling a Saving Throw and Successful Saves: d20 + modifier ≥ the value;
/// "damage halved" on a success (rounded down, at least 1), the full damage on a failure.
pub fn save_for_half(
    d: &mut Decider,
    s: &Sheets,
    who: &CombatantId,
    cat: SaveCategory,
    damage: &str,
    modifier: i32,
) -> R {
    not_over(d)?;
    in_fight(d, s, who)?;
    if !(-10..=10).contains(&modifier) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "the modifier is within -10..=10",
        ));
    }
    crate::rules::common::decide::damage_dice_ok(damage)?;
    let value = sheet(s, who)?.0.saves[tables::save_index(cat)];
    let roll = crate::dice::notation::roll_die(d.rng, 20);
    let total = as_i32(roll.natural().unwrap_or(1)) + modifier;
    let success = tables::save_succeeds(total, value);
    let purpose = format!("save vs {} for half", category_name(cat));
    d.emit(GameEvent::CheckRolled {
        combatant: who.clone(),
        purpose: purpose.clone(),
        roll,
        bonus: modifier,
        total,
        dc: value,
        success,
        modifiers: Modifiers::new().with("situational", modifier).into_vec(),
    });
    let dmg = d.roll(damage, &Placeholders::default())?;
    let full = dmg.total.max(0);
    let amount = if success { tables::halved(full) } else { full };
    d.emit(GameEvent::DamageRolled {
        attacker: who.clone(),
        attack: purpose.clone(),
        modifiers: crate::rules::common::decider::damage_terms(damage, &dmg),
        roll: dmg,
    });
    deal(
        d,
        s,
        who,
        amount,
        DamageCause::Hazard {
            purpose,
            doubled: false,
        },
    );
    Ok(())
}

/// The ability's name in a check's purpose.
fn ability_name(a: OseAbility) -> &'static str {
    match a {
        OseAbility::Str => "STR",
        OseAbility::Int => "INT",
        OseAbility::Wis => "WIS",
        OseAbility::Dex => "DEX",
        OseAbility::Con => "CON",
        OseAbility::Cha => "CHA",
    }
}

/// § Ability Checks: d20 + modifier (−4 easy … +4 very difficult) at or under the score;
/// a natural 1 always succeeds, a natural 20 always fails. Characters only (monsters have no
/// scores in their stat blocks).
pub fn ability_check(
    d: &mut Decider,
    s: &Sheets,
    who: &CombatantId,
    ability: OseAbility,
    modifier: i32,
) -> R {
    not_over(d)?;
    in_fight(d, s, who)?;
    let Some(scores) = sheet(s, who)?.1.scores else {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!(
                "{} has no ability scores (monsters save instead)",
                name(d, who)
            ),
        ));
    };
    if !(-4..=4).contains(&modifier) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "ability-check modifiers are -4..=4 (§ Ability Checks, Modifiers)",
        ));
    }
    let score = scores[ability.index()];
    let roll = crate::dice::notation::roll_die(d.rng, 20);
    let natural = roll.natural().unwrap_or(20);
    let success = tables::ability_check(natural, modifier, score);
    d.emit(GameEvent::CheckRolled {
        combatant: who.clone(),
        purpose: format!("{} check", ability_name(ability)),
        roll,
        bonus: modifier,
        total: as_i32(natural) + modifier,
        dc: score,
        success,
        modifiers: Modifiers::new().with("situational", modifier).into_vec(),
    });
    Ok(())
}

/// § Falling: "1d6 damage per 10′ fallen" (a fall shorter than 10′ deals none: refused).
pub fn fall(d: &mut Decider, s: &Sheets, who: &CombatantId, feet: u32) -> R {
    not_over(d)?;
    in_fight(d, s, who)?;
    if !(10..=1000).contains(&feet) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "a fall is 10' to 1000' (1d6 per 10', § Falling)",
        ));
    }
    let dice = tables::falling_dice(feet);
    let purpose = format!("falling {feet}'");
    let roll = d.roll(&format!("{dice}d6"), &Placeholders::default())?;
    let amount = roll.total.max(0);
    d.emit(GameEvent::DamageRolled {
        attacker: who.clone(),
        attack: purpose.clone(),
        roll,
        modifiers: Vec::new(),
    });
    deal(
        d,
        s,
        who,
        amount,
        DamageCause::Hazard {
            purpose,
            doubled: false,
        },
    );
    Ok(())
}

/// § Healing, Natural: "For each full day of complete rest, a character or monster recovers
/// 1d3 hit points" — outside an encounter, up to its maximum.
pub fn natural_healing(d: &mut Decider, s: &Sheets, who: &CombatantId, days: u32) -> R {
    match d.field.battle.phase {
        Phase::Setup => {}
        Phase::Running => {
            return Err(no(
                ErrorCode::BattleAlreadyStarted,
                "days of rest pass outside an encounter",
            ));
        }
        Phase::Ended => return Err(no(ErrorCode::BattleOver, "the session is over")),
    }
    in_fight(d, s, who)?;
    if !(1..=30).contains(&days) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "rest 1 to 30 full days (§ Healing, Natural)",
        ));
    }
    // Basic Fantasy § Dungeon Survival: hunger (after two days) and thirst stop natural healing.
    if !s.heals_naturally(who) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!(
                "{} cannot heal naturally without food or water (basic-fantasy-adventures.txt § Dungeon Survival)",
                name(d, who)
            ),
        ));
    }
    heal_living(d, who, &format!("{days}d3"), "cannot rest")
}

/// Heals a living combatant by `dice`, up to its maximum (`healed`); `not_alive` ends the
/// refusal for anyone else ("Odo cannot rest").
fn heal_living(d: &mut Decider, who: &CombatantId, dice: &str, not_alive: &str) -> R {
    let Some(mut v) = d.overlay.vitals(d.field, who) else {
        return Err(no(
            ErrorCode::UnknownCombatant,
            format!("no combatant '{who}'"),
        ));
    };
    if v.status != LifeStatus::Conscious {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{} {not_alive}", name(d, who)),
        ));
    }
    let roll = d.roll(dice, &Placeholders::default())?;
    let amount = roll.total.max(0).min((v.max - v.current).max(0));
    v.current += amount;
    d.overlay.set(who, v);
    d.emit(GameEvent::Healed {
        target: who.clone(),
        roll: Some(roll),
        amount,
        recovery_used: false,
        hp_after: Some(v.current),
    });
    Ok(())
}

/// § Healing, Magical: "Healing may also occur through magic, such as potions or spells. This
/// kind of healing is instantaneous" — at any time the session is open, up to the maximum; the
/// dead (0 hp or less, § Death) are not healed.
pub fn magical_healing(
    d: &mut Decider,
    s: &Sheets,
    who: &CombatantId,
    dice: &str,
    source: &str,
) -> R {
    not_over(d)?;
    sheet(s, who)?;
    if source.trim().is_empty() || source.chars().count() > 40 {
        return Err(no(
            ErrorCode::InvalidArgument,
            "name the potion or spell (1-40 characters)",
        ));
    }
    crate::rules::common::decide::damage_dice_ok(dice)?;
    heal_living(d, who, dice, "is dead: magic does not heal the dead")
}

/// § Drowning: "The circumstances in which drowning is a risk — as well as the chance of
/// drowning — are judged by the referee": a d% against the GM's `chance` (1..=99); at or under
/// it the character drowns (slain, with the morale checks a death brings).
pub fn drowning(d: &mut Decider, s: &Sheets, who: &CombatantId, chance: u32) -> R {
    not_over(d)?;
    in_fight(d, s, who)?;
    if !(1..=99).contains(&chance) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "the chance of drowning is 1 to 99 percent (§ Drowning: the referee's)",
        ));
    }
    let roll = crate::dice::notation::roll_die(d.rng, 100);
    let drowned = roll.natural().unwrap_or(100) <= chance;
    d.emit(GameEvent::Bx(BxEvent::DrowningRolled {
        combatant: who.clone(),
        chance,
        roll,
        drowned,
    }));
    if drowned {
        super::commands::slay(d, s, who);
    }
    Ok(())
}

/// § Encounter Distance: dungeon 2d6 × 10 feet; wilderness and waterborne 4d6 × 10 yards, or
/// 1d4 × 10 yards if either side is surprised (the dungeon's distance does not change).
pub fn encounter_distance(d: &mut Decider, setting: EncounterSetting, surprised: bool) -> R {
    not_over(d)?;
    let (dice, unit) = match (setting, surprised) {
        (EncounterSetting::Dungeon, _) => ("2d6", "feet"),
        (_, false) => ("4d6", "yards"),
        (_, true) => ("1d4", "yards"),
    };
    let roll = d.roll(dice, &Placeholders::default())?;
    let distance = u32::try_from(roll.total.max(0)).unwrap_or(0) * 10;
    d.emit(GameEvent::Bx(BxEvent::EncounterDistanceRolled {
        setting,
        surprised,
        roll,
        distance,
        unit: unit.into(),
    }));
    Ok(())
}
