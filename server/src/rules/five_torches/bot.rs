//! Five Torches Deep's built-in policy (the demo bots; the server playing monsters): simple and
//! legal. The GM starts the battle; on its turn a combatant attacks the first enemy still in
//! the fight (standing, not departed) with its first attack — closing to it first when the
//! attack is a close one and it is not engaged with it (`move` with `engage`, its move action)
//! — and ends its turn. After the battle a PC still up stabilizes a dying ally (§ Stabilizing &
//! Injuries) while the GM waits; then the GM goes on to the next battle or ends the session.

use crate::rules::common::actions::attack;
use crate::rules::common::policy::{controls, my_turn, outside_battle};
use fray_protocol::command::AttackMode;
use fray_protocol::ids::{Role, Side};
use fray_protocol::state::{CombatantState, LifeStatus, Phase};
use fray_protocol::{Command, SessionState};

/// An enemy still in the fight: conscious and not departed (fled or surrendered).
fn in_fight(c: &CombatantState) -> bool {
    c.status == LifeStatus::Conscious && c.ftd.as_ref().is_none_or(|f| f.departed.is_none())
}

/// The policy's next command for `role`, if any.
pub fn choose(role: &Role, s: &SessionState, _salt: u64) -> Option<Command> {
    if let Some(help) = stabilize_after_battle(role, s) {
        return help;
    }
    if let Some(outside) = outside_battle(role, s) {
        return outside;
    }
    let me = my_turn(role, s)?;
    let end = Command::EndTurn {
        actor: me.id.clone(),
    };
    let foe = s
        .combatants
        .iter()
        .find(|c| c.side != me.side && in_fight(c));
    let (Some(foe), Some(a), true) = (foe, me.attacks.first(), me.actions.standard) else {
        return Some(end);
    };
    if a.range == "close" && !me.engaged_with.contains(&foe.id) {
        if !me.actions.move_action {
            return Some(end);
        }
        return Some(Command::Move {
            actor: me.id.clone(),
            engage: Some(foe.id.clone()),
            far_away: false,
        });
    }
    Some(attack(&me.id, &a.id, &foe.id, AttackMode::Standard))
}

/// After a battle that goes on (rests), while a PC lies incapacitated: the first PC `role` plays
/// who is up stabilizes it (`Some(Some)`), or `role` waits (`Some(None)`: the GM, or a seat
/// with no PC up); `None` when no PC is dying.
fn stabilize_after_battle(role: &Role, s: &SessionState) -> Option<Option<Command>> {
    if s.phase != Phase::Ended || s.seed_revealed || s.session_over {
        return None;
    }
    let hero = |c: &&CombatantState| c.side == Side::Heroes;
    let dying = s
        .combatants
        .iter()
        .filter(hero)
        .find(|c| c.status == LifeStatus::Unconscious)?;
    let helper = s
        .combatants
        .iter()
        .filter(hero)
        .find(|c| c.status == LifeStatus::Conscious && controls(role, s, &c.id));
    Some(helper.map(|h| Command::Stabilize {
        actor: h.id.clone(),
        target: dying.id.clone(),
    }))
}
