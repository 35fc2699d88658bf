//! The zone graph as DOT, YAML or JSON, with readable zones.

use serde_json::{Value, json};

use crate::engine::graph::Graph;
use crate::network::Network;
use crate::semantics::{Transition, ZoneState};

/// `Train(1): far -> near approach!, Gate: up -> down approach?`
pub fn step_text(net: &Network, t: &Transition) -> String {
    let parts: Vec<String> = t
        .edges
        .iter()
        .map(|&(p, e)| {
            let edge = &net.processes[p as usize].edges[e as usize];
            let mut s = net.edge_text(p, e);
            if let Some(sync) = &edge.sync {
                s.push(' ');
                s.push_str(&sync_text(net, &sync.channel, sync.dir));
            }
            for (name, v) in &edge.select {
                s.push_str(&format!(" [{name}={v}]"));
            }
            s
        })
        .collect();
    parts.join(", ")
}

pub fn sync_text(net: &Network, c: &crate::network::ChannelIndex, dir: crate::model::typed::Dir) -> String {
    let name = match c {
        crate::network::ChannelIndex::Fixed(k) => net.channels[*k as usize].name.clone(),
        crate::network::ChannelIndex::Dynamic { base, .. } => {
            let n = &net.channels[*base as usize].name;
            format!("{}[..]", n.split('[').next().unwrap_or(n))
        }
    };
    format!("{name}{}", if dir == crate::model::typed::Dir::Send { "!" } else { "?" })
}

fn locations(net: &Network, s: &ZoneState) -> Vec<(String, String)> {
    net.processes
        .iter()
        .zip(s.discrete.locs.iter())
        .map(|(p, &l)| (p.name.clone(), p.locations[l as usize].name.clone()))
        .collect()
}

fn vars(net: &Network, s: &ZoneState) -> Vec<(String, String)> {
    net.slots
        .iter()
        .zip(s.discrete.data.iter())
        .map(|(slot, &v)| (slot.name.clone(), if slot.is_bool { (v != 0).to_string() } else { v.to_string() }))
        .collect()
}

fn zone(net: &Network, s: &ZoneState) -> String {
    s.zone.display(&net.clocks).to_string()
}

pub fn dot(net: &Network, g: &Graph) -> String {
    let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let mut out = format!("digraph \"{}\" {{\n  node [shape=box, fontname=monospace];\n", esc(&net.name));
    for (i, s) in g.states.iter().enumerate() {
        let locs: Vec<String> = locations(net, s).into_iter().map(|(p, l)| format!("{p}.{l}")).collect();
        let mut label = locs.join(" ");
        let vs: Vec<String> = vars(net, s).into_iter().map(|(n, v)| format!("{n} = {v}")).collect();
        if !vs.is_empty() {
            label.push_str(&format!("\\n{}", vs.join(", ")));
        }
        label.push_str(&format!("\\n{}", zone(net, s)));
        let style = if g.initial.contains(&(i as u32)) { ", style=bold" } else { "" };
        out.push_str(&format!("  n{i} [label=\"{}\"{style}];\n", esc(&label).replace("\\\\n", "\\n")));
    }
    for (a, t, b) in &g.edges {
        out.push_str(&format!("  n{a} -> n{b} [label=\"{}\"];\n", esc(&step_text(net, t))));
    }
    out.push_str("}\n");
    out
}

pub fn json(net: &Network, g: &Graph) -> Value {
    let nodes: Vec<Value> = g
        .states
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let locs: serde_json::Map<String, Value> = locations(net, s).into_iter().map(|(p, l)| (p, json!(l))).collect();
            let vs: serde_json::Map<String, Value> = vars(net, s).into_iter().map(|(n, v)| (n, json!(v))).collect();
            json!({"id": i, "initial": g.initial.contains(&(i as u32)), "locations": locs, "vars": vs, "zone": zone(net, s)})
        })
        .collect();
    let edges: Vec<Value> =
        g.edges.iter().map(|(a, t, b)| json!({"from": a, "to": b, "step": step_text(net, t)})).collect();
    json!({"model": net.name, "nodes": nodes, "edges": edges})
}

/// YAML, written by hand: the structure is fixed and shallow.
pub fn yaml(net: &Network, g: &Graph) -> String {
    let q = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    let mut out = format!("model: {}\nnodes:\n", q(&net.name));
    for (i, s) in g.states.iter().enumerate() {
        out.push_str(&format!("  - id: {i}\n"));
        if g.initial.contains(&(i as u32)) {
            out.push_str("    initial: true\n");
        }
        out.push_str("    locations: {");
        let locs: Vec<String> = locations(net, s).into_iter().map(|(p, l)| format!("{}: {}", q(&p), q(&l))).collect();
        out.push_str(&locs.join(", "));
        out.push_str("}\n");
        let vs: Vec<String> = vars(net, s).into_iter().map(|(n, v)| format!("{}: {v}", q(&n))).collect();
        if !vs.is_empty() {
            out.push_str(&format!("    vars: {{{}}}\n", vs.join(", ")));
        }
        out.push_str(&format!("    zone: {}\n", q(&zone(net, s))));
    }
    out.push_str("edges:\n");
    for (a, t, b) in &g.edges {
        out.push_str(&format!("  - {{from: {a}, to: {b}, step: {}}}\n", q(&step_text(net, t))));
    }
    out
}
