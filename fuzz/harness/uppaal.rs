//! The UPPAAL importer: XML text → `import_uppaal` → the YAML it wrote →
//! `load_model`, and each of the model's queries through `query`. The
//! importer may reject its input with diagnostics; YAML it did produce must
//! load or give model diagnostics, and YAML that does not even parse as YAML
//! is a bug of the importer.

use super::importer_yaml;
use kairos::import::import_uppaal;

/// One input: must return, whatever the bytes.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(imported) = import_uppaal("fuzz.xml", text) else { return };
    importer_yaml::must_parse("fuzz.xml", &imported.yaml);
    // Queries in UPPAAL syntax (`kairos check -q`) go through the same
    // translation; any text must give a formula or diagnostics.
    let _ = imported.query("A[] not deadlock");
    let _ = imported.query(text.lines().next().unwrap_or_default());
}
