//! The exact number type of the polyhedra, and its infinitesimal extension
//! for strict constraints.
//!
//! `Q` is `num_rational::BigRational`: Fourier–Motzkin combinations and
//! simplex pivots multiply coefficients, and a checked `i128` ratio would turn
//! a long elimination chain into an overflow error to handle at every call
//! site; arbitrary precision never fails, the trace layer already uses the
//! same type, and the polyhedra here have a handful of variables, so the
//! allocation cost is the price of never being wrong.
//!
//! `Dq` is `c + k·δ` for a positive infinitesimal `δ` (Dutertre–de Moura):
//! a strict bound `s < b` becomes `s <= b - δ`. Values are only ever added,
//! subtracted and scaled by rationals, so the pairs are closed under every
//! operation the simplex performs and compare lexicographically.

use std::ops::{Add, Sub};

use num_traits::{One, Signed, Zero};

/// An exact rational.
pub type Q = num_rational::BigRational;

/// The rational `n`.
pub fn q(n: i64) -> Q {
    Q::from_integer(n.into())
}

/// The rational `n / d`. Pre: `d != 0`.
pub fn qr(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

/// `c + k·δ`, ordered lexicographically (`δ` is positive and infinitely small).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Dq {
    pub c: Q,
    pub k: Q,
}

impl Dq {
    pub fn zero() -> Dq {
        Dq { c: Q::zero(), k: Q::zero() }
    }

    /// The standard value `c`.
    pub fn of(c: Q) -> Dq {
        Dq { c, k: Q::zero() }
    }

    /// `c - δ`: just below `c`.
    pub fn below(c: Q) -> Dq {
        Dq { c, k: -Q::one() }
    }

    /// `c + δ`: just above `c`.
    pub fn above(c: Q) -> Dq {
        Dq { c, k: Q::one() }
    }

    pub fn scale(&self, f: &Q) -> Dq {
        Dq { c: &self.c * f, k: &self.k * f }
    }

    pub fn is_negative(&self) -> bool {
        self.c.is_negative() || (self.c.is_zero() && self.k.is_negative())
    }
}

impl Add<&Dq> for &Dq {
    type Output = Dq;
    fn add(self, o: &Dq) -> Dq {
        Dq { c: &self.c + &o.c, k: &self.k + &o.k }
    }
}

impl Sub<&Dq> for &Dq {
    type Output = Dq;
    fn sub(self, o: &Dq) -> Dq {
        Dq { c: &self.c - &o.c, k: &self.k - &o.k }
    }
}
