//! `kairos simulate`: random runs, reproducible by seed, every one replayed
//! by the independent validator before it is printed; how a run ends (the
//! steps asked for, stuck, a run-time error) and the timing diagram.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use common::kairos;
use kairos::engine::simulate::{WalkEnd, random_walk};

fn json(args: &[&str]) -> (i32, serde_json::Value) {
    let (code, out, err) = kairos(args);
    (code, serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}")))
}

#[test]
fn a_seed_gives_the_same_run_and_seeds_differ() {
    let run = |seed: &str| kairos(&["simulate", "models/railway-crossing.yaml", "--steps", "12", "--seed", seed]);
    assert_eq!(run("7"), run("7"));
    // From the initial state any of the three trains may approach first;
    // thirty seeds see every one of them.
    let mut first = BTreeSet::new();
    for seed in 0..30 {
        let (code, v) = json(&[
            "simulate",
            "models/railway-crossing.yaml",
            "--steps",
            "12",
            "--seed",
            &seed.to_string(),
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{v}");
        assert_eq!(v["end"], "done", "the crossing never blocks: {v}");
        assert_eq!(v["steps"], 12, "{v}");
        first.insert(v["trace"][1]["edges"][0]["instance"].as_str().unwrap().to_string());
    }
    assert_eq!(first, ["Train(1)", "Train(2)", "Train(3)"].map(String::from).into(), "{first:?}");
}

/// The library's walk, made concrete and replayed by the validator for
/// many seeds and every example model: a path of the zone graph always has
/// a concrete run.
#[test]
fn every_walk_has_a_validated_concrete_run() {
    for model in common::yaml_files("models") {
        let loaded = common::load(&model).unwrap();
        if loaded.model.hybrid || !loaded.model.params.is_empty() {
            continue;
        }
        let net = kairos::network::build(&loaded.model).unwrap();
        for seed in 0..20 {
            let walk = random_walk(&net, 25, seed);
            let t = walk.trace.as_ref().expect("a run");
            let c = kairos::trace::concretise(&net, t).unwrap_or_else(|e| panic!("{}: {e:?}", model.display()));
            kairos::trace::validate(&net, &c).unwrap_or_else(|e| panic!("{}: {e}", model.display()));
            match walk.end {
                WalkEnd::Done => assert_eq!(c.steps.len(), 25),
                WalkEnd::Stuck => assert!(c.steps.len() < 25),
                WalkEnd::Error(_) | WalkEnd::NoInitial => panic!("{}: {:?}", model.display(), walk.end),
            }
        }
    }
}

#[test]
fn a_run_ends_where_the_model_does() {
    // `f` has no way out: stuck after one step (exit 0, it is not an error).
    let (code, out, _) = kairos(&["simulate", "tests/models/liveness/partial-time-lock.yaml", "--steps", "10"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("a random run of 1 step") && out.contains("no step is possible after step 1"), "{out}");
    // The third increment puts `n` out of range: exit 4, the error said.
    let (code, v) =
        json(&["simulate", "tests/models/semantics/runtime-error.yaml", "--steps", "10", "--format", "json"]);
    assert_eq!(code, 4, "{v}");
    assert_eq!(v["end"], "error", "{v}");
    assert_eq!(v["steps"], 2, "{v}");
    assert!(v["message"].as_str().unwrap().contains("outside its range [0, 2]"), "{v}");
}

#[test]
fn the_run_is_drawn_as_a_timing_diagram() {
    let dir = std::env::temp_dir().join(format!("kairos-simulate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("run.svg");
    let (code, _, err) =
        kairos(&["simulate", "models/train-gate.yaml", "--steps", "8", "--svg", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(&file).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    assert!(svg.contains("a random run (seed 0)"), "{svg}");
    // The input is never overwritten.
    let (code, _, err) = kairos(&["simulate", "models/train-gate.yaml", "--svg", "models/train-gate.yaml"]);
    assert_eq!(code, 2, "{err}");
    assert!(Path::new("models/train-gate.yaml").metadata().unwrap().len() > 100);
    std::fs::remove_dir_all(&dir).unwrap();
}
