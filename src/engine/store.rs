//! The passed list of forward exploration, kept compact: every discrete
//! state, zone and step is stored once (hash-consed) and a node is five
//! integers. Zones beyond a budget of recent ones are stored packed
//! ([`ClockSet::pack`]: a DBM in minimal constraint form) and compared
//! with new ones as packed ([`ClockSet::against`], see [`zones`]). Zones
//! repeat across discrete states far more than one would guess (Fischer 9: 182 000 nodes over 18 700 distinct zones; csmacd 11:
//! 398 000 over 78 000), so sharing them is most of the memory saved.
//!
//! Only live nodes hold a zone: a node covered by a larger zone keeps its
//! parent and step, for the paths through it, and gives its zone back
//! ([`zones`]). Memory then follows what subsumption keeps, not what the
//! search visited (fddi 12: 647 live nodes of 40 291, with 37 clocks).
//! A trace through covered nodes recomputes their zones from the nearest
//! initial state: successors are a function of the state and the step.

mod discretes;
mod zones;

use indexmap::IndexSet;
use rustc_hash::{FxBuildHasher, FxHashSet};

use crate::domain::zone::Dbm;
use crate::domain::{Against, ClockSet};
use crate::semantics::{Discrete, RunError, Transition, ZoneGraph, ZoneState};
use discretes::Discretes;
pub use discretes::discrete_hash;
use zones::{Held, Zones};

/// When a new zone is covered by a stored one of the same discrete state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cover {
    /// Only an equal zone covers (TChecker's `reach`).
    Equal,
    /// Inclusion (TChecker's `covreach`).
    Inclusion,
    /// The aLU simulation (Herbreteau, Srivathsan, Walukiewicz 2012).
    Alu,
}

/// End of a list of live nodes.
const NONE: u32 = u32::MAX;
/// The `next` of a node that a larger zone replaced.
const DEAD: u32 = u32::MAX - 1;

/// One explored symbolic state: ids into the store's tables.
#[derive(Clone, Copy, Debug)]
struct Node {
    discrete: u32,
    zone: u32,
    /// The predecessor (`NONE` for an initial state) and the step from it.
    parent: u32,
    step: u32,
    /// The next live node of the same discrete state, `NONE` at the end of
    /// the list, `DEAD` once covered (it stays for the paths through it).
    next: u32,
}

type Interned<T> = IndexSet<T, FxBuildHasher>;

pub struct Store<S: ClockSet = Dbm> {
    cover: Cover,
    discretes: Discretes,
    zones: Zones<S>,
    steps: Interned<Transition>,
    nodes: Vec<Node>,
    /// Per discrete id, its first live node (`Inclusion` and `Alu`).
    heads: Vec<u32>,
    /// `(discrete, zone)` pairs stored (`Equal`).
    pairs: FxHashSet<u64>,
    stored: u64,
    /// A stored zone unpacked, for the comparisons that need it whole.
    scratch: Option<S>,
    /// The nodes the last insertion retired ([`Store::retired`]).
    retired: Vec<u32>,
}

impl<S: ClockSet> Store<S> {
    pub fn new(cover: Cover) -> Self {
        Store::with_whole_bytes(cover, zones::WHOLE_BYTES)
    }

    /// A store that keeps at most `bytes` of its most recent zones whole,
    /// the others packed ([`zones`]).
    pub fn with_whole_bytes(cover: Cover, bytes: u64) -> Self {
        Store {
            cover,
            discretes: Discretes::default(),
            zones: Zones::new(bytes),
            steps: Interned::default(),
            nodes: Vec::new(),
            heads: Vec::new(),
            pairs: FxHashSet::default(),
            stored: 0,
            scratch: None,
            retired: Vec::new(),
        }
    }

    /// Stores `state` reached by `parent` unless a stored zone of the same
    /// discrete state covers it, and retires the stored zones it covers.
    /// Returns the new node's id, or `None` when covered.
    pub fn insert(
        &mut self,
        zg: &mut ZoneGraph<'_, S>,
        state: &ZoneState<S>,
        parent: Option<(u32, &Transition)>,
    ) -> Option<u32> {
        self.insert_hashed(zg, state, discrete_hash(&state.discrete), parent)
    }

    /// [`Store::insert`] given the [`discrete_hash`] of `state`'s discrete
    /// state, for a caller that computed it already.
    pub fn insert_hashed(
        &mut self,
        zg: &mut ZoneGraph<'_, S>,
        state: &ZoneState<S>,
        hash: u64,
        parent: Option<(u32, &Transition)>,
    ) -> Option<u32> {
        let id = self.nodes.len() as u32;
        self.retired.clear();
        let ZoneState { discrete, zone } = state;
        if self.cover == Cover::Alu {
            zg.load_bounds(discrete);
        }
        let (d, new) = self.discretes.intern(discrete, hash);
        if new {
            self.heads.push(NONE);
        }
        let d = d as usize;
        if self.cover == Cover::Equal {
            // Every stored node stays live: no zone is ever released, so
            // ids are stable and a pair names one zone.
            let z = self.zones.acquire(zone);
            if !self.pairs.insert(u64::from(d as u32) << 32 | u64::from(z)) {
                self.zones.release(z);
                return None;
            }
            self.push(d as u32, z, parent, NONE);
            return Some(id);
        }
        if !self.retire_covered(zg, d, zone) {
            return None;
        }
        let z = self.zones.acquire(zone);
        let next = std::mem::replace(&mut self.heads[d], id);
        self.push(d as u32, z, parent, next);
        Some(id)
    }

    /// Walks the live nodes of discrete state `d`: false as soon as one
    /// covers `zone`; otherwise unlinks every node `zone` covers. One pass
    /// suffices: the live zones are pairwise incomparable, so when one
    /// covers `zone`, none is covered by it (that one would be covered by
    /// the first).
    fn retire_covered(&mut self, zg: &ZoneGraph<'_, S>, d: usize, zone: &S) -> bool {
        let lu = (self.cover == Cover::Alu).then(|| (&zg.lower[..], &zg.upper[..]));
        let mut prev = NONE;
        let mut at = self.heads[d];
        while at != NONE {
            let node = self.nodes[at as usize];
            let against = match self.zones.get(node.zone) {
                Held::Whole(old) => zone.against_whole(old, lu),
                Held::Packed(old) => zone.against(old, lu, &mut self.scratch),
            };
            match against {
                Against::Covered => return false,
                Against::Covers => {
                    if prev == NONE {
                        self.heads[d] = node.next;
                    } else {
                        self.nodes[prev as usize].next = node.next;
                    }
                    self.nodes[at as usize].next = DEAD;
                    self.retired.push(at);
                    self.zones.release(node.zone);
                    self.stored -= 1;
                }
                Against::Neither => prev = at,
            }
            at = node.next;
        }
        true
    }

    fn push(&mut self, discrete: u32, zone: u32, parent: Option<(u32, &Transition)>, next: u32) {
        let (parent, step) = match parent {
            None => (NONE, NONE),
            Some((p, t)) => {
                let step = match self.steps.get_index_of(t) {
                    Some(s) => s,
                    None => self.steps.insert_full(t.clone()).0,
                };
                (p, step as u32)
            }
        };
        self.nodes.push(Node { discrete, zone, parent, step, next });
        self.stored += 1;
    }

    /// The live nodes the last [`Store::insert`] retired, its new zone
    /// covering theirs (none when that zone was itself covered: the live
    /// zones are pairwise incomparable).
    pub fn retired(&self) -> &[u32] {
        &self.retired
    }

    /// Zones stored and not covered by a later one.
    pub fn stored(&self) -> u64 {
        self.stored
    }

    /// Whether no larger zone has replaced node `id`.
    pub fn is_alive(&self, id: u32) -> bool {
        self.nodes[id as usize].next != DEAD
    }

    /// The discrete state of node `id`.
    pub fn discrete(&self, id: u32) -> Discrete {
        self.discretes.get(self.nodes[id as usize].discrete)
    }

    /// Whether node `id`'s discrete state is `d`.
    fn is_discrete(&self, id: u32, d: &Discrete) -> bool {
        self.discretes.is(self.nodes[id as usize].discrete, d)
    }

    /// The zone of live node `id` (a covered node has given it back),
    /// unpacked.
    pub fn zone(&self, id: u32) -> S {
        debug_assert!(self.is_alive(id), "node {id} was covered");
        match self.zones.get(self.nodes[id as usize].zone) {
            Held::Whole(z) => z.clone(),
            Held::Packed(p) => S::unpack(p),
        }
    }

    /// The state of live node `id`, copied into `out` (reusing its buffers).
    pub fn load(&self, id: u32, out: &mut ZoneState<S>) {
        self.discretes.load(self.nodes[id as usize].discrete, &mut out.discrete);
        debug_assert!(self.is_alive(id), "node {id} was covered");
        match self.zones.get(self.nodes[id as usize].zone) {
            Held::Whole(z) => out.zone.clone_from(z),
            Held::Packed(p) => S::unpack_into(p, &mut out.zone),
        }
    }

    /// The states of the path to `id` ([`Store::path`]), the zones of
    /// covered nodes recomputed by `zg` (the graph the search ran on) from
    /// the last live node above them, or from the initial state.
    pub fn path_states(&self, zg: &mut ZoneGraph<'_, S>, id: u32) -> Result<Vec<ZoneState<S>>, RunError> {
        let path = self.path(id);
        let mut out: Vec<ZoneState<S>> = Vec::with_capacity(path.len());
        for &n in &path {
            let state = if self.is_alive(n) {
                ZoneState { discrete: self.discrete(n), zone: self.zone(n) }
            } else {
                let mut s = match (out.last(), self.parent(n)) {
                    (Some(prev), Some((_, step))) => zg.post_exact(prev, step)?,
                    _ => {
                        let mut initial = Vec::new();
                        zg.initial_exact(&mut initial)?;
                        initial.into_iter().find(|s| self.is_discrete(n, &s.discrete))
                    }
                }
                .expect("a stored step is enabled again from the same state");
                zg.extrapolate(&mut s);
                debug_assert!(self.is_discrete(n, &s.discrete));
                s
            };
            out.push(state);
        }
        Ok(out)
    }

    /// The predecessor of node `id` and the step from it.
    pub fn parent(&self, id: u32) -> Option<(u32, &Transition)> {
        let n = self.nodes[id as usize];
        (n.parent != NONE).then(|| (n.parent, &self.steps[n.step as usize]))
    }

    /// The nodes from an initial state to `id`.
    pub fn path(&self, id: u32) -> Vec<u32> {
        let mut out = vec![id];
        let mut at = id;
        while let Some((p, _)) = self.parent(at) {
            out.push(p);
            at = p;
        }
        out.reverse();
        out
    }

    /// What the store holds now and held at most, in bytes (estimates of
    /// the allocator's view, not measurements).
    pub fn bytes(&self) -> (u64, u64) {
        // An index set keeps a hash and the value per entry, and an index
        // plus a control byte in its table.
        fn set<T>(s: &Interned<T>) -> u64 {
            (s.capacity() * (std::mem::size_of::<T>() + 8 + 9)) as u64
        }
        let steps: usize = self.steps.iter().map(|t| t.edges.capacity() * 8).sum();
        let rest = self.discretes.bytes()
            + set(&self.steps)
            + steps as u64
            + (self.nodes.capacity() * std::mem::size_of::<Node>()) as u64
            + (self.heads.capacity() * 4) as u64
            + (self.pairs.capacity() * 9) as u64;
        let (now, peak) = self.zones.bytes();
        (rest + now, rest + peak)
    }
}
