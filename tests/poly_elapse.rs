//! Time elapse against its definition: `p` is in the forward elapse iff
//! `p − w ∈ P` for some `w = t·r`, `t >= 0`, `r` in the rate set, decided
//! exactly by the naive oracle over `(w, t)` (the rate set `{A·r <= b}`
//! scaled by `t` is `A·w <= t·b`, which at `t = 0` forces `w = 0` for the
//! bounded rate sets used here); backwards with `p + w ∈ P`.

use crate::poly_support;

use kairos::domain::poly::{Constraint, Poly, RateError, Rel, q, unit};
use poly_support::*;
use proptest::prelude::*;

/// A box of rates: per variable a constant or a closed interval.
fn rates(d: usize) -> impl Strategy<Value = Vec<Constraint>> {
    prop::collection::vec((-2i64..=2, 0i64..=2), d).prop_map(move |b| {
        let mut cons = Vec::new();
        for (i, (lo, width)) in b.into_iter().enumerate() {
            if width == 0 {
                cons.push(Constraint::new(unit(d, i), Rel::Eq, q(lo)));
            } else {
                cons.push(Constraint::ge(unit(d, i), q(lo)));
                cons.push(Constraint::new(unit(d, i), Rel::Le, q(lo + width)));
            }
        }
        cons
    })
}

fn case() -> impl Strategy<Value = (usize, Vec<Constraint>, Vec<Constraint>)> {
    (1usize..=3).prop_flat_map(|d| (Just(d), system(d, 4), rates(d)))
}

#[test]
fn open_or_unbounded_rates_are_refused() {
    let p = Poly::orthant(2);
    let open = poly(2, &[Constraint::ints(&[1, 0], Rel::Eq, 1), Constraint::ints(&[0, -1], Rel::Lt, -2)]);
    assert_eq!(p.elapse(&open), Err(RateError::NotClosed));
    let unbounded = poly(2, &[Constraint::ints(&[1, 0], Rel::Eq, 1), Constraint::ints(&[0, -1], Rel::Le, -2)]);
    assert_eq!(p.elapse(&unbounded), Err(RateError::Unbounded));
}

#[test]
fn clocks_elapse_like_a_zone() {
    // x = y = 0, rates 1: the diagonal ray.
    let zero = poly(2, &[Constraint::ints(&[1, 0], Rel::Eq, 0), Constraint::ints(&[0, 1], Rel::Eq, 0)]);
    let ones = poly(2, &[Constraint::ints(&[1, 0], Rel::Eq, 1), Constraint::ints(&[0, 1], Rel::Eq, 1)]);
    let ray = poly(2, &[Constraint::ints(&[1, -1], Rel::Eq, 0), Constraint::ints(&[-1, 0], Rel::Le, 0)]);
    assert_eq!(zero.elapse(&ones), Ok(ray));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn elapse_is_the_set_of_delayed_points((d, cons, r) in case()) {
        let p = poly(d, &cons);
        let rate = poly(d, &r);
        let post = p.elapse(&rate).unwrap();
        let pre = p.elapse_back(&rate).unwrap();
        prop_assert!(p.is_subset_of(&post) && p.is_subset_of(&pre));
        for x in grid(d) {
            prop_assert_eq!(post.contains(&x), reachable(d, &cons, &r, &x, -1), "post at {:?}", x);
            prop_assert_eq!(pre.contains(&x), reachable(d, &cons, &r, &x, 1), "pre at {:?}", x);
        }
    }

    #[test]
    fn elapse_within_an_invariant((d, cons, r) in case(), inv in any_system(2)) {
        let inv: Vec<Constraint> = inv.1.iter().map(|c| {
            let mut a = c.coeffs.clone();
            a.resize(d, q(0));
            Constraint::new(a, c.rel, c.rhs.clone())
        }).collect();
        let invariant = poly(d, &inv);
        let p = poly(d, &cons).intersect(&invariant);
        let post = p.elapse_within(&poly(d, &r), &invariant).unwrap();
        let start: Vec<Constraint> = [cons.clone(), inv.clone()].concat();
        for x in grid(d) {
            let expected = all_hold(&inv, &x) && reachable(d, &start, &r, &x, -1);
            prop_assert_eq!(post.contains(&x), expected, "at {:?}", x);
        }
    }
}
