//! UPPAAL expressions printed as kairos expressions with the same meaning.
//!
//! UPPAAL mixes integers and booleans like C; kairos does not. The printer
//! types every subexpression and makes the conversions explicit: an integer
//! used as a condition is `e != 0`, a boolean used as an integer is
//! `(b ? 1 : 0)`. Operators are printed with kairos's precedences (the parse
//! tree is UPPAAL's, so parentheses are added where the two differ, e.g.
//! `imply`, which UPPAAL binds like `||`). Names are resolved through scopes
//! and printed as their kairos text (renamed, or substituted for reference
//! parameters and local constants).

use std::rc::Rc;

use indexmap::IndexMap;

use super::parse::{Assign, AssignOp, Base, Bin, EK, Expr, R, Type};
use super::xml::Diags;

/// A structure type's fields and, for an array type of structures, its
/// dimensions.
pub(crate) type StructArray = (Rc<[super::parse::VarDecl]>, Rc<[Expr]>);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    Int,
    Bool,
    Clock,
    Chan,
}

impl Ty {
    fn article(self) -> &'static str {
        match self {
            Ty::Int => "an integer",
            Ty::Bool => "a boolean",
            Ty::Clock => "a clock",
            Ty::Chan => "a channel",
        }
    }
}

/// The values of a type used as a range (selects, quantifiers, parameters).
#[derive(Clone, Debug)]
pub(crate) enum Range {
    /// `lo..hi`, as kairos texts.
    Int(String, String),
    Bool,
    /// Clocks and channels: no range.
    Other,
}

#[derive(Clone, Debug)]
pub(crate) enum Sym {
    /// A value: its kairos text (a name, or an expression substituted for
    /// it), that text's precedence, its type, its array dimension (0 or 1),
    /// whether it may be assigned, and its value when UPPAAL computes it at
    /// compile time (a constant: one value, or one per element). `lows`:
    /// the first index of each dimension when one does not start at 0
    /// (`int a[id_t]` over `typedef int[1, N] id_t`), else empty.
    Val { text: String, prec: u8, ty: Ty, dims: usize, lows: Rc<[i64]>, assignable: bool, value: Option<Rc<[i64]>> },
    /// A `typedef`, with its bounds when they are computed at compile time
    /// and, for an array type (`typedef int[0, 3] row_t[4]`), the sizes of
    /// its dimensions as kairos texts (empty otherwise).
    Type(Range, Option<(i64, i64)>, Rc<[String]>),
    /// A user function: its kairos name, parameters (by reference, type,
    /// and for a structure its fields, each a kairos parameter) and result
    /// (`None`: `void`).
    Fn { text: String, params: Vec<FnParam>, ret: Option<Ty> },
    /// A `typedef` of a `struct`, or of an array of them: its fields and
    /// the array's dimensions (a variable's declaration adds them after
    /// its own).
    StructType(Rc<[super::parse::VarDecl]>, Rc<[Expr]>),
    /// A variable of a `struct` type (or an array of them), flattened: one
    /// kairos variable per field, its dimensions `dims` (with `lows`, as
    /// [`Sym::Val`]'s) first, then the field's.
    Struct { fields: Rc<[(String, Sym)]>, dims: usize, lows: Rc<[i64]>, assignable: bool },
    /// An array of clocks: one kairos clock per element, row-major (see
    /// `clocks`), and its dimensions (size, first index).
    Clocks { names: Rc<[String]>, dims: Rc<[super::clocks::Dim]> },
    /// A name whose declaration was refused (and reported): its uses fail
    /// without a diagnostic of their own, so that one unsupported construct
    /// is one message, not a flood of "not declared".
    Refused,
}

impl Sym {
    pub fn name(text: &str, ty: Ty, dims: usize, assignable: bool) -> Sym {
        Sym::Val { text: text.to_string(), prec: ATOM, ty, dims, lows: Rc::from([]), assignable, value: None }
    }

    /// A value of no array type, printed as `text`.
    pub fn value_text(text: String, prec: u8, ty: Ty) -> Sym {
        Sym::Val { text, prec, ty, dims: 0, lows: Rc::from([]), assignable: false, value: None }
    }

    /// An array `self` whose dimensions start at `lows` (all 0: unchanged).
    pub fn with_lows(self, lows: Vec<i64>) -> Sym {
        match self {
            Sym::Val { text, prec, ty, dims, assignable, value, .. } if lows.iter().any(|&l| l != 0) => {
                Sym::Val { text, prec, ty, dims, lows: lows.into(), assignable, value }
            }
            s => s,
        }
    }

    /// The kairos texts `self` is printed as: a value's, or each of a
    /// structure's fields'.
    pub fn texts(&self) -> Vec<&String> {
        match self {
            Sym::Val { text, .. } => vec![text],
            Sym::Struct { fields, .. } => fields.iter().flat_map(|(_, f)| f.texts()).collect(),
            _ => Vec::new(),
        }
    }

    /// A constant: `self` with its compile-time value.
    pub fn with_value(self, values: Vec<i64>) -> Sym {
        match self {
            Sym::Val { text, prec, ty, dims, lows, assignable, .. } => {
                Sym::Val { text, prec, ty, dims, lows, assignable, value: Some(values.into()) }
            }
            s => s,
        }
    }
}

/// A function's parameter: by reference, its type, for a structure its
/// fields (name, type), each passed as a kairos parameter of its own, and
/// for an array its number of dimensions.
pub(crate) type FnParam = (bool, Ty, Rc<[(String, Ty)]>, usize);

pub(crate) type Scope = IndexMap<String, Sym>;

/// Processes as queries name them: `P1.x`, `P(1).x`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Procs {
    /// UPPAAL name -> (kairos text of the instance or template, arity, index
    /// of its members in `members`).
    pub by_name: IndexMap<String, (String, usize, usize)>,
    /// Per kairos template: its locations (booleans), local variables and
    /// functions.
    pub members: Vec<Scope>,
}

// Precedences of kairos's grammar (src/syntax/parse/build.rs), loosest first.
pub(crate) const QUANT: u8 = 1;
pub(crate) const IMPLY: u8 = 3;
pub(crate) const COND: u8 = 7;
pub(crate) const LOR: u8 = 8;
pub(crate) const LAND: u8 = 9;
pub(crate) const BOR: u8 = 10;
pub(crate) const BXOR: u8 = 11;
pub(crate) const BAND: u8 = 12;
pub(crate) const EQ: u8 = 13;
pub(crate) const REL: u8 = 14;
pub(crate) const MINMAX: u8 = 15;
pub(crate) const SHIFT: u8 = 16;
pub(crate) const ADD: u8 = 17;
pub(crate) const MUL: u8 = 18;
pub(crate) const UNARY: u8 = 19;
pub(crate) const ATOM: u8 = 21;

/// A printed expression.
#[derive(Clone, Debug)]
pub(crate) struct P {
    pub text: String,
    pub prec: u8,
    pub ty: Ty,
}

impl P {
    fn new(text: String, prec: u8, ty: Ty) -> P {
        P { text, prec, ty }
    }

    /// The text, in parentheses if it binds looser than `min`.
    pub fn at(&self, min: u8) -> String {
        if self.prec < min { format!("({})", self.text) } else { self.text.clone() }
    }
}

/// A value that may be indexed or assigned.
#[derive(Clone)]
struct Place {
    text: String,
    prec: u8,
    ty: Ty,
    dims: usize,
    /// As [`Sym::Val`]'s, for the dimensions left to index.
    lows: Rc<[i64]>,
    assignable: bool,
    /// A structure: its fields, and the indices given so far (`q[i]` of
    /// `q[i].a`); `text` is then the instance (`P(1).`) or empty.
    fields: Option<Fields>,
}

#[derive(Clone)]
struct Fields {
    list: Rc<[(String, Sym)]>,
    /// `[i]` for each index given, in kairos (shifted) form.
    suffix: String,
    given: usize,
}

pub(crate) struct Printer<'a, 's> {
    /// Outermost first.
    pub scopes: Vec<&'a Scope>,
    pub d: &'a mut Diags<'s>,
    /// What is printed, for messages ("the guard of a transition of `P`").
    pub what: String,
    pub procs: Option<&'a Procs>,
    /// Printing a function body (where kairos copies rows of arrays).
    pub in_function: bool,
    /// Quantified variables in scope, innermost last.
    bound: Vec<(String, Sym)>,
}

impl<'a, 's> Printer<'a, 's> {
    pub fn new(scopes: Vec<&'a Scope>, d: &'a mut Diags<'s>, what: impl Into<String>) -> Self {
        Printer { scopes, d, what: what.into(), procs: None, in_function: false, bound: Vec::new() }
    }

    pub(super) fn lookup(&self, name: &str) -> Option<Sym> {
        if let Some((_, s)) = self.bound.iter().rev().find(|(n, _)| n == name) {
            return Some(s.clone());
        }
        self.scopes.iter().rev().find_map(|s| s.get(name)).cloned()
    }

    /// Names of a function body (parameters, locals), innermost last.
    pub fn push_local(&mut self, name: &str, sym: Sym) {
        self.bound.push((name.to_string(), sym));
    }

    pub fn locals_len(&self) -> usize {
        self.bound.len()
    }

    pub fn truncate_locals(&mut self, n: usize) {
        self.bound.truncate(n);
    }

    /// `f(a, b)`: a call of a user function; `void_ok` where it stands alone.
    fn call(&mut self, x: &Expr, void_ok: bool) -> R<P> {
        let EK::Call(name, args) = &x.kind else { return self.type_error(x, "expected a function call") };
        let (text, params, ret) = match self.lookup(name) {
            Some(Sym::Fn { text, params, ret }) => (text, params, ret),
            Some(Sym::Refused) => return Err(()),
            // UPPAAL's built-in run-time check, not a process.
            None if name == "assert" => {
                self.d.unsupported(x.at, x.end, "`assert(...)`, UPPAAL's run-time check");
                return Err(());
            }
            // The end of a dynamic template's instance.
            None if name == "exit" && args.is_empty() => {
                self.d.unsupported(x.at, x.end, "`exit()`, the end of a dynamic template's instance");
                return Err(());
            }
            _ => return self.type_error(x, format!("`{name}(...)` names a process; write `{name}(...).location`")),
        };
        self.call_with(x, name, &text, &params, ret, args, void_ok)
    }

    /// `P(1).f(a)` in a query: a function of a process, with its values.
    fn method(&mut self, x: &Expr, base: &Expr, name: &str, args: &[Expr]) -> R<P> {
        let (procs, inst, m, _) = self.process(x, base)?;
        let (text, params, ret) = match procs.members[m].get(name) {
            Some(Sym::Fn { text, params, ret }) => (text.clone(), params.clone(), *ret),
            Some(Sym::Refused) => return Err(()),
            _ => {
                let msg = format!("in {}: the process has no function `{name}`", self.what);
                self.d.error(x.at, x.end, "unknown-name", msg);
                return Err(());
            }
        };
        self.call_with(x, name, &format!("{inst}.{text}"), &params, ret, args, false)
    }

    /// The call of the function printed `text`, named `name` in UPPAAL.
    #[allow(clippy::too_many_arguments)]
    fn call_with(
        &mut self,
        x: &Expr,
        name: &str,
        text: &str,
        params: &[FnParam],
        ret: Option<Ty>,
        args: &[Expr],
        void_ok: bool,
    ) -> R<P> {
        if args.len() != params.len() {
            return self.type_error(x, format!("`{name}` takes {} argument(s), {} given", params.len(), args.len()));
        }
        let mut printed = Vec::new();
        for (a, (by_ref, ty, fields, dims)) in args.iter().zip(params) {
            if *dims != 0 {
                // Shapes are checked by kairos; rows are not passed yet.
                if matches!(a.kind, EK::Index(..)) {
                    let msg = format!("a row of an array passed to a function (in {})", self.what);
                    self.d.unsupported(a.at, a.end, msg).hint = Some("pass a whole array".into());
                    return Err(());
                }
                let p = self.place(a)?;
                if p.dims != *dims || p.ty != *ty || p.fields.is_some() || (*by_ref && !p.assignable) {
                    return self.type_error(a, "an array parameter needs an array of its type");
                }
                printed.push(p.text);
                continue;
            }
            if !fields.is_empty() {
                let b = self.place(a)?;
                if b.fields.is_none() || b.dims != 0 {
                    return self.type_error(a, "this parameter needs a structure");
                }
                for (f, fty) in fields.iter() {
                    let p = self.field(a, b.clone(), f)?;
                    if p.dims != 0 || p.ty != *fty || (*by_ref && !p.assignable) {
                        return self.type_error(a, "a reference parameter needs a variable of its type");
                    }
                    printed.push(p.text);
                }
                continue;
            }
            printed.push(match (by_ref, ty) {
                (true, _) => {
                    let p = self.place(a)?;
                    if !p.assignable || p.dims != 0 || p.ty != *ty {
                        return self.type_error(a, "a reference parameter needs a variable of its type");
                    }
                    p.text
                }
                (false, Ty::Bool) => self.boolean(a)?.text,
                (false, _) => self.int(a)?.text,
            });
        }
        let text = format!("{text}({})", printed.join(", "));
        match ret {
            Some(ty) => Ok(P::new(text, ATOM, ty)),
            None if void_ok => Ok(P::new(text, ATOM, Ty::Int)),
            None => self.type_error(x, format!("`{name}` is `void`: it has no value")),
        }
    }

    fn type_error<T>(&mut self, x: &Expr, msg: impl Into<String>) -> R<T> {
        let msg = format!("in {}: {}", self.what, msg.into());
        self.d.error(x.at, x.end, "type-error", msg);
        Err(())
    }

    /// An expression of any type.
    pub fn expr(&mut self, x: &Expr) -> R<P> {
        match &x.kind {
            EK::Int(v) => Ok(P::new(v.to_string(), ATOM, Ty::Int)),
            EK::Bool(b) => Ok(P::new(b.to_string(), ATOM, Ty::Bool)),
            EK::Deadlock => Ok(P::new("deadlock".into(), ATOM, Ty::Bool)),
            EK::Name(_) | EK::Index(..) | EK::Dot(..) => {
                let p = self.place(x)?;
                if p.fields.is_some() {
                    self.d.unsupported(x.at, x.end, "a structure used as a value (compared, or passed by value)");
                    return Err(());
                }
                if p.dims > 0 {
                    return self.type_error(x, "an array is used as a whole; give an index");
                }
                Ok(P::new(p.text, p.prec, p.ty))
            }
            EK::Call(..) => self.call(x, false),
            EK::Method(base, name, args) => self.method(x, base, name, args),
            EK::Neg(a) => {
                let a = self.int(a)?;
                let t = a.at(UNARY);
                let t = if t.starts_with('-') { format!("({t})") } else { t };
                Ok(P::new(format!("-{t}"), UNARY, Ty::Int))
            }
            EK::Not(a) => {
                let a = self.boolean(a)?;
                Ok(P::new(format!("!{}", a.at(UNARY)), UNARY, Ty::Bool))
            }
            EK::BitNot(a) => {
                let a = self.int(a)?;
                Ok(P::new(format!("~{}", a.at(UNARY)), UNARY, Ty::Int))
            }
            EK::Bin(op, a, b) => self.binary(*op, a, b),
            EK::Step { target, up, post } => {
                let l = self.place(target)?;
                if !l.assignable || l.ty != Ty::Int || l.dims != 0 || l.fields.is_some() {
                    return self.type_error(target, "`++` and `--` apply to integer variables and array elements");
                }
                let op = if *up { "++" } else { "--" };
                Ok(if *post {
                    P::new(format!("{}{op}", l.text), ATOM, Ty::Int)
                } else {
                    P::new(format!("{op}{}", l.text), UNARY, Ty::Int)
                })
            }
            EK::Rate(_) => {
                let msg =
                    format!("a clock rate `x'` other than a conjunct `x' == e` of an invariant (in {})", self.what);
                self.d.unsupported(x.at, x.end, msg);
                Err(())
            }
            EK::Cond(c, a, b) => {
                let c = self.boolean(c)?;
                let (pa, pb) = (self.expr(a)?, self.expr(b)?);
                let (pa, pb, ty) = if pa.ty == Ty::Bool && pb.ty == Ty::Bool {
                    (pa, pb, Ty::Bool)
                } else {
                    (self.as_int(a, pa)?, self.as_int(b, pb)?, Ty::Int)
                };
                Ok(P::new(format!("{} ? {} : {}", c.at(COND + 1), pa.at(COND), pb.at(COND)), COND, ty))
            }
            EK::Quant(forall, var, ty, body) => {
                let (lo, hi) = match self.range(ty)? {
                    Range::Int(lo, hi) => (lo, hi),
                    _ => {
                        let var = var.clone();
                        return self.type_error(x, format!("`{var}` must range over integers"));
                    }
                };
                let name = super::super::sanitize(var);
                self.bound.push((var.clone(), Sym::name(&name, Ty::Int, 0, false)));
                let body = self.boolean(body);
                self.bound.pop();
                let q = if *forall { "forall" } else { "exists" };
                Ok(P::new(format!("{q} ({name} : {lo}..{hi}) {}", body?.at(QUANT)), QUANT, Ty::Bool))
            }
        }
    }

    fn binary(&mut self, op: Bin, a: &Expr, b: &Expr) -> R<P> {
        let sym = bin_symbol(op);
        match op {
            Bin::And | Bin::Or => {
                let prec = if op == Bin::And { LAND } else { LOR };
                let (pa, pb) = (self.boolean(a)?, self.boolean(b)?);
                Ok(P::new(format!("{} {sym} {}", pa.at(prec), pb.at(prec + 1)), prec, Ty::Bool))
            }
            Bin::Imply => {
                let (pa, pb) = (self.boolean(a)?, self.boolean(b)?);
                Ok(P::new(format!("{} imply {}", pa.at(IMPLY + 1), pb.at(IMPLY)), IMPLY, Ty::Bool))
            }
            Bin::Mul
            | Bin::Div
            | Bin::Mod
            | Bin::BitAnd
            | Bin::BitOr
            | Bin::BitXor
            | Bin::Shl
            | Bin::Shr
            | Bin::Min
            | Bin::Max => {
                let prec = match op {
                    Bin::Min | Bin::Max => MINMAX,
                    Bin::BitAnd => BAND,
                    Bin::BitOr => BOR,
                    Bin::BitXor => BXOR,
                    Bin::Shl | Bin::Shr => SHIFT,
                    _ => MUL,
                };
                let (pa, pb) = (self.int(a)?, self.int(b)?);
                Ok(P::new(format!("{} {sym} {}", pa.at(prec), pb.at(prec + 1)), prec, Ty::Int))
            }
            _ => {
                let (pa, pb) = (self.expr(a)?, self.expr(b)?);
                let (prec, ty) = match op {
                    Bin::Add | Bin::Sub => (ADD, Ty::Int),
                    Bin::Eq | Bin::Ne => (EQ, Ty::Bool),
                    _ => (REL, Ty::Bool),
                };
                let clock = pa.ty == Ty::Clock || pb.ty == Ty::Clock;
                let (pa, pb) = if clock {
                    // Clock terms and constraints: kairos checks their shape.
                    let keep = |p: &mut Self, e: &Expr, q: P| if q.ty == Ty::Clock { Ok(q) } else { p.as_int(e, q) };
                    (keep(self, a, pa)?, keep(self, b, pb)?)
                } else if matches!(op, Bin::Eq | Bin::Ne) && pa.ty == Ty::Bool && pb.ty == Ty::Bool {
                    (pa, pb)
                } else {
                    (self.as_int(a, pa)?, self.as_int(b, pb)?)
                };
                let ty = if clock && prec == ADD { Ty::Clock } else { ty };
                Ok(P::new(format!("{} {sym} {}", pa.at(prec), pb.at(prec + 1)), prec, ty))
            }
        }
    }

    /// An expression used as an integer.
    pub fn int(&mut self, x: &Expr) -> R<P> {
        let p = self.expr(x)?;
        self.as_int(x, p)
    }

    fn as_int(&mut self, x: &Expr, p: P) -> R<P> {
        match p.ty {
            Ty::Int => Ok(p),
            Ty::Bool => Ok(P::new(format!("({} ? 1 : 0)", p.at(COND + 1)), ATOM, Ty::Int)),
            t => self.type_error(x, format!("{} is used where an integer is expected", t.article())),
        }
    }

    /// A term of `sup`/`inf`: a clock as it is, anything else as an
    /// integer.
    pub fn measured(&mut self, x: &Expr) -> R<P> {
        let p = self.expr(x)?;
        if p.ty == Ty::Clock { Ok(p) } else { self.as_int(x, p) }
    }

    /// An expression used as a condition.
    pub fn boolean(&mut self, x: &Expr) -> R<P> {
        let p = self.expr(x)?;
        match p.ty {
            Ty::Bool => Ok(p),
            Ty::Int => Ok(P::new(format!("{} != 0", p.at(EQ + 1)), EQ, Ty::Bool)),
            t => self.type_error(x, format!("{} is used where a condition is expected", t.article())),
        }
    }

    /// A value stored into a boolean: UPPAAL's types allow any integer there
    /// (`bool b = 1;`, `b = a[i];`) and take it as a condition does, so `0`
    /// and `1` are `false` and `true` and another integer is `e != 0`.
    pub fn stored_bool(&mut self, x: &Expr) -> R<P> {
        match x.kind {
            EK::Int(v @ (0 | 1)) => Ok(P::new((v == 1).to_string(), ATOM, Ty::Bool)),
            _ => self.boolean(x),
        }
    }

    fn place(&mut self, x: &Expr) -> R<Place> {
        match &x.kind {
            EK::Name(n) => match self.lookup(n) {
                Some(Sym::Val { text, prec, ty, dims, lows, assignable, .. }) => {
                    Ok(Place { text, prec, ty, dims, lows, assignable, fields: None })
                }
                Some(Sym::Struct { fields, dims, lows, assignable }) => Ok(Place {
                    text: String::new(),
                    prec: ATOM,
                    ty: Ty::Int,
                    dims,
                    lows,
                    assignable,
                    fields: Some(Fields { list: fields, suffix: String::new(), given: 0 }),
                }),
                Some(Sym::StructType(..)) => self.type_error(x, format!("`{n}` is a type, not a value")),
                Some(Sym::Type(..)) => self.type_error(x, format!("`{n}` is a type, not a value")),
                Some(Sym::Fn { .. }) => self.type_error(x, format!("`{n}` is a function: call it, `{n}(...)`")),
                Some(Sym::Clocks { .. }) => {
                    let msg = format!("a clock array used as a whole (in {})", self.what);
                    self.d.unsupported(x.at, x.end, msg).hint = Some(format!("name one clock: `{n}[i]`"));
                    Err(())
                }
                Some(Sym::Refused) => Err(()),
                None => {
                    let msg = format!("in {}: `{n}` is not declared", self.what);
                    self.d.error(x.at, x.end, "unknown-name", msg);
                    Err(())
                }
            },
            EK::Index(base, i) => {
                if let Some(clock) = self.clock_element(x) {
                    let text = clock?;
                    let lows = Rc::from([]);
                    return Ok(Place {
                        text,
                        prec: ATOM,
                        ty: Ty::Clock,
                        dims: 0,
                        lows,
                        assignable: true,
                        fields: None,
                    });
                }
                let b = self.place(base)?;
                if b.dims == 0 {
                    return self.type_error(x, "this is not an array");
                }
                let i = self.int(i)?;
                let (low, lows) = match b.lows.split_first() {
                    Some((&low, rest)) => (low, Rc::from(rest)),
                    None => (0, b.lows.clone()),
                };
                let index = shifted(&i, low);
                if let Some(f) = b.fields {
                    let fields = Fields { suffix: format!("{}[{index}]", f.suffix), given: f.given + 1, ..f };
                    return Ok(Place { dims: b.dims - 1, lows, fields: Some(fields), ..b });
                }
                Ok(Place { text: format!("{}[{index}]", b.text), prec: ATOM, ty: b.ty, dims: b.dims - 1, lows, ..b })
            }
            EK::Dot(base, member) if self.is_structure(base) => {
                let b = self.place(base)?;
                self.field(x, b, member)
            }
            EK::Dot(base, member) => self.member(x, base, member),
            _ => {
                let p = self.expr(x)?;
                Ok(Place {
                    text: p.text,
                    prec: p.prec,
                    ty: p.ty,
                    dims: 0,
                    lows: Rc::from([]),
                    assignable: false,
                    fields: None,
                })
            }
        }
    }

    /// Whether `x` (the left of a `.`) is a structure rather than a
    /// process: a variable of a `struct` type, indexed or not, or a member.
    fn is_structure(&self, x: &Expr) -> bool {
        match &x.kind {
            EK::Name(n) => matches!(self.lookup(n), Some(Sym::Struct { .. })),
            EK::Index(b, _) => self.is_structure(b),
            EK::Dot(..) => true,
            _ => false,
        }
    }

    /// The field `member` of the structure `b`.
    fn field(&mut self, x: &Expr, b: Place, member: &str) -> R<Place> {
        let Some(f) = b.fields else {
            return self.type_error(x, format!("`.{member}`: this is not a structure"));
        };
        if b.dims != 0 {
            return self.type_error(x, "an array of structures needs an index before `.`");
        }
        let rest = |lows: &Rc<[i64]>| -> Rc<[i64]> { lows.get(f.given..).map_or_else(|| Rc::from([]), Rc::from) };
        match f.list.iter().find(|(n, _)| n == member).map(|(_, s)| s) {
            Some(Sym::Val { text, ty, dims, lows, assignable, .. }) => Ok(Place {
                text: format!("{}{text}{}", b.text, f.suffix),
                prec: ATOM,
                ty: *ty,
                dims: dims - f.given,
                lows: rest(lows),
                assignable: *assignable && b.assignable,
                fields: None,
            }),
            Some(Sym::Struct { fields, dims, lows, assignable }) => Ok(Place {
                text: b.text,
                prec: ATOM,
                ty: Ty::Int,
                dims: dims - f.given,
                lows: rest(lows),
                assignable: *assignable && b.assignable,
                fields: Some(Fields { list: fields.clone(), ..f }),
            }),
            _ => {
                let msg = format!("in {}: the structure has no field `{member}`", self.what);
                self.d.error(x.at, x.end, "unknown-name", msg);
                Err(())
            }
        }
    }

    /// The processes, the kairos text of the process `base` names in the
    /// query `x`, the index of its members, and its UPPAAL name.
    fn process<'e>(&mut self, x: &Expr, base: &'e Expr) -> R<(&'a Procs, String, usize, &'e str)> {
        let Some(procs) = self.procs else {
            self.d.unsupported(x.at, x.end, "a structure member (`.`)");
            return Err(());
        };
        let (name, args) = match &base.kind {
            EK::Name(n) => (n, &[][..]),
            EK::Call(n, args) => (n, args.as_slice()),
            _ => return self.type_error(base, "expected a process name before `.`"),
        };
        let Some((text, arity, m)) = procs.by_name.get(name).cloned() else {
            let known: Vec<&str> = procs.by_name.keys().map(|s| s.as_str()).collect();
            let msg = format!("in {}: `{name}` is not a process of the system", self.what);
            self.d.error(base.at, base.end, "unknown-name", msg).hint =
                Some(format!("the processes are: {}", known.join(", ")));
            return Err(());
        };
        if args.len() != arity {
            return self.type_error(base, format!("`{name}` takes {arity} argument(s), {} given", args.len()));
        }
        let inst = if arity == 0 {
            text
        } else {
            let mut printed = Vec::new();
            for a in args {
                printed.push(self.int(a)?.text);
            }
            format!("{text}({})", printed.join(", "))
        };
        Ok((procs, inst, m, name))
    }

    /// `P.m`, `P(1).m` in queries.
    fn member(&mut self, x: &Expr, base: &Expr, member: &str) -> R<Place> {
        let mut root = base;
        while let EK::Index(b, _) | EK::Dot(b, _) = &root.kind {
            root = b;
        }
        if let EK::Name(n) = &root.kind
            && matches!(self.lookup(n), Some(Sym::Refused))
        {
            return Err(());
        }
        let (procs, inst, m, name) = self.process(x, base)?;
        match procs.members[m].get(member) {
            Some(Sym::Val { text, ty, dims, lows, .. }) => Ok(Place {
                text: format!("{inst}.{text}"),
                prec: ATOM,
                ty: *ty,
                dims: *dims,
                lows: lows.clone(),
                assignable: false,
                fields: None,
            }),
            Some(Sym::Struct { fields, dims, lows, .. }) => Ok(Place {
                text: format!("{inst}."),
                prec: ATOM,
                ty: Ty::Int,
                dims: *dims,
                lows: lows.clone(),
                assignable: false,
                fields: Some(Fields { list: fields.clone(), suffix: String::new(), given: 0 }),
            }),
            Some(Sym::Refused) => Err(()),
            _ => {
                let msg = format!("in {}: `{name}` has no location or variable `{member}`", self.what);
                self.d.error(x.at, x.end, "unknown-name", msg);
                Err(())
            }
        }
    }

    /// The range of values of a type (parameters, selects, quantifiers): an
    /// array type is not supported there.
    pub fn range(&mut self, ty: &Type) -> R<Range> {
        let (range, dims) = self.element_range(ty)?;
        if !dims.is_empty() {
            let msg = format!("not supported yet: an array type here (in {}); only variables may have one", self.what);
            self.d.error(ty.at, ty.end, "unsupported", msg);
            return Err(());
        }
        Ok(range)
    }

    /// The range of the elements of a type, and its dimensions when it is an
    /// array type (a variable's declaration adds them after its own).
    pub fn element_range(&mut self, ty: &Type) -> R<(Range, Rc<[String]>)> {
        Ok(match &ty.base {
            Base::Int(None) => (Range::Int("-32768".into(), "32767".into()), Rc::from([])),
            Base::Int(Some((lo, hi))) => (Range::Int(self.int(lo)?.text, self.int(hi)?.text), Rc::from([])),
            Base::Bool => (Range::Bool, Rc::from([])),
            Base::Clock | Base::Chan => (Range::Other, Rc::from([])),
            Base::Struct(_) => return self.structure_here(ty),
            Base::Named(n) => match self.lookup(n) {
                Some(Sym::Type(r, _, dims)) => (r, dims),
                Some(Sym::StructType(..)) => return self.structure_here(ty),
                Some(Sym::Refused) => return Err(()),
                _ => {
                    let msg = format!("in {}: `{n}` is not a declared type", self.what);
                    self.d.error(ty.at, ty.end, "unknown-name", msg);
                    return Err(());
                }
            },
        })
    }

    fn structure_here<T>(&mut self, ty: &Type) -> R<T> {
        self.d.unsupported(ty.at, ty.end, format!("a `struct` type here (in {})", self.what)).hint =
            Some("kairos flattens variables of a `struct` type and reference parameters to them".into());
        Err(())
    }

    /// The fields of a `struct` type (written out or named by a `typedef`),
    /// not an array of them.
    pub fn struct_fields(&self, ty: &Type) -> Option<Rc<[super::parse::VarDecl]>> {
        self.struct_array(ty).filter(|(_, dims)| dims.is_empty()).map(|(f, _)| f)
    }

    /// The fields of a `struct` type or of an array type of structures, and
    /// the array's dimensions.
    pub fn struct_array(&self, ty: &Type) -> Option<StructArray> {
        match &ty.base {
            Base::Struct(f) => Some((f.clone(), Rc::from([]))),
            Base::Named(n) => match self.lookup(n) {
                Some(Sym::StructType(f, dims)) => Some((f, dims)),
                _ => None,
            },
            _ => None,
        }
    }

    /// What an argument gives a parameter: a variable, clock or channel
    /// (`by_ref`), or a value.
    pub fn reference(&mut self, x: &Expr, by_ref: bool) -> R<Sym> {
        if by_ref {
            if !matches!(x.kind, EK::Name(_) | EK::Index(..)) {
                return self.type_error(x, "a reference parameter needs a variable, clock or channel");
            }
            let p = self.place(x)?;
            return Ok(Sym::Val {
                text: p.text,
                prec: p.prec,
                ty: p.ty,
                dims: p.dims,
                lows: p.lows,
                assignable: p.assignable,
                value: None,
            });
        }
        let p = self.expr(x)?;
        Ok(Sym::value_text(p.text, p.prec, p.ty))
    }

    /// A channel of a synchronisation: `c`, `c[e]`.
    pub fn channel(&mut self, x: &Expr) -> R<String> {
        let p = self.place(x)?;
        if p.ty != Ty::Chan || p.dims != 0 {
            return self.type_error(x, "a synchronisation needs a channel (an array of channels needs an index)");
        }
        Ok(p.text)
    }

    /// One assignment (`++`, `*=`, ... made explicit); a structure's is
    /// one per field.
    pub fn assign(&mut self, a: &Assign) -> R<Vec<String>> {
        if a.op == AssignOp::Call {
            return Ok(vec![self.call(&a.lhs, true)?.text]);
        }
        let l = self.place(&a.lhs)?;
        if l.fields.is_some() {
            if a.op != AssignOp::Set {
                return self.type_error(&a.lhs, "a structure can only be assigned a structure: `s = t`");
            }
            let r = self.place(&a.rhs)?;
            let mut out = Vec::new();
            self.copy(a, l, r, &mut out)?;
            return Ok(out);
        }
        self.assign_one(a, l).map(|t| vec![t])
    }

    /// `l = r` of structures of the same type, field by field.
    fn copy(&mut self, a: &Assign, l: Place, r: Place, out: &mut Vec<String>) -> R<()> {
        let same = |p: &Place, q: &Place| match (&p.fields, &q.fields) {
            (Some(f), Some(g)) => f.list.iter().map(|x| &x.0).eq(g.list.iter().map(|x| &x.0)),
            _ => false,
        };
        if !l.assignable || !same(&l, &r) || l.dims != 0 || r.dims != 0 {
            return self.type_error(&a.lhs, "a structure is assigned from a structure of the same type only");
        }
        let names: Vec<String> = l.fields.iter().flat_map(|f| f.list.iter().map(|x| x.0.clone())).collect();
        for n in names {
            let (lf, rf) = (self.field(&a.lhs, l.clone(), &n)?, self.field(&a.rhs, r.clone(), &n)?);
            if lf.fields.is_some() {
                self.copy(a, lf, rf, out)?;
            } else if lf.dims != 0 {
                let msg = format!("an array field copied with its structure (in {})", self.what);
                self.d.unsupported(a.lhs.at, a.lhs.end, msg).hint = Some("copy the fields one by one".into());
                return Err(());
            } else {
                out.push(format!("{} = {}", lf.text, rf.text));
            }
        }
        Ok(())
    }

    fn assign_one(&mut self, a: &Assign, l: Place) -> R<String> {
        if !l.assignable {
            let x = &a.lhs;
            // By-value parameters the template assigns are local copies
            // (see `template`): what is left is constant in UPPAAL too.
            let msg = format!(
                "in {}: `{}` cannot be assigned (a constant, a `const` parameter or a select variable)",
                self.what, l.text
            );
            self.d.error(x.at, x.end, "type-error", msg);
            return Err(());
        }
        if l.dims != 0 {
            // UPPAAL copies arrays of the same type, and so does kairos
            // (which checks the shapes), rows too in function bodies.
            if !self.in_function && [&a.lhs, &a.rhs].iter().any(|x| matches!(x.kind, EK::Index(..))) {
                let msg = format!("a row of an array assigned as a whole (in {})", self.what);
                self.d.unsupported(a.lhs.at, a.rhs.end, msg).hint = Some("assign its elements one by one".into());
                return Err(());
            }
            let r = self.place(&a.rhs)?;
            if a.op != AssignOp::Set || r.dims != l.dims || r.fields.is_some() {
                return self.type_error(&a.lhs, "an array is assigned an array of the same type only: `a = b`");
            }
            return Ok(format!("{} = {}", l.text, r.text));
        }
        match (l.ty, a.op) {
            (Ty::Chan, _) => self.type_error(&a.lhs, "a channel cannot be assigned"),
            (Ty::Bool, AssignOp::Set) => Ok(format!("{} = {}", l.text, self.stored_bool(&a.rhs)?.text)),
            (Ty::Bool, _) => self.type_error(&a.lhs, "arithmetic assignment to a boolean"),
            (Ty::Clock, AssignOp::Set) => Ok(format!("{} = {}", l.text, self.int(&a.rhs)?.text)),
            (Ty::Clock, _) => self.type_error(&a.lhs, "a clock can only be reset: `x = 0`"),
            (Ty::Int, op) => {
                let r = self.int(&a.rhs)?;
                Ok(match op {
                    AssignOp::Set => format!("{} = {}", l.text, r.text),
                    AssignOp::With(op) => format!("{} {}= {}", l.text, bin_symbol(op), r.text),
                    AssignOp::Call => unreachable!("calls are printed above"),
                })
            }
        }
    }
}

/// The kairos spelling of a binary operator (UPPAAL's, but `imply`).
fn bin_symbol(op: Bin) -> &'static str {
    match op {
        Bin::Add => "+",
        Bin::Sub => "-",
        Bin::Mul => "*",
        Bin::Div => "/",
        Bin::Mod => "%",
        Bin::BitAnd => "&",
        Bin::BitOr => "|",
        Bin::BitXor => "^",
        Bin::Shl => "<<",
        Bin::Shr => ">>",
        Bin::Min => "<?",
        Bin::Max => ">?",
        Bin::Eq => "==",
        Bin::Ne => "!=",
        Bin::Lt => "<",
        Bin::Le => "<=",
        Bin::Gt => ">",
        Bin::Ge => ">=",
        Bin::And => "&&",
        Bin::Or => "||",
        Bin::Imply => "imply",
    }
}

/// The kairos index of UPPAAL's index `i` into a dimension whose first
/// index is `low`: `i - low` (folded when `i` is a literal).
fn shifted(i: &P, low: i64) -> String {
    if low == 0 {
        return i.text.clone();
    }
    match i.text.parse::<i64>() {
        Ok(v) => (v - low).to_string(),
        Err(_) if low > 0 => format!("{} - {low}", i.at(ADD)),
        Err(_) => format!("{} + {}", i.at(ADD), -low),
    }
}
