//! `sup{φ}: e1, e2` and `inf{φ}: e1, e2` (UPPAAL's queries): the supremum
//! or infimum of each term, a clock or an integer expression over the data,
//! over every valuation at every time point of the reachable states where
//! `φ` holds, and whether some state attains it.
//!
//! The forward search of `bound::term` measures it: per visited symbolic
//! state, the term's range over the part where `φ` holds (a DBM entry for a
//! clock, the value itself for data). Data and locations are exact under
//! any abstraction that preserves reachability, so integer terms are exact.
//!
//! A clock is exact below a constant `M`: the measured clocks get
//! `L = U = M` everywhere, `M` the largest constant of the network and of
//! `φ` (any clock's). The LU simulation of Behrmann, Bouyer, Larsen and
//! Pelánek relates `v` to `v'` only if, for each clock `x`, `v'(x) < v(x)`
//! implies `v'(x) > L(x)` and `v'(x) > v(x)` implies `v(x) > U(x)`; with
//! `v(x) ≤ M = L(x) = U(x)` both are impossible, so `v'(x) = v(x)`. Every
//! valuation of an abstract zone is simulated by a reachable one (ExtraLU+
//! stays within the simulation's abstraction), which satisfies `φ` when `v`
//! does (`φ`'s constants are in the bounds, as for `E<> φ`). Hence every
//! value of `x` up to `M` in an abstract zone's `φ`-part is one of a
//! reachable `φ`-state; the zones before extrapolation hold only reachable
//! valuations and lie inside the abstract ones. So:
//! - an abstract supremum or infimum `s <= M` is the exact one, attained
//!   iff the zone's bound is not strict;
//! - an abstract supremum past `M` says that some reachable `φ`-state has
//!   `x > M` (ExtraLU+ drops every upper bound past `U`), and nothing more:
//!   [`Extreme::Beyond`];
//! - an abstract infimum of `M` not attained (ExtraLU+ turns every lower
//!   bound past `L` into `x > M`) says only that every reachable `φ`-state
//!   has `x > M`: the infimum is `M` or more.
//!
//! `M` is taken over all clocks, not only the measured ones: a clock
//! compared with nothing itself would otherwise only be known above 0. The
//! cost is that of `deadlock`'s `L = U = max` for the measured clocks.
//! Under `--abstraction none` zones are exact (the search may not end): a
//! supremum past every constant is then [`Extreme::Unbounded`].
//!
//! With `--data bdd` the same search runs on the data-symbolic states
//! ([`symdata::measure`]).
//!
//! Refused (not supported yet): linear networks (hybrid models, fixed
//! timing parameters), `--domain poly`, diagonal constraints (the
//! abstraction above is unsound with them), `deadlock` in `φ`.

use crate::domain::poly::{Q, Sup};
use crate::domain::zone::Dbm;
use crate::engine::bound::term::{self, Term};
use crate::engine::reach::Cover;
use crate::engine::symdata::auto::REFUSAL;
use crate::engine::symdata::{self, measure::Stop};
use crate::engine::{AbstractionChoice, DataChoice, Domain, Options, Outcome, Verdict, reach_check};
use crate::model::formula::{EngineKind, Measure};
use crate::model::types::Property;
use crate::network::{LuBounds, MeasuredTerm, Network, StateFormula};
use crate::semantics::Abstraction;
use crate::syntax::ast::Extremum;

/// What a `sup`/`inf` query measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measured {
    pub kind: Extremum,
    /// The constant `M` up to which clock values are exact (`None` with
    /// exact zones).
    pub limit: Option<i64>,
    /// One per term, in order; `None` when no reachable state satisfies
    /// the condition.
    pub values: Option<Vec<Extreme>>,
}

/// The supremum or infimum of one term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Extreme {
    /// The exact value, and whether some reachable state has it.
    Exact { value: i64, attained: bool },
    /// A clock past the limit `M`: for `sup`, some state has it above `M`
    /// (the supremum is larger, or infinite); for `inf`, every state has it
    /// above `M`.
    Beyond,
    /// A supremum that is infinite (exact zones only).
    Unbounded,
}

/// `sup`/`inf` of `m`, the formula of `property`.
pub fn check(net: &Network, property: &Property, m: &Measure, options: &Options) -> Outcome {
    let refuse = |why: String| Outcome::unsupported(EngineKind::Reach, why);
    let query = m.kind.word();
    if options.engine.is_some_and(|e| e != EngineKind::Reach) {
        return refuse(format!("`{query}` is measured by the forward search (`--engine reach`) only"));
    }
    if net.hybrid.is_some() {
        return refuse(format!(
            "`{query}` on hybrid models and models with fixed timing parameters is not supported yet"
        ));
    }
    if options.domain == Domain::Poly {
        return refuse(format!("`{query}` with `--domain poly` is not supported yet"));
    }
    let phi = match net.state_formula(property, &m.cond) {
        Ok(f) => f,
        Err(d) => return refuse(d.message),
    };
    if phi.mentions_deadlock() {
        return refuse(format!("`{query}` with `deadlock` in its condition is not supported yet"));
    }
    if net.has_diagonals || phi.has_diagonal() {
        return refuse(format!("`{query}` on models with diagonal constraints (`x - y ~ c`) is not supported yet"));
    }
    let mut terms = Vec::with_capacity(m.terms.len());
    for t in &m.terms {
        match net.measured_term(property, &t.value) {
            Ok(c) => terms.push(c),
            Err(d) => return refuse(d.message),
        }
    }
    let exact = options.abstraction == Some(AbstractionChoice::None);
    let mut net = net.clone();
    net.add_formula_bounds(&phi);
    let limit = largest_constant(&net.lu);
    let mut measured = Vec::with_capacity(terms.len());
    for t in &terms {
        measured.push(match t {
            MeasuredTerm::Clock(x) => {
                if !exact {
                    net.lu.add_global(*x as usize, limit, limit);
                }
                Term::var(*x)
            }
            MeasuredTerm::Data(code) => Term::data(code.clone()),
        });
    }
    let abstraction = if exact { Abstraction::None } else { Abstraction::Lu };
    let cover = if options.subsumption { Cover::Inclusion } else { Cover::Equal };
    let explicit = || term::measure::<Dbm>(&net, &measured, &phi, abstraction, cover, options);
    let result = if options.data == DataChoice::Bdd {
        match symdata::measure::measure(&net, &measured, &phi, options) {
            Ok(Ok(x)) => Ok(x),
            Ok(Err(Stop::Limit(u, stats))) => {
                let mut o = refuse(String::new());
                (o.verdict, o.stats) = (Verdict::Unknown(u), Some(stats));
                Err(Box::new(o))
            }
            // The explicit measure reports the run-time error with its trace.
            Ok(Err(Stop::Error)) => explicit(),
            Err(why) => return refuse(format!("{REFUSAL}: {}", why.0)),
        }
    } else {
        explicit()
    };
    let (ends, stats) = match result {
        Ok(x) => x,
        Err(o) => return no_answer(&net, *o, options),
    };
    let limit = (!exact).then_some(limit);
    let values = ends
        .into_iter()
        .zip(&terms)
        .map(|((up, down), t)| {
            let clock = matches!(t, MeasuredTerm::Clock(_));
            match m.kind {
                Extremum::Sup => extreme(up, false, clock.then_some(limit).flatten()),
                Extremum::Inf => extreme(down, true, clock.then_some(limit).flatten()),
            }
        })
        .collect::<Option<Vec<_>>>();
    Outcome {
        verdict: Verdict::Measured(Measured { kind: m.kind, limit, values }),
        engine: EngineKind::Reach,
        stats: Some(stats),
        trace: None,
        warnings: Vec::new(),
        network: None,
    }
}

/// The largest constant any clock is compared with (0 without any).
fn largest_constant(lu: &LuBounds) -> i64 {
    let local = lu.local.iter().flatten().flatten().map(|&(_, l, u)| l.max(u));
    let global = lu.global.iter().map(|&(l, u)| l.max(u));
    local.chain(global).max().unwrap_or(0).max(0)
}

/// One end of a term's range from the measure's supremum (`negated`: the
/// supremum of the negated term, an infimum); `limit`: a clock's `M`.
/// `None`: no state satisfies the condition.
fn extreme(s: Sup, negated: bool, limit: Option<i64>) -> Option<Extreme> {
    let sign = if negated { -1 } else { 1 };
    Some(match s {
        Sup::Empty => return None,
        Sup::Unbounded if limit.is_some() => Extreme::Beyond,
        Sup::Unbounded => Extreme::Unbounded,
        Sup::Max { value, attained } => {
            let v = sign * integer(&value);
            match limit {
                // Past the limit: for `sup`, `x > M` somewhere. For `inf`,
                // ExtraLU+ turns every lower bound past `L = M` into
                // `x > M`: an infimum of `M`, not attained, may be the
                // abstraction's.
                Some(m) if v > m || (negated && v == m && !attained) => Extreme::Beyond,
                _ => Extreme::Exact { value: v, attained },
            }
        }
    })
}

/// A supremum on zones, an integer.
fn integer(q: &Q) -> i64 {
    i64::try_from(q.to_integer()).unwrap_or(i64::MAX)
}

/// The outcome of a measure that ended without values, as the forward
/// search reports it; a run-time error is searched for again by the reach
/// engine, which gives its trace.
fn no_answer(net: &Network, mut o: Outcome, options: &Options) -> Outcome {
    o.engine = EngineKind::Reach;
    if let Verdict::Error(_) = o.verdict {
        let search = reach_check(net, StateFormula::Pred(Vec::new()), true, options);
        if matches!(search.verdict, Verdict::Error(_)) {
            return search;
        }
    }
    o
}
