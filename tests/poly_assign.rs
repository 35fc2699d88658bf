//! Linear assignments, resets and their pre-images against their
//! definitions: `p` is in the image of `x_v := e` iff some `y ∈ P` agreeing
//! with `p` off `v` has `e(y) = p_v` (one unknown, decided exactly by the
//! naive oracle); `p` is in the pre-image iff `p[v := e(p)] ∈ P`.

use crate::poly_support;

use kairos::domain::poly::{Constraint, LinExpr, Q, Rel, q};
use poly_support::*;
use proptest::prelude::*;

fn expr(d: usize) -> impl Strategy<Value = LinExpr> {
    (prop::collection::vec(-2i64..=2, d), -2i64..=2)
        .prop_map(|(a, c)| LinExpr { coeffs: a.into_iter().map(q).collect(), constant: q(c) })
}

fn case() -> impl Strategy<Value = (usize, Vec<Constraint>, usize, LinExpr)> {
    (1usize..=3).prop_flat_map(|d| (Just(d), system(d, 5), 0..d, expr(d)))
}

/// Whether some `y ∈ P` with `y_j = p_j` off `v` has `e(y) = p_v`.
fn has_preimage(cons: &[Constraint], v: usize, e: &LinExpr, p: &[Q]) -> bool {
    let rest = |a: &[Q]| -> Q { a.iter().zip(p).enumerate().filter(|(j, _)| *j != v).map(|(_, (x, y))| x * y).sum() };
    let mut sys: Vec<Constraint> =
        cons.iter().map(|c| Constraint::new(vec![c.coeffs[v].clone()], c.rel, &c.rhs - rest(&c.coeffs))).collect();
    sys.push(Constraint::new(vec![e.coeffs[v].clone()], Rel::Eq, &p[v] - rest(&e.coeffs) - &e.constant));
    !fm_empty(1, &sys)
}

fn with(p: &[Q], v: usize, x: Q) -> Vec<Q> {
    let mut p = p.to_vec();
    p[v] = x;
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn assignment_and_its_preimage((d, cons, v, e) in case()) {
        let p = poly(d, &cons);
        let post = p.assign(v, &e);
        let pre = p.assign_pre(v, &e);
        for x in grid(d) {
            prop_assert_eq!(post.contains(&x), has_preimage(&cons, v, &e, &x), "post at {:?}", x);
            let moved = with(&x, v, e.value_at(&x));
            prop_assert_eq!(pre.contains(&x), all_hold(&cons, &moved), "pre at {:?}", x);
        }
    }

    #[test]
    fn reset_and_its_preimage((d, cons, v, _) in case(), c in -2i64..=2) {
        let p = poly(d, &cons);
        let post = p.reset(v, q(c));
        let pre = p.reset_pre(v, q(c));
        for x in grid(d) {
            let exists = x[v] == q(c) && !fm_empty(d, &fixed(d, &cons, &x, v));
            prop_assert_eq!(post.contains(&x), exists, "post at {:?}", x);
            prop_assert_eq!(pre.contains(&x), all_hold(&cons, &with(&x, v, q(c))), "pre at {:?}", x);
        }
    }
}

/// `cons` with every variable but `v` fixed to `p`'s coordinate.
fn fixed(d: usize, cons: &[Constraint], p: &[Q], v: usize) -> Vec<Constraint> {
    let mut sys = cons.to_vec();
    for j in (0..d).filter(|&j| j != v) {
        sys.push(Constraint::new(kairos::domain::poly::unit(d, j), Rel::Eq, p[j].clone()));
    }
    sys
}
