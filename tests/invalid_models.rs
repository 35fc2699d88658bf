//! Every invalid model in `tests/invalid/` is rejected by `kairos validate`
//! with exit code 2 and located errors; the error text, as a user sees it,
//! is snapshotted so messages change only on purpose. (A file of its own:
//! `glob!` snapshot tests interfere with others.)

use crate::common;

#[test]
fn invalid_models_are_rejected_with_located_errors() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots/invalid");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        insta::glob!("invalid/*.yaml", |path| {
            // Relative, so the snapshots read the same on every machine.
            let path = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path);
            let (code, out, errors) = common::kairos(&["validate", &path.display().to_string()]);
            assert_eq!(code, 2, "{} should be invalid:\n{out}{errors}", path.display());
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            assert!(errors.contains(&format!("{name}:")), "errors of {name} name their file and position:\n{errors}");
            assert!(!errors.contains("panicked"), "{errors}");
            insta::assert_snapshot!(errors);
        });
    });
}
