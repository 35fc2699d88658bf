//! Placeholder; the parser lands next.
