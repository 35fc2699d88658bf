//! Tokens of UPPAAL's C-like language (declarations, labels, queries).

use super::xml::{Diags, Text};

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tk {
    Int(i64),
    /// A floating-point literal: refused where it is used, so that one
    /// refused declaration (`const double a = 0.5;`) leaves the others.
    Float,
    Id(String),
    Op(&'static str),
    End,
}

/// A token and the bytes `at..end` of the file it was read from.
#[derive(Clone, Debug)]
pub(crate) struct Tok {
    pub tk: Tk,
    pub at: usize,
    pub end: usize,
}

/// Operators and punctuation, longest first.
const OPS: &[&str] = &[
    "-->", "<<=", ">>=", ":=", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=",
    "|=", "^=", "<<", ">>", "<?", ">?", "->", "(", ")", "[", "]", "{", "}", ";", ",", ".", "?", ":", "!", "+", "-",
    "*", "/", "%", "<", ">", "=", "&", "|", "^", "~", "'",
];

pub(crate) fn describe(tk: &Tk) -> String {
    match tk {
        Tk::Int(v) => format!("`{v}`"),
        Tk::Float => "a floating-point number".into(),
        Tk::Id(s) => format!("`{s}`"),
        Tk::Op(s) => format!("`{s}`"),
        Tk::End => "the end of the text".into(),
    }
}

/// The tokens of `text`, ending with `Tk::End`; `None` after a reported
/// lexical error. Comments (`//`, `/* */`) are skipped.
pub(crate) fn lex(text: &Text, d: &mut Diags) -> Option<Vec<Tok>> {
    let cs = &text.chars;
    let n = cs.len();
    let at = |i: usize| text.at[i.min(n)];
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        let c = cs[i];
        let start = i;
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && cs.get(i + 1) == Some(&'/') {
            while i < n && cs[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && cs.get(i + 1) == Some(&'*') {
            i += 2;
            while i < n && !(cs[i] == '*' && cs.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            if i >= n {
                d.error(at(start), at(start + 2), "syntax-error", "this comment `/*` is never closed");
                return None;
            }
            i += 2;
        } else if c.is_ascii_digit() {
            while i < n && cs[i].is_ascii_alphanumeric() {
                i += 1;
            }
            if i < n && cs[i] == '.' && cs.get(i + 1).is_some_and(|c| c.is_ascii_digit()) {
                i += 1;
                while i < n && cs[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                // An exponent with a sign: `1.5e-3`.
                if matches!(cs[i - 1], 'e' | 'E') && i + 1 < n && matches!(cs[i], '+' | '-') {
                    i += 1;
                    while i < n && cs[i].is_ascii_alphanumeric() {
                        i += 1;
                    }
                }
                out.push(Tok { tk: Tk::Float, at: at(start), end: at(i) });
                continue;
            }
            let s: String = cs[start..i].iter().collect();
            match s.parse::<i64>() {
                Ok(v) if v <= i32::MAX as i64 => out.push(Tok { tk: Tk::Int(v), at: at(start), end: at(i) }),
                Ok(_) | Err(_) => {
                    d.error(at(start), at(i), "bad-value", format!("`{s}` is not a 32-bit integer (UPPAAL's `int`)"));
                    return None;
                }
            }
        } else if c.is_ascii_alphabetic() || c == '_' {
            while i < n && (cs[i].is_ascii_alphanumeric() || cs[i] == '_') {
                i += 1;
            }
            out.push(Tok { tk: Tk::Id(cs[start..i].iter().collect()), at: at(start), end: at(i) });
        } else if let Some(op) = OPS.iter().find(|op| op.chars().enumerate().all(|(k, oc)| cs.get(i + k) == Some(&oc)))
        {
            i += op.len();
            out.push(Tok { tk: Tk::Op(op), at: at(start), end: at(i) });
        } else if c == '#' {
            // Only statistical queries use it: `Pr[# <= 10]`, `simulate [#<=5]`.
            d.unsupported(at(i), at(i + 1), "a `#` bound (statistical model checking)");
            return None;
        } else {
            let what = if c == '"' { "a string".to_string() } else { format!("the character `{c}`") };
            d.error(at(i), at(i + 1), "syntax-error", format!("unexpected {what}"));
            return None;
        }
    }
    out.push(Tok { tk: Tk::End, at: at(n), end: at(n) });
    Some(out)
}
