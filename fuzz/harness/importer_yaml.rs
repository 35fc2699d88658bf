//! What both importer harnesses ask of the YAML an importer wrote (declared
//! next to them, as `importer_yaml`, by whatever includes them).

use kairos::model::load::load_model;
use kairos::syntax::yaml::Source;

/// `yaml`, written by an importer for the file `name`, must load or give
/// model diagnostics: YAML that does not even parse is a bug of the importer.
pub fn must_parse(name: &str, yaml: &str) {
    let src = Source::new(format!("{name} (as YAML)"), yaml.to_string());
    if let Err(diags) = load_model(&src)
        && let Some(d) = diags.iter().find(|d| d.code.starts_with("yaml-"))
    {
        panic!("the importer wrote YAML that does not parse: {}: {}\n{yaml}", d.code, d.message);
    }
}
