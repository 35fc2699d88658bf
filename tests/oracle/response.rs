//! An independent oracle for worst-case response times in CLOSED timed
//! automata, for φ, ψ over locations and data only: the supremum, over
//! time-divergent runs and moments where φ holds, of the time until the
//! first moment where ψ holds (`∞` when some divergent run never gets
//! there). It decides the bounded responses `φ -->[<= b] ψ` (iff `W <= b`),
//! `φ -->[< b] ψ` (iff `W < b`, for `b >= 1`) and the top-level
//! `A<>[<= b] ψ`, `A<>[< b] ψ` (`W0`: from the initial states), and is
//! what `kairos bound` must compute.
//!
//! It runs on the explicit integer-time graph of [`Oracle`] (integer clocks
//! capped at the largest constant + 1, one delay step = one time unit);
//! nothing of the engine (zones, observers, the tick clock, SCCs on
//! zones) is used.
//!
//! # Why integer time gives the dense value, and why it is attained
//!
//! φ and ψ are clock-free: their truth changes only at discrete steps, so
//! the worst moments are positions of a run (a φ moment inside a delay has
//! the same discrete state as the delay's start, which answers later), and
//! the first ψ moment after one is the time stamp of a position too.
//!
//! - Integer runs are dense runs (grid.rs, point 1), divergent ones stay
//!   divergent: `W_int <= W_dense`.
//! - Digitisation (Henzinger, Manna, Pnueli 1992; grid.rs, point 2): in a
//!   closed automaton, rounding every time stamp of a dense run with one
//!   threshold `ε ∈ [0, 1)` (down when the fractional part is `<= ε`, else
//!   up) gives a run through the same discrete states, divergent when the
//!   original is (each stamp moves by less than 1). Take a divergent dense
//!   run with φ at position `i` (time `t0`, fractional part `a`) and the
//!   first ψ after it at position `j` (time `t1`, fractional part `c`).
//!   If `a < c`, any `ε ∈ [a, c)` rounds `t0` down and `t1` up: the
//!   integer run takes `⌈t1⌉ - ⌊t0⌋ >= t1 - t0`. If `a >= c`, `ε = a`
//!   rounds both down: `(t1 - c) - (t0 - a) >= t1 - t0`. Same positions,
//!   so the same first ψ: every dense response time `d` is matched by an
//!   integer one `>= d` (hence `>= ⌈d⌉`), and a run that never reaches ψ
//!   stays one. So `W_dense <= W_int`.
//!
//! Hence `W_dense = W_int`, and the sup is a max, reached by an integer run,
//! which is a dense run: **on a closed network a finite bound is always
//! attained** (the engine's `attained` must be true; in its terms: the
//! reachable `w` valuations of the observer's `wait` are a finite union of
//! closed zones, and the stored, extrapolated zones have the same `w`
//! values since `L(w) = U(w) = 2^28`, so the largest upper bound of `w` is
//! non-strict). Finally the integer graph is finite and exact for closed
//! constraints (grid.rs, "Finiteness"), and a divergent integer run is an
//! infinite path with infinitely many delay steps.
//!
//! # The algorithm
//!
//! `live(s)`: some divergent run starts in `s` (the fair-`EG true`
//! fixpoint of live.rs). A divergent run from a `φ and not ψ` state `s`
//! either never meets ψ (its response is `∞`) or is, up to its first ψ, a
//! path `s → … → t` through `not ψ` states ending in a ψ state `t` with
//! `live(t)` (the rest of the run starts there); conversely every such path
//! extends to a divergent run. A path to a time-lock, or a Zeno path, is no
//! run at all and counts for nothing. So on the subgraph `G` of the
//! `not ψ` states (discrete edges weigh 0, delay edges 1):
//!
//! `D(u) = max over edges u → v of  w(u → v) + (D(v) if v ∈ G; 0 if ψ(v) and
//! live(v); -∞ otherwise)`,
//!
//! the longest path to a live ψ state, `-∞` when there is none. Cycles of
//! `G` are handled through its strongly connected components (Tarjan,
//! successors first): a component with a delay edge inside is a cycle that
//! lets time diverge without ψ, `D = ∞` there and wherever it can be
//! reached inside `G`; a component without one has only weight-0 edges
//! inside, so all its states have the same `D`, the max over the edges
//! leaving it. Then
//!
//! - `W = max(0, max over reachable φ and not ψ states s of D(s))` (a φ
//!   state where ψ holds answers at once; `0` when nothing is to be
//!   answered, as `kairos bound` says);
//! - `W0 = max(0, max over initial states s with not ψ of D(s))`.
//!
//! A check inside the oracle: `D(s) = ∞` must be exactly live.rs's
//! fair-`EG not ψ` (a divergent run avoiding ψ), computed by a fixpoint
//! rather than components.
#![allow(dead_code)]

use kairos::network::StateFormula;

use super::{NONE, Oracle};

/// A response time: `Never` (`-∞`: no divergent run), a number of time
/// units, or `Inf` (some divergent run never answers). Ordered so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Resp {
    Never,
    Fin(i64),
    Inf,
}

impl Resp {
    fn plus(self, w: i64) -> Resp {
        match self {
            Resp::Fin(d) => Resp::Fin(d + w),
            other => other,
        }
    }

    /// `max(0, self)`: what a property is measured with.
    fn at_least_zero(self) -> Resp {
        self.max(Resp::Fin(0))
    }
}

/// The worst cases of one (φ, ψ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Worst {
    /// `φ --> ψ`: from every reachable φ moment.
    pub leads_to: Resp,
    /// `A<> ψ`: from the initial states.
    pub eventually: Resp,
    /// Not a response time: the longest time from a reachable φ moment
    /// without ψ since, on any path (time-locked ones too), the quantity
    /// `kairos bound` measures (the largest `w` in a reachable `wait`).
    /// It equals `leads_to` when every reachable state has a divergent run.
    pub reached: Resp,
}

impl Oracle<'_> {
    /// The worst-case response times for `φ` (`None`: top-level `A<> ψ`
    /// only asked) and `ψ`. `None` on a run-time error in a formula.
    pub fn worst(&mut self, phi: &StateFormula, psi: &StateFormula) -> Option<Worst> {
        let n = self.state_count();
        let p: Vec<bool> = (0..n).map(|i| self.sat(phi, i).ok()).collect::<Option<_>>()?;
        let q: Vec<bool> = (0..n).map(|i| self.sat(psi, i).ok()).collect::<Option<_>>()?;
        let live = self.fair(&vec![true; n]);
        let outside: Vec<bool> = q.iter().map(|h| !h).collect();
        let d = self.longest(&outside, &live, false);
        // The components must find the divergent ψ-avoiding runs the
        // fixpoint finds.
        let avoid = self.fair(&outside);
        for i in 0..n {
            assert_eq!(
                d[i] == Resp::Inf,
                avoid[i],
                "oracle: components and fixpoint disagree on a divergent `not ψ` run from {}",
                self.show(i)
            );
        }
        let leads_to = (0..n).filter(|&i| p[i] && !q[i]).map(|i| d[i]).max().unwrap_or(Resp::Never);
        let eventually = (0..self.initial_states).filter(|&i| !q[i]).map(|i| d[i]).max().unwrap_or(Resp::Never);
        // Paths that may end anywhere, time-locks included.
        let any = self.longest(&outside, &vec![true; n], true);
        let reached = (0..n).filter(|&i| p[i] && !q[i]).map(|i| any[i]).max().unwrap_or(Resp::Never);
        Some(Worst {
            leads_to: leads_to.at_least_zero(),
            eventually: eventually.at_least_zero(),
            reached: reached.at_least_zero(),
        })
    }

    /// Some reachable state has no time-divergent run.
    pub fn time_locked(&self) -> bool {
        self.fair(&vec![true; self.state_count()]).iter().any(|live| !live)
    }

    /// Per state: `D` of the module comment inside `inside` (`Never`
    /// outside), with `live` deciding the states outside where a path may
    /// end; `anywhere`: a path may also end inside.
    fn longest(&self, inside: &[bool], live: &[bool], anywhere: bool) -> Vec<Resp> {
        let n = self.state_count();
        // The edges of a state, with their weights.
        let edges = |i: usize| {
            let d = self.delay[i];
            self.succ[i].iter().map(|&j| (j as usize, 0)).chain((d != NONE).then_some((d as usize, 1)))
        };
        let comps = self.components(inside);
        let mut comp = vec![u32::MAX; n];
        for (c, members) in comps.iter().enumerate() {
            for &i in members {
                comp[i] = c as u32;
            }
        }
        let mut value = vec![Resp::Never; comps.len()];
        // Successors' components come first.
        for (c, members) in comps.iter().enumerate() {
            let mut best = if anywhere { Resp::Fin(0) } else { Resp::Never };
            for &i in members {
                for (j, w) in edges(i) {
                    let r = if !inside[j] {
                        if live[j] { Resp::Fin(w) } else { Resp::Never }
                    } else if comp[j] as usize == c {
                        if w == 1 { Resp::Inf } else { continue }
                    } else {
                        value[comp[j] as usize].plus(w)
                    };
                    best = best.max(r);
                }
            }
            value[c] = best;
        }
        (0..n).map(|i| if inside[i] { value[comp[i] as usize] } else { Resp::Never }).collect()
    }

    /// The strongly connected components of the subgraph of `inside`
    /// (discrete and delay edges), successors' components first (Tarjan,
    /// iterative).
    fn components(&self, inside: &[bool]) -> Vec<Vec<usize>> {
        let n = self.state_count();
        let next = |i: usize, k: usize| -> Option<usize> {
            let s = &self.succ[i];
            if k < s.len() {
                Some(s[k] as usize)
            } else if k == s.len() && self.delay[i] != NONE {
                Some(self.delay[i] as usize)
            } else {
                None
            }
        };
        const UNSEEN: u32 = u32::MAX;
        let mut index = vec![UNSEEN; n];
        let mut low = vec![0u32; n];
        let mut on_stack = vec![false; n];
        let mut stack: Vec<usize> = Vec::new();
        let mut out: Vec<Vec<usize>> = Vec::new();
        let mut counter = 0u32;
        // (state, next edge to look at)
        let mut calls: Vec<(usize, usize)> = Vec::new();
        for root in 0..n {
            if !inside[root] || index[root] != UNSEEN {
                continue;
            }
            calls.push((root, 0));
            index[root] = counter;
            low[root] = counter;
            counter += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&mut (i, ref mut k)) = calls.last_mut() {
                if let Some(j) = next(i, *k) {
                    *k += 1;
                    if !inside[j] {
                        continue;
                    }
                    if index[j] == UNSEEN {
                        index[j] = counter;
                        low[j] = counter;
                        counter += 1;
                        stack.push(j);
                        on_stack[j] = true;
                        calls.push((j, 0));
                    } else if on_stack[j] {
                        low[i] = low[i].min(index[j]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(parent, _)) = calls.last() {
                    low[parent] = low[parent].min(low[i]);
                }
                if low[i] == index[i] {
                    let mut members = Vec::new();
                    loop {
                        let j = stack.pop().expect("on the stack");
                        on_stack[j] = false;
                        members.push(j);
                        if j == i {
                            break;
                        }
                    }
                    out.push(members);
                }
            }
        }
        out
    }
}
