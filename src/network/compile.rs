//! Typed expressions of one instance to [`Code`], and their value ranges.

use crate::model::typed::{Function, TExpr, VarRef};
use crate::network::code::{self, Code, Op};
use crate::network::function::Out;
use crate::syntax::ast::BinOp;

/// Data layout: the first slot of every variable.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    pub global: Vec<u32>,
    /// Per instance, per local variable.
    pub local: Vec<Vec<u32>>,
    /// `(lo, hi)` of every slot, for value ranges.
    pub ranges: Vec<(i64, i64)>,
    /// The model's global functions.
    pub functions: Vec<Function>,
    /// Per instance, its template's functions.
    pub local_functions: Vec<Vec<Function>>,
    /// Per instance, the values of its template's parameters.
    pub args: Vec<Vec<i64>>,
}

/// What a template's symbols mean for one instance and one edge.
pub struct Env<'a> {
    pub layout: &'a Layout,
    pub inst: usize,
    pub args: &'a [i64],
    pub selects: &'a [i64],
    /// When set, select `k` is read from slot `select_slot + k` instead of
    /// taking its value from `selects` (a [`super::SelectGroup`]'s edge).
    pub select_slot: Option<u32>,
}

/// Most operations one compiled expression may have (quantifiers unroll).
pub(crate) const MAX_OPS: usize = 1 << 20;

impl Env<'_> {
    pub(crate) fn slot(&self, v: VarRef) -> u32 {
        match v {
            VarRef::Global(g) => self.layout.global[g],
            VarRef::Local(l) => self.layout.local[self.inst][l],
            VarRef::Of(i, l) => self.layout.local[i][l],
        }
    }

    pub fn compile(&self, t: &TExpr) -> Result<Code, String> {
        let mut out = Out::default();
        self.emit(t, &mut out)?;
        Ok(out.finish())
    }

    /// The value of an expression that must not depend on the state.
    pub fn constant(&self, t: &TExpr) -> Option<i64> {
        self.compile(t).ok()?.as_const()
    }

    pub(crate) fn emit(&self, t: &TExpr, out: &mut Out) -> Result<(), String> {
        if out.ops.len() > MAX_OPS {
            return Err(format!("an expression compiles to more than {MAX_OPS} operations"));
        }
        match t {
            TExpr::Const(v) => out.ops.push(Op::Const(*v)),
            TExpr::Param(i) => out.ops.push(Op::Const(self.args[*i])),
            TExpr::Select(i) => out.ops.push(match self.select_slot {
                Some(first) => Op::Load(first + *i as u32),
                None => Op::Const(self.selects[*i]),
            }),
            TExpr::Bound(d) => out.ops.push(Op::Const(out.bound[out.bound.len() - 1 - d])),
            TExpr::Var(v) => out.ops.push(Op::Load(self.slot(*v))),
            TExpr::AtLoc(i, l) => out.ops.push(Op::AtLoc { inst: *i as u32, loc: *l as u32 }),
            TExpr::Index(v, len, i) => {
                self.emit(i, out)?;
                let base = self.slot(*v);
                match out.last_const() {
                    Some(k) if (0..*len as i64).contains(&k) => {
                        let k = k as u32;
                        out.ops.pop();
                        out.ops.push(Op::Load(base + k));
                    }
                    _ => out.ops.push(Op::LoadIdx { base, len: *len as u32 }),
                }
            }
            TExpr::InBounds(i, len) => {
                self.emit(i, out)?;
                match out.last_const() {
                    Some(k) if (0..*len as i64).contains(&k) => {}
                    _ => out.ops.push(Op::CheckIndex(*len as u32)),
                }
            }
            TExpr::Neg(a) => {
                self.emit(a, out)?;
                match out.last_const() {
                    Some(v) if v != i64::MIN => *out.ops.last_mut().expect("a constant") = Op::Const(-v),
                    _ => out.ops.push(Op::Neg),
                }
            }
            TExpr::Not(a) => {
                self.emit(a, out)?;
                match out.last_const() {
                    Some(v) => *out.ops.last_mut().expect("a constant") = Op::Const((v == 0) as i64),
                    _ => out.ops.push(Op::Not),
                }
            }
            TExpr::Binary(op @ (BinOp::And | BinOp::Or | BinOp::Imply), a, b) => {
                let start = out.ops.len();
                self.emit(a, out)?;
                if *op == BinOp::Imply {
                    out.ops.push(Op::Not);
                }
                let jump = out.ops.len();
                out.ops.push(if *op == BinOp::And { Op::JumpIfZero(0) } else { Op::JumpIfNonZero(0) });
                self.emit(b, out)?;
                out.ops.push(Op::Bool);
                let end = out.ops.len() as u32;
                match &mut out.ops[jump] {
                    Op::JumpIfZero(t) | Op::JumpIfNonZero(t) => *t = end,
                    _ => unreachable!(),
                }
                out.target();
                out.fold_tail(start);
            }
            TExpr::Binary(op, a, b) => {
                self.emit(a, out)?;
                self.emit(b, out)?;
                let n = out.ops.len();
                if let [Op::Const(x), Op::Const(y)] = out.ops[n - 2..]
                    && n >= out.barrier + 2
                    && let Ok(v) = code::binary(*op, x, y)
                {
                    out.ops.truncate(n - 2);
                    out.ops.push(Op::Const(v));
                    return Ok(());
                }
                out.ops.push(Op::Bin(*op));
            }
            TExpr::Cond(c, x, y) => {
                let start = out.ops.len();
                self.emit(c, out)?;
                let j1 = out.ops.len();
                out.ops.push(Op::PopJumpIfZero(0));
                self.emit(x, out)?;
                let j2 = out.ops.len();
                out.ops.push(Op::Jump(0));
                out.ops[j1] = Op::PopJumpIfZero(out.ops.len() as u32);
                out.target();
                self.emit(y, out)?;
                out.ops[j2] = Op::Jump(out.ops.len() as u32);
                out.target();
                out.fold_tail(start);
            }
            TExpr::Local(k) => {
                let l = out.local(*k);
                out.ops.push(Op::LoadLocal(l));
            }
            TExpr::Ref(k) => self.load_ref(*k, out),
            TExpr::Elem(a, len, i) => self.load_elem(*a, *len, i, out)?,
            TExpr::Call(f, args) => self.call(*f, args, out)?,
            TExpr::Assign { place, op, value, post } => self.assign_value(place, *op, value, *post, out)?,
            TExpr::Quant { forall, lo, hi, body } => {
                let range = |e: &TExpr, out: &mut Out| -> Result<i64, String> {
                    let mut o = Out::default();
                    o.bound = std::mem::take(&mut out.bound);
                    let r = self.emit(e, &mut o);
                    out.bound = o.bound;
                    r?;
                    match o.ops.as_slice() {
                        [Op::Const(v)] => Ok(*v),
                        _ => Err("a quantifier range must be constant".into()),
                    }
                };
                let (lo, hi) = (range(lo, out)?, range(hi, out)?);
                if lo > hi {
                    out.ops.push(Op::Const(*forall as i64));
                    return Ok(());
                }
                let start = out.ops.len();
                let mut jumps = Vec::new();
                for v in lo..=hi {
                    out.bound.push(v);
                    let r = self.emit(body, out);
                    out.bound.pop();
                    r?;
                    out.ops.push(Op::Bool);
                    if v < hi {
                        jumps.push(out.ops.len());
                        out.ops.push(if *forall { Op::JumpIfZero(0) } else { Op::JumpIfNonZero(0) });
                    }
                }
                let end = out.ops.len() as u32;
                for j in jumps {
                    match &mut out.ops[j] {
                        Op::JumpIfZero(t) | Op::JumpIfNonZero(t) => *t = end,
                        _ => unreachable!(),
                    }
                }
                out.target();
                out.fold_tail(start);
            }
        }
        Ok(())
    }

    /// An interval containing every value `t` takes over the variables'
    /// ranges (for clock bounds that depend on data).
    pub fn interval(&self, t: &TExpr) -> (i64, i64) {
        let full = (i64::MIN / 4, i64::MAX / 4);
        let clamp = |v: i128| v.clamp(full.0 as i128, full.1 as i128) as i64;
        match t {
            TExpr::Var(v) => self.layout.ranges[self.slot(*v) as usize],
            TExpr::Index(v, len, _) => {
                let base = self.slot(*v) as usize;
                let r = &self.layout.ranges[base..base + len];
                (r.iter().map(|x| x.0).min().unwrap_or(0), r.iter().map(|x| x.1).max().unwrap_or(0))
            }
            TExpr::AtLoc(..) | TExpr::Not(_) | TExpr::Quant { .. } => (0, 1),
            TExpr::InBounds(_, len) => (0, *len as i64 - 1),
            TExpr::Call(f, _) => match &self.function(*f).ret {
                Some(ty) => (self.constant(&ty.lo).unwrap_or(full.0), self.constant(&ty.hi).unwrap_or(full.1)),
                None => (0, 0),
            },
            TExpr::Neg(a) => {
                let (l, h) = self.interval(a);
                (clamp(-(h as i128)), clamp(-(l as i128)))
            }
            TExpr::Cond(_, a, b) => {
                let (x, y) = (self.interval(a), self.interval(b));
                (x.0.min(y.0), x.1.max(y.1))
            }
            TExpr::Binary(op, a, b) => {
                let ((al, ah), (bl, bh)) = (self.interval(a), self.interval(b));
                let (al, ah, bl, bh) = (al as i128, ah as i128, bl as i128, bh as i128);
                match op {
                    BinOp::Add => (clamp(al + bl), clamp(ah + bh)),
                    BinOp::Sub => (clamp(al - bh), clamp(ah - bl)),
                    BinOp::Mul => {
                        let p = [al * bl, al * bh, ah * bl, ah * bh];
                        (clamp(*p.iter().min().expect("4")), clamp(*p.iter().max().expect("4")))
                    }
                    BinOp::Div => {
                        let m = al.abs().max(ah.abs());
                        (clamp(-m), clamp(m))
                    }
                    BinOp::Mod => {
                        let m = bl.abs().max(bh.abs());
                        (clamp(-m), clamp(m))
                    }
                    // Over non-negative operands, `&` is at most either one and
                    // `|`, `^` stay below the next power of two; `>>` moves
                    // towards 0 or -1. Anything else: no bound.
                    BinOp::BitAnd if al >= 0 && bl >= 0 => (0, clamp(ah.min(bh))),
                    BinOp::BitOr | BinOp::BitXor if al >= 0 && bl >= 0 => {
                        let m = ah.max(bh);
                        (0, clamp((1i128 << (128 - m.leading_zeros())) - 1))
                    }
                    BinOp::Shr if bl >= 0 => (clamp(al.min(0)), clamp(ah.max(0))),
                    BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr => full,
                    BinOp::Min => (clamp(al.min(bl)), clamp(ah.min(bh))),
                    BinOp::Max => (clamp(al.max(bl)), clamp(ah.max(bh))),
                    BinOp::Eq
                    | BinOp::Ne
                    | BinOp::Lt
                    | BinOp::Le
                    | BinOp::Gt
                    | BinOp::Ge
                    | BinOp::And
                    | BinOp::Or
                    | BinOp::Imply => (0, 1),
                }
            }
            _ => match self.constant(t) {
                Some(v) => (v, v),
                None => full,
            },
        }
    }
}
