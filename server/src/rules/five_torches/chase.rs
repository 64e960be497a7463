//! § Chases (`five-torches-deep-combat.txt`): the party catches fleeing enemies (or flees its
//! pursuers) with a check — STR on flat and open terrain, DEX on uneven terrain, CON overland —
//! against DC 11 for a 30′ quarry, ±1 per 5′ faster or slower; each PC on its own, or once for
//! the party by the PC with the worst modifier; disadvantage if the quarry easily breaks line of
//! sight, advantage from a better position (the GM's ruling).

use super::Sheets;
use super::commands::{R, dice_open, no, roll_check_with, sheet};
use super::rules;
use crate::rules::common::decider::Decider;
use fray_protocol::ErrorCode;
use fray_protocol::ftd::{Ability, Advantage, ChaseTerrain};
use fray_protocol::ids::CombatantId;

/// The check's purpose in `check_rolled`.
pub const PURPOSE: &str = "chase";

/// "Most creatures have a 30′ movement speed (DC 11 to catch). The DC is modified by 1 per 5′
/// under or over 30′ movement." *Interpretation*: a part of 5′ counts for nothing.
pub fn chase_dc(speed: i32) -> i32 {
    11 + (speed - 30) / 5
}

/// "Flat and open terrain uses STR, uneven terrain uses DEX"; overland "use CON if endurance is
/// more important than short bursts of speed".
pub fn chase_ability(terrain: ChaseTerrain) -> Ability {
    match terrain {
        ChaseTerrain::Open => Ability::Str,
        ChaseTerrain::Uneven => Ability::Dex,
        ChaseTerrain::Overland => Ability::Con,
    }
}

/// GM, whenever dice may be rolled (a chase follows a rout or a retreat, in battle or after it).
#[allow(clippy::too_many_arguments)]
pub fn chase(
    d: &mut Decider,
    s: &Sheets,
    pursuers: &[CombatantId],
    speed: i32,
    terrain: ChaseTerrain,
    group: bool,
    adv: Advantage,
    dc_modifier: i32,
) -> R {
    dice_open(d)?;
    if !(0..=300).contains(&speed) || !(-10..=10).contains(&dc_modifier) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "speed is 0..=300 feet and dc_modifier -10..=10",
        ));
    }
    if pursuers.is_empty() {
        return Err(no(ErrorCode::InvalidArgument, "name the PCs who chase"));
    }
    super::commands::distinct_pcs_up(d, s, pursuers, "the players roll chases")?;
    let ability = chase_ability(terrain);
    let dc = (chase_dc(speed) + dc_modifier).clamp(1, 40);
    let modifier = |c: &CombatantId| {
        s.get(c)
            .map_or(0, |(sh, _)| rules::ability_mod(sh.abilities.get(ability)))
    };
    let rollers: Vec<CombatantId> = if group {
        // "the PC with the worst relevant modifier rolls for the party" (the first listed on a
        // tie).
        pursuers
            .iter()
            .min_by_key(|c| modifier(c))
            .cloned()
            .into_iter()
            .collect()
    } else {
        pursuers.to_vec()
    };
    for c in &rollers {
        let sh = sheet(s, c)?.clone();
        let terms = super::commands::ability_term(&sh, ability);
        roll_check_with(d, &sh, c, terms, dc, adv, PURPOSE)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// five-torches-deep-combat.txt § Chases: DC 11 at 30′, ±1 per 5′.
    #[test]
    fn the_dc_follows_the_quarrys_speed_chases() {
        assert_eq!(chase_dc(30), 11);
        assert_eq!(chase_dc(40), 13);
        assert_eq!(chase_dc(20), 9);
        assert_eq!(chase_dc(33), 11);
        assert_eq!(chase_ability(ChaseTerrain::Open), Ability::Str);
        assert_eq!(chase_ability(ChaseTerrain::Uneven), Ability::Dex);
        assert_eq!(chase_ability(ChaseTerrain::Overland), Ability::Con);
    }
}
