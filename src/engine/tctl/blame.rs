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
//! - `a and b` holding (`a or b` failing): both sides have that value;
//!   where one is a state formula (which the end state shows), the other;
//! - anything else (a temporal operator, an atom, two temporal sides of
//!   a holding `and`) is the answer.
//!
//! Each refinement keeps `R` non-empty and inside the states where the
//! chosen subformula has the claimed value, so the trace, searched towards
//! the final `R`, ends where the statement is true. The typed formula and
//! its parse tree are walked together (the tree gives the words); where
//! their shapes part (a quantifier unrolled into a conjunction), the walk
//! stops at the tree's node.
//!
//! The same walk names the subformula deciding at one concrete point (the
//! end of a nested path's evidence): `R` is then that point, and "some
//! state of `R`" is whether the point is in the set.

use crate::engine::tctl::explicit::Explicit;
use crate::engine::tctl::pre::{Map, intersect};
use crate::engine::tctl::sat::{Evaluator, Stop};
use crate::model::formula::Formula;
use crate::syntax::ast::{BinOp, Expr, ExprKind, UnOp};

/// The subformula of `f` (written as `e`) with value `holds` at the
/// candidate points; `has(left)` says whether some candidate is in the
/// level-0 set `left`, and keeps only those when so (a region of end
/// states being searched for, or the one point a run reached).
pub fn blame<'f>(
    eval: &mut Evaluator<Explicit<'_, '_, '_, '_>>,
    mut e: &'f Expr,
    mut f: &'f Formula,
    mut holds: bool,
    has: &mut dyn FnMut(&Map) -> bool,
) -> Result<(&'f Expr, &'f Formula, bool), Stop> {
    loop {
        let next = match (&e.kind, f) {
            (ExprKind::Unary { op: UnOp::Not, arg }, Formula::Not(a)) => Some((&**arg, &**a, !holds)),
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
                        if has(&left) { Some((&**lhs, &**a, v)) } else { Some((&**rhs, &**b, holds)) }
                    }
                    // A failing `imply` fails on its right.
                    None if imply => Some((&**rhs, &**b, false)),
                    // A holding `and` or a failing `or` needs both sides:
                    // where one is a state formula, the point shows it and
                    // the other decides; two temporal sides: stop.
                    None if conj || disj => match (a.is_state(), b.is_state()) {
                        (true, false) => Some((&**rhs, &**b, holds)),
                        (false, true) => Some((&**lhs, &**a, holds)),
                        _ => None,
                    },
                    None => None,
                }
            }
            _ => None,
        };
        match next {
            Some(n) => (e, f, holds) = n,
            None => return Ok((e, f, holds)),
        }
    }
}

/// Keeps the part of `region` in `left`, when there is one.
pub fn narrow(region: &mut Map, left: &Map) -> bool {
    let there = intersect(region, left);
    let some = there.iter().any(|x| !x.is_empty());
    if some {
        *region = there;
    }
    some
}

/// The text of `e`, without the parentheses it was written in.
pub fn words(text: &str, e: &Expr) -> String {
    let written = text[e.span.start..e.span.end].trim();
    let inner = written.strip_prefix('(').and_then(|w| w.strip_suffix(')'));
    match inner {
        Some(w) if e.paren => w.trim().to_string(),
        _ => written.to_string(),
    }
}
