//! Deciding commands: legality first (nothing is rolled for a refused command), then the
//! events, rolling every die through the session RNG.

use super::position;
use super::rules;
use crate::content::model::{AttackSpec, EffectSpec, Reach, Targeting, Triggered, Usage};
use crate::dice::Placeholders;
use crate::ecs::components::Stage;
use crate::rules::common::battles::{after_battle, grant_temp_hp, next_battle};
use crate::rules::common::decider::Decider;
use crate::rules::common::field::{
    FighterItem, effect_bonus_terms, grabbed_by, has_condition, is_grabbed_by,
};
pub(super) use crate::rules::common::guards::{fighter, not_your_turn_msg, reject, running};
use fray_protocol::command::{AttackMode, EscalationAction};
use fray_protocol::event::{
    ActionKind, AttackOutcome, BonusStat, Condition, DamageCause, DamageType, Defense, Effect,
    EffectDuration, EffectKind, GameEvent, Provocation, SavePurpose,
};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::roll::Modifiers;
use fray_protocol::state::{LifeStatus, Phase};
use fray_protocol::{Command, ErrorCode, Rejection};
use fray_protocol::{ThirteenthAgeCommand, ThirteenthAgeEvent};
use std::collections::BTreeMap;

/// Decides a command.
pub fn decide(d: &mut Decider, cmd: &Command) -> Result<(), Rejection> {
    take_readied_action(d, cmd);
    match cmd {
        Command::StartBattle => start_battle(d, None),
        Command::QuickRest { actor, recoveries } => quick_rest(d, actor, *recoveries),
        Command::FullHealUp => {
            after_battle(d)?;
            d.emit(GameEvent::FullHealUp);
            Ok(())
        }
        Command::EndSession => {
            after_battle(d)?;
            d.emit(GameEvent::SessionEnded);
            Ok(())
        }
        Command::NextBattle => next_battle(d),
        Command::ThirteenthAge(ThirteenthAgeCommand::StartAmbush {
            ambusher,
            advance_escalation,
        }) => start_battle(d, Some((ambusher, *advance_escalation))),
        Command::ThirteenthAge(ThirteenthAgeCommand::Escalation { action }) => {
            running(d)?;
            match action {
                EscalationAction::Hold | EscalationAction::Resume => {
                    let held = *action == EscalationAction::Hold;
                    if d.field.battle.escalation_held == held {
                        return reject(
                            ErrorCode::InvalidArgument,
                            format!(
                                "the escalation die is already {}",
                                if held { "held" } else { "advancing" }
                            ),
                        );
                    }
                    d.emit(GameEvent::ThirteenthAge(
                        ThirteenthAgeEvent::EscalationHeld { held },
                    ));
                }
                EscalationAction::Reset => d.emit(GameEvent::ThirteenthAge(
                    ThirteenthAgeEvent::EscalationDie { value: 0 },
                )),
            }
            Ok(())
        }
        Command::Flee => {
            running(d)?;
            d.emit(GameEvent::ThirteenthAge(ThirteenthAgeEvent::PartyFled));
            super::turns::end_battle(d, Some(Side::Monsters));
            Ok(())
        }
        Command::ThirteenthAge(ThirteenthAgeCommand::SituationalModifier {
            target,
            stat,
            amount,
        }) => {
            running(d)?;
            let f = fighter(d, target)?;
            if *amount != 2 && *amount != -2 {
                return reject(
                    ErrorCode::InvalidArgument,
                    format!("the universal modifier is +2 or -2, not {amount}"),
                );
            }
            if f.vit.0.is_out() {
                return reject(
                    ErrorCode::InvalidTarget,
                    format!("{} is out of the fight", f.c.name),
                );
            }
            let id = d.effect_id();
            d.emit(GameEvent::EffectApplied {
                effect: Effect {
                    id,
                    target: target.clone(),
                    source: target.clone(),
                    kind: EffectKind::Bonus {
                        stat: *stat,
                        amount: *amount,
                    },
                    duration: EffectDuration::UntilEndOfSourcesNextTurn,
                    armed: false,
                },
            });
            Ok(())
        }
        Command::GrantTempHp { target, amount } => grant_temp_hp(d, target, *amount),
        Command::EndBattle => {
            if d.field.battle.phase == Phase::Ended {
                return reject(ErrorCode::BattleOver, "the battle is already over");
            }
            super::turns::end_battle(d, None);
            Ok(())
        }
        Command::Attack {
            actor,
            attack,
            targets,
            mode,
            knock_out,
            forced,
            weapon,
            secondary_target,
        } => {
            if secondary_target.is_some() {
                return reject(
                    ErrorCode::InvalidArgument,
                    "secondary_target is an Orcus attack option (§ Secondary attacks)",
                );
            }
            if weapon.is_some() {
                return reject(
                    ErrorCode::InvalidArgument,
                    "weapon is an Orcus attack option (§ Side Weapon)",
                );
            }
            if !forced.is_empty() {
                return reject(
                    ErrorCode::InvalidArgument,
                    "forced is an Orcus attack option (§ Unwilling movement)",
                );
            }
            if *knock_out {
                check_knock_out(d, actor)?;
            }
            let ko = *knock_out;
            match mode {
                AttackMode::Standard => attack_cmd(d, actor, attack, targets, ko),
                AttackMode::Opportunity => opportunity_attack(d, actor, attack, targets, ko),
                AttackMode::CoupDeGrace => coup_de_grace(d, actor, attack, targets, ko),
            }
        }
        Command::KnockOuts { allowed } => {
            if d.field.battle.seed_revealed {
                return reject(ErrorCode::BattleOver, "the session is over");
            }
            if d.field.battle.knock_outs_allowed == *allowed {
                return reject(
                    ErrorCode::InvalidArgument,
                    format!(
                        "knock-out blows are already {}",
                        if *allowed { "allowed" } else { "refused" }
                    ),
                );
            }
            d.emit(GameEvent::ThirteenthAge(
                ThirteenthAgeEvent::KnockOutsRuled { allowed: *allowed },
            ));
            Ok(())
        }
        Command::Move {
            actor,
            engage,
            far_away,
        } => position::move_cmd(d, actor, engage.as_ref(), *far_away),
        Command::ThirteenthAge(ThirteenthAgeCommand::Disengage { actor }) => {
            position::disengage(d, actor)
        }
        Command::ThirteenthAge(ThirteenthAgeCommand::Intercept { actor, mover }) => {
            position::intercept(d, actor, mover)
        }
        Command::LetGo { actor, target } => position::let_go_cmd(d, actor, target),
        Command::ThirteenthAge(ThirteenthAgeCommand::Teleport {
            target,
            engage,
            far_away,
        }) => position::teleport(d, target, engage.as_ref(), *far_away),
        Command::Stabilize { actor, target } => stabilize(d, actor, target),
        Command::Rally { actor } => rally(d, actor),
        Command::ThirteenthAge(ThirteenthAgeCommand::FightInSpirit { actor, ally, stat }) => {
            fight_in_spirit(d, actor, ally, *stat)
        }
        Command::ThirteenthAge(ThirteenthAgeCommand::UsePotion { actor, target }) => {
            use_potion(d, actor, target)
        }
        Command::Ready { actor, action } => {
            if *action == ActionKind::Quick {
                return reject(
                    ErrorCode::InvalidArgument,
                    "ready a standard or a move action",
                );
            }
            if d.field.battle.current() != Some(actor) {
                return reject(ErrorCode::NotYourTurn, not_your_turn_msg(d, actor));
            }
            let payer = ready_to_act(d, actor, ActionKind::Standard)?;
            d.emit(GameEvent::ActionUsed {
                combatant: actor.clone(),
                action: ActionKind::Standard,
                spent: payer,
            });
            d.emit(GameEvent::ThirteenthAge(ThirteenthAgeEvent::Readied {
                combatant: actor.clone(),
                action: *action,
            }));
            Ok(())
        }
        Command::ThirteenthAge(ThirteenthAgeCommand::Delay { actor }) => {
            able_to_act(d, actor)?;
            let f = fighter(d, actor)?;
            // § Delay: you take no action now; only before acting this turn.
            if f.budget.0 != fray_protocol::state::ActionsLeft::FULL {
                return reject(
                    ErrorCode::ActionAlreadyUsed,
                    format!("{} has already acted this turn and cannot delay", f.c.name),
                );
            }
            d.emit(GameEvent::Delayed {
                combatant: actor.clone(),
            });
            Ok(())
        }
        Command::ThirteenthAge(ThirteenthAgeCommand::Undelay { actor }) => {
            running(d)?;
            let f = fighter(d, actor)?;
            if !d.field.battle.delayed.contains(actor) {
                return reject(
                    ErrorCode::InvalidArgument,
                    format!("{} is not delaying", f.c.name),
                );
            }
            if d.field.battle.undelay.is_some() {
                return reject(
                    ErrorCode::InvalidArgument,
                    "another delayed combatant already acts after this turn",
                );
            }
            if d.field.battle.current().is_none() {
                return reject(
                    ErrorCode::NotYourTurn,
                    "a delayed action comes after someone's turn",
                );
            }
            d.emit(GameEvent::ThirteenthAge(ThirteenthAgeEvent::DelayEnding {
                combatant: actor.clone(),
            }));
            Ok(())
        }
        Command::EndTurn { actor } => {
            running(d)?;
            fighter(d, actor)?;
            if d.field.battle.current() != Some(actor) {
                return reject(ErrorCode::NotYourTurn, not_your_turn_msg(d, actor));
            }
            super::turns::end_turn(d, actor);
            Ok(())
        }
        // A common command 13th Age does not play (another family's commands never reach
        // here: the engine refuses them with `wrong_ruleset`).
        other => reject(
            ErrorCode::InvalidArgument,
            format!("'{}' is not a 13th Age command", other.kind()),
        ),
    }
}

/// Checks that `actor` may take an action of kind `needed` now, and returns the action that
/// pays for it (§ Regular Actions: a standard action can pay for a move or quick one).
pub(super) fn ready_to_act(
    d: &Decider,
    actor: &CombatantId,
    needed: ActionKind,
) -> Result<ActionKind, Rejection> {
    able_to_act(d, actor)?;
    let f = fighter(d, actor)?;
    // A readied action pays for one action of its kind (a standard one for any).
    if let Some(held) = readied(d, actor) {
        return match (held, needed) {
            (ActionKind::Standard, _)
            | (ActionKind::Move, ActionKind::Move | ActionKind::Quick) => Ok(held),
            _ => reject(
                ErrorCode::ActionAlreadyUsed,
                format!("{} readied a move action, not a standard one", f.c.name),
            ),
        };
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

/// The readied action `actor` holds, if it may take it now (someone else's turn is under way).
fn readied(d: &Decider, actor: &CombatantId) -> Option<ActionKind> {
    let current = d.field.battle.current()?;
    if current == actor || d.field.battle.stage != Stage::Acting {
        return None;
    }
    d.field
        .battle
        .readied
        .iter()
        .find(|(c, _)| c == actor)
        .map(|(_, k)| *k)
}

/// § Readying an Action: a readied action taken now moves its taker just ahead of the
/// combatant whose turn it is, for the rest of the battle. (Emitted before the action's own
/// events; a refused action discards them with everything else.)
fn take_readied_action(d: &mut Decider, cmd: &Command) {
    let Some(actor) = cmd.actor() else { return };
    let spends_action = !matches!(
        cmd,
        Command::EndTurn { .. }
            | Command::ThirteenthAge(ThirteenthAgeCommand::Undelay { .. })
            | Command::ThirteenthAge(ThirteenthAgeCommand::Intercept { .. })
            | Command::LetGo { .. }
            | Command::ThirteenthAge(ThirteenthAgeCommand::FightInSpirit { .. })
            | Command::Attack {
                mode: AttackMode::Opportunity,
                ..
            }
    );
    // An interrupt attack is its own out-of-turn action, not the readied one.
    let interrupt = match cmd {
        Command::Attack { attack, .. } => d
            .field
            .get(actor)
            .is_some_and(|f| f.arsenal.0.iter().any(|a| a.id == *attack && a.interrupt)),
        _ => false,
    };
    if !spends_action || interrupt || readied(d, actor).is_none() {
        return;
    }
    let Some(current) = d.field.battle.current().cloned() else {
        return;
    };
    let mut order = d.field.battle.order_without(actor);
    let at = order.iter().position(|c| *c == current).unwrap_or(0);
    order.insert(at, actor.clone());
    d.emit(GameEvent::ReadiedActionTaken {
        combatant: actor.clone(),
    });
    d.emit(GameEvent::ThirteenthAge(ThirteenthAgeEvent::OrderChanged {
        order,
        turn_index: u32::try_from(at + 1).unwrap_or(0),
    }));
}

/// Checks that it is `actor`'s turn (or that it holds a readied action to take now) and that it
/// can act at all (conscious, not helpless, not stunned).
pub(super) fn able_to_act(d: &Decider, actor: &CombatantId) -> Result<(), Rejection> {
    running(d)?;
    let f = fighter(d, actor)?;
    let on_turn = d.field.battle.current() == Some(actor) && d.field.battle.stage == Stage::Acting;
    if !on_turn && readied(d, actor).is_none() {
        return reject(ErrorCode::NotYourTurn, not_your_turn_msg(d, actor));
    }
    if f.vit.0 != LifeStatus::Conscious {
        return reject(
            ErrorCode::CannotAct,
            format!("{} is {:?} and cannot act", f.c.name, f.vit.0).to_lowercase(),
        );
    }
    // § Conditions, Helpless: asleep (or unconscious) creatures take no actions.
    if has_condition(f.fx, Condition::Helpless) {
        return reject(
            ErrorCode::CannotAct,
            format!("{} is helpless and can take no actions", f.c.name),
        );
    }
    // § Conditions, Stunned: no actions.
    if has_condition(f.fx, Condition::Stunned) {
        return reject(
            ErrorCode::Stunned,
            format!("{} is stunned and can take no actions", f.c.name),
        );
    }
    Ok(())
}

fn start_battle(d: &mut Decider, ambush: Option<(&CombatantId, bool)>) -> Result<(), Rejection> {
    let ambusher = ambush.map(|a| a.0);
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
    let ambush_side = match ambusher {
        Some(a) => {
            let f = fighter(d, a)?;
            if !f.vit.0.is_up() {
                return reject(
                    ErrorCode::CannotAct,
                    format!("{} cannot start an ambush", f.c.name),
                );
            }
            Some(f.c.side)
        }
        None => None,
    };
    d.emit(GameEvent::BattleStarted);
    let placed = roll_initiative(d, ambush_side);
    match (ambusher, ambush_side) {
        (Some(a), Some(side)) => {
            // § Ambushes and Surprise: only the nominated ambusher and its highest-initiative
            // ally act in the ambush round, in initiative order.
            let ally = placed
                .iter()
                .find(|p| p.2 == side && &p.3 != a)
                .map(|p| p.3.clone());
            let acting: Vec<CombatantId> = placed
                .iter()
                .filter(|p| &p.3 == a || Some(&p.3) == ally.as_ref())
                .map(|p| p.3.clone())
                .collect();
            d.emit(GameEvent::SurpriseRound {
                acting,
                advance_escalation: ambush.is_some_and(|a| a.1),
            });
        }
        _ => d.emit(GameEvent::TurnOrder {
            order: placed.into_iter().map(|p| p.3).collect(),
        }),
    }
    Ok(())
}

/// Rolls initiative (§ Roll Once: d20 + bonus; all monsters of the same type share one roll)
/// for one side or everyone — heroes in id order, then monster groups in template order — and
/// returns (total, bonus, side, id) sorted into the order of battle: higher total first, ties
/// by higher bonus, then heroes before monsters, then id (documented in docs/rules/13th-age.md).
pub(super) fn roll_initiative(
    d: &mut Decider,
    only: Option<Side>,
) -> Vec<(i32, i32, Side, CombatantId)> {
    let mut heroes = Vec::new();
    let mut groups: BTreeMap<String, (Modifiers, Vec<CombatantId>)> = BTreeMap::new();
    for f in d.field.all() {
        if only.is_some_and(|s| s != f.c.side) {
            continue;
        }
        match f.c.side {
            Side::Heroes => heroes.push((initiative_terms(&f), vec![f.c.id.clone()])),
            Side::Monsters => groups
                .entry(f.c.template.clone())
                .or_insert_with(|| (initiative_terms(&f), Vec::new()))
                .1
                .push(f.c.id.clone()),
        }
    }
    let mut placed: Vec<(i32, i32, Side, CombatantId)> = Vec::new();
    for (side, (terms, ids)) in heroes
        .into_iter()
        .map(|h| (Side::Heroes, h))
        .chain(groups.into_values().map(|g| (Side::Monsters, g)))
    {
        let roll = d.d20();
        let bonus = terms.total();
        let total = roll.total + bonus;
        for id in &ids {
            placed.push((total, bonus, side, id.clone()));
        }
        d.emit(GameEvent::InitiativeRolled {
            combatants: ids,
            roll,
            bonus,
            total,
            modifiers: terms.into_vec(),
        });
    }
    sort_order(&mut placed);
    placed
}

/// A combatant's initiative bonus term by term: a hero's DEX and level (§ Initiative), and
/// whatever else its sheet adds; a monster's stat block.
pub(super) fn initiative_terms(f: &FighterItem) -> Modifiers {
    let mut terms = Modifiers::new();
    if let Some(h) = f.hero {
        terms.add("DEX", h.spec.mods.dex).add("level", f.c.level);
    }
    let rest = f.init.bonus - terms.total();
    terms.add("initiative bonus", rest);
    terms
}

/// Sorts (total, bonus, side, id) into the order of battle.
pub(super) fn sort_order(placed: &mut [(i32, i32, Side, CombatantId)]) {
    placed.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(b.1.cmp(&a.1))
            .then(a.2.cmp(&b.2))
            .then(a.3.cmp(&b.3))
    });
}

fn defense_value(f: &FighterItem, vs: Defense) -> i32 {
    let base = match vs {
        Defense::Ac => f.def.0.ac,
        // Orcus defenses never appear in 13th Age content (validated on load); physical and
        // mental ones map to PD and MD.
        Defense::Pd | Defense::Fortitude | Defense::Reflex => f.def.0.pd,
        Defense::Md | Defense::Will => f.def.0.md,
    };
    let recovery_penalty = f.hero.map_or(0, |h| h.recovery_penalty);
    let bonus = rules::best_bonus(
        f.fx,
        match vs {
            Defense::Ac => BonusStat::Ac,
            Defense::Pd | Defense::Fortitude | Defense::Reflex => BonusStat::Pd,
            Defense::Md | Defense::Will => BonusStat::Md,
        },
    );
    base + bonus + rules::defense_penalty(f.fx, f.vit.0) - recovery_penalty
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

/// How a damage expression's plain numbers are named among its modifiers (`2d6+4`: the 4).
const DAMAGE_LITERAL: &str = "damage bonus";

/// What a resolved attack is: its spec, bonus (term by term), and how it was made.
struct Strike {
    spec: AttackSpec,
    terms: Modifiers,
    ph: Placeholders,
    auto_crit: bool,
    flexible: bool,
    /// § Unconscious: the hero means to keep its targets alive (a monster dropped to 0 hp is
    /// knocked out instead of slain).
    knock_out: bool,
}

impl Strike {
    /// The strike of `a` with `spec`: its bonus and placeholders now; flexible only where
    /// allowed (never on an opportunity attack or a coup de grace).
    fn new(
        d: &Decider,
        a: &FighterItem,
        spec: AttackSpec,
        auto_crit: bool,
        flexible_allowed: bool,
        knock_out: bool,
    ) -> Strike {
        Strike {
            terms: attack_terms(d, a, &spec),
            ph: placeholders(a),
            flexible: flexible_allowed && !spec.maneuvers.is_empty(),
            auto_crit,
            knock_out,
            spec,
        }
    }
}

/// The attack bonus before the d20, term by term (§ Attack Bonuses, § Escalation Die,
/// § Conditions, § Stacking Rules; the recovery penalty of § Recoveries).
fn attack_terms(d: &Decider, a: &FighterItem, spec: &AttackSpec) -> Modifiers {
    let mut terms = spec.bonus_modifiers();
    if let Some((condition, penalty)) = rules::attack_penalty_term(a.fx) {
        terms.add(condition, penalty);
    }
    terms.extend(effect_bonus_terms(&a.fx.0, BonusStat::Attack));
    terms.add("no recoveries", -a.hero.map_or(0, |h| h.recovery_penalty));
    // PCs add the escalation die; monsters don't, and fear prevents it.
    if a.hero.is_some() && !has_condition(a.fx, Condition::Fear) {
        terms.add("escalation die", i32::from(d.field.battle.escalation));
    }
    terms
}

/// Checks an attack spec against the attacker's conditions and the targets' positions.
fn check_attack(
    d: &Decider,
    a: &FighterItem,
    spec: &AttackSpec,
    targets: &[CombatantId],
) -> Result<(), Rejection> {
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
    // § Conditions, Hampered: only basic attacks.
    if has_condition(a.fx, Condition::Hampered) && !spec.basic {
        return reject(
            ErrorCode::Hampered,
            format!("{} is hampered and can only make basic attacks", a.c.name),
        );
    }
    // § Grabbed: no ranged attacks.
    if spec.reach == Reach::Ranged && grabbed_by(a.fx).is_some() {
        return reject(
            ErrorCode::Grabbed,
            format!("{} is grabbed and cannot use ranged attacks", a.c.name),
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
        if tf.vit.0.is_out() {
            return reject(
                ErrorCode::InvalidTarget,
                format!("{} is out of the fight", tf.c.name),
            );
        }
        // § Engaged / Unengaged: melee attacks only against enemies engaged with you.
        if spec.reach == Reach::Melee && !a.pos.engaged.contains(t) {
            return reject(
                ErrorCode::NotEngaged,
                format!(
                    "{} is not engaged with {}: move to engage it first",
                    a.c.name, tf.c.name
                ),
            );
        }
        // § Target Hit Points: current hit points, not starting hit points.
        if let Some(max) = spec.max_target_hp
            && tf.hp.current > max
        {
            return reject(
                ErrorCode::InvalidTarget,
                format!(
                    "{} only affects targets with {max} hit points or fewer",
                    spec.name
                ),
            );
        }
        if spec.reach == Reach::Close && (a.pos.far_away || tf.pos.far_away) {
            return reject(
                ErrorCode::OutOfReach,
                format!("{} is out of reach of a close attack", tf.c.name),
            );
        }
    }
    Ok(())
}

/// Who may make an opportunity attack: conscious, able to act, not confused, not grabbed.
pub(super) fn can_make_opportunity_attack(f: &FighterItem) -> bool {
    f.vit.0 == LifeStatus::Conscious
        && !has_condition(f.fx, Condition::Stunned)
        && !has_condition(f.fx, Condition::Confused)
        && !has_condition(f.fx, Condition::Helpless)
        && grabbed_by(f.fx).is_none()
}

/// Opens opportunity attacks against `provoker` for the given engaged foes (those able).
pub(super) fn provoke(
    d: &mut Decider,
    provoker: &CombatantId,
    foes: Vec<CombatantId>,
    reason: Provocation,
) {
    let attackers: Vec<CombatantId> = foes
        .into_iter()
        .filter(|f| {
            d.field
                .get(f)
                .is_some_and(|x| can_make_opportunity_attack(&x))
        })
        .collect();
    if !attackers.is_empty() {
        d.emit(GameEvent::ThirteenthAge(
            ThirteenthAgeEvent::OpportunityOpened {
                provoker: provoker.clone(),
                attackers,
                reason,
            },
        ));
    }
}

/// § Ranged Attacks / § Spell Attacks: ranged attacks draw opportunity attacks from engaged
/// foes not targeted; spells (not close-quarters) from every engaged foe.
fn provoke_attack(
    d: &mut Decider,
    actor: &CombatantId,
    spec: &AttackSpec,
    engaged: Vec<CombatantId>,
    targets: &[CombatantId],
) {
    if spec.spell && spec.reach != Reach::Close {
        provoke(d, actor, engaged, Provocation::Spell);
    } else if spec.reach == Reach::Ranged {
        let untargeted = engaged
            .into_iter()
            .filter(|e| !targets.contains(e))
            .collect();
        provoke(d, actor, untargeted, Provocation::RangedAttack);
    }
}

fn attack_cmd(
    d: &mut Decider,
    actor: &CombatantId,
    attack: &str,
    targets: &[CombatantId],
    knock_out: bool,
) -> Result<(), Rejection> {
    running(d)?;
    if fighter(d, actor).and_then(|a| find_attack(&a, attack).map(|s| s.interrupt))? {
        return interrupt_attack(d, actor, attack, targets, knock_out);
    }
    let needed = {
        let a = fighter(d, actor)?;
        if find_attack(&a, attack)?.quick {
            ActionKind::Quick
        } else {
            ActionKind::Standard
        }
    };
    let payer = ready_to_act(d, actor, needed)?;
    let a = fighter(d, actor)?;
    let spec = find_attack(&a, attack)?.clone();
    // "All enemies engaged with you": the engaged foes still in the fight, by id.
    let engaged_foes: Vec<CombatantId>;
    let targets: &[CombatantId] = if spec.targeting == Targeting::AllEngaged {
        engaged_foes = a
            .pos
            .engaged
            .iter()
            .filter(|e| d.field.get(e).is_some_and(|f| !f.vit.0.is_out()))
            .take(spec.max_targets as usize)
            .cloned()
            .collect();
        if engaged_foes.is_empty() {
            return reject(
                ErrorCode::NotEngaged,
                format!(
                    "{} targets every engaged enemy, and {} is engaged with none",
                    spec.name, a.c.name
                ),
            );
        }
        &engaged_foes
    } else if let Targeting::Group(_) = &spec.targeting {
        // § Targeting: a group can't be skipped — from the named first target, the next enemies
        // in the order of battle (alive, not far away), up to the attack's maximum.
        let Some(first) = targets.first() else {
            return reject(
                ErrorCode::WrongTargetCount,
                format!("{} needs a first target", spec.name),
            );
        };
        let order = &d.field.battle.order;
        let start = order.iter().position(|c| c == first).unwrap_or(0);
        engaged_foes = order
            .iter()
            .cycle()
            .skip(start)
            .take(order.len())
            .filter(|id| {
                d.field
                    .get(id)
                    .is_some_and(|f| f.c.side != a.c.side && !f.pos.far_away && !f.vit.0.is_out())
            })
            .take(spec.max_targets as usize)
            .cloned()
            .collect();
        if engaged_foes.first() != Some(first) {
            return reject(
                ErrorCode::InvalidTarget,
                format!("{first} cannot start the group"),
            );
        }
        &engaged_foes
    } else {
        targets
    };
    check_attack(d, &a, &spec, targets)?;
    check_usage(&a, &spec)?;
    // Legal: from here on, roll.
    let strike = Strike::new(d, &a, spec, false, true, knock_out);
    let spec = &strike.spec;
    let engaged: Vec<CombatantId> = a.pos.engaged.iter().cloned().collect();
    let confused = has_condition(a.fx, Condition::Confused);
    let side = a.c.side;
    d.emit(GameEvent::ActionUsed {
        combatant: actor.clone(),
        action: needed,
        spent: payer,
    });
    expend(d, actor, spec);
    provoke_attack(d, actor, spec, engaged, targets);
    // "1d3 nearby enemies": roll how many of the named targets are attacked.
    let targets = match &spec.targeting {
        Targeting::Rolled(expr) | Targeting::Group(Some(expr)) => {
            let roll = d.roll(expr, &Placeholders::default())?;
            let count = u32::try_from(roll.total.max(1)).unwrap_or(1);
            d.emit(GameEvent::ThirteenthAge(
                ThirteenthAgeEvent::TargetsRolled {
                    attacker: actor.clone(),
                    roll,
                    count,
                },
            ));
            &targets[..targets.len().min(count as usize)]
        }
        _ => targets,
    };
    // § Conditions, Confused: the attack goes against a nearby ally, determined randomly.
    let confused_target: Vec<CombatantId>;
    let targets = if confused {
        let allies: Vec<CombatantId> = d
            .field
            .all()
            .filter(|f| {
                f.c.side == side && f.c.id != *actor && !f.pos.far_away && !f.vit.0.is_out()
            })
            .map(|f| f.c.id.clone())
            .collect();
        match u32::try_from(allies.len()) {
            Ok(n) if n > 0 => {
                let roll = crate::dice::roll_die(d.rng, n);
                let pick = roll.total.max(1) as usize - 1;
                confused_target = vec![allies[pick.min(allies.len() - 1)].clone()];
                d.emit(GameEvent::ThirteenthAge(
                    ThirteenthAgeEvent::ConfusedAttack {
                        attacker: actor.clone(),
                        ally: confused_target[0].clone(),
                        roll,
                    },
                ));
                &confused_target[..]
            }
            _ => targets,
        }
    } else {
        targets
    };
    resolve(d, actor, targets, strike)
}

/// § Interrupt Actions: used when it is not your turn (the GM rules on the trigger), one until
/// the end of your next turn; no action of the turn is spent.
fn interrupt_attack(
    d: &mut Decider,
    actor: &CombatantId,
    attack: &str,
    targets: &[CombatantId],
    knock_out: bool,
) -> Result<(), Rejection> {
    let a = fighter(d, actor)?;
    if d.field.battle.current() == Some(actor) {
        return reject(
            ErrorCode::InvalidArgument,
            format!(
                "an interrupt action is used when it is not {}'s turn",
                a.c.name
            ),
        );
    }
    if a.interrupt.0 {
        return reject(
            ErrorCode::ActionAlreadyUsed,
            format!(
                "{} already used an interrupt action; another comes after the end of its next turn",
                a.c.name
            ),
        );
    }
    if a.vit.0 != LifeStatus::Conscious
        || has_condition(a.fx, Condition::Stunned)
        || has_condition(a.fx, Condition::Helpless)
    {
        return reject(ErrorCode::CannotAct, format!("{} cannot act", a.c.name));
    }
    let spec = find_attack(&a, attack)?.clone();
    check_attack(d, &a, &spec, targets)?;
    check_usage(&a, &spec)?;
    let strike = Strike::new(d, &a, spec, false, true, knock_out);
    let spec = &strike.spec;
    let engaged: Vec<CombatantId> = a.pos.engaged.iter().cloned().collect();
    d.emit(GameEvent::InterruptUsed {
        combatant: actor.clone(),
    });
    expend(d, actor, spec);
    provoke_attack(d, actor, spec, engaged, targets);
    resolve(d, actor, targets, strike)
}

/// § Unconscious: a blow meant to keep a monster alive — "unless the characters' intent is to
/// keep the monster alive and the attack seems like a potentially humane blow". The intent is
/// the heroes' (a monster's attack cannot declare it); whether the blow could be humane is the
/// GM's judgement, given for the session with the `knock_outs` command (allowed by default).
fn check_knock_out(d: &Decider, actor: &CombatantId) -> Result<(), Rejection> {
    let a = fighter(d, actor)?;
    if a.c.side != Side::Heroes {
        return reject(
            ErrorCode::KnockOutRefused,
            format!(
                "{} is a monster: only the characters' intent keeps a monster alive",
                a.c.name
            ),
        );
    }
    if !d.field.battle.knock_outs_allowed {
        return reject(
            ErrorCode::KnockOutRefused,
            "the GM refuses knock-out blows: attack without knock_out to slay",
        );
    }
    Ok(())
}

/// Limited powers: refused once expended (until regained by a rest or a recharge roll).
fn check_usage(a: &FighterItem, spec: &AttackSpec) -> Result<(), Rejection> {
    if spec.usage != Usage::AtWill && a.used.0.contains(&spec.id) {
        return reject(
            ErrorCode::PowerExpended,
            format!(
                "{} has already used {} ({})",
                a.c.name,
                spec.name,
                usage_name(spec.usage)
            ),
        );
    }
    // § Conditions, Confused: no limited powers.
    if spec.usage != Usage::AtWill && has_condition(a.fx, Condition::Confused) {
        return reject(
            ErrorCode::CannotAct,
            format!("{} is confused and cannot use limited powers", a.c.name),
        );
    }
    Ok(())
}

/// Marks a limited power expended.
fn expend(d: &mut Decider, actor: &CombatantId, spec: &AttackSpec) {
    if spec.usage != Usage::AtWill {
        d.emit(GameEvent::PowerExpended {
            combatant: actor.clone(),
            power: spec.id.clone(),
        });
    }
}

/// The wire name of a usage.
pub fn usage_name(u: Usage) -> std::borrow::Cow<'static, str> {
    match u {
        Usage::AtWill => "at-will".into(),
        Usage::OncePerBattle => "once per battle".into(),
        Usage::Daily => "daily".into(),
        Usage::Recharge(n) => format!("recharge {n}+").into(),
    }
}

fn find_attack<'a>(a: &'a FighterItem, attack: &str) -> Result<&'a AttackSpec, Rejection> {
    a.arsenal.0.iter().find(|s| s.id == attack).ok_or_else(|| {
        let known: Vec<&str> = a.arsenal.0.iter().map(|s| s.id.as_str()).collect();
        Rejection::new(
            ErrorCode::UnknownAttack,
            format!(
                "{} has no attack '{attack}' (has: {})",
                a.c.name,
                known.join(", ")
            ),
        )
    })
}

/// § Opportunity attacks: a free basic melee attack, out of turn, against a foe that provoked
/// it this turn; never a flexible attack (§ Flexible Attacks).
fn opportunity_attack(
    d: &mut Decider,
    actor: &CombatantId,
    attack: &str,
    targets: &[CombatantId],
    knock_out: bool,
) -> Result<(), Rejection> {
    running(d)?;
    let a = fighter(d, actor)?;
    let [target] = targets else {
        return reject(
            ErrorCode::WrongTargetCount,
            "an opportunity attack has exactly one target",
        );
    };
    let spec = find_attack(&a, attack)?.clone();
    if !spec.maneuvers.is_empty() {
        return reject(
            ErrorCode::FlexibleOnOpportunity,
            format!(
                "{} is a flexible attack; flexible attacks cannot be opportunity attacks",
                spec.name
            ),
        );
    }
    if !(spec.basic && spec.reach == Reach::Melee) {
        return reject(
            ErrorCode::NotBasicMelee,
            format!(
                "{} is not a basic melee attack; opportunity attacks use one",
                spec.name
            ),
        );
    }
    if !d
        .field
        .battle
        .opportunities
        .iter()
        .any(|(x, t)| x == actor && t == target)
    {
        return reject(
            ErrorCode::NoOpportunity,
            format!("{target} has not provoked an opportunity attack from {actor} this turn"),
        );
    }
    if a.vit.0 != LifeStatus::Conscious {
        return reject(ErrorCode::CannotAct, format!("{} cannot act", a.c.name));
    }
    if has_condition(a.fx, Condition::Stunned) {
        return reject(
            ErrorCode::Stunned,
            format!("{} is stunned and can take no actions", a.c.name),
        );
    }
    if has_condition(a.fx, Condition::Confused) {
        return reject(
            ErrorCode::CannotAct,
            format!(
                "{} is confused and cannot make opportunity attacks",
                a.c.name
            ),
        );
    }
    // § Helpless: asleep (or unconscious); `can_make_opportunity_attack` agrees.
    if has_condition(a.fx, Condition::Helpless) {
        return reject(
            ErrorCode::CannotAct,
            format!(
                "{} is helpless and cannot make opportunity attacks",
                a.c.name
            ),
        );
    }
    if grabbed_by(a.fx).is_some() {
        return reject(
            ErrorCode::Grabbed,
            format!(
                "{} is grabbed and cannot make opportunity attacks",
                a.c.name
            ),
        );
    }
    let tf = fighter(d, target)?;
    if tf.vit.0.is_out() {
        return reject(
            ErrorCode::InvalidTarget,
            format!("{} is out of the fight", tf.c.name),
        );
    }
    let strike = Strike::new(d, &a, spec.clone(), false, false, knock_out);
    d.emit(GameEvent::OpportunityTaken {
        attacker: actor.clone(),
        target: target.clone(),
    });
    resolve(d, actor, targets, strike)
}

/// § Coup de Grace: skip the move and quick actions, attack a helpless enemy you are engaged
/// with (one target only): an automatic critical hit.
fn coup_de_grace(
    d: &mut Decider,
    actor: &CombatantId,
    attack: &str,
    targets: &[CombatantId],
    knock_out: bool,
) -> Result<(), Rejection> {
    ready_to_act(d, actor, ActionKind::Standard)?;
    let a = fighter(d, actor)?;
    if !(a.budget.0.standard && a.budget.0.move_action && a.budget.0.quick) {
        return reject(
            ErrorCode::ActionAlreadyUsed,
            format!(
                "a coup de grace needs {}'s standard, move and quick actions unused this turn",
                a.c.name
            ),
        );
    }
    let [target] = targets else {
        return reject(
            ErrorCode::WrongTargetCount,
            "a coup de grace targets only the helpless enemy",
        );
    };
    let spec = find_attack(&a, attack)?.clone();
    let tf = fighter(d, target)?;
    if tf.c.side == a.c.side {
        return reject(
            ErrorCode::InvalidTarget,
            format!("{} is an ally", tf.c.name),
        );
    }
    let helpless = tf.vit.0 == LifeStatus::Unconscious || has_condition(tf.fx, Condition::Helpless);
    if !helpless || tf.vit.0.is_out() {
        return reject(
            ErrorCode::NotHelpless,
            format!("{} is not helpless", tf.c.name),
        );
    }
    if !a.pos.engaged.contains(target) {
        return reject(
            ErrorCode::NotEngaged,
            format!("{} is not engaged with {}", a.c.name, tf.c.name),
        );
    }
    // The rest is as for any attack (hampered, grabbed, target hit points, …).
    check_attack(d, &a, &spec, targets)?;
    check_usage(&a, &spec)?;
    let strike = Strike::new(d, &a, spec.clone(), true, false, knock_out);
    let engaged: Vec<CombatantId> = a.pos.engaged.iter().cloned().collect();
    expend(d, actor, &spec);
    for k in [ActionKind::Standard, ActionKind::Move, ActionKind::Quick] {
        d.emit(GameEvent::ActionUsed {
            combatant: actor.clone(),
            action: k,
            spent: k,
        });
    }
    // A coup de grace is an attack like any other for provoking (§ Ranged / § Spell Attacks).
    provoke_attack(d, actor, &spec, engaged, targets);
    resolve(d, actor, targets, strike)
}

/// One attack roll against one target: defense with penalties, crit range, the grabber's +4,
/// and the two-weapon reroll of a natural 2 (§ Two-Weapon Fighting: the reroll must be used).
fn roll_attack(
    d: &mut Decider,
    actor: &CombatantId,
    t: &CombatantId,
    s: &Strike,
) -> Result<(AttackOutcome, u32), Rejection> {
    let spec = &s.spec;
    let tf = fighter(d, t)?;
    let defense = defense_value(&tf, spec.vs);
    let crit_from = rules::crit_threshold(tf.fx, tf.res, spec.damage_type, spec.expand_crit);
    // § Grabbed: a creature grabbing the target gets +4 to attacks against it — each of them,
    // when several do.
    let mut terms = s.terms.clone();
    if is_grabbed_by(tf.fx, actor) {
        terms.add("grabbing the target", 4);
    }
    let two_weapon = d
        .field
        .get(actor)
        .is_some_and(|a| a.hero.is_some_and(|h| h.spec.two_weapon))
        && spec.reach == Reach::Melee;
    let bonus = terms.total();
    let mut roll = d.d20();
    if two_weapon && roll.natural() == Some(2) {
        let again = d.d20();
        for die in &mut roll.dice {
            die.kept = false;
        }
        roll.dice.extend(again.dice);
        roll.total = again.total;
        roll.expr = "d20 (natural 2 rerolled)".into();
    }
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
        modifiers: terms.into_vec(),
    });
    Ok((outcome, natural))
}

/// Rolls (or, for a coup de grace, skips) the attack rolls, rolls damage once, and applies hits,
/// misses, crits, maneuvers and effects.
fn resolve(
    d: &mut Decider,
    actor: &CombatantId,
    targets: &[CombatantId],
    s: Strike,
) -> Result<(), Rejection> {
    let spec = &s.spec;
    let mut results = Vec::with_capacity(targets.len());
    for t in targets {
        let (invisible, engaged_with): (bool, Vec<CombatantId>) = {
            let tf = fighter(d, t)?;
            (
                has_condition(tf.fx, Condition::Invisible),
                tf.pos.engaged.iter().cloned().collect(),
            )
        };
        if s.auto_crit {
            d.emit(GameEvent::CoupDeGrace {
                attacker: actor.clone(),
                target: t.clone(),
                attack: spec.id.clone(),
            });
            results.push((t.clone(), AttackOutcome::Crit, None, 20));
            continue;
        }
        // § Invisibility: once engaged in battle, attacks against an invisible creature miss
        // completely half the time, before the attack roll (d20: 1-10 misses).
        if invisible {
            let roll = d.d20();
            let missed = roll.natural().unwrap_or(0) <= 10;
            d.emit(GameEvent::ThirteenthAge(ThirteenthAgeEvent::MissChance {
                attacker: actor.clone(),
                target: t.clone(),
                roll,
                missed,
            }));
            if missed {
                // No damage and no effects on the invisible creature.
                results.push((t.clone(), AttackOutcome::Fumble, None, 0));
                continue;
            }
        }
        let (mut outcome, mut natural) = roll_attack(d, actor, t, &s)?;
        let mut target = t.clone();
        // § Shooting into Melee: a fumbled ranged attack at an enemy engaged with the attacker's
        // allies is rerolled against one of them (the first by id; the GM's choice in the text).
        if outcome == AttackOutcome::Fumble && spec.reach == Reach::Ranged {
            let attacker_side = fighter(d, actor)?.c.side;
            let ally = engaged_with
                .iter()
                .find(|e| *e != actor && d.field.get(e).is_some_and(|f| f.c.side == attacker_side))
                .cloned();
            if let Some(ally) = ally {
                d.emit(GameEvent::ThirteenthAge(
                    ThirteenthAgeEvent::ShotIntoMelee {
                        attacker: actor.clone(),
                        target: t.clone(),
                        ally: ally.clone(),
                    },
                ));
                (outcome, natural) = roll_attack(d, actor, &ally, &s)?;
                target = ally;
            }
        }
        let t = &target;
        // § Flexible Attacks: the natural roll picks the maneuver (the first eligible one).
        let maneuver = if s.flexible && outcome != AttackOutcome::Fumble {
            spec.maneuvers
                .iter()
                .find(|m| m.trigger.matches(natural) && (outcome.is_hit() || !m.on_hit_only))
                .cloned()
        } else {
            None
        };
        if let Some(m) = &maneuver {
            d.emit(GameEvent::ThirteenthAge(
                ThirteenthAgeEvent::ManeuverTriggered {
                    attacker: actor.clone(),
                    target: t.clone(),
                    maneuver: m.id.clone(),
                    natural,
                },
            ));
        }
        results.push((t.clone(), outcome, maneuver, natural));
    }
    // § Damage: roll damage once for all targets hit.
    let cause = DamageCause::Attack {
        attacker: actor.clone(),
        attack: spec.id.clone(),
    };
    let hit_damage = if results.iter().any(|(_, o, _, _)| o.is_hit()) {
        let (roll, terms) = d.roll_explained(&spec.damage, &s.ph, DAMAGE_LITERAL)?;
        let mut total = roll.total;
        d.emit(GameEvent::DamageRolled {
            attacker: actor.clone(),
            attack: spec.id.clone(),
            roll,
            modifiers: terms.into_vec(),
        });
        // § Allies: a power counting allies counts the other PCs and companions (not NPCs).
        if spec.damage_per_ally > 0 {
            let allies = allies_counted(d, actor);
            let bonus = spec.damage_per_ally * i32::try_from(allies.len()).unwrap_or(0);
            total += bonus;
            d.emit(GameEvent::ThirteenthAge(
                ThirteenthAgeEvent::AlliesCounted {
                    attacker: actor.clone(),
                    allies,
                    bonus,
                },
            ));
        }
        Some(total)
    } else {
        None
    };
    // § Damage on Miss: a miss may deal damage; a fumble never does (§ Fumbles).
    let miss_damage = match &spec.miss_damage {
        Some(expr) if results.iter().any(|(_, o, _, _)| *o == AttackOutcome::Miss) => {
            let (roll, terms) = d.roll_explained(expr, &s.ph, DAMAGE_LITERAL)?;
            let total = roll.total;
            d.emit(GameEvent::DamageRolled {
                attacker: actor.clone(),
                attack: spec.id.clone(),
                roll,
                modifiers: terms.into_vec(),
            });
            Some(total)
        }
        _ => None,
    };
    for (t, outcome, maneuver, natural) in results {
        let mut extra = 0;
        if let Some(m) = &maneuver
            && outcome.is_hit()
            && let Some(expr) = &m.bonus_damage
        {
            let (roll, terms) = d.roll_explained(expr, &s.ph, DAMAGE_LITERAL)?;
            extra = roll.total;
            d.emit(GameEvent::DamageRolled {
                attacker: actor.clone(),
                attack: m.id.clone(),
                roll,
                modifiers: terms.into_vec(),
            });
        }
        match outcome {
            AttackOutcome::Hit | AttackOutcome::Crit => {
                let base = hit_damage.unwrap_or(0) + extra;
                // § Crits: double damage; § Crit Effects: a power doubling crit damage makes it
                // triple, and so on.
                let amount = if outcome == AttackOutcome::Crit {
                    base * rules::crit_multiplier(spec.extra_crit_doublings)
                } else {
                    base
                };
                if let Some(amount) = resist(d, &t, amount, natural, spec.damage_type, spec.magic) {
                    d.damage_with_intent(&t, amount, cause.clone(), spec.damage_type, s.knock_out);
                }
                apply_effects(d, actor, &t, &spec.on_hit, natural, spec.magic);
            }
            AttackOutcome::Miss => {
                if let Some(m) = miss_damage
                    && let Some(m) = resist(d, &t, m, natural, spec.damage_type, spec.magic)
                {
                    d.damage_with_intent(&t, m, cause.clone(), spec.damage_type, s.knock_out);
                }
            }
            AttackOutcome::Fumble => {}
        }
        if let Some(m) = &maneuver {
            apply_effects(d, actor, &t, &m.effects, natural, spec.magic);
        }
    }
    Ok(())
}

/// § Allies: the allies a power of `actor` counts — the other PCs and companions of its side
/// (NPCs fighting with the party don't count), conscious, and nearby (neither of the two far
/// away), in id order.
fn allies_counted(d: &mut Decider, actor: &CombatantId) -> Vec<CombatantId> {
    let Some(a) = d.field.get(actor) else {
        return Vec::new();
    };
    let (side, far) = (a.c.side, a.pos.far_away);
    let candidates: Vec<CombatantId> = d
        .field
        .all()
        .filter(|f| {
            f.c.id != *actor
                && f.c.side == side
                && f.hero.is_some_and(|h| h.spec.kind.counts_as_ally())
                && !far
                && !f.pos.far_away
        })
        .map(|f| f.c.id.clone())
        .collect();
    candidates
        .into_iter()
        .filter(|id| d.status(id) == Some(LifeStatus::Conscious))
        .collect()
}

/// § Resistance: the damage a typed attack deals to `target` given the natural roll; emits
/// `Resisted` when the resistance bites. `None` = immune.
fn resist(
    d: &mut Decider,
    target: &CombatantId,
    amount: i32,
    natural: u32,
    damage_type: Option<DamageType>,
    magical: bool,
) -> Option<i32> {
    let Some(t) = damage_type else {
        return Some(amount);
    };
    let Some(r) = d
        .field
        .get(target)
        .and_then(|f| f.res.resist.iter().find(|(x, _)| *x == t).map(|(_, r)| *r))
    else {
        return Some(amount);
    };
    let dealt = rules::resisted(amount, natural, r, magical);
    if dealt != Some(amount) {
        d.emit(GameEvent::ThirteenthAge(ThirteenthAgeEvent::Resisted {
            target: target.clone(),
            damage_type: t,
            natural,
            resistance: r,
            immune: dealt.is_none(),
        }));
    }
    dealt
}

fn apply_effects(
    d: &mut Decider,
    source: &CombatantId,
    target: &CombatantId,
    effects: &[Triggered],
    natural: u32,
    magical: bool,
) {
    if d.status(target).is_none_or(LifeStatus::is_out) {
        return;
    }
    // Triggers on the natural roll ("natural even hit: …"); a coup de grace has no roll and
    // triggers every effect.
    for Triggered { when, effect: e } in effects {
        if when.is_some_and(|w| !w.matches(natural)) {
            continue;
        }
        let (kind, duration) = match e {
            EffectSpec::Condition {
                condition,
                duration,
            } => (EffectKind::Condition(*condition), duration.clone()),
            EffectSpec::Ongoing {
                amount,
                damage_type,
                save,
            } => {
                // § Resistance: resisted ongoing damage uses the original attack roll, so the
                // amount is settled now.
                let res = d.field.get(target).and_then(|f| {
                    damage_type
                        .and_then(|t| f.res.resist.iter().find(|(x, _)| *x == t).map(|(_, r)| *r))
                });
                let amount = match res {
                    Some(r) => match rules::resisted(*amount, natural, r, magical) {
                        Some(a) if a > 0 => a,
                        _ => continue,
                    },
                    None => *amount,
                };
                (
                    EffectKind::OngoingDamage {
                        amount,
                        damage_type: *damage_type,
                    },
                    EffectDuration::SaveEnds(*save),
                )
            }
        };
        // § Stacking Rules: a power doesn't stack with itself — the same save-ends or
        // end-of-battle effect from the same source on the same target is not applied twice
        // (one lasting until the end of the source's next turn is renewed instead).
        if duration != EffectDuration::UntilEndOfSourcesNextTurn
            && d.field.get(target).is_some_and(|f| {
                f.fx.0
                    .iter()
                    .any(|x| x.source == *source && x.kind == kind && x.duration == duration)
            })
        {
            continue;
        }
        let id = d.effect_id();
        d.emit(GameEvent::EffectApplied {
            effect: Effect {
                id,
                target: target.clone(),
                source: source.clone(),
                kind,
                duration,
                armed: false,
            },
        });
        // § Grabbed: being grabbed engages you with the grabber.
        if matches!(
            e,
            EffectSpec::Condition {
                condition: Condition::Grabbed,
                ..
            }
        ) && !d
            .field
            .get(target)
            .is_some_and(|f| f.pos.engaged.contains(source))
        {
            d.emit(GameEvent::ThirteenthAge(ThirteenthAgeEvent::Engaged {
                combatant: target.clone(),
                with: source.clone(),
            }));
        }
    }
}

/// § Fight in Spirit: a PC out of the fight (unconscious or dead) grants an ally +1 (+2 the
/// first time in the battle) to attacks or a defense, until the end of the ally's next turn;
/// once a round. The GM's say-so is assumed (the text lets the GM decide).
fn fight_in_spirit(
    d: &mut Decider,
    actor: &CombatantId,
    ally: &CombatantId,
    stat: BonusStat,
) -> Result<(), Rejection> {
    running(d)?;
    let a = fighter(d, actor)?;
    if a.hero.is_none() {
        return reject(
            ErrorCode::InvalidArgument,
            format!("{} is not a PC", a.c.name),
        );
    }
    if a.vit.0 == LifeStatus::Conscious {
        return reject(
            ErrorCode::InvalidArgument,
            format!(
                "{} is still in the fight and cannot fight in spirit",
                a.c.name
            ),
        );
    }
    let round = d.field.battle.round;
    if d.field
        .battle
        .spirit_rounds
        .iter()
        .any(|(w, r)| w == actor && *r == round)
    {
        return reject(
            ErrorCode::ActionAlreadyUsed,
            format!("{} already fought in spirit this round", a.c.name),
        );
    }
    let f = fighter(d, ally)?;
    if f.c.side != a.c.side || f.c.id == a.c.id || f.vit.0 != LifeStatus::Conscious {
        return reject(
            ErrorCode::InvalidTarget,
            format!("{} is not an ally in the fight", f.c.name),
        );
    }
    let amount = if d.field.battle.spirit_used { 1 } else { 2 };
    d.emit(GameEvent::ThirteenthAge(
        ThirteenthAgeEvent::FoughtInSpirit {
            combatant: actor.clone(),
            ally: ally.clone(),
        },
    ));
    let id = d.effect_id();
    d.emit(GameEvent::EffectApplied {
        effect: Effect {
            id,
            target: ally.clone(),
            source: ally.clone(),
            kind: EffectKind::Bonus { stat, amount },
            duration: EffectDuration::UntilEndOfSourcesNextTurn,
            armed: false,
        },
    });
    Ok(())
}

/// § Stabilizing (potions): "feeding a dying character a healing potion gets them conscious and
/// back on their feet, but always takes a standard action"; the drinker spends a recovery
/// (§ Recoveries: potions use one).
fn use_potion(d: &mut Decider, actor: &CombatantId, target: &CombatantId) -> Result<(), Rejection> {
    ready_to_act(d, actor, ActionKind::Standard)?;
    let a = fighter(d, actor)?;
    if a.hero.is_none_or(|h| h.potions == 0) {
        return reject(
            ErrorCode::InvalidArgument,
            format!("{} has no healing potion", a.c.name),
        );
    }
    let t = fighter(d, target)?;
    if t.c.side != a.c.side || t.hero.is_none() || matches!(t.vit.0, LifeStatus::Dead) {
        return reject(
            ErrorCode::InvalidTarget,
            format!("{} cannot drink a potion", t.c.name),
        );
    }
    if t.c.id != a.c.id && (a.pos.far_away || t.pos.far_away) {
        return reject(
            ErrorCode::OutOfReach,
            format!("{} must get next to {} first", a.c.name, t.c.name),
        );
    }
    d.emit(GameEvent::ActionUsed {
        combatant: actor.clone(),
        action: ActionKind::Standard,
        spent: ActionKind::Standard,
    });
    d.emit(GameEvent::ThirteenthAge(ThirteenthAgeEvent::PotionUsed {
        by: actor.clone(),
        target: target.clone(),
    }));
    // A dying PC is back on its feet but its turn is not its own: it acts on its next turn.
    d.spend_recovery(target, false)
}

/// § Quick Rests: spend recoveries (a staggered hero must heal), regain once-per-battle powers,
/// and roll a d20 for each used recharge power (its recharge value or higher regains it).
fn quick_rest(d: &mut Decider, actor: &CombatantId, recoveries: u32) -> Result<(), Rejection> {
    after_battle(d)?;
    let f = fighter(d, actor)?;
    let Some(h) = f.hero else {
        return reject(
            ErrorCode::InvalidArgument,
            format!("{} is not a PC", f.c.name),
        );
    };
    if f.vit.0 == LifeStatus::Dead {
        return reject(ErrorCode::CannotAct, format!("{} is dead", f.c.name));
    }
    if h.rested {
        return reject(
            ErrorCode::ActionAlreadyUsed,
            format!("{} already took its quick rest", f.c.name),
        );
    }
    let available = u32::try_from(h.recoveries.max(0)).unwrap_or(0);
    if recoveries > available {
        return reject(
            ErrorCode::InvalidArgument,
            format!("{} has {available} recoveries, not {recoveries}", f.c.name),
        );
    }
    if recoveries == 0 && available > 0 && f.hp.staggered() {
        return reject(
            ErrorCode::InvalidArgument,
            format!("{} is staggered and must heal at a quick rest", f.c.name),
        );
    }
    let powers: Vec<(String, Usage)> = f
        .arsenal
        .0
        .iter()
        .filter(|a| f.used.0.contains(&a.id))
        .map(|a| (a.id.clone(), a.usage))
        .collect();
    d.emit(GameEvent::QuickRested {
        combatant: actor.clone(),
    });
    for _ in 0..recoveries {
        d.spend_recovery(actor, true)?;
    }
    for (power, usage) in powers {
        match usage {
            Usage::OncePerBattle => d.emit(GameEvent::PowerRegained {
                combatant: actor.clone(),
                power,
                roll: None,
            }),
            Usage::Recharge(n) => {
                let roll = d.d20();
                let natural = roll.natural().unwrap_or(0);
                if natural >= n {
                    d.emit(GameEvent::PowerRegained {
                        combatant: actor.clone(),
                        power,
                        roll: Some(roll),
                    });
                } else {
                    d.emit(GameEvent::CheckRolled {
                        combatant: actor.clone(),
                        purpose: format!("recharge {power}"),
                        roll,
                        bonus: 0,
                        total: i32::try_from(natural).unwrap_or(0),
                        dc: i32::try_from(n).unwrap_or(20),
                        modifiers: Vec::new(),
                        success: false,
                    });
                }
            }
            Usage::AtWill | Usage::Daily => {}
        }
    }
    Ok(())
}

/// § Stabilizing: a DC 10 Wisdom check (d20 + Wis + level) next to an unconscious ally; a
/// standard action, or only a quick action on 25+.
fn stabilize(d: &mut Decider, actor: &CombatantId, target: &CombatantId) -> Result<(), Rejection> {
    ready_to_act(d, actor, ActionKind::Standard)?;
    let a = fighter(d, actor)?;
    let tf = fighter(d, target)?;
    if tf.c.side != a.c.side || tf.vit.0 != LifeStatus::Unconscious || tf.hero.is_none() {
        return reject(
            ErrorCode::NotDying,
            format!("{} is not an unconscious ally", tf.c.name),
        );
    }
    if tf.hero.is_some_and(|h| h.stabilized) {
        return reject(
            ErrorCode::InvalidArgument,
            format!("{} is already stabilized", tf.c.name),
        );
    }
    if a.pos.far_away || tf.pos.far_away {
        return reject(
            ErrorCode::OutOfReach,
            format!("{} must get next to {} first", a.c.name, tf.c.name),
        );
    }
    let terms = Modifiers::new()
        .with("WIS", a.hero.map_or(0, |h| h.spec.mods.wis))
        .with("level", a.c.level);
    let bonus = terms.total();
    let quick = a.budget.0.payer(ActionKind::Quick);
    let roll = d.d20();
    let total = roll.total + bonus;
    let success = total >= 10;
    d.emit(GameEvent::CheckRolled {
        combatant: actor.clone(),
        purpose: "stabilize".into(),
        roll,
        bonus,
        total,
        dc: 10,
        success,
        modifiers: terms.into_vec(),
    });
    let (action, spent) = match quick {
        Some(q) if total >= 25 => (ActionKind::Quick, q),
        _ => (ActionKind::Standard, ActionKind::Standard),
    };
    d.emit(GameEvent::ActionUsed {
        combatant: actor.clone(),
        action,
        spent,
    });
    if success {
        d.emit(GameEvent::Stabilized {
            combatant: target.clone(),
            by: actor.clone(),
        });
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
            d.emit(GameEvent::ThirteenthAge(ThirteenthAgeEvent::RallyFailed {
                combatant: actor.clone(),
                round,
            }));
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
