//! Legality and outcome of each Orcus command. Every check that can refuse runs before the first
//! die is drawn; a refusal changes nothing.

use super::Board;
use super::elevation;
use super::geometry::{self, AttackKind, Body, Geo, Space};
use super::riders::emit_effect;
use super::rules;
use crate::content::model::{ActionCost, Frequency, Origin, PowerSpec};
use crate::dice::{DiceExpr, Placeholders};
use crate::rules::common::decider::Decider;
use crate::rules::common::field::{effect_bonus_terms, has_condition};
pub(super) use crate::rules::common::guards::{R, fighter, no, running};
use fray_protocol::event::{
    ActionKind, AttackOutcome, BonusStat, Condition, DamageCause, DamageType, Defense, Effect,
    EffectDuration, EffectKind, GameEvent,
};
use fray_protocol::grid::{MapState, MoveMode, SpecialMode, Square};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::roll::Modifiers;
use fray_protocol::state::{LifeStatus, Phase};
use fray_protocol::{Command, ErrorCode};
use fray_protocol::{OrcusCommand, OrcusEvent};
use std::collections::BTreeSet;

/// Decides one command.
pub fn decide(d: &mut Decider, b: &Board, cmd: &Command) -> R {
    match cmd {
        Command::StartBattle => start(d, &[]),
        Command::StartSurprise { surprised } => start(d, surprised),
        Command::ReorderInitiative { order } => reorder(d, order),
        Command::Orcus(OrcusCommand::MoveTo {
            actor,
            path,
            mode,
            hide,
        }) => move_to(d, b, actor, path, *mode, *hide),
        Command::Orcus(OrcusCommand::StandUp { actor }) => stand_up(d, actor),
        Command::Orcus(OrcusCommand::FullDefense { actor }) => {
            pay(d, actor, ActionKind::Standard)?;
            defense_bonus(d, actor);
            Ok(())
        }
        Command::Orcus(OrcusCommand::SpendActionPoint { actor, action }) => {
            action_point(d, b, actor, *action)
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
        } => attack_cmd(
            d,
            b,
            actor,
            attack,
            targets,
            *mode,
            *knock_out,
            forced,
            (*weapon, secondary_target.as_ref()),
        ),
        Command::Orcus(OrcusCommand::AreaAttack {
            actor,
            attack,
            origin,
            targets,
            forced,
            origin_height,
            weapon,
            secondary_target,
        }) => area_attack(
            d,
            b,
            actor,
            attack,
            (*origin, *origin_height),
            targets,
            forced,
            (*weapon, secondary_target.as_ref()),
        ),
        Command::Rally { actor } => rally(d, b, actor),
        Command::Stabilize { actor, target } => stabilize(d, b, actor, target),
        Command::EndTurn { actor } => {
            on_turn(d, actor)?;
            if d.field.battle.current() != Some(actor) {
                // § Controlling a mount: a commanded mount acts within its rider's turn.
                return Err(no(
                    ErrorCode::NotYourTurn,
                    format!("{actor} acts in its rider's turn: the rider ends it"),
                ));
            }
            super::turns::end_turn(d, b, actor);
            Ok(())
        }
        Command::Orcus(OrcusCommand::SkillAction {
            actor,
            action,
            target,
            effect,
            forbid,
            foreign,
            hide,
        }) => super::skills::skill_action(
            d, b, actor, *action, target, *effect, *forbid, *foreign, *hide,
        ),
        Command::QuickRest { actor, recoveries } => {
            super::rests::short_rest(d, b, actor, *recoveries)
        }
        Command::FullHealUp => super::rests::long_rest(d, b),
        Command::EndSession => super::rests::end_session(d),
        Command::GrantTempHp { target, amount } => {
            // § Temporary hit points: as in 13th Age (the higher stays; no waking at 0 hp).
            crate::rules::common::battles::grant_temp_hp(d, target, *amount)
        }
        Command::Orcus(OrcusCommand::Charge {
            actor,
            target,
            path,
        }) => super::maneuvers::charge(d, b, actor, target, path),
        Command::Orcus(OrcusCommand::BullRush {
            actor,
            target,
            push_to,
            follow,
        }) => super::maneuvers::bull_rush(d, b, actor, target, *push_to, *follow),
        Command::Orcus(OrcusCommand::Grapple { actor, target }) => {
            super::maneuvers::grapple(d, b, actor, target)
        }
        Command::Orcus(OrcusCommand::Escape {
            actor,
            skill,
            step_to,
        }) => super::maneuvers::escape(d, b, actor, *skill, *step_to),
        Command::Orcus(OrcusCommand::Maintain { actor, effect }) => {
            super::maintain::maintain(d, b, actor, *effect)
        }
        Command::Orcus(OrcusCommand::EndEffect { actor, effect }) => {
            super::maintain::end_effect(d, b, actor, *effect)
        }
        Command::Orcus(OrcusCommand::ReadyCounter { actor, power }) => {
            super::counters::ready(d, b, actor, power)
        }
        Command::Orcus(OrcusCommand::Search { actor }) => super::stealth::search(d, b, actor),
        Command::Orcus(OrcusCommand::PlaceToken { combatant, square }) => {
            super::mounts::place_token(d, b, combatant, *square)
        }
        Command::AddCombatant { template, square } => {
            crate::rules::common::overrides::add_combatant(d, template, *square, &|d, spec, at| {
                super::mounts::newcomer_square(d, b, spec, at)
            })
        }
        Command::Reveal { combatant } => super::stealth::reveal(d, b, combatant),
        Command::Hide { .. } => Err(no(
            ErrorCode::InvalidArgument,
            "Orcus § Stealth: hide at the end of a move (`move_to` with `hide`: true) or of a \
             Create Diversion (`skill_action` with `hide`: true)",
        )),
        Command::LetGo { actor, target } => super::maneuvers::let_go(d, actor, target),
        Command::Orcus(OrcusCommand::Mount {
            actor,
            mount,
            control,
        }) => super::mounts::mount(d, b, actor, mount, *control),
        Command::Orcus(OrcusCommand::Dismount { actor, to }) => {
            super::mounts::dismount(d, b, actor, *to)
        }
        Command::Orcus(OrcusCommand::CommandMount { actor, action }) => {
            super::mounts::command_mount(d, b, actor, *action)
        }
        Command::Orcus(OrcusCommand::MoveAloft { actor, height }) => {
            super::elevation::move_aloft(d, b, actor, *height)
        }
        Command::EndBattle => {
            running(d)?;
            super::sessions::end_battle(d, None);
            Ok(())
        }
        Command::NextBattle => crate::rules::common::battles::next_battle(d),
        Command::Orcus(OrcusCommand::OrcusAwardXp {
            monsters,
            bonus,
            party,
        }) => super::experience::award(d, b, monsters, *bonus, party),
        Command::Orcus(OrcusCommand::PassTime { minutes }) => {
            super::sessions::pass_time(d, *minutes)
        }
        Command::Orcus(OrcusCommand::Reload { actor, power }) => {
            super::loading::reload(d, b, actor, power)
        }
        Command::Orcus(OrcusCommand::ChooseAllies { actor, allies }) => {
            super::targets::choose_allies(d, actor, allies)
        }
        Command::Orcus(OrcusCommand::DeclineAlly { actor, user }) => {
            super::targets::decline_ally(d, b, actor, user)
        }
        Command::Orcus(OrcusCommand::ChooseToBeHit { actor, attacker }) => {
            super::targets::choose_to_be_hit(d, actor, attacker)
        }
        Command::Orcus(OrcusCommand::RiderChoices {
            actor,
            move_mount,
            landing,
        }) => super::mounts::rider_choices(d, b, actor, *move_mount, *landing),
        Command::Orcus(OrcusCommand::OrcusCheck {
            combatant,
            skill,
            dc,
            difficulty,
            purpose,
        }) => super::checks::check(d, b, combatant, skill, *dc, *difficulty, purpose.as_deref()),
        other => Err(no(
            ErrorCode::InvalidArgument,
            format!("'{}' is not an Orcus command", other.kind()),
        )),
    }
}

// --- shared checks -------------------------------------------------------------------------

/// The space a combatant occupies (a mounted rider: its mount's, § Mounted combat).
pub fn space(d: &Decider, b: &Board, id: &CombatantId) -> R<Space> {
    let (g, _) = b
        .get(id)
        .ok_or_else(|| no(ErrorCode::UnknownCombatant, format!("no combatant '{id}'")))?;
    if let Some(m) = &g.0.mounted_on
        && m != id
        && !d.events().iter().any(
            |e| matches!(e, GameEvent::Orcus(OrcusEvent::Dismounted { rider, .. }) if rider == id),
        )
        && b.get(m).is_some_and(|(mg, _)| mg.0.mounted_on.is_none())
    {
        return space(d, b, m);
    }
    // A move earlier in this same decision (a charge's walk, a push) counts.
    let moved = d.events().iter().rev().find_map(|e| match e {
        GameEvent::Orcus(OrcusEvent::GridMoved {
            combatant, path, ..
        }) if combatant == id => path.last().copied(),
        _ => None,
    });
    Ok(Space {
        at: moved.unwrap_or(g.0.square),
        size: g.0.size,
    })
}

/// The actor's turn is under way.
pub(super) fn on_turn(d: &Decider, actor: &CombatantId) -> R {
    running(d)?;
    let f = fighter(d, actor)?;
    if d.field.battle.current() != Some(actor) && !super::mounts::commanded(d, actor) {
        return Err(no(
            ErrorCode::NotYourTurn,
            format!("it is not {}'s turn", f.c.name),
        ));
    }
    Ok(())
}

/// Whether the combatant may take only one action this turn: the surprise round (§ Surprise
/// round) or dazed (interpretation, text gap: Fourth Edition's one action per turn).
pub fn single_action(d: &Decider, id: &CombatantId) -> bool {
    d.field.battle.surprise.is_some()
        || d.field
            .get(id)
            .is_some_and(|f| has_condition(f.fx, Condition::Dazed))
}

/// Checks the actor can act and spends the action `needed` (trading down a bigger one).
pub fn pay(d: &mut Decider, actor: &CombatantId, needed: ActionKind) -> R {
    on_turn(d, actor)?;
    let f = fighter(d, actor)?;
    if f.vit.0 != LifeStatus::Conscious {
        return Err(no(ErrorCode::CannotAct, format!("{} is down", f.c.name)));
    }
    for c in [
        Condition::Stunned,
        Condition::Unconscious,
        Condition::Helpless,
    ] {
        if has_condition(f.fx, c) {
            let code = if c == Condition::Stunned {
                ErrorCode::Stunned
            } else {
                ErrorCode::CannotAct
            };
            return Err(no(
                code,
                format!("{} is {} and cannot act", f.c.name, condition_name(c)),
            ));
        }
    }
    if has_condition(f.fx, Condition::Surrendered) {
        return Err(no(
            ErrorCode::Surrendered,
            format!("{} has surrendered (§ Unnerve)", f.c.name),
        ));
    }
    if has_condition(f.fx, Condition::Deterred(needed)) {
        return Err(no(
            ErrorCode::Deterred,
            format!(
                "{} is deterred from that action until the end of its turn (§ Deter)",
                f.c.name
            ),
        ));
    }
    let budget = f.budget.0;
    let fresh = budget.standard && budget.move_action && budget.quick;
    // A commanded mount's actions are the single ones its rider gave up (each paid by the
    // rider, in the surprise round too); a dazed one is held to one command (`command_mount`).
    let commanded = d.field.battle.current() != Some(actor);
    if !fresh && !commanded && single_action(d, actor) {
        let (code, why) = if d.field.battle.surprise.is_some() {
            (
                ErrorCode::SurpriseRound,
                "in the surprise round a combatant takes a single action",
            )
        } else {
            (ErrorCode::Dazed, "dazed: a single action per turn")
        };
        return Err(no(code, format!("{}: {why}", f.c.name)));
    }
    let Some(spent) = budget.payer(needed) else {
        return Err(no(
            ErrorCode::ActionAlreadyUsed,
            format!("{} has no {} action left", f.c.name, action_name(needed)),
        ));
    };
    d.emit(GameEvent::ActionUsed {
        combatant: actor.clone(),
        action: needed,
        spent,
    });
    Ok(())
}

fn action_name(k: ActionKind) -> &'static str {
    match k {
        ActionKind::Standard => "standard",
        ActionKind::Move => "move",
        ActionKind::Quick => "swift",
    }
}

pub(super) fn condition_name(c: Condition) -> String {
    serde_json::to_value(c)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{c:?}"))
}

/// The turn action a power costs; `None` for immediate actions (out of turn).
fn cost_kind(c: ActionCost) -> Option<ActionKind> {
    match c {
        ActionCost::Standard => Some(ActionKind::Standard),
        ActionCost::Move => Some(ActionKind::Move),
        ActionCost::Swift => Some(ActionKind::Quick),
        ActionCost::ImmediateCounter | ActionCost::ImmediateReaction | ActionCost::Free => None,
    }
}

/// When a power may be used: turn actions on the actor's turn; § Immediate actions on someone
/// else's turn, one between each of the actor's turns, by a creature able to act (not dazed,
/// stunned, surprised, helpless or down — dazed per Fourth Edition, an interpretation).
/// Whether the trigger happened is the table's call, as with 13th Age interrupts.
pub(super) fn check_timing(d: &Decider, b: &Board, actor: &CombatantId, p: &PowerSpec) -> R {
    if p.action == ActionCost::Free {
        return super::free::check(d, actor, p);
    }
    if cost_kind(p.action).is_some() {
        return on_turn(d, actor);
    }
    running(d)?;
    immediate_able(d, b, actor, p, false)
}

/// Whether `actor` may take the immediate action `p` now (or, `readying`, ready it: on its own
/// turn too, `counters.rs`): able to act and its (or its rider's) immediate action unspent.
pub(super) fn immediate_able(
    d: &Decider,
    b: &Board,
    actor: &CombatantId,
    p: &PowerSpec,
    readying: bool,
) -> R {
    // § Controlling a mount: a controlled mount's counters and reactions use its rider's
    // immediate action; both must be able to act.
    let payer = super::mounts::immediate_payer(d, b, actor);
    for who in [actor, &payer] {
        let f = fighter(d, who)?;
        if !readying && d.field.battle.current() == Some(who) {
            return Err(no(
                ErrorCode::NotYourTurn,
                format!(
                    "{} is an immediate action: it is used on another creature's turn than {}'s",
                    p.name, f.c.name
                ),
            ));
        }
        super::free::incapable(d, who, true, "immediate actions")?;
    }
    let used = b.get(&payer).is_some_and(|(g, _)| g.0.immediate_used)
        || d.events()
            .iter()
            .any(|e| matches!(e, GameEvent::InterruptUsed { combatant } if combatant == &payer));
    if used {
        return Err(no(
            ErrorCode::ImmediateUsed,
            format!("{payer} already took an immediate action; another comes after its next turn"),
        ));
    }
    Ok(())
}

/// § Attacks with ammunition: one piece per target (an area attack with a ranged weapon too);
/// `Some(n)` when the hero's ammunition is counted.
pub(super) fn ammunition_needed(
    b: &Board,
    actor: &CombatantId,
    p: &PowerSpec,
    targets: usize,
) -> R<Option<i32>> {
    super::loading::loaded(b, actor, p)?;
    if !p.uses_ammunition {
        return Ok(None);
    }
    let Some(left) = b.get(actor).and_then(|(g, _)| g.0.ammunition) else {
        return Ok(None);
    };
    let need = i32::try_from(targets).unwrap_or(i32::MAX);
    if left < need {
        return Err(no(
            ErrorCode::NoAmmunition,
            format!("{} needs {need} pieces of ammunition; {left} left", p.name),
        ));
    }
    Ok(Some(need))
}

pub(super) fn use_ammunition(d: &mut Decider, actor: &CombatantId, count: Option<i32>) {
    if let Some(count) = count
        && count > 0
    {
        d.emit(GameEvent::Orcus(OrcusEvent::AmmunitionUsed {
            combatant: actor.clone(),
            count,
        }));
    }
}

/// Spends what a power costs: its turn action, or the immediate action (a controlled mount's:
/// its rider's, § Controlling a mount).
pub(super) fn spend_for(d: &mut Decider, b: &Board, actor: &CombatantId, p: &PowerSpec) -> R {
    if p.action == ActionCost::Free {
        return Ok(()); // § Free actions: no cost.
    }
    match cost_kind(p.action) {
        Some(k) => pay(d, actor, k),
        None => {
            let combatant = super::mounts::immediate_payer(d, b, actor);
            d.emit(GameEvent::InterruptUsed { combatant });
            Ok(())
        }
    }
}

/// § Full Defense / § Rally: +2 to every defense until the start of the actor's next turn.
pub(super) fn defense_bonus(d: &mut Decider, actor: &CombatantId) {
    emit_effect(
        d,
        actor,
        actor,
        EffectKind::Bonus {
            stat: BonusStat::Defenses,
            amount: rules::DEFENSE_BONUS,
        },
        EffectDuration::UntilStartOfSourcesNextTurn,
    );
}

// --- initiative ----------------------------------------------------------------------------

/// § Initiative: every participant rolls; one roll for each group of identical creatures
/// (monsters of one template). § Surprise round: the surprised don't act in it.
fn start(d: &mut Decider, surprised: &[CombatantId]) -> R {
    if d.field.battle.phase != Phase::Setup {
        return Err(no(
            ErrorCode::BattleAlreadyStarted,
            "the battle has already started",
        ));
    }
    for s in surprised {
        fighter(d, s)?;
    }
    let everyone: Vec<CombatantId> = d.field.all().map(|f| f.c.id.clone()).collect();
    if surprised.len() >= everyone.len() {
        return Err(no(
            ErrorCode::InvalidArgument,
            "someone must be aware to have a surprise round",
        ));
    }
    d.emit(GameEvent::BattleStarted);
    // Groups: heroes alone, monsters by template, in id order of their first member.
    let mut groups: Vec<(String, Vec<CombatantId>, i32)> = Vec::new();
    for f in d.field.all() {
        let key = if f.c.side == Side::Monsters {
            format!("monster:{}", f.c.template)
        } else {
            format!("hero:{}", f.c.id)
        };
        match groups.iter_mut().find(|(k, _, _)| *k == key) {
            Some((_, members, _)) => members.push(f.c.id.clone()),
            None => groups.push((key, vec![f.c.id.clone()], f.init.bonus)),
        }
    }
    let mut results: Vec<(CombatantId, i32, i32, Side)> = Vec::new();
    for (_, members, bonus) in groups {
        let roll = d.d20();
        let total = roll.total + bonus;
        for m in &members {
            let side = fighter(d, m)?.c.side;
            results.push((m.clone(), total, bonus, side));
        }
        d.emit(GameEvent::InitiativeRolled {
            combatants: members,
            roll,
            bonus,
            total,
            modifiers: Modifiers::new().with("initiative bonus", bonus).into_vec(),
        });
    }
    let order = initiative_order(results);
    if surprised.is_empty() {
        d.emit(GameEvent::TurnOrder { order });
    } else {
        for s in surprised {
            emit_effect(
                d,
                s,
                s,
                EffectKind::Condition(Condition::Surprised),
                EffectDuration::EndOfBattle,
            );
        }
        let acting: Vec<CombatantId> = order
            .into_iter()
            .filter(|c| !surprised.contains(c))
            .collect();
        d.emit(GameEvent::SurpriseRound {
            acting,
            advance_escalation: false,
        });
    }
    Ok(())
}

/// The order of battle from initiative results. Ties (§ Initiative leaves them to the GM and the
/// players) are settled by Fray's documented default: higher initiative bonus first, then heroes
/// before monsters, then by id; the GM may reorder with `reorder_initiative`.
pub fn initiative_order(mut results: Vec<(CombatantId, i32, i32, Side)>) -> Vec<CombatantId> {
    results.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(b.2.cmp(&a.2))
            .then((a.3 == Side::Monsters).cmp(&(b.3 == Side::Monsters)))
            .then(a.0.cmp(&b.0))
    });
    results.into_iter().map(|r| r.0).collect()
}

/// GM: a new order of battle (a permutation of the current one).
fn reorder(d: &mut Decider, order: &[CombatantId]) -> R {
    running(d)?;
    if d.field.battle.surprise.is_some() {
        return Err(no(
            ErrorCode::SurpriseRound,
            "reorder after the surprise round",
        ));
    }
    let mut now: Vec<CombatantId> = d.field.battle.order.clone();
    let mut new: Vec<CombatantId> = order.to_vec();
    now.sort();
    new.sort();
    if now != new {
        return Err(no(
            ErrorCode::InvalidArgument,
            "the new order must name every combatant of the order of battle exactly once",
        ));
    }
    let current = d
        .field
        .battle
        .turn_index
        .and_then(|i| d.field.battle.order.get(i))
        .cloned();
    let turn_index = current
        .and_then(|c| order.iter().position(|x| *x == c))
        .and_then(|i| u32::try_from(i).ok());
    d.emit(GameEvent::InitiativeReordered {
        order: order.to_vec(),
        turn_index,
    });
    Ok(())
}

// --- movement ------------------------------------------------------------------------------

/// Whether a combatant blocks movement through its space for `mover` (§ Occupied spaces: allies
/// and helpless enemies can be passed through; nobody can be ended on unless prone). Only
/// creatures level with the mover count (elevation, `aloft::level_with`).
pub(super) fn occupant_at(
    d: &Decider,
    b: &Board,
    mover: &CombatantId,
    s: Square,
) -> Option<(bool, bool)> {
    occupant_among(&occupants(d, b, mover), s)
}

/// [`occupant_at`] among the occupants gathered once ([`occupants`]), for a path checked square
/// by square in one state.
pub(super) fn occupant_among(
    occupants: &[(Space, (bool, bool))],
    s: Square,
) -> Option<(bool, bool)> {
    occupants
        .iter()
        .find(|(sp, _)| sp.covers(s))
        .map(|(_, occupant)| *occupant)
}

/// The creatures whose space `mover` meets, in the field's order, each with its space and
/// whether it blocks `mover` and is prone ([`occupant_at`]).
pub(super) fn occupants(d: &Decider, b: &Board, mover: &CombatantId) -> Vec<(Space, (bool, bool))> {
    let Some(side) = d.field.get(mover).map(|f| f.c.side) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for f in d.field.all() {
        if &f.c.id == mover || matches!(f.vit.0, LifeStatus::Dead | LifeStatus::Slain) {
            continue;
        }
        // § Mounted combat: a mount and its rider share a space.
        if super::mounts::shares_space(b, &f.c.id, mover) {
            continue;
        }
        // Elevation: one passes over or under a creature whose cubes its own do not meet.
        if !super::aloft::level_with(d, b, mover, &f.c.id) {
            continue;
        }
        let Ok(sp) = space(d, b, &f.c.id) else {
            continue;
        };
        let helpless = out_cold(f.vit.0)
            || has_condition(f.fx, Condition::Helpless)
            || has_condition(f.fx, Condition::Unconscious);
        let hostile = f.c.side != side;
        let prone = has_condition(f.fx, Condition::Prone) || out_cold(f.vit.0);
        out.push((sp, (hostile && !helpless, prone)));
    }
    out
}

/// The extra movement a square of `sp` costs in `mode`: § Difficult terrain +1; water +1 unless
/// swimming with a swim speed (§ Swim) or flying; flying ignores difficult terrain
/// (interpretation, the text is silent: Fourth Edition's fliers ignore the ground's terrain).
pub(super) fn extra_cost(map: &MapState, sp: Space, mode: MoveMode) -> i32 {
    let fly = mode.special() == Some(SpecialMode::Fly);
    let swim = mode.special() == Some(SpecialMode::Swim);
    let mut extra = 0;
    for s in sp.squares() {
        if geometry::difficult(map, s) && !fly {
            extra = 1;
        }
        if geometry::water(map, s) && !fly && !swim {
            extra = 1;
        }
    }
    extra
}

/// Validates a path; returns the movement it costs (§ Difficult terrain: +1 per square; water:
/// +1 per square unless swimming or flying). A swim stays in water squares (§ Swim).
pub(super) fn path_cost(
    d: &Decider,
    b: &Board,
    actor: &CombatantId,
    path: &[Square],
    mode: MoveMode,
) -> R<i32> {
    let map = b
        .map
        .0
        .as_ref()
        .ok_or_else(|| no(ErrorCode::InvalidArgument, "this session has no map"))?;
    let start = space(d, b, actor)?;
    if path.is_empty() {
        return Err(no(ErrorCode::IllegalPath, "the path is empty"));
    }
    if path.len() > 64 {
        return Err(no(ErrorCode::IllegalPath, "a path has at most 64 squares"));
    }
    let mut at = start.at;
    let mut cost = 0;
    // Checking changes nothing: the zones and the occupants are the same at every step.
    let zones = super::power_effects::zones(d, b);
    let occupied = occupants(d, b, actor);
    for (i, step) in path.iter().enumerate() {
        if (step.x - at.x).abs() > 1 || (step.y - at.y).abs() > 1 || *step == at {
            return Err(no(
                ErrorCode::IllegalPath,
                format!("path[{i}] {step} is not adjacent to {at}"),
            ));
        }
        let sp = Space {
            at: *step,
            size: start.size,
        };
        let extra =
            extra_cost(map, sp, mode).max(super::power_effects::extra_cost_among(&zones, sp, mode));
        for s in sp.squares() {
            if !geometry::on_map(map, s) {
                return Err(no(
                    ErrorCode::IllegalPath,
                    format!("path[{i}]: {s} is off the map"),
                ));
            }
            if geometry::solid(map, s) {
                return Err(no(
                    ErrorCode::IllegalPath,
                    format!("path[{i}]: {s} is a wall"),
                ));
            }
            if mode.special() == Some(SpecialMode::Swim) && !geometry::water(map, s) {
                return Err(no(
                    ErrorCode::IllegalPath,
                    format!("path[{i}]: {s} is not water (a swim stays in water)"),
                ));
            }
            if let Some((blocks, prone)) = occupant_among(&occupied, s) {
                if blocks {
                    return Err(no(
                        ErrorCode::IllegalPath,
                        format!("path[{i}]: {s} is occupied by an enemy"),
                    ));
                }
                if i + 1 == path.len() && !prone {
                    return Err(no(
                        ErrorCode::IllegalPath,
                        format!("the path ends in {s}, an occupied square"),
                    ));
                }
            }
        }
        cost += 1 + extra;
        at = *step;
    }
    Ok(cost)
}

/// The speed a combatant moves at (slowed: 2).
pub(super) fn speed(d: &Decider, b: &Board, id: &CombatantId) -> i32 {
    let base = b.get(id).map_or(0, |(g, _)| g.0.speed);
    if d.field
        .get(id)
        .is_some_and(|f| has_condition(f.fx, Condition::Slowed))
    {
        base.min(rules::SLOWED_SPEED)
    } else {
        base
    }
}

/// The speed of a special movement mode (0 without it; slowed: at most 2, as every speed).
pub(super) fn mode_speed(d: &Decider, b: &Board, id: &CombatantId, mode: SpecialMode) -> i32 {
    let base = b.get(id).map_or(0, |(_, kit)| kit.0.modes.speed(mode));
    if base > 0
        && d.field
            .get(id)
            .is_some_and(|f| has_condition(f.fx, Condition::Slowed))
    {
        base.min(rules::SLOWED_SPEED)
    } else {
        base
    }
}

fn special_name(mode: SpecialMode) -> &'static str {
    match mode {
        SpecialMode::Fly => "fly",
        SpecialMode::Climb => "climb",
        SpecialMode::Swim => "swim",
        SpecialMode::Burrow => "burrow",
    }
}

pub(super) fn cannot_leave_space(d: &Decider, id: &CombatantId) -> R {
    let f = fighter(d, id)?;
    for c in [
        Condition::Immobilized,
        Condition::Restrained,
        Condition::Grappled,
    ] {
        if has_condition(f.fx, c) {
            return Err(no(
                ErrorCode::Immobilized,
                format!("{} is {} and cannot move", f.c.name, condition_name(c)),
            ));
        }
    }
    if has_condition(f.fx, Condition::Prone) {
        return Err(no(
            ErrorCode::Prone,
            format!("{} is prone: stand up first", f.c.name),
        ));
    }
    Ok(())
}

/// § Walk, § Run, § Step.
fn move_to(
    d: &mut Decider,
    b: &Board,
    actor: &CombatantId,
    path: &[Square],
    mode: MoveMode,
    hide: bool,
) -> R {
    on_turn(d, actor)?;
    super::mounts::not_mounted(b, actor)?;
    cannot_leave_space(d, actor)?;
    let cost = path_cost(d, b, actor, path, mode)?;
    let base = match (mode, mode.special()) {
        (MoveMode::Step, _) => 1,
        (MoveMode::Unwilling, _) => {
            return Err(no(
                ErrorCode::InvalidArgument,
                "unwilling movement comes from powers, not a command",
            ));
        }
        // § Special movement modes: the mode's own speed, only with that speed.
        (_, Some(special)) => {
            let n = mode_speed(d, b, actor, special);
            if n <= 0 {
                return Err(no(
                    ErrorCode::InvalidArgument,
                    format!("{actor} has no {} speed", special_name(special)),
                ));
            }
            n
        }
        (_, None) => speed(d, b, actor),
    };
    // § Run: the speed (or the mode's speed) + 2.
    let allowed = if mode.is_run() {
        base + rules::RUN_BONUS_SQUARES
    } else {
        base
    };
    if mode == MoveMode::Step && path.len() != 1 {
        return Err(no(ErrorCode::TooFar, "a step is one square"));
    }
    if cost > allowed {
        return Err(no(
            ErrorCode::TooFar,
            format!("the path costs {cost} squares of movement; this move allows {allowed}"),
        ));
    }
    // § Stealth: hiding at the end of the move needs cover or concealment there (checked
    // before any die).
    if hide && let Some(last) = path.last() {
        let size = space(d, b, actor)?.size;
        let end = elevation::body_at(d, b, actor, Space { at: *last, size });
        super::stealth::check_cover(d, b, actor, end)?;
    }
    pay(d, actor, ActionKind::Move)?;
    if !walk(d, b, actor, path, mode)? {
        return Ok(());
    }
    let squares: usize = d
        .events()
        .iter()
        .filter_map(|e| match e {
            GameEvent::Orcus(OrcusEvent::GridMoved {
                combatant, path, ..
            }) if combatant == actor => Some(path.len()),
            _ => None,
        })
        .sum();
    super::stealth::after_move(d, b, actor, squares, mode.is_run(), hide);
    if mode.is_run() {
        // § Run: −5 to attacks and off-guard until the start of the next turn.
        emit_effect(
            d,
            actor,
            actor,
            EffectKind::Bonus {
                stat: BonusStat::Attack,
                amount: rules::RUN_PENALTY,
            },
            EffectDuration::UntilStartOfSourcesNextTurn,
        );
        emit_effect(
            d,
            actor,
            actor,
            EffectKind::Condition(Condition::OffGuard),
            EffectDuration::UntilStartOfSourcesNextTurn,
        );
    }
    Ok(())
}

/// Walks a validated path square by square: § Opportunity attacks right before the mover
/// leaves an adjacent enemy (not on a step), the move split around them. Returns whether the
/// mover is still up at the end.
pub(super) fn walk(
    d: &mut Decider,
    b: &Board,
    actor: &CombatantId,
    path: &[Square],
    mode: MoveMode,
) -> R<bool> {
    let mut walked = Vec::new();
    let mut cost_so_far = 0;
    let size = space(d, b, actor)?.size;
    let mut at = space(d, b, actor)?;
    let map = b.map.0.clone();
    for step in path {
        // § Opportunity attacks: right before a walking or running creature leaves an adjacent
        // enemy's reach (stepping does not provoke).
        if mode != MoveMode::Step {
            let next = elevation::body_at(d, b, actor, Space { at: *step, size });
            let provoked: Vec<CombatantId> = adjacent_enemies(d, b, actor, at)
                .into_iter()
                .filter(|e| {
                    elevation::body(d, b, e).is_ok_and(|eb| !geometry::adjacent_3d(eb, next))
                })
                .collect();
            for enemy in provoked {
                if !walked.is_empty() {
                    d.emit(GameEvent::Orcus(OrcusEvent::GridMoved {
                        combatant: actor.clone(),
                        path: std::mem::take(&mut walked),
                        cost: cost_so_far,
                        mode,
                    }));
                    cost_so_far = 0;
                }
                // § Controlling a mount: a mount's provocation may target its rider.
                let target = super::mounts::opportunity_target(d, b, actor);
                opportunity_attack(d, b, &enemy, &target, at)?;
                if d.status(actor) != Some(LifeStatus::Conscious) {
                    return Ok(false);
                }
            }
        }
        let sp = Space { at: *step, size };
        // § Athletics, swimming: "When you start swimming as part of your movement, make an
        // Athletics check against a DC chosen by the GM. If you fail …, your action ends and
        // you stay in place" (interpretation: failing by 5 or more — "you sink 1 square
        // underwater" — also leaves it where it is: the water has no depth in Fray).
        if let Some(m) = map.as_ref()
            && starts_swimming(d, b, actor, m, at, sp, mode)
            && !skill_check(d, b, actor, "athletics", m.swim_dc, "swim")
        {
            break;
        }
        cost_so_far += 1 + map
            .as_ref()
            .map_or(0, |m| extra_cost(m, sp, mode))
            .max(super::power_effects::extra_cost(d, b, sp, mode));
        walked.push(*step);
        at = Space { at: *step, size };
    }
    if !walked.is_empty() {
        d.emit(GameEvent::Orcus(OrcusEvent::GridMoved {
            combatant: actor.clone(),
            path: walked,
            cost: cost_so_far,
            mode,
        }));
    }
    Ok(true)
}

pub(super) fn fighter_side(d: &Decider, id: &CombatantId) -> Side {
    d.field.get(id).map_or(Side::Heroes, |f| f.c.side)
}

/// § Stand Up.
fn stand_up(d: &mut Decider, actor: &CombatantId) -> R {
    on_turn(d, actor)?;
    let f = fighter(d, actor)?;
    let prone: Vec<u32> =
        f.fx.0
            .iter()
            .filter(|e| matches!(e.kind, EffectKind::Condition(Condition::Prone)))
            .map(|e| e.id)
            .collect();
    if prone.is_empty() {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("{} is not prone", f.c.name),
        ));
    }
    pay(d, actor, ActionKind::Move)?;
    for effect in prone {
        d.emit(GameEvent::EffectEnded {
            target: actor.clone(),
            effect,
            reason: fray_protocol::event::EffectEndReason::Expired,
        });
    }
    Ok(())
}

/// § Action points: heroes once per encounter (not in a surprise round: `surprise_round`); elite
/// and boss monsters at most one per round.
fn action_point(d: &mut Decider, b: &Board, actor: &CombatantId, action: ActionKind) -> R {
    on_turn(d, actor)?;
    let f = fighter(d, actor)?;
    let (g, _) = b.get(actor).ok_or_else(|| {
        no(
            ErrorCode::UnknownCombatant,
            format!("no combatant '{actor}'"),
        )
    })?;
    if f.vit.0 != LifeStatus::Conscious {
        return Err(no(ErrorCode::CannotAct, format!("{} is down", f.c.name)));
    }
    // § Action points bars heroes "during a surprise round"; § Surprise round gives every
    // creature that acts a single action, which an action point (an additional action) would
    // exceed, so monsters are refused too (interpretation).
    if d.field.battle.surprise.is_some() {
        return Err(no(
            ErrorCode::SurpriseRound,
            "no action points in a surprise round",
        ));
    }
    if g.0.action_points <= 0 {
        return Err(no(
            ErrorCode::NoActionPoint,
            format!("{} has no action point", f.c.name),
        ));
    }
    let hero = f.c.side == Side::Heroes;
    match g.0.action_point_round {
        Some(_) if hero => {
            return Err(no(
                ErrorCode::NoActionPoint,
                format!("{} has spent its action point of this encounter", f.c.name),
            ));
        }
        Some(r) if r == d.field.battle.round => {
            return Err(no(
                ErrorCode::NoActionPoint,
                format!("{} has spent an action point this round", f.c.name),
            ));
        }
        _ => {}
    }
    d.emit(GameEvent::Orcus(OrcusEvent::ActionPointSpent {
        combatant: actor.clone(),
        action,
    }));
    Ok(())
}

// --- attacks -------------------------------------------------------------------------------

pub(super) fn power<'a>(b: &'a Board, actor: &CombatantId, id: &str) -> R<&'a PowerSpec> {
    let (_, kit) = b.get(actor).ok_or_else(|| {
        no(
            ErrorCode::UnknownCombatant,
            format!("no combatant '{actor}'"),
        )
    })?;
    kit.0.powers.iter().find(|p| p.id == id).ok_or_else(|| {
        no(
            ErrorCode::UnknownAttack,
            format!("{actor} has no power '{id}'"),
        )
    })
}

pub(super) fn check_frequency(d: &Decider, actor: &CombatantId, p: &PowerSpec) -> R {
    if p.frequency != Frequency::AtWill
        && d.field.get(actor).is_some_and(|f| f.used.0.contains(&p.id))
    {
        return Err(no(
            ErrorCode::PowerExpended,
            format!("{} is expended ({})", p.name, p.frequency.describe()),
        ));
    }
    Ok(())
}

pub(super) fn expend(d: &mut Decider, actor: &CombatantId, p: &PowerSpec) {
    if p.frequency != Frequency::AtWill {
        d.emit(GameEvent::PowerExpended {
            combatant: actor.clone(),
            power: p.id.clone(),
        });
    }
}

/// Why `target` is off-guard against `attacker`, if it is (§ Off-guard, § Flanking; conditions
/// that grant it are interpretations from Fourth Edition, see `docs/rules/orcus.md`): the name
/// its +2 carries among the attack's modifiers.
fn off_guard(
    d: &Decider,
    b: &Board,
    attacker: &CombatantId,
    target: &CombatantId,
    melee: bool,
) -> Option<&'static str> {
    let t = d.field.get(target)?;
    let fx = t.fx;
    if [
        Condition::OffGuard,
        Condition::Stunned,
        Condition::Dazed,
        Condition::Restrained,
        Condition::Helpless,
        Condition::Unconscious,
        Condition::Blinded,
        Condition::Surprised,
    ]
    .iter()
    .any(|c| has_condition(fx, *c))
        || out_cold(t.vit.0)
    {
        return Some("off-guard target");
    }
    if melee && has_condition(fx, Condition::Prone) {
        return Some("prone target");
    }
    if swimming(d, b, target) {
        return Some("swimming target");
    }
    // § Stealth (interpretation, as for Blinded): a target that cannot see its hidden attacker
    // is off-guard to it.
    if super::stealth::unseen(d, b, attacker, target) {
        return Some("unseen attacker");
    }
    // § Feint: off-guard to the feinter only.
    if fx.0.iter().any(|e| {
        matches!(e.kind, EffectKind::Condition(Condition::Feinted)) && &e.source == attacker
    }) {
        return Some("feint");
    }
    // § Flanking: an ally of the attacker on the opposite side, able to attack.
    // Elevation: adjacency and opposite sides count height (`geometry::flanking_3d`).
    let (Ok(ts), Ok(a_sp)) = (
        elevation::body(d, b, target),
        elevation::body(d, b, attacker),
    ) else {
        return None;
    };
    if !melee || !geometry::adjacent_3d(ts, a_sp) {
        return None;
    }
    let side = fighter_side(d, attacker);
    d.field
        .all()
        .any(|f| {
            &f.c.id != attacker
                && f.c.side == side
                && can_threaten(d, &f.c.id)
                && elevation::body(d, b, &f.c.id).is_ok_and(|s| geometry::flanking_3d(ts, a_sp, s))
        })
        .then_some("flanking")
}

/// Able to make opportunity attacks (and so to flank): conscious, not helpless, stunned, dazed
/// (nor surrendered, § Unnerve).
pub(super) fn can_threaten(d: &Decider, id: &CombatantId) -> bool {
    d.field.get(id).is_some_and(|f| {
        f.vit.0 == LifeStatus::Conscious
            && ![
                Condition::Stunned,
                Condition::Dazed,
                Condition::Helpless,
                Condition::Unconscious,
                Condition::Surprised,
                Condition::Surrendered,
            ]
            .iter()
            .any(|c| has_condition(f.fx, *c))
    })
}

fn bonus_sum(fx: &[Effect], stat: BonusStat) -> i32 {
    // § Conditions: instances don't worsen — bonuses and penalties of one kind: best bonus plus
    // worst penalty.
    let vals: Vec<i32> = fx
        .iter()
        .filter_map(|e| match e.kind {
            EffectKind::Bonus { stat: s, amount } if s == stat => Some(amount),
            _ => None,
        })
        .collect();
    vals.iter().copied().filter(|v| *v > 0).max().unwrap_or(0)
        + vals.iter().copied().filter(|v| *v < 0).min().unwrap_or(0)
}

pub(super) fn defense_value(d: &Decider, b: &Board, target: &CombatantId, vs: Defense) -> i32 {
    let Some(f) = d.field.get(target) else {
        return 0;
    };
    let base = match (vs, b.get(target)) {
        (Defense::Fortitude, Some((g, _))) => g.0.fortitude,
        (Defense::Reflex, Some((g, _))) => g.0.reflex,
        (Defense::Will, Some((g, _))) => g.0.will,
        _ => f.def.0.ac,
    };
    base + bonus_sum(&f.fx.0, BonusStat::Defenses)
}

/// How an attack is delivered beyond its power: where an area originates (the attacker's space
/// otherwise) and whether the blow is meant to knock out (§ Knocking a creature out).
#[derive(Debug, Clone, Copy, Default)]
pub struct Delivery<'a> {
    /// An area's origin square (at its height: the user's for a near area, the ground for a
    /// far one).
    pub from: Option<Body>,
    /// The attacker's choice to knock out rather than kill.
    pub knock_out: bool,
    /// § Unwilling movement: the user's chosen paths (checked by `forced::check`).
    pub forced: &'a [fray_protocol::grid::ForcedPath],
    /// § Secondary attacks: the user's chosen secondary target (checked by `secondary::check`).
    pub secondary: Option<&'a CombatantId>,
}

/// How an attack is being made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Way {
    /// On the attacker's turn.
    Turn,
    /// An opportunity attack.
    Opportunity,
    /// § Coup De Grace: automatic critical hit.
    CoupDeGrace,
    /// § Charge after moving at least 2 squares: +1 to the attack roll.
    Charge,
}

/// The kind of attack a power makes (§ Origin of effect).
fn attack_kind(o: Origin) -> AttackKind {
    match o {
        Origin::Melee { .. } => AttackKind::Melee,
        Origin::NearBurst { .. }
        | Origin::NearBlast { .. }
        | Origin::NearEyesight
        | Origin::NearEarshot
        | Origin::NearEyesightOrEarshot
        | Origin::NearEyesightAndEarshot => AttackKind::Near,
        Origin::FarBurst { .. } | Origin::FarBlast { .. } => AttackKind::Far,
        _ => AttackKind::Ranged,
    }
}

/// § Senses: how a combatant sees in dim light and darkness.
pub(super) fn vision(b: &Board, id: &CombatantId) -> crate::content::model::Vision {
    b.get(id).map(|(_, kit)| kit.0.vision).unwrap_or_default()
}

/// The battle map as geometry, if the session has one.
pub(super) fn geo(b: &Board) -> Option<Geo> {
    b.map.0.as_ref().and_then(Geo::new)
}

/// § Cover: −2 or −5 for `target` against an effect from `from`; the target's allies in the way
/// count as obstacles, only at their own height (`geometry::in_the_way_at_height`); walls are
/// full height.
fn cover(d: &Decider, b: &Board, g: &Geo, from: Body, target: &CombatantId) -> i32 {
    let Ok(ts) = elevation::body(d, b, target) else {
        return 0;
    };
    cover_at(d, b, g, from, target, ts)
}

/// [`cover`] for `target` standing at `ts` (where a move would end, say).
pub(super) fn cover_at(
    d: &Decider,
    b: &Board,
    g: &Geo,
    from: Body,
    target: &CombatantId,
    ts: Body,
) -> i32 {
    let side = fighter_side(d, target);
    let allies: Vec<Space> = d
        .field
        .all()
        .filter(|f| &f.c.id != target && f.c.side == side)
        .filter(|f| !matches!(f.vit.0, LifeStatus::Dead | LifeStatus::Slain))
        .filter_map(|f| elevation::body(d, b, &f.c.id).ok())
        .filter(|o| geometry::in_the_way_at_height(*o, from, ts))
        .map(|o| o.space)
        .collect();
    g.cover(from.space, ts.space, &allies)
}

/// One attack roll's circumstance modifiers (§ Circumstance Attack Roll Modifier); `from` is
/// where the effect originates (an area's origin square; the attacker's space otherwise).
/// § Underwater combat, for an attacker in water (interpretation: water squares are deep, so a
/// creature with any square of its space in water fights underwater): −2 to weapon attacks
/// unless the weapon is a spear, lance or crossbow; −2 to powers with the Fire tag (or fire
/// damage: `tags.rs::fire`); +2 for an Aquatic attacker against a target without the tag.
/// § Athletics, swimming: the move from `from` into `to` starts a swim — a creature without a
/// swim speed, on the water's level, not riding, walking (running or stepping) from a space with
/// no water into one with water.
fn starts_swimming(
    d: &Decider,
    b: &Board,
    id: &CombatantId,
    map: &fray_protocol::grid::MapState,
    from: Space,
    to: Space,
    mode: MoveMode,
) -> bool {
    let wet = |sp: Space| sp.squares().any(|s| geometry::water(map, s));
    matches!(mode, MoveMode::Walk | MoveMode::Run | MoveMode::Step)
        && !wet(from)
        && wet(to)
        && b.get(id).is_some_and(|(_, kit)| kit.0.modes.swim == 0)
        && super::mounts::mounted_on(b, id).is_none()
        && elevation::height(d, b, id) == 0
}

/// § Athletics ("While swimming, you are off-guard"), § Swim ("A creature that has a swimming
/// speed … doesn't become off-guard just because it is swimming"): a creature on the water's
/// level (height 0) with a square of its space in water, without a swim speed and not riding
/// (its mount swims) — the water squares are deep, as for § Underwater combat.
pub(super) fn swimming(d: &Decider, b: &Board, id: &CombatantId) -> bool {
    let (Some(map), Some((_, kit))) = (b.map.0.as_ref(), b.get(id)) else {
        return false;
    };
    if kit.0.modes.swim > 0 || super::mounts::mounted_on(b, id).is_some() {
        return false;
    }
    elevation::body(d, b, id)
        .is_ok_and(|body| body.height == 0 && body.space.squares().any(|s| geometry::water(map, s)))
}

fn underwater(
    b: &Board,
    attacker: &CombatantId,
    target: &CombatantId,
    p: &PowerSpec,
    at: Option<Space>,
) -> Modifiers {
    let mut m = Modifiers::new();
    let (Some(map), Some(at)) = (b.map.0.as_ref(), at) else {
        return m;
    };
    if !at.squares().any(|s| geometry::water(map, s)) {
        return m;
    }
    if p.underwater_penalty {
        m.add("weapon underwater", rules::UNDERWATER_WEAPON);
    }
    if super::tags::fire(p) {
        m.add("fire underwater", rules::UNDERWATER_FIRE);
    }
    let aquatic = |id: &CombatantId| b.get(id).is_some_and(|(_, kit)| kit.0.aquatic);
    if aquatic(attacker) && !aquatic(target) {
        m.add("aquatic", rules::AQUATIC);
    }
    m
}

fn circumstances(
    d: &Decider,
    b: &Board,
    g: Option<&Geo>,
    from: Body,
    attacker: &CombatantId,
    target: &CombatantId,
    p: &PowerSpec,
) -> Modifiers {
    let mut m = Modifiers::new();
    let melee = matches!(p.origin, Origin::Melee { .. });
    let kind = attack_kind(p.origin);
    // § Concealment (melee and ranged only): obscured squares, or a blinded attacker (total
    // concealment, interpretation); the worse one counts.
    let mut concealment = 0;
    if let (Some(g), Ok(a_sp), Ok(t_sp)) = (g, space(d, b, attacker), space(d, b, target)) {
        concealment = g.concealment(a_sp, t_sp, kind, vision(b, attacker));
        // § Cover.
        m.add("cover", cover(d, b, g, from, target));
    }
    if let Some(a) = d.field.get(attacker) {
        if has_condition(a.fx, Condition::Prone) {
            m.add("prone", rules::ATTACKER_PRONE);
        }
        if has_condition(a.fx, Condition::Restrained) {
            m.add("restrained", rules::ATTACKER_RESTRAINED);
        }
        // Marked: −2 against anyone but the marker.
        if a.fx.0.iter().any(|e| {
            matches!(e.kind, EffectKind::Condition(Condition::Marked)) && &e.source != target
        }) {
            m.add("marked", rules::MARKED);
        }
        m.extend(effect_bonus_terms(&a.fx.0, BonusStat::Attack));
        if has_condition(a.fx, Condition::Blinded)
            && matches!(kind, AttackKind::Melee | AttackKind::Ranged)
        {
            concealment = concealment.min(rules::TOTAL_CONCEALMENT);
        }
    }
    // § Stealth: a target hidden from the attacker is invisible to it — total concealment
    // against melee and ranged attacks (§ Concealment: "An invisible target also has total
    // concealment"), and never seen for the off-guard bonus.
    let hidden = super::stealth::unseen(d, b, target, attacker);
    if hidden && matches!(kind, AttackKind::Melee | AttackKind::Ranged) {
        concealment = concealment.min(rules::TOTAL_CONCEALMENT);
    }
    if concealment <= rules::TOTAL_CONCEALMENT {
        m.add("total concealment", concealment);
    } else {
        m.add("concealment", concealment);
    }
    // § Off-guard: only attackers that can see the target get the bonus (total concealment
    // means it cannot be seen).
    if concealment > rules::TOTAL_CONCEALMENT
        && !hidden
        && let Some(why) = off_guard(d, b, attacker, target, melee)
    {
        m.add(why, rules::OFF_GUARD);
    }
    m.extend(underwater(
        b,
        attacker,
        target,
        p,
        space(d, b, attacker).ok(),
    ));
    if let (Origin::Ranged { short, .. }, Ok(a), Ok(t)) = (
        p.origin,
        elevation::body(d, b, attacker),
        elevation::body(d, b, target),
    ) && geometry::distance_3d(a, t) > short
    {
        m.add("long range", rules::LONG_RANGE);
    }
    if let (Origin::Ranged { .. }, Some(t)) = (p.origin, d.field.get(target))
        && has_condition(t.fx, Condition::Prone)
    {
        // Interpretation (text gap: "prone" has no definition): Fourth Edition's −2 to ranged
        // attacks against a prone target.
        m.add("prone target", -2);
    }
    m
}

/// An attack's damage after halving: a weakened attacker deals half (interpretation, text gap:
/// Fourth Edition's weakened), an incorporeal target takes half (§ Incorporeal); rounded down,
/// each halving once.
fn halved(d: &Decider, b: &Board, attacker: &CombatantId, target: &CombatantId, a: i32) -> i32 {
    let mut a = a.max(0);
    if d.field
        .get(attacker)
        .is_some_and(|f| has_condition(f.fx, Condition::Weakened))
    {
        a /= 2;
    }
    if b.get(target).is_some_and(|(_, kit)| kit.0.incorporeal) {
        a /= 2;
    }
    a
}

/// Damage after immunity, resistance and weakness (§ Immunities, resistances and weaknesses).
fn adjusted(b: &Board, target: &CombatantId, amount: i32, ty: Option<DamageType>) -> i32 {
    let Some(ty) = ty else { return amount.max(0) };
    let Some((_, kit)) = b.get(target) else {
        return amount.max(0);
    };
    if kit.0.immune.contains(&ty) {
        return 0;
    }
    let resist = kit
        .0
        .resist
        .iter()
        .filter(|(t, _)| *t == ty)
        .map(|(_, n)| *n)
        .max()
        .unwrap_or(0);
    let weak = kit
        .0
        .weak
        .iter()
        .filter(|(t, _)| *t == ty)
        .map(|(_, n)| *n)
        .max()
        .unwrap_or(0);
    (amount - resist + weak).max(0)
}

/// Deals damage with Orcus's death rule (§ Negative HP) on top of the shared one; a stabilized
/// hero who takes damage is stabilized no more (§ Stabilize). Returns the damage taken (after
/// immunities, resistances and weaknesses).
pub fn deal(
    d: &mut Decider,
    b: &Board,
    target: &CombatantId,
    amount: i32,
    cause: DamageCause,
    ty: Option<DamageType>,
    knock_out: bool,
) -> i32 {
    let amount = adjusted(b, target, amount, ty);
    let staggered_before = d
        .overlay
        .vitals(d.field, target)
        .is_some_and(|v| v.current * 2 <= v.max);
    if knock_out {
        // § Knocking a creature out: the attacker's choice the instant the damage is dealt.
        d.damage_knocking_out(target, amount, cause, ty);
    } else {
        d.damage(target, amount, cause, ty);
    }
    if let Some(v) = d.overlay.vitals(d.field, target)
        && v.side == Side::Heroes
        && v.status == LifeStatus::Unconscious
    {
        if rules::is_dead_at(v.current, v.max) {
            let mut v = v;
            v.status = LifeStatus::Dead;
            d.overlay.set(target, v);
            d.emit(GameEvent::Died {
                combatant: target.clone(),
            });
        } else if amount > 0
            && d.field
                .get(target)
                .is_some_and(|f| f.hero.is_some_and(|h| h.stabilized))
            && !d.events().iter().any(
                |e| matches!(e, GameEvent::Orcus(OrcusEvent::StabilizationEnded { combatant }) if combatant == target),
            )
        {
            d.emit(GameEvent::Orcus(OrcusEvent::StabilizationEnded {
                combatant: target.clone(),
            }));
        }
    }
    recharge_if(d, b, target, amount, ty, staggered_before);
    amount
}

/// § Unusual recharge conditions, "Recharge if …": an expended power whose condition the damage
/// just met (damage of its type got through; the creature became staggered) is regained.
fn recharge_if(
    d: &mut Decider,
    b: &Board,
    target: &CombatantId,
    taken: i32,
    ty: Option<DamageType>,
    staggered_before: bool,
) {
    use crate::content::model::RechargeCondition;
    let Some((_, kit)) = b.get(target) else {
        return;
    };
    let Some(v) = d.overlay.vitals(d.field, target) else {
        return;
    };
    if matches!(v.status, LifeStatus::Dead | LifeStatus::Slain) {
        return;
    }
    let became_staggered = !staggered_before && v.current * 2 <= v.max;
    let expended = |d: &Decider, id: &str| {
        let mut used = d.field.get(target).is_some_and(|f| f.used.0.contains(id));
        for e in d.events() {
            match e {
                GameEvent::PowerExpended { combatant, power }
                    if combatant == target && power == id =>
                {
                    used = true
                }
                GameEvent::PowerRegained {
                    combatant, power, ..
                } if combatant == target && power == id => used = false,
                _ => {}
            }
        }
        used
    };
    let regained: Vec<String> = kit
        .0
        .powers
        .iter()
        .filter(|p| match p.frequency {
            Frequency::RechargeIf(RechargeCondition::TakesDamage(t)) => taken > 0 && ty == Some(t),
            Frequency::RechargeIf(RechargeCondition::Staggered) => became_staggered,
            _ => false,
        })
        .filter(|p| expended(d, &p.id))
        .map(|p| p.id.clone())
        .collect();
    for power in regained {
        d.emit(GameEvent::PowerRegained {
            combatant: target.clone(),
            power,
            roll: None,
        });
    }
}

/// How a damage expression's plain numbers are named among its modifiers (`2d6+4`: the 4 —
/// in Orcus the stat block's or sheet's damage, ability and level already added).
const DAMAGE_LITERAL: &str = "damage bonus";

/// Resolves a power against its targets: one attack roll per target, damage rolled once
/// (§ Attacks with multiple targets); a natural 20 hits for maximum damage, a natural 1 misses
/// (§ Critical hits and fumbles).
pub(super) fn resolve(
    d: &mut Decider,
    b: &Board,
    attacker: &CombatantId,
    p: &PowerSpec,
    targets: &[CombatantId],
    way: Way,
    delivery: Delivery<'_>,
) -> R {
    let Delivery {
        from,
        knock_out,
        forced,
        secondary: chosen,
    } = delivery;
    if p.utility {
        // § Category, utility: no attack roll; the Effect line lands on each target.
        super::power_effects::utility(d, attacker, p, targets);
        return Ok(());
    }
    let ph = Placeholders::default();
    let g = geo(b);
    let from = match from {
        Some(s) => s,
        None => elevation::body(d, b, attacker)?,
    };
    let max = match &p.hit {
        Some(e) => DiceExpr::parse(e)
            .ok()
            .and_then(|x| x.max_total(&ph).ok().flatten())
            .unwrap_or(0),
        None => 0,
    };
    let mut results: Vec<(CombatantId, AttackOutcome)> = Vec::new();
    for t in targets {
        if d.status(attacker) != Some(LifeStatus::Conscious) {
            break;
        }
        let mut terms = p.bonus_modifiers();
        if way == Way::Charge {
            terms.add("charge", rules::CHARGE);
        }
        terms.extend(circumstances(d, b, g.as_ref(), from, attacker, t, p));
        let bonus = terms.total();
        let defense_v = defense_value(d, b, t, p.vs);
        let outcome;
        if way == Way::CoupDeGrace {
            outcome = AttackOutcome::Crit;
            d.emit(GameEvent::CoupDeGrace {
                attacker: attacker.clone(),
                target: t.clone(),
                attack: p.id.clone(),
            });
        } else if super::targets::hit_by_choice(d, b, attacker, t) {
            // § Choosing to be hit: no attack roll.
            outcome = AttackOutcome::Hit;
            d.emit(GameEvent::Orcus(OrcusEvent::HitByChoice {
                attacker: attacker.clone(),
                target: t.clone(),
                attack: p.id.clone(),
            }));
        } else {
            let roll = d.d20();
            let natural = roll.natural().unwrap_or(0);
            let total = roll.total + bonus;
            outcome = if natural == 20 {
                AttackOutcome::Crit
            } else if natural == 1 {
                AttackOutcome::Fumble
            } else if total >= defense_v {
                AttackOutcome::Hit
            } else {
                AttackOutcome::Miss
            };
            d.emit(GameEvent::AttackRolled {
                attacker: attacker.clone(),
                target: t.clone(),
                attack: p.id.clone(),
                roll,
                bonus,
                total,
                defense: p.vs,
                defense_value: defense_v,
                outcome,
                modifiers: terms.into_vec(),
            });
        }
        results.push((t.clone(), outcome));
    }
    let rolled_hit = if results.iter().any(|(_, o)| *o == AttackOutcome::Hit)
        && let Some(e) = &p.hit
    {
        let (roll, terms) = d.roll_explained(e, &ph, DAMAGE_LITERAL)?;
        let total = roll.total;
        d.emit(GameEvent::DamageRolled {
            attacker: attacker.clone(),
            attack: p.id.clone(),
            roll,
            modifiers: terms.into_vec(),
        });
        Some(total)
    } else {
        None
    };
    let rolled_miss = if results
        .iter()
        .any(|(_, o)| matches!(o, AttackOutcome::Miss | AttackOutcome::Fumble))
        && let Some(e) = &p.miss
    {
        let (roll, terms) = d.roll_explained(e, &ph, DAMAGE_LITERAL)?;
        let total = roll.total;
        d.emit(GameEvent::DamageRolled {
            attacker: attacker.clone(),
            attack: p.id.clone(),
            roll,
            modifiers: terms.into_vec(),
        });
        Some(total)
    } else {
        None
    };
    let mut secondaries: Vec<CombatantId> = Vec::new();
    for (t, outcome) in results {
        let cause = DamageCause::Attack {
            attacker: attacker.clone(),
            attack: p.id.clone(),
        };
        // § Weapon properties, Improved Critical: extra weapon dice on a critical hit, rolled
        // for each target (§ Areas of effect: damage that depends on the attack roll).
        let crit_bonus = match (&outcome, &p.crit_extra, &p.hit) {
            (AttackOutcome::Crit, Some(extra), Some(_)) => {
                let (roll, terms) = d.roll_explained(extra, &ph, DAMAGE_LITERAL)?;
                let total = roll.total;
                d.emit(GameEvent::DamageRolled {
                    attacker: attacker.clone(),
                    attack: p.id.clone(),
                    roll,
                    modifiers: terms.into_vec(),
                });
                total
            }
            _ => 0,
        };
        let (amount, effects) = match outcome {
            AttackOutcome::Crit => (p.hit.as_ref().map(|_| max + crit_bonus), &p.on_hit),
            AttackOutcome::Hit => (rolled_hit, &p.on_hit),
            _ => (rolled_miss, &p.on_miss),
        };
        if let Some(a) = amount {
            let a = halved(d, b, attacker, &t, a);
            let taken = deal(d, b, &t, a, cause, p.damage_type, knock_out);
            // § Coup De Grace: taking damage of at least the staggered value kills.
            if way == Way::CoupDeGrace
                && let Some(now) = d.overlay.vitals(d.field, &t)
                && taken >= rules::staggered_value(now.max)
                && !matches!(now.status, LifeStatus::Dead | LifeStatus::Slain)
            {
                let mut now = now;
                now.status = if now.side == Side::Heroes {
                    LifeStatus::Dead
                } else {
                    LifeStatus::Slain
                };
                d.overlay.set(&t, now);
                d.emit(if now.side == Side::Heroes {
                    GameEvent::Died {
                        combatant: t.clone(),
                    }
                } else {
                    GameEvent::Slain {
                        combatant: t.clone(),
                    }
                });
            }
        }
        // (before the death check: a secondary attack against the creatures next to a
        // primary target the hit killed still takes place)
        if let Some(sec) = &p.secondary {
            use crate::content::model::SecondaryOn;
            let takes_place = match sec.on {
                SecondaryOn::Hit => outcome.is_hit(),
                SecondaryOn::Miss => !outcome.is_hit(),
                SecondaryOn::Effect => true,
            };
            if takes_place {
                secondaries.push(t.clone());
            }
        }
        if matches!(d.status(&t), Some(LifeStatus::Dead | LifeStatus::Slain)) {
            continue;
        }
        // § Category: the Effect line lands "regardless of whether they hit or miss".
        for e in effects.iter().chain(&p.effect) {
            super::power_effects::apply_clause(d, attacker, p, &t, e);
        }
        if outcome.is_hit()
            && let Some(f) = p.forced
        {
            super::forced::apply(d, b, g.as_ref(), from.space, &t, f, forced);
        }
    }
    // § Secondary attacks: after the primary attack, against the same targets unless the
    // content names others; they use the attacker's position and the primary's origin.
    if let Some(sec) = &p.secondary
        && sec.targets != crate::content::model::SecondaryTargets::Primary
    {
        let new = super::secondary::targets(d, b, attacker, targets, &secondaries, sec, chosen);
        if !new.is_empty() && d.status(attacker) == Some(LifeStatus::Conscious) {
            // One attack roll per target, the damage rolled once for all of them (§ Damage:
            // "roll the damage once").
            resolve(
                d,
                b,
                attacker,
                &sec.power,
                &new,
                Way::Turn,
                Delivery {
                    from: Some(from),
                    knock_out,
                    forced: &[],
                    secondary: None,
                },
            )?;
        }
    } else if let Some(sec) = &p.secondary {
        for t in secondaries {
            if d.status(attacker) != Some(LifeStatus::Conscious)
                || matches!(
                    d.status(&t),
                    Some(LifeStatus::Dead | LifeStatus::Slain) | None
                )
            {
                continue;
            }
            resolve(
                d,
                b,
                attacker,
                &sec.power,
                std::slice::from_ref(&t),
                Way::Turn,
                Delivery {
                    from: Some(from),
                    knock_out,
                    forced: &[],
                    secondary: None,
                },
            )?;
        }
    }
    Ok(())
}

/// An enemy of `attacker` (for "one enemy" targets).
pub(super) fn is_enemy(d: &Decider, attacker: &CombatantId, t: &CombatantId) -> bool {
    fighter_side(d, attacker) != fighter_side(d, t)
}

pub(super) fn alive(d: &Decider, t: &CombatantId) -> R {
    let f = fighter(d, t)?;
    if matches!(f.vit.0, LifeStatus::Dead | LifeStatus::Slain) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{} is out of the fight", f.c.name),
        ));
    }
    Ok(())
}

/// § Secondary attacks against other targets: the creatures (or the enemies of `attacker`)
/// adjacent to (or within N squares of) any of `anchors`, in id order — or the one nearest
/// them (§ Targets, Nearest: the shortest range to an anchor; a tie goes to the lowest id,
/// Fray choosing for the attacker); never the attacker, a primary target or a creature out of
/// the fight. Interpretation: a rule around the primary target replaces the primary's range,
/// so no range check from the user.
pub(super) fn adjacent_to_primaries(
    d: &Decider,
    b: &Board,
    attacker: &CombatantId,
    primaries: &[CombatantId],
    anchors: &[CombatantId],
    rule: crate::content::model::SecondaryTargets,
) -> Vec<CombatantId> {
    use crate::content::model::SecondaryTargets as S;
    let spaces: Vec<Body> = anchors
        .iter()
        .filter_map(|t| elevation::body(d, b, t).ok())
        .collect();
    let enemies_only = matches!(
        rule,
        S::EnemiesAdjacentToPrimary | S::EnemiesWithinOfPrimary { .. } | S::NearestEnemyToPrimary
    );
    let range = |s: Body| spaces.iter().map(|&at| geometry::distance_3d(s, at)).min();
    let candidates = d
        .field
        .all()
        .filter(|f| &f.c.id != attacker && !primaries.contains(&f.c.id))
        .filter(|f| !matches!(f.vit.0, LifeStatus::Dead | LifeStatus::Slain))
        .filter(|f| !enemies_only || is_enemy(d, attacker, &f.c.id))
        .filter_map(|f| {
            elevation::body(d, b, &f.c.id)
                .ok()
                .map(|s| (f.c.id.clone(), s))
        });
    match rule {
        S::Primary | S::OneCreatureWithinOfPrimary { .. } | S::OneEnemyWithinOfPrimary { .. } => {
            Vec::new()
        }
        S::CreaturesAdjacentToPrimary | S::EnemiesAdjacentToPrimary => candidates
            .filter(|(_, s)| spaces.iter().any(|&at| geometry::adjacent_3d(*s, at)))
            .map(|(id, _)| id)
            .collect(),
        S::CreaturesWithinOfPrimary { within } | S::EnemiesWithinOfPrimary { within } => {
            let within = i32::try_from(within).unwrap_or(i32::MAX);
            candidates
                .filter(|(_, s)| range(*s).is_some_and(|r| r <= within))
                .map(|(id, _)| id)
                .collect()
        }
        S::NearestCreatureToPrimary | S::NearestEnemyToPrimary => candidates
            .filter_map(|(id, s)| range(s).map(|r| (r, id)))
            .min()
            .map(|(_, id)| vec![id])
            .unwrap_or_default(),
    }
}

/// The enemies of `actor` adjacent to it were it in the space `at` (counting height), in id
/// order.
fn adjacent_enemies(d: &Decider, b: &Board, actor: &CombatantId, at: Space) -> Vec<CombatantId> {
    let side = fighter_side(d, actor);
    let me = elevation::body_at(d, b, actor, at);
    d.field
        .all()
        .filter(|f| f.c.side != side)
        .filter(|f| elevation::body(d, b, &f.c.id).is_ok_and(|s| geometry::adjacent_3d(s, me)))
        .map(|f| f.c.id.clone())
        .collect()
}

/// Opportunity attacks provoked by a ranged or far power (§ Opportunity attacks), resolved
/// before it; returns whether the attacker is still up.
pub(super) fn provoke_ranged(d: &mut Decider, b: &Board, actor: &CombatantId) -> R<bool> {
    let at = space(d, b, actor)?;
    for e in adjacent_enemies(d, b, actor, at) {
        opportunity_attack(d, b, &e, actor, at)?;
        if d.status(actor) != Some(LifeStatus::Conscious) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// An opportunity attack by `attacker` against `provoker` (at `at`), if it can make one: it sees
/// and threatens, has not made one this turn, and has a basic melee attack that reaches.
/// Fray takes it automatically (interpretation: the attack happens in the middle of the
/// provoker's move, so it cannot wait for a client).
fn opportunity_attack(
    d: &mut Decider,
    b: &Board,
    attacker: &CombatantId,
    provoker: &CombatantId,
    at: Space,
) -> R {
    if !can_threaten(d, attacker)
        || d.field
            .get(attacker)
            .is_some_and(|f| has_condition(f.fx, Condition::Blinded))
        || super::stealth::unseen(d, b, provoker, attacker)
    {
        return Ok(());
    }
    let Some((g, kit)) = b.get(attacker) else {
        return Ok(());
    };
    if g.0.opportunity_used
        || d.events()
            .iter()
            .any(|e| matches!(e, GameEvent::OpportunityTaken { attacker: a, .. } if a == attacker))
    {
        return Ok(());
    }
    let Some(p) = kit
        .0
        .powers
        .iter()
        .find(|p| p.basic && matches!(p.origin, Origin::Melee { .. }))
        .cloned()
    else {
        return Ok(());
    };
    let Origin::Melee { reach } = p.origin else {
        return Ok(());
    };
    let Ok(a_sp) = elevation::body(d, b, attacker) else {
        return Ok(());
    };
    if geometry::distance_3d(a_sp, elevation::body_at(d, b, provoker, at)) > reach {
        return Ok(());
    }
    if !super::mounts::rider_spends_immediate(d, b, attacker) {
        return Ok(());
    }
    d.emit(GameEvent::OpportunityTaken {
        attacker: attacker.clone(),
        target: provoker.clone(),
    });
    resolve(
        d,
        b,
        attacker,
        &p,
        std::slice::from_ref(provoker),
        Way::Opportunity,
        Delivery::default(),
    )
}

#[allow(clippy::too_many_arguments)]
fn attack_cmd(
    d: &mut Decider,
    b: &Board,
    actor: &CombatantId,
    attack: &str,
    targets: &[CombatantId],
    mode: fray_protocol::command::AttackMode,
    knock_out: bool,
    forced: &[fray_protocol::grid::ForcedPath],
    (weapon, chosen): (
        Option<fray_protocol::command::WeaponHand>,
        Option<&CombatantId>,
    ),
) -> R {
    use fray_protocol::command::AttackMode;
    let p = super::weapons::choose(power(b, actor, attack)?, weapon)?.clone();
    if p.origin.is_area() {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("{} is an area power: use area_attack", p.name),
        ));
    }
    let targets = super::personal::targets(&p, actor, targets)?;
    if mode == AttackMode::Opportunity {
        return Err(no(
            ErrorCode::InvalidArgument,
            "Orcus opportunity attacks are taken automatically when provoked",
        ));
    }
    if mode == AttackMode::CoupDeGrace && p.utility {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("{} makes no attack: a coup de grace uses an attack", p.name),
        ));
    }
    check_timing(d, b, actor, &p)?;
    check_frequency(d, actor, &p)?;
    if targets.is_empty() || targets.len() > usize::from(p.max_targets.max(1)) {
        return Err(no(
            ErrorCode::WrongTargetCount,
            format!("{} takes 1 to {} targets", p.name, p.max_targets.max(1)),
        ));
    }
    let mut seen = BTreeSet::new();
    let a_sp = space(d, b, actor)?;
    let g = geo(b);
    for t in targets {
        alive(d, t)?;
        if !seen.insert(t.clone()) {
            return Err(no(ErrorCode::InvalidTarget, format!("{t} is named twice")));
        }
        let ally = super::targets::is_ally(d, b, actor, t);
        match p.targets.allies() {
            Some(false) if ally || t == actor => {
                return Err(no(
                    ErrorCode::InvalidTarget,
                    format!("{} targets enemies only", p.name),
                ));
            }
            Some(true) if !ally => {
                return Err(no(
                    ErrorCode::InvalidTarget,
                    format!("{} targets allies only (not its user)", p.name),
                ));
            }
            _ => {}
        }
        let t_sp = space(d, b, t)?;
        // Elevation: the height gap counts (the larger of the two distances).
        let dist = geometry::distance_3d(elevation::body(d, b, actor)?, elevation::body(d, b, t)?);
        let limit = match p.origin {
            Origin::Melee { reach } => reach,
            Origin::Ranged { long, .. } => long,
            _ => 0,
        };
        if dist > limit {
            return Err(no(
                ErrorCode::OutOfRange,
                format!("{t} is {dist} squares away; {} reaches {limit}", p.name),
            ));
        }
        if let Some(g) = &g
            && !g.line_of_effect(a_sp, t_sp)
        {
            return Err(no(
                ErrorCode::NoLineOfEffect,
                format!("a wall blocks the line of effect to {t}"),
            ));
        }
    }
    super::forced::check(d, b, g.as_ref(), &p, a_sp, targets, forced)?;
    super::secondary::check(d, b, actor, &p, targets, chosen)?;
    let way = if mode == AttackMode::CoupDeGrace {
        // § Coup De Grace: adjacent helpless enemy; a standard action.
        let t = &targets[0];
        let tf = fighter(d, t)?;
        if !is_enemy(d, actor, t) {
            return Err(no(
                ErrorCode::InvalidTarget,
                format!("a coup de grace needs an enemy; {} is an ally", tf.c.name),
            ));
        }
        let helpless = out_cold(tf.vit.0)
            || has_condition(tf.fx, Condition::Helpless)
            || has_condition(tf.fx, Condition::Unconscious);
        if targets.len() != 1 || !helpless {
            return Err(no(
                ErrorCode::NotHelpless,
                format!("{} is not helpless", tf.c.name),
            ));
        }
        if !geometry::adjacent_3d(elevation::body(d, b, actor)?, elevation::body(d, b, t)?) {
            return Err(no(
                ErrorCode::OutOfRange,
                "a coup de grace needs an adjacent enemy",
            ));
        }
        pay(d, actor, ActionKind::Standard)?;
        Way::CoupDeGrace
    } else {
        let ammo = ammunition_needed(b, actor, &p, targets.len())?;
        spend_for(d, b, actor, &p)?;
        use_ammunition(d, actor, ammo);
        super::loading::fired(d, actor, &p);
        super::targets::spent(d, b, actor);
        Way::Turn
    };
    expend(d, actor, &p);
    if matches!(p.origin, Origin::Ranged { .. }) && !provoke_ranged(d, b, actor)? {
        return Ok(());
    }
    if !super::counters::before_attack(d, b, actor, &p, targets)? {
        return Ok(());
    }
    resolve(
        d,
        b,
        actor,
        &p,
        targets,
        way,
        Delivery {
            from: None,
            knock_out,
            forced,
            secondary: chosen,
        },
    )
}

/// § Areas of effect: near/far bursts and blasts; each creature once.
#[allow(clippy::too_many_arguments)]
fn area_attack(
    d: &mut Decider,
    b: &Board,
    actor: &CombatantId,
    attack: &str,
    (origin, origin_height): (Option<Square>, Option<i32>),
    chosen: &[CombatantId],
    forced: &[fray_protocol::grid::ForcedPath],
    (weapon, chosen_secondary): (
        Option<fray_protocol::command::WeaponHand>,
        Option<&CombatantId>,
    ),
) -> R {
    let p = super::weapons::choose(power(b, actor, attack)?, weapon)?.clone();
    super::aloft::check_origin_height(&p, origin_height)?;
    check_timing(d, b, actor, &p)?;
    check_frequency(d, actor, &p)?;
    let area = super::areas::area_of(d, b, actor, &p, (origin, origin_height))?;
    let targets = super::areas::targets(d, b, actor, &p, &area.inside, chosen)?;
    let (g, from, squares) = (area.geo, area.from, area.squares);
    super::forced::check(d, b, Some(&g), &p, from.space, &targets, forced)?;
    super::secondary::check(d, b, actor, &p, &targets, chosen_secondary)?;
    let ammo = ammunition_needed(b, actor, &p, targets.len())?;
    spend_for(d, b, actor, &p)?;
    use_ammunition(d, actor, ammo);
    super::loading::fired(d, actor, &p);
    super::targets::spent(d, b, actor);
    expend(d, actor, &p);
    if matches!(p.origin, Origin::FarBurst { .. } | Origin::FarBlast { .. })
        && !provoke_ranged(d, b, actor)?
    {
        return Ok(());
    }
    if !super::counters::before_attack(d, b, actor, &p, &targets)? {
        return Ok(());
    }
    resolve(
        d,
        b,
        actor,
        &p,
        &targets,
        Way::Turn,
        Delivery {
            from: Some(from),
            knock_out: false,
            forced,
            secondary: chosen_secondary,
        },
    )?;
    // § Action descriptions (tangles): the area becomes the power's zone.
    super::power_effects::zone(d, actor, &p, &squares);
    Ok(())
}

// --- universal actions ---------------------------------------------------------------------

/// Heals a hero by its recovery value, spending a recovery (§ Healing with no recoveries: a
/// dying hero with none is set to 1 hp).
pub fn spend_recovery(d: &mut Decider, b: &Board, who: &CombatantId, can_act: bool) -> R<bool> {
    let f = fighter(d, who)?;
    let have = f.hero.is_some_and(|h| h.recoveries > 0);
    let value = b.get(who).map_or(1, |(g, _)| g.0.recovery_value);
    let Some(mut v) = d.overlay.vitals(d.field, who) else {
        return Ok(false);
    };
    let dying = v.current <= 0;
    if !have && !dying {
        return Ok(false);
    }
    let target_hp = if have { v.current.max(0) + value } else { 1 };
    restore_hp(d, who, &mut v, target_hp, have, can_act);
    Ok(true)
}

/// Sets hit points to `target_hp` (at most the maximum; § Healing: healing on negative hit
/// points starts from 0) and wakes a dying creature (§ 0 hit points or below).
pub fn restore_hp(
    d: &mut Decider,
    who: &CombatantId,
    v: &mut crate::rules::common::field::Vitals,
    target_hp: i32,
    recovery_used: bool,
    can_act: bool,
) {
    let after = target_hp.min(v.max);
    let amount = after - v.current.max(0);
    v.current = after;
    d.emit(GameEvent::Healed {
        target: who.clone(),
        roll: None,
        amount,
        recovery_used,
        hp_after: Some(after),
    });
    if matches!(v.status, LifeStatus::Unconscious | LifeStatus::KnockedOut) {
        v.status = LifeStatus::Conscious;
        d.emit(GameEvent::Revived {
            combatant: who.clone(),
            can_act,
        });
    }
    d.overlay.set(who, *v);
}

/// § Rally (encounter): spend a recovery and heal its value; +2 to defenses until the start of
/// the next turn.
fn rally(d: &mut Decider, b: &Board, actor: &CombatantId) -> R {
    on_turn(d, actor)?;
    let f = fighter(d, actor)?;
    let name = f.c.name.clone();
    if f.hero.is_none_or(|h| h.recoveries <= 0) {
        return Err(no(
            ErrorCode::RallyNotAllowed,
            format!("{name} has no recovery to spend"),
        ));
    }
    if b.get(actor).is_some_and(|(g, _)| g.0.rallied) {
        return Err(no(
            ErrorCode::RallyNotAllowed,
            format!("{name} has rallied this encounter"),
        ));
    }
    pay(d, actor, ActionKind::Standard)?;
    d.emit(GameEvent::Rallied {
        combatant: actor.clone(),
    });
    spend_recovery(d, b, actor, true)?;
    defense_bonus(d, actor);
    Ok(())
}

/// § Stabilize: a standard action next to a dying ally; DC 15 Heal (untrained: half level +
/// Wisdom modifier).
fn stabilize(d: &mut Decider, b: &Board, actor: &CombatantId, target: &CombatantId) -> R {
    on_turn(d, actor)?;
    let t = fighter(d, target)?;
    if t.vit.0 != LifeStatus::Unconscious || t.c.side != fighter_side(d, actor) {
        return Err(no(
            ErrorCode::NotDying,
            format!("{} is not a dying ally", t.c.name),
        ));
    }
    if t.hero.is_some_and(|h| h.stabilized) {
        return Err(no(
            ErrorCode::NotDying,
            format!("{} is already stabilized", t.c.name),
        ));
    }
    if !geometry::adjacent_3d(
        elevation::body(d, b, actor)?,
        elevation::body(d, b, target)?,
    ) {
        return Err(no(
            ErrorCode::OutOfRange,
            format!("{} is not adjacent", t.c.name),
        ));
    }
    pay(d, actor, ActionKind::Standard)?;
    if skill_check(d, b, actor, "heal", rules::STABILIZE_DC, "stabilize") {
        d.emit(GameEvent::Stabilized {
            combatant: target.clone(),
            by: actor.clone(),
        });
    }
    Ok(())
}

/// A skill check (§ Ability and skill checks): d20 + the skill modifier against `dc`, emitted
/// as `check_rolled` with `purpose`; returns success.
pub(super) fn skill_check(
    d: &mut Decider,
    b: &Board,
    actor: &CombatantId,
    skill: &str,
    dc: i32,
    purpose: &str,
) -> bool {
    let bonus = skill_mod(b, actor, skill);
    let roll = d.d20();
    let total = roll.total + bonus;
    let success = total >= dc;
    d.emit(GameEvent::CheckRolled {
        combatant: actor.clone(),
        purpose: purpose.into(),
        roll,
        bonus,
        total,
        dc,
        success,
        modifiers: Modifiers::new().named_term(skill, bonus).into_vec(),
    });
    success
}

/// A combatant's skill modifier (§ The skills), by lowercase name.
pub fn skill_mod(b: &Board, id: &CombatantId, skill: &str) -> i32 {
    b.get(id)
        .and_then(|(_, kit)| kit.0.skills.get(skill).copied())
        .unwrap_or(0)
}

/// Whether a turn can go on: conscious, able to act, and with an action left.
pub fn can_act(d: &Decider, id: &CombatantId) -> bool {
    let Some(f) = d.field.get(id) else {
        return false;
    };
    if f.vit.0 != LifeStatus::Conscious
        || [
            Condition::Stunned,
            Condition::Helpless,
            Condition::Unconscious,
            Condition::Surprised,
            Condition::Surrendered,
        ]
        .iter()
        .any(|c| has_condition(f.fx, *c))
    {
        return false;
    }
    let a = f.budget.0;
    let fresh = a.standard && a.move_action && a.quick;
    if !fresh && single_action(d, id) {
        return false;
    }
    a.standard || a.move_action || a.quick
}

/// Unconscious by its hit points: dying at 0 or below, or knocked out (§ Knocking a creature
/// out: "The creature falls unconscious"); helpless, prone and off-guard alike.
fn out_cold(status: LifeStatus) -> bool {
    matches!(status, LifeStatus::Unconscious | LifeStatus::KnockedOut)
}
