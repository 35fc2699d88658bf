//! From a symbolic path to a concrete run (STYLE.md item 10).
//!
//! **Forward.** The engine's zones are extrapolated: their points need not
//! be reachable. So the path is replayed on exact zones from
//! [`ZoneGraph::initial_exact`] along the same transitions with
//! [`ZoneGraph::post_exact`]. Extrapolation (ExtraLU+, and Extra_M+) is a
//! simulation: every valuation of an abstract zone is simulated by one of
//! the exact zone it was extrapolated from (it can take every step the
//! other takes, reaching a valuation that again simulates). By induction
//! along the path, when an abstract successor is non-empty some valuation
//! of the exact predecessor takes the same transition, so the exact path is
//! non-empty too. The goal (the valuations of the last abstract state the
//! verdict is about) meets the exact last zone for the same reason: its
//! clock constants are inside the LU bounds (the engine adds the
//! formula's constants to them), so it is a union of classes the
//! simulation respects, and an abstract valuation in it is simulated by an
//! exact one in it. Were either ever empty (a bug elsewhere), this module
//! returns an error, never a made-up run.
//!
//! The exact zones carry one more clock, `time`, never reset nor
//! constrained, so delays exist even without clocks, and are 0 exactly
//! where time cannot pass (the zone is then not let elapse).
//!
//! **Backward.** A point is picked in goal ∩ the exact last zone. Then for
//! each step, last first: the entry point `r` of the state (right after the
//! transition) lies on the ray `v - t`, `t >= 0`, with reset clocks at their
//! reset values and inside the target invariants; the source point `u`
//! agrees with `r` on the clocks not reset and is free on the reset ones,
//! inside the exact source zone ∩ the guard. Values are the simplest the
//! constraints allow (integers where possible). The result is replayed by
//! [`super::validate`] before it is returned.

use num_traits::Zero;
use thiserror::Error;

use super::interval::{Interval, q};
use super::point::{complete, ray};
use super::{ConcreteState, ConcreteStep, ConcreteTrace, Rational};
use crate::domain::zone::{Bound, Dbm};
use crate::engine::SymbolicTrace;
use crate::network::Network;
use crate::semantics::{Abstraction, Discrete, RunError, Transition, ZoneGraph, ZoneState};

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
    #[error("step {step}: the exact zone with a time column disagrees with `post_exact`")]
    TimeColumn { step: usize },
    #[error("the goal does not meet the exact last zone")]
    EmptyGoal,
    #[error("step {step}: no concrete predecessor found")]
    NoPredecessor { step: usize },
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

/// One state of the exact path, over the clocks and `time` (the last
/// index).
struct Layer {
    discrete: Discrete,
    /// The elapsed exact zone.
    zone: Dbm,
    /// The invariants of `discrete` as a zone.
    invariant: Dbm,
    /// Whether time may pass in `discrete`.
    delay: bool,
}

/// One step of the exact path: the source zone ∩ the guard, and the final
/// value of every clock the step resets.
struct Jump {
    guarded: Dbm,
    resets: Vec<(usize, i64)>,
}

/// A concrete run along `trace`'s transitions, ending in its goal (or, for
/// a trace to a run-time error, where the failing step's guard holds).
pub fn concretise(net: &Network, trace: &SymbolicTrace) -> Result<ConcreteTrace, ConcretiseError> {
    if trace.states.len() != trace.steps.len() + 1 {
        return Err(ConcretiseError::Shape { states: trace.states.len(), steps: trace.steps.len() });
    }
    let mut zg = ZoneGraph::new(net, Abstraction::None);
    let (layers, jumps) = forward(&mut zg, trace)?;
    let goal = goal_point(&mut zg, trace, layers.last().expect("a first state"))?;
    let tdim = goal.len();
    // Backward: `v` is the point where state i is left (or the goal).
    let mut v = goal;
    let mut delays = vec![Rational::zero(); layers.len()];
    let mut entries = vec![Vec::new(); layers.len()];
    for i in (1..layers.len()).rev() {
        let (t, r, u) =
            predecessor(&layers[i], &jumps[i - 1], &v).ok_or(ConcretiseError::NoPredecessor { step: i - 1 })?;
        delays[i] = t;
        entries[i] = r;
        v = u;
    }
    // The initial state is entered with every clock (and time) at 0, so
    // `v` must sit on the diagonal: v = t·(1, …, 1).
    let t = v[tdim - 1].clone();
    if v[1..].iter().any(|x| *x != t) || (!t.is_zero() && !layers[0].delay) {
        return Err(ConcretiseError::NoPredecessor { step: 0 });
    }
    delays[0] = t;
    let clocks = |p: &[Rational]| p[1..tdim - 1].to_vec();
    let mut delays = delays.into_iter();
    let mut out = ConcreteTrace {
        initial: ConcreteState { discrete: layers[0].discrete.clone(), clocks: vec![Rational::zero(); tdim - 2] },
        steps: Vec::new(),
        final_delay: Rational::zero(),
    };
    for (k, step) in trace.steps.iter().enumerate() {
        let after = ConcreteState { discrete: layers[k + 1].discrete.clone(), clocks: clocks(&entries[k + 1]) };
        out.steps.push(ConcreteStep {
            delay: delays.next().expect("a delay per state"),
            transition: step.clone(),
            after,
        });
    }
    out.final_delay = delays.next().expect("a delay for the last state");
    super::validate(net, &out).map_err(ConcretiseError::Invalid)?;
    Ok(out)
}

/// The exact path along the trace's transitions, with a `time` column.
fn forward(zg: &mut ZoneGraph<'_>, trace: &SymbolicTrace) -> Result<(Vec<Layer>, Vec<Jump>), ConcretiseError> {
    let dim = zg.dim();
    let mut initial = Vec::new();
    zg.initial_exact(&mut initial)?;
    let mut plain: ZoneState =
        initial.into_iter().find(|s| s.discrete == trace.states[0].discrete).ok_or(ConcretiseError::NoInitial)?;
    let first = settle(zg, plain.discrete.clone(), Dbm::zero(dim + 1))?.ok_or(ConcretiseError::NoInitial)?;
    if project(&first.zone, dim) != plain.zone {
        return Err(ConcretiseError::TimeColumn { step: 0 });
    }
    let mut layers = vec![first];
    let mut jumps = Vec::new();
    for (k, t) in trace.steps.iter().enumerate() {
        let exact = zg.post_exact(&plain, t)?.ok_or(ConcretiseError::EmptyStep { step: k })?;
        if exact.discrete != trace.states[k + 1].discrete {
            return Err(ConcretiseError::Discrete { step: k });
        }
        debug_assert!(exact.zone.is_subset_of(&trace.states[k + 1].zone), "extrapolation only adds valuations");
        let (jump, next) = step(zg, layers.last().expect("a layer"), t)?;
        let next = next.ok_or(ConcretiseError::EmptyStep { step: k })?;
        if next.discrete != exact.discrete || project(&next.zone, dim) != exact.zone {
            return Err(ConcretiseError::TimeColumn { step: k + 1 });
        }
        layers.push(next);
        jumps.push(jump);
        plain = exact;
    }
    Ok((layers, jumps))
}

/// `post_exact` on a zone with the `time` column.
fn step(zg: &mut ZoneGraph<'_>, from: &Layer, t: &Transition) -> Result<(Jump, Option<Layer>), ConcretiseError> {
    let mut guarded = from.zone.clone();
    let mut raw = Vec::new();
    if !zg.guard(&from.discrete, t, &mut guarded)? {
        return Ok((Jump { guarded, resets: Vec::new() }, None));
    }
    let target = zg.discrete_post(&from.discrete, t, &mut raw)?;
    // Later resets of one clock override earlier ones.
    let mut resets: Vec<(usize, i64)> = Vec::new();
    for &(x, c) in &raw {
        resets.retain(|r| r.0 != x as usize);
        resets.push((x as usize, c));
    }
    let jump = Jump { guarded: guarded.clone(), resets };
    let Some(d) = target else { return Ok((jump, None)) };
    for &(x, c) in &raw {
        guarded.reset(x as usize, c as i32);
    }
    Ok((jump, settle(zg, d, guarded)?))
}

/// Target invariants, then time elapse where allowed (as `post_exact`).
fn settle(zg: &mut ZoneGraph<'_>, discrete: Discrete, mut zone: Dbm) -> Result<Option<Layer>, ConcretiseError> {
    let wrap = |e| RunError { error: e, transition: None };
    let mut invariant = Dbm::universe(zone.dim());
    if !zg.invariant(&discrete, &mut invariant).map_err(wrap)? || !zone.intersect(&invariant) {
        return Ok(None);
    }
    let delay = zg.can_delay(&discrete)?;
    if delay {
        zone.up();
        zone.intersect(&invariant);
    }
    Ok(Some(Layer { discrete, zone, invariant, delay }))
}

/// The zone of the first `dim` indices of `z` (a canonical DBM's sub-matrix
/// is the canonical DBM of its projection). Pre: `z` non-empty.
fn project(z: &Dbm, dim: usize) -> Dbm {
    let mut out = Dbm::universe(dim);
    copy_bounds(z, &mut out, dim);
    out
}

/// `z` (over `dim` indices) with a free `time` column added.
fn extend(z: &Dbm) -> Dbm {
    let mut out = Dbm::universe(z.dim() + 1);
    if z.is_empty() {
        // time < 0: the empty zone.
        out.constrain(z.dim(), 0, Bound::LT_ZERO);
    } else {
        copy_bounds(z, &mut out, z.dim());
    }
    out
}

/// Conjoins the bounds of `from` between its first `dim` indices to `to`.
fn copy_bounds(from: &Dbm, to: &mut Dbm, dim: usize) {
    debug_assert!(!from.is_empty());
    for i in 0..dim {
        for j in (0..dim).filter(|&j| j != i) {
            let b = from.bound(i, j);
            if b.is_finite() && !to.constrain(i, j, b) {
                return;
            }
        }
    }
}

/// A point of the goal in the exact last zone (for an error trace: where
/// the failing step's guard holds, when it can be evaluated), over the
/// clocks and `time`.
fn goal_point(zg: &mut ZoneGraph<'_>, trace: &SymbolicTrace, last: &Layer) -> Result<Vec<Rational>, ConcretiseError> {
    let mut zone = last.zone.clone();
    if let Some(t) = trace.error.as_ref().and_then(|e| e.transition.as_ref()) {
        // An error raised before the clock guards mattered (a data guard, a
        // channel index) happens anywhere in the zone: keep it whole then.
        let mut guarded = zone.clone();
        if zg.guard(&last.discrete, t, &mut guarded).unwrap_or(false) {
            zone = guarded;
        }
    }
    let tdim = zone.dim();
    let order: Vec<usize> = std::iter::once(tdim - 1).chain(1..tdim - 1).collect();
    let mut start = vec![None; tdim];
    start[0] = Some(q(0));
    for g in &trace.goal.zones {
        let mut z = extend(g);
        if z.intersect(&zone) {
            return complete(&z, &start, &order).ok_or(ConcretiseError::EmptyGoal);
        }
    }
    Err(ConcretiseError::EmptyGoal)
}

/// The step into `layer` by `jump`, backwards from the point `v` of
/// `layer`: the delay `t` spent in `layer`, the entry point `r = v - t`
/// (reset clocks at their values), and a source point `u` in the guarded
/// source zone with `r` its image.
///
/// Some such triple exists whenever `v` is in the layer's zone, which is
/// `up(reset(guarded) ∩ inv) ∩ inv` (without `up` when time is frozen): any
/// witness `(t, r, u)` of that membership satisfies every constraint put on
/// `t` below, and for any `t` meeting them the clocks not reset of `r` are
/// consistent with `guarded`, so [`complete`] finds the reset ones.
fn predecessor(layer: &Layer, jump: &Jump, v: &[Rational]) -> Option<(Rational, Vec<Rational>, Vec<Rational>)> {
    let tdim = v.len();
    let mut reset: Vec<Option<Rational>> = vec![None; tdim];
    for &(x, c) in &jump.resets {
        reset[x] = Some(q(c));
    }
    let base: Vec<Rational> = (0..tdim).map(|k| reset[k].clone().unwrap_or_else(|| v[k].clone())).collect();
    let moving: Vec<bool> = (0..tdim).map(|k| k != 0 && reset[k].is_none()).collect();
    let kept: Vec<bool> = reset.iter().map(Option::is_none).collect();
    let mut ts = Interval::all();
    ts.at_least(q(0), false);
    if !layer.delay {
        ts.at_most(q(0), false);
    }
    // A reset clock grew from its reset value during the whole delay.
    for &(x, c) in &jump.resets {
        ts.intersect(&Interval::point(&v[x] - q(c)));
    }
    ts.intersect(&ray(&layer.invariant, &base, &moving, &vec![true; tdim]));
    ts.intersect(&ray(&jump.guarded, &base, &moving, &kept));
    let t = ts.simplest()?;
    let r: Vec<Rational> = (0..tdim).map(|k| if moving[k] { &base[k] - &t } else { base[k].clone() }).collect();
    let partial: Vec<Option<Rational>> = (0..tdim).map(|k| kept[k].then(|| r[k].clone())).collect();
    let order: Vec<usize> = (1..tdim).collect();
    let u = complete(&jump.guarded, &partial, &order)?;
    Some((t, r, u))
}
