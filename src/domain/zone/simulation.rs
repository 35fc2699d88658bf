//! The aLU subsumption test of Herbreteau, Srivathsan and Walukiewicz,
//! "Better abstractions for timed automata" (LICS 2012): inclusion in the
//! non-convex LU abstraction of a zone without computing it.

use super::bound::Bound;
use super::dbm::Dbm;
use super::extrapolation::{NO_BOUND, lu_at};

impl Dbm {
    /// `self ⊆ aLU(other)`: every valuation of `self` is LU-simulated by one
    /// of `other` (`v ≼LU v'` iff for every clock x, `v'(x) = v(x)`, or
    /// `L_x < v'(x) < v(x)`, or `U_x < v(x) < v'(x)`).
    ///
    /// The paper's theorem: for non-empty zones, `Z ⊄ aLU(Z')` iff there are
    /// x, y (the reference clock included, with `L_0 = U_0 = 0`) such that
    /// `Z_0x >= (−U_x, <=)` and `Z'_yx < Z_yx` and
    /// `Z'_yx + (−L_y, <) < Z_0x`. Read together, they describe a
    /// valuation v of Z that nothing in Z' simulates: v(x) is at most U_x,
    /// so a simulating v' may not raise x; v(y) − v(x) exceeds what Z'
    /// allows, so v' must lower y instead; and v(x) is small enough that
    /// every y that Z' allows next to it is at most L_y, where lowering y is
    /// not allowed either. A [`NO_BOUND`] in `U_x` or
    /// `L_y` makes the respective condition unsatisfiable.
    ///
    /// Pre: both canonical, same `dim`; `lower.len() == upper.len() ==
    /// dim − 1`; bounds as for [`Dbm::extrapolate_lu_plus`].
    /// Post: implied by `self.is_subset_of(other)`; exact for aLU.
    /// Cost: O(dim²), no allocation.
    pub fn alu_subsumed(&self, other: &Dbm, lower: &[i32], upper: &[i32]) -> bool {
        debug_assert_eq!(self.dim, other.dim);
        debug_assert!(self.is_canonical() && other.is_canonical());
        debug_assert!(lower.len() + 1 == self.dim && upper.len() + 1 == self.dim);
        if self.is_empty() {
            return true;
        }
        if other.is_empty() {
            return false;
        }
        let n = self.dim;
        for x in 0..n {
            let u_x = lu_at(upper, x);
            if u_x == NO_BOUND {
                continue;
            }
            let z_0x = self.m[x];
            if z_0x < Bound::le(-u_x) {
                continue;
            }
            for y in 0..n {
                let l_y = lu_at(lower, y);
                if y == x || l_y == NO_BOUND {
                    continue;
                }
                let z_yx = self.m[y * n + x];
                let zp_yx = other.m[y * n + x];
                if zp_yx < z_yx && zp_yx + Bound::lt(-l_y) < z_0x {
                    return false;
                }
            }
        }
        true
    }
}
