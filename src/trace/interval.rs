//! Intervals of rationals with open or closed ends, and the simplest
//! rational inside one: what the concretiser picks for every delay and
//! clock value, so that traces read `3` rather than `2999/1000`.

use num_traits::{One, Zero};

use super::Rational;
use crate::domain::zone::Bound;

/// `n` as a rational.
pub fn q(n: i64) -> Rational {
    Rational::from_integer(n.into())
}

/// The constant of a finite DBM bound and whether it is strict.
pub fn split(b: Bound) -> (Rational, bool) {
    (q(i64::from(b.value())), b.is_strict())
}

/// An end of an interval: a value and whether it is excluded.
type End = Option<(Rational, bool)>;

/// A possibly unbounded, possibly empty interval of rationals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Interval {
    /// `None`: unbounded below.
    pub lo: End,
    /// `None`: unbounded above.
    pub hi: End,
}

impl Interval {
    /// Everything.
    pub fn all() -> Interval {
        Interval::default()
    }

    /// The single value `v`.
    pub fn point(v: Rational) -> Interval {
        Interval { lo: Some((v.clone(), false)), hi: Some((v, false)) }
    }

    /// Adds the constraint `x > v` (`strict`) or `x >= v`.
    pub fn at_least(&mut self, v: Rational, strict: bool) {
        let tighter = match &self.lo {
            None => true,
            Some((old, s)) => v > *old || (v == *old && strict && !s),
        };
        if tighter {
            self.lo = Some((v, strict));
        }
    }

    /// Adds the constraint `x < v` (`strict`) or `x <= v`.
    pub fn at_most(&mut self, v: Rational, strict: bool) {
        let tighter = match &self.hi {
            None => true,
            Some((old, s)) => v < *old || (v == *old && strict && !s),
        };
        if tighter {
            self.hi = Some((v, strict));
        }
    }

    pub fn intersect(&mut self, other: &Interval) {
        if let Some((v, s)) = &other.lo {
            self.at_least(v.clone(), *s);
        }
        if let Some((v, s)) = &other.hi {
            self.at_most(v.clone(), *s);
        }
    }

    pub fn contains(&self, x: &Rational) -> bool {
        let above = match &self.lo {
            None => true,
            Some((v, s)) => x > v || (x == v && !s),
        };
        let below = match &self.hi {
            None => true,
            Some((v, s)) => x < v || (x == v && !s),
        };
        above && below
    }

    pub fn is_empty(&self) -> bool {
        match (&self.lo, &self.hi) {
            (Some((l, sl)), Some((h, sh))) => l > h || (l == h && (*sl || *sh)),
            _ => false,
        }
    }

    /// The integer of the interval closest to 0, if it has one.
    fn integer(&self) -> Option<Rational> {
        let zero = Rational::zero();
        let candidate = if self.contains(&zero) {
            zero
        } else if matches!(&self.lo, Some((l, _)) if *l >= Rational::zero()) {
            let (l, s) = self.lo.as_ref().expect("bounded below");
            if *s && l.is_integer() { l + Rational::one() } else { l.ceil() }
        } else {
            // Everything is below 0: the largest integer.
            let (h, s) = self.hi.as_ref().expect("an interval without 0 is bounded on its side");
            if *s && h.is_integer() { h - Rational::one() } else { h.floor() }
        };
        self.contains(&candidate).then_some(candidate)
    }

    /// The simplest rational of the interval: the integer closest to 0 if
    /// there is one, otherwise the fraction of least denominator (the first
    /// the Stern–Brocot tree reaches, found by continued fractions).
    /// `None` when the interval is empty.
    pub fn simplest(&self) -> Option<Rational> {
        if self.is_empty() {
            return None;
        }
        if let Some(i) = self.integer() {
            return Some(i);
        }
        // No integer inside: both ends are finite and lie in [n, n + 1]
        // with the integer ends excluded. Writing x = n + 1/y, x runs over
        // the interval exactly when y runs over (1/(hi - n), 1/(lo - n)),
        // ends swapped with their strictness, and `lo - n = 0` giving +∞.
        // The denominators shrink like a continued fraction's, so this ends.
        let (lo, sl) = self.lo.clone().expect("no integer inside: bounded");
        let (hi, sh) = self.hi.clone().expect("no integer inside: bounded");
        let n = lo.floor();
        let inner = Interval {
            lo: Some(((&hi - &n).recip(), sh)),
            hi: if lo == n { None } else { Some(((&lo - &n).recip(), sl)) },
        };
        let y = inner.simplest().expect("the image of a non-empty interval");
        Some(n + y.recip())
    }
}
