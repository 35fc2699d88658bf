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

use indexmap::IndexMap;
use rustc_hash::FxBuildHasher;

use crate::semantics::{Abstraction, Discrete, ZoneGraph, ZoneState};

/// A discrete state and phase, borrowed, to look a class up without
/// building its key.
#[derive(Hash)]
struct Key<'a>(&'a Discrete, bool);

impl indexmap::Equivalent<(Discrete, bool)> for Key<'_> {
    fn equivalent(&self, key: &(Discrete, bool)) -> bool {
        *self.0 == key.0 && self.1 == key.1
    }
}

/// The node set.
#[derive(Default)]
pub struct Nodes {
    /// Each node's representative state and phase, by id.
    states: Vec<(ZoneState, bool)>,
    /// The nodes of each discrete state and phase.
    classes: IndexMap<(Discrete, bool), Vec<u32>, FxBuildHasher>,
}

impl Nodes {
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// The representative state and phase of node `n`.
    pub fn get(&self, n: u32) -> &(ZoneState, bool) {
        &self.states[n as usize]
    }

    /// The node of `(s, phase)`, if there is one: the same zone under
    /// `--abstraction none`, else the same aLU class (bounds of
    /// `s.discrete`, loaded into `zg`).
    pub fn find(&self, zg: &mut ZoneGraph<'_>, s: &ZoneState, phase: bool) -> Option<u32> {
        let ids = self.classes.get(&Key(&s.discrete, phase))?;
        if let Some(&n) = ids.iter().find(|&&n| self.states[n as usize].0.zone == s.zone) {
            return Some(n);
        }
        if zg.abstraction == Abstraction::None {
            return None;
        }
        zg.load_bounds(&s.discrete);
        let (lower, upper) = (&zg.lower, &zg.upper);
        ids.iter().copied().find(|&n| {
            let other = &self.states[n as usize].0.zone;
            s.zone.alu_subsumed(other, lower, upper) && other.alu_subsumed(&s.zone, lower, upper)
        })
    }

    /// Adds `(s, phase)` as a new node (no node of it exists: see
    /// [`Nodes::find`]) and returns its id.
    pub fn insert(&mut self, s: ZoneState, phase: bool) -> u32 {
        let id = self.states.len() as u32;
        match self.classes.get_mut(&Key(&s.discrete, phase)) {
            Some(ids) => ids.push(id),
            None => {
                self.classes.insert((s.discrete.clone(), phase), vec![id]);
            }
        }
        self.states.push((s, phase));
        id
    }
}
