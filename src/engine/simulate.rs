//! A random run for `kairos simulate`: a random path of the exact zone graph
//! (no extrapolation), each step chosen uniformly among the symbolic
//! successors, then made concrete by the trace layer like any other
//! evidence (so it is replayed by the validator before anyone sees it).
//!
//! Every valuation of an exact zone is reached along its symbolic path, so
//! the path always has a concrete run; the delays are the trace layer's
//! earliest schedule ending in the last zone. The choice is reproducible:
//! the same seed gives the same run, on every platform (`splitmix`).

use crate::domain::federation::Federation;
use crate::engine::SymbolicTrace;
use crate::engine::splitmix::SplitMix64;
use crate::network::Network;
use crate::semantics::{Abstraction, RunError, ZoneGraph};

/// Why the walk ended.
#[derive(Clone, Debug)]
pub enum WalkEnd {
    /// It made the steps asked for.
    Done,
    /// No step is possible from the last state (after any delay).
    Stuck,
    /// A step met a run-time error (also in the trace's `error`), or the
    /// initial state did (no trace then).
    Error(RunError),
    /// No initial state satisfies the invariants.
    NoInitial,
}

pub struct Walk {
    pub trace: Option<SymbolicTrace>,
    pub end: WalkEnd,
}

/// A random path of at most `steps` steps from a random initial state.
pub fn random_walk(net: &Network, steps: u64, seed: u64) -> Walk {
    let mut rng = SplitMix64::new(seed);
    let mut zg = ZoneGraph::new(net, Abstraction::None);
    let mut initial = Vec::new();
    let first = match zg.initial(&mut initial) {
        Err(error) => return Walk { trace: None, end: WalkEnd::Error(error) },
        Ok(()) if initial.is_empty() => return Walk { trace: None, end: WalkEnd::NoInitial },
        Ok(()) => initial.swap_remove(rng.below(initial.len())),
    };
    let mut trace = SymbolicTrace {
        goal: Federation::from_zone(first.zone.clone()),
        states: vec![first],
        steps: Vec::new(),
        target: None,
        error: None,
        tick_clock: None,
        loop_start: None,
        blame: None,
        concrete: None,
    };
    let (mut transitions, mut next) = (Vec::new(), Vec::new());
    let mut end = WalkEnd::Done;
    for _ in 0..steps {
        let at = trace.states.last().expect("the walk has a state");
        if let Err(error) = zg.successors(at, &mut transitions, &mut next) {
            trace.error = Some(error.clone());
            end = WalkEnd::Error(error);
            break;
        }
        if next.is_empty() {
            end = WalkEnd::Stuck;
            break;
        }
        let (state, step) = next.swap_remove(rng.below(next.len()));
        trace.states.push(state);
        trace.steps.push(step);
    }
    trace.goal = Federation::from_zone(trace.states.last().expect("the walk has a state").zone.clone());
    Walk { trace: Some(trace), end }
}
