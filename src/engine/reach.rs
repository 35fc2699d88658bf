//! Forward, on-the-fly exploration of the zone graph with a passed/waiting
//! list keyed by the discrete state (maximal zones only, unless asked to keep
//! every distinct zone).

use std::time::Instant;

use crate::domain::ClockSet;
use crate::domain::federation::Federation;
use crate::domain::zone::Dbm;
use crate::engine::store::Store;
use crate::engine::waiting::Waiting;
use crate::engine::{Stats, Unknown};
use crate::semantics::{RunError, Transition, ZoneGraph, ZoneState};

pub use crate::engine::limits::Limits;
pub use crate::engine::store::Cover;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Bfs,
    Dfs,
    /// Depth-first, the successors of each expanded node stacked in an
    /// order drawn from the seed (UPPAAL's random depth-first, `-o 3`).
    Rdfs {
        seed: u64,
    },
}

pub enum End<S = Dbm> {
    /// A state meeting the target, and its satisfying valuations.
    Found {
        node: u32,
        witness: Federation<S>,
    },
    Exhausted,
    Stopped(Unknown),
    /// A run-time error while expanding `node` (or building the initial
    /// states, when `None`).
    Error {
        node: Option<u32>,
        error: RunError,
    },
}

pub struct Exploration<S: ClockSet = Dbm> {
    pub end: End<S>,
    pub store: Store<S>,
    pub stats: Stats,
}

/// The target test: the valuations of a state that meet the goal.
pub type Target<'a, S> = dyn FnMut(&mut ZoneGraph<'_, S>, &ZoneState<S>) -> Result<Federation<S>, RunError> + 'a;

pub fn explore<S: ClockSet>(
    zg: &mut ZoneGraph<'_, S>,
    order: Order,
    cover: Cover,
    limits: &Limits,
    target: &mut Target<'_, S>,
) -> Exploration<S> {
    let start = Instant::now();
    let mut store = Store::new(cover);
    let mut waiting = Waiting::new(order);
    let mut stats = Stats::default();
    let mut watch = limits.watch();
    let finish = |end, store: Store<S>, mut stats: Stats| {
        stats.stored = store.stored();
        (stats.store_bytes, stats.peak_bytes) = store.bytes();
        stats.peak_rss_bytes = crate::engine::limits::peak_resident_bytes().unwrap_or(0);
        stats.time_s = start.elapsed().as_secs_f64();
        Exploration { end, store, stats }
    };
    let mut initial = Vec::new();
    if let Err(error) = zg.initial(&mut initial) {
        return finish(End::Error { node: None, error }, store, stats);
    }
    // Stores a state unless covered and tests it: the new node to queue,
    // or how the search ends.
    let mut admit =
        |zg: &mut ZoneGraph<'_, S>, store: &mut Store<S>, state: &ZoneState<S>, parent: Option<(u32, &Transition)>| {
            let Some(id) = store.insert(zg, state, parent) else { return Ok(None) };
            match target(zg, state) {
                Ok(w) if !w.is_empty() => Err(End::Found { node: id, witness: w }),
                Ok(_) => Ok(Some(id)),
                Err(error) => Err(End::Error { node: Some(id), error }),
            }
        };
    for state in &initial {
        match admit(zg, &mut store, state, None) {
            Ok(Some(id)) => waiting.push(id, 0, store.retired()),
            Ok(None) => {}
            Err(end) => return finish(end, store, stats),
        }
    }
    let Some(mut current) = initial.first().cloned() else { return finish(End::Exhausted, store, stats) };
    let (mut transitions, mut successors) = (Vec::new(), Vec::new());
    loop {
        let Some((id, depth)) = waiting.pop() else { return finish(End::Exhausted, store, stats) };
        if !store.is_alive(id) {
            continue;
        }
        if let Some(why) = watch.check(stats.visited) {
            return finish(End::Stopped(why), store, stats);
        }
        stats.visited += 1;
        store.load(id, &mut current);
        // Limits are polled between successors too: one expansion can take
        // seconds or outgrow the memory budget (thousands of zones over
        // thousands of clocks).
        let mut stop = None;
        let expanded = zg.successors_while(&current, &mut transitions, &mut successors, || {
            stop = watch.poll();
            stop.is_none()
        });
        if let Some(why) = stop {
            return finish(End::Stopped(why), store, stats);
        }
        if let Err(error) = expanded {
            return finish(End::Error { node: Some(id), error }, store, stats);
        }
        stats.transitions += successors.len() as u64;
        for (state, step) in &successors {
            match admit(zg, &mut store, state, Some((id, step))) {
                Ok(Some(new)) => waiting.push(new, depth + 1, store.retired()),
                Ok(None) => {}
                Err(end) => return finish(end, store, stats),
            }
        }
        watch.stored(store.stored());
    }
}
