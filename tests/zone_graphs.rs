//! Snapshots of whole zone graphs (canonical YAML): small models whose every
//! state and step a reviewer can check by hand.

use crate::common;

use std::path::Path;

use kairos::engine::graph::zone_graph;
use kairos::engine::reach::Limits;
use kairos::model::load::load_model;
use kairos::semantics::{Abstraction, ZoneGraph};
use kairos::syntax::yaml::Source;

/// The graph of `path`, with the constant `N` set to `n` when given.
fn graph(path: &str, n: Option<(&str, i64)>, abstraction: Abstraction) -> String {
    let mut src = common::source(Path::new(path));
    if let Some((name, value)) = n {
        let line = src
            .text
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{name}:")))
            .expect("the constant")
            .to_string();
        let indent = &line[..line.len() - line.trim_start().len()];
        src = Source::new(src.name.to_string(), src.text.replacen(&line, &format!("{indent}{name}: {value}"), 1));
    }
    let loaded = load_model(&src).unwrap_or_else(|d| panic!("{d:?}"));
    let net = kairos::network::build(&loaded.model).unwrap();
    let mut zg = ZoneGraph::new(&net, abstraction);
    let g = zone_graph(&mut zg, &Limits { max_states: Some(100_000), ..Limits::default() }).unwrap();
    kairos::report::graph::yaml(&net, &g)
}

fn snapshot(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots/zone_graphs");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn railway_crossing_with_one_and_two_trains() {
    snapshot("railway-crossing-1", &graph("models/railway-crossing.yaml", Some(("N", 1)), Abstraction::Lu));
    snapshot("railway-crossing-2", &graph("models/railway-crossing.yaml", Some(("N", 2)), Abstraction::Lu));
}

#[test]
fn fischer_with_two_processes() {
    snapshot("fischer-2", &graph("models/fischer.yaml", Some(("N", 2)), Abstraction::Lu));
}

#[test]
fn train_gate_with_two_trains() {
    snapshot("train-gate-2", &graph("models/train-gate.yaml", Some(("N", 2)), Abstraction::Lu));
}

/// Hand-made automata, with exact zones so every constraint shows.
#[test]
fn hand_made_automata() {
    for name in ["strict-bounds", "urgency", "committed", "broadcast", "non-moving-invariant"] {
        snapshot(name, &graph(&format!("tests/models/zone/{name}.yaml"), None, Abstraction::None));
    }
}

#[test]
fn the_graph_is_the_same_bytes_every_time() {
    let a = graph("models/train-gate.yaml", Some(("N", 2)), Abstraction::Lu);
    let b = graph("models/train-gate.yaml", Some(("N", 2)), Abstraction::Lu);
    assert_eq!(a, b);
}
