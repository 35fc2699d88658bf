//! Models written for other tools, translated into kairos YAML, and the way
//! back from a line of the translation to the line of the original.

use std::path::Path;

use super::{Format, Rejected, read};
use crate::diag::{Diagnostic, Loc, Pos};
use crate::import::{ImitatorModel, Imported, UppaalModel};
use crate::syntax::yaml::Source;

/// A model read in another format, translated into YAML.
pub enum Translation {
    Tchecker(Imported),
    Uppaal(UppaalModel),
    Imitator(ImitatorModel),
}

impl Translation {
    /// Per line of the YAML, the line of the original file it comes from
    /// (0: none of its own, see [`crate::import::source_line`]).
    pub fn line_map(&self) -> &[usize] {
        match self {
            Translation::Tchecker(t) => &t.line_map,
            Translation::Uppaal(u) => &u.line_map,
            Translation::Imitator(i) => &i.line_map,
        }
    }

    /// The line of the original file a line of the YAML comes from.
    fn source_line(&self, yaml_line: usize) -> usize {
        crate::import::source_line(self.line_map(), yaml_line)
    }

    /// Diagnostics on the YAML translation, pointed back at the lines of
    /// the original file `path`.
    pub fn source_positions(&self, diags: &[Diagnostic], path: &Path) -> Vec<Diagnostic> {
        diags.iter().map(|d| relocate(d, path, self.source_line(d.loc.pos.line))).collect()
    }
}

/// `d` moved to `line` of `path` (its column is meaningless there).
pub(super) fn relocate(d: &Diagnostic, path: &Path, line: usize) -> Diagnostic {
    let mut d = d.clone();
    d.loc = Loc { file: path.display().to_string().into(), pos: Pos { index: 0, line, column: 1 }, len: 0 };
    d
}

/// Reads and translates a TChecker, UPPAAL or IMITATOR file; the YAML source is named
/// after it. A file refused only for what is not supported yet is
/// [`Rejected::unsupported`].
pub(super) fn translate(path: &Path, format: Format) -> Result<(Source, Translation), Rejected> {
    let src = read(path).map_err(|d| Rejected::new(vec![d], vec![]))?;
    let translated = match format {
        Format::Uppaal => crate::import::import_uppaal(&src.name, &src.text).map(Translation::Uppaal),
        Format::Imitator => crate::import::import_imitator(&src.name, &src.text).map(Translation::Imitator),
        _ => crate::import::import_tchecker(&src.name, &src.text).map(Translation::Tchecker),
    };
    let translated = match translated {
        Ok(t) => t,
        Err(d) => {
            let unsupported = d.iter().all(|d| d.code == "unsupported");
            return Err(Rejected { diags: d, sources: vec![src], unsupported });
        }
    };
    let yaml = match &translated {
        Translation::Tchecker(t) => t.yaml.clone(),
        Translation::Uppaal(u) => u.yaml.clone(),
        Translation::Imitator(i) => i.yaml.clone(),
    };
    Ok((Source::new(format!("{} (as YAML)", src.name), yaml), translated))
}
