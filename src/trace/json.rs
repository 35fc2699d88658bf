//! The JSON form of FORMAT.md section 7: a list of steps
//! `{"delay", "edges", "state"}`. The first step is the initial state
//! (delay 0, no edges); a final pure delay is a step without edges, present
//! when it is not 0; a lasso's progress marks are steps without edges
//! with `"progress": true` (the property's `loop_start` is the index of
//! the first, see [`loop_start`]). Rationals are strings (`"7/2"`, `"3"`), so no reader
//! rounds them; data are numbers (booleans for `bool` variables).

use serde_json::{Map, Value, json as j};

use super::names::sync_label;
use super::{ConcreteState, ConcreteTrace};
use crate::network::Network;
use crate::semantics::{Discrete, Transition};

pub fn json(net: &Network, trace: &ConcreteTrace) -> Value {
    let mut steps = vec![step(net, "0".into(), Vec::new(), &trace.initial)];
    let mut at = &trace.initial;
    for (k, s) in trace.steps.iter().enumerate() {
        let mut v = step(net, s.delay.to_string(), edges(net, &at.discrete, &s.transition), &s.after);
        if trace.loop_start.is_some_and(|l| k >= l) && s.transition.edges.is_empty() {
            v["progress"] = true.into();
        }
        steps.push(v);
        at = &s.after;
    }
    if !num_traits::Zero::is_zero(&trace.final_delay) {
        steps.push(step(net, trace.final_delay.to_string(), Vec::new(), &trace.end()));
    }
    Value::Array(steps)
}

/// The JSON index of a lasso's loop start (step 0 is the initial state).
pub fn loop_start(trace: &ConcreteTrace) -> Option<usize> {
    trace.loop_start.map(|k| k + 1)
}

fn step(net: &Network, delay: String, edges: Vec<Value>, s: &ConcreteState) -> Value {
    j!({"delay": delay, "edges": edges, "state": state(net, s)})
}

/// `{"locations": {"Train(1)": "far"}, "vars": {"count": 0}, "clocks": {"Train(1).x": "7/2"}}`.
pub fn state(net: &Network, s: &ConcreteState) -> Value {
    let locations: Map<String, Value> = net
        .processes
        .iter()
        .zip(s.discrete.locs.iter())
        .map(|(p, &l)| (p.name.clone(), Value::from(p.locations[l as usize].name.clone())))
        .collect();
    let vars: Map<String, Value> = net
        .slots
        .iter()
        .enumerate()
        .map(|(k, slot)| {
            let v = s.discrete.data[k];
            (slot.name.clone(), if slot.is_bool { Value::from(v != 0) } else { Value::from(v) })
        })
        .collect();
    let clocks: Map<String, Value> =
        net.clocks.iter().zip(&s.clocks).map(|(n, v)| (n.clone(), Value::from(v.to_string()))).collect();
    j!({"locations": locations, "vars": vars, "clocks": clocks})
}

/// `[{"instance": "Train(1)", "from": "far", "to": "near", "sync": "approach!"}]`;
/// `sync` is null for an internal edge, and `select` holds the values of
/// the edge's `select` variables when it has some.
pub fn edges(net: &Network, d: &Discrete, t: &Transition) -> Vec<Value> {
    t.edges
        .iter()
        .map(|&(p, e)| {
            let proc_ = &net.processes[p as usize];
            let edge = &proc_.edges[e as usize];
            let mut o = Map::new();
            o.insert("instance".into(), proc_.name.clone().into());
            o.insert("from".into(), proc_.locations[edge.from as usize].name.clone().into());
            o.insert("to".into(), proc_.locations[edge.to as usize].name.clone().into());
            o.insert("sync".into(), sync_label(net, edge, d).map_or(Value::Null, Value::from));
            if !edge.select.is_empty() {
                let sel: Map<String, Value> = edge.select.iter().map(|(n, v)| (n.clone(), Value::from(*v))).collect();
                o.insert("select".into(), Value::Object(sel));
            }
            Value::Object(o)
        })
        .collect()
}
