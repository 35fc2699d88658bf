//! Loading: text in, a checked [`Model`] or every diagnostic out. The caller
//! reads the files (`crate::input` does).

use indexmap::IndexMap;

use crate::diag::{Diagnostic, Pos};
use crate::model::check::globals::Globals;
use crate::model::check::{self, Checker, Ctx, Sym, Ty};
use crate::model::reader::Reader;
use crate::model::typed::TExpr;
use crate::model::types::{Model, Property};
use crate::syntax::parse::parse_expr;
use crate::syntax::yaml::{self, Node, NodeKind, Scalar, Source};

/// A checked model and the global names its properties resolve against.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub model: Model,
    globals: IndexMap<String, (Sym, Pos)>,
}

/// The properties of a spec file, and the model path it names.
#[derive(Clone, Debug)]
pub struct Spec {
    pub model_path: String,
    pub model_pos: Pos,
    pub properties: Vec<Property>,
}

pub fn load_model(src: &Source) -> Result<Loaded, Vec<Diagnostic>> {
    load_model_with(src, &[])
}

/// [`load_model`] with each constant named in `constants` set to the value
/// given there instead of its declared one, before anything is typed: every
/// use (instance and data ranges, sizes, bounds, selects, properties) sees
/// the new value, and a value that makes the model invalid is reported
/// where it does, as for a value written in the file. A name that is no
/// constant of the model is an error (`unknown-constant`).
pub fn load_model_with(src: &Source, constants: &[(String, i64)]) -> Result<Loaded, Vec<Diagnostic>> {
    let root = yaml::parse(src).map_err(|d| vec![d])?;
    let mut r = Reader::new(src);
    let decl = r.model_decl(&root);
    let (model, globals, r) = {
        let (c, r) = check::check(r, &decl, constants);
        (c.model, c.globals, r)
    };
    if r.diags.is_empty() { Ok(Loaded { model, globals }) } else { Err(r.diags.into_sorted()) }
}

impl Loaded {
    fn checker<'s>(&self, src: &'s Source) -> Checker<'s> {
        Checker {
            r: Reader::new(src),
            globals: self.globals.clone(),
            model: self.model.clone(),
            template_functions: Vec::new(),
            effects: false,
            impure: false,
            defining: None,
        }
    }

    /// The properties of a spec file, typed against this model. Call
    /// [`spec_header`] first to check that the spec is for this model.
    pub fn spec(&self, src: &Source) -> Result<Spec, Vec<Diagnostic>> {
        let root = yaml::parse(src).map_err(|d| vec![d])?;
        let mut c = self.checker(src);
        let decl = c.r.spec_decl(&root);
        let properties: Vec<Property> =
            decl.properties.iter().filter_map(|p| c.property(p, src.name.clone())).collect();
        if !c.r.diags.is_empty() {
            return Err(c.r.diags.into_sorted());
        }
        let (model_path, model_pos) = decl.model.expect("a spec without `model:` was reported");
        Ok(Spec { model_path, model_pos, properties })
    }

    /// An integer or boolean expression over the global names, typed as in
    /// a guard (calls of pure functions only): the UPPAAL importer computes
    /// a constant defined by a call with it (`import/uppaal/constcall.rs`).
    pub fn expression(&self, text: &str) -> Result<TExpr, Vec<Diagnostic>> {
        let src = Source::new("<expression>", text.to_string());
        let node = text_node(text);
        let mut c = self.checker(&src);
        let typed = c.parse(&node, "an expression", parse_expr).and_then(|e| {
            let globals = self.globals.clone();
            match c.ty(&node, &e, &Globals(&globals), Ctx::Guard) {
                Ty::Int(t) | Ty::Bool(t) => Some(t),
                Ty::Bad => None,
                other => {
                    c.expected(node.pos, "an integer or a condition on data", &other);
                    None
                }
            }
        });
        match typed {
            Some(t) if c.r.diags.is_empty() => Ok(t),
            _ => Err(c.r.diags.into_sorted()),
        }
    }

    /// A formula given on the command line (`-q`), named `name`.
    pub fn query(&self, name: &str, text: &str) -> Result<Property, Vec<Diagnostic>> {
        let src = Source::new("<query>", text.to_string());
        let node = text_node(text);
        let decl = crate::model::decl::PropertyDecl {
            pos: node.pos,
            name: Some(crate::model::reader::Name { text: name.to_string(), pos: node.pos }),
            formula: node,
            synth: false,
            expect: None,
            expect_pos: None,
        };
        let mut c = self.checker(&src);
        match c.property(&decl, src.name.clone()) {
            Some(p) if c.r.diags.is_empty() => Ok(p),
            _ => Err(c.r.diags.into_sorted()),
        }
    }
}

/// `text` as the scalar node of a one-line file.
fn text_node(text: &str) -> Node {
    let start = Pos { index: 0, line: 1, column: 1 };
    Node {
        pos: start,
        kind: NodeKind::Scalar(Scalar { value: text.to_string(), plain: false, direct: Some(start), block: None }),
    }
}

/// The `model:` a spec file names, read before its properties are typed
/// (a spec for another model would only produce confusing errors).
pub fn spec_header(src: &Source) -> Result<(String, Pos), Vec<Diagnostic>> {
    let root = yaml::parse(src).map_err(|d| vec![d])?;
    let mut r = Reader::new(src);
    let decl = r.spec_decl(&root);
    match decl.model {
        Some(m) if r.diags.is_empty() => Ok(m),
        _ => Err(r.diags.into_sorted()),
    }
}
