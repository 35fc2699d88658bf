//! Instantiating a checked [`Model`] into a [`Network`].

use crate::diag::{Diagnostic, Loc, Pos};
use crate::domain::poly::Q;
use crate::model::MAX_CLOCK_BOUND;
use crate::model::typed::{AssignOp, Cmp, Conj, Cvar, LinAtom, TExpr, TUpdate, VarRef};
use crate::model::types::{Model, Var, VarInit};
use crate::network::compile::{Env, Layout};
use crate::network::linear::{Hybrid, Vars, atom_constraints};
use crate::network::{
    Channel, ChannelIndex, ClockConstraint, Code, Edge, EdgeSync, Location, LuBounds, Network, Process, SelectGroup,
    Slot, Target, Update,
};
use crate::syntax::ast::BinOp;

/// Most edges one instance may expand to (selects × guard disjuncts).
const MAX_EDGES: usize = 1 << 20;

struct Builder<'m> {
    model: &'m Model,
    layout: Layout,
    slots: Vec<Slot>,
    /// Per instance, per local clock: the network clock index (from 1).
    local_clocks: Vec<Vec<u32>>,
    channel_base: Vec<u32>,
    errors: Vec<Diagnostic>,
    has_diagonals: bool,
    /// In a linear network: the first continuous variable's index.
    linear: Option<u32>,
    /// The timing parameters' values (empty: not fixed).
    params: Vec<Q>,
    /// While compiling a select group's edge: where its selects are read.
    select_slot: Option<u32>,
    select_slots: Vec<Slot>,
}

/// Compiles the model. Fails only on what depends on instantiation (a range
/// or a clock bound that a parameter value makes invalid).
pub fn build(model: &Model) -> Result<Network, Vec<Diagnostic>> {
    build_with(model, &[])
}

/// [`build`] with the timing parameters fixed to `params` (one value each,
/// or none). A hybrid model, or one with a parameter fixed to a value that
/// is not an integer, compiles to a linear network (`network::linear`).
pub fn build_with(model: &Model, params: &[Q]) -> Result<Network, Vec<Diagnostic>> {
    let params = if params.len() == model.params.len() { params } else { &[] };
    let mut b = Builder {
        model,
        layout: Layout::default(),
        slots: Vec::new(),
        local_clocks: Vec::new(),
        channel_base: Vec::new(),
        errors: Vec::new(),
        has_diagonals: false,
        linear: None,
        params: params.to_vec(),
        select_slot: None,
        select_slots: Vec::new(),
    };
    for v in &model.vars {
        let first = b.var(v, "", &[]);
        b.layout.global.push(first);
    }
    for inst in &model.instances {
        let t = &model.templates[inst.template];
        let firsts = t.vars.iter().map(|v| b.var(v, &format!("{}.", inst.name), &inst.args)).collect();
        b.layout.local.push(firsts);
    }
    b.layout.ranges = b.slots.iter().map(|s| (s.lo, s.hi)).collect();
    b.layout.functions = model.functions.clone();
    b.layout.local_functions = model.instances.iter().map(|i| model.templates[i.template].functions.clone()).collect();
    b.layout.args = model.instances.iter().map(|i| i.args.clone()).collect();
    let mut clocks: Vec<String> = model.clocks.clone();
    for inst in &model.instances {
        let t = &model.templates[inst.template];
        let ids = t.clocks.iter().map(|c| {
            clocks.push(format!("{}.{c}", inst.name));
            clocks.len() as u32
        });
        b.local_clocks.push(ids.collect());
    }
    if model.hybrid || params.iter().any(|v| !v.is_integer()) {
        b.linear = Some(clocks.len() as u32 + 1);
        clocks.extend(model.continuous.iter().map(|c| c.name.clone()));
    }
    let mut channels = Vec::new();
    for c in &model.channels {
        b.channel_base.push(channels.len() as u32);
        match c.size {
            None => channels.push(Channel {
                name: c.name.clone(),
                broadcast: c.broadcast,
                urgent: c.urgent,
                parties: c.parties.clone(),
            }),
            // Arrays of vectors are refused by the checker.
            Some(n) => channels.extend((0..n).map(|k| Channel {
                name: crate::model::types::element_name(&c.name, &c.dims, k),
                broadcast: c.broadcast,
                urgent: c.urgent,
                parties: Vec::new(),
            })),
        }
    }
    let processes: Vec<Process> = (0..model.instances.len()).map(|i| b.process(i)).collect();
    if !b.errors.is_empty() {
        return Err(b.errors);
    }
    let lu = LuBounds::new(&processes, &channels, clocks.len());
    let hybrid = match b.linear.map(|first| Hybrid::new(model, &b.layout, &b.local_clocks, first)) {
        None => None,
        Some(Ok(h)) => Some(Box::new(h)),
        Some(Err((inst, _, msg))) => {
            let pos = model.instances[inst].pos;
            return Err(vec![Diagnostic::new(Loc { file: model.file.clone(), pos, len: 1 }, "too-large", msg)]);
        }
    };
    let net = Network {
        name: model.name.clone(),
        clocks,
        slots: b.slots,
        select_slots: b.select_slots,
        processes,
        channels,
        out_of_range: model.out_of_range,
        has_diagonals: b.has_diagonals,
        lu,
        layout: b.layout,
        local_clocks: b.local_clocks,
        params: b.params,
        hybrid,
        line_map: None,
        priorities: model.priorities.as_ref().map(|p| crate::network::Priorities {
            channels: p.channels.iter().flatten().copied().collect(),
            internal: p.internal,
            processes: p.processes.clone(),
        }),
    };
    let errors = symbolic_conflicts(model, &net);
    if errors.is_empty() { Ok(net) } else { Err(errors) }
}

/// A variable marked `symbolic: true` that the `--data bdd` split requires
/// explicit ([`crate::bdd::split`]): one error at its `symbolic`, saying why.
fn symbolic_conflicts(model: &Model, net: &Network) -> Vec<Diagnostic> {
    let globals = model.vars.iter().zip(&net.layout.global);
    let locals = model
        .instances
        .iter()
        .zip(&net.layout.local)
        .flat_map(|(inst, firsts)| model.templates[inst.template].vars.iter().zip(firsts));
    let marked: Vec<_> = globals.chain(locals).filter(|(v, _)| matches!(v.symbolic, Some((true, _)))).collect();
    if marked.is_empty() {
        return Vec::new();
    }
    let required = crate::bdd::split::required(net);
    let mut out = Vec::new();
    for (v, &first) in marked {
        let Some((_, pos)) = v.symbolic else { continue };
        let slots = first as usize..first as usize + v.size.unwrap_or(1);
        if let Some((s, why)) = slots.filter_map(|s| Some((s, required[s].as_ref()?))).next() {
            let msg = format!(
                "`{}` cannot be `symbolic: true`: `{}` is {why}, so it stays explicit",
                v.name, net.slots[s].name
            );
            out.push(Diagnostic::new(Loc { file: model.file.clone(), pos, len: 1 }, "symbolic-conflict", msg));
        }
    }
    out
}

impl Builder<'_> {
    fn error(&mut self, pos: Pos, code: &'static str, msg: String) {
        self.errors.push(Diagnostic::new(Loc { file: self.model.file.clone(), pos, len: 1 }, code, msg));
    }

    fn env<'a>(&'a self, inst: usize, selects: &'a [i64]) -> Env<'a> {
        Env {
            layout: &self.layout,
            inst,
            args: &self.model.instances[inst].args,
            selects,
            select_slot: self.select_slot,
        }
    }

    /// Lays out a variable's slots; returns the first.
    fn var(&mut self, v: &Var, prefix: &str, args: &[i64]) -> u32 {
        let fold = |t: &TExpr| crate::model::fold::fold(t, args).unwrap_or(0);
        let (lo, hi) = (fold(&v.lo), fold(&v.hi));
        let first = self.slots.len() as u32;
        let n = v.size.unwrap_or(1);
        for k in 0..n {
            let name = match v.size {
                Some(_) => crate::model::types::element_name(&format!("{prefix}{}", v.name), &v.dims, k),
                None => format!("{prefix}{}", v.name),
            };
            let init = match &v.init {
                VarInit::Default => (lo, lo),
                VarInit::Any => (lo, hi),
                VarInit::Values(vals) => {
                    let x = fold(&vals[k.min(vals.len() - 1)].0);
                    (x, x)
                }
            };
            self.slots.push(Slot { name, lo, hi, is_bool: v.is_bool, init, symbolic: v.symbolic.map(|s| s.0) });
        }
        first
    }

    /// `x - y ~ rhs` as DBM constraints (or, in a linear network, any
    /// linear constraint), reporting what cannot be one.
    fn constraints(&mut self, inst: usize, selects: &[i64], a: &LinAtom, pos: Pos, out: &mut Vec<ClockConstraint>) {
        let env = self.env(inst, selects);
        match atom_constraints(&env, &self.local_clocks, self.linear, &self.params, a, out) {
            Ok(diagonal) => self.has_diagonals |= diagonal,
            Err((code, msg)) => {
                let msg = format!("in `{}`, {msg}", self.model.instances[inst].name);
                self.error(pos, code, msg);
            }
        }
    }

    fn conj_data(&mut self, inst: usize, selects: &[i64], c: &Conj, pos: Pos) -> Option<Option<Code>> {
        let all = c.data.iter().cloned().reduce(|a, b| TExpr::Binary(BinOp::And, Box::new(a), Box::new(b)));
        let Some(all) = all else { return Some(None) };
        match self.env(inst, selects).compile(&all) {
            Ok(code) if code.as_const().is_some_and(|v| v != 0) => Some(None),
            Ok(code) => Some(Some(code)),
            Err(e) => {
                self.error(pos, "too-large", e);
                None
            }
        }
    }

    fn process(&mut self, inst: usize) -> Process {
        let model = self.model;
        let instance = &model.instances[inst];
        let t = &model.templates[instance.template];
        let mut locations = Vec::new();
        for l in &t.locations {
            let mut invariant = Vec::new();
            for a in &l.invariant.lin {
                self.constraints(inst, &[], a, instance.pos, &mut invariant);
            }
            let invariant_data = self.conj_data(inst, &[], &l.invariant, instance.pos).flatten();
            locations.push(Location {
                name: l.name.clone(),
                invariant,
                invariant_data,
                urgent: l.urgent,
                committed: l.committed,
                labels: l.labels.clone(),
            });
        }
        let mut edges = Vec::new();
        let mut select_groups = Vec::new();
        for e in &t.edges {
            let env = self.env(inst, &[]);
            let ranges: Vec<(i64, i64)> = e
                .selects
                .iter()
                .map(|s| (env.constant(&s.lo).unwrap_or(0), env.constant(&s.hi).unwrap_or(-1)))
                .collect();
            let mut values: Vec<i64> = ranges.iter().map(|r| r.0).collect();
            if ranges.iter().any(|(lo, hi)| lo > hi) {
                continue;
            }
            // Room for every value at once: growing by doubling holds the
            // old and the new buffer together, half again of a wide select.
            let size = |&(lo, hi): &(i64, i64)| usize::try_from(hi as i128 - lo as i128 + 1).unwrap_or(usize::MAX);
            let count = ranges.iter().map(size).fold(e.guard.len(), usize::saturating_mul);
            edges.reserve(count.min(MAX_EDGES - edges.len().min(MAX_EDGES)));
            let mut members = vec![Vec::new(); e.guard.len()];
            loop {
                for (c, conj) in e.guard.iter().enumerate() {
                    if edges.len() >= MAX_EDGES {
                        self.error(
                            e.pos,
                            "too-large",
                            format!("`{}` has more than {MAX_EDGES} edges after expanding selects", instance.name),
                        );
                        return Process {
                            name: instance.name.clone(),
                            template: t.name.clone(),
                            locations,
                            initial: t.initial as u32,
                            edges,
                            outgoing: Vec::new(),
                            observer: false,
                            select_groups,
                        };
                    }
                    if let Some(edge) = self.edge(inst, e, conj, &values) {
                        members[c].push(edges.len() as u32);
                        edges.push(edge);
                    }
                }
                let mut k = values.len();
                let mut done = true;
                while k > 0 {
                    k -= 1;
                    if values[k] < ranges[k].1 {
                        values[k] += 1;
                        done = false;
                        break;
                    }
                    values[k] = ranges[k].0;
                }
                if done {
                    break;
                }
            }
            if !e.selects.is_empty() && self.linear.is_none() {
                for (conj, members) in e.guard.iter().zip(members) {
                    if let Some(g) = self.select_group(inst, e, conj, &ranges, &edges, members) {
                        select_groups.push(g);
                    }
                }
            }
        }
        let mut outgoing = vec![Vec::new(); locations.len()];
        for (id, e) in edges.iter().enumerate() {
            outgoing[e.from as usize].push(id as u32);
        }
        Process {
            name: instance.name.clone(),
            template: t.name.clone(),
            locations,
            initial: t.initial as u32,
            edges,
            outgoing,
            observer: false,
            select_groups,
        }
    }

    /// The group of `members` (the edges of `e` and `conj`, one per value of
    /// the selects in `ranges`), unless a select reaches a clock guard, the
    /// sync or a reset (they then differ between members).
    fn select_group(
        &mut self,
        inst: usize,
        e: &crate::model::types::Edge,
        conj: &Conj,
        ranges: &[(i64, i64)],
        edges: &[Edge],
        members: Vec<u32>,
    ) -> Option<SelectGroup> {
        let rep = &edges[*members.first()? as usize];
        let clock_part = |x: &Edge| {
            let resets = x.updates.iter().filter(|u| matches!(u, Update::Reset { .. })).cloned();
            (x.guard_clocks.clone(), x.sync.clone(), resets.collect::<Vec<_>>())
        };
        let first = clock_part(rep);
        if members.iter().any(|&m| clock_part(&edges[m as usize]) != first) {
            return None;
        }
        let first_slot = (self.slots.len() + self.select_slots.len()) as u32;
        let lows: Vec<i64> = ranges.iter().map(|r| r.0).collect();
        let (errors, diagonals) = (self.errors.len(), self.has_diagonals);
        self.select_slot = Some(first_slot);
        let edge = self.edge(inst, e, conj, &lows);
        self.select_slot = None;
        // A select in a clock part that every value happens to agree on
        // (`x = v - v`) fails to compile here: then no group, no error.
        let clean = self.errors.len() == errors;
        self.errors.truncate(errors);
        self.has_diagonals = diagonals;
        let mut edge = edge.filter(|_| clean)?;
        // Only the data parts read the selects: the rest is the members'.
        edge.guard_clocks = rep.guard_clocks.clone();
        edge.sync = rep.sync.clone();
        for (u, r) in edge.updates.iter_mut().zip(&rep.updates) {
            if matches!(r, Update::Reset { .. }) {
                *u = r.clone();
            }
        }
        edge.select = Vec::new();
        let name = &self.model.instances[inst].name;
        for (s, &(lo, hi)) in e.selects.iter().zip(ranges) {
            let name = format!("{name}.{}", s.name);
            self.select_slots.push(Slot { name, lo, hi, is_bool: false, init: (lo, hi), symbolic: None });
        }
        Some(SelectGroup { members, edge, first_slot })
    }

    fn edge(&mut self, inst: usize, e: &crate::model::types::Edge, conj: &Conj, selects: &[i64]) -> Option<Edge> {
        let guard_data = self.conj_data(inst, selects, conj, e.pos)?;
        let mut guard_clocks = Vec::new();
        for a in &conj.lin {
            self.constraints(inst, selects, a, e.pos, &mut guard_clocks);
        }
        let env = self.env(inst, selects);
        let compile = |b: &mut Self, t: &TExpr| -> Option<Code> {
            match b.env(inst, selects).compile(t) {
                Ok(c) => Some(c),
                Err(msg) => {
                    b.error(e.pos, "too-large", msg);
                    None
                }
            }
        };
        let sync = match &e.sync {
            None => None,
            Some(s) => {
                let base = self.channel_base[s.channel];
                let channel = match (&s.index, model_size(self.model, s.channel)) {
                    (None, _) => ChannelIndex::Fixed(base),
                    (Some(i), len) => match env.constant(i) {
                        Some(k) if (0..len as i64).contains(&k) => ChannelIndex::Fixed(base + k as u32),
                        Some(k) => {
                            let name = &self.model.channels[s.channel].name;
                            self.error(
                                e.pos,
                                "index-out-of-bounds",
                                format!(
                                    "in `{}`, channel index {k} is outside `{name}` (size {len})",
                                    self.model.instances[inst].name
                                ),
                            );
                            return None;
                        }
                        None => ChannelIndex::Dynamic { base, len: len as u32, index: compile(self, i)? },
                    },
                };
                Some(EdgeSync { channel, dir: s.dir })
            }
        };
        let mut updates = Vec::new();
        for u in &e.updates {
            match u {
                TUpdate::Data { var, len, index, op, value } => {
                    let current = match index {
                        None => TExpr::Var(*var),
                        Some(i) => TExpr::Index(*var, len.unwrap_or(1), Box::new(i.clone())),
                    };
                    let value = match op {
                        AssignOp::Set => value.clone(),
                        AssignOp::With(op) => TExpr::Binary(*op, Box::new(current), Box::new(value.clone())),
                    };
                    let base = match var {
                        VarRef::Global(g) => self.layout.global[*g],
                        VarRef::Local(l) => self.layout.local[inst][*l],
                        VarRef::Of(i, l) => self.layout.local[*i][*l],
                    };
                    let target = match index {
                        None => Target::Slot(base),
                        Some(i) => match self.env(inst, selects).constant(i) {
                            Some(k) if (0..len.unwrap_or(1) as i64).contains(&k) => Target::Slot(base + k as u32),
                            _ => Target::Indexed { base, len: len.unwrap_or(1) as u32, index: compile(self, i)? },
                        },
                    };
                    updates.push(Update::Data { target, value: compile(self, &value)? });
                }
                TUpdate::Continuous { var, terms, value } if let Some(first) = self.linear => {
                    let vars = Vars { local_clocks: &self.local_clocks, first_continuous: first };
                    let (var, terms) = (vars.index(inst, *var), vars.terms(inst, terms));
                    let terms = match terms {
                        Ok(t) => t,
                        Err(msg) => {
                            self.error(e.pos, "too-large", msg);
                            return None;
                        }
                    };
                    updates.push(Update::Assign { var, terms, value: compile(self, value)? });
                }
                TUpdate::Effect(call) => match self.env(inst, selects).compile_effect(call) {
                    Ok(code) => updates.push(Update::Effect(code)),
                    Err(msg) => {
                        self.error(e.pos, "too-large", msg);
                        return None;
                    }
                },
                TUpdate::Continuous { var, value, .. } => {
                    let clock = clock_index(&self.local_clocks, inst, *var);
                    match self.env(inst, selects).constant(value) {
                        Some(v) if (0..=MAX_CLOCK_BOUND).contains(&v) => {
                            updates.push(Update::Reset { clock, value: v })
                        }
                        other => {
                            let shown = other.map_or("not a constant".to_string(), |v| v.to_string());
                            self.error(
                                e.pos,
                                "bad-clock-update",
                                format!(
                                    "in `{}`, a clock is reset to {shown}; resets are constants in 0..2^28",
                                    self.model.instances[inst].name
                                ),
                            );
                            return None;
                        }
                    }
                }
            }
        }
        let select = e.selects.iter().zip(selects).map(|(s, v)| (s.name.clone(), *v)).collect();
        Some(Edge { from: e.from as u32, to: e.to as u32, guard_data, guard_clocks, sync, updates, select, pos: e.pos })
    }
}

fn model_size(m: &Model, channel: usize) -> usize {
    m.channels[channel].size.unwrap_or(1)
}

/// The network index (from 1) of a clock seen from instance `inst`.
pub(crate) fn clock_index(local_clocks: &[Vec<u32>], inst: usize, c: Cvar) -> u32 {
    match c {
        Cvar::GlobalClock(g) => g as u32 + 1,
        Cvar::LocalClock(l) => local_clocks[inst][l],
        Cvar::ClockOf(i, l) => local_clocks[i][l],
        Cvar::Continuous(_) => unreachable!("continuous variables are not in timed networks"),
    }
}

/// Appends the DBM constraints of `x - y ~ rhs`; returns whether it is a
/// diagonal. Errors: (code, message) for what no DBM constraint expresses or
/// what exceeds the format's bounds.
pub(crate) fn clock_constraints(
    env: &Env<'_>,
    local_clocks: &[Vec<u32>],
    a: &LinAtom,
    out: &mut Vec<ClockConstraint>,
) -> Result<bool, (&'static str, String)> {
    let Some((x, y)) = a.difference() else {
        return Err(("unsupported", "this constraint needs the polyhedra engine (not supported yet)".into()));
    };
    if !a.params.is_empty() {
        return Err(("unsupported", "timing parameters need the parametric engine (not supported yet)".into()));
    }
    let (xi, yj) = (clock_index(local_clocks, env.inst, x), y.map_or(0, |y| clock_index(local_clocks, env.inst, y)));
    let (lo, hi) = env.interval(&a.rhs);
    let bound = env.compile(&a.rhs).map_err(|e| ("too-large", e))?;
    let worst = bound.as_const().map_or(lo.unsigned_abs().max(hi.unsigned_abs()), |v| v.unsigned_abs());
    if worst > MAX_CLOCK_BOUND as u64 {
        let what = if bound.as_const().is_some() { "is" } else { "can reach" };
        return Err((
            "bound-too-large",
            format!("a clock bound {what} {worst} in absolute value, beyond 2^28 = {MAX_CLOCK_BOUND}"),
        ));
    }
    let range = (lo, hi);
    let upper =
        |strict| ClockConstraint { i: xi, j: yj, strict, bound: bound.clone(), negate: false, range, linear: None };
    let lower =
        |strict| ClockConstraint { i: yj, j: xi, strict, bound: bound.clone(), negate: true, range, linear: None };
    match a.cmp {
        Cmp::Lt => out.push(upper(true)),
        Cmp::Le => out.push(upper(false)),
        Cmp::Gt => out.push(lower(true)),
        Cmp::Ge => out.push(lower(false)),
        Cmp::Eq => {
            out.push(upper(false));
            out.push(lower(false));
        }
    }
    Ok(y.is_some())
}
