//! Difference-bound matrices (DBMs): zones of clock valuations.
//!
//! # Mathematics
//!
//! **Zones.** Clocks `x_1 … x_n` take values in ℝ≥0; `x_0` is a reference
//! clock fixed at 0. A zone is a conjunction of constraints `x_i − x_j ≺ c`
//! with `≺ ∈ {<, <=}` and integer `c` (`x_i ≺ c` is `x_i − x_0 ≺ c`,
//! `c ≺ x_j` is `x_0 − x_j ≺ −c`).
//!
//! **Bounds** ([`Bound`]). The pair `(c, ≺)` is packed in one `i32` as
//! `(c << 1) | 1` for `<=` and `c << 1` for `<`. Then
//! `(c, <) < (c, <=) < (c + 1, <)` as integers, so a smaller integer is a
//! tighter bound and `min` of two bounds is their conjunction.
//! [`Bound::INF`] (`i32::MAX`) stands for `< ∞`, no constraint. Sums follow
//! path composition: `(a, ≺1) + (b, ≺2) = (a + b, <=` iff both are `<=)`,
//! with `∞` absorbing. Finite constants lie in
//! `[−(2^30 − 2), 2^30 − 2]`; the model format limits guard constants to
//! `|c| <= 2^28`, so the sum of two or three of them never leaves the
//! range. Longer sums (shortest paths through four or more maximal
//! constants) saturate instead of wrapping: to `∞` above, to
//! `(MIN_VALUE, <)` below. Both loosen the bound, so a zone can only grow,
//! and a negative cycle stays negative.
//!
//! **Matrix** ([`Dbm`]). `dim = n + 1`; entry `m[i][j]` bounds `x_i − x_j`,
//! stored row-major at `i * dim + j`. The zone of `m` is
//! `⟦m⟧ = { v ∈ ℝ≥0ⁿ | v_0 = 0, v_i − v_j ≺_ij c_ij for all i, j }`.
//! Reading `m` as a weighted graph on `0 … n` (edge `i → j` of weight
//! `m[i][j]`), every path from i to j yields a valid bound on `x_i − x_j`.
//!
//! **Canonical form.** `m` is canonical when it is closed under the
//! triangle inequality, `m[i][j] <= m[i][k] + m[k][j]` for all i, j, k
//! (all-pairs shortest paths, computed by Floyd–Warshall in
//! [`Dbm::close`]), its diagonal is `(0, <=)` and row 0 is at most
//! `(0, <=)` (clocks are non-negative). Each entry is then the tightest
//! bound the zone implies, so a non-empty zone has exactly one canonical
//! DBM: equality and hashing compare entries, and inclusion of canonical
//! DBMs is entry-wise `<=`.
//!
//! **Emptiness.** `⟦m⟧ = ∅` iff the graph has a negative cycle iff closure
//! drives some diagonal entry below `(0, <=)`. An operation that finds
//! emptiness sets `m[0][0] = (0, <)` and stops; the other entries are then
//! unspecified. [`Dbm::is_empty`] reads `m[0][0]` only, operations on an
//! empty DBM keep it empty, and all empty DBMs of one `dim` are equal.
//!
//! **Invariant.** Every operation takes and returns DBMs that are canonical
//! or marked empty, except [`Dbm::tighten`], which batches constraints
//! until a `close`. `debug_assert!`s check ([`Dbm::is_canonical`]) what each
//! operation returns, not what it takes: the operand was some operation's
//! result, and an O(dim³) check on every O(dim) verb and comparison made it
//! most of a debug build's time (tests/dbm_ops.rs checks each verb's result
//! against its definition).
//!
//! **Per-clock slices** (a point, LU bounds, clock names) have `dim − 1`
//! entries: slot `k − 1` describes DBM index `k`. The reference clock has
//! `L_0 = U_0 = 0`. An LU bound of [`NO_BOUND`] (−∞) means the clock is
//! never compared from that side, so its value on that side is irrelevant.

mod bound;
mod dbm;
mod display;
mod extrapolation;
mod hull;
mod minimal;
mod resize;
mod simulation;
mod subtract;

pub use bound::Bound;
pub use dbm::Dbm;
pub use display::DbmDisplay;
pub use extrapolation::NO_BOUND;
pub use minimal::MinimalDbm;
