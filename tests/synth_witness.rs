//! `kairos synth --trace`: a valuation on each side of the synthesised
//! boundary, checked concretely. Each point is on its side of the set read
//! back from the printed constraint; the verdict there is the one the set
//! says; the trace printed is the one the concrete check gives there, and
//! the replay validator accepts it.

use crate::common;

use std::path::Path;

use kairos::domain::poly::Q;
use kairos::engine::{self, Options, synth};
use serde_json::Value;

fn rational(s: &str) -> Q {
    match s.split_once('/') {
        Some((n, d)) => Q::new(n.parse::<i64>().unwrap().into(), d.parse::<i64>().unwrap().into()),
        None => Q::from_integer(s.parse::<i64>().unwrap().into()),
    }
}

/// The witnesses of `query`, checked; how many carry a trace.
fn witnesses(name: &str, query: &str) -> usize {
    let model = format!("models/{name}.yaml");
    let (code, out, err) = common::kairos(&["synth", &model, "-q", query, "--trace", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let p = &v["properties"][0];
    assert_eq!(p["exact"], true);
    let loaded = common::load(Path::new(&model)).unwrap();
    let names = synth::names(&loaded.model);
    let set = synth::parse(p["constraint"].as_str().unwrap(), &names, &synth::bounds(&loaded.model).unwrap()).unwrap();
    let sides = p["witnesses"].as_array().unwrap();
    assert_eq!(sides.len(), 2, "a point on each side: {p}");
    let mut traces = 0;
    for (w, side) in sides.iter().zip(["inside", "outside"]) {
        assert_eq!(w["side"], side);
        let at: Vec<Q> = names.iter().map(|n| rational(w["params"][n].as_str().unwrap())).collect();
        assert_eq!(set.contains(&at), side == "inside", "{w}");
        assert_eq!(w["verdict"], if side == "inside" { "satisfied" } else { "violated" }, "{w}");
        // The concrete check there, replayed by the validator.
        let net = kairos::network::build_with(&loaded.model, &at).unwrap();
        let property = loaded.query("q", query).unwrap();
        let options = Options { domain: engine::Domain::Auto, ..Options::default() };
        let o = engine::check(&loaded.model, Some(&net), &property, &options);
        let net = o.network.as_deref().cloned().unwrap_or(net);
        match o.trace.as_ref() {
            Some(symbolic) => {
                let t = kairos::trace::concretise(&net, symbolic).unwrap();
                kairos::trace::validate(&net, &t).unwrap();
                assert_eq!(w["trace"], kairos::trace::json(&net, &t));
                assert!(!w["trace"].is_null());
                traces += 1;
            }
            None => assert!(w["trace"].is_null()),
        }
    }
    traces
}

#[test]
fn fischer_on_each_side_of_b_greater_than_a() {
    // A[]: the counterexample outside; E<>: the witness inside.
    assert_eq!(witnesses("fischer-param", "A[] not (P(1).cs and P(2).cs)"), 1);
    assert_eq!(witnesses("fischer-param", "E<> P(1).cs and P(2).cs"), 1);
}

#[test]
fn railroad_on_each_side_of_its_three_parameter_boundary() {
    assert_eq!(witnesses("railroad-param", "A[] (crossing imply gate_down)"), 1);
}

/// A hybrid model, its `synth:` entry from the spec.
#[test]
fn hytech_crossing_on_each_side_of_m_greater_than_6() {
    let (code, out, err) =
        common::kairos(&["synth", "models/hytech-crossing.yaml", "specs/hytech-crossing.yaml", "--trace"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("synthesised: m >= 7 (exact"), "{out}");
    assert!(out.contains("  inside the set, at m = 14: satisfied\n"), "{out}");
    assert!(out.contains("  outside the set, at m = 3: violated\n    state: "), "{out}");
}

#[test]
fn text_names_both_points() {
    let (code, out, err) =
        common::kairos(&["synth", "models/fischer-param.yaml", "-q", "A[] not (P(1).cs and P(2).cs)", "--trace"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("  inside the set, at a = 3, b = 7: satisfied\n"), "{out}");
    assert!(out.contains("  outside the set, at a = 7, b = 3: violated\n    state: "), "{out}");
}
