//! Region equivalence (Alur and Dill 1994), the "same abstract class" of a
//! lasso's ends. For every clock `x` let `M_x` be the largest constant `x`
//! is compared with anywhere in the network (over the data ranges, and at
//! least 1). Two valuations are equivalent when every clock is above its
//! `M_x` in both or in neither, and the clocks that are not above agree on
//! integer parts, on which fractional parts are 0, and on the order of
//! their fractional parts. Without diagonal constraints, equivalent states
//! (same locations and data) can take the same steps into equivalent
//! states, delays included: a time-abstract bisimulation. It is computed
//! here from the network alone, on exact rationals.

use num_traits::Zero;

use crate::network::Network;
use crate::trace::Rational;

/// `M_x` per clock (slot `k - 1` is clock `k`).
pub fn max_constants(net: &Network) -> Vec<i64> {
    let mut m = vec![1i64; net.clocks.len()];
    let constraints = net.processes.iter().flat_map(|p| {
        p.locations.iter().flat_map(|l| &l.invariant).chain(p.edges.iter().flat_map(|e| &e.guard_clocks))
    });
    for c in constraints {
        let (lo, hi) = c.effective_range();
        let v = lo.saturating_abs().max(hi.saturating_abs());
        for k in [c.i, c.j] {
            if k != 0 {
                m[k as usize - 1] = m[k as usize - 1].max(v);
            }
        }
    }
    for p in &net.processes {
        for e in &p.edges {
            for u in &e.updates {
                if let crate::network::Update::Reset { clock, value } = u {
                    m[*clock as usize - 1] = m[*clock as usize - 1].max(*value);
                }
            }
        }
    }
    m
}

/// Whether `a` and `b` (one value per clock) are region equivalent.
pub fn equivalent(net: &Network, a: &[Rational], b: &[Rational]) -> bool {
    equivalent_under(&max_constants(net), a, b)
}

/// Whether `a` and `b` are region equivalent for the constants `m` (one
/// per clock, each at least 1).
pub fn equivalent_under(m: &[i64], a: &[Rational], b: &[Rational]) -> bool {
    let above = |v: &Rational, k: usize| *v > Rational::from_integer(m[k].into());
    let split = |v: &Rational| (v.floor(), v - v.floor());
    let mut bounded = Vec::new();
    for k in 0..a.len() {
        if above(&a[k], k) != above(&b[k], k) {
            return false;
        }
        if above(&a[k], k) {
            continue;
        }
        let ((ia, fa), (ib, fb)) = (split(&a[k]), split(&b[k]));
        if ia != ib || fa.is_zero() != fb.is_zero() {
            return false;
        }
        bounded.push((fa, fb));
    }
    bounded.iter().all(|(fa, fb)| bounded.iter().all(|(ga, gb)| (fa <= ga) == (fb <= gb)))
}
