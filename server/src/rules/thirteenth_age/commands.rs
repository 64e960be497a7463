//! Deciding commands: legality first (nothing is rolled for a refused command), then the
//! events, rolling every die through the session RNG.

use super::decider::Decider;
use super::field::{FighterItem, has_condition};
use super::rules;
use crate::content::model::EffectSpec;
use crate::dice::Placeholders;
use crate::engine::components::Stage;
use fray_protocol::event::{
    ActionKind, AttackOutcome, Condition, DamageCause, Defense, Effect, EffectDuration, EffectKind,
    GameEvent, SavePurpose,
};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::state::{LifeStatus, Phase};
use fray_protocol::{Command, ErrorCode, Rejection};
use std::collections::BTreeMap;

fn reject<T>(code: ErrorCode, msg: impl Into<String>) -> Result<T, Rejection> {
    Err(Rejection::new(code, msg))
}

/// Decides a command.
pub fn decide(d: &mut Decider, cmd: &Command) -> Result<(), Rejection> {
    match cmd {
        Command::StartBattle => start_battle(d),
        Command::EndBattle => {
            if d.field.battle.phase == Phase::Ended {
                return reject(ErrorCode::BattleOver, "the battle is already over");
            }
            d.emit(GameEvent::BattleEnded { winner: None });
            Ok(())
        }
        Command::Attack {
            actor,
            attack,
            targets,
        } => attack_cmd(d, actor, attack, targets),
        Command::Move { actor } => {
            let payer = ready_to_act(d, actor, ActionKind::Move)?;
            d.emit(GameEvent::ActionUsed {
                combatant: actor.clone(),
                action: ActionKind::Move,
                spent: payer,
            });
            Ok(())
        }
        Command::Rally { actor } => rally(d, actor),
        Command::EndTurn { actor } => {
            running(d)?;
            fighter(d, actor)?;
            if d.field.battle.current() != Some(actor) {
                return reject(ErrorCode::NotYourTurn, not_your_turn_msg(d, actor));
            }
            super::turns::end_turn(d, actor);
            Ok(())
        }
    }
}

fn running(d: &Decider) -> Result<(), Rejection> {
    match d.field.battle.phase {
        Phase::Setup => reject(
            ErrorCode::BattleNotStarted,
            "the battle has not started; the GM starts it",
        ),
        Phase::Ended => reject(ErrorCode::BattleOver, "the battle is over"),
        Phase::Running => Ok(()),
    }
}

fn fighter<'f, 's>(
    d: &'f Decider<'_, '_, 's>,
    id: &CombatantId,
) -> Result<FighterItem<'f, 's>, Rejection> {
    d.field.get(id).ok_or_else(|| {
        Rejection::new(
            ErrorCode::UnknownCombatant,
            format!("no combatant '{id}' in this fight"),
        )
    })
}

fn not_your_turn_msg(d: &Decider, actor: &CombatantId) -> String {
    match d.field.battle.current() {
        Some(c) => format!("it is {c}'s turn, not {actor}'s"),
        None => format!("it is not {actor}'s turn"),
    }
}

/// Checks that `actor` may take an action of kind `needed` now, and returns the action that
/// pays for it (§ Regular Actions: a standard action can pay for a move or quick one).
fn ready_to_act(
    d: &Decider,
    actor: &CombatantId,
    needed: ActionKind,
) -> Result<ActionKind, Rejection> {
    running(d)?;
    let f = fighter(d, actor)?;
    if d.field.battle.current() != Some(actor) || d.field.battle.stage != Stage::Acting {
        return reject(ErrorCode::NotYourTurn, not_your_turn_msg(d, actor));
    }
    if f.vit.0 != LifeStatus::Conscious {
        return reject(
            ErrorCode::CannotAct,
            format!("{} is {:?} and cannot act", f.c.name, f.vit.0).to_lowercase(),
        );
    }
    // § Conditions, Stunned: no actions.
    if has_condition(f.fx, Condition::Stunned) {
        return reject(
            ErrorCode::Stunned,
            format!("{} is stunned and can take no actions", f.c.name),
        );
    }
    f.budget.0.payer(needed).ok_or_else(|| {
        let what = match needed {
            ActionKind::Standard => "standard action",
            ActionKind::Move => "move action (or a standard action to trade down)",
            ActionKind::Quick => "quick action (or a bigger action to trade down)",
        };
        Rejection::new(
            ErrorCode::ActionAlreadyUsed,
            format!("{} has no {what} left this turn", f.c.name),
        )
    })
}

fn start_battle(d: &mut Decider) -> Result<(), Rejection> {
    match d.field.battle.phase {
        Phase::Setup => {}
        Phase::Running => {
            return reject(
                ErrorCode::BattleAlreadyStarted,
                "the battle has already started",
            );
        }
        Phase::Ended => return reject(ErrorCode::BattleOver, "the battle is over"),
    }
    d.emit(GameEvent::BattleStarted);
    // § Roll Once: d20 + initiative bonus; all monsters of the same type share one roll.
    // Heroes roll in id order, then monster groups in template order.
    let mut heroes = Vec::new();
    let mut groups: BTreeMap<String, (i32, Vec<CombatantId>)> = BTreeMap::new();
    for f in d.field.all() {
        match f.c.side {
            Side::Heroes => heroes.push((f.init.bonus, vec![f.c.id.clone()])),
            Side::Monsters => groups
                .entry(f.c.template.clone())
                .or_insert_with(|| (f.init.bonus, Vec::new()))
                .1
                .push(f.c.id.clone()),
        }
    }
    let mut placed: Vec<(i32, i32, Side, CombatantId)> = Vec::new();
    for (side, (bonus, ids)) in heroes
        .into_iter()
        .map(|h| (Side::Heroes, h))
        .chain(groups.into_values().map(|g| (Side::Monsters, g)))
    {
        let roll = d.d20();
        let total = roll.total + bonus;
        for id in &ids {
            placed.push((total, bonus, side, id.clone()));
        }
        d.emit(GameEvent::InitiativeRolled {
            combatants: ids,
            roll,
            bonus,
            total,
        });
    }
    // Ties: higher bonus first, then heroes before monsters, then id order (documented in
    // docs/rules/13th-age.md).
    placed.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(b.1.cmp(&a.1))
            .then(a.2.cmp(&b.2))
            .then(a.3.cmp(&b.3))
    });
    d.emit(GameEvent::TurnOrder {
        order: placed.into_iter().map(|p| p.3).collect(),
    });
    Ok(())
}

fn defense_value(f: &FighterItem, vs: Defense) -> i32 {
    let base = match vs {
        Defense::Ac => f.def.0.ac,
        Defense::Pd => f.def.0.pd,
        Defense::Md => f.def.0.md,
    };
    let recovery_penalty = f.hero.map_or(0, |h| h.recovery_penalty);
    base + rules::defense_penalty(f.fx, f.vit.0) - recovery_penalty
}

/// Placeholders for a combatant's damage expressions: level, ability modifiers multiplied at
/// 5th and 8th level (§ Damage), weapon die.
fn placeholders(f: &FighterItem) -> Placeholders {
    let mut ph = Placeholders {
        level: Some(f.c.level),
        ..Placeholders::default()
    };
    if let Some(h) = f.hero {
        let m = rules::level_multiplier(f.c.level);
        let mods = h.spec.mods;
        ph.abilities = [
            Some(mods.str * m),
            Some(mods.dex * m),
            Some(mods.con * m),
            Some(mods.int * m),
            Some(mods.wis * m),
            Some(mods.cha * m),
        ];
        ph.weapon_die = h.spec.weapon_die;
    }
    ph
}

fn attack_cmd(
    d: &mut Decider,
    actor: &CombatantId,
    attack: &str,
    targets: &[CombatantId],
) -> Result<(), Rejection> {
    let payer = ready_to_act(d, actor, ActionKind::Standard)?;
    let a = fighter(d, actor)?;
    let Some(spec) = a.arsenal.0.iter().find(|s| s.id == attack) else {
        let known: Vec<&str> = a.arsenal.0.iter().map(|s| s.id.as_str()).collect();
        return reject(
            ErrorCode::UnknownAttack,
            format!(
                "{} has no attack '{attack}' (has: {})",
                a.c.name,
                known.join(", ")
            ),
        );
    };
    if targets.is_empty() || targets.len() > spec.max_targets as usize {
        return reject(
            ErrorCode::WrongTargetCount,
            format!(
                "{} takes 1 to {} targets, got {}",
                spec.name,
                spec.max_targets,
                targets.len()
            ),
        );
    }
    for (i, t) in targets.iter().enumerate() {
        if targets[..i].contains(t) {
            return reject(ErrorCode::InvalidTarget, format!("{t} is named twice"));
        }
        let tf = fighter(d, t)?;
        if tf.c.side == a.c.side {
            return reject(
                ErrorCode::InvalidTarget,
                format!("{} is an ally of {}", tf.c.name, a.c.name),
            );
        }
        if matches!(tf.vit.0, LifeStatus::Dead | LifeStatus::Slain) {
            return reject(
                ErrorCode::InvalidTarget,
                format!("{} is out of the fight", tf.c.name),
            );
        }
    }
    // Legal: from here on, roll.
    let spec = spec.clone();
    let is_hero = a.hero.is_some();
    let mut bonus =
        spec.bonus + rules::attack_penalty(a.fx) - a.hero.map_or(0, |h| h.recovery_penalty);
    if is_hero {
        // § Escalation Die: PCs add it; monsters don't.
        bonus += i32::from(d.field.battle.escalation);
    }
    let ph = placeholders(&a);
    d.emit(GameEvent::ActionUsed {
        combatant: actor.clone(),
        action: ActionKind::Standard,
        spent: payer,
    });
    let mut results = Vec::with_capacity(targets.len());
    for t in targets {
        let tf = fighter(d, t)?;
        let defense = defense_value(&tf, spec.vs);
        let crit_from = rules::crit_threshold(tf.fx);
        let roll = d.d20();
        let natural = roll.natural().unwrap_or(0);
        let total = roll.total + bonus;
        let outcome = rules::attack_outcome(natural, total, defense, crit_from);
        d.emit(GameEvent::AttackRolled {
            attacker: actor.clone(),
            target: t.clone(),
            attack: spec.id.clone(),
            roll,
            bonus,
            total,
            defense: spec.vs,
            defense_value: defense,
            outcome,
        });
        results.push((t.clone(), outcome));
    }
    // § Damage: roll damage once for all targets hit.
    let cause = DamageCause::Attack {
        attacker: actor.clone(),
        attack: spec.id.clone(),
    };
    let hit_damage = if results.iter().any(|(_, o)| o.is_hit()) {
        let roll = d.roll(&spec.damage, &ph)?;
        let total = roll.total;
        d.emit(GameEvent::DamageRolled {
            attacker: actor.clone(),
            attack: spec.id.clone(),
            roll,
        });
        Some(total)
    } else {
        None
    };
    // § Damage on Miss: a miss may deal damage; a fumble never does (§ Fumbles).
    let miss_damage = match &spec.miss_damage {
        Some(expr) if results.iter().any(|(_, o)| *o == AttackOutcome::Miss) => {
            let roll = d.roll(expr, &ph)?;
            let total = roll.total;
            d.emit(GameEvent::DamageRolled {
                attacker: actor.clone(),
                attack: spec.id.clone(),
                roll,
            });
            Some(total)
        }
        _ => None,
    };
    for (t, outcome) in results {
        match outcome {
            AttackOutcome::Hit | AttackOutcome::Crit => {
                let base = hit_damage.unwrap_or(0);
                // § Crits: double damage.
                let amount = if outcome == AttackOutcome::Crit {
                    base * 2
                } else {
                    base
                };
                d.damage(&t, amount, cause.clone(), spec.damage_type);
                if matches!(
                    d.status(&t),
                    Some(LifeStatus::Dead | LifeStatus::Slain) | None
                ) {
                    continue;
                }
                for e in &spec.on_hit {
                    let (kind, duration) = match e {
                        EffectSpec::Condition {
                            condition,
                            duration,
                        } => (EffectKind::Condition(*condition), duration.clone()),
                        EffectSpec::Ongoing {
                            amount,
                            damage_type,
                            save,
                        } => (
                            EffectKind::OngoingDamage {
                                amount: *amount,
                                damage_type: *damage_type,
                            },
                            EffectDuration::SaveEnds(*save),
                        ),
                    };
                    let id = d.effect_id();
                    d.emit(GameEvent::EffectApplied {
                        effect: Effect {
                            id,
                            target: t.clone(),
                            source: actor.clone(),
                            kind,
                            duration,
                            armed: false,
                        },
                    });
                }
            }
            AttackOutcome::Miss => {
                if let Some(m) = miss_damage {
                    d.damage(&t, m, cause.clone(), spec.damage_type);
                }
            }
            AttackOutcome::Fumble => {}
        }
    }
    Ok(())
}

fn rally(d: &mut Decider, actor: &CombatantId) -> Result<(), Rejection> {
    let payer = ready_to_act(d, actor, ActionKind::Standard)?;
    let f = fighter(d, actor)?;
    let Some(h) = f.hero else {
        return reject(
            ErrorCode::RallyNotAllowed,
            format!("{} is not a PC; only PCs rally", f.c.name),
        );
    };
    let round = d.field.battle.round;
    if h.rally_barred_round == Some(round) {
        return reject(
            ErrorCode::RallyNotAllowed,
            format!(
                "{} failed a rally save this round and cannot rally again until the next round",
                f.c.name
            ),
        );
    }
    // § Rally: the first rally of a battle needs no save; later ones need a normal save (11+).
    if h.rallies > 0 {
        let (ok, _) = d.save(actor, SavePurpose::Rally, rules::RALLY_SAVE_TARGET);
        if !ok {
            d.emit(GameEvent::RallyFailed {
                combatant: actor.clone(),
                round,
            });
            return Ok(());
        }
    }
    d.emit(GameEvent::ActionUsed {
        combatant: actor.clone(),
        action: ActionKind::Standard,
        spent: payer,
    });
    d.emit(GameEvent::Rallied {
        combatant: actor.clone(),
    });
    d.spend_recovery(actor, true)
}
