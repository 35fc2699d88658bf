//! Delays from one concrete valuation: the `t >= 0` for which `v + t` lies
//! in a zone form an interval (a zone is convex and the ray is a line), and
//! the `t` for which the whole segment `[v, v + t]` lies in a federation
//! form an interval from 0 (the union of the members' intervals, as far as
//! it reaches without a gap). Exact, on rationals.
//!
//! A valuation is indexed as the DBM's clocks: `v[0] = 0` is the reference
//! clock, `v[k]` clock `k`; a zone reads only its first `dim` entries.

use num_traits::Zero;

use crate::domain::federation::Federation;
use crate::domain::zone::Dbm;
use crate::trace::Rational;

/// `{t | lo ⊲ t ⊲ hi}`, each end open or closed; `hi = None` is unbounded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interval {
    pub lo: Rational,
    pub lo_open: bool,
    pub hi: Option<(Rational, bool)>,
}

impl Interval {
    /// Every `t >= 0`.
    pub fn all() -> Interval {
        Interval { lo: Rational::zero(), lo_open: false, hi: None }
    }

    /// `{0}`: where time cannot pass.
    pub fn now() -> Interval {
        Interval { lo: Rational::zero(), lo_open: false, hi: Some((Rational::zero(), false)) }
    }

    pub fn is_empty(&self) -> bool {
        match &self.hi {
            None => false,
            Some((hi, hi_open)) => *hi < self.lo || (*hi == self.lo && (self.lo_open || *hi_open)),
        }
    }

    pub fn contains(&self, t: &Rational) -> bool {
        let above = *t > self.lo || (*t == self.lo && !self.lo_open);
        let below = self.hi.as_ref().is_none_or(|(hi, open)| *t < *hi || (*t == *hi && !open));
        above && below
    }

    /// Keeps `t ≺ c` (strict when `open`).
    fn below(&mut self, c: Rational, open: bool) {
        let tighter = match &self.hi {
            None => true,
            Some((hi, hi_open)) => c < *hi || (c == *hi && open && !hi_open),
        };
        if tighter {
            self.hi = Some((c, open));
        }
    }

    /// Keeps `t ≻ c` (strict when `open`).
    fn above(&mut self, c: Rational, open: bool) {
        if c > self.lo || (c == self.lo && open && !self.lo_open) {
            self.lo = c;
            self.lo_open = open;
        }
    }

    pub fn intersect(&self, other: &Interval) -> Interval {
        let mut out = self.clone();
        out.above(other.lo.clone(), other.lo_open);
        if let Some((hi, open)) = &other.hi {
            out.below(hi.clone(), *open);
        }
        out
    }

    /// A point of a non-empty interval with the smallest power-of-two
    /// denominator, the least such: integers when there are any, so that
    /// runs keep few distinct fractions and come back to a region soon.
    pub fn pick(&self) -> Rational {
        debug_assert!(!self.is_empty());
        for shift in 0..40 {
            let den = Rational::from_integer(num_bigint::BigInt::from(1u64) << shift);
            let scaled = &self.lo * &den;
            let mut k = scaled.ceil();
            if k == scaled && self.lo_open {
                k += Rational::from_integer(1.into());
            }
            let t = k / &den;
            if self.contains(&t) {
                return t;
            }
        }
        // Only an interval narrower than 2^-40 gets here.
        match &self.hi {
            _ if !self.lo_open => self.lo.clone(),
            Some((hi, _)) => (&self.lo + hi) / Rational::from_integer(2.into()),
            None => &self.lo + Rational::from_integer(1.into()),
        }
    }
}

/// The delays `t >= 0` with `v + t ∈ z`, `None` when there is none.
pub fn delays_into(z: &Dbm, v: &[Rational]) -> Option<Interval> {
    let mut out = Interval::all();
    let n = z.dim();
    for i in 0..n {
        for j in (0..n).filter(|&j| j != i) {
            let b = z.bound(i, j);
            if !b.is_finite() {
                continue;
            }
            let c = Rational::from_integer(i64::from(b.value()).into());
            let open = b.is_strict();
            match (i, j) {
                // x_i + t ≺ c.
                (_, 0) => out.below(c - &v[i], open),
                // -(x_j + t) ≺ c.
                (0, _) => out.above(-c - &v[j], open),
                // A difference does not change with time.
                _ => {
                    let d = &v[i] - &v[j];
                    if d > c || (d == c && open) {
                        return None;
                    }
                }
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The delays `t` such that every point of `[v, v + t]` lies in `f`: an
/// interval from 0, `None` when `v ∉ f`. The members' intervals are joined
/// from 0 on as long as they overlap or touch without a gap.
pub fn staying_in(f: &Federation, v: &[Rational]) -> Option<Interval> {
    let pieces: Vec<Interval> = f.zones.iter().filter_map(|z| delays_into(z, v)).collect();
    let zero = Rational::zero();
    let mut reach: Interval = pieces.iter().find(|p| p.contains(&zero))?.clone();
    loop {
        let Some((end, end_open)) = reach.hi.clone() else { return Some(reach) };
        // A piece continues the reach if it starts before its end, or at
        // it with the end point covered by one of the two.
        let next = pieces.iter().filter_map(|p| {
            let joins = p.lo < end || (p.lo == end && !(p.lo_open && end_open));
            let longer = match &p.hi {
                None => true,
                Some((hi, open)) => *hi > end || (*hi == end && end_open && !open),
            };
            (joins && longer).then(|| p.hi.clone())
        });
        let Some(hi) = next.max_by(farther) else { return Some(reach) };
        reach.hi = hi;
    }
}

/// Orders upper ends: unbounded last, then by value, closed after open.
fn farther(a: &Option<(Rational, bool)>, b: &Option<(Rational, bool)>) -> std::cmp::Ordering {
    match (a, b) {
        (None, None) => std::cmp::Ordering::Equal,
        (None, _) => std::cmp::Ordering::Greater,
        (_, None) => std::cmp::Ordering::Less,
        (Some((x, xo)), Some((y, yo))) => x.cmp(y).then(yo.cmp(xo)),
    }
}
