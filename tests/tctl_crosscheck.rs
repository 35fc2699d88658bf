//! The TCTL fixpoint engine forced on every property of `models/`, `specs/`
//! and the liveness test models, against the verdict of the engine the
//! formula routes to. Where a property states `expect:`, the default
//! engine's verdict is pinned to it by tests/examples.rs (and the liveness
//! tests), so the comparison is with `expect`; otherwise the default engine
//! runs here. Every trace the fixpoint engine gives is validated.

use crate::common;

use common::yaml_files;

use std::path::Path;

use kairos::engine::{self, Options, Unknown, Verdict};
use kairos::model::decl::Expect;
use kairos::model::formula::{EngineKind, Formula};

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
        let Some((net, props)) = common::timed_properties(&loaded, spec.as_deref()) else { continue };
        for p in &props {
            let o = engine::check(&loaded.model, Some(&net), p, &tctl);
            if matches!(p.formula, Formula::Measure(_)) {
                // `sup`/`inf` are measured by the forward search only.
                assert!(matches!(o.verdict, Verdict::Unknown(Unknown::Unsupported(_))), "{}: {:?}", p.name, o.verdict);
                continue;
            }
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

/// The forward pass and the divergent states are computed once per
/// network and kept in the options (`tctl::Cache`): checking the railway
/// crossing's properties with one set of options, alternating between two
/// networks (1 and 2 trains) so the cache must tell them apart, gives the
/// same verdicts and warnings as fresh options for every property.
#[test]
fn the_shared_analysis_answers_as_a_fresh_one() {
    let text = std::fs::read_to_string("models/railway-crossing.yaml").unwrap();
    let nets: Vec<_> = [1, 2]
        .iter()
        .map(|n| {
            let yaml = text.replace("  N: 3 ", &format!("  N: {n} "));
            let loaded = kairos::model::load::load_model(&kairos::syntax::yaml::Source::new("r.yaml", yaml)).unwrap();
            let net = kairos::network::build(&loaded.model).unwrap();
            (loaded, net)
        })
        .collect();
    let queries = [
        "A[] (Train(1).on imply Gate.down)",
        "E[] (Gate.down or Gate.y <= 1)",
        "A<> (Gate.up and Gate.y > 2)",
        "Train(1).near -->[<1] Gate.down",
        "Train(1).near --> Gate.up",
        "A[Gate.up U Train(1).near]",
        "E<> EG[<=3] (Gate.up and Train(1).far)",
        "A[] (Train(1).near imply A<>[<=5] Train(1).far)",
    ];
    let shared = Options { engine: Some(EngineKind::Tctl), ..Options::default() };
    let mut checked = 0;
    for q in queries {
        for (loaded, net) in &nets {
            let p = loaded.query("q", q).unwrap();
            let once = engine::check(&loaded.model, Some(net), &p, &shared);
            let fresh = Options { engine: Some(EngineKind::Tctl), ..Options::default() };
            let alone = engine::check(&loaded.model, Some(net), &p, &fresh);
            assert_eq!(once.verdict, alone.verdict, "`{q}`");
            let words = |o: &engine::Outcome| o.warnings.iter().map(|w| w.message.clone()).collect::<Vec<_>>();
            assert_eq!(words(&once), words(&alone), "`{q}`");
            checked += 1;
        }
    }
    assert_eq!(checked, 16);
}
