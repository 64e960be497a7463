//! 13th Age's built-in policy (the demo bots): an open opportunity attack first (out of turn),
//! then, on its own turn, start the battle (GM), rally when staggered, stabilize a dying ally,
//! finish a helpless enemy, engage and fight in melee, shoot, or disengage; then end the turn.

use crate::rules::common::policy::{between_battles, controls};
use fray_protocol::ThirteenthAgeCommand;
use fray_protocol::command::AttackMode;
use fray_protocol::event::{Condition, EffectKind};
use fray_protocol::ids::{CombatantId, Role, Side};
use fray_protocol::state::{AttackSummary, CombatantState, LifeStatus, Phase};
use fray_protocol::{Command, SessionState};

fn basic_melee(c: &CombatantState) -> Option<&AttackSummary> {
    c.attacks
        .iter()
        .find(|a| a.basic && a.range == "melee" && a.maneuvers.is_empty())
}

/// The bot's next command, if it has one: an open opportunity attack first (out of turn), then,
/// on its own turn, start the battle (GM), rally when staggered, stabilize a dying ally, finish a
/// helpless enemy, engage and fight in melee, shoot, or disengage; then end the turn.
pub fn choose(role: &Role, s: &SessionState, salt: u64) -> Option<Command> {
    match s.phase {
        Phase::Setup if matches!(role, Role::Gm) => return Some(Command::StartBattle),
        Phase::Running => {}
        // A session with rests waits after its battle: the GM rests and goes on.
        Phase::Ended if matches!(role, Role::Gm) && !s.seed_revealed && !s.session_over => {
            return between_battles(s);
        }
        _ => return None,
    }
    for (attacker, provoker) in &s.opportunities {
        if !controls(role, s, attacker) {
            continue;
        }
        let Some(a) = s.combatant(attacker) else {
            continue;
        };
        let able = a.status == LifeStatus::Conscious
            && !a.effects.iter().any(|e| {
                matches!(
                    e.kind,
                    EffectKind::Condition(
                        Condition::Stunned | Condition::Confused | Condition::Grabbed
                    )
                )
            });
        if let (true, Some(atk)) = (able, basic_melee(a)) {
            return Some(Command::Attack {
                actor: attacker.clone(),
                attack: atk.id.clone(),
                targets: vec![provoker.clone()],
                mode: AttackMode::Opportunity,
                knock_out: false,
                forced: Vec::new(),
                weapon: None,
                secondary_target: None,
            });
        }
    }
    let id = s.current.as_ref()?;
    if !controls(role, s, id) {
        return None;
    }
    let me = s.combatant(id)?;
    let end = Command::EndTurn { actor: id.clone() };
    if !me.actions.standard {
        return Some(end);
    }
    if me.side == Side::Heroes && me.staggered && me.rallies == 0 && me.recoveries > 0 {
        return Some(Command::Rally { actor: id.clone() });
    }
    let dying_ally = s.combatants.iter().find(|c| {
        c.side == me.side && c.status == LifeStatus::Unconscious && !c.stabilized && c.id != me.id
    });
    if let Some(ally) = dying_ally
        && me.side == Side::Heroes
        && salt.is_multiple_of(2)
    {
        return Some(Command::Stabilize {
            actor: id.clone(),
            target: ally.id.clone(),
        });
    }
    let out = |c: &CombatantState| c.status.is_out();
    // A helpless engaged enemy and every action unused: coup de grace.
    if me.actions.move_action && me.actions.quick {
        let helpless = me
            .engaged_with
            .iter()
            .filter_map(|e| s.combatant(e))
            .find(|c| c.status == LifeStatus::Unconscious);
        if let (Some(h), Some(atk)) = (
            helpless,
            me.attacks.iter().find(|a| !me.expended.contains(&a.id)),
        ) && salt.is_multiple_of(3)
        {
            return Some(Command::Attack {
                actor: id.clone(),
                attack: atk.id.clone(),
                targets: vec![h.id.clone()],
                mode: AttackMode::CoupDeGrace,
                knock_out: false,
                forced: Vec::new(),
                weapon: None,
                secondary_target: None,
            });
        }
    }
    let mut enemies: Vec<&CombatantState> = s
        .combatants
        .iter()
        .filter(|c| c.side != me.side && !out(c))
        .collect();
    if enemies.is_empty() {
        return Some(end);
    }
    // Prefer conscious enemies; among them the staggered ones, then by id.
    enemies.sort_by_key(|c| {
        (
            c.status != LifeStatus::Conscious,
            !c.staggered,
            c.id.clone(),
        )
    });
    let has = |c: Condition| {
        me.effects
            .iter()
            .any(|e| matches!(e.kind, EffectKind::Condition(x) if x == c))
    };
    let (stuck, grabbed, hampered) = (
        has(Condition::Stuck),
        has(Condition::Grabbed),
        has(Condition::Hampered),
    );
    let confused = has(Condition::Confused);
    // Unarmed attacks are a last resort.
    let armed = me.attacks.iter().any(|a| a.id != "unarmed");
    let usable = |a: &&AttackSummary| {
        (!hampered || a.basic)
            && !me.expended.contains(&a.id)
            && (!confused || a.usage == "at-will")
            && (!armed || a.id != "unarmed")
            && a.action != "interrupt"
    };
    let melee: Vec<&AttackSummary> = me
        .attacks
        .iter()
        .filter(|a| a.range != "ranged")
        .filter(usable)
        .collect();
    let ranged: Vec<&AttackSummary> = me
        .attacks
        .iter()
        .filter(|a| a.range == "ranged" && !grabbed)
        .filter(usable)
        .collect();
    let can_move = me.actions.move_action && !stuck && !grabbed;
    let engaged: Vec<&CombatantState> = enemies
        .iter()
        .copied()
        .filter(|c| me.engaged_with.contains(&c.id))
        .collect();
    let pick = |list: &[&AttackSummary]| {
        list.get((salt as usize) % list.len().max(1))
            .map(|a| (*a).clone())
    };
    if !engaged.is_empty() {
        // A caster with ranged spells disengages now and then rather than trade blows.
        if (melee.is_empty() || grabbed)
            && me.actions.move_action
            && !stuck
            && salt.is_multiple_of(3)
        {
            return Some(Command::ThirteenthAge(ThirteenthAgeCommand::Disengage {
                actor: id.clone(),
            }));
        }
        let Some(attack) = pick(&melee).or_else(|| pick(&ranged)) else {
            return Some(end);
        };
        let targets = pick_targets(&attack, &engaged, &enemies, salt);
        // Now and then a hero means to keep a staggered monster alive: a knock-out blow with a
        // melee attack (13th Age § Unconscious), when the GM allows them.
        let knock_out = me.side == Side::Heroes
            && s.knock_outs_allowed
            && attack.range == "melee"
            && salt % 4 == 1
            && targets
                .first()
                .and_then(|t| s.combatant(t))
                .is_some_and(|c| c.staggered);
        return Some(Command::Attack {
            actor: id.clone(),
            attack: attack.id,
            targets,
            mode: AttackMode::Standard,
            knock_out,
            forced: Vec::new(),
            weapon: None,
            secondary_target: None,
        });
    }
    let nearby: Vec<&CombatantState> = enemies.iter().copied().filter(|c| !c.far_away).collect();
    if !ranged.is_empty() && (melee.is_empty() || salt % 2 == 1 || !can_move) {
        let Some(attack) = pick(&ranged) else {
            return Some(end);
        };
        let targets = pick_targets(&attack, &enemies, &enemies, salt);
        return Some(Command::Attack {
            actor: id.clone(),
            attack: attack.id,
            targets,
            mode: AttackMode::Standard,
            knock_out: false,
            forced: Vec::new(),
            weapon: None,
            secondary_target: None,
        });
    }
    if can_move
        && !me.far_away
        && let Some(t) = nearby.get((salt as usize) % nearby.len().clamp(1, 2))
    {
        return Some(Command::Move {
            actor: id.clone(),
            engage: Some(t.id.clone()),
            far_away: false,
        });
    }
    if me.far_away && can_move {
        return Some(Command::Move {
            actor: id.clone(),
            engage: None,
            far_away: false,
        });
    }
    Some(end)
}

fn pick_targets(
    attack: &AttackSummary,
    first: &[&CombatantState],
    all: &[&CombatantState],
    salt: u64,
) -> Vec<CombatantId> {
    let n = (attack.max_targets as usize).max(1);
    let pool: &[&CombatantState] = if attack.range == "melee" { first } else { all };
    let start = (salt as usize) % pool.len().clamp(1, 2);
    let mut out: Vec<CombatantId> = pool
        .iter()
        .cycle()
        .skip(start)
        .take(n.min(pool.len()))
        .map(|c| c.id.clone())
        .collect();
    out.dedup();
    out
}
