//! Abstract syntax of the text embedded in model files: expressions, formulas,
//! updates, selects, synchronisations and `system` entries.
//!
//! Every node carries a [`Span`] of byte offsets into the text it was parsed
//! from; the model loader maps those to file lines and columns. The AST keeps
//! names as strings: resolution and typing happen in `model/`.

/// Byte offsets `[start, end)` into the parsed text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    /// Written inside parentheses: `-->` needs to know whether a path operator
    /// in its operand was parenthesised into a nested formula.
    pub paren: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(i64),
    /// A literal like `3.5`: never valid, kept so the error can say why.
    Decimal(String),
    Bool(bool),
    Name(String),
    /// `Train(1).on`, `Gate.down`, `t1.x`: a location, label, local variable or
    /// clock of one instance.
    Member {
        instance: InstanceRef,
        member: Ident,
    },
    Index {
        base: Box<Expr>,
        index: Box<Expr>,
    },
    Unary {
        op: UnOp,
        arg: Box<Expr>,
    },
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Cond {
        cond: Box<Expr>,
        then: Box<Expr>,
        other: Box<Expr>,
    },
    /// `f(a, b)`: a call of a user function; `Train(1).late(2)` (`of`: the
    /// instance) a call of one of an instance's functions, in properties.
    Call {
        of: Option<InstanceRef>,
        name: Ident,
        args: Vec<Expr>,
    },
    /// An assignment inside an expression (C's): `n++`, `--n`, `n += 2`,
    /// `n = e`. Its value is the target's new value, or its old one for
    /// `n++`/`n--` (`post`). Only where effects are allowed (updates and
    /// function bodies).
    Assign {
        target: Box<Expr>,
        op: AssignOp,
        value: Box<Expr>,
        post: bool,
    },
    /// `forall (i : lo..hi) body`, `exists (i : lo..hi) body`.
    Quant {
        quant: Quantifier,
        var: Ident,
        lo: Box<Expr>,
        hi: Box<Expr>,
        body: Box<Expr>,
    },
    // Formula-only forms (the formula grammar produces them, the expression
    // grammar never does).
    Deadlock,
    /// `EF`, `AF`, `EG`, `AG` and their UPPAAL spellings `E<>`, `A<>`, `E[]`, `A[]`.
    Path {
        op: PathOp,
        bound: Option<TimeBound>,
        arg: Box<Expr>,
    },
    /// `E[φ U[b] ψ]` and `A[φ U[b] ψ]`.
    Until {
        quant: PathQuant,
        bound: Option<TimeBound>,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `φ --> ψ`, `φ -->[b] ψ`.
    LeadsTo {
        bound: Option<TimeBound>,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `sup{φ}: e1, e2` and `inf{φ}: e1, e2`, a whole property only
    /// (`{φ}` left out: `true`).
    Measure {
        kind: Extremum,
        cond: Option<Box<Expr>>,
        terms: Vec<Expr>,
    },
}

/// Which end of a term's range a `sup`/`inf` property asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extremum {
    Sup,
    Inf,
}

impl Extremum {
    pub fn word(self) -> &'static str {
        match self {
            Extremum::Sup => "sup",
            Extremum::Inf => "inf",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct InstanceRef {
    pub template: Ident,
    /// `None` for a bare name (`Gate`, an alias); `Some` for `Train(1)`.
    pub args: Option<Vec<Expr>>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    /// `!` and `not` (they differ only in precedence).
    Not,
    /// `~`: bitwise complement in two's complement (`~x == -1 - x`).
    BitNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `&`, `|`, `^`: bitwise, on 64-bit two's complement integers.
    BitAnd,
    BitOr,
    BitXor,
    /// `<<`, `>>`: by a count in `0..=63`; `>>` is arithmetic (rounds down).
    Shl,
    Shr,
    /// `a <? b` (the smaller), `a >? b` (the larger), as in UPPAAL.
    Min,
    Max,
    /// `&&` and `and`.
    And,
    /// `||` and `or`.
    Or,
    Imply,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    Forall,
    Exists,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathQuant {
    E,
    A,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathOp {
    /// `EF`, `E<>`
    EF,
    /// `AF`, `A<>`
    AF,
    /// `EG`, `E[]`
    EG,
    /// `AG`, `A[]`
    AG,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundOp {
    Lt,
    Le,
    Eq,
    Ge,
    Gt,
}

/// `[<= 5]` on a temporal operator.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeBound {
    pub op: BoundOp,
    pub value: Box<Expr>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    /// `=`
    Set,
    /// `+=`, `-=`, `*=`, `/=`, `%=`, `&=`, `|=`, `^=`, `<<=`, `>>=`: `v = v op e`.
    With(BinOp),
}

/// One assignment of an `update` list: `v = e`, `a[i] += e`, `x = 0`.
#[derive(Clone, Debug, PartialEq)]
pub struct Update {
    /// A `Name` or an `Index` expression.
    pub target: Expr,
    pub op: AssignOp,
    pub value: Expr,
    pub span: Span,
}

/// One action of an `update` list or a statement: an assignment (`n++` is
/// `n += 1`) or a function call for its effect.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    Assign(Update),
    /// An `ExprKind::Call`.
    Call(Expr),
}

/// The type of a function's parameter, result or local variable.
#[derive(Clone, Debug, PartialEq)]
pub enum ValueType {
    /// `int` (UPPAAL's range, [-32768, 32767]) or `int[lo, hi]`.
    Int(Option<Box<(Expr, Expr)>>),
    Bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub ty: ValueType,
    /// `int &x`: the caller's variable itself, not its value.
    pub by_ref: bool,
    pub name: Ident,
    /// `int &a[N]`: an array parameter's sizes.
    pub dims: Vec<Expr>,
}

/// A local variable's initial value: one value, or `{...}` for an array.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    Value(Expr),
    List(Vec<Init>, Span),
}

/// `buf[N] = {0, 1}` in `int[0, 3] buf[N] = {0, 1};`.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalVar {
    pub name: Ident,
    pub dims: Vec<Expr>,
    pub init: Option<Init>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `int[0, 3] i = 0, j;`
    Local {
        ty: ValueType,
        vars: Vec<LocalVar>,
    },
    /// `x = e, f(y);`
    Actions(Vec<Action>),
    If {
        cond: Expr,
        then: Box<Stmt>,
        other: Option<Box<Stmt>>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    /// `do body while (cond);`: the body once, then as `while`.
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    /// `init` is a `Local` or `Actions` statement, scoped to the loop.
    For {
        init: Box<Stmt>,
        cond: Option<Expr>,
        step: Vec<Action>,
        body: Box<Stmt>,
    },
    Return(Option<Expr>),
    Block(Vec<Stmt>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// `int[0, N] front() { return q[0]; }`; `ret` is `None` for `void`.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub ret: Option<ValueType>,
    pub name: Ident,
    pub params: Vec<Param>,
    pub body: Vec<Stmt>,
    pub span: Span,
}

/// `i : lo..hi` in a `select`.
#[derive(Clone, Debug, PartialEq)]
pub struct Select {
    pub var: Ident,
    pub lo: Expr,
    pub hi: Expr,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyncDir {
    Send,
    Receive,
    /// A party of a synchronisation vector: the channel's name alone.
    Party,
}

impl SyncDir {
    /// As written after the channel's name.
    pub fn mark(self) -> &'static str {
        match self {
            SyncDir::Send => "!",
            SyncDir::Receive => "?",
            SyncDir::Party => "",
        }
    }
}

/// `approach!`, `go[i]?`, `c[i][j]!`, or `enter` on a vector channel.
#[derive(Clone, Debug, PartialEq)]
pub struct Sync {
    pub channel: Ident,
    /// One index per dimension of a channel array.
    pub indices: Vec<Expr>,
    pub dir: SyncDir,
    pub span: Span,
}

/// An argument of a `system` entry: `1`, `N-1` or a range `1..N`.
#[derive(Clone, Debug, PartialEq)]
pub enum SystemArg {
    Single(Expr),
    Range(Expr, Expr),
}

/// `Train(1..N)`, `Gate`, `g = Gate`, `t1 = Train(1)`.
#[derive(Clone, Debug, PartialEq)]
pub struct SystemEntry {
    pub alias: Option<Ident>,
    pub template: Ident,
    pub args: Vec<SystemArg>,
    pub span: Span,
}

/// A syntax error in embedded text, located by byte offsets into that text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub span: Span,
    pub message: String,
}

/// Words that can never be names (FORMAT.md, "Names").
pub const KEYWORDS: &[&str] = &[
    "A", "E", "U", "EF", "EG", "AF", "AG", "and", "or", "not", "imply", "true", "false", "forall", "exists", "deadlock",
];

/// Deepest nesting of parentheses, brackets and prefix operators accepted in one
/// text (FORMAT.md: deeper is a located error, not a stack overflow).
pub const MAX_NESTING: usize = 256;
