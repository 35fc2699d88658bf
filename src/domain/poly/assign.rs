//! Linear assignments `x_v := e(x)` (all of `e` read before the write),
//! resets, and their pre-images.
//!
//! Pre-image: `x ∈ pre` iff `x[v := e(x)] ∈ P`, i.e. `e` substituted for
//! `x_v` in every constraint, always exact. Image: if `e` has a non-zero
//! coefficient `e_v` on `x_v` the map is invertible, and the old value is
//! `(y_v − Σ_{j≠v} e_j·y_j − e_0) / e_v` in terms of the new point `y`,
//! substituted likewise; otherwise the old `x_v` is forgotten (eliminated)
//! and `y_v = e(y)` added, as `e` reads only the unchanged variables.

use num_traits::{One, Zero};

use super::constraint::{Constraint, LinExpr, Rel};
use super::polyhedron::Poly;
use super::rational::Q;

impl Poly {
    /// `{x[v := e(x)] | x ∈ self}`.
    pub fn assign(&self, v: usize, e: &LinExpr) -> Poly {
        if self.is_empty() {
            return self.clone();
        }
        let ev = &e.coeffs[v];
        if !ev.is_zero() {
            let mut coeffs: Vec<Q> = e.coeffs.iter().map(|c| -c / ev).collect();
            coeffs[v] = ev.recip();
            let inverse = LinExpr { coeffs, constant: -&e.constant / ev };
            return Poly::new(self.dim(), self.constraints().iter().map(|c| c.substitute(v, &inverse)).collect());
        }
        let mut coeffs: Vec<Q> = e.coeffs.iter().map(|c| -c).collect();
        coeffs[v] = Q::one();
        self.eliminate(&[v]).constrain(Constraint::new(coeffs, Rel::Eq, e.constant.clone()))
    }

    /// `{x | x[v := e(x)] ∈ self}`.
    pub fn assign_pre(&self, v: usize, e: &LinExpr) -> Poly {
        if self.is_empty() {
            return self.clone();
        }
        Poly::new(self.dim(), self.constraints().iter().map(|c| c.substitute(v, e)).collect())
    }

    /// `x_v := value`.
    pub fn reset(&self, v: usize, value: Q) -> Poly {
        self.assign(v, &LinExpr::constant(self.dim(), value))
    }

    /// `{x | x[v := value] ∈ self}`.
    pub fn reset_pre(&self, v: usize, value: Q) -> Poly {
        self.assign_pre(v, &LinExpr::constant(self.dim(), value))
    }
}
