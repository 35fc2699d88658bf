//! Shared by the `dbm_*` tests (included with `#[path]`; each uses part of
//! it): random zones kept together with the
//! constraint list that built them, and oracles that decide membership and
//! emptiness from those lists without the library.
//!
//! # Why the grids are fine enough
//!
//! Point-wise checks (`result contains p` iff `oracle says p`) are valid on
//! any finite set of points; a grid only limits which bugs they can see.
//! Claims of the form "not A ⊆ B, so some grid point is in A \ B" need
//! more. Inside a bounded box, a zone with integer constants is a union of
//! regions (fixed integer parts plus an order on the fractional parts, with
//! k ≤ n distinct non-zero fractional values for n clocks), since every
//! `x − y ≺ c` with integer c is constant on a region. A \ B is a finite
//! union of such zones (A meets the complement of one constraint of B);
//! so is A \ aLU(B), aLU(B) being a finite union of projections of
//! difference constraints over (v, v'). Putting the m-th fractional value
//! at m/D hits a region as soon as D ≥ k + 1, so a grid with denominator
//! D ≥ n + 1 meets every region of the box [0, BOX]ⁿ in which
//! [`bounded_sample`] keeps the left operand. Half-integers alone (D = 2)
//! are not enough from two clocks on: the zone 0 < y < x < 1 has no
//! half-integer point, so {0 < x < 1, 0 < y < 1} and its subset {x <= y}
//! would look equal. Hence [`witness_denominator`].
#![allow(dead_code)]

use kairos::domain::zone::{Bound, Dbm, NO_BOUND};
use proptest::prelude::*;

/// Largest clock value the grids reach.
pub const GRID_MAX: i64 = 8;
/// Upper bound that [`bounded_sample`] puts on every clock.
pub const BOX: i64 = 6;
/// The largest constant the model format allows.
pub const BIG: i64 = 1 << 28;

/// `x_i − x_j ≺ c` (index 0 is the reference clock).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Constraint {
    pub i: usize,
    pub j: usize,
    pub c: i64,
    pub strict: bool,
}

impl Constraint {
    pub fn bound(self) -> Bound {
        let c = i32::try_from(self.c).expect("test constants fit in i32");
        if self.strict { Bound::lt(c) } else { Bound::le(c) }
    }

    /// Whether the rational point `p / den` satisfies the constraint.
    pub fn holds(self, p: &[i64], den: i64) -> bool {
        let diff = coord(p, self.i) - coord(p, self.j);
        less(diff, self.c * den, self.strict)
    }

    /// `¬(x_i − x_j ≺ c)` as `x_j − x_i ≺' −c`.
    pub fn negated(self) -> Constraint {
        Constraint { i: self.j, j: self.i, c: -self.c, strict: !self.strict }
    }
}

/// Coordinate of DBM index `i` in a point given without the reference clock.
pub fn coord(p: &[i64], i: usize) -> i64 {
    if i == 0 { 0 } else { p[i - 1] }
}

fn less(a: i64, b: i64, strict: bool) -> bool {
    if strict { a < b } else { a <= b }
}

/// A zone twice: the constraints (the oracle's view) and the DBM the
/// library built from them by `universe` + `constrain`.
#[derive(Clone, Debug)]
pub struct Sample {
    pub dim: usize,
    pub constraints: Vec<Constraint>,
    pub dbm: Dbm,
}

impl Sample {
    pub fn new(dim: usize, constraints: Vec<Constraint>) -> Sample {
        let mut dbm = Dbm::universe(dim);
        for k in &constraints {
            dbm.constrain(k.i, k.j, k.bound());
        }
        Sample { dim, constraints, dbm }
    }

    /// Membership by the constraint list: the meaning of the sample.
    pub fn contains(&self, p: &[i64], den: i64) -> bool {
        p.iter().all(|&v| v >= 0) && self.constraints.iter().all(|k| k.holds(p, den))
    }

    /// Exact emptiness by the test-side solver.
    pub fn is_empty(&self) -> bool {
        !satisfiable(self.dim, &self.constraints)
    }
}

/// Membership read off the matrix entries, independent of `contains_point`.
pub fn dbm_holds(dbm: &Dbm, p: &[i64], den: i64) -> bool {
    if dbm.is_empty() {
        return false;
    }
    let n = dbm.dim();
    (0..n).all(|i| {
        (0..n).all(|j| {
            let b = dbm.bound(i, j);
            !b.is_finite() || less(coord(p, i) - coord(p, j), i64::from(b.value()) * den, b.is_strict())
        })
    })
}

/// Satisfiability over ℝ≥0 by [`shortest_paths`].
pub fn satisfiable(dim: usize, constraints: &[Constraint]) -> bool {
    let dist = shortest_paths(dim, constraints);
    (0..dim).all(|i| dist[i][i] == Some((0, false)))
}

/// The tightest `(c, strict)` with `x_i − x_j ≺ c` implied by the
/// constraints and `x >= 0` (`None`: unbounded), by repeated all-pairs
/// relaxation on (value, strict) pairs: an algorithm and a representation
/// unrelated to the packed bounds and Floyd–Warshall of the library. If
/// the constraints are unsatisfiable, some diagonal entry is below
/// `(0, <=)` and the other entries are meaningless.
pub fn shortest_paths(dim: usize, constraints: &[Constraint]) -> Vec<Vec<Option<(i64, bool)>>> {
    // dist[i][j]: tightest known (c, strict) with x_i − x_j ≺ c.
    let mut dist: Vec<Vec<Option<(i64, bool)>>> = vec![vec![None; dim]; dim];
    let tighter = |a: (i64, bool), b: Option<(i64, bool)>| match b {
        None => true,
        Some(b) => a.0 < b.0 || (a.0 == b.0 && a.1 && !b.1),
    };
    // 0 − x_i <= 0, and the empty paths.
    dist[0].fill(Some((0, false)));
    for (i, row) in dist.iter_mut().enumerate() {
        row[i] = Some((0, false));
    }
    for k in constraints {
        let cand = (k.c, k.strict);
        if tighter(cand, dist[k.i][k.j]) {
            dist[k.i][k.j] = Some(cand);
        }
    }
    // Round r covers all paths of up to 2^r edges, so dim rounds cover
    // every simple path and every simple cycle: a negative (or strict zero)
    // cycle shows on the diagonal.
    for _ in 0..dim {
        for i in 0..dim {
            for k in 0..dim {
                for j in 0..dim {
                    if let (Some(a), Some(b)) = (dist[i][k], dist[k][j]) {
                        let sum = (a.0 + b.0, a.1 || b.1);
                        if tighter(sum, dist[i][j]) {
                            dist[i][j] = Some(sum);
                        }
                    }
                }
            }
        }
    }
    dist
}

/// Exact inclusion of constraint lists: A ⊆ B iff A ∧ ¬b is unsatisfiable
/// for every constraint b of B (B's implicit `x >= 0` holds in A too).
pub fn oracle_subset(a: &Sample, b: &Sample) -> bool {
    b.constraints.iter().all(|k| {
        let mut with_neg = a.constraints.clone();
        with_neg.push(k.negated());
        !satisfiable(a.dim, &with_neg)
    })
}

/// A set of reals `lo ≺ t ≺ hi` built up constraint by constraint.
#[derive(Clone, Copy, Debug)]
pub struct Interval {
    /// `(v, strict)`: `t > v` or `t >= v`.
    pub lo: Option<(i64, bool)>,
    /// `(v, strict)`: `t < v` or `t <= v`.
    pub hi: Option<(i64, bool)>,
}

impl Interval {
    /// `t >= 0`.
    pub fn non_negative() -> Interval {
        Interval { lo: Some((0, false)), hi: None }
    }

    /// Adds `t > v` (strict) or `t >= v`.
    pub fn above(&mut self, v: i64, strict: bool) {
        if self.lo.is_none_or(|(w, s)| v > w || (v == w && strict && !s)) {
            self.lo = Some((v, strict));
        }
    }

    /// Adds `t < v` (strict) or `t <= v`.
    pub fn below(&mut self, v: i64, strict: bool) {
        if self.hi.is_none_or(|(w, s)| v < w || (v == w && strict && !s)) {
            self.hi = Some((v, strict));
        }
    }

    pub fn is_nonempty(&self) -> bool {
        match (self.lo, self.hi) {
            (Some((l, ls)), Some((h, hs))) => l < h || (l == h && !ls && !hs),
            _ => true,
        }
    }
}

/// ∃ d >= 0 with `q − d` in the sample (q is in its future).
pub fn in_up(s: &Sample, q: &[i64], den: i64) -> bool {
    let mut d = Interval::non_negative();
    for &v in q {
        d.below(v, false);
    }
    for k in &s.constraints {
        match (k.i, k.j) {
            // q_i − d ≺ c  ⇔  d ≻ q_i − c
            (i, 0) => d.above(coord(q, i) - k.c * den, k.strict),
            // d − q_j ≺ c  ⇔  d ≺ c + q_j
            (0, j) => d.below(k.c * den + coord(q, j), k.strict),
            _ if !k.holds(q, den) => return false,
            _ => {}
        }
    }
    d.is_nonempty()
}

/// ∃ d >= 0 with `q + d` in the sample (q is in its past).
pub fn in_down(s: &Sample, q: &[i64], den: i64) -> bool {
    delays_into(s, q, den).is_some_and(|d| d.is_nonempty())
}

/// The delays `d >= 0` (in units of `1 / den`) with `q + d` in the sample;
/// `None` when a difference constraint, which no delay changes, fails.
pub fn delays_into(s: &Sample, q: &[i64], den: i64) -> Option<Interval> {
    let mut d = Interval::non_negative();
    for k in &s.constraints {
        match (k.i, k.j) {
            (i, 0) => d.below(k.c * den - coord(q, i), k.strict),
            (0, j) => d.above(-k.c * den - coord(q, j), k.strict),
            _ if !k.holds(q, den) => return None,
            _ => {}
        }
    }
    Some(d)
}

/// ∃ t >= 0 with `q[x := t]` in the sample.
pub fn in_some_value_of(s: &Sample, q: &[i64], den: i64, x: usize) -> bool {
    let mut t = Interval::non_negative();
    for k in &s.constraints {
        if k.i == x {
            t.below(k.c * den + coord(q, k.j), k.strict);
        } else if k.j == x {
            t.above(coord(q, k.i) - k.c * den, k.strict);
        } else if !k.holds(q, den) {
            return false;
        }
    }
    t.is_nonempty()
}

/// Whether `v / den` is in aLU(s): LU-simulated by some `v'` of s, i.e. for
/// every clock x, `v'(x) = v(x)`, or `L_x < v'(x) < v(x)`, or
/// `U_x < v(x) < v'(x)`. For fixed v the allowed `v'(x)` form one interval
/// (`(L_x, v(x)]` or `{v(x)}`, widened to `∞` above when `v(x) > U_x`),
/// so the question is the satisfiability of one constraint list.
pub fn in_alu(s: &Sample, v: &[i64], den: i64, lower: &[i32], upper: &[i32]) -> bool {
    let mut cs: Vec<Constraint> = s.constraints.iter().map(|k| Constraint { c: k.c * den, ..*k }).collect();
    for (x, &vx) in v.iter().enumerate() {
        let (l, u) = (lower[x], upper[x]);
        let idx = x + 1;
        if l == NO_BOUND || i64::from(l) * den < vx {
            if l != NO_BOUND {
                // v'(x) > L_x
                cs.push(Constraint { i: 0, j: idx, c: -i64::from(l) * den, strict: true });
            }
        } else {
            // v'(x) >= v(x)
            cs.push(Constraint { i: 0, j: idx, c: -vx, strict: false });
        }
        if !(u == NO_BOUND || vx > i64::from(u) * den) {
            // v'(x) <= v(x)
            cs.push(Constraint { i: idx, j: 0, c: vx, strict: false });
        }
    }
    satisfiable(s.dim, &cs)
}

/// All points `k / den` with `0 <= k / den <= max` in `clocks` dimensions.
pub fn grid(clocks: usize, den: i64, max: i64) -> Vec<Vec<i64>> {
    let mut points = vec![Vec::new()];
    for _ in 0..clocks {
        points = points
            .into_iter()
            .flat_map(|p| {
                (0..=max * den).map(move |k| {
                    let mut q = p.clone();
                    q.push(k);
                    q
                })
            })
            .collect();
    }
    points
}

/// Denominator for point-wise checks: halves always; quarters (which also
/// separate three fractional parts) where the grid stays small.
pub fn pointwise_denominator(clocks: usize) -> i64 {
    if clocks <= 2 { 4 } else { 2 }
}

/// Smallest even denominator >= clocks + 1; see the module doc.
pub fn witness_denominator(clocks: usize) -> i64 {
    let d = i64::try_from(clocks).expect("few clocks") + 1;
    d + d % 2
}

/// Mostly small constants, sometimes the extremes of the model format.
pub fn constant() -> impl Strategy<Value = i64> {
    prop_oneof![
        20 => -6i64..=6,
        1 => Just(BIG),
        1 => Just(-BIG),
    ]
}

/// `x_i − x_j ≺ c` with `i != j`. Upper bounds `x_i ≺ c` mostly get `c >= 0`
/// and lower bounds `c ≺ x_j` mostly `c >= 0` too, since the other signs
/// make a zone empty or the constraint void; a few keep any sign so those
/// cases stay covered.
pub fn constraint(dim: usize) -> impl Strategy<Value = Constraint> {
    (0..dim, 1..dim, constant(), any::<bool>(), 0..8u8).prop_map(move |(i, offset, c, strict, any_sign)| {
        let j = (i + offset) % dim;
        let c = match (i, j) {
            _ if any_sign == 0 => c,
            (_, 0) => c.abs(),
            (0, _) => -c.abs(),
            _ => c,
        };
        Constraint { i, j, c, strict }
    })
}

pub fn sample(dim: usize) -> impl Strategy<Value = Sample> {
    prop::collection::vec(constraint(dim), 0..=4).prop_map(move |cs| Sample::new(dim, cs))
}

/// Like [`sample`] but every clock is also `<= BOX`, so all its points lie
/// on a finite grid.
pub fn bounded_sample(dim: usize) -> impl Strategy<Value = Sample> {
    prop::collection::vec(constraint(dim), 0..=4).prop_map(move |mut cs| {
        cs.extend((1..dim).map(|i| Constraint { i, j: 0, c: BOX, strict: false }));
        Sample::new(dim, cs)
    })
}

/// 1 to 3 clocks.
pub fn dims() -> impl Strategy<Value = usize> {
    2usize..=4
}

pub fn any_sample() -> impl Strategy<Value = Sample> {
    dims().prop_flat_map(sample)
}

pub fn sample_pair() -> impl Strategy<Value = (Sample, Sample)> {
    dims().prop_flat_map(|d| (sample(d), sample(d)))
}

/// A sample and another one that shares part of its constraints, so that
/// inclusion and overlap happen often.
pub fn related_pair_of(dim: usize) -> impl Strategy<Value = (Sample, Sample)> {
    (sample(dim), prop::collection::vec(constraint(dim), 0..=3), any::<prop::sample::Index>()).prop_map(
        move |(a, extra, keep)| {
            let kept = keep.index(a.constraints.len() + 1);
            let mut cs: Vec<Constraint> = a.constraints[..kept].to_vec();
            cs.extend(extra);
            let b = Sample::new(dim, cs);
            (a, b)
        },
    )
}

pub fn related_pair() -> impl Strategy<Value = (Sample, Sample)> {
    dims().prop_flat_map(related_pair_of)
}

/// One step of forward exploration, for [`explored_zone`].
#[derive(Clone, Copy, Debug)]
pub enum Step {
    Delay,
    Reset(usize, i32),
    Guard(Constraint),
}

fn step(dim: usize) -> impl Strategy<Value = Step> {
    prop_oneof![
        2 => Just(Step::Delay),
        2 => (1..dim, 0i32..=3).prop_map(|(x, v)| Step::Reset(x, v)),
        5 => constraint(dim).prop_map(Step::Guard),
    ]
}

/// Zones as exploration builds them, with more clocks and differences
/// than [`sample`]'s: from all clocks 0, delays, resets and guards, a
/// guard being skipped when it would empty the zone. Never empty.
pub fn explored_zone(dim: usize) -> impl Strategy<Value = Dbm> {
    prop::collection::vec(step(dim), 0..=16).prop_map(move |steps| {
        let mut d = Dbm::zero(dim);
        for s in steps {
            match s {
                Step::Delay => d.up(),
                Step::Reset(x, v) => d.reset(x, v),
                Step::Guard(k) => {
                    let mut guarded = d.clone();
                    if guarded.constrain(k.i, k.j, k.bound()) {
                        d = guarded;
                    }
                }
            }
        }
        d
    })
}

/// 1 to 6 clocks, for [`explored_zone`].
pub fn more_dims() -> impl Strategy<Value = usize> {
    2usize..=7
}

/// The entry `m[i][j]` as `(c, strict)`, `None` for `∞`.
pub fn entry(d: &Dbm, i: usize, j: usize) -> Option<(i64, bool)> {
    let b = d.bound(i, j);
    b.is_finite().then(|| (i64::from(b.value()), b.is_strict()))
}

/// Whether the DBM's entries are exactly the oracle's shortest paths.
pub fn entries_are(d: &Dbm, dist: &[Vec<Option<(i64, bool)>>]) -> bool {
    let n = d.dim();
    (0..n).all(|i| (0..n).all(|j| entry(d, i, j) == dist[i][j]))
}

/// LU bounds per clock: small, sometimes [`NO_BOUND`].
pub fn lu_bounds(clocks: usize) -> impl Strategy<Value = (Vec<i32>, Vec<i32>)> {
    let one = prop_oneof![6 => 0i32..=7, 1 => Just(NO_BOUND)];
    (prop::collection::vec(one.clone(), clocks), prop::collection::vec(one, clocks))
}
