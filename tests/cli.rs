//! The command line as a user types it: exit codes, text and JSON.

mod common;

use common::kairos;

#[test]
fn help_lists_every_command() {
    let (code, out, _) = kairos(&["--help"]);
    assert_eq!(code, 0);
    for cmd in ["check", "validate", "graph", "synth", "sweep", "simulate", "import", "bound", "observer"] {
        assert!(out.contains(cmd), "--help mentions `{cmd}`:\n{out}");
    }
    let (code, out, _) = kairos(&["check", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("--labels") && out.contains("--max-states"), "{out}");
}

#[test]
fn validate_accepts_the_railway_crossing() {
    let (code, out, err) = kairos(&["validate", "models/railway-crossing.yaml", "specs/railway-crossing.yaml"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("valid timed model `railway-crossing`"), "{out}");
}

/// Reachability, liveness, bounded response and nested TCTL are answered,
/// as expected; an engine forced on what it cannot answer says so (exit
/// 5), never a verdict it did not compute.
#[test]
fn check_answers_reachability_and_is_honest_about_the_rest() {
    let (code, out, _) =
        kairos(&["check", "models/railway-crossing.yaml", "specs/railway-crossing.yaml", "--format", "json"]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    for p in v["properties"].as_array().unwrap() {
        assert!(["reach", "live", "observer", "tctl"].contains(&p["engine"].as_str().unwrap()), "{p}");
        assert!(p["verdict"] == "satisfied" || p["verdict"] == "violated", "{p}");
        assert!(p["stats"]["visited"].as_u64().unwrap() > 0, "{p}");
        if !p["expected"].is_null() {
            assert_eq!(p["verdict"] == "satisfied", p["expected"] == true, "{p}");
        }
    }
    // Nested: the fixpoint engine. A train may always approach, and the
    // gate then goes down, so no reachable state keeps it up on every run.
    let q = ["check", "models/railway-crossing.yaml", "-q", "E<> (A[] Gate.up)", "--format", "json"];
    let (code, out, _) = kairos(&q);
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["properties"][0]["verdict"], "violated");
    assert_eq!(v["properties"][0]["engine"], "tctl");
    // An engine forced on a formula it does not answer says so.
    let (code, out, _) = kairos(&[&q[..], &["--engine", "reach"]].concat());
    assert_eq!(code, 5, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["properties"][0]["verdict"], "unknown");
    assert_eq!(v["properties"][0]["reason"], "unsupported");

    let (code, out, _) = kairos(&["check", "models/fischer.yaml", "-q", "E<> P(1).cs", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    let p = &v["properties"][0];
    assert_eq!(p["verdict"], "satisfied");
    assert_eq!(p["engine"], "reach");
    assert_eq!(p["formula"], "E<> P(1).cs");
}

#[test]
fn invalid_input_exits_2_with_located_json_errors() {
    let (code, out, _) = kairos(&["check", "models/fischer.yaml", "-q", "E<> P(9).cs", "--format", "json"]);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    let e = &v["errors"][0];
    assert_eq!(e["file"], "<query>");
    assert_eq!(e["line"], 1);
    assert_eq!(e["column"], 5);
    assert_eq!(e["code"], "unknown-instance");

    let (code, _, err) = kairos(&["validate", "no/such/model.yaml"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read `no/such/model.yaml`"), "{err}");
}

#[test]
fn a_spec_for_another_model_is_refused() {
    let (code, _, err) = kairos(&["validate", "models/fischer.yaml", "specs/railway-crossing.yaml"]);
    assert_eq!(code, 2);
    assert!(err.contains("spec-model-mismatch") && err.contains("specs/railway-crossing.yaml:"), "{err}");
}

#[test]
fn labels_option_checks_all_labels_at_once() {
    let (code, out, _) =
        kairos(&["check", "tests/models/tchecker/fischer_3.yaml", "--labels", "cs1,cs2", "--format", "json"]);
    assert_eq!(code, 1, "unreachable, and no `expect`: the property does not hold");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["properties"][0]["name"], "labels");
    assert_eq!(v["properties"][0]["formula"], "E<> cs1 and cs2");
    assert_eq!(v["properties"][0]["verdict"], "violated");
}

#[test]
fn the_spec_mismatch_example_names_both_files() {
    let (code, _, err) =
        kairos(&["check", "tests/invalid/spec-mismatch/model.yaml", "tests/invalid/spec-mismatch/spec.yaml"]);
    assert_eq!(code, 2);
    assert!(err.contains("tests/invalid/spec-mismatch/spec.yaml:2:8"), "{err}");
    assert!(err.contains("lamp.yaml") && err.contains("model.yaml"), "{err}");
}

/// Every trace printed is concrete (exact rationals) and was validated; a
/// run-time error always comes with its trace and exit code 4.
#[test]
fn traces_are_printed_for_counterexamples_witnesses_and_errors() {
    let (code, out, err) =
        kairos(&["check", "models/railway-crossing.yaml", "-q", "E<> Train(1).on and Train(2).on", "--trace"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Train(1): near -> on") && out.contains("delay 3"), "{out}");
    assert!(!err.contains("internal error"), "{err}");

    let (code, out, _) = kairos(&["check", "tests/models/semantics/runtime-error.yaml", "--format", "json"]);
    assert_eq!(code, 4);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let p = &v["properties"][0];
    assert_eq!(p["verdict"], "error");
    let trace = p["trace"].as_array().expect("an error comes with its trace");
    assert_eq!(trace.last().unwrap()["state"]["vars"]["n"], 2);
}

/// TChecker files are checked directly and imported to YAML; `import -o`
/// never writes over an existing file.
#[test]
fn tchecker_files_check_and_import() {
    let tck = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/reference/tchecker/fischer_4.tck");
    if !std::path::Path::new(tck).exists() {
        eprintln!("skipped: the reference models are not next to this checkout");
        return;
    }
    let (code, out, err) = kairos(&["check", tck, "--labels", "cs1,cs2", "--abstraction", "lu", "--format", "json"]);
    assert_eq!(code, 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["properties"][0]["verdict"], "violated");
    assert_eq!(v["properties"][0]["stats"]["visited"], 268, "TChecker's covreach visits 268");
    assert_eq!(v["properties"][0]["stats"]["stored"], 220);

    let dir = std::env::temp_dir().join(format!("kairos-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let yaml = dir.join("fischer_4.yaml");
    let (code, _, err) = kairos(&["import", tck, "-o", &yaml.display().to_string()]);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = kairos(&["validate", &yaml.display().to_string()]);
    assert_eq!(code, 0, "{out}");
    let before = std::fs::read_to_string(&yaml).unwrap();
    let (code, _, err) = kairos(&["import", tck, "-o", &yaml.display().to_string()]);
    assert_eq!(code, 2);
    assert!(err.contains("never overwritten"), "{err}");
    assert_eq!(std::fs::read_to_string(&yaml).unwrap(), before);
    std::fs::remove_dir_all(&dir).ok();
}
