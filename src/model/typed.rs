//! The resolved, typed form of a template's texts. Names are ids; template
//! parameters stay symbolic (one typed template serves every instance);
//! constants are folded.

use crate::syntax::ast::BinOp;
pub use crate::syntax::ast::{AssignOp, SyncDir as Dir};

/// Where an integer or boolean lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarRef {
    Global(usize),
    /// A variable of the template (one copy per instance).
    Local(usize),
    /// A local variable of a given instance (`Train(1).n` in a formula).
    Of(usize, usize),
}

/// A clock or continuous variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cvar {
    GlobalClock(usize),
    LocalClock(usize),
    /// A local clock of a given instance (`Train(1).x` in a formula).
    ClockOf(usize, usize),
    Continuous(usize),
}

/// An integer or boolean expression (booleans are 0 and 1).
#[derive(Clone, Debug, PartialEq)]
pub enum TExpr {
    Const(i64),
    /// The template's parameter, by position.
    Param(usize),
    /// A `select` variable of the edge, by position.
    Select(usize),
    /// A `forall`/`exists` variable: 0 is the innermost binder.
    Bound(usize),
    Var(VarRef),
    /// Instance `.0` is in its location `.1` (formulas, observers).
    AtLoc(usize, usize),
    /// `a[i]`, with the array's length for the bounds check.
    Index(VarRef, usize, Box<TExpr>),
    /// One index of a multi-dimensional array, checked against its
    /// dimension's size (the flattened index alone could be in bounds while
    /// one of its parts is not: `a[0][5]` of an `a[3][4]`).
    InBounds(Box<TExpr>, usize),
    Neg(Box<TExpr>),
    Not(Box<TExpr>),
    Binary(BinOp, Box<TExpr>, Box<TExpr>),
    Cond(Box<TExpr>, Box<TExpr>, Box<TExpr>),
    /// A parameter passed by value or a local variable of the function
    /// being typed: its slot in the function's frame.
    Local(usize),
    /// A parameter passed by reference, read: its slot in the frame.
    Ref(usize),
    /// `a[i]` of an array of a function's frame (`TArray::Local`, `TArray::Ref`),
    /// with its length.
    Elem(TArray, usize, Box<TExpr>),
    /// A call of a user function.
    Call(FnRef, Vec<TArg>),
    /// `place op= value` inside an expression (`n++`, `a[i] += 2`): the
    /// place's address is computed once, before the value; the result is
    /// the place's new value, or its old one when `post` (`n++`, `n--`).
    Assign {
        place: Box<TPlace>,
        op: AssignOp,
        value: Box<TExpr>,
        post: bool,
    },
    /// `forall`/`exists` over the inclusive range `lo..hi`.
    Quant {
        forall: bool,
        lo: Box<TExpr>,
        hi: Box<TExpr>,
        body: Box<TExpr>,
    },
}

impl TExpr {
    pub fn as_const(&self) -> Option<i64> {
        match self {
            TExpr::Const(v) => Some(*v),
            _ => None,
        }
    }
}

/// A user function: global, or of the template it is used in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FnRef {
    Global(usize),
    Template(usize),
    /// A function of the template of instance `.0` (`Train(1).late()` in
    /// a property), run with that instance's variables and parameters.
    Of(usize, usize),
}

/// Where a whole array lives: a variable, the frame slot of the first
/// element of an array local to a function (a by-value array parameter
/// included), or an array parameter passed by reference (its slot).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TArray {
    Var(VarRef),
    Local(usize),
    Ref(usize),
}

/// Where a value is written: a variable, an array element, or a slot of the
/// function's frame (a local, or a parameter passed by reference).
#[derive(Clone, Debug, PartialEq)]
pub enum TPlace {
    Var(VarRef),
    /// `a[i]`, with the array's length.
    Elem(VarRef, usize, Box<TExpr>),
    Local(usize),
    Ref(usize),
    /// `a[i]` of an array of the frame, as `TExpr::Elem`.
    FrameElem(TArray, usize, Box<TExpr>),
}

/// An argument of a call.
#[derive(Clone, Debug, PartialEq)]
pub enum TArg {
    Value(TExpr),
    Ref(TPlace),
    /// A whole array (by reference, or copied for a by-value parameter).
    Array(TArray),
}

/// The type of a value in a function: a boolean, or an integer in `[lo, hi]`
/// (bounds may use template parameters).
#[derive(Clone, Debug, PartialEq)]
pub struct TValueTy {
    pub is_bool: bool,
    pub lo: TExpr,
    pub hi: TExpr,
}

/// A statement of a function body, with the file line it starts on (for
/// run-time errors).
#[derive(Clone, Debug, PartialEq)]
pub struct TStmt {
    pub line: u32,
    pub kind: TStmtKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TStmtKind {
    /// `place op= value`; the place's range is checked at run time.
    Assign {
        place: TPlace,
        op: AssignOp,
        value: TExpr,
    },
    /// A call for its effect.
    Eval(TExpr),
    If(TExpr, Vec<TStmt>, Vec<TStmt>),
    /// `for` loops are a `While` after their initialisation, the step at the
    /// end of the body.
    While(TExpr, Vec<TStmt>),
    /// `do body while (cond);`: the condition after each run of the body.
    DoWhile(Vec<TStmt>, TExpr),
    Return(Option<TExpr>),
    /// `to = from` for two arrays of `len` elements, element by element.
    CopyArray {
        to: TArray,
        from: TArray,
        len: usize,
    },
}

/// A parameter of a function: passed by reference or not, its (element)
/// type and, for an array, its shape and, passed by value, the frame slot
/// of its copy's first element.
#[derive(Clone, Debug, PartialEq)]
pub struct TParam {
    pub by_ref: bool,
    pub ty: TValueTy,
    pub dims: Vec<usize>,
    pub copy: usize,
}

/// A typed function. Its frame holds the parameters (slots `0..params.len()`),
/// then its local variables.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub line: u32,
    pub params: Vec<TParam>,
    /// `None` for `void`.
    pub ret: Option<TValueTy>,
    /// Every frame slot's type (parameters first).
    pub frame: Vec<TValueTy>,
    pub body: Vec<TStmt>,
    /// Assigns no variable outside its frame (nor through a reference) and
    /// calls only such functions: may be called in guards and invariants.
    pub pure: bool,
    /// The clocks the body (or a function it calls) resets, unconditionally
    /// and to constants, in the order of the body: a call is the step's
    /// data effect followed by these resets (data never reads a clock, so
    /// only the resets' order among the step's clock writes matters).
    pub resets: Vec<(Cvar, TExpr)>,
}

/// Comparison of a constraint, after moving everything to `terms ~ rhs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    Lt,
    Le,
    Eq,
    Ge,
    Gt,
}

impl Cmp {
    /// `a ~ b` iff `-a ~' -b`.
    pub fn flip(self) -> Cmp {
        match self {
            Cmp::Lt => Cmp::Gt,
            Cmp::Le => Cmp::Ge,
            Cmp::Eq => Cmp::Eq,
            Cmp::Ge => Cmp::Le,
            Cmp::Gt => Cmp::Lt,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Eq => "==",
            Cmp::Ge => ">=",
            Cmp::Gt => ">",
        }
    }
}

/// `sum(coef * var) ~ rhs + sum(coef * param)`: a clock constraint (`x ~ e`,
/// `x - y ~ e`) or, in hybrid models, any linear constraint. `rhs` is an
/// integer expression over constants, template parameters and data.
#[derive(Clone, Debug, PartialEq)]
pub struct LinAtom {
    pub terms: Vec<(Cvar, i64)>,
    pub cmp: Cmp,
    pub rhs: TExpr,
    /// Timing parameters (`parameters:`) in the bound, with coefficients.
    pub params: Vec<(usize, i64)>,
}

impl LinAtom {
    /// The clock pair of a difference constraint `x ~ e` / `x - y ~ e`, with
    /// the comparison oriented so that `x` has coefficient 1.
    pub fn difference(&self) -> Option<(Cvar, Option<Cvar>)> {
        match self.terms.as_slice() {
            [(x, 1)] => Some((*x, None)),
            [(x, 1), (y, -1)] => Some((*x, Some(*y))),
            [(y, -1), (x, 1)] => Some((*x, Some(*y))),
            _ => None,
        }
    }
}

/// One disjunct of a guard: data conditions and linear (clock) constraints.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Conj {
    pub data: Vec<TExpr>,
    pub lin: Vec<LinAtom>,
}

/// A guard in disjunctive normal form; `[Conj::default()]` is `true`, `[]` is
/// `false`. An edge whose guard has several disjuncts is split.
pub type Dnf = Vec<Conj>;

#[derive(Clone, Debug, PartialEq)]
pub enum TUpdate {
    /// `v = e`, `a[i] += e`: the target's range is checked at run time.
    Data { var: VarRef, len: Option<usize>, index: Option<TExpr>, op: AssignOp, value: TExpr },
    /// `x = c` for a clock (c >= 0, checked at instantiation), or, in hybrid
    /// models, `v = linear term` for a clock or continuous variable.
    Continuous { var: Cvar, terms: Vec<(Cvar, i64)>, value: TExpr },
    /// A function call for its effect (`enqueue(id)`).
    Effect(TExpr),
}

#[derive(Clone, Debug, PartialEq)]
pub struct TSync {
    pub channel: usize,
    /// For channel arrays.
    pub index: Option<TExpr>,
    pub dir: Dir,
}
