//! Rulesets. Each is a self-contained module that adds its decide systems to a session's
//! schedule; what every ruleset shares to decide (the decide wrapper, the read-only views, the
//! guards, battles, the seed reveal) is `common`, which names no ruleset; no ruleset imports
//! another. The engine, content and the session know rulesets only through `registry`.

pub mod basic_fantasy;
pub mod common;
pub mod five_torches;
pub mod orcus;
pub mod ose;
pub mod registry;

pub mod thirteenth_age;

pub use registry::{
    RULESETS, Ruleset, builtin_encounters, builtin_files, ids, load_encounter, ruleset, version,
};
