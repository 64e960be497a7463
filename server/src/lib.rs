//! Fray server library.
pub mod replay;
