//! Function definitions of UPPAAL declarations: `int f(int &x, id_t i) { ... }`.

use super::{Assign, AssignOp, Decl, EK, Expr, MAX_NEST, Param, Parser, R, Type, VarDecl};
use crate::import::uppaal::lex::Tk;

/// A statement of a function body.
#[derive(Clone, Debug)]
pub(crate) enum St {
    /// `int i = 0, j;`
    Local(Vec<VarDecl>),
    /// `x = 1, f(y);`
    Assigns(Vec<Assign>),
    If(Expr, Box<St>, Option<Box<St>>),
    While(Expr, Box<St>),
    /// `do body while (cond);`
    DoWhile(Box<St>, Expr),
    /// `for (init; cond; step) body`; `init` is a `Local` or `Assigns`.
    For(Box<St>, Option<Expr>, Vec<Assign>, Box<St>),
    /// `for (i : T) body`: `i` over the values of `T`, in increasing order.
    ForEach(String, Box<Type>, Box<St>),
    /// `return e;`, at its position.
    Return(Option<Expr>, usize, usize),
    Block(Vec<St>),
}

/// `ret name(params) { body }`; `ret` is `None` for `void`.
#[derive(Clone, Debug)]
pub(crate) struct FnDecl {
    pub ret: Option<Type>,
    pub name: String,
    pub at: usize,
    pub params: Vec<Param>,
    pub body: Vec<St>,
}

impl Parser<'_, '_, '_> {
    /// The rest of a definition, after its result type and name; the next
    /// token is `(`.
    pub(super) fn function(&mut self, ret: Option<Type>, name: (String, usize, usize), out: &mut Vec<Decl>) -> R<()> {
        self.expect_op("(")?;
        let mut params = Vec::new();
        if !self.is_op(")") {
            loop {
                let ty = self.ty()?;
                let by_ref = self.eat_op("&");
                let (pname, at, end) = self.ident("a parameter name")?;
                let dims = self.dims()?;
                params.push(Param { ty, by_ref, name: pname, at, end, dims });
                if !self.eat_op(",") {
                    break;
                }
            }
        }
        self.expect_op(")")?;
        let open = self.i;
        // A body that cannot be read (reported) is skipped whole and the
        // function declared empty, so that its calls raise no follow-on errors.
        let body = self.block().unwrap_or_else(|()| {
            self.i = open;
            self.skip_braces();
            Vec::new()
        });
        let (name, at, _) = name;
        out.push(Decl::Function(FnDecl { ret, name, at, params, body }));
        Ok(())
    }

    /// Past the `{ ... }` starting here, braces balanced.
    fn skip_braces(&mut self) {
        let mut depth = 0usize;
        while !self.at_end() {
            match self.next().tk {
                Tk::Op("{") => depth += 1,
                Tk::Op("}") => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    /// `{ statements }`.
    fn block(&mut self) -> R<Vec<St>> {
        self.expect_op("{")?;
        let mut out = Vec::new();
        while !self.is_op("}") {
            if self.at_end() {
                return self.fail("`}`");
            }
            out.push(self.statement()?);
        }
        self.next();
        Ok(out)
    }

    fn statement(&mut self) -> R<St> {
        if self.nest >= MAX_NEST {
            let t = self.peek().clone();
            self.d.error(t.at, t.end, "too-deep", format!("statements nested deeper than {MAX_NEST} levels"));
            return Err(());
        }
        self.nest += 1;
        let r = self.statement_inner();
        self.nest -= 1;
        r
    }

    /// A statement in a body of its own (`if`, `while`, `for`).
    fn sub(&mut self) -> R<Box<St>> {
        self.statement().map(Box::new)
    }

    fn condition(&mut self) -> R<Expr> {
        self.expect_op("(")?;
        let c = self.expr()?;
        self.expect_op(")")?;
        Ok(c)
    }

    fn statement_inner(&mut self) -> R<St> {
        let t = self.peek().clone();
        if self.is_op("{") {
            return Ok(St::Block(self.block()?));
        }
        if self.eat_op(";") {
            return Ok(St::Block(Vec::new()));
        }
        let Tk::Id(word) = &t.tk else { return self.fail("a statement") };
        match word.as_str() {
            "if" => {
                self.next();
                let c = self.condition()?;
                let then = self.sub()?;
                let other = if self.is_id("else") {
                    self.next();
                    Some(self.sub()?)
                } else {
                    None
                };
                Ok(St::If(c, then, other))
            }
            "while" => {
                self.next();
                let c = self.condition()?;
                Ok(St::While(c, self.sub()?))
            }
            "do" => {
                self.next();
                let body = self.sub()?;
                if !self.is_id("while") {
                    return self.fail("`while`");
                }
                self.next();
                let c = self.condition()?;
                self.expect_op(";")?;
                Ok(St::DoWhile(body, c))
            }
            "for" => {
                self.next();
                self.expect_op("(")?;
                if matches!(self.peek_at(1), Tk::Op(":")) {
                    let (var, _, _) = self.ident("a variable name")?;
                    self.expect_op(":")?;
                    let ty = self.ty()?;
                    self.expect_op(")")?;
                    return Ok(St::ForEach(var, Box::new(ty), self.sub()?));
                }
                let init = if self.starts_type() {
                    self.locals()?
                } else {
                    let list = self.statement_assigns(";")?;
                    self.expect_op(";")?;
                    St::Assigns(list)
                };
                let cond = if self.is_op(";") { None } else { Some(self.expr()?) };
                self.expect_op(";")?;
                let step = self.statement_assigns(")")?;
                self.expect_op(")")?;
                Ok(St::For(Box::new(init), cond, step, self.sub()?))
            }
            "return" => {
                self.next();
                let value = if self.is_op(";") { None } else { Some(self.expr()?) };
                let end = self.expect_op(";")?.end;
                Ok(St::Return(value, t.at, end))
            }
            "break" | "continue" | "switch" | "case" | "default" => {
                self.d.unsupported(t.at, t.end, format!("`{word}` statements"));
                Err(())
            }
            _ if self.starts_type() => self.locals(),
            _ => {
                let list = self.statement_assigns(";")?;
                self.expect_op(";")?;
                Ok(St::Assigns(list))
            }
        }
    }

    /// `int i = 0, j;` (the `;` included).
    fn locals(&mut self) -> R<St> {
        let ty = self.ty()?;
        let mut vars = Vec::new();
        loop {
            let (name, at, end) = self.ident("a name")?;
            let dims = self.dims()?;
            let init = if self.eat_op("=") || self.eat_op(":=") { Some(self.init(0)?) } else { None };
            vars.push(VarDecl { ty: ty.clone(), name, at, end, dims, init });
            if !self.eat_op(",") {
                break;
            }
        }
        self.expect_op(";")?;
        Ok(St::Local(vars))
    }

    /// Assignments and calls separated by commas, up to `stop` (not eaten).
    fn statement_assigns(&mut self, stop: &str) -> R<Vec<Assign>> {
        let mut out = Vec::new();
        if self.is_op(stop) {
            return Ok(out);
        }
        loop {
            out.extend(self.assignment()?);
            if !self.eat_op(",") {
                break;
            }
        }
        Ok(out)
    }

    /// A call standing as an assignment: `f(x)`.
    pub(super) fn call_assign(&mut self) -> R<Assign> {
        let call = self.expr()?;
        if !matches!(call.kind, EK::Call(..)) {
            let _: R<()> = self.fail("an assignment or a function call");
            return Err(());
        }
        let rhs = call.clone();
        Ok(Assign { lhs: call, op: AssignOp::Call, rhs })
    }
}
