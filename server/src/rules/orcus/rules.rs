//! The numbers of Orcus, each citing its section of `orcus-basic-rules.txt`.

use fray_protocol::event::SaveDifficulty;

/// § Saving throws: a d20, 10 or higher succeeds.
pub const SAVE: SaveDifficulty = SaveDifficulty::TenPlus;

/// § Death saving throws: 10 or higher succeeds.
pub const DEATH_SAVE: u32 = 10;

/// § Death saving throws: the third failure kills.
pub const DEATH_SAVE_FAILURES: u8 = 3;

/// § Death saving throws, Rolling a 20 or higher: spend a recovery and come back.
pub const DEATH_SAVE_REVIVE: u32 = 20;

/// § Circumstance Attack Roll Modifier: target off-guard.
pub const OFF_GUARD: i32 = 2;
/// § Circumstance Attack Roll Modifier: attacker prone.
pub const ATTACKER_PRONE: i32 = -2;
/// § Circumstance Attack Roll Modifier: attacker restrained.
pub const ATTACKER_RESTRAINED: i32 = -2;
/// § Circumstance Attack Roll Modifier: the Charge action.
pub const CHARGE: i32 = 1;
/// § Circumstance Attack Roll Modifier: cover.
pub const COVER: i32 = -2;
/// § Circumstance Attack Roll Modifier: three-quarters cover.
pub const THREE_QUARTERS_COVER: i32 = -5;
/// § Circumstance Attack Roll Modifier: concealment (melee and ranged only).
pub const CONCEALMENT: i32 = -2;
/// § Circumstance Attack Roll Modifier: total concealment (melee and ranged only).
pub const TOTAL_CONCEALMENT: i32 = -5;
/// § Circumstance Attack Roll Modifier: long range.
pub const LONG_RANGE: i32 = -2;
/// § Run: −5 to attack rolls until the start of the next turn.
pub const RUN_PENALTY: i32 = -5;
/// § Run: speed + 2.
pub const RUN_BONUS_SQUARES: i32 = 2;
/// § Full Defense and § Rally: +2 to defenses until the start of the next turn.
pub const DEFENSE_BONUS: i32 = 2;
/// Interpretation (text gap: § Conditions lists "marked" without a definition): Fourth
/// Edition's −2 to attacks that do not include the marking creature.
pub const MARKED: i32 = -2;
/// Interpretation (text gap: § Conditions, "slowed"): Fourth Edition's speed 2.
pub const SLOWED_SPEED: i32 = 2;
/// § Stabilize: DC 15 Heal check.
pub const STABILIZE_DC: i32 = 15;

/// § Staggered: half the maximum, rounded down.
pub fn staggered_value(max_hp: i32) -> i32 {
    max_hp / 2
}

/// § Negative HP: dead at a negative value equal to or below the staggered value.
pub fn is_dead_at(hp: i32, max_hp: i32) -> bool {
    hp <= -staggered_value(max_hp)
}

/// Interpretation (text gap: the class rules defining the recovery value are not in the text):
/// Fourth Edition's healing surge value, a quarter of the maximum hit points, rounded down.
pub fn default_recovery_value(max_hp: i32) -> i32 {
    (max_hp / 4).max(1)
}

/// Skill modifier of an untrained check (§ Abilities: half the level plus the ability
/// modifier; trained skills are not modelled).
pub fn untrained_check(level: i32, ability_mod: i32) -> i32 {
    level / 2 + ability_mod
}

/// § Underwater combat: weapon attacks (not spears, lances, crossbows).
pub const UNDERWATER_WEAPON: i32 = -2;
/// § Underwater combat: powers with the Fire tag.
pub const UNDERWATER_FIRE: i32 = -2;
/// § Underwater combat: an Aquatic creature against one without the tag.
pub const AQUATIC: i32 = 2;

/// § Passive skills: a passive value is 10 + the skill modifier.
pub const PASSIVE_BASE: i32 = 10;
/// § Stealth, Movement: moving this many squares or more gives the hide penalty.
pub const HIDE_MOVE_SQUARES: usize = 3;
/// § Stealth, Movement: −5 to hide after moving 3 squares or more.
pub const HIDE_MOVE_PENALTY: i32 = -5;
/// § Stealth, Movement: −10 to hide after the Run action.
pub const HIDE_RUN_PENALTY: i32 = -10;

/// The conditions the GM may set with `add_condition` (§ Conditions); `grappled`, `surprised`,
/// `feinted`, `deterred`, `surrendered` and `unintimidated` are left to the actions that make
/// them.
pub const GM_CONDITIONS: &[fray_protocol::event::Condition] = &[
    fray_protocol::event::Condition::Blinded,
    fray_protocol::event::Condition::Dazed,
    fray_protocol::event::Condition::Immobilized,
    fray_protocol::event::Condition::Marked,
    fray_protocol::event::Condition::OffGuard,
    fray_protocol::event::Condition::Prone,
    fray_protocol::event::Condition::Restrained,
    fray_protocol::event::Condition::Slowed,
    fray_protocol::event::Condition::Stunned,
    fray_protocol::event::Condition::Unconscious,
    fray_protocol::event::Condition::Weakened,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_hp_death_at_the_staggered_value_negative_hp() {
        // orcus-basic-rules.txt § Negative HP: max 20 → dies at −10.
        assert!(!is_dead_at(-9, 20));
        assert!(is_dead_at(-10, 20));
        assert_eq!(staggered_value(21), 10);
    }

    #[test]
    fn saves_succeed_on_ten_saving_throws() {
        // orcus-basic-rules.txt § Saving throws.
        assert_eq!(SAVE.target(), 10);
        assert_eq!(DEATH_SAVE, 10);
    }
}
