//! The passed list gives back the zones of covered nodes and recomputes
//! them for paths: every node's path must end in exactly the state the
//! search stored for it, recorded as it was admitted (the target test sees
//! the admitted states in node order).

use crate::common;

use std::path::Path;

use kairos::domain::federation::Federation;
use kairos::engine::reach::{Cover, End, Limits, Order, explore};
use kairos::semantics::{Abstraction, ZoneGraph, ZoneState};

fn paths_end_where_stored(path: &str, abstraction: Abstraction, cover: Cover) {
    let loaded = common::load(Path::new(path)).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let mut zg = ZoneGraph::new(&net, abstraction);
    let mut admitted: Vec<ZoneState> = Vec::new();
    let mut record = |_: &mut ZoneGraph<'_>, s: &ZoneState| {
        admitted.push(s.clone());
        Ok(Federation::empty())
    };
    let run = explore(&mut zg, Order::Bfs, cover, &Limits::default(), &mut record);
    assert!(matches!(run.end, End::Exhausted), "{path}");
    let covered = (0..admitted.len() as u32).filter(|&n| !run.store.is_alive(n)).count();
    assert!(covered > 0, "{path}: no covered node, nothing tested");
    for (n, want) in admitted.iter().enumerate() {
        let states = run.store.path_states(&mut zg, n as u32).unwrap();
        assert_eq!(states.last(), Some(want), "{path}: node {n}");
        assert_eq!(states.len(), run.store.path(n as u32).len());
    }
}

#[test]
fn paths_through_covered_nodes_are_recomputed_exactly() {
    paths_end_where_stored("models/bench/fischer_4.yaml", Abstraction::Lu, Cover::Inclusion);
    paths_end_where_stored("models/bench/fischer_4.yaml", Abstraction::Lu, Cover::Alu);
    paths_end_where_stored("models/bench/csmacd_3.yaml", Abstraction::Lu, Cover::Alu);
    paths_end_where_stored("models/bench/fddi_3.yaml", Abstraction::Lu, Cover::Inclusion);
}
