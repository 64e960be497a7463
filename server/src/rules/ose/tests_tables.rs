//! The texts' tables checked row by row and at every edge, beyond `tables::tests`: the attack
//! matrix's hit-dice column for every HD (with and without a bonus), the detailed encumbrance
//! table at both edges of each row, and Basic Fantasy's wilderness movement, terrain and XP
//! tables as printed.

use super::experience::monster_xp;
use super::tables::{HitDice, detailed_encumbrance_rate, monster_thac0};
use super::travel::{day_miles, miles_per_day};
use fray_protocol::bf::{March, Terrain};

/// ose-adventuring.txt § Attack Matrix: the "Monster HD" and THAC0 columns as printed.
const MATRIX_HD_TEXT: &str = "\
NH 20
Up to 1 19
1+ to 2 18
2+ to 3 17
3+ to 4 16
4+ to 5 15
5+ to 6 14
6+ to 7 13
7+ to 9 12
9+ to 11 11
11+ to 13 10
13+ to 15 9
15+ to 17 8
17+ to 19 7
19+ to 21 6
21+ or more 5";

/// The range of "effective" hit dice a row label covers, counting a die with a bonus (`A+`) as
/// the next whole die: "Up to 1" → ..=1, "A+ to B" → A+1..=B, "A+ or more" → A+1.. .
fn covers(label: &str) -> Option<(u32, u32)> {
    if label == "Up to 1" {
        return Some((0, 1));
    }
    let (a, rest) = label.split_once("+ ")?;
    let a: u32 = a.parse().ok()?;
    if rest == "or more" {
        return Some((a + 1, u32::MAX));
    }
    let b: u32 = rest.strip_prefix("to ")?.parse().ok()?;
    Some((a + 1, b))
}

/// ose-adventuring.txt § Attack Matrix ("Monsters: Use the attack matrix row for their Hit
/// Dice") and "Monsters with bonus hit points … attack as if they were 1 HD higher": every HD
/// from 1 to 40, plain, with a bonus and with a penalty, lands in the row whose printed label
/// covers it; ½ HD and `1-1` use "Up to 1".
#[test]
fn every_hit_die_uses_its_printed_row_attack_matrix() {
    let rows: Vec<((u32, u32), i32)> = MATRIX_HD_TEXT
        .lines()
        .skip(1) // NH: normal humans, not a number of hit dice (content `attack_as = "nh"`).
        .map(|line| {
            let (label, thac0) = line.rsplit_once(' ').expect("label and THAC0");
            (
                covers(label).unwrap_or_else(|| panic!("label {label}")),
                thac0.parse().expect("THAC0"),
            )
        })
        .collect();
    assert_eq!(rows.len(), 15);
    let row_for = |effective: u32| {
        let found: Vec<i32> = rows
            .iter()
            .filter(|((lo, hi), _)| (*lo..=*hi).contains(&effective))
            .map(|r| r.1)
            .collect();
        assert_eq!(found.len(), 1, "exactly one row covers {effective} HD");
        found[0]
    };
    for dice in 1..=40u32 {
        for (suffix, effective) in [
            (String::new(), dice),
            (format!("+{}", 1 + dice % 3), dice + 1),
            (format!("-{}", 1 + dice % 2), dice),
        ] {
            let written = format!("{dice}{suffix}");
            let hd = HitDice::parse(&written).expect("hit dice");
            assert_eq!(monster_thac0(hd), row_for(effective), "HD {written}");
        }
    }
    let half = HitDice::parse("1/2").expect("1/2");
    assert_eq!(monster_thac0(half), row_for(1), "HD 1/2");
}

/// ose-adventuring.txt § Optional Rule: Encumbrance, Option 2: Detailed Encumbrance, the table
/// as printed ("Up to 400 coins 120′ (40′) Up to 600 coins 90′ (30′) Up to 800 coins 60′ (20′)
/// Up to 1,600 coins 30′ (10′)"), and § Maximum load ("Characters carrying more than this cannot
/// move"): every row — its rate and its encounter rate in brackets (§ Encounters, Movement: a
/// third) — at every load in coins from 0 to past the maximum, each load in the first row whose
/// "up to" it does not exceed.
#[test]
fn detailed_encumbrance_every_row_at_every_load_optional_rule_encumbrance() {
    let printed = "Up to 400 coins 120′ (40′) Up to 600 coins 90′ (30′) Up to 800 coins 60′ \
                   (20′) Up to 1,600 coins 30′ (10′)";
    let mut rows: Vec<(u32, i32, i32)> = Vec::new();
    for row in printed.split("Up to ").filter(|r| !r.trim().is_empty()) {
        let (coins, rest) = row.split_once(" coins ").expect("coins");
        let (rate, encounter) = rest.trim().split_once("′ (").expect("rate");
        let encounter = encounter.trim().trim_end_matches("′)");
        rows.push((
            coins.replace(',', "").parse().expect("coins"),
            rate.parse().expect("rate"),
            encounter.parse().expect("encounter rate"),
        ));
    }
    assert_eq!(rows.len(), 4);
    let mut seen = Vec::new();
    for coins in 0..=2000u32 {
        let row = rows.iter().find(|(up_to, _, _)| coins <= *up_to);
        let rate = detailed_encumbrance_rate(coins);
        assert_eq!(rate, row.map(|r| r.1), "{coins} coins");
        if let (Some(rate), Some(&(_, printed_rate, printed_encounter))) = (rate, row) {
            assert_eq!(super::tables::encounter_move(rate), printed_encounter);
            if seen.last() != Some(&printed_rate) {
                seen.push(printed_rate);
            }
        }
    }
    assert_eq!(seen, [120, 90, 60, 30], "every row reached, in order");
    assert_eq!(detailed_encumbrance_rate(u32::MAX), None);
}

/// basic-fantasy-adventures.txt § Wilderness Movement Rates, the table as printed (encounter
/// movement in feet per round → miles per day), every row.
#[test]
fn the_wilderness_movement_table_row_by_row_wilderness_movement_rates() {
    let table = "10′ 6\n20′ 12\n30′ 18\n40′ 24\n50′ 30\n60′ 36\n70′ 42\n80′ 48\n90′ 54\n\
                 100′ 60\n110′ 66\n120′ 72";
    let mut rows = 0;
    for line in table.lines() {
        let (feet, miles) = line.trim().split_once("′ ").expect("row");
        let feet: i32 = feet.parse().expect("feet");
        let miles: u32 = miles.parse().expect("miles");
        assert_eq!(miles_per_day(feet), miles, "{feet}′");
        assert_eq!(day_miles(feet, March::Normal, Terrain::Clear), miles);
        rows += 1;
    }
    assert_eq!(rows, 12);
}

/// basic-fantasy-adventures.txt § Overland Travel, the Terrain Adjustment table as printed
/// (every row, at every rate of the movement table; miles rounded down, the matrix's
/// *interpretation*), and § Traveling by Air ("all terrain effects are ignored"). The protocol
/// names each row by its first kind of terrain but one: `jungle` (jungle, mountains, swamp),
/// `forest` (desert, forest, hills), `clear` (clear, plains, trail), `road` (paved road).
#[test]
fn the_terrain_table_row_by_row_overland_travel() {
    let table = [
        ("Jungle, Mountains, Swamp x1/3", Terrain::Jungle, (1, 3)),
        ("Desert, Forest, Hills x2/3", Terrain::Forest, (2, 3)),
        ("Clear, Plains, Trail x1", Terrain::Clear, (1, 1)),
        ("Road (Paved) x1 1/3", Terrain::Road, (4, 3)),
    ];
    for (row, terrain, (num, den)) in table {
        for rate in (10..=120).step_by(10) {
            let base = miles_per_day(rate);
            assert_eq!(
                day_miles(rate, March::Normal, terrain),
                base * num / den,
                "{row} at {rate}′"
            );
            assert_eq!(
                day_miles(rate, March::Forced, terrain),
                base * num * 3 / (den * 2),
                "{row}, forced march (+50%), at {rate}′"
            );
            assert_eq!(
                day_miles(rate, March::Air, terrain),
                base * 2,
                "{row} by air"
            );
            assert_eq!(day_miles(rate, March::Rest, terrain), 0);
        }
    }
    // For example 120′ (72 miles a day in the open): jungle 24, forest 48, paved road 96.
    assert_eq!(day_miles(120, March::Normal, Terrain::Jungle), 24);
    assert_eq!(day_miles(120, March::Normal, Terrain::Forest), 48);
    assert_eq!(day_miles(120, March::Normal, Terrain::Road), 96);
}

/// basic-fantasy-adventures.txt § Character Advancement, the XP table as printed (Monster Hit
/// Dice, XP Value, Special Ability Bonus): every row, with none, one and two asterisks; "less
/// than 1" is ½ HD and `1-1` (the matrix's *interpretation*).
#[test]
fn the_xp_table_row_by_row_character_advancement() {
    let table = "\
less than 1 10 3
1 25 12
2 75 25
3 145 30
4 240 40
5 360 45
6 500 55
7 670 65
8 875 70
9 1,075 75
10 1,300 90
11 1,575 95
12 1,875 100
13 2,175 110
14 2,500 115
15 2,850 125
16 3,250 135
17 3,600 145
18 4,000 160
19 4,500 175
20 5,250 200
21 6,000 225
22 6,750 250
23 7,500 275
24 8,250 300
25 9,000 325";
    let mut rows = 0;
    for line in table.lines() {
        let (hd, numbers) = match line.strip_prefix("less than 1 ") {
            Some(rest) => (vec!["1/2", "1-1"], rest),
            None => {
                let (hd, rest) = line.split_once(' ').expect("row");
                (vec![hd], rest)
            }
        };
        let n: Vec<u32> = numbers
            .split_whitespace()
            .map(|c| c.replace(',', "").parse().expect("number"))
            .collect();
        let (xp, bonus) = (n[0], n[1]);
        for written in hd {
            let hd = HitDice::parse(written).expect("hit dice");
            for stars in 0..=2 {
                assert_eq!(
                    monster_xp(hd, stars),
                    xp + bonus * stars,
                    "{line}, {stars} *"
                );
            }
        }
        rows += 1;
    }
    assert_eq!(rows, 26);
}

/// basic-fantasy-adventures.txt § Waterborne Travel, the d12 Wind Direction table as printed:
/// every face.
#[test]
fn the_wind_direction_table_face_by_face_waterborne_travel() {
    use fray_protocol::bf::WindDirection;
    let table = "1 Northerly\n2 Northeasterly\n3 Easterly\n4 Southeasterly\n5 Southerly\n\
                 6 Southwesterly\n7 Westerly\n8 Northwesterly\n\
                 9-12 Prevailing wind direction for this locale";
    let mut faces = Vec::new();
    for line in table.lines() {
        let (roll, name) = line.trim().split_once(' ').expect("row");
        let (lo, hi) = match roll.split_once('-') {
            Some((a, b)) => (a.parse().expect("face"), b.parse().expect("face")),
            None => {
                let n: u32 = roll.parse().expect("face");
                (n, n)
            }
        };
        let first = name.split_whitespace().next().expect("name").to_lowercase();
        let want: WindDirection =
            serde_json::from_value(serde_json::Value::String(first)).expect("a direction");
        for n in lo..=hi {
            assert_eq!(WindDirection::from_d12(n), want, "{line}");
            faces.push(n);
        }
    }
    assert_eq!(faces, (1..=12).collect::<Vec<u32>>());
}
