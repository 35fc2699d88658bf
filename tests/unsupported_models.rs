//! Every model in `tests/unsupported/` is valid (UPPAAL accepts its twin) but
//! uses something kairos does not support yet: `kairos validate` answers exit
//! 5 with exactly one located "not supported yet" line, no follow-on errors.

use crate::common;

#[test]
fn unsupported_models_are_refused_with_one_located_line() {
    let files = common::yaml_files("tests/unsupported");
    assert!(!files.is_empty());
    for path in files {
        let path = path.display().to_string();
        let (code, out, errors) = common::kairos(&["validate", &path]);
        assert_eq!(code, 5, "{path} should be unsupported:\n{out}{errors}");
        let heads: Vec<&str> = errors.lines().filter(|l| l.contains("] Error: ")).collect();
        assert_eq!(heads.len(), 1, "{path}: one diagnostic expected:\n{errors}");
        assert!(heads[0].starts_with("[unsupported] Error: not supported yet: "), "{errors}");
        assert!(errors.contains(&format!("{path}:")), "{path}: located:\n{errors}");
    }
}
