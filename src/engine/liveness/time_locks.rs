//! The model's time-locks looked for on their own: after a search that
//! stopped at its answer (a lasso), after one that explored only what one
//! of several initial states reaches (`E[]`), and beside the observer
//! engine's verdicts (whose product shows the product's time-locks, not
//! the model's). The graph is searched again for nothing but them (phase 0
//! only, as a search that finds no answer explores it), which gives the
//! warnings and [`Locks`] an exhausted search gives. The engine layer
//! would otherwise run the fixpoint engine's exact scan, far slower as a
//! rule than exploring the zone graph (seconds against milliseconds on
//! small random networks).
//!
//! **The covering graph first.** The aLU graph can hold far more nodes
//! than the zone graph with subsumption (a random network: 1.7 million
//! against 18 416 stored by the reach engine). So the search first runs
//! on the covering graph ([`Phase0::Covering`]), where a new node is
//! covered by any node whose zone includes it. Its paths include every
//! path of the aLU graph, by the same transitions (the simulation argument
//! of [`super::cover`], which does not need the covering node to be
//! finished), so what it proves of every path holds of the model:
//! - a node that reaches no accepting SCC there reaches none in the aLU
//!   graph, and where [`super::zeno`] shows it has no divergent run (its
//!   arguments hold of any graph whose paths cover the concrete runs, and
//!   the covering arcs are steps by the same transitions), it is a
//!   time-lock of the model, and its parent path a run to it: its warnings
//!   are exact, though they may show fewer time-locked states;
//! - [`Locks::Excluded`] there (every run diverges, no valuation of any
//!   node stuck; every reachable valuation lies in some node) rules out
//!   time-locks.
//!
//! An accepting cycle through a covering arc need not exist, though: a
//! node good there may be time-locked. So a covering graph that shows
//! neither answer leaves it to the aLU graph's search.
//!
//! The answer depends on the network alone, so it is kept for the next
//! property of the same run ([`Cache`], as the fixpoint engine keeps its
//! analysis): a spec with several properties searches once.

use std::sync::Mutex;

use super::{End, Locks, Phase0, Query, Run, add, always, left, search};
use crate::engine::limits::Limits;
use crate::engine::{Domain, Stats, Warning};
use crate::network::{Network, StateFormula};
use crate::semantics::Abstraction;

/// The last answer of [`model_time_locks`], with the network, abstraction
/// and domain it was found for (compared on their full `Debug` text). It
/// lives in the [`Options`](crate::engine::Options) a run checks its
/// properties with; a clone of the options starts empty. A search stopped
/// by a limit is not kept.
#[derive(Default)]
pub struct Cache(Mutex<Option<(String, Vec<Warning>, Locks)>>);

impl Clone for Cache {
    /// Empty: options are copied to check other networks.
    fn clone(&self) -> Self {
        Cache::default()
    }
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("liveness::Cache")
    }
}

/// The time-locks of `net`, searched within what `limits` leave after
/// `spent` (`--max-states` bounds them together), whose counts the search
/// joins (nothing when `cache` had the answer). A search stopped by a
/// limit leaves the facts unknown and no warnings (the scan then decides).
pub fn model_time_locks(
    net: &Network,
    abstraction: Abstraction,
    limits: &Limits,
    domain: Domain,
    cache: &Cache,
    spent: &mut Stats,
) -> (Vec<Warning>, Locks) {
    cache.answer(format!("{abstraction:?} {domain:?} {net:?}"), limits, spent, |limits| {
        let q = Query { enter: never(), stay: never(), initial_only: false, locks: always() };
        let covering = search(net, &q, abstraction, None, Phase0::Covering, limits, domain);
        let mut stats = covering.stats;
        if matches!(covering.end, End::Exhausted) && shown(&covering) {
            return (Some((covering.warnings, covering.locks)), stats);
        }
        let run = search(net, &q, abstraction, None, Phase0::Whole, &left(limits, &stats), domain);
        add(&mut stats, &run.stats);
        let found = matches!(run.end, End::Exhausted).then_some((run.warnings, run.locks));
        (found, stats)
    })
}

/// The formula no state satisfies: a search for it explores all of phase 0.
pub fn never() -> StateFormula {
    // An empty disjunction.
    StateFormula::Pred(Vec::new())
}

impl Cache {
    /// The answer kept for `key` (the network and how it is searched), else
    /// the one `find` gives within what `limits` leave after `spent`
    /// (`--max-states` bounds them together), kept when it has one
    /// (`None`: a limit stopped it); what finding it cost joins `spent`.
    /// Shared by the searches with explicit and with BDD data, whose keys
    /// differ.
    pub fn answer(
        &self,
        key: String,
        limits: &Limits,
        spent: &mut Stats,
        find: impl FnOnce(&Limits) -> (Option<(Vec<Warning>, Locks)>, Stats),
    ) -> (Vec<Warning>, Locks) {
        let mut slot = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, warnings, locks)) = slot.as_ref().filter(|(k, ..)| *k == key) {
            return (warnings.clone(), *locks);
        }
        let (found, stats) = find(&left(limits, spent));
        add(spent, &stats);
        match found {
            Some((warnings, locks)) => {
                *slot = Some((key, warnings.clone(), locks));
                (warnings, locks)
            }
            None => (Vec::new(), Locks::Unknown),
        }
    }
}

/// Whether a search that explored all of phase 0 showed the answer on a
/// graph whose paths cover the model's runs: time-locked states (its
/// warnings), or facts that leave the engine layer nothing but stuck
/// valuations to look for ([`Locks`]).
fn shown(run: &Run) -> bool {
    !run.warnings.is_empty() || run.locks != Locks::Unknown
}

/// Whether a search `run` with phase 0 as `phase0` left the model's
/// time-locks unanswered: it stopped at its answer, it explored only what
/// one initial state reaches (`whole` false) or only the initial states,
/// or its covering graph did not show them.
pub(super) fn unanswered(run: &Run, whole: bool, phase0: Phase0) -> bool {
    match run.end {
        End::Found(_) => true,
        End::Exhausted => match phase0 {
            Phase0::Whole => !whole,
            Phase0::Initial => true,
            Phase0::Covering => !whole || !shown(run),
        },
        End::Stopped(_) | End::Error(..) => false,
    }
}

/// The model's time-locks for a search `run` that left them unanswered
/// ([`unanswered`]). Not on linear networks, whose time-locks the scan
/// does not look for either.
pub(super) fn time_lock_search(
    net: &Network,
    abstraction: Abstraction,
    limits: &Limits,
    domain: Domain,
    unanswered: bool,
    cache: &Cache,
    run: &mut Run,
) {
    if net.hybrid.is_some() || !unanswered {
        return;
    }
    (run.warnings, run.locks) = model_time_locks(net, abstraction, limits, domain, cache, &mut run.stats);
}
