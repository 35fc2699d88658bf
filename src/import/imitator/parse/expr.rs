//! Expressions of guards, invariants, updates, `init` and properties: one
//! precedence ladder for Boolean and arithmetic operators (`=>`, `|`, `&`,
//! comparisons, `+ -`, `* /`, prefix `-` and `not`), typed later by the
//! translation; `2 x` is IMITATOR's `2 * x`.

use super::{Diagnostic, Expr, ExprKind, Name, P, R, Tok, UNSUPPORTED_WORDS};

/// The tallest expression tree read (chains of binary operators count).
const MAX_DEPTH: usize = 1000;

/// The most parentheses and prefix operators open at once (FORMAT.md's
/// bound for kairos's own expressions): the parser recurses on them.
const MAX_NEST: usize = 256;

/// IMITATOR's reserved words (its lexer makes them keywords, never names).
const RESERVED: &[&str] = &[
    "accepting",
    "action",
    "actions",
    "and",
    "array",
    "automaton",
    "begin",
    "binary",
    "bool",
    "clock",
    "constant",
    "continuous",
    "controllable",
    "discrete",
    "do",
    "done",
    "downto",
    "else",
    "end",
    "False",
    "flow",
    "fn",
    "for",
    "from",
    "function",
    "goto",
    "if",
    "in",
    "inf",
    "infinity",
    "init",
    "inside",
    "instantiate",
    "int",
    "invariant",
    "is",
    "list",
    "loc",
    "not",
    "or",
    "parameter",
    "queue",
    "rat",
    "rational",
    "return",
    "stack",
    "stop",
    "sync",
    "synclabs",
    "template",
    "then",
    "to",
    "True",
    "uncontrollable",
    "urgent",
    "var",
    "void",
    "wait",
    "when",
    "while",
];

impl P<'_> {
    /// An expression (boolean or arithmetic: the translation types it);
    /// `locs` allows the location predicates of properties.
    pub(super) fn expr(&mut self, locs: bool) -> R<Expr> {
        self.binary(0, locs)
    }

    fn too_deep(&self, at: usize) -> Diagnostic {
        self.src.diag(at, 1, "too-deep", format!("expression nested deeper than {MAX_DEPTH}"))
    }

    fn bin(&self, op: &'static str, left: Expr, right: Expr, at: usize) -> R<Expr> {
        let depth = 1 + left.depth.max(right.depth);
        if depth > MAX_DEPTH {
            return Err(self.too_deep(at));
        }
        Ok(Expr { kind: ExprKind::Bin(op, Box::new(left), Box::new(right)), at, depth })
    }

    fn wrap(&self, kind: impl FnOnce(Expr) -> ExprKind, e: Expr, at: usize) -> R<Expr> {
        let depth = e.depth + 1;
        if depth > MAX_DEPTH {
            return Err(self.too_deep(at));
        }
        Ok(Expr { kind: kind(e), at, depth })
    }

    fn binary(&mut self, level: usize, locs: bool) -> R<Expr> {
        const LEVELS: &[&[&str]] = &[&["=>"], &["|", "||", "or"], &["&", "&&", "and"]];
        if level == LEVELS.len() {
            return self.comparison(locs);
        }
        let mut left = self.binary(level + 1, locs)?;
        loop {
            let op = LEVELS[level].iter().find(|s| self.is_sym(s) || self.word(s));
            let Some(op) = op else { return Ok(left) };
            let at = self.at();
            self.k += 1;
            let right = self.binary(level + 1, locs)?;
            let op = match *op {
                "||" | "or" => "|",
                "&&" | "and" => "&",
                o => o,
            };
            left = self.bin(op, left, right, at)?;
        }
    }

    fn comparison(&mut self, locs: bool) -> R<Expr> {
        let left = self.sum(locs)?;
        let op = ["<=", ">=", "<>", "<", ">", "="].into_iter().find(|s| self.is_sym(s));
        let Some(op) = op else { return Ok(left) };
        let at = self.at();
        self.k += 1;
        let right = self.sum(locs)?;
        if ["<=", ">=", "<>", "<", ">", "="].iter().any(|s| self.is_sym(s)) {
            return Err(self.src.diag(self.at(), 1, "unsupported", "chained comparisons are not supported yet"));
        }
        self.bin(op, left, right, at)
    }

    fn sum(&mut self, locs: bool) -> R<Expr> {
        let mut left = self.term(locs)?;
        while self.is_sym("+") || self.is_sym("-") {
            let op = if self.is_sym("+") { "+" } else { "-" };
            let at = self.at();
            self.k += 1;
            let right = self.term(locs)?;
            left = self.bin(op, left, right, at)?;
        }
        Ok(left)
    }

    fn term(&mut self, locs: bool) -> R<Expr> {
        let mut left = self.unary(locs)?;
        loop {
            // `2 x` is IMITATOR's shorthand for `2 * x`.
            if matches!(left.kind, ExprKind::Num(_))
                && matches!(self.tok(), Tok::Name(n) if !RESERVED.contains(&n.as_str()))
            {
                let at = self.at();
                let right = self.unary(locs)?;
                left = self.bin("*", left, right, at)?;
                continue;
            }
            if !(self.is_sym("*") || self.is_sym("/")) {
                return Ok(left);
            }
            let op = if self.is_sym("*") { "*" } else { "/" };
            let at = self.at();
            self.k += 1;
            let right = self.unary(locs)?;
            left = self.bin(op, left, right, at)?;
        }
    }

    fn unary(&mut self, locs: bool) -> R<Expr> {
        let at = self.at();
        if self.nest >= MAX_NEST {
            return Err(self.src.diag(at, 1, "too-deep", format!("expression nested deeper than {MAX_NEST}")));
        }
        self.nest += 1;
        let e = self.prefixed(locs);
        self.nest -= 1;
        e
    }

    fn prefixed(&mut self, locs: bool) -> R<Expr> {
        let at = self.at();
        if self.is_sym("-") {
            self.k += 1;
            let e = self.unary(locs)?;
            return self.wrap(|e| ExprKind::Neg(Box::new(e)), e, at);
        }
        if self.word("not") {
            self.k += 1;
            let e = self.unary(locs)?;
            return self.wrap(|e| ExprKind::Not(Box::new(e)), e, at);
        }
        match self.tok().clone() {
            Tok::Num(n) => {
                self.k += 1;
                Ok(Expr { kind: ExprKind::Num(n), at, depth: 1 })
            }
            Tok::Sym("(") => {
                self.k += 1;
                let e = self.expr(locs)?;
                self.sym(")")?;
                Ok(e)
            }
            Tok::Name(n) if n == "True" || n == "False" => {
                self.k += 1;
                Ok(Expr { kind: ExprKind::Bool(n == "True"), at, depth: 1 })
            }
            Tok::Name(n) if locs && n == "loc" => {
                self.k += 1;
                self.sym("[")?;
                let automaton = self.name("an automaton")?;
                self.sym("]")?;
                let eq = self.is_sym("=") || self.is_sym(":=");
                if !eq && !self.is_sym("<>") {
                    return Err(self.error("`=` or `<>`"));
                }
                self.k += 1;
                let loc = self.name("a location")?;
                Ok(Expr { kind: ExprKind::Loc { automaton, loc, eq }, at, depth: 1 })
            }
            Tok::Name(n) => {
                let t = self.toks[self.k].clone();
                if UNSUPPORTED_WORDS.contains(&n.as_str()) {
                    return Err(self.src.diag(t.at, t.len, "unsupported", format!("`{n}` is not supported yet")));
                }
                if RESERVED.contains(&n.as_str()) {
                    return Err(self.error("an expression"));
                }
                self.k += 1;
                if locs && self.word("is") {
                    self.k += 1;
                    let eq = !self.word("not");
                    if !eq {
                        self.k += 1;
                    }
                    self.keyword("in")?;
                    let loc = self.name("a location")?;
                    let automaton = Name { text: n, at };
                    return Ok(Expr { kind: ExprKind::Loc { automaton, loc, eq }, at, depth: 1 });
                }
                if self.is_sym("(") || self.is_sym("[") {
                    let what = if self.is_sym("(") { "function calls" } else { "arrays" };
                    return Err(self.src.diag(
                        t.at,
                        t.len,
                        "unsupported",
                        format!("{what} (`{n}`) are not supported yet"),
                    ));
                }
                Ok(Expr { kind: ExprKind::Var(n), at, depth: 1 })
            }
            _ => Err(self.error("an expression")),
        }
    }
}
