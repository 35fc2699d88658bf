//! Existential elimination against its definition: `p` is in the projection
//! iff some point agreeing with `p` off the eliminated variables is in the
//! set, decided exactly by the naive oracle with those coordinates fixed.

use crate::poly_support;

use kairos::domain::poly::{Constraint, Q, Rel, q, unit};
use poly_support::*;
use proptest::prelude::*;

/// `cons` with every variable outside `free` fixed to `p`'s coordinate.
fn fixed_outside(d: usize, cons: &[Constraint], p: &[Q], free: &[usize]) -> Vec<Constraint> {
    let mut sys = cons.to_vec();
    for j in (0..d).filter(|j| !free.contains(j)) {
        sys.push(Constraint::new(unit(d, j), Rel::Eq, p[j].clone()));
    }
    sys
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn elimination_is_existential((d, cons) in any_system(5), v in 0usize..3, w in 0usize..3, two in any::<bool>()) {
        let vars: Vec<usize> = if two && d > 1 { vec![v % d, (v % d + 1 + w % (d - 1)) % d] } else { vec![v % d] };
        let p = poly(d, &cons);
        let e = p.eliminate(&vars);
        prop_assert!(p.is_subset_of(&e));
        for c in e.constraints() {
            prop_assert!(vars.iter().all(|&v| c.coeffs[v] == q(0)), "{:?} still constrains {:?}", c, vars);
        }
        for x in grid(d) {
            let exists = !fm_empty(d, &fixed_outside(d, &cons, &x, &vars));
            prop_assert_eq!(e.contains(&x), exists, "at {:?}", x);
        }
    }
}
