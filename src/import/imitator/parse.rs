//! IMITATOR's model and property files read into a syntax tree: the
//! parametric-timed-automata subset (IMITATOR 3's grammar, `ModelParser.mly`
//! and `PropertyParser.mly`, read for its meaning, not copied). A construct
//! outside the subset is an `unsupported` diagnostic at its first token;
//! reading stops at the first problem, so there are no follow-on errors.

mod expr;

use super::lex::{Src, Tok, Token, tokens};
use crate::diag::Diagnostic;

pub(super) struct Model {
    pub decls: Vec<Decl>,
    pub automata: Vec<Automaton>,
    pub init: Option<Init>,
}

/// `a, b = 3 : parameter;`
pub(super) struct Decl {
    pub names: Vec<(Name, Option<Expr>)>,
    pub kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Clock,
    Parameter,
    Int,
    Rational,
    Bool,
    Constant,
}

#[derive(Clone, Debug)]
pub(super) struct Name {
    pub text: String,
    pub at: usize,
}

pub(super) struct Automaton {
    pub name: Name,
    pub actions: Vec<Name>,
    pub locs: Vec<Location>,
}

pub(super) struct Location {
    pub name: Name,
    pub urgent: bool,
    pub invariant: Expr,
    pub edges: Vec<Edge>,
}

pub(super) struct Edge {
    pub guard: Expr,
    pub sync: Option<Name>,
    pub updates: Vec<(Name, Expr)>,
    pub target: Name,
    pub at: usize,
}

/// `init := { discrete = ...; continuous = ...; }` (or the older
/// `init := loc[A] = l & x = 0 & ...;`): initial locations, discrete values,
/// and the conjuncts of the initial constraint.
#[derive(Default)]
pub(super) struct Init {
    pub locs: Vec<(Name, Name)>,
    pub values: Vec<(Name, Expr)>,
    pub constraints: Vec<Expr>,
}

#[derive(Clone, Debug)]
pub(super) struct Expr {
    pub kind: ExprKind,
    pub at: usize,
    /// The height of the tree (a leaf is 1): bounded by `expr::MAX_DEPTH`,
    /// so the recursive walks over it cannot overflow the stack.
    pub depth: usize,
}

#[derive(Clone, Debug)]
pub(super) enum ExprKind {
    Num(String),
    Bool(bool),
    Var(String),
    /// `op` is IMITATOR's: `& | => = <> < <= > >= + - * /`.
    Bin(&'static str, Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    /// `loc[A] = l` (`A is in l`), negated when `eq` is false.
    Loc {
        automaton: Name,
        loc: Name,
        eq: bool,
    },
}

/// A `.imiprop` property: its quantifier (`EF`, `AGnot`, ...) and state predicate.
pub(super) struct Property {
    pub kind: Name,
    pub predicate: Expr,
}

struct P<'a> {
    src: &'a Src,
    toks: Vec<Token>,
    k: usize,
    /// Parentheses and prefix operators open at this point.
    nest: usize,
}

type R<T> = Result<T, Diagnostic>;

/// The words of IMITATOR models kairos's subset does not read.
const UNSUPPORTED_WORDS: &[&str] = &[
    "controllable",
    "uncontrollable",
    "template",
    "instantiate",
    "fn",
    "function",
    "flow",
    "stop",
    "accepting",
    "array",
    "list",
    "stack",
    "queue",
    "binary",
    "void",
    "if",
    "while",
    "for",
    "inside",
    "continuous",
];

pub(super) fn model(src: &Src) -> R<Model> {
    let mut p = P { src, toks: tokens(src)?, k: 0, nest: 0 };
    let mut m = Model { decls: Vec::new(), automata: Vec::new(), init: None };
    if p.word("var") {
        p.k += 1;
        while matches!(p.tok(), Tok::Name(n) if !matches!(n.as_str(), "automaton" | "init" | "end")) {
            m.decls.push(p.decl()?);
        }
    }
    while p.word("automaton") {
        p.k += 1;
        m.automata.push(p.automaton()?);
    }
    if p.word("init") {
        p.k += 1;
        m.init = Some(p.init()?);
    }
    if p.word("end") {
        p.k += 1;
    }
    p.expect_eof()?;
    Ok(m)
}

pub(super) fn property(src: &Src) -> R<Property> {
    let mut p = P { src, toks: tokens(src)?, k: 0, nest: 0 };
    if p.word("property") {
        p.k += 1;
        p.sym(":=")?;
    }
    p.sym("#")?;
    let mode = p.name("`synth`")?;
    if mode.text != "synth" {
        return Err(p.unsupported_at(&mode, format!("`#{}` (kairos answers `#synth` properties)", mode.text)));
    }
    let kind = p.name("`EF` or `AGnot`")?;
    if !matches!(kind.text.as_str(), "EF" | "AG" | "AGnot") {
        return Err(
            p.unsupported_at(&kind, format!("the property `{}` (kairos synthesises for EF, AG and AGnot)", kind.text))
        );
    }
    let predicate = p.expr(true)?;
    if p.is_sym(";") {
        p.k += 1;
    }
    p.expect_eof()?;
    Ok(Property { kind, predicate })
}

impl P<'_> {
    fn tok(&self) -> &Tok {
        &self.toks[self.k].tok
    }

    fn at(&self) -> usize {
        self.toks[self.k].at
    }

    fn word(&self, w: &str) -> bool {
        matches!(self.tok(), Tok::Name(n) if n == w)
    }

    fn is_sym(&self, s: &str) -> bool {
        matches!(self.tok(), Tok::Sym(t) if *t == s)
    }

    fn here(&self) -> String {
        match self.tok() {
            Tok::Name(n) | Tok::Num(n) => format!("`{n}`"),
            Tok::Sym(s) => format!("`{s}`"),
            Tok::Eof => "the end of the file".to_string(),
        }
    }

    fn error(&self, wanted: &str) -> Diagnostic {
        let t = &self.toks[self.k];
        if let Tok::Name(n) = &t.tok
            && UNSUPPORTED_WORDS.contains(&n.as_str())
        {
            return self.src.diag(t.at, t.len, "unsupported", format!("`{n}` is not supported yet"));
        }
        self.src.diag(t.at, t.len.max(1), "syntax-error", format!("expected {wanted}, found {}", self.here()))
    }

    fn unsupported_at(&self, n: &Name, what: String) -> Diagnostic {
        self.src.diag(n.at, n.text.chars().count(), "unsupported", format!("{what} is not supported yet"))
    }

    fn sym(&mut self, s: &str) -> R<()> {
        if self.is_sym(s) {
            self.k += 1;
            Ok(())
        } else {
            Err(self.error(&format!("`{s}`")))
        }
    }

    fn keyword(&mut self, w: &str) -> R<()> {
        if self.word(w) {
            self.k += 1;
            Ok(())
        } else {
            Err(self.error(&format!("`{w}`")))
        }
    }

    fn name(&mut self, wanted: &str) -> R<Name> {
        match self.tok().clone() {
            Tok::Name(text) => {
                let at = self.at();
                self.k += 1;
                Ok(Name { text, at })
            }
            _ => Err(self.error(wanted)),
        }
    }

    fn expect_eof(&self) -> R<()> {
        if *self.tok() == Tok::Eof { Ok(()) } else { Err(self.error("the end of the file")) }
    }

    /// `a, b = e, c : kind;` (a trailing comma before `:` is allowed).
    fn decl(&mut self) -> R<Decl> {
        let mut names = Vec::new();
        loop {
            let n = self.name("a variable name")?;
            let value = if self.is_sym("=") {
                self.k += 1;
                Some(self.expr(false)?)
            } else {
                None
            };
            names.push((n, value));
            if self.is_sym(",") {
                self.k += 1;
            }
            if self.is_sym(":") {
                break;
            }
        }
        self.sym(":")?;
        let kind = match self.name("a type")?.text.as_str() {
            "clock" => Kind::Clock,
            "parameter" => Kind::Parameter,
            "int" => Kind::Int,
            "discrete" | "rational" | "rat" => Kind::Rational,
            "bool" => Kind::Bool,
            "constant" => Kind::Constant,
            other => {
                self.k -= 1;
                let t = &self.toks[self.k];
                return Err(self.src.diag(
                    t.at,
                    t.len,
                    "unsupported",
                    format!("the type `{other}` is not supported yet"),
                ));
            }
        };
        if !self.is_sym(";") {
            return Err(self.error("`;` (arrays, lists and binary words are not supported yet)"));
        }
        self.k += 1;
        Ok(Decl { names, kind })
    }

    fn automaton(&mut self) -> R<Automaton> {
        let name = self.name("the automaton's name")?;
        let mut actions = Vec::new();
        if self.word("actions") || self.word("synclabs") {
            self.k += 1;
            self.sym(":")?;
            while let Tok::Name(_) = self.tok() {
                actions.push(self.name("an action")?);
                if !self.is_sym(",") {
                    break;
                }
                self.k += 1;
            }
            self.sym(";")?;
        }
        let mut locs = Vec::new();
        while !self.word("end") {
            locs.push(self.location()?);
        }
        self.k += 1;
        Ok(Automaton { name, actions, locs })
    }

    fn location(&mut self) -> R<Location> {
        let urgent = self.word("urgent");
        if urgent {
            self.k += 1;
        }
        self.keyword("loc")?;
        let name = self.name("the location's name")?;
        if self.is_sym("[") {
            return Err(self.src.diag(self.at(), 1, "unsupported", "location costs are not supported yet"));
        }
        self.sym(":")?;
        if self.word("invariant") || self.word("while") {
            self.k += 1;
        }
        let invariant = self.expr(false)?;
        if self.word("wait") {
            self.k += 1;
            if self.is_sym("{") {
                self.k += 1;
                self.sym("}")?;
            }
        }
        let mut edges = Vec::new();
        while self.word("when") {
            let at = self.at();
            self.k += 1;
            edges.push(self.edge(at)?);
        }
        Ok(Location { name, urgent, invariant, edges })
    }

    /// After `when`: `G [sync a] [do {u, ...}] [sync a] goto l;`.
    fn edge(&mut self, at: usize) -> R<Edge> {
        let guard = self.expr(false)?;
        let mut sync = None;
        let mut updates = Vec::new();
        for _ in 0..2 {
            if self.word("sync") && sync.is_none() {
                self.k += 1;
                sync = Some(self.name("an action")?);
            } else if self.word("do") && updates.is_empty() {
                self.k += 1;
                self.sym("{")?;
                while !self.is_sym("}") {
                    let target = self.name("a variable to update")?;
                    if self.is_sym("[") {
                        return Err(self.src.diag(self.at(), 1, "unsupported", "arrays are not supported yet"));
                    }
                    self.sym(":=")?;
                    updates.push((target, self.expr(false)?));
                    if self.is_sym(",") || self.is_sym(";") {
                        self.k += 1;
                    } else if !self.is_sym("}") {
                        return Err(self.error("`,` or `}`"));
                    }
                }
                self.k += 1;
            }
        }
        self.keyword("goto")?;
        let target = self.name("the target location")?;
        self.sym(";")?;
        Ok(Edge { guard, sync, updates, target, at })
    }

    fn init(&mut self) -> R<Init> {
        self.sym(":=")?;
        let mut init = Init::default();
        if !self.is_sym("{") {
            // The older form: one conjunction of location predicates and
            // linear constraints.
            let e = self.expr(true)?;
            self.sym(";")?;
            conjuncts(e, &mut init.constraints);
            let (locs, rest): (Vec<_>, Vec<_>) =
                init.constraints.drain(..).partition(|c| matches!(c.kind, ExprKind::Loc { eq: true, .. }));
            for c in locs {
                if let ExprKind::Loc { automaton, loc, .. } = c.kind {
                    init.locs.push((automaton, loc));
                }
            }
            init.constraints = rest;
            return Ok(init);
        }
        self.k += 1;
        while !self.is_sym("}") {
            let part = self.name("`discrete` or `continuous`")?;
            self.sym("=")?;
            match part.text.as_str() {
                "discrete" => self.init_discrete(&mut init)?,
                "continuous" => {
                    if self.is_sym("&") || self.is_sym("&&") {
                        self.k += 1;
                    }
                    if !self.is_sym(";") {
                        let e = self.expr(false)?;
                        if self.is_sym("&") || self.is_sym("&&") {
                            self.k += 1;
                        }
                        conjuncts(e, &mut init.constraints);
                    }
                }
                _ => {
                    return Err(self.src.diag(
                        part.at,
                        part.text.len(),
                        "syntax-error",
                        "expected `discrete` or `continuous`",
                    ));
                }
            }
            self.sym(";")?;
        }
        self.k += 1;
        if self.is_sym(";") {
            self.k += 1;
        }
        Ok(init)
    }

    /// `loc[A] := l, v := e, ...` (commas, optionally leading or trailing).
    fn init_discrete(&mut self, init: &mut Init) -> R<()> {
        if self.is_sym(",") {
            self.k += 1;
        }
        while !self.is_sym(";") {
            if self.word("loc") {
                self.k += 1;
                self.sym("[")?;
                let a = self.name("an automaton")?;
                self.sym("]")?;
                self.sym(":=")?;
                init.locs.push((a, self.name("a location")?));
            } else {
                let v = self.name("`loc[...]` or a variable")?;
                if self.word("is") {
                    self.k += 1;
                    self.keyword("in")?;
                    init.locs.push((v, self.name("a location")?));
                } else {
                    self.sym(":=")?;
                    init.values.push((v, self.expr(false)?));
                }
            }
            if self.is_sym(",") {
                self.k += 1;
            } else if !self.is_sym(";") {
                return Err(self.error("`,` or `;`"));
            }
        }
        Ok(())
    }
}

/// The conjuncts of `e` (split at `&`), in order.
pub(super) fn conjuncts(e: Expr, out: &mut Vec<Expr>) {
    match e.kind {
        ExprKind::Bin("&", a, b) => {
            conjuncts(*a, out);
            conjuncts(*b, out);
        }
        _ => out.push(e),
    }
}
