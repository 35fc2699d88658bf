//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::Path;

use kairos::diag::Diagnostic;
use kairos::model::load::{self, Loaded};
use kairos::model::types::Property;
use kairos::network::Network;
use kairos::syntax::yaml::Source;

pub fn source(path: &Path) -> Source {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Source::new(path.display().to_string(), text)
}

/// Loads and compiles a model (timed, parameter-free models are compiled
/// too); `Err` holds the rendered diagnostics.
pub fn load(path: &Path) -> Result<Loaded, String> {
    let src = source(path);
    let render = |d: &[Diagnostic]| kairos::report::diagnostics::render(d, &[(&*src.name, &src.text)]);
    let loaded = load::load_model(&src).map_err(|d| render(&d))?;
    if !loaded.model.hybrid && loaded.model.params.is_empty() {
        kairos::network::build(&loaded.model).map_err(|d| render(&d))?;
    }
    Ok(loaded)
}

/// The network of a timed, parameter-free model and the properties of the
/// model and of its `spec` file (`None`: a hybrid or parametric model,
/// which zones and the fixpoint engine do not take).
pub fn timed_properties(loaded: &Loaded, spec: Option<&Path>) -> Option<(Network, Vec<Property>)> {
    if loaded.model.hybrid || !loaded.model.params.is_empty() {
        return None;
    }
    let net = kairos::network::build(&loaded.model).unwrap();
    let mut props = loaded.model.properties.clone();
    if let Some(spec) = spec {
        props.extend(loaded.spec(&source(spec)).unwrap().properties);
    }
    Some((net, props))
}

/// Runs the `kairos` binary; returns (exit code, stdout, stderr).
pub fn kairos(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kairos")).args(args).output().expect("run kairos");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The `.yaml` files of a folder of the repository, in name order.
pub fn yaml_files(dir: &str) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

/// `kairos validate` rejects `model` (named `file`) with exactly `lines`:
/// each text at its line, `lines.len()` errors in all (no follow-on).
pub fn assert_located_errors(model: &str, file: &str, lines: &[(usize, &str)]) {
    let (code, _, err) = kairos(&["validate", model]);
    assert_eq!(code, 2, "{err}");
    for (line, text) in lines {
        assert!(err.contains(text), "missing: {text}\n{err}");
        assert!(err.contains(&format!("{file}:{line}:")), "no diagnostic at line {line}\n{err}");
    }
    assert!(err.contains(&format!("{} errors found", lines.len())), "one error per problem, no follow-on: {err}");
}

/// Per property of a parsed `check --format json` output: its name and
/// verdict.
pub fn verdicts_of(json: &serde_json::Value) -> Vec<(&str, &str)> {
    let properties = json["properties"].as_array().expect("properties");
    properties
        .iter()
        .map(|p| (p["name"].as_str().expect("a name"), p["verdict"].as_str().expect("a verdict")))
        .collect()
}

/// Per property of a `check --format json` output: name, verdict, visited,
/// stored, transitions and trace.
pub fn outcomes_of(json: &str) -> Vec<[serde_json::Value; 6]> {
    let json: serde_json::Value = serde_json::from_str(json).expect("JSON");
    json["properties"]
        .as_array()
        .expect("properties")
        .iter()
        .map(|p| {
            let s = &p["stats"];
            [
                p["name"].clone(),
                p["verdict"].clone(),
                s["visited"].clone(),
                s["stored"].clone(),
                s["transitions"].clone(),
                p["trace"].clone(),
            ]
        })
        .collect()
}

/// A model in `dir` and its twins (a hand-written expansion, an UPPAAL
/// file...): every verdict as the model's `expect:` argues (exit 0), at
/// least `properties` of them with both verdicts and a trace among them,
/// and the twins' outcomes and `kairos graph` output (of at least
/// `graph_lines` lines) identical to the model's.
pub fn assert_twins(dir: &str, model: &str, twins: &[&str], properties: usize, graph_lines: usize) {
    let path = |name: &str| format!("{dir}/{name}");
    let (code, out, err) = kairos(&["check", &path(model)]);
    assert_eq!(code, 0, "every verdict as expected: {out}{err}");
    let outcomes = |name: &str| {
        let (code, out, err) = kairos(&["check", &path(name), "--trace", "--format", "json"]);
        assert!(code == 0 || code == 1, "{name}: exit {code}: {err}");
        outcomes_of(&out)
    };
    let graph = |name: &str| {
        let (code, out, err) = kairos(&["graph", &path(name)]);
        assert_eq!(code, 0, "{name}: {err}");
        out
    };
    let a = outcomes(model);
    assert_eq!(a.len(), properties, "{model}: its properties");
    assert!(a.iter().any(|o| o[1] == "satisfied") && a.iter().any(|o| o[1] == "violated"), "both verdicts");
    assert!(a.iter().any(|o| !o[5].is_null()), "a trace to compare");
    let g = graph(model);
    assert!(g.lines().count() > graph_lines, "a graph worth comparing");
    for twin in twins {
        assert_eq!(a, outcomes(twin), "{model} and its twin {twin}");
        assert_eq!(g, graph(twin), "{model} and its twin {twin}: graphs");
    }
}

/// A model file named `name` with `text` in the tests' scratch folder.
pub fn scratch(name: &str, text: &str) -> String {
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// Runs kairos with `args`, killing it (and failing the test) when it runs
/// `grace` seconds past the `--timeout` of `secs` it is given: a regression
/// to a search that does not stop must fail, not hang the suite.
pub fn kairos_within(args: &[&str], secs: u64, grace: u64) -> std::process::Output {
    let timeout = secs.to_string();
    let mut run = std::process::Command::new(env!("CARGO_BIN_EXE_kairos"))
        .args(args)
        .args(["--timeout", &timeout])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while run.try_wait().unwrap().is_none() {
        if start.elapsed().as_secs() > secs + grace {
            run.kill().unwrap();
            panic!("still running {grace} s past its timeout of {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    run.wait_with_output().unwrap()
}
