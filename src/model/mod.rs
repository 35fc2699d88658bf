//! From the YAML tree to a resolved, typed model: declarations, name
//! resolution, types, constant folding, and every diagnostic on the way.

pub mod decl;
pub mod reader;
