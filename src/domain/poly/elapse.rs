//! Time elapse under a rate polyhedron, forwards and backwards.
//!
//! In a location whose admissible rate vectors form the convex set `R`, a
//! delay `d >= 0` moves `x` to `x + d·r` for some `r ∈ R` (a trajectory with
//! varying rates has its average rate in `R`, as `R` is convex, so straight
//! lines reach everything). The reachable set is `P + C` with
//! `C = {0} ∪ {d·r | d > 0, r ∈ R}`. For `R = {r | A·r <= b}` closed and
//! bounded, `C = {w | ∃ t >= 0: A·w <= t·b}` exactly (at `t = 0`, `A·w <= 0`
//! is the recession cone of `R`, which is `{0}`), so
//! `P + C = {y | ∃ w, t >= 0: y − w ∈ P, A·w <= t·b}`, a projection. For an
//! open or unbounded `R` the set `C` need not be a polyhedron (rates
//! `r_1 = 1, 2 < r_2 <= 3` give `{0}` plus a cone without one boundary ray),
//! so those are refused rather than approximated. The invariant is
//! intersected afterwards: it is convex, and a straight line between two of
//! its points stays inside. Backwards is the same with `−R`. A single rate
//! vector `r` (constant rates) needs only `t`: `{y | ∃ t >= 0: y − t·r ∈ P}`.

use num_traits::Zero;

use super::constraint::{Constraint, Rel, dot};
use super::polyhedron::Poly;
use super::rational::Q;

/// Why a rate set cannot be used exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RateError {
    #[error("the rate set has a strict constraint")]
    NotClosed,
    #[error("the rate set is unbounded")]
    Unbounded,
}

impl Poly {
    /// `{x + d·r | x ∈ self, d >= 0, r ∈ rates}` (see the module doc).
    pub fn elapse(&self, rates: &Poly) -> Result<Poly, RateError> {
        check_rates(rates)?;
        Ok(self.minkowski_cone(rates))
    }

    /// `{x | ∃ d >= 0, r ∈ rates: x + d·r ∈ self}`.
    pub fn elapse_back(&self, rates: &Poly) -> Result<Poly, RateError> {
        check_rates(rates)?;
        let back = rates
            .constraints()
            .iter()
            .map(|c| Constraint::new(c.coeffs.iter().map(|a| -a).collect(), c.rel, c.rhs.clone()));
        Ok(self.minkowski_cone(&Poly::new(rates.dim(), back.collect())))
    }

    /// Elapse, then the invariant: everything a delay reaches without
    /// leaving `inv`. Pre: `self ⊆ inv`.
    pub fn elapse_within(&self, rates: &Poly, inv: &Poly) -> Result<Poly, RateError> {
        Ok(self.elapse(rates)?.intersect(inv))
    }

    /// `self + C` over variables `y` (0..n), `w` (n..2n), `t` (2n).
    fn minkowski_cone(&self, rates: &Poly) -> Poly {
        let n = self.dim();
        if self.is_empty() || rates.is_empty() {
            return self.clone();
        }
        let point = rates.constraints().len() == n && rates.constraints().iter().all(|c| c.rel == Rel::Eq);
        if point && let Some(r) = rates.sample_point() {
            return self.along(&r);
        }
        let mut cons = Vec::new();
        for c in self.constraints() {
            let mut a = vec![Q::zero(); 2 * n + 1];
            for i in 0..n {
                a[i] = c.coeffs[i].clone();
                a[n + i] = -&c.coeffs[i];
            }
            cons.push(Constraint::new(a, c.rel, c.rhs.clone()));
        }
        for c in rates.constraints() {
            let mut a = vec![Q::zero(); 2 * n + 1];
            a[n..2 * n].clone_from_slice(&c.coeffs);
            a[2 * n] = -&c.rhs;
            cons.push(Constraint::new(a, c.rel, Q::zero()));
        }
        let mut t = vec![Q::zero(); 2 * n + 1];
        t[2 * n] = Q::from_integer((-1).into());
        cons.push(Constraint::new(t, Rel::Le, Q::zero()));
        let hidden: Vec<usize> = (n..=2 * n).collect();
        Poly::new(2 * n + 1, cons).eliminate(&hidden).truncate(n)
    }
}

impl Poly {
    /// `{x + t·r | x ∈ self, t >= 0}` for one rate vector `r`, over variables
    /// `y` (0..n) and `t` (n): one elimination instead of `n + 1`.
    pub(super) fn along(&self, r: &[Q]) -> Poly {
        let n = self.dim();
        let mut cons: Vec<Constraint> = self
            .constraints()
            .iter()
            .map(|c| {
                let mut a = c.coeffs.clone();
                a.push(-dot(&c.coeffs, r));
                Constraint::new(a, c.rel, c.rhs.clone())
            })
            .collect();
        let mut t = vec![Q::zero(); n + 1];
        t[n] = Q::from_integer((-1).into());
        cons.push(Constraint::new(t, Rel::Le, Q::zero()));
        Poly::new(n + 1, cons).eliminate(&[n]).truncate(n)
    }
}

fn check_rates(rates: &Poly) -> Result<(), RateError> {
    if !rates.is_closed() {
        return Err(RateError::NotClosed);
    }
    if !rates.is_bounded() {
        return Err(RateError::Unbounded);
    }
    Ok(())
}
