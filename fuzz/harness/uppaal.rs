//! The UPPAAL importer: XML text → `import_uppaal` → the YAML it wrote →
//! `load_model`, and each of the model's queries through `query`. The
//! importer may reject its input with diagnostics; YAML it did produce must
//! load or give model diagnostics, and YAML that does not even parse as YAML
//! is a bug of the importer.

use kairos::import::import_uppaal;
use kairos::model::load::load_model;
use kairos::syntax::yaml::Source;

/// One input: must return, whatever the bytes.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(imported) = import_uppaal("fuzz.xml", text) else { return };
    let src = Source::new("fuzz.xml (as YAML)", imported.yaml.clone());
    if let Err(diags) = load_model(&src)
        && let Some(d) = diags.iter().find(|d| d.code.starts_with("yaml-"))
    {
        panic!("the importer wrote YAML that does not parse: {}: {}\n{}", d.code, d.message, imported.yaml);
    }
    // Queries in UPPAAL syntax (`kairos check -q`) go through the same
    // translation; any text must give a formula or diagnostics.
    let _ = imported.query("A[] not deadlock");
    let _ = imported.query(text.lines().next().unwrap_or_default());
}
