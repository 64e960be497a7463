//! Fray server library: the engine, the rulesets, dice, content, the event log, sessions and
//! the network front end. The `fray-server` binary is a thin wrapper around [`net::serve`].
//!
//! See `ARCHITECTURE.md` at the repository root for the codemap and invariants.

pub mod auto;
pub mod content;
pub mod demo;
pub mod dice;
pub mod ecs;
pub mod engine;
pub mod log;
pub mod net;
pub mod replay;
pub mod rewind;
pub mod rules;
pub mod seats;
pub mod session;
pub mod talk;
