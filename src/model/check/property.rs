//! Properties: formulas typed against the instances of the model.

use std::sync::Arc;

use crate::model::check::Checker;
use crate::model::check::expr::{Bound, Scope, Sym};
use crate::model::check::globals::Globals;
use crate::model::decl::PropertyDecl;
use crate::model::formula::{Formula, TimeBound};
use crate::model::typed::{Cmp, Conj, TExpr};
use crate::model::types::Property;
use crate::syntax::ast::{BinOp, BoundOp, Expr, ExprKind, Quantifier, UnOp};
use crate::syntax::parse::parse_formula;
use crate::syntax::yaml::Node;

/// Global names, plus labels (true where some instance carries them), plus
/// `Instance.member`.
pub struct FormulaScope<'a> {
    pub globals: Globals<'a>,
    pub model: &'a crate::model::types::Model,
}

impl Scope for FormulaScope<'_> {
    fn lookup(&self, name: &str) -> Option<Sym> {
        self.globals.lookup(name).or_else(|| {
            let at = label_predicate(self.model, None, name)?;
            Some(Sym::Pred(at))
        })
    }
    fn members(&self) -> bool {
        true
    }
}

/// The disjunction of the locations carrying `label` (in one instance, or in
/// any); `None` when no location carries it.
pub fn label_predicate(m: &crate::model::types::Model, instance: Option<usize>, label: &str) -> Option<TExpr> {
    let mut out: Option<TExpr> = None;
    for (i, inst) in m.instances.iter().enumerate() {
        if instance.is_some_and(|j| j != i) {
            continue;
        }
        for (l, loc) in m.templates[inst.template].locations.iter().enumerate() {
            if loc.labels.iter().any(|x| x == label) {
                let at = TExpr::AtLoc(i, l);
                out = Some(match out {
                    None => at,
                    Some(prev) => TExpr::Binary(BinOp::Or, Box::new(prev), Box::new(at)),
                });
            }
        }
    }
    if out.is_none() && m.templates.iter().any(|t| t.locations.iter().any(|l| l.labels.iter().any(|x| x == label))) {
        // A label that exists but is carried by no location of this instance
        // (or no instance): never true.
        return Some(TExpr::Const(0));
    }
    out
}

fn temporal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Deadlock
        | ExprKind::Path { .. }
        | ExprKind::Until { .. }
        | ExprKind::LeadsTo { .. }
        | ExprKind::Measure { .. } => true,
        ExprKind::Unary { arg, .. } => temporal(arg),
        ExprKind::Binary { lhs, rhs, .. } => temporal(lhs) || temporal(rhs),
        ExprKind::Quant { body, .. } => temporal(body),
        ExprKind::Cond { cond, then, other } => temporal(cond) || temporal(then) || temporal(other),
        _ => false,
    }
}

impl Checker<'_> {
    /// Types the properties of a spec file (or of the model itself).
    pub fn property(&mut self, p: &PropertyDecl, file: Arc<str>) -> Option<Property> {
        let text = self.r.scalar(&p.formula, "a formula")?;
        let e = self.parse(&p.formula, "a formula", parse_formula)?;
        let globals = self.globals.clone();
        let model = self.model.clone();
        let scope = FormulaScope { globals: Globals(&globals), model: &model };
        let formula = match &e.kind {
            ExprKind::Measure { kind, cond, terms } => {
                let f = self.measure(&p.formula, *kind, cond.as_deref(), terms, &scope);
                if let Some(at) = p.expect_pos {
                    self.r.error(
                        at,
                        "expect-on-measure",
                        "a `sup`/`inf` property measures: it neither holds nor fails, so it takes no `expect`",
                    );
                }
                if p.synth {
                    self.r.error(p.formula.pos, "synth-measure", "`synth` takes a formula, not a `sup`/`inf` query");
                }
                f?
            }
            _ => self.formula(&p.formula, &e, &scope)?,
        };
        if p.synth && self.model.params.is_empty() {
            self.r.error(
                p.formula.pos,
                "synth-without-parameters",
                "`synth` needs timing parameters (`parameters:` in the model)",
            );
        }
        Some(Property {
            name: p.name.as_ref().map_or_else(|| text.clone(), |n| n.text.clone()),
            text,
            ast: e,
            formula,
            expect: p.expect.clone(),
            synth: p.synth,
            file,
            pos: p.pos,
        })
    }

    fn time_bound(
        &mut self,
        node: &Node,
        b: &Option<crate::syntax::ast::TimeBound>,
        scope: &dyn Scope,
    ) -> Option<Option<TimeBound>> {
        let Some(b) = b else { return Some(None) };
        let value = self.const_int(node, &b.value, scope)?;
        if !(0..=crate::model::MAX_CLOCK_BOUND).contains(&value) {
            self.r.error(
                node.pos_in_text(b.span.start),
                "bound-too-large",
                format!("time bound {value} is outside 0..2^28"),
            );
            return None;
        }
        if b.op == BoundOp::Lt && value == 0 {
            // `[< 0]` is the empty interval [0, 0): no answer can be in
            // it, yet the observer would accept ψ at the very φ moment.
            // Refused rather than given a meaning of its own.
            self.r.error(
                node.pos_in_text(b.span.start),
                "empty-time-bound",
                "the time bound `< 0` is empty (no time point is before 0); write `<= 0` for \"at once\"",
            );
            return None;
        }
        let cmp = match b.op {
            BoundOp::Lt => Cmp::Lt,
            BoundOp::Le => Cmp::Le,
            BoundOp::Eq => Cmp::Eq,
            BoundOp::Ge => Cmp::Ge,
            BoundOp::Gt => Cmp::Gt,
        };
        Some(Some(TimeBound { cmp, value }))
    }

    pub(super) fn formula(&mut self, node: &Node, e: &Expr, scope: &dyn Scope) -> Option<Formula> {
        if !temporal(e) {
            return self.state_formula(node, e, scope);
        }
        let bx = |f: Formula| Box::new(f);
        match &e.kind {
            ExprKind::Deadlock => Some(Formula::Deadlock),
            ExprKind::Path { op, bound, arg } => {
                let bound = self.time_bound(node, bound, scope)?;
                Some(Formula::Path { op: *op, bound, arg: bx(self.formula(node, arg, scope)?) })
            }
            ExprKind::Until { quant, bound, lhs, rhs } => {
                let bound = self.time_bound(node, bound, scope)?;
                let (l, r) = (self.formula(node, lhs, scope), self.formula(node, rhs, scope));
                Some(Formula::Until { quant: *quant, bound, lhs: bx(l?), rhs: bx(r?) })
            }
            ExprKind::LeadsTo { bound, lhs, rhs } => {
                let bound = self.time_bound(node, bound, scope)?;
                let (l, r) = (self.formula(node, lhs, scope), self.formula(node, rhs, scope));
                Some(Formula::LeadsTo { bound, lhs: bx(l?), rhs: bx(r?) })
            }
            ExprKind::Unary { op: UnOp::Not, arg } => Some(Formula::Not(bx(self.formula(node, arg, scope)?))),
            ExprKind::Binary { op: op @ (BinOp::And | BinOp::Or | BinOp::Imply), lhs, rhs } => {
                let (l, r) = (self.formula(node, lhs, scope), self.formula(node, rhs, scope));
                let (l, r) = (bx(l?), bx(r?));
                Some(match op {
                    BinOp::And => Formula::And(l, r),
                    BinOp::Or => Formula::Or(l, r),
                    _ => Formula::Imply(l, r),
                })
            }
            ExprKind::Quant { quant, var, lo, hi, body } => {
                let (lo, hi) = (self.const_int(node, lo, scope), self.const_int(node, hi, scope));
                let (lo, hi) = (lo?, hi?);
                let mut acc: Option<Formula> = None;
                for v in lo..=hi {
                    let inner = Bound { outer: scope, names: vec![(var.name.clone(), Some(v))] };
                    let f = self.formula(node, body, &inner)?;
                    acc = Some(match acc {
                        None => f,
                        Some(a) if *quant == Quantifier::Forall => Formula::And(bx(a), bx(f)),
                        Some(a) => Formula::Or(bx(a), bx(f)),
                    });
                }
                // An empty range: forall is true, exists is false.
                Some(acc.unwrap_or_else(|| {
                    Formula::State(if *quant == Quantifier::Forall { vec![Conj::default()] } else { vec![] })
                }))
            }
            _ => {
                self.r.error(
                    self.at(node, e),
                    "temporal-in-expression",
                    "a temporal operator or `deadlock` cannot be used inside an arithmetic or comparison expression",
                );
                None
            }
        }
    }

    fn state_formula(&mut self, node: &Node, e: &Expr, scope: &dyn Scope) -> Option<Formula> {
        self.condition(node, e, scope).map(Formula::State)
    }
}
