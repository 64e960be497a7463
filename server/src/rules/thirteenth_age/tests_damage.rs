//! Tests of damage types against `13th-age-combat.txt` § Resistance and § Other Damage Types /
//! § Vulnerable (a damage-type vulnerability expands the crit range like the condition).

use crate::dice::SessionRng;
use crate::ecs::components::SeedSecret;
use crate::engine::Engine;
use crate::rules::load_encounter;
use crate::rules::thirteenth_age::rules;
use fray_protocol::ThirteenthAgeEvent;
use fray_protocol::command::AttackMode;
use fray_protocol::{CombatantId, Command, GameEvent};

/// A hero who always hits (bonus 40) with a magical and a mundane fire attack, and a monster
/// that resists fire 16 and is vulnerable to cold.
const ENCOUNTER: &str = r#"
ruleset = "13th-age"
heroes = ["pyra"]

[[monsters]]
template = "salamander"

[[hero]]
id = "pyra"
name = "Pyra"
level = 1
abilities = { str = 10, con = 10, dex = 10, int = 10, wis = 10, cha = 10 }
hp = 500
ac = 30
pd = 30
md = 30
recovery_die = 6

[[hero.attacks]]
id = "fire-bolt"
name = "Fire Bolt"
range = "ranged"
ability = "int"
vs = "pd"
damage = "20"
damage_type = "fire"
spell = true

[[hero.attacks]]
id = "torch"
name = "Torch"
range = "ranged"
ability = "int"
vs = "pd"
damage = "20"
damage_type = "fire"

[[hero.attacks]]
id = "frost"
name = "Frost"
range = "ranged"
ability = "int"
vs = "pd"
damage = "1"
damage_type = "cold"
spell = true

[[monster]]
template = "salamander"
name = "Salamander"
level = 1
hp = 5000
ac = 1
pd = 1
md = 1
initiative = -10
resist = { fire = 16 }
vulnerable = ["cold"]

[[monster.attacks]]
id = "melee"
name = "Bite"
range = "melee"
bonus = 0
vs = "ac"
damage = "1"
"#;

fn engine(seed: u64) -> Engine {
    let enc = load_encounter("damage.toml", ENCOUNTER).unwrap();
    let mut e = Engine::new(
        &enc,
        SessionRng::from_seed(seed),
        SeedSecret {
            seed,
            salt: "00".into(),
        },
    )
    .unwrap();
    e.execute(&Command::StartBattle).unwrap();
    e
}

fn attack(e: &mut Engine, attack: &str) -> Vec<GameEvent> {
    // Pyra (initiative +0 vs −10) usually goes first; pass turns until she acts.
    for _ in 0..4 {
        if e.state().current == Some(CombatantId::new("pyra")) {
            break;
        }
        let cur = e.state().current.unwrap();
        e.execute(&Command::EndTurn { actor: cur }).unwrap();
    }
    e.execute(&Command::Attack {
        actor: CombatantId::new("pyra"),
        attack: attack.into(),
        targets: vec![CombatantId::new("salamander-1")],
        mode: AttackMode::Standard,
        knock_out: false,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    })
    .unwrap()
}

fn natural_and_damage(ev: &[GameEvent]) -> (u32, Option<i32>, bool) {
    let natural = ev
        .iter()
        .find_map(|e| match e {
            GameEvent::AttackRolled { roll, .. } => roll.natural(),
            _ => None,
        })
        .unwrap();
    let dealt = ev.iter().find_map(|e| match e {
        GameEvent::Damaged { amount, .. } => Some(*amount),
        _ => None,
    });
    let resisted = ev.iter().any(|e| {
        matches!(
            e,
            GameEvent::ThirteenthAge(ThirteenthAgeEvent::Resisted { .. })
        )
    });
    (natural, dealt, resisted)
}

/// 13th-age-combat.txt § Resistance: below the resistance number a typed attack deals half
/// damage; at or above it, full damage (crits double after).
#[test]
fn resistance_halves_damage_below_the_natural_roll_needed() {
    let mut seen_half = false;
    let mut seen_full = false;
    for seed in 0..200 {
        let mut e = engine(seed);
        let (natural, dealt, resisted) = natural_and_damage(&attack(&mut e, "fire-bolt"));
        match natural {
            1 => assert_eq!(dealt, None, "a fumble deals nothing"),
            20 => assert_eq!(dealt, Some(40), "natural 20: full damage, doubled"),
            16..=19 => {
                assert_eq!(dealt, Some(20));
                assert!(!resisted);
                seen_full = true;
            }
            _ => {
                assert_eq!(dealt, Some(10), "natural {natural} < 16: half");
                assert!(resisted);
                seen_half = true;
            }
        }
    }
    assert!(seen_half && seen_full);
}

/// 13th-age-combat.txt § Resistance: resistance to an energy type is immunity to normal
/// (non-magical) energy of that type.
#[test]
fn non_magical_energy_cannot_hurt_a_resistant_creature() {
    for seed in 0..40 {
        let mut e = engine(seed);
        let ev = attack(&mut e, "torch");
        let (natural, dealt, _) = natural_and_damage(&ev);
        if natural == 1 {
            continue;
        }
        assert_eq!(
            dealt, None,
            "seed {seed}: mundane fire hurt a fire-resistant creature"
        );
        assert!(ev.iter().any(|e| matches!(
            e,
            GameEvent::ThirteenthAge(ThirteenthAgeEvent::Resisted { immune: true, .. })
        )));
    }
}

/// 13th-age-combat.txt § Vulnerable: a creature vulnerable to the attack's damage type is
/// critted on 18+.
#[test]
fn a_damage_type_vulnerability_expands_the_crit_range() {
    let mut crits_below_20 = 0;
    for seed in 0..200 {
        let mut e = engine(seed);
        let ev = attack(&mut e, "frost");
        let (natural, dealt, _) = natural_and_damage(&ev);
        if natural == 18 || natural == 19 {
            assert_eq!(
                dealt,
                Some(2),
                "natural {natural} crits a cold-vulnerable target"
            );
            crits_below_20 += 1;
        }
        if (2..18).contains(&natural) {
            assert_eq!(dealt, Some(1));
        }
    }
    assert!(crits_below_20 > 0);
    assert_eq!(rules::resisted(9, 3, 16, true), Some(4), "half rounds down");
    assert_eq!(rules::resisted(9, 16, 16, true), Some(9));
    assert_eq!(rules::resisted(9, 19, 16, false), None);
}
