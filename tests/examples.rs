//! The models and specs a user reads first: every one loads and validates.

mod common;

use std::path::Path;

fn yaml_files(dir: &str) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_model_validates() {
    let models = yaml_files("models");
    assert!(models.len() >= 4, "models/ holds the railway crossing, Fischer, train-gate and water-level");
    for m in models.iter().chain(&yaml_files("tests/models/tchecker")) {
        if let Err(e) = common::load(m) {
            panic!("{} is invalid:\n{e}", m.display());
        }
    }
}

#[test]
fn every_spec_loads_against_its_model() {
    let specs = yaml_files("specs");
    assert!(!specs.is_empty());
    for spec in specs {
        let model = Path::new("models").join(spec.file_name().unwrap());
        let loaded = common::load(&model).unwrap_or_else(|e| panic!("{e}"));
        let parsed = loaded.spec(&common::source(&spec)).unwrap_or_else(|d| panic!("{}: {d:?}", spec.display()));
        assert!(!parsed.properties.is_empty(), "{} has properties", spec.display());
        assert_eq!(parsed.model_path, format!("../models/{}", spec.file_name().unwrap().to_string_lossy()));
    }
}
