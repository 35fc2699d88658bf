//! Symbolic sets of continuous valuations: `zone` is the DBM library,
//! `federation` unions of zones.

pub mod federation;
pub mod zone;
