//! Weapons in play (`weapons.rs`): the Weapon tag, proficiency, reach and range from the
//! weapon, improvised weapons, Two-Handed, Thrown and Side Weapon, naming the section of
//! `orcus-basic-rules.txt`.

use super::tests::{arena_src, atk, started};
use crate::content::model::{Origin, PowerSpec};
use crate::rules::common::testing::{cid, refusal, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::OrcusCommand;
use fray_protocol::command::WeaponHand;
use fray_protocol::event::{ActionKind, GameEvent};
use fray_protocol::{Command, ErrorCode};

/// Kael at (0, 0), Lira at (0, 5), a brute two squares east of Kael, the other far away.
const TWO_AWAY: &str = "kael = [0, 0]\nlira = [0, 5]\nbrute-1 = [2, 0]\nbrute-2 = [9, 5]";

/// The arena with Kael's stat-block lines added and his `sword` power (melee, bonus 5,
/// `1d8+2`) and `bow` power (ranged 5/10) given these extra lines.
fn kael_src(kael: &str, sword: &str, bow: &str) -> String {
    arena_src(&[".........."; 6], "", 5, TWO_AWAY)
        .replace("wis = 2\n", &format!("wis = 2\n{kael}\n"))
        .replace("id = \"sword\"\n", &format!("id = \"sword\"\n{sword}\n"))
        .replace("id = \"bow\"\n", &format!("id = \"bow\"\n{bow}\n"))
}

fn powers(src: &str) -> Vec<PowerSpec> {
    load_encounter("weapons.toml", src)
        .unwrap()
        .combatants
        .into_iter()
        .find(|c| c.id.as_str() == "kael")
        .and_then(|c| c.orcus)
        .unwrap()
        .powers
}

fn power(src: &str, id: &str) -> PowerSpec {
    powers(src).into_iter().find(|p| p.id == id).unwrap()
}

fn err(src: &str) -> String {
    load_encounter("weapons.toml", src)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default()
}

const WEAPON: &str = "tags = [\"weapon\"]";

/// orcus-basic-rules.txt § Tags ("A power with the Weapon tag uses a weapon you are wielding
/// … If you are proficient with the weapon, add its proficiency bonus to the attack roll"),
/// § Range (the reach of the melee weapon), § Weapon properties, Reach (+1 square), § Weapon
/// proficiency (weapons and the simple/martial/exotic categories): a glaive (martial, +3,
/// Reach) makes Kael's tagged sword reach 2 at 5 + 3; proficiency by name or category, none
/// with `simple` only; his untagged bow keeps its stated bonus; in play he hits a brute two
/// squares away with +8.
#[test]
fn a_weapon_power_adds_the_proficiency_bonus_and_takes_the_weapons_reach_weapon_tag() {
    let src = kael_src("weapon = \"glaive\"", WEAPON, "");
    let sword = power(&src, "sword");
    assert_eq!((sword.origin, sword.bonus), (Origin::Melee { reach: 2 }, 8));
    assert_eq!(power(&src, "bow").bonus, 5, "no Weapon tag: as stated");
    for (list, bonus) in [
        ("[\"glaive\"]", 8),
        ("[\"martial\"]", 8),
        ("[\"simple\"]", 5),
    ] {
        let src = kael_src(
            &format!("weapon = \"glaive\"\nweapon_proficiency = {list}"),
            WEAPON,
            "",
        );
        assert_eq!(power(&src, "sword").bonus, bonus, "{list}");
    }
    // A power giving its own reach keeps it; a longsword has reach 1.
    let src = kael_src("weapon = \"glaive\"", &format!("{WEAPON}\nreach = 1"), "");
    assert_eq!(power(&src, "sword").origin, Origin::Melee { reach: 1 });
    let src = kael_src("weapon = \"longsword\"", WEAPON, "");
    assert_eq!(power(&src, "sword").origin, Origin::Melee { reach: 1 });
    // In play: the brute two squares away is within the glaive's reach.
    let src = kael_src("weapon = \"glaive\"", WEAPON, "");
    let mut e = started(&load_encounter("glaive.toml", &src).unwrap(), 2);
    let ev = run(&mut e, &atk("kael", "sword", &["brute-1"]));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::AttackRolled { bonus: 8, .. })),
        "{ev:?}"
    );
}

/// orcus-basic-rules.txt § Range ("the range of the ranged weapon"; "Ranged actions that do
/// not involve a weapon will usually specify the range"), § Weapon properties, Range and
/// Thrown ("Unless otherwise mentioned, thrown weapons have a range of 5/10"): a ranged Weapon
/// power without a range shoots the longbow's 20/40 (a far area: within its 20), a thrown
/// handaxe's 5/10; a power giving its range keeps it; a melee weapon without Thrown, an
/// unarmed strike and a ranged weapon in melee are refused on load.
#[test]
fn a_weapon_power_takes_the_weapons_range_and_thrown_melee_weapons_throw_5_10_thrown() {
    let bow = |weapon: &str, lines: &str| {
        kael_src(&format!("weapon = \"{weapon}\""), "", lines).replace("range = [5, 10]\n", "")
    };
    assert_eq!(
        power(&bow("longbow", WEAPON), "bow").origin,
        Origin::Ranged {
            short: 20,
            long: 40
        }
    );
    assert_eq!(power(&bow("longbow", WEAPON), "bow").bonus, 5 + 2);
    assert_eq!(
        power(&bow("handaxe", WEAPON), "bow").origin,
        Origin::Ranged { short: 5, long: 10 }
    );
    assert_eq!(
        power(
            &bow("longbow", &format!("{WEAPON}\nrange = [8, 16]")),
            "bow"
        )
        .origin,
        Origin::Ranged { short: 8, long: 16 }
    );
    let volley = bow("longbow", WEAPON).replace(
        "origin = \"ranged\"\n",
        "origin = \"far burst\"\narea = 1\n",
    );
    assert_eq!(
        power(&volley, "bow").origin,
        Origin::FarBurst { size: 1, range: 20 }
    );
    let e = err(&bow("longsword", WEAPON));
    assert!(
        e.contains("hero.kael.powers[1].origin") && e.contains("without the Thrown property"),
        "{e}"
    );
    let e = err(&bow("unarmed", WEAPON));
    assert!(e.contains("powers[1].origin"), "{e}");
    let e = err(&kael_src("weapon = \"longbow\"", WEAPON, ""));
    assert!(
        e.contains("powers[0].origin") && e.contains("ranged weapon"),
        "{e}"
    );
}

/// orcus-basic-rules.txt § Tags: "You need a weapon (or unarmed strike) to use a Weapon
/// power" — a hero with no `weapon` and a Weapon power is refused on load; unknown weapons and
/// proficiency names too.
#[test]
fn a_weapon_power_without_a_weapon_is_refused_on_load_weapon_tag() {
    let e = err(&kael_src("", WEAPON, ""));
    assert!(
        e.contains("hero.kael.powers[0].tags") && e.contains("needs a weapon"),
        "{e}"
    );
    let e = err(&kael_src("weapon = \"lightsaber\"", WEAPON, ""));
    assert!(e.contains("hero.kael.weapon"), "{e}");
    let e = err(&kael_src(
        "weapon = \"longsword\"\nweapon_proficiency = [\"swords\"]",
        WEAPON,
        "",
    ));
    assert!(e.contains("hero.kael.weapon_proficiency[0]"), "{e}");
}

/// orcus-basic-rules.txt § Improvised weapons: "An improvised weapon, including an unarmed
/// strike, does 1d4 damage (one-handed) or 1d8 damage (two-handed), with no proficiency bonus
/// on the attack"; "A character makes two-handed unarmed strikes if they have two hands free;
/// otherwise they make one-handed unarmed strikes" — unarmed with both hands free is 1d8,
/// with a shield 1d4; improvised is one-handed unless `improvised_hands = 2`; a two-handed
/// strike with a shield is refused.
#[test]
fn unarmed_and_improvised_strikes_deal_1d4_or_1d8_without_proficiency_improvised_weapons() {
    let fists = |kael: &str| {
        kael_src(kael, &format!("{WEAPON}\nhit = \"2dW+2\""), "").replace("hit = \"1d8+2\"\n", "")
    };
    let sword = power(&fists("weapon = \"unarmed\""), "sword");
    assert_eq!(
        (sword.hit.as_deref(), sword.bonus, sword.origin),
        (Some("2d8+2"), 5, Origin::Melee { reach: 1 })
    );
    let shielded =
        fists("weapon = \"unarmed\"\nshield = \"light shield\"").replace("ac = 16\n", "");
    assert_eq!(power(&shielded, "sword").hit.as_deref(), Some("2d4+2"));
    assert_eq!(
        power(&fists("weapon = \"improvised\""), "sword")
            .hit
            .as_deref(),
        Some("2d4+2")
    );
    assert_eq!(
        power(
            &fists("weapon = \"improvised\"\nimprovised_hands = 2"),
            "sword"
        )
        .hit
        .as_deref(),
        Some("2d8+2")
    );
    let e = err(&shielded.replace(
        "weapon = \"unarmed\"",
        "weapon = \"improvised\"\nimprovised_hands = 2",
    ));
    assert!(
        e.contains("hero.kael.improvised_hands") && e.contains("shield"),
        "{e}"
    );
    let e = err(&fists("weapon = \"longsword\"\nimprovised_hands = 1"));
    assert!(e.contains("hero.kael.improvised_hands"), "{e}");
    let e = err(&fists("weapon = \"unarmed\"\nimprovised_hands = 3"));
    assert!(e.contains("hero.kael.improvised_hands"), "{e}");
}

/// orcus-basic-rules.txt § Weapon properties, Two-Handed ("This weapon requires two hands when
/// you attack with it") and Side Weapon ("You can wield a one-handed weapon in one hand and a
/// side weapon in your other"): a greatsword with a shield or a side weapon is refused on
/// load, as is a side weapon without the Side property, beside a shield or without a
/// one-handed main weapon; a longsword and a shortsword are fine.
#[test]
fn two_handed_weapons_leave_no_hand_for_a_shield_or_side_weapon_two_handed() {
    let with_shield =
        kael_src("weapon = \"greatsword\"\nshield = \"light\"", "", "").replace("ac = 16\n", "");
    let e = err(&with_shield);
    assert!(
        e.contains("hero.kael.weapon") && e.contains("Two-Handed"),
        "{e}"
    );
    let e = err(&kael_src(
        "weapon = \"greatsword\"\nside_weapon = \"knife\"",
        "",
        "",
    ));
    assert!(
        e.contains("hero.kael.side_weapon") && e.contains("Two-Handed"),
        "{e}"
    );
    let e = err(&kael_src(
        "weapon = \"longsword\"\nside_weapon = \"rapier\"",
        "",
        "",
    ));
    assert!(
        e.contains("hero.kael.side_weapon") && e.contains("Side"),
        "{e}"
    );
    let e = err(&kael_src(
        "weapon = \"longsword\"\nside_weapon = \"knife\"\nshield = \"light\"",
        "",
        "",
    )
    .replace("ac = 16\n", ""));
    assert!(
        e.contains("hero.kael.side_weapon") && e.contains("shield"),
        "{e}"
    );
    let e = err(&kael_src("side_weapon = \"knife\"", "", ""));
    assert!(e.contains("hero.kael.side_weapon"), "{e}");
    let e = err(&kael_src(
        "weapon = \"unarmed\"\nside_weapon = \"knife\"",
        "",
        "",
    ));
    assert!(e.contains("hero.kael.side_weapon"), "{e}");
    assert!(
        load_encounter(
            "ok.toml",
            &kael_src(
                "weapon = \"longsword\"\nside_weapon = \"shortsword\"",
                "",
                ""
            )
        )
        .is_ok()
    );
}

fn with_hand(cmd: Command, hand: WeaponHand) -> Command {
    match cmd {
        Command::Attack {
            actor,
            attack,
            targets,
            mode,
            knock_out,
            forced,
            ..
        } => Command::Attack {
            actor,
            attack,
            targets,
            mode,
            knock_out,
            forced,
            weapon: Some(hand),
            secondary_target: None,
        },
        other => other,
    }
}

fn rolled_bonus(ev: &[GameEvent]) -> Option<i32> {
    ev.iter().find_map(|x| match x {
        GameEvent::AttackRolled { bonus, .. } => Some(*bonus),
        _ => None,
    })
}

/// orcus-basic-rules.txt § Weapon properties, Side Weapon ("You can wield a one-handed weapon
/// in one hand and a side weapon in your other. Each time you make a weapon attack (including
/// a weapon power), you choose which weapon you attack with"), Improved Critical: a longsword
/// (+3, 1d8) and a light pick (+2, 1d6, Improved Critical) — Kael's Weapon power made with the
/// pick (`weapon = "side"`) takes the pick's dice, crit die and proficiency (none without it),
/// melee or as an area; the main weapon is the default.
#[test]
fn a_side_weapon_attack_takes_the_side_weapons_dice_and_proficiency_side_weapon() {
    let gear = "weapon = \"longsword\"\nside_weapon = \"light pick\"";
    let src = kael_src(gear, WEAPON, "")
        .replace("hit = \"1d8+2\"", "hit = \"1dW+2\"")
        .replace("id = \"burst\"", "id = \"burst\"\ntags = [\"weapon\"]")
        .replace(
            TWO_AWAY,
            "kael = [0, 0]\nlira = [0, 5]\nbrute-1 = [1, 0]\nbrute-2 = [9, 5]",
        );
    let sword = power(&src, "sword");
    assert_eq!(
        (
            sword.bonus,
            sword.hit.as_deref(),
            sword.crit_extra.as_deref()
        ),
        (8, Some("1d8+2"), None)
    );
    let pick = sword.side.as_deref().unwrap();
    assert_eq!(
        (
            pick.id.as_str(),
            pick.bonus,
            pick.hit.as_deref(),
            pick.crit_extra.as_deref()
        ),
        ("sword", 7, Some("1d6+2"), Some("1d6"))
    );
    assert_eq!(pick.origin, Origin::Melee { reach: 1 });
    assert!(power(&src, "bow").side.is_none(), "no Weapon tag");
    let unskilled = src.replace(
        gear,
        &format!("{gear}\nweapon_proficiency = [\"longsword\"]"),
    );
    assert_eq!(power(&unskilled, "sword").side.unwrap().bonus, 5);
    // In play.
    let mut e = started(&load_encounter("pick.toml", &src).unwrap(), 2);
    let ev = run(
        &mut e,
        &with_hand(atk("kael", "sword", &["brute-1"]), WeaponHand::Side),
    );
    assert_eq!(rolled_bonus(&ev), Some(7));
    run(
        &mut e,
        &Command::Orcus(OrcusCommand::SpendActionPoint {
            actor: cid("kael"),
            action: ActionKind::Standard,
        }),
    );
    let ev = run(
        &mut e,
        &Command::Orcus(OrcusCommand::AreaAttack {
            actor: cid("kael"),
            attack: "burst".into(),
            origin: None,
            targets: Vec::new(),
            forced: Vec::new(),
            weapon: Some(WeaponHand::Side),
            origin_height: None,
            secondary_target: None,
        }),
    );
    assert_eq!(rolled_bonus(&ev), Some(7));
}

/// orcus-basic-rules.txt § Weapon properties, Side Weapon: only a weapon attack is made with
/// the side weapon, and only by a hero holding one — otherwise `no_side_weapon`, changing
/// nothing and drawing no dice; `weapon = "main"` is the default.
#[test]
fn the_side_weapon_choice_is_refused_without_a_side_weapon_or_weapon_power_side_weapon() {
    let near = "kael = [0, 0]\nlira = [0, 5]\nbrute-1 = [1, 0]\nbrute-2 = [9, 5]";
    let src = kael_src(
        "weapon = \"longsword\"\nside_weapon = \"knife\"",
        WEAPON,
        "",
    )
    .replace(TWO_AWAY, near);
    let mut e = started(&load_encounter("knife.toml", &src).unwrap(), 2);
    assert_eq!(
        refuse(
            &mut e,
            &with_hand(atk("kael", "bow", &["brute-1"]), WeaponHand::Side)
        ),
        ErrorCode::NoSideWeapon
    );
    let ev = run(
        &mut e,
        &with_hand(atk("kael", "sword", &["brute-1"]), WeaponHand::Main),
    );
    assert_eq!(rolled_bonus(&ev), Some(8));
    // Without a side weapon.
    let src = kael_src("weapon = \"longsword\"", WEAPON, "").replace(TWO_AWAY, near);
    let mut e = started(&load_encounter("sword.toml", &src).unwrap(), 2);
    let r = refusal(
        &mut e,
        &with_hand(atk("kael", "sword", &["brute-1"]), WeaponHand::Side),
    );
    assert_eq!(r.code, ErrorCode::NoSideWeapon);
    assert!(r.message.contains("no side weapon"), "{}", r.message);
}

/// orcus-basic-rules.txt § Weapon properties, Side Weapon: the weapon choice is Orcus's; the
/// other rulesets refuse an `attack` carrying it (`invalid_argument`), changing nothing.
#[test]
fn other_rulesets_refuse_the_weapon_choice_side_weapon() {
    for ruleset in ["13th-age", "five-torches-deep", "ose"] {
        let (name, text) = crate::rules::builtin_encounters(ruleset)[0];
        let enc = load_encounter(name, text).unwrap();
        let mut e = crate::rules::common::testing::new_engine(&enc, 1);
        let actor = enc.combatants[0].id.clone();
        let target = enc.combatants[enc.combatants.len() - 1].id.clone();
        let cmd = Command::Attack {
            actor,
            attack: "melee".into(),
            targets: vec![target],
            mode: fray_protocol::command::AttackMode::Standard,
            knock_out: false,
            forced: Vec::new(),
            weapon: Some(WeaponHand::Side),
            secondary_target: None,
        };
        let r = refusal(&mut e, &cmd);
        assert_eq!(
            r.code,
            ErrorCode::InvalidArgument,
            "{ruleset}: {}",
            r.message
        );
        assert!(r.message.contains("weapon"), "{ruleset}: {}", r.message);
    }
}

/// orcus-basic-rules.txt § Tags (a Weapon power "uses a weapon you are wielding"), § Weapon
/// properties, Loading ("Each time you attack with the weapon, you expend one piece of
/// ammunition"; Loading (swift)) and Improved Critical: a Weapon power attacks with the weapon
/// even when its damage is written without `dW` — a heavy crossbow's needs reloading and uses
/// ammunition, a warhammer's adds its die on a critical hit; untagged powers do not.
#[test]
fn a_weapon_power_takes_the_weapons_loading_and_improved_critical_weapon_tag() {
    let src = kael_src("weapon = \"heavy crossbow\"", "", WEAPON).replace("range = [5, 10]\n", "");
    let bow = power(&src, "bow");
    assert_eq!(
        (bow.loading_swift, bow.uses_ammunition, bow.origin),
        (
            true,
            true,
            Origin::Ranged {
                short: 15,
                long: 30
            }
        )
    );
    let src = kael_src("weapon = \"warhammer\"", WEAPON, "");
    assert_eq!(power(&src, "sword").crit_extra.as_deref(), Some("1d8"));
    let src = kael_src("weapon = \"warhammer\"", "", "");
    assert_eq!(power(&src, "sword").crit_extra, None);
}

/// orcus-basic-rules.txt § Weapon properties, Thrown (light) ("Use Dexterity for attack and
/// damage rolls when you make a basic ranged attack") and Thrown (heavy) ("Use Strength instead
/// of Dexterity"); § Strength and § Dexterity, Attack Rolls and Damage (Strength for a basic
/// attack with a melee weapon): a hero's basic Weapon power with `ability = "auto"` adds Dex
/// (Kael's +1) to the attack and damage with a thrown knife, Str (+3) with a thrown handaxe —
/// the side weapon's variant too — and Str with a melee weapon; in play the knife throw rolls
/// at 5 + 3 (proficiency) + 1.
#[test]
fn a_basic_thrown_attack_uses_dex_for_light_and_str_for_heavy_weapons_thrown() {
    const AUTO: &str = "tags = [\"weapon\"]\nbasic = true\nability = \"auto\"";
    let mods = "str = 3\ndex = 1";
    let src = kael_src(&format!("{mods}\nweapon = \"knife\""), "", AUTO);
    let bow = power(&src, "bow");
    assert_eq!((bow.bonus, bow.hit.as_deref()), (5 + 3 + 1, Some("1d8+1")));
    let src = kael_src(&format!("{mods}\nweapon = \"handaxe\""), "", AUTO);
    let bow = power(&src, "bow");
    assert_eq!((bow.bonus, bow.hit.as_deref()), (5 + 2 + 3, Some("1d8+3")));
    // The side weapon's variant takes its own weapon's ability.
    let src = kael_src(
        &format!("{mods}\nweapon = \"knife\"\nside_weapon = \"handaxe\""),
        "",
        AUTO,
    );
    let bow = power(&src, "bow");
    let side = bow.side.as_deref().unwrap();
    assert_eq!((bow.bonus, side.bonus), (9, 10));
    assert_eq!(side.hit.as_deref(), Some("1d8+3"));
    // A melee basic attack: Strength; a negative modifier is subtracted.
    let src = kael_src(
        &format!("{mods}\nweapon = \"longsword\""),
        &format!("{WEAPON}\nability = \"auto\""),
        "",
    );
    let plain = kael_src(&format!("{mods}\nweapon = \"longsword\""), WEAPON, "");
    let (auto, base) = (power(&src, "sword"), power(&plain, "sword"));
    assert_eq!(auto.bonus, base.bonus + 3);
    assert_eq!(auto.hit.as_deref(), Some("1d8+2+3"));
    let src = kael_src("dex = -1\nweapon = \"dart\"", "", AUTO);
    assert_eq!(power(&src, "bow").hit.as_deref(), Some("1d8-1"));
    // In play: the throw's attack roll carries the Dexterity modifier.
    let src = kael_src(&format!("{mods}\nweapon = \"knife\""), "", AUTO);
    let mut e = started(&load_encounter("knife.toml", &src).unwrap(), 2);
    let ev = run(&mut e, &atk("kael", "bow", &["brute-1"]));
    assert!(
        ev.iter()
            .any(|x| matches!(x, GameEvent::AttackRolled { bonus: 9, .. })),
        "{ev:?}"
    );
}

/// orcus-basic-rules.txt § Weapon properties, Thrown (light)/(heavy): the automatic ability is
/// only for a hero's basic Weapon attack (melee or ranged); another value, a power that is not
/// basic or has no Weapon tag, and a monster's power are refused on load, naming the field.
#[test]
fn the_automatic_ability_is_refused_off_a_basic_weapon_attack_thrown() {
    let mods = "str = 3\ndex = 1\nweapon = \"knife\"";
    for bow in [
        "tags = [\"weapon\"]\nbasic = true\nability = \"dex\"",
        "tags = [\"weapon\"]\nability = \"auto\"",
        "basic = true\nability = \"auto\"",
    ] {
        let e = err(&kael_src(mods, "", bow));
        assert!(e.contains("powers[1].ability"), "{bow}: {e}");
    }
    let monster = arena_src(
        &[".........."; 6],
        "[[monster.powers]]\nid = \"hurl\"\nname = \"Hurl\"\norigin = \"ranged\"\nrange = [5, 10]\nvs = \"ac\"\nhit = \"1d6\"\nbasic = true\nability = \"auto\"\n",
        5,
        TWO_AWAY,
    );
    let e = err(&monster);
    assert!(e.contains("ability"), "{e}");
}
