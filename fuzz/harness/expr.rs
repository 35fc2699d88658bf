//! The parsers of the text inside a model's strings: expressions, updates,
//! selects, synchronisations and `system` entries, all on the same text (a
//! text that is meaningless for one is often an edge case for another). Each
//! must return a tree or a located error, never panic or recurse unboundedly.

use kairos::syntax::parse::{parse_expr, parse_selects, parse_sync, parse_system_entry, parse_updates};

/// One input: must return, whatever the bytes.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = parse_expr(text);
    let _ = parse_updates(text);
    let _ = parse_selects(text);
    let _ = parse_sync(text);
    let _ = parse_system_entry(text);
}
