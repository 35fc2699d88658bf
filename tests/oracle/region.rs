//! Clock regions (Alur–Dill), exact for timed automata with strict and
//! non-strict bounds alike, extended with *difference classes* so that they
//! are exact with diagonal constraints (`x - y ≺ c`, strict or not) too.
//!
//! # The region of a valuation
//!
//! With `M` the region constant (below), two valuations are
//! region-equivalent when every clock is above `M` in both or has the same
//! integer part in both, and the clocks not above `M` have zero fractional
//! parts in both or in neither, and their fractional parts are ordered alike
//! (equal ones grouped). A region is stored as its *canonical
//! representative*, in units of `1/S` with `S = n + 1` for `n` clocks: each
//! clock not above `M` keeps its integer part and gets the fractional part
//! `r/S`, where `r` is 0 for a zero fractional part and the rank (1, 2, ...)
//! of its group among the distinct non-zero fractional parts otherwise (at
//! most `n` groups, so `r < S`); a clock above `M` is `M + 1`. The
//! representative lies in its region.
//!
//! # Difference classes
//!
//! Let `D` be the largest `|c|` a diagonal constraint compares with (over
//! the data ranges, in guards, invariants and the asked properties). For
//! every pair of distinct clocks `a < b` that some diagonal relates, the
//! state also keeps the class of `d = x_a - x_b`, on a doubled scale: `2k`
//! when `d = k` for an integer `k` in `[-D, D]`, `2k + 1` when
//! `k < d < k + 1` for `-D <= k < D`, `-2D - 1` when `d < -D` and `2D + 1`
//! when `d > D`. A class `e` decides `x_a - x_b ≺ c` for every integer
//! `|c| <= D` as `e ≺ 2c` (for `e = 2k`: `k ≺ c`; for an odd `e = 2k + 1`,
//! `k < d < k + 1`, both `d < c` and `d <= c` mean `k + 1 <= c`, i.e.
//! `e < 2c`, and `e <= 2c` is the same for an odd `e`; the two clamped
//! classes are odd and decide every such `c` as the difference does), and
//! `x_b - x_a ≺ c` through the class `-e`.
//!
//! The region constant is `M = max(M0, D + R)`, `M0` the largest constant a
//! non-diagonal constraint compares a clock with and `R` the largest reset
//! value (both over the data ranges; resets are constants here), so that a
//! reset never needs more than the region knows:
//! - a delay adds the same amount to every clock: every difference, hence
//!   every class, is unchanged;
//! - a step resetting `x_a := r` but not `x_b` gives `d = r - x_b`: when
//!   `x_b <= M` the region knows `x_b`'s integer part `k` and whether its
//!   fractional part is zero, and `d` is `r - k` or lies strictly between
//!   `r - k - 1` and `r - k`; when `x_b > M`, `d < r - M <= R - M <= -D`,
//!   below every constant. Symmetrically when `x_b` is reset and `x_a` not
//!   (`d > D` when `x_a > M`). Resetting both gives the integer `r - r'`;
//!   resetting neither keeps the class.
//!
//! So the classes after a step are a function of the classes and the region
//! before it and of the step; they are NOT read off the representative
//! (whose clocks above `M` are all at `M + 1`, so `x - y` there says
//! nothing once one of them is above `M`; below `M` the representative
//! keeps every difference's class, as the ranks keep the order of the
//! fractional parts, but the oracle never relies on that).
//!
//! # Why it is exact
//!
//! Call two valuations equivalent when they are region-equivalent (for `M`)
//! and every kept pair has the same class in both. This is a time-abstract
//! bisimulation for timed automata whose constants are integers, with `M`
//! and `D` as above (data are explicit, so a data-dependent bound is a
//! constant in each state):
//! - it decides every constraint: `x ≺ c` with `|c| <= M`, `≺` in
//!   `< <= == >= >` (below `M` the integer part and the zero-ness of the
//!   fractional part settle it, above `M` every such constraint is
//!   constant), and `x - y ≺ c` with `|c| <= D` by the class. So guards,
//!   invariants and property atoms, diagonal or not, have one value on an
//!   equivalence class, and the oracle evaluates them on the representative
//!   (non-diagonal) and the classes (diagonal);
//! - a reset `x = c` maps a region into one region (x gets fractional part
//!   0, the others keep theirs), the one of the reset representative, and
//!   the classes of the result are determined as shown above;
//! - letting time pass from any valuation of a region visits the same
//!   sequence of regions: its *time successors*, while every class stays.
//!   From a region where some clock not above `M` has a zero fractional
//!   part, the next one is where those clocks have just become positive
//!   (every rank up by one, the zero ones to 1; a clock at `M` goes above
//!   it); otherwise the group with the largest fractional part reaches the
//!   next integer; a region where every clock is above `M` is its own
//!   successor;
//! - the valuations satisfying an invariant form a convex set, so a delay
//!   stays within it iff its two ends do: a delay into the next region is
//!   allowed iff that region (with the unchanged classes) satisfies the
//!   invariants. (The front end admits only upper bounds on single clocks
//!   in invariants; a diagonal one would be read from the unchanged
//!   classes, constant during a delay, as it is in the dense semantics.)
//!   Time passing within a region changes nothing observable.
//!
//! So a (region, classes) state is reachable in the graph explored here iff
//! some valuation of it is reachable in the dense semantics, and every state
//! formula (locations, data, clock atoms, diagonal or not, `deadlock`: no
//! discrete step now nor in any later time successor the invariants allow,
//! the same for all valuations of the equivalence class since enabledness
//! of each step, target invariants included, is) has one value on it.
//! Without diagonals no pair is kept, `M = M0`, and this is the plain
//! region graph.
//!
//! # The tick clock (liveness)
//!
//! For the liveness oracle (`live.rs`) the representative may end with one
//! more clock `t` (number `n + 1` for `n` model clocks; `S = n + 2` then)
//! with its own constant 1: it is above 1 (stored as 2) or has its integer
//! part and its place in the order of the fractional parts like any clock
//! (Alur–Dill regions with one constant per clock). Nothing of the model
//! reads it; the oracle's tick step (`tick`, when `t >= 1`) sets it to 0.
//! The argument above holds clock by clock, each clock compared with
//! constants up to its own (`t` only with 1, in no diagonal, reset to 0
//! only), so regions stay a time-abstract bisimulation of the network plus
//! `t` and its ticks; `t` changes no constraint, reset or class of the
//! model's clocks, only splits regions further.

/// The regions of `n` clocks with region constant `M`, and the difference
/// classes of the pairs some diagonal relates. The clock part of a state is
/// the `n` representative values (then the tick clock's, if any) followed
/// by one class per kept pair.
#[derive(Clone, Debug)]
pub struct Regions {
    /// The clocks of the representative: the model's, then the tick clock.
    n: usize,
    /// The model's clocks (numbers `1..=model`).
    model: usize,
    /// With the tick clock `t` (number `model + 1`, constant 1).
    ticked: bool,
    /// `S = n + 1`: units per time unit.
    s: i64,
    /// `M * S`: a model clock above it is above `M`.
    top: i64,
    /// `2D`: the classes are in `-2D - 1 ..= 2D + 1`.
    d2: i64,
    /// The kept pairs `(a, b)`, `a < b` (clock numbers from 1).
    pairs: Vec<(u32, u32)>,
    /// `slot[a * (n + 1) + b]`: the position of the pair `(a, b)` in `pairs`.
    slot: Vec<u32>,
}

const NO_SLOT: u32 = u32::MAX;

impl Regions {
    /// `m0`: the largest non-diagonal constant; `diagonals`: the pairs
    /// `(i, j)` of the diagonal constraints; `d`: their largest `|c|`;
    /// `max_reset`: the largest reset value; `ticked`: one more clock, the
    /// tick clock of the liveness oracle (see the module comment).
    pub fn new(clocks: usize, m0: i64, diagonals: &[(u32, u32)], d: i64, max_reset: i64, ticked: bool) -> Regions {
        let n = clocks + usize::from(ticked);
        let s = n as i64 + 1;
        let mut pairs: Vec<(u32, u32)> =
            diagonals.iter().filter(|(i, j)| i != j).map(|&(i, j)| (i.min(j), i.max(j))).collect();
        pairs.sort_unstable();
        pairs.dedup();
        let m = if pairs.is_empty() { m0 } else { m0.max(d + max_reset) };
        let mut slot = vec![NO_SLOT; (clocks + 1) * (clocks + 1)];
        for (k, &(a, b)) in pairs.iter().enumerate() {
            slot[a as usize * (clocks + 1) + b as usize] = k as u32;
        }
        Regions { n, model: clocks, ticked, s, top: m * s, d2: 2 * d, pairs, slot }
    }

    /// `M`, the region constant.
    pub fn constant(&self) -> i64 {
        self.top / self.s
    }

    pub fn scale(&self) -> i64 {
        self.s
    }

    /// The length of the clock part: clocks and classes.
    pub fn width(&self) -> usize {
        self.n + self.pairs.len()
    }

    /// A model clock's value is not above `M`.
    fn bounded(&self, v: i64) -> bool {
        v <= self.top
    }

    /// Clock `i` of the representative (0-based) is not above its constant:
    /// `M` for the model's clocks, 1 for the tick clock.
    fn bounded_at(&self, i: usize, v: i64) -> bool {
        if i < self.model { v <= self.top } else { v <= self.s }
    }

    /// What a clock above its constant is stored as: the constant + 1.
    fn cap_at(&self, i: usize) -> i64 {
        if i < self.model { self.top + self.s } else { 2 * self.s }
    }

    /// The tick clock is at least 1: a tick is allowed.
    pub fn tick_ready(&self, part: &[i64]) -> bool {
        self.ticked && part[self.model] >= self.s
    }

    /// A tick: `t := 0`, nothing else (the result is canonical again).
    pub fn tick(&self, part: &mut [i64]) {
        assert!(self.tick_ready(part), "oracle: a tick before t >= 1");
        part[self.model] = 0;
        self.normalise(part);
    }

    /// With the tick clock.
    pub fn ticked(&self) -> bool {
        self.ticked
    }

    /// The tick clock's value (in units), if there is one.
    pub fn tick_clock(&self, part: &[i64]) -> Option<i64> {
        self.ticked.then(|| part[self.model])
    }

    /// The class of `x_a - x_b`, kept (`a != b`, both clocks).
    fn class(&self, part: &[i64], a: u32, b: u32) -> i64 {
        let (lo, hi, sign) = if a < b { (a, b, 1) } else { (b, a, -1) };
        let k = self.slot[lo as usize * (self.model + 1) + hi as usize];
        assert!(k != NO_SLOT, "oracle: a diagonal on a pair of clocks that is not kept");
        sign * part[self.n + k as usize]
    }

    /// `x_i - x_j ≺ b` (`b` in time units, `i` or `j` 0 for the reference
    /// clock): by the class for a diagonal, by the representative otherwise.
    pub fn holds(&self, part: &[i64], i: u32, j: u32, strict: bool, b: i64) -> bool {
        let (lhs, rhs) = if i != 0 && j != 0 {
            if i == j { (0, b) } else { (self.class(part, i, j), 2 * b) }
        } else {
            let val = |c: u32| if c == 0 { 0 } else { part[c as usize - 1] };
            (val(i) - val(j), b * self.s)
        };
        if strict { lhs < rhs } else { lhs <= rhs }
    }

    /// A clock's value on the doubled scale of the classes: `2k` at the
    /// integer `k`, `2k + 1` strictly between `k` and `k + 1`; `None` above
    /// `M`.
    fn doubled(&self, v: i64) -> Option<i64> {
        self.bounded(v).then(|| 2 * (v / self.s) + i64::from(v % self.s != 0))
    }

    /// The classes after a step that reset the clocks `reset` (numbers from
    /// 1): `part` holds the source representative with the reset clocks at
    /// their (integer) new values, not normalised yet.
    pub fn after_resets(&self, part: &mut [i64], reset: &[u32]) {
        let hi = self.d2 + 1;
        for (k, &(a, b)) in self.pairs.iter().enumerate() {
            let (ra, rb) = (reset.contains(&a), reset.contains(&b));
            if !ra && !rb {
                continue;
            }
            let (va, vb) = (part[a as usize - 1], part[b as usize - 1]);
            // At least one of them is reset, at most `R <= M`: bounded.
            let e = match (self.doubled(va), self.doubled(vb)) {
                (Some(x), Some(y)) => (x - y).clamp(-hi, hi),
                // x_a above M, x_b reset to r: x_a - r > M - R >= D.
                (None, _) => hi,
                (_, None) => -hi,
            };
            part[self.n + k] = e;
        }
    }

    /// The time successor of a canonical representative (see the module
    /// comment); normalising the result makes it canonical again. The
    /// classes do not change.
    pub fn delay(&self, part: &mut [i64]) {
        let s = self.s;
        let clocks = &mut part[..self.n];
        if clocks.iter().enumerate().any(|(i, &v)| self.bounded_at(i, v) && v % s == 0) {
            // Ranks r become r + 1 and zeros become 1: add one unit. The
            // largest rank is at most (bounded clocks - 1), so r + 1 < S.
            for (i, v) in clocks.iter_mut().enumerate() {
                if self.bounded_at(i, *v) {
                    *v += 1;
                }
            }
        } else if let Some(last) =
            clocks.iter().enumerate().filter(|&(i, &v)| self.bounded_at(i, v)).map(|(_, v)| v % s).max()
        {
            for (i, v) in clocks.iter_mut().enumerate() {
                if self.bounded_at(i, *v) && *v % s == last {
                    *v += s - last;
                }
            }
        }
    }

    /// The canonical representative of the region of the clocks: clocks
    /// above `M` at `M + 1`, the others' fractional parts replaced by their
    /// ranks. The classes are kept as they are.
    pub fn normalise(&self, part: &mut [i64]) {
        let s = self.s;
        let clocks = &mut part[..self.n];
        let mut fractions: Vec<i64> = Vec::with_capacity(clocks.len());
        for (i, v) in clocks.iter_mut().enumerate() {
            if !self.bounded_at(i, *v) {
                *v = self.cap_at(i);
            } else if *v % s != 0 {
                fractions.push(*v % s);
            }
        }
        fractions.sort_unstable();
        fractions.dedup();
        for (i, v) in clocks.iter_mut().enumerate() {
            if self.bounded_at(i, *v) && *v % s != 0 {
                let rank = fractions.binary_search(&(*v % s)).expect("collected above") as i64 + 1;
                *v += rank - *v % s;
            }
        }
    }

    /// The classes, for messages: `x_a - x_b` as `= k`, `in (k, k+1)`,
    /// `< -D` or `> D`, with `name(a)` naming clock `a`.
    pub fn show_classes(&self, part: &[i64], name: impl Fn(u32) -> String) -> Vec<String> {
        let hi = self.d2 + 1;
        self.pairs
            .iter()
            .enumerate()
            .map(|(k, &(a, b))| {
                let e = part[self.n + k];
                let what = if e == hi {
                    format!("> {}", self.d2 / 2)
                } else if e == -hi {
                    format!("< {}", -self.d2 / 2)
                } else if e % 2 == 0 {
                    format!("= {}", e / 2)
                } else {
                    let k = (e - 1).div_euclid(2);
                    format!("in ({k}, {})", k + 1)
                };
                format!("{}-{} {what}", name(a), name(b))
            })
            .collect()
    }
}
