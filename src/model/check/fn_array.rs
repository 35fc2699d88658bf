//! Arrays in user functions: arrays local to a function (zero-filled, or
//! initialised by `{...}`), array parameters (by reference: the caller's
//! array itself; by value: a copy in the callee's frame) and whole-array
//! assignment `b = a` inside bodies, rows included (`m[i] = r`, `r = m[i]`,
//! `m[i] = n[j]`). Local arrays and copies occupy consecutive frame slots,
//! one per element, row-major like variables.

use crate::model::check::Checker;
use crate::model::check::array::{MAX_SIZE, add, mul, shape};
use crate::model::check::expr::{Ctx, Scope, Sym, Ty};
use crate::model::check::function::{Body, FnScope};
use crate::model::typed::{AssignOp, TArray, TExpr, TParam, TPlace, TStmtKind, TValueTy};
use crate::syntax::ast::{Expr, ExprKind, Init, LocalVar, Update};
use crate::syntax::yaml::Node;

/// A whole array or a row of one (`m[i]` of `m[N][M]`: fewer indices than
/// dimensions), seen from a body.
struct Row {
    array: TArray,
    is_bool: bool,
    /// The whole array's length.
    len: usize,
    /// The row's shape.
    dims: Vec<usize>,
    /// The flat index of the row's first element.
    offset: TExpr,
}

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

    /// `e` as a whole array or a row of one, when it names an array with at
    /// most as many indices as it has dimensions less one: `None` when it
    /// does not, `Some(None)` after an error in its indices (reported).
    fn row(&mut self, node: &Node, e: &Expr, scope: &dyn Scope) -> Option<Option<Row>> {
        let (base, indices) = super::array::indexed(e);
        let ExprKind::Name(name) = &base.kind else { return None };
        let (array, is_bool, dims) = match scope.lookup(name)? {
            Sym::Var { var, is_bool, dims } => (TArray::Var(var), is_bool, dims),
            Sym::FrameArray { array, is_bool, dims } => (array, is_bool, dims),
            _ => return None,
        };
        if indices.len() >= dims.len() {
            return None;
        }
        let (outer, inner) = dims.split_at(indices.len());
        let what = format!("`{name}`");
        let mut flat = TExpr::Const(0);
        for (i, &n) in indices.iter().zip(outer) {
            let Some(ix) = self.index(node, i, scope, n, &what) else { return Some(None) };
            // Each index within its own dimension, as for an element.
            let ix = if ix.as_const().is_some() { ix } else { TExpr::InBounds(Box::new(ix), n) };
            flat = add(mul(flat, n as i64), ix);
        }
        let offset = mul(flat, inner.iter().product::<usize>() as i64);
        Some(Some(Row { array, is_bool, len: dims.iter().product(), dims: inner.to_vec(), offset }))
    }

    /// `m[i] = n[j]`, `m[i] = r`, `r = m[i]` in a body (a row on at least
    /// one side): `None` when `u` is no such assignment. The copy is element
    /// by element, row-major, each row's indices computed once (the
    /// target's first) into a slot of the frame; both sides have the same
    /// shape and element type. Empty after an error (reported).
    pub(super) fn row_copy(
        &mut self,
        node: &Node,
        u: &Update,
        scope: &dyn Scope,
        cx: &mut Body,
    ) -> Option<Vec<TStmtKind>> {
        let is_row = |e: &Expr| {
            let (base, indices) = super::array::indexed(e);
            let ExprKind::Name(name) = &base.kind else { return false };
            match scope.lookup(name) {
                Some(Sym::Var { dims, .. } | Sym::FrameArray { dims, .. }) => {
                    !indices.is_empty() && indices.len() < dims.len()
                }
                _ => false,
            }
        };
        if u.op != AssignOp::Set || !(is_row(&u.target) || is_row(&u.value)) {
            return None;
        }
        let side = |c: &mut Self, e: &Expr| match c.row(node, e, scope) {
            Some(r) => r,
            None => {
                let msg = "a row is assigned to or from a whole array or a row of its shape only";
                c.r.error(c.at(node, e), "type-error", msg);
                None
            }
        };
        let (Some(to), Some(from)) = (side(self, &u.target), side(self, &u.value)) else { return Some(Vec::new()) };
        if to.dims != from.dims || to.is_bool != from.is_bool {
            let msg = format!(
                "a row {} is assigned a row or array {}: both sides need the same shape and element type",
                shape("", &to.dims),
                shape("", &from.dims)
            );
            self.r.error(self.at(node, &u.value), "type-error", msg);
            return Some(Vec::new());
        }
        if !matches!(to.array, TArray::Local(_)) {
            self.impure = true;
        }
        let mut out = Vec::new();
        // A computed offset is kept in a frame slot: the indices are
        // evaluated once, before any element is written.
        let mut first = |offset: TExpr, len: usize, out: &mut Vec<TStmtKind>| match offset.as_const() {
            Some(_) => offset,
            None => {
                let slot = cx.frame.len();
                cx.frame.push(TValueTy { is_bool: false, lo: TExpr::Const(0), hi: TExpr::Const(len as i64) });
                out.push(TStmtKind::Assign { place: TPlace::Local(slot), op: AssignOp::Set, value: offset });
                TExpr::Local(slot)
            }
        };
        let (at_to, at_from) = (first(to.offset, to.len, &mut out), first(from.offset, from.len, &mut out));
        for k in 0..to.dims.iter().product::<usize>() {
            let (i, j) = (
                Box::new(add(at_to.clone(), TExpr::Const(k as i64))),
                Box::new(add(at_from.clone(), TExpr::Const(k as i64))),
            );
            let place = match to.array {
                TArray::Var(v) => TPlace::Elem(v, to.len, i),
                a => TPlace::FrameElem(a, to.len, i),
            };
            let value = match from.array {
                TArray::Var(v) => TExpr::Index(v, from.len, j),
                a => TExpr::Elem(a, from.len, j),
            };
            out.push(TStmtKind::Assign { place, op: AssignOp::Set, value });
        }
        Some(out)
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
