//! § Rolling To Return (`five-torches-deep-combat.txt`): when the way back to a safe camp is not
//! played scene by scene, each PC rolls a check with its best modifier (proficiency included)
//! against DC 10 + 1 per travel turn (max 20); the GM rules the path dangerous (1d6 damage per
//! point under the DC) or arduous (1 load of equipment lost per point under it).

use super::Sheets;
use super::commands::{R, no, roll_check_with, sheet};
use super::rules;
use crate::dice::Placeholders;
use crate::rules::common::decider::Decider;
use fray_protocol::ErrorCode;
use fray_protocol::FiveTorchesEvent;
use fray_protocol::event::{DamageCause, GameEvent};
use fray_protocol::ftd::{Ability, Advantage, FtdCombatant, ReturnPath};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::roll::Modifiers;

/// The check's purpose in `check_rolled` and the damage's cause.
pub const PURPOSE: &str = "return";

/// "DC = 10 + 1 per travel turn, max DC 20."
pub fn return_dc(travel_turns: u32) -> i32 {
    10 + i32::try_from(travel_turns.min(10)).unwrap_or(10)
}

/// "each PC rolling with a mod equal to their highest modifier (including proficiency)":
/// *interpretation*: the best ability modifier plus the PC's proficiency bonus.
pub fn best_modifier(sh: &FtdCombatant) -> Modifiers {
    let best = Ability::ALL
        .into_iter()
        .map(|a| (rules::ability_mod(sh.abilities.get(a)), a))
        .fold(None, |best: Option<(i32, Ability)>, x| match best {
            Some(b) if b.0 >= x.0 => Some(b),
            _ => Some(x),
        });
    let terms = match best {
        Some((m, a)) => Modifiers::new().with(a.abbrev(), m),
        None => Modifiers::new(),
    };
    terms.with("proficiency", sh.proficiency)
}

/// Arduous: `lost` loads dropped, from the equipment first, then coins 500 at a time
/// (*interpretation*: the GM picks which items; Fray counts loads). Returns (load, coins).
pub fn after_losing(load: i32, coins: i32, lost: i32) -> (i32, i32) {
    let from_load = lost.min(load).max(0);
    let rest = lost - from_load;
    let coins = (coins - rest.saturating_mul(fray_protocol::ftd::COINS_PER_LOAD)).max(0);
    (load - from_load, coins)
}

/// GM, outside battle (before it, or after it while the seed is secret), with no PC dying.
pub fn roll_to_return(d: &mut Decider, s: &Sheets, path: ReturnPath, listed: &[CombatantId]) -> R {
    super::commands::outside_battle_with_no_one_dying(
        d,
        "roll to return outside battle (end the battle first)",
    )?;
    let who: Vec<CombatantId> = if listed.is_empty() {
        let heroes: Vec<CombatantId> = d.field.ids_of(Side::Heroes);
        heroes
            .into_iter()
            .filter(|h| super::commands::up(d, s, h))
            .collect()
    } else {
        listed.to_vec()
    };
    if who.is_empty() {
        return Err(no(ErrorCode::InvalidArgument, "no PC is up to return"));
    }
    super::commands::distinct_pcs_up(d, s, &who, "only PCs roll to return")?;
    let dc = return_dc(s.battle().travel_turns);
    for c in &who {
        let sh = sheet(s, c)?.clone();
        let (ok, natural, total) =
            roll_check_with(d, &sh, c, best_modifier(&sh), dc, Advantage::None, PURPOSE)?;
        if ok {
            continue;
        }
        let under = (dc - total).max(1);
        match path {
            ReturnPath::Dangerous => {
                let roll = d.roll(&format!("{under}d6"), &Placeholders::default())?;
                let doubled = rules::fumble_doubles(natural, true);
                let amount = rules::final_damage(roll.total, doubled);
                d.emit(GameEvent::DamageRolled {
                    attacker: c.clone(),
                    attack: PURPOSE.to_owned(),
                    roll,
                    modifiers: Vec::new(),
                });
                super::commands::deal(
                    d,
                    s,
                    c,
                    amount,
                    DamageCause::Hazard {
                        purpose: PURPOSE.to_owned(),
                        doubled,
                    },
                );
            }
            ReturnPath::Arduous => {
                let (load, coins) = after_losing(sh.load, sh.coins, under);
                d.emit(GameEvent::FiveTorches(FiveTorchesEvent::LoadSet {
                    combatant: c.clone(),
                    load,
                    coins,
                }));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// five-torches-deep-combat.txt § Rolling To Return: "DC = 10 + 1 per travel turn, max DC
    /// 20"; the worked example is four hours away, DC 14.
    #[test]
    fn the_dc_grows_per_travel_turn_to_20_rolling_to_return() {
        assert_eq!(return_dc(0), 10);
        assert_eq!(return_dc(4), 14);
        assert_eq!(return_dc(10), 20);
        assert_eq!(return_dc(u32::MAX), 20);
    }

    /// five-torches-deep-combat.txt § Rolling To Return (arduous: 1 load per point under; the
    /// worked example drops 2 load, "a purse of coins" among them).
    #[test]
    fn arduous_losses_take_load_then_coins_rolling_to_return() {
        assert_eq!(after_losing(10, 0, 2), (8, 0));
        assert_eq!(after_losing(1, 1200, 2), (0, 700));
        assert_eq!(after_losing(0, 300, 3), (0, 0));
    }
}
