//! The formats a model can be written in.

use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// kairos's own (FORMAT.md).
    Yaml,
    /// TChecker's `.tck`.
    Tchecker,
    /// UPPAAL's XML (`flat-1_2.dtd`).
    Uppaal,
    /// IMITATOR's `.imi`.
    Imitator,
}

impl Format {
    /// `forced`, or the format the extension of `path` names (`.tck`,
    /// `.xml`, `.imi`; anything else is YAML).
    pub fn of(path: &Path, forced: Option<Format>) -> Format {
        forced.unwrap_or(match path.extension().and_then(|e| e.to_str()) {
            Some("tck") => Format::Tchecker,
            Some("xml") => Format::Uppaal,
            Some("imi") => Format::Imitator,
            _ => Format::Yaml,
        })
    }
}
