//! Typing of expressions: names resolved through a scope, constants folded,
//! clock and linear constraints separated from data into a DNF.

use crate::diag::Pos;
use crate::model::check::Checker;
use crate::model::fold::const_binary;
use crate::model::typed::{Cmp, Conj, Cvar, Dnf, LinAtom, TArray, TExpr, VarRef};
use crate::syntax::ast::{BinOp, Expr, ExprKind, Quantifier, UnOp};
use crate::syntax::yaml::Node;

/// Most guard disjuncts an expression may expand to, and most instances of a
/// quantified formula body: beyond this, the model is better rewritten.
const MAX_EXPANSION: usize = 4096;

/// What a name means where it is used.
#[derive(Clone, Debug)]
pub enum Sym {
    Const(i64),
    /// A template parameter (value known per instance).
    Param(usize),
    Select(usize),
    /// A quantifier variable: its de Bruijn index, or its value when the
    /// formula is being expanded.
    Bound(usize, Option<i64>),
    /// A variable; an array when `dims` (its shape) is not empty.
    Var {
        var: VarRef,
        is_bool: bool,
        dims: Vec<usize>,
    },
    Clock(Cvar),
    Continuous(Cvar),
    TimingParam(usize),
    Channel(usize),
    /// A condition on the discrete state (a label in a formula).
    Pred(TExpr),
    /// A by-value parameter or local variable of a function: its frame slot.
    Local {
        slot: usize,
        is_bool: bool,
    },
    /// A by-reference parameter of a function: its frame slot.
    RefParam {
        slot: usize,
        is_bool: bool,
    },
    /// An array of a function's frame (`TArray::Local` or `TArray::Ref`).
    FrameArray {
        array: TArray,
        is_bool: bool,
        dims: Vec<usize>,
    },
    Function(crate::model::typed::FnRef),
    /// A function whose definition has a syntax error (already reported).
    Broken,
    /// A named type of `types:`: its elements' range and, for an array type,
    /// its dimensions.
    Type {
        is_bool: bool,
        lo: TExpr,
        hi: TExpr,
        dims: Vec<usize>,
    },
}

/// What is allowed in the expression being typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ctx {
    /// Folds to a constant (constants and, in templates, parameters).
    Const,
    /// Data, clocks, constraints: guards, invariants, formula atoms.
    Guard,
    /// An integer or boolean value (update right-hand sides, indices).
    Value,
}

/// An expression with its type.
#[derive(Clone, Debug)]
pub enum Ty {
    Int(TExpr),
    Bool(TExpr),
    /// A linear term over clocks / continuous variables / timing parameters,
    /// plus an integer part.
    Lin(Lin),
    /// A condition that involves clock constraints.
    Guard(Dnf),
    /// A whole array: `len` elements in the shape `dims`.
    Array {
        var: TArray,
        is_bool: bool,
        len: usize,
        dims: Vec<usize>,
    },
    /// Already reported.
    Bad,
}

#[derive(Clone, Debug)]
pub struct Lin {
    pub terms: Vec<(Cvar, i64)>,
    pub params: Vec<(usize, i64)>,
    pub konst: TExpr,
}

/// A name lookup: implemented by the template scope and the formula scope.
pub trait Scope {
    fn lookup(&self, name: &str) -> Option<Sym>;
    /// Whether `Train(1).on` may be used: only formulas (and, later,
    /// observers) look inside instances.
    fn members(&self) -> bool {
        false
    }
}

/// A scope extended with quantifier variables.
pub struct Bound<'a> {
    pub outer: &'a dyn Scope,
    pub names: Vec<(String, Option<i64>)>,
}

impl Scope for Bound<'_> {
    fn lookup(&self, name: &str) -> Option<Sym> {
        // A de Bruijn index counts the binders evaluated at run time between
        // the use and its binder, in this scope and in every scope nested
        // inside the one that binds it (`forall i forall j a[i]`: `i` is 1);
        // an expanded binder (its value known) is no binder at run time.
        let runtime = |names: &[(String, Option<i64>)]| names.iter().filter(|(_, v)| v.is_none()).count();
        match self.names.iter().rposition(|(n, _)| n == name) {
            Some(k) => Some(Sym::Bound(runtime(&self.names[k + 1..]), self.names[k].1)),
            None => match self.outer.lookup(name) {
                Some(Sym::Bound(depth, None)) => Some(Sym::Bound(depth + runtime(&self.names), None)),
                other => other,
            },
        }
    }
    fn members(&self) -> bool {
        self.outer.members()
    }
}

fn add_terms<T: Copy + PartialEq>(a: &mut Vec<(T, i64)>, b: &[(T, i64)], k: i64) -> Option<()> {
    for &(v, c) in b {
        let c = c.checked_mul(k)?;
        match a.iter_mut().find(|(w, _)| *w == v) {
            Some((_, d)) => *d = d.checked_add(c)?,
            None => a.push((v, c)),
        }
    }
    a.retain(|(_, c)| *c != 0);
    Some(())
}

impl Checker<'_> {
    pub fn at(&self, node: &Node, e: &Expr) -> Pos {
        node.pos_in_text(e.span.start)
    }

    /// Types `e` (inside the scalar `node`) under `scope`.
    pub fn ty(&mut self, node: &Node, e: &Expr, scope: &dyn Scope, ctx: Ctx) -> Ty {
        let pos = self.at(node, e);
        match &e.kind {
            ExprKind::Int(v) => Ty::Int(TExpr::Const(*v)),
            ExprKind::Bool(b) => Ty::Bool(TExpr::Const(*b as i64)),
            ExprKind::Decimal(text) => {
                self.r
                    .error(
                        pos,
                        "not-integer",
                        format!("`{text}` is not an integer; constants, bounds and data are integers"),
                    )
                    .hint =
                    Some("scale the time unit so that every constant is an integer (e.g. multiply all by 2)".into());
                Ty::Bad
            }
            ExprKind::Name(name) => self.ty_name(pos, name, scope, ctx),
            ExprKind::Member { instance, member } => {
                if !scope.members() {
                    self.r
                        .error(pos, "member-outside-formula", "`Instance.name` can only be used in properties")
                        .hint = Some("inside a template, refer to its own variables by their bare names".into());
                    return Ty::Bad;
                }
                self.member(node, instance, member, scope, ctx)
            }
            ExprKind::Index { .. } => {
                let (base, indices) = super::array::indexed(e);
                match self.ty(node, base, scope, ctx) {
                    array @ Ty::Array { .. } => {
                        let name = match &base.kind {
                            ExprKind::Name(n) => n.as_str(),
                            ExprKind::Member { member, .. } => member.name.as_str(),
                            _ => "the array",
                        };
                        self.element(node, name, array, &indices, scope)
                    }
                    Ty::Bad => Ty::Bad,
                    _ => {
                        self.r.error(pos, "not-an-array", "only arrays can be indexed with `[...]`");
                        Ty::Bad
                    }
                }
            }
            ExprKind::Unary { op: UnOp::Not, arg } => self.ty_not(node, arg, scope, ctx),
            ExprKind::Unary { op, arg } => {
                let a = self.ty(node, arg, scope, ctx);
                match (op, a) {
                    (_, Ty::Bad) => Ty::Bad,
                    (UnOp::Neg, Ty::Int(t)) => match t.as_const() {
                        Some(v) => match v.checked_neg() {
                            Some(n) => Ty::Int(TExpr::Const(n)),
                            None => self.overflow(pos),
                        },
                        None => Ty::Int(TExpr::Neg(Box::new(t))),
                    },
                    (UnOp::Neg, Ty::Lin(l)) => self.scale(pos, l, -1),
                    // `~x` is `-1 - x` in two's complement, which never overflows.
                    (UnOp::BitNot, Ty::Int(t)) => match t.as_const() {
                        Some(v) => Ty::Int(TExpr::Const(!v)),
                        None => Ty::Int(TExpr::Binary(BinOp::Sub, Box::new(TExpr::Const(-1)), Box::new(t))),
                    },
                    (_, other) => self.expected(pos, "an integer", &other),
                }
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let a = self.ty(node, lhs, scope, ctx);
                let b = self.ty(node, rhs, scope, ctx);
                self.binary(pos, *op, a, b, (self.at(node, lhs), self.at(node, rhs)))
            }
            ExprKind::Cond { cond, then, other } => {
                let c = self.ty(node, cond, scope, ctx);
                let t = self.ty(node, then, scope, ctx);
                let o = self.ty(node, other, scope, ctx);
                match (c, t, o) {
                    (Ty::Bad, ..) | (_, Ty::Bad, _) | (.., Ty::Bad) => Ty::Bad,
                    (Ty::Bool(c), t, o) => {
                        let fold = |c: &TExpr, t: TExpr, o: TExpr| match c.as_const() {
                            Some(v) => {
                                if v != 0 {
                                    t
                                } else {
                                    o
                                }
                            }
                            None => TExpr::Cond(Box::new(c.clone()), Box::new(t), Box::new(o)),
                        };
                        match (t, o) {
                            (Ty::Int(t), Ty::Int(o)) => Ty::Int(fold(&c, t, o)),
                            (Ty::Bool(t), Ty::Bool(o)) => Ty::Bool(fold(&c, t, o)),
                            (t, o)
                                if matches!(t, Ty::Lin(_) | Ty::Guard(_)) || matches!(o, Ty::Lin(_) | Ty::Guard(_)) =>
                            {
                                self.r.error(pos, "clock-in-conditional", "clocks cannot appear inside `? :`").hint =
                                    Some(
                                        "write the two cases as separate edges, or `c && x < 3 || !c && x < 5`".into(),
                                    );
                                Ty::Bad
                            }
                            _ => {
                                self.r.error(pos, "type-error", "both branches of `? :` must have the same type");
                                Ty::Bad
                            }
                        }
                    }
                    (other, ..) => self.expected(self.at(node, cond), "a condition", &other),
                }
            }
            ExprKind::Quant { quant, var, lo, hi, body } => {
                self.ty_quant(node, e, (*quant, false), var, lo, hi, body, scope, ctx)
            }
            ExprKind::Call { .. } if ctx == Ctx::Const => {
                self.r.error(pos, "not-constant", "a function call is not a constant");
                Ty::Bad
            }
            ExprKind::Call { .. } => self.ty_call(node, e, scope, false),
            ExprKind::Assign { .. } => self.ty_assign(node, e, scope),
            ExprKind::Deadlock
            | ExprKind::Path { .. }
            | ExprKind::Until { .. }
            | ExprKind::LeadsTo { .. }
            | ExprKind::Measure { .. } => {
                self.r.error(
                    pos,
                    "temporal-in-expression",
                    "temporal operators and `deadlock` belong in properties, not in model expressions",
                );
                Ty::Bad
            }
        }
    }

    /// `not e`, with the negation pushed through `not`, `and`, `or`,
    /// `imply` and quantifiers first (negation normal form), so that only
    /// atoms are complemented: negating an expanded DNF would multiply its
    /// disjuncts out again at every nesting level.
    fn ty_not(&mut self, node: &Node, e: &Expr, scope: &dyn Scope, ctx: Ctx) -> Ty {
        let pos = self.at(node, e);
        match &e.kind {
            ExprKind::Unary { op: UnOp::Not, arg } => {
                let t = self.ty(node, arg, scope, ctx);
                self.as_cond(pos, t).unwrap_or(Ty::Bad)
            }
            ExprKind::Binary { op: op @ (BinOp::And | BinOp::Or | BinOp::Imply), lhs, rhs } => {
                // not (a and b) = not a or not b; not (a or b) = not a and
                // not b; not (a imply b) = a and not b.
                let a = if *op == BinOp::Imply {
                    self.ty(node, lhs, scope, ctx)
                } else {
                    self.ty_not(node, lhs, scope, ctx)
                };
                let b = self.ty_not(node, rhs, scope, ctx);
                let dual = if *op == BinOp::And { BinOp::Or } else { BinOp::And };
                self.binary(pos, dual, a, b, (self.at(node, lhs), self.at(node, rhs)))
            }
            ExprKind::Quant { quant, var, lo, hi, body } => {
                self.ty_quant(node, e, (*quant, true), var, lo, hi, body, scope, ctx)
            }
            _ => match self.ty(node, e, scope, ctx) {
                Ty::Bad => Ty::Bad,
                t @ (Ty::Bool(_) | Ty::Guard(_)) => self.not(pos, t),
                other => self.expected(pos, "a condition", &other),
            },
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn ty_quant(
        &mut self,
        node: &Node,
        e: &Expr,
        (quant, negated): (Quantifier, bool),
        var: &crate::syntax::ast::Ident,
        lo: &Expr,
        hi: &Expr,
        body: &Expr,
        scope: &dyn Scope,
        ctx: Ctx,
    ) -> Ty {
        let pos = self.at(node, e);
        let (lo_v, hi_v) = (self.const_int(node, lo, scope), self.const_int(node, hi, scope));
        let (Some(lo_v), Some(hi_v)) = (lo_v, hi_v) else { return Ty::Bad };
        if !self.r.check_name(&var.name, node.pos_in_text(var.span.start), "quantifier variable") {
            return Ty::Bad;
        }
        // `not forall i: φ` is `exists i: not φ`, and dually.
        let forall = (quant == Quantifier::Forall) != negated;
        let body_ty = |c: &mut Self, inner: &Bound<'_>| {
            if negated { c.ty_not(node, body, inner, ctx) } else { c.ty(node, body, inner, ctx) }
        };
        let count = hi_v.saturating_sub(lo_v).saturating_add(1).max(0);
        // Expanded (one body per value) when clocks or instances are involved;
        // kept symbolic over data otherwise.
        let inner = Bound { outer: scope, names: vec![(var.name.clone(), None)] };
        let probe_errors = self.r.diags.len();
        let symbolic = body_ty(self, &inner);
        match symbolic {
            Ty::Bool(b) => {
                return Ty::Bool(TExpr::Quant {
                    forall,
                    lo: Box::new(TExpr::Const(lo_v)),
                    hi: Box::new(TExpr::Const(hi_v)),
                    body: Box::new(b),
                });
            }
            // Not expressible over data alone (clocks, `Train(i).on`): expand.
            Ty::Guard(_) | Ty::Bad => self.r.diags.truncate(probe_errors),
            other => return self.expected(pos, "a condition", &other),
        }
        if count as usize > MAX_EXPANSION {
            self.r.error(
                pos,
                "too-large",
                format!("this quantifier ranges over {count} values; at most {MAX_EXPANSION} can be expanded"),
            );
            return Ty::Bad;
        }
        let mut acc = if forall { Ty::Bool(TExpr::Const(1)) } else { Ty::Bool(TExpr::Const(0)) };
        for v in lo_v..=hi_v {
            let inner = Bound { outer: scope, names: vec![(var.name.clone(), Some(v))] };
            let t = body_ty(self, &inner);
            acc = self.binary(pos, if forall { BinOp::And } else { BinOp::Or }, acc, t, (pos, pos));
            if matches!(acc, Ty::Bad) {
                return Ty::Bad;
            }
        }
        acc
    }

    /// A constant integer (reported otherwise).
    pub fn const_int(&mut self, node: &Node, e: &Expr, scope: &dyn Scope) -> Option<i64> {
        match self.ty(node, e, scope, Ctx::Const) {
            Ty::Int(TExpr::Const(v)) => Some(v),
            Ty::Bad => None,
            Ty::Int(_) => {
                self.r.error(self.at(node, e), "not-constant", "this must be a constant");
                None
            }
            other => {
                self.expected(self.at(node, e), "an integer", &other);
                None
            }
        }
    }

    fn ty_name(&mut self, pos: Pos, name: &str, scope: &dyn Scope, ctx: Ctx) -> Ty {
        let Some(sym) = scope.lookup(name) else {
            self.r.error(pos, "unknown-name", format!("unknown name `{name}`"));
            return Ty::Bad;
        };
        let constant_only = |c: &mut Self, what: &str| {
            c.r.error(pos, "not-constant", format!("`{name}` is {what}; only constants can be used here"));
            Ty::Bad
        };
        match sym {
            Sym::Const(v) => Ty::Int(TExpr::Const(v)),
            Sym::Param(i) => Ty::Int(TExpr::Param(i)),
            Sym::Bound(_, Some(v)) => Ty::Int(TExpr::Const(v)),
            Sym::Bound(i, None) => Ty::Int(TExpr::Bound(i)),
            Sym::Select(i) if ctx != Ctx::Const => Ty::Int(TExpr::Select(i)),
            Sym::Select(_) => constant_only(self, "a select variable"),
            Sym::Var { .. } | Sym::Local { .. } | Sym::RefParam { .. } | Sym::FrameArray { .. }
                if ctx == Ctx::Const =>
            {
                constant_only(self, "a variable")
            }
            Sym::Local { slot, is_bool: true } => Ty::Bool(TExpr::Local(slot)),
            Sym::Local { slot, is_bool: false } => Ty::Int(TExpr::Local(slot)),
            Sym::RefParam { slot, is_bool: true } => Ty::Bool(TExpr::Ref(slot)),
            Sym::RefParam { slot, is_bool: false } => Ty::Int(TExpr::Ref(slot)),
            Sym::Broken => Ty::Bad,
            Sym::Type { .. } => {
                self.r.error(pos, "type-as-value", format!("`{name}` is a type, not a value"));
                Ty::Bad
            }
            Sym::Function(_) => {
                self.r.error(pos, "function-as-value", format!("`{name}` is a function: call it, `{name}(...)`"));
                Ty::Bad
            }
            Sym::Var { var, is_bool, dims } if !dims.is_empty() => {
                Ty::Array { var: TArray::Var(var), is_bool, len: dims.iter().product(), dims }
            }
            Sym::FrameArray { array, is_bool, dims } => {
                Ty::Array { var: array, is_bool, len: dims.iter().product(), dims }
            }
            Sym::Var { var, is_bool: true, .. } => Ty::Bool(TExpr::Var(var)),
            Sym::Var { var, is_bool: false, .. } => Ty::Int(TExpr::Var(var)),
            Sym::Clock(c) | Sym::Continuous(c) => match ctx {
                Ctx::Guard => Ty::Lin(Lin { terms: vec![(c, 1)], params: vec![], konst: TExpr::Const(0) }),
                // UPPAAL's functions may compare clocks; a body here runs on
                // the data alone.
                Ctx::Value if self.defining.is_some() => {
                    self.r.error(
                        pos,
                        "unsupported",
                        format!("not supported yet: the clock `{name}` read inside a function"),
                    );
                    Ty::Bad
                }
                Ctx::Value | Ctx::Const => {
                    self.r
                        .error(
                            pos,
                            "clock-in-integer-expression",
                            format!("the clock `{name}` cannot be used in an integer expression"),
                        )
                        .hint = Some("clocks can only be compared (`x < 5`, `x - y <= 2`) or reset (`x = 0`)".into());
                    Ty::Bad
                }
            },
            Sym::TimingParam(p) => match ctx {
                Ctx::Guard => Ty::Lin(Lin { terms: vec![], params: vec![(p, 1)], konst: TExpr::Const(0) }),
                _ => {
                    self.r.error(
                        pos,
                        "parameter-in-integer-expression",
                        format!("the timing parameter `{name}` can only appear in clock constraints"),
                    );
                    Ty::Bad
                }
            },
            Sym::Pred(t) => Ty::Bool(t),
            Sym::Channel(_) => {
                self.r.error(
                    pos,
                    "channel-in-expression",
                    format!("`{name}` is a channel; channels are used in `sync`"),
                );
                Ty::Bad
            }
        }
    }

    /// The instance `inst` names (`Train(1)`, `Gate`), its arguments
    /// constants.
    fn named_instance(
        &mut self,
        node: &Node,
        inst: &crate::syntax::ast::InstanceRef,
        scope: &dyn Scope,
    ) -> Option<usize> {
        let pos = node.pos_in_text(inst.span.start);
        let args = match &inst.args {
            None => None,
            Some(list) => {
                let mut out = Vec::new();
                for a in list {
                    out.push(self.const_int(node, a, scope)?);
                }
                Some(out)
            }
        };
        let found = self.model.instances.iter().position(|i| match &args {
            None => i.name == inst.template.name,
            Some(a) => self.model.templates[i.template].name == inst.template.name && &i.args == a,
        });
        let Some(id) = found else {
            let shown = match &args {
                None => inst.template.name.clone(),
                Some(a) => format!(
                    "{}({})",
                    inst.template.name,
                    a.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")
                ),
            };
            let names: Vec<&str> = self.model.instances.iter().map(|i| i.name.as_str()).take(12).collect();
            self.r.error(pos, "unknown-instance", format!("no instance `{shown}` in `system`")).hint =
                Some(format!("instances: {}", names.join(", ")));
            return None;
        };
        Some(id)
    }

    /// The function `name` of the template of the instance `inst` names,
    /// called in a property (`Train(1).late(2)`).
    pub(super) fn instance_function(
        &mut self,
        node: &Node,
        inst: &crate::syntax::ast::InstanceRef,
        name: &crate::syntax::ast::Ident,
        scope: &dyn Scope,
    ) -> Option<crate::model::typed::FnRef> {
        let pos = node.pos_in_text(inst.span.start);
        if !scope.members() {
            self.r.error(pos, "member-outside-formula", "`Instance.name` can only be used in properties").hint =
                Some("inside a template, call its own functions by their bare names".into());
            return None;
        }
        let id = self.named_instance(node, inst, scope)?;
        let t = &self.model.templates[self.model.instances[id].template];
        match t.functions.iter().position(|f| f.name == name.name) {
            Some(k) => Some(crate::model::typed::FnRef::Of(id, k)),
            None => {
                let inst_name = self.model.instances[id].name.clone();
                let mpos = node.pos_in_text(name.span.start);
                self.r.error(mpos, "unknown-member", format!("`{inst_name}` has no function `{}`", name.name));
                None
            }
        }
    }

    fn member(
        &mut self,
        node: &Node,
        inst: &crate::syntax::ast::InstanceRef,
        member: &crate::syntax::ast::Ident,
        scope: &dyn Scope,
        ctx: Ctx,
    ) -> Ty {
        let Some(id) = self.named_instance(node, inst, scope) else { return Ty::Bad };
        let t = &self.model.templates[self.model.instances[id].template];
        let mpos = node.pos_in_text(member.span.start);
        let name = member.name.as_str();
        if let Some(l) = t.locations.iter().position(|l| l.name == name) {
            return Ty::Bool(TExpr::AtLoc(id, l));
        }
        if let Some(v) = t.vars.iter().position(|v| v.name == name) {
            let var = &t.vars[v];
            let r = VarRef::Of(id, v);
            return match (var.size, var.is_bool) {
                (Some(len), is_bool) => Ty::Array { var: TArray::Var(r), is_bool, len, dims: var.dims.clone() },
                (None, true) => Ty::Bool(TExpr::Var(r)),
                (None, false) => Ty::Int(TExpr::Var(r)),
            };
        }
        if let Some(c) = t.clocks.iter().position(|c| c == name) {
            if ctx != Ctx::Guard {
                return self.expected(
                    mpos,
                    "an integer",
                    &Ty::Lin(Lin { terms: vec![], params: vec![], konst: TExpr::Const(0) }),
                );
            }
            return Ty::Lin(Lin { terms: vec![(Cvar::ClockOf(id, c), 1)], params: vec![], konst: TExpr::Const(0) });
        }
        if let Some(p) = crate::model::check::property::label_predicate(&self.model, Some(id), name) {
            return Ty::Bool(p);
        }
        let inst_name = self.model.instances[id].name.clone();
        self.r.error(
            mpos,
            "unknown-member",
            format!("`{inst_name}` has no location, label, variable or clock `{name}`"),
        );
        Ty::Bad
    }

    fn overflow(&mut self, pos: Pos) -> Ty {
        self.r.error(pos, "overflow", "this constant expression overflows 64-bit integers");
        Ty::Bad
    }

    pub fn expected(&mut self, pos: Pos, want: &str, got: &Ty) -> Ty {
        let got_text = match got {
            Ty::Int(_) => "an integer",
            Ty::Bool(_) => "a boolean",
            Ty::Lin(l) if l.terms.is_empty() => "a timing parameter term",
            Ty::Lin(_) => "a clock term",
            Ty::Guard(_) => "a clock constraint",
            Ty::Array { .. } => "a whole array",
            Ty::Bad => return Ty::Bad,
        };
        let d = self.r.error(pos, "type-error", format!("expected {want}, found {got_text}"));
        match (want, got) {
            ("a condition", Ty::Int(_)) => d.hint = Some("compare it, e.g. `n != 0`".into()),
            ("an integer", Ty::Bool(_)) => d.hint = Some("booleans are not integers; use `b ? 1 : 0`".into()),
            ("an integer", Ty::Lin(_)) => {
                d.hint = Some("clocks can only be compared (`x < 5`) or reset (`x = 0`)".into())
            }
            ("an integer", Ty::Array { .. }) | ("a condition", Ty::Array { .. }) => {
                d.hint = Some("index it: `a[i]`".into())
            }
            _ => {}
        }
        Ty::Bad
    }

    fn scale(&mut self, pos: Pos, mut l: Lin, k: i64) -> Ty {
        let mut terms = Vec::new();
        let mut params = Vec::new();
        if add_terms(&mut terms, &l.terms, k).is_none() || add_terms(&mut params, &l.params, k).is_none() {
            return self.overflow(pos);
        }
        l.terms = terms;
        l.params = params;
        l.konst = match self.arith(pos, BinOp::Mul, Ty::Int(l.konst), Ty::Int(TExpr::Const(k))) {
            Ty::Int(t) => t,
            _ => return Ty::Bad,
        };
        Ty::Lin(l)
    }

    fn lin_of(t: Ty) -> Option<Lin> {
        match t {
            Ty::Lin(l) => Some(l),
            Ty::Int(k) => Some(Lin { terms: vec![], params: vec![], konst: k }),
            _ => None,
        }
    }

    fn arith(&mut self, pos: Pos, op: BinOp, a: Ty, b: Ty) -> Ty {
        match (a, b) {
            (Ty::Int(x), Ty::Int(y)) => match (x.as_const(), y.as_const()) {
                (_, Some(0)) if matches!(op, BinOp::Div | BinOp::Mod) => {
                    self.r.error(pos, "division-by-zero", "division by zero");
                    Ty::Bad
                }
                (_, Some(s)) if matches!(op, BinOp::Shl | BinOp::Shr) && !(0..64).contains(&s) => {
                    self.r.error(pos, "shift-count", format!("shift by {s}: the count must lie in 0..63"));
                    Ty::Bad
                }
                (Some(u), Some(v)) => match const_binary(op, u, v) {
                    Some(r) => Ty::Int(TExpr::Const(r)),
                    None => self.overflow(pos),
                },
                _ => Ty::Int(TExpr::Binary(op, Box::new(x), Box::new(y))),
            },
            (a @ (Ty::Lin(_) | Ty::Int(_)), b @ (Ty::Lin(_) | Ty::Int(_))) => {
                let (la, lb) = (Self::lin_of(a).expect("lin"), Self::lin_of(b).expect("lin"));
                match op {
                    BinOp::Add | BinOp::Sub => {
                        let k = if op == BinOp::Add { 1 } else { -1 };
                        let mut terms = la.terms;
                        let mut params = la.params;
                        if add_terms(&mut terms, &lb.terms, k).is_none()
                            || add_terms(&mut params, &lb.params, k).is_none()
                        {
                            return self.overflow(pos);
                        }
                        match self.arith(pos, op, Ty::Int(la.konst), Ty::Int(lb.konst)) {
                            Ty::Int(konst) => Ty::Lin(Lin { terms, params, konst }),
                            _ => Ty::Bad,
                        }
                    }
                    BinOp::Mul => {
                        let coefficient =
                            |l: &Lin| (l.terms.is_empty() && l.params.is_empty()).then(|| l.konst.as_const()).flatten();
                        match (coefficient(&la), coefficient(&lb)) {
                            (Some(k), _) => self.scale(pos, lb, k),
                            (_, Some(k)) => self.scale(pos, la, k),
                            _ => {
                                self.r.error(
                                    pos,
                                    "not-linear",
                                    "clocks and continuous variables can only be multiplied by constants",
                                );
                                Ty::Bad
                            }
                        }
                    }
                    BinOp::Div | BinOp::Mod => {
                        self.r.error(pos, "not-linear", "clocks and continuous variables cannot be divided");
                        Ty::Bad
                    }
                    _ => {
                        self.r.error(
                            pos,
                            "not-linear",
                            "clocks and continuous variables have no bitwise, shift, `<?` or `>?` operators",
                        );
                        Ty::Bad
                    }
                }
            }
            (Ty::Bad, _) | (_, Ty::Bad) => Ty::Bad,
            (a, b) => {
                let bad = if matches!(a, Ty::Int(_) | Ty::Lin(_)) { b } else { a };
                self.expected(pos, "an integer", &bad)
            }
        }
    }

    fn binary(&mut self, pos: Pos, op: BinOp, a: Ty, b: Ty, (pa, pb): (Pos, Pos)) -> Ty {
        if matches!(a, Ty::Bad) || matches!(b, Ty::Bad) {
            return Ty::Bad;
        }
        match op {
            BinOp::Add
            | BinOp::Sub
            | BinOp::Mul
            | BinOp::Div
            | BinOp::Mod
            | BinOp::BitAnd
            | BinOp::BitOr
            | BinOp::BitXor
            | BinOp::Shl
            | BinOp::Shr
            | BinOp::Min
            | BinOp::Max => self.arith(pos, op, a, b),
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => self.compare(pos, op, a, b),
            BinOp::And | BinOp::Or | BinOp::Imply => {
                let Some(a) = self.as_cond(pa, a) else { return Ty::Bad };
                // `p imply q` is `not p or q`.
                let a = if op == BinOp::Imply { self.not(pa, a) } else { a };
                let Some(b) = self.as_cond(pb, b) else { return Ty::Bad };
                let or = op != BinOp::And;
                match (a, b) {
                    (Ty::Bad, _) | (_, Ty::Bad) => Ty::Bad,
                    (Ty::Bool(x), Ty::Bool(y)) => Ty::Bool(match (x.as_const(), y.as_const()) {
                        (Some(u), Some(v)) => TExpr::Const(
                            const_binary(if or { BinOp::Or } else { BinOp::And }, u, v).expect("logic cannot fail"),
                        ),
                        _ => TExpr::Binary(if or { BinOp::Or } else { BinOp::And }, Box::new(x), Box::new(y)),
                    }),
                    (x, y) => {
                        let (Some(dx), Some(dy)) = (x.into_dnf(), y.into_dnf()) else { return Ty::Bad };
                        let out = if or { Some(dx.into_iter().chain(dy).collect()) } else { self.conjoin(pos, dx, dy) };
                        match out {
                            Some(d) if d.len() <= MAX_EXPANSION => Ty::Guard(d),
                            Some(_) => self.too_large(pos),
                            None => Ty::Bad,
                        }
                    }
                }
            }
        }
    }

    fn too_large(&mut self, pos: Pos) -> Ty {
        self.r.error(pos, "too-large", format!("this condition expands to more than {MAX_EXPANSION} cases"));
        Ty::Bad
    }

    /// `dx and dy` distributed into a DNF; `None` (reported) when it would
    /// exceed [`MAX_EXPANSION`] disjuncts.
    fn conjoin(&mut self, pos: Pos, dx: Dnf, dy: Dnf) -> Option<Dnf> {
        if dx.len().saturating_mul(dy.len()) > MAX_EXPANSION {
            self.too_large(pos);
            return None;
        }
        let mut out = Vec::with_capacity(dx.len() * dy.len());
        for p in &dx {
            for q in &dy {
                let mut c = p.clone();
                for d in &q.data {
                    if !c.data.contains(d) {
                        c.data.push(d.clone());
                    }
                }
                for a in &q.lin {
                    if !c.lin.contains(a) {
                        c.lin.push(a.clone());
                    }
                }
                if !contradictory(&c) {
                    out.push(c);
                }
            }
        }
        Some(out)
    }

    /// `not t` for a condition `t` (already checked to be one).
    fn not(&mut self, pos: Pos, t: Ty) -> Ty {
        match t {
            Ty::Bool(t) => Ty::Bool(negate_data(t)),
            Ty::Guard(d) => self.negate(pos, d),
            other => other,
        }
    }

    fn as_cond(&mut self, pos: Pos, t: Ty) -> Option<Ty> {
        match t {
            Ty::Bool(_) | Ty::Guard(_) => Some(t),
            other => {
                self.expected(pos, "a condition", &other);
                None
            }
        }
    }

    /// `not (C1 or ... or Cn)` as a DNF: the conjunction of the negated
    /// disjuncts, distributed. Each `not (data and l1 and ... and lm)` is
    /// written as the disjoint cases `not data`, `data and not l1`, `data
    /// and l1 and not l2`, ...: a negated clock constraint is its
    /// complement (one atom, two for `==`), and disjoint cases keep a
    /// guard's split edges from repeating each other's behaviour.
    fn negate(&mut self, pos: Pos, d: Dnf) -> Ty {
        let mut acc: Dnf = vec![Conj::default()];
        for c in d {
            match self.conjoin(pos, acc, negated_cases(c)) {
                Some(next) => acc = next,
                None => return Ty::Bad,
            }
        }
        Ty::Guard(acc)
    }

    fn compare(&mut self, pos: Pos, op: BinOp, a: Ty, b: Ty) -> Ty {
        let cmp = match op {
            BinOp::Lt => Cmp::Lt,
            BinOp::Le => Cmp::Le,
            BinOp::Gt => Cmp::Gt,
            BinOp::Ge => Cmp::Ge,
            _ => Cmp::Eq,
        };
        match (a, b) {
            (Ty::Int(x), Ty::Int(y)) => Ty::Bool(match (x.as_const(), y.as_const()) {
                (Some(u), Some(v)) => TExpr::Const(const_binary(op, u, v).expect("comparisons cannot fail")),
                _ => TExpr::Binary(op, Box::new(x), Box::new(y)),
            }),
            (Ty::Bool(x), Ty::Bool(y)) if matches!(op, BinOp::Eq | BinOp::Ne) => {
                Ty::Bool(TExpr::Binary(op, Box::new(x), Box::new(y)))
            }
            (a @ (Ty::Lin(_) | Ty::Int(_)), b @ (Ty::Lin(_) | Ty::Int(_))) => {
                // terms(a) - terms(b) ~ konst(b) - konst(a)
                let (la, lb) = (Self::lin_of(a).expect("lin"), Self::lin_of(b).expect("lin"));
                let mut terms = la.terms;
                let mut params = lb.params;
                if add_terms(&mut terms, &lb.terms, -1).is_none() || add_terms(&mut params, &la.params, -1).is_none() {
                    return self.overflow(pos);
                }
                let Ty::Int(rhs) = self.arith(pos, BinOp::Sub, Ty::Int(lb.konst), Ty::Int(la.konst)) else {
                    return Ty::Bad;
                };
                let atom = |cmp| Conj {
                    data: vec![],
                    lin: vec![LinAtom { terms: terms.clone(), cmp, rhs: rhs.clone(), params: params.clone() }],
                };
                Ty::Guard(if op == BinOp::Ne { vec![atom(Cmp::Lt), atom(Cmp::Gt)] } else { vec![atom(cmp)] })
            }
            (Ty::Bool(_), Ty::Int(_)) | (Ty::Int(_), Ty::Bool(_)) => {
                self.r.error(pos, "type-error", "cannot compare a boolean with an integer").hint =
                    Some("booleans are `true` or `false`".into());
                Ty::Bad
            }
            (a, b) => {
                let bad = if matches!(a, Ty::Int(_) | Ty::Lin(_) | Ty::Bool(_)) { b } else { a };
                self.expected(pos, "an integer", &bad)
            }
        }
    }
}

/// `not t` for a data condition, folded when constant.
fn negate_data(t: TExpr) -> TExpr {
    match t.as_const() {
        Some(v) => TExpr::Const((v == 0) as i64),
        None => TExpr::Not(Box::new(t)),
    }
}

/// The disjoint cases of `not c` (see [`Checker::negate`]).
fn negated_cases(c: Conj) -> Dnf {
    let mut cases = Vec::new();
    let mut prefix = Conj::default();
    if let Some(data) = c.data.into_iter().reduce(|a, b| TExpr::Binary(BinOp::And, Box::new(a), Box::new(b))) {
        cases.push(Conj { data: vec![negate_data(data.clone())], lin: vec![] });
        prefix.data.push(data);
    }
    for a in c.lin {
        let complement: &[Cmp] = match a.cmp {
            Cmp::Lt => &[Cmp::Ge],
            Cmp::Le => &[Cmp::Gt],
            Cmp::Ge => &[Cmp::Lt],
            Cmp::Gt => &[Cmp::Le],
            Cmp::Eq => &[Cmp::Lt, Cmp::Gt],
        };
        for &cmp in complement {
            let mut case = prefix.clone();
            case.lin.push(LinAtom { cmp, ..a.clone() });
            cases.push(case);
        }
        prefix.lin.push(a);
    }
    cases
}

impl Ty {
    /// A condition as a DNF; `None` for anything else.
    pub fn into_dnf(self) -> Option<Dnf> {
        match self {
            Ty::Bool(TExpr::Const(0)) => Some(vec![]),
            Ty::Bool(TExpr::Const(_)) => Some(vec![Conj::default()]),
            Ty::Bool(b) => Some(vec![Conj { data: vec![b], lin: vec![] }]),
            Ty::Guard(d) => Some(d),
            _ => None,
        }
    }
}

/// A conjunction that no state satisfies, recognised syntactically: a data
/// condition next to its negation, or two constraints on the same linear
/// term with constant bounds that leave no value (`x < 3 and x >= 3`).
/// Dropping these keeps the disjuncts of nested negations from piling up;
/// the engines would find them empty anyway.
fn contradictory(c: &Conj) -> bool {
    /// A constant bound and whether it is strict.
    type Limit = (i64, bool);
    /// A linear term with its tightest lower and upper bounds.
    type Range<'a> = (&'a [(Cvar, i64)], Option<Limit>, Option<Limit>);
    let negated = |d: &TExpr| matches!(d, TExpr::Not(inner) if c.data.contains(inner));
    if c.data.iter().any(|d| d.as_const() == Some(0) || negated(d)) {
        return true;
    }
    // The tightest constant bounds per term, lower and upper.
    let mut bounds: Vec<Range<'_>> = Vec::new();
    for a in c.lin.iter().filter(|a| a.params.is_empty()) {
        let Some(k) = a.rhs.as_const() else { continue };
        let at = match bounds.iter().position(|(t, ..)| *t == a.terms.as_slice()) {
            Some(i) => i,
            None => {
                bounds.push((&a.terms, None, None));
                bounds.len() - 1
            }
        };
        let (_, lo, hi) = &mut bounds[at];
        let tighter_hi = |h: &mut Option<Limit>, b: Limit| {
            if h.is_none_or(|(v, s)| b.0 < v || (b.0 == v && b.1 && !s)) {
                *h = Some(b);
            }
        };
        let tighter_lo = |l: &mut Option<Limit>, b: Limit| {
            if l.is_none_or(|(v, s)| b.0 > v || (b.0 == v && b.1 && !s)) {
                *l = Some(b);
            }
        };
        match a.cmp {
            Cmp::Lt => tighter_hi(hi, (k, true)),
            Cmp::Le => tighter_hi(hi, (k, false)),
            Cmp::Eq => {
                tighter_hi(hi, (k, false));
                tighter_lo(lo, (k, false));
            }
            Cmp::Ge => tighter_lo(lo, (k, false)),
            Cmp::Gt => tighter_lo(lo, (k, true)),
        }
    }
    bounds.iter().any(|(_, lo, hi)| match (lo, hi) {
        (Some((l, ls)), Some((h, hs))) => l > h || (l == h && (*ls || *hs)),
        _ => false,
    })
}
