//! A zone stored compactly: its bounds against the reference clock (row
//! and column 0, the *axes*) in full, and of the other entries only those
//! no path through the rest implies — the minimal constraint form of
//! Larsen, Larsson, Pettersson and Yi, "Efficient verification of real-time
//! systems: compact data structure and state-space reduction" (RTSS 1997).
//!
//! **Reduction.** Clocks `i` and `j` are equivalent when
//! `m[i][j] + m[j][i] = (0, <=)` (their difference is fixed). In a canonical
//! DBM an entry of a non-representative `x` of a class with representative
//! `r` is `m[x][r] + m[r][j]`, so each class keeps only a cycle through its
//! members (ascending, back to the smallest). Among representatives, every
//! cycle weighs more than `(0, <=)`, so a tight path (one whose sum is the
//! entry) never repeats a clock, and dropping every entry `(i, j)` that
//! some third representative `k` splits tightly
//! (`m[i][k] + m[k][j] = m[i][j]`) keeps each dropped entry derivable
//! through a chain of kept ones. Entries equal to `m[i][0] + m[0][j]` are
//! dropped as well: the axes are kept whole. Closure then gives back the
//! canonical matrix exactly.
//!
//! **Inclusion without unpacking.** `Z ⊆ ⟦stored⟧` iff `Z` satisfies every
//! kept constraint (their closure is the stored zone), which reads `Z`'s
//! entries at the kept positions only ([`MinimalDbm::includes`]). The
//! other tests ([`Dbm::is_subset_of`] the other way, aLU) unpack (the
//! axes' closure, then each kept entry added incrementally); their
//! witnesses on the axes ([`MinimalDbm::may_be_within`],
//! [`MinimalDbm::alu_axes_witness`]) reject first.

use super::bound::Bound;
use super::dbm::Dbm;
use super::extrapolation::NO_BOUND;

/// A non-empty canonical DBM in minimal constraint form, or an empty one.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct MinimalDbm {
    dim: u32,
    /// Raw bounds: `m[0][1..dim]`, then `m[1..dim][0]`, then pairs
    /// (`i << 16 | j`, `m[i][j]`) of the kept entries in row-major order.
    /// Empty for an empty zone.
    words: Box<[i32]>,
}

impl MinimalDbm {
    /// The minimal form of `zone`.
    /// Pre: canonical or marked empty; `dim <= 2^16`. Post:
    /// [`MinimalDbm::unpack`] gives `zone` back; equal zones give equal
    /// forms. Cost: O(dim³), allocates once.
    pub fn new(zone: &Dbm) -> MinimalDbm {
        debug_assert!(zone.is_canonical());
        let n = zone.dim;
        assert!(n <= 1 << 16, "a zone of at most 2^16 − 1 clocks");
        if zone.is_empty() {
            return MinimalDbm { dim: n as u32, words: Box::new([]) };
        }
        let at = |i: usize, j: usize| zone.m[i * n + j];
        // The smallest clock of each class (the reference clock heads its own).
        let rep: Vec<usize> =
            (0..n).map(|i| (0..=i).find(|&j| at(i, j) + at(j, i) == Bound::LE_ZERO).unwrap_or(i)).collect();
        let reps: Vec<usize> = (0..n).filter(|&i| rep[i] == i).collect();
        let mut kept = Vec::new();
        // Each class's cycle: every member to the next larger one, the last
        // back to the representative.
        for i in 1..n {
            if let Some(j) = (i + 1..n).find(|&j| rep[j] == rep[i]) {
                kept.push((i, j));
            } else if rep[i] != i {
                kept.push((i, rep[i]));
            }
        }
        for &i in &reps {
            for &j in &reps {
                let b = at(i, j);
                // The cheap reasons to drop an entry before the cubic one
                // (the axes' entries and those they imply are dropped
                // below anyway).
                let by_axes = i == 0 || j == 0 || at(i, 0) + at(0, j) == b;
                if i == j
                    || !b.is_finite()
                    || by_axes
                    || reps.iter().any(|&k| k != i && k != j && at(i, k) + at(k, j) == b)
                {
                    continue;
                }
                kept.push((i, j));
            }
        }
        kept.sort_unstable();
        let mut words: Vec<i32> = Vec::with_capacity(2 * (n - 1) + 2 * kept.len());
        words.extend((1..n).map(|j| at(0, j).raw()));
        words.extend((1..n).map(|i| at(i, 0).raw()));
        for (i, j) in kept {
            // Entries the axes imply are not kept (this also drops every
            // entry with the reference clock on one side).
            if i == 0 || j == 0 || at(i, 0) + at(0, j) == at(i, j) {
                continue;
            }
            words.push((i << 16 | j) as i32);
            words.push(at(i, j).raw());
        }
        MinimalDbm { dim: n as u32, words: words.into_boxed_slice() }
    }

    pub fn dim(&self) -> usize {
        self.dim as usize
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.words.len() * std::mem::size_of::<i32>()
    }

    /// `m[0][j]` and `m[i][0]` (`k` from 1).
    fn row0(&self, j: usize) -> Bound {
        Bound::from_raw(self.words[j - 1])
    }
    fn col0(&self, i: usize) -> Bound {
        Bound::from_raw(self.words[self.dim() - 1 + i - 1])
    }

    /// The kept entries off the axes: `(i, j, m[i][j])`.
    fn kept(&self) -> impl Iterator<Item = (usize, usize, Bound)> + '_ {
        let n = self.dim();
        self.words[2 * (n - 1)..].chunks_exact(2).map(|p| {
            let ij = p[0] as u32 as usize;
            (ij >> 16, ij & 0xffff, Bound::from_raw(p[1]))
        })
    }

    /// The canonical DBM, written into `out` (reusing its matrix when the
    /// dimension agrees).
    /// Pre: none. Post: equal to the zone it was made from. Cost: O(dim²)
    /// per kept entry off the axes, plus O(dim²).
    pub fn unpack(&self, out: &mut Dbm) {
        let n = self.dim();
        if out.dim != n {
            *out = Dbm::universe(n);
        }
        if self.is_empty() {
            out.m.fill(Bound::LE_ZERO);
            out.mark_empty();
            return;
        }
        // The closure of the axes alone is `m[i][0] + m[0][j]` (a path
        // through the reference clock twice is no shorter: the stored
        // zone's `m[0][k] + m[k][0]` is at least `(0, <=)`); the kept
        // entries are then added one by one, each restoring canonical form
        // in O(dim²), instead of a cubic closure of the whole matrix.
        out.m[0] = Bound::LE_ZERO;
        for j in 1..n {
            out.m[j] = self.row0(j);
        }
        for i in 1..n {
            let c = self.col0(i);
            out.m[i * n] = c;
            for j in 1..n {
                out.m[i * n + j] = if i == j { Bound::LE_ZERO } else { c + self.row0(j) };
            }
        }
        for (i, j, b) in self.kept() {
            let non_empty = out.constrain(i, j, b);
            debug_assert!(non_empty, "a stored non-empty zone unpacks non-empty");
        }
    }

    /// Whether `zone ⊆ self`, without unpacking.
    /// Pre: `zone` canonical or empty, same `dim`. Post: exact. Cost:
    /// O(dim + kept entries).
    pub fn includes(&self, zone: &Dbm) -> bool {
        debug_assert_eq!(zone.dim, self.dim());
        if zone.is_empty() {
            return true;
        }
        if self.is_empty() {
            return false;
        }
        let n = self.dim();
        (1..n).all(|k| zone.m[k] <= self.row0(k) && zone.m[k * n] <= self.col0(k))
            && self.kept().all(|(i, j, b)| zone.m[i * n + j] <= b)
    }

    /// False when `self ⊆ zone` is ruled out by the axes alone (a
    /// necessary condition, exact on the axes).
    /// Pre: `zone` canonical, same `dim`. Cost: O(dim).
    pub fn may_be_within(&self, zone: &Dbm) -> bool {
        let n = self.dim();
        self.is_empty() || (1..n).all(|k| self.row0(k) <= zone.m[k] && self.col0(k) <= zone.m[k * n])
    }

    /// Whether the aLU test ([`Dbm::alu_subsumed`]) finds a witness with
    /// `x` or `y` the reference clock, between `z` and `z2` (the question
    /// being `z ⊆ aLU(z2)`), one of them `self`; `self_is_z` says which.
    /// Those witnesses read the axes only, so a `true` proves that `z` is
    /// not subsumed without unpacking.
    /// Pre: both non-empty, same `dim`, LU bounds as for `alu_subsumed`.
    /// Cost: O(dim).
    pub fn alu_axes_witness(&self, zone: &Dbm, self_is_z: bool, lower: &[i32], upper: &[i32]) -> bool {
        let n = self.dim();
        let theirs = |k: usize| (zone.m[k], zone.m[k * n]);
        let mine = |k: usize| (self.row0(k), self.col0(k));
        let pick = |k: usize| if self_is_z { (mine(k), theirs(k)) } else { (theirs(k), mine(k)) };
        (1..n).any(|k| {
            let ((z_0k, z_k0), (z2_0k, z2_k0)) = pick(k);
            // x = 0, y = k: Z'_y0 < Z_y0 and Z'_y0 + (−L_y, <) < Z_00.
            let l = lower[k - 1];
            let via_upper = l != NO_BOUND && z2_k0 < z_k0 && z2_k0 + Bound::lt(-l) < Bound::LE_ZERO;
            // y = 0, x = k: Z_0x >= (−U_x, <=), Z'_0x < Z_0x and
            // Z'_0x + (0, <) < Z_0x.
            let u = upper[k - 1];
            let via_lower = u != NO_BOUND && z_0k >= Bound::le(-u) && z2_0k < z_0k && z2_0k + Bound::LT_ZERO < z_0k;
            via_upper || via_lower
        })
    }
}
