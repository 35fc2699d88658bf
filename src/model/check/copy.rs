//! Whole-array assignment in updates, `a = b` (UPPAAL copies an array into
//! one of the same type): one element assignment per element, in row-major
//! order. The two arrays are distinct variables or the same one, so the
//! element-wise copy is the copy: no element is read after it is written.

use crate::model::check::Checker;
use crate::model::check::expr::{Ctx, Scope, Sym, Ty};
use crate::model::typed::{AssignOp, TArray, TExpr, TUpdate, VarRef};
use crate::syntax::ast::{ExprKind, Update};
use crate::syntax::yaml::Node;

/// The array a plain `a = ...` assigns as a whole: its variable, whether its
/// elements are booleans, and its shape.
pub struct Whole {
    var: VarRef,
    is_bool: bool,
    dims: Vec<usize>,
}

impl Checker<'_> {
    /// `Some` when `u` is `a = ...` for an array `a` (no index).
    pub fn whole_array(&self, u: &Update, scope: &dyn Scope) -> Option<Whole> {
        let ExprKind::Name(name) = &u.target.kind else { return None };
        match scope.lookup(name) {
            Some(Sym::Var { var, is_bool, dims }) if !dims.is_empty() && u.op == AssignOp::Set => {
                Some(Whole { var, is_bool, dims })
            }
            _ => None,
        }
    }

    /// `a = b` for arrays of the same shape and element type, element by element.
    pub fn array_copy(&mut self, node: &Node, u: &Update, to: Whole, scope: &dyn Scope) -> Option<Vec<TUpdate>> {
        let pos = node.pos_in_text(u.value.span.start);
        let (from, len) = match self.ty(node, &u.value, scope, Ctx::Value) {
            Ty::Array { var: TArray::Var(var), is_bool, len, dims } if is_bool == to.is_bool && dims == to.dims => {
                (var, len)
            }
            Ty::Array { is_bool, dims, .. } => {
                let kind = |b: bool| if b { "booleans" } else { "integers" };
                let msg = format!(
                    "an array of {} {} is assigned an array of {} {}: the shapes and element types must be the same",
                    kind(to.is_bool),
                    super::array::shape("", &to.dims),
                    kind(is_bool),
                    super::array::shape("", &dims),
                );
                self.r.error(pos, "type-error", msg);
                return None;
            }
            Ty::Bad => return None,
            _ => {
                let name = match &u.target.kind {
                    ExprKind::Name(n) => n.as_str(),
                    _ => "",
                };
                let msg = format!(
                    "`{name}` is an array: assign it an array of its shape, or its elements, `{name}[i] = ...`"
                );
                self.r.error(pos, "array-assignment", msg);
                return None;
            }
        };
        let elem = |k: usize| Box::new(TExpr::Const(k as i64));
        Some(
            (0..len)
                .map(|k| TUpdate::Data {
                    var: to.var,
                    len: Some(len),
                    index: Some(*elem(k)),
                    op: AssignOp::Set,
                    value: TExpr::Index(from, len, elem(k)),
                })
                .collect(),
        )
    }
}
