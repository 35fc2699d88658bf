//! Forward, on-the-fly exploration of the zone graph with a passed/waiting
//! list keyed by the discrete state (maximal zones only, unless asked to keep
//! every distinct zone).

use std::collections::VecDeque;
use std::time::Instant;

use rustc_hash::FxHashMap;

use crate::domain::ClockSet;
use crate::domain::federation::Federation;
use crate::domain::zone::Dbm;
use crate::engine::{Stats, Unknown};
use std::hash::BuildHasher;

use crate::semantics::{Discrete, RunError, Transition, ZoneGraph, ZoneState};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Bfs,
    Dfs,
}

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

#[derive(Clone, Debug)]
pub struct Limits {
    pub max_states: Option<u64>,
    pub deadline: Option<Instant>,
}

/// How a node was first reached: its predecessor and the step.
pub type Parent = Option<(u32, Transition)>;

/// A node of the explored graph: its state and how it was first reached.
pub struct Node<S = Dbm> {
    pub state: ZoneState<S>,
    pub parent: Parent,
    /// False once a larger zone replaced it (it stays for the paths through it).
    pub alive: bool,
}

pub enum End<S = Dbm> {
    /// A state meeting the target, and its satisfying valuations.
    Found {
        node: u32,
        witness: Federation<S>,
    },
    Exhausted,
    Stopped(Unknown),
    /// A run-time error while expanding `node` (or building the initial
    /// states, when `None`).
    Error {
        node: Option<u32>,
        error: RunError,
    },
}

pub struct Exploration<S = Dbm> {
    pub end: End<S>,
    pub nodes: Vec<Node<S>>,
    pub stats: Stats,
}

/// The target test: the valuations of a state that meet the goal.
pub type Target<'a, S> = dyn FnMut(&mut ZoneGraph<'_, S>, &ZoneState<S>) -> Result<Federation<S>, RunError> + 'a;

pub fn explore<S: ClockSet>(
    zg: &mut ZoneGraph<'_, S>,
    order: Order,
    cover: Cover,
    limits: &Limits,
    target: &mut Target<'_, S>,
) -> Exploration<S> {
    let start = Instant::now();
    let mut nodes: Vec<Node<S>> = Vec::new();
    let mut store = Passed::default();
    let mut waiting: VecDeque<u32> = VecDeque::new();
    let mut stats = Stats::default();
    let finish = |end, nodes: Vec<Node<S>>, mut stats: Stats, store: &Passed| {
        stats.stored = store.stored;
        stats.time_s = start.elapsed().as_secs_f64();
        Exploration { end, nodes, stats }
    };
    let mut initial = Vec::new();
    if let Err(error) = zg.initial(&mut initial) {
        return finish(End::Error { node: None, error }, nodes, stats, &store);
    }
    let mut pending: Vec<(ZoneState<S>, Parent)> = initial.into_iter().map(|s| (s, None)).collect();
    let mut transitions = Vec::new();
    let mut successors = Vec::new();
    loop {
        for (state, parent) in pending.drain(..) {
            let Some(id) = insert(zg, &mut nodes, &mut store, cover, state, parent) else { continue };
            stats.peak_bytes += node_bytes(&nodes[id as usize]);
            match target(zg, &nodes[id as usize].state) {
                Ok(w) if !w.is_empty() => return finish(End::Found { node: id, witness: w }, nodes, stats, &store),
                Ok(_) => {}
                Err(error) => return finish(End::Error { node: Some(id), error }, nodes, stats, &store),
            }
            waiting.push_back(id);
        }
        let next = match order {
            Order::Bfs => waiting.pop_front(),
            Order::Dfs => waiting.pop_back(),
        };
        let Some(id) = next else { return finish(End::Exhausted, nodes, stats, &store) };
        if !nodes[id as usize].alive {
            continue;
        }
        if limits.max_states.is_some_and(|m| stats.visited >= m) {
            return finish(End::Stopped(Unknown::StateLimit), nodes, stats, &store);
        }
        if limits.deadline.is_some_and(|d| Instant::now() >= d) {
            return finish(End::Stopped(Unknown::Timeout), nodes, stats, &store);
        }
        stats.visited += 1;
        let state = nodes[id as usize].state.clone();
        if let Err(error) = zg.successors(&state, &mut transitions, &mut successors) {
            return finish(End::Error { node: Some(id), error }, nodes, stats, &store);
        }
        stats.transitions += successors.len() as u64;
        pending.extend(successors.drain(..).map(|(s, t)| (s, Some((id, t)))));
    }
}

/// The passed list: the ids of the stored nodes, per discrete state (for
/// subsumption) or per hash of the whole state (to find equal ones at once).
#[derive(Default)]
struct Passed {
    by_discrete: FxHashMap<Discrete, Vec<u32>>,
    by_hash: FxHashMap<u64, Vec<u32>>,
    stored: u64,
}

/// Stores `state` unless a stored zone covers it; removes the zones it
/// covers. Returns its id when it is new.
fn insert<S: ClockSet>(
    zg: &mut ZoneGraph<'_, S>,
    nodes: &mut Vec<Node<S>>,
    store: &mut Passed,
    cover: Cover,
    state: ZoneState<S>,
    parent: Parent,
) -> Option<u32> {
    let id = nodes.len() as u32;
    if cover == Cover::Equal {
        let list = store.by_hash.entry(rustc_hash::FxBuildHasher.hash_one(&state)).or_default();
        if list.iter().any(|&o| nodes[o as usize].state == state) {
            return None;
        }
        list.push(id);
    } else {
        if cover == Cover::Alu {
            zg.load_bounds(&state.discrete);
        }
        let covers = |old: &S, new: &S, zg: &ZoneGraph<'_, S>| match cover {
            Cover::Alu => new.simulated_by(old, &zg.lower, &zg.upper),
            _ => new.is_subset_of(old),
        };
        match store.by_discrete.get_mut(&state.discrete) {
            None => {
                store.by_discrete.insert(state.discrete.clone(), vec![id]);
            }
            Some(list) => {
                if list.iter().any(|&o| covers(&nodes[o as usize].state.zone, &state.zone, zg)) {
                    return None;
                }
                let before = list.len();
                list.retain(|&o| {
                    let keep = !covers(&state.zone, &nodes[o as usize].state.zone, zg);
                    if !keep {
                        nodes[o as usize].alive = false;
                    }
                    keep
                });
                store.stored -= (before - list.len()) as u64;
                list.push(id);
            }
        }
    }
    store.stored += 1;
    nodes.push(Node { state, parent, alive: true });
    Some(id)
}

/// What storing a node costs: the node, its state's heap, and the store's
/// copy of the discrete key with its list entry (an estimate, not RSS).
fn node_bytes<S: ClockSet>(n: &Node<S>) -> u64 {
    let d = &n.state.discrete;
    let discrete = std::mem::size_of_val(&*d.locs) + std::mem::size_of_val(&*d.data);
    let parent = n.parent.as_ref().map_or(0, |(_, t)| t.edges.len() * 8);
    (std::mem::size_of::<Node<S>>() + n.state.zone.heap_bytes() + 2 * discrete + parent + 48) as u64
}

/// The steps from an initial state to `node`.
pub fn path<S>(nodes: &[Node<S>], node: u32) -> Vec<u32> {
    let mut out = vec![node];
    let mut at = node;
    while let Some((p, _)) = &nodes[at as usize].parent {
        out.push(*p);
        at = *p;
    }
    out.reverse();
    out
}
