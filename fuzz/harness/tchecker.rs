//! The TChecker importer: `.tck` text → `import_tchecker` → the YAML it wrote
//! → `load_model`. The importer may reject its input with diagnostics; YAML it
//! did produce must load or give model diagnostics, and YAML that does not
//! even parse as YAML is a bug of the importer.

use kairos::import::import_tchecker;
use kairos::model::load::load_model;
use kairos::syntax::yaml::Source;

/// One input: must return, whatever the bytes.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(imported) = import_tchecker("fuzz.tck", text) else { return };
    let src = Source::new("fuzz.tck (as YAML)", imported.yaml.clone());
    if let Err(diags) = load_model(&src)
        && let Some(d) = diags.iter().find(|d| d.code.starts_with("yaml-"))
    {
        panic!("the importer wrote YAML that does not parse: {}: {}\n{}", d.code, d.message, imported.yaml);
    }
}
