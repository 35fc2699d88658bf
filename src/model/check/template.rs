//! Templates: parameters, locals, locations (invariants, rates, labels) and
//! edges (selects, guards, synchronisations, updates).

use indexmap::IndexMap;

use crate::diag::Pos;
use crate::model::check::Checker;
use crate::model::check::expr::{Ctx, Scope, Sym, Ty};
use crate::model::check::globals::Globals;
use crate::model::decl::{EdgeDecl, LocDecl, TemplateDecl};
use crate::model::reader::Name;
use crate::model::typed::{AssignOp, Cmp, Conj, Cvar, Dnf, LinAtom, TExpr, TSync, TUpdate, VarRef};
use crate::model::types::{Edge, Location, Rate, Ratio, Select, Template};
use crate::syntax::ast::{self, ExprKind};
use crate::syntax::parse::{parse_expr, parse_selects, parse_sync, parse_updates};
use crate::syntax::yaml::Node;

/// Names inside a template: select variables, then parameters and locals,
/// then globals.
pub struct TemplateScope<'a> {
    pub globals: &'a IndexMap<String, (Sym, Pos)>,
    pub locals: &'a IndexMap<String, Sym>,
    pub selects: &'a [String],
}

impl Scope for TemplateScope<'_> {
    fn lookup(&self, name: &str) -> Option<Sym> {
        if let Some(i) = self.selects.iter().rposition(|s| s == name) {
            return Some(Sym::Select(i));
        }
        self.locals.get(name).cloned().or_else(|| Globals(self.globals).lookup(name))
    }
}

/// Where the template's own names were declared, for clash reports.
type Declared = IndexMap<String, (&'static str, Pos)>;

impl Checker<'_> {
    fn local_name(&mut self, declared: &mut Declared, name: &Name, kind: &'static str) -> bool {
        if let Some((other, pos)) = declared.get(&name.text) {
            let (other, line) = (*other, pos.line);
            self.r
                .error(
                    name.pos,
                    "duplicate-name",
                    format!("`{}` is already used as a {other} of this template (line {line})", name.text),
                )
                .hint = Some(
                "locations, labels, parameters, local variables and clocks of a template share one namespace".into(),
            );
            return false;
        }
        declared.insert(name.text.clone(), (kind, name.pos));
        true
    }

    pub(super) fn template(&mut self, t: &TemplateDecl) -> Template {
        let mut declared = Declared::new();
        let mut locals: IndexMap<String, Sym> = IndexMap::new();
        let mut out = Template {
            name: t.name.text.clone(),
            params: Vec::new(),
            clocks: Vec::new(),
            vars: Vec::new(),
            functions: Vec::new(),
            locations: Vec::new(),
            initial: 0,
            edges: Vec::new(),
        };
        if let Some((true, pos)) = t.observer {
            self.r.error(pos, "unsupported", "observer templates are not supported yet");
        }
        for p in &t.params {
            if self.local_name(&mut declared, p, "parameter") {
                locals.insert(p.text.clone(), Sym::Param(out.params.len()));
                out.params.push(p.text.clone());
            }
        }
        for c in &t.clocks {
            if self.local_name(&mut declared, c, "clock") {
                locals.insert(c.text.clone(), Sym::Clock(Cvar::LocalClock(out.clocks.len())));
                out.clocks.push(c.text.clone());
            }
        }
        for v in &t.variables {
            if !self.local_name(&mut declared, &v.name, "variable") {
                continue;
            }
            let scope = TemplateScope { globals: &self.globals.clone(), locals: &locals, selects: &[] };
            if let Some(var) = self.var(v, &scope, false) {
                locals.insert(
                    v.name.text.clone(),
                    Sym::Var { var: VarRef::Local(out.vars.len()), is_bool: var.is_bool, dims: var.dims.clone() },
                );
                out.vars.push(var);
            }
        }
        for f in &t.functions {
            let globals = self.globals.clone();
            let scope = TemplateScope { globals: &globals, locals: &locals, selects: &[] };
            if let Some((name, pos, sym)) = self.function_def(f, &scope, true)
                && self.local_name(&mut declared, &Name { text: name.clone(), pos }, "function")
            {
                locals.insert(name, sym);
            }
        }
        for l in &t.locations {
            self.local_name(&mut declared, &l.name, "location");
        }
        let mut labels_seen: Vec<String> = Vec::new();
        for l in &t.locations {
            for label in &l.labels {
                if labels_seen.contains(&label.text) {
                    continue;
                }
                labels_seen.push(label.text.clone());
                self.local_name(&mut declared, label, "label");
            }
        }
        let globals = self.globals.clone();
        for l in &t.locations {
            let scope = TemplateScope { globals: &globals, locals: &locals, selects: &[] };
            let loc = self.location(l, &scope);
            out.locations.push(loc);
        }
        let location_id = |c: &mut Self, name: &Name| -> Option<usize> {
            let found = t.locations.iter().position(|l| l.name.text == name.text);
            if found.is_none() {
                let names: Vec<&str> = t.locations.iter().map(|l| l.name.text.as_str()).collect();
                let d = c.r.error(
                    name.pos,
                    "unknown-location",
                    format!("template `{}` has no location `{}`", t.name.text, name.text),
                );
                d.hint = Some(match crate::model::reader::closest(&name.text, &names) {
                    Some(best) => format!("did you mean `{best}`?"),
                    None => format!("its locations are: {}", names.join(", ")),
                });
            }
            found
        };
        if let Some(init) = &t.initial {
            out.initial = location_id(self, init).unwrap_or(0);
        }
        for e in &t.edges {
            let from = e.from.as_ref().and_then(|n| location_id(self, n));
            let to = e.to.as_ref().and_then(|n| location_id(self, n));
            if let Some(edge) = self.edge(e, &globals, &locals)
                && let (Some(from), Some(to)) = (from, to)
            {
                out.edges.push(Edge { from, to, ..edge });
            }
        }
        out.functions = std::mem::take(&mut self.template_functions);
        out
    }

    fn location(&mut self, l: &LocDecl, scope: &TemplateScope<'_>) -> Location {
        let invariant = match &l.invariant {
            Some(node) => self.invariant(node, scope).unwrap_or_default(),
            None => Conj::default(),
        };
        let mut rates = Vec::new();
        for r in &l.rates {
            let var = match scope.lookup(&r.var.text) {
                Some(Sym::Clock(c) | Sym::Continuous(c)) => c,
                _ => {
                    self.r.error(
                        r.var.pos,
                        "bad-rate",
                        format!("`{}` is not a clock or continuous variable", r.var.text),
                    );
                    continue;
                }
            };
            // A rational (or an interval of two), else an integer
            // expression over the data.
            if let [n] = r.values.as_slice()
                && let Some(text) = n.as_scalar()
                && crate::model::check::globals::parse_ratio(text.value.trim()).is_none()
            {
                if let Some(e) = self.parse(n, "a rate", parse_expr) {
                    match self.ty(n, &e, scope, Ctx::Value) {
                        Ty::Int(TExpr::Const(v)) => {
                            let v = Ratio { num: v, den: 1 };
                            rates.push((var, Rate::Interval(v, v)));
                        }
                        Ty::Int(t) => rates.push((var, Rate::Data(t))),
                        Ty::Bad => {}
                        other => {
                            let pos = self.at(n, &e);
                            self.expected(pos, "an integer (a rate)", &other);
                        }
                    }
                }
                continue;
            }
            let values: Vec<Option<Ratio>> = r
                .values
                .iter()
                .map(|n| {
                    let text = self.r.scalar(n, "a rate")?;
                    let parsed = crate::model::check::globals::parse_ratio(text.trim());
                    if parsed.is_none() {
                        self.r.error(n.pos, "bad-number", format!("`{text}` is not a rational number"));
                    }
                    parsed
                })
                .collect();
            match values.as_slice() {
                [Some(v)] => rates.push((var, Rate::Interval(*v, *v))),
                [Some(a), Some(b)] => rates.push((var, Rate::Interval(*a, *b))),
                _ => {}
            }
        }
        Location {
            name: l.name.text.clone(),
            invariant,
            urgent: l.urgent,
            committed: l.committed,
            labels: l.labels.iter().map(|n| n.text.clone()).collect(),
            rates,
        }
    }

    /// Invariants are conjunctions; in timed models their clock constraints
    /// are upper bounds `x < e` / `x <= e`.
    fn invariant(&mut self, node: &Node, scope: &dyn Scope) -> Option<Conj> {
        let e = self.parse(node, "an invariant", parse_expr)?;
        let mut dnf = self.condition(node, &e, scope)?;
        if dnf.is_empty() {
            dnf.push(Conj { data: vec![TExpr::Const(0)], lin: vec![] });
        }
        let Ok([mut conj]) = <[Conj; 1]>::try_from(dnf) else {
            self.r
                .error(
                    node.pos_in_text(0),
                    "disjunctive-invariant",
                    "an invariant must be a conjunction (`&&`), not a disjunction",
                )
                .hint = Some("split the location in two, one per case".into());
            return None;
        };
        if !self.model.hybrid {
            let mut ok = true;
            conj.lin = std::mem::take(&mut conj.lin)
                .into_iter()
                .filter_map(|a| match (a.difference(), a.cmp) {
                    (Some((_, None)), Cmp::Lt | Cmp::Le) => Some(a),
                    (Some((_, Some(_))), _) => {
                        self.r
                            .error(
                                node.pos_in_text(0),
                                "diagonal-invariant",
                                "invariants cannot constrain a clock difference `x - y`",
                            )
                            .hint = Some("use upper bounds on single clocks: `x <= 5`".into());
                        ok = false;
                        None
                    }
                    _ => {
                        self.r
                            .error(
                                node.pos_in_text(0),
                                "lower-bound-invariant",
                                "invariants of timed automata are upper bounds (`x < e`, `x <= e`)",
                            )
                            .hint = Some(
                            "move the lower bound (`x >= ...`) to the guards of the location's outgoing edges".into(),
                        );
                        ok = false;
                        None
                    }
                })
                .collect();
            if !ok {
                return None;
            }
        }
        Some(conj)
    }

    /// In timed models a clock constraint is `x ~ e` or `x - y ~ e`: returns it
    /// with `x` at coefficient 1, or reports it.
    pub fn timed_atom(&mut self, pos: Pos, mut a: LinAtom) -> Option<LinAtom> {
        if let Some(v) = a.rhs.as_const()
            && v.unsigned_abs() > crate::model::MAX_CLOCK_BOUND as u64
        {
            self.r
                .error(
                    pos,
                    "bound-too-large",
                    format!("the clock bound {v} is beyond ±2^28 = {}", crate::model::MAX_CLOCK_BOUND),
                )
                .hint = Some("scale the time unit down so that every bound fits".into());
            return None;
        }
        if self.model.hybrid || a.terms.is_empty() {
            return Some(a);
        }
        let negated = match a.terms.as_slice() {
            [(_, -1)] | [(_, -1), (_, 1)] => true,
            [(_, 1)] | [(_, 1), (_, -1)] => false,
            _ => {
                self.r
                    .error(
                        pos,
                        "not-a-clock-constraint",
                        "in a timed model, clock constraints have the form `x ~ e` or `x - y ~ e`",
                    )
                    .hint =
                    Some("`e` is an integer expression; sums of clocks and multiples need a hybrid model".into());
                return None;
            }
        };
        if negated {
            for t in &mut a.terms {
                t.1 = -t.1;
            }
            for p in &mut a.params {
                p.1 = -p.1;
            }
            a.cmp = a.cmp.flip();
            a.rhs = match a.rhs {
                TExpr::Const(v) if v != i64::MIN => TExpr::Const(-v),
                rhs => TExpr::Neg(Box::new(rhs)),
            };
        }
        a.terms.sort_by_key(|t| -t.1);
        Some(a)
    }

    fn guard(&mut self, node: &Node, scope: &dyn Scope) -> Option<Dnf> {
        let e = self.parse(node, "a guard", parse_expr)?;
        self.condition(node, &e, scope)
    }

    /// Types a condition into disjunctive normal form, its clock constraints
    /// in the timed form `x ~ e` / `x - y ~ e` (in timed models).
    pub fn condition(&mut self, node: &Node, e: &ast::Expr, scope: &dyn Scope) -> Option<Dnf> {
        let pos = self.at(node, e);
        let dnf = match self.ty(node, e, scope, Ctx::Guard) {
            Ty::Bad => return None,
            t @ (Ty::Bool(_) | Ty::Guard(_)) => t.into_dnf()?,
            other => {
                self.expected(pos, "a condition", &other);
                return None;
            }
        };
        let mut out = Vec::with_capacity(dnf.len());
        for mut c in dnf {
            let lin = std::mem::take(&mut c.lin);
            c.lin = lin.into_iter().map(|a| self.timed_atom(pos, a)).collect::<Option<Vec<_>>>()?;
            out.push(c);
        }
        Some(out)
    }

    /// An integer index into something of size `len` (`what` names it),
    /// checked when constant.
    pub(super) fn index(
        &mut self,
        node: &Node,
        i: &ast::Expr,
        scope: &dyn Scope,
        len: usize,
        what: &str,
    ) -> Option<TExpr> {
        let pos = node.pos_in_text(i.span.start);
        match self.ty(node, i, scope, Ctx::Value) {
            Ty::Int(t) => {
                if let Some(v) = t.as_const()
                    && (v < 0 || v >= len as i64)
                {
                    self.r.error(pos, "index-out-of-bounds", format!("index {v} is outside {what} (size {len})"));
                    return None;
                }
                Some(t)
            }
            Ty::Bad => None,
            other => {
                self.expected(pos, "an integer", &other);
                None
            }
        }
    }

    fn edge(
        &mut self,
        e: &EdgeDecl,
        globals: &IndexMap<String, (Sym, Pos)>,
        locals: &IndexMap<String, Sym>,
    ) -> Option<Edge> {
        let mut selects = Vec::new();
        let mut select_names = Vec::new();
        if let Some(node) = &e.select {
            for s in self.parse(node, "a select", parse_selects)? {
                let scope = TemplateScope { globals, locals, selects: &select_names };
                let lo = self.ty(node, &s.lo, &scope, Ctx::Const);
                let hi = self.ty(node, &s.hi, &scope, Ctx::Const);
                let pos = node.pos_in_text(s.var.span.start);
                if !self.r.check_name(&s.var.name, pos, "select variable") {
                    return None;
                }
                match (lo, hi) {
                    (Ty::Int(lo), Ty::Int(hi)) => {
                        select_names.push(s.var.name.clone());
                        selects.push(Select { name: s.var.name.clone(), lo, hi });
                    }
                    (Ty::Bad, _) | (_, Ty::Bad) => return None,
                    (other, _) => {
                        self.expected(pos, "an integer range", &other);
                        return None;
                    }
                }
            }
        }
        let scope = TemplateScope { globals, locals, selects: &select_names };
        let guard = match &e.guard {
            Some(node) => self.guard(node, &scope),
            None => Some(vec![Conj::default()]),
        };
        let sync = match &e.sync {
            Some(node) => self.sync(node, &scope),
            None => Some(None),
        };
        let updates = match &e.update {
            Some(node) => self.updates(node, &scope),
            None => Some(Vec::new()),
        };
        let (guard, sync, updates) = (guard?, sync?, updates?);
        if let (Some(s), Some(node)) = (&sync, &e.guard) {
            let ch = &self.model.channels[s.channel];
            let has_clock = guard.iter().any(|c| c.lin.iter().any(|a| !a.terms.is_empty()));
            // UPPAAL accepts it (with a warning), but then whether time may
            // pass depends on the clocks: a delay's zone would split, which
            // the zone engines do not do yet. (A broadcast receiver's clock
            // guard splits the step instead: `Transition::out`.)
            let unsupported =
                ch.urgent.then(|| format!("a clock guard on an edge of the urgent channel `{}`", ch.name));
            if let Some(what) = unsupported.filter(|_| has_clock) {
                self.r.error(node.pos_in_text(0), "unsupported", format!("not supported yet: {what}")).hint =
                    Some("guard it on data only, or move the clock condition to the sender or an invariant".into());
                return None;
            }
        }
        Some(Edge { pos: e.pos, from: 0, to: 0, selects, guard, sync, updates })
    }

    fn sync(&mut self, node: &Node, scope: &dyn Scope) -> Option<Option<TSync>> {
        let s = self.parse(node, "a sync", parse_sync)?;
        let pos = node.pos_in_text(s.channel.span.start);
        let Some(Sym::Channel(id)) = scope.lookup(&s.channel.name) else {
            self.r.error(pos, "unknown-channel", format!("unknown channel `{}`", s.channel.name)).hint =
                Some("declare it under `channels:`".into());
            return None;
        };
        let ch = self.model.channels[id].clone();
        if ch.vector != (s.dir == ast::SyncDir::Party) {
            let (what, hint) = if ch.vector {
                ("is a synchronisation vector: its edges name it alone", format!("write `{}`", ch.name))
            } else {
                ("needs a direction", format!("write `{0}!` to send or `{0}?` to receive", ch.name))
            };
            self.r.error(pos, "bad-sync", format!("channel `{}` {what}", ch.name)).hint = Some(hint);
            return None;
        }
        let index = match (s.indices.is_empty(), ch.dims.is_empty()) {
            (true, true) => None,
            (false, false) => {
                let indices: Vec<&ast::Expr> = s.indices.iter().collect();
                Some(self.flat_index(node, &ch.name, &indices, &ch.dims, scope)?)
            }
            (false, true) => {
                self.r.error(pos, "not-an-array", format!("`{}` is not a channel array", ch.name)).hint =
                    Some(format!("write `{}!` or `{}?`", ch.name, ch.name));
                return None;
            }
            (true, false) => {
                self.r
                    .error(
                        pos,
                        "missing-index",
                        format!(
                            "`{}` is a channel array of size {}: give an index",
                            ch.name,
                            ch.dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(" × ")
                        ),
                    )
                    .hint = Some(format!("e.g. `{}{}!`", ch.name, "[i]".repeat(ch.dims.len())));
                return None;
            }
        };
        Some(Some(TSync { channel: id, index, dir: s.dir }))
    }

    fn updates(&mut self, node: &Node, scope: &dyn Scope) -> Option<Vec<TUpdate>> {
        let list = self.parse(node, "an update", parse_updates)?;
        let mut out = Vec::new();
        let mut ok = true;
        let saved = std::mem::replace(&mut self.effects, true);
        for a in &list {
            let typed = match a {
                ast::Action::Assign(u) if super::effect::has_inner_effect(u) => {
                    let whole = ast::ExprKind::Assign {
                        target: Box::new(u.target.clone()),
                        op: u.op,
                        value: Box::new(u.value.clone()),
                        post: false,
                    };
                    match self.ty(node, &ast::Expr { kind: whole, span: u.span, paren: false }, scope, Ctx::Value) {
                        Ty::Int(t) | Ty::Bool(t) => Some(vec![TUpdate::Effect(t)]),
                        _ => None,
                    }
                }
                ast::Action::Assign(u) => match self.whole_array(u, scope) {
                    Some(dims) => self.array_copy(node, u, dims, scope),
                    None => self.update(node, u, scope).map(|t| vec![t]),
                },
                ast::Action::Call(e) => self.call_update(node, e, scope),
            };
            match typed {
                Some(t) => out.extend(t),
                None => ok = false,
            }
        }
        self.effects = saved;
        ok.then_some(out)
    }

    fn update(&mut self, node: &Node, u: &ast::Update, scope: &dyn Scope) -> Option<TUpdate> {
        let pos = node.pos_in_text(u.target.span.start);
        let (base, indices) = super::array::indexed(&u.target);
        let name = match &base.kind {
            ExprKind::Name(n) => n,
            _ if !indices.is_empty() => {
                self.r.error(pos, "bad-assignment", "only variables and array elements can be assigned");
                return None;
            }
            _ => {
                self.r.error(pos, "bad-assignment", "only variables, array elements and clocks can be assigned");
                return None;
            }
        };
        let index = indices.first().copied();
        let op = u.op;
        match scope.lookup(name) {
            Some(Sym::Var { var, is_bool, dims }) => {
                let size = (!dims.is_empty()).then(|| dims.iter().product::<usize>());
                let index = match (index, size) {
                    (None, None) => None,
                    (Some(_), Some(_)) => {
                        // The target's index is evaluated without writing (a call in it must be pure).
                        let saved = std::mem::replace(&mut self.effects, false);
                        let i = self.flat_index(node, name, &indices, &dims, scope);
                        self.effects = saved;
                        Some(i?)
                    }
                    (Some(_), None) => {
                        self.r.error(pos, "not-an-array", format!("`{name}` is not an array"));
                        return None;
                    }
                    (None, Some(_)) => {
                        self.r.error(
                            pos,
                            "array-assignment",
                            format!("`{name}` is an array: assign its elements, `{name}[i] = ...`"),
                        );
                        return None;
                    }
                };
                if is_bool && op != AssignOp::Set {
                    self.r.error(pos, "type-error", format!("`{name}` is a boolean: only `=` applies"));
                    return None;
                }
                let value_pos = node.pos_in_text(u.value.span.start);
                let value = match (self.ty(node, &u.value, scope, Ctx::Value), is_bool) {
                    (Ty::Int(t), false) | (Ty::Bool(t), true) => t,
                    (Ty::Bad, _) => return None,
                    (other, b) => {
                        self.expected(value_pos, if b { "a boolean" } else { "an integer" }, &other);
                        return None;
                    }
                };
                Some(TUpdate::Data { var, len: size, index, op, value })
            }
            Some(Sym::Clock(c) | Sym::Continuous(c)) => {
                if index.is_some() || op != AssignOp::Set {
                    self.r.error(pos, "bad-clock-update", format!("`{name}` can only be reset with `{name} = value`"));
                    return None;
                }
                let value_pos = node.pos_in_text(u.value.span.start);
                if !self.model.hybrid {
                    return match self.ty(node, &u.value, scope, Ctx::Guard) {
                        Ty::Int(t) if crate::model::fold::is_static(&t) => {
                            if let Some(v) = t.as_const()
                                && v < 0
                            {
                                self.r.error(
                                    value_pos,
                                    "negative-clock-reset",
                                    format!("a clock cannot be set to {v}: clocks are never negative"),
                                );
                                return None;
                            }
                            Some(TUpdate::Continuous { var: c, terms: vec![], value: t })
                        }
                        Ty::Int(_) | Ty::Lin(_) => {
                            self.r
                                .error(
                                    value_pos,
                                    "bad-clock-update",
                                    format!("a clock can only be reset to a constant, e.g. `{name} = 0`"),
                                )
                                .hint = Some(
                                "data-dependent values and copies of clocks (`x = y`) are not timed-automata updates"
                                    .into(),
                            );
                            None
                        }
                        Ty::Bad => None,
                        other => {
                            self.expected(value_pos, "an integer", &other);
                            None
                        }
                    };
                }
                match self.ty(node, &u.value, scope, Ctx::Guard) {
                    Ty::Int(t) => Some(TUpdate::Continuous { var: c, terms: vec![], value: t }),
                    Ty::Lin(l) if l.params.is_empty() => {
                        Some(TUpdate::Continuous { var: c, terms: l.terms, value: l.konst })
                    }
                    Ty::Bad => None,
                    other => {
                        self.expected(value_pos, "a linear term", &other);
                        None
                    }
                }
            }
            Some(Sym::Const(_))
            | Some(Sym::Param(_))
            | Some(Sym::Select(_))
            | Some(Sym::Bound(..))
            | Some(Sym::TimingParam(_)) => {
                self.r.error(pos, "assign-to-constant", format!("`{name}` is a constant and cannot be assigned"));
                None
            }
            Some(
                Sym::Channel(_)
                | Sym::Pred(_)
                | Sym::Function(_)
                | Sym::Broken
                | Sym::Type { .. }
                | Sym::Local { .. }
                | Sym::RefParam { .. }
                | Sym::FrameArray { .. },
            ) => {
                self.r.error(pos, "bad-assignment", format!("`{name}` cannot be assigned"));
                None
            }
            None => {
                self.r.error(pos, "unknown-name", format!("unknown name `{name}`"));
                None
            }
        }
    }
}
