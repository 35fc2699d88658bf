//! The concurrent passed list: the live zones of each discrete state,
//! sharded by the discrete state's hash, one lock per shard. A state is
//! tested against, and retires, only the zones of its own discrete state,
//! so two workers meet on a lock only when their states hash to one shard:
//! with `SHARDS` far above the number of workers that is rare (the
//! contention is counted, see [`Passed::contended`]).

use std::hash::BuildHasher;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use rustc_hash::{FxBuildHasher, FxHashMap};

use crate::domain::ClockSet;
use crate::engine::store::{Cover, block};
use crate::semantics::{Discrete, ZoneGraph, ZoneState};

const SHARDS: usize = 1024;

/// A live zone and the node it belongs to.
struct Live<S> {
    zone: S,
    node: u64,
}

#[derive(Default)]
struct Shard<S> {
    /// Per discrete state, its live zones, pairwise incomparable (or
    /// pairwise distinct under `Cover::Equal`).
    live: FxHashMap<Discrete, Vec<Live<S>>>,
    stored: u64,
}

pub struct Passed<S> {
    cover: Cover,
    shards: Box<[Mutex<Shard<S>>]>,
    /// Lock acquisitions that found the shard taken.
    contended: AtomicU64,
}

impl<S: ClockSet + Send> Passed<S> {
    pub fn new(cover: Cover) -> Self {
        let shards = (0..SHARDS).map(|_| Mutex::new(Shard { live: FxHashMap::default(), stored: 0 })).collect();
        Passed { cover, shards, contended: AtomicU64::new(0) }
    }

    fn shard(&self, d: &Discrete) -> std::sync::MutexGuard<'_, Shard<S>> {
        // The high bits: Fx mixes them best.
        let at = (FxBuildHasher.hash_one(d) >> 40) as usize % SHARDS;
        match self.shards[at].try_lock() {
            Ok(guard) => guard,
            Err(_) => {
                self.contended.fetch_add(1, Ordering::Relaxed);
                // A worker panicking while holding a shard already ends the
                // search with its panic; the data is not read after that.
                self.shards[at].lock().unwrap_or_else(|e| e.into_inner())
            }
        }
    }

    /// Stores `state` as `node` unless a live zone of its discrete state
    /// covers it, retiring the live zones it covers. The same one-pass
    /// argument as the sequential store's (`Store::insert`): live zones are
    /// pairwise incomparable. `zg` must be the caller's graph (its LU
    /// bounds are loaded here for the aLU test).
    pub fn insert(&self, zg: &mut ZoneGraph<'_, S>, state: &ZoneState<S>, node: u64) -> bool {
        let ZoneState { discrete, zone } = state;
        if self.cover == Cover::Alu {
            zg.load_bounds(discrete);
        }
        let covers = |old: &S, new: &S| match self.cover {
            Cover::Equal => old == new,
            Cover::Inclusion => new.is_subset_of(old),
            Cover::Alu => new.is_subset_of(old) || new.simulated_by(old, &zg.lower, &zg.upper),
        };
        let mut shard = self.shard(discrete);
        let shard = &mut *shard;
        let live = match shard.live.get_mut(discrete) {
            Some(live) => live,
            None => shard.live.entry(discrete.clone()).or_default(),
        };
        if live.iter().any(|l| covers(&l.zone, zone)) {
            return false;
        }
        if self.cover != Cover::Equal {
            let before = live.len();
            live.retain(|l| !covers(zone, &l.zone));
            shard.stored -= (before - live.len()) as u64;
        }
        live.push(Live { zone: zone.clone(), node });
        shard.stored += 1;
        true
    }

    /// Whether `node`, a state of discrete state `d`, is still live.
    pub fn is_alive(&self, d: &Discrete, node: u64) -> bool {
        self.cover == Cover::Equal || self.shard(d).live.get(d).is_some_and(|l| l.iter().any(|l| l.node == node))
    }

    /// Live zones, once the search is over.
    pub fn stored(&self) -> u64 {
        self.shards.iter().map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).stored).sum()
    }

    /// What the list holds, in bytes, estimated as the sequential store
    /// estimates its own (`Store::bytes`); once the search is over.
    pub fn bytes(&self) -> u64 {
        let mut total = 0;
        for s in &self.shards {
            let s = s.lock().unwrap_or_else(|e| e.into_inner());
            total += (s.live.capacity() * (std::mem::size_of::<(Discrete, Vec<Live<S>>)>() + 1)) as u64;
            for (d, live) in &s.live {
                total += block(std::mem::size_of_val(&*d.locs)) + block(std::mem::size_of_val(&*d.data));
                total += block(live.capacity() * std::mem::size_of::<Live<S>>());
                total += live.iter().map(|l| block(l.zone.heap_bytes())).sum::<u64>();
            }
        }
        total
    }

    pub fn contended(&self) -> u64 {
        self.contended.load(Ordering::Relaxed)
    }
}
