//! kairos: a model checker for networks of timed and linear hybrid automata.
//!
//! Layers, each importing only from those listed before it (ARCHITECTURE in
//! the README): `syntax` → `model` → `network` → `domain` → `semantics` →
//! `engine` → `report` → `cli`.

pub mod diag;
pub mod domain;
pub mod model;
pub mod syntax;
