//! Importers: models written for other tools, translated into kairos YAML
//! text. The result goes through the same loader as a user's YAML file, so an
//! imported model means exactly what its YAML says; each importer writes the
//! translation rules it applied in a header comment of that YAML.
//!
//! - [`tchecker`]: TChecker's `.tck` text format.
//! - [`uppaal`]: UPPAAL's XML format (`.xml`) and its query files (`.q`).
//! - [`imitator`]: IMITATOR's `.imi` models and `.imiprop` properties.

pub mod imitator;
pub mod tchecker;
mod tchecker_expr;
pub mod uppaal;

use std::collections::HashSet;

pub use imitator::{ImitatorModel, import_imitator};
pub use tchecker::{Imported, import_tchecker};
pub use uppaal::{UppaalModel, import_uppaal};

/// The YAML text being written, one line at a time, with the line of the
/// source file each line came from (0 for none: see [`source_line`]).
#[derive(Default)]
pub(crate) struct YamlOut {
    text: String,
    line_map: Vec<usize>,
}

impl YamlOut {
    /// One line; control characters (from names in comments) are escaped,
    /// so that a line stays one line.
    pub(crate) fn line(&mut self, source_line: usize, text: impl AsRef<str>) {
        let line: String = text
            .as_ref()
            .chars()
            .flat_map(|c| if c.is_control() { c.escape_default().collect::<Vec<_>>() } else { vec![c] })
            .collect();
        self.text.push_str(line.trim_end());
        self.text.push('\n');
        self.line_map.push(source_line);
    }

    pub(crate) fn finish(self) -> (String, Vec<usize>) {
        (self.text, self.line_map)
    }
}

/// The source line a line of an importer's YAML (1-based) comes from,
/// through its line map. A YAML line of no source line of its own (a
/// header, a comment, a key like `templates:`) takes the nearest mapped line
/// above it, or the file's first line: a diagnostic always points into the
/// source file, never at a line 0 no editor can show.
pub(crate) fn source_line(line_map: &[usize], yaml_line: usize) -> usize {
    let upto = yaml_line.min(line_map.len());
    line_map[..upto].iter().rev().copied().find(|&l| l != 0).unwrap_or(1)
}

/// Names already used in one kairos namespace.
#[derive(Default, Clone)]
pub(crate) struct Taken(pub(crate) HashSet<String>);

impl Taken {
    pub(crate) fn has(&self, s: &str) -> bool {
        self.0.contains(s)
    }

    /// `base`, or `base_2`, `base_3`, ... : the first not taken, now taken.
    pub(crate) fn fresh(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut k = 2;
        while self.0.contains(&name) {
            name = format!("{base}_{k}");
            k += 1;
        }
        self.0.insert(name.clone());
        name
    }
}

/// A YAML double-quoted scalar.
pub(crate) fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            // Every control character (C0, DEL, C1) as a YAML escape: a raw
            // one is not printable YAML, and `YamlOut::line` would otherwise
            // escape it the Rust way (`\u{7f}`), which YAML does not read
            // (found by fuzzing the UPPAAL importer).
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A scalar written plain when YAML reads it back as the same string, quoted
/// otherwise (`null`, `True`, numbers, punctuation, ...).
pub(crate) fn scalar(s: &str) -> String {
    let plain = s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "null" | "true" | "false" | "y" | "n" | "yes" | "no" | "on" | "off"
        );
    if plain { s.to_string() } else { quoted(s) }
}

/// Whether `s` is a kairos keyword (FORMAT.md, section 1: not usable as a name).
pub(crate) fn is_keyword(s: &str) -> bool {
    crate::syntax::ast::KEYWORDS.contains(&s)
}

/// A kairos name for `s`: characters outside `[A-Za-z0-9_]` become `_`, a
/// leading digit gets a `_` before it, and a keyword gets a trailing `_`.
pub(crate) fn sanitize(s: &str) -> String {
    let mut out = sanitize_chars(s);
    if is_keyword(&out) {
        out.push('_');
    }
    out
}

/// The longest name written: YAML allows implicit keys of at most 1024
/// characters (found by fuzzing the UPPAAL importer: a 1 600-character
/// location name became a key YAML could not read). The original name
/// stays in a comment, and callers make truncated names unique.
const MAX_NAME: usize = 128;

/// `s` with characters outside `[A-Za-z0-9_]` replaced by `_`, and a `_`
/// before a leading digit (keywords left as they are), cut at
/// [`MAX_NAME`] characters.
pub(crate) fn sanitize_chars(s: &str) -> String {
    let mut out: String =
        s.chars().take(MAX_NAME).map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if !out.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    out
}
