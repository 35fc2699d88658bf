//! Worst-case response times (`kairos bound MODEL -q 'φ --> ψ'`): the
//! exact supremum of the time from a moment where `φ` holds to the first
//! moment where `ψ` holds, over time-divergent runs.
//!
//! First `φ --> ψ` itself (liveness engine): if it fails, some divergent
//! run never answers, and the bound is "unbounded", with that lasso.
//! Otherwise the observer without its `bad` edge ([`crate::observer`])
//! measures: in `wait`, its clock `w` is the time since a `φ and not ψ`
//! moment during which `ψ` has not held, and the response time of a start
//! moment is the largest `w` of its `wait` stretch (the moment before the
//! step into `ψ`). So the bound is the supremum of `w` over the reachable
//! `wait` states: the largest upper bound of `w` in their zones, attained
//! iff that bound is non-strict.
//!
//! Why the zones give it exactly: `w` gets the bounds `L = U = 2^28` in
//! `wait`, so the LU simulation that justifies ExtraLU+ relates only
//! valuations with equal `w` (and inclusion subsumption keeps the larger
//! zone): every `w` value of an abstract zone is one of a reachable state,
//! and conversely. The exploration terminates because `φ --> ψ` holds:
//! then no cycle of the graph with `z` inside `wait` has a tick, so a
//! `wait` stretch spans fewer time units than there are tick edges, and
//! `w` stays bounded there (elsewhere it is reset before use, and the LU
//! bounds let it go). Time-locks would let `wait` stretches that no
//! divergent run has count: models with them are refused.

use crate::domain::federation::Federation;
use crate::domain::zone::Bound;
use crate::engine::liveness::{self, Shape};
use crate::engine::reach::{self, Cover, End, Order};
use crate::engine::{Options, Outcome, Verdict};
use crate::model::formula::{EngineKind, Formula, TimeBound};
use crate::model::typed::Cmp;
use crate::model::types::Property;
use crate::network::Network;
use crate::observer::Response;
use crate::semantics::{Abstraction, ZoneGraph};
use crate::syntax::ast::PathOp;

/// The largest constant a clock bound may have (FORMAT.md section 2).
const MAX_BOUND: i64 = 1 << 28;

/// The worst-case time from `φ` to `ψ`.
#[derive(Debug)]
pub enum WorstCase {
    /// The supremum, and whether some run takes exactly that long; `0`
    /// also when `φ and not ψ` is never reachable.
    Sup { value: i64, attained: bool },
    /// Some time-divergent run never reaches `ψ` after `φ`: the outcome of
    /// `φ --> ψ`, with its lasso.
    Unbounded(Outcome),
    /// No answer: the outcome says why.
    None(Outcome),
}

/// `φ` and `ψ` of `φ --> ψ` (any bound) or `A[] (φ imply A<> ψ)`.
pub fn leads_to(p: &Property) -> Option<(&Formula, &Formula)> {
    match &p.formula {
        Formula::LeadsTo { lhs, rhs, .. } => Some((lhs.as_ref(), rhs.as_ref())),
        Formula::Path { op: PathOp::AG, bound: None, arg } => match arg.as_ref() {
            Formula::Imply(p, q) => match q.as_ref() {
                Formula::Path { op: PathOp::AF, arg, .. } => Some((p.as_ref(), arg.as_ref())),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
    .filter(|(p, q)| p.is_state() && q.is_state())
}

pub fn worst_case(net: &Network, property: &Property, options: &Options) -> WorstCase {
    let unsupported = |why: String| WorstCase::None(Outcome::unsupported(EngineKind::Observer, why));
    let Some((phi, psi)) = leads_to(property) else {
        return unsupported("`kairos bound` takes a leads-to property `φ --> ψ`".into());
    };
    let compiled = net.state_formula(property, phi).and_then(|p| Ok((p, net.state_formula(property, psi)?)));
    let (p, q) = match compiled {
        Ok(x) => x,
        Err(d) => return unsupported(d.message),
    };
    if let Some(why) = liveness::refusal(net, &[&p, &q], Abstraction::Lu) {
        return unsupported(why);
    }
    let live = liveness::check(net, Shape::LeadsTo(p, q), Abstraction::Lu, &options.limits);
    match live.verdict {
        Verdict::Violated => return WorstCase::Unbounded(live),
        Verdict::Satisfied if !live.warnings.is_empty() => {
            return unsupported(
                "the model has time-locks (see the warnings of `check`); the bound over divergent runs is not supported yet there"
                    .into(),
            );
        }
        Verdict::Satisfied => {}
        _ => return WorstCase::None(live),
    }
    let r = Response {
        trigger: Some(phi.clone()),
        response: psi.clone(),
        bound: TimeBound { cmp: Cmp::Le, value: 0 },
        texts: (None, String::new()),
    };
    let mut product = match crate::observer::product(net, &r, false) {
        Ok(p) => p,
        Err(why) => return unsupported(why),
    };
    let (obs, wait, w) = (product.process as usize, product.wait, product.clock as usize);
    let bounds = &mut product.net.lu.local[obs][wait as usize];
    bounds.retain(|&(clock, _, _)| clock as usize != w);
    bounds.push((w as u32, MAX_BOUND, MAX_BOUND));
    let mut zg = ZoneGraph::new(&product.net, Abstraction::Lu);
    // Every stored `wait` zone's upper bound of `w` (a zone dropped later
    // for a larger one has no larger bound).
    let mut sup: Option<Bound> = None;
    let mut measure = |_: &mut ZoneGraph<'_>, s: &crate::semantics::ZoneState| {
        if s.discrete.locs[obs] == wait {
            let b = s.zone.bound(w, 0);
            if sup.is_none_or(|m| b > m) {
                sup = Some(b);
            }
        }
        Ok(Federation::empty())
    };
    let run = reach::explore(&mut zg, Order::Bfs, Cover::Inclusion, &options.limits, &mut measure);
    match run.end {
        End::Exhausted => {}
        End::Stopped(u) => return WorstCase::None(no_answer(Verdict::Unknown(u))),
        End::Error { error, .. } => return WorstCase::None(no_answer(Verdict::Error(error.describe(&product.net)))),
        End::Found { .. } => unreachable!("nothing is searched for"),
    }
    match sup {
        None => WorstCase::Sup { value: 0, attained: true },
        Some(b) if b.is_finite() => WorstCase::Sup { value: i64::from(b.value()), attained: !b.is_strict() },
        Some(_) => unsupported("internal error: `w` is unbounded in a reachable zone although φ --> ψ holds".into()),
    }
}

fn no_answer(verdict: Verdict) -> Outcome {
    let mut o = Outcome::unsupported(EngineKind::Observer, String::new());
    o.verdict = verdict;
    o
}
