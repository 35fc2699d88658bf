//! Random [`Net`]s: functions with parameters by value and by reference,
//! locals, `if`, loops, early returns, calls of earlier functions, results
//! checked against their ranges; edges whose guards call the pure ones and
//! whose updates call any. Values are mostly wrapped into their target's
//! range, so that about half of the networks run without a run-time error.

use super::super::random::Rng;

use super::*;

pub fn network(seed: u64) -> Net {
    let mut rng = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0xf00d);
    let r = &mut rng;
    let hi = r.int(2, 4);
    let globals = (0..2).map(|_| Range { lo: if r.chance(0.2) { -2 } else { 0 }, hi }).collect();
    let mut arrays = vec![(Range { lo: 0, hi }, r.int(2, 3) as usize)];
    if r.chance(0.4) {
        arrays.push((Range { lo: 0, hi: 1 }, 2));
    }
    let mut net = Net {
        globals,
        arrays,
        flags: 1,
        local: Range { lo: 0, hi: 2 },
        functions: Vec::new(),
        template_functions: Vec::new(),
        locations: r.int(2, 3) as usize,
        edges: Vec::new(),
        instances: 2,
    };
    let mut g = Gen { rng, net: &mut net };
    for k in 0..g.rng.int(2, 4) as usize {
        let f = g.function(format!("fg{k}"), false);
        g.net.functions.push(f);
    }
    for k in 0..g.rng.int(0, 2) as usize {
        let f = g.function(format!("ft{k}"), true);
        g.net.template_functions.push(f);
    }
    // Every location has an edge to the next without a guard or a
    // synchronisation, so that most networks go somewhere.
    for from in 0..g.net.locations {
        let mut e = g.edge(Some(from));
        e.to = (from + 1) % g.net.locations;
        (e.sync, e.guard) = (None, None);
        g.net.edges.push(e);
    }
    for _ in 0..g.rng.int(2, 4) {
        let e = g.edge(None);
        g.net.edges.push(e);
    }
    net
}

struct Gen<'a> {
    rng: Rng,
    net: &'a mut Net,
}

/// What the code being generated may use.
#[derive(Clone)]
struct Scope {
    /// In a template (edge code or template function): `id` and `c` exist.
    template: bool,
    /// Writes nothing but its own slots, calls pure functions only.
    pure: bool,
    /// Slots that may be read, with whether they may be written (loop
    /// counters may not, inside their loop) and their range.
    slots: Vec<(usize, bool, Range)>,
    /// Parameters by reference.
    refs: Vec<usize>,
    /// Functions callable here.
    callable: Vec<Callee>,
    /// The result type of the function being generated (`Void` on edges).
    ret: Type,
    /// Slots allocated so far.
    next_slot: usize,
}

const DEPTH: usize = 2;

impl Gen<'_> {
    fn function(&mut self, name: String, template: bool) -> Func {
        let pure = self.rng.chance(0.5);
        let mut params = Vec::new();
        let mut scope = Scope {
            template,
            pure,
            slots: Vec::new(),
            refs: Vec::new(),
            callable: self.callable(template, pure),
            ret: Type::Void,
            next_slot: 0,
        };
        for k in 0..self.rng.int(0, 2) as usize {
            if self.rng.chance(0.3) {
                params.push(Param::Ref);
                scope.refs.push(k);
            } else {
                let r = self.range();
                params.push(Param::Val(r));
                scope.slots.push((k, true, r));
            }
        }
        scope.next_slot = params.len();
        scope.ret = match self.rng.below(3) {
            0 => Type::Void,
            1 => Type::Bool,
            _ => Type::Int(self.range()),
        };
        let mut body = self.block(&mut scope, 0);
        match scope.ret {
            Type::Void => {}
            Type::Bool => body.push(Stmt::Return(Some(Ret::Bool(self.bexpr(&scope, 1))))),
            Type::Int(r) => {
                // Results are checked against their range: not always wrapped.
                let e = self.iexpr(&scope, 1);
                let e = if self.rng.chance(0.6) { self.fit(e, r) } else { e };
                body.push(Stmt::Return(Some(Ret::Int(e))));
            }
        }
        Func { name, params, ret: scope.ret, body, pure, slots: scope.next_slot }
    }

    fn callable(&self, template: bool, pure: bool) -> Vec<Callee> {
        let globals = self.net.functions.iter().enumerate().map(|(k, f)| (Callee::Global(k), f.pure));
        let locals = self.net.template_functions.iter().enumerate().map(|(k, f)| (Callee::Template(k), f.pure));
        let all: Vec<_> = if template { globals.chain(locals).collect() } else { globals.collect() };
        all.into_iter().filter(|(_, p)| *p || !pure).map(|(c, _)| c).collect()
    }

    fn range(&mut self) -> Range {
        match self.rng.below(4) {
            0 | 1 => INT,
            2 => Range { lo: 0, hi: self.rng.int(1, 4) },
            _ => Range { lo: -3, hi: 8 },
        }
    }

    fn edge(&mut self, from: Option<usize>) -> Edge {
        let r = &mut self.rng;
        let from = from.unwrap_or_else(|| r.below(self.net.locations));
        let to = r.below(self.net.locations);
        let sync = match r.below(8) {
            0 => Some(Sync::Send),
            1 => Some(Sync::Receive),
            _ => None,
        };
        let mut scope = Scope {
            template: true,
            pure: false,
            slots: Vec::new(),
            refs: Vec::new(),
            callable: self.callable(true, false),
            ret: Type::Void,
            next_slot: 0,
        };
        let guard = if !self.rng.chance(0.5) {
            None
        } else if sync.is_some() {
            // A synchronisation's guards cannot fail: whether a partner's
            // guard is evaluated when no partner exists is left open.
            let k = self.rng.below(self.net.globals.len());
            let v = self.rng.int(0, 3);
            Some(BExpr::Cmp(self.cmp(), Box::new(IExpr::Read(Place::Global(k))), Box::new(IExpr::Lit(v))))
        } else {
            let pure = Scope { pure: true, callable: self.callable(true, true), ..scope.clone() };
            Some(self.bexpr(&pure, 0))
        };
        let mut update = Vec::new();
        for _ in 0..self.rng.int(1, 2) {
            update.push(self.simple(&mut scope));
        }
        Edge { from, to, guard, sync, update }
    }

    fn cmp(&mut self) -> COp {
        *self.rng.pick(&[COp::Lt, COp::Le, COp::Eq, COp::Ne, COp::Ge, COp::Gt])
    }

    fn block(&mut self, scope: &mut Scope, depth: usize) -> Vec<Stmt> {
        let saved = scope.slots.len();
        let mut out = Vec::new();
        for _ in 0..self.rng.int(1, 4) {
            match self.rng.below(10) {
                0 | 1 => {
                    let slot = scope.next_slot;
                    scope.next_slot += 1;
                    let r = self.range();
                    let init = if self.rng.chance(0.7) {
                        let e = self.iexpr(scope, 1);
                        Some(self.fit(e, r))
                    } else {
                        None
                    };
                    out.push(Stmt::Decl(slot, r, init));
                    scope.slots.push((slot, true, r));
                }
                2 if depth < DEPTH => {
                    let c = self.bexpr(scope, 1);
                    let a = self.block(scope, depth + 1);
                    let b = if self.rng.chance(0.5) { self.block(scope, depth + 1) } else { Vec::new() };
                    out.push(Stmt::If(c, a, b));
                }
                3 if depth < DEPTH => {
                    let slot = scope.next_slot;
                    scope.next_slot += 1;
                    let n = self.rng.int(1, 3);
                    let r = if self.rng.chance(0.5) { INT } else { Range { lo: 0, hi: n } };
                    out.push(Stmt::Decl(slot, r, None));
                    scope.slots.push((slot, false, r));
                    let body = self.block(scope, depth + 1);
                    scope.slots.pop();
                    scope.slots.push((slot, true, r));
                    let form = match self.rng.int(0, 4) {
                        0 | 1 => LoopForm::For,
                        2 | 3 => LoopForm::While,
                        _ => LoopForm::DoWhile,
                    };
                    out.push(Stmt::Loop { slot, n, body, form });
                }
                4 if scope.ret != Type::Void && self.rng.chance(0.5) => {
                    let c = self.bexpr(scope, 1);
                    let ret = match scope.ret {
                        Type::Bool => Ret::Bool(self.bexpr(scope, 1)),
                        Type::Int(r) => {
                            let e = self.iexpr(scope, 1);
                            Ret::Int(self.fit(e, r))
                        }
                        Type::Void => unreachable!(),
                    };
                    out.push(Stmt::If(c, vec![Stmt::Return(Some(ret))], Vec::new()));
                }
                _ => out.push(self.simple(scope)),
            }
        }
        scope.slots.truncate(saved);
        out
    }

    /// An assignment, increment, flag update or call: a statement that is
    /// also an update entry.
    fn simple(&mut self, scope: &mut Scope) -> Stmt {
        for _ in 0..32 {
            match self.rng.below(9) {
                0..=2 => {
                    let Some((p, r)) = self.target(scope) else { continue };
                    // An impure call stands alone on the right of an
                    // index-free target: `g0 = pop()`.
                    let index_free = !matches!(p, Place::Elem(..));
                    if index_free
                        && !scope.pure
                        && self.rng.chance(0.2)
                        && let Some(call) = self.call(scope, Want::Int, false)
                    {
                        return Stmt::Assign(p, call);
                    }
                    let mut e = self.iexpr(scope, 0);
                    // An increment inside the value (`a0[g1] = (g1++) + e`):
                    // evaluated after the target's index, left to right.
                    if self.rng.chance(0.2)
                        && let Some((q, INT)) = self.target(scope)
                    {
                        let step = IExpr::Step(q, self.rng.chance(0.5), self.rng.chance(0.5));
                        e = IExpr::Bin(IOp::Add, Box::new(step), Box::new(e));
                    }
                    let e = if self.rng.chance(0.95) { self.fit(e, r) } else { e };
                    return Stmt::Assign(p, e);
                }
                // Increments leave narrow ranges fast: mostly on `int`s.
                3 => {
                    let Some((p, r)) = self.target(scope) else { continue };
                    if r != INT && !self.rng.chance(0.15) {
                        continue;
                    }
                    let op = *self.rng.pick(&[IOp::Add, IOp::Sub, IOp::Mul, IOp::Mod, IOp::And, IOp::Or, IOp::Xor]);
                    let v = self.rng.int(1, 3);
                    return Stmt::Compound(p, op, IExpr::Lit(v));
                }
                4 => {
                    let Some((p, r)) = self.target(scope) else { continue };
                    if r != INT && !self.rng.chance(0.15) {
                        continue;
                    }
                    return Stmt::Step(p, self.rng.chance(0.5));
                }
                5 if !scope.pure => {
                    let k = self.rng.below(self.net.flags);
                    return Stmt::SetFlag(k, self.bexpr(scope, 1));
                }
                6 | 7 => {
                    if let Some(IExpr::Call(f, args)) = self.call(scope, Want::Any, false) {
                        return Stmt::Call(f, args);
                    }
                }
                _ => {}
            }
        }
        // A pure function with nothing to write yet.
        let init = self.leaf(scope);
        let slot = scope.next_slot;
        scope.next_slot += 1;
        scope.slots.push((slot, true, INT));
        Stmt::Decl(slot, INT, Some(init))
    }

    /// A place the code may write, with its range.
    fn target(&mut self, scope: &Scope) -> Option<(Place, Range)> {
        let mut options: Vec<(Place, Range)> = Vec::new();
        for &(k, writable, r) in &scope.slots {
            if writable {
                options.push((Place::Slot(k), r));
            }
        }
        if !scope.pure {
            for (k, r) in self.net.globals.iter().enumerate() {
                options.push((Place::Global(k), *r));
            }
            for (k, (r, n)) in self.net.arrays.clone().iter().enumerate() {
                let i = self.index(scope, *n);
                options.push((Place::Elem(k, Box::new(i)), *r));
            }
            for &k in &scope.refs {
                options.push((Place::Ref(k), Range { lo: 0, hi: 1 }));
            }
            if scope.template {
                options.push((Place::Local, self.net.local));
            }
        }
        if options.is_empty() {
            return None;
        }
        let k = self.rng.below(options.len());
        Some(options.swap_remove(k))
    }

    /// An array index: mostly a constant in bounds.
    fn index(&mut self, scope: &Scope, n: usize) -> IExpr {
        if self.rng.chance(0.9) { IExpr::Lit(self.rng.below(n) as i64) } else { self.variable(scope) }
    }

    /// A value read from a variable (a constant out of bounds or a constant
    /// divisor zero is an error at load time, not at run time).
    fn variable(&mut self, scope: &Scope) -> IExpr {
        if !scope.slots.is_empty() && self.rng.chance(0.5) {
            return IExpr::Read(Place::Slot(self.rng.pick(&scope.slots).0));
        }
        IExpr::Read(Place::Global(self.rng.below(self.net.globals.len())))
    }

    /// `e` wrapped into `r`: `((e % m) + m) % m + lo`.
    fn fit(&mut self, e: IExpr, r: Range) -> IExpr {
        if r == INT || self.rng.chance(0.05) {
            return e;
        }
        let m = IExpr::Lit(r.hi - r.lo + 1);
        let inner = IExpr::Bin(IOp::Mod, Box::new(e), Box::new(m.clone()));
        let pos = IExpr::Bin(IOp::Add, Box::new(inner), Box::new(m.clone()));
        let wrapped = IExpr::Bin(IOp::Mod, Box::new(pos), Box::new(m));
        IExpr::Bin(IOp::Add, Box::new(wrapped), Box::new(IExpr::Lit(r.lo)))
    }

    fn leaf(&mut self, scope: &Scope) -> IExpr {
        loop {
            match self.rng.below(8) {
                0 => return IExpr::Lit(self.rng.int(-2, 5)),
                1 | 2 => return IExpr::Read(Place::Global(self.rng.below(self.net.globals.len()))),
                3 => {
                    let k = self.rng.below(self.net.arrays.len());
                    let n = self.net.arrays[k].1;
                    let i = if self.rng.chance(0.9) {
                        IExpr::Lit(self.rng.below(n) as i64)
                    } else {
                        IExpr::Read(Place::Global(self.rng.below(self.net.globals.len())))
                    };
                    return IExpr::Read(Place::Elem(k, Box::new(i)));
                }
                4 | 5 if !scope.slots.is_empty() => {
                    let (k, _, _) = *self.rng.pick(&scope.slots);
                    return IExpr::Read(Place::Slot(k));
                }
                6 if !scope.refs.is_empty() => return IExpr::Read(Place::Ref(*self.rng.pick(&scope.refs))),
                7 if scope.template => {
                    return if self.rng.chance(0.5) { IExpr::Id } else { IExpr::Read(Place::Local) };
                }
                _ => {}
            }
        }
    }

    fn iexpr(&mut self, scope: &Scope, depth: usize) -> IExpr {
        if depth >= 3 {
            return self.leaf(scope);
        }
        match self.rng.below(12) {
            0..=3 => self.leaf(scope),
            4 | 5 => {
                let op =
                    *self.rng.pick(&[IOp::Add, IOp::Sub, IOp::Add, IOp::Min, IOp::Max, IOp::Xor, IOp::And, IOp::Or]);
                IExpr::Bin(op, Box::new(self.iexpr(scope, depth + 1)), Box::new(self.iexpr(scope, depth + 1)))
            }
            6 => {
                // Small factors; divisors that are zero only at run time
                // (a constant zero is an error at load time).
                let op = *self.rng.pick(&[IOp::Mul, IOp::Div, IOp::Mod]);
                let k = if op == IOp::Mul || self.rng.chance(0.92) {
                    IExpr::Lit(*self.rng.pick(&[-1, 1, 2, 3]))
                } else {
                    self.variable(scope)
                };
                IExpr::Bin(op, Box::new(self.iexpr(scope, depth + 1)), Box::new(k))
            }
            7 => {
                let op = *self.rng.pick(&[IOp::Shl, IOp::Shr]);
                IExpr::Bin(op, Box::new(self.iexpr(scope, depth + 1)), Box::new(IExpr::Lit(self.rng.int(0, 2))))
            }
            8 => IExpr::Neg(Box::new(self.iexpr(scope, depth + 1))),
            9 if self.rng.chance(0.4) => {
                // A division only the condition makes safe: `v != 0 ? e / v : k`.
                let v = self.variable(scope);
                let c = BExpr::Cmp(COp::Ne, Box::new(v.clone()), Box::new(IExpr::Lit(0)));
                let op = *self.rng.pick(&[IOp::Div, IOp::Mod]);
                let div = IExpr::Bin(op, Box::new(self.iexpr(scope, depth + 1)), Box::new(v));
                IExpr::Cond(Box::new(c), Box::new(div), Box::new(IExpr::Lit(self.rng.int(0, 2))))
            }
            9 => {
                let c = self.bexpr(scope, depth + 1);
                IExpr::Cond(Box::new(c), Box::new(self.iexpr(scope, depth + 1)), Box::new(self.iexpr(scope, depth + 1)))
            }
            _ => self.call(scope, Want::Int, true).unwrap_or_else(|| self.leaf(scope)),
        }
    }

    fn bexpr(&mut self, scope: &Scope, depth: usize) -> BExpr {
        if depth >= 3 {
            return self.cmp_atom(scope, depth);
        }
        match self.rng.below(11) {
            0..=3 => self.cmp_atom(scope, depth),
            10 => self.bounds_checked(scope),
            4 => BExpr::Flag(self.rng.below(self.net.flags)),
            5 => BExpr::Not(Box::new(self.bexpr(scope, depth + 1))),
            6 => BExpr::And(Box::new(self.bexpr(scope, depth + 1)), Box::new(self.bexpr(scope, depth + 1))),
            7 => BExpr::Or(Box::new(self.bexpr(scope, depth + 1)), Box::new(self.bexpr(scope, depth + 1))),
            _ => match self.call(scope, Want::Bool, true) {
                Some(IExpr::Call(f, args)) => BExpr::Call(f, args),
                _ => self.cmp_atom(scope, depth),
            },
        }
    }

    /// What users write to keep a variable index in bounds, which only
    /// short-circuiting makes safe: `v >= 0 && v < n && a[v] ~ k`, or
    /// `v < 0 || v >= n || a[v] ~ k`.
    fn bounds_checked(&mut self, scope: &Scope) -> BExpr {
        let k = self.rng.below(self.net.arrays.len());
        let n = self.net.arrays[k].1 as i64;
        let v = self.variable(scope);
        let cmp = |op, a: &IExpr, b| BExpr::Cmp(op, Box::new(a.clone()), Box::new(IExpr::Lit(b)));
        let elem = IExpr::Read(Place::Elem(k, Box::new(v.clone())));
        let access = BExpr::Cmp(self.cmp(), Box::new(elem), Box::new(IExpr::Lit(self.rng.int(0, 2))));
        if self.rng.chance(0.5) {
            let inside = BExpr::And(Box::new(cmp(COp::Ge, &v, 0)), Box::new(cmp(COp::Lt, &v, n)));
            BExpr::And(Box::new(inside), Box::new(access))
        } else {
            let outside = BExpr::Or(Box::new(cmp(COp::Lt, &v, 0)), Box::new(cmp(COp::Ge, &v, n)));
            BExpr::Or(Box::new(outside), Box::new(access))
        }
    }

    fn cmp_atom(&mut self, scope: &Scope, depth: usize) -> BExpr {
        let a = self.iexpr(scope, depth + 1);
        let b = if self.rng.chance(0.6) { IExpr::Lit(self.rng.int(0, 3)) } else { self.iexpr(scope, depth + 1) };
        BExpr::Cmp(self.cmp(), Box::new(a), Box::new(b))
    }

    /// A call of a function the scope may call that gives `want`; inside an
    /// expression (`in_expr`) only pure ones, so that the order of
    /// evaluation never shows.
    fn call(&mut self, scope: &Scope, want: Want, in_expr: bool) -> Option<IExpr> {
        let net = &*self.net;
        let fits = |c: &Callee| {
            let f = net.func(*c);
            (!in_expr || f.pure)
                && match want {
                    Want::Int => matches!(f.ret, Type::Int(_)),
                    Want::Bool => f.ret == Type::Bool,
                    Want::Any => true,
                }
        };
        let options: Vec<Callee> = scope.callable.iter().copied().filter(fits).collect();
        if options.is_empty() {
            return None;
        }
        let callee = *self.rng.pick(&options);
        let params = self.net.func(callee).params.clone();
        let mut args = Vec::new();
        for p in params {
            args.push(match p {
                Param::Val(r) => {
                    let e = self.iexpr(scope, 2);
                    Arg::Val(if self.rng.chance(0.7) { self.fit(e, r) } else { e })
                }
                Param::Ref => Arg::Ref(self.ref_arg(scope)),
            });
        }
        Some(IExpr::Call(callee, args))
    }

    /// A variable for a parameter by reference.
    fn ref_arg(&mut self, scope: &Scope) -> Place {
        loop {
            match self.rng.below(4) {
                0 => return Place::Global(self.rng.below(self.net.globals.len())),
                1 => {
                    let k = self.rng.below(self.net.arrays.len());
                    let n = self.net.arrays[k].1;
                    let i = if self.rng.chance(0.7) { self.index(scope, n) } else { self.variable(scope) };
                    return Place::Elem(k, Box::new(i));
                }
                2 if !scope.refs.is_empty() => return Place::Ref(*self.rng.pick(&scope.refs)),
                3 if scope.template => return Place::Local,
                _ => {}
            }
        }
    }
}

#[derive(Clone, Copy)]
enum Want {
    Int,
    Bool,
    Any,
}
