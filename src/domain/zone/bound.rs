//! One DBM entry: a strict or non-strict upper bound packed in an `i32`.

use std::fmt;
use std::ops::Add;

/// An upper bound `≺ c` with `≺ ∈ {<, <=}`, or `< ∞`.
///
/// The packing (`(c << 1) | 1` for `<= c`, `c << 1` for `< c`) and why it
/// makes the integer order the tightness order are in the `zone` module doc.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Bound(i32);

impl Bound {
    /// Largest constant a finite bound may carry (2^30 − 2): the largest
    /// whose packed `<=` form stays below [`Bound::INF`].
    pub const MAX_VALUE: i32 = (1 << 30) - 2;
    /// Smallest constant a finite bound may carry; symmetric to
    /// [`Bound::MAX_VALUE`] so that [`Bound::complement`] never leaves the range.
    pub const MIN_VALUE: i32 = -Self::MAX_VALUE;
    /// `< ∞`: no constraint. Larger than every finite bound.
    pub const INF: Bound = Bound(i32::MAX);
    /// `<= 0`, the diagonal of a non-empty canonical DBM.
    pub const LE_ZERO: Bound = Bound(1);
    /// `< 0`, the marker an empty DBM carries in `m[0][0]`.
    pub const LT_ZERO: Bound = Bound(0);

    const MAX_RAW: i32 = (Self::MAX_VALUE << 1) | 1;
    pub(super) const MIN_RAW: i32 = Self::MIN_VALUE << 1;

    /// The bound `<= c`.
    /// Pre: `MIN_VALUE <= c <= MAX_VALUE`. Post: finite, `value() == c`,
    /// not strict. Cost: O(1).
    #[inline]
    pub const fn le(c: i32) -> Bound {
        debug_assert!(Self::MIN_VALUE <= c && c <= Self::MAX_VALUE);
        Bound((c << 1) | 1)
    }

    /// The bound `< c`.
    /// Pre: `MIN_VALUE <= c <= MAX_VALUE`. Post: finite, `value() == c`,
    /// strict. Cost: O(1).
    #[inline]
    pub const fn lt(c: i32) -> Bound {
        debug_assert!(Self::MIN_VALUE <= c && c <= Self::MAX_VALUE);
        Bound(c << 1)
    }

    /// Whether the bound is finite (not [`Bound::INF`]).
    /// Pre: none. Post: false only for `INF`. Cost: O(1).
    #[inline]
    pub const fn is_finite(self) -> bool {
        self.0 != i32::MAX
    }

    /// The constant `c` of `≺ c`.
    /// Pre: finite. Post: `Bound::le(b.value())` or `Bound::lt(b.value())`
    /// is `b`. Cost: O(1).
    #[inline]
    pub const fn value(self) -> i32 {
        debug_assert!(self.is_finite());
        // Arithmetic shift floors, which undoes `c << 1` for negative c too.
        self.0 >> 1
    }

    /// Whether the bound is `<` rather than `<=`.
    /// Pre: finite (`∞` is conventionally strict but carries no bit for it).
    /// Post: true iff `b == Bound::lt(b.value())`. Cost: O(1).
    #[inline]
    pub const fn is_strict(self) -> bool {
        debug_assert!(self.is_finite());
        self.0 & 1 == 0
    }

    /// The packed integer, for compact storage or hashing by callers.
    /// Pre: none. Post: `Bound::from_raw(b.raw()) == b`. Cost: O(1).
    #[inline]
    pub const fn raw(self) -> i32 {
        self.0
    }

    /// Unpacks an integer produced by [`Bound::raw`].
    /// Pre: `raw` came from `raw()` (or is `i32::MAX`, or lies in the finite
    /// range `[2·MIN_VALUE, 2·MAX_VALUE + 1]`). Post: `raw()` returns `raw`.
    /// Cost: O(1).
    #[inline]
    pub const fn from_raw(raw: i32) -> Bound {
        debug_assert!(raw == i32::MAX || (Self::MIN_RAW <= raw && raw <= Self::MAX_RAW));
        Bound(raw)
    }

    /// The bound `≺' −c` of the negated constraint read in the other
    /// direction: `¬(x − y ≺ c)` is `y − x ≺' −c`, with `<` and `<=`
    /// swapped.
    /// Pre: finite (the negation of `< ∞` is unsatisfiable, not a bound).
    /// Post: `b.complement().complement() == b`. Cost: O(1).
    #[inline]
    pub const fn complement(self) -> Bound {
        debug_assert!(self.is_finite());
        // (c, <=) = 2c+1 ↦ (−c, <) = −2c and (c, <) = 2c ↦ (−c, <=) = −2c+1:
        // both are 1 − raw, which stays inside the symmetric finite range.
        Bound(1 - self.0)
    }
}

impl Add for Bound {
    type Output = Bound;

    /// `(a, ≺1) + (b, ≺2) = (a + b, <=` iff both are `<=)`, `∞` absorbing.
    /// Pre: none. Post: saturates instead of wrapping: sums above
    /// `MAX_VALUE` become `∞` and sums below `MIN_VALUE` become
    /// `< MIN_VALUE`; both only loosen a bound, so a zone can only grow,
    /// and a negative cycle stays negative. Cost: O(1).
    #[inline]
    fn add(self, rhs: Bound) -> Bound {
        // Branch-free (selects, a saturating add), so that loops over rows
        // such as the closure's vectorise. Both even parts are 2·c; the sum
        // of the strict bits is non-strict only when both are. A sum that
        // saturates keeps its sign's extreme, which the range check then
        // maps to ∞ or to the floor.
        let even = (self.0 & !1).saturating_add(rhs.0 & !1);
        let raw = even | (self.0 & rhs.0 & 1);
        let raw = if raw > Self::MAX_RAW { i32::MAX } else { raw.max(Self::MIN_RAW) };
        Bound(if self.0 == i32::MAX || rhs.0 == i32::MAX { i32::MAX } else { raw })
    }
}

impl fmt::Debug for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.is_finite() {
            f.write_str("<inf")
        } else if self.is_strict() {
            write!(f, "<{}", self.value())
        } else {
            write!(f, "<={}", self.value())
        }
    }
}
