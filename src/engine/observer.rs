//! Bounded response through an observer ([`crate::observer`]): the
//! liveness engine on the product looks for a reachable `bad` state with a
//! time-divergent run from it (with `--data bdd`, the data-symbolic
//! liveness search, [`symdata::live`], whose data sets the observer's data
//! invariant `not ψ` cuts like any other).

use crate::engine::liveness::{self, Checked, Locks, Query};
use crate::engine::symdata::{self, live::Asked};
use crate::engine::{DataChoice, Options, Outcome, Verdict};
use crate::model::formula::EngineKind;
use crate::model::types::Property;
use crate::network::{Network, StateFormula};
use crate::observer::{Late, Response};
use crate::semantics::Abstraction;

/// Checks `r` (from `property`) on `net`.
pub fn check(net: &Network, r: &Response, abstraction: Abstraction, options: &Options) -> Outcome {
    check_late(net, r, &Late::of(r), abstraction, options)
}

/// Checks `r` on `net` with its bound replaced by `late` (a rational one
/// on linear networks, for `kairos bound`).
pub fn check_late(net: &Network, r: &Response, late: &Late, abstraction: Abstraction, options: &Options) -> Outcome {
    // Under BDDs every refusal says so, so that `--data auto` falls back
    // to explicit data (whose refusals the fixpoint engine may answer).
    let bdd = options.data == DataChoice::Bdd;
    let unsupported = |why: String| {
        let why = if bdd { format!("{}: {why}", symdata::auto::REFUSAL) } else { why };
        Outcome::unsupported(EngineKind::Observer, why)
    };
    let product = match crate::observer::product(net, r, Some(late)) {
        Ok(p) => p,
        Err(why) => return unsupported(why),
    };
    if let Some(why) = liveness::refusal(&product.net, &[], abstraction) {
        return unsupported(why);
    }
    let query = Query {
        enter: product.at(product.bad),
        stay: liveness::always(),
        initial_only: false,
        // In `wait` the observer's invariant blocks steps: not the model's.
        locks: StateFormula::Not(Box::new(product.at(product.wait))),
    };
    let mut o = if bdd {
        let asked = Asked {
            query: &query,
            every_initial: false,
            engine: EngineKind::Observer,
            found: Verdict::Violated,
            exhausted: Verdict::Satisfied,
            abstraction,
            model: false,
        };
        // What the search shows of time-locks is the product's, not the
        // model's: the engine layer's scan decides, as for explicit data.
        let explicit =
            |o: &Options| Checked { outcome: check_late(net, r, late, abstraction, o), locks: Locks::Unknown };
        symdata::live::answer(&product.net, &asked, options, explicit).outcome
    } else {
        let (limits, domain) = (&options.limits, options.domain);
        // Phase 0 is there to find `bad`, which the covering graph does; the
        // time-locks it shows are real, and where it shows none the model's
        // own graph is searched (`engine::observer_time_locks`).
        let run = liveness::search(&product.net, &query, abstraction, None, liveness::Phase0::Covering, limits, domain);
        liveness::outcome(run, EngineKind::Observer, Verdict::Violated, Verdict::Satisfied)
    };
    o.network = Some(Box::new(product.net));
    o
}

/// The observer shape of `property`, if it has one.
pub fn response(property: &Property) -> Option<Response> {
    crate::observer::response(property)
}
