//! `kairos graph` on polyhedra: the graph of a hybrid model, snapshotted and
//! argued by hand; on timed models, the graph of polyhedra against the
//! zone graph (the same nodes and edges, each polyhedron the zone's set);
//! on every hybrid model of `models/`, as many nodes as the exploration of
//! `kairos check` with no property stores.

use crate::common;

use std::path::Path;

use kairos::domain::poly::Poly;
use kairos::domain::zone::Dbm;
use kairos::engine::graph::{Graph, zone_graph};
use kairos::engine::reach::Limits;
use kairos::model::load::load_model_with;
use kairos::network::Network;
use kairos::semantics::{Abstraction, ZoneGraph};
use serde_json::Value;

fn network(path: &str, constants: &[(&str, i64)]) -> Network {
    let src = common::source(Path::new(path));
    let constants: Vec<(String, i64)> = constants.iter().map(|(n, v)| (n.to_string(), *v)).collect();
    let loaded = load_model_with(&src, &constants).unwrap_or_else(|d| panic!("{d:?}"));
    kairos::network::build(&loaded.model).unwrap()
}

fn graph<S: kairos::domain::ClockSet>(net: &Network, abstraction: Abstraction) -> Graph<S> {
    let mut zg = ZoneGraph::<S>::with_sets(net, abstraction);
    zone_graph(&mut zg, &Limits { max_states: Some(20_000), ..Limits::default() }).unwrap()
}

/// The water-level monitor (models/water-level.yaml: the level rises at 1
/// with the pump off, falls at 2 with it on; the monitor's clock `t`
/// measures the switching delay D = 2 after HIGH = 10 and LOW = 5). Each
/// node is one location vector and one polyhedron over (`Monitor.t`,
/// `level`), and there are exactly five, by following the one run the
/// model has (every guard is met at a single instant):
/// - (off, watch_high), initial: level = 1, t = 0, both rising at 1, so
///   `t == level - 1`, up to the invariant `level <= 10`;
/// - (off, delay_on): entered at level = 10 with t reset, rising together
///   for D = 2: `t == level - 10`, `10 <= level <= 12`;
/// - (on, watch_low): entered at t = 2, level = 12; the level falls at 2
///   while t rises at 1, so `2*t + level` stays 16, down to the invariant
///   `level >= 5`;
/// - (on, delay_off): entered at level = 5 with t reset; `2*t + level == 5`
///   for t in [0, 2], i.e. `1 <= level <= 5`;
/// - (off, watch_high) again, entered at level = 1 and t = 2 (t is not
///   reset on `pump_off`): `t == level + 1`, `1 <= level <= 10`: a second
///   polyhedron in the initial location vector, whose successor is again
///   the (off, delay_on) node (t is reset there), closing the cycle.
///
/// So five nodes, five edges, the peak 12 and the trough 1 appear as
/// bounds, and the two (off, watch_high) nodes are numbered by their sets
/// (`Monitor.t == level + 1` sorts first), the others by location vector.
#[test]
fn water_level_graph() {
    let (code, yaml, err) = common::kairos(&["graph", "models/water-level.yaml", "--format", "yaml"]);
    assert_eq!(code, 0, "{err}");
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots/zone_graphs");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!("water-level", yaml));
    // The library gives the same graph, on polyhedra.
    let net = network("models/water-level.yaml", &[]);
    let g = graph::<Poly>(&net, Abstraction::None);
    assert_eq!((g.states.len(), g.edges.len(), g.initial.clone()), (5, 5, vec![1]));
    assert_eq!(yaml, kairos::report::graph::yaml(&net, &g));
}

/// On a timed model the graph of polyhedra is the zone graph: the same
/// number of nodes, the same discrete state and the same set (compared as
/// polyhedra: canonical forms are equal exactly when the sets are) at
/// every index, the same edges and initial nodes.
fn polyhedra_are_the_zones(net: &Network, abstraction: Abstraction) -> usize {
    let zones = graph::<Dbm>(net, abstraction);
    let polys = graph::<Poly>(net, abstraction);
    assert_eq!(zones.states.len(), polys.states.len());
    for (k, (z, p)) in zones.states.iter().zip(&polys.states).enumerate() {
        assert_eq!(z.discrete, p.discrete, "node {k}");
        assert_eq!(Poly::from_dbm(&z.zone), p.zone, "node {k}: the polyhedron is not the zone's set");
    }
    assert_eq!(zones.edges, polys.edges);
    assert_eq!(zones.initial, polys.initial);
    zones.states.len()
}

#[test]
fn on_timed_models_the_polyhedra_are_the_zones() {
    let fischer = network("models/fischer.yaml", &[]);
    assert_eq!(polyhedra_are_the_zones(&fischer, Abstraction::Lu), 292);
    let crossing = network("models/railway-crossing.yaml", &[("N", 2)]);
    assert_eq!(polyhedra_are_the_zones(&crossing, Abstraction::Lu), 61);
    // Exact zones (no extrapolation: these graphs are finite).
    for name in ["strict-bounds", "urgency", "committed", "broadcast", "non-moving-invariant"] {
        let net = network(&format!("tests/models/zone/{name}.yaml"), &[]);
        assert!(polyhedra_are_the_zones(&net, Abstraction::None) > 1, "{name}");
    }
    // The command line: `--domain poly` prints the zone graph's nodes and
    // edges (the sets compared above, as text they differ: `true` is
    // `P(1).x >= 0 && ...`).
    let json = |extra: &[&str]| -> Value {
        let (code, out, err) = common::kairos(
            &[&["graph", "models/railway-crossing.yaml", "--param", "N=2", "--format", "json"][..], extra].concat(),
        );
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).unwrap()
    };
    let (z, p) = (json(&[]), json(&["--domain", "poly"]));
    assert_eq!(z["edges"], p["edges"]);
    let nodes = |v: &Value| -> Vec<Value> {
        v["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| serde_json::json!([n["locations"], n["vars"], n["initial"]]))
            .collect()
    };
    assert_eq!(nodes(&z), nodes(&p));
    assert!(p["nodes"][0]["polyhedron"].is_string() && z["nodes"][0]["zone"].is_string());
}

/// Every hybrid model of `models/`: the graph's nodes are the states `kairos
/// check` stores exploring the model with no property and without
/// subsumption (the graph keeps every distinct state; with subsumption a
/// state inside an earlier one is not stored: HyTech's crossing at m = 20
/// stores 9 states instead of 13). Parametric ones at each parameter's maximum.
#[test]
fn hybrid_graphs_have_the_states_check_stores() {
    let scratch = std::env::temp_dir().join(format!("kairos-hybrid-graphs-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let mut seen = Vec::new();
    for path in common::yaml_files("models") {
        let loaded = common::load(&path).unwrap();
        if !loaded.model.hybrid {
            continue;
        }
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let params: Vec<String> = loaded
            .model
            .params
            .iter()
            .map(|p| {
                let max = p.max.expect("a bounded parameter");
                format!("{}={}/{}", p.name, max.num, max.den)
            })
            .collect();
        let with_params = |args: Vec<&str>| -> Vec<String> {
            let mut w: Vec<String> = args.into_iter().map(String::from).collect();
            for p in &params {
                w.extend(["--param".to_string(), p.clone()]);
            }
            w
        };
        let run = |args: &[String]| -> Value {
            let words: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, out, err) = common::kairos(&words);
            assert_eq!(code, 0, "{words:?}: {err}");
            serde_json::from_str(&out).unwrap()
        };
        let graph = run(&with_params(vec!["graph", path.to_str().unwrap(), "--format", "json"]));
        // The model without its own properties, so that `check` explores.
        let text = std::fs::read_to_string(&path).unwrap();
        let bare = scratch.join(format!("{name}.yaml"));
        std::fs::write(&bare, text.split("\nproperties:").next().unwrap()).unwrap();
        let check = |subsumption: bool| {
            let mut args = with_params(vec!["check", bare.to_str().unwrap(), "--format", "json"]);
            if !subsumption {
                args.push("--no-subsumption".into());
            }
            let v = run(&args);
            assert_eq!(v["properties"], serde_json::json!([]), "{name}: explored, no property");
            v["stats"]["stored"].as_u64().unwrap()
        };
        let nodes = graph["nodes"].as_array().unwrap().len() as u64;
        assert_eq!(nodes, check(false), "{name}");
        let stored = check(true);
        seen.push((name, nodes, stored));
    }
    std::fs::remove_dir_all(&scratch).ok();
    let names: Vec<&str> = seen.iter().map(|(n, ..)| n.as_str()).collect();
    assert_eq!(names, ["hytech-crossing", "stopwatch-scheduler", "thermostat", "water-level"]);
    assert!(
        seen.iter().any(|(_, graph, stored)| graph != stored),
        "subsumption makes a difference somewhere: {seen:?}"
    );
}

/// A graph of polyhedra need not be finite: `y` gains 1 on every lap while
/// `x` is reset, so every lap is a new polyhedron; `--max-states` ends it.
#[test]
fn an_infinite_graph_is_stopped() {
    let model = "\
model: drift
continuous:
  y: {init: 0}
clocks: [x]
templates:
  T:
    initial: a
    locations:
      a: {invariant: \"x <= 1\", rate: {y: 1}}
    edges:
      - {from: a, to: a, guard: \"x == 1\", update: \"x = 0\"}
system:
  - T
";
    let path = std::env::temp_dir().join(format!("kairos-drift-{}.yaml", std::process::id()));
    std::fs::write(&path, model).unwrap();
    let (code, _, err) = common::kairos(&["graph", path.to_str().unwrap(), "--max-states", "50"]);
    std::fs::remove_file(&path).ok();
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("the graph of polyhedra has more than 50 states"), "{err}");
}

#[test]
fn what_polyhedra_cannot_do_is_refused() {
    let (code, _, err) = common::kairos(&["graph", "models/water-level.yaml", "--domain", "zone"]);
    assert_eq!(code, 5);
    assert!(err.contains("zones cannot represent hybrid models"), "{err}");
    let (code, _, err) = common::kairos(&["graph", "models/water-level.yaml", "--abstraction", "lu"]);
    assert_eq!(code, 5);
    assert!(err.contains("use `--abstraction none`"), "{err}");
    let (code, _, err) = common::kairos(&["graph", "models/hytech-crossing.yaml"]);
    assert_eq!(code, 5, "a value for each timing parameter is needed");
    assert!(err.contains("--param"), "{err}");
    // A rational value makes a timed model linear: polyhedra.
    let (code, out, err) =
        common::kairos(&["graph", "tests/models/param/timeout.yaml", "--param", "d=13/2", "--format", "yaml"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("polyhedron: \"Worker.x >= 0 && 2*Worker.x <= 13\""), "{out}");
}
