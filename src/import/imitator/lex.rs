//! IMITATOR's tokens: names, numbers, operators; `(* ... *)` comments nest.

use std::sync::Arc;

use crate::diag::{Diagnostic, Loc, Pos};

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Tok {
    Name(String),
    /// Digits, with a `.` for a decimal (`0.5`).
    Num(String),
    Sym(&'static str),
    Eof,
}

/// A token and where it starts (a character index).
#[derive(Clone, Debug)]
pub(super) struct Token {
    pub tok: Tok,
    pub at: usize,
    pub len: usize,
}

/// Longest first: `<=` before `<`, `&&` before `&`.
const SYMBOLS: &[&str] = &[
    ":=", "<=", ">=", "<>", "=>", "&&", "||", "..", "<", ">", "=", "&", "|", "+", "-", "*", "/", "(", ")", "{", "}",
    "[", "]", ":", ",", ";", "'", "#",
];

/// A source file: its characters and where its lines start.
pub(super) struct Src {
    pub chars: Vec<char>,
    line_starts: Vec<usize>,
    pub file: Arc<str>,
}

impl Src {
    pub fn new(name: &str, text: &str) -> Src {
        let chars: Vec<char> = text.chars().collect();
        let mut line_starts = vec![0];
        line_starts.extend(chars.iter().enumerate().filter(|(_, c)| **c == '\n').map(|(i, _)| i + 1));
        Src { chars, line_starts, file: Arc::from(name) }
    }

    pub fn pos(&self, index: usize) -> Pos {
        let index = index.min(self.chars.len());
        let line = self.line_starts.partition_point(|&s| s <= index).saturating_sub(1);
        Pos { index, line: line + 1, column: index - self.line_starts[line] + 1 }
    }

    pub fn diag(&self, at: usize, len: usize, code: &'static str, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Loc { file: self.file.clone(), pos: self.pos(at), len }, code, msg)
    }
}

/// The tokens of `src`, ending with [`Tok::Eof`]; or the first character no
/// token starts with (or an unclosed comment).
pub(super) fn tokens(src: &Src) -> Result<Vec<Token>, Diagnostic> {
    let c = &src.chars;
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '(' && c.get(i + 1) == Some(&'*') {
            let start = i;
            let mut depth = 0;
            loop {
                if i + 1 >= c.len() {
                    return Err(src.diag(start, 2, "syntax-error", "this comment is never closed with `*)`"));
                }
                if c[i] == '(' && c[i + 1] == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c[i + 1] == ')' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if ch.is_ascii_alphabetic() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_ascii_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(Token { tok: Tok::Name(c[start..i].iter().collect()), at: start, len: i - start });
        } else if ch.is_ascii_digit() || (ch == '.' && c.get(i + 1).is_some_and(char::is_ascii_digit)) {
            let start = i;
            while i < c.len() && c[i].is_ascii_digit() {
                i += 1;
            }
            if c.get(i) == Some(&'.') && c.get(i + 1).is_some_and(char::is_ascii_digit) {
                i += 1;
                while i < c.len() && c[i].is_ascii_digit() {
                    i += 1;
                }
            }
            out.push(Token { tok: Tok::Num(c[start..i].iter().collect()), at: start, len: i - start });
        } else {
            let sym = SYMBOLS.iter().find(|s| s.chars().enumerate().all(|(k, sc)| c.get(i + k) == Some(&sc)));
            let Some(sym) = sym else {
                return Err(src.diag(i, 1, "syntax-error", format!("unexpected character `{ch}`")));
            };
            out.push(Token { tok: Tok::Sym(sym), at: i, len: sym.len() });
            i += sym.len();
        }
    }
    out.push(Token { tok: Tok::Eof, at: c.len(), len: 0 });
    Ok(out)
}
