//! Turning results into text and JSON. Engines never format; this does.

pub mod diagnostics;
pub mod graph;
pub mod html;
pub mod svg;
pub mod verdict;
