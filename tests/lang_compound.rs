//! Compound data (FORMAT.md "Arrays"): multi-dimensional arrays of integers,
//! booleans and channels. Each model of `tests/models/compound/` has a twin
//! flattened by hand to one-dimensional arrays (`g[i][j]` written
//! `g[i * C + j]`: no multi-dimensional code runs in the twin), and an UPPAAL
//! twin written in UPPAAL's syntax; all three must agree on every verdict,
//! state count and trace, and the graphs must be byte-identical once element
//! names are flattened. Then the located errors: index out of bounds at run
//! time (with its trace) and at load time, a wrong number of indices, an
//! initial value of the wrong shape.

use crate::common;

use std::path::PathBuf;

use common::kairos;
use serde_json::Value;

const DIR: &str = "tests/models/compound";

/// A model's arrays: name, rows, columns (a row-major `name[rows][cols]`).
type Shapes = &'static [(&'static str, usize, usize)];

/// The models with a hand-flattened twin, and the shapes of their arrays.
const CASES: &[(&str, Shapes)] = &[("grid", &[("g", 2, 3), ("seen", 2, 2), ("c", 2, 3)])];

/// `text` with every element name `a[i][j]` of `shapes` written as the
/// flattened twin names it, `a[i * cols + j]`.
fn flatten_names(text: &str, shapes: Shapes) -> String {
    let mut out = text.to_string();
    for &(name, rows, cols) in shapes {
        for i in 0..rows {
            for j in 0..cols {
                let from = format!("{name}[{i}][{j}]");
                let to = format!("{name}[{}]", i * cols + j);
                let mut s = String::with_capacity(out.len());
                let mut rest = out.as_str();
                while let Some(at) = rest.find(&from) {
                    let before = rest[..at].chars().next_back();
                    let whole = !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
                    s.push_str(&rest[..at]);
                    s.push_str(if whole { &to } else { &from });
                    rest = &rest[at + from.len()..];
                }
                s.push_str(rest);
                out = s;
            }
        }
    }
    out
}

fn path(name: &str) -> String {
    format!("{DIR}/{name}")
}

/// Per property: name, verdict, visited, stored, transitions and trace.
fn outcomes(model: &str, shapes: Shapes) -> Vec<[Value; 6]> {
    let (code, out, err) = kairos(&["check", &path(model), "--trace", "--format", "json"]);
    assert!(code == 0 || code == 1, "{model}: exit {code}: {err}");
    let a = common::outcomes_of(&flatten_names(&out, shapes));
    assert!(a.len() >= 4, "{model}: properties worth comparing");
    a
}

#[test]
fn arrays_agree_with_their_hand_flattened_and_uppaal_twins() {
    for &(name, shapes) in CASES {
        let (model, flat, xml) = (format!("{name}.yaml"), format!("{name}.flat.yaml"), format!("{name}.xml"));
        // Verdicts (each as its `expect` says), counts and traces.
        let (code, out, err) = kairos(&["check", &path(&model)]);
        assert_eq!(code, 0, "{model}: every verdict as expected: {out}{err}");
        let a = outcomes(&model, shapes);
        assert!(
            a.iter().any(|o| o[1] == "satisfied") && a.iter().any(|o| o[1] == "violated"),
            "{model}: both verdicts"
        );
        assert!(a.iter().filter(|o| !o[5].is_null()).count() >= 3, "{model}: traces to compare");
        assert_eq!(a, outcomes(&flat, shapes), "{model} and its flattened twin");
        assert_eq!(a, outcomes(&xml, shapes), "{model} and its UPPAAL twin");
        // The zone graphs, byte for byte.
        let graph = |file: &str| {
            let (code, out, err) = kairos(&["graph", &path(file)]);
            assert_eq!(code, 0, "{file}: {err}");
            out
        };
        let g = graph(&model);
        assert!(g.lines().count() > 100, "{model}: a graph worth comparing");
        assert_eq!(g, graph(&xml), "{model} and its UPPAAL twin: graphs");
        assert_eq!(flatten_names(&g, shapes), graph(&flat), "{model} and its flattened twin: graphs");
    }
}

#[test]
fn array_typedefs_import_as_their_hand_written_twin() {
    // `typedef int[0, 3] row_t[2]`, `row_t m[2]`, `typedef row_t mat_t[id_t]`:
    // the importer's arrays against the dimensions written out by hand.
    let a = outcomes("typedefs.yaml", &[]);
    assert!(a.iter().any(|o| o[1] == "satisfied") && a.iter().any(|o| o[1] == "violated"), "both verdicts");
    assert_eq!(a, outcomes("typedefs.xml", &[]), "typedefs.xml and its YAML twin");
    assert_eq!(a, outcomes("typedefs.types.yaml", &[]), "kairos `types:` and the YAML twin");
    let graph = |file: &str| kairos(&["graph", &path(file)]).1;
    let g = graph("typedefs.yaml");
    assert!(g.lines().count() > 100, "a graph worth comparing");
    assert_eq!(g, graph("typedefs.xml"), "typedefs.xml and its YAML twin: graphs");
    assert_eq!(g, graph("typedefs.types.yaml"), "kairos `types:` and the YAML twin: graphs");
}

#[test]
fn named_types_are_checked_at_load_time() {
    let model = scratch(
        "types.yaml",
        "model: types
types:
  id_t: {range: [1, 3]}
  row_t: {range: [0, 3], size: 2, init: 1}
  flag_t: {type: bool}
variables:
  a: {type: nothing}
  b: {range: [0, 3], size: [id_t]}
  c: {range: [0, 3], size: [flag_t, 2]}
  d: {type: row_t, range: [0, 1]}
  e: {type: row_t}
templates:
  P:
    initial: l
    locations: {l: {}}
    edges:
      - {from: l, to: l, guard: \"row_t == 0\"}
      - {from: l, to: l, guard: \"e[1] == 0\", update: \"e[0] = 4\"}
system: [P]
",
    );
    let (code, _, err) = kairos(&["validate", &model]);
    assert_eq!(code, 2, "{err}");
    for (line, text) in [
        (4, "unknown key `init` in type `row_t`"),
        (7, "unknown type `nothing`"),
        (8, "`id_t` sizes an array only as an integer type from 0 to a constant"),
        (9, "`flag_t` sizes an array only as an integer type from 0 to a constant"),
        (10, "a variable of type `row_t` has its type's range"),
        (17, "`row_t` is a type, not a value"),
    ] {
        assert!(err.contains(text), "missing: {text}\n{err}");
        assert!(err.contains(&format!("types.yaml:{line}:")), "no diagnostic at line {line}\n{err}");
    }
    assert!(err.contains("6 errors found"), "one error per problem, no follow-on: {err}");
}

/// A model file in the test's scratch folder.
fn scratch(name: &str, text: &str) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("compound-{name}"));
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn an_index_out_of_its_dimension_is_a_run_time_error_with_its_trace() {
    // `g[0][k]` with k = 3 is element 3 of the flattened array, in bounds:
    // only the check of each index against its own dimension catches it.
    let model = scratch(
        "oob.yaml",
        "model: oob
variables:
  g: {range: [0, 3], size: [2, 3]}
  k: {range: [0, 5]}
functions:
  - |
    int[0, 3] at(int i, int j) {
      return g[i][j];
    }
templates:
  P:
    initial: a
    locations: {a: {}, b: {}}
    edges:
      - {from: a, to: a, guard: \"k < 5\", update: \"k += 1\"}
      - {from: a, to: b, guard: \"k == 3\", update: \"g[1][k - 3] = at(0, k)\"}
system: [P]
properties:
  - {name: r, check: \"E<> P.b\"}
",
    );
    let (code, out, _) = kairos(&["check", &model]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains("array index 3 out of bounds (size 3) in function `at` (line 8) in the step P: a -> b (line 16)"),
        "{out}"
    );
    assert!(out.contains("k = 3"), "the trace reaches the error: {out}");
}

#[test]
fn array_shapes_are_checked_at_load_time() {
    let model = scratch(
        "bad.yaml",
        "model: bad
variables:
  g: {range: [0, 3], size: [2, 3], init: [[1, 2], [3, 0, 1]]}
  h: {range: [0, 3], size: [2, 3]}
  e: {range: [0, 3], size: [2, 0]}
channels:
  c: {kind: binary, size: [2, 2]}
templates:
  P:
    initial: a
    locations: {a: {}}
    edges:
      - {from: a, to: a, guard: \"h[0][3] == 0\"}
      - {from: a, to: a, guard: \"h[1] == 0\"}
      - {from: a, to: a, update: \"h[0] = 1\"}
      - {from: a, to: a, sync: \"c[1]!\"}
      - {from: a, to: a, update: \"h[0][1][2] = 1\"}
      - {from: a, to: a, sync: \"c!\"}
system: [P]
",
    );
    common::assert_located_errors(
        &model,
        "bad.yaml",
        &[
            (3, "dimension 2 of `g` has 3 elements, not 2"),
            (5, "a size must be between 1 and 1048576 in all, not 0"),
            (13, "index 3 is outside `h` (size 3)"),
            (14, "`h` has 2 dimensions: give every index, `h[_][_]`"),
            (15, "`h` has 2 dimensions: give every index, `h[_][_]`"),
            (16, "`c` has 2 dimensions: give every index, `c[_][_]`"),
            (17, "`h` has 2 dimensions: give every index, `h[_][_]`"),
            (18, "`c` is a channel array of size 2 × 2: give an index"),
        ],
    );
}

#[test]
fn nested_quantifiers_over_data_agree_with_their_expansion() {
    // A quantifier inside another one over data (kept symbolic, not
    // expanded) must read each variable from its own binder: the oracle is
    // the same formula expanded by hand.
    let model = scratch(
        "quant.yaml",
        "model: quant
variables:
  a: {range: [0, 3], size: [2, 2]}
templates:
  P:
    initial: l
    locations: {l: {}}
    edges:
      - {from: l, to: l, select: \"i : 0..1, j : 0..1\", guard: \"a[i][j] + i < 3\", update: \"a[i][j] += 1 + i\"}
system: [P]
",
    );
    let pairs = [
        (
            "A[] exists (i : 0..1) forall (j : 0..1) a[i][j] <= 2",
            "A[] (a[0][0] <= 2 and a[0][1] <= 2) or (a[1][0] <= 2 and a[1][1] <= 2)",
        ),
        (
            "E<> forall (i : 0..1) exists (j : 0..1) a[i][j] == 2 * i + 1",
            "E<> (a[0][0] == 1 or a[0][1] == 1) and (a[1][0] == 3 or a[1][1] == 3)",
        ),
        (
            "E<> exists (i : 0..1) forall (j : 0..1) a[j][i] == 3 - i",
            "E<> (a[0][0] == 3 and a[1][0] == 3) or (a[0][1] == 2 and a[1][1] == 2)",
        ),
    ];
    let mut verdicts = Vec::new();
    for (nested, expanded) in pairs {
        let run = |q: &str| {
            let (code, out, err) = kairos(&["check", &model, "-q", q, "--format", "json"]);
            assert!(code == 0 || code == 1, "{q}: {err}");
            let json: Value = serde_json::from_str(&out).expect("JSON");
            let p = &json["properties"][0];
            (p["verdict"].clone(), p["stats"]["visited"].clone())
        };
        let got = run(nested);
        assert_eq!(got, run(expanded), "{nested}");
        verdicts.push(got.0);
    }
    assert!(verdicts.contains(&Value::from("satisfied")) && verdicts.contains(&Value::from("violated")));
}
