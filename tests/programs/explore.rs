//! The test's own semantics of a [`Net`]: explicit states (one location and
//! one `c` per instance, then the globals, the arrays' elements and the
//! flags), explored breadth-first. It follows FORMAT.md's words: ranges are
//! checked on every write (variables through references included), on
//! parameters by value and on results; an index out of bounds, a division by
//! zero, an overflow or a shift count outside `0..63` is a run-time error;
//! `&&`, `||` and `?:` short-circuit; updates run left to right, a binary
//! synchronisation's sender first; guards are evaluated in the source state.

use indexmap::IndexSet;

use super::*;

/// A run-time error somewhere reachable.
#[derive(Debug)]
pub struct RunError;

type R<T> = Result<T, RunError>;

/// The run-time error a breadth-first search meets first: in a step from a
/// state `depth` steps from the initial one, the fewest there are.
#[derive(Debug)]
pub struct FirstError {
    pub depth: usize,
}

pub struct Explored {
    pub states: IndexSet<Vec<i64>>,
    /// States without a successor.
    pub deadlocks: usize,
}

/// Where each part of a state vector starts.
pub struct Layout {
    pub instances: usize,
    pub globals: usize,
    pub arrays: Vec<usize>,
    pub flags: usize,
    pub len: usize,
    /// The range of every cell that holds an integer.
    ranges: Vec<Range>,
}

impl Layout {
    pub fn of(net: &Net) -> Layout {
        let n = net.instances;
        let mut ranges = vec![INT; n];
        ranges.extend(std::iter::repeat_n(net.local, n));
        let globals = ranges.len();
        ranges.extend(&net.globals);
        let mut arrays = Vec::new();
        for (r, size) in &net.arrays {
            arrays.push(ranges.len());
            ranges.extend(std::iter::repeat_n(*r, *size));
        }
        let flags = ranges.len();
        let len = flags + net.flags;
        Layout { instances: n, globals, arrays, flags, len, ranges }
    }

    pub fn location(&self, i: usize) -> usize {
        i
    }

    pub fn local(&self, i: usize) -> usize {
        self.instances + i
    }
}

/// Every reachable state, or the first run-time error met. `None` past
/// `limit` states.
pub fn explore(net: &Net, limit: usize) -> Option<Result<Explored, FirstError>> {
    let layout = Layout::of(net);
    let mut states = IndexSet::new();
    states.insert(vec![0; layout.len]);
    let mut depths = vec![0];
    let mut deadlocks = 0;
    let mut next = 0;
    while next < states.len() {
        if states.len() > limit {
            return None;
        }
        let s = states[next].clone();
        let depth = depths[next];
        next += 1;
        let Ok(succ) = successors(net, &layout, &s) else {
            return Some(Err(FirstError { depth }));
        };
        if succ.is_empty() {
            deadlocks += 1;
        }
        for t in succ {
            if states.insert(t) {
                depths.push(depth + 1);
            }
        }
    }
    Some(Ok(Explored { states, deadlocks }))
}

fn successors(net: &Net, layout: &Layout, s: &[i64]) -> R<Vec<Vec<i64>>> {
    let mut out = Vec::new();
    for i in 0..net.instances {
        for e in &net.edges {
            if s[layout.location(i)] != e.from as i64 || !guard(net, layout, s, i, e)? {
                continue;
            }
            match e.sync {
                None => {
                    let mut t = s.to_vec();
                    update(net, layout, &mut t, i, e)?;
                    out.push(t);
                }
                Some(Sync::Receive) => {}
                Some(Sync::Send) => {
                    for j in (0..net.instances).filter(|&j| j != i) {
                        for r in &net.edges {
                            let receives =
                                matches!(r.sync, Some(Sync::Receive)) && s[layout.location(j)] == r.from as i64;
                            if !receives || !guard(net, layout, s, j, r)? {
                                continue;
                            }
                            let mut t = s.to_vec();
                            update(net, layout, &mut t, i, e)?;
                            update(net, layout, &mut t, j, r)?;
                            out.push(t);
                        }
                    }
                }
            }
        }
    }
    Ok(out)
}

fn guard(net: &Net, layout: &Layout, s: &[i64], inst: usize, e: &Edge) -> R<bool> {
    let Some(g) = &e.guard else { return Ok(true) };
    // Guards call pure functions only: a copy takes no write.
    let mut state = s.to_vec();
    let mut m = Machine { net, layout, inst, state: &mut state, iterations: 0 };
    m.bool(g, &mut Frame::default())
}

fn update(net: &Net, layout: &Layout, t: &mut Vec<i64>, inst: usize, e: &Edge) -> R<()> {
    let mut m = Machine { net, layout, inst, state: t, iterations: 0 };
    let mut frame = Frame::default();
    m.block(&e.update, &mut frame)?;
    t[layout.location(inst)] = e.to as i64;
    Ok(())
}

/// One function activation: its slots (parameters by value and locals) with
/// their ranges, and the cells its references name.
#[derive(Default)]
struct Frame {
    slots: Vec<i64>,
    ranges: Vec<Range>,
    refs: Vec<usize>,
}

enum Flow {
    Normal,
    Return(Option<i64>),
}

/// FORMAT.md: all loops of one evaluation together run at most 2^20 times.
const LOOP_BUDGET: u64 = 1 << 20;

struct Machine<'a> {
    net: &'a Net,
    layout: &'a Layout,
    inst: usize,
    state: &'a mut Vec<i64>,
    iterations: u64,
}

fn checked(v: Option<i64>) -> R<i64> {
    v.ok_or(RunError)
}

impl Machine<'_> {
    fn cell(&mut self, p: &Place, f: &mut Frame) -> R<usize> {
        Ok(match p {
            Place::Global(k) => self.layout.globals + k,
            Place::Elem(k, i) => {
                let i = self.int(i, f)?;
                if i < 0 || i as usize >= self.net.arrays[*k].1 {
                    return Err(RunError);
                }
                self.layout.arrays[*k] + i as usize
            }
            Place::Ref(k) => f.refs[*k],
            Place::Local => self.layout.local(self.inst),
            Place::Slot(_) => unreachable!("slots are not cells"),
        })
    }

    fn read(&mut self, p: &Place, f: &mut Frame) -> R<i64> {
        if let Place::Slot(k) = p {
            return Ok(f.slots[*k]);
        }
        let c = self.cell(p, f)?;
        Ok(self.state[c])
    }

    fn write(&mut self, p: &Place, v: i64, f: &mut Frame) -> R<()> {
        if let Place::Slot(k) = p {
            if !f.ranges[*k].holds(v) {
                return Err(RunError);
            }
            f.slots[*k] = v;
            return Ok(());
        }
        let c = self.cell(p, f)?;
        if !self.layout.ranges[c].holds(v) {
            return Err(RunError);
        }
        self.state[c] = v;
        Ok(())
    }

    fn int(&mut self, e: &IExpr, f: &mut Frame) -> R<i64> {
        match e {
            IExpr::Lit(v) => Ok(*v),
            IExpr::Read(p) => self.read(p, f),
            IExpr::Id => Ok(self.inst as i64),
            IExpr::Neg(a) => checked(self.int(a, f)?.checked_neg()),
            IExpr::Bin(op, a, b) => {
                let a = self.int(a, f)?;
                let b = self.int(b, f)?;
                apply(*op, a, b)
            }
            IExpr::Cond(c, a, b) => {
                if self.bool(c, f)? {
                    self.int(a, f)
                } else {
                    self.int(b, f)
                }
            }
            IExpr::Call(callee, args) => self.call(*callee, args, f)?.ok_or(RunError),
            IExpr::Step(p, up, post) => {
                // The place's index once, as C.
                let at = self.at(p, f)?;
                let old = self.get(at, f);
                let new = checked(old.checked_add(if *up { 1 } else { -1 }))?;
                self.set(at, new, f)?;
                Ok(if *post { old } else { new })
            }
        }
    }

    /// Where `p` is, its index computed now: a slot of `f` (`Err`) or a cell.
    fn at(&mut self, p: &Place, f: &mut Frame) -> R<Result<usize, usize>> {
        Ok(match p {
            Place::Slot(k) => Err(*k),
            _ => Ok(self.cell(p, f)?),
        })
    }

    fn get(&self, at: Result<usize, usize>, f: &Frame) -> i64 {
        match at {
            Ok(c) => self.state[c],
            Err(k) => f.slots[k],
        }
    }

    fn set(&mut self, at: Result<usize, usize>, v: i64, f: &mut Frame) -> R<()> {
        let range = match at {
            Ok(c) => self.layout.ranges[c],
            Err(k) => f.ranges[k],
        };
        if !range.holds(v) {
            return Err(RunError);
        }
        match at {
            Ok(c) => self.state[c] = v,
            Err(k) => f.slots[k] = v,
        }
        Ok(())
    }

    fn bool(&mut self, e: &BExpr, f: &mut Frame) -> R<bool> {
        match e {
            BExpr::Lit(b) => Ok(*b),
            BExpr::Flag(k) => Ok(self.state[self.layout.flags + k] != 0),
            BExpr::Cmp(op, a, b) => {
                let (a, b) = (self.int(a, f)?, self.int(b, f)?);
                Ok(match op {
                    COp::Lt => a < b,
                    COp::Le => a <= b,
                    COp::Eq => a == b,
                    COp::Ne => a != b,
                    COp::Ge => a >= b,
                    COp::Gt => a > b,
                })
            }
            BExpr::Not(a) => Ok(!self.bool(a, f)?),
            BExpr::And(a, b) => Ok(self.bool(a, f)? && self.bool(b, f)?),
            BExpr::Or(a, b) => Ok(self.bool(a, f)? || self.bool(b, f)?),
            BExpr::Call(callee, args) => Ok(self.call(*callee, args, f)?.ok_or(RunError)? != 0),
        }
    }

    /// The result (booleans as 0 and 1), `None` for `void`.
    fn call(&mut self, callee: Callee, args: &[Arg], caller: &mut Frame) -> R<Option<i64>> {
        let func = self.net.func(callee);
        let mut frame = Frame { slots: vec![0; func.slots], ranges: vec![INT; func.slots], refs: vec![0; func.slots] };
        for (k, (param, arg)) in func.params.iter().zip(args).enumerate() {
            match (param, arg) {
                (Param::Val(r), Arg::Val(e)) => {
                    let v = self.int(e, caller)?;
                    if !r.holds(v) {
                        return Err(RunError);
                    }
                    frame.slots[k] = v;
                    frame.ranges[k] = *r;
                }
                (Param::Ref, Arg::Ref(p)) => frame.refs[k] = self.cell(p, caller)?,
                other => panic!("argument does not fit its parameter: {other:?}"),
            }
        }
        let result = match self.block(&func.body, &mut frame)? {
            Flow::Return(v) => v,
            Flow::Normal => None,
        };
        match (func.ret, result) {
            (Type::Int(r), Some(v)) if !r.holds(v) => Err(RunError),
            (_, v) => Ok(v),
        }
    }

    fn block(&mut self, body: &[Stmt], f: &mut Frame) -> R<Flow> {
        for s in body {
            if let Flow::Return(v) = self.stmt(s, f)? {
                return Ok(Flow::Return(v));
            }
        }
        Ok(Flow::Normal)
    }

    fn stmt(&mut self, s: &Stmt, f: &mut Frame) -> R<Flow> {
        match s {
            Stmt::Decl(k, r, init) => {
                let v = match init {
                    Some(e) => self.int(e, f)?,
                    None => 0,
                };
                f.ranges[*k] = *r;
                self.write(&Place::Slot(*k), v, f)?;
            }
            Stmt::Assign(p, e) => {
                // Left to right: the target's index, then the value.
                let at = self.at(p, f)?;
                let v = self.int(e, f)?;
                self.set(at, v, f)?;
            }
            Stmt::Compound(p, op, e) => {
                // `x op= e` is `x = x op e`.
                let x = self.read(p, f)?;
                let v = apply(*op, x, self.int(e, f)?)?;
                self.write(p, v, f)?;
            }
            Stmt::Step(p, up) => {
                let v = checked(self.read(p, f)?.checked_add(if *up { 1 } else { -1 }))?;
                self.write(p, v, f)?;
            }
            Stmt::SetFlag(k, b) => {
                let v = self.bool(b, f)?;
                self.state[self.layout.flags + k] = v as i64;
            }
            Stmt::If(c, a, b) => return if self.bool(c, f)? { self.block(a, f) } else { self.block(b, f) },
            Stmt::Loop { slot, n, body, .. } => {
                self.write(&Place::Slot(*slot), 0, f)?;
                while f.slots[*slot] < *n {
                    self.iterations += 1;
                    if self.iterations > LOOP_BUDGET {
                        return Err(RunError);
                    }
                    if let Flow::Return(v) = self.block(body, f)? {
                        return Ok(Flow::Return(v));
                    }
                    let v = f.slots[*slot] + 1;
                    self.write(&Place::Slot(*slot), v, f)?;
                }
            }
            Stmt::Return(None) => return Ok(Flow::Return(None)),
            Stmt::Return(Some(Ret::Int(e))) => return Ok(Flow::Return(Some(self.int(e, f)?))),
            Stmt::Return(Some(Ret::Bool(e))) => return Ok(Flow::Return(Some(self.bool(e, f)? as i64))),
            Stmt::Call(callee, args) => {
                self.call(*callee, args, f)?;
            }
        }
        Ok(Flow::Normal)
    }
}

/// C's operators on 64-bit integers, every overflow an error.
fn apply(op: IOp, a: i64, b: i64) -> R<i64> {
    checked(match op {
        IOp::Add => a.checked_add(b),
        IOp::Sub => a.checked_sub(b),
        IOp::Mul => a.checked_mul(b),
        IOp::Div => a.checked_div(b),
        IOp::Mod => a.checked_rem(b),
        IOp::Min => Some(a.min(b)),
        IOp::Max => Some(a.max(b)),
        IOp::And => Some(a & b),
        IOp::Or => Some(a | b),
        IOp::Xor => Some(a ^ b),
        IOp::Shl if (0..64).contains(&b) => i64::try_from(i128::from(a) << b).ok(),
        IOp::Shr if (0..64).contains(&b) => Some(a >> b),
        IOp::Shl | IOp::Shr => None,
    })
}
