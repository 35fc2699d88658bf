//! Reading a file as text.

use std::path::Path;

use crate::diag::{Diagnostic, Loc, Pos};
use crate::syntax::yaml::Source;

/// The text of `path`, named as given.
pub fn read(path: &Path) -> Result<Source, Diagnostic> {
    let name = path.display().to_string();
    std::fs::read(path)
        .map_err(|e| file_error(&name, format!("cannot read `{name}`: {e}")))
        .and_then(|bytes| {
            String::from_utf8(bytes).map_err(|_| file_error(&name, format!("`{name}` is not UTF-8 text")))
        })
        .map(|text| Source::new(name, text))
}

/// A diagnostic on a whole file, at no position in it.
pub fn file_error(file: &str, msg: String) -> Diagnostic {
    Diagnostic::new(Loc { file: file.into(), pos: Pos { index: 0, line: 0, column: 0 }, len: 0 }, "io", msg)
}
