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
//! Subsumption (a zone *included* in another's class) is not used here:
//! a cycle closed through a covering node need not exist. The one sound
//! case, a finished node that reaches nothing accepting, is
//! [`super::cover`]'s.
//!
//! With exact zones (`--abstraction none`) nodes are equal zones: there
//! is no simulation to rely on (diagonal constraints).
//!
//! **Classes and phases.** The states are kept per *class* (its
//! representative), and a node is a class in a phase. When both phases
//! treat `z` alike (no ticks, or ticks in both), a class of phase 1 is one
//! of phase 0 (same discrete state, same aLU class), and its successor
//! classes, computed from its representative, are the same in both phases
//! by the argument above; phase 1 only keeps those where `stay` holds. So
//! the phases share classes, and the product computes each shared class's
//! successors once ([`super::product`]). When they treat `z` differently
//! (ticks in phase 1 only), their classes are apart.

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

use indexmap::IndexSet;
use rustc_hash::{FxBuildHasher, FxHashMap};

use crate::domain::ClockSet;
use crate::domain::zone::Dbm;
use crate::semantics::{Abstraction, Discrete, ZoneGraph, ZoneState};

/// No node (of a class, in a phase), no next class in a bucket.
const NONE: u32 = u32::MAX;

/// A class: its representative state, as ids of its discrete state and
/// zone, and the next class of its bucket.
#[derive(Clone, Copy)]
struct Class {
    discrete: u32,
    zone: u32,
    next: u32,
}

/// The node set. Discrete states and zones are each stored once and
/// classes refer to them (zones repeat across discrete states), so a class
/// costs a few integers beyond what is new in it: the search's time goes
/// to memory as much as to instructions.
pub struct Nodes<S = Dbm> {
    discretes: IndexSet<Discrete, FxBuildHasher>,
    zones: IndexSet<S, FxBuildHasher>,
    classes: Vec<Class>,
    /// Per class, its node in phase 0 and in phase 1, if any.
    of_class: Vec<[u32; 2]>,
    /// Each node's class and phase, by id.
    nodes: Vec<(u32, bool)>,
    /// The first class of each discrete state (by id), phase (always phase
    /// 0 when the phases share classes) and signature; the others follow
    /// by [`Class::next`].
    buckets: FxHashMap<(u32, bool, u64), u32>,
    /// Whether the phases share classes (they treat `z` alike).
    shared: bool,
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

/// Where a state not found belongs: its signature, and its discrete
/// state's id if that is stored already ([`Nodes::add_class`]).
pub struct Missing {
    sig: u64,
    discrete: Option<u32>,
}

impl<S: ClockSet> Nodes<S> {
    /// An empty node set; `shared` when both phases have the same states
    /// (the same treatment of `z`), so that they share classes.
    pub fn new(shared: bool) -> Self {
        Nodes {
            discretes: IndexSet::default(),
            zones: IndexSet::default(),
            classes: Vec::new(),
            of_class: Vec::new(),
            nodes: Vec::new(),
            buckets: FxHashMap::default(),
            shared,
        }
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether node `n` is in phase 1.
    pub fn phase(&self, n: u32) -> bool {
        self.nodes[n as usize].1
    }

    /// The class of node `n`.
    pub fn class(&self, n: u32) -> u32 {
        self.nodes[n as usize].0
    }

    /// The discrete state of class `c`.
    pub fn class_discrete(&self, c: u32) -> &Discrete {
        &self.discretes[self.classes[c as usize].discrete as usize]
    }

    /// The id of the discrete state of class `c` (ids are dense from 0).
    pub fn discrete_id(&self, c: u32) -> u32 {
        self.classes[c as usize].discrete
    }

    /// The representative zone of class `c`.
    pub fn class_zone(&self, c: u32) -> &S {
        &self.zones[self.classes[c as usize].zone as usize]
    }

    /// The discrete state of node `n`.
    pub fn discrete(&self, n: u32) -> &Discrete {
        self.class_discrete(self.class(n))
    }

    /// The representative state of node `n`, copied.
    pub fn state(&self, n: u32) -> ZoneState<S> {
        let c = self.class(n);
        ZoneState { discrete: self.class_discrete(c).clone(), zone: self.class_zone(c).clone() }
    }

    /// The representative state of class `c`, copied into `out` (reusing
    /// its buffers).
    pub fn load(&self, c: u32, out: &mut ZoneState<S>) {
        out.discrete.clone_from(self.class_discrete(c));
        out.zone.clone_from(self.class_zone(c));
    }

    /// Whether the phases share classes.
    pub fn shared(&self) -> bool {
        self.shared
    }

    /// The class of `(s, phase)`, if there is one, else where it would go
    /// (for [`Nodes::add_class`]): the same zone under `--abstraction
    /// none`, else the same aLU class (bounds of `s.discrete`, loaded into
    /// `zg`).
    pub fn find(&self, zg: &mut ZoneGraph<'_, S>, s: &ZoneState<S>, phase: bool) -> Result<u32, Missing> {
        let sig = signature(zg, s);
        let Some(d) = self.discretes.get_index_of(&s.discrete) else { return Err(Missing { sig, discrete: None }) };
        let missing = || Missing { sig, discrete: Some(d as u32) };
        let Some(&first) = self.buckets.get(&(d as u32, phase && !self.shared, sig)) else { return Err(missing()) };
        let bucket =
            || std::iter::successors(Some(first), |&c| Some(self.classes[c as usize].next).filter(|&n| n != NONE));
        if let Some(c) = bucket().find(|&c| *self.class_zone(c) == s.zone) {
            return Ok(c);
        }
        if zg.abstraction == Abstraction::None {
            return Err(missing());
        }
        let (lower, upper) = (&zg.lower, &zg.upper);
        bucket()
            .find(|&c| {
                let other = self.class_zone(c);
                s.zone.simulated_by(other, lower, upper) && other.simulated_by(&s.zone, lower, upper)
            })
            .ok_or_else(missing)
    }

    /// Adds `(s, phase)` where [`Nodes::find`] said it would go as a new
    /// class (none of it exists), without nodes, and returns its id.
    pub fn add_class(&mut self, s: &ZoneState<S>, phase: bool, at: Missing) -> u32 {
        let id = self.classes.len() as u32;
        let discrete = match at.discrete {
            Some(d) => d,
            None => self.discretes.insert_full(s.discrete.clone()).0 as u32,
        };
        let zone = match self.zones.get_index_of(&s.zone) {
            Some(z) => z as u32,
            None => self.zones.insert_full(s.zone.clone()).0 as u32,
        };
        let head = self.buckets.entry((discrete, phase && !self.shared, at.sig)).or_insert(NONE);
        // New classes go first. Order does not matter: a bucket holds at
        // most one class of each aLU class (one of each zone when exact).
        self.classes.push(Class { discrete, zone, next: *head });
        *head = id;
        self.of_class.push([NONE; 2]);
        id
    }

    /// The node of class `c` in `phase`, if there is one.
    pub fn node(&self, c: u32, phase: bool) -> Option<u32> {
        let n = self.of_class[c as usize][phase as usize];
        (n != NONE).then_some(n)
    }

    /// Makes node `t` stand for class `c` in `phase` (which has no node):
    /// `t` covers it ([`super::cover`]).
    pub fn alias(&mut self, c: u32, phase: bool, t: u32) {
        self.of_class[c as usize][phase as usize] = t;
    }

    /// Adds the node of class `c` in `phase` (there is none yet) and
    /// returns its id.
    pub fn add_node(&mut self, c: u32, phase: bool) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push((c, phase));
        self.of_class[c as usize][phase as usize] = id;
        id
    }
}
