//! Symbolic sets of continuous valuations, behind one trait the semantics
//! and the engines are generic over: `zone` (DBMs) and `poly` (exact
//! rational polyhedra, which also have the linear verbs of hybrid automata)
//! implement it. `federation` builds unions of any of them.

pub mod federation;
pub mod poly;
pub mod zone;

use std::fmt::Debug;
use std::hash::{Hash, Hasher};

use poly::Q;
use zone::{Bound, Dbm, MinimalDbm};

/// A convex set of valuations of clocks `x_1 .. x_{dim-1}` (`x_0` is the
/// reference, always 0), with the verbs forward exploration needs. In-place
/// operations return whether the set is still non-empty.
pub trait ClockSet: Clone + Eq + Hash + Debug {
    /// Every valuation with all clocks `>= 0`.
    fn universe(dim: usize) -> Self;
    /// All clocks 0.
    fn zero(dim: usize) -> Self;
    fn dim(&self) -> usize;
    fn is_empty(&self) -> bool;
    fn is_subset_of(&self, other: &Self) -> bool;
    /// Adds `x_i - x_j ≺ bound`.
    fn constrain(&mut self, i: usize, j: usize, bound: Bound) -> bool;
    fn intersect(&mut self, other: &Self) -> bool;
    /// Time elapse: every valuation reachable by a delay.
    fn elapse(&mut self);
    /// Time elapse backwards: every valuation from which a delay leads in.
    fn elapse_back(&mut self);
    /// `x := value`.
    fn reset(&mut self, x: usize, value: i32);
    /// Forgets `x` (any value `>= 0`).
    fn free(&mut self, x: usize);
    /// `self \ other` as disjoint non-empty sets.
    fn subtract(&self, other: &Self) -> Vec<Self>;
    /// A finite abstraction for termination, given per-clock lower and upper
    /// bounds (slot `k - 1` is clock `k`); a no-op where none is needed.
    fn extrapolate(&mut self, lower: &[i32], upper: &[i32]);
    /// Whether every valuation of `self` is simulated by one of `other`
    /// under the LU bounds; at least inclusion.
    fn simulated_by(&self, other: &Self, lower: &[i32], upper: &[i32]) -> bool;
    /// A hash shared by sets that simulate each other both ways under the
    /// LU bounds (the liveness engine buckets its nodes by it, see
    /// `engine::liveness::nodes`); the same for all where the domain has
    /// none.
    fn lu_signature(&self, _lower: &[i32], _upper: &[i32]) -> u64 {
        0
    }
    /// A set of this kind containing every valuation LU-simulated by one of
    /// this set (its aLU abstraction) under the LU bounds, where the domain
    /// computes one; `None`: it does not.
    fn alu_cover(&self, _lower: &[i32], _upper: &[i32]) -> Option<Self> {
        None
    }
    /// The union of both as one set, when it is convex: federations merge
    /// such members. `None` when it is not, or where the domain cannot
    /// tell (no merging).
    fn convex_union(&self, _other: &Self) -> Option<Self> {
        None
    }
    /// What [`ClockSet::key`] gives.
    type Key: Ord + Debug;
    /// A canonical key for sorting (same set, same key; different sets,
    /// different keys).
    fn key(&self) -> Self::Key;
    /// Heap bytes held, for memory budgets.
    fn heap_bytes(&self) -> usize;

    // How the passed list keeps a set (`engine::store`): packed, compared
    // with new sets as packed, unpacked on demand.

    /// What the passed list keeps of a set: same set, same packing.
    type Packed: Eq + Hash + Debug;
    fn pack(&self) -> Self::Packed;
    fn unpack(packed: &Self::Packed) -> Self;
    /// [`ClockSet::unpack`] into `out`, reusing its buffers.
    fn unpack_into(packed: &Self::Packed, out: &mut Self);
    /// Heap bytes a packed set holds.
    fn packed_bytes(packed: &Self::Packed) -> usize;
    /// How `self` compares with the packed `old`: by inclusion, or by the
    /// LU simulation (`simulated_by`) when `lu` gives the bounds.
    /// [`Against::Covered`] when `old` covers `self`, else
    /// [`Against::Covers`] when `self` covers `old`. `scratch` keeps an
    /// unpacked set between calls.
    fn against(&self, old: &Self::Packed, lu: Option<(&[i32], &[i32])>, scratch: &mut Option<Self>) -> Against;
    /// [`ClockSet::against`] with `old` whole.
    fn against_whole(&self, old: &Self, lu: Option<(&[i32], &[i32])>) -> Against {
        // The simulation alone: inclusion implies it, and testing that
        // first costs more on the sets that neither includes (the common
        // case) than it saves on the others.
        let within = |a: &Self, b: &Self| match lu {
            Some((lower, upper)) => a.simulated_by(b, lower, upper),
            None => a.is_subset_of(b),
        };
        if within(self, old) {
            Against::Covered
        } else if within(old, self) {
            Against::Covers
        } else {
            Against::Neither
        }
    }

    // The linear verbs of hybrid automata (network::linear): variables are
    // numbered from 1 like clocks, none is assumed non-negative, and terms
    // are `(variable, coefficient)`. Only a domain with `LINEAR` has them;
    // `engine::check` explores linear networks in such a domain only.

    /// Whether the linear verbs below exist.
    const LINEAR: bool = false;
    /// Every valuation with `lo <= x_k <= hi` for `bounds[k - 1] = (lo, hi)`.
    fn boxed(_bounds: &[(Q, Q)]) -> Self {
        no_linear::<Self>()
    }
    /// Every valuation of `dim - 1` variables, of any sign.
    fn space(_dim: usize) -> Self {
        no_linear::<Self>()
    }
    /// Adds `Σ a_k·x_k < rhs` (`<=` unless `strict`).
    fn constrain_linear(&mut self, _terms: &[(u32, i64)], _strict: bool, _rhs: &Q) -> bool {
        no_linear::<Self>()
    }
    /// Time elapse (or its inverse) where variable `k` moves at a rate
    /// within `rates[k - 1] = (lo, hi)`.
    fn elapse_rates(&mut self, _rates: &[(Q, Q)], _backwards: bool) {
        no_linear::<Self>()
    }
    /// `x := Σ a_k·x_k + constant` (every term read before the write), or
    /// with `pre`, its pre-image.
    fn assign_linear(&mut self, _x: usize, _terms: &[(u32, i64)], _constant: &Q, _pre: bool) {
        no_linear::<Self>()
    }
}

/// How a set compares with a stored one ([`ClockSet::against`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Against {
    /// The stored set covers it.
    Covered,
    /// It covers the stored set (and is not covered by it).
    Covers,
    Neither,
}

/// `old` unpacked into `scratch`, unless `done` says it already is.
fn unpacked<'a>(old: &MinimalDbm, scratch: &'a mut Option<Dbm>, done: &mut bool) -> &'a Dbm {
    let s = scratch.get_or_insert_with(|| Dbm::universe(old.dim()));
    if !*done {
        old.unpack(s);
        *done = true;
    }
    s
}

/// The linear verbs called on a domain without them: a routing bug.
fn no_linear<S>() -> ! {
    unreachable!("{} has no linear verbs; linear networks are explored on polyhedra", std::any::type_name::<S>())
}

impl ClockSet for Dbm {
    fn universe(dim: usize) -> Self {
        Dbm::universe(dim)
    }
    fn zero(dim: usize) -> Self {
        Dbm::zero(dim)
    }
    fn dim(&self) -> usize {
        Dbm::dim(self)
    }
    fn is_empty(&self) -> bool {
        Dbm::is_empty(self)
    }
    fn is_subset_of(&self, other: &Self) -> bool {
        Dbm::is_subset_of(self, other)
    }
    fn constrain(&mut self, i: usize, j: usize, bound: Bound) -> bool {
        Dbm::constrain(self, i, j, bound)
    }
    fn intersect(&mut self, other: &Self) -> bool {
        Dbm::intersect(self, other)
    }
    fn elapse(&mut self) {
        self.up()
    }
    fn elapse_back(&mut self) {
        self.down()
    }
    fn reset(&mut self, x: usize, value: i32) {
        Dbm::reset(self, x, value)
    }
    fn free(&mut self, x: usize) {
        Dbm::free(self, x)
    }
    fn subtract(&self, other: &Self) -> Vec<Self> {
        Dbm::subtract(self, other)
    }
    fn extrapolate(&mut self, lower: &[i32], upper: &[i32]) {
        self.extrapolate_lu_plus(lower, upper)
    }
    fn simulated_by(&self, other: &Self, lower: &[i32], upper: &[i32]) -> bool {
        self.alu_subsumed(other, lower, upper)
    }
    fn lu_signature(&self, lower: &[i32], upper: &[i32]) -> u64 {
        // Per clock, its lower bound where that allows values up to
        // min(L, U): `engine::liveness::nodes` says why simulation keeps it.
        let mut h = rustc_hash::FxHasher::default();
        for (k, (&l, &u)) in lower.iter().zip(upper).enumerate() {
            let b = self.bound(0, k + 1);
            let low = l != zone::NO_BOUND && u != zone::NO_BOUND && b >= Bound::le(-l.min(u));
            (if low { b } else { Bound::INF }).hash(&mut h);
        }
        h.finish()
    }
    fn alu_cover(&self, lower: &[i32], upper: &[i32]) -> Option<Self> {
        Some(Dbm::alu_cover(self, lower, upper))
    }
    fn convex_union(&self, other: &Self) -> Option<Self> {
        // Convex iff the hull holds nothing outside both.
        let h = Dbm::hull(self, other);
        h.difference_within(self, other).then_some(h)
    }
    type Key = Vec<i32>;
    fn key(&self) -> Vec<i32> {
        let d = Dbm::dim(self);
        (0..d * d).map(|k| self.bound(k / d, k % d).raw()).collect()
    }
    fn heap_bytes(&self) -> usize {
        Dbm::dim(self).pow(2) * std::mem::size_of::<Bound>()
    }
    type Packed = MinimalDbm;
    fn pack(&self) -> MinimalDbm {
        MinimalDbm::new(self)
    }
    fn unpack(packed: &MinimalDbm) -> Self {
        let mut out = Dbm::universe(packed.dim());
        packed.unpack(&mut out);
        out
    }
    fn unpack_into(packed: &MinimalDbm, out: &mut Self) {
        packed.unpack(out)
    }
    fn packed_bytes(packed: &MinimalDbm) -> usize {
        packed.heap_bytes()
    }
    fn against(&self, old: &MinimalDbm, lu: Option<(&[i32], &[i32])>, scratch: &mut Option<Self>) -> Against {
        if self.is_empty() {
            return Against::Covered;
        }
        if old.is_empty() {
            return Against::Covers;
        }
        // The tests that read the axes or the kept entries only come first;
        // `old` is unpacked (at most once) only when they cannot decide.
        let mut done = false;
        let (covered, covers) = match lu {
            None => {
                if old.includes(self) {
                    return Against::Covered;
                }
                (false, old.may_be_within(self) && unpacked(old, scratch, &mut done).is_subset_of(self))
            }
            Some((lower, upper)) => {
                let covered = !old.alu_axes_witness(self, false, lower, upper)
                    && (old.includes(self) || self.alu_subsumed(unpacked(old, scratch, &mut done), lower, upper));
                let covers = !covered
                    && !old.alu_axes_witness(self, true, lower, upper)
                    && unpacked(old, scratch, &mut done).alu_subsumed(self, lower, upper);
                (covered, covers)
            }
        };
        if covered {
            Against::Covered
        } else if covers {
            Against::Covers
        } else {
            Against::Neither
        }
    }
}
