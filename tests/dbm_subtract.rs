//! Zone difference: a partition of `A \ B` into disjoint canonical zones.

use crate::support;

use kairos::domain::zone::{Bound, Dbm};
use proptest::prelude::*;
use support::*;

/// The structural promises that the library can check about itself
/// exactly: pieces non-empty, canonical, inside A, outside B, disjoint.
fn check_structure(a: &Dbm, b: &Dbm, pieces: &[Dbm]) -> Result<(), TestCaseError> {
    for (k, p) in pieces.iter().enumerate() {
        prop_assert!(!p.is_empty() && p.is_canonical());
        prop_assert!(p.is_subset_of(a));
        let mut meet = p.clone();
        prop_assert!(!meet.intersect(b), "piece {} meets B", k);
        for q in &pieces[k + 1..] {
            let mut meet = p.clone();
            prop_assert!(!meet.intersect(q), "pieces overlap");
        }
    }
    prop_assert_eq!(pieces.is_empty(), a.is_subset_of(b));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn difference_is_partitioned((a, b) in prop_oneof![sample_pair(), related_pair()]) {
        let pieces = a.dbm.subtract(&b.dbm);
        check_structure(&a.dbm, &b.dbm, &pieces)?;
        let den = pointwise_denominator(a.dim - 1);
        for p in grid(a.dim - 1, den, GRID_MAX) {
            let covering = pieces.iter().filter(|z| z.contains_point(&p, den)).count();
            let expected = usize::from(a.contains(&p, den) && !b.contains(&p, den));
            prop_assert_eq!(covering, expected, "point {:?}/{}", p, den);
        }
    }

    /// With A inside the box, the witness grid meets every region of A \ B
    /// (see dbm_support.rs), so agreeing on it means the pieces cover
    /// exactly A \ B, given that they lie in A and outside B.
    #[test]
    fn difference_is_exact_on_a_witness_grid(
        (a, b) in dims().prop_flat_map(|d| (bounded_sample(d), sample(d))),
    ) {
        let pieces = a.dbm.subtract(&b.dbm);
        check_structure(&a.dbm, &b.dbm, &pieces)?;
        let den = witness_denominator(a.dim - 1);
        for p in grid(a.dim - 1, den, BOX) {
            let covered = pieces.iter().any(|z| z.contains_point(&p, den));
            prop_assert_eq!(covered, a.contains(&p, den) && !b.contains(&p, den), "point {:?}/{}", p, den);
        }
    }

    /// (A − B) ∪ (A ∩ B) = A, as a disjoint union.
    #[test]
    fn difference_and_intersection_rebuild_the_zone((a, b) in related_pair()) {
        let mut pieces = a.dbm.subtract(&b.dbm);
        let mut meet = a.dbm.clone();
        if meet.intersect(&b.dbm) {
            pieces.push(meet);
        }
        let den = pointwise_denominator(a.dim - 1);
        for p in grid(a.dim - 1, den, GRID_MAX) {
            let covering = pieces.iter().filter(|z| z.contains_point(&p, den)).count();
            prop_assert_eq!(covering, usize::from(a.dbm.contains_point(&p, den)));
        }
        // Subtracting again removes nothing more, and B − B is empty.
        for piece in a.dbm.subtract(&b.dbm) {
            prop_assert_eq!(piece.subtract(&b.dbm), vec![piece.clone()]);
        }
        prop_assert!(b.dbm.subtract(&b.dbm).is_empty());
    }

    /// `A \ B ⊆ C` as `difference_within` tests it, piece by piece,
    /// against the witness grid (exact with A inside the box), with C
    /// either any zone or the hull of A and B (the federations' merge
    /// test: is the hull minus A inside B?).
    #[test]
    fn difference_within_agrees_with_the_witness_grid(
        (a, b, c) in dims().prop_flat_map(|d| (bounded_sample(d), bounded_sample(d), sample(d))),
    ) {
        let den = witness_denominator(a.dim - 1);
        let points = grid(a.dim - 1, den, BOX);
        let outside = |a: &Dbm, b: &Dbm, c: &Dbm| {
            points.iter().any(|p| a.contains_point(p, den) && !b.contains_point(p, den) && !c.contains_point(p, den))
        };
        prop_assert_eq!(a.dbm.difference_within(&b.dbm, &c.dbm), !outside(&a.dbm, &b.dbm, &c.dbm));
        let hull = a.dbm.hull(&b.dbm);
        prop_assert_eq!(hull.difference_within(&a.dbm, &b.dbm), !outside(&hull, &a.dbm, &b.dbm));
    }
}

fn boxed(lo_x: i32, hi_x: i32, lo_y: i32, hi_y: i32) -> Dbm {
    let mut d = Dbm::universe(3);
    d.constrain(1, 0, Bound::le(hi_x));
    d.constrain(0, 1, Bound::le(-lo_x));
    d.constrain(2, 0, Bound::le(hi_y));
    d.constrain(0, 2, Bound::le(-lo_y));
    d
}

#[test]
fn square_minus_inner_square_is_a_frame() {
    let outer = boxed(0, 4, 0, 4);
    let inner = boxed(1, 2, 1, 2);
    let pieces = outer.subtract(&inner);
    // One piece per side of the inner square; points are in halves.
    assert_eq!(pieces.len(), 4);
    for p in [[0, 0], [8, 8], [1, 1], [2, 5], [5, 2]] {
        assert_eq!(pieces.iter().filter(|z| z.contains_point(&p, 2)).count(), 1, "{p:?}");
    }
    for p in [[2, 2], [4, 4], [3, 4]] {
        assert!(pieces.iter().all(|z| !z.contains_point(&p, 2)), "{p:?}");
    }
}

#[test]
fn universe_minus_upper_bound_is_the_open_complement() {
    let universe = Dbm::universe(2);
    let mut at_most_3 = Dbm::universe(2);
    at_most_3.constrain(1, 0, Bound::le(3));
    let pieces = universe.subtract(&at_most_3);
    let mut above_3 = Dbm::universe(2);
    above_3.constrain(0, 1, Bound::lt(-3));
    assert_eq!(pieces, vec![above_3]);
    assert!(at_most_3.subtract(&universe).is_empty());
}

#[test]
fn disjoint_zones_subtract_to_themselves() {
    let left = boxed(0, 1, 0, 1);
    let right = boxed(2, 3, 0, 1);
    assert_eq!(left.subtract(&right), vec![left.clone()]);
    // Touching at x = 1 with a strict side: still disjoint.
    let mut touching = Dbm::universe(3);
    touching.constrain(0, 1, Bound::lt(-1));
    assert_eq!(left.subtract(&touching), vec![left.clone()]);
}
