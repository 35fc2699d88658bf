//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::Path;

use kairos::diag::Diagnostic;
use kairos::model::load::{self, Loaded};
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
