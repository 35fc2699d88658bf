//! Concrete runs of linear networks (hybrid models, fixed parameters).
//!
//! The engine's path gives the discrete states and the steps; the sets are
//! recomputed here on polyhedra: `E_i`, the valuations state `i` is entered
//! with (before any delay), and `S_i`, everything a delay reaches from them
//! within the invariants (`S_{i+1}`'s entry is the step from `S_i`). A run
//! is then chosen backwards, each point exact:
//! - `y_n`: a point of the goal within `S_n`;
//! - `e_i`: a point of `E_i` from which a delay reaches `y_i` (the delay
//!   taken backwards from `y_i`, cut by `E_i`: non-empty as `y_i ∈ S_i`);
//! - `y_{i-1}`: a point of `S_{i-1}` meeting the guard of step `i` that the
//!   step's assignments map to `e_i` (non-empty as `e_i ∈ E_i`).
//!
//! Each delay `d` from `e_i` to `y_i` is the least with `lo_k·d <= y_k − e_k
//! <= hi_k·d` for every variable (a straight line at the average rate: the
//! rate set is a box, so convex), and its rate vector `(y − e) / d` goes into
//! the trace for the replay.

use num_traits::{One, Zero};

use super::{ConcreteState, ConcreteStep, ConcreteTrace, ConcretiseError, Rational};
use crate::domain::federation::Federation;
use crate::domain::poly::{Constraint, Poly, Q, Rel, Sup};
use crate::engine::SymbolicTrace;
use crate::network::Network;
use crate::semantics::{Abstraction, RunError, ZoneGraph, ZoneState};

/// The run of a linear network along `trace` (see the module doc).
pub(super) fn concretise(net: &Network, trace: &SymbolicTrace) -> Result<ConcreteTrace, ConcretiseError> {
    let n = trace.steps.len();
    if trace.states.len() != n + 1 {
        return Err(ConcretiseError::Shape { states: trace.states.len(), steps: n });
    }
    let mut zg = ZoneGraph::<Poly>::with_sets(net, Abstraction::None);
    let lost = |what: &str| ConcretiseError::Invalid(format!("linear run: {what}"));
    // Forward: entries and delay closures.
    let mut entries: Vec<ZoneState<Poly>> = Vec::with_capacity(n + 1);
    let mut sets: Vec<ZoneState<Poly>> = Vec::with_capacity(n + 1);
    let mut first = ZoneState { discrete: trace.states[0].discrete.clone(), zone: zg.initial_zone() };
    let eval = |error| RunError { error, transition: None };
    if !zg.invariant(&first.discrete, &mut first.zone).map_err(eval)? {
        return Err(lost("the initial state is empty"));
    }
    for i in 0..=n {
        let entry = if i == 0 {
            first.clone()
        } else {
            let e = zg.enter(&sets[i - 1], &trace.steps[i - 1])?.ok_or_else(|| lost("a step is disabled"))?;
            let mut e = e;
            if !zg.invariant(&e.discrete, &mut e.zone).map_err(eval)? || e.discrete != trace.states[i].discrete {
                return Err(lost("a step does not lead to the engine's state"));
            }
            e
        };
        let mut set = entry.clone();
        zg.delay(&mut set, None)?;
        entries.push(entry);
        sets.push(set);
    }
    // Backward: the points.
    let goal = match &trace.target {
        Some(f) => zg.sat(f, &sets[n])?,
        None => Federation::from_zone(sets[n].zone.clone()),
    };
    let mut y = goal.zones.iter().find_map(Poly::sample_point).ok_or_else(|| lost("the goal is empty"))?;
    let mut points = vec![(Vec::new(), Vec::new(), Q::zero(), Vec::new()); n + 1];
    for i in (0..=n).rev() {
        let d = &entries[i].discrete;
        let (e, delay, rate) = if zg.can_delay(d)? {
            let rates = zg.rates(d).map_err(eval)?;
            let back = Poly::boxed(&y.iter().map(|v| (v.clone(), v.clone())).collect::<Vec<_>>());
            let from = back.elapse_box(&rates, true).intersect(&entries[i].zone);
            let e = from.sample_point().ok_or_else(|| lost("no delay reaches the chosen point"))?;
            let (delay, rate) = least_delay(&e, &y, &rates).ok_or_else(|| lost("no rate fits a delay"))?;
            (e, delay, rate)
        } else {
            (y.clone(), Q::zero(), vec![Q::zero(); y.len()])
        };
        if i > 0 {
            let t = &trace.steps[i - 1];
            let mut back = Poly::boxed(&e.iter().map(|v| (v.clone(), v.clone())).collect::<Vec<_>>());
            let mut resets = Vec::new();
            zg.discrete_post(&sets[i - 1].discrete, t, &mut resets)?;
            zg.apply_assigns(&mut back, true);
            if !zg.guard(&sets[i - 1].discrete, t, &mut back)? {
                return Err(lost("a guard excludes the chosen point"));
            }
            let before = back.intersect(&sets[i - 1].zone);
            let prev = before.sample_point().ok_or_else(|| lost("no valuation takes the step"))?;
            points[i] = (e, y, delay, rate);
            y = prev;
        } else {
            points[i] = (e, y.clone(), delay, rate);
        }
    }
    let state = |i: usize| ConcreteState { discrete: entries[i].discrete.clone(), clocks: points[i].0.clone() };
    let steps = (1..=n).map(|i| ConcreteStep {
        delay: points[i - 1].2.clone(),
        transition: trace.steps[i - 1].clone(),
        after: state(i),
    });
    let out = ConcreteTrace {
        initial: state(0),
        steps: steps.collect(),
        final_delay: points[n].2.clone(),
        loop_start: None,
        rates: Some(points.iter().map(|p| p.3.clone()).collect()),
    };
    Ok(out)
}

/// The least delay `d >= 0` with `lo_k·d <= y_k − e_k <= hi_k·d` for every
/// `k`, and the rate vector `(y − e) / d` (the lower rates when `d = 0`).
fn least_delay(e: &[Rational], y: &[Rational], rates: &[(Q, Q)]) -> Option<(Q, Vec<Q>)> {
    let mut cons = vec![Constraint::ge(vec![Q::one()], Q::zero())];
    for ((e, y), (lo, hi)) in e.iter().zip(y).zip(rates) {
        let delta = y - e;
        cons.push(Constraint::new(vec![lo.clone()], Rel::Le, delta.clone()));
        cons.push(Constraint::ge(vec![hi.clone()], delta));
    }
    let Sup::Max { value, .. } = Poly::new(1, cons).maximise(&[-Q::one()]) else { return None };
    let d = -value;
    let rate = if d.is_zero() {
        rates.iter().map(|r| r.0.clone()).collect()
    } else {
        e.iter().zip(y).map(|(e, y)| (y - e) / &d).collect()
    };
    Some((d, rate))
}
