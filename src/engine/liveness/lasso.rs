//! Symbolic paths out of the search: lassos from an accepting SCC, and
//! paths to a node along the first edges that reached each node.

use std::collections::VecDeque;

use rustc_hash::{FxHashMap, FxHashSet};

use super::product::{Product, Step, Stop};
use super::scc::Graph;
use crate::domain::ClockSet;
use crate::domain::federation::Federation;
use crate::engine::SymbolicTrace;
use crate::semantics::{Transition, ZoneState};

/// The trace of a node path (`steps[k]` enters `nodes[k]`, `steps[0]` is
/// `Initial`): ticks become transitions without edges, and entering phase
/// 1 (same state) is left out.
fn trace_of<S: ClockSet>(p: &Product<'_, '_, S>, nodes: &[u32], steps: &[Step]) -> SymbolicTrace {
    let mut states = Vec::new();
    let mut transitions = Vec::new();
    for (&n, step) in nodes.iter().zip(steps) {
        let (s, _) = p.nodes.get_index(n as usize).expect("a node");
        let zone =
            (p.to_zone)(&s.zone).expect("the sets of a timed network are zones; a linear one's are placeholders");
        let state = ZoneState { discrete: s.discrete.clone(), zone };
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
pub fn path_to<S: ClockSet>(p: &Product<'_, '_, S>, node: u32) -> SymbolicTrace {
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
fn bfs<S: ClockSet>(
    p: &mut Product<'_, '_, S>,
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
/// starts and ends right after a tick (`z = 0` at both ends). Also gives
/// `u`, where the loop's steps (the last one left out) lead back.
pub fn lasso<S: ClockSet>(
    p: &mut Product<'_, '_, S>,
    path: &[u32],
    steps: &[Step],
    scc: &[u32],
) -> Result<(SymbolicTrace, u32), Stop> {
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
    p.stats = stats;
    Ok((trace, u))
}
