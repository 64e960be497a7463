//! Narration: one readable English line per `GameEvent`, e.g.
//! "Brakka attacks Goblin Scrapper 2 with Longsword: d20=17 +5 = 22 vs AC 16 — HIT".
//!
//! Names come from a [`Roster`] (ids → display names, attack names, effects seen so far),
//! built from the last `SessionState` and fed every event. Dice are shown face by face, dropped
//! dice in parentheses. Hidden values (a monster's hit points for players and spectators) are
//! `None` in the events and simply not mentioned.

use fray_protocol::event::{
    ActionKind, AttackOutcome, Condition, DamageCause, DamageType, Defense, DiscoveryReason,
    Effect, EffectDuration, EffectEndReason, EffectKind, SaveDifficulty, SavePurpose,
};
use fray_protocol::ftd::{
    Ability, Advantage, Departure, Injury, LightLevel, LightSource, MoraleTrigger, Threat,
};
use fray_protocol::roll::{Modifier, Roll};
use fray_protocol::{BxEvent, FiveTorchesEvent, OrcusEvent, ThirteenthAgeEvent};
use fray_protocol::{CombatantId, GameEvent, SessionState, Side};
use std::collections::BTreeMap;

/// What narration needs to name things.
#[derive(Debug, Clone, Default)]
pub struct Roster {
    names: BTreeMap<CombatantId, String>,
    attacks: BTreeMap<(CombatantId, String), String>,
    max_hp: BTreeMap<CombatantId, i32>,
    effects: BTreeMap<u32, Effect>,
}

impl Roster {
    /// A roster from a state.
    pub fn from_state(state: &SessionState) -> Roster {
        let mut r = Roster::default();
        r.refresh(state);
        r
    }

    /// Takes names, attacks, known maximum hit points and current effects from a state
    /// (effects seen earlier are kept: later events may still refer to them).
    pub fn refresh(&mut self, state: &SessionState) {
        for c in &state.combatants {
            self.names.insert(c.id.clone(), c.name.clone());
            for a in c.attacks.iter() {
                self.attacks
                    .insert((c.id.clone(), a.id.clone()), a.name.clone());
            }
            match c.max_hp {
                Some(max) => self.max_hp.insert(c.id.clone(), max),
                None => self.max_hp.remove(&c.id),
            };
            for e in &c.effects {
                self.effects.insert(e.id, e.clone());
            }
        }
    }

    /// Remembers what an event introduces (effects), so later events can describe them.
    pub fn observe(&mut self, event: &GameEvent) {
        if let GameEvent::EffectApplied { effect } = event {
            self.effects.insert(effect.id, effect.clone());
        }
    }

    /// A combatant's display name (its id when unknown).
    pub fn name<'a>(&'a self, id: &'a CombatantId) -> &'a str {
        self.names.get(id).map_or(id.as_str(), String::as_str)
    }

    /// An attack's display name (its id when unknown).
    pub fn attack<'a>(&'a self, who: &CombatantId, attack: &'a str) -> &'a str {
        self.attacks
            .get(&(who.clone(), attack.to_owned()))
            .map_or(attack, String::as_str)
    }

    /// An effect seen so far.
    pub fn effect(&self, id: u32) -> Option<&Effect> {
        self.effects.get(&id)
    }

    fn names_of(&self, ids: &[CombatantId]) -> String {
        let names: Vec<&str> = ids.iter().map(|id| self.name(id)).collect();
        names.join(", ")
    }

    fn hp_text(&self, who: &CombatantId, hp: i32) -> String {
        match self.max_hp.get(who) {
            Some(max) => format!("{hp}/{max} hp"),
            None => format!("{hp} hp"),
        }
    }
}

fn ability_text(a: Ability) -> &'static str {
    a.abbrev()
}

/// `darkness`, `dim light`, `well lit`, `brilliant light`.
pub fn light_text(l: LightLevel) -> &'static str {
    match l {
        LightLevel::Darkness => "darkness",
        LightLevel::Dim => "dim light",
        LightLevel::WellLit => "well lit",
        LightLevel::Brilliant => "brilliant light",
    }
}

fn source_text(s: LightSource) -> &'static str {
    match s {
        LightSource::Torch => "torch",
        LightSource::Lantern => "lantern",
    }
}

/// One line describing `event`.
pub fn narrate(event: &GameEvent, roster: &Roster) -> String {
    let n = |id: &CombatantId| roster.name(id).to_owned();
    match event {
        GameEvent::EffectApplied { .. }
        | GameEvent::EffectArmed { .. }
        | GameEvent::EffectEnded { .. } => narrate_effect(event, roster),
        GameEvent::InitiativeRolled { .. }
        | GameEvent::AttackRolled { .. }
        | GameEvent::DamageRolled { .. }
        | GameEvent::CheckRolled { .. }
        | GameEvent::SecretRolled { .. }
        | GameEvent::SaveRolled { .. }
        | GameEvent::DeathSaveFailed { .. } => narrate_roll(event, roster),
        GameEvent::Rewound { .. }
        | GameEvent::Chatted { .. }
        | GameEvent::FreeRolled { .. }
        | GameEvent::AutoPlaySet { .. }
        | GameEvent::CombatantAssigned { .. }
        | GameEvent::TokenReissued { .. }
        | GameEvent::HpOverridden { .. }
        | GameEvent::GmOverride { .. }
        | GameEvent::CombatantRemoved { .. }
        | GameEvent::CombatantAdded { .. }
        | GameEvent::InitiativeSet { .. } => crate::talk::narrate(event).unwrap_or_default(),
        GameEvent::BattleStarted => "The battle begins!".to_owned(),
        GameEvent::TurnOrder { order } => format!("Order of battle: {}", roster.names_of(order)),
        GameEvent::RoundStarted { round } => format!("=== Round {round} ==="),
        GameEvent::TurnStarted { combatant, round } => {
            format!("--- {}'s turn (round {round}) ---", n(combatant))
        }
        GameEvent::ActionUsed {
            combatant,
            action,
            spent,
        } => {
            if action == spent {
                format!("{} uses a {} action", n(combatant), action_name(*action))
            } else {
                format!(
                    "{} uses the {} action as a {} action",
                    n(combatant),
                    action_name(*spent),
                    action_name(*action)
                )
            }
        }
        GameEvent::Damaged {
            target,
            cause,
            amount,
            damage_type,
            temp_absorbed,
            hp_after,
        } => {
            let kind = damage_kind(*damage_type);
            let mut line = match cause {
                DamageCause::Attack { attacker, attack } => format!(
                    "{} takes {amount} {kind}damage from {}'s {}",
                    n(target),
                    n(attacker),
                    roster.attack(attacker, attack)
                ),
                DamageCause::Ongoing { effect } => {
                    format!(
                        "{} takes {amount} ongoing {kind}damage [effect #{effect}]",
                        n(target)
                    )
                }
                DamageCause::Hazard { purpose, doubled } => format!(
                    "{} takes {amount} {kind}damage from the failed {purpose}{}",
                    n(target),
                    if *doubled {
                        " (doubled: natural 1)"
                    } else {
                        ""
                    }
                ),
            };
            if *temp_absorbed > 0 {
                line.push_str(&format!(
                    " ({temp_absorbed} absorbed by temporary hit points)"
                ));
            }
            if let Some(hp) = hp_after {
                line.push_str(&format!(" — {} left", roster.hp_text(target, *hp)));
            }
            line
        }
        GameEvent::Healed {
            target,
            roll,
            amount,
            recovery_used,
            hp_after,
        } => {
            let mut line = format!("{} regains {amount} hit points", n(target));
            match (roll, recovery_used) {
                (Some(roll), true) => {
                    line.push_str(&format!(" (recovery: {})", roll_text(roll)));
                }
                (Some(roll), false) => line.push_str(&format!(" ({})", roll_text(roll))),
                (None, true) => line.push_str(" (recovery spent)"),
                (None, false) => {}
            }
            if let Some(hp) = hp_after {
                line.push_str(&format!(" — now {}", roster.hp_text(target, *hp)));
            }
            line
        }
        GameEvent::Staggered { combatant } => {
            format!("{} is staggered!", n(combatant))
        }
        GameEvent::FellUnconscious { combatant } => {
            format!("{} falls unconscious!", n(combatant))
        }
        GameEvent::Revived { combatant, can_act } => {
            if *can_act {
                format!(
                    "{} regains consciousness and may act this turn",
                    n(combatant)
                )
            } else {
                format!("{} regains consciousness", n(combatant))
            }
        }
        GameEvent::Moved {
            combatant,
            engaged,
            far_away,
        } => match (engaged, far_away) {
            (Some(t), _) => format!("{} moves to engage {}", n(combatant), n(t)),
            (None, true) => format!("{} moves far away", n(combatant)),
            (None, false) => format!("{} moves", n(combatant)),
        },
        GameEvent::InitiativeReordered { order, .. } => format!(
            "The GM sets the order: {}",
            order.iter().map(&n).collect::<Vec<_>>().join(", ")
        ),
        GameEvent::Delayed { combatant } => format!("{} delays", n(combatant)),
        GameEvent::ReadiedActionTaken { combatant } => {
            format!("{} takes its readied action now", n(combatant))
        }
        GameEvent::SurpriseRound { acting, .. } => format!(
            "Ambush! Only {} act in the surprise round",
            acting.iter().map(n).collect::<Vec<_>>().join(" and ")
        ),
        GameEvent::InterruptUsed { combatant } => {
            format!("{} interrupts with an out-of-turn action", n(combatant))
        }
        GameEvent::FellIntoComa { combatant } => format!(
            "{} falls into a coma (meaningful death): out of the fight, but alive",
            n(combatant)
        ),
        GameEvent::QuickRested { combatant } => format!("{} takes a quick rest", n(combatant)),
        GameEvent::FullHealUp => {
            "Full heal-up: the heroes' hit points, recoveries and powers are restored.".to_owned()
        }
        GameEvent::SessionEnded => "The GM ends the session.".to_owned(),
        GameEvent::NewBattle {
            battle,
            title,
            monsters,
        } => format!(
            "=== Battle {battle}: {title} === The heroes face {}",
            roster.names_of(monsters)
        ),
        GameEvent::TempHpGained {
            target,
            amount,
            temp_after,
        } => format!(
            "{} gains {amount} temporary hit points (now {temp_after})",
            n(target)
        ),
        GameEvent::PowerExpended { combatant, power } => {
            format!("{} expends {power}", n(combatant))
        }
        GameEvent::PowerRegained {
            combatant,
            power,
            roll,
        } => match roll {
            Some(r) => format!(
                "{} regains {power} (recharge roll {})",
                n(combatant),
                r.total
            ),
            None => format!("{} regains {power}", n(combatant)),
        },
        GameEvent::OpportunityTaken { attacker, target } => {
            format!(
                "{} takes an opportunity attack against {}",
                n(attacker),
                n(target)
            )
        }
        GameEvent::CoupDeGrace {
            attacker,
            target,
            attack,
        } => format!(
            "{} delivers a coup de grace to {} with {}: an automatic critical hit",
            n(attacker),
            n(target),
            attack
        ),
        GameEvent::Stabilized { combatant, by } => {
            format!(
                "{} stabilizes {}: failed death saves no longer count",
                n(by),
                n(combatant)
            )
        }
        GameEvent::Died { combatant } => format!("{} dies.", n(combatant)),
        GameEvent::MoraleProposed {
            trigger,
            combatants,
        } => format!(
            "Morale check proposed ({}): {}",
            match trigger {
                MoraleTrigger::BattleStart => "the battle begins",
                MoraleTrigger::FirstKill => "first kill",
                MoraleTrigger::LeaderKilled => "the leader is killed",
                MoraleTrigger::PcRetreated => "the PC they follow retreats: at disadvantage",
                MoraleTrigger::HalfIncapacitated => "half the side is down",
            },
            roster.names_of(combatants)
        ),
        GameEvent::LeftBattle { combatant, how } => format!(
            "{} {}",
            n(combatant),
            match how {
                Departure::Fled => "flees the battle",
                Departure::Surrendered => "surrenders",
                Departure::Escaped => "escapes the battle",
            }
        ),
        GameEvent::Slain { combatant } => format!("{} is slain!", n(combatant)),
        GameEvent::KnockedOut { combatant } => format!(
            "{} is knocked out — alive, unconscious and out of the fight.",
            n(combatant)
        ),
        GameEvent::Rallied { combatant } => format!("{} rallies", n(combatant)),
        GameEvent::TurnEnded { combatant } => format!("{} ends the turn", n(combatant)),
        GameEvent::BattleEnded { winner } => match winner {
            Some(Side::Heroes) => "The battle is over: the heroes win!".to_owned(),
            Some(Side::Monsters) => "The battle is over: the monsters win!".to_owned(),
            None => "The battle is over (ended by the GM).".to_owned(),
        },
        GameEvent::SeedRevealed { seed, salt } => format!(
            "Seed revealed: {seed} (salt {salt}) — anyone can now check every roll with `fray verify`"
        ),
        GameEvent::ThirteenthAge(e) => narrate_13th_age(e, roster),
        GameEvent::Orcus(e) => narrate_orcus(e, roster),
        GameEvent::FiveTorches(e) => narrate_ftd(e, roster),
        GameEvent::Bx(e) => narrate_bx(e, roster),
    }
}

/// One line for an effect applied, armed or ended ([`narrate`]).
fn narrate_effect(event: &GameEvent, roster: &Roster) -> String {
    let n = |id: &CombatantId| roster.name(id).to_owned();
    match event {
        GameEvent::EffectApplied { effect } => {
            let what = match &effect.kind {
                EffectKind::Condition(c) => {
                    format!("{} is {}", n(&effect.target), condition_name(*c))
                }
                kind @ EffectKind::OngoingDamage { .. } => {
                    format!("{} suffers {}", n(&effect.target), effect_kind_text(kind))
                }
                kind @ EffectKind::Bonus { .. } => {
                    format!("{} gains {}", n(&effect.target), effect_kind_text(kind))
                }
            };
            format!(
                "{what} ({}, from {}) [effect #{}]",
                duration_text(&effect.duration, roster.name(&effect.source)),
                n(&effect.source),
                effect.id
            )
        }
        GameEvent::EffectArmed { target, effect } => match roster.effect(*effect) {
            Some(e) => format!(
                "{}'s next turn has begun: {} on {} ends when it ends [effect #{effect}]",
                n(&e.source),
                effect_kind_text(&e.kind),
                n(target)
            ),
            None => format!(
                "Effect #{effect} on {} will end at the end of its source's turn",
                n(target)
            ),
        },
        GameEvent::EffectEnded {
            target,
            effect,
            reason,
        } => {
            let what = roster
                .effect(*effect)
                .map_or_else(|| "an effect".to_owned(), |e| effect_kind_text(&e.kind));
            let why = match reason {
                EffectEndReason::Saved => "saved",
                EffectEndReason::Expired => "expired",
                EffectEndReason::Cleared => "cleared",
                EffectEndReason::Replaced => "replaced after a first failed save",
                EffectEndReason::Released => "released",
            };
            format!("{} is free of {what} ({why}) [effect #{effect}]", n(target))
        }
        _ => String::new(),
    }
}

/// One line for a roll of the rules' common events: initiative, attacks, damage, checks, saves
/// (secret rolls as their audience sees them) ([`narrate`]).
fn narrate_roll(event: &GameEvent, roster: &Roster) -> String {
    let n = |id: &CombatantId| roster.name(id).to_owned();
    match event {
        GameEvent::InitiativeRolled {
            combatants,
            roll,
            bonus,
            total,
            modifiers,
        } => format!(
            "Initiative for {}: {}{} = {total}",
            roster.names_of(combatants),
            d20_text(roll),
            terms_text(modifiers, *bonus)
        ),
        GameEvent::AttackRolled {
            attacker,
            target,
            attack,
            roll,
            bonus,
            total,
            defense,
            defense_value,
            outcome,
            modifiers,
        } => format!(
            "{} attacks {} with {}: {}{} = {total} vs {} {defense_value} — {}",
            n(attacker),
            n(target),
            roster.attack(attacker, attack),
            d20_text(roll),
            terms_text(modifiers, *bonus),
            defense_name(*defense),
            outcome_text(*outcome)
        ),
        GameEvent::DamageRolled {
            attacker,
            attack,
            roll,
            modifiers,
        } => format!(
            "{} rolls damage for {}: {}",
            n(attacker),
            roster.attack(attacker, attack),
            roll_text_with(roll, modifiers)
        ),
        GameEvent::CheckRolled {
            combatant,
            purpose,
            roll,
            bonus,
            total,
            dc,
            success,
            modifiers,
        } => format!(
            "{} checks {purpose}: d20={}{} = {total} vs DC {dc} — {}",
            n(combatant),
            roll.natural().unwrap_or(0),
            terms_text(modifiers, *bonus),
            if *success { "success" } else { "failure" }
        ),
        GameEvent::SecretRolled {
            check,
            combatant,
            chance,
            roll,
            success,
            area,
            distance,
            turns,
        } => {
            let what = match check {
                fray_protocol::ose::SecretCheck::SecretDoor => "search for secret doors",
                fray_protocol::ose::SecretCheck::RoomTrap => "search for traps",
                fray_protocol::ose::SecretCheck::Listen => "listen at the door",
                fray_protocol::ose::SecretCheck::WanderingMonster => "wandering-monster check",
                fray_protocol::ose::SecretCheck::StuckDoor => "try at a stuck door",
                fray_protocol::ose::SecretCheck::LockedDoor => "try at a locked door",
                fray_protocol::ose::SecretCheck::Bars => "try at bending bars",
                fray_protocol::ose::SecretCheck::LostDirection => "check for becoming lost",
                fray_protocol::ose::SecretCheck::TrapTrigger => "check whether a trap springs",
            };
            let die = check.die();
            let mut who = combatant
                .as_ref()
                .map(|c| format!(" ({})", n(c)))
                .unwrap_or_default();
            if let Some(a) = area {
                who.push_str(&format!(" in {a}"));
            }
            match turns {
                0 => {}
                1 => who.push_str(" (1 turn)"),
                t => who.push_str(&format!(" ({t} turns)")),
            }
            match (roll, success) {
                (Some(r), Some(ok)) => format!(
                    "The GM rolls a secret {what}{who}: d{die}={} vs {chance}-in-{die} — {}{}",
                    r.natural().unwrap_or(0),
                    if *ok { "yes" } else { "no" },
                    distance
                        .as_ref()
                        .map(|d| format!(", {}′ away", d.total * 10))
                        .unwrap_or_default()
                ),
                _ => format!("The GM rolls a secret {what}{who}."),
            }
        }
        GameEvent::SaveRolled {
            combatant,
            purpose,
            roll,
            target,
            success,
            modifiers,
        } => {
            let what = match purpose {
                SavePurpose::Death => format!("{} makes a death save", n(combatant)),
                SavePurpose::Effect(id) => format!(
                    "{} saves against {} [effect #{id}]",
                    n(combatant),
                    roster
                        .effect(*id)
                        .map_or_else(|| "an effect".to_owned(), |e| effect_kind_text(&e.kind))
                ),
                SavePurpose::Rally => format!("{} tries to rally again", n(combatant)),
                SavePurpose::Disengage => format!("{} tries to disengage", n(combatant)),
                SavePurpose::Dismount => format!("{} tries to stay in the saddle", n(combatant)),
            };
            let result = if *success { "success" } else { "failure" };
            format!(
                "{what}: {} (needs {target}+) — {result}",
                d20_total_text(roll, modifiers)
            )
        }
        GameEvent::DeathSaveFailed {
            combatant,
            failures,
        } => format!(
            "{} has failed {failures} death save{}",
            n(combatant),
            if *failures == 1 { "" } else { "s" }
        ),
        _ => String::new(),
    }
}

/// One line for a 13th Age event ([`narrate`]).
fn narrate_13th_age(event: &ThirteenthAgeEvent, roster: &Roster) -> String {
    let n = |id: &CombatantId| roster.name(id).to_owned();
    match event {
        ThirteenthAgeEvent::EscalationDie { value } => {
            format!("The escalation die shows {value}")
        }
        ThirteenthAgeEvent::AlliesCounted {
            attacker,
            allies,
            bonus,
        } => {
            if allies.is_empty() {
                format!("{} counts no ally nearby: +0 damage", n(attacker))
            } else {
                format!(
                    "{} counts {} nearby ({}): {} damage",
                    n(attacker),
                    if allies.len() == 1 {
                        "an ally".to_owned()
                    } else {
                        format!("{} allies", allies.len())
                    },
                    roster.names_of(allies),
                    signed(*bonus)
                )
            }
        }
        ThirteenthAgeEvent::Disengaged { combatant } => {
            format!("{} disengages", n(combatant))
        }
        ThirteenthAgeEvent::LetGo { grabber, grabbed } => {
            format!("{} lets go of {}", n(grabber), n(grabbed))
        }
        ThirteenthAgeEvent::Carried { grabber, grabbed } => format!(
            "{} carries {} along, still grabbed (no opportunity attacks)",
            n(grabber),
            n(grabbed)
        ),
        ThirteenthAgeEvent::Teleported {
            combatant,
            engaged,
            far_away,
        } => match (engaged, far_away) {
            (Some(t), _) => format!(
                "{} teleports next to {} (no opportunity attacks)",
                n(combatant),
                n(t)
            ),
            (None, true) => format!("{} teleports far away", n(combatant)),
            (None, false) => format!(
                "{} teleports away from the melee (no opportunity attacks)",
                n(combatant)
            ),
        },
        ThirteenthAgeEvent::EscalationHeld { held } => {
            if *held {
                "The GM holds the escalation die: it will not advance.".to_owned()
            } else {
                "The escalation die advances again each round.".to_owned()
            }
        }
        ThirteenthAgeEvent::TargetsRolled {
            attacker,
            roll,
            count,
        } => format!(
            "{} rolls {} for the number of targets: {count}",
            n(attacker),
            roll.expr
        ),
        ThirteenthAgeEvent::Readied { combatant, action } => {
            format!(
                "{} readies a {} action",
                n(combatant),
                format!("{action:?}").to_lowercase()
            )
        }
        ThirteenthAgeEvent::DelayEnding { combatant } => {
            format!("{} will take its delayed turn after this one", n(combatant))
        }
        ThirteenthAgeEvent::OrderChanged { order, .. } => format!(
            "New order of battle: {}",
            order.iter().map(n).collect::<Vec<_>>().join(", ")
        ),
        ThirteenthAgeEvent::FoughtInSpirit { combatant, ally } => {
            format!("{} fights in spirit beside {}", n(combatant), n(ally))
        }
        ThirteenthAgeEvent::LastingWound {
            combatant,
            max_hp_after,
        } => format!(
            "{} takes a lasting wound: maximum hit points drop to {max_hp_after}",
            n(combatant)
        ),
        ThirteenthAgeEvent::ConfusedAttack { attacker, ally, .. } => {
            format!(
                "{} is confused and attacks its ally {} instead",
                n(attacker),
                n(ally)
            )
        }
        ThirteenthAgeEvent::PotionUsed { by, target } => {
            if by == target {
                format!("{} drinks a healing potion", n(by))
            } else {
                format!("{} feeds {} a healing potion", n(by), n(target))
            }
        }
        ThirteenthAgeEvent::PartyFled => {
            "The party flees, carrying its fallen: a campaign loss.".to_owned()
        }
        ThirteenthAgeEvent::MissChance {
            attacker,
            target,
            roll,
            missed,
        } => format!(
            "{} swings at invisible {}: d20={} — {}",
            n(attacker),
            n(target),
            roll.total,
            if *missed {
                "misses completely"
            } else {
                "finds the mark; roll to hit"
            }
        ),
        ThirteenthAgeEvent::ShotIntoMelee {
            attacker,
            target,
            ally,
        } => format!(
            "{} fumbles a shot at {} into the melee: the attack is rerolled against {}",
            n(attacker),
            n(target),
            n(ally)
        ),
        ThirteenthAgeEvent::Resisted {
            target,
            damage_type,
            natural,
            resistance,
            immune,
        } => {
            let t = format!("{damage_type:?}").to_lowercase();
            if *immune {
                format!("{} is immune to non-magical {t}", n(target))
            } else {
                format!(
                    "{} resists {t} {resistance}+: natural {natural} deals half damage",
                    n(target)
                )
            }
        }
        ThirteenthAgeEvent::Engaged { combatant, with } => {
            format!("{} is now engaged with {}", n(combatant), n(with))
        }
        ThirteenthAgeEvent::Intercepted { interceptor, mover } => {
            format!("{} intercepts {} and engages it", n(interceptor), n(mover))
        }
        ThirteenthAgeEvent::OpportunityOpened {
            provoker,
            attackers,
            reason,
        } => {
            let why = match reason {
                fray_protocol::event::Provocation::MovingAway => "moving away",
                fray_protocol::event::Provocation::RangedAttack => "a ranged attack",
                fray_protocol::event::Provocation::Spell => "casting a spell",
            };
            format!(
                "{} provokes opportunity attacks by {why} from {}",
                n(provoker),
                attackers.iter().map(n).collect::<Vec<_>>().join(", ")
            )
        }
        ThirteenthAgeEvent::ManeuverTriggered {
            attacker,
            maneuver,
            natural,
            ..
        } => format!("{}'s natural {natural} triggers {maneuver}", n(attacker)),
        ThirteenthAgeEvent::KnockOutsRuled { allowed } => {
            if *allowed {
                "The GM allows knock-out blows: a monster dropped by one is knocked out, not slain."
                    .to_owned()
            } else {
                "The GM refuses knock-out blows: monsters at 0 hp are slain.".to_owned()
            }
        }
        ThirteenthAgeEvent::RallyFailed { combatant, round } => format!(
            "{} fails to rally and cannot rally again in round {round}",
            n(combatant)
        ),
    }
}

/// One line for an Orcus event ([`narrate`]).
fn narrate_orcus(event: &OrcusEvent, roster: &Roster) -> String {
    let n = |id: &CombatantId| roster.name(id).to_owned();
    match event {
        OrcusEvent::OrcusXpAwarded {
            total,
            share,
            shares,
            ..
        } => xp_text(*total, *share, shares, roster),
        OrcusEvent::GridMoved {
            combatant,
            path,
            cost,
            mode,
        } => {
            let verb = match mode {
                fray_protocol::grid::MoveMode::Walk => "walks",
                fray_protocol::grid::MoveMode::Run => "runs",
                fray_protocol::grid::MoveMode::Step => "steps",
                fray_protocol::grid::MoveMode::Unwilling => "is moved",
                fray_protocol::grid::MoveMode::Fly => "flies",
                fray_protocol::grid::MoveMode::Climb => "climbs",
                fray_protocol::grid::MoveMode::Swim => "swims",
                fray_protocol::grid::MoveMode::Burrow => "burrows",
                fray_protocol::grid::MoveMode::RunFly => "flies at a run",
                fray_protocol::grid::MoveMode::RunClimb => "climbs at a run",
                fray_protocol::grid::MoveMode::RunSwim => "swims at a run",
                fray_protocol::grid::MoveMode::RunBurrow => "burrows at a run",
            };
            match path.last() {
                Some(to) => format!("{} {verb} to {to} ({cost} squares)", n(combatant)),
                None => format!("{} stays put", n(combatant)),
            }
        }
        OrcusEvent::ActionPointSpent { combatant, action } => format!(
            "{} spends an action point for a {} action",
            n(combatant),
            action_name(*action)
        ),
        OrcusEvent::AmmunitionUsed { combatant, count } => format!(
            "{} uses {count} piece{} of ammunition",
            n(combatant),
            if *count == 1 { "" } else { "s" }
        ),
        OrcusEvent::Maintained { combatant, effect } => {
            format!("{} maintains effect #{effect}", n(combatant))
        }
        OrcusEvent::ZoneCreated { zone } => format!(
            "{}'s {} makes {} square{} difficult terrain (zone #{})",
            n(&zone.source),
            zone.power,
            zone.squares.len(),
            if zone.squares.len() == 1 { "" } else { "s" },
            zone.id
        ),
        OrcusEvent::ZoneArmed { source, zone } => {
            format!(
                "{}'s zone #{zone} lasts until the end of this turn",
                n(source)
            )
        }
        OrcusEvent::ZoneEnded { source, zone, .. } => {
            format!("{}'s zone #{zone} ends", n(source))
        }
        OrcusEvent::CounterReadied { combatant, power } => {
            format!("{} readies the counter {power}", n(combatant))
        }
        OrcusEvent::HideChecked {
            combatant,
            roll,
            bonus,
            penalty,
            total,
            hidden_from,
            seen_by,
            modifiers,
        } => {
            let list = |ids: &[CombatantId]| {
                if ids.is_empty() {
                    "no one".to_owned()
                } else {
                    ids.iter().map(&n).collect::<Vec<_>>().join(", ")
                }
            };
            format!(
                "{} tries to hide: Stealth d20={}{} = {total}; hidden from {}; seen by {}",
                n(combatant),
                roll.natural().unwrap_or(0),
                match (modifiers.is_empty(), *penalty) {
                    (false, _) => terms_text(modifiers, bonus + penalty),
                    (true, 0) => format!(" {bonus:+}"),
                    (true, p) => format!(" {bonus:+} {p:+}"),
                },
                list(hidden_from),
                list(seen_by)
            )
        }
        OrcusEvent::Discovered {
            combatant,
            by,
            reason,
        } => format!(
            "{} is discovered by {} ({})",
            n(combatant),
            by.iter().map(&n).collect::<Vec<_>>().join(", "),
            match reason {
                DiscoveryReason::Attacked => "it attacked",
                DiscoveryReason::Exposed => "out of cover and concealment",
                DiscoveryReason::Searched => "an active search",
                DiscoveryReason::Revealed => "the GM revealed it",
            }
        ),
        OrcusEvent::Searched {
            combatant,
            roll,
            bonus,
            total,
            found,
            modifiers,
        } => format!(
            "{} searches: Perception d20={}{} = {total}; {}",
            n(combatant),
            roll.natural().unwrap_or(0),
            terms_text(modifiers, *bonus),
            if found.is_empty() {
                "finds no one".to_owned()
            } else {
                format!(
                    "finds {}",
                    found.iter().map(&n).collect::<Vec<_>>().join(", ")
                )
            }
        ),
        OrcusEvent::MaintenanceNeeded { combatant, effect } => format!(
            "{} must maintain effect #{} ({}) with a {} action each turn",
            n(combatant),
            effect.effect,
            effect.power,
            action_name(effect.action)
        ),
        OrcusEvent::RiderAttached { target, rider } => {
            let mut parts = Vec::new();
            if let Some(a) = &rider.aftereffect {
                parts.push(format!("aftereffect: {}", effect_kind_text(&a.kind)));
            }
            if let Some(f) = &rider.first_failed_save {
                parts.push(format!("first failed save: {}", effect_kind_text(&f.kind)));
            }
            format!(
                "{}'s effect #{} carries riders ({})",
                n(target),
                rider.effect,
                parts.join("; ")
            )
        }
        OrcusEvent::StabilizationEnded { combatant } => format!(
            "{} is hurt again: no longer stabilized, death saves resume",
            n(combatant)
        ),
        OrcusEvent::Mounted {
            rider,
            mount,
            controlled,
        } => format!(
            "{} mounts {}{}",
            n(rider),
            n(mount),
            if *controlled {
                " and takes the reins"
            } else {
                " (it acts on its own)"
            }
        ),
        OrcusEvent::Dismounted {
            rider,
            mount,
            square,
        } => format!("{} gets off {} at {square}", n(rider), n(mount)),
        OrcusEvent::MountCommanded {
            rider,
            mount,
            action,
        } => {
            let what = match action {
                fray_protocol::event::ActionKind::Standard => "standard",
                fray_protocol::event::ActionKind::Move => "move",
                fray_protocol::event::ActionKind::Quick => "swift",
            };
            format!("{} gives {} a {what} action", n(rider), n(mount))
        }
        OrcusEvent::MovedAloft { combatant, height } => {
            format!("{} is now {height} squares up", n(combatant))
        }
        OrcusEvent::Fell { combatant, squares } => {
            format!("{} falls {squares} squares!", n(combatant))
        }
        OrcusEvent::LevelReached {
            combatant,
            level,
            xp,
        } => format!("{} reaches level {level} ({xp} XP)", n(combatant)),
        OrcusEvent::ClockAdvanced { minutes, clock } => format!(
            "{minutes} minutes pass (the session clock stands at {}h{:02})",
            clock / 60,
            clock % 60
        ),
        OrcusEvent::ReloadNeeded { combatant, power } => {
            format!(
                "{} must reload ({power}) before attacking with it again",
                n(combatant)
            )
        }
        OrcusEvent::Reloaded { combatant, power } => {
            format!("{} reloads ({power})", n(combatant))
        }
        OrcusEvent::AlliesChosen { combatant, allies } => {
            let names: Vec<String> = allies.iter().map(|a| n(a).to_string()).collect();
            format!(
                "{} counts as allies for its next attack: {}",
                n(combatant),
                if names.is_empty() {
                    "no one".to_string()
                } else {
                    names.join(", ")
                }
            )
        }
        OrcusEvent::AllyDeclined { combatant, user } => format!(
            "{} chooses to count as {}'s enemy for its next attack",
            n(combatant),
            n(user)
        ),
        OrcusEvent::AlliesReset { combatant } => {
            format!("{}'s allies are its side again", n(combatant))
        }
        OrcusEvent::HitChosen {
            combatant,
            attacker,
        } => format!(
            "{} chooses to be hit by {}'s next attack",
            n(combatant),
            n(attacker)
        ),
        OrcusEvent::RiderChoicesMade {
            rider,
            move_mount,
            landing,
        } => format!(
            "{} will {} its mount when moved against its will{}",
            n(rider),
            if *move_mount {
                "take along"
            } else {
                "fall off"
            },
            match landing {
                Some(s) => format!(", and land at {s} from the mount's corner"),
                None => String::new(),
            }
        ),
        OrcusEvent::HitByChoice {
            attacker,
            target,
            attack,
        } => format!(
            "{} hits {} with {attack}, no roll: it chose to be hit",
            n(attacker),
            n(target)
        ),
        OrcusEvent::ActionPointGained { combatant } => {
            format!(
                "{} gains an action point (a second encounter)",
                n(combatant)
            )
        }
    }
}

/// One line for a Five Torches Deep event ([`narrate`]).
fn narrate_ftd(event: &FiveTorchesEvent, roster: &Roster) -> String {
    let n = |id: &CombatantId| roster.name(id).to_owned();
    match event {
        FiveTorchesEvent::ReadyDeclared {
            combatant,
            action,
            trigger,
        } => format!(
            "{} readies {} action for: {trigger}",
            n(combatant),
            if *action == fray_protocol::event::ActionKind::Move {
                "a movement"
            } else {
                "an active"
            }
        ),
        FiveTorchesEvent::InitiativeScores { scores } => {
            let parts: Vec<String> = scores
                .iter()
                .map(|(id, dex)| format!("{} (DEX {dex})", n(id)))
                .collect();
            format!("Initiative by DEX score: {}", parts.join(", "))
        }
        FiveTorchesEvent::AdvantageGranted {
            combatant,
            advantage,
        } => match advantage {
            Advantage::None => format!("The GM withdraws {}'s advantage", n(combatant)),
            Advantage::Advantage => {
                format!("The GM grants {} advantage on its next roll", n(combatant))
            }
            Advantage::Disadvantage => {
                format!(
                    "The GM imposes disadvantage on {}'s next roll",
                    n(combatant)
                )
            }
        },
        FiveTorchesEvent::InjuryRolled {
            combatant,
            roll,
            injury,
            ..
        } => {
            let what = match injury {
                Injury::Dead => "a false hope — dead".to_owned(),
                Injury::AbilityLoss { ability, amount } => {
                    format!("loses {amount} {}", ability_text(*ability))
                }
                Injury::BodyPart => "loses a body part (the GM's choice)".to_owned(),
                Injury::DisadvantageUntilRest => "disadvantage on all checks until rest".to_owned(),
                Injury::Standing { healed } => format!("standing — heals {healed} hp"),
            };
            format!(
                "{}'s injury roll: d20={} — {what}",
                n(combatant),
                roll.natural().unwrap_or(0)
            )
        }
        FiveTorchesEvent::MoraleChecked {
            combatants,
            roll,
            bonus,
            total,
            dc,
            success,
            modifiers,
        } => format!(
            "Morale for {}: {}{} = {total} vs DC {dc} — {}",
            roster.names_of(combatants),
            d20_text(roll),
            terms_text(modifiers, *bonus),
            if *success { "they stand" } else { "they break" }
        ),
        FiveTorchesEvent::RetreatStarted { combatant } => {
            format!("{} tries to retreat (the GM rules)", n(combatant))
        }
        FiveTorchesEvent::RetreatFailed { combatant } => {
            format!("{}'s retreat fails: it stops moving", n(combatant))
        }
        FiveTorchesEvent::LightSet { combatant, light } => match (combatant, light) {
            (None, Some(l)) => format!("The GM sets the scene's light: {}", light_text(*l)),
            (Some(c), Some(l)) => format!("The light where {} is: {}", n(c), light_text(*l)),
            (Some(c), None) => format!("{} is in the scene's light again", n(c)),
            (None, None) => "The light is unchanged".to_owned(),
        },
        FiveTorchesEvent::LightCarried {
            combatant,
            source,
            seconds,
        } => match source {
            Some(src) => format!(
                "{} lights a {} ({} min)",
                n(combatant),
                source_text(*src),
                seconds / 60
            ),
            None => format!("{} puts out its light", n(combatant)),
        },
        FiveTorchesEvent::LightWentOut { combatant, source } => {
            format!("{}'s {} burns out!", n(combatant), source_text(*source))
        }
        FiveTorchesEvent::TimePassed { seconds } => match *seconds {
            s if s >= 3600 => format!("Time passes: {} h {} min", s / 3600, s % 3600 / 60),
            s if s >= 60 => format!("Time passes: {} min", s / 60),
            s => format!("Time passes: {s} s"),
        },
        FiveTorchesEvent::TravelTurnRolled {
            number,
            roll,
            threat,
        } => format!(
            "Travel turn {number}: {} — {}",
            d20_text(roll),
            match threat {
                Threat::Terrible => "a terrible, immediate threat",
                Threat::Soon => "something bad happens soon",
                Threat::Worsens => "a threat worsens or draws near",
                Threat::Nothing => "nothing bad, maybe even good",
            }
        ),
        FiveTorchesEvent::LoadSet {
            combatant,
            load,
            coins,
        } => format!("{} carries {load} load and {coins} coins", n(combatant)),
        FiveTorchesEvent::TreasureGained {
            combatant,
            coins,
            xp,
            source,
            roll,
        } => treasure_text(&n(combatant), *coins, *xp, source, roll.as_ref(), roster),
        FiveTorchesEvent::Traveled {
            journey,
            hours,
            miles_x100,
            speed_x100,
        } => journey_text(journey, *hours, *miles_x100, *speed_x100, roster),
        FiveTorchesEvent::ExhaustionChanged {
            combatant,
            exhausted,
        } => {
            if *exhausted {
                format!(
                    "{} is exhausted: disadvantage on all checks, 0' speed",
                    n(combatant)
                )
            } else {
                format!("{} is no longer exhausted", n(combatant))
            }
        }
        FiveTorchesEvent::Rested { safe, nights } => format!(
            "The party rests {nights} night{} ({})",
            if *nights == 1 { "" } else { "s" },
            if *safe { "safe" } else { "unsafe" }
        ),
        FiveTorchesEvent::StealthChanged { combatant, hidden } => {
            if *hidden {
                format!("{} slips into stealth", n(combatant))
            } else {
                format!("{} is no longer hidden", n(combatant))
            }
        }
        FiveTorchesEvent::StealthDcSet { dc } => match dc {
            Some(dc) => format!("Stealth DC is now {dc}"),
            None => "Stealth DC is back to 11".to_owned(),
        },
        FiveTorchesEvent::TimeDiceRolled {
            purpose,
            start_hour,
            roll,
            hours,
        } => match (purpose, start_hour) {
            (fray_protocol::ftd::TimeDicePurpose::Duration, _) => {
                format!(
                    "The GM rolls the time dice for a duration ({}): {hours} hours",
                    roll_text(roll)
                )
            }
            (_, Some(start)) => format!(
                "The GM rolls the time dice from {start:02}:00h ({}): {}",
                roll_text(roll),
                time_of_day_text(*hours)
            ),
            (_, None) => format!(
                "The GM rolls the time dice ({}): {}",
                roll_text(roll),
                time_of_day_text(*hours)
            ),
        },
        FiveTorchesEvent::TimeSet { hour } => {
            format!("The GM sets the time dice: {}", time_of_day_text(*hour))
        }
        FiveTorchesEvent::CorruptionChanged {
            combatant,
            corruption,
        } => match corruption {
            Some(c) if c.stage == 0 => format!(
                "{} is infected by {} ({} checks, DC {}; each stage 1d6 {})",
                n(combatant),
                c.name,
                ability_text(c.check),
                c.dc,
                ability_text(c.damages)
            ),
            Some(c) => format!("{}'s {}: stage {} ends", n(combatant), c.name, c.stage),
            None => format!("{} is no longer infected", n(combatant)),
        },
        FiveTorchesEvent::AbilityDamaged {
            combatant,
            ability,
            roll,
            score_after,
        } => format!(
            "{} takes {} {} damage ({}): {} {score_after}",
            n(combatant),
            roll.total,
            ability_text(*ability),
            roll_text(roll),
            ability_text(*ability)
        ),
        FiveTorchesEvent::Concentrating {
            combatant,
            effect,
            maintained,
        } => format!(
            "{} {} {effect}",
            n(combatant),
            if *maintained {
                "keeps concentrating on"
            } else {
                "concentrates on"
            }
        ),
        FiveTorchesEvent::ConcentrationEnded {
            combatant,
            effect,
            reason,
        } => format!(
            "{}'s concentration on {effect} ends ({})",
            n(combatant),
            match reason {
                fray_protocol::ftd::ConcentrationEnd::Retreat => "halted by the retreat",
                fray_protocol::ftd::ConcentrationEnd::Lapsed => "not maintained this turn",
                fray_protocol::ftd::ConcentrationEnd::Dropped => "let go",
                fray_protocol::ftd::ConcentrationEnd::Incapacitated => "incapacitated",
                fray_protocol::ftd::ConcentrationEnd::LeftBattle => "left the battle",
            }
        ),
    }
}

/// One line for an Old-School Essentials or Basic Fantasy event ([`narrate`]).
fn narrate_bx(event: &BxEvent, roster: &Roster) -> String {
    let n = |id: &CombatantId| roster.name(id).to_owned();
    match event {
        BxEvent::LevelRaised {
            combatant,
            level,
            xp,
        } => format!("{} reaches level {level} ({xp} XP)", n(combatant)),
        BxEvent::XpAwarded { .. }
        | BxEvent::ExplorationTurnPassed { .. }
        | BxEvent::LightLit { .. }
        | BxEvent::LightBurnedOut { .. }
        | BxEvent::RetainerHireRolled { .. }
        | BxEvent::LoyaltyChecked { .. }
        | BxEvent::EncumbranceSet { .. }
        | BxEvent::EffectTimed { .. }
        | BxEvent::TimedEffectEnded { .. }
        | BxEvent::DayPassed { .. }
        | BxEvent::WindRolled { .. }
        | BxEvent::LightDoused { .. }
        | BxEvent::EvasionAttempted { .. }
        | BxEvent::PursuitStarted { .. }
        | BxEvent::PursuitRoundPassed { .. }
        | BxEvent::LureDropped { .. }
        | BxEvent::Sailed { .. }
        | BxEvent::GaleDamageRolled { .. }
        | BxEvent::GaleStruck { .. }
        | BxEvent::OseWindRolled { .. }
        | BxEvent::PursuitEnded { .. } => narrate_bx_expedition(event, roster),
        BxEvent::SurpriseRolled {
            side,
            roll,
            surprised,
        } => format!(
            "Surprise for the {}: d6={} — {}",
            side_text(*side),
            roll.natural().unwrap_or(0),
            if *surprised {
                "surprised!"
            } else {
                "not surprised"
            }
        ),
        BxEvent::ReactionRolled {
            speaker,
            roll,
            modifier,
            total,
            reaction,
            modifiers,
        } => format!(
            "Reaction roll{}: {}{} = {total} — {}",
            speaker
                .as_ref()
                .map(|s| format!(" ({} speaks)", n(s)))
                .unwrap_or_default(),
            roll_text(roll),
            terms_text(modifiers, *modifier),
            match reaction {
                fray_protocol::ose::Reaction::Hostile => "hostile, attacks",
                fray_protocol::ose::Reaction::Unfriendly => "unfriendly, may attack",
                fray_protocol::ose::Reaction::Neutral => "neutral, uncertain",
                fray_protocol::ose::Reaction::Indifferent => "indifferent, uninterested",
                fray_protocol::ose::Reaction::Friendly => "friendly, helpful",
            }
        ),
        BxEvent::SideInitiative {
            rolls,
            order,
            simultaneous,
        } => {
            let rolled: Vec<String> = rolls
                .iter()
                .map(|(s, r)| format!("{} d6={}", side_text(*s), r.natural().unwrap_or(0)))
                .collect();
            let first = order.first().map_or("nobody", |s| side_text(*s));
            if *simultaneous {
                format!(
                    "Side initiative: {} — a tie, both sides act simultaneously",
                    rolled.join(", ")
                )
            } else if rolled.is_empty() {
                format!("Only the {first} act this round (surprise)")
            } else {
                format!(
                    "Side initiative: {} — the {first} act first",
                    rolled.join(", ")
                )
            }
        }
        BxEvent::Declared {
            combatant,
            declaration,
        } => match declaration {
            Some(fray_protocol::ose::Declaration::Spell { spell }) => {
                format!("{} will cast {spell} next round", n(combatant))
            }
            Some(fray_protocol::ose::Declaration::Withdraw) => {
                format!(
                    "{} will make a fighting withdrawal next round",
                    n(combatant)
                )
            }
            Some(fray_protocol::ose::Declaration::Retreat) => {
                format!("{} will retreat next round", n(combatant))
            }
            None => format!("{} withdraws its declaration", n(combatant)),
        },
        BxEvent::SpellDisrupted { combatant } => {
            format!("{}'s spell is disrupted and lost!", n(combatant))
        }
        BxEvent::SpellCast { combatant, spell } => {
            format!("{} casts {spell}", n(combatant))
        }
        BxEvent::DoorForced {
            check,
            combatant,
            chance,
            roll,
            success,
        } => {
            let what = match check {
                fray_protocol::ose::SecretCheck::Bars => "bend the bars",
                fray_protocol::ose::SecretCheck::LockedDoor => "force a locked door",
                _ => "force a stuck door",
            };
            let die = check.die();
            format!(
                "{} tries to {what}: d{die}={} vs {chance}-in-{die} — {}",
                n(combatant),
                roll.natural().unwrap_or(0),
                if *success {
                    "it gives way"
                } else {
                    "it holds (any surprise is lost)"
                }
            )
        }
        BxEvent::Subdued {
            attacker,
            target,
            amount,
            subdual,
            ..
        } => format!(
            "{} deals {amount} subdual damage to {} ({subdual} in all)",
            n(attacker),
            n(target)
        ),
        BxEvent::PhaseReached { combatant, phase } => {
            let phase = format!("{phase:?}").to_lowercase();
            format!("{} acts in the {phase} phase", n(combatant))
        }
        BxEvent::OseMoved {
            combatant,
            feet,
            kind,
            total,
            allowed,
        } => format!(
            "{} moves {feet}′ ({}; {total}′ of {allowed}′ this round)",
            n(combatant),
            match kind {
                fray_protocol::ose::OseMoveKind::Encounter => "encounter movement",
                fray_protocol::ose::OseMoveKind::Withdrawal => "fighting withdrawal",
                fray_protocol::ose::OseMoveKind::Retreat => "retreat",
            }
        ),
        BxEvent::MeleeEngaged { attacker, target } => {
            format!("{} and {} are in melee", n(attacker), n(target))
        }
        BxEvent::TurnHeld { combatant, .. } => {
            format!("{} holds: the rest of its side acts first", n(combatant))
        }
        BxEvent::RoutineAttack { combatant, attack } => {
            format!(
                "{} attacks with its {attack} (one of its attacks this round)",
                n(combatant)
            )
        }
        BxEvent::Unharmed {
            attacker,
            target,
            attack,
        } => format!(
            "{}'s {attack} hits {} but cannot harm it (invulnerable)",
            n(attacker),
            n(target)
        ),
        BxEvent::DrowningRolled {
            combatant,
            chance,
            roll,
            drowned,
        } => format!(
            "{} fights the water (drowns on {chance}% or less): d% {} — {}",
            n(combatant),
            roll.total,
            if *drowned { "drowns" } else { "keeps afloat" }
        ),
        BxEvent::EncounterDistanceRolled {
            setting,
            roll,
            distance,
            unit,
            ..
        } => format!(
            "Encounter distance ({}): {} × 10 = {distance} {unit}",
            format!("{setting:?}").to_lowercase(),
            roll.total
        ),
        BxEvent::OseConditionChanged {
            combatant,
            condition,
            on,
        } => {
            let what = format!("{condition:?}").to_lowercase();
            if *on {
                format!("{} is now {what}", n(combatant))
            } else {
                format!("{} is no longer {what}", n(combatant))
            }
        }
        BxEvent::MoraleRolled {
            roll,
            adjustment,
            results,
        } => {
            let each: Vec<String> = results
                .iter()
                .map(|(c, rating, holds)| {
                    format!(
                        "{} (morale {rating}) {}",
                        n(c),
                        if *holds { "stands" } else { "breaks" }
                    )
                })
                .collect();
            format!(
                "Morale: {} {} — {}",
                roll_text(roll),
                signed(*adjustment),
                each.join(", ")
            )
        }
    }
}

/// One line for an Old-School Essentials or Basic Fantasy event between encounters: the
/// exploration turn, light, retainers, experience, encumbrance, timed effects, days of travel,
/// the wind and the sea, evasion and pursuit ([`narrate_bx`]).
fn narrate_bx_expedition(event: &BxEvent, roster: &Roster) -> String {
    let n = |id: &CombatantId| roster.name(id).to_owned();
    match event {
        BxEvent::XpAwarded {
            total,
            share,
            shares,
            ..
        } => xp_text(*total, *share, shares, roster),
        BxEvent::ExplorationTurnPassed {
            turn,
            rested,
            since_rest,
        } => {
            let mut line = format!("Exploration turn {turn} passes (10 minutes)");
            if *rested {
                line.push_str(": the party rests");
            } else if *since_rest >= 6 {
                line.push_str(&format!(
                    " — {since_rest} turns without rest: -1 to attack and damage"
                ));
            }
            line
        }
        BxEvent::LightLit {
            carrier,
            source,
            roll,
            turns,
        } => {
            let what = match source {
                fray_protocol::ose::LightSource::Torch => "a torch",
                fray_protocol::ose::LightSource::Lantern => "a lantern",
                fray_protocol::ose::LightSource::Candle => "a candle",
            };
            match roll {
                Some(r) => format!(
                    "{} lights {what}: it burns {turns} turns ({}={})",
                    n(carrier),
                    r.expr,
                    r.natural().unwrap_or(0)
                ),
                None => format!("{} lights {what}: it burns {turns} turns", n(carrier)),
            }
        }
        BxEvent::LightBurnedOut { carrier, source } => {
            let what = match source {
                fray_protocol::ose::LightSource::Torch => "torch",
                fray_protocol::ose::LightSource::Lantern => "lantern",
                fray_protocol::ose::LightSource::Candle => "candle",
            };
            format!("{}'s {what} burns out!", n(carrier))
        }
        BxEvent::RetainerHireRolled {
            employer,
            retainer,
            roll,
            modifier,
            total,
            result,
            loyalty,
            modifiers,
        } => format!(
            "{} asks {} to serve: 2d6={}{} = {total} — {}",
            n(employer),
            n(retainer),
            roll.total,
            terms_text(modifiers, *modifier),
            match (result, loyalty) {
                (_, Some(l)) => format!("accepted (loyalty {l})"),
                (fray_protocol::bf::Hiring::TryAgain, _) => "try again with a better offer".into(),
                (fray_protocol::bf::Hiring::RefusalWithPenalty, _) =>
                    "refused (-1 on further rolls here)".into(),
                _ => "refused".into(),
            }
        ),
        BxEvent::LoyaltyChecked {
            retainer,
            roll,
            adjustment,
            loyalty,
            holds,
            loyalty_after,
            leaves,
            ..
        } => {
            let mut line = format!(
                "{} checks loyalty: 2d6={} vs {loyalty}{adjustment:+} — {}",
                n(retainer),
                roll.total,
                if *holds { "stays loyal" } else { "wavers" }
            );
            if loyalty_after > loyalty {
                line.push_str(&format!(" (natural 2: loyalty {loyalty_after})"));
            }
            if *leaves {
                line.push_str(", and leaves the employer's service");
            }
            line
        }
        BxEvent::EncumbranceSet {
            combatant,
            load,
            heavy,
            movement,
            ..
        } => format!(
            "{} carries {load} lb ({}): {movement}′ per round",
            n(combatant),
            if *heavy {
                "heavily loaded"
            } else {
                "lightly loaded"
            }
        ),
        BxEvent::EffectTimed {
            name,
            combatant,
            turns,
            ..
        } => format!(
            "{name}{} lasts {turns} turns",
            combatant
                .as_ref()
                .map(|c| format!(" on {}", n(c)))
                .unwrap_or_default()
        ),
        BxEvent::TimedEffectEnded {
            name, combatant, ..
        } => format!(
            "{name}{} ends",
            combatant
                .as_ref()
                .map(|c| format!(" on {}", n(c)))
                .unwrap_or_default()
        ),
        BxEvent::DayPassed {
            day,
            march,
            terrain,
            miles,
            fed,
            watered,
            ..
        } => {
            let mut line = format!("Day {day} passes: {march:?} march, {terrain:?}, {miles} miles")
                .to_lowercase();
            line = line.replacen('d', "D", 1);
            let hungry: Vec<String> = fed.iter().filter(|f| !f.1).map(|f| n(&f.0)).collect();
            let dry: Vec<String> = watered.iter().filter(|f| !f.1).map(|f| n(&f.0)).collect();
            if !hungry.is_empty() {
                line.push_str(&format!("; without food: {}", hungry.join(", ")));
            }
            if !dry.is_empty() {
                line.push_str(&format!("; without water: {}", dry.join(", ")));
            }
            line
        }
        BxEvent::WindRolled {
            direction,
            conditions,
            sailing,
            tacking,
            ..
        } => format!(
            "The wind: {direction:?}, {conditions:?} — sailing ×{}/{}, tacking ×{}/{}",
            sailing.0, sailing.1, tacking.0, tacking.1
        ),
        BxEvent::LightDoused { carrier, source } => {
            let what = match source {
                fray_protocol::ose::LightSource::Torch => "torch",
                fray_protocol::ose::LightSource::Lantern => "lantern",
                fray_protocol::ose::LightSource::Candle => "candle",
            };
            format!("{} puts out the {what}", n(carrier))
        }
        BxEvent::EvasionAttempted {
            setting,
            chance,
            roll,
            evaded,
        } => format!(
            "Evasion ({}): {chance}%{} — {}",
            format!("{setting:?}").to_lowercase(),
            roll.as_ref()
                .map(|r| format!(", d% {}", r.total))
                .unwrap_or_default(),
            if *evaded {
                "the fleeing side gets away"
            } else {
                "a pursuit occurs"
            }
        ),
        BxEvent::PursuitStarted {
            setting,
            fleeing_rate,
            pursuer_rate,
            runners,
            distance,
        } => format!(
            "A pursuit begins ({}): fleeing at {fleeing_rate}, pursuers at {pursuer_rate}{}{}",
            format!("{setting:?}").to_lowercase(),
            distance.map(|d| format!(", {d} apart")).unwrap_or_default(),
            if runners.is_empty() {
                String::new()
            } else {
                format!(
                    "; running: {}",
                    runners.iter().map(&n).collect::<Vec<_>>().join(", ")
                )
            }
        ),
        BxEvent::PursuitRoundPassed {
            round,
            distance,
            roll,
            caught,
            ..
        } => format!(
            "Pursuit, round {round}{}{}{}",
            distance.map(|d| format!(": {d} apart")).unwrap_or_default(),
            roll.as_ref()
                .map(|r| format!(", catch-up d% {}", r.total))
                .unwrap_or_default(),
            if *caught { " — caught!" } else { "" }
        ),
        BxEvent::LureDropped {
            lure,
            roll,
            stopped,
        } => format!(
            "The party drops {} (d6 {}): {}",
            format!("{lure:?}").to_lowercase(),
            roll.total,
            if *stopped {
                "the pursuers stop for it"
            } else {
                "the pursuers keep coming"
            }
        ),
        BxEvent::Sailed {
            under,
            multiplier: (n, den),
            hours,
            miles,
            ..
        } => match under {
            fray_protocol::bf::Propulsion::Sail => {
                format!("Under sail (wind ×{n}/{den}) for {hours} hours: {miles} miles")
            }
            fray_protocol::bf::Propulsion::Oars => {
                format!("By oar for {hours} hours: {miles} miles")
            }
            fray_protocol::bf::Propulsion::Adrift => {
                "The ship lies becalmed: no miles today".into()
            }
        },
        BxEvent::GaleDamageRolled { hours, total, .. } => format!(
            "The gale batters the ship: {total} damage over {hours} hour{}",
            if *hours == 1 { "" } else { "s" }
        ),
        BxEvent::GaleStruck { near, outcome, .. } => format!(
            "{}: the ship {}",
            if *near { "A near gale" } else { "A gale" },
            match outcome {
                fray_protocol::ose::GaleOutcome::Weathered => "weathers it",
                fray_protocol::ose::GaleOutcome::TakesOnWater =>
                    "takes on water (movement -1/3 until repaired)",
                fray_protocol::ose::GaleOutcome::Drifts => "runs before the wind at triple speed",
                fray_protocol::ose::GaleOutcome::Wrecked => "is wrecked against the shore",
                fray_protocol::ose::GaleOutcome::Sinks => "is overrun with water and sinks",
                fray_protocol::ose::GaleOutcome::Beached => "is beached and weathers the storm",
            }
        ),
        BxEvent::OseWindRolled {
            wind,
            sailing,
            oars,
            ..
        } => format!(
            "The wind: {wind:?}; sailing x{}/{}{}",
            sailing.0,
            sailing.1,
            oars.map(|(a, b)| format!(", oars x{a}/{b}"))
                .unwrap_or_default()
        ),
        BxEvent::PursuitEnded { how } => format!(
            "The pursuit ends: {}",
            match how {
                fray_protocol::pursuit::PursuitEnd::Caught => "the fleeing side is caught",
                fray_protocol::pursuit::PursuitEnd::Lured => "the pursuers stopped for the lure",
                fray_protocol::pursuit::PursuitEnd::Escaped => "the fleeing side got away",
            }
        ),
        _ => String::new(),
    }
}

/// Five Torches Deep § Treasure: `Ada loots Goblin 1: 3d20: [4, 17, 9] = 30 — 30 coins, +30 XP`.
/// Experience awarded and shared (Basic Fantasy's `xp_awarded`, Orcus's `orcus_xp_awarded`).
fn xp_text(total: u32, share: u32, shares: &[(CombatantId, u32, u32)], roster: &Roster) -> String {
    let each: Vec<String> = shares
        .iter()
        .map(|(c, got, after)| format!("{} +{got} ({after})", roster.name(c)))
        .collect();
    format!("{total} XP awarded, {share} a share: {}", each.join(", "))
}

fn treasure_text(
    who: &str,
    coins: i32,
    xp: u32,
    source: &fray_protocol::ftd::TreasureSource,
    roll: Option<&Roll>,
    roster: &Roster,
) -> String {
    use fray_protocol::ftd::TreasureSource as T;
    let what = match source {
        T::Loot { enemy } => format!(
            "{who} loots {}{}",
            roster.name(enemy),
            roll.map(|r| format!(": {}", roll_text(r)))
                .unwrap_or_default()
        ),
        T::Hoard => format!("{who} takes a hoard"),
        T::Unearned => format!("{who} receives unearned treasure (no XP)"),
        T::MagicItem { item } => format!(
            "{who} captures the magic item {} (fair value {} gp)",
            item.name, item.value
        ),
        T::Sale { name } => format!("{who} sells {name} (its gold earns no XP)"),
    };
    format!("{what} — {coins} coins, +{xp} XP")
}

/// Hundredths of a mile as miles: `12`, `2.06`.
fn miles(x100: u32) -> String {
    if x100.is_multiple_of(100) {
        (x100 / 100).to_string()
    } else {
        format!("{}.{:02}", x100 / 100, x100 % 100)
    }
}

/// Five Torches Deep § Overland Travel, § Overwater Travel.
fn journey_text(
    journey: &fray_protocol::ftd::Journey,
    hours: u32,
    miles_x100: u32,
    speed_x100: u32,
    roster: &Roster,
) -> String {
    use fray_protocol::ftd::Journey;
    match journey {
        Journey::Overland {
            terrain,
            pace,
            slowest,
        } => format!(
            "The party travels {} overland ({} terrain, {} pace, at {}'s speed): {} miles a day, {} miles",
            match hours / 24 {
                1 => "1 day".to_owned(),
                n => format!("{n} days"),
            },
            match terrain {
                fray_protocol::ftd::TravelTerrain::Open => "open",
                fray_protocol::ftd::TravelTerrain::Difficult => "difficult",
                fray_protocol::ftd::TravelTerrain::Harsh => "harsh",
            },
            match pace {
                fray_protocol::ftd::TravelPace::Normal => "normal",
                fray_protocol::ftd::TravelPace::Tactical => "tactical",
                fray_protocol::ftd::TravelPace::Stealthy => "stealthy",
            },
            roster.name(slowest),
            miles(speed_x100),
            miles(miles_x100)
        ),
        Journey::Overwater { vessel, current } => format!(
            "The party travels {hours} hours by {}{}: {} miles an hour, {} miles",
            match vessel {
                fray_protocol::ftd::Vessel::Boat => "boat",
                fray_protocol::ftd::Vessel::Ship => "ship",
            },
            match current {
                fray_protocol::ftd::Current::Neutral => "",
                fray_protocol::ftd::Current::Favorable => " with a favorable wind or current",
                fray_protocol::ftd::Current::Unfavorable => " against the wind or current",
            },
            miles(speed_x100),
            miles(miles_x100)
        ),
    }
}

/// `+5` / `-2` / `+0`.
fn signed(v: i32) -> String {
    format!("{v:+}")
}

/// The dice of a roll face by face: `17`, `3, 6`, dropped ones in parentheses: `17, (4)`.
fn faces(roll: &Roll) -> String {
    let faces: Vec<String> = roll
        .dice
        .iter()
        .map(|d| {
            if d.kept {
                d.face.to_string()
            } else {
                format!("({})", d.face)
            }
        })
        .collect();
    faces.join(", ")
}

/// A d20 check's die before the check's bonus: `d20=17`, `d20=[17, (4)]` with advantage, plus
/// the roll's own constant if it has one.
fn d20_text(roll: &Roll) -> String {
    let dice = if roll.dice.len() == 1 {
        format!("d20={}", faces(roll))
    } else {
        format!("d20=[{}]", faces(roll))
    };
    if roll.modifier == 0 {
        dice
    } else {
        format!("{dice} {}", signed(roll.modifier))
    }
}

/// A d20 roll that stands alone (saves): `d20=14`, or with its constant `d20=14 +1 = 15`,
/// named term by term when the event names them (`d20=14 +1 magic item = 15`).
fn d20_total_text(roll: &Roll, modifiers: &[Modifier]) -> String {
    if roll.modifier == 0 {
        d20_text(roll)
    } else if modifiers.is_empty() {
        format!("{} = {}", d20_text(roll), roll.total)
    } else {
        let dice = Roll {
            modifier: 0,
            ..roll.clone()
        };
        format!(
            "{}{} = {}",
            d20_text(&dice),
            terms_text(modifiers, roll.modifier),
            roll.total
        )
    }
}

/// A roll's bonus term by term, as Avrae and Foundry show it: ` +5 STR +2 level -2 cover`;
/// the bonus alone (` +7`) where the event names no terms (a log of record format 1).
fn terms_text(modifiers: &[Modifier], bonus: i32) -> String {
    if modifiers.is_empty() {
        return format!(" {}", signed(bonus));
    }
    modifiers
        .iter()
        .map(|m| format!(" {} {}", signed(m.value), m.source))
        .collect()
}

/// A whole roll: `2d8+4: [3, 6] +4 = 13`.
fn side_text(side: fray_protocol::ids::Side) -> &'static str {
    match side {
        fray_protocol::ids::Side::Heroes => "party",
        fray_protocol::ids::Side::Monsters => "monsters",
    }
}

/// `it is 07:00h, morning (time dice 6, 1)`.
pub fn time_of_day_text(hour: u32) -> String {
    let faces: Vec<String> = fray_protocol::ftd::time_dice(hour)
        .iter()
        .map(u32::to_string)
        .collect();
    format!(
        "it is {:02}:00h, {} (time dice {})",
        hour % 24,
        fray_protocol::ftd::day_quarter(hour),
        faces.join(", ")
    )
}

pub(crate) fn roll_text(roll: &Roll) -> String {
    roll_text_with(roll, &[])
}

/// [`roll_text`] with the constant named term by term: `1d8+3: [5] +3 STR = 8`.
pub(crate) fn roll_text_with(roll: &Roll, modifiers: &[Modifier]) -> String {
    let mut s = format!("{}: [{}]", roll.expr, faces(roll));
    if roll.modifier != 0 {
        s.push_str(&terms_text(modifiers, roll.modifier));
    }
    s.push_str(&format!(" = {}", roll.total));
    s
}

fn outcome_text(o: AttackOutcome) -> &'static str {
    match o {
        AttackOutcome::Hit => "HIT",
        AttackOutcome::Crit => "CRITICAL HIT",
        AttackOutcome::Miss => "MISS",
        AttackOutcome::Fumble => "FUMBLE (natural 1)",
    }
}

/// Display name of a defense.
pub fn defense_name(d: Defense) -> &'static str {
    match d {
        Defense::Ac => "AC",
        Defense::Pd => "PD",
        Defense::Md => "MD",
        Defense::Fortitude => "Fortitude",
        Defense::Reflex => "Reflex",
        Defense::Will => "Will",
    }
}

/// Display name of an action type.
pub fn action_name(a: ActionKind) -> &'static str {
    match a {
        ActionKind::Standard => "standard",
        ActionKind::Move => "move",
        ActionKind::Quick => "quick",
    }
}

/// `fire ` (with a trailing space) or nothing for untyped damage.
fn damage_kind(t: Option<DamageType>) -> String {
    t.map_or_else(String::new, |t| format!("{} ", damage_type_name(t)))
}

fn damage_type_name(t: DamageType) -> &'static str {
    match t {
        DamageType::Acid => "acid",
        DamageType::Cold => "cold",
        DamageType::Fire => "fire",
        DamageType::Force => "force",
        DamageType::Holy => "holy",
        DamageType::Lightning => "lightning",
        DamageType::Negative => "negative energy",
        DamageType::Poison => "poison",
        DamageType::Psychic => "psychic",
        DamageType::Thunder => "thunder",
        DamageType::Necrotic => "necrotic",
        DamageType::Radiant => "radiant",
    }
}

/// Adjective for a condition.
pub fn condition_name(c: Condition) -> &'static str {
    match c {
        Condition::Dazed => "dazed",
        Condition::Weakened => "weakened",
        Condition::Stunned => "stunned",
        Condition::Vulnerable => "vulnerable",
        Condition::Confused => "confused",
        Condition::Fear => "afraid",
        Condition::Hampered => "hampered",
        Condition::Helpless => "helpless",
        Condition::Stuck => "stuck",
        Condition::Grabbed => "grabbed",
        Condition::Invisible => "invisible",
        Condition::Blinded => "blinded",
        Condition::Immobilized => "immobilized",
        Condition::Marked => "marked",
        Condition::Prone => "prone",
        Condition::Restrained => "restrained",
        Condition::Slowed => "slowed",
        Condition::Surprised => "surprised",
        Condition::Unconscious => "unconscious",
        Condition::OffGuard => "off-guard",
        Condition::Grappled => "grappled",
        Condition::Feinted => "off-guard to its source (feinted)",
        Condition::Deterred(ActionKind::Standard) => "deterred from standard actions",
        Condition::Deterred(ActionKind::Move) => "deterred from move actions",
        Condition::Deterred(ActionKind::Quick) => "deterred from swift actions",
        Condition::Surrendered => "surrendered",
        Condition::Unintimidated => "unmoved by its source's intimidation",
    }
}

/// `dazed`, `ongoing 5 fire damage`.
pub fn effect_kind_text(kind: &EffectKind) -> String {
    match kind {
        EffectKind::Condition(c) => condition_name(*c).to_owned(),
        EffectKind::OngoingDamage {
            amount,
            damage_type,
        } => format!("ongoing {amount} {}damage", damage_kind(*damage_type)),
        EffectKind::Bonus { stat, amount } => {
            format!("{amount:+} to {}", format!("{stat:?}").to_lowercase())
        }
    }
}

/// `save ends, 11+`, `until the end of Brakka's next turn`, `until the end of the battle`.
pub fn duration_text(d: &EffectDuration, source_name: &str) -> String {
    match d {
        EffectDuration::SaveEnds(difficulty) => {
            let label = match difficulty {
                SaveDifficulty::Easy => "easy",
                SaveDifficulty::Normal => "normal",
                SaveDifficulty::Hard => "hard",
                SaveDifficulty::TenPlus => "save",
            };
            format!("save ends, {label} {}+", difficulty.target())
        }
        EffectDuration::UntilEndOfSourcesNextTurn => {
            format!("until the end of {source_name}'s next turn")
        }
        EffectDuration::UntilStartOfSourcesNextTurn => {
            format!("until the start of {source_name}'s next turn")
        }
        EffectDuration::EndOfBattle => "until the end of the battle".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fray_protocol::roll::DieResult;
    use fray_protocol::state::{
        ActionsLeft, AttackSummary, CombatantState, Defenses, LifeStatus, Phase,
    };

    fn die(sides: u32, face: u32, kept: bool) -> DieResult {
        DieResult { sides, face, kept }
    }

    fn d20(face: u32) -> Roll {
        Roll {
            expr: "d20".into(),
            dice: vec![die(20, face, true)],
            modifier: 0,
            total: face as i32,
        }
    }

    fn combatant(id: &str, name: &str, side: Side, max_hp: Option<i32>) -> CombatantState {
        CombatantState {
            id: CombatantId::new(id),
            name: name.into(),
            side,
            template: id.into(),
            level: 1,
            size: fray_protocol::grid::Size::Medium,
            hp: max_hp,
            max_hp,
            temp_hp: 0,
            staggered: false,
            status: LifeStatus::Conscious,
            defenses: Defenses {
                ac: 16,
                pd: 14,
                md: 12,
            },
            initiative: None,
            actions: ActionsLeft::FULL,
            effects: vec![],
            recoveries: 8,
            recovery_penalty: 0,
            death_save_failures: 0,
            rallies: 0,
            rally_barred_round: None,
            engaged_with: Vec::new(),
            far_away: false,
            stabilized: false,
            expended: Vec::new(),
            interrupt_used: false,
            potions: 0,
            dropped: false,
            lasting_wounds: 0,
            coma: false,
            rested: false,
            grid: None,
            ftd: None,
            ose: None,
            attacks: [AttackSummary {
                basic: true,
                spell: false,
                maneuvers: Vec::new(),
                usage: "at-will".into(),
                action: "standard".into(),
                category: "attack".into(),
                tags: Vec::new(),
                id: "melee".into(),
                name: "Longsword".into(),
                range: "melee".into(),
                vs: Defense::Ac,
                max_targets: 1,
            }]
            .into(),
        }
    }

    fn roster() -> Roster {
        Roster::from_state(&SessionState {
            phase: Phase::Running,
            round: 1,
            ..SessionState::new(
                "13th-age",
                vec![
                    combatant("brakka", "Brakka", Side::Heroes, Some(30)),
                    combatant("goblin-2", "Goblin Scrapper 2", Side::Monsters, None),
                ],
            )
        })
    }

    fn id(s: &str) -> CombatantId {
        CombatantId::new(s)
    }

    #[test]
    fn attack_roll_reads_like_the_table() {
        let e = GameEvent::AttackRolled {
            attacker: id("brakka"),
            target: id("goblin-2"),
            attack: "melee".into(),
            roll: d20(17),
            bonus: 5,
            total: 22,
            defense: Defense::Ac,
            defense_value: 16,
            outcome: AttackOutcome::Hit,
            modifiers: vec![],
        };
        // A log of record format 1 names no terms: the bonus alone.
        assert_eq!(
            narrate(&e, &roster()),
            "Brakka attacks Goblin Scrapper 2 with Longsword: d20=17 +5 = 22 vs AC 16 — HIT"
        );
        let GameEvent::AttackRolled { bonus, total, .. } = e.clone() else {
            unreachable!()
        };
        let named = GameEvent::AttackRolled {
            attacker: id("brakka"),
            target: id("goblin-2"),
            attack: "melee".into(),
            roll: d20(17),
            bonus,
            total,
            defense: Defense::Ac,
            defense_value: 16,
            outcome: AttackOutcome::Hit,
            modifiers: fray_protocol::roll::Modifiers::new()
                .with("STR", 4)
                .with("level", 2)
                .with("escalation die", 1)
                .with("dazed", -2)
                .into_vec(),
        };
        assert_eq!(
            narrate(&named, &roster()),
            "Brakka attacks Goblin Scrapper 2 with Longsword: d20=17 +4 STR +2 level +1 escalation die -2 dazed = 22 vs AC 16 — HIT"
        );
    }

    #[test]
    fn time_dice_read_as_the_hour_and_its_faces() {
        let e = GameEvent::FiveTorches(FiveTorchesEvent::TimeDiceRolled {
            purpose: fray_protocol::ftd::TimeDicePurpose::TimeOfDay,
            start_hour: None,
            roll: Roll {
                expr: "2d6".into(),
                dice: vec![die(6, 3, true), die(6, 2, true)],
                modifier: 0,
                total: 5,
            },
            hours: 5,
        });
        assert_eq!(
            narrate(&e, &Roster::default()),
            "The GM rolls the time dice (2d6: [3, 2] = 5): it is 05:00h, pre-dawn (time dice 5)"
        );
        assert_eq!(
            narrate(
                &GameEvent::FiveTorches(FiveTorchesEvent::TimeSet { hour: 20 }),
                &Roster::default()
            ),
            "The GM sets the time dice: it is 20:00h, night (time dice 6, 6, 6, 2)"
        );
    }

    #[test]
    fn advantage_shows_the_dropped_die() {
        let roll = Roll {
            expr: "2d20kh1".into(),
            dice: vec![die(20, 4, false), die(20, 19, true)],
            modifier: 0,
            total: 19,
        };
        let e = GameEvent::AttackRolled {
            attacker: id("goblin-2"),
            target: id("brakka"),
            attack: "stab".into(),
            roll,
            bonus: 2,
            total: 21,
            defense: Defense::Pd,
            defense_value: 14,
            outcome: AttackOutcome::Crit,
            modifiers: vec![],
        };
        assert_eq!(
            narrate(&e, &roster()),
            "Goblin Scrapper 2 attacks Brakka with stab: d20=[(4), 19] +2 = 21 vs PD 14 — CRITICAL HIT"
        );
    }

    #[test]
    fn an_ose_phase_keeps_the_name_as_written() {
        let e = GameEvent::Bx(BxEvent::PhaseReached {
            combatant: id("brakka"),
            phase: fray_protocol::ose::OsePhase::Melee,
        });
        assert_eq!(narrate(&e, &roster()), "Brakka acts in the melee phase");
    }

    #[test]
    fn damage_dice_are_shown_as_faces() {
        let e = GameEvent::DamageRolled {
            attacker: id("brakka"),
            attack: "melee".into(),
            roll: Roll {
                expr: "2d8+4".into(),
                dice: vec![die(8, 3, true), die(8, 6, true)],
                modifier: 4,
                total: 13,
            },
            modifiers: fray_protocol::roll::Modifiers::new()
                .with("STR", 4)
                .into_vec(),
        };
        assert_eq!(
            narrate(&e, &roster()),
            "Brakka rolls damage for Longsword: 2d8+4: [3, 6] +4 STR = 13"
        );
    }

    #[test]
    fn hidden_monster_hp_is_not_printed() {
        let e = GameEvent::Damaged {
            target: id("goblin-2"),
            cause: DamageCause::Attack {
                attacker: id("brakka"),
                attack: "melee".into(),
            },
            amount: 9,
            damage_type: None,
            temp_absorbed: 0,
            hp_after: None,
        };
        let line = narrate(&e, &roster());
        assert_eq!(
            line,
            "Goblin Scrapper 2 takes 9 damage from Brakka's Longsword"
        );
        assert!(!line.contains("hp"));
    }

    #[test]
    fn known_hp_and_temp_hp_are_printed() {
        let e = GameEvent::Damaged {
            target: id("brakka"),
            cause: DamageCause::Ongoing { effect: 3 },
            amount: 5,
            damage_type: Some(DamageType::Fire),
            temp_absorbed: 2,
            hp_after: Some(27),
        };
        assert_eq!(
            narrate(&e, &roster()),
            "Brakka takes 5 ongoing fire damage [effect #3] (2 absorbed by temporary hit points) — 27/30 hp left"
        );
    }

    #[test]
    fn effects_are_described_by_what_they_do() {
        let mut r = roster();
        let effect = Effect {
            id: 2,
            target: id("goblin-2"),
            source: id("brakka"),
            kind: EffectKind::Condition(Condition::Dazed),
            duration: EffectDuration::SaveEnds(SaveDifficulty::Normal),
            armed: false,
        };
        let applied = GameEvent::EffectApplied {
            effect: effect.clone(),
        };
        assert_eq!(
            narrate(&applied, &r),
            "Goblin Scrapper 2 is dazed (save ends, normal 11+, from Brakka) [effect #2]"
        );
        r.observe(&applied);
        let save = GameEvent::SaveRolled {
            combatant: id("goblin-2"),
            purpose: SavePurpose::Effect(2),
            roll: d20(14),
            target: 11,
            success: true,
            modifiers: vec![],
        };
        assert_eq!(
            narrate(&save, &r),
            "Goblin Scrapper 2 saves against dazed [effect #2]: d20=14 (needs 11+) — success"
        );
        // A magic item's bonus to saves is the roll's modifier (13th Age § Saves).
        let warded = GameEvent::SaveRolled {
            combatant: id("goblin-2"),
            purpose: SavePurpose::Effect(2),
            roll: Roll {
                expr: "d20+2".into(),
                modifier: 2,
                total: 11,
                ..d20(9)
            },
            target: 11,
            success: true,
            modifiers: fray_protocol::roll::Modifiers::new()
                .with("magic item", 2)
                .into_vec(),
        };
        assert_eq!(
            narrate(&warded, &r),
            "Goblin Scrapper 2 saves against dazed [effect #2]: d20=9 +2 magic item = 11 (needs 11+) — success"
        );
        let ended = GameEvent::EffectEnded {
            target: id("goblin-2"),
            effect: 2,
            reason: EffectEndReason::Saved,
        };
        assert_eq!(
            narrate(&ended, &r),
            "Goblin Scrapper 2 is free of dazed (saved) [effect #2]"
        );
    }

    #[test]
    fn unknown_ids_fall_back_to_the_id() {
        let e = GameEvent::Slain {
            combatant: id("owlbear"),
        };
        assert_eq!(narrate(&e, &Roster::default()), "owlbear is slain!");
    }

    /// 13th Age § Unconscious: a monster knocked out instead of slain, and the GM's ruling.
    #[test]
    fn knock_outs_are_narrated() {
        let r = roster();
        assert_eq!(
            narrate(
                &GameEvent::KnockedOut {
                    combatant: id("goblin-2"),
                },
                &r
            ),
            "Goblin Scrapper 2 is knocked out — alive, unconscious and out of the fight."
        );
        assert_eq!(
            narrate(
                &GameEvent::ThirteenthAge(ThirteenthAgeEvent::KnockOutsRuled { allowed: false }),
                &r
            ),
            "The GM refuses knock-out blows: monsters at 0 hp are slain."
        );
    }

    #[test]
    fn every_variant_narrates() {
        let effect = Effect {
            id: 1,
            target: id("brakka"),
            source: id("goblin-2"),
            kind: EffectKind::OngoingDamage {
                amount: 5,
                damage_type: Some(DamageType::Poison),
            },
            duration: EffectDuration::UntilEndOfSourcesNextTurn,
            armed: false,
        };
        let events = vec![
            GameEvent::BattleStarted,
            GameEvent::InitiativeRolled {
                combatants: vec![id("brakka")],
                roll: d20(12),
                bonus: 3,
                total: 15,
                modifiers: vec![],
            },
            GameEvent::TurnOrder {
                order: vec![id("brakka"), id("goblin-2")],
            },
            GameEvent::RoundStarted { round: 1 },
            GameEvent::ThirteenthAge(ThirteenthAgeEvent::EscalationDie { value: 1 }),
            GameEvent::TurnStarted {
                combatant: id("brakka"),
                round: 1,
            },
            GameEvent::ActionUsed {
                combatant: id("brakka"),
                action: ActionKind::Move,
                spent: ActionKind::Standard,
            },
            GameEvent::Healed {
                target: id("brakka"),
                roll: None,
                amount: 7,
                recovery_used: true,
                hp_after: Some(30),
            },
            GameEvent::Staggered {
                combatant: id("brakka"),
            },
            GameEvent::FellUnconscious {
                combatant: id("brakka"),
            },
            GameEvent::Revived {
                combatant: id("brakka"),
                can_act: false,
            },
            GameEvent::Died {
                combatant: id("brakka"),
            },
            GameEvent::SaveRolled {
                combatant: id("brakka"),
                purpose: SavePurpose::Death,
                roll: d20(3),
                target: 16,
                success: false,
                modifiers: vec![],
            },
            GameEvent::DeathSaveFailed {
                combatant: id("brakka"),
                failures: 2,
            },
            GameEvent::Rallied {
                combatant: id("brakka"),
            },
            GameEvent::ThirteenthAge(ThirteenthAgeEvent::RallyFailed {
                combatant: id("brakka"),
                round: 3,
            }),
            GameEvent::EffectApplied { effect },
            GameEvent::EffectArmed {
                target: id("brakka"),
                effect: 1,
            },
            GameEvent::TurnEnded {
                combatant: id("brakka"),
            },
            GameEvent::BattleEnded {
                winner: Some(Side::Heroes),
            },
            GameEvent::SeedRevealed {
                seed: 42,
                salt: "00ff".into(),
            },
            GameEvent::KnockedOut {
                combatant: id("goblin-2"),
            },
            GameEvent::ThirteenthAge(ThirteenthAgeEvent::KnockOutsRuled { allowed: false }),
        ];
        let r = roster();
        for e in &events {
            let line = narrate(e, &r);
            assert!(!line.is_empty(), "{e:?}");
            assert!(!line.contains("brakka"), "display names are used: {line}");
        }
        assert_eq!(
            narrate(&events[6], &r),
            "Brakka uses the standard action as a move action"
        );
        assert_eq!(
            narrate(&events[12], &r),
            "Brakka makes a death save: d20=3 (needs 16+) — failure"
        );
        assert_eq!(
            narrate(&events[16], &r),
            "Brakka suffers ongoing 5 poison damage (until the end of Goblin Scrapper 2's next turn, from Goblin Scrapper 2) [effect #1]"
        );
    }

    #[test]
    fn special_movement_modes_read_as_verbs() {
        let moved = |mode| {
            GameEvent::Orcus(OrcusEvent::GridMoved {
                combatant: id("brakka"),
                path: vec![fray_protocol::grid::Square::new(4, 4)],
                cost: 1,
                mode,
            })
        };
        assert_eq!(
            narrate(&moved(fray_protocol::grid::MoveMode::Fly), &roster()),
            "Brakka flies to (4, 4) (1 squares)"
        );
        assert_eq!(
            narrate(&moved(fray_protocol::grid::MoveMode::RunSwim), &roster()),
            "Brakka swims at a run to (4, 4) (1 squares)"
        );
    }
}
