//! `kairos sweep` against `kairos synth`: at every grid point the concrete
//! verdict is `satisfied` exactly when the point is in the synthesised set
//! (the set read back from the printed constraint), and the grid comes out
//! the same on one worker and on several.

use crate::common;

use std::path::Path;

use kairos::domain::poly::Q;
use kairos::engine::synth;
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let (code, out, err) = common::kairos(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn rational(s: &str) -> Q {
    match s.split_once('/') {
        Some((n, d)) => Q::new(n.parse::<i64>().unwrap().into(), d.parse::<i64>().unwrap().into()),
        None => Q::from_integer(s.parse::<i64>().unwrap().into()),
    }
}

/// Sweeps `grid` and compares every point with the synthesised set.
fn sweep_agrees(name: &str, query: &str, grid: &[&str]) -> Value {
    let model = format!("models/{name}.yaml");
    let s = json(&["synth", &model, "-q", query, "--format", "json"]);
    let text = s["properties"][0]["constraint"].as_str().unwrap().to_string();
    let loaded = common::load(Path::new(&model)).unwrap();
    let names = synth::names(&loaded.model);
    let set = synth::parse(&text, &names, &synth::bounds(&loaded.model).unwrap()).unwrap();
    let mut args = vec!["sweep", &model, "-q", query, "--format", "json"];
    for g in grid {
        args.extend(["--param", g]);
    }
    let v = json(&args);
    let points = v["points"].as_array().unwrap();
    assert!(!points.is_empty());
    for p in points {
        let at: Vec<Q> = names.iter().map(|n| rational(p["params"][n].as_str().unwrap())).collect();
        let holds = p["verdict"] == "satisfied";
        assert!(holds || p["verdict"] == "violated", "{p}");
        assert_eq!(holds, set.contains(&at), "{name} at {p}: constraint {text}");
    }
    v
}

#[test]
fn fischer_grid_agrees_with_b_greater_than_a() {
    let q = "A[] not (P(1).cs and P(2).cs)";
    let many = sweep_agrees("fischer-param", q, &["a=0..4", "b=0..5:5/4"]);
    assert_eq!(many["points"].as_array().unwrap().len(), 5 * 5);
    // One worker gives the same grid.
    let (_, out, _) = common::kairos(&[
        "sweep",
        "models/fischer-param.yaml",
        "-q",
        q,
        "--param",
        "a=0..4",
        "--param",
        "b=0..5:5/4",
        "--format",
        "json",
        "--jobs",
        "1",
    ]);
    let one: Value = serde_json::from_str(&out).unwrap();
    let verdicts = |v: &Value| -> Vec<(Value, Value)> {
        v["points"].as_array().unwrap().iter().map(|p| (p["params"].clone(), p["verdict"].clone())).collect()
    };
    assert_eq!(verdicts(&one), verdicts(&many));
}

#[test]
fn railroad_grid_agrees_with_the_gate_timing() {
    sweep_agrees(
        "railroad-param",
        "A[] (crossing imply gate_down)",
        &["dApproach=0..10:5/2", "dStartDown=0..6:3", "dGetDown=1..5:2"],
    );
}

/// A hybrid model: the gate is down in time exactly when m > 6 (the
/// quarter steps put points on both sides of 7).
#[test]
fn hytech_crossing_grid_agrees_with_m_greater_than_6() {
    let v = sweep_agrees("hytech-crossing", "A[] (crossing imply a == 0)", &["m=0..15"]);
    assert_eq!(v["points"].as_array().unwrap().len(), 16);
    sweep_agrees("hytech-crossing", "A[] (crossing imply a == 0)", &["m=6..8:1/4"]);
}

#[test]
fn bad_ranges_are_refused() {
    let m = "models/fischer-param.yaml";
    for bad in [["a=0..4", "b=3..1"], ["a=0..4:0", "b=1"], ["a=0..4", "c=1"], ["a=0..40", "b=1"]] {
        let (code, _, err) = common::kairos(&["sweep", m, "-q", "E<> P(1).cs", "--param", bad[0], "--param", bad[1]]);
        assert_eq!(code, 2, "{bad:?}: {err}");
    }
    let (code, _, _) = common::kairos(&["sweep", m, "-q", "E<> P(1).cs", "--param", "a=1"]);
    assert_eq!(code, 2, "b has no values");
}
