//! Symbolic paths out of the search: lassos from an accepting SCC, and
//! paths to a node along the first edges that reached each node.

use std::collections::VecDeque;

use rustc_hash::{FxHashMap, FxHashSet};

use super::product::{Product, Step, Stop};
use super::scc::Graph;
use crate::domain::federation::Federation;
use crate::engine::SymbolicTrace;
use crate::semantics::Transition;

/// The trace of a node path (`steps[k]` enters `nodes[k]`, `steps[0]` is
/// `Initial`): ticks become transitions without edges, and entering phase
/// 1 (same state) is left out.
fn trace_of(p: &Product<'_, '_>, nodes: &[u32], steps: &[Step]) -> SymbolicTrace {
    let mut states = Vec::new();
    let mut transitions = Vec::new();
    for (&n, step) in nodes.iter().zip(steps) {
        let state = p.nodes.get(n).0.clone();
        match step {
            Step::Initial => states.push(state),
            Step::Enter => {}
            Step::Tick => {
                transitions.push(Transition { edges: Vec::new() });
                states.push(state);
            }
            Step::Edge(k) => {
                transitions.push(p.transition(*k).clone());
                states.push(state);
            }
        }
    }
    let goal = Federation::from_zone(states.last().expect("a state").zone.clone());
    SymbolicTrace {
        states,
        steps: transitions,
        goal,
        target: None,
        error: None,
        tick_clock: Some(p.z()),
        loop_start: None,
        blame: None,
        concrete: None,
    }
}

/// The path to `node` along first-reaching edges.
pub fn path_to(p: &Product<'_, '_>, node: u32) -> SymbolicTrace {
    let mut nodes = vec![node];
    let mut steps = Vec::new();
    let mut at = node;
    while let Some((from, step)) = &p.parent[at as usize] {
        steps.push(*step);
        nodes.push(*from);
        at = *from;
    }
    steps.push(Step::Initial);
    nodes.reverse();
    steps.reverse();
    trace_of(p, &nodes, &steps)
}

/// The shortest path inside `scc` from `from` to a node satisfying `to`,
/// as (nodes, steps) without `from` itself; `accepting` asks for the last
/// edge to be a tick instead.
fn bfs(
    p: &mut Product<'_, '_>,
    scc: &FxHashSet<u32>,
    from: u32,
    accepting: bool,
    to: &dyn Fn(u32) -> bool,
) -> Result<(Vec<u32>, Vec<Step>), Stop> {
    let mut back: FxHashMap<u32, (u32, Step)> = FxHashMap::default();
    let mut queue = VecDeque::from([from]);
    let mut succs = Vec::new();
    let mut seen = FxHashSet::from_iter([from]);
    while let Some(n) = queue.pop_front() {
        succs.clear();
        p.successors(n, &mut succs)?;
        for (m, tick, step) in succs.drain(..) {
            if !scc.contains(&m) {
                continue;
            }
            if (!accepting || tick) && to(m) {
                let (mut nodes, mut steps) = (vec![m], vec![step]);
                let mut at = n;
                while at != from {
                    let (prev, s) = back.remove(&at).expect("a BFS parent");
                    nodes.push(at);
                    steps.push(s);
                    at = prev;
                }
                nodes.reverse();
                steps.reverse();
                return Ok((nodes, steps));
            }
            if seen.insert(m) {
                back.insert(m, (n, step));
                queue.push_back(m);
            }
        }
    }
    unreachable!("an accepting SCC is strongly connected and has a tick inside")
}

/// A lasso through the accepting SCC `scc` whose root ends `path`: the
/// path, then inside the SCC to the source `u` of a tick, which opens the
/// loop; the loop returns to `u` and ends with the same tick. So the loop
/// starts and ends right after a tick (`z = 0` at both ends).
pub fn lasso(p: &mut Product<'_, '_>, path: &[u32], steps: &[Step], scc: &[u32]) -> Result<SymbolicTrace, Stop> {
    let stats = p.stats;
    let set: FxHashSet<u32> = scc.iter().copied().collect();
    let root = *path.last().expect("a path");
    // Inside the SCC from the root to a tick u -> v, the tick included.
    let (to_v, steps_to_v) = bfs(p, &set, root, true, &|_| true)?;
    let v = *to_v.last().expect("a tick");
    let u = if to_v.len() >= 2 { to_v[to_v.len() - 2] } else { root };
    // Back from v to u.
    let (back, back_steps) = if v == u { (Vec::new(), Vec::new()) } else { bfs(p, &set, v, false, &|m| m == u)? };
    let before_loop = steps.len() + steps_to_v.len() - 1;
    let opening = [steps, &steps_to_v].concat()[..before_loop]
        .iter()
        .filter(|s| !matches!(s, Step::Initial | Step::Enter))
        .count();
    let nodes = [path, &to_v, &back, &[v]].concat();
    let all = [steps, &steps_to_v, &back_steps, &[Step::Tick]].concat();
    let mut trace = trace_of(p, &nodes, &all);
    trace.loop_start = Some(opening);
    replay(p, &nodes, &all, &mut trace)?;
    p.stats = stats;
    Ok(trace)
}

/// Replaces the lasso's states (the nodes' representatives) by the zones
/// its steps really lead to: nodes are aLU classes ([`super::nodes`]), so
/// a step may reach another zone of the node than the one it keeps.
fn replay(p: &mut Product<'_, '_>, nodes: &[u32], steps: &[Step], trace: &mut SymbolicTrace) -> Result<(), Stop> {
    let mut at = p.nodes.get(nodes[0]).0.clone();
    let mut states = vec![at.clone()];
    for (&n, &step) in nodes.iter().zip(steps).skip(1) {
        let phase = p.nodes.get(n).1;
        let run = |error| Stop::Run { node: Some(n), error };
        at = p.follow(&at, phase, step).map_err(run)?.expect("an edge of the graph is possible from its class");
        if step != Step::Enter {
            states.push(at.clone());
        }
    }
    debug_assert_eq!(states.len(), trace.states.len());
    trace.goal = Federation::from_zone(at.zone.clone());
    trace.states = states;
    Ok(())
}
