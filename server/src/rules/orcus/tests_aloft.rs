//! Orcus heights beyond the text (`aloft.rs`; orcus-basic-rules.txt has no altitude rules, so
//! these extend its sections with Fourth Edition's 3-D reading, an interpretation): far areas
//! centred aloft, flying over creatures, forced movement aloft.

use super::tests::{end, started, until};
use super::tests_elevation::{aloft, attacked, open_field};
use crate::rules::thirteenth_age::tests::{cid, refusal, run};
use fray_protocol::grid::Square;
use fray_protocol::{Command, ErrorCode};

fn area_at(actor: &str, attack: &str, origin: (i32, i32), up: Option<i32>) -> Command {
    Command::AreaAttack {
        actor: cid(actor),
        attack: attack.into(),
        origin: Some(Square::new(origin.0, origin.1)),
        targets: vec![],
        forced: Vec::new(),
        origin_height: up,
    }
}

const FAR_AREAS: &str = r#"[[monster.powers]]
id = "hurl"
name = "Hurl"
origin = "far burst"
area = 1
range = [10]
targets = "all enemies"
vs = "reflex"
bonus = 4
hit = "1d6"
[[monster.powers]]
id = "gout"
name = "Gout"
origin = "far blast"
area = 2
range = [10]
targets = "all enemies"
vs = "reflex"
bonus = 4
hit = "1d6"
"#;

/// Kael flies 4 up over (6, 4), Lira stands next to that square on the ground, and the brute
/// throws from afar; a battle on the brute's turn.
fn brute_throws() -> crate::engine::Engine {
    let pos = "kael = [6, 4]\nlira = [5, 4]\nbrute-1 = [9, 0]\nbrute-2 = [0, 0]";
    let enc = open_field("fly = 4", "", "", pos, FAR_AREAS);
    let mut e = started(&enc, 5);
    run(&mut e, &aloft("kael", 4));
    run(&mut e, &end("kael"));
    until(&mut e, "brute-1");
    e
}

/// orcus-basic-rules.txt § Areas of effect (far burst, far blast), extended aloft
/// (interpretation, `aloft.rs`): `origin_height` lifts a far area's origin square; a burst n
/// spans that height ± n, so a burst 1 at 4 up (heights 3–5) takes Kael 4 up and misses Lira on
/// the ground, while the same burst on the ground (0–1), or at 1 up (0–2), takes Lira only; a
/// blast 2 whose origin is 3 up hangs from it (heights 2–3) and takes Kael, not Lira below.
#[test]
fn a_far_area_centred_aloft_spans_its_origin_height_areas_of_effect() {
    for (power, origin, up, want) in [
        ("hurl", (6, 4), Some(4), vec!["kael"]),
        ("hurl", (6, 4), None, vec!["lira"]),
        ("hurl", (6, 4), Some(0), vec!["lira"]),
        ("hurl", (6, 4), Some(1), vec!["lira"]),
        ("hurl", (6, 4), Some(3), vec!["kael"]),
        ("gout", (5, 4), Some(4), vec!["kael"]),
        ("gout", (5, 4), Some(3), vec![]),
        ("gout", (5, 4), None, vec!["lira"]),
    ] {
        let mut e = brute_throws();
        let ev = run(&mut e, &area_at("brute-1", power, origin, up));
        let want: Vec<String> = want.into_iter().map(String::from).collect();
        assert_eq!(attacked(&ev), want, "{power} at {up:?}");
    }
}

/// orcus-basic-rules.txt § Range and § Areas of effect (a far area's origin within its range),
/// extended aloft (interpretation, `aloft.rs`): the range to an origin aloft counts the height
/// as every distance does; 11 up is 11 squares from the brute (range 10), refused; heights
/// outside 0–20, and an `origin_height` on a near area, are refused as invalid. Each refusal
/// changes nothing and draws no dice.
#[test]
fn an_origin_aloft_beyond_range_or_height_is_refused_range() {
    let mut e = brute_throws();
    let r = refusal(&mut e, &area_at("brute-1", "hurl", (6, 4), Some(11)));
    assert_eq!(r.code, ErrorCode::OutOfRange, "{r}");
    assert!(r.message.contains("counting height"), "{r}");
    let r = refusal(&mut e, &area_at("brute-1", "gout", (5, 4), Some(11)));
    assert_eq!(r.code, ErrorCode::OutOfRange, "{r}");
    for h in [-1, 21] {
        let r = refusal(&mut e, &area_at("brute-1", "hurl", (6, 4), Some(h)));
        assert_eq!(r.code, ErrorCode::InvalidArgument, "{r}");
    }
    // 10 up is in range (and misses everyone: Kael's cube is 4 up).
    let ev = run(&mut e, &area_at("brute-1", "hurl", (6, 4), Some(10)));
    assert!(attacked(&ev).is_empty(), "{ev:?}");
    until(&mut e, "kael");
    let near = Command::AreaAttack {
        actor: cid("kael"),
        attack: "burst".into(),
        origin: None,
        targets: vec![],
        forced: Vec::new(),
        origin_height: Some(1),
    };
    let r = refusal(&mut e, &near);
    assert_eq!(r.code, ErrorCode::InvalidArgument, "{r}");
}
