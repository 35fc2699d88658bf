//! The initial constraint of `init`: what of it kairos can state. Each
//! conjunct is put in the linear form `Σ c·v ~ k`; a clock alone `= 0` is
//! its start (kairos's clocks all start at 0), a parameter alone is a bound
//! of its box (dividing by a negative coefficient turns the comparison), a
//! discrete variable `= e` is its initial value (the older `init` form).
//! Strict bounds, relations between parameters and other clock constraints
//! are refused: kairos's parameter boxes are closed and its clocks start at 0.

use std::collections::HashMap;

use super::expr::{Sym, linear};
use super::parse::{Expr, ExprKind, Kind};
use super::translate::Diags;
use crate::domain::poly::Q;

/// Bounds of one parameter (inclusive; strict ones are refused).
#[derive(Default)]
pub(super) struct Bounds {
    pub min: Option<Q>,
    pub max: Option<Q>,
}

/// The initial constraint's conjuncts: parameter bounds, the clocks set to
/// 0, and discrete values (the older `init` form); anything else refused.
pub(super) fn initial_constraint<'e>(
    conjuncts: &'e [Expr],
    names: &HashMap<String, Sym>,
    d: &mut Diags,
) -> (HashMap<String, Bounds>, Vec<String>, HashMap<String, &'e Expr>) {
    let mut bounds: HashMap<String, Bounds> = HashMap::new();
    let mut zeroed = Vec::new();
    let mut values = HashMap::new();
    for c in conjuncts {
        let ExprKind::Bin(op, a, b) = &c.kind else {
            if !matches!(c.kind, ExprKind::Bool(true)) {
                d.expr(c, "unsupported", "this initial constraint is not supported yet");
            }
            continue;
        };
        if let (ExprKind::Var(v), "=") = (&a.kind, *op)
            && matches!(names.get(v).map(|s| s.kind), Some(Kind::Int | Kind::Rational | Kind::Bool))
        {
            values.insert(v.clone(), &**b);
            continue;
        }
        let (Some((l, lc)), Some((r, rc))) = (linear(a), linear(b)) else {
            d.expr(c, "unsupported", "a non-linear initial constraint is not supported yet");
            continue;
        };
        // l + lc op r + rc, as Σ coeff·v op constant.
        let mut coeffs = l;
        for (v, k) in r {
            *coeffs.entry(v).or_insert_with(|| Q::from_integer(0.into())) -= k;
        }
        coeffs.retain(|_, k| *k != Q::from_integer(0.into()));
        let constant = rc - lc;
        let kinds: Vec<Option<Kind>> = coeffs.keys().map(|v| names.get(v).map(|s| s.kind)).collect();
        if let Some(v) = coeffs.keys().find(|v| !names.contains_key(*v)) {
            d.expr(c, "unknown-name", format!("`{v}` is not declared"));
            continue;
        }
        match (coeffs.len(), kinds.first().copied().flatten()) {
            (1, Some(Kind::Clock)) if *op == "=" && constant == Q::from_integer(0.into()) => {
                zeroed.push(coeffs.into_keys().next().unwrap_or_default());
            }
            (1, Some(Kind::Parameter)) => {
                let (v, k) = coeffs.into_iter().next().unwrap_or_default();
                let value = constant / &k;
                // Dividing by a negative coefficient turns the comparison.
                let flip = k < Q::from_integer(0.into());
                let op = match (*op, flip) {
                    ("<=", false) | (">=", true) => "<=",
                    (">=", false) | ("<=", true) => ">=",
                    (o, _) => o,
                };
                let b = bounds.entry(v).or_default();
                match op {
                    "<=" => b.max = Some(b.max.take().map_or(value.clone(), |m| m.min(value))),
                    ">=" => b.min = Some(b.min.take().map_or(value.clone(), |m| m.max(value))),
                    "=" => {
                        b.min = Some(b.min.take().map_or(value.clone(), |m| m.max(value.clone())));
                        b.max = Some(b.max.take().map_or(value.clone(), |m| m.min(value)));
                    }
                    _ => d.expr(
                        c,
                        "unsupported",
                        "a strict bound on a parameter is not supported yet (kairos's bounds are inclusive)",
                    ),
                }
            }
            (_, _) if kinds.iter().all(|k| *k == Some(Kind::Parameter)) => d.expr(
                c,
                "unsupported",
                "an initial constraint relating several parameters (not a box) is not supported yet",
            ),
            _ => d.expr(
                c,
                "unsupported",
                "this initial constraint on clocks or data is not supported yet (clocks start at 0)",
            ),
        }
    }
    (bounds, zeroed, values)
}
