//! The models and specs a user reads first: every one loads and validates.

use crate::common;

use common::yaml_files;

use std::path::Path;

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

/// Every example property the engines answer has its expected verdict,
/// and every witness or counterexample becomes a validated concrete run;
/// the verdicts and state counts are pinned in a snapshot (STYLE.md 15).
#[test]
fn example_verdicts_and_counts_are_pinned() {
    use kairos::engine::{self, Options, Verdict};
    use kairos::model::decl::Expect;
    let mut table = String::new();
    for spec in yaml_files("specs") {
        let model = Path::new("models").join(spec.file_name().unwrap());
        let loaded = common::load(&model).unwrap();
        // Hybrid and parametric models have their own tests (hybrid_models, synth).
        if loaded.model.hybrid || !loaded.model.params.is_empty() {
            continue;
        }
        let net = kairos::network::build(&loaded.model).unwrap();
        let parsed = loaded.spec(&common::source(&spec)).unwrap();
        for p in parsed.properties.iter().chain(&loaded.model.properties) {
            let o = engine::check(&loaded.model, Some(&net), p, &Options::default());
            let verdict = match &o.verdict {
                Verdict::Satisfied => "satisfied".to_string(),
                Verdict::Violated => "violated".to_string(),
                Verdict::Unknown(_) => "unknown".to_string(),
                Verdict::Error(_) => "error".to_string(),
                Verdict::Measured(m) => format!("measured {:?}", m.values),
            };
            if let (Some(Expect::Bool(want)), Verdict::Satisfied | Verdict::Violated) = (&p.expect, &o.verdict) {
                assert_eq!(*want, o.verdict == Verdict::Satisfied, "{}: {}", spec.display(), p.name);
            }
            if let Some(symbolic) = &o.trace {
                // Observer traces are runs of the product.
                let net = o.network.as_deref().unwrap_or(&net);
                let t = kairos::trace::concretise(net, symbolic).unwrap_or_else(|e| panic!("{}: {e:?}", p.name));
                kairos::trace::validate(net, &t).unwrap_or_else(|e| panic!("{}: {e}", p.name));
            }
            let counts = o.stats.map_or(String::new(), |s| format!(" visited {} stored {}", s.visited, s.stored));
            table.push_str(&format!("{} {}: {verdict}{counts}\n", loaded.model.name, p.name));
        }
    }
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots/examples");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!("verdicts", table));
}

/// The input pipeline is a library: a TChecker file loads, compiles and is
/// explored without the command line (TChecker's covreach counts), and a
/// spec for another model is rejected with its located diagnostic.
#[test]
fn the_input_pipeline_is_a_library() {
    use kairos::engine::{self, AbstractionChoice, Options, Verdict};
    use kairos::input::{self, Format, Translation};
    let tck = Path::new("tests/models/tchecker/fischer_4.tck");
    assert_eq!(Format::of(tck, None), Format::Tchecker);
    let input = input::load(tck, &[], None).unwrap_or_else(|r| panic!("{:?}", r.diags));
    assert!(matches!(input.imported, Some(Translation::Tchecker(_))));
    let net = input.network().unwrap_or_else(|r| panic!("{:?}", r.diags)).expect("a timed model");
    let o = engine::explore(&net, &Options { abstraction: Some(AbstractionChoice::Lu), ..Options::default() });
    assert_eq!(o.verdict, Verdict::Satisfied);
    let stats = o.stats.unwrap();
    assert_eq!((stats.visited, stats.stored), (268, 220));

    let spec = std::path::PathBuf::from("specs/railway-crossing.yaml");
    let r = input::load(Path::new("models/fischer.yaml"), &[spec], None).err().expect("a mismatch");
    assert_eq!(r.diags.len(), 1);
    assert_eq!(r.diags[0].code, "spec-model-mismatch");
    assert_eq!(&*r.diags[0].loc.file, "specs/railway-crossing.yaml");
    assert!(!r.unsupported);
}
