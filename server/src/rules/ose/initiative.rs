//! Old-School Essentials (`ose-adventuring.txt`) § Individual Initiative (optional rule,
//! session option `initiative = "individual"`): each acting combatant rolls a d6 + its DEX
//! modifier each round (monsters: no modifier — the referee's speed modifier is the GM's to
//! narrate), highest first; *interpretation*: ties keep Fray's fixed id order (no reroll), and
//! slow weapons still act last (§ Slow Weapons).

use super::Sheets;
use crate::rules::common::decider::Decider;
use fray_protocol::event::GameEvent;
use fray_protocol::ids::{CombatantId, Side};

/// Rolls each acting combatant's initiative and emits the round's order.
pub fn individual(d: &mut Decider, s: &Sheets, acting: &[Side]) {
    let ids: Vec<CombatantId> = d
        .field
        .all()
        .filter(|f| acting.contains(&f.c.side))
        .map(|f| f.c.id.clone())
        .collect();
    let mut totals = Vec::new();
    for id in ids {
        let bonus = s.get(&id).map_or(0, |(_, k)| k.dex_mod);
        let roll = crate::dice::notation::roll_die(d.rng, 6);
        let total = i32::try_from(roll.natural().unwrap_or(1)).unwrap_or(1) + bonus;
        d.emit(GameEvent::InitiativeRolled {
            combatants: vec![id.clone()],
            roll,
            bonus,
            total,
            modifiers: fray_protocol::roll::Modifiers::new()
                .with("DEX", bonus)
                .into_vec(),
        });
        totals.push((id, total));
    }
    // Stable sort: equal totals keep the id order.
    totals.sort_by_key(|t| std::cmp::Reverse(t.1));
    super::turns::emit_order(d, s, totals.into_iter().map(|(id, _)| id).collect());
}
