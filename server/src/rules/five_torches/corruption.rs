//! § Corruptions (`five-torches-deep-combat.txt`): disease, poison and venom. A PC checks
//! (usually CON, DC 11 or more by the source); failing, it is infected. At the end of each stage
//! it checks again; failing, it takes 1d6 damage to an ability score (the GM's: usually CON,
//! STR or INT); a score at 0 kills it (the text's worked example). The GM ends the infection.

use super::Sheets;
use super::commands::{R, dice_open, fighter, in_fight, name, no, roll_check_with, sheet};
use crate::dice::Placeholders;
use crate::rules::common::decider::Decider;
use fray_protocol::ErrorCode;
use fray_protocol::FiveTorchesEvent;
use fray_protocol::event::GameEvent;
use fray_protocol::ftd::{Ability, Advantage, Corruption};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::state::LifeStatus;

/// "The DC is usually 11".
pub const CORRUPTION_DC: i32 = 11;

/// The score after `amount` ability damage, and whether the PC dies of it (a score at 0:
/// "reduces their CON from 6 to 0. They're dead.").
pub fn damaged_score(score: i32, amount: i32) -> (i32, bool) {
    let after = (score - amount.max(0)).max(0);
    (after, after == 0)
}

fn infectable(d: &mut Decider, s: &Sheets, who: &CombatantId) -> R {
    dice_open(d)?;
    if fighter(d, who)?.c.side != Side::Heroes {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!(
                "{} is not a PC: corruption is tracked for PCs",
                name(d, who)
            ),
        ));
    }
    if !in_fight(d, s, who) {
        return Err(no(
            ErrorCode::CannotAct,
            format!("{} is dead or gone", name(d, who)),
        ));
    }
    Ok(())
}

/// GM: a new infection's check, or the end of an infected PC's stage.
#[allow(clippy::too_many_arguments)]
pub fn check(
    d: &mut Decider,
    s: &Sheets,
    who: &CombatantId,
    what: Option<&str>,
    dc: Option<i32>,
    ability: Option<Ability>,
    damages: Option<Ability>,
) -> R {
    infectable(d, s, who)?;
    let sh = sheet(s, who)?.clone();
    match sh.corruption.clone() {
        None => {
            let Some(what) = what.filter(|w| !w.is_empty() && w.len() <= 40) else {
                return Err(no(
                    ErrorCode::InvalidArgument,
                    "a new corruption needs a name of 1-40 characters",
                ));
            };
            let dc = dc.unwrap_or(CORRUPTION_DC);
            if !(1..=40).contains(&dc) {
                return Err(no(
                    ErrorCode::InvalidArgument,
                    format!("DC {dc} is outside 1..=40"),
                ));
            }
            let ability = ability.unwrap_or(Ability::Con);
            let terms = super::commands::ability_term(&sh, ability);
            let (ok, _, _) =
                roll_check_with(d, &sh, who, terms, dc, Advantage::None, "corruption")?;
            if !ok {
                d.emit(GameEvent::FiveTorches(
                    FiveTorchesEvent::CorruptionChanged {
                        combatant: who.clone(),
                        corruption: Some(Corruption {
                            name: what.to_owned(),
                            check: ability,
                            dc,
                            damages: damages.unwrap_or(Ability::Con),
                            stage: 0,
                        }),
                    },
                ));
            }
            Ok(())
        }
        Some(c) => {
            if what.is_some() || dc.is_some() || ability.is_some() || damages.is_some() {
                return Err(no(
                    ErrorCode::InvalidArgument,
                    format!(
                        "{} is already infected by {} (end_corruption first; a stage's check takes no name, DC or abilities)",
                        name(d, who),
                        c.name
                    ),
                ));
            }
            let terms = super::commands::ability_term(&sh, c.check);
            let (ok, _, _) =
                roll_check_with(d, &sh, who, terms, c.dc, Advantage::None, "corruption")?;
            d.emit(GameEvent::FiveTorches(
                FiveTorchesEvent::CorruptionChanged {
                    combatant: who.clone(),
                    corruption: Some(Corruption {
                        stage: c.stage.saturating_add(1),
                        ..c.clone()
                    }),
                },
            ));
            if ok {
                return Ok(());
            }
            let roll = d.roll("1d6", &Placeholders::default())?;
            let (after, dies) = damaged_score(sh.abilities.get(c.damages), roll.total);
            d.emit(GameEvent::FiveTorches(FiveTorchesEvent::AbilityDamaged {
                combatant: who.clone(),
                ability: c.damages,
                roll,
                score_after: after,
            }));
            if dies && let Some(mut v) = d.overlay.vitals(d.field, who) {
                v.status = LifeStatus::Dead;
                d.overlay.set(who, v);
                d.emit(GameEvent::Died {
                    combatant: who.clone(),
                });
            }
            Ok(())
        }
    }
}

/// GM: the infection ends (a cure, or it ran its course).
pub fn end(d: &mut Decider, s: &Sheets, who: &CombatantId) -> R {
    infectable(d, s, who)?;
    if sheet(s, who)?.corruption.is_none() {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("{} is not infected", name(d, who)),
        ));
    }
    d.emit(GameEvent::FiveTorches(
        FiveTorchesEvent::CorruptionChanged {
            combatant: who.clone(),
            corruption: None,
        },
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// five-torches-deep-combat.txt § Corruptions (the worked example: CON 10 − 4 = 6, then
    /// 6 − 6 = 0: dead).
    #[test]
    fn ability_damage_kills_at_zero_corruptions() {
        assert_eq!(damaged_score(10, 4), (6, false));
        assert_eq!(damaged_score(6, 6), (0, true));
        assert_eq!(damaged_score(3, 6), (0, true));
        assert_eq!(CORRUPTION_DC, 11);
    }
}
