//! The convex hull of two zones, the smallest zone containing both.

use super::dbm::Dbm;

impl Dbm {
    /// The smallest zone containing `self` and `other`: the entry-wise
    /// maximum. It is canonical, since
    /// `max(a_ij, b_ij) <= max(a_ik + a_kj, b_ik + b_kj)
    /// <= max(a_ik, b_ik) + max(a_kj, b_kj)`.
    /// Pre: both canonical, same `dim`. Post: canonical; the other operand
    /// if one is empty. Cost: O(dim²), allocates.
    pub fn hull(&self, other: &Dbm) -> Dbm {
        debug_assert_eq!(self.dim, other.dim);
        if self.is_empty() {
            return other.clone();
        }
        if other.is_empty() {
            return self.clone();
        }
        let m = self.m.iter().zip(other.m.iter()).map(|(&a, &b)| a.max(b)).collect();
        let hull = Dbm { dim: self.dim, m };
        debug_assert!(hull.is_canonical());
        hull
    }
}
