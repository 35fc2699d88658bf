//! Which subformula decides a nested verdict at the end of its trace.
//!
//! A counterexample to `AG φ` ends in a state where φ fails; when φ is a
//! boolean combination of temporal formulas, the user wants to know which
//! one. Walking φ's connectives with the set `R` of candidate end states
//! (all of them in `not φ`):
//! - `not a` failing is `a` holding (and the other way round);
//! - `a and b` failing: some state of `R` fails `a` (keep those), else all
//!   fail `b`; `a or b` holding is the dual;
//! - `a imply b` failing: `a` holds and `b` fails everywhere in `R`;
//!   holding: `a` fails somewhere in `R`, else `b` holds;
//! - anything else (a temporal operator, an atom, both sides of a failing
//!   `or`) is the answer.
//!
//! Each refinement keeps `R` non-empty and inside the states where the
//! chosen subformula has the claimed value, so the trace, searched towards
//! the final `R`, ends where the statement is true. The typed formula and
//! its parse tree are walked together (the tree gives the words); where
//! their shapes part (a quantifier unrolled into a conjunction), the walk
//! stops at the tree's node.

use crate::engine::tctl::pre::{Map, intersect};
use crate::engine::tctl::sat::{Evaluator, Stop};
use crate::model::formula::Formula;
use crate::syntax::ast::{BinOp, Expr, ExprKind, UnOp};

/// The subformula of `f` (written as `e` in `text`) with value `holds`
/// throughout `region`, and the part of `region` where that is so.
pub fn blame<'f>(
    eval: &mut Evaluator<'_, '_, '_, '_>,
    text: &str,
    mut e: &'f Expr,
    mut f: &'f Formula,
    mut holds: bool,
    mut region: Map,
) -> Result<(String, bool, Map), Stop> {
    loop {
        let next = match (&e.kind, f) {
            (ExprKind::Unary { op: UnOp::Not, arg }, Formula::Not(a)) => Some((&**arg, &**a, !holds, None)),
            (ExprKind::Binary { op, lhs, rhs }, Formula::And(a, b) | Formula::Or(a, b) | Formula::Imply(a, b)) => {
                let conj = matches!((op, f), (BinOp::And, Formula::And(..)));
                let disj = matches!((op, f), (BinOp::Or, Formula::Or(..)));
                let imply = matches!((op, f), (BinOp::Imply, Formula::Imply(..)));
                // The left side's value that settles the whole: `false` for a
                // failing `and`, `true` for a holding `or`, `false` for a
                // holding `imply`; the right side decides otherwise.
                let settle = if conj && !holds {
                    Some(false)
                } else if (disj || imply) && holds {
                    Some(disj)
                } else {
                    None
                };
                match settle {
                    Some(v) => {
                        let left = eval.sat(a)?;
                        let left = if v { left } else { eval.not_at_zero(&left) };
                        let there = intersect(&region, &left);
                        if there.iter().any(|x| !x.is_empty()) {
                            Some((&**lhs, &**a, v, Some(there)))
                        } else {
                            Some((&**rhs, &**b, holds, None))
                        }
                    }
                    // A failing `imply` fails on its right; a holding `and`
                    // or a failing `or` needs both sides: stop.
                    None if imply => Some((&**rhs, &**b, false, None)),
                    None => None,
                }
            }
            _ => None,
        };
        match next {
            Some((e2, f2, h2, r2)) => {
                (e, f, holds) = (e2, f2, h2);
                if let Some(r) = r2 {
                    region = r;
                }
            }
            None => return Ok((words(text, e), holds, region)),
        }
    }
}

/// The text of `e`, without the parentheses it was written in.
fn words(text: &str, e: &Expr) -> String {
    let written = text[e.span.start..e.span.end].trim();
    let inner = written.strip_prefix('(').and_then(|w| w.strip_suffix(')'));
    match inner {
        Some(w) if e.paren => w.trim().to_string(),
        _ => written.to_string(),
    }
}
