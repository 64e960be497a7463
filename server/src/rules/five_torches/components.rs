//! Five Torches Deep's own components and resources in a session world: each combatant's sheet
//! and stat block, and the battle state.

use bevy_ecs::prelude::*;

/// Five Torches Deep: a combatant's live numbers (ability scores, grants, injuries, departure).
#[derive(Component, Debug, Clone)]
pub struct FtdSheet(pub fray_protocol::ftd::FtdCombatant);

/// Five Torches Deep: a combatant's fixed stat block (attacks, proficiencies).
#[derive(Component, Debug, Clone)]
pub struct FtdKit(pub crate::content::model::FtdSpec);

/// Five Torches Deep battle state (always `Some`: only this ruleset's worlds have the resource).
#[derive(Resource, Debug, Clone, Default)]
pub struct FtdField(pub Option<fray_protocol::ftd::FtdBattle>);
