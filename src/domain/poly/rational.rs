//! The exact number type of the polyhedra, and its infinitesimal extension
//! for strict constraints.
//!
//! `Q` is `num_rational::BigRational`: Fourier–Motzkin combinations and
//! simplex pivots multiply coefficients, and a checked `i128` ratio would turn
//! a long elimination chain into an overflow error to handle at every call
//! site; arbitrary precision never fails, the trace layer already uses the
//! same type. The simplex, where the arithmetic is, computes in machine
//! words while the numbers fit and falls back to `Q` past them
//! ([`super::fast`]), which keeps it exact without the allocations.
//!
//! `Dq` is `c + k·δ` for a positive infinitesimal `δ` (Dutertre–de Moura),
//! over the simplex's number type ([`Fq`]: the same rationals, in machine
//! words while they fit):
//! a strict bound `s < b` becomes `s <= b - δ`. Values are only ever added,
//! subtracted and scaled by rationals, so the pairs are closed under every
//! operation the simplex performs and compare lexicographically.

use std::ops::{Add, Sub};

use super::fast::Fq;

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
    pub c: Fq,
    pub k: Fq,
}

impl Dq {
    pub fn zero() -> Dq {
        Dq { c: Fq::zero(), k: Fq::zero() }
    }

    /// The standard value `c`.
    pub fn of(c: Fq) -> Dq {
        Dq { c, k: Fq::zero() }
    }

    /// `c - δ`: just below `c`.
    pub fn below(c: Fq) -> Dq {
        Dq { c, k: -Fq::one() }
    }

    /// `c + δ`: just above `c`.
    pub fn above(c: Fq) -> Dq {
        Dq { c, k: Fq::one() }
    }

    pub fn scale(&self, f: &Fq) -> Dq {
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
