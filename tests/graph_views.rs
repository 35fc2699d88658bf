//! `kairos graph` at size: the quotient onto some instances, checked
//! against the location vectors of the whole graph; `--max-nodes`; zones on
//! the clocks that matter; `--format svg` without Graphviz.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use kairos::engine::graph::{Graph, zone_graph};
use kairos::engine::reach::Limits;
use kairos::network::Network;
use kairos::report::graph::{DotView, dot, project::project};
use kairos::semantics::{Abstraction, ZoneGraph};

fn railway() -> (Network, Graph) {
    let loaded = common::load(Path::new("models/railway-crossing.yaml")).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let g = zone_graph(&mut ZoneGraph::new(&net, Abstraction::Lu), &Limits::default()).unwrap();
    (net, g)
}

/// The node statements of a DOT text (`n12 [label=...]`).
fn node_lines(dot: &str) -> Vec<&str> {
    dot.lines().filter(|l| l.trim_start().starts_with("n") && l.contains(" [label=") && !l.contains("->")).collect()
}

#[test]
fn the_quotient_has_one_node_per_projected_location_vector() {
    let (net, g) = railway();
    for keep in [vec![4], vec![3, 4], vec![0, 3]] {
        let p = project(&net, &g, &keep);
        // The oracle: the distinct projected location vectors of the states,
        // and the distinct projected moves of the edges.
        let vectors: BTreeSet<Vec<u32>> =
            g.states.iter().map(|s| keep.iter().map(|&i| s.discrete.locs[i]).collect()).collect();
        assert_eq!(p.nodes.iter().map(|(v, _)| v.clone()).collect::<BTreeSet<_>>(), vectors);
        assert_eq!(p.nodes.iter().map(|(_, n)| n).sum::<usize>(), g.states.len());
        let moving = g.edges.iter().filter(|(_, t, _)| t.edges.iter().any(|(q, _)| keep.contains(&(*q as usize))));
        assert_eq!(p.hidden + moving.count(), g.edges.len());
        for (a, _, b) in &p.edges {
            assert!((*a as usize) < p.nodes.len() && (*b as usize) < p.nodes.len());
        }
    }
}

#[test]
fn project_gate_is_small_and_says_what_was_projected_away() {
    let (code, out, err) = common::kairos(&["graph", "--project", "Gate", "models/railway-crossing.yaml"]);
    assert_eq!(code, 0, "{err}");
    let nodes = node_lines(&out).len();
    assert!((1..=36).contains(&nodes), "{nodes} nodes:\n{out}");
    assert_eq!(nodes, 4, "up, lowering, down, raising");
    assert!(out.starts_with("// projected onto Gate: 3717 states"), "{out}");
    assert!(
        out.contains("projected away: the instances Train(1), Train(2), Train(3), Controller, the data and the zones")
    );
    assert!(err.contains("projected onto Gate"));
    let (code, _, err) = common::kairos(&["graph", "--project", "Nobody", "models/railway-crossing.yaml"]);
    assert_eq!(code, 2);
    assert!(err.contains("no such instance"), "{err}");
}

#[test]
fn max_nodes_cuts_breadth_first_and_says_so() {
    let (net, g) = railway();
    let text = dot(&net, &g, &DotView { extrapolated: true, max_nodes: Some(6) });
    let nodes = node_lines(&text);
    assert_eq!(nodes.len(), 6);
    assert!(text.contains("cut: 6 of 3717 nodes shown"), "{text}");
    assert!(text.contains("zones extrapolated"));
    // The initial state (every train far, no clock matters) and a train
    // just approached (only its clock matters: the gate's y is reset before
    // it is read).
    assert!(text.contains("n0 [label=\"count = 0\\ntrue\", style=\"bold\"]"), "{text}");
    assert!(text.contains("[label=\"count = 1\\nTrain(1).x == 0\"]"), "{text}");
    let whole = dot(&net, &g, &DotView::default());
    assert!(whole.contains("exact zones") && !whole.contains("cut:"));
    assert_eq!(whole.matches("subgraph cluster_").count(), {
        g.states.iter().map(|s| s.discrete.locs.clone()).collect::<BTreeSet<_>>().len()
    });
}

#[test]
fn svg_needs_graphviz() {
    let empty = std::env::temp_dir().join(format!("kairos-no-dot-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kairos"))
        .args(["graph", "--format", "svg", "--project", "Gate", "models/railway-crossing.yaml"])
        .env("PATH", &empty)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(err.contains("needs Graphviz's `dot` on the PATH"), "{err}");
    assert!(out.stdout.is_empty());
}

/// With Graphviz installed, `--format svg` is its drawing of the DOT.
#[test]
fn svg_through_graphviz_when_installed() {
    let path = std::env::var_os("PATH").unwrap_or_default();
    if !std::env::split_paths(&path).any(|d| d.join("dot").is_file()) {
        println!("skipped: no Graphviz `dot` on the PATH");
        return;
    }
    let (code, out, err) =
        common::kairos(&["graph", "--format", "svg", "--project", "Gate", "models/railway-crossing.yaml"]);
    assert_eq!(code, 0, "{err}");
    let options = roxmltree::ParsingOptions { allow_dtd: true, ..Default::default() };
    let doc = roxmltree::Document::parse_with_options(&out, options).unwrap();
    let nodes = doc.descendants().filter(|n| n.attribute("class") == Some("node")).count();
    assert_eq!(nodes, 4);
}
