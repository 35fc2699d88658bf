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
        debug_assert!(lower.len() + 1 == self.dim && upper.len() + 1 == self.dim);
        if self.is_empty() {
            return true;
        }
        if other.is_empty() {
            return false;
        }
        let n = self.dim;
        // In raw packed form, with i64 sums: Z_0x is at most `<= 0` for a
        // non-empty zone, so a sum saturating to ∞ is never below it, and a
        // sum below the finite range is clamped to its floor, as `+` does.
        // An x whose U_x rules it out gets the floor as threshold, which no
        // clamped sum is below. x = y needs no exclusion: both diagonals are
        // `<= 0`, so `Z'_xx < Z_xx` fails. `(c, ≺) + (−L_y, <)` is
        // `(c − L_y, <)`: the strict bit drops, so row y shifts by 2·L_y.
        let floor = i64::from(Bound::MIN_RAW);
        let witness = |shift: i64, z: Bound, zp: Bound, t: i64| {
            let sum = (i64::from(zp.raw() & !1) - shift).max(floor);
            (zp < z) & (sum < t)
        };
        let shift = |l_y: i32| 2 * i64::from(l_y);
        // x = 0 first (U_0 = 0 always qualifies it, Z_00 = `<= 0`): upper
        // bounds are where zones of one discrete state most often differ.
        let column = (1..n).filter(|&y| lower[y - 1] != NO_BOUND);
        if column.clone().any(|y| witness(shift(lower[y - 1]), self.m[y * n], other.m[y * n], 1)) {
            return false;
        }
        // Then row by row, contiguous in both matrices, in blocks without a
        // branch per entry so that they vectorise.
        let threshold = |z_0x: Bound, u_x: i32| {
            if u_x != NO_BOUND && z_0x >= Bound::le(-u_x) { i64::from(z_0x.raw()) } else { floor }
        };
        let firsts = &self.m[1..n];
        for y in std::iter::once(0).chain(column) {
            let shift = shift(lu_at(lower, y));
            let row = y * n + 1..(y + 1) * n;
            let blocks = self.m[row.clone()].chunks(16).zip(other.m[row].chunks(16));
            let found = blocks.zip(firsts.chunks(16).zip(upper.chunks(16))).any(|((z, zp), (z0, u))| {
                let entries = z.iter().zip(zp).zip(z0.iter().zip(u));
                entries.fold(false, |w, ((&z, &zp), (&z_0x, &u_x))| w | witness(shift, z, zp, threshold(z_0x, u_x)))
            });
            if found {
                return false;
            }
        }
        true
    }
}
