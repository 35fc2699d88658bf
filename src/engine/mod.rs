//! The engines, and what a check of one property ends with.
//!
//! No engine exists yet: every property is answered `unknown` with reason
//! `unsupported`, naming the engine FORMAT.md routes it to. Reachability
//! (`reach`) lands with the zone-graph issue.

use crate::model::formula::EngineKind;
use crate::model::types::{Model, Property};

/// Why a check ended without a verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unknown {
    StateLimit,
    MemoryLimit,
    Timeout,
    Interrupted,
    /// What is missing, in a sentence.
    Unsupported(String),
}

impl Unknown {
    /// The JSON `reason`.
    pub fn reason(&self) -> &'static str {
        match self {
            Unknown::StateLimit => "state-limit",
            Unknown::MemoryLimit => "memory-limit",
            Unknown::Timeout => "timeout",
            Unknown::Interrupted => "interrupted",
            Unknown::Unsupported(_) => "unsupported",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Satisfied,
    Violated,
    Unknown(Unknown),
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    pub engine: EngineKind,
}

/// Checks one property of a loaded model.
pub fn check(model: &Model, property: &Property) -> Outcome {
    let engine = property.formula.engine();
    let missing = if property.synth {
        "parametric synthesis is not supported yet".to_string()
    } else if model.hybrid {
        "hybrid models (continuous variables, rates) need the polyhedra engines, not supported yet".to_string()
    } else if !model.params.is_empty() {
        "models with timing parameters are not supported yet".to_string()
    } else {
        format!("the `{}` engine is not built yet", engine.name())
    };
    Outcome { verdict: Verdict::Unknown(Unknown::Unsupported(missing)), engine }
}
