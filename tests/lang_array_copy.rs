//! Whole-array assignment in updates, `b = a` (FORMAT.md "Arrays"), as
//! UPPAAL copies an array into one of the same type. `tests/models/copy/`
//! holds the model, its twin with every copy written element by element
//! (the oracle: no whole-array code runs in it) and its UPPAAL twin; all
//! three must agree on every verdict, count and trace, and their zone
//! graphs must be byte-identical. Then the located errors: shapes or
//! element types that differ, a value that is not an array, an element out
//! of the target's range at run time, and the importer's refusal of a row.

use crate::common;

use common::kairos;

const DIR: &str = "tests/models/copy";

#[test]
fn a_whole_array_copy_is_its_element_by_element_twin() {
    // Every verdict as its `expect:` argues (the comments of copy.yaml).
    common::assert_twins(DIR, "copy.yaml", &["copy.elements.yaml", "copy.xml"], 5, 50);
}

#[test]
fn copies_between_arrays_that_differ_are_located_errors() {
    let model = common::scratch(
        "copy-bad.yaml",
        "model: bad
variables:
  a: {range: [0, 3], size: 3}
  b: {range: [0, 3], size: 4}
  g: {range: [0, 3], size: [1, 3]}
  f: {type: bool, size: 3}
  n: {range: [0, 3]}
templates:
  P:
    initial: l
    locations: {l: {}}
    edges:
      - {from: l, to: l, update: \"a = b\"}
      - {from: l, to: l, update: \"a = g\"}
      - {from: l, to: l, update: \"a = f\"}
      - {from: l, to: l, update: \"a = n\"}
      - {from: l, to: l, update: \"a += a\"}
system: [P]
",
    );
    common::assert_located_errors(
        &model,
        "bad.yaml",
        &[
            (13, "an array of integers [3] is assigned an array of integers [4]"),
            (14, "an array of integers [3] is assigned an array of integers [1][3]"),
            (15, "an array of integers [3] is assigned an array of booleans [3]"),
            (16, "`a` is an array: assign it an array of its shape, or its elements"),
            (17, "`a` is an array: assign its elements"),
        ],
    );
}

#[test]
fn each_copied_element_is_checked_against_the_target_range() {
    // `c` holds 0..1 and `a[1] == 2`: the copy fails at its second element,
    // a run-time error like `c[1] = 2` would be, located at the edge.
    let model = common::scratch(
        "copy-range.yaml",
        "model: range
variables:
  a: {range: [0, 3], size: 2, init: [1, 2]}
  c: {range: [0, 1], size: 2}
templates:
  P:
    initial: l
    locations: {l: {}, m: {}}
    edges:
      - {from: l, to: m, update: \"c = a\"}
system: [P]
properties:
  - {name: m, check: \"E<> P.m\"}
",
    );
    let (code, out, err) = kairos(&["check", &model]);
    assert_eq!(code, 4, "a run-time error: {out}{err}");
    let all = format!("{out}{err}");
    assert!(all.contains("`c[1]` = 2 is outside its range [0, 1] in the step P: l -> m (line 10)"), "{all}");
}

#[test]
fn the_importer_refuses_a_row_assigned_as_a_whole() {
    let model = common::scratch(
        "copy-row.xml",
        r#"<?xml version="1.0" encoding="utf-8"?>
<nta><declaration>int m[2][2];
int r[2];
</declaration>
<template><name>P</name>
<location id="a"><name>a</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="a"/>
<label kind="assignment">m[0] = r</label>
</transition>
</template>
<system>system P;</system>
</nta>
"#,
    );
    let (code, _, err) = kairos(&["check", &model]);
    assert_eq!(code, 5, "{err}");
    assert!(err.contains("not supported yet: a row of an array assigned as a whole"), "{err}");
    assert_eq!(err.matches("error").count(), 1, "one located line: {err}");
}

#[test]
fn a_row_copied_in_a_function_is_its_element_by_element_twin() {
    // Every verdict as its `expect:` argues (the comments of rows.yaml).
    common::assert_twins("tests/models/rows", "rows.yaml", &["rows.elements.yaml", "rows.xml"], 5, 50);
}

#[test]
fn rows_that_differ_are_located_errors() {
    let model = common::scratch(
        "rows-bad.yaml",
        "model: bad
variables:
  m: {range: [0, 3], size: [2, 3]}
  g: {range: [0, 3], size: [2, 2]}
  f: {type: bool, size: [2, 3]}
  n: {range: [0, 3]}
functions:
  - |
    void bad() {
      m[0] = g[1];
      m[0] = f[1];
      m[0] = n;
      m[2] = m[1];
    }
templates:
  P:
    initial: l
    locations: {l: {}}
    edges:
      - {from: l, to: l, update: \"bad()\"}
system: [P]
",
    );
    common::assert_located_errors(
        &model,
        "bad.yaml",
        &[
            (10, "a row [3] is assigned a row or array [2]: both sides need the same shape and element type"),
            (11, "a row [3] is assigned a row or array [3]: both sides need the same shape and element type"),
            (12, "a row is assigned to or from a whole array or a row of its shape only"),
            (13, "index 2 is outside `m` (size 2)"),
        ],
    );
}

#[test]
fn a_row_index_out_of_bounds_at_run_time_is_located_in_the_function() {
    let model = common::scratch(
        "rows-index.yaml",
        "model: index
variables:
  m: {range: [0, 3], size: [2, 2]}
  r: {range: [0, 3], size: 2}
  k: {range: [0, 2]}
functions:
  - |
    void take() {
      r = m[k];
    }
templates:
  P:
    initial: l
    locations: {l: {}, e: {}}
    edges:
      - {from: l, to: l, guard: \"k < 2\", update: \"k++\"}
      - {from: l, to: e, update: \"take()\"}
system: [P]
properties:
  - {name: e, check: \"E<> P.e && k == 2\"}
",
    );
    let (code, out, err) = kairos(&["check", &model]);
    assert_eq!(code, 4, "a run-time error: {out}{err}");
    let all = format!("{out}{err}");
    assert!(all.contains("array index 2 out of bounds (size 2) in function `take` (line 9)"), "{all}");
}
