//! User functions compiled into the calling program: each call is inlined
//! with a frame of its own (parameters, locals, the result) in the stack's
//! frame area, so evaluation never walks a syntax tree.
//!
//! A parameter passed by reference is bound at the call to what the argument
//! names: a data slot known at compile time, an array element whose address
//! is computed once at the call and kept in the callee's frame, or a slot of
//! the caller's frame. Reads and writes through it go straight there, with
//! the range of the variable behind it. Loops count their back edges against
//! the evaluation's budget (`code::LOOP_BUDGET`); `return` jumps to the end
//! of the inlined body. Recursion is refused by the model checker (a function
//! may only call functions defined before it), so inlining terminates.

use std::sync::Arc;

use crate::model::typed::{AssignOp, FnRef, Function, TArg, TArray, TExpr, TPlace, TStmt, TStmtKind, TValueTy};
use crate::network::code::{Code, Op, Site};
use crate::network::compile::Env;

/// Deepest nesting of inlined calls (function chains are acyclic, so this
/// only bounds pathological models).
const MAX_CALL_DEPTH: usize = 64;

/// A program being compiled.
#[derive(Default)]
pub(crate) struct Out {
    pub ops: Vec<Op>,
    ranges: Vec<(i64, i64)>,
    sites: Vec<Site>,
    /// Values of the enclosing quantifier variables (innermost last).
    pub bound: Vec<i64>,
    frames: Vec<Frame>,
    /// The first free frame slot, and the most ever used.
    top: u32,
    locals: u32,
    /// No jump lands at or after this op: constants from here on may be
    /// folded together.
    pub barrier: usize,
}

/// What a reference parameter stands for.
#[derive(Clone, Copy)]
enum Binding {
    /// Passed by value.
    Value,
    Slot {
        slot: u32,
        range: u32,
    },
    /// `data[frame[local]]`.
    At {
        local: u32,
        range: u32,
    },
    /// A slot of an enclosing frame.
    Local {
        local: u32,
        range: u32,
    },
    /// `frame[frame[local]]`: a computed element of a local array.
    LocalAt {
        local: u32,
        range: u32,
    },
    /// A whole array: data slots from `base`.
    Array {
        base: u32,
        range: u32,
    },
    /// A whole array of an enclosing frame: frame slots from `base`.
    FrameArray {
        base: u32,
        range: u32,
    },
}

/// Where the elements of a whole array are: data or frame slots from `base`.
#[derive(Clone, Copy)]
struct Elems {
    in_frame: bool,
    base: u32,
    range: u32,
}

/// One inlined call.
struct Frame {
    base: u32,
    refs: Vec<Binding>,
    /// The range index of every frame slot.
    ranges: Vec<u32>,
    function: Arc<str>,
    line: u32,
    result: u32,
    result_range: Option<u32>,
    /// `return` jumps, patched to the end of the body.
    exits: Vec<usize>,
}

impl Out {
    pub fn finish(self) -> Code {
        Code { ops: self.ops, locals: self.locals, ranges: self.ranges, sites: self.sites }
    }

    /// The value of the last op, when it is a constant no jump lands on.
    pub fn last_const(&self) -> Option<i64> {
        match self.ops.last() {
            Some(Op::Const(v)) if self.ops.len() > self.barrier => Some(*v),
            _ => None,
        }
    }

    /// A jump lands at the current end.
    pub fn target(&mut self) {
        self.barrier = self.ops.len();
    }

    /// The absolute frame slot of slot `k` of the innermost call.
    pub fn local(&self, k: usize) -> u32 {
        self.frames.last().expect("a local outside a function").base + k as u32
    }

    fn range(&mut self, r: (i64, i64)) -> u32 {
        match self.ranges.iter().position(|x| *x == r) {
            Some(i) => i as u32,
            None => {
                self.ranges.push(r);
                self.ranges.len() as u32 - 1
            }
        }
    }

    fn temp(&mut self) -> u32 {
        let t = self.top;
        self.top += 1;
        self.locals = self.locals.max(self.top);
        t
    }

    /// From here on the ops are `function`'s, at `line` (`""`: outside any).
    fn site(&mut self, function: Arc<str>, line: u32) {
        let pc = self.ops.len() as u32;
        if self.sites.last().is_some_and(|s| s.function == function && s.line == line) {
            return;
        }
        if self.sites.last().is_some_and(|s| s.pc == pc) {
            self.sites.pop();
        }
        self.sites.push(Site { pc, function, line });
    }

    /// A loop's step, counted against the loop budget and located at
    /// `line` of the function being compiled.
    fn tick(&mut self, line: u32) {
        let function = self.frames.last().expect("the call's frame").function.clone();
        self.site(function, line);
        self.ops.push(Op::Tick);
    }

    /// Replaces the program from `start` by its value when it reads nothing
    /// (no data, no location, no frame) and writes nothing.
    pub fn fold_tail(&mut self, start: usize) {
        let pure = |o: &Op| {
            matches!(
                o,
                Op::Const(_)
                    | Op::Neg
                    | Op::Not
                    | Op::Bin(_)
                    | Op::Bool
                    | Op::JumpIfZero(_)
                    | Op::JumpIfNonZero(_)
                    | Op::PopJumpIfZero(_)
                    | Op::Jump(_)
            )
        };
        let tail = &self.ops[start..];
        if !tail.iter().all(pure) {
            return;
        }
        let code = Code { ops: tail.iter().map(|o| relocate(*o, start)).collect(), ..Code::default() };
        if let Ok(v) = code.eval(&[], &[], &mut Vec::new()) {
            self.ops.truncate(start);
            self.ops.push(Op::Const(v));
            self.barrier = self.barrier.min(start);
        }
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

impl Env<'_> {
    pub(crate) fn function(&self, f: FnRef) -> &Function {
        match f {
            FnRef::Global(i) => &self.layout.functions[i],
            FnRef::Template(i) => &self.layout.local_functions[self.inst][i],
            FnRef::Of(inst, i) => &self.layout.local_functions[inst][i],
        }
    }

    /// A call's effects, its result dropped: an `update` entry.
    pub fn compile_effect(&self, t: &TExpr) -> Result<Code, String> {
        let mut out = Out::default();
        self.emit(t, &mut out)?;
        out.ops.push(Op::Pop);
        Ok(out.finish())
    }

    fn value_range(&self, ty: &TValueTy) -> Result<(i64, i64), String> {
        if ty.is_bool {
            return Ok((0, 1));
        }
        match (self.constant(&ty.lo), self.constant(&ty.hi)) {
            (Some(lo), Some(hi)) => Ok((lo, hi)),
            _ => Err("a function's integer range must be constant".into()),
        }
    }

    pub(crate) fn load_ref(&self, k: usize, out: &mut Out) {
        let op = match out.frames.last().expect("a reference outside a function").refs[k] {
            Binding::Slot { slot, .. } => Op::Load(slot),
            Binding::At { local, .. } => Op::LoadAt(local),
            Binding::Local { local, .. } => Op::LoadLocal(local),
            _ => unreachable!("the checker types by-value parameters as locals, arrays apart"),
        };
        out.ops.push(op);
    }

    /// Where the array `a` (seen from the innermost frame) is.
    fn elems(&self, a: TArray, out: &mut Out) -> Elems {
        match a {
            TArray::Var(v) => {
                let base = self.slot(v);
                Elems { in_frame: false, base, range: out.range(self.layout.ranges[base as usize]) }
            }
            TArray::Local(k) => {
                let frame = out.frames.last().expect("a local outside a function");
                Elems { in_frame: true, base: frame.base + k as u32, range: frame.ranges[k] }
            }
            TArray::Ref(k) => match out.frames.last().expect("a reference outside a function").refs[k] {
                Binding::Array { base, range, .. } => Elems { in_frame: false, base, range },
                Binding::FrameArray { base, range, .. } => Elems { in_frame: true, base, range },
                _ => unreachable!("the checker passes arrays to array parameters"),
            },
        }
    }

    /// `a[i]` of an array of the frame: leaves its value on the stack.
    pub(crate) fn load_elem(&self, a: TArray, len: usize, i: &TExpr, out: &mut Out) -> Result<(), String> {
        let e = self.elems(a, out);
        self.emit(i, out)?;
        let len = len as u32;
        out.ops.push(if e.in_frame {
            Op::LoadLocalIdx { base: e.base, len }
        } else {
            Op::LoadIdx { base: e.base, len }
        });
        Ok(())
    }

    /// Copies `len` elements of `from` into `to`, checking each against
    /// `to`'s range.
    fn copy_array(&self, to: Elems, from: Elems, len: usize, out: &mut Out) {
        for k in 0..len as u32 {
            out.ops.push(if from.in_frame { Op::LoadLocal(from.base + k) } else { Op::Load(from.base + k) });
            if to.in_frame {
                out.ops.push(Op::Check(to.range));
                out.ops.push(Op::StoreLocal(to.base + k));
            } else {
                out.ops.push(Op::Store { slot: to.base + k, range: to.range });
            }
        }
    }

    /// What `place` (seen from the innermost frame) names, as a binding;
    /// computes a dynamic element's address into a fresh frame slot.
    fn bind(&self, place: &TPlace, out: &mut Out) -> Result<Binding, String> {
        Ok(match place {
            TPlace::Var(v) => {
                let slot = self.slot(*v);
                let range = out.range(self.layout.ranges[slot as usize]);
                Binding::Slot { slot, range }
            }
            TPlace::Elem(v, len, i) => {
                let base = self.slot(*v);
                let range = out.range(self.layout.ranges[base as usize]);
                self.emit(i, out)?;
                match out.last_const() {
                    Some(k) if (0..*len as i64).contains(&k) => {
                        out.ops.pop();
                        Binding::Slot { slot: base + k as u32, range }
                    }
                    _ => {
                        out.ops.push(Op::Addr { base, len: *len as u32 });
                        let local = out.temp();
                        out.ops.push(Op::StoreLocal(local));
                        Binding::At { local, range }
                    }
                }
            }
            TPlace::Local(k) => {
                let frame = out.frames.last().expect("a local outside a function");
                Binding::Local { local: frame.base + *k as u32, range: frame.ranges[*k] }
            }
            TPlace::Ref(k) => out.frames.last().expect("a reference outside a function").refs[*k],
            TPlace::FrameElem(a, len, i) => {
                let e = self.elems(*a, out);
                self.emit(i, out)?;
                match out.last_const() {
                    Some(k) if (0..*len as i64).contains(&k) => {
                        out.ops.pop();
                        let at = e.base + k as u32;
                        if e.in_frame {
                            Binding::Local { local: at, range: e.range }
                        } else {
                            Binding::Slot { slot: at, range: e.range }
                        }
                    }
                    _ => {
                        out.ops.push(Op::Addr { base: e.base, len: *len as u32 });
                        let local = out.temp();
                        out.ops.push(Op::StoreLocal(local));
                        if e.in_frame {
                            Binding::LocalAt { local, range: e.range }
                        } else {
                            Binding::At { local, range: e.range }
                        }
                    }
                }
            }
        })
    }

    /// Pops the top into what `b` names, checking its range.
    fn store(b: Binding, out: &mut Out) {
        match b {
            Binding::Slot { slot, range } => out.ops.push(Op::Store { slot, range }),
            Binding::At { local, range } => out.ops.push(Op::StoreAt { local, range }),
            Binding::Local { local, range } => {
                out.ops.push(Op::Check(range));
                out.ops.push(Op::StoreLocal(local));
            }
            Binding::LocalAt { local, range } => {
                out.ops.push(Op::Check(range));
                out.ops.push(Op::StoreLocalAt(local));
            }
            _ => unreachable!("a by-value parameter is a local; arrays are assigned by element"),
        }
    }

    fn load(b: Binding, out: &mut Out) {
        out.ops.push(match b {
            Binding::Slot { slot, .. } => Op::Load(slot),
            Binding::At { local, .. } => Op::LoadAt(local),
            Binding::Local { local, .. } => Op::LoadLocal(local),
            Binding::LocalAt { local, .. } => Op::LoadLocalAt(local),
            _ => unreachable!("a by-value parameter is a local; arrays are read by element"),
        });
    }

    /// `place op= value` inside an expression: the address first, then the
    /// value (left to right); leaves the new value on the stack, or the old
    /// one when `post`.
    pub(crate) fn assign_value(
        &self,
        place: &TPlace,
        op: AssignOp,
        value: &TExpr,
        post: bool,
        out: &mut Out,
    ) -> Result<(), String> {
        let saved_top = out.top;
        let target = self.bind(place, out)?;
        let old = post.then(|| out.temp());
        if let AssignOp::With(bin) = op {
            Self::load(target, out);
            if let Some(t) = old {
                out.ops.push(Op::StoreLocal(t));
                out.ops.push(Op::LoadLocal(t));
            }
            self.emit(value, out)?;
            out.ops.push(Op::Bin(bin));
        } else {
            self.emit(value, out)?;
        }
        Self::store(target, out);
        match old {
            Some(t) => out.ops.push(Op::LoadLocal(t)),
            None => Self::load(target, out),
        }
        out.top = saved_top;
        Ok(())
    }

    /// Inlines a call; leaves its result (0 for `void`) on the stack.
    pub(crate) fn call(&self, f: FnRef, args: &[TArg], out: &mut Out) -> Result<(), String> {
        let func = self.function(f);
        // An instance's function called from a property runs with that
        // instance's variables and parameters; its arguments are the caller's.
        let of;
        let callee = match f {
            FnRef::Of(inst, _) => {
                of = Env { layout: self.layout, inst, args: &self.layout.args[inst], selects: &[], select_slot: None };
                &of
            }
            _ => self,
        };
        if out.frames.len() >= MAX_CALL_DEPTH {
            return Err(format!("calls nest deeper than {MAX_CALL_DEPTH} functions"));
        }
        let saved_top = out.top;
        let base = out.top;
        out.top += func.frame.len() as u32 + 1;
        out.locals = out.locals.max(out.top);
        let mut ranges = Vec::with_capacity(func.frame.len());
        for ty in &func.frame {
            let r = callee.value_range(ty)?;
            ranges.push(out.range(r));
        }
        let mut refs = Vec::with_capacity(args.len());
        for (k, arg) in args.iter().enumerate() {
            match arg {
                TArg::Value(e) => {
                    self.emit(e, out)?;
                    out.ops.push(Op::Check(ranges[k]));
                    out.ops.push(Op::StoreLocal(base + k as u32));
                    refs.push(Binding::Value);
                }
                TArg::Ref(place) => refs.push(self.bind(place, out)?),
                TArg::Array(a) => {
                    let from = self.elems(*a, out);
                    let p = &func.params[k];
                    if p.by_ref {
                        let (base, range) = (from.base, from.range);
                        refs.push(if from.in_frame {
                            Binding::FrameArray { base, range }
                        } else {
                            Binding::Array { base, range }
                        });
                    } else {
                        let to = Elems { in_frame: true, base: base + p.copy as u32, range: ranges[p.copy] };
                        self.copy_array(to, from, p.dims.iter().product(), out);
                        refs.push(Binding::Value);
                    }
                }
            }
        }
        let result_range = match &func.ret {
            Some(ty) => {
                let r = callee.value_range(ty)?;
                Some(out.range(r))
            }
            None => None,
        };
        let name: Arc<str> = Arc::from(func.name.as_str());
        out.frames.push(Frame {
            base,
            refs,
            ranges,
            function: name.clone(),
            line: func.line,
            result: base + func.frame.len() as u32,
            result_range,
            exits: Vec::new(),
        });
        out.site(name, func.line);
        let body = callee.stmts(&func.body, out);
        let frame = out.frames.pop().expect("the call's frame");
        body?;
        let end = out.ops.len() as u32;
        for j in frame.exits {
            out.ops[j] = Op::Jump(end);
        }
        out.target();
        match out.frames.last() {
            Some(caller) => out.site(caller.function.clone(), caller.line),
            None => out.site(Arc::from(""), 0),
        }
        out.ops.push(if func.ret.is_some() { Op::LoadLocal(frame.result) } else { Op::Const(0) });
        out.top = saved_top;
        Ok(())
    }

    fn stmts(&self, list: &[TStmt], out: &mut Out) -> Result<(), String> {
        list.iter().try_for_each(|s| self.stmt(s, out))
    }

    fn stmt(&self, s: &TStmt, out: &mut Out) -> Result<(), String> {
        let frame = out.frames.last_mut().expect("a statement outside a function");
        frame.line = s.line;
        let function = frame.function.clone();
        out.site(function, s.line);
        match &s.kind {
            TStmtKind::Assign { place, op, value } => {
                let saved_top = out.top;
                let target = self.bind(place, out)?;
                if *op != AssignOp::Set {
                    Self::load(target, out);
                }
                self.emit(value, out)?;
                match op {
                    AssignOp::Set => {}
                    AssignOp::With(op) => out.ops.push(Op::Bin(*op)),
                }
                Self::store(target, out);
                out.top = saved_top;
            }
            TStmtKind::CopyArray { to, from, len } => {
                let (to, from) = (self.elems(*to, out), self.elems(*from, out));
                self.copy_array(to, from, *len, out);
            }
            TStmtKind::Eval(e) => {
                self.emit(e, out)?;
                out.ops.push(Op::Pop);
            }
            TStmtKind::If(c, then, other) => {
                self.emit(c, out)?;
                let j1 = out.ops.len();
                out.ops.push(Op::PopJumpIfZero(0));
                self.stmts(then, out)?;
                let j2 = out.ops.len();
                out.ops.push(Op::Jump(0));
                out.ops[j1] = Op::PopJumpIfZero(out.ops.len() as u32);
                out.target();
                self.stmts(other, out)?;
                out.ops[j2] = Op::Jump(out.ops.len() as u32);
                out.target();
            }
            TStmtKind::While(c, body) => {
                out.target();
                let top = out.ops.len() as u32;
                self.emit(c, out)?;
                let exit = out.ops.len();
                out.ops.push(Op::PopJumpIfZero(0));
                self.stmts(body, out)?;
                out.tick(s.line);
                out.ops.push(Op::Jump(top));
                out.ops[exit] = Op::PopJumpIfZero(out.ops.len() as u32);
                out.target();
            }
            TStmtKind::DoWhile(body, c) => {
                // A `Tick` after each run of the body, as `while` has: the
                // same step budget.
                out.target();
                let top = out.ops.len() as u32;
                self.stmts(body, out)?;
                out.tick(s.line);
                self.emit(c, out)?;
                let exit = out.ops.len();
                out.ops.push(Op::PopJumpIfZero(0));
                out.ops.push(Op::Jump(top));
                out.ops[exit] = Op::PopJumpIfZero(out.ops.len() as u32);
                out.target();
            }
            TStmtKind::Return(value) => {
                if let Some(e) = value {
                    self.emit(e, out)?;
                    let frame = out.frames.last().expect("the call's frame");
                    let (result, range) = (frame.result, frame.result_range);
                    if let Some(r) = range {
                        out.ops.push(Op::Check(r));
                    }
                    out.ops.push(Op::StoreLocal(result));
                }
                let j = out.ops.len();
                out.ops.push(Op::Jump(0));
                out.frames.last_mut().expect("the call's frame").exits.push(j);
            }
        }
        Ok(())
    }
}
