//! The decide context: the battlefield, the session RNG, the overlay and the events emitted so
//! far, with the shared steps that several commands use (damage, healing, saves).

use super::field::{Field, Overlay};
use crate::dice::{self, DiceExpr, Placeholders, SessionRng};
use fray_protocol::event::{DamageCause, DamageType, GameEvent, SavePurpose};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::roll::{Modifiers, Roll};
use fray_protocol::state::LifeStatus;
use fray_protocol::{ErrorCode, Rejection};

/// Decide's working state for one pass.
pub struct Decider<'a, 'w, 's> {
    /// The battlefield.
    pub field: &'a Field<'w, 's>,
    /// The session RNG.
    pub rng: &'a mut SessionRng,
    /// The secret stream, for the referee's secret rolls only (`rules::secret`); `None` in the
    /// rulesets that make none.
    pub(crate) secret: Option<&'a mut SessionRng>,
    /// Hit points and status after this pass's events.
    pub overlay: Overlay,
    events: Vec<GameEvent>,
    next_effect_id: u32,
}

impl<'a, 'w, 's> Decider<'a, 'w, 's> {
    /// A fresh pass.
    pub fn new(field: &'a Field<'w, 's>, rng: &'a mut SessionRng) -> Self {
        let next_effect_id = field.battle.next_effect_id;
        Decider {
            field,
            rng,
            secret: None,
            overlay: Overlay::default(),
            events: Vec::new(),
            next_effect_id,
        }
    }

    /// Emits an event.
    pub fn emit(&mut self, e: GameEvent) {
        self.events.push(e);
    }

    /// The events emitted so far this pass.
    pub fn events(&self) -> &[GameEvent] {
        &self.events
    }

    /// The events of this pass.
    pub fn into_events(self) -> Vec<GameEvent> {
        self.events
    }

    /// Allocates an effect id.
    pub fn effect_id(&mut self) -> u32 {
        let id = self.next_effect_id;
        self.next_effect_id += 1;
        id
    }

    /// Rolls a d20.
    pub fn d20(&mut self) -> Roll {
        dice::roll_die(self.rng, 20)
    }

    /// Rolls an expression with placeholders. Content is validated on load, so an error here
    /// means a placeholder the combatant lacks; it is reported rather than guessed.
    pub fn roll(&mut self, expr: &str, ph: &Placeholders) -> Result<Roll, Rejection> {
        let bad = |e: crate::dice::DiceError| {
            Rejection::new(
                ErrorCode::InvalidArgument,
                format!("dice expression '{expr}': {e}"),
            )
        };
        DiceExpr::parse(expr)
            .map_err(bad)?
            .roll(self.rng, ph)
            .map_err(bad)
    }

    /// [`Decider::roll`], with the constant terms named (`DiceExpr::constant_terms`; numbers
    /// as `literal`): a damage roll and its `modifiers`.
    pub fn roll_explained(
        &mut self,
        expr: &str,
        ph: &Placeholders,
        literal: &'static str,
    ) -> Result<(Roll, Modifiers), Rejection> {
        let bad = |e: crate::dice::DiceError| {
            Rejection::new(
                ErrorCode::InvalidArgument,
                format!("dice expression '{expr}': {e}"),
            )
        };
        let parsed = DiceExpr::parse(expr).map_err(bad)?;
        let terms = parsed.constant_terms(ph, literal).map_err(bad)?;
        Ok((parsed.roll(self.rng, ph).map_err(bad)?, terms))
    }

    /// Status of a combatant after this pass's events.
    pub fn status(&mut self, id: &CombatantId) -> Option<LifeStatus> {
        self.overlay.status(self.field, id)
    }

    /// A save (§ Saves: a plain d20, no standard modifiers).
    pub fn save(&mut self, who: &CombatantId, purpose: SavePurpose, target: u32) -> (bool, u32) {
        self.save_with_bonus(who, purpose, target, Modifiers::new())
    }

    /// A save with a bonus (§ Saves: "occasional talents, feats, and magic items that provide
    /// small bonuses to saves"): d20 + the terms against the target, their sum shown as the
    /// roll's modifier (`d20+1`) and the terms as the event's `modifiers`. Returns the success
    /// and the natural roll.
    pub fn save_with_bonus(
        &mut self,
        who: &CombatantId,
        purpose: SavePurpose,
        target: u32,
        terms: Modifiers,
    ) -> (bool, u32) {
        let bonus = terms.total();
        let mut roll = self.d20();
        roll.plus(bonus);
        let natural = roll.natural().unwrap_or(0);
        let success = i64::from(roll.total) >= i64::from(target);
        self.emit(GameEvent::SaveRolled {
            combatant: who.clone(),
            purpose,
            roll,
            target,
            success,
            modifiers: terms.into_vec(),
        });
        (success, natural)
    }

    /// Deals damage and emits what follows from it: staggered, unconscious, dead or slain.
    pub fn damage(
        &mut self,
        target: &CombatantId,
        amount: i32,
        cause: DamageCause,
        damage_type: Option<DamageType>,
    ) {
        self.damage_with_intent(target, amount, cause, damage_type, false);
    }

    /// Deals damage like [`Decider::damage`]; with `knock_out` (a hero's blow meant to keep
    /// the monster alive, allowed by the GM) a monster dropped to 0 hp is knocked out instead
    /// of slain (§ Unconscious).
    pub fn damage_with_intent(
        &mut self,
        target: &CombatantId,
        amount: i32,
        cause: DamageCause,
        damage_type: Option<DamageType>,
        knock_out: bool,
    ) {
        let ko = if knock_out {
            KnockOut::Monsters
        } else {
            KnockOut::No
        };
        self.damage_full(target, amount, cause, damage_type, ko);
    }

    /// Deals damage; a blow meant to knock out (Orcus § Knocking a creature out: any creature
    /// it drops to 0 hp or below, hero or monster) leaves it knocked out instead of dying or
    /// slain.
    pub fn damage_knocking_out(
        &mut self,
        target: &CombatantId,
        amount: i32,
        cause: DamageCause,
        damage_type: Option<DamageType>,
    ) {
        self.damage_full(target, amount, cause, damage_type, KnockOut::Anyone);
    }

    fn damage_full(
        &mut self,
        target: &CombatantId,
        amount: i32,
        cause: DamageCause,
        damage_type: Option<DamageType>,
        ko: KnockOut,
    ) {
        let Some(mut v) = self.overlay.vitals(self.field, target) else {
            return;
        };
        if v.status.is_out() {
            return;
        }
        let amount = amount.max(0);
        let was_up = v.status.is_up();
        // § Temporary Hit Points: absorbed first.
        let absorbed = v.temp.min(amount);
        v.temp -= absorbed;
        let before = v.current;
        v.current -= amount - absorbed;
        if v.side == Side::Monsters {
            v.current = v.current.max(0);
        }
        self.emit(GameEvent::Damaged {
            target: target.clone(),
            cause: cause.clone(),
            amount,
            damage_type,
            temp_absorbed: absorbed,
            hp_after: Some(v.current),
        });
        let was_staggered = before * 2 <= v.max;
        if !was_staggered && v.current * 2 <= v.max && v.current > 0 {
            self.emit(GameEvent::Staggered {
                combatant: target.clone(),
            });
        }
        match v.side {
            // § Unconscious: "When monsters drop to 0 hp, it means they've been slain, unless the
            // characters' intent is to keep the monster alive and the attack seems like a
            // potentially humane blow that could knock the monster unconscious instead."
            _ if v.current <= 0
                && (ko == KnockOut::Anyone
                    || (ko == KnockOut::Monsters && v.side == Side::Monsters)) =>
            {
                v.status = LifeStatus::KnockedOut;
                self.emit(GameEvent::KnockedOut {
                    combatant: target.clone(),
                });
            }
            Side::Monsters if v.current <= 0 => {
                v.status = LifeStatus::Slain;
                self.emit(GameEvent::Slain {
                    combatant: target.clone(),
                });
            }
            Side::Heroes if v.current <= 0 => {
                if v.status == LifeStatus::Conscious {
                    v.status = LifeStatus::Unconscious;
                    self.emit(GameEvent::FellUnconscious {
                        combatant: target.clone(),
                    });
                }
                if is_dead_at(v.current, v.max) {
                    if self.field.options.0.meaningful_death && !self.by_villain(target, &cause) {
                        // § Optional Meaningful Death Rule: only named villains slay PCs.
                        if !self
                            .field
                            .get(target)
                            .is_some_and(|f| f.hero.is_some_and(|h| h.coma))
                        {
                            self.emit(GameEvent::FellIntoComa {
                                combatant: target.clone(),
                            });
                        }
                    } else {
                        v.status = LifeStatus::Dead;
                        self.emit(GameEvent::Died {
                            combatant: target.clone(),
                        });
                    }
                }
            }
            _ => {}
        }
        if was_up && !v.status.is_up() {
            self.release_grabs(target);
        }
        self.overlay.set(target, v);
    }

    /// Whether damage comes from a named villain (its attack, or an effect it caused).
    fn by_villain(&self, target: &CombatantId, cause: &DamageCause) -> bool {
        let source = match cause {
            DamageCause::Attack { attacker, .. } => Some(attacker.clone()),
            DamageCause::Ongoing { effect } => self.field.get(target).and_then(|f| {
                f.fx.0
                    .iter()
                    .find(|e| e.id == *effect)
                    .map(|e| e.source.clone())
            }),
            DamageCause::Hazard { .. } => None,
        };
        source.is_some_and(|s| self.field.get(&s).is_some_and(|f| f.c.villain))
    }

    /// § Grabbed: a grabber out of the fight holds no one.
    fn release_grabs(&mut self, grabber: &CombatantId) {
        let mut ended = Vec::new();
        for f in self.field.all() {
            for e in &f.fx.0 {
                if &e.source == grabber
                    && matches!(
                        e.kind,
                        fray_protocol::event::EffectKind::Condition(
                            fray_protocol::event::Condition::Grabbed
                        )
                    )
                {
                    ended.push((f.c.id.clone(), e.id));
                }
            }
        }
        for (target, effect) in ended {
            self.emit(GameEvent::EffectEnded {
                target,
                effect,
                reason: fray_protocol::event::EffectEndReason::Cleared,
            });
        }
    }

    /// Spends a recovery (§ Recoveries): recovery dice equal to level plus the Con modifier
    /// (×2 at 5th, ×3 at 8th); with none left, half the healing and a stacking −1 penalty.
    /// Emits `Healed` and, for an unconscious PC, `Revived`: a recovery returns a dying PC to
    /// consciousness even when it heals nothing (§ Death saves: "use a recovery to return to
    /// consciousness"; with no recoveries left half of a 1 is 0).
    pub fn spend_recovery(&mut self, who: &CombatantId, can_act: bool) -> Result<(), Rejection> {
        let Some(f) = self.field.get(who) else {
            return Err(Rejection::new(
                ErrorCode::UnknownCombatant,
                format!("no combatant '{who}'"),
            ));
        };
        let Some(hero) = f.hero else {
            return Err(Rejection::new(
                ErrorCode::InvalidArgument,
                format!("{} has no recoveries", f.c.name),
            ));
        };
        let level = f.c.level;
        let con = hero.spec.mods.con * level_multiplier(level);
        let die = hero.spec.recovery_die;
        let have = hero.recoveries > 0;
        let expr = if con >= 0 {
            format!("{level}d{die}+{con}")
        } else {
            format!("{level}d{die}{con}")
        };
        let roll = self.roll(&expr, &Placeholders::default())?;
        let full = roll.total.max(0);
        let amount = if have { full } else { full / 2 };
        let Some(mut v) = self.overlay.vitals(self.field, who) else {
            return Ok(());
        };
        v.current = (v.current.max(0) + amount).min(v.max);
        self.emit(GameEvent::Healed {
            target: who.clone(),
            roll: Some(roll),
            amount,
            recovery_used: true,
            hp_after: Some(v.current),
        });
        if v.status == LifeStatus::Unconscious {
            v.status = LifeStatus::Conscious;
            self.emit(GameEvent::Revived {
                combatant: who.clone(),
                can_act,
            });
        }
        self.overlay.set(who, v);
        Ok(())
    }
}

/// Who a blow may knock out instead of killing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KnockOut {
    /// Nobody: the blow kills as usual.
    No,
    /// Monsters (13th Age § Unconscious).
    Monsters,
    /// Any creature (Orcus § Knocking a creature out).
    Anyone,
}

// --- the numbers of the shared damage and recovery code ---------------------------------

/// § Damage / § Recoveries: the ability (or Con) modifier is doubled at 5th level and tripled
/// at 8th.
pub fn level_multiplier(level: i32) -> i32 {
    if level >= 8 {
        3
    } else if level >= 5 {
        2
    } else {
        1
    }
}

/// § Death and Dying: a PC dies at negative hit points equal to half its maximum.
pub fn is_dead_at(current: i32, max: i32) -> bool {
    current < 0 && -current * 2 >= max
}

/// The named constant terms of a damage expression (`DiceExpr::constant_terms`; plain numbers
/// as `damage bonus`), plus one `damage bonus` term for whatever the roll added beyond them —
/// they sum to the roll's modifier either way: the `modifiers` of its `damage_rolled`.
pub fn damage_terms(expr: &str, roll: &Roll) -> Vec<fray_protocol::roll::Modifier> {
    let mut terms = DiceExpr::parse(expr)
        .and_then(|e| e.constant_terms(&Placeholders::default(), "damage bonus"))
        .unwrap_or_default();
    terms.add("damage bonus", roll.modifier - terms.total());
    terms.into_vec()
}
