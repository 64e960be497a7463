//! 13th Age's parts of a session world (its registry row's `parts`). Its state is all in the
//! shared components; what is its own is how a combatant's attacks are offered to clients.

use crate::content::model::AttackSpec;
use crate::ecs::components::Arsenal;
use crate::rules::registry::Parts;
use bevy_ecs::prelude::*;
use fray_protocol::state::AttackSummary;

/// 13th Age's row entry.
pub(crate) const PARTS: Parts = Parts {
    attacks,
    ..Parts::NONE
};

/// A combatant's attacks (`Parts::attacks`).
fn attacks(e: &EntityRef<'_>) -> Vec<AttackSummary> {
    e.get::<Arsenal>()
        .map(|a| summaries(&a.0))
        .unwrap_or_default()
}

/// What a client needs to offer a 13th Age combatant's attacks.
fn summaries(attacks: &[AttackSpec]) -> Vec<AttackSummary> {
    attacks
        .iter()
        .map(|a| AttackSummary {
            id: a.id.clone(),
            name: a.name.clone(),
            range: a.reach.name().into(),
            vs: a.vs,
            max_targets: a.max_targets,
            basic: a.basic,
            spell: a.spell,
            maneuvers: a.maneuvers.iter().map(|m| m.id.clone()).collect(),
            usage: super::usage_name(a.usage),
            action: if a.interrupt {
                "interrupt"
            } else if a.quick {
                "quick"
            } else {
                "standard"
            }
            .into(),
            category: "attack".into(),
            tags: Vec::new(),
        })
        .collect()
}
