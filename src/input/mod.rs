//! From paths to a checked model: the input pipeline every command shares,
//! for the command line, tests and other programs alike. It reads files and
//! prints nothing; every failure is a [`Rejected`] the caller reports.
//!
//! A model file is read ([`read`]) in the format `--input` or its extension
//! names ([`Format`]); TChecker and UPPAAL files are translated into kairos
//! YAML ([`Translation`]) and loaded like any YAML file, diagnostics on the
//! translation moved to the lines of the file the user wrote. Spec files,
//! UPPAAL query files and command-line queries add what to check
//! ([`Item`]s).

mod format;
mod network;
mod queries;
mod read;
mod spec;
mod translation;

use std::path::{Path, PathBuf};

pub use format::Format;
pub use queries::Item;
pub use read::{file_error, read};
pub use translation::Translation;

use crate::diag::Diagnostic;
use crate::model::load::{self, Loaded};
use crate::syntax::yaml::Source;

/// Why an input cannot be checked: its diagnostics, and the sources their
/// snippets are cut from.
#[derive(Debug)]
pub struct Rejected {
    pub diags: Vec<Diagnostic>,
    pub sources: Vec<Source>,
    /// Only what is not supported yet stood in the way (exit 5, not 2).
    pub unsupported: bool,
}

impl Rejected {
    /// Only "not supported yet" diagnostics make the rejection `unsupported`.
    pub fn new(diags: Vec<Diagnostic>, sources: Vec<Source>) -> Rejected {
        let unsupported = crate::diag::only_unsupported(&diags);
        Rejected { diags, sources, unsupported }
    }
}

/// A loaded model and the sources read for it (kept for error snippets).
pub struct Input {
    /// The model as YAML: the file itself, or its translation.
    pub model_src: Source,
    pub loaded: Loaded,
    /// Each spec or query file, and what it asks.
    pub specs: Vec<(Source, Vec<Item>)>,
    /// Set when the model was imported (line map; TChecker's label renames;
    /// UPPAAL's names for queries).
    pub imported: Option<Translation>,
    /// The model file as given (an imported model's diagnostics point there).
    pub model_path: PathBuf,
}

/// Reads and checks the model and spec files (`format`: `None` to choose by
/// the model's extension).
pub fn load(model: &Path, specs: &[PathBuf], format: Option<Format>) -> Result<Input, Rejected> {
    load_with(model, specs, format, &[])
}

/// [`load`] with the model's constants named in `constants` set to the
/// values given there (see [`load::load_model_with`]); the specs are typed
/// against the model so set.
pub fn load_with(
    model: &Path,
    specs: &[PathBuf],
    format: Option<Format>,
    constants: &[(String, i64)],
) -> Result<Input, Rejected> {
    let (model_src, imported) = match Format::of(model, format) {
        Format::Yaml => (read(model).map_err(|d| Rejected::new(vec![d], vec![]))?, None),
        f => {
            let (src, t) = translation::translate(model, f)?;
            (src, Some(t))
        }
    };
    let loaded = match load::load_model_with(&model_src, constants) {
        Ok(l) => l,
        Err(d) => return Err(model_rejected(d, model_src, imported.as_ref(), model)),
    };
    let specs = match spec::read_all(model, specs, &loaded, imported.as_ref()) {
        Ok(s) => s,
        Err(mut r) => {
            r.sources.insert(0, model_src);
            return Err(r);
        }
    };
    Ok(Input { model_src, loaded, specs, imported, model_path: model.to_path_buf() })
}

/// Diagnostics on the model: on an imported model, at the lines of the file
/// the user wrote, not of its YAML translation.
fn model_rejected(d: Vec<Diagnostic>, src: Source, imported: Option<&Translation>, path: &Path) -> Rejected {
    match imported {
        Some(t) => Rejected::new(t.source_positions(&d, path), vec![]),
        None => Rejected::new(d, vec![src]),
    }
}

impl Input {
    /// Diagnostics on the model, located for the user (see [`load`]).
    pub fn rejected(&self, d: Vec<Diagnostic>) -> Rejected {
        model_rejected(d, self.model_src_copy(), self.imported.as_ref(), &self.model_path)
    }

    /// The model's YAML, for the snippets of a [`Rejected`].
    fn model_src_copy(&self) -> Source {
        Source::new(self.model_src.name.clone(), self.model_src.text.clone())
    }
}
