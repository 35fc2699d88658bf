//! TChecker's expressions and statements (the values of the `provided:`,
//! `invariant:` and `do:` attributes), parsed with TChecker's grammar and
//! printed as kairos expressions with the same meaning.
//!
//! TChecker's grammar differs from C (and kairos) in three places, all of
//! which the printer makes explicit:
//! - `!` applies to a whole atomic formula: `!a == b` is `!(a == b)`;
//! - a comparison chain `a < b <= c` (only `<` and `<=`) is `a < b && b <= c`;
//! - an integer term used as a formula is true when it is not 0.
//!
//! `(if c then a else b)` is printed `(c ? a : b)`. Every error is a
//! diagnostic at its position in the `.tck` file; nothing here panics or
//! recurses without bound (nesting is capped).

use super::tchecker::{Diags, Sym};

/// Deepest nesting of parentheses and prefix operators accepted.
const MAX_DEPTH: usize = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rel {
    Eq,
    Ne,
    Lt,
    Le,
    Ge,
    Gt,
}

impl Rel {
    fn text(self) -> &'static str {
        match self {
            Rel::Eq => "==",
            Rel::Ne => "!=",
            Rel::Lt => "<",
            Rel::Le => "<=",
            Rel::Ge => ">=",
            Rel::Gt => ">",
        }
    }

    /// `a op b` is `b flip(op) a`.
    fn flip(self) -> Rel {
        match self {
            Rel::Lt => Rel::Gt,
            Rel::Le => Rel::Ge,
            Rel::Gt => Rel::Lt,
            Rel::Ge => Rel::Le,
            other => other,
        }
    }

    /// Precedence of the printed operator (kairos: equality looser than order).
    fn prec(self) -> u8 {
        match self {
            Rel::Eq | Rel::Ne => EQ,
            _ => REL,
        }
    }
}

// Precedences of printed kairos expressions, loosest first.
const AND: u8 = 3;
const EQ: u8 = 4;
const REL: u8 = 5;
const ADD: u8 = 6;
const MUL: u8 = 7;
const UNARY: u8 = 8;
const ATOM: u8 = 9;

#[derive(Clone, Debug)]
pub(super) struct Node {
    pub kind: Kind,
    /// Character index in the `.tck` file, and length in characters.
    pub at: usize,
    pub len: usize,
}

#[derive(Clone, Debug)]
pub(super) enum Kind {
    Int(i64),
    Var(String, Option<Box<Node>>),
    Neg(Box<Node>),
    /// `a op b op c ...` with the operators of one precedence level, left
    /// associative (a chain, so that long sums never make deep trees).
    Arith(Box<Node>, Vec<(Arith, Node)>),
    Cmp(Rel, Box<Node>, Box<Node>),
    /// A conjunction of two or more formulas.
    And(Vec<Node>),
    Not(Box<Node>),
    Paren(Box<Node>),
    Ite(Box<Node>, Box<Node>, Box<Node>),
}

pub(super) enum Stmt {
    Nop,
    Assign(Node, Node),
}

// ---------------------------------------------------------------- lexer

#[derive(Clone, Debug, PartialEq)]
enum Tk {
    Int(i64),
    Id(String),
    Kw(&'static str),
    Op(&'static str),
    End,
}

#[derive(Clone, Debug)]
struct Token {
    tk: Tk,
    at: usize,
    len: usize,
}

const KEYWORDS: &[&str] = &["if", "then", "else", "end", "while", "do", "nop", "local"];
const OPS: &[&str] =
    &["&&", "==", "!=", "<=", ">=", "=", "(", ")", "[", "]", ";", "+", "-", "*", "/", "%", "!", "<", ">"];

fn describe(tk: &Tk) -> String {
    match tk {
        Tk::Int(v) => format!("`{v}`"),
        Tk::Id(s) => format!("`{s}`"),
        Tk::Kw(s) | Tk::Op(s) => format!("`{s}`"),
        Tk::End => "the end of the text".into(),
    }
}

fn lex(chars: &[char], base: usize, what: &str, d: &mut Diags) -> Option<Vec<Token>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_digit() {
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            match text.parse::<i64>() {
                Ok(v) if v <= i32::MAX as i64 => out.push(Token { tk: Tk::Int(v), at: base + start, len: i - start }),
                _ => {
                    d.error(
                        base + start,
                        i - start,
                        "bad-value",
                        format!("the integer {text} in {what} is out of TChecker's range (32-bit)"),
                    );
                    return None;
                }
            }
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            let tk = match KEYWORDS.iter().find(|k| **k == text) {
                Some(k) => Tk::Kw(k),
                None => Tk::Id(text),
            };
            out.push(Token { tk, at: base + start, len: i - start });
            continue;
        }
        let op = OPS.iter().find(|op| {
            let n = op.chars().count();
            i + n <= chars.len() && chars[i..i + n].iter().copied().eq(op.chars())
        });
        match op {
            Some(op) => {
                let n = op.chars().count();
                out.push(Token { tk: Tk::Op(op), at: base + i, len: n });
                i += n;
            }
            None => {
                let d = d.error(base + i, 1, "syntax-error", format!("unexpected character `{c}` in {what}"));
                if c == '|' {
                    d.hint = Some("TChecker's guards and invariants are conjunctions: there is no `||`".into());
                }
                return None;
            }
        }
    }
    out.push(Token { tk: Tk::End, at: base + chars.len(), len: 0 });
    Some(out)
}

// ---------------------------------------------------------------- parser

struct Parser<'a, 'd> {
    toks: Vec<Token>,
    i: usize,
    depth: usize,
    what: &'a str,
    d: &'a mut Diags<'d>,
}

type R<T> = Result<T, ()>;

fn node(kind: Kind, at: usize, end: usize) -> Node {
    Node { kind, at, len: end.saturating_sub(at) }
}

fn end_of(n: &Node) -> usize {
    n.at + n.len
}

impl Parser<'_, '_> {
    fn peek(&self) -> &Token {
        &self.toks[self.i.min(self.toks.len() - 1)]
    }

    fn is_op(&self, op: &str) -> bool {
        matches!(&self.peek().tk, Tk::Op(o) if *o == op)
    }

    fn is_kw(&self, kw: &str) -> bool {
        matches!(&self.peek().tk, Tk::Kw(k) if *k == kw)
    }

    fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        if self.i < self.toks.len() - 1 {
            self.i += 1;
        }
        t
    }

    fn eat_op(&mut self, op: &str) -> bool {
        if self.is_op(op) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn fail<T>(&mut self, expected: &str) -> R<T> {
        let t = self.peek().clone();
        self.d.error(
            t.at,
            t.len.max(1),
            "syntax-error",
            format!("syntax error in {}: expected {expected}, found {}", self.what, describe(&t.tk)),
        );
        Err(())
    }

    fn expect_op(&mut self, op: &str) -> R<Token> {
        if self.is_op(op) { Ok(self.bump()) } else { self.fail(&format!("`{op}`")) }
    }

    fn expect_kw(&mut self, kw: &str) -> R<Token> {
        if self.is_kw(kw) { Ok(self.bump()) } else { self.fail(&format!("`{kw}`")) }
    }

    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let t = self.peek().clone();
            self.d.error(t.at, t.len.max(1), "too-deep", format!("{} is nested more than {MAX_DEPTH} deep", self.what));
            return Err(());
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// conjunctive_formula: atomic (`&&` atomic)*.
    fn conj(&mut self) -> R<Node> {
        self.enter()?;
        let mut atoms = vec![self.atomic()?];
        while self.eat_op("&&") {
            atoms.push(self.atomic()?);
        }
        self.leave();
        if atoms.len() == 1 {
            return Ok(atoms.pop().expect("one atom"));
        }
        let (at, end) = (atoms[0].at, atoms.last().map_or(0, end_of));
        Ok(node(Kind::And(atoms), at, end))
    }

    /// atomic_formula: `!`* (term | term op term | term op term op term).
    fn atomic(&mut self) -> R<Node> {
        let mut nots = Vec::new();
        while self.is_op("!") {
            nots.push(self.bump().at);
            self.enter()?;
        }
        let mut out = self.comparison()?;
        while let Some(at) = nots.pop() {
            self.leave();
            let end = end_of(&out);
            out = node(Kind::Not(Box::new(out)), at, end);
        }
        Ok(out)
    }

    fn rel(&self) -> Option<Rel> {
        match &self.peek().tk {
            Tk::Op("==") => Some(Rel::Eq),
            Tk::Op("!=") => Some(Rel::Ne),
            Tk::Op("<") => Some(Rel::Lt),
            Tk::Op("<=") => Some(Rel::Le),
            Tk::Op(">=") => Some(Rel::Ge),
            Tk::Op(">") => Some(Rel::Gt),
            _ => None,
        }
    }

    fn comparison(&mut self) -> R<Node> {
        let a = self.term(0)?;
        let Some(op1) = self.rel() else { return Ok(a) };
        let op1_tok = self.bump();
        let b = self.term(0)?;
        let first = node(Kind::Cmp(op1, Box::new(a.clone()), Box::new(b.clone())), a.at, end_of(&b));
        let Some(op2) = self.rel() else { return Ok(first) };
        let op2_tok = self.bump();
        let is_less = |r: Rel| matches!(r, Rel::Lt | Rel::Le);
        if !is_less(op1) || !is_less(op2) {
            let at = if is_less(op1) { op2_tok.at } else { op1_tok.at };
            self.d.error(
                at,
                2,
                "syntax-error",
                format!("in {}, only `<` and `<=` may be chained (`a < b <= c`)", self.what),
            );
            return Err(());
        }
        let c = self.term(0)?;
        if self.rel().is_some() {
            return self.fail("`&&` or the end (at most two comparisons are chained)");
        }
        let second = node(Kind::Cmp(op2, Box::new(b.clone()), Box::new(c.clone())), b.at, end_of(&c));
        Ok(node(Kind::And(vec![first, second]), a.at, end_of(&c)))
    }

    fn arith(&self, level: u8) -> Option<Arith> {
        match (&self.peek().tk, level) {
            (Tk::Op("+"), 1) => Some(Arith::Add),
            (Tk::Op("-"), 1) => Some(Arith::Sub),
            (Tk::Op("*"), 2) => Some(Arith::Mul),
            (Tk::Op("/"), 2) => Some(Arith::Div),
            (Tk::Op("%"), 2) => Some(Arith::Rem),
            _ => None,
        }
    }

    /// A term: sums of products of unary terms, left associative.
    fn term(&mut self, level: u8) -> R<Node> {
        let level = level.max(1);
        self.enter()?;
        let first = if level >= 2 { self.unary()? } else { self.term(level + 1)? };
        let mut rest = Vec::new();
        while let Some(op) = self.arith(level.max(1)) {
            self.bump();
            rest.push((op, if level >= 2 { self.unary()? } else { self.term(level + 1)? }));
        }
        self.leave();
        if rest.is_empty() {
            return Ok(first);
        }
        let (at, end) = (first.at, rest.last().map_or(0, |(_, n)| end_of(n)));
        Ok(node(Kind::Arith(Box::new(first), rest), at, end))
    }

    fn unary(&mut self) -> R<Node> {
        if self.is_op("-") {
            let at = self.bump().at;
            self.enter()?;
            let a = self.unary()?;
            self.leave();
            let end = end_of(&a);
            return Ok(node(Kind::Neg(Box::new(a)), at, end));
        }
        self.primary()
    }

    fn primary(&mut self) -> R<Node> {
        let t = self.peek().clone();
        match t.tk {
            Tk::Int(v) => {
                self.bump();
                Ok(node(Kind::Int(v), t.at, t.at + t.len))
            }
            Tk::Id(name) => {
                self.bump();
                if self.eat_op("[") {
                    let idx = self.term(0)?;
                    let close = self.expect_op("]")?;
                    return Ok(node(Kind::Var(name, Some(Box::new(idx))), t.at, close.at + 1));
                }
                Ok(node(Kind::Var(name, None), t.at, t.at + t.len))
            }
            Tk::Op("(") => {
                self.bump();
                self.enter()?;
                let inner = self.conj()?;
                self.leave();
                let close = self.expect_op(")")?;
                Ok(node(Kind::Paren(Box::new(inner)), t.at, close.at + 1))
            }
            Tk::Kw("if") => {
                self.bump();
                self.enter()?;
                let c = self.conj()?;
                self.expect_kw("then")?;
                let a = self.term(0)?;
                self.expect_kw("else")?;
                let b = self.term(0)?;
                self.leave();
                let end = end_of(&b);
                Ok(node(Kind::Ite(Box::new(c), Box::new(a), Box::new(b)), t.at, end))
            }
            _ => self.fail("a number, a variable or `(`"),
        }
    }

    fn statements(&mut self) -> R<Vec<Stmt>> {
        let mut out = Vec::new();
        if self.peek().tk == Tk::End {
            return Ok(out);
        }
        loop {
            out.push(self.statement()?);
            if self.eat_op(";") {
                if self.peek().tk == Tk::End {
                    break;
                }
                continue;
            }
            if self.peek().tk == Tk::End {
                break;
            }
            return self.fail("`;` or the end of the statements");
        }
        Ok(out)
    }

    fn statement(&mut self) -> R<Stmt> {
        let t = self.peek().clone();
        match &t.tk {
            Tk::Kw("nop") => {
                self.bump();
                Ok(Stmt::Nop)
            }
            Tk::Kw(kw @ ("if" | "while" | "local")) => {
                let what = match *kw {
                    "if" => "`if` statements",
                    "while" => "`while` loops",
                    _ => "`local` variables",
                };
                self.d
                    .error(t.at, t.len, "unsupported", format!("{what} are not supported yet by kairos updates"))
                    .hint = Some("kairos updates are sequences of assignments; split the edge by cases instead".into());
                Err(())
            }
            Tk::Id(_) => {
                let lhs = self.primary()?;
                self.expect_op("=")?;
                let rhs = self.term(0)?;
                Ok(Stmt::Assign(lhs, rhs))
            }
            _ => self.fail("an assignment `x = e` or `nop`"),
        }
    }
}

/// Parses a formula (`provided:`, `invariant:`); `base` is the character
/// index of `chars[0]` in the file.
pub(super) fn parse_formula(chars: &[char], base: usize, what: &str, d: &mut Diags) -> Option<Node> {
    let toks = lex(chars, base, what, d)?;
    let mut p = Parser { toks, i: 0, depth: 0, what, d };
    let n = p.conj().ok()?;
    if p.peek().tk != Tk::End {
        let hint_assign = p.is_op("=");
        p.fail::<()>("`&&` or the end of the formula").ok();
        if hint_assign {
            p.d.last().hint = Some("comparison is `==`; assignments go in `do:`".into());
        }
        return None;
    }
    Some(n)
}

/// Parses statements (`do:`).
pub(super) fn parse_statements(chars: &[char], base: usize, what: &str, d: &mut Diags) -> Option<Vec<Stmt>> {
    let toks = lex(chars, base, what, d)?;
    let mut p = Parser { toks, i: 0, depth: 0, what, d };
    p.statements().ok()
}

// ---------------------------------------------------------------- printer

/// What an expression is printed for: invariants accept only upper bounds on
/// clocks (FORMAT.md, section 1).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Context {
    Guard,
    Invariant,
}

/// The printer: names resolved through `lookup`, errors into `d`.
pub(super) struct Printer<'a, 'd> {
    pub lookup: &'a dyn Fn(&str) -> Option<Sym>,
    pub d: &'a mut Diags<'d>,
    pub what: &'a str,
}

fn strip(n: &Node) -> &Node {
    let mut n = n;
    while let Kind::Paren(inner) = &n.kind {
        n = inner;
    }
    n
}

fn paren(s: (String, u8), min: u8) -> String {
    if s.1 < min { format!("({})", s.0) } else { s.0 }
}

impl Printer<'_, '_> {
    fn is_clock(&self, name: &str) -> bool {
        matches!((self.lookup)(name), Some(Sym::Clock { .. }))
    }

    fn mentions_clock(&self, n: &Node) -> bool {
        match &n.kind {
            Kind::Int(_) => false,
            Kind::Var(name, idx) => self.is_clock(name) || idx.as_ref().is_some_and(|i| self.mentions_clock(i)),
            Kind::Neg(a) | Kind::Not(a) | Kind::Paren(a) => self.mentions_clock(a),
            Kind::Arith(a, rest) => self.mentions_clock(a) || rest.iter().any(|(_, b)| self.mentions_clock(b)),
            Kind::Cmp(_, a, b) => self.mentions_clock(a) || self.mentions_clock(b),
            Kind::And(items) => items.iter().any(|a| self.mentions_clock(a)),
            Kind::Ite(c, a, b) => self.mentions_clock(c) || self.mentions_clock(a) || self.mentions_clock(b),
        }
    }

    /// The value of a term made of integer literals only; `Ok(None)` when it
    /// is not one.
    pub(super) fn constant(&mut self, n: &Node) -> R<Option<i64>> {
        let v = match &n.kind {
            Kind::Int(v) => Some(*v),
            Kind::Paren(a) => self.constant(a)?,
            Kind::Neg(a) => match self.constant(a)? {
                Some(v) => Some(v.checked_neg().ok_or_else(|| self.overflow(n))?),
                None => None,
            },
            Kind::Arith(a, rest) => {
                let Some(mut x) = self.constant(a)? else { return Ok(None) };
                for (op, b) in rest {
                    let Some(y) = self.constant(b)? else { return Ok(None) };
                    if matches!(op, Arith::Div | Arith::Rem) && y == 0 {
                        self.d.error(n.at, n.len, "division-by-zero", format!("division by zero in {}", self.what));
                        return Err(());
                    }
                    let r = match op {
                        Arith::Add => x.checked_add(y),
                        Arith::Sub => x.checked_sub(y),
                        Arith::Mul => x.checked_mul(y),
                        Arith::Div => x.checked_div(y),
                        Arith::Rem => x.checked_rem(y),
                    };
                    x = r.ok_or_else(|| self.overflow(n))?;
                }
                Some(x)
            }
            _ => None,
        };
        Ok(v)
    }

    fn overflow(&mut self, n: &Node) {
        self.d.error(n.at, n.len, "overflow", format!("integer overflow in {}", self.what));
    }

    /// A clock `x`, `x[k]` (k constant): its kairos name.
    fn clock(&mut self, n: &Node) -> R<Option<String>> {
        let n = strip(n);
        let Kind::Var(name, idx) = &n.kind else { return Ok(None) };
        let Some(Sym::Clock { names }) = (self.lookup)(name) else { return Ok(None) };
        let names = names.to_vec();
        let k = match idx {
            None if names.len() == 1 => 0,
            None => {
                self.d.error(
                    n.at,
                    n.len,
                    "unsupported",
                    format!("the clock array `{name}` is used as a whole in {}", self.what),
                );
                return Err(());
            }
            Some(i) => match self.constant(i)? {
                Some(k) if k >= 0 && (k as u64) < names.len() as u64 => k as usize,
                Some(k) => {
                    self.d.error(
                        i.at,
                        i.len,
                        "index-out-of-bounds",
                        format!("index {k} is out of the bounds of the clock array `{name}` (size {})", names.len()),
                    );
                    return Err(());
                }
                None => {
                    self.d
                        .error(
                            i.at,
                            i.len,
                            "unsupported",
                            format!("the clock array `{name}` is indexed by a non-constant expression"),
                        )
                        .hint = Some(format!(
                        "kairos imports a clock array as separate clocks `{name}_0`, `{name}_1`, ...: every index must be a constant"
                    ));
                    return Err(());
                }
            },
        };
        Ok(Some(names[k].clone()))
    }

    /// A clock term of a comparison: `x` or `x - y`; `Ok(None)` when `n`
    /// mentions no clock.
    fn clock_term(&mut self, n: &Node) -> R<Option<(String, u8)>> {
        if !self.mentions_clock(n) {
            return Ok(None);
        }
        if let Some(x) = self.clock(n)? {
            return Ok(Some((x, ATOM)));
        }
        let s = strip(n);
        if let Kind::Arith(a, rest) = &s.kind
            && let [(Arith::Sub, b)] = rest.as_slice()
            && let Some(x) = self.clock(a)?
            && let Some(y) = self.clock(b)?
        {
            return Ok(Some((format!("{x} - {y}"), ADD)));
        }
        self.d.error(
            n.at,
            n.len,
            "type-error",
            format!("in {}, a clock may only appear as `x` or `x - y` compared with an integer term", self.what),
        );
        Err(())
    }

    fn no_clock(&mut self, n: &Node) -> R<()> {
        if self.mentions_clock(n) {
            self.d.error(
                n.at,
                n.len,
                "type-error",
                format!("in {}, a clock may only appear as `x` or `x - y` compared with an integer term", self.what),
            );
            return Err(());
        }
        Ok(())
    }

    fn var(&mut self, n: &Node, name: &str, idx: &Option<Box<Node>>) -> R<(String, u8)> {
        match (self.lookup)(name) {
            None => {
                self.d.error(
                    n.at,
                    name.chars().count(),
                    "unknown-name",
                    format!("`{name}` is not a declared variable"),
                );
                Err(())
            }
            Some(Sym::Clock { .. }) => {
                self.no_clock(n)?;
                Err(())
            }
            Some(Sym::Int { name: kname, size }) => match idx {
                None if size == 1 => Ok((kname, ATOM)),
                None => {
                    self.d.error(
                        n.at,
                        n.len,
                        "type-error",
                        format!("`{name}` is an array of {size} integers: give an index, `{name}[i]`"),
                    );
                    Err(())
                }
                Some(_) if size == 1 => {
                    self.d.error(n.at, n.len, "type-error", format!("`{name}` is an integer, not an array"));
                    Err(())
                }
                Some(i) => {
                    let i = self.term(i)?;
                    Ok((format!("{kname}[{}]", i.0), ATOM))
                }
            },
        }
    }

    /// An integer term.
    pub(super) fn term(&mut self, n: &Node) -> R<(String, u8)> {
        match &n.kind {
            Kind::Int(v) => Ok((v.to_string(), ATOM)),
            Kind::Var(name, idx) => self.var(n, name, idx),
            Kind::Paren(a) => match &strip(a).kind {
                Kind::Cmp(..) | Kind::And(..) | Kind::Not(..) => self.not_a_term(a),
                // `(if c then a else b)` prints with its own parentheses.
                Kind::Ite(..) => self.term(a),
                _ => Ok((format!("({})", self.term(a)?.0), ATOM)),
            },
            Kind::Neg(a) => {
                let s = self.term(a)?;
                let s = if s.1 < UNARY || s.0.starts_with('-') { format!("({})", s.0) } else { s.0 };
                Ok((format!("-{s}"), UNARY))
            }
            Kind::Arith(a, rest) => {
                let prec = if matches!(rest.first(), Some((Arith::Add | Arith::Sub, _))) { ADD } else { MUL };
                let mut out = paren(self.term(a)?, prec);
                for (op, b) in rest {
                    let sym = match op {
                        Arith::Add => "+",
                        Arith::Sub => "-",
                        Arith::Mul => "*",
                        Arith::Div => "/",
                        Arith::Rem => "%",
                    };
                    if matches!(op, Arith::Div | Arith::Rem) && self.constant(b)? == Some(0) {
                        self.d.error(b.at, b.len, "division-by-zero", format!("division by zero in {}", self.what));
                        return Err(());
                    }
                    out = format!("{out} {sym} {}", paren(self.term(b)?, prec + 1));
                }
                Ok((out, prec))
            }
            Kind::Ite(c, a, b) => {
                self.no_clock(c)?;
                let c = self.formula(c, Context::Guard)?;
                let a = self.term(a)?;
                let b = self.term(b)?;
                Ok((format!("({} ? {} : {})", c.0, a.0, b.0), ATOM))
            }
            Kind::Cmp(..) | Kind::And(..) | Kind::Not(..) => self.not_a_term(n),
        }
    }

    fn not_a_term<T>(&mut self, n: &Node) -> R<T> {
        self.d.error(
            n.at,
            n.len,
            "type-error",
            format!("in {}, a condition is used where TChecker expects an integer term", self.what),
        );
        Err(())
    }

    /// A formula (guard or invariant).
    pub(super) fn formula(&mut self, n: &Node, ctx: Context) -> R<(String, u8)> {
        match &n.kind {
            Kind::And(items) => {
                let mut parts = Vec::with_capacity(items.len());
                for a in items {
                    parts.push(paren(self.formula(a, ctx)?, AND));
                }
                Ok((parts.join(" && "), AND))
            }
            Kind::Not(a) => {
                if self.mentions_clock(a) {
                    self.d
                        .error(n.at, n.len, "unsupported", format!("negated clock constraint in {}", self.what))
                        .hint = Some("TChecker's guards and invariants are conjunctions of clock constraints".into());
                    return Err(());
                }
                if self.is_term(a) {
                    let t = paren(self.term(a)?, REL);
                    return Ok((format!("{t} == 0"), EQ));
                }
                let f = self.formula(a, ctx)?;
                Ok((format!("!{}", paren(f, UNARY)), UNARY))
            }
            Kind::Paren(a) if !self.is_term(a) => Ok((format!("({})", self.formula(a, ctx)?.0), ATOM)),
            Kind::Cmp(op, a, b) => self.comparison(n, *op, a, b, ctx),
            _ => {
                // An integer term as a formula: true when not 0.
                self.no_clock(n)?;
                if let Some(v) = self.constant(n)? {
                    return Ok(((if v != 0 { "true" } else { "false" }).to_string(), ATOM));
                }
                let t = paren(self.term(n)?, REL);
                Ok((format!("{t} != 0"), EQ))
            }
        }
    }

    fn is_term(&self, n: &Node) -> bool {
        !matches!(strip(n).kind, Kind::Cmp(..) | Kind::And(..) | Kind::Not(..))
    }

    fn comparison(&mut self, n: &Node, op: Rel, a: &Node, b: &Node, ctx: Context) -> R<(String, u8)> {
        if !self.is_term(a) {
            return self.not_a_term(a);
        }
        if !self.is_term(b) {
            return self.not_a_term(b);
        }
        let ca = self.clock_term(a)?;
        let cb = self.clock_term(b)?;
        let (clock, op, bound) = match (ca, cb) {
            (None, None) => {
                let l = paren(self.term(a)?, op.prec() + 1);
                let r = paren(self.term(b)?, op.prec() + 1);
                return Ok((format!("{l} {} {r}", op.text()), op.prec()));
            }
            (Some(c), None) => (c, op, b),
            (None, Some(c)) => (c, op.flip(), a),
            (Some(_), Some(_)) => {
                self.d
                    .error(n.at, n.len, "type-error", format!("in {}, two clock terms are compared", self.what))
                    .hint = Some("write `x - y < c` for a constraint on a clock difference".into());
                return Err(());
            }
        };
        if op == Rel::Ne {
            self.d.error(n.at, n.len, "type-error", format!("in {}, `!=` cannot compare clocks", self.what)).hint =
                Some("TChecker's clock constraints use `<`, `<=`, `==`, `>=` or `>`".into());
            return Err(());
        }
        if ctx == Context::Invariant {
            if clock.1 != ATOM {
                self.d
                    .error(n.at, n.len, "unsupported", "kairos invariants cannot constrain a clock difference `x - y`")
                    .hint = Some("use upper bounds on single clocks: `x <= 5`".into());
                return Err(());
            }
            if !matches!(op, Rel::Lt | Rel::Le) {
                self.d
                    .error(
                        n.at,
                        n.len,
                        "unsupported",
                        "kairos invariants are upper bounds on clocks (`x < e`, `x <= e`); this one is not",
                    )
                    .hint = Some("move the lower bound to the guards of the location's outgoing edges".into());
                return Err(());
            }
        }
        let r = paren(self.term(bound)?, op.prec() + 1);
        Ok((format!("{} {} {r}", clock.0, op.text()), op.prec()))
    }

    /// One assignment, printed; `Ok(None)` for `nop`.
    pub(super) fn statement(&mut self, s: &Stmt) -> R<Option<String>> {
        let Stmt::Assign(lhs, rhs) = s else { return Ok(None) };
        let Kind::Var(name, idx) = &lhs.kind else {
            self.d.error(lhs.at, lhs.len, "syntax-error", format!("in {}, only a variable can be assigned", self.what));
            return Err(());
        };
        match (self.lookup)(name) {
            Some(Sym::Clock { .. }) => {
                let x = self.clock(lhs)?.unwrap_or_default();
                if self.mentions_clock(rhs) {
                    self.d
                        .error(
                            lhs.at,
                            end_of(rhs).saturating_sub(lhs.at),
                            "unsupported",
                            format!("the clock assignment `{name} = y + d` in {} is not supported yet", self.what),
                        )
                        .hint = Some("kairos resets clocks to constants: `x = 0`, `x = c`".into());
                    return Err(());
                }
                match self.constant(rhs)? {
                    Some(v) if v >= 0 => Ok(Some(format!("{x} = {v}"))),
                    Some(v) => {
                        self.d.error(
                            rhs.at,
                            rhs.len,
                            "bad-value",
                            format!("the clock `{name}` is set to the negative value {v}"),
                        );
                        Err(())
                    }
                    None => {
                        self.d
                            .error(
                                rhs.at,
                                rhs.len,
                                "unsupported",
                                format!("the clock `{name}` is set to a value that depends on data"),
                            )
                            .hint = Some("kairos resets clocks to constants: `x = 0`, `x = c`".into());
                        Err(())
                    }
                }
            }
            _ => {
                let l = self.var(lhs, name, idx)?;
                let r = self.term(rhs)?;
                Ok(Some(format!("{} = {}", l.0, r.0)))
            }
        }
    }
}
