//! A parameter valuation on each side of a synthesised boundary, where
//! `--trace` runs the concrete check (the evidence that the set is right).
//!
//! Within one convex member `M` of a set, the mean of finitely many points
//! of `M` is in `M` (convexity), and away from its boundary when the points
//! spread over it: the points are those of a regular grid over the box that
//! `M` contains (exact membership tests). The mean rounded to integers is
//! preferred when still in `M`: integer values keep a timed model on zones.

use super::ParamSet;
use crate::domain::poly::{Poly, Q};

/// Most grid points tried per member.
const MAX_SAMPLES: usize = 5000;

/// A point of `set` (`box_`: per parameter its bounds), preferring a
/// member's interior and integer values; `None` when no grid point lies in
/// the set (it is empty, or too thin for the grid).
pub fn point_in(set: &ParamSet, box_: &[(Q, Q)]) -> Option<Vec<Q>> {
    let grid = grid(box_);
    set.members.iter().find_map(|m| mean_point(m, &grid))
}

/// The grid: per dimension `n + 1` evenly spaced values from the lower to
/// the upper bound, `n` a power of two with `(n + 1)^d` at most
/// [`MAX_SAMPLES`].
fn grid(box_: &[(Q, Q)]) -> Vec<Vec<Q>> {
    let d = box_.len().max(1) as u32;
    let mut n: u64 = 1;
    while (2 * n + 1).checked_pow(d).is_some_and(|s| s <= MAX_SAMPLES as u64) {
        n *= 2;
    }
    let n = n as i64;
    let axes: Vec<Vec<Q>> =
        box_.iter().map(|(lo, hi)| (0..=n).map(|i| lo + (hi - lo) * Q::new(i.into(), n.into())).collect()).collect();
    axes.iter().fold(vec![Vec::new()], |acc, axis| {
        acc.iter().flat_map(|p| axis.iter().map(move |v| [p.clone(), vec![v.clone()]].concat())).collect()
    })
}

fn mean_point(m: &Poly, grid: &[Vec<Q>]) -> Option<Vec<Q>> {
    let inside: Vec<&Vec<Q>> = grid.iter().filter(|p| m.contains(p)).collect();
    let first = inside.first()?;
    let count = Q::from_integer((inside.len() as i64).into());
    let mean: Vec<Q> = (0..first.len()).map(|k| inside.iter().map(|p| p[k].clone()).sum::<Q>() / &count).collect();
    let rounded: Vec<Q> = mean.iter().map(|v| Q::from_integer(v.round().to_integer())).collect();
    debug_assert!(m.contains(&mean), "a mean of points of a convex set is in it");
    Some(if m.contains(&rounded) { rounded } else { mean })
}

/// The point as `a = 3, b = 7`, for messages.
pub fn point_text(names: &[String], point: &[Q]) -> String {
    let parts: Vec<String> = names.iter().zip(point).map(|(n, v)| format!("{n} = {v}")).collect();
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::poly::{Constraint, Rel};

    fn q(n: i64) -> Q {
        Q::from_integer(n.into())
    }

    #[test]
    fn points_fall_on_each_side_of_a_diagonal() {
        let box_ = vec![(q(0), q(10)), (q(0), q(10))];
        let bounds = Poly::boxed(&box_);
        let mut above = ParamSet::empty(bounds.clone());
        // a < b.
        above.add(&Poly::new(2, vec![Constraint::ints(&[1, -1], Rel::Lt, 0)]));
        let inside = point_in(&above, &box_).unwrap();
        assert!(above.contains(&inside));
        assert!(inside.iter().all(|v| v.is_integer()), "{inside:?}");
        let outside = point_in(&above.complement(), &box_).unwrap();
        assert!(!above.contains(&outside));
        assert!(point_in(&ParamSet::empty(bounds), &box_).is_none());
    }
}
