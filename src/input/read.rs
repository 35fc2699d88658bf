//! Reading a file as text.

use std::path::Path;

use crate::diag::{Diagnostic, Loc, Pos};
use crate::syntax::yaml::Source;

/// The text of `path`, named as given.
pub fn read(path: &Path) -> Result<Source, Diagnostic> {
    let name = path.display().to_string();
    if path.is_dir() {
        return Err(file_error(&name, format!("`{name}` is a directory, not a file"))
            .with_hint("name a file in it, e.g. a `.yaml` model or spec"));
    }
    let bytes = std::fs::read(path).map_err(|e| file_error(&name, format!("cannot read `{name}`: {e}")))?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Source::new(name, text)),
        Err(e) => {
            let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
            Err(file_error(&name, format!("`{name}` is not UTF-8 text (line {line} has a byte that is not)"))
                .with_hint("save the file as UTF-8"))
        }
    }
}

/// A diagnostic on a whole file, at no position in it (line 0).
pub fn file_error(file: &str, msg: String) -> Diagnostic {
    Diagnostic::new(Loc { file: file.into(), pos: Pos { index: 0, line: 0, column: 0 }, len: 0 }, "io", msg)
}
