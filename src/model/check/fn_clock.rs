//! Clock resets in user functions, lifted onto the calling edge.
//!
//! A zone's resets are fixed per edge, so a function body cannot reset a
//! clock at run time. A reset the body always performs, to a constant, is
//! the same on every run of the call: it is lifted out of the body and
//! applied by the edge right after the call's data effect (a reset changes
//! no data and data never reads a clock, so only its order among the
//! edge's clock writes matters, and that order is kept). A reset that may
//! not run (under `if`, in a loop, after a `return`), to a computed value,
//! or by a call inside an expression has no such fixed form: "not supported
//! yet". So does a clock read in a body (refused where it is typed).

use crate::model::check::Checker;
use crate::model::check::expr::{Ctx, Scope, Sym, Ty};
use crate::model::check::function::Body;
use crate::model::fold::is_static;
use crate::model::typed::{AssignOp, Cvar, FnRef, Function, TExpr, TStmtKind, TUpdate};
use crate::syntax::ast::{Expr, ExprKind, Update};
use crate::syntax::yaml::Node;

impl Checker<'_> {
    pub(super) fn function(&self, f: FnRef) -> &Function {
        match f {
            FnRef::Global(i) => &self.model.functions[i],
            FnRef::Template(i) => &self.template_functions[i],
            FnRef::Of(inst, i) => &self.model.templates[self.model.instances[inst].template].functions[i],
        }
    }

    /// The clock `u` assigns as a whole (`x = ...`), if it is one.
    pub(super) fn clock_target(&self, u: &Update, scope: &dyn Scope) -> Option<Cvar> {
        let ExprKind::Name(name) = &u.target.kind else { return None };
        match scope.lookup(name) {
            Some(Sym::Clock(c)) => Some(c),
            _ => None,
        }
    }

    /// `x = c` in a body: recorded for the calling edge, when it can be.
    pub(super) fn clock_reset(&mut self, node: &Node, u: &Update, clock: Cvar, scope: &dyn Scope, cx: &mut Body) {
        let pos = self.at(node, &u.target);
        self.impure = true;
        if u.op != AssignOp::Set {
            self.r.error(pos, "bad-clock-update", "a clock can only be reset with `=`");
            return;
        }
        if cx.conditional || cx.returned {
            self.r.error(
                pos,
                "unsupported",
                "not supported yet: a clock reset that may not run (under `if`, in a loop, after a `return`) inside a function",
            );
            return;
        }
        let value_pos = self.at(node, &u.value);
        match self.ty(node, &u.value, scope, Ctx::Guard) {
            Ty::Int(t) if is_static(&t) => match t.as_const() {
                Some(v) if v < 0 => {
                    self.r.error(
                        value_pos,
                        "negative-clock-reset",
                        format!("a clock cannot be set to {v}: clocks are never negative"),
                    );
                }
                _ => cx.resets.push((clock, t)),
            },
            Ty::Int(_) | Ty::Lin(_) => {
                self.r.error(
                    value_pos,
                    "unsupported",
                    "not supported yet: a clock set to a computed value inside a function (only constants)",
                );
            }
            Ty::Bad => {}
            other => {
                self.expected(value_pos, "an integer", &other);
            }
        }
    }

    /// `f(...);` in a body: the statement, with `f`'s resets added to the
    /// body's when it always runs.
    pub(super) fn call_statement(
        &mut self,
        node: &Node,
        e: &Expr,
        scope: &dyn Scope,
        cx: &mut Body,
    ) -> Option<TStmtKind> {
        let t = self.standalone_call(node, e, scope)?;
        let resets = self.lifted(&t);
        if !resets.is_empty() && (cx.conditional || cx.returned) {
            self.r.error(
                self.at(node, e),
                "unsupported",
                "not supported yet: a call that resets a clock and may not run (under `if`, in a loop, after a `return`) inside a function",
            );
            return None;
        }
        cx.resets.extend(resets);
        Some(TStmtKind::Eval(t))
    }

    /// An edge's update `f(...)`: the call, then the clocks `f` resets.
    pub(super) fn call_update(&mut self, node: &Node, e: &Expr, scope: &dyn Scope) -> Option<Vec<TUpdate>> {
        let t = self.standalone_call(node, e, scope)?;
        let resets = self.lifted(&t).into_iter().map(|(var, value)| TUpdate::Continuous { var, terms: vec![], value });
        Some(std::iter::once(TUpdate::Effect(t)).chain(resets).collect())
    }

    /// A call standing alone as a statement or update, typed.
    fn standalone_call(&mut self, node: &Node, e: &Expr, scope: &dyn Scope) -> Option<TExpr> {
        match self.ty_call(node, e, scope, true) {
            Ty::Int(t) | Ty::Bool(t) => Some(t),
            _ => None,
        }
    }

    fn lifted(&self, call: &TExpr) -> Vec<(Cvar, TExpr)> {
        match call {
            TExpr::Call(f, _) => self.function(*f).resets.clone(),
            _ => Vec::new(),
        }
    }
}
