//! The B/X numbers of `ose-adventuring.txt`, as pure functions: the attack matrix by THAC0 and
//! the THAC0-direct and ascending-AC procedures, monster attack rows and saving throws by hit
//! dice, the five saving-throw categories, morale, reaction, surprise, ability checks,
//! encounter movement and missile ranges. Each function names its section; the tests check
//! the tables cell by cell against the text.

use fray_protocol::ose::{AttackProcedure, MissileRange, Reaction, SaveCategory, SaveTable};

/// The AC columns of the attack matrix (§ Attack Matrix): −3 to 9.
pub const MATRIX_AC: std::ops::RangeInclusive<i32> = -3..=9;

/// § Attack Matrix: the attack roll needed by a THAC0 row to hit an AC column. Every row of
/// the text is `THAC0 − AC` bounded to 2..=20 (checked cell by cell in the tests); ACs outside
/// the text's columns follow the same rule.
pub fn matrix_needed(thac0: i32, ac: i32) -> i32 {
    (thac0 - ac).clamp(2, 20)
}

/// § Attack Rolls Using THAC0 (optional): the roll needed is THAC0 − AC, unbounded.
pub fn direct_needed(thac0: i32, ac: i32) -> i32 {
    thac0 - ac
}

/// § Ascending Armor Class (optional): the attack bonus that goes with a THAC0 (the bracketed
/// figure of the matrix: 19 → +0, 17 → +2).
pub fn attack_bonus(thac0: i32) -> i32 {
    19 - thac0
}

/// § Ascending Armor Class: the ascending AC that goes with a descending AC (AC 9 = AAC 10).
pub fn ascending_ac(ac: i32) -> i32 {
    19 - ac
}

/// § Attacking, 1s and 20s and § Attack Rolls: whether an attack with this natural roll and
/// modified total hits. Natural 20 always hits, natural 1 always misses.
pub fn attack_hits(proc_: AttackProcedure, natural: u32, total: i32, thac0: i32, ac: i32) -> bool {
    if natural >= 20 {
        return true;
    }
    if natural <= 1 {
        return false;
    }
    match proc_ {
        AttackProcedure::Matrix => total >= matrix_needed(thac0, ac),
        AttackProcedure::Thac0Direct => total >= direct_needed(thac0, ac),
        AttackProcedure::Ascending => total + attack_bonus(thac0) >= ascending_ac(ac),
    }
}

/// § Attack Rolls, "Determine hit AC": the best (lowest) AC of the matrix row that the total
/// hits, or `None` when it hits none (the column search of the text, extended below −3).
pub fn hit_ac(thac0: i32, total: i32) -> Option<i32> {
    if total < 2 {
        return None;
    }
    (-20..=9).find(|&ac| total >= matrix_needed(thac0, ac))
}

/// Hit dice as a stat block writes them: `2`, `2+1`, `1-1`, `1/2` (fewer than one die).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct HitDice {
    /// Whole dice (0 for `1/2`).
    pub dice: u32,
    /// The fixed bonus (or penalty) of `2+1` / `1-1`.
    pub bonus: i32,
}

impl HitDice {
    /// Parses `N`, `N+B`, `N-B` or `1/2`; `None` for anything else.
    pub fn parse(s: &str) -> Option<HitDice> {
        let s = s.trim();
        if s == "1/2" {
            return Some(HitDice { dice: 0, bonus: 0 });
        }
        if let Some((n, b)) = s.split_once('+') {
            let dice: u32 = n.trim().parse().ok()?;
            let bonus: i32 = b.trim().parse().ok()?;
            return (bonus > 0 && dice > 0).then_some(HitDice { dice, bonus });
        }
        if let Some((n, b)) = s.split_once('-') {
            let dice: u32 = n.trim().parse().ok()?;
            let bonus: i32 = b.trim().parse().ok()?;
            return (bonus > 0 && dice > 0).then_some(HitDice {
                dice,
                bonus: -bonus,
            });
        }
        let dice: u32 = s.parse().ok()?;
        (dice > 0).then_some(HitDice { dice, bonus: 0 })
    }
}

/// § Attack Matrix, "Monsters with bonus hit points": the THAC0 row of a monster by hit dice;
/// `N+B` attacks as one HD higher. Rows: up to 1 → 19, 1+ to 2 → 18, … 7+ to 9 → 12, then two
/// HD per row, 21+ or more → 5.
pub fn monster_thac0(hd: HitDice) -> i32 {
    let eff = hd.dice + u32::from(hd.bonus > 0);
    let eff = i32::try_from(eff).unwrap_or(i32::MAX);
    match eff {
        i32::MIN..=1 => 19,
        2..=7 => 20 - eff,
        // 7+ to 9 → 12, 9+ to 11 → 11, …, 19+ to 21 → 6 (two HD per row).
        8..=21 => 12 - (eff - 8) / 2,
        _ => 5,
    }
}

/// § Normal Humans: the NH row of the matrix.
pub const NORMAL_HUMAN_THAC0: i32 = 20;

/// § Monster Saving Throws: the row of a table (D, W, P, B, S).
pub fn monster_saves(table: SaveTable) -> [i32; 5] {
    match table {
        SaveTable::NormalHuman => [14, 15, 16, 17, 18],
        SaveTable::Hd(hd) => match hd {
            0..=3 => [12, 13, 14, 15, 16],
            4..=6 => [10, 11, 12, 13, 14],
            7..=9 => [8, 9, 10, 10, 12],
            10..=12 => [6, 7, 8, 8, 10],
            13..=15 => [4, 5, 6, 5, 8],
            16..=18 => [2, 3, 4, 3, 6],
            19..=21 => [2, 2, 2, 2, 4],
            _ => [2, 2, 2, 2, 2],
        },
    }
}

/// The index of a category in a row of five (§ Saving Throws, Categories: D, W, P, B, S).
pub fn save_index(c: SaveCategory) -> usize {
    match c {
        SaveCategory::Death => 0,
        SaveCategory::Wands => 1,
        SaveCategory::Paralysis => 2,
        SaveCategory::Breath => 3,
        SaveCategory::Spells => 4,
    }
}

/// § Rolling a Saving Throw: a result greater than or equal to the value succeeds.
pub fn save_succeeds(total: i32, value: i32) -> bool {
    total >= value
}

/// § Successful Saves, damaging effects: the damage is halved (Fray rounds down, at least 1).
pub fn halved(damage: i32) -> i32 {
    (damage / 2).max(1).min(damage.max(0))
}

/// § Morale: the situational adjustment actually applied (−2..+2; never to morale 2 or 12).
pub fn morale_adjustment(rating: i32, adjustment: i32) -> i32 {
    if rating <= 2 || rating >= 12 {
        0
    } else {
        adjustment.clamp(-2, 2)
    }
}

/// § Morale Checks: 2d6 higher than the (adjusted) rating breaks; equal or lower fights on.
pub fn morale_holds(roll: i32, rating: i32, adjustment: i32) -> bool {
    roll <= rating + morale_adjustment(rating, adjustment)
}

/// § Monster Reaction Roll: the 2d6 result (with the speaker's CHA modifier).
pub fn reaction(total: i32) -> Reaction {
    match total {
        i32::MIN..=2 => Reaction::Hostile,
        3..=5 => Reaction::Unfriendly,
        6..=8 => Reaction::Neutral,
        9..=11 => Reaction::Indifferent,
        _ => Reaction::Friendly,
    }
}

/// The B/X ability-score modifier to attack and damage (STR) and missiles (DEX): 3 → −3,
/// 4–5 → −2, 6–8 → −1, 9–12 → 0, 13–15 → +1, 16–17 → +2, 18 → +3. Not in the provided text
/// except for its example (§ Example of Making an Attack Roll: STR 13 → +1).
pub fn ability_mod(score: i32) -> i32 {
    match score {
        i32::MIN..=3 => -3,
        4..=5 => -2,
        6..=8 => -1,
        9..=12 => 0,
        13..=15 => 1,
        16..=17 => 2,
        _ => 3,
    }
}

/// The B/X NPC reactions modifier by CHA (§ Monster Actions, "Charisma"; the table itself is in
/// the Ability Scores chapter, not the provided text): 3 → −2, 4–8 → −1, 9–12 → 0, 13–17 → +1,
/// 18 → +2.
pub fn cha_reaction_mod(score: i32) -> i32 {
    match score {
        i32::MIN..=3 => -2,
        4..=8 => -1,
        9..=12 => 0,
        13..=17 => 1,
        _ => 2,
    }
}

/// § Encounters, Surprise Checks: a d6 of 1 or 2 means the side is surprised.
pub fn surprised(d6: u32) -> bool {
    d6 <= 2
}

/// § Ability Checks: d20 ≤ the score (after the difficulty modifier, −4 easy … +4 very
/// difficult, added to the roll); a natural 1 succeeds and a natural 20 fails.
pub fn ability_check(natural: u32, modifier: i32, score: i32) -> bool {
    match natural {
        1 => true,
        20 => false,
        n => i32::try_from(n).unwrap_or(i32::MAX) + modifier <= score,
    }
}

/// § Encounters, Movement: the encounter movement rate is one third of the base rate per round.
pub fn encounter_move(base: i32) -> i32 {
    base / 3
}

/// § Combat, In Melee: a fighting withdrawal moves at up to half the encounter rate.
pub fn withdrawal_move(base: i32) -> i32 {
    encounter_move(base) / 2
}

/// § Group Movement Rate: the slowest member's rate.
pub fn group_rate(rates: &[i32]) -> Option<i32> {
    rates.iter().copied().min()
}

/// § Range Modifiers: short +1, medium 0, long −1, beyond long impossible (`None`).
pub fn range_modifier(r: MissileRange) -> Option<i32> {
    match r {
        MissileRange::Short => Some(1),
        MissileRange::Medium => Some(0),
        MissileRange::Long => Some(-1),
        MissileRange::Beyond => None,
    }
}

/// § Option 1: Basic Encumbrance: the base movement rate by armour (0 none, 1 light, 2 heavy)
/// and whether treasure is carried.
pub fn basic_encumbrance_rate(armour: u8, treasure: bool) -> i32 {
    match (armour, treasure) {
        (0, false) => 120,
        (0, true) | (1, false) => 90,
        (1, true) | (2, false) => 60,
        _ => 30,
    }
}

/// § Option 2: Detailed Encumbrance: the base rate by total weight in coins; `None` over the
/// maximum load of 1,600 coins (cannot move).
pub fn detailed_encumbrance_rate(coins: u32) -> Option<i32> {
    match coins {
        0..=400 => Some(120),
        401..=600 => Some(90),
        601..=800 => Some(60),
        801..=1600 => Some(30),
        _ => None,
    }
}

/// OSE § Tracking Encumbrance, the Treasure Encumbrance table: weight in coins of a common
/// item of treasure (`coin` of any type, `gem`, `jewelry` — one piece —, `potion`, `rod`,
/// `scroll`, `staff`, `wand`); `None` for other treasure (the referee decides its weight).
pub fn treasure_coins(item: &str) -> Option<u32> {
    Some(match item {
        "coin" | "gem" | "scroll" => 1,
        "jewelry" | "potion" | "wand" => 10,
        "rod" => 20,
        "staff" => 40,
        _ => return None,
    })
}

/// § Falling: 1d6 per 10′ fallen (the number of dice).
pub fn falling_dice(feet: u32) -> u32 {
    feet / 10
}

/// § Combat, Initiative: the order of the sides from a round's d6 rolls (highest first) and
/// whether the top rolls tie.
pub fn side_order<S: Copy + Ord>(rolls: &[(S, u32)]) -> (Vec<S>, bool) {
    let mut v = rolls.to_vec();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let tie = v.len() > 1 && v[0].1 == v[1].1;
    (v.into_iter().map(|(s, _)| s).collect(), tie)
}

/// basic-fantasy-adventures.txt § Carrying Capacity: (light load, heavy load) in pounds — 60 /
/// 150 for humans, elves and dwarves, 50 / 100 for halflings; "each +1 of Strength bonus adds
/// 10% to the capacity of the character, while each -1 deducts 20%", "rounded to the nearest 5
/// pounds". The Strength bonus is the B/X one (`ability_mod`).
pub fn bf_carrying_capacity(strength: i32, halfling: bool) -> (i32, i32) {
    let (light, heavy) = if halfling { (50, 100) } else { (60, 150) };
    let bonus = ability_mod(strength);
    // Percent of the base capacity.
    let pct = if bonus >= 0 {
        100 + 10 * bonus
    } else {
        100 + 20 * bonus
    };
    let round5 = |base: i32| (base * pct + 250) / 500 * 5;
    (round5(light), round5(heavy))
}

/// basic-fantasy-adventures.txt § Movement and Encumbrance: "normal movement per turn is 3 times
/// the movement rate per round" (40′ per round for the normal races).
pub fn bf_turn_move(per_round: i32) -> i32 {
    per_round * 3
}

/// basic-fantasy-adventures.txt § Retainers: the result of the hiring reaction roll (2d6 + the
/// employer's CHA bonus + the GM's adjustments).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BfHiring {
    /// 2 or less: refusal, −1 on further rolls (in that town or region).
    RefusalWithPenalty,
    /// 3–5: refusal.
    Refusal,
    /// 6–8: try again (with a better offer; otherwise a refusal).
    TryAgain,
    /// 9–11: acceptance.
    Acceptance,
    /// 12 or more: acceptance, +1 to loyalty.
    AcceptanceLoyal,
}

/// basic-fantasy-adventures.txt § Retainers: the hiring table by adjusted roll.
pub fn bf_hiring(total: i32) -> BfHiring {
    match total {
        i32::MIN..=2 => BfHiring::RefusalWithPenalty,
        3..=5 => BfHiring::Refusal,
        6..=8 => BfHiring::TryAgain,
        9..=11 => BfHiring::Acceptance,
        _ => BfHiring::AcceptanceLoyal,
    }
}

/// basic-fantasy-adventures.txt § Retainers: "Loyalty score, which is generally 7 plus the
/// employer's Charisma bonus (or penalty)" and "at most 4 retainers, adjusted by the character's
/// Charisma bonus or penalty": (loyalty, maximum retainers) by the employer's CHA score.
pub fn bf_retainers(charisma: i32) -> (i32, i32) {
    let bonus = ability_mod(charisma);
    (7 + bonus, (4 + bonus).max(0))
}

/// basic-fantasy-adventures.txt § Retainers, Level of Retainers: "one-half the level of the
/// employer (or less)" — a first-level character cannot hire retainers.
pub fn bf_max_retainer_level(employer_level: i32) -> i32 {
    employer_level / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ose-adventuring.txt § Attack Matrix, the text's table as printed (THAC0 column, then the
    /// rolls for AC −3 … 9).
    const MATRIX_TEXT: &str = "\
NH 20 [-1] 20 20 20 20 19 18 17 16 15 14 13 12 11
Up to 1 19 [0] 20 20 20 19 18 17 16 15 14 13 12 11 10
1+ to 2 18 [+1] 20 20 19 18 17 16 15 14 13 12 11 10 9
2+ to 3 17 [+2] 20 19 18 17 16 15 14 13 12 11 10 9 8
3+ to 4 16 [+3] 19 18 17 16 15 14 13 12 11 10 9 8 7
4+ to 5 15 [+4] 18 17 16 15 14 13 12 11 10 9 8 7 6
5+ to 6 14 [+5] 17 16 15 14 13 12 11 10 9 8 7 6 5
6+ to 7 13 [+6] 16 15 14 13 12 11 10 9 8 7 6 5 4
7+ to 9 12 [+7] 15 14 13 12 11 10 9 8 7 6 5 4 3
9+ to 11 11 [+8] 14 13 12 11 10 9 8 7 6 5 4 3 2
11+ to 13 10 [+9] 13 12 11 10 9 8 7 6 5 4 3 2 2
13+ to 15 9 [+10] 12 11 10 9 8 7 6 5 4 3 2 2 2
15+ to 17 8 [+11] 11 10 9 8 7 6 5 4 3 2 2 2 2
17+ to 19 7 [+12] 10 9 8 7 6 5 4 3 2 2 2 2 2
19+ to 21 6 [+13] 9 8 7 6 5 4 3 2 2 2 2 2 2
21+ or more 5 [+14] 8 7 6 5 4 3 2 2 2 2 2 2 2";

    /// Splits a printed row into (label, THAC0, attack bonus, 13 cells).
    fn parse_row(line: &str) -> (String, i32, i32, Vec<i32>) {
        let open = line.find('[').unwrap();
        let close = line.find(']').unwrap();
        let head: Vec<&str> = line[..open].split_whitespace().collect();
        let thac0: i32 = head.last().unwrap().parse().unwrap();
        let label = head[..head.len() - 1].join(" ");
        let bonus: i32 = line[open + 1..close].parse().unwrap();
        let cells = line[close + 1..]
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        (label, thac0, bonus, cells)
    }

    // ose-adventuring.txt § Attack Matrix: every row and column.
    #[test]
    fn attack_matrix_matches_the_text_cell_by_cell() {
        let rows: Vec<_> = MATRIX_TEXT.lines().map(parse_row).collect();
        assert_eq!(rows.len(), 16);
        for (label, thac0, bonus, cells) in rows {
            assert_eq!(cells.len(), 13, "{label}");
            assert_eq!(attack_bonus(thac0), bonus, "{label}: bracketed bonus");
            for (ac, want) in MATRIX_AC.zip(cells) {
                assert_eq!(matrix_needed(thac0, ac), want, "{label}, AC {ac}");
            }
        }
    }

    // ose-adventuring.txt § Attack Matrix, the HD column and "Monsters with bonus hit points".
    #[test]
    fn monsters_attack_by_hit_dice_and_a_bonus_counts_one_hd_higher() {
        let hd = |s: &str| HitDice::parse(s).unwrap();
        let rows: Vec<_> = MATRIX_TEXT.lines().map(parse_row).collect();
        // Each row's label gives the HD it covers: "A+ to B" covers A+ and B.
        let cases = [
            ("1/2", 19),
            ("1", 19),
            ("1-1", 19),
            ("1+1", 18),
            ("2", 18),
            ("2+1", 17),
            ("3", 17),
            ("3+2", 16),
            ("4", 16),
            ("5", 15),
            ("6", 14),
            ("7", 13),
            ("7+1", 12),
            ("8", 12),
            ("9", 12),
            ("9+3", 11),
            ("11", 11),
            ("12", 10),
            ("13", 10),
            ("15", 9),
            ("17", 8),
            ("19", 7),
            ("21", 6),
            ("21+1", 5),
            ("30", 5),
        ];
        for (s, want) in cases {
            assert_eq!(monster_thac0(hd(s)), want, "HD {s}");
            assert!(rows.iter().any(|r| r.1 == want));
        }
        // The text's example: 2 HD → THAC0 18 [+1], 2+1 HD → 17 [+2].
        assert_eq!(monster_thac0(hd("2")), 18);
        assert_eq!(monster_thac0(hd("2+1")), 17);
        assert_eq!(NORMAL_HUMAN_THAC0, rows[0].1);
        assert_eq!(HitDice::parse("x"), None);
        assert_eq!(HitDice::parse("0"), None);
        assert_eq!(HitDice::parse("2+"), None);
    }

    // ose-adventuring.txt § Example of Making an Attack Roll; § Attacking, 1s and 20s.
    #[test]
    fn the_texts_example_and_natural_rolls() {
        // THAC0 17, roll 14 + 1 (STR 13) = 15 hits AC 2, better than AC 4: a hit.
        assert_eq!(ability_mod(13), 1);
        assert_eq!(hit_ac(17, 15), Some(2));
        assert!(attack_hits(AttackProcedure::Matrix, 14, 15, 17, 4));
        // Natural 20 hits even AC −10; natural 1 misses AC 9 whatever the bonus.
        assert!(attack_hits(AttackProcedure::Matrix, 20, 20, 20, -10));
        assert!(!attack_hits(AttackProcedure::Matrix, 1, 30, 5, 9));
        assert_eq!(hit_ac(19, 1), None);
    }

    // ose-adventuring.txt § Attack Rolls Using THAC0 and § Ascending Armor Class.
    #[test]
    fn thac0_direct_and_ascending_options() {
        // "a THAC0 of 19 could hit an opponent with AC 5 on a roll of 14 or greater".
        assert_eq!(direct_needed(19, 5), 14);
        assert!(attack_hits(AttackProcedure::Thac0Direct, 14, 14, 19, 5));
        assert!(!attack_hits(AttackProcedure::Thac0Direct, 13, 13, 19, 5));
        // "very slightly different": the matrix caps at 20 (AC −3 with THAC0 19), direct not.
        assert_eq!(matrix_needed(19, -3), 20);
        assert_eq!(direct_needed(19, -3), 22);
        assert!(!attack_hits(AttackProcedure::Thac0Direct, 19, 21, 19, -3));
        assert!(attack_hits(AttackProcedure::Matrix, 19, 21, 19, -3));
        // Ascending: THAC0 17 is +2; AC 4 is AAC 15; 13 + 2 = 15 hits.
        assert_eq!(ascending_ac(9), 10);
        assert!(attack_hits(AttackProcedure::Ascending, 13, 13, 17, 4));
        assert!(!attack_hits(AttackProcedure::Ascending, 12, 12, 17, 4));
    }

    /// ose-adventuring.txt § Monster Saving Throws as printed (D W P B S).
    const SAVES_TEXT: &str = "\
NH 14 15 16 17 18
1-3 12 13 14 15 16
4-6 10 11 12 13 14
7-9 8 9 10 10 12
10-12 6 7 8 8 10
13-15 4 5 6 5 8
16-18 2 3 4 3 6
19-21 2 2 2 2 4
22 2 2 2 2 2";

    // ose-adventuring.txt § Monster Saving Throws: every row (every HD in it) and column.
    #[test]
    fn monster_saving_throws_match_the_text_cell_by_cell() {
        for line in SAVES_TEXT.lines() {
            let cols: Vec<&str> = line.split_whitespace().collect();
            let want: Vec<i32> = cols[1..].iter().map(|c| c.parse().unwrap()).collect();
            let tables: Vec<SaveTable> = match cols[0] {
                "NH" => vec![SaveTable::NormalHuman],
                "22" => (22..=40).map(SaveTable::Hd).collect(),
                r => {
                    let (a, b) = r.split_once('-').unwrap();
                    (a.parse().unwrap()..=b.parse().unwrap())
                        .map(SaveTable::Hd)
                        .collect()
                }
            };
            for t in tables {
                assert_eq!(monster_saves(t).to_vec(), want, "{line} ({t:?})");
            }
        }
        let cats = [
            SaveCategory::Death,
            SaveCategory::Wands,
            SaveCategory::Paralysis,
            SaveCategory::Breath,
            SaveCategory::Spells,
        ];
        for (i, c) in cats.into_iter().enumerate() {
            assert_eq!(save_index(c), i);
        }
    }

    // ose-adventuring.txt § Rolling a Saving Throw; § Successful Saves.
    #[test]
    fn saves_succeed_at_or_above_and_halve_damage() {
        assert!(save_succeeds(14, 14));
        assert!(!save_succeeds(13, 14));
        assert_eq!(halved(9), 4);
        assert_eq!(halved(1), 1);
        assert_eq!(halved(0), 0);
    }

    // ose-adventuring.txt § Morale (Optional Rule): Morale Checks, Situational Adjustments.
    #[test]
    fn morale_checks() {
        assert!(morale_holds(8, 8, 0));
        assert!(!morale_holds(9, 8, 0));
        assert!(morale_holds(9, 8, 1));
        // ±2 at most, never for 2 or 12.
        assert!(!morale_holds(11, 8, 5));
        assert_eq!(morale_adjustment(8, -5), -2);
        assert_eq!(morale_adjustment(12, -2), 0);
        assert_eq!(morale_adjustment(2, 2), 0);
        assert!(morale_holds(12, 12, -2));
        assert!(!morale_holds(3, 2, 2));
    }

    // ose-adventuring.txt § Monster Reaction Roll; § Monster Actions, Charisma.
    #[test]
    fn reaction_table() {
        let want = [
            (-1, Reaction::Hostile),
            (2, Reaction::Hostile),
            (3, Reaction::Unfriendly),
            (5, Reaction::Unfriendly),
            (6, Reaction::Neutral),
            (8, Reaction::Neutral),
            (9, Reaction::Indifferent),
            (11, Reaction::Indifferent),
            (12, Reaction::Friendly),
            (14, Reaction::Friendly),
        ];
        for (t, r) in want {
            assert_eq!(reaction(t), r, "{t}");
        }
        assert_eq!(cha_reaction_mod(3), -2);
        assert_eq!(cha_reaction_mod(10), 0);
        assert_eq!(cha_reaction_mod(16), 1);
        assert_eq!(cha_reaction_mod(18), 2);
    }

    // ose-adventuring.txt § Encounters, Surprise Checks: 1–2 on a d6.
    #[test]
    fn surprise_on_one_or_two() {
        let s: Vec<bool> = (1..=6).map(surprised).collect();
        assert_eq!(s, [true, true, false, false, false, false]);
    }

    // ose-adventuring.txt § Ability Checks: roll-under, 1s and 20s.
    #[test]
    fn ability_checks_roll_under() {
        assert!(ability_check(12, 0, 12));
        assert!(!ability_check(13, 0, 12));
        assert!(!ability_check(9, 4, 12));
        assert!(ability_check(15, -4, 12));
        assert!(ability_check(1, 10, 3));
        assert!(!ability_check(20, -10, 18));
    }

    // ose-adventuring.txt § Encounters, Movement; § Combat, In Melee; § Group Movement Rate;
    // § Optional Rule: Encumbrance; § Falling.
    #[test]
    fn movement_and_encumbrance() {
        assert_eq!(encounter_move(120), 40);
        assert_eq!(encounter_move(90), 30);
        assert_eq!(withdrawal_move(120), 20);
        assert_eq!(group_rate(&[120, 60, 90]), Some(60));
        assert_eq!(basic_encumbrance_rate(0, false), 120);
        assert_eq!(basic_encumbrance_rate(0, true), 90);
        assert_eq!(basic_encumbrance_rate(1, false), 90);
        assert_eq!(basic_encumbrance_rate(1, true), 60);
        assert_eq!(basic_encumbrance_rate(2, false), 60);
        assert_eq!(basic_encumbrance_rate(2, true), 30);
        assert_eq!(detailed_encumbrance_rate(400), Some(120));
        assert_eq!(detailed_encumbrance_rate(600), Some(90));
        assert_eq!(detailed_encumbrance_rate(800), Some(60));
        assert_eq!(detailed_encumbrance_rate(1600), Some(30));
        assert_eq!(detailed_encumbrance_rate(1601), None);
        assert_eq!(falling_dice(30), 3);
    }

    // ose-adventuring.txt § Combat, Missile Attacks, Range Modifiers.
    #[test]
    fn missile_range_modifiers() {
        assert_eq!(range_modifier(MissileRange::Short), Some(1));
        assert_eq!(range_modifier(MissileRange::Medium), Some(0));
        assert_eq!(range_modifier(MissileRange::Long), Some(-1));
        assert_eq!(range_modifier(MissileRange::Beyond), None);
    }

    // ose-adventuring.txt § Combat, Initiative: highest first; ties reported.
    #[test]
    fn side_initiative_order() {
        assert_eq!(side_order(&[(0u8, 2), (1, 5)]), (vec![1, 0], false));
        assert!(side_order(&[(0u8, 4), (1, 4)]).1);
    }

    // basic-fantasy-adventures.txt § Carrying Capacity: the text's table, cell by cell.
    #[test]
    fn basic_fantasy_carrying_capacity_matches_the_text() {
        let table = "3 25 60 20 40
4-5 35 90 30 60
6-8 50 120 40 80
9-12 60 150 50 100
13-15 65 165 55 110
16-17 70 180 60 120
18 80 195 65 130";
        for line in table.lines() {
            let cells: Vec<&str> = line.split_whitespace().collect();
            let (lo, hi) = match cells[0].split_once('-') {
                Some((a, b)) => (a.parse::<i32>().unwrap(), b.parse::<i32>().unwrap()),
                None => {
                    let v = cells[0].parse::<i32>().unwrap();
                    (v, v)
                }
            };
            let n: Vec<i32> = cells[1..].iter().map(|c| c.parse().unwrap()).collect();
            for strength in lo..=hi {
                assert_eq!(
                    bf_carrying_capacity(strength, false),
                    (n[0], n[1]),
                    "{line}"
                );
                assert_eq!(bf_carrying_capacity(strength, true), (n[2], n[3]), "{line}");
            }
        }
    }

    // basic-fantasy-adventures.txt § Movement and Encumbrance: 40′ per round, 120′ per turn.
    #[test]
    fn basic_fantasy_moves_three_times_its_round_rate_per_turn() {
        assert_eq!(bf_turn_move(40), 120);
        assert_eq!(bf_turn_move(30), 90);
    }

    // basic-fantasy-adventures.txt § Retainers: the hiring table row by row, loyalty 7 + CHA
    // bonus, at most 4 ± CHA bonus retainers, retainers of half the employer's level.
    #[test]
    fn basic_fantasy_retainers() {
        use BfHiring::*;
        for (lo, hi, r) in [
            (-3, 2, RefusalWithPenalty),
            (3, 5, Refusal),
            (6, 8, TryAgain),
            (9, 11, Acceptance),
            (12, 16, AcceptanceLoyal),
        ] {
            for t in lo..=hi {
                assert_eq!(bf_hiring(t), r, "{t}");
            }
        }
        assert_eq!(bf_retainers(10), (7, 4));
        assert_eq!(bf_retainers(18), (10, 7));
        assert_eq!(bf_retainers(3), (4, 1));
        assert_eq!(bf_retainers(16), (9, 6));
        assert_eq!(bf_max_retainer_level(1), 0);
        assert_eq!(bf_max_retainer_level(2), 1);
        assert_eq!(bf_max_retainer_level(5), 2);
    }
}
