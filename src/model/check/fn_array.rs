//! Arrays in user functions: arrays local to a function (zero-filled, or
//! initialised by `{...}`), array parameters (by reference: the caller's
//! array itself; by value: a copy in the callee's frame) and whole-array
//! assignment `b = a` inside bodies. Local arrays and copies occupy
//! consecutive frame slots, one per element, row-major like variables.

use crate::model::check::Checker;
use crate::model::check::array::{MAX_SIZE, shape};
use crate::model::check::expr::{Ctx, Scope, Sym, Ty};
use crate::model::check::function::{Body, FnScope};
use crate::model::typed::{AssignOp, TArray, TExpr, TParam, TPlace, TStmtKind, TValueTy};
use crate::syntax::ast::{Expr, ExprKind, Init, LocalVar, Update};
use crate::syntax::yaml::Node;

/// The array a plain `a = ...` in a function body assigns as a whole.
pub(super) struct WholeTarget {
    array: TArray,
    is_bool: bool,
    dims: Vec<usize>,
}

impl Checker<'_> {
    /// The sizes `[N][M]` of a local array or an array parameter: constants.
    pub(super) fn sizes(&mut self, node: &Node, dims: &[Expr], scope: &dyn Scope) -> Option<Vec<usize>> {
        let mut out = Vec::with_capacity(dims.len());
        let mut total: i64 = 1;
        for e in dims {
            let v = match self.ty(node, e, scope, Ctx::Const) {
                Ty::Int(t) => match t.as_const() {
                    Some(v) => v,
                    None => {
                        self.r.error(self.at(node, e), "not-constant", "an array's size must be a constant");
                        return None;
                    }
                },
                Ty::Bad => return None,
                other => {
                    self.expected(self.at(node, e), "a constant integer", &other);
                    return None;
                }
            };
            total = total.saturating_mul(v.max(0));
            if !(1..=MAX_SIZE).contains(&v) || total > MAX_SIZE {
                let msg = format!("a size must be between 1 and {MAX_SIZE} in all, not {v}");
                self.r.error(self.at(node, e), "bad-size", msg);
                return None;
            }
            out.push(v as usize);
        }
        Some(out)
    }

    /// `int[0, 3] buf[N] = {...};`: the elements' frame slots, and their
    /// initialisation (zeros when there is no initialiser).
    pub(super) fn local_array(
        &mut self,
        node: &Node,
        v: &LocalVar,
        ty: &TValueTy,
        fs: &mut FnScope<'_>,
        cx: &mut Body,
        out: &mut dyn FnMut(TStmtKind),
    ) {
        let Some(dims) = self.sizes(node, &v.dims, fs) else { return };
        let len: usize = dims.iter().product();
        let slot = cx.frame.len();
        // A bad initialiser is reported and the array declared anyway (zero-
        // filled), so that its uses raise no follow-on errors.
        let zeros = || vec![TExpr::Const(0); len];
        let values: Vec<TExpr> = match &v.init {
            None => zeros(),
            Some(Init::List(items, span)) => {
                let mut flat = Vec::new();
                flatten(items, &mut flat);
                if flat.len() == len {
                    flat.iter().map(|e| self.value(node, e, fs, ty.is_bool).unwrap_or(TExpr::Const(0))).collect()
                } else {
                    let msg = format!(
                        "`{}` has {len} element(s), its initialiser {}",
                        shape(&v.name.name, &dims),
                        flat.len()
                    );
                    self.r.error(node.pos_in_text(span.start), "bad-initialiser", msg);
                    zeros()
                }
            }
            Some(Init::Value(e)) => match self.ty(node, e, fs, Ctx::Value) {
                Ty::Array { var, is_bool, dims: d, .. } if is_bool == ty.is_bool && d == dims => {
                    cx.frame.extend(std::iter::repeat_n(ty.clone(), len));
                    out(TStmtKind::CopyArray { to: TArray::Local(slot), from: var, len });
                    let sym = Sym::FrameArray { array: TArray::Local(slot), is_bool: ty.is_bool, dims };
                    fs.names.push((v.name.name.clone(), sym));
                    return;
                }
                Ty::Bad => zeros(),
                _ => {
                    let msg = format!("`{}` is an array: initialise it with `{{...}}`", v.name.name);
                    self.r.error(self.at(node, e), "type-error", msg);
                    zeros()
                }
            },
        };
        cx.frame.extend(std::iter::repeat_n(ty.clone(), len));
        for (k, value) in values.into_iter().enumerate() {
            out(TStmtKind::Assign { place: TPlace::Local(slot + k), op: AssignOp::Set, value });
        }
        let sym = Sym::FrameArray { array: TArray::Local(slot), is_bool: ty.is_bool, dims };
        fs.names.push((v.name.name.clone(), sym));
    }

    /// `Some` when `u` is `a = ...` for a whole array `a` seen from a body.
    pub(super) fn frame_whole_array(&self, u: &Update, scope: &dyn Scope) -> Option<WholeTarget> {
        let ExprKind::Name(name) = &u.target.kind else { return None };
        if u.op != AssignOp::Set {
            return None;
        }
        match scope.lookup(name) {
            Some(Sym::Var { var, is_bool, dims }) if !dims.is_empty() => {
                Some(WholeTarget { array: TArray::Var(var), is_bool, dims })
            }
            Some(Sym::FrameArray { array, is_bool, dims }) => Some(WholeTarget { array, is_bool, dims }),
            _ => None,
        }
    }

    /// `b = a` in a body: arrays of the same shape and element type.
    pub(super) fn frame_array_copy(
        &mut self,
        node: &Node,
        u: &Update,
        to: WholeTarget,
        scope: &dyn Scope,
    ) -> Option<TStmtKind> {
        let pos = self.at(node, &u.value);
        match self.ty(node, &u.value, scope, Ctx::Value) {
            Ty::Array { var, is_bool, len, dims } if is_bool == to.is_bool && dims == to.dims => {
                if !matches!(to.array, TArray::Local(_)) {
                    self.impure = true;
                }
                Some(TStmtKind::CopyArray { to: to.array, from: var, len })
            }
            Ty::Bad => None,
            _ => {
                let msg = format!(
                    "an array {} is assigned something else: assign it an array of its shape and element type",
                    shape("", &to.dims)
                );
                self.r.error(pos, "type-error", msg);
                None
            }
        }
    }

    /// An argument for the array parameter `p` of `f`: a whole array of its
    /// shape and element type.
    pub(super) fn array_arg(
        &mut self,
        node: &Node,
        a: &Expr,
        p: &TParam,
        f: &str,
        scope: &dyn Scope,
    ) -> Option<TArray> {
        let pos = self.at(node, a);
        if matches!(a.kind, ExprKind::Index { .. }) {
            let msg = "not supported yet: a row of a multi-dimensional array passed to a function";
            self.r.error(pos, "unsupported", msg);
            return None;
        }
        match self.ty(node, a, scope, Ctx::Value) {
            Ty::Array { var, is_bool, dims, .. } if is_bool == p.ty.is_bool && dims == p.dims => Some(var),
            Ty::Bad => None,
            _ => {
                let kind = if p.ty.is_bool { "booleans" } else { "integers" };
                let msg = format!("`{f}` takes an array of {kind} {} here", shape("", &p.dims));
                self.r.error(pos, "type-error", msg);
                None
            }
        }
    }
}

fn flatten<'a>(items: &'a [Init], out: &mut Vec<&'a Expr>) {
    for i in items {
        match i {
            Init::Value(e) => out.push(e),
            Init::List(inner, _) => flatten(inner, out),
        }
    }
}
