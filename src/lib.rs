//! kairos: a model checker for networks of timed and linear hybrid automata.
//!
//! Layers, each importing only from those listed before it (see
//! ARCHITECTURE.md): `syntax` → `model` → `network` → `domain` → `engine` →
//! `report` → `input` → `cli`; `observer` (bounded-response observers) sits
//! between `network` and `engine`; `import` (other tools' formats) feeds
//! `input`, the pipeline from paths to a checked model. `diag`
//! (diagnostics) is shared by all.

pub mod bdd;
pub mod cli;
pub mod diag;
pub mod domain;
pub mod engine;
pub mod import;
pub mod input;
pub mod model;
pub mod network;
pub mod observer;
pub mod report;
pub mod semantics;
pub mod syntax;
pub mod trace;
