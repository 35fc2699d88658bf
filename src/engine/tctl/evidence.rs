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
use crate::engine::tctl::lasso::{self, Start};
use crate::engine::tctl::pre::Map;
use crate::engine::tctl::sat::Evaluator;
use crate::engine::tctl::sat::Runs;
use crate::engine::tctl::space::Space;
use crate::engine::{Blame, SymbolicTrace, Warning, same_zone, store_trace};
use crate::model::formula::{Formula, TimeBound};
use crate::model::types::Property;
use crate::network::{Network, StateFormula};
use crate::semantics::{Abstraction, ZoneGraph, ZoneState};
use crate::syntax::ast::{ExprKind, PathOp, PathQuant};
use crate::trace::Rational;
use crate::trace::validate::Keeps;
use num_traits::Zero;

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
        return lasso_from_initial(net, space, eval, property, runs);
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
            let target = eval.fix.layer(0).complement(&good);
            return leads_to_counterexample(net, space, eval, property, &target, limits);
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
/// witness), an `A[U]` counterexample; each with what its run keeps,
/// when the operator's arguments are state formulas. `None` also when a
/// limit stops the sets (the verdict stands without evidence).
fn lasso_runs(eval: &mut Evaluator<'_, '_, '_, '_>, f: &Formula, holds: bool) -> Option<Vec<(Runs, Option<Keeps>)>> {
    Some(match f {
        Formula::Path { op: PathOp::EG, bound, arg } if holds => {
            let phi = eval.sat(arg).ok()?;
            let keeps = kept(eval, arg, false, *bound);
            vec![(eval.always_runs(*bound, &phi).ok()?, keeps)]
        }
        Formula::Path { op: PathOp::AF, bound, arg } if !holds => {
            let psi = eval.sat(arg).ok()?;
            let not_psi = eval.not_at_zero(&psi);
            let keeps = kept(eval, arg, true, *bound);
            vec![(eval.always_runs(*bound, &not_psi).ok()?, keeps)]
        }
        Formula::Until { quant: PathQuant::A, bound, lhs, rhs } if !holds => {
            let (l, r) = (eval.sat(lhs).ok()?, eval.sat(rhs).ok()?);
            let (early, never) = eval.until_failures(*bound, &l, &r).ok()?;
            // `early` keeps `not ψ` (within the bound) until `not φ and not ψ`.
            let neither = Formula::And(Box::new(Formula::Not(lhs.clone())), Box::new(Formula::Not(rhs.clone())));
            let stop = kept(eval, &neither, false, None).map(|k| k.formula);
            let until = kept(eval, rhs, true, *bound).zip(stop).map(|(k, stop)| Keeps { until: Some(stop), ..k });
            vec![(never, kept(eval, rhs, true, *bound)), (early, until)]
        }
        _ => return None,
    })
}

/// What a lasso for an operator over `arg` keeps (`not arg` when
/// `negate`), when `arg` is a state formula; its `from` is set by the
/// lasso. A nested `arg` is not a formula of one point: the lasso then
/// rests on the walk's own checks alone.
fn kept(eval: &Evaluator<'_, '_, '_, '_>, arg: &Formula, negate: bool, within: Option<TimeBound>) -> Option<Keeps> {
    if !arg.is_state() {
        return None;
    }
    let f = eval.net.state_formula(eval.property, arg).ok()?;
    let formula = if negate { StateFormula::Not(Box::new(f)) } else { f };
    Some(Keeps { formula, from: (0, Rational::zero()), within, until: None })
}

/// Whether the verdict's evidence is a lasso ([`trace`] gives it when it
/// can be built).
pub fn wants_lasso(eval: &mut Evaluator<'_, '_, '_, '_>, f: &Formula, holds: bool) -> bool {
    matches!(f, Formula::LeadsTo { .. }) && !holds || lasso_runs(eval, f, holds).is_some()
}

/// The lasso of the first of `runs` that holds at some initial state
/// (every clock 0), from there.
fn lasso_from_initial(
    net: &Network,
    space: &Space,
    eval: &mut Evaluator<'_, '_, '_, '_>,
    property: &Property,
    runs: Vec<(Runs, Option<Keeps>)>,
) -> Option<SymbolicTrace> {
    let largest = eval.largest_constant().max(lasso::largest_bound(&property.formula));
    let dims: Vec<usize> = runs.iter().map(|(r, _)| eval.fix.layer(r.level).dim).collect();
    let ((runs, keeps), start) = runs.into_iter().zip(dims).find_map(|(r, dim)| {
        let d = *space.initial.iter().find(|&&d| holds_at_zero(&r.0.holds[d as usize], dim))?;
        Some((r, d))
    })?;
    lasso::lasso(net, &mut eval.fix, &runs, Start::Initial(start), largest, keeps)
}

/// A counterexample to `φ -->[b] ψ`: a path to a point of `φ` from which
/// some divergent run misses `ψ` (within the bound), then the lasso of
/// that run (an `EG[b] not ψ` witness) from the path's end. Just the path
/// when the lasso cannot be built.
fn leads_to_counterexample(
    net: &Network,
    space: &Space,
    eval: &mut Evaluator<'_, '_, '_, '_>,
    property: &Property,
    target: &Map,
    limits: &Limits,
) -> Option<SymbolicTrace> {
    let path = path_to(net, space, target, limits)?;
    let Formula::LeadsTo { bound, rhs, .. } = &property.formula else { return Some(path) };
    let lasso = (|| {
        let concrete = crate::trace::concretise(net, &path).ok()?;
        let psi = eval.sat(rhs).ok()?;
        let not_psi = eval.not_at_zero(&psi);
        let runs = eval.always_runs(*bound, &not_psi).ok()?;
        let keeps = kept(eval, rhs, true, *bound);
        let largest = eval.largest_constant().max(lasso::largest_bound(&property.formula));
        lasso::lasso(net, &mut eval.fix, &runs, Start::Path(&concrete), largest, keeps)
    })();
    lasso.or(Some(path))
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
