//! The resolved model: what the network compiler instantiates.

use std::sync::Arc;

use indexmap::IndexMap;

use crate::diag::Pos;
use crate::model::decl::{Expect, OutOfRange};
use crate::model::formula::Formula;
use crate::model::typed::{Conj, Dnf, Function, TExpr, TSync, TUpdate};

#[derive(Clone, Debug)]
pub struct Model {
    pub name: String,
    pub doc: Option<String>,
    pub file: Arc<str>,
    pub constants: IndexMap<String, i64>,
    pub clocks: Vec<String>,
    pub vars: Vec<Var>,
    pub channels: Vec<Channel>,
    pub params: Vec<TimingParam>,
    pub continuous: Vec<Continuous>,
    /// Global functions, in definition order (a function calls only earlier ones).
    pub functions: Vec<Function>,
    pub templates: Vec<Template>,
    pub instances: Vec<Instance>,
    pub properties: Vec<Property>,
    pub out_of_range: OutOfRange,
    /// `priorities:` (FORMAT.md section 1, "Priorities").
    pub priorities: Option<Priorities>,
    /// Continuous variables or non-unit rates: needs the polyhedra engines.
    pub hybrid: bool,
}

/// Priority levels, higher wins: a step's priority is its channel's level
/// (`internal` without a channel), then the highest level of its instances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Priorities {
    /// Per channel of [`Model::channels`], per element (one for a scalar).
    pub channels: Vec<Vec<i32>>,
    /// The `default` level: internal steps and channels not listed.
    pub internal: i32,
    /// Per instance.
    pub processes: Vec<i32>,
}

/// An integer or boolean variable (an array when `size` is set). Bounds and
/// initial values may use template parameters, so they stay expressions.
#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub pos: Pos,
    pub is_bool: bool,
    pub lo: TExpr,
    pub hi: TExpr,
    /// The number of elements (the product of `dims`).
    pub size: Option<usize>,
    /// Each dimension's size, outermost first (empty for a scalar); elements
    /// are stored row-major.
    pub dims: Vec<usize>,
    pub init: VarInit,
    /// `symbolic: true|false`, where it is written.
    pub symbolic: Option<(bool, Pos)>,
}

/// The name of element `k` (row-major) of an array of shape `dims`:
/// `a[1][2]` for `k = 6` in an `a[3][4]`.
pub fn element_name(name: &str, dims: &[usize], mut k: usize) -> String {
    let mut indices = vec![0; dims.len()];
    for (i, d) in indices.iter_mut().zip(dims).rev() {
        *i = k % d;
        k /= d;
    }
    let mut s = name.to_string();
    for i in indices {
        s.push_str(&format!("[{i}]"));
    }
    s
}

#[derive(Clone, Debug)]
pub enum VarInit {
    /// The lower bound for every element.
    Default,
    /// Every value of the range (a set of initial states).
    Any,
    /// One value per element (a single value is repeated), with the position
    /// to blame if it falls outside the range.
    Values(Vec<(TExpr, Pos)>),
}

#[derive(Clone, Debug)]
pub struct Channel {
    pub name: String,
    pub broadcast: bool,
    pub urgent: bool,
    /// A synchronisation vector: edges name it alone (`enter`), and a step
    /// on it takes one edge of each party (see [`Party`]).
    pub vector: bool,
    /// A vector's parties, in the order their updates run.
    pub parties: Vec<Party>,
    /// The number of channels (the product of `dims`).
    pub size: Option<usize>,
    /// As for [`Var::dims`].
    pub dims: Vec<usize>,
}

/// A party of a synchronisation vector: an instance that must take one of
/// its edges on the vector (strong), or takes one when one is enabled and
/// stays out otherwise (weak, written `NAME?`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Party {
    pub instance: usize,
    pub weak: bool,
}

/// A rational number `num/den` with `den > 0` and no common factor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ratio {
    pub num: i64,
    pub den: i64,
}

#[derive(Clone, Debug)]
pub struct TimingParam {
    pub name: String,
    pub min: Option<Ratio>,
    pub max: Option<Ratio>,
}

#[derive(Clone, Debug)]
pub struct Continuous {
    pub name: String,
    /// `[lo, hi]`; a single value has `lo == hi`.
    pub init: (Ratio, Ratio),
}

#[derive(Clone, Debug)]
pub struct Template {
    pub name: String,
    pub params: Vec<String>,
    pub clocks: Vec<String>,
    pub vars: Vec<Var>,
    pub functions: Vec<Function>,
    pub locations: Vec<Location>,
    pub initial: usize,
    pub edges: Vec<Edge>,
}

#[derive(Clone, Debug)]
pub struct Location {
    pub name: String,
    /// A conjunction (invariants are convex).
    pub invariant: Conj,
    pub urgent: bool,
    pub committed: bool,
    pub labels: Vec<String>,
    /// The rates this location sets, one per variable.
    pub rates: Vec<(crate::model::typed::Cvar, Rate)>,
}

/// A location's rate for one variable.
#[derive(Clone, Debug)]
pub enum Rate {
    /// A constant rate (`lo == hi`) or an interval of rates.
    Interval(Ratio, Ratio),
    /// An integer expression over the data, evaluated in the discrete
    /// state (constant during a delay): UPPAAL's `x' == e`.
    Data(TExpr),
}

#[derive(Clone, Debug)]
pub struct Select {
    pub name: String,
    pub lo: TExpr,
    pub hi: TExpr,
}

#[derive(Clone, Debug)]
pub struct Edge {
    pub pos: Pos,
    pub from: usize,
    pub to: usize,
    pub selects: Vec<Select>,
    pub guard: Dnf,
    pub sync: Option<TSync>,
    pub updates: Vec<TUpdate>,
}

#[derive(Clone, Debug)]
pub struct Instance {
    /// How users and traces name it: `Train(1)`, `Gate`, or the alias.
    pub name: String,
    pub template: usize,
    pub args: Vec<i64>,
    pub pos: Pos,
}

#[derive(Clone, Debug)]
pub struct Property {
    pub name: String,
    /// The formula as written.
    pub text: String,
    /// The formula as parsed (spans into `text`): evidence names the
    /// subformula that fails by its own words.
    pub ast: crate::syntax::ast::Expr,
    pub formula: Formula,
    pub expect: Option<Expect>,
    pub synth: bool,
    pub file: Arc<str>,
    pub pos: Pos,
}
