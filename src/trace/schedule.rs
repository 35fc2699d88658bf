//! The times of a run's events as a system of difference constraints, and
//! its earliest solution on the coarsest grid that has one.
//!
//! Along a fixed sequence of transitions, a run is determined by its event
//! times `τ_1 <= … <= τ_m` (`τ_0 = 0`): every clock value is `τ - τ_r + c`
//! for the current time `τ` and the time `τ_r` of the clock's last reset
//! (to `c`). A clock constraint `x_a - x_b ≺ β` at some event is then a
//! difference constraint `τ_p - τ_q ≺ w` between two event times. So the
//! runs along the path are exactly the solutions of one such system.
//!
//! **Grids.** On the grid `(1/k)ℤ`, `τ_p - τ_q < w` is `k·τ_p - k·τ_q <=
//! k·w - 1`: an integer system without strict bounds. Such a system, when
//! consistent, has a least solution (each time as early as possible), found
//! by longest paths (Bellman–Ford), and it is integral. Trying `k = 1, 2,
//! …` gives integer times when any run has them, else halves, and so on.
//! The loop ends by `k = m + 1`: the solutions form a zone over `m`
//! non-negative variables with integer constants, which contains a region,
//! and a region has a point whose fractional parts are multiples of
//! `1/(m + 1)` (at most `m` distinct non-zero fractional parts, placed in
//! their order at `1/(m + 1), 2/(m + 1), …`).

use super::Rational;

/// `τ_p - τ_q ≺ w`.
#[derive(Clone, Copy, Debug)]
struct Diff {
    p: usize,
    q: usize,
    w: i128,
    strict: bool,
}

/// Difference constraints over `τ_0 = 0, τ_1, …, τ_m`.
#[derive(Clone, Debug)]
pub struct Schedule {
    vars: usize,
    diffs: Vec<Diff>,
    /// A constraint between a time and itself failed: no solution.
    contradiction: bool,
}

impl Schedule {
    /// `m + 1` variables, with `τ_0 = 0` and nothing else yet.
    pub fn new(vars: usize) -> Schedule {
        Schedule { vars, diffs: Vec::new(), contradiction: false }
    }

    /// Adds `τ_p - τ_q ≺ w` (`<` when `strict`).
    pub fn add(&mut self, p: usize, q: usize, w: i128, strict: bool) {
        debug_assert!(p < self.vars && q < self.vars);
        if p == q {
            if w < 0 || (w == 0 && strict) {
                self.contradiction = true;
            }
            return;
        }
        self.diffs.push(Diff { p, q, w, strict });
    }

    /// The earliest solution, on the coarsest grid `(1/k)ℤ` where one of
    /// `systems` has a solution, of the first such system; `None` when none
    /// has any solution at all.
    pub fn solve_first(systems: &[Schedule]) -> Option<Vec<Rational>> {
        let vars = systems.iter().map(|s| s.vars).max()?;
        (1..=vars as i128).find_map(|k| {
            systems.iter().filter(|s| !s.contradiction).find_map(|s| {
                let ticks = s.earliest(k)?;
                Some(ticks.into_iter().map(|t| Rational::new(t.into(), k.into())).collect())
            })
        })
    }

    /// The least non-negative solution of the system scaled by `k` (in
    /// ticks of `1/k`), or `None` if it has none. Each `τ_p - τ_q <= w` is
    /// the lower bound `τ_q >= τ_p - w`; starting from all 0 and raising
    /// each time to its bounds until nothing changes gives the least
    /// solution, provided `τ_0` is never raised (a raise of `τ_0`, or no
    /// fixpoint after `vars + 1` rounds, a positive cycle: no solution).
    fn earliest(&self, k: i128) -> Option<Vec<i128>> {
        let mut t = vec![0i128; self.vars];
        for _ in 0..=self.vars {
            let mut changed = false;
            for d in &self.diffs {
                let bound = t[d.p] - (d.w * k - i128::from(d.strict));
                if t[d.q] < bound {
                    if d.q == 0 {
                        return None;
                    }
                    t[d.q] = bound;
                    changed = true;
                }
            }
            if !changed {
                return Some(t);
            }
        }
        None
    }
}
