//! Compiled expressions: a flat stack program over the location vector and
//! the data vector, with checked arithmetic and short-circuit jumps.
//!
//! Compiling once at load keeps evaluation (the inner loop of every engine)
//! free of tree walks and allocation: the caller lends the stack.
//!
//! User functions are inlined at each call (`compile.rs`, `function.rs`):
//! their parameters and locals live in the first `locals` entries of the
//! stack (the frame), below the operands; a loop's back edge is a `Tick`,
//! which counts against [`LOOP_BUDGET`] so that no evaluation can hang. Writes
//! to the data vector (`Store`, `StoreIdx`, `StoreAt`) only appear in code run
//! by [`Code::exec`]; the model checker makes sure guards never contain them.

use std::sync::Arc;

use crate::syntax::ast::BinOp;

/// Most loop iterations one evaluation may run (all loops together); more is
/// the run-time error [`EvalError::LoopBudget`].
pub const LOOP_BUDGET: u32 = 1 << 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Const(i64),
    /// Push `data[slot]`.
    Load(u32),
    /// Pop an index `i`, push `data[base + i]` (checked against `len`).
    LoadIdx {
        base: u32,
        len: u32,
    },
    /// The top must lie in `0..len` (one index of a multi-dimensional array).
    CheckIndex(u32),
    /// Push 1 if instance `inst` is in location `loc`, else 0.
    AtLoc {
        inst: u32,
        loc: u32,
    },
    Neg,
    Not,
    Bin(BinOp),
    /// `&&`/`||`: if the top is 0 (for `JumpIfZero`) / non-zero, leave it as
    /// the result (normalised to 0/1) and jump; otherwise pop it.
    JumpIfZero(u32),
    JumpIfNonZero(u32),
    /// `? :`: pop; jump if it was 0.
    PopJumpIfZero(u32),
    Jump(u32),
    /// Normalise the top to 0/1 (the right operand of `&&`, `||`).
    Bool,
    /// Push frame slot `l`.
    LoadLocal(u32),
    /// Pop into frame slot `l`.
    StoreLocal(u32),
    /// Push `data[frame[l]]` (a reference bound to a computed element).
    LoadAt(u32),
    /// Pop an index `i`, push frame slot `base + i` (checked against `len`):
    /// an element of an array local to a function.
    LoadLocalIdx {
        base: u32,
        len: u32,
    },
    /// Push `frame[frame[l]]` (a computed element of a local array).
    LoadLocalAt(u32),
    /// Pop into `frame[frame[l]]`.
    StoreLocalAt(u32),
    /// Pop an index `i`, check it against `len`, push the address `base + i`.
    Addr {
        base: u32,
        len: u32,
    },
    /// Pop a value into `data[slot]`, checked against `ranges[range]`.
    Store {
        slot: u32,
        range: u32,
    },
    /// Pop a value, then an index `i`: `data[base + i]` (checked), as `Store`.
    StoreIdx {
        base: u32,
        len: u32,
        range: u32,
    },
    /// Pop a value into `data[frame[l]]`, checked against `ranges[range]`.
    StoreAt {
        local: u32,
        range: u32,
    },
    /// The top must lie in `ranges[range]` (a parameter, a local, a result).
    Check(u32),
    /// A loop's back edge: counts against [`LOOP_BUDGET`].
    Tick,
    Pop,
}

/// Where a part of a program comes from: ops from `pc` on (up to the next
/// site) are the body of `function`, at `line` of the model file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub pc: u32,
    pub function: Arc<str>,
    pub line: u32,
}

/// What went wrong while evaluating (FORMAT.md "Run-time errors").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    DivisionByZero,
    Overflow,
    /// `a << b` or `a >> b` with `b` outside `0..=63`.
    ShiftCount(i64),
    IndexOutOfBounds {
        index: i64,
        len: u32,
    },
    /// An assignment outside the variable's range (slot, value).
    OutOfRange {
        slot: u32,
        value: i64,
    },
    /// Two processes set the rate of one variable (its index from 1) in
    /// the same state (FORMAT.md section 5).
    RateConflict {
        var: u32,
        first: u32,
        second: u32,
    },
    /// A function's parameter, local or result outside its type's range.
    ValueOutOfRange {
        value: i64,
        lo: i64,
        hi: i64,
    },
    /// The loops of one evaluation ran more than [`LOOP_BUDGET`] iterations.
    LoopBudget,
    /// `error` happened in the body of a user function, at a line of it.
    InFunction {
        function: Arc<str>,
        line: u32,
        error: Box<EvalError>,
    },
}

impl EvalError {
    /// A phrase for the user, naming variables by `slots`.
    pub fn describe(&self, net: &super::Network) -> String {
        let slots = &net.slots;
        match self {
            EvalError::DivisionByZero => "division by zero".to_string(),
            EvalError::Overflow => "64-bit integer overflow".to_string(),
            EvalError::ShiftCount(b) => format!("shift by {b} (the count must lie in 0..63)"),
            EvalError::IndexOutOfBounds { index, len } => format!("array index {index} out of bounds (size {len})"),
            EvalError::OutOfRange { slot, value } => {
                let s = &slots[*slot as usize];
                format!("`{}` = {value} is outside its range [{}, {}]", s.name, s.lo, s.hi)
            }
            EvalError::ValueOutOfRange { value, lo, hi } => {
                format!("the value {value} is outside the range [{lo}, {hi}]")
            }
            EvalError::LoopBudget => format!("a loop ran more than {LOOP_BUDGET} iterations"),
            EvalError::RateConflict { var, first, second } => format!(
                "`{}` and `{}` both set the rate of `{}`",
                net.processes[*first as usize].name,
                net.processes[*second as usize].name,
                net.clocks[*var as usize - 1]
            ),
            EvalError::InFunction { function, line, error } => {
                format!("{} in function `{function}` (line {})", error.describe(net), net.source_line(*line as usize))
            }
        }
    }

    /// The error itself, without the function it happened in.
    pub fn innermost(&self) -> &EvalError {
        match self {
            EvalError::InFunction { error, .. } => error.innermost(),
            other => other,
        }
    }
}

/// A compiled integer or boolean expression, or a sequence of effects.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Code {
    pub ops: Vec<Op>,
    /// Size of the frame (functions' parameters and locals).
    pub locals: u32,
    /// The `(lo, hi)` ranges that `Store*` and `Check` refer to.
    pub ranges: Vec<(i64, i64)>,
    /// Inlined function bodies, by increasing `pc`.
    pub sites: Vec<Site>,
}

/// The data an evaluation may read, and write only in [`Code::exec`].
trait Memory {
    fn get(&self, slot: usize) -> i64;
    fn set(&mut self, slot: usize, v: i64);
}

impl Memory for &[i64] {
    fn get(&self, slot: usize) -> i64 {
        self[slot]
    }
    fn set(&mut self, _: usize, _: i64) {
        unreachable!("the model checker keeps writes out of guards and invariants")
    }
}

impl Memory for &mut [i64] {
    fn get(&self, slot: usize) -> i64 {
        self[slot]
    }
    fn set(&mut self, slot: usize, v: i64) {
        self[slot] = v;
    }
}

impl Code {
    pub fn constant(v: i64) -> Self {
        Code { ops: vec![Op::Const(v)], ..Code::default() }
    }

    pub fn as_const(&self) -> Option<i64> {
        match self.ops.as_slice() {
            [Op::Const(v)] => Some(*v),
            _ => None,
        }
    }

    /// Evaluates over `locs` (one location per instance) and `data`.
    /// `stack` is scratch space, cleared here.
    pub fn eval(&self, locs: &[u32], data: &[i64], stack: &mut Vec<i64>) -> Result<i64, EvalError> {
        if let [Op::Const(v)] = self.ops.as_slice() {
            return Ok(*v);
        }
        self.run(locs, data, stack).map_err(|(pc, e)| self.locate(pc, e))
    }

    /// Like [`Code::eval`], letting the program assign `data` (updates).
    pub fn exec(&self, locs: &[u32], data: &mut [i64], stack: &mut Vec<i64>) -> Result<i64, EvalError> {
        if let [Op::Const(v)] = self.ops.as_slice() {
            return Ok(*v);
        }
        self.run(locs, data, stack).map_err(|(pc, e)| self.locate(pc, e))
    }

    /// Whether the program may assign data (and so needs [`Code::exec`]).
    pub fn writes(&self) -> bool {
        self.ops.iter().any(|o| matches!(o, Op::Store { .. } | Op::StoreIdx { .. } | Op::StoreAt { .. }))
    }

    /// The error at `pc`, wrapped in the function whose body `pc` is in.
    fn locate(&self, pc: usize, error: EvalError) -> EvalError {
        match self.sites.iter().rev().find(|s| s.pc as usize <= pc) {
            Some(site) if !site.function.is_empty() => {
                EvalError::InFunction { function: site.function.clone(), line: site.line, error: Box::new(error) }
            }
            _ => error,
        }
    }

    fn run<M: Memory>(&self, locs: &[u32], mut data: M, stack: &mut Vec<i64>) -> Result<i64, (usize, EvalError)> {
        stack.clear();
        stack.resize(self.locals as usize, 0);
        let mut pc = 0;
        let mut ticks = 0u32;
        let ops = &self.ops;
        let in_range = |r: u32, v: i64| {
            let (lo, hi) = self.ranges[r as usize];
            lo <= v && v <= hi
        };
        while pc < ops.len() {
            let fail = |e| Err((pc, e));
            match ops[pc] {
                Op::Const(v) => stack.push(v),
                Op::Load(s) => stack.push(data.get(s as usize)),
                Op::LoadIdx { base, len } => {
                    let i = pop(stack);
                    if i < 0 || i >= len as i64 {
                        return fail(EvalError::IndexOutOfBounds { index: i, len });
                    }
                    stack.push(data.get(base as usize + i as usize));
                }
                Op::CheckIndex(len) => {
                    let i = *stack.last().expect("operand");
                    if i < 0 || i >= len as i64 {
                        return fail(EvalError::IndexOutOfBounds { index: i, len });
                    }
                }
                Op::AtLoc { inst, loc } => stack.push((locs[inst as usize] == loc) as i64),
                Op::Neg => {
                    let v = pop(stack);
                    match v.checked_neg() {
                        Some(n) => stack.push(n),
                        None => return fail(EvalError::Overflow),
                    }
                }
                Op::Not => {
                    let v = pop(stack);
                    stack.push((v == 0) as i64);
                }
                Op::Bin(op) => {
                    let b = pop(stack);
                    let a = pop(stack);
                    match binary(op, a, b) {
                        Ok(v) => stack.push(v),
                        Err(e) => return fail(e),
                    }
                }
                Op::JumpIfZero(t) => {
                    if *stack.last().expect("operand") == 0 {
                        pc = t as usize;
                        continue;
                    }
                    stack.pop();
                }
                Op::JumpIfNonZero(t) => {
                    let top = stack.last_mut().expect("operand");
                    if *top != 0 {
                        *top = 1;
                        pc = t as usize;
                        continue;
                    }
                    stack.pop();
                }
                Op::PopJumpIfZero(t) => {
                    if pop(stack) == 0 {
                        pc = t as usize;
                        continue;
                    }
                }
                Op::Jump(t) => {
                    pc = t as usize;
                    continue;
                }
                Op::Bool => {
                    let top = stack.last_mut().expect("operand");
                    *top = (*top != 0) as i64;
                }
                Op::LoadLocal(l) => stack.push(stack[l as usize]),
                Op::StoreLocal(l) => {
                    let v = pop(stack);
                    stack[l as usize] = v;
                }
                Op::LoadAt(l) => stack.push(data.get(stack[l as usize] as usize)),
                Op::LoadLocalIdx { base, len } => {
                    let i = pop(stack);
                    if i < 0 || i >= len as i64 {
                        return fail(EvalError::IndexOutOfBounds { index: i, len });
                    }
                    stack.push(stack[base as usize + i as usize]);
                }
                Op::LoadLocalAt(l) => stack.push(stack[stack[l as usize] as usize]),
                Op::StoreLocalAt(l) => {
                    let v = pop(stack);
                    let at = stack[l as usize] as usize;
                    stack[at] = v;
                }
                Op::Addr { base, len } => {
                    let i = pop(stack);
                    if i < 0 || i >= len as i64 {
                        return fail(EvalError::IndexOutOfBounds { index: i, len });
                    }
                    stack.push(base as i64 + i);
                }
                Op::Store { slot, range } => {
                    let v = pop(stack);
                    if !in_range(range, v) {
                        return fail(EvalError::OutOfRange { slot, value: v });
                    }
                    data.set(slot as usize, v);
                }
                Op::StoreIdx { base, len, range } => {
                    let v = pop(stack);
                    let i = pop(stack);
                    if i < 0 || i >= len as i64 {
                        return fail(EvalError::IndexOutOfBounds { index: i, len });
                    }
                    let slot = base + i as u32;
                    if !in_range(range, v) {
                        return fail(EvalError::OutOfRange { slot, value: v });
                    }
                    data.set(slot as usize, v);
                }
                Op::StoreAt { local, range } => {
                    let v = pop(stack);
                    let slot = stack[local as usize] as u32;
                    if !in_range(range, v) {
                        return fail(EvalError::OutOfRange { slot, value: v });
                    }
                    data.set(slot as usize, v);
                }
                Op::Check(r) => {
                    let v = *stack.last().expect("operand");
                    if !in_range(r, v) {
                        let (lo, hi) = self.ranges[r as usize];
                        return fail(EvalError::ValueOutOfRange { value: v, lo, hi });
                    }
                }
                Op::Tick => {
                    ticks += 1;
                    if ticks > LOOP_BUDGET {
                        return fail(EvalError::LoopBudget);
                    }
                }
                Op::Pop => {
                    stack.pop();
                }
            }
            pc += 1;
        }
        Ok(if stack.len() > self.locals as usize { pop(stack) } else { 0 })
    }
}

fn pop(stack: &mut Vec<i64>) -> i64 {
    stack.pop().expect("well-formed program")
}

/// One binary operation with FORMAT.md's run-time errors.
pub fn binary(op: BinOp, a: i64, b: i64) -> Result<i64, EvalError> {
    if matches!(op, BinOp::Div | BinOp::Mod) && b == 0 {
        return Err(EvalError::DivisionByZero);
    }
    if matches!(op, BinOp::Shl | BinOp::Shr) && !(0..64).contains(&b) {
        return Err(EvalError::ShiftCount(b));
    }
    crate::model::fold::const_binary(op, a, b).ok_or(EvalError::Overflow)
}
