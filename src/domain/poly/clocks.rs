//! The polyhedron as a set of clock valuations (every rate 1), so the timed
//! engines run on it unchanged through [`ClockSet`].
//!
//! Clock `x_k` (`k >= 1`, the reference `x_0` being 0) is variable `k − 1`;
//! every set built by the verbs keeps all clocks `>= 0`, as the DBMs do. The
//! sets of a timed model are zones, so the LU abstractions are applied by
//! converting exactly to a DBM and back ([`Poly::to_dbm`]); a set that is
//! not written in difference constraints is left alone (no abstraction, and
//! plain inclusion instead of the LU simulation), which is sound.

use num_traits::{One, Zero};

use super::constraint::{Constraint, Rel};
use super::polyhedron::{Poly, unit};
use super::rational::{Q, q};
use crate::domain::zone::{Bound, Dbm};
use crate::domain::{Against, ClockSet};

impl Poly {
    /// The zone of difference constraints this non-empty set is, if its
    /// canonical constraints are all `x_i − x_j ≺ c` with integer `c` in DBM range.
    pub fn to_dbm(&self) -> Option<Dbm> {
        if self.is_empty() {
            return None;
        }
        let mut d = Dbm::universe(self.dim() + 1);
        for c in self.constraints() {
            let (i, j) = difference(&c.coeffs)?;
            if !c.rhs.is_integer() {
                return None;
            }
            let v = i32::try_from(c.rhs.to_integer()).ok().filter(|v| v.abs() <= Bound::MAX_VALUE)?;
            let b = if c.rel == Rel::Lt { Bound::lt(v) } else { Bound::le(v) };
            d.constrain(i, j, b);
            if c.rel == Rel::Eq {
                d.constrain(j, i, Bound::le(-v));
            }
        }
        Some(d)
    }

    /// The set of a DBM over clocks `1 .. dim-1`.
    pub fn from_dbm(d: &Dbm) -> Poly {
        let n = d.dim() - 1;
        if d.is_empty() {
            return Poly::empty(n);
        }
        let mut cons = Vec::new();
        for i in 0..d.dim() {
            for j in (0..d.dim()).filter(|&j| j != i) {
                let b = d.bound(i, j);
                if b.is_finite() {
                    cons.push(clock_bound(n, i, j, b));
                }
            }
        }
        Poly::new(n, cons)
    }

    /// `self \ other` as disjoint non-empty pieces: the part violating the
    /// first constraint of `other`, then the part satisfying it and violating
    /// the second, and so on.
    pub fn subtract_pieces(&self, other: &Poly) -> Vec<Poly> {
        if other.is_empty() {
            return if self.is_empty() { Vec::new() } else { vec![self.clone()] };
        }
        let mut out = Vec::new();
        let mut rest = self.clone();
        for c in other.constraints() {
            if rest.is_empty() {
                break;
            }
            let neg: Vec<Q> = c.coeffs.iter().map(|x| -x).collect();
            let outside = match c.rel {
                Rel::Le => vec![Constraint::new(neg, Rel::Lt, -&c.rhs)],
                Rel::Lt => vec![Constraint::new(neg, Rel::Le, -&c.rhs)],
                Rel::Eq => vec![
                    Constraint::new(c.coeffs.clone(), Rel::Lt, c.rhs.clone()),
                    Constraint::new(neg, Rel::Lt, -&c.rhs),
                ],
            };
            out.extend(outside.into_iter().map(|o| rest.constrain(o)).filter(|p| !p.is_empty()));
            rest = rest.constrain(c.clone());
        }
        out
    }
}

/// `(i, j)` if `a` is the difference `x_i − x_j` of clocks (0 the reference).
fn difference(a: &[Q]) -> Option<(usize, usize)> {
    let mut plus = 0;
    let mut minus = 0;
    for (k, c) in a.iter().enumerate() {
        if c.is_one() && plus == 0 {
            plus = k + 1;
        } else if (-c).is_one() && minus == 0 {
            minus = k + 1;
        } else if !c.is_zero() {
            return None;
        }
    }
    (plus != 0 || minus != 0).then_some((plus, minus))
}

/// `x_i − x_j ≺ b` over `n` clocks. Pre: `b` finite.
fn clock_bound(n: usize, i: usize, j: usize, b: Bound) -> Constraint {
    let mut a = vec![Q::zero(); n];
    if i > 0 {
        a[i - 1] += Q::one();
    }
    if j > 0 {
        a[j - 1] -= Q::one();
    }
    Constraint::new(a, if b.is_strict() { Rel::Lt } else { Rel::Le }, q(b.value().into()))
}

/// The sort key of a polyhedron: a zone's first, by its DBM's key (so a
/// timed model's sets sort on polyhedra as they do on zones), then the
/// other sets by their canonical constraints.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum PolyKey {
    Zone(Vec<i32>),
    Linear(Poly),
}

/// Every clock at rate 1.
fn unit_rates(n: usize) -> Poly {
    Poly::new(n, (0..n).map(|i| Constraint::new(unit(n, i), Rel::Eq, Q::one())).collect())
}

impl ClockSet for Poly {
    fn universe(dim: usize) -> Self {
        Poly::orthant(dim - 1)
    }
    fn zero(dim: usize) -> Self {
        Poly::new(dim - 1, (0..dim - 1).map(|i| Constraint::new(unit(dim - 1, i), Rel::Eq, Q::zero())).collect())
    }
    fn dim(&self) -> usize {
        Poly::dim(self) + 1
    }
    fn is_empty(&self) -> bool {
        Poly::is_empty(self)
    }
    fn is_subset_of(&self, other: &Self) -> bool {
        Poly::is_subset_of(self, other)
    }
    fn constrain(&mut self, i: usize, j: usize, bound: Bound) -> bool {
        if bound.is_finite() {
            *self = Poly::constrain(self, clock_bound(Poly::dim(self), i, j, bound));
        }
        !Poly::is_empty(self)
    }
    fn intersect(&mut self, other: &Self) -> bool {
        *self = Poly::intersect(self, other);
        !Poly::is_empty(self)
    }
    fn elapse(&mut self) {
        *self = Poly::elapse(self, &unit_rates(Poly::dim(self))).expect("unit rates are closed and bounded");
    }
    fn elapse_back(&mut self) {
        let n = Poly::dim(self);
        *self = Poly::elapse_back(self, &unit_rates(n)).expect("unit rates are closed and bounded");
        *self = Poly::intersect(self, &Poly::orthant(n));
    }
    fn reset(&mut self, x: usize, value: i32) {
        *self = Poly::reset(self, x - 1, q(value.into()));
    }
    fn free(&mut self, x: usize) {
        let n = Poly::dim(self);
        *self = self.eliminate(&[x - 1]).constrain(Constraint::ge(unit(n, x - 1), Q::zero()));
    }
    fn subtract(&self, other: &Self) -> Vec<Self> {
        self.subtract_pieces(other)
    }
    fn extrapolate(&mut self, lower: &[i32], upper: &[i32]) {
        if let Some(mut d) = self.to_dbm() {
            let before = d.clone();
            d.extrapolate_lu_plus(lower, upper);
            if d != before {
                *self = Poly::from_dbm(&d);
            }
        }
    }
    fn simulated_by(&self, other: &Self, lower: &[i32], upper: &[i32]) -> bool {
        match (self.to_dbm(), other.to_dbm()) {
            (Some(a), Some(b)) => a.alu_subsumed(&b, lower, upper),
            _ => Poly::is_subset_of(self, other),
        }
    }
    type Key = PolyKey;
    fn key(&self) -> PolyKey {
        // A set with points outside the orthant is not its DBM's (a DBM's
        // clocks are `>= 0`): two such sets could share one DBM.
        match self.to_dbm().filter(|d| Poly::from_dbm(d) == *self) {
            Some(d) => PolyKey::Zone(ClockSet::key(&d)),
            None => PolyKey::Linear(self.clone()),
        }
    }
    fn heap_bytes(&self) -> usize {
        // Each coefficient is a pair of big integers, a few words each.
        let words = |x: &Q| 2 + x.numer().bits().div_ceil(64) as usize + x.denom().bits().div_ceil(64) as usize;
        let entries: usize =
            self.constraints().iter().map(|c| c.coeffs.iter().chain([&c.rhs]).map(words).sum::<usize>()).sum();
        entries * 8 + std::mem::size_of_val(self.constraints())
    }
    type Packed = Poly;
    fn pack(&self) -> Poly {
        self.clone()
    }
    fn unpack(packed: &Poly) -> Self {
        packed.clone()
    }
    fn unpack_into(packed: &Poly, out: &mut Self) {
        out.clone_from(packed)
    }
    fn packed_bytes(packed: &Poly) -> usize {
        packed.heap_bytes()
    }
    fn against(&self, old: &Poly, lu: Option<(&[i32], &[i32])>, _scratch: &mut Option<Self>) -> Against {
        // Polyhedra are kept as they are: their constraints are few.
        self.against_whole(old, lu)
    }

    const LINEAR: bool = true;
    fn boxed(bounds: &[(Q, Q)]) -> Self {
        Poly::boxed(bounds)
    }
    fn space(dim: usize) -> Self {
        Poly::universe(dim - 1)
    }
    fn constrain_linear(&mut self, terms: &[(u32, i64)], strict: bool, rhs: &Q) -> bool {
        *self = self.constrain_terms(terms, strict, rhs);
        !Poly::is_empty(self)
    }
    fn elapse_rates(&mut self, rates: &[(Q, Q)], backwards: bool) {
        *self = self.elapse_box(rates, backwards);
    }
    fn assign_linear(&mut self, x: usize, terms: &[(u32, i64)], constant: &Q, pre: bool) {
        *self = self.assign_terms(x, terms, constant, pre);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_are_recognised() {
        assert_eq!(difference(&[q(1), q(0)]), Some((1, 0)));
        assert_eq!(difference(&[q(-1), q(1)]), Some((2, 1)));
        assert_eq!(difference(&[q(2), q(0)]), None);
        assert_eq!(difference(&[q(1), q(1)]), None);
    }
}
