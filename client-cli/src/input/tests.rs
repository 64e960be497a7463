//! The parser's tests: every family's verbs, menus and refusals.

use super::*;
use fray_protocol::event::Defense;
use fray_protocol::ftd::TimeDicePurpose;
use fray_protocol::{BxCommand, FiveTorchesCommand, OrcusCommand};

fn attack(id: &str, name: &str, max_targets: u8) -> AttackSummary {
    AttackSummary {
        id: id.into(),
        name: name.into(),
        range: "melee".into(),
        vs: Defense::Ac,
        max_targets,
        basic: true,
        spell: false,
        maneuvers: Vec::new(),
        usage: "at-will".into(),
        action: "standard".into(),
        category: "attack".into(),
        tags: Vec::new(),
    }
}

fn target(id: &str, name: &str) -> Target {
    Target {
        id: CombatantId::new(id),
        name: name.into(),
    }
}

fn menu() -> Menu {
    Menu {
        actor: CombatantId::new("brakka"),
        attacks: vec![
            attack("melee", "Longsword", 1),
            attack("ranged", "Javelin", 1),
            attack("cleave", "Cleaving Strike", 2),
        ],
        targets: vec![
            target("goblin-1", "Goblin Scrapper 1"),
            target("goblin-2", "Goblin Scrapper 2"),
            target("ogre", "Ogre"),
        ],
        everyone: ["brakka", "goblin-1", "goblin-2", "ogre", "goblin-3"]
            .into_iter()
            .map(CombatantId::new)
            .collect(),
    }
}

fn game(line: &str) -> Result<Command, String> {
    match parse(line, Some(&menu()))? {
        Input::Game(c) => Ok(c),
        other => Err(format!("not a game command: {other:?}")),
    }
}

#[test]
fn pursuit_and_gale_commands() {
    use fray_protocol::ose::EncounterSetting;
    assert_eq!(
        game("pursue dungeon 90 120 Ada bram"),
        Ok(Command::Bx(BxCommand::StartPursuit {
            setting: EncounterSetting::Dungeon,
            fleeing_rate: 90,
            pursuer_rate: 120,
            runners: vec![CombatantId::new("ada"), CombatantId::new("bram")],
            distance: None
        }))
    );
    assert_eq!(
        game("pursue water 90 150 120"),
        Ok(Command::Bx(BxCommand::StartPursuit {
            setting: EncounterSetting::Waterborne,
            fleeing_rate: 90,
            pursuer_rate: 150,
            runners: Vec::new(),
            distance: Some(120)
        }))
    );
    assert!(game("pursue wilderness 90 150 12").is_err());
    assert_eq!(
        game("pursuit-round"),
        Ok(Command::Bx(BxCommand::PursuitRound {}))
    );
    assert_eq!(
        game("lure food"),
        Ok(Command::Bx(BxCommand::DropLure {
            lure: fray_protocol::pursuit::Lure::Food
        }))
    );
    assert_eq!(
        game("end-pursuit caught"),
        Ok(Command::Bx(BxCommand::EndPursuit { caught: true }))
    );
    assert_eq!(
        game("bx-gale 3"),
        Ok(Command::Bx(BxCommand::GaleDamage { hours: 3 }))
    );
    assert_eq!(
        game("gale full unseaworthy land"),
        Ok(Command::Bx(BxCommand::GaleStrikes {
            near: false,
            seaworthy: false,
            land: true,
            clear_shore: false
        }))
    );
}

fn attack_cmd(attack: &str, targets: &[&str]) -> Command {
    Command::Attack {
        actor: CombatantId::new("brakka"),
        attack: attack.into(),
        targets: targets.iter().map(|t| CombatantId::new(*t)).collect(),
        mode: AttackMode::Standard,
        knock_out: false,
        forced: Vec::new(),
        weapon: None,
        secondary_target: None,
    }
}

/// orcus-basic-rules.txt § Weapon properties, Side Weapon ("you choose which weapon you
/// attack with"): `side` sends the attack with `weapon: side`; a plain attack leaves the
/// field out (the main weapon).
#[test]
fn side_attacks_with_the_side_weapon_side_weapon() {
    let mut side = attack_cmd("melee", &["goblin-2"]);
    if let Command::Attack { weapon, .. } = &mut side {
        *weapon = Some(fray_protocol::command::WeaponHand::Side);
    }
    assert_eq!(game("side melee goblin-2"), Ok(side));
    assert_eq!(
        game("attack melee 2"),
        Ok(attack_cmd("melee", &["goblin-2"]))
    );
    assert!(game("side").is_err_and(|e| e.contains("attack with what")));
    assert!(parse("side melee 1", None).is_err());
}

/// orcus-basic-rules.txt § Secondary attacks ("one creature of the user's choice within
/// N"): `second` sends the attack with `secondary_target`, the last word.
#[test]
fn second_names_the_secondary_target_secondary_attacks() {
    let mut cmd = attack_cmd("melee", &["goblin-2"]);
    if let Command::Attack {
        secondary_target, ..
    } = &mut cmd
    {
        *secondary_target = Some(CombatantId::new("goblin-1"));
    }
    assert_eq!(game("second melee goblin-2 goblin-1"), Ok(cmd));
    assert!(game("second").is_err_and(|e| e.contains("secondary attack's target")));
    assert!(game("second melee goblin-2 nobody").is_err());
}

/// orcus-basic-rules.txt § Ability and skill checks, § Table – Typical Difficulty Classes:
/// the GM's `skill-check` names a DC or a difficulty band, and an optional purpose.
#[test]
fn skill_check_takes_a_dc_or_a_difficulty_typical_difficulty_classes() {
    use fray_protocol::command::CheckDifficulty;
    assert_eq!(
        game("skill-check Tamsin Athletics 15 climb the cliff"),
        Ok(Command::Orcus(OrcusCommand::OrcusCheck {
            combatant: CombatantId::new("tamsin"),
            skill: "athletics".into(),
            dc: Some(15),
            difficulty: None,
            purpose: Some("climb the cliff".into()),
        }))
    );
    assert_eq!(
        parse("skill-check tamsin heal hard", None),
        Ok(Input::Game(Command::Orcus(OrcusCommand::OrcusCheck {
            combatant: CombatantId::new("tamsin"),
            skill: "heal".into(),
            dc: None,
            difficulty: Some(CheckDifficulty::Hard),
            purpose: None,
        })))
    );
    assert_eq!(
        game("skill-check tamsin stealth dc12"),
        Ok(Command::Orcus(OrcusCommand::OrcusCheck {
            combatant: CombatantId::new("tamsin"),
            skill: "stealth".into(),
            dc: Some(12),
            difficulty: None,
            purpose: None,
        }))
    );
    assert!(game("skill-check tamsin stealth tricky").is_err_and(|e| e.contains("easy")));
    assert!(game("skill-check tamsin").is_err_and(|e| e.contains("skill-check WHO")));
}

/// ose-adventuring.txt § Waterborne Adventuring, Travel on the Water (a day on the water:
/// `pass_day` `march` `water` with the vessel's rate, the waters, a river's current and a
/// navigator); `bx-day water …` is the same verb.
#[test]
fn bx_sail_passes_a_day_on_the_water_travel_on_the_water() {
    use fray_protocol::bf::{March, Terrain};
    use fray_protocol::ose::{Current, WaterDay, Waters};
    let day = |water: WaterDay, unfed: Vec<CombatantId>, leader: Option<&str>| {
        Ok(Command::Bx(BxCommand::PassDay {
            march: March::Water,
            terrain: Terrain::Clear,
            unfed,
            no_water: Vec::new(),
            leader: leader.map(CombatantId::new),
            water: Some(water),
        }))
    };
    assert_eq!(
        game("bx-sail 360 river downstream leader=Ada"),
        day(
            WaterDay {
                rate: 360,
                waters: Waters::River,
                current: Current::Downstream,
                navigator: false,
            },
            Vec::new(),
            Some("ada"),
        )
    );
    assert_eq!(
        game("bx-day water 120 sea navigator unfed=ada"),
        day(
            WaterDay {
                rate: 120,
                waters: Waters::Sea,
                current: Current::None,
                navigator: true,
            },
            vec![CombatantId::new("ada")],
            None,
        )
    );
    assert_eq!(
        parse("bx-sail 90 SWAMP", None),
        day(
            WaterDay {
                rate: 90,
                waters: Waters::Swamp,
                current: Current::None,
                navigator: false,
            },
            Vec::new(),
            None,
        )
        .map(Input::Game)
    );
    assert!(game("bx-sail 360").is_err_and(|e| e.contains("which waters")));
    assert!(game("bx-sail fast sea").is_err_and(|e| e.contains("feet per turn")));
    assert!(game("bx-sail 360 lake").is_err_and(|e| e.contains("bx-sail RATE")));
}

/// ose-adventuring.txt § Optional Rule: Encumbrance (armor and "a significant amount of
/// treasure" under the basic option): `bx-load … treasure` sets the flag, OSE's armor
/// words are accepted; basic-fantasy-adventures.txt § Light (taper candles): `bx-candle`
/// lights one, `bx-douse … candle` puts it out.
#[test]
fn bx_load_carries_treasure_and_bx_candle_lights_a_candle_encumbrance_light() {
    use fray_protocol::bf::ArmorType;
    use fray_protocol::ose::LightSource;
    assert_eq!(
        game("bx-load Ada heavy 400 treasure"),
        Ok(Command::Bx(BxCommand::SetEncumbrance {
            combatant: CombatantId::new("ada"),
            armor: ArmorType::Metal,
            load: 400,
            treasure: true,
        }))
    );
    assert_eq!(
        game("bx-load ada leather 30"),
        Ok(Command::Bx(BxCommand::SetEncumbrance {
            combatant: CombatantId::new("ada"),
            armor: ArmorType::Leather,
            load: 30,
            treasure: false,
        }))
    );
    assert!(game("bx-load ada light 30 gold").is_err_and(|e| e.contains("[treasure]")));
    assert_eq!(
        game("bx-candle Quill 2"),
        Ok(Command::Bx(BxCommand::LightCandle {
            carrier: CombatantId::new("quill"),
            inches: 2,
        }))
    );
    assert_eq!(
        game("bx-douse quill candle"),
        Ok(Command::Bx(BxCommand::DouseLight {
            carrier: CombatantId::new("quill"),
            source: LightSource::Candle,
        }))
    );
    assert!(game("bx-candle quill tall").is_err_and(|e| e.contains("inches")));
    assert!(game("bx-light quill candle").is_err_and(|e| e.contains("bx-candle")));
}

/// ose-adventuring.txt § Targets Behind Cover (complete cover: "The target cannot be
/// hit"): `condition WHO cover on|off` sets the GM's `complete_cover`.
#[test]
fn condition_cover_sets_complete_cover_targets_behind_cover() {
    use fray_protocol::ose::OseCondition;
    assert_eq!(
        game("condition Odo cover on"),
        Ok(Command::Bx(BxCommand::OseCondition {
            combatant: CombatantId::new("odo"),
            condition: OseCondition::CompleteCover,
            on: true,
        }))
    );
    assert_eq!(
        game("condition odo complete-cover off"),
        Ok(Command::Bx(BxCommand::OseCondition {
            combatant: CombatantId::new("odo"),
            condition: OseCondition::CompleteCover,
            on: false,
        }))
    );
    assert!(game("condition odo hidden on").is_err_and(|e| e.contains("cover")));
}

/// Every command in protocol/README.md's command tables has a verb: one line per command
/// parses into a command of that kind (so a command added to the protocol without a verb
/// fails here).
#[test]
fn every_command_in_the_protocol_readme_has_a_verb() {
    const LINES: &[&str] = &[
        "start",
        "ambush goblin-1",
        "attack melee goblin-1",
        "move",
        "disengage",
        "intercept brakka goblin-1",
        "potion",
        "stabilize goblin-3",
        "rally",
        "letgo brakka goblin-1",
        "end",
        "spirit brakka ogre ac",
        "ready",
        "delay",
        "act brakka",
        "end battle",
        "rest brakka 2",
        "healup",
        "end-session",
        "next-battle",
        "escalation hold",
        "flee",
        "modifier brakka ac +2",
        "temp brakka 8",
        "knockouts refuse",
        "teleport brakka far",
        "surprise goblin-1 goblin-2",
        "reorder brakka goblin-1",
        "walk 4,4 5,3",
        "stand",
        "defend",
        "ap standard",
        "area burst",
        "charge goblin-1 3,4",
        "bullrush goblin-1 1,2",
        "grapple goblin-1",
        "escape athletics",
        "maintain 12",
        "end-effect 14",
        "mount horse",
        "dismount 3,2",
        "command-mount move",
        "aloft 2",
        "skill brakka feint goblin-1",
        "reload brakka crossbow",
        "ready-counter brakka riposte",
        "search brakka",
        "allies brakka goblin-1",
        "decline-ally brakka ogre",
        "rider brakka take",
        "be-hit brakka ogre",
        "pass-time 90",
        "skill-check brakka athletics 15",
        "check brakka dex 13",
        "grant brakka adv",
        "morale goblin-1",
        "retreat",
        "resolve",
        "delay-to ogre",
        "heal brakka 2d4",
        "light dark",
        "torch",
        "load brakka 10",
        "travel",
        "return dangerous",
        "chase open 40 brakka",
        "corrupt brakka",
        "cure brakka",
        "time-dice 2",
        "set-time 5",
        "crawl",
        "resilience brakka",
        "exhaust brakka",
        "camp safe",
        "hide",
        "stealth-dc 14",
        "reveal brakka",
        "ready-for active the goblin moves",
        "concentrate bless",
        "unconcentrate",
        "surprise party",
        "reaction",
        "declare withdraw",
        "shoot ranged goblin-1 short",
        "cast",
        "bx-morale goblin-1",
        "save brakka breath",
        "secret listen",
        "bx-turn",
        "bx-light brakka torch",
        "bx-douse brakka torch",
        "bomb roc 100 2d6 brakka",
        "save-half brakka breath 3d6",
        "bx-check brakka str",
        "fall brakka 30",
        "bx-heal brakka 2",
        "distance dungeon",
        "evade dungeon 90 120",
        "bx-move 10",
        "bx-hold",
        "condition brakka blind on",
        "pursue dungeon 90 120",
        "pursuit-round",
        "lure food",
        "end-pursuit",
        "gale near seaworthy",
        "bx-hire brakka cole",
        "bx-loyalty cole",
        "bx-xp brakka goblin-1",
        "bx-day",
        "bx-load brakka metal 90",
        "bx-effect 12 light spell",
        "bx-wind",
        "bx-gale 2",
        "bx-candle brakka 2",
        "bx-cure brakka 1d6+1 potion of healing",
        "bx-voyage 30 0 navigator",
        "drown brakka 10",
        "condition brakka swimming on",
        "orcus-xp kael,lira 50 brute-1",
        "loot hesk goblin-1",
        "treasure hesk 10",
        "magic-item hesk 100 ring",
        "sell hesk 80 ring",
        "journey 2",
        "voyage boat 10",
    ];
    let mut kinds = std::collections::BTreeSet::new();
    for line in LINES {
        match game(line) {
            Ok(c) => kinds.insert(c.kind()),
            Err(e) => panic!("{line}: {e}"),
        };
    }
    let readme = include_str!("../../../protocol/README.md");
    let mut in_commands = false;
    let (mut missing, mut rows) = (Vec::new(), 0);
    for l in readme.lines() {
        if l.starts_with("### ") {
            in_commands = l == "### Commands" || l.ends_with(" commands");
        }
        let Some(json) = l
            .strip_suffix("` |")
            .and_then(|r| r.rsplit_once(" `"))
            .map(|(_, j)| j)
            .filter(|_| in_commands && l.starts_with('|'))
        else {
            continue;
        };
        let name = match serde_json::from_str::<serde_json::Value>(json) {
            Ok(serde_json::Value::String(s)) => s,
            Ok(serde_json::Value::Object(m)) => m.keys().next().cloned().unwrap_or_default(),
            other => panic!("{l}: {other:?}"),
        };
        rows += 1;
        if !kinds.contains(name.as_str()) && !missing.contains(&name) {
            missing.push(name);
        }
    }
    // `surprise` names the surprised unless it names a side (OSE's d6 rolls).
    assert_eq!(
        game("surprise Goblin-1 goblin-2"),
        Ok(Command::StartSurprise {
            surprised: vec![CombatantId::new("goblin-1"), CombatantId::new("goblin-2")]
        })
    );
    assert_eq!(
        game("surprise monsters"),
        Ok(Command::Bx(BxCommand::RollSurprise {
            sides: vec![fray_protocol::Side::Monsters]
        }))
    );
    assert!(game("surprise").is_err_and(|e| e.contains("surprise WHO")));
    assert!(rows >= 113, "only {rows} command rows read");
    assert!(missing.is_empty(), "no verb for {missing:?}");
    assert!(kinds.len() >= 113, "{}", kinds.len());
}

#[test]
fn attack_by_names() {
    assert_eq!(
        game("attack melee goblin-1"),
        Ok(attack_cmd("melee", &["goblin-1"]))
    );
    assert_eq!(
        game("ATTACK Melee GOBLIN-2"),
        Ok(attack_cmd("melee", &["goblin-2"]))
    );
    assert_eq!(game("melee ogre"), Ok(attack_cmd("melee", &["ogre"])));
    assert_eq!(game("a long og"), Ok(attack_cmd("melee", &["ogre"])));
}

#[test]
fn attack_by_numbers() {
    assert_eq!(game("a 1 2"), Ok(attack_cmd("melee", &["goblin-2"])));
    assert_eq!(game("a 2 3"), Ok(attack_cmd("ranged", &["ogre"])));
    assert_eq!(
        game("a 3 1,2"),
        Ok(attack_cmd("cleave", &["goblin-1", "goblin-2"]))
    );
    assert_eq!(
        game("a 3 1 3"),
        Ok(attack_cmd("cleave", &["goblin-1", "ogre"]))
    );
}

/// 13th Age § Unconscious: `ko` declares a knock-out blow; the GM allows or refuses them.
#[test]
fn knock_out_blows_and_the_gm_ruling() {
    let mut ko = attack_cmd("melee", &["goblin-1"]);
    if let Command::Attack { knock_out, .. } = &mut ko {
        *knock_out = true;
    }
    assert_eq!(game("ko melee goblin-1"), Ok(ko.clone()));
    assert_eq!(game("knockout 1 1"), Ok(ko));
    assert_eq!(
        game("knockouts refuse"),
        Ok(Command::KnockOuts { allowed: false })
    );
    assert_eq!(
        game("knockouts ALLOW"),
        Ok(Command::KnockOuts { allowed: true })
    );
    let e = game("knockouts maybe").expect_err("allow or refuse");
    assert!(e.contains("allow|refuse"), "{e}");
}

/// Orcus § Unwilling movement: `shove` names the squares the target is moved through.
#[test]
fn a_shove_chooses_the_forced_path() {
    let mut cmd = attack_cmd("melee", &["goblin-1"]);
    if let Command::Attack { forced, .. } = &mut cmd {
        forced.push(fray_protocol::grid::ForcedPath {
            target: CombatantId::new("goblin-1"),
            path: vec![
                fray_protocol::grid::Square::new(3, 2),
                fray_protocol::grid::Square::new(4, 2),
            ],
        });
    }
    assert_eq!(game("shove melee goblin-1 3,2 4,2"), Ok(cmd));
    assert!(game("shove melee").is_err());
    assert!(game("shove melee goblin-1 north").is_err());
}

#[test]
fn old_school_essentials_commands() {
    use fray_protocol::ose::{Declaration, MissileRange, SaveCategory};
    assert_eq!(
        game("declare spell Magic Missile"),
        Ok(Command::Bx(BxCommand::Declare {
            actor: CombatantId::new("brakka"),
            declaration: Some(Declaration::Spell {
                spell: "Magic Missile".into()
            })
        }))
    );
    assert_eq!(
        game("cast"),
        Ok(Command::Bx(BxCommand::CastSpell {
            actor: CombatantId::new("brakka")
        }))
    );
    assert!(matches!(
        game("shoot bow ogre short -1"),
        Ok(Command::Bx(BxCommand::OseAttack {
            range: Some(MissileRange::Short),
            modifier: -1,
            behind: false,
            ..
        }))
    ));
    assert_eq!(
        game("save ogre breath 2"),
        Ok(Command::Bx(BxCommand::SavingThrow {
            combatant: CombatantId::new("ogre"),
            category: SaveCategory::Breath,
            modifier: 2
        }))
    );
    assert_eq!(
        game("bx-move 20"),
        Ok(Command::Bx(BxCommand::OseMove {
            actor: CombatantId::new("brakka"),
            feet: 20
        }))
    );
    assert_eq!(
        game("bx-hold"),
        Ok(Command::Bx(BxCommand::OseHold {
            actor: CombatantId::new("brakka")
        }))
    );
    assert_eq!(
        game("bx-morale -1 ogre"),
        Ok(Command::Bx(BxCommand::OseMorale {
            combatants: vec![CombatantId::new("ogre")],
            adjustment: -1
        }))
    );
    assert_eq!(
        game("surprise both"),
        Ok(Command::Bx(BxCommand::RollSurprise {
            sides: vec![fray_protocol::Side::Heroes, fray_protocol::Side::Monsters]
        }))
    );
    assert!(game("shoot bow ogre far").is_err());
    assert_eq!(
        game("secret listen brakka 2"),
        Ok(Command::Bx(BxCommand::SecretRoll {
            check: fray_protocol::ose::SecretCheck::Listen,
            combatant: Some(CombatantId::new("brakka")),
            chance: 2,
            area: None
        }))
    );
    assert_eq!(
        game("secret stuck brakka"),
        Ok(Command::Bx(BxCommand::SecretRoll {
            check: fray_protocol::ose::SecretCheck::StuckDoor,
            combatant: Some(CombatantId::new("brakka")),
            chance: 1,
            area: None
        }))
    );
    assert_eq!(
        game("secret traps brakka @crypt-hall"),
        Ok(Command::Bx(BxCommand::SecretRoll {
            check: fray_protocol::ose::SecretCheck::RoomTrap,
            combatant: Some(CombatantId::new("brakka")),
            chance: 1,
            area: Some("crypt-hall".into())
        }))
    );
    assert_eq!(
        game("bx-turn 1 rest"),
        Ok(Command::Bx(BxCommand::ExplorationTurn {
            wandering: Some(1),
            rest: true
        }))
    );
    assert_eq!(
        game("bx-turn"),
        Ok(Command::Bx(BxCommand::ExplorationTurn {
            wandering: None,
            rest: false
        }))
    );
    assert_eq!(
        game("bx-light brakka lantern"),
        Ok(Command::Bx(BxCommand::LightSource {
            carrier: CombatantId::new("brakka"),
            source: fray_protocol::ose::LightSource::Lantern
        }))
    );
    assert!(game("bx-light brakka candle").is_err());
    assert_eq!(
        game("pass-time 90"),
        Ok(Command::Orcus(OrcusCommand::PassTime { minutes: 90 }))
    );
    assert!(game("pass-time soon").is_err());
    assert_eq!(
        game("save-half brakka breath 6d6 -1"),
        Ok(Command::Bx(BxCommand::SaveForHalf {
            combatant: CombatantId::new("brakka"),
            category: fray_protocol::ose::SaveCategory::Breath,
            damage: "6d6".into(),
            modifier: -1
        }))
    );
    assert_eq!(
        game("bx-check brakka str 2"),
        Ok(Command::Bx(BxCommand::AbilityCheck {
            combatant: CombatantId::new("brakka"),
            ability: fray_protocol::ose::OseAbility::Str,
            modifier: 2
        }))
    );
    assert_eq!(
        game("bomb roc 100 2d6 brakka odo"),
        Ok(Command::Bx(BxCommand::Bomb {
            attacker: CombatantId::new("roc"),
            targets: vec![CombatantId::new("brakka"), CombatantId::new("odo")],
            damage: "2d6".into(),
            altitude: 100
        }))
    );
    assert_eq!(
        game("fall brakka 30"),
        Ok(Command::Bx(BxCommand::Fall {
            combatant: CombatantId::new("brakka"),
            feet: 30
        }))
    );
    assert_eq!(
        game("bx-heal brakka 2"),
        Ok(Command::Bx(BxCommand::NaturalHealing {
            combatant: CombatantId::new("brakka"),
            days: 2
        }))
    );
    assert_eq!(
        game("distance water surprised"),
        Ok(Command::Bx(BxCommand::RollEncounterDistance {
            setting: fray_protocol::ose::EncounterSetting::Waterborne,
            surprised: true
        }))
    );
    assert_eq!(
        game("evade wilderness 120 240 3 5 +25"),
        Ok(Command::Bx(BxCommand::AttemptEvasion {
            setting: fray_protocol::ose::EncounterSetting::Wilderness,
            fleeing_rate: 120,
            pursuer_rate: 240,
            fleeing: 3,
            pursuers: 5,
            surprise: None,
            modifier: 25
        }))
    );
    assert_eq!(
        game("condition brakka blind on"),
        Ok(Command::Bx(BxCommand::OseCondition {
            combatant: CombatantId::new("brakka"),
            condition: fray_protocol::ose::OseCondition::Blind,
            on: true
        }))
    );
    assert!(game("condition brakka sleepy on").is_err());
    assert_eq!(
        game("bx-hire ada cole 1"),
        Ok(Command::Bx(BxCommand::HireRetainer {
            employer: CombatantId::new("ada"),
            retainer: CombatantId::new("cole"),
            adjustment: 1
        }))
    );
    assert_eq!(
        game("bx-day forced forest unfed=ada,bram leader=ada"),
        Ok(Command::Bx(BxCommand::PassDay {
            march: fray_protocol::bf::March::Forced,
            terrain: fray_protocol::bf::Terrain::Forest,
            unfed: vec![CombatantId::new("ada"), CombatantId::new("bram")],
            no_water: Vec::new(),
            leader: Some(CombatantId::new("ada")),
            water: None,
        }))
    );
    assert_eq!(
        game("bx-effect 3 @eve light spell"),
        Ok(Command::Bx(BxCommand::TimeEffect {
            name: "light spell".into(),
            combatant: Some(CombatantId::new("eve")),
            turns: 3
        }))
    );
    assert!(game("bx-load ada plate 10").is_err());
    assert_eq!(
        game("allies ysolde brenna"),
        Ok(Command::Orcus(OrcusCommand::ChooseAllies {
            actor: CombatantId::new("ysolde"),
            allies: vec![CombatantId::new("brenna")]
        }))
    );
    assert_eq!(
        game("decline-ally brenna ysolde"),
        Ok(Command::Orcus(OrcusCommand::DeclineAlly {
            actor: CombatantId::new("brenna"),
            user: CombatantId::new("ysolde")
        }))
    );
    assert_eq!(
        game("be-hit brenna ysolde"),
        Ok(Command::Orcus(OrcusCommand::ChooseToBeHit {
            actor: CombatantId::new("brenna"),
            attacker: CombatantId::new("ysolde")
        }))
    );
    assert!(game("be-hit brenna").is_err());
    assert_eq!(
        game("rider brenna take -1,0"),
        Ok(Command::Orcus(OrcusCommand::RiderChoices {
            actor: CombatantId::new("brenna"),
            move_mount: true,
            landing: Some(fray_protocol::grid::Square::new(-1, 0))
        }))
    );
    assert!(game("rider brenna sideways").is_err());
    assert_eq!(
        game("skill kael deter brute-1 move foreign"),
        Ok(Command::Orcus(OrcusCommand::SkillAction {
            actor: CombatantId::new("kael"),
            action: fray_protocol::command::SkillActionKind::Deter,
            target: CombatantId::new("brute-1"),
            effect: None,
            forbid: Some(fray_protocol::event::ActionKind::Move),
            foreign: true,
            hide: false,
        }))
    );
    assert_eq!(
        game("skill kael create-diversion hide"),
        Ok(Command::Orcus(OrcusCommand::SkillAction {
            actor: CombatantId::new("kael"),
            action: fray_protocol::command::SkillActionKind::CreateDiversion,
            target: CombatantId::new("kael"),
            effect: None,
            forbid: None,
            foreign: false,
            hide: true,
        }))
    );
    assert_eq!(
        game("search Kael"),
        Ok(Command::Orcus(OrcusCommand::Search {
            actor: CombatantId::new("kael"),
        }))
    );
    assert!(game("skill kael dance").is_err());
    assert_eq!(
        game("ready-counter Kael riposte"),
        Ok(Command::Orcus(OrcusCommand::ReadyCounter {
            actor: CombatantId::new("kael"),
            power: "riposte".into()
        }))
    );
    assert!(game("ready-counter kael").is_err());
    assert_eq!(
        game("reload tamsin crossbow"),
        Ok(Command::Orcus(OrcusCommand::Reload {
            actor: CombatantId::new("tamsin"),
            power: "crossbow".into()
        }))
    );
    assert_eq!(
        game("bx-douse brakka torch"),
        Ok(Command::Bx(BxCommand::DouseLight {
            carrier: CombatantId::new("brakka"),
            source: fray_protocol::ose::LightSource::Torch
        }))
    );
}

#[test]
fn five_torches_deep_commands() {
    use fray_protocol::ftd::{Ability, Advantage};
    assert_eq!(
        game("retreat"),
        Ok(Command::FiveTorches(FiveTorchesCommand::Retreat {
            actor: CombatantId::new("brakka")
        }))
    );
    assert_eq!(
        game("grant ogre dis"),
        Ok(Command::FiveTorches(FiveTorchesCommand::GrantAdvantage {
            combatant: CombatantId::new("ogre"),
            advantage: Advantage::Disadvantage
        }))
    );
    assert_eq!(
        game("check brakka dex 13 prof 2d6"),
        Ok(Command::FiveTorches(FiveTorchesCommand::Check {
            combatant: CombatantId::new("brakka"),
            ability: Ability::Dex,
            dc: 13,
            proficient: true,
            advantage: Advantage::None,
            damage: Some("2d6".into()),
            purpose: None,
            task: None
        }))
    );
    assert!(matches!(
        game("morale group goblin-1 goblin-2"),
        Ok(Command::FiveTorches(FiveTorchesCommand::MoraleCheck { group: true, ref combatants, .. })) if combatants.len() == 2
    ));
    assert!(matches!(
        game("resolve dex 12 ogre"),
        Ok(Command::FiveTorches(FiveTorchesCommand::ResolveRetreat { check: Some(_), ref attackers })) if attackers.len() == 1
    ));
    assert!(matches!(
        game("resolve"),
        Ok(Command::FiveTorches(FiveTorchesCommand::ResolveRetreat {
            check: None,
            ..
        }))
    ));
    assert!(game("grant ogre maybe").is_err());
}

#[test]
fn exact_ids_off_the_list_are_left_to_the_server() {
    assert_eq!(game("a 1 goblin-3"), Ok(attack_cmd("melee", &["goblin-3"])));
}

#[test]
fn attack_errors_are_helpful() {
    let e = game("a 9 1").expect_err("no attack 9");
    assert!(
        e.contains("no attack number 9") && e.contains("1 melee (Longsword)"),
        "{e}"
    );
    let e = game("a 1 7").expect_err("no target 7");
    assert!(
        e.contains("no target number 7") && e.contains("1 goblin-1"),
        "{e}"
    );
    let e = game("a 1 gob").expect_err("ambiguous");
    assert!(e.contains("goblin-1 or goblin-2"), "{e}");
    let e = game("a 1").expect_err("whom");
    assert!(e.contains("attack whom"), "{e}");
    let e = game("a 1 1 2").expect_err("too many");
    assert!(e.contains("at most 1 target"), "{e}");
    let e = game("a 3 1 1").expect_err("twice");
    assert!(e.contains("named twice"), "{e}");
    let e = game("attack").expect_err("with what");
    assert!(e.contains("attack with what"), "{e}");
    let e = game("a fireball 1").expect_err("unknown attack");
    assert!(e.contains("unknown attack `fireball`"), "{e}");
}

#[test]
fn five_torches_deep_clock_light_load_and_stealth_verbs() {
    use fray_protocol::ftd::{Advantage, LightLevel, LightSource, LightTask};
    let id = |s: &str| CombatantId::new(s);
    assert_eq!(
        game("light dark"),
        Ok(Command::FiveTorches(FiveTorchesCommand::SetLight {
            combatant: None,
            light: Some(LightLevel::Darkness)
        }))
    );
    assert_eq!(
        game("light hesk scene"),
        Ok(Command::FiveTorches(FiveTorchesCommand::SetLight {
            combatant: Some(id("hesk")),
            light: None
        }))
    );
    assert_eq!(
        game("torch hesk"),
        Ok(Command::FiveTorches(FiveTorchesCommand::CarryLight {
            actor: id("hesk"),
            source: Some(LightSource::Torch)
        }))
    );
    assert_eq!(
        game("douse"),
        Ok(Command::FiveTorches(FiveTorchesCommand::CarryLight {
            actor: id("brakka"),
            source: None
        }))
    );
    assert_eq!(
        game("load hesk 17 600"),
        Ok(Command::FiveTorches(FiveTorchesCommand::SetLoad {
            combatant: id("hesk"),
            load: 17,
            coins: 600
        }))
    );
    assert_eq!(
        game("loot hesk goblin-1"),
        Ok(Command::FiveTorches(FiveTorchesCommand::Loot {
            looter: id("hesk"),
            enemy: id("goblin-1")
        }))
    );
    assert_eq!(
        game("treasure hesk 120 30 unearned"),
        Ok(Command::FiveTorches(FiveTorchesCommand::Treasure {
            to: id("hesk"),
            gp: 120,
            sp: 30,
            cp: 0,
            unearned: true
        }))
    );
    assert_eq!(
        game("magic-item mirelle 300 ring of warmth"),
        Ok(Command::FiveTorches(FiveTorchesCommand::MagicItem {
            to: id("mirelle"),
            name: "ring of warmth".into(),
            value: 300
        }))
    );
    assert_eq!(
        game("sell mirelle 250 ring of warmth"),
        Ok(Command::FiveTorches(FiveTorchesCommand::SellItem {
            seller: id("mirelle"),
            name: "ring of warmth".into(),
            gp: 250
        }))
    );
    assert_eq!(
        game("journey 3 harsh tactical adv"),
        Ok(Command::FiveTorches(FiveTorchesCommand::TravelOverland {
            days: 3,
            terrain: fray_protocol::ftd::TravelTerrain::Harsh,
            pace: fray_protocol::ftd::TravelPace::Tactical,
            advantage: Advantage::Advantage
        }))
    );
    assert_eq!(
        game("voyage ship 48 favorable"),
        Ok(Command::FiveTorches(FiveTorchesCommand::TravelOverwater {
            vessel: fray_protocol::ftd::Vessel::Ship,
            hours: 48,
            current: fray_protocol::ftd::Current::Favorable,
            advantage: Advantage::None
        }))
    );
    assert!(parse("voyage raft 3", None).is_err());
    assert_eq!(
        game("travel adv"),
        Ok(Command::FiveTorches(FiveTorchesCommand::TravelTurn {
            advantage: Advantage::Advantage
        }))
    );
    assert_eq!(
        game("chase uneven 40 hesk mirelle group dis dc=-1"),
        Ok(Command::FiveTorches(FiveTorchesCommand::Chase {
            pursuers: vec![id("hesk"), id("mirelle")],
            speed: 40,
            terrain: fray_protocol::ftd::ChaseTerrain::Uneven,
            group: true,
            advantage: Advantage::Disadvantage,
            dc_modifier: -1
        }))
    );
    assert_eq!(
        game("corrupt hesk marsh_fever 13"),
        Ok(Command::FiveTorches(FiveTorchesCommand::CorruptionCheck {
            combatant: id("hesk"),
            name: Some("marsh fever".into()),
            dc: Some(13),
            check: None,
            damages: None
        }))
    );
    assert_eq!(
        game("time-dice 2"),
        Ok(Command::FiveTorches(FiveTorchesCommand::RollTimeDice {
            dice: 2,
            purpose: TimeDicePurpose::TimeOfDay,
            start_hour: None
        }))
    );
    assert_eq!(
        game("time-dice 1 from 5"),
        Ok(Command::FiveTorches(FiveTorchesCommand::RollTimeDice {
            dice: 1,
            purpose: TimeDicePurpose::TimeOfDay,
            start_hour: Some(5)
        }))
    );
    assert_eq!(
        game("time-dice 3 duration"),
        Ok(Command::FiveTorches(FiveTorchesCommand::RollTimeDice {
            dice: 3,
            purpose: TimeDicePurpose::Duration,
            start_hour: None
        }))
    );
    assert_eq!(
        game("set-time 7"),
        Ok(Command::FiveTorches(FiveTorchesCommand::SetTime {
            hour: 7
        }))
    );
    assert_eq!(
        game("cure hesk"),
        Ok(Command::FiveTorches(FiveTorchesCommand::EndCorruption {
            combatant: id("hesk")
        }))
    );
    assert_eq!(
        game("return arduous hesk"),
        Ok(Command::FiveTorches(FiveTorchesCommand::RollToReturn {
            path: fray_protocol::ftd::ReturnPath::Arduous,
            combatants: vec![id("hesk")]
        }))
    );
    assert_eq!(
        game("resilience hesk"),
        Ok(Command::FiveTorches(FiveTorchesCommand::ResilienceCheck {
            combatant: id("hesk")
        }))
    );
    assert_eq!(
        game("camp safe 2"),
        Ok(Command::FiveTorches(FiveTorchesCommand::Rest {
            safe: true,
            nights: 2
        }))
    );
    assert_eq!(
        game("hide"),
        Ok(Command::Hide {
            actor: id("brakka")
        })
    );
    assert_eq!(
        game("concentrate bless the party"),
        Ok(Command::FiveTorches(FiveTorchesCommand::Concentrate {
            actor: id("brakka"),
            effect: "bless the party".into()
        }))
    );
    assert_eq!(
        game("unconcentrate"),
        Ok(Command::FiveTorches(FiveTorchesCommand::EndConcentration {
            actor: id("brakka")
        }))
    );
    assert_eq!(
        game("ready-for active the door opens"),
        Ok(Command::FiveTorches(FiveTorchesCommand::ReadyAction {
            actor: id("brakka"),
            action: fray_protocol::event::ActionKind::Standard,
            trigger: "the door opens".into()
        }))
    );
    assert_eq!(
        game("stealth-dc 14"),
        Ok(Command::FiveTorches(FiveTorchesCommand::SetStealthDc {
            dc: Some(14)
        }))
    );
    assert_eq!(
        game("reveal hesk"),
        Ok(Command::Reveal {
            combatant: id("hesk")
        })
    );
    assert_eq!(
        game("exhaust hesk"),
        Ok(Command::FiveTorches(FiveTorchesCommand::Exhaust {
            combatant: id("hesk")
        }))
    );
    assert!(matches!(
        game("check hesk wis 12 sight"),
        Ok(Command::FiveTorches(FiveTorchesCommand::Check {
            task: Some(LightTask::Sight),
            damage: None,
            ..
        }))
    ));
    assert!(game("light murky").is_err());
}

#[test]
fn a_single_target_is_implied() {
    let mut m = menu();
    m.targets.truncate(1);
    assert_eq!(
        parse("a 1", Some(&m)),
        Ok(Input::Game(attack_cmd("melee", &["goblin-1"])))
    );
}

#[test]
fn turn_commands() {
    let brakka = || CombatantId::new("brakka");
    assert_eq!(
        game("move"),
        Ok(Command::Move {
            actor: brakka(),
            engage: None,
            far_away: false
        })
    );
    assert_eq!(game("r"), Ok(Command::Rally { actor: brakka() }));
    assert_eq!(game("end"), Ok(Command::EndTurn { actor: brakka() }));
    assert_eq!(game("end turn"), Ok(Command::EndTurn { actor: brakka() }));
    assert_eq!(game("end battle"), Ok(Command::EndBattle));
    assert_eq!(game("start"), Ok(Command::StartBattle));
    assert!(game("move fast").is_err());
    assert_eq!(
        game("crawl far"),
        Ok(Command::FiveTorches(FiveTorchesCommand::SpecialMove {
            actor: brakka(),
            engage: None,
            far_away: true
        }))
    );
}

#[test]
fn client_commands_and_blanks() {
    assert_eq!(parse("   ", None), Ok(Input::Empty));
    assert_eq!(parse("help", None), Ok(Input::Help(None)));
    assert_eq!(
        parse("help rally", None),
        Ok(Input::Help(Some("rally".to_owned())))
    );
    assert_eq!(parse("Q", None), Ok(Input::Quit));
    assert_eq!(parse("state", None), Ok(Input::State));
    assert_eq!(parse("start", None), Ok(Input::Game(Command::StartBattle)));
}

#[test]
fn an_attack_named_by_its_name_attacks_and_a_typo_gets_a_suggestion() {
    let by_id = game("melee goblin-1");
    assert_eq!(game("longsword goblin-1"), by_id);
    assert_eq!(
        game("Cleaving-Strike goblin-1 goblin-2"),
        game("cleave 1 2")
    );
    let e = game("atack melee goblin-1").expect_err("a typo");
    assert!(e.contains("did you mean `attack`?"), "{e}");
    let e = game("longswrd goblin-1").expect_err("a typo of an attack");
    assert!(e.contains("did you mean `longsword`?"), "{e}");
    let e = game("whisperr ada hello").expect_err("a typo of a talk verb");
    assert!(e.contains("did you mean `whisper`?"), "{e}");
    let e = game("xyzzy").expect_err("nothing near");
    assert!(!e.contains("did you mean"), "{e}");
}

#[test]
fn acting_needs_a_turn() {
    let e = parse("move", None).expect_err("no actor");
    assert!(e.contains("none of your combatants can act now"), "{e}");
    let e = parse("dance", None).expect_err("unknown");
    assert!(e.contains("unknown command `dance`"), "{e}");
}
