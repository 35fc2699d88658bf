//! Evidence for the outermost operator: a witness path for `EF ψ`, a
//! counterexample path for `AG φ` and `φ --> ψ` (to a state of `not φ`,
//! which for a nested φ is where the inner property fails). Found by a forward search
//! on exact zones towards the states of the fixpoint's answer: the
//! fixpoint says such a state is reachable, so breadth-first search meets
//! it after finitely many steps even without extrapolation.

use crate::domain::federation::Federation;
use crate::engine::reach::{self, End, Limits, Order};
use crate::engine::store::Cover;
use crate::engine::tctl::blame::blame;
use crate::engine::tctl::fixpoint::holds_at_zero;
use crate::engine::tctl::lasso;
use crate::engine::tctl::pre::Map;
use crate::engine::tctl::sat::Evaluator;
use crate::engine::tctl::sat::Runs;
use crate::engine::tctl::space::Space;
use crate::engine::{Blame, SymbolicTrace, Warning, same_zone, store_trace};
use crate::model::formula::Formula;
use crate::model::types::Property;
use crate::network::Network;
use crate::semantics::{Abstraction, ZoneGraph, ZoneState};
use crate::syntax::ast::{ExprKind, PathOp, PathQuant};

/// The trace the verdict calls for, if the outermost operator gives one;
/// for a nested formula, with the subformula that decides it at the end
/// ([`blame`]).
pub fn trace(
    net: &Network,
    space: &Space,
    eval: &mut Evaluator<'_, '_, '_, '_>,
    property: &Property,
    holds: bool,
    limits: &Limits,
) -> Option<SymbolicTrace> {
    if let Some(runs) = lasso_runs(eval, &property.formula, holds) {
        return lasso_from_initial(net, space, eval, property, &runs);
    }
    // The end states, and what the blame walk starts from: the formula
    // that holds (or fails) there, as parsed and as typed.
    let (target, at_end) = match (&property.formula, &property.ast.kind) {
        (Formula::Path { op: PathOp::EF, bound: None, arg }, ExprKind::Path { arg: e, .. }) if holds => {
            (eval.sat(arg).ok()?, Some((&**e, &**arg, true)))
        }
        (Formula::Path { op: PathOp::AG, bound: None, arg }, ExprKind::Path { arg: e, .. }) if !holds => {
            let good = eval.sat(arg).ok()?;
            (eval.fix.layer(0).complement(&good), Some((&**e, &**arg, false)))
        }
        // `φ -->[b] ψ` is `AG (φ imply AF[b] ψ)`.
        (Formula::LeadsTo { bound, lhs, rhs }, _) if !holds => {
            let reacts = Formula::Path { op: PathOp::AF, bound: *bound, arg: rhs.clone() };
            let good = eval.sat(&Formula::Imply(lhs.clone(), Box::new(reacts))).ok()?;
            (eval.fix.layer(0).complement(&good), None)
        }
        _ => return None,
    };
    let mut trace = path_to(net, space, &target, limits)?;
    if let Some((e, f, value)) = at_end.filter(|(_, f, _)| !f.is_state()) {
        // The last zone holds exactly the valuations reachable along the
        // path, so every part of it the walk keeps is reachable too.
        let last = space.states.get_index_of(&trace.states.last()?.discrete)?;
        let mut region = vec![Federation::empty(); space.len()];
        region[last] = trace.goal.clone();
        let (text, holds, region) = blame(eval, &property.text, e, f, value, region).ok()?;
        trace.goal = region[last].clone();
        trace.blame = Some(Blame { text, holds });
    }
    Some(trace)
}

/// The runs whose lasso is the evidence, when the outermost operator
/// calls for one: an `EG` witness, an `AF` counterexample (an `EG not`
/// witness), an `A[U]` counterexample. `None` also when a limit stops the
/// sets (the verdict stands without evidence).
fn lasso_runs(eval: &mut Evaluator<'_, '_, '_, '_>, f: &Formula, holds: bool) -> Option<Vec<Runs>> {
    Some(match f {
        Formula::Path { op: PathOp::EG, bound, arg } if holds => {
            let phi = eval.sat(arg).ok()?;
            vec![eval.always_runs(*bound, &phi).ok()?]
        }
        Formula::Path { op: PathOp::AF, bound, arg } if !holds => {
            let psi = eval.sat(arg).ok()?;
            let not_psi = eval.not_at_zero(&psi);
            vec![eval.always_runs(*bound, &not_psi).ok()?]
        }
        Formula::Until { quant: PathQuant::A, bound, lhs, rhs } if !holds => {
            let (lhs, rhs) = (eval.sat(lhs).ok()?, eval.sat(rhs).ok()?);
            let (early, never) = eval.until_failures(*bound, &lhs, &rhs).ok()?;
            vec![never, early]
        }
        _ => return None,
    })
}

/// Whether the verdict's evidence is a lasso ([`trace`] gives it when it
/// can be built).
pub fn wants_lasso(eval: &mut Evaluator<'_, '_, '_, '_>, f: &Formula, holds: bool) -> bool {
    lasso_runs(eval, f, holds).is_some()
}

/// The lasso of the first of `runs` that holds at some initial state
/// (every clock 0), from there.
fn lasso_from_initial(
    net: &Network,
    space: &Space,
    eval: &mut Evaluator<'_, '_, '_, '_>,
    property: &Property,
    runs: &[Runs],
) -> Option<SymbolicTrace> {
    let largest = eval.largest_constant().max(lasso::largest_bound(&property.formula));
    let dims: Vec<usize> = runs.iter().map(|r| eval.fix.layer(r.level).dim).collect();
    let (runs, start) = runs.iter().zip(dims).find_map(|(r, dim)| {
        space.initial.iter().find(|&&d| holds_at_zero(&r.holds[d as usize], dim)).map(|&d| (r, d))
    })?;
    lasso::lasso(net, &mut eval.fix, runs, start, largest)
}

/// A warning with a path to a reachable time-locked state, when the formula
/// quantifies over time-divergent runs (those operators are vacuous where
/// no such run exists). Exact: a state is time-locked when it is outside
/// `EG true`, however its zone is split.
pub fn time_lock(
    net: &Network,
    space: &Space,
    eval: &mut Evaluator<'_, '_, '_, '_>,
    formula: &Formula,
    limits: &Limits,
) -> Option<Warning> {
    if !over_divergent_runs(formula) {
        return None;
    }
    let divergent = eval.divergent().ok()?;
    let locked = eval.not_at_zero(&divergent);
    let all = eval.fix.layer(0).all();
    let reaches = eval.fix.until(0, &all, &locked).ok()?;
    let dim = eval.fix.layer(0).dim;
    if !space.initial.iter().any(|&d| holds_at_zero(&reaches[d as usize], dim)) {
        return None;
    }
    let trace = path_to(net, space, &locked, limits);
    Some(Warning {
        message: "time-lock: no time-divergent run from this state (`A<>`, `E[]`, `A[U]` and `-->` quantify over divergent runs only, and have none from here)".into(),
        trace,
        of_model: false,
    })
}

/// Some operator of `f` quantifies over time-divergent runs.
fn over_divergent_runs(f: &Formula) -> bool {
    match f {
        Formula::State(_) | Formula::Deadlock => false,
        Formula::Not(a) => over_divergent_runs(a),
        Formula::And(a, b) | Formula::Or(a, b) | Formula::Imply(a, b) => {
            over_divergent_runs(a) || over_divergent_runs(b)
        }
        Formula::Path { op: PathOp::EG | PathOp::AF, .. } | Formula::LeadsTo { .. } => true,
        Formula::Until { quant: PathQuant::A, .. } => true,
        Formula::Path { arg, .. } => over_divergent_runs(arg),
        Formula::Until { lhs, rhs, .. } => over_divergent_runs(lhs) || over_divergent_runs(rhs),
    }
}

/// A path from an initial state to a state meeting `target`.
fn path_to(net: &Network, space: &Space, target: &Map, limits: &Limits) -> Option<SymbolicTrace> {
    let mut zg = ZoneGraph::new(net, Abstraction::None);
    let mut hit = |_: &mut ZoneGraph<'_>, s: &ZoneState| {
        Ok(match space.states.get_index_of(&s.discrete) {
            Some(d) => target[d].intersect(&Federation::from_zone(s.zone.clone())),
            None => Federation::empty(),
        })
    };
    let run = reach::explore(&mut zg, Order::Bfs, Cover::Inclusion, limits, &mut hit);
    match run.end {
        End::Found { node, witness } => store_trace(&mut zg, &run.store, node, witness, None, None, same_zone),
        _ => None,
    }
}
