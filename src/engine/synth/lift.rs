//! Timing parameters made dimensions: a parametric model rewritten as a
//! linear hybrid one whose extra continuous variables are the parameters.
//!
//! A parameter `p` with bounds `[lo, hi]` becomes the continuous variable
//! `p` with initial interval `[lo, hi]` and rate 0 everywhere (the default
//! rate of a continuous variable, and no location sets it), never assigned.
//! A state of the rewritten model is then a set of (valuation, parameter
//! valuation) pairs, and a run of it is a run of the original model under
//! the parameter valuation it starts with, which it keeps: the forward
//! engine on polyhedra explores every valuation at once.

use crate::model::formula::Formula;
use crate::model::typed::{Conj, Cvar, LinAtom};
use crate::model::types::{Continuous, Model, Property};

/// `model` with its parameters as continuous variables appended after the
/// model's own (so parameter `k` is `Cvar::Continuous(first + k)`), and
/// `property` rewritten alike. `Err`: the name of an unbounded parameter.
pub fn lift(model: &Model, property: &Property) -> Result<(Model, Property), String> {
    let first = model.continuous.len();
    let mut out = model.clone();
    for p in &model.params {
        let (Some(lo), Some(hi)) = (p.min, p.max) else { return Err(p.name.clone()) };
        out.continuous.push(Continuous { name: p.name.clone(), init: (lo, hi) });
    }
    out.params.clear();
    out.hybrid = true;
    for t in &mut out.templates {
        for l in &mut t.locations {
            lift_conj(&mut l.invariant, first);
        }
        for e in &mut t.edges {
            e.guard.iter_mut().for_each(|c| lift_conj(c, first));
        }
    }
    let mut property = property.clone();
    lift_formula(&mut property.formula, first);
    Ok((out, property))
}

/// `Σ a·x ≺ rhs + Σ c·p` becomes `Σ a·x − Σ c·p ≺ rhs`.
fn lift_conj(c: &mut Conj, first: usize) {
    for a in &mut c.lin {
        lift_atom(a, first);
    }
}

fn lift_atom(a: &mut LinAtom, first: usize) {
    for (p, c) in a.params.drain(..) {
        a.terms.push((Cvar::Continuous(first + p), -c));
    }
}

fn lift_formula(f: &mut Formula, first: usize) {
    match f {
        Formula::State(dnf) => dnf.iter_mut().for_each(|c| lift_conj(c, first)),
        Formula::Deadlock => {}
        Formula::Not(a) | Formula::Path { arg: a, .. } => lift_formula(a, first),
        Formula::And(a, b)
        | Formula::Or(a, b)
        | Formula::Imply(a, b)
        | Formula::Until { lhs: a, rhs: b, .. }
        | Formula::LeadsTo { lhs: a, rhs: b, .. } => {
            lift_formula(a, first);
            lift_formula(b, first);
        }
        // Its terms are clocks and data: no parameter in them.
        Formula::Measure(m) => lift_formula(&mut m.cond, first),
    }
}
