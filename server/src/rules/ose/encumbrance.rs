//! Basic Fantasy § Movement and Encumbrance and § Carrying Capacity: a character's load (armor
//! included) is light or heavy by its STR and race; its movement per round follows the armor
//! and load table (`set_encumbrance`). Old-School Essentials § Optional Rule: Encumbrance
//! (session option `encumbrance`): Option 1 by armor and treasure, Option 2 by the coins of
//! weight, the maximum load of 1,600 coins and the Treasure Encumbrance table.

use super::Sheets;
use super::commands::{name, no, sheet, side_of};
use crate::content::model::{OseLoad, OseSpec};
use crate::rules::common::decider::Decider;
use fray_protocol::BxEvent;
use fray_protocol::bf::ArmorType;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::{CombatantId, Side};
use fray_protocol::ose::EncumbranceRule;
use fray_protocol::state::Phase;
use fray_protocol::{ErrorCode, Rejection};

/// § Movement and Encumbrance: feet per round by armor and load.
pub fn movement(armor: ArmorType, heavy: bool) -> i32 {
    match (armor, heavy) {
        (ArmorType::None, false) => 40,
        (ArmorType::None, true) | (ArmorType::Leather, false) => 30,
        (ArmorType::Leather, true) | (ArmorType::Metal, false) => 20,
        (ArmorType::Metal, true) => 10,
    }
}

/// `set_encumbrance`: refused for a monster, or a load above the heavy-load capacity.
pub fn set(
    d: &mut Decider,
    s: &Sheets,
    who: &CombatantId,
    armor: ArmorType,
    load: u32,
    treasure: bool,
) -> Result<(), Rejection> {
    if d.field.battle.phase == Phase::Ended {
        return Err(no(ErrorCode::BattleOver, "the session is over"));
    }
    if super::wilderness::is_ose(d) {
        return set_ose(d, s, who, armor, load, treasure);
    }
    let (_, kit) = sheet(s, who)?;
    if side_of(d, who)? != Side::Heroes || kit.bf.str == 0 {
        return Err(no(
            ErrorCode::InvalidTarget,
            "encumbrance is tracked for characters of the party",
        ));
    }
    let (light, heavy) = super::tables::bf_carrying_capacity(kit.bf.str, kit.bf.halfling);
    let load_i = i32::try_from(load).unwrap_or(i32::MAX);
    if load_i > heavy {
        return Err(no(
            ErrorCode::Overloaded,
            format!(
                "{} can carry at most {heavy} lb (§ Carrying Capacity)",
                name(d, who)
            ),
        ));
    }
    let heavy_load = load_i > light;
    d.emit(GameEvent::Bx(BxEvent::EncumbranceSet {
        combatant: who.clone(),
        armor,
        load,
        heavy: heavy_load,
        movement: movement(armor, heavy_load),
        treasure: false,
    }));
    Ok(())
}

// ---- Old-School Essentials § Optional Rule: Encumbrance (`ose` sessions) ----

/// OSE § Optional Rule: Encumbrance, Maximum load: "The maximum load any character can carry
/// is 1,600 coins of weight. Characters carrying more than this cannot move."
pub const MAX_LOAD: u32 = 1600;

/// OSE § Option 1 and § Option 2: the base movement rate (feet per turn) for a character's
/// armor and load under the session's option; `None` when it carries more than the maximum
/// load (it cannot move), under either option. Option 1 weighs the treasure (`coins`) only
/// against the maximum load and reads `treasure` (the referee's "significant amount") for the
/// rate; Option 2 reads the weight only (armor and treasure are in it).
pub fn ose_base_rate(rule: EncumbranceRule, load: &OseLoad) -> Option<i32> {
    match rule {
        EncumbranceRule::None => Some(i32::MAX),
        EncumbranceRule::Basic => {
            if load.coins > MAX_LOAD {
                return None;
            }
            let armour = match load.armor {
                ArmorType::None => 0,
                ArmorType::Leather => 1,
                ArmorType::Metal => 2,
            };
            Some(super::tables::basic_encumbrance_rate(armour, load.treasure))
        }
        EncumbranceRule::Detailed => super::tables::detailed_encumbrance_rate(load.coins),
    }
}

/// A combatant's movement rate per round: Basic Fantasy's (or OSE's) `set_encumbrance` when
/// set; else, in a `basic-fantasy` session, a character's content `gear` and `armor` by the
/// armor and load table; else, in an `ose` session with the `encumbrance` option in play, a character's content
/// `armor` and `load` by the option (never above its base `movement`: *interpretation*, the
/// table slows, it does not speed up); else a third of its base `movement`. 0: it cannot move.
pub fn per_round(s: &Sheets, id: &CombatantId, kit: &OseSpec) -> i32 {
    let b = s.battle();
    if let Some((_, m)) = b.bf.movement.iter().find(|(c, _)| c == id) {
        return *m;
    }
    let rule = b.options.encumbrance;
    if b.basic_fantasy
        && let Some(pounds) = kit.bf.gear_pounds
    {
        // Basic Fantasy § Movement and Encumbrance: the content's gear is the load, worn with
        // its `armor`, until the GM's `set_encumbrance`.
        let (light, _) = super::tables::bf_carrying_capacity(kit.bf.str, kit.bf.halfling);
        let heavy = i32::try_from(pounds).unwrap_or(i32::MAX) > light;
        return movement(kit.load.armor, heavy);
    }
    if b.basic_fantasy || rule == EncumbranceRule::None || kit.class.is_none() {
        return super::tables::encounter_move(kit.movement);
    }
    ose_base_rate(rule, &kit.load).map_or(0, |r| super::tables::encounter_move(r.min(kit.movement)))
}

/// OSE `set_encumbrance` (in an `ose` session): refused with `encumbrance_off` when the
/// option is `none`; a load over 1,600 coins is accepted — the character then cannot move
/// (`heavy`, movement 0).
fn set_ose(
    d: &mut Decider,
    s: &Sheets,
    who: &CombatantId,
    armor: ArmorType,
    load: u32,
    treasure: bool,
) -> Result<(), Rejection> {
    let rule = s.battle().options.encumbrance;
    if rule == EncumbranceRule::None {
        return Err(no(
            ErrorCode::EncumbranceOff,
            "encumbrance is an optional rule: the session option `encumbrance` is `none` \
             (§ Optional Rule: Encumbrance)",
        ));
    }
    let (_, kit) = sheet(s, who)?;
    if side_of(d, who)? != Side::Heroes || kit.class.is_none() {
        return Err(no(
            ErrorCode::InvalidTarget,
            "encumbrance is tracked for characters of the party",
        ));
    }
    let spec = OseLoad {
        armor,
        coins: load,
        treasure,
    };
    let movement = ose_base_rate(rule, &spec)
        .map_or(0, |r| super::tables::encounter_move(r.min(kit.movement)));
    d.emit(GameEvent::Bx(BxEvent::EncumbranceSet {
        combatant: who.clone(),
        armor,
        load,
        heavy: load > MAX_LOAD,
        movement,
        treasure,
    }));
    Ok(())
}

/// § Optional Rule: Encumbrance, Maximum load: refused with `cannot_move` for a character
/// whose rate is 0 (it carries more than 1,600 coins).
pub fn may_move(
    d: &Decider,
    s: &Sheets,
    who: &CombatantId,
    kit: &OseSpec,
) -> Result<(), Rejection> {
    if per_round(s, who, kit) == 0 {
        return Err(no(
            ErrorCode::CannotMove,
            format!(
                "{} carries more than {MAX_LOAD} coins of weight and cannot move (§ Optional \
                 Rule: Encumbrance, Maximum load)",
                name(d, who)
            ),
        ));
    }
    Ok(())
}
