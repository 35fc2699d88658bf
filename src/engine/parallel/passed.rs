//! The concurrent passed list: the live zones of each discrete state,
//! sharded by the discrete state's hash, one lock per shard. A state is
//! tested against, and retires, only the zones of its own discrete state,
//! so two workers meet on a lock only when their states hash to one shard:
//! with `SHARDS` far above the number of workers that is rare (the
//! contention is counted, see [`Passed::contended`]).

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use hashbrown::HashMap;
use rustc_hash::FxBuildHasher;

use crate::domain::ClockSet;
use crate::engine::store::{Cover, block};
use crate::semantics::{Discrete, ZoneGraph, ZoneState};

use super::zones::Zones;

const SHARDS: usize = 1024;

/// A live zone (shared, see [`Zones`]) and the node it belongs to.
struct Live<S> {
    zone: Arc<S>,
    node: u64,
}

struct Shard<S> {
    /// Per discrete state, its live zones, pairwise incomparable (or
    /// pairwise distinct under `Cover::Equal`).
    live: HashMap<Arc<Discrete>, Vec<Live<S>>, FxBuildHasher>,
}

pub struct Passed<S> {
    cover: Cover,
    shards: Box<[Mutex<Shard<S>>]>,
    /// The zones themselves. Locked inside a shard's lock, never the
    /// other way round.
    zones: Zones<S>,
    /// Lock acquisitions that found the shard taken.
    contended: AtomicU64,
    /// Live zones in all shards.
    stored: AtomicU64,
}

impl<S: ClockSet + Send> Passed<S> {
    pub fn new(cover: Cover) -> Self {
        let shards = (0..SHARDS).map(|_| Mutex::new(Shard { live: HashMap::default() })).collect();
        Passed { cover, shards, zones: Zones::new(), contended: AtomicU64::new(0), stored: AtomicU64::new(0) }
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
    /// covers it, retiring the live zones it covers; the discrete state,
    /// shared with the list, when stored. The same one-pass argument as the
    /// sequential store's (`Store::insert`): live zones are pairwise
    /// incomparable. `zg` must be the caller's graph (its LU bounds are
    /// loaded here for the aLU test).
    pub fn insert(&self, zg: &mut ZoneGraph<'_, S>, state: &ZoneState<S>, node: u64) -> Option<Arc<Discrete>> {
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
        if !shard.live.contains_key(discrete) {
            shard.live.insert(Arc::new(discrete.clone()), Vec::new());
        }
        let (key, live) = shard.live.get_key_value_mut(discrete).expect("inserted above");
        if live.iter().any(|l| covers(&l.zone, zone)) {
            return None;
        }
        if self.cover != Cover::Equal {
            let mut k = 0;
            while k < live.len() {
                if covers(zone, &live[k].zone) {
                    self.zones.release(live.swap_remove(k).zone);
                    self.stored.fetch_sub(1, Ordering::Relaxed);
                } else {
                    k += 1;
                }
            }
        }
        live.push(Live { zone: self.zones.acquire(zone), node });
        self.stored.fetch_add(1, Ordering::Relaxed);
        Some(Arc::clone(key))
    }

    /// The zone of `node`, a state of discrete state `d`, copied into
    /// `out` (reusing its buffers); false once a larger zone replaced it.
    pub fn load(&self, d: &Discrete, node: u64, out: &mut S) -> bool {
        let shard = self.shard(d);
        match shard.live.get(d).and_then(|l| l.iter().find(|l| l.node == node)) {
            Some(l) => {
                out.clone_from(&l.zone);
                true
            }
            None => false,
        }
    }

    /// Live zones (exact once the search is over).
    pub fn stored(&self) -> u64 {
        self.stored.load(Ordering::Relaxed)
    }

    /// What the list holds, in bytes, estimated as the sequential store
    /// estimates its own (`Store::bytes`); once the search is over.
    pub fn bytes(&self) -> u64 {
        let mut total = 0;
        for s in &self.shards {
            let s = s.lock().unwrap_or_else(|e| e.into_inner());
            total += (s.live.capacity() * (std::mem::size_of::<(Arc<Discrete>, Vec<Live<S>>)>() + 1)) as u64;
            for (d, live) in &s.live {
                // The `Arc`'s block (two counts and the state), then the state's.
                total += block(16 + std::mem::size_of::<Discrete>());
                total += block(std::mem::size_of_val(&*d.locs)) + block(std::mem::size_of_val(&*d.data));
                total += block(live.capacity() * std::mem::size_of::<Live<S>>());
            }
        }
        total + self.zones.bytes()
    }

    pub fn contended(&self) -> u64 {
        self.contended.load(Ordering::Relaxed)
    }
}
