//! Parametric synthesis: the exact set of timing-parameter valuations for
//! which `E<> φ` or `A[] φ` holds (φ a state formula).
//!
//! ## Parametric zones
//! The parameters become dimensions (`lift`): constant (rate 0), never
//! assigned, initially anywhere in the box `B` of the model's bounds. The
//! forward engine on exact polyhedra then explores symbolic states
//! `(ℓ, Z)` with `Z` a set of (valuation, parameter) points, merging a new
//! state into a stored one of the same discrete state that includes it, as
//! IMITATOR does: inclusion loses no reachable point.
//!
//! ## EF and AG
//! Write `Reach(v)` for the states reachable under parameter valuation
//! `v`. Because a run never changes the parameters, `(ℓ, x, v)` is in a
//! reachable symbolic state iff `(ℓ, x)` is in `Reach(v)`, and the union of
//! the explored symbolic states is exactly `{(s, v) | s ∈ Reach(v)}` once
//! the waiting list is empty (inclusion merging only drops states whose
//! points are already stored). Hence
//!   `EF(φ) = {v ∈ B | ∃ s ∈ Reach(v), s ⊨ φ} = ⋃ { π_P(Z ∩ ⟦φ⟧) }`,
//! the union over explored states of the projections (Fourier–Motzkin
//! elimination of every non-parameter dimension) of their φ-part, and
//! `AG(φ) = B \ EF(¬φ)` since `A[] φ` fails under `v` iff some state of
//! `Reach(v)` violates φ. Both are exact when the exploration terminates.
//! When a limit stops it, the union found so far is a subset of `EF`
//! (an under-approximation) and `B` minus it a superset of `AG` (an
//! over-approximation); `exact` is then false and `bound` says which.

mod lift;
mod parse;
mod set;
mod witness;

use crate::diag::Diagnostic;
use crate::domain::federation::Federation;
use crate::domain::poly::{Constraint, Poly, Q};
use crate::engine::reach::{self, Cover, End};
use crate::engine::{Options, Stats, Unknown};
use crate::model::formula::Formula;
use crate::model::types::{Model, Property};
use crate::network::StateFormula;
use crate::network::linear_ratio as ratio;
use crate::semantics::{Abstraction, ZoneGraph, ZoneState};
use crate::syntax::ast::PathOp;

pub use parse::parse;
pub use set::{ParamSet, constraint_text};
pub use witness::{point_in, point_text};

/// Which side of the exact set a stopped search gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Approximation {
    Under,
    Over,
}

impl Approximation {
    pub fn name(self) -> &'static str {
        match self {
            Approximation::Under => "under-approximated",
            Approximation::Over => "over-approximated",
        }
    }
}

/// What synthesis ends with.
#[derive(Debug)]
pub enum Synthesis {
    Done {
        set: ParamSet,
        /// `None`: exact; else the side, and the limit that stopped it.
        approximation: Option<(Approximation, Unknown)>,
        stats: Stats,
    },
    /// A shape or model synthesis does not take, said in a sentence.
    Unsupported(String),
    /// A model error: loading diagnostics or a run-time error.
    Error(String),
}

/// The parameters' names, in declaration order (the dimensions of sets).
pub fn names(model: &Model) -> Vec<String> {
    model.params.iter().map(|p| p.name.clone()).collect()
}

/// Per parameter, its bounds. `Err`: an unbounded parameter.
pub fn box_of(model: &Model) -> Result<Vec<(Q, Q)>, String> {
    model
        .params
        .iter()
        .map(|p| match (p.min, p.max) {
            (Some(lo), Some(hi)) => Ok((ratio(lo), ratio(hi))),
            _ => Err(p.name.clone()),
        })
        .collect()
}

/// The box of the parameters' bounds. `Err`: an unbounded parameter.
pub fn bounds(model: &Model) -> Result<Poly, String> {
    Ok(Poly::boxed(&box_of(model)?))
}

/// The valuations of the model's parameters for which `property` holds.
pub fn synthesise(model: &Model, property: &Property, options: &Options) -> Synthesis {
    let (negate, arg) = match &property.formula {
        Formula::Path { op: PathOp::EF, bound: None, arg } if arg.is_state() => (false, arg),
        Formula::Path { op: PathOp::AG, bound: None, arg } if arg.is_state() => (true, arg),
        _ => return Synthesis::Unsupported("synthesis answers `E<> φ` and `A[] φ` for state formulas φ".into()),
    };
    if model.params.is_empty() {
        return Synthesis::Unsupported("the model has no timing parameters to synthesise".into());
    }
    let unbounded = |p: String| Synthesis::Unsupported(format!("parameter `{p}` needs bounds `{{min, max}}`"));
    let bounds = match bounds(model) {
        Ok(b) => b,
        Err(p) => return unbounded(p),
    };
    let (lifted, lifted_property) = match lift::lift(model, property) {
        Ok(l) => l,
        Err(p) => return unbounded(p),
    };
    let arg = match &lifted_property.formula {
        Formula::Path { arg, .. } => arg,
        _ => unreachable!("lifting keeps the formula's shape, checked above: {arg:?}"),
    };
    let mut net = match crate::network::build::build(&lifted) {
        Ok(n) => n,
        Err(d) => {
            if crate::diag::only_unsupported(&d) {
                let at =
                    |d: &Diagnostic| format!("{}:{}:{}: {}", d.loc.file, d.loc.pos.line, d.loc.pos.column, d.message);
                return Synthesis::Unsupported(d.iter().map(at).collect::<Vec<_>>().join("; "));
            }
            return Synthesis::Error(d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("; "));
        }
    };
    let phi = match net.state_formula(&lifted_property, arg) {
        Ok(f) => f,
        Err(d) => return Synthesis::Unsupported(d.message),
    };
    net.add_formula_bounds(&phi);
    let goal = if negate { StateFormula::Not(Box::new(phi)) } else { phi };
    let n = net.dim() - 1;
    let params = model.params.len();
    let mut found = ParamSet::empty(bounds);
    let mut zg = ZoneGraph::<Poly>::with_sets(&net, Abstraction::None);
    let cover = if options.subsumption { Cover::Inclusion } else { Cover::Equal };
    let mut target = |zg: &mut ZoneGraph<'_, Poly>, s: &ZoneState<Poly>| {
        for z in zg.sat(&goal, s)?.zones {
            found.add(&project(&z, n - params));
        }
        Ok(Federation::empty())
    };
    let run = reach::explore(&mut zg, options.order, cover, &options.limits, &mut target);
    let stats = run.stats;
    let approximation = match run.end {
        End::Exhausted => None,
        End::Found { .. } => unreachable!("the target test never reports a state"),
        End::Stopped(why) => Some((if negate { Approximation::Over } else { Approximation::Under }, why)),
        End::Error { error, .. } => return Synthesis::Error(error.describe(&net)),
    };
    found.simplify();
    let set = if negate { found.complement() } else { found };
    Synthesis::Done { set, approximation, stats }
}

/// The projection of `z` on its last coordinates, from `first` on.
fn project(z: &Poly, first: usize) -> Poly {
    let p = z.eliminate(&(0..first).collect::<Vec<_>>());
    let dim = z.dim() - first;
    if p.is_empty() {
        return Poly::empty(dim);
    }
    let cons = p.constraints().iter().map(|c| Constraint::new(c.coeffs[first..].to_vec(), c.rel, c.rhs.clone()));
    Poly::new(dim, cons.collect())
}
