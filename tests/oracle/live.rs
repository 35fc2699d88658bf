//! An independent liveness oracle: `E[] φ`, `A<> φ` and `φ --> ψ` over
//! time-divergent runs, for φ, ψ over locations and data only, on one of
//! two explicit finite graphs of [`Oracle`]:
//! - CLOSED automata: the integer-time graph (`Time::Grid(1)`: integer
//!   clocks capped at the largest constant + 1; a delay step is one time
//!   unit). The progress steps are the delay steps.
//! - Any automaton (strict bounds, diagonals): the region graph of the
//!   network plus a *tick clock* `t` ([`Oracle::explore_ticked`]). The
//!   progress steps are the ticks.
//!
//! **Why integer time is exact for closed automata.** Digitisation
//! (Henzinger, Manna, Pnueli 1992): rounding the time stamps of a dense run
//! of a closed automaton gives a run with integer time stamps through the
//! same discrete states, and rounding is monotone and unbounded on
//! unbounded stamps, so a time-divergent run stays one. Integer runs are
//! dense runs. So a time-divergent run along which φ always holds (φ
//! depends only on the discrete state) exists iff one exists in integer
//! time, where it is an infinite path of the finite graph with infinitely
//! many delay steps. With strict bounds this fails (`x > 0` and `x < 1`
//! hold at no integer).
//!
//! **Why regions with the tick clock are exact, strict bounds included.**
//! On regions a delay step goes to the next region and may take arbitrarily
//! little time: a path with infinitely many delay steps can be Zeno (`x`
//! stays in `(0, 1)` under `x < 1` while `y` is reset again and again). So
//! the graph is that of the network `A_t`: `A` plus a clock `t` that no
//! guard, invariant or formula reads, and in every state a *tick* step,
//! enabled when `t >= 1`, that sets `t := 0` and changes nothing else (it
//! is not a step of `A`: urgency, the committed rule, `deadlock` and the
//! invariants ignore it, and `t` stops no delay).
//! 1. *Divergence is "infinitely many ticks".* A run of `A_t` with
//!    infinitely many ticks is time-divergent: `t` starts at 0 and only a
//!    tick resets it, so consecutive ticks are at least one time unit apart.
//!    Conversely, in a divergent run of `A` split every delay at the
//!    instants where `t` reaches 1 and tick there (a prefix of an allowed
//!    delay is allowed: invariants are convex, and urgency is a property of
//!    the discrete state): since time diverges, `t` reaches 1 again after
//!    every tick, so the run gets infinitely many ticks. Dropping the ticks
//!    and `t` from a run of `A_t` gives a run of `A` through the same
//!    discrete states at the same times.
//! 2. *The region graph of `A_t` keeps that.* With the model's region
//!    constant `M` for its clocks (and the difference classes of
//!    `region.rs`) and the constant 1 for `t` (Alur–Dill regions with one
//!    constant per clock; `t` is compared with 1 only, reset to 0 only, in
//!    no diagonal), region equivalence is a time-abstract bisimulation of
//!    `A_t` (the argument of `region.rs`, clock by clock), and ticks are
//!    edges of the region graph exactly when `t >= 1` holds in the region.
//!    So every path of the region graph from the region of a valuation
//!    lifts, step by step, to a run of `A_t` from that valuation with the
//!    same discrete states and the same ticks (infinite paths included:
//!    each step lifts from *any* valuation of its region), and every run of
//!    `A_t` maps to a path of the region graph (a delay to the sequence of
//!    time successors it passes through).
//! 3. So `A` has a divergent run from `(l, v)` along which `S` (a set of
//!    discrete states) holds forever iff the region graph of `A_t` has,
//!    from the region of `(l, v, t)` for any value of `t`, a path in `S`
//!    with infinitely many ticks; and `(l, v)` is reachable in `A` iff some
//!    `(l, v, t)` is in `A_t`.
//!
//! **The algorithm** (independent of the engine's SCC search, the same for
//! both graphs): the states with such a path inside a set `S` are the
//! fair-`EG` fixpoint `νZ. μY. S ∩ (pre_progress(Z) ∪ pre(Y))` (Emerson–Lei),
//! `pre` over every edge (discrete steps, delays, ticks): from a state of
//! `Z`, a path in `S` reaches a progress step into `Z` again, forever.
#![allow(dead_code)]

use kairos::network::StateFormula;

use super::{NONE, Oracle};

impl Oracle<'_> {
    /// Per state: φ holds (`None` on a run-time error in φ).
    fn holds_all(&mut self, f: &StateFormula) -> Option<Vec<bool>> {
        (0..self.state_count()).map(|i| self.sat(f, i).ok()).collect()
    }

    /// Per state: a time-divergent path from it stays in `inside`.
    pub(super) fn fair(&self, inside: &[bool]) -> Vec<bool> {
        let ticks = self
            .progress_by_ticks()
            .expect("oracle: liveness on plain regions is not exact (Zeno paths); explore with the tick clock");
        let progress = if ticks { &self.tick } else { &self.delay };
        let n = self.state_count();
        let mut pred: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (i, succ) in self.succ.iter().enumerate() {
            for &j in succ {
                pred[j as usize].push(i as u32);
            }
        }
        let others: &[Vec<u32>] = if ticks { std::slice::from_ref(&self.delay) } else { &[] };
        for edges in std::iter::once(progress).chain(others) {
            for (i, &d) in edges.iter().enumerate() {
                if d != NONE {
                    pred[d as usize].push(i as u32);
                }
            }
        }
        let mut z = inside.to_vec();
        loop {
            // μY: backwards within `inside` from the progress steps into Z.
            let mut y = vec![false; n];
            let mut work: Vec<usize> =
                (0..n).filter(|&i| inside[i] && progress[i] != NONE && z[progress[i] as usize]).collect();
            for &i in &work {
                y[i] = true;
            }
            while let Some(j) = work.pop() {
                for &i in &pred[j] {
                    let i = i as usize;
                    if inside[i] && !y[i] {
                        y[i] = true;
                        work.push(i);
                    }
                }
            }
            if y == z {
                return z;
            }
            z = y;
        }
    }

    /// `E[] φ`: in every initial state. `None` on a run-time error.
    pub fn eg(&mut self, phi: &StateFormula) -> Option<bool> {
        let inside = self.holds_all(phi)?;
        let fair = self.fair(&inside);
        Some((0..self.initial_states).all(|i| fair[i]))
    }

    /// `A<> ψ`.
    pub fn af(&mut self, psi: &StateFormula) -> Option<bool> {
        let outside: Vec<bool> = self.holds_all(psi)?.iter().map(|h| !h).collect();
        let fair = self.fair(&outside);
        Some(!(0..self.initial_states).any(|i| fair[i]))
    }

    /// `φ --> ψ`: no reachable `φ and not ψ` state starts a divergent path
    /// that avoids `ψ`.
    pub fn leads_to(&mut self, phi: &StateFormula, psi: &StateFormula) -> Option<bool> {
        let p = self.holds_all(phi)?;
        let outside: Vec<bool> = self.holds_all(psi)?.iter().map(|h| !h).collect();
        let fair = self.fair(&outside);
        Some(!(0..self.state_count()).any(|i| p[i] && fair[i]))
    }
}
