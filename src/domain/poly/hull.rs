//! The convex hull of two polyhedra, as an over-approximation of their
//! union: never used where an exact answer is claimed.
//!
//! The result is the closure of `conv(P ∪ Q)`, by Balas' lifting: a point
//! `y` is `x_1 + x_2` with `x_1 ∈ λ·cl(P)`, `x_2 ∈ (1 − λ)·cl(Q)` and
//! `0 <= λ <= 1`, homogenised as `A·x_1 <= λ·b` and
//! `B·(y − x_1) <= (1 − λ)·c`, then `x_1` and `λ` eliminated (Balas 1979:
//! the projection is exactly `cl(conv(P ∪ Q))` for non-empty `P`, `Q`). It
//! contains `P ∪ Q` (`λ = 1, x_1 = y` or `λ = 0, x_1 = 0`), and in every
//! direction its supremum is the larger of the two sets' suprema.

use num_traits::{One, Zero};

use super::constraint::{Constraint, Rel};
use super::polyhedron::Poly;
use super::rational::Q;

impl Poly {
    /// A closed polyhedron containing `self ∪ other`: the closure of their
    /// convex hull. Over-approximating: see the module doc.
    pub fn hull_over(&self, other: &Poly) -> Poly {
        let n = self.dim();
        if self.is_empty() && other.is_empty() {
            return self.clone();
        }
        if self.is_empty() || other.is_empty() {
            let p = if self.is_empty() { other } else { self };
            return Poly::new(n, p.constraints().iter().map(Constraint::closure).collect());
        }
        // Variables: y (0..n), x_1 (n..2n), λ (2n).
        let lift = |c: &Constraint, y: bool| {
            let mut a = vec![Q::zero(); 2 * n + 1];
            for i in 0..n {
                if y {
                    a[i] = c.coeffs[i].clone();
                    a[n + i] = -&c.coeffs[i];
                } else {
                    a[n + i] = c.coeffs[i].clone();
                }
            }
            // x_1 part: A·x_1 − λ·b ⋈ 0; y part: B·(y − x_1) + λ·c ⋈ c.
            a[2 * n] = if y { c.rhs.clone() } else { -&c.rhs };
            let rhs = if y { c.rhs.clone() } else { Q::zero() };
            Constraint::new(a, c.closure().rel, rhs)
        };
        let mut cons: Vec<Constraint> = self.constraints().iter().map(|c| lift(c, false)).collect();
        cons.extend(other.constraints().iter().map(|c| lift(c, true)));
        let mut lambda = vec![Q::zero(); 2 * n + 1];
        lambda[2 * n] = Q::one();
        cons.push(Constraint::new(lambda.clone(), Rel::Le, Q::one()));
        cons.push(Constraint::ge(lambda, Q::zero()));
        let hidden: Vec<usize> = (n..=2 * n).collect();
        Poly::new(2 * n + 1, cons).eliminate(&hidden).truncate(n)
    }
}
