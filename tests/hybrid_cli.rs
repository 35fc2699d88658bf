//! The command line on hybrid and parametric models: `--param p=v` (FORMAT.md
//! section 4), the default and forced `--domain`, and what does not take
//! hybrid models yet answering exit 5.

use crate::common;

use common::kairos;

const CROSSING: &str = "models/hytech-crossing.yaml";
const TIMEOUT: &str = "tests/models/param/timeout.yaml";

#[test]
fn parameters_are_fixed_by_value() {
    let safe = "A[] (crossing imply a == 0)";
    let (code, out, _) = kairos(&["check", CROSSING, "-q", safe, "--param", "m=7"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("satisfied"), "{out}");
    // Unsafe below 7: the trace ends with the train in and the gate open.
    let (code, out, _) = kairos(&["check", CROSSING, "-q", safe, "--param", "m=13/2", "--trace"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("violated") && out.contains("Train: near -> in"), "{out}");
    assert!(out.contains("Train.x = 13/2"), "the train enters at 13/2: {out}");
}

#[test]
fn bad_or_missing_values_are_refused() {
    let q = ["check", CROSSING, "-q", "E<> crossing"];
    let with = |extra: &[&str]| kairos(&[&q[..], extra].concat());
    assert_eq!(with(&[]).0, 5, "no value: checking for every value is not supported yet");
    assert_eq!(with(&["--param", "k=3"]).0, 2, "no such parameter");
    assert_eq!(with(&["--param", "m=21"]).0, 2, "above its maximum");
    assert_eq!(with(&["--param", "m=1/0"]).0, 2, "not a number");
    assert_eq!(with(&["--param", "m=7", "--param", "m=8"]).0, 2, "given twice");
}

#[test]
fn hybrid_models_default_to_polyhedra() {
    let (code, out, _) = kairos(&["check", "models/water-level.yaml", "-q", "E<> level == 12"]);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = kairos(&["check", "models/water-level.yaml", "-q", "E<> level == 12", "--domain", "zone"]);
    assert_eq!(code, 5, "{out}");
    assert!(out.contains("zones cannot represent hybrid models"), "{out}");
    // Liveness runs on polyhedra (tests/hybrid_liveness.rs); the fixpoint
    // engine and worst-case response times do not take hybrid models yet;
    // graph does, on polyhedra only (tests/hybrid_graphs.rs).
    let (code, out, _) = kairos(&["check", "models/water-level.yaml", "-q", "Tank.off --> Tank.on"]);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = kairos(&["check", "models/water-level.yaml", "-q", "A[] A<> Tank.on", "--engine", "tctl"]);
    assert_eq!(code, 5, "{out}");
    assert!(out.contains("not the fixpoint engine (`tctl`) yet"), "{out}");
    assert_eq!(kairos(&["graph", "models/water-level.yaml"]).0, 0);
    assert_eq!(kairos(&["graph", "models/water-level.yaml", "--domain", "zone"]).0, 5);
    // Worst-case response times are rationals on linear networks
    // (tests/hybrid_worst_case.rs): the pump is on again 11 after it went
    // off, and off again 11/2 after it went on (models/water-level.yaml).
    let (code, out, _) = kairos(&["bound", "models/water-level.yaml", "-q", "Tank.off --> Tank.on"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(": 11 (attained"), "{out}");
    let (code, out, _) =
        kairos(&["bound", "models/water-level.yaml", "-q", "Tank.on --> Tank.off", "--format", "json"]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["bound"], serde_json::json!({"sup": "11/2", "attained": true}), "{out}");
}

/// An integer value keeps a timed model timed: every command and engine.
#[test]
fn integer_values_keep_a_timed_model_timed() {
    let (code, out, _) = kairos(&["bound", TIMEOUT, "-q", "Worker.start --> Worker.done", "--param", "d=7"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("7 (attained"), "{out}");
    let (code, out, _) = kairos(&["graph", TIMEOUT, "--param", "d=7"]);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = kairos(&["check", TIMEOUT, "-q", "Worker.start --> Worker.done", "--param", "d=7"]);
    assert_eq!(code, 0, "{out}");
    // A rational value: polyhedra, reachability (the constraints stay those
    // of a timed model: differences, the parameter on the right).
    let (code, out, _) =
        kairos(&["check", TIMEOUT, "-q", "A[] (Worker.start imply Worker.x <= d)", "--param", "d=13/2"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("satisfied"), "{out}");
    let (code, _, _) = kairos(&["check", TIMEOUT, "-q", "E<> Worker.start and Worker.x == d", "--param", "d=13/2"]);
    assert_eq!(code, 0);
    let (code, out, _) = kairos(&["bound", TIMEOUT, "-q", "Worker.start --> Worker.done", "--param", "d=13/2"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(": 13/2 (attained"), "{out}");
}

/// `kairos bound --term T -q φ`: the exact range of a term, on hybrid
/// models and with rational parameter values (figures argued in the models
/// and in `hybrid_bound`).
#[test]
fn bound_measures_a_term_over_the_reachable_states() {
    let (code, out, _) = kairos(&["bound", "models/water-level.yaml", "--term", "level", "-q", "true"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.trim(), "level where true: sup = 12 (attained), inf = 1 (attained)");
    let scheduler = ["bound", "models/stopwatch-scheduler.yaml", "--term", "L.r", "-q", "not L.idle"];
    let (code, out, _) = kairos(&[&scheduler[..], &["--format", "json"]].concat());
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["range"]["sup"], serde_json::json!({"value": "13", "attained": true}), "{out}");
    // A rational parameter value gives a rational bound.
    let (code, out, _) = kairos(&["bound", TIMEOUT, "--term", "Worker.x", "-q", "Worker.start", "--param", "d=13/2"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("sup = 13/2 (attained)"), "{out}");
    // A non-linear term is invalid input, a constant no term to measure;
    // the supremum of a strict formula is not attained.
    assert_eq!(kairos(&["bound", "models/water-level.yaml", "--term", "level * level", "-q", "true"]).0, 2);
    assert_eq!(kairos(&["bound", "models/water-level.yaml", "--term", "3", "-q", "true"]).0, 5);
    let (code, out, _) =
        kairos(&["bound", "models/water-level.yaml", "--term", "level", "-q", "Monitor.watch_high and level < 10"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("sup = 10 (a supremum, not attained)"), "{out}");
}

/// `--term` draws no trace and picks its own abstraction: `--svg` and
/// `--abstraction` with it are refused, never silently ignored.
#[test]
fn term_refuses_options_it_would_ignore() {
    for extra in [["--svg", "never-written.svg"], ["--abstraction", "none"]] {
        let mut args = vec!["bound", "models/water-level.yaml", "--term", "level", "-q", "true"];
        args.extend(extra);
        let (code, _, err) = kairos(&args);
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(err.contains("cannot be used with"), "{err}");
    }
    assert!(!std::path::Path::new("never-written.svg").exists());
}
