//! Rational points of (integer) DBMs: membership, the interval of one
//! coordinate given others, and the interval of a delay along a ray.
//!
//! Points here are indexed like the DBM: `p[0]` is the reference clock and
//! always 0, `p[k]` is clock `k`. A partial point has `None` where a
//! coordinate is not chosen yet.

use super::Rational;
use super::interval::{Interval, split};
use crate::domain::zone::Dbm;

/// Whether the rational point `p` satisfies every constraint of `z`.
/// Pre: `p.len() == z.dim()`, `p[0] == 0`.
pub fn contains(z: &Dbm, p: &[Rational]) -> bool {
    if z.is_empty() {
        return false;
    }
    let n = z.dim();
    (0..n).all(|i| {
        (0..n).all(|j| {
            let b = z.bound(i, j);
            if i == j || !b.is_finite() {
                return true;
            }
            let (c, strict) = split(b);
            let diff = &p[i] - &p[j];
            diff < c || (diff == c && !strict)
        })
    })
}

/// The values coordinate `k` may take given the chosen coordinates of `p`
/// (`p[0]` must be chosen, as 0): `v_j - m[j][k] ≺ x_k ≺ v_j + m[k][j]`
/// for every chosen `j`.
pub fn coordinate(z: &Dbm, p: &[Option<Rational>], k: usize) -> Interval {
    let mut out = Interval::all();
    for (j, v) in p.iter().enumerate() {
        let Some(v) = v else { continue };
        if j == k {
            continue;
        }
        let up = z.bound(k, j);
        if up.is_finite() {
            let (c, s) = split(up);
            out.at_most(v + c, s);
        }
        let down = z.bound(j, k);
        if down.is_finite() {
            let (c, s) = split(down);
            out.at_least(v - c, s);
        }
    }
    out
}

/// Chooses the missing coordinates of `p` one at a time in `order`, each
/// the simplest value its interval allows, and returns the full point.
///
/// Why this never gets stuck (the decomposability of closed difference
/// constraints): call a partial point *consistent* when its chosen
/// coordinates satisfy every constraint of `z` between two of them. For a
/// consistent `p` and a free `k`, the interval of `k` is non-empty: its
/// lower end comes from some `j` (`v_j - c_jk`) and its upper end from some
/// `l` (`v_l + c_kl`); consistency gives `v_j - v_l ≺ c_jl`, and canonicity
/// gives `(c_jl, ≺) <= (c_jk, ≺) + (c_kl, ≺)`, so `v_j - c_jk < v_l + c_kl`,
/// or the two are equal and every bound involved is `<=`: either way the
/// interval has a point. Any value inside keeps the point consistent, and a
/// consistent full point lies in the zone. So when the chosen coordinates
/// start consistent, every interval met is non-empty; strict ends are
/// respected because the value is picked strictly inside them.
///
/// Pre: `z` canonical; the chosen coordinates of `p` consistent (checked:
/// `None` otherwise, never a point outside `z`).
pub fn complete(z: &Dbm, p: &[Option<Rational>], order: &[usize]) -> Option<Vec<Rational>> {
    if z.is_empty() {
        return None;
    }
    let mut p = p.to_vec();
    for &k in order {
        if p[k].is_none() {
            p[k] = Some(coordinate(z, &p, k).simplest()?);
        }
    }
    let full: Option<Vec<Rational>> = p.into_iter().collect();
    full.filter(|f| contains(z, f))
}

/// The delays `t` for which the point `base - t·moving` (each coordinate
/// moves back with `t` or stays) satisfies the constraints of `z` between
/// two `known` coordinates. Each constraint `x_i - x_j ≺ c` reads
/// `(b_i - b_j) - t·(m_i - m_j) ≺ c`, whose coefficient of `t` is -1, 0 or
/// 1: a lower end, a condition without `t`, or an upper end.
pub fn ray(z: &Dbm, base: &[Rational], moving: &[bool], known: &[bool]) -> Interval {
    let mut out = Interval::all();
    if z.is_empty() {
        return empty();
    }
    let n = z.dim();
    for i in (0..n).filter(|&i| known[i]) {
        for j in (0..n).filter(|&j| known[j] && j != i) {
            let b = z.bound(i, j);
            if !b.is_finite() {
                continue;
            }
            let (c, s) = split(b);
            let diff = &base[i] - &base[j];
            match (moving[i], moving[j]) {
                // t ≻ diff - c
                (true, false) => out.at_least(diff - c, s),
                // t ≺ c - diff
                (false, true) => out.at_most(c - diff, s),
                _ => {
                    if diff > c || (diff == c && s) {
                        return empty();
                    }
                }
            }
        }
    }
    out
}

fn empty() -> Interval {
    let zero = super::interval::q(0);
    Interval { lo: Some((zero.clone(), true)), hi: Some((zero, true)) }
}
