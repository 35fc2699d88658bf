//! Queries: UPPAAL's `A[] p`, `E<> p`, `A<> p`, `E[] p`, `p --> q` and
//! `sup{p}: e, ...`/`inf{p}: e, ...`, from
//! a `.q` file, the model's `<queries>` or the command line, printed as
//! kairos formulas over the kairos names.
//!
//! In a `.q` file a query runs over one line or more, up to a blank line, a
//! comment or the start of the next query, and a backslash ending a line
//! reads as a blank (UPPAAL's query files splice such lines); the comment
//! right above it (no blank line between) names it: its first non-empty
//! line is the property's name. Other query forms (`bounds`, `Pr`, `control`,
//! ...) are "not supported yet", at their line.

use super::parse::{PathOp, Query};
use super::print::{Printer, Procs, Scope};
use super::template::parse_text;
use super::xml::{Diags, Text};

/// The kairos formula for one query.
pub(crate) fn translate(q: &Text, globals: &Scope, procs: &Procs, d: &mut Diags) -> Option<String> {
    let query = parse_text(q, "a query", d, |p| p.query())?;
    let mut pr = Printer::new(vec![globals], d, "a query");
    pr.procs = Some(procs);
    match query {
        Query::Path(op, e) => {
            let op = match op {
                PathOp::Ef => "E<>",
                PathOp::Ag => "A[]",
                PathOp::Af => "A<>",
                PathOp::Eg => "E[]",
            };
            Some(format!("{op} {}", pr.boolean(&e).ok()?.text))
        }
        Query::LeadsTo(a, b) => {
            // `-->` binds looser than `imply`: its sides need no parentheses
            // but for quantifiers.
            let a = pr.boolean(&a).ok()?;
            let b = pr.boolean(&b).ok()?;
            Some(format!("{} --> {}", a.at(super::print::IMPLY), b.at(super::print::IMPLY)))
        }
        Query::Measure(kind, cond, terms) => {
            let cond = match cond {
                Some(c) => format!("{{{}}}", pr.boolean(&c).ok()?.text),
                None => String::new(),
            };
            let terms: Option<Vec<String>> = terms.iter().map(|t| pr.measured(t).ok().map(|p| p.text)).collect();
            Some(format!("{}{cond}: {}", kind.word(), terms?.join(", ")))
        }
    }
}

/// One query of a `.q` file.
pub(crate) struct QLine {
    /// The first line of the comment right above it, if any.
    pub title: Option<String>,
    pub text: Text,
    pub at: usize,
}

/// The queries of a `.q` file (`text` is the whole file). A query may span
/// several lines: it goes on until a blank line, a comment, or a line that
/// starts a query of its own ([`starts_query`]).
pub(crate) fn q_file(text: &str) -> Vec<QLine> {
    let mut out = Vec::new();
    let mut comment: Vec<String> = Vec::new();
    let mut in_block = false;
    // The query being read: its title and its bytes `start..end`.
    let mut open: Option<(Option<String>, usize, usize)> = None;
    let close = |open: &mut Option<(Option<String>, usize, usize)>, out: &mut Vec<QLine>| {
        if let Some((title, start, end)) = open.take() {
            let mut query = Text::plain(&text[start..end], start);
            splice_lines(&mut query);
            out.push(QLine { title, text: query, at: start });
        }
    };
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let mut line = raw.trim_end_matches(['\n', '\r']);
        let mut at = start;
        if in_block {
            match line.find("*/") {
                Some(k) => {
                    comment.push(line[..k].to_string());
                    in_block = false;
                    at += k + 2;
                    line = &line[k + 2..];
                }
                None => {
                    comment.push(line.to_string());
                    continue;
                }
            }
        }
        let trimmed = line.trim_start();
        at += line.len() - trimmed.len();
        let end = at + trimmed.len();
        if trimmed.is_empty() {
            close(&mut open, &mut out);
            if at == start {
                comment.clear(); // a blank line separates a comment from what follows
            }
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("//") {
            close(&mut open, &mut out);
            comment.push(rest.to_string());
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("/*") {
            close(&mut open, &mut out);
            match rest.find("*/") {
                Some(k) if rest[k + 2..].trim().is_empty() => comment.push(rest[..k].to_string()),
                Some(_) => open = Some((None, at, end)),
                None => {
                    comment.push(rest.to_string());
                    in_block = true;
                }
            }
            continue;
        }
        match &mut open {
            Some((_, _, e)) if !starts_query(trimmed) => *e = end,
            _ => {
                close(&mut open, &mut out);
                let title = comment.iter().map(|c| c.trim()).find(|c| !c.is_empty()).map(str::to_string);
                comment.clear();
                open = Some((title, at, end));
            }
        }
    }
    close(&mut open, &mut out);
    out
}

/// Reads a backslash that ends a line (nothing but blanks after it on its
/// line) as a blank: the line splice of UPPAAL's query files.
fn splice_lines(query: &mut Text) {
    for i in 0..query.chars.len() {
        if query.chars[i] == '\\' && query.chars[i + 1..].iter().take_while(|&&c| c != '\n').all(|c| c.is_whitespace())
        {
            query.chars[i] = ' ';
        }
    }
}

/// Whether a line starts a query of its own rather than continuing the one
/// above: it begins with a path quantifier or a query keyword, which no
/// formula goes on with.
fn starts_query(line: &str) -> bool {
    let word: String = line.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    ["A[]", "E<>", "A<>", "E[]"].iter().any(|p| line.starts_with(p))
        || super::parse::QUERY_KEYWORDS.contains(&word.as_str())
}
