//! From a symbolic path to a concrete run (STYLE.md item 10).
//!
//! **Exact path.** The engine's zones are extrapolated: their points need
//! not be reachable. So the path is replayed on exact zones from
//! [`ZoneGraph::initial_exact`] along the same transitions with
//! [`ZoneGraph::post_exact`]. Extrapolation (ExtraLU+, and Extra_M+) is a
//! simulation: every valuation of an abstract zone is simulated by one of
//! the exact zone it was extrapolated from (it can take every step the
//! other takes, reaching a valuation that again simulates). By induction
//! along the path, when an abstract successor is non-empty some valuation
//! of the exact predecessor takes the same transition, so the exact path is
//! non-empty too. The goal (the valuations of the last abstract state the
//! verdict is about) meets the exact last zone for the same reason: its
//! clock constants are inside the LU bounds (the engine adds the formula's
//! constants to them), so it is a union of classes the simulation
//! respects, and an abstract valuation in it is simulated by an exact one
//! in it. Were either ever empty (a bug elsewhere), this module returns an
//! error, never a made-up run.
//!
//! **Times.** An exact zone is exactly the set of valuations some run along
//! the path reaches, so a point of goal ∩ exact last zone is reached by a
//! run. Rather than picking points backwards state by state (a greedy
//! choice that can force a fraction later which a different earlier choice
//! avoids), all the event times are solved at once: along a fixed path
//! every guard, invariant and goal constraint is a difference constraint
//! between two event times ([`super::schedule`]), and its earliest solution
//! on the coarsest grid is the run taken: integers whenever some run has
//! integer times, each step as soon as it can fire. Time need not be a
//! clock: with no clocks the delays are still there (0 exactly where time
//! cannot pass). The result is replayed by [`super::validate`] before it
//! is returned.

use num_traits::Zero;
use thiserror::Error;

use super::schedule::Schedule;
use super::{ConcreteState, ConcreteStep, ConcreteTrace, Rational};
use crate::domain::zone::Dbm;
use crate::engine::SymbolicTrace;
use crate::network::{ClockConstraint, Network};
use crate::semantics::{Abstraction, Cut, Discrete, RunError, Transition, ZoneGraph, ZoneState};

/// Why no concrete run could be built. Every variant but `Run` means a bug
/// in the engine, the zone graph or here: the symbolic path was not one.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ConcretiseError {
    #[error("the symbolic trace has {states} states for {steps} steps")]
    Shape { states: usize, steps: usize },
    #[error("no exact initial state has the locations and data of the trace's first state")]
    NoInitial,
    #[error("step {step}: the exact successor is empty while the abstract one is not")]
    EmptyStep { step: usize },
    #[error("step {step}: the exact successor's locations or data differ from the trace's")]
    Discrete { step: usize },
    #[error("the goal does not meet the exact last zone")]
    EmptyGoal,
    #[error("no event times satisfy the path's constraints")]
    NoSchedule,
    #[error("no two of {passes} passes around the cycle start in the same region")]
    NoLasso { passes: usize },
    #[error("a run-time error while replaying the path: {0:?}")]
    Run(RunError),
    #[error("the concrete trace does not validate: {0}")]
    Invalid(String),
}

impl From<RunError> for ConcretiseError {
    fn from(e: RunError) -> Self {
        ConcretiseError::Run(e)
    }
}

/// For each DBM clock index (slot 0 unused): the event at which the clock
/// was last reset (0: the start) and the value it was reset to.
type Resets = Vec<(usize, i64)>;

/// A concrete run along `trace`'s transitions, ending in its goal (or, for
/// a trace to a run-time error, where the failing step's guard holds). A
/// trace of the liveness engine ([`SymbolicTrace::tick_clock`]) is solved
/// on the network extended with the progress clock, then given back on
/// `net`: a path without its ticks, a lasso with them as progress marks
/// ([`super::lasso`]).
pub fn concretise(net: &Network, trace: &SymbolicTrace) -> Result<ConcreteTrace, ConcretiseError> {
    if let Some(run) = &trace.concrete {
        super::validate(net, run).map_err(ConcretiseError::Invalid)?;
        return Ok((**run).clone());
    }
    let Some(z) = trace.tick_clock else {
        let out = if net.hybrid.is_some() { super::linear::concretise(net, trace)? } else { solve(net, trace, false)? };
        super::validate(net, &out).map_err(ConcretiseError::Invalid)?;
        if let Some(f) = &trace.target
            && super::validate::ends_in(net, &out, f).map_err(ConcretiseError::Invalid)? == Some(false)
        {
            return Err(ConcretiseError::Invalid("the run ends outside the property's target".into()));
        }
        return Ok(out);
    };
    let mut extended = net.clone();
    let z2 = crate::engine::liveness::augment(&mut extended);
    debug_assert_eq!(z, z2, "the same extension as the engine's");
    let out = match trace.loop_start {
        Some(k) => super::lasso::unroll(net, &extended, trace, k)?,
        None => super::lasso::without_ticks(&solve(&extended, trace, false)?, None, 1),
    };
    super::validate(net, &out).map_err(ConcretiseError::Invalid)?;
    Ok(out)
}

/// The earliest run along `trace` on `net` (ticks are steps without
/// edges when `trace.tick_clock` is set), ending in the goal; with
/// `end_now`, the final delay is 0.
pub(super) fn solve(net: &Network, trace: &SymbolicTrace, end_now: bool) -> Result<ConcreteTrace, ConcretiseError> {
    let n = trace.steps.len();
    if trace.states.len() != n + 1 {
        return Err(ConcretiseError::Shape { states: trace.states.len(), steps: n });
    }
    let mut zg = ZoneGraph::new(net, Abstraction::None);
    let path = exact_path(&mut zg, trace)?;
    let goals = goal_zones(&mut zg, trace, &path[n])?;
    // Times τ_0 = 0 (start), τ_{i+1} (step i, entering state i + 1), and
    // τ_{n+1} (the end).
    let mut base = Schedule::new(n + 2);
    let mut resets: Vec<Resets> = vec![vec![(0, 0); net.dim()]];
    let mut raw = Vec::new();
    let first_tick = trace.steps.iter().position(|t| tick(trace, t).is_some());
    for (i, s) in path.iter().enumerate() {
        if i > 0 {
            let (d, t) = (&path[i - 1].discrete, &trace.steps[i - 1]);
            let mut next = resets[i - 1].clone();
            match tick(trace, t) {
                Some(z) => {
                    // z >= 1, then z := 0; the first tick has no guard (z
                    // was free until then, see `exact_path`).
                    if first_tick.is_some_and(|f| f < i - 1) {
                        diff(&mut base, &resets[i - 1], i, 0, z, -1, false);
                    }
                    next[z] = (i, 0);
                }
                None => {
                    for &(p, e) in &t.edges {
                        for c in &net.processes[p as usize].edges[e as usize].guard_clocks {
                            timed(&mut base, &resets[i - 1], i, c, d, false)?;
                        }
                    }
                    // The cells the step is taken in (`ZoneGraph::guard`):
                    // broadcast receivers kept out by a failing clock atom,
                    // and where no step of higher priority is possible.
                    for &(p, e, k) in &t.out {
                        let atoms = &net.processes[p as usize].edges[e as usize].guard_clocks;
                        for c in &atoms[..k as usize] {
                            timed(&mut base, &resets[i - 1], i, c, d, false)?;
                        }
                        timed(&mut base, &resets[i - 1], i, &atoms[k as usize], d, true)?;
                    }
                    let diffs = t.unless.iter().map(|cut| match cut {
                        Cut::Diff(a, b, bound) => (*a, *b, *bound),
                        Cut::Linear(_) => unreachable!("linear networks' runs are `trace::linear`'s"),
                    });
                    for (a, b, bound) in diffs.filter(|u| u.2.is_finite()) {
                        diff(
                            &mut base,
                            &resets[i - 1],
                            i,
                            a as usize,
                            b as usize,
                            bound.value().into(),
                            bound.is_strict(),
                        );
                    }
                    zg.discrete_post(d, t, &mut raw)?;
                    for &(x, v) in &raw {
                        next[x as usize] = (i, v);
                    }
                }
            }
            resets.push(next);
        }
        // Time runs forward, and not at all where it cannot pass; the
        // invariants hold when the state is entered and when it is left
        // (they are convex, so in between too).
        base.add(i, i + 1, 0, false);
        if !zg.can_delay(&s.discrete)? || (end_now && i == n) {
            base.add(i + 1, i, 0, false);
        }
        for at in [i, i + 1] {
            for (p, &l) in s.discrete.locs.iter().enumerate() {
                for c in &net.processes[p].locations[l as usize].invariant {
                    timed(&mut base, &resets[i], at, c, &s.discrete, false)?;
                }
            }
        }
    }
    let systems: Vec<Schedule> = goals
        .iter()
        .map(|g| {
            let mut s = base.clone();
            zone_at(&mut s, &resets[n], n + 1, g);
            s
        })
        .collect();
    let times = Schedule::solve_first(&systems).ok_or(ConcretiseError::NoSchedule)?;
    let valuation = |i: usize, at: usize| -> Vec<Rational> {
        resets[i][1..].iter().map(|&(r, v)| &times[at] - &times[r] + Rational::from_integer(v.into())).collect()
    };
    let mut out = ConcreteTrace {
        initial: ConcreteState { discrete: path[0].discrete.clone(), clocks: valuation(0, 0) },
        steps: Vec::with_capacity(n),
        final_delay: &times[n + 1] - &times[n],
        loop_start: None,
        rates: None,
    };
    for (i, t) in trace.steps.iter().enumerate() {
        let after = ConcreteState { discrete: path[i + 1].discrete.clone(), clocks: valuation(i + 1, i + 1) };
        out.steps.push(ConcreteStep { delay: &times[i + 1] - &times[i], transition: t.clone(), after });
    }
    let end = valuation(n, n + 1);
    if !goals.iter().any(|g| contains(g, &end)) {
        return Err(ConcretiseError::Invalid("the run ends outside the goal".into()));
    }
    debug_assert!(out.steps.iter().all(|s| s.delay >= Rational::zero()));
    Ok(out)
}

/// The progress clock, if `t` is a tick of `trace`.
fn tick(trace: &SymbolicTrace, t: &Transition) -> Option<usize> {
    trace.tick_clock.filter(|_| t.edges.is_empty()).map(|z| z as usize)
}

/// The exact states along the trace's transitions. With a progress clock
/// `z`, `z` is free until the first tick: the liveness engine does not
/// track it before (its phase 0), and nothing but ticks reads it.
fn exact_path(zg: &mut ZoneGraph<'_>, trace: &SymbolicTrace) -> Result<Vec<ZoneState>, ConcretiseError> {
    let mut initial = Vec::new();
    zg.initial_exact(&mut initial)?;
    let mut first =
        initial.into_iter().find(|s| s.discrete == trace.states[0].discrete).ok_or(ConcretiseError::NoInitial)?;
    let mut free_z = trace.tick_clock;
    if let Some(z) = free_z {
        first.zone.free(z as usize);
    }
    let mut path = vec![first];
    for (k, t) in trace.steps.iter().enumerate() {
        let next = match tick(trace, t) {
            Some(z) => {
                free_z = None;
                crate::engine::liveness::tick_exact(zg, &path[k], z as u32)?
            }
            None => zg.post_exact(&path[k], t)?,
        };
        let mut exact = next.ok_or(ConcretiseError::EmptyStep { step: k })?;
        if let Some(z) = free_z {
            exact.zone.free(z as usize);
        }
        if exact.discrete != trace.states[k + 1].discrete {
            return Err(ConcretiseError::Discrete { step: k });
        }
        // (With `z` freed, the engine's zone may constrain it and the
        // inclusion holds only without `z`.)
        debug_assert!(
            trace.tick_clock.is_some() || exact.zone.is_subset_of(&trace.states[k + 1].zone),
            "extrapolation only adds valuations"
        );
        path.push(exact);
    }
    Ok(path)
}

/// The goal's zones intersected with the exact last zone, the empty ones
/// left out. For an error trace, also with the failing step's clock guard
/// when that leaves something: an error raised before clock guards matter
/// (a data guard, a channel index) happens anywhere in the zone.
fn goal_zones(zg: &mut ZoneGraph<'_>, trace: &SymbolicTrace, last: &ZoneState) -> Result<Vec<Dbm>, ConcretiseError> {
    let meet = |zone: &Dbm| -> Vec<Dbm> {
        trace
            .goal
            .zones
            .iter()
            .filter_map(|g| {
                let mut z = g.clone();
                z.intersect(zone).then_some(z)
            })
            .collect()
    };
    let mut zones = meet(&last.zone);
    if let Some(t) = trace.error.as_ref().and_then(|e| e.transition.as_ref()) {
        let mut guarded = last.zone.clone();
        if zg.guard(&last.discrete, t, &mut guarded).unwrap_or(false) {
            let narrower = meet(&guarded);
            if !narrower.is_empty() {
                zones = narrower;
            }
        }
    }
    if zones.is_empty() { Err(ConcretiseError::EmptyGoal) } else { Ok(zones) }
}

/// Adds `x_a - x_b ≺ β` at event `at` as a constraint on event times: with
/// `x = τ_at - τ_r + c` (last reset at `τ_r` to `c`; `x_0 = 0` is `r = at,
/// c = 0`), it reads `τ_rb - τ_ra ≺ β - c_a + c_b`.
fn diff(s: &mut Schedule, resets: &Resets, at: usize, a: usize, b: usize, beta: i64, strict: bool) {
    let clock = |k: usize| if k == 0 { (at, 0) } else { resets[k] };
    let ((ra, ca), (rb, cb)) = (clock(a), clock(b));
    s.add(rb, ra, i128::from(beta) - i128::from(ca) + i128::from(cb), strict);
}

/// A guard or invariant constraint `x_i - x_j ≺ v`, its bound evaluated in
/// `d`, at event `at`; with `negated`, its negation `x_j - x_i ≺' -v`.
fn timed(
    s: &mut Schedule,
    resets: &Resets,
    at: usize,
    c: &ClockConstraint,
    d: &Discrete,
    negated: bool,
) -> Result<(), ConcretiseError> {
    let v = c.bound.eval(&d.locs, &d.data, &mut Vec::new()).map_err(|error| RunError { error, transition: None })?;
    let v = if c.negate { -v } else { v };
    let (i, j) = (c.i as usize, c.j as usize);
    match negated {
        false => diff(s, resets, at, i, j, v, c.strict),
        true => diff(s, resets, at, j, i, -v, !c.strict),
    }
    Ok(())
}

/// Every bound of the zone `z` at event `at`.
fn zone_at(s: &mut Schedule, resets: &Resets, at: usize, z: &Dbm) {
    for a in 0..z.dim() {
        for b in (0..z.dim()).filter(|&b| b != a) {
            let bound = z.bound(a, b);
            if bound.is_finite() {
                diff(s, resets, at, a, b, i64::from(bound.value()), bound.is_strict());
            }
        }
    }
}

/// Whether the valuation `clocks` (slot `k - 1` is clock `k`) lies in `z`.
fn contains(z: &Dbm, clocks: &[Rational]) -> bool {
    let at = |k: usize| if k == 0 { Rational::zero() } else { clocks[k - 1].clone() };
    (0..z.dim()).all(|a| {
        (0..z.dim()).filter(|&b| b != a).all(|b| {
            let bound = z.bound(a, b);
            if !bound.is_finite() {
                return true;
            }
            let (diff, c) = (at(a) - at(b), Rational::from_integer(i64::from(bound.value()).into()));
            diff < c || (diff == c && !bound.is_strict())
        })
    })
}
