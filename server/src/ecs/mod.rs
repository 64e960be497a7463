//! The session world's shared data model: the components and resources every ruleset's world
//! has (`components`), and how `apply` reaches them by stable id (`access`, with the folds
//! several rulesets share). The engine and every ruleset import from here; it imports neither,
//! so the rulesets need nothing from `engine` (which consults them through their registry rows).

pub mod access;
pub mod components;
