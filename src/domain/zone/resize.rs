//! Adding and removing clocks at the end of the clock vector, for the
//! auxiliary clocks of backward analyses (a formula clock measuring a time
//! bound, a tick clock proving time divergence).

use super::bound::Bound;
use super::dbm::Dbm;

impl Dbm {
    /// The same zone with `extra` unconstrained clocks (any value `>= 0`)
    /// appended: `⟦m⟧ × ℝ≥0^extra`.
    /// Pre: canonical. Post: canonical, `dim + extra`. Cost: O((dim +
    /// extra)²), allocates.
    pub fn with_clocks_appended(&self, extra: usize) -> Dbm {
        let (n, wide) = (self.dim, self.dim + extra);
        if self.is_empty() {
            let mut z = Dbm::universe(wide);
            z.mark_empty();
            return z;
        }
        let mut z = Dbm::universe(wide);
        for i in 0..n {
            z.m[i * wide..i * wide + n].copy_from_slice(&self.m[i * n..(i + 1) * n]);
            // A new clock x can be 0, so y − x is bounded by y's upper
            // bound; x − y by nothing (already ∞ in the universe).
            for x in n..wide {
                z.m[i * wide + x] = self.m[i * n];
            }
        }
        for x in n..wide {
            for y in n..wide {
                z.m[x * wide + y] = if x == y { Bound::LE_ZERO } else { Bound::INF };
            }
        }
        debug_assert!(z.is_canonical());
        z
    }

    /// The existential projection onto the first `dim` clocks
    /// (`∃ x_dim … : ⟦m⟧`): the leading submatrix, since canonical entries
    /// are already the tightest bounds implied through every other clock.
    /// Pre: canonical, `1 <= dim <= self.dim()`. Post: canonical. Cost:
    /// O(dim²), allocates.
    pub fn projected_to(&self, dim: usize) -> Dbm {
        debug_assert!(1 <= dim && dim <= self.dim);
        let mut z = Dbm::universe(dim);
        if self.is_empty() {
            z.mark_empty();
            return z;
        }
        for i in 0..dim {
            z.m[i * dim..(i + 1) * dim].copy_from_slice(&self.m[i * self.dim..i * self.dim + dim]);
        }
        debug_assert!(z.is_canonical());
        z
    }
}
