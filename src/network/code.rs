//! Compiled expressions: a flat stack program over the location vector and
//! the data vector, with checked arithmetic and short-circuit jumps.
//!
//! Compiling once at load keeps evaluation (the inner loop of every engine)
//! free of tree walks and allocation: the caller lends the stack.

use crate::syntax::ast::BinOp;

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
}

/// What went wrong while evaluating (FORMAT.md "Run-time errors").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    DivisionByZero,
    Overflow,
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
}

/// A compiled integer or boolean expression.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Code {
    pub ops: Vec<Op>,
}

impl Code {
    pub fn constant(v: i64) -> Self {
        Code { ops: vec![Op::Const(v)] }
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
        stack.clear();
        let mut pc = 0;
        let ops = &self.ops;
        while pc < ops.len() {
            match ops[pc] {
                Op::Const(v) => stack.push(v),
                Op::Load(s) => stack.push(data[s as usize]),
                Op::LoadIdx { base, len } => {
                    let i = pop(stack);
                    if i < 0 || i >= len as i64 {
                        return Err(EvalError::IndexOutOfBounds { index: i, len });
                    }
                    stack.push(data[base as usize + i as usize]);
                }
                Op::AtLoc { inst, loc } => stack.push((locs[inst as usize] == loc) as i64),
                Op::Neg => {
                    let v = pop(stack);
                    stack.push(v.checked_neg().ok_or(EvalError::Overflow)?);
                }
                Op::Not => {
                    let v = pop(stack);
                    stack.push((v == 0) as i64);
                }
                Op::Bin(op) => {
                    let b = pop(stack);
                    let a = pop(stack);
                    stack.push(binary(op, a, b)?);
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
            }
            pc += 1;
        }
        Ok(pop(stack))
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
    crate::model::fold::const_binary(op, a, b).ok_or(EvalError::Overflow)
}
