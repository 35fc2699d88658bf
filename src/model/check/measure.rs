//! `sup{φ}: e1, e2` and `inf{φ}: e1, e2` properties: the condition, a state
//! formula, and the terms, each a clock or an integer expression (what
//! UPPAAL measures).

use crate::model::check::Checker;
use crate::model::check::expr::{Ctx, Lin, Scope, Ty};
use crate::model::formula::{Formula, Measure, Term, TermValue};
use crate::model::typed::{Conj, TExpr};
use crate::syntax::ast::{Expr, Extremum};
use crate::syntax::yaml::Node;

impl Checker<'_> {
    /// The typed `sup`/`inf` property of `node` (the formula's scalar).
    pub(super) fn measure(
        &mut self,
        node: &Node,
        kind: Extremum,
        cond: Option<&Expr>,
        terms: &[Expr],
        scope: &dyn Scope,
    ) -> Option<Formula> {
        let cond = match cond {
            None => Some(Formula::State(vec![Conj::default()])),
            Some(c) => self.measure_cond(node, c, scope),
        };
        let typed: Vec<Option<Term>> = terms.iter().map(|t| self.measure_term(node, t, scope)).collect();
        let terms = typed.into_iter().collect::<Option<Vec<Term>>>()?;
        Some(Formula::Measure(Box::new(Measure { kind, cond: Box::new(cond?), terms })))
    }

    fn measure_cond(&mut self, node: &Node, c: &Expr, scope: &dyn Scope) -> Option<Formula> {
        let f = self.formula(node, c, scope)?;
        if !f.is_state() {
            self.r.error(
                self.at(node, c),
                "temporal-in-measure",
                "the condition of `sup`/`inf` is a state formula: no temporal operator",
            );
            return None;
        }
        Some(f)
    }

    fn measure_term(&mut self, node: &Node, t: &Expr, scope: &dyn Scope) -> Option<Term> {
        let pos = self.at(node, t);
        let written = node.as_scalar().and_then(|s| s.value.get(t.span.start..t.span.end));
        let text = written.unwrap_or_default().trim().to_string();
        let value = match self.ty(node, t, scope, Ctx::Guard) {
            Ty::Bad => return None,
            Ty::Int(e) => TermValue::Data(e),
            Ty::Lin(Lin { terms, params, konst: TExpr::Const(0) }) if params.is_empty() => match terms.as_slice() {
                [(c, 1)] => TermValue::Clock(*c),
                _ => return self.not_a_term(pos),
            },
            _ => return self.not_a_term(pos),
        };
        Some(Term { text, value })
    }

    fn not_a_term(&mut self, pos: crate::diag::Pos) -> Option<Term> {
        self.r.error(pos, "type-error", "a `sup`/`inf` term is a clock or an integer expression").hint =
            Some("as in UPPAAL: `sup: x, n + 1`; no clock arithmetic, constraints or booleans".into());
        None
    }
}
