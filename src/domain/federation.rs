//! Federations: finite unions of convex sets (zones), for what one convex
//! set cannot express: deadlocked valuations, negated clock atoms, and the
//! backward fixpoints of the TCTL engine.
//!
//! # Mathematics
//!
//! A federation `F = Z_1 ∪ … ∪ Z_k` denotes the union of its members
//! (non-empty, of one dimension, not necessarily disjoint; none is `∅`).
//! Operations that distribute over union are applied member-wise: `∩` with a
//! zone, time elapse `F↑` and its inverse `F↓`, `free`, reset, and reset
//! predecessor `{v | v[x := c] ∈ F} = free_x(F ∩ {x = c})`. The others:
//!
//! - `F \ G` subtracts the members of G one after the other, each zone
//!   difference being exact (`Dbm::subtract`); the complement within a zone
//!   `I` is `{I} \ F`.
//! - `F ⊆ G` iff `F \ G = ∅` (exact, unlike the member-wise test
//!   [`Federation::covered_by_member`], which is only sufficient).
//! - [`Federation::reduce`] keeps the set and shrinks the list: a member
//!   included in another is dropped, and two members are replaced by their
//!   hull when `hull \ Z_1 \ Z_2 = ∅`, i.e. when their union is convex.
//! - The safe timed predecessor `pred_t(G, B)`: the valuations from which
//!   some delay `d >= 0` leads into G while no point of `[v, v + d]` is in
//!   B. For convex g and b (Cassez, David, Fleury, Larsen, Lime 2005),
//!   `pred_t(g, b) = (g↓ \ b↓) ∪ ((g ∩ b↓) \ b)↓`: either the ray never
//!   meets b, or it meets g at a point that lies before b on the ray
//!   (the ray meets b in an interval). Since the delays into a convex g
//!   form an interval and those avoiding one convex b a prefix of it,
//!   `pred_t(G, B) = ∪_g ∩_b pred_t(g, b)`.

use crate::domain::ClockSet;
use crate::domain::zone::{Bound, Dbm};

/// A union of non-empty sets of one dimension (not necessarily disjoint).
/// The empty list is the empty set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Federation<S = Dbm> {
    pub zones: Vec<S>,
}

impl<S: ClockSet> Default for Federation<S> {
    fn default() -> Self {
        Federation { zones: Vec::new() }
    }
}

impl<S: ClockSet> Federation<S> {
    pub fn empty() -> Self {
        Self::default()
    }

    pub fn from_zone(z: S) -> Self {
        Federation { zones: if z.is_empty() { Vec::new() } else { vec![z] } }
    }

    pub fn is_empty(&self) -> bool {
        self.zones.is_empty()
    }

    pub fn union(mut self, other: Federation<S>) -> Self {
        self.zones.extend(other.zones);
        self
    }

    /// Adds one member unless it is empty.
    pub fn push(&mut self, z: S) {
        if !z.is_empty() {
            self.zones.push(z);
        }
    }

    /// `self ∩ other`. Cost: |self|·|other| intersections.
    pub fn intersect(&self, other: &Federation<S>) -> Federation<S> {
        let mut zones = Vec::new();
        for a in &self.zones {
            for b in &other.zones {
                let mut z = a.clone();
                if z.intersect(b) {
                    zones.push(z);
                }
            }
        }
        Federation { zones }
    }

    /// `self ∩ z`.
    pub fn intersect_zone(&self, z: &S) -> Federation<S> {
        self.map(|a| a.intersect(z))
    }

    /// `self ∩ {x_i − x_j ≺ bound}`.
    pub fn constrain(&self, i: usize, j: usize, bound: Bound) -> Federation<S> {
        self.map(|a| a.constrain(i, j, bound))
    }

    /// `self \ z`, exactly (subtraction on each member).
    pub fn subtract_zone(&self, z: &S) -> Federation<S> {
        Federation { zones: self.zones.iter().flat_map(|a| a.subtract(z)).collect() }
    }

    /// `self \ other`.
    pub fn subtract(&self, other: &Federation<S>) -> Federation<S> {
        other.zones.iter().fold(self.clone(), |acc, z| if acc.is_empty() { acc } else { acc.subtract_zone(z) })
    }

    /// `within \ self`: the complement relative to a convex set (an
    /// invariant, or the universe).
    pub fn complement_within(&self, within: &S) -> Federation<S> {
        Federation::from_zone(within.clone()).subtract(self)
    }

    /// Exact inclusion `self ⊆ other`.
    pub fn is_subset_of(&self, other: &Federation<S>) -> bool {
        self.zones.iter().all(|z| {
            other.zones.iter().any(|o| z.is_subset_of(o)) || Federation::from_zone(z.clone()).subtract(other).is_empty()
        })
    }

    /// Exact equality of the sets (the lists may differ).
    pub fn same_set(&self, other: &Federation<S>) -> bool {
        self.is_subset_of(other) && other.is_subset_of(self)
    }

    /// Whether `z` lies inside one member: sufficient for `z ⊆ self`, not
    /// necessary.
    pub fn covered_by_member(&self, z: &S) -> bool {
        self.zones.iter().any(|o| z.is_subset_of(o))
    }

    /// The same set in fewer members: drops members included in another and
    /// merges pairs whose union is convex (see the module doc), until no
    /// pair of the members qualifies. Cost: O(k²) inclusion tests per
    /// change, plus one subtraction per candidate merge.
    pub fn reduce(&mut self) {
        let mut k = 0;
        while k < self.zones.len() {
            let mut merged = false;
            let mut l = 0;
            while l < self.zones.len() {
                if l == k {
                    l += 1;
                    continue;
                }
                let (a, b) = (&self.zones[k], &self.zones[l]);
                if b.is_subset_of(a) {
                    self.zones.swap_remove(l);
                    if k == self.zones.len() {
                        k = l;
                    }
                    continue;
                }
                if a.is_subset_of(b) {
                    self.zones.swap_remove(k);
                    merged = true;
                    break;
                }
                if let Some(h) = a.convex_union(b) {
                    self.zones[k] = h;
                    self.zones.swap_remove(l);
                    if k == self.zones.len() {
                        k = l;
                    }
                    merged = true;
                    break;
                }
                l += 1;
            }
            // A merge may now absorb members already passed: start over.
            k = if merged { 0 } else { k + 1 };
        }
    }

    /// Every valuation reachable from `self` by a delay: `self↑`.
    pub fn up(&self) -> Federation<S> {
        self.map(|a| {
            a.elapse();
            true
        })
    }

    /// Every valuation from which a delay leads into `self`: `self↓`.
    pub fn down(&self) -> Federation<S> {
        self.map(|a| {
            a.elapse_back();
            true
        })
    }

    /// Forgets clock `x`.
    pub fn free(&self, x: usize) -> Federation<S> {
        self.map(|a| {
            a.free(x);
            true
        })
    }

    /// The image of `x := value`.
    pub fn reset(&self, x: usize, value: i32) -> Federation<S> {
        self.map(|a| {
            a.reset(x, value);
            true
        })
    }

    /// The valuations whose image by `x := value` lies in `self`.
    pub fn reset_pre(&self, x: usize, value: i32) -> Federation<S> {
        self.map(|a| {
            let hit = a.constrain(x, 0, Bound::le(value)) && a.constrain(0, x, Bound::le(-value));
            a.free(x);
            hit
        })
    }

    /// The safe timed predecessor `pred_t(self, avoid)` (module doc).
    pub fn pred_t(&self, avoid: &Federation<S>) -> Federation<S> {
        let mut out = Federation::empty();
        for g in &self.zones {
            let mut acc = Federation::from_zone(g.clone()).down();
            for b in &avoid.zones {
                if acc.is_empty() {
                    break;
                }
                acc = acc.intersect(&pred_t_convex(g, b));
            }
            out.zones.extend(acc.zones);
        }
        out
    }

    /// Applies `f` to a copy of each member, keeping those it leaves
    /// non-empty (`f` returns false or empties the member to drop it).
    fn map(&self, mut f: impl FnMut(&mut S) -> bool) -> Federation<S> {
        let mut zones = Vec::with_capacity(self.zones.len());
        for a in &self.zones {
            let mut z = a.clone();
            if f(&mut z) && !z.is_empty() {
                zones.push(z);
            }
        }
        Federation { zones }
    }
}

/// `pred_t(g, b) = (g↓ \ b↓) ∪ ((g ∩ b↓) \ b)↓` for convex g and b.
fn pred_t_convex<S: ClockSet>(g: &S, b: &S) -> Federation<S> {
    let mut g_down = g.clone();
    g_down.elapse_back();
    let mut b_down = b.clone();
    b_down.elapse_back();
    let mut out = Federation { zones: g_down.subtract(&b_down) };
    let mut before = g.clone();
    if before.intersect(&b_down) {
        for mut z in before.subtract(b) {
            z.elapse_back();
            out.zones.push(z);
        }
    }
    out
}

impl Federation<Dbm> {
    /// The same set with `extra` free clocks appended (`F × ℝ≥0^extra`).
    pub fn with_clocks_appended(&self, extra: usize) -> Federation<Dbm> {
        Federation { zones: self.zones.iter().map(|z| z.with_clocks_appended(extra)).collect() }
    }

    /// The projection onto the first `dim` clocks.
    pub fn projected_to(&self, dim: usize) -> Federation<Dbm> {
        Federation { zones: self.zones.iter().map(|z| z.projected_to(dim)).collect() }
    }

    /// Whether the valuation `point / denominator` lies in some member.
    pub fn contains_point(&self, point: &[i64], denominator: i64) -> bool {
        self.zones.iter().any(|z| z.contains_point(point, denominator))
    }
}
