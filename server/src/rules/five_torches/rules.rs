//! The numbers of Five Torches Deep, each citing its section of
//! `five-torches-deep-combat.txt`. Pure functions: no world, no dice (the caller draws them from
//! the session RNG and passes the faces in).

use fray_protocol::ftd::{Ability, Advantage, Injury, LightLevel, LightSource, LightTask, Threat};

/// Ability modifier from a score. The excerpt gives no table; its one worked example
/// (§ Corruptions: "CON of 10 (+0) is now 6 (-2)") matches the 5e rule it derives from,
/// (score − 10) / 2 rounded down, which Fray uses.
pub fn ability_mod(score: i32) -> i32 {
    (score - 10).div_euclid(2)
}

/// Proficiency bonus by level. § Skills & Proficiency grants proficiency by class and archetype
/// but the excerpt gives no number; Fray uses the 5e progression the game derives from
/// (+2 at levels 1–4, +1 every four levels after). Interpretation, documented in
/// `docs/rules/five-torches-deep.md`.
pub fn proficiency_bonus(level: i32) -> i32 {
    2 + (level.max(1) - 1) / 4
}

/// Monster morale bonus by HD (§ Morale Checks: "+ Monster morale bonus (based off HD)").
/// The excerpt names the bonus but not its table; Fray's interpretation is half the HD rounded
/// down (HD 0–1: +0, 2–3: +1, 4–5: +2, …). A stat block may set its own `morale`.
pub fn morale_bonus(hd: i32) -> i32 {
    hd.max(0) / 2
}

/// § Morale Checks: "Morale checks always have a DC 11."
pub const MORALE_DC: i32 = 11;

/// Stabilizing an ally (§ Stabilizing & Injuries: "an ally can roll a modified ability check")
/// has no DC in the text; Fray uses the text's usual DC 11 with the WIS modifier.
pub const STABILIZE_DC: i32 = 11;

/// Rounds in a minute: the text's death clock is "1 minute"; Fray counts 10 rounds (the 6-second
/// round of the 5e rules the game derives from — the excerpt does not give a round's length).
pub const ROUNDS_PER_MINUTE: u32 = 10;

/// Combines advantage sources (§ Saves & Checks: "advantage or disadvantage"): any advantage
/// and any disadvantage together cancel to a single d20.
pub fn combine(sources: &[Advantage]) -> Advantage {
    let adv = sources.contains(&Advantage::Advantage);
    let dis = sources.contains(&Advantage::Disadvantage);
    match (adv, dis) {
        (true, false) => Advantage::Advantage,
        (false, true) => Advantage::Disadvantage,
        _ => Advantage::None,
    }
}

/// The dice expression of a d20 check with advantage: two dice, keep the higher or lower.
pub fn d20_expr(adv: Advantage) -> &'static str {
    match adv {
        Advantage::None => "d20",
        Advantage::Advantage => "d20adv",
        Advantage::Disadvantage => "d20dis",
    }
}

/// The d20 that counts when two are rolled.
pub fn kept_face(adv: Advantage, a: u32, b: u32) -> u32 {
    match adv {
        Advantage::None => a,
        Advantage::Advantage => a.max(b),
        Advantage::Disadvantage => a.min(b),
    }
}

/// Whether a check succeeds: its total meets the DC (§ Saves & Checks, "d20 + modifier vs DC").
pub fn check_succeeds(total: i32, dc: i32) -> bool {
    total >= dc
}

/// How an attack roll turns out (§ PC Attacks, § Critical Hits): a natural 20 is a critical hit
/// (it hits whatever the total — Fray's reading of "an attack that rolled a natural 20");
/// otherwise the total must meet the AC. A natural 1 has no rule of its own for attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackResult {
    /// Hit.
    Hit,
    /// Critical hit: damage doubled.
    Crit,
    /// Miss.
    Miss,
}

/// § PC Attacks / § NPC Attacks / § Critical Hits.
pub fn attack_result(natural: u32, total: i32, ac: i32) -> AttackResult {
    if natural == 20 {
        AttackResult::Crit
    } else if total >= ac {
        AttackResult::Hit
    } else {
        AttackResult::Miss
    }
}

/// § Critical Hits: "Damage is doubled on any critical hit"; § Critical Failure: "Rolling a
/// natural 1 on a check that damages a PC doubles the damage the PC suffers." Damage is never
/// negative.
pub fn final_damage(rolled: i32, doubled: bool) -> i32 {
    let d = rolled.max(0);
    if doubled { d * 2 } else { d }
}

/// § Critical Failure: a natural 1 on a check doubles the damage it deals — to PCs only.
pub fn fumble_doubles(natural: u32, target_is_pc: bool) -> bool {
    natural == 1 && target_is_pc
}

/// § Healing & HP: "You can never go below zero HP, and never go above your max HP."
pub fn clamp_hp(hp: i32, max: i32) -> i32 {
    hp.clamp(0, max.max(0))
}

/// What an injury roll needs besides the d20.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InjuryRow {
    /// 1: dead.
    Dead,
    /// 2–7: lose 1d6 of this ability.
    Lose(Ability),
    /// 8–13: a body part.
    BodyPart,
    /// 14–19: disadvantage on all checks until rest.
    Disadvantage,
    /// 20: heal 1d8.
    Standing,
}

/// § Injury Table, read exactly: 1 dead; 2 STR, 3 DEX, 4 CON, 5 INT, 6 WIS, 7 CHA (lose 1d6);
/// 8–13 lose a body part; 14–19 disadvantage on all checks until rest; 20 heal 1d8.
pub fn injury_row(d20: u32) -> InjuryRow {
    match d20 {
        0 | 1 => InjuryRow::Dead,
        2 => InjuryRow::Lose(Ability::Str),
        3 => InjuryRow::Lose(Ability::Dex),
        4 => InjuryRow::Lose(Ability::Con),
        5 => InjuryRow::Lose(Ability::Int),
        6 => InjuryRow::Lose(Ability::Wis),
        7 => InjuryRow::Lose(Ability::Cha),
        8..=13 => InjuryRow::BodyPart,
        14..=19 => InjuryRow::Disadvantage,
        _ => InjuryRow::Standing,
    }
}

/// The injury for a row and its second die (the 1d6 lost or the 1d8 healed; ignored otherwise).
pub fn injury(row: InjuryRow, second: i32) -> Injury {
    match row {
        InjuryRow::Dead => Injury::Dead,
        InjuryRow::Lose(ability) => Injury::AbilityLoss {
            ability,
            amount: second,
        },
        InjuryRow::BodyPart => Injury::BodyPart,
        InjuryRow::Disadvantage => Injury::DisadvantageUntilRest,
        InjuryRow::Standing => Injury::Standing { healed: second },
    }
}

/// § Death & Injury: an incapacitated combatant is dead if not stabilized "within 1 minute or
/// by the end of the fight (whichever is later)". At the end of the fight it dies at once if a
/// minute has already passed since it fell; otherwise its allies have the rest of the minute.
pub fn minute_passed(fell_round: u32, now_round: u32) -> bool {
    now_round.saturating_sub(fell_round) >= ROUNDS_PER_MINUTE
}

/// The ability an attack uses (§ PC Attacks): melee STR, ranged DEX, arcane INT, divine WIS.
pub fn attack_ability(kind: AttackKind) -> Ability {
    match kind {
        AttackKind::Melee => Ability::Str,
        AttackKind::Ranged => Ability::Dex,
        AttackKind::Arcane => Ability::Int,
        AttackKind::Divine => Ability::Wis,
    }
}

pub use crate::content::model::AttackKind;

/// How far a target is (§ Range): close (melee), ranged, or far (beyond weapons and spells).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Band {
    /// Within 5–10′: melee attacks allowed, ranged ones at disadvantage.
    Close,
    /// Beyond melee, in reach of most ranged weapons.
    Ranged,
    /// Visible but beyond weapons and spells.
    Far,
}

/// Whether an attack can reach a band, and with what (§ Range, § Range & Attacks): melee only
/// in close range; ranged attacks in close range at disadvantage; nothing reaches far.
pub fn reach(ranged_attack: bool, band: Band) -> Option<Advantage> {
    match (ranged_attack, band) {
        (_, Band::Far) => None,
        (false, Band::Close) => Some(Advantage::None),
        (false, Band::Ranged) => None,
        (true, Band::Close) => Some(Advantage::Disadvantage),
        (true, Band::Ranged) => Some(Advantage::None),
    }
}

// --- the dungeon clock, light, load, resilience, rest --------------------------------------

/// Game seconds in a round: the minute of the death clock is 10 rounds (see
/// `ROUNDS_PER_MINUTE`), so a round is 6 seconds.
pub const ROUND_SECONDS: u32 = 6;
/// § Travel Turns: "A travel turn occurs every hour of in-fiction time."
pub const TRAVEL_TURN_SECONDS: u32 = 3600;
/// A night's rest (§ Healing From Rest: "per night"); the excerpt gives no length, Fray counts 8
/// hours.
pub const NIGHT_SECONDS: u32 = 8 * 3600;
/// § Stealth: "Stealth DCs can vary by circumstances"; the text's usual DC 11 unless the GM
/// sets another.
pub const STEALTH_DC: i32 = 11;

/// § Light / § Travel Turns: "Torches last 1 hour, lanterns last 3."
pub fn burn_seconds(source: LightSource) -> u32 {
    match source {
        LightSource::Torch => 3600,
        LightSource::Lantern => 3 * 3600,
    }
}

/// § Travel Turn Table, read exactly: 1 terrible; 2–10 something bad soon; 11–19 a threat
/// worsens; 20 nothing bad.
pub fn threat(d20: u32) -> Threat {
    match d20 {
        0 | 1 => Threat::Terrible,
        2..=10 => Threat::Soon,
        11..=19 => Threat::Worsens,
        _ => Threat::Nothing,
    }
}

/// § Resilience & Exhaustion: resilience is the CON score in hours; a resilience check is
/// called for only beyond it, at DC 10 + the hours beyond. `None` while within resilience.
pub fn resilience_dc(adventured_seconds: u32, con: i32) -> Option<i32> {
    let hours = i32::try_from(adventured_seconds / 3600).unwrap_or(i32::MAX);
    let beyond = hours - con;
    (beyond > 0).then(|| 10 + beyond)
}

/// § Healing From Rest: "1 HP per level per night of safe rest … 1 HP per night of unsafe rest".
pub fn rest_healing(level: i32, nights: u32, safe: bool) -> i32 {
    let nights = i32::try_from(nights).unwrap_or(i32::MAX);
    let per_night = if safe { level.max(1) } else { 1 };
    per_night.saturating_mul(nights)
}

/// What a d20 roll is, for the light rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lit {
    /// An attack (ranged or not).
    Attack {
        /// A ranged attack.
        ranged: bool,
    },
    /// A check about something the light lists, or about nothing it lists.
    Check(Option<LightTask>),
    /// A morale check ("Morale for surfacers": those without darksight).
    Morale,
}

/// § Light: what a level of light does to a roll; § Darksight: "The disadvantages a human
/// suffers in darkness are advantages to these creatures" (only darkness's are reversed; the
/// other levels are the same for them). Well lit: nothing (the GM rules).
/// Brilliant light's "long-range attacks" are the GM's to grant: range bands have no long range.
pub fn light_advantage(level: LightLevel, darksight: bool, what: Lit) -> Advantage {
    use LightTask as T;
    let (adv, dis) = match level {
        LightLevel::Darkness => (
            matches!(what, Lit::Check(Some(T::Stealth | T::Listening))),
            matches!(
                what,
                Lit::Attack { .. }
                    | Lit::Morale
                    | Lit::Check(Some(T::Defense | T::Sight | T::Danger | T::Finesse))
            ),
        ),
        LightLevel::Dim => (
            matches!(what, Lit::Check(Some(T::Stealth | T::Listening))),
            matches!(
                what,
                Lit::Attack { ranged: true } | Lit::Check(Some(T::Defense | T::Sight))
            ),
        ),
        LightLevel::WellLit => (false, false),
        LightLevel::Brilliant => (
            matches!(what, Lit::Check(Some(T::Tracking | T::Movement))),
            matches!(what, Lit::Check(Some(T::Stealth))),
        ),
    };
    match (adv, dis) {
        (_, true) if darksight && level == LightLevel::Darkness => Advantage::Advantage,
        (true, false) => Advantage::Advantage,
        (false, true) => Advantage::Disadvantage,
        _ => Advantage::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // five-torches-deep-combat.txt § Corruptions ("CON of 10 (+0) is now 6 (-2)")
    #[test]
    fn ability_modifiers_follow_the_worked_example() {
        assert_eq!(ability_mod(10), 0);
        assert_eq!(ability_mod(6), -2);
        assert_eq!(ability_mod(11), 0);
        assert_eq!(ability_mod(9), -1);
        assert_eq!(ability_mod(16), 3);
        assert_eq!(ability_mod(0), -5);
        assert_eq!(ability_mod(20), 5);
    }

    // five-torches-deep-combat.txt § Skills & Proficiency (interpretation: 5e progression)
    #[test]
    fn proficiency_grows_every_four_levels() {
        assert_eq!(proficiency_bonus(1), 2);
        assert_eq!(proficiency_bonus(4), 2);
        assert_eq!(proficiency_bonus(5), 3);
        assert_eq!(proficiency_bonus(9), 4);
        assert_eq!(proficiency_bonus(0), 2);
    }

    // five-torches-deep-combat.txt § Morale Checks (bonus "based off HD"; DC 11)
    #[test]
    fn morale_bonus_by_hd_and_dc() {
        assert_eq!(morale_bonus(0), 0);
        assert_eq!(morale_bonus(1), 0);
        assert_eq!(morale_bonus(2), 1);
        assert_eq!(morale_bonus(5), 2);
        assert_eq!(morale_bonus(-3), 0);
        assert_eq!(MORALE_DC, 11);
    }

    // five-torches-deep-combat.txt § Saves & Checks (advantage or disadvantage; both cancel)
    #[test]
    fn advantage_and_disadvantage_cancel() {
        use Advantage as A;
        assert_eq!(combine(&[]), A::None);
        assert_eq!(combine(&[A::Advantage, A::None]), A::Advantage);
        assert_eq!(
            combine(&[A::Disadvantage, A::Disadvantage]),
            A::Disadvantage
        );
        assert_eq!(combine(&[A::Advantage, A::Disadvantage]), A::None);
        assert_eq!(kept_face(A::Advantage, 3, 17), 17);
        assert_eq!(kept_face(A::Disadvantage, 3, 17), 3);
        assert_eq!(kept_face(A::None, 3, 17), 3);
        assert_eq!(d20_expr(A::Advantage), "d20adv");
        assert_eq!(d20_expr(A::Disadvantage), "d20dis");
        assert!(check_succeeds(11, 11));
        assert!(!check_succeeds(10, 11));
    }

    // five-torches-deep-combat.txt § PC Attacks, § Critical Hits
    #[test]
    fn attacks_hit_on_ac_and_crit_on_a_natural_20() {
        assert_eq!(attack_result(12, 15, 15), AttackResult::Hit);
        assert_eq!(attack_result(12, 14, 15), AttackResult::Miss);
        assert_eq!(attack_result(20, 18, 25), AttackResult::Crit);
        assert_eq!(attack_result(1, 15, 15), AttackResult::Hit);
        assert_eq!(attack_ability(AttackKind::Melee), Ability::Str);
        assert_eq!(attack_ability(AttackKind::Ranged), Ability::Dex);
        assert_eq!(attack_ability(AttackKind::Arcane), Ability::Int);
        assert_eq!(attack_ability(AttackKind::Divine), Ability::Wis);
    }

    // five-torches-deep-combat.txt § Critical Hits, § Critical Failure
    #[test]
    fn damage_doubles_on_crits_and_on_a_pcs_natural_1() {
        assert_eq!(final_damage(7, true), 14);
        assert_eq!(final_damage(7, false), 7);
        assert_eq!(final_damage(-2, true), 0);
        assert!(fumble_doubles(1, true));
        assert!(!fumble_doubles(1, false));
        assert!(!fumble_doubles(2, true));
    }

    // five-torches-deep-combat.txt § Healing & HP
    #[test]
    fn hit_points_stay_between_zero_and_max() {
        assert_eq!(clamp_hp(-4, 10), 0);
        assert_eq!(clamp_hp(14, 10), 10);
        assert_eq!(clamp_hp(6, 10), 6);
    }

    // five-torches-deep-combat.txt § Injury Table
    #[test]
    fn the_injury_table_reads_exactly() {
        assert_eq!(injury_row(1), InjuryRow::Dead);
        assert_eq!(injury_row(2), InjuryRow::Lose(Ability::Str));
        assert_eq!(injury_row(3), InjuryRow::Lose(Ability::Dex));
        assert_eq!(injury_row(4), InjuryRow::Lose(Ability::Con));
        assert_eq!(injury_row(5), InjuryRow::Lose(Ability::Int));
        assert_eq!(injury_row(6), InjuryRow::Lose(Ability::Wis));
        assert_eq!(injury_row(7), InjuryRow::Lose(Ability::Cha));
        for n in 8..=13 {
            assert_eq!(injury_row(n), InjuryRow::BodyPart, "{n}");
        }
        for n in 14..=19 {
            assert_eq!(injury_row(n), InjuryRow::Disadvantage, "{n}");
        }
        assert_eq!(injury_row(20), InjuryRow::Standing);
        assert_eq!(
            injury(InjuryRow::Lose(Ability::Wis), 4),
            Injury::AbilityLoss {
                ability: Ability::Wis,
                amount: 4
            }
        );
        assert_eq!(
            injury(InjuryRow::Standing, 6),
            Injury::Standing { healed: 6 }
        );
    }

    // five-torches-deep-combat.txt § Death & Injury ("within 1 minute or by the end of the
    // fight, whichever is later")
    #[test]
    fn the_death_clock_is_a_minute() {
        assert!(!minute_passed(3, 12));
        assert!(minute_passed(3, 13));
        assert!(!minute_passed(5, 2));
    }

    // five-torches-deep-combat.txt § Range, § Range & Attacks
    #[test]
    fn range_bands() {
        assert_eq!(reach(false, Band::Close), Some(Advantage::None));
        assert_eq!(reach(false, Band::Ranged), None);
        assert_eq!(reach(true, Band::Close), Some(Advantage::Disadvantage));
        assert_eq!(reach(true, Band::Ranged), Some(Advantage::None));
        assert_eq!(reach(true, Band::Far), None);
        assert_eq!(reach(false, Band::Far), None);
    }

    // five-torches-deep-combat.txt § Light (the lists of each level) and § Darksight
    #[test]
    fn light_levels_and_darksight_read_exactly() {
        use Advantage as A;
        use LightLevel as L;
        use LightTask as T;
        let ranged = Lit::Attack { ranged: true };
        let melee = Lit::Attack { ranged: false };
        assert_eq!(light_advantage(L::Darkness, false, melee), A::Disadvantage);
        assert_eq!(light_advantage(L::Darkness, false, ranged), A::Disadvantage);
        assert_eq!(light_advantage(L::Darkness, true, melee), A::Advantage);
        assert_eq!(
            light_advantage(L::Darkness, false, Lit::Morale),
            A::Disadvantage
        );
        assert_eq!(
            light_advantage(L::Darkness, true, Lit::Morale),
            A::Advantage
        );
        for t in [T::Defense, T::Sight, T::Danger, T::Finesse] {
            assert_eq!(
                light_advantage(L::Darkness, false, Lit::Check(Some(t))),
                A::Disadvantage
            );
            assert_eq!(
                light_advantage(L::Darkness, true, Lit::Check(Some(t))),
                A::Advantage
            );
        }
        for t in [T::Stealth, T::Listening] {
            assert_eq!(
                light_advantage(L::Darkness, false, Lit::Check(Some(t))),
                A::Advantage
            );
            assert_eq!(
                light_advantage(L::Dim, false, Lit::Check(Some(t))),
                A::Advantage
            );
        }
        assert_eq!(
            light_advantage(L::Darkness, false, Lit::Check(None)),
            A::None
        );
        assert_eq!(light_advantage(L::Dim, false, ranged), A::Disadvantage);
        assert_eq!(light_advantage(L::Dim, false, melee), A::None);
        assert_eq!(light_advantage(L::Dim, true, ranged), A::Disadvantage);
        assert_eq!(
            light_advantage(L::Dim, false, Lit::Check(Some(T::Sight))),
            A::Disadvantage
        );
        assert_eq!(light_advantage(L::Dim, false, Lit::Morale), A::None);
        for what in [melee, ranged, Lit::Morale, Lit::Check(Some(T::Stealth))] {
            assert_eq!(light_advantage(L::WellLit, false, what), A::None);
        }
        assert_eq!(
            light_advantage(L::Brilliant, false, Lit::Check(Some(T::Tracking))),
            A::Advantage
        );
        assert_eq!(
            light_advantage(L::Brilliant, false, Lit::Check(Some(T::Movement))),
            A::Advantage
        );
        assert_eq!(
            light_advantage(L::Brilliant, false, Lit::Check(Some(T::Stealth))),
            A::Disadvantage
        );
        assert_eq!(light_advantage(L::Brilliant, false, ranged), A::None);
    }

    // five-torches-deep-combat.txt § Light ("Torches last 1 hour, lanterns last 3") and
    // § Travel Turn Table
    #[test]
    fn torches_lanterns_and_the_travel_turn_table() {
        assert_eq!(burn_seconds(LightSource::Torch), TRAVEL_TURN_SECONDS);
        assert_eq!(burn_seconds(LightSource::Lantern), 3 * TRAVEL_TURN_SECONDS);
        assert_eq!(TRAVEL_TURN_SECONDS / ROUND_SECONDS, 600);
        assert_eq!(threat(1), Threat::Terrible);
        assert_eq!(threat(2), Threat::Soon);
        assert_eq!(threat(10), Threat::Soon);
        assert_eq!(threat(11), Threat::Worsens);
        assert_eq!(threat(19), Threat::Worsens);
        assert_eq!(threat(20), Threat::Nothing);
    }

    // five-torches-deep-combat.txt § Resilience & Exhaustion ("a PC with 10 CON can trek ten
    // hours"; DC 10 + hours beyond)
    #[test]
    fn resilience_is_con_hours_and_the_dc_grows() {
        assert_eq!(resilience_dc(10 * 3600, 10), None);
        assert_eq!(resilience_dc(11 * 3600 - 1, 10), None);
        assert_eq!(resilience_dc(11 * 3600, 10), Some(11));
        assert_eq!(resilience_dc(14 * 3600, 10), Some(14));
    }

    // five-torches-deep-combat.txt § Healing From Rest ("A level 4 PC would heal 4 HP in a night
    // of safe rest, or 1 HP in a dungeon")
    #[test]
    fn rest_heals_by_level_when_safe() {
        assert_eq!(rest_healing(4, 1, true), 4);
        assert_eq!(rest_healing(4, 1, false), 1);
        assert_eq!(rest_healing(2, 3, true), 6);
        assert_eq!(rest_healing(2, 3, false), 3);
    }

    // five-torches-deep-combat.txt § Movement Actions ("A 10 STR, 30′ speed PC carrying 11 load
    // would move at 25′ speed"; "A PC at 0′ speed is completely encumbered") and § Treasure
    // ("500 coins per load")
    #[test]
    fn load_above_str_costs_speed_and_coins_weigh() {
        let mut c = fray_protocol::ftd::FtdCombatant {
            abilities: fray_protocol::ftd::AbilityScores {
                str: 10,
                dex: 10,
                con: 10,
                int: 10,
                wis: 10,
                cha: 10,
            },
            proficiency: 2,
            class: None,
            hd: None,
            morale_bonus: 0,
            morale_proficient: false,
            leader: false,
            granted: Advantage::None,
            disadvantage_until_rest: false,
            injuries: Vec::new(),
            fell_round: None,
            departed: None,
            load: 11,
            coins: 0,
            base_speed: 30,
            speed: 30,
            over_load: 0,
            darksight: false,
            light: None,
            carried: None,
            hidden: false,
            exhausted: false,
            adventured: 0,
            corruption: None,
            concentration: None,
            xp: 0,
            magic_items: Vec::new(),
            looted: false,
        };
        c.refresh_encumbrance();
        assert_eq!((c.speed, c.over_load, c.hindered()), (25, 1, true));
        c.load = 10;
        c.coins = 499;
        c.refresh_encumbrance();
        assert_eq!((c.speed, c.over_load, c.hindered()), (30, 0, false));
        c.coins = 1000;
        c.refresh_encumbrance();
        assert_eq!((c.speed, c.over_load), (20, 2));
        c.load = 20;
        c.refresh_encumbrance();
        assert_eq!(c.speed, 0);
        c.load = 0;
        c.exhausted = true;
        c.refresh_encumbrance();
        assert_eq!((c.speed, c.hindered()), (0, true));
    }
}
