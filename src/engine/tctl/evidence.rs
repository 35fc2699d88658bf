//! Evidence for the outermost operator: a witness path for `EF ψ`, a
//! counterexample path for `AG φ` and `φ --> ψ` (to a state of `not φ`,
//! which for a nested φ is where the inner property fails). Found by a forward search
//! on exact zones towards the states of the fixpoint's answer: the
//! fixpoint says such a state is reachable, so breadth-first search meets
//! it after finitely many steps even without extrapolation.
//!
//! Below the outermost operator, the subformula deciding at the path's
//! end ([`blame`]) has evidence of its own when a run can show it
//! ([`crate::trace::validate::showings`]): the path goes on from its end
//! point with that run, a lasso ([`lasso::lasso`]) or a path down the
//! ranks of an until ([`lasso::path`]), and where such a path ends in a
//! nested formula again, the walk blames that one at the point reached
//! and goes on. Each part is checked by the validator against its
//! subformula from the point it starts.

use crate::domain::federation::Federation;
use crate::engine::reach::{self, End, Limits, Order};
use crate::engine::store::Cover;
use crate::engine::tctl::blame::{blame, narrow, words};
use crate::engine::tctl::explicit::Explicit;
use crate::engine::tctl::fixpoint::holds_at_zero;
use crate::engine::tctl::lasso::{self, Start};
use crate::engine::tctl::pre::Map;
use crate::engine::tctl::sat::Evaluator;
use crate::engine::tctl::sat::Runs;
use crate::engine::tctl::space::Space;
use crate::engine::{Blame, Shown, SymbolicTrace, Warning, same_zone, store_trace};
use crate::model::formula::Formula;
use crate::model::types::Property;
use crate::network::Network;
use crate::semantics::{Abstraction, ZoneGraph, ZoneState};
use crate::syntax::ast::{Expr, ExprKind, PathOp, PathQuant};
use crate::trace::validate::{Keeps, showings};
use crate::trace::{ConcreteTrace, Rational};
use num_traits::Zero;

/// The trace the verdict calls for, if the outermost operator gives one;
/// for a nested formula, with the subformula that decides it at the end
/// ([`blame`]).
pub fn trace(
    net: &Network,
    space: &Space,
    eval: &mut Evaluator<Explicit<'_, '_, '_, '_>>,
    property: &Property,
    holds: bool,
    limits: &Limits,
) -> Option<SymbolicTrace> {
    if let Some(runs) = lasso_runs(eval, &property.formula, holds) {
        return lasso_from_initial(net, space, eval, property, runs);
    }
    if let Some(t) = path_from_initial(net, space, eval, property, holds) {
        return Some(t);
    }
    // The end states, and what the blame walk starts from: the formula
    // that holds (or fails) there, as parsed and as typed.
    let (target, at_end) = match (&property.formula, &property.ast.kind) {
        (Formula::Path { op: PathOp::EF, bound: None, arg }, ExprKind::Path { arg: e, .. }) if holds => {
            (eval.sat(arg).ok()?, Some((&**e, &**arg, true)))
        }
        (Formula::Path { op: PathOp::AG, bound: None, arg }, ExprKind::Path { arg: e, .. }) if !holds => {
            let good = eval.sat(arg).ok()?;
            (eval.sets.fix.layer(0).complement(&good), Some((&**e, &**arg, false)))
        }
        // `φ -->[b] ψ` is `AG (φ imply AF[b] ψ)`.
        (Formula::LeadsTo { bound, lhs, rhs }, _) if !holds => {
            let reacts = Formula::Path { op: PathOp::AF, bound: *bound, arg: rhs.clone() };
            let good = eval.sat(&Formula::Imply(lhs.clone(), Box::new(reacts))).ok()?;
            let target = eval.sets.fix.layer(0).complement(&good);
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
        let (e, f, holds) = blame(eval, e, f, value, &mut |left| narrow(&mut region, left)).ok()?;
        trace.goal = region[last].clone();
        let text = words(&property.text, e);
        let shown = shown(f, holds);
        if !matches!(shown, Shown::Path | Shown::Lasso) {
            trace.blame = Some(Blame { text, holds, at: None, shown, then: None });
            return Some(trace);
        }
        let prefix = crate::trace::concretise(net, &trace).ok()?;
        let (run, blame) = go_on(net, space, eval, property, prefix, (e, f, holds));
        let mut made = lasso::made_concrete(net, run);
        made.blame = Some(blame);
        return Some(made);
    }
    Some(trace)
}

/// The evidence of a bounded `EF` or `AG`, or an `E[U]`, at the top: a
/// path from an initial state down the ranks of its until ([`go_on`], as
/// below the outermost operator), then what its goal's subformula shows
/// where the path ends. (The unbounded `EF` and `AG` have their forward
/// search, [`path_to`].) `None` for other formulas.
fn path_from_initial(
    net: &Network,
    space: &Space,
    eval: &mut Evaluator<Explicit<'_, '_, '_, '_>>,
    property: &Property,
    holds: bool,
) -> Option<SymbolicTrace> {
    let f = &property.formula;
    let searched = matches!(f, Formula::Path { op: PathOp::EF | PathOp::AG, bound: None, .. });
    if searched || shown(f, holds) != Shown::Path {
        return None;
    }
    // An initial state (every clock 0) where `f` has the value `holds`.
    let sat = eval.sat(f).ok()?;
    let dim = eval.sets.fix.layer(0).dim;
    let d = *space.initial.iter().find(|&&d| holds_at_zero(&sat[d as usize], dim) == holds)?;
    let zeros = vec![Rational::zero(); net.clocks.len()];
    let initial = crate::trace::ConcreteState { discrete: space.discrete(d).clone(), clocks: zeros };
    let start =
        ConcreteTrace { initial, steps: Vec::new(), final_delay: Rational::zero(), loop_start: None, rates: None };
    let (run, top) = go_on(net, space, eval, property, start, (&property.ast, f, holds));
    if top.shown != Shown::Path {
        return None;
    }
    let mut made = lasso::made_concrete(net, run);
    made.blame = top.then.map(|b| *b);
    Some(made)
}

/// What a trace can show of `f` having the value `holds` at a point.
fn shown(f: &Formula, holds: bool) -> Shown {
    match (f, holds) {
        (Formula::Path { op: PathOp::EF, .. } | Formula::Until { quant: PathQuant::E, .. }, true)
        | (Formula::Path { op: PathOp::AG, .. }, false) => Shown::Path,
        (Formula::Path { op: PathOp::EG, .. }, true)
        | (Formula::Path { op: PathOp::AF, .. } | Formula::Until { quant: PathQuant::A, .. }, false) => Shown::Lasso,
        // A leads-to is answered by its own counterexamples at the top
        // only.
        (Formula::LeadsTo { .. }, false) => Shown::Missing,
        (Formula::Path { .. } | Formula::Until { .. } | Formula::LeadsTo { .. }, _) => Shown::EveryRun,
        _ => Shown::Point,
    }
}

/// `prefix` (a validated run) extended from its end point, where `f`
/// (written `e`) has the value `holds`, by the run that shows it; with
/// the blame of that point, and of the next one where a nested path ends.
fn go_on(
    net: &Network,
    space: &Space,
    eval: &mut Evaluator<Explicit<'_, '_, '_, '_>>,
    property: &Property,
    prefix: ConcreteTrace,
    (e, f, holds): (&Expr, &Formula, bool),
) -> (ConcreteTrace, Blame) {
    let at = (prefix.steps.len(), prefix.final_delay.clone());
    let mut blame =
        Blame { text: words(&property.text, e), holds, at: Some(at.clone()), shown: shown(f, holds), then: None };
    let built = match blame.shown {
        Shown::Lasso => inner_lasso(net, eval, property, &prefix, f, holds),
        Shown::Path => inner_path(net, eval, &prefix, f, holds),
        _ => None,
    };
    // The validator checks the appended run against the subformula from
    // its point; a run it refuses is a bug, and is not shown.
    let checked = built.filter(|run| match crate::trace::validate::shows(net, property, run, &at, f, holds) {
        Ok(()) => true,
        Err(why) => {
            debug_assert!(false, "inner evidence refused: {why}");
            false
        }
    });
    let Some(run) = checked else {
        blame.shown = if matches!(blame.shown, Shown::Path | Shown::Lasso) { Shown::Missing } else { blame.shown };
        return (prefix, blame);
    };
    // Where a path ends in a nested formula, the one deciding there.
    let next = match (&e.kind, f) {
        (ExprKind::Path { arg: e2, .. }, Formula::Path { op: PathOp::EF, arg, .. }) => Some((&**e2, &**arg, true)),
        (ExprKind::Path { arg: e2, .. }, Formula::Path { op: PathOp::AG, arg, .. }) => Some((&**e2, &**arg, false)),
        (ExprKind::Until { rhs: e2, .. }, Formula::Until { quant: PathQuant::E, rhs, .. }) => {
            Some((&**e2, &**rhs, true))
        }
        _ => None,
    };
    let Some((e2, f2, h2)) = next.filter(|(_, f2, _)| run.loop_start.is_none() && !f2.is_state()) else {
        return (run, blame);
    };
    let end = run.end();
    let Some(d) = space.states.get_index_of(&end.discrete) else { return (run, blame) };
    let v: Vec<Rational> = std::iter::once(Rational::zero()).chain(end.clocks.iter().cloned()).collect();
    let Ok((e3, f3, h3)) = blame_point(eval, e2, f2, h2, d, &v) else { return (run, blame) };
    let (run, inner) = go_on(net, space, eval, property, run, (e3, f3, h3));
    blame.then = Some(Box::new(inner));
    (run, blame)
}

/// [`blame`] at one point (discrete state `d`, valuation `v` with the
/// reference clock first).
fn blame_point<'f>(
    eval: &mut Evaluator<Explicit<'_, '_, '_, '_>>,
    e: &'f Expr,
    f: &'f Formula,
    holds: bool,
    d: usize,
    v: &[Rational],
) -> Result<(&'f Expr, &'f Formula, bool), crate::engine::tctl::sat::Stop> {
    blame(eval, e, f, holds, &mut |left| lasso::member(&left[d], v))
}

/// The lasso showing `f` (`EG` holding, `AF` or `A[U]` failing) from the
/// end of `prefix`.
fn inner_lasso(
    net: &Network,
    eval: &mut Evaluator<Explicit<'_, '_, '_, '_>>,
    property: &Property,
    prefix: &ConcreteTrace,
    f: &Formula,
    holds: bool,
) -> Option<ConcreteTrace> {
    let runs = lasso_runs(eval, f, holds)?;
    let constants = constants(eval, property);
    let found = runs.into_iter().find_map(|(runs, keeps)| {
        lasso::lasso(net, &mut eval.sets.fix, &runs, Start::Path(prefix), constants, keeps).and_then(|t| t.concrete)
    });
    found.map(|run| *run)
}

/// The path showing `f` (`EF`, `E[U]` holding, `AG` failing) from the end
/// of `prefix`.
fn inner_path(
    net: &Network,
    eval: &mut Evaluator<Explicit<'_, '_, '_, '_>>,
    prefix: &ConcreteTrace,
    f: &Formula,
    holds: bool,
) -> Option<ConcreteTrace> {
    let (bound, stay, goal) = match (f, holds) {
        (Formula::Path { op: PathOp::EF, bound, arg }, true) => {
            (bound, eval.sets.fix.layer(0).all(), eval.sat(arg).ok()?)
        }
        (Formula::Path { op: PathOp::AG, bound, arg }, false) => {
            let good = eval.sat(arg).ok()?;
            (bound, eval.sets.fix.layer(0).all(), eval.not_at_zero(&good))
        }
        (Formula::Until { quant: PathQuant::E, bound, lhs, rhs }, true) => {
            let (l, r) = (eval.sat(lhs).ok()?, eval.sat(rhs).ok()?);
            (bound, crate::engine::tctl::pre::union(&l, &r), r)
        }
        _ => return None,
    };
    let (level, stay, goal) = eval.until_maps(*bound, &stay, &goal);
    lasso::path(net, &mut eval.sets.fix, level, &stay, &goal, prefix)
}

/// The runs whose lasso is the evidence, when the outermost operator
/// calls for one: an `EG` witness, an `AF` counterexample (an `EG not`
/// witness), an `A[U]` counterexample; each with what its run keeps,
/// when the operator's arguments are state formulas
/// ([`showings`], in the same order). `None` also when a limit stops the
/// sets (the verdict stands without evidence).
fn lasso_runs(
    eval: &mut Evaluator<Explicit<'_, '_, '_, '_>>,
    f: &Formula,
    holds: bool,
) -> Option<Vec<(Runs<Map>, Option<Keeps>)>> {
    let runs = match f {
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
            let (l, r) = (eval.sat(lhs).ok()?, eval.sat(rhs).ok()?);
            let (early, never) = eval.until_failures(*bound, &l, &r).ok()?;
            vec![never, early]
        }
        _ => return None,
    };
    let keeps = showings(eval.sets.net, eval.sets.property, f, holds).unwrap_or_default();
    Some(runs.into_iter().enumerate().map(|(k, r)| (r, keeps.get(k).map(|s| s.keeps.clone()))).collect())
}

/// The constants a lasso's regions are taken for (the sets computed so
/// far, the formula's bounds, diagonals of the model or of the formula).
fn constants(eval: &Evaluator<Explicit<'_, '_, '_, '_>>, property: &Property) -> lasso::Constants {
    let largest = eval.largest_constant().max(lasso::largest_bound(&property.formula));
    let diagonal = eval.sets.net.has_diagonals || diagonal_atoms(eval, &property.formula);
    lasso::Constants { largest, diagonal }
}

/// Some clock atom of `f` compares a difference of clocks.
fn diagonal_atoms(eval: &Evaluator<Explicit<'_, '_, '_, '_>>, f: &Formula) -> bool {
    match f {
        Formula::State(_) => eval.sets.net.state_formula(eval.sets.property, f).is_ok_and(|s| s.has_diagonal()),
        Formula::Deadlock => false,
        Formula::Not(a) | Formula::Path { arg: a, .. } => diagonal_atoms(eval, a),
        Formula::And(a, b)
        | Formula::Or(a, b)
        | Formula::Imply(a, b)
        | Formula::Until { lhs: a, rhs: b, .. }
        | Formula::LeadsTo { lhs: a, rhs: b, .. } => diagonal_atoms(eval, a) || diagonal_atoms(eval, b),
        Formula::Measure(m) => diagonal_atoms(eval, &m.cond),
    }
}

/// Whether the verdict's evidence is a lasso ([`trace`] gives it when it
/// can be built).
pub fn wants_lasso(eval: &mut Evaluator<Explicit<'_, '_, '_, '_>>, f: &Formula, holds: bool) -> bool {
    matches!(f, Formula::LeadsTo { .. }) && !holds || lasso_runs(eval, f, holds).is_some()
}

/// The lasso of the first of `runs` that holds at some initial state
/// (every clock 0), from there.
fn lasso_from_initial(
    net: &Network,
    space: &Space,
    eval: &mut Evaluator<Explicit<'_, '_, '_, '_>>,
    property: &Property,
    runs: Vec<(Runs<Map>, Option<Keeps>)>,
) -> Option<SymbolicTrace> {
    let constants = constants(eval, property);
    let dims: Vec<usize> = runs.iter().map(|(r, _)| eval.sets.fix.layer(r.level).dim).collect();
    let ((runs, keeps), start) = runs.into_iter().zip(dims).find_map(|(r, dim)| {
        let d = *space.initial.iter().find(|&&d| holds_at_zero(&r.0.holds[d as usize], dim))?;
        Some((r, d))
    })?;
    lasso::lasso(net, &mut eval.sets.fix, &runs, Start::Initial(start), constants, keeps)
}

/// A counterexample to `φ -->[b] ψ`: a path to a point of `φ` from which
/// some divergent run misses `ψ` (within the bound), then the lasso of
/// that run (an `EG[b] not ψ` witness) from the path's end. Just the path
/// when the lasso cannot be built.
fn leads_to_counterexample(
    net: &Network,
    space: &Space,
    eval: &mut Evaluator<Explicit<'_, '_, '_, '_>>,
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
        let af = Formula::Path { op: PathOp::AF, bound: *bound, arg: rhs.clone() };
        let keeps = showings(eval.sets.net, eval.sets.property, &af, false).ok()?.first().map(|w| w.keeps.clone());
        let constants = constants(eval, property);
        lasso::lasso(net, &mut eval.sets.fix, &runs, Start::Path(&concrete), constants, keeps)
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
    eval: &mut Evaluator<Explicit<'_, '_, '_, '_>>,
    formula: &Formula,
    limits: &Limits,
) -> Option<Warning> {
    if !over_divergent_runs(formula) {
        return None;
    }
    let locked = eval.reachable_time_locks().ok()??;
    Some(time_lock_warning(path_to(net, space, &locked, limits)))
}

/// The warning of a reachable time-locked state, with a path to it.
pub fn time_lock_warning(trace: Option<SymbolicTrace>) -> Warning {
    Warning {
        message: "time-lock: no time-divergent run from this state (`A<>`, `E[]`, `A[U]` and `-->` quantify over divergent runs only, and have none from here)".into(),
        trace,
        of_model: false,
    }
}

/// Some operator of `f` quantifies over time-divergent runs.
pub fn over_divergent_runs(f: &Formula) -> bool {
    match f {
        Formula::State(_) | Formula::Deadlock | Formula::Measure(_) => false,
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
