//! Legality and outcome of each Old-School Essentials command (`ose-adventuring.txt`). A refusal
//! changes nothing and draws no dice (the decide system restores the RNG on any refusal).

use super::Sheets;
use super::tables;
use crate::content::model::{OseAttackSpec, OseSpec};
use crate::dice::Placeholders;
use crate::rules::common::decider::Decider;
pub(super) use crate::rules::common::guards::{R, no, running};
use fray_protocol::event::{ActionKind, AttackOutcome, DamageCause, Defense, GameEvent};
use fray_protocol::ftd::{Departure, MoraleTrigger};
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::ose::{
    Declaration, MissileRange, OseCombatant, OsePhase, SaveCategory, SecretCheck,
};
use fray_protocol::roll::Modifiers;
use fray_protocol::state::{LifeStatus, Phase};
use fray_protocol::{BxCommand, BxEvent};
use fray_protocol::{Command, ErrorCode};
use std::collections::BTreeSet;

/// Decides one command.
pub fn decide(d: &mut Decider, s: &Sheets, cmd: &Command) -> R {
    match cmd {
        Command::Bx(BxCommand::RollSurprise { sides }) => surprise(d, s, sides),
        Command::Bx(BxCommand::RollReaction { speaker }) => reaction(d, s, speaker.as_ref()),
        Command::StartBattle => {
            setup(d)?;
            d.emit(GameEvent::BattleStarted);
            super::turns::new_round(d, s, 1);
            Ok(())
        }
        Command::Bx(BxCommand::Declare { actor, declaration }) => {
            declare(d, s, actor, declaration.as_ref())
        }
        Command::Bx(BxCommand::OseAttack {
            actor,
            attack,
            target,
            range,
            modifier,
            behind,
        }) => attack_cmd(
            d, s, actor, attack, target, *range, *modifier, *behind, false,
        ),
        Command::Attack {
            actor,
            attack,
            targets,
            knock_out,
            mode: fray_protocol::command::AttackMode::Standard,
            forced,
            weapon: None,
            secondary_target: None,
        } if forced.is_empty() => match targets.as_slice() {
            [target] => attack_cmd(d, s, actor, attack, target, None, 0, false, *knock_out),
            _ => Err(no(
                ErrorCode::WrongTargetCount,
                "an Old-School Essentials attack has one target",
            )),
        },
        Command::Attack { .. } => Err(no(
            ErrorCode::InvalidArgument,
            "knock-out blows, opportunity attacks, coups de grace, forced paths, weapon \
             and secondary target choices are not Old-School Essentials attacks (use ose_attack)",
        )),
        Command::Bx(BxCommand::CastSpell { actor }) => cast(d, s, actor),
        Command::Bx(BxCommand::OseMorale {
            combatants,
            adjustment,
        }) => morale(d, s, combatants, *adjustment),
        Command::Bx(BxCommand::SavingThrow {
            combatant,
            category,
            modifier,
        }) => save(d, s, combatant, *category, *modifier),
        Command::Bx(BxCommand::SecretRoll {
            check,
            combatant,
            chance,
            area,
        }) => secret(d, s, *check, combatant.as_ref(), *chance, area.as_deref()),
        Command::Bx(BxCommand::ExplorationTurn { wandering, rest }) => {
            exploration_turn(d, s, *wandering, *rest)
        }
        Command::Bx(BxCommand::LightSource { carrier, source }) => light(d, s, carrier, *source),
        Command::Bx(BxCommand::DouseLight { carrier, source }) => douse(d, s, carrier, *source),
        Command::Bx(BxCommand::SaveForHalf {
            combatant,
            category,
            damage,
            modifier,
        }) => super::hazards::save_for_half(d, s, combatant, *category, damage, *modifier),
        Command::Bx(BxCommand::AbilityCheck {
            combatant,
            ability,
            modifier,
        }) => super::hazards::ability_check(d, s, combatant, *ability, *modifier),
        Command::Bx(BxCommand::Fall { combatant, feet }) => {
            super::hazards::fall(d, s, combatant, *feet)
        }
        Command::Bx(BxCommand::Bomb {
            attacker,
            targets,
            damage,
            altitude,
        }) => super::bombing::bomb(d, s, attacker, targets, damage, *altitude),
        Command::Bx(BxCommand::MagicalHealing {
            target,
            dice,
            source,
        }) => super::hazards::magical_healing(d, s, target, dice, source),
        Command::Bx(BxCommand::NaturalHealing { combatant, days }) => {
            super::hazards::natural_healing(d, s, combatant, *days)
        }
        Command::Bx(BxCommand::RollEncounterDistance { setting, surprised }) => {
            super::hazards::encounter_distance(d, *setting, *surprised)
        }
        Command::Bx(BxCommand::OseCondition {
            combatant,
            condition,
            on,
        }) => super::combat_extras::condition(d, s, combatant, *condition, *on),
        Command::AddCondition {
            target,
            condition,
            duration,
            ..
        } => super::combat_extras::gm_override(d, s, target, condition, duration.is_some(), true),
        Command::RemoveCondition { target, condition } => {
            super::combat_extras::gm_override(d, s, target, condition, false, false)
        }
        Command::Bx(BxCommand::HireRetainer {
            employer,
            retainer,
            adjustment,
        }) => super::retainers::hire(d, s, employer, retainer, *adjustment),
        Command::Bx(BxCommand::LoyaltyCheck {
            retainer,
            adjustment,
        }) => super::retainers::loyalty_check(d, s, retainer, *adjustment),
        Command::Bx(BxCommand::AwardXp {
            monsters,
            bonus,
            party,
        }) => super::experience::award(d, s, monsters, *bonus, party),
        Command::Bx(BxCommand::PassDay {
            march,
            terrain,
            unfed,
            no_water,
            leader,
            water,
        }) => super::travel::pass_day(
            d,
            s,
            *march,
            *terrain,
            unfed,
            no_water,
            leader.as_ref(),
            super::travel::WaterWay::Ose(water.as_ref()),
        ),
        Command::Bx(BxCommand::DrowningCheck { combatant, chance }) => {
            super::hazards::drowning(d, s, combatant, *chance)
        }
        Command::Bx(BxCommand::Sail {
            sailing_miles,
            rowing_miles,
            navigator,
            stops_at_night,
            against_wind,
            unfed,
            no_water,
        }) => {
            let v = super::travel::Voyage {
                sailing_miles: *sailing_miles,
                rowing_miles: *rowing_miles,
                navigator: *navigator,
                stops_at_night: *stops_at_night,
                against_wind: *against_wind,
            };
            super::travel::sail(d, s, &v, unfed, no_water)
        }
        Command::Bx(BxCommand::SetEncumbrance {
            combatant,
            armor,
            load,
            treasure,
        }) => super::encumbrance::set(d, s, combatant, *armor, *load, *treasure),
        Command::Bx(BxCommand::TimeEffect {
            name,
            combatant,
            turns,
        }) => super::durations::time_effect(d, s, name, combatant.as_ref(), *turns),
        Command::Bx(BxCommand::RollWind {}) => super::travel::roll_wind(d, s),
        Command::Bx(BxCommand::AttemptEvasion {
            setting,
            fleeing_rate,
            pursuer_rate,
            fleeing,
            pursuers,
            surprise,
            modifier,
        }) => super::evasion::attempt(
            d,
            *setting,
            *fleeing_rate,
            *pursuer_rate,
            *fleeing,
            *pursuers,
            *surprise,
            *modifier,
        ),
        Command::Bx(BxCommand::OseMove { actor, feet }) => {
            super::round::move_cmd(d, s, actor, *feet)
        }
        Command::Bx(BxCommand::OseHold { actor }) => super::round::hold(d, s, actor),
        Command::Bx(BxCommand::StartPursuit {
            setting,
            fleeing_rate,
            pursuer_rate,
            runners,
            distance,
        }) => super::pursuit::start(
            d,
            s,
            *setting,
            *fleeing_rate,
            *pursuer_rate,
            runners,
            *distance,
        ),
        Command::Bx(BxCommand::PursuitRound {}) => super::pursuit::round(d, s),
        Command::Bx(BxCommand::DropLure { lure }) => super::pursuit::drop_lure(d, s, *lure),
        Command::Bx(BxCommand::EndPursuit { caught }) => super::pursuit::end(d, s, *caught),
        Command::Bx(BxCommand::GaleDamage { hours }) => super::travel::gale_damage(d, *hours),
        Command::Bx(BxCommand::GaleStrikes {
            near,
            seaworthy,
            land,
            clear_shore,
        }) => super::waterborne::gale(d, *near, *seaworthy, *land, *clear_shore),
        Command::Bx(BxCommand::LightCandle { carrier, inches }) => {
            super::candles::light(d, s, carrier, *inches)
        }
        Command::EndTurn { actor } => {
            on_turn(d, actor)?;
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
        other => Err(no(
            ErrorCode::InvalidArgument,
            format!("'{}' is not an Old-School Essentials command", other.kind()),
        )),
    }
}

// --- shared checks -------------------------------------------------------------------------

pub(super) fn sheet<'a>(s: &'a Sheets, id: &CombatantId) -> R<(&'a OseCombatant, &'a OseSpec)> {
    s.get(id)
        .ok_or_else(|| no(ErrorCode::UnknownCombatant, format!("no combatant '{id}'")))
}

pub(super) fn name(d: &Decider, id: &CombatantId) -> String {
    d.field
        .get(id)
        .map_or_else(|| id.to_string(), |f| f.c.name.clone())
}

pub(super) fn side_of(d: &Decider, id: &CombatantId) -> R<Side> {
    d.field
        .get(id)
        .map(|f| f.c.side)
        .ok_or_else(|| no(ErrorCode::UnknownCombatant, format!("no combatant '{id}'")))
}

fn setup(d: &Decider) -> R {
    match d.field.battle.phase {
        Phase::Setup => Ok(()),
        Phase::Running => Err(no(
            ErrorCode::BattleAlreadyStarted,
            "the battle has already started",
        )),
        Phase::Ended => Err(no(ErrorCode::BattleOver, "the battle is over")),
    }
}

pub(super) fn on_turn(d: &Decider, actor: &CombatantId) -> R {
    running(d)?;
    side_of(d, actor)?;
    if d.field.battle.current() != Some(actor) {
        return Err(no(
            ErrorCode::NotYourTurn,
            format!("it is not {}'s turn", name(d, actor)),
        ));
    }
    Ok(())
}

/// In the fight and able to act: alive (0 hp counts while a simultaneous round lasts) and not
/// fled.
pub fn up(d: &mut Decider, s: &Sheets, id: &CombatantId) -> bool {
    !s.get(id).is_some_and(|(sh, _)| sh.fled) && d.status(id) == Some(LifeStatus::Conscious)
}

pub(super) fn pay(d: &mut Decider, s: &Sheets, actor: &CombatantId) -> R {
    let spent = ready(d, s, actor)?;
    d.emit(GameEvent::ActionUsed {
        combatant: actor.clone(),
        action: ActionKind::Standard,
        spent,
    });
    Ok(())
}

/// On its turn, able to act, its attack or spell of the round unspent: what `pay` would spend.
pub(super) fn ready(d: &mut Decider, s: &Sheets, actor: &CombatantId) -> R<ActionKind> {
    on_turn(d, actor)?;
    if !up(d, s, actor) {
        return Err(no(
            ErrorCode::CannotAct,
            format!("{} cannot act", name(d, actor)),
        ));
    }
    let budget = d.field.get(actor).map(|f| f.budget.0);
    let Some(spent) = budget.and_then(|b| b.payer(ActionKind::Standard)) else {
        return Err(no(
            ErrorCode::ActionAlreadyUsed,
            format!(
                "{} has already attacked or cast this round (§ Attacks Per Round)",
                name(d, actor)
            ),
        ));
    };
    Ok(spent)
}

pub(super) fn as_i32(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

// --- encounters ----------------------------------------------------------------------------

/// § Encounters, Surprise Checks: a d6 per side not expecting the encounter; 1–2 surprised.
fn surprise(d: &mut Decider, s: &Sheets, sides: &[Side]) -> R {
    setup(d)?;
    if sides.is_empty() {
        return Err(no(ErrorCode::InvalidArgument, "name the sides that roll"));
    }
    let b = s.battle();
    let mut seen = BTreeSet::new();
    for side in sides {
        if !seen.insert(*side) {
            return Err(no(
                ErrorCode::InvalidArgument,
                format!("{side:?} is listed twice"),
            ));
        }
        if b.surprise_rolled.contains(side) {
            return Err(no(
                ErrorCode::InvalidArgument,
                format!("{side:?} has already rolled for surprise"),
            ));
        }
    }
    // § Light and Surprise: "Characters or monsters that carry a light in a dark environment are
    // usually unable to surprise opponents" — a side is not surprised while one of its
    // opponents in the fight carries a burning light.
    let mut lit: Vec<Side> = Vec::new();
    for l in &b.exploration.lights {
        if up(d, s, &l.carrier)
            && let Some(f) = d.field.get(&l.carrier)
        {
            lit.push(f.c.side);
        }
    }
    for side in sides {
        let roll = crate::dice::notation::roll_die(d.rng, 6);
        let lit_foe = lit.iter().any(|l| l != side);
        let surprised = tables::surprised(roll.natural().unwrap_or(6))
            && !lit_foe
            && !super::doors::surprise_spoiled(&b, *side);
        d.emit(GameEvent::Bx(BxEvent::SurpriseRolled {
            side: *side,
            roll,
            surprised,
        }));
    }
    Ok(())
}

/// § Monster Reaction Roll: 2d6 + the speaker's CHA modifier (§ Monster Actions, Charisma).
fn reaction(d: &mut Decider, s: &Sheets, speaker: Option<&CombatantId>) -> R {
    if d.field.battle.phase == Phase::Ended {
        return Err(no(ErrorCode::BattleOver, "the battle is over"));
    }
    let modifier = match speaker {
        Some(id) => {
            if side_of(d, id)? != Side::Heroes {
                return Err(no(
                    ErrorCode::InvalidTarget,
                    "the speaker is a character of the party",
                ));
            }
            sheet(s, id)?.1.cha_mod
        }
        None => 0,
    };
    let roll = d.roll("2d6", &Placeholders::default())?;
    let total = roll.total + modifier;
    d.emit(GameEvent::Bx(BxEvent::ReactionRolled {
        speaker: speaker.cloned(),
        roll,
        modifier,
        total,
        reaction: tables::reaction(total),
        modifiers: Modifiers::new().with("CHA", modifier).into_vec(),
    }));
    Ok(())
}

/// § Declare Spells and Melee Movement: for the next round, before initiative.
fn declare(d: &mut Decider, s: &Sheets, actor: &CombatantId, what: Option<&Declaration>) -> R {
    if d.field.battle.phase == Phase::Ended {
        return Err(no(ErrorCode::BattleOver, "the battle is over"));
    }
    let _ = sheet(s, actor)?;
    if d.field.battle.phase == Phase::Running && !up(d, s, actor) {
        return Err(no(
            ErrorCode::CannotAct,
            format!("{} cannot act", name(d, actor)),
        ));
    }
    if let Some(Declaration::Spell { spell }) = what
        && (spell.trim().is_empty() || spell.len() > 60)
    {
        return Err(no(
            ErrorCode::InvalidArgument,
            "a spell's name is 1-60 characters",
        ));
    }
    d.emit(GameEvent::Bx(BxEvent::Declared {
        combatant: actor.clone(),
        declaration: what.cloned(),
    }));
    Ok(())
}

// --- attacks -------------------------------------------------------------------------------

/// Whether a combatant's side lost initiative this round (it does not act first).
fn lost_initiative(d: &Decider, s: &Sheets, id: &CombatantId) -> bool {
    let b = s.battle();
    let Some(side) = d.field.get(id).map(|f| f.c.side) else {
        return false;
    };
    if b.simultaneous {
        return false;
    }
    let first = d
        .field
        .battle
        .order
        .first()
        .and_then(|c| d.field.get(c))
        .map(|f| f.c.side);
    first.is_some_and(|f| f != side)
}

/// § Disrupting Spells: a caster that lost initiative and is hit or fails a save before its
/// turn loses its spell.
fn disrupt(d: &mut Decider, s: &Sheets, id: &CombatantId) {
    let Some((sh, _)) = s.get(id) else { return };
    let casting = matches!(sh.declared, Some(Declaration::Spell { .. }));
    let already = d.events().iter().any(
        |e| matches!(e, GameEvent::Bx(BxEvent::SpellDisrupted { combatant }) if combatant == id),
    );
    if casting && !sh.acted && !sh.disrupted && !already && lost_initiative(d, s, id) {
        d.emit(GameEvent::Bx(BxEvent::SpellDisrupted {
            combatant: id.clone(),
        }));
    }
}

fn weapon<'a>(kit: &'a OseSpec, attack: &str) -> R<&'a OseAttackSpec> {
    kit.attacks.iter().find(|a| a.id == attack).ok_or_else(|| {
        no(
            ErrorCode::UnknownAttack,
            format!("no attack '{attack}' (has: {})", ids(kit)),
        )
    })
}

fn ids(kit: &OseSpec) -> String {
    kit.attacks
        .iter()
        .map(|a| a.id.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// § Attacking and § Attack Rolls: d20 + STR (melee) or DEX and range (missiles) + the GM's
/// modifier, compared by the session's procedure; natural 20 hits, natural 1 misses; damage
/// (+ STR in melee) at least 1; § In Melee, Retreat: +2 against a retreating target, which
/// loses its shield; § Other Combat Issues (`combat_extras`): from behind, blind, paralyzed,
/// unstable, exhausted, unarmed.
#[allow(clippy::too_many_arguments)]
fn attack_cmd(
    d: &mut Decider,
    s: &Sheets,
    actor: &CombatantId,
    attack: &str,
    target: &CombatantId,
    range: Option<MissileRange>,
    modifier: i32,
    behind: bool,
    subdue: bool,
) -> R {
    on_turn(d, actor)?;
    let (sh, kit) = sheet(s, actor)?;
    let unarmed = super::combat_extras::unarmed(kit, attack);
    let bare = unarmed.is_some();
    let w = match unarmed {
        Some(w) => w,
        None => weapon(kit, attack)?.clone(),
    };
    super::combat_extras::may_attack(d, sh, actor)?;
    super::darkness::may_attack(d, s, sh, actor)?;
    let (tsh, _) = sheet(s, target)?;
    let tsh = tsh.clone();
    match &sh.declared {
        Some(Declaration::Spell { spell }) => {
            return Err(no(
                ErrorCode::CannotAct,
                format!(
                    "{} declared the spell {spell}: casting is the sole action this round \
                     (§ Spell Casting)",
                    name(d, actor)
                ),
            ));
        }
        Some(Declaration::Retreat) => {
            return Err(no(
                ErrorCode::CannotAct,
                "a retreating combatant may not attack this round (§ In Melee, Retreat)",
            ));
        }
        _ => {}
    }
    if side_of(d, target)? == side_of(d, actor)? {
        return Err(no(ErrorCode::InvalidTarget, "attack an enemy"));
    }
    if !up(d, s, target) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{} is out of the fight", name(d, target)),
        ));
    }
    super::combat_extras::may_be_attacked(d, &tsh, target)?;
    if !(-10..=10).contains(&modifier) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "the situational modifier is within -10..=10",
        ));
    }
    let range_mod = match (w.ranges, range) {
        (None, Some(_)) => {
            return Err(no(
                ErrorCode::InvalidArgument,
                format!("{} is a melee attack: no range band", w.name),
            ));
        }
        (None, None) => 0,
        (Some(_), r) => {
            tables::range_modifier(r.unwrap_or(MissileRange::Medium)).ok_or_else(|| {
                no(
                    ErrorCode::InvalidTarget,
                    "beyond long range: the attack is not possible (§ Range Modifiers)",
                )
            })?
        }
    };
    super::optional_rules::subduing(&s.battle().options, subdue)?;
    super::subdual::may_subdue(subdue, &w, sheet(s, target)?.1)?;
    let missile = w.ranges.is_some();
    super::combat_extras::may_shoot(d, sh, actor, missile)?;
    // § Missile Attacks: "possible when opponents are more than 5′ from one another"; Fray's
    // "in melee" (no positions): it exchanged a melee attack with a foe still in the fight.
    if missile && !super::round::melee_foes(d, s, actor).is_empty() {
        return Err(no(
            ErrorCode::MissileInMelee,
            format!(
                "{} is in melee: missile attacks are possible only when opponents are more \
                 than 5′ apart (§ Missile Attacks); withdraw or retreat first",
                name(d, actor)
            ),
        ));
    }
    // § Combat Sequence Per Round: missile attacks, then (after spells) melee attacks.
    let phase = if missile {
        OsePhase::Missiles
    } else {
        OsePhase::Melee
    };
    super::round::enter_phase(d, s, actor, phase)?;
    super::routine::pay_attack(d, s, actor, sh, kit, &w)?;
    if !missile {
        super::round::engage(d, s, actor, target);
    }
    let ability = if missile { kit.dex_mod } else { kit.str_mod };
    let retreating = matches!(tsh.declared, Some(Declaration::Retreat));
    let tired = tired(d, s, actor);
    let extra = super::combat_extras::circumstances(sh, &tsh, missile, behind, retreating);
    let terms = Modifiers::new()
        .with(if missile { "DEX" } else { "STR" }, ability)
        .with("range", range_mod)
        .with("situational", modifier)
        .with("target retreating", if retreating { 2 } else { 0 })
        .with("no rest", -tired)
        .extended(extra.to_hit);
    let bonus = terms.total();
    let ac = tsh.ac + if retreating { tsh.shield } else { 0 } + extra.ac;
    let hit = extra.automatic || {
        let roll = crate::dice::notation::roll_die(d.rng, 20);
        let natural = roll.natural().unwrap_or(1);
        let total = as_i32(natural) + bonus;
        let hit = tables::attack_hits(s.battle().options.attack, natural, total, sh.thac0, ac);
        d.emit(GameEvent::AttackRolled {
            attacker: actor.clone(),
            target: target.clone(),
            attack: w.id.clone(),
            roll,
            bonus,
            total,
            defense: Defense::Ac,
            defense_value: ac,
            outcome: if hit {
                AttackOutcome::Hit
            } else {
                AttackOutcome::Miss
            },
            modifiers: terms.into_vec(),
        });
        hit
    };
    if !hit {
        return Ok(());
    }
    // § Invulnerabilities: "even if an attack hits, damage is not rolled".
    let (_, tkit) = sheet(s, target)?;
    if !super::invulnerability::harms(&s.battle().options, kit, &w, tkit) {
        d.emit(GameEvent::Bx(BxEvent::Unharmed {
            attacker: actor.clone(),
            target: target.clone(),
            attack: w.id.clone(),
        }));
        return Ok(());
    }
    let dice = super::weapon_damage::dice(&s.battle().options, kit, &w, bare);
    // § Rolling for Damage: the weapon's dice, then Strength (melee), the rest penalty and
    // exhaustion, added to the roll so that it shows them; at least 1.
    let (mut dmg, dice_terms) = d.roll_explained(dice, &Placeholders::default(), "damage bonus")?;
    let added = Modifiers::new()
        .with("STR", if missile { 0 } else { kit.str_mod })
        .with("no rest", -tired)
        .extended(extra.damage);
    dmg.plus(added.total());
    let amount = dmg.total.max(1);
    d.emit(GameEvent::DamageRolled {
        attacker: actor.clone(),
        attack: w.id.clone(),
        roll: dmg,
        modifiers: dice_terms.extended(added).into_vec(),
    });
    if subdue {
        super::subdual::subdue(d, &tsh, actor, &w.id, target, amount);
        return Ok(());
    }
    deal(
        d,
        s,
        target,
        amount,
        DamageCause::Attack {
            attacker: actor.clone(),
            attack: w.id.clone(),
        },
    );
    disrupt(d, s, target);
    Ok(())
}

/// § Rolling for Damage, Death: at 0 hit points or less a combatant is killed — at once, or at
/// the end of a simultaneous round (§ Initiative, Ties: both sides may inflict deadly blows).
pub fn deal(d: &mut Decider, s: &Sheets, target: &CombatantId, amount: i32, cause: DamageCause) {
    let Some(mut v) = d.overlay.vitals(d.field, target) else {
        return;
    };
    if v.status != LifeStatus::Conscious {
        return;
    }
    let after = (v.current - amount.max(0)).max(0);
    d.emit(GameEvent::Damaged {
        target: target.clone(),
        cause,
        amount: amount.max(0),
        damage_type: None,
        temp_absorbed: 0,
        hp_after: Some(after),
    });
    v.current = after;
    d.overlay.set(target, v);
    if after == 0 && !s.battle().simultaneous {
        slay(d, s, target);
    }
}

/// Kills a combatant and proposes the morale checks of § When to Check Morale.
pub fn slay(d: &mut Decider, s: &Sheets, target: &CombatantId) {
    let Some(mut v) = d.overlay.vitals(d.field, target) else {
        return;
    };
    if v.status != LifeStatus::Conscious {
        return;
    }
    v.status = LifeStatus::Slain;
    d.overlay.set(target, v);
    d.emit(GameEvent::Slain {
        combatant: target.clone(),
    });
    propose_morale(d, s, v.side);
}

/// § When to Check Morale: the first death on a side, and half of it killed or incapacitated;
/// only for sides with morale ratings (monsters; retainers make loyalty checks instead).
fn propose_morale(d: &mut Decider, s: &Sheets, side: Side) {
    if super::optional_rules::morale(&s.battle().options).is_err() {
        return;
    }
    let members: Vec<CombatantId> = d
        .field
        .all()
        .filter(|f| f.c.side == side)
        .map(|f| f.c.id.clone())
        .collect();
    let mut rest = Vec::new();
    let mut down = 0;
    for id in &members {
        if up(d, s, id) && d.overlay.vitals(d.field, id).is_some_and(|v| v.current > 0) {
            if s.get(id)
                .is_some_and(|(sh, _)| sh.morale.is_some_and(|m| m < 12) && sh.morale_successes < 2)
            {
                rest.push(id.clone());
            }
        } else {
            down += 1;
        }
    }
    if rest.is_empty() {
        return;
    }
    let b = s.battle();
    let proposed = |d: &Decider, t: MoraleTrigger| {
        d.events().iter().any(|e| {
            matches!(e, GameEvent::MoraleProposed { trigger, combatants }
                if *trigger == t && combatants.first().and_then(|c| d.field.get(c)).is_some_and(|f| f.c.side == side))
        })
    };
    if !b.first_death.contains(&side) && !proposed(d, MoraleTrigger::FirstKill) {
        d.emit(GameEvent::MoraleProposed {
            trigger: MoraleTrigger::FirstKill,
            combatants: rest.clone(),
        });
    }
    if down * 2 >= members.len()
        && !b.half_down.contains(&side)
        && !proposed(d, MoraleTrigger::HalfIncapacitated)
    {
        d.emit(GameEvent::MoraleProposed {
            trigger: MoraleTrigger::HalfIncapacitated,
            combatants: rest,
        });
    }
}

// --- spells, saves, morale -----------------------------------------------------------------

/// § Spell Casting: the declared spell, the sole action of the round; a disrupted spell fails.
fn cast(d: &mut Decider, s: &Sheets, actor: &CombatantId) -> R {
    on_turn(d, actor)?;
    let (sh, _) = sheet(s, actor)?;
    super::combat_extras::may_cast(d, sh, actor)?;
    let Some(Declaration::Spell { spell }) = sh.declared.clone() else {
        return Err(no(
            ErrorCode::InvalidArgument,
            "a spell is declared before the round's initiative (§ Declare Spells and Melee \
             Movement)",
        ));
    };
    if sh.disrupted {
        return Err(no(
            ErrorCode::CannotAct,
            format!(
                "{}'s spell was disrupted and is lost (§ Disrupting Spells)",
                name(d, actor)
            ),
        ));
    }
    super::round::may_cast(d, s, actor)?;
    super::round::enter_phase(d, s, actor, OsePhase::Spells)?;
    pay(d, s, actor)?;
    d.emit(GameEvent::Bx(BxEvent::SpellCast {
        combatant: actor.clone(),
        spell,
    }));
    Ok(())
}

/// § Saving Throws: d20 + modifier ≥ the value of the category succeeds; a failed save before
/// its turn disrupts a caster that lost initiative.
fn save(d: &mut Decider, s: &Sheets, who: &CombatantId, cat: SaveCategory, modifier: i32) -> R {
    if d.field.battle.phase == Phase::Ended {
        return Err(no(ErrorCode::BattleOver, "the battle is over"));
    }
    let (sh, _) = sheet(s, who)?;
    let value = sh.saves[tables::save_index(cat)];
    if !(-10..=10).contains(&modifier) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "the modifier is within -10..=10",
        ));
    }
    if !up(d, s, who) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{} is out of the fight", name(d, who)),
        ));
    }
    let roll = crate::dice::notation::roll_die(d.rng, 20);
    let total = as_i32(roll.natural().unwrap_or(1)) + modifier;
    let success = tables::save_succeeds(total, value);
    d.emit(GameEvent::CheckRolled {
        combatant: who.clone(),
        purpose: format!(
            "save vs {}",
            match cat {
                SaveCategory::Death => "death",
                SaveCategory::Wands => "wands",
                SaveCategory::Paralysis => "paralysis",
                SaveCategory::Breath => "breath",
                SaveCategory::Spells => "spells",
            }
        ),
        roll,
        bonus: modifier,
        total,
        dc: value,
        success,
        modifiers: Modifiers::new().with("situational", modifier).into_vec(),
    });
    if !success && d.field.battle.phase == Phase::Running {
        disrupt(d, s, who);
    }
    Ok(())
}

/// § Morale Checks: one 2d6 for the group, each against its own rating (adjusted ±2, never 2
/// or 12); higher breaks (it flees), two successes mean no further checks.
fn morale(d: &mut Decider, s: &Sheets, who: &[CombatantId], adjustment: i32) -> R {
    running(d)?;
    super::optional_rules::morale(&s.battle().options)?;
    if who.is_empty() {
        return Err(no(ErrorCode::InvalidArgument, "list who checks morale"));
    }
    if !(-2..=2).contains(&adjustment) {
        return Err(no(
            ErrorCode::InvalidArgument,
            "situational adjustments are -2..=2 (§ Situational Adjustments)",
        ));
    }
    let mut seen = BTreeSet::new();
    let mut ratings = Vec::new();
    for id in who {
        if !seen.insert(id.clone()) {
            return Err(no(
                ErrorCode::InvalidArgument,
                format!("{id} is listed twice"),
            ));
        }
        let (sh, _) = sheet(s, id)?;
        let Some(rating) = sh.morale else {
            return Err(no(
                ErrorCode::InvalidTarget,
                format!(
                    "{} has no morale rating (PCs decide; retainers make loyalty checks)",
                    name(d, id)
                ),
            ));
        };
        if sh.morale_successes >= 2 {
            return Err(no(
                ErrorCode::InvalidTarget,
                format!(
                    "{} made two morale checks and fights to the death (§ Two successes)",
                    name(d, id)
                ),
            ));
        }
        if !up(d, s, id) {
            return Err(no(
                ErrorCode::InvalidTarget,
                format!("{} is out of the fight", name(d, id)),
            ));
        }
        ratings.push((id.clone(), rating));
    }
    let roll = d.roll("2d6", &Placeholders::default())?;
    let results: Vec<(CombatantId, i32, bool)> = ratings
        .into_iter()
        .map(|(id, rating)| {
            let holds = tables::morale_holds(roll.total, rating, adjustment);
            (id, rating, holds)
        })
        .collect();
    d.emit(GameEvent::Bx(BxEvent::MoraleRolled {
        roll,
        adjustment,
        results: results.clone(),
    }));
    for (id, _, holds) in results {
        if !holds {
            d.emit(GameEvent::LeftBattle {
                combatant: id,
                how: Departure::Fled,
            });
        }
    }
    Ok(())
}

/// § Searching, § Listening at Doors, § Wandering Monsters: the referee's secret d6; success on
/// `chance` or less. § Traps, Triggering Traps (`trap_trigger`): whether a trap springs, on the
/// GM's chance (the text's 2-in-6) — kept secret like the searches, so a trap that did not
/// spring is not given away; its automatic damage is the GM's (e.g. `save_for_half`). The event's roll and result are the GM's only (`GameEvent::redacted`).
/// The dice come from the secret stream (`rules::secret`), so the revealed seed does not give
/// them away: secret rolls are also allowed after the battle (searching the room after a fight).
pub(super) fn secret(
    d: &mut Decider,
    s: &Sheets,
    check: fray_protocol::ose::SecretCheck,
    who: Option<&CombatantId>,
    chance: u32,
    area: Option<&str>,
) -> R {
    let die = check.die();
    if !(1..=die).contains(&chance) {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("the chance is 1 to {die} in {die}"),
        ));
    }
    let mut chance = chance;
    if let Some(id) = who {
        let (_, kit) = sheet(s, id)?;
        // § Traps, Monsters: they "may be able to bypass traps without risk, if the referee
        // wishes" — or trigger them: anyone may spring a trap.
        if side_of(d, id)? != Side::Heroes && check != SecretCheck::TrapTrigger {
            return Err(no(
                ErrorCode::InvalidTarget,
                "searching and listening are done by characters of the party",
            ));
        }
        if check == SecretCheck::SecretDoor {
            // Basic Fantasy § Secret Doors: "characters with 15 or higher Intelligence succeed
            // on a roll of 1-2 … Elves add 1 to the range automatically"; ose § Searching for
            // Secret Doors: "Some types of adventurers may have an increased chance" (the elf
            // class: 2-in-6). The GM's chance is raised to the character's, never lowered.
            let elf = kit
                .class
                .as_deref()
                .is_some_and(|c| c.eq_ignore_ascii_case("elf"));
            let clever = s.battle().basic_fantasy && kit.int.is_some_and(|i| i >= 15);
            let own = 1 + u32::from(clever) + u32::from(elf);
            chance = chance.max(own);
        }
        if check.adds_strength() {
            // Basic Fantasy § Doors: "add the character's Strength bonus to the range".
            let range = i64::from(chance) + i64::from(kit.str_mod);
            chance = u32::try_from(range.clamp(0, i64::from(die))).unwrap_or(0);
        }
    } else if check.adds_strength() {
        return Err(no(
            ErrorCode::InvalidArgument,
            "forcing a door or bending bars is done by a character of the party",
        ));
    }
    // § Searching, "One chance: Each character can only make one attempt to search a specific
    // area or item" (Basic Fantasy § Traps: "A single character may only effectively search a
    // given area for traps once").
    if let (Some(id), Some(area)) = (who, area)
        && matches!(check, SecretCheck::SecretDoor | SecretCheck::RoomTrap)
        && s.battle()
            .exploration
            .searched
            .iter()
            .any(|(c, w, a)| *c == check && w == id && a == area)
    {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!(
                "{} has already searched {area} (one chance per character and area)",
                name(d, id)
            ),
        ));
    }
    if let (true, Some(id)) = (check.adds_strength(), who) {
        return super::doors::force(d, check, id, chance);
    }
    let roll = d.secret_die(die)?;
    let success = roll.natural().unwrap_or(die) <= chance;
    // § Dungeon Adventuring, Wandering Monsters: "Distance: Wandering monsters are encountered
    // 2d6 × 10 feet away, moving in the direction of the party."
    let distance = if success && check == SecretCheck::WanderingMonster {
        Some(d.secret_roll("2d6")?)
    } else {
        None
    };
    d.emit(GameEvent::SecretRolled {
        check,
        combatant: who.cloned(),
        chance,
        roll: Some(roll),
        success: Some(success),
        area: area.map(str::to_owned),
        distance,
        turns: search_turns(s, check, area),
    });
    Ok(())
}

/// § Resting: "If characters press on without resting, they suffer a penalty of -1 to attack
/// and damage rolls until they have rested for one turn" — the party (heroes) after six or more
/// exploration turns without a rest.
fn tired(d: &Decider, s: &Sheets, actor: &CombatantId) -> i32 {
    let heroes = d.field.get(actor).is_some_and(|f| f.c.side == Side::Heroes);
    // OSE § Wilderness Adventuring, Resting: the same −1 after six days of travel without a
    // day of rest (`wilderness.rs::weary`; one penalty, not two).
    i32::from(heroes && (s.battle().exploration.since_rest >= 6 || super::wilderness::weary(d, s)))
}

/// § Dungeon Adventuring, Sequence of Play Per Turn: 1. the wandering-monster check (the
/// referee's secret d6, `wandering` in six; § Wandering Monsters "usually 1-in-6"), 2.–3. the
/// party's actions and the description happen at the table, 4. end of turn: light burns down
/// (one turn off every burning light; those at none burn out), the turns since the last rest
/// count up (§ Resting: one turn every hour); three turns of rest end exhaustion
/// (`exhaustion.rs`).
fn exploration_turn(d: &mut Decider, s: &Sheets, wandering: Option<u32>, rest: bool) -> R {
    match d.field.battle.phase {
        Phase::Setup => {}
        Phase::Running => {
            return Err(no(
                ErrorCode::BattleAlreadyStarted,
                "an encounter is being fought: exploration turns pass outside it",
            ));
        }
        Phase::Ended => {
            return Err(no(ErrorCode::BattleOver, "the session is over"));
        }
    }
    if let Some(chance) = wandering {
        secret(
            d,
            s,
            fray_protocol::ose::SecretCheck::WanderingMonster,
            None,
            chance,
            None,
        )?;
    }
    let ex = s.battle().exploration;
    let since_rest = if rest {
        0
    } else {
        ex.since_rest.saturating_add(1)
    };
    d.emit(GameEvent::Bx(BxEvent::ExplorationTurnPassed {
        turn: ex.turn.saturating_add(1),
        rested: rest,
        since_rest,
    }));
    for l in ex.lights.iter().filter(|l| l.turns_left <= 1) {
        d.emit(GameEvent::Bx(BxEvent::LightBurnedOut {
            carrier: l.carrier.clone(),
            source: l.source,
        }));
    }
    super::durations::end_of_turn(d, s);
    super::exhaustion::rest(d, s, rest);
    Ok(())
}

/// Whether `carrier` may light a `source` now: the session is not over, it is a character who
/// is up, and it does not already carry that kind of light burning (`light_source`,
/// `light_candle`).
pub(super) fn may_light(
    d: &mut Decider,
    s: &Sheets,
    carrier: &CombatantId,
    source: fray_protocol::ose::LightSource,
) -> R {
    if d.field.battle.phase == Phase::Ended {
        return Err(no(ErrorCode::BattleOver, "the session is over"));
    }
    sheet(s, carrier)?;
    if !up(d, s, carrier) {
        return Err(no(
            ErrorCode::InvalidTarget,
            format!("{} cannot light anything", name(d, carrier)),
        ));
    }
    if s.battle()
        .exploration
        .lights
        .iter()
        .any(|l| &l.carrier == carrier && l.source == source)
    {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!(
                "{} already carries a burning {}",
                name(d, carrier),
                format!("{source:?}").to_lowercase()
            ),
        ));
    }
    Ok(())
}

/// § Light (Old-School Essentials: a torch 6 turns, a flask of oil 24 — its equipment list) or
/// Basic Fantasy § Light ("Normal torches burn for 1d4+4 turns, while a flask of oil in a
/// lantern will burn for 18+1d6 turns"), by the session's light rule.
fn light(
    d: &mut Decider,
    s: &Sheets,
    carrier: &CombatantId,
    source: fray_protocol::ose::LightSource,
) -> R {
    use fray_protocol::ose::{LightRule, LightSource};
    may_light(d, s, carrier, source)?;
    if source == LightSource::Candle {
        return Err(no(
            ErrorCode::InvalidArgument,
            "a candle is lit with light_candle (its height sets its time)",
        ));
    }
    let (roll, turns) = match (s.battle().options.light, source) {
        (_, LightSource::Candle) => (None, 0),
        (LightRule::Ose, LightSource::Torch) => (None, 6),
        (LightRule::Ose, LightSource::Lantern) => (None, 24),
        (LightRule::BasicFantasy, src) => {
            let (die, base) = match src {
                LightSource::Torch => (4, 4),
                LightSource::Lantern | LightSource::Candle => (6, 18),
            };
            let roll = crate::dice::notation::roll_die(d.rng, die);
            let turns = roll.natural().unwrap_or(1) + base;
            (Some(roll), turns)
        }
    };
    d.emit(GameEvent::Bx(BxEvent::LightLit {
        carrier: carrier.clone(),
        source,
        roll,
        turns,
    }));
    Ok(())
}

/// How many exploration turns a search takes: ose § Searching ("Time: Searching takes one
/// turn"); Basic Fantasy § Secret Doors ("if the first and second searchers fail, the next
/// searcher must take two turns to search, and all subsequent searches of the area require an
/// hour"), counted over the named area's earlier secret-door searches. Listening, doors and the
/// wandering check: 0 (the texts give them no time in turns).
fn search_turns(s: &Sheets, check: SecretCheck, area: Option<&str>) -> u32 {
    let b = s.battle();
    match check {
        SecretCheck::RoomTrap => 1,
        SecretCheck::SecretDoor => {
            let before = area.map_or(0, |a| {
                b.exploration
                    .searched
                    .iter()
                    .filter(|(c, _, x)| *c == SecretCheck::SecretDoor && x == a)
                    .count()
            });
            match (b.basic_fantasy, before) {
                (false, _) | (true, 0 | 1) => 1,
                (true, 2) => 2,
                (true, _) => 6,
            }
        }
        _ => 0,
    }
}

/// Putting a light out (§ Light and Surprise: a side without light may surprise): refused when
/// the character carries no such burning light.
fn douse(
    d: &mut Decider,
    s: &Sheets,
    carrier: &CombatantId,
    source: fray_protocol::ose::LightSource,
) -> R {
    if d.field.battle.phase == Phase::Ended {
        return Err(no(ErrorCode::BattleOver, "the session is over"));
    }
    sheet(s, carrier)?;
    if !s
        .battle()
        .exploration
        .lights
        .iter()
        .any(|l| &l.carrier == carrier && l.source == source)
    {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("{} carries no burning {source:?}", name(d, carrier)).to_lowercase(),
        ));
    }
    d.emit(GameEvent::Bx(BxEvent::LightDoused {
        carrier: carrier.clone(),
        source,
    }));
    Ok(())
}
