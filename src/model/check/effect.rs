//! Assignments inside expressions, as C and UPPAAL have them: `a[n++] = x`,
//! `y = ++n`, `x = (n += 2)`. They are typed where effects are allowed
//! (updates and function bodies) into `TExpr::Assign`, which the network
//! compiles like a statement's assignment; guards, invariants and
//! properties must be free of side effects, so there they are refused with
//! a located error. Evaluation is left to right: a target's indices before
//! the assigned value, operands in the order written.

use crate::model::check::Checker;
use crate::model::check::expr::{Scope, Ty};
use crate::model::typed::{AssignOp, TExpr};
use crate::syntax::ast::{Expr, ExprKind, Update};
use crate::syntax::yaml::Node;

impl Checker<'_> {
    /// An `ExprKind::Assign`: its value is the target's new value (the old
    /// one for `n++`, `n--`).
    pub(super) fn ty_assign(&mut self, node: &Node, e: &Expr, scope: &dyn Scope) -> Ty {
        let ExprKind::Assign { target, op, value, post } = &e.kind else { unreachable!("an assignment") };
        let pos = self.at(node, e);
        if !self.effects {
            self.r
                .error(
                    pos,
                    "side-effect",
                    "an assignment (`=`, `+=`, `++`, `--`, ...) inside a guard, invariant or property: \
                     these must be free of side effects",
                )
                .hint = Some(if *op == AssignOp::Set {
                "to compare, write `==`; to assign, use the edge's `update`".into()
            } else {
                "assign in the edge's `update`".into()
            });
            return Ty::Bad;
        }
        let Some((place, is_bool)) = self.place(node, target, scope, true) else { return Ty::Bad };
        if is_bool && *op != AssignOp::Set {
            self.r.error(self.at(node, target), "type-error", "a boolean can only be assigned with `=`");
            return Ty::Bad;
        }
        let Some(value) = self.value(node, value, scope, is_bool) else { return Ty::Bad };
        let t = TExpr::Assign { place: Box::new(place), op: *op, value: Box::new(value), post: *post };
        if is_bool { Ty::Bool(t) } else { Ty::Int(t) }
    }
}

/// `u` assigns something inside its target's indices or its value
/// (`a[n++] = x`, `x = y++`): the update then runs as one expression, so
/// that each part is evaluated once and in order.
pub(super) fn has_inner_effect(u: &Update) -> bool {
    has_assign(&u.target) || has_assign(&u.value)
}

fn has_assign(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Assign { .. } => true,
        ExprKind::Index { base, index } => has_assign(base) || has_assign(index),
        ExprKind::Unary { arg, .. } => has_assign(arg),
        ExprKind::Binary { lhs, rhs, .. } => has_assign(lhs) || has_assign(rhs),
        ExprKind::Cond { cond, then, other } => has_assign(cond) || has_assign(then) || has_assign(other),
        ExprKind::Call { args, .. } => args.iter().any(has_assign),
        ExprKind::Quant { lo, hi, body, .. } => has_assign(lo) || has_assign(hi) || has_assign(body),
        _ => false,
    }
}
