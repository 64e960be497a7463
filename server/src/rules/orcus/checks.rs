//! Orcus skill checks the GM calls for (orcus-basic-rules.txt § Ability and skill checks: "The
//! Game Master chooses which skill the creature should use and assigns a number representing
//! the task's Difficulty Class"): the `orcus_check` command, in or out of combat — the
//! out-of-combat skill uses (climbing a cliff, recalling lore, a Perception search) are such
//! checks. The DC is the GM's number or § Table – Typical Difficulty Classes' band, raised with
//! the checker's level (§ Maintaining difficulties at higher levels, `tables.rs`).

use super::Board;
use super::commands::{R, fighter, no, skill_check};
use super::tables::{self, Difficulty};
use crate::rules::common::decider::Decider;
use fray_protocol::ErrorCode;
use fray_protocol::command::CheckDifficulty;
use fray_protocol::ids::CombatantId;
use fray_protocol::state::LifeStatus;

/// The highest DC the GM may set (the tables' hard DC at level 35 is 35; room for more).
const MAX_DC: i32 = 60;

/// `orcus_check`: d20 + the skill modifier (`check_rolled` with the purpose `<skill>` or
/// `<skill>: <purpose>`). Refused (nothing drawn) for an unknown skill (`invalid_argument`),
/// neither or both of `dc` and `difficulty` or a DC outside 1..=60 (`invalid_argument`), a
/// checker that is not conscious (`cannot_act`), or after the session ended (`battle_over`).
pub fn check(
    d: &mut Decider,
    b: &Board,
    combatant: &CombatantId,
    skill: &str,
    dc: Option<i32>,
    difficulty: Option<CheckDifficulty>,
    purpose: Option<&str>,
) -> R {
    if d.field.battle.session_over {
        return Err(no(ErrorCode::BattleOver, "the session is over"));
    }
    let f = fighter(d, combatant)?;
    let name = f.c.name.clone();
    let level = f.c.level;
    if f.vit.0 != LifeStatus::Conscious {
        return Err(no(
            ErrorCode::CannotAct,
            format!("{name} is not conscious and makes no checks"),
        ));
    }
    let key = skill.to_ascii_lowercase();
    if !tables::SKILLS
        .iter()
        .any(|s| s.name().eq_ignore_ascii_case(&key))
    {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("'{skill}' is not a skill of § The skills"),
        ));
    }
    let dc = match (dc, difficulty) {
        (Some(dc), None) if (1..=MAX_DC).contains(&dc) => dc,
        (Some(dc), None) => {
            return Err(no(
                ErrorCode::InvalidArgument,
                format!("a DC of {dc} is outside 1..={MAX_DC}"),
            ));
        }
        (None, Some(band)) => {
            let band = match band {
                CheckDifficulty::Easy => Difficulty::Easy,
                CheckDifficulty::Moderate => Difficulty::Moderate,
                CheckDifficulty::Hard => Difficulty::Hard,
            };
            tables::minimum_dc_for_level(level, band)
                .map_err(|e| no(ErrorCode::InvalidArgument, e.to_string()))?
        }
        _ => {
            return Err(no(
                ErrorCode::InvalidArgument,
                "give exactly one of `dc` and `difficulty`",
            ));
        }
    };
    let purpose = match purpose {
        Some(p) => format!("{key}: {p}"),
        None => key.clone(),
    };
    skill_check(d, b, combatant, &key, dc, &purpose);
    Ok(())
}
