//! The linear verbs of hybrid automata on polyhedra (variables numbered
//! from 1, sparse integer terms, boxes of rates) against their definitions
//! at every point of a rational grid: boxes and constraints evaluated here,
//! elapse under a box by the naive exact oracle (`reachable`), assignments'
//! pre-images by moving the point.

use crate::poly_support;

use kairos::domain::poly::{Constraint, Poly, Q, Rel, q, unit};
use poly_support::*;
use proptest::prelude::*;

/// Per variable `(lo, width)`: the interval `[lo, lo + width]`.
fn bounds(d: usize) -> impl Strategy<Value = Vec<(Q, Q)>> {
    prop::collection::vec((-2i64..=2, 0i64..=2), d)
        .prop_map(|b| b.into_iter().map(|(lo, w)| (q(lo), q(lo + w))).collect())
}

/// Sparse terms over variables `1..=d`.
fn terms(d: usize) -> impl Strategy<Value = Vec<(u32, i64)>> {
    prop::collection::vec((1..=d as u32, -2i64..=2), 0..=3)
}

/// A dimension, a set, a box of rates, terms, a constant and a variable.
type Case = (usize, Vec<Constraint>, Vec<(Q, Q)>, Vec<(u32, i64)>, i64, u32);

fn case() -> impl Strategy<Value = Case> {
    (1usize..=3).prop_flat_map(|d| (Just(d), system(d, 4), bounds(d), terms(d), -2i64..=2, 1..=d as u32))
}

fn value(terms: &[(u32, i64)], x: &[Q]) -> Q {
    terms.iter().map(|&(v, a)| q(a) * &x[v as usize - 1]).sum()
}

/// The box as constraints, for the oracle.
fn box_constraints(b: &[(Q, Q)]) -> Vec<Constraint> {
    let d = b.len();
    b.iter()
        .enumerate()
        .flat_map(|(i, (lo, hi))| {
            [Constraint::ge(unit(d, i), lo.clone()), Constraint::new(unit(d, i), Rel::Le, hi.clone())]
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn linear_verbs_meet_their_definitions((d, cons, b, t, c, v) in case()) {
        let p = poly(d, &cons);
        let boxed = Poly::boxed(&b);
        let rates = box_constraints(&b);
        let cut = p.constrain_terms(&t, c % 2 == 0, &q(c));
        let post = p.elapse_box(&b, false);
        let back = p.elapse_box(&b, true);
        let pre = p.assign_terms(v as usize, &t, &q(c), true);
        for x in grid(d) {
            prop_assert_eq!(boxed.contains(&x), all_hold(&rates, &x), "box at {:?}", x);
            let lhs = value(&t, &x);
            let holds = if c % 2 == 0 { lhs < q(c) } else { lhs <= q(c) };
            prop_assert_eq!(cut.contains(&x), all_hold(&cons, &x) && holds, "constraint at {:?}", x);
            prop_assert_eq!(post.contains(&x), reachable(d, &cons, &rates, &x, -1), "elapse at {:?}", x);
            prop_assert_eq!(back.contains(&x), reachable(d, &cons, &rates, &x, 1), "elapse back at {:?}", x);
            let mut moved = x.clone();
            moved[v as usize - 1] = value(&t, &x) + q(c);
            prop_assert_eq!(pre.contains(&x), all_hold(&cons, &moved), "assignment pre-image at {:?}", x);
        }
        // The image: every moved point of the set is in it, and the set is
        // within the image's pre-image.
        let image = p.assign_terms(v as usize, &t, &q(c), false);
        for x in grid(d).into_iter().filter(|x| p.contains(x)) {
            let mut moved = x.clone();
            moved[v as usize - 1] = value(&t, &x) + q(c);
            prop_assert!(image.contains(&moved), "image misses {:?}", moved);
        }
        prop_assert!(p.is_subset_of(&image.assign_terms(v as usize, &t, &q(c), true)));
    }
}
