//! A zone as a readable conjunction, e.g. `x <= 3 && 1 < y && x - y <= 1`.

use std::fmt;

use super::bound::Bound;
use super::dbm::Dbm;

/// Borrowing formatter returned by [`Dbm::display`].
pub struct DbmDisplay<'a, S> {
    dbm: &'a Dbm,
    names: &'a [S],
}

impl Dbm {
    /// Formats the zone as constraints over the given clock names: first one
    /// atom per bounded clock in index order (`x == 2`, `1 < y <= 5`,
    /// `x <= 3`), then one per pair `i < j` whose difference is bounded more
    /// tightly than the single-clock bounds imply (`x - y <= 2`,
    /// `-1 < x - y <= 2`, `x - y == 1`, or `y - x < 1` when only that side
    /// says something). `x >= 0` is left implicit; the universe prints
    /// `true`, an empty zone `false`. The printed conjunction denotes exactly
    /// the zone, and equal zones print the same text.
    /// Pre: canonical; `names.len() == dim − 1` (name of index k at k − 1).
    /// Post: borrows only; nothing is computed until formatted.
    /// Cost: O(1) here, O(dim²) when formatted.
    pub fn display<'a, S: AsRef<str>>(&'a self, names: &'a [S]) -> DbmDisplay<'a, S> {
        debug_assert!(self.is_canonical());
        debug_assert_eq!(names.len() + 1, self.dim);
        DbmDisplay { dbm: self, names }
    }
}

fn op(b: Bound) -> &'static str {
    if b.is_strict() { "<" } else { "<=" }
}

/// Writes `lo ≺ term ≺ hi`, omitting missing sides, or `term == c` when the
/// two sides pin it down. `lower` is the DBM entry `(−lo, ≺)` of `−term`.
fn write_range(
    f: &mut fmt::Formatter<'_>,
    term: fmt::Arguments<'_>,
    lower: Option<Bound>,
    upper: Option<Bound>,
) -> fmt::Result {
    match (lower, upper) {
        (Some(lo), Some(hi)) if lo + hi == Bound::LE_ZERO => write!(f, "{term} == {}", hi.value()),
        _ => {
            if let Some(lo) = lower {
                write!(f, "{} {} ", -lo.value(), op(lo))?;
            }
            f.write_fmt(term)?;
            if let Some(hi) = upper {
                write!(f, " {} {}", op(hi), hi.value())?;
            }
            Ok(())
        }
    }
}

impl<S: AsRef<str>> fmt::Display for DbmDisplay<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dbm = self.dbm;
        if dbm.is_empty() {
            return f.write_str("false");
        }
        let n = dbm.dim;
        let name = |i: usize| self.names[i - 1].as_ref();
        let mut first = true;
        let mut separate = |f: &mut fmt::Formatter<'_>| {
            if first {
                first = false;
                Ok(())
            } else {
                f.write_str(" && ")
            }
        };
        for i in 1..n {
            let upper = Some(dbm.bound(i, 0)).filter(|b| b.is_finite());
            // `0 <= x` goes without saying, except to turn `x <= 0` into `x == 0`.
            let lower = Some(dbm.bound(0, i))
                .filter(|&lo| lo != Bound::LE_ZERO || upper.is_some_and(|hi| lo + hi == Bound::LE_ZERO));
            if lower.is_some() || upper.is_some() {
                separate(f)?;
                write_range(f, format_args!("{}", name(i)), lower, upper)?;
            }
        }
        // A difference bound is worth printing only if the clock bounds above
        // do not already imply it; in a canonical DBM m[i][j] never exceeds
        // m[i][0] + m[0][j], so "implied" is equality.
        let informative = |i: usize, j: usize| {
            let b = dbm.bound(i, j);
            Some(b).filter(|&b| b < dbm.bound(i, 0) + dbm.bound(0, j))
        };
        for i in 1..n {
            for j in i + 1..n {
                match (informative(i, j), informative(j, i)) {
                    (None, None) => {}
                    // Only the lower side: print it as an upper bound of the
                    // reversed difference rather than as `c < x - y`.
                    (None, Some(lower)) => {
                        separate(f)?;
                        write_range(f, format_args!("{} - {}", name(j), name(i)), None, Some(lower))?;
                    }
                    (upper, lower) => {
                        separate(f)?;
                        write_range(f, format_args!("{} - {}", name(i), name(j)), lower, upper)?;
                    }
                }
            }
        }
        if first {
            f.write_str("true")?;
        }
        Ok(())
    }
}
