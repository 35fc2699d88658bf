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
//!
//! With diagonal constraints (`x - y ≺ c`) regions are refined by the
//! *class* of every difference a diagonal relates ([`Differences`]): with
//! `D` the largest `|c|` of a diagonal, the class says whether `x - y` is
//! an integer `k` in `[-D, D]`, lies strictly between two consecutive such
//! integers, or is below `-D` or above `D`. And every clock of such a pair
//! has `M_x >= D + R`, `R` the largest reset value. Then equivalent states
//! still take the same steps into equivalent states: a delay changes no
//! difference; a reset `x := r` of one clock of a pair gives `r - y`,
//! whose class the region of `y` decides (its integer part and whether its
//! fractional part is 0 when `y <= M_y`, and below `r - M_y <= -D`
//! otherwise); resetting both gives an integer; and every diagonal is
//! decided by the class. (The same argument as the test oracle's regions,
//! tests/oracle/region.rs.)

use num_traits::Zero;

use crate::network::Network;
use crate::trace::Rational;

/// `M_x` per clock (slot `k - 1` is clock `k`), raised to `D + R` for the
/// clocks of a diagonal ([`Differences`]).
pub fn max_constants(net: &Network) -> Vec<i64> {
    let mut m = single_constants(net);
    let diagonals = Differences::of(net);
    let raised = diagonals.d.saturating_add(max_reset(net));
    for &(i, j) in &diagonals.pairs {
        for k in [i, j] {
            m[k] = m[k].max(raised);
        }
    }
    m
}

/// The largest value a clock is reset to (0 without resets).
pub fn max_reset(net: &Network) -> i64 {
    let resets = net.processes.iter().flat_map(|p| p.edges.iter().flat_map(|e| &e.updates));
    resets
        .filter_map(|u| match u {
            crate::network::Update::Reset { value, .. } => Some(*value),
            _ => None,
        })
        .fold(0, i64::max)
}

/// The largest constant each clock is compared with or reset to.
fn single_constants(net: &Network) -> Vec<i64> {
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

/// Whether `a` and `b` (one value per clock) are region equivalent, with
/// the classes of the differences diagonals relate.
pub fn equivalent(net: &Network, a: &[Rational], b: &[Rational]) -> bool {
    equivalent_under(&max_constants(net), a, b) && Differences::of(net).same(a, b)
}

/// The differences regions tell apart beyond the clocks' own values: the
/// pairs of clock slots (`i < j`), and the largest `|c|` compared with.
#[derive(Clone, Debug, Default)]
pub struct Differences {
    pub pairs: Vec<(usize, usize)>,
    pub d: i64,
}

impl Differences {
    /// The pairs some diagonal of `net` relates (guards and invariants,
    /// constants over the data ranges).
    pub fn of(net: &Network) -> Differences {
        let mut out = Differences::default();
        let constraints = net.processes.iter().flat_map(|p| {
            p.locations.iter().flat_map(|l| &l.invariant).chain(p.edges.iter().flat_map(|e| &e.guard_clocks))
        });
        for c in constraints.filter(|c| c.i != 0 && c.j != 0 && c.linear.is_none()) {
            let (lo, hi) = c.effective_range();
            out.d = out.d.max(lo.saturating_abs()).max(hi.saturating_abs());
            let (i, j) = (c.i.min(c.j) as usize - 1, c.i.max(c.j) as usize - 1);
            if i != j && !out.pairs.contains(&(i, j)) {
                out.pairs.push((i, j));
            }
        }
        out
    }

    /// Whether every pair's difference has the same class in `a` and `b`.
    pub fn same(&self, a: &[Rational], b: &[Rational]) -> bool {
        self.pairs.iter().all(|&(i, j)| self.class(&(&a[i] - &a[j])) == self.class(&(&b[i] - &b[j])))
    }

    /// `2k` for an integer `k` in `[-d, d]`, `2k + 1` strictly between `k`
    /// and `k + 1` (`-d <= k < d`), `-2d - 1` below `-d`, `2d + 1` above.
    fn class(&self, v: &Rational) -> num_bigint::BigInt {
        let d = num_bigint::BigInt::from(self.d);
        let two = num_bigint::BigInt::from(2);
        let k = v.floor().to_integer();
        if k >= d && *v != Rational::from_integer(d.clone()) {
            two * d + 1
        } else if k < -d.clone() {
            -two * d - 1
        } else if v.is_integer() {
            two * k
        } else {
            two * k + 1
        }
    }
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
