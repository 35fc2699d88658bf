//! The whole zone graph, for `kairos graph` and snapshot tests: every
//! distinct abstract state and every step between them, numbered
//! canonically (sorted by discrete state, then zone) so the same model gives
//! the same graph whatever the exploration order or hashing.

use rustc_hash::FxHashMap;

use crate::domain::ClockSet;
use crate::domain::zone::Dbm;

use crate::engine::Unknown;
use crate::engine::reach::Limits;
use crate::semantics::{RunError, Transition, ZoneGraph, ZoneState};

pub struct Graph<S = Dbm> {
    /// In canonical order; node `i` is `states[i]`.
    pub states: Vec<ZoneState<S>>,
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

pub fn zone_graph<S: ClockSet>(zg: &mut ZoneGraph<'_, S>, limits: &Limits) -> Result<Graph<S>, GraphError> {
    let mut ids: FxHashMap<ZoneState<S>, u32> = FxHashMap::default();
    let mut states: Vec<ZoneState<S>> = Vec::new();
    let mut edges = Vec::new();
    let mut initial = Vec::new();
    zg.initial(&mut initial).map_err(GraphError::Run)?;
    let mut intern = |s: ZoneState<S>, states: &mut Vec<ZoneState<S>>| -> u32 {
        *ids.entry(s.clone()).or_insert_with(|| {
            states.push(s);
            states.len() as u32 - 1
        })
    };
    let initial_ids: Vec<u32> = initial.into_iter().map(|s| intern(s, &mut states)).collect();
    let (mut transitions, mut succ) = (Vec::new(), Vec::new());
    let mut next = 0;
    let mut watch = limits.watch();
    while next < states.len() {
        if let Some(why) = watch.check(next as u64) {
            return Err(GraphError::Stopped(why));
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
    order.sort_by_cached_key(|&i| (states[i as usize].discrete.clone(), states[i as usize].zone.key()));
    let mut rank = vec![0u32; states.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i as usize] = r as u32;
    }
    let mut sorted: Vec<Option<ZoneState<S>>> = states.into_iter().map(Some).collect();
    let states = order.iter().map(|&i| sorted[i as usize].take().expect("each once")).collect();
    let mut edges: Vec<(u32, Transition, u32)> =
        edges.into_iter().map(|(a, t, b)| (rank[a as usize], t, rank[b as usize])).collect();
    edges.sort_by(|x, y| (x.0, &x.1.edges, x.2).cmp(&(y.0, &y.1.edges, y.2)));
    let mut initial: Vec<u32> = initial_ids.iter().map(|&i| rank[i as usize]).collect();
    initial.sort_unstable();
    Ok(Graph { states, edges, initial })
}
