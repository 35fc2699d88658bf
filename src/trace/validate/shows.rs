//! What a run from one of its points must keep to show that a temporal
//! formula holds (or fails) there: the evidence the fixpoint engine
//! appends below the outermost operator (`E<> (φ and A[ψ U χ])` violated:
//! the path to where `A[ψ U χ]` fails, then the run along which it
//! fails), stated as [`Keeps`] and checked by [`keeps`].
//!
//! Only an existential claim has a run that shows it: `EF`, `E[U]` and
//! `EG` holding, `AG`, `AF` and `A[U]` failing. `EG`, `AF` and `A[U]` are
//! about time-divergent runs, so their run must be a lasso. A formula
//! whose arguments are themselves temporal is not a formula of one point:
//! the run cannot be checked against it here.

use num_traits::Zero;

use super::{Keeps, keeps};
use crate::model::formula::{Formula, TimeBound};
use crate::model::types::Property;
use crate::network::{Network, StateConj, StateFormula};
use crate::syntax::ast::{PathOp, PathQuant};
use crate::trace::{ConcreteTrace, Rational};

/// One way a run shows a formula: what it keeps from its point, and
/// whether it must be a lasso (a time-divergent run).
#[derive(Clone, Debug)]
pub struct Showing {
    pub keeps: Keeps,
    pub lasso: bool,
}

/// The ways a run from a point shows that `f` has the value `holds` there
/// (any one of them is enough); `Ok(empty)` when `f`'s arguments are
/// temporal or mention `deadlock` (nothing a point-wise check can state), `Err` when no run can
/// show it (a claim about every run: `EF` failing, `AG` holding, ...).
/// `from` is `(0, 0)`: [`shows`] sets it.
pub fn showings(net: &Network, property: &Property, f: &Formula, holds: bool) -> Result<Vec<Showing>, String> {
    let state = |g: &Formula| -> Result<Option<StateFormula>, String> {
        if !g.is_state() {
            return Ok(None);
        }
        net.state_formula(property, g).map(Some).map_err(|d| d.message)
    };
    // A point where the kept formula's value depends on `deadlock` (a
    // property of the state's futures) is not held against the run, but
    // a goal must be met: one mentioning `deadlock` leaves nothing to check.
    let goal = |g: Option<StateFormula>| g.filter(|g| !g.mentions_deadlock());
    let not = |g: StateFormula| StateFormula::Not(Box::new(g));
    let keep = |formula, within, until, until_within, lasso| Showing {
        keeps: Keeps { formula, from: (0, Rational::zero()), within, until, until_within },
        lasso,
    };
    let reach = |g: Option<StateFormula>, stay: Option<StateFormula>, b: Option<TimeBound>| match (goal(g), stay) {
        (Some(goal), Some(stay)) => vec![keep(stay, None, Some(goal), b, false)],
        _ => Vec::new(),
    };
    Ok(match (f, holds) {
        (Formula::Path { op: PathOp::EF, bound, arg }, true) => reach(state(arg)?, Some(truth()), *bound),
        (Formula::Path { op: PathOp::AG, bound, arg }, false) => reach(state(arg)?.map(not), Some(truth()), *bound),
        (Formula::Until { quant: PathQuant::E, bound, lhs, rhs }, true) => {
            let stay = state(lhs)?.zip(state(rhs)?).map(|(l, r)| StateFormula::Or(Box::new(l), Box::new(r)));
            reach(state(rhs)?, stay, *bound)
        }
        (Formula::Path { op: PathOp::EG, bound, arg }, true) => {
            state(arg)?.map(|a| keep(a, *bound, None, None, true)).into_iter().collect()
        }
        (Formula::Path { op: PathOp::AF, bound, arg }, false) => {
            state(arg)?.map(|a| keep(not(a), *bound, None, None, true)).into_iter().collect()
        }
        // Never ψ (within the bound), or `not φ and not ψ` before it; the
        // run diverges either way.
        (Formula::Until { quant: PathQuant::A, bound, lhs, rhs }, false) => {
            match (goal(state(lhs)?), goal(state(rhs)?)) {
                (Some(l), Some(r)) => {
                    let neither = StateFormula::And(Box::new(not(l)), Box::new(not(r.clone())));
                    vec![
                        keep(not(r.clone()), *bound, None, None, true),
                        keep(not(r), *bound, Some(neither), None, true),
                    ]
                }
                _ => Vec::new(),
            }
        }
        _ => {
            return Err(format!(
                "no run shows that it {}: it is about every run",
                if holds { "holds" } else { "fails" }
            ));
        }
    })
}

/// `true` as a state formula.
fn truth() -> StateFormula {
    StateFormula::Pred(vec![StateConj { data: None, clocks: Vec::new() }])
}

/// `Ok` when `trace` (which validates) shows, from its point `from` (after
/// `from.0` steps and `from.1` into the delay that follows), that `f` has
/// the value `holds` there: it keeps one of the [`showings`] from there,
/// as a lasso where that one needs it. `Ok` without a check when `f`'s
/// arguments are temporal or mention `deadlock`.
pub fn shows(
    net: &Network,
    property: &Property,
    trace: &ConcreteTrace,
    from: &(usize, Rational),
    f: &Formula,
    holds: bool,
) -> Result<(), String> {
    let ways = showings(net, property, f, holds)?;
    let mut why = Vec::new();
    for w in &ways {
        if w.lasso && trace.loop_start.is_none_or(|l| l < from.0) {
            why.push("the run is not a lasso from there".to_string());
            continue;
        }
        match keeps(net, trace, &Keeps { from: from.clone(), ..w.keeps.clone() }) {
            Ok(()) => return Ok(()),
            Err(e) => why.push(e),
        }
    }
    if ways.is_empty() { Ok(()) } else { Err(why.join("; ")) }
}
