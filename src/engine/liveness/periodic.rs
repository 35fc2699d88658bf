//! Counterexamples (and `E[]` witnesses) of the liveness engine on linear
//! networks, confirmed by an ultimately periodic run.
//!
//! **Why a cycle of polyhedra is not enough.** On a linear network the
//! graph is the exact one (no abstraction exists), and a cycle of equal
//! polyhedra need not carry an infinite run: with `y := y - 1` under the
//! guard `y >= 1` once per time unit, `y >= 0` maps onto itself, yet from
//! every `y` the run stops after `⌊y⌋` rounds. The search's *absence* of an
//! accepting cycle stays exact (every concrete run is covered by a path of
//! the exact graph, and an infinite path of a finite graph has a cycle), so
//! `Satisfied` for `A<>`, `-->` and bounded response, and `Violated` for
//! `E[]`, need nothing more; the other answers need a run.
//!
//! **The run.** A lasso's loop leads node `u` back to `u` (ending where it
//! opened, right before a tick). The loop's relation is computed on
//! polyhedra over the variables and a frozen copy of them (rate 0, never
//! assigned): from `{(x, c) | x ∈ P_u, c = x}` the loop's exact successors
//! give `E`, the pairs (end, start). If some `c`, `d` have `(c + d, c) ∈ E`
//! and `(d, d)` in the recession cone of `E`, then `(c + (k+1)·d, c + k·d)`
//! is in `E` for every `k`: the loop can be run from `c`, then from `c + d`,
//! and so on forever (`d = 0`: a periodic run; `d ≠ 0` lets clocks that are
//! never reset drift). Every round has a tick, and ticks are a time unit
//! apart: time diverges. Each point of `P_u` is reached from the query's
//! `enter` states through `stay` states, as the sets are exact images (the
//! tick clock `z`, forgotten where a pass does not track it, constrains no
//! step of the model). Both conditions are linear in `(c, d)`: one
//! polyhedron, its emptiness decided exactly.
//!
//! This is sufficient, not necessary (a run whose valuations never repeat
//! up to a constant drift is missed): where it finds no run the answer is
//! `unknown`, said. A pass without ticks needs none of this: its accepting
//! loops are states where time passes forever with no invariant, and any
//! valuation of them is such a run.

use num_traits::Zero;

use super::End;
use super::product::{Product, Ticks, tick_exact};
use crate::domain::poly::{Constraint, Poly, Q, Rel};
use crate::engine::{SymbolicTrace, Unknown};
use crate::network::{NO_BOUND, Network};
use crate::semantics::{Abstraction, RunError, Transition, ZoneGraph, ZoneState};

/// Why an accepting cycle of a linear network's search proves nothing.
pub const UNCONFIRMED: &str = "a cycle of polyhedra was found but no ultimately periodic run along it: liveness on hybrid models is confirmed only by such runs";

/// What the search found on a linear network (`trace`, a lasso whose loop
/// leads `u` back to `u`), if a run confirms it (see the module doc); the
/// trace is then the path to where that run loops, without ticks.
pub fn confirm(p: &Product<'_, '_, Poly>, trace: SymbolicTrace, u: u32, ticks: Ticks) -> End {
    let net = p.zg.net;
    if net.hybrid.is_none() {
        // Rate-1 polyhedra of a timed network are its zones: the zone
        // graph's argument holds as it is.
        return End::Found(trace);
    }
    let opening = trace.loop_start.expect("a lasso");
    if ticks != Ticks::Nowhere {
        let start = &p.nodes.state(u);
        let last = trace.steps.len() - 1;
        match runs_forever(net, start, &trace.steps[opening..last], p.z()) {
            Ok(true) => {}
            Ok(false) => {
                return End::Stopped(Unknown::Unsupported(UNCONFIRMED.into()));
            }
            Err(error) => return End::Error(error.describe(net), None),
        }
    }
    End::Found(without_ticks(trace, opening))
}

/// The path of `trace` up to its loop (`steps[..opening]`), its ticks left
/// out: a finite run of the model, concretised like any other.
pub fn without_ticks(trace: SymbolicTrace, opening: usize) -> SymbolicTrace {
    let mut states = vec![trace.states[0].clone()];
    let mut steps = Vec::new();
    for (t, s) in trace.steps.iter().zip(&trace.states[1..]).take(opening) {
        if t.edges.is_empty() {
            // A tick changes the tick clock only: the next state is this one.
            continue;
        }
        steps.push(t.clone());
        states.push(s.clone());
    }
    let goal = crate::domain::federation::Federation::from_zone(states.last().expect("a state").zone.clone());
    SymbolicTrace { states, steps, goal, tick_clock: None, loop_start: None, ..trace }
}

/// Whether the loop `steps` (ticks are steps without edges) from `start`
/// back to its discrete state has an ultimately periodic run (module doc).
pub fn runs_forever(net: &Network, start: &ZoneState<Poly>, steps: &[Transition], z: u32) -> Result<bool, RunError> {
    let n = net.clocks.len();
    let mut twin = net.clone();
    let h = twin.hybrid.as_mut().expect("a linear network");
    for k in 0..n {
        // Continuous variables numbered after the others: rate 0.
        twin.clocks.push(format!("{}@start", net.clocks[k]));
        h.init.push((Q::zero(), Q::zero()));
        twin.lu.global.push((NO_BOUND, NO_BOUND));
    }
    let pad = |c: &Constraint, at: usize| {
        let mut a = vec![Q::zero(); 2 * n];
        a[at..at + n].clone_from_slice(&c.coeffs);
        Constraint::new(a, c.rel, c.rhs.clone())
    };
    let copies = (0..n).map(|k| {
        let mut a = vec![Q::zero(); 2 * n];
        a[k] = Q::from_integer(1.into());
        a[n + k] = Q::from_integer((-1).into());
        Constraint::new(a, Rel::Eq, Q::zero())
    });
    let cons = start.zone.constraints().iter().map(|c| pad(c, 0)).chain(copies).collect();
    let mut s = ZoneState { discrete: start.discrete.clone(), zone: Poly::new(2 * n, cons) };
    let mut zg = ZoneGraph::<Poly>::with_sets(&twin, Abstraction::None);
    for t in steps {
        let next = if t.edges.is_empty() { tick_exact(&mut zg, &s, z)? } else { zg.post_exact(&s, t)? };
        match next {
            Some(next) => s = next,
            None => return Ok(false),
        }
    }
    if s.discrete != start.discrete {
        return Ok(false);
    }
    // Over (c, d): (c + d, c) ∈ E, and (d, d) in its recession cone.
    let mut drift = Vec::new();
    for c in s.zone.constraints() {
        let (end, begin) = c.coeffs.split_at(n);
        let sum: Vec<Q> = end.iter().zip(begin).map(|(a, b)| a + b).collect();
        drift.push(Constraint::new([sum.clone(), end.to_vec()].concat(), c.rel, c.rhs.clone()));
        let rel = if c.rel == Rel::Eq { Rel::Eq } else { Rel::Le };
        drift.push(Constraint::new([vec![Q::zero(); n], sum].concat(), rel, Q::zero()));
    }
    Ok(!Poly::new(2 * n, drift).is_empty())
}
