//! ExtraLU+: laws that follow from its definition and from its soundness
//! with respect to the LU simulation (Extra+_LU(Z) ⊆ aLU(Z)).

use crate::support;

use kairos::domain::zone::{Bound, Dbm, NO_BOUND};
use proptest::prelude::*;
use support::*;

fn extrapolated(d: &Dbm, lower: &[i32], upper: &[i32]) -> Dbm {
    let mut e = d.clone();
    e.extrapolate_lu_plus(lower, upper);
    e
}

fn with_bounds() -> impl Strategy<Value = (Sample, (Vec<i32>, Vec<i32>))> {
    dims().prop_flat_map(|d| (sample(d), lu_bounds(d - 1)))
}

/// Largest absolute value among the finite entries.
fn largest_constant(d: &Dbm) -> i32 {
    let n = d.dim();
    (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .map(|(i, j)| d.bound(i, j))
        .filter(|b| b.is_finite())
        .map(|b| b.value().abs())
        .max()
        .unwrap_or(0)
}

/// ExtraLU+ as the definition reads (see `extrapolate_lu_plus`), on
/// `(c, strict)` pairs, closed by the test-side shortest paths: an oracle
/// for the library's rewriting and its re-closing alike.
fn extrapolation_oracle(d: &Dbm, lower: &[i32], upper: &[i32]) -> Vec<Vec<Option<(i64, bool)>>> {
    shortest_paths(d.dim(), &rewritten(d, lower, upper))
}

/// The constraints the definition of ExtraLU+ keeps or rewrites, before
/// any closing.
fn rewritten(d: &Dbm, lower: &[i32], upper: &[i32]) -> Vec<Constraint> {
    let n = d.dim();
    // A bound of −∞ is exceeded by everything; the reference clock's is 0.
    let at = |bounds: &[i32], i: usize| match i {
        0 => Some(0),
        _ if bounds[i - 1] == NO_BOUND => None,
        _ => Some(i64::from(bounds[i - 1])),
    };
    let exceeds = |v: i64, bound: Option<i64>| bound.is_none_or(|b| v > b);
    let lower_bound = |i: usize| -entry(d, 0, i).expect("row 0 is finite").0;
    let mut kept = Vec::new();
    for i in 0..n {
        for j in (0..n).filter(|&j| j != i) {
            let Some((c, strict)) = entry(d, i, j) else { continue };
            let rewritten = if i == 0 {
                match at(upper, j) {
                    None => Some((0, false)),
                    Some(u) if lower_bound(j) > u => Some((-u, true)),
                    _ => Some((c, strict)),
                }
            } else if exceeds(c, at(lower, i))
                || exceeds(lower_bound(i), at(lower, i))
                || (j != 0 && exceeds(lower_bound(j), at(upper, j)))
            {
                None
            } else {
                Some((c, strict))
            };
            if let Some((c, strict)) = rewritten {
                kept.push(Constraint { i, j, c, strict });
            }
        }
    }
    kept
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Entry for entry the definition followed by a full closure, on zones
    /// with up to 6 clocks, where whole rows and columns are dropped and
    /// the re-closing skips pivots.
    #[test]
    fn extrapolation_is_the_closed_definition(
        (d, (lower, upper)) in more_dims().prop_flat_map(|n| (explored_zone(n), lu_bounds(n - 1))),
    ) {
        let e = extrapolated(&d, &lower, &upper);
        prop_assert!(entries_are(&e, &extrapolation_oracle(&d, &lower, &upper)), "{:?} became {:?}", d, e);
    }

    /// Why the library's re-closing leaves row 0 alone: the definition's
    /// row 0 (the lower bounds), as rewritten, is already closed. Checked
    /// on the oracle, then on the library, whose row 0 must be that row.
    #[test]
    fn extrapolation_row_0_needs_no_closing(
        (d, (lower, upper)) in more_dims().prop_flat_map(|n| (explored_zone(n), lu_bounds(n - 1))),
    ) {
        let closed = extrapolation_oracle(&d, &lower, &upper);
        let mut row_0 = vec![None; d.dim()];
        row_0[0] = Some((0, false));
        for c in rewritten(&d, &lower, &upper).into_iter().filter(|c| c.i == 0) {
            row_0[c.j] = Some((c.c, c.strict));
        }
        prop_assert_eq!(&closed[0], &row_0);
        let e = extrapolated(&d, &lower, &upper);
        prop_assert!((0..d.dim()).all(|j| entry(&e, 0, j) == row_0[j]), "{:?} became {:?}", d, e);
    }

    #[test]
    fn extrapolation_only_grows((s, (lower, upper)) in with_bounds()) {
        let e = extrapolated(&s.dbm, &lower, &upper);
        prop_assert!(e.is_canonical());
        prop_assert_eq!(e.is_empty(), s.dbm.is_empty());
        prop_assert!(s.dbm.is_subset_of(&e));
        let den = pointwise_denominator(s.dim - 1);
        for p in grid(s.dim - 1, den, GRID_MAX) {
            prop_assert!(!s.contains(&p, den) || e.contains_point(&p, den));
        }
    }

    /// With every L and U at least the largest constant of the zone, none of
    /// the conditions `c > L`, `−c > L`, `−c > U` can hold.
    #[test]
    fn bounds_above_all_constants_change_nothing(s in any_sample()) {
        let m = largest_constant(&s.dbm);
        let bounds = vec![m; s.dim - 1];
        let e = extrapolated(&s.dbm, &bounds, &bounds);
        prop_assert_eq!(&e, &s.dbm);
    }

    /// Larger bounds keep more entries and relax lower bounds to tighter
    /// values, entry by entry before closing, hence give a smaller zone.
    /// In particular Extra+_M with M = max(L, U) is finer than Extra+_LU.
    #[test]
    fn larger_bounds_give_smaller_zones(
        (s, (lower, upper), (more_l, more_u)) in dims().prop_flat_map(|d| (sample(d), lu_bounds(d - 1), lu_bounds(d - 1))),
    ) {
        let coarse = extrapolated(&s.dbm, &lower, &upper);
        let bigger_l: Vec<i32> = lower.iter().zip(&more_l).map(|(a, b)| *a.max(b)).collect();
        let bigger_u: Vec<i32> = upper.iter().zip(&more_u).map(|(a, b)| *a.max(b)).collect();
        let fine = extrapolated(&s.dbm, &bigger_l, &bigger_u);
        prop_assert!(fine.is_subset_of(&coarse));
        let m: Vec<i32> = lower.iter().zip(&upper).map(|(a, b)| *a.max(b)).collect();
        let extra_m = extrapolated(&s.dbm, &m, &m);
        prop_assert!(extra_m.is_subset_of(&coarse));
        prop_assert!(s.dbm.is_subset_of(&extra_m));
    }

    /// Soundness: every valuation added is LU-simulated by one of the zone,
    /// checked both by the library's aLU test and point-wise by the oracle.
    #[test]
    fn extrapolation_stays_inside_alu((s, (lower, upper)) in with_bounds()) {
        let e = extrapolated(&s.dbm, &lower, &upper);
        prop_assert!(e.alu_subsumed(&s.dbm, &lower, &upper));
        let den = pointwise_denominator(s.dim - 1);
        for p in grid(s.dim - 1, den, GRID_MAX) {
            if e.contains_point(&p, den) {
                prop_assert!(in_alu(&s, &p, den, &lower, &upper), "point {:?}/{}", p, den);
            }
        }
    }

    /// Equal inputs give equal outputs, so extrapolated zones can be hashed.
    #[test]
    fn extrapolation_respects_equality((s, (lower, upper)) in with_bounds()) {
        let rebuilt = Sample::new(s.dim, s.constraints.iter().rev().copied().collect());
        prop_assert_eq!(
            extrapolated(&s.dbm, &lower, &upper),
            extrapolated(&rebuilt.dbm, &lower, &upper)
        );
    }
}

fn reset_after_delay(x_value: i32) -> Dbm {
    // x == x_value, y == 0: delay from zero, then reset y.
    let mut d = Dbm::zero(3);
    d.up();
    d.constrain(1, 0, Bound::le(x_value));
    d.constrain(0, 1, Bound::le(-x_value));
    d.reset(2, 0);
    d
}

#[test]
fn clock_above_its_bounds_becomes_unbounded() {
    let d = reset_after_delay(5);
    let e = extrapolated(&d, &[3, 3], &[3, 3]);
    // x == 5 becomes 3 < x; y == 0 stays; the difference is forgotten.
    let mut expected = Dbm::universe(3);
    expected.constrain(0, 1, Bound::lt(-3));
    expected.constrain(2, 0, Bound::LE_ZERO);
    assert_eq!(e, expected);
    assert_eq!(e.display(&["x", "y"]).to_string(), "3 < x && y == 0");
}

#[test]
fn lower_and_upper_bounds_act_separately() {
    let d = reset_after_delay(5);
    // x compared only from below with 3 (L = 3, U = −∞): its lower bound
    // 5 > U is relaxed to "x >= 0", and row x (upper bound 5 > L) is dropped.
    let e = extrapolated(&d, &[3, 0], &[NO_BOUND, 0]);
    let mut expected = Dbm::universe(3);
    expected.constrain(2, 0, Bound::LE_ZERO);
    assert_eq!(e, expected);
    // U_x = 7 keeps the lower bound 5 < 7, and 5 > L_x = 3 still drops row x.
    let e = extrapolated(&d, &[3, 0], &[7, 0]);
    let mut expected = Dbm::universe(3);
    expected.constrain(0, 1, Bound::le(-5));
    expected.constrain(2, 0, Bound::LE_ZERO);
    assert_eq!(e, expected);
    assert_eq!(e.display(&["x", "y"]).to_string(), "5 <= x && y == 0");
}

#[test]
fn lower_bound_above_l_frees_the_whole_row() {
    // x == y >= 5 with L = 3: no guard x >= c or y >= c can tell 5 from
    // anything above 3, so the difference x − y == 0 is forgotten as well,
    // while U = 10 keeps the lower bounds themselves.
    let mut d = Dbm::zero(3);
    d.up();
    d.constrain(0, 1, Bound::le(-5));
    let e = extrapolated(&d, &[3, 3], &[10, 10]);
    assert_eq!(e.display(&["x", "y"]).to_string(), "5 <= x && 5 <= y");
    // With L = 5 the rows stay: 5 > 5 does not hold.
    let e = extrapolated(&d, &[5, 5], &[10, 10]);
    assert_eq!(e, d);
}

#[test]
fn no_bounds_at_all_give_the_universe() {
    let d = reset_after_delay(2);
    let e = extrapolated(&d, &[NO_BOUND, NO_BOUND], &[NO_BOUND, NO_BOUND]);
    assert_eq!(e, Dbm::universe(3));
}

#[test]
fn empty_stays_empty() {
    let mut d = Dbm::universe(2);
    d.constrain(1, 0, Bound::lt(0));
    assert!(d.is_empty());
    d.extrapolate_lu_plus(&[1], &[1]);
    assert!(d.is_empty());
}
