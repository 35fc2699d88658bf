//! Observer automata for bounded response (FORMAT.md section 3): `φ -->[b]
//! ψ`, `A[] (φ imply A<>[b] ψ)`, `AG (φ imply AF[b] ψ)`, and a top-level
//! `A<>[b] ψ` / `AF[b] ψ`, for `b` = `<= n` or `< n` and state formulas
//! without clock atoms.
//!
//! The observer is one more process, composed with the network like any
//! instance; it reads the other instances' locations and data in its
//! guards and invariant (an `observer: true` template), and has its own
//! clock `w`:
//!
//! ```text
//! idle --(φ and not ψ; w = 0)--> wait --(w > n, or w >= n for `< n`)--> bad
//!         wait: invariant `not ψ`
//! ```
//!
//! (top-level `A<>[b] ψ`: the observer starts in `wait` with `w = 0`).
//!
//! **Why "a time-divergent run reaches `bad`" is exactly a violation.**
//! The property fails iff some time-divergent run has a moment `t0` with
//! `φ` after which `ψ` does not hold at any moment of `[t0, t0 + n]` (for
//! `< n`: of `[t0, t0 + n)`); moments include the intermediate states of
//! zero-delay sequences.
//! - If so, the observer leaves `idle` at that moment (its edges are exempt
//!   from the committed rule, see [`crate::network::Process::observer`],
//!   so it can move in intermediate states too). In `wait`, `not ψ` holds
//!   at every moment until `t0 + n`, so the invariant blocks nothing of
//!   that run. `φ`, `ψ` are clock-free, so their truth changes only at
//!   discrete steps; the run diverges, so after the last step at `t0 + n`
//!   time passes, still with `not ψ`, to `w > n` (for `< n`: the moment
//!   just before the steps at `t0 + n` has `w = n`). Then `bad` is taken,
//!   and the rest of the run (the observer is passive in `bad`) follows:
//!   a time-divergent run of the product through `bad`.
//! - Conversely, a product run through `bad` spent `w > n` (`>= n`) in
//!   `wait`, whose invariant made `not ψ` hold at every moment since the
//!   start moment, where `φ` held; if the product run diverges, its network
//!   part is a time-divergent run that violates the property.
//!
//! So the check is: a reachable product state in `bad` with a
//! time-divergent run from it, which the liveness engine answers (enter
//! `bad`, stay `true`); merely reaching `bad` is not enough, as the run
//! could be caught in a time-lock, where the property is vacuous. The
//! observer's constant `n` is in its guard, so it enters the LU bounds.

mod build;
mod yaml;

pub use build::{Late, product};
pub use yaml::yaml;

use crate::model::formula::{Formula, TimeBound};
use crate::model::typed::Cmp;
use crate::model::types::Property;
use crate::syntax::ast::{ExprKind, PathOp};

/// A bounded-response property, as an observer is built from it.
#[derive(Clone, Debug)]
pub struct Response {
    /// `None`: top-level `A<>[b] ψ` (watched from the initial state).
    pub trigger: Option<Formula>,
    pub response: Formula,
    pub bound: TimeBound,
    /// The texts of `φ` and `ψ` as written, for printing the observer.
    pub texts: (Option<String>, String),
}

/// The bounded response a property asks for, if it has one of the observer
/// shapes. `Err` for the unbounded `A[] (φ imply A<> ψ)`, which is `φ --> ψ`.
pub fn response(p: &Property) -> Option<Response> {
    let observer_bound = |b: &Option<TimeBound>| b.filter(|b| matches!(b.cmp, Cmp::Le | Cmp::Lt));
    let (trigger, response, bound) = match &p.formula {
        Formula::LeadsTo { bound, lhs, rhs } if lhs.is_state() && rhs.is_state() => {
            (Some((**lhs).clone()), (**rhs).clone(), observer_bound(bound)?)
        }
        Formula::Path { op: PathOp::AF, bound, arg } if arg.is_state() => {
            (None, (**arg).clone(), observer_bound(bound)?)
        }
        Formula::Path { op: PathOp::AG, bound: None, arg } => match arg.as_ref() {
            Formula::Imply(lhs, q) if lhs.is_state() => match q.as_ref() {
                Formula::Path { op: PathOp::AF, bound, arg } if arg.is_state() => {
                    (Some((**lhs).clone()), (**arg).clone(), observer_bound(bound)?)
                }
                _ => return None,
            },
            _ => return None,
        },
        _ => return None,
    };
    let texts = texts(&p.text, trigger.is_some()).unwrap_or((trigger.as_ref().map(|_| "φ".into()), "ψ".into()));
    Some(Response { trigger, response, bound, texts })
}

/// `φ` and `ψ` as written in `text`, found through its syntax tree.
fn texts(text: &str, with_trigger: bool) -> Option<(Option<String>, String)> {
    let e = crate::syntax::parse::parse_formula(text).ok()?;
    let of = |e: &crate::syntax::ast::Expr| text.get(e.span.start..e.span.end).map(str::to_string);
    let peel = |e: &crate::syntax::ast::Expr| -> Option<(Option<String>, String)> {
        match &e.kind {
            ExprKind::LeadsTo { lhs, rhs, .. } => Some((Some(of(lhs)?), of(rhs)?)),
            ExprKind::Path { op: PathOp::AF, arg, .. } if !with_trigger => Some((None, of(arg)?)),
            _ => None,
        }
    };
    peel(&e).or_else(|| match &e.kind {
        ExprKind::Path { op: PathOp::AG, arg, .. } => match &arg.kind {
            ExprKind::Binary { op: crate::syntax::ast::BinOp::Imply, lhs, rhs } => match &rhs.kind {
                ExprKind::Path { op: PathOp::AF, arg, .. } => Some((Some(of(lhs)?), of(arg)?)),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    })
}
