//! A concrete witness for a data-symbolic search: one valuation picked
//! backwards through the nodes' parents (at each step, a parent whose step
//! maps one of its valuations onto the one picked after it, and that one),
//! then the path replayed with that data by the explicit zone graph, whose
//! trace the validator checks like any other.

use super::search::{self, Run, enabled};
use super::{deadlock, edges};
use crate::bdd;
use crate::domain::ClockSet;
use crate::domain::federation::Federation;
use crate::domain::zone::Dbm;
use crate::engine::SymbolicTrace;
use crate::network::{Network, StateFormula};
use crate::semantics::{Discrete, ZoneGraph, ZoneState};

/// The trace to `node`, or `None` when the replay fails (the data search
/// and the explicit semantics disagree: then no trace rather than a wrong
/// one); `to_zone` gives its states' zones.
pub fn witness<S: ClockSet>(
    net: &Network,
    run: &mut Run<S>,
    node: u32,
    goal: &StateFormula,
    to_zone: fn(&S) -> Option<Dbm>,
) -> Option<SymbolicTrace> {
    let (m, enc) = (&mut run.m, &run.enc);
    let last = &run.nodes[node as usize];
    let mut zg = ZoneGraph::<S>::with_sets(net, run.abstraction);
    let hit = deadlock::sat(net, &mut zg, m, enc, &last.locs, last.data, &last.zone, goal).ok()?.pass;
    let mut point = enc.pick(m, hit)?;
    let mut steps = Vec::new();
    let mut at = node;
    let grouped = edges::grouped(net);
    // Parents are expanded before their children: the walk ends (see `search`).
    'walk: loop {
        let to = &run.nodes[at as usize];
        for parent in &to.parents {
            let Some((from, step)) = parent else {
                if enc.contains(m, run.initial, &point) {
                    break 'walk;
                }
                continue;
            };
            let from = &run.nodes[*from as usize];
            // The data the search took the step with (for a broadcast, also
            // the data where the processes left out have no receiving edge).
            let (enabled, _) = enabled(net, &grouped, m, enc, &from.locs, from.data).ok()?;
            let set = search::steps(net, &from.locs, &enabled, m, enc).into_iter().find(|(s, _)| s == step)?.1;
            let updates = step.edges(net).flat_map(|e| &e.updates);
            let pre = bdd::step::preimage(m, enc, &net.slots, &to.locs, net.out_of_range, set, updates, &point).ok()?;
            let Some(mut all) = enc.pick_all(m, pre) else { continue };
            steps.push(step.concrete(net, &all[net.slots.len()..])?);
            all.truncate(net.slots.len());
            point = all;
            at = parent.as_ref().expect("a step").0;
            continue 'walk;
        }
        return None;
    }
    steps.reverse();
    replay(net, run, point, steps, goal, to_zone)
}

/// The explicit run from data `initial` along `steps`.
fn replay<S: ClockSet>(
    net: &Network,
    run: &Run<S>,
    initial: Vec<i64>,
    steps: Vec<crate::semantics::Transition>,
    goal: &StateFormula,
    to_zone: fn(&S) -> Option<Dbm>,
) -> Option<SymbolicTrace> {
    let mut zg = ZoneGraph::<S>::with_sets(net, run.abstraction);
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
    let zoned = |s: ZoneState<S>| Some(ZoneState { discrete: s.discrete, zone: to_zone(&s.zone)? });
    Some(SymbolicTrace {
        states: states.into_iter().map(zoned).collect::<Option<_>>()?,
        steps,
        goal: Federation { zones: hit.zones.iter().map(to_zone).collect::<Option<_>>()? },
        target: Some(goal.clone()),
        error: None,
        tick_clock: None,
        loop_start: None,
        blame: None,
        concrete: None,
    })
}
