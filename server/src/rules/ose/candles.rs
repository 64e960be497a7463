//! Basic Fantasy § Light: candles (`light_candle`) — "A candle will shed light over a 5′ radius,
//! with dim light extending 5′ further … taper candles such as are used for illumination will
//! burn about 3 turns per inch of height". A lit candle is a burning light like a torch: it
//! burns down with the exploration turns, lights the dark (`darkness.rs`) and is doused with
//! `douse_light` `candle`.

use super::Sheets;
use super::commands::{R, no};
use crate::rules::common::decider::Decider;
use fray_protocol::BxEvent;
use fray_protocol::ErrorCode;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::CombatantId;
use fray_protocol::ose::{LightRule, LightSource};
use fray_protocol::state::Phase;

/// A taper candle's height: 1..=24 inches.
const MAX_INCHES: u32 = 24;

/// "about 3 turns per inch of height".
pub fn candle_turns(inches: u32) -> u32 {
    inches.saturating_mul(3)
}

/// `light_candle`: refused under the `light` option `ose` (the OSE text gives no candle), for
/// a height outside 1..=24 inches, a character down, or one already carrying a lit candle.
pub fn light(d: &mut Decider, s: &Sheets, carrier: &CombatantId, inches: u32) -> R {
    if d.field.battle.phase == Phase::Ended {
        return Err(no(ErrorCode::BattleOver, "the session is over"));
    }
    if s.battle().options.light != LightRule::BasicFantasy {
        return Err(no(
            ErrorCode::InvalidArgument,
            "candles are Basic Fantasy's (§ Light): the session's `light` option is `ose`",
        ));
    }
    if !(1..=MAX_INCHES).contains(&inches) {
        return Err(no(
            ErrorCode::InvalidArgument,
            format!("a taper candle is 1 to {MAX_INCHES} inches high"),
        ));
    }
    super::commands::may_light(d, s, carrier, LightSource::Candle)?;
    d.emit(GameEvent::Bx(BxEvent::LightLit {
        carrier: carrier.clone(),
        source: LightSource::Candle,
        roll: None,
        turns: candle_turns(inches),
    }));
    Ok(())
}
