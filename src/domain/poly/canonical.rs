//! The canonical constraint system of a non-empty NNC polyhedron (the
//! mathematics is in the `poly` module doc; this file is the algorithm).

use std::collections::BTreeMap;

use num_traits::Zero;

use super::constraint::{Constraint, Rel};
use super::fast::Fq;
use super::rational::{Dq, Q};
use super::simplex::{Opt, Simplex};

/// The canonical system of `cons` over `dim` variables, or `None` if it has
/// no solution. Cost: one simplex per constraint for implicit equalities and
/// redundancy, and per strict constraint one more per facet.
pub(super) fn canonical(dim: usize, cons: Vec<Constraint>) -> Option<Vec<Constraint>> {
    let mut cs = Vec::new();
    for c in cons {
        match c.constant_truth() {
            Some(true) => {}
            Some(false) => return None,
            None => cs.push(c.normalised()),
        }
    }
    let mut lp = Simplex::new(dim, &cs, false);
    if !lp.feasible() {
        return None;
    }
    // A non-strict inequality whose minimum over the set is its bound holds
    // with equality everywhere; a strict one never does on a non-empty set.
    // One with slack at any point the simplex visits is not implicit.
    let mut loose: Vec<bool> = (0..cs.len()).map(|i| lp.slack(i)).collect();
    let mut eqs = Vec::new();
    let mut ineqs = Vec::new();
    for (i, c) in cs.into_iter().enumerate() {
        let implicit = c.rel == Rel::Le && !loose[i] && {
            let neg: Vec<Q> = c.coeffs.iter().map(|x| -x).collect();
            let tight = lp.maximise(&neg) == Opt::Max(Dq::of(Fq::from(&-&c.rhs)));
            loose.iter_mut().enumerate().for_each(|(k, l)| *l |= lp.slack(k));
            tight
        };
        if c.rel == Rel::Eq || implicit {
            eqs.push(Constraint { rel: Rel::Eq, ..c });
        } else {
            ineqs.push(c);
        }
    }
    let eqs = echelon(dim, eqs);
    // Reduced modulo the equalities, each direction keeps its tightest bound.
    let mut tightest: BTreeMap<Vec<Q>, (Q, Rel)> = BTreeMap::new();
    for c in ineqs {
        let c = reduce(c, &eqs);
        if let Some(t) = c.constant_truth() {
            debug_assert!(t, "a reduced inequality of a non-empty set is false");
            continue;
        }
        let c = c.normalised();
        let e = tightest.entry(c.coeffs).or_insert((c.rhs.clone(), c.rel));
        if (&c.rhs, std::cmp::Reverse(c.rel)) < (&e.0, std::cmp::Reverse(e.1)) {
            *e = (c.rhs, c.rel);
        }
    }
    let reduced: Vec<Constraint> = tightest.into_iter().map(|(a, (b, r))| Constraint::new(a, r, b)).collect();
    let facets = facets(dim, &eqs, &reduced);
    let cutters = strict_faces(dim, &eqs, &facets, reduced.iter().filter(|c| c.rel == Rel::Lt));
    let mut out = eqs;
    for (i, f) in facets.iter().enumerate() {
        let rel = if cutters.contains(&vec![i]) { Rel::Lt } else { Rel::Le };
        out.push(Constraint { rel, ..f.clone() });
    }
    for t in cutters.iter().filter(|t| t.len() > 1) {
        let mut coeffs = vec![Q::zero(); dim];
        let mut rhs = Q::zero();
        for &i in t {
            for (c, a) in coeffs.iter_mut().zip(&facets[i].coeffs) {
                *c += a;
            }
            rhs += &facets[i].rhs;
        }
        out.push(Constraint::new(coeffs, Rel::Lt, rhs).normalised());
    }
    out.sort();
    Some(out)
}

/// Reduced row echelon form: each equality has coefficient 1 on its pivot
/// and every other has 0 there; dependent rows are dropped.
/// Pre: the equalities are consistent.
fn echelon(dim: usize, mut rows: Vec<Constraint>) -> Vec<Constraint> {
    let mut done: Vec<Constraint> = Vec::new();
    for col in 0..dim {
        let Some(k) = rows.iter().position(|r| !r.coeffs[col].is_zero()) else { continue };
        let mut p = rows.swap_remove(k);
        let a = p.coeffs[col].clone();
        p.coeffs.iter_mut().for_each(|c| *c /= &a);
        p.rhs /= &a;
        for r in rows.iter_mut().chain(done.iter_mut()) {
            eliminate_with(r, &p, col);
        }
        done.push(p);
    }
    debug_assert!(rows.iter().all(|r| r.constant_truth() == Some(true)));
    done
}

/// `c` minus the multiple of `p` (coefficient 1 at `col`) zeroing `col`.
fn eliminate_with(c: &mut Constraint, p: &Constraint, col: usize) {
    let f = c.coeffs[col].clone();
    if f.is_zero() {
        return;
    }
    for (x, y) in c.coeffs.iter_mut().zip(&p.coeffs) {
        *x -= &f * y;
    }
    c.rhs -= &f * &p.rhs;
}

/// `c` with every pivot column of `eqs` (in echelon form) zeroed.
fn reduce(mut c: Constraint, eqs: &[Constraint]) -> Constraint {
    for e in eqs {
        let col = e.coeffs.iter().position(|x| !x.is_zero()).expect("pivot");
        eliminate_with(&mut c, e, col);
    }
    c
}

/// The facets of the closure: the relaxed inequalities, with every one the
/// others imply removed in turn. Inside the affine hull the closure is
/// full-dimensional, so what remains is its unique irredundant system.
fn facets(dim: usize, eqs: &[Constraint], ineqs: &[Constraint]) -> Vec<Constraint> {
    let mut kept: Vec<Constraint> = ineqs.iter().map(Constraint::closure).collect();
    let mut i = 0;
    while i < kept.len() {
        let others = eqs.iter().chain(kept[..i].iter()).chain(kept[i + 1..].iter());
        let mut lp = Simplex::new(dim, others, true);
        let feasible = lp.feasible();
        debug_assert!(feasible);
        match lp.maximise(&kept[i].coeffs) {
            Opt::Max(m) if m <= Dq::of(Fq::from(&kept[i].rhs)) => {
                kept.remove(i);
            }
            _ => i += 1,
        }
    }
    kept
}

/// The maximal faces of the closure that the strict inequalities cut off,
/// each as the sorted indices of the facets containing it; `[i]` means that
/// facet `i` itself is excluded.
fn strict_faces<'a>(
    dim: usize,
    eqs: &[Constraint],
    facets: &[Constraint],
    stricts: impl Iterator<Item = &'a Constraint>,
) -> Vec<Vec<usize>> {
    let mut faces: Vec<Vec<usize>> = Vec::new();
    for s in stricts {
        let tight = Constraint { rel: Rel::Eq, ..s.clone() };
        let mut lp = Simplex::new(dim, eqs.iter().chain(facets).chain(std::iter::once(&tight)), true);
        if !lp.feasible() {
            continue; // the closure never touches it: redundant
        }
        // Facets are constraints `eqs.len() + i` of the tableau; one with
        // slack at a visited point of the face does not contain it.
        let at = |i: usize| eqs.len() + i;
        let mut loose: Vec<bool> = (0..facets.len()).map(|i| lp.slack(at(i))).collect();
        let mut t = Vec::new();
        for i in 0..facets.len() {
            if loose[i] {
                continue;
            }
            let neg: Vec<Q> = facets[i].coeffs.iter().map(|x| -x).collect();
            if lp.maximise(&neg) == Opt::Max(Dq::of(Fq::from(&-&facets[i].rhs))) {
                t.push(i);
            }
            loose.iter_mut().enumerate().for_each(|(k, l)| *l |= lp.slack(at(k)));
        }
        debug_assert!(!t.is_empty(), "a strict inequality tight on the whole closure");
        faces.push(t);
    }
    faces.sort();
    faces.dedup();
    // A face inside another cut face (more facets contain it) is already cut.
    let all = faces.clone();
    faces.retain(|t| !all.iter().any(|u| u != t && u.iter().all(|i| t.contains(i))));
    faces
}
