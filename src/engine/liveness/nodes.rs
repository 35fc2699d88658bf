//! The nodes of the liveness engine's graph: symbolic states (and a phase),
//! identified by *aLU equivalence* under ExtraLU+, by equality on exact
//! zones.
//!
//! **Why aLU equivalence keeps cycles.** Write `a(Z)` for the aLU
//! abstraction of a zone with the bounds of its discrete state (the union
//! of the classes of the LU simulation `≼LU` that meet `Z`; Herbreteau,
//! Srivathsan, Walukiewicz, "Better abstractions for timed automata",
//! LICS 2012). Two states of one discrete state are the same node iff
//! `a(Z) = a(Z')`, tested as `Z ⊆ a(Z')` and `Z' ⊆ a(Z)`
//! ([`crate::domain::ClockSet::simulated_by`]). A node keeps the first zone
//! that reached it (its *representative*), and its successors are computed
//! from it. The graph so built is the aLU-abstract zone graph, whose nodes
//! are `(q, a(Z))` and whose edges go to `(q', a(post(a(Z))))`:
//! - `a(post(W)) = a(post(a(W)))` for every zone `W`: `⊆` as `W ⊆ a(W)`;
//!   `⊇` because `≼LU` is a time-abstract simulation (per-location bounds,
//!   Behrmann, Bouyer, Larsen, Pelánek 2006), so a valuation of `a(W)`,
//!   simulated by one of `W`, has successors simulated by successors of
//!   that one. So the successor class does not depend on the
//!   representative, and neither does whether a step is possible (a
//!   valuation of `W` able to take it has a simulating one in `W'`, and
//!   conversely, when `a(W) = a(W')`).
//! - ExtraLU+ does not change classes: `W ⊆ ExtraLU+(W) ⊆ a(W)`.
//! - The aLU-abstract zone graph has a reachable cycle through an
//!   accepting edge iff the automaton has a run with infinitely many
//!   accepting steps (Herbreteau, Srivathsan, Walukiewicz, "Efficient
//!   emptiness check for timed Büchi automata", CAV 2010 / FMSD 2012,
//!   Theorem 1, for any abstraction that is a union of classes of a
//!   time-abstract simulation, hence for aLU). Ticks are such steps (they
//!   are edges of the network extended with `z`, whose bounds are in the
//!   LU bounds), and the clock-free formulas of the phases depend on the
//!   discrete state only.
//!
//! Subsumption (a zone *included* in another's class) is still not used:
//! a cycle closed through a covering node need not exist.
//!
//! With exact zones (`--abstraction none`) nodes are equal zones: there
//! is no simulation to rely on (diagonal constraints).

//! **Finding a node.** Nodes are bucketed by discrete state, phase and a
//! *signature* of the zone that aLU-equivalent zones share, so a lookup
//! compares a zone with the few of its bucket only: for each clock `x`,
//! its lower bound in the zone when that allows values up to
//! `M = min(L(x), U(x))`, else nothing. Why they share it: let
//! `Z ⊆ a(Z')` and `v ∈ Z` with `v(x) <= M`; the `v' ∈ Z'` simulating it
//! has `v'(x) = v(x)` (`v'(x) < v(x)` would need `v'(x) > L(x)`,
//! `v'(x) > v(x)` would need `v(x) > U(x)`), so `Z'` reaches as low as `Z`
//! below `M`, and conversely. The signature only narrows the search: two
//! equivalent zones it told apart would be two nodes of one class, which
//! the argument above allows (each still has its class's successors).
//! Polyhedra under an abstraction (`--domain poly` on a timed network) have
//! no signature ([`ClockSet::lu_signature`]): their nodes share one bucket
//! per discrete state and phase. Exact sets (`--abstraction none`, linear
//! networks) are keyed by their hash, zones and polyhedra alike.

use std::hash::BuildHasher;

use indexmap::IndexMap;
use rustc_hash::FxBuildHasher;

use crate::domain::ClockSet;
use crate::domain::zone::Dbm;
use crate::semantics::{Abstraction, Discrete, ZoneGraph, ZoneState};

/// A bucket's key, borrowed, to look a bucket up without building its key.
#[derive(Hash)]
struct Key<'a>(&'a Discrete, bool, u64);

impl indexmap::Equivalent<(Discrete, bool, u64)> for Key<'_> {
    fn equivalent(&self, key: &(Discrete, bool, u64)) -> bool {
        *self.0 == key.0 && self.1 == key.1 && self.2 == key.2
    }
}

/// The node set.
pub struct Nodes<S = Dbm> {
    /// Each node's representative state and phase, by id.
    states: Vec<(ZoneState<S>, bool)>,
    /// The nodes of each discrete state, phase and signature.
    buckets: IndexMap<(Discrete, bool, u64), Vec<u32>, FxBuildHasher>,
}

/// The zone's signature (module doc), hashed; the whole zone on exact
/// zones. Loads the bounds of `s.discrete` into `zg`.
fn signature<S: ClockSet>(zg: &mut ZoneGraph<'_, S>, s: &ZoneState<S>) -> u64 {
    if zg.abstraction == Abstraction::None {
        return FxBuildHasher.hash_one(&s.zone);
    }
    zg.load_bounds(&s.discrete);
    s.zone.lu_signature(&zg.lower, &zg.upper)
}

impl<S> Default for Nodes<S> {
    fn default() -> Self {
        Nodes { states: Vec::new(), buckets: IndexMap::default() }
    }
}

impl<S: ClockSet> Nodes<S> {
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// The representative state and phase of node `n`.
    pub fn get(&self, n: u32) -> &(ZoneState<S>, bool) {
        &self.states[n as usize]
    }

    /// The node of `(s, phase)`, if there is one, with the signature of
    /// `s` (for [`Nodes::insert`]): the same zone under `--abstraction
    /// none`, else the same aLU class (bounds of `s.discrete`, loaded into
    /// `zg`).
    pub fn find(&self, zg: &mut ZoneGraph<'_, S>, s: &ZoneState<S>, phase: bool) -> Result<u32, u64> {
        let sig = signature(zg, s);
        let Some(ids) = self.buckets.get(&Key(&s.discrete, phase, sig)) else { return Err(sig) };
        if let Some(&n) = ids.iter().find(|&&n| self.states[n as usize].0.zone == s.zone) {
            return Ok(n);
        }
        if zg.abstraction == Abstraction::None {
            return Err(sig);
        }
        let (lower, upper) = (&zg.lower, &zg.upper);
        ids.iter()
            .copied()
            .find(|&n| {
                let other = &self.states[n as usize].0.zone;
                s.zone.simulated_by(other, lower, upper) && other.simulated_by(&s.zone, lower, upper)
            })
            .ok_or(sig)
    }

    /// Adds `(s, phase)` with signature `sig` as a new node (no node of it
    /// exists: see [`Nodes::find`]) and returns its id.
    pub fn insert(&mut self, s: ZoneState<S>, phase: bool, sig: u64) -> u32 {
        let id = self.states.len() as u32;
        match self.buckets.get_mut(&Key(&s.discrete, phase, sig)) {
            Some(ids) => ids.push(id),
            None => {
                self.buckets.insert((s.discrete.clone(), phase, sig), vec![id]);
            }
        }
        self.states.push((s, phase));
        id
    }
}
