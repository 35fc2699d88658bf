//! An independent liveness oracle for CLOSED timed automata: `E[] φ`,
//! `A<> φ` and `φ --> ψ` over time-divergent runs, for φ, ψ over locations
//! and data only, on the explicit integer-time graph of [`Oracle`] (states
//! with integer clocks capped at the largest constant + 1; a delay step is
//! one time unit).
//!
//! **Why integer time is exact here.** Digitisation (Henzinger, Manna,
//! Pnueli 1992): rounding the time stamps of a dense run of a closed
//! automaton gives a run with integer time stamps through the same
//! discrete states, and rounding is monotone and unbounded on unbounded
//! stamps, so a time-divergent run stays one. Integer runs are dense runs.
//! So a time-divergent run along which φ always holds (φ depends only on
//! the discrete state) exists iff one exists in integer time, where it is
//! an infinite path of the finite graph with infinitely many delay steps.
//!
//! **The algorithm** (independent of the engine's SCC search): the states
//! with such a path inside a set `S` are the fair-`EG` fixpoint
//! `νZ. μY. S ∩ (pre_delay(Z) ∪ pre(Y))`: from a state of `Z`, a path in
//! `S` reaches a delay step into `Z` again, forever.
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
        let n = self.state_count();
        let mut pred: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (i, succ) in self.succ.iter().enumerate() {
            for &j in succ {
                pred[j as usize].push(i as u32);
            }
        }
        for (i, &d) in self.delay.iter().enumerate() {
            if d != NONE {
                pred[d as usize].push(i as u32);
            }
        }
        let mut z = inside.to_vec();
        loop {
            // μY: backwards within `inside` from the delay steps into Z.
            let mut y = vec![false; n];
            let mut work: Vec<usize> =
                (0..n).filter(|&i| inside[i] && self.delay[i] != NONE && z[self.delay[i] as usize]).collect();
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
