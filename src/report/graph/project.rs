//! The zone graph quotiented onto some instances' locations: a node per
//! location vector of the kept instances that some state has, an edge per
//! distinct (node, steps of the kept instances, node). A step that moves
//! none of the kept instances leaves the node unchanged; it is left out
//! and counted. Data and zones are projected away.

use super::{SetText, esc, step_text};
use crate::engine::graph::Graph;
use crate::network::Network;
use crate::semantics::Transition;

/// The quotient of a zone graph; node `i` is `nodes[i]`.
pub struct Projection {
    /// The kept instances, in network order.
    pub keep: Vec<usize>,
    /// Per node: the kept instances' locations, and how many states it merges.
    pub nodes: Vec<(Vec<u32>, usize)>,
    pub initial: Vec<u32>,
    /// `(from, label, to)`, sorted, each once.
    pub edges: Vec<(u32, String, u32)>,
    /// Steps of the graph that moved none of the kept instances.
    pub hidden: usize,
    pub states: usize,
    pub graph_edges: usize,
    /// What the graph and its sets are called ([`SetText`]).
    pub names: (&'static str, &'static str),
}

/// `g` quotiented onto the instances `keep`.
pub fn project<S: SetText>(net: &Network, g: &Graph<S>, keep: &[usize]) -> Projection {
    let mut keep = keep.to_vec();
    keep.sort_unstable();
    keep.dedup();
    let key = |i: usize| -> Vec<u32> { keep.iter().map(|&p| g.states[i].discrete.locs[p]).collect() };
    let mut nodes: Vec<(Vec<u32>, usize)> = Vec::new();
    let mut index = std::collections::BTreeMap::new();
    let mut of_state = Vec::with_capacity(g.states.len());
    for i in 0..g.states.len() {
        let k = key(i);
        let id = *index.entry(k.clone()).or_insert_with(|| {
            nodes.push((k, 0));
            nodes.len() as u32 - 1
        });
        nodes[id as usize].1 += 1;
        of_state.push(id);
    }
    let mut edges = std::collections::BTreeSet::new();
    let mut hidden = 0;
    for (a, t, b) in &g.edges {
        let kept = Transition {
            edges: t.edges.iter().copied().filter(|(p, _)| keep.contains(&(*p as usize))).collect(),
            out: t.out.iter().copied().filter(|(p, _, _)| keep.contains(&(*p as usize))).collect(),
            unless: t.unless.clone(),
        };
        if kept.edges.is_empty() {
            hidden += 1;
            continue;
        }
        edges.insert((of_state[*a as usize], step_text(net, &kept), of_state[*b as usize]));
    }
    let mut initial: Vec<u32> = g.initial.iter().map(|&i| of_state[i as usize]).collect();
    initial.sort_unstable();
    initial.dedup();
    Projection {
        keep,
        nodes,
        initial,
        edges: edges.into_iter().collect(),
        hidden,
        states: g.states.len(),
        graph_edges: g.edges.len(),
        names: (S::GRAPH, S::WORDS),
    }
}

impl Projection {
    /// What was projected away, in one line.
    pub fn note(&self, net: &Network) -> String {
        let names = |ps: &mut dyn Iterator<Item = usize>| -> String {
            ps.map(|p| net.processes[p].name.clone()).collect::<Vec<_>>().join(", ")
        };
        let away = names(&mut (0..net.processes.len()).filter(|p| !self.keep.contains(p)));
        format!(
            "projected onto {}: {} states and {} edges of the {} merged into {} nodes and {} edges; \
             projected away: {}the data and the {}; {} steps that move none of the kept instances left out",
            names(&mut self.keep.iter().copied()),
            self.states,
            self.graph_edges,
            self.names.0,
            self.nodes.len(),
            self.edges.len(),
            if away.is_empty() { String::new() } else { format!("the instances {away}, ") },
            self.names.1,
            self.hidden
        )
    }

    /// As DOT, the note as the graph's label and a comment; at most
    /// `max_nodes` nodes, in node order.
    pub fn dot(&self, net: &Network, max_nodes: Option<usize>) -> String {
        let max = max_nodes.unwrap_or(usize::MAX);
        let mut note = self.note(net);
        if self.nodes.len() > max {
            note.push_str(&format!("; cut: {max} of {} nodes shown", self.nodes.len()));
        }
        let mut out = format!(
            "// {note}\ndigraph \"{}\" {{\n  label=\"{}\";\n  labelloc=t;\n  node [shape=box, style=rounded, fontname=monospace];\n",
            esc(&net.name),
            // One line per part in the drawing.
            esc(&note).replace("; ", "\\n")
        );
        for (i, (locs, merged)) in self.nodes.iter().enumerate().take(max) {
            let label: Vec<String> = self
                .keep
                .iter()
                .zip(locs)
                .map(|(&p, &l)| format!("{}.{}", net.processes[p].name, net.processes[p].locations[l as usize].name))
                .collect();
            let bold = if self.initial.contains(&(i as u32)) { ", penwidth=2" } else { "" };
            out.push_str(&format!("  n{i} [label=\"{}\\n({merged} states)\"{bold}];\n", esc(&label.join(" "))));
        }
        for (a, label, b) in self.edges.iter().filter(|(a, _, b)| (*a as usize) < max && (*b as usize) < max) {
            out.push_str(&format!("  n{a} -> n{b} [label=\"{}\"];\n", esc(label)));
        }
        out.push_str("}\n");
        out
    }
}
