//! Symbolic paths out of the search: lassos from an accepting SCC, and
//! paths to a node along the first edges that reached each node.

use std::collections::VecDeque;

use rustc_hash::{FxHashMap, FxHashSet};

use super::product::{Product, Step, Stop};
use super::progress::Progress;
use super::scc::Graph;
use crate::domain::ClockSet;
use crate::domain::federation::Federation;
use crate::engine::SymbolicTrace;
use crate::semantics::{Transition, ZoneState};

/// The trace of a node path (`steps[k]` enters `nodes[k]`, `steps[0]` is
/// `Initial`): ticks become transitions without edges; entering phase 1
/// and guesses (same discrete state, a part of its zone) are left out.
fn trace_of<S: ClockSet>(p: &Product<'_, '_, S>, nodes: &[u32], steps: &[Step]) -> SymbolicTrace {
    let mut states = Vec::new();
    let mut transitions = Vec::new();
    for (&n, step) in nodes.iter().zip(steps) {
        let state = as_zone(p, &p.nodes.state(n));
        match step {
            Step::Initial => states.push(state),
            Step::Enter | Step::Guess => {}
            Step::Tick => {
                transitions.push(Transition { edges: Vec::new(), out: Vec::new(), unless: Vec::new() });
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

/// `s` with its set given as a zone ([`Product::to_zone`]). A guessing
/// pass's `z` is left free: it is not the tick clock traces know.
fn as_zone<S: ClockSet>(p: &Product<'_, '_, S>, s: &ZoneState<S>) -> ZoneState {
    let mut zone =
        (p.to_zone)(&s.zone).expect("the sets of a timed network are zones; a linear one's are placeholders");
    if p.ticks().guesses() {
        zone.free(p.z() as usize);
    }
    ZoneState { discrete: s.discrete.clone(), zone }
}

/// The path to `node` along first-reaching edges, as (nodes, steps into
/// them).
fn parents<S: ClockSet>(p: &Product<'_, '_, S>, node: u32) -> (Vec<u32>, Vec<Step>) {
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
    (nodes, steps)
}

/// The path to `node` along first-reaching edges (on a linear network,
/// without its ticks).
pub fn path_to<S: ClockSet>(p: &Product<'_, '_, S>, node: u32) -> SymbolicTrace {
    let (nodes, steps) = parents(p, node);
    let trace = trace_of(p, &nodes, &steps);
    if p.zg.net.hybrid.is_some() {
        // Traces of linear networks are concretised without ticks.
        let n = trace.steps.len();
        return super::periodic::without_ticks(trace, n);
    }
    trace
}

/// Which edge ends a [`bfs`]: its label, step and target.
pub(crate) type Last<'a, G> = &'a dyn Fn(<G as Graph>::Label, &<G as Graph>::Step, u32) -> bool;

/// A path inside an SCC: its nodes and the steps into them.
type Path<G> = (Vec<u32>, Vec<<G as Graph>::Step>);

/// The shortest path inside `scc` from `from` whose last edge satisfies
/// `last` (given its label, step and target), as (nodes, steps) without
/// `from` itself.
pub(crate) fn bfs<G: Graph>(
    g: &mut G,
    scc: &FxHashSet<u32>,
    from: u32,
    last: Last<'_, G>,
) -> Result<Path<G>, G::Error> {
    let mut back: FxHashMap<u32, (u32, G::Step)> = FxHashMap::default();
    let mut queue = VecDeque::from([from]);
    let mut succs = Vec::new();
    let mut seen = FxHashSet::from_iter([from]);
    while let Some(n) = queue.pop_front() {
        succs.clear();
        g.successors(n, &mut succs)?;
        for (m, label, step) in succs.drain(..) {
            if !scc.contains(&m) {
                continue;
            }
            if last(label, &step, m) {
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
    unreachable!("an accepting SCC is strongly connected and has the edges its label joins")
}

/// A lasso through the accepting SCC `scc` (its edges' labels join to
/// `label`) whose root ends `path`. As [`crate::trace`] wants it, the loop
/// opens with a tick and the trace ends with the same tick once more, so
/// the loop runs from right after a tick to right after it (`z = 0` at
/// both ends). Also gives the node where the loop's steps (the closing
/// tick left out) lead back.
pub fn lasso<S: ClockSet>(
    p: &mut Product<'_, '_, S>,
    path: &[u32],
    steps: &[Step],
    scc: &[u32],
    label: Progress,
) -> Result<(SymbolicTrace, u32), Stop> {
    let stats = p.stats;
    let set: FxHashSet<u32> = scc.iter().copied().collect();
    let root = *path.last().expect("a path");
    let (mut nodes, mut all) = (path.to_vec(), steps.to_vec());
    // The search may have reached phase 1's entry through a covering arc of
    // phase 0 ([`super::Phase0::Covering`]), after which its steps need not
    // be possible from the zone the arc came with: the first-reaching path
    // to the entry takes its place (each node's representative is the zone
    // its first edge leads to, so that path replays exactly).
    if let Some(k) = nodes.iter().position(|&n| p.nodes.phase(n)).filter(|&k| k > 0) {
        let (mut prefix, mut prefix_steps) = parents(p, nodes[k - 1]);
        prefix.extend_from_slice(&nodes[k..]);
        prefix_steps.extend_from_slice(&all[k..]);
        (nodes, all) = (prefix, prefix_steps);
    }
    let (before_loop, back_to) = if label.tick {
        // The path, then inside the SCC to the source `u` of a tick
        // `u -> v`, which opens the loop; the loop returns to `u` and ends
        // with the same tick.
        let (to_v, steps_to_v) = bfs(p, &set, root, &|l, _, _| l.tick)?;
        let v = *to_v.last().expect("a tick");
        let u = if to_v.len() >= 2 { to_v[to_v.len() - 2] } else { root };
        let (back, back_steps) = if v == u { (Vec::new(), Vec::new()) } else { bfs(p, &set, v, &|_, _, m| m == u)? };
        // The loop starts before its opening tick (the last step to `v`).
        let before = all.len() + steps_to_v.len() - 1;
        nodes.extend(to_v.iter().chain(&back).chain([&v]));
        all.extend(steps_to_v.iter().chain(&back_steps).chain([&Step::Tick]));
        (before, u)
    } else {
        // No tick: some clock `x` is reset and waited for (`x >= 1`) in the
        // SCC ([`super::progress`]). To the target `w` of an edge waiting
        // for `x`; the cycle from `w` through a reset of `x`, then back to
        // `w` by an edge waiting for `x`, lasts at least one time unit. It
        // is walked, then a tick at `w` opens the loop (at least one unit
        // since the start, as since the reset; without the tick clock the
        // tick changes nothing), then walked again and closed by the tick.
        let x = label.clock().expect("an accepting label without ticks has a clock reset and waited for");
        let (to_w, steps_to_w) = bfs(p, &set, root, &|l, _, _| l.waits & x != 0)?;
        let w = *to_w.last().expect("an edge");
        let (to_r, steps_to_r) = bfs(p, &set, w, &|l, _, _| l.reset & x != 0)?;
        let r = *to_r.last().expect("an edge");
        let (back, back_steps) = bfs(p, &set, r, &|l, _, m| l.waits & x != 0 && m == w)?;
        nodes.extend(&to_w);
        all.extend(&steps_to_w);
        for _ in 0..2 {
            nodes.extend(to_r.iter().chain(&back).chain([&w]));
            all.extend(steps_to_r.iter().chain(&back_steps).chain([&Step::Tick]));
        }
        // The loop starts before its opening tick.
        (all.len() - steps_to_r.len() - back_steps.len() - 2, w)
    };
    let opening = all[..before_loop].iter().filter(|s| !matches!(s, Step::Initial | Step::Enter | Step::Guess)).count();
    let mut trace = trace_of(p, &nodes, &all);
    trace.loop_start = Some(opening);
    replay(p, &nodes, &all, &mut trace)?;
    p.stats = stats;
    Ok((trace, back_to))
}

/// Replaces the lasso's states (the nodes' representatives) by the zones
/// its steps really lead to: nodes are aLU classes ([`super::nodes`]), so
/// a step may reach another zone of the node than the one it keeps.
fn replay<S: ClockSet>(
    p: &mut Product<'_, '_, S>,
    nodes: &[u32],
    steps: &[Step],
    trace: &mut SymbolicTrace,
) -> Result<(), Stop> {
    let mut at = p.nodes.state(nodes[0]);
    let mut states = vec![as_zone(p, &at)];
    for (&n, &step) in nodes.iter().zip(steps).skip(1) {
        let phase = p.nodes.phase(n);
        let run = |error| Stop::Run { node: Some(n), error };
        at = p.follow(&at, phase, step).map_err(run)?.expect("an edge of the graph is possible from its class");
        if !matches!(step, Step::Enter | Step::Guess) {
            states.push(as_zone(p, &at));
        }
    }
    debug_assert_eq!(states.len(), trace.states.len());
    trace.goal = Federation::from_zone(as_zone(p, &at).zone);
    trace.states = states;
    Ok(())
}
