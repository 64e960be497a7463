//! The B/X core's own components and resources in a session world (Old-School Essentials and
//! Basic Fantasy): each combatant's sheet and stat block, and the battle state.

use bevy_ecs::prelude::*;

/// Old-School Essentials: a combatant's live numbers (morale successes, declarations, flight).
#[derive(Component, Debug, Clone)]
pub struct OseSheet(pub fray_protocol::ose::OseCombatant);

/// Old-School Essentials: a combatant's fixed stat block (THAC0, saves, weapons).
#[derive(Component, Debug, Clone)]
pub struct OseKit(pub crate::content::model::OseSpec);

/// Old-School Essentials battle state (always `Some`: only B/X worlds have the resource).
#[derive(Resource, Debug, Clone, Default)]
pub struct OseField(pub Option<fray_protocol::ose::OseBattle>);
