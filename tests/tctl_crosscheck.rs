//! The TCTL fixpoint engine forced on every property of `models/`, `specs/`
//! and the liveness test models, against the verdict of the engine the
//! formula routes to. Where a property states `expect:`, the default
//! engine's verdict is pinned to it by tests/examples.rs (and the liveness
//! tests), so the comparison is with `expect`; otherwise the default engine
//! runs here. Every trace the fixpoint engine gives is validated.

mod common;

use common::yaml_files;

use std::path::Path;

use kairos::engine::{self, Options, Verdict};
use kairos::model::decl::Expect;
use kairos::model::formula::EngineKind;

#[test]
fn forced_tctl_agrees_with_the_default_engines() {
    let tctl = Options { engine: Some(EngineKind::Tctl), ..Options::default() };
    let mut pairs: Vec<(std::path::PathBuf, Option<std::path::PathBuf>)> = Vec::new();
    for spec in yaml_files("specs") {
        pairs.push((Path::new("models").join(spec.file_name().unwrap()), Some(spec)));
    }
    for model in yaml_files("tests/models/liveness") {
        pairs.push((model, None));
    }
    let (mut compared, mut by_expect) = (0, 0);
    for (model, spec) in pairs {
        let loaded = common::load(&model).unwrap();
        // Hybrid and parametric models: zones cannot take them.
        if loaded.model.hybrid || !loaded.model.params.is_empty() {
            continue;
        }
        let net = kairos::network::build(&loaded.model).unwrap();
        let mut props = loaded.model.properties.clone();
        if let Some(spec) = &spec {
            props.extend(loaded.spec(&common::source(spec)).unwrap().properties);
        }
        for p in &props {
            let o = engine::check(&loaded.model, Some(&net), p, &tctl);
            assert_eq!(o.engine, EngineKind::Tctl);
            let want = match &p.expect {
                Some(Expect::Bool(b)) => {
                    by_expect += 1;
                    if *b { Verdict::Satisfied } else { Verdict::Violated }
                }
                _ => engine::check(&loaded.model, Some(&net), p, &Options::default()).verdict,
            };
            assert_eq!(o.verdict, want, "{}: {} `{}`", model.display(), p.name, p.text);
            if let Some(symbolic) = &o.trace {
                let t = kairos::trace::concretise(&net, symbolic).unwrap_or_else(|e| panic!("{}: {e:?}", p.name));
                kairos::trace::validate(&net, &t).unwrap_or_else(|e| panic!("{}: {e}", p.name));
            }
            compared += 1;
        }
    }
    eprintln!("{compared} properties compared ({by_expect} through `expect`)");
    assert!(compared >= 60, "{compared}");
}
