//! Every invalid model in `tests/invalid/` is rejected with located errors;
//! the error text is snapshotted so messages change only on purpose.
//! (A file of its own: `glob!` snapshot tests interfere with others.)

mod common;

#[test]
fn invalid_models_are_rejected_with_located_errors() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots/invalid");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        insta::glob!("invalid/*.yaml", |path| {
            // Relative, so the snapshots read the same on every machine.
            let path = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path);
            let errors = match common::load(path) {
                Ok(_) => panic!("{} should be invalid", path.display()),
                Err(text) => text,
            };
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            assert!(errors.contains(&format!("{name}:")), "errors of {name} name their file and position:\n{errors}");
            insta::assert_snapshot!(errors);
        });
    });
}
