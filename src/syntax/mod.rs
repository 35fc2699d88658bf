//! Text to syntax trees: the spanned YAML tree and the pest grammars for the
//! expressions, updates and formulas embedded in it. No semantics here.

pub mod ast;
pub mod parse;
pub mod yaml;
