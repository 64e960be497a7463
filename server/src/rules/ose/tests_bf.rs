//! Basic Fantasy retainers, experience, travel, encumbrance and timed effects through the real
//! engine, each test naming its section of `basic-fantasy-adventures.txt`.

use super::experience::{cap, monster_xp};
use super::tables::HitDice;
use super::travel::{day_miles, miles_per_day};
use crate::content::model::Encounter;
use crate::rules::common::testing::{cid, new_engine, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::bf::{ArmorType, Hiring, March, Terrain};
use fray_protocol::event::{DamageCause, GameEvent};
use fray_protocol::ftd::Departure;
use fray_protocol::ids::CombatantId;
use fray_protocol::ose::SecretCheck;
use fray_protocol::{BxCommand, BxEvent};
use fray_protocol::{Command, ErrorCode};

fn pc(id: &str, class: &str, level: i32, str_: i32, cha: i32, extra: &str) -> String {
    format!(
        r#"
[[character]]
id = "{id}"
name = "{id}"
class = "{class}"
level = {level}
abilities = {{ str = {str_}, dex = 10, con = 10, int = 10, wis = 13, cha = {cha} }}
thac0 = 19
ac = 9
hp = 20
saves = {{ death = 12, wands = 13, paralysis = 14, breath = 15, spells = 16 }}
{extra}
[[character.weapons]]
id = "sword"
name = "Sword"
damage = "1d8"
"#
    )
}

/// Ada (level 4, CHA 16: +2), Bram (level 1), Cole (level 2, a candidate), Eve (level 4, CHA
/// 3: −3, one retainer at most) served by Dora (`retainer_of`), Hob the halfling; a 2** goon.
fn party() -> Encounter {
    load_encounter("party.toml", &party_text()).unwrap()
}

/// The TOML text of [`party`].
fn party_text() -> String {
    let mut text = String::from(
        r#"
ruleset = "basic-fantasy"
characters = ["ada", "bram", "cole", "eve", "dora", "hob"]
[[monsters]]
template = "goon"
[[monster]]
template = "goon"
name = "Goon"
hd = "2**"
ac = 9
hp = 5
morale = 7
[[monster.attacks]]
id = "club"
name = "Club"
damage = "1d4"
"#,
    );
    text += &pc("ada", "fighter", 4, 16, 16, "");
    text += &pc(
        "bram",
        "thief",
        1,
        10,
        10,
        "xp = 1000\nxp_table = [1250, 2500, 5000]",
    );
    text += &pc("cole", "fighter", 2, 10, 10, "");
    text += &pc("eve", "cleric", 4, 10, 3, "");
    text += &pc("dora", "fighter", 1, 10, 10, "retainer_of = \"eve\"");
    text += &pc("hob", "fighter", 1, 10, 10, "race = \"halfling\"");
    text
}

fn hire(employer: &str, retainer: &str, adjustment: i32) -> Command {
    Command::Bx(BxCommand::HireRetainer {
        employer: cid(employer),
        retainer: cid(retainer),
        adjustment,
    })
}

fn loyalty(retainer: &str) -> Command {
    Command::Bx(BxCommand::LoyaltyCheck {
        retainer: cid(retainer),
        adjustment: 0,
    })
}

/// basic-fantasy-adventures.txt § Retainers: the hiring roll is 2d6 + the employer's CHA
/// bonus + the GM's adjustment read on the table (2−: refusal and −1 on further rolls; 3–5
/// refusal; 6–8 try again; 9–11 acceptance; 12+: acceptance, +1 loyalty); loyalty is 7 + the
/// CHA bonus; at most 4 ± CHA bonus retainers; retainers of at most half the employer's level.
#[test]
fn hiring_reaction_table_loyalty_and_limits_retainers() {
    let enc = party();
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..80 {
        let mut e = new_engine(&enc, seed);
        let adj = if seed % 2 == 0 { -3 } else { 3 };
        let ev = run(&mut e, &hire("ada", "cole", adj));
        let [
            GameEvent::Bx(BxEvent::RetainerHireRolled {
                roll,
                modifier,
                total,
                result,
                loyalty,
                ..
            }),
        ] = ev.as_slice()
        else {
            panic!("{ev:?}")
        };
        assert_eq!(*modifier, 2 + adj);
        assert_eq!(*total, roll.total + 2 + adj);
        assert_eq!(*result, super::retainers::hiring(*total));
        seen.insert(format!("{result:?}"));
        match result {
            Hiring::Acceptance => assert_eq!(*loyalty, Some(9)),
            Hiring::AcceptanceLoyal => assert_eq!(*loyalty, Some(10)),
            _ => assert_eq!(*loyalty, None),
        }
        let st = e.state().ose.unwrap().bf;
        if result.hired() {
            assert_eq!(st.retainer(&cid("cole")).unwrap().employer, cid("ada"));
            // Cole serves: he is not hired twice.
            assert_eq!(
                refuse(&mut e, &hire("ada", "cole", 0)),
                ErrorCode::InvalidTarget
            );
        }
        if *result == Hiring::RefusalWithPenalty {
            // −1 on further rolls in the region.
            let ev = run(&mut e, &hire("ada", "cole", 0));
            assert!(matches!(
                ev.as_slice(),
                [GameEvent::Bx(BxEvent::RetainerHireRolled {
                    modifier: 1,
                    ..
                })]
            ));
        }
    }
    assert_eq!(seen.len(), 5, "{seen:?}");
    let mut e = new_engine(&enc, 1);
    // A first-level character cannot hire retainers; Eve (CHA 3) has her one already (Dora).
    assert_eq!(
        refuse(&mut e, &hire("bram", "hob", 0)),
        ErrorCode::RetainerLimit
    );
    assert_eq!(
        refuse(&mut e, &hire("eve", "hob", 0)),
        ErrorCode::RetainerLimit
    );
    assert_eq!(
        refuse(&mut e, &hire("ada", "cole", 4)),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        refuse(&mut e, &hire("dora", "hob", 0)),
        ErrorCode::InvalidTarget
    );
    assert_eq!(
        refuse(&mut e, &hire("ada", "goon", 0)),
        ErrorCode::InvalidTarget
    );
}

/// basic-fantasy-adventures.txt § Retainers, Loyalty: checked like morale (2d6 at or under
/// loyalty holds); "If a Loyalty check roll made in combat is a natural 2, the Loyalty of the
/// retainer increases by +1"; after an adventure a failed check means the retainer leaves.
#[test]
fn loyalty_checks_and_the_natural_two_retainers() {
    let enc = party();
    let (mut raised, mut fled, mut left, mut stayed) = (false, false, false, false);
    for seed in 0..120 {
        // Out of combat: Dora's loyalty is 7 − 3 = 4.
        let mut e = new_engine(&enc, seed);
        let ev = run(&mut e, &loyalty("dora"));
        let GameEvent::Bx(BxEvent::LoyaltyChecked {
            roll,
            loyalty: l,
            holds,
            loyalty_after,
            leaves,
            ..
        }) = &ev[0]
        else {
            panic!("{ev:?}")
        };
        assert_eq!(*l, 4);
        assert_eq!(*holds, roll.total <= 4);
        assert_eq!(*loyalty_after, 4, "no rise out of combat");
        assert_eq!(*leaves, !holds);
        if *leaves {
            left = true;
            assert_eq!(refuse(&mut e, &loyalty("dora")), ErrorCode::NotARetainer);
        } else {
            stayed = true;
        }
        // In combat.
        let mut e = new_engine(&enc, seed);
        run(&mut e, &Command::StartBattle);
        let ev = run(&mut e, &loyalty("dora"));
        let GameEvent::Bx(BxEvent::LoyaltyChecked {
            roll,
            holds,
            loyalty_after,
            leaves,
            ..
        }) = &ev[0]
        else {
            panic!("{ev:?}")
        };
        assert!(!leaves);
        if roll.total == 2 {
            raised = true;
            assert_eq!(*loyalty_after, 5);
            assert_eq!(
                e.state()
                    .ose
                    .unwrap()
                    .bf
                    .retainer(&cid("dora"))
                    .unwrap()
                    .loyalty,
                5
            );
        } else {
            assert_eq!(*loyalty_after, 4);
        }
        if !holds {
            fled = true;
            assert!(matches!(
                ev.get(1),
                Some(GameEvent::LeftBattle {
                    how: Departure::Fled,
                    ..
                })
            ));
        }
    }
    assert!(raised && fled && left && stayed);
    let mut e = new_engine(&enc, 1);
    assert_eq!(refuse(&mut e, &loyalty("ada")), ErrorCode::NotARetainer);
}

/// basic-fantasy-adventures.txt § Character Advancement: the XP table by hit dice, each
/// asterisk adding the special-ability bonus ("a creature with a hit dice figure of 2** is
/// worth 125 XP"), beyond 25 HD +750 and +25 per die.
#[test]
fn monster_xp_by_hit_dice_and_asterisks_character_advancement() {
    let hd = |s: &str| HitDice::parse(s).unwrap();
    assert_eq!(monster_xp(hd("2"), 2), 125);
    assert_eq!(monster_xp(hd("1/2"), 0), 10);
    assert_eq!(monster_xp(hd("1-1"), 1), 13);
    assert_eq!(monster_xp(hd("1"), 0), 25);
    assert_eq!(monster_xp(hd("3+1"), 1), 175);
    assert_eq!(monster_xp(hd("12"), 0), 1_875);
    assert_eq!(monster_xp(hd("25"), 1), 9_325);
    assert_eq!(monster_xp(hd("27"), 1), 10_500 + 375);
    // The goon of the content is `hd = "2**"`.
    let enc = party();
    let goon = enc
        .combatants
        .iter()
        .find(|c| c.id.as_str() == "goon")
        .unwrap();
    let kit = goon.ose.as_ref().unwrap();
    assert_eq!((kit.hd.as_deref(), kit.bf.stars), (Some("2"), 2));
}

/// basic-fantasy-adventures.txt § Character Advancement: XP divided by the adventurers, a
/// retainer counting as half ("four player characters and a retainer … 2,000 XP … one share
/// is 444 XP, and the retainer receives 222 XP"); no more than one level from one adventure
/// (Barthal: 1,000 XP + 2,000 stops at 2,499); a monster counts once and only once defeated.
#[test]
fn xp_division_half_shares_and_one_level_per_adventure_character_advancement() {
    let enc = party();
    let mut e = new_engine(&enc, 3);
    let award = |monsters: &[&str], bonus: u32, party: &[&str]| {
        Command::Bx(BxCommand::AwardXp {
            monsters: monsters.iter().map(|m| cid(m)).collect(),
            bonus,
            party: party.iter().map(|m| cid(m)).collect(),
        })
    };
    let ev = run(
        &mut e,
        &award(&[], 2000, &["ada", "cole", "eve", "hob", "dora"]),
    );
    let [GameEvent::Bx(BxEvent::XpAwarded { share, shares, .. })] = ev.as_slice() else {
        panic!("{ev:?}")
    };
    assert_eq!(*share, 444);
    let of = |id: &str| shares.iter().find(|(c, _, _)| c.as_str() == id).unwrap().1;
    assert_eq!((of("ada"), of("dora")), (444, 222));
    let ev = run(&mut e, &award(&[], 2000, &["bram"]));
    let [
        GameEvent::Bx(BxEvent::XpAwarded { shares, .. }),
        GameEvent::Bx(BxEvent::LevelRaised { .. }),
    ] = ev.as_slice()
    else {
        panic!("{ev:?}")
    };
    assert_eq!(shares[0], (cid("bram"), 1499, 2499));
    // Further XP this adventure is capped too.
    let ev = run(&mut e, &award(&[], 100, &["bram"]));
    assert!(
        matches!(ev.as_slice(), [GameEvent::Bx(BxEvent::XpAwarded { shares, .. })] if shares[0].1 == 0)
    );
    assert_eq!(cap(1000, &[1250, 2500, 5000]), 2499);
    assert_eq!(cap(0, &[]), u32::MAX);
    // The goon is not defeated; the party is never empty nor repeats itself.
    assert_eq!(
        refuse(&mut e, &award(&["goon"], 0, &["ada"])),
        ErrorCode::InvalidTarget
    );
    assert_eq!(
        refuse(&mut e, &award(&[], 5, &[])),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        refuse(&mut e, &award(&[], 5, &["ada", "ada"])),
        ErrorCode::InvalidTarget
    );
    assert_eq!(
        refuse(&mut e, &award(&[], 5, &["goon"])),
        ErrorCode::InvalidTarget
    );
}

/// basic-fantasy-adventures.txt § Character Advancement (Barthal: 1,000 XP at 1st level earns
/// 2,000, "advances to 2,499 XP … and starts his next adventure at 2nd level"): reaching the
/// next level of the content's `xp_table` raises the level once per adventure, and the raised
/// level is the one Fray's rules use (§ Level of Retainers: half the employer's level).
#[test]
fn reaching_a_level_raises_it_once_per_adventure_character_advancement() {
    use super::experience::level_for;
    let table = [1250, 2500, 5000];
    assert_eq!(
        [0, 1249, 1250, 2499, 2500, 5000, 99_999].map(|xp| level_for(xp, &table)),
        [1, 1, 2, 2, 3, 4, 4]
    );
    assert_eq!(level_for(10_000, &[]), 0);
    let enc = party();
    let mut e = new_engine(&enc, 3);
    let award = |bonus: u32, party: &[&str]| {
        Command::Bx(BxCommand::AwardXp {
            monsters: Vec::new(),
            bonus,
            party: party.iter().map(|m| cid(m)).collect(),
        })
    };
    let level = |e: &crate::engine::Engine, id: &str| {
        e.state()
            .combatants
            .iter()
            .find(|c| c.id == cid(id))
            .map(|c| c.level)
    };
    // A 1st-level employer hires no one (half of 1 is 0).
    assert_eq!(
        refuse(&mut e, &hire("bram", "hob", 0)),
        ErrorCode::RetainerLimit
    );
    // 249 XP more: 1,249, still 1st level.
    let ev = run(&mut e, &award(249, &["bram"]));
    assert!(
        matches!(ev.as_slice(), [GameEvent::Bx(BxEvent::XpAwarded { .. })]),
        "{ev:?}"
    );
    assert_eq!(level(&e, "bram"), Some(1));
    // One more: 1,250, 2nd level.
    let ev = run(&mut e, &award(1, &["bram"]));
    assert_eq!(
        ev[1..],
        [GameEvent::Bx(BxEvent::LevelRaised {
            combatant: cid("bram"),
            level: 2,
            xp: 1250
        })]
    );
    assert_eq!(level(&e, "bram"), Some(2));
    assert_eq!(e.state().ose.unwrap().bf.levels_raised, vec![cid("bram")]);
    // No second level this adventure: the XP stops one short and no level follows.
    let ev = run(&mut e, &award(5000, &["bram"]));
    assert!(
        matches!(ev.as_slice(), [GameEvent::Bx(BxEvent::XpAwarded { shares, .. })] if shares[0].2 == 2499),
        "{ev:?}"
    );
    assert_eq!(level(&e, "bram"), Some(2));
    // The 2nd-level Bram may now hire a 1st-level retainer.
    assert!(matches!(
        run(&mut e, &hire("bram", "hob", 0)).as_slice(),
        [GameEvent::Bx(BxEvent::RetainerHireRolled { .. })]
    ));
    // Without an `xp_table` no level is raised.
    let ev = run(&mut e, &award(100_000, &["ada"]));
    assert_eq!(ev.len(), 1, "{ev:?}");
}

fn encumber(who: &str, armor: ArmorType, load: u32) -> Command {
    Command::Bx(BxCommand::SetEncumbrance {
        combatant: cid(who),
        armor,
        load,
        treasure: false,
    })
}

/// basic-fantasy-adventures.txt § Movement and Encumbrance (40′/30′, 30′/20′, 20′/10′ by
/// armor and load) and § Carrying Capacity (STR 16: 70/180 lb; halflings 50/100 at STR 10).
#[test]
fn movement_by_armor_and_load_movement_and_encumbrance() {
    let enc = party();
    let mut e = new_engine(&enc, 1);
    for (who, armor, load, heavy, movement) in [
        ("ada", ArmorType::None, 70, false, 40),
        ("ada", ArmorType::None, 71, true, 30),
        ("ada", ArmorType::Leather, 10, false, 30),
        ("ada", ArmorType::Leather, 180, true, 20),
        ("ada", ArmorType::Metal, 60, false, 20),
        ("ada", ArmorType::Metal, 100, true, 10),
        ("hob", ArmorType::None, 50, false, 40),
        ("hob", ArmorType::None, 51, true, 30),
    ] {
        let ev = run(&mut e, &encumber(who, armor, load));
        assert_eq!(
            ev,
            vec![GameEvent::Bx(BxEvent::EncumbranceSet {
                combatant: cid(who),
                armor,
                load,
                heavy,
                movement,
                treasure: false,
            })]
        );
    }
    assert_eq!(
        refuse(&mut e, &encumber("ada", ArmorType::None, 181)),
        ErrorCode::Overloaded
    );
    assert_eq!(
        refuse(&mut e, &encumber("hob", ArmorType::None, 101)),
        ErrorCode::Overloaded
    );
    assert_eq!(
        refuse(&mut e, &encumber("goon", ArmorType::None, 1)),
        ErrorCode::InvalidTarget
    );
}

fn day(march: March, terrain: Terrain) -> Command {
    Command::Bx(BxCommand::PassDay {
        march,
        terrain,
        unfed: Vec::new(),
        no_water: Vec::new(),
        leader: None,
        water: None,
    })
}

fn passed(ev: &[GameEvent]) -> (u32, i32, u32) {
    ev.iter()
        .find_map(|x| match x {
            GameEvent::Bx(BxEvent::DayPassed {
                day, rate, miles, ..
            }) => Some((*day, *rate, *miles)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{ev:?}"))
}

/// basic-fantasy-adventures.txt § Wilderness Movement Rates (10′ → 6 miles … 120′ → 72, the
/// slowest member's rate), § Overland Travel (the terrain table; forced march +50%),
/// § Traveling by Air (doubled, terrain ignored).
#[test]
fn miles_by_rate_terrain_and_march_wilderness_movement_rates() {
    for (i, rate) in (10..=120).step_by(10).enumerate() {
        assert_eq!(miles_per_day(rate), 6 * (i as u32 + 1));
    }
    assert_eq!(day_miles(30, March::Normal, Terrain::Jungle), 6);
    assert_eq!(day_miles(30, March::Normal, Terrain::Forest), 12);
    assert_eq!(day_miles(30, March::Normal, Terrain::Road), 24);
    assert_eq!(day_miles(30, March::Forced, Terrain::Clear), 27);
    assert_eq!(day_miles(30, March::Air, Terrain::Jungle), 36);
    assert_eq!(day_miles(30, March::Rest, Terrain::Clear), 0);
    let enc = party();
    let mut e = new_engine(&enc, 1);
    assert_eq!(
        passed(&run(&mut e, &day(March::Normal, Terrain::Clear))),
        (1, 40, 24)
    );
    run(&mut e, &encumber("ada", ArmorType::Metal, 100));
    assert_eq!(
        passed(&run(&mut e, &day(March::Normal, Terrain::Forest))),
        (2, 10, 4)
    );
}

/// basic-fantasy-adventures.txt § Overland Travel: "Each day of forced march performed after
/// the first inflicts 1d6 damage … A save vs. Death Ray with Constitution bonus applied is
/// allowed … after this save is failed once, it is not rolled again … A day spent resting
/// 'restarts' the progression."
#[test]
fn forced_march_damage_after_the_first_day_overland_travel() {
    let enc = party();
    let (mut saw_fail, mut saw_save) = (false, false);
    for seed in 0..20 {
        let mut e = new_engine(&enc, seed);
        let ev = run(&mut e, &day(March::Forced, Terrain::Clear));
        assert!(
            !ev.iter()
                .any(|x| matches!(x, GameEvent::CheckRolled { .. } | GameEvent::Damaged { .. }))
        );
        let ev = run(&mut e, &day(March::Forced, Terrain::Clear));
        let saves: Vec<(CombatantId, bool)> = ev
            .iter()
            .filter_map(|x| match x {
                GameEvent::CheckRolled {
                    combatant,
                    success,
                    dc,
                    ..
                } => {
                    assert_eq!(*dc, 12);
                    Some((combatant.clone(), *success))
                }
                _ => None,
            })
            .collect();
        assert_eq!(saves.len(), 6);
        let hurt: Vec<CombatantId> = ev
            .iter()
            .filter_map(|x| match x {
                GameEvent::Damaged {
                    target,
                    cause: DamageCause::Hazard { purpose, .. },
                    amount,
                    ..
                } if purpose == "forced march" => {
                    assert!((1..=6).contains(amount));
                    Some(target.clone())
                }
                _ => None,
            })
            .collect();
        let failed: Vec<CombatantId> = saves.iter().filter(|s| !s.1).map(|s| s.0.clone()).collect();
        assert_eq!(hurt, failed);
        saw_fail |= !failed.is_empty();
        saw_save |= failed.len() < 6;
        // Day three: those who failed take the damage without a save.
        let ev = run(&mut e, &day(March::Forced, Terrain::Clear));
        let rolled = ev
            .iter()
            .filter(|x| matches!(x, GameEvent::CheckRolled { .. }))
            .count();
        assert_eq!(rolled, 6 - failed.len());
        // A day of rest restarts it: the next forced march is a "first" day again.
        run(&mut e, &day(March::Rest, Terrain::Clear));
        let ev = run(&mut e, &day(March::Forced, Terrain::Clear));
        assert!(
            !ev.iter()
                .any(|x| matches!(x, GameEvent::CheckRolled { .. }))
        );
    }
    assert!(saw_fail && saw_save);
}

/// basic-fantasy-adventures.txt § Overland Travel: "Each day of forced march performed after
/// the first inflicts 1d6 damage on the characters (and their animals, if any)", the save "for
/// that character or creature": the party's `[[animals]]` (on the heroes' side) save vs. Death
/// Ray by their hit dice (no CON bonus) and take the 1d6 on a failure; their movement counts for
/// the slowest member (§ Wilderness Movement Rates).
#[test]
fn the_partys_animals_suffer_the_forced_march_overland_travel() {
    let text = party_text()
        + r#"
[[animals]]
template = "mule"
[[monster]]
template = "mule"
name = "Mule"
hd = "2"
ac = 7
hp = 9
morale = 8
movement = 90
[[monster.attacks]]
id = "kick"
name = "Kick"
damage = "1d4"
"#;
    let enc = load_encounter("party.toml", &text).unwrap();
    assert!(
        enc.combatants
            .iter()
            .any(|c| c.id == cid("mule") && c.side == fray_protocol::ids::Side::Heroes)
    );
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..30 {
        let mut e = new_engine(&enc, seed);
        let ev = run(&mut e, &day(March::Forced, Terrain::Clear));
        // The mule's 90′ a turn is 30′ a round: the slowest.
        assert_eq!(passed(&ev).1, 30);
        let ev = run(&mut e, &day(March::Forced, Terrain::Clear));
        let save = ev.iter().find_map(|x| match x {
            GameEvent::CheckRolled {
                combatant,
                success,
                dc,
                bonus,
                ..
            } if combatant == &cid("mule") => Some((*success, *dc, *bonus)),
            _ => None,
        });
        let Some((success, dc, bonus)) = save else {
            panic!("{ev:?}")
        };
        // § Monster Saving Throws, 1–3 HD: Death 12; an animal has no CON bonus.
        assert_eq!((dc, bonus), (12, 0));
        let hurt = ev.iter().any(|x| {
            matches!(x, GameEvent::Damaged { target, cause: DamageCause::Hazard { purpose, .. }, .. }
                if target == &cid("mule") && purpose == "forced march")
        });
        assert_eq!(hurt, !success);
        seen.insert(success);
    }
    assert_eq!(seen.len(), 2);
}

/// basic-fantasy-adventures.txt § Darkvision ("The range of Darkvision is typically either 30′
/// or 60′; if not given for a particular creature, assume the 60′ range"; "totally ineffective in
/// any light greater than moonlight") and § Light (a torch or lantern: 30′, dim light 20′
/// further): content `darkvision` in the state, monsters 60′ unless told, characters none unless
/// told; no one sees by darkvision while a light burns.
#[test]
fn darkvision_ranges_and_light_radii_light_and_darkvision() {
    use fray_protocol::ose::LightSource;
    assert_eq!(LightSource::Torch.radius(), (30, 20));
    assert_eq!(LightSource::Lantern.radius(), (30, 20));
    let text = party_text().replace(
        "race = \"halfling\"",
        "race = \"halfling\"\ndarkvision = 30",
    );
    let enc = load_encounter("party.toml", &text).unwrap();
    let mut e = new_engine(&enc, 1);
    let vision = |e: &crate::engine::Engine, id: &str| {
        let st = e.state();
        let b = st.ose.clone().unwrap();
        let o = st
            .combatants
            .iter()
            .find(|c| c.id == cid(id))
            .and_then(|c| c.ose.clone())
            .unwrap();
        (o.darkvision, o.sees_in_the_dark(&b))
    };
    assert_eq!(vision(&e, "hob"), (30, true));
    assert_eq!(vision(&e, "ada"), (0, false));
    assert_eq!(vision(&e, "goon"), (60, true));
    run(
        &mut e,
        &Command::Bx(BxCommand::LightSource {
            carrier: cid("ada"),
            source: LightSource::Torch,
        }),
    );
    assert_eq!(vision(&e, "hob"), (30, false));
    assert_eq!(vision(&e, "goon"), (60, false));
    // A monster may be written without darkvision; ranges are 0..=240.
    let blind = text.replace("hd = \"2**\"", "hd = \"2**\"\ndarkvision = 0");
    let enc = load_encounter("party.toml", &blind).unwrap();
    assert_eq!(vision(&new_engine(&enc, 1), "goon"), (0, false));
    let far = text.replace("darkvision = 30", "darkvision = 300");
    assert!(load_encounter("party.toml", &far).is_err());
}

/// basic-fantasy-adventures.txt § Waterborne Travel, Gale ("apply 2d8 points of damage to any
/// such ship, per hour sailed"): one 2d8 per hour, summed; 0 or more than 24 hours refused.
#[test]
fn a_gale_deals_2d8_per_hour_sailed_waterborne_travel() {
    let enc = party();
    let mut e = new_engine(&enc, 9);
    let ev = run(&mut e, &Command::Bx(BxCommand::GaleDamage { hours: 3 }));
    let [
        GameEvent::Bx(BxEvent::GaleDamageRolled {
            hours: 3,
            rolls,
            total,
        }),
    ] = ev.as_slice()
    else {
        panic!("{ev:?}")
    };
    assert_eq!(rolls.len(), 3);
    for r in rolls {
        assert_eq!(r.dice.len(), 2);
        assert!(r.dice.iter().all(|d| d.sides == 8));
        assert!((2..=16).contains(&r.total));
    }
    assert_eq!(*total, rolls.iter().map(|r| r.total).sum::<i32>());
    for hours in [0, 25] {
        assert_eq!(
            refuse(&mut e, &Command::Bx(BxCommand::GaleDamage { hours })),
            ErrorCode::InvalidArgument
        );
    }
}

/// basic-fantasy-adventures.txt § Dungeon Survival: without food no effect for two days, then
/// 1 hit point a day and no natural healing; without water 1d4 a day from the first, healing
/// lost at once; a day's food restores healing.
#[test]
fn hunger_and_thirst_dungeon_survival() {
    let enc = party();
    let mut e = new_engine(&enc, 5);
    let starve = Command::Bx(BxCommand::PassDay {
        march: March::Rest,
        terrain: Terrain::Clear,
        unfed: vec![cid("ada")],
        no_water: vec![cid("bram")],
        leader: None,
        water: None,
    });
    let hunger = |ev: &[GameEvent], who: &str, what: &str| -> Option<i32> {
        ev.iter().find_map(|x| match x {
            GameEvent::Damaged {
                target,
                cause: DamageCause::Hazard { purpose, .. },
                amount,
                ..
            } if target.as_str() == who && purpose == what => Some(*amount),
            _ => None,
        })
    };
    for n in 1..=3 {
        let ev = run(&mut e, &starve);
        assert_eq!(hunger(&ev, "ada", "hunger"), (n == 3).then_some(1));
        let t = hunger(&ev, "bram", "thirst").unwrap();
        assert!((1..=4).contains(&t));
        let st = e.state().ose.unwrap().bf;
        assert_eq!(st.heals_naturally(&cid("ada")), n < 3);
        assert!(!st.heals_naturally(&cid("bram")));
    }
    // The rule reaches natural healing (ose-adventuring.txt § Healing): refused while parched.
    let rest = |who: &str| {
        Command::Bx(BxCommand::NaturalHealing {
            combatant: cid(who),
            days: 1,
        })
    };
    assert_eq!(refuse(&mut e, &rest("bram")), ErrorCode::InvalidTarget);
    assert_eq!(refuse(&mut e, &rest("ada")), ErrorCode::InvalidTarget);
    run(&mut e, &day(March::Rest, Terrain::Clear));
    let st = e.state().ose.unwrap().bf;
    assert!(st.heals_naturally(&cid("ada")) && st.heals_naturally(&cid("bram")));
    let healed = run(&mut e, &rest("bram"));
    assert!(
        healed
            .iter()
            .any(|x| matches!(x, GameEvent::Healed { target, .. } if target.as_str() == "bram"))
    );
}

/// basic-fantasy-adventures.txt § Becoming Lost: "Secretly roll a save vs. Death Ray, adjusted
/// by the Wisdom of the party leader" — a GM-only secret roll (players see that it was made).
#[test]
fn the_lost_check_is_a_secret_save_becoming_lost() {
    let enc = party();
    let mut outcomes = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let mut e = new_engine(&enc, seed);
        let mut cmd = day(March::Normal, Terrain::Forest);
        if let Command::Bx(BxCommand::PassDay { leader, .. }) = &mut cmd {
            *leader = Some(cid("ada"));
        }
        let ev = run(&mut e, &cmd);
        let lost = ev.last().unwrap();
        let GameEvent::SecretRolled {
            check: SecretCheck::LostDirection,
            roll: Some(roll),
            success: Some(success),
            chance,
            ..
        } = lost
        else {
            panic!("{ev:?}")
        };
        // Death 12, WIS 13: +1 — 11 or more on the d20 stays on course (10 faces).
        assert_eq!(*chance, 10);
        assert_eq!(*success, roll.natural().unwrap() >= 11);
        outcomes.insert(*success);
        let public = lost.redacted(|_| false);
        assert!(matches!(
            public,
            GameEvent::SecretRolled {
                roll: None,
                success: None,
                ..
            }
        ));
    }
    assert_eq!(outcomes.len(), 2);
}

/// basic-fantasy-adventures.txt § Becoming Lost ("Alternately, an Ability Roll against Wisdom
/// may be rolled, if that optional rule is in use"): under the option `lost_roll = "ability"` the
/// leader's secret d20 is rolled under its WIS score (ose-adventuring.txt § Ability Checks: 1
/// succeeds, 20 fails).
#[test]
fn the_optional_wis_ability_roll_becoming_lost() {
    let text = party_text() + "\n[options]\nlost_roll = \"ability\"\n";
    let enc = load_encounter("party.toml", &text).unwrap();
    let mut outcomes = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let mut e = new_engine(&enc, seed);
        let mut cmd = day(March::Normal, Terrain::Forest);
        if let Command::Bx(BxCommand::PassDay { leader, .. }) = &mut cmd {
            *leader = Some(cid("ada"));
        }
        let ev = run(&mut e, &cmd);
        let Some(GameEvent::SecretRolled {
            check: SecretCheck::LostDirection,
            roll: Some(roll),
            success: Some(success),
            chance,
            ..
        }) = ev.last()
        else {
            panic!("{ev:?}")
        };
        // WIS 13: 13 or less on the d20 (13 faces).
        assert_eq!(*chance, 13);
        assert_eq!(*success, roll.natural().unwrap() <= 13);
        outcomes.insert(*success);
    }
    assert_eq!(outcomes.len(), 2);
}

/// basic-fantasy-adventures.txt § Time and Scale (game turns of 10 minutes); ose-adventuring.txt
/// § Sequence of Play Per Turn, 4. End of turn (durations): a timed effect ends at the end of
/// its last exploration turn.
#[test]
fn timed_effects_end_with_their_last_turn_time_and_scale() {
    let enc = party();
    let mut e = new_engine(&enc, 1);
    let ev = run(
        &mut e,
        &Command::Bx(BxCommand::TimeEffect {
            name: "light spell".into(),
            combatant: Some(cid("eve")),
            turns: 3,
        }),
    );
    assert!(matches!(
        ev.as_slice(),
        [GameEvent::Bx(BxEvent::EffectTimed {
            id: 1,
            turns: 3,
            ..
        })]
    ));
    for turn in 1..=3 {
        let ev = run(
            &mut e,
            &Command::Bx(BxCommand::ExplorationTurn {
                wandering: None,
                rest: false,
            }),
        );
        let ended = ev
            .iter()
            .any(|x| matches!(x, GameEvent::Bx(BxEvent::TimedEffectEnded { id: 1, .. })));
        assert_eq!(ended, turn == 3);
    }
    assert!(e.state().ose.unwrap().bf.effects.is_empty());
    for bad in [0, 1001] {
        assert_eq!(
            refuse(
                &mut e,
                &Command::Bx(BxCommand::TimeEffect {
                    name: "x".into(),
                    combatant: None,
                    turns: bad
                })
            ),
            ErrorCode::InvalidArgument
        );
    }
}

/// basic-fantasy-adventures.txt § Waterborne Travel: the d12 wind direction (9–12 prevailing)
/// and the d% conditions with their sailing and tacking multipliers (Becalmed ×0/×0 … Gale
/// ×2/×0), every row of both tables.
#[test]
fn wind_direction_and_conditions_waterborne_travel() {
    use fray_protocol::bf::{WindConditions as W, WindDirection as D};
    assert_eq!(D::from_d12(1), D::Northerly);
    assert_eq!(D::from_d12(8), D::Northwesterly);
    assert!((9..=12).all(|n| D::from_d12(n) == D::Prevailing));
    for (lo, hi, w, sail, tack) in [
        (1, 5, W::Becalmed, (0, 1), (0, 1)),
        (6, 13, W::VeryLightBreeze, (1, 3), (0, 1)),
        (14, 25, W::LightBreeze, (1, 2), (1, 3)),
        (26, 40, W::ModerateBreeze, (2, 3), (1, 3)),
        (41, 70, W::AverageWinds, (1, 1), (1, 2)),
        (71, 85, W::StrongWinds, (4, 3), (2, 3)),
        (86, 96, W::VeryStrongWinds, (3, 2), (0, 1)),
        (97, 100, W::Gale, (2, 1), (0, 1)),
    ] {
        for n in lo..=hi {
            assert_eq!(W::from_d100(n), w, "{n}");
        }
        assert_eq!(w.multipliers(), (sail, tack));
    }
    let enc = party();
    let mut e = new_engine(&enc, 9);
    let ev = run(&mut e, &Command::Bx(BxCommand::RollWind {}));
    let [
        GameEvent::Bx(BxEvent::WindRolled {
            direction_roll,
            direction,
            conditions_roll,
            conditions,
            sailing,
            ..
        }),
    ] = ev.as_slice()
    else {
        panic!("{ev:?}")
    };
    assert_eq!(*direction, D::from_d12(direction_roll.natural().unwrap()));
    assert_eq!(
        *conditions,
        W::from_d100(conditions_roll.natural().unwrap())
    );
    assert_eq!(*sailing, conditions.multipliers().0);
}

/// basic-fantasy-adventures.txt § Retainers (content `retainer_of`): a retainer serves a
/// character of the encounter; anything else is a content error naming the field.
#[test]
fn retainer_of_names_a_character_of_the_encounter_retainers() {
    let text = format!(
        "ruleset = \"basic-fantasy\"\ncharacters = [\"dora\"]\n[[monsters]]\ntemplate = \"grave-rat\"\n{}",
        pc("dora", "fighter", 1, 10, 10, "retainer_of = \"nobody\"")
    );
    let err = load_encounter("r.toml", &text).unwrap_err().to_string();
    assert!(err.contains("retainer_of"), "{err}");
}

fn sail(sailing_miles: u32, rowing_miles: u32, navigator: bool, coastal: bool) -> Command {
    Command::Bx(BxCommand::Sail {
        sailing_miles,
        rowing_miles,
        navigator,
        stops_at_night: coastal,
        against_wind: false,
        unfed: Vec::new(),
        no_water: vec![cid("bram")],
    })
}

/// basic-fantasy-adventures.txt § Waterborne Travel: "based on a 12 hour day of travel";
/// "sailed ships may travel 24 hours per day (if a qualified navigator is aboard) … twice the
/// normal distance … in addition to the multiplier"; not a ship that "stops each night";
/// tacking uses the table's second column; "Becalmed: … Oared ships may move at the given
/// rowing movement rate".
#[test]
fn a_day_under_sail_is_the_wind_times_twelve_or_twenty_four_hours_waterborne_travel() {
    use super::travel::{Voyage, voyage_day};
    use fray_protocol::bf::{Propulsion as P, WindConditions as W};
    let ship = |navigator, stops_at_night, against_wind| Voyage {
        sailing_miles: 72,
        rowing_miles: 0,
        navigator,
        stops_at_night,
        against_wind,
    };
    assert_eq!(
        voyage_day(&ship(false, false, false), W::AverageWinds),
        (P::Sail, (1, 1), 12, 72)
    );
    assert_eq!(
        voyage_day(&ship(true, false, false), W::AverageWinds),
        (P::Sail, (1, 1), 24, 144)
    );
    assert_eq!(
        voyage_day(&ship(true, true, false), W::AverageWinds),
        (P::Sail, (1, 1), 12, 72)
    );
    assert_eq!(
        voyage_day(&ship(true, false, false), W::StrongWinds),
        (P::Sail, (4, 3), 24, 192)
    );
    assert_eq!(
        voyage_day(&ship(false, false, true), W::StrongWinds),
        (P::Sail, (2, 3), 12, 48)
    );
    assert_eq!(
        voyage_day(&ship(false, false, false), W::LightBreeze),
        (P::Sail, (1, 2), 12, 36)
    );
    // Very strong winds and gales: no tacking.
    assert_eq!(
        voyage_day(&ship(false, false, true), W::Gale),
        (P::Adrift, (0, 1), 0, 0)
    );
    assert_eq!(
        voyage_day(&ship(false, false, false), W::Becalmed),
        (P::Adrift, (0, 1), 0, 0)
    );
    // A galley rows when the sail would go less far.
    let galley = Voyage {
        sailing_miles: 72,
        rowing_miles: 18,
        ..ship(false, false, false)
    };
    assert_eq!(voyage_day(&galley, W::Becalmed), (P::Oars, (1, 1), 12, 18));
    assert_eq!(
        voyage_day(&galley, W::VeryLightBreeze),
        (P::Sail, (1, 3), 12, 24)
    );
}

/// basic-fantasy-adventures.txt § Waterborne Travel through the engine: `sail` rolls the day's
/// wind, sails (`sailed`, its miles from the rolled conditions), rolls a gale's 2d8 per hour
/// under sail, and the day passes on the water (`day_passed` `march` `water`, thirst as on
/// land); refused in an encounter, with no miles, or above 1000.
#[test]
fn sail_rolls_the_wind_and_passes_a_day_on_the_water_waterborne_travel() {
    use super::travel::{Voyage, voyage_day};
    let enc = party();
    let mut seen_gale = false;
    for seed in 0..200 {
        let mut e = new_engine(&enc, seed);
        let ev = run(&mut e, &sail(40, 0, true, false));
        let conditions = ev
            .iter()
            .find_map(|x| match x {
                GameEvent::Bx(BxEvent::WindRolled { conditions, .. }) => Some(*conditions),
                _ => None,
            })
            .expect("the wind");
        let want = voyage_day(
            &Voyage {
                sailing_miles: 40,
                rowing_miles: 0,
                navigator: true,
                stops_at_night: false,
                against_wind: false,
            },
            conditions,
        );
        let sailed = ev
            .iter()
            .find_map(|x| match x {
                GameEvent::Bx(BxEvent::Sailed {
                    under,
                    multiplier,
                    hours,
                    miles,
                    ..
                }) => Some((*under, *multiplier, *hours, *miles)),
                _ => None,
            })
            .expect("sailed");
        assert_eq!(sailed, want);
        let gale = ev.iter().find_map(|x| match x {
            GameEvent::Bx(BxEvent::GaleDamageRolled { hours, rolls, .. }) => {
                Some((*hours, rolls.len()))
            }
            _ => None,
        });
        if conditions == fray_protocol::bf::WindConditions::Gale {
            seen_gale = true;
            assert_eq!(gale, Some((24, 24)), "2d8 per hour sailed");
        } else {
            assert_eq!(gale, None);
        }
        assert!(ev.iter().any(|x| matches!(
            x,
            GameEvent::Bx(BxEvent::DayPassed { day: 1, march: March::Water, miles, .. })
                if *miles == want.3
        )));
        assert!(
            ev.iter().any(|x| matches!(
                x,
                GameEvent::Damaged { target, cause: DamageCause::Hazard { purpose, .. }, .. }
                    if target == &cid("bram") && purpose == "thirst"
            )),
            "no water aboard: 1d4"
        );
        assert!(
            !ev.iter()
                .any(|x| matches!(x, GameEvent::SecretRolled { .. })),
            "no check for becoming lost at sea"
        );
    }
    assert!(seen_gale, "a gale (97–00) among 200 seeds");
    let mut e = new_engine(&enc, 1);
    assert_eq!(
        refuse(&mut e, &sail(0, 0, false, false)),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        refuse(&mut e, &sail(1001, 0, false, false)),
        ErrorCode::InvalidArgument
    );
    run(&mut e, &Command::StartBattle);
    assert_eq!(
        refuse(&mut e, &sail(40, 0, false, false)),
        ErrorCode::BattleAlreadyStarted
    );
}

/// A Basic Fantasy encounter of one character, Gus (STR 10: light to 60 lb, heavy to 150),
/// in `armor` with `gear`.
fn gus(armor: &str, gear: &str) -> Result<Encounter, String> {
    let text = format!(
        "ruleset = \"basic-fantasy\"\ncharacters = [\"gus\"]\n[[monsters]]\ntemplate = \"goon\"\n[[monster]]\ntemplate = \"goon\"\nname = \"Goon\"\nhd = \"1\"\nac = 9\nhp = 5\nmorale = 7\n[[monster.attacks]]\nid = \"club\"\nname = \"Club\"\ndamage = \"1d4\"\n{}",
        pc(
            "gus",
            "fighter",
            1,
            10,
            10,
            &format!("armor = \"{armor}\"\n{gear}")
        )
    );
    load_encounter("gus.toml", &text).map_err(|e| e.to_string())
}

/// basic-fantasy-adventures.txt § Movement and Encumbrance ("a character's load … by armor and
/// load") and § Carrying Capacity, with the weights from the content (the text gives none):
/// Gus's gear (70 lb) is a heavy load for STR 10, so in metal armor he moves 10′ a round — a
/// 6-mile day — until the GM's `set_encumbrance` says otherwise; gear beyond his heavy capacity
/// is a content error naming the field.
#[test]
fn the_contents_gear_weights_are_the_load_movement_and_encumbrance() {
    let gear = "[[character.gear]]\nname = \"chain mail\"\npounds = 40\n[[character.gear]]\nname = \"backpack\"\npounds = 30\n";
    let enc = gus("metal", gear).unwrap();
    let kit = enc
        .combatants
        .iter()
        .find(|c| c.id == cid("gus"))
        .and_then(|c| c.ose.as_ref())
        .unwrap();
    assert_eq!(kit.bf.gear_pounds, Some(70));
    let mut e = new_engine(&enc, 2);
    let ev = run(&mut e, &day(March::Normal, Terrain::Clear));
    assert_eq!(passed(&ev).1, 10, "heavy, metal: 10′ a round");
    run(
        &mut e,
        &Command::Bx(BxCommand::SetEncumbrance {
            combatant: cid("gus"),
            armor: ArmorType::Metal,
            load: 50,
            treasure: false,
        }),
    );
    let ev = run(&mut e, &day(March::Normal, Terrain::Clear));
    assert_eq!(passed(&ev).1, 20, "the GM's load: light, metal");
    let light = gus(
        "leather",
        "[[character.gear]]\nname = \"rope\"\npounds = 10\n",
    )
    .unwrap();
    let mut e = new_engine(&light, 2);
    let ev = run(&mut e, &day(March::Normal, Terrain::Clear));
    assert_eq!(passed(&ev).1, 30, "light, leather");
    let err = gus(
        "none",
        "[[character.gear]]\nname = \"anvil\"\npounds = 151\n",
    )
    .unwrap_err();
    assert!(
        err.contains("character 'gus'.gear") && err.contains("150 lb"),
        "{err}"
    );
    // Without gear the content's base movement stands (120′ a turn: 40′ a round).
    let mut e = new_engine(&gus("metal", "").unwrap(), 2);
    let ev = run(&mut e, &day(March::Normal, Terrain::Clear));
    assert_eq!(passed(&ev).1, 40);
}
