//! The minimal constraint form the passed list stores zones in
//! (`zone::MinimalDbm`): it unpacks to the very matrix it was made from,
//! keeps no entry a path implies, and its comparisons agree with the ones
//! on whole matrices.

use crate::common;
use crate::support;

use std::collections::VecDeque;
use std::path::Path;

use kairos::domain::zone::{Bound, Dbm, MinimalDbm};
use kairos::domain::{Against, ClockSet};
use kairos::engine::store::{Cover, Store};
use kairos::semantics::{Abstraction, ZoneGraph, ZoneState};
use proptest::prelude::*;
use support::*;

/// Zones with more clocks and constraints than the shared samples, and
/// clocks tied by equalities (`x_i − x_j = c`), which the form keeps as
/// cycles through their class.
fn rich(dim: usize) -> impl Strategy<Value = Dbm> {
    let equality = (1..dim, 1..dim, -3i64..=3)
        .prop_map(|(i, j, c)| [Constraint { i, j, c, strict: false }, Constraint { i: j, j: i, c: -c, strict: false }]);
    (prop::collection::vec(constraint(dim), 0..=7), prop::collection::vec(equality, 0..=2)).prop_map(
        move |(mut cs, eqs)| {
            cs.extend(eqs.into_iter().flatten().filter(|k| k.i != k.j));
            Sample::new(dim, cs).dbm
        },
    )
}

fn rich_pair() -> impl Strategy<Value = (Dbm, Dbm)> {
    (2usize..=7)
        .prop_flat_map(|d| prop_oneof![(rich(d), rich(d)), related_pair_of(d).prop_map(|(a, b)| (a.dbm, b.dbm))])
}

fn unpacked(m: &MinimalDbm) -> Dbm {
    let mut out = Dbm::universe(1);
    m.unpack(&mut out);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn unpacks_to_the_same_matrix(z in (2usize..=7).prop_flat_map(rich)) {
        let packed = MinimalDbm::new(&z);
        let back = unpacked(&packed);
        prop_assert_eq!(&back, &z);
        // Entry by entry, not only by `==` (which reads the marker of an
        // empty zone only).
        if !z.is_empty() {
            for i in 0..z.dim() {
                for j in 0..z.dim() {
                    prop_assert_eq!(back.bound(i, j), z.bound(i, j), "entry ({}, {})", i, j);
                }
            }
        }
        prop_assert_eq!(Dbm::unpack(&z.pack()), z.clone());
        // Same zone, same form: hash-consing relies on it.
        prop_assert_eq!(MinimalDbm::new(&back), packed);
    }

    /// Off the axes, the form keeps only entries tighter than what the
    /// axes imply, and some as soon as there is one (the round trip above
    /// fails when a needed entry is dropped).
    #[test]
    fn keeps_only_entries_the_axes_leave_loose(z in (2usize..=7).prop_flat_map(rich)) {
        if z.is_empty() {
            return Ok(());
        }
        let n = z.dim();
        // The entries a closure of the axes alone does not give.
        let mut axes = Dbm::universe(n);
        for k in 1..n {
            axes.constrain(0, k, z.bound(0, k));
            axes.constrain(k, 0, z.bound(k, 0));
        }
        let kept = MinimalDbm::new(&z).heap_bytes() / 4 - 2 * (n - 1);
        prop_assert_eq!(kept % 2, 0);
        // At least one entry per pair the axes leave loose is needed, and
        // the form keeps at most one per such entry.
        let loose = (1..n).flat_map(|i| (1..n).map(move |j| (i, j))).filter(|&(i, j)| i != j && z.bound(i, j) < axes.bound(i, j)).count();
        prop_assert!(kept / 2 <= loose);
        prop_assert_eq!(loose == 0, kept == 0);
    }

    #[test]
    fn inclusion_without_unpacking_is_exact((a, b) in rich_pair()) {
        prop_assert_eq!(MinimalDbm::new(&b).includes(&a), a.is_subset_of(&b));
        // A necessary condition only: when it fails, so does inclusion.
        if !MinimalDbm::new(&a).may_be_within(&b) {
            prop_assert!(!a.is_subset_of(&b));
        }
    }

    #[test]
    fn comparisons_agree_with_whole_matrices(
        ((a, b), (lower, upper)) in (2usize..=7).prop_flat_map(|d| {
            ((rich(d), rich(d)), lu_bounds(d - 1))
        })
    ) {
        let expected = |within: &dyn Fn(&Dbm, &Dbm) -> bool| {
            if within(&a, &b) {
                Against::Covered
            } else if within(&b, &a) {
                Against::Covers
            } else {
                Against::Neither
            }
        };
        let mut scratch = None;
        prop_assert_eq!(a.against(&b.pack(), None, &mut scratch), expected(&|x, y| x.is_subset_of(y)));
        prop_assert_eq!(
            a.against(&b.pack(), Some((&lower, &upper)), &mut scratch),
            expected(&|x, y| x.alu_subsumed(y, &lower, &upper))
        );
    }
}

fn zone(dim: usize, constraints: &[(usize, usize, Bound)]) -> Dbm {
    let mut z = Dbm::universe(dim);
    for &(i, j, b) in constraints {
        z.constrain(i, j, b);
    }
    z
}

#[test]
fn a_diagonal_constraint_is_kept_alone() {
    // 0 <= x1 - x2 <= 3 with no bounds on the axes: two entries off them.
    let z = zone(3, &[(1, 2, Bound::le(3)), (2, 1, Bound::le(0))]);
    let packed = MinimalDbm::new(&z);
    assert_eq!(packed.heap_bytes(), 4 * (2 * 2 + 2 * 2));
    assert_eq!(unpacked(&packed), z);
}

#[test]
fn equal_clocks_keep_one_cycle() {
    // x1 = x2 = x3 = x4 after a joint reset and a delay: every difference
    // is 0, one cycle of four entries says so (not twelve).
    let mut z = Dbm::zero(5);
    z.up();
    let packed = MinimalDbm::new(&z);
    assert_eq!(packed.heap_bytes(), 4 * (2 * 4 + 2 * 4));
    assert_eq!(unpacked(&packed), z);
}

#[test]
fn a_chain_keeps_its_links_only() {
    // x1 <= x2 - 1 <= x3 - 2 <= x4 - 3 (strict and not): the three links,
    // none of the differences they imply.
    let z = zone(5, &[(1, 2, Bound::le(-1)), (2, 3, Bound::lt(-1)), (3, 4, Bound::le(-1))]);
    let packed = MinimalDbm::new(&z);
    assert_eq!(packed.heap_bytes(), 4 * (2 * 4 + 2 * 3));
    assert_eq!(unpacked(&packed), z);
}

#[test]
fn empty_and_universe() {
    let mut empty = Dbm::universe(3);
    assert!(!empty.constrain(1, 0, Bound::lt(0)));
    assert_eq!(unpacked(&MinimalDbm::new(&empty)), empty);
    assert!(MinimalDbm::new(&empty).includes(&empty));
    assert!(!MinimalDbm::new(&empty).includes(&Dbm::universe(3)));
    let all = Dbm::universe(4);
    assert_eq!(unpacked(&MinimalDbm::new(&all)), all);
    assert_eq!(MinimalDbm::new(&all).heap_bytes(), 4 * 2 * 3);
}

/// What a breadth-first search through a store with `whole_bytes` of
/// whole zones sees: each insertion's node (or `None`, covered) and each
/// expanded state as loaded back; then the live zones at the end and the
/// store's bytes.
fn search(path: &str, cover: Cover, whole_bytes: u64) -> (Vec<Option<u32>>, Vec<ZoneState>, Vec<Dbm>, u64) {
    let loaded = common::load(Path::new(path)).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let mut zg = ZoneGraph::new(&net, Abstraction::Lu);
    let mut store = Store::with_whole_bytes(cover, whole_bytes);
    let (mut inserted, mut expanded) = (Vec::new(), Vec::new());
    let mut initial = Vec::new();
    zg.initial(&mut initial).unwrap();
    let mut waiting = VecDeque::new();
    for s in &initial {
        let id = store.insert(&mut zg, s, None);
        inserted.push(id);
        waiting.extend(id);
    }
    let mut current = initial[0].clone();
    let (mut transitions, mut successors) = (Vec::new(), Vec::new());
    while let Some(id) = waiting.pop_front() {
        if !store.is_alive(id) {
            continue;
        }
        store.load(id, &mut current);
        expanded.push(current.clone());
        zg.successors(&current, &mut transitions, &mut successors).unwrap();
        for (s, step) in &successors {
            let id = store.insert(&mut zg, s, Some((id, step)));
            inserted.push(id);
            waiting.extend(id);
        }
    }
    let live =
        (0..inserted.iter().flatten().count() as u32).filter(|&n| store.is_alive(n)).map(|n| store.zone(n)).collect();
    (inserted, expanded, live, store.bytes().0)
}

/// Zones packed as soon as stored are compared, loaded and shared exactly
/// as whole ones: the same nodes are stored, covered and expanded, in
/// less memory.
#[test]
fn a_packed_store_searches_as_a_whole_one() {
    for (path, cover) in [
        ("models/bench/fddi_4.yaml", Cover::Alu),
        ("models/bench/fddi_4.yaml", Cover::Inclusion),
        ("models/bench/csmacd_4.yaml", Cover::Alu),
        ("models/bench/fischer_4.yaml", Cover::Inclusion),
    ] {
        let (inserted, expanded, live, whole_bytes) = search(path, cover, u64::MAX);
        let (p_inserted, p_expanded, p_live, packed_bytes) = search(path, cover, 0);
        assert!(inserted.contains(&None), "{path}: no zone covered, nothing tested");
        assert!(live.len() < inserted.iter().flatten().count(), "{path}: no zone retired, nothing tested");
        assert_eq!(p_inserted, inserted, "{path} {cover:?}");
        assert_eq!(p_expanded, expanded, "{path} {cover:?}");
        assert_eq!(p_live, live, "{path} {cover:?}");
        assert!(packed_bytes < whole_bytes, "{path} {cover:?}: {packed_bytes} >= {whole_bytes} bytes");
    }
}
