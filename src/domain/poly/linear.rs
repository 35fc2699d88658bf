//! The linear verbs of hybrid automata on polyhedra: boxes, sparse integer
//! constraints and assignments, and time elapse under a box of rates.
//!
//! Variables are numbered from 1 as the engines number clocks (variable `k`
//! is coordinate `k − 1`). A box of rates `[lo_k, hi_k]` is closed and
//! bounded, so elapse is exact (`elapse`); when every interval is a point the
//! rate vector is that point and one elimination suffices.

use num_traits::Zero;

use super::constraint::{Constraint, LinExpr, Rel};
use super::polyhedron::{Poly, Sup, unit};
use super::rational::Q;

/// The dense coefficients of sparse integer terms over `n` coordinates.
fn dense(n: usize, terms: &[(u32, i64)]) -> Vec<Q> {
    let mut a = vec![Q::zero(); n];
    for &(v, c) in terms {
        a[v as usize - 1] += Q::from_integer(c.into());
    }
    a
}

impl Poly {
    /// `{x | lo_k <= x_k <= hi_k}`.
    pub fn boxed(bounds: &[(Q, Q)]) -> Poly {
        let n = bounds.len();
        let cons = bounds.iter().enumerate().flat_map(|(k, (lo, hi))| {
            if lo == hi {
                vec![Constraint::new(unit(n, k), Rel::Eq, lo.clone())]
            } else {
                vec![Constraint::ge(unit(n, k), lo.clone()), Constraint::new(unit(n, k), Rel::Le, hi.clone())]
            }
        });
        Poly::new(n, cons.collect())
    }

    /// `self ∩ {Σ a_k·x_k ≺ rhs}`.
    pub fn constrain_terms(&self, terms: &[(u32, i64)], strict: bool, rhs: &Q) -> Poly {
        let rel = if strict { Rel::Lt } else { Rel::Le };
        self.constrain(Constraint::new(dense(self.dim(), terms), rel, rhs.clone()))
    }

    /// The supremum of `Σ a_k·x_k` over the set.
    pub fn maximise_terms(&self, terms: &[(u32, i64)]) -> Sup {
        self.maximise(&dense(self.dim(), terms))
    }

    /// Time elapse under the box of rates (backwards: under its opposite).
    pub fn elapse_box(&self, rates: &[(Q, Q)], backwards: bool) -> Poly {
        if self.is_empty() {
            return self.clone();
        }
        let flip = |r: &Q| if backwards { -r } else { r.clone() };
        if rates.iter().all(|(lo, hi)| lo == hi) {
            let r: Vec<Q> = rates.iter().map(|(lo, _)| flip(lo)).collect();
            return self.along(&r);
        }
        let bounds: Vec<(Q, Q)> =
            rates.iter().map(|(lo, hi)| if backwards { (-hi, -lo) } else { (lo.clone(), hi.clone()) }).collect();
        self.elapse(&Poly::boxed(&bounds)).expect("a box of closed intervals is closed and bounded")
    }

    /// `x_v := Σ a_k·x_k + constant`, or its pre-image.
    pub fn assign_terms(&self, v: usize, terms: &[(u32, i64)], constant: &Q, pre: bool) -> Poly {
        let e = LinExpr { coeffs: dense(self.dim(), terms), constant: constant.clone() };
        if pre { self.assign_pre(v - 1, &e) } else { self.assign(v - 1, &e) }
    }
}
