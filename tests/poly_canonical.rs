//! The canonical form, emptiness, equality, hashing, intersection,
//! inclusion, bounds and sample points of `domain::poly`, against grid
//! membership and the naive Fourier–Motzkin oracle of `poly_support`.

use crate::poly_support;

use std::hash::{DefaultHasher, Hash, Hasher};

use kairos::domain::poly::{Constraint, Poly, Q, Rel, Sup, q};
use poly_support::*;
use proptest::prelude::*;

fn hash(p: &Poly) -> u64 {
    let mut h = DefaultHasher::new();
    p.hash(&mut h);
    h.finish()
}

/// `c` scaled by a positive factor, written differently but the same set.
fn rescaled(c: &Constraint, f: i64) -> Constraint {
    Constraint::new(c.coeffs.iter().map(|x| x * q(f)).collect(), c.rel, &c.rhs * q(f))
}

/// Two coprime systems for the quadrant minus its corner.
#[test]
fn a_cut_corner_has_one_form() {
    let base = vec![Constraint::ints(&[-1, 0], Rel::Le, 0), Constraint::ints(&[0, -1], Rel::Le, 0)];
    let a = poly(2, &[base.clone(), vec![Constraint::ints(&[-1, -1], Rel::Lt, 0)]].concat());
    let b = poly(2, &[base, vec![Constraint::ints(&[-1, -2], Rel::Lt, 0)]].concat());
    assert_eq!(a, b);
    assert_eq!(hash(&a), hash(&b));
    assert!(!a.contains(&[q(0), q(0)]));
    assert!(a.contains(&[q(0), q(1)]) && a.contains(&[q(1), q(0)]));
}

#[test]
fn implicit_equalities_are_found() {
    let a = poly(2, &[Constraint::ints(&[1, 1], Rel::Le, 2), Constraint::ints(&[-1, -1], Rel::Le, -2)]);
    let b = poly(2, &[Constraint::ints(&[2, 2], Rel::Eq, 4)]);
    assert_eq!(a, b);
    assert_eq!(a.constraints().len(), 1);
    assert!(poly(1, &[Constraint::ints(&[1], Rel::Lt, 0), Constraint::ints(&[-1], Rel::Le, 0)]).is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn canonical_form_is_exactly_the_system((d, cons) in any_system(5)) {
        let p = poly(d, &cons);
        prop_assert_eq!(p.is_empty(), fm_empty(d, &cons));
        for x in grid(d) {
            prop_assert_eq!(p.contains(&x), all_hold(&cons, &x), "at {:?}", x);
        }
        // Exactly, not only on the grid: each system implies the other.
        if !p.is_empty() {
            for c in p.constraints() {
                prop_assert!(implies(d, &cons, c), "{:?} not implied", c);
            }
            for c in &cons {
                prop_assert!(implies(d, p.constraints(), c), "{:?} lost", c);
            }
        }
    }

    #[test]
    fn the_same_set_written_otherwise_is_equal_and_hashes_equal(
        (d, cons) in any_system(5), f in 1i64..4, rot in 0usize..5,
    ) {
        let p = poly(d, &cons);
        // Rotated, rescaled, with implied constraints added: the sum of
        // two, a relaxed copy, and the canonical form itself.
        let mut other: Vec<Constraint> = cons.iter().map(|c| rescaled(c, f)).collect();
        let n = other.len();
        other.rotate_left(rot % n);
        if let [a, b, ..] = &cons[..] && a.rel != Rel::Eq && b.rel != Rel::Eq {
            let coeffs = a.coeffs.iter().zip(&b.coeffs).map(|(x, y)| x + y).collect();
            let rel = if a.rel == Rel::Lt || b.rel == Rel::Lt { Rel::Lt } else { Rel::Le };
            other.push(Constraint::new(coeffs, rel, &a.rhs + &b.rhs));
        }
        other.push(Constraint::new(cons[0].coeffs.clone(), Rel::Le, &cons[0].rhs + q(1)).closure());
        if cons[0].rel == Rel::Eq {
            other.pop();
        }
        other.extend(p.constraints().iter().cloned());
        let o = poly(d, &other);
        prop_assert_eq!(&o, &p);
        prop_assert_eq!(hash(&o), hash(&p));
        prop_assert!(p.is_empty() || poly(d, p.constraints()) == p);
    }

    #[test]
    fn equality_is_equality_of_sets((d, a) in any_system(4), b in any_system(4)) {
        let b: Vec<Constraint> = b.1.into_iter().map(|c| lift_to(&c, d)).collect();
        let (pa, pb) = (poly(d, &a), poly(d, &b));
        let same = subset(d, &a, &b) && subset(d, &b, &a);
        prop_assert_eq!(pa == pb, same);
    }

    #[test]
    fn intersection_and_inclusion((d, a) in any_system(4), b in any_system(4)) {
        let b: Vec<Constraint> = b.1.into_iter().map(|c| lift_to(&c, d)).collect();
        let (pa, pb) = (poly(d, &a), poly(d, &b));
        let i = pa.intersect(&pb);
        for x in grid(d) {
            prop_assert_eq!(i.contains(&x), all_hold(&a, &x) && all_hold(&b, &x));
        }
        prop_assert_eq!(i.is_empty(), fm_empty(d, &[a.clone(), b.clone()].concat()));
        prop_assert_eq!(pa.is_subset_of(&pb), subset(d, &a, &b));
        prop_assert_eq!(i.is_subset_of(&pa), true);
    }

    #[test]
    fn maximise_finds_the_supremum((d, cons) in any_system(5), obj in prop::collection::vec(-2i64..=2, 3)) {
        let p = poly(d, &cons);
        let obj: Vec<Q> = obj[..d].iter().map(|&x| q(x)).collect();
        let at_least = |v: &Q, rel: Rel, closed: bool| {
            let mut sys: Vec<Constraint> = if closed { cons.iter().map(Constraint::closure).collect() } else { cons.clone() };
            sys.push(Constraint::new(obj.iter().map(|x| -x).collect(), rel, -v));
            !fm_empty(d, &sys)
        };
        match p.maximise(&obj) {
            Sup::Empty => prop_assert!(fm_empty(d, &cons)),
            Sup::Unbounded => prop_assert!(at_least(&q(1_000_000), Rel::Le, false)),
            Sup::Max { value, attained } => {
                prop_assert!(!at_least(&value, Rel::Lt, false), "above the maximum");
                prop_assert_eq!(attained, at_least(&value, Rel::Le, false));
                prop_assert!(at_least(&value, Rel::Le, true), "not the supremum");
            }
        }
    }

    #[test]
    fn sample_points_belong((d, cons) in any_system(5)) {
        let p = poly(d, &cons);
        match p.sample_point() {
            None => prop_assert!(p.is_empty()),
            Some(x) => prop_assert!(all_hold(&cons, &x), "{:?} outside", x),
        }
    }
}

/// A constraint over up to 3 variables, cut or padded to `d`.
fn lift_to(c: &Constraint, d: usize) -> Constraint {
    let mut a = c.coeffs.clone();
    a.resize(d, q(0));
    Constraint::new(a, c.rel, c.rhs.clone())
}
