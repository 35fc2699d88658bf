//! The core DBM verbs against constraint-list oracles on grids of rational
//! points, plus hand-written edge cases.

use crate::support;

use std::hash::{BuildHasher, Hash, Hasher};

use kairos::domain::zone::{Bound, Dbm};
use proptest::prelude::*;
use support::*;

fn fx_hash(d: &Dbm) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(d)
}

fn std_hash(d: &Dbm) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    d.hash(&mut h);
    h.finish()
}

/// Entry-wise identity, stricter than `==` (which ignores the entries of
/// empty DBMs).
fn same_entries(a: &Dbm, b: &Dbm) -> bool {
    let n = a.dim();
    n == b.dim() && (0..n).all(|i| (0..n).all(|j| a.bound(i, j) == b.bound(i, j)))
}

fn pointwise_grid(dim: usize) -> (Vec<Vec<i64>>, i64) {
    let den = pointwise_denominator(dim - 1);
    (grid(dim - 1, den, GRID_MAX), den)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn constrain_builds_exactly_the_conjunction(s in any_sample()) {
        prop_assert!(s.dbm.is_canonical());
        prop_assert_eq!(s.dbm.is_empty(), s.is_empty());
        let (points, den) = pointwise_grid(s.dim);
        for p in &points {
            let expected = s.contains(p, den);
            prop_assert_eq!(s.dbm.contains_point(p, den), expected, "point {:?}/{}", p, den);
            prop_assert_eq!(dbm_holds(&s.dbm, p, den), expected, "point {:?}/{}", p, den);
        }
    }

    #[test]
    fn contains_point_on_random_rationals(
        (s, p) in any_sample().prop_flat_map(|s| {
            let clocks = s.dim - 1;
            (Just(s), prop::collection::vec(0i64..=120, clocks))
        }),
        den in 1i64..=15,
    ) {
        prop_assert_eq!(s.dbm.contains_point(&p, den), s.contains(&p, den));
    }

    #[test]
    fn incremental_constrain_equals_full_closure(
        (s, k) in dims().prop_flat_map(|d| (sample(d), constraint(d))),
    ) {
        let mut incremental = s.dbm.clone();
        let non_empty = incremental.constrain(k.i, k.j, k.bound());
        let mut batch = s.dbm.clone();
        batch.tighten(k.i, k.j, k.bound());
        prop_assert_eq!(batch.close(), non_empty);
        prop_assert_eq!(incremental.is_empty(), !non_empty);
        prop_assert_eq!(&incremental, &batch);
        if non_empty {
            prop_assert!(same_entries(&incremental, &batch));
        }
    }

    #[test]
    fn batch_tighten_then_close_equals_incremental(s in any_sample()) {
        let mut batch = Dbm::universe(s.dim);
        for k in &s.constraints {
            batch.tighten(k.i, k.j, k.bound());
        }
        prop_assert_eq!(batch.close(), !s.dbm.is_empty());
        prop_assert_eq!(&batch, &s.dbm);
    }

    /// Rows dropped whole (no edge out of a clock) and columns dropped but
    /// for row 0 (a clock entered from the reference clock only), as
    /// extrapolation leaves them (the pivots `close` skips), and single
    /// entries dropped (the paths it must still find).
    #[test]
    fn close_after_dropping_entries_is_shortest_paths(
        (d, rows, columns, entries) in more_dims().prop_flat_map(|n| {
            let flags = |len: usize| prop::collection::vec(prop::bool::weighted(0.3), len);
            (explored_zone(n), flags(n), flags(n), flags(n * n))
        }),
    ) {
        let n = d.dim();
        let mut kept = Vec::new();
        let mut loosened = Dbm::universe(n);
        for i in 0..n {
            for j in (0..n).filter(|&j| j != i) {
                let dropped = i != 0 && (rows[i] || (j != 0 && columns[j]) || entries[i * n + j]);
                if let (Some((c, strict)), false) = (entry(&d, i, j), dropped) {
                    let k = Constraint { i, j, c, strict };
                    kept.push(k);
                    loosened.tighten(i, j, k.bound());
                }
            }
        }
        prop_assert!(loosened.close());
        prop_assert!(entries_are(&loosened, &shortest_paths(n, &kept)), "{:?} became {:?}", d, loosened);
    }

    #[test]
    fn close_is_idempotent(s in any_sample()) {
        let mut again = s.dbm.clone();
        again.close();
        prop_assert!(same_entries(&again, &s.dbm));
        again.close();
        prop_assert!(same_entries(&again, &s.dbm));
    }

    #[test]
    fn intersect_is_the_conjunction((a, b) in prop_oneof![sample_pair(), related_pair()]) {
        let mut both = a.dbm.clone();
        let non_empty = both.intersect(&b.dbm);
        let joint = Sample::new(a.dim, [a.constraints.clone(), b.constraints.clone()].concat());
        prop_assert_eq!(non_empty, !joint.is_empty());
        prop_assert_eq!(both.is_empty(), !non_empty);
        prop_assert!(both.is_canonical());
        prop_assert_eq!(&both, &joint.dbm);
        let (points, den) = pointwise_grid(a.dim);
        for p in &points {
            prop_assert_eq!(both.contains_point(p, den), a.contains(p, den) && b.contains(p, den));
        }
        // Commutative, and idempotent on its result.
        let mut other_way = b.dbm.clone();
        other_way.intersect(&a.dbm);
        prop_assert_eq!(&other_way, &both);
        let mut twice = both.clone();
        prop_assert_eq!(twice.intersect(&both), non_empty);
        prop_assert_eq!(&twice, &both);
    }

    #[test]
    fn up_is_the_future(s in any_sample()) {
        let mut up = s.dbm.clone();
        up.up();
        prop_assert!(up.is_canonical());
        prop_assert!(s.dbm.is_subset_of(&up));
        let (points, den) = pointwise_grid(s.dim);
        for q in &points {
            prop_assert_eq!(up.contains_point(q, den), in_up(&s, q, den), "point {:?}/{}", q, den);
        }
        let mut twice = up.clone();
        twice.up();
        prop_assert!(same_entries(&twice, &up) || up.is_empty());
    }

    #[test]
    fn down_is_the_past(s in any_sample()) {
        let mut down = s.dbm.clone();
        down.down();
        prop_assert!(down.is_canonical());
        prop_assert!(s.dbm.is_subset_of(&down));
        let (points, den) = pointwise_grid(s.dim);
        for q in &points {
            prop_assert_eq!(down.contains_point(q, den), in_down(&s, q, den), "point {:?}/{}", q, den);
        }
        let mut twice = down.clone();
        twice.down();
        prop_assert_eq!(&twice, &down);
    }

    #[test]
    fn reset_assigns_the_value(
        (s, x) in dims().prop_flat_map(|d| (sample(d), 1..d)),
        value in prop_oneof![4 => 0i32..=6, 1 => Just(1i32 << 28)],
    ) {
        let mut reset = s.dbm.clone();
        reset.reset(x, value);
        prop_assert!(reset.is_canonical());
        prop_assert_eq!(reset.is_empty(), s.dbm.is_empty());
        let (points, den) = pointwise_grid(s.dim);
        for q in &points {
            let expected = q[x - 1] == i64::from(value) * den && in_some_value_of(&s, q, den, x);
            prop_assert_eq!(reset.contains_point(q, den), expected, "point {:?}/{}", q, den);
        }
    }

    #[test]
    fn free_forgets_the_clock((s, x) in dims().prop_flat_map(|d| (sample(d), 1..d))) {
        let mut freed = s.dbm.clone();
        freed.free(x);
        prop_assert!(freed.is_canonical());
        prop_assert!(s.dbm.is_subset_of(&freed));
        let (points, den) = pointwise_grid(s.dim);
        for q in &points {
            prop_assert_eq!(freed.contains_point(q, den), in_some_value_of(&s, q, den, x), "point {:?}/{}", q, den);
        }
        // free = reset to 0 followed by forgetting again.
        let mut via_reset = s.dbm.clone();
        via_reset.reset(x, 0);
        via_reset.free(x);
        prop_assert_eq!(&via_reset, &freed);
    }

    #[test]
    fn inclusion_is_exact((a, b) in prop_oneof![sample_pair(), related_pair()]) {
        let included = a.dbm.is_subset_of(&b.dbm);
        prop_assert_eq!(included, oracle_subset(&a, &b));
        if included {
            let (points, den) = pointwise_grid(a.dim);
            for p in &points {
                prop_assert!(!a.contains(p, den) || b.contains(p, den));
            }
        }
    }

    /// With the left zone inside the box, the grid with denominator
    /// `witness_denominator` (see dbm_support.rs) always shows a point of
    /// A \ B when A is not included in B.
    #[test]
    fn non_inclusion_has_a_grid_witness(
        (a, b) in dims().prop_flat_map(|d| (bounded_sample(d), sample(d))),
    ) {
        let den = witness_denominator(a.dim - 1);
        let witness = grid(a.dim - 1, den, BOX)
            .into_iter()
            .find(|p| a.contains(p, den) && !b.contains(p, den));
        prop_assert_eq!(a.dbm.is_subset_of(&b.dbm), witness.is_none(), "witness {:?}", witness);
    }

    #[test]
    fn equality_and_hash_follow_the_point_sets((a, b) in related_pair()) {
        let equal = oracle_subset(&a, &b) && oracle_subset(&b, &a);
        prop_assert_eq!(a.dbm == b.dbm, equal);
        if equal {
            prop_assert_eq!(fx_hash(&a.dbm), fx_hash(&b.dbm));
            prop_assert_eq!(std_hash(&a.dbm), std_hash(&b.dbm));
        }
    }

    #[test]
    fn same_zone_from_shuffled_constraints_is_equal(
        (s, seed) in (any_sample(), any::<u64>()),
    ) {
        let mut cs = s.constraints.clone();
        // A cheap deterministic shuffle: rotate by the seed and reverse.
        if !cs.is_empty() {
            let r = usize::try_from(seed % cs.len() as u64).unwrap();
            cs.rotate_left(r);
            cs.reverse();
        }
        let other = Sample::new(s.dim, cs);
        prop_assert_eq!(&other.dbm, &s.dbm);
        prop_assert_eq!(fx_hash(&other.dbm), fx_hash(&s.dbm));
    }
}

fn zone(dim: usize, constraints: &[(usize, usize, Bound)]) -> Dbm {
    let mut d = Dbm::universe(dim);
    for &(i, j, b) in constraints {
        d.constrain(i, j, b);
    }
    d
}

#[test]
fn strict_and_non_strict_at_the_same_constant() {
    let le = zone(2, &[(1, 0, Bound::le(3))]);
    let lt = zone(2, &[(1, 0, Bound::lt(3))]);
    assert!(le.contains_point(&[3], 1));
    assert!(!lt.contains_point(&[3], 1));
    assert!(lt.contains_point(&[5], 2));
    assert!(lt.is_subset_of(&le));
    assert!(!le.is_subset_of(&lt));
    assert_ne!(le, lt);

    // 3 <= x <= 3 is a point, 3 < x <= 3 and 3 <= x < 3 are empty.
    let mut point = le.clone();
    assert!(point.constrain(0, 1, Bound::le(-3)));
    assert!(point.contains_point(&[3], 1));
    let mut open = le.clone();
    assert!(!open.constrain(0, 1, Bound::lt(-3)));
    assert!(open.is_empty());
    let mut open = lt.clone();
    assert!(!open.constrain(0, 1, Bound::le(-3)));

    // x − y < 0 and y − x <= 0 clash only because of the strictness.
    let mut d = zone(3, &[(1, 2, Bound::lt(0))]);
    assert!(d.constrain(2, 1, Bound::lt(1)));
    assert!(!d.clone().constrain(2, 1, Bound::lt(0)));
    assert!(!d.constrain(2, 1, Bound::le(0)));
}

#[test]
fn constrain_reports_redundant_constraints_as_non_empty() {
    let mut d = zone(2, &[(1, 0, Bound::le(3))]);
    let before = d.clone();
    assert!(d.constrain(1, 0, Bound::le(5)));
    assert!(d.constrain(1, 0, Bound::le(3)));
    assert_eq!(d, before);
}

#[test]
fn empty_zones_stay_empty_and_are_all_equal() {
    let mut a = zone(3, &[(1, 0, Bound::le(1)), (0, 1, Bound::le(-2))]);
    let b = zone(3, &[(1, 2, Bound::lt(0)), (2, 1, Bound::lt(0))]);
    assert!(a.is_empty() && b.is_empty());
    assert_eq!(a, b);
    assert_eq!(fx_hash(&a), fx_hash(&b));
    assert!(a.is_canonical());
    let universe = Dbm::universe(3);
    assert!(a.is_subset_of(&universe));
    assert!(!universe.is_subset_of(&a));
    assert!(!a.contains_point(&[0, 0], 1));

    a.up();
    a.down();
    a.reset(1, 2);
    a.free(2);
    assert!(!a.constrain(1, 0, Bound::le(4)));
    let mut c = universe.clone();
    assert!(!a.intersect(&universe));
    assert!(!c.intersect(&a));
    assert!(a.is_empty() && c.is_empty());
    assert_eq!(a, c);
    assert!(!a.close());
    assert!(a.subtract(&universe).is_empty());
    assert_eq!(universe.subtract(&a), vec![universe.clone()]);
}

#[test]
fn dimension_one_has_only_the_reference_clock() {
    let universe = Dbm::universe(1);
    let zero = Dbm::zero(1);
    assert_eq!(universe, zero);
    assert!(!universe.is_empty());
    assert!(universe.contains_point(&[], 1));
    let mut d = universe.clone();
    d.up();
    d.down();
    assert!(d.close());
    assert!(d.intersect(&zero));
    assert_eq!(d, zero);
    assert!(d.is_subset_of(&zero) && zero.is_subset_of(&d));
    assert!(d.subtract(&zero).is_empty());
    assert_eq!(d.display::<&str>(&[]).to_string(), "true");
    d.extrapolate_lu_plus(&[], &[]);
    assert!(d.alu_subsumed(&zero, &[], &[]));
}

#[test]
fn universe_and_zero() {
    let universe = Dbm::universe(3);
    let zero = Dbm::zero(3);
    assert!(universe.is_canonical() && zero.is_canonical());
    assert!(zero.is_subset_of(&universe));
    assert!(universe.contains_point(&[1_000_000, 3], 2));
    assert!(zero.contains_point(&[0, 0], 7));
    assert!(!zero.contains_point(&[0, 1], 7));
    // Letting time pass from 0 gives the diagonal x == y.
    let mut diagonal = zero.clone();
    diagonal.up();
    assert!(diagonal.contains_point(&[5, 5], 2));
    assert!(!diagonal.contains_point(&[5, 4], 2));
    assert_eq!(diagonal.bound(1, 2), Bound::LE_ZERO);
    assert_eq!(diagonal.bound(1, 0), Bound::INF);
    let mut back = diagonal.clone();
    back.down();
    assert_eq!(back, diagonal);
}

#[test]
fn largest_constants_add_up_without_overflow() {
    let big = 1 << 28;
    // x <= 2^28, y − x <= 2^28, z − y <= 2^28, so z <= 3·2^28.
    let mut d = zone(4, &[(1, 0, Bound::le(big)), (2, 1, Bound::le(big)), (3, 2, Bound::lt(big))]);
    assert_eq!(d.bound(3, 0), Bound::lt(3 * big));
    assert!(d.contains_point(&[i64::from(big), 2 * i64::from(big), 3 * i64::from(big) - 1], 1));
    assert!(!d.contains_point(&[i64::from(big), 2 * i64::from(big), 3 * i64::from(big)], 1));
    // And the symmetric lower bounds: z >= 3·2^28 is now empty.
    assert!(!d.clone().constrain(0, 3, Bound::le(-3 * big)));
    assert!(d.constrain(0, 3, Bound::lt(-3 * big + 1)));
    assert!(!d.is_empty());
    d.reset(1, big);
    d.up();
    assert!(d.is_canonical());
}

#[test]
fn tighten_leaves_the_matrix_open_until_close() {
    let mut d = Dbm::universe(3);
    d.tighten(1, 0, Bound::le(2));
    d.tighten(2, 1, Bound::le(1));
    assert!(!d.is_canonical());
    assert!(d.close());
    assert!(d.is_canonical());
    assert_eq!(d.bound(2, 0), Bound::le(3));
}

#[test]
fn reset_to_a_large_value() {
    let mut d = Dbm::zero(3);
    d.up();
    d.reset(2, 1 << 28);
    assert!(d.contains_point(&[7, 1 << 28], 1));
    assert!(!d.contains_point(&[7, (1 << 28) + 1], 1));
    assert_eq!(d.bound(2, 1), Bound::le(1 << 28));
}

#[test]
fn clone_from_copies_across_dimensions() {
    let mut target = Dbm::universe(2);
    let source = zone(4, &[(3, 1, Bound::lt(2))]);
    target.clone_from(&source);
    assert_eq!(target, source);
    let smaller = Dbm::zero(3);
    target.clone_from(&smaller);
    assert_eq!(target, smaller);
    assert_eq!(target.dim(), 3);
}
