//! A concrete witness for a data-symbolic search: one valuation picked
//! backwards along the path of the search tree (at each step, one of the
//! parent's valuations that the step maps onto the one picked after it),
//! then the path replayed with that data by the explicit zone graph, whose
//! trace the validator checks like any other.

use super::search::{Run, sat};
use crate::bdd::step;
use crate::engine::{Options, SymbolicTrace};
use crate::network::{Network, StateFormula};
use crate::semantics::{Discrete, ZoneGraph, ZoneState};

/// The trace to `node`, or `None` when the replay fails (the data search
/// and the explicit semantics disagree: then no trace rather than a wrong one).
pub fn witness(
    net: &Network,
    run: &mut Run,
    node: u32,
    goal: &StateFormula,
    _options: &Options,
) -> Option<SymbolicTrace> {
    let mut ids = vec![node];
    while let Some((p, _)) = &run.nodes[*ids.last().expect("a node") as usize].parent {
        ids.push(*p);
    }
    ids.reverse();
    let (m, enc) = (&mut run.m, &run.enc);
    let last = &run.nodes[node as usize];
    let hit = sat(m, enc, &last.locs, last.data, goal).ok()?.pass;
    let mut point = enc.pick(m, hit)?;
    let mut steps = Vec::new();
    for w in ids.windows(2).rev() {
        let (from, to) = (&run.nodes[w[0] as usize], &run.nodes[w[1] as usize]);
        let t = to.parent.as_ref().expect("a parent").1.clone();
        let mut set = from.data;
        for &(p, e) in &t.edges {
            if let Some(code) = &net.processes[p as usize].edges[e as usize].guard_data {
                set = step::guard(m, enc, &from.locs, set, code).ok()?.pass;
            }
        }
        let updates = t.edges.iter().flat_map(|&(p, e)| &net.processes[p as usize].edges[e as usize].updates);
        let pre = step::preimage(m, enc, &net.slots, &to.locs, net.out_of_range, set, updates, &point).ok()?;
        point = enc.pick(m, pre)?;
        steps.push(t);
    }
    steps.reverse();
    replay(net, run, point, steps, goal)
}

/// The explicit run from data `initial` along `steps`.
fn replay(
    net: &Network,
    run: &Run,
    initial: Vec<i64>,
    steps: Vec<crate::semantics::Transition>,
    goal: &StateFormula,
) -> Option<SymbolicTrace> {
    let mut zg = ZoneGraph::new(net, run.abstraction);
    let locs: Box<[u32]> = net.processes.iter().map(|p| p.initial).collect();
    let mut s = ZoneState { discrete: Discrete { locs, data: initial.into() }, zone: zg.initial_zone() };
    if !zg.invariant(&s.discrete, &mut s.zone).ok()? {
        return None;
    }
    zg.delay(&mut s, None).ok()?;
    let mut states = vec![s];
    for t in &steps {
        let next = zg.post_exact(states.last().expect("a state"), t).ok()??;
        states.push(next);
    }
    let hit = zg.sat(goal, states.last().expect("a state")).ok()?;
    if hit.is_empty() {
        return None;
    }
    Some(SymbolicTrace {
        states,
        steps,
        goal: hit,
        target: Some(goal.clone()),
        error: None,
        tick_clock: None,
        loop_start: None,
        blame: None,
        concrete: None,
    })
}
