//! The concrete lasso of an accepting SCC, by the predecessor walk of
//! [`super`]'s argument: a cycle through a tick from a node `u`, walked
//! backwards round after round from one valuation of `u`'s data until a
//! valuation repeats (the rounds between are a concrete loop), then the
//! path into `u` walked backwards to an initial valuation. The steps so
//! found are replayed by the explicit zone graph (exact sets, ticks on the
//! extended network), which must give back the same data, and the trace is
//! laid out as the explicit engine's lassos: the loop opens with a tick and
//! the trace ends with that tick once more. On a linear network the replayed
//! loop must also carry an ultimately periodic run ([`periodic`]'s test, as
//! for the explicit engine's lassos there): a cycle of exact polyhedra need
//! not carry one.

use std::hash::Hash;

use rustc_hash::{FxHashMap, FxHashSet};

use super::{Arc, Live, Stop};
use crate::bdd::step::preimage;
use crate::domain::ClockSet;
use crate::domain::federation::Federation;
use crate::domain::poly::Poly;
use crate::domain::zone::{Bound, Dbm};
use crate::engine::liveness::lasso::bfs;
use crate::engine::liveness::periodic;
use crate::engine::liveness::tick_exact;
use crate::engine::{SymbolicTrace, Unknown, placeholder_zone};
use crate::network::Network;
use crate::semantics::{Abstraction, Discrete, Transition, ZoneGraph, ZoneState};

/// Most rounds walked around the cycle before giving up the trace (the
/// data set of the cycle's node bounds the rounds needed; the verdict
/// does not depend on the trace).
const MAX_ROUNDS: usize = 4096;

/// A walk backwards: the valuation at each node, and the transition of
/// each arc (`None` for a tick or entering phase 1).
struct Walk {
    points: Vec<Vec<i64>>,
    steps: Vec<Option<Transition>>,
}

/// Walks `nodes` (linked by `arcs`, `arcs[k]` into `nodes[k + 1]`)
/// backwards from `point`, a valuation of the last node's data; `None`
/// when some arc has no predecessor (the argument says it always has).
fn walk_back<S: ClockSet + Hash>(
    g: &mut Live<'_, '_, S>,
    nodes: &[u32],
    arcs: &[Arc],
    point: Vec<i64>,
) -> Result<Option<Walk>, Stop> {
    let net = g.net;
    let mut points = vec![point];
    let mut steps = Vec::new();
    for k in (0..arcs.len()).rev() {
        let at = points.last().expect("a point").clone();
        let (from, to) = (nodes[k], nodes[k + 1]);
        let (prev, t) = match &arcs[k] {
            Arc::Enter | Arc::Tick => (at, None),
            Arc::Initial => unreachable!("only a path's first node is initial"),
            Arc::Edge(step) => {
                let set = g.step_set(from, step)?;
                let updates = step.edges(net).flat_map(|e| &e.updates);
                let locs = g.nodes[to as usize].locs.clone();
                let pre = preimage(&mut g.m, &g.enc, &net.slots, &locs, net.out_of_range, set, updates, &at)?;
                let Some(mut all) = g.enc.pick_all(&g.m, pre) else { return Ok(None) };
                let Some(t) = step.concrete(net, &all[net.slots.len()..]) else { return Ok(None) };
                all.truncate(net.slots.len());
                (all, Some(t))
            }
        };
        if !g.enc.contains(&g.m, g.nodes[from as usize].data, &prev) {
            return Ok(None);
        }
        points.push(prev);
        steps.push(t);
    }
    points.reverse();
    steps.reverse();
    Ok(Some(Walk { points, steps }))
}

/// A lasso's discrete path: (locations, data) per state, the transitions
/// between (`None`: a tick), the index of the transition that opens the
/// loop, and of the state where phase 1 begins (the tick clock reset).
pub(super) struct Path {
    states: Vec<(Box<[u32]>, Vec<i64>)>,
    steps: Vec<Option<Transition>>,
    open: usize,
    entered: usize,
}

/// The lasso through the accepting SCC `scc` whose root ends `path`
/// (`steps[k]` into `path[k]`), or `None` when the walk fails.
pub(super) fn lasso<S: ClockSet + Hash>(
    g: &mut Live<'_, '_, S>,
    path: &[u32],
    steps: &[Arc],
    scc: &[u32],
) -> Result<Option<Path>, Stop> {
    let stats = g.stats;
    let set: FxHashSet<u32> = scc.iter().copied().collect();
    let root = *path.last().expect("a path");
    // Inside the SCC to the source `u` of a tick `u -> v`, and back to `u`.
    let (to_v, arcs_to_v) = bfs(g, &set, root, &|_, a: &Arc, _| *a == Arc::Tick)?;
    let v = *to_v.last().expect("a tick");
    let u = if to_v.len() >= 2 { to_v[to_v.len() - 2] } else { root };
    let (back, back_arcs) = if v == u { (Vec::new(), Vec::new()) } else { bfs(g, &set, v, &|_, _: &Arc, m| m == u)? };
    let mut prefix: Vec<u32> = path.to_vec();
    prefix.extend(&to_v[..to_v.len() - 1]);
    let mut prefix_arcs: Vec<Arc> = steps[1..].to_vec();
    prefix_arcs.extend_from_slice(&arcs_to_v[..arcs_to_v.len() - 1]);
    let cycle: Vec<u32> = [u, v].into_iter().chain(back).collect();
    let cycle_arcs: Vec<Arc> = [Arc::Tick].into_iter().chain(back_arcs).collect();
    let trace = build(g, &prefix, &prefix_arcs, &cycle, &cycle_arcs);
    g.stats = stats;
    trace
}

fn build<S: ClockSet + Hash>(
    g: &mut Live<'_, '_, S>,
    prefix: &[u32],
    prefix_arcs: &[Arc],
    cycle: &[u32],
    cycle_arcs: &[Arc],
) -> Result<Option<Path>, Stop> {
    let u = cycle[0];
    let Some(mut x) = g.enc.pick(&g.m, g.nodes[u as usize].data) else { return Ok(None) };
    // Round `k` (from 1) leads forwards from `x_k` to `x_{k - 1}`.
    let mut seen: FxHashMap<Vec<i64>, usize> = FxHashMap::from_iter([(x.clone(), 0)]);
    let mut rounds: Vec<Walk> = Vec::new();
    let (first, last) = loop {
        if rounds.len() == MAX_ROUNDS {
            return Ok(None);
        }
        let Some(w) = walk_back(g, cycle, cycle_arcs, x)? else { return Ok(None) };
        x = w.points[0].clone();
        rounds.push(w);
        if let Some(&i) = seen.get(&x) {
            break (i, rounds.len());
        }
        seen.insert(x.clone(), rounds.len());
    };
    // Forwards from `x_last` (= `x_first`): rounds last, …, first + 1.
    let looped: Vec<Walk> = rounds.drain(first..last).rev().collect();
    let Some(into) = walk_back(g, prefix, prefix_arcs, looped[0].points[0].clone())? else { return Ok(None) };
    if !g.enc.contains(&g.m, g.initial, &into.points[0]) {
        return Ok(None);
    }
    // The discrete path: (locations, data) per state, transitions between.
    let locs: Vec<Box<[u32]>> = g.nodes.iter().map(|n| n.locs.clone()).collect();
    let mut states = vec![(locs[prefix[0] as usize].clone(), into.points[0].clone())];
    let mut transitions: Vec<Option<Transition>> = Vec::new();
    let mut entered = 0;
    let mut push = |nodes: &[u32], arcs: &[Arc], w: &Walk, states: &mut Vec<_>, transitions: &mut Vec<_>| {
        for k in 0..arcs.len() {
            if arcs[k] == Arc::Enter {
                entered = states.len() - 1;
            } else {
                states.push((locs[nodes[k + 1] as usize].clone(), w.points[k + 1].clone()));
                transitions.push(w.steps[k].clone());
            }
        }
    };
    push(prefix, prefix_arcs, &into, &mut states, &mut transitions);
    let open = transitions.len();
    for w in &looped {
        push(cycle, cycle_arcs, w, &mut states, &mut transitions);
    }
    // The closing tick, into the loop's second state once more.
    states.push(states[open + 1].clone());
    transitions.push(None);
    Ok(Some(Path { states, steps: transitions, open, entered }))
}

/// The states of `path` with their exact sets (on `net`, with the tick
/// clock `z`; on a linear network reset where phase 1 begins and kept
/// `<= 1` from there, as the search does) and its transitions, or `None` if
/// the explicit semantics disagrees.
fn replay<S: ClockSet>(net: &Network, z: u32, path: Path) -> Option<(Vec<ZoneState<S>>, Vec<Transition>)> {
    let linear = net.hybrid.is_some();
    let mut zg = ZoneGraph::<S>::with_sets(net, Abstraction::None);
    let discrete = |(locs, data): &(Box<[u32]>, Vec<i64>)| Discrete { locs: locs.clone(), data: data.clone().into() };
    let mut s = ZoneState { discrete: discrete(&path.states[0]), zone: zg.initial_zone() };
    if !zg.invariant(&s.discrete, &mut s.zone).ok()? {
        return None;
    }
    zg.delay(&mut s, None).ok()?;
    let mut out = vec![s];
    let mut transitions = Vec::new();
    for (k, (t, want)) in path.steps.into_iter().zip(&path.states[1..]).enumerate() {
        // On a linear network the periodic test reads the tick clock
        // (zones' traces need no reset the steps do not show).
        if linear && k == path.entered {
            let at = out.last_mut().expect("a state");
            at.zone.reset(z as usize, 0);
            zg.delay(at, None).ok()?;
        }
        if linear && k >= path.entered {
            out.last_mut().expect("a state").zone.constrain(z as usize, 0, Bound::le(1));
        }
        let at = out.last().expect("a state");
        let (next, t) = match t {
            None => (
                tick_exact(&mut zg, at, z).ok()??,
                Transition { edges: Vec::new(), out: Vec::new(), unless: Vec::new() },
            ),
            Some(t) => (zg.post_exact(at, &t).ok()??, t),
        };
        if next.discrete != discrete(want) {
            return None;
        }
        out.push(next);
        transitions.push(t);
    }
    Some((out, transitions))
}

/// The trace of a lasso on zones.
fn trace(states: Vec<ZoneState>, steps: Vec<Transition>, z: u32, open: usize) -> SymbolicTrace {
    let goal = Federation::from_zone(states.last().expect("a state").zone.clone());
    SymbolicTrace {
        states,
        steps,
        goal,
        target: None,
        error: None,
        tick_clock: Some(z),
        loop_start: Some(open),
        blame: None,
        concrete: None,
    }
}

/// How a lasso's discrete path (`None`: the walk found none) becomes the
/// search's answer: its trace, or why there is none.
pub(super) type Finish = fn(&Network, u32, Option<Path>) -> Result<Option<SymbolicTrace>, Stop>;

/// A timed network's lasso: `path` (if the walk found one) replayed on
/// zones; `None` (no trace rather than a wrong one) if the walk or the
/// replay fails: the zone graph's cycle is a run anyway.
pub(super) fn on_zones(net: &Network, z: u32, path: Option<Path>) -> Result<Option<SymbolicTrace>, Stop> {
    let Some(path) = path else { return Ok(None) };
    let open = path.open;
    Ok(replay::<Dbm>(net, z, path).map(|(states, steps)| trace(states, steps, z, open)))
}

/// A linear network's lasso: `path` replayed on exact polyhedra, its loop
/// (from the state before the opening tick, through every round walked, to
/// the same data) confirmed by an ultimately periodic run. Without one the
/// search's cycle proves nothing, and the answer is unknown, said; the
/// trace is the path into the loop, without ticks, as the explicit engine
/// gives it ([`periodic::without_ticks`]).
pub(super) fn periodic(net: &Network, z: u32, path: Option<Path>) -> Result<Option<SymbolicTrace>, Stop> {
    let unconfirmed = |why: &str| Err(Stop::Limit(Unknown::Unsupported(why.into())));
    let Some(path) = path else { return unconfirmed(periodic::UNCONFIRMED) };
    let open = path.open;
    let Some((states, steps)) = replay::<Poly>(net, z, path) else {
        return unconfirmed("a cycle of polyhedra was found but no concrete lasso along it");
    };
    let last = steps.len() - 1;
    match periodic::runs_forever(net, &states[open], &steps[open..last], z) {
        Ok(true) => {}
        Ok(false) => {
            return unconfirmed(periodic::UNCONFIRMED);
        }
        Err(_) => return Err(Stop::Error),
    }
    let placeholder = |s: ZoneState<Poly>| ZoneState {
        zone: placeholder_zone(&s.zone).expect("a placeholder"),
        discrete: s.discrete,
    };
    let states = states.into_iter().map(placeholder).collect();
    Ok(Some(periodic::without_ticks(trace(states, steps, z, open), open)))
}
