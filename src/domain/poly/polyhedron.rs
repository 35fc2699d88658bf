//! The NNC polyhedron: construction in canonical form, membership,
//! emptiness, intersection, inclusion and bounds.

use num_traits::{One, Zero};

use super::canonical::canonical;
use super::constraint::{Constraint, Rel};
use super::fast::Fq;
use super::rational::{Dq, Q};
use super::simplex::{Opt, Simplex};

/// A convex set `{x ∈ Q^dim | every constraint holds}` in canonical form (see
/// the module doc), so that `==` and `Hash` are equality of sets.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Poly {
    dim: usize,
    empty: bool,
    cons: Vec<Constraint>,
}

/// The supremum of a linear objective over a polyhedron.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sup {
    Empty,
    Unbounded,
    /// The least upper bound, and whether some point reaches it.
    Max {
        value: Q,
        attained: bool,
    },
}

impl Poly {
    /// All of `Q^dim`.
    pub fn universe(dim: usize) -> Poly {
        Poly { dim, empty: false, cons: Vec::new() }
    }

    pub fn empty(dim: usize) -> Poly {
        Poly { dim, empty: true, cons: Vec::new() }
    }

    /// The solutions of `cons`, canonicalised. Pre: every constraint has
    /// `dim` coefficients.
    pub fn new(dim: usize, cons: Vec<Constraint>) -> Poly {
        debug_assert!(cons.iter().all(|c| c.dim() == dim));
        match canonical(dim, cons) {
            Some(cons) => Poly { dim, empty: false, cons },
            None => Poly::empty(dim),
        }
    }

    /// The non-negative orthant `x >= 0`.
    pub fn orthant(dim: usize) -> Poly {
        Poly::new(dim, (0..dim).map(|i| Constraint::ge(unit(dim, i), Q::zero())).collect())
    }

    pub fn dim(&self) -> usize {
        self.dim
    }

    pub fn is_empty(&self) -> bool {
        self.empty
    }

    /// The canonical constraints (none for the universe and for the empty set).
    pub fn constraints(&self) -> &[Constraint] {
        &self.cons
    }

    /// Whether no constraint is strict, i.e. the set is topologically closed.
    pub fn is_closed(&self) -> bool {
        self.cons.iter().all(|c| c.rel != Rel::Lt)
    }

    pub fn contains(&self, p: &[Q]) -> bool {
        !self.empty && self.cons.iter().all(|c| c.holds_at(p))
    }

    /// `self ∩ other`.
    pub fn intersect(&self, other: &Poly) -> Poly {
        if self.empty || other.empty {
            return Poly::empty(self.dim);
        }
        Poly::new(self.dim, self.cons.iter().chain(&other.cons).cloned().collect())
    }

    /// `self ∩ {c}`.
    pub fn constrain(&self, c: Constraint) -> Poly {
        if self.empty {
            return self.clone();
        }
        let mut cons = self.cons.clone();
        cons.push(c);
        Poly::new(self.dim, cons)
    }

    /// `self ⊆ other`: every constraint of `other` bounds `self`.
    pub fn is_subset_of(&self, other: &Poly) -> bool {
        if self.empty {
            return true;
        }
        if other.empty {
            return false;
        }
        other.cons.iter().all(|c| {
            let holds = |a: &[Q], b: &Q, strict: bool| match self.sup(a) {
                Opt::Unbounded => false,
                Opt::Max(m) if strict => m < Dq::of(Fq::from(b)),
                Opt::Max(m) => m <= Dq::of(Fq::from(b)),
            };
            let neg: Vec<Q> = c.coeffs.iter().map(|x| -x).collect();
            match c.rel {
                Rel::Le => holds(&c.coeffs, &c.rhs, false),
                Rel::Lt => holds(&c.coeffs, &c.rhs, true),
                Rel::Eq => holds(&c.coeffs, &c.rhs, false) && holds(&neg, &-&c.rhs, false),
            }
        })
    }

    /// The supremum of `obj·x` over the set.
    pub fn maximise(&self, obj: &[Q]) -> Sup {
        if self.empty {
            return Sup::Empty;
        }
        match self.sup(obj) {
            Opt::Unbounded => Sup::Unbounded,
            Opt::Max(m) => Sup::Max { attained: m.k.is_zero(), value: m.c.to_q() },
        }
    }

    /// Whether the set is bounded (a polytope). Cost: `2·dim` simplex runs.
    pub fn is_bounded(&self) -> bool {
        (0..self.dim).all(|i| {
            let e = unit(self.dim, i);
            let neg: Vec<Q> = e.iter().map(|x| -x).collect();
            self.maximise(&e) != Sup::Unbounded && self.maximise(&neg) != Sup::Unbounded
        })
    }

    /// Some rational point of the set, if any.
    pub fn sample_point(&self) -> Option<Vec<Q>> {
        if self.empty {
            return None;
        }
        let mut lp = Simplex::new(self.dim, &self.cons, false);
        let feasible = lp.feasible();
        debug_assert!(feasible);
        let p = lp.point();
        debug_assert!(self.contains(&p));
        Some(p)
    }

    /// The maximum over `Dq`. Pre: non-empty.
    fn sup(&self, obj: &[Q]) -> Opt {
        let mut lp = Simplex::new(self.dim, &self.cons, false);
        let feasible = lp.feasible();
        debug_assert!(feasible, "a canonical non-empty set is feasible");
        lp.maximise(obj)
    }

    /// The same constraints over the first `dim` variables. Pre: the
    /// others have coefficient 0 everywhere.
    pub(super) fn truncate(&self, dim: usize) -> Poly {
        if self.empty {
            return Poly::empty(dim);
        }
        let cons = self.cons.iter().map(|c| {
            debug_assert!(c.coeffs[dim..].iter().all(Zero::is_zero));
            Constraint::new(c.coeffs[..dim].to_vec(), c.rel, c.rhs.clone())
        });
        Poly::new(dim, cons.collect())
    }
}

/// The `i`-th unit vector of `Q^dim`.
pub fn unit(dim: usize, i: usize) -> Vec<Q> {
    let mut e = vec![Q::zero(); dim];
    e[i] = Q::one();
    e
}
