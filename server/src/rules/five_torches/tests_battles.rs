//! Five Torches Deep sessions of several battles (an encounter's `[[battles]]` with
//! `[options] rests = true`, brought in by the GM's `next_battle`), through the real engine.
//! The text describes one fight at a time; what carries from one to the next is its rules for
//! what lasts: hit points (§ Healing & HP), injuries (§ Stabilizing & Injuries), the dying
//! minute (§ Death & Injury).

use super::tests::{arena_toml, attack, close_to, end, started, turn_of};
use crate::rules::common::testing::{cid, cs, current, refusal, refuse, run};
use crate::rules::load_encounter;
use fray_protocol::event::GameEvent;
use fray_protocol::ftd::{Departure, MoraleTrigger};
use fray_protocol::state::{LifeStatus, Phase};
use fray_protocol::{Command, ErrorCode, FiveTorchesCommand};

const LATER: &str = r#"
[options]
rests = true
[[battles]]
title = "The crypt"
[[battles.monsters]]
template = "goon"
count = 2
"#;

fn session(hero_ac: i32, club: &str) -> crate::content::model::Encounter {
    let text = format!("{}{LATER}", arena_toml(hero_ac, 12, club));
    load_encounter("crypt.toml", &text).unwrap()
}

fn content_error(extra: &str) -> String {
    let text = format!("{}{extra}", arena_toml(14, 12, "1"));
    load_encounter("crypt.toml", &text).unwrap_err().to_string()
}

/// Later battles load with ids numbered on from the first battle's (`goon-3`, not a second
/// `goon-1`), so every id is unique in the session; a later battle needs the rests option, a
/// monster group and known templates, and errors name the field.
#[test]
fn later_battles_load_with_ids_unique_in_the_session_and_errors_name_the_field() {
    let enc = session(14, "1");
    assert_eq!(enc.battles.len(), 1);
    assert_eq!(enc.battles[0].title, "The crypt");
    let ids: Vec<&str> = enc.battles[0]
        .monsters
        .iter()
        .map(|m| m.id.as_str())
        .collect();
    assert_eq!(ids, ["goon-3", "goon-4"]);
    assert!(enc.battles[0].monsters.iter().all(|m| m.ftd.is_some()));

    let e = content_error("[[battles]]\n[[battles.monsters]]\ntemplate = \"goon\"\n");
    assert!(
        e.contains("crypt.toml: battles: later battles come after rests"),
        "{e}"
    );
    let e = content_error("[options]\nrests = true\n[[battles]]\ntitle = \"Empty\"\n");
    assert!(
        e.contains("battles[0].monsters: a battle needs at least one monster group"),
        "{e}"
    );
    let e = content_error(
        "[options]\nrests = true\n[[battles]]\n[[battles.monsters]]\ntemplate = \"wyrm\"\n",
    );
    assert!(
        e.contains("battles[0].monsters[0].template: no monster template 'wyrm'"),
        "{e}"
    );
}

/// After the first battle the GM's `next_battle` brings in the second's monsters: the first's
/// leave, the heroes keep their hit points, a PC who escaped (§ Retreat) is with the party
/// again, the new battle starts in setup with the DEX order (§ initiative) and its own
/// battle-start morale check (§ Morale) for the new monsters; there is no third.
#[test]
fn the_next_battle_brings_new_monsters_against_the_same_heroes_death_and_injury() {
    let enc = session(14, "1");
    let mut e = started(&enc, 3);
    assert_eq!(e.state().battles, 2);
    assert_eq!(
        refuse(&mut e, &Command::NextBattle),
        ErrorCode::BattleNotStarted,
        "not while the battle runs"
    );
    turn_of(&mut e, "ada");
    run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::Retreat { actor: cid("ada") }),
    );
    run(
        &mut e,
        &Command::FiveTorches(FiveTorchesCommand::ResolveRetreat {
            check: None,
            attackers: Vec::new(),
        }),
    );
    assert_eq!(
        cs(&e, "ada").ftd.unwrap().departed,
        Some(Departure::Escaped)
    );
    let hp_before: Vec<(String, Option<i32>)> = ["ada", "bram", "cleo"]
        .iter()
        .map(|h| (h.to_string(), cs(&e, h).hp))
        .collect();
    run(&mut e, &Command::EndBattle);
    let ev = run(&mut e, &Command::NextBattle);
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::NewBattle { battle: 2, title, monsters }
            if title == "The crypt" && monsters == &vec![cid("goon-3"), cid("goon-4")]
    )));
    let s = e.state();
    assert_eq!((s.battle, s.phase), (2, Phase::Setup));
    for gone in ["boss-1", "goon-1", "goon-2"] {
        assert!(s.combatant(&cid(gone)).is_none(), "{gone} left");
    }
    let hp_after: Vec<(String, Option<i32>)> = ["ada", "bram", "cleo"]
        .iter()
        .map(|h| (h.to_string(), cs(&e, h).hp))
        .collect();
    assert_eq!(hp_after, hp_before, "hit points carry over");
    assert_eq!(cs(&e, "ada").ftd.unwrap().departed, None, "Ada is back");
    assert_eq!(e.state().ftd.unwrap().retreat, None);

    let ev = run(&mut e, &Command::StartBattle);
    assert!(ev.iter().any(|x| matches!(
        x,
        GameEvent::MoraleProposed { trigger: MoraleTrigger::BattleStart, combatants }
            if combatants == &vec![cid("goon-3"), cid("goon-4")]
    )));
    let order = e.state().order;
    assert!(order.contains(&cid("ada")) && order.contains(&cid("goon-3")));
    assert!(!order.contains(&cid("goon-1")));
    turn_of(&mut e, "ada");
    run(&mut e, &end("ada"));
    run(&mut e, &Command::EndBattle);
    let r = refusal(&mut e, &Command::NextBattle);
    assert_eq!(r.code, ErrorCode::InvalidArgument);
    assert!(r.message.contains("no more battles"), "{r}");
    run(&mut e, &Command::EndSession);
    assert!(e.state().seed_revealed);
}

/// § Death & Injury: an incapacitated PC is "dead if not stabilized within 1 minute or by the
/// end of the fight (whichever is later)" — the next battle waits until the PC is stabilized
/// or dead, as a rest does.
#[test]
fn no_next_battle_while_a_pc_lies_incapacitated_death_and_injury() {
    let enc = session(1, "20");
    let mut e = started(&enc, 5);
    turn_of(&mut e, "goon-1");
    run(&mut e, &close_to("goon-1", "bram"));
    run(&mut e, &attack("goon-1", "club", "bram"));
    assert_eq!(cs(&e, "bram").status, LifeStatus::Unconscious);
    let goon = current(&e);
    run(&mut e, &end(&goon));
    run(&mut e, &Command::EndBattle);
    assert_eq!(
        cs(&e, "bram").status,
        LifeStatus::Unconscious,
        "the minute runs"
    );
    let r = refusal(&mut e, &Command::NextBattle);
    assert_eq!(r.code, ErrorCode::InvalidArgument);
    assert!(r.message.contains("stabilized or dies first"), "{r}");
}
