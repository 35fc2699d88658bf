//! Worst-case response times (`kairos bound MODEL -q 'φ --> ψ'`): the
//! exact supremum of the time from a moment where `φ` holds to the first
//! moment where `ψ` holds, over time-divergent runs.
//!
//! First `φ --> ψ` itself (liveness engine): if it fails, some divergent
//! run never answers, and the bound is "unbounded", with that lasso.
//!
//! Otherwise an upper bound, measured: the observer without its `bad` edge
//! ([`crate::observer`]) has, in `wait`, a clock `w` that is the time since
//! a `φ and not ψ` moment during which `ψ` has not held; the response time
//! of a start moment is the largest `w` of its `wait` stretch. So the
//! supremum of `w` over the reachable `wait` states — the largest upper
//! bound of `w` in their zones — is the worst case over *all* runs. `w` gets
//! `L = U = 2^28` in `wait`, so the LU simulation behind ExtraLU+ relates
//! only valuations with equal `w`: every `w` of an abstract zone is one of
//! a reachable state. The exploration terminates because `φ --> ψ` holds: a
//! `wait` stretch longer than the region graph has states would contain a
//! cycle with a time unit in it, and repeating that cycle is a divergent
//! run that never answers.
//!
//! That measure also counts stretches that end in a time-lock, which no
//! divergent run has, and a zone may be time-locked only in part (`e` with
//! `x <= 10` whose exit needs `x <= 3`: 10 measured, 3 over divergent
//! runs), which no per-state test sees. So the measure `m` is only an upper
//! bound, and the answer comes from the observer engine, whose verdicts
//! quantify over divergent runs: the worst case `W` is the least integer `b`
//! with `φ -->[<= b] ψ` (the supremum over a union of regions is an
//! integer), usually `m` itself, confirmed by `φ -->[<= m-1] ψ` failing,
//! else found by bisection below `m`. It is attained iff `φ -->[< W] ψ`
//! fails.
//!
//! On a linear network (hybrid models, rational parameters) the worst case
//! may be any rational, so there is no bisection: the measure is exact
//! (polyhedra, no abstraction), and it is the answer when a divergent run
//! attains it (`φ -->[< m] ψ` fails, the observer with a rational bound);
//! otherwise (the measure reached only by time-locked runs, or a supremum
//! not attained) the answer is "not supported yet", with `m` said.

use num_traits::Zero;

use crate::domain::federation::Federation;
use crate::domain::poly::{Q, Sup};
use crate::domain::zone::Bound;
use crate::engine::liveness::{self, Shape};
use crate::engine::reach::{self, Cover, End, Order};
use crate::engine::{DataChoice, Options, Outcome, Verdict, Warning, observer, symdata};
use crate::model::formula::{EngineKind, Formula, TimeBound};
use crate::model::typed::Cmp;
use crate::model::types::Property;
use crate::network::Network;
use crate::observer::{Late, Response};
use crate::semantics::{Abstraction, ZoneGraph};
use crate::syntax::ast::PathOp;

pub mod term;

/// The largest constant a clock bound may have (FORMAT.md section 2).
const MAX_BOUND: i64 = 1 << 28;

/// The worst-case time from `φ` to `ψ`.
#[derive(Debug)]
pub enum WorstCase {
    /// The supremum (an integer on timed networks), and whether some run
    /// takes exactly that long; `0` also when no divergent run has a `φ and
    /// not ψ` moment. `warnings`: the time-locks `φ --> ψ` met (runs into
    /// them do not count).
    Sup { value: Q, attained: bool, warnings: Vec<Warning> },
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
    if options.data == DataChoice::Auto {
        return auto(net, property, options);
    }
    let unsupported = |why: String| WorstCase::None(unsupported(why));
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
    let shape = Shape::LeadsTo(p, q);
    let live = if options.data == DataChoice::Bdd {
        symdata::live::check(net, &shape, Abstraction::Lu, options)
    } else {
        liveness::check(net, shape, Abstraction::Lu, &options.limits, options.domain, &options.time_locks)
    };
    let live = super::exact_time_locks(net, property, options, live.outcome, live.locks);
    match live.verdict {
        Verdict::Violated => return WorstCase::Unbounded(live),
        Verdict::Satisfied => {}
        _ => return WorstCase::None(live),
    }
    if net.hybrid.is_some() {
        return linear_worst_case(net, phi, psi, options, live.warnings);
    }
    let measured = match measure(net, phi, psi, options) {
        Ok(m) => m,
        Err(o) => return WorstCase::None(*o),
    };
    let Some(m) = measured.filter(|m| m.value() > 0) else {
        // No `φ and not ψ` moment, or every one answered at once.
        return WorstCase::Sup { value: Q::zero(), attained: true, warnings: live.warnings };
    };
    // `holds(b, strict)`: `φ -->[<= b] ψ` (`-->[< b]` when strict).
    // `Err`: the outcome of a check that gave no verdict.
    let holds = |b: i64, strict: bool| -> Result<bool, Box<Outcome>> {
        let r = within(phi, psi, TimeBound { cmp: if strict { Cmp::Lt } else { Cmp::Le }, value: b });
        let o = observer::check(net, &r, liveness::abstraction(options), options);
        match o.verdict {
            Verdict::Satisfied => Ok(true),
            Verdict::Violated => Ok(false),
            _ => Err(Box::new(o)),
        }
    };
    let least = |top: i64| -> Result<i64, Box<Outcome>> {
        // `-->[<= top]` holds: every divergent response is within `m`.
        if !holds(top - 1, false)? {
            return Ok(top);
        }
        let (mut lo, mut hi) = (0, top - 1);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if holds(mid, false)? { hi = mid } else { lo = mid + 1 }
        }
        Ok(lo)
    };
    let top = i64::from(m.value());
    let worst = match least(top) {
        Ok(w) => w,
        Err(o) => return WorstCase::None(*o),
    };
    // Not attained over all runs: then not over the divergent ones either.
    let attained = if worst == 0 {
        true
    } else if worst == top && m.is_strict() {
        false
    } else {
        match holds(worst, true) {
            Ok(h) => !h,
            Err(o) => return WorstCase::None(*o),
        }
    };
    WorstCase::Sup { value: Q::from_integer(worst.into()), attained, warnings: live.warnings }
}

/// [`worst_case`] on a linear network, once `φ --> ψ` holds (module doc).
fn linear_worst_case(
    net: &Network,
    phi: &Formula,
    psi: &Formula,
    options: &Options,
    warnings: Vec<Warning>,
) -> WorstCase {
    let unsupported = |why: String| WorstCase::None(unsupported(why));
    // The bound is unused: the product is built without its `bad` edge.
    let r = within(phi, psi, TimeBound { cmp: Cmp::Le, value: 0 });
    let product = match crate::observer::product(net, &r, None) {
        Ok(p) => p,
        Err(why) => return unsupported(why),
    };
    let measured = term::sup_linear(&product.net, product.clock, &product.at(product.wait), options);
    let (value, attained) = match measured {
        Ok(Sup::Empty) => (Q::zero(), true),
        Ok(Sup::Max { value, attained }) => (value, attained),
        Ok(Sup::Unbounded) => {
            return unsupported(
                "the response time is unbounded over all runs, though not over the time-divergent ones: their \
                 worst case is not computed on linear networks yet"
                    .into(),
            );
        }
        Err(o) => return WorstCase::None(*o),
    };
    if value.is_zero() {
        return WorstCase::Sup { value, attained: true, warnings };
    }
    if !attained {
        return unsupported(format!(
            "the response time is below {value} over all runs, and comes as close as you like; whether \
             time-divergent runs do is not decided on linear networks yet"
        ));
    }
    let late = Late { value: value.clone(), reached: true };
    let o = observer::check_late(net, &r, &late, liveness::abstraction(options), options);
    match o.verdict {
        // A divergent run takes at least `value`, and none takes more.
        Verdict::Violated => WorstCase::Sup { value, attained: true, warnings },
        Verdict::Satisfied => unsupported(format!(
            "the response time reaches {value} only on runs that are time-locked; the worst case over the \
             time-divergent runs is not computed on linear networks yet"
        )),
        _ => WorstCase::None(o),
    }
}

/// The largest upper bound of `w` over the reachable `wait` zones of the
/// observer product (`None` when `wait` is unreachable): the worst case
/// over all runs, time-locked stretches included. `Err`: why there is no
/// answer.
fn measure(net: &Network, phi: &Formula, psi: &Formula, options: &Options) -> Result<Option<Bound>, Box<Outcome>> {
    let unsupported = |why: String| Box::new(unsupported(why));
    // The bound is unused: the product is built without its `bad` edge.
    let r = within(phi, psi, TimeBound { cmp: Cmp::Le, value: 0 });
    let mut product = crate::observer::product(net, &r, None).map_err(unsupported)?;
    let (obs, wait, w) = (product.process as usize, product.wait, product.clock as usize);
    let bounds = &mut product.net.lu.local[obs][wait as usize];
    bounds.retain(|&(clock, _, _)| clock as usize != w);
    bounds.push((w as u32, MAX_BOUND, MAX_BOUND));
    let sup = if options.data == DataChoice::Bdd {
        bdd_sup(&product.net, obs, wait, w, options)?
    } else {
        explicit_sup(&product.net, obs, wait, w, options)?
    };
    match sup {
        Some(b) if !b.is_finite() => {
            Err(unsupported("internal error: `w` is unbounded in a reachable zone although φ --> ψ holds".into()))
        }
        s => Ok(s),
    }
}

/// The largest upper bound of `w` over the reachable `wait` zones of the
/// product `net` (observer `obs`), explored with explicit data.
fn explicit_sup(
    net: &Network,
    obs: usize,
    wait: u32,
    w: usize,
    options: &Options,
) -> Result<Option<Bound>, Box<Outcome>> {
    let mut zg = ZoneGraph::new(net, Abstraction::Lu);
    // Every stored `wait` zone's upper bound of `w` (a zone dropped later
    // for a larger one has no larger bound).
    let mut sup: Option<Bound> = None;
    let mut visit = |_: &mut ZoneGraph<'_>, s: &crate::semantics::ZoneState| {
        if s.discrete.locs[obs] == wait {
            let b = s.zone.bound(w, 0);
            if sup.is_none_or(|m| b > m) {
                sup = Some(b);
            }
        }
        Ok(Federation::empty())
    };
    let run = reach::explore(&mut zg, Order::Bfs, Cover::Inclusion, &options.limits, &mut visit);
    match run.end {
        End::Exhausted => Ok(sup),
        End::Stopped(u) => Err(Box::new(no_answer(Verdict::Unknown(u)))),
        End::Error { error, .. } => Err(Box::new(no_answer(Verdict::Error(error.describe(net))))),
        End::Found { .. } => unreachable!("nothing is searched for"),
    }
}

/// [`explicit_sup`] with data as BDDs: every node of the data-symbolic
/// search holds a reachable zone (with the data set that reaches it), and a
/// node whose data a larger zone took over has no larger bound. A run-time
/// error is measured again with explicit data, which reports it with its
/// trace.
fn bdd_sup(net: &Network, obs: usize, wait: u32, w: usize, options: &Options) -> Result<Option<Bound>, Box<Outcome>> {
    // ExtraLU+ as with explicit data: `w`'s bounds keep it exact.
    let lu = Options { abstraction: None, ..options.clone() };
    match symdata::reachable_zones(net, &lu)? {
        Some(zones) => Ok(zones.iter().filter(|(locs, _)| locs[obs] == wait).map(|(_, z)| z.bound(w, 0)).max()),
        None => explicit_sup(net, obs, wait, w, options),
    }
}

/// `--data auto`: BDDs where [`symdata::auto::wants_bdds`] and the BDD
/// engines take the model and the property, else explicit data.
fn auto(net: &Network, property: &Property, options: &Options) -> WorstCase {
    let with = |data| Options { data, ..options.clone() };
    if symdata::auto::wants_bdds(net) {
        let bdd = worst_case(net, property, &with(DataChoice::Bdd));
        if !matches!(&bdd, WorstCase::None(o) if symdata::auto::refused(o)) {
            return bdd;
        }
    }
    worst_case(net, property, &with(DataChoice::Explicit))
}

/// `φ -->[bound] ψ` as an observer's response.
fn within(phi: &Formula, psi: &Formula, bound: TimeBound) -> Response {
    Response { trigger: Some(phi.clone()), response: psi.clone(), bound, texts: (None, String::new()) }
}

/// No answer: `why` is not supported.
fn unsupported(why: String) -> Outcome {
    Outcome::unsupported(EngineKind::Observer, why)
}

fn no_answer(verdict: Verdict) -> Outcome {
    let mut o = unsupported(String::new());
    o.verdict = verdict;
    o
}
