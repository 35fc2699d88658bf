//! Assignments inside expressions (FORMAT.md "Expressions"): `n++`, `--n`,
//! `+=` and `=` as parts of indices, values and conditions, in updates and
//! function bodies, evaluated left to right. `tests/models/effects/` holds
//! the model, its twin with every such assignment written out by hand in
//! that order (the oracle: no assignment inside an expression runs in it)
//! and its UPPAAL twin; all must agree on every verdict, count and trace,
//! and their zone graphs must be byte-identical. Then the located errors:
//! an assignment in a guard, an invariant or a property, and an index
//! taken by `n++` out of bounds at run time.

use crate::common;

use common::kairos;

const DIR: &str = "tests/models/effects";

#[test]
fn assignments_inside_expressions_are_their_hand_expanded_twin() {
    common::assert_twins(DIR, "effects.yaml", &["effects.expanded.yaml", "effects.xml"], 4, 100);
}

#[test]
fn guards_invariants_and_properties_refuse_assignments() {
    let model = common::scratch(
        "effects-guard.yaml",
        "model: guard
variables:
  n: {range: [0, 3]}
  a: {range: [0, 3], size: 2}
functions:
  - |
    bool f() { return n++ > 0; }
templates:
  P:
    initial: l
    locations: {l: {invariant: \"a[n--] < 3\"}}
    edges:
      - {from: l, to: l, guard: \"n++ < 2\"}
      - {from: l, to: l, guard: \"(n += 1) < 2\"}
      - {from: l, to: l, guard: \"f()\"}
system: [P]
properties:
  - {name: p, check: \"E<> ++n == 2\"}
",
    );
    common::assert_located_errors(
        &model,
        "guard.yaml",
        &[
            (11, "inside a guard, invariant or property"),
            (13, "inside a guard, invariant or property"),
            (14, "inside a guard, invariant or property"),
            (15, "`f` assigns variables"),
            (18, "inside a guard, invariant or property"),
        ],
    );
}

#[test]
fn an_index_taken_by_an_increment_is_checked_at_run_time() {
    // The third push writes q[2] of a two-element array: located at the
    // function's line, in the step that calls it.
    let model = common::scratch(
        "effects-bounds.yaml",
        "model: bounds
variables:
  q: {range: [0, 3], size: 2}
  len: {range: [0, 3]}
functions:
  - |
    void push(int[0, 3] v) {
      q[len++] = v;
    }
templates:
  P:
    initial: l
    locations: {l: {}}
    edges:
      - {from: l, to: l, guard: \"len < 3\", update: \"push(1)\"}
system: [P]
properties:
  - {name: full, check: \"E<> len == 3\"}
",
    );
    let (code, out, err) = kairos(&["check", &model]);
    assert_eq!(code, 4, "a run-time error: {out}{err}");
    let all = format!("{out}{err}");
    assert!(all.contains("array index 2 out of bounds (size 2) in function `push` (line 8)"), "{all}");
}
