//! UPPAAL's XML models (`.xml`, `flat-1_2.dtd`) and query files (`.q`)
//! translated into kairos YAML text with the same meaning, or refused.
//!
//! - [`xml`]: the document, every character located in the file;
//! - [`lex`], [`parse`]: UPPAAL's C-like language;
//! - [`print`]: expressions typed and printed as kairos expressions;
//! - [`decl`]: declarations ([`clocks`]: clock arrays); [`template`]: templates (with [`rate`]:
//!   clock rates in invariants); [`system`]: the
//!   system block; [`query`]: queries; [`emit`]: the YAML text.
//!
//! The translation rules are written at the top of every YAML produced
//! ([`emit::HEADER`]). What kairos cannot express exactly (functions,
//! structures, `meta`, ...) is reported "not supported yet" at its
//! place in the XML; nothing is ignored silently, nothing panics.

mod clocks;
mod constcall;
mod decl;
mod emit;
mod eval;
mod function;
mod lex;
mod pad;
mod parse;
mod print;
mod query;
mod rate;
mod system;
mod template;
mod xml;

use crate::diag::Diagnostic;
use decl::Decls;
use print::{Procs, Scope};
use xml::{Diags, Src, Text};

/// A UPPAAL model translated into kairos YAML.
#[derive(Clone, Debug)]
pub struct UppaalModel {
    /// The model, as YAML text for [`crate::model::load::load_model`].
    pub yaml: String,
    /// For each line of `yaml` (index 0 is line 1), the XML line it comes
    /// from; 0 for lines of no particular source line.
    pub line_map: Vec<usize>,
    /// The model's own queries that kairos cannot check yet, or that are
    /// wrong: left out of the YAML's `properties` (a comment says so),
    /// reported here.
    pub skipped: Vec<Skipped>,
    /// What queries are translated against.
    globals: Scope,
    procs: Procs,
}

/// A query of a `.q` file, as a kairos property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UppaalQuery {
    pub name: String,
    /// The kairos formula, or why kairos cannot check the query (an
    /// `unsupported` diagnostic, or the query's first error, at its place).
    pub formula: Result<String, Diagnostic>,
    /// The query as written.
    pub text: String,
    /// Its line in the `.q` file.
    pub line: usize,
}

/// A query of the model's `<queries>` that kairos cannot check yet, or
/// that is wrong.
#[derive(Clone, Debug)]
pub struct Skipped {
    pub name: String,
    /// The query as written.
    pub text: String,
    /// How many of the YAML's `properties` come before it.
    pub index: usize,
    /// What is not supported, or the query's first error, at its place.
    pub why: Diagnostic,
}

impl UppaalModel {
    /// The XML line a line of `yaml` (1-based) comes from (the nearest one
    /// above for a line of no source line of its own; at least 1).
    pub fn source_line(&self, yaml_line: usize) -> usize {
        super::source_line(&self.line_map, yaml_line)
    }

    /// The queries of the `.q` file `text` (named `name` in diagnostics),
    /// each with its formula or why it cannot be checked: one query's
    /// errors never stop the others.
    pub fn query_file(&self, name: &str, text: &str) -> Vec<UppaalQuery> {
        let src = Src::new(name, text);
        let file = std::path::Path::new(name).file_name().map_or(name.into(), |f| f.to_string_lossy());
        let mut out = Vec::new();
        for q in query::q_file(text) {
            let formula = translate(&q.text, &src, &self.globals, &self.procs).map_err(first);
            let line = src.line(q.at);
            let name = q.title.unwrap_or_else(|| format!("{file}:{line}"));
            out.push(UppaalQuery { name, formula, text: q.text.string().trim().to_string(), line });
        }
        out
    }

    /// One query written in UPPAAL's syntax (`kairos check -q`): its
    /// formula, or why kairos cannot check it yet; `Err` holds the errors.
    pub fn query(&self, text: &str) -> Result<Result<String, Diagnostic>, Vec<Diagnostic>> {
        let src = Src::new("<query>", text);
        match translate(&Text::plain(text, 0), &src, &self.globals, &self.procs) {
            Ok(f) => Ok(Ok(f)),
            Err(d) if crate::diag::only_unsupported(&d) => Ok(Err(first(d))),
            Err(d) => Err(d),
        }
    }
}

/// One query: its formula, or what stops it (errors, or else what is not
/// supported yet), sorted by position.
fn translate(text: &Text, src: &Src, globals: &Scope, procs: &Procs) -> Result<String, Vec<Diagnostic>> {
    let mut d = Diags::new(src);
    match query::translate(text, globals, procs, &mut d) {
        Some(f) if d.list.is_empty() => Ok(f),
        _ => Err(d.into_sorted()),
    }
}

/// Why a query is not checked: its first error, or else the first thing
/// not supported yet. Pre: `d` is not empty.
fn first(d: Vec<Diagnostic>) -> Diagnostic {
    let error = d.iter().position(|x| x.code != "unsupported").unwrap_or(0);
    d.into_iter().nth(error).expect("a query not translated has a diagnostic")
}

/// Translates the UPPAAL model `text` (named `name` in diagnostics) into
/// kairos YAML; `Err` holds every problem found, sorted by position.
pub fn import_uppaal(name: &str, text: &str) -> Result<UppaalModel, Vec<Diagnostic>> {
    let src = Src::new(name, text);
    let mut d = Diags::new(&src);
    let Some(nta) = xml::read(&src, &mut d) else { return Err(d.into_sorted()) };
    let parse_decls = |t: &Text, what: &str, system: bool, d: &mut Diags| {
        template::parse_text(t, what, d, |p| Ok(p.declarations(system))).unwrap_or_default()
    };
    let global_decls = nta.declaration.as_ref().map(|t| parse_decls(t, "the global declarations", false, &mut d));
    let system_decls: Vec<_> =
        nta.system.iter().flat_map(|t| parse_decls(t, "the system declarations", true, &mut d)).collect();
    let mut globals = Decls::default();
    let mut taken = super::Taken::default();
    decl::declare(&global_decls.unwrap_or_default(), &mut globals, &[], &mut taken, true, &mut d);
    decl::declare(&system_decls, &mut globals, &[], &mut taken, true, &mut d);
    let tpls: Vec<_> = nta.templates.iter().map(|t| template::parse_template(t, &globals.scope, &mut d)).collect();
    let sys = system::build(&tpls, &system_decls, &globals.scope, &mut d);
    if sys.entries.is_empty() && d.list.is_empty() {
        d.error(0, 0, "empty-system", "the system has no process");
    }
    // A model refused or invalid checks nothing: its queries are not read,
    // for what they name may be what failed (a process left out, a refused
    // declaration) and one refused construct must stay one message.
    if !d.list.is_empty() {
        return Err(d.into_sorted());
    }

    let mut properties = Vec::new();
    let mut skipped = Vec::new();
    for (k, q) in nta.queries.iter().enumerate() {
        match translate(&q.formula, &src, &globals.scope, &sys.procs) {
            Ok(formula) => properties.push(emit::Property { query: q, formula: Ok(formula), index: k + 1 }),
            // A query kairos cannot check, or a wrong one, does not make
            // the model unusable nor stop the other queries.
            Err(diags) => {
                let index = properties.iter().filter(|p| p.formula.is_ok()).count();
                let name = emit::query_name(q, k + 1);
                let text = q.formula.string().trim().to_string();
                let why = first(diags);
                properties.push(emit::Property { query: q, formula: Err(why.code == "unsupported"), index: k + 1 });
                skipped.push(Skipped { name, text, index, why });
            }
        }
    }
    let (yaml, line_map) = emit::yaml(&src, &globals, &sys, &properties);
    Ok(UppaalModel { yaml, line_map, skipped, globals: globals.scope, procs: sys.procs })
}
