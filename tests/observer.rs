//! Bounded response through observers, and `kairos bound`: for each
//! bounded-response property with computed bound d, `-->[<=d]` holds; if d
//! is attained `-->[<d]` fails, otherwise `-->[<d]` holds and
//! `-->[<=d-1]` fails.

use crate::common;

use common::kairos;

fn check(model: &str, q: &str) -> String {
    let (_, out, err) = kairos(&["check", model, "-q", q, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    assert!(["observer", "live"].contains(&v["properties"][0]["engine"].as_str().unwrap()), "{v}");
    v["properties"][0]["verdict"].as_str().unwrap().to_string()
}

fn bound(model: &str, lhs: &str, rhs: &str) -> (i64, bool) {
    let q = format!("{lhs} --> {rhs}");
    let (code, out, err) = kairos(&["bound", model, "-q", &q, "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    (v["bound"]["sup"].as_i64().expect("a finite bound"), v["bound"]["attained"].as_bool().unwrap())
}

#[test]
fn bounds_agree_with_bounded_response() {
    let cases = [
        ("models/railway-crossing.yaml", "Train(1).near", "Gate.down", (1, true)),
        ("models/railway-crossing.yaml", "Train(1).near", "Train(1).far", (5, true)),
        ("models/train-gate.yaml", "Train(0).Appr", "Train(0).Cross", (80, true)),
        ("models/fischer.yaml", "P(1).req", "P(1).wait", (2, true)),
        ("tests/models/liveness/strict.yaml", "P.busy", "P.idle", (3, false)),
        // Runs stuck at x = 10 (a zone time-locked only in part) and in a
        // dead end do not count: 3, not 10.
        ("tests/models/liveness/time-locked-exits.yaml", "P.e", "P.f", (3, false)),
    ];
    for (model, lhs, rhs, expected) in cases {
        let (d, attained) = bound(model, lhs, rhs);
        assert_eq!((d, attained), expected, "{model}: {lhs} --> {rhs}");
        assert_eq!(check(model, &format!("{lhs} -->[<={d}] {rhs}")), "satisfied", "{model} {lhs}");
        assert_eq!(check(model, &format!("A[] ({lhs} imply A<>[<={d}] {rhs})")), "satisfied");
        if attained {
            assert_eq!(check(model, &format!("{lhs} -->[<{d}] {rhs}")), "violated", "{model} {lhs}");
        } else {
            assert_eq!(check(model, &format!("{lhs} -->[<{d}] {rhs}")), "satisfied", "{model} {lhs}");
            assert_eq!(check(model, &format!("{lhs} -->[<={}] {rhs}", d - 1)), "violated", "{model} {lhs}");
        }
    }
}

#[test]
fn unbounded_response_comes_with_a_lasso() {
    let (code, out, _) = kairos(&["bound", "models/fischer.yaml", "-q", "P(1).req --> P(1).cs", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["bound"], "unbounded");
    assert!(v["loop_start"].is_u64(), "{v}");
}

/// The observer watches intermediate (committed) states too.
#[test]
fn observers_see_committed_states() {
    let (code, out, _) = kairos(&["check", "tests/models/liveness/committed.yaml", "--trace"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("c-answered: violated") && out.contains("Observer: idle -> wait"), "{out}");
}

#[test]
fn top_level_bounded_eventually() {
    assert_eq!(check("models/railway-crossing.yaml", "A<>[<=3] Gate.down"), "violated");
    assert_eq!(check("tests/models/liveness/zeno.yaml", "A<>[<=1] P.done"), "satisfied");
    assert_eq!(check("tests/models/liveness/zeno.yaml", "A<>[<1] P.done"), "violated");
}

#[test]
fn the_observer_is_printed_as_a_template() {
    let (code, out, _) = kairos(&["observer", "models/railway-crossing.yaml", "-q", "Train(1).near -->[<1] Gate.down"]);
    assert_eq!(code, 0);
    let expected = r#"# The observer of `Train(1).near -->[<1] Gate.down`, composed with the network; the property
# fails iff a time-divergent run of the product reaches `bad`.
Observer:
  observer: true
  clocks: [w]
  initial: idle
  locations:
    idle: {}
    wait: {invariant: "not (Gate.down)"}
    bad: {}
  edges:
    - {from: idle, to: wait, guard: "(Train(1).near) and not (Gate.down)", update: "w = 0"}
    - {from: wait, to: bad, guard: "w >= 1"}
"#;
    assert_eq!(out, expected);
    let (code, _, err) = kairos(&["observer", "models/railway-crossing.yaml", "-q", "E<> Gate.down"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a bounded-response property"), "{err}");
}

/// `[< 0]` is the empty interval: refused, not read as `[<= 0]`.
#[test]
fn an_empty_time_bound_is_refused() {
    for q in ["P.e -->[<0] P.f", "A<>[<0] P.f", "A<>[<0+0] P.f"] {
        let (code, _, err) = kairos(&["check", "tests/models/liveness/time-locked-exits.yaml", "-q", q]);
        assert_eq!(code, 2, "{q}: {err}");
        assert!(err.contains("[empty-time-bound]"), "{q}: {err}");
    }
    let (code, out, err) = kairos(&["check", "tests/models/liveness/time-locked-exits.yaml", "-q", "P.e -->[<=0] P.e"]);
    assert_eq!(code, 0, "{out}{err}");
}

/// `kairos bound` reports the time-locks it met (runs into them do not
/// count), as `check` does.
#[test]
fn bound_reports_time_locks() {
    let q = "P.e --> P.f";
    let (code, out, err) =
        kairos(&["bound", "tests/models/liveness/time-locked-exits.yaml", "-q", q, "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["bound"]["sup"], 3, "{v}");
    let w = &v["warnings"][0];
    assert!(w["message"].as_str().unwrap().starts_with("time-lock"), "{v}");
    assert!(w["trace"].is_array(), "{v}");
    let (_, _, err) = kairos(&["bound", "tests/models/liveness/time-locked-exits.yaml", "-q", q]);
    assert!(err.contains("warning: query: time-lock"), "{err}");
}
