//! Zone difference as a disjoint union of zones.

use super::dbm::Dbm;

impl Dbm {
    /// `self \ other` as pairwise disjoint, non-empty, canonical zones.
    ///
    /// Walks the constraints `c_1, …, c_k` of `other` that the remaining
    /// part does not already imply; piece `p` is
    /// `self ∧ c_1 ∧ … ∧ c_{p−1} ∧ ¬c_p`. Each piece violates a constraint
    /// that all later pieces satisfy (disjointness), and what is left after
    /// the last one is `self ∩ other` (coverage). A constraint implied by the
    /// remainder yields no piece, which keeps the list short.
    ///
    /// Pre: both canonical, same `dim`. Post: empty vector iff
    /// `self ⊆ other`; `vec![self.clone()]` if the zones are disjoint.
    /// Cost: O(dim⁴) worst case (one O(dim²) constrain per entry),
    /// one allocation per piece.
    pub fn subtract(&self, other: &Dbm) -> Vec<Dbm> {
        let mut pieces = Vec::new();
        self.cut(other, |piece| {
            pieces.push(piece.clone());
            true
        });
        pieces
    }

    /// Whether `self \ other ⊆ within`: each piece [`Dbm::subtract`] would
    /// give is tested for inclusion as it is cut, and the first one outside
    /// `within` ends the test. Cheaper than subtracting `within` from every
    /// piece, which is what a federation's merge test would otherwise do.
    pub fn difference_within(&self, other: &Dbm, within: &Dbm) -> bool {
        debug_assert!(within.is_canonical());
        self.cut(other, |piece| piece.is_subset_of(within))
    }

    /// Hands the pieces of `self \ other` ([`Dbm::subtract`]) to `each`, in
    /// order, until it returns false; false then, else true.
    fn cut(&self, other: &Dbm, mut each: impl FnMut(&Dbm) -> bool) -> bool {
        debug_assert_eq!(self.dim, other.dim);
        debug_assert!(self.is_canonical() && other.is_canonical());
        if self.is_empty() || self.is_subset_of(other) {
            return true;
        }
        let mut rest = self.clone();
        if !rest.intersect(other) {
            return each(self);
        }
        rest.clone_from(self);
        let mut piece = self.clone();
        let n = self.dim;
        for i in 0..n {
            for j in 0..n {
                let c = other.m[i * n + j];
                // Skipping implied constraints (this includes the diagonal)
                // also guarantees the pieces are non-empty: canonical
                // `rest` ∧ ¬c is empty exactly when rest implies c.
                if c >= rest.m[i * n + j] {
                    continue;
                }
                piece.clone_from(&rest);
                let non_empty = piece.constrain(j, i, c.complement());
                debug_assert!(non_empty);
                if !each(&piece) {
                    return false;
                }
                let non_empty = rest.constrain(i, j, c);
                debug_assert!(non_empty, "rest still contains self ∩ other");
            }
        }
        true
    }
}
