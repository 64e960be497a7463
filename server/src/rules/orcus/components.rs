//! Orcus's own components and resources in a session world: the grid part of each combatant,
//! its powers, and the battle map.

use bevy_ecs::prelude::*;

/// Orcus: the grid part of a combatant (place, size, speed, Fortitude/Reflex/Will, action
/// points, opportunity and immediate actions used, rally).
#[derive(Component, Debug, Clone)]
pub struct Grid(pub fray_protocol::grid::GridState);

/// Orcus: a combatant's powers and its fixed damage traits.
#[derive(Component, Debug, Clone)]
pub struct OrcusKit(pub crate::content::model::OrcusSpec);

/// The encounter's battle map (`None` if it has none). Only Orcus worlds have this resource.
#[derive(Resource, Debug, Clone, Default)]
pub struct BattleMap(pub Option<fray_protocol::grid::MapState>);
