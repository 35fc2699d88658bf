//! Multi-core forward exploration for `E<>` and `A[]` (`--jobs N`), after
//! Dalsgaard, Laarman, Larsen, Olesen and van de Pol, "Multi-core
//! reachability for timed automata" (FORMATS 2012): a passed list keyed by
//! the discrete state with subsumption ([`passed`]), shared between the
//! workers under one lock per shard, and a waiting set shared by work
//! stealing ([`waiting`]).
//!
//! **Why the verdict is the one thread's.** Subsumption by inclusion or
//! aLU is sound and complete in any order of exploration: a state is
//! dropped only when a live zone of its discrete state covers it, and a
//! covering zone's successors cover the dropped one's (inclusion and aLU
//! are simulations), so some explored state covers every reachable one,
//! whichever worker got there first. Only how many states are stored
//! before subsumption prunes them depends on the order.
//!
//! **Why the trace is the one thread's.** The workers search for the
//! verdict only. When one meets a target (or a run-time error), they all
//! stop and the caller runs the one-thread search, which finds the same
//! verdict and the breadth-first trace it always reports. A satisfied
//! `E<>` (a violated `A[]`) thus costs the parallel search up to the hit
//! plus the sequential one; an exhausted search, where the work is, is
//! parallel throughout.
//!
//! Searches without subsumption (`--no-subsumption`), liveness, bounded
//! response, `bound` and the fixpoint engine run on one thread.

mod passed;
mod waiting;
mod zones;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::domain::ClockSet;
use crate::domain::federation::Federation;
use crate::engine::limits::{Limits, peak_resident_bytes};
use crate::engine::store::Cover;
use crate::engine::{Stats, Unknown};
use crate::network::Network;
use crate::semantics::{Abstraction, Discrete, RunError, ZoneGraph, ZoneState};
use passed::Passed;
use std::sync::{Arc, Mutex};
use waiting::Waiting;

/// The target test, shared by the workers.
pub type SharedTarget<'a, S> =
    dyn Fn(&mut ZoneGraph<'_, S>, &ZoneState<S>) -> Result<Federation<S>, RunError> + Sync + 'a;

/// How the parallel search ended.
pub enum Ended {
    /// Every reachable state explored, no target met.
    Exhausted,
    Stopped(Unknown),
    /// A target or a run-time error met: the one-thread search gives the
    /// verdict and its trace.
    Hit,
}

/// What the workers share.
struct Shared<S> {
    passed: Passed<S>,
    /// Nodes to expand: their zones stay in the passed list, where a
    /// covered one is found gone.
    waiting: Waiting<(u64, Arc<Discrete>)>,
    next_node: AtomicU64,
    visited: AtomicU64,
    transitions: AtomicU64,
    halted: AtomicBool,
    /// Why the search halted (the first worker to halt says).
    end: Mutex<Option<Ended>>,
}

impl<S> Shared<S> {
    fn halt(&self, why: Ended) {
        let mut end = self.end.lock().unwrap_or_else(|e| e.into_inner());
        if end.is_none() {
            *end = Some(why);
        }
        self.halted.store(true, Ordering::SeqCst);
    }
}

/// Explores the zone graph of `net` with `jobs` workers until a target
/// state, a run-time error, a limit or the end.
pub fn explore<S: ClockSet + Send + Sync>(
    net: &Network,
    abstraction: Abstraction,
    cover: Cover,
    limits: &Limits,
    jobs: usize,
    target: &SharedTarget<'_, S>,
) -> (Ended, Stats) {
    let start = Instant::now();
    let shared = Shared {
        passed: Passed::new(cover),
        waiting: Waiting::new(jobs),
        next_node: AtomicU64::new(0),
        visited: AtomicU64::new(0),
        transitions: AtomicU64::new(0),
        halted: AtomicBool::new(false),
        end: Mutex::new(None),
    };
    let mut zg = ZoneGraph::<S>::with_sets(net, abstraction);
    let mut initial = Vec::new();
    match zg.initial(&mut initial) {
        Ok(()) => {
            for (k, s) in initial.iter().enumerate() {
                admit(&shared, &mut zg, k % jobs, s, target);
            }
        }
        Err(_) => shared.halt(Ended::Hit),
    }
    if !shared.halted.load(Ordering::SeqCst) {
        std::thread::scope(|scope| {
            for me in 0..jobs {
                let shared = &shared;
                scope.spawn(move || work(shared, me, net, abstraction, limits, target));
            }
        });
    }
    let end = shared.end.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or(Ended::Exhausted);
    let store_bytes = shared.passed.bytes();
    let stats = Stats {
        visited: shared.visited.load(Ordering::SeqCst),
        stored: shared.passed.stored(),
        transitions: shared.transitions.load(Ordering::SeqCst),
        time_s: start.elapsed().as_secs_f64(),
        peak_bytes: store_bytes,
        store_bytes,
        peak_rss_bytes: peak_resident_bytes().unwrap_or(0),
        jobs: jobs as u32,
        contended: shared.passed.contended(),
        steals: shared.waiting.steals(),
    };
    (end, stats)
}

/// Stores `state` unless covered, tests it and queues it on `me`'s queue;
/// a hit halts the search.
fn admit<S: ClockSet + Send>(
    shared: &Shared<S>,
    zg: &mut ZoneGraph<'_, S>,
    me: usize,
    state: &ZoneState<S>,
    target: &SharedTarget<'_, S>,
) {
    let node = shared.next_node.fetch_add(1, Ordering::Relaxed);
    let Some(discrete) = shared.passed.insert(zg, state, node) else { return };
    match target(zg, state) {
        Ok(w) if w.is_empty() => shared.waiting.push(me, (node, discrete)),
        _ => shared.halt(Ended::Hit),
    }
}

/// One worker: expands states until the search ends or halts.
fn work<S: ClockSet + Send + Sync>(
    shared: &Shared<S>,
    me: usize,
    net: &Network,
    abstraction: Abstraction,
    limits: &Limits,
    target: &SharedTarget<'_, S>,
) {
    let mut zg = ZoneGraph::<S>::with_sets(net, abstraction);
    let mut watch = limits.watch();
    let (mut transitions, mut successors) = (Vec::new(), Vec::new());
    let mut state: Option<ZoneState<S>> = None;
    let mut idle = 0u32;
    while !shared.halted.load(Ordering::Relaxed) {
        let Some((node, discrete)) = shared.waiting.pop(me) else {
            if shared.waiting.is_finished() {
                return;
            }
            // Others are expanding: their successors will be stolen soon.
            idle += 1;
            if idle < 64 {
                std::thread::yield_now();
            } else {
                std::thread::sleep(Duration::from_micros(50));
            }
            continue;
        };
        idle = 0;
        let state = state.get_or_insert_with(|| ZoneState { discrete: (*discrete).clone(), zone: S::zero(net.dim()) });
        if shared.passed.load(&discrete, node, &mut state.zone) {
            state.discrete.clone_from(&discrete);
            let visited = shared.visited.fetch_add(1, Ordering::Relaxed);
            if let Some(why) = watch.check(visited) {
                shared.visited.fetch_sub(1, Ordering::Relaxed);
                shared.halt(Ended::Stopped(why));
                return;
            }
            if zg.successors(state, &mut transitions, &mut successors).is_err() {
                shared.halt(Ended::Hit);
                return;
            }
            shared.transitions.fetch_add(successors.len() as u64, Ordering::Relaxed);
            for (s, _) in &successors {
                admit(shared, &mut zg, me, s, target);
            }
            watch.stored(shared.passed.stored());
        }
        shared.waiting.done();
    }
}
