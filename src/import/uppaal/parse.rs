//! UPPAAL's C-like language parsed into a small AST: expressions (with
//! UPPAAL's precedences, libutap's `parser.y`), types, declarations,
//! assignments, selects, synchronisations, the system block and queries.
//!
//! Operators kairos has no counterpart for (`sum`, rates) are refused
//! here, at their position. Recursion is bounded:
//! every node records its height, and a tree higher than [`MAX_HEIGHT`] is a
//! located error (the printer walks trees recursively).

mod stmt;

pub(crate) use stmt::{FnDecl, St};

use super::lex::{Tk, Tok, describe};
use super::xml::Diags;

/// Highest expression tree accepted (FORMAT.md: nesting deeper than 256 is
/// an error; kairos re-parses what we print).
pub(crate) const MAX_HEIGHT: usize = 200;

/// Deepest nesting of parentheses and prefix operators while parsing (the
/// parser recurses once per level, before any node exists).
const MAX_NEST: usize = 100;

pub(crate) type R<T> = Result<T, ()>;

#[derive(Clone, Debug)]
pub(crate) struct Expr {
    pub kind: EK,
    /// Bytes of the file.
    pub at: usize,
    pub end: usize,
    pub height: usize,
}

/// The binary operators are kairos's own: UPPAAL has the same ones (`%` is
/// `Mod`).
pub(crate) use crate::syntax::ast::BinOp as Bin;

/// The words that start UPPAAL queries other than the path forms: `sup`
/// and `inf` (translated), and those kairos does not check (SMC,
/// strategies, `bounds`).
pub(crate) const QUERY_KEYWORDS: &[&str] = &[
    // Live sequence charts' scenarios (`sat: Scenario`).
    "sat",
    "sup",
    "inf",
    "Pr",
    "simulate",
    "control",
    "E2",
    "bounds",
    "strategy",
    "saveStrategy",
    "loadStrategy",
    "minE",
    "maxE",
    "minPr",
    "maxPr",
];

#[derive(Clone, Debug)]
pub(crate) enum EK {
    Int(i64),
    Bool(bool),
    Name(String),
    Deadlock,
    Index(Box<Expr>, Box<Expr>),
    /// `P.x` (queries only).
    Dot(Box<Expr>, String),
    /// `P(1, 2)` (queries only: an instance of a template).
    Call(String, Vec<Expr>),
    /// `P(1).f(a)`: a process's function (queries only).
    Method(Box<Expr>, String, Vec<Expr>),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    /// `~e`.
    BitNot(Box<Expr>),
    Bin(Bin, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `forall (i : T) e` (true) or `exists (i : T) e`.
    Quant(bool, String, Box<Type>, Box<Expr>),
    /// `++e` / `--e` (up: `++`), or `e++` / `e--` when `post`: an
    /// assignment inside an expression (kairos has the same).
    Step {
        target: Box<Expr>,
        up: bool,
        post: bool,
    },
    /// `x'`: a clock's rate (in invariants, `x' == e`).
    Rate(Box<Expr>),
}

impl Expr {
    fn new(kind: EK, at: usize, end: usize) -> Expr {
        let h = |e: &Expr| e.height;
        let height = 1 + match &kind {
            EK::Int(_) | EK::Bool(_) | EK::Name(_) | EK::Deadlock => 0,
            EK::Index(a, b) | EK::Bin(_, a, b) => h(a).max(h(b)),
            EK::Dot(a, _) | EK::Neg(a) | EK::Not(a) | EK::BitNot(a) | EK::Step { target: a, .. } | EK::Rate(a) => h(a),
            EK::Call(_, args) => args.iter().map(h).max().unwrap_or(0),
            EK::Method(a, _, args) => args.iter().map(h).max().unwrap_or(0).max(h(a)),
            EK::Cond(a, b, c) => h(a).max(h(b)).max(h(c)),
            EK::Quant(_, _, t, e) => h(e).max(t.height()),
        };
        Expr { kind, at, end, height }
    }
}

/// A type as written: prefixes (`const`, `urgent`, `broadcast`, `meta`, ...)
/// and a base.
#[derive(Clone, Debug)]
pub(crate) struct Type {
    pub prefixes: Vec<(String, usize, usize)>,
    pub base: Base,
    pub at: usize,
    pub end: usize,
}

impl Type {
    fn height(&self) -> usize {
        match &self.base {
            Base::Int(Some((lo, hi))) => lo.height.max(hi.height),
            _ => 0,
        }
    }

    pub fn has(&self, prefix: &str) -> bool {
        self.prefixes.iter().any(|p| p.0 == prefix)
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Base {
    /// `int` or `int[lo, hi]`.
    Int(Option<(Expr, Expr)>),
    Bool,
    Clock,
    Chan,
    /// A `typedef` name.
    Named(String),
    /// `struct { int a; bool b[2]; }`: its fields in order.
    Struct(std::rc::Rc<[VarDecl]>),
}

#[derive(Clone, Debug)]
pub(crate) enum Init {
    Expr(Expr),
    List(Vec<Init>, usize, usize),
}

/// One declared name.
#[derive(Clone, Debug)]
pub(crate) struct VarDecl {
    pub ty: Type,
    pub name: String,
    pub at: usize,
    pub end: usize,
    pub dims: Vec<Expr>,
    pub init: Option<Init>,
}

#[derive(Clone, Debug)]
pub(crate) enum Decl {
    Var(VarDecl),
    Typedef(VarDecl),
    /// `X = T(args);`
    Instance {
        name: String,
        template: String,
        t_at: usize,
        args: Vec<Expr>,
        end: usize,
    },
    /// `X(params) = T(args);`: a template X whose parameters are bound
    /// through T's (from `at`).
    Partial {
        name: String,
        at: usize,
        params: Vec<Param>,
        template: String,
        t_at: usize,
        args: Vec<Expr>,
        end: usize,
    },
    /// `system A, B;`
    /// The `system` line's processes and each one's priority level (`<`
    /// raises it).
    System(Vec<(String, usize, usize)>, Vec<u32>),
    Function(FnDecl),
    /// `chan priority a, d[0] < default < b;`.
    ChanPriority(Vec<ChanPrio>),
    /// The names a declaration that failed to parse (reported) would have
    /// declared.
    Refused(Vec<String>),
}

/// A member of `chan priority`: a channel or an element (`None` for
/// `default`), its level (`<` raises it) and position.
#[derive(Clone, Debug)]
pub(crate) struct ChanPrio {
    pub channel: Option<(String, Vec<Expr>)>,
    pub level: u32,
    pub at: usize,
    pub end: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AssignOp {
    Set,
    /// `+=`, `<<=`, ..., and `++`/`--` (`With(Add)`, `With(Sub)`).
    With(Bin),
    /// A function call for its effect (`lhs` and `rhs` are the call).
    Call,
}

#[derive(Clone, Debug)]
pub(crate) struct Assign {
    pub lhs: Expr,
    pub op: AssignOp,
    pub rhs: Expr,
}

#[derive(Clone, Debug)]
pub(crate) struct Param {
    pub ty: Type,
    pub by_ref: bool,
    pub name: String,
    pub at: usize,
    pub end: usize,
    /// A function's array parameter's sizes (`int &a[N]`).
    pub dims: Vec<Expr>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PathOp {
    /// `E<>`
    Ef,
    /// `A[]`
    Ag,
    /// `A<>`
    Af,
    /// `E[]`
    Eg,
}

#[derive(Clone, Debug)]
pub(crate) enum Query {
    Path(PathOp, Expr),
    LeadsTo(Expr, Expr),
    /// `sup{cond}: e1, e2` / `inf: e` (the condition left out: `true`).
    Measure(crate::syntax::ast::Extremum, Option<Expr>, Vec<Expr>),
}

/// Words that start a type.
const TYPE_WORDS: &[&str] = &[
    "const",
    "urgent",
    "broadcast",
    "meta",
    "hybrid",
    "int",
    "bool",
    "clock",
    "chan",
    "void",
    "double",
    "string",
    "scalar",
    "struct",
];

pub(crate) struct Parser<'t, 'd, 's> {
    toks: &'t [Tok],
    i: usize,
    pub d: &'d mut Diags<'s>,
    /// What is being parsed, for messages ("a guard").
    what: &'t str,
    /// `P.x`, `P(1)` and `deadlock` are allowed (queries).
    query: bool,
    /// Current nesting, bounded by [`MAX_NEST`].
    nest: usize,
}

impl<'t, 'd, 's> Parser<'t, 'd, 's> {
    pub fn new(toks: &'t [Tok], d: &'d mut Diags<'s>, what: &'t str) -> Self {
        Parser { toks, i: 0, d, what, query: false, nest: 0 }
    }

    fn peek(&self) -> &Tok {
        &self.toks[self.i.min(self.toks.len() - 1)]
    }

    fn peek_at(&self, k: usize) -> &Tk {
        &self.toks[(self.i + k).min(self.toks.len() - 1)].tk
    }

    fn next(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.i < self.toks.len() - 1 {
            self.i += 1;
        }
        t
    }

    fn is_op(&self, op: &str) -> bool {
        matches!(&self.peek().tk, Tk::Op(o) if *o == op)
    }

    fn is_id(&self, id: &str) -> bool {
        matches!(&self.peek().tk, Tk::Id(s) if s == id)
    }

    fn eat_op(&mut self, op: &str) -> bool {
        let yes = self.is_op(op);
        if yes {
            self.next();
        }
        yes
    }

    pub fn at_end(&self) -> bool {
        self.peek().tk == Tk::End
    }

    pub fn fail<T>(&mut self, expected: &str) -> R<T> {
        let t = self.peek().clone();
        self.d.error(
            t.at,
            t.end,
            "syntax-error",
            format!("in {}: expected {expected}, found {}", self.what, describe(&t.tk)),
        );
        Err(())
    }

    fn expect_op(&mut self, op: &str) -> R<Tok> {
        if self.is_op(op) { Ok(self.next()) } else { self.fail(&format!("`{op}`")) }
    }

    fn ident(&mut self, what: &str) -> R<(String, usize, usize)> {
        match self.peek().tk.clone() {
            Tk::Id(s) => {
                let t = self.next();
                Ok((s, t.at, t.end))
            }
            _ => self.fail(what),
        }
    }

    pub fn expect_end(&mut self) -> R<()> {
        if self.at_end() { Ok(()) } else { self.fail("the end of the text") }
    }

    fn node(&mut self, kind: EK, at: usize, end: usize) -> R<Expr> {
        let e = Expr::new(kind, at, end);
        if e.height > MAX_HEIGHT {
            self.d
                .error(at, end, "too-deep", format!("{} is nested deeper than {MAX_HEIGHT} levels", self.what))
                .hint = Some("split the expression".into());
            return Err(());
        }
        Ok(e)
    }

    // ------------------------------------------------------------ expressions

    /// An expression (no assignment).
    pub fn expr(&mut self) -> R<Expr> {
        self.binary(0)
    }

    /// Precedence (higher binds tighter) of the binary operator ahead:
    /// UPPAAL's, from libutap's grammar.
    fn infix(&self) -> Option<(u8, Bin)> {
        Some(match &self.peek().tk {
            Tk::Op("||") => (2, Bin::Or),
            Tk::Id(s) if s == "or" => (2, Bin::Or),
            Tk::Id(s) if s == "imply" => (2, Bin::Imply),
            Tk::Op("&&") => (3, Bin::And),
            Tk::Id(s) if s == "and" => (3, Bin::And),
            Tk::Op("|") => (4, Bin::BitOr),
            Tk::Op("^") => (5, Bin::BitXor),
            Tk::Op("&") => (6, Bin::BitAnd),
            Tk::Op("==") => (7, Bin::Eq),
            Tk::Op("!=") => (7, Bin::Ne),
            Tk::Op("<") => (8, Bin::Lt),
            Tk::Op("<=") => (8, Bin::Le),
            Tk::Op(">") => (8, Bin::Gt),
            Tk::Op(">=") => (8, Bin::Ge),
            Tk::Op("<?") => (9, Bin::Min),
            Tk::Op(">?") => (9, Bin::Max),
            Tk::Op("<<") => (10, Bin::Shl),
            Tk::Op(">>") => (10, Bin::Shr),
            Tk::Op("+") => (11, Bin::Add),
            Tk::Op("-") => (11, Bin::Sub),
            Tk::Op("*") => (12, Bin::Mul),
            Tk::Op("/") => (12, Bin::Div),
            Tk::Op("%") => (12, Bin::Mod),
            _ => return None,
        })
    }

    /// Operators of UPPAAL that kairos cannot express.
    fn refused_infix(&self) -> Option<&'static str> {
        Some(match &self.peek().tk {
            Tk::Id(s) if s == "xor" => "`xor`",
            _ => return None,
        })
    }

    /// Operators of precedence >= `min`; `?:` (right-associative) is the
    /// loosest (level 1), left-associative levels above it.
    fn binary(&mut self, min: u8) -> R<Expr> {
        let mut lhs = self.unary()?;
        loop {
            if let Some(what) = self.refused_infix() {
                let t = self.peek().clone();
                self.d.unsupported(t.at, t.end, what);
                return Err(());
            }
            if self.is_op("?") && min <= 1 {
                self.next();
                let a = self.binary(1)?;
                self.expect_op(":")?;
                let b = self.binary(1)?;
                let (at, end) = (lhs.at, b.end);
                lhs = self.node(EK::Cond(Box::new(lhs), Box::new(a), Box::new(b)), at, end)?;
                continue;
            }
            let Some((prec, op)) = self.infix() else { break };
            if prec < min {
                break;
            }
            self.next();
            let rhs = self.binary(prec + 1)?;
            let (at, end) = (lhs.at, rhs.end);
            lhs = self.node(EK::Bin(op, Box::new(lhs), Box::new(rhs)), at, end)?;
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> R<Expr> {
        if self.nest >= MAX_NEST {
            let t = self.peek().clone();
            self.d
                .error(t.at, t.end, "too-deep", format!("{} is nested deeper than {MAX_NEST} levels", self.what))
                .hint = Some("split the expression".into());
            return Err(());
        }
        self.nest += 1;
        let r = self.unary_inner();
        self.nest -= 1;
        r
    }

    fn unary_inner(&mut self) -> R<Expr> {
        let t = self.peek().clone();
        match &t.tk {
            Tk::Op("-") => {
                self.next();
                let a = self.unary()?;
                let end = a.end;
                self.node(EK::Neg(Box::new(a)), t.at, end)
            }
            Tk::Op("+") => {
                self.next();
                self.unary()
            }
            Tk::Op("!") => {
                self.next();
                let a = self.unary()?;
                let end = a.end;
                self.node(EK::Not(Box::new(a)), t.at, end)
            }
            Tk::Id(s) if s == "not" => {
                self.next();
                let a = self.unary()?;
                let end = a.end;
                self.node(EK::Not(Box::new(a)), t.at, end)
            }
            Tk::Op(op @ ("++" | "--")) => {
                let up = *op == "++";
                self.next();
                let a = self.unary()?;
                let end = a.end;
                self.node(EK::Step { target: Box::new(a), up, post: false }, t.at, end)
            }
            Tk::Op("~") => {
                self.next();
                let a = self.unary()?;
                let end = a.end;
                self.node(EK::BitNot(Box::new(a)), t.at, end)
            }
            Tk::Id(s) if s == "forall" || s == "exists" => {
                let forall = s == "forall";
                self.next();
                self.expect_op("(")?;
                let (var, _, _) = self.ident("a variable name")?;
                self.expect_op(":")?;
                let ty = self.ty()?;
                self.expect_op(")")?;
                // The body takes everything to its right.
                let body = self.binary(0)?;
                let end = body.end;
                self.node(EK::Quant(forall, var, Box::new(ty), Box::new(body)), t.at, end)
            }
            Tk::Id(s) if s == "sum" => {
                self.d.unsupported(t.at, t.end, "`sum` expressions");
                Err(())
            }
            _ => self.postfix(),
        }
    }

    fn postfix(&mut self) -> R<Expr> {
        let mut e = self.primary()?;
        loop {
            let t = self.peek().clone();
            match &t.tk {
                Tk::Op("[") => {
                    self.next();
                    let i = self.expr()?;
                    let close = self.expect_op("]")?;
                    let at = e.at;
                    e = self.node(EK::Index(Box::new(e), Box::new(i)), at, close.end)?;
                }
                // A process's member in queries, a structure's member
                // elsewhere (the printer refuses it, or stays quiet when the
                // structure's declaration was refused).
                Tk::Op(".") => {
                    e = self.member_of(e)?;
                    if self.query && self.is_op("(") {
                        let EK::Dot(base, name) = e.kind else { unreachable!("`member_of` makes a `.`") };
                        let (args, end) = self.call_args()?;
                        e = self.node(EK::Method(base, name, args), e.at, end)?;
                    }
                }
                Tk::Op("'") => {
                    self.next();
                    let at = e.at;
                    e = self.node(EK::Rate(Box::new(e)), at, t.end)?;
                }
                Tk::Op(op @ ("++" | "--")) => {
                    let up = *op == "++";
                    self.next();
                    let at = e.at;
                    e = self.node(EK::Step { target: Box::new(e), up, post: true }, at, t.end)?;
                }
                _ => return Ok(e),
            }
        }
    }

    fn primary(&mut self) -> R<Expr> {
        let t = self.peek().clone();
        match &t.tk {
            Tk::Int(v) => {
                self.next();
                self.node(EK::Int(*v), t.at, t.end)
            }
            Tk::Float => {
                self.d.unsupported(t.at, t.end, "a floating-point number (`double`)");
                Err(())
            }
            Tk::Op("(") => {
                self.next();
                let e = self.expr()?;
                let close = self.expect_op(")")?;
                // Parentheses count as a level: they bound the nesting too.
                let mut e = e;
                e.at = t.at;
                e.end = close.end;
                e.height += 1;
                if e.height > MAX_HEIGHT {
                    return self.node(e.kind, t.at, close.end);
                }
                Ok(e)
            }
            Tk::Id(s) => {
                let s = s.clone();
                self.next();
                match s.as_str() {
                    "true" => return self.node(EK::Bool(true), t.at, t.end),
                    "false" => return self.node(EK::Bool(false), t.at, t.end),
                    "deadlock" if self.query => return self.node(EK::Deadlock, t.at, t.end),
                    _ => {}
                }
                if self.is_op("(") {
                    let (args, end) = self.call_args()?;
                    return self.node(EK::Call(s, args), t.at, end);
                }
                self.node(EK::Name(s), t.at, t.end)
            }
            _ => self.fail("an expression"),
        }
    }

    // ------------------------------------------------------------ types

    fn starts_type(&self) -> bool {
        match self.peek_at(0) {
            Tk::Id(s) if TYPE_WORDS.contains(&s.as_str()) => true,
            // `T x`: a typedef name followed by a name.
            Tk::Id(_) => matches!(self.peek_at(1), Tk::Id(_)),
            _ => false,
        }
    }

    pub fn ty(&mut self) -> R<Type> {
        let at = self.peek().at;
        let mut prefixes = Vec::new();
        while let Tk::Id(s) = self.peek().tk.clone() {
            if !matches!(s.as_str(), "const" | "urgent" | "broadcast" | "meta" | "hybrid") {
                break;
            }
            let t = self.next();
            prefixes.push((s, t.at, t.end));
        }
        let t = self.peek().clone();
        let Tk::Id(word) = &t.tk else { return self.fail("a type") };
        self.next();
        let base = match word.as_str() {
            "int" => {
                if self.eat_op("[") {
                    let lo = self.expr()?;
                    self.expect_op(",")?;
                    let hi = self.expr()?;
                    self.expect_op("]")?;
                    Base::Int(Some((lo, hi)))
                } else {
                    Base::Int(None)
                }
            }
            "bool" => Base::Bool,
            "clock" => Base::Clock,
            "chan" => Base::Chan,
            "double" | "string" | "void" => {
                self.d.unsupported(t.at, t.end, format!("the type `{word}`"));
                return Err(());
            }
            "scalar" => {
                self.d.unsupported(t.at, t.end, "`scalar` types (symmetry reduction)");
                return Err(());
            }
            "struct" => Base::Struct(self.fields()?.into()),
            w if TYPE_WORDS.contains(&w) => return self.fail("a type"),
            _ => Base::Named(word.clone()),
        };
        let end = self.toks[self.i.saturating_sub(1)].end;
        Ok(Type { prefixes, base, at, end })
    }

    /// The fields of a `struct`: `{ T a, b[2]; U c; }`.
    fn fields(&mut self) -> R<Vec<VarDecl>> {
        self.expect_op("{")?;
        let mut out = Vec::new();
        while !self.eat_op("}") {
            let ty = self.ty()?;
            loop {
                let (name, at, end) = self.ident("a field name")?;
                let dims = self.dims()?;
                out.push(VarDecl { ty: ty.clone(), name, at, end, dims, init: None });
                if !self.eat_op(",") {
                    break;
                }
            }
            self.expect_op(";")?;
        }
        Ok(out)
    }

    pub(super) fn dims(&mut self) -> R<Vec<Expr>> {
        let mut dims = Vec::new();
        while self.eat_op("[") {
            dims.push(self.expr()?);
            self.expect_op("]")?;
        }
        Ok(dims)
    }

    fn init(&mut self, depth: usize) -> R<Init> {
        let t = self.peek().clone();
        if !self.eat_op("{") {
            return Ok(Init::Expr(self.expr()?));
        }
        if depth > 8 {
            self.d.unsupported(t.at, t.end, "an initialiser nested this deep");
            return Err(());
        }
        let mut items = Vec::new();
        loop {
            items.push(self.init(depth + 1)?);
            if !self.eat_op(",") {
                break;
            }
        }
        let close = self.expect_op("}")?;
        Ok(Init::List(items, t.at, close.end))
    }

    // ------------------------------------------------------------ declarations

    /// Declarations up to the end of the text; `system` blocks accept
    /// instantiations and the `system` line too. Every problem is reported;
    /// parsing resumes after the next `;`.
    pub fn declarations(&mut self, system_block: bool) -> Vec<Decl> {
        let mut out = Vec::new();
        while !self.at_end() {
            let start = self.i;
            if self.declaration(system_block, &mut out).is_err() {
                self.recover(start);
                out.push(Decl::Refused(self.declared_names(start)));
            }
        }
        out
    }

    /// Skips to just after the next `;` outside braces, or past a `{...}`
    /// block that ends a declaration (a function body, `progress`, `gantt`;
    /// not a `struct`, whose declaration goes on to its `;`).
    fn recover(&mut self, start: usize) {
        self.i = self.i.max(start);
        let mut depth = 0usize;
        let mut in_struct = false;
        let mut prev = self.i.checked_sub(1).map_or(Tk::End, |k| self.toks[k].tk.clone());
        while !self.at_end() {
            let t = self.next();
            match t.tk {
                Tk::Op("{") => {
                    if depth == 0 {
                        in_struct = matches!(&prev, Tk::Id(s) if s == "struct");
                    }
                    depth += 1;
                }
                Tk::Op("}") => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 && !in_struct && !self.is_op(";") {
                        return;
                    }
                }
                Tk::Op(";") if depth == 0 => return,
                _ => {}
            }
            prev = t.tk;
        }
    }

    /// The names declared by the tokens from `start` to here, read without
    /// parsing them: names outside brackets and braces that a declarator
    /// follows (`[`, `=`, `,`, `;`, `(` or `{`), as in `int a[2][2], b;`,
    /// `struct { ... } s;`, `void f(int x) { ... }`.
    fn declared_names(&self, start: usize) -> Vec<String> {
        let toks = &self.toks[start..self.i];
        let mut depth = 0usize;
        let mut out = Vec::new();
        for (k, t) in toks.iter().enumerate() {
            match &t.tk {
                Tk::Op("(" | "[" | "{") => depth += 1,
                Tk::Op(")" | "]" | "}") => depth = depth.saturating_sub(1),
                Tk::Id(name) if depth == 0 => {
                    let next = toks.get(k + 1).map(|t| &t.tk);
                    if matches!(next, Some(Tk::Op("[" | "=" | ":=" | "," | ";" | "(" | "{")) | None) {
                        out.push(name.clone());
                    }
                }
                _ => {}
            }
        }
        out
    }

    fn declaration(&mut self, system_block: bool, out: &mut Vec<Decl>) -> R<()> {
        let t = self.peek().clone();
        let Tk::Id(word) = &t.tk else {
            if self.eat_op(";") {
                return Ok(());
            }
            return self.fail("a declaration");
        };
        match word.as_str() {
            "typedef" => {
                self.next();
                let ty = self.ty()?;
                let (name, at, end) = self.ident("the new type's name")?;
                let dims = self.dims()?;
                self.expect_op(";")?;
                out.push(Decl::Typedef(VarDecl { ty, name, at, end, dims, init: None }));
                return Ok(());
            }
            "system" if system_block => {
                self.next();
                let mut names = Vec::new();
                let mut levels = Vec::new();
                let mut level = 0;
                loop {
                    names.push(self.ident("a process name")?);
                    levels.push(level);
                    if self.eat_op("<") {
                        level += 1;
                    } else if !self.eat_op(",") {
                        break;
                    }
                }
                self.expect_op(";")?;
                out.push(Decl::System(names, levels));
                return Ok(());
            }
            "chan" if matches!(self.peek_at(1), Tk::Id(w) if w == "priority") => {
                self.next();
                self.next();
                let mut members = Vec::new();
                let mut level = 0;
                loop {
                    let at = self.peek().at;
                    let member = if self.is_id("default") {
                        self.next();
                        None
                    } else {
                        let (name, ..) = self.ident("a channel")?;
                        let mut index = Vec::new();
                        while self.eat_op("[") {
                            index.push(self.expr()?);
                            self.expect_op("]")?;
                        }
                        Some((name, index))
                    };
                    let end = self.toks[self.i.saturating_sub(1)].end;
                    members.push(ChanPrio { channel: member, level, at, end });
                    if self.eat_op("<") {
                        level += 1;
                    } else if !self.eat_op(",") {
                        break;
                    }
                }
                self.expect_op(";")?;
                out.push(Decl::ChanPriority(members));
                return Ok(());
            }
            // Presentation (a Gantt chart) and a hint for UPPAAL's search
            // (progress measures): skipped, as the YAML's header says.
            "progress" | "gantt" if matches!(self.peek_at(1), Tk::Op("{")) => {
                self.next();
                self.recover(self.i);
                return Ok(());
            }
            "progress" | "gantt" | "before_update" | "after_update" | "import" | "dynamic" => {
                self.d.unsupported(t.at, t.end, format!("`{word}`"));
                return Err(());
            }
            _ => {}
        }
        if !self.starts_type() {
            if system_block && matches!(self.peek_at(1), Tk::Op("=") | Tk::Op(":=")) {
                return self.instantiation(out);
            }
            if system_block && matches!(self.peek_at(1), Tk::Op("(")) {
                return self.partial(out);
            }
            return self.fail("a declaration (a type, `typedef`, ...)");
        }
        if self.is_id("void") && matches!(self.peek_at(2), Tk::Op("(")) {
            self.next();
            let name = self.ident("a function name")?;
            return self.function(None, name, out);
        }
        let ty = self.ty()?;
        loop {
            let (name, at, end) = self.ident("a name")?;
            if self.is_op("(") {
                return self.function(Some(ty), (name, at, end), out);
            }
            let dims = self.dims()?;
            let init = if self.eat_op("=") || self.eat_op(":=") { Some(self.init(0)?) } else { None };
            out.push(Decl::Var(VarDecl { ty: ty.clone(), name, at, end, dims, init }));
            if !self.eat_op(",") {
                break;
            }
        }
        self.expect_op(";")?;
        Ok(())
    }

    fn instantiation(&mut self, out: &mut Vec<Decl>) -> R<()> {
        let (name, _, _) = self.ident("a process name")?;
        self.next(); // `=` or `:=`
        let (template, t_at, args, end) = self.applied()?;
        out.push(Decl::Instance { name, template, t_at, args, end });
        Ok(())
    }

    /// `X(const T a, ...) = T(a, ...);`: a template X whose parameters are
    /// bound through T's.
    fn partial(&mut self, out: &mut Vec<Decl>) -> R<()> {
        let (name, at, _) = self.ident("a process name")?;
        self.expect_op("(")?;
        let params = if self.is_op(")") { Vec::new() } else { self.param_list()? };
        self.expect_op(")")?;
        if !self.eat_op("=") && !self.eat_op(":=") {
            return self.fail("`=`");
        }
        let (template, t_at, args, end) = self.applied()?;
        out.push(Decl::Partial { name, at, params, template, t_at, args, end });
        Ok(())
    }

    /// `T(args);`: the template, where it is named, the arguments and the
    /// end of the `;`.
    fn applied(&mut self) -> R<(String, usize, Vec<Expr>, usize)> {
        let (template, t_at, _) = self.ident("a template name")?;
        self.expect_op("(")?;
        let mut args = Vec::new();
        if !self.is_op(")") {
            loop {
                args.push(self.expr()?);
                if !self.eat_op(",") {
                    break;
                }
            }
        }
        self.expect_op(")")?;
        let end = self.expect_op(";")?.end;
        Ok((template, t_at, args, end))
    }

    /// Template parameters: `const int id, chan &c, ...`.
    pub fn params(&mut self) -> R<Vec<Param>> {
        if self.at_end() {
            return Ok(Vec::new());
        }
        let out = self.param_list()?;
        self.expect_end()?;
        Ok(out)
    }

    /// `const int id, chan &c, ...`, up to what follows the last one.
    fn param_list(&mut self) -> R<Vec<Param>> {
        let mut out = Vec::new();
        loop {
            let ty = self.ty()?;
            let by_ref = self.eat_op("&");
            let (name, at, end) = self.ident("a parameter name")?;
            if self.is_op("[") {
                let t = self.peek().clone();
                self.d.unsupported(t.at, t.end, "an array parameter");
                return Err(());
            }
            out.push(Param { ty, by_ref, name, at, end, dims: Vec::new() });
            if !self.eat_op(",") {
                break;
            }
        }
        Ok(out)
    }

    /// Selects: `i : T, j : T`.
    pub fn selects(&mut self) -> R<Vec<(String, usize, usize, Type)>> {
        let mut out = Vec::new();
        loop {
            let (name, at, end) = self.ident("a select variable")?;
            self.expect_op(":")?;
            out.push((name, at, end, self.ty()?));
            if !self.eat_op(",") {
                break;
            }
        }
        self.expect_end()?;
        Ok(out)
    }

    /// A variable, array element or channel: `a`, `a[i]` (`s.m`, refused
    /// later).
    fn lvalue(&mut self) -> R<Expr> {
        self.indexed(Self::expr)
    }

    /// A name with members and indices, each index read by `index`.
    fn indexed(&mut self, index: fn(&mut Self) -> R<Expr>) -> R<Expr> {
        let (name, at, end) = self.ident("a variable")?;
        let mut e = self.node(EK::Name(name), at, end)?;
        loop {
            if self.is_op(".") {
                e = self.member_of(e)?;
                continue;
            }
            if !self.eat_op("[") {
                break;
            }
            let i = index(self)?;
            let close = self.expect_op("]")?;
            let at = e.at;
            e = self.node(EK::Index(Box::new(e), Box::new(i)), at, close.end)?;
        }
        Ok(e)
    }

    /// `(a, b)` after a function's name, and where it ends.
    fn call_args(&mut self) -> R<(Vec<Expr>, usize)> {
        self.next();
        let mut args = Vec::new();
        while !self.is_op(")") {
            args.push(self.expr()?);
            if !self.eat_op(",") {
                break;
            }
        }
        let close = self.expect_op(")")?;
        Ok((args, close.end))
    }

    /// `e.m`, at the `.`.
    fn member_of(&mut self, e: Expr) -> R<Expr> {
        self.next();
        let (m, _, end) = self.ident("a name after `.`")?;
        let at = e.at;
        self.node(EK::Dot(Box::new(e), m), at, end)
    }

    /// A synchronisation `c!`, `c[i]?`: the channel expression and whether
    /// it sends.
    pub fn sync(&mut self) -> R<(Expr, bool)> {
        let c = self.lvalue()?;
        let send = if self.eat_op("!") {
            true
        } else if self.eat_op("?") {
            false
        } else {
            return self.fail("`!` or `?`");
        };
        self.expect_end()?;
        Ok((c, send))
    }

    /// Assignments separated by commas: `x = 0, i++, a[i] += 2`.
    pub fn assignments(&mut self) -> R<Vec<Assign>> {
        let mut out = Vec::new();
        if self.at_end() {
            return Ok(out);
        }
        loop {
            out.extend(self.assignment()?);
            if !self.eat_op(",") {
                break;
            }
        }
        self.expect_end()?;
        Ok(out)
    }

    /// One assignment; a chain `a = b = e` is `b = e, a = b` (C's value of
    /// an assignment is its target's new value).
    pub(super) fn assignment(&mut self) -> R<Vec<Assign>> {
        let one = |p: &Self, at: usize| Expr::new(EK::Int(1), at, p.peek().at);
        let t = self.peek().clone();
        if let Tk::Op(op @ ("++" | "--")) = t.tk {
            self.next();
            let lhs = self.lvalue()?;
            let rhs = one(self, t.at);
            let op = AssignOp::With(if op == "++" { Bin::Add } else { Bin::Sub });
            return Ok(vec![Assign { lhs, op, rhs }]);
        }
        if matches!(t.tk, Tk::Id(_)) && matches!(self.peek_at(1), Tk::Op("(")) {
            return Ok(vec![self.call_assign()?]);
        }
        // `spawn T(...)` starts an instance of a dynamic template, refused
        // where the template is declared; this is its other end.
        if self.is_id("spawn") && matches!(self.peek_at(1), Tk::Id(_)) {
            self.d.unsupported(t.at, t.end, "`spawn`, an instance of a dynamic template");
            return Err(());
        }
        let lhs = self.lvalue()?;
        let t = self.peek().clone();
        let op = match t.tk {
            Tk::Op("++") | Tk::Op("--") => {
                self.next();
                let op = AssignOp::With(if t.tk == Tk::Op("++") { Bin::Add } else { Bin::Sub });
                return Ok(vec![Assign { lhs, op, rhs: one(self, t.at) }]);
            }
            Tk::Op("=") | Tk::Op(":=") => AssignOp::Set,
            Tk::Op("+=") => AssignOp::With(Bin::Add),
            Tk::Op("-=") => AssignOp::With(Bin::Sub),
            Tk::Op("*=") => AssignOp::With(Bin::Mul),
            Tk::Op("/=") => AssignOp::With(Bin::Div),
            Tk::Op("%=") => AssignOp::With(Bin::Mod),
            Tk::Op("&=") => AssignOp::With(Bin::BitAnd),
            Tk::Op("|=") => AssignOp::With(Bin::BitOr),
            Tk::Op("^=") => AssignOp::With(Bin::BitXor),
            Tk::Op("<<=") => AssignOp::With(Bin::Shl),
            Tk::Op(">>=") => AssignOp::With(Bin::Shr),
            _ => return self.fail("an assignment operator (`=`, `+=`, `++`, ...)"),
        };
        self.next();
        let mut targets = vec![lhs];
        let mut rhs = self.expr()?;
        while op == AssignOp::Set && matches!(self.peek().tk, Tk::Op("=" | ":=")) {
            self.next();
            targets.push(std::mem::replace(&mut rhs, self.expr()?));
        }
        if let Tk::Op("=" | ":=" | "+=" | "-=" | "*=" | "/=" | "%=" | "&=" | "|=" | "^=" | "<<=" | ">>=") =
            self.peek().tk
        {
            let t = self.peek().clone();
            self.d.unsupported(t.at, t.end, "a chained compound assignment (`a += b = 0`)").hint =
                Some("write one assignment per variable: `b = 0, a += b`".into());
            return Err(());
        }
        // Innermost first: each target then takes the value of the one after it.
        let mut out = Vec::with_capacity(targets.len());
        for lhs in targets.into_iter().rev() {
            out.push(Assign { lhs: lhs.clone(), op, rhs });
            rhs = lhs;
        }
        Ok(out)
    }

    /// One query: `A[] e`, `E<> e`, `A<> e`, `E[] e`, `e --> f`.
    pub fn query(&mut self) -> R<Query> {
        self.query = true;
        let t = self.peek().clone();
        let path = match (&t.tk, self.peek_at(1), self.peek_at(2)) {
            (Tk::Id(a), Tk::Op("["), Tk::Op("]")) if a == "A" => Some(PathOp::Ag),
            (Tk::Id(e), Tk::Op("["), Tk::Op("]")) if e == "E" => Some(PathOp::Eg),
            (Tk::Id(a), Tk::Op("<"), Tk::Op(">")) if a == "A" => Some(PathOp::Af),
            (Tk::Id(e), Tk::Op("<"), Tk::Op(">")) if e == "E" => Some(PathOp::Ef),
            _ => None,
        };
        if let Some(op) = path {
            self.i += 3;
            let e = self.expr()?;
            self.expect_end()?;
            return Ok(Query::Path(op, e));
        }
        if let Tk::Id(w) = &t.tk
            && (w == "sup" || w == "inf")
        {
            return self.measure_query();
        }
        if let Tk::Id(w) = &t.tk
            && (QUERY_KEYWORDS.contains(&w.as_str()) || w == "A" || w == "E")
        {
            self.d.unsupported(t.at, self.peek_at_end(), format!("the query form `{w}...`")).hint =
                Some("kairos checks `A[]`, `E<>`, `A<>`, `E[]` and `-->` queries".into());
            return Err(());
        }
        let lhs = self.expr()?;
        if self.eat_op("-->") {
            let rhs = self.expr()?;
            self.expect_end()?;
            return Ok(Query::LeadsTo(lhs, rhs));
        }
        self.fail("`-->` (a query is `A[] p`, `E<> p`, `A<> p`, `E[] p` or `p --> q`)")
    }

    /// `sup{cond}: e1, e2` or `inf: e`, its keyword next.
    fn measure_query(&mut self) -> R<Query> {
        use crate::syntax::ast::Extremum;
        let kind = if self.next().tk == Tk::Id("sup".into()) { Extremum::Sup } else { Extremum::Inf };
        let cond = if self.eat_op("{") {
            let c = self.expr()?;
            self.expect_op("}")?;
            Some(c)
        } else {
            None
        };
        self.expect_op(":")?;
        let mut terms = vec![self.expr()?];
        while self.eat_op(",") {
            terms.push(self.expr()?);
        }
        self.expect_end()?;
        Ok(Query::Measure(kind, cond, terms))
    }

    fn peek_at_end(&self) -> usize {
        self.toks.last().map_or(0, |t| t.end)
    }
}
