//! Resource limits end a check cleanly: verdict `unknown` with the reason
//! and the statistics so far, exit code 3, never an abort. The model has an
//! infinite zone graph (`--abstraction none`), so only the limit stops it.
//!
//! The bounds asserted on time and memory are the promises made to users
//! (a deadline met within a second, a memory budget overshot by at most
//! 10%), not performance measurements.

use crate::common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const MODEL: &str = "tests/models/limits/unbounded.yaml";

/// Runs `kairos check MODEL --abstraction none ARGS --format json`; returns
/// the exit code and the one property's JSON.
fn check(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["check", MODEL, "--abstraction", "none", "--format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = common::kairos(&all);
    let json: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (code, json["properties"][0].clone())
}

fn assert_unknown(code: i32, p: &Value, reason: &str) {
    assert_eq!(code, 3, "{p}");
    assert_eq!(p["verdict"], "unknown", "{p}");
    assert_eq!(p["reason"], reason, "{p}");
    assert!(p["stats"]["visited"].as_u64().unwrap() > 0, "the statistics so far: {p}");
}

#[test]
fn a_state_limit_stops_at_that_many_expansions() {
    let (code, p) = check(&["--max-states", "500", "--no-subsumption"]);
    assert_unknown(code, &p, "state-limit");
    assert_eq!(p["stats"]["visited"], 500);
}

#[test]
fn a_timeout_is_met_within_a_second() {
    let started = Instant::now();
    let (code, p) = check(&["--timeout", "1"]);
    let wall = started.elapsed();
    assert_unknown(code, &p, "timeout");
    assert!(wall >= Duration::from_secs(1) && wall < Duration::from_secs(2), "{wall:?}");
}

#[test]
fn a_memory_budget_is_overshot_by_less_than_a_tenth() {
    // Without subsumption each new zone costs one hash lookup, so memory
    // grows at hundreds of MB/s: the budget is what stops the run.
    let budget = 64u64 << 20;
    let (code, p) = check(&["--max-memory", "64M", "--no-subsumption"]);
    assert_unknown(code, &p, "memory-limit");
    let peak = p["stats"]["peak_rss_bytes"].as_u64().unwrap();
    if peak > 0 {
        assert!(peak <= budget + budget / 10, "peak resident {peak} bytes for a budget of {budget}");
    }
}

#[test]
fn huge_or_infinite_timeouts_mean_no_deadline() {
    for t in ["inf", "1e30"] {
        let (code, p) = check(&["--timeout", t, "--max-states", "100"]);
        assert_unknown(code, &p, "state-limit");
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_check_with_its_statistics() {
    assert_stopped_by_ctrl_c(&["check", MODEL, "--abstraction", "none", "--format", "json", "--timeout", "20"]);
}

/// Runs kairos with `args`, sends it SIGINT after half a second and checks
/// that it ends promptly with `unknown: interrupted` and its statistics.
#[cfg(unix)]
fn assert_stopped_by_ctrl_c(args: &[&str]) {
    let child = Command::new(env!("CARGO_BIN_EXE_kairos"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kairos");
    std::thread::sleep(Duration::from_millis(500));
    let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("run kill");
    assert!(sent.success());
    let started = Instant::now();
    let out = child.wait_with_output().expect("wait for kairos");
    assert!(started.elapsed() < Duration::from_secs(2), "stopped promptly");
    let json: Value = serde_json::from_slice(&out.stdout).expect("the JSON report");
    assert_unknown(out.status.code().unwrap_or(-1), &json["properties"][0], "interrupted");
}

// Within one expansion: the models below have a single state to expand,
// whose successors take seconds or hundreds of MB; a limit checked only
// between expansions is missed by the whole expansion.

/// One expansion of 101 successors that take about 60 ms each (a loop of a
/// million iterations in an update): 6 s without a poll between them.
const SLOW: &str = r#"model: slow_expansion
variables:
  v: {range: [0, 100]}
functions:
  - |
    int[0, 100] spin(int[0, 100] i) {
      int[0, 999] s = 0;
      for (int[0, 1000000] k = 0; k < 1000000; k++) s = (s + k) % 1000;
      return i;
    }
templates:
  P:
    initial: start
    locations:
      start: {}
      next: {}
      never: {}
    edges:
      - {from: start, to: next, select: "i : 0..100", update: "v = spin(i)"}
system: [P]
properties:
  - {name: never, check: "E<> P.never", expect: false}
"#;

/// One expansion of 400 successors over 300 clocks (a 360 KB matrix each,
/// to distinct locations): 160 MB resident without a poll between them.
fn big_expansion() -> String {
    let (clocks, edges) = (300, 400);
    let names: Vec<String> = (0..clocks).map(|i| format!("x{i}")).collect();
    let mut m = format!(
        "model: big_expansion\ntemplates:\n  P:\n    clocks: [{}]\n    initial: start\n    locations:\n      start: {{}}\n      never: {{}}\n",
        names.join(", ")
    );
    for j in 0..edges {
        m += &format!("      l{j}: {{}}\n");
    }
    m += "    edges:\n";
    for j in 0..edges {
        m += &format!("      - {{from: start, to: l{j}, update: \"x{} = 0\"}}\n", j % clocks);
    }
    m + "system: [P]\nproperties:\n  - {name: never, check: \"E<> P.never\", expect: false}\n"
}

/// `kairos check` of `model` with `args` in JSON: exit code, the one
/// property's JSON, and the wall time.
fn run(model: &str, args: &[&str]) -> (i32, Value, Duration) {
    let mut all = vec!["check", model, "--format", "json"];
    all.extend_from_slice(args);
    let started = Instant::now();
    let (code, out, err) = common::kairos(&all);
    let json: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (code, json["properties"][0].clone(), started.elapsed())
}

#[test]
fn a_timeout_is_met_within_one_long_expansion() {
    let model = common::scratch("slow_expansion.yaml", SLOW);
    for jobs in ["1", "2"] {
        let (code, p, wall) = run(&model, &["--timeout", "0.5", "--jobs", jobs]);
        assert_unknown(code, &p, "timeout");
        assert!(wall < Duration::from_secs(2), "--jobs {jobs}: {wall:?}");
    }
}

#[test]
fn a_memory_budget_holds_within_one_big_expansion() {
    let model = common::scratch("big_expansion.yaml", &big_expansion());
    let budget = 64u64 << 20;
    for jobs in ["1", "2"] {
        let (code, p, _) = run(&model, &["--max-memory", "64M", "--jobs", jobs]);
        assert_unknown(code, &p, "memory-limit");
        let peak = p["stats"]["peak_rss_bytes"].as_u64().unwrap();
        if peak > 0 {
            assert!(peak <= budget + budget / 10, "--jobs {jobs}: peak resident {peak} bytes for a budget of {budget}");
        }
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_one_long_expansion() {
    let model = common::scratch("slow_expansion_interrupted.yaml", SLOW);
    assert_stopped_by_ctrl_c(&["check", &model, "--format", "json"]);
}
