//! The zone graph as DOT, YAML or JSON, with readable zones; for a large
//! graph, its quotient onto some instances ([`project`]) or its first
//! nodes ([`cut`]). The graph of polyhedra (hybrid models, or `--domain
//! poly`) is printed the same way, each polyhedron as its canonical
//! constraints ([`SetText`]).

mod active;
mod cut;
pub mod project;

use serde_json::{Value, json};

use crate::domain::ClockSet;
use crate::domain::poly::{Constraint, Poly, Rel};
use crate::domain::zone::Dbm;
use crate::engine::graph::Graph;
use crate::engine::synth::constraint_text;
use crate::network::Network;
use crate::semantics::{Transition, ZoneState};

/// A node's set of valuations as the printers show it.
pub trait SetText: ClockSet {
    /// What one set is called (the JSON and YAML key), several, and the
    /// graph of them.
    const WORD: &'static str;
    const WORDS: &'static str;
    const GRAPH: &'static str;
    /// The set over `names` (slot `k - 1` names variable `k`: the clocks,
    /// then the continuous variables) in kairos expression syntax: `true`,
    /// `false`, or a conjunction with `&&`.
    fn text(&self, names: &[String]) -> String;
}

impl SetText for Dbm {
    const WORD: &'static str = "zone";
    const WORDS: &'static str = "zones";
    const GRAPH: &'static str = "zone graph";
    fn text(&self, names: &[String]) -> String {
        self.display(names).to_string()
    }
}

/// Each canonical constraint (`domain::poly`: the set's unique minimal
/// system) scaled to coprime integers, which changes neither the set nor
/// the strictness, so no rational appears: the equalities, then the
/// inequalities, each group in the canonical order (`t == level - 1 &&
/// level >= 1 && level <= 10`, `2*t + level == 16 && ...`).
impl SetText for Poly {
    const WORD: &'static str = "polyhedron";
    const WORDS: &'static str = "polyhedra";
    const GRAPH: &'static str = "graph of polyhedra";
    fn text(&self, names: &[String]) -> String {
        if self.is_empty() {
            return "false".into();
        }
        if self.constraints().is_empty() {
            return "true".into();
        }
        let (eqs, ineqs): (Vec<&Constraint>, Vec<&Constraint>) =
            self.constraints().iter().partition(|c| c.rel == Rel::Eq);
        let text = |c: &Constraint| constraint_text(&c.clone().normalised(), names);
        eqs.into_iter().chain(ineqs).map(text).collect::<Vec<_>>().join(" && ")
    }
}

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
    format!("{name}{}", dir.mark())
}

fn locations<S>(net: &Network, s: &ZoneState<S>) -> Vec<(String, String)> {
    net.processes
        .iter()
        .zip(s.discrete.locs.iter())
        .map(|(p, &l)| (p.name.clone(), p.locations[l as usize].name.clone()))
        .collect()
}

fn vars<S>(net: &Network, s: &ZoneState<S>) -> Vec<(String, String)> {
    net.slots
        .iter()
        .zip(s.discrete.data.iter())
        .map(|(slot, &v)| (slot.name.clone(), if slot.is_bool { (v != 0).to_string() } else { v.to_string() }))
        .collect()
}

fn zone<S: SetText>(net: &Network, s: &ZoneState<S>) -> String {
    s.zone.text(&net.clocks)
}

/// How [`dot`] draws a zone graph.
#[derive(Clone, Copy, Debug, Default)]
pub struct DotView {
    /// The zones are extrapolated (said in the graph's label).
    pub extrapolated: bool,
    /// Draw at most this many nodes, the first in breadth-first order
    /// from the initial states.
    pub max_nodes: Option<usize>,
}

/// A string inside DOT double quotes.
fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The zone graph as DOT: a cluster per location vector, each node its
/// data and its zone on the clocks that matter there ([`active`]); the
/// label says whether the zones are extrapolated and what `max_nodes` cut.
/// The sets of a linear network (hybrid, or with rational parameter
/// values) are drawn whole: [`active`] reads difference constraints only.
pub fn dot<S: SetText>(net: &Network, g: &Graph<S>, view: &DotView) -> String {
    let (word, words) = (S::WORD, S::WORDS);
    let shown = cut::first_nodes(g, view.max_nodes);
    let kept = shown.iter().filter(|&&k| k).count();
    let mut note = vec![if view.extrapolated {
        format!("{words} extrapolated (ExtraLU+: a {word} may hold valuations no run reaches)")
    } else {
        format!("exact {words} (no extrapolation)")
    }];
    let linear = net.hybrid.is_some();
    note.push(if linear {
        format!("each {word} over every clock and continuous variable")
    } else {
        format!("each {word} on the clocks that matter in its locations")
    });
    if kept < g.states.len() {
        let cut_edges = g.edges.iter().filter(|(a, _, b)| shown[*a as usize] && !shown[*b as usize]).count();
        note.push(format!(
            "cut: {kept} of {} nodes shown (breadth-first from the initial state), {cut_edges} edges to nodes not shown \
             left out (their sources dashed)",
            g.states.len()
        ));
    }
    // One line per part in the drawing.
    let label: Vec<String> = note.iter().map(|n| esc(n)).collect();
    let mut out = format!(
        "// {}\ndigraph \"{}\" {{\n  label=\"{}\";\n  labelloc=t;\n  node [shape=box, fontname=monospace];\n",
        note.join("; "),
        esc(&net.name),
        label.join("\\n")
    );
    let active = active::Active::new(net);
    let mut clusters: std::collections::BTreeMap<&[u32], Vec<usize>> = Default::default();
    for (i, s) in g.states.iter().enumerate() {
        if shown[i] {
            clusters.entry(&s.discrete.locs).or_default().push(i);
        }
    }
    let has_cut_edge = |i: usize| g.edges.iter().any(|(a, _, b)| *a as usize == i && !shown[*b as usize]);
    for (c, (_, members)) in clusters.iter().enumerate() {
        let locs: Vec<String> =
            locations(net, &g.states[members[0]]).into_iter().map(|(p, l)| format!("{p}.{l}")).collect();
        out.push_str(&format!(
            "  subgraph cluster_{c} {{\n    label=\"{}\";\n    style=rounded;\n",
            esc(&locs.join(" "))
        ));
        for &i in members {
            let s = &g.states[i];
            let mut lines: Vec<String> = Vec::new();
            let vs: Vec<String> = vars(net, s).into_iter().map(|(n, v)| format!("{n} = {v}")).collect();
            if !vs.is_empty() {
                lines.push(vs.join(", "));
            }
            let mut zone = s.zone.clone();
            for k in (1..net.dim()).filter(|_| !linear) {
                if !active.at(&s.discrete.locs, k) {
                    zone.free(k);
                }
            }
            lines.push(zone.text(&net.clocks));
            let mut style = Vec::new();
            if g.initial.contains(&(i as u32)) {
                style.push("bold");
            }
            if has_cut_edge(i) {
                style.push("dashed");
            }
            let style = if style.is_empty() { String::new() } else { format!(", style=\"{}\"", style.join(",")) };
            let label: Vec<String> = lines.iter().map(|l| esc(l)).collect();
            out.push_str(&format!("    n{i} [label=\"{}\"{style}];\n", label.join("\\n")));
        }
        out.push_str("  }\n");
    }
    for (a, t, b) in &g.edges {
        if shown[*a as usize] && shown[*b as usize] {
            out.push_str(&format!("  n{a} -> n{b} [label=\"{}\"];\n", esc(&step_text(net, t))));
        }
    }
    out.push_str("}\n");
    out
}

pub fn json<S: SetText>(net: &Network, g: &Graph<S>) -> Value {
    let nodes: Vec<Value> = g
        .states
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let locs: serde_json::Map<String, Value> =
                locations(net, s).into_iter().map(|(p, l)| (p, json!(l))).collect();
            let vs: serde_json::Map<String, Value> = vars(net, s).into_iter().map(|(n, v)| (n, json!(v))).collect();
            let mut node = json!({"id": i, "initial": g.initial.contains(&(i as u32)), "locations": locs, "vars": vs});
            node[S::WORD] = json!(zone(net, s));
            node
        })
        .collect();
    let edges: Vec<Value> =
        g.edges.iter().map(|(a, t, b)| json!({"from": a, "to": b, "step": step_text(net, t)})).collect();
    json!({"model": net.name, "nodes": nodes, "edges": edges})
}

/// YAML, written by hand: the structure is fixed and shallow.
pub fn yaml<S: SetText>(net: &Network, g: &Graph<S>) -> String {
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
        out.push_str(&format!("    {}: {}\n", S::WORD, q(&zone(net, s))));
    }
    out.push_str("edges:\n");
    for (a, t, b) in &g.edges {
        out.push_str(&format!("  - {{from: {a}, to: {b}, step: {}}}\n", q(&step_text(net, t))));
    }
    out
}
