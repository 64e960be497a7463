//! Tests for dice notation: parsing, errors, limits, rolling semantics against a twin RNG,
//! placeholders, bounds, and property tests against hostile input.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use super::*;
use proptest::prelude::*;

fn parse(s: &str) -> DiceExpr {
    DiceExpr::parse(s).unwrap_or_else(|e| panic!("{s:?} should parse: {e}"))
}

fn err(s: &str) -> DiceError {
    match DiceExpr::parse(s) {
        Ok(e) => panic!("{s:?} should not parse, got {e}"),
        Err(e) => e,
    }
}

fn all_placeholders() -> Placeholders {
    Placeholders {
        weapon_die: Some(8),
        level: Some(3),
        abilities: [Some(4), Some(2), Some(1), Some(0), Some(-1), Some(3)],
    }
}

fn roll(s: &str, seed: u64) -> Roll {
    let mut rng = SessionRng::from_seed(seed);
    parse(s).roll(&mut rng, &all_placeholders()).unwrap()
}

fn face(sides: u32, face: u32, kept: bool) -> DieResult {
    DieResult { sides, face, kept }
}

#[test]
fn canonical_forms() {
    let cases = [
        ("2d8+3", "2d8+3"),
        ("d20", "d20"),
        ("1d20", "d20"),
        ("0d6", "0d6"),
        ("4d6kh3", "4d6kh3"),
        ("4D6K3", "4d6kh3"),
        ("4d6k", "4d6kh1"),
        ("4d6kl", "4d6kl1"),
        ("4d6dh1", "4d6dh1"),
        ("4d6DL", "4d6dl1"),
        ("d20adv", "d20adv"),
        ("1D20DIS", "d20dis"),
        ("2d6r<3", "2d6r<3"),
        ("2d6RR<2", "2d6rr<2"),
        ("d6!", "d6!"),
        ("3d6kh2!r<2", "3d6r<2!kh2"),
        ("dW", "dW"),
        ("dwkh1", "dWkh1"),
        ("2dW+STR", "2dW+STR"),
        ("2[W] + str", "2dW+STR"),
        ("[weapon]+[Weapon]", "dW+dW"),
        ("LVLdW", "LVLdW"),
        ("lvld8", "LVLd8"),
        ("[level]d8", "LVLd8"),
        ("[LEVEL][w]", "LVLdW"),
        ("level", "LVL"),
        ("dexd6+DEX", "DEXd6+DEX"),
        ("d20+STR+DEX+CON+INT+WIS+CHA", "d20+STR+DEX+CON+INT+WIS+CHA"),
        ("[str]+[cha]", "STR+CHA"),
        ("  2d6 + 3 -\t1 ", "2d6+3-1"),
        ("-1+d4", "-1+d4"),
        ("+d4", "d4"),
        ("-d4-2d6", "-d4-2d6"),
        ("7", "7"),
        ("007", "7"),
    ];
    for (input, canonical) in cases {
        let e = parse(input);
        assert_eq!(e.to_string(), canonical, "input {input:?}");
        assert_eq!(
            parse(canonical),
            e,
            "canonical form of {input:?} must reparse"
        );
        assert_eq!(canonical.parse::<DiceExpr>(), Ok(e));
    }
}

#[test]
fn error_messages_name_the_problem_and_column() {
    let cases: &[(&str, &str)] = &[
        ("2d6x3", "unexpected 'x' at column 4"),
        (
            "10000d6",
            "dice count 10000 exceeds the limit of 1000 (column 1)",
        ),
        (
            "1+1001d6",
            "dice count 1001 exceeds the limit of 1000 (column 3)",
        ),
        ("d0", "die with 0 sides at column 2"),
        ("3+2d0", "die with 0 sides at column 5"),
        (
            "d10001",
            "die with 10001 sides exceeds the limit of 10000 (column 2)",
        ),
        ("FOO+2", "unknown placeholder 'FOO' at column 1"),
        ("2d6+foo", "unknown placeholder 'FOO' at column 5"),
        (
            "d20+dexterity",
            "unknown placeholder 'DEXTERITY' at column 5",
        ),
        ("[foo]", "unknown placeholder 'FOO' at column 1"),
        ("", "empty dice expression"),
        ("   ", "empty dice expression"),
        (
            "2d6+",
            "expected a term at column 5, found the end of the expression",
        ),
        (
            "-",
            "expected a term at column 2, found the end of the expression",
        ),
        (
            "d",
            "expected the number of sides or 'W' at column 2, found the end of the expression",
        ),
        (
            "d+3",
            "expected the number of sides or 'W' at column 2, found '+'",
        ),
        ("2d6++3", "unexpected '+' at column 5"),
        ("2 d6", "unexpected 'd' at column 3"),
        ("4d6 kh3", "unexpected 'k' at column 5"),
        ("d6*2", "unexpected '*' at column 3"),
        ("é", "unexpected 'é' at column 1"),
        ("d6+é", "unexpected 'é' at column 4"),
        (
            "4d6kh3kl1",
            "only one of keep, drop, 'adv' or 'dis' may be used on a term (column 7)",
        ),
        (
            "d20advdis",
            "only one of keep, drop, 'adv' or 'dis' may be used on a term (column 7)",
        ),
        ("4d6!!", "'!' given twice on one term (column 5)"),
        ("4d6r<2r<3", "reroll given twice on one term (column 7)"),
        (
            "2d20adv",
            "'adv' and 'dis' apply to a single die (column 5)",
        ),
        (
            "LVLd20dis",
            "'adv' and 'dis' apply to a single die (column 7)",
        ),
        (
            "d20ad",
            "expected 'adv' at column 6, found the end of the expression",
        ),
        (
            "d20dx",
            "expected 'dh', 'dl' or 'dis' at column 5, found 'x'",
        ),
        ("4d6kh0", "keep/drop count must be at least 1 (column 6)"),
        (
            "4d6kh1001",
            "number 1001 at column 6 exceeds the limit of 1000",
        ),
        (
            "d6rr<7",
            "rerolling every face below 7 on a d6 never stops (column 3)",
        ),
        ("d1!", "an exploding d1 never stops (column 3)"),
        ("d6r3", "expected '<' after 'r' at column 4, found '3'"),
        (
            "d6r<",
            "expected a reroll threshold at column 5, found the end of the expression",
        ),
        (
            "d6r<10001",
            "number 10001 at column 5 exceeds the limit of 10000",
        ),
        (
            "1000001",
            "number 1000001 at column 1 exceeds the limit of 1000000",
        ),
        (
            "d6+99999999999999999999999",
            "number 18446744073709551615 at column 4 exceeds the limit of 1000000",
        ),
        (
            "[level",
            "expected ']' at column 7, found the end of the expression",
        ),
        ("[level)", "expected ']' at column 7, found ')'"),
        ("2[str]", "unexpected '[' at column 2"),
    ];
    for (input, message) in cases {
        assert_eq!(err(input).to_string(), *message, "input {input:?}");
    }
}

#[test]
fn error_values_are_structured() {
    assert_eq!(
        err("2d6x3"),
        DiceError::Unexpected {
            found: 'x',
            column: 4
        }
    );
    assert_eq!(
        err("99999999999999999999999d6"),
        DiceError::TooManyDice {
            count: i64::MAX,
            limit: MAX_DICE_PER_TERM,
            column: 1
        }
    );
    assert_eq!(
        err("zz"),
        DiceError::UnknownPlaceholder {
            name: "ZZ".into(),
            column: 1
        }
    );
}

#[test]
fn length_and_term_limits() {
    let long = format!("{}1", " ".repeat(MAX_EXPR_CHARS));
    assert_eq!(
        err(&long),
        DiceError::TooLong {
            limit: MAX_EXPR_CHARS
        }
    );
    let exact = format!("{}1", " ".repeat(MAX_EXPR_CHARS - 1));
    parse(&exact);
    // Multi-byte characters count as one character each.
    let accents = "é".repeat(MAX_EXPR_CHARS);
    assert!(matches!(err(&accents), DiceError::Unexpected { .. }));
    assert!(matches!(
        err(&"é".repeat(MAX_EXPR_CHARS + 1)),
        DiceError::TooLong { .. }
    ));
    // Huge input is rejected without scanning it all.
    assert!(matches!(
        err(&"d".repeat(1 << 20)),
        DiceError::TooLong { .. }
    ));

    let terms = |n: usize| vec!["1"; n].join("+");
    assert_eq!(parse(&terms(MAX_TERMS)).to_string(), terms(MAX_TERMS));
    assert_eq!(
        err(&terms(MAX_TERMS + 1)),
        DiceError::TooManyTerms { limit: MAX_TERMS }
    );

    parse("1000d10000");
}

#[test]
fn total_dice_limit_is_checked_before_rolling() {
    let ph = Placeholders::default();
    let ten = ["1000d6"; 10].join("+");
    let mut rng = SessionRng::from_seed(1);
    let r = parse(&ten).roll(&mut rng, &ph).unwrap();
    assert_eq!(r.dice.len(), 10_000);

    let eleven = ["1000d6"; 11].join("+");
    let mut rng = SessionRng::from_seed(1);
    assert_eq!(
        parse(&eleven).roll(&mut rng, &ph),
        Err(DiceError::TooManyDiceRolled {
            limit: MAX_DICE_PER_ROLL
        })
    );
    assert_eq!(rng.draws(), 0);
}

#[test]
fn explosions_and_rerolls_count_toward_the_limit_and_leave_rng_untouched() {
    let ph = Placeholders::default();
    // 10,000 base d2s that explode on 2: about 20,000 faces, over the limit.
    let hostile = ["1000d2!"; 10].join("+");
    let mut rng = SessionRng::from_seed(3);
    let before = rng.clone();
    assert_eq!(
        parse(&hostile).roll(&mut rng, &ph),
        Err(DiceError::TooManyDiceRolled {
            limit: MAX_DICE_PER_ROLL
        })
    );
    assert_eq!(rng, before);

    let rerolls = ["1000d2r<2"; 10].join("+");
    assert_eq!(
        parse(&rerolls).roll(&mut rng, &ph),
        Err(DiceError::TooManyDiceRolled {
            limit: MAX_DICE_PER_ROLL
        })
    );
    assert_eq!(rng, before);
}

/// Expected kept flags for keep/drop over die values, ties broken by draw order.
fn expected_kept(values: &[u32], highest: bool, n: usize, keep: bool) -> Vec<bool> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| {
        let v = if highest {
            values[b].cmp(&values[a])
        } else {
            values[a].cmp(&values[b])
        };
        v.then(a.cmp(&b))
    });
    let mut kept = vec![!keep; values.len()];
    for &i in order.iter().take(n) {
        kept[i] = keep;
    }
    kept
}

#[test]
fn keep_and_drop_match_manual_draws() {
    let forms: [(&str, bool, usize, bool); 8] = [
        ("4d6kh3", true, 3, true),
        ("4d6k3", true, 3, true),
        ("4d6kl1", false, 1, true),
        ("5d6dl2", false, 2, false),
        ("5d6dh1", true, 1, false),
        ("3d6kh5", true, 5, true),
        ("3d6dl5", false, 5, false),
        ("6d4kl3", false, 3, true),
    ];
    for seed in 0..200 {
        for (text, highest, n, keep) in forms {
            let r = roll(text, seed);
            let sides = if text.contains("d4") { 4 } else { 6 };
            let count = r.dice.len();
            let mut twin = SessionRng::from_seed(seed);
            let faces: Vec<u32> = (0..count).map(|_| twin.die(sides)).collect();
            let kept = expected_kept(&faces, highest, n, keep);
            let expected: Vec<DieResult> = faces
                .iter()
                .zip(&kept)
                .map(|(&f, &k)| face(sides, f, k))
                .collect();
            assert_eq!(r.dice, expected, "{text} seed {seed}");
            let total: u32 = faces.iter().zip(&kept).filter(|p| *p.1).map(|p| *p.0).sum();
            assert_eq!(r.total, total as i32);
            assert_eq!(r.modifier, 0);
        }
    }
}

#[test]
fn advantage_and_disadvantage() {
    for seed in 0..200 {
        let mut twin = SessionRng::from_seed(seed);
        let (a, b) = (twin.die(20), twin.die(20));
        let adv = roll("d20adv+2", seed);
        let keep_first = a >= b;
        assert_eq!(
            adv.dice,
            vec![face(20, a, keep_first), face(20, b, !keep_first)]
        );
        assert_eq!(adv.total, a.max(b) as i32 + 2);
        assert_eq!(adv.natural(), Some(a.max(b)));
        assert_eq!(adv.expr, "d20adv+2");

        let dis = roll("d20dis", seed);
        let keep_first = a <= b;
        assert_eq!(
            dis.dice,
            vec![face(20, a, keep_first), face(20, b, !keep_first)]
        );
        assert_eq!(dis.total, a.min(b) as i32);
    }
}

#[test]
fn reroll_once_and_repeatedly() {
    for seed in 0..100 {
        let r = roll("10d6r<3", seed);
        let mut twin = SessionRng::from_seed(seed);
        let mut expected = Vec::new();
        let mut total = 0;
        for _ in 0..10 {
            let mut f = twin.die(6);
            if f < 3 {
                expected.push(face(6, f, false));
                f = twin.die(6);
            }
            expected.push(face(6, f, true));
            total += f;
        }
        assert_eq!(r.dice, expected, "seed {seed}");
        assert_eq!(r.total, total as i32);

        let r = roll("10d6rr<3", seed);
        let mut twin = SessionRng::from_seed(seed);
        let mut expected = Vec::new();
        let mut total = 0;
        for _ in 0..10 {
            let mut f = twin.die(6);
            while f < 3 {
                expected.push(face(6, f, false));
                f = twin.die(6);
            }
            expected.push(face(6, f, true));
            total += f;
        }
        assert_eq!(r.dice, expected, "seed {seed}");
        assert_eq!(r.total, total as i32);
        assert!(r.dice.iter().filter(|d| d.kept).all(|d| d.face >= 3));
    }
}

#[test]
fn repeated_reroll_is_bounded() {
    // Every face but 10000 is rerolled; the cap stops it and keeps the last face.
    let r = roll("d10000rr<10000", 1);
    assert!(r.dice.len() <= 1 + MAX_REROLLS_PER_DIE as usize);
    assert_eq!(r.dice.iter().filter(|d| d.kept).count(), 1);
    assert!(r.dice.iter().rev().skip(1).all(|d| !d.kept));
}

#[test]
fn exploding_dice() {
    let mut saw_explosion = false;
    for seed in 0..100 {
        let r = roll("20d6!", seed);
        let mut twin = SessionRng::from_seed(seed);
        let mut expected = Vec::new();
        let mut total = 0;
        for _ in 0..20 {
            let mut f = twin.die(6);
            expected.push(face(6, f, true));
            total += f;
            while f == 6 {
                saw_explosion = true;
                f = twin.die(6);
                expected.push(face(6, f, true));
                total += f;
            }
        }
        assert_eq!(r.dice, expected, "seed {seed}");
        assert_eq!(r.total, total as i32);
    }
    assert!(saw_explosion);
}

#[test]
fn explosion_is_capped_per_die() {
    // On a d2 a run of 100 maxima is astronomically unlikely, so test the cap through the
    // dice budget instead: every roll stays within the per-roll limit.
    let r = roll("1000d2!", 7);
    assert!(r.dice.len() <= MAX_DICE_PER_ROLL as usize);
    assert!(r.dice.len() > 1000);
}

#[test]
fn exploding_dice_keep_whole_chains() {
    // A dropped die drops its explosion faces too; chain values are compared.
    for seed in 0..300 {
        let r = roll("3d4!kh1", seed);
        let mut twin = SessionRng::from_seed(seed);
        let mut chains: Vec<Vec<u32>> = Vec::new();
        for _ in 0..3 {
            let mut chain = vec![twin.die(4)];
            while chain.last() == Some(&4) {
                chain.push(twin.die(4));
            }
            chains.push(chain);
        }
        let values: Vec<u32> = chains.iter().map(|c| c.iter().sum()).collect();
        let kept = expected_kept(&values, true, 1, true);
        let expected: Vec<DieResult> = chains
            .iter()
            .zip(&kept)
            .flat_map(|(c, &k)| c.iter().map(move |&f| face(4, f, k)))
            .collect();
        assert_eq!(r.dice, expected, "seed {seed}");
        assert_eq!(r.total, *values.iter().max().unwrap() as i32);
    }
}

#[test]
fn signs_constants_and_modifier() {
    for seed in 0..50 {
        let r = roll("10 - d4 + 2d6 - 3", seed);
        let mut twin = SessionRng::from_seed(seed);
        let a = twin.die(4);
        let b = twin.die(6);
        let c = twin.die(6);
        assert_eq!(
            r.dice,
            vec![face(4, a, true), face(6, b, true), face(6, c, true)]
        );
        assert_eq!(r.modifier, 7);
        assert_eq!(r.total, 10 - a as i32 + b as i32 + c as i32 - 3);
        assert_eq!(r.expr, "10-d4+2d6-3");
    }
    let r = roll("5", 0);
    assert_eq!((r.dice.len(), r.modifier, r.total), (0, 5, 5));
}

#[test]
fn placeholders_resolve() {
    let ph = Placeholders::default()
        .with_weapon_die(8)
        .with_ability(Ability::Str, 3)
        .with_ability(Ability::Wis, -2)
        .with_level(4);
    let text = |s: &str| parse(s).resolved_text(&ph).unwrap();
    assert_eq!(text("2dW+STR"), "2d8+3");
    assert_eq!(text("2[W]+WIS"), "2d8-2");
    assert_eq!(text("d20-WIS"), "d20+2");
    assert_eq!(text("WIS+d20"), "-2+d20");
    assert_eq!(text("LVLd6+[level]"), "4d6+4");
    assert_eq!(text("STRdWkh1!"), "3d8!kh1");
    assert_eq!(text("dWadv"), "d8adv");

    let mut rng = SessionRng::from_seed(11);
    let r = parse("2dW+STR").roll(&mut rng, &ph).unwrap();
    assert_eq!(r.expr, "2d8+3");
    assert_eq!(r.modifier, 3);
    assert!(r.dice.iter().all(|d| d.sides == 8));
    assert_eq!(
        r.total,
        r.dice.iter().map(|d| d.face as i32).sum::<i32>() + 3
    );

    let level_one = ph.clone().with_level(1);
    assert_eq!(parse("LVLd8").resolved_text(&level_one).unwrap(), "d8");
    let level_zero = ph.clone().with_level(0);
    let r = parse("LVLd8+1")
        .roll(&mut SessionRng::from_seed(1), &level_zero)
        .unwrap();
    assert_eq!((r.expr.as_str(), r.dice.len(), r.total), ("0d8+1", 0, 1));
}

#[test]
fn unresolved_and_invalid_placeholders_are_errors() {
    let none = Placeholders::default();
    let resolve = |s: &str, ph: &Placeholders| parse(s).resolved_text(ph).unwrap_err();
    assert_eq!(
        resolve("2dW", &none),
        DiceError::UnresolvedPlaceholder {
            name: "W",
            column: 3
        }
    );
    assert_eq!(
        resolve("d4+LVLd6", &none).to_string(),
        "placeholder 'LVL' at column 4 has no value"
    );
    assert_eq!(
        resolve("d20+STR", &none),
        DiceError::UnresolvedPlaceholder {
            name: "STR",
            column: 5
        }
    );
    let bad_weapon = none.clone().with_weapon_die(0);
    assert_eq!(
        resolve("dW", &bad_weapon),
        DiceError::ZeroSides { column: 2 }
    );
    let huge_weapon = none.clone().with_weapon_die(u32::MAX);
    assert!(matches!(
        resolve("dW", &huge_weapon),
        DiceError::TooManySides { .. }
    ));
    let d1 = none.clone().with_weapon_die(1);
    assert_eq!(
        resolve("dW!", &d1),
        DiceError::ExplodeNeverStops { column: 3 }
    );
    let d4 = none.clone().with_weapon_die(4);
    assert!(matches!(
        resolve("dWrr<5", &d4),
        DiceError::RerollNeverStops { .. }
    ));
    assert_eq!(
        resolve("LVLd6", &none.clone().with_level(-1)),
        DiceError::NegativeDiceCount {
            count: -1,
            column: 1
        }
    );
    assert_eq!(
        resolve("LVLd6", &none.clone().with_level(1001)).to_string(),
        "dice count 1001 exceeds the limit of 1000 (column 1)"
    );
    // Extreme constants cannot overflow the total silently.
    let extreme = none.clone().with_level(i32::MAX);
    let mut rng = SessionRng::from_seed(0);
    assert_eq!(
        parse("LVL+LVL").roll(&mut rng, &extreme),
        Err(DiceError::OutOfRange)
    );
    assert_eq!(
        parse("LVL+d6").max_total(&extreme),
        Err(DiceError::OutOfRange)
    );
    assert_eq!(
        parse("LVL-1").roll(&mut rng, &extreme).unwrap().total,
        i32::MAX - 1
    );
}

#[test]
fn bounds() {
    let ph = all_placeholders();
    let b = |s: &str| parse(s).bounds(&ph).unwrap();
    assert_eq!(b("2d6+3"), (Some(5), Some(15)));
    assert_eq!(b("4d6kh3"), (Some(3), Some(18)));
    assert_eq!(b("4d6dl1"), (Some(3), Some(18)));
    assert_eq!(b("d20adv"), (Some(1), Some(20)));
    assert_eq!(b("d6!"), (Some(1), None));
    assert_eq!(b("10-d6!"), (None, Some(9)));
    assert_eq!(b("0d6"), (Some(0), Some(0)));
    assert_eq!(b("3d6dl5"), (Some(0), Some(0)));
    assert_eq!(b("3d6kh5"), (Some(3), Some(18)));
    assert_eq!(b("2dW+STR-d4"), (Some(2), Some(19)));
    assert_eq!(b("d6rr<3"), (Some(1), Some(6)));
    assert_eq!(parse("2dW+4").max_total(&ph), Ok(Some(20)));
    assert_eq!(parse("2dW+4").min_total(&ph), Ok(Some(6)));
}

#[test]
fn convenience_rolls() {
    let mut rng = SessionRng::from_seed(5);
    let mut twin = SessionRng::from_seed(5);
    let r = roll_d20(&mut rng);
    let f = twin.die(20);
    assert_eq!(
        r,
        Roll {
            expr: "d20".into(),
            dice: vec![face(20, f, true)],
            modifier: 0,
            total: f as i32,
        }
    );
    let r = roll_die(&mut rng, 6);
    assert_eq!(r.total, twin.die(6) as i32);
    assert_eq!(r.expr, "d6");

    let before = rng.draws();
    let r = roll_die(&mut rng, 0);
    assert_eq!((r.dice.len(), r.total, rng.draws()), (0, 0, before));
    let r = roll_die(&mut rng, u32::MAX);
    assert!(r.total >= 1);
}

#[test]
fn roll_matches_d20_convenience() {
    let mut a = SessionRng::from_seed(77);
    let mut b = SessionRng::from_seed(77);
    let via_expr = parse("d20").roll(&mut a, &Placeholders::default()).unwrap();
    assert_eq!(via_expr, roll_d20(&mut b));
    assert_eq!(a, b);
}

#[test]
fn serde_round_trip_as_text() {
    let e = parse(" 4D6K3 ");
    let json = serde_json::to_string(&e).unwrap();
    assert_eq!(json, "\"4d6kh3\"");
    let back: DiceExpr = serde_json::from_str(&json).unwrap();
    assert_eq!(back, e);
    let bad = serde_json::from_str::<DiceExpr>("\"2d6x\"").unwrap_err();
    assert!(bad.to_string().contains("unexpected 'x' at column 4"));
}

/// Checks everything a successful roll must satisfy.
fn check_roll(e: &DiceExpr, seed: u64) {
    let ph = all_placeholders();
    let mut rng = SessionRng::from_seed(seed);
    let Ok(r) = e.roll(&mut rng, &ph) else {
        return;
    };
    assert!(r.dice.len() <= MAX_DICE_PER_ROLL as usize);
    assert!(r.dice.iter().all(|d| (1..=d.sides).contains(&d.face)));
    assert_eq!(r.expr, e.resolved_text(&ph).unwrap());
    let (lo, hi) = e.bounds(&ph).unwrap();
    if let Some(lo) = lo {
        assert!(r.total >= lo, "{e}: {} < {lo}", r.total);
    }
    if let Some(hi) = hi {
        assert!(r.total <= hi, "{e}: {} > {hi}", r.total);
    }
    // The resolved text is itself valid notation that rolls identically.
    let again = DiceExpr::parse(&r.expr).unwrap();
    let r2 = again
        .roll(&mut SessionRng::from_seed(seed), &Placeholders::default())
        .unwrap();
    assert_eq!(r2, r);
}

fn simple_term() -> impl Strategy<Value = String> {
    let dice = (
        0u32..=12,
        2u32..=30,
        prop_oneof![
            Just(String::new()),
            (1u32..=6).prop_map(|n| format!("kh{n}")),
            (1u32..=6).prop_map(|n| format!("kl{n}")),
            (1u32..=6).prop_map(|n| format!("dh{n}")),
            (1u32..=6).prop_map(|n| format!("dl{n}")),
        ],
        prop_oneof![
            Just(String::new()),
            (0u32..=4).prop_map(|v| format!("r<{v}")),
            (0u32..=2).prop_map(|v| format!("rr<{v}")),
        ],
    )
        .prop_map(|(n, s, keep, reroll)| format!("{n}d{s}{reroll}{keep}"));
    prop_oneof![
        dice,
        (0u32..=100).prop_map(|k| k.to_string()),
        Just("d20adv".to_string()),
        Just("d20dis".to_string()),
        Just("dW".to_string()),
        Just("LVLd4".to_string()),
        Just("STR".to_string()),
        Just("WIS".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,300}", seed in any::<u64>()) {
        if let Ok(e) = DiceExpr::parse(&text) {
            let canonical = e.to_string();
            prop_assert_eq!(DiceExpr::parse(&canonical).map(|x| x.to_string()), Ok(canonical));
            check_roll(&e, seed);
        }
    }

    #[test]
    fn notation_like_text_never_panics(
        text in "[0-9dDkKhHlLaAvVsSiIrRwWeEtTxX<!+\\- \\[\\]]{0,40}",
        seed in any::<u64>(),
    ) {
        if let Ok(e) = DiceExpr::parse(&text) {
            let canonical = e.to_string();
            prop_assert_eq!(DiceExpr::parse(&canonical).map(|x| x.to_string()), Ok(canonical));
            check_roll(&e, seed);
        }
    }

    #[test]
    fn simple_expressions_roll_within_bounds(
        first in simple_term(),
        rest in proptest::collection::vec((prop_oneof![Just("+"), Just("-")], simple_term()), 0..5),
        seed in any::<u64>(),
    ) {
        let mut text = first;
        for (op, term) in rest {
            text.push_str(op);
            text.push_str(&term);
        }
        let e = DiceExpr::parse(&text);
        prop_assert!(e.is_ok(), "{} failed: {:?}", text, e);
        if let Ok(e) = e {
            let ph = all_placeholders();
            let mut rng = SessionRng::from_seed(seed);
            let r = e.roll(&mut rng, &ph);
            prop_assert!(r.is_ok(), "{} failed to roll: {:?}", text, r);
            check_roll(&e, seed);
        }
    }
}
