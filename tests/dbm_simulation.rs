//! The aLU subsumption test against the definition of the LU simulation,
//! decided point by point by the oracle in dbm_support.rs.

use crate::support;

use kairos::domain::zone::{Bound, Dbm, NO_BOUND};
use proptest::prelude::*;
use support::*;

fn pair_with_bounds() -> impl Strategy<Value = ((Sample, Sample), (Vec<i32>, Vec<i32>))> {
    dims().prop_flat_map(|d| {
        let pair = prop_oneof![(sample(d), sample(d)), related_pair_of(d)];
        (pair, lu_bounds(d - 1))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn inclusion_implies_subsumption(((a, b), (lower, upper)) in pair_with_bounds()) {
        if a.dbm.is_subset_of(&b.dbm) {
            prop_assert!(a.dbm.alu_subsumed(&b.dbm, &lower, &upper));
        }
        // Reflexive, whatever the bounds.
        prop_assert!(a.dbm.alu_subsumed(&a.dbm, &lower, &upper));
    }

    #[test]
    fn subsumption_is_sound(((a, b), (lower, upper)) in pair_with_bounds()) {
        if a.dbm.alu_subsumed(&b.dbm, &lower, &upper) {
            let den = pointwise_denominator(a.dim - 1);
            for p in grid(a.dim - 1, den, GRID_MAX) {
                if a.contains(&p, den) {
                    prop_assert!(in_alu(&b, &p, den, &lower, &upper), "point {:?}/{}", p, den);
                }
            }
        }
    }

    /// aLU(B) is a finite union of zones with integer constants, so with A
    /// inside the box the witness grid (dbm_support.rs) decides inclusion
    /// in it exactly: the test must agree with the grid both ways.
    #[test]
    fn subsumption_is_exact_on_a_witness_grid(
        (a, b, (lower, upper)) in dims().prop_flat_map(|d| (bounded_sample(d), sample(d), lu_bounds(d - 1))),
    ) {
        let den = witness_denominator(a.dim - 1);
        let witness = grid(a.dim - 1, den, BOX)
            .into_iter()
            .find(|p| a.contains(p, den) && !in_alu(&b, p, den, &lower, &upper));
        prop_assert_eq!(a.dbm.alu_subsumed(&b.dbm, &lower, &upper), witness.is_none(), "witness {:?}", witness);
    }

    /// The zone `alu_cover` gives contains aLU(B), point by point by the
    /// definition (the liveness engine's time-lock scan relies on it), and
    /// B itself.
    #[test]
    fn the_alu_cover_contains_the_abstraction(
        (b, (lower, upper)) in dims().prop_flat_map(|d| (sample(d), lu_bounds(d - 1))),
    ) {
        let cover = b.dbm.alu_cover(&lower, &upper);
        prop_assert!(b.dbm.is_subset_of(&cover));
        let den = pointwise_denominator(b.dim - 1);
        for p in grid(b.dim - 1, den, GRID_MAX) {
            if in_alu(&b, &p, den, &lower, &upper) {
                prop_assert!(dbm_holds(&cover, &p, den), "point {:?}/{} of aLU(B) outside {:?}", p, den, cover);
            }
        }
    }

    /// With L = U = −∞ nothing is observable: every non-empty zone
    /// subsumes every zone.
    #[test]
    fn without_bounds_everything_is_subsumed((a, b) in sample_pair()) {
        let none = vec![NO_BOUND; a.dim - 1];
        prop_assert_eq!(a.dbm.alu_subsumed(&b.dbm, &none, &none), a.dbm.is_empty() || !b.dbm.is_empty());
    }
}

fn point_zone(values: &[i32]) -> Dbm {
    let mut d = Dbm::universe(values.len() + 1);
    for (k, &v) in values.iter().enumerate() {
        d.constrain(k + 1, 0, Bound::le(v));
        d.constrain(0, k + 1, Bound::le(-v));
    }
    d
}

/// The same zone as an oracle sample.
fn point_sample(values: &[i32]) -> Sample {
    let cs = values
        .iter()
        .enumerate()
        .flat_map(|(k, &v)| {
            [
                Constraint { i: k + 1, j: 0, c: i64::from(v), strict: false },
                Constraint { i: 0, j: k + 1, c: -i64::from(v), strict: false },
            ]
        })
        .collect();
    Sample::new(values.len() + 1, cs)
}

#[test]
fn values_above_both_bounds_are_interchangeable() {
    // L = U = 2: x == 5 and x == 3 lie in the same unbounded region.
    let (five, three) = (point_zone(&[5]), point_zone(&[3]));
    assert!(!five.is_subset_of(&three));
    assert!(five.alu_subsumed(&three, &[2], &[2]));
    assert!(three.alu_subsumed(&five, &[2], &[2]));
    // With U = 4, x == 3 is still below the largest upper-bound guard.
    assert!(!three.alu_subsumed(&five, &[2], &[4]));
    assert!(five.alu_subsumed(&three, &[2], &[4]));
    assert!(in_alu(&point_sample(&[3]), &[5], 1, &[2], &[4]));
    assert!(!in_alu(&point_sample(&[5]), &[3], 1, &[2], &[4]));
}

#[test]
fn a_clock_only_compared_from_below_prefers_larger_values() {
    // Guards x >= c with c <= 2 only (L = 2, U = −∞): x == 3 simulates
    // x == 1, not the other way round (x >= 2 would tell them apart).
    let (one, three) = (point_zone(&[1]), point_zone(&[3]));
    assert!(one.alu_subsumed(&three, &[2], &[NO_BOUND]));
    assert!(!three.alu_subsumed(&one, &[2], &[NO_BOUND]));
    assert!(in_alu(&point_sample(&[3]), &[1], 1, &[2], &[NO_BOUND]));
    assert!(!in_alu(&point_sample(&[1]), &[3], 1, &[2], &[NO_BOUND]));
}

#[test]
fn alu_sees_through_the_diagonal() {
    // Z' = {x == y} (delay from zero) is left unchanged by ExtraLU+ with
    // L = U = 1, yet with those bounds (2, 3) is simulated by (2, 2) on the
    // diagonal: the non-convex abstraction is strictly coarser.
    let mut diagonal = Dbm::zero(3);
    diagonal.up();
    let mut extrapolated = diagonal.clone();
    extrapolated.extrapolate_lu_plus(&[1, 1], &[1, 1]);
    assert_eq!(extrapolated, diagonal);
    let point = point_zone(&[2, 3]);
    assert!(!point.is_subset_of(&extrapolated));
    assert!(point.alu_subsumed(&diagonal, &[1, 1], &[1, 1]));
    let diagonal_sample = Sample::new(
        3,
        vec![Constraint { i: 1, j: 2, c: 0, strict: false }, Constraint { i: 2, j: 1, c: 0, strict: false }],
    );
    assert!(in_alu(&diagonal_sample, &[2, 3], 1, &[1, 1], &[1, 1]));
    // Below the bounds the difference matters again.
    let low = point_zone(&[0, 1]);
    assert!(!low.alu_subsumed(&diagonal, &[1, 1], &[1, 1]));
    assert!(!in_alu(&diagonal_sample, &[0, 1], 1, &[1, 1], &[1, 1]));
}

#[test]
fn differences_beyond_the_bounds_are_ignored() {
    // x <= 1 and y − x == 3 versus y − x == 5: with L_y = U_y = 2, y is
    // above its bounds in both, so the gap between them is invisible.
    let zone = |gap: i32| {
        let mut d = Dbm::universe(3);
        d.constrain(1, 0, Bound::le(1));
        d.constrain(2, 1, Bound::le(gap));
        d.constrain(1, 2, Bound::le(-gap));
        d
    };
    let (near, far) = (zone(3), zone(5));
    assert!(!near.is_subset_of(&far));
    assert!(near.alu_subsumed(&far, &[1, 2], &[1, 2]));
    // With U_y = 4, y == 3.5 in `near` needs a simulating y' <= 3.5 in `far`.
    assert!(!near.alu_subsumed(&far, &[1, 2], &[1, 4]));
}

#[test]
fn empty_zones() {
    let mut empty = Dbm::universe(2);
    empty.constrain(1, 0, Bound::lt(0));
    let universe = Dbm::universe(2);
    assert!(empty.alu_subsumed(&universe, &[1], &[1]));
    assert!(empty.alu_subsumed(&empty, &[1], &[1]));
    assert!(!universe.alu_subsumed(&empty, &[NO_BOUND], &[NO_BOUND]));
}
