//! Helpers shared by the `poly_*` tests: random small constraint systems,
//! rational grids that hit boundaries, and an independent exact oracle
//! (naive Fourier–Motzkin without any simplex or redundancy removal) for
//! emptiness of small systems, so "exists a witness" is decided exactly.
#![allow(dead_code)]

use kairos::domain::poly::{Constraint, Poly, Q, Rel, q, qr, unit};
use proptest::prelude::*;

/// Whether `c` holds at `p`, evaluated here rather than by the library.
pub fn holds(c: &Constraint, p: &[Q]) -> bool {
    let v: Q = c.coeffs.iter().zip(p).map(|(a, x)| a * x).sum();
    match c.rel {
        Rel::Eq => v == c.rhs,
        Rel::Le => v <= c.rhs,
        Rel::Lt => v < c.rhs,
    }
}

pub fn all_hold(cons: &[Constraint], p: &[Q]) -> bool {
    cons.iter().all(|c| holds(c, p))
}

/// One random constraint over `dim` variables, small integer entries.
pub fn constraint(dim: usize) -> impl Strategy<Value = Constraint> {
    (prop::collection::vec(-2i64..=2, dim), 0..3u8, -3i64..=3).prop_map(|(a, r, b)| {
        let rel = [Rel::Eq, Rel::Le, Rel::Lt][r as usize];
        // Equalities are rarer in models than inequalities.
        let rel = if rel == Rel::Eq && b.rem_euclid(2) == 0 { Rel::Le } else { rel };
        Constraint::ints(&a, rel, b)
    })
}

/// A random system of 1..=max constraints over `dim` variables.
pub fn system(dim: usize, max: usize) -> impl Strategy<Value = Vec<Constraint>> {
    prop::collection::vec(constraint(dim), 1..=max)
}

/// A dimension in 1..=3 and a system over it.
pub fn any_system(max: usize) -> impl Strategy<Value = (usize, Vec<Constraint>)> {
    (1usize..=3).prop_flat_map(move |d| (Just(d), system(d, max)))
}

/// Every point of `{-2, -3/2, ..., 2}^dim`: constraints with small integer
/// coefficients pass through many of them, so strictness is exercised.
pub fn grid(dim: usize) -> Vec<Vec<Q>> {
    let axis: Vec<Q> = (-4..=4).map(|k| qr(k, 2)).collect();
    let mut pts = vec![Vec::new()];
    for _ in 0..dim {
        pts = pts.into_iter().flat_map(|p| axis.iter().map(move |x| [p.clone(), vec![x.clone()]].concat())).collect();
    }
    pts
}

/// `¬c` as alternatives (an equality fails on either side).
pub fn negation(c: &Constraint) -> Vec<Constraint> {
    let neg = |a: &[Q]| a.iter().map(|x| -x).collect::<Vec<Q>>();
    match c.rel {
        Rel::Le => vec![Constraint::new(neg(&c.coeffs), Rel::Lt, -&c.rhs)],
        Rel::Lt => vec![Constraint::new(neg(&c.coeffs), Rel::Le, -&c.rhs)],
        Rel::Eq => vec![
            Constraint::new(c.coeffs.clone(), Rel::Lt, c.rhs.clone()),
            Constraint::new(neg(&c.coeffs), Rel::Lt, -&c.rhs),
        ],
    }
}

/// Whether the system has no rational solution: naive Fourier–Motzkin
/// (equalities substituted, otherwise the variable with the fewest pairs
/// eliminated first; rows scaled to a leading ±1 and deduplicated).
pub fn fm_empty(dim: usize, cons: &[Constraint]) -> bool {
    let mut sys: Vec<Constraint> = cons.iter().map(|c| scaled(c.clone())).collect();
    let mut left: Vec<usize> = (0..dim).collect();
    while !left.is_empty() {
        let eq = sys.iter().position(|c| c.rel == Rel::Eq && left.iter().any(|&v| c.coeffs[v] != q(0)));
        if let Some(k) = eq {
            let e = sys.swap_remove(k);
            let v = *left.iter().find(|&&v| e.coeffs[v] != q(0)).unwrap();
            left.retain(|&x| x != v);
            sys = sys
                .iter()
                .map(|c| {
                    let f = &c.coeffs[v] / &e.coeffs[v];
                    let a = c.coeffs.iter().zip(&e.coeffs).map(|(x, y)| x - &f * y).collect();
                    scaled(Constraint::new(a, c.rel, &c.rhs - &f * &e.rhs))
                })
                .collect();
            continue;
        }
        let count = |v: usize| {
            let pos = sys.iter().filter(|c| c.coeffs[v] > q(0)).count();
            pos * (sys.iter().filter(|c| c.coeffs[v] < q(0)).count())
        };
        let v = *left.iter().min_by_key(|&&v| count(v)).unwrap();
        left.retain(|&x| x != v);
        let (zero, rest): (Vec<_>, Vec<_>) = sys.into_iter().partition(|c| c.coeffs[v] == q(0));
        let (pos, neg): (Vec<_>, Vec<_>) = rest.into_iter().partition(|c| c.coeffs[v] > q(0));
        sys = zero;
        for p in &pos {
            for n in &neg {
                let fp = -&n.coeffs[v] / &p.coeffs[v];
                let a: Vec<Q> = p.coeffs.iter().zip(&n.coeffs).map(|(x, y)| x * &fp + y).collect();
                let rel = if p.rel == Rel::Lt || n.rel == Rel::Lt { Rel::Lt } else { Rel::Le };
                let row = scaled(Constraint::new(a, rel, &p.rhs * &fp + &n.rhs));
                if !sys.contains(&row) {
                    sys.push(row);
                }
            }
        }
    }
    sys.iter().any(|c| match c.rel {
        Rel::Eq => c.rhs != q(0),
        Rel::Le => c.rhs < q(0),
        Rel::Lt => c.rhs <= q(0),
    })
}

/// `c` divided by the absolute value of its first non-zero coefficient.
fn scaled(c: Constraint) -> Constraint {
    match c.coeffs.iter().find(|x| **x != q(0)) {
        None => c,
        Some(f) => {
            let f = if *f < q(0) { -f } else { f.clone() };
            Constraint::new(c.coeffs.iter().map(|x| x / &f).collect(), c.rel, &c.rhs / &f)
        }
    }
}

/// Whether `cons ∧ c` is empty for every alternative of `¬c`, i.e. `cons`
/// implies `c`.
pub fn implies(dim: usize, cons: &[Constraint], c: &Constraint) -> bool {
    negation(c).iter().all(|n| fm_empty(dim, &[cons, std::slice::from_ref(n)].concat()))
}

/// The oracle's `A ⊆ B` for constraint systems.
pub fn subset(dim: usize, a: &[Constraint], b: &[Constraint]) -> bool {
    fm_empty(dim, a) || b.iter().all(|c| implies(dim, a, c))
}

/// A system over `dim` variables lifted into `total` variables, placing
/// variable `i` at `at[i]`.
pub fn lift(c: &Constraint, total: usize, at: impl Fn(usize) -> usize) -> Constraint {
    let mut a = vec![q(0); total];
    for (i, x) in c.coeffs.iter().enumerate() {
        a[at(i)] = x.clone();
    }
    Constraint::new(a, c.rel, c.rhs.clone())
}

pub fn poly(dim: usize, cons: &[Constraint]) -> Poly {
    Poly::new(dim, cons.to_vec())
}

/// Whether `p + sign·w ∈ P` for some `w` in the cone of the rates.
pub fn reachable(d: usize, cons: &[Constraint], rates: &[Constraint], p: &[Q], sign: i64) -> bool {
    // Variables: w (0..d), t (d).
    let mut sys = Vec::new();
    for c in cons {
        let mut a: Vec<Q> = c.coeffs.iter().map(|x| x * q(sign)).collect();
        a.push(q(0));
        let ap: Q = c.coeffs.iter().zip(p).map(|(x, y)| x * y).sum();
        sys.push(Constraint::new(a, c.rel, &c.rhs - ap));
    }
    for r in rates {
        let mut a = r.coeffs.clone();
        a.push(-&r.rhs);
        sys.push(Constraint::new(a, r.rel, q(0)));
    }
    sys.push(Constraint::ge(unit(d + 1, d), q(0)));
    !fm_empty(d + 1, &sys)
}
