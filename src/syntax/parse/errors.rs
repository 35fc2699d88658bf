//! Syntax errors in plain words: the bracket pre-scan, and pest's failures
//! turned into "expected an expression after `+`", "unexpected `)`", ...

use pest::error::{Error, ErrorVariant, InputLocation};

use super::{MAX_NESTING, Mode, Rule};
use crate::syntax::ast::{ParseError, Span};

pub(super) fn nesting_error(span: Span) -> ParseError {
    ParseError {
        span,
        message: format!(
            "nesting deeper than {MAX_NESTING} levels (brackets and operators inside each other); \
             simplify the expression"
        ),
    }
}

/// Rejects text whose brackets nest deeper than [`MAX_NESTING`] before pest,
/// which recurses once per bracket, sees it. `? ... :` counts as a bracket
/// (its middle operand is parsed recursively).
pub(super) fn prescan(text: &str) -> Result<(), ParseError> {
    let mut open: Vec<u8> = Vec::new();
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '?' => {
                open.push(c as u8);
                if open.len() > MAX_NESTING {
                    return Err(nesting_error(Span::new(i, i + 1)));
                }
            }
            ')' | ']' => {
                while open.last() == Some(&b'?') {
                    open.pop();
                }
                open.pop();
            }
            ':' if open.last() == Some(&b'?') => {
                open.pop();
            }
            _ => {}
        }
    }
    Ok(())
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Operators of several characters, longest first.
const LONG_TOKENS: &[&str] = &[
    "-->", "E<>", "A<>", "<<=", ">>=", "<<", ">>", "<?", ">?", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=",
    "/=", "%=", "&=", "|=", "^=", "++", "--", "..",
];

/// The token starting at `pos`, `None` at the end of the text.
pub(super) fn token_at(text: &str, pos: usize) -> Option<&str> {
    let rest = text.get(pos..)?;
    let first = rest.chars().next()?;
    if let Some(t) = LONG_TOKENS.iter().find(|t| rest.starts_with(**t)) {
        return Some(&rest[..t.len()]);
    }
    if let Some(tail) = rest.strip_prefix(['A', 'E']) {
        let inner = tail.trim_start();
        if let Some(inner) = inner.strip_prefix('[') {
            let close = inner.trim_start();
            if close.starts_with(']') {
                return Some(&rest[..rest.len() - close.len() + 1]);
            }
        }
    }
    let len = if is_ident(first) { rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len()) } else { first.len_utf8() };
    Some(&rest[..len])
}

/// The token that ends right before `pos` (whitespace skipped), if any.
fn token_before(text: &str, pos: usize) -> Option<&str> {
    let before = text.get(..pos)?.trim_end();
    let last = before.chars().next_back()?;
    if let Some(t) = LONG_TOKENS.iter().find(|t| before.ends_with(**t)) {
        return Some(&before[before.len() - t.len()..]);
    }
    if last == ']' {
        let inner = before[..before.len() - 1].trim_end();
        if let Some(inner) = inner.strip_suffix('[') {
            let q = inner.trim_end();
            if q.ends_with(['A', 'E']) && !q[..q.len() - 1].ends_with(is_ident) {
                return Some(&before[q.len() - 1..]);
            }
        }
    }
    let start = if is_ident(last) {
        before.rfind(|c: char| !is_ident(c)).map_or(0, |i| i + 1)
    } else {
        before.len() - last.len_utf8()
    };
    Some(&before[start..])
}

/// What pest tried at the failure point, in words.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    Operand,
    Name,
    Operator,
    End,
    SyncDir,
    Words(&'static str),
}

fn want(rule: Rule, mode: Mode) -> Option<Want> {
    use Rule::*;
    Some(match rule {
        EOI => Want::End,
        expr | formula | expr_text | formula_text | paren | fparen | decimal | int | true_lit | false_lit | applied
        | dotted | quant | forall_kw | exists_kw | not | neg | bang | bnot | path_prefix | path_ef | path_af
        | path_eg | path_ag | deadlock | until | until_e | until_a | sys_arg | measure | kw_sup | kw_inf => {
            Want::Operand
        }
        name => Want::Name,
        // `[`, `(` or `.` right after a name: too specific to list.
        index | call_args | member_suffix | member_call => return None,
        cond_op | leadsto | imply | or | and | lor | land | bor | bxor | band | eq | ne | shl | shr | min_op
        | max_op | le | lt | ge | gt | add | sub | mul | div | rem => Want::Operator,
        send | recv => Want::SyncDir,
        lparen => Want::Words("`(`"),
        rparen => Want::Words("`)`"),
        rbracket => Want::Words("`]`"),
        colon => Want::Words("`:`"),
        dotdot => Want::Words("`..`"),
        comma => Want::Words("`,`"),
        semi => Want::Words("`;`"),
        kw_u => Want::Words("`U`"),
        bound_op => Want::Words("a comparison (`<=`, `<`, `==`, `>=` or `>`)"),
        set_assign | with_assign | incr | decr if mode == Mode::Updates => Want::Words("`=`, `+=`, `-=`, `++` or `--`"),
        lvalue | update | updates_text | assign | call => Want::Words("an assignment"),
        stmt | block | if_stmt | while_stmt | do_stmt | for_stmt | return_stmt | local_decl | update_stmt => {
            Want::Words("a statement")
        }
        rbrace => Want::Words("`}`"),
        lbrace => Want::Words("`{`"),
        ret_ty | value_ty | ty_int | ty_bool | ty_void | function_text | function => {
            Want::Words("a type (`int`, `int[lo, hi]`, `bool` or `void`)")
        }
        param | params => Want::Words("a parameter"),
        select | selects_text => Want::Words("a select (`i : lo..hi`)"),
        sync_text => Want::Words("a channel name"),
        system_text => Want::Words("a template name"),
        sys_args => Want::Words("`(`"),
        _ => return None,
    })
}

/// Temporal words, which only properties may use.
fn is_temporal(tok: &str) -> bool {
    matches!(tok, "A" | "E" | "U" | "EF" | "EG" | "AF" | "AG" | "E<>" | "A<>" | "-->" | "deadlock")
        || ((tok.starts_with('A') || tok.starts_with('E')) && tok.ends_with(']') && tok.len() > 1)
}

fn join_or(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// A pest failure in words, located at the offending token.
pub(super) fn from_pest(text: &str, mode: Mode, err: &Error<Rule>) -> ParseError {
    let pos = match err.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    }
    .min(text.len());
    let found = token_at(text, pos);
    let span = Span::new(pos, pos + found.map_or(0, str::len));
    let positives: &[Rule] = match &err.variant {
        ErrorVariant::ParsingError { positives, .. } => positives,
        ErrorVariant::CustomError { message } => {
            return ParseError { span, message: format!("cannot parse this text ({message}): simplify it") };
        }
    };
    let wants: Vec<Want> = positives.iter().filter_map(|&r| want(r, mode)).collect();
    let has = |w: Want| wants.contains(&w);
    let prev = token_before(text, pos);
    let found_words = match found {
        Some(tok) => format!(", found `{tok}`"),
        None if text.trim().is_empty() => ", but the text is empty".to_string(),
        None => ", but the text ends".to_string(),
    };

    let mut message = if has(Want::SyncDir) {
        format!("expected `!` or `?` after the channel name{found_words}")
    } else {
        let mut words: Vec<String> = Vec::new();
        for w in &wants {
            if let Want::Words(s) = w
                && !words.iter().any(|x| x == s)
            {
                words.push(s.to_string());
            }
        }
        if has(Want::Operand) {
            words.push(operand_word(mode, prev).to_string());
        } else if has(Want::Name) {
            words.push(name_word(mode, prev).to_string());
        }
        let operator = has(Want::Operator);
        if words.is_empty() {
            match found {
                Some(tok) => format!("unexpected `{tok}`"),
                None => "unexpected end of the text".to_string(),
            }
        } else {
            if operator {
                words.push("an operator".to_string());
            } else if has(Want::End) {
                words.push("the end of the text".to_string());
            }
            let after = match prev {
                Some(p) if !operator => format!(" after `{p}`"),
                _ => String::new(),
            };
            format!("expected {}{after}{found_words}", join_or(&words))
        }
    };

    if let Some(tok) = found {
        let rest = &text[pos..];
        if mode != Mode::Formula && (is_temporal(tok) || rest.starts_with("-->")) {
            message.push_str(" (temporal operators and `deadlock` are only allowed in properties)");
        } else if tok == "=" && mode != Mode::Updates {
            message.push_str(" (use `==` to compare)");
        } else if tok == "==" && mode == Mode::Updates {
            message.push_str(" (use `=` to assign)");
        }
    }
    ParseError { span, message }
}

/// "an expression" or, where a formula may stand, "a formula".
fn operand_word(mode: Mode, prev: Option<&str>) -> &'static str {
    const ARITH: &[&str] = &[
        "+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "!", "?", ":", "..", ",", "=", "&", "|",
        "^", "~", "<<", ">>", "<?", ">?",
    ];
    match prev {
        Some(p) if mode == Mode::Formula && ARITH.contains(&p) => "an expression",
        _ if mode == Mode::Formula => "a formula",
        _ => "an expression",
    }
}

fn name_word(mode: Mode, prev: Option<&str>) -> &'static str {
    if prev == Some(".") {
        return "a name";
    }
    match mode {
        Mode::Updates => "an assignment",
        Mode::Selects => "a select variable",
        Mode::Sync => "a channel name",
        Mode::System => "a template name",
        Mode::Expr | Mode::Formula | Mode::Function => "a name",
    }
}
