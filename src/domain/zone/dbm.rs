//! The matrix itself, its canonical form and the verbs of forward
//! exploration (constrain, delay, reset, inclusion).

use std::fmt;
use std::hash::{Hash, Hasher};

use super::bound::Bound;

/// A zone over `dim − 1` clocks as a canonical difference-bound matrix;
/// see the `zone` module doc for the encoding and invariants.
pub struct Dbm {
    pub(super) dim: usize,
    /// Row-major: `m[i * dim + j]` bounds `x_i − x_j`.
    pub(super) m: Box<[Bound]>,
}

/// Row `dst` for writing and row `src` for reading, borrowed together so the
/// inner loops can zip two slices instead of indexing.
#[inline(always)]
fn rows_mut(m: &mut [Bound], dim: usize, dst: usize, src: usize) -> (&mut [Bound], &[Bound]) {
    debug_assert_ne!(dst, src);
    if dst < src {
        let (low, high) = m.split_at_mut(src * dim);
        (&mut low[dst * dim..(dst + 1) * dim], &high[..dim])
    } else {
        let (low, high) = m.split_at_mut(dst * dim);
        (&mut high[..dim], &low[src * dim..(src + 1) * dim])
    }
}

impl Dbm {
    /// All valuations: every clock `>= 0`, nothing else.
    /// Pre: `dim >= 1`. Post: canonical, non-empty. Cost: O(dim²), allocates.
    pub fn universe(dim: usize) -> Dbm {
        assert!(dim >= 1, "a DBM has at least the reference clock");
        let mut m = vec![Bound::INF; dim * dim].into_boxed_slice();
        m[..dim].fill(Bound::LE_ZERO);
        for i in 0..dim {
            m[i * dim + i] = Bound::LE_ZERO;
        }
        Dbm { dim, m }
    }

    /// The single valuation where every clock is 0.
    /// Pre: `dim >= 1`. Post: canonical, non-empty. Cost: O(dim²), allocates.
    pub fn zero(dim: usize) -> Dbm {
        assert!(dim >= 1, "a DBM has at least the reference clock");
        Dbm { dim, m: vec![Bound::LE_ZERO; dim * dim].into_boxed_slice() }
    }

    /// Number of clocks plus one (index 0 is the reference clock).
    /// Pre: none. Post: `>= 1`. Cost: O(1).
    #[inline]
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The entry `m[i][j]`, the bound on `x_i − x_j`.
    /// Pre: `i, j < dim`. Post: the tightest bound of the zone if canonical;
    /// unspecified on an empty DBM. Cost: O(1).
    #[inline]
    pub fn bound(&self, i: usize, j: usize) -> Bound {
        debug_assert!(i < self.dim && j < self.dim);
        self.m[i * self.dim + j]
    }

    /// Whether the zone has no valuation.
    /// Pre: canonical or marked empty (not after a bare [`Dbm::tighten`]);
    /// not asserted, since `is_canonical` itself starts here.
    /// Post: exact under the precondition. Cost: O(1): emptiness is recorded
    /// in `m[0][0]`.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.m[0] < Bound::LE_ZERO
    }

    #[inline]
    pub(super) fn mark_empty(&mut self) {
        self.m[0] = Bound::LT_ZERO;
    }

    /// Whether the matrix is a valid operand: marked empty, or closed
    /// under the triangle inequality with `<= 0` diagonal and clocks `>= 0`.
    /// Meant for `debug_assert!`s on what operations return (see the
    /// module's invariant for why not on what they take).
    /// Pre: none. Post: true for every DBM an operation other than
    /// `tighten` returns. Cost: O(dim³).
    pub fn is_canonical(&self) -> bool {
        if self.is_empty() {
            return true;
        }
        let n = self.dim;
        let row = |i: usize| &self.m[i * n..(i + 1) * n];
        // A path through `k` from a row with `m[i][k] = ∞` is `∞`: skipped,
        // as in the closure, which keeps the check cheap on ExtraLU+'s zones.
        (0..n).all(|i| row(i)[i] == Bound::LE_ZERO)
            && row(0).iter().all(|&b| b <= Bound::LE_ZERO)
            && (0..n).all(|k| {
                (0..n).all(|i| {
                    let ik = row(i)[k];
                    ik == Bound::INF || row(i).iter().zip(row(k)).all(|(&ij, &kj)| ik + kj >= ij)
                })
            })
    }

    /// Floyd–Warshall: brings the matrix to canonical form or detects that
    /// the zone is empty. Returns whether it is non-empty.
    ///
    /// A pivot `k` whose row is `∞` off the diagonal is skipped, and so is
    /// a row `i` with `m[i][k] = ∞`: no path passes through a vertex
    /// without an outgoing edge (or reaches it from `i`), so these steps
    /// would change nothing. ExtraLU+ leaves many such rows (every clock
    /// whose lower bound exceeds its `L`) and columns (every clock whose
    /// lower bound exceeds its `U` is entered from the reference clock
    /// only), which makes its re-closing O(dim²) on typical zones.
    /// Pre: diagonal `<= 0` or marked empty. Post: canonical; if it returns
    /// false, marked empty. Cost: O(dim) per pivot, plus O(dim) per pivot
    /// `k` and row `i` with `m[i][k]` and some `m[k][j]` (`j != k`) finite:
    /// O(dim³) at worst; no allocation.
    pub fn close(&mut self) -> bool {
        self.close_from(0)
    }

    /// [`Dbm::close`] with rows `0..first` left as they are: for a matrix
    /// whose first rows already hold their shortest paths, so that no step
    /// of Floyd–Warshall would change them (and no negative cycle passes
    /// through their vertices, their diagonal being `(0, <=)`). The other
    /// rows still go through every pivot, those rows included.
    /// Pre: as `close`, and rows `0..first` shortest paths of the matrix.
    /// Post: as `close`. Cost: `close`'s, without the skipped rows.
    pub(super) fn close_from(&mut self, first: usize) -> bool {
        if self.is_empty() {
            return false;
        }
        let n = self.dim;
        debug_assert!((0..n).all(|i| self.m[i * n + i] <= Bound::LE_ZERO));
        for k in 0..n {
            let row_k = &self.m[k * n..(k + 1) * n];
            if row_k[..k].iter().chain(&row_k[k + 1..]).all(|&b| b == Bound::INF) {
                continue;
            }
            for i in first..n {
                let ik = self.m[i * n + k];
                if i == k || ik == Bound::INF {
                    continue;
                }
                let (row_i, row_k) = rows_mut(&mut self.m, n, i, k);
                // A minimum, not a conditional store: the loop vectorises.
                for (ij, &kj) in row_i.iter_mut().zip(row_k) {
                    *ij = (*ij).min(ik + kj);
                }
                // Stopping at the first negative cycle keeps every sum below
                // a few times the largest constant (no repeated doubling).
                if row_i[i] < Bound::LE_ZERO {
                    self.mark_empty();
                    return false;
                }
            }
        }
        debug_assert!(self.is_canonical());
        true
    }

    /// Conjoins `x_i − x_j ≺ c` without restoring canonical form, so that a
    /// batch of constraints costs a single [`Dbm::close`].
    /// Pre: `i != j`, both `< dim`. Post: `m[i][j] = min(m[i][j], bound)`;
    /// not canonical in general: call `close` before any other operation.
    /// Cost: O(1).
    #[inline]
    pub fn tighten(&mut self, i: usize, j: usize, bound: Bound) {
        debug_assert!(i != j && i < self.dim && j < self.dim);
        let entry = &mut self.m[i * self.dim + j];
        if bound < *entry {
            *entry = bound;
        }
    }

    /// Conjoins `x_i − x_j ≺ c` and restores canonical form incrementally.
    /// Returns whether the zone is non-empty.
    /// Pre: canonical, `i != j`, both `< dim`. Post: canonical; marked
    /// empty iff it returns false. Cost: O(dim²), no allocation.
    pub fn constrain(&mut self, i: usize, j: usize, bound: Bound) -> bool {
        debug_assert!(i != j && i < self.dim && j < self.dim);
        if self.is_empty() {
            return false;
        }
        let n = self.dim;
        if bound >= self.m[i * n + j] {
            return true;
        }
        // The only cycle the new edge can close is i → j → i.
        if bound + self.m[j * n + i] < Bound::LE_ZERO {
            self.mark_empty();
            return false;
        }
        // A shortest path uses the new edge at most once, so every entry
        // becomes min(m[k][l], m[k][i] + bound + m[j][l]). Column i and row j
        // do not change (that would need the cycle ruled out above), hence
        // reading them while writing is safe.
        for k in 0..n {
            let ki = self.m[k * n + i];
            if ki == Bound::INF {
                continue;
            }
            let kij = ki + bound;
            // If k → i → j does not improve k → j, it cannot improve any
            // k → j → l either: the old matrix was closed. This also skips
            // k == j.
            if kij >= self.m[k * n + j] {
                continue;
            }
            let (row_k, row_j) = rows_mut(&mut self.m, n, k, j);
            for (kl, &jl) in row_k.iter_mut().zip(row_j) {
                let via = kij + jl;
                if via < *kl {
                    *kl = via;
                }
            }
        }
        debug_assert!(self.is_canonical());
        true
    }

    /// Intersects with `other`. Returns whether the result is non-empty.
    /// Pre: both canonical, same `dim`. Post: canonical; marked empty iff
    /// it returns false. Cost: O(dim²) when `other` is tighter on fewer
    /// than `dim` entries (incremental), O(dim³) otherwise; no allocation.
    pub fn intersect(&mut self, other: &Dbm) -> bool {
        debug_assert_eq!(self.dim, other.dim);
        debug_assert!(self.is_canonical() && other.is_canonical());
        if self.is_empty() {
            return false;
        }
        if other.is_empty() {
            self.mark_empty();
            return false;
        }
        let n = self.dim;
        let tighter = self.m.iter().zip(other.m.iter()).filter(|(mine, theirs)| theirs < mine).count();
        if tighter == 0 {
            return true;
        }
        if tighter < n {
            for i in 0..n {
                for j in 0..n {
                    let theirs = other.m[i * n + j];
                    if i != j && theirs < self.m[i * n + j] && !self.constrain(i, j, theirs) {
                        return false;
                    }
                }
            }
            return true;
        }
        for (mine, &theirs) in self.m.iter_mut().zip(other.m.iter()) {
            if theirs < *mine {
                *mine = theirs;
            }
        }
        self.close()
    }

    /// Delay (future): lets any amount of time elapse by removing the upper
    /// bounds `x_i − x_0`.
    /// Pre: canonical. Post: canonical; empty stays empty. Cost: O(dim), no
    /// allocation.
    pub fn up(&mut self) {
        if self.is_empty() {
            return;
        }
        // Differences are invariant under delay and lower bounds stay valid.
        for upper in self.m.iter_mut().step_by(self.dim).skip(1) {
            *upper = Bound::INF;
        }
        debug_assert!(self.is_canonical());
    }

    /// Past: all valuations from which some delay leads into the zone.
    /// Pre: canonical. Post: canonical; empty stays empty. Cost: O(dim²), no
    /// allocation.
    pub fn down(&mut self) {
        if self.is_empty() {
            return;
        }
        let n = self.dim;
        // Going back in time, x_j can fall to 0 unless some clock x_i would
        // go negative first, i.e. −x_j <= min(0, min_i m[i][j]) with i >= 1.
        for j in 1..n {
            let mut lower = Bound::LE_ZERO;
            for i in 1..n {
                lower = lower.min(self.m[i * n + j]);
            }
            self.m[j] = lower;
        }
        debug_assert!(self.is_canonical());
    }

    /// Reset `x := value`.
    /// Pre: canonical, `1 <= x < dim`, `0 <= value <= Bound::MAX_VALUE`.
    /// Post: canonical; empty stays empty. Cost: O(dim), no allocation.
    pub fn reset(&mut self, x: usize, value: i32) {
        debug_assert!(0 < x && x < self.dim);
        debug_assert!(value >= 0);
        if self.is_empty() {
            return;
        }
        let n = self.dim;
        let at_most = Bound::le(value);
        let at_least = Bound::le(-value);
        // x is now x_0 + value, so its bounds against any y are those of x_0
        // shifted by value; row 0 and column 0 are read before being written
        // because j == x is skipped.
        for j in 0..n {
            if j != x {
                self.m[x * n + j] = at_most + self.m[j];
                self.m[j * n + x] = self.m[j * n] + at_least;
            }
        }
        debug_assert!(self.is_canonical());
    }

    /// Forgets everything about clock `x` except `x >= 0`.
    /// Pre: canonical, `1 <= x < dim`. Post: canonical; empty stays empty.
    /// Cost: O(dim), no allocation.
    pub fn free(&mut self, x: usize) {
        debug_assert!(0 < x && x < self.dim);
        if self.is_empty() {
            return;
        }
        let n = self.dim;
        // With x anywhere in [0, ∞), y − x is bounded exactly by y's upper
        // bound (reached at x = 0) and x − y by nothing. For j = 0 this sets
        // m[0][x] to m[0][0] = (0, <=).
        for j in 0..n {
            if j != x {
                self.m[x * n + j] = Bound::INF;
                self.m[j * n + x] = self.m[j * n];
            }
        }
        debug_assert!(self.is_canonical());
    }

    /// Zone inclusion `self ⊆ other`.
    /// Pre: both canonical, same `dim`. Post: exact, since canonical
    /// entries are the tightest bounds of the zone. Cost: O(dim²), no
    /// allocation.
    pub fn is_subset_of(&self, other: &Dbm) -> bool {
        debug_assert_eq!(self.dim, other.dim);
        if self.is_empty() {
            return true;
        }
        if other.is_empty() {
            return false;
        }
        // Fixed-size blocks without early exit inside vectorise; the exit
        // between blocks keeps the common "not included" answer quick.
        self.m
            .chunks(16)
            .zip(other.m.chunks(16))
            .all(|(mine, theirs)| mine.iter().zip(theirs).fold(true, |included, (a, b)| included & (a <= b)))
    }

    /// Whether the valuation `x_k = point[k − 1] / denominator` lies in the
    /// zone; rationals make half-integer and finer points testable exactly.
    /// Pre: `point.len() == dim − 1`, `denominator > 0`. Post: exact (no
    /// rounding, no overflow). Cost: O(dim²), no allocation.
    pub fn contains_point(&self, point: &[i64], denominator: i64) -> bool {
        debug_assert_eq!(point.len() + 1, self.dim);
        debug_assert!(denominator > 0);
        if self.is_empty() {
            return false;
        }
        let n = self.dim;
        // i128 so that neither the difference nor the scaled constant can
        // overflow whatever the inputs.
        let at = |i: usize| if i == 0 { 0 } else { i128::from(point[i - 1]) };
        let den = i128::from(denominator);
        (0..n).all(|i| {
            (0..n).all(|j| {
                let b = self.m[i * n + j];
                if i == j || !b.is_finite() {
                    return true;
                }
                let diff = at(i) - at(j);
                let limit = i128::from(b.value()) * den;
                diff < limit || (diff == limit && !b.is_strict())
            })
        })
    }
}

/// Written out because `derive` would not forward `clone_from`: copying
/// into an existing DBM of the same dimension then reuses its allocation,
/// which exploration loops can use.
impl Clone for Dbm {
    fn clone(&self) -> Dbm {
        Dbm { dim: self.dim, m: self.m.clone() }
    }

    fn clone_from(&mut self, source: &Dbm) {
        self.dim = source.dim;
        self.m.clone_from(&source.m);
    }
}

/// Equality of zones: canonical forms are unique, so entries are compared;
/// all empty DBMs of one dimension are equal whatever their other entries.
/// Pre: both canonical.
impl PartialEq for Dbm {
    fn eq(&self, other: &Dbm) -> bool {
        self.dim == other.dim
            && match (self.is_empty(), other.is_empty()) {
                (true, true) => true,
                (false, false) => self.m == other.m,
                _ => false,
            }
    }
}

impl Eq for Dbm {}

/// Consistent with `==`: an empty DBM hashes only its dimension.
/// Pre: canonical.
impl Hash for Dbm {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.dim);
        if !self.is_empty() {
            // Two entries per word halves the hasher rounds.
            let mut pairs = self.m.chunks_exact(2);
            for pair in &mut pairs {
                let (hi, lo) = (pair[0].raw() as u32, pair[1].raw() as u32);
                state.write_u64(u64::from(hi) << 32 | u64::from(lo));
            }
            if let [last] = pairs.remainder() {
                state.write_i32(last.raw());
            }
        }
    }
}

impl fmt::Debug for Dbm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return write!(f, "Dbm(dim {}, empty)", self.dim);
        }
        let mut rows = f.debug_list();
        for row in self.m.chunks(self.dim) {
            rows.entry(&row);
        }
        rows.finish()
    }
}
