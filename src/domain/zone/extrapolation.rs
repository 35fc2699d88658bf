//! ExtraLU+: the coarsest of the convex LU extrapolations of Behrmann,
//! Bouyer, Larsen and Pelánek, "Lower and upper bounds in zone-based
//! abstractions of timed automata" (STTT 2006).

use super::bound::Bound;
use super::dbm::Dbm;

/// The LU bound of a clock that is never compared from that side (−∞):
/// `L_x = NO_BOUND` means no guard or invariant `x > c` / `x >= c` matters,
/// `U_x = NO_BOUND` the same for `x < c` / `x <= c`.
pub const NO_BOUND: i32 = i32::MIN;

/// LU bound of DBM index `i`; the reference clock is compared with 0 only.
#[inline]
pub(super) fn lu_at(bounds: &[i32], i: usize) -> i32 {
    if i == 0 { 0 } else { bounds[i - 1] }
}

/// Whether the bound `m[0][j] = (−l, ≺)`, i.e. the lower bound `l ≺ x_j`,
/// has `l > limit`. No overflow: `−l` is at most `MAX_VALUE`.
#[inline]
fn lower_exceeds(b: Bound, limit: i32) -> bool {
    -b.value() > limit
}

impl Dbm {
    /// ExtraLU+ with per-clock bounds `lower` (L) and `upper` (U):
    /// with `m[i][j] = (c_ij, ≺)`, `m[i][j]` becomes
    /// `< ∞` if `c_ij > L_i`, or `−c_0i > L_i`, or (`i != 0` and
    /// `−c_0j > U_j`); `m[0][j]` becomes `(−U_j, <)` if `−c_0j > U_j`
    /// (`<= 0` when `U_j` is [`NO_BOUND`]); every other entry is kept.
    /// Pre: canonical; `lower.len() == upper.len() == dim − 1`; each bound
    /// is [`NO_BOUND`] or in `0..=Bound::MAX_VALUE`.
    /// Post: canonical, a superset of the input, and equal to it when every
    /// L_x and U_x is at least the absolute value of every finite constant
    /// of the zone.
    /// Cost: O(dim²) when nothing changes, O(dim³) at worst otherwise
    /// (re-closing; see [`Dbm::close`] for why it is usually O(dim²)); no
    /// allocation.
    pub fn extrapolate_lu_plus(&mut self, lower: &[i32], upper: &[i32]) {
        debug_assert!(self.is_canonical());
        debug_assert!(lower.len() + 1 == self.dim && upper.len() + 1 == self.dim);
        debug_assert!(lower.iter().chain(upper).all(|&b| b == NO_BOUND || (0..=Bound::MAX_VALUE).contains(&b)));
        if self.is_empty() {
            return;
        }
        let n = self.dim;
        let mut changed = false;
        // Rows i >= 1 first: their conditions read row 0, which is rewritten
        // last.
        for i in 1..n {
            let l_i = lower[i - 1];
            let row_dropped = lower_exceeds(self.m[i], l_i);
            for j in 0..n {
                let b = self.m[i * n + j];
                if i == j || !b.is_finite() {
                    continue;
                }
                // Strictness plays no role in the conditions. j == 0 needs no
                // special case: −c_00 = 0 never exceeds U_0 = 0.
                if row_dropped || b.value() > l_i || lower_exceeds(self.m[j], lu_at(upper, j)) {
                    self.m[i * n + j] = Bound::INF;
                    changed = true;
                }
            }
        }
        for j in 1..n {
            let u_j = upper[j - 1];
            if lower_exceeds(self.m[j], u_j) {
                self.m[j] = if u_j == NO_BOUND { Bound::LE_ZERO } else { Bound::lt(-u_j) };
                changed = true;
            }
        }
        // The rewritten matrix is a superset's DBM but may not be closed;
        // its row 0 is, which spares a row of every pivot. Every entry only
        // grew from a closed matrix, so a path of the new one is no shorter
        // than the old entry: an entry kept is its shortest path. A lower
        // bound rewritten (−c_0j > U_j) is of a clock whose column below
        // row 0 is ∞ (the third condition above), so the only path into it
        // is that entry.
        if changed {
            let non_empty = self.close_from(1);
            debug_assert!(non_empty, "a superset of a non-empty zone is non-empty");
        }
    }
}

/// Whether the bound `m[i][0] = (u, ≺)`, i.e. the upper bound `x_i ≺ u`,
/// lets `x_i` exceed `limit` somewhere in the (non-empty) zone.
#[inline]
fn upper_exceeds(b: Bound, limit: i32) -> bool {
    !b.is_finite() || b.value() > limit
}

impl Dbm {
    /// A zone containing the aLU abstraction of this one under the bounds
    /// `lower` (L) and `upper` (U): every valuation `v` LU-simulated by a
    /// valuation `w` of the zone (Herbreteau, Srivathsan, Walukiewicz,
    /// "Better abstractions for timed automata", LICS 2012; per clock,
    /// `v(x) = w(x)`, or `L_x < w(x) < v(x)`, or `U_x < v(x) < w(x)`).
    ///
    /// Why it contains them: call `x` *raised* when some `w` of the zone has
    /// `w(x) > L_x`, *lowered* when some has `w(x) > U_x`. If `x` is not
    /// raised, `v(x) <= w(x)`; if not lowered, `v(x) >= w(x)` (`v(x) <
    /// w(x)` would need `U_x < v(x) < w(x) <= U_x`). So a constraint
    /// `x - y ≺ c` of the zone holds of `v` when `x` is not raised and `y`
    /// not lowered (`v(x) - v(y) <= w(x) - w(y)`); the others are dropped,
    /// except that a lowered `y` keeps the lower bound `min(inf y, U_y)`
    /// (`v(y) >= w(y)`, or `v(y) > U_y`). The result is closed again.
    pub fn alu_cover(&self, lower: &[i32], upper: &[i32]) -> Dbm {
        debug_assert!(self.is_canonical());
        let mut out = self.clone();
        if self.is_empty() {
            return out;
        }
        let n = self.dim;
        let raised: Vec<bool> = (0..n).map(|i| i != 0 && upper_exceeds(self.m[i * n], lu_at(lower, i))).collect();
        let lowered: Vec<bool> = (0..n).map(|j| j != 0 && upper_exceeds(self.m[j * n], lu_at(upper, j))).collect();
        for (i, &raised_i) in raised.iter().enumerate() {
            for (j, &lowered_j) in lowered.iter().enumerate() {
                if i != j && (raised_i || (i != 0 && lowered_j)) {
                    out.m[i * n + j] = Bound::INF;
                }
            }
        }
        for j in (1..n).filter(|&j| lowered[j]) {
            let u_j = upper[j - 1];
            if lower_exceeds(self.m[j], u_j) {
                out.m[j] = if u_j == NO_BOUND { Bound::LE_ZERO } else { Bound::lt(-u_j) };
            }
        }
        let non_empty = out.close();
        debug_assert!(non_empty, "a superset of a non-empty zone is non-empty");
        out
    }
}
