//! Diagnostics: what is wrong with an input, where, and how to fix it.
//!
//! Loading never stops at the first problem: every layer pushes into a
//! [`Diagnostics`] list and the command line prints them all (STYLE.md item 6).

use std::fmt;
use std::sync::Arc;

/// A position in a source file. `line` and `column` are 1-based; `index` is the
/// offset in characters from the start of the file (what the renderer needs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub index: usize,
    pub line: usize,
    pub column: usize,
}

/// A located region of a named file; `len` is in characters (0 = a point).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Loc {
    pub file: Arc<str>,
    pub pos: Pos,
    pub len: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub loc: Loc,
    /// A stable kebab-case identifier, e.g. `unknown-key` (JSON `code`).
    pub code: &'static str,
    pub message: String,
    /// How to fix it, when we can tell.
    pub hint: Option<String>,
}

impl Diagnostic {
    pub fn new(loc: Loc, code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic { loc, code, message: message.into(), hint: None }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

/// Whether only what is not supported yet stood in the way (exit 5, not 2):
/// some diagnostics, every one `unsupported`.
pub fn only_unsupported(diags: &[Diagnostic]) -> bool {
    !diags.is_empty() && diags.iter().all(|d| d.code == "unsupported")
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: error[{}]: {}",
            self.loc.file, self.loc.pos.line, self.loc.pos.column, self.code, self.message
        )?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

/// The diagnostics collected while loading; kept in the order found, sorted by
/// position when reported.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.list.push(d);
    }

    /// The last one pushed. Pre: not empty.
    pub fn last_mut(&mut self) -> &mut Diagnostic {
        self.list.last_mut().expect("a diagnostic was just pushed")
    }

    pub fn extend(&mut self, other: Diagnostics) {
        self.list.extend(other.list);
    }

    /// Drops what was pushed since the length was `len` (a speculative pass).
    pub fn truncate(&mut self, len: usize) {
        self.list.truncate(len);
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Sorted by file and position, duplicates removed: the order users read.
    pub fn into_sorted(mut self) -> Vec<Diagnostic> {
        self.list.sort_by(|a, b| (&a.loc.file, a.loc.pos).cmp(&(&b.loc.file, b.loc.pos)));
        self.list.dedup();
        self.list
    }
}
