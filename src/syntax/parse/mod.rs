//! Parsers for the text embedded in model and property files: expressions,
//! formulas, updates, selects, synchronisations and `system` entries
//! (FORMAT.md, sections 1 and 3).
//!
//! The grammars live in `syntax/expr.pest` and `syntax/formula.pest` (one pest
//! parser loads both, so they share one `Rule` type). A grammar rule yields a
//! flat sequence of operators and operands; [`build`] resolves precedence with
//! pest's Pratt parser and builds the AST of [`crate::syntax::ast`], with spans
//! of byte offsets into the parsed text.
//!
//! Deep input never overflows the stack: brackets are counted before pest runs,
//! and the operator nesting of every sequence is measured before the Pratt pass
//! (which recurses once per nested prefix or right-associative operator). The
//! limits are [`MAX_NESTING`] (brackets and nested operators together) and
//! [`MAX_TREE_DEPTH`] for the returned trees.

mod build;
mod errors;

use pest::Parser;
use pest::iterators::Pair;

pub use super::ast::MAX_NESTING;
use super::ast::{Expr, ParseError, Select, Span, Sync, SystemEntry, Update};
use build::Builder;

/// Deepest syntax tree any parser here returns (root = 1): a long chain of
/// left-associative operators (`a + b + ... `) is flat to the nesting limit but
/// deep as a tree; deeper trees are a located error, so that code walking the
/// AST recursively has a bound.
pub const MAX_TREE_DEPTH: usize = 1024;

mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "syntax/expr.pest"]
    #[grammar = "syntax/formula.pest"]
    pub struct Grammar;
}

use grammar::{Grammar, Rule};

/// What is being parsed: picks the entry rule and the words of error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Expr,
    Formula,
    Updates,
    Selects,
    Sync,
    System,
}

impl Mode {
    fn entry(self) -> Rule {
        match self {
            Mode::Expr => Rule::expr_text,
            Mode::Formula => Rule::formula_text,
            Mode::Updates => Rule::updates_text,
            Mode::Selects => Rule::selects_text,
            Mode::Sync => Rule::sync_text,
            Mode::System => Rule::system_text,
        }
    }
}

/// Runs the grammar on `text` and returns the children of the entry rule
/// (without the final `EOI`).
fn run(text: &str, mode: Mode) -> Result<Vec<Pair<'_, Rule>>, ParseError> {
    errors::prescan(text)?;
    let mut top =
        Grammar::parse(mode.entry(), text).map_err(|e| errors::from_pest(text, mode, &e))?;
    let entry = top
        .next()
        .ok_or_else(|| build::internal(Span::new(0, text.len())))?;
    Ok(entry
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .collect())
}

/// The single pair of an entry that has exactly one (`expr`, `formula`).
fn single<'t>(text: &str, pairs: Vec<Pair<'t, Rule>>) -> Result<Pair<'t, Rule>, ParseError> {
    pairs
        .into_iter()
        .next()
        .ok_or_else(|| build::internal(Span::new(0, text.len())))
}

/// An expression: a guard, an invariant, an initial value, a range bound, a
/// clock bound. Never produces the formula-only forms.
pub fn parse_expr(text: &str) -> Result<Expr, ParseError> {
    let seq = single(text, run(text, Mode::Expr)?)?;
    Builder::new(text).top_sequence(seq)
}

/// A property formula: an expression or a TCTL formula with the UPPAAL forms
/// (`E<>`, `A[]`, `-->`, `E[p U q]`, `deadlock`, time bounds).
pub fn parse_formula(text: &str) -> Result<Expr, ParseError> {
    let seq = single(text, run(text, Mode::Formula)?)?;
    Builder::new(text).top_sequence(seq)
}

/// An `update` list: `x = 0; count += 1; a[i] -= 2`. A trailing `;` is fine;
/// an empty (or blank) text is the empty list.
pub fn parse_updates(text: &str) -> Result<Vec<Update>, ParseError> {
    let pairs = run(text, Mode::Updates)?;
    let builder = Builder::new(text);
    pairs
        .into_iter()
        .filter(|p| p.as_rule() == Rule::update)
        .map(|p| builder.update(p))
        .collect()
}

/// A `select` list: `i : 0..N-1, j : 1..3`.
pub fn parse_selects(text: &str) -> Result<Vec<Select>, ParseError> {
    let pairs = run(text, Mode::Selects)?;
    let builder = Builder::new(text);
    pairs
        .into_iter()
        .filter(|p| p.as_rule() == Rule::select)
        .map(|p| builder.select(p))
        .collect()
}

/// A synchronisation: `approach!`, `go[i]?`, `go[id-1]!`.
pub fn parse_sync(text: &str) -> Result<Sync, ParseError> {
    let pairs = run(text, Mode::Sync)?;
    Builder::new(text).sync(pairs)
}

/// A `system` entry: `Train(1..N)`, `Gate`, `g = Gate`, `t1 = Train(1)`,
/// `P(1..2, 3)`.
pub fn parse_system_entry(text: &str) -> Result<SystemEntry, ParseError> {
    let pairs = run(text, Mode::System)?;
    Builder::new(text).system_entry(pairs)
}
