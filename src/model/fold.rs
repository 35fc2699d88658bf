//! Substituting template parameters into typed expressions and folding what
//! becomes constant.

use crate::model::typed::{TArg, TExpr, TPlace};
use crate::syntax::ast::BinOp;

/// The value of `t` once the parameters are `args`, if it is constant and
/// evaluates without error.
pub fn fold(t: &TExpr, args: &[i64]) -> Option<i64> {
    subst(t, args).as_const()
}

/// `t` with every parameter replaced by its value and constant parts folded.
/// Folding stops (leaving the node) where it would overflow or divide by zero,
/// so the error stays a run-time one with its trace.
pub fn subst(t: &TExpr, args: &[i64]) -> TExpr {
    let b = |t: &TExpr| Box::new(subst(t, args));
    match t {
        TExpr::Param(i) => TExpr::Const(args.get(*i).copied().unwrap_or(0)),
        TExpr::Const(_)
        | TExpr::Select(_)
        | TExpr::Bound(_)
        | TExpr::Var(_)
        | TExpr::AtLoc(..)
        | TExpr::Local(_)
        | TExpr::Ref(_) => t.clone(),
        TExpr::Call(f, targs) => TExpr::Call(
            *f,
            targs
                .iter()
                .map(|a| match a {
                    TArg::Value(e) => TArg::Value(subst(e, args)),
                    TArg::Ref(p) => TArg::Ref(subst_place(p, args)),
                    TArg::Array(a) => TArg::Array(*a),
                })
                .collect(),
        ),
        TExpr::Assign { place, op, value, post } => {
            TExpr::Assign { place: Box::new(subst_place(place, args)), op: *op, value: b(value), post: *post }
        }
        TExpr::Index(v, len, i) => TExpr::Index(*v, *len, b(i)),
        TExpr::Elem(a, len, i) => TExpr::Elem(*a, *len, b(i)),
        TExpr::InBounds(i, len) => match subst(i, args) {
            TExpr::Const(k) if (0..*len as i64).contains(&k) => TExpr::Const(k),
            i => TExpr::InBounds(Box::new(i), *len),
        },
        TExpr::Neg(a) => match subst(a, args) {
            TExpr::Const(v) if v != i64::MIN => TExpr::Const(-v),
            a => TExpr::Neg(Box::new(a)),
        },
        TExpr::Not(a) => match subst(a, args) {
            TExpr::Const(v) => TExpr::Const((v == 0) as i64),
            a => TExpr::Not(Box::new(a)),
        },
        TExpr::Binary(op, l, r) => {
            let (l, r) = (subst(l, args), subst(r, args));
            match (l.as_const(), r.as_const()) {
                (Some(u), Some(v)) => match const_binary(*op, u, v) {
                    Some(x) => TExpr::Const(x),
                    None => TExpr::Binary(*op, Box::new(l), Box::new(r)),
                },
                _ => TExpr::Binary(*op, Box::new(l), Box::new(r)),
            }
        }
        TExpr::Cond(c, x, y) => match subst(c, args) {
            TExpr::Const(v) => subst(if v != 0 { x } else { y }, args),
            c => TExpr::Cond(Box::new(c), b(x), b(y)),
        },
        TExpr::Quant { forall, lo, hi, body } => TExpr::Quant { forall: *forall, lo: b(lo), hi: b(hi), body: b(body) },
    }
}

fn subst_place(p: &TPlace, args: &[i64]) -> TPlace {
    match p {
        TPlace::Elem(v, len, i) => TPlace::Elem(*v, *len, Box::new(subst(i, args))),
        TPlace::FrameElem(a, len, i) => TPlace::FrameElem(*a, *len, Box::new(subst(i, args))),
        TPlace::Var(_) | TPlace::Local(_) | TPlace::Ref(_) => p.clone(),
    }
}

/// A binary operation on constants; `None` on overflow, division by zero or a
/// shift count outside `0..=63`.
pub fn const_binary(op: BinOp, u: i64, v: i64) -> Option<i64> {
    Some(match op {
        BinOp::Add => u.checked_add(v)?,
        BinOp::Sub => u.checked_sub(v)?,
        BinOp::Mul => u.checked_mul(v)?,
        BinOp::Div => u.checked_div(v)?,
        BinOp::Mod => u.checked_rem(v)?,
        BinOp::BitAnd => u & v,
        BinOp::BitOr => u | v,
        BinOp::BitXor => u ^ v,
        BinOp::Shl => {
            let s = u32::try_from(v).ok().filter(|s| *s < 64)?;
            // Checked: shifting back must give `u` again (no bit lost, sign kept).
            let r = u << s;
            (r >> s == u).then_some(r)?
        }
        BinOp::Shr => u >> u32::try_from(v).ok().filter(|s| *s < 64)?,
        BinOp::Min => u.min(v),
        BinOp::Max => u.max(v),
        BinOp::Eq => (u == v) as i64,
        BinOp::Ne => (u != v) as i64,
        BinOp::Lt => (u < v) as i64,
        BinOp::Le => (u <= v) as i64,
        BinOp::Gt => (u > v) as i64,
        BinOp::Ge => (u >= v) as i64,
        BinOp::And => (u != 0 && v != 0) as i64,
        BinOp::Or => (u != 0 || v != 0) as i64,
        BinOp::Imply => (u == 0 || v != 0) as i64,
    })
}

/// Depends only on constants and template parameters.
pub fn is_static(t: &TExpr) -> bool {
    match t {
        TExpr::Const(_) | TExpr::Param(_) => true,
        TExpr::Select(_)
        | TExpr::Bound(_)
        | TExpr::Var(_)
        | TExpr::AtLoc(..)
        | TExpr::Index(..)
        | TExpr::Elem(..)
        | TExpr::Local(_)
        | TExpr::Ref(_)
        | TExpr::Call(..)
        | TExpr::Assign { .. }
        | TExpr::Quant { .. } => false,
        TExpr::Neg(a) | TExpr::Not(a) | TExpr::InBounds(a, _) => is_static(a),
        TExpr::Binary(_, a, b) => is_static(a) && is_static(b),
        TExpr::Cond(c, a, b) => is_static(c) && is_static(a) && is_static(b),
    }
}
