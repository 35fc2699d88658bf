//! The liveness engine (`E[]`, `A<>`, `-->`) on the example models and on
//! small models that pin FORMAT.md section 3: runs are time-divergent,
//! time-locks are warned about, counterexamples are lassos that the
//! validator checks.

use crate::common;

use common::kairos;
use kairos::engine::{self, Options, Verdict};
use kairos::model::load::load_model;
use kairos::syntax::yaml::Source;
use kairos::trace;

fn json(args: &[&str]) -> (i32, serde_json::Value) {
    let (code, out, err) = kairos(args);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (code, v)
}

/// Every property of the model's spec (and of the model) is as expected.
#[test]
fn example_specs_are_as_expected() {
    for name in ["railway-crossing", "train-gate", "fischer"] {
        let (model, spec) = (format!("models/{name}.yaml"), format!("specs/{name}.yaml"));
        let (code, v) = json(&["check", &model, &spec, "--format", "json"]);
        assert_eq!(code, 0, "{name}: {v}");
        let engines: Vec<&str> =
            v["properties"].as_array().unwrap().iter().map(|p| p["engine"].as_str().unwrap()).collect();
        assert!(engines.contains(&"live") && engines.contains(&"observer"), "{name}: {engines:?}");
        assert_eq!(v["warnings"], serde_json::json!([]), "{name}: no time-locks");
    }
}

/// `A<> P.done` holds only because the Zeno run looping in `busy` is not a
/// run; `E[] P.busy` fails for the same reason.
#[test]
fn zeno_runs_are_not_runs() {
    let (code, v) = json(&["check", "tests/models/liveness/zeno.yaml", "--format", "json"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["properties"][0]["verdict"], "satisfied");
    assert_eq!(v["properties"][1]["verdict"], "violated");
}

/// A cycle that resets a clock and waits at least one time unit for it
/// diverges, seen without the tick clock: one pass, and the witness lasso
/// is made concrete and validated. Waiting only for `x > 0` proves nothing
/// (`zeno-resets.yaml`: the loop is Zeno, `y` bounds it).
#[test]
fn resets_and_waits_show_divergence() {
    // Every run that loops forever is Zeno: in zeno-resets the wait is
    // shorter than a unit, in spoiled-reset another assignment of the
    // clock comes between the reset and the wait.
    for model in ["zeno-resets", "spoiled-reset"] {
        let path = format!("tests/models/liveness/{model}.yaml");
        let (code, v) = json(&["check", &path, "--format", "json"]);
        assert_eq!(code, 0, "{model}: {v}");
        assert_eq!(v["properties"][0]["verdict"], "satisfied", "{model}: {v}");
        assert_eq!(v["properties"][1]["verdict"], "violated", "{model}: {v}");
    }
    let src = Source::new("paced", std::fs::read_to_string("tests/models/liveness/paced.yaml").unwrap());
    let loaded = load_model(&src).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    for (q, expected) in [("E[] P.busy", Verdict::Satisfied), ("A<> P.done", Verdict::Violated)] {
        let p = loaded.query("q", q).unwrap();
        let o = engine::check(&loaded.model, Some(&net), &p, &Options::default());
        assert_eq!(o.verdict, expected, "{q}");
        assert!(o.warnings.is_empty(), "{q}: {:?}", o.warnings);
        // busy's one zone and its entry into phase 1: no tick-clock pass.
        assert!(o.stats.unwrap().visited <= 3, "{q}: {:?}", o.stats);
        let t = trace::concretise(&net, o.trace.as_ref().unwrap()).unwrap_or_else(|e| panic!("{q}: {e}"));
        trace::validate(&net, &t).unwrap();
    }
}

/// A state from which no time-divergent run exists is reported with a
/// trace to it; the property is vacuous there.
#[test]
fn time_locks_are_warned_about_with_a_trace() {
    let (code, v) = json(&["check", "tests/models/liveness/time-lock.yaml", "--format", "json"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["properties"][0]["verdict"], "satisfied");
    let w = &v["warnings"][0];
    assert_eq!(w["property"], "stuck-leads-to-never");
    assert!(w["message"].as_str().unwrap().starts_with("time-lock"), "{w}");
    let trace = w["trace"].as_array().expect("a trace");
    assert_eq!(trace.last().unwrap()["state"]["locations"]["P"], "stuck");
    let (_, _, err) = kairos(&["check", "tests/models/liveness/time-lock.yaml"]);
    assert!(err.contains("warning: stuck-leads-to-never: time-lock"), "{err}");
}

/// One warning per time-locked model state, from the first pass (no tick
/// clock to split it): the dead end `h`, whose invariant bounds `x` with
/// nothing leaving. `e` is time-locked only from x = 3 on, a part of its
/// zone that no whole symbolic state shows; the exact scan of the fixpoint
/// engine looks for such parts when no whole state is time-locked
/// (`partly_time_locked_zones_are_reported_by_every_engine`).
#[test]
fn each_time_locked_state_is_warned_about_once() {
    let model = "tests/models/liveness/time-locked-exits.yaml";
    let (code, v) = json(&["check", model, "-q", "P.e --> P.f", "--format", "json"]);
    assert_eq!(code, 0, "{v}");
    let ends: Vec<String> = v["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .map(|w| {
            let last = w["trace"].as_array().expect("a trace").last().unwrap().clone();
            format!("{} {}", last["state"]["locations"]["P"], last["state"]["clocks"]["P.x"])
        })
        .collect();
    assert_eq!(ends, ["\"h\" \"6\""], "{v}");
}

/// A counterexample to `A<>` is a lasso; the validator checks the loop's
/// ends (same region), its progress (>= 1 time unit between marks), and
/// rejects a loop that does not come back.
#[test]
fn lasso_counterexamples_are_validated() {
    let (code, v) =
        json(&["check", "models/railway-crossing.yaml", "-q", "A<> Train(1).near", "--trace", "--format", "json"]);
    assert_eq!(code, 1, "{v}");
    let p = &v["properties"][0];
    assert_eq!(p["verdict"], "violated");
    let k = p["loop_start"].as_u64().expect("a lasso") as usize;
    let steps = p["trace"].as_array().unwrap();
    assert_eq!(steps[k]["progress"], true);
    assert_eq!(steps.last().unwrap()["progress"], true);

    let src = Source::new("rc", std::fs::read_to_string("models/railway-crossing.yaml").unwrap());
    let loaded = load_model(&src).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    for q in ["A<> Train(1).near", "Train(1).near --> Gate.up", "E[] Train(2).far"] {
        let p = loaded.query("q", q).unwrap();
        let o = engine::check(&loaded.model, Some(&net), &p, &Options::default());
        let expected = if q.starts_with("E[]") { Verdict::Satisfied } else { Verdict::Violated };
        assert_eq!(o.verdict, expected, "{q}");
        let t = trace::concretise(&net, o.trace.as_ref().unwrap()).unwrap_or_else(|e| panic!("{q}: {e}"));
        trace::validate(&net, &t).unwrap();
        // The loop must come back to its start's region.
        let mut bad = t.clone();
        let last = bad.steps.len() - 1;
        bad.steps[last].delay += trace::Rational::from_integer(1.into());
        for c in &mut bad.steps[last].after.clocks {
            *c += trace::Rational::new(1.into(), 2.into());
        }
        assert!(trace::validate(&net, &bad).is_err(), "{q}: a tampered loop validates");
        // At least one time unit between progress marks.
        let mut zeno = t.clone();
        zeno.steps.truncate(zeno.loop_start.unwrap() + 1);
        let mut mark = zeno.steps[zeno.loop_start.unwrap()].clone();
        mark.delay = trace::Rational::from_integer(0.into());
        zeno.steps.push(mark);
        let err = trace::validate(&net, &zeno).unwrap_err();
        assert!(err.contains("less than one time unit"), "{q}: {err}");
    }
}

/// Train-gate with N = 5: with `go` urgent an approaching train crosses;
/// without urgency the gate may wait forever with the queue full, and the
/// counterexample is a lasso.
#[test]
fn train_gate_needs_urgent_go() {
    let text = std::fs::read_to_string("models/train-gate.yaml").unwrap().replace("  N: 4 ", "  N: 5 ");
    assert!(text.contains("  N: 5 "));
    let lazy = text.replace("go: {kind: binary, urgent: true, size: N}", "go: {kind: binary, size: N}");
    assert_ne!(lazy, text);
    let dir = std::env::temp_dir().join(format!("kairos-liveness-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, body, verdict, code) in [("urgent", &text, "satisfied", 0), ("lazy", &lazy, "violated", 1)] {
        let path = dir.join(format!("train-gate-5-{name}.yaml"));
        std::fs::write(&path, body).unwrap();
        let q = "Train(1).Appr --> Train(1).Cross";
        let (c, v) = json(&["check", path.to_str().unwrap(), "-q", q, "--trace", "--format", "json"]);
        assert_eq!(c, code, "{name}: {v}");
        assert_eq!(v["properties"][0]["verdict"], verdict, "{name}");
        assert_eq!(v["properties"][0]["engine"], "live");
        if name == "lazy" {
            assert!(v["properties"][0]["loop_start"].is_u64(), "a lasso");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Clock atoms, which the liveness engine does not take, go to the TCTL
/// fixpoint engine. In `e` (x <= 10) every divergent run leaves for `f`
/// at some x <= 3, where x then grows past 3; it never stays in `e` with
/// x > 3 (that is a time-lock at x = 10).
#[test]
fn clock_atoms_in_liveness_go_to_the_fixpoint_engine() {
    let model = "tests/models/liveness/partial-time-lock.yaml";
    for (q, verdict, code) in [("P.e --> P.x > 3", "satisfied", 0), ("P.e --> P.e and P.x > 3", "violated", 1)] {
        let (c, v) = json(&["check", model, "-q", q, "--format", "json"]);
        assert_eq!(c, code, "{q}: {v}");
        assert_eq!(v["properties"][0]["verdict"], verdict, "{q}");
        assert_eq!(v["properties"][0]["engine"], "tctl", "{q}");
    }
}

/// A loop whose earliest run repeats a region only after 51 passes (`y`
/// grows by the tick's unit per pass until it passes 50, its largest
/// constant): the lasso is still found and validated, for `A<>` and `E[]`.
#[test]
fn long_lassos_are_concretised() {
    let loaded = common::load(std::path::Path::new("tests/models/liveness/reset-loop.yaml")).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    for (q, expected) in [("A<> P.done", Verdict::Violated), ("E[] P.work", Verdict::Satisfied)] {
        let p = loaded.query("q", q).unwrap();
        let o = engine::check(&loaded.model, Some(&net), &p, &Options::default());
        assert_eq!(o.verdict, expected, "{q}");
        let t = trace::concretise(&net, o.trace.as_ref().unwrap()).unwrap_or_else(|e| panic!("{q}: {e}"));
        trace::validate(&net, &t).unwrap();
        let start = t.loop_start.expect("a lasso");
        let y = |k: usize| t.steps[k].after.clocks[1].clone();
        assert!(y(start) >= trace::Rational::from_integer(50.into()), "{q}: the loop starts past y = 50");
    }
}

/// `--max-states` bounds the whole liveness search: here a first pass
/// without the tick clock leaves the loop of `work` undecided and a second
/// pass with it follows (24 states in all, 15 and 9); both together stop
/// at the budget. (`-->` explores phase 0 whole; `A<> P.done`, entered at
/// the initial state, would leave it out.)
#[test]
fn the_state_budget_covers_every_pass() {
    let model = "tests/models/liveness/reset-loop.yaml";
    let q = "P.work --> P.done";
    let (code, v) = json(&["check", model, "-q", q, "--max-states", "20", "--format", "json"]);
    assert_eq!(code, 3, "{v}");
    let p = &v["properties"][0];
    assert_eq!(p["reason"], "state-limit", "{p}");
    assert!(p["stats"]["visited"].as_u64().unwrap() <= 20, "{p}");
    let (code, v) = json(&["check", model, "-q", q, "--format", "json"]);
    assert_eq!(code, 1, "{v}");
    assert!(v["properties"][0]["stats"]["visited"].as_u64().unwrap() > 20, "{v}");
}

/// A zone where only some valuations are time-locked (in `e`, x <= 10:
/// a run that stays past x = 3 can never leave, at x = 10 time stops) is
/// not time-locked as a whole, so the liveness and observer searches do
/// not see it; every engine (and `kairos bound`) still warns, with a path
/// that ends where no divergent run is left (the fixpoint engine's exact
/// `EG true`).
#[test]
fn partly_time_locked_zones_are_reported_by_every_engine() {
    let model = "tests/models/liveness/partial-time-lock.yaml";
    for (q, engine) in [("P.e --> P.f", "live"), ("P.e -->[<=2] P.f", "observer"), ("P.e --> P.f", "tctl")] {
        let (_, v) = json(&["check", model, "-q", q, "--engine", engine, "--format", "json"]);
        assert_eq!(v["properties"][0]["engine"], engine, "{q}: {v}");
        let warnings = v["warnings"].as_array().unwrap_or_else(|| panic!("{v}"));
        let w = warnings.iter().find(|w| w["message"].as_str().unwrap().starts_with("time-lock")).expect("a warning");
        let trace = w["trace"].as_array().unwrap_or_else(|| panic!("a trace: {w}"));
        let last = &trace.last().unwrap()["state"];
        assert_eq!(last["locations"]["P"], "e", "{engine}: {w}");
        let x: f64 = last["clocks"]["P.x"].as_str().unwrap().parse().unwrap_or(f64::NAN);
        assert!(x > 3.0, "{engine}: past x = 3 no divergent run is left: {w}");
    }
    // `kairos bound` runs the liveness engine first, and warns the same way;
    // the time-locked runs do not count, so the bound is 3.
    let (_, v) = json(&["bound", model, "-q", "P.e --> P.f", "--format", "json"]);
    assert_eq!(v["bound"]["sup"], 3, "{v}");
    let w = &v["warnings"][0];
    assert!(w["message"].as_str().unwrap().starts_with("time-lock"), "{v}");
    assert_eq!(w["trace"].as_array().unwrap().last().unwrap()["state"]["locations"]["P"], "e", "{v}");
}

/// The liveness engine skips the fixpoint engine's time-lock scan only when
/// its search proved every run divergent and the model is deadlock-free.
/// Here nothing is deadlocked, but the self-loop of `e` is Zeno: the scan
/// runs and finds the time-lock inside `e`'s zone (past x = 3). In
/// `paced.yaml` every loop paces itself: no scan, and no warning.
#[test]
fn time_locks_behind_zeno_loops_are_still_found() {
    let (code, v) = json(&["check", "tests/models/liveness/zeno-loop-lock.yaml", "--format", "json"]);
    assert_eq!(code, 0, "{v}");
    let w = &v["warnings"][0];
    assert!(w["message"].as_str().unwrap().starts_with("time-lock"), "{v}");
    let last = &w["trace"].as_array().expect("a trace").last().unwrap()["state"];
    assert_eq!(last["locations"]["P"], "e", "{v}");
    let x: f64 = last["clocks"]["P.x"].as_str().unwrap().parse().unwrap_or(f64::NAN);
    assert!(x > 3.0, "{v}");
    let (code, v) = json(&["check", "tests/models/liveness/paced.yaml", "-q", "E[] P.busy", "--format", "json"]);
    assert_eq!(code, 0, "{v}");
    assert!(v["warnings"].as_array().is_none_or(|w| w.is_empty()), "{v}");
}

/// A time-lock inside a class whose kept zone has none
/// (`hidden-time-lock.yaml`): the liveness engine must warn exactly when
/// the fixpoint engine's exact `EG true` does, whichever entry into `b` comes
/// first, and not when nothing is stuck (x <= 2 into `m2`).
#[test]
fn time_locks_hidden_in_a_class_are_warned_about_exactly() {
    let text = std::fs::read_to_string("tests/models/liveness/hidden-time-lock.yaml").unwrap();
    let (near, far) = ("guard: \"x <= 1\"", "guard: \"x <= 3\"");
    let swapped = text.replace(near, "NEAR").replace(far, near).replace("NEAR", far);
    let narrow = text.replace(far, "guard: \"x <= 2\"");
    let dir = std::env::temp_dir().join(format!("kairos-hidden-time-lock-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, model, locked) in [("first", &text, true), ("swapped", &swapped, true), ("narrow", &narrow, false)] {
        let path = dir.join(format!("{name}.yaml"));
        std::fs::write(&path, model).unwrap();
        let path = path.to_str().unwrap();
        for engine in ["live", "tctl"] {
            let (code, v) = json(&["check", path, "--engine", engine, "--format", "json"]);
            assert_eq!(code, 0, "{name} {engine}: {v}");
            let warned = v["warnings"]
                .as_array()
                .is_some_and(|ws| ws.iter().any(|w| w["message"].as_str().unwrap().starts_with("time-lock")));
            assert_eq!(warned, locked, "{name} {engine}: {v}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
