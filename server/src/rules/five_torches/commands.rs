//! Legality and outcome of each Five Torches Deep command. A refusal changes nothing and draws
//! no dice (the decide system restores the RNG on any refusal, even one found after rolling).

use super::Sheets;
use super::rules::{self, AttackResult, Band, Lit};
use crate::content::model::FtdAttackSpec;
use crate::dice::Placeholders;
use crate::rules::common::decider::Decider;
pub(super) use crate::rules::common::guards::{R, fighter, no, on_turn, running};
use fray_protocol::command::{AttackMode, RetreatCheck};
use fray_protocol::event::{ActionKind, AttackOutcome, DamageCause, Defense, GameEvent};
use fray_protocol::ftd::{
    Ability, Advantage, Departure, FtdCombatant, LightLevel, LightSource, LightTask, MoraleOutcome,
    MoraleTrigger,
};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::roll::{Modifiers, Roll};
use fray_protocol::state::{ActionsLeft, LifeStatus, Phase};
use fray_protocol::{Command, ErrorCode, Rejection};
use fray_protocol::{FiveTorchesCommand, FiveTorchesEvent};
use std::collections::BTreeSet;

/// Decides one command.
pub fn decide(d: &mut Decider, s: &Sheets, cmd: &Command) -> R {
    match cmd {
        Command::StartBattle => start(d, s, &[]),
        Command::StartSurprise { surprised } => start(d, s, surprised),
        Command::ReorderInitiative { order } => reorder(d, order),
        Command::FiveTorches(FiveTorchesCommand::DelayTo { actor, after }) => {
            delay_to(d, s, actor, after)
        }
        Command::Attack {
            knock_out: true, ..
        } => Err(Rejection::new(
            ErrorCode::InvalidArgument,
            "knock_out is a 13th Age attack option (§ Unconscious); in Five Torches Deep monsters at 0 HP are slain",
        )),
        Command::Attack { forced, .. } if !forced.is_empty() => Err(Rejection::new(
            ErrorCode::InvalidArgument,
            "forced is an Orcus attack option (§ Unwilling movement)",
        )),
        Command::Attack {
            weapon: Some(_), ..
        } => Err(Rejection::new(
            ErrorCode::InvalidArgument,
            "weapon is an Orcus attack option (§ Side Weapon)",
        )),
        Command::Attack {
            secondary_target: Some(_),
            ..
        } => Err(Rejection::new(
            ErrorCode::InvalidArgument,
            "secondary_target is an Orcus attack option (§ Secondary attacks)",
        )),
        Command::Attack {
            actor,
            attack,
            targets,
            mode,
            knock_out: false,
            ..
        } => attack_cmd(d, s, actor, attack, targets, *mode),
        Command::Move {
            actor,
            engage,
            far_away,
        } => move_cmd(d, s, actor, engage.as_ref(), *far_away),
        Command::FiveTorches(FiveTorchesCommand::SpecialMove {
            actor,
            engage,
            far_away,
        }) => special_move(d, s, actor, engage.as_ref(), *far_away),
        Command::Stabilize { actor, target } => stabilize_cmd(d, s, actor, target),
        Command::FiveTorches(FiveTorchesCommand::Heal { target, dice, by }) => {
            heal_cmd(d, s, target, dice, by.as_ref())
        }
        Command::FiveTorches(FiveTorchesCommand::Check {
            combatant,
            ability,
            dc,
            proficient,
            advantage,
            damage,
            purpose,
            task,
        }) => check_cmd(
            d,
            s,
            combatant,
            *ability,
            *dc,
            *proficient,
            *advantage,
            damage.as_deref(),
            purpose.as_deref(),
            *task,
        ),
        Command::FiveTorches(FiveTorchesCommand::GrantAdvantage {
            combatant,
            advantage,
        }) => grant(d, s, combatant, *advantage),
        Command::FiveTorches(FiveTorchesCommand::MoraleCheck {
            combatants,
            group,
            advantage,
            on_failure,
        }) => morale(d, s, combatants, *group, *advantage, *on_failure),
        Command::FiveTorches(FiveTorchesCommand::Retreat { actor }) => retreat(d, s, actor),
        Command::FiveTorches(FiveTorchesCommand::ResolveRetreat { check, attackers }) => {
            resolve_retreat(d, s, check.as_ref(), attackers)
        }
        Command::EndTurn { actor } => {
            on_turn(d, actor)?;
            if s.battle().retreat.as_ref() == Some(actor) {
                return Err(no(
                    ErrorCode::InvalidArgument,
                    "the GM rules on the retreat first (resolve_retreat)",
                ));
            }
            super::concentration::turn_ending(d, s, actor);
            d.emit(GameEvent::TurnEnded {
                combatant: actor.clone(),
            });
            Ok(())
        }
        Command::EndBattle => {
            running(d)?;
            d.emit(GameEvent::BattleEnded { winner: None });
            Ok(())
        }
        Command::EndSession => end_session(d),
        Command::NextBattle => next_battle(d),
        Command::FiveTorches(FiveTorchesCommand::SetLight { combatant, light }) => {
            set_light(d, combatant.as_ref(), *light)
        }
        Command::FiveTorches(FiveTorchesCommand::CarryLight { actor, source }) => {
            carry_light(d, s, actor, *source)
        }
        Command::FiveTorches(FiveTorchesCommand::SetLoad {
            combatant,
            load,
            coins,
        }) => set_load(d, s, combatant, *load, *coins),
        Command::FiveTorches(FiveTorchesCommand::TravelTurn { advantage }) => {
            travel_turn(d, s, *advantage)
        }
        Command::FiveTorches(FiveTorchesCommand::ResilienceCheck { combatant }) => {
            resilience_check(d, s, combatant)
        }
        Command::FiveTorches(FiveTorchesCommand::Rest { safe, nights }) => {
            rest(d, s, *safe, *nights)
        }
        Command::Hide { actor } => hide(d, s, actor),
        Command::FiveTorches(FiveTorchesCommand::SetStealthDc { dc }) => set_stealth_dc(d, *dc),
        Command::Reveal { combatant } => reveal(d, s, combatant),
        Command::FiveTorches(FiveTorchesCommand::Exhaust { combatant }) => exhaust(d, s, combatant),
        Command::FiveTorches(FiveTorchesCommand::RollToReturn { path, combatants }) => {
            super::travel::roll_to_return(d, s, *path, combatants)
        }
        Command::FiveTorches(FiveTorchesCommand::Chase {
            pursuers,
            speed,
            terrain,
            group,
            advantage,
            dc_modifier,
        }) => super::chase::chase(
            d,
            s,
            pursuers,
            *speed,
            *terrain,
            *group,
            *advantage,
            *dc_modifier,
        ),
        Command::FiveTorches(FiveTorchesCommand::CorruptionCheck {
            combatant,
            name,
            dc,
            check,
            damages,
        }) => super::corruption::check(d, s, combatant, name.as_deref(), *dc, *check, *damages),
        Command::FiveTorches(FiveTorchesCommand::EndCorruption { combatant }) => {
            super::corruption::end(d, s, combatant)
        }
        Command::FiveTorches(FiveTorchesCommand::RollTimeDice {
            dice,
            purpose,
            start_hour,
        }) => super::time::roll(d, *dice, *purpose, *start_hour),
        Command::FiveTorches(FiveTorchesCommand::SetTime { hour }) => super::time::set(d, *hour),
        Command::FiveTorches(FiveTorchesCommand::ReadyAction {
            actor,
            action,
            trigger,
        }) => ready_action(d, s, actor, *action, trigger),
        Command::FiveTorches(FiveTorchesCommand::Concentrate { actor, effect }) => {
            super::concentration::concentrate(d, s, actor, effect)
        }
        Command::FiveTorches(FiveTorchesCommand::EndConcentration { actor }) => {
            super::concentration::drop(d, s, actor)
        }
        Command::FiveTorches(FiveTorchesCommand::Loot { looter, enemy }) => {
            super::treasure::loot(d, s, looter, enemy)
        }
        Command::FiveTorches(FiveTorchesCommand::Treasure {
            to,
            gp,
            sp,
            cp,
            unearned,
        }) => super::treasure::hoard(d, s, to, (*gp, *sp, *cp), *unearned),
        Command::FiveTorches(FiveTorchesCommand::MagicItem { to, name, value }) => {
            super::treasure::magic_item(d, s, to, name, *value)
        }
        Command::FiveTorches(FiveTorchesCommand::SellItem { seller, name, gp }) => {
            super::treasure::sell(d, s, seller, name, *gp)
        }
        Command::FiveTorches(FiveTorchesCommand::TravelOverland {
            days,
            terrain,
            pace,
            advantage,
        }) => super::journey::overland(d, s, *days, *terrain, *pace, *advantage),
        Command::FiveTorches(FiveTorchesCommand::TravelOverwater {
            vessel,
            hours,
            current,
            advantage,
        }) => super::journey::overwater(d, s, *vessel, *hours, *current, *advantage),
        Command::Ready { .. } => Err(no(
            ErrorCode::InvalidArgument,
            "Five Torches Deep readies with ready_action (a quick action with a trigger)",
        )),
        other => Err(no(
            ErrorCode::InvalidArgument,
            format!("'{}' is not a Five Torches Deep command", other.kind()),
        )),
    }
}

// --- shared checks -------------------------------------------------------------------------

pub(super) fn sheet<'a>(s: &'a Sheets, id: &CombatantId) -> R<&'a FtdCombatant> {
    s.get(id)
        .map(|(sh, _)| sh)
        .ok_or_else(|| no(ErrorCode::UnknownCombatant, format!("no combatant '{id}'")))
}

pub(super) fn name(d: &Decider, id: &CombatantId) -> String {
    d.field
        .get(id)
        .map_or_else(|| id.to_string(), |f| f.c.name.clone())
}

fn departed(s: &Sheets, id: &CombatantId) -> bool {
    s.get(id).is_some_and(|(sh, _)| sh.departed.is_some())
}

/// In the battle: not dead, not slain, not gone (status after this pass's events).
pub fn in_fight(d: &mut Decider, s: &Sheets, id: &CombatantId) -> bool {
    !departed(s, id)
        && !matches!(
            d.status(id),
            Some(LifeStatus::Dead | LifeStatus::Slain) | None
        )
}

/// Able to act: conscious (not incapacitated at 0 hp) and still in the battle.
pub fn up(d: &mut Decider, s: &Sheets, id: &CombatantId) -> bool {
    !departed(s, id) && d.status(id) == Some(LifeStatus::Conscious)
}

/// A GM's list of PCs for a party roll (rolling to return, a chase): each named once, each a
/// PC (`why` says who rolls), each up.
pub(super) fn distinct_pcs_up(d: &mut Decider, s: &Sheets, who: &[CombatantId], why: &str) -> R {
    for (i, c) in who.iter().enumerate() {
        if who[..i].contains(c) {
            return Err(no(
                ErrorCode::InvalidArgument,
                format!("{} is listed twice", name(d, c)),
            ));
        }
        if fighter(d, c)?.c.side != Side::Heroes {
            return Err(no(
                ErrorCode::InvalidTarget,
                format!("{} is not a PC: {why}", name(d, c)),
            ));
        }
        require_up(d, s, c)?;
    }
    Ok(())
}

pub(super) fn require_up(d: &mut Decider, s: &Sheets, id: &CombatantId) -> R {
    if departed(s, id) {
        return Err(no(
            ErrorCode::CannotAct,
            format!("{} has left the battle", name(d, id)),
        ));
    }
    if !up(d, s, id) {
        return Err(no(
            ErrorCode::CannotAct,
            format!("{} is incapacitated and cannot act", name(d, id)),
        ));
    }
    Ok(())
}

/// § Types of Actions: spends the action `needed` (active = `standard`, movement = `move`,
/// quick = `quick`), trading a bigger one down when the exact one is spent (§ Active Actions,
/// § Movement Actions: active → movement or quick, movement → quick).
pub(super) fn pay(d: &mut Decider, s: &Sheets, actor: &CombatantId, needed: ActionKind) -> R {
    // § Quick Actions: a readied action is taken out of turn, once, paid for when readied.
    if d.field.battle.phase == Phase::Running
        && d.field.battle.current().is_some_and(|c| c != actor)
        && d.field
            .battle
            .readied
            .iter()
            .any(|(c, k)| c == actor && *k == needed)
    {
        fighter(d, actor)?;
        require_up(d, s, actor)?;
        d.emit(GameEvent::ReadiedActionTaken {
            combatant: actor.clone(),
        });
        return Ok(());
    }
    on_turn(d, actor)?;
    require_up(d, s, actor)?;
    if s.battle().retreat.as_ref() == Some(actor) {
        return Err(no(
            ErrorCode::ActionAlreadyUsed,
            "retreating takes the whole turn",
        ));
    }
    let f = fighter(d, actor)?;
    let Some(spent) = f.budget.0.payer(needed) else {
        return Err(no(
            ErrorCode::ActionAlreadyUsed,
            format!(
                "{} has no {} action left",
                f.c.name,
                match needed {
                    ActionKind::Standard => "active",
                    ActionKind::Move => "movement",
                    ActionKind::Quick => "quick",
                }
            ),
        ));
    };
    d.emit(GameEvent::ActionUsed {
        combatant: actor.clone(),
        action: needed,
        spent,
    });
    Ok(())
}

/// Advantage from the GM's grant and lasting disadvantage (injury), with the circumstances.
fn advantage(sh: &FtdCombatant, circumstances: &[Advantage]) -> Advantage {
    let mut all = vec![sh.granted];
    // § Movement Actions (load above STR), § Exhaustion, § Injury Table (until rest): "all
    // checks" — attacks and morale are checks too.
    if sh.hindered() {
        all.push(Advantage::Disadvantage);
    }
    all.extend_from_slice(circumstances);
    rules::combine(&all)
}

fn d20(d: &mut Decider, adv: Advantage) -> R<(Roll, u32)> {
    let roll = d.roll(rules::d20_expr(adv), &Placeholders::default())?;
    let natural = roll.natural().unwrap_or(1);
    Ok((roll, natural))
}

pub(super) fn as_i32(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// A check (§ Saves & Checks): d20 + ability modifier (+ proficiency). Emits `check_rolled`.
#[allow(clippy::too_many_arguments)]
fn roll_check(
    d: &mut Decider,
    sh: &FtdCombatant,
    who: &CombatantId,
    ability: Ability,
    dc: i32,
    proficient: bool,
    circumstances: Advantage,
    purpose: &str,
) -> R<(bool, u32)> {
    let terms =
        ability_term(sh, ability).with("proficiency", if proficient { sh.proficiency } else { 0 });
    let (success, natural, _) = roll_check_with(d, sh, who, terms, dc, circumstances, purpose)?;
    Ok((success, natural))
}

/// An ability's modifier as a roll's term (`DEX +2`).
pub(super) fn ability_term(sh: &FtdCombatant, ability: Ability) -> Modifiers {
    Modifiers::new().with(
        ability.abbrev(),
        rules::ability_mod(sh.abilities.get(ability)),
    )
}

/// A check with its whole bonus given, term by term (§ Rolling To Return: the best modifier).
pub(super) fn roll_check_with(
    d: &mut Decider,
    sh: &FtdCombatant,
    who: &CombatantId,
    terms: Modifiers,
    dc: i32,
    circumstances: Advantage,
    purpose: &str,
) -> R<(bool, u32, i32)> {
    let bonus = terms.total();
    let adv = advantage(sh, &[circumstances]);
    let (roll, natural) = d20(d, adv)?;
    let total = as_i32(natural) + bonus;
    let success = rules::check_succeeds(total, dc);
    d.emit(GameEvent::CheckRolled {
        combatant: who.clone(),
        purpose: purpose.to_owned(),
        roll,
        bonus,
        total,
        dc,
        success,
        modifiers: terms.into_vec(),
    });
    Ok((success, natural, total))
}

/// Deals damage (§ Healing & HP: never below 0). At 0 hp a PC is incapacitated
/// (§ Death & Injury); a monster is slain (Fray: no one on the monsters' side stabilizes in
/// this increment). A kill proposes morale checks (§ When To Check Morale).
pub fn deal(d: &mut Decider, s: &Sheets, target: &CombatantId, amount: i32, cause: DamageCause) {
    let Some(mut v) = d.overlay.vitals(d.field, target) else {
        return;
    };
    if v.status != LifeStatus::Conscious {
        return;
    }
    let amount = amount.max(0);
    let after = rules::clamp_hp(v.current - amount, v.max);
    d.emit(GameEvent::Damaged {
        target: target.clone(),
        cause,
        amount,
        damage_type: None,
        temp_absorbed: 0,
        hp_after: Some(after),
    });
    v.current = after;
    if after == 0 {
        if v.side == Side::Heroes {
            v.status = LifeStatus::Unconscious;
            d.overlay.set(target, v);
            d.emit(GameEvent::FellUnconscious {
                combatant: target.clone(),
            });
        } else {
            v.status = LifeStatus::Slain;
            d.overlay.set(target, v);
            d.emit(GameEvent::Slain {
                combatant: target.clone(),
            });
            killed(d, s, target);
        }
    }
    d.overlay.set(target, v);
}

/// § When To Check Morale: the first combatant killed, and a leader or expert killed, propose a
/// morale check to the GM for the rest of its side.
fn killed(d: &mut Decider, s: &Sheets, dead: &CombatantId) {
    let Some(side) = d.field.get(dead).map(|f| f.c.side) else {
        return;
    };
    let ids: Vec<CombatantId> = d
        .field
        .all()
        .filter(|f| f.c.side == side)
        .map(|f| f.c.id.clone())
        .collect();
    let rest: Vec<CombatantId> = ids
        .into_iter()
        .filter(|id| id != dead)
        .filter(|id| up(d, s, id))
        .collect();
    if rest.is_empty() {
        return;
    }
    let first = !s.battle().kill_proposed
        && !d.events().iter().any(|e| {
            matches!(
                e,
                GameEvent::MoraleProposed {
                    trigger: MoraleTrigger::FirstKill,
                    ..
                }
            )
        });
    if first {
        d.emit(GameEvent::MoraleProposed {
            trigger: MoraleTrigger::FirstKill,
            combatants: rest.clone(),
        });
    }
    if s.get(dead).is_some_and(|(sh, _)| sh.leader) {
        d.emit(GameEvent::MoraleProposed {
            trigger: MoraleTrigger::LeaderKilled,
            combatants: rest,
        });
    }
}

// --- initiative ----------------------------------------------------------------------------

/// § initiative: higher DEX score first. Ties (the text has none): PCs before monsters, then by
/// id — a fixed, documented rule the GM can change with `reorder_initiative`.
pub fn order_by_dex(mut placed: Vec<(CombatantId, i32, Side)>) -> Vec<(CombatantId, i32)> {
    placed.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then((a.2 == Side::Monsters).cmp(&(b.2 == Side::Monsters)))
            .then(a.0.cmp(&b.0))
    });
    placed.into_iter().map(|(id, dex, _)| (id, dex)).collect()
}

fn start(d: &mut Decider, s: &Sheets, surprised: &[CombatantId]) -> R {
    match d.field.battle.phase {
        Phase::Setup => {}
        Phase::Running => {
            return Err(no(
                ErrorCode::BattleAlreadyStarted,
                "the battle has already started",
            ));
        }
        Phase::Ended => return Err(no(ErrorCode::BattleOver, "the battle is over")),
    }
    let mut seen = BTreeSet::new();
    for id in surprised {
        fighter(d, id)?;
        if !seen.insert(id.clone()) {
            return Err(no(
                ErrorCode::InvalidArgument,
                format!("{id} is listed twice"),
            ));
        }
    }
    let mut placed = Vec::new();
    for f in d.field.all() {
        let dex = s
            .get(&f.c.id)
            .map_or(f.init.bonus, |(sh, _)| sh.abilities.dex);
        placed.push((f.c.id.clone(), dex, f.c.side));
    }
    let scores = order_by_dex(placed);
    let order: Vec<CombatantId> = scores.iter().map(|(id, _)| id.clone()).collect();
    let acting: Vec<CombatantId> = order
        .iter()
        .filter(|id| !surprised.contains(id))
        .cloned()
        .collect();
    if acting.is_empty() {
        return Err(no(
            ErrorCode::InvalidArgument,
            "someone must be unsurprised to ambush",
        ));
    }
    d.emit(GameEvent::BattleStarted);
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::InitiativeScores {
        scores,
    }));
    if surprised.is_empty() {
        d.emit(GameEvent::TurnOrder { order });
    } else {
        // Fray's reading of "unless there's an ambush": the ambushers act in a surprise round
        // (round 0) in DEX order; then every round follows the full order.
        d.emit(GameEvent::SurpriseRound {
            acting,
            advance_escalation: false,
        });
    }
    let monsters: Vec<CombatantId> = d
        .field
        .all()
        .filter(|f| f.c.side == Side::Monsters)
        .map(|f| f.c.id.clone())
        .collect();
    d.emit(GameEvent::MoraleProposed {
        trigger: MoraleTrigger::BattleStart,
        combatants: monsters,
    });
    Ok(())
}

fn reorder(d: &mut Decider, order: &[CombatantId]) -> R {
    running(d)?;
    if d.field.battle.surprise.is_some() {
        return Err(no(
            ErrorCode::SurpriseRound,
            "reorder after the surprise round",
        ));
    }
    let old = &d.field.battle.order;
    let want: BTreeSet<&CombatantId> = old.iter().collect();
    let got: BTreeSet<&CombatantId> = order.iter().collect();
    if order.len() != old.len() || want != got {
        return Err(no(
            ErrorCode::InvalidArgument,
            "the order must list every combatant of the battle once",
        ));
    }
    let turn_index = d
        .field
        .battle
        .turn_index
        .and_then(|i| old.get(i))
        .and_then(|cur| order.iter().position(|c| c == cur))
        .and_then(|i| u32::try_from(i).ok());
    d.emit(GameEvent::InitiativeReordered {
        order: order.to_vec(),
        turn_index,
    });
    Ok(())
}

/// § initiative: "Combatants can choose to delay to a slower initiative." At the start of its
/// turn (no action taken) the actor moves to right after `after`, a combatant still to act this
/// round; its new place stays for the rest of the battle.
fn delay_to(d: &mut Decider, s: &Sheets, actor: &CombatantId, after: &CombatantId) -> R {
    on_turn(d, actor)?;
    require_up(d, s, actor)?;
    if d.field.battle.surprise.is_some() {
        return Err(no(
            ErrorCode::SurpriseRound,
            "no delaying in the surprise round",
        ));
    }
    let f = fighter(d, actor)?;
    if f.budget.0 != ActionsLeft::FULL || s.battle().retreat.as_ref() == Some(actor) {
        return Err(no(
            ErrorCode::ActionAlreadyUsed,
            "delay at the start of the turn, before any action",
        ));
    }
    fighter(d, after)?;
    let order = d.field.battle.order.clone();
    let (Some(me), Some(them)) = (
        order.iter().position(|c| c == actor),
        order.iter().position(|c| c == after),
    ) else {
        return Err(no(ErrorCode::InvalidTarget, "not in the order of battle"));
    };
    if them <= me || !in_fight(d, s, after) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!(
                "{} does not act later this round: delay to a slower place",
                name(d, after)
            ),
        ));
    }
    let mut new = order;
    new.remove(me);
    // `them` shifted down by one when `me` (before it) was removed.
    new.insert(them, actor.clone());
    d.emit(GameEvent::Delayed {
        combatant: actor.clone(),
    });
    d.emit(GameEvent::InitiativeReordered {
        order: new,
        turn_index: me.checked_sub(1).and_then(|i| u32::try_from(i).ok()),
    });
    Ok(())
}

// --- movement and attacks ------------------------------------------------------------------

/// § Movement Actions / § Range: a movement action brings the actor close to one combatant
/// (melee range), to ranged distance (no one close), or far away.
fn move_cmd(
    d: &mut Decider,
    s: &Sheets,
    actor: &CombatantId,
    engage: Option<&CombatantId>,
    far_away: bool,
) -> R {
    no_speed(d, s, actor)?;
    pay(d, s, actor, ActionKind::Move)?;
    if engage.is_some() && far_away {
        return Err(no(
            ErrorCode::InvalidArgument,
            "close to someone or far away, not both",
        ));
    }
    if let Some(t) = engage {
        fighter(d, t)?;
        if t == actor || !in_fight(d, s, t) {
            return Err(no(
                ErrorCode::InvalidTarget,
                format!("{} is not someone to move close to", name(d, t)),
            ));
        }
    }
    d.emit(GameEvent::Moved {
        combatant: actor.clone(),
        engaged: engage.cloned(),
        far_away,
    });
    Ok(())
}

/// § Movement Actions: "Some forms of special movement – swimming, crawling, climbing, or
/// traveling in difficult terrain – force you to move at half speed". Fray moves by range
/// bands, so (its reading) the move takes two movement actions' worth: the movement action and
/// the active action traded down for another. It is never a readied action.
fn special_move(
    d: &mut Decider,
    s: &Sheets,
    actor: &CombatantId,
    engage: Option<&CombatantId>,
    far_away: bool,
) -> R {
    no_speed(d, s, actor)?;
    on_turn(d, actor)?;
    require_up(d, s, actor)?;
    let f = fighter(d, actor)?;
    if !(f.budget.0.move_action && f.budget.0.standard) {
        return Err(no(
            ErrorCode::ActionAlreadyUsed,
            format!(
                "{} needs both the movement and the active action for special movement (half speed)",
                f.c.name
            ),
        ));
    }
    d.emit(GameEvent::ActionUsed {
        combatant: actor.clone(),
        action: ActionKind::Move,
        spent: ActionKind::Standard,
    });
    move_cmd(d, s, actor, engage, far_away)
}

/// The range band between two combatants (§ Range): close when engaged, far when either is far
/// away, ranged otherwise.
fn band(d: &Decider, a: &CombatantId, t: &CombatantId) -> Band {
    let (Some(fa), Some(ft)) = (d.field.get(a), d.field.get(t)) else {
        return Band::Far;
    };
    if fa.pos.far_away || ft.pos.far_away {
        Band::Far
    } else if fa.pos.engaged.contains(t) {
        Band::Close
    } else {
        Band::Ranged
    }
}

/// Whether the actor is in melee: close to an enemy still up.
fn in_melee(d: &mut Decider, s: &Sheets, a: &CombatantId) -> bool {
    let Some(f) = d.field.get(a) else {
        return false;
    };
    let side = f.c.side;
    let close: Vec<CombatantId> = f.pos.engaged.iter().cloned().collect();
    close.iter().any(|o| {
        d.field.get(o).is_some_and(|g| g.c.side != side) && {
            let o = o.clone();
            up(d, s, &o)
        }
    })
}

fn attack_cmd(
    d: &mut Decider,
    s: &Sheets,
    actor: &CombatantId,
    attack: &str,
    targets: &[CombatantId],
    mode: AttackMode,
) -> R {
    pay(d, s, actor, ActionKind::Standard)?;
    if mode != AttackMode::Standard {
        return Err(no(
            ErrorCode::InvalidArgument,
            "Five Torches Deep attacks have no modes",
        ));
    }
    let [target] = targets else {
        return Err(no(ErrorCode::WrongTargetCount, "an attack has one target"));
    };
    let a = attack_spec(s, actor, attack)?;
    check_target(d, s, actor, target)?;
    let extra = range_advantage(d, s, actor, target, &a)?;
    resolve_attack(d, s, actor, &a, target, extra)?;
    Ok(())
}

fn attack_spec(s: &Sheets, actor: &CombatantId, attack: &str) -> R<FtdAttackSpec> {
    let (_, kit) = s.get(actor).ok_or_else(|| {
        no(
            ErrorCode::UnknownCombatant,
            format!("no combatant '{actor}'"),
        )
    })?;
    kit.attacks
        .iter()
        .find(|a| a.id == attack)
        .cloned()
        .ok_or_else(|| no(ErrorCode::UnknownAttack, format!("no attack '{attack}'")))
}

fn check_target(d: &mut Decider, s: &Sheets, actor: &CombatantId, target: &CombatantId) -> R {
    let side = fighter(d, actor)?.c.side;
    let t_side = fighter(d, target)?.c.side;
    if t_side == side {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{} is an ally", name(d, target)),
        ));
    }
    if !up(d, s, target) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{} is out of the fight", name(d, target)),
        ));
    }
    if s.get(target).is_some_and(|(sh, _)| sh.hidden) {
        return Err(no(
            ErrorCode::TargetHidden,
            format!(
                "{} is in stealth and cannot be targeted directly",
                name(d, target)
            ),
        ));
    }
    Ok(())
}

/// § Range & Attacks: melee only in close range; a ranged attack in close range, or made while
/// in melee, at disadvantage; nothing reaches far.
fn range_advantage(
    d: &mut Decider,
    s: &Sheets,
    actor: &CombatantId,
    target: &CombatantId,
    a: &FtdAttackSpec,
) -> R<Advantage> {
    let b = band(d, actor, target);
    let Some(adv) = rules::reach(a.ranged, b) else {
        return Err(match (a.ranged, b) {
            (false, Band::Ranged) => no(
                ErrorCode::NotEngaged,
                format!(
                    "{} is not in close range: a melee attack must be within 5-10'",
                    name(d, target)
                ),
            ),
            _ => no(
                ErrorCode::OutOfRange,
                format!("{} is far: beyond weapons and spells", name(d, target)),
            ),
        });
    };
    if a.ranged && in_melee(d, s, actor) {
        return Ok(Advantage::Disadvantage);
    }
    Ok(adv)
}

/// An attack roll against AC and its damage (§ PC Attacks, § NPC Attacks, § Dealing Damage,
/// § Critical Hits). Returns whether it hit.
fn resolve_attack(
    d: &mut Decider,
    s: &Sheets,
    attacker: &CombatantId,
    a: &FtdAttackSpec,
    target: &CombatantId,
    circumstances: Advantage,
) -> R<bool> {
    let sh = sheet(s, attacker)?.clone();
    let ac = fighter(d, target)?.def.0.ac;
    // § Stealth: "Once they attack their stealth ends."
    if sh.hidden {
        d.emit(GameEvent::FiveTorches(FiveTorchesEvent::StealthChanged {
            combatant: attacker.clone(),
            hidden: false,
        }));
    }
    // § Light: the light where the target is (the attacker must see it).
    let lit = rules::light_advantage(
        light_at(d, s, target),
        sh.darksight,
        Lit::Attack { ranged: a.ranged },
    );
    let adv = advantage(&sh, &[circumstances, lit]);
    let (roll, natural) = d20(d, adv)?;
    let modifier = a
        .ability
        .map_or(0, |ab| rules::ability_mod(sh.abilities.get(ab)));
    let mut terms = Modifiers::new().with("attack bonus", a.bonus);
    if let Some(ab) = a.ability {
        terms.add(ab.abbrev(), modifier);
    }
    terms.add("proficiency", if a.proficient { sh.proficiency } else { 0 });
    let bonus = terms.total();
    let total = as_i32(natural) + bonus;
    let result = rules::attack_result(natural, total, ac);
    d.emit(GameEvent::AttackRolled {
        attacker: attacker.clone(),
        target: target.clone(),
        attack: a.id.clone(),
        roll,
        bonus,
        total,
        defense: Defense::Ac,
        defense_value: ac,
        outcome: match result {
            AttackResult::Hit => AttackOutcome::Hit,
            AttackResult::Crit => AttackOutcome::Crit,
            AttackResult::Miss => AttackOutcome::Miss,
        },
        modifiers: terms.into_vec(),
    });
    if result == AttackResult::Miss {
        return Ok(false);
    }
    let expr = if a.ability.is_some() && modifier != 0 {
        format!("{}{modifier:+}", a.damage)
    } else {
        a.damage.clone()
    };
    // The damage dice's own numbers, then the ability (§ Dealing Damage).
    let mut dmg_terms = crate::dice::DiceExpr::parse(&a.damage)
        .and_then(|e| e.constant_terms(&Placeholders::default(), "damage bonus"))
        .unwrap_or_default();
    if let Some(ab) = a.ability {
        dmg_terms.add(ab.abbrev(), modifier);
    }
    let dmg = d.roll(&expr, &Placeholders::default())?;
    d.emit(GameEvent::DamageRolled {
        attacker: attacker.clone(),
        attack: a.id.clone(),
        roll: dmg.clone(),
        modifiers: dmg_terms.into_vec(),
    });
    let amount = rules::final_damage(dmg.total, result == AttackResult::Crit);
    deal(
        d,
        s,
        target,
        amount,
        DamageCause::Attack {
            attacker: attacker.clone(),
            attack: a.id.clone(),
        },
    );
    Ok(true)
}

// --- checks, grants, healing ---------------------------------------------------------------

#[allow(clippy::too_many_arguments)]
fn check_cmd(
    d: &mut Decider,
    s: &Sheets,
    who: &CombatantId,
    ability: Ability,
    dc: i32,
    proficient: bool,
    circumstances: Advantage,
    damage: Option<&str>,
    purpose: Option<&str>,
    task: Option<LightTask>,
) -> R {
    // In battle, or outside it whenever dice may be rolled (before the battle; after it while
    // the seed is secret: the dying's minute, or a session with rests).
    if d.field.battle.phase != Phase::Running {
        dice_open(d)?;
    }
    fighter(d, who)?;
    require_up(d, s, who)?;
    if !(1..=40).contains(&dc) {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("DC {dc} is outside 1..=40"),
        ));
    }
    let purpose = purpose.unwrap_or("check");
    if purpose.is_empty() || purpose.len() > 40 {
        return Err(no(
            ErrorCode::InvalidArgument,
            "a purpose is 1-40 characters",
        ));
    }
    if let Some(expr) = damage {
        crate::rules::common::decide::damage_dice_ok(expr)?;
    }
    let sh = sheet(s, who)?.clone();
    let lit = rules::light_advantage(light_at(d, s, who), sh.darksight, Lit::Check(task));
    let circumstances = rules::combine(&[circumstances, lit]);
    let (success, natural) =
        roll_check(d, &sh, who, ability, dc, proficient, circumstances, purpose)?;
    if let (false, Some(expr)) = (success, damage) {
        let roll = d.roll(expr, &Placeholders::default())?;
        let is_pc = fighter(d, who)?.c.side == Side::Heroes;
        let doubled = rules::fumble_doubles(natural, is_pc);
        let amount = rules::final_damage(roll.total, doubled);
        d.emit(GameEvent::DamageRolled {
            attacker: who.clone(),
            attack: purpose.to_owned(),
            modifiers: crate::rules::common::decider::damage_terms(expr, &roll),
            roll,
        });
        deal(
            d,
            s,
            who,
            amount,
            DamageCause::Hazard {
                purpose: purpose.to_owned(),
                doubled,
            },
        );
    }
    Ok(())
}

/// § Tactical Superiority / § PC Attacks ("advantage or disadvantage per GM discretion").
fn grant(d: &mut Decider, s: &Sheets, who: &CombatantId, adv: Advantage) -> R {
    if d.field.battle.phase == Phase::Ended {
        return Err(no(ErrorCode::BattleOver, "the battle is over"));
    }
    fighter(d, who)?;
    if !in_fight(d, s, who) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{} is out of the battle", name(d, who)),
        ));
    }
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::AdvantageGranted {
        combatant: who.clone(),
        advantage: adv,
    }));
    Ok(())
}

/// After the battle, dice may still be rolled for the dying until the seed is revealed.
fn aftermath_open(d: &Decider) -> R {
    if d.field.battle.seed_revealed || d.field.battle.session_over {
        return Err(no(ErrorCode::BattleOver, "the session is over"));
    }
    Ok(())
}

/// § Stabilizing & Injuries: an ally's check (Fray: WIS, DC 11, proficiency with `medicine`),
/// an active action during the battle; after it, while the minute lasts, no action is needed.
fn stabilize_cmd(d: &mut Decider, s: &Sheets, actor: &CombatantId, target: &CombatantId) -> R {
    match d.field.battle.phase {
        Phase::Running => pay(d, s, actor, ActionKind::Standard)?,
        // Before the battle a PC can fall to a trap's or the way's damage (the GM's `check`,
        // rolling to return): no action is needed to help it either.
        Phase::Setup | Phase::Ended => {
            aftermath_open(d)?;
            fighter(d, actor)?;
            require_up(d, s, actor)?;
        }
    }
    dying_ally(d, actor, target)?;
    let sh = sheet(s, actor)?.clone();
    let proficient = s
        .get(actor)
        .is_some_and(|(_, k)| k.proficiencies.iter().any(|p| p == "medicine"));
    let (success, _) = roll_check(
        d,
        &sh,
        actor,
        Ability::Wis,
        rules::STABILIZE_DC,
        proficient,
        Advantage::None,
        "stabilize",
    )?;
    if success {
        stabilize(d, s, target, actor, None)?;
    }
    Ok(())
}

fn dying_ally(d: &mut Decider, actor: &CombatantId, target: &CombatantId) -> R {
    let side = fighter(d, actor)?.c.side;
    let t = fighter(d, target)?;
    let t_side = t.c.side;
    let t_hero = t.hero.is_some();
    if t_side != side
        || target == actor
        || !t_hero
        || d.status(target) != Some(LifeStatus::Unconscious)
    {
        return Err(no(
            ErrorCode::NotDying,
            format!("{} is not an incapacitated ally", name(d, target)),
        ));
    }
    Ok(())
}

/// Stabilized: the injury table (1d20), then dead on a 1, otherwise back to 1 hp — or the
/// healing rolled when healing stabilized it — and the injury's effect.
fn stabilize(
    d: &mut Decider,
    s: &Sheets,
    target: &CombatantId,
    by: &CombatantId,
    healing: Option<Roll>,
) -> R {
    d.emit(GameEvent::Stabilized {
        combatant: target.clone(),
        by: by.clone(),
    });
    let roll = d.d20();
    let face = roll.natural().unwrap_or(1);
    let row = rules::injury_row(face);
    let effect_roll = match row {
        rules::InjuryRow::Lose(_) => Some(d.roll("1d6", &Placeholders::default())?),
        rules::InjuryRow::Standing => Some(d.roll("1d8", &Placeholders::default())?),
        _ => None,
    };
    let second = effect_roll.as_ref().map_or(0, |r| r.total);
    let injury = rules::injury(row, second);
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::InjuryRolled {
        combatant: target.clone(),
        roll,
        injury,
        effect_roll: effect_roll.clone(),
    }));
    let Some(mut v) = d.overlay.vitals(d.field, target) else {
        return Ok(());
    };
    if row == rules::InjuryRow::Dead {
        v.status = LifeStatus::Dead;
        d.overlay.set(target, v);
        d.emit(GameEvent::Died {
            combatant: target.clone(),
        });
        if d.field.battle.phase == Phase::Running {
            killed(d, s, target);
        }
        return Ok(());
    }
    let back = healing.as_ref().map_or(1, |r| r.total.max(1));
    v.current = rules::clamp_hp(back, v.max);
    d.emit(GameEvent::Healed {
        target: target.clone(),
        roll: healing,
        amount: back,
        recovery_used: false,
        hp_after: Some(v.current),
    });
    if row == rules::InjuryRow::Standing {
        v.current = rules::clamp_hp(v.current + second, v.max);
        d.emit(GameEvent::Healed {
            target: target.clone(),
            roll: effect_roll,
            amount: second,
            recovery_used: false,
            hp_after: Some(v.current),
        });
    }
    v.status = LifeStatus::Conscious;
    d.overlay.set(target, v);
    d.emit(GameEvent::Revived {
        combatant: target.clone(),
        can_act: false,
    });
    Ok(())
}

/// § Healing From Magic & Medicine: the healing rolled, never above the maximum; an
/// incapacitated PC is stabilized by it and, if the injury roll spares it, heals the roll.
fn heal_cmd(
    d: &mut Decider,
    s: &Sheets,
    target: &CombatantId,
    dice: &str,
    by: Option<&CombatantId>,
) -> R {
    aftermath_open(d)?;
    if let Some(b) = by {
        fighter(d, b)?;
    }
    let t_hero = fighter(d, target)?.hero.is_some();
    if !in_fight(d, s, target) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{} is beyond healing or gone", name(d, target)),
        ));
    }
    crate::rules::common::decide::damage_dice_ok(dice)?;
    let status = d.status(target);
    if d.field.battle.phase == Phase::Ended && status == Some(LifeStatus::Conscious) {
        return Err(no(ErrorCode::BattleOver, "the battle is over"));
    }
    let roll = d.roll(dice, &Placeholders::default())?;
    if status == Some(LifeStatus::Unconscious) && t_hero {
        return stabilize(d, s, target, by.unwrap_or(target), Some(roll));
    }
    let Some(mut v) = d.overlay.vitals(d.field, target) else {
        return Ok(());
    };
    let amount = roll.total.max(0);
    v.current = rules::clamp_hp(v.current + amount, v.max);
    d.overlay.set(target, v);
    d.emit(GameEvent::Healed {
        target: target.clone(),
        roll: Some(roll),
        amount,
        recovery_used: false,
        hp_after: Some(v.current),
    });
    Ok(())
}

// --- morale and retreat ----------------------------------------------------------------------

/// § Morale Checks: DC 11; 1d20 + WIS mod + proficiency (if fitting) + monster morale bonus.
/// § Side, Group, or Individual: PCs always individually; monsters as the GM decides.
fn morale(
    d: &mut Decider,
    s: &Sheets,
    combatants: &[CombatantId],
    group: bool,
    circumstances: Advantage,
    on_failure: MoraleOutcome,
) -> R {
    running(d)?;
    if combatants.is_empty() || combatants.len() > 40 {
        return Err(no(
            ErrorCode::WrongTargetCount,
            "a morale check names 1-40 combatants",
        ));
    }
    let mut seen = BTreeSet::new();
    for id in combatants {
        let f = fighter(d, id)?;
        if group && f.c.side == Side::Heroes {
            return Err(no(
                ErrorCode::InvalidArgument,
                "PCs always roll morale individually",
            ));
        }
        if !seen.insert(id.clone()) {
            return Err(no(
                ErrorCode::InvalidArgument,
                format!("{id} is listed twice"),
            ));
        }
        require_up(d, s, id)?;
    }
    let units: Vec<Vec<CombatantId>> = if group {
        vec![combatants.to_vec()]
    } else {
        combatants.iter().map(|c| vec![c.clone()]).collect()
    };
    for unit in units {
        let Some(lead) = unit.first() else { continue };
        let sh = sheet(s, lead)?.clone();
        let lit = rules::light_advantage(light_at(d, s, lead), sh.darksight, Lit::Morale);
        let adv = advantage(&sh, &[circumstances, lit]);
        let (roll, natural) = d20(d, adv)?;
        let terms = ability_term(&sh, Ability::Wis)
            .with(
                "proficiency",
                if sh.morale_proficient {
                    sh.proficiency
                } else {
                    0
                },
            )
            .with("morale bonus", sh.morale_bonus);
        let bonus = terms.total();
        let total = as_i32(natural) + bonus;
        let success = rules::check_succeeds(total, rules::MORALE_DC);
        d.emit(GameEvent::FiveTorches(FiveTorchesEvent::MoraleChecked {
            combatants: unit.clone(),
            roll,
            bonus,
            total,
            dc: rules::MORALE_DC,
            success,
            modifiers: terms.into_vec(),
        }));
        if !success {
            for c in unit {
                d.emit(GameEvent::LeftBattle {
                    combatant: c,
                    how: match on_failure {
                        MoraleOutcome::Flee => Departure::Fled,
                        MoraleOutcome::Surrender => Departure::Surrendered,
                    },
                });
            }
        }
    }
    Ok(())
}

/// § Retreat: "a special action and takes up the PC's entire turn; it can't be done as part of
/// another action."
fn retreat(d: &mut Decider, s: &Sheets, actor: &CombatantId) -> R {
    on_turn(d, actor)?;
    require_up(d, s, actor)?;
    no_speed(d, s, actor)?;
    if s.battle().retreat.is_some() {
        return Err(no(
            ErrorCode::InvalidArgument,
            "a retreat is already pending",
        ));
    }
    let f = fighter(d, actor)?;
    if f.budget.0 != ActionsLeft::FULL {
        return Err(no(
            ErrorCode::ActionAlreadyUsed,
            "retreating takes the whole turn: no other action may be taken in it",
        ));
    }
    for k in [ActionKind::Standard, ActionKind::Move, ActionKind::Quick] {
        d.emit(GameEvent::ActionUsed {
            combatant: actor.clone(),
            action: k,
            spent: k,
        });
    }
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::RetreatStarted {
        combatant: actor.clone(),
    }));
    // § Retreat: "Concentration effects immediately halt once the PC retreats."
    super::concentration::retreated(d, s, actor);
    // § Retreat: "Any retainers or NPCs following a PC who retreats must immediately make a
    // morale check at disadvantage" — proposed to the GM, who rolls it (`morale_check` with
    // `disadvantage`).
    let followers: Vec<CombatantId> = d
        .field
        .all()
        .map(|f| f.c.id.clone())
        .collect::<Vec<_>>()
        .into_iter()
        .filter(|id| {
            s.get(id)
                .is_some_and(|(_, k)| k.follows.as_ref() == Some(actor))
        })
        .filter(|id| up(d, s, id))
        .collect();
    if !followers.is_empty() {
        d.emit(GameEvent::MoraleProposed {
            trigger: MoraleTrigger::PcRetreated,
            combatants: followers,
        });
    }
    Ok(())
}

/// § Retreat: the GM's check, then the attacks it allows; a failed check or any hit stops the
/// retreat ("they stop moving"); otherwise the PC escapes and leaves the initiative.
fn resolve_retreat(
    d: &mut Decider,
    s: &Sheets,
    check: Option<&RetreatCheck>,
    attackers: &[CombatantId],
) -> R {
    running(d)?;
    let Some(who) = s.battle().retreat else {
        return Err(no(ErrorCode::InvalidArgument, "no retreat to rule on"));
    };
    let mut seen = BTreeSet::new();
    let mut attacks = Vec::new();
    for a in attackers {
        if !seen.insert(a.clone()) {
            return Err(no(
                ErrorCode::InvalidArgument,
                format!("{a} is listed twice"),
            ));
        }
        fighter(d, a)?;
        require_up(d, s, a)?;
        check_target(d, s, a, &who)?;
        let spec = s
            .get(a)
            .and_then(|(_, k)| k.attacks.first().cloned())
            .ok_or_else(|| no(ErrorCode::UnknownAttack, format!("{a} has no attack")))?;
        attacks.push((a.clone(), spec));
    }
    if let Some(c) = check {
        if !(1..=40).contains(&c.dc) {
            return Err(no(
                ErrorCode::InvalidArgument,
                format!("DC {} is outside 1..=40", c.dc),
            ));
        }
        let sh = sheet(s, &who)?.clone();
        let (ok, _) = roll_check(
            d,
            &sh,
            &who,
            c.ability,
            c.dc,
            c.proficient,
            Advantage::None,
            "retreat",
        )?;
        if !ok {
            d.emit(GameEvent::FiveTorches(FiveTorchesEvent::RetreatFailed {
                combatant: who,
            }));
            return Ok(());
        }
    }
    for (a, spec) in attacks {
        let extra = if spec.ranged && band(d, &a, &who) == Band::Close {
            Advantage::Disadvantage
        } else {
            Advantage::None
        };
        if resolve_attack(d, s, &a, &spec, &who, extra)? {
            d.emit(GameEvent::FiveTorches(FiveTorchesEvent::RetreatFailed {
                combatant: who,
            }));
            return Ok(());
        }
    }
    d.emit(GameEvent::LeftBattle {
        combatant: who,
        how: Departure::Escaped,
    });
    Ok(())
}

/// After the battle: the GM ends the session; PCs still incapacitated and unstabilized die
/// (their minute is over) and the seed is revealed.
fn end_session(d: &mut Decider) -> R {
    match d.field.battle.phase {
        Phase::Setup => Err(no(
            ErrorCode::BattleNotStarted,
            "the battle has not started",
        )),
        Phase::Running => Err(no(
            ErrorCode::InvalidArgument,
            "end the battle first (end_battle)",
        )),
        Phase::Ended => {
            aftermath_open(d)?;
            d.emit(GameEvent::SessionEnded);
            Ok(())
        }
    }
}

/// Several battles in one session (an encounter's `[[battles]]`, with `[options] rests = true`):
/// after a battle, once no PC lies incapacitated (§ Death & Injury: stabilized or dead) and a PC
/// is up, the next battle's monsters come in (the shared `next_battle`); the heroes keep hit
/// points, injuries, exhaustion, load, coins and experience, and time goes on as the GM says
/// (travel turns, rests).
fn next_battle(d: &mut Decider) -> R {
    crate::rules::common::battles::after_battle(d)?;
    aftermath_open(d)?;
    if anyone_dying(d) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "an incapacitated PC is stabilized or dies first",
        ));
    }
    let heroes = d.field.ids_of(Side::Heroes);
    if !heroes
        .iter()
        .any(|h| d.status(h) == Some(LifeStatus::Conscious))
    {
        return Err(no(
            ErrorCode::InvalidArgument,
            "no PC is alive to fight the next battle; end the session",
        ));
    }
    crate::rules::common::battles::next_battle(d)
}

// --- load, light, the dungeon clock, rest, stealth (second increment) ------------------------

/// Nothing may change once the GM ended the session.
pub(super) fn session_open(d: &Decider) -> R {
    if d.field.battle.session_over {
        return Err(no(ErrorCode::BattleOver, "the session is over"));
    }
    Ok(())
}

/// Dice may be rolled outside battle before it (setup) and after it while the seed is secret.
pub(super) fn dice_open(d: &Decider) -> R {
    match d.field.battle.phase {
        Phase::Setup | Phase::Running => session_open(d),
        Phase::Ended => aftermath_open(d),
    }
}

/// § Movement Actions: "A PC at 0′ speed is completely encumbered and can't move at all";
/// § Exhaustion: "their movement speed becomes 0′".
fn no_speed(d: &Decider, s: &Sheets, actor: &CombatantId) -> R {
    if let Some((sh, _)) = s.get(actor)
        && sh.speed <= 0
    {
        return Err(no(
            ErrorCode::NoSpeed,
            format!(
                "{} has 0' speed ({}) and cannot move",
                name(d, actor),
                if sh.exhausted {
                    "exhausted"
                } else {
                    "completely encumbered"
                }
            ),
        ));
    }
    Ok(())
}

/// The light where a combatant is (§ Light): the GM's setting for it, else the scene's; a lit
/// torch or lantern carried by it or by someone close to it (engaged) turns the scene's
/// darkness into dim light ("They cast 30′ of dim light"). A GM's setting for the combatant is
/// final.
pub fn light_at(d: &Decider, s: &Sheets, id: &CombatantId) -> LightLevel {
    let scene = s.battle().light;
    let Some((sh, _)) = s.get(id) else {
        return scene;
    };
    if let Some(own) = sh.light {
        return own;
    }
    if scene != LightLevel::Darkness {
        return scene;
    }
    let near_lit = d.field.get(id).is_some_and(|f| {
        f.pos
            .engaged
            .iter()
            .any(|o| s.get(o).is_some_and(|(o, _)| o.carried.is_some()))
    });
    if sh.carried.is_some() || near_lit {
        LightLevel::Dim
    } else {
        scene
    }
}

/// Game time passes: `time_passed`, then every carried light that burns out in it goes out
/// (in id order).
pub fn pass_time(d: &mut Decider, s: &Sheets, seconds: u32) {
    if seconds == 0 {
        return;
    }
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::TimePassed {
        seconds,
    }));
    let ids: Vec<CombatantId> = d.field.all().map(|f| f.c.id.clone()).collect();
    for id in ids {
        if let Some((sh, _)) = s.get(&id)
            && let Some(l) = sh.carried
            && l.seconds_left <= seconds
        {
            d.emit(GameEvent::FiveTorches(FiveTorchesEvent::LightWentOut {
                combatant: id,
                source: l.source,
            }));
        }
    }
}

/// The dungeon clock's rolls outside battle (a travel turn, rolling to return): refused in
/// battle (`in_battle` says why), once the dice are revealed, and while a PC lies dying.
pub(super) fn outside_battle_with_no_one_dying(d: &mut Decider, in_battle: &str) -> R {
    if d.field.battle.phase == Phase::Running {
        return Err(no(ErrorCode::InvalidArgument, in_battle));
    }
    dice_open(d)?;
    if anyone_dying(d) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "an incapacitated PC is stabilized or dies first",
        ));
    }
    Ok(())
}

pub(super) fn anyone_dying(d: &mut Decider) -> bool {
    let heroes: Vec<CombatantId> = d.field.ids_of(Side::Heroes);
    heroes
        .iter()
        .any(|h| d.status(h) == Some(LifeStatus::Unconscious))
}

/// GM (§ Light: "The GM must describe the current level of light").
fn set_light(d: &mut Decider, who: Option<&CombatantId>, light: Option<LightLevel>) -> R {
    session_open(d)?;
    match who {
        Some(c) => {
            fighter(d, c)?;
        }
        None if light.is_none() => {
            return Err(no(
                ErrorCode::InvalidArgument,
                "the scene's light needs a level",
            ));
        }
        None => {}
    }
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::LightSet {
        combatant: who.cloned(),
        light,
    }));
    Ok(())
}

/// § Light: a fresh torch (1 hour) or lantern (3 hours), or putting it out. In battle it is a
/// quick action on the actor's turn ("Drawing items … are quick actions"); outside it, free.
fn carry_light(d: &mut Decider, s: &Sheets, actor: &CombatantId, source: Option<LightSource>) -> R {
    session_open(d)?;
    fighter(d, actor)?;
    if d.field.battle.phase == Phase::Running {
        pay(d, s, actor, ActionKind::Quick)?;
    } else {
        require_up(d, s, actor)?;
    }
    let carried = sheet(s, actor)?.carried;
    if source.is_none() && carried.is_none() {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("{} carries no lit light", name(d, actor)),
        ));
    }
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::LightCarried {
        combatant: actor.clone(),
        source,
        seconds: source.map_or(0, rules::burn_seconds),
    }));
    Ok(())
}

/// GM (§ Movement Actions; § Rolling To Return: "lose 1 load of equipment"): what a combatant
/// carries.
fn set_load(d: &mut Decider, s: &Sheets, who: &CombatantId, load: i32, coins: i32) -> R {
    session_open(d)?;
    fighter(d, who)?;
    sheet(s, who)?;
    if !(0..=60).contains(&load) || !(0..=100_000).contains(&coins) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "load is 0..=60 and coins 0..=100000",
        ));
    }
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::LoadSet {
        combatant: who.clone(),
        load,
        coins,
    }));
    Ok(())
}

/// § Travel Turns: an hour outside battle; the d20 threat table, with advantage if the party is
/// cautious (the GM's ruling); torches and lanterns burn down.
fn travel_turn(d: &mut Decider, s: &Sheets, adv: Advantage) -> R {
    outside_battle_with_no_one_dying(d, "in battle time passes by rounds, not travel turns")?;
    travel_turn_of(d, s, adv, rules::TRAVEL_TURN_SECONDS, 0)
}

/// One travel turn's threat roll, then `seconds` of time (an hour; a day or a week on a
/// journey). `earlier` counts the travel turns rolled before it in the same command.
pub(super) fn travel_turn_of(
    d: &mut Decider,
    s: &Sheets,
    adv: Advantage,
    seconds: u32,
    earlier: u32,
) -> R {
    let (roll, natural) = d20(d, adv)?;
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::TravelTurnRolled {
        number: s
            .battle()
            .travel_turns
            .saturating_add(earlier)
            .saturating_add(1),
        roll,
        threat: rules::threat(natural),
    }));
    pass_time(d, s, seconds);
    Ok(())
}

/// § Resilience & Exhaustion: "The GM can call for a resilience check (1d20 + CON mod) once the
/// PC has adventured for more hours than their resilience"; DC 10 + hours beyond; failure:
/// exhausted.
fn resilience_check(d: &mut Decider, s: &Sheets, who: &CombatantId) -> R {
    dice_open(d)?;
    let f = fighter(d, who)?;
    if f.hero.is_none() {
        return Err(no(
            ErrorCode::InvalidTarget,
            "resilience checks are for PCs",
        ));
    }
    require_up(d, s, who)?;
    let sh = sheet(s, who)?.clone();
    if sh.exhausted {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("{} is already exhausted", name(d, who)),
        ));
    }
    let Some(dc) = rules::resilience_dc(sh.adventured, sh.abilities.con) else {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!(
                "{} has adventured {} hours, within its resilience of {}",
                name(d, who),
                sh.adventured / 3600,
                sh.abilities.con
            ),
        ));
    };
    let (ok, _) = roll_check(
        d,
        &sh,
        who,
        Ability::Con,
        dc,
        false,
        Advantage::None,
        "resilience",
    )?;
    if !ok {
        d.emit(GameEvent::FiveTorches(
            FiveTorchesEvent::ExhaustionChanged {
                combatant: who.clone(),
                exhausted: true,
            },
        ));
    }
    Ok(())
}

/// GM: exhaustion from other maladies ("at the GM's discretion").
fn exhaust(d: &mut Decider, s: &Sheets, who: &CombatantId) -> R {
    session_open(d)?;
    fighter(d, who)?;
    if sheet(s, who)?.exhausted || !in_fight(d, s, who) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{} is already exhausted or gone", name(d, who)),
        ));
    }
    d.emit(GameEvent::FiveTorches(
        FiveTorchesEvent::ExhaustionChanged {
            combatant: who.clone(),
            exhausted: true,
        },
    ));
    Ok(())
}

/// § Healing From Rest: nights of safe rest heal 1 HP per level each, unsafe ones 1 HP; only
/// safe rest cures exhaustion (§ Exhaustion); "disadvantage until rest" ends; the hours
/// adventured start again. Outside battle, with no PC dying.
fn rest(d: &mut Decider, s: &Sheets, safe: bool, nights: u32) -> R {
    session_open(d)?;
    if d.field.battle.phase == Phase::Running {
        return Err(no(ErrorCode::InvalidArgument, "no resting in battle"));
    }
    if !(1..=30).contains(&nights) {
        return Err(no(ErrorCode::InvalidArgument, "rest 1-30 nights"));
    }
    let heroes: Vec<CombatantId> = d.field.ids_of(Side::Heroes);
    if anyone_dying(d) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "an incapacitated PC is stabilized or dies first",
        ));
    }
    pass_time(d, s, rules::NIGHT_SECONDS.saturating_mul(nights));
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::Rested {
        safe,
        nights,
    }));
    for h in heroes {
        if d.status(&h) != Some(LifeStatus::Conscious) {
            continue;
        }
        let level = fighter(d, &h)?.c.level;
        if let Some(mut v) = d.overlay.vitals(d.field, &h)
            && v.current < v.max
        {
            let amount = rules::rest_healing(level, nights, safe);
            v.current = rules::clamp_hp(v.current.saturating_add(amount), v.max);
            d.overlay.set(&h, v);
            d.emit(GameEvent::Healed {
                target: h.clone(),
                roll: None,
                amount,
                recovery_used: false,
                hp_after: Some(v.current),
            });
        }
        if safe && s.get(&h).is_some_and(|(sh, _)| sh.exhausted) {
            d.emit(GameEvent::FiveTorches(
                FiveTorchesEvent::ExhaustionChanged {
                    combatant: h,
                    exhausted: false,
                },
            ));
        }
    }
    Ok(())
}

/// § Stealth / § Active Actions ("stealth" is an active action that requires a check): a DEX
/// check (proficiency with `stealth`) against the GM's stealth DC (11 unless set), with the
/// light's advantage or disadvantage for stealth.
fn hide(d: &mut Decider, s: &Sheets, actor: &CombatantId) -> R {
    pay(d, s, actor, ActionKind::Standard)?;
    let sh = sheet(s, actor)?.clone();
    if sh.hidden {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("{} is already in stealth", name(d, actor)),
        ));
    }
    let proficient = s
        .get(actor)
        .is_some_and(|(_, k)| k.proficiencies.iter().any(|p| p == "stealth"));
    let dc = s.battle().stealth_dc.unwrap_or(rules::STEALTH_DC);
    let lit = rules::light_advantage(
        light_at(d, s, actor),
        sh.darksight,
        Lit::Check(Some(LightTask::Stealth)),
    );
    let (ok, _) = roll_check(d, &sh, actor, Ability::Dex, dc, proficient, lit, "stealth")?;
    if ok {
        d.emit(GameEvent::FiveTorches(FiveTorchesEvent::StealthChanged {
            combatant: actor.clone(),
            hidden: true,
        }));
    }
    Ok(())
}

/// GM (§ Stealth: "Stealth DCs can vary by circumstances, or can even be impossible" — a DC
/// above any total, e.g. 40).
fn set_stealth_dc(d: &mut Decider, dc: Option<i32>) -> R {
    session_open(d)?;
    if let Some(v) = dc
        && !(1..=40).contains(&v)
    {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("DC {v} is outside 1..=40"),
        ));
    }
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::StealthDcSet {
        dc,
    }));
    Ok(())
}

/// GM: a hidden combatant is found.
fn reveal(d: &mut Decider, s: &Sheets, who: &CombatantId) -> R {
    session_open(d)?;
    fighter(d, who)?;
    if !sheet(s, who)?.hidden {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{} is not in stealth", name(d, who)),
        ));
    }
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::StealthChanged {
        combatant: who.clone(),
        hidden: false,
    }));
    Ok(())
}

/// § Quick Actions: "The most common form of quick action is a readied action, such as when
/// waiting to spring an ambush." Fray's reading: readying spends the quick action and the held
/// action (active or movement) now; the held action is taken once, out of turn, when the
/// declared trigger happens (the controller sends it; the trigger is in the log for the GM to
/// judge), and lapses when the actor's next turn begins.
fn ready_action(
    d: &mut Decider,
    s: &Sheets,
    actor: &CombatantId,
    action: ActionKind,
    trigger: &str,
) -> R {
    on_turn(d, actor)?;
    require_up(d, s, actor)?;
    if action == ActionKind::Quick {
        return Err(no(
            ErrorCode::InvalidArgument,
            "ready an active (standard) or a movement action",
        ));
    }
    if trigger.trim().is_empty() || trigger.len() > 80 {
        return Err(no(
            ErrorCode::InvalidArgument,
            "declare a trigger of 1-80 characters",
        ));
    }
    if action == ActionKind::Move {
        no_speed(d, s, actor)?;
    }
    if s.battle().retreat.as_ref() == Some(actor) {
        return Err(no(
            ErrorCode::ActionAlreadyUsed,
            "retreating takes the whole turn",
        ));
    }
    if d.field.battle.readied.iter().any(|(c, _)| c == actor) {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("{} already holds a readied action", name(d, actor)),
        ));
    }
    let b = fighter(d, actor)?.budget.0;
    let held = match action {
        ActionKind::Standard => b.standard,
        _ => b.move_action,
    };
    if !b.quick || !held {
        return Err(no(
            ErrorCode::ActionAlreadyUsed,
            "readying needs the quick action and the action held, both unspent",
        ));
    }
    for k in [ActionKind::Quick, action] {
        d.emit(GameEvent::ActionUsed {
            combatant: actor.clone(),
            action: k,
            spent: k,
        });
    }
    d.emit(GameEvent::FiveTorches(FiveTorchesEvent::ReadyDeclared {
        combatant: actor.clone(),
        action,
        trigger: trigger.trim().to_owned(),
    }));
    Ok(())
}
