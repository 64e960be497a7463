//! Old-School Essentials (`ose-adventuring.txt`): the text's optional rules that are session
//! options with the text's default — off unless the group adopts them (the encounter's
//! `[options]`). § Morale (Optional Rule) and § Monster Morale (Optional Rule, "See Morale"):
//! the option `morale`; § Subduing (Optional Rule): the option `subduing`. Basic Fantasy
//! sessions always use morale (`content::ose::load_encounter`).

use super::commands::{R, no};
use fray_protocol::ErrorCode;
use fray_protocol::ose::OseOptions;

/// § Morale (Optional Rule): "In combat, the referee decides whether monsters or NPCs surrender
/// or run away. The following system may be utilized." Without the option no check is proposed
/// and `ose_morale` is refused (`option_off`) — flight is the referee's ruling.
pub fn morale(options: &OseOptions) -> R {
    if options.morale {
        Ok(())
    } else {
        Err(no(
            ErrorCode::OptionOff,
            "morale checks are an optional rule this session has not adopted (§ Morale \
             (Optional Rule); the encounter's option `morale = true`)",
        ))
    }
}

/// § Subduing (Optional Rule): an attack announced without the intent to kill (`knock_out`)
/// is refused (`option_off`) unless the session adopted the rule.
pub fn subduing(options: &OseOptions, subdue: bool) -> R {
    if subdue && !options.subduing {
        Err(no(
            ErrorCode::OptionOff,
            "subduing is an optional rule this session has not adopted (§ Subduing (Optional \
             Rule); the encounter's option `subduing = true`)",
        ))
    } else {
        Ok(())
    }
}
