//! GM overrides decided the same way in every ruleset, by the one decide wrapper
//! (`decide::DecideIo::pass`) before the ruleset's own decide: corrections of the numbers
//! that change no status, so no ruleset's rule is bypassed.
//!
//! - `set_hp`: a combatant in the fight gets 1 to its maximum hit points and temporary hit
//!   points ≥ 0; a combatant that is down is refused (the rules' healing and revival bring it
//!   back). The event carries the change, so a public fold (a monster's `hp_after` hidden)
//!   gives the same state.
//! - `add_condition` / `remove_condition`: in rulesets whose conditions are the common effects
//!   (the row's `conditions`), an `effect_applied` (its duration run by the ruleset's own turn
//!   machinery) or `effect_ended` (`cleared`); a ruleset with conditions of its own decides
//!   them itself (`None` here).
//! - `remove_combatant`: the effects it caused end, then `combatant_removed`.
//! - `set_initiative`: `initiative_set`, then the order with the combatant in its new place
//!   (`initiative_reordered`); refused where initiative is per side.
//! - `add_combatant`: a copy of an encounter stat block (`combatant_added`) under an id the log
//!   never gave before (`AddedIds`) and a distinct name, joining the order as the row's
//!   `initiative` rule says (its roll drawn here). A ruleset with squares (its row's
//!   `parts.place`) decides it in its own decide, which checks the square on its map and calls
//!   [`add_combatant`] with that check.
//!
//! Every override but `set_hp` (whose event is its own mark) begins with `gm_override`.

use super::decider::Decider;
use super::guards::R;
use crate::rules::registry::{Conditions, InitiativeRule, Ruleset};
use fray_protocol::event::{Condition, Effect, EffectDuration, EffectEndReason, EffectKind};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::state::Phase;
use fray_protocol::{Command, ErrorCode, GameEvent, Rejection};

/// Decides an override (`None` for any other command).
pub fn decide(d: &mut Decider, command: &Command) -> Option<R> {
    match command {
        Command::SetHp {
            target,
            hp,
            temp_hp,
        } => Some(set_hp(d, target, *hp, *temp_hp)),
        Command::AddCondition { .. } | Command::RemoveCondition { .. } => conditions(d, command),
        Command::RemoveCombatant { combatant } => Some(remove_combatant(d, combatant)),
        Command::SetInitiative {
            combatant,
            initiative,
        } => Some(set_initiative(d, combatant, *initiative)),
        Command::AddCombatant { template, square } => match row(d) {
            Err(e) => Some(Err(e)),
            // A ruleset with squares decides it itself: it checks the square on its map.
            Ok(r) if r.parts.place.is_some() => None,
            Ok(_) => Some(add_combatant(d, template, *square, &|_, _, _| Ok(()))),
        },
        _ => None,
    }
}

/// The session's ruleset row.
fn row(d: &Decider) -> Result<&'static Ruleset, Rejection> {
    crate::rules::registry::ruleset(&d.field.battle.ruleset)
        .ok_or_else(|| bad("this session's ruleset is not played by this build".into()))
}

fn known(d: &Decider, id: &CombatantId) -> R {
    match d.field.get(id) {
        Some(_) => Ok(()),
        None => Err(Rejection::new(
            ErrorCode::UnknownCombatant,
            format!("no combatant '{id}' in this fight"),
        )),
    }
}

fn mark(d: &mut Decider, command: &str, combatant: Option<&CombatantId>) {
    d.emit(GameEvent::GmOverride {
        command: command.into(),
        combatant: combatant.cloned(),
    });
}

/// A condition's wire name (`dazed`, `off_guard`).
fn wire_name(c: Condition) -> String {
    serde_json::to_value(c)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

/// The condition overrides of a ruleset whose conditions are the common effects; `None` for a
/// ruleset that decides its own.
fn conditions(d: &mut Decider, command: &Command) -> Option<R> {
    let (valid, saves) = match row(d) {
        Err(e) => return Some(Err(e)),
        Ok(r) => match r.conditions {
            Conditions::Effects(valid, saves) => (valid, saves),
            Conditions::Own(_) => return None,
            Conditions::None => {
                return Some(Err(bad(
                    "this ruleset tracks no conditions the GM can set (valid: none)".into(),
                )));
            }
        },
    };
    let (target, name) = match command {
        Command::AddCondition {
            target, condition, ..
        }
        | Command::RemoveCondition { target, condition } => (target, condition),
        _ => return None,
    };
    let Some(condition) = valid.iter().copied().find(|c| wire_name(*c) == *name) else {
        let names: Vec<String> = valid.iter().map(|c| wire_name(*c)).collect();
        return Some(Err(bad(format!(
            "'{name}' is not a condition of this ruleset (valid: {})",
            names.join(", ")
        ))));
    };
    Some(match command {
        Command::AddCondition {
            duration, source, ..
        } => add_condition(
            d,
            target,
            condition,
            duration.clone(),
            source.as_ref(),
            saves,
        ),
        _ => remove_condition(d, target, condition, name),
    })
}

fn add_condition(
    d: &mut Decider,
    target: &CombatantId,
    condition: Condition,
    duration: Option<EffectDuration>,
    source: Option<&CombatantId>,
    saves: &[fray_protocol::event::SaveDifficulty],
) -> R {
    known(d, target)?;
    let source = source.unwrap_or(target);
    known(d, source)?;
    if d.field.battle.phase != Phase::Running {
        return Err(bad(
            "conditions last within a battle: add them while it runs".into(),
        ));
    }
    let duration = duration.unwrap_or(EffectDuration::EndOfBattle);
    if let EffectDuration::SaveEnds(s) = duration
        && !saves.contains(&s)
    {
        return Err(bad(format!(
            "this ruleset's saves are {}",
            saves
                .iter()
                .map(|s| format!("{s:?}").to_lowercase())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    mark(d, "add_condition", Some(target));
    let id = d.effect_id();
    d.emit(GameEvent::EffectApplied {
        effect: Effect {
            id,
            target: target.clone(),
            source: source.clone(),
            kind: EffectKind::Condition(condition),
            duration,
            armed: false,
        },
    });
    Ok(())
}

fn remove_condition(d: &mut Decider, target: &CombatantId, condition: Condition, name: &str) -> R {
    known(d, target)?;
    let ended: Vec<u32> = d
        .field
        .get(target)
        .map(|f| {
            f.fx.0
                .iter()
                .filter(|e| e.kind == EffectKind::Condition(condition))
                .map(|e| e.id)
                .collect()
        })
        .unwrap_or_default();
    if ended.is_empty() {
        return Err(bad(format!("{target} is not {name}")));
    }
    mark(d, "remove_condition", Some(target));
    for effect in ended {
        d.emit(GameEvent::EffectEnded {
            target: target.clone(),
            effect,
            reason: EffectEndReason::Cleared,
        });
    }
    Ok(())
}

/// The combatant leaves: the effects it caused on others end, then it is removed (the fold
/// takes it out of the order; the ruleset's turn machinery goes on and checks the battle's
/// end as after any departure).
fn remove_combatant(d: &mut Decider, id: &CombatantId) -> R {
    known(d, id)?;
    mark(d, "remove_combatant", Some(id));
    let mut ended = Vec::new();
    for f in d.field.all() {
        if f.c.id == *id {
            continue;
        }
        for e in f.fx.0.iter().filter(|e| e.source == *id) {
            ended.push((f.c.id.clone(), e.id));
        }
    }
    for (target, effect) in ended {
        d.emit(GameEvent::EffectEnded {
            target,
            effect,
            reason: EffectEndReason::Cleared,
        });
    }
    d.emit(GameEvent::CombatantRemoved {
        combatant: id.clone(),
    });
    Ok(())
}

/// The order of battle with `id` placed after every combatant whose result is at least
/// `result` (its ties keep their places), and the index of the current (or last) turn's
/// combatant in it.
fn placed(d: &Decider, id: &CombatantId, result: i32) -> (Vec<CombatantId>, Option<u32>) {
    let b = &d.field.battle;
    let last = b.turn_index.and_then(|i| b.order.get(i)).cloned();
    let mut order: Vec<CombatantId> = b.order.iter().filter(|c| *c != id).cloned().collect();
    let at = order
        .iter()
        .position(|c| {
            d.field
                .get(c)
                .and_then(|f| f.init.result)
                .is_some_and(|r| r < result)
        })
        .unwrap_or(order.len());
    order.insert(at, id.clone());
    let turn_index = last
        .and_then(|c| order.iter().position(|x| *x == c))
        .and_then(|i| u32::try_from(i).ok());
    (order, turn_index)
}

fn set_initiative(d: &mut Decider, id: &CombatantId, initiative: i32) -> R {
    if row(d)?.initiative == InitiativeRule::PerSide {
        return Err(bad(
            "in this ruleset initiative is rolled per side each round: a combatant acts with its side and has no initiative of its own to set".into(),
        ));
    }
    known(d, id)?;
    if d.field.battle.phase != Phase::Running || d.field.battle.surprise.is_some() {
        return Err(bad(
            "initiative is set in a running battle, after any surprise round".into(),
        ));
    }
    if !d.field.battle.order.contains(id) {
        return Err(bad(format!("{id} is not in the order of battle")));
    }
    if !(-100..=100).contains(&initiative) {
        return Err(bad("initiative is from -100 to 100".into()));
    }
    mark(d, "set_initiative", Some(id));
    d.emit(GameEvent::InitiativeSet {
        combatant: id.clone(),
        initiative,
    });
    // Its own old result no longer counts (`placed` skips it).
    let (order, turn_index) = placed(d, id, initiative);
    d.emit(GameEvent::InitiativeReordered { order, turn_index });
    Ok(())
}

/// A fresh id for a reinforcement of `template`: `<template>-<n>`, n one more than any such id
/// in the fight, among the encounter's stat blocks (a later battle's monsters included) or
/// ever given to a reinforcement (removed or rewound away: an id names one combatant for the
/// whole log).
fn fresh_id(d: &Decider, template: &str) -> (CombatantId, u32) {
    let prefix = format!("{template}-");
    let number = |id: &str| -> u32 {
        id.strip_prefix(&prefix)
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    let in_fight = d.field.all().map(|f| number(f.c.id.as_str())).max();
    let in_blocks = d
        .field
        .bestiary
        .as_ref()
        .and_then(|b| b.0.iter().map(|s| number(s.id.as_str())).max());
    let ever = d
        .field
        .added
        .as_ref()
        .and_then(|a| a.0.iter().map(|id| number(id.as_str())).max());
    let n = in_fight
        .max(in_blocks)
        .max(ever)
        .unwrap_or(0)
        .saturating_add(1);
    (CombatantId::new(format!("{template}-{n}")), n)
}

/// A reinforcement's display name: its block's name without a trailing number, then a number
/// (its id's, or the next free one) so that no combatant in the fight has the same name
/// ("Goblin 3" beside "Goblin", "Goblin 2").
fn fresh_name(d: &Decider, block_name: &str, n: u32) -> String {
    let base = match block_name.rsplit_once(' ') {
        Some((head, tail)) if !head.is_empty() && tail.chars().all(|c| c.is_ascii_digit()) => head,
        _ => block_name,
    };
    let taken = |name: &str| d.field.all().any(|f| f.c.name == name);
    (n..n.saturating_add(1000))
        .map(|k| format!("{base} {k}"))
        .find(|name| !taken(name))
        .unwrap_or_else(|| format!("{base} {n}"))
}

/// Where a ruleset with squares may put a newcomer: `Ok` or why not (its decide's own check).
pub(crate) type SquareCheck<'a> =
    &'a dyn Fn(&Decider, &crate::content::model::CombatantSpec, fray_protocol::grid::Square) -> R;

/// The GM's reinforcement: a copy of a stat block of the encounter under a fresh id and a
/// distinct name, at `square` where the ruleset has squares (`check` refuses a square the
/// ruleset's map does not allow). Every refusal comes before the first die.
pub(crate) fn add_combatant(
    d: &mut Decider,
    template: &str,
    square: Option<fray_protocol::grid::Square>,
    check: SquareCheck<'_>,
) -> R {
    let row = row(d)?;
    let rule = row.initiative;
    let Some(spec) = d
        .field
        .bestiary
        .as_ref()
        .and_then(|b| b.block(template))
        .cloned()
    else {
        let mut names: Vec<String> = d
            .field
            .bestiary
            .as_ref()
            .map(|b| b.0.iter().map(|s| s.template.clone()).collect())
            .unwrap_or_default();
        names.sort();
        names.dedup();
        return Err(bad(format!(
            "no stat block '{template}' in this session's encounter or its reserves (valid: {})",
            names.join(", ")
        )));
    };
    if d.field.battle.phase == Phase::Ended {
        return Err(bad(
            "the battle is over: reinforcements join a battle being set up or running".into(),
        ));
    }
    match (row.parts.place, square) {
        (Some(_), None) => {
            return Err(bad("a combatant on the grid needs a square".into()));
        }
        (None, Some(_)) => {
            return Err(bad("this ruleset has no squares: send no square".into()));
        }
        (Some(_), Some(sq)) => check(d, &spec, sq)?,
        (None, None) => {}
    }
    let (id, n) = fresh_id(d, template);
    let name = fresh_name(d, &spec.name, n);
    mark(d, "add_combatant", Some(&id));
    d.emit(GameEvent::CombatantAdded {
        combatant: id.clone(),
        template: template.to_string(),
        name,
        square,
    });
    if d.field.battle.phase == Phase::Running {
        join_order(d, &id, &spec, rule);
    }
    Ok(())
}

/// A reinforcement in a running battle takes its place in the order as the ruleset places
/// combatants (during a surprise round it acts from the next order of battle on).
fn join_order(
    d: &mut Decider,
    id: &CombatantId,
    spec: &crate::content::model::CombatantSpec,
    rule: InitiativeRule,
) {
    let result = match rule {
        InitiativeRule::RollD20 { shared } => {
            let group = shared && spec.side == Side::Monsters;
            let kin = d
                .field
                .all()
                .filter(|f| group && f.c.side == Side::Monsters && f.c.template == spec.template)
                .find_map(|f| f.init.result);
            if let Some(total) = kin {
                d.emit(GameEvent::InitiativeSet {
                    combatant: id.clone(),
                    initiative: total,
                });
                total
            } else {
                let roll = d.d20();
                let total = roll.total + spec.initiative;
                d.emit(GameEvent::InitiativeRolled {
                    combatants: vec![id.clone()],
                    roll,
                    bonus: spec.initiative,
                    total,
                    modifiers: fray_protocol::roll::Modifiers::new()
                        .with("initiative bonus", spec.initiative)
                        .into_vec(),
                });
                total
            }
        }
        InitiativeRule::Score => {
            d.emit(GameEvent::InitiativeSet {
                combatant: id.clone(),
                initiative: spec.initiative,
            });
            spec.initiative
        }
        InitiativeRule::PerSide => {
            if d.field.battle.surprise.is_none() {
                let (order, turn_index) = with_side(d, id, spec.side);
                d.emit(GameEvent::InitiativeReordered { order, turn_index });
            }
            return;
        }
    };
    if d.field.battle.surprise.is_none() {
        let (order, turn_index) = placed(d, id, result);
        d.emit(GameEvent::InitiativeReordered { order, turn_index });
    }
}

/// Side initiative: the order with `id` after the last of its side (at the end when its side
/// has no one in it), so it acts when its side does — this round if its side has yet to act.
fn with_side(d: &Decider, id: &CombatantId, side: Side) -> (Vec<CombatantId>, Option<u32>) {
    let b = &d.field.battle;
    let mut order = b.order.clone();
    let at = order
        .iter()
        .rposition(|c| d.field.get(c).is_some_and(|f| f.c.side == side))
        .map_or(order.len(), |i| i + 1);
    order.insert(at, id.clone());
    let turn_index = b
        .turn_index
        .map(|t| if at <= t { t + 1 } else { t })
        .and_then(|i| u32::try_from(i).ok());
    (order, turn_index)
}

fn bad(message: String) -> Rejection {
    Rejection::new(ErrorCode::InvalidArgument, message)
}

fn set_hp(
    d: &mut Decider,
    target: &fray_protocol::CombatantId,
    hp: i32,
    temp_hp: Option<i32>,
) -> R {
    let Some(f) = d.field.get(target) else {
        return Err(Rejection::new(
            ErrorCode::UnknownCombatant,
            format!("no combatant '{target}' in this fight"),
        ));
    };
    let (current, max, temp) = (f.hp.current, f.hp.max, f.hp.temp);
    if !f.vit.0.is_up() {
        return Err(bad(format!(
            "{target} is down ({:?}): an override does not revive; heal or revive it by the rules",
            f.vit.0
        )));
    }
    if !(1..=max).contains(&hp) {
        return Err(bad(format!(
            "{target}'s hit points can be set from 1 to its maximum {max} (an override drops no one: deal damage by the rules)"
        )));
    }
    let temp_after = temp_hp.unwrap_or(temp);
    if temp_after < 0 {
        return Err(bad("temporary hit points cannot be negative".into()));
    }
    d.emit(GameEvent::HpOverridden {
        target: target.clone(),
        change: hp - current,
        hp_after: Some(hp),
        temp_after,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::common::testing::*;
    use fray_protocol::CombatantId;

    fn set(target: &str, hp: i32, temp_hp: Option<i32>) -> Command {
        Command::SetHp {
            target: CombatantId::new(target),
            hp,
            temp_hp,
        }
    }

    #[test]
    fn set_hp_changes_the_numbers_in_every_ruleset_and_nothing_else() {
        for ruleset in crate::rules::ids() {
            let (name, text) = crate::rules::builtin_encounters(ruleset)[0];
            let enc = crate::rules::load_encounter(name, text).unwrap();
            let mut e = new_engine(&enc, 5);
            let state = e.state();
            let c = &state.combatants[0];
            let (max, id) = (c.max_hp.unwrap_or(1), c.id.to_string());
            let events = run(&mut e, &set(&id, 1, Some(3)));
            assert!(
                matches!(&events[..], [GameEvent::HpOverridden { change, .. }] if *change == 1 - c.hp.unwrap_or(0)),
                "{ruleset}: {events:?}"
            );
            let after = e.state();
            let a = after.combatants.iter().find(|x| x.id == c.id).unwrap();
            assert_eq!(
                (a.hp, a.temp_hp, a.status),
                (Some(1), 3, c.status),
                "{ruleset}"
            );
            for (hp, temp) in [(0, None), (max + 1, None), (1, Some(-1))] {
                let r = refusal(&mut e, &set(&id, hp, temp));
                assert_eq!(
                    r.code,
                    ErrorCode::InvalidArgument,
                    "{ruleset} {hp} {temp:?}"
                );
            }
            assert_eq!(
                refusal(&mut e, &set("nobody", 1, None)).code,
                ErrorCode::UnknownCombatant
            );
        }
    }
}

#[cfg(test)]
mod tests_more {
    use super::*;
    use crate::content::model::Encounter;
    use crate::engine::Engine;
    use crate::rules::common::testing::*;
    use fray_protocol::state::SessionState;

    /// The ruleset's first built-in encounter (`tests_reinforce` shares it).
    pub(super) fn encounter(ruleset: &str) -> Encounter {
        let (name, text) = crate::rules::builtin_encounters(ruleset)[0];
        crate::rules::load_encounter(name, text).unwrap()
    }

    /// A running battle of the ruleset's first built-in encounter, and every event so far.
    fn running(ruleset: &str, seed: u64) -> (Encounter, Engine, Vec<GameEvent>) {
        let enc = encounter(ruleset);
        let mut e = new_engine(&enc, seed);
        let events = run(&mut e, &Command::StartBattle);
        (enc, e, events)
    }

    /// Folding the events (the GM's and the public, redacted ones) and restoring a snapshot
    /// give the engine's state.
    pub(super) fn folds_alike(enc: &Encounter, seed: u64, e: &Engine, events: &[GameEvent]) {
        let mut gm = new_engine(enc, seed);
        let mut public = new_engine(enc, seed);
        for ev in events {
            gm.apply(ev);
            public.apply(&ev.redacted(|id| !is_hero(enc, id)));
        }
        assert_eq!(gm.state_hash(), e.state_hash(), "the GM's fold");
        let redact = |s: SessionState| {
            let mut s = s;
            for c in &mut s.combatants {
                if c.side == Side::Monsters {
                    c.hp = None;
                }
            }
            s
        };
        assert_eq!(redact(public.state()), redact(e.state()), "the public fold");
        let restored = Engine::restore(
            enc,
            &e.state(),
            crate::dice::SessionRng::from_seed(seed),
            secret(seed),
        )
        .unwrap_or_else(|r| panic!("restore: {r}"));
        assert_eq!(restored.state_hash(), e.state_hash(), "the snapshot");
    }

    fn is_hero(enc: &Encounter, id: &CombatantId) -> bool {
        enc.combatants
            .iter()
            .any(|c| &c.id == id && c.side == Side::Heroes)
    }

    pub(super) fn add(template: &str, square: Option<fray_protocol::grid::Square>) -> Command {
        Command::AddCombatant {
            template: template.into(),
            square,
        }
    }

    pub(super) fn monster_template(enc: &Encounter) -> String {
        enc.combatants
            .iter()
            .find(|c| c.side == Side::Monsters)
            .map(|c| c.template.clone())
            .unwrap()
    }

    /// Ends turns (as the GM) until `id`'s turn starts; returns whose turn came just before.
    fn play_until(e: &mut Engine, id: &CombatantId, log: &mut Vec<GameEvent>) -> CombatantId {
        let mut before = cid(&current(e));
        for _ in 0..40 {
            let now = cid(&current(e));
            if now == *id {
                return before;
            }
            before = now.clone();
            log.extend(run(e, &Command::EndTurn { actor: now }));
        }
        panic!("{id} never took a turn");
    }

    #[test]
    fn a_reinforcement_takes_its_turn_in_initiative_order() {
        for (ruleset, seed) in [("13th-age", 3), ("orcus", 4), ("five-torches-deep", 5)] {
            let (enc, mut e, mut log) = running(ruleset, seed);
            let template = monster_template(&enc);
            let square = enc
                .map
                .as_ref()
                .map(|_| fray_protocol::grid::Square { x: 0, y: 0 });
            // Orcus: a free square near the map's corner.
            let square = square.and_then(|_| {
                (0..12)
                    .flat_map(|y| (0..12).map(move |x| fray_protocol::grid::Square { x, y }))
                    .find(|s| e.check(&add(&template, Some(*s))).is_ok())
            });
            let events = run(&mut e, &add(&template, square));
            assert!(
                matches!(&events[0], GameEvent::GmOverride { command, .. } if command == "add_combatant"),
                "{ruleset}: {events:?}"
            );
            let Some(GameEvent::CombatantAdded { combatant: id, .. }) = events.get(1).cloned()
            else {
                panic!("{ruleset}: {events:?}")
            };
            log.extend(events);
            let state = e.state();
            assert!(state.combatant(&id).is_some(), "{ruleset}");
            let at = state.order.iter().position(|c| *c == id).expect("in order");
            // Its place: after every combatant of an equal or higher result.
            let mine = state.combatant(&id).and_then(|c| c.initiative);
            for (i, other) in state.order.iter().enumerate() {
                let theirs = state.combatant(other).and_then(|c| c.initiative);
                if i < at {
                    assert!(theirs >= mine, "{ruleset}: {other} before {id}");
                } else if i > at {
                    assert!(theirs <= mine, "{ruleset}: {other} after {id}");
                }
            }
            folds_alike(&enc, seed, &e, &log);
            let before = play_until(&mut e, &id, &mut log);
            let order = e.state().order;
            let expected = order[..at]
                .iter()
                .rev()
                .chain(order[at + 1..].iter().rev())
                .find(|c| e.state().combatant(c).is_some_and(|s| !s.status.is_out()))
                .cloned();
            assert_eq!(Some(before), expected, "{ruleset}: {order:?}");
            folds_alike(&enc, seed, &e, &log);
        }
    }

    #[test]
    fn reinforcement_ids_are_fresh_and_unknown_templates_are_refused_with_the_valid_ones() {
        let (enc, mut e, _) = running("13th-age", 7);
        let template = monster_template(&enc);
        let mut ids = Vec::new();
        for _ in 0..2 {
            let ev = run(&mut e, &add(&template, None));
            if let Some(GameEvent::CombatantAdded { combatant, .. }) = ev.get(1) {
                ids.push(combatant.clone());
            }
        }
        assert_eq!(ids.len(), 2);
        assert_ne!(ids[0], ids[1]);
        assert!(enc.combatants.iter().all(|c| !ids.contains(&c.id)));
        let r = refusal(&mut e, &add("dragon", None));
        assert_eq!(r.code, ErrorCode::InvalidArgument);
        assert!(r.message.contains(&template), "{}", r.message);
        let r = refusal(
            &mut e,
            &add(&template, Some(fray_protocol::grid::Square { x: 1, y: 1 })),
        );
        assert_eq!(r.code, ErrorCode::InvalidArgument);
    }

    #[test]
    fn removing_the_combatant_whose_turn_it_is_starts_the_next_turn() {
        for (ruleset, seed) in [("13th-age", 3), ("orcus", 4), ("five-torches-deep", 5)] {
            let (enc, mut e, mut log) = running(ruleset, seed);
            let order = e.state().order;
            let now = cid(&current(&e));
            let at = order.iter().position(|c| *c == now).unwrap();
            let events = run(
                &mut e,
                &Command::RemoveCombatant {
                    combatant: now.clone(),
                },
            );
            assert!(
                events.iter().any(|ev| matches!(ev, GameEvent::CombatantRemoved { combatant } if *combatant == now)),
                "{ruleset}: {events:?}"
            );
            log.extend(events);
            let state = e.state();
            assert!(state.combatant(&now).is_none(), "{ruleset}");
            assert!(!state.order.contains(&now), "{ruleset}");
            // The next in the order acts, in the same round.
            let next = order[at + 1..]
                .iter()
                .find(|c| state.combatant(c).is_some_and(|s| !s.status.is_out()));
            assert_eq!(state.current.as_ref(), next, "{ruleset}");
            folds_alike(&enc, seed, &e, &log);
            assert_eq!(
                refuse(&mut e, &Command::RemoveCombatant { combatant: now }),
                ErrorCode::UnknownCombatant
            );
        }
    }

    #[test]
    fn removing_every_monster_ends_the_battle() {
        let (_, mut e, _) = running("13th-age", 3);
        let monsters: Vec<CombatantId> = e
            .state()
            .combatants
            .iter()
            .filter(|c| c.side == Side::Monsters)
            .map(|c| c.id.clone())
            .collect();
        for m in monsters {
            run(&mut e, &Command::RemoveCombatant { combatant: m });
        }
        assert_eq!(e.state().phase, Phase::Ended);
        assert_eq!(e.state().winner, Some(Side::Heroes));
    }

    #[test]
    fn set_initiative_reorders_and_is_refused_where_initiative_is_per_side() {
        for (ruleset, seed) in [("13th-age", 3), ("orcus", 4), ("five-torches-deep", 5)] {
            let (_, mut e, _) = running(ruleset, seed);
            let last = e.state().order.last().cloned().unwrap();
            let now = cid(&current(&e));
            run(
                &mut e,
                &Command::SetInitiative {
                    combatant: last.clone(),
                    initiative: 99,
                },
            );
            let state = e.state();
            assert_eq!(state.order[0], last, "{ruleset}");
            assert_eq!(state.current, Some(now), "{ruleset}: the turn goes on");
            assert_eq!(state.combatant(&last).and_then(|c| c.initiative), Some(99));
        }
        for ruleset in ["ose", "basic-fantasy"] {
            let enc = encounter(ruleset);
            let mut e = new_engine(&enc, 1);
            let id = enc.combatants[0].id.clone();
            let r = refusal(
                &mut e,
                &Command::SetInitiative {
                    combatant: id,
                    initiative: 3,
                },
            );
            assert_eq!(r.code, ErrorCode::InvalidArgument);
            assert!(r.message.contains("per side"), "{}", r.message);
        }
    }

    fn add_condition(target: &CombatantId, condition: &str) -> Command {
        Command::AddCondition {
            target: target.clone(),
            condition: condition.into(),
            duration: None,
            source: None,
        }
    }

    #[test]
    fn conditions_are_added_and_removed_as_each_ruleset_models_them() {
        for (ruleset, seed, name) in [("13th-age", 3, "dazed"), ("orcus", 4, "prone")] {
            let (enc, mut e, mut log) = running(ruleset, seed);
            let target = enc.combatants[0].id.clone();
            let ev = run(&mut e, &add_condition(&target, name));
            assert!(
                matches!(
                    &ev[..],
                    [
                        GameEvent::GmOverride { .. },
                        GameEvent::EffectApplied { .. },
                        ..
                    ]
                ),
                "{ev:?}"
            );
            log.extend(ev);
            assert_eq!(cs(&e, target.as_str()).effects.len(), 1, "{ruleset}");
            let ev = run(
                &mut e,
                &Command::RemoveCondition {
                    target: target.clone(),
                    condition: name.into(),
                },
            );
            log.extend(ev);
            assert!(cs(&e, target.as_str()).effects.is_empty(), "{ruleset}");
            folds_alike(&enc, seed, &e, &log);
            let r = refusal(&mut e, &add_condition(&target, "sleepy"));
            assert_eq!(r.code, ErrorCode::InvalidArgument);
            assert!(r.message.contains(name), "{}", r.message);
            let wrong_save = Command::AddCondition {
                target: target.clone(),
                condition: name.into(),
                duration: Some(EffectDuration::SaveEnds(if ruleset == "orcus" {
                    fray_protocol::event::SaveDifficulty::Normal
                } else {
                    fray_protocol::event::SaveDifficulty::TenPlus
                })),
                source: None,
            };
            assert_eq!(refuse(&mut e, &wrong_save), ErrorCode::InvalidArgument);
        }
        // A save-ends condition is run by the rules: its save at the end of the bearer's turn.
        let (_, mut e, _) = running("13th-age", 3);
        let now = cid(&current(&e));
        run(
            &mut e,
            &Command::AddCondition {
                target: now.clone(),
                condition: "weakened".into(),
                duration: Some(EffectDuration::SaveEnds(
                    fray_protocol::event::SaveDifficulty::Easy,
                )),
                source: None,
            },
        );
        let ev = run(&mut e, &Command::EndTurn { actor: now });
        assert!(
            ev.iter().any(|x| matches!(x, GameEvent::SaveRolled { .. })),
            "{ev:?}"
        );
        // OSE: its own conditions, no duration.
        let enc = encounter("ose");
        let mut e = new_engine(&enc, 1);
        let id = enc.combatants[0].id.clone();
        let ev = run(&mut e, &add_condition(&id, "blind"));
        assert!(
            matches!(&ev[..], [GameEvent::GmOverride { .. }, GameEvent::Bx(_)]),
            "{ev:?}"
        );
        let r = refusal(&mut e, &add_condition(&id, "dazed"));
        assert!(r.message.contains("complete_cover"), "{}", r.message);
        // Five Torches Deep tracks none.
        let enc = encounter("five-torches-deep");
        let mut e = new_engine(&enc, 1);
        let id = enc.combatants[0].id.clone();
        assert_eq!(
            refuse(&mut e, &add_condition(&id, "prone")),
            ErrorCode::InvalidArgument
        );
    }
}

#[cfg(test)]
mod tests_side_initiative {
    use super::*;
    use crate::rules::common::testing::*;

    #[test]
    fn a_reinforcement_joins_its_side_where_initiative_is_per_side() {
        for ruleset in ["ose", "basic-fantasy"] {
            let (name, text) = crate::rules::builtin_encounters(ruleset)[0];
            let enc = crate::rules::load_encounter(name, text).unwrap();
            let mut e = new_engine(&enc, 2);
            run(&mut e, &Command::StartBattle);
            let before = e.state();
            assert!(!before.order.is_empty(), "{ruleset}: the round's order");
            let template = enc
                .combatants
                .iter()
                .find(|c| c.side == Side::Monsters)
                .map(|c| c.template.clone())
                .unwrap();
            let ev = run(
                &mut e,
                &Command::AddCombatant {
                    template,
                    square: None,
                },
            );
            let Some(GameEvent::CombatantAdded { combatant: id, .. }) = ev.get(1).cloned() else {
                panic!("{ruleset}: {ev:?}")
            };
            let state = e.state();
            let at = state.order.iter().position(|c| *c == id).expect("in order");
            let side = |c: &CombatantId| state.combatant(c).map(|s| s.side);
            assert!(
                state.order[at + 1..]
                    .iter()
                    .all(|c| side(c) != Some(Side::Monsters)),
                "{ruleset}: after the last monster: {:?}",
                state.order
            );
            assert_eq!(state.current, before.current, "{ruleset}: the turn goes on");
        }
    }
}

#[cfg(test)]
mod tests_reinforce;
