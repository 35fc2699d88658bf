//! Symbolic sets of continuous valuations. `zone` is the DBM library.

pub mod zone;
