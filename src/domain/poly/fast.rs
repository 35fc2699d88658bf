//! The simplex's number type: an exact rational held in two machine words
//! while it fits, and as a [`Q`] only past them.
//!
//! Canonicalising a polyhedron runs a simplex per constraint, and nearly
//! every number in those tableaux is a small fraction (the models' constants
//! and the ±1 coefficients of clocks). On `BigRational` each operation
//! allocated and divided big integers: that was three quarters of the time
//! of `--domain poly` (perf, railway-crossing). Here a small operand pair is
//! computed in `i128`, where a product of two `i64` cannot overflow, reduced
//! by the gcd, and kept small when the result fits again; anything else goes
//! through `Q`, so no operation ever loses a digit. The representation is
//! unique (`Small` exactly when the reduced value fits), so equality is
//! structural and `Small` and `Big` never hold the same value.

use std::cmp::Ordering;
use std::ops::{Add, Div, Mul, Neg, Sub};

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive};

use super::rational::Q;

/// An exact rational. `Small(n, d)`: `d > 0`, `gcd(n, d) = 1`, and
/// `n > i64::MIN` (so that negation stays small).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fq {
    Small(i64, i64),
    Big(Q),
}

impl Fq {
    pub fn zero() -> Fq {
        Fq::Small(0, 1)
    }

    pub fn one() -> Fq {
        Fq::Small(1, 1)
    }

    /// `n / d` reduced, small when it fits. Pre: `d != 0`.
    fn ratio(n: i128, d: i128) -> Fq {
        debug_assert!(d != 0);
        // Most results are integers, or small enough for 64-bit division,
        // which costs a fraction of 128-bit division (the gcd and the
        // quotients were a fifth of the simplex's time).
        if let (Ok(n), Ok(d)) = (i64::try_from(n), i64::try_from(d))
            && n != i64::MIN
            && d != i64::MIN
        {
            if d == 1 {
                return Fq::Small(n, 1);
            }
            let g = n.gcd(&d);
            let (n, d) = (n / g, d / g);
            return if d < 0 { Fq::Small(-n, -d) } else { Fq::Small(n, d) };
        }
        let g = n.gcd(&d);
        let (mut n, mut d) = (n / g, d / g);
        if d < 0 {
            (n, d) = (-n, -d);
        }
        match (i64::try_from(n), i64::try_from(d)) {
            (Ok(n), Ok(d)) if n != i64::MIN => Fq::Small(n, d),
            _ => Fq::Big(Q::new_raw(BigInt::from(n), BigInt::from(d))),
        }
    }

    /// `q` itself, small when it fits.
    fn of_q(q: Q) -> Fq {
        match (q.numer().to_i64(), q.denom().to_i64()) {
            (Some(n), Some(d)) if n != i64::MIN => Fq::Small(n, d),
            _ => Fq::Big(q),
        }
    }

    pub fn to_q(&self) -> Q {
        match self {
            Fq::Small(n, d) => Q::new_raw(BigInt::from(*n), BigInt::from(*d)),
            Fq::Big(q) => q.clone(),
        }
    }

    pub fn is_zero(&self) -> bool {
        matches!(self, Fq::Small(0, _))
    }

    pub fn is_positive(&self) -> bool {
        match self {
            Fq::Small(n, _) => *n > 0,
            Fq::Big(q) => q.is_positive(),
        }
    }

    pub fn is_negative(&self) -> bool {
        match self {
            Fq::Small(n, _) => *n < 0,
            Fq::Big(q) => q.is_negative(),
        }
    }

    /// `1 / self`. Pre: not zero.
    pub fn recip(&self) -> Fq {
        match self {
            Fq::Small(n, d) => Fq::ratio(*d as i128, *n as i128),
            Fq::Big(q) => Fq::of_q(q.recip()),
        }
    }

    /// Both small, as `i128` pairs; else `None` (then `Q` computes).
    fn pair(a: &Fq, b: &Fq) -> Option<((i128, i128), (i128, i128))> {
        match (a, b) {
            (Fq::Small(n, d), Fq::Small(m, e)) => Some(((*n as i128, *d as i128), (*m as i128, *e as i128))),
            _ => None,
        }
    }
}

impl From<&Q> for Fq {
    fn from(q: &Q) -> Fq {
        Fq::of_q(q.clone())
    }
}

impl Ord for Fq {
    fn cmp(&self, o: &Fq) -> Ordering {
        match Fq::pair(self, o) {
            // Denominators are positive: compare the cross products.
            Some(((n, d), (m, e))) => (n * e).cmp(&(m * d)),
            None => self.to_q().cmp(&o.to_q()),
        }
    }
}

impl PartialOrd for Fq {
    fn partial_cmp(&self, o: &Fq) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

// Each `i64` product is below 2^126 in magnitude, so a sum of two fits
// `i128`: the small paths never overflow.
impl Add<&Fq> for &Fq {
    type Output = Fq;
    fn add(self, o: &Fq) -> Fq {
        match Fq::pair(self, o) {
            Some(((n, d), (m, e))) => Fq::ratio(n * e + m * d, d * e),
            None => Fq::of_q(self.to_q() + o.to_q()),
        }
    }
}

impl Sub<&Fq> for &Fq {
    type Output = Fq;
    fn sub(self, o: &Fq) -> Fq {
        match Fq::pair(self, o) {
            Some(((n, d), (m, e))) => Fq::ratio(n * e - m * d, d * e),
            None => Fq::of_q(self.to_q() - o.to_q()),
        }
    }
}

impl Mul<&Fq> for &Fq {
    type Output = Fq;
    fn mul(self, o: &Fq) -> Fq {
        match Fq::pair(self, o) {
            Some(((n, d), (m, e))) => Fq::ratio(n * m, d * e),
            None => Fq::of_q(self.to_q() * o.to_q()),
        }
    }
}

/// Pre: `o` is not zero.
impl Div<&Fq> for &Fq {
    type Output = Fq;
    fn div(self, o: &Fq) -> Fq {
        match Fq::pair(self, o) {
            Some(((n, d), (m, e))) => Fq::ratio(n * e, d * m),
            None => Fq::of_q(self.to_q() / o.to_q()),
        }
    }
}

impl Neg for &Fq {
    type Output = Fq;
    fn neg(self) -> Fq {
        match self {
            // `n > i64::MIN`, so `-n` is small.
            Fq::Small(n, d) => Fq::Small(-n, *d),
            Fq::Big(q) => Fq::of_q(-q),
        }
    }
}

impl Neg for Fq {
    type Output = Fq;
    fn neg(self) -> Fq {
        -&self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::Zero;

    /// Values around the edges of the small range, and beyond it.
    fn samples() -> Vec<Q> {
        let big = |s: &str| s.parse::<BigInt>().unwrap();
        let mut ints: Vec<BigInt> = [0i64, 1, -1, 2, -3, 7, 12, -60, i64::MAX, i64::MAX - 1, i64::MIN, i64::MIN + 1]
            .iter()
            .map(|&n| BigInt::from(n))
            .collect();
        ints.push(big("9223372036854775808"));
        ints.push(big("-170141183460469231731687303715884105727"));
        ints.push(big("123456789012345678901234567890"));
        let mut out = Vec::new();
        for n in &ints {
            for d in &ints {
                if !d.is_zero() {
                    out.push(Q::new(n.clone(), d.clone()));
                }
            }
        }
        out
    }

    #[test]
    fn agrees_with_big_rationals_on_every_operation() {
        let qs = samples();
        for a in &qs {
            let fa = Fq::from(a);
            assert_eq!(fa.to_q(), *a);
            assert!(canonical(&fa), "{a}");
            assert_eq!((-&fa).to_q(), -a);
            assert_eq!(
                (fa.is_zero(), fa.is_positive(), fa.is_negative()),
                (a.is_zero(), a.is_positive(), a.is_negative())
            );
            if !a.is_zero() {
                assert_eq!(fa.recip().to_q(), a.recip());
            }
            for b in &qs {
                let fb = Fq::from(b);
                for (r, want, op) in [(&fa + &fb, a + b, "+"), (&fa - &fb, a - b, "-"), (&fa * &fb, a * b, "*")] {
                    assert_eq!(r.to_q(), want, "{a} {op} {b}");
                    assert!(canonical(&r), "{a} {op} {b}");
                }
                if !b.is_zero() {
                    let r = &fa / &fb;
                    assert_eq!(r.to_q(), a / b, "{a} / {b}");
                    assert!(canonical(&r), "{a} / {b}");
                }
                assert_eq!(fa.cmp(&fb), a.cmp(b), "{a} <=> {b}");
                assert_eq!(fa == fb, a == b, "{a} == {b}");
            }
        }
    }

    #[test]
    fn small_values_stay_small() {
        let third = Fq::from(&Q::new(1.into(), 3.into()));
        let sum = &(&third + &third) + &third;
        assert_eq!(sum, Fq::one());
        let max = Fq::from(&Q::from_integer(i64::MAX.into()));
        assert!(matches!(&max * &third, Fq::Small(..)));
        assert!(matches!(&max + &Fq::one(), Fq::Big(_)));
        assert_eq!(&(&max + &Fq::one()) - &Fq::one(), max, "back to small");
        assert!(matches!(-Fq::from(&Q::from_integer((i64::MIN + 1).into())), Fq::Small(..)));
    }

    /// The representation is the unique one: small exactly when it fits.
    fn canonical(f: &Fq) -> bool {
        match f {
            Fq::Small(n, d) => *d > 0 && n.gcd(d) == 1 && *n != i64::MIN,
            Fq::Big(q) => !matches!((q.numer().to_i64(), q.denom().to_i64()), (Some(n), Some(_)) if n != i64::MIN),
        }
    }
}
