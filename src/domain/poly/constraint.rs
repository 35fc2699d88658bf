//! Linear terms and linear constraints `a·x ⋈ b`, `⋈ ∈ {=, <=, <}`.
//!
//! `>=` and `>` are written by negating both sides, so three relations cover
//! everything. A constraint is *normalised* when its coefficients and
//! right-hand side are coprime integers (a positive scaling, which changes
//! neither the set nor the strictness) and, for an equality, its first
//! non-zero coefficient is positive: two normalised constraints with the same
//! set of solutions are then the same value.

use num_integer::Integer;
use num_traits::{One, Signed, Zero};

use super::rational::Q;

/// The relation of a constraint, in canonical sort order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rel {
    Eq,
    Le,
    Lt,
}

/// `coeffs·x + constant`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LinExpr {
    pub coeffs: Vec<Q>,
    pub constant: Q,
}

impl LinExpr {
    /// The constant `c` over `dim` variables.
    pub fn constant(dim: usize, c: Q) -> LinExpr {
        LinExpr { coeffs: vec![Q::zero(); dim], constant: c }
    }

    pub fn value_at(&self, p: &[Q]) -> Q {
        dot(&self.coeffs, p) + &self.constant
    }
}

/// `coeffs·x rel rhs`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Constraint {
    pub coeffs: Vec<Q>,
    pub rel: Rel,
    pub rhs: Q,
}

pub fn dot(a: &[Q], p: &[Q]) -> Q {
    a.iter().zip(p).fold(Q::zero(), |s, (x, y)| s + x * y)
}

impl Constraint {
    pub fn new(coeffs: Vec<Q>, rel: Rel, rhs: Q) -> Constraint {
        Constraint { coeffs, rel, rhs }
    }

    /// `coeffs·x >= rhs`, stored as `-coeffs·x <= -rhs`.
    pub fn ge(coeffs: Vec<Q>, rhs: Q) -> Constraint {
        Constraint::new(coeffs.into_iter().map(|c| -c).collect(), Rel::Le, -rhs)
    }

    /// `coeffs·x > rhs`, stored as `-coeffs·x < -rhs`.
    pub fn gt(coeffs: Vec<Q>, rhs: Q) -> Constraint {
        Constraint::new(coeffs.into_iter().map(|c| -c).collect(), Rel::Lt, -rhs)
    }

    /// From small integers, for tests and hand-written sets.
    pub fn ints(coeffs: &[i64], rel: Rel, rhs: i64) -> Constraint {
        let q = |n: i64| Q::from_integer(n.into());
        Constraint::new(coeffs.iter().map(|&c| q(c)).collect(), rel, q(rhs))
    }

    pub fn dim(&self) -> usize {
        self.coeffs.len()
    }

    pub fn holds_at(&self, p: &[Q]) -> bool {
        let v = dot(&self.coeffs, p);
        match self.rel {
            Rel::Eq => v == self.rhs,
            Rel::Le => v <= self.rhs,
            Rel::Lt => v < self.rhs,
        }
    }

    /// For a constraint without variables, whether it always holds.
    pub fn constant_truth(&self) -> Option<bool> {
        if !self.coeffs.iter().all(Zero::is_zero) {
            return None;
        }
        let zero = Q::zero();
        Some(match self.rel {
            Rel::Eq => zero == self.rhs,
            Rel::Le => zero <= self.rhs,
            Rel::Lt => zero < self.rhs,
        })
    }

    /// The same constraint with `<` relaxed to `<=`.
    pub fn closure(&self) -> Constraint {
        let rel = if self.rel == Rel::Lt { Rel::Le } else { self.rel };
        Constraint { rel, ..self.clone() }
    }

    /// The positive multiple with coprime integer entries (see the module doc).
    pub fn normalised(mut self) -> Constraint {
        let all = || self.coeffs.iter().chain(std::iter::once(&self.rhs));
        let den = all().fold(num_bigint::BigInt::one(), |l, x| l.lcm(x.denom()));
        let num = all().fold(num_bigint::BigInt::zero(), |g, x| g.gcd(x.numer()));
        if num.is_zero() {
            return self;
        }
        let mut f = Q::new(den, num);
        let first = self.coeffs.iter().find(|c| !c.is_zero());
        if self.rel == Rel::Eq && first.is_some_and(|c| c.is_negative()) {
            f = -f;
        }
        for c in self.coeffs.iter_mut() {
            *c *= &f;
        }
        self.rhs *= &f;
        self
    }

    /// `x_v` replaced by `e`.
    pub fn substitute(&self, v: usize, e: &LinExpr) -> Constraint {
        let a = self.coeffs[v].clone();
        let mut coeffs = self.coeffs.clone();
        coeffs[v] = Q::zero();
        for (c, ec) in coeffs.iter_mut().zip(&e.coeffs) {
            *c += &a * ec;
        }
        Constraint::new(coeffs, self.rel, &self.rhs - &a * &e.constant)
    }

    /// The solution of this equality for `x_v`, as a term in the other
    /// variables. Pre: `rel == Eq`, `coeffs[v] != 0`.
    pub fn solve_for(&self, v: usize) -> LinExpr {
        let a = &self.coeffs[v];
        let mut coeffs: Vec<Q> = self.coeffs.iter().map(|c| -c / a).collect();
        coeffs[v] = Q::zero();
        LinExpr { coeffs, constant: &self.rhs / a }
    }
}
