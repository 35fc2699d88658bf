//! Random networks whose data code is user functions, for
//! `tests/functions_differential.rs`: one abstract syntax tree per network
//! ([`generate`]), written out as a kairos model ([`yaml`]) and as an UPPAAL one ([`uppaal`]) and explored by an
//! interpreter of the tree written for the test ([`explore`]), which shares
//! nothing with kairos but the semantics FORMAT.md gives in words
//! (sections "Run-time errors", "Expressions", "Arrays" and "Functions").
#![allow(dead_code)]

pub mod explore;
pub mod generate;
pub mod text;
pub mod uppaal;
pub mod yaml;

/// An integer range, inclusive. `int` is UPPAAL's `[-32768, 32767]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    pub lo: i64,
    pub hi: i64,
}

pub const INT: Range = Range { lo: -32768, hi: 32767 };

impl Range {
    pub fn holds(&self, v: i64) -> bool {
        self.lo <= v && v <= self.hi
    }
}

/// Where an integer lives.
#[derive(Clone, Debug)]
pub enum Place {
    /// Scalar global `g{k}`.
    Global(usize),
    /// Element of global array `a{k}`, the index computed when read or written
    /// (for a reference argument: once, at the call).
    Elem(usize, Box<IExpr>),
    /// The `k`-th slot of the current function: a parameter by value or a local.
    Slot(usize),
    /// The `k`-th parameter of the current function, passed by reference.
    Ref(usize),
    /// The instance's local variable `c` (edge code and template functions).
    Local,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum IOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Min,
    Max,
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

#[derive(Clone, Copy, Debug)]
pub enum COp {
    Lt,
    Le,
    Eq,
    Ne,
    Ge,
    Gt,
}

#[derive(Clone, Debug)]
pub enum IExpr {
    Lit(i64),
    Read(Place),
    /// The template parameter `id`.
    Id,
    Neg(Box<IExpr>),
    Bin(IOp, Box<IExpr>, Box<IExpr>),
    Cond(Box<BExpr>, Box<IExpr>, Box<IExpr>),
    Call(Callee, Vec<Arg>),
    /// `p++`/`p--` (`post`: the old value) or `++p`/`--p` (`up`: `++`),
    /// inside an assignment's value only: evaluated after the target's index.
    Step(Place, bool, bool),
}

#[derive(Clone, Debug)]
pub enum BExpr {
    Lit(bool),
    /// Global boolean `f{k}`.
    Flag(usize),
    Cmp(COp, Box<IExpr>, Box<IExpr>),
    Not(Box<BExpr>),
    And(Box<BExpr>, Box<BExpr>),
    Or(Box<BExpr>, Box<BExpr>),
    Call(Callee, Vec<Arg>),
}

/// A function: global `k`, or the template's `k`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Callee {
    Global(usize),
    Template(usize),
}

#[derive(Clone, Debug)]
pub enum Arg {
    Val(IExpr),
    /// A variable, an array element, or a reference of the caller.
    Ref(Place),
}

#[derive(Clone, Debug)]
pub enum Stmt {
    /// `int[lo, hi] t{slot} = e;` (no initialiser: 0).
    Decl(usize, Range, Option<IExpr>),
    Assign(Place, IExpr),
    /// `x op= e`.
    Compound(Place, IOp, IExpr),
    /// `x++` (`true`) or `x--`.
    Step(Place, bool),
    SetFlag(usize, BExpr),
    If(BExpr, Vec<Stmt>, Vec<Stmt>),
    /// `for (t{slot} = 0; t{slot} < n; t{slot}++) body` over a declared
    /// local the body does not assign, written as `form` says; `n >= 1`, so a
    /// `do` loop runs as many times as the others.
    Loop {
        slot: usize,
        n: i64,
        body: Vec<Stmt>,
        form: LoopForm,
    },
    Return(Option<Ret>),
    Call(Callee, Vec<Arg>),
}

/// How a generated counting loop is written.
#[derive(Clone, Copy, Debug)]
pub enum LoopForm {
    For,
    While,
    DoWhile,
}

#[derive(Clone, Debug)]
pub enum Ret {
    Int(IExpr),
    Bool(BExpr),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Type {
    Void,
    Int(Range),
    Bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Param {
    Val(Range),
    Ref,
}

#[derive(Clone, Debug)]
pub struct Func {
    pub name: String,
    pub params: Vec<Param>,
    pub ret: Type,
    pub body: Vec<Stmt>,
    /// Assigns nothing outside its parameters by value and locals, and calls
    /// only pure functions: guards may call it.
    pub pure: bool,
    /// Slots: the parameters, then the locals.
    pub slots: usize,
}

#[derive(Clone, Debug)]
pub enum Sync {
    Send,
    Receive,
}

#[derive(Clone, Debug)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub guard: Option<BExpr>,
    pub sync: Option<Sync>,
    pub update: Vec<Stmt>,
}

/// A network: `instances` copies `P(0)`, `P(1)`, ... of one template over
/// global scalars, arrays and flags, with one binary channel `s`.
#[derive(Clone, Debug)]
pub struct Net {
    pub globals: Vec<Range>,
    /// Per array: its elements' range and its size.
    pub arrays: Vec<(Range, usize)>,
    pub flags: usize,
    /// The range of the template's local `c`.
    pub local: Range,
    pub functions: Vec<Func>,
    pub template_functions: Vec<Func>,
    pub locations: usize,
    pub edges: Vec<Edge>,
    pub instances: usize,
}

impl Net {
    pub fn func(&self, c: Callee) -> &Func {
        match c {
            Callee::Global(k) => &self.functions[k],
            Callee::Template(k) => &self.template_functions[k],
        }
    }
}
