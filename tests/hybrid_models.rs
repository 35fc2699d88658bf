//! The hybrid models of `models/` give their argued verdicts (each figure is
//! argued in the model's comments), with exact figures checked on the
//! validated concrete traces; HyTech's crossing is safe exactly for m >= 7.

use crate::common;

use std::path::Path;

use kairos::domain::poly::{Q, q, qr};
use kairos::engine::{self, Options, Outcome, Unknown, Verdict};
use kairos::model::decl::Expect;
use kairos::model::load::Loaded;
use kairos::model::types::Property;
use kairos::network::Network;
use kairos::trace::ConcreteTrace;

fn load(name: &str) -> (Loaded, Vec<Property>) {
    let loaded = common::load(&Path::new("models").join(format!("{name}.yaml"))).unwrap();
    assert!(loaded.model.hybrid || !loaded.model.params.is_empty(), "{name}");
    let spec = loaded.spec(&common::source(&Path::new("specs").join(format!("{name}.yaml")))).unwrap();
    let mut props = spec.properties.clone();
    props.extend(loaded.model.properties.iter().cloned());
    (loaded, props)
}

/// Checks `p` on `net`; a trace is made concrete (which validates it).
fn check(loaded: &Loaded, net: &Network, p: &Property) -> (Outcome, Option<ConcreteTrace>) {
    let o = engine::check(&loaded.model, Some(net), p, &Options::default());
    let t = o.trace.as_ref().map(|s| kairos::trace::concretise(net, s).unwrap_or_else(|e| panic!("{}: {e:?}", p.name)));
    (o, t)
}

/// Every property of the spec has its expected verdict, except those whose
/// engine does not take hybrid models yet (`unsupported`), listed, and the
/// synthesis entries.
fn spec_verdicts(name: &str, params: &[Q], unsupported: &[&str]) -> usize {
    let (loaded, props) = load(name);
    let net = kairos::network::build_with(&loaded.model, params).unwrap();
    assert!(net.hybrid.is_some(), "{name} compiles to a linear network");
    let mut checked = 0;
    for p in &props {
        // `synth:` entries are `kairos synth`'s (tests/synth.rs).
        if p.synth {
            continue;
        }
        let (o, _) = check(&loaded, &net, p);
        if unsupported.contains(&p.name.as_str()) {
            assert!(matches!(o.verdict, Verdict::Unknown(Unknown::Unsupported(_))), "{name}: {}", p.name);
            continue;
        }
        let Some(Expect::Bool(want)) = p.expect else { panic!("{name}: {} has no expectation", p.name) };
        let got = match o.verdict {
            Verdict::Satisfied => true,
            Verdict::Violated => false,
            other => panic!("{name}: {}: {other:?}", p.name),
        };
        assert_eq!(got, want, "{name}: {}", p.name);
        checked += 1;
    }
    checked
}

#[test]
fn water_level_stays_within_1_and_12() {
    assert_eq!(spec_verdicts("water-level", &[], &[]), 13);
}

#[test]
fn thermostat_phases_have_their_argued_bounds() {
    assert_eq!(spec_verdicts("thermostat", &[], &[]), 12);
}

#[test]
fn stopwatch_scheduler_response_is_13() {
    assert_eq!(spec_verdicts("stopwatch-scheduler", &[], &[]), 7);
}

#[test]
fn hytech_crossing_is_safe_with_m_7() {
    assert_eq!(spec_verdicts("hytech-crossing", &[q(7)], &[]), 7);
}

fn value(net: &Network, t: &ConcreteTrace, var: &str) -> Q {
    let k = net.clocks.iter().position(|c| c == var).unwrap();
    t.end().clocks[k].clone()
}

/// Safe exactly when m >= 7: below, the counterexample enters at time m
/// with the gate still open by 15 * (7 - m) degrees at most, more than 0.
#[test]
fn hytech_crossing_is_safe_exactly_from_m_7() {
    let (loaded, props) = load("hytech-crossing");
    let safe = props.iter().find(|p| p.name == "safe").unwrap();
    for m in [q(0), q(5), q(6), qr(13, 2), qr(27, 4), q(7), qr(15, 2), q(12)] {
        let net = kairos::network::build_with(&loaded.model, std::slice::from_ref(&m)).unwrap();
        let (o, t) = check(&loaded, &net, safe);
        assert_eq!(o.verdict == Verdict::Satisfied, m >= q(7), "m = {m}");
        if let Some(t) = t {
            // The run ends with the train in and the gate not closed.
            let (x, a) = (value(&net, &t, "Train.x"), value(&net, &t, "a"));
            assert!(x >= m && a > q(0) && a <= q(15) * (q(7) - &m), "m = {m}: x = {x}, a = {a}");
        }
    }
}

/// The exact figures on the validated witnesses: the water level peaks at 12
/// after 11 time units; the gate closes in 6; the scheduler's low task
/// completes at 13.
#[test]
fn witnesses_show_the_exact_figures() {
    // (model, parameters, query, variable, its value at the end, the run's duration)
    type Case<'a> = (&'a str, &'a [Q], &'a str, &'a str, Q, Q);
    let cases: [Case; 3] = [
        ("water-level", &[], "E<> level == 12", "level", q(12), q(11)),
        ("hytech-crossing", &[q(7)], "E<> Gate.lowering and Gate.g == 6 and a == 0", "Gate.g", q(6), q(6)),
        ("stopwatch-scheduler", &[], "E<> L.running and L.c == 9 and L.r == 13", "L.r", q(13), q(13)),
    ];
    for (name, params, query, var, want, time) in cases {
        let (loaded, _) = load(name);
        let net = kairos::network::build_with(&loaded.model, params).unwrap();
        let p = loaded.query("q", query).unwrap();
        let (o, t) = check(&loaded, &net, &p);
        assert_eq!(o.verdict, Verdict::Satisfied, "{name}");
        let t = t.expect("a witness");
        assert_eq!(value(&net, &t, var), want, "{name}");
        assert_eq!(t.duration(), time, "{name}: the earliest such run");
    }
}

/// Two processes setting one variable's rate in the same state is a
/// run-time error (FORMAT.md section 5), with its trace.
#[test]
fn two_rates_for_one_variable_is_a_run_time_error() {
    let yaml = "model: clash\ncontinuous:\n  v: {init: 0}\ntemplates:\n  Up:\n    initial: s\n    locations:\n      s: {}\n      t: {rate: {v: 1}}\n    edges:\n      - {from: s, to: t}\n  Down:\n    initial: u\n    locations:\n      u: {rate: {v: 2}}\nsystem: [Up, Down]\n";
    let loaded =
        kairos::model::load::load_model(&kairos::syntax::yaml::Source::new("clash.yaml".to_string(), yaml.to_string()))
            .unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let p = loaded.query("q", "E<> Up.t").unwrap();
    let (o, t) = check(&loaded, &net, &p);
    let Verdict::Error(text) = &o.verdict else { panic!("{:?}", o.verdict) };
    assert!(text.contains("`Up` and `Down` both set the rate of `v`"), "{text}");
    assert!(t.is_some(), "the error comes with its trace");
}

/// Linear hybrid reachability is undecidable: a model whose polyhedra never
/// repeat (the level climbs by 1 on every lap) ends in `unknown` under the
/// state limit, with the count of states visited, never a hang.
#[test]
fn a_diverging_model_ends_unknown_under_the_limits() {
    let yaml = "model: climb\ncontinuous:\n  v: {init: 0}\ntemplates:\n  Climb:\n    clocks: [x]\n    initial: s\n    locations:\n      s: {invariant: \"x <= 1\"}\n    edges:\n      - {from: s, to: s, guard: \"x == 1\", update: \"x = 0; v = v + 1\"}\nsystem: [Climb]\n";
    let loaded =
        kairos::model::load::load_model(&kairos::syntax::yaml::Source::new("climb.yaml".to_string(), yaml.to_string()))
            .unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let p = loaded.query("q", "E<> v < 0").unwrap();
    let limits = kairos::engine::reach::Limits { max_states: Some(40), ..Default::default() };
    let o = engine::check(&loaded.model, Some(&net), &p, &Options { limits, ..Options::default() });
    assert_eq!(o.verdict, Verdict::Unknown(Unknown::StateLimit));
    assert_eq!(o.stats.unwrap().visited, 40);
    // Below the limit the same model answers what it reaches.
    let p = loaded.query("q", "E<> v == 7 and Climb.x == 1").unwrap();
    assert_eq!(check(&loaded, &net, &p).0.verdict, Verdict::Satisfied);
}

/// A rate read from the data (`rate: {job: "on * id"}`) against its twin
/// with the rate expanded into locations of constant rates: the same
/// verdicts on queries that pin the exact times (some hold, some fail), and
/// graphs of polyhedra of the same size.
#[test]
fn a_data_rate_agrees_with_its_expansion_into_locations() {
    let queries = [
        ("E<> a.done and b.done", true),
        ("E<> a.done and t < 5", false),
        ("E<> a.done and t <= 5", true),
        ("E<> b.done and t < 4", false),
        ("E<> b.done and t <= 4", true),
        ("A[] a.done imply t >= 5", true),
        ("E<> a.job == 3 and b.job == 4 and t == 5", true),
        ("E<> a.job == 3 and b.job == 4 and t < 4", false),
        ("A[] not b.done imply b.job <= 4", true),
        ("A[] b.job <= 4", false),
    ];
    let mut sizes = Vec::new();
    for name in ["data-rate", "data-rate-expanded"] {
        let path = Path::new("tests/models/hybrid").join(format!("{name}.yaml"));
        let loaded = common::load(&path).unwrap();
        assert!(loaded.model.hybrid, "{name}");
        let net = kairos::network::build(&loaded.model).unwrap();
        for (q, want) in queries {
            let p = loaded.query("q", q).unwrap();
            let (o, _) = check(&loaded, &net, &p);
            let got = match o.verdict {
                Verdict::Satisfied => true,
                Verdict::Violated => false,
                other => panic!("{name}: {q}: {other:?}"),
            };
            assert_eq!(got, want, "{name}: {q}");
        }
        let (code, json, err) = common::kairos(&["graph", path.to_str().unwrap(), "--format", "json"]);
        assert_eq!(code, 0, "{err}");
        let g: serde_json::Value = serde_json::from_str(&json).unwrap();
        sizes.push((g["nodes"].as_array().unwrap().len(), g["edges"].as_array().unwrap().len()));
    }
    assert_eq!(sizes[0], sizes[1]);
}

/// A rate's expression that fails (here an index out of bounds once `k`
/// reaches 2) is a run-time error, with its trace.
#[test]
fn a_data_rate_that_fails_is_a_run_time_error() {
    let yaml = "model: bad-rate\nvariables:\n  k: {range: [0, 2], init: 0}\n  r: {range: [0, 1], size: 2, init: 1}\ntemplates:\n  P:\n    clocks: [x]\n    initial: s\n    locations:\n      s: {rate: {x: \"r[k]\"}}\n    edges:\n      - {from: s, to: s, guard: \"k < 2\", update: \"k = k + 1\"}\nsystem: [P]\n";
    let loaded = kairos::model::load::load_model(&kairos::syntax::yaml::Source::new(
        "bad-rate.yaml".to_string(),
        yaml.to_string(),
    ))
    .unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let p = loaded.query("q", "E<> P.x > 5 and k == 2").unwrap();
    let (o, t) = check(&loaded, &net, &p);
    let Verdict::Error(text) = &o.verdict else { panic!("{:?}", o.verdict) };
    assert!(text.contains("out of bounds") || text.contains("outside"), "{text}");
    assert!(t.is_some(), "the error comes with its trace");
}
