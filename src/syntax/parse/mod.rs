//! Parsers for the text embedded in model and property files: expressions,
//! formulas, updates, selects, synchronisations and `system` entries
//! (FORMAT.md, sections 1 and 3). Spans are byte offsets into the given text.
//!
//! The grammars live in `syntax/expr.pest` and `syntax/formula.pest`; one pest
//! parser loads both (so they share one `Rule` type) and each entry point
//! starts at its own rule. A grammar rule yields a flat sequence of operators
//! and operands; `build.rs` resolves precedence with pest's Pratt parser and
//! builds the AST of [`crate::syntax::ast`].
//!
//! Limits (located errors, never a stack overflow, checked on a 2 MiB stack in
//! a debug build):
//! - nesting: brackets (`(`, `[`, `? :`) and nested prefix or
//!   right-associative operators (`!`, `-`, `not`, `forall`, `E<>`, ...,
//!   `imply`, `? :`) count together and may reach [`MAX_NESTING`] (256):
//!   `!!!x` is 3 levels, `(!(x))` is 3, `a imply b imply c` is 2. The bound of
//!   a temporal operator, the range of a quantifier and the middle of `? :`
//!   sit at their operator's level. Brackets are counted before pest runs;
//!   operators before the Pratt pass, which recurses once per level.
//! - tree depth: a chain of left-associative operators (`a + b + ...`,
//!   `a[0][1]...`) nests only as a tree; trees deeper than [`MAX_TREE_DEPTH`]
//!   are rejected, so code walking the AST recursively has a bound.

mod build;
mod errors;
mod function;

use pest::Parser;
use pest::iterators::Pair;

use super::ast::MAX_NESTING;
use super::ast::{Action, Expr, Function, ParseError, Select, Span, Sync, SystemEntry};
use build::Builder;

/// Deepest syntax tree (counted in `Expr` nodes, a leaf is 1) that the parsers
/// return; deeper is a located error.
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
    Function,
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
            Mode::Function => Rule::function_text,
        }
    }
}

/// Runs the grammar on `text` and returns the children of the entry rule
/// (without the final `EOI`).
fn run(text: &str, mode: Mode) -> Result<Vec<Pair<'_, Rule>>, ParseError> {
    errors::prescan(text)?;
    let mut top = Grammar::parse(mode.entry(), text).map_err(|e| errors::from_pest(text, mode, &e))?;
    let entry = top.next().ok_or_else(|| build::internal(Span::new(0, text.len())))?;
    Ok(entry.into_inner().filter(|p| p.as_rule() != Rule::EOI).collect())
}

/// The single pair of an entry that has exactly one (`expr`, `formula`).
fn single<'t>(text: &str, pairs: Vec<Pair<'t, Rule>>) -> Result<Pair<'t, Rule>, ParseError> {
    pairs.into_iter().next().ok_or_else(|| build::internal(Span::new(0, text.len())))
}

/// An expression: a guard, an invariant, an initial value, a range bound, a
/// clock bound. Never produces the formula-only forms.
pub fn parse_expr(text: &str) -> Result<Expr, ParseError> {
    let seq = single(text, run(text, Mode::Expr)?)?;
    Builder::new(text).top_sequence(seq)
}

/// A property formula: an expression or a TCTL formula with the UPPAAL forms
/// (`E<>`, `A[]`, `-->`, `E[p U q]`, `deadlock`, time bounds), or a
/// `sup`/`inf` query.
pub fn parse_formula(text: &str) -> Result<Expr, ParseError> {
    let seq = single(text, run(text, Mode::Formula)?)?;
    match seq.as_rule() {
        Rule::measure => Builder::new(text).measure(seq),
        _ => Builder::new(text).top_sequence(seq),
    }
}

/// An `update` list: `x = 0; count += 1; a[i] -= 2; n++; enqueue(id)`. A
/// trailing `;` is fine; an empty (or blank) text is the empty list.
pub fn parse_updates(text: &str) -> Result<Vec<Action>, ParseError> {
    let pairs = run(text, Mode::Updates)?;
    let builder = Builder::new(text);
    pairs.into_iter().filter(|p| p.as_rule() == Rule::update).map(|p| builder.action(p)).collect()
}

/// Most braces and statement words (`if`, `else`, `while`, `for`) one
/// function may contain: statements nest through them, and the parsers
/// recurse once per level.
pub const MAX_STATEMENT_WORDS: usize = 4 * MAX_NESTING;

/// A function definition: `int[0, N] front() { return q[0]; }`.
pub fn parse_function(text: &str) -> Result<Function, ParseError> {
    let mut count = 0;
    for (i, _) in text.match_indices(|c: char| c == '{' || c.is_ascii_alphabetic()) {
        let rest = &text[i..];
        let word = rest.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').next().unwrap_or("");
        let at_word_start = i == 0 || !text[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        if rest.starts_with('{') || (at_word_start && matches!(word, "if" | "else" | "while" | "do" | "for")) {
            count += 1;
            if count > MAX_STATEMENT_WORDS {
                return Err(ParseError {
                    span: Span::new(i, i + word.len().max(1)),
                    message: format!(
                        "function too large: more than {MAX_STATEMENT_WORDS} braces and `if`/`else`/`while`/`for`; \
                         split it into several functions"
                    ),
                });
            }
        }
    }
    let seq = single(text, run(text, Mode::Function)?)?;
    Builder::new(text).function(seq)
}

/// A `select` list: `i : 0..N-1, j : 1..3`.
pub fn parse_selects(text: &str) -> Result<Vec<Select>, ParseError> {
    let pairs = run(text, Mode::Selects)?;
    let builder = Builder::new(text);
    pairs.into_iter().filter(|p| p.as_rule() == Rule::select).map(|p| builder.select(p)).collect()
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
