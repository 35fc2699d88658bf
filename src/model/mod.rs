//! From the YAML tree to a resolved, typed model: declarations, name
//! resolution, types, constant folding, and every diagnostic on the way.

pub mod check;
pub mod decl;
pub mod fold;
pub mod formula;
pub mod load;
pub mod reader;
pub mod typed;
pub mod types;

/// Largest absolute value of a clock bound (FORMAT.md section 2).
pub const MAX_CLOCK_BOUND: i64 = 1 << 28;
