//! `E<> φ` when a model has several initial states (`init: any`).
//!
//! FORMAT.md: a property holds when it holds in every initial state. For
//! `A[] φ` one search from all initial states at once says so (a state of
//! `not φ` reachable from any of them is a counterexample). For `E<> φ`
//! that search would answer "some initial state reaches φ"; the property
//! asks that every one does. So each initial data valuation gets its own
//! search, on a copy of the network whose `init: any` variables start at
//! that one value: the first valuation that cannot reach φ decides
//! `violated`; a valuation that is no initial state (an invariant fails)
//! is passed over. The witness shown is the first valuation's.
//!
//! The searches share the limits: the states visited so far count against
//! `--max-states`; the deadline and memory budget are the process's.

use std::time::Instant;

use crate::engine::{Options, Outcome, Stats, Verdict};
use crate::network::Network;

/// The initial data valuations of `net`'s `init: any` variables.
pub struct Valuations {
    /// The slots of those variables.
    pub slots: Vec<usize>,
    /// One value per slot, for every combination.
    pub values: Vec<Vec<i64>>,
}

/// [`Valuations`], or `None` when there is only one (then one search
/// answers).
pub fn valuations(net: &Network) -> Option<Valuations> {
    let slots: Vec<usize> = (0..net.slots.len()).filter(|&k| net.slots[k].init.0 != net.slots[k].init.1).collect();
    if slots.is_empty() {
        return None;
    }
    let mut values = vec![Vec::new()];
    for &k in &slots {
        let (lo, hi) = net.slots[k].init;
        values =
            values.into_iter().flat_map(|v: Vec<i64>| (lo..=hi).map(move |x| [v.clone(), vec![x]].concat())).collect();
    }
    Some(Valuations { slots, values })
}

/// `E<> goal` from every initial state: `search` answers it on a network
/// with one initial valuation.
pub fn every_initial(
    net: &Network,
    valuations: &Valuations,
    options: &Options,
    search: impl Fn(&Network, &Options) -> Outcome,
) -> Outcome {
    let started = Instant::now();
    let mut total = Stats::default();
    let mut witness = None;
    for v in &valuations.values {
        let mut one = net.clone();
        for (&k, &x) in valuations.slots.iter().zip(v) {
            one.slots[k].init = (x, x);
        }
        let mut opts = options.clone();
        opts.limits.max_states = options.limits.max_states.map(|m| m.saturating_sub(total.visited));
        let o = search(&one, &opts);
        let s = o.stats.unwrap_or_default();
        total.visited += s.visited;
        total.stored += s.stored;
        total.transitions += s.transitions;
        total.peak_bytes = total.peak_bytes.max(s.peak_bytes);
        total.peak_rss_bytes = total.peak_rss_bytes.max(s.peak_rss_bytes);
        total.time_s = started.elapsed().as_secs_f64();
        match o.verdict {
            Verdict::Satisfied => {
                if witness.is_none() {
                    witness = o.trace;
                }
            }
            // Not an initial state at all: nothing to reach from.
            Verdict::Violated if s.stored == 0 => {}
            _ => return Outcome { stats: Some(total), ..o },
        }
    }
    Outcome {
        verdict: Verdict::Satisfied,
        engine: crate::model::formula::EngineKind::Reach,
        stats: Some(total),
        trace: witness,
        warnings: Vec::new(),
        network: None,
    }
}
