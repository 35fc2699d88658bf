//! Clock regions (Alur–Dill), exact for timed automata with strict and
//! non-strict bounds alike, as long as no constraint is diagonal.
//!
//! # The region of a valuation
//!
//! With `M` the largest constant any constraint compares a clock with (over
//! the data ranges), two valuations are region-equivalent when every clock
//! is above `M` in both or has the same integer part in both, and the clocks
//! not above `M` have zero fractional parts in both or in neither, and their
//! fractional parts are ordered alike (equal ones grouped). A region is
//! stored as its *canonical representative*, in units of `1/S` with
//! `S = n + 1` for `n` clocks: each clock not above `M` keeps its integer
//! part and gets the fractional part `r/S`, where `r` is 0 for a zero
//! fractional part and the rank (1, 2, ...) of its group among the distinct
//! non-zero fractional parts otherwise (at most `n` groups, so `r < S`); a
//! clock above `M` is `M + 1`. The representative lies in its region.
//!
//! # Why it is exact
//!
//! Region equivalence is a time-abstract bisimulation for diagonal-free
//! timed automata whose constants are integers at most `M` (Alur and Dill
//! 1994; data are explicit, so a data-dependent bound is a constant in each
//! state):
//! - it decides every constraint `x ≺ c`, `≺` in `< <= == >= >`, `|c| <= M`:
//!   below `M` the integer part and the zero-ness of the fractional part
//!   settle it, above `M` every such constraint is constant. So guards,
//!   invariants and property atoms have the same value on the whole region,
//!   hence on its representative;
//! - a reset `x = c` maps a region into one region (x gets fractional part
//!   0, the others keep theirs), the one of the reset representative;
//! - letting time pass from any valuation of a region visits the same
//!   sequence of regions: its *time successors*. From a region where some
//!   clock not above `M` has a zero fractional part, the next one is where
//!   those clocks have just become positive (every rank up by one, the
//!   zero ones to 1; a clock at `M` goes above it); otherwise the group with
//!   the largest fractional part reaches the next integer; a region where
//!   every clock is above `M` is its own successor.
//! - invariants are conjunctions of upper bounds, so a delay stays within
//!   them iff the region it ends in satisfies them (every region passed on
//!   the way lies below it). A delay into the next region is allowed iff that
//!   region satisfies the invariants; time passing within a region changes
//!   nothing observable.
//!
//! So a region is reachable in the region graph iff some valuation in it is
//! reachable in the dense semantics, and every state formula (locations,
//! data, clock atoms, `deadlock`: no discrete step now nor in any later
//! time successor the invariants allow, the same for all valuations of the
//! region) has one value on it.
//!
//! **Diagonals** (`x - y ≺ c`) are not decided by these regions once a clock
//! is above `M` (`x - y` may then be anything above `M - y`); networks and
//! properties with diagonals are checked against the grid oracle (closed
//! networks) or not at all.

/// The regions of `n` clocks with largest constant `M`.
#[derive(Clone, Copy, Debug)]
pub struct Regions {
    /// `S = n + 1`: units per time unit.
    s: i64,
    /// `M * S`: a clock above it is above `M`.
    top: i64,
}

impl Regions {
    pub fn new(clocks: usize, m: i64) -> Regions {
        let s = clocks as i64 + 1;
        Regions { s, top: m * s }
    }

    pub fn scale(&self) -> i64 {
        self.s
    }

    fn bounded(&self, v: i64) -> bool {
        v <= self.top
    }

    /// The time successor of a canonical representative (see the module
    /// comment); normalising the result makes it canonical again.
    pub fn delay(&self, clocks: &mut [i64]) {
        let s = self.s;
        if clocks.iter().any(|&v| self.bounded(v) && v % s == 0) {
            // Ranks r become r + 1 and zeros become 1: add one unit. The
            // largest rank is at most (bounded clocks - 1), so r + 1 < S.
            for v in clocks.iter_mut().filter(|v| self.bounded(**v)) {
                *v += 1;
            }
        } else if let Some(last) = clocks.iter().filter(|&&v| self.bounded(v)).map(|v| v % s).max() {
            for v in clocks.iter_mut().filter(|v| self.bounded(**v) && **v % s == last) {
                *v += s - last;
            }
        }
    }

    /// The canonical representative of the region of `clocks`: clocks above
    /// `M` at `M + 1`, the others' fractional parts replaced by their ranks.
    pub fn normalise(&self, clocks: &mut [i64]) {
        let s = self.s;
        let mut fractions: Vec<i64> = Vec::with_capacity(clocks.len());
        for v in clocks.iter_mut() {
            if !self.bounded(*v) {
                *v = self.top + s;
            } else if *v % s != 0 {
                fractions.push(*v % s);
            }
        }
        fractions.sort_unstable();
        fractions.dedup();
        for v in clocks.iter_mut().filter(|v| self.bounded(**v) && **v % s != 0) {
            let rank = fractions.binary_search(&(*v % s)).expect("collected above") as i64 + 1;
            *v += rank - *v % s;
        }
    }
}
