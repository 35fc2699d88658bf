//! The zones of the concurrent passed list, hash-consed as the one-thread
//! store's are (`store/zones.rs`): one copy per distinct zone, shared by
//! the live nodes holding it, dropped with the last of them. Sharded by the
//! zone's hash, one lock per shard; a node holds its zone by `Arc`, so
//! subsumption tests read zones without any lock.
//!
//! The count: every clone and every drop of a table's `Arc` happens under
//! its shard's lock ([`Zones::acquire`], [`Zones::release`]), so a strong
//! count of 2 (the table's and the releasing holder's) seen there means no
//! other holder exists, nor can appear before the entry is gone.

use std::hash::BuildHasher;
use std::sync::{Arc, Mutex, MutexGuard};

use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

use crate::domain::ClockSet;
use crate::engine::store::block;

const SHARDS: usize = 256;

pub struct Zones<S> {
    shards: Box<[Mutex<HashTable<Arc<S>>>]>,
}

fn hash<S: ClockSet>(zone: &S) -> u64 {
    FxBuildHasher.hash_one(zone)
}

impl<S: ClockSet> Zones<S> {
    pub fn new() -> Self {
        Zones { shards: (0..SHARDS).map(|_| Mutex::new(HashTable::new())).collect() }
    }

    fn shard(&self, h: u64) -> MutexGuard<'_, HashTable<Arc<S>>> {
        // A panicking worker ends the search with its panic.
        self.shards[(h >> 48) as usize % SHARDS].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The shared copy of `zone`, made if new.
    pub fn acquire(&self, zone: &S) -> Arc<S> {
        let h = hash(zone);
        let mut table = self.shard(h);
        if let Some(z) = table.find(h, |z| **z == *zone) {
            return Arc::clone(z);
        }
        let z = Arc::new(zone.clone());
        table.insert_unique(h, Arc::clone(&z), |z| hash(&**z));
        z
    }

    /// Gives a holder's copy back; the last holder's takes the zone out.
    pub fn release(&self, zone: Arc<S>) {
        let h = hash(&*zone);
        let mut table = self.shard(h);
        if Arc::strong_count(&zone) == 2
            && let Ok(entry) = table.find_entry(h, |z| Arc::ptr_eq(z, &zone))
        {
            entry.remove();
        }
        drop(zone);
        drop(table);
    }

    /// Bytes held, estimated as the one-thread store does (the `Arc`'s two
    /// counts beside the matrix's handle, then the matrix).
    pub fn bytes(&self) -> u64 {
        let mut total = 0;
        for s in &self.shards {
            let table = s.lock().unwrap_or_else(|e| e.into_inner());
            total += (table.capacity() * (std::mem::size_of::<Arc<S>>() + 1)) as u64;
            total += table.iter().map(|z| block(16 + std::mem::size_of::<S>()) + block(z.heap_bytes())).sum::<u64>();
        }
        total
    }
}
