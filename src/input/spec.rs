//! Spec files (kairos YAML), UPPAAL query files (`.q`) and IMITATOR
//! property files (`.imiprop`): what to check,
//! read against a loaded model.

use std::path::{Path, PathBuf};

use super::translation::relocate;
use super::{Item, Rejected, Translation, file_error, read};
use crate::diag::{Diagnostic, Pos};
use crate::import::{ImitatorModel, UppaalModel};
use crate::model::load::{self, Loaded};
use crate::syntax::yaml::Source;

/// Each file of `paths` and what it asks; or the diagnostics of every file
/// that failed, with the sources read (for their snippets).
pub(super) fn read_all(
    model: &Path,
    paths: &[PathBuf],
    loaded: &Loaded,
    imported: Option<&Translation>,
) -> Result<Vec<(Source, Vec<Item>)>, Rejected> {
    let mut out = Vec::new();
    let mut diags = Vec::new();
    let mut failed = Vec::new();
    for path in paths {
        let src = match read(path) {
            Ok(s) => s,
            Err(d) => {
                diags.push(d);
                continue;
            }
        };
        if path.extension().is_some_and(|e| e == "q") {
            let Some(Translation::Uppaal(u)) = imported else {
                diags.push(file_error(
                    &src.name,
                    format!("`{}`: a UPPAAL query file (.q) goes with a UPPAAL model (.xml)", src.name),
                ));
                continue;
            };
            let items = q_file(u, loaded, &src);
            out.push((src, items));
            continue;
        }
        if path.extension().is_some_and(|e| e == "imiprop") {
            let Some(Translation::Imitator(m)) = imported else {
                diags.push(file_error(
                    &src.name,
                    format!("`{}`: an IMITATOR property file (.imiprop) goes with an IMITATOR model (.imi)", src.name),
                ));
                continue;
            };
            match imiprop(m, loaded, &src) {
                Ok(item) => out.push((src, vec![item])),
                Err(d) => {
                    diags.extend(d);
                    failed.push(src);
                }
            }
            continue;
        }
        let header = load::spec_header(&src).and_then(|(path_text, pos)| {
            match spec_mismatch(model, path, &path_text, pos, &src) {
                Some(d) => Err(vec![d]),
                None => loaded.spec(&src),
            }
        });
        match header {
            Ok(spec) => out.push((src, spec.properties.into_iter().map(Item::Check).collect())),
            Err(d) => {
                diags.extend(d);
                failed.push(src);
            }
        }
    }
    if !diags.is_empty() {
        let mut sources: Vec<Source> = out.into_iter().map(|(s, _)| s).collect();
        sources.extend(failed);
        return Err(Rejected::new(diags, sources));
    }
    Ok(out)
}

/// The queries of a UPPAAL `.q` file, as properties, or refused with why
/// (not supported yet, or wrong: one query never stops the others).
fn q_file(u: &UppaalModel, loaded: &Loaded, src: &Source) -> Vec<Item> {
    let mut items = Vec::new();
    for q in u.query_file(&src.name, &src.text) {
        let item = match q.formula {
            Ok(f) => match loaded.query(&q.name, &f) {
                Ok(p) => Item::Check(p),
                // Errors on the translated formula: the first, at the query's line.
                Err(d) => {
                    let why = d.first().map_or_else(
                        || {
                            let at = Pos { index: 0, line: q.line, column: 1 };
                            let loc = crate::diag::Loc { file: src.name.clone(), pos: at, len: 0 };
                            Diagnostic::new(loc, "invalid-query", "the query's translation was not accepted")
                        },
                        |e| relocate(e, Path::new(&*src.name), q.line),
                    );
                    Item::refused(q.name, q.text, why)
                }
            },
            Err(why) => Item::refused(q.name, q.text, why),
        };
        items.push(item);
    }
    items
}

/// The property of an IMITATOR `.imiprop` file, as a `synth:` entry named
/// after the file.
fn imiprop(m: &ImitatorModel, loaded: &Loaded, src: &Source) -> Result<Item, Vec<Diagnostic>> {
    let formula = m.property(&src.name, &src.text)?;
    let name = Path::new(&*src.name).file_stem().map_or("property".into(), |s| s.to_string_lossy().to_string());
    let mut p = loaded
        .query(&name, &formula)
        .map_err(|d| d.iter().map(|d| relocate(d, Path::new(&*src.name), 1)).collect::<Vec<_>>())?;
    p.synth = true;
    Ok(Item::Check(p))
}

/// A spec's `model:` must name the model given on the command line.
fn spec_mismatch(model: &Path, spec_path: &Path, named_text: &str, pos: Pos, src: &Source) -> Option<Diagnostic> {
    let named = spec_path.parent().unwrap_or(Path::new(".")).join(named_text);
    let same = match (named.canonicalize(), model.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    (!same).then(|| {
        Diagnostic::new(
            src.loc(pos, named_text.chars().count()),
            "spec-model-mismatch",
            format!("this spec is for `{}`, but the model given is `{}`", named.display(), model.display()),
        )
        .with_hint("pass the model the spec names, or fix `model:` (it is relative to the spec file)")
    })
}
