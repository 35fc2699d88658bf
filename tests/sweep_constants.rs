//! Integer constants set by `--param` (FORMAT.md section 4): in `check`,
//! `graph`, `bound`, `synth` and `sweep`, alone or with timing parameters.
//!
//! The oracle is the model file itself with the constant's value edited in
//! its text, written to a scratch directory and checked by plain `kairos
//! check`: at every point of a sweep the verdict and the visited and stored
//! state counts must be that copy's. The models make the constant reach
//! every kind of use: the number of instances (`P(1..N)`), a data range, an
//! array size, a select's range, clock bounds in guards and invariants, and
//! the query.

use crate::common;

use std::path::PathBuf;

use serde_json::Value;

const FISCHER: &str = "models/fischer.yaml";
const FISCHER_PARAM: &str = "models/fischer-param.yaml";
const MUTEX: &str = "A[] forall (i : 1..N) forall (j : 1..N) (i != j imply not (P(i).cs and P(j).cs))";

/// A counter bounded by `MAX`: `MAX` is a data range, an array size, a
/// select's range, a clock bound and a constant of the queries.
const COUNTER: &str = "\
model: counter
constants:
  MAX: 3
clocks: [x]
variables:
  c: {range: [0, MAX], init: 0}
  seen: {range: [0, 1], size: MAX + 1}
templates:
  T:
    initial: run
    locations:
      run: {invariant: \"x <= MAX\"}
    edges:
      - {from: run, to: run, select: \"i : 1..MAX\", guard: \"c + i <= MAX && x >= 1\", update: \"c = c + i; seen[c] = 1; x = 0\"}
system:
  - T
";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kairos-sweep-constants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `text` with the declaration `name: old` of its constants replaced by
/// `name: value` (exactly one such line).
fn edited(text: &str, name: &str, value: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let at: Vec<usize> = (0..lines.len())
        .filter(|&k| lines[k].trim_start().starts_with(&format!("{name}: ")) && lines[k].starts_with("  "))
        .collect();
    assert_eq!(at.len(), 1, "one declaration of {name}");
    let indent = &lines[at[0]][..lines[at[0]].len() - lines[at[0]].trim_start().len()];
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    out[at[0]] = format!("{indent}{name}: {value}");
    out.join("\n") + "\n"
}

/// `n` or `n/d`, exactly.
fn rational(s: &str) -> kairos::domain::poly::Q {
    use kairos::domain::poly::Q;
    match s.split_once('/') {
        Some((n, d)) => Q::new(n.parse::<i64>().unwrap().into(), d.parse::<i64>().unwrap().into()),
        None => Q::from_integer(s.parse::<i64>().unwrap().into()),
    }
}

fn json(args: &[&str]) -> Value {
    let (code, out, err) = common::kairos(args);
    assert!(code == 0 || code == 1, "{args:?}: exit {code}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

/// The verdict and the state counts of one check's only property.
fn outcome(check: &Value) -> (String, u64, u64) {
    let p = &check["properties"][0];
    (
        p["verdict"].as_str().unwrap().to_string(),
        p["stats"]["visited"].as_u64().unwrap(),
        p["stats"]["stored"].as_u64().unwrap(),
    )
}

/// The same for a point of a sweep.
fn point_outcome(p: &Value) -> (String, u64, u64) {
    (
        p["verdict"].as_str().unwrap().to_string(),
        p["stats"]["visited"].as_u64().unwrap(),
        p["stats"]["stored"].as_u64().unwrap(),
    )
}

/// Sweeps `model` (a path) over `grid` and checks every point against a
/// copy of the file with the constants of `constants` edited to the
/// point's values, the timing parameters passed as `--param`. Returns the
/// sweep's points.
fn agrees_with_edited_copies(model: &str, query: &str, grid: &[&str], constants: &[&str]) -> Vec<Value> {
    let text = std::fs::read_to_string(model).unwrap();
    let mut args = vec!["sweep", model, "-q", query, "--format", "json"];
    for g in grid {
        args.extend(["--param", g]);
    }
    let sweep = json(&args);
    let points = sweep["points"].as_array().unwrap().clone();
    assert!(!points.is_empty());
    for (k, p) in points.iter().enumerate() {
        let params = p["params"].as_object().unwrap();
        let mut copy = text.clone();
        let mut timing = Vec::new();
        for (name, value) in params {
            let value = value.as_str().unwrap();
            if constants.contains(&name.as_str()) {
                copy = edited(&copy, name, value);
            } else {
                timing.push(format!("{name}={value}"));
            }
        }
        let file = scratch(&format!("point-{k}.yaml"));
        std::fs::write(&file, &copy).unwrap();
        let path = file.to_str().unwrap();
        let mut check = vec!["check", path, "-q", query, "--format", "json"];
        for t in &timing {
            check.extend(["--param", t.as_str()]);
        }
        assert_eq!(point_outcome(p), outcome(&json(&check)), "{model} at {p}: the sweep and the edited copy differ");
    }
    points
}

#[test]
fn fischer_process_count_and_delay_match_edited_copies() {
    let points = agrees_with_edited_copies(FISCHER, MUTEX, &["N=2..4", "K=1..2"], &["N", "K"]);
    assert_eq!(points.len(), 6);
    // Grid order, constants in declaration order (N before K), the last fastest.
    let at: Vec<(String, String)> = points
        .iter()
        .map(|p| (p["params"]["N"].as_str().unwrap().into(), p["params"]["K"].as_str().unwrap().into()))
        .collect();
    assert_eq!(at[..2], [("2".into(), "1".into()), ("2".into(), "2".into())]);
    assert!(points.iter().all(|p| p["verdict"] == "satisfied"));
    // The state space grows with N: the constant reached the instances.
    let stored: Vec<u64> = points.iter().map(|p| p["stats"]["stored"].as_u64().unwrap()).collect();
    assert!(stored[0] < stored[2] && stored[2] < stored[4], "{stored:?}");
}

#[test]
fn a_data_bound_matches_edited_copies() {
    let model = scratch("counter.yaml");
    std::fs::write(&model, COUNTER).unwrap();
    let model = model.to_str().unwrap();
    // `c == 4` is reachable exactly when MAX >= 4.
    let points = agrees_with_edited_copies(model, "E<> c == 4", &["MAX=1..6"], &["MAX"]);
    let verdicts: Vec<&str> = points.iter().map(|p| p["verdict"].as_str().unwrap()).collect();
    assert_eq!(verdicts, ["violated", "violated", "violated", "satisfied", "satisfied", "satisfied"]);
    // A formula over the constant, by steps of 2.
    agrees_with_edited_copies(model, "A[] (c <= MAX and x <= MAX)", &["MAX=1..7:2"], &["MAX"]);
}

/// The mixed grid: the process count and both delays. Every point agrees
/// with the edited copy, and with `b > a` (the documented answer, for
/// every N >= 2).
#[test]
fn fischer_param_mixed_grid_matches_edited_copies() {
    let q = "A[] not (P(1).cs and P(2).cs)";
    let points = agrees_with_edited_copies(FISCHER_PARAM, q, &["N=2..3", "a=0..2", "b=0..2:1/2"], &["N"]);
    assert_eq!(points.len(), 2 * 3 * 5);
    for p in &points {
        let v = |n: &str| rational(p["params"][n].as_str().unwrap());
        let safe = v("b") > v("a");
        assert_eq!(p["verdict"], if safe { "satisfied" } else { "violated" }, "{p}");
    }
}

/// `kairos check --param N=v` is the edited copy too, and so are `graph`,
/// `bound --term` and `synth`.
#[test]
fn other_commands_set_constants() {
    let text = std::fs::read_to_string(FISCHER).unwrap();
    let copy = scratch("fischer-3.yaml");
    std::fs::write(&copy, edited(&text, "N", "3")).unwrap();
    let copy = copy.to_str().unwrap();
    let set = json(&["check", FISCHER, "--param", "N=3", "--format", "json"]);
    let plain = json(&["check", copy, "--format", "json"]);
    for k in 0..2 {
        let counts = |v: &Value| (v["properties"][k]["verdict"].clone(), v["properties"][k]["stats"]["stored"].clone());
        assert_eq!(counts(&set), counts(&plain));
    }
    // The point is named in the JSON, as `kairos sweep --merge` reads it.
    assert_eq!(set["parameters"], serde_json::json!(["N"]));
    assert_eq!(set["params"], serde_json::json!({"N": "3"}));

    let graph = |args: &[&str]| {
        let (code, out, err) = common::kairos(args);
        assert_eq!(code, 0, "{err}");
        out
    };
    assert_eq!(
        graph(&["graph", FISCHER, "--param", "N=3", "--format", "yaml"]).replace("fischer.yaml", ""),
        graph(&["graph", copy, "--format", "yaml"]).replace("fischer-3.yaml", "")
    );

    let copy_k = scratch("fischer-k5.yaml");
    std::fs::write(&copy_k, edited(&text, "K", "5")).unwrap();
    let term = |m: &str, extra: &[&str]| {
        let (code, out, err) =
            common::kairos(&[&["bound", m, "-q", "P(1).req", "--term", "P(1).x"][..], extra].concat());
        assert_eq!(code, 0, "{err}");
        out
    };
    let bound = term(FISCHER, &["--param", "K=5"]);
    assert!(bound.contains("sup = 5 (attained)"), "{bound}");
    assert_eq!(bound, term(copy_k.to_str().unwrap(), &[]));

    // Synthesis with a constant set: `b` is reached exactly when the
    // invariant lets the clock reach `D`.
    let deadline = "\
model: deadline
constants:
  D: 3
parameters:
  p: {min: 0, max: 10}
clocks: [x]
templates:
  T:
    initial: a
    locations:
      a: {invariant: \"x <= p\"}
      b: {}
    edges:
      - {from: a, to: b, guard: \"x >= D\"}
system:
  - T
";
    let model = scratch("deadline.yaml");
    std::fs::write(&model, deadline).unwrap();
    let copy = scratch("deadline-5.yaml");
    std::fs::write(&copy, edited(deadline, "D", "5")).unwrap();
    let synth = |m: &PathBuf, extra: &[&str]| {
        let v = json(&[&["synth", m.to_str().unwrap(), "-q", "E<> T.b", "--format", "json"][..], extra].concat());
        v["properties"][0]["constraint"].clone()
    };
    assert_eq!(synth(&model, &["--param", "D=5"]), "p >= 5");
    assert_eq!(synth(&model, &["--param", "D=5"]), synth(&copy, &[]));
    assert_eq!(synth(&model, &[]), "p >= 3");
}

/// `--jobs-out` commands carry the constants, and `--merge` rebuilds the
/// direct sweep from their outputs.
#[test]
fn cluster_commands_carry_constants() {
    let q = "A[] not (P(1).cs and P(2).cs)";
    let grid = ["--param", "N=2..3", "--param", "a=1", "--param", "b=1..2"];
    let jobs = scratch("jobs.jsonl");
    let sweep = [&["sweep", FISCHER_PARAM, "-q", q][..], &grid[..]].concat();
    let (code, _, err) = common::kairos(&[&sweep[..], &["--jobs-out", jobs.to_str().unwrap()]].concat());
    assert_eq!(code, 0, "{err}");
    let mut outputs = String::new();
    for line in std::fs::read_to_string(&jobs).unwrap().lines() {
        let job: Value = serde_json::from_str(line).unwrap();
        let argv: Vec<String> = job["argv"].as_array().unwrap().iter().map(|w| w.as_str().unwrap().into()).collect();
        assert!(argv.iter().any(|w| w.starts_with("N=")), "{line}");
        let words: Vec<&str> = argv[1..].iter().map(String::as_str).collect();
        let (_, out, _) = common::kairos(&words);
        outputs += &out;
    }
    let results = scratch("results.jsonl");
    std::fs::write(&results, outputs).unwrap();
    let untimed = |mut v: Value| {
        for p in v["points"].as_array_mut().unwrap() {
            p.as_object_mut().unwrap().remove("time_s");
        }
        v
    };
    let merged = json(&["sweep", "--merge", results.to_str().unwrap(), "--format", "json"]);
    let direct = json(&[&sweep[..], &["--format", "json"]].concat());
    assert_eq!(merged["parameters"], serde_json::json!(["N", "a", "b"]));
    assert_eq!(untimed(merged), untimed(direct));
}

/// The map of a constant against a timing parameter: an integer axis.
#[test]
fn a_constant_is_a_map_axis() {
    let svg = scratch("n-b.svg");
    let (code, _, err) = common::kairos(&[
        "sweep",
        FISCHER_PARAM,
        "-q",
        "A[] not (P(1).cs and P(2).cs)",
        "--param",
        "N=2..4",
        "--param",
        "a=1",
        "--param",
        "b=0..3",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.contains(">N</text>") && drawn.contains(">b</text>"), "the axes are N and b");
    assert!(drawn.contains("3 × 4 points"), "one cell per point");
}

#[test]
fn bad_constants_are_refused() {
    let cases: [(&[&str], i32, &str); 9] = [
        (&["check", FISCHER, "--param", "M=3"], 2, "no timing parameter or constant `M`; the constants are N, K"),
        (&["check", FISCHER, "--param", "N=5/2"], 2, "`N` is an integer constant"),
        (&["check", FISCHER, "--param", "N=3", "--param", "N=4"], 2, "`N` is given twice"),
        (&["sweep", FISCHER, "-q", MUTEX, "--param", "M=1..3"], 2, "no timing parameter or constant `M`"),
        (&["sweep", FISCHER, "-q", MUTEX, "--param", "N=5..2"], 2, "an empty range"),
        (&["sweep", FISCHER, "-q", MUTEX, "--param", "N=2..4:1/2"], 2, "its values and step must be integers"),
        (&["sweep", FISCHER, "-q", MUTEX, "--param", "N=3/2"], 2, "its values and step must be integers"),
        (&["synth", FISCHER_PARAM, "-q", "E<> P(1).cs", "--param", "a=1"], 5, "fixing one is not supported yet"),
        (
            &["sweep", FISCHER_PARAM, "-q", "E<> P(1).cs", "--param", "N=2..3", "--param", "a=1", "--param", "b=1"],
            0,
            "",
        ),
    ];
    for (args, want, says) in cases {
        let (code, _, err) = common::kairos(args);
        assert_eq!(code, want, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let with_synth = ["sweep", FISCHER_PARAM, "-q", "E<> P(1).cs", "--param", "N=2..3", "--param", "a=1", "--param"];
    let (code, _, err) = common::kairos(&[&with_synth[..], &["b=1", "--with-synth"]].concat());
    assert_eq!(code, 5, "{err}");
}

/// A value that makes the model invalid: the model's own diagnostic, at
/// its place in the file, then the values that did it.
#[test]
fn a_value_that_makes_the_model_invalid_is_located() {
    for args in [&["check", FISCHER, "--param", "N=0"][..], &["sweep", FISCHER, "-q", MUTEX, "--param", "N=0..2"]] {
        let (code, _, err) = common::kairos(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("models/fischer.yaml:66:7"), "{err}");
        assert!(err.contains("the range 1..0 is empty"), "{err}");
        assert!(err.contains("with the constants set by --param N=0"), "{err}");
    }
}

/// The library entry point: a name that is no constant is a diagnostic.
#[test]
fn loading_with_an_unknown_constant_is_an_error() {
    use kairos::model::load::load_model_with;
    use kairos::syntax::yaml::Source;
    let src = Source::new("counter.yaml", COUNTER.to_string());
    let set = load_model_with(&src, &[("MAX".into(), 5)]).unwrap();
    assert_eq!(set.model.constants["MAX"], 5);
    let d = load_model_with(&src, &[("MIN".into(), 5)]).unwrap_err();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, "unknown-constant");
    assert_eq!(d[0].message, "no constant `MIN` to set; the constants are MAX");
}
