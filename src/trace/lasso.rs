//! Concrete lassos from the liveness engine's symbolic ones.
//!
//! The engine's loop is a cycle of the abstract zone graph, opened and
//! closed by a tick (`z >= 1`, `z := 0`). One concrete pass around it need
//! not come back to where it started, nor even to an equivalent valuation:
//! extrapolated zones are unions of many regions. But the abstract cycle
//! can be followed forever (that is what makes the engine's answer right),
//! and there are finitely many regions, so some two passes start in the
//! same region. So the cycle is unrolled `k = 1, 2, 4, …` times (doubling
//! keeps the work linear in the passes needed), the earliest run along it
//! is solved ([`super::concrete`]), and the loop is the stretch
//! between the first two pass boundaries whose states are region
//! equivalent ([`super::validate::region`]). Its ends are right after
//! ticks, so `z = 0` at both, and the validator's argument applies.

use super::concrete::{ConcretiseError, solve};
use super::validate::region;
use super::{ConcreteTrace, Rational};
use crate::domain::federation::Federation;
use crate::domain::zone::Dbm;
use crate::engine::SymbolicTrace;
use crate::network::Network;

/// Most passes around the symbolic cycle tried. The earliest run can need
/// many: a clock the cycle never resets grows by at least the tick's time
/// unit per pass, so it repeats a region only past its largest constant
/// (`y >= 50` in tests/models/liveness/reset-loop.yaml: 51 passes).
const MAX_PASSES: usize = 1024;

/// The concrete lasso of `trace` (loop opened at step `open`), on `net`;
/// `extended` is `net` with the progress clock.
pub(super) fn unroll(
    net: &Network,
    extended: &Network,
    trace: &SymbolicTrace,
    open: usize,
) -> Result<ConcreteTrace, ConcretiseError> {
    let n = trace.steps.len();
    // The cycle is steps[open .. n - 1] (from states[open] back to it);
    // steps[n - 1] is the closing tick.
    let cycle = n - 1 - open;
    if trace.steps[open..].iter().all(|t| t.edges.is_empty()) {
        return Ok(pure_delay(net, &solve(extended, trace, true)?, open));
    }
    for passes in std::iter::successors(Some(1), |p| Some(p * 2)).take_while(|&p| p <= MAX_PASSES) {
        let mut unrolled = trace.clone();
        unrolled.states.truncate(open + 1);
        unrolled.steps.truncate(open);
        for _ in 0..passes {
            unrolled.states.extend_from_slice(&trace.states[open + 1..n]);
            unrolled.steps.extend_from_slice(&trace.steps[open..n - 1]);
        }
        unrolled.states.push(trace.states[n].clone());
        unrolled.steps.push(trace.steps[n - 1].clone());
        // Any end: the engine's nodes are aLU classes, so a later pass
        // ends in the class of the loop's last node, not always inside the
        // zone it shows (its representative). Following the steps is what
        // matters; the validator checks the loop.
        unrolled.goal = Federation::from_zone(Dbm::universe(trace.states[n].zone.dim()));
        let run = solve(extended, &unrolled, true)?;
        let boundary = |m: usize| open + m * cycle;
        let at = |m: usize| &run.steps[boundary(m)].after;
        let found = (1..=passes).find_map(|j| {
            (0..j)
                .find(|&i| {
                    let (a, b) = (at(i), at(j));
                    a.discrete == b.discrete
                        && region::equivalent(net, &a.clocks[..net.clocks.len()], &b.clocks[..net.clocks.len()])
                })
                .map(|i| (i, j))
        });
        if let Some((i, j)) = found {
            let mut run = run;
            run.steps.truncate(boundary(j) + 1);
            run.final_delay = Rational::from_integer(0.into());
            return Ok(without_ticks(&run, Some(boundary(i)), 1));
        }
    }
    Err(ConcretiseError::NoLasso { passes: MAX_PASSES })
}

/// A loop of ticks only (time passes forever in one state, which has no
/// clock invariant): the opening tick is moved until every clock is above
/// its largest constant, so both ends are in the same unbounded region.
fn pure_delay(net: &Network, run: &ConcreteTrace, open: usize) -> ConcreteTrace {
    let m = region::max_constants(net);
    let before = run.steps[open].after.clocks.clone();
    let wait = (0..net.clocks.len())
        .map(|k| Rational::from_integer((m[k] + 1).into()) - &before[k])
        .fold(Rational::from_integer(0.into()), |a, b| if b > a { b } else { a });
    let mut run = run.clone();
    run.steps[open].delay += &wait;
    for step in &mut run.steps[open..] {
        for c in &mut step.after.clocks[..net.clocks.len()] {
            *c += &wait;
        }
    }
    without_ticks(&run, Some(open), 1)
}

/// `run` on the network without its last `extra` clocks (the progress
/// clock, and the fixpoint engine's formula clock): ticks before
/// `keep_from` (all of them when `None`) are left out, their delays added
/// to the next step's; the ticks kept are progress marks and the loop
/// starts at `keep_from`.
pub(crate) fn without_ticks(run: &ConcreteTrace, keep_from: Option<usize>, extra: usize) -> ConcreteTrace {
    let drop_z = |c: &[Rational]| c[..c.len() - extra].to_vec();
    let mut out = ConcreteTrace {
        initial: super::ConcreteState { discrete: run.initial.discrete.clone(), clocks: drop_z(&run.initial.clocks) },
        steps: Vec::new(),
        final_delay: run.final_delay.clone(),
        loop_start: None,
        rates: None,
    };
    let mut carry = Rational::from_integer(0.into());
    for (k, step) in run.steps.iter().enumerate() {
        let keep = keep_from.is_some_and(|from| k >= from);
        if step.transition.edges.is_empty() && !keep {
            carry += &step.delay;
            continue;
        }
        if Some(k) == keep_from {
            out.loop_start = Some(out.steps.len());
        }
        let mut s = step.clone();
        s.delay += std::mem::replace(&mut carry, Rational::from_integer(0.into()));
        s.after.clocks = drop_z(&s.after.clocks);
        out.steps.push(s);
    }
    out.final_delay += carry;
    out
}
