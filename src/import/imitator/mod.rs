//! IMITATOR's models (`.imi`) and properties (`.imiprop`) translated into
//! kairos YAML text with the same meaning, or refused.
//!
//! The subset read is that of parametric timed automata: `var` declarations
//! (`clock`, `parameter`, `int`, `discrete`/`rational` holding integers,
//! `bool`, `constant`), automata (`actions:`, `loc`/`urgent loc` with an
//! invariant, transitions `when G sync a do {u} goto l;`), the `init` block
//! (both its forms) and `#synth EF(φ)` / `#synth AGnot(φ)` / `#synth AG(φ)`.
//!
//! A parametric timed automaton's parameters are left open; kairos bounds
//! each in a box (`parameters:`), so the initial constraint must be a
//! conjunction of one-parameter bounds (`p >= 0 & p <= 10`). IMITATOR
//! synchronises every automaton that declares an action on it (n-ary);
//! kairos has binary channels, so an action declared by three automata or
//! more is refused. Everything outside the subset is an `unsupported`
//! diagnostic at its place (exit 5): [`lex`] and [`parse`] read the text,
//! [`translate`] writes the YAML, [`init`] reads the initial constraint,
//! [`expr`] prints expressions.

mod expr;
mod init;
mod lex;
mod parse;
mod translate;

use std::collections::HashMap;

use crate::diag::Diagnostic;
use expr::{Scope, Sym};
use lex::Src;

/// An IMITATOR model translated into kairos YAML.
#[derive(Clone, Debug)]
pub struct ImitatorModel {
    /// The model, as YAML text for [`crate::model::load::load_model`].
    pub yaml: String,
    /// For each line of `yaml` (index 0 is line 1), the `.imi` line it comes
    /// from; 0 for lines of no particular source line.
    pub line_map: Vec<usize>,
    names: HashMap<String, Sym>,
    automata: HashMap<String, (String, HashMap<String, String>)>,
}

impl ImitatorModel {
    /// The kairos formula of the `.imiprop` property `text` (named `name`
    /// in diagnostics): `EF φ` is `E<> φ`, `AGnot φ` is `A[] !(φ)`, `AG φ`
    /// is `A[] φ`, each meant for synthesis.
    pub fn property(&self, name: &str, text: &str) -> Result<String, Vec<Diagnostic>> {
        let src = Src::new(name, text);
        let p = parse::property(&src).map_err(|d| vec![d])?;
        let scope = Scope { src: &src, names: &self.names, automata: &self.automata };
        let phi = scope.print(&p.predicate)?;
        // `parse::property` reads no other quantifier.
        Ok(match p.kind.text.as_str() {
            "EF" => format!("E<> {phi}"),
            "AGnot" => format!("A[] !({phi})"),
            _ => format!("A[] {phi}"),
        })
    }
}

/// Translates the IMITATOR model `text` (named `name` in diagnostics) into
/// kairos YAML; `Err` holds the problems found, sorted by position.
pub fn import_imitator(name: &str, text: &str) -> Result<ImitatorModel, Vec<Diagnostic>> {
    let src = Src::new(name, text);
    let model = parse::model(&src).map_err(|d| vec![d])?;
    let t = translate::translate(&src, &model)?;
    Ok(ImitatorModel { yaml: t.yaml, line_map: t.line_map, names: t.names, automata: t.automata })
}
