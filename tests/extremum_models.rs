//! `sup`/`inf` queries on the example models, against the values argued by
//! hand in specs/railway-crossing.yaml; the command line's text, JSON and
//! exit codes; what is refused (exit 5, one line) and what is invalid
//! (exit 2, located).

use crate::common;

use std::path::Path;

use common::kairos;
use kairos::engine::extremum::{Extreme, Measured};
use kairos::engine::{self, AbstractionChoice, Options, Verdict};
use kairos::syntax::ast::Extremum;

const RAILWAY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/railway-crossing.yaml");
const RAILWAY_SPEC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/specs/railway-crossing.yaml");

fn exact(value: i64, attained: bool) -> Extreme {
    Extreme::Exact { value, attained }
}

/// The spec's `sup`/`inf` properties, checked with `options`.
fn railway(options: &Options) -> Vec<(String, Verdict)> {
    let loaded = common::load(Path::new(RAILWAY)).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let spec = loaded.spec(&common::source(Path::new(RAILWAY_SPEC))).unwrap();
    let measures = spec.properties.iter().filter(|p| matches!(p.formula, kairos::model::formula::Formula::Measure(_)));
    measures.map(|p| (p.name.clone(), engine::check(&loaded.model, Some(&net), p, options).verdict)).collect()
}

/// Each value checked by hand on models/railway-crossing.yaml (M = 5, its
/// largest constant):
/// - longest-near: `near` has `x <= 5` and its way out needs only `x > 2`,
///   so a train may wait there until `x = 5`: `<= 5`, attained.
/// - earliest-on: `near -> on` needs `x > 2` and does not reset `x`: every
///   value above 2 is seen on the crossing, 2 never: `> 2`, not attained.
/// - latest-on: `on` has `x <= 5`, leaving needs `x >= 3` and the
///   controller, `busy` while a train is counted, always takes `exit`:
///   `<= 5`, attained.
/// - longest-lowering: `lower?` resets `y`, `lowering` has `y <= 1` and an
///   unguarded way out; no `raise` can come before (it needs the train to
///   leave, at `x >= 3`): `<= 1`, attained.
/// - most-counted-and-far-clock: the three trains approach one after the
///   other without leaving, `count = 3` (its range's top); a far train's
///   `x` grows without bound (no invariant in `far`): past 5.
/// - fewest-counted-when-busy: `busy` is entered by `lower!` right after
///   `count = 1`, and `count == 1` sends it to `raising_gate`, never below:
///   `>= 1`, attained.
/// - longest-down: train 1 approaches at 0, train 2 at 4 (count 2), train 1
///   leaves at 5 (count 1), train 2 at 9: the gate has been down with
///   `y = 9 > 5`; no raise came in between.
#[test]
fn the_railway_crossing_measures_what_its_comments_argue() {
    let m = |kind, values: Vec<Extreme>| Verdict::Measured(Measured { kind, limit: Some(5), values: Some(values) });
    let want = [
        ("longest-near", m(Extremum::Sup, vec![exact(5, true)])),
        ("earliest-on", m(Extremum::Inf, vec![exact(2, false)])),
        ("latest-on", m(Extremum::Sup, vec![exact(5, true)])),
        ("longest-lowering", m(Extremum::Sup, vec![exact(1, true)])),
        ("most-counted-and-far-clock", m(Extremum::Sup, vec![exact(3, true), Extreme::Beyond])),
        ("fewest-counted-when-busy", m(Extremum::Inf, vec![exact(1, true)])),
        ("longest-down", m(Extremum::Sup, vec![Extreme::Beyond])),
    ];
    let got = railway(&Options::default());
    assert_eq!(got.len(), want.len(), "{got:?}");
    for ((name, verdict), (want_name, want_verdict)) in got.iter().zip(&want) {
        assert_eq!(name, want_name);
        assert_eq!(verdict, want_verdict, "{name}");
    }
}

/// Without subsumption the search visits more zones, each inside one the
/// default search keeps: the same values; with BDD data too. Exact zones (`--abstraction
/// none`) do not end on this model (a far train's clock grows forever), so
/// they are tried under a state budget on a condition that bounds it.
#[test]
fn the_values_do_not_depend_on_the_search() {
    let plain = railway(&Options::default());
    let without = railway(&Options { subsumption: false, ..Options::default() });
    assert_eq!(plain, without);
    // Nor on the data's representation.
    let bdd = railway(&Options { data: kairos::engine::DataChoice::Bdd, ..Options::default() });
    assert_eq!(plain, bdd);
    let (code, out, err) = kairos(&[
        "check",
        RAILWAY,
        "-q",
        "sup{Train(1).near}: Train(1).x",
        "--abstraction",
        "none",
        "--max-states",
        "20000",
    ]);
    assert!(code == 0 || code == 3, "{out}{err}");
    if code == 0 {
        assert!(out.contains("Train(1).x <= 5 (the supremum, attained)"), "{out}");
    }
}

#[test]
fn the_command_line_prints_each_term_and_exits_0() {
    let (code, out, err) = kairos(&["check", RAILWAY, "-q", "sup: count, Train(1).x"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("query: measured\n  sup: count, Train(1).x\n  count <= 3 (the supremum, attained)\n"),
        "{out}"
    );
    assert!(out.contains("  Train(1).x > 5 in some state: the supremum is larger than 5"), "{out}");
    let (code, out, err) = kairos(&["check", RAILWAY, "-q", "inf{Train(1).on}: Train(1).x", "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let p = &v["properties"][0];
    assert_eq!(p["verdict"], "measured");
    assert_eq!(p["expected"], serde_json::Value::Null);
    assert_eq!(
        p["measure"],
        serde_json::json!({"kind": "inf", "limit": 5,
                           "values": [{"term": "Train(1).x", "value": 2, "attained": false}]})
    );
    let (code, out, _) = kairos(&["check", RAILWAY, "-q", "sup{Train(1).on and Gate.up}: Train(1).x"]);
    assert_eq!(code, 0);
    assert!(out.contains("no reachable state satisfies the condition"), "{out}");
}

#[test]
fn a_spec_with_measures_checks_with_the_others() {
    let (code, out, err) = kairos(&["check", RAILWAY, RAILWAY_SPEC]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("longest-near: measured\n  sup{Train(1).near}: Train(1).x\n  Train(1).x <= 5"), "{out}");
}

fn scratch_spec(name: &str, properties: &str) -> String {
    let spec = format!("model: {RAILWAY}\nproperties:\n{properties}");
    common::scratch(name, &spec)
}

#[test]
fn expect_on_a_measure_is_a_located_error() {
    let spec = scratch_spec(
        "extremum-expect.yaml",
        "  - name: near\n    check: \"sup{Train(1).near}: Train(1).x\"\n    expect: true\n",
    );
    let (code, out, err) = kairos(&["check", RAILWAY, &spec]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("[expect-on-measure]") && err.contains("extremum-expect.yaml:5:13 ]"), "{err}");
}

#[test]
fn terms_are_clocks_or_integers() {
    for (q, at) in [
        ("sup: Train(1).x + 1", "1:6"),
        ("sup: Train(1).x > 3", "1:6"),
        ("inf: count, Gate.y - Train(1).x", "1:13"),
        ("sup{E<> Gate.up}: count", "1:5"),
    ] {
        let (code, out, err) = kairos(&["check", RAILWAY, "-q", q]);
        assert_eq!(code, 2, "{q}: {out}{err}");
        assert!(err.contains(&format!("<query>:{at}")), "{q}: {err}");
    }
    // A variable named `sup` is still a variable.
    let model = std::fs::read_to_string(RAILWAY).unwrap().replace("count", "sup");
    let m = common::scratch("extremum-sup-variable.yaml", &model);
    let (code, out, err) = kairos(&["check", &m, "-q", "E<> sup == 3", "-q", "sup: sup"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("query1: satisfied") && out.contains("sup <= 3"), "{out}");
}

#[test]
fn what_is_not_supported_yet_is_exit_5_with_one_line() {
    let q = "sup{Train(1).near}: Train(1).x";
    for (args, why) in [
        (vec!["--domain", "poly"], "`sup` with `--domain poly` is not supported yet"),
        (vec!["--engine", "tctl"], "`sup` is measured by the forward search"),
    ] {
        let mut all = vec!["check", RAILWAY, "-q", q];
        all.extend(args);
        let (code, out, err) = kairos(&all);
        assert_eq!(code, 5, "{why}: {out}{err}");
        assert_eq!(out.lines().filter(|l| l.contains("unknown (unsupported)")).count(), 1, "{out}");
        assert!(out.contains(why), "{out}");
    }
    // The BDD search does not know priorities: `lo` is blocked at
    // `2 <= x <= 3`, so the supremum is `x < 2`, not the `x <= 3` a search
    // without priorities finds.
    let priority = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/priority/channels.yaml");
    let blocked = "sup{S.gotlo and x <= 3}: x";
    let (code, out, _) = kairos(&["check", priority, "-q", blocked, "--data", "bdd"]);
    assert_eq!(code, 5, "{out}");
    assert!(out.contains("--data bdd: priorities are not supported yet"), "{out}");
    let (code, out, _) = kairos(&["check", priority, "-q", blocked, "--data", "auto"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("x < 2 (the supremum 2, not attained)"), "{out}");
    // `--data auto` measures with explicit data.
    let (code, out, err) = kairos(&["check", RAILWAY, "-q", q, "--data", "auto"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, _) = kairos(&["check", RAILWAY, "-q", "inf{deadlock}: count"]);
    assert_eq!(code, 5);
    assert!(out.contains("`inf` with `deadlock` in its condition is not supported yet"), "{out}");
    let (code, out, _) = kairos(&["check", RAILWAY, "-q", "sup{Train(1).x - Gate.y > 1}: count"]);
    assert_eq!(code, 5);
    assert!(out.contains("diagonal constraints"), "{out}");
    let hybrid = concat!(env!("CARGO_MANIFEST_DIR"), "/models/water-level.yaml");
    let (code, out, _) = kairos(&["check", hybrid, "-q", "sup: 1"]);
    assert_eq!(code, 5, "{out}");
    assert!(out.contains("hybrid models"), "{out}");
}

/// The other checks and the exit code go on around a refused measure.
#[test]
fn a_refused_measure_does_not_stop_the_others() {
    let spec = scratch_spec(
        "extremum-refused.yaml",
        "  - name: dl\n    check: \"sup{deadlock}: count\"\n  - name: can-cross\n    check: \"E<> Train(1).on\"\n    expect: true\n  - name: near\n    check: \"sup{Train(1).near}: Train(1).x\"\n",
    );
    let (code, out, err) = kairos(&["check", RAILWAY, &spec]);
    assert_eq!(code, 5, "{out}{err}");
    assert!(out.contains("can-cross: satisfied") && out.contains("near: measured"), "{out}");
}

#[test]
fn uppaal_queries_translate() {
    let xml = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/uppaal/railway-crossing.xml");
    let (code, out, err) =
        kairos(&["check", xml, "-q", "sup{Train(1).near}: Train(1).x", "-q", "inf{Controller.busy}: count"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Train(1).x <= 5 (the supremum, attained)") && out.contains("count >= 1"), "{out}");
}

/// `--abstraction lu` and `alu` name the default's family: the measured
/// clocks keep their bounds whatever is asked.
#[test]
fn the_abstraction_choice_keeps_the_values() {
    let lu = railway(&Options { abstraction: Some(AbstractionChoice::Lu), ..Options::default() });
    assert_eq!(lu, railway(&Options::default()));
}
