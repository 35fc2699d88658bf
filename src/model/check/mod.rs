//! Resolution and typing of a model's declarations into a [`Model`].
//!
//! Every problem is reported (collected in the reader's diagnostics); the
//! result is only used when there were none.

mod array;
mod copy;
mod effect;
mod expr;
mod fn_array;
mod fn_clock;
mod function;
pub(crate) mod globals;
mod measure;
mod priority;
mod property;
mod system;
mod template;
mod vector;

pub use expr::{Ctx, Scope, Sym, Ty};

use indexmap::IndexMap;

use crate::diag::Pos;
use crate::model::decl::ModelDecl;
use crate::model::reader::{Name, Reader};
use crate::model::types::Model;
use crate::syntax::ast::ParseError;
use crate::syntax::yaml::Node;

/// The state of the check of one model.
pub struct Checker<'s> {
    pub r: Reader<'s>,
    /// Global names (constants, clocks, variables, channels, parameters,
    /// continuous variables), with where they were declared.
    pub globals: IndexMap<String, (Sym, Pos)>,
    pub model: Model,
    /// The functions of the template being checked (moved into it at its end).
    pub template_functions: Vec<crate::model::typed::Function>,
    /// Calls that assign variables are allowed here (updates, function bodies).
    pub effects: bool,
    /// While typing a function body: whether it has assigned a variable
    /// outside its frame or called a function that does.
    pub impure: bool,
    /// The function whose body is being typed (a call of it is recursion).
    pub defining: Option<String>,
}

impl<'s> Checker<'s> {
    /// Parses embedded text with `parse`, reporting a syntax error at its
    /// exact column.
    pub fn parse<T>(&mut self, node: &Node, what: &str, parse: fn(&str) -> Result<T, ParseError>) -> Option<T> {
        let text = self.r.scalar(node, what)?;
        match parse(&text) {
            Ok(t) => Some(t),
            Err(e) => {
                self.r.error(
                    node.pos_in_text(e.span.start),
                    "syntax-error",
                    format!("syntax error in {what}: {}", e.message),
                );
                None
            }
        }
    }

    /// Declares a global name, reporting a clash.
    fn declare(&mut self, name: &Name, sym: Sym) {
        if let Some((_, first)) = self.globals.get(&name.text) {
            let line = first.line;
            self.r
                .error(name.pos, "duplicate-name", format!("`{}` is already defined (line {line})", name.text))
                .hint = Some("every global name (constant, clock, variable, channel, parameter) must be unique".into());
            return;
        }
        self.globals.insert(name.text.clone(), (sym, name.pos));
    }
}

/// Resolves and types a model, each constant named in `constants` taking
/// the value given there instead of its declared one (see
/// [`crate::model::load::load_model_with`]). The model is complete only
/// when the reader collected no diagnostic.
pub fn check<'s>(r: Reader<'s>, decl: &ModelDecl, constants: &[(String, i64)]) -> (Checker<'s>, Reader<'s>) {
    let file = r.src.name.clone();
    let hybrid =
        !decl.continuous.is_empty() || decl.templates.iter().flat_map(|t| &t.locations).any(|l| !l.rates.is_empty());
    let model = Model {
        name: decl.name.as_ref().map_or_else(String::new, |n| n.text.clone()),
        doc: decl.doc.clone(),
        file,
        constants: IndexMap::new(),
        clocks: Vec::new(),
        vars: Vec::new(),
        channels: Vec::new(),
        params: Vec::new(),
        continuous: Vec::new(),
        functions: Vec::new(),
        templates: Vec::new(),
        instances: Vec::new(),
        properties: Vec::new(),
        out_of_range: decl.out_of_range,
        priorities: None,
        hybrid,
    };
    let mut c = Checker {
        r,
        globals: IndexMap::new(),
        model,
        template_functions: Vec::new(),
        effects: false,
        impure: false,
        defining: None,
    };
    c.globals(decl, constants);
    c.global_functions(&decl.functions);
    for t in &decl.templates {
        let typed = c.template(t);
        c.model.templates.push(typed);
    }
    c.labels_vs_globals(decl);
    c.system(decl);
    c.vectors(decl);
    if let Some(node) = &decl.priorities {
        c.priorities(node);
    }
    let file = c.r.src.name.clone();
    for p in &decl.properties {
        if let Some(prop) = c.property(p, file.clone()) {
            c.model.properties.push(prop);
        }
    }
    let src = c.r.src;
    let r = std::mem::replace(&mut c.r, Reader::new(src));
    (c, r)
}
