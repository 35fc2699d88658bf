//! The property formula parser (TCTL with the UPPAAL forms) on raw text: a
//! tree or a located error, never a panic or unbounded recursion.

use kairos::syntax::parse::parse_formula;

/// One input: must return, whatever the bytes.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = parse_formula(text);
}
