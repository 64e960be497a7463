//! The numbers of 13th Age combat as pure functions, each citing the section of
//! `13th-age-combat.txt` it implements.

pub use crate::rules::common::decider::{is_dead_at, level_multiplier};

use crate::ecs::components::{Effects, Resistances};
use crate::rules::common::field::has_condition;
use fray_protocol::event::Condition;
use fray_protocol::state::LifeStatus;

/// § Escalation Die: 0 in round 1, 1 at the start of round 2, +1 a round, at most 6.
pub fn escalation_for_round(round: u32) -> u8 {
    round.saturating_sub(1).min(6) as u8
}

/// The net modifier of a stat among an effect list: the best bonus plus the worst penalty
/// (bonuses don't stack with each other, nor penalties; § Stacking Rules).
pub fn best_bonus(fx: &Effects, stat: fray_protocol::event::BonusStat) -> i32 {
    let amounts = fx.0.iter().filter_map(|e| match e.kind {
        fray_protocol::event::EffectKind::Bonus { stat: s, amount } if s == stat => Some(amount),
        _ => None,
    });
    let (mut best, mut worst) = (0, 0);
    for a in amounts {
        best = best.max(a);
        worst = worst.min(a);
    }
    best + worst
}

/// [`attack_penalty`]'s condition by name (the first of dazed, weakened, fear the attacker
/// has), with its −4; `None` without one.
pub fn attack_penalty_term(fx: &Effects) -> Option<(&'static str, i32)> {
    [
        (Condition::Dazed, "dazed"),
        (Condition::Weakened, "weakened"),
        (Condition::Fear, "fear"),
    ]
    .into_iter()
    .find(|(c, _)| has_condition(fx, *c))
    .map(|(_, name)| (name, attack_penalty(fx)))
}

/// § Escalation Die: the value at the start of `round`: it advances by 1 from round 2 on, to
/// at most 6, unless the GM holds it (the heroes avoid the fight).
pub fn escalation_next(current: u8, round: u32, held: bool) -> u8 {
    if round < 2 || held {
        current
    } else {
        (current + 1).min(6)
    }
}

/// § Conditions: dazed and weakened are −4 to attacks, and fear dazes; penalties from
/// conditions don't stack (the worst applies).
pub fn attack_penalty(fx: &Effects) -> i32 {
    if has_condition(fx, Condition::Dazed)
        || has_condition(fx, Condition::Weakened)
        || has_condition(fx, Condition::Fear)
    {
        -4
    } else {
        0
    }
}

/// § Conditions: weakened and stunned are −4 to defenses, and so is helpless (an unconscious
/// creature is helpless); the worst applies.
pub fn defense_penalty(fx: &Effects, status: LifeStatus) -> i32 {
    if has_condition(fx, Condition::Weakened)
        || has_condition(fx, Condition::Stunned)
        || has_condition(fx, Condition::Helpless)
        || status == LifeStatus::Unconscious
    {
        -4
    } else {
        0
    }
}

/// § Crit Range / § Vulnerable: the natural roll needed to crit. The standard range is a
/// natural 20; "each point of improvement drops the number needed to score a critical hit by
/// 1". A power's own expansion (`expand_crit`) and the target's vulnerability (+2: the
/// condition, or vulnerability to the attack's damage type — one vulnerability, they don't
/// stack with each other) are different game elements, so they add up (§ Stacking Rules).
/// Never below 2: a natural 1 is always a fumble.
pub fn crit_threshold(
    target_fx: &Effects,
    target_res: &Resistances,
    damage_type: Option<fray_protocol::event::DamageType>,
    expand_crit: u8,
) -> u32 {
    let typed = damage_type.is_some_and(|t| target_res.vulnerable.contains(&t));
    let vulnerable = if has_condition(target_fx, Condition::Vulnerable) || typed {
        2
    } else {
        0
    };
    20u32
        .saturating_sub(vulnerable + u32::from(expand_crit))
        .max(2)
}

/// § Resistance: the damage dealt by a typed attack with a natural roll against a resistance:
/// full at or above the resistance number, half (rounded down) below it; `None` = immune
/// (non-magical energy against energy resistance).
pub fn resisted(amount: i32, natural: u32, resistance: u32, magical: bool) -> Option<i32> {
    if !magical {
        None
    } else if natural >= resistance {
        Some(amount)
    } else {
        Some(amount / 2)
    }
}

/// § Crits / § Crit Effects: a crit deals double damage; each further doubling of crit damage
/// adds one more multiple ("If you manage to double your crit damage, triple it instead. If you
/// manage to double your triple damage, bump it up to quadruple, and so on").
pub fn crit_multiplier(extra_doublings: u8) -> i32 {
    2 + i32::from(extra_doublings)
}

/// § Death saves: 16+ on the d20.
pub const DEATH_SAVE_TARGET: u32 = 16;
/// § Death saves: the fourth failed death save in a battle kills.
pub const DEATH_SAVE_FAILURES_TO_DIE: u8 = 4;
/// § Rally: a later rally in the same battle needs a normal save (11+).
pub const RALLY_SAVE_TARGET: u32 = 11;

/// The outcome of an attack roll: § Crits, § Fumbles, § Crit Range. A natural 1 is a fumble;
/// a natural 20 always crits; a natural roll in an expanded crit range crits when it hits.
pub fn attack_outcome(
    natural: u32,
    total: i32,
    defense: i32,
    crit_from: u32,
) -> fray_protocol::event::AttackOutcome {
    use fray_protocol::event::AttackOutcome::*;
    if natural == 1 {
        Fumble
    } else if natural >= 20 || (natural >= crit_from && total >= defense) {
        Crit
    } else if total >= defense {
        Hit
    } else {
        Miss
    }
}

/// The conditions the GM may set with `add_condition` (§ Conditions); `grabbed` is left out,
/// as a grab is an engagement the rules make (`engaged`).
pub const GM_CONDITIONS: &[Condition] = &[
    Condition::Dazed,
    Condition::Weakened,
    Condition::Stunned,
    Condition::Vulnerable,
    Condition::Confused,
    Condition::Fear,
    Condition::Hampered,
    Condition::Helpless,
    Condition::Stuck,
    Condition::Invisible,
];
