//! Typed expressions of one instance to [`Code`], and their value ranges.

use crate::model::typed::{TExpr, VarRef};
use crate::network::code::{self, Code, Op};
use crate::syntax::ast::BinOp;

/// Data layout: the first slot of every variable.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    pub global: Vec<u32>,
    /// Per instance, per local variable.
    pub local: Vec<Vec<u32>>,
    /// `(lo, hi)` of every slot, for value ranges.
    pub ranges: Vec<(i64, i64)>,
}

/// What a template's symbols mean for one instance and one edge.
pub struct Env<'a> {
    pub layout: &'a Layout,
    pub inst: usize,
    pub args: &'a [i64],
    pub selects: &'a [i64],
}

/// Most operations one compiled expression may have (quantifiers unroll).
const MAX_OPS: usize = 1 << 20;

impl Env<'_> {
    fn slot(&self, v: VarRef) -> u32 {
        match v {
            VarRef::Global(g) => self.layout.global[g],
            VarRef::Local(l) => self.layout.local[self.inst][l],
            VarRef::Of(i, l) => self.layout.local[i][l],
        }
    }

    pub fn compile(&self, t: &TExpr) -> Result<Code, String> {
        let mut ops = Vec::new();
        self.emit(t, &mut Vec::new(), &mut ops)?;
        Ok(Code { ops })
    }

    /// The value of an expression that must not depend on the state.
    pub fn constant(&self, t: &TExpr) -> Option<i64> {
        self.compile(t).ok()?.as_const()
    }

    fn emit(&self, t: &TExpr, bound: &mut Vec<i64>, ops: &mut Vec<Op>) -> Result<(), String> {
        if ops.len() > MAX_OPS {
            return Err(format!("an expression compiles to more than {MAX_OPS} operations"));
        }
        match t {
            TExpr::Const(v) => ops.push(Op::Const(*v)),
            TExpr::Param(i) => ops.push(Op::Const(self.args[*i])),
            TExpr::Select(i) => ops.push(Op::Const(self.selects[*i])),
            TExpr::Bound(d) => ops.push(Op::Const(bound[bound.len() - 1 - d])),
            TExpr::Var(v) => ops.push(Op::Load(self.slot(*v))),
            TExpr::AtLoc(i, l) => ops.push(Op::AtLoc { inst: *i as u32, loc: *l as u32 }),
            TExpr::Index(v, len, i) => {
                self.emit(i, bound, ops)?;
                let base = self.slot(*v);
                match ops.last() {
                    Some(Op::Const(k)) if (0..*len as i64).contains(k) => {
                        let k = *k as u32;
                        ops.pop();
                        ops.push(Op::Load(base + k));
                    }
                    _ => ops.push(Op::LoadIdx { base, len: *len as u32 }),
                }
            }
            TExpr::Neg(a) => {
                self.emit(a, bound, ops)?;
                match ops.last_mut() {
                    Some(Op::Const(v)) if *v != i64::MIN => *v = -*v,
                    _ => ops.push(Op::Neg),
                }
            }
            TExpr::Not(a) => {
                self.emit(a, bound, ops)?;
                match ops.last_mut() {
                    Some(Op::Const(v)) => *v = (*v == 0) as i64,
                    _ => ops.push(Op::Not),
                }
            }
            TExpr::Binary(op @ (BinOp::And | BinOp::Or | BinOp::Imply), a, b) => {
                let start = ops.len();
                self.emit(a, bound, ops)?;
                if *op == BinOp::Imply {
                    ops.push(Op::Not);
                }
                let jump = ops.len();
                ops.push(if *op == BinOp::And { Op::JumpIfZero(0) } else { Op::JumpIfNonZero(0) });
                self.emit(b, bound, ops)?;
                ops.push(Op::Bool);
                let end = ops.len() as u32;
                match &mut ops[jump] {
                    Op::JumpIfZero(t) | Op::JumpIfNonZero(t) => *t = end,
                    _ => unreachable!(),
                }
                fold_tail(ops, start);
            }
            TExpr::Binary(op, a, b) => {
                self.emit(a, bound, ops)?;
                self.emit(b, bound, ops)?;
                let n = ops.len();
                if let [Op::Const(x), Op::Const(y)] = ops[n - 2..]
                    && let Ok(v) = code::binary(*op, x, y)
                {
                    ops.truncate(n - 2);
                    ops.push(Op::Const(v));
                    return Ok(());
                }
                ops.push(Op::Bin(*op));
            }
            TExpr::Cond(c, x, y) => {
                let start = ops.len();
                self.emit(c, bound, ops)?;
                let j1 = ops.len();
                ops.push(Op::PopJumpIfZero(0));
                self.emit(x, bound, ops)?;
                let j2 = ops.len();
                ops.push(Op::Jump(0));
                ops[j1] = Op::PopJumpIfZero(ops.len() as u32);
                self.emit(y, bound, ops)?;
                ops[j2] = Op::Jump(ops.len() as u32);
                fold_tail(ops, start);
            }
            TExpr::Quant { forall, lo, hi, body } => {
                let range = |e: &TExpr, bound: &mut Vec<i64>| -> Result<i64, String> {
                    let mut o = Vec::new();
                    self.emit(e, bound, &mut o)?;
                    match o.as_slice() {
                        [Op::Const(v)] => Ok(*v),
                        _ => Err("a quantifier range must be constant".into()),
                    }
                };
                let (lo, hi) = (range(lo, bound)?, range(hi, bound)?);
                if lo > hi {
                    ops.push(Op::Const(*forall as i64));
                    return Ok(());
                }
                let start = ops.len();
                let mut jumps = Vec::new();
                for v in lo..=hi {
                    bound.push(v);
                    let r = self.emit(body, bound, ops);
                    bound.pop();
                    r?;
                    ops.push(Op::Bool);
                    if v < hi {
                        jumps.push(ops.len());
                        ops.push(if *forall { Op::JumpIfZero(0) } else { Op::JumpIfNonZero(0) });
                    }
                }
                let end = ops.len() as u32;
                for j in jumps {
                    match &mut ops[j] {
                        Op::JumpIfZero(t) | Op::JumpIfNonZero(t) => *t = end,
                        _ => unreachable!(),
                    }
                }
                fold_tail(ops, start);
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
                    _ => (0, 1),
                }
            }
            _ => match self.constant(t) {
                Some(v) => (v, v),
                None => full,
            },
        }
    }
}

/// Replaces the program from `start` by its value when it has no loads.
fn fold_tail(ops: &mut Vec<Op>, start: usize) {
    let tail = &ops[start..];
    if tail.iter().any(|o| matches!(o, Op::Load(_) | Op::LoadIdx { .. } | Op::AtLoc { .. })) {
        return;
    }
    let code = Code { ops: tail.iter().map(|o| relocate(*o, start)).collect() };
    if let Ok(v) = code.eval(&[], &[], &mut Vec::new()) {
        ops.truncate(start);
        ops.push(Op::Const(v));
    }
}

fn relocate(op: Op, by: usize) -> Op {
    let by = by as u32;
    match op {
        Op::JumpIfZero(t) => Op::JumpIfZero(t - by),
        Op::JumpIfNonZero(t) => Op::JumpIfNonZero(t - by),
        Op::PopJumpIfZero(t) => Op::PopJumpIfZero(t - by),
        Op::Jump(t) => Op::Jump(t - by),
        other => other,
    }
}
