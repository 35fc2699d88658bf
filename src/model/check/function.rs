//! User functions: signatures, bodies typed into statements, purity, calls.
//!
//! A function's frame holds its parameters, then its locals, each with a
//! type (a boolean or an integer range). Names resolve innermost first: the
//! locals of the enclosing blocks, the parameters, then the template's or the
//! global names. A function sees only the functions defined before it, so
//! calls form no cycle (recursion is "not supported yet") and the network can
//! inline every call. A function is *pure* when it assigns nothing outside
//! its frame (through a reference included) and calls only pure functions;
//! only pure functions may be called in guards, invariants and properties.

use crate::diag::Pos;
use crate::model::check::Checker;
use crate::model::check::expr::{Ctx, Scope, Sym, Ty};
use crate::model::check::globals::Globals;
use crate::model::reader::Name;
use crate::model::typed::{
    AssignOp, Cvar, FnRef, Function, TArg, TArray, TExpr, TParam, TPlace, TStmt, TStmtKind, TValueTy,
};
use crate::syntax::ast::{Action, Expr, ExprKind, Init, Stmt, StmtKind, Update, ValueType};
use crate::syntax::parse::parse_function;
use crate::syntax::yaml::Node;

/// UPPAAL's `int`: [-32768, 32767].
pub const INT_RANGE: (i64, i64) = (-32768, 32767);

/// Names inside a function body: block locals and parameters over the
/// enclosing scope.
pub(super) struct FnScope<'a> {
    outer: &'a dyn Scope,
    pub names: Vec<(String, Sym)>,
}

impl Scope for FnScope<'_> {
    fn lookup(&self, name: &str) -> Option<Sym> {
        match self.names.iter().rev().find(|(n, _)| n == name) {
            Some((_, s)) => Some(s.clone()),
            None => self.outer.lookup(name),
        }
    }
}

/// The function being typed.
pub(super) struct Body {
    name: String,
    pub frame: Vec<TValueTy>,
    ret: Option<TValueTy>,
    /// The clock resets lifted onto the calling edge, in order.
    pub resets: Vec<(Cvar, TExpr)>,
    /// Statements typed here may not run (under `if` or a loop): a clock
    /// reset here cannot be lifted.
    pub conditional: bool,
    /// A `return` came before: the statements after it may not run either.
    pub returned: bool,
}

/// Every path through `body` ends in a `return` (loops are not trusted to,
/// but a `do` loop's body runs at least once).
fn always_returns(body: &[TStmt]) -> bool {
    body.iter().any(|s| match &s.kind {
        TStmtKind::Return(_) => true,
        TStmtKind::If(_, a, b) => always_returns(a) && always_returns(b),
        TStmtKind::DoWhile(b, _) => always_returns(b),
        _ => false,
    })
}

impl Checker<'_> {
    pub(super) fn global_functions(&mut self, texts: &[Node]) {
        for t in texts {
            let globals = self.globals.clone();
            if let Some((text, pos, sym)) = self.function_def(t, &Globals(&globals), false) {
                self.declare(&Name { text, pos }, sym);
            }
        }
    }

    /// Types one definition and appends it to the model's functions (or the
    /// template's, when `template`); returns its name to declare.
    pub(super) fn function_def(
        &mut self,
        node: &Node,
        scope: &dyn Scope,
        template: bool,
    ) -> Option<(String, Pos, Sym)> {
        let Some(f) = self.parse(node, "a function", parse_function) else {
            // Declared anyway, so that its calls raise no follow-on errors.
            let text = node.as_scalar()?.value.as_str();
            let name = text.split('(').next()?.split_whitespace().last()?.to_string();
            let well_formed = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            return well_formed.then_some((name, node.pos, Sym::Broken));
        };
        let pos = node.pos_in_text(f.name.span.start);
        let name = f.name.name.clone();
        if !self.r.check_name(&name, pos, "function name") {
            return None;
        }
        let mut fs = FnScope { outer: scope, names: Vec::new() };
        let mut params = Vec::new();
        // By-value array parameters are copied after the parameters' slots.
        let mut copies = Vec::new();
        let mut ok = true;
        for p in &f.params {
            let ppos = node.pos_in_text(p.name.span.start);
            let (Some(ty), Some(dims)) = (self.value_ty(node, &p.ty, scope), self.sizes(node, &p.dims, scope)) else {
                ok = false;
                continue;
            };
            if fs.names.iter().any(|(n, _)| *n == p.name.name) {
                self.r.error(ppos, "duplicate-name", format!("`{}` is already a parameter of `{name}`", p.name.name));
                ok = false;
            }
            let slot = params.len();
            let copy = f.params.len() + copies.len();
            let is_bool = ty.is_bool;
            let sym = match (p.by_ref, dims.is_empty()) {
                (true, true) => Sym::RefParam { slot, is_bool },
                (false, true) => Sym::Local { slot, is_bool },
                (true, false) => Sym::FrameArray { array: TArray::Ref(slot), is_bool, dims: dims.clone() },
                (false, false) => {
                    copies.extend(std::iter::repeat_n(ty.clone(), dims.iter().product()));
                    Sym::FrameArray { array: TArray::Local(copy), is_bool, dims: dims.clone() }
                }
            };
            fs.names.push((p.name.name.clone(), sym));
            params.push(TParam { by_ref: p.by_ref, ty, dims, copy });
        }
        let ret = match &f.ret {
            None => None,
            Some(t) => Some(self.value_ty(node, t, scope)?),
        };
        if !ok {
            return None;
        }
        let saved = (self.effects, self.impure, self.defining.take());
        (self.effects, self.impure, self.defining) = (true, false, Some(name.clone()));
        let frame = params.iter().map(|p| p.ty.clone()).chain(copies).collect();
        let mut cx = Body { name: name.clone(), frame, ret, resets: Vec::new(), conditional: false, returned: false };
        let mut body = Vec::new();
        self.block(node, &f.body, &mut fs, &mut cx, &mut body);
        let pure = !self.impure;
        (self.effects, self.impure, self.defining) = saved;
        if cx.ret.is_some() && !always_returns(&body) {
            self.r.error(
                node.pos_in_text(f.span.end.saturating_sub(1)),
                "missing-return",
                format!("`{name}` can reach its end without `return`"),
            );
        }
        let func = Function {
            name: name.clone(),
            line: pos.line as u32,
            params,
            ret: cx.ret,
            frame: cx.frame,
            body,
            pure,
            resets: cx.resets,
        };
        let id = if template {
            self.template_functions.push(func);
            FnRef::Template(self.template_functions.len() - 1)
        } else {
            self.model.functions.push(func);
            FnRef::Global(self.model.functions.len() - 1)
        };
        Some((name, pos, Sym::Function(id)))
    }

    fn value_ty(&mut self, node: &Node, t: &ValueType, scope: &dyn Scope) -> Option<TValueTy> {
        match t {
            ValueType::Bool => Some(TValueTy { is_bool: true, lo: TExpr::Const(0), hi: TExpr::Const(1) }),
            ValueType::Int(None) => {
                Some(TValueTy { is_bool: false, lo: TExpr::Const(INT_RANGE.0), hi: TExpr::Const(INT_RANGE.1) })
            }
            ValueType::Int(Some(bounds)) => {
                let (lo, hi) = (&bounds.0, &bounds.1);
                let bound = |c: &mut Self, e: &Expr| match c.ty(node, e, scope, Ctx::Const) {
                    Ty::Int(t) if crate::model::fold::is_static(&t) => Some(t),
                    Ty::Bad => None,
                    other => {
                        c.expected(c.at(node, e), "a constant integer", &other);
                        None
                    }
                };
                let (lo_t, hi_t) = (bound(self, lo)?, bound(self, hi)?);
                if let (Some(a), Some(b)) = (lo_t.as_const(), hi_t.as_const())
                    && a > b
                {
                    self.r.error(self.at(node, lo), "empty-range", format!("the range [{a}, {b}] is empty"));
                    return None;
                }
                Some(TValueTy { is_bool: false, lo: lo_t, hi: hi_t })
            }
        }
    }

    /// Types `stmts` in a nested block scope, appending to `out`.
    fn block(&mut self, node: &Node, stmts: &[Stmt], fs: &mut FnScope<'_>, cx: &mut Body, out: &mut Vec<TStmt>) {
        let depth = fs.names.len();
        for s in stmts {
            self.stmt(node, s, fs, cx, out);
        }
        fs.names.truncate(depth);
    }

    /// A branch or loop body: it may not run.
    fn one(&mut self, node: &Node, s: &Stmt, fs: &mut FnScope<'_>, cx: &mut Body) -> Vec<TStmt> {
        let mut out = Vec::new();
        let saved = std::mem::replace(&mut cx.conditional, true);
        self.block(node, std::slice::from_ref(s), fs, cx, &mut out);
        cx.conditional = saved;
        out
    }

    fn cond(&mut self, node: &Node, e: &Expr, scope: &dyn Scope) -> TExpr {
        match self.ty(node, e, scope, Ctx::Value) {
            Ty::Bool(t) => t,
            Ty::Bad => TExpr::Const(0),
            other => {
                self.expected(self.at(node, e), "a condition", &other);
                TExpr::Const(0)
            }
        }
    }

    fn stmt(&mut self, node: &Node, s: &Stmt, fs: &mut FnScope<'_>, cx: &mut Body, out: &mut Vec<TStmt>) {
        let line = node.pos_in_text(s.span.start).line as u32;
        let at = |kind| TStmt { line, kind };
        match &s.kind {
            StmtKind::Local { ty, vars } => {
                let Some(ty) = self.value_ty(node, ty, fs) else { return };
                for v in vars {
                    if !self.r.check_name(&v.name.name, node.pos_in_text(v.name.span.start), "local variable") {
                        continue;
                    }
                    if !v.dims.is_empty() {
                        self.local_array(node, v, &ty, fs, cx, &mut |kind| out.push(at(kind)));
                        continue;
                    }
                    let value = match &v.init {
                        Some(Init::Value(e)) => self.value(node, e, fs, ty.is_bool).unwrap_or(TExpr::Const(0)),
                        Some(Init::List(_, span)) => {
                            let pos = node.pos_in_text(span.start);
                            self.r.error(
                                pos,
                                "type-error",
                                format!("`{}` is not an array: `{{...}}` initialises arrays", v.name.name),
                            );
                            TExpr::Const(0)
                        }
                        None => TExpr::Const(0),
                    };
                    let slot = cx.frame.len();
                    cx.frame.push(ty.clone());
                    out.push(at(TStmtKind::Assign { place: TPlace::Local(slot), op: AssignOp::Set, value }));
                    fs.names.push((v.name.name.clone(), Sym::Local { slot, is_bool: ty.is_bool }));
                }
            }
            StmtKind::Actions(list) => {
                for a in list {
                    out.extend(self.action(node, a, fs, cx).into_iter().map(at));
                }
            }
            StmtKind::If { cond, then, other } => {
                let c = self.cond(node, cond, fs);
                let a = self.one(node, then, fs, cx);
                let b = other.as_ref().map(|o| self.one(node, o, fs, cx)).unwrap_or_default();
                out.push(at(TStmtKind::If(c, a, b)));
            }
            StmtKind::While { cond, body } => {
                let c = self.cond(node, cond, fs);
                let b = self.one(node, body, fs, cx);
                out.push(at(TStmtKind::While(c, b)));
            }
            StmtKind::DoWhile { body, cond } => {
                let b = self.one(node, body, fs, cx);
                let c = self.cond(node, cond, fs);
                out.push(at(TStmtKind::DoWhile(b, c)));
            }
            StmtKind::For { init, cond, step, body } => {
                let depth = fs.names.len();
                self.stmt(node, init, fs, cx, out);
                let c = cond.as_ref().map_or(TExpr::Const(1), |c| self.cond(node, c, fs));
                let mut b = self.one(node, body, fs, cx);
                let saved = std::mem::replace(&mut cx.conditional, true);
                for a in step {
                    b.extend(self.action(node, a, fs, cx).into_iter().map(at));
                }
                cx.conditional = saved;
                out.push(at(TStmtKind::While(c, b)));
                fs.names.truncate(depth);
            }
            StmtKind::Return(value) => {
                cx.returned = true;
                let pos = node.pos_in_text(s.span.start);
                match (value, cx.ret.as_ref().map(|t| t.is_bool)) {
                    (None, None) => out.push(at(TStmtKind::Return(None))),
                    (Some(e), Some(is_bool)) => {
                        // Kept when the value is bad: no follow-on "missing return".
                        let v = self.value(node, e, fs, is_bool).unwrap_or(TExpr::Const(0));
                        out.push(at(TStmtKind::Return(Some(v))));
                    }
                    (Some(_), None) => {
                        self.r.error(pos, "type-error", format!("`{}` is `void`: `return;` takes no value", cx.name));
                    }
                    (None, Some(_)) => {
                        self.r.error(pos, "type-error", format!("`{}` must return a value", cx.name));
                    }
                }
            }
            StmtKind::Block(list) => self.block(node, list, fs, cx, out),
        }
    }

    /// A value of the given kind (boolean or integer).
    pub(super) fn value(&mut self, node: &Node, e: &Expr, scope: &dyn Scope, is_bool: bool) -> Option<TExpr> {
        match (self.ty(node, e, scope, Ctx::Value), is_bool) {
            (Ty::Int(t), false) | (Ty::Bool(t), true) => Some(t),
            (Ty::Bad, _) => None,
            (other, b) => {
                self.expected(self.at(node, e), if b { "a boolean" } else { "an integer" }, &other);
                None
            }
        }
    }

    /// The statements of one action (several for a row copy, none after an
    /// error).
    fn action(&mut self, node: &Node, a: &Action, scope: &dyn Scope, cx: &mut Body) -> Vec<TStmtKind> {
        let u = match a {
            Action::Call(e) => return self.call_statement(node, e, scope, cx).into_iter().collect(),
            Action::Assign(u) => u,
        };
        if let Some(clock) = self.clock_target(u, scope) {
            self.clock_reset(node, u, clock, scope, cx);
            return Vec::new();
        }
        if let Some(copy) = self.row_copy(node, u, scope, cx) {
            return copy;
        }
        self.assign(node, u, scope).into_iter().collect()
    }

    /// An assignment to data: a variable, an element, a frame array.
    fn assign(&mut self, node: &Node, u: &Update, scope: &dyn Scope) -> Option<TStmtKind> {
        if let Some(to) = self.frame_whole_array(u, scope) {
            return self.frame_array_copy(node, u, to, scope);
        }
        let (place, is_bool) = self.place(node, &u.target, scope, true)?;
        if is_bool && u.op != AssignOp::Set {
            self.r.error(self.at(node, &u.target), "type-error", "a boolean can only be assigned with `=`");
            return None;
        }
        let value = self.value(node, &u.value, scope, is_bool)?;
        Some(TStmtKind::Assign { place, op: u.op, value })
    }

    /// What `e` names as an assignable place, and whether it is a boolean;
    /// `write`: it is assigned here (a variable outside the frame makes the
    /// function impure).
    pub(super) fn place(&mut self, node: &Node, e: &Expr, scope: &dyn Scope, write: bool) -> Option<(TPlace, bool)> {
        let pos = self.at(node, e);
        let (base, indices) = super::array::indexed(e);
        let ExprKind::Name(name) = &base.kind else {
            self.r.error(pos, "bad-assignment", "only variables and array elements can be assigned");
            return None;
        };
        let index = indices.first();
        let place = match (scope.lookup(name), index) {
            (Some(Sym::Var { var, is_bool, dims }), None) if dims.is_empty() => (TPlace::Var(var), is_bool),
            (Some(Sym::Var { var, is_bool, dims }), Some(_)) if !dims.is_empty() => {
                let i = self.flat_index(node, name, &indices, &dims, scope)?;
                (TPlace::Elem(var, dims.iter().product(), Box::new(i)), is_bool)
            }
            (Some(Sym::Var { .. }), None) => {
                self.r.error(pos, "array-assignment", format!("`{name}` is an array: name one element, `{name}[i]`"));
                return None;
            }
            (Some(Sym::Local { slot, is_bool }), None) => return Some((TPlace::Local(slot), is_bool)),
            (Some(Sym::RefParam { slot, is_bool }), None) => (TPlace::Ref(slot), is_bool),
            (Some(Sym::FrameArray { array, is_bool, dims }), Some(_)) => {
                let i = self.flat_index(node, name, &indices, &dims, scope)?;
                let place = TPlace::FrameElem(array, dims.iter().product(), Box::new(i));
                if matches!(array, TArray::Local(_)) {
                    return Some((place, is_bool));
                }
                (place, is_bool)
            }
            (Some(Sym::FrameArray { .. }), None) => {
                self.r.error(pos, "array-assignment", format!("`{name}` is an array: name one element, `{name}[i]`"));
                return None;
            }
            (Some(Sym::Clock(_) | Sym::Continuous(_)), _) => {
                self.r.error(pos, "unsupported", "not supported yet: a clock assigned or passed inside a function");
                return None;
            }
            (None, _) => {
                self.r.error(pos, "unknown-name", format!("unknown name `{name}`"));
                return None;
            }
            (Some(_), Some(_)) => {
                self.r.error(pos, "not-an-array", format!("`{name}` is not an array"));
                return None;
            }
            (Some(_), None) => {
                self.r.error(pos, "assign-to-constant", format!("`{name}` cannot be assigned"));
                return None;
            }
        };
        if write {
            self.impure = true;
        }
        Some(place)
    }

    /// A call `f(args)`; `void_ok`: it stands alone as a statement or update
    /// (where the clocks its function resets are lifted onto the edge).
    pub(super) fn ty_call(&mut self, node: &Node, e: &Expr, scope: &dyn Scope, void_ok: bool) -> Ty {
        let pos = self.at(node, e);
        let ExprKind::Call { of, name, args } = &e.kind else {
            self.r.error(pos, "bad-assignment", "only function calls and assignments can be updates");
            return Ty::Bad;
        };
        let found = match of {
            Some(instance) => self.instance_function(node, instance, name, scope),
            None => self.named_function(pos, name, scope),
        };
        let Some(f) = found else { return Ty::Bad };
        self.ty_call_of(node, pos, f, name, args, scope, void_ok)
    }

    /// The function `name` of the scope: global, or of the template being checked.
    fn named_function(&mut self, pos: Pos, name: &crate::syntax::ast::Ident, scope: &dyn Scope) -> Option<FnRef> {
        Some(match scope.lookup(&name.name) {
            Some(Sym::Function(f)) => f,
            Some(Sym::Broken) => return None,
            None if self.defining.as_deref() == Some(name.name.as_str()) => {
                self.r.error(pos, "unsupported", format!("not supported yet: the recursive call of `{}`", name.name));
                return None;
            }
            None if self.model.templates.iter().any(|t| t.name == name.name) => {
                self.r
                    .error(pos, "not-a-function", format!("`{}(...)` must be followed by `.` and a member", name.name))
                    .hint = Some(format!("as in `{}(1).x`: arguments select an instance of a template", name.name));
                return None;
            }
            None => {
                self.r.error(pos, "unknown-name", format!("unknown function `{}`", name.name));
                return None;
            }
            Some(_) => {
                self.r.error(pos, "not-a-function", format!("`{}` is not a function", name.name));
                return None;
            }
        })
    }

    /// Types the call of `f` with `args`.
    #[allow(clippy::too_many_arguments)]
    fn ty_call_of(
        &mut self,
        node: &Node,
        pos: Pos,
        f: FnRef,
        name: &crate::syntax::ast::Ident,
        args: &[Expr],
        scope: &dyn Scope,
        void_ok: bool,
    ) -> Ty {
        let func = self.function(f);
        let (params, ret, pure, resets) = (func.params.clone(), func.ret.clone(), func.pure, !func.resets.is_empty());
        let fname = name.name.clone();
        if args.len() != params.len() {
            self.r.error(
                pos,
                "wrong-arguments",
                format!("`{}` takes {} argument(s), not {}", name.name, params.len(), args.len()),
            );
            return Ty::Bad;
        }
        let mut targs = Vec::new();
        for (a, p) in args.iter().zip(&params) {
            if !p.dims.is_empty() {
                match self.array_arg(node, a, p, &fname, scope) {
                    Some(arr) => targs.push(TArg::Array(arr)),
                    None => return Ty::Bad,
                }
            } else if p.by_ref {
                let (place, is_bool) = match self.place(node, a, scope, false) {
                    Some(p) => p,
                    None => return Ty::Bad,
                };
                if is_bool != p.ty.is_bool {
                    let want = if p.ty.is_bool { "a boolean variable" } else { "an integer variable" };
                    self.r.error(self.at(node, a), "type-error", format!("expected {want} (passed by reference)"));
                    return Ty::Bad;
                }
                targs.push(TArg::Ref(place));
            } else {
                match self.value(node, a, scope, p.ty.is_bool) {
                    Some(v) => targs.push(TArg::Value(v)),
                    None => return Ty::Bad,
                }
            }
        }
        if !pure {
            if !self.effects {
                self.r
                    .error(
                        pos,
                        "impure-call",
                        format!(
                            "`{}` assigns variables: it cannot be called in a guard, invariant or property",
                            name.name
                        ),
                    )
                    .hint = Some("call it in an `update`, or make it only compute its result".into());
                return Ty::Bad;
            }
            self.impure = true;
        }
        if resets && !void_ok {
            self.r
                .error(
                    pos,
                    "unsupported",
                    format!("not supported yet: `{}` resets a clock and is called inside an expression", name.name),
                )
                .hint = Some(format!("call it as an update or statement of its own: `{}(...)`", name.name));
            return Ty::Bad;
        }
        let call = TExpr::Call(f, targs);
        match ret {
            Some(t) if t.is_bool => Ty::Bool(call),
            Some(_) => Ty::Int(call),
            None if void_ok => Ty::Int(call),
            None => {
                self.r.error(pos, "type-error", format!("`{}` is `void`: it has no value", name.name));
                Ty::Bad
            }
        }
    }
}
