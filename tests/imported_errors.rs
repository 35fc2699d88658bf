//! Run-time errors of an imported model name the lines of the file the user
//! wrote, not those of its YAML translation.

use crate::common;

use common::kairos;

#[test]
fn run_time_errors_of_uppaal_models_name_the_xml_lines() {
    let (code, out, err) = kairos(&["check", "tests/models/uppaal/runtime-error.xml", "-q", "A[] n <= 2"]);
    assert_eq!(code, 4, "{out}{err}");
    // The function `bump` is declared at line 9 of the XML, the transition
    // that calls it opens at line 20 (the translation has them elsewhere).
    let first = out.lines().next().unwrap_or_default();
    assert!(
        first.ends_with("in function `bump` (line 9) in the step P: b -> a (line 20)"),
        "the error should name the XML's lines: {first}"
    );
}
