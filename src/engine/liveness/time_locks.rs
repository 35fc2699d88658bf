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
//! The answer depends on the network alone, so it is kept for the next
//! property of the same run ([`Cache`], as the fixpoint engine keeps its
//! analysis): a spec with several properties searches once.

use std::sync::Mutex;

use super::{End, Locks, Query, Run, add, always, left, search};
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
        let run = search(net, &q, abstraction, None, limits, domain);
        let found = matches!(run.end, End::Exhausted).then_some((run.warnings, run.locks));
        (found, run.stats)
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

/// The time-locks a search `run` did not look for: it stopped at its
/// answer, or it explored only what one initial state reaches (`whole`
/// false). Not on linear networks, whose time-locks the scan does not
/// look for either.
pub(super) fn time_lock_search(
    net: &Network,
    abstraction: Abstraction,
    limits: &Limits,
    domain: Domain,
    whole: bool,
    cache: &Cache,
    run: &mut Run,
) {
    let partial = match run.end {
        End::Found(_) => true,
        End::Exhausted => !whole,
        End::Stopped(_) | End::Error(..) => false,
    };
    if net.hybrid.is_some() || !partial {
        return;
    }
    (run.warnings, run.locks) = model_time_locks(net, abstraction, limits, domain, cache, &mut run.stats);
}
