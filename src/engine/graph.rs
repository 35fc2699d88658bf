//! The whole zone graph, for `kairos graph` and snapshot tests: every
//! distinct abstract state and every step between them, numbered
//! canonically (sorted by discrete state, then zone) so the same model gives
//! the same graph whatever the exploration order or hashing.

use rustc_hash::FxHashMap;

use crate::engine::Unknown;
use crate::engine::reach::Limits;
use crate::semantics::{RunError, Transition, ZoneGraph, ZoneState};

pub struct Graph {
    /// In canonical order; node `i` is `states[i]`.
    pub states: Vec<ZoneState>,
    /// `(from, step, to)`, sorted.
    pub edges: Vec<(u32, Transition, u32)>,
    /// Nodes that are initial.
    pub initial: Vec<u32>,
}

#[derive(Debug)]
pub enum GraphError {
    Stopped(Unknown),
    Run(RunError),
}

fn zone_key(s: &ZoneState) -> Vec<i32> {
    let d = s.zone.dim();
    (0..d * d).map(|k| s.zone.bound(k / d, k % d).raw()).collect()
}

pub fn zone_graph(zg: &mut ZoneGraph<'_>, limits: &Limits) -> Result<Graph, GraphError> {
    let mut ids: FxHashMap<ZoneState, u32> = FxHashMap::default();
    let mut states: Vec<ZoneState> = Vec::new();
    let mut edges = Vec::new();
    let mut initial = Vec::new();
    zg.initial(&mut initial).map_err(GraphError::Run)?;
    let mut intern = |s: ZoneState, states: &mut Vec<ZoneState>| -> u32 {
        *ids.entry(s.clone()).or_insert_with(|| {
            states.push(s);
            states.len() as u32 - 1
        })
    };
    let initial_ids: Vec<u32> = initial.into_iter().map(|s| intern(s, &mut states)).collect();
    let (mut transitions, mut succ) = (Vec::new(), Vec::new());
    let mut next = 0;
    while next < states.len() {
        if limits.max_states.is_some_and(|m| next as u64 >= m) {
            return Err(GraphError::Stopped(Unknown::StateLimit));
        }
        if limits.deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            return Err(GraphError::Stopped(Unknown::Timeout));
        }
        let s = states[next].clone();
        zg.successors(&s, &mut transitions, &mut succ).map_err(GraphError::Run)?;
        for (t, step) in succ.drain(..) {
            let to = intern(t, &mut states);
            edges.push((next as u32, step, to));
        }
        next += 1;
    }
    // Canonical numbering.
    let mut order: Vec<u32> = (0..states.len() as u32).collect();
    order.sort_by_cached_key(|&i| (states[i as usize].discrete.clone(), zone_key(&states[i as usize])));
    let mut rank = vec![0u32; states.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i as usize] = r as u32;
    }
    let mut sorted: Vec<Option<ZoneState>> = states.into_iter().map(Some).collect();
    let states = order.iter().map(|&i| sorted[i as usize].take().expect("each once")).collect();
    let mut edges: Vec<(u32, Transition, u32)> =
        edges.into_iter().map(|(a, t, b)| (rank[a as usize], t, rank[b as usize])).collect();
    edges.sort_by(|x, y| (x.0, &x.1.edges, x.2).cmp(&(y.0, &y.1.edges, y.2)));
    let mut initial: Vec<u32> = initial_ids.iter().map(|&i| rank[i as usize]).collect();
    initial.sort_unstable();
    Ok(Graph { states, edges, initial })
}
