//! Symbolic execution of compiled [`Code`] over a data set.
//!
//! Every stack entry is a [`Word`] whose bits are functions of the
//! current-state bits, so one run evaluates the program on every valuation
//! at once. The short-circuit and conditional jumps (`&&`, `||`, `? :`,
//! unrolled quantifiers) fork the run on the tested condition and merge the
//! two stacks (and memories) at the join with `if c then a else b`.
//! An explicit slot ([`super::split`]) that has one value on the valuations
//! the machine starts with (as on every symbolic state) loads as that constant:
//! every result is cut to the running valuations, a subset of those, and a
//! computed index then selects one element instead of building a
//! multiplexer over the whole array. (TChecker's `train_gate_9` indexes its
//! queue by `(head + length) % 9`: as a circuit over `head` and `length`, a
//! few steps grew BDDs of 30 MB per state.)
//! `path` is the set of valuations still running: a run-time error removes
//! its valuations from it (an evaluation stops at its first error) and adds
//! them to `error`; with `out_of_range: disable`, out-of-range stores go to
//! `disabled` instead. Loops, and references whose address has several
//! values on the running valuations, are refused ([`Unsupported`]).

use super::encode::Encoding;
use super::manager::{Bdd, FALSE, Manager, TRUE};
use super::word::{self, TooWide, Word};
use crate::model::decl::OutOfRange;
use crate::network::code::{self, Code, Op};
use crate::syntax::ast::BinOp;

/// Why a program cannot run symbolically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl From<TooWide> for Unsupported {
    fn from(_: TooWide) -> Self {
        Unsupported(format!("a value needs more than {} bits", word::MAX_WIDTH))
    }
}

pub struct Machine<'a> {
    pub m: &'a mut Manager,
    enc: &'a Encoding,
    locs: &'a [u32],
    mode: OutOfRange,
    /// Per slot, its value after the stores so far (`None`: unchanged).
    pub mem: Vec<Option<Word>>,
    pub path: Bdd,
    pub error: Bdd,
    pub disabled: Bdd,
    /// The valuations the machine started with (every later `path` is a
    /// subset), one of them, and the explicit slots loaded so far with their
    /// one value on them, if they have one (a few per program: no per-machine
    /// table of every slot).
    start: Bdd,
    sample: Option<Option<Vec<i64>>>,
    fixed: Vec<(usize, Option<i64>)>,
}

type Stack = Vec<Word>;

impl<'a> Machine<'a> {
    /// A machine over the valuations `path`, in locations `locs`.
    pub fn new(m: &'a mut Manager, enc: &'a Encoding, locs: &'a [u32], mode: OutOfRange, path: Bdd) -> Self {
        let mem = vec![None; enc.len()];
        let fixed = Vec::new();
        Machine { m, enc, locs, mode, mem, path, error: FALSE, disabled: FALSE, start: path, sample: None, fixed }
    }

    /// Runs `code`: its value (0 for a program that leaves none).
    pub fn run(&mut self, code: &Code) -> Result<Word, Unsupported> {
        let mut stack: Stack = vec![Word::constant(0); code.locals as usize];
        self.segment(code, 0, code.ops.len(), &mut stack)?;
        Ok(if stack.len() > code.locals as usize { pop(&mut stack) } else { Word::constant(0) })
    }

    /// The current value of slot `s`.
    pub fn load(&mut self, s: usize) -> Word {
        match &self.mem[s] {
            Some(w) => w.clone(),
            None => match self.fixed_value(s) {
                Some(k) => Word::constant(k),
                None => self.enc.word(self.m, s, false),
            },
        }
    }

    /// The one value explicit slot `s` has on the starting valuations, if
    /// it has one (only explicit slots are tried: the test costs a pass over
    /// the data set, and the others seldom pass it).
    fn fixed_value(&mut self, s: usize) -> Option<i64> {
        if !self.enc.is_explicit(s) {
            return None;
        }
        if let Some(&(_, known)) = self.fixed.iter().find(|(slot, _)| *slot == s) {
            return known;
        }
        let sample = self.sample.get_or_insert_with(|| self.enc.pick_all(self.m, self.start));
        let value = sample.as_ref().map(|v| v[s]).filter(|&k| {
            let same = self.enc.equals(self.m, s, k);
            let other = self.m.not(same);
            self.m.and(self.start, other) == FALSE
        });
        self.fixed.push((s, value));
        value
    }

    /// The valuations still running that meet `cond` fail: as an error,
    /// or as a disabled step when `disable`.
    fn fail(&mut self, cond: Bdd, disable: bool) {
        let f = self.m.and(self.path, cond);
        let slot = if disable { &mut self.disabled } else { &mut self.error };
        *slot = self.m.or(*slot, f);
        let nf = self.m.not(f);
        self.path = self.m.and(self.path, nf);
    }

    fn outside(&mut self, v: &Word, lo: i64, hi: i64) -> Result<Bdd, Unsupported> {
        let below = word::lt(self.m, v, &Word::constant(lo))?;
        let above = word::lt(self.m, &Word::constant(hi), v)?;
        Ok(self.m.or(below, above))
    }

    fn store_check(&mut self, v: &Word, range: (i64, i64)) -> Result<(), Unsupported> {
        let out = self.outside(v, range.0, range.1)?;
        let disable = self.mode == OutOfRange::Disable;
        self.fail(out, disable);
        Ok(())
    }

    /// `data[slot] = v`, checked against `range`.
    pub fn store(&mut self, slot: usize, v: Word, range: (i64, i64)) -> Result<(), Unsupported> {
        self.store_check(&v, range)?;
        self.mem[slot] = Some(v);
        Ok(())
    }

    /// `data[base + i] = v`, the index checked against `len` and the
    /// value against `range(slot)`.
    pub fn store_indexed(
        &mut self,
        base: u32,
        len: u32,
        i: &Word,
        v: Word,
        range: impl Fn(usize) -> (i64, i64),
    ) -> Result<(), Unsupported> {
        self.index_check(i, len)?;
        for k in 0..len {
            let slot = (base + k) as usize;
            let at = word::eq(self.m, i, &Word::constant(k as i64));
            if at == FALSE {
                continue;
            }
            let (lo, hi) = range(slot);
            let out = self.outside(&v, lo, hi)?;
            let bad = self.m.and(at, out);
            let disable = self.mode == OutOfRange::Disable;
            self.fail(bad, disable);
            let old = self.load(slot);
            self.mem[slot] = Some(word::select(self.m, at, &v, &old));
        }
        Ok(())
    }

    fn index_check(&mut self, i: &Word, len: u32) -> Result<(), Unsupported> {
        let out = self.outside(i, 0, len as i64 - 1)?;
        self.fail(out, false);
        Ok(())
    }

    /// Runs ops `pc..stop`, then returns.
    fn segment(&mut self, code: &Code, mut pc: usize, stop: usize, stack: &mut Stack) -> Result<(), Unsupported> {
        while pc < stop {
            match code.ops[pc] {
                Op::Const(v) => stack.push(Word::constant(v)),
                Op::Load(s) => {
                    let w = self.load(s as usize);
                    stack.push(w);
                }
                Op::LoadIdx { base, len } => {
                    let i = pop(stack);
                    self.index_check(&i, len)?;
                    let mut v = Word::constant(0);
                    for k in 0..len {
                        let at = word::eq(self.m, &i, &Word::constant(k as i64));
                        if at != FALSE {
                            let e = self.load((base + k) as usize);
                            v = word::select(self.m, at, &e, &v);
                        }
                    }
                    stack.push(v);
                }
                Op::CheckIndex(len) => {
                    let i = stack.last().expect("operand").clone();
                    self.index_check(&i, len)?;
                }
                Op::AtLoc { inst, loc } => stack.push(Word::constant((self.locs[inst as usize] == loc) as i64)),
                Op::Neg => {
                    let a = pop(stack);
                    stack.push(word::neg(self.m, &a)?);
                }
                Op::Not => {
                    let a = pop(stack);
                    let nz = word::nonzero(self.m, &a);
                    stack.push(word::from_bool(self.m.not(nz)));
                }
                Op::Bin(op) => {
                    let b = pop(stack);
                    let a = pop(stack);
                    let r = self.binary(op, &a, &b)?;
                    stack.push(r);
                }
                Op::JumpIfZero(t) | Op::JumpIfNonZero(t) => {
                    let jump_on_zero = matches!(code.ops[pc], Op::JumpIfZero(_));
                    let t = forward(pc, t as usize, stop)?;
                    let top = pop(stack);
                    let nz = word::nonzero(self.m, &top);
                    // The valuations that jump keep 0 (or 1) on the stack;
                    // the others run the ops up to the target.
                    let fall = if jump_on_zero { nz } else { self.m.not(nz) };
                    let mut taken = stack.clone();
                    taken.push(Word::constant(!jump_on_zero as i64));
                    self.fork(fall, stack, |me, st| me.segment(code, pc + 1, t, st), taken, |_, _| Ok(()))?;
                    pc = t;
                    continue;
                }
                Op::PopJumpIfZero(t) => {
                    let t = forward(pc, t as usize, stop)?;
                    let c = pop(stack);
                    let nz = word::nonzero(self.m, &c);
                    // `c ? x : y` compiles to `c; PopJumpIfZero(else); x; Jump(end); else: y; end:`.
                    let (then_end, end) = match code.ops[t - 1] {
                        Op::Jump(e) if (e as usize) >= t && (e as usize) <= stop => (t - 1, e as usize),
                        _ => (t, t),
                    };
                    let other = stack.clone();
                    self.fork(
                        nz,
                        stack,
                        |me, st| me.segment(code, pc + 1, then_end, st),
                        other,
                        |me, st| me.segment(code, t, end, st),
                    )?;
                    pc = end;
                    continue;
                }
                Op::Jump(_) | Op::Tick => return Err(Unsupported("a loop".into())),
                Op::Bool => {
                    let a = pop(stack);
                    let nz = word::nonzero(self.m, &a);
                    stack.push(word::from_bool(nz));
                }
                Op::LoadLocal(l) => stack.push(stack[l as usize].clone()),
                Op::StoreLocal(l) => {
                    let v = pop(stack);
                    stack[l as usize] = v;
                }
                Op::LoadAt(l) => {
                    let s = self.constant(&stack[l as usize])?;
                    let w = self.load(s as usize);
                    stack.push(w);
                }
                Op::LoadLocalIdx { base, len } => {
                    let i = pop(stack);
                    self.index_check(&i, len)?;
                    let i = self.constant(&i)?;
                    stack.push(stack[base as usize + i as usize].clone());
                }
                Op::LoadLocalAt(l) => {
                    let at = self.constant(&stack[l as usize])?;
                    stack.push(stack[at as usize].clone());
                }
                Op::StoreLocalAt(l) => {
                    let v = pop(stack);
                    let at = self.constant(&stack[l as usize])?;
                    stack[at as usize] = v;
                }
                Op::Addr { base, len } => {
                    let i = pop(stack);
                    self.index_check(&i, len)?;
                    let i = self.constant(&i)?;
                    stack.push(Word::constant(base as i64 + i));
                }
                Op::Store { slot, range } => {
                    let v = pop(stack);
                    self.store(slot as usize, v, code.ranges[range as usize])?;
                }
                Op::StoreIdx { base, len, range } => {
                    let v = pop(stack);
                    let i = pop(stack);
                    let r = code.ranges[range as usize];
                    self.store_indexed(base, len, &i, v, |_| r)?;
                }
                Op::StoreAt { local, range } => {
                    let v = pop(stack);
                    let s = self.constant(&stack[local as usize])?;
                    self.store(s as usize, v, code.ranges[range as usize])?;
                }
                Op::Check(r) => {
                    let v = stack.last().expect("operand").clone();
                    let (lo, hi) = code.ranges[r as usize];
                    let out = self.outside(&v, lo, hi)?;
                    self.fail(out, false);
                }
                Op::Pop => {
                    stack.pop();
                }
            }
            pc += 1;
        }
        Ok(())
    }

    /// Runs `then` on `stack` for the valuations in `cond` and `other` on
    /// `other_stack` for the rest, then merges stacks, memories and paths.
    fn fork(
        &mut self,
        cond: Bdd,
        stack: &mut Stack,
        then: impl FnOnce(&mut Self, &mut Stack) -> Result<(), Unsupported>,
        mut other_stack: Stack,
        other: impl FnOnce(&mut Self, &mut Stack) -> Result<(), Unsupported>,
    ) -> Result<(), Unsupported> {
        let saved = self.path;
        let before = self.mem.clone();
        let nc = self.m.not(cond);
        self.path = self.m.and(saved, nc);
        other(self, &mut other_stack)?;
        let other_path = self.path;
        let other_mem = std::mem::replace(&mut self.mem, before);
        self.path = self.m.and(saved, cond);
        then(self, stack)?;
        self.path = self.m.or(self.path, other_path);
        if stack.len() != other_stack.len() {
            return Err(Unsupported("branches that leave different stacks".into()));
        }
        for (a, b) in stack.iter_mut().zip(&other_stack) {
            *a = word::select(self.m, cond, a, b);
        }
        for (s, other_value) in other_mem.iter().enumerate() {
            if self.mem[s] != *other_value {
                let new = self.load(s);
                let old = match other_value {
                    Some(w) => w.clone(),
                    None => self.enc.word(self.m, s, false),
                };
                self.mem[s] = Some(word::select(self.m, cond, &new, &old));
            }
        }
        Ok(())
    }

    /// The one value `w` has on the running valuations (a reference's
    /// address: its index reads explicit slots, one value per state,
    /// `bdd::split`); refused when it has several.
    fn constant(&mut self, w: &Word) -> Result<i64, Unsupported> {
        if let Some(k) = w.as_const() {
            return Ok(k);
        }
        // No valuation runs here: any address will do.
        let Some(path) = self.m.pick(self.path) else { return Ok(0) };
        let ones: std::collections::HashSet<u32> = path.iter().filter(|p| p.1).map(|p| p.0).collect();
        let bit = |b: Bdd| self.m.contains(b, |v| ones.contains(&v));
        let value = Word(w.0.iter().map(|&b| if bit(b) { TRUE } else { FALSE }).collect());
        let k = value.as_const().expect("constant bits");
        let same = word::eq(self.m, w, &value);
        let other = self.m.not(same);
        if self.m.and(self.path, other) != FALSE {
            return Err(Unsupported("a reference computed from the data".into()));
        }
        Ok(k)
    }

    fn binary(&mut self, op: BinOp, a: &Word, b: &Word) -> Result<Word, Unsupported> {
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            return match code::binary(op, x, y) {
                Ok(v) => Ok(Word::constant(v)),
                Err(_) => {
                    self.fail(TRUE, false);
                    Ok(Word::constant(0))
                }
            };
        }
        if matches!(op, BinOp::Div | BinOp::Mod) {
            let zero = word::eq(self.m, b, &Word::constant(0));
            self.fail(zero, false);
            let (q, r) = word::div_rem(self.m, a, b)?;
            return Ok(if op == BinOp::Div { q } else { r });
        }
        let m = &mut *self.m;
        let flag = |b: Bdd| Ok(word::from_bool(b));
        match op {
            BinOp::Add => Ok(word::add(m, a, b)?),
            BinOp::Sub => Ok(word::sub(m, a, b)?),
            BinOp::Mul => Ok(word::mul(m, a, b)?),
            BinOp::Div | BinOp::Mod => unreachable!("divided above"),
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr => {
                Err(Unsupported("a bitwise or shift operator on a value that depends on the data".into()))
            }
            BinOp::Min | BinOp::Max => {
                let less = word::lt(m, a, b)?;
                let (x, y) = if op == BinOp::Min { (a, b) } else { (b, a) };
                Ok(word::select(m, less, x, y))
            }
            BinOp::Eq => flag(word::eq(m, a, b)),
            BinOp::Ne => {
                let e = word::eq(m, a, b);
                flag(m.not(e))
            }
            BinOp::Lt => flag(word::lt(m, a, b)?),
            BinOp::Gt => flag(word::lt(m, b, a)?),
            BinOp::Le => {
                let g = word::lt(m, b, a)?;
                flag(m.not(g))
            }
            BinOp::Ge => {
                let l = word::lt(m, a, b)?;
                flag(m.not(l))
            }
            BinOp::And | BinOp::Or | BinOp::Imply => {
                let (x, y) = (word::nonzero(m, a), word::nonzero(m, b));
                flag(match op {
                    BinOp::And => m.and(x, y),
                    BinOp::Or => m.or(x, y),
                    _ => {
                        let nx = m.not(x);
                        m.or(nx, y)
                    }
                })
            }
        }
    }
}

fn pop(stack: &mut Stack) -> Word {
    stack.pop().expect("well-formed program")
}

fn forward(pc: usize, t: usize, stop: usize) -> Result<usize, Unsupported> {
    if t > pc && t <= stop { Ok(t) } else { Err(Unsupported("a backward or outward jump".into())) }
}
