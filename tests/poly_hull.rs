//! The over-approximating hull: it contains both sets (exactly, by the
//! naive oracle, and on the grid), is closed, and in every direction its
//! supremum is the larger of the two, which pins it to the closure of the
//! convex hull and nothing larger.

use crate::poly_support;

use kairos::domain::poly::{Constraint, Q, Sup, q};
use poly_support::*;
use proptest::prelude::*;

fn larger(a: Sup, b: Sup) -> Sup {
    match (a, b) {
        (Sup::Empty, x) | (x, Sup::Empty) => x,
        (Sup::Unbounded, _) | (_, Sup::Unbounded) => Sup::Unbounded,
        (Sup::Max { value: x, .. }, Sup::Max { value: y, .. }) => Sup::Max { value: x.max(y), attained: true },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn hull_contains_both_and_no_more(
        d in 1usize..=3, a in system(3, 4), b in system(3, 4), dirs in prop::collection::vec(prop::collection::vec(-2i64..=2, 3), 4),
    ) {
        let cut = |s: &[Constraint]| -> Vec<Constraint> { s.iter().map(|c| Constraint::new(c.coeffs[..d].to_vec(), c.rel, c.rhs.clone())).collect() };
        let (a, b) = (cut(&a), cut(&b));
        let (pa, pb) = (poly(d, &a), poly(d, &b));
        let h = pa.hull_over(&pb);
        prop_assert!(h.is_closed());
        prop_assert!(subset(d, &a, h.constraints()) && subset(d, &b, h.constraints()));
        for x in grid(d) {
            if all_hold(&a, &x) || all_hold(&b, &x) {
                prop_assert!(h.contains(&x), "{:?} lost", x);
            }
        }
        for dir in dirs {
            let dir: Vec<Q> = dir[..d].iter().map(|&x| q(x)).collect();
            let closure = |s: &[Constraint]| poly(d, &s.iter().map(Constraint::closure).collect::<Vec<_>>());
            // The closures' suprema are attained, the hull's must be too.
            let side = |p: &kairos::domain::poly::Poly, s: &[Constraint]| if p.is_empty() { Sup::Empty } else { closure(s).maximise(&dir) };
            let want = larger(side(&pa, &a), side(&pb, &b));
            prop_assert_eq!(h.maximise(&dir), want);
        }
    }
}
