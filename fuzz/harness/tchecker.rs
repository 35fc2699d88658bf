//! The TChecker importer: `.tck` text → `import_tchecker` → the YAML it wrote
//! → `load_model`. The importer may reject its input with diagnostics; YAML it
//! did produce must load or give model diagnostics, and YAML that does not
//! even parse as YAML is a bug of the importer.

use super::importer_yaml;
use kairos::import::import_tchecker;

/// One input: must return, whatever the bytes.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(imported) = import_tchecker("fuzz.tck", text) else { return };
    importer_yaml::must_parse("fuzz.tck", &imported.yaml);
}
